//! Import of one council election's published result files into the election snapshot
//! (`election.registered`'s data; docs/import.md).
//!
//! Pure: the caller hands in the files' names and bytes (a folder read by `nachfolge import`, a multipart
//! upload in the console) and the body's facts that no file holds; the crate returns the snapshot and a
//! report of everything the Wahlleitung must look at. Nothing here reads the file system or the clock.

pub mod contacts;
pub mod csv;
pub mod owd;
pub mod report;
pub mod votemanager;

use nachfolge_core::model::{Body, BodyKind, Land, ReturningOfficer, Snapshot};

pub use report::{ImportError, Line, Point, Report, Severity};

/// The given name of a candidate whose name no file holds; the family name then says which list place it
/// is („[Name fehlt] Wahlvorschlag 3, Platz 7“). The official replaces it (contacts CSV, console).
pub const PLACEHOLDER_NAME: &str = "[Name fehlt]";

/// One input file: its name (no directories) and its bytes as read.
#[derive(Debug, Clone)]
pub struct InputFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The published formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// votemanager (vote iT; also OK.VOTE and other hosted installations): `Open-Data-…csv`, `open_data.json`
    /// or `termin.json`, the presentation's result JSON.
    Votemanager,
    /// Offene Wahldaten (OWD): the five CSV files Kandidaten, Stimmzettel, Wahlergebnisse,
    /// Wahlgebietseinteilungen, Wahlparameter.
    Owd,
}

/// The body's facts that no published file holds (`nachfolge import` options, the console's form).
#[derive(Debug, Clone)]
pub struct BodyFacts {
    pub land: Land,
    pub id: String,
    pub name: String,
    pub kind: BodyKind,
    pub statutory_size: Option<u32>,
    pub term_start: chrono::NaiveDate,
    pub term_end: chrono::NaiveDate,
    pub returning_officer: ReturningOfficer,
}

/// Switches of an import.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Accept a count with fewer reports (Schnellmeldungen) than expected.
    pub allow_incomplete: bool,
}

/// What an import produced: a snapshot that validates, and the report. It serialises (the console keeps a
/// previewed import in the database until it is confirmed).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Imported {
    pub format: Format,
    pub snapshot: Snapshot,
    pub report: Report,
}

/// Which format `files` are in, from their names and headers; `None` when neither is recognised.
pub fn detect(files: &[InputFile]) -> Option<Format> {
    if owd::recognises(files) {
        Some(Format::Owd)
    } else if votemanager::recognises(files) {
        Some(Format::Votemanager)
    } else {
        None
    }
}

/// Import `files` (one council election) in `format` (detected when `None`).
pub fn import(
    files: &[InputFile],
    format: Option<Format>,
    facts: &BodyFacts,
    options: &Options,
) -> Result<Imported, ImportError> {
    import_with_contacts(files, format, facts, options, None)
}

/// [`import`], then merge the contacts CSV `contacts` ([`contacts::merge`]), add the points on what is still
/// missing and validate the snapshot as `election.registered` is validated.
pub fn import_with_contacts(
    files: &[InputFile],
    format: Option<Format>,
    facts: &BodyFacts,
    options: &Options,
    contacts: Option<&InputFile>,
) -> Result<Imported, ImportError> {
    let format = match format.or_else(|| detect(files)) {
        Some(f) => f,
        None => {
            return Err(ImportError::general(
                "no votemanager or Offene-Wahldaten files recognised (names and headers); use --format", "Es wurden keine Dateien von votemanager oder im Format Offene Wahldaten erkannt (Dateinamen und Kopfzeilen).",
            ))
        }
    };
    let (mut snapshot, mut report) = match format {
        Format::Votemanager => votemanager::import(files, facts, options)?,
        Format::Owd => owd::import(files, facts, options)?,
    };
    if let Some(file) = contacts {
        contacts::merge(&mut snapshot, file, &mut report)?;
    }
    missing(&snapshot, &mut report);
    validate(&snapshot)?;
    Ok(Imported { format, snapshot, report })
}

/// Validate `snapshot` as the worker validates `election.registered` (the checks every Land shares, then
/// the Land's own).
pub fn validate(snapshot: &Snapshot) -> Result<(), ImportError> {
    Body::from_snapshot(snapshot.clone()).map(|_| ()).map_err(|e| {
        ImportError::general(
            format!("the snapshot does not validate: {}: {}", e.field, e.problem),
            format!("`{}`: {}", e.field, e.problem),
        )
    })
}

/// The points on what no published file holds and the official must add: names, seats, addresses.
fn missing(s: &Snapshot, report: &mut Report) {
    let cands: Vec<_> = s.lists.iter().flat_map(|l| &l.candidates).collect();
    let placeholders = cands.iter().filter(|c| c.given_name == PLACEHOLDER_NAME).count();
    if placeholders > 0 {
        report.point(
            Severity::ToConfirm,
            None,
            None,
            format!("{placeholders} of {} candidates have no name (`{PLACEHOLDER_NAME}`): add them", cands.len()), format!("Bewerberinnen und Bewerber ohne Namen (`{PLACEHOLDER_NAME}`): {placeholders} von {}; bitte die Namen ergänzen.", cands.len()),
        );
    }
    let seats = cands.iter().filter(|c| c.seat.is_some()).count();
    if seats as u64 != u64::from(s.body.statutory_size) {
        report.point(
            Severity::ToConfirm,
            None,
            None,
            format!("{seats} seat(s) set, the statutory size is {}: mark the seat holders", s.body.statutory_size), format!("Vergebene Sitze: {seats}, die gesetzliche Zahl der Sitze beträgt {}; bitte die Inhaberinnen und Inhaber der Sitze kennzeichnen.", s.body.statutory_size),
        );
    }
    let no_address = cands.iter().filter(|c| c.seat.is_none() && c.postal_address.is_none()).count();
    if no_address > 0 {
        report.point(
            Severity::ToConfirm,
            None,
            None,
            format!(
                "{no_address} candidate(s) without a seat have no postal address: a successor is served the notice by letter, which needs it (--contacts)"
            ), format!(
                "Bewerberinnen und Bewerber ohne Sitz und ohne Postanschrift: {no_address}. Einer Ersatzperson wird die Benachrichtigung schriftlich zugestellt; dafür ist die Anschrift nötig (Kontaktdatei)."
            ),
        );
    }
    let no_email = cands.iter().filter(|c| c.email.is_none()).count();
    if no_email > 0 {
        report.point(
            Severity::ToConfirm,
            None,
            None,
            format!("{no_email} candidate(s) have no e-mail address (--contacts)"),
            format!("Bewerberinnen und Bewerber ohne E-Mail-Adresse: {no_email} (Kontaktdatei)."),
        );
    }
    let no_salutation = cands.iter().filter(|c| c.form_of_address.is_none()).count();
    if no_salutation > 0 {
        report.point(
            Severity::Info,
            None,
            None,
            format!("{no_salutation} candidate(s) have no form of address: letters to them name the person without „Frau“ or „Herr“"), format!("Bewerberinnen und Bewerber ohne Anrede: {no_salutation}. Schreiben an sie nennen die Person ohne „Frau“ oder „Herr“."),
        );
    }
}
