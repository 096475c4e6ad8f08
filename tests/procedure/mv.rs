//! Mecklenburg-Vorpommern — § 46 LKWG M-V with § 34 LKWG M-V: membership one week after the notification unless
//! refused in writing within it; a reservation is unbeachtlich (docs/legal.md, "Mecklenburg-Vorpommern").
//! Included by tests/procedure.rs; its helpers are the parent's.

use super::*;

const MV: &str = "musterhagen-stadtvertretung";
const MV_CASE: &str = "musterhagen-stadtvertretung-1";

fn mv_snapshot() -> Value {
    let path = format!("{}/examples/mv-election.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

/// M1-01 resigned on 20 Feb 2027; M1-05 is determined (M1-02 holds a seat, M1-03 refused earlier, M1-04 left the
/// party and the party told the Wahlleitung; M1-05 and M1-06 have equal votes, M1-05 stands first).
fn mv_open() -> (Council, Vec<Effect>) {
    let mut b = body_from(mv_snapshot());
    let fx = run(
        &mut b,
        vacancy(MV, "M1-01", DepartureReason::Resigned, "2027-02-20T00:00:00+01:00"),
        "2027-03-01T09:00:00+01:00",
    );
    run(&mut b, sent(MV_CASE, 1, "2027-03-01T09:00:00+01:00"), "2027-03-01T09:00:00+01:00");
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

/// Served Mon 1 Mar 2027: the week ends Mon 8 Mar, the Frauentag (§ 2 FTG M-V), and so on Tue 9 Mar.
fn mv_served(b: &mut Council) -> Vec<Effect> {
    run(b, served(MV, MV_CASE, "M1-05", ServiceMethod::Certificate, "2027-03-01"), "2027-03-01T10:00:00+01:00")
}

#[test]
fn mv_lkwg_46_abs_2_satz_1_the_next_ersatzperson_by_votes_is_notified_nobody_joins_yet() {
    let (b, fx) = mv_open();
    let det = event(&fx, "succession.determined");
    assert_eq!(det["successor"]["id"], "M1-05");
    assert!(trail_has(det, "already_called", "§ 33 Abs. 2 Satz 2 LKWG M-V"));
    assert!(trail_has(det, "declined", "§ 46 Abs. 2 Satz 7 LKWG M-V"));
    assert!(trail_has(det, "left_party_notified", "§ 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V"));
    assert!(trail_has(det, "most_votes_list_order", "§ 46 Abs. 2 Satz 1 i. V. m. § 33 Abs. 2 Satz 4 LKWG M-V"));
    assert_eq!(mail(&fx).template, "mv_offer");
    assert!(!joined(&fx), "{:?}", kinds(&fx));
    assert!(matches!(state(&b, MV_CASE), CaseState::Offered(_)));
}

#[test]
fn mv_lkwg_34_satz_1_silence_member_when_the_week_ends_extended_over_the_frauentag() {
    let (mut b, _) = mv_open();
    let fx = mv_served(&mut b);
    let ds = event(&fx, "deadline.set");
    assert_eq!(ds["last_day"], "2027-03-09");
    assert!(trail_has(ds, "extended_public_holiday:Frauentag", "§ 31 Abs. 3 Satz 1 VwVfG M-V"));
    let fx = run(&mut b, expired(MV_CASE, 1), "2027-03-10T00:00:01+01:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("deemed_acceptance")));
    assert_eq!(m["person"]["id"], "M1-05");
    same_instant(&m["effective_at"], "2027-03-10T00:00:00+01:00");
    let a = announcement(&fx);
    assert_eq!(a.template, "mv_successor");
    assert_eq!(a.legal_basis, "§ 46 Abs. 5 Satz 2 LKWG M-V, § 46 Abs. 3 LKWO M-V");
    assert!(a.objection_period.contains("§ 46 Abs. 4 i. V. m. § 35 LKWG M-V"), "{}", a.objection_period);
}

#[test]
fn mv_lkwg_34_satz_3_a_reservation_is_unbeachtlich_he_becomes_a_member_when_the_week_ends() {
    let (mut b, _) = mv_open();
    mv_served(&mut b);
    let fx = run(
        &mut b,
        declare(MV, MV_CASE, "M1-05", DeclarationKind::AcceptWithReservation, "2027-03-02T10:00:00+01:00"),
        "2027-03-02T10:00:00+01:00",
    );
    assert_eq!(event(&fx, "declaration.recorded")["kind"], "accept_with_reservation");
    assert!(!joined(&fx), "{:?}", kinds(&fx));
    assert!(!kinds(&fx).contains(&"publish:succession.determined".to_owned()), "no next round");
    assert!(!has_fact(&b, "M1-05", "declined"));
    let fx = run(&mut b, expired(MV_CASE, 1), "2027-03-10T00:00:01+01:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["person"]["id"].as_str()), (Some("joined"), Some("M1-05")));
    same_instant(&m["effective_at"], "2027-03-10T00:00:00+01:00");
}

#[test]
fn mv_lkwg_34_satz_2_an_acceptance_has_no_effect_a_refusal_within_the_week_calls_the_next() {
    let (mut b, _) = mv_open();
    mv_served(&mut b);
    let fx = run(
        &mut b,
        declare(MV, MV_CASE, "M1-05", DeclarationKind::Accept, "2027-03-02T10:00:00+01:00"),
        "2027-03-02T10:00:00+01:00",
    );
    assert_eq!(event(&fx, "declaration.recorded")["kind"], "accept");
    assert!(!joined(&fx), "{:?}", kinds(&fx));
    let fx = run(
        &mut b,
        declare(MV, MV_CASE, "M1-05", DeclarationKind::Refuse, "2027-03-05T10:00:00+01:00"),
        "2027-03-05T10:00:00+01:00",
    );
    let det = event(&fx, "succession.determined");
    assert_eq!((det["successor"]["id"].as_str(), det["round"].as_u64()), (Some("M1-06"), Some(2)));
    assert_eq!(det["trail"][0]["citation"], "§ 46 Abs. 2 Satz 1, 7 LKWG M-V");
    assert!(trail_has(det, "declined", "§ 46 Abs. 2 Satz 7 LKWG M-V"));
    assert!(has_fact(&b, "M1-05", "declined"));
}

#[test]
fn mv_lkwg_34_satz_4_a_refusal_cannot_be_withdrawn() {
    let (mut b, _) = mv_open();
    let fx = run(
        &mut b,
        declare(MV, MV_CASE, "M1-05", DeclarationKind::Refuse, "2027-03-02T10:00:00+01:00"),
        "2027-03-02T10:00:00+01:00",
    );
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "M1-06");
    let fx = run(
        &mut b,
        declare(MV, MV_CASE, "M1-05", DeclarationKind::Accept, "2027-03-02T11:00:00+01:00"),
        "2027-03-02T11:00:00+01:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "refusal_irrevocable");
}

#[test]
fn mv_lkwg_46_abs_1_no_ersatzperson_or_an_einzelbewerber_the_seat_stays_free_size_unchanged() {
    let mut b = body_from(mv_snapshot());
    let fx = run(
        &mut b,
        vacancy(MV, "M2-01", DepartureReason::Died, "2027-02-20T00:00:00+01:00"),
        "2027-03-01T09:00:00+01:00",
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("list_exhausted"), Some(25)));
    assert_eq!(announcement(&fx).template, "mv_vacancy");
    let fx = run(
        &mut b,
        vacancy(MV, "E1-01", DepartureReason::Resigned, "2027-02-21T00:00:00+01:00"),
        "2027-03-01T10:00:00+01:00",
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("individual_candidate"), Some(25)));
}

#[test]
fn mv_lkwg_46_abs_2_satz_3_nr_1_party_notice_is_a_fact_of_mv() {
    let mut b = body_from(mv_snapshot());
    let fx = run(&mut b, fact(MV, "M1-06", Fact::PartyNotice { on: d("2027-01-10") }), "2027-01-11T09:00:00+01:00");
    assert!(!kinds(&fx).iter().any(|k| k.contains("rejected")), "{:?}", kinds(&fx));
}

/// § 47 Abs. 1 LKWG M-V: the Wahlleitung records that a Listennachfolger belonged to the banned party; the
/// fact is stored (no rejection). Elsewhere (here Nordrhein-Westfalen) `candidate.fact_recorded` refuses it, naming
/// the Länder that model it.
#[test]
fn mv_47_abs_1_banned_party_member_is_a_fact_of_mv_rp_bb() {
    let mut b = body_from(mv_snapshot());
    let fx =
        run(&mut b, fact(MV, "M1-06", Fact::BannedPartyMember { on: d("2027-01-10") }), "2027-01-11T09:00:00+01:00");
    assert!(!kinds(&fx).iter().any(|k| k.contains("rejected")), "{:?}", kinds(&fx));
    let path = format!("{}/examples/nrw-election.json", env!("CARGO_MANIFEST_DIR"));
    let nrw = body_from(serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json"));
    let e = refuse(
        &nrw,
        fact("musterstadt-rat", "L1-05", Fact::BannedPartyMember { on: d("2026-01-15") }),
        "2026-06-01T10:00:00+02:00",
    );
    assert!(e.to_string().contains("banned_party_member is a fact of Mecklenburg-Vorpommern"), "{e}");
}

/// § 25 Abs. 4 KV M-V: an Unvereinbarkeit holds up nothing — a barred Ersatzperson who stays silent becomes a
/// member when the week ends like anyone (§ 34 Satz 1 LKWG M-V), not deemed to refuse for want of a proof.
#[test]
fn mv_kv_25_abs_4_a_barred_ersatzperson_who_stays_silent_is_a_member_when_the_week_ends() {
    let mut s = mv_snapshot();
    add_fact(&mut s, 0, 4, json!({"type": "barred", "on": "2026-01-01", "reason": "Bediensteter der Stadt"}));
    let mut b = body_from(s);
    run(
        &mut b,
        vacancy(MV, "M1-01", DepartureReason::Resigned, "2027-02-20T00:00:00+01:00"),
        "2027-03-01T09:00:00+01:00",
    );
    run(&mut b, sent(MV_CASE, 1, "2027-03-01T09:00:00+01:00"), "2027-03-01T09:00:00+01:00");
    assert_eq!(offer(&b, MV_CASE).successor, "M1-05");
    mv_served(&mut b);
    let fx = run(&mut b, expired(MV_CASE, 1), "2027-03-10T00:00:01+01:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("deemed_acceptance")));
    assert!(!fx
        .iter()
        .any(|e| matches!(e, Effect::Publish { event_type, .. } if *event_type == "declaration.recorded")));
}
