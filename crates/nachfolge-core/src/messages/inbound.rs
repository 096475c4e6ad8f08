//! Inbound commands: the `data` of every message the worker consumes, parsed and checked at the edge.

use super::*;

pub use crate::model::DepartureReason;

/// `vacancy.reported`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VacancyReported {
    pub body: BodyId,
    /// The departed member's candidate id.
    pub member: CandidateId,
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
    pub body: BodyId,
    pub candidate: CandidateId,
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
    pub body: BodyId,
    pub case: CaseId,
    /// The person served (Zustellungsempfänger): a candidate id.
    pub candidate: CandidateId,
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
    pub body: BodyId,
    pub case: CaseId,
    pub candidate: CandidateId,
    pub kind: DeclarationKind,
    /// When the declaration reached the Wahlleiter (Eingang).
    pub received_at: DateTime<FixedOffset>,
}

/// `bar.cured`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BarCuredReceived {
    pub body: BodyId,
    pub case: CaseId,
    pub candidate: CandidateId,
    pub proven_at: DateTime<FixedOffset>,
}

/// `lot.drawn`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LotDrawn {
    pub body: BodyId,
    pub case: CaseId,
    pub winner: CandidateId,
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
    pub body: BodyId,
    pub case: CaseId,
    pub outcome: ReviewOutcome,
    /// The successor the decision installs; required with `amended`, refused otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successor: Option<CandidateId>,
    /// When the decision was taken (the announcement names this day; a change it causes is dated at
    /// `final_on`, not here).
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
    /// With `final: true`, required: the day the decision became unanfechtbar / rechtskräftig (e.g. the day
    /// after the Klage period ended unused, or the day the judgment became final). Every change the decision
    /// causes is dated at the start of this day (Europe/Berlin), and the texts name it (Hessen § 34 Abs. 5 KWG:
    /// the seat is kept "bis … rechtskräftig entschieden ist"; docs/legal.md, "Review decisions take effect when
    /// final"). Not before the decision's day, not after today; refused with `final: false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_on: Option<NaiveDate>,
}

/// `determination.confirmed`: the returning officer determines the successor the worker proposed
/// (`succession.proposed`) for round `round` of the case (bodies with `determination: confirm`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeterminationConfirmed {
    pub body: BodyId,
    pub case: CaseId,
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
