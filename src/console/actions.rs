//! The Wahlleitung's actions: recording the service of a notification (`notification.served`) and a
//! declaration (`declaration.received`) — the same inbound commands the bus carries (docs/contract.md).
//!
//! Each action has three steps, all for a user with the role `wahlleiter` or `admin` for the council (else
//! 404, as for a council the user may not see):
//!
//! 1. `GET …/zustellung` (`…/erklaerung`): the form;
//! 2. `POST …/vorschau`: a dry run of the core on a copy of the stored council — what would happen (the
//!    period's last day, computed by the core with the Land's holidays, the next successor) or why the core
//!    would refuse it — with a fresh message id in the confirm form;
//! 3. `POST …` (confirm): the command is applied through [`crate::store::Store::apply_batch`] with a
//!    [`Cause`] whose key is that message id and whose `recorded_by` is the user's login — the consumer's
//!    path: the core's validation, the inbox's deduplication (a second submit of the same form is a
//!    duplicate), the audit log, the outbox. A refusal is recorded as the consumer records it
//!    ([`crate::store::Store::record_rejection`]). The page shows the outcome at once.
//!
//! The console writes no procedure state of its own (docs/console.md, "Actions").

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::{Extension, Form};
use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, TimeZone};
use serde::Deserialize;
use serde_json::{json, Value};

use super::pages::{base, error_page, page, unavailable};
use super::session::{User, Viewer};
use super::views::{self, person, type_name, when};
use super::Console;
use crate::calendar::german_date;
use crate::messages::{DeclarationKind, DeclarationReceived, FactRecorded, Inbound, NotificationServed, ServiceMethod};
use crate::model::{BodyId, CandidateId, CaseId};
use crate::procedure::{self as core, Council, Effect, Rejection};
use crate::store::{Applied, Cause, Item, Work};

/// Counter of actions by type and outcome (`applied`, `duplicate`, `rejected`).
pub const ACTIONS_METRIC: &str = "nachfolge_console_actions_total";

/// The service methods as the form offers them: (wire code, German name).
const METHODS: &[(&str, &str)] = &[
    ("certificate", "Postzustellungsurkunde"),
    ("return_receipt", "Einschreiben mit Rückschein"),
    ("acknowledgement", "Empfangsbekenntnis"),
    ("registered_letter_posted", "Einschreiben durch Übergabe (Tag der Aufgabe zur Post)"),
    ("registered_letter_mailbox", "Einwurf-Einschreiben"),
    ("actual_receipt", "Tatsächlicher Zugang (Heilung eines Zustellungsmangels)"),
];

/// The declaration kinds as the form offers them.
const KINDS: &[(&str, &str)] = &[
    ("accept", "Annahme"),
    ("refuse", "Ablehnung"),
    ("accept_with_reservation", "Annahme unter Vorbehalt (gilt als Ablehnung)"),
];

/// The candidate facts as the form offers them (`candidate.fact_recorded`, docs/contract.md): (form code,
/// German name). `waived_written` is the fact `waived` with `form: written` (Verzicht, schriftlich).
const FACTS: &[(&str, &str)] = &[
    ("left_party", "Austritt aus der Partei oder Wählergruppe"),
    ("waived_written", "Schriftlicher Verzicht auf die Anwartschaft"),
    ("declined", "Ablehnung der Wahl"),
    ("died", "Tod"),
    ("barred", "Hinderungsgrund (Unvereinbarkeit)"),
];

/// Which action.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Service,
    Declaration,
    /// `candidate.fact_recorded`: a fact about a candidate of the council (Tatsache).
    Fact,
}

impl Action {
    const ALL: [Action; 3] = [Action::Service, Action::Declaration, Action::Fact];

    /// The action a path segment names.
    fn from_slug(slug: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.slug() == slug)
    }
    fn slug(self) -> &'static str {
        match self {
            Action::Service => "zustellung",
            Action::Declaration => "erklaerung",
            Action::Fact => "tatsache",
        }
    }
    fn title(self) -> &'static str {
        match self {
            Action::Service => "Zustellung erfassen",
            Action::Declaration => "Erklärung erfassen",
            Action::Fact => "Tatsache erfassen",
        }
    }
    fn ty(self) -> &'static str {
        match self {
            Action::Service => "notification.served",
            Action::Declaration => "declaration.received",
            Action::Fact => "candidate.fact_recorded",
        }
    }
}

/// The fields of both forms (each uses its own; the others stay empty). `message_id` only on confirm.
#[derive(Deserialize, Default, Clone)]
pub struct ActionForm {
    #[serde(default)]
    candidate: String,
    #[serde(default)]
    method: String,
    #[serde(default)]
    on: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    received_at: String,
    #[serde(default)]
    fact: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    message_id: String,
}

/// The council `id` and case `case_id` if `user` may act for the council; `Err` is the answer otherwise
/// (404 for a council the user may only view, as for one he may not see).
async fn actable(console: &Console, user: &User, id: &str, case_id: &str) -> Result<Council, Response> {
    if !matches!(user.role_for(id), Some("wahlleiter" | "admin")) {
        return Err(error_page(console, StatusCode::NOT_FOUND));
    }
    match console.store.load_body(id).await {
        Ok(Some(council)) if council.cases.contains_key(case_id) => Ok(council),
        Ok(_) => Err(error_page(console, StatusCode::NOT_FOUND)),
        Err(error) => {
            tracing::warn!(%error, "console: a council cannot be read");
            Err(unavailable(console))
        }
    }
}

/// The inbound command of a form, or the German reason it cannot be built.
fn command(action: Action, body: &str, case: &str, f: &ActionForm) -> Result<Inbound, String> {
    let candidate = f.candidate.trim();
    if candidate.is_empty() {
        return Err("Bitte geben Sie die Kennung der Person an.".into());
    }
    let (body, case, candidate) = (BodyId::new(body), CaseId::new(case), CandidateId::new(candidate));
    match action {
        Action::Service => {
            let method: ServiceMethod = serde_json::from_value(json!(f.method))
                .map_err(|_| "Bitte wählen Sie die Art der Zustellung.".to_owned())?;
            let on = NaiveDate::parse_from_str(f.on.trim(), "%Y-%m-%d")
                .map_err(|_| "Bitte geben Sie den Tag der Zustellung an (TT.MM.JJJJ).".to_owned())?;
            Ok(Inbound::NotificationServed(NotificationServed { body, case, candidate, round: None, method, on }))
        }
        Action::Declaration => {
            let kind: DeclarationKind = serde_json::from_value(json!(f.kind))
                .map_err(|_| "Bitte wählen Sie die Art der Erklärung.".to_owned())?;
            let received_at = berlin_instant(f.received_at.trim())
                .ok_or_else(|| "Bitte geben Sie Tag und Uhrzeit des Eingangs an.".to_owned())?;
            Ok(Inbound::DeclarationReceived(DeclarationReceived { body, case, candidate, kind, received_at }))
        }
        Action::Fact => {
            let on = NaiveDate::parse_from_str(f.on.trim(), "%Y-%m-%d")
                .map_err(|_| "Bitte geben Sie den Tag der Tatsache an (TT.MM.JJJJ).".to_owned())?;
            let fact = match f.fact.as_str() {
                "left_party" | "declined" | "died" => json!({"type": f.fact, "on": on}),
                "waived_written" => json!({"type": "waived", "on": on, "form": "written"}),
                "barred" => {
                    let reason = f.reason.trim();
                    if reason.is_empty() {
                        return Err("Bitte geben Sie den Hinderungsgrund an.".into());
                    }
                    json!({"type": "barred", "on": on, "reason": reason})
                }
                _ => return Err("Bitte wählen Sie die Art der Tatsache.".into()),
            };
            let fact = serde_json::from_value(fact).map_err(|_| "Bitte wählen Sie die Art der Tatsache.".to_owned())?;
            Ok(Inbound::FactRecorded(FactRecorded { body, candidate, fact }))
        }
    }
}

/// A local time of the form's `datetime-local` field (`2026-12-01T09:30`), in Europe/Berlin.
fn berlin_instant(s: &str) -> Option<DateTime<FixedOffset>> {
    let naive = NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M")
        .or_else(|_| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S"))
        .ok()?;
    chrono_tz::Europe::Berlin.from_local_datetime(&naive).earliest().map(|t| t.fixed_offset())
}

/// What the effects of a command mean, in words: one line per event.
fn describe<'a>(council: &Council, events: impl IntoIterator<Item = (&'a str, &'a Value)>) -> Vec<String> {
    let name =
        |v: &Value| person(council, v.as_str().unwrap_or_default())["name"].as_str().unwrap_or_default().to_owned();
    let mut lines = Vec::new();
    for (event_type, data) in events {
        let line = match event_type {
            "deadline.set" => {
                let last = data["last_day"].as_str().and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok());
                let ends = data["ends_at"]
                    .as_str()
                    .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                    .map(|t| when(t.to_utc()));
                format!(
                    "Die Frist für {} endet dann am {} ({}).",
                    name(&data["candidate"]),
                    last.map(german_date).unwrap_or_default(),
                    ends.unwrap_or_default()
                )
            }
            "succession.determined" | "succession.proposed" => {
                let who = data["successor"]["id"]
                    .as_str()
                    .map_or_else(|| name(&data["candidate"]), |_| name(&data["successor"]["id"]));
                format!("{}: {}.", type_name(event_type), who)
            }
            "service.rejected" => format!(
                "Die Zustellung wird zu den Akten genommen, aber nicht angewandt: {}.",
                service_rejection_de(data["reason"].as_str().unwrap_or_default())
            ),
            "declaration.rejected" => format!(
                "Die Erklärung wird zu den Akten genommen, aber nicht angewandt: {}.",
                declaration_rejection_de(data["reason"].as_str().unwrap_or_default())
            ),
            other => type_name(other).to_owned(),
        };
        lines.push(line);
    }
    lines
}

/// A `service.rejected` reason in German.
fn service_rejection_de(code: &str) -> String {
    match code {
        "no_formal_service" => "ein Einwurf-Einschreiben ist keine förmliche Zustellung".into(),
        "round_mismatch" => "der Nachweis gehört zu einer anderen Runde".into(),
        "not_pending_successor" => "die Person ist nicht die festgestellte Listennachfolgerin oder der festgestellte Listennachfolger dieser Runde".into(),
        other => other.into(),
    }
}

/// A `declaration.rejected` reason in German.
fn declaration_rejection_de(code: &str) -> String {
    match code {
        "before_notification" => "sie ging vor der Absendung der Benachrichtigung ein".into(),
        "after_deadline" => "sie ging nach Ablauf der Frist ein".into(),
        "not_pending_successor" => {
            "die Person ist nicht die festgestellte Listennachfolgerin oder der festgestellte Listennachfolger".into()
        }
        "refusal_irrevocable" => "die Ablehnung war bereits erklärt und kann nicht widerrufen werden".into(),
        "case_closed" => "der Fall ist abgeschlossen".into(),
        "already_accepted" => "die Annahme war bereits erklärt".into(),
        "no_acceptance_procedure" => "nach dem Recht des Landes ist keine Annahmeerklärung vorgesehen".into(),
        "not_barred" => "es besteht kein Hinderungsgrund".into(),
        other => other.into(),
    }
}

/// A refusal of the core (or the inbox) in German, with the technical reason kept for the file.
fn rejection_de(reason: &str) -> String {
    let text = if reason.contains("lies in the future") {
        "Der angegebene Tag liegt in der Zukunft."
    } else if reason.contains("lies before the notification") {
        "Der angegebene Tag liegt vor der Absendung der Benachrichtigung."
    } else if reason.contains("has no pending notification") {
        "Für diesen Fall ist keine Benachrichtigung offen."
    } else if reason.contains("unknown candidate") {
        "Eine Person mit dieser Kennung ist in dieser Vertretung nicht bekannt."
    } else if reason.contains("is a new vacancy") {
        "Die Person ist bereits Mitglied der Vertretung: Das ist ein neues Ausscheiden, das als solches zu melden ist."
    } else if reason.contains("must be recorded with declaration.received") {
        "Die Ablehnung durch die festgestellte Nachfolgerin oder den festgestellten Nachfolger ist als Erklärung zu erfassen, damit die Frist geprüft wird."
    } else if reason.contains("would change the determination already made") {
        "Die Tatsache würde die bereits getroffene Feststellung ändern; sie ist durch eine Entscheidung im Prüfungsverfahren zu berichtigen oder nach Abschluss des Falls zu erfassen."
    } else if reason.contains("does not pass him over under the rules") {
        "Nach dem Recht des Landes führt diese Tatsache nicht dazu, dass die Person übergangen wird."
    } else if reason.contains("already used for different data") {
        "Dieses Formular wurde bereits mit anderen Angaben abgeschickt. Bitte beginnen Sie neu."
    } else {
        "Der Eingang wurde abgelehnt."
    };
    format!("{text} (Begründung: {reason})")
}

fn base_ctx(user: &User, council: &Council, case_id: &str, action: Action, f: &ActionForm) -> Value {
    let mut ctx = base(Some(user), action.title());
    ctx["council"] = views::council_info(council);
    ctx["case_id"] = json!(case_id);
    let case_url = format!("/raete/{}/faelle/{}", views::enc(council.id()), views::enc(case_id));
    ctx["action_url"] = json!(format!("{case_url}/{}", action.slug()));
    ctx["case_url"] = json!(case_url);
    ctx["action"] = json!(action.slug());
    ctx["form"] = json!({"candidate": f.candidate, "method": f.method, "on": f.on, "kind": f.kind,
        "received_at": f.received_at, "fact": f.fact, "reason": f.reason});
    ctx["methods"] = json!(METHODS.iter().map(|(c, n)| json!({"code": c, "name": n})).collect::<Vec<_>>());
    ctx["kinds"] = json!(KINDS.iter().map(|(c, n)| json!({"code": c, "name": n})).collect::<Vec<_>>());
    ctx["facts"] = json!(FACTS.iter().map(|(c, n)| json!({"code": c, "name": n})).collect::<Vec<_>>());
    ctx
}

/// `GET /raete/{body}/faelle/{case}/zustellung` and `…/erklaerung`: the form.
pub async fn form(console: &Console, viewer: Viewer, id: &str, case_id: &str, action: Action) -> Response {
    let Some(user) = viewer.0 else { return super::pages::redirect("/anmelden") };
    let council = match actable(console, &user, id, case_id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let mut f = ActionForm::default();
    if let Some(s) = council.cases.get(case_id).and_then(|c| c.successor()) {
        f.candidate = s.to_owned();
    }
    let today = crate::calendar::local_date(console.clock.now());
    f.on = today.to_string();
    f.received_at = crate::calendar::berlin(console.clock.now()).format("%Y-%m-%dT%H:%M").to_string();
    let mut ctx = base_ctx(&user, &council, case_id, action, &f);
    ctx["step"] = json!("form");
    page(console, StatusCode::OK, "console/aktion.html", ctx)
}

/// `POST …/vorschau`: what would happen — a dry run of the core on a copy of the stored council.
pub async fn preview(
    console: &Console,
    viewer: Viewer,
    id: &str,
    case_id: &str,
    action: Action,
    f: ActionForm,
) -> Response {
    let Some(user) = viewer.0 else { return super::pages::redirect("/anmelden") };
    let mut council = match actable(console, &user, id, case_id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let mut ctx = base_ctx(&user, &council, case_id, action, &f);
    let inbound = match command(action, id, case_id, &f) {
        Ok(i) => i,
        Err(error) => {
            ctx["step"] = json!("form");
            ctx["error"] = json!(error);
            return page(console, StatusCode::UNPROCESSABLE_ENTITY, "console/aktion.html", ctx);
        }
    };
    ctx["summary"] = json!(summary(&council, &inbound));
    let shown = council.clone();
    match core::handle(&mut council, core::Command::Inbound(inbound), console.clock.now(), &console.settings) {
        Ok(effects) => {
            ctx["step"] = json!("preview");
            let events = effects.iter().filter_map(|e| match e {
                Effect::Publish { event_type, data } => Some((*event_type, data)),
                _ => None,
            });
            ctx["effects"] = json!(describe(&shown, events));
            ctx["message_id"] = json!(uuid::Uuid::new_v4().to_string());
            page(console, StatusCode::OK, "console/aktion.html", ctx)
        }
        Err(Rejection::Unknown(r) | Rejection::Invalid(r) | Rejection::Internal(r)) => {
            ctx["step"] = json!("form");
            ctx["error"] = json!(format!("So kann der Eingang nicht erfasst werden. {}", rejection_de(&r)));
            page(console, StatusCode::UNPROCESSABLE_ENTITY, "console/aktion.html", ctx)
        }
    }
}

/// The command in words, for the preview and the result.
fn summary(council: &Council, inbound: &Inbound) -> Vec<(String, String)> {
    let label = |codes: &[(&str, &str)], code: Value| {
        let code = code.as_str().unwrap_or_default().to_owned();
        codes.iter().find(|(c, _)| *c == code).map_or(code, |(_, n)| (*n).to_owned())
    };
    let who = |c: &str| {
        let p = person(council, c);
        format!("{} ({})", p["name"].as_str().unwrap_or_default(), c)
    };
    match inbound {
        Inbound::NotificationServed(s) => vec![
            ("Zustellungsempfänger".into(), who(s.candidate.as_str())),
            ("Art der Zustellung".into(), label(METHODS, json!(s.method))),
            ("Tag der Zustellung".into(), german_date(s.on)),
        ],
        Inbound::DeclarationReceived(d) => vec![
            ("Erklärende Person".into(), who(d.candidate.as_str())),
            ("Erklärung".into(), label(KINDS, json!(d.kind))),
            ("Eingang".into(), when(d.received_at.to_utc())),
        ],
        Inbound::FactRecorded(r) => {
            let value = serde_json::to_value(&r.fact).unwrap_or_default();
            let code = match value["type"].as_str().unwrap_or_default() {
                "waived" => "waived_written",
                other => other,
            };
            let mut rows = vec![
                ("Betroffene Person".into(), who(r.candidate.as_str())),
                ("Tatsache".into(), label(FACTS, json!(code))),
            ];
            if let Some(on) = value["on"].as_str().and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()) {
                rows.push(("Tag".into(), german_date(on)));
            }
            if let Some(reason) = value["reason"].as_str() {
                rows.push(("Hinderungsgrund".into(), reason.to_owned()));
            }
            rows
        }
        _ => Vec::new(),
    }
}

/// `POST …` (confirm): applies the command through the store's batch path and shows the outcome.
pub async fn confirm(
    console: &Console,
    viewer: Viewer,
    id: &str,
    case_id: &str,
    action: Action,
    f: ActionForm,
) -> Response {
    let Some(user) = viewer.0 else { return super::pages::redirect("/anmelden") };
    let council = match actable(console, &user, id, case_id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let mut ctx = base_ctx(&user, &council, case_id, action, &f);
    let (inbound, message_id) = match (command(action, id, case_id, &f), uuid::Uuid::parse_str(&f.message_id)) {
        (Ok(i), Ok(m)) => (i, m.to_string()),
        (Err(error), _) => {
            ctx["step"] = json!("form");
            ctx["error"] = json!(error);
            return page(console, StatusCode::UNPROCESSABLE_ENTITY, "console/aktion.html", ctx);
        }
        (_, Err(_)) => return error_page(console, StatusCode::FORBIDDEN),
    };
    ctx["summary"] = json!(summary(&council, &inbound));
    let payload = match &inbound {
        Inbound::NotificationServed(m) => serde_json::to_value(m),
        Inbound::DeclarationReceived(m) => serde_json::to_value(m),
        Inbound::FactRecorded(m) => serde_json::to_value(m),
        _ => Ok(Value::Null),
    };
    let Ok(payload) = payload else { return unavailable(console) };
    let cause = Cause {
        key: message_id,
        ty: action.ty().to_owned(),
        payload,
        traceparent: None,
        tracestate: None,
        recorded_by: Some(user.login.clone()),
    };
    let item = Item { cause, body_id: BodyId::new(id), work: Work::Inbound(core::Command::Inbound(inbound)) };
    let now = console.clock.now();
    let outcome = match console
        .store
        .apply_batch(std::slice::from_ref(&item), now, &console.settings, &console.templates)
        .await
    {
        Ok(mut o) => o.pop().unwrap_or(Applied::Duplicate),
        Err(error) => {
            tracing::warn!(%error, "console: an action cannot be applied");
            return unavailable(console);
        }
    };
    let (label, status) = match &outcome {
        Applied::Applied => ("applied", StatusCode::OK),
        Applied::Duplicate => ("duplicate", StatusCode::OK),
        Applied::Rejected(_) | Applied::Unknown(_) => ("rejected", StatusCode::UNPROCESSABLE_ENTITY),
    };
    console.metrics.inc_counter(ACTIONS_METRIC, &[("type", action.ty()), ("outcome", label)], 1);
    tracing::info!(message_id = %item.cause.key, r#type = action.ty(), body = %id, outcome = label, "console action");
    match outcome {
        Applied::Applied | Applied::Duplicate => {
            if let Some(wake) = &console.on_applied {
                wake();
            }
            ctx["duplicate"] = json!(label == "duplicate");
            ctx["effects"] = json!(effects_of(console, id, &item.cause.key).await);
        }
        Applied::Rejected(reason) | Applied::Unknown(reason) => {
            // recorded as the consumer records a refused message: inbox, audit (with the login), message.rejected
            if let Err(error) = console.store.record_rejection(&item.cause, Some(id), &reason, now).await {
                tracing::warn!(%error, "console: a refused action cannot be recorded");
            }
            if let Some(wake) = &console.on_applied {
                wake();
            }
            ctx["rejection"] = json!(rejection_de(&reason));
        }
    }
    if let Ok(Some(after)) = console.store.load_body(id).await {
        if let Some(case) = after.cases.get(case_id) {
            ctx["case"] = views::case_summary(&after, case, now, console.config.urgent_days);
        }
    }
    ctx["step"] = json!("result");
    page(console, status, "console/aktion.html", ctx)
}

/// The events the command `key` caused, in words, from the audit log (what was really committed).
async fn effects_of(console: &Console, id: &str, key: &str) -> Vec<String> {
    let Ok(rows) = console.store.audit_log(id).await else { return Vec::new() };
    let Ok(Some(council)) = console.store.load_body(id).await else { return Vec::new() };
    let mut mine = Vec::new();
    let mut inside = false;
    for r in &rows {
        if r.kind == "command" {
            inside = r.message_id.as_deref() == Some(key);
        } else if inside && r.kind == "effect" {
            mine.push(r);
        }
    }
    describe(&council, mine.iter().map(|r| (r.ty.as_str(), &r.payload)))
}

/// The routes' handlers.
/// The route handlers: one each for the form, the preview and the confirmation, for every [`Action`] — the
/// last path segment names it ([`Action::slug`]); an unknown one is not found.
pub mod handlers {
    use super::*;

    type Ids = Path<(String, String, String)>;

    pub async fn form_page(
        State(c): State<Console>,
        Extension(v): Extension<Viewer>,
        Path((b, k, slug)): Ids,
    ) -> Response {
        match Action::from_slug(&slug) {
            Some(action) => form(&c, v, &b, &k, action).await,
            None => error_page(&c, StatusCode::NOT_FOUND),
        }
    }
    pub async fn preview_page(
        State(c): State<Console>,
        Extension(v): Extension<Viewer>,
        Path((b, k, slug)): Ids,
        Form(f): Form<ActionForm>,
    ) -> Response {
        match Action::from_slug(&slug) {
            Some(action) => preview(&c, v, &b, &k, action, f).await,
            None => error_page(&c, StatusCode::NOT_FOUND),
        }
    }
    pub async fn confirm_page(
        State(c): State<Console>,
        Extension(v): Extension<Viewer>,
        Path((b, k, slug)): Ids,
        Form(f): Form<ActionForm>,
    ) -> Response {
        match Action::from_slug(&slug) {
            Some(action) => confirm(&c, v, &b, &k, action, f).await,
            None => error_page(&c, StatusCode::NOT_FOUND),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_is_found_by_its_path_segment_and_nothing_else() {
        for a in Action::ALL {
            assert!(Action::from_slug(a.slug()) == Some(a));
        }
        assert!(Action::from_slug("frist.ics").is_none());
        assert!(Action::from_slug("").is_none());
    }

    #[test]
    fn the_forms_local_time_is_read_in_europe_berlin() {
        let winter = berlin_instant("2026-12-01T09:30").expect("a time");
        assert_eq!(winter.to_rfc3339(), "2026-12-01T09:30:00+01:00");
        let summer = berlin_instant("2026-07-01T09:30:15").expect("a time");
        assert_eq!(summer.to_rfc3339(), "2026-07-01T09:30:15+02:00");
        assert!(berlin_instant("01.12.2026 09:30").is_none());
        // the hour skipped at the change to summer time does not exist
        assert!(berlin_instant("2026-03-29T02:30").is_none());
    }

    #[test]
    fn a_form_without_a_person_or_with_an_unknown_method_is_not_a_command() {
        let f = ActionForm { method: "certificate".into(), on: "2026-12-01".into(), ..ActionForm::default() };
        assert!(command(Action::Service, "b", "b-1", &f).is_err());
        let f = ActionForm { candidate: "L1-06".into(), method: "fax".into(), on: "2026-12-01".into(), ..f };
        assert!(command(Action::Service, "b", "b-1", &f).unwrap_err().contains("Art der Zustellung"));
        let f = ActionForm { method: "certificate".into(), ..f };
        assert!(matches!(command(Action::Service, "b", "b-1", &f), Ok(Inbound::NotificationServed(_))));
    }

    #[test]
    fn the_cores_refusals_of_a_fact_read_in_german_with_the_reason_kept() {
        let r = "fact: \"L1-06\" is the pending successor of case \"c\": his refusal must be recorded with declaration.received (kind refuse, received_at), which checks the period";
        let de = rejection_de(r);
        assert!(de.starts_with("Die Ablehnung durch die festgestellte Nachfolgerin") && de.contains(r), "{de}");
        let r = "fact: \"L1-06\" is the pending successor of case \"c\" and already a member: giving up the seat is a new vacancy — send vacancy.reported";
        assert!(rejection_de(r).starts_with("Die Person ist bereits Mitglied"));
    }

    #[test]
    fn a_fact_form_builds_the_contracts_fact_and_a_bar_needs_its_reason() {
        let f = ActionForm {
            candidate: "L1-06".into(),
            fact: "waived_written".into(),
            on: "2026-12-01".into(),
            ..ActionForm::default()
        };
        let Ok(Inbound::FactRecorded(r)) = command(Action::Fact, "b", "b-1", &f) else { panic!("a fact") };
        assert_eq!(
            serde_json::to_value(&r.fact).ok(),
            Some(json!({"type": "waived", "on": "2026-12-01", "form": "written"}))
        );
        let f = ActionForm { fact: "barred".into(), ..f };
        assert!(command(Action::Fact, "b", "b-1", &f).unwrap_err().contains("Hinderungsgrund"));
        let f = ActionForm { fact: "ineligible".into(), ..f };
        assert!(command(Action::Fact, "b", "b-1", &f).unwrap_err().contains("Art der Tatsache"));
    }
}
