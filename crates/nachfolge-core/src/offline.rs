//! Offline commands that need no services: `decide`, `succession-order` and `schema`.

use chrono::{DateTime, FixedOffset, Utc};
use serde_json::{json, Value};

use crate::messages::VacancyReported;
use crate::model::{parse_json, parse_snapshot, Body};
use crate::procedure::{check_vacancy, record_departure};
use crate::rules::{Outcome, Query};

/// `nachfolge decide`: determine the successor for a vacancy, offline. Returns the one JSON object the
/// command prints, or an error message naming the field (exit 2).
pub fn decide(election: &[u8], vacancy: &[u8], at: Option<DateTime<FixedOffset>>) -> Result<Value, String> {
    let snapshot = parse_snapshot(election).map_err(|e| format!("election: {e}"))?;
    let mut body = Body::from_snapshot(snapshot).map_err(|e| format!("election: {e}"))?;
    let v: VacancyReported = parse_json(vacancy).map_err(|e| format!("vacancy: {e}"))?;
    let (seat, cause) = check_vacancy(&body, &v).map_err(|e| format!("vacancy: {e}"))?;
    let at: DateTime<Utc> = at.unwrap_or(v.effective_at).with_timezone(&Utc);
    // as the worker records it: the seat fell vacant at `effective_at`, whatever the reference time (`--at`)
    record_departure(&mut body, &v);
    let q = Query { departed: &v.member, departed_via: Some(seat.via), at, lot_winner: None, pending: vec![], cause };
    let d = body.decide(&q).map_err(|e| format!("vacancy: {e}"))?;
    // the Fassung of the Land's rules in force on the reference day (docs/legal.md, "Fassungen")
    let fassung = body.fassung_at(at);
    Ok(match d.outcome {
        Outcome::Successor { candidate, list, barred } => json!({
            "outcome": "successor", "successor": candidate, "list": list, "barred": barred, "fassung": fassung,
            "trail": d.trail,
        }),
        Outcome::Vacant { reason, statutory_size } => json!({
            "outcome": "vacant", "reason": reason, "statutory_size": statutory_size, "fassung": fassung,
            "trail": d.trail,
        }),
        Outcome::LotRequired { tied } => {
            json!({"outcome": "lot_required", "tied": tied, "fassung": fassung, "trail": d.trail})
        }
    })
}

/// `nachfolge succession-order`: for every list, the order in which its candidates would succeed at `at`
/// (the "Nachrückerliste"), with the reasons others are passed over. Returns the one JSON object the command
/// prints, or an error message naming the field (exit 2).
pub fn succession_order(election: &[u8], at: DateTime<Utc>) -> Result<Value, String> {
    let snapshot = parse_snapshot(election).map_err(|e| format!("election: {e}"))?;
    let body = Body::from_snapshot(snapshot).map_err(|e| format!("election: {e}"))?;
    serde_json::to_value(body.succession_order(at)).map_err(|e| e.to_string())
}

/// `nachfolge schema`: every JSON Schema, keyed by message type.
pub fn schema() -> Value {
    let map: serde_json::Map<String, Value> =
        crate::messages::schemas().into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    Value::Object(map)
}
