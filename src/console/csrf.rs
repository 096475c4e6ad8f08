//! The CSRF check of every POST (and any other state-changing method) the console answers — the sign-in
//! form now, the actions later, without each handler doing it.
//!
//! * A signed-in user's forms carry the session's token (synchroniser token, `console_sessions.csrf`);
//!   the sign-in form, before there is a session, the token of its own cookie (double submit).
//! * The form field `csrf` must equal it (compared in constant time); a cross-site request
//!   (`Sec-Fetch-Site: cross-site`, or an `Origin` of another host) is refused before that.
//! * The form body is read here (at most [`MAX_FORM_BYTES`]) and handed on unchanged.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use subtle::ConstantTimeEq;

use super::session::{self, Viewer};
use super::Console;

/// Largest form body accepted.
pub const MAX_FORM_BYTES: usize = 64 * 1024;

/// The name of the form field holding the token.
pub const FIELD: &str = "csrf";

/// Middleware: lets safe methods through and checks the token of every other request.
pub async fn check(State(console): State<Console>, request: Request, next: Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(request).await;
    }
    if cross_site(&request) {
        return super::pages::forbidden(&console);
    }
    let expected = match request.extensions().get::<Viewer>().and_then(|v| v.0.as_ref()) {
        Some(user) => Some(user.csrf.clone()),
        None => session::cookie(request.headers(), session::sign_in_cookie(&console))
            .filter(|t| session::is_token(t))
            .map(str::to_owned),
    };
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_FORM_BYTES).await {
        Ok(b) => b,
        Err(_) => return super::pages::error_page(&console, StatusCode::PAYLOAD_TOO_LARGE),
    };
    let given = form_urlencoded::parse(&bytes).find(|(k, _)| k == FIELD).map(|(_, v)| v.into_owned());
    let valid = match (expected, given) {
        (Some(e), Some(g)) => bool::from(e.as_bytes().ct_eq(g.as_bytes())),
        _ => false,
    };
    if !valid {
        return super::pages::forbidden(&console);
    }
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}

/// A request a browser marks as coming from another site, or whose `Origin` names another host than `Host`.
fn cross_site(request: &Request) -> bool {
    let headers = request.headers();
    if headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()).is_some_and(|v| v == "cross-site") {
        return true;
    }
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let origin_host = origin.split_once("://").map_or("", |(_, rest)| rest).trim_end_matches('/');
    origin == "null" || !origin_host.eq_ignore_ascii_case(host)
}
