//! Saarland: who succeeds, on the norms that could be read — § 57 KWO "Ersatzleute", § 43 KWG (Benachrichtigung
//! der Gewählten, applied through § 57 Abs. 4 with § 56 KWO) and § 50 KWG (Folgen eines Parteiverbotes).
//! **§ 44 KWG "Ersatzleute" itself was not read** (docs/legal.md, "Saarland"): every determination goes to the
//! Wahlleitung for confirmation (`determination: confirm` is forced by `land/sl.rs`), and no citation here
//! names § 44 KWG.
//!
//! Closed lists: a Wahlvorschlag has a Gebietsliste and may have Bereichslisten; each is recorded as a list of
//! its own. The Ersatzpersonen of a member elected through the Gebietsliste are the Mandatsanwärterinnen und
//! Mandatsanwärter of the Gebietsliste, those of a member elected through a Bereichsliste the Mandatsanwärter of
//! that Bereichsliste (§ 57 Abs. 1 Satz 1 KWO) — the departed's list is the one he was elected on, in list order
//! (**[decision]**: closed lists, no votes per candidate). Passed over: who holds or held a seat or is called
//! elsewhere (a Mandatsanwärter is a candidate not elected), who refused or refused in advance in writing
//! (**[decision]**, § 43 Satz 4 KWG: a refusal is irrevocable), who died, who is not eligible on the reference
//! day (§ 57 Abs. 3 KWO) and, after a party ban, who belonged to the banned party (§ 50 Abs. 1 KWG). Leaving or
//! changing the party is **noted, not applied**: whether it excludes (the OVG Saarland read § 44 Abs. 3 KWG so
//! in 2005) is unverified, and the Wahlleitung decides before it confirms.
//!
//! A list with no Ersatzperson left (an Einzelbewerber's too): § 57 Abs. 1 Satz 2 KWO refers to § 44 Abs. 3
//! Satz 3 KWG, which was not read — the outcome is `returning_officer_decides`, no guessed fall-back. A party
//! ban: the seats that cannot be filled by Ersatzleute stay unbesetzt and the statutory size falls (§ 50 Abs. 3
//! KWG). A majority election (Mehrheitswahl): the candidates who got no seat are the Ersatzleute by their votes, equal
//! votes by the lot the Wahlleitung draws (§ 57 Abs. 2 i. V. m. § 55 Abs. 2 KWO; `lot_rank` where it was drawn with
//! the result). When § 44 KWG is read, this file is the one that changes (docs/legal.md, "Saarland").

use super::order::passed;
use super::votes::{self, VoteLaw};
use super::{
    in_list_order, left_to_returning_officer, Cause, DecideError, Decision, Exclusion, ListOrder, Outcome, Query,
    Standing, VacancyReason,
};
use crate::model::{Body, BodyKind, Candidate, Declination, ElectoralSystem, Fact, List, WaiverForm};
use crate::trail::{TrailStep, Verdict};

/// Who the Ersatzpersonen of the departed are: the Mandatsanwärter of the list he was elected through.
pub const NEXT: &str = "§ 57 Abs. 1 Satz 1 KWO";
/// The list has no Ersatzperson left: § 57 Abs. 1 Satz 2 KWO refers to a norm not read; the Wahlleitung decides.
pub const EXHAUSTED: &str = "§ 57 Abs. 1 Satz 2 KWO";
/// A refusal of the election is irrevocable; the rules for the declaration apply to Ersatzleute.
const REFUSAL: &str = "§ 43 Satz 4 KWG i. V. m. § 57 Abs. 4 KWO";
/// The declaration is written.
const WRITTEN: &str = "§ 43 Satz 1 KWG i. V. m. § 57 Abs. 4 KWO";
/// Eligibility is checked when the Ersatzleute are determined.
pub const ELIGIBLE: &str = "§ 57 Abs. 3 KWO";
/// A Kreistag's seat after a party ban: § 50 KWG speaks of the Gemeinderat, and the Kreistag's reference to it
/// (§§ 58–65 KWG) was not read; § 156 Abs. 3 KSVG leaves the Kreistag's Ergänzung to the KWG — the Kreiswahlleitung
/// decides (docs/legal.md, "Saarland: Kreistage").
pub const KREISTAG_PARTY_BAN: &str = "§ 156 Abs. 3 KSVG";
/// The Regionalversammlung's likewise (§ 205 Abs. 3 KSVG).
pub const REGIONAL_PARTY_BAN: &str = "§ 205 Abs. 3 KSVG";
/// Ersatzleute of a banned party lose the Anwartschaft.
const BANNED: &str = "§ 50 Abs. 1 Satz 1 KWG";
/// Seats not filled by Ersatzleute after a party ban stay unbesetzt; the statutory size falls.
pub const PARTY_BAN_CITATION: &str = "§ 50 Abs. 3 KWG";

/// A majority election: "Hat Mehrheitswahl stattgefunden, so werden die Ersatzleute nach den Vorschriften des § 44 Abs.
/// 2 und Abs. 3 Satz 1 und 4 des Kommunalwahlgesetzes und des § 55 Abs. 2 festgestellt" (§ 57 Abs. 2 KWO); § 55 Abs. 2
/// Satz 1 KWO: the candidates who got no seat "gelten in der Reihenfolge der auf sie entfallenden höchsten
/// Stimmenzahlen als Ersatzleute".
pub const MAJORITY: &str = "§ 57 Abs. 2 i. V. m. § 55 Abs. 2 Satz 1 KWO";
/// … "Bei gleicher Stimmenzahl entscheidet über die Reihenfolge das von der Gemeindewahlleiterin oder dem
/// Gemeindewahlleiter zu ziehende Los" (§ 55 Abs. 2 Satz 2 KWO): drawn when the Ersatzleute are determined
/// (`lot_rank`), else the Wahlleitung draws it now.
pub const MAJORITY_LOT: &str = "§ 57 Abs. 2 i. V. m. § 55 Abs. 2 Satz 2 KWO";
/// No Ersatzperson left in a majority election: § 57 Abs. 2 KWO refers to § 44 Abs. 3 Satz 4 KWG, not read.
pub const MAJORITY_EXHAUSTED: &str = "§ 57 Abs. 2 KWO";

static MAJORITY_LAW: VoteLaw = VoteLaw {
    departed: MAJORITY,
    most_votes: MAJORITY,
    list_order_tie: MAJORITY,
    majority: MAJORITY,
    lot: MAJORITY_LOT,
    drawn_lot: Some(MAJORITY_LOT),
    exhausted: MAJORITY_EXHAUSTED,
    size_reduced: None,
    individual: None,
    bar: BAR_CITATION,
    exclusion: majority_exclusion,
    notes: fact_notes,
};

/// [`exclusion`] in a majority election: who holds or held a seat, is called elsewhere or died is no Ersatzperson
/// of § 55 Abs. 2 KWO (the candidates "denen … kein Sitz zugeteilt wurde"), not of § 57 Abs. 1.
fn majority_exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
    exclusion(s, c).map(|mut e| {
        if e.citation == NEXT {
            e.citation = MAJORITY.to_owned();
        }
        e
    })
}

/// An Unvereinbarkeit (§ 17 Abs. 1 Nr. 1–4 KWG): he can accept only with the proof of the end of the employment
/// or of the leave, else the election counts as refused (§ 56 Abs. 3 KWO, applied by § 57 Abs. 4 KWO).
pub const BAR_CITATION: &str = "§ 17 Abs. 1 KWG i. V. m. § 56 Abs. 3, § 57 Abs. 4 KWO";

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
    let r = if s.seated(c) || s.former_member(c) || s.pending(c) {
        // "Mandatsanwärterinnen und Mandatsanwärter": not elected, or called to another seat
        ("already_called", NEXT)
    } else if c.has_fact(|f| matches!(f, Fact::Declined { of: Declination::Election, .. })) {
        // elected and declined the election: no Mandatsanwärter
        ("declined", NEXT)
    } else if c.has_fact(|f| matches!(f, Fact::Declined { of: Declination::Succession, .. })) {
        // [decision] "Wird die Wahl nicht angenommen, so ist dies unwiderruflich"
        ("declined", REFUSAL)
    } else if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Written, .. })) {
        // [decision] a refusal declared in writing in advance
        ("waived", REFUSAL)
    } else if s.died(c) {
        ("died", NEXT)
    } else if s.banned_party_member(c) {
        ("banned_party_member", BANNED)
    } else if s.ineligible_now(c) {
        ("ineligible", ELIGIBLE)
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1.to_owned() })
}

/// Recorded facts the rules do not apply; noted in the trail for the Wahlleitung. Only called for a candidate
/// who is not passed over.
pub(super) fn notes(s: &Standing, c: &Candidate, trail: &mut Vec<TrailStep>) {
    fact_notes(c, trail);
    if s.must_prove_bar_end(c) {
        trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, "barred_must_prove_end", BAR_CITATION));
    }
}

/// The recorded facts without effect (a party change, a waiver not in writing), noted for the Wahlleitung.
fn fact_notes(c: &Candidate, trail: &mut Vec<TrailStep>) {
    let mut note =
        |reason: &str, citation: &str| trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, reason, citation));
    if c.has_fact(|f| matches!(f, Fact::LeftParty { .. } | Fact::JoinedOtherParty { .. })) {
        // [open] whether it excludes him is unverified: the Wahlleitung decides before confirming
        note("party_change_returning_officer_decides", NEXT);
    }
    if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Recorded, .. })) {
        note("waiver_not_written", WRITTEN);
    }
}

/// The outcome where the list has no Ersatzperson left: named, not decided.
fn referred(body: &Body, trail: &mut Vec<TrailStep>) -> Outcome {
    referred_to(body, trail, EXHAUSTED)
}

/// [`referred`], citing `citation` (the norm that refers to the rule not read).
fn referred_to(body: &Body, trail: &mut Vec<TrailStep>, citation: &str) -> Outcome {
    left_to_returning_officer(body, trail, "list_exhausted_returning_officer_decides", citation)
}

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    let loc = body.locate(q.departed).ok_or_else(|| DecideError::UnknownMember(q.departed.to_owned()))?;
    let list = body.list(loc.list);
    let departed = &list.candidates[loc.cand];
    let s = Standing::new(body, q);
    let mut trail = Vec::new();
    if matches!(q.cause, Cause::PartyBan { .. }) && body.info().kind != BodyKind::Council {
        // no fall-back guessed: the departure is recorded, the seat left to the (Kreis-)Wahlleitung
        let citation = match body.info().kind {
            BodyKind::Regionalversammlung => REGIONAL_PARTY_BAN,
            _ => KREISTAG_PARTY_BAN,
        };
        let outcome = left_to_returning_officer(body, &mut trail, "party_ban_returning_officer_decides", citation);
        return Ok(Decision { outcome, trail });
    }
    let party_ban = match q.cause {
        Cause::PartyBan { list_banned: true } => {
            // elected on the banned party's Wahlvorschlag: its Ersatzleute lost the Anwartschaft with him
            trail.push(TrailStep::new(None, Verdict::Noted, "party_banned", BANNED));
            return Ok(Decision { outcome: banned_vacancy(body, &mut trail), trail });
        }
        Cause::PartyBan { list_banned: false } => true,
        // a merger or a corrected result is refused by `validate_cause`
        Cause::Ordinary | Cause::Merger | Cause::ResultCorrected => false,
    };
    if body.info().electoral_system == ElectoralSystem::Majority {
        let mut d = votes::decide(body, q, &MAJORITY_LAW, true)?;
        if let Outcome::Vacant { reason: VacancyReason::ListExhausted, .. } = d.outcome {
            // nobody left: what § 44 Abs. 3 Satz 4 KWG says was not read — or the party ban's § 50 Abs. 3 KWG
            d.outcome = if party_ban {
                banned_vacancy(body, &mut d.trail)
            } else {
                referred_to(body, &mut d.trail, MAJORITY_EXHAUSTED)
            };
        }
        return Ok(d);
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
                let outcome = Outcome::Successor {
                    candidate: c.id.clone(),
                    list: list.id.clone(),
                    barred: s.must_prove_bar_end(c),
                };
                return Ok(Decision { outcome, trail });
            }
        }
    }
    let outcome = if party_ban { banned_vacancy(body, &mut trail) } else { referred(body, &mut trail) };
    Ok(Decision { outcome, trail })
}

/// § 50 Abs. 3 KWG: the seat stays unbesetzt, the statutory size falls by one for the rest of the term.
fn banned_vacancy(body: &Body, trail: &mut Vec<TrailStep>) -> Outcome {
    trail.push(TrailStep::new(None, Verdict::Noted, "statutory_size_reduced", PARTY_BAN_CITATION));
    Outcome::Vacant { reason: VacancyReason::PartyBanned, statutory_size: body.info().statutory_size.saturating_sub(1) }
}

/// The Nachrückerliste of one list (see [`super::order`]): its Mandatsanwärter in list order; in a majority
/// election everyone who got no seat, by votes (§ 57 Abs. 2 i. V. m. § 55 Abs. 2 KWO).
pub(crate) fn list_order(s: &Standing, list: &List) -> ListOrder {
    if s.body.info().electoral_system == ElectoralSystem::Majority {
        return votes::list_order(s, list, &MAJORITY_LAW, true);
    }
    let mut out = ListOrder::new(&list.id);
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
        out.notes.push(TrailStep::new(None, Verdict::Noted, "list_exhausted_returning_officer_decides", EXHAUSTED));
    }
    out
}
