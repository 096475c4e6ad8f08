//! Succession by personal votes: the one implementation of the Länder that rank a Wahlvorschlag's
//! candidates by the votes they received (Hessen § 34 KWG, Rheinland-Pfalz § 45 KWG).
//!
//! Proportional election: the not-yet-called candidate of the departed's Wahlvorschlag with the most
//! personal votes; on equal votes the order of the Wahlvorschlag decides; candidates without votes follow
//! in list order. Majority election (where the Land has one): the same by votes, but on equal votes the
//! Wahlleiter draws a lot. A Land brings its citations, its exclusions and the facts it notes without
//! effect ([`VoteLaw`]); what a Land does before the ranking (a Hessen merger) stays in its own module.

use std::cmp::Reverse;

use super::areas;
use super::order::{barred_note, passed};
use super::{DecideError, Decision, Exclusion, ListOrder, Outcome, Query, Standing, VacancyReason};
use crate::model::{Body, Candidate, List, ListKind};
use crate::trail::{TrailStep, Verdict};

/// One Land's vote-ranking law: its citations, exclusions and notes.
pub(crate) struct VoteLaw {
    /// The departed himself is not his own successor.
    pub departed: &'static str,
    /// Chosen for the most personal votes (proportional election).
    pub most_votes: &'static str,
    /// Chosen among equal votes by the order of the Wahlvorschlag (proportional election).
    pub list_order_tie: &'static str,
    /// Chosen for the most votes in a majority election.
    pub majority: &'static str,
    /// Equal votes in a majority election: the Wahlleiter draws the lot.
    pub lot: &'static str,
    /// Where the lot on equal votes was drawn when the result was determined, its citation: the candidates'
    /// `lot_rank` (Rang nach dem bei der Feststellung des Wahlergebnisses gezogenen Los) decides a tie in which
    /// every candidate has one, and no lot is asked for. `None`: the Land's lot is drawn at the succession
    /// (validation refuses `lot_rank` there).
    pub drawn_lot: Option<&'static str>,
    /// Nobody left on the Wahlvorschlag.
    pub exhausted: &'static str,
    /// The statutory size falls when a seat stays vacant; `None`: it stays (Sachsen-Anhalt, § 49 Abs. 2 KWG
    /// LSA: an Ergänzungswahl restores it).
    pub size_reduced: Option<&'static str>,
    /// An individual candidate has no Ersatzpersonen: his seat stays vacant (`None`: his Wahlvorschlag is
    /// treated as a list, exhausted with him).
    pub individual: Option<&'static str>,
    /// Why a barred successor must prove the end of the bar (or, where the Land makes him prove nothing, the
    /// norm that says what the bar does: [`super::Standing::must_prove_bar_end`]).
    pub bar: &'static str,
    /// The reason a candidate is passed over, with its citation; `None` if he can succeed.
    pub exclusion: fn(&Standing, &Candidate) -> Option<Exclusion>,
    /// Recorded facts without effect in the Land; noted in the trail.
    pub notes: fn(&Candidate, &mut Vec<TrailStep>),
}

/// The ranking by personal votes: most votes first; equal votes by the rank of a lot drawn when the result
/// was determined (`lot_rank`, only where the Land has one: a candidate with a rank before one without), then
/// by the order of the Wahlvorschlag (a candidate without a position after all with one, then as listed);
/// candidates without votes after all with votes, in list order (§ 60 Abs. 2 Satz 2 BbgKWahlG, § 41 Abs. 2
/// Satz 2 KWG LSA; where votes are required the case does not arise).
fn ranking(list: &List) -> Vec<&Candidate> {
    let mut ranking: Vec<(usize, &Candidate)> = list.candidates.iter().enumerate().collect();
    ranking.sort_by_key(|(i, c)| {
        let lot = c.lot_rank.unwrap_or(u32::MAX);
        (c.votes.is_none(), Reverse(c.votes.unwrap_or(0)), lot, c.position.unwrap_or(u32::MAX), *i)
    });
    ranking.into_iter().map(|(_, c)| c).collect()
}

/// The citation of the lot drawn when the result was determined, if it decides among `tied`: the Land has
/// one and every tied candidate has a `lot_rank`.
fn drawn_lot(law: &VoteLaw, tied: &[&Candidate]) -> Option<&'static str> {
    law.drawn_lot.filter(|_| tied.iter().all(|c| c.lot_rank.is_some()))
}

pub(crate) fn vacant(body: &Body, reason: VacancyReason, mut trail: Vec<TrailStep>, law: &VoteLaw) -> Decision {
    let statutory_size = match law.size_reduced {
        Some(citation) => {
            trail.push(TrailStep::new(None, Verdict::Noted, "statutory_size_reduced", citation));
            body.info().statutory_size.saturating_sub(1)
        }
        None => body.info().statutory_size,
    };
    Decision { outcome: Outcome::Vacant { reason, statutory_size }, trail }
}

/// Determine the successor of `q.departed` by personal votes under `law`.
pub(crate) fn decide(body: &Body, q: &Query, law: &VoteLaw, majority: bool) -> Result<Decision, DecideError> {
    let loc = body.locate(q.departed).ok_or_else(|| DecideError::UnknownMember(q.departed.to_owned()))?;
    let list = body.list(loc.list);
    let s = Standing::new(body, q);
    let mut trail = Vec::new();

    if let (ListKind::Individual, Some(citation)) = (list.kind, law.individual) {
        trail.push(TrailStep::new(None, Verdict::Noted, "individual_candidate", citation));
        return Ok(vacant(body, VacancyReason::IndividualCandidate, trail, law));
    }

    // Why a candidate is passed over (the departed included); `None` if he can succeed.
    let passed_over = |c: &Candidate| -> Option<Exclusion> {
        if c.id == q.departed {
            Some(Exclusion { reason: "departed", citation: law.departed.to_owned() })
        } else {
            (law.exclusion)(&s, c)
        }
    };

    // Pass over, in ranking order, everyone ahead of the first candidate who can succeed. The trail lists
    // exactly those: a candidate ranked behind the successor is not "passed over" (docs/contract.md, "The trail").
    let mut rest = ranking(list).into_iter();
    let mut first = None;
    for c in rest.by_ref() {
        match passed_over(c) {
            Some(Exclusion { reason, citation }) => {
                trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, reason, citation))
            }
            None => {
                first = Some(c);
                break;
            }
        }
    }
    let Some(first) = first else {
        trail.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", law.exhausted));
        // several areas: the party's Wahlvorschläge in the other areas, where the Land falls back to them
        let exclusion = |_: &List, c: &Candidate| (law.exclusion)(&s, c);
        let notes = |_: &List, c: &Candidate, t: &mut Vec<TrailStep>| (law.notes)(c, t);
        let rules = areas::Rules { exclusion: &exclusion, notes: &notes, bar_citation: law.bar };
        if let Some(d) = areas::fall_back(body, q, &s, list, &rules, &mut trail)? {
            return Ok(d);
        }
        return Ok(vacant(body, VacancyReason::ListExhausted, trail, law));
    };
    // Only the eligible candidates with the same votes matter for ties; stop the scan there. In a majority
    // election the list order plays no part among equal votes, so a candidate with equal votes who is passed
    // over is listed too, wherever his list position; in a proportional election he ranks behind the
    // successor and is not.
    let mut tied: Vec<&Candidate> = vec![first];
    for c in rest.take_while(|c| c.votes == first.votes) {
        match passed_over(c) {
            None => tied.push(c),
            Some(Exclusion { reason, citation }) if majority => {
                trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, reason, citation))
            }
            Some(_) => {}
        }
    }

    let successor = |c: &Candidate| Outcome::Successor {
        candidate: c.id.clone(),
        list: list.id.clone(),
        barred: s.must_prove_bar_end(c),
    };
    let drawn = if tied.len() > 1 && majority { drawn_lot(law, &tied) } else { None };
    let chosen: &Candidate = if let Some(citation) = drawn {
        // the lot was drawn when the result was determined: its order decides, nobody is asked for a lot
        // (the ranking put the lowest rank first; the ranks of the tied candidates are validated unique)
        let winner = first;
        for c in tied.iter().filter(|c| c.id != winner.id) {
            trail.push(TrailStep::new(Some(&c.id), Verdict::Tied, "lost_drawn_lot", citation));
        }
        (law.notes)(winner, &mut trail);
        trail.push(TrailStep::new(Some(&winner.id), Verdict::Chosen, "won_drawn_lot", citation));
        winner
    } else if tied.len() > 1 && majority {
        // the Wahlleiter draws the lot; the worker never draws it
        match q.lot_winner {
            None => {
                for c in &tied {
                    (law.notes)(c, &mut trail);
                    trail.push(TrailStep::new(Some(&c.id), Verdict::Tied, "equal_votes_lot", law.lot));
                }
                let tied = tied.iter().map(|c| c.id.clone()).collect();
                return Ok(Decision { outcome: Outcome::LotRequired { tied }, trail });
            }
            Some(w) => {
                let winner =
                    tied.iter().find(|c| c.id == w).ok_or_else(|| DecideError::LotWinnerNotTied(w.to_owned()))?;
                for c in tied.iter().filter(|c| c.id != w) {
                    trail.push(TrailStep::new(Some(&c.id), Verdict::Tied, "lost_lot", law.lot));
                }
                (law.notes)(winner, &mut trail);
                trail.push(TrailStep::new(Some(&winner.id), Verdict::Chosen, "won_lot", law.lot));
                winner
            }
        }
    } else {
        (law.notes)(first, &mut trail);
        let (reason, citation) = match (majority, tied.len() > 1) {
            (false, true) => ("most_votes_list_order", law.list_order_tie),
            (false, false) => ("most_votes", law.most_votes),
            (true, _) => ("most_votes", law.majority),
        };
        trail.push(TrailStep::new(Some(&first.id), Verdict::Chosen, reason, citation));
        first
    };
    barred_note(&s, chosen, law.bar, &mut trail);
    Ok(Decision { outcome: successor(chosen), trail })
}

/// The Nachrückerliste of one list (see [`super::order`]), by the same ranking and exclusions as [`decide`].
pub(crate) fn list_order(s: &Standing, list: &List, law: &VoteLaw, majority: bool) -> ListOrder {
    let mut out = ListOrder::new(&list.id);
    if let (ListKind::Individual, Some(citation)) = (list.kind, law.individual) {
        out.notes.push(TrailStep::new(None, Verdict::Noted, "individual_candidate", citation));
        return out;
    }
    let mut eligible: Vec<&Candidate> = vec![];
    for c in ranking(list) {
        match (law.exclusion)(s, c) {
            Some(Exclusion { reason, citation }) => out.passed_over.push(passed(c, reason, citation)),
            None => {
                (law.notes)(c, &mut out.notes);
                barred_note(s, c, law.bar, &mut out.notes);
                out.order.push(c.id.clone());
                eligible.push(c);
            }
        }
    }
    if majority {
        // equal votes → lot, unless the lot drawn when the result was determined ordered the whole group
        for group in eligible.chunk_by(|a, b| a.votes == b.votes) {
            if group.len() < 2 {
                continue;
            }
            match drawn_lot(law, group) {
                Some(citation) => {
                    for c in group {
                        out.notes.push(TrailStep::new(Some(&c.id), Verdict::Noted, "drawn_lot_order", citation));
                    }
                }
                None => out.lot_groups.push(group.iter().map(|c| c.id.clone()).collect()),
            }
        }
    }
    areas::order_note(s.body, list, &mut out.notes);
    if out.order.is_empty() {
        out.notes.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", law.exhausted));
    }
    out
}
