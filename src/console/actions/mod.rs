//! The Wahlleitung's actions — each the inbound command the bus carries (docs/contract.md), entered at the
//! console: service (`notification.served`), a declaration (`declaration.received`), a candidate fact
//! (`candidate.fact_recorded`), a vacancy (`vacancy.reported`), a lot result (`lot.drawn`), the confirmation
//! of a prepared determination (`determination.confirmed`), a review decision (`review.decided`) and the
//! proof that a bar ended (`bar.cured`).
//!
//! An action belongs to a case (`/raete/{body}/faelle/{case}/{slug}`) or to the council
//! (`/raete/{body}/{slug}`: the vacancy, which opens a case, and a fact from the Nachrückerliste). Each has
//! three steps, all for a user with the role `wahlleiter` or `admin` for the council (else 404, as for a
//! council the user may not see):
//!
//! 1. `GET …/{slug}`: the form — only where the action applies to the case's state ([`Action::applies`],
//!    else 404);
//! 2. `POST …/vorschau`: a dry run of the core on a copy of the stored council — what would happen (the
//!    period's last day, computed by the core with the Land's holidays, the next successor, the case after
//!    it) or why the core would refuse it — with a fresh message id in the confirm form;
//! 3. `POST …` (confirm): the command is applied through [`crate::store::Store::apply_batch`] with a
//!    [`Cause`] whose key is that message id and whose `recorded_by` is the user's login — the consumer's
//!    path: the core's validation, the inbox's deduplication (a second submit of the same form is a
//!    duplicate), the audit log, the outbox. A refusal is recorded as the consumer records it
//!    ([`crate::store::Store::record_rejection`]). The page shows the outcome at once.
//!
//! [`command`] builds the inbound command from a form; [`words`] says commands, events and refusals in
//! German. The console writes no procedure state of its own (docs/console.md, "Actions").

mod command;
mod words;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::{Extension, Form};
use serde::Deserialize;
use serde_json::{json, Value};

use super::pages::{base, error_page, page, unavailable};
use super::session::{User, Viewer};
use super::views;
use super::Console;
use crate::model::BodyId;
use crate::procedure::{self as core, Case, CaseState, Council, Rejection};
use crate::store::{Applied, Cause, Item, Work};
use command::command;
pub use command::ActionForm;
use words::{describe, rejection_de, summary};

/// Counter of actions by type and outcome (`applied`, `duplicate`, `rejected`).
pub const ACTIONS_METRIC: &str = "nachfolge_console_actions_total";

/// Which action.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    Service,
    Declaration,
    /// `candidate.fact_recorded`: a fact about a candidate of the council (Tatsache).
    Fact,
    /// `vacancy.reported`: a member leaves (council scope: there is no case yet).
    Vacancy,
    /// `lot.drawn`: the lot among the tied candidates of a case waiting for it.
    Lot,
    /// `determination.confirmed`: the Wahlleitung (or the council) determines the proposed successor.
    Confirm,
    /// `review.decided`: a decision on an objection or in the election review.
    Review,
    /// `bar.cured`: the barred successor proves that the bar ended.
    BarProof,
}

impl Action {
    const ALL: [Action; 8] = [
        Action::Service,
        Action::Declaration,
        Action::Fact,
        Action::Vacancy,
        Action::Lot,
        Action::Confirm,
        Action::Review,
        Action::BarProof,
    ];

    /// The action a path segment names, if it exists in that scope (of a case, or of the council).
    fn from_slug(slug: &str, of_case: bool) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.slug() == slug && a.in_scope(of_case))
    }
    /// Whether the action is entered from a case (`true`) or from the council page (`false`).
    fn in_scope(self, of_case: bool) -> bool {
        match self {
            Action::Vacancy => !of_case,
            Action::Fact => true,
            _ => of_case,
        }
    }
    pub fn slug(self) -> &'static str {
        match self {
            Action::Service => "zustellung",
            Action::Declaration => "erklaerung",
            Action::Fact => "tatsache",
            Action::Vacancy => "ausscheiden",
            Action::Lot => "los",
            Action::Confirm => "feststellung",
            Action::Review => "pruefung",
            Action::BarProof => "nachweis",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Action::Service => "Zustellung erfassen",
            Action::Declaration => "Erklärung erfassen",
            Action::Fact => "Tatsache erfassen",
            Action::Vacancy => "Ausscheiden melden",
            Action::Lot => "Losergebnis erfassen",
            Action::Confirm => "Nachfolge feststellen",
            Action::Review => "Entscheidung im Prüfungsverfahren erfassen",
            Action::BarProof => "Nachweis der Beseitigung des Hinderungsgrundes erfassen",
        }
    }
    /// The link text on the case page.
    fn link(self) -> &'static str {
        match self {
            Action::Service => "Zustellung der Benachrichtigung erfassen",
            Action::Declaration => "Erklärung (Annahme oder Ablehnung) erfassen",
            Action::Fact => "Tatsache zu einer Person erfassen (z. B. Austritt, Verzicht, Tod)",
            Action::Vacancy => "Ausscheiden eines Mitglieds melden",
            Action::Lot => "Ergebnis des Losentscheids erfassen",
            Action::Confirm => "Vorgeschlagene Nachfolge feststellen",
            Action::Review => "Entscheidung über einen Einspruch oder im Wahlprüfungsverfahren erfassen",
            Action::BarProof => "Nachweis der Beseitigung des Hinderungsgrundes erfassen",
        }
    }
    pub fn ty(self) -> &'static str {
        match self {
            Action::Service => "notification.served",
            Action::Declaration => "declaration.received",
            Action::Fact => "candidate.fact_recorded",
            Action::Vacancy => "vacancy.reported",
            Action::Lot => "lot.drawn",
            Action::Confirm => "determination.confirmed",
            Action::Review => "review.decided",
            Action::BarProof => "bar.cured",
        }
    }

    /// Whether the action applies to `case` (or, without one, to the council) in its present state: only
    /// then is it offered and its form shown. The core still decides on the command itself.
    pub fn applies(self, council: &Council, case: Option<&Case>) -> bool {
        let Some(case) = case else { return matches!(self, Action::Vacancy | Action::Fact) };
        match (self, &case.state) {
            (Action::Vacancy, _) => false,
            (Action::Fact, _) => !case.is_closed(),
            (Action::Service, CaseState::Offered(_)) => true,
            // only where the Land's procedure asks the successor to declare (NRW, Bayern, …): not in Hessen, where
            // he is a member with the determination, nor where he succeeds by law — the core says which
            (Action::Declaration, CaseState::Offered(_)) => {
                council.land().law().procedure(council.info().kind).acceptance.by_declaration()
            }
            (Action::BarProof, CaseState::Offered(o)) => o.barred && o.proven_at.is_none(),
            (Action::Lot, CaseState::AwaitingLot { tied }) => !tied.is_empty(),
            (Action::Confirm, CaseState::Proposed(_)) => true,
            // a determination can be reviewed; while there is none (a lot not drawn, a proposal not
            // confirmed) only where the council may determine in place of the Wahlleitung (Hessen § 34
            // Abs. 4 Satz 3 KWG) — the Land's law in the core says where (docs/contract.md, "Reviews")
            (Action::Review, CaseState::Offered(_) | CaseState::Filled { .. }) => true,
            (Action::Review, CaseState::Vacant { reason }) => reason.is_determined(),
            (Action::Review, CaseState::AwaitingLot { .. } | CaseState::Proposed(_)) => {
                let law = council.land().law().procedure(council.info().kind);
                law.review.council_in_place_of_officer.is_some()
            }
            _ => false,
        }
    }
}

/// The actions that apply to `case` now, as the case page links them (`slug`, `link`).
pub fn available(council: &Council, case: &Case) -> Vec<Value> {
    Action::ALL
        .into_iter()
        .filter(|a| a.in_scope(true) && a.applies(council, Some(case)))
        .map(|a| json!({"slug": a.slug(), "link": a.link()}))
        .collect()
}

/// Where an action is entered: the council (`None`) or one of its cases.
type Scope<'a> = Option<&'a str>;

/// The council `id` if `user` may act for it and the scope exists (the case, if one is named); `Err` is the
/// answer otherwise (404 for a council the user may only view, as for one he may not see).
async fn actable(console: &Console, user: &User, id: &str, case_id: Scope<'_>) -> Result<Council, Response> {
    if !matches!(user.role_for(id), Some("wahlleiter" | "admin")) {
        return Err(error_page(console, StatusCode::NOT_FOUND));
    }
    match console.store.load_body(id).await {
        Ok(Some(council)) if case_id.is_none_or(|c| council.cases.contains_key(c)) => Ok(council),
        Ok(_) => Err(error_page(console, StatusCode::NOT_FOUND)),
        Err(error) => {
            tracing::warn!(%error, "console: a council cannot be read");
            Err(unavailable(console))
        }
    }
}

fn base_ctx(user: &User, council: &Council, case_id: Scope<'_>, action: Action, f: &ActionForm) -> Value {
    let mut ctx = base(Some(user), action.title());
    ctx["council"] = views::council_info(council);
    let home = match case_id {
        Some(c) => {
            let url = format!("/raete/{}/faelle/{}", views::enc(council.id()), views::enc(c));
            ctx["case_id"] = json!(c);
            ctx["case_url"] = json!(url);
            url
        }
        None => format!("/raete/{}", views::enc(council.id())),
    };
    ctx["action_url"] = json!(format!("{home}/{}", action.slug()));
    ctx["back_url"] = json!(home);
    ctx["action"] = json!(action.slug());
    ctx["form"] = serde_json::to_value(f).unwrap_or_default();
    command::choices(&mut ctx, council, case_id.and_then(|c| council.cases.get(c)), action);
    ctx
}

/// An entry the form refuses, or the core's refusal in the preview: the form again with the reason.
fn refused_form(console: &Console, mut ctx: Value, error: String) -> Response {
    ctx["step"] = json!("form");
    ctx["error"] = json!(error);
    page(console, StatusCode::UNPROCESSABLE_ENTITY, "console/aktion.html", ctx)
}

/// `GET …/{slug}`: the form, prefilled where the case says who is concerned.
pub async fn form(
    console: &Console,
    viewer: Viewer,
    id: &str,
    case_id: Scope<'_>,
    action: Action,
    person: Option<String>,
) -> Response {
    let Some(user) = viewer.0 else { return super::pages::redirect("/anmelden") };
    let council = match actable(console, &user, id, case_id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let case = case_id.and_then(|c| council.cases.get(c));
    if !action.applies(&council, case) {
        return error_page(console, StatusCode::NOT_FOUND);
    }
    let now = console.clock.now();
    let mut f = ActionForm::prefilled(now, case);
    if let Some(p) = person.filter(|p| council.candidate(p).is_some()) {
        f.candidate = p;
    }
    let mut ctx = base_ctx(&user, &council, case_id, action, &f);
    ctx["step"] = json!("form");
    page(console, StatusCode::OK, "console/aktion.html", ctx)
}

/// `POST …/vorschau`: what would happen — a dry run of the core on a copy of the stored council.
pub async fn preview(
    console: &Console,
    viewer: Viewer,
    id: &str,
    case_id: Scope<'_>,
    action: Action,
    f: ActionForm,
) -> Response {
    let Some(user) = viewer.0 else { return super::pages::redirect("/anmelden") };
    let mut council = match actable(console, &user, id, case_id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let ctx = base_ctx(&user, &council, case_id, action, &f);
    if f.edit == "1" {
        // „Angaben ändern“: back to the form with what was entered
        let mut ctx = ctx;
        ctx["step"] = json!("form");
        return page(console, StatusCode::OK, "console/aktion.html", ctx);
    }
    let inbound = match command(action, id, case_id, council.info().kind.office(), &f, console.clock.now()) {
        Ok(i) => i,
        Err(error) => return refused_form(console, ctx, error),
    };
    let mut ctx = ctx;
    ctx["summary"] = json!(summary(&council, &inbound));
    let shown = council.clone();
    let now = console.clock.now();
    match core::handle(&mut council, core::Command::Inbound(inbound), now, &console.settings) {
        Ok(effects) => {
            ctx["step"] = json!("preview");
            ctx["effects"] = json!(words::describe_effects(&shown, &effects));
            // the case as it would stand: the one named, or the one the command opens or moves on
            let concerned = case_id.map(str::to_owned).or_else(|| words::case_of_effects(&effects));
            if let Some(case) = concerned.as_deref().and_then(|c| council.cases.get(c)) {
                let mut after = views::case_summary(&council, case, now, console.config.urgent_days);
                // no calendar link: the period is not recorded yet
                for p in after["periods"].as_array_mut().into_iter().flatten() {
                    p["ics"] = Value::Null;
                }
                after["waits_for_service"] = json!(words::waits_for_service(case));
                ctx["after"] = after;
            }
            ctx["hidden"] = json!(f.entries());
            ctx["message_id"] = json!(uuid::Uuid::new_v4().to_string());
            page(console, StatusCode::OK, "console/aktion.html", ctx)
        }
        Err(Rejection::Unknown(r) | Rejection::Invalid(r) | Rejection::Internal(r)) => {
            refused_form(console, ctx, format!("So kann der Eingang nicht erfasst werden. {}", rejection_de(&r)))
        }
    }
}

/// `POST …` (confirm): applies the command through the store's batch path and shows the outcome.
pub async fn confirm(
    console: &Console,
    viewer: Viewer,
    id: &str,
    case_id: Scope<'_>,
    action: Action,
    f: ActionForm,
) -> Response {
    let Some(user) = viewer.0 else { return super::pages::redirect("/anmelden") };
    let council = match actable(console, &user, id, case_id).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let mut ctx = base_ctx(&user, &council, case_id, action, &f);
    let (inbound, message_id) = match (
        command(action, id, case_id, council.info().kind.office(), &f, console.clock.now()),
        uuid::Uuid::parse_str(&f.message_id),
    ) {
        (Ok(i), Ok(m)) => (i, m.to_string()),
        (Err(error), _) => return refused_form(console, ctx, error),
        (_, Err(_)) => return error_page(console, StatusCode::FORBIDDEN),
    };
    ctx["summary"] = json!(summary(&council, &inbound));
    let Ok(payload) = command::payload(&inbound) else { return unavailable(console) };
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
    let mut concerned = case_id.map(str::to_owned);
    match outcome {
        Applied::Applied | Applied::Duplicate => {
            if let Some(wake) = &console.on_applied {
                wake();
            }
            ctx["duplicate"] = json!(label == "duplicate");
            let (effects, case) = effects_of(console, id, &item.cause.key).await;
            ctx["effects"] = json!(effects);
            concerned = concerned.or(case);
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
    if let (Ok(Some(after)), Some(case_id)) = (console.store.load_body(id).await, concerned) {
        if let Some(case) = after.cases.get(case_id.as_str()) {
            ctx["case"] = views::case_summary(&after, case, now, console.config.urgent_days);
        }
    }
    ctx["step"] = json!("result");
    page(console, status, "console/aktion.html", ctx)
}

/// The events the command `key` caused, in words, from the audit log (what was really committed), and the
/// case they name first.
async fn effects_of(console: &Console, id: &str, key: &str) -> (Vec<String>, Option<String>) {
    let Ok(rows) = console.store.audit_log(id).await else { return (Vec::new(), None) };
    let Ok(Some(council)) = console.store.load_body(id).await else { return (Vec::new(), None) };
    let mut mine = Vec::new();
    let mut inside = false;
    for r in &rows {
        if r.kind == "command" {
            inside = r.message_id.as_deref() == Some(key);
        } else if inside && r.kind == "effect" {
            mine.push(r);
        }
    }
    let case = mine.iter().find_map(|r| r.payload["case"].as_str()).map(str::to_owned);
    (describe(&council, mine.iter().map(|r| (r.ty.as_str(), &r.payload))), case)
}

/// The query of a council action's form: the person concerned (`?person=…`, from the Nachrückerliste).
#[derive(Deserialize)]
pub struct FormQuery {
    #[serde(default)]
    person: Option<String>,
}

/// The route handlers: one each for the form, the preview and the confirmation, for every [`Action`] of a
/// case and of a council — the last path segment names it ([`Action::slug`]); an unknown one is not found.
pub mod handlers {
    use super::*;

    type CaseIds = Path<(String, String, String)>;
    type CouncilIds = Path<(String, String)>;

    pub async fn form_page(
        State(c): State<Console>,
        Extension(v): Extension<Viewer>,
        Path((b, k, slug)): CaseIds,
    ) -> Response {
        match Action::from_slug(&slug, true) {
            Some(action) => form(&c, v, &b, Some(&k), action, None).await,
            None => error_page(&c, StatusCode::NOT_FOUND),
        }
    }
    pub async fn preview_page(
        State(c): State<Console>,
        Extension(v): Extension<Viewer>,
        Path((b, k, slug)): CaseIds,
        Form(f): Form<ActionForm>,
    ) -> Response {
        match Action::from_slug(&slug, true) {
            Some(action) => preview(&c, v, &b, Some(&k), action, f).await,
            None => error_page(&c, StatusCode::NOT_FOUND),
        }
    }
    pub async fn confirm_page(
        State(c): State<Console>,
        Extension(v): Extension<Viewer>,
        Path((b, k, slug)): CaseIds,
        Form(f): Form<ActionForm>,
    ) -> Response {
        match Action::from_slug(&slug, true) {
            Some(action) => confirm(&c, v, &b, Some(&k), action, f).await,
            None => error_page(&c, StatusCode::NOT_FOUND),
        }
    }

    /// `GET /raete/{body}/{slug}`: a council's action (`ausscheiden`, `tatsache?person=…`).
    pub async fn council_form_page(
        State(c): State<Console>,
        Extension(v): Extension<Viewer>,
        Path((b, slug)): CouncilIds,
        Query(q): Query<FormQuery>,
    ) -> Response {
        match Action::from_slug(&slug, false) {
            Some(action) => form(&c, v, &b, None, action, q.person).await,
            None => error_page(&c, StatusCode::NOT_FOUND),
        }
    }
    pub async fn council_preview_page(
        State(c): State<Console>,
        Extension(v): Extension<Viewer>,
        Path((b, slug)): CouncilIds,
        Form(f): Form<ActionForm>,
    ) -> Response {
        match Action::from_slug(&slug, false) {
            Some(action) => preview(&c, v, &b, None, action, f).await,
            None => error_page(&c, StatusCode::NOT_FOUND),
        }
    }
    pub async fn council_confirm_page(
        State(c): State<Console>,
        Extension(v): Extension<Viewer>,
        Path((b, slug)): CouncilIds,
        Form(f): Form<ActionForm>,
    ) -> Response {
        match Action::from_slug(&slug, false) {
            Some(action) => confirm(&c, v, &b, None, action, f).await,
            None => error_page(&c, StatusCode::NOT_FOUND),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_is_found_by_its_path_segment_in_its_scope_and_nothing_else() {
        for a in Action::ALL {
            let of_case = a != Action::Vacancy;
            assert!(Action::from_slug(a.slug(), of_case) == Some(a), "{a:?}");
        }
        assert_eq!(Action::from_slug("tatsache", false), Some(Action::Fact));
        assert!(Action::from_slug("ausscheiden", true).is_none(), "a vacancy opens a case; it has none");
        assert!(Action::from_slug("los", false).is_none());
        assert!(Action::from_slug("frist.ics", true).is_none());
        assert!(Action::from_slug("faelle", false).is_none());
        assert!(Action::from_slug("", true).is_none());
    }
}
