//! Rheinland-Pfalz: § 45 KWG "Ersatzpersonen", with § 66 KWO.
//!
//! Proportional election: the not-yet-called candidate (nicht berufener Bewerber) of the departed's
//! Wahlvorschlag with the most personal votes; on equal votes the order of nomination on the Wahlvorschlag
//! (§ 45 Abs. 2 Satz 1–3). Majority election (§ 22 KWG): the next not-yet-called eligible person with the
//! most votes; on equal votes the Wahlleiter draws a lot (§ 45 Abs. 3). Passed over: anyone already called
//! (berufen), anyone who lost his eligibility after the election day or was not eligible without
//! interruption since the election (§ 45 Abs. 4 KWG, § 66 Abs. 1 Satz 1 KWO); **[decision]** one who refused
//! when called or waived in advance, and one who died. Leaving the party has no effect in Rheinland-Pfalz.
//! A bar (§ 5 KWG) does not pass a candidate over: he must prove its end within the week (§ 64 Abs. 2 KWO).
//! No Ersatzperson left: the seat stays vacant (§ 66 Abs. 3 Satz 2 KWO), the statutory size falls
//! (§ 29 Abs. 4 GemO). Readings taken: docs/legal.md, "Rheinland-Pfalz".

use super::votes::{self, VoteLaw};
use super::{DecideError, Decision, Exclusion, ListOrder, Query, Standing};
use crate::model::{Body, Candidate, ElectoralSystem, Fact, List};
use crate::trail::{TrailStep, Verdict};

/// Citation of § 45 KWG (Rheinland-Pfalz), e.g. `cite("Abs. 4")`.
pub fn cite(part: &str) -> String {
    format!("§ 45 {part} KWG")
}

/// Why a barred successor must prove the end of the bar (Unvereinbarkeit, § 5 KWG).
pub const BAR_CITATION: &str = "§ 5 KWG, § 66 Abs. 1 Satz 4 i. V. m. § 64 Abs. 2 KWO";

static LAW: VoteLaw = VoteLaw {
    departed: "§ 45 Abs. 2 Satz 1 KWG",
    most_votes: "§ 45 Abs. 2 Satz 2 KWG",
    list_order_tie: "§ 45 Abs. 2 Satz 3 KWG",
    majority: "§ 45 Abs. 3 Satz 1 KWG",
    lot: "§ 45 Abs. 3 Satz 2 KWG",
    drawn_lot: None,
    exhausted: "§ 66 Abs. 3 Satz 2 KWO",
    size_reduced: Some("§ 29 Abs. 4 GemO"),
    // [decision] no rule for individual candidates was found: a Wahlvorschlag with one candidate is
    // exhausted with him (docs/legal.md)
    individual: None,
    bar: BAR_CITATION,
    exclusion,
    notes,
};

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
    let r = if s.seated(c) || s.former_member(c) || s.pending(c) {
        // "die nicht berufenen Bewerber": holds or held a seat, or is called to another vacancy
        ("already_called", cite("Abs. 2 Satz 1"))
    } else if c.has_fact(|f| matches!(f, Fact::Declined { .. })) {
        // [decision] called once and refused: no longer "nicht berufen"; the refusal cannot be withdrawn
        // (§ 64 Abs. 1 Satz 2 Nr. 3 KWO)
        ("declined", cite("Abs. 2 Satz 1"))
    } else if c.has_fact(|f| matches!(f, Fact::Waived { .. })) {
        // [decision] no rule on a waiver by an Ersatzperson: a written waiver to the Wahlleiter, in any form,
        // is a refusal made in advance
        ("waived", cite("Abs. 2 Satz 1"))
    } else if s.died(c) {
        ("died", cite("Abs. 2 Satz 1"))
    } else if s.banned_party_member(c) {
        // § 46 Abs. 1 KWG: "so verlieren die Ratsmitglieder und Ersatzleute, die dieser Partei … angehört haben,
        // … ihre Mitgliedschaft oder ihre Anwartschaft" (Satz 2, 3: Ersatzorganisation, banned Verein)
        ("banned_party_member", "§ 46 Abs. 1 KWG".to_owned())
    } else if s.ineligible_now(c) {
        ("ineligible", cite("Abs. 4"))
    } else if s.ineligible_during_term(c) {
        // § 66 Abs. 1 Satz 1 KWO: eligible "seit der Wahl ununterbrochen"; § 45 Abs. 4: out for good
        ("not_continuously_eligible", format!("{} i. V. m. § 66 Abs. 1 Satz 1 KWO", cite("Abs. 4")))
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1 })
}

/// Recorded facts without effect in Rheinland-Pfalz; noted in the trail.
pub(super) fn notes(c: &Candidate, trail: &mut Vec<TrailStep>) {
    // § 45 KWG has no rule on leaving or changing the party: the candidate stays an Ersatzperson
    if c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) {
        trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, "left_party_no_effect", cite("Abs. 2")));
    }
    if c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) {
        trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, "joined_other_party_no_effect", cite("Abs. 2")));
    }
}

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    votes::decide(body, q, &LAW, body.info().electoral_system == ElectoralSystem::Majority)
}

/// The Nachrückerliste of one list (see [`super::order`]).
pub(crate) fn list_order(s: &Standing, list: &List, majority: bool) -> ListOrder {
    votes::list_order(s, list, &LAW, majority)
}
