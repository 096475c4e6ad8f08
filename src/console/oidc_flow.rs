//! The sign-in through the identity provider as the browser goes it („Mit Dienstkonto anmelden“):
//!
//! 1. `GET /anmelden/dienstkonto`: fresh `state`, `nonce` and PKCE verifier, kept in PostgreSQL under the
//!    SHA-256 of a random token that the browser gets as the cookie `__Host-nachfolge-dienstkonto`
//!    (`SameSite=Lax`: it must come along when the provider sends the browser back, a navigation from
//!    another site, which a `Strict` cookie would miss; 10 minutes); then 303 to the provider.
//! 2. `GET /anmelden/dienstkonto/rueckkehr?code=…&state=…`: the sign-in of the cookie is taken (once: a
//!    second answer finds nothing), `state` compared, `iss` (RFC 9207) checked when given, the code
//!    exchanged with the verifier, the ID token checked ([`super::oidc`]), the roles read from the claim;
//!    then a session as a local account's (origin `oidc`), and a page that moves on to the councils.
//!
//! That last page answers 200 with a `<meta http-equiv="refresh">` instead of a redirect: the session cookie
//! is `SameSite=Strict`, and a browser does not send it on a redirect that still belongs to the navigation
//! the provider's site started. The refresh is a navigation of the console's own page.
//!
//! Every failure leads back to the sign-in page with a German reason and no session; the log says which
//! check failed, never who signed in.

use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use axum::Extension;
use serde_json::json;
use subtle::ConstantTimeEq;

use super::oidc::{self, OidcError, Pending};
use super::pages::{self, redirect};
use super::session::{self, Viewer};
use super::Console;

/// How long a sign-in may take at the provider, in seconds.
const FLOW_SECS: i64 = 600;

const EXPIRED: &str =
    "Die Anmeldung mit dem Dienstkonto ist abgelaufen oder ungültig. Bitte beginnen Sie die Anmeldung erneut.";
const NOT_CONFIRMED: &str =
    "Die Anmeldung mit dem Dienstkonto konnte nicht bestätigt werden. Bitte beginnen Sie die Anmeldung erneut.";
const CANCELLED: &str = "Die Anmeldung beim Anmeldedienst wurde abgebrochen oder abgelehnt.";
const NO_ROLE: &str = "Ihrem Dienstkonto ist keine Rolle für die Nachfolge-Konsole zugewiesen. Bitte wenden Sie sich an die Stelle, die die Zugänge Ihrer Verwaltung vergibt.";
const UNREACHABLE: &str = "Der Anmeldedienst ist gerade nicht erreichbar. Bitte versuchen Sie es später erneut oder melden Sie sich mit einem lokalen Zugang an.";

/// The cookie of a sign-in on its way through the provider.
pub fn flow_cookie(console: &Console) -> &'static str {
    if console.config.secure_cookie {
        "__Host-nachfolge-dienstkonto"
    } else {
        "nachfolge-dienstkonto"
    }
}

fn set_flow_cookie(console: &Console, value: &str, max_age: i64) -> HeaderValue {
    let secure = if console.config.secure_cookie { "; Secure" } else { "" };
    let name = flow_cookie(console);
    let text = format!("{name}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("invalid=; Max-Age=0"))
}

/// The cookie that keeps the page to return to while the user is at the provider (like the flow's cookie,
/// `SameSite=Lax`: it comes back with the provider's redirect).
fn return_cookie(console: &Console) -> &'static str {
    if console.config.secure_cookie {
        "__Host-nachfolge-weiter"
    } else {
        "nachfolge-weiter"
    }
}

fn set_return_cookie(console: &Console, value: &str, max_age: i64) -> HeaderValue {
    let secure = if console.config.secure_cookie { "; Secure" } else { "" };
    let name = return_cookie(console);
    let text = format!("{name}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("invalid=; Max-Age=0"))
}

/// The return path kept in the cookie (percent-encoded), if it still is one ([`session::return_path`]).
fn decode_return(value: &str) -> Option<String> {
    let decoded: String = form_urlencoded::parse(format!("p={value}").as_bytes()).next()?.1.into_owned();
    session::return_path(&decoded)
}

/// A failed sign-in: the metric's outcome, the status and the German reason.
struct Failure(&'static str, StatusCode, &'static str);

fn count(console: &Console, outcome: &str) {
    console.metrics.inc_counter(oidc::METRIC, &[("outcome", outcome)], 1);
}

/// The sign-in page again, with the reason.
fn failed(console: &Console, headers: &HeaderMap, Failure(outcome, status, text): Failure) -> Response {
    count(console, outcome);
    let token = session::cookie(headers, session::sign_in_cookie(console))
        .filter(|t| session::is_token(t))
        .map_or_else(session::token, str::to_owned);
    let back = session::cookie(headers, return_cookie(console)).and_then(decode_return);
    pages::sign_in_page(console, status, &token, Some(text.to_owned()), back.as_deref())
}

/// `GET /anmelden/dienstkonto`: on to the provider.
pub async fn start(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let Some(provider) = console.oidc.as_ref() else {
        return pages::error_page(&console, StatusCode::NOT_FOUND);
    };
    let back = form_urlencoded::parse(query.as_deref().unwrap_or_default().as_bytes())
        .find(|(k, _)| k == session::RETURN_FIELD)
        .and_then(|(_, v)| session::return_path(&v));
    if viewer.0.is_some() {
        return redirect(back.as_deref().unwrap_or("/raete"));
    }
    let pending = Pending::new();
    let url = match provider.authorization_url(&pending).await {
        Ok(url) => url,
        Err(error) => {
            tracing::warn!(%error, "console: the identity provider cannot be used");
            return failed(&console, &headers, Failure("unavailable", StatusCode::SERVICE_UNAVAILABLE, UNREACHABLE));
        }
    };
    let flow = session::token();
    let now = console.clock.now();
    let end = now + chrono::Duration::seconds(FLOW_SECS);
    let hash = session::token_hash(&flow);
    if let Err(error) =
        console.store.begin_oidc_sign_in(&hash, &pending.state, &pending.nonce, &pending.verifier, now, end).await
    {
        tracing::warn!(%error, "console: a sign-in through the identity provider cannot be stored");
        return pages::unavailable(&console);
    }
    let mut response = redirect(&url);
    response.headers_mut().append(header::SET_COOKIE, set_flow_cookie(&console, &flow, FLOW_SECS));
    if let Some(back) = back {
        let value: String = form_urlencoded::byte_serialize(back.as_bytes()).collect();
        response.headers_mut().append(header::SET_COOKIE, set_return_cookie(&console, &value, FLOW_SECS));
    }
    response
}

/// `GET /anmelden/dienstkonto/rueckkehr`: the provider's answer.
pub async fn callback(State(console): State<Console>, headers: HeaderMap, RawQuery(query): RawQuery) -> Response {
    let Some(provider) = console.oidc.as_ref() else {
        return pages::error_page(&console, StatusCode::NOT_FOUND);
    };
    let mut response = match finish(&console, provider, &headers, query.as_deref().unwrap_or_default()).await {
        Ok(cookie) => {
            count(&console, "success");
            tracing::info!("console: signed in through the identity provider");
            let mut ctx = pages::base(None, "Anmeldung erfolgreich");
            ctx["weiter"] = json!(session::cookie(&headers, return_cookie(&console)).and_then(decode_return));
            let mut response = pages::page(&console, StatusCode::OK, "console/weiter.html", ctx);
            response.headers_mut().append(header::SET_COOKIE, cookie);
            let gone = session::set_cookie(&console, session::sign_in_cookie(&console), "", 0);
            response.headers_mut().append(header::SET_COOKIE, gone);
            response
        }
        Err(failure) => {
            tracing::info!(outcome = failure.0, "console: a sign-in through the identity provider failed");
            failed(&console, &headers, failure)
        }
    };
    // the sign-in is over either way
    response.headers_mut().append(header::SET_COOKIE, set_flow_cookie(&console, "", 0));
    if session::cookie(&headers, return_cookie(&console)).is_some() {
        response.headers_mut().append(header::SET_COOKIE, set_return_cookie(&console, "", 0));
    }
    response
}

async fn finish(
    console: &Console,
    provider: &oidc::Oidc,
    headers: &HeaderMap,
    query: &str,
) -> Result<HeaderValue, Failure> {
    let param =
        |name: &str| form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == name).map(|(_, v)| v.into_owned());
    let refused = |why: &str| {
        tracing::info!(check = why, "console: the identity provider's answer is refused");
        Failure("refused", StatusCode::BAD_REQUEST, NOT_CONFIRMED)
    };
    let expired = Failure("refused", StatusCode::BAD_REQUEST, EXPIRED);
    let Some(flow) = session::cookie(headers, flow_cookie(console)).filter(|t| session::is_token(t)) else {
        return Err(expired);
    };
    let taken = console.store.take_oidc_sign_in(&session::token_hash(flow), console.clock.now()).await;
    let (state, nonce, verifier) = match taken {
        Ok(Some(row)) => row,
        Ok(None) => return Err(expired),
        Err(error) => {
            tracing::warn!(%error, "console: a sign-in through the identity provider cannot be read");
            return Err(Failure("unavailable", StatusCode::SERVICE_UNAVAILABLE, UNREACHABLE));
        }
    };
    let pending = Pending { state, nonce, verifier };
    let given = param("state").unwrap_or_default();
    if !bool::from(given.as_bytes().ct_eq(pending.state.as_bytes())) {
        return Err(refused("state"));
    }
    if param("error").is_some() {
        return Err(Failure("cancelled", StatusCode::FORBIDDEN, CANCELLED));
    }
    // RFC 9207: a provider that names itself must be ours (an answer of another provider is mixed up)
    if param("iss").is_some_and(|iss| iss != provider.config.issuer.trim()) {
        return Err(refused("iss"));
    }
    let Some(code) = param("code").filter(|c| !c.is_empty()) else {
        return Err(refused("code"));
    };
    let claims = match provider.sign_in(&code, &pending).await {
        Ok(claims) => claims,
        Err(OidcError::Provider(error)) => {
            tracing::warn!(%error, "console: the identity provider cannot be used");
            return Err(Failure("unavailable", StatusCode::SERVICE_UNAVAILABLE, UNREACHABLE));
        }
        Err(error) => {
            tracing::info!(%error, "console: the identity provider's answer is refused");
            return Err(Failure("refused", StatusCode::BAD_REQUEST, NOT_CONFIRMED));
        }
    };
    let (grants, ignored) = oidc::grants_from_claims(&claims, &provider.config.roles_claim);
    if ignored > 0 {
        tracing::warn!(ignored, claim = %provider.config.roles_claim, "console: entries of the roles claim are not understood");
    }
    if grants.is_empty() {
        return Err(Failure("no_role", StatusCode::FORBIDDEN, NO_ROLE));
    }
    let login = oidc::login_from_claims(&claims);
    let name = oidc::name_from_claims(&claims, &provider.config.login_claim);
    session::start_from_provider(console, &login, &name, &grants).await.map_err(|error| {
        tracing::warn!(%error, "console: a session cannot be started");
        Failure("unavailable", StatusCode::SERVICE_UNAVAILABLE, UNREACHABLE)
    })
}

/// The sign-in page's part for the provider: whether to offer it.
pub fn offered(console: &Console) -> serde_json::Value {
    json!(console.oidc.is_some())
}
