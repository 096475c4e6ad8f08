//! "Before the seat fell vacant" is measured at the vacancy's `effective_at` (issue 25, point 1): § 44 Abs. 2
//! NKWG, § 47 Abs. 1 Satz 2 KWG LSA, § 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V, § 60 Abs. 4 BbgKWahlG. `nachfolge
//! decide --at` (a reference time after the vacancy), the succession order and the worker (tests/procedure/st.rs)
//! read the same day. Included by tests/rules.rs; its helpers are the parent's.

use super::*;

/// The vacancy of X-01, effective on 1 March 2026 (Europe/Berlin).
const VACANT_FROM: &str = "2026-03-01T00:00:00+01:00";

/// A party list X1 of `land`: X-01 (900 votes, seated, the departed), X-02 (500 votes) who left the party and
/// whose exit the party notified on `notice`, X-03 (300 votes).
fn body_with_notice(land: SnapshotBuilder, notice: &str) -> SnapshotBuilder {
    land.list(party(
        "X1",
        vec![
            hcand("X-01", 1, 900).seated(SeatVia::List),
            hcand("X-02", 2, 500).left_party().party_notice(notice),
            hcand("X-03", 3, 300),
        ],
    ))
}

/// `nachfolge decide` on the snapshot for the vacancy of X-01, with `--at`.
fn decide_offline(b: &SnapshotBuilder, at: &str) -> serde_json::Value {
    let election = serde_json::to_vec(&b.json()).expect("snapshot");
    let vacancy = serde_json::to_vec(&serde_json::json!({
        "body": b.snapshot.body.id, "member": "X-01", "reason": "resigned", "effective_at": VACANT_FROM,
    }))
    .expect("vacancy");
    let at = chrono::DateTime::parse_from_rfc3339(at).expect("at");
    nachfolge::offline::decide(&election, &vacancy, Some(at)).unwrap_or_else(|e| panic!("decide: {e}"))
}

/// The first of X1's succession order at `at`.
fn first_in_order(b: &SnapshotBuilder, at: &str) -> String {
    let order = b.clone().body().succession_order(t(at));
    order.lists[0].order.first().cloned().unwrap_or_default()
}

#[track_caller]
fn assert_measured_at_the_vacancy(land: fn() -> SnapshotBuilder, citation: &str) {
    // the notice reached the Wahlleitung after the seat fell vacant (1 April): no effect, whenever decided
    let late = body_with_notice(land(), "2026-04-01");
    for at in ["2026-03-01T00:00:00+01:00", "2026-04-02T10:00:00+02:00", "2026-06-01T10:00:00+02:00"] {
        let v = decide_offline(&late, at);
        assert_eq!(v["successor"], "X-02", "decided at {at}: {v}");
    }
    // on the day it fell vacant: not "before"
    let same_day = body_with_notice(land(), "2026-03-01");
    assert_eq!(decide_offline(&same_day, "2026-06-01T10:00:00+02:00")["successor"], "X-02");
    // before: passed over, also decided later
    let early = body_with_notice(land(), "2026-02-15");
    let v = decide_offline(&early, "2026-06-01T10:00:00+02:00");
    assert_eq!(v["successor"], "X-03", "{v}");
    let step = v["trail"].as_array().expect("trail").iter().find(|s| s["candidate"] == "X-02").cloned();
    let step = step.expect("a trail step for X-02");
    assert_eq!(step["reason"], "left_party_notified");
    assert!(step["citation"].as_str().is_some_and(|c| c.starts_with(citation)), "{step}");
    // the succession order answers for a seat falling vacant on its reference day, as `decide` does
    for (b, expected) in [(&late, "X-02"), (&same_day, "X-02"), (&early, "X-03")] {
        assert_eq!(first_in_order(b, "2026-03-01T10:00:00+01:00"), expected);
        let v = decide_offline(b, VACANT_FROM);
        assert_eq!(v["successor"], expected, "{v}");
    }
    // a notice on the reference day of the succession order does not count yet; the next day it does
    assert_eq!(first_in_order(&late, "2026-04-01T10:00:00+02:00"), "X-02");
    assert_eq!(first_in_order(&late, "2026-04-02T10:00:00+02:00"), "X-03");
}

#[test]
fn st_kwg_lsa_47_abs_1_satz_2_notice_measured_at_the_vacancy_not_the_reference_time() {
    assert_measured_at_the_vacancy(sachsen_anhalt, "§ 47 Abs. 1 Satz 2 KWG LSA");
}

#[test]
fn mv_lkwg_46_abs_2_satz_3_nr_1_notice_measured_at_the_vacancy_not_the_reference_time() {
    assert_measured_at_the_vacancy(mecklenburg_vorpommern, "§ 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V");
}

#[test]
fn bb_60_abs_4_notice_measured_at_the_vacancy_not_the_reference_time() {
    assert_measured_at_the_vacancy(brandenburg, "§ 60 Abs. 4 BbgKWahlG");
}

#[test]
fn ni_nkwg_44_abs_2_notice_measured_at_the_vacancy_not_the_reference_time() {
    assert_measured_at_the_vacancy(niedersachsen, "§ 44 Abs. 2 NKWG");
}
