//! The worker end to end, against the real RabbitMQ and PostgreSQL of this machine and an in-process
//! SMTP sink. Each test has its own database and its own exchange and queue names.
//!
//! Deadlines are tested with the worker's injectable clock (`Clock::advance`), never by sleeping a week.

mod support {
    pub mod app;
    pub mod child;
    pub mod smtp_sink;
}

use std::time::Duration;

use lapin::types::{AMQPValue, FieldTable};
use lapin::BasicProperties;
use serde_json::{json, Value};
use support::app::{example, App};
use support::smtp_sink::{Received, SinkMode};

fn today(app: &App) -> String {
    nachfolge::deadline::local_date(app.now()).to_string()
}

async fn register(app: &App, snapshot: Value) {
    let id = snapshot["body"]["id"].as_str().unwrap_or_default().to_owned();
    app.send("election.registered", snapshot).await;
    app.wait_event("body.registered", |e| e["data"]["body"] == id.as_str()).await;
}

/// NRW example with an e-mail address for every candidate.
fn nrw() -> Value {
    let mut s = example("nrw-election.json");
    for list in s["lists"].as_array_mut().into_iter().flatten() {
        for c in list["candidates"].as_array_mut().into_iter().flatten() {
            let id = c["id"].as_str().unwrap_or_default().to_lowercase();
            c["email"] = json!(format!("{id}@example.org"));
        }
    }
    s
}

fn vacancy(body: &str, member: &str, reason: &str, effective_at: &str) -> Value {
    json!({"body": body, "member": member, "reason": reason, "effective_at": effective_at})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nrw_45_abs_6_offer_service_acceptance_membership_and_announcement() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;

    let left = app.wait_event("membership.changed", |e| e["data"]["change"] == "left").await;
    assert_eq!(left["data"]["person"]["id"], "L1-01");
    assert_eq!(left["data"]["basis"], "vacancy");
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "L1-06", "the Ersatzbewerber of the district winner");
    assert_eq!(det["data"]["round"], 1);
    assert_eq!(det["subject"], "musterstadt-rat");
    let case = det["data"]["case"].as_str().expect("case id").to_owned();

    // the e-mail: German, text + html, Reply-To the returning officer, deterministic Message-ID
    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    let mail = &mails[0];
    assert_eq!(mail.rcpt_to, vec!["l1-06@example.org".to_owned()]);
    assert_eq!(mail.header("Reply-To").as_deref(), Some("wahlleitung@musterstadt.de"));
    let message_id = mail.header("Message-ID").expect("message id");
    assert!(mail.data.contains("text/plain") && mail.data.contains("text/html"));
    assert!(mail.data.contains("binnen einer Woche nach Zustellung"), "acceptance request in the mail");
    let notified = app.wait_event("successor.notified", |_| true).await;
    assert_eq!(notified["data"]["message_id"], message_id.as_str());
    assert_eq!(notified["data"]["candidate"], "L1-06");

    // service → deadline
    app.send(
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": det["data"]["successor"]["id"], "method": "certificate", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    assert_eq!(dl["data"]["served_on"], today(&app).as_str());
    assert!(!dl["data"]["trail"].as_array().expect("trail").is_empty());

    // acceptance → membership (the predecessor left earlier, so it starts on receipt)
    let received = app.now().to_rfc3339();
    app.send(
        "declaration.received",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-06", "kind": "accept", "received_at": received}),
    )
    .await;
    app.wait_event("declaration.recorded", |e| e["data"]["kind"] == "accept").await;
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["basis"], "acceptance");
    assert_eq!(joined["data"]["person"]["id"], "L1-06");
    assert_eq!(joined["data"]["voting_right"], true);
    assert_eq!(joined["data"]["membership"]["type"], "https://schema.oparl.org/1.1/Membership");
    let ann = app.wait_event("announcement.issued", |_| true).await;
    let text = ann["data"]["text"].as_str().expect("text");
    assert!(text.contains("Felix Fuchs") && text.contains("Rechtsbehelfsbelehrung"), "{text}");
    assert_eq!(ann["data"]["legal_basis"], "§ 45 Abs. 6 Satz 7 KWahlG NRW");

    // the audit log is gap-free and records commands and effects
    let db = app.db().await;
    let seqs: Vec<i64> = sqlx::query_scalar("SELECT seq FROM audit_log WHERE body_id = 'musterstadt-rat' ORDER BY seq")
        .fetch_all(&db)
        .await
        .expect("audit");
    assert!(seqs.len() > 8);
    assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nrw_45_abs_6_satz_4_silence_deemed_accepted_when_the_period_ends() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "resigned", "2026-05-04T10:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": det["data"]["successor"]["id"], "method": "certificate", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    let ends_at = dl["data"]["ends_at"].as_str().expect("ends_at").to_owned();

    // one day before the end nothing happens
    app.advance_to(support::app::period_end(&dl) - chrono::Duration::days(1));
    app.settle().await;
    assert!(app.events.of("membership.changed").iter().all(|e| e["data"]["change"] != "joined"));

    app.pass_period(&dl);
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["basis"], "deemed_acceptance");
    let at =
        chrono::DateTime::parse_from_rfc3339(joined["data"]["effective_at"].as_str().expect("t")).expect("rfc3339");
    assert_eq!(
        at,
        chrono::DateTime::parse_from_rfc3339(&ends_at).expect("rfc3339"),
        "deemed accepted at the end of the period"
    );

    // a late acceptance changes nothing
    app.send(
        "declaration.received",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-06", "kind": "accept", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    app.wait_event("declaration.rejected", |_| true).await;
    app.settle().await;
    assert_eq!(app.events.of("membership.changed").iter().filter(|e| e["data"]["change"] == "joined").count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nrw_45_abs_6_satz_5_reservation_is_refusal_next_round_and_refusal_irrevocable() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "resigned", "2026-05-04T10:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "declaration.received",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-06", "kind": "accept_with_reservation", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    let round2 = app.wait_event("succession.determined", |e| e["data"]["round"] == 2).await;
    // L1-03 left the party, L1-04's waiver by letter is not effective: L1-04 succeeds
    assert_eq!(round2["data"]["successor"]["id"], "L1-04");
    assert_eq!(round2["data"]["case"], case.as_str(), "the case id stays the same through every round");
    app.smtp.wait_for(2, Duration::from_secs(15)).await;
    // a later acceptance of the refusing substitute is rejected
    app.send(
        "declaration.received",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-06", "kind": "accept", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    let rej = app.wait_event("declaration.rejected", |_| true).await;
    assert_eq!(rej["data"]["reason"], "refusal_irrevocable");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nrw_barred_successor_without_proof_deemed_refusal_next_round() {
    let app = App::spawn().await;
    let mut s = nrw();
    s["lists"][0]["candidates"][5]["facts"] =
        json!([{"type": "barred", "on": "2026-01-01", "reason": "Beschäftigte der Stadtverwaltung"}]);
    register(&app, s).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "resigned", "2026-05-04T10:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["barred"], true);
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert!(mails[0].data.contains("unvereinbar"), "the proof request is in the mail");
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": det["data"]["successor"]["id"], "method": "certificate", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    app.send(
        "declaration.received",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-06", "kind": "accept", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    app.wait_event("declaration.recorded", |e| e["data"]["kind"] == "accept").await;
    app.pass_period(&dl);
    app.wait_event("declaration.recorded", |e| e["data"]["kind"] == "deemed_refusal").await;
    let round2 = app.wait_event("succession.determined", |e| e["data"]["round"] == 2).await;
    assert_eq!(round2["data"]["successor"]["id"], "L1-04");
    assert!(app.events.of("membership.changed").iter().all(|e| e["data"]["change"] != "joined"));
}

/// Hessen example with e-mail addresses and a barred successor.
fn hessen(barred: bool) -> Value {
    let mut s = example("he-election.json");
    for c in s["lists"][0]["candidates"].as_array_mut().into_iter().flatten() {
        let id = c["id"].as_str().unwrap_or_default().to_lowercase();
        c["email"] = json!(format!("{id}@example.org"));
    }
    if barred {
        s["lists"][0]["candidates"][4]["facts"] =
            json!([{"type": "barred", "on": "2026-01-01", "reason": "Beamtin der Stadt"}]);
    }
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn he_34_abs_3_membership_with_the_determination_and_announcement_at_once() {
    let app = App::spawn().await;
    register(&app, hessen(false)).await;
    app.send("vacancy.reported", vacancy("beispielstadt-stvv", "W1-02", "resigned", "2026-10-15T00:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "W1-05");
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["basis"], "determination");
    assert_eq!(joined["data"]["voting_right"], true);
    let ann = app.wait_event("announcement.issued", |_| true).await;
    assert!(ann["data"]["text"].as_str().expect("text").contains("§ 34"));
    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert!(mails[0].data.contains("Einer Erkl"), "no acceptance step in Hessen");
    // a declaration has no place in Hessen
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.send(
        "declaration.received",
        json!({"body": "beispielstadt-stvv", "case": case, "candidate": "W1-05", "kind": "refuse", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    let rej = app.wait_event("declaration.rejected", |_| true).await;
    assert_eq!(rej["data"]["reason"], "no_acceptance_procedure");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn he_23_abs_2_barred_without_proof_deemed_not_acquired_then_next_successor() {
    let app = App::spawn().await;
    register(&app, hessen(true)).await;
    app.send("vacancy.reported", vacancy("beispielstadt-stvv", "W1-02", "resigned", "2026-10-15T00:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["barred"], true);
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["voting_right"], false, "no rights until the bar is cured");
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "beispielstadt-stvv", "case": case, "candidate": det["data"]["successor"]["id"], "method": "acknowledgement", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    app.pass_period(&dl);
    let left = app
        .wait_event("membership.changed", |e| {
            e["data"]["change"] == "left" && e["data"]["basis"] == "deemed_not_acquired"
        })
        .await;
    assert_eq!(left["data"]["person"]["id"], "W1-05");
    assert_eq!(left["data"]["effective_at"], joined["data"]["effective_at"], "retroactive to the start");
    let round2 = app.wait_event("succession.determined", |e| e["data"]["round"] == 2).await;
    assert_eq!(round2["data"]["successor"]["id"], "W1-06");
    app.wait_event("announcement.issued", |e| e["data"]["kind"] == "not_acquired").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn he_23_abs_2_barred_successor_proves_in_time_full_rights_from_the_proof() {
    let app = App::spawn().await;
    register(&app, hessen(true)).await;
    app.send("vacancy.reported", vacancy("beispielstadt-stvv", "W1-02", "resigned", "2026-10-15T00:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "beispielstadt-stvv", "case": case, "candidate": det["data"]["successor"]["id"], "method": "acknowledgement", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    let proven = app.now().to_rfc3339();
    app.send(
        "bar.cured",
        json!({"body": "beispielstadt-stvv", "case": case, "candidate": "W1-05", "proven_at": proven}),
    )
    .await;
    let upd = app.wait_event("membership.changed", |e| e["data"]["change"] == "updated").await;
    assert_eq!(upd["data"]["basis"], "bar_cured");
    assert_eq!(upd["data"]["voting_right"], true);
    // the deadline timer was cancelled: nothing happens when the period ends
    app.pass_period(&dl);
    app.settle().await;
    assert!(app.events.of("membership.changed").iter().all(|e| e["data"]["basis"] != "deemed_not_acquired"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn he_34_abs_1a_majority_tie_lot_requested_and_recorded() {
    let app = App::spawn().await;
    let mut s = hessen(false);
    s["body"]["electoral_system"] = json!("majority");
    s["lists"][0]["candidates"][4]["facts"] = json!([]);
    register(&app, s).await;
    app.send("vacancy.reported", vacancy("beispielstadt-stvv", "W1-02", "resigned", "2026-10-15T00:00:00+02:00")).await;
    let lot = app.wait_event("lot.requested", |_| true).await;
    assert_eq!(lot["data"]["tied"], json!(["W1-05", "W1-06"]));
    let case = lot["data"]["case"].as_str().expect("case").to_owned();
    app.send(
        "lot.drawn",
        json!({"body": "beispielstadt-stvv", "case": case, "winner": "W1-06", "drawn_at": app.now().to_rfc3339(), "drawn_by": "Wahlleiter"}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "W1-06");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vacancy_individual_candidate_leaves_seat_vacant_size_reduced() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "E1-01", "lost_eligibility", "2026-07-01T00:00:00+02:00"))
        .await;
    let v = app.wait_event("seat.left_vacant", |_| true).await;
    assert_eq!(v["data"]["reason"], "individual_candidate");
    assert_eq!(v["data"]["statutory_size"], 43);
    let ann = app.wait_event("announcement.issued", |_| true).await;
    assert!(ann["data"]["text"].as_str().expect("text").contains("auf 43"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_delivery_has_one_effect_and_reused_id_with_other_data_is_rejected() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    let v = vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00");
    app.send_with_id("dup-1", "vacancy.reported", v.clone()).await;
    app.send_with_id("dup-1", "vacancy.reported", v).await;
    app.wait_event("succession.determined", |_| true).await;
    // same id, different data
    app.send_with_id(
        "dup-1",
        "vacancy.reported",
        vacancy("musterstadt-rat", "L1-02", "died", "2026-05-04T10:00:00+02:00"),
    )
    .await;
    let rejected = app.wait_event("message.rejected", |_| true).await;
    assert_eq!(rejected["data"]["message_id"], "dup-1");
    assert!(rejected["data"]["reason"].as_str().expect("reason").contains("already used for different data"));
    app.settle().await;
    assert_eq!(app.events.of("succession.determined").len(), 1);
    assert_eq!(app.smtp.messages().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_dead_lettered_with_reason_and_the_worker_goes_on() {
    let app = App::spawn().await;
    let ce = BasicProperties::default().with_content_type("application/cloudevents+json".into());
    app.send_raw("x", b"{not json", ce.clone()).await;
    app.send_raw("x", &[0xff, 0xfe, 0x00], ce.clone()).await;
    app.send_raw("x", b"hello", BasicProperties::default().with_content_type("text/plain".into())).await;
    app.send("mystery.happened", json!({"body": "musterstadt-rat"})).await;
    app.send("vacancy.reported", json!({"body": "musterstadt-rat", "member": 7})).await;
    // deeply nested JSON, an oversized message, a date out of range
    let nested = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    app.send_raw("x", nested.as_bytes(), ce.clone()).await;
    app.send_raw("x", &vec![b' '; app.config.worker.max_message_bytes + 1], ce.clone()).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "+275760-09-13T00:00:00Z")).await;
    let dead = app.wait_dead(8).await;
    let reasons: Vec<String> = dead.iter().map(|(_, r)| r.clone().unwrap_or_default()).collect();
    assert!(reasons.iter().any(|r| r.contains("invalid JSON")), "{reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("UTF-8")), "{reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("content type")), "{reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("unknown event type")), "{reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("member")), "{reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("recursion limit")), "{reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("too large")), "{reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("effective_at")), "{reasons:?}");
    app.wait_events("message.rejected", 8, &|_| true).await;
    // the next valid message is processed
    register(&app, nrw()).await;
}

/// A permanent error (here: an operator's template override with an unknown filter, so the NRW offer
/// cannot be rendered) must not stall the lane: the message is dead-lettered with an internal-error reason
/// after a bounded number of attempts, and the next message on the same lane is processed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn permanent_error_is_dead_lettered_and_the_lane_goes_on() {
    let dir = std::env::temp_dir().join(format!("nachfolge-templates-{}", support::app::unique()));
    std::fs::create_dir_all(dir.join("mail")).expect("template dir");
    std::fs::write(dir.join("mail/nrw_offer.txt"), "{{ successor.name | no_such_filter }}\n").expect("template");
    let app = App::spawn_with(|c| {
        c.templates.dir = Some(dir.clone());
        c.worker.lanes = 1; // every council on the one lane that the broken message would stall
    })
    .await;
    register(&app, nrw()).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-02", "resigned", "2026-06-30T23:59:59+02:00")).await;
    let dead = app.wait_dead(1).await;
    let reason = dead[0].1.clone().unwrap_or_default();
    assert!(reason.contains("internal error"), "{reason}");
    assert!(reason.contains("nrw_offer"), "the reason names the template: {reason}");
    let rejected = app.wait_event("message.rejected", |_| true).await;
    assert_eq!(rejected["data"]["type"], "vacancy.reported");
    // nothing of the refused command was written
    assert!(app.events.of("succession.determined").is_empty());
    // the lane goes on: a Hessen council (its own templates are intact) is decided
    register(&app, hessen(false)).await;
    app.send("vacancy.reported", vacancy("beispielstadt-stvv", "W1-02", "resigned", "2026-10-15T00:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "W1-05");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binary_mode_is_accepted() {
    let app = App::spawn().await;
    let mut headers = FieldTable::default();
    headers.insert("cloudEvents_id".into(), AMQPValue::LongString("bin-1".into()));
    headers.insert("cloudEvents_type".into(), AMQPValue::LongString("election.registered".into()));
    headers.insert("cloudEvents_specversion".into(), AMQPValue::LongString("1.0".into()));
    let props = BasicProperties::default().with_content_type("application/json".into()).with_headers(headers);
    app.send_raw("election.registered", &serde_json::to_vec(&nrw()).expect("json"), props).await;
    app.wait_event("body.registered", |_| true).await;
}

/// The relay reads the outbox again at once after a full page: a backlog of several pages
/// (`worker.outbox_batch`) goes out after one wake-up, not one page per poll interval (a minute here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relay_drains_a_backlog_of_several_pages_after_one_wake_up() {
    let app = App::spawn_with(|c| {
        c.worker.outbox_batch = 2;
        c.worker.poll_interval_ms = 60_000;
    })
    .await;
    register(&app, nrw()).await;
    // seven events waiting in the outbox (four pages with the vacancy's own events), written while the
    // relay sleeps
    let db = app.db().await;
    for i in 0..7 {
        let id = format!("backlog-{i}");
        let event = json!({"specversion": "1.0", "id": id, "source": "urn:test", "type": "test.backlog",
                           "time": "2026-12-01T12:00:00Z", "data": {"n": i}});
        sqlx::query("INSERT INTO outbox (event_id, type, event) VALUES ($1, 'test.backlog', $2::json)")
            .bind(&id)
            .bind(event.to_string())
            .execute(&db)
            .await
            .expect("outbox row");
    }
    // one command, one commit, one wake-up
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    let backlog = app.wait_events("test.backlog", 7, &|_| true).await;
    let mut ns: Vec<i64> = backlog.iter().filter_map(|e| e["data"]["n"].as_i64()).collect();
    ns.sort_unstable();
    assert_eq!(ns, (0..7).collect::<Vec<_>>());
    app.wait_event("succession.determined", |_| true).await;
    db.close().await;
}

/// Issue 26 point 5: the oldest outbox rows belong to a council in backoff (more than a page of them): the
/// relay neither spins over them nor starves, the later events of other councils go out at once, and the
/// waiting ones when their retry falls due on the worker's clock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relay_publishes_later_events_while_the_oldest_are_in_backoff() {
    let app = App::spawn_with(|c| {
        c.worker.outbox_batch = 2;
        c.worker.poll_interval_ms = 300;
    })
    .await;
    let db = app.db().await;
    let row = |id: String, body: &str, retry: chrono::DateTime<chrono::Utc>| {
        let event = json!({"specversion": "1.0", "id": id, "source": "urn:test", "type": "test.backlog",
                           "time": "2026-12-01T12:00:00Z", "data": {"id": id, "body": body}});
        sqlx::query(
            "INSERT INTO outbox (event_id, body_id, type, event, attempts, next_attempt_at)
             VALUES ($1, $2, 'test.backlog', $3::json, 3, $4)",
        )
        .bind(id)
        .bind(body.to_owned())
        .bind(event.to_string())
        .bind(retry)
        .execute(&db)
    };
    let later = app.now() + chrono::Duration::hours(1);
    // five pages' worth of the oldest rows wait for their retry (and one due row behind them in that body)
    for i in 0..10 {
        row(format!("stuck-{i}"), "stuck-rat", later).await.expect("outbox row");
    }
    row("stuck-due".into(), "stuck-rat", app.now()).await.expect("outbox row");
    for i in 0..3 {
        row(format!("free-{i}"), "free-rat", app.now()).await.expect("outbox row");
    }
    let free = app.wait_events("test.backlog", 3, &|e| e["data"]["body"] == "free-rat").await;
    assert_eq!(free.len(), 3);
    tokio::time::sleep(Duration::from_millis(600)).await;
    let early: Vec<Value> =
        app.events.of("test.backlog").into_iter().filter(|e| e["data"]["body"] == "stuck-rat").collect();
    assert!(early.is_empty(), "an event of a council in backoff went out early or overtook its own: {early:?}");
    // the relay is idle, not re-reading the same page: no attempt was counted meanwhile
    let attempts: i64 = sqlx::query_scalar("SELECT sum(attempts)::bigint FROM outbox WHERE body_id = 'stuck-rat'")
        .fetch_one(&db)
        .await
        .expect("attempts");
    assert_eq!(attempts, 33);
    // the retry falls due: all eleven, in order
    app.advance(chrono::Duration::hours(2));
    let stuck = app.wait_events("test.backlog", 11, &|e| e["data"]["body"] == "stuck-rat").await;
    let order: Vec<&str> = stuck.iter().filter_map(|e| e["data"]["id"].as_str()).collect();
    let mut want: Vec<String> = (0..10).map(|i| format!("stuck-{i}")).collect();
    want.push("stuck-due".into());
    assert_eq!(order, want);
    db.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vacancy_before_its_registration_is_retried_not_lost() {
    let app = App::spawn_with(|c| c.worker.unknown_retry_secs = 30).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    register(&app, nrw()).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "L1-06");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_body_is_rejected_after_the_retry_window() {
    let app = App::spawn_with(|c| c.worker.unknown_retry_secs = 1).await;
    app.send("vacancy.reported", vacancy("nowhere", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    let dead = app.wait_dead(1).await;
    assert!(dead[0].1.as_deref().unwrap_or_default().contains("unknown body"));
    app.wait_event("message.rejected", |_| true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_email_address_notification_failed_and_case_waits_for_service() {
    let app = App::spawn().await;
    register(&app, example("nrw-election.json")).await;
    // L1-02 leaves; L1-04 (no e-mail address) succeeds
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-02", "resigned", "2026-06-30T23:59:59+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "L1-04");
    let failed = app.wait_event("notification.failed", |_| true).await;
    assert_eq!(failed["data"]["reason"], "no e-mail address");
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.send(
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": det["data"]["successor"]["id"], "method": "registered_letter_posted", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    assert_ne!(dl["data"]["served_on"], today(&app).as_str(), "the fiction moves the service date");
}

/// Formerly `email_fiction_starts_the_deadline_when_the_mail_is_sent`: an e-mail is no formal service, so
/// sending it starts no period (the e-mail fiction was removed, docs/legal.md "Service fiction"); the period
/// starts with the certificate of service.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn email_sent_starts_no_deadline_the_certificate_of_service_does() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    app.wait_event("successor.notified", |_| true).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(app.events.of("deadline.set").is_empty(), "the e-mail alone started a period");
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.send(
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": det["data"]["successor"]["id"], "method": "certificate", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    assert_eq!(dl["data"]["served_on"], today(&app).as_str());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smtp_temporary_failure_is_retried_permanent_failure_reported() {
    let app = App::spawn().await;
    app.smtp.set_mode(SinkMode::TempFail);
    register(&app, nrw()).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    app.wait_event("succession.determined", |_| true).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(app.events.of("successor.notified").is_empty());
    app.smtp.set_mode(SinkMode::Accept);
    // the retry is scheduled with backoff on the worker's clock
    app.advance(chrono::Duration::minutes(10));
    app.wait_event("successor.notified", |_| true).await;

    app.smtp.set_mode(SinkMode::PermFail);
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-02", "died", "2026-05-04T10:00:00+02:00")).await;
    let failed = app.wait_event("notification.failed", |_| true).await;
    assert!(failed["data"]["reason"].as_str().expect("reason").contains("permanent"));
}

/// Issue 26 point 4: the councils `rat/1` and `rat 1` had one Message-ID for their first case
/// (`<rat_1-1.r1@…>`), and the second council's notice was dropped by `ON CONFLICT DO NOTHING`. Both
/// successors now get their notice, each with its own Message-ID, and a row that still collides is refused
/// loudly (migration 0009), never left out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn councils_whose_ids_differ_only_in_other_characters_each_get_their_notice() {
    let app = App::spawn().await;
    for id in ["rat/1", "rat 1"] {
        let mut s = nrw();
        s["body"]["id"] = json!(id);
        register(&app, s).await;
        app.send("vacancy.reported", vacancy(id, "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    }
    app.wait_events("successor.notified", 2, &|_| true).await;
    let got = app.smtp.wait_for(2, Duration::from_secs(10)).await;
    let mut ids: Vec<String> = got.iter().filter_map(|m| m.header("Message-ID")).collect();
    ids.sort();
    assert_eq!(ids, ["<rat=201-1.r1@nachfolge.invalid>", "<rat=2F1-1.r1@nachfolge.invalid>"]);
    let db = app.db().await;
    let queued: i64 = sqlx::query_scalar("SELECT count(*) FROM mail_outbox").fetch_one(&db).await.expect("count");
    assert_eq!(queued, 2);
    // the same Message-ID for another case is an error, not a row left out
    let collide = sqlx::query(
        "INSERT INTO mail_outbox (message_id, body_id, case_id, round, candidate, reply_to, subject, text_body,
             html_body, kind) SELECT message_id, 'other', 'other-1', round, candidate, reply_to, subject, text_body,
             html_body, kind FROM mail_outbox LIMIT 1 ON CONFLICT (message_id) DO NOTHING",
    )
    .execute(&db)
    .await;
    let err = collide.expect_err("a colliding mail was dropped silently");
    assert!(err.to_string().contains("queued for another case"), "{err}");
    // the same mail again (a command applied twice) is left out as before
    let again = sqlx::query(
        "INSERT INTO mail_outbox (message_id, body_id, case_id, round, candidate, reply_to, subject, text_body,
             html_body, kind) SELECT message_id, body_id, case_id, round, candidate, reply_to, subject, text_body,
             html_body, kind FROM mail_outbox ON CONFLICT (message_id) DO NOTHING",
    )
    .execute(&db)
    .await
    .expect("the repeated mail");
    assert_eq!(again.rows_affected(), 0);
    db.close().await;
}

/// Polls `sql` (one `bigint`) until it is at least `n` (20 s at most); returns the last value.
async fn wait_count(db: &sqlx::PgPool, sql: &str, n: i64) -> i64 {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let v: i64 = sqlx::query_scalar(sql).fetch_one(db).await.expect("count");
        if v >= n || std::time::Instant::now() > deadline {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Issue 26 point 1: the server accepts a mail but its result cannot be recorded (the write of the
/// `mail.sent` command fails: a trigger here, an aggregate this replica cannot read in a rolling deploy).
/// The mail is not sent again: recording is retried with a backoff on the worker's clock and, after
/// `RECORD_ATTEMPTS`, given up with an alert; once recording works the procedure learns of it. Each
/// Message-ID reaches the server once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mail_result_unrecordable_is_not_sent_again_recording_retried_then_given_up() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    let db = app.db().await;
    for sql in [
        "CREATE FUNCTION test_unrecordable() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'test: the mail result cannot be recorded'; END $$",
        "CREATE TRIGGER test_unrecordable BEFORE INSERT ON audit_log FOR EACH ROW
         WHEN (NEW.type = 'mail.sent') EXECUTE FUNCTION test_unrecordable()",
    ] {
        sqlx::query(sql).execute(&db).await.expect("trigger");
    }
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    let first = "SELECT coalesce(max(record_attempts), 0)::bigint FROM mail_outbox";
    assert_eq!(wait_count(&db, first, 1).await, 1);
    assert_eq!(app.smtp.messages().len(), 1);
    // the lease runs out, the backoff passes: recording is tried again, the mail is not sent again
    for n in 2..=3 {
        app.advance(chrono::Duration::minutes(1 << n));
        assert_eq!(wait_count(&db, first, n).await, n);
    }
    assert_eq!(app.smtp.messages().len(), 1, "the mail was sent again");
    assert!(app.events.of("successor.notified").is_empty());

    // a second mail reaches the limit: closed as sent, with the reason, never sent again
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-02", "died", "2026-05-04T10:00:00+02:00")).await;
    let second = "SELECT count(*) FROM mail_outbox WHERE record_attempts = 1";
    assert_eq!(wait_count(&db, second, 1).await, 1);
    sqlx::query("UPDATE mail_outbox SET record_attempts = 7, next_attempt_at = now() - interval '1 day' WHERE record_attempts = 1")
        .execute(&db)
        .await
        .expect("near the limit");
    let gave_up = "SELECT count(*) FROM mail_outbox WHERE record_attempts = 8 AND sent_at IS NOT NULL
                   AND last_error LIKE 'result not recorded: %'";
    assert_eq!(wait_count(&db, gave_up, 1).await, 1);

    // recording works again: the first mail's result reaches the procedure, still sent once
    sqlx::query("DROP TRIGGER test_unrecordable ON audit_log").execute(&db).await.expect("drop");
    app.advance(chrono::Duration::minutes(20));
    let notified = app.wait_event("successor.notified", |_| true).await;
    assert_eq!(notified["data"]["round"], 1);
    app.advance(chrono::Duration::hours(5));
    tokio::time::sleep(Duration::from_millis(800)).await;
    let got = app.smtp.messages();
    let ids: std::collections::BTreeSet<String> = got.iter().filter_map(|m| m.header("Message-ID")).collect();
    assert_eq!((got.len(), ids.len()), (2, 2), "each Message-ID once: {ids:?}");
    assert_eq!(app.events.of("successor.notified").len(), 1, "the given-up result is not recorded");
    let open: i64 = sqlx::query_scalar("SELECT count(*) FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL")
        .fetch_one(&db)
        .await
        .expect("open");
    assert_eq!(open, 0);
    db.close().await;
}

/// The worker's `/metrics` text.
async fn metrics_text(app: &App) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = app.worker.as_ref().and_then(|w| w.http_addr).expect("http addr");
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").await.expect("write");
    let mut out = String::new();
    s.read_to_string(&mut out).await.expect("read");
    out
}

/// Issue 26 point 1, timers: a deadline whose command fails without writing anything is no longer claimed
/// again every minute for ever: each attempt is counted and leased for a growing backoff (on the worker's
/// clock), and after `TIMER_ATTEMPTS` the timer is given up with an alert.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deadline_that_cannot_be_applied_is_retried_with_backoff_then_given_up() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.send(
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": det["data"]["successor"]["id"], "method": "certificate", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    let db = app.db().await;
    for sql in [
        "CREATE FUNCTION test_unappliable() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'test: the deadline cannot be applied'; END $$",
        "CREATE TRIGGER test_unappliable BEFORE INSERT ON audit_log FOR EACH ROW
         WHEN (NEW.type = 'deadline.expired') EXECUTE FUNCTION test_unappliable()",
    ] {
        sqlx::query(sql).execute(&db).await.expect("trigger");
    }
    app.pass_period(&dl);
    let attempts = "SELECT coalesce(max(attempts), 0)::bigint FROM timers";
    assert_eq!(wait_count(&db, attempts, 1).await, 1);
    // within the backoff (one minute, then two) nothing is tried again
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(wait_count(&db, attempts, 0).await, 1);
    app.advance(chrono::Duration::minutes(2));
    assert_eq!(wait_count(&db, attempts, 2).await, 2);
    // the limit: given up, never claimed again
    sqlx::query("UPDATE timers SET attempts = 7, leased_until = NULL WHERE attempts = 2")
        .execute(&db)
        .await
        .expect("limit");
    let failed = "SELECT count(*) FROM timers WHERE failed_at IS NOT NULL AND attempts = 8";
    assert_eq!(wait_count(&db, failed, 1).await, 1);
    sqlx::query("DROP TRIGGER test_unappliable ON audit_log").execute(&db).await.expect("drop");
    app.advance(chrono::Duration::hours(6));
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(wait_count(&db, attempts, 0).await, 8);
    let fired: i64 = sqlx::query_scalar("SELECT count(*) FROM timers WHERE fired_at IS NOT NULL")
        .fetch_one(&db)
        .await
        .expect("fired");
    assert_eq!(fired, 0, "a given-up timer fired");
    let metrics = metrics_text(&app).await;
    assert!(metrics.contains("nachfolge_timers_failed_total 1"), "{metrics}");
    db.close().await;
}

/// Issue 26 point 2: an SMTP server that holds back its answer to one message's DATA holds one slot of
/// `smtp.concurrency`, not every notification behind it: the other successors' notices arrive meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_slow_smtp_answer_holds_one_slot_the_other_notices_go_out_meanwhile() {
    let app = App::spawn_with(|c| c.smtp.concurrency = 2).await;
    register(&app, nrw()).await;
    for other in ["zweite-rat", "dritte-rat"] {
        let mut s = nrw();
        s["body"]["id"] = json!(other);
        for list in s["lists"].as_array_mut().into_iter().flatten() {
            for c in list["candidates"].as_array_mut().into_iter().flatten() {
                let id = c["id"].as_str().unwrap_or_default().to_lowercase();
                c["email"] = json!(format!("{id}.{other}@example.org"));
            }
        }
        register(&app, s).await;
    }
    // L1-01's successor is L1-06: the server answers his notice after four seconds
    app.smtp.set_slow_data(Some(("l1-06@", Duration::from_secs(4))));
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    assert_eq!(app.smtp.wait_held(Duration::from_secs(10)).await, 1, "the slow notice did not reach DATA");
    for other in ["zweite-rat", "dritte-rat"] {
        app.send("vacancy.reported", vacancy(other, "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    }
    let others = app.smtp.wait_for(2, Duration::from_secs(3)).await;
    assert_eq!(others.len(), 2, "the other notices waited behind the slow one");
    assert_eq!(app.smtp.held(), 1, "the slow answer is still held back");
    app.wait_events("successor.notified", 3, &|_| true).await;
    let got = app.smtp.messages();
    let ids: std::collections::BTreeSet<String> = got.iter().filter_map(|m| m.header("Message-ID")).collect();
    assert_eq!((got.len(), ids.len()), (3, 3), "{ids:?}");
}

/// Issue 26 point 3: two replicas share a backlog of mails (the server answers each after a second, so
/// both are busy at once): every mail is claimed with a lease of its own that covers its session, and each
/// Message-ID reaches the server once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_with_a_backlog_of_mails_send_each_once() {
    let app = App::spawn_with(|c| c.smtp.concurrency = 2).await;
    let second = nachfolge::worker::Worker::start(app.config.clone(), app.clock.clone()).await.expect("second worker");
    let councils: Vec<String> = (1..=6).map(|i| format!("rat-{i}")).collect();
    for id in &councils {
        let mut s = nrw();
        s["body"]["id"] = json!(id);
        register(&app, s).await;
    }
    app.smtp.set_slow_data(Some(("@example.org", Duration::from_secs(1))));
    for id in &councils {
        app.send("vacancy.reported", vacancy(id, "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    }
    app.wait_events("successor.notified", 6, &|_| true).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let got = app.smtp.messages();
    let ids: std::collections::BTreeSet<String> = got.iter().filter_map(|m| m.header("Message-ID")).collect();
    assert_eq!((got.len(), ids.len()), (6, 6), "{ids:?}");
    second.shutdown().await;
}

/// Issue 26 point 3: the answer after the data may take longer than a command (`smtp.timeout_secs`,
/// one second here) — up to `smtp.data_timeout_secs` — and longer than a mail's lease (the timeout plus
/// 10 s): the lease is renewed while the session runs, so a second replica does not claim the mail, and a
/// slow server that takes the message gets it once (before, one timeout of the whole session, here six
/// seconds, ran out and the mail went out again).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_answer_after_the_data_within_its_timeout_is_one_delivery() {
    let app = App::spawn_with(|c| c.smtp.timeout_secs = 1).await;
    let second = nachfolge::worker::Worker::start(app.config.clone(), app.clock.clone()).await.expect("second worker");
    register(&app, nrw()).await;
    app.smtp.set_slow_data(Some(("l1-06@", Duration::from_secs(13))));
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    app.wait_event("successor.notified", |_| true).await;
    app.advance(chrono::Duration::hours(1));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(app.smtp.messages().len(), 1);
    assert_eq!(app.smtp.held(), 0);
    second.shutdown().await;
}

/// A step of the worker's clock while a mail is in its SMTP session (an NTP step, a paused VM resumed) ends
/// the mail's lease, and the sender claims it again: this replica does not open a second session for a
/// Message-ID it is still sending, so the server gets it once (before, a clock a day ahead sent it twice).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_step_during_the_smtp_session_does_not_send_the_mail_twice() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    app.smtp.set_slow_data(Some(("l1-06@", Duration::from_secs(3))));
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    assert_eq!(app.smtp.wait_held(Duration::from_secs(10)).await, 1, "the notice did not reach DATA");
    // the lease ran out on the worker's clock while the server still holds the data back
    app.advance(chrono::Duration::days(1));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    app.wait_event("successor.notified", |_| true).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let got = app.smtp.messages();
    assert_eq!(got.len(), 1, "{:?}", got.iter().map(|m| m.header("Message-ID")).collect::<Vec<_>>());
    assert_eq!(app.smtp.held(), 0);
}

/// A mail's lease is reckoned on the database's clock (migration 0016): a second replica whose clock runs a day
/// ahead of the first's (a VM resumed, a broken NTP) finds the mail due on its own clock while the first is still
/// in the SMTP session, and does not take it — the server gets it once (before, the other replica sent it again
/// with the same Message-ID; the in-flight guard only knows its own replica's sessions).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_whose_clock_runs_ahead_does_not_take_a_mail_in_another_replicas_session() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    app.smtp.set_slow_data(Some(("l1-06@", Duration::from_secs(4))));
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    assert_eq!(app.smtp.wait_held(Duration::from_secs(10)).await, 1, "the notice did not reach DATA");
    // the other replica's clock: a day ahead of the first's
    let ahead = std::sync::Arc::new(nachfolge::worker::Clock::with_offset_secs(app.config.clock.offset_secs));
    ahead.advance(chrono::Duration::days(1));
    let second = nachfolge::worker::Worker::start(app.config.clone(), ahead).await.expect("second worker");
    app.wait_event("successor.notified", |_| true).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let got = app.smtp.messages();
    assert_eq!(got.len(), 1, "{:?}", got.iter().map(|m| m.header("Message-ID")).collect::<Vec<_>>());
    assert_eq!(app.smtp.held(), 0);
    second.shutdown().await;
}

/// Issue 26 point 3 ("Done when"): the server answers one notice's data only after longer than
/// `smtp.data_timeout_secs` (and delivers it anyway). Each command has its own timeout, the data's answer
/// the longer one; when that runs out the mail is tried again later, so that Message-ID reaches the server
/// twice — never more, and never again once its result is recorded — while the other notices arrive
/// meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn data_answered_after_the_timeout_at_most_twice_same_message_id_others_arrive_meanwhile() {
    let app = App::spawn_with(|c| {
        c.smtp.concurrency = 2;
        c.smtp.data_timeout_secs = 2;
    })
    .await;
    register(&app, nrw()).await;
    for other in ["zweite-rat", "dritte-rat"] {
        let mut s = nrw();
        s["body"]["id"] = json!(other);
        for list in s["lists"].as_array_mut().into_iter().flatten() {
            for c in list["candidates"].as_array_mut().into_iter().flatten() {
                let id = c["id"].as_str().unwrap_or_default().to_lowercase();
                c["email"] = json!(format!("{id}.{other}@example.org"));
            }
        }
        register(&app, s).await;
    }
    app.smtp.set_slow_data(Some(("l1-06@", Duration::from_secs(4))));
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    assert_eq!(app.smtp.wait_held(Duration::from_secs(10)).await, 1, "the slow notice did not reach DATA");
    for other in ["zweite-rat", "dritte-rat"] {
        app.send("vacancy.reported", vacancy(other, "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    }
    assert_eq!(app.smtp.wait_for(2, Duration::from_secs(3)).await.len(), 2, "the other notices waited");
    // the server stores the slow one after four seconds, the worker gave up waiting after two
    let first = app.smtp.wait_for(3, Duration::from_secs(8)).await;
    assert_eq!(first.len(), 3);
    app.smtp.set_slow_data(None);
    assert_eq!(app.events.of("successor.notified").len(), 2, "an unanswered mail counted as sent");
    // the retry (with backoff on the worker's clock) sends the same message again
    app.advance(chrono::Duration::minutes(1));
    app.wait_events("successor.notified", 3, &|_| true).await;
    app.advance(chrono::Duration::hours(2));
    tokio::time::sleep(Duration::from_millis(800)).await;
    let got = app.smtp.messages();
    let mut count: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for m in &got {
        *count.entry(m.header("Message-ID").unwrap_or_default()).or_default() += 1;
    }
    let slow: Vec<&Received> = got.iter().filter(|m| m.rcpt_to.iter().any(|r| r.starts_with("l1-06@"))).collect();
    assert_eq!(slow.len(), 2, "{count:?}");
    assert_eq!(slow[0].header("Message-ID"), slow[1].header("Message-ID"));
    assert_eq!(count.len(), 3, "{count:?}");
    assert!(count.values().all(|n| *n <= 2), "{count:?}");
    assert_eq!(app.events.of("successor.notified").len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deadline_survives_a_restart_and_fires_once() {
    let mut app = App::spawn().await;
    register(&app, nrw()).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": det["data"]["successor"]["id"], "method": "certificate", "on": today(&app)}),
    )
    .await;
    app.wait_event("deadline.set", |_| true).await;
    // the worker is down while the deadline passes
    if let Some(w) = app.worker.take() {
        w.shutdown().await;
    }
    app.advance(chrono::Duration::days(12));
    app.restart().await;
    app.wait_event("membership.changed", |e| e["data"]["basis"] == "deemed_acceptance").await;
    app.restart().await;
    app.settle().await;
    assert_eq!(app.events.of("membership.changed").iter().filter(|e| e["data"]["change"] == "joined").count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_ready_and_metrics_endpoints() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    let addr = app.worker.as_ref().and_then(|w| w.http_addr).expect("http addr");
    let get = |path: &str| {
        let path = path.to_owned();
        async move {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
            s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes()).await.expect("write");
            let mut out = String::new();
            s.read_to_string(&mut out).await.expect("read");
            out
        }
    };
    assert!(get("/healthz").await.starts_with("HTTP/1.1 200"));
    let ready = get("/readyz").await;
    assert!(ready.starts_with("HTTP/1.1 200"), "{ready}");
    // the council's data is served by the console, behind sign-in (tests/console/pages.rs)
    assert!(get("/bodies/musterstadt-rat").await.starts_with("HTTP/1.1 404"));
    assert!(get("/bodies/musterstadt-rat/succession-order").await.starts_with("HTTP/1.1 404"));
    let metrics = get("/metrics").await;
    assert!(
        metrics.contains("nachfolge_messages_total{outcome=\"applied\",type=\"election.registered\"} 1"),
        "{metrics}"
    );
    // the vacancy finds the council cached at its sequence: an optimistic write, counted within one round
    // of the stats loop (every 5 s)
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    app.wait_event("succession.determined", |_| true).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let metrics = get("/metrics").await;
        let committed = metrics
            .lines()
            .find_map(|l| l.strip_prefix("nachfolge_optimistic_writes_total{outcome=\"committed\"} "))
            .and_then(|n| n.trim().parse::<u64>().ok());
        if committed.is_some_and(|n| n >= 1) {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no optimistic write counted: {metrics}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_between_and_during_steps_loses_nothing_and_doubles_nothing() {
    let smtp = support::smtp_sink::SmtpSink::start().await;
    let suffix = support::app::unique();
    let config = support::app::test_config(&suffix, &smtp.url());
    let (_conn, ch, events, _dead) = support::app::observe(&config).await;
    let _cleanup = support::app::Cleanup(config.clone());
    let log = std::env::temp_dir().join(format!("nachfolge-crash-{suffix}.log"));
    let mut child = support::child::Child::new(config.clone(), log.clone());
    let publish = |ty: &'static str, id: String, data: Value| {
        let ch = ch.clone();
        let exchange = config.amqp.commands_exchange.clone();
        async move {
            let ev = json!({"specversion": "1.0", "id": id, "source": "urn:test", "type": ty, "data": data});
            let props = BasicProperties::default()
                .with_content_type("application/cloudevents+json".into())
                .with_delivery_mode(2);
            ch.basic_publish(
                exchange.as_str().into(),
                ty.into(),
                Default::default(),
                &serde_json::to_vec(&ev).expect("json"),
                props,
            )
            .await
            .expect("publish")
            .await
            .expect("confirm");
        }
    };
    let wait = |ty: &'static str, n: usize| {
        let events = events.clone();
        async move {
            for _ in 0..1200 {
                let mut ids: Vec<String> =
                    events.of(ty).iter().map(|e| e["id"].as_str().unwrap_or_default().to_owned()).collect();
                ids.sort();
                ids.dedup();
                if ids.len() >= n {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            panic!("timed out waiting for {n} × {ty}");
        }
    };
    let mut kills = 0;
    // 1. registration; killed while it may be in flight
    child.start().await;
    publish("election.registered", "c-1".into(), nrw()).await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    child.kill().await;
    kills += 1;
    child.start().await;
    wait("body.registered", 1).await;
    // 2. the vacancy, killed right after it is published, twice
    publish("vacancy.reported", "c-2".into(), vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00"))
        .await;
    for delay in [50u64, 400] {
        tokio::time::sleep(Duration::from_millis(delay)).await;
        child.kill().await;
        kills += 1;
        child.start().await;
    }
    wait("succession.determined", 1).await;
    wait("successor.notified", 1).await;
    let case = events.of("succession.determined")[0]["data"]["case"].as_str().expect("case").to_owned();
    // 3. service; duplicate delivery of the same message across a kill
    let today = nachfolge::deadline::local_date(support::app::test_now()).to_string();
    let successor = events.of("succession.determined")[0]["data"]["successor"]["id"].clone();
    let served =
        json!({"body": "musterstadt-rat", "case": case, "candidate": successor, "method": "certificate", "on": today});
    publish("notification.served", "c-3".into(), served.clone()).await;
    child.kill().await;
    kills += 1;
    publish("notification.served", "c-3".into(), served).await;
    child.start().await;
    wait("deadline.set", 1).await;
    // 4. the worker is down while the deadline passes; it fires once when the worker comes back
    child.kill().await;
    kills += 1;
    child.offset_secs += 12 * 86_400;
    child.start().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    child.kill().await;
    kills += 1;
    child.start().await;
    wait("membership.changed", 2).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    child.kill().await;

    // invariants: one effect per step (events deduplicated by id), unique ids, one mail per round
    let count = |ty: &str| {
        let mut ids: Vec<String> =
            events.of(ty).iter().map(|e| e["id"].as_str().unwrap_or_default().to_owned()).collect();
        ids.sort();
        ids.dedup();
        ids.len()
    };
    assert!(kills >= 6);
    assert_eq!(count("body.registered"), 1);
    assert_eq!(count("succession.determined"), 1);
    assert_eq!(count("successor.notified"), 1);
    assert_eq!(count("deadline.set"), 1);
    let joined: Vec<Value> =
        events.of("membership.changed").into_iter().filter(|e| e["data"]["change"] == "joined").collect();
    assert!(!joined.is_empty(), "the deadline fired after the restart");
    assert!(joined.iter().all(|e| e["id"] == joined[0]["id"]), "membership starts once");
    assert_eq!(joined[0]["data"]["basis"], "deemed_acceptance");
    let mails = smtp.messages();
    let ids: std::collections::BTreeSet<String> = mails.iter().filter_map(|m| m.header("Message-ID")).collect();
    // one notification per round and one period notice per service (a re-send after a lost 250 reuses its
    // Message-ID; the service delivered twice is applied once)
    let notices = ids.iter().filter(|id| id.contains(".period-notice.")).count();
    assert_eq!((ids.len() - notices, notices), (1, 1), "{ids:?}");
    // the audit log is gap-free
    let db = sqlx::PgPool::connect(&config.database.url).await.expect("db");
    let seqs: Vec<i64> = sqlx::query_scalar("SELECT seq FROM audit_log WHERE body_id = 'musterstadt-rat' ORDER BY seq")
        .fetch_all(&db)
        .await
        .expect("audit");
    assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>());
    let fired: i64 = sqlx::query_scalar("SELECT count(*) FROM timers WHERE fired_at IS NOT NULL")
        .fetch_one(&db)
        .await
        .expect("timers");
    assert_eq!(fired, 1, "the deadline fired exactly once");
    // privacy: the worker's logs name no person, address or e-mail address of the test data
    let logs = std::fs::read_to_string(&log).expect("worker log");
    assert!(logs.contains("applied"), "the log is the worker's");
    let snapshot = nrw();
    let mut personal: Vec<String> =
        vec![snapshot["body"]["returning_officer"]["name"].as_str().unwrap_or_default().to_owned()];
    for list in snapshot["lists"].as_array().into_iter().flatten() {
        for c in list["candidates"].as_array().into_iter().flatten() {
            for f in ["given_name", "family_name", "email", "postal_address"] {
                if let Some(v) = c[f].as_str() {
                    personal.push(v.to_owned());
                }
            }
        }
    }
    personal.push("wahlleitung@musterstadt.de".into());
    personal.push("Rathausplatz".into());
    for p in personal.iter().filter(|p| p.len() > 2) {
        assert!(!logs.contains(p.as_str()), "personal data {p:?} in the worker's log");
    }
    let _ = std::fs::remove_file(log);
}

// ---------------------------------------------------------------------------------------------------------
// Review decisions and objection periods (§ 45 Abs. 6 Satz 8 KWahlG NRW; § 34 Abs. 4–6, § 25 KWG)

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nrw_45_abs_6_satz_8_review_amended_end_to_end_and_council_decision_refused() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-02", "resigned", "2026-05-04T10:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    assert_eq!(det["data"]["successor"]["id"], "L1-04");
    app.wait_event("successor.notified", |_| true).await;
    let accept = json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-04", "kind": "accept", "received_at": app.now().to_rfc3339()});
    app.send("declaration.received", accept).await;
    app.wait_event("announcement.issued", |e| e["data"]["kind"] == "successor").await;

    // the returning officer's decision on an objection: Emma Engel instead of David Dietrich
    let decided_at = app.now().to_rfc3339();
    // unanfechtbar the same day (`final_on`; every party waived the Klage)
    let today = nachfolge::calendar::local_date(app.now()).to_string();
    let amended = json!({"body": "musterstadt-rat", "case": case, "outcome": "amended", "successor": "L1-05", "decided_at": decided_at, "decided_by": "Wahlleitung", "final": true, "final_on": today});
    app.send("review.decided", amended).await;
    let left = app.wait_event("membership.changed", |e| e["data"]["basis"] == "review").await;
    assert_eq!((left["data"]["person"]["id"].as_str(), left["data"]["change"].as_str()), (Some("L1-04"), Some("left")));
    assert_eq!(left["data"]["membership"]["type"], "https://schema.oparl.org/1.1/Membership");
    assert!(left["data"]["membership"]["endDate"].is_string());
    let det2 = app.wait_event("succession.determined", |e| e["data"]["round"] == 2).await;
    assert_eq!(det2["data"]["successor"]["id"], "L1-05");
    let ann = app.wait_event("announcement.issued", |e| e["data"]["kind"] == "review").await;
    let text = ann["data"]["text"].as_str().expect("text");
    // a final decision: no Klage any more (issue #12)
    assert!(
        text.contains("Emma Engel") && text.contains("dahin abgeändert") && text.contains("unanfechtbar"),
        "{text}"
    );
    assert!(!text.contains("§ 41 KWahlG"), "{text}");
    assert_eq!(ann["data"]["facts"]["review"]["outcome"], "amended");
    // the acceptance procedure again: a second e-mail, to Emma Engel
    let mails = app.smtp.wait_for(2, Duration::from_secs(15)).await;
    assert!(mails.iter().any(|m| m.rcpt_to == vec!["l1-05@example.org".to_owned()]));

    // a council decision is refused in NRW: dead-lettered with the reason
    let by_council = json!({"body": "musterstadt-rat", "case": case, "outcome": "confirmed", "decided_at": app.now().to_rfc3339(), "decided_by": "council", "final": true, "final_on": today});
    app.send("review.decided", by_council).await;
    let dead = app.wait_dead(1).await;
    assert!(dead[0].1.as_deref().unwrap_or_default().contains("decided_by"), "{:?}", dead[0].1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn he_34_abs_4_review_annulled_then_objection_period_of_the_new_determination_ends() {
    let app = App::spawn().await;
    register(&app, hessen(false)).await;
    app.send("vacancy.reported", vacancy("beispielstadt-stvv", "W1-02", "resigned", "2026-10-15T00:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    assert_eq!(det["data"]["successor"]["id"], "W1-05");
    app.wait_event("announcement.issued", |e| e["data"]["kind"] == "successor").await;

    // objection upheld by the council: Mia Maurer had left the voter group; recorded, then annulled
    let fact =
        json!({"body": "beispielstadt-stvv", "candidate": "W1-05", "fact": {"type": "left_party", "on": "2026-09-01"}});
    app.send("candidate.fact_recorded", fact).await;
    let today = nachfolge::calendar::local_date(app.now()).to_string();
    let annulled = json!({"body": "beispielstadt-stvv", "case": case, "outcome": "annulled", "decided_at": app.now().to_rfc3339(), "decided_by": "council", "final": true, "final_on": today});
    app.send("review.decided", annulled).await;
    let left = app.wait_event("membership.changed", |e| e["data"]["basis"] == "review").await;
    assert_eq!(left["data"]["person"]["id"], "W1-05");
    let det2 = app.wait_event("succession.determined", |e| e["data"]["round"] == 2).await;
    assert_eq!(det2["data"]["successor"]["id"], "W1-06");
    app.wait_event("membership.changed", |e| e["data"]["person"]["id"] == "W1-06" && e["data"]["change"] == "joined")
        .await;
    let review = app.wait_event("announcement.issued", |e| e["data"]["kind"] == "review").await;
    assert!(review["data"]["text"].as_str().expect("text").contains("§ 34 Abs. 6 KWG"));
    let anns = app.wait_events("announcement.issued", 3, &|_| true).await;
    assert_eq!(anns.len(), 3);

    // two weeks later (§ 25 Abs. 1 KWG) — moved by up to four days when it ends on a weekend or holiday
    // (Easter: Good Friday to Easter Monday), so three weeks on: only the new determination's period is reported
    app.advance(chrono::Duration::days(21));
    let ended = app.wait_event("objection_period.ended", |_| true).await;
    assert_eq!(ended["data"]["case"], case.as_str());
    assert_eq!(ended["data"]["announcement"], 3);
    assert_eq!(ended["data"]["review_pending"], false);
    app.settle().await;
    assert_eq!(app.events.of("objection_period.ended").len(), 1, "the annulled determination's period is superseded");
}

/// Rheinland-Pfalz example (R1-04 and R1-05 have e-mail addresses).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rp_45_kwg_ersatzperson_by_votes_served_silence_is_acceptance_membership_and_announcement() {
    let app = App::spawn().await;
    register(&app, example("rp-election.json")).await;
    app.send("vacancy.reported", vacancy("beispielhausen-rat", "R1-02", "resigned", "2026-05-04T10:00:00+02:00")).await;

    // § 45 Abs. 2 KWG: the most votes among the not-yet-called; R1-04 and R1-05 tie, the order of nomination
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "R1-04");
    let trail = det["data"]["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["reason"] == "most_votes_list_order" && s["citation"] == "§ 45 Abs. 2 Satz 3 KWG"));
    let case = det["data"]["case"].as_str().expect("case").to_owned();

    // § 45 Abs. 5 i. V. m. § 44 KWG: the request to declare within a week after service
    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(mails[0].rcpt_to, vec!["dieter.doerr@example.org".to_owned()]);
    assert!(mails[0].data.contains("Ersatzperson"), "the RP offer");
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "beispielhausen-rat", "case": case, "candidate": "R1-04", "method": "certificate", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    let ends_at = dl["data"]["ends_at"].as_str().expect("ends_at").to_owned();

    // § 44 Abs. 2 Satz 1 KWG: no declaration → the election counts as accepted when the week ends
    app.advance_to(support::app::period_end(&dl) - chrono::Duration::days(1));
    app.settle().await;
    assert!(app.events.of("membership.changed").iter().all(|e| e["data"]["change"] != "joined"));
    app.pass_period(&dl);
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["basis"], "deemed_acceptance");
    assert_eq!(joined["data"]["person"]["id"], "R1-04");
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(joined["data"]["effective_at"].as_str().expect("t")).expect("rfc3339"),
        chrono::DateTime::parse_from_rfc3339(&ends_at).expect("rfc3339"),
    );
    // § 66 Abs. 3 Satz 1 KWO: the name of the Ersatzperson is announced, with the Widerspruch
    let ann = app.wait_event("announcement.issued", |_| true).await;
    assert_eq!(ann["data"]["legal_basis"], "§ 66 Abs. 3 KWO");
    let text = ann["data"]["text"].as_str().expect("text");
    assert!(text.contains("Dieter Dörr") && text.contains("§ 44 Abs. 2 Satz 1 KWG"), "{text}");
    assert!(text.contains("Widerspruch erhoben werden"), "{text}");
}

/// Saarland example (BP-N-03 has an e-mail address): § 57 Abs. 1 KWO, the Wahlleitung confirms (§ 44 KWG not
/// read), § 43 KWG with § 57 Abs. 4 KWO: a week after service, silence is acceptance.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sl_57_kwo_bereichsliste_ersatzperson_confirmed_by_the_wahlleitung_silence_is_acceptance() {
    let app = App::spawn().await;
    register(&app, example("sl-election.json")).await;
    app.send(
        "vacancy.reported",
        vacancy("musterweiler-gemeinderat", "BP-N-01", "resigned", "2026-05-04T10:00:00+02:00"),
    )
    .await;

    // § 57 Abs. 1 Satz 1 KWO: the next Mandatsanwärter of her Bereichsliste; BP-N-02 refused earlier (§ 43 Satz 4)
    let p = app.wait_event("succession.proposed", |_| true).await;
    assert_eq!(p["data"]["successor"]["id"], "BP-N-03");
    let trail = p["data"]["trail"].as_array().expect("trail");
    assert!(trail.iter().all(|s| !s["citation"].as_str().unwrap_or("").contains("§ 44")), "{trail:?}");
    let case = p["data"]["case"].as_str().expect("case").to_owned();
    app.settle().await;
    assert!(app.smtp.messages().is_empty(), "nothing goes out before the Wahlleitung confirms");

    app.send(
        "determination.confirmed",
        json!({"body": "musterweiler-gemeinderat", "case": case, "round": 1, "confirmed_by": "Gemeindewahlleiterin", "confirmed_at": app.now().to_rfc3339()}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "BP-N-03");
    let (dl, notice, _) = serve_and_take_the_period_notice(&app, &det, "certificate").await;
    assert_eq!(notice.rcpt_to, vec!["gisela.gruen@example.org".to_owned()]);
    let ends_at = dl["data"]["ends_at"].as_str().expect("ends_at").to_owned();

    // § 43 Satz 2 KWG: no declaration → the election counts as accepted when the week ends
    app.advance_to(support::app::period_end(&dl) - chrono::Duration::days(1));
    app.settle().await;
    assert!(app.events.of("membership.changed").iter().all(|e| e["data"]["change"] != "joined"));
    app.pass_period(&dl);
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["basis"], "deemed_acceptance");
    assert_eq!(joined["data"]["person"]["id"], "BP-N-03");
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(joined["data"]["effective_at"].as_str().expect("t")).expect("rfc3339"),
        chrono::DateTime::parse_from_rfc3339(&ends_at).expect("rfc3339"),
    );
    let ann = app.wait_event("announcement.issued", |_| true).await;
    assert_eq!(ann["data"]["legal_basis"], "§ 57 Abs. 1 Satz 1 KWO");
    let text = ann["data"]["text"].as_str().expect("text");
    assert!(text.contains("Gisela Grün") && text.contains("§ 43 Satz 2 KWG"), "{text}");
    assert!(text.contains("Widerspruch erhoben werden") && !text.contains("§ 44"), "{text}");
}

/// Niedersachsen example (N1-05 and N1-07 have e-mail addresses).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ni_44_nkwg_ersatzperson_by_personal_votes_served_silence_is_acceptance_membership_and_announcement() {
    let app = App::spawn().await;
    register(&app, example("ni-election.json")).await;
    app.send("vacancy.reported", vacancy("musterfeld-rat", "N1-02", "resigned", "2026-11-30T10:00:00+01:00")).await;

    // § 44 Abs. 1 i. V. m. § 38 Abs. 2 NKWG: the most votes among the not elected; N1-04 passed over, his
    // party told the Wahlleitung in writing before the seat fell vacant (§ 44 Abs. 2)
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "N1-05");
    let trail = det["data"]["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["candidate"] == "N1-04" && s["reason"] == "left_party_notified"));
    assert!(trail
        .iter()
        .any(|s| s["reason"] == "most_votes" && s["citation"] == "§ 44 Abs. 1 i. V. m. § 38 Abs. 2 Satz 1 und 2 NKWG"));
    let case = det["data"]["case"].as_str().expect("case").to_owned();

    // § 77 Abs. 1 NKWO, § 40 Abs. 1 NKWG: the served notification, a week to declare
    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(mails[0].rcpt_to, vec!["eva.ehlers@example.org".to_owned()]);
    assert!(mails[0].data.contains("Ersatzperson"), "the NI offer");
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "musterfeld-rat", "case": case, "candidate": "N1-05", "method": "certificate", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    let ends_at = dl["data"]["ends_at"].as_str().expect("ends_at").to_owned();

    // § 40 Abs. 1 Satz 4 NKWG: no declaration → accepted with the beginning of the day after the period
    app.advance_to(support::app::period_end(&dl) - chrono::Duration::days(1));
    app.settle().await;
    assert!(app.events.of("membership.changed").iter().all(|e| e["data"]["change"] != "joined"));
    app.pass_period(&dl);
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["basis"], "deemed_acceptance");
    assert_eq!(joined["data"]["person"]["id"], "N1-05");
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(joined["data"]["effective_at"].as_str().expect("t")).expect("rfc3339"),
        chrono::DateTime::parse_from_rfc3339(&ends_at).expect("rfc3339"),
    );
    // § 77 Abs. 1 Satz 3 NKWO: the Sitzübergang is announced, with the Einspruch
    let ann = app.wait_event("announcement.issued", |_| true).await;
    assert_eq!(ann["data"]["legal_basis"], "§ 77 Abs. 1 Satz 3 NKWO");
    let text = ann["data"]["text"].as_str().expect("text");
    assert!(text.contains("Eva Ehlers") && text.contains("§ 40 Abs. 1 Satz 4 NKWG"), "{text}");
    assert!(text.contains("Einspruch erhoben werden"), "{text}");
}

/// Sachsen-Anhalt example (S1-06 and S1-07 have e-mail addresses).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn st_47_kwg_lsa_naechst_festgestellter_bewerber_served_silence_is_acceptance_membership_and_announcement() {
    let app = App::spawn().await;
    register(&app, example("st-election.json")).await;
    app.send("vacancy.reported", vacancy("musterstedt-stadtrat", "S1-02", "resigned", "2026-05-04T10:00:00+02:00"))
        .await;

    // § 41 Abs. 2 Satz 1 KWG LSA: the most votes; S1-03 left the party, notified before the vacancy (§ 47 Abs. 1
    // Satz 2); S1-06 and S1-07 tie, the order on the Wahlvorschlag decides
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "S1-06");
    let trail = det["data"]["trail"].as_array().expect("trail");
    assert!(trail
        .iter()
        .any(|s| s["reason"] == "left_party_notified" && s["citation"] == "§ 47 Abs. 1 Satz 2 KWG LSA"));
    assert!(trail
        .iter()
        .any(|s| s["reason"] == "most_votes_list_order" && s["citation"] == "§ 41 Abs. 2 Satz 1 Halbsatz 2 KWG LSA"));
    let case = det["data"]["case"].as_str().expect("case").to_owned();

    // § 75 Abs. 1 KWO LSA i. V. m. § 43 Abs. 1 KWG LSA: the request to declare within a week
    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(mails[0].rcpt_to, vec!["franziska.fiedler@example.org".to_owned()]);
    assert!(mails[0].data.contains("KWG LSA"), "the ST offer");
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "musterstedt-stadtrat", "case": case, "candidate": "S1-06", "method": "certificate", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    let ends_at = dl["data"]["ends_at"].as_str().expect("ends_at").to_owned();

    // § 43 Abs. 1 Satz 2 KWG LSA: no declaration → accepted with the start of the next day
    app.advance_to(support::app::period_end(&dl) - chrono::Duration::days(1));
    app.settle().await;
    assert!(app.events.of("membership.changed").iter().all(|e| e["data"]["change"] != "joined"));
    app.pass_period(&dl);
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["basis"], "deemed_acceptance");
    assert_eq!(joined["data"]["person"]["id"], "S1-06");
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(joined["data"]["effective_at"].as_str().expect("t")).expect("rfc3339"),
        chrono::DateTime::parse_from_rfc3339(&ends_at).expect("rfc3339"),
    );
    // § 75 Abs. 1 Satz 3 KWO LSA: announced to whom the seat passes, with the Wahleinspruch (§ 50 Abs. 3)
    let ann = app.wait_event("announcement.issued", |_| true).await;
    assert_eq!(ann["data"]["legal_basis"], "§ 75 Abs. 1 Satz 3 KWO LSA");
    let text = ann["data"]["text"].as_str().expect("text");
    assert!(text.contains("Franziska Fiedler") && text.contains("§ 43 Abs. 1 Satz 2 KWG LSA"), "{text}");
    assert!(text.contains("Wahleinspruch erhoben werden"), "{text}");
}

/// Thüringen example (T1-04 and T1-05 have e-mail addresses).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn th_23_thuerkwg_nachruecker_accepts_with_a_reservation_the_acceptance_stands() {
    let app = App::spawn().await;
    register(&app, example("th-election.json")).await;
    app.send("vacancy.reported", vacancy("musterbach-stadtrat", "T1-02", "resigned", "2026-05-04T10:00:00+02:00"))
        .await;

    // § 23 Abs. 2 ThürKWG: by votes; T1-03 refused before; leaving the party has no effect in Thüringen
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "T1-04");
    let trail = det["data"]["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["reason"] == "left_party_no_effect" && s["citation"] == "§ 23 Abs. 2 ThürKWG"));
    let case = det["data"]["case"].as_str().expect("case").to_owned();

    // § 23 Abs. 4 i. V. m. § 29 ThürKWG: the request to declare within a week after service
    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(mails[0].rcpt_to, vec!["wiebke.wolf@example.org".to_owned()]);
    assert!(mails[0].data.contains("vorbehaltlos"), "the TH offer: a reservation is void");
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "musterbach-stadtrat", "case": case, "candidate": "T1-04", "method": "certificate", "on": today(&app)}),
    )
    .await;
    app.wait_event("deadline.set", |_| true).await;

    // § 29 Satz 3 ThürKWG: the reservation is void, the acceptance stands
    app.send(
        "declaration.received",
        json!({"body": "musterbach-stadtrat", "case": case, "candidate": "T1-04", "kind": "accept_with_reservation", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["basis"], "acceptance");
    assert_eq!(joined["data"]["person"]["id"], "T1-04");
    let ann = app.wait_event("announcement.issued", |_| true).await;
    assert_eq!(ann["data"]["legal_basis"], "§ 23 Abs. 4 ThürKWG");
    let text = ann["data"]["text"].as_str().expect("text");
    assert!(text.contains("Wiebke Wolf") && text.contains("Anfechtung erheben"), "{text}");
    app.settle().await;
    assert_eq!(app.events.of("succession.determined").len(), 1, "no next round after a void reservation");
}

/// Schleswig-Holstein example (K1-05 and K1-06 have e-mail addresses).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sh_44_gkwg_next_on_the_list_accepts_membership_only_when_the_week_ends() {
    let app = App::spawn().await;
    register(&app, example("sh-election.json")).await;
    app.send(
        "vacancy.reported",
        vacancy("musterwik-gemeindevertretung", "K1-01", "resigned", "2026-05-04T10:00:00+02:00"),
    )
    .await;

    // § 44 Abs. 1 GKWG: the next on the list of the directly elected member's party; K1-02 and K1-03 hold seats,
    // K1-04 refused before, K1-05 left the party (no effect)
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "K1-05");
    let trail = det["data"]["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["reason"] == "left_party_no_effect" && s["citation"] == "§ 44 Abs. 1 GKWG"));
    let case = det["data"]["case"].as_str().expect("case").to_owned();

    // § 37 Satz 1 GKWG: member when the week ends unless refused in writing
    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(mails[0].rcpt_to, vec!["elke.ehlers@example.org".to_owned()]);
    assert!(mails[0].data.contains("GKWG"), "the SH offer");
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "musterwik-gemeindevertretung", "case": case, "candidate": "K1-05", "method": "certificate", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    let ends_at = dl["data"]["ends_at"].as_str().expect("ends_at").to_owned();

    // an acceptance within the week is recorded and changes nothing
    app.send(
        "declaration.received",
        json!({"body": "musterwik-gemeindevertretung", "case": case, "candidate": "K1-05", "kind": "accept", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    app.wait_event("declaration.recorded", |_| true).await;
    app.settle().await;
    assert!(app.events.of("membership.changed").iter().all(|e| e["data"]["change"] != "joined"));
    app.pass_period(&dl);
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["basis"], "deemed_acceptance");
    assert_eq!(joined["data"]["person"]["id"], "K1-05");
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(joined["data"]["effective_at"].as_str().expect("t")).expect("rfc3339"),
        chrono::DateTime::parse_from_rfc3339(&ends_at).expect("rfc3339"),
    );
    // § 44 Abs. 3 Satz 1 GKWG: announced, with the Einspruch of § 38
    let ann = app.wait_event("announcement.issued", |_| true).await;
    assert_eq!(ann["data"]["legal_basis"], "§ 44 Abs. 3 Satz 1 GKWG");
    let text = ann["data"]["text"].as_str().expect("text");
    assert!(text.contains("Elke Ehlers") && text.contains("Einspruch erheben"), "{text}");
}

/// Bayern example (determination by the council, `confirm`; B1-04 has an e-mail address).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn by_art_48_glkrwg_council_decides_listennachfolger_accepts_within_two_weeks() {
    let app = App::spawn().await;
    register(&app, example("by-election.json")).await;
    app.send("vacancy.reported", vacancy("musterberg-gemeinderat", "B1-02", "resigned", "2026-11-02T10:00:00+01:00"))
        .await;

    // Art. 37 Abs. 1 GLKrWG: by votes; B1-05 cannot take office (Art. 31 Abs. 3 GO) and stays on the list
    let p = app.wait_event("succession.proposed", |_| true).await;
    assert_eq!(p["data"]["successor"]["id"], "B1-04");
    let case = p["data"]["case"].as_str().expect("case").to_owned();

    // Art. 48 Abs. 3 Satz 2 GLKrWG: the council decides on the Nachrücken
    app.send(
        "determination.confirmed",
        json!({"body": "musterberg-gemeinderat", "case": case, "round": 1, "confirmed_by": "Gemeinderat Musterberg, Beschluss", "confirmed_at": app.now().to_rfc3339()}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "B1-04");

    // Art. 47 Abs. 2 GLKrWG: two weeks, silence is refusal
    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(mails[0].rcpt_to, vec!["dominik.dorn@example.org".to_owned()]);
    assert!(mails[0].data.contains("binnen zwei Wochen"), "the BY Verständigung");
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "musterberg-gemeinderat", "case": case, "candidate": "B1-04", "method": "acknowledgement", "on": today(&app)}),
    )
    .await;
    let ds = app.wait_event("deadline.set", |_| true).await;
    let trail = ds["data"]["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["reason"] == "period_two_weeks"), "{trail:?}");

    app.send(
        "declaration.received",
        json!({"body": "musterberg-gemeinderat", "case": case, "candidate": "B1-04", "kind": "accept", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(
        (joined["data"]["basis"].as_str(), joined["data"]["person"]["id"].as_str()),
        (Some("acceptance"), Some("B1-04"))
    );
    let ann = app.wait_event("announcement.issued", |_| true).await;
    assert_eq!(ann["data"]["legal_basis"], "Art. 48 Abs. 3 Satz 2 GLKrWG");
    let text = ann["data"]["text"].as_str().expect("text");
    assert!(text.contains("Dominik Dorn") && text.contains("Bayerischen Verwaltungsgericht"), "{text}");
}

/// Baden-Württemberg example (B1-04 and B1-05 have e-mail addresses): § 31 Abs. 2 GemO, the council resolves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bw_gemo_31_abs_2_ersatzperson_moves_up_on_the_council_resolution_nothing_announced() {
    let app = App::spawn().await;
    register(&app, example("bw-election.json")).await;
    app.send("vacancy.reported", vacancy("musterhausen-gemeinderat", "B1-02", "resigned", "2026-05-04T10:00:00+02:00"))
        .await;

    // § 26 Abs. 1 Satz 3 KomWG: by votes; B1-03 has a Hinderungsgrund (§ 29 GemO); the case waits for the council
    let p = app.wait_event("succession.proposed", |_| true).await;
    assert_eq!(p["data"]["successor"]["id"], "B1-04");
    let case = p["data"]["case"].as_str().expect("case").to_owned();

    // § 16 Abs. 2 GemO: the council accepts B1-04's wichtiger Grund; B1-05 is proposed
    let refusal = json!({"body": "musterhausen-gemeinderat", "candidate": "B1-04", "fact": {"type": "declined", "on": today(&app)}});
    app.send("candidate.fact_recorded", refusal).await;
    let p2 = app.wait_event("succession.proposed", |e| e["data"]["round"] == 2).await;
    assert_eq!(p2["data"]["successor"]["id"], "B1-05");

    // § 29 Abs. 5 GemO: no Hinderungsgrund — the resolution makes her a member, the Bürgermeister writes to her
    let resolution = json!({"body": "musterhausen-gemeinderat", "case": case, "round": 2, "confirmed_by": "Gemeinderat Musterhausen", "confirmed_at": app.now().to_rfc3339()});
    app.send("determination.confirmed", resolution).await;
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(
        (joined["data"]["person"]["id"].as_str(), joined["data"]["basis"].as_str()),
        (Some("B1-05"), Some("determination"))
    );
    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(mails[0].rcpt_to, vec!["eva.eberle@example.org".to_owned()]);
    assert!(mails[0].data.contains("Einer Erkl"), "the BW letter: no declaration");
    app.settle().await;
    assert!(app.events.of("announcement.issued").is_empty(), "nothing is announced in Baden-Württemberg");
    assert!(app.events.of("deadline.set").is_empty(), "no period runs");
}

/// Sachsen example (S1-04 and S1-05 have e-mail addresses): § 34 Abs. 2 SächsGemO, the council resolves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sn_saechsgemo_34_abs_2_ersatzperson_moves_up_on_the_council_resolution_nothing_announced() {
    let app = App::spawn().await;
    register(&app, example("sn-election.json")).await;
    app.send("vacancy.reported", vacancy("musterwitz-gemeinderat", "S1-02", "resigned", "2026-05-04T10:00:00+02:00"))
        .await;

    // § 21 Abs. 2 KomWG: by votes; S1-03 is no longer wählbar (§ 31 SächsGemO); equal votes: order of nomination
    let p = app.wait_event("succession.proposed", |_| true).await;
    assert_eq!(p["data"]["successor"]["id"], "S1-04");
    let case = p["data"]["case"].as_str().expect("case").to_owned();

    // § 32 Abs. 3, § 18 Abs. 2 SächsGemO: no Hinderungsgrund, no wichtiger Grund — the resolution makes her a member
    let resolution = json!({"body": "musterwitz-gemeinderat", "case": case, "round": 1, "confirmed_by": "Gemeinderat Musterwitz", "confirmed_at": app.now().to_rfc3339()});
    app.send("determination.confirmed", resolution).await;
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["person"]["id"], "S1-04");
    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(mails[0].rcpt_to, vec!["vera.voigt@example.org".to_owned()]);
    app.settle().await;
    assert!(app.events.of("announcement.issued").is_empty(), "nothing is announced in Sachsen");
    assert!(app.events.of("deadline.set").is_empty(), "no period runs");
}

/// Mecklenburg-Vorpommern example (M1-05 and M1-06 have e-mail addresses).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mv_lkwg_46_next_ersatzperson_reservation_unbeachtlich_member_when_the_week_ends() {
    let app = App::spawn().await;
    register(&app, example("mv-election.json")).await;
    app.send(
        "vacancy.reported",
        vacancy("musterhagen-stadtvertretung", "M1-01", "resigned", "2026-11-20T10:00:00+01:00"),
    )
    .await;

    // § 46 Abs. 2 Satz 1 i. V. m. § 33 Abs. 2 LKWG M-V: by votes; M1-05 and M1-06 tie, the Wahlvorschlag's order
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "M1-05");
    let trail = det["data"]["trail"].as_array().expect("trail");
    assert!(trail
        .iter()
        .any(|s| s["reason"] == "left_party_notified" && s["citation"] == "§ 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V"));
    let case = det["data"]["case"].as_str().expect("case").to_owned();

    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(mails[0].rcpt_to, vec!["quirin.quast@example.org".to_owned()]);
    assert!(mails[0].data.contains("LKWG M-V"), "the MV offer");
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "musterhagen-stadtvertretung", "case": case, "candidate": "M1-05", "method": "certificate", "on": today(&app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    let ends_at = dl["data"]["ends_at"].as_str().expect("ends_at").to_owned();

    // § 34 Satz 3 LKWG M-V: a declaration with a reservation is unbeachtlich — recorded, nobody joins yet
    app.send(
        "declaration.received",
        json!({"body": "musterhagen-stadtvertretung", "case": case, "candidate": "M1-05", "kind": "accept_with_reservation", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    app.wait_event("declaration.recorded", |_| true).await;
    app.settle().await;
    assert!(app.events.of("membership.changed").iter().all(|e| e["data"]["change"] != "joined"));
    app.pass_period(&dl);
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["basis"], "deemed_acceptance");
    assert_eq!(joined["data"]["person"]["id"], "M1-05");
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(joined["data"]["effective_at"].as_str().expect("t")).expect("rfc3339"),
        chrono::DateTime::parse_from_rfc3339(&ends_at).expect("rfc3339"),
    );
    let ann = app.wait_event("announcement.issued", |_| true).await;
    assert_eq!(ann["data"]["legal_basis"], "§ 46 Abs. 5 Satz 2 LKWG M-V, § 46 Abs. 3 LKWO M-V");
    let text = ann["data"]["text"].as_str().expect("text");
    assert!(text.contains("Quirin Quast") && text.contains("Einspruch"), "{text}");
    app.settle().await;
    assert_eq!(app.events.of("succession.determined").len(), 1, "no next round after a reservation");
}

/// The NRW example moved back to the term 2020–2025, as body `id`: L1-03 was ineligible for three months in
/// 2023 and is eligible again; L1-04 has no fact (docs/legal.md, "Fassungen of § 45 KWahlG NRW").
fn nrw_term_2020(id: &str) -> Value {
    let mut s = nrw();
    s["body"]["id"] = json!(id);
    s["body"]["term"] = json!({"start": "2020-11-01", "end": "2025-10-31"});
    for c in s["lists"]
        .as_array_mut()
        .into_iter()
        .flatten()
        .flat_map(|l| l["candidates"].as_array_mut().map(|v| v.iter_mut()).into_iter().flatten())
    {
        if c["seat"].is_object() {
            c["seat"]["since"] = json!("2020-11-01");
        }
        c["facts"] = match c["id"].as_str() {
            Some("L1-03") => json!([{"type": "ineligible", "from": "2023-01-01", "until": "2023-03-31"}]),
            _ => json!([]),
        };
    }
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nw_45_abs_2_satz_2_fassung_the_real_worker_determines_under_the_text_in_force_on_its_clock() {
    // the worker's clock (clock.offset_secs) stands on 30 July 2024, 09:00 in Berlin: the day before the
    // amended § 45 KWahlG NRW took effect (`land/nw.rs`, FASSUNGEN)
    let target = chrono::DateTime::parse_from_rfc3339("2024-07-30T09:00:00+02:00").expect("instant");
    let offset = (target.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_seconds();
    let app = App::spawn_with(|c| c.clock.offset_secs = offset).await;
    assert_eq!(today(&app), "2024-07-30");
    register(&app, nrw_term_2020("rat-a")).await;
    register(&app, nrw_term_2020("rat-b")).await;

    // before the amendment: no "nicht ununterbrochen" clause in Abs. 2 Satz 2 — L1-03 succeeds L1-02
    app.send("vacancy.reported", vacancy("rat-a", "L1-02", "resigned", "2024-07-20T10:00:00+02:00")).await;
    let before = app.wait_event("succession.determined", |e| e["subject"] == "rat-a").await;
    assert_eq!(before["data"]["successor"]["id"], "L1-03");
    let trail = before["data"]["trail"].as_array().expect("trail");
    let step = trail.iter().find(|s| s["reason"] == "fassung_applied").expect("Fassung step");
    assert_eq!(step["detail"], "kwahlg-nrw-45-before-2024");
    assert_eq!(step["citation"], "§ 45 KWahlG NRW i. d. F. vor Art. 1 G v. 5.7.2024 (GV. NRW. S. 444)");
    assert!(trail.iter().all(|s| s["reason"] != "not_continuously_eligible"));

    // the offer to L1-03 is out before the clock jumps: a day's jump would end the lease of a mail still in
    // its SMTP session, and another slot would send it again (at-least-once, the same Message-ID)
    app.wait_event("successor.notified", |e| e["subject"] == "rat-a").await;

    // one day later on the same clock: the amended text passes L1-03 over — the same council, L1-04 succeeds
    app.advance(chrono::Duration::days(1));
    assert_eq!(today(&app), "2024-07-31");
    app.send("vacancy.reported", vacancy("rat-b", "L1-02", "resigned", "2024-07-20T10:00:00+02:00")).await;
    let after = app.wait_event("succession.determined", |e| e["subject"] == "rat-b").await;
    assert_eq!(after["data"]["successor"]["id"], "L1-04");
    let trail = after["data"]["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["candidate"] == "L1-03"
        && s["reason"] == "not_continuously_eligible"
        && s["citation"] == "§ 45 Abs. 2 Satz 2 KWahlG NRW"));
    let step = trail.iter().find(|s| s["reason"] == "fassung_applied").expect("Fassung step");
    assert_eq!(step["detail"], "kwahlg-nrw-45-2024");
    assert_eq!(step["citation"], "§ 45 KWahlG NRW i. d. F. d. Art. 1 G v. 5.7.2024 (GV. NRW. S. 444)");

    // the offers went to the two different successors
    let mails = app.smtp.wait_for(2, Duration::from_secs(15)).await;
    let mut to: Vec<String> = mails.iter().flat_map(|m| m.rcpt_to.clone()).collect();
    to.sort();
    assert_eq!(to, ["l1-03@example.org", "l1-04@example.org"]);
}

/// Brandenburg example (B1-05 and B1-06 have e-mail addresses); B1-05 is employed by the city (§ 12 BbgKWahlG).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bb_bbgkwahlg_60_barred_ersatzperson_proves_the_termination_declaration_accepts_end_due_in_four_months() {
    let app = App::spawn().await;
    register(&app, example("bb-election.json")).await;
    let bar = json!({"body": "musterwalde-svv", "candidate": "B1-05", "fact": {"type": "barred", "on": "2026-09-01", "reason": "Beschäftigte der Stadt Musterwalde"}});
    app.send("candidate.fact_recorded", bar).await;
    app.settle().await;
    app.send("vacancy.reported", vacancy("musterwalde-svv", "B1-01", "resigned", "2026-11-20T10:00:00+01:00")).await;

    // § 60 Abs. 2, 3 BbgKWahlG: by votes; B1-05 and B1-06 tie, the Wahlvorschlag's order; B1-04's party told the
    // Wahlleiterin of her exit before the vacancy (§ 60 Abs. 4)
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "B1-05");
    assert_eq!(det["data"]["barred"], true);
    let trail = det["data"]["trail"].as_array().expect("trail");
    assert!(trail.iter().any(|s| s["reason"] == "left_party_notified" && s["citation"] == "§ 60 Abs. 4 BbgKWahlG"));
    let case = det["data"]["case"].as_str().expect("case").to_owned();

    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(mails[0].rcpt_to, vec!["frieda.fiedler@example.org".to_owned()]);
    assert!(mails[0].data.contains("BbgKWahlG"), "the BB offer");
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "notification.served",
        json!({"body": "musterwalde-svv", "case": case, "candidate": "B1-05", "method": "certificate", "on": today(&app)}),
    )
    .await;
    app.wait_event("deadline.set", |_| true).await;

    // § 51 Abs. 2 Satz 1, 4: the proof that she gave notice, then the acceptance — she is a member
    app.send(
        "bar.cured",
        json!({"body": "musterwalde-svv", "case": case, "candidate": "B1-05", "proven_at": app.now().to_rfc3339()}),
    )
    .await;
    app.settle().await;
    assert!(app.events.of("membership.changed").iter().all(|e| e["data"]["change"] != "joined"));
    app.send(
        "declaration.received",
        json!({"body": "musterwalde-svv", "case": case, "candidate": "B1-05", "kind": "accept", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["basis"], "acceptance");
    assert_eq!(joined["data"]["person"]["id"], "B1-05");
    // § 51 Abs. 2 Satz 3: the end of the employment is due four months after the acceptance (extended where
    // that day is no working day)
    let accepted = chrono::NaiveDate::parse_from_str(&today(&app), "%Y-%m-%d").expect("today");
    let due = accepted.checked_add_months(chrono::Months::new(4)).expect("date");
    let proof = &joined["data"]["bar_end_proof"];
    let last_day =
        chrono::NaiveDate::parse_from_str(proof["last_day"].as_str().expect("last_day"), "%Y-%m-%d").expect("date");
    assert!(last_day >= due && last_day <= due + chrono::Days::new(4), "{proof}");
    assert!(proof["trail"]
        .as_array()
        .expect("trail")
        .iter()
        .any(|s| s["citation"] == "§ 51 Abs. 2 Satz 3, § 59 Abs. 1 Nr. 6 BbgKWahlG"));
    // § 80 Abs. 1 Satz 2 BbgKWahlV: announced, with the Wahleinspruch
    let ann = app.wait_event("announcement.issued", |_| true).await;
    assert_eq!(ann["data"]["legal_basis"], "§ 60 Abs. 7 BbgKWahlG, § 80 Abs. 1 Satz 2, Abs. 3 BbgKWahlV");
    let text = ann["data"]["text"].as_str().expect("text");
    assert!(text.contains("Frieda Fiedler") && text.contains("Einspruch"), "{text}");
}

/// Baden-Württemberg Kreistag (`body.kind = kreistag`, examples/bw-kreistag-election.json): § 25 Abs. 2 LKrO, the
/// Kreistag resolves; the trail cites the Landkreisordnung (docs/legal.md, "Kreistage").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bw_lkro_25_abs_2_kreistag_ersatzperson_moves_up_on_the_kreistag_resolution() {
    let app = App::spawn().await;
    register(&app, example("bw-kreistag-election.json")).await;
    app.send("vacancy.reported", vacancy("musterkreis-kreistag", "B1-02", "resigned", "2026-05-04T10:00:00+02:00"))
        .await;

    // § 24 LKrO: B1-03 has a Hinderungsgrund; the case waits for the Kreistag
    let p = app.wait_event("succession.proposed", |_| true).await;
    assert_eq!(p["data"]["successor"]["id"], "B1-04");
    let cited = p["data"]["trail"].to_string();
    assert!(cited.contains("§ 24 Abs. 1, 2 LKrO") && cited.contains("§ 25 Abs. 2 Satz 1 LKrO"), "{cited}");
    assert!(!cited.contains("GemO"), "{cited}");
    let case = p["data"]["case"].as_str().expect("case").to_owned();

    let resolution = json!({"body": "musterkreis-kreistag", "case": case, "round": 1, "confirmed_by": "Kreistag Musterkreis", "confirmed_at": app.now().to_rfc3339()});
    app.send("determination.confirmed", resolution).await;
    let joined = app.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert_eq!(joined["data"]["person"]["id"], "B1-04");
    let mails = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(mails[0].rcpt_to, vec!["dieter.dorn@example.org".to_owned()]);
    app.settle().await;
    assert!(app.events.of("announcement.issued").is_empty(), "nothing is announced in Baden-Württemberg");
}

// ---------------------------------------------------------------------------------------------------------
// The period notice after service (Fristmitteilung) with the period as a calendar attachment

/// Headers (lower case, unfolded) and decoded body of the first MIME part of `data` whose Content-Type is
/// `ty`; the body decoded from quoted-printable or base64 as its Content-Transfer-Encoding says.
fn mime_part(data: &str, ty: &str) -> Option<(String, String)> {
    data.split("\r\n--").find_map(|chunk| {
        let (head, body) = chunk.split_once("\r\n\r\n")?;
        let head = head.replace("\r\n ", " ").replace("\r\n\t", " ").to_lowercase();
        if !head.contains(&format!("content-type: {ty}")) {
            return None;
        }
        let body = if head.contains("content-transfer-encoding: base64") {
            use base64ct::Encoding;
            let compact: String = body.chars().filter(|c| !c.is_whitespace()).collect();
            String::from_utf8(base64ct::Base64::decode_vec(&compact).ok()?).ok()?
        } else if head.contains("content-transfer-encoding: quoted-printable") {
            quoted_printable(body)?
        } else {
            body.to_owned()
        };
        Some((head, body))
    })
}

/// RFC 2045 § 6.7: `=` + CRLF is a soft line break, `=XY` an octet.
fn quoted_printable(text: &str) -> Option<String> {
    let text = text.replace("=\r\n", "");
    let bytes = text.as_bytes();
    let (mut out, mut i) = (Vec::with_capacity(bytes.len()), 0);
    while i < bytes.len() {
        if bytes[i] == b'=' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Serve the successor of the case `det` announces today; the `deadline.set` and the period notice mailed
/// after the determination's notification (the second message in the sink), with its calendar unfolded.
async fn serve_and_take_the_period_notice(
    app: &App,
    det: &Value,
    method: &str,
) -> (Value, support::smtp_sink::Received, String) {
    let d = &det["data"];
    let first = app.smtp.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(first.len(), 1);
    assert!(!first[0].data.contains("text/calendar"), "the notification at the determination names no period");
    app.send(
        "notification.served",
        json!({"body": d["body"], "case": d["case"], "candidate": d["successor"]["id"], "method": method, "on": today(app)}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    let mails = app.smtp.wait_for(2, Duration::from_secs(15)).await;
    assert_eq!(mails.len(), 2, "the period notice follows the service");
    let notice = mails[1].clone();
    let case = d["case"].as_str().expect("case");
    let served = today(app).replace('-', "");
    assert_eq!(notice.header("Message-ID"), Some(format!("<{case}.r1.period-notice.{served}@nachfolge.invalid>")));
    assert!(notice.header("Content-Type").is_some_and(|t| t.starts_with("multipart/mixed")), "{}", notice.data);
    let (head, ics) = mime_part(&notice.data, "text/calendar").expect("a calendar part");
    assert!(head.contains("method=publish") && head.contains("attachment") && head.contains("frist.ics"), "{head}");
    (dl, notice, ics.replace("\r\n ", ""))
}

/// The calendar lines of an all-day entry on `last_day` (`YYYY-MM-DD`).
fn all_day(last_day: &str) -> (String, String) {
    let day = chrono::NaiveDate::parse_from_str(last_day, "%Y-%m-%d").expect("last day");
    let next = day.succ_opt().expect("next day");
    (
        format!("DTSTART;VALUE=DATE:{}\r\n", day.format("%Y%m%d")),
        format!("DTEND;VALUE=DATE:{}\r\n", next.format("%Y%m%d")),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nrw_45_abs_6_period_notice_after_service_mails_the_period_as_a_calendar_entry() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    app.send("vacancy.reported", vacancy("musterstadt-rat", "L1-01", "died", "2026-05-04T10:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    app.wait_event("successor.notified", |_| true).await;
    let (dl, notice, ics) = serve_and_take_the_period_notice(&app, &det, "certificate").await;
    assert_eq!(notice.rcpt_to, vec!["l1-06@example.org".to_owned()]);
    assert_eq!(notice.header("Reply-To").as_deref(), Some("wahlleitung@musterstadt.de"));
    let last_day = dl["data"]["last_day"].as_str().expect("last day");
    let (start, end) = all_day(last_day);
    assert!(ics.contains(&start) && ics.contains(&end), "{ics}");
    assert!(
        ics.contains("SUMMARY:Ende der Frist zur Erklärung über die Annahme der Wahl – Vertretung „Rat der Stadt Musterstadt“\r\n"),
        "{ics}"
    );
    let case = det["data"]["case"].as_str().expect("case");
    assert!(ics.contains(&format!("UID:{case}-1-acceptance@nachfolge\r\n")), "{ics}");
    let (_, text) = mime_part(&notice.data, "text/plain").expect("a text part");
    let german = chrono::NaiveDate::parse_from_str(last_day, "%Y-%m-%d").expect("day").format("%d.%m.%Y").to_string();
    assert!(text.contains(&format!("Die Frist endet mit Ablauf des {german} (24:00 Uhr).")), "{text}");
    assert!(text.contains("(§ 45 Abs. 6 Satz 4 KWahlG)") && text.contains("ersetzt nicht"), "{text}");
    assert!(mime_part(&notice.data, "text/html").is_some());

    // the sender's result is recorded; it is no second notification and leaves the case alone
    let id = notice.header("Message-ID").expect("id");
    let db = app.db().await;
    let mut row: Option<(String, bool, bool)> = None;
    for _ in 0..100 {
        row = sqlx::query_as(
            "SELECT kind, sent_at IS NOT NULL, calendar IS NOT NULL FROM mail_outbox WHERE message_id = $1",
        )
        .bind(&id)
        .fetch_optional(&db)
        .await
        .expect("mail outbox");
        if row.as_ref().is_some_and(|r| r.1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(row, Some(("period_notice".to_owned(), true, true)));
    app.settle().await;
    assert_eq!(app.events.of("successor.notified").len(), 1);
    assert!(app.events.of("notification.failed").is_empty());
    let (state,): (String,) =
        sqlx::query_as("SELECT state FROM cases WHERE id = $1").bind(case).fetch_one(&db).await.expect("case");
    assert_eq!(state, "offered");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn he_23_abs_2_barred_successor_period_notice_carries_the_proof_week() {
    let app = App::spawn().await;
    register(&app, hessen(true)).await;
    app.send("vacancy.reported", vacancy("beispielstadt-stvv", "W1-02", "resigned", "2026-10-15T00:00:00+02:00")).await;
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["barred"], true);
    app.wait_event("successor.notified", |_| true).await;
    let (dl, notice, ics) = serve_and_take_the_period_notice(&app, &det, "acknowledgement").await;
    assert_eq!(notice.rcpt_to, vec!["w1-05@example.org".to_owned()]);
    let (start, end) = all_day(dl["data"]["last_day"].as_str().expect("last day"));
    assert!(ics.contains(&start) && ics.contains(&end), "{ics}");
    let name = hessen(true)["body"]["name"].as_str().expect("name").to_owned();
    assert!(
        ics.contains(&format!(
            "SUMMARY:Ende der Frist zum Nachweis der Beendigung der Unvereinbarkeit – Vertretung „{}“\r\n",
            nachfolge_core::texts::ics::escape(&name)
        )),
        "{ics}"
    );
    assert!(ics.contains("(§ 34 Abs. 3 Satz 2 i. V. m. § 23 Abs. 2 KWG)"), "{ics}");
    let (_, text) = mime_part(&notice.data, "text/plain").expect("a text part");
    assert!(text.contains("rückwirkend als nicht erworben (§ 23 Abs. 2 Satz 3 KWG)"), "{text}");
    assert!(text.contains("meine schriftliche Feststellung Ihres Nachrückens in"), "{text}");
    app.settle().await;
    assert_eq!(app.events.of("successor.notified").len(), 1);
}
