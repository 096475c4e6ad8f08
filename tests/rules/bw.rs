//! Baden-Württemberg — § 31 Abs. 2 GemO with § 26 KomWG, §§ 16, 28, 29 GemO (docs/legal.md,
//! "Baden-Württemberg"). Included by tests/rules.rs; its helpers are the parent's.

use super::*;

const BW_31_2: &str = "§ 31 Abs. 2 Satz 1 GemO";
const BW_VOTES: &str = "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 1 Satz 3 KomWG";
const BW_TIE: &str = "§ 26 Abs. 1 Satz 3 i. V. m. Satz 2 KomWG entsprechend";
const BW_28: &str = "§ 31 Abs. 2 Satz 1 i. V. m. § 28 GemO";
const BW_29: &str = "§ 29 Abs. 1, 5 GemO";
const BW_16: &str = "§ 16 Abs. 1, 2 GemO";
const BW_TOW: &str = "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 2 Satz 3 KomWG";

/// BW Wahlvorschlag B1: B1-01 (pos. 1, 900 votes, seated, the departed), `second` (pos. 2, 500 votes), B1-03
/// (pos. 3, 300 votes).
fn bw_abc(second: Candidate) -> Body {
    baden_wuerttemberg()
        .list(voter_group("B1", vec![hcand("B1-01", 1, 900).seated(SeatVia::List), second, hcand("B1-03", 3, 300)]))
        .body()
}

#[track_caller]
fn assert_bw_skipped(second: Candidate, reason: &str, citation: &str) {
    let d = decide(&bw_abc(second), &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-03", "B1"),
        vec![
            skipped("B1-01", "departed", BW_31_2),
            skipped("B1-02", reason, citation),
            chosen("B1-03", "most_votes", BW_VOTES),
        ],
    );
}

#[test]
fn bw_komwg_26_abs_1_satz_3_ersatzpersonen_rank_by_votes_not_list_position() {
    let body = baden_wuerttemberg()
        .list(voter_group(
            "B1",
            vec![hcand("B1-01", 1, 900).seated(SeatVia::List), hcand("B1-02", 2, 100), hcand("B1-03", 3, 400)],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-03", "B1"),
        vec![skipped("B1-01", "departed", BW_31_2), chosen("B1-03", "most_votes", BW_VOTES)],
    );
}

#[test]
fn bw_komwg_26_abs_1_satz_2_entsprechend_equal_votes_order_of_nomination_decides() {
    let body = baden_wuerttemberg()
        .list(voter_group(
            "B1",
            vec![hcand("B1-01", 1, 900).seated(SeatVia::List), hcand("B1-03", 3, 400), hcand("B1-02", 2, 400)],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-02", "B1"), "no lot: the order of nomination decides");
    assert!(d.trail.contains(&chosen("B1-02", "most_votes_list_order", BW_TIE)));
    assert!(body.succession_order(t(REFERENCE)).lists[0].lot_groups.is_empty());
}

#[test]
fn bw_gemo_31_abs_2_satz_1_already_called_passed_over() {
    assert_bw_skipped(hcand("B1-02", 2, 500).seated(SeatVia::List), "already_called", BW_31_2);
    assert_bw_skipped(hcand("B1-02", 2, 500).former_member(), "already_called", BW_31_2);
    let d = decide(&bw_abc(hcand("B1-02", 2, 500)), &query("B1-01").pending("B1-02")).unwrap();
    assert!(d.trail.contains(&skipped("B1-02", "already_called", BW_31_2)));
}

#[test]
fn bw_gemo_31_abs_2_satz_1_died_passed_over() {
    assert_bw_skipped(hcand("B1-02", 2, 500).died(), "died", BW_31_2);
}

#[test]
fn bw_gemo_28_no_longer_waehlbar_passed_over() {
    assert_bw_skipped(hcand("B1-02", 2, 500).ineligible("2025-01-01", None), "ineligible", BW_28);
    // an ineligibility that ended before the reference day does not count
    let d =
        decide(&bw_abc(hcand("B1-02", 2, 500).ineligible("2025-01-01", Some("2025-02-01"))), &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-02", "B1"));
}

#[test]
fn bw_gemo_29_abs_5_hinderungsgrund_passes_over_a_cured_one_does_not() {
    assert_bw_skipped(hcand("B1-02", 2, 500).barred("Beschäftigter der Gemeinde"), "barred_hinderungsgrund", BW_29);
    let d = decide(&bw_abc(hcand("B1-02", 2, 500).barred("Beschäftigter der Gemeinde").bar_cured()), &query("B1-01"))
        .unwrap();
    assert_eq!(d.outcome, successor("B1-02", "B1"), "the bar ended before the reference day");
}

#[test]
fn bw_gemo_16_abs_2_refusal_the_council_accepted_passes_over() {
    assert_bw_skipped(hcand("B1-02", 2, 500).declined(), "refusal_accepted", BW_16);
}

#[test]
fn bw_gemo_16_abs_1_satz_3_party_exit_and_waiver_have_no_effect() {
    for c in [hcand("B1-02", 2, 500).left_party(), hcand("B1-02", 2, 500).waived_written()] {
        let d = decide(&bw_abc(c), &query("B1-01")).unwrap();
        assert_eq!(d.outcome, successor("B1-02", "B1"));
        assert!(d
            .trail
            .iter()
            .any(|s| s.verdict == Verdict::Noted
                && (s.reason == "left_party_no_effect" || s.reason == "waiver_no_effect")));
    }
}

#[test]
fn bw_gemo_31_abs_2_exhausted_seat_vacant_size_kept() {
    let body = baden_wuerttemberg()
        .size(3)
        .list(voter_group("B1", vec![hcand("B1-01", 1, 900).seated(SeatVia::List), hcand("B1-02", 2, 500).died()]))
        .list(voter_group(
            "B2",
            vec![hcand("B2-01", 1, 800).seated(SeatVia::List), hcand("B2-02", 2, 700).seated(SeatVia::List)],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, vacant(VacancyReason::ListExhausted, 3));
    assert!(d.trail.contains(&finding("list_exhausted", BW_31_2)));
    // 2 of 3 members remain: not below two thirds, no Ergänzungswahl
    assert!(!d.trail.iter().any(|s| s.reason == "supplementary_election_required"));
}

#[test]
fn bw_gemo_31_abs_3_below_two_thirds_ergaenzungswahl_noted() {
    let body = baden_wuerttemberg()
        .size(4)
        .list(voter_group("B1", vec![hcand("B1-01", 1, 900).seated(SeatVia::List)]))
        .list(voter_group(
            "B2",
            vec![hcand("B2-01", 1, 800).seated(SeatVia::List), hcand("B2-02", 2, 700).seated(SeatVia::List)],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, vacant(VacancyReason::ListExhausted, 4));
    assert!(d.trail.contains(&finding("supplementary_election_required", "§ 31 Abs. 3 GemO")));
}

fn in_district(c: Candidate, district: &str) -> Candidate {
    Candidate { district: Some(district.to_owned()), ..c }
}

#[test]
fn bw_komwg_26_abs_2_satz_3_unechte_teilortswahl_ersatzperson_of_the_same_wohnbezirk() {
    let body = baden_wuerttemberg()
        .list(voter_group(
            "B1",
            vec![
                in_district(hcand("B1-01", 1, 900).seated(SeatVia::List), "Oberdorf"),
                in_district(hcand("B1-02", 2, 800), "Unterdorf"),
                in_district(hcand("B1-03", 3, 300), "Oberdorf"),
            ],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-03", "B1"), "B1-02 has more votes, but stood for another Wohnbezirk");
    assert!(d.trail.contains(&chosen("B1-03", "most_votes", BW_TOW)));
    assert!(d.trail.iter().any(|s| s.reason == "residential_district" && s.detail.as_deref() == Some("Oberdorf")));
    let order = body.succession_order(t(REFERENCE));
    assert!(order.lists[0].notes.iter().any(|n| n.reason == "ranked_per_residential_district"));
}

#[test]
fn bw_komwg_26_abs_2_satz_3_wohnbezirk_exhausted_seat_vacant() {
    let body = baden_wuerttemberg()
        .list(voter_group(
            "B1",
            vec![
                in_district(hcand("B1-01", 1, 900).seated(SeatVia::List), "Oberdorf"),
                in_district(hcand("B1-02", 2, 800), "Unterdorf"),
            ],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, vacant(VacancyReason::ListExhausted, 44));
}

#[test]
fn bw_validation_names_the_field() {
    let err = |s: Snapshot| Body::from_snapshot(s).unwrap_err();
    let no_votes = baden_wuerttemberg().list(voter_group("B1", vec![cand("B1-01", 1)])).snapshot();
    assert_eq!(err(no_votes).field, "lists[0].candidates[0].votes");
    let half = baden_wuerttemberg()
        .list(voter_group("B1", vec![in_district(hcand("B1-01", 1, 9), "Oberdorf"), hcand("B1-02", 2, 5)]))
        .snapshot();
    assert_eq!(err(half).field, "lists[0].candidates[1].district");
    // a majority election is served since issue 25 point 6; with Wohnbezirke it is still refused
    let majority = baden_wuerttemberg()
        .majority()
        .list(voter_group("B1", vec![in_district(hcand("B1-01", 1, 9), "Oberdorf")]))
        .snapshot();
    assert_eq!(err(majority).field, "body.electoral_system");
}

// ---------------------------------------------------------------------------------------------------------
// Mehrheitswahl (§ 26 Abs. 3 GemO; docs/legal.md, "Point 6: Mehrheitswahl")

const BW_MAJORITY: &str = "§ 31 Abs. 2 Satz 1 i. V. m. § 26 Abs. 3 GemO";

/// A Mehrheitswahl: the one Wahlvorschlag B1 (B1-01 seated with 900 votes, B1-02 with 100) and a person not
/// proposed who received 400 votes (written in, no position).
fn bw_majority(extra: Vec<Candidate>) -> SnapshotBuilder {
    let mut cands = vec![hcand("B1-01", 1, 900).seated(SeatVia::List), hcand("B1-02", 2, 100)];
    cands.push(off_list("W-01").votes(400));
    cands.extend(extra);
    baden_wuerttemberg().majority().list(voter_group("B1", cands))
}

#[test]
fn bw_gemo_26_abs_3_mehrheitswahl_the_next_ersatzperson_by_votes_a_written_in_person_included() {
    let d = decide(&bw_majority(vec![]).body(), &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("W-01", "B1"),
        vec![skipped("B1-01", "departed", BW_31_2), chosen("W-01", "most_votes", BW_MAJORITY)],
    );
}

#[test]
fn bw_gemo_31_abs_2_satz_1_mehrheitswahl_equal_votes_go_by_the_lot_drawn_at_the_result() {
    // W-02 has as many votes as W-01: the order fixed at the result (its lot) decides, nobody draws again
    let ranked = bw_majority(vec![off_list("W-02").votes(400).lot_rank(1)])
        .with(|s| s.lists[0].candidates[2].lot_rank = Some(2))
        .body();
    let d = decide(&ranked, &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("W-02", "B1"),
        vec![
            skipped("B1-01", "departed", BW_31_2),
            tied("W-01", "lost_drawn_lot", BW_MAJORITY),
            chosen("W-02", "won_drawn_lot", BW_MAJORITY),
        ],
    );
    // no rank recorded: the Wahlleitung is asked for the order (lot.requested), never the position
    let unranked = bw_majority(vec![off_list("W-02").votes(400)]).body();
    let d = decide(&unranked, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, Outcome::LotRequired { tied: vec!["W-01".to_owned(), "W-02".to_owned()] });
    let order = unranked.succession_order(t(REFERENCE)).lists.remove(0);
    assert_eq!(order.lot_groups, vec![vec!["W-01".to_owned(), "W-02".to_owned()]]);
    // the succession order agrees with decide
    let order = ranked.succession_order(t(REFERENCE)).lists.remove(0);
    assert_eq!(order.order, vec!["W-02", "W-01", "B1-02"]);
    assert!(order.lot_groups.is_empty());
}

#[test]
fn bw_gemo_26_abs_3_mehrheitswahl_is_one_list_of_everyone_who_received_votes() {
    let err = |b: SnapshotBuilder| Body::from_snapshot(b.snapshot()).unwrap_err();
    let two = err(bw_majority(vec![]).list(voter_group("B2", vec![hcand("B2-01", 1, 5)])));
    assert_eq!(two.field, "lists");
    assert!(two.problem.contains("one list of everyone who received votes"), "{}", two.problem);
    assert!(two.problem.contains("§ 26 Abs. 3 GemO"), "{}", two.problem);
    let no_votes = err(bw_majority(vec![off_list("W-02")]));
    assert_eq!(no_votes.field, "lists[0].candidates[3].votes");
    let kreistag = err(bw_majority(vec![]).kreistag());
    assert_eq!(kreistag.field, "body.electoral_system");
    // lot_rank is refused in a proportional election, accepted in a majority election
    let proportional = baden_wuerttemberg()
        .list(voter_group("B1", vec![hcand("B1-01", 1, 9), hcand("B1-02", 2, 5).lot_rank(1)]))
        .snapshot();
    assert_eq!(Body::from_snapshot(proportional).unwrap_err().field, "lists[0].candidates[1].lot_rank");
}
