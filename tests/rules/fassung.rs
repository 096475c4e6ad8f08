//! Fassungen: the text of a Land's rules in force on the reference day applies (docs/legal.md, "Fassungen of
//! § 45 KWahlG NRW"). NRW keeps § 45 before and after Art. 1 of the Gesetz vom 5. Juli 2024 (GV. NRW. S. 444):
//! the older text has no "nicht ununterbrochen" clause in Abs. 2 Satz 2 and no Abs. 3 Satz 3. Included by
//! tests/rules.rs; its helpers are the parent's.

use super::*;
use nachfolge::land::Fassung;

const BEFORE: &str = "kwahlg-nrw-45-before-2024";
const CURRENT: &str = "kwahlg-nrw-45-2024";
const BEFORE_SOURCE: &str = "§ 45 KWahlG NRW i. d. F. vor Art. 1 G v. 5.7.2024 (GV. NRW. S. 444)";
const CURRENT_SOURCE: &str = "§ 45 KWahlG NRW i. d. F. d. Art. 1 G v. 5.7.2024 (GV. NRW. S. 444)";
/// The last day of the old text, noon in Berlin.
const LAST_OLD_DAY: &str = "2024-07-30";
/// The first day of the amended text, noon in Berlin.
const FIRST_NEW_DAY: &str = "2024-07-31";

/// The trail step that names the Fassung applied.
fn fassung(id: &str, source: &str) -> TrailStep {
    finding("fassung_applied", source).with_detail(id)
}

/// `nrw_abc` in the 2020–2025 term, across which the 2024 amendment came into force.
fn nrw_2020(second: Candidate) -> Body {
    nrw()
        .term("2020-11-01", "2025-10-31")
        .list(party("L1", vec![cand("L1-01", 1).seated(SeatVia::List), second, cand("L1-03", 3)]))
        .body()
}

#[test]
fn nw_45_abs_2_fassung_before_2024_no_ununterbrochen_clause() {
    // ineligible for three months in 2023 (moved away and back), eligible again: before the amendment only a
    // candidate who "die Wählbarkeit verloren" had was passed over — he succeeds; the past interval is noted
    let body = nrw_2020(cand("L1-02", 2).ineligible("2023-01-01", Some("2023-03-31")));
    let d = decide(&body, &query("L1-01").via(SeatVia::List).at(noon(LAST_OLD_DAY))).unwrap();
    assert_decision_with_fassung(
        d,
        successor("L1-02", "L1"),
        vec![
            skipped("L1-01", "departed", NW_1_1),
            noted("L1-02", "formerly_ineligible_no_effect", NW_2_2),
            chosen("L1-02", "next_on_list", NW_2_1),
            fassung(BEFORE, BEFORE_SOURCE),
        ],
    );
}

#[test]
fn nw_45_abs_2_satz_2_fassung_2024_not_continuously_eligible_passed_over_from_the_change_date() {
    // the same council and vacancy one day later: "oder diese während der laufenden Wahlperiode nicht
    // ununterbrochen bestanden hat" — a different successor
    let body = nrw_2020(cand("L1-02", 2).ineligible("2023-01-01", Some("2023-03-31")));
    let d = decide(&body, &query("L1-01").via(SeatVia::List).at(noon(FIRST_NEW_DAY))).unwrap();
    assert_decision_with_fassung(
        d,
        successor("L1-03", "L1"),
        vec![
            skipped("L1-01", "departed", NW_1_1),
            skipped("L1-02", "not_continuously_eligible", NW_2_2),
            chosen("L1-03", "next_on_list", NW_2_1),
            fassung(CURRENT, CURRENT_SOURCE),
        ],
    );
}

#[test]
fn nw_45_abs_2_satz_2_fassung_before_2024_lost_eligibility_still_passed_over() {
    // what both texts share: ineligible on the reference day
    let body = nrw_2020(cand("L1-02", 2).ineligible("2024-01-01", None));
    let d = decide(&body, &query("L1-01").via(SeatVia::List).at(noon(LAST_OLD_DAY))).unwrap();
    assert_decision_with_fassung(
        d,
        successor("L1-03", "L1"),
        vec![
            skipped("L1-01", "departed", NW_1_1),
            skipped("L1-02", "ineligible", NW_2_2),
            chosen("L1-03", "next_on_list", NW_2_1),
            fassung(BEFORE, BEFORE_SOURCE),
        ],
    );
}

#[test]
fn nw_45_abs_3_satz_3_fassung_before_2024_not_in_force() {
    // no Satz 3 before the amendment: a non-member who joined another party is not passed over (he did not
    // leave the nominating one, Satz 1); from the change date he is
    let body = nrw_2020(cand("L1-02", 2).joined_other_party());
    let before = decide(&body, &query("L1-01").via(SeatVia::List).at(noon(LAST_OLD_DAY))).unwrap();
    assert_decision_with_fassung(
        before,
        successor("L1-02", "L1"),
        vec![
            skipped("L1-01", "departed", NW_1_1),
            noted("L1-02", "joined_other_party_no_effect", NW_3_1),
            chosen("L1-02", "next_on_list", NW_2_1),
            fassung(BEFORE, BEFORE_SOURCE),
        ],
    );
    let after = decide(&body, &query("L1-01").via(SeatVia::List).at(noon(FIRST_NEW_DAY))).unwrap();
    assert_decision_with_fassung(
        after,
        successor("L1-03", "L1"),
        vec![
            skipped("L1-01", "departed", NW_1_1),
            skipped("L1-02", "joined_other_party", NW_3_3),
            chosen("L1-03", "next_on_list", NW_2_1),
            fassung(CURRENT, CURRENT_SOURCE),
        ],
    );
}

#[test]
fn nw_45_abs_3_satz_3_fassung_before_2024_member_who_joined_noted_without_satz_3() {
    let body = nrw_2020(cand("L1-02", 2).joined_other_party_as_member());
    let d = decide(&body, &query("L1-01").via(SeatVia::List).at(noon(LAST_OLD_DAY))).unwrap();
    assert!(d.trail.contains(&noted("L1-02", "joined_other_party_no_effect", NW_3_1)), "{:#?}", d.trail);
    assert!(d.trail.iter().all(|s| s.citation != NW_3_3), "{:#?}", d.trail);
}

#[test]
fn nw_45_fassung_changes_at_midnight_berlin() {
    let body = nrw_2020(cand("L1-02", 2));
    // 30 July 2024, 23:59 in Berlin (CEST) is still the old text; 00:00 on 31 July the new one
    assert_eq!(body.fassung_at(t("2024-07-30T21:59:59Z")).id, BEFORE);
    assert_eq!(body.fassung_at(t("2024-07-30T22:00:00Z")).id, CURRENT);
    assert_eq!(body.fassung_at(t(REFERENCE)).id, CURRENT);
    assert_eq!(body.fassung_at(t("1999-10-01T10:00:00Z")).id, BEFORE);
    let f = body.fassung_at(t(REFERENCE));
    assert_eq!((f.valid_from, f.valid_to, f.source), (d(FIRST_NEW_DAY), None, CURRENT_SOURCE));
}

#[test]
fn nw_45_fassung_in_the_succession_order() {
    let body = nrw_2020(cand("L1-02", 2).ineligible("2023-01-01", Some("2023-03-31")));
    let before = body.succession_order(noon(LAST_OLD_DAY)).lists.remove(0);
    assert_eq!(before.order, ["L1-02", "L1-03"]);
    let after = body.succession_order(noon(FIRST_NEW_DAY)).lists.remove(0);
    assert_eq!(after.order, ["L1-03"]);
    assert_eq!(after.passed_over.len(), 2, "{:#?}", after.passed_over);
}

#[test]
fn nw_45_fassung_in_decide_at() {
    // `nachfolge decide --at`: the same council and vacancy, a different successor either side of the change
    // date, and the output names the Fassung
    let election =
        serde_json::to_vec(&nrw_2020(cand("L1-02", 2).ineligible("2023-01-01", Some("2023-03-31"))).snapshot)
            .expect("json");
    let vacancy = serde_json::to_vec(&serde_json::json!({"body": "musterstadt-rat", "member": "L1-01",
        "reason": "resigned", "effective_at": "2024-07-15T12:00:00+02:00"}))
    .expect("json");
    let at = |s: &str| Some(chrono::DateTime::parse_from_rfc3339(s).expect("time"));
    let v = nachfolge::offline::decide(&election, &vacancy, at("2024-07-30T12:00:00+02:00")).expect("decide");
    assert_eq!((v["successor"].as_str(), v["fassung"]["id"].as_str()), (Some("L1-02"), Some(BEFORE)));
    assert_eq!(v["fassung"]["valid_from"], serde_json::Value::Null);
    assert_eq!(v["fassung"]["valid_to"], "2024-07-30");
    let v = nachfolge::offline::decide(&election, &vacancy, at("2024-07-31T12:00:00+02:00")).expect("decide");
    assert_eq!((v["successor"].as_str(), v["fassung"]["id"].as_str()), (Some("L1-03"), Some(CURRENT)));
    assert_eq!(v["fassung"]["source"], CURRENT_SOURCE);
    let last = v["trail"].as_array().and_then(|t| t.last()).expect("trail");
    assert_eq!((last["reason"].as_str(), last["detail"].as_str()), (Some("fassung_applied"), Some(CURRENT)));
}

#[test]
fn fassung_default_one_current_text_and_no_trail_step() {
    // a Land that declares no Fassungen (every Land but NRW so far): one, `current`, valid from the far past; its
    // trail names none
    let body = he_abc(hcand("W1-02", 2, 500));
    assert_eq!(body.fassung_at(t("1990-01-01T10:00:00Z")), &Fassung::CURRENT);
    assert_eq!(body.fassung_at(t(REFERENCE)), &Fassung::CURRENT);
    let d = decide(&body, &query("W1-01")).unwrap();
    assert!(d.trail.iter().all(|s| s.reason != "fassung_applied"), "{:#?}", d.trail);
    assert_eq!(serde_json::to_value(Fassung::CURRENT).expect("json")["valid_from"], serde_json::Value::Null);
}
