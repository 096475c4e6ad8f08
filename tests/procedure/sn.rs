//! Sachsen — § 34 Abs. 2 SächsGemO: the Ersatzperson moves up by law; the council resolves
//! (`Acceptance::ByLaw`, docs/legal.md, "Sachsen"). Included by tests/procedure.rs; its helpers are the parent's.

use super::*;

const SN: &str = "musterwitz-gemeinderat";
const SN_CASE: &str = "musterwitz-gemeinderat-1";

fn sn_snapshot() -> Value {
    let path = format!("{}/examples/sn-election.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

#[test]
fn sn_saechsgemo_34_abs_2_member_on_the_council_resolution_no_period_no_announcement() {
    let mut b = body_from(sn_snapshot());
    let fx = run(
        &mut b,
        vacancy(SN, "S1-02", DepartureReason::Resigned, "2026-11-30T00:00:00+01:00"),
        "2026-12-01T09:00:00+01:00",
    );
    assert_eq!(event(&fx, "succession.proposed")["successor"]["id"], "S1-04");
    // § 32 Abs. 3 SächsGemO: the council finds a Hinderungsgrund; S1-05 is proposed
    let bar = Fact::Barred {
        on: NaiveDate::from_ymd_opt(2026, 12, 9).expect("date"),
        reason: "Arbeitnehmerin der Gemeinde".into(),
    };
    let fx = run(&mut b, fact(SN, "S1-04", bar), "2026-12-09T20:00:00+01:00");
    assert_eq!(event(&fx, "succession.proposed")["successor"]["id"], "S1-05");
    let resolution = Command::Inbound(Inbound::DeterminationConfirmed(DeterminationConfirmed {
        body: SN.into(),
        case: SN_CASE.into(),
        round: 2,
        confirmed_by: "Gemeinderat Musterwitz, Beschluss vom 09.12.2026".into(),
        confirmed_at: tz("2026-12-09T20:30:00+01:00"),
    }));
    let fx = run(&mut b, resolution, "2026-12-09T21:00:00+01:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["person"]["id"].as_str(), m["basis"].as_str()), (Some("S1-05"), Some("determination")));
    assert_eq!(mail(&fx).template, "sn_determination");
    assert!(!fx.iter().any(|e| matches!(e, Effect::Announce(_) | Effect::Schedule { .. })));
}

#[test]
fn sn_saechssfg_1_reformationsfest_buss_und_bettag_no_fronleichnam() {
    use nachfolge::model::Land;
    let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date");
    assert_eq!(Land::Sn.holiday_name(d("2027-10-31")), Some("Reformationsfest"));
    assert_eq!(Land::Sn.holiday_name(d("2026-11-18")), Some("Buß- und Bettag"));
    assert_eq!(Land::Sn.holiday_name(d("2027-11-17")), Some("Buß- und Bettag"));
    assert!(!Land::Sn.is_public_holiday(d("2026-11-25")), "the Wednesday after 22 November is none");
    // only in the places of the FronleichnamsVO: not known here (docs/legal.md)
    assert!(!Land::Sn.is_public_holiday(d("2027-05-27")));
    assert!(!Land::Sn.is_public_holiday(d("2027-11-01")), "no Allerheiligen");
}
