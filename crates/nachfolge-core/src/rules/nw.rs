//! Nordrhein-Westfalen: § 45 KWahlG NRW, "Ersatzbestimmung von Vertretern".
//!
//! Order of succession: the Ersatzbewerber named for the departed (§ 45 Abs. 2 Satz 1), unless § 45 Abs. 4
//! takes his priority; then the Reserveliste in list order, passing over everyone who holds or held a seat,
//! is offered another vacancy, or is excluded (§ 45 Abs. 2 Satz 2, Abs. 3). No one left, or no list behind
//! the departed: the seat stays vacant and the statutory size shrinks (§ 45 Abs. 5).

use super::order::{barred_note, passed};
use super::{
    in_list_order, Cause, DecideError, Decision, Exclusion, ListOrder, Outcome, Query, Standing, SubstitutePriority,
    VacancyReason,
};
use crate::model::{
    Body, Candidate, DistrictSubstitute, Fact, List, ListKind, SeatVia, SubstituteDesignation, WaiverForm,
};
use crate::trail::{TrailStep, Verdict};

/// Citation of § 45 KWahlG NRW, e.g. `cite("Abs. 3 Satz 1")`.
pub fn cite(part: &str) -> String {
    format!("§ 45 {part} KWahlG NRW")
}

/// A seat lost by a party ban on the banned party's own list stays vacant, the statutory size falls.
pub const PARTY_BAN_VACANT: &str = "§ 46 Abs. 2 Satz 1 KWahlG NRW";
/// A member elected for a party or voter group that is not banned: his list's successor under § 45.
pub const PARTY_BAN_SUCCESSION: &str = "§ 46 Abs. 2 Satz 2 KWahlG NRW";

/// Why a barred successor must prove the end of the bar (the Hinderungsgrund).
pub const BAR_CITATION: &str = "§ 13 KWahlG NRW, § 69 Abs. 2 i. V. m. § 62 Nr. 5 KWahlO NRW";

/// What a Fassung of § 45 says, as far as the texts differ (docs/legal.md, "Fassungen of § 45 KWahlG NRW"). The
/// land's law picks it by the reference day (`land/nw.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Text {
    /// Abs. 2 Satz 2 "oder diese während der laufenden Wahlperiode nicht ununterbrochen bestanden hat": a
    /// candidate ineligible at any time in the term is passed over, even if eligible again.
    pub not_continuously_eligible: bool,
    /// Abs. 3 Satz 3: a candidate who was no member of any party or voter group when the list was drawn up and
    /// has since joined another one is passed over.
    pub joined_other_party: bool,
}

impl Text {
    /// The text as amended by Art. 1 of the Gesetz vom 5. Juli 2024 (GV. NRW. S. 444).
    pub const CURRENT: Text = Text { not_continuously_eligible: true, joined_other_party: true };
    /// The text before that amendment (the seed's text): neither clause.
    pub const BEFORE_2024: Text = Text { not_continuously_eligible: false, joined_other_party: false };
}

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate, text: Text) -> Option<Exclusion> {
    let r = if s.seated(c) {
        // holds a seat: not "der nächste Bewerber" (§ 45 Abs. 2 Satz 1)
        ("seated", cite("Abs. 2 Satz 1"))
    } else if s.former_member(c) {
        // [decision] held a seat in this term and left: already called
        ("former_member", cite("Abs. 2 Satz 1"))
    } else if s.pending(c) {
        ("pending_successor", cite("Abs. 2 Satz 1"))
    } else if s.died(c) {
        ("died", cite("Abs. 2 Satz 2"))
    } else if s.ineligible_now(c) {
        ("ineligible", cite("Abs. 2 Satz 2"))
    } else if text.not_continuously_eligible && s.ineligible_during_term(c) {
        ("not_continuously_eligible", cite("Abs. 2 Satz 2"))
    } else if c.has_fact(|f| matches!(f, Fact::Declined { .. })) {
        ("declined", cite("Abs. 3 Satz 2"))
    } else if c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) {
        ("left_party", cite("Abs. 3 Satz 1"))
    } else if text.joined_other_party && c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { was_member: false, .. })) {
        // Satz 3: not a member of any party or voter group when the list was drawn up, joined another since
        ("joined_other_party", cite("Abs. 3 Satz 3"))
    } else if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Recorded, .. })) {
        ("waived", cite("Abs. 3 Satz 1"))
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1 })
}

/// Facts that are recorded but have no effect; noted in the trail.
pub(super) fn notes(s: &Standing, c: &Candidate, text: Text, trail: &mut Vec<TrailStep>) {
    if !text.not_continuously_eligible && s.ineligible_during_term(c) {
        // before 2024 Abs. 2 Satz 2 passed over only who "die Wählbarkeit verloren" had: eligible again, he succeeds
        trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, "formerly_ineligible_no_effect", cite("Abs. 2 Satz 2")));
    }
    if !text.joined_other_party && c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) {
        // before 2024 Abs. 3 had no Satz 3: only leaving the nominating party or voter group counts (Satz 1)
        trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, "joined_other_party_no_effect", cite("Abs. 3 Satz 1")));
    } else if c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { was_member: true, .. })) {
        // Satz 3 covers only a candidate who was no member when the list was drawn up; a member who joined
        // another party or voter group without leaving the nominating one (e.g. a voter group's member who
        // joins a party) is not passed over — leaving it is `left_party` (Satz 1)
        trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, "joined_other_party_as_member", cite("Abs. 3 Satz 3")));
    }
    if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Written, .. })) {
        // a waiver by letter, fax or e-mail is not in the form of § 38 (zur Niederschrift)
        trail.push(TrailStep::new(
            Some(&c.id),
            Verdict::Noted,
            "waiver_not_in_form",
            format!("{} i. V. m. § 38 KWahlG NRW", cite("Abs. 3 Satz 1")),
        ));
    }
}

/// Evaluate one candidate: passed over (trail step) or chosen.
fn consider(s: &Standing, c: &Candidate, text: Text, chosen_reason: &str, trail: &mut Vec<TrailStep>) -> bool {
    if let Some(Exclusion { reason, citation }) = exclusion(s, c, text) {
        trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, reason, citation));
        return false;
    }
    notes(s, c, text, trail);
    trail.push(TrailStep::new(Some(&c.id), Verdict::Chosen, chosen_reason, cite("Abs. 2 Satz 1")));
    if s.must_prove_bar_end(c) {
        trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, "barred_must_prove_end", BAR_CITATION));
    }
    true
}

/// Determine the successor under the Fassung `text` (picked by the land's law for the reference day).
pub(crate) fn decide(body: &Body, q: &Query, text: Text) -> Result<Decision, DecideError> {
    let loc = body.locate(q.departed).ok_or_else(|| DecideError::UnknownMember(q.departed.to_owned()))?;
    let list = body.list(loc.list);
    let departed = &list.candidates[loc.cand];
    let s = Standing::new(body, q);
    let mut trail = Vec::new();
    let reduced = body.info().statutory_size.saturating_sub(1);

    // § 46 Abs. 2 KWahlG NRW: a seat lost by a party ban stays vacant and the statutory size falls, unless
    // the member was elected for a party or voter group that is not banned: then § 45 (the list he was
    // elected on, Abs. 1 Satz 2).
    if let Cause::PartyBan { list_banned } = q.cause {
        if list_banned {
            trail.push(TrailStep::new(None, Verdict::Noted, "party_banned", PARTY_BAN_VACANT));
            trail.push(TrailStep::new(None, Verdict::Noted, "statutory_size_reduced", PARTY_BAN_VACANT));
            return Ok(Decision {
                outcome: Outcome::Vacant { reason: VacancyReason::PartyBanned, statutory_size: reduced },
                trail,
            });
        }
        trail.push(TrailStep::new(None, Verdict::Noted, "party_ban_list_not_banned", PARTY_BAN_SUCCESSION));
    }

    // § 45 Abs. 1 Satz 2: the departed's list at the election; a later change of party is irrelevant.
    if list.kind == ListKind::Individual {
        trail.push(TrailStep::new(None, Verdict::Noted, "individual_candidate", cite("Abs. 5 Satz 1")));
        trail.push(TrailStep::new(None, Verdict::Noted, "statutory_size_reduced", cite("Abs. 5 Satz 2")));
        return Ok(Decision {
            outcome: Outcome::Vacant { reason: VacancyReason::IndividualCandidate, statutory_size: reduced },
            trail,
        });
    }
    let successor = |c: &Candidate| Outcome::Successor {
        candidate: c.id.clone(),
        list: list.id.clone(),
        barred: s.must_prove_bar_end(c),
    };

    // § 45 Abs. 4 read as a full exclusion (`readings.district_substitute = excluded`): passed over below
    let mut excluded: Option<&str> = None;
    // Ersatzbewerber (§ 45 Abs. 2 Satz 1): named for the departed.
    if let Some(sub) = list.candidates.iter().find(|c| c.substitute_for.as_deref() == Some(departed.id.as_str())) {
        // How the departed won his seat: the query says, else his seat in the snapshot. Unknown either way, a
        // candidate who is not on the list can only have won his district directly.
        let won_directly = match q.departed_via.or(departed.seat.as_ref().map(|s| s.via)) {
            Some(via) => via == SeatVia::District,
            None => departed.position.is_none(),
        };
        let district_via_list = departed.district.is_some() && !won_directly;
        if district_via_list && sub.designation() == SubstituteDesignation::District {
            // § 45 Abs. 4: named "ausschließlich" for the district candidacy of a candidate who entered through
            // the list: no priority; he keeps his own list position, unless the body reads "unberücksichtigt"
            // as a full exclusion (docs/legal.md, "Per-body readings")
            trail.push(TrailStep::new(Some(&sub.id), Verdict::Noted, "substitute_without_priority", cite("Abs. 4")));
            if body.info().readings.district_substitute == Some(DistrictSubstitute::Excluded) {
                excluded = Some(sub.id.as_str());
            }
        } else {
            if district_via_list {
                // named (also) for the list candidacy: not "ausschließlich" for the district, Abs. 4 does not apply
                trail.push(TrailStep::new(Some(&sub.id), Verdict::Noted, "substitute_keeps_priority", cite("Abs. 4")));
            }
            if consider(&s, sub, text, "substitute", &mut trail) {
                return Ok(Decision { outcome: successor(sub), trail });
            }
        }
    }

    // The next candidate on the Reserveliste (§ 45 Abs. 2 Satz 1, Satz 2).
    for c in in_list_order(&list.candidates) {
        if c.id == departed.id {
            trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, "departed", cite("Abs. 1 Satz 1")));
            continue;
        }
        if excluded == Some(c.id.as_str()) && exclusion(&s, c, text).is_none() {
            trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, "district_substitute_excluded", cite("Abs. 4")));
            continue;
        }
        if consider(&s, c, text, "next_on_list", &mut trail) {
            return Ok(Decision { outcome: successor(c), trail });
        }
    }

    trail.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", cite("Abs. 5 Satz 1")));
    trail.push(TrailStep::new(None, Verdict::Noted, "statutory_size_reduced", cite("Abs. 5 Satz 2")));
    Ok(Decision { outcome: Outcome::Vacant { reason: VacancyReason::ListExhausted, statutory_size: reduced }, trail })
}

/// The Nachrückerliste of one list (see [`super::order`]).
pub(crate) fn list_order(s: &Standing, list: &List, reading: DistrictSubstitute, text: Text) -> ListOrder {
    let mut out = ListOrder::new(&list.id);
    if list.kind == ListKind::Individual {
        // § 45 Abs. 5 Satz 1: no list behind an individual candidate; his seat stays vacant
        out.notes.push(TrailStep::new(None, Verdict::Noted, "individual_candidate", cite("Abs. 5 Satz 1")));
        return out;
    }
    for c in in_list_order(&list.candidates) {
        match exclusion(s, c, text) {
            Some(Exclusion { reason, citation }) => out.passed_over.push(passed(c, reason, citation)),
            None => {
                notes(s, c, text, &mut out.notes);
                barred_note(s, c, BAR_CITATION, &mut out.notes);
                out.order.push(c.id.clone());
            }
        }
    }
    // candidates without a list position (district only) are not on the Reserveliste (§ 45 Abs. 2 Satz 1)
    for c in list.candidates.iter().filter(|c| c.position.is_none()) {
        out.passed_over.push(passed(c, "no_list_position", cite("Abs. 2 Satz 1")));
    }
    // Ersatzbewerber: priority for the seated member they are named for, unless § 45 Abs. 4 takes it
    for sub in list.candidates.iter().filter(|c| c.substitute_for.is_some()) {
        let Some(member) = list.candidates.iter().find(|m| Some(m.id.as_str()) == sub.substitute_for.as_deref()) else {
            continue;
        };
        let Some(seat) = &member.seat else { continue };
        if exclusion(s, sub, text).is_some() {
            continue; // passed over anyway; already listed
        }
        let district_via_list = member.district.is_some() && seat.via != SeatVia::District;
        if district_via_list && sub.designation() == SubstituteDesignation::District {
            // under the reading `excluded` he is passed over when that member leaves (not for other seats)
            let reason = match reading {
                DistrictSubstitute::KeepsListPlace => "substitute_without_priority",
                DistrictSubstitute::Excluded => "substitute_excluded_for_his_member",
            };
            out.notes.push(TrailStep::new(Some(&sub.id), Verdict::Noted, reason, cite("Abs. 4")));
        } else {
            if district_via_list {
                out.notes.push(TrailStep::new(
                    Some(&sub.id),
                    Verdict::Noted,
                    "substitute_keeps_priority",
                    cite("Abs. 4"),
                ));
            }
            out.substitutes.push(SubstitutePriority {
                candidate: sub.id.clone(),
                substitute_for: member.id.clone(),
                citation: cite("Abs. 2 Satz 1"),
            });
        }
    }
    if out.order.is_empty() {
        out.notes.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", cite("Abs. 5 Satz 1")));
    }
    out
}
