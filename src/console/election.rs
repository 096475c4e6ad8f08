//! „Wahlergebnis übernehmen“: the Wahlleitung of a body (or an admin) uploads the published result files of
//! one council election, enters the body's facts no file holds, sees what the import read — lists,
//! candidates, votes, seats, every point of the report, and for a body already registered the differences
//! to its registered snapshot — corrects seat holders and adds contacts, and confirms. The snapshot then
//! goes through the command path as `election.registered` with `recorded_by`, like every console action
//! (docs/console.md, "Election results").
//!
//! | path | what |
//! |---|---|
//! | `GET /wahlergebnis` | the upload form |
//! | `POST /wahlergebnis/vorschau` | `multipart/form-data` ([`super::upload`]): import, keep it for the user, preview |
//! | `POST /wahlergebnis/{token}/korrektur` | corrections of seats and contacts, preview again |
//! | `POST /wahlergebnis/{token}` | confirm: `election.registered` through [`crate::store::Store::apply_batch`] |
//!
//! The import itself is [`nachfolge_import`] (pure). A previewed import is kept in memory for the user who
//! made it, at most [`MAX_PENDING`] at a time and [`PENDING_TTL`] long; the confirm form carries its token
//! and a fresh message id (the inbox deduplicates a second submit).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::{Extension, Form};
use nachfolge_import::{BodyFacts, Format, Imported, InputFile, Options, Severity};
use serde_json::{json, Value};

use super::pages::{base, error_page, page, redirect, unavailable};
use super::session::{User, Viewer};
use super::upload::Parts;
use super::{views, Console};
use crate::model::{Authority, BodyId, BodyKind, FormOfAddress, Land, ReturningOfficer, Seat, SeatVia, Snapshot};
use crate::store::{Applied, Cause, Item, Work};

/// The page's path.
pub const PATH: &str = "/wahlergebnis";
/// How long a previewed import waits for its confirmation.
pub const PENDING_TTL: Duration = Duration::from_secs(3600);
/// At most this many previewed imports are kept (the oldest goes first).
pub const MAX_PENDING: usize = 32;
/// Rows of the correction form.
const CORRECTION_ROWS: usize = 5;
const TEMPLATE: &str = "console/wahlergebnis.html";
const TITLE: &str = "Wahlergebnis übernehmen";

/// A previewed import, kept for the user who uploaded it.
struct Pending {
    login: String,
    created: Instant,
    imported: Imported,
    files: Vec<String>,
}

fn pending() -> &'static Mutex<HashMap<String, Pending>> {
    static PENDING: OnceLock<Mutex<HashMap<String, Pending>>> = OnceLock::new();
    PENDING.get_or_init(|| Mutex::new(HashMap::new()))
}

fn keep(p: Pending) -> String {
    let token = uuid::Uuid::new_v4().to_string();
    let mut map = pending().lock().unwrap_or_else(|e| e.into_inner());
    map.retain(|_, p| p.created.elapsed() < PENDING_TTL);
    while map.len() >= MAX_PENDING {
        let Some(oldest) = map.iter().min_by_key(|(_, p)| p.created).map(|(k, _)| k.clone()) else { break };
        map.remove(&oldest);
    }
    map.insert(token.clone(), p);
    token
}

/// Runs `f` on the user's pending import `token`, if it is still there.
fn with_pending<R>(token: &str, login: &str, f: impl FnOnce(&mut Pending) -> R) -> Option<R> {
    let mut map = pending().lock().unwrap_or_else(|e| e.into_inner());
    map.get_mut(token).filter(|p| p.login == login && p.created.elapsed() < PENDING_TTL).map(f)
}

/// Whether `user` may import for body `id`: its Wahlleitung or an admin.
fn may_import(user: &User, id: &str) -> bool {
    matches!(user.role_for(id), Some("wahlleiter" | "admin"))
}

/// Whether `user` may import for any body (the link and the form).
pub fn may_import_any(user: &User) -> bool {
    user.grants.iter().any(|g| matches!(g.role.as_str(), "wahlleiter" | "admin"))
}

/// The body's facts as entered (the form is shown again with them after a refusal).
#[derive(Debug, Clone, Default, serde::Serialize)]
struct FactsForm {
    land: String,
    body: String,
    name: String,
    kind: String,
    statutory_size: String,
    term_start: String,
    term_end: String,
    officer_name: String,
    officer_email: String,
    officer_address: String,
    officer_title: String,
    court_name: String,
    court_address: String,
    format: String,
}

impl FactsForm {
    fn from_parts(p: &Parts) -> FactsForm {
        FactsForm {
            land: p.field("land"),
            body: p.field("body"),
            name: p.field("name"),
            kind: p.field("kind"),
            statutory_size: p.field("statutory_size"),
            term_start: p.field("term_start"),
            term_end: p.field("term_end"),
            officer_name: p.field("officer_name"),
            officer_email: p.field("officer_email"),
            officer_address: p.field("officer_address"),
            officer_title: p.field("officer_title"),
            court_name: p.field("court_name"),
            court_address: p.field("court_address"),
            format: p.field("format"),
        }
    }

    /// The facts, or the German reason why not.
    fn facts(&self) -> Result<(BodyFacts, Option<Authority>), String> {
        let required = |v: &str, what: &str| {
            if v.is_empty() {
                Err(format!("Bitte geben Sie {what} an."))
            } else {
                Ok(v.to_owned())
            }
        };
        let land: Land =
            serde_json::from_value(json!(self.land)).map_err(|_| "Bitte wählen Sie das Land.".to_owned())?;
        let kind: BodyKind = serde_json::from_value(json!(if self.kind.is_empty() { "council" } else { &self.kind }))
            .map_err(|_| "Bitte wählen Sie die Art der Vertretung.".to_owned())?;
        let id = required(&self.body, "die Kennung der Vertretung")?;
        if id.len() > 100 || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err("Die Kennung der Vertretung darf nur Buchstaben ohne Umlaute, Ziffern, „-“ und „_“ enthalten (höchstens 100 Zeichen).".into());
        }
        let size = match self.statutory_size.as_str() {
            "" => None,
            s => Some(
                s.parse::<u32>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or("Die gesetzliche Mitgliederzahl muss eine ganze Zahl größer als null sein.".to_owned())?,
            ),
        };
        let date = |v: &str, what: &str| {
            chrono::NaiveDate::parse_from_str(v, "%Y-%m-%d")
                .map_err(|_| format!("Bitte geben Sie {what} als Datum an."))
        };
        let term_start = date(&self.term_start, "den Beginn der Wahlperiode")?;
        let term_end = date(&self.term_end, "das Ende der Wahlperiode")?;
        if term_end <= term_start {
            return Err("Das Ende der Wahlperiode muss nach ihrem Beginn liegen.".into());
        }
        let officer = ReturningOfficer {
            name: required(&self.officer_name, "den Namen der Wahlleitung")?,
            email: required(&self.officer_email, "die E-Mail-Adresse der Wahlleitung")?,
            address: Some(self.officer_address.clone()).filter(|a| !a.is_empty()),
            title: Some(self.officer_title.clone()).filter(|a| !a.is_empty()),
        };
        let court = match (self.court_name.as_str(), self.court_address.as_str()) {
            ("", "") => None,
            (n, a) if !n.is_empty() && !a.is_empty() => Some(Authority { name: n.to_owned(), address: a.to_owned() }),
            _ => return Err("Bitte geben Sie beim Verwaltungsgericht den Namen und die Anschrift an.".into()),
        };
        let facts = BodyFacts {
            land,
            id,
            name: required(&self.name, "den Namen der Vertretung")?,
            kind,
            statutory_size: size,
            term_start,
            term_end,
            returning_officer: officer,
        };
        Ok((facts, court))
    }
}

/// The Länder of the form, by code.
fn lands() -> Vec<Value> {
    [
        ("BW", "Baden-Württemberg"),
        ("BY", "Bayern"),
        ("HE", "Hessen"),
        ("MV", "Mecklenburg-Vorpommern"),
        ("NI", "Niedersachsen"),
        ("NW", "Nordrhein-Westfalen"),
        ("RP", "Rheinland-Pfalz"),
        ("SN", "Sachsen"),
        ("ST", "Sachsen-Anhalt"),
        ("SH", "Schleswig-Holstein"),
        ("TH", "Thüringen"),
    ]
    .iter()
    .map(|(c, n)| json!({"code": c, "name": n}))
    .collect()
}

fn upload_ctx(user: &User, form: &FactsForm) -> Value {
    let mut ctx = base(Some(user), TITLE);
    ctx["step"] = json!("upload");
    ctx["form"] = json!(form);
    ctx["lands"] = json!(lands());
    ctx["path"] = json!(PATH);
    ctx
}

fn refused(console: &Console, user: &User, form: &FactsForm, status: StatusCode, error: String) -> Response {
    let mut ctx = upload_ctx(user, form);
    ctx["error"] = json!(error);
    page(console, status, TEMPLATE, ctx)
}

/// `GET /wahlergebnis`: the upload form.
pub async fn form_page(State(console): State<Console>, Extension(viewer): Extension<Viewer>) -> Response {
    let Some(user) = viewer.0 else { return redirect("/anmelden") };
    if !may_import_any(&user) {
        return error_page(&console, StatusCode::NOT_FOUND);
    }
    let form = FactsForm { kind: "council".into(), ..FactsForm::default() };
    page(&console, StatusCode::OK, TEMPLATE, upload_ctx(&user, &form))
}

/// The refusal of the import in German: where, and the importer's own message.
fn import_error_de(e: &nachfolge_import::ImportError) -> String {
    let at = match (&e.file, e.line, e.column) {
        (Some(f), Some(l), Some(c)) => format!(" (Datei {f}, Zeile {l}, Spalte {c})"),
        (Some(f), Some(l), None) => format!(" (Datei {f}, Zeile {l})"),
        (Some(f), None, _) => format!(" (Datei {f})"),
        _ => String::new(),
    };
    format!("Die Dateien können nicht übernommen werden{at}. Meldung des Imports: {}", e.message)
}

/// `POST /wahlergebnis/vorschau`: import the uploaded files and show the preview.
pub async fn preview_page(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    parts: Option<Extension<Parts>>,
) -> Response {
    let Some(user) = viewer.0 else { return redirect("/anmelden") };
    if !may_import_any(&user) {
        return error_page(&console, StatusCode::NOT_FOUND);
    }
    // a form that is not an upload (no parts): the upload form again
    let Some(Extension(parts)) = parts else {
        let form = FactsForm::default();
        return refused(
            &console,
            &user,
            &form,
            StatusCode::BAD_REQUEST,
            "Bitte laden Sie die Dateien über das Formular hoch.".into(),
        );
    };
    let form = FactsForm::from_parts(&parts);
    let (facts, court) = match form.facts() {
        Ok(f) => f,
        Err(e) => return refused(&console, &user, &form, StatusCode::UNPROCESSABLE_ENTITY, e),
    };
    if !may_import(&user, &facts.id) {
        return refused(
            &console,
            &user,
            &form,
            StatusCode::FORBIDDEN,
            format!(
                "Für die Vertretung „{}“ haben Sie keine Berechtigung. Ein Wahlergebnis übernehmen kann nur die Wahlleitung dieser Vertretung oder die Administration.",
                facts.id
            ),
        );
    }
    let files: Vec<InputFile> = parts
        .files("dateien")
        .map(|p| InputFile { name: p.filename.clone().unwrap_or_default(), bytes: p.bytes.clone() })
        .collect();
    if files.is_empty() {
        return refused(
            &console,
            &user,
            &form,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Bitte wählen Sie die Dateien des Wahlergebnisses aus.".into(),
        );
    }
    let contacts = parts
        .files("kontakte")
        .next()
        .map(|p| InputFile { name: p.filename.clone().unwrap_or_default(), bytes: p.bytes.clone() });
    let format = match form.format.as_str() {
        "votemanager" => Some(Format::Votemanager),
        "owd" => Some(Format::Owd),
        _ => None,
    };
    if format.is_none() && nachfolge_import::detect(&files).is_none() {
        return refused(
            &console,
            &user,
            &form,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Das Format der Dateien ist nicht erkannt: Es sind weder Dateien von votemanager noch Dateien der Offenen Wahldaten (OWD). Bitte laden Sie die veröffentlichten Ergebnisdateien einer Wahl hoch.".into(),
        );
    }
    let names: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
    let imported = tokio::task::spawn_blocking(move || {
        nachfolge_import::import_with_contacts(&files, format, &facts, &Options::default(), contacts.as_ref())
    })
    .await;
    let mut imported = match imported {
        Ok(Ok(i)) => i,
        Ok(Err(e)) => return refused(&console, &user, &form, StatusCode::UNPROCESSABLE_ENTITY, import_error_de(&e)),
        Err(_) => return unavailable(&console),
    };
    imported.snapshot.body.remedy_court = court;
    let token = keep(Pending { login: user.login.clone(), created: Instant::now(), imported, files: names });
    show_preview(&console, &user, &token, StatusCode::OK, None).await
}

/// The preview of the pending import `token`.
async fn show_preview(
    console: &Console,
    user: &User,
    token: &str,
    status: StatusCode,
    error: Option<String>,
) -> Response {
    let Some((imported, files)) = with_pending(token, &user.login, |p| (p.imported.clone(), p.files.clone())) else {
        return gone(console, user);
    };
    let s = &imported.snapshot;
    let registered = match console.store.load_body(&s.body.id).await {
        Ok(c) => c.map(|c| c.body.snapshot.clone()),
        Err(error) => {
            tracing::warn!(%error, "console: a council cannot be read");
            return unavailable(console);
        }
    };
    let mut ctx = base(Some(user), TITLE);
    ctx["step"] = json!("preview");
    ctx["path"] = json!(PATH);
    ctx["token"] = json!(token);
    ctx["message_id"] = json!(uuid::Uuid::new_v4().to_string());
    ctx["format"] = json!(match imported.format {
        Format::Votemanager => "votemanager",
        Format::Owd => "Offene Wahldaten (OWD)",
    });
    ctx["files"] = json!(files);
    ctx["body"] = body_facts(s);
    ctx["lists"] = json!(lists(s));
    let cands = s.lists.iter().flat_map(|l| &l.candidates);
    ctx["candidates"] = json!(cands.clone().count());
    ctx["seats"] = json!(cands.clone().filter(|c| c.seat.is_some()).count());
    ctx["votes"] = json!(cands.filter_map(|c| c.votes).sum::<i64>());
    ctx["read"] = json!(imported.report.read);
    ctx["points"] = json!(points(&imported.report));
    ctx["rows"] = json!((0..CORRECTION_ROWS).collect::<Vec<_>>());
    let problems = registration_problems(s);
    ctx["blocking"] = json!(problems);
    if let Some(old) = &registered {
        ctx["reimport"] = json!(true);
        ctx["changes"] = json!(differences(old, s));
    }
    if let Some(e) = error {
        ctx["error"] = json!(e);
    }
    page(console, status, TEMPLATE, ctx)
}

fn gone(console: &Console, user: &User) -> Response {
    let mut ctx = upload_ctx(user, &FactsForm { kind: "council".into(), ..FactsForm::default() });
    ctx["error"] = json!(
        "Diese Vorschau ist nicht mehr vorhanden (sie gilt eine Stunde). Bitte laden Sie die Dateien erneut hoch."
    );
    page(console, StatusCode::NOT_FOUND, TEMPLATE, ctx)
}

/// What registration would refuse (the snapshot's checks and the Rechtsbehelfsbelehrung's venues), in words.
fn registration_problems(s: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    if let Err(e) = nachfolge_import::validate(s) {
        out.push(format!("Das Wahlergebnis ist so nicht gültig: {}", e.message));
    }
    if let Err(e) = crate::land::validate_remedy_venues(&s.body) {
        out.push(match e.field.as_str() {
            "body.remedy_court" => "Bitte geben Sie das Verwaltungsgericht mit Anschrift an: Die Rechtsbehelfsbelehrung muss es mit seinem Sitz nennen (§ 58 Abs. 1 VwGO).".to_owned(),
            "body.returning_officer.address" => "Bitte geben Sie die Anschrift der Wahlleitung an: Die Rechtsbehelfsbelehrung muss sie mit ihrem Sitz nennen (§ 58 Abs. 1 VwGO).".to_owned(),
            _ => format!("Die Angaben zur Rechtsbehelfsbelehrung fehlen: {} ({})", e.field, e.problem),
        });
    }
    out
}

fn kind_de(kind: BodyKind) -> &'static str {
    match kind {
        BodyKind::Kreistag => "Kreistag",
        _ => "Gemeinde- oder Stadtrat",
    }
}

fn body_facts(s: &Snapshot) -> Value {
    let b = &s.body;
    json!({
        "id": b.id, "name": b.name, "land": serde_json::to_value(b.land).unwrap_or_default(), "kind": kind_de(b.kind),
        "statutory_size": b.statutory_size,
        "term": format!("{} bis {}", b.term.start.format("%d.%m.%Y"), b.term.end.format("%d.%m.%Y")),
        "officer": b.returning_officer.name, "officer_email": b.returning_officer.email,
        "officer_address": b.returning_officer.address,
        "court": b.remedy_court.as_ref().map(|c| format!("{}, {}", c.name, c.address)),
        "confirm": matches!(b.determination, crate::model::DeterminationMode::Confirm),
    })
}

/// How a seat was won, in German.
fn seat_de(seat: Option<&Seat>) -> &'static str {
    match seat.map(|s| s.via) {
        None => "",
        Some(SeatVia::District) => "Direktmandat im Wahlbezirk",
        Some(SeatVia::List) => "über die Liste",
        Some(SeatVia::Succession) => "als Listennachfolge",
        Some(SeatVia::PersonalVote) => "durch Personenstimmen",
    }
}

fn lists(s: &Snapshot) -> Vec<Value> {
    s.lists
        .iter()
        .map(|l| {
            let candidates: Vec<Value> = l
                .candidates
                .iter()
                .map(|c| {
                    json!({
                        "id": c.id, "position": c.position, "name": c.full_name(), "votes": c.votes,
                        "district": c.district, "seat": seat_de(c.seat.as_ref()),
                        "email": c.email, "address": c.postal_address,
                        "anrede": match c.form_of_address { Some(FormOfAddress::Frau) => "Frau", Some(FormOfAddress::Herr) => "Herr", None => "" },
                    })
                })
                .collect();
            json!({
                "id": l.id, "name": l.name,
                "seats": l.candidates.iter().filter(|c| c.seat.is_some()).count(),
                "votes": l.candidates.iter().filter_map(|c| c.votes).sum::<i64>(),
                "candidates": candidates,
            })
        })
        .collect()
}

/// The report's points by weight, with German headings.
fn points(report: &nachfolge_import::Report) -> Vec<Value> {
    [
        (Severity::ToConfirm, "Zu bestätigen oder zu ergänzen"),
        (Severity::DataFault, "Fehler in den Dateien"),
        (Severity::Info, "Hinweise"),
    ]
    .into_iter()
    .filter_map(|(severity, title)| {
        let items: Vec<Value> = report
            .points
            .iter()
            .filter(|p| p.severity == severity)
            .map(|p| {
                let at = match (&p.file, p.line) {
                    (Some(f), Some(l)) => format!("{f}, Zeile {l}"),
                    (Some(f), None) => f.clone(),
                    _ => String::new(),
                };
                json!({"at": at, "message": p.message})
            })
            .collect();
        (!items.is_empty()).then(|| json!({"title": title, "items": items}))
    })
    .collect()
}

/// The differences between the registered snapshot `old` and the imported `new`, in German: lists and
/// candidates added or removed, votes and seats changed.
pub fn differences(old: &Snapshot, new: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    let old_lists: BTreeMap<&str, &str> = old.lists.iter().map(|l| (l.id.as_str(), l.name.as_str())).collect();
    let new_lists: BTreeMap<&str, &str> = new.lists.iter().map(|l| (l.id.as_str(), l.name.as_str())).collect();
    for (id, name) in &new_lists {
        if !old_lists.contains_key(id) {
            out.push(format!("Wahlvorschlag hinzugekommen: {name} ({id})"));
        }
    }
    for (id, name) in &old_lists {
        if !new_lists.contains_key(id) {
            out.push(format!("Wahlvorschlag entfallen: {name} ({id})"));
        }
    }
    let index = |s: &Snapshot| -> BTreeMap<String, (String, crate::model::Candidate)> {
        s.lists.iter().flat_map(|l| l.candidates.iter().map(|c| (c.id.clone(), (l.id.clone(), c.clone())))).collect()
    };
    let (before, after) = (index(old), index(new));
    for (id, (list, c)) in &after {
        match before.get(id) {
            None => out.push(format!("Person hinzugekommen: {} ({id}, {list})", c.full_name())),
            Some((_, o)) => {
                if o.votes != c.votes {
                    let v = |x: Option<i64>| x.map_or_else(|| "keine Angabe".to_owned(), |n| n.to_string());
                    out.push(format!("Stimmen von {} ({id}): {} statt {}", c.full_name(), v(c.votes), v(o.votes)));
                }
                if o.seat.as_ref().map(|s| s.via) != c.seat.as_ref().map(|s| s.via) {
                    let w = |s: Option<&Seat>| if s.is_some() { seat_de(s) } else { "ohne Sitz" };
                    out.push(format!(
                        "Sitz von {} ({id}): {} statt {}",
                        c.full_name(),
                        w(c.seat.as_ref()),
                        w(o.seat.as_ref())
                    ));
                }
            }
        }
    }
    for (id, (list, c)) in &before {
        if !after.contains_key(id) {
            out.push(format!("Person entfallen: {} ({id}, {list})", c.full_name()));
        }
    }
    out
}

/// Applies the correction rows (`k{n}_id`, `k{n}_sitz`, `k{n}_email`, `k{n}_anschrift`, `k{n}_anrede`) to
/// `s`; a German reason when a row cannot be applied (nothing is changed then).
fn correct(s: &mut Snapshot, form: &[(String, String)]) -> Result<usize, String> {
    let field = |row: usize, name: &str| {
        let key = format!("k{row}_{name}");
        form.iter().find(|(k, _)| *k == key).map(|(_, v)| v.trim().to_owned()).unwrap_or_default()
    };
    let mut copy = s.clone();
    let since = copy.body.term.start;
    let mut changed = 0;
    for row in 0..CORRECTION_ROWS {
        let id = field(row, "id");
        let (seat, email, address, anrede) =
            (field(row, "sitz"), field(row, "email"), field(row, "anschrift"), field(row, "anrede"));
        if id.is_empty() {
            if !(seat.is_empty() && email.is_empty() && address.is_empty() && anrede.is_empty()) {
                return Err(format!("Zeile {}: Bitte geben Sie die Kennung der Person an.", row + 1));
            }
            continue;
        }
        let Some(c) = copy.lists.iter_mut().flat_map(|l| l.candidates.iter_mut()).find(|c| c.id == id) else {
            return Err(format!(
                "Zeile {}: Die Kennung „{id}“ gehört zu keiner Person dieses Wahlergebnisses.",
                row + 1
            ));
        };
        match seat.as_str() {
            "" => {}
            "kein" => c.seat = None,
            via => {
                let via = match via {
                    "list" => SeatVia::List,
                    "district" => SeatVia::District,
                    "personal_vote" => SeatVia::PersonalVote,
                    _ => return Err(format!("Zeile {}: Diese Art des Sitzes gibt es nicht.", row + 1)),
                };
                c.seat = Some(Seat { since, via });
            }
        }
        if !email.is_empty() {
            if email.len() > 254 || !email.contains('@') || email.chars().any(char::is_whitespace) {
                return Err(format!("Zeile {}: „{email}“ ist keine E-Mail-Adresse.", row + 1));
            }
            c.email = Some(email);
        }
        if !address.is_empty() {
            if address.len() > 500 {
                return Err(format!("Zeile {}: Die Anschrift ist zu lang.", row + 1));
            }
            c.postal_address = Some(address);
        }
        match anrede.as_str() {
            "" => {}
            "frau" => c.form_of_address = Some(FormOfAddress::Frau),
            "herr" => c.form_of_address = Some(FormOfAddress::Herr),
            "keine" => c.form_of_address = None,
            _ => return Err(format!("Zeile {}: Diese Anrede gibt es nicht.", row + 1)),
        }
        changed += 1;
    }
    *s = copy;
    Ok(changed)
}

/// `POST /wahlergebnis/{token}/korrektur`: apply the corrections and show the preview again.
pub async fn correct_page(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    Path(token): Path<String>,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let Some(user) = viewer.0 else { return redirect("/anmelden") };
    let outcome = with_pending(&token, &user.login, |p| {
        let r = correct(&mut p.imported.snapshot, &form);
        if r.is_ok() {
            p.created = Instant::now();
        }
        r
    });
    match outcome {
        None => gone(&console, &user),
        Some(Ok(_)) => show_preview(&console, &user, &token, StatusCode::OK, None).await,
        Some(Err(e)) => show_preview(&console, &user, &token, StatusCode::UNPROCESSABLE_ENTITY, Some(e)).await,
    }
}

/// `POST /wahlergebnis/{token}`: register the snapshot through the command path and show the outcome.
pub async fn confirm_page(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    Path(token): Path<String>,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let Some(user) = viewer.0 else { return redirect("/anmelden") };
    let message_id = form.iter().find(|(k, _)| k == "message_id").map(|(_, v)| v.as_str()).unwrap_or_default();
    let Ok(message_id) = uuid::Uuid::parse_str(message_id) else { return error_page(&console, StatusCode::FORBIDDEN) };
    let Some(snapshot) = with_pending(&token, &user.login, |p| p.imported.snapshot.clone()) else {
        return gone(&console, &user);
    };
    let id = snapshot.body.id.clone();
    if !may_import(&user, &id) {
        return error_page(&console, StatusCode::NOT_FOUND);
    }
    let problems = registration_problems(&snapshot);
    if !problems.is_empty() {
        return show_preview(&console, &user, &token, StatusCode::UNPROCESSABLE_ENTITY, problems.into_iter().next())
            .await;
    }
    let Ok(payload) = serde_json::to_value(&snapshot) else { return unavailable(&console) };
    let cause = Cause {
        key: message_id.to_string(),
        ty: "election.registered".to_owned(),
        payload,
        traceparent: None,
        tracestate: None,
        recorded_by: Some(user.login.clone()),
    };
    let item = Item { cause, body_id: BodyId::new(&id), work: Work::Register(Box::new(snapshot)) };
    let now = console.clock.now();
    let outcome = match console
        .store
        .apply_batch(std::slice::from_ref(&item), now, &console.settings, &console.templates)
        .await
    {
        Ok(mut o) => o.pop().unwrap_or(Applied::Duplicate),
        Err(error) => {
            tracing::warn!(%error, "console: an election result cannot be registered");
            return unavailable(&console);
        }
    };
    let label = match &outcome {
        Applied::Applied => "applied",
        Applied::Duplicate => "duplicate",
        Applied::Rejected(_) | Applied::Unknown(_) => "rejected",
    };
    console.metrics.inc_counter(
        super::actions::ACTIONS_METRIC,
        &[("type", "election.registered"), ("outcome", label)],
        1,
    );
    tracing::info!(message_id = %item.cause.key, r#type = "election.registered", body = %id, outcome = label, "console action");
    let mut ctx = base(Some(&user), TITLE);
    ctx["step"] = json!("result");
    ctx["council_url"] = json!(format!("/raete/{}", views::enc(&id)));
    ctx["council_name"] = json!(item_name(&item));
    match outcome {
        Applied::Applied | Applied::Duplicate => {
            pending().lock().unwrap_or_else(|e| e.into_inner()).remove(&token);
            if let Some(wake) = &console.on_applied {
                wake();
            }
            ctx["duplicate"] = json!(label == "duplicate");
            page(&console, StatusCode::OK, TEMPLATE, ctx)
        }
        Applied::Rejected(reason) | Applied::Unknown(reason) => {
            if let Err(error) = console.store.record_rejection(&item.cause, Some(&id), &reason, now).await {
                tracing::warn!(%error, "console: a refused election result cannot be recorded");
            }
            if let Some(wake) = &console.on_applied {
                wake();
            }
            show_preview(
                &console,
                &user,
                &token,
                StatusCode::UNPROCESSABLE_ENTITY,
                Some(format!("Das Wahlergebnis wurde nicht übernommen. Begründung: {reason}")),
            )
            .await
        }
    }
}

fn item_name(item: &Item) -> String {
    match &item.work {
        Work::Register(s) => s.body.name.clone(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot() -> Snapshot {
        serde_json::from_value(json!({
            "body": {"id": "rat", "name": "Rat", "land": "NW", "statutory_size": 2,
                "term": {"start": "2025-11-01", "end": "2030-10-31"},
                "returning_officer": {"name": "Erika Beispiel", "email": "w@example.org"}},
            "lists": [{"id": "L1", "name": "Partei A", "kind": "party", "candidates": [
                {"id": "L1-01", "position": 1, "given_name": "Anna", "family_name": "Albers", "votes": 10,
                 "seat": {"since": "2025-11-01", "via": "list"}},
                {"id": "L1-02", "position": 2, "given_name": "Bert", "family_name": "Brandt", "votes": 5}
            ]}]
        }))
        .expect("snapshot")
    }

    #[test]
    fn corrections_move_a_seat_and_add_contacts_or_change_nothing() {
        let mut s = snapshot();
        let form: Vec<(String, String)> = [
            ("k0_id", "L1-01"),
            ("k0_sitz", "kein"),
            ("k1_id", "L1-02"),
            ("k1_sitz", "list"),
            ("k1_email", "b.brandt@example.org"),
            ("k1_anschrift", "Markt 2, 12345 Musterstadt"),
            ("k1_anrede", "herr"),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
        assert_eq!(correct(&mut s, &form), Ok(2));
        let c = &s.lists[0].candidates;
        assert!(c[0].seat.is_none());
        assert_eq!(
            c[1].seat.as_ref().map(|s| (s.since.to_string(), s.via)),
            Some(("2025-11-01".into(), SeatVia::List))
        );
        assert_eq!(c[1].form_of_address, Some(FormOfAddress::Herr));
        assert_eq!(c[1].postal_address.as_deref(), Some("Markt 2, 12345 Musterstadt"));

        let before = s.clone();
        let bad = vec![
            ("k0_id".to_owned(), "L1-02".to_owned()),
            ("k0_anrede".to_owned(), "frau".to_owned()),
            ("k1_id".to_owned(), "L9-99".to_owned()),
        ];
        let e = correct(&mut s, &bad).expect_err("unknown id");
        assert!(e.contains("„L9-99“ gehört zu keiner Person"), "{e}");
        assert_eq!(s, before, "nothing half-corrected");
    }

    #[test]
    fn a_reimport_names_lists_and_candidates_added_and_removed_and_votes_and_seats_changed() {
        let old = snapshot();
        let mut new = snapshot();
        new.lists[0].candidates[1].votes = Some(7);
        new.lists[0].candidates[0].seat = None;
        new.lists[0].candidates.remove(1);
        let mut l2 = new.lists[0].clone();
        l2.id = "L2".into();
        l2.name = "Wählergruppe B".into();
        l2.candidates[0].id = "L2-01".into();
        new.lists.push(l2);
        let d = differences(&old, &new);
        assert!(d.contains(&"Wahlvorschlag hinzugekommen: Wählergruppe B (L2)".to_owned()), "{d:?}");
        assert!(d.contains(&"Person hinzugekommen: Anna Albers (L2-01, L2)".to_owned()), "{d:?}");
        assert!(d.contains(&"Person entfallen: Bert Brandt (L1-02, L1)".to_owned()), "{d:?}");
        assert!(d.contains(&"Sitz von Anna Albers (L1-01): ohne Sitz statt über die Liste".to_owned()), "{d:?}");
        let mut votes = snapshot();
        votes.lists[0].candidates[1].votes = Some(7);
        assert_eq!(differences(&old, &votes), vec!["Stimmen von Bert Brandt (L1-02): 7 statt 5".to_owned()]);
        assert!(differences(&old, &old).is_empty());
    }
}
