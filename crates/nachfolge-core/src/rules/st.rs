//! Sachsen-Anhalt: § 47 KWG LSA "Ersatz von Vertretern" with § 42 Abs. 4 KVG LSA (Nachrücken), § 41 KWG LSA
//! (nächst festgestellte Bewerber) and § 48 KWG LSA (Ausscheiden von nächst festgestellten Bewerbern).
//!
//! Proportional election: the nächst festgestellte Bewerber of the departed's Wahlvorschlag with the most
//! votes; on equal votes the order on the Wahlvorschlag; candidates without votes follow in that order (§ 41
//! Abs. 2 Satz 1, 2). Majority election: by votes (§ 41 Abs. 2 Satz 3); **[decision]** equal votes → the
//! Wahlleiter's lot. Passed over: anyone already called; one who refused (§ 48 Abs. 1 Satz 1); a written
//! waiver (§ 48 Abs. 2); loss of eligibility (§ 48 Abs. 3); died; left or expelled from the party — or, on a
//! party list, joined a party with a competing Wahlvorschlag — **and** the party told the Wahlleiter in writing
//! before the seat became free (§ 47 Abs. 1 Satz 2, 3). A bar (§ 41 KVG LSA) does not pass a candidate over:
//! he must end it before he accepts (§ 42 Abs. 1 Nr. 3 KVG LSA). An Einzelbewerber has no nächst festgestellte
//! Bewerber; an exhausted Wahlvorschlag or a party ban leaves the seat vacant, the statutory size unchanged
//! (§ 47 Abs. 2, 3; § 49 Abs. 2) — the seat of a banned party's member elected on another Wahlvorschlag passes on
//! it, past whoever belonged to the party (§ 47 Abs. 2 Nr. 2, § 48 Abs. 1 Satz 2). Readings taken: docs/legal.md, "Sachsen-Anhalt".

use super::votes::{self, VoteLaw};
use super::{Cause, DecideError, Decision, Exclusion, ListOrder, Query, Standing, VacancyReason};
use crate::model::{Body, Candidate, ElectoralSystem, Fact, List, WaiverForm};
use crate::trail::{TrailStep, Verdict};

/// Citation of the KWG LSA, e.g. `cite("§ 48 Abs. 2")`.
pub fn cite(part: &str) -> String {
    format!("{part} KWG LSA")
}

/// Why a barred successor must end the bar before he accepts (Hinderungsgrund, § 41 KVG LSA).
pub const BAR_CITATION: &str = "§ 41 Abs. 1 i. V. m. § 42 Abs. 1 Nr. 3 KVG LSA";

/// A seat freed by a party ban does not pass to a nächst festgestellter Bewerber of the banned party's
/// Wahlvorschlag.
pub const PARTY_BAN_CITATION: &str = "§ 47 Abs. 2 Nr. 1 KWG LSA";
/// A seat freed by a party ban, of a member elected on another Wahlvorschlag: it passes to his Wahlvorschlag's next
/// nächst festgestellter Bewerber, not to one who belonged to the banned party when the judgment was pronounced
/// (§ 47 Abs. 2 Nr. 2) — membership is not in the snapshot, so the Wahlleitung records it (`banned_party_member`)
/// and checks it before the determination (docs/legal.md, "Sachsen-Anhalt").
pub const PARTY_BAN_SEAT: &str = "§ 47 Abs. 2 KWG LSA";
/// Who belonged to the banned party at the Verkündung leaves as nächst festgestellter Bewerber (§ 48 Abs. 1 Satz 2:
/// "Das Gleiche gilt in den Fällen des § 47 Abs. 1 und 2").
pub const BANNED_MEMBER: &str = "§ 48 Abs. 1 Satz 2 i. V. m. § 47 Abs. 2 Nr. 2 KWG LSA";

static LAW: VoteLaw = VoteLaw {
    departed: "§ 41 Abs. 1 KWG LSA",
    most_votes: "§ 41 Abs. 2 Satz 1 Halbsatz 1 KWG LSA",
    list_order_tie: "§ 41 Abs. 2 Satz 1 Halbsatz 2 KWG LSA",
    majority: "§ 41 Abs. 2 Satz 3 KWG LSA",
    // [decision] § 41 Abs. 2 Satz 3 has no tie rule: the Wahlleiter's lot (docs/legal.md, "Sachsen-Anhalt")
    lot: "§ 41 Abs. 2 Satz 3, Abs. 3 KWG LSA",
    drawn_lot: None,
    exhausted: "§ 47 Abs. 3 KWG LSA, § 75 Abs. 3 KWO LSA",
    // the seat stays vacant until an Ergänzungswahl restores the statutory number (§ 42 Abs. 5 KVG LSA)
    size_reduced: None,
    // "des Wahlvorschlages einer Partei oder Wählergruppe": an Einzelbewerber has none
    individual: Some("§ 41 Abs. 1 KWG LSA"),
    bar: BAR_CITATION,
    exclusion,
    notes,
};

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
    let r = if s.seated(c) || s.former_member(c) || s.pending(c) {
        // "die nicht gewählten Bewerber": holds or held a seat, or is called to another vacancy
        ("already_called", cite("§ 41 Abs. 1"))
    } else if s.banned_party_member(c) {
        ("banned_party_member", BANNED_MEMBER.to_owned())
    } else if c.has_fact(|f| matches!(f, Fact::Declined { .. })) {
        ("declined", cite("§ 48 Abs. 1 Satz 1"))
    } else if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Written, .. })) {
        // "dem Wahlleiter schriftlich zu erklären", irrevocable
        ("waived", cite("§ 48 Abs. 2"))
    } else if s.died(c) {
        ("died", cite("§ 41 Abs. 1"))
    } else if s.ineligible_now(c) {
        ("ineligible", cite("§ 48 Abs. 3 Satz 1"))
    } else if s.ineligible_during_term(c) {
        // "verliert … die Wählbarkeit …, so scheidet er … aus": for good
        ("not_continuously_eligible", cite("§ 48 Abs. 3 Satz 1"))
    } else if s.on_party_list(c) && c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) && s.party_notified(c) {
        ("left_party_notified", cite("§ 47 Abs. 1 Satz 2"))
    } else if s.on_party_list(c) && c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) && s.party_notified(c) {
        ("joined_competing_party", cite("§ 47 Abs. 1 Satz 3"))
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1 })
}

/// Recorded facts without effect in Sachsen-Anhalt; noted in the trail. Only called for a candidate who is
/// not passed over.
pub(super) fn notes(c: &Candidate, trail: &mut Vec<TrailStep>) {
    let mut note =
        |reason: &str, citation: String| trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, reason, citation));
    if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Recorded, .. })) {
        // § 48 Abs. 2 Satz 3 demands the written form; a Niederschrift is not it (§ 50 Abs. 2 names both)
        note("waiver_not_written", cite("§ 48 Abs. 2 Satz 3"));
    }
    // a party exit without the party's timely written notice, or from a Wählergruppe: he stays
    if c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) {
        note("left_party_no_effect", cite("§ 47 Abs. 1 Satz 2"));
    }
    if c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) {
        note("joined_other_party_no_effect", cite("§ 47 Abs. 1 Satz 3"));
    }
}

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    // § 47 Abs. 2 Nr. 1: the seat of a member elected on the banned party's Wahlvorschlag passes to none of
    // its candidates; it stays vacant (§ 47 Abs. 3, § 75 Abs. 3 KWO LSA)
    if let Cause::PartyBan { list_banned: true } = q.cause {
        let trail = vec![TrailStep::new(None, Verdict::Noted, "party_banned", PARTY_BAN_CITATION)];
        return Ok(votes::vacant(body, VacancyReason::PartyBanned, trail, &LAW));
    }
    let mut d = votes::decide(body, q, &LAW, body.info().electoral_system == ElectoralSystem::Majority)?;
    // Nr. 2: a member of the banned party elected on another Wahlvorschlag — the seat passes on it, past whoever
    // belonged to the party at the Verkündung (recorded `banned_party_member`; the Wahlleitung checks the others)
    if let Cause::PartyBan { list_banned: false } = q.cause {
        let notes = [
            TrailStep::new(None, Verdict::Noted, "party_ban_seat_passes", PARTY_BAN_SEAT),
            TrailStep::new(None, Verdict::Noted, "party_ban_members_to_check", cite("§ 47 Abs. 2 Nr. 2")),
        ];
        d.trail.splice(0..0, notes);
    }
    Ok(d)
}

/// The Nachrückerliste of one list (see [`super::order`]).
pub(crate) fn list_order(s: &Standing, list: &List, majority: bool) -> ListOrder {
    votes::list_order(s, list, &LAW, majority)
}
