//! Sachsen-Anhalt — § 47 KWG LSA with § 42 Abs. 4 KVG LSA, §§ 41, 48 KWG LSA (docs/legal.md,
//! "Sachsen-Anhalt"). Included by tests/rules.rs; its helpers are the parent's.

use super::*;

const ST_41_1: &str = "§ 41 Abs. 1 KWG LSA";
const ST_41_2_1: &str = "§ 41 Abs. 2 Satz 1 Halbsatz 1 KWG LSA";
const ST_41_2_1_HS_2: &str = "§ 41 Abs. 2 Satz 1 Halbsatz 2 KWG LSA";
const ST_41_2_3: &str = "§ 41 Abs. 2 Satz 3 KWG LSA";
const ST_LOT: &str = "§ 41 Abs. 2 Satz 3, Abs. 3 KWG LSA";
const ST_47_1_2: &str = "§ 47 Abs. 1 Satz 2 KWG LSA";
const ST_47_1_3: &str = "§ 47 Abs. 1 Satz 3 KWG LSA";
const ST_47_2_1: &str = "§ 47 Abs. 2 Nr. 1 KWG LSA";
const ST_47_3: &str = "§ 47 Abs. 3 KWG LSA, § 75 Abs. 3 KWO LSA";
const ST_48_1_1: &str = "§ 48 Abs. 1 Satz 1 KWG LSA";
const ST_48_2: &str = "§ 48 Abs. 2 KWG LSA";
const ST_48_2_3: &str = "§ 48 Abs. 2 Satz 3 KWG LSA";
const ST_48_3_1: &str = "§ 48 Abs. 3 Satz 1 KWG LSA";
const ST_BARRED: &str = "§ 41 Abs. 1 i. V. m. § 42 Abs. 1 Nr. 3 KVG LSA";

/// ST party Wahlvorschlag S1: S1-01 (pos. 1, 900 votes, seated, the departed), `second` (pos. 2, 500 votes),
/// S1-03 (pos. 3, 300 votes).
fn st_abc(second: Candidate) -> Body {
    sachsen_anhalt()
        .list(party("S1", vec![hcand("S1-01", 1, 900).seated(SeatVia::List), second, hcand("S1-03", 3, 300)]))
        .body()
}

/// `st_abc` after the worker recorded the departure of S1-01 on [`FACT_DAY`] (2026-02-01): no seat, a
/// `former_member` fact — the day the seat became free.
fn st_abc_departed(second: Candidate) -> Body {
    sachsen_anhalt()
        .list(party("S1", vec![hcand("S1-01", 1, 900).former_member(), second, hcand("S1-03", 3, 300)]))
        .body()
}

#[track_caller]
fn assert_st_skipped(body: Body, reason: &str, citation: &str) {
    let d = decide(&body, &query("S1-01")).unwrap();
    assert_decision(
        d,
        successor("S1-03", "S1"),
        vec![
            skipped("S1-01", "departed", ST_41_1),
            skipped("S1-02", reason, citation),
            chosen("S1-03", "most_votes", ST_41_2_1),
        ],
    );
}

#[track_caller]
fn assert_st_chosen_with(body: Body, notes: Vec<TrailStep>) {
    let d = decide(&body, &query("S1-01")).unwrap();
    let mut trail = vec![skipped("S1-01", "departed", ST_41_1)];
    trail.extend(notes);
    trail.push(chosen("S1-02", "most_votes", ST_41_2_1));
    assert_decision(d, successor("S1-02", "S1"), trail);
}

#[test]
fn st_kwg_lsa_41_abs_2_satz_1_most_votes_then_order_on_the_wahlvorschlag() {
    let body = sachsen_anhalt()
        .list(party(
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
    assert_decision(
        d,
        successor("S1-03", "S1"),
        vec![skipped("S1-01", "departed", ST_41_1), chosen("S1-03", "most_votes_list_order", ST_41_2_1_HS_2)],
    );
}

#[test]
fn st_kwg_lsa_41_abs_2_satz_2_candidates_without_votes_follow_in_list_order() {
    // votes are not required in Sachsen-Anhalt; S1-02 and S1-03 have none and follow S1-04 (pos. 4, 10 votes)
    let body = sachsen_anhalt()
        .list(party(
            "S1",
            vec![
                hcand("S1-01", 1, 900).seated(SeatVia::List),
                cand("S1-03", 3),
                cand("S1-02", 2),
                hcand("S1-04", 4, 10),
            ],
        ))
        .body();
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["S1-04", "S1-02", "S1-03"]);
    let d = decide(&body, &query("S1-01")).unwrap();
    assert_eq!(d.outcome, successor("S1-04", "S1"));
}

#[test]
fn st_kwg_lsa_41_abs_1_already_called_skipped() {
    assert_st_skipped(st_abc(hcand("S1-02", 2, 500).seated(SeatVia::List)), "already_called", ST_41_1);
    assert_st_skipped(st_abc(hcand("S1-02", 2, 500).former_member()), "already_called", ST_41_1);
    let d = decide(&st_abc(hcand("S1-02", 2, 500)), &query("S1-01").pending("S1-02")).unwrap();
    assert_eq!(d.outcome, successor("S1-03", "S1"));
    assert!(d.trail.contains(&skipped("S1-02", "already_called", ST_41_1)));
}

#[test]
fn st_kwg_lsa_48_abs_1_satz_1_refusal_skipped_for_good() {
    assert_st_skipped(st_abc(hcand("S1-02", 2, 500).declined()), "declined", ST_48_1_1);
}

#[test]
fn st_kwg_lsa_48_abs_2_written_waiver_skipped_a_niederschrift_is_not_the_written_form() {
    assert_st_skipped(st_abc(hcand("S1-02", 2, 500).waived_written()), "waived", ST_48_2);
    assert_st_chosen_with(
        st_abc(hcand("S1-02", 2, 500).waived_recorded()),
        vec![noted("S1-02", "waiver_not_written", ST_48_2_3)],
    );
}

#[test]
fn st_kwg_lsa_41_abs_1_died_skipped() {
    assert_st_skipped(st_abc(hcand("S1-02", 2, 500).died()), "died", ST_41_1);
}

#[test]
fn st_kwg_lsa_48_abs_3_lost_eligibility_skipped_for_good() {
    assert_st_skipped(st_abc(hcand("S1-02", 2, 500).ineligible(FACT_DAY, None)), "ineligible", ST_48_3_1);
    // ineligible for a while, eligible again on the reference day: "scheidet … aus", for good
    assert_st_skipped(
        st_abc(hcand("S1-02", 2, 500).ineligible("2026-01-01", Some("2026-03-31"))),
        "not_continuously_eligible",
        ST_48_3_1,
    );
}

#[test]
fn st_kwg_lsa_47_abs_1_satz_2_party_exit_with_written_notice_before_the_vacancy_skipped() {
    // the seat became free on 2026-02-01; the party's notice reached the Wahlleiter on 2026-01-15
    assert_st_skipped(
        st_abc_departed(hcand("S1-02", 2, 500).left_party().party_notice("2026-01-15")),
        "left_party_notified",
        ST_47_1_2,
    );
    // offline (the departed still holds the seat): the reference day stands in for the day the seat became
    // free — a notice before it counts, one on it does not
    assert_st_skipped(
        st_abc(hcand("S1-02", 2, 500).left_party().party_notice("2026-05-31")),
        "left_party_notified",
        ST_47_1_2,
    );
    assert_st_chosen_with(
        st_abc(hcand("S1-02", 2, 500).left_party().party_notice("2026-06-01")),
        vec![noted("S1-02", "left_party_no_effect", ST_47_1_2)],
    );
}

#[test]
fn st_kwg_lsa_47_abs_1_satz_2_party_exit_without_a_timely_notice_has_no_effect() {
    let no_effect = vec![noted("S1-02", "left_party_no_effect", ST_47_1_2)];
    // no notice at all
    assert_st_chosen_with(st_abc_departed(hcand("S1-02", 2, 500).left_party()), no_effect.clone());
    // the notice came on the day the seat became free, or after: not "vor dem Freiwerden des Sitzes"
    for on in ["2026-02-01", "2026-03-01"] {
        assert_st_chosen_with(st_abc_departed(hcand("S1-02", 2, 500).left_party().party_notice(on)), no_effect.clone());
    }
}

#[test]
fn st_kwg_lsa_47_abs_1_satz_2_leaving_a_waehlergruppe_has_no_effect() {
    // "aus der Partei": a Wählergruppe's Wahlvorschlag is not covered, notice or not
    let body = sachsen_anhalt()
        .list(voter_group(
            "S1",
            vec![
                hcand("S1-01", 1, 900).former_member(),
                hcand("S1-02", 2, 500).left_party().party_notice("2026-01-15"),
                hcand("S1-03", 3, 300),
            ],
        ))
        .body();
    assert_st_chosen_with(body, vec![noted("S1-02", "left_party_no_effect", ST_47_1_2)]);
}

#[test]
fn st_kwg_lsa_47_abs_1_satz_3_joined_a_competing_party_with_notice_skipped() {
    assert_st_skipped(
        st_abc_departed(hcand("S1-02", 2, 500).joined_other_party().party_notice("2026-01-15")),
        "joined_competing_party",
        ST_47_1_3,
    );
    assert_st_chosen_with(
        st_abc_departed(hcand("S1-02", 2, 500).joined_other_party()),
        vec![noted("S1-02", "joined_other_party_no_effect", ST_47_1_3)],
    );
}

#[test]
fn st_kvg_lsa_42_abs_1_nr_3_barred_successor_determined_and_must_end_the_bar() {
    let d =
        decide(&st_abc(hcand("S1-02", 2, 500).barred("Beschäftigte der Stadtverwaltung")), &query("S1-01")).unwrap();
    assert_decision(
        d,
        barred_successor("S1-02", "S1"),
        vec![
            skipped("S1-01", "departed", ST_41_1),
            chosen("S1-02", "most_votes", ST_41_2_1),
            noted("S1-02", "barred_must_prove_end", ST_BARRED),
        ],
    );
}

#[test]
fn st_kwg_lsa_47_abs_3_exhausted_wahlvorschlag_vacant_statutory_size_unchanged() {
    let body = sachsen_anhalt()
        .list(party(
            "S1",
            vec![
                hcand("S1-01", 1, 900).seated(SeatVia::List),
                hcand("S1-02", 2, 500).died(),
                cand("S1-03", 3).declined(),
            ],
        ))
        .body();
    let d = decide(&body, &query("S1-01")).unwrap();
    // § 49 Abs. 2 KWG LSA: an Ergänzungswahl restores the statutory number; it does not fall
    assert_decision(
        d,
        vacant(VacancyReason::ListExhausted, 44),
        vec![
            skipped("S1-01", "departed", ST_41_1),
            skipped("S1-02", "died", ST_41_1),
            skipped("S1-03", "declined", ST_48_1_1),
            finding("list_exhausted", ST_47_3),
        ],
    );
}

#[test]
fn st_kwg_lsa_41_abs_1_einzelbewerber_has_no_naechst_festgestellte_bewerber() {
    let body = sachsen_anhalt().list(individual("E1", hcand("E1-01", 1, 700).seated(SeatVia::List))).body();
    let d = decide(&body, &query("E1-01")).unwrap();
    assert_decision(d, vacant(VacancyReason::IndividualCandidate, 44), vec![finding("individual_candidate", ST_41_1)]);
}

#[test]
fn st_kwg_lsa_47_abs_2_nr_1_party_ban_seat_of_the_banned_partys_wahlvorschlag_vacant() {
    let body = st_abc(hcand("S1-02", 2, 500));
    let d = decide(&body, &query("S1-01").cause(Cause::PartyBan { list_banned: true })).unwrap();
    assert_decision(d, vacant(VacancyReason::PartyBanned, 44), vec![finding("party_banned", ST_47_2_1)]);
    let e = decide(&body, &query("S1-01").cause(Cause::Merger)).unwrap_err();
    assert!(matches!(e, DecideError::Cause(ref v) if v.field == "reason"), "{e:?}");
}

/// § 47 Abs. 2 Nr. 2 with § 48 Abs. 1 Satz 2 KWG LSA: a member of the banned party elected on another Wahlvorschlag
/// loses his seat; it passes on his Wahlvorschlag, past whoever belonged to the banned party when the judgment was
/// pronounced (`banned_party_member`: "scheidet … als nächst festgestellter Bewerber aus", for good), and the trail
/// asks the Wahlleitung to check the others' membership. Before issue 25's fourth pass `list_banned: false` was
/// refused.
#[test]
fn st_kwg_lsa_47_abs_2_nr_2_48_abs_1_satz_2_party_ban_seat_passes_past_the_banned_partys_members() {
    let banned = |on: &str| hcand("S1-02", 2, 500).fact(Fact::BannedPartyMember { on: d(on) });
    let body = st_abc(banned(FACT_DAY));
    let d = decide(&body, &query("S1-01").cause(Cause::PartyBan { list_banned: false })).unwrap();
    assert_decision(
        d,
        successor("S1-03", "S1"),
        vec![
            finding("party_ban_seat_passes", "§ 47 Abs. 2 KWG LSA"),
            finding("party_ban_members_to_check", "§ 47 Abs. 2 Nr. 2 KWG LSA"),
            skipped("S1-01", "departed", ST_41_1),
            skipped("S1-02", "banned_party_member", "§ 48 Abs. 1 Satz 2 i. V. m. § 47 Abs. 2 Nr. 2 KWG LSA"),
            chosen("S1-03", "most_votes", ST_41_2_1),
        ],
    );
    // out for good: an ordinary vacancy later passes him over as well
    let d = decide(&body, &query("S1-01")).unwrap();
    assert_eq!(d.outcome, successor("S1-03", "S1"), "{:#?}", d.trail);
    // a finding dated after the reference day has no effect yet
    let d = decide(&st_abc(banned("2099-01-01")), &query("S1-01")).unwrap();
    assert_eq!(d.outcome, successor("S1-02", "S1"), "{:#?}", d.trail);
}

#[test]
fn st_kwg_lsa_41_abs_2_satz_3_majority_by_votes_equal_votes_lot() {
    let majority = |second: i64| {
        sachsen_anhalt()
            .majority()
            .list(party(
                "S1",
                vec![hcand("S1-01", 1, 900).seated(SeatVia::List), hcand("S1-02", 2, second), hcand("S1-03", 3, 400)],
            ))
            .body()
    };
    let body = majority(400);
    let d = decide(&body, &query("S1-01")).unwrap();
    assert_eq!(d.outcome, Outcome::LotRequired { tied: vec!["S1-02".into(), "S1-03".into()] });
    assert!(d.trail.contains(&tied("S1-02", "equal_votes_lot", ST_LOT)));
    let d = decide(&body, &query("S1-01").lot("S1-03")).unwrap();
    assert_eq!(d.outcome, successor("S1-03", "S1"));
    assert!(d.trail.contains(&chosen("S1-03", "won_lot", ST_LOT)));
    let d = decide(&majority(300), &query("S1-01")).unwrap();
    assert_decision(
        d,
        successor("S1-03", "S1"),
        vec![skipped("S1-01", "departed", ST_41_1), chosen("S1-03", "most_votes", ST_41_2_3)],
    );
}

#[test]
fn st_kwg_lsa_41_abs_3_succession_order_with_the_same_exclusions() {
    let body = sachsen_anhalt()
        .list(party(
            "S1",
            vec![
                hcand("S1-01", 1, 900).seated(SeatVia::List),
                hcand("S1-02", 2, 100),
                hcand("S1-03", 3, 400).waived_written(),
                hcand("S1-04", 4, 200).left_party().party_notice("2026-01-15"),
                hcand("S1-05", 5, 150).left_party(),
            ],
        ))
        .body();
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["S1-05", "S1-02"]);
    let passed: Vec<(&str, &str)> =
        order.lists[0].passed_over.iter().map(|p| (p.candidate.as_str(), p.reason.as_str())).collect();
    assert_eq!(passed, vec![("S1-01", "already_called"), ("S1-03", "waived"), ("S1-04", "left_party_notified")]);
}

#[test]
fn st_validation_party_notice_only_in_sachsen_anhalt_no_ersatzbewerber() {
    let notice = || hcand("R1-02", 2, 5).party_notice("2026-01-15");
    let err = Body::from_snapshot(rheinland_pfalz().list(party("R1", vec![hcand("R1-01", 1, 5), notice()])).snapshot())
        .unwrap_err();
    assert_eq!(err.field, "lists[0].candidates[1].facts[0].type");
    let err = Body::from_snapshot(nrw().list(party("R1", vec![cand("R1-01", 1), notice()])).snapshot()).unwrap_err();
    assert_eq!(err.field, "lists[0].candidates[1].facts[0].type");
    let err = Body::from_snapshot(
        sachsen_anhalt()
            .list(party("S1", vec![hcand("S1-01", 1, 5), hcand("S1-02", 2, 4).substitute_for("S1-01")]))
            .snapshot(),
    )
    .unwrap_err();
    assert_eq!(err.field, "lists[0].candidates[1].substitute_for");
    let err = Body::from_snapshot(
        sachsen_anhalt()
            .majority()
            .list(party("S1", vec![hcand("S1-01", 1, 5)]))
            .list(party("S2", vec![hcand("S2-01", 1, 5)]))
            .snapshot(),
    )
    .unwrap_err();
    assert_eq!(err.field, "lists");
}
