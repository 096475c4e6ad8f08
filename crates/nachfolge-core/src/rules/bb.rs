//! Brandenburg: § 60 BbgKWahlG "Berufung von Ersatzpersonen", with § 61 BbgKWahlG (Ausscheiden von
//! Ersatzpersonen), § 62 BbgKWahlG (Partei- oder Vereinigungsverbot) and § 80 BbgKWahlV.
//!
//! The Ersatzpersonen are the not elected candidates of the Wahlvorschlag of a party, politische Vereinigung
//! or Wählergruppe (§ 60 Abs. 1), ranked by their votes; on equal votes the order on the Wahlvorschlag decides;
//! candidates without votes follow in that order (§ 60 Abs. 2). The seat passes to the first Ersatzperson of
//! the departed's Wahlvorschlag (§ 60 Abs. 3 Satz 1). Passed over: anyone already called; who refused when
//! called (§ 61 Abs. 1); who waived his rights as Ersatzperson in writing (§ 61 Abs. 2); who lost his
//! eligibility after the election (§ 61 Abs. 3 Satz 1); who died; who left or was expelled from the **party**
//! after the election **and** the party told the Wahlleiter in writing before the seat became free (§ 60
//! Abs. 4; a Wählergruppe is not named: **[decision]** literal reading, no exclusion). An Einzelbewerber has no
//! Ersatzpersonen; an exhausted Wahlvorschlag or a party ban leaves the seat vacant, and the statutory size
//! falls for the term (§ 60 Abs. 5, § 62 Abs. 3). An incompatibility (§ 12 BbgKWahlG) does not pass a
//! candidate over: he must prove within the week that he declared the end of his employment (§ 51 Abs. 2).
//! A majority election (Mehrheits- und Persönlichkeitswahl, § 5 Abs. 1 Satz 2) ranks the one Wahlvorschlag the
//! same way (§ 60 Abs. 2 names no other rule); with only Einzelwahlvorschläge nobody succeeds (§ 60 Abs. 1).
//! Readings taken: docs/legal.md, "Brandenburg".

use super::votes::{self, VoteLaw};
use super::{Cause, DecideError, Decision, Exclusion, ListOrder, Outcome, Query, Standing, VacancyReason};
use crate::model::{Body, Candidate, Fact, List, WaiverForm};
use crate::trail::{TrailStep, Verdict};

/// Citation of the BbgKWahlG, e.g. `cite("§ 61 Abs. 2")`.
pub fn cite(part: &str) -> String {
    format!("{part} BbgKWahlG")
}

/// Why a barred successor must prove that he declared the end of his employment (Unvereinbarkeit, § 12 Abs. 1
/// bis 3 BbgKWahlG), within the week, and its end within four months (§ 51 Abs. 2 Satz 1 bis 4 BbgKWahlG).
pub const BAR_CITATION: &str = "§ 12 Abs. 1 bis 3 i. V. m. § 51 Abs. 2 Satz 1 bis 4 BbgKWahlG";

/// The seats freed by a party or Vereinigung ban stay vacant; the statutory size falls (§ 62 Abs. 3).
pub const PARTY_BAN_CITATION: &str = "§ 62 Abs. 3 Satz 1 BbgKWahlG";

static LAW: VoteLaw = VoteLaw {
    departed: "§ 60 Abs. 1 BbgKWahlG",
    most_votes: "§ 60 Abs. 2 Satz 1 Halbsatz 1, Abs. 3 Satz 1 BbgKWahlG",
    list_order_tie: "§ 60 Abs. 2 Satz 1 Halbsatz 2 BbgKWahlG",
    // a majority election (§ 5 Abs. 1 Satz 2) ranks by the same § 60 Abs. 2: equal votes by the order on the
    // Wahlvorschlag, no lot — it is decided with `majority = false` (docs/legal.md, "Point 6: Mehrheitswahl")
    majority: "§ 60 Abs. 2 BbgKWahlG",
    lot: "§ 60 Abs. 2 BbgKWahlG",
    // "Ist für den Wahlvorschlag keine Ersatzperson vorhanden, so bleibt der Sitz bis zum Ablauf der
    // Wahlperiode unbesetzt" (numbering Abs. 5 inferred, docs/legal.md); announced under § 80 Abs. 3 BbgKWahlV
    drawn_lot: None,
    exhausted: "§ 60 Abs. 5 Satz 1 BbgKWahlG, § 80 Abs. 3 BbgKWahlV",
    // "Die gesetzliche Mitgliederzahl der Vertretung vermindert sich für die Wahlperiode entsprechend."
    size_reduced: Some("§ 60 Abs. 5 Satz 2 BbgKWahlG"),
    // "des Wahlvorschlages einer Partei, politischen Vereinigung oder Wählergruppe": an Einzelbewerber has none
    individual: Some("§ 60 Abs. 1 BbgKWahlG"),
    bar: BAR_CITATION,
    exclusion,
    notes,
};

/// The reason a candidate is passed over, with its citation; `None` if he can succeed.
pub(super) fn exclusion(s: &Standing, c: &Candidate) -> Option<Exclusion> {
    let r = if s.seated(c) || s.former_member(c) || s.pending(c) {
        // "die nicht gewählten Bewerbenden": holds or held a seat, or is called to another vacancy
        ("already_called", cite("§ 60 Abs. 1"))
    } else if c.has_fact(|f| matches!(f, Fact::Declined { .. })) {
        // called and refused: the Anwartschaft is lost (§ 61 Abs. 1), the refusal cannot be withdrawn
        // (§ 51 Abs. 1 Satz 4)
        ("declined", cite("§ 61 Abs. 1"))
    } else if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Written, .. })) {
        // [decision] the waiver of the rights as Ersatzperson in writing to the Wahlleiter (§ 61 Abs. 2; the
        // form as in the Landtag parallel § 80 Abs. 3 BbgLWahlV, docs/legal.md)
        ("waived", cite("§ 61 Abs. 2"))
    } else if s.died(c) {
        ("died", cite("§ 60 Abs. 1"))
    } else if s.banned_party_member(c) {
        // "verlieren … die Ersatzpersonen ihre Anwartschaft, sofern sie dieser Partei … angehört haben"
        // (Abs. 2: a banned politische Vereinigung or mitgliedschaftlich organisierte Wählergruppe)
        ("banned_party_member", cite("§ 62 Abs. 1, 2"))
    } else if s.ineligible_now(c) {
        ("ineligible", cite("§ 61 Abs. 3 Satz 1"))
    } else if s.ineligible_during_term(c) {
        // "verliert die Wählbarkeit": the Anwartschaft is lost for good, even if eligibility returns
        ("eligibility_lost_after_election", cite("§ 61 Abs. 3 Satz 1"))
    } else if s.on_party_list(c) && c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) && s.party_notified(c) {
        ("left_party_notified", cite("§ 60 Abs. 4"))
    } else {
        return None;
    };
    Some(Exclusion { reason: r.0, citation: r.1 })
}

/// Recorded facts without effect in Brandenburg; noted in the trail. Only called for a candidate who is not
/// passed over.
pub(super) fn notes(c: &Candidate, trail: &mut Vec<TrailStep>) {
    let mut note =
        |reason: &str, citation: String| trail.push(TrailStep::new(Some(&c.id), Verdict::Noted, reason, citation));
    if c.has_fact(|f| matches!(f, Fact::Waived { form: WaiverForm::Recorded, .. })) {
        // [decision] the waiver must be written (docs/legal.md)
        note("waiver_not_written", cite("§ 61 Abs. 2"));
    }
    // a party exit without the party's timely written notice, or from a Wählergruppe: he stays
    if c.has_fact(|f| matches!(f, Fact::LeftParty { .. })) {
        note("left_party_no_effect", cite("§ 60 Abs. 4"));
    }
    // § 60 Abs. 4 names only the exit from the party, not joining another
    if c.has_fact(|f| matches!(f, Fact::JoinedOtherParty { .. })) {
        note("joined_other_party_no_effect", cite("§ 60 Abs. 4"));
    }
}

/// § 59 Abs. 1 Nr. 4 BbgKWahlG: "Eine Vertreterin oder ein Vertreter verliert ihren oder seinen Sitz … durch
/// Berichtigung des Wahlergebnisses oder dessen Neufeststellung aufgrund einer Nachwahl oder Wiederholungswahl".
/// **[decision]** Such a seat is not free for § 60 Abs. 3: the corrected result allots it (to another
/// Wahlvorschlag, or to another person of the same one), and a Wahlvorschlag without a seat under it has no
/// Ersatzpersonen (§ 60 Abs. 1; § 61 Abs. 3 Satz 2, known through § 81 Abs. 1 Nr. 5 BbgKWahlV 2008). No
/// Ersatzperson is called and the statutory size is unchanged (docs/legal.md, "Point 11: three smaller gaps").
pub const RESULT_CORRECTED: &str = "§ 59 Abs. 1 Nr. 4 BbgKWahlG";

pub(crate) fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    if q.cause == Cause::ResultCorrected {
        let trail = vec![TrailStep::new(None, Verdict::Noted, "result_corrected_no_succession", RESULT_CORRECTED)];
        let statutory_size = body.info().statutory_size;
        return Ok(Decision {
            outcome: Outcome::Vacant { reason: VacancyReason::ResultCorrected, statutory_size },
            trail,
        });
    }
    // § 62 Abs. 1, 2: the members who belonged to the banned party or Vereinigung lose their seats; Abs. 3:
    // those seats stay vacant, whatever Wahlvorschlag they were won on, and the statutory size falls
    if let Cause::PartyBan { .. } = q.cause {
        let trail = vec![
            TrailStep::new(None, Verdict::Noted, "party_banned", PARTY_BAN_CITATION),
            TrailStep::new(None, Verdict::Noted, "statutory_size_reduced", "§ 62 Abs. 3 Satz 2 BbgKWahlG"),
        ];
        let statutory_size = body.info().statutory_size.saturating_sub(1);
        return Ok(Decision { outcome: Outcome::Vacant { reason: VacancyReason::PartyBanned, statutory_size }, trail });
    }
    votes::decide(body, q, &LAW, false)
}

/// The order of the Ersatzpersonen of one list (see [`super::order`]).
pub(crate) fn list_order(s: &Standing, list: &List) -> ListOrder {
    votes::list_order(s, list, &LAW, false)
}
