//! Bezirkstage (`body.kind = bezirkstag`; docs/legal.md, "Point 10: Bezirkstage"): the Bezirkstag des
//! Bezirksverbands Pfalz (§ 56 KWG, § 66 Abs. 2, 3 KWO) — closed lists, a Nachfolger named per Bewerber — and the
//! refusal of the kind elsewhere. Included by tests/rules.rs; its helpers are the parent's.

use super::*;
use fixtures::SnapshotBuilder;
use nachfolge::model::{BodyKind, Land};

const DESIGNATED: &str = "§ 56 Abs. 1 Satz 1 Nr. 6 KWG, § 66 Abs. 2 Satz 1 KWO";
const NEXT: &str = "§ 56 Abs. 1 Satz 1 Nr. 2, 6 KWG, § 66 Abs. 2 Satz 2 KWO";
const DEPARTED: &str = "§ 45 Abs. 2 Satz 1 KWG";

/// The Bezirkstag Pfalz with Wahlvorschlag P1: P1-01 (pos. 1, seated, the departed), P1-02 (pos. 2), P1-03
/// (pos. 3) and `extra` (e.g. a Nachfolger named for P1-01 beside the Bewerber).
fn pfalz(extra: Vec<Candidate>) -> SnapshotBuilder {
    let mut cands = vec![cand("P1-01", 1).seated(SeatVia::List), cand("P1-02", 2), cand("P1-03", 3)];
    cands.extend(extra);
    rheinland_pfalz().bezirkstag().size(29).list(party("P1", cands))
}

/// A Nachfolger named beside the Bewerber for `member`.
fn nachfolger(id: &str, member: &str) -> Candidate {
    off_list(id).substitute_for(member)
}

#[test]
fn rp_kwg_56_abs_1_nr_6_bezirkstag_the_nachfolger_named_for_the_departed_is_called() {
    let d = decide(&pfalz(vec![nachfolger("N-01", "P1-01")]).body(), &query("P1-01")).unwrap();
    assert_decision(
        d,
        successor("N-01", "P1"),
        vec![skipped("P1-01", "departed", DEPARTED), chosen("N-01", "designated_successor", DESIGNATED)],
    );
    // a Nachfolger named for another Bewerber is not called for this seat
    let d = decide(&pfalz(vec![nachfolger("N-02", "P1-02")]).body(), &query("P1-01")).unwrap();
    assert_eq!(d.outcome, successor("P1-02", "P1"), "{:#?}", d.trail);
}

#[test]
fn rp_kwo_66_abs_2_satz_2_bezirkstag_no_nachfolger_or_he_left_the_next_bewerber_by_nomination() {
    // none named: the next not yet called Bewerber in the order of nomination (closed lists)
    let d = decide(&pfalz(vec![]).body(), &query("P1-01")).unwrap();
    assert_decision(
        d,
        successor("P1-02", "P1"),
        vec![skipped("P1-01", "departed", DEPARTED), chosen("P1-02", "next_on_list", NEXT)],
    );
    // the Nachfolger "bereits vorher ausgeschieden" (died): the next Bewerber
    let d = decide(&pfalz(vec![nachfolger("N-01", "P1-01").died()]).body(), &query("P1-01")).unwrap();
    assert_decision(
        d,
        successor("P1-02", "P1"),
        vec![
            skipped("P1-01", "departed", DEPARTED),
            skipped("N-01", "died", DEPARTED),
            chosen("P1-02", "next_on_list", NEXT),
        ],
    );
}

#[test]
fn rp_kwo_66_abs_3_satz_2_bezirkstag_nobody_left_the_seat_stays_vacant() {
    let body = rheinland_pfalz()
        .bezirkstag()
        .size(29)
        .list(party("P1", vec![cand("P1-01", 1).seated(SeatVia::List), cand("P1-02", 2).seated(SeatVia::List)]))
        .body();
    let d = decide(&body, &query("P1-01")).unwrap();
    // [decision] the statutory size is kept: the Bezirksordnung's rule on it was not read
    assert_eq!(d.outcome, vacant(VacancyReason::ListExhausted, 29), "{:#?}", d.trail);
    assert!(d.trail.contains(&finding("list_exhausted", "§ 66 Abs. 3 Satz 2 KWO")), "{:#?}", d.trail);
}

#[test]
fn rp_kwg_56_abs_1_nr_6_bezirkstag_succession_order_names_the_nachfolger_for_his_bewerber() {
    let body = pfalz(vec![nachfolger("N-01", "P1-01")]).body();
    let order = body.succession_order(t(REFERENCE)).lists.remove(0);
    assert_eq!(order.order, vec!["P1-02", "P1-03"]);
    assert_eq!(order.substitutes.len(), 1);
    assert_eq!(order.substitutes[0].candidate, "N-01");
    assert_eq!(order.substitutes[0].substitute_for, "P1-01");
    assert_eq!(order.substitutes[0].citation, DESIGNATED);
}

#[test]
fn rp_kwg_56_bezirkstag_validation_closed_lists_no_majority() {
    let err = |b: SnapshotBuilder| Body::from_snapshot(b.snapshot()).unwrap_err();
    // votes are not needed (one vote for a Wahlvorschlag), a Bewerber needs his position
    assert!(Body::from_snapshot(pfalz(vec![nachfolger("N-01", "P1-01")]).snapshot()).is_ok());
    assert_eq!(err(pfalz(vec![off_list("X-01")])).field, "lists[0].candidates[3].position");
    assert_eq!(err(pfalz(vec![]).majority()).field, "body.electoral_system");
    // at most one Nachfolger per Bewerber, of the same Wahlvorschlag
    let twice = err(pfalz(vec![nachfolger("N-01", "P1-01"), nachfolger("N-02", "P1-01")]));
    assert_eq!(twice.field, "lists[0].candidates[4].substitute_for");
}

#[test]
fn bezirkstag_is_refused_where_the_land_has_none_served() {
    let err = |b: SnapshotBuilder| {
        Body::from_snapshot(b.list(party("X1", vec![hcand("X1-01", 1, 5)])).snapshot()).unwrap_err()
    };
    for builder in [nrw as fn() -> SnapshotBuilder, hessen, niedersachsen, baden_wuerttemberg, brandenburg] {
        let e = err(builder().bezirkstag());
        assert_eq!(e.field, "body.kind");
        assert!(e.problem.contains("Art. 4 BezWG") && e.problem.contains("§ 56 KWG"), "{}", e.problem);
    }
}

// ---------------------------------------------------------------------------------------------------------
// Bayern: Art. 4 BezWG with Art. 45, 46 LWG (docs/legal.md, "Bayern's Bezirkstage")

const BEZ_ORDER: &str = "Art. 46 Abs. 1 Satz 1 LWG i. V. m. Art. 4 Abs. 1 BezWG";
const BEZ_LOT: &str = "Art. 46 Abs. 1 Satz 2 LWG i. V. m. Art. 4 Abs. 1 BezWG";

/// Oberbayern's Bezirkstag with the Wahlkreisvorschlag W1: W1-01 (900 Gesamtstimmen, seated, the departed),
/// `second` (pos. 2, 500), W1-03 (pos. 3, 300).
fn oberbayern(second: Candidate) -> SnapshotBuilder {
    bayern()
        .bezirkstag()
        .size(61)
        .list(party("W1", vec![hcand("W1-01", 1, 900).seated(SeatVia::List), second, hcand("W1-03", 3, 300)]))
}

#[track_caller]
fn assert_bez_skipped(second: Candidate, reason: &str, citation: &str) {
    let dec = decide(&oberbayern(second).body(), &query("W1-01")).unwrap();
    assert_decision(
        dec,
        successor("W1-03", "W1"),
        vec![
            skipped("W1-01", "departed", BEZ_ORDER),
            skipped("W1-02", reason, citation),
            chosen("W1-03", "most_votes", BEZ_ORDER),
        ],
    );
}

/// Art. 46 Abs. 1 Satz 1 LWG (Art. 4 Abs. 1 BezWG): "Die nicht gewählten sich bewerbenden Personen eines
/// Wahlkreisvorschlags sind in der Reihenfolge ihrer Stimmenzahlen Listennachfolger" — by the Gesamtstimmen
/// (Art. 45 Abs. 1 Satz 2 LWG: Stimmkreis and Wahlkreisliste added), not by the position; a Stimmkreis winner's
/// seat goes to the same Wahlkreisvorschlag's Listennachfolger.
#[test]
fn by_bezwg_art_4_lwg_art_46_abs_1_satz_1_bezirkstag_listennachfolger_by_gesamtstimmen() {
    let body = bayern()
        .bezirkstag()
        .list(party(
            "W1",
            vec![hcand("W1-01", 1, 900).seated(SeatVia::District), hcand("W1-02", 2, 300), hcand("W1-03", 3, 700)],
        ))
        .body();
    let dec = decide(&body, &query("W1-01")).unwrap();
    assert_decision(
        dec,
        successor("W1-03", "W1"),
        vec![skipped("W1-01", "departed", BEZ_ORDER), chosen("W1-03", "most_votes", BEZ_ORDER)],
    );
}

/// Art. 46 Abs. 1 Satz 2 LWG: "Bei gleicher Stimmenzahl ist die Reihenfolge durch das Los festzustellen" — the
/// Wahlkreisausschuss draws it with the result (§ 70 Abs. 3 LWO): its `lot_rank` decides; without one the
/// Wahlleitung is asked for the lot, never the list order.
#[test]
fn by_lwg_art_46_abs_1_satz_2_bezirkstag_equal_gesamtstimmen_the_lot_drawn_with_the_result() {
    let with_ranks = |a: Option<u32>, b: Option<u32>| {
        let mut x = hcand("W1-02", 2, 500);
        let mut y = hcand("W1-03", 3, 500);
        if let Some(r) = a {
            x = x.lot_rank(r);
        }
        if let Some(r) = b {
            y = y.lot_rank(r);
        }
        bayern().bezirkstag().list(party("W1", vec![hcand("W1-01", 1, 900).seated(SeatVia::List), x, y])).body()
    };
    let dec = decide(&with_ranks(Some(2), Some(1)), &query("W1-01")).unwrap();
    assert_eq!(dec.outcome, successor("W1-03", "W1"), "{:#?}", dec.trail);
    assert!(dec.trail.contains(&chosen("W1-03", "won_drawn_lot", "Art. 46 Abs. 1 Satz 2 LWG, § 70 Abs. 3 LWO")));
    let dec = decide(&with_ranks(None, None), &query("W1-01")).unwrap();
    assert_eq!(dec.outcome, Outcome::LotRequired { tied: vec!["W1-02".into(), "W1-03".into()] }, "{:#?}", dec.trail);
    assert!(dec.trail.contains(&tied("W1-02", "equal_votes_lot", BEZ_LOT)));
}

/// Art. 46 Abs. 2 LWG: a written Verzicht ends the Anwartschaft for good; one not in writing is noted and has no
/// effect.
#[test]
fn by_lwg_art_46_abs_2_bezirkstag_a_written_verzicht_ends_the_anwartschaft() {
    assert_bez_skipped(
        hcand("W1-02", 2, 500).waived_written(),
        "waived",
        "Art. 46 Abs. 2 LWG i. V. m. Art. 4 Abs. 1 BezWG",
    );
    let dec = decide(&oberbayern(hcand("W1-02", 2, 500).waived_recorded()).body(), &query("W1-01")).unwrap();
    assert_eq!(dec.outcome, successor("W1-02", "W1"), "{:#?}", dec.trail);
}

/// Art. 4 Abs. 2 Satz 7, Abs. 3 BezWG: "Der Listennachfolger kann nur nachrücken, wenn er zu diesem Zeitpunkt die
/// Wählbarkeitsvoraussetzungen noch oder wieder erfüllt" — not eligible now: passed over for this vacancy; once
/// eligible again, he is called.
#[test]
fn by_bezwg_art_4_abs_2_satz_7_bezirkstag_eligible_noch_oder_wieder() {
    assert_bez_skipped(
        hcand("W1-02", 2, 500).ineligible("2026-01-01", None),
        "not_eligible_now",
        "Art. 4 Abs. 2 Satz 7, Abs. 3 BezWG",
    );
    let dec = decide(
        &oberbayern(hcand("W1-02", 2, 500).ineligible("2026-01-01", Some("2026-01-31"))).body(),
        &query("W1-01"),
    )
    .unwrap();
    assert_eq!(dec.outcome, successor("W1-02", "W1"), "{:#?}", dec.trail);
}

/// Art. 4 Abs. 2 Satz 5, 6, Abs. 3 BezWG: a refusal the Bezirkstag found effective passes him over for this
/// vacancy; **[decision]** he stays a Listennachfolger (only the Verzicht ends it, Art. 46 Abs. 2 LWG). Art. 4 Abs. 4
/// BezWG: an incompatible activity — he cannot take office now and stays on the list.
#[test]
fn by_bezwg_art_4_abs_2_satz_5_6_bezirkstag_a_refusal_passes_over_for_this_vacancy_only() {
    let refused_now = hcand("W1-02", 2, 500).fact(Fact::Declined { on: d(FACT_DAY), of: Declination::Succession });
    let body = bayern()
        .bezirkstag()
        .list(party("W1", vec![hcand("W1-01", 1, 900).former_member(), refused_now, hcand("W1-03", 3, 300)]))
        .body();
    let dec = decide(&body, &query("W1-01")).unwrap();
    assert_eq!(dec.outcome, successor("W1-03", "W1"), "{:#?}", dec.trail);
    assert!(dec.trail.contains(&skipped("W1-02", "declined", "Art. 4 Abs. 2 Satz 5, 6, Abs. 3 BezWG")));
    // an earlier refusal: called again for a later vacancy, with a note
    let refused_before =
        hcand("W1-02", 2, 500).fact(Fact::Declined { on: d("2025-01-01"), of: Declination::Succession });
    let dec = decide(&oberbayern(refused_before).body(), &query("W1-01")).unwrap();
    assert_eq!(dec.outcome, successor("W1-02", "W1"), "{:#?}", dec.trail);
    assert_bez_skipped(
        hcand("W1-02", 2, 500).barred("Beschäftigte des Bezirks"),
        "barred_stays_successor",
        "Art. 4 Abs. 4 BezWG i. V. m. Art. 23 Abs. 4 BezO",
    );
}

/// Art. 46 Abs. 1 Satz 1 LWG: "die nicht gewählten sich bewerbenden Personen" — **[decision]** a former member
/// (and an elected person who declined the election) is no Listennachfolger; nobody left: the seat stays
/// unbesetzt, the statutory size unchanged (Art. 45 Abs. 3 LWG entsprechend).
#[test]
fn by_lwg_art_46_abs_1_bezirkstag_former_members_are_no_listennachfolger_exhausted_the_seat_stays_unbesetzt() {
    assert_bez_skipped(hcand("W1-02", 2, 500).former_member(), "former_member", BEZ_ORDER);
    let body = bayern()
        .bezirkstag()
        .size(61)
        .list(party("W1", vec![hcand("W1-01", 1, 900).seated(SeatVia::List), hcand("W1-02", 2, 5).died()]))
        .body();
    let dec = decide(&body, &query("W1-01")).unwrap();
    assert_eq!(dec.outcome, vacant(VacancyReason::ListExhausted, 61), "{:#?}", dec.trail);
    assert!(dec
        .trail
        .contains(&finding("list_exhausted", "Art. 4 Abs. 3 BezWG i. V. m. Art. 45 Abs. 3 LWG entsprechend")));
}

/// A Bayern Bezirkstag: `determination: confirm` (the Bezirkstagspräsident determines; the readings of the
/// decisions above are his to check), no majority election, Gesamtstimmen required.
#[test]
fn by_bezwg_art_4_abs_3_bezirkstag_validation_confirm_no_majority_votes_required() {
    let automatic = oberbayern(hcand("W1-02", 2, 500)).with(|s| s.body.determination = Default::default());
    let e = Body::from_snapshot(automatic.snapshot()).unwrap_err();
    assert_eq!(e.field, "body.determination");
    assert!(e.problem.contains("Art. 4 Abs. 3 BezWG"), "{}", e.problem);
    let e = Body::from_snapshot(oberbayern(hcand("W1-02", 2, 500)).majority().snapshot()).unwrap_err();
    assert_eq!(e.field, "body.electoral_system");
    let e = Body::from_snapshot(oberbayern(cand("W1-02", 2)).snapshot()).unwrap_err();
    assert_eq!(e.field, "lists[0].candidates[1].votes");
    // the Bezirkstag's procedure: one week, silence is acceptance, a reservation is void (Art. 4 Abs. 2 BezWG)
    let law = Land::By.law();
    assert_eq!(law.acceptance_weeks(BodyKind::Bezirkstag), 1);
    assert_eq!(law.acceptance_weeks(BodyKind::Council), 2);
    let p = law.procedure(BodyKind::Bezirkstag);
    assert_eq!(p.acceptance, nachfolge_core::land::Acceptance::Declaration);
    assert_eq!(p.reservation, nachfolge_core::land::Reservation::Ineffective);
}

#[test]
fn bezirkstag_words_in_every_text_of_the_procedure() {
    for land in [Land::Rp, Land::By] {
        let t = &land.law().procedure(BodyKind::Bezirkstag).texts;
        for text in [t.determination_subject, t.successor_title, t.vacancy_title, t.review_title, t.correction_title] {
            assert!(text.contains("Bezirkstag"), "{land:?}: {text}");
        }
    }
    assert_eq!(BodyKind::Bezirkstag.genitive(), "des Bezirkstags");
    assert_eq!(
        nachfolge_core::texts::reason_de_in("seated", BodyKind::Bezirkstag),
        "ist bereits Mitglied des Bezirkstags"
    );
}
