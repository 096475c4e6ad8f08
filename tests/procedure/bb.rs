//! Brandenburg — § 60 BbgKWahlG with § 51 BbgKWahlG and § 80 BbgKWahlV: the declaration model with the proof of
//! § 51 Abs. 2 (docs/legal.md, "Brandenburg"). Included by tests/procedure.rs; its helpers are the parent's.

use super::*;
use nachfolge::model::Land;

const BB: &str = "musterwalde-svv";
const BB_CASE: &str = "musterwalde-svv-1";

fn bb_snapshot() -> Value {
    let path = format!("{}/examples/bb-election.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

/// B1-01 resigned on 15 Oct 2028; B1-05 is determined on 20 Oct (B1-02 holds a seat, B1-03 refused earlier, B1-04
/// left the party and the party told the Wahlleiterin; B1-05 and B1-06 have equal votes, B1-05 stands first).
fn bb_open(b: &mut Council) -> Vec<Effect> {
    let fx = run(
        b,
        vacancy(BB, "B1-01", DepartureReason::Resigned, "2028-10-15T00:00:00+02:00"),
        "2028-10-20T09:00:00+02:00",
    );
    run(b, sent(BB_CASE, 1, "2028-10-20T09:00:00+02:00"), "2028-10-20T09:00:00+02:00");
    fx
}

fn trail_has(v: &Value, reason: &str, citation: &str) -> bool {
    v["trail"].as_array().expect("trail").iter().any(|s| s["reason"] == reason && s["citation"] == citation)
}

fn joined(fx: &[Effect]) -> Option<&Value> {
    fx.iter().find_map(|e| match e {
        Effect::Publish { event_type, data } if *event_type == "membership.changed" && data["change"] == "joined" => {
            Some(data)
        }
        _ => None,
    })
}

/// Served Tue 24 Oct 2028: the week ends Tue 31 Oct, the Reformationstag (§ 2 Abs. 1 Nr. 10 FTG), and so on
/// Wed 1 Nov (Allerheiligen is no holiday in Brandenburg).
fn bb_served(b: &mut Council) -> Vec<Effect> {
    run(b, served(BB, BB_CASE, "B1-05", ServiceMethod::Certificate, "2028-10-24"), "2028-10-24T10:00:00+02:00")
}

#[test]
fn bb_bbgkwahlg_60_abs_3_satz_1_the_first_ersatzperson_by_votes_is_notified_nobody_joins_yet() {
    let mut b = body_from(bb_snapshot());
    let fx = bb_open(&mut b);
    let det = event(&fx, "succession.determined");
    assert_eq!(det["successor"]["id"], "B1-05");
    assert_eq!(det["barred"], false);
    assert!(trail_has(det, "already_called", "§ 60 Abs. 1 BbgKWahlG"));
    assert!(trail_has(det, "declined", "§ 61 Abs. 1 BbgKWahlG"));
    assert!(trail_has(det, "left_party_notified", "§ 60 Abs. 4 BbgKWahlG"));
    assert!(trail_has(det, "most_votes_list_order", "§ 60 Abs. 2 Satz 1 Halbsatz 2 BbgKWahlG"));
    let m = mail(&fx);
    assert_eq!(m.template, "bb_offer");
    assert!(m.subject.contains("Ersatzperson"), "{}", m.subject);
    assert!(joined(&fx).is_none(), "{:?}", kinds(&fx));
    assert!(matches!(state(&b, BB_CASE), CaseState::Offered(_)));
}

#[test]
fn bb_bbgkwahlg_51_abs_1_satz_2_silence_deemed_acceptance_the_week_extended_over_the_reformationstag() {
    let mut b = body_from(bb_snapshot());
    bb_open(&mut b);
    let fx = bb_served(&mut b);
    let ds = event(&fx, "deadline.set");
    assert_eq!(ds["last_day"], "2028-11-01");
    assert!(trail_has(
        ds,
        "extended_public_holiday:Reformationstag",
        "§ 31 Abs. 3 Satz 1 VwVfG i. V. m. § 1 Abs. 1 VwVfGBbg"
    ));
    // nothing happens before the week ends
    let fx = run(&mut b, expired(BB_CASE, 1), "2028-11-01T23:00:00+01:00");
    assert!(joined(&fx).is_none());
    let fx = run(&mut b, expired(BB_CASE, 1), "2028-11-02T00:00:01+01:00");
    let m = joined(&fx).expect("joined");
    assert_eq!((m["basis"].as_str(), m["person"]["id"].as_str()), (Some("deemed_acceptance"), Some("B1-05")));
    // "mit Beginn des folgenden Tages"
    same_instant(&m["effective_at"], "2028-11-02T00:00:00+01:00");
    assert!(m.get("bar_end_proof").is_none(), "no bar, no period: {m}");
    let a = announcement(&fx);
    assert_eq!(a.template, "bb_successor");
    assert_eq!(a.legal_basis, "§ 60 Abs. 7 BbgKWahlG, § 80 Abs. 1 Satz 2, Abs. 3 BbgKWahlV");
    assert!(a.objection_period.contains("§ 55 BbgKWahlG"), "{}", a.objection_period);
}

#[test]
fn bb_bbgkwahlg_51_abs_1_satz_1_an_acceptance_makes_her_a_member_on_receipt() {
    let mut b = body_from(bb_snapshot());
    bb_open(&mut b);
    bb_served(&mut b);
    let fx = run(
        &mut b,
        declare(BB, BB_CASE, "B1-05", DeclarationKind::Accept, "2028-10-26T10:00:00+02:00"),
        "2028-10-26T10:00:00+02:00",
    );
    let m = joined(&fx).expect("joined");
    assert_eq!(m["basis"], "acceptance");
    same_instant(&m["effective_at"], "2028-10-26T10:00:00+02:00");
    assert!(matches!(state(&b, BB_CASE), CaseState::Filled { .. }));
}

#[test]
fn bb_bbgkwahlg_51_abs_1_satz_3_a_reservation_is_a_refusal_the_next_ersatzperson_follows() {
    let mut b = body_from(bb_snapshot());
    bb_open(&mut b);
    bb_served(&mut b);
    let fx = run(
        &mut b,
        declare(BB, BB_CASE, "B1-05", DeclarationKind::AcceptWithReservation, "2028-10-26T10:00:00+02:00"),
        "2028-10-26T10:00:00+02:00",
    );
    assert!(joined(&fx).is_none());
    let det = event(&fx, "succession.determined");
    assert_eq!((det["successor"]["id"].as_str(), det["round"].as_u64()), (Some("B1-06"), Some(2)));
    assert_eq!(det["trail"][0]["citation"], "§ 60 Abs. 3 Satz 1 BbgKWahlG");
    assert!(trail_has(det, "declined", "§ 61 Abs. 1 BbgKWahlG"));
    assert!(has_fact(&b, "B1-05", "declined"));
}

#[test]
fn bb_bbgkwahlg_51_abs_1_satz_4_a_refusal_cannot_be_withdrawn() {
    let mut b = body_from(bb_snapshot());
    bb_open(&mut b);
    let fx = run(
        &mut b,
        declare(BB, BB_CASE, "B1-05", DeclarationKind::Refuse, "2028-10-21T10:00:00+02:00"),
        "2028-10-21T10:00:00+02:00",
    );
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "B1-06");
    let fx = run(
        &mut b,
        declare(BB, BB_CASE, "B1-05", DeclarationKind::Accept, "2028-10-21T11:00:00+02:00"),
        "2028-10-21T11:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "refusal_irrevocable");
}

/// B1-05 is employed by the city (§ 12 Abs. 1 Nr. 1 BbgKWahlG), recorded before the vacancy.
fn bb_barred(b: &mut Council) {
    let bar = Fact::Barred { on: d("2028-09-01"), reason: "Beschäftigte der Stadt Musterwalde".into() };
    run(b, fact(BB, "B1-05", bar), "2028-09-02T09:00:00+02:00");
}

#[test]
fn bb_bbgkwahlg_51_abs_2_satz_2_no_proof_of_the_termination_declaration_within_the_week_deemed_refusal() {
    let mut b = body_from(bb_snapshot());
    bb_barred(&mut b);
    let fx = bb_open(&mut b);
    let det = event(&fx, "succession.determined");
    assert_eq!((det["successor"]["id"].as_str(), det["barred"].as_bool()), (Some("B1-05"), Some(true)));
    assert!(trail_has(det, "barred_must_prove_end", "§ 12 Abs. 1 bis 3 i. V. m. § 51 Abs. 2 Satz 1 bis 4 BbgKWahlG"));
    assert!(mail(&fx).subject.contains("§ 51 Abs. 2 BbgKWahlG"), "{}", mail(&fx).subject);
    bb_served(&mut b);
    // an acceptance alone does not make her a member
    let fx = run(
        &mut b,
        declare(BB, BB_CASE, "B1-05", DeclarationKind::Accept, "2028-10-26T10:00:00+02:00"),
        "2028-10-26T10:00:00+02:00",
    );
    assert!(joined(&fx).is_none());
    let fx = run(&mut b, expired(BB_CASE, 1), "2028-11-02T00:00:01+01:00");
    assert_eq!(event(&fx, "declaration.recorded")["kind"], "deemed_refusal");
    let det = event(&fx, "succession.determined");
    assert_eq!((det["successor"]["id"].as_str(), det["round"].as_u64()), (Some("B1-06"), Some(2)));
}

#[test]
fn bb_bbgkwahlg_51_abs_2_satz_3_member_on_the_proof_of_the_declaration_the_end_due_four_months_after_acceptance() {
    let mut b = body_from(bb_snapshot());
    bb_barred(&mut b);
    run(
        &mut b,
        vacancy(BB, "B1-01", DepartureReason::Resigned, "2028-11-20T00:00:00+01:00"),
        "2028-11-27T09:00:00+01:00",
    );
    run(&mut b, sent(BB_CASE, 1, "2028-11-27T09:00:00+01:00"), "2028-11-27T09:00:00+01:00");
    run(&mut b, served(BB, BB_CASE, "B1-05", ServiceMethod::Certificate, "2028-11-28"), "2028-11-28T10:00:00+01:00");
    run(&mut b, cured(BB, BB_CASE, "B1-05", "2028-11-30T10:00:00+01:00"), "2028-11-30T10:00:00+01:00");
    let fx = run(
        &mut b,
        declare(BB, BB_CASE, "B1-05", DeclarationKind::Accept, "2028-11-30T11:00:00+01:00"),
        "2028-11-30T11:00:00+01:00",
    );
    let m = joined(&fx).expect("joined");
    same_instant(&m["effective_at"], "2028-11-30T11:00:00+01:00");
    // four months after 30 Nov 2028: Fri 30 Mar 2029 is Karfreitag, then Saturday, Ostersonntag, Ostermontag →
    // Tue 3 Apr 2029
    let p = &m["bar_end_proof"];
    assert_eq!(p["last_day"], "2029-04-03", "{m}");
    same_instant(&p["ends_at"], "2029-04-04T00:00:00+02:00");
    assert!(trail_has(p, "bar_end_proof_4_months_after_acceptance", "§ 51 Abs. 2 Satz 3, § 59 Abs. 1 Nr. 6 BbgKWahlG"));
    assert!(trail_has(p, "ends_at_end_of_last_day", "§ 188 Abs. 2 BGB"));
    let extension = "§ 31 Abs. 3 Satz 1 VwVfG i. V. m. § 1 Abs. 1 VwVfGBbg";
    for reason in [
        "extended_public_holiday:Karfreitag",
        "extended_weekend:Saturday",
        "extended_weekend:Sunday",
        "extended_public_holiday:Ostermontag",
    ] {
        assert!(trail_has(p, reason, extension), "{reason}: {p}");
    }
}

#[test]
fn bb_bbgkwahlg_60_abs_5_no_ersatzperson_or_an_einzelbewerber_the_seat_stays_unbesetzt_size_reduced() {
    let mut b = body_from(bb_snapshot());
    let fx = run(
        &mut b,
        vacancy(BB, "B2-01", DepartureReason::Died, "2028-10-15T00:00:00+02:00"),
        "2028-10-20T09:00:00+02:00",
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("list_exhausted"), Some(27)));
    assert!(trail_has(v, "statutory_size_reduced", "§ 60 Abs. 5 Satz 2 BbgKWahlG"));
    assert_eq!(announcement(&fx).template, "bb_vacancy");
    let fx = run(
        &mut b,
        vacancy(BB, "E1-01", DepartureReason::Resigned, "2028-10-16T00:00:00+02:00"),
        "2028-10-20T10:00:00+02:00",
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("individual_candidate"), Some(26)));
}

#[test]
fn bb_bbgkwahlg_62_abs_3_a_seat_freed_by_a_ban_stays_unbesetzt_on_any_wahlvorschlag() {
    let mut b = body_from(bb_snapshot());
    let cmd = Command::Inbound(Inbound::VacancyReported(VacancyReported {
        body: BB.into(),
        member: "B1-01".into(),
        reason: DepartureReason::PartyBanned,
        effective_at: tz("2028-10-15T00:00:00+02:00"),
        list_banned: Some(false),
    }));
    let fx = run(&mut b, cmd, "2028-10-20T09:00:00+02:00");
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("party_banned"), Some(27)));
    assert!(trail_has(v, "party_banned", "§ 62 Abs. 3 Satz 1 BbgKWahlG"));
    assert_eq!(announcement(&fx).template, "bb_vacancy");
}

#[test]
fn bb_ftg_2_abs_1_holidays_ostersonntag_pfingstsonntag_reformationstag_no_fronleichnam_no_allerheiligen() {
    assert_eq!(Land::Bb.holiday_name(d("2029-04-01")), Some("Ostersonntag"));
    assert_eq!(Land::Bb.holiday_name(d("2029-05-20")), Some("Pfingstsonntag"));
    assert_eq!(Land::Bb.holiday_name(d("2028-10-31")), Some("Reformationstag"));
    // Fronleichnam 2029, Allerheiligen, Frauentag, 8. Mai (a Gedenktag only, § 2 Abs. 2 FTG)
    for day in ["2029-05-31", "2028-11-01", "2029-03-08", "2029-05-08"] {
        assert!(!Land::Bb.is_public_holiday(d(day)), "BB {day}");
    }
    assert_eq!(Land::Bb.holidays(2029).len(), 12);
    assert_eq!(serde_json::from_str::<Land>("\"BB\"").ok(), Some(Land::Bb));
}

#[test]
fn bb_bbgkwahlg_60_abs_4_party_notice_is_a_fact_of_bb() {
    let mut b = body_from(bb_snapshot());
    let fx = run(&mut b, fact(BB, "B1-06", Fact::PartyNotice { on: d("2028-01-10") }), "2028-01-11T09:00:00+01:00");
    assert!(!kinds(&fx).iter().any(|k| k.contains("rejected")), "{:?}", kinds(&fx));
}

/// § 59 Abs. 1 Nr. 4 BbgKWahlG in the worker: the member leaves, nobody is called or announced, the case closes at
/// once (so that the corrected result can be registered), and there is no determination to review.
#[test]
fn bb_59_abs_1_nr_4_bbgkwahlg_the_worker_closes_a_seat_lost_through_a_corrected_result_without_succession() {
    let mut b = body_from(bb_snapshot());
    let size = b.info().statutory_size;
    let fx = run(
        &mut b,
        vacancy(BB, "B1-01", DepartureReason::ResultCorrected, "2028-10-15T00:00:00+02:00"),
        "2028-10-20T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:seat.left_vacant"]);
    let v = event(&fx, "seat.left_vacant");
    assert_eq!(v["reason"], "result_corrected");
    assert_eq!(v["statutory_size"].as_u64(), Some(u64::from(size)));
    assert!(trail_has(v, "result_corrected_no_succession", "§ 59 Abs. 1 Nr. 4 BbgKWahlG"));
    assert!(!b.has_open_case());
    assert!(b.cases[BB_CASE].history.announcements.is_empty());
    let review = Command::Inbound(Inbound::ReviewDecided(ReviewDecided {
        body: BB.into(),
        case: BB_CASE.into(),
        outcome: ReviewOutcome::Annulled,
        successor: None,
        decided_at: tz("2028-11-20T10:00:00+01:00"),
        decided_by: None,
        is_final: true,
        final_on: Some(d("2028-11-20")),
    }));
    let err = refuse(&b, review, "2028-11-20T10:00:00+01:00");
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("§ 59 Abs. 1 Nr. 4 BbgKWahlG")), "{err:?}");
    // a Land whose rule was not read refuses the reason
    let err = refuse(&nrw(), vacancy("rat", "L1-02", DepartureReason::ResultCorrected, OPENED), OPENED);
    assert!(matches!(&err, Rejection::Invalid(m) if m.starts_with("reason:")), "{err:?}");
}
