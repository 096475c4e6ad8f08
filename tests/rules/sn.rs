//! Sachsen — § 34 Abs. 2 SächsGemO with §§ 21, 23 KomWG, §§ 18, 31, 32 SächsGemO (docs/legal.md, "Sachsen").
//! Included by tests/rules.rs; its helpers are the parent's.

use super::*;

const SN_34: &str = "§ 34 Abs. 2 SächsGemO";
const SN_VOTES: &str = "§ 34 Abs. 2 SächsGemO i. V. m. § 21 Abs. 2 Satz 2 KomWG";
const SN_TIE: &str = "§ 21 Abs. 2 Satz 3 KomWG";
const SN_31: &str = "§ 34 Abs. 2 i. V. m. § 31 SächsGemO";
const SN_32: &str = "§ 32 Abs. 1, 3 SächsGemO";
const SN_18: &str = "§ 18 Abs. 1, 2 SächsGemO";
const SN_LOT: &str = "§ 23 Satz 3 KomWG";

fn sn_abc(second: Candidate) -> Body {
    sachsen()
        .list(voter_group("S1", vec![hcand("S1-01", 1, 900).seated(SeatVia::List), second, hcand("S1-03", 3, 300)]))
        .body()
}

#[track_caller]
fn assert_sn_skipped(second: Candidate, reason: &str, citation: &str) {
    let d = decide(&sn_abc(second), &query("S1-01")).unwrap();
    assert_decision(
        d,
        successor("S1-03", "S1"),
        vec![
            skipped("S1-01", "departed", SN_34),
            skipped("S1-02", reason, citation),
            chosen("S1-03", "most_votes", SN_VOTES),
        ],
    );
}

#[test]
fn sn_komwg_21_abs_2_satz_2_ersatzpersonen_by_votes_satz_3_equal_votes_order_of_nomination() {
    let body = sachsen()
        .list(voter_group(
            "S1",
            vec![
                hcand("S1-01", 1, 900).seated(SeatVia::List),
                hcand("S1-02", 2, 100),
                hcand("S1-04", 4, 400),
                hcand("S1-03", 3, 400),
            ],
        ))
        .body();
    let d = decide(&body, &query("S1-01")).unwrap();
    assert_eq!(d.outcome, successor("S1-03", "S1"));
    assert!(d.trail.contains(&chosen("S1-03", "most_votes_list_order", SN_TIE)));
}

#[test]
fn sn_komwg_23_satz_3_majority_equal_votes_lot_of_the_wahlausschuss() {
    let body = sachsen()
        .majority()
        .list(voter_group(
            "S1",
            vec![hcand("S1-01", 1, 900).seated(SeatVia::List), hcand("S1-02", 2, 400), hcand("S1-03", 3, 400)],
        ))
        .body();
    let d = decide(&body, &query("S1-01")).unwrap();
    assert_eq!(d.outcome, Outcome::LotRequired { tied: vec!["S1-02".into(), "S1-03".into()] });
    assert!(d.trail.contains(&tied("S1-02", "equal_votes_lot", SN_LOT)));
    let d = decide(&body, &query("S1-01").lot("S1-03")).unwrap();
    assert_eq!(d.outcome, successor("S1-03", "S1"));
}

#[test]
fn sn_komwg_23_satz_3_majority_the_lot_the_chair_drew_at_the_result_decides_without_a_new_lot() {
    // the chair of the Gemeindewahlausschuss drew S1-03 before S1-02: recorded as `lot_rank`, nobody is asked
    let body = sachsen()
        .majority()
        .list(voter_group(
            "S1",
            vec![
                hcand("S1-01", 1, 900).seated(SeatVia::List),
                hcand("S1-02", 2, 400).lot_rank(2),
                hcand("S1-03", 3, 400).lot_rank(1),
            ],
        ))
        .body();
    let d = decide(&body, &query("S1-01")).unwrap();
    assert_eq!(d.outcome, successor("S1-03", "S1"));
    assert!(d.trail.contains(&chosen("S1-03", "won_drawn_lot", SN_LOT)));
    assert!(d.trail.contains(&tied("S1-02", "lost_drawn_lot", SN_LOT)));
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["S1-03".to_owned(), "S1-02".to_owned()]);
    assert!(order.lists[0].lot_groups.is_empty());
    // one rank missing: the lot is still asked for
    let partial = sachsen()
        .majority()
        .list(voter_group(
            "S1",
            vec![
                hcand("S1-01", 1, 900).seated(SeatVia::List),
                hcand("S1-02", 2, 400),
                hcand("S1-03", 3, 400).lot_rank(1),
            ],
        ))
        .body();
    let d = decide(&partial, &query("S1-01")).unwrap();
    assert!(matches!(d.outcome, Outcome::LotRequired { .. }), "{:?}", d.outcome);
}

#[test]
fn sn_komwg_21_abs_2_satz_3_proportional_equal_votes_go_by_nomination_so_lot_rank_is_refused() {
    // § 21 Abs. 2 Satz 3 KomWG: no lot among Ersatzpersonen of a proportional election; other Länder draw the
    // lot at the succession (Hessen § 34 Abs. 1a KWG) or decide by the list order
    let proportional = sachsen().list(voter_group("S1", vec![hcand("S1-01", 1, 400).lot_rank(1)])).snapshot();
    let e = Body::from_snapshot(proportional).unwrap_err();
    assert_eq!(e.field, "lists[0].candidates[0].lot_rank");
    assert!(e.problem.contains("§ 23 Satz 3 KomWG"), "{}", e.problem);
    let hessen = hessen().majority().list(party("A", vec![hcand("A-01", 1, 400).lot_rank(1)])).snapshot();
    assert_eq!(Body::from_snapshot(hessen).unwrap_err().field, "lists[0].candidates[0].lot_rank");
}

#[test]
fn sn_saechsgemo_34_abs_2_exclusions_each_with_its_citation() {
    assert_sn_skipped(hcand("S1-02", 2, 500).seated(SeatVia::List), "already_called", SN_34);
    assert_sn_skipped(hcand("S1-02", 2, 500).died(), "died", SN_34);
    assert_sn_skipped(hcand("S1-02", 2, 500).ineligible("2025-01-01", None), "ineligible", SN_31);
    assert_sn_skipped(hcand("S1-02", 2, 500).barred("Arbeitnehmer der Gemeinde"), "barred_hinderungsgrund", SN_32);
    assert_sn_skipped(hcand("S1-02", 2, 500).declined(), "refusal_accepted", SN_18);
}

#[test]
fn sn_saechsgemo_34_abs_2_party_exit_and_waiver_have_no_effect() {
    for c in [hcand("S1-02", 2, 500).left_party(), hcand("S1-02", 2, 500).waived_written()] {
        let d = decide(&sn_abc(c), &query("S1-01")).unwrap();
        assert_eq!(d.outcome, successor("S1-02", "S1"));
    }
}

#[test]
fn sn_saechsgemo_34_exhausted_vacant_size_kept_ergaenzungswahl_below_two_thirds() {
    let body = sachsen()
        .size(4)
        .list(voter_group("S1", vec![hcand("S1-01", 1, 900).seated(SeatVia::List), hcand("S1-02", 2, 5).died()]))
        .list(voter_group(
            "S2",
            vec![hcand("S2-01", 1, 800).seated(SeatVia::List), hcand("S2-02", 2, 700).seated(SeatVia::List)],
        ))
        .body();
    let d = decide(&body, &query("S1-01")).unwrap();
    assert_eq!(d.outcome, vacant(VacancyReason::ListExhausted, 4));
    assert!(d.trail.contains(&finding("list_exhausted", SN_34)));
    assert!(d.trail.contains(&finding("supplementary_election_required", "§ 34 SächsGemO (Ergänzungswahl)")));
}

#[test]
fn sn_validation_names_the_field() {
    let err = |s: Snapshot| Body::from_snapshot(s).unwrap_err();
    assert_eq!(
        err(sachsen().list(voter_group("S1", vec![cand("S1-01", 1)])).snapshot()).field,
        "lists[0].candidates[0].votes"
    );
    let with_district = sachsen()
        .list(voter_group("S1", vec![Candidate { district: Some("WK 1".into()), ..hcand("S1-01", 1, 9) }]))
        .snapshot();
    assert_eq!(err(with_district).field, "lists[0].candidates[0].district");
}
