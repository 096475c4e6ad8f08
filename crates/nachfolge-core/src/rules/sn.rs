//! Sachsen: § 34 Abs. 2 SächsGemO "Nachrücken", with § 21 Abs. 2 and § 23 KomWG (the order of the
//! Ersatzpersonen), §§ 18, 31, 32 SächsGemO.
//!
//! Proportional election: "der als nächste Ersatzperson festgestellte Bewerber" of the departed's Wahlvorschlag
//! moves up (§ 34 Abs. 2 SächsGemO); the Ersatzpersonen rank by votes, equal votes by the order of nomination
//! (§ 21 Abs. 2 Satz 2, 3 KomWG). Majority election: all not elected persons by votes; equal votes were decided
//! by the lot the chair of the Gemeindewahlausschuss drew at the result (§ 23 Satz 3 KomWG) — the worker asks
//! the Wahlleiter for it (`lot.requested`). Passed over: who holds or held a seat or is named for another
//! vacancy, who died, who is not wählbar (§ 31), who has a Hinderungsgrund (§ 32 Abs. 1, 3), whose refusal the
//! council accepted for a wichtiger Grund (§ 18 Abs. 1, 2: recorded as `declined`). Leaving the party and a
//! waiver have no effect. Nobody left: the seat stays vacant, the statutory size unchanged; below two thirds of
//! it an Ergänzungswahl is due. Readings taken: docs/legal.md, "Sachsen".

use super::votes::{self, VoteLaw};
use super::{DecideError, Decision, Exclusion, ListOrder, Outcome, Query, Standing};
use crate::model::{Body, Candidate, ElectoralSystem, Fact, List};
use crate::trail::{TrailStep, Verdict};

/// Citation of the SächsGemO, e.g. `cite("§ 34 Abs. 2")`.
pub fn cite(part: &str) -> String {
    format!("{part} SächsGemO")
}

/// The council finds whether a Hinderungsgrund exists (§ 32 Abs. 3 SächsGemO); one found passes him over.
pub const BAR_CITATION: &str = "§ 32 Abs. 1, 3 SächsGemO";

/// The Ergänzungswahl when the council falls below two thirds of its statutory size (**[verify]** the Absatz).
pub const SUPPLEMENTARY_ELECTION: &str = "§ 34 SächsGemO (Ergänzungswahl)";

static PROPORTIONAL: VoteLaw = VoteLaw {
    departed: "§ 34 Abs. 2 SächsGemO",
    most_votes: "§ 34 Abs. 2 SächsGemO i. V. m. § 21 Abs. 2 Satz 2 KomWG",
    list_order_tie: "§ 21 Abs. 2 Satz 3 KomWG",
    majority: "§ 34 Abs. 2 SächsGemO i. V. m. § 23 Satz 2 KomWG",
    lot: "§ 23 Satz 3 KomWG",
    drawn_lot: None,
    exhausted: "§ 34 Abs. 2 SächsGemO",
    size_reduced: None,
    individual: None,
    bar: BAR_CITATION,
    exclusion,
    notes,
};

static MAJORITY: VoteLaw = VoteLaw {
    departed: "§ 34 Abs. 2 SächsGemO",
    most_votes: "§ 34 Abs. 2 SächsGemO i. V. m. § 23 Satz 2 KomWG",
    list_order_tie: "§ 23 Satz 3 KomWG",
    majority: "§ 34 Abs. 2 SächsGemO i. V. m. § 23 Satz 2 KomWG",
    lot: "§ 23 Satz 3 KomWG",
    drawn_lot: Some("§ 23 Satz 3 KomWG"),
    exhausted: "§ 34 Abs. 2 SächsGemO",
    size_reduced: None,
    individual: None,
    bar: BAR_CITATION,
    exclusion,
    notes,
};

fn majority(body: &Body) -> bool {
    body.info().electoral_system == ElectoralSystem::Majority
}

fn law(body: &Body) -> &'static VoteLaw {
    if majority(body) {
        &MAJORITY
    } else {
        &PROPORTIONAL
    }
}

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
    let r = if s.seated(c) || s.former_member(c) || s.pending(c) {
        ("already_called", cite("§ 34 Abs. 2"))
    } else if s.died(c) {
        ("died", cite("§ 34 Abs. 2"))
    } else if s.ineligible_now(c) {
        ("ineligible", cite("§ 34 Abs. 2 i. V. m. § 31"))
    } else if s.barred(c) {
        ("barred_hinderungsgrund", BAR_CITATION.to_owned())
    } else if c.has_fact(|f| matches!(f, Fact::Declined { .. })) {
        ("refusal_accepted", cite("§ 18 Abs. 1, 2"))
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1 })
}

/// Recorded facts without effect in Sachsen; noted in the trail.
pub(super) fn notes(c: &Candidate, trail: &mut Vec<TrailStep>) {
    let mut note =
        |reason: &str, citation: String| trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, reason, citation));
    if c.has_fact(|f| matches!(f, Fact::LeftParty { .. } | Fact::JoinedOtherParty { .. })) {
        note("left_party_no_effect", cite("§ 34 Abs. 2"));
    }
    if c.has_fact(|f| matches!(f, Fact::Waived { .. })) {
        // a duty to serve (§ 17 Abs. 1); only the council frees him (§ 18 Abs. 2)
        note("waiver_no_effect", cite("§ 18 Abs. 2"));
    }
}

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    let mut decision = votes::decide(body, q, law(body), majority(body))?;
    if matches!(decision.outcome, Outcome::Vacant { .. }) && super::bw::below_two_thirds(body, q.departed) {
        let step = TrailStep::new(None, Verdict::Noted, "supplementary_election_required", SUPPLEMENTARY_ELECTION);
        decision.trail.push(step);
    }
    Ok(decision)
}

/// The Nachrückerliste of one list (see [`super::order`]).
pub(crate) fn list_order(body: &Body, s: &Standing, list: &List) -> ListOrder {
    votes::list_order(s, list, law(body), majority(body))
}
