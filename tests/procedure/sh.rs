//! Schleswig-Holstein — § 44 Abs. 3 with § 37 GKWG: membership when the week ends unless refused in writing
//! (docs/legal.md, "Schleswig-Holstein"). Included by tests/procedure.rs; its helpers are the parent's.

use super::*;

const SH: &str = "musterwik-gemeindevertretung";
const SH_CASE: &str = "musterwik-gemeindevertretung-1";

fn sh_snapshot() -> Value {
    let path = format!("{}/examples/sh-election.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

/// K1-01 (won WK 1) resigned on 1 Oct 2027; K1-05 is determined (K1-02, K1-03 hold seats, K1-04 refused
/// earlier; K1-05 left the party, without effect).
fn sh_open() -> (Council, Vec<Effect>) {
    let mut b = body_from(sh_snapshot());
    let fx = run(
        &mut b,
        vacancy(SH, "K1-01", DepartureReason::Resigned, "2027-10-01T00:00:00+02:00"),
        "2027-10-20T09:00:00+02:00",
    );
    run(&mut b, sent(SH_CASE, 1, "2027-10-20T09:00:00+02:00"), "2027-10-20T09:00:00+02:00");
    (b, fx)
}

fn trail_has(v: &Value, reason: &str, citation: &str) -> bool {
    v["trail"].as_array().expect("trail").iter().any(|s| s["reason"] == reason && s["citation"] == citation)
}

fn joined(fx: &[Effect]) -> bool {
    fx.iter().any(|e| {
        matches!(e, Effect::Publish { event_type, data } if *event_type == "membership.changed" && data["change"] == "joined")
    })
}

fn sh_served(b: &mut Council) {
    run(b, served(SH, SH_CASE, "K1-05", ServiceMethod::Certificate, "2027-10-20"), "2027-10-20T10:00:00+02:00");
}

#[test]
fn sh_gkwg_44_abs_1_and_3_the_next_on_the_list_of_a_directly_elected_member_is_notified() {
    let (b, fx) = sh_open();
    let det = event(&fx, "succession.determined");
    assert_eq!(det["successor"]["id"], "K1-05");
    assert!(trail_has(det, "seated", "§ 44 Abs. 1 GKWG"));
    assert!(trail_has(det, "declined", "§ 44 Abs. 1 i. V. m. § 37 Satz 3 GKWG"));
    assert!(trail_has(det, "left_party_no_effect", "§ 44 Abs. 1 GKWG"));
    assert!(trail_has(det, "next_on_list", "§ 44 Abs. 1 GKWG"));
    assert_eq!(mail(&fx).template, "sh_offer");
    // nobody joins before the week has ended (§ 37 Satz 1 GKWG)
    assert!(!joined(&fx), "{:?}", kinds(&fx));
    assert!(matches!(state(&b, SH_CASE), CaseState::Offered(_)));
}

#[test]
fn sh_gkwg_37_satz_1_membership_automatically_when_the_week_ends() {
    let (mut b, _) = sh_open();
    sh_served(&mut b);
    // served Wed 20 Oct 2027 → the week ends Wed 27 Oct, 24:00
    let fx = run(&mut b, expired(SH_CASE, 1), "2027-10-28T00:00:01+02:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("deemed_acceptance")));
    same_instant(&m["effective_at"], "2027-10-28T00:00:00+02:00");
    assert_eq!(announcement(&fx).legal_basis, "§ 44 Abs. 3 Satz 1 GKWG");
    assert_eq!(announcement(&fx).template, "sh_successor");
}

#[test]
fn sh_gkwg_37_satz_1_an_acceptance_does_not_start_membership_before_the_week_ends() {
    let (mut b, _) = sh_open();
    sh_served(&mut b);
    let fx = run(
        &mut b,
        declare(SH, SH_CASE, "K1-05", DeclarationKind::Accept, "2027-10-22T10:00:00+02:00"),
        "2027-10-22T10:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.recorded")["kind"], "accept");
    assert!(!joined(&fx), "{:?}", kinds(&fx));
    assert!(matches!(state(&b, SH_CASE), CaseState::Offered(_)));
    let fx = run(&mut b, expired(SH_CASE, 1), "2027-10-28T00:00:01+02:00");
    let m = event(&fx, "membership.changed");
    same_instant(&m["effective_at"], "2027-10-28T00:00:00+02:00");
    // a timely acceptance entered after the week ended changes nothing either: the case is closed
    let fx = run(
        &mut b,
        declare(SH, SH_CASE, "K1-05", DeclarationKind::Accept, "2027-10-27T18:00:00+02:00"),
        "2027-10-28T09:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "case_closed");
}

#[test]
fn sh_gkwg_37_satz_1_a_refusal_within_the_week_counts_even_after_an_acceptance() {
    let (mut b, _) = sh_open();
    sh_served(&mut b);
    run(
        &mut b,
        declare(SH, SH_CASE, "K1-05", DeclarationKind::Accept, "2027-10-21T10:00:00+02:00"),
        "2027-10-21T10:00:00+02:00",
    );
    let fx = run(
        &mut b,
        declare(SH, SH_CASE, "K1-05", DeclarationKind::Refuse, "2027-10-22T10:00:00+02:00"),
        "2027-10-22T10:00:00+02:00",
    );
    let det = event(&fx, "succession.determined");
    assert_eq!((det["successor"]["id"].as_str(), det["round"].as_u64()), (Some("K1-06"), Some(2)));
    assert_eq!(det["trail"][0]["citation"], "§ 44 Abs. 1 GKWG");
    assert!(has_fact(&b, "K1-05", "declined"));
}

#[test]
fn sh_gkwg_37_satz_2_and_3_a_reservation_is_a_refusal_which_cannot_be_withdrawn() {
    let (mut b, _) = sh_open();
    let fx = run(
        &mut b,
        declare(SH, SH_CASE, "K1-05", DeclarationKind::AcceptWithReservation, "2027-10-21T10:00:00+02:00"),
        "2027-10-21T10:00:00+02:00",
    );
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "K1-06");
    let fx = run(
        &mut b,
        declare(SH, SH_CASE, "K1-05", DeclarationKind::Accept, "2027-10-21T11:00:00+02:00"),
        "2027-10-21T11:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "refusal_irrevocable");
}

#[test]
fn sh_sftg_2_week_ending_on_reformationstag_ends_the_next_working_day() {
    let mut b = body_from(sh_snapshot());
    run(
        &mut b,
        vacancy(SH, "K1-01", DepartureReason::Resigned, "2028-10-01T00:00:00+02:00"),
        "2028-10-20T09:00:00+02:00",
    );
    run(&mut b, sent(SH_CASE, 1, "2028-10-20T09:00:00+02:00"), "2028-10-20T09:00:00+02:00");
    // served Tue 24 Oct 2028 → the week ends Tue 31 Oct, Reformationstag → Wed 1 Nov (no Allerheiligen in SH)
    let fx = run(
        &mut b,
        served(SH, SH_CASE, "K1-05", ServiceMethod::Acknowledgement, "2028-10-24"),
        "2028-10-24T18:00:00+02:00",
    );
    let ds = event(&fx, "deadline.set");
    assert_eq!(ds["last_day"], "2028-11-01");
    assert!(trail_has(ds, "extended_public_holiday:Reformationstag", "§ 89 Abs. 3 LVwG"));
}

#[test]
fn sh_gkwg_44_abs_2_no_list_or_an_exhausted_list_the_seat_stays_empty_size_unchanged() {
    let mut b = body_from(sh_snapshot());
    let fx = run(
        &mut b,
        vacancy(SH, "W1-01", DepartureReason::Died, "2027-10-01T00:00:00+02:00"),
        "2027-10-20T09:00:00+02:00",
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("list_exhausted"), Some(19)));
    assert_eq!(announcement(&fx).template, "sh_vacancy");
    assert_eq!(announcement(&fx).legal_basis, "§ 44 Abs. 3 Satz 1 GKWG");
    let fx = run(
        &mut b,
        vacancy(SH, "E1-01", DepartureReason::Resigned, "2027-10-02T00:00:00+02:00"),
        "2027-10-20T10:00:00+02:00",
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("individual_candidate"), Some(19)));
}

/// `sh_open` with K1-05 incompatible (§ 31a Abs. 1 GO: a Beschäftigte of the Gemeinde).
fn sh_open_barred() -> Council {
    let mut s = sh_snapshot();
    add_fact(&mut s, 0, 4, json!({"type": "barred", "on": "2027-01-01", "reason": "Beschäftigte der Gemeinde"}));
    let mut b = body_from(s);
    run(
        &mut b,
        vacancy(SH, "K1-01", DepartureReason::Resigned, "2027-10-01T00:00:00+02:00"),
        "2027-10-20T09:00:00+02:00",
    );
    run(&mut b, sent(SH_CASE, 1, "2027-10-20T09:00:00+02:00"), "2027-10-20T09:00:00+02:00");
    b
}

/// § 37a Abs. 1 Satz 1 GKWG: an incompatible official or employee "erwirbt abweichend von § 37 die Mitgliedschaft
/// … erst, wenn" he proves the leave (or another post) in writing — the end of the week alone makes him no member,
/// nor does it count as a refusal; the proof after the week makes him a member from its receipt.
#[test]
fn sh_gkwg_37a_abs_1_an_incompatible_successor_becomes_a_member_only_with_the_written_proof() {
    let mut b = sh_open_barred();
    assert!(offer(&b, SH_CASE).barred);
    sh_served(&mut b);
    let fx = run(&mut b, expired(SH_CASE, 1), "2027-10-28T00:00:01+02:00");
    assert!(!joined(&fx), "{:?}", kinds(&fx));
    assert!(!fx
        .iter()
        .any(|e| matches!(e, Effect::Publish { event_type, .. } if *event_type == "declaration.recorded")));
    assert!(matches!(state(&b, SH_CASE), CaseState::Offered(o) if o.successor == "K1-05"));
    // the written proof of the leave, two weeks later: a member from its receipt
    let fx = run(&mut b, cured(SH, SH_CASE, "K1-05", "2027-11-10T10:00:00+01:00"), "2027-11-10T10:00:00+01:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("bar_cured")));
    same_instant(&m["effective_at"], "2027-11-10T10:00:00+01:00");
    assert!(matches!(state(&b, SH_CASE), CaseState::Filled { .. }));
}

/// § 37a Abs. 1 Satz 1 with § 37 Satz 1 GKWG: the proof within the week — a member when the week ends, not before.
#[test]
fn sh_gkwg_37a_abs_1_proof_within_the_week_membership_when_the_week_ends() {
    let mut b = sh_open_barred();
    sh_served(&mut b);
    let fx = run(&mut b, cured(SH, SH_CASE, "K1-05", "2027-10-22T10:00:00+02:00"), "2027-10-22T10:00:00+02:00");
    assert!(!joined(&fx), "{:?}", kinds(&fx));
    let fx = run(&mut b, expired(SH_CASE, 1), "2027-10-28T00:00:01+02:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("deemed_acceptance")));
    same_instant(&m["effective_at"], "2027-10-28T00:00:00+02:00");
}
