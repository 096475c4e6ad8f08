//! Baden-Württemberg — § 31 Abs. 2 GemO: the Ersatzperson moves up by law; the council resolves
//! (`Acceptance::ByLaw`, docs/legal.md, "Baden-Württemberg"). Included by tests/procedure.rs; its helpers are
//! the parent's.

use super::*;

const BW: &str = "musterhausen-gemeinderat";
const BW_CASE: &str = "musterhausen-gemeinderat-1";

fn bw_snapshot() -> Value {
    let path = format!("{}/examples/bw-election.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

fn council(case: &str, round: u32, at: &str) -> Command {
    Command::Inbound(Inbound::DeterminationConfirmed(DeterminationConfirmed {
        body: BW.into(),
        case: case.into(),
        round,
        confirmed_by: "Gemeinderat Musterhausen, Beschluss vom 10.12.2026".into(),
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
