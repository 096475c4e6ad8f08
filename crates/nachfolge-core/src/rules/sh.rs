//! Schleswig-Holstein: § 44 GKWG "Nachrücken", with § 37 (Erwerb der Mitgliedschaft), § 43 (Verlust des
//! Sitzes) and § 45 GKWG (Folgen des Verbots einer politischen Partei oder Wählergruppe).
//!
//! Closed lists: "so rückt die nächste Bewerberin oder der nächste Bewerber auf der Liste derjenigen politischen
//! Partei oder Wählergruppe nach, für die die oder der Ausgeschiedene bei der Wahl aufgetreten ist" (§ 44 Abs. 1)
//! — by list position, for a member who won a Wahlkreis as for a list member; the list is the one he stood for,
//! whatever party he belongs to now. Passed over: who holds a seat (a Wahlkreis winner) or held one in this term,
//! who is called to another vacancy, who refused (**[decision]**, § 37 Satz 3: irrevocable) or refused in advance
//! in writing (**[decision]**, a written waiver), who died and who is not eligible on the reference day (§ 6).
//! Leaving or changing the party has no effect: § 44 names no such exclusion. An Unvereinbarkeit (§ 31a Abs. 1
//! GO) passes nobody over, but an official or employee whose post is incompatible acquires membership only with
//! the written proof of the leave or of another post (§ 37a Abs. 1 Satz 1, Abs. 4 GKWG): the outcome is
//! `barred` and the procedure waits for the proof (`BarEffect::AwaitsProof`). No list (an Einzelbewerber) or an
//! exhausted list: "so bleibt der Sitz leer" (§ 44 Abs. 2), the statutory size unchanged (**[decision]**). A
//! party ban: the seat of a member elected on the banned party's list stays empty (§ 45 GKWG); a directly elected
//! member's Wahlkreis goes to a Nachwahl, which is not a succession and is refused. Readings taken: docs/legal.md,
//! "Schleswig-Holstein".

use super::order::passed;
use super::{
    in_list_order, Cause, DecideError, Decision, Exclusion, ListOrder, Outcome, Query, Standing, VacancyReason,
};
use crate::model::{Body, Candidate, Fact, List, ListKind, SeatVia, ValidationError, WaiverForm};
use crate::trail::{TrailStep, Verdict};

/// Citation of the GKWG, e.g. `cite("§ 44 Abs. 2")`.
pub fn cite(part: &str) -> String {
    format!("{part} GKWG")
}

/// The next candidate on the list the departed stood for.
const NEXT: &str = "§ 44 Abs. 1 GKWG";
/// No list, or the list is exhausted: the seat stays empty.
const EMPTY: &str = "§ 44 Abs. 2 GKWG";
/// A seat won on a banned party's list stays empty.
pub const PARTY_BAN_CITATION: &str = "§ 45 GKWG";

/// An Unvereinbarkeit (§ 31a Abs. 1 GO) holds up membership until the written proof of the leave or of another
/// post (§ 37a Abs. 1 Satz 1 GKWG; § 31a Abs. 3 GO covers a post taken up by a member, docs/legal.md).
pub const BAR_CITATION: &str = "§ 31a Abs. 1 GO i. V. m. § 37a Abs. 1 Satz 1 GKWG";

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
    let r = if s.seated(c) {
        // a Wahlkreis winner or a list member: already a Vertreterin or Vertreter, not a Bewerber to move up
        ("seated", cite("§ 44 Abs. 1"))
    } else if s.former_member(c) {
        // [decision] held a seat in this term: his Verzicht cannot be withdrawn (§ 43 Abs. 2 Satz 2)
        ("former_member", cite("§ 44 Abs. 1 i. V. m. § 43 Abs. 2 Satz 2"))
    } else if s.pending(c) {
        ("already_called", cite("§ 44 Abs. 1"))
    } else if c.has_fact(|f| matches!(f, Fact::Declined { .. })) {
        // [decision] a refusal cannot be withdrawn: out for the Wahlzeit
        ("declined", cite("§ 44 Abs. 1 i. V. m. § 37 Satz 3"))
    } else if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Written, .. })) {
        // [decision] a written refusal made in advance (§ 37 Satz 1: "durch schriftliche Erklärung")
        ("waived", cite("§ 44 Abs. 1 i. V. m. § 37 Satz 1 und 3"))
    } else if s.died(c) {
        ("died", cite("§ 44 Abs. 1"))
    } else if s.ineligible_now(c) {
        ("ineligible", cite("§ 44 Abs. 1 i. V. m. § 6"))
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1 })
}

/// Recorded facts without effect in Schleswig-Holstein; noted in the trail. Only called for a candidate who
/// is not passed over.
pub(super) fn notes(s: &Standing, c: &Candidate, trail: &mut Vec<TrailStep>) {
    let mut note =
        |reason: &str, citation: String| trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, reason, citation));
    if c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) {
        // the list of the party he stood for at the election decides, not his membership now
        note("left_party_no_effect", cite("§ 44 Abs. 1"));
    }
    if c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) {
        note("joined_other_party_no_effect", cite("§ 44 Abs. 1"));
    }
    if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Recorded, .. })) {
        // [decision] § 37 Satz 1 demands a written declaration
        note("waiver_not_written", cite("§ 37 Satz 1"));
    }
    if s.barred(c) {
        note("barred_must_prove_leave", BAR_CITATION.to_owned());
    }
}

fn vacant(body: &Body, reason: VacancyReason, trail: Vec<TrailStep>) -> Decision {
    // [decision] "so bleibt der Sitz leer": no rule lowers the statutory size (docs/legal.md)
    Decision { outcome: Outcome::Vacant { reason, statutory_size: body.info().statutory_size }, trail }
}

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    let loc = body.locate(q.departed).ok_or_else(|| DecideError::UnknownMember(q.departed.to_owned()))?;
    let list = body.list(loc.list);
    let departed = &list.candidates[loc.cand];
    let s = Standing::new(body, q);
    let mut trail = Vec::new();

    if let Cause::PartyBan { .. } = q.cause {
        // `list_banned: false` is refused by `validate_cause`
        if q.departed_via.or(departed.seat.as_ref().map(|s| s.via)) == Some(SeatVia::District) {
            return Err(DecideError::Cause(ValidationError::new(
                "reason",
                "party_banned: the Wahlkreis of a directly elected member of a banned party goes to a Nachwahl (§ 45 GKWG), not to a list successor",
            )));
        }
        trail.push(TrailStep::new(None, Verdict::Noted, "party_banned", PARTY_BAN_CITATION));
        return Ok(vacant(body, VacancyReason::PartyBanned, trail));
    }
    if list.kind == ListKind::Individual {
        // "weil eine Liste nicht vorhanden … ist"
        trail.push(TrailStep::new(None, Verdict::Noted, "individual_candidate", EMPTY));
        return Ok(vacant(body, VacancyReason::IndividualCandidate, trail));
    }
    for c in in_list_order(&list.candidates) {
        let excluded = if c.id == departed.id {
            Some(Exclusion { reason: "departed", citation: NEXT.to_owned() })
        } else {
            exclusion(&s, c)
        };
        match excluded {
            Some(Exclusion { reason, citation }) => {
                trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, reason, citation))
            }
            None => {
                notes(&s, c, &mut trail);
                trail.push(TrailStep::new(Some(&c.id), Verdict::Chosen, "next_on_list", NEXT));
                // an Unvereinbarkeit holds up membership until the proof (§ 37a GKWG, see the module docs)
                let outcome = Outcome::Successor {
                    candidate: c.id.clone(),
                    list: list.id.clone(),
                    barred: s.must_prove_bar_end(c),
                };
                return Ok(Decision { outcome, trail });
            }
        }
    }
    trail.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", EMPTY));
    Ok(vacant(body, VacancyReason::ListExhausted, trail))
}

/// The Nachrückerliste of one list (see [`super::order`]): its candidates in list order.
pub(crate) fn list_order(s: &Standing, list: &List) -> ListOrder {
    let mut out = ListOrder::new(&list.id);
    if list.kind == ListKind::Individual {
        out.notes.push(TrailStep::new(None, Verdict::Noted, "individual_candidate", EMPTY));
        return out;
    }
    for c in in_list_order(&list.candidates) {
        match exclusion(s, c) {
            Some(Exclusion { reason, citation }) => out.passed_over.push(passed(c, reason, citation)),
            None => {
                notes(s, c, &mut out.notes);
                out.order.push(c.id.clone());
            }
        }
    }
    if out.order.is_empty() {
        out.notes.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", EMPTY));
    }
    out
}
