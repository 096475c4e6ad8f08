//! Niedersachsen: § 44 NKWG "Ersatz von Vertreterinnen und Vertretern", with § 38 "Ersatzpersonen" and § 45
//! "Ausscheiden von Ersatzpersonen".
//!
//! The seat passes to the next Ersatzperson of the Wahlvorschlag the departed was elected on (§ 44 Abs. 1),
//! by how the seat was won. Personenwahl (§ 36 Abs. 5): the not elected candidates with at least one vote, by
//! their votes, equal votes by a lot the Wahlleitung draws (§ 38 Abs. 2); none left: the others in the order
//! of the Wahlvorschlag (§ 44 Abs. 4, § 38 Abs. 4). Listenwahl (§ 36 Abs. 6): all not elected candidates in
//! the order of the Wahlvorschlag (§ 38 Abs. 3). Passed over: who holds or held a seat or is called to
//! another one (§ 38 Abs. 1), who refused a seat, waived in writing or lost his eligibility (§ 45 Abs. 1–3),
//! who left or was expelled from the party if the party told the Wahlleitung in writing before the seat fell
//! vacant (§ 44 Abs. 2), on a party ban the Ersatzpersonen of its Wahlvorschlag (§ 44 Abs. 3 Nr. 1), and whoever
//! belonged to the banned party when the judgment was pronounced, out for the Wahlperiode (§ 45 Abs. 1 Satz 2 i. V. m.
//! § 44 Abs. 3 Nr. 2; recorded as `banned_party_member`).
//! Nobody left: the seat stays vacant (§ 44 Abs. 5; § 77 Abs. 3 NKWO). This module ranks on its own instead
//! of `rules::votes`: a lot decides equal votes in a proportional election, candidates without votes are no
//! Ersatzpersonen of § 38 Abs. 2, a Listenwahl seat goes by list order alone, and the statutory size does not
//! fall. Readings taken: docs/legal.md, "Niedersachsen".

use chrono::NaiveDate;

use super::areas;
use super::order::{barred_note, passed};
use super::{
    in_list_order, Cause, DecideError, Decision, Exclusion, ListOrder, Outcome, Query, Standing, VacancyReason,
};
use crate::model::{Body, Candidate, Fact, List, ListKind, SeatVia, ValidationError, WaiverForm};
use crate::trail::{TrailStep, Verdict};

/// Citation of a paragraph of the NKWG, e.g. `cite("§ 44 Abs. 2")`.
pub fn cite(part: &str) -> String {
    format!("{part} NKWG")
}

/// The departed's seat passes to an Ersatzperson of his Wahlvorschlag.
const PASSES: &str = "§ 44 Abs. 1 NKWG";
/// Personenwahl: most votes among the candidates with at least one vote.
const MOST_VOTES: &str = "§ 44 Abs. 1 i. V. m. § 38 Abs. 2 Satz 1 und 2 NKWG";
/// Personenwahl: equal votes, the Wahlleitung draws the lot.
pub const LOT: &str = "§ 38 Abs. 2 Satz 3 NKWG";
/// Personenwahl, nobody with votes left: the list order Ersatzpersonen follow.
const SUBORDINATE: &str = "§ 44 Abs. 4 i. V. m. § 38 Abs. 4 NKWG";
/// Listenwahl: the order of the Wahlvorschlag.
const LIST_ORDER: &str = "§ 44 Abs. 1 i. V. m. § 38 Abs. 3 NKWG";
/// No Ersatzperson left: the seat stays vacant.
const EXHAUSTED: &str = "§ 44 Abs. 5 NKWG, § 77 Abs. 3 NKWO";
/// Ersatzpersonen exist only on the Wahlvorschlag of a party or voter group.
const INDIVIDUAL: &str = "§ 38 Abs. 1 NKWG, § 44 Abs. 5 NKWG";
/// Several Wahlbereiche: the other Wahlbereiche's candidates of the party follow, by votes (`lists[].party`).
pub const OTHER_AREAS: &str = "§ 44 Abs. 5 Satz 1 i. V. m. § 37 Abs. 5 NKWG, § 38 Abs. 5 NKWG";
/// Several Wahlbereiche, equal votes: the lot the Wahlleitung draws.
pub const OTHER_AREAS_LOT: &str = "§ 38 Abs. 5 Satz 3 NKWG";
/// A seat freed by a party ban does not pass to an Ersatzperson of the banned party's Wahlvorschlag.
const PARTY_BAN_LIST: &str = "§ 44 Abs. 3 Nr. 1 NKWG";
/// … nor to a member of the banned party at the time of the judgment.
const PARTY_BAN_MEMBERS: &str = "§ 44 Abs. 3 Nr. 2 NKWG";
/// Such a member leaves as Ersatzperson for the Wahlperiode, as one who refused (§ 45 Abs. 1: "Das Gleiche gilt in
/// Fällen des § 44 Abs. 2 und 3"); the Wahlleitung records it (`banned_party_member`) after hearing him (§ 78 Abs. 2
/// NKWO) and checks the others (docs/legal.md, "Niedersachsen").
pub const BANNED_MEMBER: &str = "§ 45 Abs. 1 Satz 2 i. V. m. § 44 Abs. 3 Nr. 2 NKWG";

/// Why a barred successor must prove the end of the bar (Unvereinbarkeit, § 50 NKomVG).
pub const BAR_CITATION: &str = "§ 50 Abs. 1 und 3 NKomVG";

/// How the departed won the seat: the query says, else his seat; a Personenwahl or Listenwahl seat only.
fn seat_kind(body: &Body, q: &Query, departed: &Candidate) -> Result<SeatVia, DecideError> {
    match q.departed_via.or(departed.seat.as_ref().map(|s| s.via)) {
        Some(via @ (SeatVia::PersonalVote | SeatVia::List)) => Ok(via),
        other => Err(DecideError::Cause(ValidationError::new(
            "seat.via",
            format!(
                "in Niedersachsen ({}) the departed's seat must be personal_vote (Personenwahl, § 36 Abs. 5 NKWG) or list (Listenwahl, § 36 Abs. 6), found {other:?}",
                body.id()
            ),
        ))),
    }
}

/// The day the seat fell vacant ([`Standing::vacated`]: the vacancy's `effective_at` as the worker and
/// `nachfolge decide` record it on the departed).
fn vacated_on(s: &Standing) -> NaiveDate {
    s.vacated().unwrap_or(s.reference)
}

/// The party's written notice of an exit or expulsion arrived before `vacated` (§ 44 Abs. 2).
fn exit_notified_before(c: &Candidate, vacated: NaiveDate) -> bool {
    c.has_fact(|f| matches!(f, Fact::PartyNotice { on } if *on < vacated))
}

/// The reason a candidate is passed over, with its citation; `None` if he can succeed. `vacated`: the day
/// the seat fell vacant (§ 44 Abs. 2: a notice counts only if it arrived before).
pub(super) fn exclusion(s: &Standing, list: &List, c: &Candidate, vacated: NaiveDate) -> Option<Exclusion> {
    let day = s.reference;
    // "die nicht gewählten Bewerberinnen und Bewerber": holds or held a seat, or is called to another one
    let r = if s.seated(c) {
        ("seated", cite("§ 38 Abs. 1"))
    } else if s.former_member(c) {
        ("former_member", cite("§ 38 Abs. 1"))
    } else if s.pending(c) {
        ("already_called", cite("§ 38 Abs. 1"))
    } else if s.banned_party_member(c) {
        // belonged to the banned party at the Verkündung: out as Ersatzperson for the Wahlperiode
        ("banned_party_member", BANNED_MEMBER.to_owned())
    } else if c.has_fact(|f| matches!(f, Fact::Declined { .. })) {
        // refused a seat: out as Ersatzperson for the Wahlperiode
        ("declined", cite("§ 45 Abs. 1 Satz 1"))
    } else if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Written, .. })) {
        ("waived", cite("§ 45 Abs. 2"))
    } else if s.died(c) {
        ("died", cite("§ 38 Abs. 1"))
    } else if s.status_lost(c) {
        // "Wer die Wahl in ein durch Direktwahl vermitteltes Amt annimmt, scheidet als Ersatzperson nach § 38
        // Abs. 1 aus" — [reading] for the Wahlperiode (docs/legal.md, "Point 11: three smaller gaps")
        ("direct_office_accepted", cite("§ 45 Abs. 4"))
    } else if s.ineligible_now(c) {
        ("ineligible", cite("§ 45 Abs. 3 Satz 1"))
    } else if c.has_fact(|f| matches!(f, Fact::Ineligible { from, .. } if *from <= day)) {
        // lost the eligibility after the election (or it was missing then): out for the Wahlperiode, even if
        // regained
        ("not_continuously_eligible", cite("§ 45 Abs. 3 Satz 1"))
    } else if list.kind == ListKind::Party && exit_notified_before(c, vacated) {
        ("left_party_notified", format!("{} i. V. m. § 45 Abs. 1 Satz 2 NKWG", cite("§ 44 Abs. 2")))
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1 })
}

/// Recorded facts without effect in Niedersachsen; noted in the trail.
pub(super) fn notes(list: &List, c: &Candidate, vacated: NaiveDate, trail: &mut Vec<TrailStep>) {
    let mut note =
        |reason: &str, citation: String| trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, reason, citation));
    let notified = c.has_fact(|f| matches!(f, Fact::PartyNotice { .. }));
    if notified && list.kind != ListKind::Party {
        // [decision] § 44 Abs. 2 names the Partei only
        note("party_exit_not_a_party", cite("§ 44 Abs. 2"));
    } else if notified && !exit_notified_before(c, vacated) {
        // the notice arrived on or after the day the seat fell vacant
        note("party_notice_too_late", cite("§ 44 Abs. 2"));
    } else if !notified && c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) {
        // leaving counts only with the party's written notice to the Wahlleitung
        note("left_party_not_notified", cite("§ 44 Abs. 2"));
    }
    if c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) {
        note("joined_other_party_no_effect", cite("§ 44 Abs. 2"));
    }
    if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Recorded, .. })) {
        // [decision] § 45 Abs. 2 Satz 3: "schriftlich"; a waiver only recorded by the Wahlleitung is not taken
        note("waiver_not_in_form", cite("§ 45 Abs. 2 Satz 3"));
    }
}

/// The candidates of § 38 Abs. 2 (at least one vote), by votes; equal votes keep the Wahlvorschlag's order
/// only for a stable output (the lot decides between them).
fn by_votes(list: &List) -> Vec<&Candidate> {
    let mut v: Vec<&Candidate> = list.candidates.iter().filter(|c| c.votes.unwrap_or(0) >= 1).collect();
    v.sort_by_key(|c| (std::cmp::Reverse(c.votes.unwrap_or(0)), c.position.unwrap_or(u32::MAX)));
    v
}

fn vacant(body: &Body, reason: VacancyReason, trail: Vec<TrailStep>) -> Decision {
    // [decision] the seat stays vacant; no rule lowers the statutory size (docs/legal.md)
    Decision { outcome: Outcome::Vacant { reason, statutory_size: body.info().statutory_size }, trail }
}

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    let loc = body.locate(q.departed).ok_or_else(|| DecideError::UnknownMember(q.departed.to_owned()))?;
    let list = body.list(loc.list);
    let departed = &list.candidates[loc.cand];
    let s = Standing::new(body, q);
    let vacated = vacated_on(&s);
    let mut trail = Vec::new();

    if list.kind == ListKind::Individual {
        trail.push(TrailStep::new(None, Verdict::Noted, "individual_candidate", INDIVIDUAL));
        return Ok(vacant(body, VacancyReason::IndividualCandidate, trail));
    }
    if let Cause::PartyBan { list_banned } = q.cause {
        if list_banned {
            // every Ersatzperson of this Wahlvorschlag is one "eines Wahlvorschlages dieser Partei"
            trail.push(TrailStep::new(None, Verdict::Noted, "party_banned", PARTY_BAN_LIST));
            return Ok(vacant(body, VacancyReason::PartyBanned, trail));
        }
        // Nr. 2: members of the banned party at the judgment — those recorded (`banned_party_member`) are passed
        // over; membership is not in the snapshot, so the Wahlleitung checks the others (docs/legal.md)
        trail.push(TrailStep::new(None, Verdict::Noted, "party_ban_members_to_check", PARTY_BAN_MEMBERS));
    }
    let via = seat_kind(body, q, departed)?;
    let passed_over = |c: &Candidate| -> Option<Exclusion> {
        if c.id == departed.id {
            Some(Exclusion { reason: "departed", citation: PASSES.to_owned() })
        } else {
            exclusion(&s, list, c, vacated)
        }
    };
    let successor = |c: &Candidate| Outcome::Successor {
        candidate: c.id.clone(),
        list: list.id.clone(),
        barred: s.must_prove_bar_end(c),
    };
    let chosen = |c: &Candidate, reason: &str, citation: &str, trail: &mut Vec<TrailStep>| {
        notes(list, c, vacated, trail);
        trail.push(TrailStep::new(Some(&c.id), Verdict::Chosen, reason, citation));
        if s.must_prove_bar_end(c) {
            trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, "barred_must_prove_end", BAR_CITATION));
        }
    };

    let mut considered: Vec<&str> = vec![];
    if via == SeatVia::PersonalVote {
        // § 38 Abs. 2: by votes; equal votes → the lot
        let ranked = by_votes(list);
        let mut rest = ranked.iter().copied();
        let mut first = None;
        for c in rest.by_ref() {
            considered.push(&c.id);
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
        if let Some(first) = first {
            let tied: Vec<&Candidate> = std::iter::once(first)
                .chain(rest.take_while(|c| c.votes == first.votes).filter(|c| passed_over(c).is_none()))
                .collect();
            if tied.len() == 1 {
                chosen(first, "most_votes", MOST_VOTES, &mut trail);
                return Ok(Decision { outcome: successor(first), trail });
            }
            let Some(w) = q.lot_winner else {
                for c in &tied {
                    notes(list, c, vacated, &mut trail);
                    trail.push(TrailStep::new(Some(&c.id), Verdict::Tied, "equal_votes_lot", LOT));
                }
                let tied = tied.iter().map(|c| c.id.clone()).collect();
                return Ok(Decision { outcome: Outcome::LotRequired { tied }, trail });
            };
            let winner = tied.iter().find(|c| c.id == w).ok_or_else(|| DecideError::LotWinnerNotTied(w.to_owned()))?;
            for c in tied.iter().filter(|c| c.id != w) {
                trail.push(TrailStep::new(Some(&c.id), Verdict::Tied, "lost_lot", LOT));
            }
            chosen(winner, "won_lot", LOT, &mut trail);
            return Ok(Decision { outcome: successor(winner), trail });
        }
        // § 44 Abs. 4: no Ersatzperson of § 38 Abs. 2 left
        trail.push(TrailStep::new(None, Verdict::Noted, "no_personal_vote_substitute", SUBORDINATE));
    }

    // § 38 Abs. 3 (Listenwahl), or § 38 Abs. 4 after the Personenwahl Ersatzpersonen
    let citation = if via == SeatVia::PersonalVote { SUBORDINATE } else { LIST_ORDER };
    for c in in_list_order(&list.candidates).into_iter().filter(|c| !considered.contains(&c.id.as_str())) {
        match passed_over(c) {
            Some(Exclusion { reason, citation }) => {
                trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, reason, citation))
            }
            None => {
                chosen(c, "next_on_list", citation, &mut trail);
                return Ok(Decision { outcome: successor(c), trail });
            }
        }
    }
    trail.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", EXHAUSTED));
    // § 44 Abs. 5 Satz 1 i. V. m. § 37 Abs. 5, § 38 Abs. 5: the party's Wahlvorschläge in the other Wahlbereiche
    // (also those without a seat, OVG Lüneburg 10 LC 191/09), by votes, equal votes by lot
    if areas::other_areas(body, list).is_empty() {
        trail.push(TrailStep::new(None, Verdict::Noted, "no_other_areas_recorded", OTHER_AREAS));
    }
    let exclusion = |l: &List, c: &Candidate| exclusion(&s, l, c, vacated);
    let notes = |l: &List, c: &Candidate, t: &mut Vec<TrailStep>| notes(l, c, vacated, t);
    let rules = areas::Rules { exclusion: &exclusion, notes: &notes, bar_citation: BAR_CITATION };
    if let Some(d) = areas::fall_back(body, q, &s, list, &rules, &mut trail)? {
        return Ok(d);
    }
    Ok(vacant(body, VacancyReason::ListExhausted, trail))
}

/// The Nachrückerliste of one list for a Personenwahl seat (§ 38 Abs. 2, then Abs. 4), judged at the
/// reference day; a note says that a Listenwahl seat goes by list order alone (§ 38 Abs. 3).
pub(crate) fn list_order(s: &Standing, list: &List) -> ListOrder {
    let mut out = ListOrder::new(&list.id);
    if list.kind == ListKind::Individual {
        out.notes.push(TrailStep::new(None, Verdict::Noted, "individual_candidate", INDIVIDUAL));
        return out;
    }
    let vacated = s.reference;
    let ranked = by_votes(list);
    let rest = in_list_order(&list.candidates).into_iter().filter(|c| !ranked.iter().any(|r| r.id == c.id));
    let mut eligible: Vec<&Candidate> = vec![];
    for c in ranked.iter().copied().chain(rest) {
        match exclusion(s, list, c, vacated) {
            Some(Exclusion { reason, citation }) => out.passed_over.push(passed(c, reason, citation)),
            None => {
                notes(list, c, vacated, &mut out.notes);
                barred_note(s, c, BAR_CITATION, &mut out.notes);
                out.order.push(c.id.clone());
                if c.votes.unwrap_or(0) >= 1 {
                    eligible.push(c);
                }
            }
        }
    }
    for group in eligible.chunk_by(|a, b| a.votes == b.votes) {
        if group.len() > 1 {
            out.lot_groups.push(group.iter().map(|c| c.id.clone()).collect());
        }
    }
    out.notes.push(TrailStep::new(None, Verdict::Noted, "listenwahl_seat_list_order", LIST_ORDER));
    areas::order_note(s.body, list, &mut out.notes);
    if out.order.is_empty() {
        out.notes.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", EXHAUSTED));
    }
    out
}
