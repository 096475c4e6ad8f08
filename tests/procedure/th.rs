//! Thüringen — § 23 Abs. 4 i. V. m. § 29 ThürKWG: the declaration model with a void reservation (docs/legal.md,
//! "Thüringen"). Included by tests/procedure.rs; its helpers are the parent's.

use super::*;

const TH: &str = "musterbach-stadtrat";
const TH_CASE: &str = "musterbach-stadtrat-1";

fn th_snapshot() -> Value {
    let path = format!("{}/examples/th-election.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

/// T1-02 resigned on 1 Oct 2027; T1-04 is determined (T1-03 refused earlier; leaving the party has no effect).
fn th_open() -> Council {
    let mut b = body_from(th_snapshot());
    let fx = run(
        &mut b,
        vacancy(TH, "T1-02", DepartureReason::Resigned, "2027-10-01T00:00:00+02:00"),
        "2027-10-20T09:00:00+02:00",
    );
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "T1-04");
    assert_eq!(mail(&fx).template, "th_offer");
    run(&mut b, sent(TH_CASE, 1, "2027-10-20T09:00:00+02:00"), "2027-10-20T09:00:00+02:00");
    b
}

fn joined(fx: &[Effect]) -> &Value {
    fx.iter()
        .find_map(|e| match e {
            Effect::Publish { event_type, data }
                if *event_type == "membership.changed" && data["change"] == "joined" =>
            {
                Some(data)
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("nobody joined: {:?}", kinds(fx)))
}

#[test]
fn th_thuerkwg_29_satz_3_reservation_void_the_acceptance_stands() {
    let mut b = th_open();
    let fx = run(
        &mut b,
        declare(TH, TH_CASE, "T1-04", DeclarationKind::AcceptWithReservation, "2027-10-21T10:00:00+02:00"),
        "2027-10-21T10:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.recorded")["kind"], "accept_with_reservation");
    let m = joined(&fx);
    assert_eq!((m["basis"].as_str(), m["person"]["id"].as_str()), (Some("acceptance"), Some("T1-04")));
    same_instant(&m["effective_at"], "2027-10-21T10:00:00+02:00");
    assert!(!kinds(&fx).contains(&"publish:succession.determined".to_owned()), "no next round");
    assert!(!has_fact(&b, "T1-04", "declined"));
    assert_eq!(announcement(&fx).legal_basis, "§ 23 Abs. 4 ThürKWG");
}

#[test]
fn th_thuerkwg_29_satz_3_timely_reservation_after_a_deemed_acceptance_keeps_him_a_member() {
    let mut b = th_open();
    run(&mut b, served(TH, TH_CASE, "T1-04", ServiceMethod::Certificate, "2027-10-20"), "2027-10-20T10:00:00+02:00");
    run(&mut b, expired(TH_CASE, 1), "2027-10-28T00:00:01+02:00");
    // an acceptance with a reservation received in time, entered after the deemed acceptance: it stands,
    // membership from its receipt (docs/legal.md, "A declaration that arrived in time always wins")
    let fx = run(
        &mut b,
        declare(TH, TH_CASE, "T1-04", DeclarationKind::AcceptWithReservation, "2027-10-25T10:00:00+02:00"),
        "2027-10-28T09:00:00+02:00",
    );
    let m = joined(&fx);
    assert_eq!(m["basis"], "correction");
    same_instant(&m["effective_at"], "2027-10-25T10:00:00+02:00");
    assert!(!kinds(&fx).contains(&"publish:succession.determined".to_owned()), "no next round");
}

#[test]
fn th_thuerkwg_29_satz_2_silence_deemed_acceptance_at_the_end_of_the_week() {
    let mut b = th_open();
    run(&mut b, served(TH, TH_CASE, "T1-04", ServiceMethod::Certificate, "2027-10-20"), "2027-10-20T10:00:00+02:00");
    let fx = run(&mut b, expired(TH_CASE, 1), "2027-10-28T00:00:01+02:00");
    let m = joined(&fx);
    assert_eq!(m["basis"], "deemed_acceptance");
    same_instant(&m["effective_at"], "2027-10-28T00:00:00+02:00");
    assert_eq!(announcement(&fx).template, "th_successor");
}

#[test]
fn th_thuerkwg_29_satz_2_written_refusal_next_nachruecker_irrevocable() {
    let mut b = th_open();
    let fx = run(
        &mut b,
        declare(TH, TH_CASE, "T1-04", DeclarationKind::Refuse, "2027-10-21T10:00:00+02:00"),
        "2027-10-21T10:00:00+02:00",
    );
    let det = event(&fx, "succession.determined");
    // T1-05 (T1-06 waived in writing)
    assert_eq!((det["successor"]["id"].as_str(), det["round"].as_u64()), (Some("T1-05"), Some(2)));
    assert_eq!(det["trail"][0]["citation"], "§ 23 Abs. 1 ThürKWG");
    let fx = run(
        &mut b,
        declare(TH, TH_CASE, "T1-04", DeclarationKind::Accept, "2027-10-21T11:00:00+02:00"),
        "2027-10-21T11:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "refusal_irrevocable");
}

#[test]
fn th_thuerfgtg_2_week_ending_on_the_weltkindertag_ends_the_next_working_day() {
    let mut b = body_from(th_snapshot());
    run(
        &mut b,
        vacancy(TH, "T1-02", DepartureReason::Resigned, "2027-09-01T00:00:00+02:00"),
        "2027-09-10T09:00:00+02:00",
    );
    run(&mut b, sent(TH_CASE, 1, "2027-09-10T09:00:00+02:00"), "2027-09-10T09:00:00+02:00");
    // served Mon 13 Sep 2027 → the week ends Mon 20 Sep, Weltkindertag → Tue 21 Sep
    let fx = run(
        &mut b,
        served(TH, TH_CASE, "T1-04", ServiceMethod::Acknowledgement, "2027-09-13"),
        "2027-09-13T18:00:00+02:00",
    );
    let ds = event(&fx, "deadline.set");
    assert_eq!(ds["last_day"], "2027-09-21");
    assert!(ds["trail"]
        .as_array()
        .expect("trail")
        .iter()
        .any(|s| s["reason"] == "extended_public_holiday:Weltkindertag"
            && s["citation"] == "§ 31 Abs. 3 Satz 1 ThürVwVfG"));
}

#[test]
fn th_thuerkwg_23_abs_2_no_nachruecker_vacancy_size_unchanged_review_by_the_rechtsaufsicht() {
    let mut b = body_from(th_snapshot());
    let fx = run(
        &mut b,
        vacancy(TH, "T2-01", DepartureReason::Died, "2027-10-01T00:00:00+02:00"),
        "2027-10-20T09:00:00+02:00",
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("list_exhausted"), Some(30)));
    assert_eq!(announcement(&fx).template, "th_vacancy");
}
