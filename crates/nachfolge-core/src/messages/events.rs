//! Outbound events: the `data` of every event the worker publishes (their types: [`super::Event`]).

use super::*;

/// `body.registered`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BodyRegistered {
    pub body: BodyId,
    pub lists: usize,
    pub candidates: usize,
    pub statutory_size: u32,
}

/// A person as events name them.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct PersonRef {
    pub id: CandidateId,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
}

/// The vacancy a case is about.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct VacancyRef {
    pub member: CandidateId,
    pub reason: DepartureReason,
    pub effective_at: DateTime<FixedOffset>,
}

/// `succession.determined`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SuccessionDetermined {
    pub body: BodyId,
    pub case: CaseId,
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
    pub body: BodyId,
    pub case: CaseId,
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
    pub body: BodyId,
    pub case: CaseId,
    pub round: u32,
    pub confirmed_by: String,
    pub reason: ConfirmationRejection,
}

/// `seat.left_vacant`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SeatLeftVacant {
    pub body: BodyId,
    pub case: CaseId,
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
    pub body: BodyId,
    pub case: CaseId,
    pub tied: Vec<CandidateId>,
    pub round: u32,
    pub trail: Vec<TrailStep>,
}

/// `successor.notified`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SuccessorNotified {
    pub body: BodyId,
    pub case: CaseId,
    pub candidate: CandidateId,
    pub round: u32,
    pub message_id: String,
    pub sent_at: DateTime<FixedOffset>,
}

/// `notification.failed`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct NotificationFailed {
    pub body: BodyId,
    pub case: CaseId,
    pub candidate: CandidateId,
    pub round: u32,
    pub reason: String,
}

/// `deadline.set`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DeadlineSet {
    pub body: BodyId,
    pub case: CaseId,
    pub candidate: CandidateId,
    pub round: u32,
    pub served_on: NaiveDate,
    pub last_day: NaiveDate,
    pub ends_at: DateTime<FixedOffset>,
    pub trail: Vec<TrailStep>,
}

/// `declaration.recorded`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DeclarationRecorded {
    pub body: BodyId,
    pub case: CaseId,
    pub candidate: CandidateId,
    /// `accept`, `refuse`, `accept_with_reservation`, `bar_cured`, or `deemed_refusal`
    pub kind: String,
    pub received_at: DateTime<FixedOffset>,
}

/// `declaration.rejected`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DeclarationRejected {
    pub body: BodyId,
    pub case: CaseId,
    pub candidate: CandidateId,
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
    pub body: BodyId,
    pub case: CaseId,
    /// The person the certificate names.
    pub candidate: CandidateId,
    /// The round the certificate names, or the case's current round if it names none.
    pub round: u32,
    pub reason: ServiceRejection,
}

/// `declaration.held`: a declaration or proof received while no service date is known, later than the end of
/// the week counted from the day the notification was sent — whether it was in time is decided when
/// `notification.served` arrives (docs/legal.md, "Declarations while no service date is known").
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DeclarationHeld {
    pub body: BodyId,
    pub case: CaseId,
    pub candidate: CandidateId,
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
    pub body: BodyId,
    pub case: CaseId,
    /// The rounds concerned: from the round of the deemed effect to the case's current round.
    pub rounds: Vec<u32>,
    pub reason: ReviewRequiredReason,
    /// The declaration or proof that caused it.
    pub candidate: CandidateId,
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
    /// Sachsen-Anhalt: the mandate is lost at once because a Hinderungsgrund stood when the election was accepted
    /// (§ 42 Abs. 1 Nr. 3 KVG LSA, "Mandatsverlust"): `left` at the instant of the `joined`.
    BarAtAcceptance,
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
    pub body: BodyId,
    pub case: CaseId,
    pub change: MembershipChange,
    pub person: PersonRef,
    pub list: String,
    pub effective_at: DateTime<FixedOffset>,
    pub basis: MembershipBasis,
    pub voting_right: bool,
    pub membership: OparlMembership,
    /// Brandenburg (§ 51 Abs. 2 Satz 3 BbgKWahlG): a barred member who joined on the proof that he declared
    /// the end of his employment must prove its actual end by this day, else he loses the seat (§ 59 Abs. 1
    /// Nr. 6). Only on `joined` in a Land with such a period (docs/contract.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bar_end_proof: Option<BarEndProof>,
    /// The council with its current statutory size (`memberCount`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization: Option<OparlOrganization>,
}

/// The period to prove that a bar ended, after membership began (`membership.changed` `bar_end_proof`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BarEndProof {
    /// The last day of the period (calendar day, Europe/Berlin), after any extension.
    pub last_day: NaiveDate,
    /// The instant the period ends: the day after `last_day`, 00:00 local time.
    pub ends_at: DateTime<FixedOffset>,
    /// The rule, the computation and any extension.
    pub trail: Vec<TrailStep>,
}

/// `announcement.issued`
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct AnnouncementIssued {
    pub body: BodyId,
    pub case: CaseId,
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
    pub body: BodyId,
    pub case: CaseId,
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
