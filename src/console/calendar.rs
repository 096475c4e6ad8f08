//! `GET /raete/{body}/faelle/{case}/frist.ics`: the running period after service of a case as an
//! iCalendar entry (RFC 5545), rendered by the core (`texts::ics`). Behind sign-in and the council's role,
//! like the case page. The successor's period notice, mailed when service is recorded, attaches the same text
//! (docs/console.md, "Period as a calendar entry").

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use nachfolge_core::texts::ics::{period_calendar, PeriodEntry, PeriodKind};

use super::pages::{error_page, visible_council};
use super::session::Viewer;
use super::Console;
use crate::procedure::CaseState;

/// The content type of the entry.
pub const CALENDAR_CONTENT_TYPE: &str = "text/calendar; charset=utf-8; method=PUBLISH";

/// `GET /raete/{body}/faelle/{case}/frist.ics`: the entry of the case's running period; 404 while no period
/// runs (not yet served, or the case moved on) and for a Land without one.
pub async fn period_ics(
    State(console): State<Console>,
    Extension(viewer): Extension<Viewer>,
    Path((id, case_id)): Path<(String, String)>,
) -> Response {
    let Some(user) = viewer.0 else {
        let to = HeaderValue::from_static("/anmelden");
        return (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response();
    };
    let council = match visible_council(&console, &user, &id).await {
        Ok(c) => c,
        Err(response) => return response,
    };
    let Some(case) = council.cases.get(case_id.as_str()) else {
        return error_page(&console, StatusCode::NOT_FOUND);
    };
    let info = council.info();
    let (CaseState::Offered(offer), Some(kind)) = (&case.state, PeriodKind::of(info.land, info.kind)) else {
        return error_page(&console, StatusCode::NOT_FOUND);
    };
    let Some(deadline) = &offer.deadline else {
        return error_page(&console, StatusCode::NOT_FOUND);
    };
    let text = period_calendar(&PeriodEntry {
        case: case.id.as_str(),
        round: case.round,
        kind,
        land: info.land,
        body_kind: info.kind,
        body_name: &info.name,
        served_on: deadline.served_on,
        last_day: deadline.last_day,
        stamp: console.clock.now(),
    });
    let file = format!("attachment; filename=\"frist-{}.ics\"", case.round);
    let disposition = HeaderValue::from_str(&file).unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(CALENDAR_CONTENT_TYPE)),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response()
}
