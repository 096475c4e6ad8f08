//! Thüringen — § 23 ThürKWG with §§ 29, 30 ThürKWG (docs/legal.md, "Thüringen"). Included by tests/rules.rs;
//! its helpers are the parent's.

use super::*;

const TH_2_1: &str = "§ 23 Abs. 2 Satz 1 ThürKWG";
const TH_2_2: &str = "§ 23 Abs. 2 Satz 2 i. V. m. § 22 Abs. 5 ThürKWG";
const TH_2_1_30: &str = "§ 23 Abs. 2 Satz 1 i. V. m. § 30 Abs. 1 ThürKWG";
const TH_2: &str = "§ 23 Abs. 2 ThürKWG";
const TH_3_1: &str = "§ 23 Abs. 3 Satz 1 ThürKWG";
const TH_3_2: &str = "§ 23 Abs. 3 Satz 2 ThürKWG";
const TH_29: &str = "§ 23 Abs. 4 Halbsatz 2 i. V. m. § 29 Satz 2 ThürKWG";
const TH_29_2: &str = "§ 29 Satz 2 ThürKWG";
const TH_BARRED: &str = "§ 23 Abs. 4 ThürKO i. V. m. § 30 Abs. 2 Nr. 2 ThürKWG";

/// TH Wahlvorschlag T1: T1-01 (pos. 1, 900 votes, seated, the departed), `second` (pos. 2, 500 votes), T1-03
/// (pos. 3, 300 votes).
fn th_abc(second: Candidate) -> Body {
    thueringen()
        .list(party("T1", vec![hcand("T1-01", 1, 900).seated(SeatVia::List), second, hcand("T1-03", 3, 300)]))
        .body()
}

#[track_caller]
fn assert_th_skipped(second: Candidate, reason: &str, citation: &str) {
    let d = decide(&th_abc(second), &query("T1-01")).unwrap();
    assert_decision(
        d,
        successor("T1-03", "T1"),
        vec![
            skipped("T1-01", "departed", TH_2_1),
            skipped("T1-02", reason, citation),
            chosen("T1-03", "most_votes", TH_2_2),
        ],
    );
}

#[test]
fn th_thuerkwg_23_abs_2_satz_2_most_votes_not_list_position() {
    let body = thueringen()
        .list(party(
            "T1",
            vec![hcand("T1-01", 1, 900).seated(SeatVia::List), hcand("T1-02", 2, 100), hcand("T1-03", 3, 400)],
        ))
        .body();
    let d = decide(&body, &query("T1-01")).unwrap();
    assert_decision(
        d,
        successor("T1-03", "T1"),
        vec![skipped("T1-01", "departed", TH_2_1), chosen("T1-03", "most_votes", TH_2_2)],
    );
}

#[test]
fn th_thuerkwg_23_abs_2_satz_2_equal_votes_go_to_the_wahlleiter() {
    // § 22 Abs. 5 was not readable: the worker does not choose among equal votes (docs/legal.md)
    let body = thueringen()
        .list(party(
            "T1",
            vec![hcand("T1-01", 1, 900).seated(SeatVia::List), hcand("T1-03", 3, 400), hcand("T1-02", 2, 400)],
        ))
        .body();
    let d = decide(&body, &query("T1-01")).unwrap();
    assert_eq!(d.outcome, Outcome::LotRequired { tied: vec!["T1-02".into(), "T1-03".into()] });
    assert!(d.trail.contains(&tied("T1-03", "equal_votes_lot", TH_2_2)));
    let d = decide(&body, &query("T1-01").lot("T1-03")).unwrap();
    assert_eq!(d.outcome, successor("T1-03", "T1"));
    assert!(d.trail.contains(&chosen("T1-03", "won_lot", TH_2_2)));
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].lot_groups, vec![vec!["T1-02".to_owned(), "T1-03".to_owned()]]);
}

#[test]
fn th_thuerkwg_23_abs_3_majority_most_votes_equal_votes_lot() {
    let majority = |second: i64| {
        thueringen()
            .majority()
            .list(party(
                "T1",
                vec![hcand("T1-01", 1, 900).seated(SeatVia::List), hcand("T1-02", 2, second), hcand("T1-03", 3, 400)],
            ))
            .body()
    };
    let d = decide(&majority(400), &query("T1-01")).unwrap();
    assert_eq!(d.outcome, Outcome::LotRequired { tied: vec!["T1-02".into(), "T1-03".into()] });
    assert!(d.trail.contains(&tied("T1-02", "equal_votes_lot", TH_3_2)));
    let d = decide(&majority(300), &query("T1-01")).unwrap();
    assert_decision(
        d,
        successor("T1-03", "T1"),
        vec![skipped("T1-01", "departed", TH_3_1), chosen("T1-03", "most_votes", TH_3_1)],
    );
}

#[test]
fn th_thuerkwg_23_abs_2_satz_1_already_called_skipped() {
    assert_th_skipped(hcand("T1-02", 2, 500).seated(SeatVia::List), "already_called", TH_2_1);
    assert_th_skipped(hcand("T1-02", 2, 500).former_member(), "already_called", TH_2_1);
    let d = decide(&th_abc(hcand("T1-02", 2, 500)), &query("T1-01").pending("T1-02")).unwrap();
    assert!(d.trail.contains(&skipped("T1-02", "already_called", TH_2_1)));
}

#[test]
fn th_thuerkwg_29_satz_2_refusal_and_written_waiver_skipped_a_niederschrift_noted() {
    assert_th_skipped(hcand("T1-02", 2, 500).declined(), "declined", TH_29);
    assert_th_skipped(hcand("T1-02", 2, 500).waived_written(), "waived", TH_29);
    let d = decide(&th_abc(hcand("T1-02", 2, 500).waived_recorded()), &query("T1-01")).unwrap();
    assert_decision(
        d,
        successor("T1-02", "T1"),
        vec![
            skipped("T1-01", "departed", TH_2_1),
            noted("T1-02", "waiver_not_written", TH_29_2),
            chosen("T1-02", "most_votes", TH_2_2),
        ],
    );
}

#[test]
fn th_thuerkwg_23_abs_2_satz_1_died_skipped() {
    assert_th_skipped(hcand("T1-02", 2, 500).died(), "died", TH_2_1);
}

#[test]
fn th_thuerkwg_30_abs_1_ineligible_on_the_reference_day_skipped_eligible_again_is_called() {
    assert_th_skipped(hcand("T1-02", 2, 500).ineligible(FACT_DAY, None), "ineligible", TH_2_1_30);
    // no "ununterbrochen" in the ThürKWG: eligible again on the reference day, he is called
    let d =
        decide(&th_abc(hcand("T1-02", 2, 500).ineligible("2026-01-01", Some("2026-03-31"))), &query("T1-01")).unwrap();
    assert_eq!(d.outcome, successor("T1-02", "T1"));
}

#[test]
fn th_thuerkwg_23_abs_2_leaving_or_joining_a_party_no_effect_noted() {
    let d = decide(&th_abc(hcand("T1-02", 2, 500).left_party().joined_other_party()), &query("T1-01")).unwrap();
    assert_decision(
        d,
        successor("T1-02", "T1"),
        vec![
            skipped("T1-01", "departed", TH_2_1),
            noted("T1-02", "left_party_no_effect", TH_2),
            noted("T1-02", "joined_other_party_no_effect", TH_2),
            chosen("T1-02", "most_votes", TH_2_2),
        ],
    );
}

#[test]
fn th_thuerko_23_abs_4_barred_successor_determined_and_must_prove() {
    let d = decide(&th_abc(hcand("T1-02", 2, 500).barred("Beschäftigter der Gemeinde")), &query("T1-01")).unwrap();
    assert_decision(
        d,
        barred_successor("T1-02", "T1"),
        vec![
            skipped("T1-01", "departed", TH_2_1),
            chosen("T1-02", "most_votes", TH_2_2),
            noted("T1-02", "barred_must_prove_end", TH_BARRED),
        ],
    );
}

#[test]
fn th_thuerkwg_23_abs_2_satz_1_no_nachruecker_left_vacant_statutory_size_unchanged() {
    let body = thueringen()
        .list(party(
            "T1",
            vec![
                hcand("T1-01", 1, 900).seated(SeatVia::List),
                hcand("T1-02", 2, 500).died(),
                hcand("T1-03", 3, 1).declined(),
            ],
        ))
        .body();
    let d = decide(&body, &query("T1-01")).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::ListExhausted, 44),
        vec![
            skipped("T1-01", "departed", TH_2_1),
            skipped("T1-02", "died", TH_2_1),
            skipped("T1-03", "declined", TH_29),
            finding("list_exhausted", TH_2_1),
        ],
    );
}

#[test]
fn th_validation_votes_required_no_party_ban_no_merger() {
    let err = Body::from_snapshot(thueringen().list(party("T1", vec![cand("T1-01", 1)])).snapshot()).unwrap_err();
    assert_eq!(err.field, "lists[0].candidates[0].votes");
    let err = Body::from_snapshot(
        thueringen()
            .list(party("T1", vec![hcand("T1-01", 1, 5), hcand("T1-02", 2, 4).party_notice("2026-01-15")]))
            .snapshot(),
    )
    .unwrap_err();
    assert_eq!(err.field, "lists[0].candidates[1].facts[0].type");
    let body = th_abc(hcand("T1-02", 2, 500));
    for cause in [Cause::Merger, Cause::PartyBan { list_banned: true }] {
        let e = decide(&body, &query("T1-01").cause(cause)).unwrap_err();
        assert!(matches!(e, DecideError::Cause(ref v) if v.field == "reason"), "{e:?}");
    }
}
