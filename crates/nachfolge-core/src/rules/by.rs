//! Bayern: Art. 37 GLKrWG "Listennachfolger", with Art. 36, 38, 47, 48 GLKrWG.
//!
//! Proportional election (Verhältniswahl): the not elected candidates of the departed's Wahlvorschlag are
//! Listennachfolger "in der Reihenfolge ihrer Stimmenzahlen; bei Stimmengleichheit entscheidet das Los"
//! (Art. 37 Abs. 1 Satz 1) — by personal votes, as the seats were allocated (Art. 36), **not** by list order;
//! on equal votes the lot, which the Wahlausschuss drew when it determined the result: the worker asks the
//! Wahlleiter to report it (`lot.requested`), it never draws. A verbundener Wahlvorschlag: from the same
//! Wahlvorschlag (Art. 37 Abs. 1 Satz 2; each Wahlvorschlag is one list of the snapshot). Majority election
//! (Art. 38): all persons who received votes, by votes, lot on equal votes (Art. 38 Abs. 2 Satz 2, 3).
//!
//! Passed over: who holds a seat, who held one and left for another cause than a Hinderungsgrund (a member
//! who left under Art. 31 Abs. 3 GO — a bar current on the day he left — is a Listennachfolger again, Art. 37
//! Abs. 1 Satz 1), or is called to another vacancy; an elected person who declined the election (`declined`
//! with `of: election`, Art. 47) — no Listennachfolger (Art. 37 Abs. 1 Satz 1); who refused when called **for
//! this vacancy** (Art. 48 Abs. 1 Satz 2; `declined` with `of: succession`) — **[decision]** he stays a
//! Listennachfolger for later vacancies, as Art. 37 Abs. 2 Satz 2 strikes only who cannot take office; who
//! waived in writing (**[decision]**); who
//! died; who is not eligible when called — struck (Art. 37 Abs. 2 Satz 2 Halbsatz 1); who cannot take office
//! because of a Hinderungsgrund (Art. 31 Abs. 3 GO) — passed over for this vacancy, he stays on the list
//! (Art. 37 Abs. 2 Satz 2 Halbsatz 2). Leaving or changing the party has no effect (BayVGH, Urt. v.
//! 21.08.1968 – 47 IV 68). Nobody left: the seat stays vacant, the statutory size unchanged (**[decision]**;
//! only Art. 49 Abs. 3 reduces it, after a party ban). Readings taken: docs/legal.md, "Bayern".
//!
//! A **Bezirkstag** (`body.kind = bezirkstag`) follows the Bezirkswahlgesetz, which applies the
//! Landeswahlgesetz (Art. 4 Abs. 1 BezWG), not the GLKrWG: [`bezirkstag`] below (docs/legal.md, "Bayern's
//! Bezirkstage").

use super::votes::{self, VoteLaw};
use super::{DecideError, Decision, Exclusion, ListOrder, Query, Standing};
use crate::model::{Body, BodyKind, Candidate, Declination, ElectoralSystem, Fact, List, WaiverForm};
use crate::trail::{TrailStep, Verdict};

/// Citation of the GLKrWG, e.g. `cite("Art. 37 Abs. 2 Satz 2")`.
pub fn cite(part: &str) -> String {
    format!("{part} GLKrWG")
}

/// Why a candidate with a Hinderungsgrund (Art. 31 Abs. 3 GO) is passed over and stays a Listennachfolger.
pub const BAR_CITATION: &str = "Art. 37 Abs. 2 Satz 2 Halbsatz 2 GLKrWG i. V. m. Art. 31 Abs. 3 GO";

/// Proportional election (Art. 37 Abs. 1 Satz 1): by votes, the lot on equal votes.
static PROPORTIONAL: VoteLaw = VoteLaw {
    departed: "Art. 37 Abs. 1 Satz 1 GLKrWG",
    most_votes: "Art. 37 Abs. 1 Satz 1 Halbsatz 1 GLKrWG",
    list_order_tie: "Art. 37 Abs. 1 Satz 1 Halbsatz 2 GLKrWG",
    majority: "Art. 37 Abs. 1 Satz 1 Halbsatz 1 GLKrWG",
    lot: "Art. 37 Abs. 1 Satz 1 Halbsatz 2 GLKrWG",
    drawn_lot: Some("Art. 37 Abs. 1 Satz 1 Halbsatz 2 GLKrWG"),
    exhausted: "Art. 48 Abs. 1 Satz 3 GLKrWG",
    size_reduced: None,
    individual: None,
    bar: BAR_CITATION,
    exclusion,
    notes,
};

/// Majority election (Art. 38 Abs. 2): by votes, the lot on equal votes.
static MAJORITY: VoteLaw = VoteLaw {
    departed: "Art. 38 Abs. 2 Satz 2 GLKrWG",
    most_votes: "Art. 38 Abs. 2 Satz 2 GLKrWG",
    list_order_tie: "Art. 38 Abs. 2 Satz 3 GLKrWG",
    majority: "Art. 38 Abs. 2 Satz 2 GLKrWG",
    lot: "Art. 38 Abs. 2 Satz 3 GLKrWG",
    drawn_lot: Some("Art. 38 Abs. 2 Satz 3 GLKrWG"),
    exhausted: "Art. 48 Abs. 1 Satz 3 GLKrWG",
    size_reduced: None,
    individual: None,
    bar: BAR_CITATION,
    exclusion,
    notes,
};

fn law(body: &Body) -> &'static VoteLaw {
    match (body.info().kind, body.info().electoral_system) {
        (BodyKind::Bezirkstag, _) => &bezirkstag::LAW,
        (_, ElectoralSystem::Majority) => &MAJORITY,
        (_, ElectoralSystem::Proportional) => &PROPORTIONAL,
    }
}

/// A refusal for the vacancy now being filled: on or after the day the seat became free. `None` (no departed:
/// the succession order) counts no refusal as one for this vacancy.
fn declined_now(s: &Standing, c: &Candidate) -> bool {
    s.vacated()
        .is_some_and(|v| c.has_fact(|f| matches!(f, Fact::Declined { on, of: Declination::Succession } if *on >= v)))
}

/// Art. 37 Abs. 1 Satz 1 GLKrWG names the not elected persons and the elected who cannot take office or leave
/// under Art. 31 Abs. 3 GO — not an elected person who declined the election (Art. 47): he is no
/// Listennachfolger, for any vacancy.
fn declined_election(c: &Candidate) -> bool {
    c.has_fact(|f| matches!(f, Fact::Declined { of: Declination::Election, .. }))
}

/// Art. 37 Abs. 1 Satz 1 GLKrWG with Art. 31 Abs. 3 GO (Art. 24 Abs. 3 LKrO): he left the council because of a
/// Hinderungsgrund — a bar (`barred`) was current on the day he left (his latest `former_member` fact). Such a
/// member is a Listennachfolger again; whether he can take office now is Art. 37 Abs. 2 Satz 2 (a bar still
/// current passes him over and he stays on the list).
fn left_for_hinderungsgrund(c: &Candidate) -> bool {
    let left = c.facts.iter().filter_map(|f| match f {
        Fact::FormerMember { on } => Some(*on),
        _ => None,
    });
    left.max().is_some_and(|on| c.is_barred_at(on))
}

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
    let r = if s.seated(c) {
        // "die nicht gewählten sich bewerbenden Personen"
        ("seated", cite("Art. 37 Abs. 1 Satz 1"))
    } else if s.former_member(c) && !left_for_hinderungsgrund(c) {
        // "die gewählten sich bewerbenden Personen, die nach Art. 31 Abs. 3 GO … ausscheiden": only a member
        // whom a Hinderungsgrund made leave is a Listennachfolger again; one who resigned is not
        ("former_member", cite("Art. 37 Abs. 1 Satz 1"))
    } else if declined_election(c) {
        // "Ablehnung der Wahl": not among the persons Art. 37 Abs. 1 Satz 1 makes Listennachfolger
        ("declined", cite("Art. 37 Abs. 1 Satz 1"))
    } else if s.pending(c) {
        ("pending_successor", cite("Art. 37 Abs. 1 Satz 1"))
    } else if declined_now(s, c) {
        // "kann die Übernahme des Amts ablehnen"; "rückt ein Listennachfolger nach"
        ("declined", cite("Art. 48 Abs. 1 Satz 2, 3"))
    } else if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Written, .. })) {
        // [decision] no rule on a waiver: a written one is a refusal declared in advance for every vacancy
        ("waived", cite("Art. 48 Abs. 1 Satz 2"))
    } else if s.died(c) {
        ("died", cite("Art. 37 Abs. 1 Satz 1"))
    } else if s.ineligible_now(c) {
        // not eligible when called: struck from the list (GLKrWBek Nr. 84.4: "noch oder wieder")
        ("ineligible", cite("Art. 37 Abs. 2 Satz 2 Halbsatz 1"))
    } else if s.barred(c) {
        // a Hinderungsgrund: he cannot take office now, but stays a Listennachfolger
        ("barred_stays_successor", BAR_CITATION.to_owned())
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1 })
}

/// Recorded facts without effect in Bayern; noted in the trail.
pub(super) fn notes(c: &Candidate, trail: &mut Vec<TrailStep>) {
    let mut note =
        |reason: &str, citation: String| trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, reason, citation));
    // BayVGH, Urt. v. 21.08.1968 – 47 IV 68: only the eligibility matters (Art. 37 Abs. 2 Satz 1)
    if c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) {
        note("left_party_no_effect", cite("Art. 37 Abs. 2 Satz 1"));
    }
    if c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) {
        note("joined_other_party_no_effect", cite("Art. 37 Abs. 2 Satz 1"));
    }
    if c.has_fact(|f| matches!(f, Fact::Declined { of: Declination::Succession, .. })) {
        // [decision] a refusal for an earlier vacancy does not strike him (Art. 37 Abs. 2 Satz 2)
        note("declined_earlier_stays_successor", cite("Art. 37 Abs. 2 Satz 2"));
    }
    if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Recorded, .. })) {
        note("waiver_not_written", cite("Art. 48 Abs. 1 Satz 2"));
    }
}

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    // equal votes always go to the Wahlleiter: the lot (Art. 37 Abs. 1 Satz 1 Halbsatz 2, Art. 38 Abs. 2 Satz 3)
    votes::decide(body, q, law(body), true)
}

/// The Nachrückerliste of one list (see [`super::order`]); equal votes form a group for the lot.
pub(crate) fn list_order(body: &Body, s: &Standing, list: &List) -> ListOrder {
    votes::list_order(s, list, law(body), true)
}

/// Bayern's Bezirkstage: Art. 4 BezWG with Art. 45, 46 LWG (Art. 4 Abs. 1 BezWG: "finden die nachstehenden
/// Vorschriften des Landeswahlgesetzes Anwendung"), § 70 LWO (Art. 6 BezWG).
///
/// The not elected persons of the departed's Wahlkreisvorschlag are Listennachfolger "in der Reihenfolge ihrer
/// Stimmenzahlen" (Art. 46 Abs. 1 Satz 1 LWG) — a Stimmkreisbewerber's votes in his Stimmkreis and on the
/// Wahlkreisliste added (Art. 45 Abs. 1 Satz 2 LWG): the snapshot's `votes` is that Gesamtstimmenzahl; equal votes
/// by the lot the Wahlkreisausschuss drew with the result (Art. 46 Abs. 1 Satz 2 LWG, § 70 Abs. 3 LWO: `lot_rank`),
/// else the Wahlleitung is asked for it. Passed over: who was elected (holds or held a seat, or declined the
/// election — **[decision]** "die nicht gewählten sich bewerbenden Personen" read literally), who is called
/// elsewhere, who waived in writing (Art. 46 Abs. 2 LWG, irrevocable), who died; who refused this Nachrücken
/// (Art. 4 Abs. 2 Satz 5, 6, Abs. 3 BezWG) — **[decision]** he stays a Listennachfolger for later vacancies, as only
/// the Verzicht ends the Anwartschaft (Art. 46 Abs. 2 LWG); who does not meet the eligibility "noch oder wieder"
/// now (Art. 4 Abs. 2 Satz 7 BezWG) and who exercises an incompatible activity (Art. 4 Abs. 4 BezWG, Art. 23
/// Abs. 4 BezO) — both passed over for this vacancy only. Nobody left: the seat stays unbesetzt, the size
/// unchanged (**[decision]**, Art. 45 Abs. 3 LWG entsprechend). docs/legal.md, "Bayern's Bezirkstage".
pub mod bezirkstag {
    use super::super::votes::VoteLaw;
    use super::super::{Exclusion, Standing};
    use super::{declined_election, declined_now};
    use crate::model::{Candidate, Declination, Fact, WaiverForm};
    use crate::trail::{TrailStep, Verdict};

    /// The order of the Listennachfolger.
    pub const ORDER: &str = "Art. 46 Abs. 1 Satz 1 LWG i. V. m. Art. 4 Abs. 1 BezWG";
    /// The lot on equal votes, drawn with the result.
    pub const LOT: &str = "Art. 46 Abs. 1 Satz 2 LWG i. V. m. Art. 4 Abs. 1 BezWG";
    /// Why a Listennachfolger with an incompatible activity cannot move up now and stays on the list.
    pub const BAR_CITATION: &str = "Art. 4 Abs. 4 BezWG i. V. m. Art. 23 Abs. 4 BezO";
    /// A refusal for this vacancy, found effective by the Bezirkstag.
    pub const REFUSAL: &str = "Art. 4 Abs. 2 Satz 5, 6, Abs. 3 BezWG";
    /// The written, irrevocable Verzicht.
    pub const WAIVER: &str = "Art. 46 Abs. 2 LWG i. V. m. Art. 4 Abs. 1 BezWG";
    /// "kann nur nachrücken, wenn er zu diesem Zeitpunkt die Wählbarkeitsvoraussetzungen noch oder wieder erfüllt".
    pub const ELIGIBLE_NOW: &str = "Art. 4 Abs. 2 Satz 7, Abs. 3 BezWG";

    pub(in crate::rules) static LAW: VoteLaw = VoteLaw {
        departed: ORDER,
        most_votes: ORDER,
        list_order_tie: LOT,
        majority: ORDER,
        lot: LOT,
        drawn_lot: Some("Art. 46 Abs. 1 Satz 2 LWG, § 70 Abs. 3 LWO"),
        exhausted: "Art. 4 Abs. 3 BezWG i. V. m. Art. 45 Abs. 3 LWG entsprechend",
        size_reduced: None,
        individual: None,
        bar: BAR_CITATION,
        exclusion,
        notes,
    };

    fn exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
        let (reason, citation) = if s.seated(c) {
            ("seated", ORDER)
        } else if s.former_member(c) {
            // [decision] elected once: not among "die nicht gewählten sich bewerbenden Personen"
            ("former_member", ORDER)
        } else if declined_election(c) {
            ("declined", ORDER)
        } else if s.pending(c) {
            ("pending_successor", ORDER)
        } else if declined_now(s, c) {
            ("declined", REFUSAL)
        } else if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Written, .. })) {
            ("waived", WAIVER)
        } else if s.died(c) {
            ("died", ORDER)
        } else if s.ineligible_now(c) {
            ("not_eligible_now", ELIGIBLE_NOW)
        } else if s.barred(c) {
            ("barred_stays_successor", BAR_CITATION)
        } else {
            return None;
        };
        Some(Exclusion { reason, citation: citation.to_owned() })
    }

    fn notes(c: &Candidate, trail: &mut Vec<TrailStep>) {
        let mut note = |reason: &str, citation: &str| {
            trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, reason, citation));
        };
        if c.has_fact(|f| matches!(f, Fact::Declined { of: Declination::Succession, .. })) {
            // [decision] only the Verzicht ends the Anwartschaft (Art. 46 Abs. 2 LWG)
            note("declined_earlier_stays_successor", WAIVER);
        }
        if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Recorded, .. })) {
            note("waiver_not_written", WAIVER);
        }
        // [decision] Art. 46 LWG names no party exit: the votes alone decide
        if c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) {
            note("left_party_no_effect", ORDER);
        }
        if c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) {
            note("joined_other_party_no_effect", ORDER);
        }
    }
}
