//! Benchmark harness of the worker against the real RabbitMQ and PostgreSQL of this machine and an
//! in-process SMTP sink. The worker runs as a child process (the release binary), with its own database
//! and exchange names per run; the harness publishes, observes the events, and reports median and spread.
//!
//! Scenarios:
//! * `throughput` — N councils registered, then M vacancies published as fast as the broker takes them:
//!   vacancies/s from publish to `succession.determined`, p50/p99/max latency, at prefetch 1, 10, 100;
//! * `ceiling` — beside it, a bare loop doing the minimum a correct worker must do per message (consume,
//!   one transaction: inbox insert, one row update, one outbox insert; publish one persistent event with a
//!   confirm; mark it sent; ack), same prefetch;
//! * `round` — the full NRW round per vacancy (e-mail, service, acceptance → membership);
//! * `bulk` — a whole Land (400 councils, 40,000 candidates) registered through the bus;
//! * `timers` — 100,000 pending deadlines, 1,000 due in the same second: lag from due time to event;
//! * `germany` — every Land's councils (11,000 bodies of every Land code served, villages to big cities,
//!   about 1.5 million candidates) registered through the bus: time from the first publish to the last
//!   `body.registered` (issue 14: ≤ 60 s), `-- --councils N` for another count;
//! * `cases` — 100,000 open cases (NRW successors still to accept): the worker's RSS while opening them and
//!   of a worker restarted on them (issue 14: ≤ 150 MiB);
//! * peak RSS of the worker (VmHWM) in every scenario.
//!
//! `cargo bench --bench worker` (full; minutes), `cargo bench --bench worker -- --smoke` (seconds: tiny
//! sizes, one run; checks only that it completes and the results are well formed),
//! `-- --only throughput,ceiling` to pick scenarios, `-- --prefetch 1,10` to pick prefetch values, `-- --runs N`.
//! The workers under test log at the production default (`info`) into `target/bench-worker.log`.

#[path = "../tests/support/smtp_sink.rs"]
mod smtp_sink;

#[path = "support/snapshots.rs"]
mod snapshots;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use lapin::options::*;
use lapin::types::FieldTable;
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties};
use nachfolge::config::Config;
use serde_json::{json, Value};

const AMQP: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";

fn unique() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..10].to_owned()
}

fn config(suffix: &str, smtp: &str, prefetch: u16) -> Config {
    let mut c = Config::default();
    // loopback without TLS, as every figure in docs/performance.md was measured: sqlx is built with TLS
    // since issue 16, and its default `sslmode=prefer` would encrypt the loopback connections
    c.database.url = format!("postgres://postgres@127.0.0.1:5432/nachfolge_b_{suffix}?sslmode=disable");
    c.database.max_connections = 12;
    c.amqp.commands_exchange = format!("b.{suffix}.commands");
    c.amqp.commands_queue = format!("b.{suffix}.commands");
    c.amqp.events_exchange = format!("b.{suffix}.events");
    c.amqp.dead_letter_exchange = format!("b.{suffix}.dead-letter");
    c.amqp.dead_letter_queue = format!("b.{suffix}.dead-letter");
    c.amqp.events_queue = String::new();
    c.amqp.prefetch = prefetch;
    c.smtp.url = smtp.to_owned();
    c
}

/// The scenarios run "as if" on the day `NACHFOLGE_TEST_NOW` names, like the tests (README, "Testing as if on
/// another day"): the workers' clock offset that puts them there, 0 when it is unset. Each scenario takes
/// "today" from that clock and every period's end from its `deadline.set`, so it holds on any day.
fn pinned_offset() -> i64 {
    static OFFSET: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *OFFSET.get_or_init(|| match std::env::var("NACHFOLGE_TEST_NOW") {
        Ok(v) if !v.trim().is_empty() => {
            let t = nachfolge::calendar::as_of(&v).unwrap_or_else(|e| panic!("NACHFOLGE_TEST_NOW: {e}"));
            (t - chrono::Utc::now()).num_seconds()
        }
        _ => 0,
    })
}

/// "Now" on the scenarios' clock ([`pinned_offset`]).
fn bench_now() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now() + chrono::Duration::seconds(pinned_offset())
}

fn env_of(c: &Config, offset_secs: i64) -> Vec<(String, String)> {
    vec![
        ("NACHFOLGE__DATABASE__URL".into(), c.database.url.clone()),
        ("NACHFOLGE__DATABASE__MAX_CONNECTIONS".into(), c.database.max_connections.to_string()),
        ("NACHFOLGE__AMQP__COMMANDS_EXCHANGE".into(), c.amqp.commands_exchange.clone()),
        ("NACHFOLGE__AMQP__COMMANDS_QUEUE".into(), c.amqp.commands_queue.clone()),
        ("NACHFOLGE__AMQP__EVENTS_EXCHANGE".into(), c.amqp.events_exchange.clone()),
        ("NACHFOLGE__AMQP__EVENTS_QUEUE".into(), String::new()),
        ("NACHFOLGE__AMQP__DEAD_LETTER_EXCHANGE".into(), c.amqp.dead_letter_exchange.clone()),
        ("NACHFOLGE__AMQP__DEAD_LETTER_QUEUE".into(), c.amqp.dead_letter_queue.clone()),
        ("NACHFOLGE__AMQP__PREFETCH".into(), c.amqp.prefetch.to_string()),
        ("NACHFOLGE__SMTP__URL".into(), c.smtp.url.clone()),
        ("NACHFOLGE__HTTP__ADDR".into(), "127.0.0.1:0".into()),
        ("NACHFOLGE__CONSOLE__ADDR".into(), "127.0.0.1:0".into()),
        ("NACHFOLGE__CLOCK__OFFSET_SECS".into(), offset_secs.to_string()),
        // the production default; the lines go to WORKER_LOG
        ("RUST_LOG".into(), "info".into()),
    ]
}

/// Where the workers under test write their log (JSON lines; emptied when the harness starts).
const WORKER_LOG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/bench-worker.log");

fn worker_log() -> std::process::Stdio {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(WORKER_LOG)
        .map(std::process::Stdio::from)
        .unwrap_or_else(|_| std::process::Stdio::inherit())
}

/// The worker as a child process.
struct Worker {
    child: tokio::process::Child,
}

impl Worker {
    async fn start(c: &Config, offset_secs: i64) -> Worker {
        // `NACHFOLGE_BENCH_WORKER=/path/to/nachfolge` measures another build of the worker (e.g. an older
        // commit's, for alternating runs against this one) under the same harness
        let bin = std::env::var_os("NACHFOLGE_BENCH_WORKER")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_nachfolge").into());
        let child = tokio::process::Command::new(bin)
            .arg("run")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .envs(env_of(c, offset_secs))
            .stdout(std::process::Stdio::null())
            .stderr(worker_log())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn worker");
        Worker { child }
    }
    /// Peak resident set size in MiB (VmHWM).
    fn peak_rss_mib(&self) -> f64 {
        self.status_mib("VmHWM:")
    }
    /// Current resident set size in MiB (VmRSS).
    fn rss_mib(&self) -> f64 {
        self.status_mib("VmRSS:")
    }
    /// A size field of `/proc/<pid>/status` in MiB.
    fn status_mib(&self, field: &str) -> f64 {
        let Some(pid) = self.child.id() else { return f64::NAN };
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| s.lines().find(|l| l.starts_with(field)).map(str::to_owned))
            .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse::<f64>().ok()))
            .map(|kib| kib / 1024.0)
            .unwrap_or(f64::NAN)
    }
    async fn stop(mut self) {
        let _ = self.child.start_kill();
        let _ = self.child.wait().await;
    }
}

/// First arrival time of each observed event key.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<HashMap<String, (Instant, Value)>>>);

impl Seen {
    fn count(&self, prefix: &str) -> usize {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).keys().filter(|k| k.starts_with(prefix)).count()
    }
    fn all(&self, prefix: &str) -> Vec<(String, Instant, Value)> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .filter(|(k, _)| k.starts_with(prefix))
            .map(|(k, (t, v))| (k.clone(), *t, v.clone()))
            .collect()
    }
    async fn wait(&self, prefix: &str, n: usize, limit: Duration) -> bool {
        let end = Instant::now() + limit;
        while Instant::now() < end {
            if self.count(prefix) >= n {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        false
    }
}

fn key_of(ev: &Value) -> Option<String> {
    let d = &ev["data"];
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    Some(match ev["type"].as_str()? {
        "body.registered" => format!("reg:{}", s(&d["body"])),
        "succession.determined" => format!("det:{}:{}", s(&d["body"]), s(&d["vacancy"]["member"])),
        "successor.notified" => format!("not:{}", s(&d["case"])),
        "notification.failed" => format!("fail:{}", s(&d["case"])),
        "deadline.set" => format!("dl:{}", s(&d["case"])),
        "membership.changed" if d["change"] == "joined" => format!("join:{}", s(&d["case"])),
        "ceiling.done" => format!("ceil:{}", s(&d["key"])),
        _ => return None,
    })
}

/// Bind an exclusive queue to `exchange` and record what arrives.
async fn observe(conn: &Connection, exchange: &str) -> Seen {
    let ch = conn.create_channel().await.expect("channel");
    ch.exchange_declare(
        exchange.into(),
        lapin::ExchangeKind::Topic,
        ExchangeDeclareOptions { durable: true, ..Default::default() },
        FieldTable::default(),
    )
    .await
    .expect("exchange");
    let q = ch
        .queue_declare("".into(), QueueDeclareOptions { exclusive: true, ..Default::default() }, FieldTable::default())
        .await
        .expect("queue");
    ch.queue_bind(q.name().clone(), exchange.into(), "#".into(), QueueBindOptions::default(), FieldTable::default())
        .await
        .expect("bind");
    ch.basic_qos(500, BasicQosOptions::default()).await.expect("qos");
    let mut consumer = ch
        .basic_consume(
            q.name().clone(),
            "".into(),
            BasicConsumeOptions { no_ack: true, ..Default::default() },
            FieldTable::default(),
        )
        .await
        .expect("consume");
    let seen = Seen::default();
    let sink = seen.clone();
    tokio::spawn(async move {
        let _keep = ch;
        while let Some(Ok(d)) = consumer.next().await {
            let now = Instant::now();
            if let Ok(v) = serde_json::from_slice::<Value>(&d.data) {
                if let Some(k) = key_of(&v) {
                    sink.0.lock().unwrap_or_else(|p| p.into_inner()).entry(k).or_insert((now, v));
                }
            }
        }
    });
    seen
}

async fn publisher(conn: &Connection) -> Channel {
    let ch = conn.create_channel().await.expect("channel");
    ch.confirm_select(ConfirmSelectOptions::default()).await.expect("confirms");
    ch
}

/// A CloudEvent around `data`, serialised.
fn envelope(ty: &str, data: &Value) -> Vec<u8> {
    let ev = json!({"specversion": "1.0", "id": uuid::Uuid::new_v4().to_string(), "source": "urn:bench", "type": ty, "data": data});
    serde_json::to_vec(&ev).expect("json")
}

/// Publish many events with pipelined confirms; returns the publish instant per key.
async fn publish_all(
    ch: &Channel,
    exchange: &str,
    msgs: Vec<(String, &'static str, Value)>,
) -> HashMap<String, Instant> {
    let msgs = msgs.into_iter().map(|(key, ty, data)| (key, ty, envelope(ty, &data))).collect();
    publish_raw(ch, exchange, msgs).await
}

/// Publish serialised events with pipelined confirms; returns the publish instant per key.
async fn publish_raw(
    ch: &Channel,
    exchange: &str,
    msgs: Vec<(String, &'static str, Vec<u8>)>,
) -> HashMap<String, Instant> {
    let mut times = HashMap::with_capacity(msgs.len());
    let mut confirms = Vec::with_capacity(msgs.len());
    for (key, ty, bytes) in msgs {
        let props =
            BasicProperties::default().with_content_type("application/cloudevents+json".into()).with_delivery_mode(2);
        times.insert(key, Instant::now());
        let c = ch
            .basic_publish(exchange.into(), ty.into(), BasicPublishOptions::default(), &bytes, props)
            .await
            .expect("publish");
        confirms.push(c);
    }
    for c in confirms {
        c.await.expect("confirm");
    }
    times
}

/// An NRW council `id` with `seated` members on one list and `free` candidates after them.
fn council(id: &str, lists: usize, seated: usize, free: usize, email: bool) -> Value {
    let size = seated * lists;
    let lists: Vec<Value> = (0..lists)
        .map(|l| {
            let cands: Vec<Value> = (0..seated + free)
                .map(|i| {
                    let cid = format!("{id}-L{l}-{i:03}");
                    let mut c = json!({
                        "id": cid, "position": i + 1, "given_name": "Vorname", "family_name": format!("Name {i}"),
                        "seat": if i < seated { json!({"since": "2025-11-01", "via": "list"}) } else { Value::Null },
                    });
                    if email {
                        c["email"] = json!(format!("c{i}@example.org"));
                    }
                    c
                })
                .collect();
            json!({"id": format!("L{l}"), "name": format!("Liste {l}"), "kind": "party", "candidates": cands})
        })
        .collect();
    json!({
        "body": {"id": id, "name": format!("Rat {id}"), "land": "NW", "statutory_size": size,
                 "term": {"start": "2025-11-01", "end": "2030-10-31"},
                 "returning_officer": {"name": "Wahlleitung", "email": "wahlleitung@example.org", "address": "Markt 1, 12345 Musterstadt"},
                 "remedy_court": {"name": "Verwaltungsgericht Musterstadt", "address": "Justizplatz 1, 12340 Musterstadt"}},
        "lists": lists
    })
}

fn vacancy(body: &str, member: &str) -> Value {
    json!({"body": body, "member": member, "reason": "resigned", "effective_at": "2026-05-01T00:00:00+02:00"})
}

struct Stats {
    rate: f64,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
}

fn stats(lat_ms: &mut [f64], elapsed: Duration) -> Stats {
    lat_ms.sort_by(|a, b| a.total_cmp(b));
    let pick = |p: f64| lat_ms.get(((lat_ms.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f64::NAN);
    Stats {
        rate: lat_ms.len() as f64 / elapsed.as_secs_f64(),
        p50_ms: pick(0.5),
        p99_ms: pick(0.99),
        max_ms: pick(1.0),
    }
}

struct Size {
    councils: usize,
    per_council: usize,
}

/// Register councils through the bus and wait for every `body.registered`.
async fn register(ch: &Channel, c: &Config, seen: &Seen, councils: &[(String, Value)]) -> Duration {
    let msgs = councils.iter().map(|(id, s)| (format!("reg:{id}"), "election.registered", s.clone())).collect();
    let t = Instant::now();
    publish_all(ch, &c.amqp.commands_exchange, msgs).await;
    assert!(seen.wait("reg:", councils.len(), Duration::from_secs(300)).await, "registrations did not complete");
    t.elapsed()
}

async fn throughput(smtp: &str, prefetch: u16, size: &Size) -> (Stats, f64) {
    let suffix = unique();
    let c = config(&suffix, smtp, prefetch);
    let conn = Connection::connect(AMQP, ConnectionProperties::default()).await.expect("rabbitmq");
    let seen = observe(&conn, &c.amqp.events_exchange).await;
    let w = Worker::start(&c, pinned_offset()).await;
    let ch = publisher(&conn).await;
    wait_consumer(&conn, &c).await;
    let councils: Vec<(String, Value)> = (0..size.councils)
        .map(|i| (format!("c{i}"), council(&format!("c{i}"), 1, size.per_council, size.per_council + 2, false)))
        .collect();
    register(&ch, &c, &seen, &councils).await;
    let msgs: Vec<(String, &'static str, Value)> = (0..size.per_council)
        .flat_map(|v| {
            councils.iter().map(move |(id, _)| {
                let member = format!("{id}-L0-{v:03}");
                (format!("det:{id}:{member}"), "vacancy.reported", vacancy(id, &member))
            })
        })
        .collect();
    let n = msgs.len();
    let start = Instant::now();
    let published = publish_all(&ch, &c.amqp.commands_exchange, msgs).await;
    assert!(seen.wait("det:", n, Duration::from_secs(600)).await, "vacancies did not complete");
    let mut lat: Vec<f64> = Vec::with_capacity(n);
    let mut last = start;
    for (k, t, _) in seen.all("det:") {
        if let Some(p) = published.get(&k) {
            lat.push((t - *p).as_secs_f64() * 1e3);
            last = last.max(t);
        }
    }
    let rss = w.peak_rss_mib();
    w.stop().await;
    drop_db(&c).await;
    (stats(&mut lat, last - start), rss)
}

async fn wait_consumer(conn: &Connection, c: &Config) {
    for _ in 0..400 {
        // a passive declare of a missing queue closes its channel: use a fresh one each time
        let Ok(ch) = conn.create_channel().await else { continue };
        if let Ok(q) = ch
            .queue_declare(
                c.amqp.commands_queue.as_str().into(),
                QueueDeclareOptions { passive: true, ..Default::default() },
                FieldTable::default(),
            )
            .await
        {
            if q.consumer_count() > 0 {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("worker did not start consuming");
}

/// Remove the run's database, quorum queues and exchanges from the shared services.
async fn drop_db(c: &Config) {
    if let Ok(conn) = Connection::connect(AMQP, ConnectionProperties::default()).await {
        if let Ok(ch) = conn.create_channel().await {
            for q in [&c.amqp.commands_queue, &c.amqp.dead_letter_queue] {
                let _ = ch.queue_delete(q.as_str().into(), QueueDeleteOptions::default()).await;
            }
            for x in [&c.amqp.commands_exchange, &c.amqp.events_exchange, &c.amqp.dead_letter_exchange] {
                let _ = ch.exchange_delete(x.as_str().into(), ExchangeDeleteOptions::default()).await;
            }
        }
        let _ = conn.close(200, "bye".into()).await;
    }
    // the name without the query (`?sslmode=disable`): with it the DROP named no database and every run
    // left its database behind
    let name = c.database.url.rsplit('/').next().unwrap_or_default();
    let name = name.split('?').next().unwrap_or_default().to_owned();
    if let Ok(pool) = sqlx::PgPool::connect("postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable").await {
        let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)")).execute(&pool).await;
    }
}

/// The ceiling: the minimum a correct worker must do per message, with the same prefetch.
async fn ceiling(prefetch: u16, size: &Size) -> Stats {
    let suffix = unique();
    let db = format!("nachfolge_b_{suffix}");
    let admin = sqlx::PgPool::connect("postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable").await.expect("pg");
    sqlx::query(&format!("CREATE DATABASE \"{db}\"")).execute(&admin).await.expect("create db");
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(u32::from(prefetch.clamp(1, 12)))
        .connect(&format!("postgres://postgres@127.0.0.1:5432/{db}?sslmode=disable"))
        .await
        .expect("db");
    sqlx::raw_sql(
        "CREATE TABLE inbox (id TEXT PRIMARY KEY); CREATE TABLE state (id TEXT PRIMARY KEY, n BIGINT NOT NULL);
         CREATE TABLE outbox (id BIGSERIAL PRIMARY KEY, payload JSONB NOT NULL, sent BOOLEAN NOT NULL DEFAULT false);",
    )
    .execute(&pool)
    .await
    .expect("schema");
    for i in 0..size.councils {
        sqlx::query("INSERT INTO state VALUES ($1, 0)").bind(format!("c{i}")).execute(&pool).await.expect("row");
    }
    let conn = Connection::connect(AMQP, ConnectionProperties::default()).await.expect("rabbitmq");
    let (cmd_x, ev_x, q) =
        (format!("b.{suffix}.c-commands"), format!("b.{suffix}.c-events"), format!("b.{suffix}.c-commands"));
    let seen = observe(&conn, &ev_x).await;
    let ch = publisher(&conn).await;
    let durable = ExchangeDeclareOptions { durable: true, ..Default::default() };
    ch.exchange_declare(cmd_x.as_str().into(), lapin::ExchangeKind::Topic, durable, FieldTable::default())
        .await
        .expect("x");
    let mut args = FieldTable::default();
    args.insert("x-queue-type".into(), lapin::types::AMQPValue::LongString("quorum".into()));
    ch.queue_declare(q.as_str().into(), QueueDeclareOptions::durable(), args).await.expect("q");
    ch.queue_bind(
        q.as_str().into(),
        cmd_x.as_str().into(),
        "#".into(),
        QueueBindOptions::default(),
        FieldTable::default(),
    )
    .await
    .expect("bind");
    // the consumer: lanes like the worker's
    let cconn = Connection::connect(AMQP, ConnectionProperties::default()).await.expect("rabbitmq");
    let cch = cconn.create_channel().await.expect("channel");
    cch.basic_qos(prefetch, BasicQosOptions::default()).await.expect("qos");
    let pch = publisher(&cconn).await;
    let mut consumer = cch
        .basic_consume(q.as_str().into(), "".into(), BasicConsumeOptions::default(), FieldTable::default())
        .await
        .expect("consume");
    let lanes = usize::from(prefetch.clamp(1, 64));
    let mut senders = Vec::new();
    for _ in 0..lanes {
        let (tx, mut rx) = tokio::sync::mpsc::channel::<lapin::message::Delivery>(64);
        senders.push(tx);
        let (pool, pch, ev_x) = (pool.clone(), pch.clone(), ev_x.clone());
        tokio::spawn(async move {
            while let Some(d) = rx.recv().await {
                let v: Value = serde_json::from_slice(&d.data).unwrap_or(Value::Null);
                let id = v["id"].as_str().unwrap_or_default().to_owned();
                let body = v["data"]["body"].as_str().unwrap_or_default().to_owned();
                let key = format!("{body}:{}", v["data"]["member"].as_str().unwrap_or_default());
                let mut tx = pool.begin().await.expect("tx");
                sqlx::query("INSERT INTO inbox VALUES ($1)").bind(&id).execute(&mut *tx).await.expect("inbox");
                sqlx::query("UPDATE state SET n = n + 1 WHERE id = $1")
                    .bind(&body)
                    .execute(&mut *tx)
                    .await
                    .expect("state");
                let event = json!({"specversion": "1.0", "id": id, "type": "ceiling.done", "data": {"key": key}});
                let oid: i64 = sqlx::query_scalar("INSERT INTO outbox (payload) VALUES ($1) RETURNING id")
                    .bind(&event)
                    .fetch_one(&mut *tx)
                    .await
                    .expect("outbox");
                tx.commit().await.expect("commit");
                let props = BasicProperties::default()
                    .with_delivery_mode(2)
                    .with_content_type("application/cloudevents+json".into());
                pch.basic_publish(
                    ev_x.as_str().into(),
                    "ceiling.done".into(),
                    BasicPublishOptions { mandatory: true, ..Default::default() },
                    &serde_json::to_vec(&event).expect("json"),
                    props,
                )
                .await
                .expect("publish")
                .await
                .expect("confirm");
                sqlx::query("UPDATE outbox SET sent = true WHERE id = $1")
                    .bind(oid)
                    .execute(&pool)
                    .await
                    .expect("sent");
                d.ack(BasicAckOptions::default()).await.expect("ack");
            }
        });
    }
    tokio::spawn(async move {
        let _keep = (cconn, cch);
        while let Some(Ok(d)) = consumer.next().await {
            let lane = (d.delivery_tag as usize) % lanes;
            if senders[lane].send(d).await.is_err() {
                break;
            }
        }
    });
    let msgs: Vec<(String, &'static str, Value)> = (0..size.per_council)
        .flat_map(|v| {
            (0..size.councils).map(move |i| {
                let (id, member) = (format!("c{i}"), format!("c{i}-L0-{v:03}"));
                (format!("ceil:{id}:{member}"), "vacancy.reported", vacancy(&id, &member))
            })
        })
        .collect();
    let n = msgs.len();
    let start = Instant::now();
    let published = publish_all(&ch, &cmd_x, msgs).await;
    assert!(seen.wait("ceil:", n, Duration::from_secs(600)).await, "ceiling did not complete");
    let mut lat = Vec::with_capacity(n);
    let mut last = start;
    for (k, t, _) in seen.all("ceil:") {
        if let Some(p) = published.get(&k) {
            lat.push((t - *p).as_secs_f64() * 1e3);
            last = last.max(t);
        }
    }
    let _ = ch.queue_delete(q.as_str().into(), QueueDeleteOptions::default()).await;
    for x in [&cmd_x, &ev_x] {
        if let Ok(ch) = conn.create_channel().await {
            let _ = ch.exchange_delete(x.as_str().into(), ExchangeDeleteOptions::default()).await;
        }
    }
    pool.close().await;
    let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS \"{db}\" WITH (FORCE)")).execute(&admin).await;
    stats(&mut lat, last - start)
}

/// The full NRW round per vacancy: determination, e-mail, service, acceptance → membership.
async fn round(smtp: &smtp_sink::SmtpSink, size: &Size) -> (Stats, f64) {
    let suffix = unique();
    let c = config(&suffix, &smtp.url(), 10);
    let conn = Connection::connect(AMQP, ConnectionProperties::default()).await.expect("rabbitmq");
    let seen = observe(&conn, &c.amqp.events_exchange).await;
    let w = Worker::start(&c, pinned_offset()).await;
    let ch = publisher(&conn).await;
    wait_consumer(&conn, &c).await;
    let councils: Vec<(String, Value)> = (0..size.councils)
        .map(|i| (format!("r{i}"), council(&format!("r{i}"), 1, size.per_council, size.per_council + 2, true)))
        .collect();
    register(&ch, &c, &seen, &councils).await;
    let vac: Vec<(String, &'static str, Value)> = councils
        .iter()
        .flat_map(|(id, _)| {
            (0..size.per_council).map(move |v| {
                let member = format!("{id}-L0-{v:03}");
                (format!("det:{id}:{member}"), "vacancy.reported", vacancy(id, &member))
            })
        })
        .collect();
    let n = vac.len();
    let start = Instant::now();
    let published = publish_all(&ch, &c.amqp.commands_exchange, vac).await;
    assert!(seen.wait("not:", n, Duration::from_secs(600)).await, "notifications did not complete");
    let today = nachfolge::deadline::local_date(bench_now()).to_string();
    let now = bench_now().to_rfc3339();
    let mut follow = Vec::new();
    let mut case_of = HashMap::new();
    for (k, _, ev) in seen.all("det:") {
        let d = &ev["data"];
        let (body, case, cand) = (
            d["body"].as_str().unwrap_or_default(),
            d["case"].as_str().unwrap_or_default(),
            d["successor"]["id"].as_str().unwrap_or_default(),
        );
        case_of.insert(case.to_owned(), k);
        follow.push((
            format!("s:{case}"),
            "notification.served",
            json!({"body": body, "case": case, "candidate": cand, "method": "certificate", "on": today}),
        ));
        follow.push((
            format!("a:{case}"),
            "declaration.received",
            json!({"body": body, "case": case, "candidate": cand, "kind": "accept", "received_at": now}),
        ));
    }
    publish_all(&ch, &c.amqp.commands_exchange, follow).await;
    assert!(seen.wait("join:", n, Duration::from_secs(600)).await, "memberships did not complete");
    let mut lat = Vec::new();
    let mut last = start;
    for (k, t, _) in seen.all("join:") {
        let case = k.trim_start_matches("join:");
        if let Some(p) = case_of.get(case).and_then(|dk| published.get(dk)) {
            lat.push((t - *p).as_secs_f64() * 1e3);
            last = last.max(t);
        }
    }
    let rss = w.peak_rss_mib();
    w.stop().await;
    drop_db(&c).await;
    (stats(&mut lat, last - start), rss)
}

async fn bulk(smtp: &str, councils_n: usize, candidates_per: usize) -> (Duration, f64) {
    let suffix = unique();
    let c = config(&suffix, smtp, 32);
    let conn = Connection::connect(AMQP, ConnectionProperties::default()).await.expect("rabbitmq");
    let seen = observe(&conn, &c.amqp.events_exchange).await;
    let w = Worker::start(&c, pinned_offset()).await;
    let ch = publisher(&conn).await;
    wait_consumer(&conn, &c).await;
    // realistic: 5 lists per council, a third of each list seated
    let per_list = candidates_per / 5;
    let councils: Vec<(String, Value)> = (0..councils_n)
        .map(|i| (format!("g{i}"), council(&format!("g{i}"), 5, per_list / 3, per_list - per_list / 3, true)))
        .collect();
    let took = register(&ch, &c, &seen, &councils).await;
    let rss = w.peak_rss_mib();
    w.stop().await;
    drop_db(&c).await;
    (took, rss)
}

/// What the `germany` scenario measured.
struct Germany {
    councils: usize,
    candidates: usize,
    megabytes: f64,
    /// from the first publish to the last `body.registered` (published by the relay after the commit)
    took: Duration,
    /// publishing alone (all confirmed by the broker)
    published: Duration,
    peak_rss: f64,
    per_land: std::collections::BTreeMap<&'static str, (usize, usize)>,
}

/// Every Land's councils at once: `n` bodies of the mix of `support/snapshots.rs` (every Land code the
/// worker serves, villages to big cities) registered through the bus as fast as the broker takes them.
async fn germany(smtp: &str, n: usize) -> Germany {
    let suffix = unique();
    let c = config(&suffix, smtp, 32);
    let conn = Connection::connect(AMQP, ConnectionProperties::default()).await.expect("rabbitmq");
    let seen = observe(&conn, &c.amqp.events_exchange).await;
    let w = Worker::start(&c, pinned_offset()).await;
    let ch = publisher(&conn).await;
    wait_consumer(&conn, &c).await;
    // serialised before the clock starts: the harness's own JSON work is not measured
    let mut per_land = std::collections::BTreeMap::new();
    let msgs: Vec<(String, &'static str, Vec<u8>)> = (0..n)
        .map(|i| {
            let (land, shape) = (snapshots::land_of(i, n), snapshots::shape(i));
            let id = format!("de{i}");
            let e = per_land.entry(land).or_insert((0, 0));
            e.0 += 1;
            e.1 += shape.lists * shape.per_list;
            let snapshot = snapshots::council(land, &id, shape, true, false);
            (format!("reg:{id}"), "election.registered", envelope("election.registered", &snapshot))
        })
        .collect();
    let candidates = per_land.values().map(|v| v.1).sum();
    let megabytes = msgs.iter().map(|m| m.2.len()).sum::<usize>() as f64 / (1024.0 * 1024.0);
    let start = Instant::now();
    publish_raw(&ch, &c.amqp.commands_exchange, msgs).await;
    let published = start.elapsed();
    assert!(seen.wait("reg:", n, Duration::from_secs(1800)).await, "registrations did not complete");
    let all = seen.all("reg:");
    let registered: usize = all.iter().filter_map(|(_, _, ev)| ev["data"]["candidates"].as_u64()).sum::<u64>() as usize;
    assert_eq!(registered, candidates, "body.registered must count every candidate");
    let took = all.iter().map(|(_, t, _)| t.saturating_duration_since(start)).max().unwrap_or_default();
    let peak_rss = w.peak_rss_mib();
    w.stop().await;
    drop_db(&c).await;
    Germany { councils: n, candidates, megabytes, took, published, peak_rss, per_land }
}

/// What the `cases` scenario measured.
struct OpenCases {
    open: i64,
    /// from the first vacancy published to the last `succession.determined`
    opened: Duration,
    /// … to the last `notification.failed`
    took: Duration,
    /// the worker that opened them: peak and current RSS
    peak_rss: f64,
    rss: f64,
    /// a fresh worker on the same database, after `settle`: peak and current RSS
    restart_peak_rss: f64,
    restart_rss: f64,
}

/// Open cases: `councils` NRW councils with `per` vacancies each, every successor determined and still to
/// accept (no e-mail address: `notification.failed`, the case waits in `offered` for the service and the
/// declaration, § 45 Abs. 6 KWahlG NRW). The worker's RSS while opening them, and that of a worker started
/// afterwards on the same database (what it holds for the open cases at rest: timers, relay, mail sender).
async fn open_cases(smtp: &str, councils: usize, per: usize, settle: Duration) -> OpenCases {
    let suffix = unique();
    let c = config(&suffix, smtp, 32);
    let conn = Connection::connect(AMQP, ConnectionProperties::default()).await.expect("rabbitmq");
    let seen = observe(&conn, &c.amqp.events_exchange).await;
    let w = Worker::start(&c, pinned_offset()).await;
    let ch = publisher(&conn).await;
    wait_consumer(&conn, &c).await;
    let bodies: Vec<(String, Value)> =
        (0..councils).map(|i| (format!("o{i}"), council(&format!("o{i}"), 1, per, per + 2, false))).collect();
    let msgs = bodies.iter().map(|(id, s)| (format!("reg:{id}"), "election.registered", s.clone())).collect();
    publish_all(&ch, &c.amqp.commands_exchange, msgs).await;
    assert!(seen.wait("reg:", councils, Duration::from_secs(900)).await, "registrations did not complete");
    // vacancies round-robin over the councils, as they would come in
    let vac: Vec<(String, &'static str, Vec<u8>)> = (0..per)
        .flat_map(|v| {
            bodies.iter().map(move |(id, _)| {
                let member = format!("{id}-L0-{v:03}");
                (format!("det:{id}:{member}"), "vacancy.reported", envelope("vacancy.reported", &vacancy(id, &member)))
            })
        })
        .collect();
    let n = vac.len();
    let start = Instant::now();
    publish_raw(&ch, &c.amqp.commands_exchange, vac).await;
    // every successor determined (the case open), then every e-mail failed (the mail sender's pace)
    assert!(seen.wait("det:", n, Duration::from_secs(3600)).await, "vacancies did not complete");
    assert!(seen.wait("fail:", n, Duration::from_secs(3600)).await, "notifications did not complete");
    let opened = seen.all("det:").iter().map(|(_, t, _)| t.saturating_duration_since(start)).max().unwrap_or_default();
    let took = start.elapsed();
    let (peak_rss, rss) = (w.peak_rss_mib(), w.rss_mib());
    w.stop().await;
    let pool = sqlx::PgPool::connect(&c.database.url).await.expect("db");
    let open: i64 =
        sqlx::query_scalar("SELECT count(*) FROM cases WHERE state = 'offered'").fetch_one(&pool).await.expect("count");
    pool.close().await;
    let w = Worker::start(&c, pinned_offset()).await;
    wait_consumer(&conn, &c).await;
    tokio::time::sleep(settle).await;
    let (restart_peak_rss, restart_rss) = (w.peak_rss_mib(), w.rss_mib());
    w.stop().await;
    drop_db(&c).await;
    OpenCases { open, opened, took, peak_rss, rss, restart_peak_rss, restart_rss }
}

async fn timers(smtp: &str, due: usize, pending: usize) -> (Stats, f64) {
    let suffix = unique();
    let c = config(&suffix, smtp, 32);
    let conn = Connection::connect(AMQP, ConnectionProperties::default()).await.expect("rabbitmq");
    let seen = observe(&conn, &c.amqp.events_exchange).await;
    let w = Worker::start(&c, pinned_offset()).await;
    let ch = publisher(&conn).await;
    wait_consumer(&conn, &c).await;
    let per = 50.min(due);
    let councils: Vec<(String, Value)> =
        (0..due.div_ceil(per)).map(|i| (format!("t{i}"), council(&format!("t{i}"), 1, per, per + 2, false))).collect();
    register(&ch, &c, &seen, &councils).await;
    let vac: Vec<(String, &'static str, Value)> = councils
        .iter()
        .flat_map(|(id, _)| {
            (0..per).map(move |v| {
                let member = format!("{id}-L0-{v:03}");
                (format!("det:{id}:{member}"), "vacancy.reported", vacancy(id, &member))
            })
        })
        .take(due)
        .collect();
    publish_all(&ch, &c.amqp.commands_exchange, vac).await;
    assert!(seen.wait("fail:", due, Duration::from_secs(600)).await, "determinations did not complete");
    let today = nachfolge::deadline::local_date(bench_now()).to_string();
    let served: Vec<(String, &'static str, Value)> = seen
        .all("det:")
        .into_iter()
        .map(|(_, _, ev)| {
            let d = &ev["data"];
            let case = d["case"].as_str().unwrap_or_default().to_owned();
            (
                format!("s:{case}"),
                "notification.served",
                json!({"body": d["body"], "case": case, "candidate": d["successor"]["id"], "method": "certificate", "on": today}),
            )
        })
        .collect();
    publish_all(&ch, &c.amqp.commands_exchange, served).await;
    assert!(seen.wait("dl:", due, Duration::from_secs(600)).await, "deadlines were not set");
    let ends_at = seen
        .all("dl:")
        .first()
        .and_then(|(_, _, e)| e["data"]["ends_at"].as_str().map(str::to_owned))
        .expect("ends_at");
    let ends_at = chrono::DateTime::parse_from_rfc3339(&ends_at).expect("rfc3339").with_timezone(&chrono::Utc);
    w.stop().await;
    // the other pending deadlines, far in the future
    let pool = sqlx::PgPool::connect(&c.database.url).await.expect("db");
    sqlx::query(
        "INSERT INTO timers (key, body_id, case_id, kind, round, due_at) SELECT 'filler-' || g, 't0', 'none', 'deadline', 1, now() + interval '400 days' FROM generate_series(1, $1) g",
    )
    .bind((pending.saturating_sub(due)) as i64)
    .execute(&pool)
    .await
    .expect("filler timers");
    pool.close().await;
    // restart so that the worker's clock reaches the due time about 3 s from now; the offset is whole
    // seconds, so the real moment the deadlines fall due is computed from it, not assumed
    let offset = (ends_at - (chrono::Utc::now() + chrono::Duration::seconds(3))).num_seconds();
    let due_real = ends_at - chrono::Duration::seconds(offset);
    let t0_real = Instant::now() + (due_real - chrono::Utc::now()).to_std().unwrap_or_default();
    let w = Worker::start(&c, offset).await;
    assert!(seen.wait("join:", due, Duration::from_secs(600)).await, "deadlines did not fire");
    let mut lat: Vec<f64> =
        seen.all("join:").iter().map(|(_, t, _)| t.saturating_duration_since(t0_real).as_secs_f64() * 1e3).collect();
    let rss = w.peak_rss_mib();
    w.stop().await;
    drop_db(&c).await;
    let elapsed = lat.iter().copied().fold(0.0f64, f64::max) / 1e3;
    (stats(&mut lat, Duration::from_secs_f64(elapsed.max(1e-3))), rss)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn spread(v: &[f64]) -> (f64, f64) {
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (min, max)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let smoke = args.iter().any(|a| a == "--smoke");
    // the value after a flag: `--runs 3`
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
    let only: Option<Vec<String>> = value("--only").map(|s| s.split(',').map(str::to_owned).collect());
    let runs: usize = value("--runs").and_then(|s| s.parse().ok()).unwrap_or(if smoke { 1 } else { 3 });
    let want = |s: &str| only.as_ref().is_none_or(|o| o.iter().any(|x| x == s));
    let _ = std::fs::write(WORKER_LOG, "");
    let sink = smtp_sink::SmtpSink::start().await;
    let smtp = sink.url();
    let size = if smoke { Size { councils: 4, per_council: 5 } } else { Size { councils: 100, per_council: 10 } };
    // `--prefetch 1,10`: only these prefetch values in the throughput/ceiling scenarios
    let chosen: Option<Vec<u16>> = value("--prefetch").map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect());
    let prefetches: &[u16] = match &chosen {
        Some(c) => c,
        None if smoke => &[10],
        None => &[1, 10, 100],
    };
    let mut report = serde_json::Map::new();
    println!("worker benchmark: {} run(s) per figure{}", runs, if smoke { " (smoke)" } else { "" });

    for &p in prefetches {
        if want("throughput") || want("ceiling") {
            let (mut wr, mut wp99, mut cr, mut cp99, mut rss) = (vec![], vec![], vec![], vec![], vec![]);
            for _ in 0..runs {
                if want("throughput") {
                    let (s, r) = throughput(&smtp, p, &size).await;
                    println!("  throughput prefetch {p:>3}: {:>7.0} vacancies/s  p50 {:>7.1} ms  p99 {:>7.1} ms  max {:>7.1} ms  rss {r:.0} MiB", s.rate, s.p50_ms, s.p99_ms, s.max_ms);
                    wr.push(s.rate);
                    wp99.push(s.p99_ms);
                    rss.push(r);
                }
                if want("ceiling") {
                    let s = ceiling(p, &size).await;
                    println!("  ceiling    prefetch {p:>3}: {:>7.0} messages/s   p50 {:>7.1} ms  p99 {:>7.1} ms  max {:>7.1} ms", s.rate, s.p50_ms, s.p99_ms, s.max_ms);
                    cr.push(s.rate);
                    cp99.push(s.p99_ms);
                }
            }
            let (w, c) = (median(&mut wr.clone()), median(&mut cr.clone()));
            report.insert(
                format!("prefetch_{p}"),
                json!({
                    "messages": size.councils * size.per_council,
                    "worker_rate_median": w, "worker_rate_spread": spread(&wr), "worker_p99_ms_median": median(&mut wp99.clone()),
                    "ceiling_rate_median": c, "ceiling_rate_spread": spread(&cr), "ceiling_p99_ms_median": median(&mut cp99.clone()),
                    "ratio": if c > 0.0 { w / c } else { f64::NAN },
                    "peak_rss_mib": spread(&rss).1,
                }),
            );
        }
    }
    if want("round") {
        let rsize = if smoke { Size { councils: 2, per_council: 3 } } else { Size { councils: 20, per_council: 10 } };
        let (mut rates, mut p99, mut rss) = (vec![], vec![], vec![]);
        for _ in 0..runs {
            let (s, r) = round(&sink, &rsize).await;
            println!(
                "  full NRW round: {:>7.0} rounds/s  p50 {:>7.1} ms  p99 {:>7.1} ms  rss {r:.0} MiB",
                s.rate, s.p50_ms, s.p99_ms
            );
            rates.push(s.rate);
            p99.push(s.p99_ms);
            rss.push(r);
        }
        report.insert("round".into(), json!({"rounds": rsize.councils * rsize.per_council, "rate_median": median(&mut rates.clone()), "rate_spread": spread(&rates), "p99_ms_median": median(&mut p99), "peak_rss_mib": spread(&rss).1}));
    }
    if want("bulk") {
        let (n, per) = if smoke { (10, 100) } else { (400, 100) };
        let (mut secs, mut rss) = (vec![], vec![]);
        for _ in 0..runs {
            let (t, r) = bulk(&smtp, n, per).await;
            println!(
                "  bulk registration: {n} councils, {} candidates in {:.2} s  rss {r:.0} MiB",
                n * per,
                t.as_secs_f64()
            );
            secs.push(t.as_secs_f64());
            rss.push(r);
        }
        report.insert("bulk".into(), json!({"councils": n, "candidates": n * per, "seconds_median": median(&mut secs.clone()), "seconds_spread": spread(&secs), "peak_rss_mib": spread(&rss).1}));
    }
    if want("timers") {
        let (due, pending) = if smoke { (20, 1_000) } else { (1_000, 100_000) };
        let (mut p50, mut p99, mut rss) = (vec![], vec![], vec![]);
        for _ in 0..runs {
            let (s, r) = timers(&smtp, due, pending).await;
            println!("  timers: {pending} pending, {due} due at once: lag p50 {:>7.1} ms  p99 {:>7.1} ms  max {:>7.1} ms  rss {r:.0} MiB", s.p50_ms, s.p99_ms, s.max_ms);
            p50.push(s.p50_ms);
            p99.push(s.p99_ms);
            rss.push(r);
        }
        report.insert("timers".into(), json!({"pending": pending, "due": due, "lag_p50_ms_median": median(&mut p50), "lag_p99_ms_median": median(&mut p99.clone()), "lag_p99_ms_spread": spread(&p99), "peak_rss_mib": spread(&rss).1}));
    }
    if want("germany") {
        let n = if smoke { 11 } else { value("--councils").and_then(|s| s.parse().ok()).unwrap_or(11_000) };
        let (mut secs, mut rss) = (vec![], vec![]);
        let mut last = None;
        for _ in 0..runs {
            let g = germany(&smtp, n).await;
            println!(
                "  germany: {} councils, {} candidates ({:.0} MiB of messages) registered in {:.2} s (published in {:.2} s)  rss {:.0} MiB",
                g.councils,
                g.candidates,
                g.megabytes,
                g.took.as_secs_f64(),
                g.published.as_secs_f64(),
                g.peak_rss
            );
            secs.push(g.took.as_secs_f64());
            rss.push(g.peak_rss);
            last = Some(g);
        }
        if let Some(g) = last {
            let lands: serde_json::Map<String, Value> = g
                .per_land
                .iter()
                .map(|(l, (b, c))| ((*l).to_owned(), json!({"councils": b, "candidates": c})))
                .collect();
            report.insert("germany".into(), json!({"councils": g.councils, "candidates": g.candidates, "megabytes": g.megabytes, "lands": lands, "seconds_median": median(&mut secs.clone()), "seconds_spread": spread(&secs), "peak_rss_mib": spread(&rss).1}));
        }
    }
    if want("cases") {
        let (councils, per, settle) = if smoke { (10, 5, 1) } else { (10_000, 10, 5) };
        let (mut peak, mut after) = (vec![], vec![]);
        let mut last = None;
        for _ in 0..runs {
            let o = open_cases(&smtp, councils, per, Duration::from_secs(settle)).await;
            println!(
                "  open cases: {} open (determined in {:.1} s, notified in {:.1} s)  worker rss peak {:.0} MiB, now {:.0} MiB; restarted worker after {settle} s: peak {:.0} MiB, now {:.0} MiB",
                o.open,
                o.opened.as_secs_f64(),
                o.took.as_secs_f64(),
                o.peak_rss,
                o.rss,
                o.restart_peak_rss,
                o.restart_rss
            );
            peak.push(o.peak_rss);
            after.push(o.restart_peak_rss);
            last = Some(o);
        }
        if let Some(o) = last {
            report.insert("cases".into(), json!({"open": o.open, "determined_seconds": o.opened.as_secs_f64(), "notified_seconds": o.took.as_secs_f64(), "peak_rss_mib": spread(&peak).1, "rss_mib": o.rss, "restarted_peak_rss_mib": spread(&after).1, "restarted_rss_mib": o.restart_rss}));
        }
    }
    let well_formed = !report.is_empty();
    assert!(well_formed, "no scenario ran");
    println!("{}", Value::Object(report));
}
