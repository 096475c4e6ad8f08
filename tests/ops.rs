//! Operator commands (`publish`, `dead-letters list|redrive`, `cases`, `export`) and trace context, end to
//! end against the real RabbitMQ and PostgreSQL of this machine. Each test has its own database and its own
//! exchange and queue names; the commands run as the real binary with `NACHFOLGE__…` overrides.
//!
//! Unlike `support::app::App`, the harness here does not consume the dead-letter queue: the commands
//! under test do.

mod support {
    pub mod app;
    pub mod otlp;
    pub mod smtp_sink;
}

use std::process::Output;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use lapin::options::{
    BasicAckOptions, BasicPublishOptions, ExchangeDeleteOptions, QueueDeclareOptions, QueueDeleteOptions,
};
use lapin::types::{AMQPValue, FieldTable};
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties};
use nachfolge::config::Config;
use nachfolge::worker::{Clock, Worker};
use serde_json::{json, Value};
use support::app::{events_consumer, example, test_config, unique, AMQP_URL};
use support::otlp::{self, hex};
use support::smtp_sink::SmtpSink;

const BODY: &str = "musterstadt-rat";
const TP1: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const TP2: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
const TP3: &str = "00-11112222333344445555666677778888-1111222233334444-00";

/// An event seen on the events exchange with its AMQP `traceparent` header.
type Seen = Arc<Mutex<Vec<(Value, Option<String>)>>>;

struct Ops {
    config: Config,
    worker: Option<Worker>,
    child: Option<tokio::process::Child>,
    _smtp: SmtpSink,
    conn: Connection,
    ch: Channel,
    seen: Seen,
}

impl Ops {
    /// A worker in-process with its own names, and an observer of the events exchange.
    async fn start(f: impl FnOnce(&mut Config)) -> Ops {
        let ops = Ops::prepare(f).await;
        ops.start_worker().await
    }

    /// Names, topology and observer only; no worker yet.
    async fn prepare(f: impl FnOnce(&mut Config)) -> Ops {
        let smtp = SmtpSink::start().await;
        let mut config = test_config(&unique(), &smtp.url());
        f(&mut config);
        let conn = Connection::connect(AMQP_URL, ConnectionProperties::default()).await.expect("rabbitmq reachable");
        let (ch, mut consumer) = events_consumer(&conn, &config).await;
        let seen: Seen = Arc::default();
        let sink = seen.clone();
        tokio::spawn(async move {
            while let Some(Ok(d)) = consumer.next().await {
                if let Ok(v) = serde_json::from_slice::<Value>(&d.data) {
                    let tp = nachfolge::bus::header_text(&d.properties, "traceparent");
                    sink.lock().unwrap_or_else(|p| p.into_inner()).push((v, tp));
                }
                let _ = d.ack(BasicAckOptions::default()).await;
            }
        });
        Ops { config, worker: None, child: None, _smtp: smtp, conn, ch, seen }
    }

    async fn start_worker(mut self) -> Ops {
        let clock = Arc::new(Clock::with_offset_secs(self.config.clock.offset_secs));
        let worker = Worker::start(self.config.clone(), clock).await.expect("worker starts");
        let shared = worker.shared.clone();
        self.worker = Some(worker);
        for _ in 0..200 {
            if shared.consumer_registered.load(std::sync::atomic::Ordering::Relaxed) {
                return self;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("worker did not register its consumer");
    }

    /// The environment that points the binary at this test's database and names.
    fn env(&self) -> Vec<(String, String)> {
        let c = &self.config;
        vec![
            ("NACHFOLGE__DATABASE__URL".into(), c.database.url.clone()),
            ("NACHFOLGE__AMQP__URL".into(), c.amqp.url.clone()),
            ("NACHFOLGE__AMQP__COMMANDS_EXCHANGE".into(), c.amqp.commands_exchange.clone()),
            ("NACHFOLGE__AMQP__COMMANDS_QUEUE".into(), c.amqp.commands_queue.clone()),
            ("NACHFOLGE__AMQP__EVENTS_EXCHANGE".into(), c.amqp.events_exchange.clone()),
            // the child worker declares this queue: a name of its own, deleted at the end
            ("NACHFOLGE__AMQP__EVENTS_QUEUE".into(), format!("{}.q", c.amqp.events_exchange)),
            ("NACHFOLGE__AMQP__DEAD_LETTER_EXCHANGE".into(), c.amqp.dead_letter_exchange.clone()),
            ("NACHFOLGE__AMQP__DEAD_LETTER_QUEUE".into(), c.amqp.dead_letter_queue.clone()),
            ("NACHFOLGE__SMTP__URL".into(), c.smtp.url.clone()),
            ("NACHFOLGE__HTTP__ADDR".into(), "127.0.0.1:0".into()),
            ("NACHFOLGE__CONSOLE__ADDR".into(), "127.0.0.1:0".into()),
            ("NACHFOLGE__WORKER__POLL_INTERVAL_MS".into(), "100".into()),
            ("RUST_LOG".into(), "warn".into()),
        ]
    }

    /// Run `nachfolge ARGS` (stdin: `input`) and return its output.
    async fn cli(&self, args: &[&str], input: Option<&[u8]>) -> Output {
        use tokio::io::AsyncWriteExt;
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_nachfolge"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .envs(self.env())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn nachfolge");
        let mut stdin = child.stdin.take().expect("stdin");
        if let Some(bytes) = input {
            stdin.write_all(bytes).await.expect("write stdin");
        }
        drop(stdin);
        tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
            .await
            .expect("command finishes")
            .expect("command output")
    }

    /// Run a command that must succeed; returns stdout.
    async fn ok(&self, args: &[&str], input: Option<&[u8]>) -> (String, String) {
        let out = self.cli(args, input).await;
        let (stdout, stderr) =
            (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
        assert!(out.status.success(), "nachfolge {args:?} failed: {stderr}");
        (stdout, stderr)
    }

    async fn json_lines(&self, args: &[&str]) -> Vec<Value> {
        let (stdout, _) = self.ok(args, None).await;
        stdout.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect()
    }

    /// Publish a structured-mode CloudEvent directly (not through the CLI), with extra AMQP headers.
    async fn send(&self, id: &str, ty: &str, data: Value, headers: &[(&str, &str)]) {
        let subject = data.get("body").and_then(|b| b.as_str().or_else(|| b["id"].as_str())).map(str::to_owned);
        let event = json!({"specversion": "1.0", "id": id, "source": "urn:test", "type": ty, "subject": subject,
            "datacontenttype": "application/json", "data": data});
        let mut table = FieldTable::default();
        for (k, v) in headers {
            table.insert((*k).into(), AMQPValue::LongString((*v).into()));
        }
        let props = BasicProperties::default()
            .with_content_type("application/cloudevents+json".into())
            .with_delivery_mode(2)
            .with_headers(table);
        self.ch
            .basic_publish(
                self.config.amqp.commands_exchange.as_str().into(),
                ty.into(),
                BasicPublishOptions::default(),
                &serde_json::to_vec(&event).expect("json"),
                props,
            )
            .await
            .expect("publish")
            .await
            .expect("confirm");
    }

    fn events(&self, ty: &str) -> Vec<(Value, Option<String>)> {
        self.seen.lock().unwrap_or_else(|p| p.into_inner()).iter().filter(|(e, _)| e["type"] == ty).cloned().collect()
    }

    /// Wait for an event of a type matching `pred`; returns it with its `traceparent` header.
    async fn wait_event(&self, ty: &str, pred: impl Fn(&Value) -> bool) -> (Value, Option<String>) {
        for _ in 0..400 {
            if let Some(e) = self.events(ty).into_iter().find(|(e, _)| pred(e)) {
                return e;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let seen: Vec<String> =
            self.seen.lock().unwrap_or_else(|p| p.into_inner()).iter().map(|(e, _)| e["type"].to_string()).collect();
        panic!("timed out waiting for {ty}; seen: {seen:?}");
    }

    /// Ready messages in the dead-letter queue (read by the broker, not by the command under test).
    async fn dead_count(&self) -> u32 {
        let q = self
            .ch
            .queue_declare(
                self.config.amqp.dead_letter_queue.as_str().into(),
                QueueDeclareOptions { passive: true, ..Default::default() },
                FieldTable::default(),
            )
            .await
            .expect("dead-letter queue");
        q.message_count()
    }

    async fn wait_dead(&self, n: u32) {
        for _ in 0..400 {
            if self.dead_count().await == n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("timed out waiting for {n} dead letters, have {}", self.dead_count().await);
    }

    async fn db(&self) -> sqlx::PgPool {
        sqlx::PgPool::connect(&self.config.database.url).await.expect("test db")
    }

    /// Stop the worker and remove this test's queues, exchanges and database.
    async fn finish(mut self) {
        if let Some(w) = self.worker.take() {
            w.shutdown().await;
        }
        if let Some(mut c) = self.child.take() {
            let _ = c.start_kill();
            let _ = c.wait().await;
        }
        let a = &self.config.amqp;
        let events_q = format!("{}.q", a.events_exchange);
        for q in [&a.commands_queue, &a.dead_letter_queue, &events_q] {
            let _ = self.ch.queue_delete(q.as_str().into(), QueueDeleteOptions::default()).await;
        }
        for x in [&a.commands_exchange, &a.events_exchange, &a.dead_letter_exchange] {
            let _ = self.ch.exchange_delete(x.as_str().into(), ExchangeDeleteOptions::default()).await;
        }
        let _ = self.conn.close(200, "bye".into()).await;
        let name = self.config.database.url.rsplit('/').next().unwrap_or_default().to_owned();
        if let Ok(pool) = sqlx::PgPool::connect("postgres://postgres@127.0.0.1:5432/postgres").await {
            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)")).execute(&pool).await;
            pool.close().await;
        }
    }
}

fn example_path(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn vacancy() -> Value {
    json!({"body": BODY, "member": "L1-01", "reason": "died", "effective_at": "2026-05-04T10:00:00+02:00"})
}

// ---------------------------------------------------------------------------------------------------------
// publish

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn publish_bare_data_file_is_applied_and_a_full_cloudevent_keeps_its_id() {
    let ops = Ops::start(|_| {}).await;

    // bare data from a file: --type required, a new UUID v4, subject = data.body.id
    let (stdout, _) =
        ops.ok(&["publish", &example_path("nrw-election.json"), "--type", "election.registered"], None).await;
    let id = stdout.trim().to_owned();
    assert_eq!(uuid::Uuid::parse_str(&id).expect("a UUID").get_version_num(), 4, "{stdout}");
    let (registered, _) = ops.wait_event("body.registered", |e| e["subject"] == BODY).await;
    assert_eq!(registered["data"]["body"], BODY);
    let db = ops.db().await;
    let row: (String, String) = sqlx::query_as("SELECT type, outcome FROM inbox WHERE message_id = $1")
        .bind(&id)
        .fetch_one(&db)
        .await
        .expect("inbox");
    assert_eq!(row, ("election.registered".to_owned(), "applied".to_owned()));

    // a full CloudEvent from stdin keeps its id
    let ce = json!({"specversion": "1.0", "id": "smoke-vacancy-1", "source": "urn:test", "type": "vacancy.reported",
        "subject": BODY, "datacontenttype": "application/json", "data": vacancy()});
    let (stdout, _) = ops.ok(&["publish", "-"], Some(&serde_json::to_vec(&ce).expect("json"))).await;
    assert_eq!(stdout.trim(), "smoke-vacancy-1");
    let (det, _) = ops.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "L1-06");

    // bare data without --type is refused, nothing is sent
    let out = ops.cli(&["publish", "-"], Some(br#"{"body": "musterstadt-rat"}"#)).await;
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--type"));

    db.close().await;
    ops.finish().await;
}

// ---------------------------------------------------------------------------------------------------------
// dead letters

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dead_letters_list_leaves_them_in_order_and_redrive_of_an_invalid_one_dead_letters_it_again() {
    let ops = Ops::start(|_| {}).await;
    // two bad messages for one body (one lane, so they are dead-lettered in this order)
    let no_member = json!({"body": BODY, "reason": "resigned", "effective_at": "2026-05-04T10:00:00+02:00"});
    let no_member = serde_json::to_vec(&no_member).expect("json");
    ops.ok(&["publish", "-", "--type", "vacancy.reported", "--id", "bad-vacancy-1"], Some(&no_member)).await;
    ops.ok(&["publish", "-", "--type", "seat.stolen", "--id", "bad-type-2"], Some(br#"{"body": "musterstadt-rat"}"#))
        .await;
    ops.wait_dead(2).await;

    let listed = ops.json_lines(&["dead-letters", "list", "--json"]).await;
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed[0]["position"], 1);
    assert_eq!(listed[0]["id"], "bad-vacancy-1");
    assert_eq!(listed[0]["type"], "vacancy.reported");
    assert_eq!(listed[0]["routing_key"], "vacancy.reported");
    let reason = listed[0]["reason"].as_str().expect("reason");
    assert!(reason.contains("member"), "the reason names the field: {reason}");
    assert_eq!(listed[1]["id"], "bad-type-2");
    assert_eq!(listed[1]["type"], "seat.stolen");
    assert!(listed[1]["reason"].as_str().is_some_and(|r| !r.is_empty()));
    // nothing but ids, types, keys and reasons
    for l in &listed {
        let mut keys: Vec<&str> = l.as_object().expect("object").keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["id", "position", "reason", "routing_key", "type"]);
    }

    // listing leaves them in the queue, in their order (the broker's count catches up with the returns
    // within moments)
    ops.wait_dead(2).await;
    assert_eq!(ops.json_lines(&["dead-letters", "list", "--json"]).await, listed);
    ops.wait_dead(2).await;
    let (table, _) = ops.ok(&["dead-letters", "list"], None).await;
    ops.wait_dead(2).await;
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 3, "{table}");
    assert!(lines[0].starts_with('#') && lines[0].contains("REASON"), "{table}");
    assert!(lines[1].contains("bad-vacancy-1") && lines[2].contains("bad-type-2"), "{table}");
    let first = ops.json_lines(&["dead-letters", "list", "--json", "--limit", "1"]).await;
    assert_eq!(first, listed[..1]);
    ops.wait_dead(2).await;

    // an unknown id: an error, nothing moves
    let out = ops.cli(&["dead-letters", "redrive", "--id", "no-such-id"], None).await;
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no dead letter with id"));
    ops.wait_dead(2).await;

    // redrive the first one without fixing anything: it is refused again and comes back, behind the other
    let (stdout, stderr) = ops.ok(&["dead-letters", "redrive", "--id", "bad-vacancy-1", "--json"], None).await;
    assert!(stderr.contains("redriven 1/1"), "{stderr}");
    let redriven: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    assert_eq!(redriven.len(), 1);
    assert_eq!(redriven[0]["id"], "bad-vacancy-1");
    // the broker's count, which (unlike `list`) does not touch the queue while the worker refills it
    ops.wait_dead(2).await;
    let again = ops.json_lines(&["dead-letters", "list", "--json"]).await;
    assert_eq!(again.len(), 2, "dead-lettered again: {again:?}");
    assert_eq!((again[0]["id"].as_str(), again[1]["id"].as_str()), (Some("bad-type-2"), Some("bad-vacancy-1")));
    assert_eq!(again[1]["reason"].as_str(), Some(reason), "the same reason, once");
    ops.wait_dead(2).await;
    // one message.rejected per distinct message, not one per redrive
    tokio::time::sleep(Duration::from_millis(300)).await;
    let rejected = ops.events("message.rejected");
    assert_eq!(rejected.iter().filter(|(e, _)| e["data"]["message_id"] == "bad-vacancy-1").count(), 1);

    ops.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dead_letters_redrive_replays_a_vacancy_that_is_valid_now() {
    let ops = Ops::start(|c| c.worker.unknown_retry_secs = 1).await;
    // the vacancy overtakes the registration and stays unknown past the retry window
    let data = serde_json::to_vec(&vacancy()).expect("json");
    ops.ok(&["publish", "-", "--type", "vacancy.reported", "--id", "early-vacancy"], Some(&data)).await;
    ops.wait_dead(1).await;
    let listed = ops.json_lines(&["dead-letters", "list", "--json"]).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["id"], "early-vacancy");
    assert!(listed[0]["reason"].as_str().is_some_and(|r| r.contains("unknown body")), "{listed:?}");

    ops.ok(&["publish", &example_path("nrw-election.json"), "--type", "election.registered"], None).await;
    ops.wait_event("body.registered", |_| true).await;

    let (stdout, stderr) = ops.ok(&["dead-letters", "redrive"], None).await;
    assert!(stderr.contains("redriven 1/1"), "{stderr}");
    assert!(stdout.contains("early-vacancy"), "{stdout}");
    let (det, _) = ops.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "L1-06");
    assert_eq!(det["data"]["vacancy"]["member"], "L1-01");
    assert_eq!(ops.dead_count().await, 0);
    // an empty queue: nothing to do
    let (_, stderr) = ops.ok(&["dead-letters", "redrive"], None).await;
    assert!(stderr.contains("redriven 0/0"), "{stderr}");

    ops.finish().await;
}

// ---------------------------------------------------------------------------------------------------------
// cases and export

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cases_lists_the_open_case_with_successor_and_deadline_and_export_prints_the_snapshot() {
    let ops = Ops::start(|_| {}).await;
    ops.send("reg-1", "election.registered", example("nrw-election.json"), &[]).await;
    ops.wait_event("body.registered", |_| true).await;
    ops.send("vac-1", "vacancy.reported", vacancy(), &[]).await;
    let (det, _) = ops.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();

    let open = ops.json_lines(&["cases", "--open", "--json"]).await;
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!(open[0]["case"], case.as_str());
    assert_eq!(open[0]["body"], BODY);
    assert_eq!(open[0]["state"], "offered");
    assert_eq!(open[0]["round"], 1);
    assert_eq!(open[0]["successor"], "L1-06");
    assert_eq!(open[0]["deadline"], Value::Null, "no deadline before service");

    // service → the deadline shows
    ops.wait_event("successor.notified", |_| true).await;
    let today = nachfolge::deadline::local_date(support::app::test_now()).to_string();
    ops.send(
        "served-1",
        "notification.served",
        json!({"body": BODY, "case": case, "candidate": "L1-06", "method": "certificate", "on": today}),
        &[],
    )
    .await;
    let (dl, _) = ops.wait_event("deadline.set", |_| true).await;
    let ends_at = chrono::DateTime::parse_from_rfc3339(dl["data"]["ends_at"].as_str().expect("ends_at")).expect("t");
    let open = ops.json_lines(&["cases", "--open", "--json", "--body", BODY]).await;
    let deadline = open[0]["deadline"].as_str().expect("a deadline");
    assert_eq!(chrono::DateTime::parse_from_rfc3339(deadline).expect("RFC 3339"), ends_at);

    // the table: ids only, never names
    let (table, _) = ops.ok(&["cases", "--open"], None).await;
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 2, "{table}");
    assert!(lines[0].starts_with("CASE") && lines[0].contains("DEADLINE"), "{table}");
    assert!(lines[1].contains(&case) && lines[1].contains("offered") && lines[1].contains("L1-06"), "{table}");
    assert!(!table.contains("Fuchs") && !table.contains("Felix"), "no names: {table}");
    assert!(ops.json_lines(&["cases", "--body", "another-council", "--json"]).await.is_empty());

    // acceptance closes the case: gone from --open, still listed without it
    ops.send(
        "accept-1",
        "declaration.received",
        json!({"body": BODY, "case": case, "candidate": "L1-06", "kind": "accept",
               "received_at": support::app::test_now().to_rfc3339()}),
        &[],
    )
    .await;
    ops.wait_event("membership.changed", |e| e["data"]["change"] == "joined").await;
    assert!(ops.json_lines(&["cases", "--open", "--json"]).await.is_empty());
    let all = ops.json_lines(&["cases", "--json"]).await;
    assert_eq!(all.len(), 1);
    assert_eq!(all[0]["state"], "filled");
    assert_eq!(all[0]["successor"], "L1-06");

    // export: the current snapshot with its cases
    let (stdout, _) = ops.ok(&["export", "--body", BODY], None).await;
    let export: Value = serde_json::from_str(&stdout).expect("export is JSON");
    assert_eq!(export["snapshot"]["body"]["id"], BODY);
    assert_eq!(export["cases"][&case]["id"], case.as_str());
    assert_eq!(export["cases"][&case]["round"], 1);
    let seated = export["snapshot"]["lists"][0]["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .find(|c| c["id"] == "L1-06")
        .expect("L1-06")
        .clone();
    assert!(!seated["seat"].is_null(), "the successor holds the seat in the snapshot: {seated}");

    ops.finish().await;
}

// ---------------------------------------------------------------------------------------------------------
// trace context

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn traceparent_of_an_inbound_message_is_carried_to_its_events_and_logged() {
    // the worker as a child process (`nachfolge run`), so its JSON logs can be read
    let mut ops = Ops::prepare(|_| {}).await;
    let log = std::env::temp_dir().join(format!("nachfolge-ops-trace-{}.log", unique()));
    let file = std::fs::File::create(&log).expect("log file");
    let mut env = ops.env();
    env.retain(|(k, _)| k != "RUST_LOG");
    env.push(("RUST_LOG".into(), "info".into()));
    let child = tokio::process::Command::new(env!("CARGO_BIN_EXE_nachfolge"))
        .arg("run")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .envs(env)
        .stdout(std::process::Stdio::null())
        .stderr(file)
        .kill_on_drop(true)
        .spawn()
        .expect("spawn worker");
    ops.child = Some(child);

    // traceparent and tracestate as AMQP headers (structured mode)
    ops.send(
        "reg-1",
        "election.registered",
        example("nrw-election.json"),
        &[("traceparent", TP1), ("tracestate", "muni=7")],
    )
    .await;
    let (reg, header) = ops.wait_event("body.registered", |_| true).await;
    assert_eq!(reg["traceparent"], TP1);
    assert_eq!(reg["tracestate"], "muni=7");
    assert_eq!(header.as_deref(), Some(TP1), "also the AMQP header");

    // as the CloudEvents extension attribute, through `nachfolge publish`; it wins over a header
    let ce = json!({"specversion": "1.0", "id": "vac-1", "source": "urn:test", "type": "vacancy.reported",
        "subject": BODY, "traceparent": TP2, "data": vacancy()});
    ops.ok(&["publish", "-"], Some(&serde_json::to_vec(&ce).expect("json"))).await;
    let (det, header) = ops.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["traceparent"], TP2);
    assert!(det.get("tracestate").is_none());
    assert_eq!(header.as_deref(), Some(TP2));
    let (left, header) = ops.wait_event("membership.changed", |e| e["data"]["change"] == "left").await;
    assert_eq!((left["traceparent"].as_str(), header.as_deref()), (Some(TP2), Some(TP2)), "every event it causes");

    // a refused message: `message.rejected` carries its trace; an invalid traceparent is dropped
    ops.send("bad-1", "seat.stolen", json!({"body": BODY}), &[("traceparent", TP3)]).await;
    ops.send("bad-2", "seat.stolen", json!({"body": BODY}), &[("traceparent", "00-not-a-trace-01")]).await;
    let (r1, h1) = ops.wait_event("message.rejected", |e| e["data"]["message_id"] == "bad-1").await;
    assert_eq!((r1["traceparent"].as_str(), h1.as_deref()), (Some(TP3), Some(TP3)));
    let (r2, h2) = ops.wait_event("message.rejected", |e| e["data"]["message_id"] == "bad-2").await;
    assert!(r2.get("traceparent").is_none() && h2.is_none(), "{r2}");

    // events of the mail sender (no inbound message) have none
    let (notified, _) = ops.wait_event("successor.notified", |_| true).await;
    assert!(notified.get("traceparent").is_none());

    // the worker's log lines for those messages carry the 32-hex trace ids
    let mut text = String::new();
    for _ in 0..100 {
        text = std::fs::read_to_string(&log).unwrap_or_default();
        if [TP1, TP2, TP3].iter().all(|tp| text.contains(&format!("\"trace_id\":\"{}\"", &tp[3..35]))) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for tp in [TP1, TP2, TP3] {
        assert!(text.contains(&format!("\"trace_id\":\"{}\"", &tp[3..35])), "trace id of {tp} logged:\n{text}");
    }
    assert!(!text.contains("Fuchs"), "no names in the log");
    ops.finish().await;
    let _ = std::fs::remove_file(&log);
}

/// With `telemetry.otlp_endpoint`, the worker (the real binary) exports one span per message to an
/// OTLP/HTTP collector: the child of the inbound `traceparent`, and the events the message causes name
/// that span in their `traceparent`, so a downstream consumer's span is its child. A message without trace
/// context starts a trace. The export interval is set to an hour: only the flush at SIGTERM sends them.
/// `RUST_LOG=warn` (as in `Ops::env`) filters the logs, not the export.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn otlp_export_has_a_span_per_message_whose_child_the_events_name() {
    let (addr, received) = otlp::collector().await;
    let ops = Ops::prepare(|_| {}).await;
    let log = std::env::temp_dir().join(format!("nachfolge-ops-otlp-{}.log", unique()));
    let mut env = ops.env();
    env.push(("NACHFOLGE__TELEMETRY__OTLP_ENDPOINT".into(), format!("http://{addr}/")));
    env.push(("NACHFOLGE__TELEMETRY__SERVICE_NAME".into(), "nachfolge-test".into()));
    env.push(("OTEL_BSP_SCHEDULE_DELAY".into(), "3600000".into()));
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_nachfolge"))
        .arg("run")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .envs(env)
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).expect("log file"))
        .kill_on_drop(true)
        .spawn()
        .expect("spawn worker");

    ops.send(
        "reg-1",
        "election.registered",
        example("nrw-election.json"),
        &[("traceparent", TP1), ("tracestate", "muni=7")],
    )
    .await;
    let (reg, header) = ops.wait_event("body.registered", |_| true).await;
    let tp = reg["traceparent"].as_str().expect("traceparent").to_owned();
    assert_eq!(header.as_deref(), Some(tp.as_str()), "also the AMQP header");
    assert_eq!(reg["tracestate"], "muni=7");
    assert!(nachfolge::bus::valid_traceparent(&tp).is_some(), "{tp}");
    assert_eq!((&tp[..36], &tp[52..]), (&TP1[..36], "-01"), "same trace, sampled: {tp}");
    assert_ne!(&tp[36..52], &TP1[36..52], "the worker's span, not the sender's: {tp}");

    // no trace context inbound: the worker's span starts a trace, and the events carry it
    ops.send("vac-1", "vacancy.reported", vacancy(), &[]).await;
    let (det, header) = ops.wait_event("succession.determined", |_| true).await;
    let root = det["traceparent"].as_str().expect("traceparent of a new trace").to_owned();
    assert_eq!(header.as_deref(), Some(root.as_str()));
    assert!(nachfolge::bus::valid_traceparent(&root).is_some() && !root.contains(&TP1[3..35]), "{root}");
    let (left, _) = ops.wait_event("membership.changed", |e| e["data"]["change"] == "left").await;
    assert_eq!(left["traceparent"].as_str(), Some(root.as_str()), "every event it causes");
    assert!(received.lock().unwrap_or_else(|p| p.into_inner()).is_empty(), "nothing before the shutdown");

    // SIGTERM: the worker stops and flushes the exporter
    let pid = child.id().expect("pid").to_string();
    let killed = std::process::Command::new("kill").args(["-TERM", &pid]).status().expect("kill");
    assert!(killed.success());
    let status = tokio::time::timeout(Duration::from_secs(40), child.wait()).await.expect("stops").expect("status");
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(status.success(), "{status}: {text}");

    let spans = received.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let span_of = |traceparent: &str| {
        spans
            .iter()
            .find(|(_, s)| hex(&s.trace_id) == traceparent[3..35] && hex(&s.span_id) == traceparent[36..52])
            .cloned()
            .unwrap_or_else(|| panic!("no span {traceparent} among {spans:?}\n{text}"))
    };
    let (service, span) = span_of(&tp);
    assert_eq!((service.as_str(), span.name.as_str()), ("nachfolge-test", "message"));
    assert_eq!(hex(&span.parent_span_id), TP1[36..52], "the child of the inbound traceparent");
    assert_eq!(span.kind, opentelemetry_proto::tonic::trace::v1::span::SpanKind::Consumer as i32);
    assert!(span.events.iter().any(|e| e.name == "applied"), "the log events of the message: {:?}", span.events);
    assert!(span.end_time_unix_nano >= span.start_time_unix_nano && span.start_time_unix_nano > 0);
    let (_, span) = span_of(&root);
    assert!(span.parent_span_id.is_empty(), "a root span: {span:?}");
    assert!(!text.contains("Fuchs"), "no names in the log");
    ops.finish().await;
    let _ = std::fs::remove_file(&log);
}

#[test]
fn traceparent_parsing_follows_w3c() {
    use nachfolge::bus::{parse_envelope, trace_id, valid_traceparent};
    assert_eq!(valid_traceparent(TP1).as_deref(), Some(TP1));
    assert_eq!(valid_traceparent(&TP1.to_uppercase()).as_deref(), Some(TP1), "normalised to lower case");
    assert_eq!(trace_id(TP1), Some("4bf92f3577b34da6a3ce929d0e0e4736"));
    for bad in [
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "0g-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    ] {
        assert_eq!(valid_traceparent(bad), None, "{bad:?}");
    }
    // a later version may append fields
    assert!(valid_traceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-ab").is_some());

    let header = |tp: &str| {
        let mut t = FieldTable::default();
        t.insert("traceparent".into(), AMQPValue::LongString(tp.into()));
        t.insert("tracestate".into(), AMQPValue::LongString("a=1".into()));
        t
    };
    let ce = |extra: Value| {
        let mut v = json!({"specversion": "1.0", "id": "x", "source": "urn:t", "type": "lot.drawn", "data": {}});
        v.as_object_mut().expect("object").extend(extra.as_object().expect("object").clone());
        serde_json::to_vec(&v).expect("json")
    };
    let structured = BasicProperties::default().with_content_type("application/cloudevents+json".into());
    // the extension attribute wins over the header
    let env = parse_envelope(&ce(json!({"traceparent": TP2})), &structured.clone().with_headers(header(TP1)), 1 << 20)
        .expect("envelope");
    assert_eq!((env.traceparent.as_deref(), env.tracestate.as_deref()), (Some(TP2), None));
    let env = parse_envelope(&ce(json!({})), &structured.clone().with_headers(header(TP1)), 1 << 20).expect("envelope");
    assert_eq!((env.traceparent.as_deref(), env.tracestate.as_deref()), (Some(TP1), Some("a=1")));
    let env = parse_envelope(&ce(json!({"traceparent": "garbage", "tracestate": "a=1"})), &structured, 1 << 20)
        .expect("envelope");
    assert_eq!((env.traceparent, env.tracestate), (None, None));
    // binary mode: the header (or cloudEvents_traceparent)
    let mut t = FieldTable::default();
    t.insert("cloudEvents_id".into(), AMQPValue::LongString("b-1".into()));
    t.insert("cloudEvents_type".into(), AMQPValue::LongString("lot.drawn".into()));
    t.insert("cloudEvents_traceparent".into(), AMQPValue::LongString(TP3.into()));
    let binary = BasicProperties::default().with_content_type("application/json".into()).with_headers(t);
    let env = parse_envelope(b"{}", &binary, 1 << 20).expect("binary envelope");
    assert_eq!(env.traceparent.as_deref(), Some(TP3));
}

/// The worker's connections propose 16 KiB frames (`bus::FRAME_MAX`: lapin keeps 32 frames per direction,
/// so 1 MiB a connection instead of the 8 MiB RabbitMQ's 128 KiB default costs); a `frame_max` in the URL
/// still wins, and a message far larger than a frame still arrives whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bus_connections_propose_small_frames_unless_the_url_sets_one() {
    let conn = nachfolge::bus::connect(AMQP_URL, "nachfolge-frame-test").await.expect("connect");
    assert_eq!(conn.configuration().frame_max(), nachfolge::bus::FRAME_MAX);
    let ch = conn.create_channel().await.expect("channel");
    let q = format!("t.{}.frames", unique());
    let opts = QueueDeclareOptions { exclusive: true, ..Default::default() };
    ch.queue_declare(q.as_str().into(), opts, FieldTable::default()).await.expect("queue");
    let big: String = "Nachrückerliste ".repeat(20_000); // 340 KB: 21 frames
    ch.basic_publish(
        "".into(),
        q.as_str().into(),
        BasicPublishOptions::default(),
        big.as_bytes(),
        BasicProperties::default(),
    )
    .await
    .expect("publish");
    let got = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Some(m) = ch.basic_get(q.as_str().into(), Default::default()).await.expect("get") {
                break m.delivery.data.clone();
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("message in time");
    assert_eq!(got, big.as_bytes());
    conn.close(200, "bye".into()).await.expect("close");

    let url = if AMQP_URL.contains('?') {
        format!("{AMQP_URL}&frame_max=65536")
    } else {
        format!("{AMQP_URL}?frame_max=65536")
    };
    let conn = nachfolge::bus::connect(&url, "nachfolge-frame-test").await.expect("connect with frame_max");
    assert_eq!(conn.configuration().frame_max(), 65536);
    conn.close(200, "bye".into()).await.expect("close");
}
