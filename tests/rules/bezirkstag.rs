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
    let by = err(bayern().bezirkstag());
    assert_eq!(by.field, "body.kind");
    assert!(by.problem.contains("Art. 4 BezWG"), "{}", by.problem);
    for builder in [nrw as fn() -> SnapshotBuilder, hessen, niedersachsen, baden_wuerttemberg, brandenburg] {
        assert_eq!(err(builder().bezirkstag()).field, "body.kind");
    }
}

#[test]
fn bezirkstag_words_in_every_text_of_the_procedure() {
    let t = &Land::Rp.law().procedure(BodyKind::Bezirkstag).texts;
    for text in [t.determination_subject, t.successor_title, t.vacancy_title, t.review_title, t.correction_title] {
        assert!(text.contains("Bezirkstag"), "{text}");
    }
    assert_eq!(BodyKind::Bezirkstag.genitive(), "des Bezirkstags");
    assert_eq!(
        nachfolge_core::texts::reason_de_in("seated", BodyKind::Bezirkstag),
        "ist bereits Mitglied des Bezirkstags"
    );
}
