//! Baden-Württemberg — § 31 Abs. 2 GemO: the Ersatzperson moves up by law; the council resolves
//! (`Acceptance::ByLaw`, docs/legal.md, "Baden-Württemberg"). Included by tests/procedure.rs; its helpers are
//! the parent's.

use super::*;

const BW: &str = "musterhausen-gemeinderat";
const BW_CASE: &str = "musterhausen-gemeinderat-1";

/// An example file (examples/), parsed.
fn example(name: &str) -> Value {
    let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

fn bw_snapshot() -> Value {
    example("bw-election.json")
}

/// The example `election` registered and the resignation of `member` (the example `vacancy`, 30 Nov 2026) reported
/// on 1 Dec 2026.
fn resigned(election: &str, vacancy_file: &str, body: &str, member: &str) -> (Council, Vec<Effect>) {
    let v = example(vacancy_file);
    assert_eq!((v["member"].as_str(), v["reason"].as_str()), (Some(member), Some("resigned")));
    let mut b = body_from(example(election));
    let fx = run(
        &mut b,
        vacancy(body, member, DepartureReason::Resigned, "2026-11-30T00:00:00+01:00"),
        "2026-12-01T09:00:00+01:00",
    );
    (b, fx)
}

fn council(case: &str, round: u32, at: &str) -> Command {
    resolution(BW, "Gemeinderat Musterhausen", case, round, at)
}

/// The council's resolution on a proposal (`determination.confirmed`).
fn resolution(body: &str, council: &str, case: &str, round: u32, at: &str) -> Command {
    Command::Inbound(Inbound::DeterminationConfirmed(DeterminationConfirmed {
        body: body.into(),
        case: case.into(),
        round,
        confirmed_by: format!("{council}, Beschluss vom 10.12.2026"),
        confirmed_at: tz(at),
    }))
}

/// B1-02 resigned on 30 Nov 2026: B1-04 is named (B1-03 has a Hinderungsgrund; leaving the party has no
/// effect; equal votes with B1-05, the order of nomination decides). The case waits for the council.
fn bw_open() -> (Council, Vec<Effect>) {
    let mut b = body_from(bw_snapshot());
    let fx = run(
        &mut b,
        vacancy(BW, "B1-02", DepartureReason::Resigned, "2026-11-30T00:00:00+01:00"),
        "2026-12-01T09:00:00+01:00",
    );
    (b, fx)
}

#[test]
fn bw_gemo_31_abs_2_the_case_waits_for_the_council_whatever_the_determination_mode() {
    let (b, fx) = bw_open();
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:succession.proposed"]);
    assert_eq!(event(&fx, "succession.proposed")["successor"]["id"], "B1-04");
    assert!(matches!(state(&b, BW_CASE), CaseState::Proposed(p) if p.successor == "B1-04"));
}

#[test]
fn bw_gemo_29_abs_5_council_resolution_makes_him_a_member_no_period_no_announcement() {
    let (mut b, _) = bw_open();
    let fx = run(&mut b, council(BW_CASE, 1, "2026-12-10T19:00:00+01:00"), "2026-12-10T21:00:00+01:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("determination")));
    assert_eq!(m["person"]["id"], "B1-04");
    assert_eq!(m["voting_right"], true);
    same_instant(&m["effective_at"], "2026-12-10T19:00:00+01:00");
    assert_eq!(mail(&fx).template, "bw_determination");
    // no acceptance period, no announcement, no objection timer
    assert!(!fx.iter().any(|e| matches!(e, Effect::Announce(_) | Effect::Schedule { .. })), "{:?}", kinds(&fx));
    assert!(matches!(state(&b, BW_CASE), CaseState::Filled { successor, .. } if successor == "B1-04"));
    // a service certificate starts nothing
    let fx = run(
        &mut b,
        served(BW, BW_CASE, "B1-04", ServiceMethod::Certificate, "2026-12-11"),
        "2026-12-11T09:00:00+01:00",
    );
    assert!(!fx.iter().any(|e| matches!(e, Effect::Schedule { .. })));
}

#[test]
fn bw_gemo_31_abs_2_a_declaration_is_refused_no_acceptance_procedure() {
    let (mut b, _) = bw_open();
    let fx = run(
        &mut b,
        declare(BW, BW_CASE, "B1-04", DeclarationKind::Refuse, "2026-12-02T10:00:00+01:00"),
        "2026-12-02T10:00:00+01:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "no_acceptance_procedure");
    assert!(matches!(state(&b, BW_CASE), CaseState::Proposed(p) if p.successor == "B1-04"));
}

#[test]
fn bw_gemo_16_abs_2_council_accepts_a_wichtiger_grund_the_next_ersatzperson_is_named() {
    let (mut b, _) = bw_open();
    let fx = run(
        &mut b,
        fact(
            BW,
            "B1-04",
            Fact::Declined { on: NaiveDate::from_ymd_opt(2026, 12, 10).expect("date"), of: Declination::Succession },
        ),
        "2026-12-10T21:00:00+01:00",
    );
    let p = event(&fx, "succession.proposed");
    assert_eq!((p["round"].as_u64(), p["successor"]["id"].as_str()), (Some(2), Some("B1-05")));
    assert!(p["trail"].as_array().expect("trail").iter().any(|s| s["reason"] == "refusal_accepted"));
}

#[test]
fn bw_gemo_29_abs_5_council_finds_a_hinderungsgrund_the_next_ersatzperson_is_named() {
    let (mut b, _) = bw_open();
    let bar = Fact::Barred {
        on: NaiveDate::from_ymd_opt(2026, 12, 10).expect("date"),
        reason: "Beschäftigter der Gemeinde".into(),
    };
    let fx = run(&mut b, fact(BW, "B1-04", bar), "2026-12-10T21:00:00+01:00");
    assert_eq!(event(&fx, "succession.proposed")["successor"]["id"], "B1-05");
    let fx = run(&mut b, council(BW_CASE, 2, "2026-12-10T21:30:00+01:00"), "2026-12-10T22:00:00+01:00");
    assert_eq!(event(&fx, "membership.changed")["person"]["id"], "B1-05");
}

#[test]
fn bw_gemo_31_abs_2_exhausted_list_seat_left_vacant_without_announcement() {
    let mut snapshot = bw_snapshot();
    snapshot["lists"][1]["candidates"][0]["seat"] = json!({ "since": "2024-07-01", "via": "list" });
    let mut b = body_from(snapshot);
    let fx = run(
        &mut b,
        vacancy(BW, "B2-01", DepartureReason::Died, "2026-11-30T00:00:00+01:00"),
        "2026-12-01T09:00:00+01:00",
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("list_exhausted"), Some(18)));
    assert!(!fx.iter().any(|e| matches!(e, Effect::Announce(_) | Effect::Schedule { .. })));
}

#[test]
fn bw_feiertagsgesetz_erscheinungsfest_fronleichnam_allerheiligen() {
    use nachfolge::model::Land;
    let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date");
    assert_eq!(Land::Bw.holiday_name(d("2027-01-06")), Some("Erscheinungsfest (Heilige Drei Könige)"));
    assert_eq!(Land::Bw.holiday_name(d("2027-05-27")), Some("Fronleichnam"));
    assert_eq!(Land::Bw.holiday_name(d("2027-11-01")), Some("Allerheiligen"));
    assert!(!Land::Bw.is_public_holiday(d("2027-10-31")), "no Reformationstag in Baden-Württemberg");
    assert!(!Land::Bw.is_working_day(d("2027-01-06")));
}

/// § 26 Abs. 3 GemO with § 31 Abs. 2 Satz 1 GemO (issue 25, point 6): the worker serves the example Mehrheitswahl
/// (examples/bw-majority-election.json) as `decide` and the Nachrückerliste do — MW-04 and MW-05 (written in,
/// 155 votes each) are ordered by the lot drawn with the result, so MW-05 is proposed and no lot is asked for.
#[test]
fn bw_gemo_26_abs_3_mehrheitswahl_the_worker_proposes_the_next_by_votes_and_the_drawn_lot() {
    let read = |name: &str| -> Value {
        let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
    };
    let mut b = body_from(read("bw-majority-election.json"));
    let order = b.body.succession_order(tz("2026-12-01T09:00:00+01:00").to_utc()).lists.remove(0);
    assert_eq!(order.order, ["MW-05", "MW-04", "MW-03", "MW-06"]);
    let v = read("bw-majority-vacancy.json");
    assert_eq!(v["member"], "MW-02");
    let fx = run(
        &mut b,
        vacancy("kleinhausen-gemeinderat", "MW-02", DepartureReason::Resigned, "2026-11-30T00:00:00+01:00"),
        "2026-12-01T09:00:00+01:00",
    );
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:succession.proposed"]);
    assert_eq!(event(&fx, "succession.proposed")["successor"]["id"], "MW-05");
}

/// Unechte Teilortswahl with a weiterer Sitz (examples/bw-teilortswahl-election.json): T1-02 (Oberdorf) resigns;
/// T1-04 holds a weiterer Sitz and is Oberdorf's next Ersatzperson.
fn tow_open() -> (Council, Vec<Effect>) {
    resigned("bw-teilortswahl-election.json", "bw-teilortswahl-vacancy.json", TOW, "T1-02")
}

const TOW: &str = "teilhausen-gemeinderat";

/// What the resolution on a move publishes and sends: the move's determination, the mover's membership (`updated`),
/// his letter, and the proposal for the seat he gave up.
const MOVE_EFFECTS: [&str; 4] = [
    "publish:succession.determined",
    "publish:membership.changed",
    "mail:bw_determination",
    "publish:succession.proposed",
];

fn tow_council(case: &str, round: u32, at: &str) -> Command {
    resolution(TOW, "Gemeinderat Teilhausen", case, round, at)
}

/// § 31 Abs. 2 Satz 2 GemO: the holder of the weiterer Sitz moves into the Wohnbezirk seat on the council's
/// resolution — his membership goes on (`updated`, its start unchanged), no Verpflichtung — and the weiterer Sitz he
/// gives up opens a case of its own (`moved_up`), filled from the Ersatzpersonen for the weitere Sitze across the
/// Wohnbezirke (§ 26 Abs. 2 Satz 5 KomWG): T1-06 of Unterdorf, who joins with the council's next resolution.
#[test]
fn bw_31_abs_2_satz_2_gemo_the_holder_of_a_weiterer_sitz_moves_up_and_his_seat_is_filled_in_turn() {
    let (mut b, fx) = tow_open();
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:succession.proposed"]);
    let p = event(&fx, "succession.proposed");
    assert_eq!(p["successor"]["id"], "T1-04");
    let trail = p["trail"].as_array().expect("trail");
    let step = |reason: &str| trail.iter().find(|s| s["reason"] == reason).cloned();
    assert_eq!(
        step("additional_seat_holder_moves_up").map(|s| s["citation"].clone()),
        Some(json!("§ 31 Abs. 2 Satz 2 GemO"))
    );
    assert_eq!(step("additional_seat_then").map(|s| s["candidate"].clone()), Some(json!("T1-06")));

    // the council's resolution on the move
    let fx = run(
        &mut b,
        tow_council("teilhausen-gemeinderat-1", 1, "2026-12-10T19:00:00+01:00"),
        "2026-12-10T21:00:00+01:00",
    );
    assert_eq!(kinds(&fx), MOVE_EFFECTS);
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["person"]["id"].as_str()), (Some("updated"), Some("T1-04")));
    assert_eq!(m["membership"]["startDate"], "2024-07-01", "the membership goes on: {m}");
    assert!(m["membership"]["endDate"].is_null());
    let letter = mail(&fx);
    assert_eq!((letter.template.as_str(), letter.candidate.as_str()), ("bw_determination", "T1-04"));
    assert_eq!(letter.context["moves_up"], true);
    assert!(
        matches!(state(&b, "teilhausen-gemeinderat-1"), CaseState::Filled { successor, .. } if successor == "T1-04")
    );
    let seat = b.body.candidate("T1-04").and_then(|c| c.seat.clone()).expect("still seated");
    assert_eq!(seat.via, nachfolge::model::SeatVia::Succession, "she now holds the Wohnbezirk seat");
    let moved = b.cases["teilhausen-gemeinderat-1"].history.seat_move.clone().expect("the move is recorded");
    assert_eq!(moved.follow_on, "teilhausen-gemeinderat-2");

    // the weiterer Sitz she gave up
    let p = event(&fx, "succession.proposed");
    assert_eq!(p["case"], "teilhausen-gemeinderat-2");
    assert_eq!((p["vacancy"]["member"].as_str(), p["vacancy"]["reason"].as_str()), (Some("T1-04"), Some("moved_up")));
    same_instant(&p["vacancy"]["effective_at"], "2026-12-10T19:00:00+01:00");
    assert_eq!(p["successor"]["id"], "T1-06");
    let trail = p["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["reason"] == "additional_seat"), "{trail:?}");
    assert!(trail.iter().any(|s| s["candidate"] == "T1-04" && s["reason"] == "departed"), "{trail:?}");

    let fx = run(
        &mut b,
        tow_council("teilhausen-gemeinderat-2", 1, "2026-12-10T19:05:00+01:00"),
        "2026-12-10T21:05:00+01:00",
    );
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["person"]["id"].as_str()), (Some("joined"), Some("T1-06")));
    assert_eq!(mail(&fx).context["departure"], "moved_up");
    let seat = b.body.candidate("T1-06").and_then(|c| c.seat.clone()).expect("seated");
    assert_eq!(seat.via, nachfolge::model::SeatVia::Additional, "she holds the weiterer Sitz as such");
    assert!(!b.has_open_case());
}

#[test]
fn bw_31_abs_2_satz_2_gemo_moved_up_is_not_reported_and_a_review_does_not_undo_a_move() {
    let (mut b, _) = tow_open();
    let err = refuse(
        &b,
        vacancy(TOW, "T1-04", DepartureReason::MovedUp, "2026-12-01T00:00:00+01:00"),
        "2026-12-01T09:00:00+01:00",
    );
    assert!(matches!(&err, Rejection::Invalid(m) if m.starts_with("reason: moved_up")), "{err:?}");
    run(&mut b, tow_council("teilhausen-gemeinderat-1", 1, "2026-12-10T19:00:00+01:00"), "2026-12-10T21:00:00+01:00");
    let review = |outcome| {
        Command::Inbound(Inbound::ReviewDecided(ReviewDecided {
            body: TOW.into(),
            case: "teilhausen-gemeinderat-1".into(),
            outcome,
            successor: None,
            decided_at: tz("2026-12-20T10:00:00+01:00"),
            decided_by: None,
            is_final: false,
            final_on: None,
        }))
    };
    let err = refuse(&b, review(ReviewOutcome::Annulled), "2026-12-20T10:00:00+01:00");
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("§ 31 Abs. 2 Satz 2 GemO")), "{err:?}");
}

/// § 31 Abs. 2 Satz 2 GemO: the holder of the weiterer Sitz proposed to move up leaves the council before the
/// council resolves — the proposal is moot: his weiterer Sitz gets a case of its own (reason `resigned`), and the
/// Wohnbezirk seat is proposed again (round 2) to Oberdorf's next Ersatzperson, T1-05; nobody is seated twice.
#[test]
fn bw_31_abs_2_satz_2_gemo_a_mover_who_leaves_before_the_resolution_is_proposed_no_more() {
    let (mut b, _) = tow_open();
    let fx = run(
        &mut b,
        vacancy(TOW, "T1-04", DepartureReason::Resigned, "2026-12-05T00:00:00+01:00"),
        "2026-12-05T09:00:00+01:00",
    );
    let own = nth(&fx, "succession.proposed", 0);
    assert_eq!(
        (own["case"].as_str(), own["successor"]["id"].as_str()),
        (Some("teilhausen-gemeinderat-2"), Some("T1-06"))
    );
    let again = nth(&fx, "succession.proposed", 1);
    assert_eq!(again["case"], "teilhausen-gemeinderat-1");
    assert_eq!((again["round"].as_u64(), again["successor"]["id"].as_str()), (Some(2), Some("T1-05")));
    // a resolution on the moot proposal (round 1) is answered, not applied
    let fx = run(
        &mut b,
        tow_council("teilhausen-gemeinderat-1", 1, "2026-12-10T19:00:00+01:00"),
        "2026-12-10T21:00:00+01:00",
    );
    assert_eq!(kinds(&fx), ["publish:confirmation.rejected"]);
    assert!(b.body.candidate("T1-04").is_some_and(|c| c.seat.is_none()), "she left and stays out");
}

/// A Kreistag with Ausgleichssitze (examples/bw-kreistag-ausgleich-election.json): FW-II-01 (Wahlkreis II) resigns;
/// FW-II-02 holds the Freie Wähler's Ausgleichssitz and is Wahlkreis II's next Ersatzperson.
const ALB: &str = "albkreis-kreistag";

/// § 25 Abs. 2 Satz 2 LKrO: on the Kreistag's resolution the holder of the Ausgleichssitz moves into the Wahlkreis
/// seat (her membership goes on) and her Ausgleichssitz opens a case of its own, filled from the Ersatzpersonen for
/// the Ausgleichssitze in the order determined with the result — past FW-I-02 (rank 2), whose Wahlkreis is Albstadt
/// alone and would hold 4 of 7 seats (more than two fifths, Halbsatz 2): FW-II-03 (rank 3).
#[test]
fn bw_lkro_25_abs_2_satz_2_the_holder_of_an_ausgleichssitz_moves_up_and_her_seat_passes_by_rank() {
    let (mut b, fx) =
        resigned("bw-kreistag-ausgleich-election.json", "bw-kreistag-ausgleich-vacancy.json", ALB, "FW-II-01");
    let p = event(&fx, "succession.proposed");
    assert_eq!(p["successor"]["id"], "FW-II-02");
    let trail = p["trail"].as_array().expect("trail");
    let step = |reason: &str| trail.iter().find(|s| s["reason"] == reason).cloned();
    assert_eq!(
        step("ausgleichssitz_holder_moves_up").map(|s| s["citation"].clone()),
        Some(json!("§ 25 Abs. 2 Satz 2 Halbsatz 1 LKrO"))
    );
    assert_eq!(step("ausgleichssitz_then").map(|s| s["candidate"].clone()), Some(json!("FW-II-03")));

    let kreistag = |case: &str, at: &str| resolution(ALB, "Kreistag des Landkreises Albkreis", case, 1, at);
    let fx = run(&mut b, kreistag("albkreis-kreistag-1", "2026-12-10T17:00:00+01:00"), "2026-12-10T19:00:00+01:00");
    assert_eq!(kinds(&fx), MOVE_EFFECTS);
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["person"]["id"].as_str()), (Some("updated"), Some("FW-II-02")));
    assert_eq!(mail(&fx).context["moves_up"], true);
    let p = event(&fx, "succession.proposed");
    assert_eq!(
        (p["vacancy"]["member"].as_str(), p["vacancy"]["reason"].as_str()),
        (Some("FW-II-02"), Some("moved_up"))
    );
    assert_eq!(p["successor"]["id"], "FW-II-03");
    let trail = p["trail"].as_array().expect("trail");
    assert!(
        trail.iter().any(|s| s["candidate"] == "FW-I-02"
            && s["reason"] == "wahlkreis_two_fifths"
            && s["citation"] == "§ 25 Abs. 2 Satz 2 Halbsatz 2 LKrO"),
        "{trail:?}"
    );

    let fx = run(&mut b, kreistag("albkreis-kreistag-2", "2026-12-10T17:05:00+01:00"), "2026-12-10T19:05:00+01:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["person"]["id"].as_str()), (Some("joined"), Some("FW-II-03")));
    let seat = b.body.candidate("FW-II-03").and_then(|c| c.seat.clone()).expect("seated");
    assert_eq!(seat.via, nachfolge::model::SeatVia::Additional, "he holds the Ausgleichssitz as such");
    assert!(!b.has_open_case());
}
