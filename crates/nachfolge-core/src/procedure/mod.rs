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
//! Baden-Württemberg and Sachsen (§ 31 Abs. 2 GemO, § 34 Abs. 2 SächsGemO, `Acceptance::ByLaw`): the next
//! Ersatzperson moves up by law; the
//! council resolves that no Hinderungsgrund and no accepted wichtiger Grund stands in the way
//! (`determination.confirmed`), and he is a member from its resolution; nothing is announced.
//!
//! No I/O and no clock reads happen here: the caller passes `now`, and gets [`Effect`]s back.

mod announce;
mod declarations;
mod determination;
mod facts;
/// What the end of a period does: one decision of the Land's law, kept with it ([`crate::land::lapse`]).
pub use crate::land::lapse;
mod letter;
mod review;
mod service;
mod state;

use determination::Installation;
use lapse::Lapse;
use state::pending_successors;
pub use state::{
    AnnouncementRecord, Case, CaseHistory, CaseState, Council, DeemedRecord, HeldDeclaration, LotRecord, Offer,
    Proposal, ReviewRecord, SeatMove, ServiceRecord,
};

use std::collections::BTreeMap;

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::calendar::{berlin, local_date, start_of_day};
use crate::deadline::{
    acceptance_deadline, objection_period_in, Deadline, ObjectionPeriod, PeriodEnd, PeriodRules, ServiceBasis,
};
use crate::land::{Acceptance, BarEffect, LandLaw, LocalHolidays, Procedure, Reservation};
use crate::messages::*;
use crate::model::{
    AnnouncementTime, Body, BodyId, Candidate, CandidateId, CaseId, Declination, DeterminationMode, Fact, ListKind,
    Readings, Seat, SeatVia, Snapshot,
};
use crate::rules::{Cause, Outcome, Query, VacancyReason};
use crate::texts::{self, AnnouncementKind, CaseFacts, Detail, Notice, ReviewFacts, Stage};
pub use crate::texts::{Announcement, MailKind, MailRequest};
use crate::trail::{TrailStep, Verdict};

/// Settings of the procedure that a deployment chooses: the deployment-wide defaults of readings a body may
/// set itself in its snapshot (`body.readings`, which wins; docs/legal.md, "Per-body readings").
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Default of `readings.period_end`: `true` reads both the one-week period and the objection period as
    /// fixed (`rules.fixed_end_date`).
    pub fixed_end_date: bool,
    /// Default of `readings.announcement` (NRW, § 45 Abs. 6 Satz 7): announce at the determination.
    pub announce_at_determination: bool,
    /// Default of `readings.deadline_grace_hours`: delay between the end of a period and acting on it (the
    /// timer's due time); the legal effect is dated at the end of the period. Declarations received before
    /// the end still count meanwhile.
    pub deadline_grace: chrono::Duration,
}

/// A command for one body.
#[derive(Debug, Clone)]
pub enum Command {
    Inbound(Inbound),
    /// The mail sender handed an e-mail of `kind` to the SMTP server. Only the determination's notification
    /// counts (`successor.notified`); the result of any other kind changes nothing.
    NotificationSent {
        case: CaseId,
        round: u32,
        kind: MailKind,
        message_id: String,
        sent_at: DateTime<Utc>,
    },
    /// No e-mail address, or a permanent SMTP failure, for an e-mail of `kind` (as for `NotificationSent`).
    NotificationFailed {
        case: CaseId,
        round: u32,
        kind: MailKind,
        reason: String,
    },
    /// The period of round `round` ended ([`Timer::Deadline`]).
    DeadlineExpired {
        case: CaseId,
        round: u32,
    },
    /// The objection period of the case's `n`th announcement ended ([`Timer::Objection`]).
    ObjectionPeriodEnded {
        case: CaseId,
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
    /// A fault of the worker, not of the input (an event that cannot be serialised): dead-letter it with an
    /// internal-error reason.
    #[error("internal error: {0}")]
    Internal(String),
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
    /// (Re)schedule a durable timer; when it is due the shell applies [`Timer::command`].
    Schedule { timer: Timer, due_at: DateTime<Utc> },
    /// Cancel a timer.
    Cancel { timer: Timer },
}

/// A durable timer the procedure asks for. The shell stores it by [`Timer::key`] with its [`Timer::kind`]
/// and [`Timer::number`], and rebuilds it with [`Timer::from_parts`]: it never builds or parses a key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Timer {
    /// The end of round `round`'s period: the NRW acceptance week, a barred successor's proof week.
    Deadline { case: CaseId, round: u32 },
    /// The end of the objection period of the case's `n`th announcement.
    Objection { case: CaseId, n: u32 },
}

impl Timer {
    pub fn deadline(case: &str, round: u32) -> Timer {
        Timer::Deadline { case: CaseId::from(case), round }
    }
    pub fn objection(case: &str, n: u32) -> Timer {
        Timer::Objection { case: CaseId::from(case), n }
    }
    /// Unique per timer: `{case}#{round}`, `{case}#objection#{n}`. Scheduling a key again moves the timer.
    pub fn key(&self) -> String {
        match self {
            Timer::Deadline { case, round } => format!("{case}#{round}"),
            Timer::Objection { case, n } => format!("{case}#objection#{n}"),
        }
    }
    pub fn case(&self) -> &str {
        match self {
            Timer::Deadline { case, .. } | Timer::Objection { case, .. } => case,
        }
    }
    /// `deadline` or `objection`.
    pub fn kind(&self) -> &'static str {
        match self {
            Timer::Deadline { .. } => "deadline",
            Timer::Objection { .. } => "objection",
        }
    }
    /// The round of a deadline, the announcement of an objection period.
    pub fn number(&self) -> u32 {
        match self {
            Timer::Deadline { round, .. } => *round,
            Timer::Objection { n, .. } => *n,
        }
    }
    /// The timer a stored kind, case and number stand for; `None` for an unknown kind.
    pub fn from_parts(kind: &str, case: &str, number: u32) -> Option<Timer> {
        match kind {
            "deadline" => Some(Timer::deadline(case, number)),
            "objection" => Some(Timer::objection(case, number)),
            _ => None,
        }
    }
    /// The command the procedure applies when the timer is due.
    pub fn command(&self) -> Command {
        match self.clone() {
            Timer::Deadline { case, round } => Command::DeadlineExpired { case, round },
            Timer::Objection { case, n } => Command::ObjectionPeriodEnded { case, n },
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Entry points

/// `election.registered`: create or replace a body. Replacing is refused while a case is open.
pub fn register(existing: Option<&Council>, snapshot: Snapshot) -> Result<(Council, Vec<Effect>), Rejection> {
    if let Some(old) = existing {
        if old.has_open_case() {
            return Err(invalid(format!(
                "body.id: body {:?} has an open succession case; replacing it is refused until the case is closed",
                old.id()
            )));
        }
    }
    let body = Body::from_snapshot(snapshot).map_err(|e| invalid(e.to_string()))?;
    // the courts and authorities the Rechtsbehelfsbelehrungen name, with their seats (§ 58 Abs. 1 VwGO)
    crate::land::validate_remedy_venues(body.info()).map_err(|e| invalid(e.to_string()))?;
    let mut council = Council::new(body);
    if let Some(old) = existing {
        // keep the case history and the sequence, so case ids stay unique
        council.cases = old.cases.clone();
        council.case_seq = old.case_seq;
    }
    let body = &council.body;
    let data = BodyRegistered {
        body: body.id().into(),
        lists: body.snapshot.lists.len(),
        candidates: body.candidate_count(),
        statutory_size: body.info().statutory_size,
    };
    let effects = vec![publish(&data)?];
    Ok((council, effects))
}

/// Apply a command to a body at `now`. On `Err`, the body must be discarded (the caller rolls back).
pub fn handle(
    council: &mut Council,
    cmd: Command,
    now: DateTime<Utc>,
    settings: &Settings,
) -> Result<Vec<Effect>, Rejection> {
    let Council { body, cases, case_seq } = council;
    let law = body.land().law();
    let mut m = Machine { law, body, cases, case_seq, now, settings, effects: Vec::new() };
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
        Command::Inbound(Inbound::DeterminationConfirmed(c)) => m.confirmed(c)?,
        Command::NotificationSent { case, round, kind, message_id, sent_at } => {
            m.notified(&case, round, kind, message_id, sent_at)?
        }
        Command::NotificationFailed { case, round, kind, reason } => {
            m.notification_failed(&case, round, kind, reason)?
        }
        Command::DeadlineExpired { case, round } => m.deadline_expired(&case, round)?,
        Command::ObjectionPeriodEnded { case, n } => m.objection_ended(&case, n)?,
    }
    Ok(m.effects)
}

/// Check a vacancy against the body (also used by `nachfolge decide`): the member is known and holds a
/// seat, and the body's Land has a rule for the reason (`party_banned` with `list_banned`: NRW; `merger`:
/// Hessen). Returns the departed's seat and the cause the rules are asked with.
pub fn check_vacancy(body: &Body, v: &VacancyReported) -> Result<(Seat, Cause), Rejection> {
    if v.body != body.id() {
        return Err(invalid(format!("body: vacancy is for body {:?}, the election is for {:?}", v.body, body.id())));
    }
    if v.reason == DepartureReason::MovedUp {
        return Err(invalid(
            "reason: moved_up is not reported: the worker opens that case itself when the holder of a weiterer Sitz moves up into his Wohnbezirk's seat (§ 31 Abs. 2 Satz 2 GemO) or the holder of a Kreistag's Ausgleichssitz into his Wahlkreis's seat (§ 25 Abs. 2 Satz 2 LKrO)",
        ));
    }
    let cause = Cause::of(v.reason, v.list_banned).map_err(|e| invalid(e.to_string()))?;
    body.land().law().validate_cause(cause).map_err(|e| invalid(e.to_string()))?;
    let c = body
        .candidate(&v.member)
        .ok_or_else(|| Rejection::Unknown(format!("member: unknown candidate {:?}", v.member)))?;
    let seat = c.seat.clone().ok_or_else(|| invalid(format!("member: candidate {:?} holds no seat", v.member)))?;
    Ok((seat, cause))
}

/// Record a checked vacancy on the departed as the worker does when it opens the case, and as `nachfolge decide`
/// does before it asks the rules: the seat is free, and the day it fell vacant (the vacancy's `effective_at`,
/// its day in Europe/Berlin) is his `former_member` fact — or `declined` (`of: election`) for an elected person
/// who declined the election, who never was a member — and `died` for a death. That day, not the reference time,
/// is what "before the seat fell vacant" is measured against (§ 44 Abs. 2 NKWG, § 47 Abs. 1 Satz 2 KWG LSA,
/// § 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V, § 60 Abs. 4 BbgKWahlG; `rules::Standing::vacated`).
pub fn record_departure(body: &mut Body, v: &VacancyReported) {
    let left_on = local_date(v.effective_at.with_timezone(&Utc));
    if let Some(c) = body.candidate_mut(&v.member) {
        c.seat = None;
        c.facts.push(match v.reason {
            // an elected candidate who declines never was a member
            DepartureReason::Declined => Fact::Declined { on: left_on, of: Declination::Election },
            _ => Fact::FormerMember { on: left_on },
        });
        if v.reason == DepartureReason::Died {
            c.facts.push(Fact::Died { on: left_on });
        }
    }
}

fn publish<T: Event>(data: &T) -> Result<Effect, Rejection> {
    let event_type = T::TYPE;
    // the contract types serialise infallibly (no maps with non-string keys); if one ever does not, the
    // command fails loudly instead of publishing `data: null`
    let data = serde_json::to_value(data)
        .map_err(|e| Rejection::Internal(format!("{event_type}: the event cannot be serialised: {e}")))?;
    Ok(Effect::Publish { event_type, data })
}

// ---------------------------------------------------------------------------------------------------------
// The machine

struct Machine<'a> {
    /// The law of the council's Land.
    law: &'static dyn LandLaw,
    body: &'a mut Body,
    cases: &'a mut BTreeMap<CaseId, Case>,
    case_seq: &'a mut u32,
    now: DateTime<Utc>,
    settings: &'a Settings,
    effects: Vec<Effect>,
}

impl Machine<'_> {
    fn emit<T: Event>(&mut self, data: &T) -> Result<(), Rejection> {
        self.effects.push(publish(data)?);
        Ok(())
    }

    /// The procedure of the council's Land for its kind (`body.kind`).
    fn procedure(&self) -> &'static Procedure {
        self.law.procedure(self.body.info().kind)
    }

    /// The body's readings (`body.readings`).
    fn readings(&self) -> Readings {
        self.body.info().readings
    }

    /// How periods end and when a registered letter counts as served: the body's readings, else the
    /// deployment's setting, else the default.
    fn period_rules(&self) -> PeriodRules {
        let r = self.readings();
        let deployment = if self.settings.fixed_end_date { PeriodEnd::Fixed } else { PeriodEnd::Extended };
        let period_end = match self.law.period_end_open() {
            true => r.period_end.unwrap_or(deployment),
            false => PeriodEnd::Extended,
        };
        let local = LocalHolidays::of(self.body.land(), &self.body.info().local_holidays);
        PeriodRules { period_end, fiction_day: r.fiction_day.unwrap_or_default(), local }
    }

    /// NRW: the determination is announced at once (§ 45 Abs. 6 Satz 7 KWahlG NRW, `readings.announcement`).
    fn announce_at_determination(&self) -> bool {
        match self.readings().announcement {
            Some(a) => a == AnnouncementTime::AtDetermination,
            None => self.settings.announce_at_determination,
        }
    }

    /// Delay between the end of a period and acting on it (`readings.deadline_grace_hours`).
    fn grace(&self) -> chrono::Duration {
        match self.readings().deadline_grace_hours {
            Some(h) => chrono::Duration::hours(i64::from(h)),
            None => self.settings.deadline_grace,
        }
    }

    /// The successor becomes a member only by declaring (NRW), not with the determination (Hessen).
    fn by_declaration(&self) -> bool {
        self.procedure().acceptance.by_declaration()
    }

    /// The council resolves on each named successor before he becomes a member (`Acceptance::ByLaw` with
    /// `council_determines`: Baden-Württemberg § 29 Abs. 5, § 16 Abs. 2 GemO).
    fn council_determines(&self) -> bool {
        matches!(self.procedure().acceptance, Acceptance::ByLaw { council_determines: true, .. })
    }

    /// The Land's law announces nothing (`Acceptance::ByLaw` with `announced: false`).
    fn unannounced(&self) -> bool {
        matches!(self.procedure().acceptance, Acceptance::ByLaw { announced: false, .. })
    }

    fn candidate(&self, id: &str) -> Result<&Candidate, Rejection> {
        self.body.candidate(id).ok_or_else(|| Rejection::Unknown(format!("candidate: unknown candidate {id:?}")))
    }

    fn case(&self, id: &str) -> Result<&Case, Rejection> {
        self.cases.get(id).ok_or_else(|| Rejection::Unknown(format!("case: unknown case {id:?}")))
    }

    fn case_mut(&mut self, id: &str) -> Result<&mut Case, Rejection> {
        self.cases.get_mut(id).ok_or_else(|| Rejection::Unknown(format!("case: unknown case {id:?}")))
    }

    fn offer_mut(&mut self, case: &str) -> Option<&mut Offer> {
        match &mut self.cases.get_mut(case)?.state {
            CaseState::Offered(ref mut o) => Some(o),
            _ => None,
        }
    }

    fn person(&self, id: &str) -> PersonRef {
        let name = self.body.candidate(id).map(Candidate::full_name).unwrap_or_default();
        let list = self.body.list_of(id).map(|l| l.id.clone());
        PersonRef { id: id.into(), name, list }
    }
}
