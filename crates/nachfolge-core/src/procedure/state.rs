//! The state of a council's succession cases: the aggregate ([`Council`]), one case through its rounds,
//! the offer of a round, what a case announced and which reviews it saw.

use super::*;

/// An offer to a successor (one round) that is not settled yet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Offer {
    pub successor: CandidateId,
    pub list: String,
    pub determined_at: DateTime<Utc>,
    /// Hinderungsgrund / Unvereinbarkeit recorded at the determination.
    pub barred: bool,
    pub notified_at: Option<DateTime<Utc>>,
    pub notification_failed: bool,
    pub deadline: Option<Deadline>,
    pub accepted_at: Option<DateTime<Utc>>,
    pub proven_at: Option<DateTime<Utc>>,
    /// Hessen: when membership began (with the determination).
    pub member_since: Option<DateTime<Utc>>,
    /// The determination's trail, for the announcement issued later.
    #[serde(default)]
    pub trail: Vec<TrailStep>,
    /// Declarations and proofs held while no service date is known (decided on `notification.served`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<HeldDeclaration>,
}

/// A declaration or proof held until the service date is known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HeldDeclaration {
    /// `accept`, `refuse`, `accept_with_reservation` or `bar_cured`
    pub kind: String,
    pub received_at: DateTime<Utc>,
}

/// A deemed effect applied at the end of a round's period, kept so that a timely declaration entered later
/// can correct it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeemedRecord {
    pub round: u32,
    /// `deemed_acceptance`, `deemed_refusal`, `deemed_not_acquired` or `mandate_lost` (`lapse::Lapse`)
    pub kind: String,
    /// The offer as it stood when the period ended.
    pub offer: Offer,
    /// A timely declaration corrected it, or it was referred to the returning officer.
    #[serde(default)]
    pub settled: bool,
}

/// A successor the rules named, waiting for the returning officer's determination (`determination: confirm`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    pub successor: CandidateId,
    pub list: String,
    pub barred: bool,
    pub proposed_at: DateTime<Utc>,
    #[serde(default)]
    pub trail: Vec<TrailStep>,
}

/// Where a case stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum CaseState {
    /// Majority election tie: waiting for `lot.drawn` (§ 34 Abs. 1a KWG).
    AwaitingLot { tied: Vec<CandidateId> },
    /// Waiting for the returning officer to confirm the proposed successor (`determination.confirmed`).
    Proposed(Proposal),
    /// NRW: waiting for the declaration; Hessen: barred member waiting for proof.
    Offered(Offer),
    /// Closed: the successor is a member.
    Filled { successor: CandidateId, since: DateTime<Utc>, basis: MembershipBasis },
    /// Closed: the seat stays vacant.
    Vacant { reason: VacancyReason },
}

/// A succession case: one vacancy, through all its rounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub id: CaseId,
    pub departed: CandidateId,
    pub list: String,
    pub reason: DepartureReason,
    /// `vacancy.reported`'s `list_banned` (with `party_banned` only, § 46 Abs. 2 KWahlG NRW).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_banned: Option<bool>,
    pub effective_at: DateTime<Utc>,
    pub departed_via: Option<SeatVia>,
    pub opened_at: DateTime<Utc>,
    pub round: u32,
    pub state: CaseState,
    /// Candidates who refused (or were deemed to refuse) in this case: a refusal cannot be withdrawn.
    #[serde(default)]
    pub refused: Vec<CandidateId>,
    /// Announcements with their objection periods, and review decisions.
    #[serde(default)]
    pub history: CaseHistory,
}

/// What a case has announced and which reviews it has seen.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CaseHistory {
    #[serde(default)]
    pub announcements: Vec<AnnouncementRecord>,
    #[serde(default)]
    pub reviews: Vec<ReviewRecord>,
    /// The lots drawn in the case (§ 34 Abs. 1a KWG), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lots: Vec<LotRecord>,
    /// The round whose successor a review installed (`amended`): NRW announces no second time when his
    /// membership starts — the review's announcement already named him.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub installed_by_review: Option<u32>,
    /// Deemed effects applied at the end of a period.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deemed: Vec<DeemedRecord>,
    /// Every certificate of service received for the case, applied or not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<ServiceRecord>,
    /// The successor already held a seat and moved into this one (Baden-Württemberg, § 31 Abs. 2 Satz 2 GemO):
    /// the seat he gave up and the case opened for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_move: Option<SeatMove>,
}

/// A member who moved into the case's seat from the seat he held (§ 31 Abs. 2 Satz 2 GemO: the holder of a
/// weiterer Sitz moves up into his Wohnbezirk's seat; docs/legal.md, "Baden-Württemberg: weitere Sitze").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatMove {
    pub member: CandidateId,
    /// How he held the seat he gave up (`additional`).
    pub from: SeatVia,
    /// The case opened for the seat he gave up (reason `moved_up`).
    pub follow_on: CaseId,
}

/// One certificate of service (`notification.served`) as the case received it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServiceRecord {
    /// The person served.
    pub candidate: CandidateId,
    /// The round the certificate names (the case's current round if it names none).
    pub round: u32,
    pub method: ServiceMethod,
    pub on: NaiveDate,
    pub recorded_at: DateTime<Utc>,
    /// Why it was not applied; `None`: applied, or without effect because the successor is already a member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejected: Option<ServiceRejection>,
}

/// A lot drawn by the returning officer (`lot.drawn`, § 34 Abs. 1a KWG).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LotRecord {
    pub round: u32,
    pub winner: CandidateId,
    pub drawn_by: String,
    pub drawn_at: DateTime<FixedOffset>,
}

/// One announcement of a case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnnouncementRecord {
    /// 1, 2, … within the case.
    pub n: u32,
    pub kind: String,
    pub issued_at: DateTime<Utc>,
    /// The objection period, if an objection lies against what it announces (not for a review decision,
    /// which is open to court action only).
    pub objection: Option<ObjectionPeriod>,
    /// `objection_period.ended` was published.
    #[serde(default)]
    pub ended: bool,
    /// A review annulled or amended the determination: the period no longer matters.
    #[serde(default)]
    pub superseded: bool,
}

/// One review decision (`review.decided`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewRecord {
    pub outcome: ReviewOutcome,
    pub decided_at: DateTime<Utc>,
    pub decided_by: Option<String>,
    /// The successor (or pending successor) the decision was about; `None` for a vacancy.
    pub previous: Option<CandidateId>,
    /// The successor an `amended` decision installed.
    pub successor: Option<CandidateId>,
    pub citation: String,
    pub recorded_at: DateTime<Utc>,
    /// Unappealable (rechtskräftig); records stored before issue #12 were all final.
    #[serde(default = "final_by_default", rename = "final")]
    pub is_final: bool,
    /// The day it became unanfechtbar / rechtskräftig (`review.decided` `final_on`); `None` for a decision not yet
    /// final, and for records stored before it was asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_on: Option<NaiveDate>,
}

fn final_by_default() -> bool {
    true
}

/// The council aggregate: the body's snapshot and its succession cases, loaded and stored as one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Council {
    /// The validated snapshot, as facts and seats change.
    #[serde(rename = "snapshot")]
    pub body: Body,
    /// Succession cases, open and closed, by case id.
    #[serde(default)]
    pub cases: BTreeMap<CaseId, Case>,
    /// Sequence for case ids.
    #[serde(default)]
    pub case_seq: u32,
}

impl Council {
    /// A new council with no cases.
    pub fn new(body: Body) -> Council {
        Council { body, cases: BTreeMap::new(), case_seq: 0 }
    }
    /// Is any succession case still open?
    pub fn has_open_case(&self) -> bool {
        self.cases.values().any(|c| !c.is_closed())
    }
    /// The Nachrückerliste of every list at `at`, as a determination then would see it: the pending successors
    /// of the council's open cases are passed over (`pending_successor`).
    pub fn succession_order(&self, at: DateTime<Utc>) -> crate::rules::SuccessionOrder {
        let pending: Vec<&str> = self.pending_successors().map(|(candidate, _)| candidate).collect();
        self.body.succession_order_with_pending(at, &pending)
    }
    /// Candidates who are the pending successor of an open case (offered, not yet a member), with the case.
    pub fn pending_successors(&self) -> impl Iterator<Item = (&str, &str)> {
        pending_successors(&self.cases)
    }
}

/// A council is its body plus the cases: every read of the snapshot goes straight through.
impl std::ops::Deref for Council {
    type Target = Body;
    fn deref(&self) -> &Body {
        &self.body
    }
}

impl std::ops::DerefMut for Council {
    fn deref_mut(&mut self) -> &mut Body {
        &mut self.body
    }
}

pub(super) fn pending_successors(cases: &BTreeMap<CaseId, Case>) -> impl Iterator<Item = (&str, &str)> {
    cases.values().filter_map(|c| c.pending_successor().map(|s| (s, c.id.as_str())))
}

impl Case {
    pub fn is_closed(&self) -> bool {
        matches!(self.state, CaseState::Filled { .. } | CaseState::Vacant { .. })
    }
    /// The successor proposed, or offered the seat and not settled yet (NRW: not yet a member; Hessen: a
    /// barred member waiting for the proof).
    pub fn pending_successor(&self) -> Option<&str> {
        match &self.state {
            CaseState::Offered(o) => Some(&o.successor),
            CaseState::Proposed(p) => Some(&p.successor),
            _ => None,
        }
    }
    /// The current successor, if any.
    pub fn successor(&self) -> Option<&str> {
        match &self.state {
            CaseState::Offered(o) => Some(&o.successor),
            CaseState::Proposed(p) => Some(&p.successor),
            CaseState::Filled { successor, .. } => Some(successor),
            _ => None,
        }
    }
    /// The [`Case::state_name`]s of an open case.
    pub const OPEN_STATES: &'static [&'static str] = &["awaiting_lot", "proposed", "offered"];

    /// A short name of the state, for listings and metrics.
    pub fn state_name(&self) -> &'static str {
        match &self.state {
            CaseState::AwaitingLot { .. } => "awaiting_lot",
            CaseState::Proposed(_) => "proposed",
            CaseState::Offered(_) => "offered",
            CaseState::Filled { .. } => "filled",
            CaseState::Vacant { .. } => "vacant",
        }
    }
}
