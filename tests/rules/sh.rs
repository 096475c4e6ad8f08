//! Schleswig-Holstein — § 44 GKWG with §§ 37, 43, 45 GKWG and § 31a GO (docs/legal.md, "Schleswig-Holstein").
//! Included by tests/rules.rs; its helpers are the parent's.

use super::*;

const SH_44_1: &str = "§ 44 Abs. 1 GKWG";
const SH_44_2: &str = "§ 44 Abs. 2 GKWG";
const SH_44_1_43_2_2: &str = "§ 44 Abs. 1 i. V. m. § 43 Abs. 2 Satz 2 GKWG";
const SH_44_1_37_3: &str = "§ 44 Abs. 1 i. V. m. § 37 Satz 3 GKWG";
const SH_44_1_37_1_3: &str = "§ 44 Abs. 1 i. V. m. § 37 Satz 1 und 3 GKWG";
const SH_44_1_6: &str = "§ 44 Abs. 1 i. V. m. § 6 GKWG";
const SH_37_1: &str = "§ 37 Satz 1 GKWG";
const SH_45: &str = "§ 45 GKWG";
const SH_37A_1: &str = "§ 31a Abs. 1 GO i. V. m. § 37a Abs. 1 Satz 1 GKWG";

/// SH party list K1: K1-01 (pos. 1, seated via the list, the departed), `second` (pos. 2), K1-03 (pos. 3).
/// Votes are recorded but play no part (closed lists).
fn sh_abc(second: Candidate) -> Body {
    schleswig_holstein()
        .list(party("K1", vec![hcand("K1-01", 1, 900).seated(SeatVia::List), second, hcand("K1-03", 3, 5000)]))
        .body()
}

#[track_caller]
fn assert_sh_skipped(second: Candidate, reason: &str, citation: &str) {
    let d = decide(&sh_abc(second), &query("K1-01")).unwrap();
    assert_decision(
        d,
        successor("K1-03", "K1"),
        vec![
            skipped("K1-01", "departed", SH_44_1),
            skipped("K1-02", reason, citation),
            chosen("K1-03", "next_on_list", SH_44_1),
        ],
    );
}

#[track_caller]
fn assert_sh_chosen_with(second: Candidate, notes: Vec<TrailStep>) {
    let d = decide(&sh_abc(second), &query("K1-01")).unwrap();
    let mut trail = vec![skipped("K1-01", "departed", SH_44_1)];
    trail.extend(notes);
    trail.push(chosen("K1-02", "next_on_list", SH_44_1));
    assert_decision(d, successor("K1-02", "K1"), trail);
}

#[test]
fn sh_gkwg_44_abs_1_next_candidate_on_the_list_by_position_not_by_votes() {
    assert_sh_chosen_with(hcand("K1-02", 2, 1), vec![]);
}

#[test]
fn sh_gkwg_44_abs_1_a_directly_elected_member_is_succeeded_from_his_party_list() {
    let body = schleswig_holstein()
        .list(party(
            "K1",
            vec![
                off_list("K1-W1").district("WK 3").seated(SeatVia::District),
                cand("K1-01", 1).seated(SeatVia::District),
                cand("K1-02", 2),
            ],
        ))
        .body();
    for departed in ["K1-W1", "K1-01"] {
        let d = decide(&body, &query(departed)).unwrap();
        assert_eq!(d.outcome, successor("K1-02", "K1"), "{departed}");
    }
}

#[test]
fn sh_gkwg_44_abs_1_a_candidate_who_won_a_wahlkreis_is_passed_over() {
    assert_sh_skipped(cand("K1-02", 2).seated(SeatVia::District), "seated", SH_44_1);
}

#[test]
fn sh_gkwg_44_abs_1_43_abs_2_a_former_member_is_passed_over() {
    assert_sh_skipped(cand("K1-02", 2).former_member(), "former_member", SH_44_1_43_2_2);
}

#[test]
fn sh_gkwg_44_abs_1_a_candidate_called_to_another_vacancy_is_passed_over() {
    let d = decide(&sh_abc(cand("K1-02", 2)), &query("K1-01").pending("K1-02")).unwrap();
    assert_eq!(d.outcome, successor("K1-03", "K1"));
    assert!(d.trail.contains(&skipped("K1-02", "already_called", SH_44_1)));
}

#[test]
fn sh_gkwg_37_satz_3_a_refusal_passes_him_over_for_the_wahlzeit() {
    assert_sh_skipped(cand("K1-02", 2).declined(), "declined", SH_44_1_37_3);
}

#[test]
fn sh_gkwg_37_satz_1_a_written_waiver_is_a_refusal_in_advance() {
    assert_sh_skipped(cand("K1-02", 2).waived_written(), "waived", SH_44_1_37_1_3);
}

#[test]
fn sh_gkwg_37_satz_1_a_waiver_not_in_writing_has_no_effect() {
    assert_sh_chosen_with(cand("K1-02", 2).waived_recorded(), vec![noted("K1-02", "waiver_not_written", SH_37_1)]);
}

#[test]
fn sh_gkwg_44_abs_1_a_candidate_who_died_is_passed_over() {
    assert_sh_skipped(cand("K1-02", 2).died(), "died", SH_44_1);
}

#[test]
fn sh_gkwg_6_not_eligible_on_the_reference_day_is_passed_over_eligible_again_is_not() {
    assert_sh_skipped(cand("K1-02", 2).ineligible(FACT_DAY, None), "ineligible", SH_44_1_6);
    // eligible again on the reference day: no rule of the GKWG keeps him out
    assert_sh_chosen_with(cand("K1-02", 2).ineligible("2026-01-01", Some("2026-03-01")), vec![]);
}

#[test]
fn sh_gkwg_44_abs_1_leaving_or_changing_the_party_has_no_effect() {
    assert_sh_chosen_with(
        cand("K1-02", 2).left_party().joined_other_party(),
        vec![noted("K1-02", "left_party_no_effect", SH_44_1), noted("K1-02", "joined_other_party_no_effect", SH_44_1)],
    );
}

#[test]
fn sh_gkwg_44_abs_1_a_party_notice_is_refused_by_validation() {
    let snap = schleswig_holstein()
        .list(party("K1", vec![cand("K1-01", 1).seated(SeatVia::List), cand("K1-02", 2).party_notice(FACT_DAY)]))
        .snapshot();
    let e = Body::from_snapshot(snap).unwrap_err();
    assert_eq!(e.field, "lists[0].candidates[1].facts[0].type");
}

/// § 37a Abs. 1 Satz 1 GKWG: an Unvereinbarkeit (§ 31a Abs. 1 GO) passes nobody over, but the successor is
/// `barred`: he acquires membership only with the written proof of the leave or of another post.
#[test]
fn sh_gkwg_37a_abs_1_an_unvereinbarkeit_passes_nobody_over_and_holds_up_membership_until_the_proof() {
    let d = decide(&sh_abc(cand("K1-02", 2).barred("Beschäftigte der Gemeinde")), &query("K1-01")).unwrap();
    let trail = vec![
        skipped("K1-01", "departed", SH_44_1),
        noted("K1-02", "barred_must_prove_leave", SH_37A_1),
        chosen("K1-02", "next_on_list", SH_44_1),
    ];
    assert_decision(d, barred_successor("K1-02", "K1"), trail);
}

#[test]
fn sh_gkwg_44_abs_2_an_exhausted_list_leaves_the_seat_empty_size_unchanged() {
    let d = decide(&sh_abc(cand("K1-02", 2).died()), &query("K1-01").pending("K1-03")).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::ListExhausted, 44),
        vec![
            skipped("K1-01", "departed", SH_44_1),
            skipped("K1-02", "died", SH_44_1),
            skipped("K1-03", "already_called", SH_44_1),
            finding("list_exhausted", SH_44_2),
        ],
    );
}

#[test]
fn sh_gkwg_44_abs_2_no_list_behind_an_einzelbewerber_leaves_the_seat_empty() {
    let body = schleswig_holstein()
        .list(individual("E1", off_list("E1-01").district("WK 1").seated(SeatVia::District)))
        .list(party("K1", vec![cand("K1-01", 1)]))
        .body();
    let d = decide(&body, &query("E1-01")).unwrap();
    assert_decision(d, vacant(VacancyReason::IndividualCandidate, 44), vec![finding("individual_candidate", SH_44_2)]);
}

#[test]
fn sh_gkwg_45_party_ban_a_list_seat_stays_empty_a_wahlkreis_goes_to_a_nachwahl() {
    let body = sh_abc(cand("K1-02", 2));
    let d = decide(&body, &query("K1-01").cause(Cause::PartyBan { list_banned: true })).unwrap();
    assert_decision(d, vacant(VacancyReason::PartyBanned, 44), vec![finding("party_banned", SH_45)]);
    let e =
        decide(&body, &query("K1-01").via(SeatVia::District).cause(Cause::PartyBan { list_banned: true })).unwrap_err();
    assert!(e.to_string().contains("Nachwahl"), "{e}");
    let e = decide(&body, &query("K1-01").cause(Cause::PartyBan { list_banned: false })).unwrap_err();
    assert!(e.to_string().contains("list_banned"), "{e}");
    let e = decide(&body, &query("K1-01").cause(Cause::Merger)).unwrap_err();
    assert!(e.to_string().contains("merger"), "{e}");
}

#[test]
fn sh_gkwg_44_abs_1_succession_order_with_the_same_exclusions() {
    let body = schleswig_holstein()
        .list(party(
            "K1",
            vec![
                cand("K1-01", 1).seated(SeatVia::List),
                cand("K1-02", 2).declined(),
                cand("K1-03", 3).left_party(),
                cand("K1-04", 4),
            ],
        ))
        .list(individual("E1", off_list("E1-01").seated(SeatVia::District)))
        .body();
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["K1-03", "K1-04"]);
    let passed: Vec<(&str, &str)> =
        order.lists[0].passed_over.iter().map(|p| (p.candidate.as_str(), p.reason.as_str())).collect();
    assert_eq!(passed, vec![("K1-01", "seated"), ("K1-02", "declined")]);
    assert!(order.lists[0].notes.contains(&noted("K1-03", "left_party_no_effect", SH_44_1)));
    assert!(order.lists[1].order.is_empty());
    assert_eq!(order.lists[1].notes, vec![finding("individual_candidate", SH_44_2)]);
}

#[test]
fn sh_gkwg_validation_refuses_what_schleswig_holstein_does_not_know() {
    let base =
        || schleswig_holstein().list(party("K1", vec![cand("K1-01", 1).seated(SeatVia::List), cand("K1-02", 2)]));
    let e = Body::from_snapshot(base().majority().snapshot()).unwrap_err();
    assert_eq!(e.field, "body.electoral_system");
    let e =
        Body::from_snapshot(base().with(|s| s.lists[0].candidates[1].substitute_for = Some("K1-01".into())).snapshot())
            .unwrap_err();
    assert_eq!(e.field, "lists[0].candidates[1].substitute_for");
    let e = Body::from_snapshot(
        base().with(|s| s.lists[0].candidates[0].seat.as_mut().unwrap().via = SeatVia::PersonalVote).snapshot(),
    )
    .unwrap_err();
    assert_eq!(e.field, "lists[0].candidates[0].seat.via");
    // the example is valid
    let path = format!("{}/examples/sh-election.json", env!("CARGO_MANIFEST_DIR"));
    parse_snapshot(&std::fs::read(path).unwrap()).and_then(Body::from_snapshot).unwrap();
}

#[test]
fn sh_sftg_2_holidays_reformationstag_but_no_fronleichnam_or_allerheiligen() {
    use nachfolge::model::Land;
    assert_eq!(Land::Sh.holiday_name(d("2028-10-31")), Some("Reformationstag"));
    assert_eq!(Land::Sh.holidays(2026).len(), 10);
    for day in ["2026-06-04", "2026-11-01", "2026-01-06", "2026-11-18", "2026-08-15"] {
        assert!(!Land::Sh.is_public_holiday(d(day)), "SH {day}");
    }
    assert_eq!(serde_json::from_str::<Land>("\"SH\"").ok(), Some(Land::Sh));
}
