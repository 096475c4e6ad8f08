//! Objections and election review (`review.decided`), objection periods (`objection_period.ended`), the
//! OParl payloads (validated against the OParl 1.1 schema files in `tests/oparl/`) and the
//! "Nachrückerliste" (`rules::succession_order`) — all through the pure core, without services. Tests that
//! check a statutory rule are named after its citation.
//!
//! Law: § 45 Abs. 6 Satz 7–8 KWahlG NRW with §§ 39–41 KWahlG NRW (objection within one month after the
//! announcement; the returning officer decides in place of the council); § 34 Abs. 3–6 KWG Hessen with
//! §§ 25–27 KWG (objection within two weeks; the council confirms, annuls or amends; it determines itself if
//! the returning officer stayed inactive; the seat holder keeps the seat until the review is final; earlier
//! acts are not rolled back).

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use serde_json::{json, Value};

use nachfolge::calendar::add_months_bgb;
use nachfolge::deadline::{objection_period, PeriodEnd};
use nachfolge::messages::*;
use nachfolge::model::{Fact, Land, Snapshot};
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
        "id": id, "position": position, "given_name": "Vorname", "family_name": format!("Nachname {id}"),
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

/// NRW council "rat": list L1 (two seated, four more), list L2 (one unseated candidate), E1 (individual).
fn nrw_snapshot() -> Value {
    json!({
        "body": {
            "id": "rat", "name": "Rat der Stadt Musterstadt", "land": "NW", "statutory_size": 10,
            "term": { "start": "2025-11-01", "end": "2030-10-31" }, "returning_officer": officer(), "remedy_court": court(),
        },
        "lists": [
            { "id": "L1", "name": "Partei A", "kind": "party", "candidates": [
                cand("L1-01", Some(1), Some("list")), cand("L1-02", Some(2), Some("list")),
                cand("L1-03", Some(3), None), cand("L1-04", Some(4), None),
                cand("L1-05", Some(5), None), cand("L1-06", Some(6), None),
            ]},
            { "id": "L2", "name": "Partei B", "kind": "party", "candidates": [ cand("L2-01", Some(1), None) ]},
            { "id": "E1", "name": "Einzelbewerber", "kind": "individual", "candidates": [
                cand("E1-01", None, Some("district")),
            ]},
        ],
    })
}

/// Hessen council "hrat": list A ranked by votes: A-04 (500), A-05 (400), A-06 (400), A-03 (300).
fn he_snapshot(system: &str) -> Value {
    let v = |id: &str, pos: u32, votes: i64, seat: Option<&str>| {
        let mut c = cand(id, Some(pos), seat);
        c["votes"] = json!(votes);
        c
    };
    json!({
        "body": {
            "id": "hrat", "name": "Gemeindevertretung Musterdorf", "land": "HE", "electoral_system": system,
            "statutory_size": 10, "term": { "start": "2026-04-01", "end": "2031-03-31" },
            "returning_officer": officer(), "remedy_court": court(),
        },
        "lists": [
            { "id": "A", "name": "Liste A", "kind": "voter_group", "candidates": [
                v("A-01", 1, 900, Some("list")), v("A-02", 2, 800, Some("list")), v("A-03", 3, 300, None),
                v("A-04", 4, 500, None), v("A-05", 5, 400, None), v("A-06", 6, 400, None),
            ]},
        ],
    })
}

fn body_from(snapshot: Value) -> Council {
    let snap: Snapshot = serde_json::from_value(snapshot).expect("test snapshot");
    procedure::register(None, snap).expect("registration").0
}

fn vacancy(body: &str, member: &str, effective_at: &str) -> Command {
    Command::Inbound(Inbound::VacancyReported(VacancyReported {
        body: body.into(),
        member: member.into(),
        reason: DepartureReason::Resigned,
        effective_at: tz(effective_at),
        list_banned: None,
    }))
}

fn review(
    body: &str,
    case: &str,
    outcome: ReviewOutcome,
    successor: Option<&str>,
    at: &str,
    by: Option<&str>,
) -> Command {
    Command::Inbound(Inbound::ReviewDecided(ReviewDecided {
        body: body.into(),
        case: case.into(),
        outcome,
        successor: successor.map(str::to_owned).map(Into::into),
        decided_at: tz(at),
        decided_by: by.map(str::to_owned),
        is_final: true,
        // final on the day it was taken (a court of last instance, or every party waived the Klage): the change
        // is dated at the decision; a later day is tested in `*_dated_at_the_day_it_became_final`
        final_on: Some(tz(at).date_naive()),
    }))
}

/// The same decision, unanfechtbar / rechtskräftig since `day` (`final_on`).
fn final_since(cmd: Command, day: &str) -> Command {
    match cmd {
        Command::Inbound(Inbound::ReviewDecided(r)) => {
            Command::Inbound(Inbound::ReviewDecided(ReviewDecided { final_on: Some(d(day)), ..r }))
        }
        other => other,
    }
}

/// The same decision while it can still be challenged (`final: false`).
fn not_final(cmd: Command) -> Command {
    match cmd {
        Command::Inbound(Inbound::ReviewDecided(r)) => {
            Command::Inbound(Inbound::ReviewDecided(ReviewDecided { is_final: false, final_on: None, ..r }))
        }
        other => other,
    }
}

fn fact(body: &str, candidate: &str, fact: Fact) -> Command {
    Command::Inbound(Inbound::FactRecorded(FactRecorded { body: body.into(), candidate: candidate.into(), fact }))
}

fn declare(case: &str, candidate: &str, at: &str) -> Command {
    Command::Inbound(Inbound::DeclarationReceived(DeclarationReceived {
        body: "rat".into(),
        case: case.into(),
        candidate: candidate.into(),
        kind: DeclarationKind::Accept,
        received_at: tz(at),
    }))
}

fn sent(case: &str, round: u32, at: &str) -> Command {
    Command::NotificationSent {
        case: case.into(),
        round,
        kind: MailKind::Determination,
        message_id: format!("<{case}.{round}@x>"),
        sent_at: t(at),
    }
}

fn run(body: &mut Council, cmd: Command, now: &str) -> Vec<Effect> {
    procedure::handle(body, cmd, t(now), &Settings::default()).unwrap_or_else(|e| panic!("command refused: {e}"))
}

fn refuse(body: &Council, cmd: Command, now: &str) -> Rejection {
    let mut copy = body.clone();
    match procedure::handle(&mut copy, cmd, t(now), &Settings::default()) {
        Ok(effects) => panic!("expected a rejection, got {:?}", kinds(&effects)),
        Err(e) => e,
    }
}

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

fn events<'a>(effects: &'a [Effect], ty: &str) -> Vec<&'a Value> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Publish { event_type, data } if *event_type == ty => Some(data),
            _ => None,
        })
        .collect()
}

fn event<'a>(effects: &'a [Effect], ty: &str) -> &'a Value {
    events(effects, ty).first().copied().unwrap_or_else(|| panic!("no {ty} in {:?}", kinds(effects)))
}

fn announcement<'a>(effects: &'a [Effect], kind: &str) -> &'a procedure::Announcement {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Announce(a) if a.kind == kind => Some(a),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no {kind} announcement in {:?}", kinds(effects)))
}

fn same_instant(v: &Value, expected: &str) {
    let got = DateTime::parse_from_rfc3339(v.as_str().unwrap_or_else(|| panic!("not a time: {v}")))
        .expect("RFC 3339")
        .with_timezone(&Utc);
    assert_eq!(got, t(expected), "instant {v}");
}

fn state<'a>(b: &'a Council, case: &str) -> &'a CaseState {
    &b.cases[case].state
}

const CASE: &str = "rat-1";
const OPENED: &str = "2026-06-01T10:00:00+02:00";
const ACCEPTED: &str = "2026-06-03T11:00:00+02:00";
const DECIDED: &str = "2026-07-20T16:00:00+02:00";
const LATER: &str = "2026-07-21T09:00:00+02:00";

/// NRW: L1-02 resigned; L1-03 accepted on 3 Jun and is a member; the announcement (n = 1) is issued.
fn nrw_filled() -> (Council, Vec<Effect>) {
    let mut b = body_from(nrw_snapshot());
    run(&mut b, vacancy("rat", "L1-02", OPENED), OPENED);
    run(&mut b, sent(CASE, 1, OPENED), OPENED);
    let fx = run(&mut b, declare(CASE, "L1-03", ACCEPTED), ACCEPTED);
    assert!(matches!(state(&b, CASE), CaseState::Filled { .. }));
    (b, fx)
}

const HCASE: &str = "hrat-1";
const HOPENED: &str = "2026-06-02T10:00:00+02:00";

/// Hessen: A-02 resigned; A-04 (most votes) is a member with the determination.
fn he_filled() -> (Council, Vec<Effect>) {
    let mut b = body_from(he_snapshot("proportional"));
    let fx = run(&mut b, vacancy("hrat", "A-02", HOPENED), HOPENED);
    assert!(matches!(state(&b, HCASE), CaseState::Filled { successor, .. } if successor == "A-04"));
    (b, fx)
}

// ---------------------------------------------------------------------------------------------------------
// Review decisions take effect when final (§ 34 Abs. 5 KWG; § 40 Abs. 3 i. V. m. § 45 Abs. 6 Satz 8 KWahlG NRW)

#[test]
fn he_34_abs_5_review_not_final_keeps_the_seat_until_the_decision_is_final() {
    let (mut b, _) = he_filled();
    let before = b.clone();
    let fx =
        run(&mut b, not_final(review("hrat", HCASE, ReviewOutcome::Annulled, None, DECIDED, Some("council"))), LATER);
    // recorded and announced; no membership, no seat, no new determination, no timer touched
    assert_eq!(kinds(&fx), ["announce:review"]);
    let a = announcement(&fx, "review");
    assert_eq!(a.context["review"]["final"], false);
    assert!(a.objection_period.contains("§ 27 KWG"), "{}", a.objection_period);
    assert!(b.candidate("A-04").expect("c").seat.is_some());
    assert_eq!(state(&b, HCASE), state(&before, HCASE));
    assert_eq!(b.cases[HCASE].history.reviews.len(), 1);
    assert!(!b.cases[HCASE].history.reviews[0].is_final);
    // the successor announcement's objection period ends while the review is pending
    let fx = run(&mut b, Command::ObjectionPeriodEnded { case: HCASE.into(), n: 1 }, "2026-07-01T00:00:00+02:00");
    assert_eq!(event(&fx, "objection_period.ended")["review_pending"], true);
    // the decision becomes final a month later (no Klage within the month of § 27 KWG): only now it takes effect,
    // dated at the start of the day it became rechtskräftig — A-04 kept the seat until then (§ 34 Abs. 5)
    let final_review =
        final_since(review("hrat", HCASE, ReviewOutcome::Annulled, None, DECIDED, Some("council")), "2026-08-21");
    let fx = run(&mut b, final_review, "2026-08-22T09:00:00+02:00");
    let left = events(&fx, "membership.changed")[0].clone();
    assert_eq!(
        (left["person"]["id"].as_str(), left["change"].as_str(), left["basis"].as_str()),
        (Some("A-04"), Some("left"), Some("review"))
    );
    same_instant(&left["effective_at"], "2026-08-21T00:00:00+02:00");
    let a = announcement(&fx, "review");
    assert_eq!(a.context["review"]["final"], true);
    // the notice names the day it became final, and the decision's own day
    assert_eq!(
        (a.context["review"]["final_date"].as_str(), a.context["review"]["decided_date"].as_str()),
        (Some("21.08.2026"), Some("20.07.2026"))
    );
    assert!(a.objection_period.contains("rechtskräftig"), "no Klage after a final decision: {}", a.objection_period);
    // determined again under the rules (same case, next round)
    assert_eq!(event(&fx, "succession.determined")["round"], 2);
}

#[test]
fn nrw_45_abs_6_satz_8_40_abs_3_review_amended_not_final_installs_nobody_until_final() {
    let (mut b, _) = nrw_filled();
    let fx = run(&mut b, not_final(review("rat", CASE, ReviewOutcome::Amended, Some("L1-05"), DECIDED, None)), LATER);
    assert_eq!(kinds(&fx), ["announce:review"]);
    let a = announcement(&fx, "review");
    assert_eq!(
        (a.context["successor"]["id"].as_str(), a.context["review"]["final"].as_bool()),
        (Some("L1-05"), Some(false))
    );
    assert!(b.candidate("L1-03").expect("c").seat.is_some(), "L1-03 keeps the seat");
    assert!(matches!(state(&b, CASE), CaseState::Filled { successor, .. } if successor == "L1-03"));
    // final: L1-03 leaves, L1-05 is offered the seat with the acceptance procedure
    let fx = run(&mut b, review("rat", CASE, ReviewOutcome::Amended, Some("L1-05"), DECIDED, None), LATER);
    let left = event(&fx, "membership.changed");
    assert_eq!((left["person"]["id"].as_str(), left["basis"].as_str()), (Some("L1-03"), Some("review")));
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "L1-05");
    let a = announcement(&fx, "review");
    assert!(a.objection_period.contains("unanfechtbar"), "{}", a.objection_period);
    assert!(matches!(state(&b, CASE), CaseState::Offered(o) if o.successor == "L1-05"));
}

/// A final decision names the day it became final: required with `final: true`, refused with `final: false`, not
/// before the decision's day and not in the future (§ 34 Abs. 5 KWG; issue 27).
#[test]
fn he_34_abs_5_final_on_is_required_with_a_final_decision_and_checked() {
    let (b, _) = he_filled();
    let without = match review("hrat", HCASE, ReviewOutcome::Confirmed, None, DECIDED, Some("council")) {
        Command::Inbound(Inbound::ReviewDecided(r)) => {
            Command::Inbound(Inbound::ReviewDecided(ReviewDecided { final_on: None, ..r }))
        }
        other => other,
    };
    let cases = [
        (without, "final_on: required with final: true"),
        (
            final_since(review("hrat", HCASE, ReviewOutcome::Confirmed, None, DECIDED, Some("council")), "2026-07-19"),
            "lies before the decision was taken",
        ),
        (
            final_since(review("hrat", HCASE, ReviewOutcome::Confirmed, None, DECIDED, Some("council")), "2026-07-22"),
            "lies in the future",
        ),
        (
            Command::Inbound(Inbound::ReviewDecided(ReviewDecided {
                final_on: Some(d("2026-07-21")),
                ..match not_final(review("hrat", HCASE, ReviewOutcome::Confirmed, None, DECIDED, Some("council"))) {
                    Command::Inbound(Inbound::ReviewDecided(r)) => r,
                    _ => unreachable!("a review"),
                }
            })),
            "only with final: true",
        ),
    ];
    for (cmd, expected) in cases {
        let mut b = b.clone();
        let err =
            procedure::handle(&mut b, cmd, tz(LATER).with_timezone(&Utc), &Settings::default()).expect_err("refused");
        assert!(format!("{err:?}").contains(expected), "{expected}: {err:?}");
    }
}

/// NRW: the amended successor is offered the seat once the decision is unanfechtbar, the wrongly seated member
/// leaves that day, and the offer says which decision installed him and since when it is final — no Einspruch is
/// offered against it (§ 45 Abs. 6 Satz 8 i. V. m. § 40 Abs. 3 KWahlG NRW; issue 27).
#[test]
fn nrw_45_abs_6_satz_8_40_abs_3_review_amended_is_dated_at_the_day_it_became_final() {
    let (mut b, _) = nrw_filled();
    let cmd = final_since(review("rat", CASE, ReviewOutcome::Amended, Some("L1-05"), DECIDED, None), "2026-08-21");
    let fx = run(&mut b, cmd, "2026-08-24T09:00:00+02:00");
    let left = event(&fx, "membership.changed");
    assert_eq!((left["person"]["id"].as_str(), left["basis"].as_str()), (Some("L1-03"), Some("review")));
    same_instant(&left["effective_at"], "2026-08-21T00:00:00+02:00");
    let mail = fx
        .iter()
        .find_map(|e| match e {
            Effect::Mail(m) if m.candidate == "L1-05" => Some(m.clone()),
            _ => None,
        })
        .expect("the offer to L1-05");
    let installed = &mail.context["installed_by_review"];
    assert_eq!(
        (installed["decided_date"].as_str(), installed["final_date"].as_str()),
        (Some("20.07.2026"), Some("21.08.2026"))
    );
    let a = announcement(&fx, "review");
    assert_eq!(a.context["review"]["final_date"], "21.08.2026");
}

// ---------------------------------------------------------------------------------------------------------
// NRW § 45 Abs. 6 Satz 8 KWahlG (objection decided by the returning officer)

#[test]
fn nrw_45_abs_6_satz_8_review_confirmed_records_and_announces_without_change() {
    let (mut b, _) = nrw_filled();
    let before = b.clone();
    // the Wahlleitung's decision can still be challenged in court (issue #12: `final: false`)
    let fx = run(
        &mut b,
        not_final(review("rat", CASE, ReviewOutcome::Confirmed, None, DECIDED, Some("Wahlleitung"))),
        LATER,
    );
    assert_eq!(kinds(&fx), ["announce:review"]);
    let a = announcement(&fx, "review");
    assert_eq!(a.template, "nrw_review");
    assert_eq!(a.legal_basis, "§ 45 Abs. 6 Satz 8 KWahlG NRW");
    // court action within a month after Bekanntgabe (§ 41 Abs. 1 Satz 1), no new objection
    assert!(
        a.objection_period.contains("nach Bekanntgabe") && a.objection_period.contains("§ 41 Abs. 1 KWahlG NRW"),
        "court action, no new objection: {}",
        a.objection_period
    );
    assert_eq!(a.context["review"]["final"], false);
    assert_eq!(a.context["review"]["outcome"], "confirmed");
    assert_eq!(a.context["review"]["decided_by"], "Wahlleitung");
    assert_eq!(a.context["review"]["previous"]["id"], "L1-03");
    // nothing changed but the record of the decision
    assert_eq!(state(&b, CASE), state(&before, CASE));
    assert_eq!(
        b.candidate("L1-03").and_then(|c| c.seat.clone()),
        before.candidate("L1-03").and_then(|c| c.seat.clone())
    );
    let reviews = &b.cases[CASE].history.reviews;
    assert_eq!(reviews.len(), 1);
    assert_eq!(
        (reviews[0].outcome, reviews[0].citation.as_str()),
        (ReviewOutcome::Confirmed, "§ 45 Abs. 6 Satz 8 KWahlG NRW")
    );
    // the objection period of the announcement still runs
    assert!(!b.cases[CASE].history.announcements[0].superseded);
}

#[test]
fn nrw_45_abs_6_satz_8_review_annulled_ends_membership_and_determines_again_with_acceptance_procedure() {
    let (mut b, _) = nrw_filled();
    // the objection: L1-03 had lost his eligibility before the determination; the fact is recorded first
    run(&mut b, fact("rat", "L1-03", Fact::Ineligible { from: d("2026-05-20"), until: None }), LATER);
    let fx = run(&mut b, review("rat", CASE, ReviewOutcome::Annulled, None, DECIDED, None), LATER);
    assert_eq!(
        kinds(&fx),
        [
            "cancel:rat-1#objection#1",
            "cancel:rat-1#1",
            "publish:membership.changed",
            "announce:review",
            "publish:succession.determined",
            "mail:nrw_offer",
        ]
    );
    let left = event(&fx, "membership.changed");
    assert_eq!((left["change"].as_str(), left["basis"].as_str()), (Some("left"), Some("review")));
    assert_eq!(left["person"]["id"], "L1-03");
    // § 34 Abs. 6 KWG / no rollback: dated at the decision, the membership's start untouched
    same_instant(&left["effective_at"], DECIDED);
    assert_eq!(left["membership"]["startDate"], "2026-06-03");
    assert_eq!(left["membership"]["endDate"], "2026-07-20");
    // determined again, same case, next round, with the facts known now: L1-03 is ineligible, L1-04 is next
    let det = event(&fx, "succession.determined");
    assert_eq!((det["case"].as_str(), det["round"].as_u64()), (Some(CASE), Some(2)));
    assert_eq!(det["successor"]["id"], "L1-04");
    let skipped = det["trail"].as_array().expect("trail").iter().find(|s| s["candidate"] == "L1-03").expect("L1-03");
    assert_eq!(skipped["reason"], "ineligible");
    assert!(matches!(state(&b, CASE), CaseState::Offered(o) if o.successor == "L1-04"));
    assert!(b.candidate("L1-03").expect("L1-03").seat.is_none());
    assert!(b.cases[CASE].history.announcements[0].superseded);
    // the acceptance procedure runs again: acceptance → membership and a successor announcement
    run(&mut b, sent(CASE, 2, LATER), LATER);
    let fx = run(&mut b, declare(CASE, "L1-04", "2026-07-22T10:00:00+02:00"), "2026-07-22T10:00:00+02:00");
    assert_eq!(
        kinds(&fx),
        [
            "publish:declaration.recorded",
            "cancel:rat-1#2",
            "publish:membership.changed",
            "announce:successor",
            "schedule:rat-1#objection#3",
        ]
    );
}

#[test]
fn nrw_45_abs_6_satz_8_review_amended_installs_named_successor_with_acceptance_procedure() {
    let (mut b, _) = nrw_filled();
    let fx = run(&mut b, review("rat", CASE, ReviewOutcome::Amended, Some("L1-05"), DECIDED, None), LATER);
    assert_eq!(
        kinds(&fx),
        [
            "cancel:rat-1#objection#1",
            "cancel:rat-1#1",
            "publish:membership.changed",
            "publish:succession.determined",
            "mail:nrw_offer",
            "announce:review",
        ]
    );
    let left = event(&fx, "membership.changed");
    assert_eq!((left["person"]["id"].as_str(), left["basis"].as_str()), (Some("L1-03"), Some("review")));
    let det = event(&fx, "succession.determined");
    assert_eq!((det["successor"]["id"].as_str(), det["round"].as_u64()), (Some("L1-05"), Some(2)));
    assert_eq!(det["trail"][0]["reason"], "review_amended");
    assert_eq!(det["trail"][0]["citation"], "§ 45 Abs. 6 Satz 8 KWahlG NRW");
    let a = announcement(&fx, "review");
    assert_eq!(a.context["successor"]["id"], "L1-05");
    assert_eq!(a.context["review"]["previous"]["id"], "L1-03");
    // NRW: not a member yet — the acceptance procedure of § 45 Abs. 6 Satz 2–6 applies
    assert!(matches!(state(&b, CASE), CaseState::Offered(o) if o.successor == "L1-05"));
    run(&mut b, sent(CASE, 2, LATER), LATER);
    let fx = run(&mut b, declare(CASE, "L1-05", "2026-07-22T10:00:00+02:00"), "2026-07-22T10:00:00+02:00");
    // membership starts; no second announcement: the review's announcement named the successor
    assert_eq!(kinds(&fx), ["publish:declaration.recorded", "cancel:rat-1#2", "publish:membership.changed"]);
    let joined = event(&fx, "membership.changed");
    assert_eq!((joined["change"].as_str(), joined["basis"].as_str()), (Some("joined"), Some("acceptance")));
}

#[test]
fn nrw_45_abs_6_satz_3_review_annulled_before_acceptance_ends_no_membership() {
    let mut b = body_from(nrw_snapshot());
    run(&mut b, vacancy("rat", "L1-02", OPENED), OPENED);
    // a fact about the pending successor acts at once (issue #12): L1-03 left the party, so § 45 Abs. 3 Satz 1
    // passes him over and L1-04 is determined in round 2 (this test used to store the fact silently)
    let fx = run(&mut b, fact("rat", "L1-03", Fact::LeftParty { on: d("2026-05-01") }), LATER);
    assert_eq!(kinds(&fx), ["cancel:rat-1#1", "publish:succession.determined", "mail:nrw_offer"]);
    assert_eq!(event(&fx, "succession.determined")["successor"]["id"], "L1-04");
    let fx = run(&mut b, review("rat", CASE, ReviewOutcome::Annulled, None, DECIDED, None), LATER);
    // L1-04 was offered the seat, never a member: no membership event
    assert_eq!(kinds(&fx), ["cancel:rat-1#2", "announce:review", "publish:succession.determined", "mail:nrw_offer"]);
    // determined again under the rules with the facts known now: L1-04 again, round 3
    let det = event(&fx, "succession.determined");
    assert_eq!((det["round"].as_u64(), det["successor"]["id"].as_str()), (Some(3), Some("L1-04")));
    assert_eq!(announcement(&fx, "review").context["review"]["previous"]["id"], "L1-04");
    assert_eq!(announcement(&fx, "review").context["review"]["previous"]["was_member"], false);
}

#[test]
fn nrw_45_abs_5_review_amended_vacancy_restores_statutory_size() {
    let mut s = nrw_snapshot();
    for i in 2..6 {
        s["lists"][0]["candidates"][i]["facts"] = json!([{"type": "waived", "on": "2026-01-10", "form": "recorded"}]);
    }
    let mut b = body_from(s);
    let fx = run(&mut b, vacancy("rat", "L1-02", OPENED), OPENED);
    let vacant = event(&fx, "seat.left_vacant");
    assert_eq!(vacant["statutory_size"], 9);
    assert_eq!(vacant["organization"]["memberCount"], 9);
    assert_eq!(b.info().statutory_size, 9);
    // the waiver of L1-04 was not effective after all: the decision names him
    let fx = run(&mut b, review("rat", CASE, ReviewOutcome::Amended, Some("L1-04"), DECIDED, None), LATER);
    assert_eq!(
        kinds(&fx),
        [
            "cancel:rat-1#objection#1",
            "cancel:rat-1#1",
            "publish:succession.determined",
            "mail:nrw_offer",
            "announce:review"
        ]
    );
    assert_eq!(b.info().statutory_size, 10, "the reduction is annulled with the vacancy");
    assert_eq!(announcement(&fx, "review").context["review"]["was_vacant"], true);
    run(&mut b, sent(CASE, 2, LATER), LATER);
    let fx = run(&mut b, declare(CASE, "L1-04", "2026-07-22T10:00:00+02:00"), "2026-07-22T10:00:00+02:00");
    assert_eq!(event(&fx, "membership.changed")["organization"]["memberCount"], 10);
}

#[test]
fn nrw_45_abs_6_satz_8_invalid_reviews_are_refused() {
    let (b, _) = nrw_filled();
    let invalid = |cmd: Command, needle: &str| match refuse(&b, cmd, LATER) {
        Rejection::Invalid(m) => assert!(m.contains(needle), "{m:?} should mention {needle:?}"),
        other => panic!("expected Invalid, got {other:?}"),
    };
    // the council does not decide in NRW (§ 45 Abs. 6 Satz 8)
    invalid(review("rat", CASE, ReviewOutcome::Confirmed, None, DECIDED, Some("council")), "decided_by");
    invalid(review("rat", CASE, ReviewOutcome::Amended, None, DECIDED, None), "successor");
    invalid(review("rat", CASE, ReviewOutcome::Annulled, Some("L1-04"), DECIDED, None), "successor");
    // § 45 Abs. 1 Satz 1: the list the departed stood for
    invalid(review("rat", CASE, ReviewOutcome::Amended, Some("L2-01"), DECIDED, None), "not a candidate of list");
    invalid(review("rat", CASE, ReviewOutcome::Amended, Some("L1-01"), DECIDED, None), "holds a seat");
    invalid(review("rat", CASE, ReviewOutcome::Amended, Some("L1-02"), DECIDED, None), "departed");
    invalid(review("rat", CASE, ReviewOutcome::Amended, Some("L1-03"), DECIDED, None), "confirmed");
    invalid(review("rat", CASE, ReviewOutcome::Confirmed, None, "2026-07-22T10:00:00+02:00", None), "future");
    invalid(review("rat", CASE, ReviewOutcome::Confirmed, None, "2026-05-01T10:00:00+02:00", None), "before case");
    assert!(matches!(
        refuse(&b, review("rat", CASE, ReviewOutcome::Amended, Some("L9-99"), DECIDED, None), LATER),
        Rejection::Unknown(_)
    ));
    assert!(matches!(
        refuse(&b, review("rat", "rat-9", ReviewOutcome::Confirmed, None, DECIDED, None), LATER),
        Rejection::Unknown(_)
    ));
}

#[test]
fn nrw_45_abs_6_satz_6_amended_cannot_name_a_candidate_who_refused_in_the_case() {
    let mut b = body_from(nrw_snapshot());
    run(&mut b, vacancy("rat", "L1-02", OPENED), OPENED);
    run(&mut b, sent(CASE, 1, OPENED), OPENED);
    let refuse_cmd = Command::Inbound(Inbound::DeclarationReceived(DeclarationReceived {
        body: "rat".into(),
        case: CASE.into(),
        candidate: "L1-03".into(),
        kind: DeclarationKind::Refuse,
        received_at: tz(ACCEPTED),
    }));
    run(&mut b, refuse_cmd, ACCEPTED);
    match refuse(&b, review("rat", CASE, ReviewOutcome::Amended, Some("L1-03"), DECIDED, None), LATER) {
        Rejection::Invalid(m) => assert!(m.contains("cannot be withdrawn"), "{m}"),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------------------
// Hessen § 34 Abs. 4–6 KWG

#[test]
fn he_34_abs_4_satz_2_review_confirmed_records_and_announces_without_change() {
    let (mut b, _) = he_filled();
    let fx = run(&mut b, review("hrat", HCASE, ReviewOutcome::Confirmed, None, DECIDED, Some("council")), LATER);
    assert_eq!(kinds(&fx), ["announce:review"]);
    let a = announcement(&fx, "review");
    assert_eq!(a.template, "he_review");
    assert_eq!(a.context["review"]["citation"], "§ 34 Abs. 4 Satz 2 KWG");
    assert_eq!(a.context["review"]["by_council"], true);
    assert!(matches!(state(&b, HCASE), CaseState::Filled { successor, .. } if successor == "A-04"));
}

#[test]
fn he_34_abs_4_satz_2_review_annulled_ends_membership_and_determines_again_with_facts_then_known() {
    let (mut b, _) = he_filled();
    run(&mut b, fact("hrat", "A-04", Fact::LeftParty { on: d("2026-05-15") }), LATER);
    let fx = run(&mut b, review("hrat", HCASE, ReviewOutcome::Annulled, None, DECIDED, Some("council")), LATER);
    assert_eq!(
        kinds(&fx),
        [
            "cancel:hrat-1#objection#1",
            "cancel:hrat-1#1",
            "publish:membership.changed",
            "announce:review",
            "publish:succession.determined",
            "publish:membership.changed",
            "mail:he_determination",
            "announce:successor",
            "schedule:hrat-1#objection#3",
        ]
    );
    let changes = events(&fx, "membership.changed");
    assert_eq!((changes[0]["person"]["id"].as_str(), changes[0]["change"].as_str()), (Some("A-04"), Some("left")));
    assert_eq!(changes[0]["basis"], "review");
    same_instant(&changes[0]["effective_at"], DECIDED);
    // have 400 votes each: the list order decides (§ 34 Abs. 1 Satz 1 Halbsatz 2)
    assert_eq!((changes[1]["person"]["id"].as_str(), changes[1]["change"].as_str()), (Some("A-05"), Some("joined")));
    let det = event(&fx, "succession.determined");
    assert_eq!((det["successor"]["id"].as_str(), det["round"].as_u64()), (Some("A-05"), Some(2)));
    assert!(matches!(state(&b, HCASE), CaseState::Filled { successor, .. } if successor == "A-05"));
}

#[test]
fn he_34_abs_4_satz_2_review_amended_installs_named_successor_with_the_determination() {
    let (mut b, _) = he_filled();
    let fx = run(&mut b, review("hrat", HCASE, ReviewOutcome::Amended, Some("A-06"), DECIDED, Some("council")), LATER);
    assert_eq!(
        kinds(&fx),
        [
            "cancel:hrat-1#objection#1",
            "cancel:hrat-1#1",
            "publish:membership.changed",
            "publish:succession.determined",
            "publish:membership.changed",
            "mail:he_determination",
            "announce:review",
        ]
    );
    let changes = events(&fx, "membership.changed");
    assert_eq!((changes[0]["person"]["id"].as_str(), changes[0]["basis"].as_str()), (Some("A-04"), Some("review")));
    let joined = changes[1];
    assert_eq!((joined["person"]["id"].as_str(), joined["change"].as_str()), (Some("A-06"), Some("joined")));
    // membership with the determination, dated at the decision (§ 34 Abs. 6: nothing earlier rolled back)
    same_instant(&joined["effective_at"], DECIDED);
    assert_eq!(joined["voting_right"], true);
    assert_eq!(joined["membership"]["startDate"], "2026-07-20");
    assert!(
        matches!(state(&b, HCASE), CaseState::Filled { successor, since, .. } if successor == "A-06" && *since == t(DECIDED))
    );
    let a = announcement(&fx, "review");
    assert_eq!(a.context["review"]["citation"], "§ 34 Abs. 4 Satz 2 KWG");
    assert_eq!(a.context["member_since"], "20.07.2026");
}

#[test]
fn he_34_abs_6_changes_are_dated_at_the_decision_and_nothing_earlier_is_rolled_back() {
    let (mut b, first) = he_filled();
    let joined = events(&first, "membership.changed")[1].clone();
    assert_eq!(joined["person"]["id"], "A-04");
    let fx = run(&mut b, review("hrat", HCASE, ReviewOutcome::Amended, Some("A-06"), DECIDED, Some("council")), LATER);
    let left = events(&fx, "membership.changed")[0];
    // the same OParl membership ends: same id, same start, end at the decision — never a retroactive end
    assert_eq!(left["membership"]["id"], joined["membership"]["id"]);
    assert_eq!(left["membership"]["startDate"], joined["membership"]["startDate"]);
    assert_eq!(left["membership"]["created"], joined["membership"]["created"]);
    assert_eq!(left["membership"]["endDate"], "2026-07-20");
    assert!(events(&fx, "membership.changed").iter().all(|m| m["basis"] != "deemed_not_acquired"));
    let text = announcement(&fx, "review");
    assert_eq!(text.context["review"]["previous"]["was_member"], true);
}

#[test]
fn he_34_abs_4_satz_3_council_determines_when_the_officer_stays_inactive() {
    let mut s = he_snapshot("majority");
    s["lists"][0]["candidates"][3]["votes"] = json!(400); // tie at 400
    let mut b = body_from(s);
    let fx = run(&mut b, vacancy("hrat", "A-02", HOPENED), HOPENED);
    assert_eq!(kinds(&fx), ["publish:membership.changed", "publish:lot.requested"]);
    // no determination yet: only the council's own determination can take its place
    for cmd in [
        review("hrat", HCASE, ReviewOutcome::Annulled, None, DECIDED, Some("council")),
        review("hrat", HCASE, ReviewOutcome::Confirmed, None, DECIDED, Some("council")),
        review("hrat", HCASE, ReviewOutcome::Amended, Some("A-06"), DECIDED, Some("Verwaltungsgericht")),
    ] {
        match refuse(&b, cmd, LATER) {
            Rejection::Invalid(m) => assert!(m.contains("no determination yet"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
    let fx = run(&mut b, review("hrat", HCASE, ReviewOutcome::Amended, Some("A-06"), DECIDED, Some("council")), LATER);
    assert_eq!(
        kinds(&fx),
        [
            "cancel:hrat-1#1",
            "publish:succession.determined",
            "publish:membership.changed",
            "mail:he_determination",
            "announce:review"
        ]
    );
    let a = announcement(&fx, "review");
    assert_eq!(a.context["review"]["citation"], "§ 34 Abs. 4 Satz 3 KWG");
    assert_eq!(a.context["review"]["officer_inactive"], true);
    assert_eq!(event(&fx, "succession.determined")["trail"][0]["citation"], "§ 34 Abs. 4 Satz 3 KWG");
    assert!(matches!(state(&b, HCASE), CaseState::Filled { successor, .. } if successor == "A-06"));
}

#[test]
fn he_34_abs_4_review_of_a_case_whose_successor_left_again_is_refused() {
    let (mut b, _) = he_filled();
    run(&mut b, vacancy("hrat", "A-04", "2026-07-01T10:00:00+02:00"), "2026-07-01T10:00:00+02:00");
    match refuse(&b, review("hrat", HCASE, ReviewOutcome::Annulled, None, DECIDED, Some("council")), LATER) {
        Rejection::Invalid(m) => assert!(m.contains("no longer holds the seat"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn he_34_abs_4_review_amended_naming_a_barred_candidate_joins_without_voting_right() {
    let mut s = he_snapshot("proportional");
    s["lists"][0]["candidates"][5]["facts"] =
        json!([{"type": "barred", "on": "2026-01-01", "reason": "Beamter der Gemeinde"}]);
    let mut b = body_from(s);
    run(&mut b, vacancy("hrat", "A-02", HOPENED), HOPENED);
    let fx = run(&mut b, review("hrat", HCASE, ReviewOutcome::Amended, Some("A-06"), DECIDED, Some("council")), LATER);
    let joined = events(&fx, "membership.changed")[1];
    assert_eq!((joined["person"]["id"].as_str(), joined["voting_right"].as_bool()), (Some("A-06"), Some(false)));
    assert_eq!(joined["membership"]["votingRight"], false);
    assert!(matches!(state(&b, HCASE), CaseState::Offered(o) if o.barred && o.successor == "A-06"));
}

// ---------------------------------------------------------------------------------------------------------
// Objection periods (§ 39 Abs. 1 KWahlG NRW: one month; § 25 Abs. 1 KWG: two weeks; §§ 187, 188 BGB)

#[test]
fn bgb_188_abs_3_month_ending_on_a_day_the_month_lacks_ends_on_its_last_day() {
    assert_eq!(add_months_bgb(d("2026-01-31"), 1), d("2026-02-28"));
    assert_eq!(add_months_bgb(d("2028-01-31"), 1), d("2028-02-29"), "leap year");
    assert_eq!(add_months_bgb(d("2026-03-31"), 1), d("2026-04-30"));
    assert_eq!(add_months_bgb(d("2026-01-30"), 1), d("2026-02-28"));
}

#[test]
fn bgb_188_abs_2_month_ends_on_the_day_with_the_same_number() {
    assert_eq!(add_months_bgb(d("2026-03-15"), 1), d("2026-04-15"));
    assert_eq!(add_months_bgb(d("2026-12-31"), 1), d("2027-01-31"), "over the turn of the year");
    assert_eq!(add_months_bgb(d("2026-02-28"), 1), d("2026-03-28"));
}

#[test]
fn nrw_39_abs_1_one_month_after_the_announcement_ends_at_24_00_berlin() {
    // announced Sat 31 Jan 2026, 10:00 → last day Sat 28 Feb 2026 (§ 188 Abs. 3 BGB); read as fixed, not
    // extended (this test used to encode the fixed reading as the only one)
    let p = objection_period(Land::Nw, t("2026-01-31T10:00:00+01:00"), PeriodEnd::Fixed);
    assert_eq!(p.last_day, d("2026-02-28"));
    assert_eq!(p.ends_at, t("2026-03-01T00:00:00+01:00"));
    let cites: Vec<&str> = p.trail.iter().map(|s| s.citation.as_str()).collect();
    assert_eq!(
        cites,
        [
            "§ 45 Abs. 6 Satz 8 i. V. m. § 39 Abs. 1 KWahlG NRW",
            "§ 187 Abs. 1 BGB",
            "§ 188 Abs. 3 BGB",
            "vgl. § 54 Abs. 1 BWahlG"
        ]
    );
    // by the default reading, like the one-week period: Sat 28 Feb → Mon 2 Mar 2026, 24:00 CET
    let p = objection_period(Land::Nw, t("2026-01-31T10:00:00+01:00"), PeriodEnd::Extended);
    assert_eq!((p.last_day, p.ends_at), (d("2026-03-02"), t("2026-03-03T00:00:00+01:00")));
    assert_eq!(p.trail[3].citation, "§ 31 Abs. 3 Satz 1 VwVfG NRW");
    // over the change to summer time: ends 2 Apr 00:00 CEST
    let p = objection_period(Land::Nw, t("2026-03-01T12:00:00+01:00"), PeriodEnd::Extended);
    assert_eq!((p.last_day, p.ends_at), (d("2026-04-01"), t("2026-04-02T00:00:00+02:00")));
    assert_eq!(p.trail[2].citation, "§ 188 Abs. 2 BGB");
}

#[test]
fn nrw_39_abs_1_the_announcement_day_is_the_berlin_calendar_day() {
    // 00:30 on 1 Feb in Berlin is still 31 Jan in UTC: the period counts from 1 Feb
    let p = objection_period(Land::Nw, t("2026-02-01T00:30:00+01:00"), PeriodEnd::Fixed);
    assert_eq!(p.last_day, d("2026-03-01"));
    let p = objection_period(Land::Nw, t("2026-01-31T23:30:00+01:00"), PeriodEnd::Fixed);
    assert_eq!(p.last_day, d("2026-02-28"));
}

#[test]
fn he_25_abs_1_two_weeks_after_the_announcement_end_on_the_same_weekday() {
    // announced Tue 2 Jun 2026 → Tue 16 Jun 2026, 24:00 CEST
    let p = objection_period(Land::He, t("2026-06-02T15:00:00+02:00"), PeriodEnd::Extended);
    assert_eq!((p.last_day, p.ends_at), (d("2026-06-16"), t("2026-06-17T00:00:00+02:00")));
    assert_eq!(p.trail[0].citation, "§ 34 Abs. 4 Satz 1 i. V. m. § 25 Abs. 1 KWG");
}

#[test]
fn nrw_39_abs_1_announcement_schedules_the_objection_timer_and_reports_its_end() {
    let (mut b, fx) = nrw_filled();
    // the announcement (3 Jun) and its timer: one month → 3 Jul 2026, 24:00
    let (timer, due_at) = fx
        .iter()
        .find_map(|e| match e {
            Effect::Schedule { timer, due_at } => Some((timer.clone(), *due_at)),
            _ => None,
        })
        .expect("objection timer");
    assert_eq!(timer, Timer::objection(CASE, 1));
    assert_eq!(timer.key(), "rat-1#objection#1");
    assert_eq!(due_at, t("2026-07-04T00:00:00+02:00"));
    let a = announcement(&fx, "successor");
    assert_eq!(a.context["objection_period_ends"]["last_day"], "2026-07-03");
    same_instant(&a.context["objection_period_ends"]["ends_at"], "2026-07-04T00:00:00+02:00");
    let rec = &b.cases[CASE].history.announcements[0];
    assert_eq!((rec.n, rec.kind.as_str()), (1, "successor"));
    assert_eq!(rec.objection.as_ref().map(|p| p.last_day), Some(d("2026-07-03")));

    // an early timer changes nothing
    let early = Command::ObjectionPeriodEnded { case: CASE.into(), n: 1 };
    assert!(run(&mut b, early, "2026-07-03T23:59:00+02:00").is_empty());
    // at the end: objection_period.ended; § 34 Abs. 5 KWG / no pending review known → review_pending false
    let fx = run(&mut b, Command::ObjectionPeriodEnded { case: CASE.into(), n: 1 }, "2026-07-04T00:00:00+02:00");
    assert_eq!(kinds(&fx), ["publish:objection_period.ended"]);
    let ended = event(&fx, "objection_period.ended");
    assert_eq!(ended["case"], CASE);
    assert_eq!(ended["announcement"], 1);
    assert_eq!(ended["kind"], "successor");
    assert_eq!(ended["last_day"], "2026-07-03");
    assert_eq!(ended["review_pending"], false);
    same_instant(&ended["ended_at"], "2026-07-04T00:00:00+02:00");
    same_instant(&ended["issued_at"], ACCEPTED);
    // the state does not change; a second firing reports nothing
    assert!(matches!(state(&b, CASE), CaseState::Filled { .. }));
    assert!(run(&mut b, Command::ObjectionPeriodEnded { case: CASE.into(), n: 1 }, LATER).is_empty());
}

/// One reading for both periods (docs/legal.md): the objection period is extended like the acceptance week
/// unless the body reads both as fixed; a period stored under the former fixed reading never ends before
/// the date the body's reading gives now.
#[test]
fn nrw_39_abs_1_objection_period_ended_never_before_the_extended_date() {
    // accepted (and announced) Thu 3 Sep 2026 → one month → Sat 3 Oct 2026 → extended to Mon 5 Oct
    let accepted = "2026-09-03T11:00:00+02:00";
    let filled = |readings: Value| {
        let mut s = nrw_snapshot();
        if !readings.is_null() {
            s["body"]["readings"] = readings;
        }
        let mut b = body_from(s);
        run(&mut b, vacancy("rat", "L1-02", "2026-09-01T10:00:00+02:00"), "2026-09-01T10:00:00+02:00");
        run(&mut b, sent(CASE, 1, "2026-09-01T10:00:00+02:00"), "2026-09-01T10:00:00+02:00");
        let fx = run(&mut b, declare(CASE, "L1-03", accepted), accepted);
        (b, fx)
    };
    let timer_due = |fx: &[Effect]| {
        fx.iter()
            .find_map(|e| match e {
                Effect::Schedule { timer, due_at } if *timer == Timer::objection(CASE, 1) => Some(*due_at),
                _ => None,
            })
            .expect("objection timer")
    };
    let ended = |b: &mut Council, at: &str| run(b, Command::ObjectionPeriodEnded { case: CASE.into(), n: 1 }, at);

    // default reading: extended, like the week
    let (mut b, fx) = filled(Value::Null);
    assert_eq!(timer_due(&fx), t("2026-10-06T00:00:00+02:00"));
    assert_eq!(announcement(&fx, "successor").context["objection_period_ends"]["last_day"], "2026-10-05");
    // a period stored under the former fixed reading (Sat 3 Oct): its timer fires on Sunday and is moved
    let fixed = objection_period(Land::Nw, t(accepted), PeriodEnd::Fixed);
    assert_eq!(fixed.last_day, d("2026-10-03"));
    b.cases.get_mut(CASE).expect("case").history.announcements[0].objection = Some(fixed);
    let fx = ended(&mut b, "2026-10-04T00:00:00+02:00");
    assert_eq!(kinds(&fx), ["schedule:rat-1#objection#1"]);
    assert_eq!(timer_due(&fx), t("2026-10-06T00:00:00+02:00"));
    assert!(ended(&mut b, "2026-10-05T23:59:00+02:00").is_empty());
    let fx = ended(&mut b, "2026-10-06T00:00:00+02:00");
    assert_eq!(kinds(&fx), ["publish:objection_period.ended"]);
    let e = event(&fx, "objection_period.ended");
    assert_eq!(e["last_day"], "2026-10-05");
    same_instant(&e["ended_at"], "2026-10-06T00:00:00+02:00");
    assert!(e["trail"].as_array().expect("trail").iter().any(|s| s["reason"] == "extended_weekend:Saturday"));

    // a body that reads both periods as fixed: Sat 3 Oct, and its week is not extended either
    let (mut b, fx) = filled(json!({ "period_end": "fixed" }));
    assert_eq!(timer_due(&fx), t("2026-10-04T00:00:00+02:00"));
    let fx = ended(&mut b, "2026-10-04T00:00:00+02:00");
    let e = event(&fx, "objection_period.ended");
    assert_eq!(e["last_day"], "2026-10-03");
    assert_eq!(e["trail"].as_array().and_then(|t| t.last()).map(|s| s["reason"].clone()), Some(json!("fixed_period")));
}

#[test]
fn he_25_abs_1_objection_timer_fires_its_command_and_reports_the_period() {
    let (mut b, fx) = he_filled();
    let timer = fx.iter().find_map(|e| match e {
        Effect::Schedule { timer, due_at } if *timer == Timer::objection(HCASE, 1) => Some((timer.clone(), *due_at)),
        _ => None,
    });
    // announced Tue 2 Jun 2026 → two weeks → Tue 16 Jun 2026, 24:00
    let (timer, due_at) = timer.expect("objection timer");
    assert_eq!(due_at, t("2026-06-17T00:00:00+02:00"));
    // the shell applies the command the timer stands for
    let fx = run(&mut b, timer.command(), "2026-06-17T00:00:05+02:00");
    assert_eq!(kinds(&fx), ["publish:objection_period.ended"]);
    assert_eq!(event(&fx, "objection_period.ended")["kind"], "successor");
}

#[test]
fn timers_carry_their_kind_and_rebuild_from_what_the_store_keeps() {
    let objection = Timer::objection("rat-1", 2);
    assert!(matches!(objection.command(), Command::ObjectionPeriodEnded { case, n: 2 } if case == "rat-1"));
    let deadline = Timer::deadline("rat-1", 3);
    assert!(matches!(deadline.command(), Command::DeadlineExpired { case, round: 3 } if case == "rat-1"));
    // the store keeps key, kind, case and number; the timer is rebuilt from them, never from the key
    for t in [objection, deadline, Timer::deadline("a#objection#1", 2)] {
        assert_eq!(Timer::from_parts(t.kind(), t.case(), t.number()), Some(t.clone()));
    }
    assert_eq!(Timer::deadline("a#objection#1", 2).key(), "a#objection#1#2");
    assert_eq!(Timer::from_parts("reminder", "rat-1", 1), None);
}

#[test]
fn he_34_abs_4_annulled_determination_reports_no_objection_period() {
    let (mut b, _) = he_filled();
    run(&mut b, review("hrat", HCASE, ReviewOutcome::Annulled, None, DECIDED, Some("council")), LATER);
    let fx = run(&mut b, Command::ObjectionPeriodEnded { case: HCASE.into(), n: 1 }, "2026-08-30T00:00:00+02:00");
    assert!(kinds(&fx).is_empty(), "the annulled determination's period is superseded: {:?}", kinds(&fx));
    // the review's announcement (n = 2) has no objection period (court action only); the new one (n = 3) has
    let anns = &b.cases[HCASE].history.announcements;
    assert_eq!(
        anns.iter().map(|a| (a.n, a.kind.as_str(), a.objection.is_some())).collect::<Vec<_>>(),
        [(1, "successor", true), (2, "review", false), (3, "successor", true)]
    );
    let fx = run(&mut b, Timer::objection(HCASE, 3).command(), "2026-08-30T00:00:00+02:00");
    assert_eq!(
        events(&fx, "objection_period.ended").iter().map(|e| e["announcement"].clone()).collect::<Vec<_>>(),
        [json!(3)]
    );
}

// ---------------------------------------------------------------------------------------------------------
// OParl 1.1: Membership and Organization validate against the schema files in tests/oparl

fn schema(name: &str) -> Value {
    let dir = format!("{}/tests/oparl", env!("CARGO_MANIFEST_DIR"));
    let mut s: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/{name}.json")).expect("schema")).expect("json");
    let overlay: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/oparl-1.1-overlay.json")).expect("overlay"))
            .expect("json");
    let o = &overlay[name];
    for r in o["required"].as_array().into_iter().flatten() {
        s["required"].as_array_mut().expect("required").push(r.clone());
    }
    for (k, v) in o["properties"].as_object().into_iter().flatten() {
        s["properties"][k] = v.clone();
    }
    s
}

/// A validator for the subset of JSON Schema the OParl files use. Returns the violations.
fn validate(schema: &Value, v: &Value, path: &str, errors: &mut Vec<String>) {
    if schema.get("$ref").is_some() {
        return; // other OParl files (Location) are not in tests/oparl; we never emit those properties
    }
    let ok = match schema["type"].as_str() {
        Some("string") => v.is_string(),
        Some("boolean") => v.is_boolean(),
        Some("integer") => v.is_i64() || v.is_u64(),
        Some("array") => v.is_array(),
        Some("object") => v.is_object(),
        None => true,
        Some(other) => panic!("unsupported type {other}"),
    };
    if !ok {
        errors.push(format!("{path}: expected {}, got {v}", schema["type"]));
        return;
    }
    if let (Some(p), Some(s)) = (schema["pattern"].as_str(), v.as_str()) {
        if !literal_pattern(p, s) {
            errors.push(format!("{path}: {s:?} does not match {p:?}"));
        }
    }
    if let (Some(f), Some(s)) = (schema["format"].as_str(), v.as_str()) {
        let valid = match f {
            "url" | "uri" => absolute_uri(s),
            "date" => NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok() && s.len() == 10,
            "date-time" => DateTime::parse_from_rfc3339(s).is_ok(),
            other => panic!("unsupported format {other}"),
        };
        if !valid {
            errors.push(format!("{path}: {s:?} is no {f}"));
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, x) in arr.iter().enumerate() {
            validate(items, x, &format!("{path}[{i}]"), errors);
        }
    }
    if let Some(obj) = v.as_object() {
        for r in schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
            if !obj.contains_key(r) {
                errors.push(format!("{path}: required property {r} missing"));
            }
        }
        for (k, sub) in schema["properties"].as_object().into_iter().flatten() {
            if let Some(x) = obj.get(k) {
                validate(sub, x, &format!("{path}.{k}"), errors);
            }
        }
    }
}

/// `^literal$` with `\.` escapes — the only pattern form the OParl files use.
fn literal_pattern(p: &str, s: &str) -> bool {
    let body = p.strip_prefix('^').expect("anchored pattern");
    let (body, exact) = match body.strip_suffix('$') {
        Some(b) => (b, true),
        None => (body, false),
    };
    let lit = body.replace("\\.", ".");
    assert!(!lit.contains(['\\', '*', '+', '?', '[', '(', '|']), "unsupported pattern {p}");
    if exact {
        s == lit
    } else {
        s.starts_with(&lit)
    }
}

fn absolute_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else { return false };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && !rest.is_empty()
        && !s.contains(char::is_whitespace)
}

fn assert_valid(name: &str, v: &Value) {
    let mut errors = vec![];
    validate(&schema(name), v, name, &mut errors);
    assert!(errors.is_empty(), "{name} invalid: {errors:#?}\n{v:#}");
}

#[test]
fn oparl_membership_and_organization_payloads_validate_against_the_schemas() {
    let mut payloads: Vec<Value> = vec![];
    // NRW: left (vacancy), joined (acceptance), left (review), seat left vacant
    let (mut b, fx) = nrw_filled();
    payloads.extend(events(&fx, "membership.changed").into_iter().cloned());
    let fx = run(&mut b, review("rat", CASE, ReviewOutcome::Amended, Some("L1-05"), DECIDED, None), LATER);
    payloads.extend(events(&fx, "membership.changed").into_iter().cloned());
    let mut v = body_from(nrw_snapshot());
    let fx = run(&mut v, vacancy("rat", "E1-01", OPENED), OPENED);
    payloads.extend(events(&fx, "membership.changed").into_iter().cloned());
    let vacant = event(&fx, "seat.left_vacant").clone();
    // Hessen: a barred successor (votingRight false), the proof (updated), and a review
    let mut s = he_snapshot("proportional");
    s["lists"][0]["candidates"][3]["facts"] = json!([{"type": "barred", "on": "2026-01-01", "reason": "Beamter"}]);
    let mut h = body_from(s);
    let fx = run(&mut h, vacancy("hrat", "A-02", HOPENED), HOPENED);
    payloads.extend(events(&fx, "membership.changed").into_iter().cloned());
    let proof = Command::Inbound(Inbound::BarCured(BarCuredReceived {
        body: "hrat".into(),
        case: HCASE.into(),
        candidate: "A-04".into(),
        proven_at: tz("2026-06-04T09:00:00+02:00"),
    }));
    run(&mut h, sent(HCASE, 1, HOPENED), HOPENED);
    let fx = run(&mut h, proof, "2026-06-04T09:00:00+02:00");
    payloads.extend(events(&fx, "membership.changed").into_iter().cloned());
    let fx = run(&mut h, review("hrat", HCASE, ReviewOutcome::Amended, Some("A-05"), DECIDED, Some("council")), LATER);
    payloads.extend(events(&fx, "membership.changed").into_iter().cloned());

    assert!(payloads.len() >= 8, "{}", payloads.len());
    for p in &payloads {
        assert_valid("Membership", &p["membership"]);
        assert_valid("Organization", &p["organization"]);
        let m = &p["membership"];
        assert_eq!(m["type"], "https://schema.oparl.org/1.1/Membership");
        assert_eq!(m["votingRight"], p["voting_right"]);
        assert_eq!(
            m["onBehalfOf"].as_str(),
            Some(
                format!("urn:nachfolge:{}:list:{}", p["body"].as_str().unwrap_or(""), p["list"].as_str().unwrap_or(""))
                    .as_str()
            )
        );
        let instant = |k: &str| DateTime::parse_from_rfc3339(m[k].as_str().unwrap_or_default()).expect("instant");
        assert!(instant("created") <= instant("modified"), "{m}");
        if p["change"] == "left" {
            assert!(m["endDate"].is_string(), "a left membership has an endDate: {m}");
        } else {
            assert!(m["endDate"].is_null(), "{m}");
        }
    }
    assert_valid("Organization", &vacant["organization"]);
    assert_eq!(vacant["organization"]["memberCount"], 9);
    assert_eq!(vacant["organization"]["type"], "https://schema.oparl.org/1.1/Organization");
    // the barred Hessen successor joins without voting right, gets it with the proof
    let he_joined = payloads.iter().find(|p| p["person"]["id"] == "A-04" && p["change"] == "joined").expect("joined");
    assert_eq!(he_joined["membership"]["votingRight"], false);
    let he_updated =
        payloads.iter().find(|p| p["person"]["id"] == "A-04" && p["change"] == "updated").expect("updated");
    assert_eq!(he_updated["membership"]["votingRight"], true);
    assert_eq!(he_updated["membership"]["id"], he_joined["membership"]["id"]);
}

#[test]
fn oparl_validator_rejects_what_the_schema_forbids() {
    let mut errors = vec![];
    let bad = json!({"id": "not a url", "type": "https://schema.oparl.org/1.0/Membership", "startDate": "01.02.2026",
        "votingRight": "yes", "created": "2026-01-01"});
    validate(&schema("Membership"), &bad, "m", &mut errors);
    assert_eq!(errors.len(), 6, "{errors:#?}"); // id, type, startDate, votingRight, created, modified missing
}

// ---------------------------------------------------------------------------------------------------------
// Nachrückerliste (`nachfolge succession-order`)

fn example(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))).expect("example")
}

#[test]
fn nrw_45_abs_2_succession_order_of_the_example_lists() {
    let v = nachfolge::offline::succession_order(&example("nrw-election.json"), t("2026-12-01T12:00:00+01:00"))
        .expect("order");
    let l1 = &v["lists"][0];
    assert_eq!(l1["list"], "L1");
    assert_eq!(l1["order"], json!(["L1-04", "L1-05", "L1-06", "L1-07"]));
    assert_eq!(
        l1["passed_over"],
        json!([
            {"candidate": "L1-01", "reason": "seated", "citation": "§ 45 Abs. 2 Satz 1 KWahlG NRW"},
            {"candidate": "L1-02", "reason": "seated", "citation": "§ 45 Abs. 2 Satz 1 KWahlG NRW"},
            {"candidate": "L1-03", "reason": "left_party", "citation": "§ 45 Abs. 3 Satz 1 KWahlG NRW"},
        ])
    );
    // L1-06 is named for L1-01 (district winner): priority; L1-07 for L1-02 (district candidate, entered by
    // list): no priority (§ 45 Abs. 4)
    assert_eq!(
        l1["substitutes"],
        json!([{"candidate": "L1-06", "substitute_for": "L1-01", "citation": "§ 45 Abs. 2 Satz 1 KWahlG NRW"}])
    );
    let notes: Vec<&str> = l1["notes"].as_array().expect("notes").iter().filter_map(|n| n["reason"].as_str()).collect();
    assert_eq!(notes, ["waiver_not_in_form", "substitute_without_priority"]);
    let e1 = &v["lists"][1];
    assert_eq!((e1["order"].clone(), e1["notes"][0]["reason"].clone()), (json!([]), json!("individual_candidate")));
}

#[test]
fn succession_order_agrees_with_decide() {
    // the head of the order is who `decide` determines, for a departed without a substitute
    let order = nachfolge::offline::succession_order(&example("nrw-election.json"), t("2026-07-01T12:00:00+02:00"))
        .expect("order");
    let decided =
        nachfolge::offline::decide(&example("nrw-election.json"), &example("nrw-vacancy-list-member.json"), None)
            .expect("decide");
    assert_eq!(decided["successor"], order["lists"][0]["order"][0]);
    let order = nachfolge::offline::succession_order(&example("he-election.json"), t("2026-10-15T12:00:00+02:00"))
        .expect("order");
    let decided =
        nachfolge::offline::decide(&example("he-election.json"), &example("he-vacancy.json"), None).expect("decide");
    assert_eq!(decided["successor"], order["lists"][0]["order"][0]);
}

#[test]
fn he_34_abs_1_succession_order_by_votes_then_list_order_and_lot_groups_in_majority_election() {
    let v = nachfolge::offline::succession_order(&example("he-election.json"), t("2026-12-01T12:00:00+01:00"))
        .expect("order");
    let w1 = &v["lists"][0];
    assert_eq!(w1["order"], json!(["W1-05", "W1-06"]), "990 votes each: list order");
    let reasons: Vec<(&str, &str)> = w1["passed_over"]
        .as_array()
        .expect("passed over")
        .iter()
        .map(|p| (p["candidate"].as_str().unwrap_or(""), p["reason"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(
        reasons,
        [("W1-01", "already_called"), ("W1-02", "already_called"), ("W1-03", "already_called"), ("W1-04", "waived")]
    );
    assert!(w1.get("lot_groups").is_none());
    // majority election: equal votes → lot (§ 34 Abs. 1a)
    let mut s: Value = serde_json::from_slice(&example("he-election.json")).expect("json");
    s["body"]["electoral_system"] = json!("majority");
    let v =
        nachfolge::offline::succession_order(&serde_json::to_vec(&s).expect("json"), t("2026-12-01T12:00:00+01:00"))
            .expect("order");
    assert_eq!(v["lists"][0]["lot_groups"], json!([["W1-05", "W1-06"]]));
    // invalid input names the field
    let err = nachfolge::offline::succession_order(b"{}", t("2026-12-01T12:00:00+01:00")).expect_err("invalid");
    assert!(err.starts_with("election: "), "{err}");
}
