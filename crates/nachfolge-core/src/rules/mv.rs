//! Mecklenburg-Vorpommern: § 46 LKWG M-V "Nachrücken", with § 33 Abs. 2 LKWG M-V (Ersatzpersonen and their
//! order) and § 34 LKWG M-V (Erwerb der Mitgliedschaft).
//!
//! Proportional election: the Ersatzpersonen are the not elected candidates of the departed's Wahlvorschlag
//! (§ 33 Abs. 2 Satz 2), ranked by their votes; on equal votes the order on the Wahlvorschlag decides (§ 33
//! Abs. 2 Satz 3, 4); the next of them succeeds (§ 46 Abs. 2 Satz 1). Passed over: anyone already called; who
//! refused the seat ("scheidet … als Ersatzperson für die Wahlperiode aus", § 46 Abs. 2 Satz 7); who waived in
//! writing to the Wahlleitung (§ 46 Abs. 2 Satz 3 Nr. 2); who lost eligibility after the election (Nr. 3);
//! who died; who left or was expelled from the **party** after the election **and** the party told the
//! Wahlleitung in writing before the seat became free (Nr. 1; a Wählergruppe is not named: **[decision]**
//! literal reading, no exclusion). Only a party or Wählergruppe has Ersatzpersonen (§ 33 Abs. 2 Satz 1): an
//! Einzelbewerber's seat stays vacant, as does the seat of an exhausted Wahlvorschlag ("stellt das
//! Freibleiben des Sitzes fest", § 46 Abs. 1); the statutory size is unchanged (an Ergänzungswahl fills
//! the seats when more than a third are vacant). Incompatibility (§ 25 KV M-V) does not pass a
//! candidate over. Readings taken: docs/legal.md, "Mecklenburg-Vorpommern".

use super::votes::{self, VoteLaw};
use super::{Cause, DecideError, Decision, Exclusion, ListOrder, Query, Standing};
use crate::model::{Body, Candidate, Fact, List, WaiverForm};
use crate::trail::{TrailStep, Verdict};

/// Citation of the LKWG M-V, e.g. `cite("§ 46 Abs. 2 Satz 3 Nr. 2")`.
pub fn cite(part: &str) -> String {
    format!("{part} LKWG M-V")
}

/// Why a barred successor must end the incompatibility (Unvereinbarkeit von Amt und Mandat, § 25 KV M-V).
pub const BAR_CITATION: &str = "§ 25 Abs. 1, 4 KV M-V";

static LAW: VoteLaw = VoteLaw {
    departed: "§ 46 Abs. 2 Satz 1 LKWG M-V",
    most_votes: "§ 46 Abs. 2 Satz 1 i. V. m. § 33 Abs. 2 Satz 3 LKWG M-V",
    list_order_tie: "§ 46 Abs. 2 Satz 1 i. V. m. § 33 Abs. 2 Satz 4 LKWG M-V",
    // a majority election is refused by the validation (not researched)
    majority: "§ 46 Abs. 2 Satz 1 LKWG M-V",
    lot: "§ 46 Abs. 2 Satz 1 LKWG M-V",
    // "stellt das Freibleiben des Sitzes fest"; the fallback of Abs. 3 could not be read (docs/legal.md)
    drawn_lot: None,
    exhausted: "§ 46 Abs. 1, Abs. 2 Satz 1 LKWG M-V",
    // the seat stays unbesetzt; an Ergänzungswahl when more than a third are vacant (§ 45 Abs. 5 in the 2014
    // print, § 44 Abs. 5 in a 2022 announcement: numbering open, docs/legal.md)
    size_reduced: None,
    // "für jeden Wahlvorschlag einer Partei oder Wählergruppe": an Einzelbewerber has no Ersatzpersonen
    individual: Some("§ 33 Abs. 2 Satz 1 i. V. m. § 46 Abs. 1 LKWG M-V"),
    bar: BAR_CITATION,
    exclusion,
    notes,
};

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
    let r = if s.seated(c) || s.former_member(c) || s.pending(c) {
        // "die nicht gewählten Bewerberinnen und Bewerber": holds or held a seat, or is called elsewhere
        ("already_called", cite("§ 33 Abs. 2 Satz 2"))
    } else if c.has_fact(|f| matches!(f, Fact::Declined { .. })) {
        // "scheidet sie als Ersatzperson für die Wahlperiode aus"
        ("declined", cite("§ 46 Abs. 2 Satz 7"))
    } else if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Written, .. })) {
        // "durch schriftliche, unwiderrufliche Erklärung gegenüber der Wahlleitung"
        ("waived", cite("§ 46 Abs. 2 Satz 3 Nr. 2"))
    } else if s.died(c) {
        ("died", cite("§ 46 Abs. 2 Satz 1"))
    } else if s.banned_party_member(c) {
        // "so verlieren … die Listennachfolger ihre Anwartschaft" (Satz 2: also a banned Wählergruppe)
        ("banned_party_member", cite("§ 47 Abs. 1"))
    } else if s.status_lost(c) {
        // "kann die Wahlleitung feststellen, dass sie als Ersatzperson für die Wahlperiode ausscheidet": from
        // the finding on, even if the proofs come later (docs/legal.md, "Point 11: three smaller gaps")
        ("proofs_not_supplied", cite("§ 46 Abs. 2 Satz 5"))
    } else if s.ineligible_during_term(c) {
        // "seine Wählbarkeit nachträglich verloren hat": for good, even if regained
        ("eligibility_lost_after_election", cite("§ 46 Abs. 2 Satz 3 Nr. 3"))
    } else if s.on_party_list(c) && c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) && s.party_notified(c) {
        ("left_party_notified", cite("§ 46 Abs. 2 Satz 3 Nr. 1"))
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1 })
}

/// Recorded facts without effect in Mecklenburg-Vorpommern; noted in the trail. Only called for a candidate
/// who is not passed over.
pub(super) fn notes(c: &Candidate, trail: &mut Vec<TrailStep>) {
    let mut note =
        |reason: &str, citation: String| trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, reason, citation));
    if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Recorded, .. })) {
        // Nr. 2 demands a written declaration
        note("waiver_not_written", cite("§ 46 Abs. 2 Satz 3 Nr. 2"));
    }
    // a party exit without the party's timely written notice, or from a Wählergruppe: he stays
    if c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) {
        note("left_party_no_effect", cite("§ 46 Abs. 2 Satz 3 Nr. 1"));
    }
    if c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) {
        note("joined_other_party_no_effect", cite("§ 46 Abs. 2 Satz 3"));
    }
}

/// A seat lost through a party ban (§ 65 Abs. 1 Nr. 5 LKWG M-V) passes like any other seat lost under § 65
/// (§ 46 Abs. 1): to the next Ersatzperson of the departed's Wahlvorschlag. § 47 Abs. 2 (seats stay vacant, the
/// size falls) speaks of "Mitglieder des Landtages" only. The Ersatzpersonen who belonged to the banned party
/// lost their Anwartschaft (§ 47 Abs. 1 Satz 1): recorded as `banned_party_member`, they are passed over
/// (docs/legal.md, "Mecklenburg-Vorpommern: party ban").
pub const PARTY_BAN_SEAT: &str = "§ 46 Abs. 1 i. V. m. § 65 Abs. 1 Nr. 5 LKWG M-V";
/// The Ersatzpersonen of a banned party's own Wahlvorschlag: whoever belonged to the party is out (§ 47 Abs. 1
/// Satz 1); membership is not in the snapshot, so the Wahlleitung checks it before she confirms.
pub const PARTY_BAN_MEMBERS: &str = "§ 47 Abs. 1 Satz 1 LKWG M-V";

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    let mut d = votes::decide(body, q, &LAW, false)?;
    if let Cause::PartyBan { list_banned } = q.cause {
        let mut notes = vec![TrailStep::new(None, Verdict::Noted, "party_ban_seat_passes", PARTY_BAN_SEAT)];
        if list_banned {
            notes.push(TrailStep::new(None, Verdict::Noted, "party_ban_members_to_check", PARTY_BAN_MEMBERS));
        }
        d.trail.splice(0..0, notes);
    }
    Ok(d)
}

/// The order of the Ersatzpersonen of one list (see [`super::order`]).
pub(crate) fn list_order(s: &Standing, list: &List) -> ListOrder {
    votes::list_order(s, list, &LAW, false)
}
