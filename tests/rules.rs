//! The rules engine (`Body::decide`, each Land's rule set) against docs/legal.md, and snapshot validation
//! against docs/contract.md.
//!
//! Tests of who succeeds are named after the citation they exercise (docs/legal.md, "Rules in detail"); each asserts
//! the exact outcome and the exact trail. The property tests at the end check random NRW and Hessen
//! snapshots against an independent reading of the rules.

#[path = "support/fixtures.rs"]
mod fixtures;

use fixtures::*;
use nachfolge::messages::{DepartureReason, Inbound, VacancyReported};
use nachfolge::model::{
    parse_snapshot, Body, Candidate, Declination, DistrictSubstitute, Fact, SeatVia, Snapshot, StatusLossGround,
    SubstituteDesignation, WaiverForm,
};
use nachfolge::procedure::{self, Command, Effect, Settings};
use nachfolge::rules::{Cause, DecideError, Decision, Outcome, Query, VacancyReason};
use nachfolge::trail::{TrailStep, Verdict};

/// The rule set of the body's Land (`Body::decide`).
fn decide(body: &Body, q: &Query) -> Result<Decision, DecideError> {
    body.decide(q)
}

// ---------------------------------------------------------------------------------------------------------
// Citations, written out so that the format itself is tested.

const NW_1_1: &str = "§ 45 Abs. 1 Satz 1 KWahlG NRW";
const NW_2_1: &str = "§ 45 Abs. 2 Satz 1 KWahlG NRW";
const NW_2_2: &str = "§ 45 Abs. 2 Satz 2 KWahlG NRW";
const NW_3_1: &str = "§ 45 Abs. 3 Satz 1 KWahlG NRW";
const NW_3_1_38: &str = "§ 45 Abs. 3 Satz 1 KWahlG NRW i. V. m. § 38 KWahlG NRW";
const NW_3_2: &str = "§ 45 Abs. 3 Satz 2 KWahlG NRW";
const NW_3_3: &str = "§ 45 Abs. 3 Satz 3 KWahlG NRW";
const NW_4: &str = "§ 45 Abs. 4 KWahlG NRW";
const NW_5_1: &str = "§ 45 Abs. 5 Satz 1 KWahlG NRW";
const NW_5_2: &str = "§ 45 Abs. 5 Satz 2 KWahlG NRW";
const NW_BARRED: &str = "§ 13 KWahlG NRW, § 69 Abs. 2 i. V. m. § 62 Nr. 5 KWahlO NRW";

const HE_1_1: &str = "§ 34 Abs. 1 Satz 1 KWG";
const HE_1_1_HS_2: &str = "§ 34 Abs. 1 Satz 1 Halbsatz 2 KWG";
const HE_1_2: &str = "§ 34 Abs. 1 Satz 2 KWG";
const HE_1A: &str = "§ 34 Abs. 1a KWG";
const HE_2: &str = "§ 34 Abs. 2 KWG";
const HE_2_1: &str = "§ 34 Abs. 2 Nr. 1 KWG";
const HE_2_2: &str = "§ 34 Abs. 2 Nr. 2 KWG";
const HE_2_3: &str = "§ 34 Abs. 2 Nr. 3 KWG";
const HE_2_3_33: &str = "§ 34 Abs. 2 Nr. 3 KWG i. V. m. § 33 Abs. 1 Nr. 2 KWG";
const HE_BARRED: &str = "§ 34 Abs. 3 Satz 2 KWG i. V. m. § 23 Abs. 2 KWG";

const RP_2: &str = "§ 45 Abs. 2 KWG";
const RP_2_1: &str = "§ 45 Abs. 2 Satz 1 KWG";
const RP_2_2: &str = "§ 45 Abs. 2 Satz 2 KWG";
const RP_2_3: &str = "§ 45 Abs. 2 Satz 3 KWG";
const RP_3_1: &str = "§ 45 Abs. 3 Satz 1 KWG";
const RP_3_2: &str = "§ 45 Abs. 3 Satz 2 KWG";
const RP_4: &str = "§ 45 Abs. 4 KWG";
const RP_4_66: &str = "§ 45 Abs. 4 KWG i. V. m. § 66 Abs. 1 Satz 1 KWO";
const RP_66_3_2: &str = "§ 66 Abs. 3 Satz 2 KWO";
const RP_GEMO_29_4: &str = "§ 29 Abs. 4 GemO";
const RP_BARRED: &str = "§ 5 KWG, § 66 Abs. 1 Satz 4 i. V. m. § 64 Abs. 2 KWO";

// ---------------------------------------------------------------------------------------------------------
// Helpers

fn skipped(c: &str, reason: &str, citation: &str) -> TrailStep {
    TrailStep::new(Some(c), Verdict::Skipped, reason, citation)
}
fn chosen(c: &str, reason: &str, citation: &str) -> TrailStep {
    TrailStep::new(Some(c), Verdict::Chosen, reason, citation)
}
fn noted(c: &str, reason: &str, citation: &str) -> TrailStep {
    TrailStep::new(Some(c), Verdict::Noted, reason, citation)
}
fn tied(c: &str, reason: &str, citation: &str) -> TrailStep {
    TrailStep::new(Some(c), Verdict::Tied, reason, citation)
}
/// A list-level finding (no candidate).
fn finding(reason: &str, citation: &str) -> TrailStep {
    TrailStep::new(None, Verdict::Noted, reason, citation)
}

fn successor(c: &str, list: &str) -> Outcome {
    Outcome::Successor { candidate: c.to_owned(), list: list.to_owned(), barred: false }
}
fn barred_successor(c: &str, list: &str) -> Outcome {
    Outcome::Successor { candidate: c.to_owned(), list: list.to_owned(), barred: true }
}
fn vacant(reason: VacancyReason, statutory_size: u32) -> Outcome {
    Outcome::Vacant { reason, statutory_size }
}

/// The outcome and the exact trail of the rules. The step naming the Fassung applied (NRW, the last step) is
/// left out here; tests/rules/fassung.rs checks it with [`assert_decision_with_fassung`].
#[track_caller]
fn assert_decision(d: Decision, outcome: Outcome, trail: Vec<TrailStep>) {
    assert_eq!(d.outcome, outcome, "outcome; trail: {:#?}", d.trail);
    let fassung = d.trail.iter().position(|s| s.reason == "fassung_applied");
    assert!(fassung.is_none_or(|i| i + 1 == d.trail.len()), "the Fassung is the last step: {:#?}", d.trail);
    let rules: Vec<TrailStep> = d.trail.into_iter().filter(|s| s.reason != "fassung_applied").collect();
    assert_eq!(rules, trail, "trail");
}

/// The outcome and the exact trail, with the step naming the Fassung.
#[track_caller]
fn assert_decision_with_fassung(d: Decision, outcome: Outcome, trail: Vec<TrailStep>) {
    assert_eq!(d.outcome, outcome, "outcome; trail: {:#?}", d.trail);
    assert_eq!(d.trail, trail, "trail");
}

/// NRW list L1: L1-01 (pos. 1, seated via list, the departed), `second` (pos. 2), L1-03 (pos. 3, free).
fn nrw_abc(second: Candidate) -> Body {
    nrw().list(party("L1", vec![cand("L1-01", 1).seated(SeatVia::List), second, cand("L1-03", 3)])).body()
}

/// `nrw_abc` with L1-02 passed over for `reason` under `citation`: the successor is L1-03.
#[track_caller]
fn assert_nrw_second_skipped(second: Candidate, reason: &str, citation: &str) {
    let body = nrw_abc(second);
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-03", "L1"),
        vec![
            skipped("L1-01", "departed", NW_1_1),
            skipped("L1-02", reason, citation),
            chosen("L1-03", "next_on_list", NW_2_1),
        ],
    );
}

/// `nrw_abc` in which L1-02 is not passed over.
#[track_caller]
fn assert_nrw_second_chosen(second: Candidate) {
    let body = nrw_abc(second);
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-02", "L1"),
        vec![skipped("L1-01", "departed", NW_1_1), chosen("L1-02", "next_on_list", NW_2_1)],
    );
}

/// Hessen list W1: W1-01 (pos. 1, 900 votes, seated, the departed), `second` (pos. 2, 500 votes), W1-03
/// (pos. 3, 300 votes).
fn he_abc(second: Candidate) -> Body {
    hessen()
        .list(party("W1", vec![hcand("W1-01", 1, 900).seated(SeatVia::List), second, hcand("W1-03", 3, 300)]))
        .body()
}

#[track_caller]
fn assert_he_second_skipped(second: Candidate, reason: &str, citation: &str) {
    let body = he_abc(second);
    let d = decide(&body, &query("W1-01")).unwrap();
    assert_decision(
        d,
        successor("W1-03", "W1"),
        vec![
            skipped("W1-01", "departed", HE_1_1),
            skipped("W1-02", reason, citation),
            chosen("W1-03", "most_votes", HE_1_1),
        ],
    );
}

// =========================================================================================================
// NRW — § 45 KWahlG NRW

#[test]
fn nrw_45_abs_2_satz_1_next_on_list_without_substitute() {
    assert_nrw_second_chosen(cand("L1-02", 2));
}

#[test]
fn nrw_45_abs_2_satz_1_substitute_for_direct_winner_has_priority() {
    let body = nrw()
        .list(party(
            "L1",
            vec![
                cand("L1-01", 1).seated(SeatVia::List),
                cand("L1-02", 2),
                off_list("L1-D7").district("07").seated(SeatVia::District),
                cand("L1-05", 5).substitute_for("L1-D7"),
            ],
        ))
        .body();
    let d = decide(&body, &query("L1-D7").via(SeatVia::District)).unwrap();
    assert_decision(d, successor("L1-05", "L1"), vec![chosen("L1-05", "substitute", NW_2_1)]);
}

#[test]
fn nrw_45_abs_2_satz_1_substitute_for_district_winner_also_on_list_has_priority() {
    // a district winner who also stood on the list: he won directly, so his substitute takes priority
    let body = nrw()
        .list(party(
            "L1",
            vec![
                cand("L1-01", 1).district("03").seated(SeatVia::District),
                cand("L1-02", 2),
                cand("L1-06", 6).substitute_for("L1-01"),
            ],
        ))
        .body();
    let d = decide(&body, &query("L1-01").via(SeatVia::District)).unwrap();
    assert_decision(d, successor("L1-06", "L1"), vec![chosen("L1-06", "substitute", NW_2_1)]);
}

#[test]
fn nrw_45_abs_2_satz_1_substitute_for_list_candidate_has_priority() {
    let body = nrw()
        .list(party(
            "L1",
            vec![cand("L1-01", 1).seated(SeatVia::List), cand("L1-02", 2), cand("L1-06", 6).substitute_for("L1-01")],
        ))
        .body();
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(d, successor("L1-06", "L1"), vec![chosen("L1-06", "substitute", NW_2_1)]);
}

/// Abs. 4 district candidate entered by list: L1-01 stood in district 03, lost it, entered by the list.
fn nrw_abs_4_body(third: Candidate) -> Body {
    nrw()
        .list(party(
            "L1",
            vec![
                cand("L1-01", 1).district("03").seated(SeatVia::List),
                cand("L1-02", 2).seated(SeatVia::List),
                third,
                cand("L1-04", 4).substitute_for("L1-01"),
                cand("L1-05", 5),
            ],
        ))
        .body()
}

#[test]
fn nrw_45_abs_4_substitute_for_district_candidate_entered_by_list_has_no_priority() {
    let body = nrw_abs_4_body(cand("L1-03", 3));
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-03", "L1"),
        vec![
            noted("L1-04", "substitute_without_priority", NW_4),
            skipped("L1-01", "departed", NW_1_1),
            skipped("L1-02", "seated", NW_2_1),
            chosen("L1-03", "next_on_list", NW_2_1),
        ],
    );
}

#[test]
fn nrw_45_abs_4_substitute_for_district_candidate_entered_by_list_keeps_list_position() {
    // [decision] the substitute without priority still succeeds at his own list position
    let body = nrw_abs_4_body(cand("L1-03", 3).died());
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-04", "L1"),
        vec![
            noted("L1-04", "substitute_without_priority", NW_4),
            skipped("L1-01", "departed", NW_1_1),
            skipped("L1-02", "seated", NW_2_1),
            skipped("L1-03", "died", NW_2_2),
            chosen("L1-04", "next_on_list", NW_2_1),
        ],
    );
}

#[test]
fn nrw_45_abs_4_reading_excluded_passes_the_district_substitute_over_in_this_succession() {
    // body.readings.district_substitute = excluded: "bleibt … unberücksichtigt" as a full exclusion
    let mut snapshot = nrw_abs_4_body(cand("L1-03", 3).died()).snapshot;
    snapshot.body.readings.district_substitute = Some(DistrictSubstitute::Excluded);
    let body = Body::from_snapshot(snapshot).expect("valid");
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-05", "L1"),
        vec![
            noted("L1-04", "substitute_without_priority", NW_4),
            skipped("L1-01", "departed", NW_1_1),
            skipped("L1-02", "seated", NW_2_1),
            skipped("L1-03", "died", NW_2_2),
            skipped("L1-04", "district_substitute_excluded", NW_4),
            chosen("L1-05", "next_on_list", NW_2_1),
        ],
    );
    // the Nachrückerliste says so for his member; for any other seat he keeps his place
    let order = body.succession_order(t(REFERENCE));
    assert!(order.lists[0].notes.iter().any(|n| n.reason == "substitute_excluded_for_his_member"));
    assert!(order.lists[0].order.iter().any(|c| c == "L1-04"));
    // a Hessen snapshot may not carry the reading
    let mut he = he_abc(hcand("W1-02", 2, 500)).snapshot;
    he.body.readings.district_substitute = Some(DistrictSubstitute::KeepsListPlace);
    let err = Body::from_snapshot(he).expect_err("NRW reading in Hessen");
    assert_eq!(err.field, "body.readings.district_substitute");
}

/// `nrw_abs_4_body` with the Ersatzbewerber L1-04 named for `designation` of L1-01's candidacies.
fn nrw_abs_4_named_for(designation: Option<SubstituteDesignation>) -> Body {
    let mut snapshot = nrw_abs_4_body(cand("L1-03", 3)).snapshot;
    snapshot.lists[0].candidates[3].substitute_designation = designation;
    Body::from_snapshot(snapshot).expect("valid")
}

#[test]
fn nrw_45_abs_4_substitute_named_only_for_the_district_explicitly_has_no_priority() {
    // `district` is the default: saying so changes nothing
    let q = query("L1-01").via(SeatVia::List);
    let default = decide(&nrw_abs_4_named_for(None), &q).unwrap();
    let explicit = decide(&nrw_abs_4_named_for(Some(SubstituteDesignation::District)), &q).unwrap();
    assert_eq!(explicit, default);
    assert_eq!(explicit.outcome, successor("L1-03", "L1"));
    assert_eq!(explicit.trail[0], noted("L1-04", "substitute_without_priority", NW_4));
}

#[test]
fn nrw_45_abs_4_substitute_named_for_the_list_candidacy_keeps_priority() {
    // not "ausschließlich" for the district candidacy: Abs. 4 does not apply, Abs. 2 Satz 1 does
    for designation in [SubstituteDesignation::List, SubstituteDesignation::Both] {
        let d = decide(&nrw_abs_4_named_for(Some(designation)), &query("L1-01").via(SeatVia::List)).unwrap();
        assert_decision(
            d,
            successor("L1-04", "L1"),
            vec![noted("L1-04", "substitute_keeps_priority", NW_4), chosen("L1-04", "substitute", NW_2_1)],
        );
    }
}

#[test]
fn nrw_45_abs_4_designation_in_the_succession_order() {
    let order = |designation| nrw_abs_4_named_for(designation).succession_order(t(REFERENCE)).lists.remove(0);
    let without = order(None);
    assert!(without.substitutes.is_empty());
    assert!(without.notes.contains(&noted("L1-04", "substitute_without_priority", NW_4)));
    let with = order(Some(SubstituteDesignation::Both));
    assert_eq!(with.substitutes.len(), 1);
    assert_eq!(
        (with.substitutes[0].candidate.as_str(), with.substitutes[0].substitute_for.as_str()),
        ("L1-04", "L1-01")
    );
    assert!(with.notes.contains(&noted("L1-04", "substitute_keeps_priority", NW_4)));
}

#[test]
fn nrw_45_abs_4_designation_irrelevant_for_a_direct_winner() {
    // a district winner's substitute has priority whatever he was named for (Abs. 4 needs entry by list)
    for designation in [None, Some(SubstituteDesignation::District), Some(SubstituteDesignation::Both)] {
        let mut s = nrw()
            .list(party(
                "L1",
                vec![
                    cand("L1-01", 1).district("03").seated(SeatVia::District),
                    cand("L1-04", 4).substitute_for("L1-01"),
                ],
            ))
            .snapshot();
        s.lists[0].candidates[1].substitute_designation = designation;
        let d = decide(&Body::from_snapshot(s).expect("valid"), &query("L1-01")).unwrap();
        assert_decision(d, successor("L1-04", "L1"), vec![chosen("L1-04", "substitute", NW_2_1)]);
    }
}

#[test]
fn nrw_45_abs_4_departed_via_taken_from_the_seat_when_the_query_does_not_say() {
    // the query does not say how the departed won his seat: the snapshot's seat does
    let body = nrw_abs_4_body(cand("L1-03", 3));
    let d = decide(&body, &query("L1-01")).unwrap();
    assert_eq!(d.outcome, successor("L1-03", "L1"));
    let direct = nrw()
        .list(party(
            "L1",
            vec![cand("L1-01", 1).district("03").seated(SeatVia::District), cand("L1-04", 4).substitute_for("L1-01")],
        ))
        .body();
    let d = decide(&direct, &query("L1-01")).unwrap();
    assert_decision(d, successor("L1-04", "L1"), vec![chosen("L1-04", "substitute", NW_2_1)]);
}

#[test]
fn nrw_45_abs_2_satz_2_substitute_died_list_order_applies() {
    let body = nrw()
        .list(party(
            "L1",
            vec![
                cand("L1-01", 1).seated(SeatVia::List),
                cand("L1-02", 2),
                cand("L1-05", 5).substitute_for("L1-01").died(),
            ],
        ))
        .body();
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-02", "L1"),
        vec![
            skipped("L1-05", "died", NW_2_2),
            skipped("L1-01", "departed", NW_1_1),
            chosen("L1-02", "next_on_list", NW_2_1),
        ],
    );
}

#[test]
fn nrw_45_abs_2_satz_2_substitute_ineligible_list_order_applies() {
    let body = nrw()
        .list(party(
            "L1",
            vec![
                cand("L1-01", 1).seated(SeatVia::List),
                cand("L1-02", 2),
                cand("L1-05", 5).substitute_for("L1-01").ineligible("2026-03-01", None),
            ],
        ))
        .body();
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-02", "L1"),
        vec![
            skipped("L1-05", "ineligible", NW_2_2),
            skipped("L1-01", "departed", NW_1_1),
            chosen("L1-02", "next_on_list", NW_2_1),
        ],
    );
}

#[test]
fn nrw_45_abs_3_satz_2_declining_substitute_loses_own_list_position() {
    // the substitute stands right behind the departed: having declined, he is passed over there too
    // (§ 69 Abs. 2 KWahlO)
    let body = nrw()
        .list(party(
            "L1",
            vec![
                cand("L1-01", 1).seated(SeatVia::List),
                cand("L1-02", 2).substitute_for("L1-01").declined(),
                cand("L1-03", 3),
            ],
        ))
        .body();
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-03", "L1"),
        vec![
            skipped("L1-02", "declined", NW_3_2),
            skipped("L1-01", "departed", NW_1_1),
            skipped("L1-02", "declined", NW_3_2),
            chosen("L1-03", "next_on_list", NW_2_1),
        ],
    );
}

#[test]
fn nrw_45_abs_2_satz_1_next_on_list_already_seated_skipped() {
    let body = nrw()
        .list(party(
            "L1",
            vec![
                cand("L1-01", 1).seated(SeatVia::List),
                cand("L1-02", 2).district("01").seated(SeatVia::District),
                cand("L1-03", 3).seated(SeatVia::List),
                cand("L1-04", 4).seated(SeatVia::Succession),
                cand("L1-05", 5),
            ],
        ))
        .body();
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-05", "L1"),
        vec![
            skipped("L1-01", "departed", NW_1_1),
            skipped("L1-02", "seated", NW_2_1),
            skipped("L1-03", "seated", NW_2_1),
            skipped("L1-04", "seated", NW_2_1),
            chosen("L1-05", "next_on_list", NW_2_1),
        ],
    );
}

#[test]
fn nrw_45_abs_2_satz_1_former_member_passed_over() {
    // [decision] a former member of this term was already called
    assert_nrw_second_skipped(cand("L1-02", 2).former_member(), "former_member", NW_2_1);
}

#[test]
fn nrw_45_abs_2_satz_1_candidates_without_list_position_are_not_on_the_list() {
    let body = nrw()
        .list(party(
            "L1",
            vec![cand("L1-01", 1).seated(SeatVia::List), off_list("L1-D2").district("02"), cand("L1-03", 3)],
        ))
        .body();
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-03", "L1"),
        vec![skipped("L1-01", "departed", NW_1_1), chosen("L1-03", "next_on_list", NW_2_1)],
    );
}

#[test]
fn nrw_45_abs_2_satz_1_list_order_follows_position_not_snapshot_order() {
    let body = nrw()
        .list(party("L1", vec![cand("L1-09", 9), cand("L1-03", 3), cand("L1-01", 1).seated(SeatVia::List)]))
        .body();
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-03", "L1"),
        vec![skipped("L1-01", "departed", NW_1_1), chosen("L1-03", "next_on_list", NW_2_1)],
    );
}

#[test]
fn nrw_45_abs_2_satz_2_died_skipped() {
    assert_nrw_second_skipped(cand("L1-02", 2).died(), "died", NW_2_2);
}

#[test]
fn nrw_45_abs_2_satz_2_ineligible_at_reference_skipped() {
    assert_nrw_second_skipped(cand("L1-02", 2).ineligible("2026-05-01", Some("2026-07-31")), "ineligible", NW_2_2);
}

#[test]
fn nrw_45_abs_2_satz_2_ineligible_on_the_reference_day_itself_skipped() {
    assert_nrw_second_skipped(cand("L1-02", 2).ineligible("2026-06-01", None), "ineligible", NW_2_2);
    assert_nrw_second_skipped(cand("L1-02", 2).ineligible("2026-01-01", Some("2026-06-01")), "ineligible", NW_2_2);
}

#[test]
fn nrw_45_abs_2_satz_2_not_continuously_eligible_skipped() {
    // ineligible for a while during the term, eligible again at the determination
    assert_nrw_second_skipped(
        cand("L1-02", 2).ineligible("2026-01-01", Some("2026-03-31")),
        "not_continuously_eligible",
        NW_2_2,
    );
    // an interval that straddles the term start
    assert_nrw_second_skipped(
        cand("L1-02", 2).ineligible("2025-09-01", Some("2025-11-01")),
        "not_continuously_eligible",
        NW_2_2,
    );
}

#[test]
fn nrw_45_abs_2_satz_2_ineligible_before_term_not_skipped() {
    assert_nrw_second_chosen(cand("L1-02", 2).ineligible("2025-01-01", Some("2025-10-31")));
}

#[test]
fn nrw_45_abs_2_satz_2_ineligible_after_reference_not_skipped() {
    assert_nrw_second_chosen(cand("L1-02", 2).ineligible("2026-06-02", None));
}

#[test]
fn nrw_45_abs_3_satz_1_left_party_skipped() {
    assert_nrw_second_skipped(cand("L1-02", 2).left_party(), "left_party", NW_3_1);
}

#[test]
fn nrw_45_abs_3_satz_1_waiver_recorded_skipped() {
    assert_nrw_second_skipped(cand("L1-02", 2).waived_recorded(), "waived", NW_3_1);
}

#[test]
fn nrw_45_abs_3_satz_1_waiver_by_letter_not_effective_noted() {
    let body = nrw_abc(cand("L1-02", 2).waived_written());
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-02", "L1"),
        vec![
            skipped("L1-01", "departed", NW_1_1),
            noted("L1-02", "waiver_not_in_form", NW_3_1_38),
            chosen("L1-02", "next_on_list", NW_2_1),
        ],
    );
}

#[test]
fn nrw_45_abs_3_satz_2_earlier_refusal_skipped_for_good() {
    // declined the election (in a district, from the list, or an earlier succession): never again
    assert_nrw_second_skipped(cand("L1-02", 2).declined(), "declined", NW_3_2);
}

#[test]
fn nrw_45_abs_3_satz_3_non_member_joined_other_party_skipped() {
    assert_nrw_second_skipped(cand("L1-02", 2).joined_other_party(), "joined_other_party", NW_3_3);
}

#[test]
fn nrw_45_abs_3_satz_3_member_joined_other_party_not_skipped_noted() {
    // a voter group's member who joins a party without leaving the group: Satz 3 covers only non-members,
    // and he has not left (Satz 1) — he succeeds; the fact is noted
    let body = nrw_abc(cand("L1-02", 2).joined_other_party_as_member());
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-02", "L1"),
        vec![
            skipped("L1-01", "departed", NW_1_1),
            noted("L1-02", "joined_other_party_as_member", NW_3_3),
            chosen("L1-02", "next_on_list", NW_2_1),
        ],
    );
}

#[test]
fn nrw_45_abs_3_satz_1_member_switched_party_has_left_the_nominating_one() {
    // a party member who switched parties has left the nominating party: Satz 1, not Satz 3
    assert_nrw_second_skipped(cand("L1-02", 2).joined_other_party_as_member().left_party(), "left_party", NW_3_1);
    assert_nrw_second_skipped(cand("L1-02", 2).left_party().joined_other_party(), "left_party", NW_3_1);
}

#[test]
fn nrw_45_abs_3_satz_3_was_member_defaults_to_false_and_is_written_only_when_true() {
    let fact: Fact =
        serde_json::from_value(serde_json::json!({"type": "joined_other_party", "on": "2026-02-01"})).expect("fact");
    assert_eq!(fact, Fact::JoinedOtherParty { on: d("2026-02-01"), was_member: false });
    assert_eq!(
        serde_json::to_value(&fact).expect("json"),
        serde_json::json!({"type": "joined_other_party", "on": "2026-02-01"})
    );
    let member = Fact::JoinedOtherParty { on: d("2026-02-01"), was_member: true };
    let json = serde_json::to_value(&member).expect("json");
    assert_eq!(json["was_member"], true);
    assert_eq!(serde_json::from_value::<Fact>(json).expect("round trip"), member);
    let wrong = serde_json::json!({"type": "joined_other_party", "on": "2026-02-01", "was_member": "ja"});
    assert!(serde_json::from_value::<Fact>(wrong).is_err());
}

#[test]
fn he_34_abs_2_nr_1_joined_other_party_as_member_no_effect_noted() {
    // Hessen knows no Satz-3 rule: joining is noted whether or not he was a member
    let body = he_abc(hcand("W1-02", 2, 500).joined_other_party_as_member());
    let d = decide(&body, &query("W1-01")).unwrap();
    assert_eq!(d.outcome, successor("W1-02", "W1"));
    assert!(d.trail.contains(&noted("W1-02", "joined_other_party_no_effect", HE_2_1)));
}

#[test]
fn nrw_45_abs_3_satz_3_joined_nominating_party_not_skipped() {
    // joining the nominating party is no fact of the snapshot (only joining another one is): he succeeds
    assert_nrw_second_chosen(cand("L1-02", 2));
}

#[test]
fn nrw_45_abs_1_satz_2_departed_switched_party_original_list() {
    let body = nrw()
        .list(party(
            "L1",
            vec![cand("L1-01", 1).seated(SeatVia::List).left_party().joined_other_party(), cand("L1-02", 2)],
        ))
        .list(party("L2", vec![cand("L2-01", 1)]))
        .body();
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        successor("L1-02", "L1"),
        vec![skipped("L1-01", "departed", NW_1_1), chosen("L1-02", "next_on_list", NW_2_1)],
    );
}

#[test]
fn nrw_45_abs_1_satz_1_voter_group_list_filled_like_a_party_list() {
    let body = nrw().list(voter_group("WG", vec![cand("WG-01", 1).seated(SeatVia::List), cand("WG-02", 2)])).body();
    let d = decide(&body, &query("WG-01").via(SeatVia::List)).unwrap();
    assert_eq!(d.outcome, successor("WG-02", "WG"));
}

#[test]
fn nrw_45_abs_5_satz_1_individual_candidate_vacant_size_reduced() {
    let body = nrw()
        .size(44)
        .list(party("L1", vec![cand("L1-01", 1)]))
        .list(individual("E1", off_list("E1-01").district("05").seated(SeatVia::District)))
        .body();
    let d = decide(&body, &query("E1-01").via(SeatVia::District)).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::IndividualCandidate, 43),
        vec![finding("individual_candidate", NW_5_1), finding("statutory_size_reduced", NW_5_2)],
    );
}

#[test]
fn nrw_45_abs_5_satz_1_list_exhausted_vacant_size_reduced() {
    let body = nrw()
        .size(20)
        .list(party(
            "L1",
            vec![
                cand("L1-01", 1).seated(SeatVia::List),
                cand("L1-02", 2).seated(SeatVia::List),
                cand("L1-03", 3).left_party(),
                off_list("L1-D4").district("04"),
            ],
        ))
        .list(party("L2", vec![cand("L2-01", 1)]))
        .body();
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::ListExhausted, 19),
        vec![
            skipped("L1-01", "departed", NW_1_1),
            skipped("L1-02", "seated", NW_2_1),
            skipped("L1-03", "left_party", NW_3_1),
            finding("list_exhausted", NW_5_1),
            finding("statutory_size_reduced", NW_5_2),
        ],
    );
}

#[test]
fn nrw_45_abs_2_satz_1_barred_candidate_determined_not_skipped() {
    let body = nrw_abc(cand("L1-02", 2).barred("Beschäftigter der Stadt"));
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_decision(
        d,
        barred_successor("L1-02", "L1"),
        vec![
            skipped("L1-01", "departed", NW_1_1),
            chosen("L1-02", "next_on_list", NW_2_1),
            noted("L1-02", "barred_must_prove_end", NW_BARRED),
        ],
    );
    // once the bar is cured he is an ordinary successor
    assert_nrw_second_chosen(cand("L1-02", 2).barred("Beschäftigter der Stadt").bar_cured());
}

fn bar(on: &str) -> Fact {
    Fact::Barred { on: d(on), reason: "Beschäftigter der Stadt".to_owned() }
}
fn cure(on: &str) -> Fact {
    Fact::BarCured { on: d(on) }
}

/// `nrw_abc` with L1-02 carrying `facts` at the reference time (2026-06-01): is he determined as barred?
fn nrw_second_barred(facts: Vec<Fact>) -> bool {
    let body = nrw_abc(facts.into_iter().fold(cand("L1-02", 2), |c, f| c.fact(f)));
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    let barred = d.trail.contains(&noted("L1-02", "barred_must_prove_end", NW_BARRED));
    match d.outcome {
        Outcome::Successor { candidate, barred: b, .. } if candidate == "L1-02" => {
            assert_eq!(b, barred, "outcome and trail agree");
            b
        }
        other => panic!("L1-02 must succeed, got {other:?}"),
    }
}

#[test]
fn nrw_45_abs_2_satz_1_bar_recorded_for_a_later_day_is_not_current() {
    // docs/legal.md, "Bars by date": a bar that begins after the reference day is no bar yet
    assert!(!nrw_second_barred(vec![bar("2026-07-01")]));
    assert!(nrw_second_barred(vec![bar("2026-06-01")]), "a bar beginning on the reference day is current");
}

#[test]
fn nrw_45_abs_2_satz_1_bar_cured_after_the_reference_day_is_still_current() {
    assert!(nrw_second_barred(vec![bar("2026-02-01"), cure("2026-06-02")]));
    assert!(!nrw_second_barred(vec![bar("2026-02-01"), cure("2026-06-01")]), "cured on the reference day");
}

#[test]
fn nrw_45_abs_2_satz_1_bar_cured_and_arising_again_is_a_bar() {
    assert!(nrw_second_barred(vec![bar("2026-01-01"), cure("2026-02-01"), bar("2026-03-01")]));
    // the order of the facts does not matter, their dates do
    assert!(nrw_second_barred(vec![bar("2026-03-01"), cure("2026-02-01"), bar("2026-01-01")]));
    assert!(!nrw_second_barred(vec![cure("2026-04-01"), bar("2026-03-01"), bar("2026-01-01")]));
    // the new bar lies after the reference day: the cure still holds
    assert!(!nrw_second_barred(vec![bar("2026-01-01"), cure("2026-02-01"), bar("2026-07-01")]));
    // on the same day the fact recorded later wins
    assert!(!nrw_second_barred(vec![bar("2026-03-01"), cure("2026-03-01")]));
    assert!(nrw_second_barred(vec![cure("2026-03-01"), bar("2026-03-01")]));
}

#[test]
fn nrw_45_abs_2_satz_1_bar_by_date_in_the_succession_order() {
    // the Nachrückerliste judges the bar at its own reference time, like `decide`
    let body = nrw_abc(cand("L1-02", 2).fact(bar("2026-03-01")).fact(cure("2026-05-01")).fact(bar("2026-07-01")));
    let note = noted("L1-02", "barred_must_prove_end", NW_BARRED);
    let at = |day: &str| body.succession_order(noon(day)).lists[0].notes.contains(&note);
    assert!(!at("2026-02-28"));
    assert!(at("2026-03-01"));
    assert!(!at("2026-06-01"));
    assert!(at("2026-07-01"));
}

#[test]
fn he_34_abs_3_satz_2_bar_judged_by_date() {
    let decide_at = |facts: Vec<Fact>| {
        let body = he_abc(facts.into_iter().fold(hcand("W1-02", 2, 500), |c, f| c.fact(f)));
        decide(&body, &query("W1-01")).unwrap().outcome
    };
    assert_eq!(decide_at(vec![bar("2026-07-01")]), successor("W1-02", "W1"));
    assert_eq!(decide_at(vec![bar("2026-01-01"), cure("2026-02-01")]), successor("W1-02", "W1"));
    assert_eq!(
        decide_at(vec![bar("2026-01-01"), cure("2026-02-01"), bar("2026-03-01")]),
        barred_successor("W1-02", "W1")
    );
    assert_eq!(decide_at(vec![bar("2026-01-01"), cure("2026-09-01")]), barred_successor("W1-02", "W1"));
}

#[test]
fn nrw_45_abs_2_satz_1_pending_successor_of_other_case_skipped() {
    // two vacancies on one list: L1-03 was determined for L1-01 and has not declared yet
    let body = nrw()
        .list(party(
            "L1",
            vec![
                cand("L1-01", 1).former_member(),
                cand("L1-02", 2).seated(SeatVia::List),
                cand("L1-03", 3),
                cand("L1-04", 4),
            ],
        ))
        .body();
    // L1-03 is the pending successor of another open case (the procedure passes those in the query)
    let d = decide(&body, &query("L1-02").via(SeatVia::List).pending("L1-03")).unwrap();
    assert_decision(
        d,
        successor("L1-04", "L1"),
        vec![
            skipped("L1-01", "former_member", NW_2_1),
            skipped("L1-02", "departed", NW_1_1),
            skipped("L1-03", "pending_successor", NW_2_1),
            chosen("L1-04", "next_on_list", NW_2_1),
        ],
    );
    // in its own case the pending successor is not passed over (a redetermination finds him again): the
    // procedure leaves its own case's successor out of `pending` (tests/procedure.rs)
    let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
    assert_eq!(d.outcome, successor("L1-03", "L1"));
}

fn determined(effects: &[Effect]) -> serde_json::Value {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Publish { event_type: "succession.determined", data } => Some(data.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no succession.determined in {effects:#?}"))
}

#[test]
fn nrw_45_abs_2_satz_1_two_vacancies_on_one_list_pending_successor_not_offered_the_second() {
    let body = nrw()
        .list(party(
            "L1",
            vec![
                cand("L1-01", 1).seated(SeatVia::List),
                cand("L1-02", 2).seated(SeatVia::List),
                cand("L1-03", 3),
                cand("L1-04", 4),
            ],
        ))
        .body();
    let vacancy = |member: &str| {
        Command::Inbound(Inbound::VacancyReported(VacancyReported {
            body: "musterstadt-rat".into(),
            member: member.into(),
            reason: DepartureReason::Resigned,
            effective_at: t("2026-05-31T22:00:00Z").fixed_offset(),
            list_banned: None,
        }))
    };
    let settings = Settings::default();
    let mut body = procedure::Council::new(body);
    let first = procedure::handle(&mut body, vacancy("L1-01"), t(REFERENCE), &settings).unwrap();
    assert_eq!(determined(&first)["successor"]["id"], "L1-03");
    let second = procedure::handle(&mut body, vacancy("L1-02"), t(REFERENCE), &settings).unwrap();
    let data = determined(&second);
    assert_eq!(data["successor"]["id"], "L1-04");
    let trail: Vec<TrailStep> = serde_json::from_value(data["trail"].clone()).unwrap();
    assert!(trail.contains(&skipped("L1-03", "pending_successor", NW_2_1)), "{trail:#?}");
}

// § 46 KWahlG NRW — party ban; § 33 Abs. 1 Nr. 4 KWG — merger

const NW_46_2_1: &str = "§ 46 Abs. 2 Satz 1 KWahlG NRW";
const NW_46_2_2: &str = "§ 46 Abs. 2 Satz 2 KWahlG NRW";
const HE_33_1_4: &str = "§ 33 Abs. 1 Nr. 4 Halbsatz 2 KWG";

#[test]
fn nrw_46_abs_2_satz_1_party_ban_on_the_banned_list_seat_stays_vacant_size_reduced() {
    // L1-01 was elected on the list of the banned party: nobody of that list succeeds
    let body = nrw_abc(cand("L1-02", 2));
    let d = decide(&body, &query("L1-01").via(SeatVia::List).cause(Cause::PartyBan { list_banned: true })).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::PartyBanned, 43),
        vec![finding("party_banned", NW_46_2_1), finding("statutory_size_reduced", NW_46_2_1)],
    );
}

#[test]
fn nrw_46_abs_2_satz_2_party_ban_member_elected_for_another_list_succession_under_45() {
    // L1-01 was elected for party L1 (not banned) and later joined the banned party: § 45 applies to L1
    let body = nrw_abc(cand("L1-02", 2).left_party());
    let d = decide(&body, &query("L1-01").via(SeatVia::List).cause(Cause::PartyBan { list_banned: false })).unwrap();
    assert_decision(
        d,
        successor("L1-03", "L1"),
        vec![
            finding("party_ban_list_not_banned", NW_46_2_2),
            skipped("L1-01", "departed", NW_1_1),
            skipped("L1-02", "left_party", NW_3_1),
            chosen("L1-03", "next_on_list", NW_2_1),
        ],
    );
}

#[test]
fn he_33_abs_1_nr_4_merger_no_succession_size_unchanged() {
    let body = he_abc(hcand("W1-02", 2, 500));
    let d = decide(&body, &query("W1-01").cause(Cause::Merger)).unwrap();
    assert_decision(d, vacant(VacancyReason::Merger, 44), vec![finding("merger_no_succession", HE_33_1_4)]);
}

#[test]
fn nrw_46_he_33_causes_only_in_their_land() {
    let nrw_body = nrw_abc(cand("L1-02", 2));
    let err = decide(&nrw_body, &query("L1-01").cause(Cause::Merger)).unwrap_err();
    assert!(matches!(&err, DecideError::Cause(e) if e.field == "reason"), "{err:?}");
    let he_body = he_abc(hcand("W1-02", 2, 500));
    let err = decide(&he_body, &query("W1-01").cause(Cause::PartyBan { list_banned: true })).unwrap_err();
    assert!(matches!(&err, DecideError::Cause(e) if e.field == "reason"), "{err:?}");
}

#[test]
fn nrw_46_vacancy_list_banned_required_with_party_banned_and_refused_otherwise() {
    let election = serde_json::to_vec(&nrw_abc(cand("L1-02", 2)).snapshot).expect("json");
    let vacancy = |reason: &str, list_banned: Option<bool>| {
        let mut v = serde_json::json!({"body": "musterstadt-rat", "member": "L1-01", "reason": reason,
            "effective_at": "2026-06-01T12:00:00+02:00"});
        if let Some(b) = list_banned {
            v["list_banned"] = serde_json::json!(b);
        }
        serde_json::to_vec(&v).expect("json")
    };
    let decide = |reason, list_banned| nachfolge::offline::decide(&election, &vacancy(reason, list_banned), None);
    let err = decide("party_banned", None).unwrap_err();
    assert!(err.starts_with("vacancy: list_banned:"), "{err}");
    let err = decide("resigned", Some(false)).unwrap_err();
    assert!(err.starts_with("vacancy: list_banned:"), "{err}");
    let err = decide("merger", None).unwrap_err();
    assert!(err.starts_with("vacancy: reason:"), "{err}");
    let v = decide("party_banned", Some(true)).expect("decided");
    assert_eq!(
        (v["outcome"].as_str(), v["reason"].as_str(), v["statutory_size"].as_u64()),
        (Some("vacant"), Some("party_banned"), Some(43))
    );
    let v = decide("party_banned", Some(false)).expect("decided");
    assert_eq!((v["outcome"].as_str(), v["successor"].as_str()), (Some("successor"), Some("L1-02")));
}

#[test]
fn nrw_unknown_departed_is_an_error() {
    let body = nrw_abc(cand("L1-02", 2));
    assert_eq!(decide(&body, &query("nobody")), Err(DecideError::UnknownMember("nobody".to_owned())));
}

// =========================================================================================================
// Hessen — § 34 KWG

#[test]
fn he_34_abs_1_satz_1_most_votes_wins() {
    // W1-04 holds a seat but ranks behind the successor: he is not part of the trail
    let body = hessen()
        .list(party(
            "W1",
            vec![
                hcand("W1-01", 1, 900).seated(SeatVia::List),
                hcand("W1-02", 2, 100),
                hcand("W1-03", 3, 300),
                hcand("W1-04", 4, 200).seated(SeatVia::List),
            ],
        ))
        .body();
    let d = decide(&body, &query("W1-01")).unwrap();
    assert_decision(
        d,
        successor("W1-03", "W1"),
        vec![skipped("W1-01", "departed", HE_1_1), chosen("W1-03", "most_votes", HE_1_1)],
    );
}

#[test]
fn he_34_abs_1_satz_1_tie_list_order() {
    // equal votes: the list position decides, not the order of the snapshot
    let body = hessen()
        .list(party(
            "W1",
            vec![
                hcand("W1-01", 1, 900).seated(SeatVia::List),
                hcand("W1-05", 5, 300),
                hcand("W1-04", 4, 300),
                hcand("W1-02", 2, 100),
            ],
        ))
        .body();
    let d = decide(&body, &query("W1-01")).unwrap();
    assert_decision(
        d,
        successor("W1-04", "W1"),
        vec![skipped("W1-01", "departed", HE_1_1), chosen("W1-04", "most_votes_list_order", HE_1_1_HS_2)],
    );
}

/// A majority election: one list, W1-02 and W1-03 tied at 300 votes.
fn he_majority() -> Body {
    hessen()
        .majority()
        .list(voter_group(
            "W1",
            vec![
                hcand("W1-01", 1, 900).seated(SeatVia::List),
                hcand("W1-02", 2, 300),
                hcand("W1-03", 3, 300),
                hcand("W1-04", 4, 100),
            ],
        ))
        .body()
}

#[test]
fn he_34_abs_1a_majority_tie_requests_lot() {
    let d = decide(&he_majority(), &query("W1-01")).unwrap();
    assert_decision(
        d,
        Outcome::LotRequired { tied: vec!["W1-02".to_owned(), "W1-03".to_owned()] },
        vec![
            skipped("W1-01", "departed", HE_1_1),
            tied("W1-02", "equal_votes_lot", HE_1A),
            tied("W1-03", "equal_votes_lot", HE_1A),
        ],
    );
}

#[test]
fn he_34_abs_1a_majority_lot_winner_chosen() {
    let d = decide(&he_majority(), &query("W1-01").lot("W1-03")).unwrap();
    assert_decision(
        d,
        successor("W1-03", "W1"),
        vec![skipped("W1-01", "departed", HE_1_1), tied("W1-02", "lost_lot", HE_1A), chosen("W1-03", "won_lot", HE_1A)],
    );
}

#[test]
fn he_34_abs_1a_majority_lot_winner_not_tied_is_error() {
    let r = decide(&he_majority(), &query("W1-01").lot("W1-04"));
    assert_eq!(r, Err(DecideError::LotWinnerNotTied("W1-04".to_owned())));
}

#[test]
fn he_34_abs_1a_majority_most_votes_without_tie() {
    let body = hessen()
        .majority()
        .list(voter_group(
            "W1",
            vec![hcand("W1-01", 1, 900).seated(SeatVia::List), hcand("W1-02", 2, 300), hcand("W1-03", 3, 400)],
        ))
        .body();
    let d = decide(&body, &query("W1-01")).unwrap();
    assert_decision(
        d,
        successor("W1-03", "W1"),
        vec![skipped("W1-01", "departed", HE_1_1), chosen("W1-03", "most_votes", HE_1A)],
    );
}

#[test]
fn he_34_abs_1a_majority_tie_excludes_passed_over_candidates() {
    // W1-02 has as many votes but left the party: no tie, no lot
    let body = hessen()
        .majority()
        .list(voter_group(
            "W1",
            vec![
                hcand("W1-01", 1, 900).seated(SeatVia::List),
                hcand("W1-02", 2, 300).left_party(),
                hcand("W1-03", 3, 300),
            ],
        ))
        .body();
    let d = decide(&body, &query("W1-01")).unwrap();
    assert_decision(
        d,
        successor("W1-03", "W1"),
        vec![
            skipped("W1-01", "departed", HE_1_1),
            skipped("W1-02", "left_party", HE_2_1),
            chosen("W1-03", "most_votes", HE_1A),
        ],
    );
}

#[test]
fn he_34_abs_1_satz_1_already_called_resigned_member_skipped() {
    assert_he_second_skipped(hcand("W1-02", 2, 500).former_member(), "already_called", HE_1_1);
}

#[test]
fn he_34_abs_1_satz_1_seated_member_skipped() {
    assert_he_second_skipped(hcand("W1-02", 2, 500).seated(SeatVia::List), "already_called", HE_1_1);
}

#[test]
fn he_34_abs_1_satz_1_pending_successor_of_other_case_skipped() {
    let body = he_abc(hcand("W1-02", 2, 500));
    let d = decide(&body, &query("W1-01").pending("W1-02")).unwrap();
    assert_decision(
        d,
        successor("W1-03", "W1"),
        vec![
            skipped("W1-01", "departed", HE_1_1),
            skipped("W1-02", "already_called", HE_1_1),
            chosen("W1-03", "most_votes", HE_1_1),
        ],
    );
}

#[test]
fn he_34_abs_1_satz_1_departed_switched_party_same_list() {
    let body = hessen()
        .list(party(
            "W1",
            vec![hcand("W1-01", 1, 900).seated(SeatVia::List).left_party().joined_other_party(), hcand("W1-02", 2, 5)],
        ))
        .list(party("W2", vec![hcand("W2-01", 1, 5000)]))
        .body();
    let d = decide(&body, &query("W1-01")).unwrap();
    assert_eq!(d.outcome, successor("W1-02", "W1"));
}

#[test]
fn he_34_abs_2_nr_1_left_party_skipped() {
    assert_he_second_skipped(hcand("W1-02", 2, 500).left_party(), "left_party", HE_2_1);
}

#[test]
fn he_34_abs_2_nr_1_joined_other_party_no_effect_noted() {
    let body = he_abc(hcand("W1-02", 2, 500).joined_other_party());
    let d = decide(&body, &query("W1-01")).unwrap();
    assert_decision(
        d,
        successor("W1-02", "W1"),
        vec![
            skipped("W1-01", "departed", HE_1_1),
            noted("W1-02", "joined_other_party_no_effect", HE_2_1),
            chosen("W1-02", "most_votes", HE_1_1),
        ],
    );
}

#[test]
fn he_34_abs_2_nr_2_written_waiver_skipped() {
    assert_he_second_skipped(hcand("W1-02", 2, 500).waived_written(), "waived", HE_2_2);
}

#[test]
fn he_34_abs_2_nr_2_recorded_waiver_skipped() {
    assert_he_second_skipped(hcand("W1-02", 2, 500).waived_recorded(), "waived", HE_2_2);
}

#[test]
fn he_34_abs_2_nr_3_died_skipped() {
    assert_he_second_skipped(hcand("W1-02", 2, 500).died(), "died", HE_2_3);
}

#[test]
fn he_34_abs_2_nr_3_ineligible_at_determination_skipped() {
    assert_he_second_skipped(hcand("W1-02", 2, 500).ineligible("2026-05-01", None), "ineligible", HE_2_3_33);
}

#[test]
fn he_34_abs_2_nr_3_ineligible_before_or_after_determination_not_skipped() {
    // Hessen knows no "continuously eligible": only the time of the determination counts
    for second in [
        hcand("W1-02", 2, 500).ineligible("2026-01-01", Some("2026-03-31")),
        hcand("W1-02", 2, 500).ineligible("2026-06-02", None),
    ] {
        let d = decide(&he_abc(second), &query("W1-01")).unwrap();
        assert_decision(
            d,
            successor("W1-02", "W1"),
            vec![skipped("W1-01", "departed", HE_1_1), chosen("W1-02", "most_votes", HE_1_1)],
        );
    }
}

#[test]
fn he_34_abs_2_declined_no_effect_noted() {
    let body = he_abc(hcand("W1-02", 2, 500).declined());
    let d = decide(&body, &query("W1-01")).unwrap();
    assert_decision(
        d,
        successor("W1-02", "W1"),
        vec![
            skipped("W1-01", "departed", HE_1_1),
            noted("W1-02", "declined_no_effect", HE_2),
            chosen("W1-02", "most_votes", HE_1_1),
        ],
    );
}

#[test]
fn he_34_abs_3_satz_2_barred_candidate_determined_not_skipped() {
    let body = he_abc(hcand("W1-02", 2, 500).barred("Beamter des Landkreises"));
    let d = decide(&body, &query("W1-01")).unwrap();
    assert_decision(
        d,
        barred_successor("W1-02", "W1"),
        vec![
            skipped("W1-01", "departed", HE_1_1),
            chosen("W1-02", "most_votes", HE_1_1),
            noted("W1-02", "barred_must_prove_end", HE_BARRED),
        ],
    );
}

#[test]
fn he_34_abs_1_satz_2_list_exhausted_vacant_size_reduced() {
    let body = hessen()
        .size(31)
        .list(party(
            "W1",
            vec![
                hcand("W1-01", 1, 900).seated(SeatVia::List),
                hcand("W1-02", 2, 500).waived_written(),
                hcand("W1-03", 3, 300).former_member(),
            ],
        ))
        .list(party("W2", vec![hcand("W2-01", 1, 50)]))
        .body();
    let d = decide(&body, &query("W1-01")).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::ListExhausted, 30),
        vec![
            skipped("W1-01", "departed", HE_1_1),
            skipped("W1-02", "waived", HE_2_2),
            skipped("W1-03", "already_called", HE_1_1),
            finding("list_exhausted", HE_1_2),
            finding("statutory_size_reduced", HE_1_2),
        ],
    );
}

// =========================================================================================================
// Rheinland-Pfalz — § 45 KWG, § 66 KWO

/// RP Wahlvorschlag R1: R1-01 (pos. 1, 900 votes, seated, the departed), `second` (pos. 2, 500 votes), R1-03
/// (pos. 3, 300 votes).
fn rp_abc(second: Candidate) -> Body {
    rheinland_pfalz()
        .list(party("R1", vec![hcand("R1-01", 1, 900).seated(SeatVia::List), second, hcand("R1-03", 3, 300)]))
        .body()
}

#[track_caller]
fn assert_rp_second_skipped(second: Candidate, reason: &str, citation: &str) {
    let d = decide(&rp_abc(second), &query("R1-01")).unwrap();
    assert_decision(
        d,
        successor("R1-03", "R1"),
        vec![
            skipped("R1-01", "departed", RP_2_1),
            skipped("R1-02", reason, citation),
            chosen("R1-03", "most_votes", RP_2_2),
        ],
    );
}

#[test]
fn rp_45_abs_2_satz_2_most_votes_not_list_position() {
    // R1-03 (pos. 3) has more votes than R1-02 (pos. 2)
    let body = rheinland_pfalz()
        .list(party(
            "R1",
            vec![hcand("R1-01", 1, 900).seated(SeatVia::List), hcand("R1-02", 2, 100), hcand("R1-03", 3, 400)],
        ))
        .body();
    let d = decide(&body, &query("R1-01")).unwrap();
    assert_decision(
        d,
        successor("R1-03", "R1"),
        vec![skipped("R1-01", "departed", RP_2_1), chosen("R1-03", "most_votes", RP_2_2)],
    );
}

#[test]
fn rp_45_abs_2_satz_3_equal_votes_order_of_nomination() {
    let body = rheinland_pfalz()
        .list(party(
            "R1",
            vec![hcand("R1-01", 1, 900).seated(SeatVia::List), hcand("R1-03", 3, 400), hcand("R1-02", 2, 400)],
        ))
        .body();
    let d = decide(&body, &query("R1-01")).unwrap();
    assert_decision(
        d,
        successor("R1-02", "R1"),
        vec![skipped("R1-01", "departed", RP_2_1), chosen("R1-02", "most_votes_list_order", RP_2_3)],
    );
}

#[test]
fn rp_45_abs_2_satz_1_already_called_skipped() {
    assert_rp_second_skipped(hcand("R1-02", 2, 500).seated(SeatVia::List), "already_called", RP_2_1);
    assert_rp_second_skipped(hcand("R1-02", 2, 500).former_member(), "already_called", RP_2_1);
    let d = decide(&rp_abc(hcand("R1-02", 2, 500)), &query("R1-01").pending("R1-02")).unwrap();
    assert_eq!(d.outcome, successor("R1-03", "R1"));
    assert!(d.trail.contains(&skipped("R1-02", "already_called", RP_2_1)));
}

#[test]
fn rp_45_abs_2_satz_1_refused_when_called_skipped_for_good() {
    assert_rp_second_skipped(hcand("R1-02", 2, 500).declined(), "declined", RP_2_1);
}

#[test]
fn rp_45_abs_2_satz_1_waiver_in_any_written_form_skipped() {
    assert_rp_second_skipped(hcand("R1-02", 2, 500).waived_written(), "waived", RP_2_1);
    assert_rp_second_skipped(hcand("R1-02", 2, 500).waived_recorded(), "waived", RP_2_1);
}

#[test]
fn rp_45_abs_2_satz_1_died_skipped() {
    assert_rp_second_skipped(hcand("R1-02", 2, 500).died(), "died", RP_2_1);
}

/// § 46 Abs. 1 KWG: "so verlieren die Ratsmitglieder und Ersatzleute, die dieser Partei … angehört haben, …
/// ihre Mitgliedschaft oder ihre Anwartschaft" — recorded as `banned_party_member`, passed over from the day
/// the loss took effect.
#[test]
fn rp_46_abs_1_ersatzperson_of_the_banned_party_loses_the_anwartschaft() {
    let banned = |on: &str| hcand("R1-02", 2, 500).fact(Fact::BannedPartyMember { on: d(on) });
    assert_rp_second_skipped(banned(FACT_DAY), "banned_party_member", "§ 46 Abs. 1 KWG");
    // letters and announcements say it in German, not as the code
    let de = nachfolge_core::texts::reason_de("banned_party_member");
    assert!(de.contains("verbotenen Partei") && de.contains("Anwartschaft verloren"), "{de}");
    let d = decide(&rp_abc(banned("2026-07-01")), &query("R1-01")).unwrap();
    assert_eq!(d.outcome, successor("R1-02", "R1"), "{:#?}", d.trail);
}

/// § 46 Abs. 1 KWG: the member loses the seat through the ban; what becomes of the seat (§ 46 after Abs. 1) was not
/// read, so the seat is left to the Wahlleiter — nobody named, the statutory size unchanged — with either
/// `list_banned` (docs/legal.md, "Party ban: Mecklenburg-Vorpommern, Rheinland-Pfalz, Brandenburg").
#[test]
fn rp_46_abs_1_kwg_party_ban_the_seat_is_left_to_the_wahlleiter() {
    let body = rp_abc(hcand("R1-02", 2, 500));
    for list_banned in [true, false] {
        let d = decide(&body, &query("R1-01").cause(Cause::PartyBan { list_banned })).unwrap();
        assert_decision(
            d,
            vacant(VacancyReason::ReturningOfficerDecides, body.info().statutory_size),
            vec![finding("party_ban_returning_officer_decides", "§ 46 Abs. 1 KWG")],
        );
    }
}

/// The loss of the Anwartschaft by a party ban is modelled for MV, RP, BB, SL, ST and NI only: elsewhere the fact
/// is refused with its path, not ignored.
#[test]
fn banned_party_member_fact_refused_outside_the_lander_that_model_it() {
    let fact = Fact::BannedPartyMember { on: d(FACT_DAY) };
    let err = Body::from_snapshot(
        nrw()
            .list(party(
                "A",
                vec![hcand("A-01", 1, 900).seated(SeatVia::List), hcand("A-02", 2, 500).fact(fact.clone())],
            ))
            .snapshot(),
    )
    .unwrap_err();
    assert_eq!(err.field, "lists[0].candidates[1].facts[0].type");
    assert!(err.problem.contains("§ 47 Abs. 1 LKWG M-V"), "{err:?}");
    for b in [mecklenburg_vorpommern(), rheinland_pfalz(), brandenburg(), sachsen_anhalt(), niedersachsen()] {
        Body::from_snapshot(
            b.list(party(
                "A",
                vec![hcand("A-01", 1, 900).seated(SeatVia::List), hcand("A-02", 2, 500).fact(fact.clone())],
            ))
            .snapshot(),
        )
        .unwrap();
    }
}

#[test]
fn rp_45_abs_4_lost_eligibility_skipped() {
    assert_rp_second_skipped(hcand("R1-02", 2, 500).ineligible(FACT_DAY, None), "ineligible", RP_4);
}

#[test]
fn rp_45_abs_4_kwo_66_abs_1_not_ununterbrochen_eligible_skipped_for_good() {
    // ineligible for a while after the election, eligible again on the reference day: out for good
    assert_rp_second_skipped(
        hcand("R1-02", 2, 500).ineligible("2026-01-01", Some("2026-03-31")),
        "not_continuously_eligible",
        RP_4_66,
    );
}

#[test]
fn rp_45_abs_2_left_or_joined_party_no_effect_noted() {
    let body = rp_abc(hcand("R1-02", 2, 500).left_party().joined_other_party());
    let d = decide(&body, &query("R1-01")).unwrap();
    assert_decision(
        d,
        successor("R1-02", "R1"),
        vec![
            skipped("R1-01", "departed", RP_2_1),
            noted("R1-02", "left_party_no_effect", RP_2),
            noted("R1-02", "joined_other_party_no_effect", RP_2),
            chosen("R1-02", "most_votes", RP_2_2),
        ],
    );
}

#[test]
fn rp_64_abs_2_kwo_barred_successor_determined_and_must_prove() {
    let d =
        decide(&rp_abc(hcand("R1-02", 2, 500).barred("Beschäftigter der Verbandsgemeinde")), &query("R1-01")).unwrap();
    assert_decision(
        d,
        barred_successor("R1-02", "R1"),
        vec![
            skipped("R1-01", "departed", RP_2_1),
            chosen("R1-02", "most_votes", RP_2_2),
            noted("R1-02", "barred_must_prove_end", RP_BARRED),
        ],
    );
}

#[test]
fn rp_66_abs_3_satz_2_kwo_no_ersatzperson_vacant_statutory_size_reduced() {
    let body = rp_abc(hcand("R1-02", 2, 500).died());
    let body = {
        let mut s = body.snapshot.clone();
        s.lists[0].candidates[2].facts.push(Fact::Declined { on: d(FACT_DAY), of: Declination::Succession });
        Body::from_snapshot(s).unwrap()
    };
    let d = decide(&body, &query("R1-01")).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::ListExhausted, 43),
        vec![
            skipped("R1-01", "departed", RP_2_1),
            skipped("R1-02", "died", RP_2_1),
            skipped("R1-03", "declined", RP_2_1),
            finding("list_exhausted", RP_66_3_2),
            finding("statutory_size_reduced", RP_GEMO_29_4),
        ],
    );
}

#[test]
fn rp_45_abs_3_majority_most_votes_then_lot() {
    let body = rheinland_pfalz()
        .majority()
        .list(party(
            "R1",
            vec![hcand("R1-01", 1, 900).seated(SeatVia::List), hcand("R1-02", 2, 400), hcand("R1-03", 3, 400)],
        ))
        .body();
    let d = decide(&body, &query("R1-01")).unwrap();
    assert_eq!(d.outcome, Outcome::LotRequired { tied: vec!["R1-02".into(), "R1-03".into()] });
    assert!(d.trail.contains(&tied("R1-03", "equal_votes_lot", RP_3_2)));
    let d = decide(&body, &query("R1-01").lot("R1-03")).unwrap();
    assert_eq!(d.outcome, successor("R1-03", "R1"));
    assert!(d.trail.contains(&chosen("R1-03", "won_lot", RP_3_2)));
    assert!(d.trail.contains(&tied("R1-02", "lost_lot", RP_3_2)));
    // no tie: the most votes
    let body = rheinland_pfalz()
        .majority()
        .list(party(
            "R1",
            vec![hcand("R1-01", 1, 900).seated(SeatVia::List), hcand("R1-02", 2, 300), hcand("R1-03", 3, 400)],
        ))
        .body();
    let d = decide(&body, &query("R1-01")).unwrap();
    assert_decision(
        d,
        successor("R1-03", "R1"),
        vec![skipped("R1-01", "departed", RP_2_1), chosen("R1-03", "most_votes", RP_3_1)],
    );
}

#[test]
fn rp_45_abs_2_succession_order_by_votes_with_the_same_exclusions() {
    let body = rheinland_pfalz()
        .list(party(
            "R1",
            vec![
                hcand("R1-01", 1, 900).seated(SeatVia::List),
                hcand("R1-02", 2, 100),
                hcand("R1-03", 3, 400).waived_written(),
                hcand("R1-04", 4, 200),
            ],
        ))
        .body();
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["R1-04", "R1-02"]);
    let passed: Vec<(&str, &str)> =
        order.lists[0].passed_over.iter().map(|p| (p.candidate.as_str(), p.reason.as_str())).collect();
    assert_eq!(passed, vec![("R1-01", "already_called"), ("R1-03", "waived")]);
}

#[test]
fn rp_validation_votes_required_no_ersatzbewerber_no_foreign_causes() {
    let err = Body::from_snapshot(rheinland_pfalz().list(party("R1", vec![cand("R1-01", 1)])).snapshot()).unwrap_err();
    assert_eq!(err.field, "lists[0].candidates[0].votes");
    let err = Body::from_snapshot(
        rheinland_pfalz()
            .list(party("R1", vec![hcand("R1-01", 1, 5), hcand("R1-02", 2, 4).substitute_for("R1-01")]))
            .snapshot(),
    )
    .unwrap_err();
    assert_eq!(err.field, "lists[0].candidates[1].substitute_for");
    let err = Body::from_snapshot(
        rheinland_pfalz()
            .majority()
            .list(party("R1", vec![hcand("R1-01", 1, 5)]))
            .list(party("R2", vec![hcand("R2-01", 1, 5)]))
            .snapshot(),
    )
    .unwrap_err();
    assert_eq!(err.field, "lists");
    let body = rp_abc(hcand("R1-02", 2, 500));
    // a party ban is served since issue 25's fourth pass (rp_46_abs_1_kwg_party_ban_…); a merger and a corrected
    // result are not Rheinland-Pfalz's
    for cause in [Cause::Merger, Cause::ResultCorrected] {
        let e = decide(&body, &query("R1-01").cause(cause)).unwrap_err();
        assert!(matches!(e, DecideError::Cause(ref v) if v.field == "reason"), "{e:?}");
    }
}

// =========================================================================================================
// Niedersachsen — § 44 NKWG with §§ 38, 45

const NI_44_1: &str = "§ 44 Abs. 1 NKWG";
const NI_38_1: &str = "§ 38 Abs. 1 NKWG";
const NI_38_2: &str = "§ 44 Abs. 1 i. V. m. § 38 Abs. 2 Satz 1 und 2 NKWG";
const NI_38_2_3: &str = "§ 38 Abs. 2 Satz 3 NKWG";
const NI_38_3: &str = "§ 44 Abs. 1 i. V. m. § 38 Abs. 3 NKWG";
const NI_44_4: &str = "§ 44 Abs. 4 i. V. m. § 38 Abs. 4 NKWG";
const NI_44_2: &str = "§ 44 Abs. 2 NKWG";
const NI_44_2_45: &str = "§ 44 Abs. 2 NKWG i. V. m. § 45 Abs. 1 Satz 2 NKWG";
const NI_44_3_1: &str = "§ 44 Abs. 3 Nr. 1 NKWG";
const NI_44_3_2: &str = "§ 44 Abs. 3 Nr. 2 NKWG";
const NI_44_5: &str = "§ 44 Abs. 5 NKWG, § 77 Abs. 3 NKWO";
const NI_44_5_AREAS: &str = "§ 44 Abs. 5 Satz 1 i. V. m. § 37 Abs. 5 NKWG, § 38 Abs. 5 NKWG";
const NI_45_1_1: &str = "§ 45 Abs. 1 Satz 1 NKWG";
const NI_45_2: &str = "§ 45 Abs. 2 NKWG";
const NI_45_2_3: &str = "§ 45 Abs. 2 Satz 3 NKWG";
const NI_45_3_1: &str = "§ 45 Abs. 3 Satz 1 NKWG";
const NI_BARRED: &str = "§ 50 Abs. 1 und 3 NKomVG";
const NI_INDIVIDUAL: &str = "§ 38 Abs. 1 NKWG, § 44 Abs. 5 NKWG";

/// NI Wahlvorschlag N1 (a party): N1-01 (pos. 1, 900 votes, Personenwahl seat, the departed), `second`
/// (pos. 2, 500 votes), N1-03 (pos. 3, 300 votes), N1-04 (pos. 4, no votes).
fn ni_abc(second: Candidate) -> Body {
    niedersachsen()
        .list(party(
            "N1",
            vec![
                hcand("N1-01", 1, 900).seated(SeatVia::PersonalVote),
                second,
                hcand("N1-03", 3, 300),
                hcand("N1-04", 4, 0),
            ],
        ))
        .body()
}

#[track_caller]
fn assert_ni_second_skipped(second: Candidate, reason: &str, citation: &str) {
    let d = decide(&ni_abc(second), &query("N1-01")).unwrap();
    assert_decision(
        d,
        successor("N1-03", "N1"),
        vec![
            skipped("N1-01", "departed", NI_44_1),
            skipped("N1-02", reason, citation),
            chosen("N1-03", "most_votes", NI_38_2),
        ],
    );
}

#[test]
fn ni_nkwg_38_abs_2_personenwahl_most_votes_not_list_position() {
    let body = niedersachsen()
        .list(party(
            "N1",
            vec![hcand("N1-01", 1, 900).seated(SeatVia::PersonalVote), hcand("N1-02", 2, 100), hcand("N1-03", 3, 400)],
        ))
        .body();
    let d = decide(&body, &query("N1-01")).unwrap();
    assert_decision(
        d,
        successor("N1-03", "N1"),
        vec![skipped("N1-01", "departed", NI_44_1), chosen("N1-03", "most_votes", NI_38_2)],
    );
}

#[test]
fn ni_nkwg_38_abs_2_satz_3_equal_votes_lot_drawn_by_the_wahlleitung() {
    let body = niedersachsen()
        .list(party(
            "N1",
            vec![hcand("N1-01", 1, 900).seated(SeatVia::PersonalVote), hcand("N1-02", 2, 400), hcand("N1-03", 3, 400)],
        ))
        .body();
    // equal votes in a proportional election: not the list order, the lot (unlike Hessen and Rheinland-Pfalz)
    let d = decide(&body, &query("N1-01")).unwrap();
    assert_decision(
        d,
        Outcome::LotRequired { tied: vec!["N1-02".into(), "N1-03".into()] },
        vec![
            skipped("N1-01", "departed", NI_44_1),
            tied("N1-02", "equal_votes_lot", NI_38_2_3),
            tied("N1-03", "equal_votes_lot", NI_38_2_3),
        ],
    );
    let d = decide(&body, &query("N1-01").lot("N1-03")).unwrap();
    assert_decision(
        d,
        successor("N1-03", "N1"),
        vec![
            skipped("N1-01", "departed", NI_44_1),
            tied("N1-02", "lost_lot", NI_38_2_3),
            chosen("N1-03", "won_lot", NI_38_2_3),
        ],
    );
    assert!(matches!(decide(&body, &query("N1-01").lot("N1-01")), Err(DecideError::LotWinnerNotTied(_))));
    // a tied candidate who is passed over takes no part in the lot
    let body = ni_abc(hcand("N1-02", 2, 300).died());
    let d = decide(&body, &query("N1-01")).unwrap();
    assert_eq!(d.outcome, successor("N1-03", "N1"));
}

#[test]
fn ni_nkwg_44_abs_4_no_personal_vote_ersatzperson_then_list_order() {
    // N1-02 and N1-03, the only ones with votes, are out; among those without votes § 38 Abs. 4 takes the
    // order of the Wahlvorschlag (N1-04 before N1-05, whatever their order in the snapshot)
    let body = niedersachsen()
        .list(party(
            "N1",
            vec![
                hcand("N1-01", 1, 900).seated(SeatVia::PersonalVote),
                hcand("N1-02", 2, 500).declined(),
                hcand("N1-03", 3, 300).died(),
                hcand("N1-05", 5, 0),
                hcand("N1-04", 4, 0),
            ],
        ))
        .body();
    let d = decide(&body, &query("N1-01")).unwrap();
    assert_decision(
        d,
        successor("N1-04", "N1"),
        vec![
            skipped("N1-01", "departed", NI_44_1),
            skipped("N1-02", "declined", NI_45_1_1),
            skipped("N1-03", "died", NI_38_1),
            finding("no_personal_vote_substitute", NI_44_4),
            chosen("N1-04", "next_on_list", NI_44_4),
        ],
    );
}

#[test]
fn ni_nkwg_38_abs_3_listenwahl_seat_goes_by_list_order_not_votes() {
    let body = niedersachsen()
        .list(party(
            "N1",
            vec![
                hcand("N1-01", 1, 900).seated(SeatVia::PersonalVote),
                hcand("N1-02", 2, 50).seated(SeatVia::List),
                hcand("N1-03", 3, 10),
                hcand("N1-04", 4, 700),
            ],
        ))
        .body();
    let d = decide(&body, &query("N1-02")).unwrap();
    assert_decision(
        d,
        successor("N1-03", "N1"),
        vec![
            skipped("N1-01", "seated", NI_38_1),
            skipped("N1-02", "departed", NI_44_1),
            chosen("N1-03", "next_on_list", NI_38_3),
        ],
    );
    // the query's `departed_via` wins over the seat (the case keeps it after the seat was given up)
    let d = decide(&body, &query("N1-02").via(SeatVia::PersonalVote)).unwrap();
    assert_eq!(d.outcome, successor("N1-04", "N1"));
}

#[test]
fn ni_nkwg_44_abs_1_seat_won_otherwise_refused_naming_the_field() {
    let body = ni_abc(hcand("N1-02", 2, 500));
    let e = decide(&body, &query("N1-01").via(SeatVia::Succession)).unwrap_err();
    assert!(matches!(e, DecideError::Cause(ref v) if v.field == "seat.via"), "{e:?}");
}

#[test]
fn ni_nkwg_44_abs_2_party_notice_before_vacancy_excludes() {
    // the notice arrived on 2026-02-01, the seat falls vacant on the reference day (2026-06-01)
    assert_ni_second_skipped(
        hcand("N1-02", 2, 500).left_party().party_notice(FACT_DAY),
        "left_party_notified",
        NI_44_2_45,
    );
    // the notice alone reports the exit
    assert_ni_second_skipped(hcand("N1-02", 2, 500).party_notice(FACT_DAY), "left_party_notified", NI_44_2_45);
}

#[test]
fn ni_nkwg_44_abs_2_party_exit_without_notice_or_notified_too_late_has_no_effect() {
    let decision = decide(&ni_abc(hcand("N1-02", 2, 500).left_party()), &query("N1-01")).unwrap();
    assert_decision(
        decision,
        successor("N1-02", "N1"),
        vec![
            skipped("N1-01", "departed", NI_44_1),
            noted("N1-02", "left_party_not_notified", NI_44_2),
            chosen("N1-02", "most_votes", NI_38_2),
        ],
    );
    // the notice arrived on the day the seat fell vacant: not "vor dem Freiwerden des Sitzes"
    let body = {
        let mut s = ni_abc(hcand("N1-02", 2, 500).left_party().party_notice("2026-05-01")).snapshot.clone();
        s.lists[0].candidates[0].seat = None;
        s.lists[0].candidates[0].facts.push(Fact::FormerMember { on: d("2026-05-01") });
        Body::from_snapshot(s).unwrap()
    };
    let d = decide(&body, &query("N1-01").via(SeatVia::PersonalVote)).unwrap();
    assert_eq!(d.outcome, successor("N1-02", "N1"));
    assert!(d.trail.contains(&noted("N1-02", "party_notice_too_late", NI_44_2)));
}

/// § 45 Abs. 4 NKWG: "Wer die Wahl in ein durch Direktwahl vermitteltes Amt annimmt, scheidet als Ersatzperson
/// nach § 38 Abs. 1 aus" — recorded as `substitute_status_lost` (ground `direct_office_accepted`, `on`: the
/// acceptance); the ground is refused outside Niedersachsen (issue 25, point 11).
#[test]
fn ni_45_abs_4_nkwg_a_substitute_who_accepted_a_direct_election_office_is_passed_over() {
    let fact = Fact::SubstituteStatusLost { on: d(FACT_DAY), ground: StatusLossGround::DirectOfficeAccepted };
    assert_ni_second_skipped(hcand("N1-02", 2, 500).fact(fact.clone()), "direct_office_accepted", "§ 45 Abs. 4 NKWG");
    let elsewhere = hessen().list(party("W1", vec![hcand("W1-01", 1, 9).fact(fact)])).snapshot();
    assert_eq!(Body::from_snapshot(elsewhere).unwrap_err().field, "lists[0].candidates[0].facts[0].ground");
}

#[test]
fn ni_nkwg_44_abs_2_voter_group_exit_has_no_effect() {
    // § 44 Abs. 2 names the Partei only
    let body = niedersachsen()
        .list(voter_group(
            "W1",
            vec![
                hcand("W1-01", 1, 900).seated(SeatVia::PersonalVote),
                hcand("W1-02", 2, 500).left_party().party_notice(FACT_DAY),
            ],
        ))
        .body();
    let d = decide(&body, &query("W1-01")).unwrap();
    assert_eq!(d.outcome, successor("W1-02", "W1"));
    assert!(d.trail.contains(&noted("W1-02", "party_exit_not_a_party", NI_44_2)));
}

#[test]
fn ni_nkwg_44_abs_3_party_ban_vacant_or_members_to_check() {
    let body = ni_abc(hcand("N1-02", 2, 500));
    let d = decide(&body, &query("N1-01").cause(Cause::PartyBan { list_banned: true })).unwrap();
    assert_decision(d, vacant(VacancyReason::PartyBanned, 44), vec![finding("party_banned", NI_44_3_1)]);
    let d = decide(&body, &query("N1-01").cause(Cause::PartyBan { list_banned: false })).unwrap();
    assert_eq!(d.outcome, successor("N1-02", "N1"));
    assert_eq!(d.trail[0], finding("party_ban_members_to_check", NI_44_3_2));
    let e = decide(&body, &query("N1-01").cause(Cause::Merger)).unwrap_err();
    assert!(matches!(e, DecideError::Cause(ref v) if v.field == "reason"), "{e:?}");
}

/// § 44 Abs. 3 Nr. 2 with § 45 Abs. 1 Satz 2 NKWG: the seat of a banned party's member elected on another
/// Wahlvorschlag passes on it, past the Ersatzperson who belonged to the party at the Verkündung; he is out as
/// Ersatzperson for the Wahlperiode, so a later ordinary vacancy passes him over as well.
#[test]
fn ni_45_abs_1_satz_2_nkwg_44_abs_3_nr_2_a_member_of_the_banned_party_is_out_for_the_wahlperiode() {
    let banned = |on: &str| hcand("N1-02", 2, 500).fact(Fact::BannedPartyMember { on: d(on) });
    let body = ni_abc(banned(FACT_DAY));
    let d = decide(&body, &query("N1-01").cause(Cause::PartyBan { list_banned: false })).unwrap();
    assert_decision(
        d,
        successor("N1-03", "N1"),
        vec![
            finding("party_ban_members_to_check", NI_44_3_2),
            skipped("N1-01", "departed", NI_44_1),
            skipped("N1-02", "banned_party_member", "§ 45 Abs. 1 Satz 2 i. V. m. § 44 Abs. 3 Nr. 2 NKWG"),
            chosen("N1-03", "most_votes", NI_38_2),
        ],
    );
    assert_ni_second_skipped(
        banned(FACT_DAY),
        "banned_party_member",
        "§ 45 Abs. 1 Satz 2 i. V. m. § 44 Abs. 3 Nr. 2 NKWG",
    );
    // a finding dated after the reference day has no effect yet
    let d = decide(&ni_abc(banned("2099-01-01")), &query("N1-01")).unwrap();
    assert_eq!(d.outcome, successor("N1-02", "N1"), "{:#?}", d.trail);
}

#[test]
fn ni_nkwg_38_abs_1_already_called_skipped() {
    assert_ni_second_skipped(hcand("N1-02", 2, 500).seated(SeatVia::List), "seated", NI_38_1);
    assert_ni_second_skipped(hcand("N1-02", 2, 500).former_member(), "former_member", NI_38_1);
    let d = decide(&ni_abc(hcand("N1-02", 2, 500)), &query("N1-01").pending("N1-02")).unwrap();
    assert_eq!(d.outcome, successor("N1-03", "N1"));
    assert!(d.trail.contains(&skipped("N1-02", "already_called", NI_38_1)));
    assert_ni_second_skipped(hcand("N1-02", 2, 500).died(), "died", NI_38_1);
}

#[test]
fn ni_nkwg_45_abs_1_refusal_out_for_the_wahlperiode() {
    assert_ni_second_skipped(hcand("N1-02", 2, 500).declined(), "declined", NI_45_1_1);
}

#[test]
fn ni_nkwg_45_abs_2_written_waiver_excludes_recorded_one_noted() {
    assert_ni_second_skipped(hcand("N1-02", 2, 500).waived_written(), "waived", NI_45_2);
    let d = decide(&ni_abc(hcand("N1-02", 2, 500).waived_recorded()), &query("N1-01")).unwrap();
    assert_eq!(d.outcome, successor("N1-02", "N1"));
    assert!(d.trail.contains(&noted("N1-02", "waiver_not_in_form", NI_45_2_3)));
}

#[test]
fn ni_nkwg_45_abs_3_lost_eligibility_out_for_the_wahlperiode_even_if_regained() {
    assert_ni_second_skipped(hcand("N1-02", 2, 500).ineligible(FACT_DAY, None), "ineligible", NI_45_3_1);
    assert_ni_second_skipped(
        hcand("N1-02", 2, 500).ineligible("2026-01-01", Some("2026-03-31")),
        "not_continuously_eligible",
        NI_45_3_1,
    );
}

#[test]
fn ni_nkomvg_50_barred_successor_determined_and_must_prove() {
    let d = decide(&ni_abc(hcand("N1-02", 2, 500).barred("Beamter der Gemeinde")), &query("N1-01")).unwrap();
    assert_decision(
        d,
        barred_successor("N1-02", "N1"),
        vec![
            skipped("N1-01", "departed", NI_44_1),
            chosen("N1-02", "most_votes", NI_38_2),
            noted("N1-02", "barred_must_prove_end", NI_BARRED),
        ],
    );
}

#[test]
fn ni_nkwg_44_abs_5_exhausted_seat_stays_vacant_statutory_size_unchanged() {
    let body = niedersachsen()
        .list(party("N1", vec![hcand("N1-01", 1, 900).seated(SeatVia::List), hcand("N1-02", 2, 0).declined()]))
        .list(individual("E1", hcand("E1-01", 1, 700).seated(SeatVia::PersonalVote)))
        .body();
    let d = decide(&body, &query("N1-01")).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::ListExhausted, 44),
        vec![
            skipped("N1-01", "departed", NI_44_1),
            skipped("N1-02", "declined", NI_45_1_1),
            finding("list_exhausted", NI_44_5),
            finding("no_other_areas_recorded", NI_44_5_AREAS),
        ],
    );
    // an Einzelwahlvorschlag has no Ersatzpersonen
    let d = decide(&body, &query("E1-01")).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::IndividualCandidate, 44),
        vec![finding("individual_candidate", NI_INDIVIDUAL)],
    );
}

#[test]
fn ni_nkwg_38_succession_order_by_votes_lot_groups_then_list_order() {
    let body = niedersachsen()
        .list(party(
            "N1",
            vec![
                hcand("N1-01", 1, 900).seated(SeatVia::PersonalVote),
                hcand("N1-02", 2, 100),
                hcand("N1-03", 3, 400).waived_written(),
                hcand("N1-04", 4, 200),
                hcand("N1-05", 5, 200),
                hcand("N1-07", 7, 0),
                hcand("N1-06", 6, 0),
            ],
        ))
        .body();
    let order = body.succession_order(t(REFERENCE));
    let l = &order.lists[0];
    assert_eq!(l.order, vec!["N1-04", "N1-05", "N1-02", "N1-06", "N1-07"]);
    assert_eq!(l.lot_groups, vec![vec!["N1-04".to_owned(), "N1-05".to_owned()]]);
    let passed: Vec<(&str, &str)> = l.passed_over.iter().map(|p| (p.candidate.as_str(), p.reason.as_str())).collect();
    assert_eq!(passed, vec![("N1-01", "seated"), ("N1-03", "waived")]);
    assert!(l.notes.contains(&finding("listenwahl_seat_list_order", NI_38_3)));
}

#[test]
fn ni_validation_votes_positions_seat_via_and_no_foreign_fields() {
    refused(niedersachsen().list(party("N1", vec![cand("N1-01", 1)])).snapshot(), "lists[0].candidates[0].votes");
    refused(
        niedersachsen().list(party("N1", vec![hcand("N1-01", 1, 3).position(None)])).snapshot(),
        "lists[0].candidates[0].position",
    );
    refused(
        niedersachsen().list(party("N1", vec![hcand("N1-01", 1, 3).seated(SeatVia::Succession)])).snapshot(),
        "lists[0].candidates[0].seat.via",
    );
    refused(
        niedersachsen()
            .list(party("N1", vec![hcand("N1-01", 1, 5), hcand("N1-02", 2, 4).substitute_for("N1-01")]))
            .snapshot(),
        "lists[0].candidates[1].substitute_for",
    );
    refused(
        niedersachsen().majority().list(party("N1", vec![hcand("N1-01", 1, 5)])).snapshot(),
        "body.electoral_system",
    );
    // personal_vote is a Niedersachsen seat
    refused(
        rheinland_pfalz().list(party("R1", vec![hcand("R1-01", 1, 5).seated(SeatVia::PersonalVote)])).snapshot(),
        "lists[0].candidates[0].seat.via",
    );
    // the example is valid
    let path = format!("{}/examples/ni-election.json", env!("CARGO_MANIFEST_DIR"));
    parse_snapshot(&std::fs::read(path).unwrap()).and_then(Body::from_snapshot).unwrap();
}
// Sachsen-Anhalt — § 47 KWG LSA, § 42 Abs. 4 KVG LSA (tests/rules/st.rs)

#[path = "rules/st.rs"]
mod st;

// =========================================================================================================
// Thüringen — § 23 ThürKWG (tests/rules/th.rs)

#[path = "rules/th.rs"]
mod th;

/// Baden-Württemberg (§ 31 Abs. 2 GemO, § 26 KomWG): tests/rules/bw.rs.
#[path = "rules/bw.rs"]
mod bw;

/// Sachsen (§ 34 Abs. 2 SächsGemO, §§ 21, 23 KomWG): tests/rules/sn.rs.
#[path = "rules/sn.rs"]
mod sn;

// =========================================================================================================
// Fassungen — the text in force on the reference day (tests/rules/fassung.rs)

#[path = "rules/fassung.rs"]
mod fassung;

// Schleswig-Holstein — § 44 GKWG (tests/rules/sh.rs)

#[path = "rules/sh.rs"]
mod sh;
// Bayern — Art. 37, 38 GLKrWG (tests/rules/by.rs)

#[path = "rules/by.rs"]
mod by;

// Mecklenburg-Vorpommern — § 46 LKWG M-V (tests/rules/mv.rs)

#[path = "rules/mv.rs"]
mod mv;

// Brandenburg — § 60 BbgKWahlG (tests/rules/bb.rs)

#[path = "rules/bb.rs"]
mod bb;

// "Before the seat fell vacant" at the vacancy (issue 25, point 1; tests/rules/vacated.rs)

#[path = "rules/vacated.rs"]
mod vacated;

// `barred` only where the Land makes the successor prove the end (issue 25, point 2; tests/rules/barred.rs)

#[path = "rules/barred.rs"]
mod barred;

// Kreistage — body.kind (tests/rules/kreistag.rs)

#[path = "rules/kreistag.rs"]
mod kreistag;

// Bezirkstage — body.kind bezirkstag (tests/rules/bezirkstag.rs)

#[path = "rules/bezirkstag.rs"]
mod bezirkstag;

// Several Wahlbereiche / Wahlkreise and the fall-back to the party's other areas (issue 25, point 5).
#[path = "rules/areas.rs"]
mod areas;

// Baden-Württemberg, weitere Sitze under unechte Teilortswahl (issue 25, point 8).
#[path = "rules/bw_additional.rs"]
mod bw_additional;

// Baden-Württemberg, a Kreistag's Ausgleichssitze (issue 25, points 5 and 8).
#[path = "rules/bw_kreistag.rs"]
mod bw_kreistag;

// =========================================================================================================
// Validation — docs/contract.md "Validation"

#[track_caller]
fn refused(snapshot: Snapshot, field: &str) {
    match Body::from_snapshot(snapshot) {
        Ok(_) => panic!("snapshot accepted, expected a refusal naming {field}"),
        Err(e) => assert_eq!(e.field, field, "{e}"),
    }
}

#[track_caller]
fn refused_json(json: serde_json::Value, field: &str) {
    let bytes = serde_json::to_vec(&json).unwrap();
    let r = parse_snapshot(&bytes).and_then(Body::from_snapshot);
    match r {
        Ok(_) => panic!("snapshot accepted, expected a refusal naming {field}"),
        Err(e) => assert_eq!(e.field, field, "{e}"),
    }
}

#[test]
fn validation_fixture_snapshots_round_trip_through_json() {
    let b =
        nrw().list(party("L1", vec![cand("L1-01", 1).seated(SeatVia::List).substitute_for("L1-02"), cand("L1-02", 2)]));
    let bytes = serde_json::to_vec(&b.json()).unwrap();
    let parsed = parse_snapshot(&bytes).unwrap();
    assert_eq!(parsed, b.snapshot);
    Body::from_snapshot(parsed).unwrap();
}

#[test]
fn validation_unknown_land_refused() {
    let mut json = nrw().list(party("L1", vec![cand("L1-01", 1)])).json();
    json["body"]["land"] = "XX".into();
    refused_json(json, "body.land");
}

#[test]
fn validation_duplicate_list_id_refused() {
    refused(
        nrw().list(party("L1", vec![cand("L1-01", 1)])).list(party("L1", vec![cand("L2-01", 1)])).snapshot(),
        "lists[1].id",
    );
}

#[test]
fn validation_duplicate_candidate_id_refused() {
    refused(
        nrw().list(party("L1", vec![cand("L1-01", 1)])).list(party("L2", vec![cand("L1-01", 1)])).snapshot(),
        "lists[1].candidates[0].id",
    );
    refused(nrw().list(party("L1", vec![cand("L1-01", 1), cand("L1-01", 2)])).snapshot(), "lists[0].candidates[1].id");
}

#[test]
fn validation_substitute_for_unknown_candidate_refused() {
    refused(
        nrw().list(party("L1", vec![cand("L1-01", 1), cand("L1-02", 2).substitute_for("L1-99")])).snapshot(),
        "lists[0].candidates[1].substitute_for",
    );
}

#[test]
fn validation_substitute_for_on_candidate_without_position_refused() {
    refused(
        nrw().list(party("L1", vec![cand("L1-01", 1), off_list("L1-D2").substitute_for("L1-01")])).snapshot(),
        "lists[0].candidates[1].substitute_for",
    );
}

#[test]
fn validation_two_substitutes_for_one_candidate_refused() {
    refused(
        nrw()
            .list(party(
                "L1",
                vec![
                    cand("L1-01", 1),
                    cand("L1-02", 2).substitute_for("L1-01"),
                    cand("L1-03", 3).substitute_for("L1-01"),
                ],
            ))
            .snapshot(),
        "lists[0].candidates[2].substitute_for",
    );
}

#[test]
fn validation_negative_votes_refused() {
    refused(nrw().list(party("L1", vec![cand("L1-01", 1).votes(-1)])).snapshot(), "lists[0].candidates[0].votes");
    refused(
        hessen().list(party("W1", vec![hcand("W1-01", 1, 10), hcand("W1-02", 2, -3)])).snapshot(),
        "lists[0].candidates[1].votes",
    );
}

/// Ids and names with control characters, and texts beyond their bounds (ids 64, names 200, addresses 500
/// characters), are refused naming the field (docs/contract.md, "Validation", "Texts").
#[test]
fn validation_control_characters_and_lengths_refused_naming_the_field() {
    let one = |f: fn(&mut Snapshot)| nrw().list(party("L1", vec![cand("L1-01", 1)])).with(f).snapshot();
    let err = |s: Snapshot| Body::from_snapshot(s).expect_err("refused");
    let e = err(one(|s| s.lists[0].candidates[0].family_name = "Muster\u{7}mann".into()));
    assert_eq!(
        (e.field.as_str(), e.problem.as_str()),
        ("lists[0].candidates[0].family_name", "must not contain control characters (found U+0007)")
    );
    refused(one(|s| s.lists[0].candidates[0].given_name = "Anna\nMaria".into()), "lists[0].candidates[0].given_name");
    refused(one(|s| s.body.id = "rat\u{1b}[31m".into()), "body.id");
    refused(one(|s| s.body.name = "Rat der\tStadt".into()), "body.name");
    refused(one(|s| s.lists[0].name = "Liste\u{0}".into()), "lists[0].name");
    refused(one(|s| s.body.returning_officer.name = "Wahl\u{85}leiter".into()), "body.returning_officer.name");
    let e = err(one(|s| s.lists[0].candidates[0].family_name = "ß".repeat(201)));
    assert_eq!(
        (e.field.as_str(), e.problem.as_str()),
        ("lists[0].candidates[0].family_name", "at most 200 characters, got 201")
    );
    refused(one(|s| s.body.id = "r".repeat(65)), "body.id");
    refused(one(|s| s.lists[0].id = "L".repeat(65)), "lists[0].id");
    refused(
        one(|s| s.lists[0].candidates[0].postal_address = Some("Weg 1\n".repeat(84))),
        "lists[0].candidates[0].postal_address",
    );
    refused(
        one(|s| s.lists[0].candidates[0].postal_address = Some("Weg 1\r\n12345 Ort".into())),
        "lists[0].candidates[0].postal_address",
    );
    // At the bounds, and an address over several lines, are accepted; characters, not bytes, are counted.
    nrw()
        .list(party("L1", vec![cand("L1-01", 1)]))
        .with(|s| {
            s.body.id = "r".repeat(64);
            s.lists[0].candidates[0].family_name = "Ż".repeat(200);
            s.lists[0].candidates[0].postal_address = Some(format!("Weg 1\n{}", "ö".repeat(494)));
        })
        .body();
}

#[test]
fn validation_missing_votes_in_hessen_refused() {
    refused(
        hessen().list(party("W1", vec![hcand("W1-01", 1, 10), cand("W1-02", 2)])).snapshot(),
        "lists[0].candidates[1].votes",
    );
    // optional in NRW
    nrw().list(party("L1", vec![cand("L1-01", 1)])).body();
}

#[test]
fn validation_seat_with_former_member_refused() {
    refused(
        nrw()
            .list(party(
                "L1",
                vec![
                    cand("L1-01", 1),
                    cand("L1-02", 2).fact(Fact::FormerMember { on: d(FACT_DAY) }).seated(SeatVia::List),
                ],
            ))
            .snapshot(),
        "lists[0].candidates[1].seat",
    );
}

#[test]
fn validation_missing_required_field_refused() {
    let mut json = nrw().list(party("L1", vec![cand("L1-01", 1), cand("L1-02", 2)])).json();
    json["lists"][0]["candidates"][1].as_object_mut().unwrap().remove("family_name");
    refused_json(json, "lists[0].candidates[1].family_name");
    let mut json = nrw().list(party("L1", vec![cand("L1-01", 1)])).json();
    json["body"].as_object_mut().unwrap().remove("statutory_size");
    refused_json(json, "body.statutory_size");
    let mut json = nrw().list(party("L1", vec![cand("L1-01", 1)])).json();
    json.as_object_mut().unwrap().remove("lists");
    refused_json(json, "lists");
}

#[test]
fn validation_wrong_type_names_the_field() {
    let mut json = nrw().list(party("L1", vec![cand("L1-01", 1)])).json();
    json["lists"][0]["candidates"][0]["position"] = "eins".into();
    refused_json(json, "lists[0].candidates[0].position");
}

#[test]
fn validation_substitute_outside_nrw_or_list_refused() {
    refused(
        hessen().list(party("W1", vec![hcand("W1-01", 1, 1), hcand("W1-02", 2, 1).substitute_for("W1-01")])).snapshot(),
        "lists[0].candidates[1].substitute_for",
    );
    refused(
        nrw()
            .list(party("L1", vec![cand("L1-01", 1)]))
            .list(party("L2", vec![cand("L2-01", 1).substitute_for("L1-01")]))
            .snapshot(),
        "lists[1].candidates[0].substitute_for",
    );
}

#[test]
fn validation_readings_per_land_and_range() {
    // docs/legal.md, "Per-body readings": validated, named by field; unknown readings refused
    let mut nw = nrw_abs_4_body(cand("L1-03", 3)).snapshot;
    nw.body.readings.deadline_grace_hours = Some(169);
    let err = Body::from_snapshot(nw.clone()).expect_err("grace over a week");
    assert_eq!(err.field, "body.readings.deadline_grace_hours");
    nw.body.readings.deadline_grace_hours = Some(168);
    Body::from_snapshot(nw).expect("a week is allowed");
    let mut he = he_abc(hcand("W1-02", 2, 500)).snapshot;
    he.body.readings.announcement = Some(nachfolge::model::AnnouncementTime::AtDetermination);
    assert_eq!(Body::from_snapshot(he).expect_err("NRW reading").field, "body.readings.announcement");
    // the wire form: snake_case values, unknown fields refused, an unset object not written
    let json = serde_json::json!({"period_end": "fixed", "fiction_day": "kept", "announcement": "at_determination",
        "deadline_grace_hours": 24, "district_substitute": "excluded"});
    let r: nachfolge::model::Readings = serde_json::from_value(json.clone()).expect("readings");
    assert_eq!(serde_json::to_value(r).expect("serialise"), json);
    assert!(serde_json::from_value::<nachfolge::model::Readings>(serde_json::json!({"period": "fixed"})).is_err());
    let body = nrw_abs_4_body(cand("L1-03", 3));
    assert!(!serde_json::to_string(&body.snapshot).expect("snapshot").contains("readings"));
}

/// Rheinland-Pfalz: § 193 BGB extends every period over Saturdays, Sundays and holidays, so the body cannot
/// choose fixed periods; and there are no Ersatzbewerber whose § 45 Abs. 4 KWahlG NRW reading it could set.
#[test]
fn rp_193_bgb_period_end_and_nrw_readings_refused_in_a_rp_snapshot() {
    let mut rp = rp_abc(hcand("R1-02", 2, 500)).snapshot;
    rp.body.readings.period_end = Some(nachfolge::model::PeriodEnd::Fixed);
    assert_eq!(Body::from_snapshot(rp.clone()).expect_err("§ 193 BGB").field, "body.readings.period_end");
    rp.body.readings.period_end = None;
    rp.body.readings.district_substitute = Some(DistrictSubstitute::Excluded);
    assert_eq!(Body::from_snapshot(rp.clone()).expect_err("NRW only").field, "body.readings.district_substitute");
    rp.body.readings.district_substitute = None;
    rp.body.readings.fiction_day = Some(nachfolge::model::FictionDay::Kept);
    Body::from_snapshot(rp).expect("the fiction-day reading is open in RP too");
}

#[test]
fn validation_substitute_designation_per_land_and_candidacy() {
    use SubstituteDesignation::*;
    // Hessen knows no Ersatzbewerber
    refused(
        hessen().list(party("W1", vec![hcand("W1-01", 1, 1), hcand("W1-02", 2, 1).named_for(List)])).snapshot(),
        "lists[0].candidates[1].substitute_designation",
    );
    // only on an Ersatzbewerber
    refused(
        nrw().list(party("L1", vec![cand("L1-01", 1), cand("L1-02", 2).named_for(List)])).snapshot(),
        "lists[0].candidates[1].substitute_designation",
    );
    // for the district candidacy of a candidate who stood in no district
    for designation in [District, Both] {
        refused(
            nrw()
                .list(party(
                    "L1",
                    vec![cand("L1-01", 1), cand("L1-02", 2).substitute_for("L1-01").named_for(designation)],
                ))
                .snapshot(),
            "lists[0].candidates[1].substitute_designation",
        );
    }
    // for the list candidacy of a candidate who is not on the Reserveliste
    for designation in [List, Both] {
        refused(
            nrw()
                .list(party(
                    "L1",
                    vec![
                        off_list("L1-D1").district("01"),
                        cand("L1-02", 2).substitute_for("L1-D1").named_for(designation),
                    ],
                ))
                .snapshot(),
            "lists[0].candidates[1].substitute_designation",
        );
    }
    // accepted: each designation where the candidacy exists; absent in JSON when not set
    for designation in [District, List, Both] {
        let b = nrw()
            .list(party(
                "L1",
                vec![cand("L1-01", 1).district("01"), cand("L1-02", 2).substitute_for("L1-01").named_for(designation)],
            ))
            .body();
        assert_eq!(b.candidate("L1-02").unwrap().designation(), designation);
    }
    let json = nrw().list(party("L1", vec![cand("L1-01", 1), cand("L1-02", 2).substitute_for("L1-01")])).json();
    assert!(json["lists"][0]["candidates"][1].get("substitute_designation").is_none());
    let mut wrong = json.clone();
    wrong["lists"][0]["candidates"][1]["substitute_designation"] = serde_json::json!("wahlbezirk");
    refused_json(wrong, "lists[0].candidates[1].substitute_designation");
}

#[test]
fn validation_majority_election_outside_hessen_or_with_several_lists_refused() {
    refused(nrw().majority().list(party("L1", vec![cand("L1-01", 1)])).snapshot(), "body.electoral_system");
    refused(
        hessen()
            .majority()
            .list(party("W1", vec![hcand("W1-01", 1, 1)]))
            .list(party("W2", vec![hcand("W2-01", 1, 1)]))
            .snapshot(),
        "lists",
    );
}

#[test]
fn validation_held_seats_may_exceed_statutory_size() {
    nrw()
        .size(1)
        .list(party("L1", vec![cand("L1-01", 1).seated(SeatVia::List), cand("L1-02", 2).seated(SeatVia::List)]))
        .body();
}

#[test]
fn validation_waiver_form_parsed_and_unknown_form_refused() {
    let mut json = nrw().list(party("L1", vec![cand("L1-01", 1).waived_written()])).json();
    let bytes = serde_json::to_vec(&json).unwrap();
    let s = parse_snapshot(&bytes).unwrap();
    assert!(matches!(s.lists[0].candidates[0].facts[0], Fact::Waived { form: WaiverForm::Written, .. }));
    json["lists"][0]["candidates"][0]["facts"][0]["form"] = "telepathy".into();
    // a fact is an internally tagged object: the path ends at the fact, the message names the bad value
    let e = parse_snapshot(&serde_json::to_vec(&json).unwrap()).unwrap_err();
    assert_eq!(e.field, "lists[0].candidates[0].facts[0]");
    assert!(e.problem.contains("telepathy"), "{e}");
}

// =========================================================================================================
// Properties: random snapshots against an independent reading of docs/legal.md

mod properties {
    use super::*;
    use chrono::NaiveDate;
    use nachfolge::model::{Land, ListKind};
    use nachfolge::rules::Query;
    use proptest::prelude::*;

    const REF_DAY: &str = "2026-06-01";

    #[derive(Debug, Clone)]
    struct RawCand {
        on_list: bool,
        votes: i64,
        district: bool,
        seat: Option<SeatVia>,
        facts: Vec<u8>,
        ineligible: Option<(i64, Option<i64>)>,
        substitute_for: Option<usize>,
        pos_key: u8,
        /// 0: none, 1: district, 2: list, 3: both (set only where the candidacy exists)
        designation: u8,
    }

    #[derive(Debug, Clone)]
    struct RawList {
        kind: ListKind,
        cands: Vec<RawCand>,
    }

    #[derive(Debug, Clone)]
    struct Raw {
        lists: Vec<RawList>,
        majority: bool,
        departed: usize,
        via_known: bool,
        pending: Option<usize>,
        lot: usize,
        size: u32,
    }

    fn seat_via() -> impl Strategy<Value = SeatVia> {
        prop_oneof![Just(SeatVia::District), Just(SeatVia::List), Just(SeatVia::Succession)]
    }

    fn raw_cand() -> impl Strategy<Value = RawCand> {
        (
            prop::bool::weighted(0.85),
            0i64..5,
            prop::bool::weighted(0.3),
            prop::option::weighted(0.3, seat_via()),
            prop::collection::vec(0u8..13, 0..3),
            prop::option::weighted(0.2, (0i64..700, prop::option::of(0i64..300))),
            prop::option::weighted(0.3, 0usize..16),
            any::<u8>(),
            0u8..4,
        )
            .prop_map(
                |(on_list, votes, district, seat, facts, ineligible, substitute_for, pos_key, designation)| RawCand {
                    on_list,
                    votes,
                    district,
                    seat,
                    facts,
                    ineligible,
                    substitute_for,
                    pos_key,
                    designation,
                },
            )
    }

    fn raw_list() -> impl Strategy<Value = RawList> {
        (
            prop_oneof![4 => Just(ListKind::Party), 1 => Just(ListKind::VoterGroup), 1 => Just(ListKind::Individual)],
            prop::collection::vec(raw_cand(), 0..=10),
        )
            .prop_map(|(kind, cands)| RawList { kind, cands })
    }

    fn raw() -> impl Strategy<Value = Raw> {
        (
            prop::collection::vec(raw_list(), 1..=4),
            any::<bool>(),
            any::<usize>(),
            any::<bool>(),
            prop::option::weighted(0.3, any::<usize>()),
            any::<usize>(),
            1u32..60,
        )
            .prop_map(|(lists, majority, departed, via_known, pending, lot, size)| Raw {
                lists,
                majority,
                departed,
                via_known,
                pending,
                lot,
                size,
            })
    }

    fn day(offset_from_2025_06_01: i64) -> NaiveDate {
        d("2025-06-01") + chrono::Duration::days(offset_from_2025_06_01)
    }

    /// A valid body from the raw draw, with the departed member's id and the query's `departed_via`.
    fn build(land: Land, raw: &Raw) -> (Body, String, Option<SeatVia>, Option<String>) {
        let base = match land {
            Land::Nw => nrw(),
            Land::He => hessen(),
            Land::Rp => rheinland_pfalz(),
            Land::Ni => niedersachsen(),
            Land::St => sachsen_anhalt(),
            Land::Th => thueringen(),
            Land::Sh => schleswig_holstein(),
            Land::By => bayern(),
            Land::Bw => baden_wuerttemberg(),
            Land::Sn => sachsen(),
            Land::Mv => mecklenburg_vorpommern(),
            Land::Bb => brandenburg(),
            Land::Sl => saarland(),
        };
        let mut snap = base.size(raw.size).snapshot();
        // Baden-Württemberg: its majority election (lot drawn with the result) is tested in tests/rules/bw.rs
        let majority = !matches!(land, Land::Nw | Land::Bw) && raw.majority && raw.lists.len() == 1;
        if majority {
            snap.body.electoral_system = nachfolge::model::ElectoralSystem::Majority;
        }
        for (li, rl) in raw.lists.iter().enumerate() {
            let mut cands = rl.cands.clone();
            if rl.kind == ListKind::Individual {
                cands.truncate(1);
            }
            let prefix = format!("L{}", li + 1);
            // positions: a shuffle of 1..=k over the candidates on the list
            let mut order: Vec<usize> = (0..cands.len()).filter(|&i| land != Land::Nw || cands[i].on_list).collect();
            order.sort_by_key(|&i| (cands[i].pos_key, i));
            let mut list_cands: Vec<Candidate> = Vec::new();
            for (ci, rc) in cands.iter().enumerate() {
                let id = format!("{prefix}-{ci:02}");
                let mut c = cand(&id, 1).position(order.iter().position(|&o| o == ci).map(|p| p as u32 + 1));
                if land != Land::Nw {
                    c = c.votes(rc.votes);
                } else if rc.district {
                    c = c.district(&format!("{:02}", li * 10 + ci));
                }
                if let Some(via) = rc.seat {
                    c = c.seated(via);
                }
                for f in &rc.facts {
                    c = match f {
                        0 => c.left_party(),
                        1 => c.joined_other_party(),
                        2 => c.waived_recorded(),
                        3 => c.waived_written(),
                        4 => c.declined(),
                        5 => c.died(),
                        6 => c.barred("Beschäftigter"),
                        7 => c.barred("Beschäftigter").bar_cured(),
                        8 => c.former_member(),
                        // bars by date: one after the reference day, a cure after it, a bar arising again
                        9 => c.fact(Fact::Barred { on: d("2026-07-01"), reason: "Beamter".to_owned() }),
                        10 => c.fact(Fact::BarCured { on: d("2026-08-01") }),
                        11 => c.fact(Fact::Barred { on: d("2026-03-01"), reason: "Beamter".to_owned() }),
                        12 => c.joined_other_party_as_member(),
                        _ => c,
                    };
                }
                if let Some((from, len)) = rc.ineligible {
                    c = c.fact(Fact::Ineligible { from: day(from), until: len.map(|l| day(from + l)) });
                }
                // § 47 Abs. 1 Satz 2 KWG LSA: the party's notice, before the reference day
                if land == Land::St && rc.pos_key % 3 == 0 {
                    c = c.party_notice("2026-01-15");
                }
                list_cands.push(c);
            }
            if land == Land::Nw {
                let mut taken = std::collections::HashSet::new();
                for ci in 0..list_cands.len() {
                    let Some(t) = cands[ci].substitute_for else { continue };
                    let t = t % list_cands.len();
                    if t == ci || list_cands[ci].position.is_none() || !taken.insert(t) {
                        continue;
                    }
                    list_cands[ci].substitute_for = Some(list_cands[t].id.clone());
                    let (district, on_list) = (list_cands[t].district.is_some(), list_cands[t].position.is_some());
                    list_cands[ci].substitute_designation = match cands[ci].designation {
                        1 if district => Some(SubstituteDesignation::District),
                        2 if on_list => Some(SubstituteDesignation::List),
                        3 if district && on_list => Some(SubstituteDesignation::Both),
                        _ => None,
                    };
                }
            }
            let list = match rl.kind {
                ListKind::Party => party(&prefix, list_cands),
                ListKind::VoterGroup => voter_group(&prefix, list_cands),
                ListKind::Individual => {
                    nachfolge::model::List { kind: ListKind::Individual, ..party(&prefix, list_cands) }
                }
            };
            snap.lists.push(list);
        }
        // someone must hold a seat to leave it
        let all: Vec<(usize, usize)> =
            snap.lists.iter().enumerate().flat_map(|(li, l)| (0..l.candidates.len()).map(move |ci| (li, ci))).collect();
        if all.is_empty() {
            snap.lists[0].candidates.push(cand("L1-00", 1).votes(1));
            if land == Land::Nw {
                snap.lists[0].candidates[0].votes = None;
            }
        }
        let seated: Vec<(usize, usize)> = snap
            .lists
            .iter()
            .enumerate()
            .flat_map(|(li, l)| {
                l.candidates.iter().enumerate().filter(|(_, c)| c.seat.is_some()).map(move |(ci, _)| (li, ci))
            })
            .collect();
        let (li, ci) = if seated.is_empty() {
            let all: Vec<(usize, usize)> = snap
                .lists
                .iter()
                .enumerate()
                .flat_map(|(li, l)| (0..l.candidates.len()).map(move |ci| (li, ci)))
                .collect();
            let (li, ci) = all[raw.departed % all.len()];
            let c = &mut snap.lists[li].candidates[ci];
            c.facts.retain(|f| !matches!(f, Fact::FormerMember { .. }));
            c.seat = Some(nachfolge::model::Seat { since: d(TERM_START), via: SeatVia::List });
            (li, ci)
        } else {
            seated[raw.departed % seated.len()]
        };
        let departed = snap.lists[li].candidates[ci].clone();
        let body = Body::from_snapshot(snap).unwrap_or_else(|e| panic!("generated snapshot invalid: {e}"));
        let mut pending = None;
        if let Some(p) = raw.pending {
            let free: Vec<String> = body
                .snapshot
                .lists
                .iter()
                .flat_map(|l| &l.candidates)
                .filter(|c| c.seat.is_none() && c.id != departed.id)
                .map(|c| c.id.clone())
                .collect();
            if !free.is_empty() {
                pending = Some(free[p % free.len()].clone());
            }
        }
        let via = if raw.via_known { departed.seat.as_ref().map(|s| s.via) } else { None };
        (body, departed.id, via, pending)
    }

    fn has(c: &Candidate, pred: impl Fn(&Fact) -> bool) -> bool {
        c.facts.iter().any(pred)
    }

    fn is_former(c: &Candidate) -> bool {
        has(c, |f| matches!(f, Fact::FormerMember { .. }))
    }

    /// The bar is current on the reference day: the latest `barred` on or before it is later than the latest
    /// `bar_cured` on or before it (same day: the later fact in the list).
    fn is_barred(c: &Candidate) -> bool {
        let r = d(REF_DAY);
        let latest = |cured: bool| {
            c.facts
                .iter()
                .enumerate()
                .filter_map(|(i, f)| match f {
                    Fact::Barred { on, .. } if !cured && *on <= r => Some((*on, i)),
                    Fact::BarCured { on } if cured && *on <= r => Some((*on, i)),
                    _ => None,
                })
                .max()
        };
        latest(false).is_some_and(|b| latest(true).is_none_or(|c| c < b))
    }

    /// Excluded under the Land's rules at the reference day (docs/legal.md).
    fn excluded(land: Land, body: &Body, pending: Option<&str>, c: &Candidate) -> bool {
        let r = d(REF_DAY);
        let start = body.info().term.start;
        let pending = pending == Some(c.id.as_str());
        let called = c.seat.is_some() || has(c, |f| matches!(f, Fact::FormerMember { .. })) || pending;
        let died = has(c, |f| matches!(f, Fact::Died { .. }));
        let left = has(c, |f| matches!(f, Fact::LeftParty { .. }));
        let ineligible_now =
            has(c, |f| matches!(f, Fact::Ineligible { from, until } if *from <= r && until.is_none_or(|u| u >= r)));
        match land {
            Land::Nw => {
                let during_term = has(
                    c,
                    |f| matches!(f, Fact::Ineligible { from, until } if *from <= r && until.is_none_or(|u| u >= start)),
                );
                called
                    || died
                    || ineligible_now
                    || during_term
                    || left
                    || has(c, |f| matches!(f, Fact::Declined { .. }))
                    || has(c, |f| matches!(f, Fact::JoinedOtherParty { was_member: false, .. }))
                    || has(c, |f| matches!(f, Fact::Waived { form: WaiverForm::Recorded, .. }))
            }
            Land::He => called || died || ineligible_now || left || has(c, |f| matches!(f, Fact::Waived { .. })),
            // § 45 Abs. 2, 4 KWG, § 66 Abs. 1 KWO; leaving the party has no effect
            Land::Rp => {
                let during_term = has(
                    c,
                    |f| matches!(f, Fact::Ineligible { from, until } if *from <= r && until.is_none_or(|u| u >= start)),
                );
                called
                    || died
                    || ineligible_now
                    || during_term
                    || has(c, |f| matches!(f, Fact::Declined { .. } | Fact::Waived { .. }))
            }
            // Niedersachsen ranks by how the seat was won, with a lot on equal votes: its own tests (ni_*)
            Land::Ni => unreachable!("no property test draws a Niedersachsen body"),
            // § 44 GKWG: list order, its own tests (sh_*)
            Land::Sh => unreachable!("no property test draws a Schleswig-Holstein body"),
            Land::Mv => unreachable!("no property test draws a Mecklenburg-Vorpommern body"),
            Land::Bb => unreachable!("no property test draws a Brandenburg body"),
            // § 57 KWO: list order, its own tests (sl_*)
            Land::Sl => unreachable!("no property test draws a Saarland body"),
            // § 41 Abs. 1, § 47 Abs. 1 Satz 2, 3, § 48 KWG LSA: a party exit only on a party list with the notice
            Land::St => {
                let during_term = has(
                    c,
                    |f| matches!(f, Fact::Ineligible { from, until } if *from <= r && until.is_none_or(|u| u >= start)),
                );
                let party_list = body.list_of(&c.id).is_some_and(|l| l.kind == ListKind::Party);
                let notified = has(c, |f| matches!(f, Fact::PartyNotice { .. }));
                let exit = left || has(c, |f| matches!(f, Fact::JoinedOtherParty { .. }));
                called
                    || died
                    || ineligible_now
                    || during_term
                    || has(c, |f| matches!(f, Fact::Declined { .. } | Fact::Waived { form: WaiverForm::Written, .. }))
                    || (party_list && notified && exit)
            }
            // § 23 Abs. 2, § 29 Satz 2, § 30 Abs. 1 ThürKWG; leaving the party has no effect
            Land::Th => {
                called
                    || died
                    || ineligible_now
                    || has(c, |f| matches!(f, Fact::Declined { .. } | Fact::Waived { form: WaiverForm::Written, .. }))
            }
            // Art. 37 Abs. 1, 2, Art. 48 Abs. 1 Satz 2 GLKrWG: a refusal counts only for this vacancy, a
            // Hinderungsgrund passes over; leaving the party has no effect
            Land::By => {
                called
                    || died
                    || ineligible_now
                    || c.is_barred_at(r)
                    || has(c, |f| matches!(f, Fact::Declined { on, .. } if *on >= r))
                    || has(c, |f| matches!(f, Fact::Waived { form: WaiverForm::Written, .. }))
            }
            // § 31 Abs. 2 Satz 1, §§ 16, 28, 29 GemO; leaving the party and a waiver have no effect
            Land::Bw | Land::Sn => {
                called || died || ineligible_now || c.is_barred_at(r) || has(c, |f| matches!(f, Fact::Declined { .. }))
            }
        }
    }

    fn cited_for(land: Land, step: &TrailStep) -> bool {
        match land {
            Land::Nw => step.citation.contains("KWahlG NRW"),
            Land::He => step.citation.contains(" KWG"),
            Land::Rp => ["KWG", "KWO", "GemO"].iter().any(|act| step.citation.contains(act)),
            Land::Ni => ["NKWG", "NKWO", "NKomVG"].iter().any(|act| step.citation.contains(act)),
            Land::St => ["KWG LSA", "KWO LSA", "KVG LSA"].iter().any(|act| step.citation.contains(act)),
            Land::Th => ["ThürKWG", "ThürKO"].iter().any(|act| step.citation.contains(act)),
            Land::Sh => ["GKWG", " GO"].iter().any(|act| step.citation.contains(act)),
            Land::By => ["GLKrWG", "GO"].iter().any(|act| step.citation.contains(act)),
            Land::Bw => ["GemO", "KomWG"].iter().any(|act| step.citation.contains(act)),
            Land::Sn => ["SächsGemO", "KomWG"].iter().any(|act| step.citation.contains(act)),
            Land::Mv => ["LKWG M-V", "KV M-V"].iter().any(|act| step.citation.contains(act)),
            Land::Bb => ["BbgKWahlG", "BbgKWahlV"].iter().any(|act| step.citation.contains(act)),
            Land::Sl => ["KWG", "KWO"].iter().any(|act| step.citation.contains(act)),
        }
    }

    fn skipped_ids(trail: &[TrailStep]) -> Vec<&str> {
        trail.iter().filter(|s| s.verdict == Verdict::Skipped).filter_map(|s| s.candidate.as_deref()).collect()
    }

    fn check_nrw(raw: &Raw) -> Result<(), TestCaseError> {
        let (body, departed_id, via, pending) = build(Land::Nw, raw);
        let q =
            Query { departed_via: via, pending: pending.iter().map(String::as_str).collect(), ..query(&departed_id) };
        let d = decide(&body, &q).unwrap();
        let list = body.list_of(&departed_id).unwrap();
        let departed = body.candidate(&departed_id).unwrap();
        let size = body.info().statutory_size;
        prop_assert!(d.trail.iter().all(|s| cited_for(Land::Nw, s)), "citations: {:#?}", d.trail);

        if list.kind == ListKind::Individual {
            prop_assert_eq!(&d.outcome, &vacant(VacancyReason::IndividualCandidate, size - 1));
            return Ok(());
        }
        // the order of succession: the substitute (unless § 45 Abs. 4), then the list by position
        let mut order: Vec<&Candidate> = Vec::new();
        let sub = list.candidates.iter().find(|c| c.substitute_for.as_deref() == Some(departed_id.as_str()));
        let won_directly = departed.seat.as_ref().map(|s| s.via) == Some(SeatVia::District);
        let abs_4 = departed.district.is_some()
            && !won_directly
            && sub.is_some_and(|s| {
                s.substitute_designation.unwrap_or(SubstituteDesignation::District) == SubstituteDesignation::District
            });
        if let Some(s) = sub {
            if !abs_4 {
                order.push(s);
            }
        }
        let mut on_list: Vec<&Candidate> = list.candidates.iter().filter(|c| c.position.is_some()).collect();
        on_list.sort_by_key(|c| c.position);
        order.extend(on_list);
        let eligible = |c: &&Candidate| c.id != departed_id && !excluded(Land::Nw, &body, pending.as_deref(), c);
        let expected = order.iter().position(&eligible);
        let skipped = skipped_ids(&d.trail);
        match expected {
            None => {
                prop_assert_eq!(&d.outcome, &vacant(VacancyReason::ListExhausted, size - 1));
                prop_assert!(list.candidates.iter().filter(|c| c.position.is_some()).all(|c| !eligible(&c)));
                for c in &order {
                    prop_assert!(skipped.contains(&c.id.as_str()), "{} missing from {:#?}", c.id, d.trail);
                }
            }
            Some(k) => {
                let s = order[k];
                prop_assert_eq!(
                    &d.outcome,
                    &Outcome::Successor { candidate: s.id.clone(), list: list.id.clone(), barred: is_barred(s) }
                );
                prop_assert!(s.seat.is_none() && !is_former(s), "seated or former member: {}", s.id);
                prop_assert!(!excluded(Land::Nw, &body, pending.as_deref(), s));
                for c in &order[..k] {
                    prop_assert!(skipped.contains(&c.id.as_str()), "{} missing from {:#?}", c.id, d.trail);
                }
                // nobody behind the successor is reported as passed over
                for id in &skipped {
                    prop_assert!(
                        order[..k].iter().any(|c| c.id == *id),
                        "{} is behind the successor: {:#?}",
                        id,
                        d.trail
                    );
                }
                let chosen: Vec<&TrailStep> = d.trail.iter().filter(|t| t.verdict == Verdict::Chosen).collect();
                prop_assert_eq!(chosen.len(), 1);
                prop_assert_eq!(chosen[0].candidate.as_deref(), Some(s.id.as_str()));
            }
        }
        Ok(())
    }

    /// Hessen and Rheinland-Pfalz: one ranking by votes (`rules/votes.rs`), each Land's exclusions.
    fn check_votes(land: Land, raw: &Raw) -> Result<(), TestCaseError> {
        let lot = match land {
            Land::He => HE_1A,
            Land::St => "§ 41 Abs. 2 Satz 3, Abs. 3 KWG LSA",
            Land::Th if raw.majority && raw.lists.len() == 1 => "§ 23 Abs. 3 Satz 2 ThürKWG",
            Land::Th => "§ 23 Abs. 2 Satz 2 i. V. m. § 22 Abs. 5 ThürKWG",
            Land::Bw => "§ 26 Abs. 1 Satz 3 i. V. m. Satz 2 KomWG entsprechend",
            Land::Sn if raw.majority && raw.lists.len() == 1 => "§ 23 Satz 3 KomWG",
            Land::Sn => "§ 21 Abs. 2 Satz 3 KomWG",
            _ => RP_3_2,
        };
        let (body, departed_id, _, pending) = build(land, raw);
        let q = Query { pending: pending.iter().map(String::as_str).collect(), ..query(&departed_id) };
        let d = decide(&body, &q).unwrap();
        let list = body.list_of(&departed_id).unwrap();
        let size = body.info().statutory_size;
        // Thüringen puts equal votes to the Wahlleiter in a proportional election too (docs/legal.md)
        let majority = body.info().electoral_system == nachfolge::model::ElectoralSystem::Majority || land == Land::Th;
        prop_assert!(d.trail.iter().all(|s| cited_for(land, s)), "citations: {:#?}", d.trail);
        // Sachsen-Anhalt: an Einzelbewerber has no successor; a vacant seat keeps the statutory size
        if land == Land::St && list.kind == ListKind::Individual {
            prop_assert_eq!(&d.outcome, &vacant(VacancyReason::IndividualCandidate, size));
            return Ok(());
        }
        let vacant_size = if matches!(land, Land::St | Land::Th | Land::Bw | Land::Sn) { size } else { size - 1 };

        // votes descending, then list position
        let mut order: Vec<&Candidate> = list.candidates.iter().collect();
        order.sort_by_key(|c| (std::cmp::Reverse(c.votes.unwrap()), c.position));
        let eligible = |c: &&Candidate| c.id != departed_id && !excluded(land, &body, pending.as_deref(), c);
        let skipped = skipped_ids(&d.trail);
        let Some(k) = order.iter().position(&eligible) else {
            prop_assert_eq!(&d.outcome, &vacant(VacancyReason::ListExhausted, vacant_size));
            for c in &order {
                prop_assert!(skipped.contains(&c.id.as_str()), "{} missing from {:#?}", c.id, d.trail);
            }
            return Ok(());
        };
        let top = order[k].votes;
        let tied: Vec<&Candidate> = order.iter().copied().filter(|c| eligible(c) && c.votes == top).collect();
        let winner = if majority && tied.len() > 1 {
            let ids: Vec<String> = tied.iter().map(|c| c.id.clone()).collect();
            prop_assert_eq!(&d.outcome, &Outcome::LotRequired { tied: ids.clone() });
            let w = &ids[raw.lot % ids.len()];
            // the same query, now with the lot drawn (the pending successor of the other case stays called)
            let d2 = decide(&body, &Query { lot_winner: Some(w.as_str()), ..q.clone() }).unwrap();
            let winner = body.candidate(w).unwrap();
            prop_assert_eq!(
                &d2.outcome,
                &Outcome::Successor { candidate: w.clone(), list: list.id.clone(), barred: is_barred(winner) }
            );
            prop_assert!(d2.trail.contains(&chosen(w, "won_lot", lot)));
            winner
        } else {
            let s = order[k];
            prop_assert_eq!(
                &d.outcome,
                &Outcome::Successor { candidate: s.id.clone(), list: list.id.clone(), barred: is_barred(s) }
            );
            s
        };
        prop_assert!(winner.seat.is_none() && !is_former(winner), "seated or former member: {}", winner.id);
        prop_assert!(!excluded(land, &body, pending.as_deref(), winner));
        // every candidate ranked ahead is reported as passed over, and nobody behind
        for c in &order[..k] {
            prop_assert!(skipped.contains(&c.id.as_str()), "{} missing from {:#?}", c.id, d.trail);
        }
        for id in &skipped {
            let c = body.candidate(id).unwrap();
            let ahead = order[..k].iter().any(|o| o.id == *id);
            let same_rank_in_majority = majority && c.votes == top;
            prop_assert!(ahead || same_rank_in_majority, "{} is behind the successor: {:#?}", id, d.trail);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn prop_nrw_successor_is_first_eligible_in_order_of_succession(raw in raw()) {
            check_nrw(&raw)?;
        }

        #[test]
        fn prop_hessen_successor_is_first_eligible_by_votes_then_list_order(raw in raw()) {
            check_votes(Land::He, &raw)?;
        }

        #[test]
        fn prop_rp_successor_is_first_eligible_by_votes_then_list_order(raw in raw()) {
            check_votes(Land::Rp, &raw)?;
        }

        #[test]
        fn prop_st_successor_is_first_eligible_by_votes_then_list_order(raw in raw()) {
            check_votes(Land::St, &raw)?;
        }

        #[test]
        fn prop_th_successor_is_first_eligible_by_votes_equal_votes_to_the_wahlleiter(raw in raw()) {
            check_votes(Land::Th, &raw)?;
        }

        #[test]
        fn prop_bw_gemo_31_abs_2_successor_is_first_eligible_ersatzperson_by_votes_then_list_order(raw in raw()) {
            check_votes(Land::Bw, &raw)?;
        }

        #[test]
        fn prop_sn_saechsgemo_34_abs_2_successor_is_first_eligible_ersatzperson_by_votes(raw in raw()) {
            check_votes(Land::Sn, &raw)?;
        }
    }
}

// Saarland — § 57 KWO with §§ 43, 50 KWG; § 44 KWG not read (tests/rules/sl.rs)

#[path = "rules/sl.rs"]
mod sl;
