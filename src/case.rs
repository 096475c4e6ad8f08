//! The succession procedure as a pure state machine: `(body, command, now) → (body', effects)`.
//!
//! NRW (§ 45 Abs. 6 KWahlG NRW): determination → notification with the one-week acceptance request →
//! service → acceptance (membership, not before the departure), refusal or reservation (next round),
//! silence (deemed acceptance when the period ends); a barred successor must also prove the end of the
//! incompatibility within the week, else the election counts as refused (§ 69 Abs. 2, § 62 Nr. 5 KWahlO).
//!
//! Hessen (§ 34 Abs. 3 KWG i. V. m. § 23 KWG): the successor acquires membership with the determination;
//! a barred successor must prove the end of the bar within one week after service, else his membership is
//! deemed not acquired, retroactively, and the next successor is determined.
//!
//! No I/O and no clock reads happen here: the caller passes `now`, and gets [`Effect`]s back.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::deadline::{local_date, one_week_deadline, Deadline, ServiceBasis};
use crate::messages::*;
use crate::model::{Body, Candidate, Fact, Land, ListKind, Seat, SeatVia, Snapshot};
use crate::rules::{self, Outcome, Query, VacancyReason};
use crate::trail::{self, TrailStep, Verdict};

/// Settings of the procedure that a deployment chooses (documented configuration switches).
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// E-mail notification counts as served N days after sending; `None`: only `notification.served`.
    pub email_fiction_days: Option<u32>,
    /// The notification names a fixed end date (§ 31 Abs. 3 Satz 2 VwVfG NRW / HVwVfG): no extension.
    pub fixed_end_date: bool,
    /// NRW: announce at the determination instead of when membership starts (§ 45 Abs. 6 Satz 7).
    pub announce_at_determination: bool,
    /// Delay between the end of a period and acting on it (the timer's due time); the legal effect is
    /// dated at the end of the period. Declarations received before the end still count meanwhile.
    pub deadline_grace: chrono::Duration,
}

/// A command for one body.
#[derive(Debug, Clone)]
pub enum Command {
    Inbound(Inbound),
    /// The mail sender handed the notification to the SMTP server.
    NotificationSent {
        case: String,
        round: u32,
        message_id: String,
        sent_at: DateTime<Utc>,
    },
    /// No e-mail address, or a permanent SMTP failure.
    NotificationFailed {
        case: String,
        round: u32,
        reason: String,
    },
    /// A deadline timer fired. `round: 0` is a timer that is no round's deadline: an objection period
    /// (key `{case}#objection#{n}`); it reports every objection period of the case that has ended.
    DeadlineExpired {
        case: String,
        round: u32,
    },
    /// The objection period of the case's `n`th announcement ended (timer key `{case}#objection#{n}`).
    ObjectionPeriodEnded {
        case: String,
        n: u32,
    },
}

/// Why a command is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// Bad input: dead-letter it with this reason.
    #[error("{0}")]
    Invalid(String),
    /// Names a body, case or candidate not known (yet): retry for a while, then reject.
    #[error("{0}")]
    Unknown(String),
}

fn invalid(msg: impl Into<String>) -> Rejection {
    Rejection::Invalid(msg.into())
}

/// What the shell must do after committing the new state.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Publish an event of this type (outbox).
    Publish { event_type: &'static str, data: Value },
    /// Send an e-mail (mail outbox); the sender reports back with `NotificationSent` / `NotificationFailed`.
    Mail(MailRequest),
    /// Render the announcement text and publish `announcement.issued`.
    Announce(Announcement),
    /// (Re)schedule a durable timer; fires `Command::DeadlineExpired { case, round }`, or, for a key made by
    /// [`objection_timer_key`] (`round` 0), `Command::ObjectionPeriodEnded` (see [`timer_command`]).
    Schedule { key: String, due_at: DateTime<Utc>, case: String, round: u32 },
    /// Cancel a timer.
    Cancel { key: String },
}

/// An e-mail to render and send.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MailRequest {
    pub case: String,
    pub round: u32,
    pub candidate: String,
    pub to: Option<String>,
    pub reply_to: String,
    /// Template name under `templates/mail/` (`.txt` and `.html`).
    pub template: String,
    pub subject: String,
    pub context: Value,
}

/// A public announcement (Bekanntmachung) to render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Announcement {
    pub case: String,
    pub kind: String,
    pub title: String,
    pub legal_basis: String,
    pub objection_period: String,
    /// Template name under `templates/announcement/`.
    pub template: String,
    pub issued_at: DateTime<Utc>,
    pub context: Value,
}

/// The timer key of a case round's deadline.
pub fn timer_key(case: &str, round: u32) -> String {
    format!("{case}#{round}")
}

/// The timer key of the objection period of a case's `n`th announcement.
pub fn objection_timer_key(case: &str, n: u32) -> String {
    format!("{case}#objection#{n}")
}

/// The command a fired timer stands for, from its stored key, case and round: a key ending in
/// `#objection#{n}` is an objection period, anything else a round's deadline.
pub fn timer_command(key: &str, case: &str, round: u32) -> Command {
    let objection =
        key.strip_prefix(case).and_then(|rest| rest.strip_prefix("#objection#")).and_then(|n| n.parse::<u32>().ok());
    match objection {
        Some(n) => Command::ObjectionPeriodEnded { case: case.to_owned(), n },
        None => Command::DeadlineExpired { case: case.to_owned(), round },
    }
}

/// An offer to a successor (one round) that is not settled yet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Offer {
    pub successor: String,
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
}

/// Where a case stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum CaseState {
    /// Majority election tie: waiting for `lot.drawn` (§ 34 Abs. 1a KWG).
    AwaitingLot { tied: Vec<String> },
    /// NRW: waiting for the declaration; Hessen: barred member waiting for proof.
    Offered(Offer),
    /// Closed: the successor is a member.
    Filled { successor: String, since: DateTime<Utc>, basis: MembershipBasis },
    /// Closed: the seat stays vacant.
    Vacant { reason: VacancyReason },
}

/// A succession case: one vacancy, through all its rounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub id: String,
    pub departed: String,
    pub list: String,
    pub reason: DepartureReason,
    pub effective_at: DateTime<Utc>,
    pub departed_via: Option<SeatVia>,
    pub opened_at: DateTime<Utc>,
    pub round: u32,
    pub state: CaseState,
    /// Candidates who refused (or were deemed to refuse) in this case: a refusal cannot be withdrawn.
    #[serde(default)]
    pub refused: Vec<String>,
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
    /// The round whose successor a review installed (`amended`): NRW announces no second time when his
    /// membership starts — the review's announcement already named him.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub installed_by_review: Option<u32>,
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
    pub previous: Option<String>,
    /// The successor an `amended` decision installed.
    pub successor: Option<String>,
    pub citation: String,
    pub recorded_at: DateTime<Utc>,
}

/// An objection period (Einspruchsfrist) after a public announcement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectionPeriod {
    pub last_day: NaiveDate,
    /// The instant the period ends: the day after `last_day`, 00:00 Europe/Berlin.
    pub ends_at: DateTime<Utc>,
    pub trail: Vec<TrailStep>,
}

/// The objection period of an announcement issued at `issued_at` (§§ 187 Abs. 1, 188 Abs. 2 and 3 BGB): the
/// day of the announcement is not counted; NRW: one month (§ 45 Abs. 6 Satz 8 i. V. m. § 39 Abs. 1 KWahlG
/// NRW) — the period ends with the day of the next month that has the announcement day's number, or the
/// month's last day if it has no such day (31 Jan → 28/29 Feb); Hessen: two weeks (§ 34 Abs. 4 Satz 1
/// i. V. m. § 25 Abs. 1 KWG) — the same weekday two weeks later. It ends at 24:00 Europe/Berlin.
/// **[decision]** Not extended over Saturdays, Sundays or holidays: election periods are fixed (see
/// docs/legal.md).
pub fn objection_period(land: Land, issued_at: DateTime<Utc>) -> ObjectionPeriod {
    let day = local_date(issued_at);
    let (last_day, mut trail) = match land {
        Land::Nw => {
            let last = add_months_bgb(day, 1);
            (
                last,
                vec![TrailStep::new(
                    None,
                    Verdict::Noted,
                    "one_month_after_announcement",
                    "§ 45 Abs. 6 Satz 8 i. V. m. § 39 Abs. 1 KWahlG NRW",
                )],
            )
        }
        Land::He => (
            day + chrono::Duration::days(14),
            vec![TrailStep::new(
                None,
                Verdict::Noted,
                "two_weeks_after_announcement",
                "§ 34 Abs. 4 Satz 1 i. V. m. § 25 Abs. 1 KWG",
            )],
        ),
    };
    trail.push(TrailStep::new(None, Verdict::Noted, "announcement_day_not_counted", "§ 187 Abs. 1 BGB"));
    let rule = if land == Land::Nw && last_day.day() != day.day() { "§ 188 Abs. 3 BGB" } else { "§ 188 Abs. 2 BGB" };
    trail.push(TrailStep::new(None, Verdict::Noted, "ends_at_end_of_last_day", rule));
    ObjectionPeriod { last_day, ends_at: end_of_day(last_day), trail }
}

/// `day` plus `months` calendar months; a day the target month lacks becomes its last day (§ 188 Abs. 3 BGB).
pub fn add_months_bgb(day: NaiveDate, months: u32) -> NaiveDate {
    // chrono clamps to the last day of the month, which is exactly § 188 Abs. 3 BGB
    day.checked_add_months(chrono::Months::new(months)).unwrap_or(NaiveDate::MAX)
}

/// The instant a calendar day ends in Europe/Berlin (24:00 = the next day 00:00 local time).
pub fn end_of_day(day: NaiveDate) -> DateTime<Utc> {
    let next = day.succ_opt().unwrap_or(day).and_time(chrono::NaiveTime::MIN);
    next.and_local_timezone(chrono_tz::Europe::Berlin)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(|| next.and_utc())
}

impl Case {
    pub fn is_closed(&self) -> bool {
        matches!(self.state, CaseState::Filled { .. } | CaseState::Vacant { .. })
    }
    /// The successor offered the seat and not yet a member (NRW), or awaiting a lot.
    pub fn pending_successor(&self) -> Option<&str> {
        match &self.state {
            CaseState::Offered(o) => Some(&o.successor),
            _ => None,
        }
    }
    /// The current successor, if any.
    pub fn successor(&self) -> Option<&str> {
        match &self.state {
            CaseState::Offered(o) => Some(&o.successor),
            CaseState::Filled { successor, .. } => Some(successor),
            _ => None,
        }
    }
    /// A short name of the state, for listings and metrics.
    pub fn state_name(&self) -> &'static str {
        match &self.state {
            CaseState::AwaitingLot { .. } => "awaiting_lot",
            CaseState::Offered(_) => "offered",
            CaseState::Filled { .. } => "filled",
            CaseState::Vacant { .. } => "vacant",
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Entry points

/// `election.registered`: create or replace a body. Replacing is refused while a case is open.
pub fn register(existing: Option<&Body>, snapshot: Snapshot) -> Result<(Body, Vec<Effect>), Rejection> {
    if let Some(old) = existing {
        if old.has_open_case() {
            return Err(invalid(format!(
                "body.id: body {:?} has an open succession case; replacing it is refused until the case is closed",
                old.id()
            )));
        }
    }
    let mut body = Body::from_snapshot(snapshot).map_err(|e| invalid(e.to_string()))?;
    if let Some(old) = existing {
        // keep the case history and the sequence, so case ids stay unique
        body.cases = old.cases.clone();
        body.case_seq = old.case_seq;
    }
    let data = BodyRegistered {
        body: body.id().to_owned(),
        lists: body.snapshot.lists.len(),
        candidates: body.candidate_count(),
        statutory_size: body.info().statutory_size,
    };
    let effects = vec![publish("body.registered", &data)];
    Ok((body, effects))
}

/// Apply a command to a body at `now`. On `Err`, the body must be discarded (the caller rolls back).
pub fn handle(
    body: &mut Body,
    cmd: Command,
    now: DateTime<Utc>,
    settings: &Settings,
) -> Result<Vec<Effect>, Rejection> {
    let mut m = Machine { body, now, settings, effects: Vec::new() };
    match cmd {
        Command::Inbound(Inbound::ElectionRegistered(_)) => {
            return Err(invalid("election.registered is handled by case::register"));
        }
        Command::Inbound(Inbound::FactRecorded(f)) => m.record_fact(f)?,
        Command::Inbound(Inbound::VacancyReported(v)) => m.open_case(v)?,
        Command::Inbound(Inbound::NotificationServed(s)) => m.served(s)?,
        Command::Inbound(Inbound::DeclarationReceived(d)) => m.declaration(d)?,
        Command::Inbound(Inbound::BarCured(b)) => m.bar_cured(b)?,
        Command::Inbound(Inbound::LotDrawn(l)) => m.lot_drawn(l)?,
        Command::Inbound(Inbound::ReviewDecided(r)) => m.review(r)?,
        Command::NotificationSent { case, round, message_id, sent_at } => {
            m.notified(&case, round, message_id, sent_at)?
        }
        Command::NotificationFailed { case, round, reason } => m.notification_failed(&case, round, reason)?,
        Command::DeadlineExpired { case, round: 0 } => m.objection_ended(&case, None)?,
        Command::DeadlineExpired { case, round } => m.deadline_expired(&case, round)?,
        Command::ObjectionPeriodEnded { case, n } => m.objection_ended(&case, Some(n))?,
    }
    Ok(m.effects)
}

/// Check a vacancy against the body (also used by `nachfolge decide`): the member is known and holds a
/// seat. Returns the departed's seat.
pub fn check_vacancy(body: &Body, v: &VacancyReported) -> Result<Seat, Rejection> {
    if v.body != body.id() {
        return Err(invalid(format!("body: vacancy is for body {:?}, the election is for {:?}", v.body, body.id())));
    }
    let c = body
        .candidate(&v.member)
        .ok_or_else(|| Rejection::Unknown(format!("member: unknown candidate {:?}", v.member)))?;
    c.seat.clone().ok_or_else(|| invalid(format!("member: candidate {:?} holds no seat", v.member)))
}

fn publish<T: Serialize>(event_type: &'static str, data: &T) -> Effect {
    Effect::Publish { event_type, data: serde_json::to_value(data).unwrap_or(Value::Null) }
}

/// An instant as RFC 3339 with the Europe/Berlin offset.
pub fn berlin(t: DateTime<Utc>) -> chrono::DateTime<chrono::FixedOffset> {
    t.with_timezone(&chrono_tz::Europe::Berlin).fixed_offset()
}

/// A date as German officials write it.
pub fn german_date(d: NaiveDate) -> String {
    d.format("%d.%m.%Y").to_string()
}

// ---------------------------------------------------------------------------------------------------------
// The machine

struct Machine<'a> {
    body: &'a mut Body,
    now: DateTime<Utc>,
    settings: &'a Settings,
    effects: Vec<Effect>,
}

impl Machine<'_> {
    fn emit<T: Serialize>(&mut self, event_type: &'static str, data: &T) {
        self.effects.push(publish(event_type, data));
    }

    fn candidate(&self, id: &str) -> Result<&Candidate, Rejection> {
        self.body.candidate(id).ok_or_else(|| Rejection::Unknown(format!("candidate: unknown candidate {id:?}")))
    }

    fn case(&self, id: &str) -> Result<&Case, Rejection> {
        self.body.cases.get(id).ok_or_else(|| Rejection::Unknown(format!("case: unknown case {id:?}")))
    }

    fn case_mut(&mut self, id: &str) -> Result<&mut Case, Rejection> {
        self.body.cases.get_mut(id).ok_or_else(|| Rejection::Unknown(format!("case: unknown case {id:?}")))
    }

    fn offer_mut(&mut self, case: &str) -> Option<&mut Offer> {
        match &mut self.body.cases.get_mut(case)?.state {
            CaseState::Offered(o) => Some(o),
            _ => None,
        }
    }

    fn person(&self, id: &str) -> PersonRef {
        let name = self.body.candidate(id).map(Candidate::full_name).unwrap_or_default();
        let list = self.body.list_of(id).map(|l| l.id.clone());
        PersonRef { id: id.to_owned(), name, list }
    }

    // --- facts ---------------------------------------------------------------------------------------

    fn record_fact(&mut self, f: FactRecorded) -> Result<(), Rejection> {
        let c = self.candidate(&f.candidate)?;
        if matches!(f.fact, Fact::FormerMember { .. }) && c.seat.is_some() {
            return Err(invalid("fact: a candidate who holds a seat cannot be recorded as former_member"));
        }
        if let Fact::Ineligible { from, until: Some(until) } = f.fact {
            if until < from {
                return Err(invalid("fact.until: lies before fact.from"));
            }
        }
        let lapses = matches!(f.fact, Fact::Died { .. })
            || matches!(f.fact, Fact::Ineligible { from, until } if from <= local_date(self.now) && until.is_none_or(|u| u >= local_date(self.now)));
        if let Some(c) = self.body.candidate_mut(&f.candidate) {
            c.facts.push(f.fact);
        }
        // NRW § 45 Abs. 2 Satz 2: the pending successor died or lost eligibility before his membership
        // started → next. An offered NRW successor is never a member yet: also a barred one who accepted but
        // has not proved the end of the incompatibility (§ 69 Abs. 2 i. V. m. § 62 Nr. 5 KWahlO) — waiting
        // for the end of his period would only delay the next determination.
        if lapses && self.body.land() == Land::Nw {
            let pending: Vec<String> = self
                .body
                .cases
                .values()
                .filter(|c| matches!(&c.state, CaseState::Offered(o) if o.successor == f.candidate))
                .map(|c| c.id.clone())
                .collect();
            for case in pending {
                let round = self.case(&case)?.round;
                self.effects.push(Effect::Cancel { key: timer_key(&case, round) });
                self.determine(&case, None)?;
            }
        }
        Ok(())
    }

    // --- vacancy -------------------------------------------------------------------------------------

    fn open_case(&mut self, v: VacancyReported) -> Result<(), Rejection> {
        let seat = check_vacancy(self.body, &v)?;
        let list = self.body.list_of(&v.member).map(|l| l.id.clone()).unwrap_or_default();
        // Hessen: a barred successor is a member (without voting right) while his case waits for the proof
        // (§ 34 Abs. 3 Satz 2 i. V. m. § 23 Abs. 2 KWG). If he leaves before that, his departure is the new
        // trigger (§ 34 Abs. 1 Satz 1): the earlier case is closed with his membership, and its timer cancelled,
        // so that the end of his period does not determine a second successor for the same seat.
        let superseded: Vec<(String, u32, Offer)> = self
            .body
            .cases
            .values()
            .filter_map(|c| match &c.state {
                CaseState::Offered(o) if o.successor == v.member => Some((c.id.clone(), c.round, o.clone())),
                _ => None,
            })
            .collect();
        for (case_id, round, o) in superseded {
            self.effects.push(Effect::Cancel { key: timer_key(&case_id, round) });
            let since = o.member_since.unwrap_or(o.determined_at);
            self.case_mut(&case_id)?.state =
                CaseState::Filled { successor: o.successor, since, basis: MembershipBasis::Determination };
        }
        self.body.case_seq += 1;
        let id = format!("{}-{}", self.body.id(), self.body.case_seq);
        let effective_at = v.effective_at.with_timezone(&Utc);
        let left_on = local_date(effective_at);
        if let Some(c) = self.body.candidate_mut(&v.member) {
            c.seat = None;
            c.facts.push(match v.reason {
                // an elected candidate who declines never was a member
                DepartureReason::Declined => Fact::Declined { on: left_on },
                _ => Fact::FormerMember { on: left_on },
            });
            if v.reason == DepartureReason::Died {
                c.facts.push(Fact::Died { on: left_on });
            }
        }
        let case = Case {
            id: id.clone(),
            departed: v.member.clone(),
            list: list.clone(),
            reason: v.reason,
            effective_at,
            departed_via: Some(seat.via),
            opened_at: self.now,
            round: 0,
            state: CaseState::AwaitingLot { tied: vec![] },
            refused: vec![],
            history: CaseHistory::default(),
        };
        self.body.cases.insert(id.clone(), case);
        let membership = self.membership(
            &id,
            &v.member,
            MembershipChange::Left,
            MembershipBasis::Vacancy,
            effective_at,
            false,
            Some(seat.since),
        );
        self.emit("membership.changed", &membership);
        self.determine(&id, None)
    }

    fn vacancy_ref(&self, case: &Case) -> VacancyRef {
        VacancyRef { member: case.departed.clone(), reason: case.reason, effective_at: berlin(case.effective_at) }
    }

    /// Determine the successor for the next round of a case (Feststellung).
    fn determine(&mut self, case_id: &str, lot_winner: Option<&str>) -> Result<(), Rejection> {
        let case = self.case(case_id)?.clone();
        let round = if lot_winner.is_some() { case.round } else { case.round + 1 };
        let query = Query {
            departed: &case.departed,
            departed_via: case.departed_via,
            at: self.now,
            lot_winner,
            case: Some(case_id),
        };
        let decision = rules::decide(self.body, &query).map_err(|e| invalid(e.to_string()))?;
        let mut trail = decision.trail;
        // refusals in this case are irrevocable: they are already in the facts (declined); note them
        if !case.refused.is_empty() && self.body.land() == Land::Nw {
            trail.insert(
                0,
                TrailStep::new(
                    None,
                    Verdict::Noted,
                    format!("round_{round}"),
                    crate::rules::nrw::cite("Abs. 2 Satz 2"),
                ),
            );
        }
        let vacancy = self.vacancy_ref(&case);
        match decision.outcome {
            Outcome::LotRequired { tied } => {
                self.case_mut(case_id)?.round = round;
                self.case_mut(case_id)?.state = CaseState::AwaitingLot { tied: tied.clone() };
                let data =
                    LotRequested { body: self.body.id().to_owned(), case: case_id.to_owned(), tied, round, trail };
                self.emit("lot.requested", &data);
            }
            Outcome::Vacant { reason, statutory_size } => {
                self.body.snapshot.body.statutory_size = statutory_size;
                let c = self.case_mut(case_id)?;
                c.round = round;
                c.state = CaseState::Vacant { reason };
                let data = SeatLeftVacant {
                    body: self.body.id().to_owned(),
                    case: case_id.to_owned(),
                    vacancy,
                    reason,
                    statutory_size,
                    round,
                    trail: trail.clone(),
                    organization: Some(self.organization()),
                };
                self.emit("seat.left_vacant", &data);
                self.announce(case_id, "vacancy", None, &trail);
            }
            Outcome::Successor { candidate, list, barred } => {
                let since = self.now.max(case.effective_at);
                self.install(case_id, round, &candidate, list, barred, trail, since, true)?;
            }
        }
        Ok(())
    }

    /// Determine `candidate` as successor in round `round` (NRW: the offer with the acceptance procedure,
    /// § 45 Abs. 6 Satz 2; Hessen: membership with the determination from `since`, § 34 Abs. 3 Satz 2
    /// i. V. m. § 23 KWG). `announce`: issue the successor announcement where the determination issues it.
    #[allow(clippy::too_many_arguments)]
    fn install(
        &mut self,
        case_id: &str,
        round: u32,
        candidate: &str,
        list: String,
        barred: bool,
        trail: Vec<TrailStep>,
        since: DateTime<Utc>,
        announce: bool,
    ) -> Result<(), Rejection> {
        let case = self.case(case_id)?.clone();
        let vacancy = self.vacancy_ref(&case);
        let offer = Offer {
            successor: candidate.to_owned(),
            list,
            determined_at: self.now,
            barred,
            notified_at: None,
            notification_failed: false,
            deadline: None,
            accepted_at: None,
            proven_at: None,
            member_since: None,
            trail: trail.clone(),
        };
        {
            let c = self.case_mut(case_id)?;
            c.round = round;
            c.state = CaseState::Offered(offer);
        }
        let data = SuccessionDetermined {
            body: self.body.id().to_owned(),
            case: case_id.to_owned(),
            vacancy,
            successor: self.person(candidate),
            round,
            barred,
            determined_at: berlin(self.now),
            trail: trail.clone(),
        };
        self.emit("succession.determined", &data);
        match self.body.land() {
            Land::Nw => {
                self.mail(case_id, "nrw_offer", &trail)?;
                if announce && self.settings.announce_at_determination {
                    self.announce(case_id, "successor", Some(candidate), &trail);
                }
            }
            Land::He => {
                // § 23 KWG (since 2005): membership with the determination, not before the departure
                self.seat(candidate, since);
                if let Some(o) = self.offer_mut(case_id) {
                    o.member_since = Some(since);
                }
                let m = self.membership(
                    case_id,
                    candidate,
                    MembershipChange::Joined,
                    MembershipBasis::Determination,
                    since,
                    !barred,
                    None,
                );
                self.emit("membership.changed", &m);
                self.mail(case_id, "he_determination", &trail)?;
                if announce {
                    self.announce(case_id, "successor", Some(candidate), &trail);
                }
                if !barred {
                    self.case_mut(case_id)?.state = CaseState::Filled {
                        successor: candidate.to_owned(),
                        since,
                        basis: MembershipBasis::Determination,
                    };
                }
            }
        }
        Ok(())
    }

    fn seat(&mut self, candidate: &str, since: DateTime<Utc>) {
        if let Some(c) = self.body.candidate_mut(candidate) {
            c.seat = Some(Seat { since: local_date(since), via: SeatVia::Succession });
        }
    }

    // --- notification and service --------------------------------------------------------------------

    fn mail(&mut self, case_id: &str, template: &str, trail: &[TrailStep]) -> Result<(), Rejection> {
        let case = self.case(case_id)?;
        let Some(successor) = case.successor().map(str::to_owned) else { return Ok(()) };
        let round = case.round;
        let context = self.context(case_id, Some(&successor), trail);
        let c = self.candidate(&successor)?;
        let info = self.body.info();
        let subject = match self.body.land() {
            Land::Nw => format!(
                "Feststellung als Listennachfolger, Vertretung „{}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
                info.name
            ),
            Land::He => {
                if c.is_barred() {
                    format!("Feststellung des Nachrückens, Vertretung „{}“ – Nachweis über die Beseitigung des Hinderungsgrundes", info.name)
                } else {
                    format!("Feststellung des Nachrückens, Vertretung „{}“", info.name)
                }
            }
        };
        let req = MailRequest {
            case: case_id.to_owned(),
            round,
            candidate: successor.clone(),
            to: c.email.clone(),
            reply_to: info.returning_officer.email.clone(),
            template: template.to_owned(),
            subject,
            context,
        };
        self.effects.push(Effect::Mail(req));
        Ok(())
    }

    fn notified(
        &mut self,
        case_id: &str,
        round: u32,
        message_id: String,
        sent_at: DateTime<Utc>,
    ) -> Result<(), Rejection> {
        let case = self.case(case_id)?;
        if case.round != round {
            return Ok(()); // a mail of an earlier round: nothing changes
        }
        let candidate = case.successor().unwrap_or_default().to_owned();
        let data = SuccessorNotified {
            body: self.body.id().to_owned(),
            case: case_id.to_owned(),
            candidate: candidate.clone(),
            round,
            message_id,
            sent_at: berlin(sent_at),
        };
        self.emit("successor.notified", &data);
        let fiction = self.settings.email_fiction_days;
        let Some(o) = self.offer_mut(case_id) else { return Ok(()) };
        o.notified_at = Some(sent_at);
        if o.deadline.is_none() {
            if let Some(days) = fiction {
                self.set_deadline(case_id, &ServiceBasis::Email { fiction_days: days }, local_date(sent_at))?;
            }
        }
        Ok(())
    }

    fn notification_failed(&mut self, case_id: &str, round: u32, reason: String) -> Result<(), Rejection> {
        let case = self.case(case_id)?;
        if case.round != round {
            return Ok(());
        }
        let data = NotificationFailed {
            body: self.body.id().to_owned(),
            case: case_id.to_owned(),
            candidate: case.successor().unwrap_or_default().to_owned(),
            round,
            reason,
        };
        self.emit("notification.failed", &data);
        if let Some(o) = self.offer_mut(case_id) {
            // the Wahlleiter notifies by other means; the case waits for notification.served
            o.notification_failed = true;
        }
        Ok(())
    }

    fn served(&mut self, s: NotificationServed) -> Result<(), Rejection> {
        let filled = matches!(self.case(&s.case)?.state, CaseState::Filled { .. });
        let today = local_date(self.now);
        if s.on > today {
            return Err(invalid(format!("on: service date {} lies in the future", s.on)));
        }
        if filled {
            // [decision] The successor is already a member: NRW, a valid acceptance that arrived before the
            // service date was known (LAW.md §1 item 14); Hessen, a successor without a bar, for whom no
            // period runs (§ 34 Abs. 3 Satz 2 i. V. m. § 23 KWG). The certificate is a normal part of the
            // file, not an error: taken without effect instead of being dead-lettered.
            return Ok(());
        }
        let Some(o) = self.offer_mut(&s.case) else {
            return Err(invalid(format!("case: case {:?} has no pending notification", s.case)));
        };
        let sent = local_date(o.notified_at.unwrap_or(o.determined_at));
        if s.on < sent {
            return Err(invalid(format!("on: service date {} lies before the notification was sent ({sent})", s.on)));
        }
        let basis = match s.method {
            ServiceMethod::Certificate => ServiceBasis::Certificate,
            ServiceMethod::ReturnReceipt => ServiceBasis::ReturnReceipt,
            ServiceMethod::Acknowledgement => ServiceBasis::Acknowledgement,
            ServiceMethod::RegisteredLetterPosted => ServiceBasis::RegisteredLetterPosted,
        };
        // an explicit service message overrides the fiction
        self.set_deadline(&s.case, &basis, s.on)
    }

    fn set_deadline(&mut self, case_id: &str, basis: &ServiceBasis, on: NaiveDate) -> Result<(), Rejection> {
        let land = self.body.land();
        let barred = matches!(&self.case(case_id)?.state, CaseState::Offered(o) if o.barred);
        if land == Land::He && !barred {
            return Ok(()); // Hessen: no period runs for a successor without a bar
        }
        let deadline = one_week_deadline(basis, on, land, self.settings.fixed_end_date);
        let case = self.case(case_id)?;
        let (round, candidate) = (case.round, case.successor().unwrap_or_default().to_owned());
        let data = DeadlineSet {
            body: self.body.id().to_owned(),
            case: case_id.to_owned(),
            candidate,
            round,
            served_on: deadline.served_on,
            last_day: deadline.last_day,
            ends_at: berlin(deadline.ends_at),
            trail: deadline.trail.clone(),
        };
        let key = timer_key(case_id, round);
        let due_at = deadline.ends_at + self.settings.deadline_grace;
        self.effects.push(Effect::Schedule { key, due_at, case: case_id.to_owned(), round });
        if let Some(o) = self.offer_mut(case_id) {
            o.deadline = Some(deadline);
        }
        self.emit("deadline.set", &data);
        Ok(())
    }

    // --- declarations ----------------------------------------------------------------------------------

    fn reject_declaration(&mut self, case: &str, candidate: &str, reason: &str) {
        let data = DeclarationRejected {
            body: self.body.id().to_owned(),
            case: case.to_owned(),
            candidate: candidate.to_owned(),
            reason: reason.to_owned(),
        };
        self.emit("declaration.rejected", &data);
    }

    /// Checks common to declarations and proofs (§ 45 Abs. 6 KWahlG NRW, LAW.md §1 item 14): the sender is
    /// the pending successor, the notification went out, the period has not ended. Returns the offer.
    fn check_declaration(
        &mut self,
        case_id: &str,
        candidate: &str,
        at: DateTime<Utc>,
    ) -> Result<Option<Offer>, Rejection> {
        let case = self.case(case_id)?.clone();
        self.candidate(candidate)?;
        if case.refused.iter().any(|r| r == candidate) {
            let reason = match self.body.land() {
                // § 45 Abs. 6 Satz 6 KWahlG NRW: a refusal cannot be withdrawn
                Land::Nw => "refusal_irrevocable",
                // § 23 Abs. 2 KWG: his membership was deemed not acquired because the period ended unproven
                Land::He => "after_deadline",
            };
            self.reject_declaration(case_id, candidate, reason);
            return Ok(None);
        }
        let offer = match &case.state {
            CaseState::Offered(o) => o.clone(),
            CaseState::Filled { successor, .. } if successor == candidate => {
                self.reject_declaration(case_id, candidate, "case_closed");
                return Ok(None);
            }
            _ => {
                return Err(invalid(format!(
                    "candidate: {candidate:?} is not the pending successor of case {case_id:?}"
                )))
            }
        };
        if offer.successor != candidate {
            return Err(invalid(format!("candidate: {candidate:?} is not the pending successor of case {case_id:?}")));
        }
        let notified = offer.notified_at.or(offer.notification_failed.then_some(offer.determined_at));
        if notified.is_none_or(|n| at < n) {
            self.reject_declaration(case_id, candidate, "before_notification");
            return Ok(None);
        }
        if offer.deadline.as_ref().is_some_and(|d| at >= d.ends_at) {
            self.reject_declaration(case_id, candidate, "after_deadline");
            return Ok(None);
        }
        Ok(Some(offer))
    }

    fn declaration(&mut self, d: DeclarationReceived) -> Result<(), Rejection> {
        let at = d.received_at.with_timezone(&Utc);
        if self.body.land() == Land::He {
            self.case(&d.case)?;
            // § 23 KWG has no acceptance step since 2005
            self.reject_declaration(&d.case, &d.candidate, "no_acceptance_procedure");
            return Ok(());
        }
        if at > self.now + chrono::Duration::minutes(5) {
            return Err(invalid("received_at: lies in the future"));
        }
        let Some(offer) = self.check_declaration(&d.case, &d.candidate, at)? else { return Ok(()) };
        if offer.accepted_at.is_some() {
            self.reject_declaration(&d.case, &d.candidate, "already_accepted");
            return Ok(());
        }
        let kind = match d.kind {
            DeclarationKind::Accept => "accept",
            DeclarationKind::Refuse => "refuse",
            DeclarationKind::AcceptWithReservation => "accept_with_reservation",
        };
        self.recorded(&d.case, &d.candidate, kind, at);
        match d.kind {
            DeclarationKind::Accept => {
                if let Some(o) = self.offer_mut(&d.case) {
                    o.accepted_at = Some(at);
                }
                if !offer.barred || offer.proven_at.is_some() {
                    let start = at.max(offer.proven_at.unwrap_or(at));
                    self.nrw_membership(&d.case, start, MembershipBasis::Acceptance)?;
                }
            }
            // § 45 Abs. 6 Satz 5: a declaration with a reservation counts as refusal
            DeclarationKind::Refuse | DeclarationKind::AcceptWithReservation => {
                self.refused(&d.case, &d.candidate, at)?
            }
        }
        Ok(())
    }

    fn recorded(&mut self, case: &str, candidate: &str, kind: &str, at: DateTime<Utc>) {
        let data = DeclarationRecorded {
            body: self.body.id().to_owned(),
            case: case.to_owned(),
            candidate: candidate.to_owned(),
            kind: kind.to_owned(),
            received_at: berlin(at),
        };
        self.emit("declaration.recorded", &data);
    }

    /// A refusal (or deemed refusal): irrevocable (§ 45 Abs. 6 Satz 6); the substitute also loses his list
    /// position (§ 69 Abs. 2 KWahlO); the next successor is determined (§ 45 Abs. 2 Satz 2).
    fn refused(&mut self, case_id: &str, candidate: &str, at: DateTime<Utc>) -> Result<(), Rejection> {
        if let Some(c) = self.body.candidate_mut(candidate) {
            c.facts.push(Fact::Declined { on: local_date(at) });
        }
        let c = self.case_mut(case_id)?;
        c.refused.push(candidate.to_owned());
        let round = c.round;
        self.effects.push(Effect::Cancel { key: timer_key(case_id, round) });
        self.determine(case_id, None)
    }

    /// NRW: membership starts (§ 45 Abs. 6 Satz 3/4), not before the predecessor's departure.
    fn nrw_membership(&mut self, case_id: &str, at: DateTime<Utc>, basis: MembershipBasis) -> Result<(), Rejection> {
        let case = self.case(case_id)?.clone();
        let Some(successor) = case.pending_successor().map(str::to_owned) else { return Ok(()) };
        let since = at.max(case.effective_at);
        let trail = match &case.state {
            CaseState::Offered(o) => o.trail.clone(),
            _ => vec![],
        };
        self.seat(&successor, since);
        self.effects.push(Effect::Cancel { key: timer_key(case_id, case.round) });
        self.case_mut(case_id)?.state = CaseState::Filled { successor: successor.clone(), since, basis };
        let m = self.membership(case_id, &successor, MembershipChange::Joined, basis, since, true, None);
        self.emit("membership.changed", &m);
        // a successor a review installed was named in the review's announcement already
        let by_review = case.history.installed_by_review == Some(case.round);
        if !self.settings.announce_at_determination && !by_review {
            self.announce(case_id, "successor", Some(&successor), &trail);
        }
        Ok(())
    }

    fn bar_cured(&mut self, b: BarCuredReceived) -> Result<(), Rejection> {
        let at = b.proven_at.with_timezone(&Utc);
        if at > self.now + chrono::Duration::minutes(5) {
            return Err(invalid("proven_at: lies in the future"));
        }
        let Some(offer) = self.check_declaration(&b.case, &b.candidate, at)? else { return Ok(()) };
        if !offer.barred {
            self.reject_declaration(&b.case, &b.candidate, "not_barred");
            return Ok(());
        }
        if offer.proven_at.is_some() {
            self.reject_declaration(&b.case, &b.candidate, "already_proven");
            return Ok(());
        }
        if let Some(c) = self.body.candidate_mut(&b.candidate) {
            c.facts.push(Fact::BarCured { on: local_date(at) });
        }
        if let Some(o) = self.offer_mut(&b.case) {
            o.proven_at = Some(at);
        }
        self.recorded(&b.case, &b.candidate, "bar_cured", at);
        match self.body.land() {
            Land::Nw => {
                if let Some(accepted) = offer.accepted_at {
                    self.nrw_membership(&b.case, accepted.max(at), MembershipBasis::Acceptance)?;
                }
            }
            Land::He => {
                // full rights from the proof
                let round = self.case(&b.case)?.round;
                self.effects.push(Effect::Cancel { key: timer_key(&b.case, round) });
                let m = self.membership(
                    &b.case,
                    &b.candidate,
                    MembershipChange::Updated,
                    MembershipBasis::BarCured,
                    at,
                    true,
                    offer.member_since.map(local_date),
                );
                self.emit("membership.changed", &m);
                let since = offer.member_since.unwrap_or(at);
                self.case_mut(&b.case)?.state =
                    CaseState::Filled { successor: b.candidate.clone(), since, basis: MembershipBasis::BarCured };
            }
        }
        Ok(())
    }

    fn deadline_expired(&mut self, case_id: &str, round: u32) -> Result<(), Rejection> {
        let case = self.case(case_id)?.clone();
        let CaseState::Offered(offer) = &case.state else { return Ok(()) };
        let Some(deadline) = &offer.deadline else { return Ok(()) };
        if case.round != round || self.now < deadline.ends_at {
            return Ok(()); // a stale or early timer
        }
        let ends = deadline.ends_at;
        let unproven = offer.barred && offer.proven_at.is_none();
        match self.body.land() {
            Land::Nw if unproven => {
                // § 69 Abs. 2 i. V. m. § 62 Nr. 5 KWahlO: no proof within the week counts as refusal
                self.recorded(case_id, &offer.successor, "deemed_refusal", ends);
                self.refused(case_id, &offer.successor, ends)?;
            }
            Land::Nw => {
                if offer.accepted_at.is_none() {
                    // § 45 Abs. 6 Satz 4: silence → deemed accepted when the period ends
                    self.nrw_membership(case_id, ends, MembershipBasis::DeemedAcceptance)?;
                }
            }
            Land::He if unproven => {
                // § 23 Abs. 2 Satz 3 KWG: membership deemed not acquired, retroactively → a new trigger
                let since = offer.member_since.unwrap_or(offer.determined_at);
                if let Some(c) = self.body.candidate_mut(&offer.successor) {
                    c.seat = None;
                    c.facts.push(Fact::FormerMember { on: local_date(since) });
                }
                let m = self.membership(
                    case_id,
                    &offer.successor,
                    MembershipChange::Left,
                    MembershipBasis::DeemedNotAcquired,
                    since,
                    false,
                    Some(local_date(since)),
                );
                self.emit("membership.changed", &m);
                self.case_mut(case_id)?.refused.push(offer.successor.clone());
                self.announce(case_id, "not_acquired", Some(&offer.successor), &offer.trail);
                self.determine(case_id, None)?;
            }
            Land::He => {}
        }
        Ok(())
    }

    fn lot_drawn(&mut self, l: LotDrawn) -> Result<(), Rejection> {
        let case = self.case(&l.case)?;
        let CaseState::AwaitingLot { tied } = &case.state else {
            return Err(invalid(format!("case: case {:?} is not waiting for a lot", l.case)));
        };
        if !tied.contains(&l.winner) {
            return Err(invalid(format!("winner: {:?} is not one of the tied candidates", l.winner)));
        }
        let winner = l.winner.clone();
        self.determine(&l.case, Some(&winner))
    }

    // --- downstream payloads ---------------------------------------------------------------------------

    #[allow(clippy::too_many_arguments)]
    fn membership(
        &self,
        case: &str,
        person: &str,
        change: MembershipChange,
        basis: MembershipBasis,
        at: DateTime<Utc>,
        voting_right: bool,
        start: Option<NaiveDate>,
    ) -> MembershipChanged {
        let body = self.body.id();
        let list = self.body.list_of(person).map(|l| l.id.clone()).unwrap_or_default();
        let day = local_date(at);
        let (start_date, end_date) = match change {
            MembershipChange::Left => (start, Some(day)),
            // an update (Hessen: full rights from the proof, § 23 Abs. 2 KWG) keeps the membership's start
            _ => (start.or(Some(day)), None),
        };
        // One OParl Membership per person and start date: a person can hold a seat twice in a term (e.g. after
        // a review). `created` is derived from the start (the same in every event of the membership),
        // `modified` is the moment of this change.
        let id = match start_date {
            Some(d) => format!("urn:nachfolge:{body}:membership:{person}:{d}"),
            None => format!("urn:nachfolge:{body}:membership:{person}"),
        };
        let created = start_date.map(start_of_day).unwrap_or(self.now).min(self.now);
        MembershipChanged {
            body: body.to_owned(),
            case: case.to_owned(),
            change,
            person: self.person(person),
            list: list.clone(),
            effective_at: berlin(at),
            basis,
            voting_right,
            membership: OparlMembership {
                id,
                ty: "https://schema.oparl.org/1.1/Membership".into(),
                person: format!("urn:nachfolge:{body}:person:{person}"),
                organization: format!("urn:nachfolge:{body}:organization"),
                role: Some("Mitglied".into()),
                voting_right,
                start_date,
                end_date,
                on_behalf_of: Some(format!("urn:nachfolge:{body}:list:{list}")),
                created: berlin(created),
                modified: berlin(self.now),
            },
            organization: Some(self.organization()),
        }
    }

    /// The council as an OParl Organization; `memberCount` = the current statutory size.
    fn organization(&self) -> OparlOrganization {
        let info = self.body.info();
        OparlOrganization {
            id: format!("urn:nachfolge:{}:organization", info.id),
            ty: "https://schema.oparl.org/1.1/Organization".into(),
            name: info.name.clone(),
            classification: "Parlament".into(),
            organization_type: "Gremium".into(),
            member_count: info.statutory_size,
            created: berlin(start_of_day(info.term.start).min(self.now)),
            modified: berlin(self.now),
        }
    }

    /// Template context shared by e-mails and announcements: names, dates, and who was passed over.
    fn context(&self, case_id: &str, successor: Option<&str>, trail: &[TrailStep]) -> Value {
        let info = self.body.info();
        let case = self.body.cases.get(case_id);
        let departed = case.and_then(|c| self.body.candidate(&c.departed));
        let list = case.and_then(|c| self.body.list_of(&c.departed));
        let succ = successor.and_then(|s| self.body.candidate(s));
        let offer = case.and_then(|c| match &c.state {
            CaseState::Offered(o) => Some(o),
            _ => None,
        });
        let passed_over: Vec<Value> = trail
            .iter()
            .filter(|s| s.verdict == Verdict::Skipped && s.reason != "departed")
            .filter_map(|s| {
                let c = self.body.candidate(s.candidate.as_deref()?)?;
                Some(json!({
                    "id": c.id, "name": c.full_name(), "position": c.position,
                    "reason": trail::reason_de(&s.reason), "citation": s.citation,
                }))
            })
            .collect();
        let chosen = trail
            .iter()
            .find(|s| s.verdict == Verdict::Chosen)
            .map(|s| json!({"candidate": s.candidate, "reason": s.reason, "citation": s.citation}));
        let member_since = offer.and_then(|o| o.member_since).map(|t| german_date(local_date(t)));
        json!({
            "land": self.body.land(),
            "body": { "id": info.id, "name": info.name, "statutory_size": info.statutory_size },
            "officer": info.returning_officer,
            "case": case_id,
            "round": case.map(|c| c.round),
            "departed": departed.map(|d| json!({"id": d.id, "name": d.full_name()})),
            "departure_reason": case.map(|c| trail::departure_de(c.reason)),
            "effective_date": case.map(|c| german_date(local_date(c.effective_at))),
            "list": list.map(|l| json!({"id": l.id, "name": l.name, "short_name": l.short_name, "kind": l.kind})),
            "successor": succ.map(|s| json!({
                "id": s.id, "name": s.full_name(), "position": s.position,
                "postal_address": s.postal_address, "barred": s.is_barred(), "bar_reason": s.bar_reason(),
            })),
            "determined_date": german_date(local_date(offer.map(|o| o.determined_at).unwrap_or(self.now))),
            "passed_over": passed_over,
            "chosen": chosen,
            "member_since": member_since,
            "email_fiction_days": self.settings.email_fiction_days,
            "today": german_date(local_date(self.now)),
            "place": place_of(info.returning_officer.address.as_deref()),
        })
    }

    fn announce(&mut self, case_id: &str, kind: &str, successor: Option<&str>, trail: &[TrailStep]) {
        self.announce_with(case_id, kind, successor, trail, Value::Null);
    }

    /// Issue a public announcement (§ 45 Abs. 6 Satz 7 KWahlG NRW, § 34 Abs. 3 KWG i. V. m. § 58 KWO) and,
    /// where an objection lies against what it announces, record and time its objection period.
    fn announce_with(&mut self, case_id: &str, kind: &str, successor: Option<&str>, trail: &[TrailStep], extra: Value) {
        let land = self.body.land();
        let mut context = self.context(case_id, successor, trail);
        let (legal_basis, objection_period_text) = match (land, kind) {
            (Land::Nw, "review") => (
                "§ 45 Abs. 6 Satz 8 KWahlG NRW",
                "Klage vor dem Verwaltungsgericht binnen eines Monats nach Zustellung der Entscheidung (§ 45 Abs. 6 Satz 8 i. V. m. § 41 KWahlG NRW)",
            ),
            (Land::He, "review") => (
                "§ 34 Abs. 4 KWG i. V. m. § 26 KWG",
                "Klage vor dem Verwaltungsgericht binnen eines Monats nach Zustellung des Beschlusses (§ 34 Abs. 4 Satz 1 i. V. m. § 27 KWG)",
            ),
            (Land::Nw, _) => (
                "§ 45 Abs. 6 Satz 7 KWahlG NRW",
                "Einspruch binnen eines Monats nach der Bekanntmachung (§ 45 Abs. 6 Satz 8 i. V. m. § 39 Abs. 1 KWahlG NRW)",
            ),
            (Land::He, _) => (
                "§ 34 Abs. 3 Satz 1 KWG i. V. m. § 58 KWO",
                "Einspruch binnen zwei Wochen nach der Bekanntmachung (§ 34 Abs. 4 Satz 1 i. V. m. § 25 KWG)",
            ),
        };
        let name = self.body.info().name.clone();
        let title = match (land, kind) {
            (Land::Nw, "vacancy") => format!("Bekanntmachung über das Freibleiben eines Sitzes in der Vertretung „{name}“"),
            (Land::He, "vacancy") => format!("Bekanntmachung über das Leerbleiben eines Sitzes in der Vertretung „{name}“"),
            (_, "not_acquired") => {
                format!("Bekanntmachung über den Nichterwerb der Mitgliedschaft in der Vertretung „{name}“")
            }
            (Land::Nw, "review") => format!(
                "Bekanntmachung der Entscheidung über Einsprüche gegen die Feststellung der Listennachfolge für die Vertretung „{name}“"
            ),
            (Land::He, "review") => format!(
                "Bekanntmachung der Entscheidung im Wahlprüfungsverfahren über das Nachrücken in die Vertretung „{name}“"
            ),
            (Land::Nw, _) => {
                format!("Bekanntmachung über die Feststellung eines Listennachfolgers für die Vertretung „{name}“")
            }
            (Land::He, _) => format!("Bekanntmachung über das Nachrücken in die Vertretung „{name}“"),
        };
        // the announcement's number, and its objection period (none against a review decision: court only)
        let n = self.body.cases.get(case_id).map_or(0, |c| c.history.announcements.len()) as u32 + 1;
        let objection = (kind != "review").then(|| objection_period(land, self.now));
        if let (Some(obj), Some(case)) = (context.as_object_mut(), self.body.cases.get(case_id)) {
            if let CaseState::Filled { since, basis, .. } = &case.state {
                obj.insert("member_since".into(), json!(german_date(local_date(*since))));
                obj.insert("basis".into(), json!(basis));
            }
            if let CaseState::Vacant { reason } = &case.state {
                obj.insert("reason".into(), json!(reason));
            }
            obj.insert("objection_period".into(), json!(objection_period_text));
            obj.insert("legal_basis".into(), json!(legal_basis));
            obj.insert("announcement".into(), json!(n));
            if let Some(p) = &objection {
                obj.insert(
                    "objection_period_ends".into(),
                    json!({"last_day": p.last_day, "ends_at": berlin(p.ends_at), "trail": p.trail}),
                );
            }
            if let Value::Object(extra) = extra {
                obj.extend(extra);
            }
        }
        let land_code = match land {
            Land::Nw => "nrw",
            Land::He => "he",
        };
        self.effects.push(Effect::Announce(Announcement {
            case: case_id.to_owned(),
            kind: kind.to_owned(),
            title,
            legal_basis: legal_basis.to_owned(),
            objection_period: objection_period_text.to_owned(),
            template: format!("{land_code}_{kind}"),
            issued_at: self.now,
            context,
        }));
        if let Some(p) = &objection {
            self.effects.push(Effect::Schedule {
                key: objection_timer_key(case_id, n),
                due_at: p.ends_at + self.settings.deadline_grace,
                case: case_id.to_owned(),
                round: 0,
            });
        }
        let record = AnnouncementRecord {
            n,
            kind: kind.to_owned(),
            issued_at: self.now,
            objection,
            ended: false,
            superseded: false,
        };
        if let Some(c) = self.body.cases.get_mut(case_id) {
            c.history.announcements.push(record);
        }
    }

    // --- objection periods -----------------------------------------------------------------------------

    /// Report every objection period of the case that has ended (`n`: only that announcement's).
    fn objection_ended(&mut self, case_id: &str, n: Option<u32>) -> Result<(), Rejection> {
        let now = self.now;
        let due: Vec<AnnouncementRecord> = self
            .case(case_id)?
            .history
            .announcements
            .iter()
            .filter(|a| !a.ended && !a.superseded && n.is_none_or(|n| a.n == n))
            .filter(|a| a.objection.as_ref().is_some_and(|p| now >= p.ends_at))
            .cloned()
            .collect();
        for a in due {
            let Some(p) = &a.objection else { continue };
            let data = ObjectionPeriodEnded {
                body: self.body.id().to_owned(),
                case: case_id.to_owned(),
                announcement: a.n,
                kind: a.kind.clone(),
                issued_at: berlin(a.issued_at),
                last_day: p.last_day,
                ended_at: berlin(p.ends_at),
                review_pending: false,
                trail: p.trail.clone(),
            };
            self.emit("objection_period.ended", &data);
            if let Some(r) = self.case_mut(case_id)?.history.announcements.iter_mut().find(|r| r.n == a.n) {
                r.ended = true;
            }
        }
        Ok(())
    }

    /// A review annulled or amended the determination: the open objection periods of the case's earlier
    /// announcements no longer matter; their timers are cancelled.
    fn supersede_objections(&mut self, case_id: &str) -> Result<(), Rejection> {
        let mut cancel = vec![];
        for a in self.case_mut(case_id)?.history.announcements.iter_mut() {
            if a.objection.is_some() && !a.ended && !a.superseded {
                a.superseded = true;
                cancel.push(a.n);
            }
        }
        for n in cancel {
            self.effects.push(Effect::Cancel { key: objection_timer_key(case_id, n) });
        }
        Ok(())
    }

    // --- review (§ 45 Abs. 6 Satz 8 i. V. m. §§ 39–41 KWahlG NRW; § 34 Abs. 4–6 i. V. m. §§ 25–27 KWG) ---------

    fn review(&mut self, r: ReviewDecided) -> Result<(), Rejection> {
        let at = r.decided_at.with_timezone(&Utc);
        let case = self.case(&r.case)?.clone();
        let land = self.body.land();
        if at > self.now + chrono::Duration::minutes(5) {
            return Err(invalid("decided_at: lies in the future"));
        }
        if at < case.opened_at {
            return Err(invalid(format!(
                "decided_at: lies before case {:?} was opened ({})",
                r.case,
                berlin(case.opened_at).to_rfc3339()
            )));
        }
        if r.decided_by.as_deref().is_some_and(|b| b.trim().is_empty()) {
            return Err(invalid("decided_by: must not be empty"));
        }
        let by_council = r.decided_by.as_deref() == Some("council");
        if by_council && land == Land::Nw {
            return Err(invalid(
                "decided_by: in NRW the returning officer decides objections against his determination, in place of the council (§ 45 Abs. 6 Satz 8 KWahlG NRW)",
            ));
        }
        match (r.outcome, &r.successor) {
            (ReviewOutcome::Amended, None) => return Err(invalid("successor: required with outcome amended")),
            (ReviewOutcome::Confirmed | ReviewOutcome::Annulled, Some(_)) => {
                return Err(invalid("successor: only with outcome amended"))
            }
            _ => {}
        }
        // Hessen § 34 Abs. 4 Satz 1 Halbsatz 2, Satz 3: against the returning officer's inaction (here: the lot
        // he has not drawn), the council makes the determination itself.
        let inactive = matches!(case.state, CaseState::AwaitingLot { .. });
        if inactive && !(land == Land::He && by_council && r.outcome == ReviewOutcome::Amended) {
            return Err(invalid(format!(
                "case: case {:?} has no determination yet to review; only the council's own determination (outcome amended, decided_by council, § 34 Abs. 4 Satz 3 KWG) can take its place",
                r.case
            )));
        }
        // who holds (or was offered) the seat, and is he a member (NRW: only after acceptance; Hessen: with
        // the determination, a barred one without voting right)
        let (holder, holder_member) = match &case.state {
            CaseState::Filled { successor, .. } => (Some(successor.clone()), true),
            CaseState::Offered(o) => (Some(o.successor.clone()), land == Land::He),
            _ => (None, false),
        };
        if r.outcome != ReviewOutcome::Confirmed && holder_member {
            let h = holder.as_deref().unwrap_or_default();
            if self.body.candidate(h).is_none_or(|c| c.seat.is_none()) {
                return Err(invalid(format!(
                    "case: {h:?}, the successor of case {:?}, no longer holds the seat; a later case took it over — review that case",
                    r.case
                )));
            }
        }
        let citation = match land {
            Land::Nw => crate::rules::nrw::cite("Abs. 6 Satz 8"),
            Land::He if inactive => crate::rules::hessen::cite("Abs. 4 Satz 3"),
            Land::He => crate::rules::hessen::cite("Abs. 4 Satz 2"),
        };
        let new = match &r.successor {
            Some(s) => Some(self.check_amended(&case, s, holder.as_deref())?),
            None => None,
        };
        let record = ReviewRecord {
            outcome: r.outcome,
            decided_at: at,
            decided_by: r.decided_by.clone(),
            previous: holder.clone(),
            successor: new.clone(),
            citation: citation.clone(),
            recorded_at: self.now,
        };
        let previous = holder
            .as_deref()
            .and_then(|h| self.body.candidate(h))
            .map(|c| json!({"id": c.id, "name": c.full_name(), "position": c.position, "was_member": holder_member}));
        let extra = json!({"review": {
            "outcome": r.outcome,
            "decided_date": german_date(local_date(at)),
            "decided_by": r.decided_by,
            "by_council": by_council,
            "officer_inactive": inactive,
            "citation": citation,
            "previous": previous,
            "was_vacant": matches!(case.state, CaseState::Vacant { .. }),
        }});
        if r.outcome == ReviewOutcome::Confirmed {
            self.case_mut(&r.case)?.history.reviews.push(record);
            let trail = self.case_trail(&case);
            self.announce_with(&r.case, "review", holder.as_deref(), &trail, extra);
            return Ok(());
        }
        // annulled or amended: the change takes effect now, dated at the decision; nothing earlier is rolled
        // back (Hessen § 34 Abs. 6 KWG)
        self.supersede_objections(&r.case)?;
        self.effects.push(Effect::Cancel { key: timer_key(&r.case, case.round) });
        if holder_member {
            if let Some(h) = &holder {
                self.end_by_review(&r.case, h, at);
            }
        }
        if matches!(case.state, CaseState::Vacant { .. }) {
            // the vacancy (and the reduction of the statutory size) is annulled with the determination
            self.body.snapshot.body.statutory_size += 1;
        }
        self.case_mut(&r.case)?.history.reviews.push(record);
        match new {
            None => {
                self.case_mut(&r.case)?.state = CaseState::AwaitingLot { tied: vec![] };
                self.announce_with(&r.case, "review", None, &[], extra);
                // determined again under the rules, with the facts known now (same case, next round)
                self.determine(&r.case, None)
            }
            Some(s) => {
                let round = case.round + 1;
                let barred = self.body.candidate(&s).is_some_and(Candidate::is_barred);
                let mut trail = vec![TrailStep::new(Some(&s), Verdict::Chosen, "review_amended", citation)];
                if barred {
                    let cite = match land {
                        Land::Nw => "§ 13 KWahlG NRW, § 69 Abs. 2 i. V. m. § 62 Nr. 5 KWahlO NRW".to_owned(),
                        Land::He => format!("{} i. V. m. § 23 Abs. 2 KWG", crate::rules::hessen::cite("Abs. 3 Satz 2")),
                    };
                    trail.push(TrailStep::new(Some(&s), Verdict::Noted, "barred_must_prove_end", cite));
                }
                self.case_mut(&r.case)?.history.installed_by_review = Some(round);
                let since = at.max(case.effective_at);
                self.install(&r.case, round, &s, case.list.clone(), barred, trail.clone(), since, false)?;
                self.announce_with(&r.case, "review", Some(&s), &trail, extra);
                Ok(())
            }
        }
    }

    /// The successor an `amended` decision names: a candidate of the list the departed stood for (§ 45 Abs. 1
    /// Satz 1 KWahlG NRW, § 34 Abs. 1 Satz 1 KWG) who holds no seat and is offered no other one.
    fn check_amended(&self, case: &Case, s: &str, holder: Option<&str>) -> Result<String, Rejection> {
        let c = self.candidate(s)?;
        if self.body.list_of(s).map(|l| l.id.as_str()) != Some(case.list.as_str()) {
            return Err(invalid(format!(
                "successor: {s:?} is not a candidate of list {:?}, for which the departed stood",
                case.list
            )));
        }
        if self.body.list_of(s).is_some_and(|l| l.kind == ListKind::Individual) || s == case.departed {
            return Err(invalid(format!("successor: {s:?} is the departed member (or his individual candidacy)")));
        }
        if holder == Some(s) {
            return Err(invalid(format!(
                "successor: {s:?} is the successor already determined in case {:?}; use outcome confirmed",
                case.id
            )));
        }
        if c.seat.is_some() {
            return Err(invalid(format!("successor: {s:?} holds a seat")));
        }
        if let Some((_, other)) = self.body.pending_successors().find(|(p, c)| *p == s && *c != case.id) {
            return Err(invalid(format!("successor: {s:?} is the pending successor of case {other:?}")));
        }
        if self.body.land() == Land::Nw && case.refused.iter().any(|r| r == s) {
            return Err(invalid(format!(
                "successor: {s:?} refused the seat in this case; a refusal cannot be withdrawn (§ 45 Abs. 6 Satz 6 KWahlG NRW)"
            )));
        }
        Ok(s.to_owned())
    }

    /// End the membership of a successor whose determination a review annulled or amended: `left`, basis
    /// `review`, dated at the decision (not before his membership began).
    fn end_by_review(&mut self, case_id: &str, holder: &str, at: DateTime<Utc>) {
        let start = self.body.candidate(holder).and_then(|c| c.seat.as_ref().map(|s| s.since));
        let effective = start.map_or(at, |d| at.max(start_of_day(d)));
        if let Some(c) = self.body.candidate_mut(holder) {
            c.seat = None;
        }
        let m =
            self.membership(case_id, holder, MembershipChange::Left, MembershipBasis::Review, effective, false, start);
        self.emit("membership.changed", &m);
    }

    /// The trail of the determination a case stands on (for the announcement of a confirming review).
    fn case_trail(&self, case: &Case) -> Vec<TrailStep> {
        match &case.state {
            CaseState::Offered(o) => o.trail.clone(),
            _ => vec![],
        }
    }
}

/// The first instant of a calendar day in Europe/Berlin.
pub fn start_of_day(day: NaiveDate) -> DateTime<Utc> {
    end_of_day(day.pred_opt().unwrap_or(day))
}

/// The place for the signature line ("Musterstadt, 02.12.2026"): the town after the postal code of the
/// returning officer's address, if it has one.
fn place_of(address: Option<&str>) -> Option<String> {
    let last = address?.rsplit(',').next()?.trim();
    let (code, town) = last.split_once(' ')?;
    (code.len() == 5 && code.chars().all(|c| c.is_ascii_digit()) && !town.trim().is_empty())
        .then(|| town.trim().to_owned())
}
