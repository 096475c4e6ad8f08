//! Bayern — Art. 37, 38, 48 GLKrWG (docs/legal.md, "Bayern"). Included by tests/rules.rs; its helpers are the
//! parent's.

use super::*;

const BY_37_1: &str = "Art. 37 Abs. 1 Satz 1 GLKrWG";
const BY_37_1_HS_1: &str = "Art. 37 Abs. 1 Satz 1 Halbsatz 1 GLKrWG";
const BY_37_1_HS_2: &str = "Art. 37 Abs. 1 Satz 1 Halbsatz 2 GLKrWG";
const BY_37_2_1: &str = "Art. 37 Abs. 2 Satz 1 GLKrWG";
const BY_37_2_2: &str = "Art. 37 Abs. 2 Satz 2 GLKrWG";
const BY_37_2_2_HS_1: &str = "Art. 37 Abs. 2 Satz 2 Halbsatz 1 GLKrWG";
const BY_38_2_2: &str = "Art. 38 Abs. 2 Satz 2 GLKrWG";
const BY_38_2_3: &str = "Art. 38 Abs. 2 Satz 3 GLKrWG";
const BY_48_1_2: &str = "Art. 48 Abs. 1 Satz 2 GLKrWG";
const BY_48_1_2_3: &str = "Art. 48 Abs. 1 Satz 2, 3 GLKrWG";
const BY_48_1_3: &str = "Art. 48 Abs. 1 Satz 3 GLKrWG";
const BY_BARRED: &str = "Art. 37 Abs. 2 Satz 2 Halbsatz 2 GLKrWG i. V. m. Art. 31 Abs. 3 GO";

/// BY Wahlvorschlag B1: B1-01 (pos. 1, 900 votes, seated, the departed), `second` (pos. 2, 500 votes), B1-03
/// (pos. 3, 300 votes).
fn by_abc(second: Candidate) -> Body {
    bayern()
        .list(party("B1", vec![hcand("B1-01", 1, 900).seated(SeatVia::List), second, hcand("B1-03", 3, 300)]))
        .body()
}

#[track_caller]
fn assert_by_skipped(second: Candidate, reason: &str, citation: &str) {
    let d = decide(&by_abc(second), &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-03", "B1"),
        vec![
            skipped("B1-01", "departed", BY_37_1),
            skipped("B1-02", reason, citation),
            chosen("B1-03", "most_votes", BY_37_1_HS_1),
        ],
    );
}

#[test]
fn by_art_37_abs_1_satz_1_glkrwg_listennachfolger_by_votes_not_list_position() {
    let body = bayern()
        .list(party(
            "B1",
            vec![hcand("B1-01", 1, 900).seated(SeatVia::List), hcand("B1-02", 2, 100), hcand("B1-03", 3, 400)],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-03", "B1"),
        vec![skipped("B1-01", "departed", BY_37_1), chosen("B1-03", "most_votes", BY_37_1_HS_1)],
    );
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["B1-03".to_owned(), "B1-02".to_owned()]);
}

#[test]
fn by_art_37_abs_1_satz_1_halbsatz_2_glkrwg_equal_votes_the_lot_not_the_list_order() {
    // the lot the Wahlausschuss drew: the worker asks the Wahlleiter, it does not take the list position
    let body = bayern()
        .list(party(
            "B1",
            vec![hcand("B1-01", 1, 900).seated(SeatVia::List), hcand("B1-02", 2, 400), hcand("B1-03", 3, 400)],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, Outcome::LotRequired { tied: vec!["B1-02".into(), "B1-03".into()] });
    assert!(d.trail.contains(&tied("B1-02", "equal_votes_lot", BY_37_1_HS_2)));
    let d = decide(&body, &query("B1-01").lot("B1-03")).unwrap();
    assert_eq!(d.outcome, successor("B1-03", "B1"));
    assert!(d.trail.contains(&chosen("B1-03", "won_lot", BY_37_1_HS_2)));
    assert!(d.trail.contains(&tied("B1-02", "lost_lot", BY_37_1_HS_2)));
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].lot_groups, vec![vec!["B1-02".to_owned(), "B1-03".to_owned()]]);
}

#[test]
fn by_art_37_abs_1_satz_1_halbsatz_2_glkrwg_the_lot_drawn_at_the_result_decides_without_a_new_lot() {
    // the Wahlausschuss drew B1-03 before B1-02 when it determined the result (`lot_rank`): nobody is asked
    let body = bayern()
        .list(party(
            "B1",
            vec![
                hcand("B1-01", 1, 900).seated(SeatVia::List),
                hcand("B1-02", 2, 400).lot_rank(2),
                hcand("B1-03", 3, 400).lot_rank(1),
            ],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-03", "B1"),
        vec![
            skipped("B1-01", "departed", BY_37_1),
            tied("B1-02", "lost_drawn_lot", BY_37_1_HS_2),
            chosen("B1-03", "won_drawn_lot", BY_37_1_HS_2),
        ],
    );
    // the Nachrückerliste shows the drawn order, not a group for a lot
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["B1-03".to_owned(), "B1-02".to_owned()]);
    assert!(order.lists[0].lot_groups.is_empty());
    assert!(order.lists[0].notes.contains(&noted("B1-03", "drawn_lot_order", BY_37_1_HS_2)));
}

#[test]
fn by_art_37_abs_1_satz_1_halbsatz_2_glkrwg_the_drawn_order_holds_among_those_left() {
    // rank 1 died: among the remaining tied candidates the drawn order still decides (rank 2 before rank 3)
    let body = bayern()
        .list(party(
            "B1",
            vec![
                hcand("B1-01", 1, 900).seated(SeatVia::List),
                hcand("B1-02", 2, 400).lot_rank(1).died(),
                hcand("B1-03", 3, 400).lot_rank(3),
                hcand("B1-04", 4, 400).lot_rank(2),
            ],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-04", "B1"));
    assert!(d.trail.contains(&skipped("B1-02", "died", BY_37_1)));
    assert!(d.trail.contains(&tied("B1-03", "lost_drawn_lot", BY_37_1_HS_2)));
    assert!(d.trail.contains(&chosen("B1-04", "won_drawn_lot", BY_37_1_HS_2)));
}

#[test]
fn by_art_37_abs_1_satz_1_halbsatz_2_glkrwg_a_tied_candidate_without_a_drawn_rank_still_needs_the_lot() {
    let body = bayern()
        .list(party(
            "B1",
            vec![
                hcand("B1-01", 1, 900).seated(SeatVia::List),
                hcand("B1-02", 2, 400).lot_rank(1),
                hcand("B1-03", 3, 400),
            ],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, Outcome::LotRequired { tied: vec!["B1-02".into(), "B1-03".into()] });
    assert!(d.trail.contains(&tied("B1-03", "equal_votes_lot", BY_37_1_HS_2)));
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].lot_groups, vec![vec!["B1-02".to_owned(), "B1-03".to_owned()]]);
}

#[test]
fn by_art_38_abs_2_satz_3_glkrwg_majority_election_the_lot_drawn_at_the_result_decides() {
    let body = bayern()
        .majority()
        .list(party(
            "B1",
            vec![
                hcand("B1-01", 1, 900).seated(SeatVia::List),
                hcand("B1-02", 2, 400).lot_rank(1),
                hcand("B1-03", 3, 400).lot_rank(2),
            ],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-02", "B1"));
    assert!(d.trail.contains(&chosen("B1-02", "won_drawn_lot", BY_38_2_3)));
    assert!(d.trail.contains(&tied("B1-03", "lost_drawn_lot", BY_38_2_3)));
}

#[test]
fn by_art_37_abs_1_glkrwg_lot_rank_is_validated() {
    let err = |cs: Vec<Candidate>| Body::from_snapshot(bayern().list(party("B1", cs)).snapshot()).unwrap_err();
    let e = err(vec![hcand("B1-01", 1, 400).lot_rank(0)]);
    assert_eq!((e.field.as_str(), e.problem.as_str()), ("lists[0].candidates[0].lot_rank", "lot ranks start at 1"));
    // unique among equal votes; the same rank with other votes is another lot
    let e = err(vec![hcand("B1-01", 1, 400).lot_rank(1), hcand("B1-02", 2, 400).lot_rank(1)]);
    assert_eq!(e.field, "lists[0].candidates[1].lot_rank");
    assert!(Body::from_snapshot(
        bayern()
            .list(party("B1", vec![hcand("B1-01", 1, 400).lot_rank(1), hcand("B1-02", 2, 300).lot_rank(1)]))
            .snapshot()
    )
    .is_ok());
    let e = err(vec![hcand("B1-01", 1, 400).no_votes().lot_rank(1)]);
    assert_eq!(e.field, "lists[0].candidates[0].lot_rank");
    // an old snapshot without the field stays valid: no lot was drawn
    assert!(Body::from_snapshot(bayern().list(party("B1", vec![hcand("B1-01", 1, 400)])).snapshot()).is_ok());
}

#[test]
fn by_art_37_abs_1_satz_2_glkrwg_verbundener_wahlvorschlag_successor_from_the_same_wahlvorschlag() {
    // B2 is combined with B1 (verbunden) and has more votes; the successor still comes from B1
    let body = bayern()
        .list(party("B1", vec![hcand("B1-01", 1, 900).seated(SeatVia::List), hcand("B1-02", 2, 10)]))
        .list(party("B2", vec![hcand("B2-01", 1, 5000)]))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-02", "B1"));
}

#[test]
fn by_art_38_abs_2_glkrwg_majority_election_by_votes_lot_on_equal_votes() {
    let majority = |second: i64| {
        bayern()
            .majority()
            .list(party(
                "B1",
                vec![hcand("B1-01", 1, 900).seated(SeatVia::List), hcand("B1-02", 2, second), hcand("B1-03", 3, 400)],
            ))
            .body()
    };
    let d = decide(&majority(400), &query("B1-01")).unwrap();
    assert_eq!(d.outcome, Outcome::LotRequired { tied: vec!["B1-02".into(), "B1-03".into()] });
    assert!(d.trail.contains(&tied("B1-02", "equal_votes_lot", BY_38_2_3)));
    let d = decide(&majority(300), &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-03", "B1"),
        vec![skipped("B1-01", "departed", BY_38_2_2), chosen("B1-03", "most_votes", BY_38_2_2)],
    );
}

#[test]
fn by_art_37_abs_1_satz_1_glkrwg_seated_former_member_and_called_skipped() {
    assert_by_skipped(hcand("B1-02", 2, 500).seated(SeatVia::List), "seated", BY_37_1);
    // a member who resigned (no Hinderungsgrund on the day he left) is no Listennachfolger again
    assert_by_skipped(hcand("B1-02", 2, 500).former_member(), "former_member", BY_37_1);
    let d = decide(&by_abc(hcand("B1-02", 2, 500)), &query("B1-01").pending("B1-02")).unwrap();
    assert!(d.trail.contains(&skipped("B1-02", "pending_successor", BY_37_1)));
}

#[test]
fn by_art_37_abs_1_satz_1_glkrwg_member_who_left_under_art_31_abs_3_go_is_listennachfolger_again() {
    // "die gewählten sich bewerbenden Personen, die nach Art. 31 Abs. 3 GO … ausscheiden, sind …
    // Listennachfolger": a bar current on the day he left (2026-02-01) is the cause; it ended on 2026-04-01
    let cured = hcand("B1-02", 2, 500)
        .barred("Beamter des Landratsamts")
        .former_member()
        .fact(Fact::BarCured { on: d("2026-04-01") });
    let decision = decide(&by_abc(cured), &query("B1-01")).unwrap();
    assert_decision(
        decision,
        successor("B1-02", "B1"),
        vec![skipped("B1-01", "departed", BY_37_1), chosen("B1-02", "most_votes", BY_37_1_HS_1)],
    );
    // the bar still stands when he is called: he cannot take office, and stays on the list (Art. 37 Abs. 2
    // Satz 2 Halbsatz 2)
    let still = hcand("B1-02", 2, 500).barred("Beamter des Landratsamts").former_member();
    assert_by_skipped(still, "barred_stays_successor", BY_BARRED);
    // a bar that arose only after he left is no cause of his leaving
    let later = hcand("B1-02", 2, 500)
        .former_member()
        .fact(Fact::Barred { on: d("2026-03-01"), reason: "Beamter des Landratsamts".into() });
    assert_by_skipped(later, "former_member", BY_37_1);
    // the succession order agrees
    let body = by_abc(
        hcand("B1-02", 2, 500)
            .barred("Beamter des Landratsamts")
            .former_member()
            .fact(Fact::BarCured { on: d("2026-04-01") }),
    );
    assert_eq!(body.succession_order(t(REFERENCE)).lists[0].order.first().map(String::as_str), Some("B1-02"));
}

#[test]
fn by_art_37_abs_1_satz_1_art_47_glkrwg_an_elected_person_who_declined_the_election_is_no_listennachfolger() {
    // Ablehnung der Wahl (`of: election`): not among the persons Art. 37 Abs. 1 Satz 1 names, for any vacancy
    let election = Fact::Declined { on: d("2025-10-20"), of: Declination::Election };
    assert_by_skipped(hcand("B1-02", 2, 500).fact(election.clone()), "declined", BY_37_1);
    let body = by_abc(hcand("B1-02", 2, 500).fact(election));
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["B1-03".to_owned()]);
    // a Listennachfolger's refusal of an earlier Nachrücken (`of: succession`, the default on the wire) keeps
    // him on the list
    let json = serde_json::json!({"type": "declined", "on": "2026-02-01"});
    let fact: Fact = serde_json::from_value(json).expect("declined without of");
    assert_eq!(fact, Fact::Declined { on: d("2026-02-01"), of: Declination::Succession });
    let body = by_abc(hcand("B1-02", 2, 500).fact(fact));
    assert_eq!(decide(&body, &query("B1-01")).unwrap().outcome, successor("B1-02", "B1"));
}

#[test]
fn by_art_48_abs_1_satz_2_glkrwg_refusal_for_this_vacancy_skipped_an_earlier_one_does_not_strike() {
    // refused on the day the seat became free (the reference day while the departed holds it): passed over
    assert_by_skipped(
        hcand("B1-02", 2, 500).fact(Fact::Declined { on: d("2026-06-01"), of: Declination::Succession }),
        "declined",
        BY_48_1_2_3,
    );
    // refused an earlier vacancy: Art. 37 Abs. 2 Satz 2 does not strike him, he is called again
    let d = decide(&by_abc(hcand("B1-02", 2, 500).declined()), &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-02", "B1"),
        vec![
            skipped("B1-01", "departed", BY_37_1),
            noted("B1-02", "declined_earlier_stays_successor", BY_37_2_2),
            chosen("B1-02", "most_votes", BY_37_1_HS_1),
        ],
    );
}

#[test]
fn by_art_48_abs_1_satz_2_glkrwg_written_waiver_skipped_a_niederschrift_noted() {
    assert_by_skipped(hcand("B1-02", 2, 500).waived_written(), "waived", BY_48_1_2);
    let d = decide(&by_abc(hcand("B1-02", 2, 500).waived_recorded()), &query("B1-01")).unwrap();
    assert!(d.trail.contains(&noted("B1-02", "waiver_not_written", BY_48_1_2)));
    assert_eq!(d.outcome, successor("B1-02", "B1"));
}

#[test]
fn by_art_37_abs_1_satz_1_glkrwg_died_skipped() {
    assert_by_skipped(hcand("B1-02", 2, 500).died(), "died", BY_37_1);
}

#[test]
fn by_art_37_abs_2_satz_2_halbsatz_1_glkrwg_ineligible_when_called_struck_eligible_again_is_called() {
    assert_by_skipped(hcand("B1-02", 2, 500).ineligible(FACT_DAY, None), "ineligible", BY_37_2_2_HS_1);
    // GLKrWBek Nr. 84.4: eligible "noch oder wieder" when called
    let d =
        decide(&by_abc(hcand("B1-02", 2, 500).ineligible("2026-01-01", Some("2026-03-31"))), &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-02", "B1"));
}

#[test]
fn by_art_37_abs_2_satz_2_halbsatz_2_glkrwg_hinderungsgrund_passed_over_stays_on_the_list() {
    let barred = hcand("B1-02", 2, 500).barred("Beamter des Landratsamts");
    assert_by_skipped(barred.clone(), "barred_stays_successor", BY_BARRED);
    // the bar ended before the next vacancy: he is called
    let d = decide(&by_abc(barred.bar_cured()), &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-02", "B1"));
    // and never as a barred successor who must prove (Art. 37 Abs. 2 Satz 2 passes him over instead)
    let order = by_abc(hcand("B1-02", 2, 500).barred("Beamter")).succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["B1-03".to_owned()]);
}

#[test]
fn by_art_37_abs_2_satz_1_glkrwg_leaving_or_joining_a_party_no_effect_bayvgh_1968() {
    let d = decide(&by_abc(hcand("B1-02", 2, 500).left_party().joined_other_party()), &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-02", "B1"),
        vec![
            skipped("B1-01", "departed", BY_37_1),
            noted("B1-02", "left_party_no_effect", BY_37_2_1),
            noted("B1-02", "joined_other_party_no_effect", BY_37_2_1),
            chosen("B1-02", "most_votes", BY_37_1_HS_1),
        ],
    );
}

#[test]
fn by_art_48_abs_1_satz_3_glkrwg_no_listennachfolger_left_vacant_statutory_size_unchanged() {
    let body = bayern()
        .list(party(
            "B1",
            vec![
                hcand("B1-01", 1, 900).seated(SeatVia::List),
                hcand("B1-02", 2, 500).died(),
                hcand("B1-03", 3, 1).ineligible(FACT_DAY, None),
            ],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::ListExhausted, 44),
        vec![
            skipped("B1-01", "departed", BY_37_1),
            skipped("B1-02", "died", BY_37_1),
            skipped("B1-03", "ineligible", BY_37_2_2_HS_1),
            finding("list_exhausted", BY_48_1_3),
        ],
    );
}

#[test]
fn by_validation_votes_required_no_party_ban_no_merger_local_holidays_known() {
    let err = Body::from_snapshot(bayern().list(party("B1", vec![cand("B1-01", 1)])).snapshot()).unwrap_err();
    assert_eq!(err.field, "lists[0].candidates[0].votes");
    let body = by_abc(hcand("B1-02", 2, 500));
    for cause in [Cause::Merger, Cause::PartyBan { list_banned: true }] {
        let e = decide(&body, &query("B1-01").cause(cause)).unwrap_err();
        assert!(matches!(e, DecideError::Cause(ref v) if v.field == "reason"), "{e:?}");
    }
    let with = |land: SnapshotBuilder, codes: &[&str]| {
        land.list(party("B1", vec![hcand("B1-01", 1, 5)]))
            .with(|s| s.body.local_holidays = codes.iter().map(|c| (*c).to_owned()).collect())
            .snapshot()
    };
    // Art. 1 FTG: the two local holidays of Bayern
    Body::from_snapshot(with(bayern(), &["mariae_himmelfahrt", "augsburger_friedensfest"])).unwrap();
    let err = Body::from_snapshot(with(bayern(), &["fronleichnam"])).unwrap_err();
    assert_eq!(err.field, "body.local_holidays[0]");
    assert!(err.problem.contains("mariae_himmelfahrt"), "{}", err.problem);
    let err = Body::from_snapshot(with(bayern(), &["mariae_himmelfahrt", "mariae_himmelfahrt"])).unwrap_err();
    assert_eq!(err.field, "body.local_holidays[1]");
    // a Land without local holidays: the list must be empty
    let err = Body::from_snapshot(with(nrw(), &["mariae_himmelfahrt"])).unwrap_err();
    assert_eq!(err.field, "body.local_holidays[0]");
    assert!(err.problem.contains("must be empty"), "{}", err.problem);
    // the example is valid
    let path = format!("{}/examples/by-election.json", env!("CARGO_MANIFEST_DIR"));
    parse_snapshot(&std::fs::read(path).unwrap()).and_then(Body::from_snapshot).unwrap();
}
