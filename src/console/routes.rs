//! The console's paths and the layers around them.
//!
//! | path | what |
//! |---|---|
//! | `GET /` | to the councils, or to the sign-in |
//! | `GET /anmelden`, `POST /anmelden` | the sign-in form |
//! | `GET /anmelden/dienstkonto`, `GET /anmelden/dienstkonto/rueckkehr` | sign-in through the identity provider: on to it, and back ([`super::oidc_flow`]) |
//! | `POST /abmelden` | sign-out |
//! | `GET /raete` | the councils the user may see |
//! | `GET /raete/{body}` | a council: open cases with their periods, the Nachrückerliste of every list, closed cases |
//! | `GET /raete/{body}/faelle/{case}` | a case: where it stands, its periods, its history |
//! | `GET /raete/{body}/faelle/{case}/frist.ics` | the case's running period as an iCalendar entry (RFC 5545) |
//! | `GET /raete/{body}/faelle/{case}/schreiben.pdf` | the formal letter to the offered successor, for service ([`super::documents`]) |
//! | `GET /raete/{body}/faelle/{case}/bekanntmachung/{n}.pdf`, `….txt` | the case's `n`-th announcement as PDF or text |
//! | `GET /raete/{body}/faelle/{case}/zustellung`, `POST …/vorschau`, `POST …` | record service: form, preview, confirm ([`super::actions`]) |
//! | `GET /raete/{body}/faelle/{case}/erklaerung`, `POST …/vorschau`, `POST …` | record a declaration: form, preview, confirm |
//! | `GET /raete/{body}/faelle/{case}/tatsache`, `POST …/vorschau`, `POST …` | record a candidate fact: form, preview, confirm |
//! | `GET /raete/{body}/faelle/{case}/{los,feststellung,pruefung,nachweis}`, `POST …/vorschau`, `POST …` | a lot, the confirmation of a proposal, a review decision, the proof that a bar ended |
//! | `GET /raete/{body}/{ausscheiden,tatsache}`, `POST …/vorschau`, `POST …` | the council's actions: report a vacancy, record a fact (from the Nachrückerliste) |
//! | `GET /wahlergebnis`, `POST /wahlergebnis/vorschau`, `POST /wahlergebnis/{token}/korrektur`, `POST /wahlergebnis/{token}` | „Wahlergebnis übernehmen“: upload (multipart), preview, corrections, confirm ([`super::election`]) |
//! | `GET /bodies/{body}`, `GET /bodies/{body}/succession-order` | the stored snapshot with its cases, the Nachrückerliste, as JSON (docs/contract.md) |
//! | `GET /console.css` | the style sheet |
//!
//! Every request passes, outermost first: the security headers ([`security_headers`]), the limits of the
//! request head and the German pages of refusals ([`limits`]), the session
//! ([`super::session::load`]), the CSRF check of every POST ([`super::csrf::check`]). Actions (POST forms
//! that change a case) are added as further routes and need nothing else.

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;

use super::actions::handlers as act;
use super::{calendar, csrf, documents, election, oidc, oidc_flow, pages, session, Console};

/// The Content-Security-Policy of every answer: nothing but the console's own style sheet; no script, no
/// frames, forms only to the console itself.
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The console's routes with their layers.
pub fn router(console: Console) -> Router {
    Router::new()
        .route("/", get(pages::home))
        .route("/anmelden", get(pages::sign_in_form).post(pages::sign_in))
        .route(oidc::START_PATH, get(oidc_flow::start))
        .route(oidc::CALLBACK_PATH, get(oidc_flow::callback))
        .route("/abmelden", post(pages::sign_out))
        .route("/raete", get(pages::councils))
        .route("/raete/{body}", get(pages::council))
        .route("/raete/{body}/faelle/{case}", get(pages::case))
        .route("/raete/{body}/faelle/{case}/frist.ics", get(calendar::period_ics))
        .route("/raete/{body}/faelle/{case}/schreiben.pdf", get(documents::letter_pdf))
        .route("/raete/{body}/faelle/{case}/bekanntmachung/{file}", get(documents::announcement))
        // zustellung, erklaerung, tatsache, los, … (`actions::Action::slug`); `frist.ics` above wins as the static segment
        .route("/raete/{body}/faelle/{case}/{action}", get(act::form_page).post(act::confirm_page))
        .route("/raete/{body}/faelle/{case}/{action}/vorschau", post(act::preview_page))
        // ausscheiden, tatsache (`Action::in_scope`); `faelle` above wins as the static segment
        .route("/raete/{body}/{action}", get(act::council_form_page).post(act::council_confirm_page))
        .route("/raete/{body}/{action}/vorschau", post(act::council_preview_page))
        .route(election::PATH, get(election::form_page))
        .route(csrf::UPLOAD_PATH, post(election::preview_page))
        .route("/wahlergebnis/{token}/korrektur", post(election::correct_page))
        .route("/wahlergebnis/{token}", post(election::confirm_page))
        .route("/bodies/{body}", get(pages::body_json))
        .route("/bodies/{body}/succession-order", get(pages::succession_order_json))
        .route("/console.css", get(pages::stylesheet))
        .fallback(pages::not_found)
        .layer(middleware::from_fn_with_state(console.clone(), csrf::check))
        .layer(middleware::from_fn_with_state(console.clone(), session::load))
        .layer(middleware::from_fn_with_state(console.clone(), limits))
        .layer(middleware::from_fn_with_state(console.clone(), security_headers))
        .with_state(console)
}

/// Sets the security headers on every answer, and marks it not to be stored (it may hold personal data).
pub async fn security_headers(State(console): State<Console>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert("cross-origin-opener-policy", HeaderValue::from_static("same-origin"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if console.config.secure_cookie {
        h.insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static("max-age=31536000"));
    }
    response
}

/// Refuses a request head above `console.max_header_bytes` or with more than `console.max_headers` fields
/// (431), and answers the refusals of the layers below that are not pages yet (axum's plain-text 400, 405,
/// 408, 413, 415, 422, 431) with the console's German error page — except the JSON reads under `/bodies/`.
/// A head too large even for hyper's buffer (twice the limits) gets hyper's own bare 431, a head that is
/// not HTTP hyper's bare 400 (docs/security.md "The console's listener").
pub async fn limits(State(console): State<Console>, request: Request, next: Next) -> Response {
    let head_bytes = request.method().as_str().len()
        + request.uri().to_string().len()
        + 11
        + request.headers().iter().map(|(n, v)| n.as_str().len() + v.len() + 4).sum::<usize>();
    let too_large = head_bytes > console.config.max_header_bytes as usize
        || request.headers().len() > console.config.max_headers as usize;
    if too_large {
        return super::pages::error_page(&console, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    }
    let json = request.uri().path().starts_with("/bodies/");
    let response = next.run(request).await;
    let status = response.status();
    let is_page = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    let refusal = matches!(status.as_u16(), 400 | 405 | 408 | 413 | 415 | 422 | 431);
    if refusal && !is_page && !json {
        let mut page = super::pages::error_page(&console, status);
        if let Some(allow) = response.headers().get(header::ALLOW) {
            page.headers_mut().insert(header::ALLOW, allow.clone());
        }
        return page;
    }
    response
}
