//! The public message contract: the `data` of every inbound and outbound event (docs/contract.md), and the
//! CloudEvents 1.0 envelope. JSON Schemas are generated from these types (`nachfolge schema`).

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::{from_value, BodyId, CandidateId, CaseId, Fact, Snapshot, ValidationError};
use crate::trail::TrailStep;

// ---------------------------------------------------------------------------------------------------------
// Envelope

/// A CloudEvents 1.0 event in structured JSON mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CloudEvent {
    pub specversion: String,
    pub id: String,
    pub source: String,
    #[serde(rename = "type")]
    pub ty: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<DateTime<FixedOffset>>,
    /// The body (council) id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub datacontenttype: Option<String>,
    #[serde(default)]
    pub data: Value,
}

/// The `source` of every event the worker publishes.
pub const SOURCE: &str = "urn:nachfolge:worker";

impl CloudEvent {
    pub fn new(id: String, ty: &str, subject: &str, time: DateTime<Utc>, data: Value) -> Self {
        CloudEvent {
            specversion: "1.0".into(),
            id,
            source: SOURCE.into(),
            ty: ty.into(),
            time: Some(time.fixed_offset()),
            subject: Some(subject.into()),
            datacontenttype: Some("application/json".into()),
            data,
        }
    }
}

mod events;
mod inbound;

pub use events::*;
pub use inbound::*;

// ---------------------------------------------------------------------------------------------------------
// Event types and schemas

/// An outbound event's payload, tied to its CloudEvents `type`.
pub trait Event: Serialize {
    /// The event type, e.g. `succession.determined` (routing key on `nachfolge.events`).
    const TYPE: &'static str;
}

macro_rules! events {
    ($($payload:ty => $ty:literal,)*) => {
        $(impl Event for $payload { const TYPE: &'static str = $ty; })*
        /// The JSON Schemas of the outbound events, by type.
        fn event_schemas() -> Vec<(&'static str, Value)> {
            vec![$((<$payload as Event>::TYPE, schema::<$payload>()),)*]
        }
    };
}

events! {
    BodyRegistered => "body.registered",
    SuccessionDetermined => "succession.determined",
    SuccessionProposed => "succession.proposed",
    ConfirmationRejected => "confirmation.rejected",
    SeatLeftVacant => "seat.left_vacant",
    LotRequested => "lot.requested",
    SuccessorNotified => "successor.notified",
    NotificationFailed => "notification.failed",
    DeadlineSet => "deadline.set",
    ServiceRejected => "service.rejected",
    DeclarationRecorded => "declaration.recorded",
    DeclarationRejected => "declaration.rejected",
    DeclarationHeld => "declaration.held",
    CaseReviewRequired => "case.review_required",
    MembershipChanged => "membership.changed",
    AnnouncementIssued => "announcement.issued",
    ObjectionPeriodEnded => "objection_period.ended",
    MessageRejected => "message.rejected",
}

fn schema<T: JsonSchema>() -> Value {
    // a generated schema is a JSON object by construction: failing here is a bug, not bad input
    serde_json::to_value(schemars::schema_for!(T)).expect("a generated JSON Schema serialises")
}

/// The JSON Schemas of the snapshot and of every inbound and outbound message, by name.
pub fn schemas() -> Vec<(&'static str, Value)> {
    let mut all = vec![
        ("cloudevent", schema::<CloudEvent>()),
        ("election.snapshot", schema::<Snapshot>()),
        ("election.registered", schema::<Snapshot>()),
        ("candidate.fact_recorded", schema::<FactRecorded>()),
        ("vacancy.reported", schema::<VacancyReported>()),
        ("notification.served", schema::<NotificationServed>()),
        ("declaration.received", schema::<DeclarationReceived>()),
        ("bar.cured", schema::<BarCuredReceived>()),
        ("lot.drawn", schema::<LotDrawn>()),
        ("review.decided", schema::<ReviewDecided>()),
        ("determination.confirmed", schema::<DeterminationConfirmed>()),
    ];
    all.extend(event_schemas());
    all
}
