//! Thüringen: § 23 ThürKWG "Nachrücker", with § 29 (Annahme der Wahl) and § 30 ThürKWG.
//!
//! Proportional election: the not elected candidates of the departed's Wahlvorschlag are Nachrücker, in the
//! order of § 22 Abs. 5 ThürKWG — by personal votes (§ 23 Abs. 2). **[decision]** the text of § 22 Abs. 5 could
//! not be read: on equal votes the worker does not choose, it asks the Wahlleiter (`lot.requested`), who
//! reports the Nachrücker as § 22 Abs. 5 decides. Majority election: the next not elected candidate with the
//! most votes, on equal votes the lot (§ 23 Abs. 3). The ThürKWG names no exclusion of its own: passed over
//! are who is already a member or called, who refused when called or waived in writing in advance
//! (**[decision]**, § 29 Satz 2), who died and who is not eligible on the reference day. Leaving or changing
//! the party has no effect. A bar (§ 23 Abs. 4 ThürKO) does not pass a candidate over: he cannot take office
//! while it lasts (§ 30 Abs. 2 ThürKWG). Nobody left: the seat stays vacant, the statutory size unchanged
//! (**[decision]**). Readings taken: docs/legal.md, "Thüringen".

use super::votes::{self, VoteLaw};
use super::{DecideError, Decision, Exclusion, ListOrder, Query, Standing};
use crate::model::{Body, Candidate, ElectoralSystem, Fact, List, WaiverForm};
use crate::trail::{TrailStep, Verdict};

/// Citation of the ThürKWG, e.g. `cite("§ 23 Abs. 3")`.
pub fn cite(part: &str) -> String {
    format!("{part} ThürKWG")
}

/// Why a barred successor must prove the end of the bar (Unvereinbarkeit, § 23 Abs. 4 ThürKO).
pub const BAR_CITATION: &str = "§ 23 Abs. 4 ThürKO i. V. m. § 30 Abs. 2 Nr. 2 ThürKWG";

/// Proportional election (§ 23 Abs. 2): equal votes are put to the Wahlleiter (see the module docs).
static PROPORTIONAL: VoteLaw = VoteLaw {
    departed: "§ 23 Abs. 2 Satz 1 ThürKWG",
    most_votes: "§ 23 Abs. 2 Satz 2 i. V. m. § 22 Abs. 5 ThürKWG",
    list_order_tie: "§ 23 Abs. 2 Satz 2 i. V. m. § 22 Abs. 5 ThürKWG",
    majority: "§ 23 Abs. 2 Satz 2 i. V. m. § 22 Abs. 5 ThürKWG",
    lot: "§ 23 Abs. 2 Satz 2 i. V. m. § 22 Abs. 5 ThürKWG",
    drawn_lot: None,
    exhausted: "§ 23 Abs. 2 Satz 1 ThürKWG",
    size_reduced: None,
    individual: None,
    bar: BAR_CITATION,
    exclusion,
    notes,
};

/// Majority election (§ 23 Abs. 3).
static MAJORITY: VoteLaw = VoteLaw {
    departed: "§ 23 Abs. 3 Satz 1 ThürKWG",
    most_votes: "§ 23 Abs. 3 Satz 1 ThürKWG",
    list_order_tie: "§ 23 Abs. 3 Satz 1 ThürKWG",
    majority: "§ 23 Abs. 3 Satz 1 ThürKWG",
    lot: "§ 23 Abs. 3 Satz 2 ThürKWG",
    drawn_lot: None,
    exhausted: "§ 23 Abs. 3 Satz 1 ThürKWG",
    size_reduced: None,
    individual: None,
    bar: BAR_CITATION,
    exclusion,
    notes,
};

fn law(body: &Body) -> &'static VoteLaw {
    match body.info().electoral_system {
        ElectoralSystem::Majority => &MAJORITY,
        ElectoralSystem::Proportional => &PROPORTIONAL,
    }
}

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
    let r = if s.seated(c) || s.former_member(c) || s.pending(c) {
        // "die nicht gewählten Bewerber": holds or held a seat, or is called to another vacancy
        ("already_called", cite("§ 23 Abs. 2 Satz 1"))
    } else if c.has_fact(|f| matches!(f, Fact::Declined { .. })) {
        // [decision] a refusal when called is final for the term (docs/legal.md)
        ("declined", cite("§ 23 Abs. 4 Halbsatz 2 i. V. m. § 29 Satz 2"))
    } else if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Written, .. })) {
        // [decision] no rule on a waiver: a written one is a refusal made in advance (§ 29 Satz 2 "durch
        // schriftliche Erklärung")
        ("waived", cite("§ 23 Abs. 4 Halbsatz 2 i. V. m. § 29 Satz 2"))
    } else if s.died(c) {
        ("died", cite("§ 23 Abs. 2 Satz 1"))
    } else if s.ineligible_now(c) {
        // he could not take office (§ 30 Abs. 1: an ineligible member loses it)
        ("ineligible", cite("§ 23 Abs. 2 Satz 1 i. V. m. § 30 Abs. 1"))
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1 })
}

/// Recorded facts without effect in Thüringen; noted in the trail.
pub(super) fn notes(c: &Candidate, trail: &mut Vec<TrailStep>) {
    let mut note =
        |reason: &str, citation: String| trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, reason, citation));
    if c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) {
        note("left_party_no_effect", cite("§ 23 Abs. 2"));
    }
    if c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) {
        note("joined_other_party_no_effect", cite("§ 23 Abs. 2"));
    }
    if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Recorded, .. })) {
        note("waiver_not_written", cite("§ 29 Satz 2"));
    }
}

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    // equal votes always go to the Wahlleiter: by lot (§ 23 Abs. 3 Satz 2) or as § 22 Abs. 5 decides
    votes::decide(body, q, law(body), true)
}

/// The Nachrückerliste of one list (see [`super::order`]); equal votes form a group for the Wahlleiter.
pub(crate) fn list_order(body: &Body, s: &Standing, list: &List) -> ListOrder {
    votes::list_order(s, list, law(body), true)
}
