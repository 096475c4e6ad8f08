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
//! The import itself is [`nachfolge_import`] (pure). A previewed import is kept in the database for the user
//! who made it (`console_import_previews`, migration 0017), at most [`MAX_PENDING`] at a time and [`PENDING_TTL`]
//! long, so any replica answers the three steps and a restart keeps it; the confirm form carries its token and a
//! fresh message id (the inbox deduplicates a second submit).

use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::{Extension, Form};
use nachfolge_import::{BodyFacts, Format, Imported, InputFile, Options};
use serde_json::{json, Value};

use super::pages::{base, error_page, page, redirect, unavailable};
use super::session::{User, Viewer};
use super::upload::Parts;
use super::{views, Console};
use crate::model::{Authority, BodyId, BodyKind, Land, ReturningOfficer};
use crate::store::{Applied, Cause, Item, Work};

mod preview;
pub use preview::differences;
use preview::{body_facts, correct, lists, open_points, points, registration_problems, CORRECTION_ROWS};

/// The page's path.
pub const PATH: &str = "/wahlergebnis";
/// How long a previewed import waits for its confirmation.
pub const PENDING_TTL: Duration = Duration::from_secs(3600);
/// At most this many previewed imports are kept (the oldest goes first).
pub const MAX_PENDING: usize = 32;
const TEMPLATE: &str = "console/wahlergebnis.html";
/// Why a registered body's snapshot cannot be replaced now: the core refuses it while a succession case is
/// open (`procedure::register`), since the case runs on the registered lists.
const OPEN_CASE: &str = "Die Vertretung hat einen offenen Nachfolgefall. Ein neues Wahlergebnis kann erst übernommen werden, wenn alle Nachfolgefälle abgeschlossen sind.";
const TITLE: &str = "Wahlergebnis übernehmen";

/// Keep the previewed import for `login`; its token, or `None` when the database cannot be written.
async fn keep(console: &Console, login: &str, imported: &Imported, files: &[String]) -> Option<String> {
    let token = uuid::Uuid::new_v4().to_string();
    let value = serde_json::to_value(imported).ok()?;
    match console.store.keep_import_preview(&token, login, &value, &json!(files), PENDING_TTL, MAX_PENDING as i64).await
    {
        Ok(()) => Some(token),
        Err(error) => {
            tracing::warn!(%error, "console: a previewed import cannot be kept");
            None
        }
    }
}

/// The user's pending import `token` (the import and the names of its files), or the page to answer instead:
/// gone (a new upload is needed), or the database cannot be read.
async fn pending(console: &Console, user: &User, token: &str) -> Result<(Imported, Vec<String>), Response> {
    match console.store.import_preview(token, &user.login, PENDING_TTL).await {
        Ok(Some((imported, files))) => match (serde_json::from_value(imported), serde_json::from_value(files)) {
            (Ok(i), Ok(f)) => Ok((i, f)),
            // written by another build: gone, the files are uploaded again
            _ => Err(gone(console, user)),
        },
        Ok(None) => Err(gone(console, user)),
        Err(error) => {
            tracing::warn!(%error, "console: a previewed import cannot be read");
            Err(unavailable(console))
        }
    }
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
    supervisory_name: String,
    supervisory_address: String,
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
            supervisory_name: p.field("supervisory_name"),
            supervisory_address: p.field("supervisory_address"),
            format: p.field("format"),
        }
    }

    /// The facts, or the German reason why not.
    fn facts(&self) -> Result<(BodyFacts, Venues), String> {
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
        let authority = |name: &str, address: &str, what: &str| match (name, address) {
            ("", "") => Ok(None),
            (n, a) if !n.is_empty() && !a.is_empty() => {
                Ok(Some(Authority { name: n.to_owned(), address: a.to_owned() }))
            }
            _ => Err(format!("Bitte geben Sie {what} den Namen und die Anschrift an.")),
        };
        let court = authority(&self.court_name, &self.court_address, "beim Verwaltungsgericht")?;
        let supervisory =
            authority(&self.supervisory_name, &self.supervisory_address, "bei der Rechtsaufsichtsbehörde")?;
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
        Ok((facts, Venues { court, supervisory }))
    }
}

/// The venues a Rechtsbehelfsbelehrung names that no file holds: the Verwaltungsgericht (`remedy_court`) and,
/// in Thüringen, the Rechtsaufsichtsbehörde (`supervisory_authority`, § 31 ThürKWG).
#[derive(Debug, Clone)]
struct Venues {
    court: Option<Authority>,
    supervisory: Option<Authority>,
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
    format!("Die Dateien können nicht übernommen werden{at}. Meldung des Imports: {}", e.message_de)
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
    let (facts, venues) = match form.facts() {
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
    // the parts' bytes move into the import's files (no copy of an upload of up to 32 MB)
    let chosen =
        |p: &super::upload::Part, field: &str| p.name == field && p.filename.as_deref().is_some_and(|f| !f.is_empty());
    let mut files: Vec<InputFile> = Vec::new();
    let mut contacts: Option<InputFile> = None;
    for p in parts.0 {
        if chosen(&p, "dateien") {
            files.push(InputFile { name: p.filename.unwrap_or_default(), bytes: p.bytes });
        } else if chosen(&p, "kontakte") && contacts.is_none() {
            contacts = Some(InputFile { name: p.filename.unwrap_or_default(), bytes: p.bytes });
        }
    }
    if files.is_empty() {
        return refused(
            &console,
            &user,
            &form,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Bitte wählen Sie die Dateien des Wahlergebnisses aus.".into(),
        );
    }
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
    imported.snapshot.body.remedy_court = venues.court;
    imported.snapshot.body.supervisory_authority = venues.supervisory;
    let Some(token) = keep(&console, &user.login, &imported, &names).await else { return unavailable(&console) };
    show_preview(&console, &user, &token, (&imported, &names), StatusCode::OK, None).await
}

/// The preview of the pending import `token`, as kept: the import and the names of its files.
async fn show_preview(
    console: &Console,
    user: &User,
    token: &str,
    (imported, files): (&Imported, &[String]),
    status: StatusCode,
    error: Option<String>,
) -> Response {
    let s = &imported.snapshot;
    let registered = match console.store.load_body(&s.body.id).await {
        Ok(c) => c,
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
    ctx["read"] = json!(imported.report.read.iter().map(|l| l.de.as_str()).collect::<Vec<_>>());
    ctx["points"] = json!(points(&imported.report));
    let (confirm, notes) = open_points(s);
    ctx["open"] = json!(confirm);
    ctx["open_notes"] = json!(notes);
    ctx["rows"] = json!((0..CORRECTION_ROWS).collect::<Vec<_>>());
    let mut problems = registration_problems(s);
    if let Some(old) = &registered {
        ctx["reimport"] = json!(true);
        ctx["changes"] = json!(differences(&old.body.snapshot, s));
        if old.has_open_case() {
            problems.push(OPEN_CASE.to_owned());
        }
    }
    ctx["blocking"] = json!(problems);
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

/// `POST /wahlergebnis/{token}/korrektur`: apply the corrections and show the preview again.
pub async fn correct_page(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    Path(token): Path<String>,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let Some(user) = viewer.0 else { return redirect("/anmelden") };
    let (mut imported, files) = match pending(&console, &user, &token).await {
        Ok(p) => p,
        Err(page) => return page,
    };
    // a refused correction changes nothing (`correct` works on a copy); an applied one is kept and starts the
    // preview's hour again
    if let Err(e) = correct(&mut imported.snapshot, &form) {
        let shown = (&imported, files.as_slice());
        return show_preview(&console, &user, &token, shown, StatusCode::UNPROCESSABLE_ENTITY, Some(e)).await;
    }
    let Ok(value) = serde_json::to_value(&imported) else { return unavailable(&console) };
    match console.store.update_import_preview(&token, &user.login, &value, PENDING_TTL).await {
        Ok(true) => show_preview(&console, &user, &token, (&imported, &files), StatusCode::OK, None).await,
        Ok(false) => gone(&console, &user),
        Err(error) => {
            tracing::warn!(%error, "console: a corrected import cannot be kept");
            unavailable(&console)
        }
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
    let (imported, files) = match pending(&console, &user, &token).await {
        Ok(p) => p,
        Err(page) => return page,
    };
    let snapshot = imported.snapshot.clone();
    let id = snapshot.body.id.clone();
    if !may_import(&user, &id) {
        return error_page(&console, StatusCode::NOT_FOUND);
    }
    let mut problems = registration_problems(&snapshot);
    match console.store.load_body(&id).await {
        Ok(Some(old)) if old.has_open_case() => problems.push(OPEN_CASE.to_owned()),
        Ok(_) => {}
        Err(error) => {
            tracing::warn!(%error, "console: a council cannot be read");
            return unavailable(&console);
        }
    }
    if !problems.is_empty() {
        let (shown, error) = ((&imported, files.as_slice()), problems.into_iter().next());
        return show_preview(&console, &user, &token, shown, StatusCode::UNPROCESSABLE_ENTITY, error).await;
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
            if let Err(error) = console.store.drop_import_preview(&token).await {
                // it expires within the hour; a second confirmation is a duplicate in the inbox
                tracing::warn!(%error, "console: a confirmed import's preview cannot be deleted");
            }
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
                (&imported, &files),
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
