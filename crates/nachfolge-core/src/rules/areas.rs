//! Several Wahlbereiche / Wahlkreise: a Wahlvorschlag per area (`lists[].area`), tied to the same party's or
//! Wählergruppe's Wahlvorschläge in the other areas by `lists[].party`, and the fall-back to those other areas
//! when the departed's own area list is exhausted (docs/legal.md, "Several Wahlbereiche").
//!
//! What each Land says is [`Areas`] (`LandLaw::areas`): Niedersachsen (§ 38 Abs. 5, § 44 Abs. 5 Satz 1 i. V. m.
//! § 37 Abs. 5 NKWG), Mecklenburg-Vorpommern (§ 46 Abs. 3 LKWG M-V), Sachsen-Anhalt (§ 47 Abs. 3 KWG LSA) and
//! Sachsen (§ 22 Abs. 3 KomWG) fall back; a Baden-Württemberg Kreistag (§ 25 Abs. 2 LKrO) and Brandenburg
//! (§ 60 Abs. 3 BbgKWahlG) keep each area's Wahlvorschlag on its own (the Kreistag ties a party's Wahlvorschläge for
//! its Ausgleichssitze only, [`Areas::Tied`]); the other Länder refuse both fields.
//!
//! The fall-back is the same shape wherever it was read: the not elected candidates of the party's Wahlvorschläge
//! in the other areas, after the departed's own Ersatzpersonen, by their votes; equal votes: the lot the
//! Wahlleitung draws (§ 38 Abs. 5 Satz 2, 3 NKWG; § 37 Abs. 5 Satz 2, 3 NKWG).

use std::cmp::Reverse;

use super::{DecideError, Decision, Exclusion, Outcome, Query, Standing};
use crate::model::{Body, Candidate, List, Snapshot, ValidationError};
use crate::trail::{TrailStep, Verdict};

/// The fall-back of a Land whose exhausted area Wahlvorschlag passes the seat to the party's other areas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FallBack {
    /// The statute of the fall-back step, cited on the `other_areas` note and on the successor chosen there.
    pub citation: &'static str,
    /// Equal votes among the other areas' candidates: the lot the Wahlleitung draws.
    pub lot: &'static str,
}

/// What a Land's law says of a Wahlgebiet with several areas (Wahlbereiche, Wahlkreise).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Areas {
    /// `area` and `party` are refused: the Land's Wahlgebiet has no such areas in the rules served, or their
    /// succession was not read (the text says why).
    Refused(&'static str),
    /// `area` is accepted, each area's Wahlvorschlag stands on its own; `party` is refused (the text says why:
    /// the statute read has no fall-back to other areas).
    Separate(&'static str),
    /// `area` and `party` are accepted, but an exhausted area list does not fall back: `party` ties a party's area
    /// Wahlvorschläge together for a rule of the Land's own — a Baden-Württemberg Kreistag's Ersatzpersonen for the
    /// Ausgleichssitze across the Wahlkreise (`candidates[].additional_rank`, § 25 Abs. 2 LKrO).
    Tied,
    /// `area` and `party` are accepted; an exhausted area list falls back to the party's other areas.
    FallBack(FallBack),
}

/// `lists[].area` and `lists[].party` against the body's Land (docs/contract.md, "Several Wahlbereiche"): a
/// `party` needs an `area`, one party has one Wahlvorschlag per area, a party key is not shared by lists of
/// different kinds, and the Land must know areas (`Separate`) or their fall-back (`FallBack`).
pub(crate) fn validate(snapshot: &Snapshot, areas: Areas) -> Result<(), ValidationError> {
    let mut seen: Vec<(&str, &str, usize)> = vec![];
    for (li, list) in snapshot.lists.iter().enumerate() {
        if let Some(area) = &list.area {
            let field = format!("lists[{li}].area");
            if area.trim().is_empty() {
                return Err(ValidationError::new(field, "must not be empty"));
            }
            if let Some(ch) = area.chars().find(|c| c.is_control()) {
                return Err(ValidationError::new(
                    field,
                    format!("must not contain control characters (found U+{:04X})", u32::from(ch)),
                ));
            }
            if area.chars().count() > 64 {
                return Err(ValidationError::new(
                    field,
                    format!("at most 64 characters, got {}", area.chars().count()),
                ));
            }
            if let Areas::Refused(why) = areas {
                return Err(ValidationError::new(field, why));
            }
        }
        let Some(party) = &list.party else { continue };
        let field = format!("lists[{li}].party");
        match areas {
            Areas::Refused(why) | Areas::Separate(why) => return Err(ValidationError::new(field, why)),
            Areas::Tied | Areas::FallBack(_) => {}
        }
        if party.trim().is_empty() {
            return Err(ValidationError::new(field, "must not be empty"));
        }
        if party.chars().any(|c| c.is_control()) || party.chars().count() > 64 {
            return Err(ValidationError::new(field, "one line of at most 64 characters"));
        }
        let Some(area) = list.area.as_deref() else {
            return Err(ValidationError::new(
                field,
                "ties a party's Wahlvorschläge in several areas together: the list's area is required",
            ));
        };
        if list.kind == crate::model::ListKind::Individual {
            return Err(ValidationError::new(
                field,
                "an Einzelwahlvorschlag has no party: only the Wahlvorschläge of a party or Wählergruppe are tied together",
            ));
        }
        if let Some((_, _, other)) = seen.iter().find(|(p, a, _)| *p == party.as_str() && *a == area) {
            return Err(ValidationError::new(
                field,
                format!("lists[{other}] is already the Wahlvorschlag of {party:?} in area {area:?}"),
            ));
        }
        if let Some((_, _, other)) = seen.iter().find(|(p, _, _)| *p == party.as_str()) {
            if snapshot.lists[*other].kind != list.kind {
                return Err(ValidationError::new(
                    field,
                    format!("lists[{other}] with the same party key is of another kind"),
                ));
            }
        }
        seen.push((party.as_str(), area, li));
    }
    Ok(())
}

/// The Wahlvorschläge of the same party in the other areas (`lists[].party`), in snapshot order; empty when
/// the list has no party key.
pub(crate) fn other_areas<'a>(body: &'a Body, list: &List) -> Vec<&'a List> {
    let Some(party) = list.party.as_deref() else { return vec![] };
    body.snapshot.lists.iter().filter(|l| l.id != list.id && l.party.as_deref() == Some(party)).collect()
}

/// The candidates of `lists`, by votes (most first; without votes last); equal votes keep the snapshot's
/// order only for a stable output — the lot decides between them.
fn by_votes<'a>(lists: &[&'a List]) -> Vec<(&'a List, &'a Candidate)> {
    let mut v: Vec<(usize, &List, &Candidate)> = vec![];
    for l in lists {
        for c in &l.candidates {
            v.push((v.len(), l, c));
        }
    }
    v.sort_by_key(|(i, _, c)| (c.votes.is_none(), Reverse(c.votes.unwrap_or(0)), *i));
    v.into_iter().map(|(_, l, c)| (l, c)).collect()
}

/// The Land's rules in the fall-back: who is passed over, the notes without effect, whether the successor must
/// prove the end of a bar and the note that says so.
pub(crate) struct Rules<'r> {
    pub exclusion: &'r dyn Fn(&List, &Candidate) -> Option<Exclusion>,
    pub notes: &'r dyn Fn(&List, &Candidate, &mut Vec<TrailStep>),
    pub bar_citation: &'r str,
}

/// The fall-back when the departed's own area Wahlvorschlag `list` is exhausted: `None` when the body's Land has
/// none or the list has no other areas (the caller leaves the seat vacant, as before); otherwise the successor
/// from the party's other areas, the lot among equal votes, or — everyone passed over — `None` with the trail
/// saying so. The trail first notes the step (`other_areas`, citing the fall-back).
pub(crate) fn fall_back(
    body: &Body,
    q: &Query,
    s: &Standing,
    list: &List,
    rules: &Rules,
    trail: &mut Vec<TrailStep>,
) -> Result<Option<Decision>, DecideError> {
    let Areas::FallBack(fb) = body.land().law().areas(body.info().kind) else { return Ok(None) };
    let others = other_areas(body, list);
    if others.is_empty() {
        return Ok(None);
    }
    trail.push(TrailStep::new(None, Verdict::Noted, "other_areas", fb.citation));
    let ranked = by_votes(&others);
    let mut rest = ranked.iter().copied();
    let mut first = None;
    for (l, c) in rest.by_ref() {
        match (rules.exclusion)(l, c) {
            Some(Exclusion { reason, citation }) => {
                trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, reason, citation))
            }
            None => {
                first = Some((l, c));
                break;
            }
        }
    }
    let Some(first) = first else {
        trail.push(TrailStep::new(None, Verdict::Noted, "other_areas_exhausted", fb.citation));
        return Ok(None);
    };
    let tied: Vec<(&List, &Candidate)> = std::iter::once(first)
        .chain(rest.take_while(|(_, c)| c.votes == first.1.votes).filter(|(l, c)| (rules.exclusion)(l, c).is_none()))
        .collect();
    let successor = |(l, c): (&List, &Candidate), trail: &mut Vec<TrailStep>, reason: &str, citation: &str| {
        (rules.notes)(l, c, trail);
        trail.push(TrailStep::new(Some(&c.id), Verdict::Chosen, reason, citation));
        super::order::barred_note(s, c, rules.bar_citation, trail);
        let barred = s.must_prove_bar_end(c);
        Decision { outcome: Outcome::Successor { candidate: c.id.clone(), list: l.id.clone(), barred }, trail: vec![] }
    };
    let mut decision = if tied.len() == 1 {
        successor(first, trail, "most_votes_other_area", fb.citation)
    } else if let Some(w) = q.lot_winner {
        let winner =
            tied.iter().copied().find(|(_, c)| c.id == w).ok_or_else(|| DecideError::LotWinnerNotTied(w.to_owned()))?;
        for (_, c) in tied.iter().filter(|(_, c)| c.id != w) {
            trail.push(TrailStep::new(Some(&c.id), Verdict::Tied, "lost_lot", fb.lot));
        }
        successor(winner, trail, "won_lot", fb.lot)
    } else {
        for (l, c) in &tied {
            (rules.notes)(l, c, trail);
            trail.push(TrailStep::new(Some(&c.id), Verdict::Tied, "equal_votes_lot", fb.lot));
        }
        let tied = tied.iter().map(|(_, c)| c.id.clone()).collect();
        Decision { outcome: Outcome::LotRequired { tied }, trail: vec![] }
    };
    decision.trail = std::mem::take(trail);
    Ok(Some(decision))
}

/// The Nachrückerliste's note on a list tied to the party's other areas: when it is exhausted, they follow
/// (`other_areas_follow`, citing the Land's fall-back).
pub(crate) fn order_note(body: &Body, list: &List, notes: &mut Vec<TrailStep>) {
    if let Areas::FallBack(fb) = body.land().law().areas(body.info().kind) {
        if !other_areas(body, list).is_empty() {
            notes.push(TrailStep::new(None, Verdict::Noted, "other_areas_follow", fb.citation));
        }
    }
}
