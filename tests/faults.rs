//! Dependency faults and scale-out, against the real services of this machine: RabbitMQ stopped and
//! started under the worker, PostgreSQL restarted, the SMTP server down, three workers on one queue.
//!
//! These tests stop and start the machine's own RabbitMQ and PostgreSQL (`rabbitmqctl stop_app` /
//! `start_app`, `pg_ctlcluster … restart`), so they run one at a time (a process-wide lock) and need root,
//! as on the development and CI machines. Cargo runs test binaries one after another, so no other test
//! binary is affected.

mod support {
    pub mod app;
    pub mod smtp_sink;
}

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use lapin::options::*;
use lapin::types::FieldTable;
use lapin::{BasicProperties, Connection, ConnectionProperties};
use nachfolge::config::Config;
use nachfolge::worker::{Clock, Worker};
use serde_json::{json, Value};
use support::app::{example, test_config, unique, AMQP_URL};
use support::smtp_sink::{SinkMode, SmtpSink};

static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn sh(cmd: &str) {
    let out = std::process::Command::new("sh").arg("-c").arg(cmd).output().expect("shell");
    assert!(out.status.success(), "{cmd}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Runs a command when dropped: restarts a service even when the test fails half-way.
struct Restore(&'static str);

impl Drop for Restore {
    fn drop(&mut self) {
        let _ = std::process::Command::new("sh").arg("-c").arg(self.0).status();
    }
}

async fn connect_retry() -> Connection {
    for _ in 0..240 {
        if let Ok(c) = Connection::connect(AMQP_URL, ConnectionProperties::default()).await {
            return c;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("RabbitMQ did not come back");
}

/// Events on a durable observer queue, collected across broker restarts.
#[derive(Clone, Default)]
struct Events(Arc<Mutex<Vec<Value>>>);

impl Events {
    fn of(&self, ty: &str) -> Vec<Value> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).iter().filter(|e| e["type"] == ty).cloned().collect()
    }
    fn distinct(&self, ty: &str) -> usize {
        self.of(ty).iter().map(|e| e["id"].to_string()).collect::<BTreeSet<_>>().len()
    }
    async fn wait(&self, ty: &str, n: usize, secs: u64) {
        for _ in 0..secs * 20 {
            if self.distinct(ty) >= n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("timed out waiting for {n} × {ty} (have {})", self.distinct(ty));
    }
}

/// Declare the topology and a durable observer queue, then keep consuming it, reconnecting as needed.
async fn observe(config: &Config) -> Events {
    let conn = connect_retry().await;
    let ch = conn.create_channel().await.expect("channel");
    nachfolge::bus::declare_topology(&ch, &config.amqp).await.expect("topology");
    let q = format!("{}.observer", config.amqp.events_exchange);
    ch.queue_declare(q.as_str().into(), QueueDeclareOptions::durable(), FieldTable::default()).await.expect("observer");
    ch.queue_bind(
        q.as_str().into(),
        config.amqp.events_exchange.as_str().into(),
        "#".into(),
        QueueBindOptions::default(),
        FieldTable::default(),
    )
    .await
    .expect("bind");
    let events = Events::default();
    let sink = events.clone();
    tokio::spawn(async move {
        let _first = conn;
        loop {
            let conn = connect_retry().await;
            let Ok(ch) = conn.create_channel().await else { continue };
            let Ok(mut consumer) = ch
                .basic_consume(q.as_str().into(), "".into(), BasicConsumeOptions::default(), FieldTable::default())
                .await
            else {
                tokio::time::sleep(Duration::from_millis(250)).await;
                continue;
            };
            while let Some(Ok(d)) = consumer.next().await {
                if let Ok(v) = serde_json::from_slice::<Value>(&d.data) {
                    sink.0.lock().unwrap_or_else(|p| p.into_inner()).push(v);
                }
                let _ = d.ack(BasicAckOptions::default()).await;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    });
    events
}

async fn send(config: &Config, ty: &str, data: Value) {
    let conn = connect_retry().await;
    let ch = conn.create_channel().await.expect("channel");
    ch.confirm_select(ConfirmSelectOptions::default()).await.expect("confirms");
    let ev = json!({"specversion": "1.0", "id": uuid::Uuid::new_v4().to_string(), "source": "urn:test", "type": ty, "data": data});
    let props =
        BasicProperties::default().with_content_type("application/cloudevents+json".into()).with_delivery_mode(2);
    ch.basic_publish(
        config.amqp.commands_exchange.as_str().into(),
        ty.into(),
        Default::default(),
        &serde_json::to_vec(&ev).expect("json"),
        props,
    )
    .await
    .expect("publish")
    .await
    .expect("confirm");
    let _ = conn.close(200, "bye".into()).await;
}

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

fn vacancy(body: &str, member: &str) -> Value {
    json!({"body": body, "member": member, "reason": "resigned", "effective_at": "2026-05-04T10:00:00+02:00"})
}

async fn ready(worker: &Worker) -> bool {
    worker.shared.consuming() && worker.shared.store.ping().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rabbitmq_stopped_and_started_consumer_and_relay_recover_outbox_drains() {
    let _serial = SERIAL.lock().await;
    let smtp = SmtpSink::start().await;
    let config = test_config(&unique(), &smtp.url());
    let _cleanup = support::app::Cleanup(config.clone());
    let events = observe(&config).await;
    let clock = Arc::new(Clock::default());
    let worker = Worker::start(config.clone(), clock.clone()).await.expect("worker");
    send(&config, "election.registered", nrw()).await;
    events.wait("body.registered", 1, 30).await;
    send(&config, "vacancy.reported", vacancy("musterstadt-rat", "L1-01")).await;
    events.wait("successor.notified", 1, 30).await;
    let case = events.of("succession.determined")[0]["data"]["case"].as_str().expect("case").to_owned();
    let today = nachfolge::deadline::local_date(clock.now()).to_string();
    send(
        &config,
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "method": "certificate", "on": today}),
    )
    .await;
    events.wait("deadline.set", 1, 30).await;

    // the broker goes away; the deadline passes meanwhile: its events wait in the outbox
    let _restore = Restore("rabbitmqctl -q start_app");
    sh("rabbitmqctl -q stop_app");
    clock.advance(chrono::Duration::days(12));
    let mut saw_not_ready = false;
    for _ in 0..100 {
        if !worker.shared.consuming() {
            saw_not_ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(saw_not_ready, "/readyz must report not ready while the broker is down");
    let db = sqlx::PgPool::connect(&config.database.url).await.expect("db");
    let mut backlog = 0i64;
    for _ in 0..100 {
        backlog = sqlx::query_scalar("SELECT count(*) FROM outbox WHERE published_at IS NULL")
            .fetch_one(&db)
            .await
            .expect("outbox");
        if backlog > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(backlog > 0, "the deadline's events are kept in the outbox while the broker is down");
    sh("rabbitmqctl -q start_app");

    // everything recovers: the outbox drains, the consumer comes back and takes new messages
    events.wait("membership.changed", 2, 60).await;
    let joined: Vec<Value> =
        events.of("membership.changed").into_iter().filter(|e| e["data"]["change"] == "joined").collect();
    assert_eq!(joined[0]["data"]["basis"], "deemed_acceptance");
    for _ in 0..300 {
        if ready(&worker).await {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ready(&worker).await, "ready again after the broker is back");
    send(&config, "vacancy.reported", vacancy("musterstadt-rat", "L1-02")).await;
    events.wait("succession.determined", 2, 60).await;
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM outbox WHERE published_at IS NULL")
        .fetch_one(&db)
        .await
        .expect("outbox");
    assert!(left <= 3, "the outbox drained (a few new rows may still be in flight)");
    worker.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgresql_restarted_messages_are_retried_not_dead_lettered() {
    let _serial = SERIAL.lock().await;
    let smtp = SmtpSink::start().await;
    let config = test_config(&unique(), &smtp.url());
    let _cleanup = support::app::Cleanup(config.clone());
    let events = observe(&config).await;
    let worker = Worker::start(config.clone(), Arc::new(Clock::default())).await.expect("worker");
    send(&config, "election.registered", nrw()).await;
    events.wait("body.registered", 1, 30).await;

    let version =
        std::fs::read_dir("/etc/postgresql").expect("postgresql").filter_map(|e| e.ok()).next().expect("cluster");
    let version = version.file_name().to_string_lossy().into_owned();
    let start = format!("pg_ctlcluster --skip-systemctl-redirect {version} main start");
    let _restore = Restore(Box::leak(start.clone().into_boxed_str()));
    sh(&format!("pg_ctlcluster --skip-systemctl-redirect {version} main stop -m fast"));
    send(&config, "vacancy.reported", vacancy("musterstadt-rat", "L1-01")).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert!(!worker.shared.store.ping().await, "/readyz reports the database down");
    sh(&start);
    events.wait("succession.determined", 1, 90).await;
    assert!(events.of("message.rejected").is_empty(), "a database outage never dead-letters");
    worker.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smtp_down_mail_retried_and_delivered_later() {
    let _serial = SERIAL.lock().await;
    let smtp = SmtpSink::start().await;
    smtp.set_mode(SinkMode::Down);
    let config = test_config(&unique(), &smtp.url());
    let _cleanup = support::app::Cleanup(config.clone());
    let events = observe(&config).await;
    let clock = Arc::new(Clock::default());
    let worker = Worker::start(config.clone(), clock.clone()).await.expect("worker");
    send(&config, "election.registered", nrw()).await;
    events.wait("body.registered", 1, 30).await;
    send(&config, "vacancy.reported", vacancy("musterstadt-rat", "L1-01")).await;
    events.wait("succession.determined", 1, 30).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(events.of("successor.notified").is_empty() && events.of("notification.failed").is_empty());
    smtp.set_mode(SinkMode::Accept);
    clock.advance(chrono::Duration::minutes(30));
    events.wait("successor.notified", 1, 30).await;
    assert_eq!(smtp.messages().len(), 1);
    worker.shutdown().await;
}

/// Councils for the scale-out run: each with two lists of 6 seated members and 8 candidates after them.
fn council(id: &str) -> Value {
    let lists: Vec<Value> = (0..2)
        .map(|l| {
            let cands: Vec<Value> = (0..14)
                .map(|i| {
                    json!({
                        "id": format!("{id}-L{l}-{i:02}"), "position": i + 1, "given_name": "V", "family_name": format!("N{i}"),
                        "seat": if i < 6 { json!({"since": "2025-11-01", "via": "list"}) } else { Value::Null },
                    })
                })
                .collect();
            json!({"id": format!("L{l}"), "name": format!("Liste {l}"), "kind": "party", "candidates": cands})
        })
        .collect();
    json!({
        "body": {"id": id, "name": format!("Rat {id}"), "land": "NW", "statutory_size": 12,
                 "term": {"start": "2025-11-01", "end": "2030-10-31"},
                 "returning_officer": {"name": "Wahlleitung", "email": "wahlleitung@example.org"}},
        "lists": lists
    })
}

/// Run `workers` workers on one queue and database; 200 councils, 500 vacancies (two or three on the same
/// list at the same moment). Returns, per council, the sorted successors of each list.
#[allow(clippy::async_yields_async)] // the publish closure hands back the pending confirm on purpose
async fn scale_run(workers: usize) -> (BTreeMap<String, Vec<String>>, Events) {
    let smtp = SmtpSink::start().await;
    let mut config = test_config(&unique(), &smtp.url());
    config.amqp.prefetch = 16;
    let _cleanup = support::app::Cleanup(config.clone());
    let events = observe(&config).await;
    let mut running = Vec::new();
    for _ in 0..workers {
        running.push(Worker::start(config.clone(), Arc::new(Clock::default())).await.expect("worker"));
    }
    let conn = connect_retry().await;
    let ch = conn.create_channel().await.expect("channel");
    ch.confirm_select(ConfirmSelectOptions::default()).await.expect("confirms");
    let publish = |ty: &'static str, data: Value| {
        let ch = ch.clone();
        let x = config.amqp.commands_exchange.clone();
        async move {
            let ev = json!({"specversion": "1.0", "id": uuid::Uuid::new_v4().to_string(), "source": "urn:test", "type": ty, "data": data});
            let props = BasicProperties::default()
                .with_content_type("application/cloudevents+json".into())
                .with_delivery_mode(2);
            ch.basic_publish(
                x.as_str().into(),
                ty.into(),
                Default::default(),
                &serde_json::to_vec(&ev).expect("json"),
                props,
            )
            .await
            .expect("publish")
        }
    };
    let mut confirms = Vec::new();
    for i in 0..200 {
        confirms.push(publish("election.registered", council(&format!("s{i}"))).await);
    }
    for c in confirms.drain(..) {
        c.await.expect("confirm");
    }
    events.wait("body.registered", 200, 120).await;
    // 500 vacancies: councils 0..100 lose 3 members (two on list 0 at once), 100..200 lose 2
    for i in 0..200 {
        let n = if i < 100 { 3 } else { 2 };
        for v in 0..n {
            let member = format!("s{i}-L{}-{v:02}", v % 2);
            confirms.push(publish("vacancy.reported", vacancy(&format!("s{i}"), &member)).await);
        }
    }
    for c in confirms.drain(..) {
        c.await.expect("confirm");
    }
    events.wait("succession.determined", 500, 180).await;
    for w in running {
        w.shutdown().await;
    }
    let mut result: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut by_id: BTreeMap<String, Value> = BTreeMap::new();
    for e in events.of("succession.determined") {
        by_id.insert(e["id"].as_str().unwrap_or_default().to_owned(), e);
    }
    for e in by_id.values() {
        let body = e["data"]["body"].as_str().unwrap_or_default().to_owned();
        result.entry(body).or_default().push(e["data"]["successor"]["id"].as_str().unwrap_or_default().to_owned());
    }
    for v in result.values_mut() {
        v.sort();
    }
    (result, events)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_workers_one_queue_no_double_offers_same_results_as_one() {
    let _serial = SERIAL.lock().await;
    let (three, events) = scale_run(3).await;
    // exactly one determination per vacancy, no candidate offered twice
    let mut cases = BTreeSet::new();
    let mut offered = BTreeSet::new();
    let mut by_id = BTreeMap::new();
    for e in events.of("succession.determined") {
        by_id.insert(e["id"].as_str().unwrap_or_default().to_owned(), e);
    }
    assert_eq!(by_id.len(), 500);
    for e in by_id.values() {
        assert!(cases.insert(e["data"]["case"].as_str().unwrap_or_default().to_owned()), "one determination per case");
        let who = format!(
            "{}/{}",
            e["data"]["body"].as_str().unwrap_or_default(),
            e["data"]["successor"]["id"].as_str().unwrap_or_default()
        );
        assert!(offered.insert(who.clone()), "{who} offered twice");
    }
    let (one, _) = scale_run(1).await;
    assert_eq!(three, one, "the same successors as a single worker");
}
