//! Saarland — § 57 KWO with § 43, § 50 KWG; § 44 KWG not read, the Wahlleitung confirms (docs/legal.md,
//! "Saarland"). Included by tests/rules.rs; its helpers are the parent's.

use super::*;
use nachfolge::model::{BodyKind, DeterminationMode, Land};

const SL_57_1_1: &str = "§ 57 Abs. 1 Satz 1 KWO";
const SL_57_1_2: &str = "§ 57 Abs. 1 Satz 2 KWO";
const SL_57_3: &str = "§ 57 Abs. 3 KWO";
const SL_43_4: &str = "§ 43 Satz 4 KWG i. V. m. § 57 Abs. 4 KWO";
const SL_43_1: &str = "§ 43 Satz 1 KWG i. V. m. § 57 Abs. 4 KWO";
const SL_50_1: &str = "§ 50 Abs. 1 Satz 1 KWG";
const SL_50_3: &str = "§ 50 Abs. 3 KWG";
const SL_BAR: &str = "§ 17 Abs. 1 KWG i. V. m. § 56 Abs. 3, § 57 Abs. 4 KWO";

/// One Wahlvorschlag of party P: its Gebietsliste `P-G` (G-01 seated, `second`, G-03) and its Bereichsliste
/// Nord `P-N` (N-01 seated, N-02, N-03), each a list of its own.
fn sl_body(second: Candidate) -> Body {
    saarland()
        .list(party("P-G", vec![cand("G-01", 1).seated(SeatVia::List), second, cand("G-03", 3)]))
        .list(party("P-N", vec![cand("N-01", 1).seated(SeatVia::List), cand("N-02", 2), cand("N-03", 3)]))
        .body()
}

#[track_caller]
fn assert_sl_skipped(second: Candidate, reason: &str, citation: &str) {
    let d = decide(&sl_body(second), &query("G-01")).unwrap();
    assert_decision(
        d,
        successor("G-03", "P-G"),
        vec![
            skipped("G-01", "departed", SL_57_1_1),
            skipped("G-02", reason, citation),
            chosen("G-03", "next_on_list", SL_57_1_1),
        ],
    );
}

#[test]
fn sl_57_abs_1_kwo_gebietsliste_member_is_succeeded_from_the_gebietsliste_in_list_order() {
    let d = decide(&sl_body(cand("G-02", 2)), &query("G-01")).unwrap();
    assert_decision(
        d,
        successor("G-02", "P-G"),
        vec![skipped("G-01", "departed", SL_57_1_1), chosen("G-02", "next_on_list", SL_57_1_1)],
    );
}

#[test]
fn sl_57_abs_1_kwo_bereichsliste_member_is_succeeded_from_his_bereichsliste_not_the_gebietsliste() {
    let d = decide(&sl_body(cand("G-02", 2)), &query("N-01")).unwrap();
    assert_decision(
        d,
        successor("N-02", "P-N"),
        vec![skipped("N-01", "departed", SL_57_1_1), chosen("N-02", "next_on_list", SL_57_1_1)],
    );
}

#[test]
fn sl_57_abs_1_kwo_closed_list_position_decides_not_votes() {
    let body = saarland()
        .list(party("P-G", vec![hcand("G-01", 1, 10).seated(SeatVia::List), hcand("G-02", 2, 1), hcand("G-03", 3, 99)]))
        .body();
    let d = decide(&body, &query("G-01")).unwrap();
    assert_eq!(d.outcome, successor("G-02", "P-G"));
}

#[test]
fn sl_57_abs_1_kwo_a_mandatsanwaerter_is_not_elected_former_members_and_the_called_are_passed_over() {
    assert_sl_skipped(cand("G-02", 2).former_member(), "already_called", SL_57_1_1);
    let d = decide(&sl_body(cand("G-02", 2)), &query("G-01").pending("G-02")).unwrap();
    assert_eq!(d.outcome, successor("G-03", "P-G"));
    assert_sl_skipped(cand("G-02", 2).died(), "died", SL_57_1_1);
    // an elected person who declined the election never was a Mandatsanwärter
    assert_sl_skipped(
        cand("G-02", 2).fact(Fact::Declined { on: d_(FACT_DAY), of: Declination::Election }),
        "declined",
        SL_57_1_1,
    );
}

fn d_(s: &str) -> chrono::NaiveDate {
    s.parse().unwrap()
}

#[test]
fn sl_57_abs_3_kwo_eligibility_is_checked_on_the_reference_day() {
    assert_sl_skipped(cand("G-02", 2).ineligible("2025-01-01", None), "ineligible", SL_57_3);
    // eligible again: no exclusion
    let d = decide(&sl_body(cand("G-02", 2).ineligible("2025-01-01", Some("2025-02-01"))), &query("G-01")).unwrap();
    assert_eq!(d.outcome, successor("G-02", "P-G"));
}

#[test]
fn sl_43_kwg_a_refusal_and_a_written_waiver_are_irrevocable() {
    assert_sl_skipped(cand("G-02", 2).declined(), "declined", SL_43_4);
    assert_sl_skipped(cand("G-02", 2).waived_written(), "waived", SL_43_4);
}

#[test]
fn sl_43_kwg_a_waiver_not_in_writing_is_noted_and_he_stays() {
    let d = decide(&sl_body(cand("G-02", 2).waived_recorded()), &query("G-01")).unwrap();
    assert_decision(
        d,
        successor("G-02", "P-G"),
        vec![
            skipped("G-01", "departed", SL_57_1_1),
            noted("G-02", "waiver_not_written", SL_43_1),
            chosen("G-02", "next_on_list", SL_57_1_1),
        ],
    );
}

#[test]
fn sl_44_kwg_not_verified_a_party_change_is_noted_for_the_wahlleitung_not_applied() {
    for second in [cand("G-02", 2).left_party(), cand("G-02", 2).joined_other_party()] {
        let d = decide(&sl_body(second), &query("G-01")).unwrap();
        assert_decision(
            d,
            successor("G-02", "P-G"),
            vec![
                skipped("G-01", "departed", SL_57_1_1),
                noted("G-02", "party_change_returning_officer_decides", SL_57_1_1),
                chosen("G-02", "next_on_list", SL_57_1_1),
            ],
        );
    }
}

#[test]
fn sl_56_abs_3_kwo_a_barred_ersatzperson_is_determined_and_must_prove() {
    let d = decide(&sl_body(cand("G-02", 2).barred("Beschäftigte der Gemeinde")), &query("G-01")).unwrap();
    assert_decision(
        d,
        barred_successor("G-02", "P-G"),
        vec![
            skipped("G-01", "departed", SL_57_1_1),
            noted("G-02", "barred_must_prove_end", SL_BAR),
            chosen("G-02", "next_on_list", SL_57_1_1),
        ],
    );
}

#[test]
fn sl_57_abs_1_satz_2_kwo_an_exhausted_list_is_left_to_the_wahlleitung_without_a_fall_back() {
    // the Bereichsliste has nobody left; the Gebietsliste of the same Wahlvorschlag has: no guessed fall-back
    let body = saarland()
        .list(party("P-G", vec![cand("G-01", 1).seated(SeatVia::List), cand("G-02", 2)]))
        .list(party("P-N", vec![cand("N-01", 1).seated(SeatVia::List), cand("N-02", 2).declined()]))
        .body();
    let d = decide(&body, &query("N-01")).unwrap();
    // nothing cites the unread § 44 KWG
    assert!(d.trail.iter().all(|s| !s.citation.contains("§ 44")), "{:#?}", d.trail);
    assert_decision(
        d,
        vacant(VacancyReason::ReturningOfficerDecides, 44),
        vec![
            skipped("N-01", "departed", SL_57_1_1),
            skipped("N-02", "declined", SL_43_4),
            finding("list_exhausted_returning_officer_decides", SL_57_1_2),
        ],
    );
    let order = body.succession_order(t(REFERENCE));
    assert_eq!(order.lists[1].notes, vec![finding("list_exhausted_returning_officer_decides", SL_57_1_2)]);
}

#[test]
fn sl_50_abs_3_kwg_party_ban_the_seat_stays_unbesetzt_and_the_statutory_size_falls() {
    let body = sl_body(cand("G-02", 2));
    let d = decide(&body, &query("G-01").cause(Cause::PartyBan { list_banned: true })).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::PartyBanned, 43),
        vec![finding("party_banned", SL_50_1), finding("statutory_size_reduced", SL_50_3)],
    );
}

#[test]
fn sl_50_abs_1_kwg_ersatzleute_of_the_banned_party_lose_the_anwartschaft() {
    // a member of the banned party elected on another Wahlvorschlag: his list's Ersatzleute who belonged to
    // the banned party are passed over; when none is left, the seat stays unbesetzt (§ 50 Abs. 3 KWG)
    let banned = |c: Candidate| c.fact(Fact::BannedPartyMember { on: d_(FACT_DAY) });
    let d = decide(&sl_body(banned(cand("G-02", 2))), &query("G-01").cause(Cause::PartyBan { list_banned: false }))
        .unwrap();
    assert_decision(
        d,
        successor("G-03", "P-G"),
        vec![
            skipped("G-01", "departed", SL_57_1_1),
            skipped("G-02", "banned_party_member", SL_50_1),
            chosen("G-03", "next_on_list", SL_57_1_1),
        ],
    );
    let body =
        saarland().list(party("P-G", vec![cand("G-01", 1).seated(SeatVia::List), banned(cand("G-02", 2))])).body();
    let d = decide(&body, &query("G-01").cause(Cause::PartyBan { list_banned: false })).unwrap();
    assert_eq!(d.outcome, vacant(VacancyReason::PartyBanned, 43));
}

#[test]
fn sl_44_kwg_automatic_determination_is_refused_naming_44_kwg_as_not_verified() {
    let snap = saarland()
        .list(party("P-G", vec![cand("G-01", 1).seated(SeatVia::List), cand("G-02", 2)]))
        .with(|s| s.body.determination = DeterminationMode::Automatic)
        .snapshot();
    let e = Body::from_snapshot(snap).unwrap_err();
    assert_eq!(e.field, "body.determination");
    assert!(e.problem.contains("§ 44 KWG") && e.problem.contains("not verified"), "{}", e.problem);
}

/// A Kreistag (§ 156 Abs. 3 KSVG): its Wahlvorschlag has a Gebietsliste and Bereichslisten (§ 66 KWG), the
/// Kreiswahlausschuss determines the Ersatzleute (§ 94 Abs. 2 KWO) — § 57 KWO is applied entsprechend, the bar is
/// § 64 Satz 1 with § 17 Abs. 2 KWG (§ 80 Abs. 2 KWO), and the Kreiswahlleitung confirms every determination.
#[test]
fn sl_94_abs_2_kwo_a_kreistag_is_succeeded_from_the_departeds_list_with_the_kreistags_citations() {
    const KT_NEXT: &str = "§ 57 Abs. 1 Satz 1 KWO entsprechend, § 94 Abs. 2 KWO";
    const KT_BAR: &str = "§ 64 Satz 1 i. V. m. § 17 Abs. 2 KWG, § 80 Abs. 2, § 56 Abs. 3 KWO";
    let kreistag = |second: Candidate| {
        saarland()
            .kreistag()
            .list(party("P-G", vec![cand("G-01", 1).seated(SeatVia::List), second, cand("G-03", 3)]))
            .list(party("P-N", vec![cand("N-01", 1).seated(SeatVia::List)]))
            .body()
    };
    let d = decide(&kreistag(cand("G-02", 2).ineligible("2025-01-01", None)), &query("G-01")).unwrap();
    assert_decision(
        d,
        successor("G-03", "P-G"),
        vec![
            skipped("G-01", "departed", KT_NEXT),
            skipped("G-02", "ineligible", "§ 57 Abs. 3 KWO entsprechend"),
            chosen("G-03", "next_on_list", KT_NEXT),
        ],
    );
    let d = decide(&kreistag(cand("G-02", 2).barred("Beschäftigter des Landkreises")), &query("G-01")).unwrap();
    assert_eq!(d.outcome, barred_successor("G-02", "P-G"));
    assert!(d.trail.contains(&noted("G-02", "barred_must_prove_end", KT_BAR)), "{:#?}", d.trail);
    // the Bereichsliste exhausted: the Kreiswahlleitung decides, as in a Gemeinderat
    let d = decide(&kreistag(cand("G-02", 2)), &query("N-01")).unwrap();
    assert_eq!(d.outcome, vacant(VacancyReason::ReturningOfficerDecides, 44));
    assert!(d
        .trail
        .contains(&finding("list_exhausted_returning_officer_decides", "§ 57 Abs. 1 Satz 2 KWO entsprechend")));
    // automatic stays refused for a Kreistag as well
    let snap = saarland()
        .kreistag()
        .list(party("P-G", vec![cand("G-01", 1).seated(SeatVia::List), cand("G-02", 2)]))
        .with(|s| s.body.determination = DeterminationMode::Automatic)
        .snapshot();
    assert_eq!(Body::from_snapshot(snap).unwrap_err().field, "body.determination");
}

/// A Kreistag's seat after a party ban: § 50 KWG speaks of the Gemeinderat and the Kreistag's reference to it was
/// not read — the seat is left to the Kreiswahlleitung (§ 156 Abs. 3 KSVG), the size unchanged.
#[test]
fn sl_156_abs_3_ksvg_a_kreistags_seat_after_a_party_ban_is_left_to_the_kreiswahlleitung() {
    let body =
        saarland().kreistag().list(party("P-G", vec![cand("G-01", 1).seated(SeatVia::List), cand("G-02", 2)])).body();
    for list_banned in [true, false] {
        let d = decide(&body, &query("G-01").cause(Cause::PartyBan { list_banned })).unwrap();
        assert_decision(
            d,
            vacant(VacancyReason::ReturningOfficerDecides, 44),
            vec![finding("party_ban_returning_officer_decides", "§ 156 Abs. 3 KSVG")],
        );
    }
}

/// § 57 Abs. 2 i. V. m. § 55 Abs. 2 KWO: in a majority election the Ersatzleute are the candidates who got no seat, by
/// votes; equal votes by the lot the Wahlleitung draws — the one drawn when the Ersatzleute were determined
/// (`lot_rank`) where it was; nobody left: § 44 Abs. 3 Satz 4 KWG, not read, so the Wahlleitung decides.
#[test]
fn sl_57_abs_2_kwo_majority_election_ersatzleute_by_votes_equal_votes_by_lot() {
    const MAJ: &str = "§ 57 Abs. 2 i. V. m. § 55 Abs. 2 Satz 1 KWO";
    const MAJ_LOT: &str = "§ 57 Abs. 2 i. V. m. § 55 Abs. 2 Satz 2 KWO";
    let majority = |cands: Vec<Candidate>| saarland().majority().list(party("M", cands)).body();
    let body = majority(vec![
        hcand("M-01", 1, 900).seated(SeatVia::List),
        hcand("M-02", 2, 300),
        hcand("M-03", 3, 700).declined(),
        hcand("M-04", 4, 500),
        hcand("X-01", 0, 300).position(None),
    ]);
    let d = decide(&body, &query("M-01")).unwrap();
    assert_decision(
        d,
        successor("M-04", "M"),
        vec![skipped("M-01", "departed", MAJ), skipped("M-03", "declined", SL_43_4), chosen("M-04", "most_votes", MAJ)],
    );
    // equal votes: the lot
    let body = majority(vec![
        hcand("M-01", 1, 900).seated(SeatVia::List),
        hcand("M-02", 2, 300),
        hcand("X-01", 0, 300).position(None),
    ]);
    let d = decide(&body, &query("M-01")).unwrap();
    assert_eq!(d.outcome, Outcome::LotRequired { tied: vec!["M-02".into(), "X-01".into()] });
    assert!(d.trail.contains(&tied("X-01", "equal_votes_lot", MAJ_LOT)), "{:#?}", d.trail);
    // … unless it was drawn with the result
    let body = majority(vec![
        hcand("M-01", 1, 900).seated(SeatVia::List),
        hcand("M-02", 2, 300).lot_rank(2),
        hcand("X-01", 0, 300).position(None).lot_rank(1),
    ]);
    let d = decide(&body, &query("M-01")).unwrap();
    assert_eq!(d.outcome, successor("X-01", "M"), "{:#?}", d.trail);
    assert!(d.trail.contains(&chosen("X-01", "won_drawn_lot", MAJ_LOT)), "{:#?}", d.trail);
    // nobody left: left to the Wahlleitung
    let d = decide(&majority(vec![hcand("M-01", 1, 900).seated(SeatVia::List)]), &query("M-01")).unwrap();
    assert_eq!(d.outcome, vacant(VacancyReason::ReturningOfficerDecides, 44));
    assert!(d.trail.contains(&finding("list_exhausted_returning_officer_decides", "§ 57 Abs. 2 KWO")));
}

/// The Regionalversammlung des Regionalverbands Saarbrücken (§ 205 Abs. 3 KSVG: "Das Nähere über Wahl und Ergänzung
/// der Regionalversammlung bestimmt das Kommunalwahlgesetz"): served on the Kreistag's footing, § 57 KWO applied
/// entsprechend, the Wahlleitung confirming; a party ban leaves the seat to her; the kind is Saarland's only.
#[test]
fn sl_205_abs_3_ksvg_the_regionalversammlung_is_succeeded_from_the_departeds_list() {
    const RV_NEXT: &str = "§ 57 Abs. 1 Satz 1 KWO entsprechend, § 205 Abs. 3 KSVG";
    let regional = |b: SnapshotBuilder| b.with(|s| s.body.kind = BodyKind::Regionalversammlung);
    let body = regional(saarland())
        .list(party("P-G", vec![cand("G-01", 1).seated(SeatVia::List), cand("G-02", 2).died(), cand("G-03", 3)]))
        .body();
    let d = decide(&body, &query("G-01")).unwrap();
    assert_decision(
        d,
        successor("G-03", "P-G"),
        vec![
            skipped("G-01", "departed", RV_NEXT),
            skipped("G-02", "died", RV_NEXT),
            chosen("G-03", "next_on_list", RV_NEXT),
        ],
    );
    let d = decide(&body, &query("G-01").cause(Cause::PartyBan { list_banned: true })).unwrap();
    assert_decision(
        d,
        vacant(VacancyReason::ReturningOfficerDecides, 44),
        vec![finding("party_ban_returning_officer_decides", "§ 205 Abs. 3 KSVG")],
    );
    let elsewhere = regional(nrw()).list(party("A", vec![cand("A-01", 1).seated(SeatVia::List)])).snapshot();
    assert_eq!(Body::from_snapshot(elsewhere).unwrap_err().field, "body.kind");
}

#[test]
fn sl_validation_refuses_what_was_not_read() {
    let base = || saarland().list(party("P-G", vec![cand("G-01", 1).seated(SeatVia::List), cand("G-02", 2)]));
    let field = |b: SnapshotBuilder| Body::from_snapshot(b.snapshot()).unwrap_err().field;
    // a majority election is one list of everyone who received votes (§ 57 Abs. 2 i. V. m. § 55 Abs. 2 KWO)
    assert_eq!(field(base().majority()), "lists[0].candidates[0].votes");
    assert_eq!(
        field(base().with(|s| s.lists[0].candidates[0].seat.as_mut().unwrap().via = SeatVia::District)),
        "lists[0].candidates[0].seat.via"
    );
    assert_eq!(
        field(base().with(|s| s.lists[0].candidates[1].substitute_for = Some("G-01".into()))),
        "lists[0].candidates[1].substitute_for"
    );
    let body = base().body();
    let e = decide(&body, &query("G-01").cause(Cause::Merger)).unwrap_err();
    assert!(matches!(e, DecideError::Cause(v) if v.field == "reason"));
    // the example is valid
    let path = format!("{}/examples/sl-election.json", env!("CARGO_MANIFEST_DIR"));
    parse_snapshot(&std::fs::read(path).unwrap()).and_then(Body::from_snapshot).unwrap();
}

#[test]
fn sl_feiertagsgesetz_2_holidays() {
    let d = d_;
    assert_eq!(Land::Sl.holiday_name(d("2026-06-04")), Some("Fronleichnam"));
    assert_eq!(Land::Sl.holiday_name(d("2026-08-15")), Some("Mariä Himmelfahrt"));
    assert_eq!(Land::Sl.holiday_name(d("2026-11-01")), Some("Allerheiligen"));
    assert_eq!(Land::Sl.holiday_name(d("2026-10-31")), None);
    assert_eq!(Land::Sl.holiday_name(d("2026-01-06")), None);
    assert_eq!(serde_json::from_str::<Land>("\"SL\"").ok(), Some(Land::Sl));
}
