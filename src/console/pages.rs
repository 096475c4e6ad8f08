//! The console's handlers. Pages need a signed-in user (else: to the sign-in); a council the user has no
//! role for is answered like an unknown one (404), so the console does not tell which councils exist.

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Form};
use serde::Deserialize;
use serde_json::{json, Value};

use super::auth::{self, SignIn};
use super::session::{self, User, Viewer};
use super::views::{self, when};
use super::{Console, SIGN_INS_METRIC};
use crate::http::ClientAddr;
use crate::procedure::Council;

/// How long the sign-in form's token cookie lives, in seconds.
const SIGN_IN_FORM_SECS: i64 = 3600;

fn html(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

fn json_answer(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

pub(super) fn redirect(to: &str) -> Response {
    let location = HeaderValue::from_str(to).unwrap_or_else(|_| HeaderValue::from_static("/"));
    (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response()
}

/// Renders a page; a template that fails is logged and answered with 500.
pub(super) fn page(console: &Console, status: StatusCode, template: &str, ctx: Value) -> Response {
    match console.views.render(template, &ctx) {
        Ok(body) => html(status, body),
        Err(error) => {
            tracing::error!(%error, "console: a page cannot be rendered");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                "Interner Fehler\n",
            )
                .into_response()
        }
    }
}

/// The base context of a page for `user`.
pub(super) fn base(user: Option<&User>, title: &str) -> Value {
    json!({"title": title, "user": user.map(|u| &u.name), "csrf": user.map(|u| &u.csrf)})
}

/// An error page with the status's German wording.
pub fn error_page(console: &Console, status: StatusCode) -> Response {
    let (title, text) = match status {
        StatusCode::NOT_FOUND => ("Nicht gefunden", "Diese Seite gibt es nicht, oder Sie haben keinen Zugriff darauf."),
        StatusCode::FORBIDDEN => (
            "Anfrage abgelehnt",
            "Das Formular ist abgelaufen oder ungültig. Bitte laden Sie die Seite neu und versuchen Sie es noch einmal.",
        ),
        StatusCode::PAYLOAD_TOO_LARGE => ("Anfrage zu groß", "Die gesendeten Daten sind zu umfangreich."),
        StatusCode::BAD_REQUEST | StatusCode::UNSUPPORTED_MEDIA_TYPE | StatusCode::UNPROCESSABLE_ENTITY => (
            "Ungültige Anfrage",
            "Die Anfrage konnte nicht verarbeitet werden. Bitte laden Sie die Seite neu und versuchen Sie es noch einmal.",
        ),
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => (
            "Anfrage zu groß",
            "Die Kopfzeilen der Anfrage sind zu umfangreich. Bitte löschen Sie die Cookies dieser Seite und versuchen Sie es erneut.",
        ),
        StatusCode::REQUEST_TIMEOUT => (
            "Zeitüberschreitung",
            "Die Daten sind nicht rechtzeitig angekommen. Bitte versuchen Sie es noch einmal.",
        ),
        StatusCode::METHOD_NOT_ALLOWED => ("Nicht erlaubt", "Diese Seite kann so nicht aufgerufen werden."),
        _ => (
            "Vorübergehend nicht verfügbar",
            "Die Daten können gerade nicht gelesen werden. Bitte versuchen Sie es in einigen Minuten erneut.",
        ),
    };
    let mut ctx = base(None, title);
    ctx["message"] = json!(text);
    page(console, status, "console/fehler.html", ctx)
}

/// 403: a form without a valid token, or from another site.
pub fn forbidden(console: &Console) -> Response {
    error_page(console, StatusCode::FORBIDDEN)
}

/// 503: the database cannot be read.
pub fn unavailable(console: &Console) -> Response {
    error_page(console, StatusCode::SERVICE_UNAVAILABLE)
}

/// Any other path.
pub async fn not_found(State(console): State<Console>) -> Response {
    error_page(&console, StatusCode::NOT_FOUND)
}

/// `GET /console.css`.
pub async fn stylesheet(State(console): State<Console>) -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], console.views.stylesheet.clone()).into_response()
}

/// `GET /`: the councils, or the sign-in.
pub async fn home(Extension(viewer): Extension<Viewer>) -> Response {
    redirect(if viewer.0.is_some() { "/raete" } else { "/anmelden" })
}

/// The sign-in page with the form token `token` (also set as its cookie) and an error, if any; it offers
/// the sign-in through the identity provider when one is configured.
///
/// `back` is the page to return to after sign-in ([`session::return_path`]), carried by the form and the
/// link to the identity provider.
pub(super) fn sign_in_page(
    console: &Console,
    status: StatusCode,
    token: &str,
    error: Option<String>,
    back: Option<&str>,
) -> Response {
    let mut ctx = base(None, "Anmeldung");
    ctx["csrf"] = json!(token);
    if let Some(back) = back.and_then(session::return_path) {
        let query: String =
            form_urlencoded::Serializer::new(String::new()).append_pair(session::RETURN_FIELD, &back).finish();
        ctx["weiter"] = json!(back);
        ctx["weiter_query"] = json!(query);
    }
    ctx["error"] = json!(error);
    ctx["oidc"] = super::oidc_flow::offered(console);
    let mut response = page(console, status, "console/anmelden.html", ctx);
    let cookie = session::set_cookie(console, session::sign_in_cookie(console), token, SIGN_IN_FORM_SECS);
    response.headers_mut().append(header::SET_COOKIE, cookie);
    response
}

/// The sign-in form's query: the page to return to.
#[derive(Deserialize, Default)]
pub struct SignInQuery {
    #[serde(default)]
    weiter: String,
}

/// `GET /anmelden`: the sign-in form with a fresh form token (kept while its cookie is valid); `?weiter=`
/// names the page to return to after sign-in.
pub async fn sign_in_form(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    headers: axum::http::HeaderMap,
    axum::extract::Query(query): axum::extract::Query<SignInQuery>,
) -> Response {
    let back = query.weiter;
    if viewer.0.is_some() {
        return redirect(session::return_path(&back).as_deref().unwrap_or("/raete"));
    }
    let token = session::cookie(&headers, session::sign_in_cookie(&console))
        .filter(|t| session::is_token(t))
        .map_or_else(session::token, str::to_owned);
    sign_in_page(&console, StatusCode::OK, &token, None, Some(&back))
}

/// The sign-in form's fields (the token was checked by [`super::csrf::check`]).
#[derive(Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    login: String,
    #[serde(default)]
    password: String,
    csrf: String,
    /// The page to return to ([`session::return_path`]).
    #[serde(default)]
    weiter: String,
}

/// `POST /anmelden`: checks the throttle and the password; on success a new session (a new token: a
/// session cookie set before sign-in is never taken over) and on to the councils.
pub async fn sign_in(
    State(console): State<Console>,
    Extension(ClientAddr(peer)): Extension<ClientAddr>,
    headers: axum::http::HeaderMap,
    Form(form): Form<SignInForm>,
) -> Response {
    let address = auth::client_address(peer.ip(), &headers, &console.config.trusted_proxies).to_string();
    let outcome = match auth::sign_in(&console, &form.login, &form.password, &address).await {
        Ok(o) => o,
        Err(error) => {
            tracing::warn!(%error, "console: sign-in cannot be checked");
            return unavailable(&console);
        }
    };
    let label = match outcome {
        SignIn::Success => "success",
        SignIn::Failure => "failure",
        SignIn::Throttled(_) => "throttled",
    };
    console.metrics.inc_counter(SIGN_INS_METRIC, &[("outcome", label)], 1);
    match outcome {
        SignIn::Success => {
            let login = auth::normalise_login(&form.login).unwrap_or_default();
            match session::start(&console, &login).await {
                Ok(cookie) => {
                    let mut response = redirect(session::return_path(&form.weiter).as_deref().unwrap_or("/raete"));
                    response.headers_mut().append(header::SET_COOKIE, cookie);
                    let gone = session::set_cookie(&console, session::sign_in_cookie(&console), "", 0);
                    response.headers_mut().append(header::SET_COOKIE, gone);
                    response
                }
                Err(error) => {
                    tracing::warn!(%error, "console: a session cannot be started");
                    unavailable(&console)
                }
            }
        }
        SignIn::Failure => sign_in_page(
            &console,
            StatusCode::UNAUTHORIZED,
            &form.csrf,
            Some("Anmeldename oder Passwort ist falsch.".to_owned()),
            Some(&form.weiter),
        ),
        SignIn::Throttled(wait) => {
            let mut response = sign_in_page(
                &console,
                StatusCode::TOO_MANY_REQUESTS,
                &form.csrf,
                Some(format!(
                    "Zu viele Anmeldeversuche. Bitte warten Sie {} und versuchen Sie es dann erneut.",
                    wait_in_words(wait)
                )),
                Some(&form.weiter),
            );
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(whole_seconds(wait)));
            response
        }
    }
}

/// A wait in whole seconds, rounded up (at least one).
fn whole_seconds(wait: std::time::Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// A wait in German words, rounded up: „30 Sekunden“, „eine Minute“, „15 Minuten“.
fn wait_in_words(wait: std::time::Duration) -> String {
    let secs = whole_seconds(wait);
    match secs {
        0..=1 => "eine Sekunde".to_owned(),
        2..=59 => format!("{secs} Sekunden"),
        60 => "eine Minute".to_owned(),
        _ => format!("{} Minuten", secs.div_ceil(60)),
    }
}

/// `POST /abmelden`: ends the session (the form token was checked).
pub async fn sign_out(State(console): State<Console>, Extension(viewer): Extension<Viewer>) -> Response {
    if let Some(user) = viewer.0 {
        if let Err(error) = console.store.delete_session(&user.token_hash).await {
            tracing::warn!(%error, "console: a session cannot be ended");
            return unavailable(&console);
        }
    }
    let mut response = redirect("/anmelden");
    let gone = session::set_cookie(&console, session::session_cookie(&console), "", 0);
    response.headers_mut().append(header::SET_COOKIE, gone);
    response
}

/// The council `id` if `user` may see it and it is stored; `Err` is the answer otherwise.
pub(super) async fn visible_council(console: &Console, user: &User, id: &str) -> Result<Council, Response> {
    if !user.may_see(id) {
        return Err(error_page(console, StatusCode::NOT_FOUND));
    }
    match console.store.load_body(id).await {
        Ok(Some(council)) => Ok(council),
        Ok(None) => Err(error_page(console, StatusCode::NOT_FOUND)),
        Err(error) => {
            tracing::warn!(%error, "console: a council cannot be read");
            Err(unavailable(console))
        }
    }
}

/// `GET /raete`: the councils the user may see, with their open and urgent cases.
pub async fn councils(State(console): State<Console>, Extension(viewer): Extension<Viewer>) -> Response {
    let Some(user) = viewer.0 else { return redirect("/anmelden") };
    let ids = if user.sees_all() {
        match console.store.body_ids().await {
            Ok(ids) => ids,
            Err(_) => return unavailable(&console),
        }
    } else {
        let mut ids: Vec<String> = user.grants.iter().map(|g| g.body.clone()).collect();
        ids.sort();
        ids.dedup();
        ids
    };
    let now = console.clock.now();
    let mut rows = Vec::new();
    let mut missing = Vec::new();
    for id in ids {
        match console.store.load_body(&id).await {
            Ok(Some(council)) => {
                let cases: Vec<Value> = council
                    .cases
                    .values()
                    .filter(|c| !c.is_closed())
                    .map(|c| views::case_summary(&council, c, now, console.config.urgent_days))
                    .collect();
                let mut info = views::council_info(&council);
                info["role"] = json!(views::role_name(user.role_for(&id).unwrap_or_default()));
                info["open_cases"] = json!(cases.len());
                info["urgent_cases"] = json!(cases.iter().filter(|c| c["urgent"] == true).count());
                rows.push(info);
            }
            Ok(None) => missing.push(id),
            Err(_) => return unavailable(&console),
        }
    }
    let mut ctx = base(Some(&user), "Vertretungen");
    ctx["councils"] = json!(rows);
    ctx["missing"] = json!(missing);
    ctx["now"] = json!(when(now));
    ctx["may_import"] = json!(super::election::may_import_any(&user));
    page(&console, StatusCode::OK, "console/raete.html", ctx)
}

/// `GET /raete/{body}`: open cases with their periods, the Nachrückerliste of every list, closed cases.
pub async fn council(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    Path(id): Path<String>,
) -> Response {
    let Some(user) = viewer.0 else { return redirect("/anmelden") };
    let council = match visible_council(&console, &user, &id).await {
        Ok(c) => c,
        Err(response) => return response,
    };
    let now = console.clock.now();
    let order = council.succession_order(now);
    let mut cases: Vec<&crate::procedure::Case> = council.cases.values().collect();
    views::newest_first(council.id(), &mut cases, |c| c.id.as_str());
    let cases: Vec<Value> =
        cases.into_iter().map(|c| views::case_summary(&council, c, now, console.config.urgent_days)).collect();
    let (open, closed): (Vec<Value>, Vec<Value>) = cases.into_iter().partition(|c| c["open"] == true);
    let info = views::council_info(&council);
    let mut ctx = base(Some(&user), info["name"].as_str().unwrap_or_default());
    ctx["council"] = info;
    ctx["role"] = json!(views::role_name(user.role_for(&id).unwrap_or_default()));
    ctx["open_cases"] = json!(open);
    ctx["closed_cases"] = json!(closed);
    ctx["lists"] = json!(views::succession_lists(&council, &order));
    ctx["may_act"] = json!(matches!(user.role_for(&id), Some("wahlleiter" | "admin")));
    ctx["now"] = json!(when(now));
    ctx["urgent_days"] = json!(console.config.urgent_days);
    page(&console, StatusCode::OK, "console/rat.html", ctx)
}

/// `GET /raete/{body}/faelle/{case}`: where a case stands, its periods, the trail, its history.
pub async fn case(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    Path((id, case_id)): Path<(String, String)>,
) -> Response {
    let Some(user) = viewer.0 else { return redirect("/anmelden") };
    let council = match visible_council(&console, &user, &id).await {
        Ok(c) => c,
        Err(response) => return response,
    };
    let Some(case) = council.cases.get(case_id.as_str()) else {
        return error_page(&console, StatusCode::NOT_FOUND);
    };
    let rows = match console.store.audit_log(&id).await {
        Ok(rows) => rows,
        Err(_) => return unavailable(&console),
    };
    let now = console.clock.now();
    let summary = views::case_summary(&council, case, now, console.config.urgent_days);
    let mut ctx = base(Some(&user), &format!("Fall {}", case.id));
    ctx["council"] = views::council_info(&council);
    ctx["case"] = summary;
    let has_email =
        |id: &str| council.candidate(id).and_then(|c| c.email.as_deref()).is_some_and(|e| !e.trim().is_empty());
    ctx["history"] = json!(views::case_history(&rows, case.id.as_str(), &has_email));
    ctx["documents"] = super::documents::for_case(&council, case, &rows, now);
    ctx["may_act"] = json!(matches!(user.role_for(&id), Some("wahlleiter" | "admin")));
    ctx["now"] = json!(when(now));
    page(&console, StatusCode::OK, "console/fall.html", ctx)
}

/// Why a JSON read of council `id` is refused, if it is: 401 without sign-in, 404 for a council the user may
/// not see.
fn json_refusal(viewer: &Viewer, id: &str) -> Option<Response> {
    let Some(user) = &viewer.0 else {
        return Some(json_answer(StatusCode::UNAUTHORIZED, json!({"error": "sign-in required"}).to_string()));
    };
    if !user.may_see(id) {
        return Some(json_answer(StatusCode::NOT_FOUND, json!({"error": "unknown body"}).to_string()));
    }
    None
}

/// `GET /bodies/{body}`: the stored snapshot with its cases (docs/contract.md), behind sign-in.
pub async fn body_json(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    Path(id): Path<String>,
) -> Response {
    if let Some(r) = json_refusal(&viewer, &id) {
        return r;
    }
    match console.store.export(&id).await {
        Ok(Value::Null) => json_answer(StatusCode::NOT_FOUND, json!({"error": "unknown body"}).to_string()),
        Ok(v) => json_answer(StatusCode::OK, v.to_string()),
        Err(_) => json_answer(StatusCode::SERVICE_UNAVAILABLE, json!({"error": "database unavailable"}).to_string()),
    }
}

/// `GET /bodies/{body}/succession-order`: the Nachrückerliste now (docs/contract.md), behind sign-in.
pub async fn succession_order_json(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    Path(id): Path<String>,
) -> Response {
    if let Some(r) = json_refusal(&viewer, &id) {
        return r;
    }
    let unavailable =
        || json_answer(StatusCode::SERVICE_UNAVAILABLE, json!({"error": "database unavailable"}).to_string());
    match console.store.load_body(&id).await {
        Ok(Some(council)) => match serde_json::to_string(&council.succession_order(console.clock.now())) {
            Ok(text) => json_answer(StatusCode::OK, text),
            Err(error) => {
                tracing::error!(%error, "the succession order cannot be serialised");
                unavailable()
            }
        },
        Ok(None) => json_answer(StatusCode::NOT_FOUND, json!({"error": "unknown body"}).to_string()),
        Err(_) => unavailable(),
    }
}
