//! Mecklenburg-Vorpommern — § 46 LKWG M-V with § 33 Abs. 2 LKWG M-V (docs/legal.md, "Mecklenburg-Vorpommern").
//! Included by tests/rules.rs; its helpers are the parent's.

use super::*;

const MV_46_2_1: &str = "§ 46 Abs. 2 Satz 1 LKWG M-V";
const MV_MOST_VOTES: &str = "§ 46 Abs. 2 Satz 1 i. V. m. § 33 Abs. 2 Satz 3 LKWG M-V";
const MV_TIE: &str = "§ 46 Abs. 2 Satz 1 i. V. m. § 33 Abs. 2 Satz 4 LKWG M-V";
const MV_33_2_2: &str = "§ 33 Abs. 2 Satz 2 LKWG M-V";
const MV_46_2_7: &str = "§ 46 Abs. 2 Satz 7 LKWG M-V";
const MV_NR_1: &str = "§ 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V";
const MV_NR_2: &str = "§ 46 Abs. 2 Satz 3 Nr. 2 LKWG M-V";
const MV_NR_3: &str = "§ 46 Abs. 2 Satz 3 Nr. 3 LKWG M-V";
const MV_EXHAUSTED: &str = "§ 46 Abs. 1, Abs. 2 Satz 1 LKWG M-V";
const MV_INDIVIDUAL: &str = "§ 33 Abs. 2 Satz 1 i. V. m. § 46 Abs. 1 LKWG M-V";
const MV_BARRED: &str = "§ 25 Abs. 1, 4 KV M-V";

/// MV Wahlvorschlag M1: M1-01 (pos. 1, 900 votes, seated, the departed), `second` (pos. 2, 500 votes), M1-03
/// (pos. 3, 300 votes).
fn mv_abc(second: Candidate) -> Body {
    mecklenburg_vorpommern()
        .list(party("M1", vec![hcand("M1-01", 1, 900).seated(SeatVia::List), second, hcand("M1-03", 3, 300)]))
        .body()
}

/// `mv_abc` after the worker recorded the departure of M1-01 on [`FACT_DAY`] (2026-02-01).
fn mv_abc_departed(second: Candidate) -> Body {
    mecklenburg_vorpommern()
        .list(party("M1", vec![hcand("M1-01", 1, 900).former_member(), second, hcand("M1-03", 3, 300)]))
        .body()
}

#[track_caller]
fn assert_mv_skipped(body: Body, reason: &str, citation: &str) {
    let d = decide(&body, &query("M1-01")).unwrap();
    assert_decision(
        d,
        successor("M1-03", "M1"),
        vec![
            skipped("M1-01", "departed", MV_46_2_1),
            skipped("M1-02", reason, citation),
            chosen("M1-03", "most_votes", MV_MOST_VOTES),
        ],
    );
}

#[track_caller]
fn assert_mv_chosen_with(body: Body, notes: Vec<TrailStep>) {
    let d = decide(&body, &query("M1-01")).unwrap();
    let mut trail = vec![skipped("M1-01", "departed", MV_46_2_1)];
    trail.extend(notes);
    trail.push(chosen("M1-02", "most_votes", MV_MOST_VOTES));
    assert_decision(d, successor("M1-02", "M1"), trail);
}

#[test]
fn mv_lkwg_33_abs_2_satz_3_most_votes_not_list_position() {
    let body = mecklenburg_vorpommern()
        .list(party(
            "M1",
            vec![hcand("M1-01", 1, 900).seated(SeatVia::List), hcand("M1-02", 2, 100), hcand("M1-03", 3, 400)],
        ))
        .body();
    let d = decide(&body, &query("M1-01")).unwrap();
    assert_decision(
        d,
        successor("M1-03", "M1"),
        vec![skipped("M1-01", "departed", MV_46_2_1), chosen("M1-03", "most_votes", MV_MOST_VOTES)],
    );
}

#[test]
fn mv_lkwg_33_abs_2_satz_4_equal_votes_the_order_on_the_wahlvorschlag_decides_no_lot() {
    let body = mecklenburg_vorpommern()
        .list(party(
            "M1",
            vec![
                hcand("M1-01", 1, 900).seated(SeatVia::List),
                hcand("M1-02", 2, 100),
                hcand("M1-04", 4, 400),
                hcand("M1-03", 3, 400),
            ],
        ))
        .body();
    let d = decide(&body, &query("M1-01")).unwrap();
    assert_decision(
        d,
        successor("M1-03", "M1"),
        vec![skipped("M1-01", "departed", MV_46_2_1), chosen("M1-03", "most_votes_list_order", MV_TIE)],
    );
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["M1-03", "M1-04", "M1-02"]);
    assert!(order.lists[0].lot_groups.is_empty());
}

#[test]
fn mv_lkwg_33_abs_2_satz_2_already_called_skipped() {
    assert_mv_skipped(mv_abc(hcand("M1-02", 2, 500).seated(SeatVia::List)), "already_called", MV_33_2_2);
    assert_mv_skipped(mv_abc(hcand("M1-02", 2, 500).former_member()), "already_called", MV_33_2_2);
    let d = decide(&mv_abc(hcand("M1-02", 2, 500)), &query("M1-01").pending("M1-02")).unwrap();
    assert!(d.trail.contains(&skipped("M1-02", "already_called", MV_33_2_2)));
}

#[test]
fn mv_lkwg_46_abs_2_satz_7_refusal_out_for_the_term() {
    assert_mv_skipped(mv_abc(hcand("M1-02", 2, 500).declined()), "declined", MV_46_2_7);
}

#[test]
fn mv_lkwg_46_abs_2_satz_3_nr_2_written_waiver_skipped_a_niederschrift_noted() {
    assert_mv_skipped(mv_abc(hcand("M1-02", 2, 500).waived_written()), "waived", MV_NR_2);
    assert_mv_chosen_with(
        mv_abc(hcand("M1-02", 2, 500).waived_recorded()),
        vec![noted("M1-02", "waiver_not_written", MV_NR_2)],
    );
}

#[test]
fn mv_lkwg_46_abs_2_satz_1_died_skipped() {
    assert_mv_skipped(mv_abc(hcand("M1-02", 2, 500).died()), "died", MV_46_2_1);
}

#[test]
fn mv_lkwg_46_abs_2_satz_3_nr_3_eligibility_lost_after_the_election_skipped_even_if_regained() {
    assert_mv_skipped(
        mv_abc(hcand("M1-02", 2, 500).ineligible(FACT_DAY, None)),
        "eligibility_lost_after_election",
        MV_NR_3,
    );
    assert_mv_skipped(
        mv_abc(hcand("M1-02", 2, 500).ineligible("2026-01-01", Some("2026-03-31"))),
        "eligibility_lost_after_election",
        MV_NR_3,
    );
}

#[test]
fn mv_lkwg_46_abs_2_satz_3_nr_1_party_exit_with_written_notice_before_the_vacancy_skipped() {
    // the seat became free on 2026-02-01; the party's notice reached the Wahlleitung on 2026-01-15
    assert_mv_skipped(
        mv_abc_departed(hcand("M1-02", 2, 500).left_party().party_notice("2026-01-15")),
        "left_party_notified",
        MV_NR_1,
    );
    let no_effect = vec![noted("M1-02", "left_party_no_effect", MV_NR_1)];
    // no notice, or a notice on or after the day the seat became free
    assert_mv_chosen_with(mv_abc_departed(hcand("M1-02", 2, 500).left_party()), no_effect.clone());
    for on in ["2026-02-01", "2026-03-01"] {
        assert_mv_chosen_with(mv_abc_departed(hcand("M1-02", 2, 500).left_party().party_notice(on)), no_effect.clone());
    }
}

#[test]
fn mv_lkwg_46_abs_2_satz_3_nr_1_leaving_a_waehlergruppe_has_no_effect() {
    // "aus der Partei": [decision] a Wählergruppe's Wahlvorschlag is not covered, notice or not
    let body = mecklenburg_vorpommern()
        .list(voter_group(
            "M1",
            vec![
                hcand("M1-01", 1, 900).former_member(),
                hcand("M1-02", 2, 500).left_party().party_notice("2026-01-15"),
                hcand("M1-03", 3, 300),
            ],
        ))
        .body();
    assert_mv_chosen_with(body, vec![noted("M1-02", "left_party_no_effect", MV_NR_1)]);
}

#[test]
fn mv_kv_25_abs_4_incompatibility_does_not_pass_over_and_asks_for_no_proof() {
    // § 25 Abs. 4 KV M-V: the membership rests until the incompatible post is given up; § 46 with § 34 LKWG
    // M-V has no proof step — the successor is not `barred` (issue 25, point 2)
    let body = mv_abc(hcand("M1-02", 2, 500).barred("Bediensteter der Gemeinde"));
    let d = decide(&body, &query("M1-01")).unwrap();
    assert_decision(
        d,
        successor("M1-02", "M1"),
        vec![
            skipped("M1-01", "departed", MV_46_2_1),
            chosen("M1-02", "most_votes", MV_MOST_VOTES),
            noted("M1-02", "incompatibility_holds_up_nothing", MV_BARRED),
        ],
    );
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order.first().map(String::as_str), Some("M1-02"));
    assert!(order.lists[0].notes.contains(&noted("M1-02", "incompatibility_holds_up_nothing", MV_BARRED)));
    assert!(!order.lists[0].notes.iter().any(|n| n.reason == "barred_must_prove_end"));
}

#[test]
fn mv_lkwg_46_abs_1_no_ersatzperson_left_freibleiben_statutory_size_unchanged() {
    let body = mecklenburg_vorpommern()
        .list(party(
            "M1",
            vec![
                hcand("M1-01", 1, 900).seated(SeatVia::List),
                hcand("M1-02", 2, 500).died(),
                hcand("M1-03", 3, 1).declined(),
            ],
        ))
        .body();
    let d = decide(&body, &query("M1-01")).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::ListExhausted, 44),
        vec![
            skipped("M1-01", "departed", MV_46_2_1),
            skipped("M1-02", "died", MV_46_2_1),
            skipped("M1-03", "declined", MV_46_2_7),
            finding("list_exhausted", MV_EXHAUSTED),
        ],
    );
}

#[test]
fn mv_lkwg_33_abs_2_satz_1_einzelbewerber_has_no_ersatzpersonen() {
    let body = mecklenburg_vorpommern()
        .list(individual("E1", hcand("E1-01", 1, 700).seated(SeatVia::List)))
        .list(party("M1", vec![hcand("M1-01", 1, 900).seated(SeatVia::List), hcand("M1-02", 2, 500)]))
        .body();
    let d = decide(&body, &query("E1-01")).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::IndividualCandidate, 44),
        vec![finding("individual_candidate", MV_INDIVIDUAL)],
    );
}

#[test]
fn mv_lkwg_46_succession_order_with_the_same_exclusions() {
    let body = mecklenburg_vorpommern()
        .list(party(
            "M1",
            vec![
                hcand("M1-01", 1, 900).seated(SeatVia::List),
                hcand("M1-02", 2, 100),
                hcand("M1-03", 3, 400).waived_written(),
                hcand("M1-04", 4, 200).left_party().party_notice("2026-01-15"),
                hcand("M1-05", 5, 150).left_party(),
            ],
        ))
        .body();
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["M1-05", "M1-02"]);
    let passed: Vec<(&str, &str)> =
        order.lists[0].passed_over.iter().map(|p| (p.candidate.as_str(), p.reason.as_str())).collect();
    assert_eq!(passed, vec![("M1-01", "already_called"), ("M1-03", "waived"), ("M1-04", "left_party_notified")]);
}

#[test]
fn mv_validation_votes_required_no_majority_election_no_merger() {
    let err =
        Body::from_snapshot(mecklenburg_vorpommern().list(party("M1", vec![cand("M1-01", 1)])).snapshot()).unwrap_err();
    assert_eq!(err.field, "lists[0].candidates[0].votes");
    let err = Body::from_snapshot(
        mecklenburg_vorpommern().majority().list(party("M1", vec![hcand("M1-01", 1, 5)])).snapshot(),
    )
    .unwrap_err();
    assert_eq!(err.field, "body.electoral_system");
    // § 60 Abs. 1 Satz 1 LKWG M-V: no majority election for a kommunale Vertretung (issue 25, point 6)
    assert!(err.problem.contains("§ 60 Abs. 1 Satz 1 LKWG M-V"), "{}", err.problem);
    let err = Body::from_snapshot(
        mecklenburg_vorpommern()
            .list(party("M1", vec![hcand("M1-01", 1, 5), hcand("M1-02", 2, 4).substitute_for("M1-01")]))
            .snapshot(),
    )
    .unwrap_err();
    assert_eq!(err.field, "lists[0].candidates[1].substitute_for");
    let body = mv_abc(hcand("M1-02", 2, 500));
    let e = decide(&body, &query("M1-01").cause(Cause::Merger)).unwrap_err();
    assert!(matches!(e, DecideError::Cause(ref v) if v.field == "reason"), "{e:?}");
}

/// § 47 Abs. 1 Satz 1 LKWG M-V: "so verlieren die Mitglieder … ihren Sitz und die Listennachfolger ihre
/// Anwartschaft" — an Ersatzperson recorded as a member of the banned party is passed over for good; a ban
/// that takes effect after the reference day does not pass him over yet.
#[test]
fn mv_47_abs_1_satz_1_listennachfolger_of_the_banned_party_loses_the_anwartschaft() {
    let banned = |on: &str| hcand("M1-02", 2, 500).fact(Fact::BannedPartyMember { on: d(on) });
    assert_mv_skipped(mv_abc(banned(FACT_DAY)), "banned_party_member", "§ 47 Abs. 1 LKWG M-V");
    let d = decide(&mv_abc(banned("2026-07-01")), &query("M1-01")).unwrap();
    assert_eq!(d.outcome, successor("M1-02", "M1"), "{:#?}", d.trail);
}

/// § 65 Abs. 1 Nr. 5 with § 46 Abs. 1 LKWG M-V: a kommunale Vertretung's seat lost through a party ban passes
/// to the next Ersatzperson of the departed's Wahlvorschlag, as every seat lost under § 65 does (§ 47 Abs. 2, seats
/// left vacant and a smaller size, governs the Landtag only). Whoever belonged to the banned party is passed over
/// (§ 47 Abs. 1 Satz 1); on the banned party's own Wahlvorschlag the trail asks the Wahlleitung to check the
/// others' membership, which the snapshot does not hold.
#[test]
fn mv_65_abs_1_nr_5_46_abs_1_lkwg_a_seat_lost_through_a_party_ban_passes_to_the_next_ersatzperson() {
    const SEAT: &str = "§ 46 Abs. 1 i. V. m. § 65 Abs. 1 Nr. 5 LKWG M-V";
    const MEMBERS: &str = "§ 47 Abs. 1 Satz 1 LKWG M-V";
    // elected for a party not banned: the ordinary succession, noted as such
    let body = mv_abc(hcand("M1-02", 2, 500));
    let dec = decide(&body, &query("M1-01").cause(Cause::PartyBan { list_banned: false })).unwrap();
    assert_decision(
        dec,
        successor("M1-02", "M1"),
        vec![
            finding("party_ban_seat_passes", SEAT),
            skipped("M1-01", "departed", MV_46_2_1),
            chosen("M1-02", "most_votes", MV_MOST_VOTES),
        ],
    );
    // the banned party's own Wahlvorschlag: its members among the Ersatzpersonen are out, a non-member succeeds
    let banned = hcand("M1-02", 2, 500).fact(Fact::BannedPartyMember { on: d(FACT_DAY) });
    let dec = decide(&mv_abc(banned), &query("M1-01").cause(Cause::PartyBan { list_banned: true })).unwrap();
    assert_decision(
        dec,
        successor("M1-03", "M1"),
        vec![
            finding("party_ban_seat_passes", SEAT),
            finding("party_ban_members_to_check", MEMBERS),
            skipped("M1-01", "departed", MV_46_2_1),
            skipped("M1-02", "banned_party_member", "§ 47 Abs. 1 LKWG M-V"),
            chosen("M1-03", "most_votes", MV_MOST_VOTES),
        ],
    );
    // every Ersatzperson belonged to it: the seat stays free, the statutory size unchanged (§ 46 Abs. 1)
    let body = mecklenburg_vorpommern()
        .list(party(
            "M1",
            vec![
                hcand("M1-01", 1, 900).seated(SeatVia::List),
                hcand("M1-02", 2, 500).fact(Fact::BannedPartyMember { on: d(FACT_DAY) }),
            ],
        ))
        .body();
    let dec = decide(&body, &query("M1-01").cause(Cause::PartyBan { list_banned: true })).unwrap();
    assert_eq!(dec.outcome, vacant(VacancyReason::ListExhausted, body.info().statutory_size), "{:#?}", dec.trail);
}

/// § 46 Abs. 2 Satz 4, 5 LKWG M-V: "Legt sie erforderliche Nachweise nicht in einer von der Wahlleitung gesetzten
/// angemessenen Frist vor, kann die Wahlleitung feststellen, dass sie als Ersatzperson für die Wahlperiode
/// ausscheidet" — recorded as `substitute_status_lost` (ground `proofs_not_supplied`, `on`: the finding), he is
/// passed over from the finding on; before it he is called (issue 25, point 11).
#[test]
fn mv_46_abs_2_satz_5_lkwg_an_ersatzperson_found_without_the_required_proofs_is_out_for_the_term() {
    let lost = |on: &str| {
        hcand("M1-02", 2, 500)
            .fact(Fact::SubstituteStatusLost { on: d(on), ground: StatusLossGround::ProofsNotSupplied })
    };
    assert_mv_skipped(mv_abc(lost(FACT_DAY)), "proofs_not_supplied", "§ 46 Abs. 2 Satz 5 LKWG M-V");
    // a finding after the reference day does not count yet
    let later = decide(&mv_abc(lost("2026-07-01")), &query("M1-01")).unwrap();
    assert_eq!(later.outcome, successor("M1-02", "M1"), "{:#?}", later.trail);
    assert_eq!(
        nachfolge_core::texts::reason_de("proofs_not_supplied"),
        "hat die erforderlichen Nachweise nicht in der gesetzten Frist vorgelegt; die Wahlleitung hat festgestellt, dass sie oder er als Ersatzperson für die Wahlperiode ausscheidet"
    );
    // the other Land's ground is refused, naming the field
    let other = mecklenburg_vorpommern()
        .list(party(
            "M1",
            vec![hcand("M1-01", 1, 9)
                .fact(Fact::SubstituteStatusLost { on: d(FACT_DAY), ground: StatusLossGround::DirectOfficeAccepted })],
        ))
        .snapshot();
    assert_eq!(Body::from_snapshot(other).unwrap_err().field, "lists[0].candidates[0].facts[0].ground");
}
