//! The succession procedure as a pure state machine (`procedure::handle`), driven command by command, without
//! services. Every test that checks a statutory rule is named after its citation; each asserts the exact
//! effects (events in order, key data fields, timers, mails, announcements) and the resulting case state.
//!
//! Calendar used throughout (2025, NRW and Hessen): Pfingstmontag 9 Jun, Fronleichnam 19 Jun.

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use serde_json::{json, Value};

use nachfolge::messages::*;
use nachfolge::model::{Declination, Fact, Snapshot, WaiverForm};
use nachfolge::procedure::{self, CaseState, Command, Council, Effect, MailKind, Rejection, Settings, Timer};

// ---------------------------------------------------------------------------------------------------------
// Builders

fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).expect("test instant").with_timezone(&Utc)
}

fn tz(s: &str) -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339(s).expect("test instant")
}

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("test date")
}

fn cand(id: &str, position: Option<u32>, seat: Option<&str>) -> Value {
    let mut c = json!({
        "id": id,
        "position": position,
        "given_name": "Vorname",
        "family_name": format!("Nachname {id}"),
        "email": format!("{}@example.org", id.to_lowercase()),
    });
    if let Some(via) = seat {
        c["seat"] = json!({ "since": "2020-11-01", "via": via });
    }
    c
}

fn officer() -> Value {
    json!({ "name": "Wahlleitung", "email": "wahlleitung@example.org", "address": "Markt 1, 12345 Musterstadt" })
}

/// The Verwaltungsgericht the Rechtsbehelfsbelehrungen name (required at registration, § 58 Abs. 1 VwGO).
fn court() -> Value {
    json!({ "name": "Verwaltungsgericht Musterstadt", "address": "Justizplatz 1, 12340 Musterstadt" })
}

/// NRW council "rat": list L1 (party) with two seated members and four more candidates, list E1 (an
/// individual candidate who won a district).
fn nrw_snapshot() -> Value {
    json!({
        "body": {
            "id": "rat", "name": "Rat der Stadt Musterstadt", "land": "NW", "statutory_size": 10,
            "term": { "start": "2020-11-01", "end": "2025-10-31" },
            "returning_officer": officer(), "remedy_court": court(),
        },
        "lists": [
            { "id": "L1", "name": "Partei A", "kind": "party", "candidates": [
                cand("L1-01", Some(1), Some("list")),
                cand("L1-02", Some(2), Some("list")),
                cand("L1-03", Some(3), None),
                cand("L1-04", Some(4), None),
                cand("L1-05", Some(5), None),
                cand("L1-06", Some(6), None),
            ]},
            { "id": "E1", "name": "Einzelbewerber", "kind": "individual", "candidates": [
                cand("E1-01", None, Some("district")),
            ]},
        ],
    })
}

/// Hessen council "hrat": list A, ranked by personal votes (A-03 first among the not-yet-called).
fn he_snapshot(system: &str) -> Value {
    let v = |id: &str, pos: u32, votes: i64, seat: Option<&str>| {
        let mut c = cand(id, Some(pos), seat);
        c["votes"] = json!(votes);
        c
    };
    json!({
        "body": {
            "id": "hrat", "name": "Gemeindevertretung Musterdorf", "land": "HE",
            "electoral_system": system, "statutory_size": 10,
            "term": { "start": "2021-04-01", "end": "2026-03-31" },
            "returning_officer": officer(), "remedy_court": court(),
        },
        "lists": [
            { "id": "A", "name": "Liste A", "kind": "voter_group", "candidates": [
                v("A-01", 1, 900, Some("list")),
                v("A-02", 2, 800, Some("list")),
                v("A-03", 3, 300, None),
                v("A-04", 4, 500, None),
                v("A-05", 5, 400, None),
                v("A-06", 6, 400, None),
            ]},
        ],
    })
}

fn body_from(snapshot: Value) -> Council {
    let snap: Snapshot = serde_json::from_value(snapshot).expect("test snapshot");
    let (body, effects) = procedure::register(None, snap).expect("registration");
    assert_eq!(kinds(&effects), ["publish:body.registered"]);
    body
}

fn nrw() -> Council {
    body_from(nrw_snapshot())
}

fn add_fact(snapshot: &mut Value, list: usize, cand: usize, fact: Value) {
    let facts = &mut snapshot["lists"][list]["candidates"][cand]["facts"];
    if facts.is_null() {
        *facts = json!([]);
    }
    facts.as_array_mut().expect("facts").push(fact);
}

fn vacancy(body: &str, member: &str, reason: DepartureReason, effective_at: &str) -> Command {
    Command::Inbound(Inbound::VacancyReported(VacancyReported {
        body: body.into(),
        member: member.into(),
        reason,
        effective_at: tz(effective_at),
        list_banned: None,
    }))
}

fn sent(case: &str, round: u32, at: &str) -> Command {
    Command::NotificationSent {
        case: case.into(),
        round,
        kind: MailKind::Determination,
        message_id: format!("<{case}.{round}@nachfolge>"),
        sent_at: t(at),
    }
}

fn served(body: &str, case: &str, candidate: &str, method: ServiceMethod, on: &str) -> Command {
    served_round(body, case, candidate, None, method, on)
}

fn served_round(
    body: &str,
    case: &str,
    candidate: &str,
    round: Option<u32>,
    method: ServiceMethod,
    on: &str,
) -> Command {
    Command::Inbound(Inbound::NotificationServed(NotificationServed {
        body: body.into(),
        case: case.into(),
        candidate: candidate.into(),
        round,
        method,
        on: d(on),
    }))
}

fn declare(body: &str, case: &str, candidate: &str, kind: DeclarationKind, at: &str) -> Command {
    Command::Inbound(Inbound::DeclarationReceived(DeclarationReceived {
        body: body.into(),
        case: case.into(),
        candidate: candidate.into(),
        kind,
        received_at: tz(at),
    }))
}

fn cured(body: &str, case: &str, candidate: &str, at: &str) -> Command {
    Command::Inbound(Inbound::BarCured(BarCuredReceived {
        body: body.into(),
        case: case.into(),
        candidate: candidate.into(),
        proven_at: tz(at),
    }))
}

fn fact(body: &str, candidate: &str, fact: Fact) -> Command {
    Command::Inbound(Inbound::FactRecorded(FactRecorded { body: body.into(), candidate: candidate.into(), fact }))
}

fn expired(case: &str, round: u32) -> Command {
    Command::DeadlineExpired { case: case.into(), round }
}

fn run(body: &mut Council, cmd: Command, now: &str) -> Vec<Effect> {
    run_with(body, cmd, now, &Settings::default())
}

fn run_with(body: &mut Council, cmd: Command, now: &str, settings: &Settings) -> Vec<Effect> {
    procedure::handle(body, cmd, t(now), settings).unwrap_or_else(|e| panic!("command refused: {e}"))
}

/// A command that must be refused; the body is worked on a copy (the shell rolls back on `Err`).
fn refuse(body: &Council, cmd: Command, now: &str) -> Rejection {
    let mut copy = body.clone();
    match procedure::handle(&mut copy, cmd, t(now), &Settings::default()) {
        Ok(effects) => panic!("expected a rejection, got {:?}", kinds(&effects)),
        Err(e) => e,
    }
}

/// The effects in a compact, comparable form.
fn kinds(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .map(|e| match e {
            Effect::Publish { event_type, .. } => format!("publish:{event_type}"),
            Effect::Mail(m) => format!("mail:{}", m.template),
            Effect::Announce(a) => format!("announce:{}", a.kind),
            Effect::Schedule { timer, .. } => format!("schedule:{}", timer.key()),
            Effect::Cancel { timer } => format!("cancel:{}", timer.key()),
        })
        .collect()
}

/// The data of the `n`th published event of a type.
fn nth<'a>(effects: &'a [Effect], ty: &str, n: usize) -> &'a Value {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Publish { event_type, data } if *event_type == ty => Some(data),
            _ => None,
        })
        .nth(n)
        .unwrap_or_else(|| panic!("no {ty} #{n} in {:?}", kinds(effects)))
}

fn event<'a>(effects: &'a [Effect], ty: &str) -> &'a Value {
    nth(effects, ty, 0)
}

fn mail(effects: &[Effect]) -> &procedure::MailRequest {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Mail(m) => Some(m),
            _ => None,
        })
        .expect("a mail request")
}

fn schedule(effects: &[Effect]) -> (Timer, DateTime<Utc>, u32) {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Schedule { timer, due_at } => Some((timer.clone(), *due_at, timer.number())),
            _ => None,
        })
        .expect("a schedule effect")
}

fn announcement(effects: &[Effect]) -> &procedure::Announcement {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Announce(a) => Some(a),
            _ => None,
        })
        .expect("an announcement")
}

fn state<'a>(body: &'a Council, case: &str) -> &'a CaseState {
    &body.cases[case].state
}

fn offer<'a>(body: &'a Council, case: &str) -> &'a procedure::Offer {
    match state(body, case) {
        CaseState::Offered(o) => o,
        other => panic!("case {case} is not offered: {other:?}"),
    }
}

fn has_fact(body: &Council, candidate: &str, kind: &str) -> bool {
    body.candidate(candidate).expect("candidate").facts.iter().any(|f| f.kind() == kind)
}

/// Same instant, whatever the offset it is written with.
fn same_instant(v: &Value, expected: &str) {
    let got = DateTime::parse_from_rfc3339(v.as_str().unwrap_or_else(|| panic!("not a time: {v}")))
        .expect("RFC 3339")
        .with_timezone(&Utc);
    assert_eq!(got, t(expected), "instant {v}");
}

const CASE: &str = "rat-1";
const OPENED: &str = "2025-06-02T10:00:00+02:00";
const SENT: &str = "2025-06-02T12:00:00+02:00";

/// NRW: L1-02 resigned; L1-03 offered (round 1).
fn nrw_open() -> Council {
    let mut b = nrw();
    run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    b
}

/// NRW: offered and the notification e-mail sent.
fn nrw_notified() -> Council {
    let mut b = nrw_open();
    run(&mut b, sent(CASE, 1, SENT), SENT);
    b
}

/// NRW: served Tue 3 Jun 2025 → the week ends Tue 10 Jun 2025 24:00 (= 2025-06-10T22:00Z).
fn nrw_served() -> Council {
    let mut b = nrw_notified();
    run(&mut b, served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"), "2025-06-04T09:00:00+02:00");
    b
}
const ENDS: &str = "2025-06-11T00:00:00+02:00";

// ---------------------------------------------------------------------------------------------------------
// NRW § 45 Abs. 6 KWahlG

#[test]
fn nrw_45_abs_6_satz_1_vacancy_determines_successor_and_requests_declaration() {
    let mut b = nrw();
    let fx = run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:succession.determined", "mail:nrw_offer"]);

    let left = event(&fx, "membership.changed");
    assert_eq!(left["change"], "left");
    assert_eq!(left["basis"], "vacancy");
    assert_eq!(left["person"]["id"], "L1-02");
    assert_eq!(left["list"], "L1");
    assert_eq!(left["voting_right"], false);
    same_instant(&left["effective_at"], OPENED);
    assert_eq!(left["membership"]["endDate"], "2025-06-02");
    assert_eq!(left["membership"]["startDate"], "2020-11-01");

    let det = event(&fx, "succession.determined");
    assert_eq!(det["case"], CASE);
    assert_eq!(det["round"], 1);
    assert_eq!(det["successor"]["id"], "L1-03");
    assert_eq!(det["successor"]["list"], "L1");
    assert_eq!(det["vacancy"]["member"], "L1-02");
    assert_eq!(det["vacancy"]["reason"], "resigned");
    assert_eq!(det["barred"], false);
    let chosen = det["trail"].as_array().expect("trail").iter().find(|s| s["verdict"] == "chosen").expect("chosen");
    assert_eq!(chosen["candidate"], "L1-03");
    assert_eq!(chosen["citation"], "§ 45 Abs. 2 Satz 1 KWahlG NRW");

    let m = mail(&fx);
    assert_eq!((m.case.as_str(), m.round, m.candidate.as_str()), (CASE, 1, "L1-03"));
    assert_eq!(m.to.as_deref(), Some("l1-03@example.org"));
    assert_eq!(m.reply_to, "wahlleitung@example.org");

    // no announcement yet: [decision] NRW announces when membership starts (§ 45 Abs. 6 Satz 7)
    let o = offer(&b, CASE);
    assert_eq!(o.successor, "L1-03");
    assert_eq!((o.notified_at, o.deadline.as_ref(), o.accepted_at), (None, None, None));
    assert_eq!(b.cases[CASE].round, 1);
    assert!(b.candidate("L1-02").expect("departed").seat.is_none());
    assert!(has_fact(&b, "L1-02", "former_member"));
}

#[test]
fn nrw_45_abs_6_satz_7_switch_announces_at_determination() {
    let mut b = nrw();
    let settings = Settings { announce_at_determination: true, ..Settings::default() };
    let fx = run_with(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED, &settings);
    assert_eq!(
        kinds(&fx),
        [
            "publish:membership.changed",
            "publish:succession.determined",
            "mail:nrw_offer",
            "announce:successor",
            "schedule:rat-1#objection#1"
        ]
    );
    run_with(&mut b, sent(CASE, 1, SENT), SENT, &settings);
    let fx = run_with(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Accept, "2025-06-03T08:00:00+02:00"),
        "2025-06-03T08:00:00+02:00",
        &settings,
    );
    // announced once, at the determination
    assert_eq!(kinds(&fx), ["publish:declaration.recorded", "cancel:rat-1#1", "publish:membership.changed"]);

    // the body's reading wins over the deployment's setting, both ways (docs/legal.md, "Per-body readings")
    let mut s = nrw_snapshot();
    s["body"]["readings"] = json!({ "announcement": "at_membership" });
    let mut b = body_from(s);
    let fx = run_with(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED, &settings);
    assert!(!kinds(&fx).contains(&"announce:successor".to_owned()), "{:?}", kinds(&fx));
    let mut s = nrw_snapshot();
    s["body"]["readings"] = json!({ "announcement": "at_determination" });
    let mut b = body_from(s);
    let fx = run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    assert!(kinds(&fx).contains(&"announce:successor".to_owned()), "{:?}", kinds(&fx));
}

#[test]
fn nrw_45_abs_6_satz_2_notification_sent_reports_successor_notified_without_deadline() {
    let mut b = nrw_open();
    let fx = run(&mut b, sent(CASE, 1, SENT), SENT);
    // without an e-mail fiction no period runs until notification.served
    assert_eq!(kinds(&fx), ["publish:successor.notified"]);
    let n = event(&fx, "successor.notified");
    assert_eq!(n["candidate"], "L1-03");
    assert_eq!(n["round"], 1);
    assert_eq!(n["message_id"], "<rat-1.1@nachfolge>");
    same_instant(&n["sent_at"], SENT);
    let o = offer(&b, CASE);
    assert_eq!(o.notified_at, Some(t(SENT)));
    assert!(o.deadline.is_none());
}

/// Formerly `nrw_45_abs_6_satz_2_email_fiction_starts_period_when_sent`: the e-mail fiction was removed — a
/// plain e-mail is no Zustellung, and the fiction of § 5 Abs. 7 LZG NRW holds only for a procedure conducted
/// electronically at the recipient's request (docs/legal.md, "Service fiction").
#[test]
fn lzg_nrw_5_abs_7_email_is_no_service_sending_starts_no_period() {
    let mut b = nrw_open();
    let fx = run(&mut b, sent(CASE, 1, SENT), SENT);
    assert_eq!(kinds(&fx), ["publish:successor.notified"]);
    assert!(offer(&b, CASE).deadline.is_none());
    // three days later nothing has been served: a timer for the round (there is none) would change nothing
    let fx = run(&mut b, expired(CASE, 1), "2025-06-13T00:00:00+02:00");
    assert!(fx.is_empty(), "{:?}", kinds(&fx));
    assert!(matches!(state(&b, CASE), CaseState::Offered(_)));
}

#[test]
fn nrw_45_abs_6_satz_2_service_starts_one_week_period() {
    let mut b = nrw_notified();
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["schedule:rat-1#1", "publish:deadline.set", "mail:period_notice"]);
    let ds = event(&fx, "deadline.set");
    assert_eq!((ds["served_on"].as_str(), ds["last_day"].as_str()), (Some("2025-06-03"), Some("2025-06-10")));
    same_instant(&ds["ends_at"], ENDS);
    assert_eq!(ds["round"], 1);
    assert_eq!(schedule(&fx), (Timer::deadline(CASE, 1), t(ENDS), 1));
    let dl = offer(&b, CASE).deadline.clone().expect("deadline");
    assert_eq!((dl.served_on, dl.last_day, dl.ends_at), (d("2025-06-03"), d("2025-06-10"), t(ENDS)));
}

/// Formerly `…_explicit_service_overrides_email_fiction_…`: without the e-mail fiction the registered letter
/// is the first service; a later certificate still moves the period.
#[test]
fn lzg_nrw_4_abs_2_registered_letter_counts_4th_day_a_later_certificate_moves_the_period() {
    let mut b = nrw_open();
    let fx = run(&mut b, sent(CASE, 1, SENT), SENT);
    assert_eq!(kinds(&fx), ["publish:successor.notified"]);
    // Übergabe-Einschreiben posted Fri 6 Jun 2025 → served Tue 10 Jun → ends Tue 17 Jun 2025 24:00
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::RegisteredLetterPosted, "2025-06-06"),
        "2025-06-06T15:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["schedule:rat-1#1", "publish:deadline.set", "mail:period_notice"]);
    let ds = event(&fx, "deadline.set");
    assert_eq!((ds["served_on"].as_str(), ds["last_day"].as_str()), (Some("2025-06-10"), Some("2025-06-17")));
    assert_eq!(schedule(&fx).1, t("2025-06-18T00:00:00+02:00"));
    // a Postzustellungsurkunde of Thu 12 Jun 2025 → ends Fri 20 Jun (Fronleichnam); moves the timer
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-12"),
        "2025-06-12T15:00:00+02:00",
    );
    assert_eq!(event(&fx, "deadline.set")["last_day"], "2025-06-20");
    // the letter's end is no longer the end: a timer at that moment does nothing
    let fx = run(&mut b, expired(CASE, 1), "2025-06-18T00:00:00+02:00");
    assert!(fx.is_empty(), "{:?}", kinds(&fx));
    assert!(matches!(state(&b, CASE), CaseState::Offered(_)));
}

#[test]
fn lzg_nrw_4_abs_1_einwurf_einschreiben_is_no_service_and_starts_no_period() {
    let mut b = nrw_notified();
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::RegisteredLetterMailbox, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
    );
    // recorded in the file and answered, not dead-lettered; no fiction, no period
    assert_eq!(kinds(&fx), ["publish:service.rejected"]);
    let r = event(&fx, "service.rejected");
    assert_eq!(
        (r["candidate"].as_str(), r["reason"].as_str(), r["round"].as_u64()),
        (Some("L1-03"), Some("no_formal_service"), Some(1))
    );
    assert!(offer(&b, CASE).deadline.is_none());
    let rec = b.cases[CASE].history.services.last().expect("recorded");
    assert_eq!(rec.method, ServiceMethod::RegisteredLetterMailbox);
    assert_eq!(rec.rejected, Some(ServiceRejection::NoFormalService));
}

#[test]
fn lzg_nrw_8_actual_receipt_heals_the_service_and_starts_the_period() {
    let mut b = nrw_notified();
    run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::RegisteredLetterMailbox, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
    );
    // the Wahlleitung proves that the letter reached him on Wed 4 Jun 2025: served that day, week ends 11 Jun
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::ActualReceipt, "2025-06-04"),
        "2025-06-05T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["schedule:rat-1#1", "publish:deadline.set", "mail:period_notice"]);
    let ds = event(&fx, "deadline.set");
    assert_eq!((ds["served_on"].as_str(), ds["last_day"].as_str()), (Some("2025-06-04"), Some("2025-06-11")));
    assert_eq!(ds["trail"][0]["reason"], "served");
    assert_eq!(ds["trail"][0]["citation"], "§ 8 LZG NRW");
}

#[test]
fn lzg_nrw_4_abs_2_fiction_day_on_a_holiday_moves_to_the_next_working_day_by_default() {
    // posted Thu 2 Apr 2026: the 4th day is Mon 6 Apr, Ostermontag → served Tue 7 Apr → week ends Tue 14 Apr
    let mut snapshot = nrw_snapshot();
    snapshot["body"]["term"] = json!({ "start": "2025-11-01", "end": "2030-10-31" });
    for kept in [false, true] {
        let mut s = snapshot.clone();
        if kept {
            s["body"]["readings"] = json!({ "fiction_day": "kept" });
        }
        let mut b = body_from(s);
        run(
            &mut b,
            vacancy("rat", "L1-02", DepartureReason::Resigned, "2026-03-30T10:00:00+02:00"),
            "2026-03-30T10:00:00+02:00",
        );
        run(&mut b, sent(CASE, 1, "2026-03-30T11:00:00+02:00"), "2026-03-30T11:00:00+02:00");
        let fx = run(
            &mut b,
            served("rat", CASE, "L1-03", ServiceMethod::RegisteredLetterPosted, "2026-04-02"),
            "2026-04-02T15:00:00+02:00",
        );
        let ds = event(&fx, "deadline.set");
        let reasons: Vec<&str> =
            ds["trail"].as_array().expect("trail").iter().filter_map(|s| s["reason"].as_str()).collect();
        if kept {
            // OVG Nds 7 PA 184/06: the fiction day is a day, not the end of a period
            assert_eq!((ds["served_on"].as_str(), ds["last_day"].as_str()), (Some("2026-04-06"), Some("2026-04-13")));
            assert_eq!(reasons, ["service_fiction", "period_one_week"]);
        } else {
            // BFH IX R 68/98: moved like the end of a period
            assert_eq!((ds["served_on"].as_str(), ds["last_day"].as_str()), (Some("2026-04-07"), Some("2026-04-14")));
            assert_eq!(reasons, ["service_fiction", "fiction_day_moved_public_holiday:Ostermontag", "period_one_week"]);
            assert_eq!(ds["trail"][1]["citation"], "§ 31 Abs. 3 Satz 1 VwVfG NRW entsprechend");
            assert!(ds["trail"][1]["detail"]
                .as_str()
                .is_some_and(|d| d.contains("IX R 68/98") && d.contains("7 PA 184/06")));
        }
    }
}

#[test]
fn vwvfg_nrw_31_abs_3_satz_1_period_ending_on_fronleichnam_ends_next_working_day() {
    let mut b = nrw_open();
    run(&mut b, sent(CASE, 1, SENT), SENT);
    // served Thu 12 Jun 2025 → the week ends Thu 19 Jun, Fronleichnam → Fri 20 Jun 2025 24:00
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Acknowledgement, "2025-06-12"),
        "2025-06-12T18:00:00+02:00",
    );
    let ds = event(&fx, "deadline.set");
    assert_eq!((ds["served_on"].as_str(), ds["last_day"].as_str()), (Some("2025-06-12"), Some("2025-06-20")));
    same_instant(&ds["ends_at"], "2025-06-21T00:00:00+02:00");
    assert!(ds["trail"]
        .as_array()
        .expect("trail")
        .iter()
        .any(|s| s["reason"].as_str().is_some_and(|r| r.starts_with("extended_public_holiday:Fronleichnam"))
            && s["citation"].as_str().is_some_and(|c| c.contains("§ 31 Abs. 3 Satz 1"))));
    assert_eq!(schedule(&fx).1, t("2025-06-21T00:00:00+02:00"));
    // an acceptance on the holiday's next day is still in time
    let fx = run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Accept, "2025-06-20T23:59:00+02:00"),
        "2025-06-20T23:59:30+02:00",
    );
    assert_eq!(event(&fx, "membership.changed")["basis"], "acceptance");
}

/// The deployment setting `rules.fixed_end_date` (formerly read as § 31 Abs. 3 Satz 2 VwVfG NRW) is the
/// default of `body.readings.period_end`; the body's reading wins.
#[test]
fn readings_period_end_fixed_week_is_not_extended_setting_or_body() {
    let mut b = nrw_open();
    let settings = Settings { fixed_end_date: true, ..Settings::default() };
    run_with(&mut b, sent(CASE, 1, SENT), SENT, &settings);
    let fx = run_with(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Acknowledgement, "2025-06-12"),
        "2025-06-12T18:00:00+02:00",
        &settings,
    );
    let ds = event(&fx, "deadline.set");
    assert_eq!(ds["last_day"], "2025-06-19");
    assert_eq!(ds["trail"][2]["reason"], "fixed_period");
    assert_eq!(ds["trail"][2]["citation"], "vgl. § 54 Abs. 1 BWahlG");

    // the body's reading overrides the deployment's, either way
    let mut s = nrw_snapshot();
    s["body"]["readings"] = json!({ "period_end": "extended" });
    let mut b = body_from(s);
    run_with(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED, &settings);
    run_with(&mut b, sent(CASE, 1, SENT), SENT, &settings);
    let fx = run_with(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Acknowledgement, "2025-06-12"),
        "2025-06-12T18:00:00+02:00",
        &settings,
    );
    assert_eq!(event(&fx, "deadline.set")["last_day"], "2025-06-20");
    let mut s = nrw_snapshot();
    s["body"]["readings"] = json!({ "period_end": "fixed" });
    let mut b = body_from(s);
    run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    run(&mut b, sent(CASE, 1, SENT), SENT);
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Acknowledgement, "2025-06-12"),
        "2025-06-12T18:00:00+02:00",
    );
    assert_eq!(event(&fx, "deadline.set")["last_day"], "2025-06-19");
}

#[test]
fn nrw_45_abs_6_satz_3_acceptance_starts_membership_when_it_reaches_the_officer() {
    let mut b = nrw_served();
    let at = "2025-06-05T11:30:00+02:00";
    let fx = run(&mut b, declare("rat", CASE, "L1-03", DeclarationKind::Accept, at), "2025-06-05T12:00:00+02:00");
    assert_eq!(
        kinds(&fx),
        [
            "publish:declaration.recorded",
            "cancel:rat-1#1",
            "publish:membership.changed",
            "announce:successor",
            "schedule:rat-1#objection#1"
        ]
    );
    let rec = event(&fx, "declaration.recorded");
    assert_eq!((rec["candidate"].as_str(), rec["kind"].as_str()), (Some("L1-03"), Some("accept")));
    same_instant(&rec["received_at"], at);
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("acceptance")));
    assert_eq!(m["person"]["id"], "L1-03");
    assert_eq!(m["voting_right"], true);
    same_instant(&m["effective_at"], at);
    assert_eq!(m["membership"]["startDate"], "2025-06-05");
    let a = announcement(&fx);
    assert_eq!(a.legal_basis, "§ 45 Abs. 6 Satz 7 KWahlG NRW");
    assert!(a.objection_period.contains("§ 39 Abs. 1"));
    assert_eq!(a.template, "nrw_successor");
    match state(&b, CASE) {
        CaseState::Filled { successor, since, basis } => {
            assert_eq!((successor.as_str(), *since, *basis), ("L1-03", t(at), MembershipBasis::Acceptance));
        }
        other => panic!("not filled: {other:?}"),
    }
    let seat = b.candidate("L1-03").and_then(|c| c.seat.clone()).expect("seat");
    assert_eq!(seat.since, d("2025-06-05"));
    assert!(!b.has_open_case());
}

#[test]
fn nrw_45_abs_6_satz_3_membership_not_before_departure_of_predecessor() {
    let mut b = nrw();
    // L1-02 resigns on 2 Jun with effect from 1 Jul 2025
    let departure = "2025-07-01T00:00:00+02:00";
    let fx = run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, departure), OPENED);
    same_instant(&event(&fx, "membership.changed")["effective_at"], departure);
    run(&mut b, sent(CASE, 1, SENT), SENT);
    let fx = run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Accept, "2025-06-03T09:00:00+02:00"),
        "2025-06-03T09:00:00+02:00",
    );
    let m = event(&fx, "membership.changed");
    assert_eq!(m["basis"], "acceptance");
    same_instant(&m["effective_at"], departure);
    assert_eq!(m["membership"]["startDate"], "2025-07-01");
    assert!(matches!(state(&b, CASE), CaseState::Filled { since, .. } if *since == t(departure)));
}

#[test]
fn nrw_45_abs_2_satz_2_refusal_determines_next_successor() {
    let mut b = nrw_served();
    let at = "2025-06-05T11:30:00+02:00";
    let fx = run(&mut b, declare("rat", CASE, "L1-03", DeclarationKind::Refuse, at), "2025-06-05T12:00:00+02:00");
    assert_eq!(
        kinds(&fx),
        ["publish:declaration.recorded", "cancel:rat-1#1", "publish:succession.determined", "mail:nrw_offer"]
    );
    assert_eq!(event(&fx, "declaration.recorded")["kind"], "refuse");
    let det = event(&fx, "succession.determined");
    assert_eq!((det["round"].as_u64(), det["successor"]["id"].as_str()), (Some(2), Some("L1-04")));
    let trail = det["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["candidate"] == "L1-03" && s["verdict"] == "skipped" && s["reason"] == "declined"));
    let m = mail(&fx);
    assert_eq!((m.round, m.candidate.as_str()), (2, "L1-04"));
    // round 2 starts afresh: no notification, no deadline; the refusal is a fact
    let o = offer(&b, CASE);
    assert_eq!((o.successor.as_str(), o.notified_at, o.deadline.is_none()), ("L1-04", None, true));
    assert_eq!(b.cases[CASE].round, 2);
    assert_eq!(b.cases[CASE].refused, ["L1-03"]);
    assert!(has_fact(&b, "L1-03", "declined"));
    // the stale round-1 timer and a stale round-1 mail report change nothing
    assert!(run(&mut b, expired(CASE, 1), "2025-06-11T00:00:00+02:00").is_empty());
    assert!(run(&mut b, sent(CASE, 1, SENT), "2025-06-11T00:00:00+02:00").is_empty());
    assert_eq!(offer(&b, CASE).notified_at, None);
}

#[test]
fn nrw_45_abs_6_satz_5_reservation_counts_as_refusal() {
    let mut b = nrw_served();
    let at = "2025-06-05T11:30:00+02:00";
    let fx = run(&mut b, declare("rat", CASE, "L1-03", DeclarationKind::AcceptWithReservation, at), at);
    assert_eq!(
        kinds(&fx),
        ["publish:declaration.recorded", "cancel:rat-1#1", "publish:succession.determined", "mail:nrw_offer"]
    );
    assert_eq!(event(&fx, "declaration.recorded")["kind"], "accept_with_reservation");
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "L1-04");
    assert!(has_fact(&b, "L1-03", "declined"));
    assert!(b.candidate("L1-03").expect("c").seat.is_none());
}

#[test]
fn kwahlo_nrw_69_abs_2_refusing_substitute_loses_his_own_list_position() {
    let mut s = nrw_snapshot();
    // L1-05 is the Ersatzbewerber named for L1-02 (a list candidate): he comes first
    s["lists"][0]["candidates"][4]["substitute_for"] = json!("L1-02");
    let mut b = body_from(s);
    let fx = run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    let det = event(&fx, "succession.determined");
    assert_eq!(det["successor"]["id"], "L1-05");
    assert!(det["trail"]
        .as_array()
        .expect("trail")
        .iter()
        .any(|s| s["candidate"] == "L1-05" && s["verdict"] == "chosen" && s["reason"] == "substitute"));
    let mut now = t(OPENED);
    let mut step = |b: &mut Council, round: u32, who: &str| {
        now += chrono::Duration::hours(1);
        let at = now.to_rfc3339();
        run(b, sent(CASE, round, &at), &at);
        now += chrono::Duration::hours(1);
        let at = now.to_rfc3339();
        run(b, declare("rat", CASE, who, DeclarationKind::Refuse, &at), &at)
    };
    let fx = step(&mut b, 1, "L1-05");
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "L1-03");
    step(&mut b, 2, "L1-03");
    let fx = step(&mut b, 3, "L1-04");
    // list order reaches his position 5: passed over for good
    let det = event(&fx, "succession.determined");
    assert_eq!((det["round"].as_u64(), det["successor"]["id"].as_str()), (Some(4), Some("L1-06")));
    assert!(det["trail"]
        .as_array()
        .expect("trail")
        .iter()
        .any(|s| s["candidate"] == "L1-05" && s["verdict"] == "skipped" && s["reason"] == "declined"));
    assert_eq!(b.cases[CASE].refused, ["L1-05", "L1-03", "L1-04"]);
}

#[test]
fn nrw_45_abs_6_satz_6_refusal_cannot_be_withdrawn() {
    let mut b = nrw_served();
    run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Refuse, "2025-06-05T11:30:00+02:00"),
        "2025-06-05T11:30:00+02:00",
    );
    let fx = run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Accept, "2025-06-05T15:00:00+02:00"),
        "2025-06-05T15:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["publish:declaration.rejected"]);
    let r = event(&fx, "declaration.rejected");
    assert_eq!((r["candidate"].as_str(), r["reason"].as_str()), (Some("L1-03"), Some("refusal_irrevocable")));
    assert_eq!(offer(&b, CASE).successor, "L1-04");
    assert!(b.candidate("L1-03").expect("c").seat.is_none());
}

#[test]
fn nrw_45_abs_6_satz_2_declaration_before_notification_sent_is_rejected() {
    let mut b = nrw_open();
    let fx = run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Accept, "2025-06-02T11:00:00+02:00"),
        "2025-06-02T11:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["publish:declaration.rejected"]);
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "before_notification");
    assert_eq!(offer(&b, CASE).accepted_at, None);
    // received before the mail went out, but entered after: still before the notification
    run(&mut b, sent(CASE, 1, SENT), SENT);
    let fx = run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Refuse, "2025-06-02T11:59:00+02:00"),
        "2025-06-02T13:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "before_notification");
    assert_eq!(offer(&b, CASE).successor, "L1-03");
}

#[test]
fn nrw_45_abs_6_satz_4_declaration_after_end_of_period_is_rejected() {
    let mut b = nrw_served();
    // reached the officer at 00:00 after the last day; the timer has not fired yet
    let fx = run(&mut b, declare("rat", CASE, "L1-03", DeclarationKind::Refuse, ENDS), "2025-06-11T00:00:30+02:00");
    assert_eq!(kinds(&fx), ["publish:declaration.rejected"]);
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "after_deadline");
    assert!(!has_fact(&b, "L1-03", "declined"));
    // the period ended in silence: deemed accepted
    let fx = run(&mut b, expired(CASE, 1), "2025-06-11T00:01:00+02:00");
    assert_eq!(event(&fx, "membership.changed")["basis"], "deemed_acceptance");
}

#[test]
fn nrw_45_abs_6_declaration_from_person_not_pending_successor_is_invalid() {
    let b = nrw_served();
    let at = "2025-06-05T11:30:00+02:00";
    let err = refuse(&b, declare("rat", CASE, "L1-04", DeclarationKind::Accept, at), at);
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("not the pending successor")), "{err:?}");
    // the departed member himself is not the pending successor either
    let err = refuse(&b, declare("rat", CASE, "L1-02", DeclarationKind::Refuse, at), at);
    assert!(matches!(err, Rejection::Invalid(_)), "{err:?}");
    // an unknown candidate or case may still be on its way: retried, not dead-lettered at once
    let err = refuse(&b, declare("rat", CASE, "X-99", DeclarationKind::Accept, at), at);
    assert!(matches!(err, Rejection::Unknown(_)), "{err:?}");
    let err = refuse(&b, declare("rat", "rat-9", "L1-03", DeclarationKind::Accept, at), at);
    assert!(matches!(err, Rejection::Unknown(_)), "{err:?}");
    // a declaration dated in the future is bad input
    let err = refuse(&b, declare("rat", CASE, "L1-03", DeclarationKind::Accept, "2025-06-06T11:30:00+02:00"), at);
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("future")), "{err:?}");
}

#[test]
fn nrw_45_abs_6_satz_3_acceptance_before_service_date_known_is_valid() {
    let mut b = nrw_notified();
    let at = "2025-06-02T18:00:00+02:00";
    let fx = run(&mut b, declare("rat", CASE, "L1-03", DeclarationKind::Accept, at), at);
    assert_eq!(
        kinds(&fx),
        [
            "publish:declaration.recorded",
            "cancel:rat-1#1",
            "publish:membership.changed",
            "announce:successor",
            "schedule:rat-1#objection#1"
        ]
    );
    same_instant(&event(&fx, "membership.changed")["effective_at"], at);
    assert!(matches!(state(&b, CASE), CaseState::Filled { basis: MembershipBasis::Acceptance, .. }));
    // [decision] the service certificate that arrives afterwards is taken without effect, not dead-lettered
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
    );
    assert!(fx.is_empty(), "{:?}", kinds(&fx));
    assert!(matches!(state(&b, CASE), CaseState::Filled { .. }));
}

#[test]
fn nrw_45_abs_6_satz_4_silence_deemed_accepted_at_end_of_period() {
    let mut b = nrw_served();
    let fx = run(&mut b, expired(CASE, 1), "2025-06-11T00:00:02+02:00");
    assert_eq!(
        kinds(&fx),
        ["cancel:rat-1#1", "publish:membership.changed", "announce:successor", "schedule:rat-1#objection#1"]
    );
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("deemed_acceptance")));
    assert_eq!(m["person"]["id"], "L1-03");
    assert_eq!(m["voting_right"], true);
    same_instant(&m["effective_at"], ENDS);
    match state(&b, CASE) {
        CaseState::Filled { successor, since, basis } => {
            assert_eq!((successor.as_str(), *since, *basis), ("L1-03", t(ENDS), MembershipBasis::DeemedAcceptance));
        }
        other => panic!("not filled: {other:?}"),
    }
    // a declaration arriving after that changes nothing
    let fx = run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Refuse, "2025-06-11T09:00:00+02:00"),
        "2025-06-11T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["publish:declaration.rejected"]);
    assert!(b.candidate("L1-03").expect("c").seat.is_some());
    // the timer firing again (at-least-once) changes nothing either
    assert!(run(&mut b, expired(CASE, 1), "2025-06-11T00:05:00+02:00").is_empty());
}

#[test]
fn nrw_45_abs_6_satz_4_timer_before_end_of_period_or_for_stale_round_has_no_effect() {
    let mut b = nrw_served();
    let before = b.cases[CASE].clone();
    assert!(run(&mut b, expired(CASE, 1), "2025-06-10T23:59:59+02:00").is_empty());
    assert!(run(&mut b, expired(CASE, 2), "2025-06-12T00:00:00+02:00").is_empty());
    assert!(run(&mut b, expired(CASE, 0), "2025-06-12T00:00:00+02:00").is_empty());
    assert_eq!(b.cases[CASE], before);
    // no service date → no period runs → nothing is ever deemed (docs/legal.md, "Service fiction")
    let mut b = nrw_notified();
    assert!(run(&mut b, expired(CASE, 1), "2025-08-01T00:00:00+02:00").is_empty());
    assert!(matches!(state(&b, CASE), CaseState::Offered(_)));
}

#[test]
fn nrw_45_abs_6_satz_4_deemed_acceptance_not_before_departure_of_predecessor() {
    let mut b = nrw();
    let departure = "2025-07-01T00:00:00+02:00";
    run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, departure), OPENED);
    run(&mut b, sent(CASE, 1, SENT), SENT);
    run(&mut b, served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"), "2025-06-04T09:00:00+02:00");
    let fx = run(&mut b, expired(CASE, 1), ENDS);
    same_instant(&event(&fx, "membership.changed")["effective_at"], departure);
}

/// NRW snapshot whose next candidate L1-03 is barred (employed by the municipality).
fn nrw_barred() -> Council {
    let mut s = nrw_snapshot();
    add_fact(&mut s, 0, 2, json!({ "type": "barred", "on": "2024-01-01", "reason": "Beschäftigter der Stadt" }));
    let mut b = body_from(s);
    let fx = run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    let det = event(&fx, "succession.determined");
    assert_eq!((det["successor"]["id"].as_str(), det["barred"].as_bool()), (Some("L1-03"), Some(true)));
    assert!(det["trail"].as_array().expect("trail").iter().any(|s| s["reason"] == "barred_must_prove_end"));
    assert!(mail(&fx).context["successor"]["barred"].as_bool().expect("barred flag"));
    run(&mut b, sent(CASE, 1, SENT), SENT);
    run(&mut b, served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"), "2025-06-04T09:00:00+02:00");
    assert!(offer(&b, CASE).barred);
    b
}

/// docs/legal.md, "Bars by date": the procedure judges a bar at the moment it determines, as `decide` does.
#[test]
fn kwahlg_nrw_13_bar_judged_by_date_in_the_procedure() {
    let determine = |facts: Vec<Value>| {
        let mut s = nrw_snapshot();
        for f in facts {
            add_fact(&mut s, 0, 2, f);
        }
        let mut b = body_from(s);
        let fx = run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
        let det = event(&fx, "succession.determined");
        assert_eq!(det["successor"]["id"], "L1-03");
        let barred = det["barred"].as_bool().expect("barred");
        assert_eq!(mail(&fx).context["successor"]["barred"].as_bool(), Some(barred), "mail and event agree");
        assert_eq!(offer(&b, CASE).barred, barred);
        barred
    };
    let bar = |on: &str| json!({ "type": "barred", "on": on, "reason": "Beschäftigter der Stadt" });
    let cure = |on: &str| json!({ "type": "bar_cured", "on": on });
    // a bar that begins after the determination (2 Jun 2025) is none yet
    assert!(!determine(vec![bar("2025-07-01")]));
    // cured, and arising again: a bar
    assert!(determine(vec![bar("2024-01-01"), cure("2024-06-01"), bar("2025-01-01")]));
    // cured after the determination only: still a bar
    assert!(determine(vec![bar("2024-01-01"), cure("2025-07-01")]));
    assert!(!determine(vec![bar("2024-01-01"), cure("2025-06-01")]));
}

#[test]
fn kwahlo_nrw_69_abs_2_62_nr_5_barred_successor_without_proof_deemed_refusal() {
    let mut b = nrw_barred();
    // he even accepted, but never proved that the employment ended
    let fx = run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Accept, "2025-06-05T10:00:00+02:00"),
        "2025-06-05T10:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["publish:declaration.recorded"]);
    assert!(matches!(state(&b, CASE), CaseState::Offered(_)));
    let fx = run(&mut b, expired(CASE, 1), "2025-06-11T00:00:01+02:00");
    assert_eq!(
        kinds(&fx),
        ["publish:declaration.recorded", "cancel:rat-1#1", "publish:succession.determined", "mail:nrw_offer"]
    );
    let rec = event(&fx, "declaration.recorded");
    assert_eq!((rec["candidate"].as_str(), rec["kind"].as_str()), (Some("L1-03"), Some("deemed_refusal")));
    same_instant(&rec["received_at"], ENDS);
    let det = event(&fx, "succession.determined");
    assert_eq!((det["round"].as_u64(), det["successor"]["id"].as_str()), (Some(2), Some("L1-04")));
    assert!(has_fact(&b, "L1-03", "declined"));
    assert!(b.candidate("L1-03").expect("c").seat.is_none());
    assert_eq!(b.cases[CASE].refused, ["L1-03"]);
}

#[test]
fn kwahlg_nrw_13_barred_successor_accepts_and_proves_in_time_becomes_member() {
    // acceptance first, then the proof: membership from the proof
    let mut b = nrw_barred();
    run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Accept, "2025-06-04T10:00:00+02:00"),
        "2025-06-04T10:00:00+02:00",
    );
    let proof = "2025-06-06T10:00:00+02:00";
    let fx = run(&mut b, cured("rat", CASE, "L1-03", proof), proof);
    assert_eq!(
        kinds(&fx),
        [
            "publish:declaration.recorded",
            "cancel:rat-1#1",
            "publish:membership.changed",
            "announce:successor",
            "schedule:rat-1#objection#1"
        ]
    );
    assert_eq!(event(&fx, "declaration.recorded")["kind"], "bar_cured");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("acceptance")));
    assert_eq!(m["voting_right"], true);
    same_instant(&m["effective_at"], proof);
    assert!(matches!(state(&b, CASE), CaseState::Filled { since, .. } if *since == t(proof)));
    assert!(has_fact(&b, "L1-03", "bar_cured"));

    // the proof first, then the acceptance: membership from the acceptance
    let mut b = nrw_barred();
    let fx = run(&mut b, cured("rat", CASE, "L1-03", "2025-06-04T10:00:00+02:00"), "2025-06-04T10:00:00+02:00");
    assert_eq!(kinds(&fx), ["publish:declaration.recorded"]);
    let at = "2025-06-06T10:00:00+02:00";
    let fx = run(&mut b, declare("rat", CASE, "L1-03", DeclarationKind::Accept, at), at);
    same_instant(&event(&fx, "membership.changed")["effective_at"], at);

    // the proof and silence: deemed accepted at the end of the period
    let mut b = nrw_barred();
    run(&mut b, cured("rat", CASE, "L1-03", "2025-06-04T10:00:00+02:00"), "2025-06-04T10:00:00+02:00");
    let fx = run(&mut b, expired(CASE, 1), ENDS);
    assert_eq!(event(&fx, "membership.changed")["basis"], "deemed_acceptance");

    // a proof from a successor without a bar is not needed
    let mut b = nrw_served();
    let fx = run(&mut b, cured("rat", CASE, "L1-03", "2025-06-04T10:00:00+02:00"), "2025-06-04T10:00:00+02:00");
    assert_eq!(kinds(&fx), ["publish:declaration.rejected"]);
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "not_barred");

    // a proof after the period is too late
    let mut b = nrw_barred();
    let fx = run(&mut b, cured("rat", CASE, "L1-03", "2025-06-11T08:00:00+02:00"), "2025-06-11T08:00:00+02:00");
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "after_deadline");
}

#[test]
fn nrw_45_abs_2_satz_2_pending_successor_dies_before_acceptance_next_round() {
    let mut b = nrw_served();
    let fx = run(&mut b, fact("rat", "L1-03", Fact::Died { on: d("2025-06-05") }), "2025-06-05T15:00:00+02:00");
    assert_eq!(kinds(&fx), ["cancel:rat-1#1", "publish:succession.determined", "mail:nrw_offer"]);
    let det = event(&fx, "succession.determined");
    assert_eq!((det["round"].as_u64(), det["successor"]["id"].as_str()), (Some(2), Some("L1-04")));
    assert!(det["trail"].as_array().expect("trail").iter().any(|s| s["candidate"] == "L1-03" && s["reason"] == "died"));
    assert_eq!(offer(&b, CASE).successor, "L1-04");
    // a fact about someone else changes nothing in the case
    let fx = run(&mut b, fact("rat", "L1-06", Fact::Died { on: d("2025-06-05") }), "2025-06-05T15:00:00+02:00");
    assert!(fx.is_empty());
    assert_eq!(b.cases[CASE].round, 2);
}

#[test]
fn nrw_45_abs_2_satz_2_pending_successor_loses_eligibility_before_acceptance_next_round() {
    let mut b = nrw_served();
    let fx = run(
        &mut b,
        fact("rat", "L1-03", Fact::Ineligible { from: d("2025-06-05"), until: None }),
        "2025-06-05T15:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["cancel:rat-1#1", "publish:succession.determined", "mail:nrw_offer"]);
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "L1-04");
}

#[test]
fn nrw_45_abs_2_satz_2_barred_successor_dies_after_acceptance_before_proof_next_round() {
    let mut b = nrw_barred();
    run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Accept, "2025-06-04T10:00:00+02:00"),
        "2025-06-04T10:00:00+02:00",
    );
    // his acceptance took no effect yet (no proof): his death makes way for the next at once
    let fx = run(&mut b, fact("rat", "L1-03", Fact::Died { on: d("2025-06-05") }), "2025-06-05T15:00:00+02:00");
    assert_eq!(kinds(&fx), ["cancel:rat-1#1", "publish:succession.determined", "mail:nrw_offer"]);
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "L1-04");
    assert_eq!(b.cases[CASE].round, 2);
}

#[test]
fn nrw_45_abs_2_satz_1_pending_successor_of_first_vacancy_not_offered_second() {
    let mut b = nrw_open();
    let fx = run(&mut b, vacancy("rat", "L1-01", DepartureReason::Died, OPENED), "2025-06-02T10:30:00+02:00");
    let det = event(&fx, "succession.determined");
    assert_eq!(det["case"], "rat-2");
    assert_eq!((det["round"].as_u64(), det["successor"]["id"].as_str()), (Some(1), Some("L1-04")));
    let trail = det["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["candidate"] == "L1-03" && s["reason"] == "pending_successor"));
    assert_eq!(mail(&fx).candidate, "L1-04");
    assert!(has_fact(&b, "L1-01", "died"));
    assert_eq!(offer(&b, "rat-1").successor, "L1-03");
    assert_eq!(offer(&b, "rat-2").successor, "L1-04");
    // L1-03 refuses the first: the first case goes on with L1-05, the second stays with L1-04
    run(&mut b, sent("rat-1", 1, SENT), SENT);
    let fx = run(
        &mut b,
        declare("rat", "rat-1", "L1-03", DeclarationKind::Refuse, "2025-06-03T10:00:00+02:00"),
        "2025-06-03T10:00:00+02:00",
    );
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "L1-05");
    assert_eq!(offer(&b, "rat-2").successor, "L1-04");
    // and L1-03 cannot answer the other case's offer
    let err = refuse(
        &b,
        declare("rat", "rat-2", "L1-03", DeclarationKind::Accept, "2025-06-03T11:00:00+02:00"),
        "2025-06-03T11:00:00+02:00",
    );
    assert!(matches!(err, Rejection::Invalid(_)), "{err:?}");
}

#[test]
fn nrw_45_abs_6_satz_2_4_late_certificate_for_refusing_round_1_candidate_never_starts_round_2_week() {
    let mut b = nrw_notified();
    run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Refuse, "2025-06-03T10:00:00+02:00"),
        "2025-06-03T10:00:00+02:00",
    );
    run(&mut b, sent(CASE, 2, "2025-06-03T11:00:00+02:00"), "2025-06-03T11:00:00+02:00");
    assert_eq!(offer(&b, CASE).successor, "L1-04");
    // the PZU certificate of round 1 (served on L1-03) arrives late: recorded and answered, never applied
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-04"),
        "2025-06-05T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["publish:service.rejected"]);
    let r = event(&fx, "service.rejected");
    assert_eq!(
        (r["case"].as_str(), r["candidate"].as_str(), r["round"].as_u64(), r["reason"].as_str()),
        (Some(CASE), Some("L1-03"), Some(2), Some("not_pending_successor"))
    );
    assert!(offer(&b, CASE).deadline.is_none(), "the round-2 week has not started");
    // the same with the round named: a round mismatch, even for the current successor
    let fx = run(
        &mut b,
        served_round("rat", CASE, "L1-04", Some(1), ServiceMethod::Certificate, "2025-06-04"),
        "2025-06-05T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["publish:service.rejected"]);
    let r = event(&fx, "service.rejected");
    assert_eq!((r["round"].as_u64(), r["reason"].as_str()), (Some(1), Some("round_mismatch")));
    assert!(offer(&b, CASE).deadline.is_none());
    // the round-2 certificate for L1-04 starts his week
    let fx = run(
        &mut b,
        served_round("rat", CASE, "L1-04", Some(2), ServiceMethod::Certificate, "2025-06-04"),
        "2025-06-05T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["schedule:rat-1#2", "publish:deadline.set", "mail:period_notice"]);
    assert_eq!(event(&fx, "deadline.set")["candidate"], "L1-04");
    // every certificate is in the case history
    let h = &b.cases[CASE].history.services;
    assert_eq!(h.len(), 3);
    assert_eq!(
        h.iter().map(|r| (r.candidate.as_str(), r.round, r.rejected)).collect::<Vec<_>>(),
        [
            ("L1-03", 2, Some(ServiceRejection::NotPendingSuccessor)),
            ("L1-04", 1, Some(ServiceRejection::RoundMismatch)),
            ("L1-04", 2, None)
        ]
    );
}

#[test]
fn nrw_45_abs_6_satz_2_certificate_in_a_closed_or_vacant_case_is_recorded_not_dead_lettered() {
    // the seat was left vacant: a certificate for the last refusing candidate is a normal part of the file
    let mut b = nrw();
    run(&mut b, vacancy("rat", "E1-01", DepartureReason::Died, OPENED), OPENED);
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["publish:service.rejected"]);
    assert_eq!(event(&fx, "service.rejected")["reason"], "not_pending_successor");
    assert_eq!(b.cases[CASE].history.services.len(), 1);
    // an unknown candidate is an unknown reference (retried, then rejected)
    let err =
        refuse(&b, served("rat", CASE, "X-9", ServiceMethod::Certificate, "2025-06-03"), "2025-06-04T09:00:00+02:00");
    assert!(matches!(err, Rejection::Unknown(_)), "{err:?}");
}

#[test]
fn contract_notification_served_date_in_future_or_before_notification_is_invalid() {
    let b = nrw_notified();
    let err =
        refuse(&b, served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-05"), "2025-06-04T09:00:00+02:00");
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("future")), "{err:?}");
    let err =
        refuse(&b, served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-01"), "2025-06-04T09:00:00+02:00");
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("before the notification")), "{err:?}");
    // the day of sending itself is fine: served Mon 2 Jun → Mon 9 Jun is Pfingstmontag → Tue 10 Jun
    let mut b = b;
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-02"),
        "2025-06-04T09:00:00+02:00",
    );
    assert_eq!(event(&fx, "deadline.set")["last_day"], "2025-06-10");
}

#[test]
fn nrw_45_abs_6_satz_2_failed_notification_waits_for_service() {
    let mut b = nrw_open();
    let fx = run(
        &mut b,
        Command::NotificationFailed {
            case: CASE.into(),
            round: 1,
            kind: MailKind::Determination,
            reason: "no e-mail address".into(),
        },
        SENT,
    );
    assert_eq!(kinds(&fx), ["publish:notification.failed"]);
    let f = event(&fx, "notification.failed");
    assert_eq!((f["candidate"].as_str(), f["reason"].as_str()), (Some("L1-03"), Some("no e-mail address")));
    assert!(offer(&b, CASE).notification_failed);
    assert!(offer(&b, CASE).deadline.is_none());
    // a stale round's failure report changes nothing
    assert!(run(
        &mut b,
        Command::NotificationFailed { case: CASE.into(), round: 7, kind: MailKind::Determination, reason: "x".into() },
        SENT
    )
    .is_empty());
    // no period without service: the timer never fires, nothing is deemed
    assert!(run(&mut b, expired(CASE, 1), "2025-07-01T00:00:00+02:00").is_empty());
    // the officer serves by post
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::RegisteredLetterPosted, "2025-06-06"),
        "2025-06-06T15:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["schedule:rat-1#1", "publish:deadline.set", "mail:period_notice"]);
    assert_eq!(event(&fx, "deadline.set")["last_day"], "2025-06-17");
    // the letter answered in time
    let fx = run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Accept, "2025-06-12T10:00:00+02:00"),
        "2025-06-12T10:00:00+02:00",
    );
    assert_eq!(event(&fx, "membership.changed")["basis"], "acceptance");
}

#[test]
fn nrw_45_abs_5_satz_1_individual_candidate_leaves_seat_vacant_size_reduced() {
    let mut b = nrw();
    let fx = run(&mut b, vacancy("rat", "E1-01", DepartureReason::Died, OPENED), OPENED);
    assert_eq!(
        kinds(&fx),
        ["publish:membership.changed", "publish:seat.left_vacant", "announce:vacancy", "schedule:rat-1#objection#1"]
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("individual_candidate"), Some(9)));
    assert_eq!(v["case"], CASE);
    assert!(v["trail"].as_array().expect("trail").iter().any(|s| s["citation"] == "§ 45 Abs. 5 Satz 2 KWahlG NRW"));
    assert_eq!(announcement(&fx).template, "nrw_vacancy");
    assert_eq!(b.info().statutory_size, 9);
    assert!(matches!(state(&b, CASE), CaseState::Vacant { .. }));
    assert!(!b.has_open_case());
}

fn banned(body: &str, member: &str, list_banned: bool, effective_at: &str) -> Command {
    Command::Inbound(Inbound::VacancyReported(VacancyReported {
        body: body.into(),
        member: member.into(),
        reason: DepartureReason::PartyBanned,
        effective_at: tz(effective_at),
        list_banned: Some(list_banned),
    }))
}

#[test]
fn nrw_46_abs_2_satz_1_party_ban_seat_vacant_size_reduced_determined_and_announced() {
    let mut b = nrw();
    let fx = run(&mut b, banned("rat", "L1-02", true, OPENED), OPENED);
    assert_eq!(
        kinds(&fx),
        ["publish:membership.changed", "publish:seat.left_vacant", "announce:vacancy", "schedule:rat-1#objection#1"]
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("party_banned"), Some(9)));
    assert_eq!(v["vacancy"]["reason"], "party_banned");
    assert_eq!(v["trail"][0]["citation"], "§ 46 Abs. 2 Satz 1 KWahlG NRW");
    let a = announcement(&fx);
    assert_eq!(a.legal_basis, "§ 46 Abs. 4 i. V. m. § 45 Abs. 6 Satz 7 KWahlG NRW");
    assert_eq!(
        (a.context["reason"].as_str(), a.context["departure"].as_str()),
        (Some("party_banned"), Some("party_banned"))
    );
    assert_eq!(b.info().statutory_size, 9);
    assert_eq!(b.cases[CASE].list_banned, Some(true));
    assert!(!b.has_open_case());
}

#[test]
fn nrw_46_abs_2_satz_2_party_ban_member_of_a_list_not_banned_succession_under_45() {
    let mut b = nrw();
    let fx = run(&mut b, banned("rat", "L1-02", false, OPENED), OPENED);
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:succession.determined", "mail:nrw_offer"]);
    let det = event(&fx, "succession.determined");
    assert_eq!(det["successor"]["id"], "L1-03");
    assert_eq!(det["trail"][0]["reason"], "party_ban_list_not_banned");
    assert_eq!(det["trail"][0]["citation"], "§ 46 Abs. 2 Satz 2 KWahlG NRW");
    assert_eq!(mail(&fx).context["departure"], "party_banned");
    // a merger is no NRW reason; a party ban without list_banned is refused
    let err = refuse(&nrw(), vacancy("rat", "L1-02", DepartureReason::Merger, OPENED), OPENED);
    assert!(matches!(&err, Rejection::Invalid(m) if m.starts_with("reason:")), "{err:?}");
    let err = refuse(&nrw(), vacancy("rat", "L1-02", DepartureReason::PartyBanned, OPENED), OPENED);
    assert!(matches!(&err, Rejection::Invalid(m) if m.starts_with("list_banned:")), "{err:?}");
}

#[test]
fn nrw_45_abs_5_satz_1_list_exhausted_seat_vacant_size_reduced() {
    let mut b = nrw();
    // everyone after L1-02 refuses in turn
    let mut now = t(OPENED);
    run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    for (round, who) in [(1, "L1-03"), (2, "L1-04"), (3, "L1-05")] {
        assert_eq!(offer(&b, CASE).successor, who);
        now += chrono::Duration::hours(1);
        let at = now.to_rfc3339();
        run(&mut b, sent(CASE, round, &at), &at);
        now += chrono::Duration::hours(1);
        let at = now.to_rfc3339();
        run(&mut b, declare("rat", CASE, who, DeclarationKind::Refuse, &at), &at);
    }
    now += chrono::Duration::hours(1);
    let at = now.to_rfc3339();
    run(&mut b, sent(CASE, 4, &at), &at);
    now += chrono::Duration::hours(1);
    let at = now.to_rfc3339();
    let fx = run(&mut b, declare("rat", CASE, "L1-06", DeclarationKind::Refuse, &at), &at);
    assert_eq!(
        kinds(&fx),
        [
            "publish:declaration.recorded",
            "cancel:rat-1#4",
            "publish:seat.left_vacant",
            "announce:vacancy",
            "schedule:rat-1#objection#1"
        ]
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!(
        (v["reason"].as_str(), v["statutory_size"].as_u64(), v["round"].as_u64()),
        (Some("list_exhausted"), Some(9), Some(5))
    );
    assert_eq!(b.info().statutory_size, 9);
    assert!(matches!(state(&b, CASE), CaseState::Vacant { .. }));
}

#[test]
fn nrw_45_case_commands_for_another_body_or_unsupported_are_refused() {
    let b = nrw();
    let err = refuse(&b, vacancy("other", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    assert!(matches!(err, Rejection::Invalid(_)));
    let err = refuse(&b, vacancy("rat", "L1-03", DepartureReason::Resigned, OPENED), OPENED);
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("holds no seat")), "{err:?}");
    let err = refuse(&b, vacancy("rat", "X-1", DepartureReason::Resigned, OPENED), OPENED);
    assert!(matches!(err, Rejection::Unknown(_)));
    // the same vacancy twice: the member no longer holds the seat
    let b = nrw_open();
    let err = refuse(&b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    assert!(matches!(err, Rejection::Invalid(_)));
}

// ---------------------------------------------------------------------------------------------------------
// Hessen § 34 KWG i. V. m. § 23 KWG

const HCASE: &str = "hrat-1";
const HOPENED: &str = "2025-06-02T10:00:00+02:00";

fn he() -> Council {
    body_from(he_snapshot("proportional"))
}

#[test]
fn he_34_abs_3_satz_2_23_membership_acquired_with_determination() {
    let mut b = he();
    let fx = run(&mut b, vacancy("hrat", "A-02", DepartureReason::Resigned, HOPENED), HOPENED);
    assert_eq!(
        kinds(&fx),
        [
            "publish:membership.changed",
            "publish:succession.determined",
            "publish:membership.changed",
            "mail:he_determination",
            "announce:successor",
            "schedule:hrat-1#objection#1",
        ]
    );
    assert_eq!(nth(&fx, "membership.changed", 0)["change"], "left");
    let det = event(&fx, "succession.determined");
    // most personal votes: A-04 (500) ahead of A-03 (300) who stands higher on the list
    assert_eq!((det["round"].as_u64(), det["successor"]["id"].as_str()), (Some(1), Some("A-04")));
    let m = nth(&fx, "membership.changed", 1);
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("determination")));
    assert_eq!(m["person"]["id"], "A-04");
    assert_eq!(m["voting_right"], true);
    same_instant(&m["effective_at"], HOPENED);
    let mr = mail(&fx);
    assert_eq!((mr.round, mr.candidate.as_str()), (1, "A-04"));
    let a = announcement(&fx);
    assert_eq!(
        (a.template.as_str(), a.legal_basis.as_str()),
        ("he_successor", "§ 34 Abs. 3 Satz 1 KWG i. V. m. § 58 KWO")
    );
    match state(&b, HCASE) {
        CaseState::Filled { successor, since, basis } => {
            assert_eq!((successor.as_str(), *since, *basis), ("A-04", t(HOPENED), MembershipBasis::Determination));
        }
        other => panic!("not filled: {other:?}"),
    }
    assert!(b.candidate("A-04").expect("c").seat.is_some());
    assert!(!b.has_open_case());

    // the mail report closes nothing and sets no period (no acceptance step, no bar)
    let fx = run(&mut b, sent(HCASE, 1, SENT), SENT);
    assert_eq!(kinds(&fx), ["publish:successor.notified"]);
    // [decision] a service report for a successor without a bar is taken without effect
    let fx = run(
        &mut b,
        served("hrat", HCASE, "A-04", ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
    );
    assert!(fx.is_empty(), "{:?}", kinds(&fx));
}

#[test]
fn he_34_abs_3_satz_2_23_membership_not_before_predecessor_departure() {
    let mut b = he();
    let departure = "2025-07-01T00:00:00+02:00";
    let fx = run(&mut b, vacancy("hrat", "A-02", DepartureReason::Resigned, departure), HOPENED);
    let m = nth(&fx, "membership.changed", 1);
    assert_eq!(m["basis"], "determination");
    same_instant(&m["effective_at"], departure);
    assert_eq!(m["membership"]["startDate"], "2025-07-01");
}

#[test]
fn he_23_abs_2_declarations_rejected_no_acceptance_procedure() {
    let mut b = he();
    run(&mut b, vacancy("hrat", "A-02", DepartureReason::Resigned, HOPENED), HOPENED);
    for kind in [DeclarationKind::Accept, DeclarationKind::Refuse, DeclarationKind::AcceptWithReservation] {
        let fx =
            run(&mut b, declare("hrat", HCASE, "A-04", kind, "2025-06-03T10:00:00+02:00"), "2025-06-03T10:00:00+02:00");
        assert_eq!(kinds(&fx), ["publish:declaration.rejected"]);
        let r = event(&fx, "declaration.rejected");
        assert_eq!((r["candidate"].as_str(), r["reason"].as_str()), (Some("A-04"), Some("no_acceptance_procedure")));
    }
    // a refusal does not take the seat away
    assert!(matches!(state(&b, HCASE), CaseState::Filled { .. }));
    assert!(b.candidate("A-04").expect("c").seat.is_some());
}

/// Hessen: A-04 (most votes) barred; determined, joined without voting right, notified and served
/// Tue 3 Jun 2025 → the week ends Tue 10 Jun 2025 24:00.
fn he_barred() -> Council {
    let mut s = he_snapshot("proportional");
    add_fact(&mut s, 0, 3, json!({ "type": "barred", "on": "2024-01-01", "reason": "Beschäftigter der Gemeinde" }));
    let mut b = body_from(s);
    let fx = run(&mut b, vacancy("hrat", "A-02", DepartureReason::Resigned, HOPENED), HOPENED);
    assert_eq!(
        kinds(&fx),
        [
            "publish:membership.changed",
            "publish:succession.determined",
            "publish:membership.changed",
            "mail:he_determination",
            "announce:successor",
            "schedule:hrat-1#objection#1",
        ]
    );
    assert_eq!(event(&fx, "succession.determined")["barred"], true);
    let m = nth(&fx, "membership.changed", 1);
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("determination")));
    assert_eq!(m["voting_right"], false);
    assert_eq!(m["membership"]["votingRight"], false);
    let o = offer(&b, HCASE);
    assert_eq!((o.successor.as_str(), o.barred, o.member_since), ("A-04", true, Some(t(HOPENED))));
    assert!(b.candidate("A-04").expect("c").seat.is_some());
    assert!(b.has_open_case());
    run(&mut b, sent(HCASE, 1, SENT), SENT);
    let fx = run(
        &mut b,
        served("hrat", HCASE, "A-04", ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["schedule:hrat-1#1", "publish:deadline.set", "mail:period_notice"]);
    let ds = event(&fx, "deadline.set");
    assert_eq!((ds["candidate"].as_str(), ds["last_day"].as_str()), (Some("A-04"), Some("2025-06-10")));
    assert!(ds["trail"]
        .as_array()
        .expect("trail")
        .iter()
        .any(|s| s["citation"].as_str().is_some_and(|c| c.contains("HVwVfG") || c.contains("HVwZG"))));
    b
}

#[test]
fn he_23_abs_2_barred_successor_joins_without_voting_right_and_gets_one_week() {
    let b = he_barred();
    assert_eq!(offer(&b, HCASE).deadline.as_ref().map(|d| d.ends_at), Some(t(ENDS)));
}

#[test]
fn he_23_abs_2_bar_cured_in_time_grants_full_rights_from_the_proof() {
    let mut b = he_barred();
    let proof = "2025-06-06T10:00:00+02:00";
    let fx = run(&mut b, cured("hrat", HCASE, "A-04", proof), proof);
    assert_eq!(kinds(&fx), ["publish:declaration.recorded", "cancel:hrat-1#1", "publish:membership.changed"]);
    assert_eq!(event(&fx, "declaration.recorded")["kind"], "bar_cured");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("updated"), Some("bar_cured")));
    assert_eq!(m["voting_right"], true);
    same_instant(&m["effective_at"], proof);
    // the same OParl membership: it began with the determination, the voting right comes with the proof
    assert_eq!(m["membership"]["startDate"], "2025-06-02");
    assert_eq!(m["membership"]["votingRight"], true);
    assert!(m["membership"]["endDate"].is_null());
    match state(&b, HCASE) {
        CaseState::Filled { successor, since, basis } => {
            // a member since the determination; full rights since the proof
            assert_eq!((successor.as_str(), *since, *basis), ("A-04", t(HOPENED), MembershipBasis::BarCured));
        }
        other => panic!("not filled: {other:?}"),
    }
    assert!(!b.has_open_case());
    // the stale timer changes nothing
    assert!(run(&mut b, expired(HCASE, 1), ENDS).is_empty());
}

#[test]
fn he_23_abs_2_satz_3_no_proof_membership_deemed_not_acquired_retroactively_next_round() {
    let mut b = he_barred();
    // a proof after the period is too late
    let fx = run(&mut b, cured("hrat", HCASE, "A-04", "2025-06-11T08:00:00+02:00"), "2025-06-11T08:00:00+02:00");
    assert_eq!(kinds(&fx), ["publish:declaration.rejected"]);
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "after_deadline");

    let fx = run(&mut b, expired(HCASE, 1), "2025-06-11T09:00:00+02:00");
    assert_eq!(
        kinds(&fx),
        [
            "publish:membership.changed",
            "mail:he_not_acquired",
            "announce:not_acquired",
            "schedule:hrat-1#objection#2",
            "publish:succession.determined",
            "publish:membership.changed",
            "mail:he_determination",
            "announce:successor",
            "schedule:hrat-1#objection#3",
        ]
    );
    let left = nth(&fx, "membership.changed", 0);
    assert_eq!((left["change"].as_str(), left["basis"].as_str()), (Some("left"), Some("deemed_not_acquired")));
    assert_eq!(left["person"]["id"], "A-04");
    assert_eq!(left["voting_right"], false);
    // retroactive: effective at the original start
    same_instant(&left["effective_at"], HOPENED);
    assert_eq!(left["membership"]["startDate"], "2025-06-02");
    assert_eq!(left["membership"]["endDate"], "2025-06-02");
    let det = event(&fx, "succession.determined");
    // next by votes: A-05 and A-06 (400 each) → list order: A-05
    assert_eq!((det["round"].as_u64(), det["successor"]["id"].as_str()), (Some(2), Some("A-05")));
    let trail = det["trail"].as_array().expect("trail");
    // passed over as the one whose membership is deemed not acquired, not "ist bereits berufen" (issue 27)
    assert!(trail.iter().any(|s| s["candidate"] == "A-04"
        && s["reason"] == "membership_not_acquired"
        && s["citation"] == "§ 34 Abs. 1 Satz 1, Abs. 3 Satz 2 KWG i. V. m. § 23 Abs. 2 Satz 3 KWG"));
    let joined = nth(&fx, "membership.changed", 1);
    assert_eq!((joined["person"]["id"].as_str(), joined["voting_right"].as_bool()), (Some("A-05"), Some(true)));
    assert!(matches!(state(&b, HCASE), CaseState::Filled { successor, .. } if successor == "A-05"));
    assert!(b.candidate("A-04").expect("c").seat.is_none());
    assert!(has_fact(&b, "A-04", "former_member"));
    assert_eq!(b.cases[HCASE].round, 2);
    // his late proof now changes nothing
    let fx = run(&mut b, cured("hrat", HCASE, "A-04", "2025-06-11T10:00:00+02:00"), "2025-06-11T10:00:00+02:00");
    assert_eq!(kinds(&fx), ["publish:declaration.rejected"]);
}

#[test]
fn he_23_abs_2_satz_3_person_concerned_is_told_by_mail_that_membership_is_deemed_not_acquired_retroactively() {
    let mut b = he_barred();
    let fx = run(&mut b, expired(HCASE, 1), "2025-06-11T09:00:00+02:00");
    let mails: Vec<&procedure::MailRequest> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Mail(m) => Some(m),
            _ => None,
        })
        .collect();
    assert_eq!(mails.len(), 2, "{:?}", kinds(&fx));
    let m = mails[0];
    // the person concerned, in his own round; the kind keeps its Message-ID apart from round 1's notification
    assert_eq!((m.kind, m.round, m.candidate.as_str()), (MailKind::NotAcquired, 1, "A-04"));
    assert_eq!(m.template, "he_not_acquired");
    assert_eq!(m.to.as_deref(), Some("a-04@example.org"));
    assert!(m.subject.contains("rückwirkend nicht erworben"), "{}", m.subject);
    assert!(m.subject.contains("§ 23 Abs. 2 Satz 3 KWG"), "{}", m.subject);
    assert_eq!(m.context["not_acquired"]["member_since"], "02.06.2025");
    assert_eq!(m.context["not_acquired"]["last_day"], "10.06.2025");
    assert_eq!(m.context["round"], 1);
    // the next successor's notification is the next round's mail of the ordinary kind
    assert_eq!((mails[1].kind, mails[1].round, mails[1].candidate.as_str()), (MailKind::Determination, 2, "A-05"));
    // the sender's report of the not-acquired mail concerns a past round: it changes nothing
    let fx = run(&mut b, sent(HCASE, 1, "2025-06-11T09:05:00+02:00"), "2025-06-11T09:05:00+02:00");
    assert!(fx.is_empty(), "{:?}", kinds(&fx));
}

#[test]
fn he_34_abs_1_satz_1_barred_successor_leaving_before_proof_is_a_new_trigger_not_two_successors() {
    let mut b = he_barred();
    let left = "2025-06-05T10:00:00+02:00";
    let fx = run(&mut b, vacancy("hrat", "A-04", DepartureReason::Resigned, left), left);
    assert_eq!(
        kinds(&fx),
        [
            "cancel:hrat-1#1",
            "publish:membership.changed",
            "publish:succession.determined",
            "publish:membership.changed",
            "mail:he_determination",
            "announce:successor",
            "schedule:hrat-2#objection#1",
        ]
    );
    let det = event(&fx, "succession.determined");
    assert_eq!((det["case"].as_str(), det["successor"]["id"].as_str()), (Some("hrat-2"), Some("A-05")));
    match state(&b, HCASE) {
        CaseState::Filled { successor, since, basis } => {
            assert_eq!((successor.as_str(), *since, *basis), ("A-04", t(HOPENED), MembershipBasis::Determination));
        }
        other => panic!("first case not closed: {other:?}"),
    }
    // the end of his period determines no second successor
    assert!(run(&mut b, expired(HCASE, 1), ENDS).is_empty());
    assert_eq!(b.cases.values().filter(|c| !c.is_closed()).count(), 0);
}

#[test]
fn he_33_abs_1_nr_4_merger_member_leaves_no_succession_no_announcement() {
    let mut b = he();
    let fx = run(&mut b, vacancy("hrat", "A-02", DepartureReason::Merger, HOPENED), HOPENED);
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:seat.left_vacant"]);
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("merger"), Some(10)));
    assert_eq!(
        v["trail"],
        json!([{"verdict": "noted", "reason": "merger_no_succession", "citation": "§ 33 Abs. 1 Nr. 4 Halbsatz 2 KWG"}])
    );
    assert_eq!(b.info().statutory_size, 10);
    assert!(!b.has_open_case());
    assert!(b.cases[HCASE].history.announcements.is_empty());
    // no § 34 determination, nothing to review
    let review = Command::Inbound(Inbound::ReviewDecided(ReviewDecided {
        body: "hrat".into(),
        case: HCASE.into(),
        outcome: ReviewOutcome::Annulled,
        successor: None,
        decided_at: tz("2025-06-20T10:00:00+02:00"),
        decided_by: Some("council".into()),
        is_final: true,
        final_on: Some(d("2025-06-20")),
    }));
    let err = refuse(&b, review, "2025-06-20T10:00:00+02:00");
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("§ 33 Abs. 1 Nr. 4 KWG")), "{err:?}");
    // a party ban is no Hessen reason
    let err = refuse(&he(), banned("hrat", "A-02", true, HOPENED), HOPENED);
    assert!(matches!(&err, Rejection::Invalid(m) if m.starts_with("reason:")), "{err:?}");
}

#[test]
fn he_34_abs_1a_majority_tie_requests_lot_and_records_winner() {
    let mut s = he_snapshot("majority");
    // A-04 waived in writing: A-05 and A-06 tie with 400 votes
    add_fact(&mut s, 0, 3, json!({ "type": "waived", "on": "2024-01-01", "form": "written" }));
    let mut b = body_from(s);
    let fx = run(&mut b, vacancy("hrat", "A-02", DepartureReason::Died, HOPENED), HOPENED);
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:lot.requested"]);
    let lr = event(&fx, "lot.requested");
    assert_eq!(lr["tied"], json!(["A-05", "A-06"]));
    assert_eq!(lr["case"], HCASE);
    assert!(lr["trail"]
        .as_array()
        .expect("trail")
        .iter()
        .any(|s| s["verdict"] == "tied" && s["citation"] == "§ 34 Abs. 1a KWG"));
    assert!(matches!(state(&b, HCASE), CaseState::AwaitingLot { tied } if tied == &["A-05", "A-06"]));
    assert!(b.has_open_case());

    // a winner who is not tied is refused
    let lot = |winner: &str| {
        Command::Inbound(Inbound::LotDrawn(LotDrawn {
            body: "hrat".into(),
            case: HCASE.into(),
            winner: winner.into(),
            drawn_at: tz("2025-06-03T10:00:00+02:00"),
            drawn_by: "Wahlleiter".into(),
        }))
    };
    let err = refuse(&b, lot("A-03"), "2025-06-03T10:00:00+02:00");
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("not one of the tied")), "{err:?}");
    // the lot names who drew it
    let anonymous = Command::Inbound(Inbound::LotDrawn(LotDrawn {
        body: "hrat".into(),
        case: HCASE.into(),
        winner: "A-06".into(),
        drawn_at: tz("2025-06-03T10:00:00+02:00"),
        drawn_by: " ".into(),
    }));
    let err = refuse(&b, anonymous, "2025-06-03T10:00:00+02:00");
    assert!(matches!(&err, Rejection::Invalid(m) if m.starts_with("drawn_by:")), "{err:?}");

    let now = "2025-06-03T10:05:00+02:00";
    let fx = run(&mut b, lot("A-06"), now);
    assert_eq!(
        kinds(&fx),
        [
            "publish:succession.determined",
            "publish:membership.changed",
            "mail:he_determination",
            "announce:successor",
            "schedule:hrat-1#objection#1"
        ]
    );
    let det = event(&fx, "succession.determined");
    assert_eq!((det["round"].as_u64(), det["successor"]["id"].as_str()), (Some(1), Some("A-06")));
    let trail = det["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["candidate"] == "A-06" && s["verdict"] == "chosen" && s["reason"] == "won_lot"));
    assert!(trail.iter().any(|s| s["candidate"] == "A-05" && s["reason"] == "lost_lot"));
    // who drew the lot and when: in the trail, right after the winner, and in the announcement and e-mail
    let won = trail.iter().position(|s| s["reason"] == "won_lot").expect("won_lot");
    assert_eq!(
        trail[won + 1],
        json!({"candidate": "A-06", "verdict": "noted", "reason": "lot_drawn", "citation": "§ 34 Abs. 1a KWG",
               "detail": "drawn by Wahlleiter at 2025-06-03T10:00:00+02:00"})
    );
    let lot_facts = json!({"drawn_by": "Wahlleiter", "drawn_date": "03.06.2025", "drawn_time": "10:00"});
    assert_eq!(announcement(&fx).context["lot"], lot_facts);
    assert_eq!(mail(&fx).context["lot"], lot_facts);
    assert_eq!(b.cases[HCASE].history.lots.len(), 1);
    same_instant(&event(&fx, "membership.changed")["effective_at"], now);
    assert!(matches!(state(&b, HCASE), CaseState::Filled { successor, .. } if successor == "A-06"));
    // a second lot for a case that no longer waits is refused
    let err = refuse(&b, lot("A-05"), now);
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("not waiting for a lot")), "{err:?}");
}

// ---------------------------------------------------------------------------------------------------------
// Facts about the pending successor are never stored silently (§ 45 Abs. 2 Satz 2, Abs. 3 KWahlG NRW;
// § 34 Abs. 2, § 33 KWG)

#[test]
fn nrw_45_abs_3_satz_1_pending_successor_who_left_the_party_or_waived_in_form_is_passed_over_at_once() {
    let mut b = nrw_served();
    let fx = run(&mut b, fact("rat", "L1-03", Fact::LeftParty { on: d("2025-06-04") }), "2025-06-05T15:00:00+02:00");
    assert_eq!(kinds(&fx), ["cancel:rat-1#1", "publish:succession.determined", "mail:nrw_offer"]);
    let det = event(&fx, "succession.determined");
    assert_eq!((det["round"].as_u64(), det["successor"]["id"].as_str()), (Some(2), Some("L1-04")));
    assert!(det["trail"]
        .as_array()
        .expect("trail")
        .iter()
        .any(|s| s["candidate"] == "L1-03" && s["verdict"] == "skipped"));
    // a waiver zur Niederschrift (§ 38) acts the same way
    let mut b = nrw_served();
    let waiver = Fact::Waived { on: d("2025-06-04"), form: WaiverForm::Recorded };
    let fx = run(&mut b, fact("rat", "L1-03", waiver), "2025-06-05T15:00:00+02:00");
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "L1-04");
    // a written waiver is not in the form of § 38: refused, naming what to do instead — nothing is stored
    let b = nrw_served();
    let err = refuse(
        &b,
        fact("rat", "L1-03", Fact::Waived { on: d("2025-06-04"), form: WaiverForm::Written }),
        "2025-06-05T15:00:00+02:00",
    );
    assert!(
        matches!(&err, Rejection::Invalid(m) if m.contains("does not pass him over") && m.contains("declaration.received")),
        "{err:?}"
    );
}

#[test]
fn nrw_45_abs_2_satz_2_past_ineligibility_of_pending_successor_in_this_term_passes_him_over() {
    // not continuously eligible during the term (moved away in 2024 and back): passed over at once
    let mut b = nrw_served();
    let gap = Fact::Ineligible { from: d("2024-02-01"), until: Some(d("2024-05-31")) };
    let fx = run(&mut b, fact("rat", "L1-03", gap), "2025-06-05T15:00:00+02:00");
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "L1-04");
    // an ineligibility that begins only later does not pass him over now: refused, not stored
    let b = nrw_served();
    let later = Fact::Ineligible { from: d("2025-09-01"), until: None };
    let err = refuse(&b, fact("rat", "L1-03", later), "2025-06-05T15:00:00+02:00");
    assert!(matches!(err, Rejection::Invalid(_)), "{err:?}");
    assert!(!has_fact(&b, "L1-03", "ineligible"));
}

#[test]
fn nrw_45_abs_6_satz_6_refusal_bar_proof_or_bar_as_fact_of_pending_successor_is_refused_naming_the_command() {
    let b = nrw_served();
    let cases = [
        (Fact::Declined { on: d("2025-06-04"), of: Declination::Succession }, "declaration.received"),
        (Fact::BarCured { on: d("2025-06-04") }, "bar.cured"),
        (Fact::Barred { on: d("2025-06-04"), reason: "Beschäftigter der Stadt".into() }, "review.decided"),
    ];
    for (f, command) in cases {
        let err = refuse(&b, fact("rat", "L1-03", f), "2025-06-05T15:00:00+02:00");
        assert!(matches!(&err, Rejection::Invalid(m) if m.contains(command)), "{err:?}");
    }
    // about anyone else, facts are stored as before
    let mut b = nrw_served();
    assert!(run(
        &mut b,
        fact("rat", "L1-05", Fact::Declined { on: d("2025-06-04"), of: Declination::Succession }),
        "2025-06-05T15:00:00+02:00"
    )
    .is_empty());
    assert!(has_fact(&b, "L1-05", "declined"));
}

#[test]
fn he_33_abs_1_pending_successor_already_a_member_ineligible_or_dead_is_a_new_vacancy() {
    let b = he_barred();
    for f in [
        Fact::Ineligible { from: d("2025-06-04"), until: None },
        Fact::Died { on: d("2025-06-04") },
        Fact::Waived { on: d("2025-06-04"), form: WaiverForm::Written },
        Fact::Declined { on: d("2025-06-04"), of: Declination::Succession },
    ] {
        let err = refuse(&b, fact("hrat", "A-04", f), "2025-06-05T15:00:00+02:00");
        assert!(matches!(&err, Rejection::Invalid(m) if m.contains("vacancy.reported")), "{err:?}");
    }
}

#[test]
fn he_34_abs_2_nr_1_proposed_successor_who_left_the_party_is_passed_over_before_the_confirmation() {
    let mut b = confirming(he_snapshot("proportional"));
    run(&mut b, vacancy("hrat", "A-02", DepartureReason::Resigned, HOPENED), HOPENED);
    let fx = run(&mut b, fact("hrat", "A-04", Fact::LeftParty { on: d("2025-06-02") }), "2025-06-03T09:00:00+02:00");
    assert_eq!(kinds(&fx), ["cancel:hrat-1#1", "publish:succession.proposed"]);
    let p = event(&fx, "succession.proposed");
    assert_eq!((p["round"].as_u64(), p["successor"]["id"].as_str()), (Some(2), Some("A-05")));
}

// ---------------------------------------------------------------------------------------------------------
// A declaration that arrived in time always wins (§ 45 Abs. 6 Satz 3–6 KWahlG NRW)

/// NRW: served Tue 3 Jun 2025, nobody entered anything in time, the timer fired: deemed accepted at ENDS.
fn nrw_deemed() -> Council {
    let mut b = nrw_served();
    let fx = run(&mut b, expired(CASE, 1), "2025-06-11T08:00:00+02:00");
    assert_eq!(event(&fx, "membership.changed")["basis"], "deemed_acceptance");
    assert_eq!(b.cases[CASE].history.deemed.len(), 1);
    b
}

#[test]
fn nrw_45_abs_6_satz_3_timely_acceptance_entered_after_deemed_acceptance_corrects_the_start() {
    let mut b = nrw_deemed();
    // the acceptance reached the Wahlleitung on Fri 6 Jun; it is entered on Wed 11 Jun
    let at = "2025-06-06T10:00:00+02:00";
    let fx = run(&mut b, declare("rat", CASE, "L1-03", DeclarationKind::Accept, at), "2025-06-11T09:00:00+02:00");
    assert_eq!(
        kinds(&fx),
        [
            "publish:declaration.recorded",
            "publish:membership.changed",
            "publish:membership.changed",
            "announce:correction",
            "schedule:rat-1#objection#2",
        ]
    );
    let void = nth(&fx, "membership.changed", 0);
    assert_eq!((void["change"].as_str(), void["basis"].as_str()), (Some("left"), Some("correction")));
    assert_eq!(
        (void["membership"]["startDate"].as_str(), void["membership"]["endDate"].as_str()),
        (Some("2025-06-11"), Some("2025-06-11"))
    );
    let joined = nth(&fx, "membership.changed", 1);
    assert_eq!((joined["change"].as_str(), joined["basis"].as_str()), (Some("joined"), Some("correction")));
    same_instant(&joined["effective_at"], at);
    assert_eq!(joined["membership"]["startDate"], "2025-06-06");
    let a = announcement(&fx);
    assert_eq!((a.kind.as_str(), a.template.as_str()), ("correction", "nrw_correction"));
    assert_eq!(a.context["correction"]["member_since"], "06.06.2025");
    match state(&b, CASE) {
        CaseState::Filled { since, basis, .. } => assert_eq!((*since, *basis), (t(at), MembershipBasis::Acceptance)),
        other => panic!("not filled: {other:?}"),
    }
    assert_eq!(b.candidate("L1-03").and_then(|c| c.seat.clone()).map(|s| s.since), Some(d("2025-06-06")));
    // entered twice: corrected once
    let fx = run(&mut b, declare("rat", CASE, "L1-03", DeclarationKind::Accept, at), "2025-06-11T09:30:00+02:00");
    assert_eq!(kinds(&fx), ["publish:declaration.rejected"]);
}

#[test]
fn nrw_45_abs_6_satz_6_timely_refusal_entered_after_deemed_acceptance_voids_it_and_next_round_follows() {
    let mut b = nrw_deemed();
    let at = "2025-06-10T16:00:00+02:00";
    let fx = run(&mut b, declare("rat", CASE, "L1-03", DeclarationKind::Refuse, at), "2025-06-11T09:00:00+02:00");
    assert_eq!(
        kinds(&fx),
        [
            "publish:declaration.recorded",
            "publish:membership.changed",
            "cancel:rat-1#objection#1",
            "announce:correction",
            "schedule:rat-1#objection#2",
            "publish:succession.determined",
            "mail:nrw_offer",
        ]
    );
    let void = event(&fx, "membership.changed");
    assert_eq!(
        (void["change"].as_str(), void["basis"].as_str(), void["person"]["id"].as_str()),
        (Some("left"), Some("correction"), Some("L1-03"))
    );
    let det = event(&fx, "succession.determined");
    assert_eq!((det["round"].as_u64(), det["successor"]["id"].as_str()), (Some(2), Some("L1-04")));
    assert!(b.candidate("L1-03").expect("c").seat.is_none());
    assert!(has_fact(&b, "L1-03", "declined"));
    assert_eq!(b.cases[CASE].refused, ["L1-03"]);
    assert_eq!(announcement(&fx).context["correction"]["accepted"], false);
    // a refusal received after the end of the period stays late
    let mut b = nrw_deemed();
    let fx = run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Refuse, "2025-06-11T07:00:00+02:00"),
        "2025-06-11T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["publish:declaration.rejected"]);
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "case_closed");
}

#[test]
fn kwahlo_nrw_69_abs_2_62_nr_5_timely_proof_entered_after_deemed_refusal_and_next_round_requires_review() {
    let mut b = nrw_barred();
    run(&mut b, expired(CASE, 1), "2025-06-11T08:00:00+02:00");
    assert_eq!(offer(&b, CASE).successor, "L1-04");
    // his employer's certificate reached the Wahlleitung on Mon 9 Jun
    let fx = run(&mut b, cured("rat", CASE, "L1-03", "2025-06-09T10:00:00+02:00"), "2025-06-11T09:00:00+02:00");
    assert_eq!(kinds(&fx), ["publish:case.review_required"]);
    let r = event(&fx, "case.review_required");
    assert_eq!(r["reason"], "timely_declaration_after_later_round");
    assert_eq!(r["rounds"], json!([1, 2]));
    assert_eq!((r["candidate"].as_str(), r["kind"].as_str()), (Some("L1-03"), Some("bar_cured")));
    // no membership changed by itself
    assert_eq!(offer(&b, CASE).successor, "L1-04");
    assert!(b.candidate("L1-03").expect("c").seat.is_none());
}

#[test]
fn he_23_abs_2_satz_3_timely_proof_entered_after_deemed_non_acquisition_requires_review() {
    let mut b = he_barred();
    run(&mut b, expired(HCASE, 1), "2025-06-11T09:00:00+02:00");
    let fx = run(&mut b, cured("hrat", HCASE, "A-04", "2025-06-10T12:00:00+02:00"), "2025-06-11T10:00:00+02:00");
    assert_eq!(kinds(&fx), ["publish:case.review_required"]);
    assert_eq!(event(&fx, "case.review_required")["rounds"], json!([1, 2]));
    assert!(matches!(state(&b, HCASE), CaseState::Filled { successor, .. } if successor == "A-05"));
}

// ---------------------------------------------------------------------------------------------------------
// Declarations while no service date is known (§ 45 Abs. 6 Satz 2–4 KWahlG NRW)

#[test]
fn nrw_45_abs_6_satz_2_declaration_within_the_week_from_sending_takes_effect_without_service_date() {
    // sent Mon 2 Jun; whatever the service date, the week ends no earlier than Tue 10 Jun 24:00 (Pfingstmontag)
    let mut b = nrw_notified();
    let at = "2025-06-10T20:00:00+02:00";
    let fx = run(&mut b, declare("rat", CASE, "L1-03", DeclarationKind::Refuse, at), at);
    assert!(kinds(&fx).contains(&"publish:succession.determined".to_owned()), "{:?}", kinds(&fx));
}

#[test]
fn nrw_45_abs_6_satz_2_later_declaration_is_held_until_the_service_date_is_known() {
    let mut b = nrw_notified();
    let at = "2025-06-12T10:00:00+02:00";
    let fx = run(&mut b, declare("rat", CASE, "L1-03", DeclarationKind::Refuse, at), at);
    assert_eq!(kinds(&fx), ["publish:declaration.held"]);
    let h = event(&fx, "declaration.held");
    assert_eq!(
        (h["candidate"].as_str(), h["round"].as_u64(), h["kind"].as_str(), h["reason"].as_str()),
        (Some("L1-03"), Some(1), Some("refuse"), Some("service_date_unknown"))
    );
    same_instant(&h["received_at"], at);
    assert_eq!(offer(&b, CASE).held.len(), 1);
    // served Fri 6 Jun → the week ends Fri 13 Jun 24:00: the refusal was in time, dated at its receipt
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-06"),
        "2025-06-13T09:00:00+02:00",
    );
    assert_eq!(
        kinds(&fx),
        [
            "schedule:rat-1#1",
            "publish:deadline.set",
            "publish:declaration.recorded",
            "cancel:rat-1#1",
            "publish:succession.determined",
            "mail:nrw_offer"
        ]
    );
    same_instant(&event(&fx, "declaration.recorded")["received_at"], at);
    assert_eq!(offer(&b, CASE).successor, "L1-04");
}

#[test]
fn nrw_45_abs_6_satz_4_held_declaration_too_late_is_rejected_and_deemed_acceptance_applies_at_once() {
    let mut b = nrw_notified();
    let at = "2025-06-12T10:00:00+02:00";
    run(&mut b, declare("rat", CASE, "L1-03", DeclarationKind::Refuse, at), at);
    // served Mon 2 Jun (the sending day) → the week ended Tue 10 Jun 24:00: the refusal was late
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-02"),
        "2025-06-13T09:00:00+02:00",
    );
    assert_eq!(
        kinds(&fx),
        [
            "schedule:rat-1#1",
            "publish:deadline.set",
            "publish:declaration.rejected",
            "cancel:rat-1#1",
            "publish:membership.changed",
            "announce:successor",
            "schedule:rat-1#objection#1"
        ]
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "after_deadline");
    let m = event(&fx, "membership.changed");
    assert_eq!(m["basis"], "deemed_acceptance");
    same_instant(&m["effective_at"], ENDS);
    assert!(matches!(state(&b, CASE), CaseState::Filled { basis: MembershipBasis::DeemedAcceptance, .. }));
}

// ---------------------------------------------------------------------------------------------------------
// The returning officer determines (§ 45 Abs. 6 Satz 1 KWahlG NRW, § 34 Abs. 3 Satz 1 KWG; § 35a VwVfG)

fn confirm(body: &str, case: &str, round: u32, at: &str) -> Command {
    Command::Inbound(Inbound::DeterminationConfirmed(DeterminationConfirmed {
        body: body.into(),
        case: case.into(),
        round,
        confirmed_by: "Wahlleiterin Muster".into(),
        confirmed_at: tz(at),
    }))
}

fn confirming(mut snapshot: Value) -> Council {
    snapshot["body"]["determination"] = json!("confirm");
    body_from(snapshot)
}

#[test]
fn nrw_45_abs_6_satz_1_confirm_mode_the_wahlleiter_determines_on_the_proposal() {
    let mut b = confirming(nrw_snapshot());
    let fx = run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    // the proposal: no determination, no mail, no period
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:succession.proposed"]);
    let p = event(&fx, "succession.proposed");
    assert_eq!((p["round"].as_u64(), p["successor"]["id"].as_str()), (Some(1), Some("L1-03")));
    assert!(p.get("determined_at").is_none());
    assert!(p["trail"].as_array().expect("trail").iter().any(|s| s["verdict"] == "chosen"));
    assert!(matches!(state(&b, CASE), CaseState::Proposed(p) if p.successor == "L1-03"));
    assert_eq!(b.cases[CASE].state_name(), "proposed");
    assert!(b.has_open_case());
    // he cannot declare before he is determined and notified
    let fx = run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Accept, "2025-06-02T11:00:00+02:00"),
        "2025-06-02T11:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "before_notification");
    // the proposed successor is called for a second vacancy meanwhile: he is not offered twice
    let fx = run(&mut b, vacancy("rat", "L1-01", DepartureReason::Died, OPENED), "2025-06-02T10:30:00+02:00");
    assert_eq!(event(&fx, "succession.proposed")["successor"]["id"], "L1-04");

    // the confirmation determines, dated when the Wahlleiterin confirmed
    let at = "2025-06-03T09:00:00+02:00";
    let fx = run(&mut b, confirm("rat", CASE, 1, at), "2025-06-03T09:05:00+02:00");
    assert_eq!(kinds(&fx), ["publish:succession.determined", "mail:nrw_offer"]);
    let det = event(&fx, "succession.determined");
    assert_eq!((det["round"].as_u64(), det["successor"]["id"].as_str()), (Some(1), Some("L1-03")));
    same_instant(&det["determined_at"], at);
    assert_eq!(det["confirmed_by"], "Wahlleiterin Muster");
    assert_eq!(offer(&b, CASE).determined_at, t(at));
    // a second confirmation of the same round, or one for another round, is recorded and answered
    let fx = run(&mut b, confirm("rat", CASE, 1, at), "2025-06-03T09:10:00+02:00");
    assert_eq!(kinds(&fx), ["publish:confirmation.rejected"]);
    assert_eq!(event(&fx, "confirmation.rejected")["reason"], "not_proposed");
    // the acceptance procedure follows: a refusal makes the next round a proposal again
    run(&mut b, sent(CASE, 1, "2025-06-03T09:10:00+02:00"), "2025-06-03T09:10:00+02:00");
    let fx = run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Refuse, "2025-06-04T10:00:00+02:00"),
        "2025-06-04T10:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["publish:declaration.recorded", "cancel:rat-1#1", "publish:succession.proposed"]);
    assert_eq!(event(&fx, "succession.proposed")["successor"]["id"], "L1-05");
    // a confirmation of the stale round 1 is rejected like a stale declaration
    let fx = run(&mut b, confirm("rat", CASE, 1, "2025-06-04T11:00:00+02:00"), "2025-06-04T11:00:00+02:00");
    assert_eq!(kinds(&fx), ["publish:confirmation.rejected"]);
    let r = event(&fx, "confirmation.rejected");
    assert_eq!((r["round"].as_u64(), r["reason"].as_str()), (Some(1), Some("stale_round")));
    assert!(matches!(state(&b, CASE), CaseState::Proposed(p) if p.successor == "L1-05"));
}

#[test]
fn nrw_45_abs_6_satz_1_confirmation_in_the_future_before_the_proposal_or_unsigned_is_invalid() {
    let mut b = confirming(nrw_snapshot());
    run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    let err = refuse(&b, confirm("rat", CASE, 1, "2025-06-04T09:00:00+02:00"), "2025-06-03T09:00:00+02:00");
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("future")), "{err:?}");
    let err = refuse(&b, confirm("rat", CASE, 1, "2025-06-02T09:00:00+02:00"), "2025-06-03T09:00:00+02:00");
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("before the proposal")), "{err:?}");
    let mut unsigned = confirm("rat", CASE, 1, "2025-06-03T09:00:00+02:00");
    if let Command::Inbound(Inbound::DeterminationConfirmed(c)) = &mut unsigned {
        c.confirmed_by = " ".into();
    }
    let err = refuse(&b, unsigned, "2025-06-03T09:00:00+02:00");
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("confirmed_by")), "{err:?}");
    let err = refuse(&b, confirm("rat", "rat-9", 1, "2025-06-03T09:00:00+02:00"), "2025-06-03T09:00:00+02:00");
    assert!(matches!(err, Rejection::Unknown(_)), "{err:?}");
    // automatic bodies have no proposal to confirm
    let mut b = nrw_open();
    let fx = run(&mut b, confirm("rat", CASE, 1, "2025-06-03T09:00:00+02:00"), "2025-06-03T09:00:00+02:00");
    assert_eq!(event(&fx, "confirmation.rejected")["reason"], "not_proposed");
}

#[test]
fn he_34_abs_3_satz_1_confirm_mode_membership_begins_with_the_confirmed_determination() {
    let mut b = confirming(he_snapshot("proportional"));
    let fx = run(&mut b, vacancy("hrat", "A-02", DepartureReason::Resigned, HOPENED), HOPENED);
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:succession.proposed"]);
    assert!(b.candidate("A-04").expect("c").seat.is_none(), "no membership with a proposal");
    let at = "2025-06-04T08:00:00+02:00";
    let fx = run(&mut b, confirm("hrat", HCASE, 1, at), "2025-06-04T08:30:00+02:00");
    assert_eq!(
        kinds(&fx),
        [
            "publish:succession.determined",
            "publish:membership.changed",
            "mail:he_determination",
            "announce:successor",
            "schedule:hrat-1#objection#1",
        ]
    );
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("determination")));
    same_instant(&m["effective_at"], at);
    assert!(matches!(state(&b, HCASE), CaseState::Filled { since, .. } if *since == t(at)));
}

// ---------------------------------------------------------------------------------------------------------
// Registration

#[test]
fn contract_election_registered_replacing_body_with_open_case_is_refused() {
    let b = nrw_open();
    let snap: Snapshot = serde_json::from_value(nrw_snapshot()).expect("snapshot");
    let err = procedure::register(Some(&b), snap).expect_err("open case");
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("open succession case")), "{err:?}");
}

#[test]
fn contract_election_registered_replacing_body_keeps_case_history() {
    let mut b = nrw_open();
    run(&mut b, sent(CASE, 1, SENT), SENT);
    run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Accept, "2025-06-03T10:00:00+02:00"),
        "2025-06-03T10:00:00+02:00",
    );
    assert!(!b.has_open_case());
    let mut s = nrw_snapshot();
    s["body"]["statutory_size"] = json!(12);
    let snap: Snapshot = serde_json::from_value(s).expect("snapshot");
    let (mut nb, fx) = procedure::register(Some(&b), snap).expect("replace");
    assert_eq!(kinds(&fx), ["publish:body.registered"]);
    let r = event(&fx, "body.registered");
    assert_eq!(
        (r["lists"].as_u64(), r["candidates"].as_u64(), r["statutory_size"].as_u64()),
        (Some(2), Some(7), Some(12))
    );
    assert_eq!(nb.cases, b.cases);
    assert_eq!(nb.case_seq, 1);
    // a new vacancy gets a fresh case id
    let fx = run(&mut nb, vacancy("rat", "L1-01", DepartureReason::Resigned, OPENED), "2025-06-05T10:00:00+02:00");
    assert_eq!(event(&fx, "succession.determined")["case"], "rat-2");
    // an invalid snapshot is refused, naming the field
    let mut s = nrw_snapshot();
    s["body"]["statutory_size"] = json!(0);
    let snap: Snapshot = serde_json::from_value(s).expect("snapshot");
    let err = procedure::register(None, snap).expect_err("invalid");
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("body.statutory_size")), "{err:?}");
}

#[test]
fn nrw_45_abs_6_satz_2_refusal_received_in_time_but_entered_during_the_grace_period_counts() {
    // the deadline timer is due `deadline_grace` after the end of the period
    let grace = Settings { deadline_grace: chrono::Duration::hours(24), ..Settings::default() };
    let mut b = nrw_notified();
    let fx = run_with(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
        &grace,
    );
    let (_, due, _) = schedule(&fx);
    assert_eq!(due, t(ENDS) + chrono::Duration::hours(24));
    // the letter reached the Wahlleitung on the last day and is entered the next morning
    let fx = run_with(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Refuse, "2025-06-10T16:00:00+02:00"),
        "2025-06-11T09:00:00+02:00",
        &grace,
    );
    assert!(kinds(&fx).contains(&"publish:succession.determined".to_owned()), "{:?}", kinds(&fx));
    assert_eq!(b.cases[CASE].round, 2);
    // a declaration received after the end of the period is still late
    let mut b = nrw_notified();
    run_with(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
        &grace,
    );
    let fx = run_with(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Refuse, "2025-06-11T08:00:00+02:00"),
        "2025-06-11T09:00:00+02:00",
        &grace,
    );
    assert_eq!(kinds(&fx), ["publish:declaration.rejected"]);
}

// =========================================================================================================
// Rheinland-Pfalz — § 45 KWG with § 44 KWG, §§ 64, 66 KWO: the declaration model

const RP: &str = "beispielhausen-rat";
const RP_CASE: &str = "beispielhausen-rat-1";

fn rp_snapshot() -> Value {
    let path = format!("{}/examples/rp-election.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

/// R1-02 resigned on 1 Oct 2027; R1-04 is determined (most votes, tie with R1-05 by the order of nomination).
fn rp_open(snapshot: Value) -> (Council, Vec<Effect>) {
    let mut b = body_from(snapshot);
    let fx = run(
        &mut b,
        vacancy(RP, "R1-02", DepartureReason::Resigned, "2027-10-01T00:00:00+02:00"),
        "2027-10-20T09:00:00+02:00",
    );
    run(&mut b, sent(RP_CASE, 1, "2027-10-20T09:00:00+02:00"), "2027-10-20T09:00:00+02:00");
    (b, fx)
}

#[test]
fn rp_45_abs_5_kwg_determination_mails_the_declaration_request_without_membership() {
    let (b, fx) = rp_open(rp_snapshot());
    let det = event(&fx, "succession.determined");
    assert_eq!(det["successor"]["id"], "R1-04");
    assert_eq!(mail(&fx).template, "rp_offer");
    assert!(!kinds(&fx).iter().any(|k| k.contains("membership.changed") && k.contains("joined")));
    assert!(matches!(state(&b, RP_CASE), CaseState::Offered(_)));
}

#[test]
fn rp_193_bgb_period_ending_on_allerheiligen_ends_next_working_day_even_with_a_fixed_end_date() {
    let (mut b, _) = rp_open(rp_snapshot());
    // served Mon 25 Oct 2027 → the week ends Mon 1 Nov 2027, Allerheiligen (§ 2 Abs. 1 Nr. 9 LFtG) → Tue 2 Nov;
    // § 31 Abs. 3 VwVfG does not apply to the KWG (§ 1 Abs. 3 Nr. 6 LVwVfG), so no fixed end date either
    let settings = Settings { fixed_end_date: true, ..Settings::default() };
    let fx = run_with(
        &mut b,
        served(RP, RP_CASE, "R1-04", ServiceMethod::Acknowledgement, "2027-10-25"),
        "2027-10-25T18:00:00+02:00",
        &settings,
    );
    let ds = event(&fx, "deadline.set");
    assert_eq!(ds["last_day"], "2027-11-02");
    assert!(ds["trail"]
        .as_array()
        .expect("trail")
        .iter()
        .any(|s| s["reason"] == "extended_public_holiday:Allerheiligen" && s["citation"] == "§ 193 BGB"));
    assert!(ds["trail"]
        .as_array()
        .expect("trail")
        .iter()
        .any(|s| s["citation"] == "§ 3 VwZG i. V. m. § 1 Abs. 1 LVwZG"
            || s["citation"] == "§ 5 VwZG i. V. m. § 1 Abs. 1 LVwZG"));
}

#[test]
fn rp_44_abs_2_kwg_silence_deemed_acceptance_at_the_end_of_the_week() {
    let (mut b, _) = rp_open(rp_snapshot());
    run(&mut b, served(RP, RP_CASE, "R1-04", ServiceMethod::Certificate, "2027-10-20"), "2027-10-20T10:00:00+02:00");
    // served Wed 20 Oct → ends Wed 27 Oct 24:00
    let fx = run(&mut b, expired(RP_CASE, 1), "2027-10-28T00:00:01+02:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("deemed_acceptance")));
    same_instant(&m["effective_at"], "2027-10-28T00:00:00+02:00");
    assert_eq!(announcement(&fx).legal_basis, "§ 66 Abs. 3 KWO");
    assert_eq!(announcement(&fx).template, "rp_successor");
}

#[test]
fn rp_64_abs_1_kwo_reservation_is_refusal_next_ersatzperson_refusal_irrevocable() {
    let (mut b, _) = rp_open(rp_snapshot());
    let fx = run(
        &mut b,
        declare(RP, RP_CASE, "R1-04", DeclarationKind::AcceptWithReservation, "2027-10-21T10:00:00+02:00"),
        "2027-10-21T10:00:00+02:00",
    );
    // the next round: R1-05 (equal votes, behind R1-04 in the order of nomination); R1-04 called and refused
    let det = event(&fx, "succession.determined");
    assert_eq!((det["successor"]["id"].as_str(), det["round"].as_u64()), (Some("R1-05"), Some(2)));
    assert_eq!(det["trail"][0]["citation"], "§ 45 Abs. 1 KWG");
    assert!(has_fact(&b, "R1-04", "declined"));
    let fx = run(
        &mut b,
        declare(RP, RP_CASE, "R1-04", DeclarationKind::Accept, "2027-10-21T11:00:00+02:00"),
        "2027-10-21T11:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "refusal_irrevocable");
}

#[test]
fn rp_64_abs_2_kwo_barred_ersatzperson_without_proof_deemed_refusal() {
    let mut s = rp_snapshot();
    add_fact(&mut s, 0, 3, json!({"type": "barred", "on": "2025-01-01", "reason": "Beschäftigter der Stadt"}));
    let (mut b, fx) = rp_open(s);
    assert_eq!(event(&fx, "succession.determined")["barred"], true);
    run(&mut b, served(RP, RP_CASE, "R1-04", ServiceMethod::Certificate, "2027-10-20"), "2027-10-20T10:00:00+02:00");
    // he accepts, but brings no proof within the week
    run(
        &mut b,
        declare(RP, RP_CASE, "R1-04", DeclarationKind::Accept, "2027-10-22T10:00:00+02:00"),
        "2027-10-22T10:00:00+02:00",
    );
    let fx = run(&mut b, expired(RP_CASE, 1), "2027-10-28T00:00:01+02:00");
    assert_eq!(event(&fx, "declaration.recorded")["kind"], "deemed_refusal");
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "R1-05");
}

#[test]
fn rp_66_abs_3_satz_2_kwo_no_ersatzperson_announced_vacancy() {
    let mut b = body_from(rp_snapshot());
    let fx = run(
        &mut b,
        vacancy(RP, "R2-01", DepartureReason::Died, "2027-10-01T00:00:00+02:00"),
        "2027-10-20T09:00:00+02:00",
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("list_exhausted"), Some(31)));
    assert_eq!(announcement(&fx).template, "rp_vacancy");
}

/// § 46 Abs. 1 KWG: a member who lost the seat through a party ban leaves (`membership.changed` `left`); the seat is
/// left to the Wahlleiter — `seat.left_vacant` `returning_officer_decides`, size unchanged, nothing announced, the
/// case closed; a review of it is refused (nothing was determined).
#[test]
fn rp_46_abs_1_kwg_party_ban_the_member_leaves_and_the_wahlleiter_decides_the_seat() {
    let mut b = body_from(rp_snapshot());
    let size = b.body.info().statutory_size;
    let mut cmd = vacancy(RP, "R1-02", DepartureReason::PartyBanned, "2027-10-01T00:00:00+02:00");
    if let Command::Inbound(Inbound::VacancyReported(v)) = &mut cmd {
        v.list_banned = Some(true);
    }
    let fx = run(&mut b, cmd, "2027-10-20T09:00:00+02:00");
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:seat.left_vacant"]);
    assert_eq!(event(&fx, "membership.changed")["change"], "left");
    let v = event(&fx, "seat.left_vacant");
    assert_eq!(
        (v["reason"].as_str(), v["statutory_size"].as_u64()),
        (Some("returning_officer_decides"), Some(u64::from(size)))
    );
    assert!(!b.has_open_case());
    let review = Command::Inbound(Inbound::ReviewDecided(ReviewDecided {
        body: RP.into(),
        case: RP_CASE.into(),
        outcome: ReviewOutcome::Annulled,
        successor: None,
        decided_at: tz("2027-10-21T10:00:00+02:00"),
        decided_by: None,
        is_final: false,
        final_on: None,
    }));
    let err = refuse(&b, review, "2027-10-21T10:00:00+02:00");
    assert!(matches!(&err, Rejection::Invalid(m) if m.contains("party ban")), "{err:?}");
}

// =========================================================================================================
// Niedersachsen — § 44 NKWG with § 40 NKWG, § 77 NKWO: the declaration model

const NI: &str = "musterfeld-rat";
const NI_CASE: &str = "musterfeld-rat-1";

fn ni_snapshot() -> Value {
    let path = format!("{}/examples/ni-election.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

/// N1-02 (Personenwahl) resigned on 1 May 2027; N1-04 is passed over (the party's notice of 16 Nov 2026), N1-05
/// is determined (most votes).
fn ni_open_at(effective_at: &str, now: &str) -> (Council, Vec<Effect>) {
    let mut b = body_from(ni_snapshot());
    let fx = run(&mut b, vacancy(NI, "N1-02", DepartureReason::Resigned, effective_at), now);
    run(&mut b, sent(NI_CASE, 1, now), now);
    (b, fx)
}

fn ni_open() -> (Council, Vec<Effect>) {
    ni_open_at("2027-05-01T00:00:00+02:00", "2027-05-03T09:00:00+02:00")
}

/// § 50 Abs. 3 Satz 1 to 3, § 52 Abs. 1 Satz 1 Nr. 7 NKomVG: a barred Ersatzperson proves within the week the
/// declaration that ends her employment and accepts; she is a member, and the membership names the last day to
/// prove the actual end — four months after the acceptance — or lose the seat (`bar_end_proof`).
#[test]
fn ni_nkomvg_52_abs_1_nr_7_barred_member_must_prove_the_end_within_four_months_after_acceptance() {
    let mut s = ni_snapshot();
    add_fact(&mut s, 0, 4, json!({"type": "barred", "on": "2027-01-01", "reason": "Beamtin der Gemeinde"}));
    let mut b = body_from(s);
    let now = "2027-05-03T09:00:00+02:00";
    run(&mut b, vacancy(NI, "N1-02", DepartureReason::Resigned, "2027-05-01T00:00:00+02:00"), now);
    run(&mut b, sent(NI_CASE, 1, now), now);
    assert!(offer(&b, NI_CASE).barred);
    run(&mut b, served(NI, NI_CASE, "N1-05", ServiceMethod::Certificate, "2027-05-03"), "2027-05-03T10:00:00+02:00");
    run(&mut b, cured(NI, NI_CASE, "N1-05", "2027-05-05T10:00:00+02:00"), "2027-05-05T10:00:00+02:00");
    let fx = run(
        &mut b,
        declare(NI, NI_CASE, "N1-05", DeclarationKind::Accept, "2027-05-05T11:00:00+02:00"),
        "2027-05-05T11:00:00+02:00",
    );
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("acceptance")));
    // four months after Wed 5 May 2027: Sun 5 Sep 2027 → Mon 6 Sep
    let p = &m["bar_end_proof"];
    assert_eq!(p["last_day"], "2027-09-06", "{m}");
    let trail = p["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["citation"] == "§ 50 Abs. 3 Satz 3, § 52 Abs. 1 Satz 1 Nr. 7 NKomVG"), "{p}");
}

/// § 44 Abs. 5 Satz 1 i. V. m. § 37 Abs. 5, § 38 Abs. 5 NKWG (issue 25, point 5): the worker determines the
/// successor of an exhausted Wahlbereich from the party's Wahlvorschlag in another Wahlbereich — the same outcome
/// and trail as `nachfolge decide` (tests/rules/areas.rs) — and offers her the seat.
#[test]
fn ni_44_abs_5_nkwg_worker_determines_the_ersatzperson_of_another_wahlbereich() {
    let path = format!("{}/examples/ni-wahlbereiche-election.json", env!("CARGO_MANIFEST_DIR"));
    let s: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json");
    let mut b = body_from(s);
    let now = "2026-12-02T09:00:00+01:00";
    let fx = run(
        &mut b,
        vacancy("musterstadt-rat", "L1-WB1-02", DepartureReason::Resigned, "2026-12-01T00:00:00+01:00"),
        now,
    );
    let det = event(&fx, "succession.determined");
    assert_eq!(det["successor"]["id"], "L1-WB2-02", "{det}");
    let reasons: Vec<&str> =
        det["trail"].as_array().expect("trail").iter().filter_map(|s| s["reason"].as_str()).collect();
    assert_eq!(
        reasons,
        ["seated", "departed", "waived", "list_exhausted", "other_areas", "seated", "most_votes_other_area"],
        "{det}"
    );
    assert_eq!(mail(&fx).template, "ni_offer");
}

#[test]
fn ni_nkwo_77_abs_1_determination_mails_the_notification_without_membership() {
    let (b, fx) = ni_open();
    let det = event(&fx, "succession.determined");
    assert_eq!(det["successor"]["id"], "N1-05");
    let trail = det["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["candidate"] == "N1-04"
        && s["reason"] == "left_party_notified"
        && s["citation"] == "§ 44 Abs. 2 NKWG i. V. m. § 45 Abs. 1 Satz 2 NKWG"));
    assert_eq!(mail(&fx).template, "ni_offer");
    assert!(!kinds(&fx).iter().any(|k| k.contains("membership.changed") && k.contains("joined")));
    assert!(matches!(state(&b, NI_CASE), CaseState::Offered(_)));
}

#[test]
fn ni_nkwg_40_abs_1_satz_4_silence_deemed_acceptance_with_the_beginning_of_the_next_day() {
    let (mut b, _) = ni_open();
    run(&mut b, served(NI, NI_CASE, "N1-05", ServiceMethod::Certificate, "2027-05-04"), "2027-05-04T10:00:00+02:00");
    // served Tue 4 May → the week ends Tue 11 May; deemed accepted with the beginning of Wed 12 May
    let fx = run(&mut b, expired(NI_CASE, 1), "2027-05-12T00:00:01+02:00");
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("deemed_acceptance")));
    same_instant(&m["effective_at"], "2027-05-12T00:00:00+02:00");
    assert_eq!(announcement(&fx).legal_basis, "§ 77 Abs. 1 Satz 3 NKWO");
    assert_eq!(announcement(&fx).template, "ni_successor");
}

#[test]
fn ni_nkwg_40_abs_1_acceptance_seat_keeps_personenwahl_for_the_next_succession() {
    let (mut b, _) = ni_open();
    run(&mut b, served(NI, NI_CASE, "N1-05", ServiceMethod::Certificate, "2027-05-04"), "2027-05-04T10:00:00+02:00");
    let fx = run(
        &mut b,
        declare(NI, NI_CASE, "N1-05", DeclarationKind::Accept, "2027-05-06T10:00:00+02:00"),
        "2027-05-06T10:00:00+02:00",
    );
    let m = event(&fx, "membership.changed");
    assert_eq!((m["change"].as_str(), m["basis"].as_str()), (Some("joined"), Some("acceptance")));
    // § 44 Abs. 1: the seat passed; it stays a Personenwahl seat (docs/legal.md, "Niedersachsen")
    let seat = b.candidate("N1-05").expect("candidate").seat.clone().expect("seat");
    assert_eq!(seat.via, nachfolge::model::SeatVia::PersonalVote);
}

#[test]
fn ni_nkwg_40_abs_1_satz_5_reservation_is_refusal_next_ersatzperson_refusal_irrevocable() {
    let (mut b, _) = ni_open();
    let fx = run(
        &mut b,
        declare(NI, NI_CASE, "N1-05", DeclarationKind::AcceptWithReservation, "2027-05-04T10:00:00+02:00"),
        "2027-05-04T10:00:00+02:00",
    );
    // N1-05 out for the Wahlperiode (§ 45 Abs. 1 Satz 1); N1-06 waived; nobody else with votes: N1-07 by the
    // order of the Wahlvorschlag (§ 44 Abs. 4)
    let det = event(&fx, "succession.determined");
    assert_eq!((det["successor"]["id"].as_str(), det["round"].as_u64()), (Some("N1-07"), Some(2)));
    assert_eq!(det["trail"][0]["citation"], "§ 45 Abs. 1 Satz 1 NKWG");
    assert!(has_fact(&b, "N1-05", "declined"));
    let fx = run(
        &mut b,
        declare(NI, NI_CASE, "N1-05", DeclarationKind::Accept, "2027-05-04T11:00:00+02:00"),
        "2027-05-04T11:00:00+02:00",
    );
    assert_eq!(event(&fx, "declaration.rejected")["reason"], "refusal_irrevocable");
}

#[test]
fn ni_nfeiertagsg_2_period_ending_on_reformationstag_ends_next_day_allerheiligen_no_holiday() {
    let (mut b, _) = ni_open_at("2028-10-02T00:00:00+02:00", "2028-10-20T09:00:00+02:00");
    // served Tue 24 Oct 2028 → the week ends Tue 31 Oct 2028, Reformationstag (§ 2 Abs. 1 Buchst. h
    // NFeiertagsG) → Wed 1 Nov 2028; Allerheiligen is no holiday in Niedersachsen
    let fx = run(
        &mut b,
        served(NI, NI_CASE, "N1-05", ServiceMethod::Acknowledgement, "2028-10-24"),
        "2028-10-24T18:00:00+02:00",
    );
    let ds = event(&fx, "deadline.set");
    assert_eq!(ds["last_day"], "2028-11-01");
    let trail = ds["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["reason"] == "extended_public_holiday:Reformationstag"
        && s["citation"] == "§ 31 Abs. 3 Satz 1 VwVfG i. V. m. § 1 Abs. 1 NVwVfG"));
    assert_eq!(trail.iter().filter(|s| s["reason"].as_str().is_some_and(|r| r.starts_with("extended_"))).count(), 1);
}

#[test]
fn ni_nkwg_44_abs_5_no_ersatzperson_announced_seat_stays_vacant_size_unchanged() {
    let mut b = body_from(ni_snapshot());
    let fx = run(
        &mut b,
        vacancy(NI, "N2-01", DepartureReason::Died, "2027-05-01T00:00:00+02:00"),
        "2027-05-03T09:00:00+02:00",
    );
    let v = event(&fx, "seat.left_vacant");
    assert_eq!((v["reason"].as_str(), v["statutory_size"].as_u64()), (Some("list_exhausted"), Some(26)));
    assert_eq!(announcement(&fx).template, "ni_vacancy");
}

// =========================================================================================================
// Sachsen-Anhalt — § 75 KWO LSA, § 43 KWG LSA (tests/procedure/st.rs)

#[path = "procedure/st.rs"]
mod st;

// Thüringen — § 23 Abs. 4, § 29 ThürKWG (tests/procedure/th.rs)

#[path = "procedure/th.rs"]
mod th;

// Fassungen — the text of § 45 KWahlG NRW in force when the worker determines (tests/procedure/fassung.rs)

#[path = "procedure/fassung.rs"]
mod fassung;

// Schleswig-Holstein — § 44 Abs. 3, § 37 GKWG (tests/procedure/sh.rs)

#[path = "procedure/sh.rs"]
mod sh;
// =========================================================================================================
// Bayern — Art. 47, 48 GLKrWG (tests/procedure/by.rs)

/// Baden-Württemberg (§ 31 Abs. 2 GemO, `Acceptance::ByLaw`): tests/procedure/bw.rs.
#[path = "procedure/bw.rs"]
mod bw;
#[path = "procedure/by.rs"]
mod by;

/// Sachsen (§ 34 Abs. 2 SächsGemO, `Acceptance::ByLaw`): tests/procedure/sn.rs.
#[path = "procedure/sn.rs"]
mod sn;

/// Mecklenburg-Vorpommern (§ 46, § 34 LKWG M-V): tests/procedure/mv.rs.
#[path = "procedure/mv.rs"]
mod mv;

/// Brandenburg (§ 60, § 51 BbgKWahlG): tests/procedure/bb.rs.
#[path = "procedure/bb.rs"]
mod bb;

// The letter for service (`Council::determination_letter`, the console's `schreiben.pdf`)
#[path = "procedure/letter.rs"]
mod letter;

// The period notice after service (Fristmitteilung, with the period as a calendar entry)
#[path = "procedure/period_notice.rs"]
mod period_notice;
