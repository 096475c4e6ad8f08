//! Hessen: § 34 KWG, "Nachrücken".
//!
//! Proportional election: the next not-yet-called candidate of the departed's Wahlvorschlag with the most
//! personal votes; on equal votes the list order decides (§ 34 Abs. 1 Satz 1). Majority election: the same
//! by votes, but on equal votes the Wahlleiter draws a lot (§ 34 Abs. 1a). Excluded: left the party, waived
//! in writing, died or ineligible (§ 34 Abs. 2). A bar to membership does not pass a candidate over: he gets
//! one week to end it (§ 34 Abs. 3 Satz 2 i. V. m. § 23 Abs. 2). Exhausted: vacant, size − 1 (Abs. 1 Satz 2).

use super::votes::{self, VoteLaw};
use super::{Cause, DecideError, Decision, Exclusion, ListOrder, Outcome, Query, Standing, VacancyReason};
use crate::model::{Body, Candidate, ElectoralSystem, Fact, List};
use crate::trail::{TrailStep, Verdict};

/// Citation of § 34 KWG (Hessen), e.g. `cite("Abs. 2 Nr. 1")`.
pub fn cite(part: &str) -> String {
    format!("§ 34 {part} KWG")
}

/// No succession after an Eingliederung.
pub const MERGER_CITATION: &str = "§ 33 Abs. 1 Nr. 4 Halbsatz 2 KWG";

/// Why a barred successor must prove the end of the bar (the Hinderungsgrund).
pub const BAR_CITATION: &str = "§ 34 Abs. 3 Satz 2 KWG i. V. m. § 23 Abs. 2 KWG";

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
    let r = if s.seated(c) || s.former_member(c) || s.pending(c) {
        // "der nächste noch nicht berufene Bewerber": holds or held a seat, or is offered another vacancy
        ("already_called", cite("Abs. 1 Satz 1"))
    } else if c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) {
        ("left_party", cite("Abs. 2 Nr. 1"))
    } else if c.has_fact(|f| matches!(f, Fact::Waived { .. })) {
        // in writing to the Wahlleiter; a waiver recorded by him counts too; irrevocable
        ("waived", cite("Abs. 2 Nr. 2"))
    } else if s.died(c) {
        ("died", cite("Abs. 2 Nr. 3"))
    } else if s.ineligible_now(c) {
        ("ineligible", format!("{} i. V. m. § 33 Abs. 1 Nr. 2 KWG", cite("Abs. 2 Nr. 3")))
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1 })
}

/// Recorded facts without effect in Hessen; noted in the trail.
pub(super) fn notes(c: &Candidate, trail: &mut Vec<TrailStep>) {
    if c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) {
        // joining another party without leaving is no reason in Hessen
        trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, "joined_other_party_no_effect", cite("Abs. 2 Nr. 1")));
    }
    if c.has_fact(|f| matches!(f, Fact::Declined { .. })) {
        trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, "declined_no_effect", cite("Abs. 2")));
    }
}

/// Hessen's vote-ranking law (see [`super::votes`]).
static LAW: VoteLaw = VoteLaw {
    departed: "§ 34 Abs. 1 Satz 1 KWG",
    most_votes: "§ 34 Abs. 1 Satz 1 KWG",
    list_order_tie: "§ 34 Abs. 1 Satz 1 Halbsatz 2 KWG",
    majority: "§ 34 Abs. 1a KWG",
    lot: "§ 34 Abs. 1a KWG",
    drawn_lot: None,
    exhausted: "§ 34 Abs. 1 Satz 2 KWG",
    size_reduced: Some("§ 34 Abs. 1 Satz 2 KWG"),
    // an individual list is treated as a list: exhausted with its candidate (docs/legal.md)
    individual: None,
    bar: BAR_CITATION,
    exclusion,
    notes,
};

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    // § 33 Abs. 1 Nr. 4 Halbsatz 2 KWG: after an Eingliederung § 34 does not apply — no successor, no
    // reduction of the statutory size under § 34 Abs. 1 Satz 2
    if q.cause == Cause::Merger {
        let trail = vec![TrailStep::new(None, Verdict::Noted, "merger_no_succession", MERGER_CITATION)];
        let statutory_size = body.info().statutory_size;
        return Ok(Decision { outcome: Outcome::Vacant { reason: VacancyReason::Merger, statutory_size }, trail });
    }
    votes::decide(body, q, &LAW, body.info().electoral_system == ElectoralSystem::Majority)
}

/// The Nachrückerliste of one list (see [`super::order`]).
pub(crate) fn list_order(s: &Standing, list: &List, majority: bool) -> ListOrder {
    votes::list_order(s, list, &LAW, majority)
}
