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
//! (§ 29 Abs. 4 GemO). The Bezirkstag des Bezirksverbands Pfalz (closed lists, § 56 KWG): the Nachfolger named
//! for the departed, else the next not yet called Bewerber ([`decide_bezirkstag`]). A seat lost through a party ban
//! (§ 46 Abs. 1 KWG) is left to the Wahlleiter ([`PARTY_BAN_SEAT`]). Readings taken:
//! docs/legal.md, "Rheinland-Pfalz" and "Point 10: Bezirkstage".

use super::votes::{self, VoteLaw};
use super::{left_to_returning_officer, Cause, DecideError, Decision, Exclusion, ListOrder, Query, Standing};
use crate::model::{Body, BodyKind, Candidate, ElectoralSystem, Fact, List};
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

/// A seat lost through a party or Verein ban: § 46 Abs. 1 KWG ends the Mitgliedschaft ("verlieren die
/// Ratsmitglieder … ihre Mitgliedschaft"); what then becomes of the seat is said after Abs. 1, which was not read.
/// **[decision]** The worker records the loss and leaves the seat to the Wahlleiter (`returning_officer_decides`):
/// nobody is named, nothing is announced, the statutory size is unchanged (docs/legal.md, "Party ban:
/// Mecklenburg-Vorpommern, Rheinland-Pfalz, Brandenburg"). One place to change once § 46 Abs. 2 ff. is read.
pub const PARTY_BAN_SEAT: &str = "§ 46 Abs. 1 KWG";

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    if let Cause::PartyBan { .. } = q.cause {
        let mut trail = vec![];
        let outcome =
            left_to_returning_officer(body, &mut trail, "party_ban_returning_officer_decides", PARTY_BAN_SEAT);
        return Ok(Decision { outcome, trail });
    }
    if body.info().kind == BodyKind::Bezirkstag {
        return decide_bezirkstag(body, q);
    }
    votes::decide(body, q, &LAW, body.info().electoral_system == ElectoralSystem::Majority)
}

/// The Nachrückerliste of one list (see [`super::order`]).
pub(crate) fn list_order(s: &Standing, list: &List, majority: bool) -> ListOrder {
    votes::list_order(s, list, &LAW, majority)
}

// ---------------------------------------------------------------------------------------------------------
// Bezirkstag des Bezirksverbands Pfalz (`body.kind = bezirkstag`; docs/legal.md, "Point 10: Bezirkstage")

/// The designated Nachfolger is called (§ 56 Abs. 1 Satz 1 Nr. 6 Halbsatz 1 KWG, § 66 Abs. 2 Satz 1 KWO).
pub const BEZIRKSTAG_DESIGNATED: &str = "§ 56 Abs. 1 Satz 1 Nr. 6 KWG, § 66 Abs. 2 Satz 1 KWO";

/// No Nachfolger named, or he left before or leaves now: the next not yet called Bewerber (§ 56 Abs. 1 Satz 1
/// Nr. 6 KWG, § 66 Abs. 2 Satz 2 KWO) in the order of nomination (Nr. 2: closed lists).
pub const BEZIRKSTAG_NEXT: &str = "§ 56 Abs. 1 Satz 1 Nr. 2, 6 KWG, § 66 Abs. 2 Satz 2 KWO";

/// No Ersatzperson: the Wahlleiter announces it (§ 66 Abs. 3 Satz 2 KWO).
const BEZIRKSTAG_EXHAUSTED: &str = "§ 66 Abs. 3 Satz 2 KWO";

/// The Nachfolger named for `member` on his Wahlvorschlag (`substitute_for`), if any.
fn designated<'b>(list: &'b List, member: &str) -> Option<&'b Candidate> {
    list.candidates.iter().find(|c| c.substitute_for.as_deref() == Some(member))
}

/// The Bewerber of a closed list in the order of nomination (a Nachfolger named beside a Bewerber, without a
/// position, is no Bewerber).
fn bewerber(list: &List) -> Vec<&Candidate> {
    super::in_list_order(&list.candidates)
}

/// Who succeeds `q.departed` in the Bezirkstag Pfalz: his designated Nachfolger, else the next not yet called
/// Bewerber of his Wahlvorschlag; the exclusions of § 45 KWG apply (§ 56 Abs. 1 KWG excepts only the
/// personalised Verhältniswahl). **[decision]** Nobody left: the seat stays vacant, the statutory size is
/// kept (the Bezirksordnung's rule on it was not read).
pub(crate) fn decide_bezirkstag(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    let loc = body.locate(q.departed).ok_or_else(|| DecideError::UnknownMember(q.departed.to_owned()))?;
    let list = body.list(loc.list);
    let s = Standing::new(body, q);
    let mut trail = vec![TrailStep::new(Some(q.departed), Verdict::Skipped, "departed", cite("Abs. 2 Satz 1"))];
    let successor = |c: &Candidate| super::Outcome::Successor {
        candidate: c.id.clone(),
        list: list.id.clone(),
        barred: s.must_prove_bar_end(c),
    };
    let named = designated(list, q.departed);
    if let Some(c) = named {
        match exclusion(&s, c) {
            None => {
                notes(c, &mut trail);
                trail.push(TrailStep::new(Some(&c.id), Verdict::Chosen, "designated_successor", BEZIRKSTAG_DESIGNATED));
                super::order::barred_note(&s, c, BAR_CITATION, &mut trail);
                return Ok(Decision { outcome: successor(c), trail });
            }
            Some(Exclusion { reason, citation }) => {
                trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, reason, citation))
            }
        }
    }
    for c in bewerber(list) {
        if c.id == q.departed || named.is_some_and(|n| n.id == c.id) {
            continue;
        }
        match exclusion(&s, c) {
            Some(Exclusion { reason, citation }) => {
                trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, reason, citation))
            }
            None => {
                notes(c, &mut trail);
                trail.push(TrailStep::new(Some(&c.id), Verdict::Chosen, "next_on_list", BEZIRKSTAG_NEXT));
                super::order::barred_note(&s, c, BAR_CITATION, &mut trail);
                return Ok(Decision { outcome: successor(c), trail });
            }
        }
    }
    trail.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", BEZIRKSTAG_EXHAUSTED));
    let statutory_size = body.info().statutory_size;
    Ok(Decision {
        outcome: super::Outcome::Vacant { reason: super::VacancyReason::ListExhausted, statutory_size },
        trail,
    })
}

/// The Nachrückerliste of one list of the Bezirkstag Pfalz: the Bewerber in the order of nomination, and each
/// designated Nachfolger ahead of them for the member he is named for (`substitutes`).
pub(crate) fn list_order_bezirkstag(s: &Standing, list: &List) -> ListOrder {
    let mut out = ListOrder::new(&list.id);
    for c in bewerber(list) {
        match exclusion(s, c) {
            Some(Exclusion { reason, citation }) => out.passed_over.push(super::order::passed(c, reason, citation)),
            None => {
                notes(c, &mut out.notes);
                super::order::barred_note(s, c, BAR_CITATION, &mut out.notes);
                out.order.push(c.id.clone());
            }
        }
    }
    for c in list.candidates.iter().filter(|c| c.substitute_for.is_some()) {
        let Some(member) = c.substitute_for.as_deref() else { continue };
        match exclusion(s, c) {
            Some(Exclusion { reason, citation }) if c.position.is_none() => {
                out.passed_over.push(super::order::passed(c, reason, citation))
            }
            Some(_) => {}
            None => out.substitutes.push(super::SubstitutePriority {
                candidate: c.id.clone(),
                substitute_for: member.to_owned(),
                citation: BEZIRKSTAG_DESIGNATED.to_owned(),
            }),
        }
    }
    if out.order.is_empty() {
        out.notes.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", BEZIRKSTAG_EXHAUSTED));
    }
    out
}
