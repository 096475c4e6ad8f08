//! Brandenburg — § 60 BbgKWahlG with §§ 61, 62 BbgKWahlG (docs/legal.md, "Brandenburg").
//! Included by tests/rules.rs; its helpers are the parent's.

use super::*;

const BB_60_1: &str = "§ 60 Abs. 1 BbgKWahlG";
const BB_MOST_VOTES: &str = "§ 60 Abs. 2 Satz 1 Halbsatz 1, Abs. 3 Satz 1 BbgKWahlG";
const BB_TIE: &str = "§ 60 Abs. 2 Satz 1 Halbsatz 2 BbgKWahlG";
const BB_60_4: &str = "§ 60 Abs. 4 BbgKWahlG";
const BB_61_1: &str = "§ 61 Abs. 1 BbgKWahlG";
const BB_61_2: &str = "§ 61 Abs. 2 BbgKWahlG";
const BB_61_3: &str = "§ 61 Abs. 3 Satz 1 BbgKWahlG";
const BB_EXHAUSTED: &str = "§ 60 Abs. 5 Satz 1 BbgKWahlG, § 80 Abs. 3 BbgKWahlV";
const BB_SIZE: &str = "§ 60 Abs. 5 Satz 2 BbgKWahlG";
const BB_BARRED: &str = "§ 12 Abs. 1 bis 3 i. V. m. § 51 Abs. 2 Satz 1 bis 4 BbgKWahlG";

/// BB Wahlvorschlag B1: B1-01 (pos. 1, 900 votes, seated, the departed), `second` (pos. 2, 500 votes), B1-03
/// (pos. 3, 300 votes).
fn bb_abc(second: Candidate) -> Body {
    brandenburg()
        .list(party("B1", vec![hcand("B1-01", 1, 900).seated(SeatVia::List), second, hcand("B1-03", 3, 300)]))
        .body()
}

/// `bb_abc` after the worker recorded the departure of B1-01 on [`FACT_DAY`] (2026-02-01).
fn bb_abc_departed(second: Candidate) -> Body {
    brandenburg().list(party("B1", vec![hcand("B1-01", 1, 900).former_member(), second, hcand("B1-03", 3, 300)])).body()
}

#[track_caller]
fn assert_bb_skipped(body: Body, reason: &str, citation: &str) {
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-03", "B1"),
        vec![
            skipped("B1-01", "departed", BB_60_1),
            skipped("B1-02", reason, citation),
            chosen("B1-03", "most_votes", BB_MOST_VOTES),
        ],
    );
}

#[track_caller]
fn assert_bb_chosen_with(body: Body, notes: Vec<TrailStep>) {
    let d = decide(&body, &query("B1-01")).unwrap();
    let mut trail = vec![skipped("B1-01", "departed", BB_60_1)];
    trail.extend(notes);
    trail.push(chosen("B1-02", "most_votes", BB_MOST_VOTES));
    assert_decision(d, successor("B1-02", "B1"), trail);
}

#[test]
fn bb_bbgkwahlg_60_abs_2_satz_1_most_votes_not_list_position() {
    let body = brandenburg()
        .list(party(
            "B1",
            vec![hcand("B1-01", 1, 900).seated(SeatVia::List), hcand("B1-02", 2, 100), hcand("B1-03", 3, 400)],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-03", "B1"),
        vec![skipped("B1-01", "departed", BB_60_1), chosen("B1-03", "most_votes", BB_MOST_VOTES)],
    );
}

#[test]
fn bb_bbgkwahlg_60_abs_2_satz_1_halbsatz_2_equal_votes_the_order_on_the_wahlvorschlag_decides_no_lot() {
    let body = brandenburg()
        .list(party(
            "B1",
            vec![
                hcand("B1-01", 1, 900).seated(SeatVia::List),
                hcand("B1-02", 2, 100),
                hcand("B1-04", 4, 400),
                hcand("B1-03", 3, 400),
            ],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-03", "B1"),
        vec![skipped("B1-01", "departed", BB_60_1), chosen("B1-03", "most_votes_list_order", BB_TIE)],
    );
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["B1-03", "B1-04", "B1-02"]);
    assert!(order.lists[0].lot_groups.is_empty());
}

#[test]
fn bb_bbgkwahlg_60_abs_2_satz_2_candidates_without_votes_follow_in_list_order() {
    // "Bewerbende ohne Stimmenzahlen schließen sich an; ihre Reihenfolge bestimmt sich nach der Reihenfolge
    // auf dem Wahlvorschlag"
    let body = brandenburg()
        .list(party(
            "B1",
            vec![
                hcand("B1-01", 1, 900).seated(SeatVia::List),
                cand("B1-02", 2),
                hcand("B1-03", 3, 5),
                cand("B1-04", 4),
            ],
        ))
        .body();
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["B1-03", "B1-02", "B1-04"]);
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-03", "B1"));
    // with the voted candidate gone, the first one without votes by list position
    let body = brandenburg()
        .list(party(
            "B1",
            vec![
                hcand("B1-01", 1, 900).seated(SeatVia::List),
                cand("B1-04", 4),
                cand("B1-02", 2),
                hcand("B1-03", 3, 5).died(),
            ],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-02", "B1"));
}

#[test]
fn bb_bbgkwahlg_60_abs_1_already_called_skipped() {
    assert_bb_skipped(bb_abc(hcand("B1-02", 2, 500).seated(SeatVia::List)), "already_called", BB_60_1);
    assert_bb_skipped(bb_abc(hcand("B1-02", 2, 500).former_member()), "already_called", BB_60_1);
    let d = decide(&bb_abc(hcand("B1-02", 2, 500)), &query("B1-01").pending("B1-02")).unwrap();
    assert!(d.trail.contains(&skipped("B1-02", "already_called", BB_60_1)));
}

#[test]
fn bb_bbgkwahlg_61_abs_1_refusal_loses_the_anwartschaft() {
    assert_bb_skipped(bb_abc(hcand("B1-02", 2, 500).declined()), "declined", BB_61_1);
}

#[test]
fn bb_bbgkwahlg_61_abs_2_written_waiver_skipped_a_niederschrift_noted() {
    assert_bb_skipped(bb_abc(hcand("B1-02", 2, 500).waived_written()), "waived", BB_61_2);
    assert_bb_chosen_with(
        bb_abc(hcand("B1-02", 2, 500).waived_recorded()),
        vec![noted("B1-02", "waiver_not_written", BB_61_2)],
    );
}

#[test]
fn bb_bbgkwahlg_60_abs_1_died_skipped() {
    assert_bb_skipped(bb_abc(hcand("B1-02", 2, 500).died()), "died", BB_60_1);
}

#[test]
fn bb_bbgkwahlg_61_abs_3_satz_1_eligibility_lost_skipped_even_if_regained() {
    assert_bb_skipped(bb_abc(hcand("B1-02", 2, 500).ineligible(FACT_DAY, None)), "ineligible", BB_61_3);
    // lost after the election and regained before the reference day: the Anwartschaft is gone for good
    assert_bb_skipped(
        bb_abc(hcand("B1-02", 2, 500).ineligible("2026-01-01", Some("2026-03-31"))),
        "eligibility_lost_after_election",
        BB_61_3,
    );
}

#[test]
fn bb_bbgkwahlg_60_abs_4_party_exit_with_written_notice_before_the_vacancy_skipped() {
    // the seat became free on 2026-02-01; the party's notice reached the Wahlleiter on 2026-01-15
    assert_bb_skipped(
        bb_abc_departed(hcand("B1-02", 2, 500).left_party().party_notice("2026-01-15")),
        "left_party_notified",
        BB_60_4,
    );
    let no_effect = vec![noted("B1-02", "left_party_no_effect", BB_60_4)];
    // no notice, or a notice on or after the day the seat became free
    assert_bb_chosen_with(bb_abc_departed(hcand("B1-02", 2, 500).left_party()), no_effect.clone());
    for on in ["2026-02-01", "2026-03-01"] {
        assert_bb_chosen_with(bb_abc_departed(hcand("B1-02", 2, 500).left_party().party_notice(on)), no_effect.clone());
    }
    // joining another party is not named in § 60 Abs. 4
    assert_bb_chosen_with(
        bb_abc_departed(hcand("B1-02", 2, 500).joined_other_party().party_notice("2026-01-15")),
        vec![noted("B1-02", "joined_other_party_no_effect", BB_60_4)],
    );
}

#[test]
fn bb_bbgkwahlg_60_abs_4_leaving_a_waehlergruppe_has_no_effect() {
    // "aus der Partei": [decision] a Wählergruppe's Wahlvorschlag is not covered, notice or not
    let body = brandenburg()
        .list(voter_group(
            "B1",
            vec![
                hcand("B1-01", 1, 900).former_member(),
                hcand("B1-02", 2, 500).left_party().party_notice("2026-01-15"),
                hcand("B1-03", 3, 300),
            ],
        ))
        .body();
    assert_bb_chosen_with(body, vec![noted("B1-02", "left_party_no_effect", BB_60_4)]);
}

#[test]
fn bb_bbgkwahlg_12_incompatibility_does_not_pass_over_proof_under_51_abs_2() {
    let d = decide(&bb_abc(hcand("B1-02", 2, 500).barred("Beschäftigte der Stadt")), &query("B1-01")).unwrap();
    assert_decision(
        d,
        barred_successor("B1-02", "B1"),
        vec![
            skipped("B1-01", "departed", BB_60_1),
            chosen("B1-02", "most_votes", BB_MOST_VOTES),
            noted("B1-02", "barred_must_prove_end", BB_BARRED),
        ],
    );
}

#[test]
fn bb_bbgkwahlg_60_abs_5_no_ersatzperson_left_seat_unbesetzt_statutory_size_reduced() {
    let body = brandenburg()
        .list(party(
            "B1",
            vec![
                hcand("B1-01", 1, 900).seated(SeatVia::List),
                hcand("B1-02", 2, 500).died(),
                hcand("B1-03", 3, 1).declined(),
            ],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::ListExhausted, 43),
        vec![
            skipped("B1-01", "departed", BB_60_1),
            skipped("B1-02", "died", BB_60_1),
            skipped("B1-03", "declined", BB_61_1),
            finding("list_exhausted", BB_EXHAUSTED),
            finding("statutory_size_reduced", BB_SIZE),
        ],
    );
}

#[test]
fn bb_bbgkwahlg_60_abs_1_einzelbewerber_has_no_ersatzpersonen() {
    let body = brandenburg()
        .list(individual("E1", hcand("E1-01", 1, 700).seated(SeatVia::List)))
        .list(party("B1", vec![hcand("B1-01", 1, 900).seated(SeatVia::List), hcand("B1-02", 2, 500)]))
        .body();
    let d = decide(&body, &query("E1-01")).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::IndividualCandidate, 43),
        vec![finding("individual_candidate", BB_60_1), finding("statutory_size_reduced", BB_SIZE)],
    );
}

#[test]
fn bb_bbgkwahlg_62_abs_3_party_ban_seat_stays_unbesetzt_whatever_the_wahlvorschlag() {
    let body = bb_abc(hcand("B1-02", 2, 500));
    for list_banned in [true, false] {
        let d = decide(&body, &query("B1-01").cause(Cause::PartyBan { list_banned })).unwrap();
        assert_decision(
            d,
            vacant(VacancyReason::PartyBanned, 43),
            vec![
                finding("party_banned", "§ 62 Abs. 3 Satz 1 BbgKWahlG"),
                finding("statutory_size_reduced", "§ 62 Abs. 3 Satz 2 BbgKWahlG"),
            ],
        );
    }
}

#[test]
fn bb_bbgkwahlg_60_succession_order_with_the_same_exclusions() {
    let body = brandenburg()
        .list(party(
            "B1",
            vec![
                hcand("B1-01", 1, 900).seated(SeatVia::List),
                hcand("B1-02", 2, 100),
                hcand("B1-03", 3, 400).waived_written(),
                hcand("B1-04", 4, 200).left_party().party_notice("2026-01-15"),
                hcand("B1-05", 5, 150).left_party(),
            ],
        ))
        .body();
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[0].order, vec!["B1-05", "B1-02"]);
    let passed: Vec<(&str, &str)> =
        order.lists[0].passed_over.iter().map(|p| (p.candidate.as_str(), p.reason.as_str())).collect();
    assert_eq!(passed, vec![("B1-01", "already_called"), ("B1-03", "waived"), ("B1-04", "left_party_notified")]);
}

#[test]
fn bb_validation_no_ersatzbewerber_no_merger_votes_optional() {
    let err = Body::from_snapshot(
        brandenburg()
            .list(party("B1", vec![hcand("B1-01", 1, 5), hcand("B1-02", 2, 4).substitute_for("B1-01")]))
            .snapshot(),
    )
    .unwrap_err();
    assert_eq!(err.field, "lists[0].candidates[1].substitute_for");
    assert!(Body::from_snapshot(brandenburg().list(party("B1", vec![cand("B1-01", 1)])).snapshot()).is_ok());
    let e = decide(&bb_abc(hcand("B1-02", 2, 500)), &query("B1-01").cause(Cause::Merger)).unwrap_err();
    assert!(matches!(e, DecideError::Cause(ref v) if v.field == "reason"), "{e:?}");
}

/// § 62 Abs. 1, 2 BbgKWahlG: "verlieren … die Ersatzpersonen ihre Anwartschaft, sofern sie dieser Partei …
/// angehört haben" — recorded as `banned_party_member`, he is passed over in every later succession.
#[test]
fn bb_bbgkwahlg_62_abs_1_ersatzperson_of_the_banned_party_loses_the_anwartschaft() {
    let banned = |on: &str| hcand("B1-02", 2, 500).fact(Fact::BannedPartyMember { on: d(on) });
    assert_bb_skipped(bb_abc(banned(FACT_DAY)), "banned_party_member", "§ 62 Abs. 1, 2 BbgKWahlG");
    let d = decide(&bb_abc(banned("2026-07-01")), &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-02", "B1"), "{:#?}", d.trail);
}

// ---------------------------------------------------------------------------------------------------------
// Mehrheits- und Persönlichkeitswahl (§ 5 Abs. 1 Satz 2 BbgKWahlG; docs/legal.md, "Point 6: Mehrheitswahl")

/// § 5 Abs. 1 Satz 2 BbgKWahlG with § 60 Abs. 2: only one Wahlvorschlag admitted — its Bewerbende rank by votes,
/// equal votes by the order on the Wahlvorschlag (no lot).
#[test]
fn bb_bbgkwahlg_5_abs_1_satz_2_mehrheitswahl_one_wahlvorschlag_by_votes_then_its_order() {
    let body = brandenburg()
        .majority()
        .list(voter_group(
            "B1",
            vec![hcand("B1-01", 1, 900).seated(SeatVia::List), hcand("B1-03", 3, 400), hcand("B1-02", 2, 400)],
        ))
        .body();
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-02", "B1"),
        vec![
            skipped("B1-01", "departed", "§ 60 Abs. 1 BbgKWahlG"),
            chosen("B1-02", "most_votes_list_order", "§ 60 Abs. 2 Satz 1 Halbsatz 2 BbgKWahlG"),
        ],
    );
    let order = body.succession_order(t(REFERENCE)).lists.remove(0);
    assert_eq!(order.order, vec!["B1-02", "B1-03"]);
    assert!(order.lot_groups.is_empty());
}

/// § 5 Abs. 1 Satz 2 BbgKWahlG with § 60 Abs. 1: only Einzelwahlvorschläge — an Einzelbewerber has no
/// Ersatzperson, the seat stays vacant and the statutory size falls.
#[test]
fn bb_bbgkwahlg_5_abs_1_satz_2_mehrheitswahl_only_einzelwahlvorschlaege_no_ersatzperson() {
    let body = brandenburg()
        .majority()
        .size(10)
        .lists([individual("E1", hcand("E1-01", 1, 90).seated(SeatVia::List)), individual("E2", hcand("E2-01", 1, 40))])
        .body();
    let d = decide(&body, &query("E1-01")).unwrap();
    assert_eq!(d.outcome, vacant(VacancyReason::IndividualCandidate, 9), "{:#?}", d.trail);
}

#[test]
fn bb_bbgkwahlg_5_abs_1_satz_2_mehrheitswahl_validation() {
    let err = |b: SnapshotBuilder| Body::from_snapshot(b.snapshot()).unwrap_err();
    let two = err(brandenburg()
        .majority()
        .lists([party("B1", vec![hcand("B1-01", 1, 5)]), party("B2", vec![hcand("B2-01", 1, 5)])]));
    assert_eq!(two.field, "lists");
    assert!(two.problem.contains("§ 5 Abs. 1 Satz 2 BbgKWahlG"), "{}", two.problem);
    let no_votes = err(brandenburg().majority().list(party("B1", vec![hcand("B1-01", 1, 5), cand("B1-02", 2)])));
    assert_eq!(no_votes.field, "lists[0].candidates[1].votes");
    let written_in =
        err(brandenburg().majority().list(party("B1", vec![hcand("B1-01", 1, 5), off_list("W-01").votes(3)])));
    assert_eq!(written_in.field, "lists[0].candidates[1].position");
}

/// § 59 Abs. 1 Nr. 4 BbgKWahlG: "verliert … ihren oder seinen Sitz … durch Berichtigung des Wahlergebnisses oder
/// dessen Neufeststellung" — the corrected result allots that seat, so no Ersatzperson of the departed's
/// Wahlvorschlag is called (under the corrected result it may have no seat, and then no Ersatzpersonen: § 60
/// Abs. 1, § 61 Abs. 3 Satz 2), and the statutory size is unchanged. Every other Land refuses the reason, naming
/// the field, until its rule is read.
#[test]
fn bb_59_abs_1_nr_4_bbgkwahlg_a_seat_lost_through_a_corrected_result_passes_to_no_ersatzperson() {
    let body = bb_abc(hcand("B1-02", 2, 500));
    let dec = decide(&body, &query("B1-01").cause(Cause::ResultCorrected)).unwrap();
    assert_decision(
        dec,
        vacant(VacancyReason::ResultCorrected, body.info().statutory_size),
        vec![finding("result_corrected_no_succession", "§ 59 Abs. 1 Nr. 4 BbgKWahlG")],
    );
    let e = decide(&nrw_abc(cand("L1-02", 2)), &query("L1-01").cause(Cause::ResultCorrected)).unwrap_err();
    assert!(
        matches!(e, DecideError::Cause(ref v) if v.field == "reason" && v.problem.contains("election.registered")),
        "{e:?}"
    );
}
