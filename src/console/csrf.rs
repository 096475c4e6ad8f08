//! The CSRF check of every POST (and any other state-changing method) the console answers — the sign-in
//! form now, the actions later, without each handler doing it.
//!
//! * A signed-in user's forms carry the session's token (synchroniser token, `console_sessions.csrf`);
//!   the sign-in form, before there is a session, the token of its own cookie (double submit).
//! * The form field `csrf` must equal it (compared in constant time); a cross-site request
//!   (`Sec-Fetch-Site: cross-site`, or an `Origin` of another host) is refused before that.
//! * The form body is read here (at most `console.max_form_bytes`, the upload `console.max_upload_bytes`:
//!   else 413; within `console.body_timeout_seconds`: else 408) and handed on unchanged.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use subtle::ConstantTimeEq;

use super::session::{self, Viewer};
use super::upload;
use super::Console;

/// The one path that takes an upload (`multipart/form-data`); any other refuses one unread.
pub const UPLOAD_PATH: &str = "/wahlergebnis/vorschau";

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
    let content_type = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if upload::is_multipart(content_type) {
        return check_upload(&console, request, expected, next).await;
    }
    let limit = console.config.max_form_bytes as usize;
    if announced_length(&request).is_some_and(|n| n > limit as u64) {
        return super::pages::error_page(&console, StatusCode::PAYLOAD_TOO_LARGE);
    }
    let (parts, body) = request.into_parts();
    let bytes = match read_body(&console, body, limit).await {
        Ok(b) => b,
        Err(status) => return super::pages::error_page(&console, status),
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

/// The token check of an upload (`multipart/form-data`, [`upload`]), only at [`UPLOAD_PATH`] and only with a
/// session (else refused before the body is read): a body announced or found larger than
/// `console.max_upload_bytes` is refused before or while it is read (413), more than [`upload::MAX_PARTS`]
/// parts too; the token is the field `csrf` among the parts, which go on as the extension [`upload::Parts`].
async fn check_upload(console: &Console, request: Request, expected: Option<String>, next: Next) -> Response {
    // nothing is read for a request without a session or for another path than the upload's
    if expected.is_none() || request.uri().path() != UPLOAD_PATH {
        return super::pages::forbidden(console);
    }
    let too_large = || super::pages::error_page(console, StatusCode::PAYLOAD_TOO_LARGE);
    let limit = console.config.max_upload_bytes as usize;
    if announced_length(&request).is_some_and(|n| n > limit as u64) {
        return too_large();
    }
    let boundary = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).and_then(upload::boundary);
    let (parts, body) = request.into_parts();
    let Some(boundary) = boundary else { return super::pages::forbidden(console) };
    let bytes = match read_body(console, body, limit).await {
        Ok(b) => b,
        Err(status) => return super::pages::error_page(console, status),
    };
    let fields = match upload::parse(&bytes, &boundary) {
        Ok(p) => upload::Parts(p),
        Err(upload::UploadError::TooManyParts) => return too_large(),
        // no token can be read from it
        Err(upload::UploadError::Malformed(_)) => return super::pages::forbidden(console),
    };
    drop(bytes);
    let given = fields.field(FIELD);
    let valid = expected.is_some_and(|e| !given.is_empty() && bool::from(e.as_bytes().ct_eq(given.as_bytes())));
    if !valid {
        return super::pages::forbidden(console);
    }
    let mut request = Request::from_parts(parts, Body::empty());
    request.extensions_mut().insert(fields);
    next.run(request).await
}

/// The body's announced length (`Content-Length`), if any.
fn announced_length(request: &Request) -> Option<u64> {
    request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse().ok())
}

/// Reads a body of at most `limit` bytes within `console.body_timeout_seconds` (a client that sends it
/// slowly holds its connection no longer): 413 when larger, 408 when late.
async fn read_body(console: &Console, body: Body, limit: usize) -> Result<axum::body::Bytes, StatusCode> {
    let timeout = std::time::Duration::from_secs(u64::from(console.config.body_timeout_seconds));
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(StatusCode::PAYLOAD_TOO_LARGE),
        Err(_) => Err(StatusCode::REQUEST_TIMEOUT),
    }
}

/// A request a browser marks as coming from another site, or whose `Origin` names another host than `Host`.
///
/// Every current browser sends `Sec-Fetch-Site`; when it is there it decides, and only `same-origin` passes.
/// Its `Origin` is then no proof either way: under this console's `Referrer-Policy: no-referrer` a browser
/// sends `Origin: null` for a form posted from the console's own page (Fetch standard, "serialize a request
/// origin"; Chromium does, as the browser test `tests/browser/` found — every sign-in was refused). Without
/// `Sec-Fetch-Site` (an older browser, another client) an `Origin`, when given, must name `Host`, and `null`
/// is refused.
fn cross_site(request: &Request) -> bool {
    let headers = request.headers();
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    if let Some(site) = headers.get("sec-fetch-site") {
        return site.as_bytes() != b"same-origin" || origin.is_some_and(|o| o != "null" && !same_host(o, headers));
    }
    origin.is_some_and(|o| o == "null" || !same_host(o, headers))
}

/// Does an `Origin` (`scheme://host[:port]`) name the request's `Host`?
fn same_host(origin: &str, headers: &axum::http::HeaderMap) -> bool {
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let origin_host = origin.split_once("://").map_or("", |(_, rest)| rest).trim_end_matches('/');
    origin_host.eq_ignore_ascii_case(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(headers: &[(&str, &str)]) -> Request {
        let mut b = Request::builder().method(Method::POST).uri("/anmelden").header(header::HOST, "127.0.0.1:8081");
        for (n, v) in headers {
            b = b.header(*n, *v);
        }
        b.body(Body::empty()).expect("request")
    }

    #[test]
    fn a_browsers_same_origin_form_passes_with_origin_null_under_no_referrer() {
        // what Chromium sends for the console's own sign-in form (tests/browser/)
        assert!(!cross_site(&post(&[("Sec-Fetch-Site", "same-origin"), ("Origin", "null")])));
        assert!(!cross_site(&post(&[("Sec-Fetch-Site", "same-origin"), ("Origin", "http://127.0.0.1:8081")])));
        assert!(!cross_site(&post(&[("Origin", "http://127.0.0.1:8081")])));
        assert!(!cross_site(&post(&[])), "a client without either header: the token decides");
    }

    #[test]
    fn another_site_or_origin_is_refused() {
        for site in ["cross-site", "same-site", "none"] {
            assert!(cross_site(&post(&[("Sec-Fetch-Site", site), ("Origin", "null")])), "{site}");
        }
        assert!(cross_site(&post(&[("Sec-Fetch-Site", "same-origin"), ("Origin", "https://evil.example")])));
        assert!(cross_site(&post(&[("Origin", "https://evil.example")])));
        assert!(cross_site(&post(&[("Origin", "null")])), "null without Sec-Fetch-Site");
    }
}
