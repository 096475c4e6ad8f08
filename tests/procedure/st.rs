//! Sachsen-Anhalt — § 75 KWO LSA with § 43 KWG LSA: the declaration model (docs/legal.md, "Sachsen-Anhalt").
//! Included by tests/procedure.rs; its helpers are the parent's.

use super::*;

const ST: &str = "musterstedt-stadtrat";
const ST_CASE: &str = "musterstedt-stadtrat-1";

fn st_snapshot() -> Value {
    let path = format!("{}/examples/st-election.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

/// S1-02 resigned on 1 Oct 2027; S1-06 is determined (S1-03 left the party, notified before; S1-04 ineligible;
/// S1-05 waived in writing; equal votes with S1-07, first on the Wahlvorschlag).
fn st_open(snapshot: Value) -> (Council, Vec<Effect>) {
    let mut b = body_from(snapshot);
    let fx = run(
        &mut b,
        vacancy(ST, "S1-02", DepartureReason::Resigned, "2027-10-01T00:00:00+02:00"),
        "2027-10-20T09:00:00+02:00",
    );
    run(&mut b, sent(ST_CASE, 1, "2027-10-20T09:00:00+02:00"), "2027-10-20T09:00:00+02:00");
    (b, fx)
}

fn trail_has(v: &Value, reason: &str, citation: &str) -> bool {
    v["trail"].as_array().expect("trail").iter().any(|s| s["reason"] == reason && s["citation"] == citation)
}

#[test]
fn st_kwo_lsa_75_abs_1_determination_served_mail_asks_for_the_declaration_without_membership() {
    let (b, fx) = st_open(st_snapshot());
    let det = event(&fx, "succession.determined");
    assert_eq!(det["successor"]["id"], "S1-06");
    assert!(trail_has(det, "left_party_notified", "§ 47 Abs. 1 Satz 2 KWG LSA"));
    assert!(trail_has(det, "ineligible", "§ 48 Abs. 3 Satz 1 KWG LSA"));
    assert!(trail_has(det, "waived", "§ 48 Abs. 2 KWG LSA"));
    assert!(trail_has(det, "most_votes_list_order", "§ 41 Abs. 2 Satz 1 Halbsatz 2 KWG LSA"));
    assert_eq!(mail(&fx).template, "st_offer");
    // only the departed's membership ends; nobody joins before the declaration (§ 43 Abs. 1 KWG LSA)
    let joined = fx.iter().any(|e| {
        matches!(e, Effect::Publish { event_type, data } if *event_type == "membership.changed" && data["change"] == "joined")
    });
    assert!(!joined, "{:?}", kinds(&fx));
    assert!(matches!(state(&b, ST_CASE), CaseState::Offered(_)));
}

#[test]
fn st_kwg_lsa_47_abs_1_satz_2_notice_after_the_seat_became_free_has_no_effect() {
    // S1-06 left the party; the party's notice reached the Wahlleiter on 5 Oct 2027, after the seat became free
    // on 1 Oct (the day the worker records on the departed)
    let mut s = st_snapshot();
    add_fact(&mut s, 0, 5, json!({"type": "left_party", "on": "2027-09-01"}));
    add_fact(&mut s, 0, 5, json!({"type": "party_notice", "on": "2027-10-05"}));
    let (_, fx) = st_open(s);
    let det = event(&fx, "succession.determined");
    assert_eq!(det["successor"]["id"], "S1-06");
    assert!(trail_has(det, "left_party_no_effect", "§ 47 Abs. 1 Satz 2 KWG LSA"));
    // the same notice before the vacancy passes him over: S1-07 succeeds
    let mut s = st_snapshot();
    add_fact(&mut s, 0, 5, json!({"type": "left_party", "on": "2027-09-01"}));
    add_fact(&mut s, 0, 5, json!({"type": "party_notice", "on": "2027-09-30"}));
    let (_, fx) = st_open(s);
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "S1-07");
}

#[test]
fn st_kwg_lsa_43_abs_1_satz_2_silence_deemed_acceptance_from_the_start_of_the_next_day() {
    let (mut b, _) = st_open(st_snapshot());
    run(&mut b, served(ST, ST_CASE, "S1-06", ServiceMethod::Certificate, "2027-10-20"), "2027-10-20T10:00:00+02:00");
    // served Wed 20 Oct → the week ends Wed 27 Oct; accepted "mit Beginn des folgenden Tages", 28 Oct 00:00
    let fx = run(&mut b, expired(ST_CASE, 1), "2027-10-28T00:00:01+02:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("deemed_acceptance")));
    same_instant(&m["effective_at"], "2027-10-28T00:00:00+02:00");
    assert_eq!(announcement(&fx).legal_basis, "§ 75 Abs. 1 Satz 3 KWO LSA");
    assert_eq!(announcement(&fx).template, "st_successor");
}

#[test]
fn st_kwg_lsa_43_abs_1_satz_1_acceptance_membership_from_its_receipt() {
    let (mut b, _) = st_open(st_snapshot());
    run(&mut b, served(ST, ST_CASE, "S1-06", ServiceMethod::Certificate, "2027-10-20"), "2027-10-20T10:00:00+02:00");
    let fx = run(
        &mut b,
        declare(ST, ST_CASE, "S1-06", DeclarationKind::Accept, "2027-10-22T10:00:00+02:00"),
        "2027-10-22T10:00:00+02:00",
    );
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("acceptance")));
    same_instant(&m["effective_at"], "2027-10-22T10:00:00+02:00");
    assert!(matches!(state(&b, ST_CASE), CaseState::Filled { .. }));
}

#[test]
fn st_kwg_lsa_43_abs_1_satz_3_reservation_is_refusal_next_bewerber_refusal_irrevocable() {
    let (mut b, _) = st_open(st_snapshot());
    let fx = run(
        &mut b,
        declare(ST, ST_CASE, "S1-06", DeclarationKind::AcceptWithReservation, "2027-10-21T10:00:00+02:00"),
        "2027-10-21T10:00:00+02:00",
    );
    let det = event(&fx, "succession.determined");
    assert_eq!((det["successor"]["id"].as_str(), det["round"].as_u64()), (Some("S1-07"), Some(2)));
    assert_eq!(det["trail"][0]["citation"], "§ 48 Abs. 1 Satz 1 KWG LSA, § 42 Abs. 4 KVG LSA");
    assert!(has_fact(&b, "S1-06", "declined"));
    let fx = run(
        &mut b,
        declare(ST, ST_CASE, "S1-06", DeclarationKind::Accept, "2027-10-21T11:00:00+02:00"),
        "2027-10-21T11:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "refusal_irrevocable");
}

#[test]
fn st_kwg_lsa_48_abs_1_satz_1_refusal_next_bewerber() {
    let (mut b, _) = st_open(st_snapshot());
    let fx = run(
        &mut b,
        declare(ST, ST_CASE, "S1-06", DeclarationKind::Refuse, "2027-10-21T10:00:00+02:00"),
        "2027-10-21T10:00:00+02:00",
    );
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "S1-07");
    assert!(trail_has(event(&fx, "succession.determined"), "declined", "§ 48 Abs. 1 Satz 1 KWG LSA"));
}

#[test]
fn st_kwg_lsa_47_abs_1_satz_2_later_round_measures_the_notice_at_the_vacancy() {
    // S1-07 left the party; the notice reached the Wahlleiter on 15 Oct 2027, after the seat fell vacant on
    // 1 Oct and before the second round (21 Oct): the later round still measures at the vacancy (issue 25)
    let mut s = st_snapshot();
    add_fact(&mut s, 0, 6, json!({"type": "left_party", "on": "2027-09-01"}));
    add_fact(&mut s, 0, 6, json!({"type": "party_notice", "on": "2027-10-15"}));
    let (mut b, _) = st_open(s);
    let fx = run(
        &mut b,
        declare(ST, ST_CASE, "S1-06", DeclarationKind::Refuse, "2027-10-21T10:00:00+02:00"),
        "2027-10-21T10:00:00+02:00",
    );
    let det = event(&fx, "succession.determined");
    assert_eq!(det["successor"]["id"], "S1-07");
    assert!(trail_has(det, "left_party_no_effect", "§ 47 Abs. 1 Satz 2 KWG LSA"));
}

#[test]
fn st_feiertg_lsa_2_week_ending_on_reformationstag_ends_the_next_working_day() {
    let mut b = body_from(st_snapshot());
    run(
        &mut b,
        vacancy(ST, "S1-02", DepartureReason::Resigned, "2028-10-01T00:00:00+02:00"),
        "2028-10-20T09:00:00+02:00",
    );
    run(&mut b, sent(ST_CASE, 1, "2028-10-20T09:00:00+02:00"), "2028-10-20T09:00:00+02:00");
    // served Tue 24 Oct 2028 → the week ends Tue 31 Oct, Reformationstag → Wed 1 Nov (no Allerheiligen in ST)
    let fx = run(
        &mut b,
        served(ST, ST_CASE, "S1-06", ServiceMethod::Acknowledgement, "2028-10-24"),
        "2028-10-24T18:00:00+02:00",
    );
    let ds = event(&fx, "deadline.set");
    assert_eq!(ds["last_day"], "2028-11-01");
    assert!(trail_has(
        ds,
        "extended_public_holiday:Reformationstag",
        "§ 31 Abs. 3 Satz 1 VwVfG i. V. m. § 1 Abs. 1 VwVfG LSA"
    ));
}

#[test]
fn st_kwo_lsa_75_abs_3_exhausted_wahlvorschlag_announced_statutory_size_unchanged() {
    let mut b = body_from(st_snapshot());
    let fx = run(
        &mut b,
        vacancy(ST, "S2-01", DepartureReason::Died, "2027-10-01T00:00:00+02:00"),
        "2027-10-20T09:00:00+02:00",
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("list_exhausted"), Some(28)));
    assert_eq!(announcement(&fx).template, "st_vacancy");
}

#[test]
fn st_kwg_lsa_47_abs_1_party_notice_refused_outside_sachsen_anhalt_and_niedersachsen() {
    let path = format!("{}/examples/rp-election.json", env!("CARGO_MANIFEST_DIR"));
    let b = body_from(serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json"));
    let e = refuse(
        &b,
        fact("beispielhausen-rat", "R1-05", Fact::PartyNotice { on: d("2026-01-15") }),
        "2026-06-01T10:00:00+02:00",
    );
    assert!(e.to_string().contains("party_notice is a fact of Sachsen-Anhalt"), "{e}");
}

/// § 42 Abs. 1 Nr. 3 KVG LSA: a barred Bewerber who stays silent and proves nothing accepts the election with
/// the end of the week (§ 43 Abs. 1 Satz 2 KWG LSA) while the Hinderungsgrund stands, so he loses the mandate at
/// once — no deemed refusal: joined and left at the same instant, a former member, and the next is determined.
#[test]
fn st_kvg_lsa_42_abs_1_nr_3_barred_bewerber_accepted_by_silence_loses_the_mandate_at_once() {
    let mut s = st_snapshot();
    add_fact(&mut s, 0, 5, json!({"type": "barred", "on": "2027-01-01", "reason": "Beschäftigter der Stadt"}));
    let (mut b, _) = st_open(s);
    assert!(offer(&b, ST_CASE).barred);
    run(&mut b, served(ST, ST_CASE, "S1-06", ServiceMethod::Certificate, "2027-10-20"), "2027-10-20T10:00:00+02:00");
    let fx = run(&mut b, expired(ST_CASE, 1), "2027-10-28T00:00:01+02:00");
    let changes: Vec<(&str, &str)> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Publish { event_type, data }
                if *event_type == "membership.changed" && data["person"]["id"] == "S1-06" =>
            {
                Some((data["change"].as_str().unwrap_or(""), data["basis"].as_str().unwrap_or("")))
            }
            _ => None,
        })
        .collect();
    assert_eq!(changes, [("joined", "deemed_acceptance"), ("left", "bar_at_acceptance")]);
    let left = nth(&fx, "membership.changed", 1);
    same_instant(&left["effective_at"], "2027-10-28T00:00:00+02:00");
    // he did not refuse: no deemed refusal is recorded, no `declined` fact; he is a former member now
    assert!(!fx
        .iter()
        .any(|e| matches!(e, Effect::Publish { event_type, .. } if *event_type == "declaration.recorded")));
    assert!(!has_fact(&b, "S1-06", "declined") && has_fact(&b, "S1-06", "former_member"));
    // the seat passes to the next nächst festgestellter Bewerber in the same case
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "S1-07");
    assert_eq!(offer(&b, ST_CASE).successor, "S1-07");
    // a declaration of his that comes later is too late, not an irrevocable refusal
    let fx = run(
        &mut b,
        declare(ST, ST_CASE, "S1-06", DeclarationKind::Accept, "2027-10-29T10:00:00+02:00"),
        "2027-10-29T10:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "after_deadline");
}

/// § 42 Abs. 1 Nr. 3 KVG LSA: the proof that the Hinderungsgrund ended, within the week, and silence: accepted
/// with the end of the week, a member (§ 43 Abs. 1 Satz 2 KWG LSA).
#[test]
fn st_kvg_lsa_42_abs_1_nr_3_barred_bewerber_who_proves_in_time_and_stays_silent_is_a_member() {
    let mut s = st_snapshot();
    add_fact(&mut s, 0, 5, json!({"type": "barred", "on": "2027-01-01", "reason": "Beschäftigter der Stadt"}));
    let (mut b, _) = st_open(s);
    run(&mut b, served(ST, ST_CASE, "S1-06", ServiceMethod::Certificate, "2027-10-20"), "2027-10-20T10:00:00+02:00");
    run(&mut b, cured(ST, ST_CASE, "S1-06", "2027-10-22T10:00:00+02:00"), "2027-10-22T10:00:00+02:00");
    let fx = run(&mut b, expired(ST_CASE, 1), "2027-10-28T00:00:01+02:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("deemed_acceptance")));
    assert!(matches!(state(&b, ST_CASE), CaseState::Filled { .. }));
}
