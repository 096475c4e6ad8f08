//! Test harness: a worker in-process (or as a child process) against the real RabbitMQ and PostgreSQL of
//! this machine and an in-process SMTP sink. Each app has its own database and its own exchange and queue
//! names, so tests run in parallel without seeing each other.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use lapin::options::{
    BasicAckOptions, BasicConsumeOptions, BasicPublishOptions, QueueBindOptions, QueueDeclareOptions,
};
use lapin::types::FieldTable;
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties};
use nachfolge::config::Config;
use nachfolge::worker::{Clock, Worker};
use serde_json::{json, Value};

use super::smtp_sink::SmtpSink;

pub const AMQP_URL: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";

/// A unique suffix for names.
pub fn unique() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..12].to_owned()
}

/// The environment variable that runs the suite "as if" on another day (README, "Testing as if on another
/// day"): `YYYY-MM-DD` stands for that day at 10:00 in Berlin, an RFC 3339 instant for itself. Unset, the
/// tests run on the real clock.
pub const PINNED_NOW: &str = "NACHFOLGE_TEST_NOW";

/// The pinned instant of [`PINNED_NOW`], if set. Panics with the variable's name on a value that is neither
/// form: a sweep that silently ran on the real clock would prove nothing.
pub fn pinned_now() -> Option<chrono::DateTime<chrono::Utc>> {
    let v = std::env::var(PINNED_NOW).ok().filter(|v| !v.trim().is_empty())?;
    Some(nachfolge::calendar::as_of(&v).unwrap_or_else(|e| panic!("{PINNED_NOW}: {e}")))
}

/// The clock offset (whole seconds) that put this test process on [`pinned_now`] when it first asked; 0 when
/// not pinned. One offset per process: time runs on from the pinned instant as on the real clock.
pub fn pinned_offset_secs() -> i64 {
    static OFFSET: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *OFFSET.get_or_init(|| pinned_now().map_or(0, |t| (t - chrono::Utc::now()).num_seconds()))
}

/// "Now" for a test that has no app: the real clock shifted like a test worker's (see [`PINNED_NOW`]).
pub fn test_now() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now() + chrono::Duration::seconds(pinned_offset_secs())
}

/// The configuration of a test app: its own database and names.
pub fn test_config(suffix: &str, smtp_url: &str) -> Config {
    let mut c = Config::default();
    c.database.url = format!("postgres://postgres@127.0.0.1:5432/nachfolge_t_{suffix}");
    c.database.max_connections = 5;
    c.amqp.url = AMQP_URL.into();
    c.amqp.commands_exchange = format!("t.{suffix}.commands");
    c.amqp.commands_queue = format!("t.{suffix}.commands");
    c.amqp.events_exchange = format!("t.{suffix}.events");
    c.amqp.dead_letter_exchange = format!("t.{suffix}.dead-letter");
    c.amqp.dead_letter_queue = format!("t.{suffix}.dead-letter");
    c.amqp.events_queue = String::new();
    c.amqp.prefetch = 8;
    c.smtp.url = smtp_url.into();
    c.smtp.from = "wahlleitung-system@example.org".into();
    c.smtp.timeout_secs = 5;
    c.http.addr = "127.0.0.1:0".into();
    c.console.addr = "127.0.0.1:0".into();
    c.console.secure_cookie = false;
    c.worker.poll_interval_ms = 100;
    c.worker.unknown_retry_secs = 2;
    c.clock.offset_secs = pinned_offset_secs();
    c
}

/// The `ends_at` of a `deadline.set` event.
pub fn period_end(deadline_set: &Value) -> chrono::DateTime<chrono::Utc> {
    let at = deadline_set["data"]["ends_at"].as_str().unwrap_or_else(|| panic!("no ends_at in {deadline_set}"));
    chrono::DateTime::parse_from_rfc3339(at).unwrap_or_else(|e| panic!("ends_at {at}: {e}")).with_timezone(&chrono::Utc)
}

/// Dead-lettered messages with their `x-rejection-reason`.
pub type DeadLetters = Arc<Mutex<Vec<(Value, Option<String>)>>>;

/// Events seen on the events exchange, in arrival order.
#[derive(Clone, Default)]
pub struct Collected(Arc<Mutex<Vec<Value>>>);

impl Collected {
    pub fn all(&self) -> Vec<Value> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
    pub fn of(&self, ty: &str) -> Vec<Value> {
        self.all().into_iter().filter(|e| e["type"] == ty).collect()
    }
}

pub struct App {
    pub suffix: String,
    pub config: Config,
    pub clock: Arc<Clock>,
    pub worker: Option<Worker>,
    pub smtp: SmtpSink,
    pub conn: Connection,
    pub ch: Channel,
    pub events: Collected,
    pub dead: DeadLetters,
    /// Deletes the test's queues, exchanges and database when the app is dropped (also on failure).
    pub cleanup: Cleanup,
}

/// Removes what a test created on the shared services — its quorum queues, exchanges and database — when
/// dropped, even when the test panics. Leftover quorum queues pile up on the machine's RabbitMQ otherwise.
pub struct Cleanup(pub Config);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let c = self.0.clone();
        // the worker's loops see their shutdown signal first and do not declare the topology again
        std::thread::sleep(std::time::Duration::from_millis(300));
        let done = std::thread::spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return };
            rt.block_on(async move {
                if let Ok(conn) = Connection::connect(AMQP_URL, ConnectionProperties::default()).await {
                    // a channel per deletion: a refused one (the observer queue is exclusive to a connection
                    // that may still be open) closes its channel and must not stop the others
                    let observer = format!("{}.observer", c.amqp.events_exchange);
                    for q in [&c.amqp.commands_queue, &c.amqp.dead_letter_queue, &c.amqp.events_queue, &observer] {
                        if let (false, Ok(ch)) = (q.is_empty(), conn.create_channel().await) {
                            let _ = ch.queue_delete(q.as_str().into(), Default::default()).await;
                        }
                    }
                    for x in [&c.amqp.commands_exchange, &c.amqp.events_exchange, &c.amqp.dead_letter_exchange] {
                        if let Ok(ch) = conn.create_channel().await {
                            let _ = ch.exchange_delete(x.as_str().into(), Default::default()).await;
                        }
                    }
                    let _ = conn.close(200, "bye".into()).await;
                }
                let name = c.database.url.rsplit('/').next().unwrap_or_default().to_owned();
                if name.starts_with("nachfolge_t_") {
                    if let Ok(pool) = sqlx::PgPool::connect("postgres://postgres@127.0.0.1:5432/postgres").await {
                        let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                            .execute(&pool)
                            .await;
                        pool.close().await;
                    }
                }
            });
        });
        let _ = done.join();
    }
}

impl App {
    /// Start an app with the default test configuration.
    pub async fn spawn() -> App {
        App::spawn_with(|_| {}).await
    }

    /// Start an app; `f` adjusts the configuration.
    pub async fn spawn_with(f: impl FnOnce(&mut Config)) -> App {
        let smtp = SmtpSink::start().await;
        let suffix = unique();
        let mut config = test_config(&suffix, &smtp.url());
        f(&mut config);
        let clock = Arc::new(Clock::with_offset_secs(config.clock.offset_secs));
        let (conn, ch, events, dead) = observe(&config).await;
        let worker = Worker::start(config.clone(), clock.clone()).await.expect("worker starts");
        let cleanup = Cleanup(config.clone());
        let app = App { suffix, config, clock, worker: Some(worker), smtp, conn, ch, events, dead, cleanup };
        app.wait_ready().await;
        app
    }

    /// Wait until the worker consumes.
    pub async fn wait_ready(&self) {
        let shared = self.worker.as_ref().expect("running").shared.clone();
        for _ in 0..200 {
            if shared.consumer_registered.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("worker did not register its consumer");
    }

    /// Publish a structured-mode CloudEvent; returns its id.
    pub async fn send(&self, ty: &str, data: Value) -> String {
        let id = uuid::Uuid::new_v4().to_string();
        self.send_with_id(&id, ty, data).await;
        id
    }

    pub async fn send_with_id(&self, id: &str, ty: &str, data: Value) {
        let subject = data
            .get("body")
            .and_then(|b| b.as_str().map(str::to_owned).or_else(|| b["id"].as_str().map(str::to_owned)));
        let event = json!({
            "specversion": "1.0", "id": id, "source": "urn:test", "type": ty,
            "time": "2026-11-30T10:00:00+01:00", "subject": subject,
            "datacontenttype": "application/json", "data": data,
        });
        let props =
            BasicProperties::default().with_content_type("application/cloudevents+json".into()).with_delivery_mode(2);
        self.send_raw(ty, &serde_json::to_vec(&event).expect("json"), props).await;
    }

    pub async fn send_raw(&self, routing_key: &str, body: &[u8], props: BasicProperties) {
        self.ch
            .basic_publish(
                self.config.amqp.commands_exchange.as_str().into(),
                routing_key.into(),
                BasicPublishOptions::default(),
                body,
                props,
            )
            .await
            .expect("publish")
            .await
            .expect("confirm");
    }

    /// Wait for the n-th (1-based) event of a type matching `pred`.
    pub async fn wait_event(&self, ty: &str, pred: impl Fn(&Value) -> bool) -> Value {
        self.wait_events(ty, 1, &pred).await.remove(0)
    }

    /// Wait until at least `n` events of a type match `pred`; returns them.
    pub async fn wait_events(&self, ty: &str, n: usize, pred: &dyn Fn(&Value) -> bool) -> Vec<Value> {
        for _ in 0..300 {
            let found: Vec<Value> = self.events.of(ty).into_iter().filter(|e| pred(e)).collect();
            if found.len() >= n {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let seen: Vec<String> = self.events.all().iter().map(|e| e["type"].to_string()).collect();
        panic!("timed out waiting for {n} × {ty}; seen: {seen:?}");
    }

    /// Wait for `n` dead-lettered messages.
    pub async fn wait_dead(&self, n: usize) -> Vec<(Value, Option<String>)> {
        for _ in 0..300 {
            let d = self.dead.lock().unwrap_or_else(|p| p.into_inner()).clone();
            if d.len() >= n {
                return d;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("timed out waiting for {n} dead letters");
    }

    /// Let the worker's deadline loop see `by` more time.
    pub fn advance(&self, by: chrono::Duration) {
        self.clock.advance(by);
    }

    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.clock.now()
    }

    /// Let the worker's clock reach `t` (no move when it is there already). A period's end depends on the day
    /// of service (weekends and holidays move it, § 193 BGB), so tests move to the end a `deadline.set` names
    /// ([`period_end`]), never by a fixed count of days.
    pub fn advance_to(&self, t: chrono::DateTime<chrono::Utc>) {
        let by = t - self.clock.now();
        if by > chrono::Duration::zero() {
            self.clock.advance(by);
        }
    }

    /// Let the period of a `deadline.set` event end: the clock a minute past its `ends_at`.
    pub fn pass_period(&self, deadline_set: &Value) {
        self.advance_to(period_end(deadline_set) + chrono::Duration::minutes(1));
    }

    /// Stop the worker gracefully and start a new one on the same database and names.
    pub async fn restart(&mut self) {
        if let Some(w) = self.worker.take() {
            w.shutdown().await;
        }
        let worker = Worker::start(self.config.clone(), self.clock.clone()).await.expect("worker restarts");
        self.worker = Some(worker);
        self.wait_ready().await;
    }

    /// Give the worker time to process what it has and assert nothing more of a type arrives.
    pub async fn settle(&self) {
        tokio::time::sleep(Duration::from_millis(700)).await;
    }

    pub async fn db(&self) -> sqlx::PgPool {
        sqlx::PgPool::connect(&self.config.database.url).await.expect("test db")
    }
}

/// Declare the topology (the worker declares the same; doing it first lets a test bind before the worker
/// starts) and an exclusive queue bound `#` to the events exchange. Returns a channel with publisher
/// confirms for the test's own messages and a consumer of that queue.
pub async fn events_consumer(conn: &Connection, config: &Config) -> (Channel, lapin::Consumer) {
    let ch = conn.create_channel().await.expect("channel");
    ch.confirm_select(Default::default()).await.expect("confirms");
    nachfolge::bus::declare_topology(&ch, &config.amqp).await.expect("topology");
    let q = format!("{}.observer", config.amqp.events_exchange);
    ch.queue_declare(
        q.as_str().into(),
        QueueDeclareOptions { exclusive: true, auto_delete: true, ..Default::default() },
        FieldTable::default(),
    )
    .await
    .expect("observer queue");
    ch.queue_bind(
        q.as_str().into(),
        config.amqp.events_exchange.as_str().into(),
        "#".into(),
        QueueBindOptions::default(),
        FieldTable::default(),
    )
    .await
    .expect("bind observer");
    let consumer = conn
        .create_channel()
        .await
        .expect("channel")
        .basic_consume(q.as_str().into(), "".into(), BasicConsumeOptions::default(), FieldTable::default())
        .await
        .expect("consume events");
    (ch, consumer)
}

/// Publish a structured-mode CloudEvent with a fresh id to `exchange`; the returned confirm resolves
/// when the broker has taken the message.
pub async fn publish_command(ch: &Channel, exchange: &str, ty: &str, data: Value) -> lapin::PublisherConfirm {
    let ev = json!({"specversion": "1.0", "id": uuid::Uuid::new_v4().to_string(), "source": "urn:test", "type": ty, "data": data});
    let props =
        BasicProperties::default().with_content_type("application/cloudevents+json".into()).with_delivery_mode(2);
    ch.basic_publish(
        exchange.into(),
        ty.into(),
        BasicPublishOptions::default(),
        &serde_json::to_vec(&ev).expect("json"),
        props,
    )
    .await
    .expect("publish")
}

/// Bind a queue to the events exchange and one to the dead-letter exchange, and collect what arrives.
pub async fn observe(config: &Config) -> (Connection, Channel, Collected, DeadLetters) {
    let conn = Connection::connect(AMQP_URL, ConnectionProperties::default()).await.expect("rabbitmq reachable");
    let (ch, mut consumer) = events_consumer(&conn, config).await;
    let events = Collected::default();
    let sink = events.clone();
    tokio::spawn(async move {
        while let Some(Ok(d)) = consumer.next().await {
            if let Ok(v) = serde_json::from_slice::<Value>(&d.data) {
                sink.0.lock().unwrap_or_else(|p| p.into_inner()).push(v);
            }
            let _ = d.ack(BasicAckOptions::default()).await;
        }
    });
    let dead = Arc::new(Mutex::new(Vec::new()));
    let ch3 = conn.create_channel().await.expect("channel");
    let mut dl = ch3
        .basic_consume(
            config.amqp.dead_letter_queue.as_str().into(),
            "".into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await
        .expect("consume dead letters");
    let dsink = dead.clone();
    tokio::spawn(async move {
        while let Some(Ok(d)) = dl.next().await {
            let body = serde_json::from_slice::<Value>(&d.data).unwrap_or(Value::Null);
            let reason = nachfolge::bus::header_text(&d.properties, "x-rejection-reason");
            dsink.lock().unwrap_or_else(|p| p.into_inner()).push((body, reason));
            let _ = d.ack(BasicAckOptions::default()).await;
        }
    });
    (conn, ch, events, dead)
}

/// The example election of the repository, as JSON.
pub fn example(name: &str) -> Value {
    let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("example file")).expect("example json")
}
