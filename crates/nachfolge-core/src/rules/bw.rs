//! Baden-Württemberg: § 31 Abs. 2 GemO "Nachrücken", with § 26 KomWG (the order of the Ersatzpersonen),
//! §§ 16, 28, 29 GemO and § 31 Abs. 3 GemO (Ergänzungswahl).
//!
//! Proportional election: the next Ersatzperson of the departed's Wahlvorschlag moves up (§ 31 Abs. 2 Satz 1
//! GemO); the Ersatzpersonen rank by their votes (§ 26 Abs. 1 Satz 3 KomWG). **[decision]** on equal votes the
//! order of nomination in the Wahlvorschlag decides, as § 26 Abs. 1 Satz 2 KomWG says for the seats (Satz 3
//! names no rule of its own). Unechte Teilortswahl: the Ersatzpersonen of the Wahlvorschlag **for the
//! departed's Wohnbezirk** (§ 26 Abs. 2 Satz 3 KomWG; the candidate's `district`); the holder of a weiterer Sitz
//! among them moves up into the Wohnbezirk seat, and his weiterer Sitz goes to the next Ersatzperson for the
//! weitere Sitze (§ 31 Abs. 2 Satz 2 GemO, § 26 Abs. 2 Satz 5 KomWG). Passed over: who holds or
//! held a seat or is named for another vacancy, who died, who is not wählbar (§ 28 GemO), who has a
//! Hinderungsgrund (§ 29 Abs. 1, 5 GemO), whose refusal the council accepted for a wichtiger Grund (§ 16
//! Abs. 1, 2 GemO: recorded as `declined`). Leaving the party and a waiver have no effect by themselves (§ 16
//! Abs. 1 Satz 3 GemO makes the party exit a wichtiger Grund the council decides on). Nobody left: the seat
//! stays vacant, the statutory size unchanged; below two thirds of it an Ergänzungswahl is due (§ 31 Abs. 3
//! GemO). Majority election (Mehrheitswahl, § 26 Abs. 3 GemO: only one or no valid Wahlvorschlag): the one list
//! of everyone who received votes, ranked by votes (§ 31 Abs. 2 Satz 1 GemO: the Ersatzperson "bei der
//! Feststellung des Wahlergebnisses als nächste Ersatzperson festgestellt"); **[decision]** equal votes go by
//! the lot drawn when the result was determined (`lot_rank`), else the Wahlleitung reports that order as a lot
//! (docs/legal.md, "Point 6: Mehrheitswahl"). A Kreistag (§ 25 Abs. 2 LKrO; the Kreistag's citations are
//! `land/bw.rs`'s): the Ersatzpersonen of the departed's Wahlkreis Wahlvorschlag; the holder of an Ausgleichssitz
//! among them moves up, and an Ausgleichssitz goes to the next Ersatzperson for the Ausgleichssitze of the party
//! across the Wahlkreise, in the order determined with the result (`additional_rank`), past one whose Wahlkreis of
//! one Gemeinde would hold more than two fifths of the seats (§ 25 Abs. 2 Satz 2 LKrO; docs/legal.md,
//! "Baden-Württemberg: a Kreistag's Ausgleichssitze"). Readings taken: docs/legal.md, "Baden-Württemberg".

use super::votes::{self, VoteLaw};
use super::{DecideError, Decision, Exclusion, ListOrder, Outcome, Query, Standing};
use crate::model::{Body, BodyKind, Candidate, ElectoralSystem, Fact, List, SeatVia};
use crate::rules::VacancyReason;
use crate::trail::{TrailStep, Verdict};

/// Citation of the GemO (Baden-Württemberg), e.g. `cite("§ 31 Abs. 2 Satz 1")`.
pub fn cite(part: &str) -> String {
    format!("{part} GemO")
}

/// The council finds whether a Hinderungsgrund exists (§ 29 Abs. 5 GemO); one found passes him over.
pub const BAR_CITATION: &str = "§ 29 Abs. 1, 5 GemO";

/// The Ergänzungswahl when the council falls below two thirds of its statutory size.
pub const SUPPLEMENTARY_ELECTION: &str = "§ 31 Abs. 3 GemO";

/// Without unechte Teilortswahl (§ 26 Abs. 1 KomWG).
static LAW: VoteLaw = VoteLaw {
    departed: "§ 31 Abs. 2 Satz 1 GemO",
    most_votes: "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 1 Satz 3 KomWG",
    list_order_tie: "§ 26 Abs. 1 Satz 3 i. V. m. Satz 2 KomWG entsprechend",
    majority: "§ 31 Abs. 2 Satz 1 GemO",
    lot: "§ 31 Abs. 2 Satz 1 GemO",
    drawn_lot: None,
    exhausted: "§ 31 Abs. 2 Satz 1 GemO",
    size_reduced: None,
    // a Wahlvorschlag of one candidate is a Wahlvorschlag: exhausted with him
    individual: None,
    bar: BAR_CITATION,
    exclusion,
    notes,
};

/// Majority election (§ 26 Abs. 3 GemO): one list of everyone who received votes, by votes; equal votes by
/// the order fixed when the result was determined (docs/legal.md, "Point 6: Mehrheitswahl").
static MAJORITY: VoteLaw = VoteLaw {
    departed: "§ 31 Abs. 2 Satz 1 GemO",
    most_votes: MAJORITY_ORDER,
    list_order_tie: MAJORITY_ORDER,
    majority: MAJORITY_ORDER,
    lot: MAJORITY_ORDER,
    drawn_lot: Some(MAJORITY_ORDER),
    exhausted: "§ 31 Abs. 2 Satz 1 GemO",
    size_reduced: None,
    individual: None,
    bar: BAR_CITATION,
    exclusion,
    notes,
};

/// The order of the Ersatzpersonen of a majority election: as determined with the result (§ 31 Abs. 2 Satz 1
/// GemO) in a Mehrheitswahl (§ 26 Abs. 3 GemO).
pub const MAJORITY_ORDER: &str = "§ 31 Abs. 2 Satz 1 i. V. m. § 26 Abs. 3 GemO";

/// Unechte Teilortswahl: the Ersatzpersonen of the Wahlvorschlag for the Wohnbezirk (§ 26 Abs. 2 KomWG).
static RESIDENTIAL: VoteLaw = VoteLaw {
    departed: "§ 31 Abs. 2 Satz 1 GemO",
    most_votes: "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 2 Satz 3 KomWG",
    list_order_tie: "§ 26 Abs. 2 Satz 3 i. V. m. Satz 2 KomWG entsprechend",
    majority: "§ 31 Abs. 2 Satz 1 GemO",
    lot: "§ 31 Abs. 2 Satz 1 GemO",
    drawn_lot: None,
    exhausted: "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 2 Satz 3 KomWG",
    size_reduced: None,
    individual: None,
    bar: BAR_CITATION,
    exclusion,
    notes,
};

/// A weiterer Sitz (unechte Teilortswahl, § 26 Abs. 2 Satz 4 KomWG): the Ersatzpersonen for the weitere Sitze, the
/// candidates of the whole Wahlvorschlag who got no seat, by votes (§ 26 Abs. 2 Satz 5 KomWG). **[decision]**
/// Equal votes: the lot, as Satz 4 decides the allotment of the weitere Sitze (Satz 5 is cut off in the copy
/// read; docs/legal.md, "Baden-Württemberg: weitere Sitze").
static ADDITIONAL: VoteLaw = VoteLaw {
    departed: "§ 31 Abs. 2 Satz 1 GemO",
    most_votes: "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 2 Satz 5 KomWG",
    list_order_tie: "§ 26 Abs. 2 Satz 4 Halbsatz 2 KomWG entsprechend",
    majority: "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 2 Satz 5 KomWG",
    lot: "§ 26 Abs. 2 Satz 4 Halbsatz 2 KomWG entsprechend",
    drawn_lot: None,
    exhausted: "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 2 Satz 5 KomWG",
    size_reduced: None,
    individual: None,
    bar: BAR_CITATION,
    exclusion,
    notes,
};

/// The weiterer Sitz and its own Ersatzpersonen.
const ADDITIONAL_SEAT: &str = "§ 26 Abs. 2 Satz 4, 5 KomWG";
/// The holder of a weiterer Sitz who is his Wohnbezirk's next Ersatzperson moves up into the Wohnbezirk seat, and
/// his weiterer Sitz is filled in turn from its own Ersatzpersonen (§ 31 Abs. 2 Satz 2 GemO: "Satz 1 gilt
/// entsprechend, wenn eine gewählte Person, der ein Sitz nach § 26 Abs. 2 Satz 4 des Kommunalwahlgesetzes
/// zugeteilt worden war, als Ersatzperson nach Satz 1 nachrückt"; docs/legal.md, "Baden-Württemberg: weitere
/// Sitze").
pub const ADDITIONAL_MOVES_UP: &str = "§ 31 Abs. 2 Satz 2 GemO";
/// Who then takes the weiterer Sitz the mover gives up.
pub const ADDITIONAL_SEAT_THEN: &str = "§ 31 Abs. 2 Satz 2 i. V. m. Satz 1 GemO, § 26 Abs. 2 Satz 5 KomWG";

/// A Kreistag's Ausgleichssitz (§ 26 Abs. 3 Satz 3 KomWG, not read) and its own Ersatzpersonen, determined with the
/// result (§ 46 Abs. 3 KomWO: "Ersatzpersonen für Ausgleichsitze").
pub const KREISTAG_ADDITIONAL_SEAT: &str = "§ 25 Abs. 2 Satz 2 LKrO, § 46 Abs. 3 KomWO";
/// A Kreistag's Ausgleichssitz passes to the next Ersatzperson for the Ausgleichssitze, in the order the
/// Kreiswahlausschuss determined: "der Bewerber …, der bei der Feststellung des Wahlergebnisses als nächster
/// Ersatzmann festgestellt worden ist" (§ 25 Abs. 2 Satz 1 LKrO).
pub const KREISTAG_ADDITIONAL: &str = "§ 25 Abs. 2 Satz 1 LKrO i. V. m. § 46 Abs. 3 KomWO";
/// The Ersatzpersonen for the Ausgleichssitze are exhausted: the seat stays vacant.
pub const KREISTAG_ADDITIONAL_EXHAUSTED: &str = "§ 25 Abs. 2 Satz 1 LKrO";
/// "… ein Ersatzmann wird beim Nachrücken übergangen, wenn sein Wahlkreis nur aus einer Gemeinde besteht und durch
/// sein Nachrücken auf diesen Wahlkreis mehr als zwei Fünftel der im Wahlgebiet insgesamt zu besetzenden Sitze
/// entfallen würden." **[verify]** the copy read may predate the Gesetz vom 4. April 2023, after which § 22 LKrO caps
/// a Wahlkreis at 45 %; between the two the trail asks the Kreistag to check (`wahlkreis_cap_to_check`, docs/legal.md).
pub const TWO_FIFTHS: &str = "§ 25 Abs. 2 Satz 2 Halbsatz 2 LKrO";

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
    let r = if s.seated(c) || s.former_member(c) || s.pending(c) {
        // "die als nächste Ersatzperson festgestellte Person": holds or held a seat, or named for another seat
        ("already_called", cite("§ 31 Abs. 2 Satz 1"))
    } else if s.died(c) {
        ("died", cite("§ 31 Abs. 2 Satz 1"))
    } else if s.ineligible_now(c) {
        ("ineligible", cite("§ 31 Abs. 2 Satz 1 i. V. m. § 28"))
    } else if s.barred(c) {
        // [decision] a Hinderungsgrund current on the reference day passes him over; the council finds it
        ("barred_hinderungsgrund", BAR_CITATION.to_owned())
    } else if c.has_fact(|f| matches!(f, Fact::Declined { .. })) {
        // [decision] recorded once the council accepted his wichtiger Grund
        ("refusal_accepted", cite("§ 16 Abs. 1, 2"))
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1 })
}

/// Recorded facts without effect in Baden-Württemberg; noted in the trail.
pub(super) fn notes(c: &Candidate, trail: &mut Vec<TrailStep>) {
    let mut note =
        |reason: &str, citation: String| trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, reason, citation));
    if c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) {
        // a wichtiger Grund he may claim (§ 16 Abs. 1 Satz 3), not an exclusion
        note("left_party_no_effect", cite("§ 16 Abs. 1 Satz 3"));
    }
    if c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) {
        note("joined_other_party_no_effect", cite("§ 31 Abs. 2 Satz 1"));
    }
    if c.has_fact(|f| matches!(f, Fact::Waived { .. })) {
        // no waiver in the GemO: a duty to accept (§ 15 Abs. 1); only the council frees him (§ 16 Abs. 2)
        note("waiver_no_effect", cite("§ 15 Abs. 1, § 16 Abs. 2"));
    }
}

/// The Wohnbezirk of the departed, where the body elects by unechte Teilortswahl.
fn residential_district<'b>(body: &'b Body, departed: &str) -> Option<&'b str> {
    body.candidate(departed).and_then(|c| c.district.as_deref())
}

/// The trail's reason for a step of the chain: a Gemeinderat's weiterer Sitz, or a Kreistag's Ausgleichssitz
/// (`ausgleichssitz…` instead of `additional_seat…`; docs/contract.md, "The trail").
fn code(body: &Body, council: &'static str) -> &'static str {
    if body.info().kind != BodyKind::Kreistag {
        return council;
    }
    match council {
        "additional_seat" => "ausgleichssitz",
        "additional_seat_holder_moves_up" => "ausgleichssitz_holder_moves_up",
        "additional_seat_holder_ersatzperson" => "ausgleichssitz_holder_ersatzperson",
        "additional_seat_then" => "ausgleichssitz_then",
        "additional_seat_then_lot" => "ausgleichssitz_then_lot",
        "additional_seat_then_vacant" => "ausgleichssitz_then_vacant",
        other => other,
    }
}

/// Holds a weiterer Sitz (§ 26 Abs. 2 Satz 4 KomWG).
fn holds_additional_seat(c: &Candidate) -> bool {
    c.seat.as_ref().is_some_and(|s| s.via == SeatVia::Additional)
}

/// What becomes of the weiterer Sitz that `mover` gives up when he moves into the Wohnbezirk seat: the decision
/// for that seat once he holds the Wohnbezirk seat, as the worker makes it in the case it opens for it (reason
/// `moved_up`). One noted step: the next Ersatzperson for the weitere Sitze (`candidate`), or the candidates of a
/// lot or the seat left vacant (`detail`).
fn then_additional_seat(body: &Body, q: &Query, mover: &str) -> Result<TrailStep, DecideError> {
    let mut snapshot = body.snapshot.clone();
    for c in snapshot.lists.iter_mut().flat_map(|l| l.candidates.iter_mut()) {
        if c.id == mover {
            if let Some(seat) = c.seat.as_mut() {
                seat.via = SeatVia::Succession;
            }
        } else if c.id == q.departed && c.seat.is_some() {
            // he has left once the mover holds his seat (the worker records him so)
            c.seat = None;
            c.facts.push(Fact::FormerMember { on: crate::calendar::local_date(q.at) });
        }
    }
    let then = Query {
        departed: mover,
        departed_via: Some(SeatVia::Additional),
        at: q.at,
        lot_winner: None,
        pending: q.pending.clone(),
        cause: q.cause,
    };
    let d = decide(&Body::indexed(snapshot), &then)?;
    let step = match d.outcome {
        Outcome::Successor { candidate, .. } => {
            TrailStep::new(Some(&candidate), Verdict::Noted, code(body, "additional_seat_then"), ADDITIONAL_SEAT_THEN)
        }
        Outcome::LotRequired { tied } => {
            TrailStep::new(None, Verdict::Noted, code(body, "additional_seat_then_lot"), ADDITIONAL_SEAT_THEN)
                .with_detail(tied.join(", "))
        }
        Outcome::Vacant { .. } => {
            TrailStep::new(None, Verdict::Noted, code(body, "additional_seat_then_vacant"), ADDITIONAL_SEAT_THEN)
        }
    };
    Ok(step)
}

/// How the departed held the seat to be filled: the query says, else his seat.
fn departed_via(body: &Body, q: &Query) -> Option<SeatVia> {
    q.departed_via.or(body.candidate(q.departed).and_then(|c| c.seat.as_ref()).map(|s| s.via))
}

/// The departed held a weiterer Sitz (a Kreistag's Ausgleichssitz).
fn additional_seat(body: &Body, q: &Query) -> bool {
    departed_via(body, q) == Some(SeatVia::Additional)
}

/// The Ersatzpersonen of `list` with the holders of an Ausgleichssitz or weiterer Sitz among them ranked as if they
/// held no seat (§ 31 Abs. 2 Satz 2 GemO, § 25 Abs. 2 Satz 2 LKrO: they got no seat of this kind "nach Satz 1");
/// `district`: only the candidates for this Wohnbezirk. If such a holder is the successor, he moves up: the trail
/// notes it and who then takes the seat he gives up.
fn with_movers(body: &Body, q: &Query, law: &VoteLaw, district: Option<&str>) -> Result<Decision, DecideError> {
    let mut snapshot = body.snapshot.clone();
    let loc = body.locate(q.departed).ok_or_else(|| DecideError::UnknownMember(q.departed.to_owned()))?;
    if let Some(list) = snapshot.lists.get_mut(loc.list) {
        if let Some(district) = district {
            list.candidates.retain(|c| c.district.as_deref() == Some(district));
        }
        for c in list.candidates.iter_mut().filter(|c| c.id != q.departed && holds_additional_seat(c)) {
            c.seat = None;
        }
    }
    let mut d = votes::decide(&Body::indexed(snapshot), q, law, false)?;
    if let Outcome::Successor { candidate, .. } = &d.outcome {
        if body.candidate(candidate).is_some_and(holds_additional_seat) {
            let mover = candidate.clone();
            let reason = code(body, "additional_seat_holder_moves_up");
            d.trail.push(TrailStep::new(Some(&mover), Verdict::Noted, reason, ADDITIONAL_MOVES_UP));
            d.trail.push(then_additional_seat(body, q, &mover)?);
        }
    }
    Ok(d)
}

/// A Kreistag's Ausgleichssitz: the Ersatzpersonen for the Ausgleichssitze of the departed's party (its Wahlvorschläge
/// tied by `lists[].party`, else his own) in the order determined with the result (`additional_rank`); passed over
/// as anywhere, and where the two-fifths rule bars him ([`wahlkreis_share`]). None left: the seat stays vacant.
fn kreistag_additional(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    let loc = body.locate(q.departed).ok_or_else(|| DecideError::UnknownMember(q.departed.to_owned()))?;
    let own = body.list(loc.list);
    let s = Standing::new(body, q);
    let mut ranked: Vec<(&List, &Candidate, u32)> = body
        .snapshot
        .lists
        .iter()
        .filter(|l| l.id == own.id || (own.party.is_some() && l.party == own.party))
        .flat_map(|l| l.candidates.iter().filter_map(move |c| c.additional_rank.map(|r| (l, c, r))))
        .collect();
    ranked.sort_by_key(|(_, _, r)| *r);
    let mut trail = vec![TrailStep::new(Some(q.departed), Verdict::Noted, "ausgleichssitz", KREISTAG_ADDITIONAL_SEAT)];
    for (l, c, _) in ranked {
        let passed = if c.id == q.departed {
            Some(Exclusion { reason: "departed", citation: KREISTAG_ADDITIONAL.to_owned() })
        } else if let Some(e) = exclusion(&s, c) {
            Some(e)
        } else {
            match wahlkreis_share(body, q, l) {
                Share::WithinTwoFifths => None,
                Share::AboveTwoFifths { within_45 } => {
                    if within_45 {
                        // the copy read says two fifths; § 22 Abs. 4 LKrO now caps a Wahlkreis at 45 %: the
                        // Kreistag checks which Fassung of § 25 Abs. 2 Satz 2 applies (docs/legal.md)
                        let step = TrailStep::new(Some(&c.id), Verdict::Noted, "wahlkreis_cap_to_check", CAP_TO_CHECK);
                        trail.push(step);
                    }
                    Some(Exclusion { reason: "wahlkreis_two_fifths", citation: TWO_FIFTHS.to_owned() })
                }
            }
        };
        if let Some(Exclusion { reason, citation }) = passed {
            trail.push(TrailStep::new(Some(&c.id), Verdict::Skipped, reason, citation));
            continue;
        }
        notes(c, &mut trail);
        trail.push(TrailStep::new(
            Some(&c.id),
            Verdict::Chosen,
            "next_ausgleichssitz_ersatzperson",
            KREISTAG_ADDITIONAL,
        ));
        let outcome =
            Outcome::Successor { candidate: c.id.clone(), list: l.id.clone(), barred: s.must_prove_bar_end(c) };
        return Ok(Decision { outcome, trail });
    }
    trail.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", KREISTAG_ADDITIONAL_EXHAUSTED));
    let outcome = Outcome::Vacant { reason: VacancyReason::ListExhausted, statutory_size: body.info().statutory_size };
    Ok(Decision { outcome, trail })
}

/// What the Ersatzperson's moving up would give his Wahlkreis ([`wahlkreis_share`]).
enum Share {
    /// Not a Wahlkreis of one Gemeinde, or at most two fifths of the seats.
    WithinTwoFifths,
    /// More than two fifths: passed over (§ 25 Abs. 2 Satz 2 Halbsatz 2 LKrO as read); `within_45`: not more than
    /// 45 %, the cap § 22 Abs. 4 LKrO now sets for a Wahlkreis — whether § 25 follows it is **[verify]**.
    AboveTwoFifths { within_45: bool },
}

/// The Kreistag checks the Fassung of § 25 Abs. 2 Satz 2 LKrO where the share lies above two fifths and not above 45 %.
pub const CAP_TO_CHECK: &str = "§ 25 Abs. 2 Satz 2 Halbsatz 2, § 22 Abs. 4 LKrO";

/// § 25 Abs. 2 Satz 2 Halbsatz 2 LKrO: the Ersatzperson's Wahlkreis (his list's `area`) consists of one Gemeinde
/// (`body.single_municipality_areas`) and his moving up would give it more than two fifths of the seats. **[decision]**
/// "die im Wahlgebiet insgesamt zu besetzenden Sitze": the seats of the Kreistag as elected, Ausgleichssitze
/// included — the seats held now with the departed's, at least the statutory size; the Wahlkreis's seats: those its
/// candidates hold, the departed's not where it is the seat to be filled (docs/legal.md).
fn wahlkreis_share(body: &Body, q: &Query, list: &List) -> Share {
    let Some(area) = list.area.as_deref() else { return Share::WithinTwoFifths };
    if !body.info().single_municipality_areas.iter().any(|a| a == area) {
        return Share::WithinTwoFifths;
    }
    let departed_via = departed_via(body, q);
    // the departed's seat is the one to be filled unless he moved out of it and holds another (a mover)
    let leaves = |c: &Candidate| c.id == q.departed && c.seat.as_ref().is_none_or(|s| Some(s.via) == departed_via);
    let lists = &body.snapshot.lists;
    let held = lists.iter().flat_map(|l| &l.candidates).filter(|c| c.seat.is_some()).count() as u64;
    let departed_seated = body.candidate(q.departed).is_some_and(|c| c.seat.is_some() && leaves(c));
    let total = (held + u64::from(!departed_seated)).max(u64::from(body.info().statutory_size));
    let in_area = lists
        .iter()
        .filter(|l| l.area.as_deref() == Some(area))
        .flat_map(|l| &l.candidates)
        .filter(|c| c.seat.is_some() && !leaves(c))
        .count() as u64;
    let seats = in_area + 1;
    if seats * 5 > total * 2 {
        Share::AboveTwoFifths { within_45: seats * 100 <= total * 45 }
    } else {
        Share::WithinTwoFifths
    }
}

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    let majority = body.info().electoral_system == ElectoralSystem::Majority;
    let kreistag = body.info().kind == BodyKind::Kreistag;
    let mut decision = match residential_district(body, q.departed) {
        _ if kreistag && additional_seat(body, q) => kreistag_additional(body, q)?,
        // a Wahlkreis seat: the Wahlkreis's Ersatzpersonen, an Ausgleichssitz holder among them moves up
        None if kreistag => with_movers(body, q, &LAW, None)?,
        _ if additional_seat(body, q) => {
            // § 26 Abs. 2 Satz 5 KomWG: across the Wohnbezirke, by votes; equal votes → the lot
            let mut d = votes::decide(body, q, &ADDITIONAL, true)?;
            d.trail.insert(0, TrailStep::new(Some(q.departed), Verdict::Noted, "additional_seat", ADDITIONAL_SEAT));
            d
        }
        None if majority => votes::decide(body, q, &MAJORITY, true)?,
        None => votes::decide(body, q, &LAW, false)?,
        Some(district) => {
            // only the Ersatzpersonen of the Wahlvorschlag for the departed's Wohnbezirk (§ 26 Abs. 2 Satz 3 KomWG);
            // a holder of a weiterer Sitz is one of them (he got no Wohnbezirk seat under Sätze 1 and 2) and moves
            // up (§ 31 Abs. 2 Satz 2 GemO)
            let mut d = with_movers(body, q, &RESIDENTIAL, Some(district))?;
            d.trail.insert(
                0,
                TrailStep::new(Some(q.departed), Verdict::Noted, "residential_district", "§ 26 Abs. 2 Satz 3 KomWG")
                    .with_detail(district.to_owned()),
            );
            d
        }
    };
    if matches!(decision.outcome, Outcome::Vacant { .. }) && below_two_thirds(body, q.departed) {
        let step = TrailStep::new(None, Verdict::Noted, "supplementary_election_required", SUPPLEMENTARY_ELECTION);
        decision.trail.push(step);
    }
    Ok(decision)
}

/// Fewer members than two thirds of the statutory size once the departed's seat stays empty (§ 31 Abs. 3 GemO).
pub(super) fn below_two_thirds(body: &Body, departed: &str) -> bool {
    let seated =
        body.snapshot.lists.iter().flat_map(|l| &l.candidates).filter(|c| c.seat.is_some() && c.id != departed).count()
            as u64;
    seated * 3 < u64::from(body.info().statutory_size) * 2
}

/// The Nachrückerliste of one list (see [`super::order`]). With unechte Teilortswahl the one ranking mixes the
/// Wohnbezirke; a note says that each ranks on its own (docs/legal.md, "Baden-Württemberg").
pub(crate) fn list_order(s: &Standing, list: &List) -> ListOrder {
    let mut out = if s.body.info().electoral_system == ElectoralSystem::Majority {
        votes::list_order(s, list, &MAJORITY, true)
    } else {
        votes::list_order(s, list, &LAW, false)
    };
    if list.candidates.iter().any(|c| c.district.is_some()) {
        out.notes.push(TrailStep::new(
            None,
            Verdict::Noted,
            "ranked_per_residential_district",
            "§ 26 Abs. 2 Satz 3 KomWG",
        ));
    }
    if list.candidates.iter().any(|c| c.district.is_some()) || s.body.info().kind == BodyKind::Kreistag {
        // listed as seated above, but Ersatzpersonen of their Wohnbezirk or Wahlkreis all the same (§ 31 Abs. 2
        // Satz 2 GemO, § 25 Abs. 2 Satz 2 LKrO)
        for c in list.candidates.iter().filter(|c| holds_additional_seat(c)) {
            out.notes.push(TrailStep::new(
                Some(&c.id),
                Verdict::Noted,
                code(s.body, "additional_seat_holder_ersatzperson"),
                ADDITIONAL_MOVES_UP,
            ));
        }
    }
    out
}
