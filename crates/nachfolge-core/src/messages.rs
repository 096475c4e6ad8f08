//! The public message contract: the `data` of every inbound and outbound event (docs/contract.md), and the
//! CloudEvents 1.0 envelope. JSON Schemas are generated from these types (`nachfolge schema`).

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::{from_value, Fact, Snapshot, ValidationError};
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

// ---------------------------------------------------------------------------------------------------------
// Inbound

pub use crate::model::DepartureReason;

/// `vacancy.reported`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VacancyReported {
    pub body: String,
    /// The departed member's candidate id.
    pub member: String,
    pub reason: DepartureReason,
    /// Zeitpunkt des Ausscheidens.
    pub effective_at: DateTime<FixedOffset>,
    /// Required with `party_banned`, refused otherwise: `true` if the member was elected on the list of the
    /// banned party or organisation itself — the seat stays vacant and the statutory size falls (§ 46 Abs. 2
    /// Satz 1 KWahlG NRW); `false` if he was elected for a party or voter group that is not banned — his
    /// list's next candidate succeeds under § 45 (§ 46 Abs. 2 Satz 2). See docs/legal.md.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_banned: Option<bool>,
}

/// `candidate.fact_recorded`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FactRecorded {
    pub body: String,
    pub candidate: String,
    pub fact: Fact,
}

/// How the notification was served (Zustellung).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ServiceMethod {
    /// Postzustellungsurkunde
    Certificate,
    /// Einschreiben mit Rückschein
    ReturnReceipt,
    /// Empfangsbekenntnis
    Acknowledgement,
    /// Einschreiben durch Übergabe: `on` is the day of posting; the service fiction applies (§ 4 Abs. 2
    /// Satz 2 LZG NRW / HVwZG)
    RegisteredLetterPosted,
    /// Einwurf-Einschreiben: no formal service (§ 4 Abs. 1 LZG NRW / HVwZG name only the Übergabe-Einschreiben
    /// and the Einschreiben mit Rückschein; BVerwG 9 C 7/00). Recorded and answered with `service.rejected`
    /// (`no_formal_service`); no period starts.
    RegisteredLetterMailbox,
    /// The day the document demonstrably reached the person after a service that cannot be proven or broke
    /// a mandatory rule (Heilung, § 8 LZG NRW / HVwZG): served on that day.
    ActualReceipt,
}

/// `notification.served`: the certificate of service (Zustellungsnachweis) of a round's notification. It is
/// applied only to the person it names, in the round it names: a certificate for anyone other than the
/// pending successor of the current round, or for another round, is recorded and answered with
/// `service.rejected` (docs/contract.md, "Service").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotificationServed {
    pub body: String,
    pub case: String,
    /// The person served (Zustellungsempfänger): a candidate id.
    pub candidate: String,
    /// The round whose notification was served; without it, the case's current round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    pub method: ServiceMethod,
    pub on: NaiveDate,
}

/// Kind of a declaration (Erklärung) of the Listennachfolger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeclarationKind {
    Accept,
    Refuse,
    /// Erklärung unter Vorbehalt: counts as refusal (§ 45 Abs. 6 Satz 5 KWahlG NRW)
    AcceptWithReservation,
}

/// `declaration.received`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeclarationReceived {
    pub body: String,
    pub case: String,
    pub candidate: String,
    pub kind: DeclarationKind,
    /// When the declaration reached the Wahlleiter (Eingang).
    pub received_at: DateTime<FixedOffset>,
}

/// `bar.cured`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BarCuredReceived {
    pub body: String,
    pub case: String,
    pub candidate: String,
    pub proven_at: DateTime<FixedOffset>,
}

/// `lot.drawn`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LotDrawn {
    pub body: String,
    pub case: String,
    pub winner: String,
    pub drawn_at: DateTime<FixedOffset>,
    pub drawn_by: String,
}

/// Outcome of an objection or election review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewOutcome {
    Confirmed,
    Annulled,
    Amended,
}

/// `review.decided`: a decision on an objection or in the election review (Wahlprüfung) against a
/// determination — § 45 Abs. 6 Satz 8 i. V. m. §§ 39–41 KWahlG NRW; § 34 Abs. 4–6 i. V. m. §§ 25–27 KWG.
/// Only a `final` (unappealable, rechtskräftig) decision changes memberships and seats (Hessen § 34 Abs. 5;
/// NRW § 40 Abs. 3 applied by § 45 Abs. 6 Satz 8); one that can still be challenged is recorded and announced.
/// There is no "objection filed" message: until a final decision arrives the determination stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewDecided {
    pub body: String,
    pub case: String,
    pub outcome: ReviewOutcome,
    /// The successor the decision installs; required with `amended`, refused otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successor: Option<String>,
    /// When the decision was taken; every change it causes is dated here (Hessen § 34 Abs. 6: nothing earlier
    /// is rolled back).
    pub decided_at: DateTime<FixedOffset>,
    /// Who decided (text). `council`: the council's own determination (Hessen § 34 Abs. 4 Satz 2/3 KWG);
    /// refused in NRW, where the returning officer decides in place of the council (§ 45 Abs. 6 Satz 8).
    /// `court`: a court's final decision, carried out — its announcement offers no further Klage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// Whether the decision is unappealable / rechtskräftig. `false`: recorded and announced, no change of
    /// membership or seat; a later `review.decided` with `final: true` applies it.
    #[serde(rename = "final")]
    pub is_final: bool,
}

/// `determination.confirmed`: the returning officer determines the successor the worker proposed
/// (`succession.proposed`) for round `round` of the case (bodies with `determination: confirm`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeterminationConfirmed {
    pub body: String,
    pub case: String,
    /// The round of the proposal confirmed.
    pub round: u32,
    /// Who confirmed (the returning officer or his deputy, as text).
    pub confirmed_by: String,
    /// When the determination was made; it is the `determined_at` of the successor.
    pub confirmed_at: DateTime<FixedOffset>,
}

/// An inbound message, parsed and typed.
#[derive(Debug, Clone, PartialEq)]
pub enum Inbound {
    ElectionRegistered(Box<Snapshot>),
    FactRecorded(FactRecorded),
    VacancyReported(VacancyReported),
    NotificationServed(NotificationServed),
    DeclarationReceived(DeclarationReceived),
    BarCured(BarCuredReceived),
    LotDrawn(LotDrawn),
    ReviewDecided(ReviewDecided),
    DeterminationConfirmed(DeterminationConfirmed),
}

/// Why an inbound message could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("unknown event type {0:?}")]
    UnknownType(String),
    #[error("invalid data: {0}")]
    Invalid(#[from] ValidationError),
}

/// Every inbound type name.
pub const INBOUND_TYPES: &[&str] = &[
    "election.registered",
    "candidate.fact_recorded",
    "vacancy.reported",
    "notification.served",
    "declaration.received",
    "bar.cured",
    "lot.drawn",
    "review.decided",
    "determination.confirmed",
];

impl Inbound {
    /// Parse the `data` of an event of type `ty`.
    pub fn parse(ty: &str, data: Value) -> Result<Inbound, ParseError> {
        Ok(match ty {
            "election.registered" => Inbound::ElectionRegistered(Box::new(from_value("data", data)?)),
            "candidate.fact_recorded" => Inbound::FactRecorded(from_value("data", data)?),
            "vacancy.reported" => Inbound::VacancyReported(from_value("data", data)?),
            "notification.served" => Inbound::NotificationServed(from_value("data", data)?),
            "declaration.received" => Inbound::DeclarationReceived(from_value("data", data)?),
            "bar.cured" => Inbound::BarCured(from_value("data", data)?),
            "lot.drawn" => Inbound::LotDrawn(from_value("data", data)?),
            "review.decided" => Inbound::ReviewDecided(from_value("data", data)?),
            "determination.confirmed" => Inbound::DeterminationConfirmed(from_value("data", data)?),
            other => return Err(ParseError::UnknownType(other.to_owned())),
        })
    }

    /// The body (council) the message is for.
    pub fn body_id(&self) -> &str {
        match self {
            Inbound::ElectionRegistered(s) => &s.body.id,
            Inbound::FactRecorded(m) => &m.body,
            Inbound::VacancyReported(m) => &m.body,
            Inbound::NotificationServed(m) => &m.body,
            Inbound::DeclarationReceived(m) => &m.body,
            Inbound::BarCured(m) => &m.body,
            Inbound::LotDrawn(m) => &m.body,
            Inbound::ReviewDecided(m) => &m.body,
            Inbound::DeterminationConfirmed(m) => &m.body,
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Outbound

/// `body.registered`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BodyRegistered {
    pub body: String,
    pub lists: usize,
    pub candidates: usize,
    pub statutory_size: u32,
}

/// A person as events name them.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct PersonRef {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
}

/// The vacancy a case is about.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct VacancyRef {
    pub member: String,
    pub reason: DepartureReason,
    pub effective_at: DateTime<FixedOffset>,
}

/// `succession.determined`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SuccessionDetermined {
    pub body: String,
    pub case: String,
    pub vacancy: VacancyRef,
    pub successor: PersonRef,
    pub round: u32,
    /// A bar to membership is recorded: the successor must prove its end within one week of service.
    pub barred: bool,
    pub determined_at: DateTime<FixedOffset>,
    /// Who determined the successor, if the returning officer confirmed a proposal (`determination: confirm`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmed_by: Option<String>,
    pub trail: Vec<TrailStep>,
}

/// `succession.proposed`: the successor the rules name, prepared for the returning officer's determination
/// (bodies with `determination: confirm`); nothing takes effect until `determination.confirmed`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SuccessionProposed {
    pub body: String,
    pub case: String,
    pub vacancy: VacancyRef,
    pub successor: PersonRef,
    pub round: u32,
    /// A bar to membership is recorded: the successor will have to prove its end within one week of service.
    pub barred: bool,
    pub trail: Vec<TrailStep>,
}

/// Why a confirmation is not applied (`confirmation.rejected`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConfirmationRejection {
    /// The confirmation names a round other than the case's current round (a newer proposal replaced it).
    StaleRound,
    /// The case's current round has no proposal waiting (already confirmed, or the body determines
    /// automatically).
    NotProposed,
}

/// `confirmation.rejected`: a `determination.confirmed` that is not applied; recorded, like a stale
/// declaration.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ConfirmationRejected {
    pub body: String,
    pub case: String,
    pub round: u32,
    pub confirmed_by: String,
    pub reason: ConfirmationRejection,
}

/// `seat.left_vacant`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SeatLeftVacant {
    pub body: String,
    pub case: String,
    pub vacancy: VacancyRef,
    pub reason: crate::rules::VacancyReason,
    pub statutory_size: u32,
    pub round: u32,
    pub trail: Vec<TrailStep>,
    /// The council as an OParl 1.1 `Organization`, with `memberCount` = the new statutory size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization: Option<OparlOrganization>,
}

/// `lot.requested`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct LotRequested {
    pub body: String,
    pub case: String,
    pub tied: Vec<String>,
    pub round: u32,
    pub trail: Vec<TrailStep>,
}

/// `successor.notified`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SuccessorNotified {
    pub body: String,
    pub case: String,
    pub candidate: String,
    pub round: u32,
    pub message_id: String,
    pub sent_at: DateTime<FixedOffset>,
}

/// `notification.failed`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct NotificationFailed {
    pub body: String,
    pub case: String,
    pub candidate: String,
    pub round: u32,
    pub reason: String,
}

/// `deadline.set`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DeadlineSet {
    pub body: String,
    pub case: String,
    pub candidate: String,
    pub round: u32,
    pub served_on: NaiveDate,
    pub last_day: NaiveDate,
    pub ends_at: DateTime<FixedOffset>,
    pub trail: Vec<TrailStep>,
}

/// `declaration.recorded`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DeclarationRecorded {
    pub body: String,
    pub case: String,
    pub candidate: String,
    /// `accept`, `refuse`, `accept_with_reservation`, `bar_cured`, or `deemed_refusal`
    pub kind: String,
    pub received_at: DateTime<FixedOffset>,
}

/// `declaration.rejected`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DeclarationRejected {
    pub body: String,
    pub case: String,
    pub candidate: String,
    /// `before_notification`, `after_deadline`, `not_pending_successor`, `refusal_irrevocable`,
    /// `case_closed`, `already_accepted`, `no_acceptance_procedure`, `not_barred`
    pub reason: String,
}

/// Why a certificate of service is not applied (`service.rejected`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ServiceRejection {
    /// The person served is not the pending successor of the case's current round (e.g. a late
    /// certificate for a candidate who already refused).
    NotPendingSuccessor,
    /// The certificate names a round other than the case's current round.
    RoundMismatch,
    /// The method is no formal service (an Einwurf-Einschreiben): no period starts.
    NoFormalService,
}

/// `service.rejected`: a certificate of service that is not applied to the current successor; it is
/// recorded in the case history (a normal part of the file, not bad input).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ServiceRejected {
    pub body: String,
    pub case: String,
    /// The person the certificate names.
    pub candidate: String,
    /// The round the certificate names, or the case's current round if it names none.
    pub round: u32,
    pub reason: ServiceRejection,
}

/// `declaration.held`: a declaration or proof received while no service date is known, later than the end of
/// the week counted from the day the notification was sent — whether it was in time is decided when
/// `notification.served` arrives (docs/legal.md, "Declarations while no service date is known").
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DeclarationHeld {
    pub body: String,
    pub case: String,
    pub candidate: String,
    pub round: u32,
    /// `accept`, `refuse`, `accept_with_reservation` or `bar_cured`
    pub kind: String,
    pub received_at: DateTime<FixedOffset>,
    /// `service_date_unknown`
    pub reason: String,
}

/// Why a case needs the returning officer's review (`case.review_required`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewRequiredReason {
    /// A declaration or proof that reached the returning officer in time was entered after a deemed effect
    /// (deemed acceptance, deemed refusal, deemed non-acquisition) and a later round has been determined since.
    TimelyDeclarationAfterLaterRound,
    /// A timely declaration was entered after a deemed acceptance, but the successor no longer holds the seat.
    MembershipChangedSince,
}

/// `case.review_required`: the worker cannot correct the record by itself; it changed no membership and asks
/// the returning officer to decide (e.g. through `review.decided`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CaseReviewRequired {
    pub body: String,
    pub case: String,
    /// The rounds concerned: from the round of the deemed effect to the case's current round.
    pub rounds: Vec<u32>,
    pub reason: ReviewRequiredReason,
    /// The declaration or proof that caused it.
    pub candidate: String,
    pub kind: String,
    pub received_at: DateTime<FixedOffset>,
}

/// What changed about a membership.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MembershipChange {
    Joined,
    Updated,
    Left,
}

/// On what basis a membership changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MembershipBasis {
    Acceptance,
    DeemedAcceptance,
    Determination,
    BarCured,
    DeemedNotAcquired,
    Vacancy,
    Review,
    /// A record corrected after a timely declaration was entered late (docs/legal.md, "A declaration that
    /// arrived in time always wins").
    Correction,
}

/// OParl 1.1 `Membership` (https://schema.oparl.org/1.1/Membership).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OparlMembership {
    pub id: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub person: String,
    pub organization: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    pub voting_right: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_date: Option<NaiveDate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_date: Option<NaiveDate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_behalf_of: Option<String>,
    pub created: DateTime<FixedOffset>,
    pub modified: DateTime<FixedOffset>,
}

/// OParl 1.1 `Organization` (https://schema.oparl.org/1.1/Organization): the council itself, as membership
/// and vacancy events carry it. `memberCount` is an extension (OParl 1.1 has no such property): the statutory
/// size (gesetzliche Mitgliederzahl), reduced for every seat left vacant. See docs/oparl.md.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OparlOrganization {
    pub id: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub name: String,
    /// "Parlament": the recommended OParl classification of a municipal council.
    pub classification: String,
    pub organization_type: String,
    pub member_count: u32,
    pub created: DateTime<FixedOffset>,
    pub modified: DateTime<FixedOffset>,
}

/// `membership.changed`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct MembershipChanged {
    pub body: String,
    pub case: String,
    pub change: MembershipChange,
    pub person: PersonRef,
    pub list: String,
    pub effective_at: DateTime<FixedOffset>,
    pub basis: MembershipBasis,
    pub voting_right: bool,
    pub membership: OparlMembership,
    /// The council with its current statutory size (`memberCount`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization: Option<OparlOrganization>,
}

/// `announcement.issued`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct AnnouncementIssued {
    pub body: String,
    pub case: String,
    /// `successor`, `vacancy`, `not_acquired`, `review`, `correction`
    pub kind: String,
    pub title: String,
    /// Formal German text of the Bekanntmachung.
    pub text: String,
    pub legal_basis: String,
    pub objection_period: String,
    pub issued_at: DateTime<FixedOffset>,
    /// The structured facts the text is made of, so a gazette can lay it out itself.
    pub facts: Value,
}

/// `objection_period.ended`: the objection period of an announcement has run out (NRW: one month, § 39 Abs. 1
/// KWahlG NRW; Hessen: two weeks, § 25 Abs. 1 KWG). The determination stands unless a review is pending; the
/// worker is not told of objections, only of `review.decided`: `review_pending` is `true` while the case's
/// latest review decision is not final. An announcement whose determination a review annulled or amended
/// never reports this.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ObjectionPeriodEnded {
    pub body: String,
    pub case: String,
    /// Number of the announcement within the case (1, 2, …).
    pub announcement: u32,
    /// Kind of the announcement: `successor`, `vacancy`, `not_acquired`.
    pub kind: String,
    pub issued_at: DateTime<FixedOffset>,
    /// The last day of the period (calendar day, Europe/Berlin).
    pub last_day: NaiveDate,
    /// The instant the period ended: the day after `last_day`, 00:00 local time.
    pub ended_at: DateTime<FixedOffset>,
    pub review_pending: bool,
    pub trail: Vec<TrailStep>,
}

/// `message.rejected`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct MessageRejected {
    pub message_id: Option<String>,
    #[serde(rename = "type")]
    pub ty: Option<String>,
    pub reason: String,
}

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
