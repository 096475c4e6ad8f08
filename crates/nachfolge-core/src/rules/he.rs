//! Hessen: § 34 KWG, "Nachrücken".
//!
//! Proportional election: the next not-yet-called candidate of the departed's Wahlvorschlag with the most
//! personal votes; on equal votes the list order decides (§ 34 Abs. 1 Satz 1). Majority election: the same
//! by votes, but on equal votes the Wahlleiter draws a lot (§ 34 Abs. 1a). Excluded: left the party, waived
//! in writing, died or ineligible (§ 34 Abs. 2). A bar to membership does not pass a candidate over: he gets
//! one week to end it (§ 34 Abs. 3 Satz 2 i. V. m. § 23 Abs. 2). Exhausted: vacant, size − 1 (Abs. 1 Satz 2).

use std::cmp::Reverse;

use super::order::{barred_note, passed};
use super::{Cause, DecideError, Decision, ListOrder, Outcome, Query, Standing, VacancyReason};
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

/// The ranking of § 34 Abs. 1 Satz 1 KWG: most personal votes first; equal votes by the order of the
/// Wahlvorschlag (a candidate without a position after all with one, then as listed).
fn ranking(list: &List) -> Vec<&Candidate> {
    let mut ranking: Vec<(usize, &Candidate)> = list.candidates.iter().enumerate().collect();
    ranking.sort_by_key(|(i, c)| (Reverse(votes(c)), c.position.unwrap_or(u32::MAX), *i));
    ranking.into_iter().map(|(_, c)| c).collect()
}

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate) -> Option<(&'static str, String)> {
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
    Some(r)
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

fn votes(c: &Candidate) -> i64 {
    c.votes.unwrap_or(0)
}

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    let loc = body.locate(q.departed).ok_or_else(|| DecideError::UnknownMember(q.departed.to_owned()))?;
    let list = body.list(loc.list);
    let s = Standing::new(body, q);
    let majority = body.info().electoral_system == ElectoralSystem::Majority;
    let mut trail = Vec::new();

    // § 33 Abs. 1 Nr. 4 Halbsatz 2 KWG: after an Eingliederung § 34 does not apply — no successor, no
    // reduction of the statutory size under § 34 Abs. 1 Satz 2
    if q.cause == Cause::Merger {
        trail.push(TrailStep::new(None, Verdict::Noted, "merger_no_succession", MERGER_CITATION));
        let statutory_size = body.info().statutory_size;
        return Ok(Decision { outcome: Outcome::Vacant { reason: VacancyReason::Merger, statutory_size }, trail });
    }

    let ranking = ranking(list);

    // Why a candidate is passed over (the departed included); `None` if he can succeed.
    let passed_over = |c: &Candidate| -> Option<(&'static str, String)> {
        if c.id == q.departed {
            Some(("departed", cite("Abs. 1 Satz 1")))
        } else {
            exclusion(&s, c)
        }
    };

    // Pass over, in ranking order, everyone ahead of the first candidate who can succeed. The trail lists
    // exactly those: a candidate ranked behind the successor is not "passed over" (docs/contract.md, "The trail").
    let mut rest = ranking.into_iter();
    let mut first = None;
    for c in rest.by_ref() {
        match passed_over(c) {
            Some((reason, citation)) => trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, reason, citation)),
            None => {
                first = Some(c);
                break;
            }
        }
    }
    let Some(first) = first else {
        trail.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", cite("Abs. 1 Satz 2")));
        trail.push(TrailStep::new(None, Verdict::Noted, "statutory_size_reduced", cite("Abs. 1 Satz 2")));
        let statutory_size = body.info().statutory_size.saturating_sub(1);
        return Ok(Decision {
            outcome: Outcome::Vacant { reason: VacancyReason::ListExhausted, statutory_size },
            trail,
        });
    };
    // Only the eligible candidates with the same votes matter for ties; stop the scan there. In a majority
    // election the list order plays no part among equal votes (§ 34 Abs. 1a), so a candidate with equal votes
    // who is passed over is listed too, wherever his list position; in a proportional election he ranks
    // behind the successor (Abs. 1 Satz 1 Halbsatz 2) and is not.
    let mut tied: Vec<&Candidate> = vec![first];
    for c in rest.take_while(|c| votes(c) == votes(first)) {
        match passed_over(c) {
            None => tied.push(c),
            Some((reason, citation)) if majority => {
                trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, reason, citation))
            }
            Some(_) => {}
        }
    }

    let successor =
        |c: &Candidate| Outcome::Successor { candidate: c.id.clone(), list: list.id.clone(), barred: s.barred(c) };
    let chosen: &Candidate = if tied.len() > 1 && majority {
        // § 34 Abs. 1a: the Wahlleiter draws the lot; the worker never draws it.
        match q.lot_winner {
            None => {
                for c in &tied {
                    notes(c, &mut trail);
                    trail.push(TrailStep::new(Some(&c.id), Verdict::Tied, "equal_votes_lot", cite("Abs. 1a")));
                }
                let tied = tied.iter().map(|c| c.id.clone()).collect();
                return Ok(Decision { outcome: Outcome::LotRequired { tied }, trail });
            }
            Some(w) => {
                let winner =
                    tied.iter().find(|c| c.id == w).ok_or_else(|| DecideError::LotWinnerNotTied(w.to_owned()))?;
                for c in tied.iter().filter(|c| c.id != w) {
                    trail.push(TrailStep::new(Some(&c.id), Verdict::Tied, "lost_lot", cite("Abs. 1a")));
                }
                notes(winner, &mut trail);
                trail.push(TrailStep::new(Some(&winner.id), Verdict::Chosen, "won_lot", cite("Abs. 1a")));
                winner
            }
        }
    } else {
        notes(first, &mut trail);
        let (reason, citation) = match (majority, tied.len() > 1) {
            (false, true) => ("most_votes_list_order", cite("Abs. 1 Satz 1 Halbsatz 2")),
            (false, false) => ("most_votes", cite("Abs. 1 Satz 1")),
            (true, _) => ("most_votes", cite("Abs. 1a")),
        };
        trail.push(TrailStep::new(Some(&first.id), Verdict::Chosen, reason, citation));
        first
    };
    if s.barred(chosen) {
        trail.push(TrailStep::new(Some(&chosen.id), Verdict::Noted, "barred_must_prove_end", BAR_CITATION));
    }
    Ok(Decision { outcome: successor(chosen), trail })
}

/// The Nachrückerliste of one list (see [`super::order`]).
pub(crate) fn list_order(s: &Standing, list: &List, majority: bool) -> ListOrder {
    let mut out = ListOrder::new(&list.id);
    // the ranking of § 34 Abs. 1 Satz 1 KWG, the same as `decide` uses
    let mut eligible: Vec<&Candidate> = vec![];
    for c in ranking(list) {
        match exclusion(s, c) {
            Some((reason, citation)) => out.passed_over.push(passed(c, reason, citation)),
            None => {
                notes(c, &mut out.notes);
                barred_note(s, c, BAR_CITATION, &mut out.notes);
                out.order.push(c.id.clone());
                eligible.push(c);
            }
        }
    }
    if majority {
        // § 34 Abs. 1a: equal votes → lot
        for group in eligible.chunk_by(|a, b| votes(a) == votes(b)) {
            if group.len() > 1 {
                out.lot_groups.push(group.iter().map(|c| c.id.clone()).collect());
            }
        }
    }
    if out.order.is_empty() {
        out.notes.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", cite("Abs. 1 Satz 2")));
    }
    out
}
