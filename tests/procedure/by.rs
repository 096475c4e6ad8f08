//! Bayern — Art. 48 Abs. 3 i. V. m. Art. 47 Abs. 2, 3 GLKrWG: the council decides on the Nachrücken, the
//! Listennachfolger declares within two weeks, silence is refusal; the Feiertagsgesetz with its local holidays
//! (docs/legal.md, "Bayern"). Included by tests/procedure.rs; its helpers are the parent's.

use super::*;

const BY: &str = "musterberg-gemeinderat";
const BY_CASE: &str = "musterberg-gemeinderat-1";
const RESOLVED_BY: &str = "Gemeinderat Musterberg, Beschluss vom 27.07.2028";

fn by_snapshot() -> Value {
    let path = format!("{}/examples/by-election.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

fn resolved(case: &str, round: u32, at: &str) -> Command {
    Command::Inbound(Inbound::DeterminationConfirmed(DeterminationConfirmed {
        body: BY.into(),
        case: case.into(),
        round,
        confirmed_by: RESOLVED_BY.into(),
        confirmed_at: tz(at),
    }))
}

/// B1-02 resigned on 1 Jul 2028; the council resolves on 27 Jul, the Verständigung goes out the same day.
fn by_open(snapshot: Value) -> Council {
    by_open_with(snapshot, "2028-07-27T19:00:00+02:00", "2028-07-28T09:00:00+02:00")
}

/// [`by_open`] with the council's resolution at `resolved_at` and the Verständigung sent at `sent_at`.
fn by_open_with(snapshot: Value, resolved_at: &str, sent_at: &str) -> Council {
    let mut b = body_from(snapshot);
    let fx = run(
        &mut b,
        vacancy(BY, "B1-02", DepartureReason::Resigned, "2028-07-01T00:00:00+02:00"),
        "2028-07-20T09:00:00+02:00",
    );
    // Art. 48 Abs. 3 Satz 2: the council decides; until then the worker only proposes
    assert_eq!(event(&fx, "succession.proposed")["successor"]["id"], "B1-04");
    let fx = run(&mut b, resolved(BY_CASE, 1, resolved_at), sent_at);
    let det = event(&fx, "succession.determined");
    assert_eq!((det["successor"]["id"].as_str(), det["confirmed_by"].as_str()), (Some("B1-04"), Some(RESOLVED_BY)));
    assert_eq!(mail(&fx).template, "by_offer");
    run(&mut b, sent(BY_CASE, 1, sent_at), sent_at);
    b
}

fn joined(fx: &[Effect]) -> Option<&Value> {
    fx.iter().find_map(|e| match e {
        Effect::Publish { event_type, data } if *event_type == "membership.changed" && data["change"] == "joined" => {
            Some(data)
        }
        _ => None,
    })
}

fn with_local_holidays(codes: &[&str]) -> Value {
    let mut s = by_snapshot();
    s["body"]["local_holidays"] = json!(codes);
    s
}

/// The last day of the acceptance period when the Verständigung reached him on `on` (Empfangsbekenntnis).
fn last_day(b: &mut Council, on: &str) -> (String, Value) {
    let fx = run(b, served(BY, BY_CASE, "B1-04", ServiceMethod::Acknowledgement, on), &format!("{on}T18:00:00+02:00"));
    let ds = event(&fx, "deadline.set");
    (ds["last_day"].as_str().expect("last_day").to_owned(), ds["trail"].clone())
}

fn has_step(trail: &Value, reason: &str, citation: &str) -> bool {
    trail.as_array().expect("trail").iter().any(|s| s["reason"] == reason && s["citation"] == citation)
}

#[test]
fn by_art_48_abs_3_satz_2_glkrwg_the_council_decides_on_the_nachruecken_before_the_verstaendigung() {
    let mut b = body_from(by_snapshot());
    let fx = run(
        &mut b,
        vacancy(BY, "B1-02", DepartureReason::Resigned, "2028-07-01T00:00:00+02:00"),
        "2028-07-20T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:succession.proposed"]);
    let p = event(&fx, "succession.proposed");
    // B1-05 (2100 votes) cannot take office (Art. 31 Abs. 3 GO) and stays on the list; B1-04 (1800) before
    // B1-03 (900, list position 3)
    let trail = &p["trail"];
    assert!(has_step(
        trail,
        "barred_stays_successor",
        "Art. 37 Abs. 2 Satz 2 Halbsatz 2 GLKrWG i. V. m. Art. 31 Abs. 3 GO"
    ));
    assert!(has_step(trail, "left_party_no_effect", "Art. 37 Abs. 2 Satz 1 GLKrWG"));
    // he cannot declare before the council decided and he was notified
    let fx = run(
        &mut b,
        declare(BY, BY_CASE, "B1-04", DeclarationKind::Accept, "2028-07-21T10:00:00+02:00"),
        "2028-07-21T10:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "before_notification");
}

#[test]
fn by_art_47_abs_2_satz_1_glkrwg_acceptance_within_two_weeks_membership_from_its_receipt() {
    let mut b = by_open(by_snapshot());
    let (last, trail) = last_day(&mut b, "2028-07-31");
    // Mon 31 Jul + two weeks = Mon 14 Aug (the 15th is not reached)
    assert_eq!(last, "2028-08-14");
    assert!(has_step(&trail, "period_two_weeks", "§§ 187 Abs. 1, 188 Abs. 2 BGB"));
    assert!(has_step(&trail, "served", "Art. 5 VwZVG"));
    let fx = run(
        &mut b,
        declare(BY, BY_CASE, "B1-04", DeclarationKind::Accept, "2028-08-10T10:00:00+02:00"),
        "2028-08-10T10:00:00+02:00",
    );
    let m = joined(&fx).expect("joined");
    assert_eq!((m["basis"].as_str(), m["person"]["id"].as_str()), (Some("acceptance"), Some("B1-04")));
    same_instant(&m["effective_at"], "2028-08-10T10:00:00+02:00");
    assert_eq!(announcement(&fx).template, "by_successor");
    assert_eq!(announcement(&fx).legal_basis, "Art. 48 Abs. 3 Satz 2 GLKrWG");
}

#[test]
fn by_art_47_abs_2_satz_2_glkrwg_silence_is_deemed_refusal_the_next_listennachfolger_is_proposed() {
    let mut b = by_open(by_snapshot());
    last_day(&mut b, "2028-07-31");
    let fx = run(&mut b, expired(BY_CASE, 1), "2028-08-15T00:00:01+02:00");
    assert!(joined(&fx).is_none(), "silence is no acceptance in Bayern");
    assert_eq!(event(&fx, "declaration.recorded")["kind"], "deemed_refusal");
    let p = event(&fx, "succession.proposed");
    // B1-06 waived in writing; B1-03 next by votes
    assert_eq!((p["successor"]["id"].as_str(), p["round"].as_u64()), (Some("B1-03"), Some(2)));
    assert_eq!(p["trail"][0]["citation"], "Art. 48 Abs. 1 Satz 3 GLKrWG");
    assert!(has_fact(&b, "B1-04", "declined"));
}

#[test]
fn by_art_47_abs_2_satz_2_glkrwg_timely_acceptance_entered_after_the_deemed_refusal_goes_to_review() {
    let mut b = by_open(by_snapshot());
    last_day(&mut b, "2028-07-31");
    run(&mut b, expired(BY_CASE, 1), "2028-08-15T00:00:01+02:00");
    let fx = run(
        &mut b,
        declare(BY, BY_CASE, "B1-04", DeclarationKind::Accept, "2028-08-14T10:00:00+02:00"),
        "2028-08-15T09:00:00+02:00",
    );
    assert_eq!(event(&fx, "case.review_required")["reason"], "timely_declaration_after_later_round");
}

#[test]
fn by_art_47_abs_3_glkrwg_reservation_void_the_acceptance_stands() {
    let mut b = by_open(by_snapshot());
    last_day(&mut b, "2028-07-31");
    let fx = run(
        &mut b,
        declare(BY, BY_CASE, "B1-04", DeclarationKind::AcceptWithReservation, "2028-08-01T10:00:00+02:00"),
        "2028-08-01T10:00:00+02:00",
    );
    assert_eq!(joined(&fx).expect("joined")["basis"], "acceptance");
    assert!(!kinds(&fx).contains(&"publish:succession.proposed".to_owned()), "no next round");
}

#[test]
fn by_art_48_abs_1_satz_2_glkrwg_refusal_without_reason_next_round_and_it_stands() {
    let mut b = by_open(by_snapshot());
    let fx = run(
        &mut b,
        declare(BY, BY_CASE, "B1-04", DeclarationKind::Refuse, "2028-07-29T10:00:00+02:00"),
        "2028-07-29T10:00:00+02:00",
    );
    assert_eq!(event(&fx, "succession.proposed")["successor"]["id"], "B1-03");
    let fx = run(
        &mut b,
        declare(BY, BY_CASE, "B1-04", DeclarationKind::Accept, "2028-07-29T11:00:00+02:00"),
        "2028-07-29T11:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "refusal_irrevocable");
}

#[test]
fn by_feiertagsgesetz_art_1_abs_1_nr_2_mariae_himmelfahrt_extends_the_period_only_where_it_is_a_holiday() {
    // served Tue 1 Aug 2028 → two weeks end Tue 15 Aug 2028
    let mut catholic = by_open(with_local_holidays(&["mariae_himmelfahrt"]));
    let (last, trail) = last_day(&mut catholic, "2028-08-01");
    assert_eq!(last, "2028-08-16");
    assert!(has_step(&trail, "extended_public_holiday:Mariä Himmelfahrt", "Art. 31 Abs. 3 Satz 1 BayVwVfG"));
    let mut other = by_open(with_local_holidays(&[]));
    let (last, trail) = last_day(&mut other, "2028-08-01");
    assert_eq!(last, "2028-08-15");
    assert!(!trail.to_string().contains("Mariä Himmelfahrt"));
}

#[test]
fn by_feiertagsgesetz_art_1_abs_2_augsburger_friedensfest_only_in_augsburg() {
    // served Tue 25 Jul 2028 → two weeks end Tue 8 Aug 2028
    let open = |codes: &[&str]| {
        by_open_with(with_local_holidays(codes), "2028-07-20T19:00:00+02:00", "2028-07-21T09:00:00+02:00")
    };
    let mut augsburg = open(&["mariae_himmelfahrt", "augsburger_friedensfest"]);
    let (last, trail) = last_day(&mut augsburg, "2028-07-25");
    assert_eq!(last, "2028-08-09");
    assert!(has_step(
        &trail,
        "extended_public_holiday:Augsburger Hohes Friedensfest",
        "Art. 31 Abs. 3 Satz 1 BayVwVfG"
    ));
    let mut elsewhere = open(&["mariae_himmelfahrt"]);
    assert_eq!(last_day(&mut elsewhere, "2028-07-25").0, "2028-08-08");
}

#[test]
fn by_feiertagsgesetz_art_1_abs_1_nr_1_statewide_holidays_allerheiligen_and_heilige_drei_koenige() {
    let mut b = body_from(by_snapshot());
    run(
        &mut b,
        vacancy(BY, "B1-02", DepartureReason::Resigned, "2028-10-01T00:00:00+02:00"),
        "2028-10-10T09:00:00+02:00",
    );
    run(&mut b, resolved(BY_CASE, 1, "2028-10-12T19:00:00+02:00"), "2028-10-12T20:00:00+02:00");
    run(&mut b, sent(BY_CASE, 1, "2028-10-13T09:00:00+02:00"), "2028-10-13T09:00:00+02:00");
    // served Wed 18 Oct 2028 → Wed 1 Nov 2028, Allerheiligen → Thu 2 Nov
    let (last, trail) = last_day(&mut b, "2028-10-18");
    assert_eq!(last, "2028-11-02");
    assert!(has_step(&trail, "extended_public_holiday:Allerheiligen", "Art. 31 Abs. 3 Satz 1 BayVwVfG"));
    let by = nachfolge::model::Land::By;
    assert_eq!(by.holiday_name(d("2028-01-06")), Some("Heilige Drei Könige"));
    assert_eq!(by.holiday_name(d("2028-06-15")), Some("Fronleichnam"));
    // the local ones are no statewide holidays; Reformationstag and Buß- und Bettag are none at all
    for day in ["2028-08-15", "2028-08-08", "2028-10-31", "2028-11-22"] {
        assert!(!by.is_public_holiday(d(day)), "BY {day}");
    }
    assert_eq!(by.holidays(2028).len(), 12);
}

#[test]
fn by_art_48_abs_1_satz_3_glkrwg_no_listennachfolger_seat_vacant_size_unchanged() {
    let mut s = by_snapshot();
    s["body"]["determination"] = json!("automatic");
    let mut b = body_from(s);
    let fx = run(
        &mut b,
        vacancy(BY, "B2-01", DepartureReason::Died, "2028-07-01T00:00:00+02:00"),
        "2028-07-20T09:00:00+02:00",
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("list_exhausted"), Some(20)));
    assert_eq!(announcement(&fx).template, "by_vacancy");
}

/// B1-03 with the votes of B1-04 (1,800): the two tie behind the barred B1-05; `ranks` sets their `lot_rank`.
fn by_tie(ranks: Option<(u32, u32)>) -> Value {
    let mut s = by_snapshot();
    s["lists"][0]["candidates"][2]["votes"] = json!(1800);
    if let Some((third, fourth)) = ranks {
        s["lists"][0]["candidates"][2]["lot_rank"] = json!(third);
        s["lists"][0]["candidates"][3]["lot_rank"] = json!(fourth);
    }
    s
}

#[test]
fn by_art_37_abs_1_satz_1_halbsatz_2_glkrwg_the_worker_does_not_ask_for_a_lot_drawn_at_the_result() {
    let vacancy_of_b1_02 = || vacancy(BY, "B1-02", DepartureReason::Resigned, "2028-07-01T00:00:00+02:00");
    // no drawn order in the snapshot: the worker asks the Wahlleiter for the lot
    let mut b = body_from(by_tie(None));
    let fx = run(&mut b, vacancy_of_b1_02(), "2028-07-20T09:00:00+02:00");
    assert!(kinds(&fx).iter().any(|k| k == "publish:lot.requested"), "{:?}", kinds(&fx));
    assert_eq!(event(&fx, "lot.requested")["tied"], json!(["B1-03", "B1-04"]));
    // the Wahlausschuss drew B1-04 before B1-03 when it determined the result: proposed at once, no lot asked
    let mut b = body_from(by_tie(Some((2, 1))));
    let fx = run(&mut b, vacancy_of_b1_02(), "2028-07-20T09:00:00+02:00");
    assert!(!kinds(&fx).iter().any(|k| k == "publish:lot.requested"), "{:?}", kinds(&fx));
    let proposed = event(&fx, "succession.proposed");
    assert_eq!(proposed["successor"]["id"], "B1-04");
    assert!(has_step(&proposed["trail"], "won_drawn_lot", "Art. 37 Abs. 1 Satz 1 Halbsatz 2 GLKrWG"));
    assert!(has_step(&proposed["trail"], "lost_drawn_lot", "Art. 37 Abs. 1 Satz 1 Halbsatz 2 GLKrWG"));
}

// ---------------------------------------------------------------------------------------------------------
// A Bayern Bezirkstag: Art. 4 Abs. 2, 3 BezWG with Art. 46 LWG (docs/legal.md, "Bayern's Bezirkstage")

const BEZ: &str = "musterbezirk-bezirkstag";
const BEZ_CASE: &str = "musterbezirk-bezirkstag-1";

fn bezirkstag_snapshot() -> Value {
    let path = format!("{}/examples/by-bezirkstag-election.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

/// Art. 4 Abs. 2, 3 BezWG: the Bezirkstagspräsidentin confirms the Listennachfolger the worker proposes (by
/// Gesamtstimmen, the lot drawn with the result deciding a tie, Art. 46 Abs. 1 LWG); he is asked to declare
/// within **one week** whether he accepts and is ready to take the oath; silence is acceptance; the texts cite
/// the BezWG and the LWG, never the GLKrWG.
#[test]
fn by_bezwg_art_4_abs_2_satz_1_2_bezirkstag_one_week_silence_is_acceptance_the_oath_asked_for() {
    let mut b = body_from(bezirkstag_snapshot());
    let fx = run(
        &mut b,
        vacancy(BEZ, "W1-01", DepartureReason::Resigned, "2026-11-30T00:00:00+01:00"),
        "2026-12-01T09:00:00+01:00",
    );
    let p = event(&fx, "succession.proposed");
    assert_eq!(p["successor"]["id"], "W1-05");
    assert!(has_step(&p["trail"], "waived", "Art. 46 Abs. 2 LWG i. V. m. Art. 4 Abs. 1 BezWG"));
    assert!(has_step(&p["trail"], "barred_stays_successor", "Art. 4 Abs. 4 BezWG i. V. m. Art. 23 Abs. 4 BezO"));
    assert!(has_step(&p["trail"], "won_drawn_lot", "Art. 46 Abs. 1 Satz 2 LWG, § 70 Abs. 3 LWO"));
    let confirmed = Command::Inbound(Inbound::DeterminationConfirmed(DeterminationConfirmed {
        body: BEZ.into(),
        case: BEZ_CASE.into(),
        round: 1,
        confirmed_by: "Bezirkstagspräsidentin".into(),
        confirmed_at: tz("2026-12-02T10:00:00+01:00"),
    }));
    let fx = run(&mut b, confirmed, "2026-12-02T10:00:00+01:00");
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "W1-05");
    let offer = mail(&fx);
    assert_eq!(offer.template, "byb_offer");
    let templates = nachfolge::templates::Templates::load(None).expect("templates");
    let text = templates.mail(&offer.template, &offer.context).expect("render").text;
    for sentence in [
        "binnen einer Woche nach Zustellung dieser Verständigung schriftlich zu erklären, ob Sie die Wahl annehmen und bereit sind, den Eid oder das Gelöbnis",
        "gilt die Wahl als angenommen (Art. 4 Abs. 2 Satz 2, Abs. 3 BezWG)",
        "jedoch nicht zum Eid oder zum Gelöbnis bereit zu sein, so gilt die Wahl als abgelehnt (Art. 4 Abs. 2 Satz 4 BezWG)",
        "Über eine Ablehnung entscheidet der Bezirkstag",
        "Art. 4 Abs. 2 Satz 3, Abs. 3 BezWG",
        "Bezirkstags",
    ] {
        assert!(text.contains(sentence), "{sentence:?} missing in:\n{text}");
    }
    assert!(!text.contains("GLKrWG") && !text.contains("zwei Wochen"), "{text}");
    run(&mut b, sent(BEZ_CASE, 1, "2026-12-02T10:05:00+01:00"), "2026-12-02T10:05:00+01:00");
    // served Thu 3 Dec 2026: one week, the last day Thu 10 Dec
    let fx = run(
        &mut b,
        served(BEZ, BEZ_CASE, "W1-05", ServiceMethod::Acknowledgement, "2026-12-03"),
        "2026-12-03T18:00:00+01:00",
    );
    assert_eq!(event(&fx, "deadline.set")["last_day"], "2026-12-10");
    let fx = run(&mut b, expired(BEZ_CASE, 1), "2026-12-11T00:00:01+01:00");
    let m = joined(&fx).expect("joined");
    assert_eq!((m["basis"].as_str(), m["person"]["id"].as_str()), (Some("deemed_acceptance"), Some("W1-05")));
    let a = announcement(&fx);
    assert_eq!(
        (a.template.as_str(), a.legal_basis.as_str()),
        ("byb_successor", "Art. 4 Abs. 3 BezWG i. V. m. Art. 46 Abs. 1 LWG")
    );
    let text = templates.announcement(&a.template, &a.context).expect("render");
    assert!(text.contains("Bezirkstag") && text.contains("BezWG") && !text.contains("GLKrWG"), "{text}");
}
