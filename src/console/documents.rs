//! A case's documents for download (docs/console.md, "Documents"), behind sign-in and the council's role like
//! the case page:
//!
//! * `GET /raete/{body}/faelle/{case}/schreiben.pdf` — the formal letter to the successor of the current
//!   offer, for service (Zustellung): the core's letter ([`Council::determination_letter`], the successor's
//!   e-mail text in its letter form, and [`letter_frame`]), laid out by [`crate::letter`]; 404 unless the
//!   case waits for the offered successor;
//! * `GET /raete/{body}/faelle/{case}/bekanntmachung/{n}.pdf` and `…/{n}.txt` — the case's `n`-th public
//!   announcement (1, 2, … in the order issued), its text as the `announcement.issued` event carried it
//!   (read from the audit log).

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use chrono::{DateTime, Utc};
use nachfolge_core::texts::letter::letter_frame;
use serde_json::{json, Value};

use super::pages::{base, error_page, page, redirect, unavailable, visible_council};
use super::session::Viewer;
use super::views::when;
use super::Console;
use crate::letter::{self, pdf::Metrics};
use crate::procedure::{Case, Council};
use crate::store::AuditRow;

/// The content type of the PDFs.
pub const PDF: &str = "application/pdf";

/// `GET /raete/{body}/faelle/{case}/schreiben.pdf`: the letter to the offered successor, dated today.
pub async fn letter_pdf(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    Path((id, case_id)): Path<(String, String)>,
) -> Response {
    let Some(user) = viewer.0 else { return redirect("/anmelden") };
    let council = match visible_council(&console, &user, &id).await {
        Ok(c) => c,
        Err(response) => return response,
    };
    let now = console.clock.now();
    let Some(mail) = council.determination_letter(&case_id, now) else {
        return error_page(&console, StatusCode::NOT_FOUND);
    };
    let Some(frame) = letter_frame(&council.body, &mail, now) else {
        return error_page(&console, StatusCode::NOT_FOUND);
    };
    let text = match console.templates.mail(&mail.template, &mail.context) {
        Ok(rendered) => rendered.text,
        Err(error) => {
            tracing::error!(%error, "console: the letter cannot be rendered");
            return error_page(&console, StatusCode::INTERNAL_SERVER_ERROR);
        }
    };
    let Some(metrics) = Metrics::load() else { return error_page(&console, StatusCode::INTERNAL_SERVER_ERROR) };
    match letter::letter_pdf(&frame, &text, &metrics) {
        Ok(pdf) => download(PDF, &format!("schreiben-{}-{}.pdf", file_safe(&case_id), mail.round), pdf),
        Err(error) => refused(&console, &error),
    }
}

/// 422: the document cannot be written (a character the fonts lack, a field's text too long for its DIN 5008
/// field); the page says which, in German (docs/console.md, "Documents"). Only the error's kind is logged.
fn refused(console: &Console, error: &letter::DocumentError) -> Response {
    let kind = match error {
        letter::DocumentError::Unprintable(_) => "unprintable characters",
        letter::DocumentError::TooLong(_) => "a field too long",
    };
    tracing::warn!(kind, "console: the document cannot be written");
    let mut ctx = base(None, "Schriftstück nicht erstellt");
    ctx["message"] = json!(error.to_string());
    page(console, StatusCode::UNPROCESSABLE_ENTITY, "console/fehler.html", ctx)
}

/// `GET /raete/{body}/faelle/{case}/bekanntmachung/{file}`, `file` = `{n}.pdf` or `{n}.txt`.
pub async fn announcement(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    Path((id, case_id, file)): Path<(String, String, String)>,
) -> Response {
    let Some(user) = viewer.0 else { return redirect("/anmelden") };
    let council = match visible_council(&console, &user, &id).await {
        Ok(c) => c,
        Err(response) => return response,
    };
    let Some(case) = council.cases.get(case_id.as_str()) else {
        return error_page(&console, StatusCode::NOT_FOUND);
    };
    let Some((number, pdf)) = parse_file(&file) else { return error_page(&console, StatusCode::NOT_FOUND) };
    let rows = match console.store.audit_log(&id).await {
        Ok(rows) => rows,
        Err(_) => return unavailable(&console),
    };
    let Some(issued) = announcements(&rows, case.id.as_str()).into_iter().nth(number.saturating_sub(1)) else {
        return error_page(&console, StatusCode::NOT_FOUND);
    };
    let name = format!("bekanntmachung-{}-{number}", file_safe(case.id.as_str()));
    if pdf {
        let Some(metrics) = Metrics::load() else { return error_page(&console, StatusCode::INTERNAL_SERVER_ERROR) };
        match letter::announcement_pdf(&issued.text, &metrics) {
            Ok(pdf) => download(PDF, &format!("{name}.pdf"), pdf),
            Err(error) => refused(&console, &error),
        }
    } else {
        download("text/plain; charset=utf-8", &format!("{name}.txt"), issued.text.into_bytes())
    }
}

/// What the case page lists under „Schriftstücke“: the letter while the case waits for the offered
/// successor, and every announcement of the case.
pub fn for_case(council: &Council, case: &Case, rows: &[AuditRow], now: DateTime<Utc>) -> Value {
    let base = format!("/raete/{}/faelle/{}", council.body.id(), case.id.as_str());
    let letter = council.determination_letter(case.id.as_str(), now).map(|_| format!("{base}/schreiben.pdf"));
    let list: Vec<Value> = announcements(rows, case.id.as_str())
        .into_iter()
        .enumerate()
        .map(|(i, a)| {
            let n = i + 1;
            json!({
                "number": n, "title": a.title, "issued": a.issued_at.map(when),
                "pdf": format!("{base}/bekanntmachung/{n}.pdf"), "txt": format!("{base}/bekanntmachung/{n}.txt"),
            })
        })
        .collect();
    json!({"letter": letter, "announcements": list})
}

/// An announcement as the audit log holds it.
struct Issued {
    title: String,
    text: String,
    issued_at: Option<DateTime<Utc>>,
}

/// The `announcement.issued` effects of case `case`, in the order issued.
fn announcements(rows: &[AuditRow], case: &str) -> Vec<Issued> {
    rows.iter()
        .filter(|r| r.kind == "effect" && r.ty == "announcement.issued" && r.payload["case"] == case)
        .map(|r| Issued {
            title: r.payload["title"].as_str().unwrap_or_default().to_owned(),
            text: r.payload["text"].as_str().unwrap_or_default().to_owned(),
            issued_at: r.payload["issued_at"]
                .as_str()
                .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                .map(|t| t.with_timezone(&Utc)),
        })
        .collect()
}

/// `3.pdf` → (3, true), `3.txt` → (3, false); anything else `None`.
fn parse_file(file: &str) -> Option<(usize, bool)> {
    let (number, ext) = file.rsplit_once('.')?;
    let pdf = match ext {
        "pdf" => true,
        "txt" => false,
        _ => return None,
    };
    let n: usize = number.parse().ok()?;
    (n > 0 && number.bytes().all(|b| b.is_ascii_digit())).then_some((n, pdf))
}

/// A case id as part of a file name: letters, digits, `-` and `.`; anything else `_`.
fn file_safe(id: &str) -> String {
    id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' }).collect()
}

/// A download: `content_type`, saved as `name`.
fn download(content_type: &'static str, name: &str, body: Vec<u8>) -> Response {
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, HeaderValue::from_static(content_type)), (header::CONTENT_DISPOSITION, disposition)],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn announcement_file_names() {
        assert_eq!(parse_file("1.pdf"), Some((1, true)));
        assert_eq!(parse_file("12.txt"), Some((12, false)));
        for bad in ["0.pdf", "1.html", "-1.txt", "+1.pdf", "x.pdf", "1", ".pdf"] {
            assert_eq!(parse_file(bad), None, "{bad}");
        }
        assert_eq!(file_safe("rat/1 ä"), "rat_1__");
    }
}
