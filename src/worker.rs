//! The worker: consumer lanes, outbox relay, mail sender, timer loop, stats and HTTP, wired together.
//!
//! * inbound: each delivery is parsed, routed to a lane by body id (one lane processes one body's messages
//!   in arrival order), applied in batches ([`Store::apply_batch`]: what a lane holds, one transaction) and acked after commit;
//!   refused messages go to the dead-letter exchange with `x-rejection-reason` and a `message.rejected`.
//! * outbound: the relay publishes the outbox in id order with confirms; the mail sender sends the mail
//!   outbox; the timer loop fires due deadlines. All three are woken on commit and poll as a fallback.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use chrono::{DateTime, Utc};
use futures_util::{FutureExt, StreamExt};
use lapin::message::Delivery;
use lapin::options::{BasicAckOptions, BasicCancelOptions, BasicConsumeOptions, BasicNackOptions, BasicQosOptions};
use lapin::types::FieldTable;
use lapin::{Channel, Connection};
use tokio::sync::{mpsc, watch, Notify};

use crate::bus::{self, Published};
use crate::config::Config;
use crate::mail::{Mailer, SendResult};
use crate::messages::Inbound;
use crate::metrics::Metrics;
use crate::procedure::{Command, Settings};
use crate::store::{Applied, Cause, Item, RelayLock, Step, Store, Work};
use crate::templates::Templates;

/// The worker's clock: system time shifted by `clock.offset_secs` (and, in tests, advanced at will).
#[derive(Debug, Default)]
pub struct Clock {
    offset_ms: AtomicI64,
}

impl Clock {
    pub fn with_offset_secs(secs: i64) -> Clock {
        Clock { offset_ms: AtomicI64::new(secs.saturating_mul(1000)) }
    }
    pub fn now(&self) -> DateTime<Utc> {
        Utc::now() + chrono::Duration::milliseconds(self.offset_ms.load(Ordering::Relaxed))
    }
    /// Move the clock forward (tests, staging).
    pub fn advance(&self, by: chrono::Duration) {
        self.offset_ms.fetch_add(by.num_milliseconds(), Ordering::Relaxed);
    }
}

/// Shared state of one worker process.
pub struct Shared {
    pub config: Config,
    pub store: Store,
    pub templates: Templates,
    pub settings: Settings,
    pub metrics: Arc<Metrics>,
    pub clock: Arc<Clock>,
    pub wake_relay: Notify,
    pub wake_mail: Notify,
    pub broker_connected: AtomicBool,
    /// The consumer connection's live status (connected, reconnecting, closed).
    broker_status: Mutex<Option<lapin::ConnectionStatus>>,
    pub consumer_registered: AtomicBool,
    /// First time a message naming something unknown was seen (retry window).
    unknown_since: Mutex<HashMap<String, Instant>>,
}

impl Shared {
    /// The broker connection is up (not reconnecting, not closed).
    pub fn broker_up(&self) -> bool {
        self.broker_connected.load(Ordering::Relaxed)
            && self.broker_status.lock().unwrap_or_else(|p| p.into_inner()).as_ref().is_some_and(|s| s.connected())
    }
    /// The consumer is registered on a live connection.
    pub fn consuming(&self) -> bool {
        self.consumer_registered.load(Ordering::Relaxed) && self.broker_up()
    }
}

/// A running worker; drop the shutdown sender or call [`Worker::shutdown`] to stop it.
pub struct Worker {
    pub shared: Arc<Shared>,
    shutdown: watch::Sender<bool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    pub http_addr: Option<std::net::SocketAddr>,
}

/// `nachfolge run`: start and wait for SIGTERM / SIGINT.
pub async fn run(config: Config) -> anyhow::Result<()> {
    let clock = Arc::new(Clock::with_offset_secs(config.clock.offset_secs));
    if config.clock.offset_secs != 0 {
        tracing::warn!(
            offset_secs = config.clock.offset_secs,
            "clock.offset_secs is set: the worker's clock is shifted"
        );
    }
    let worker = Worker::start(config, clock).await?;
    wait_for_signal().await;
    tracing::info!("shutdown requested");
    worker.shutdown().await;
    Ok(())
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

impl Worker {
    /// Connect to the database (creating and migrating it), start every loop, and return.
    pub async fn start(config: Config, clock: Arc<Clock>) -> anyhow::Result<Worker> {
        let store = connect_store(&config).await?;
        let templates = Templates::load(config.templates.dir.as_deref()).context("templates")?;
        let mailer = Mailer::new(&config.smtp).context("smtp")?;
        let settings = Settings {
            email_fiction_days: config.service.email_fiction_days,
            fixed_end_date: config.rules.fixed_end_date,
            announce_at_determination: config.rules.announce_at_determination,
            deadline_grace: chrono::Duration::hours(i64::from(config.rules.deadline_grace_hours)),
        };
        let metrics = Arc::new(Metrics::new());
        describe_metrics(&metrics);
        let shared = Arc::new(Shared {
            config,
            store,
            templates,
            settings,
            metrics,
            clock,
            wake_relay: Notify::new(),
            wake_mail: Notify::new(),
            broker_connected: AtomicBool::new(false),
            broker_status: Mutex::new(None),
            consumer_registered: AtomicBool::new(false),
            unknown_since: Mutex::new(HashMap::new()),
        });
        let (tx, rx) = watch::channel(false);
        let mut tasks = Vec::new();
        let listener = tokio::net::TcpListener::bind(&shared.config.http.addr)
            .await
            .with_context(|| format!("http.addr {}", shared.config.http.addr))?;
        let http_addr = listener.local_addr().ok();
        let http_state = crate::http::HttpState {
            metrics: shared.metrics.clone(),
            readiness: Arc::new(Ready(shared.clone())),
            reads: Some(Arc::new(Reads(shared.clone()))),
        };
        let mut srx = rx.clone();
        tasks.push(tokio::spawn(crate::http::serve(listener, http_state, async move {
            let _ = srx.wait_for(|s| *s).await;
        })));
        tasks.push(tokio::spawn(consume_loop(shared.clone(), rx.clone())));
        tasks.push(tokio::spawn(relay_loop(shared.clone(), rx.clone())));
        tasks.push(tokio::spawn(mail_loop(shared.clone(), mailer, rx.clone())));
        tasks.push(tokio::spawn(timer_loop(shared.clone(), rx.clone())));
        tasks.push(tokio::spawn(stats_loop(shared.clone(), rx)));
        tracing::info!(http = ?http_addr, amqp = %crate::config::redact_url(&shared.config.amqp.url), "worker started");
        Ok(Worker { shared, shutdown: tx, tasks, http_addr })
    }

    /// Stop consuming, finish in-flight work, flush the outbox once more, close connections.
    pub async fn shutdown(mut self) {
        let _ = self.shutdown.send(true);
        for t in std::mem::take(&mut self.tasks) {
            let _ = tokio::time::timeout(Duration::from_secs(20), t).await;
        }
        self.shared.store.close().await;
        tracing::info!("worker stopped");
    }
}

impl Drop for Worker {
    /// A worker dropped without `shutdown` still stops its loops (they finish in the background).
    fn drop(&mut self) {
        let _ = self.shutdown.send(true);
    }
}

/// How often a start-up connect is tried while the database is unreachable (with a backoff up to 10 s,
/// about five minutes in all) before the process exits, so an orchestrator sees the failure and restarts it.
const STARTUP_ATTEMPTS: u32 = 30;

/// How often a command that fails with a permanent error (not [`StoreError::is_transient`]) is tried before
/// it is refused with an internal-error reason: a misjudged transient error gets two more chances, a real
/// permanent one cannot stall its lane.
const PERMANENT_ATTEMPTS: u32 = 3;

async fn connect_store(config: &Config) -> anyhow::Result<Store> {
    let mut delay = Duration::from_millis(500);
    let mut attempt = 1;
    loop {
        match Store::connect(&config.database).await {
            Ok(s) => return Ok(s),
            Err(e) if e.is_transient() && attempt < STARTUP_ATTEMPTS => {
                tracing::warn!(error = %e, attempt, "database not reachable, retrying");
                tokio::time::sleep(delay).await;
                delay = (delay * 2).min(Duration::from_secs(10));
                attempt += 1;
            }
            Err(e) if e.is_transient() => {
                return Err(anyhow::Error::new(e).context(format!("database not reachable after {attempt} attempts")))
            }
            Err(e) => return Err(anyhow::Error::new(e).context("database")),
        }
    }
}

/// `GET /bodies/{id}` (the current snapshot with its cases) and `GET /bodies/{id}/succession-order` (who
/// would succeed right now on every list, and who is passed over and why).
struct Reads(Arc<Shared>);

impl crate::http::Reads for Reads {
    fn get<'a>(
        &'a self,
        path: &'a str,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<(u16, String)>> + Send + 'a>> {
        Box::pin(async move {
            let rest = path.strip_prefix("/bodies/")?;
            let (id, what) = match rest.split_once('/') {
                Some((id, what)) => (id, what),
                None => (rest, ""),
            };
            if id.is_empty() || !matches!(what, "" | "succession-order") {
                return None;
            }
            let not_found = || Some((404, serde_json::json!({"error": "unknown body"}).to_string()));
            let unavailable = || Some((503, serde_json::json!({"error": "database unavailable"}).to_string()));
            match what {
                "" => match self.0.store.export(id).await {
                    Ok(serde_json::Value::Null) => not_found(),
                    Ok(v) => Some((200, v.to_string())),
                    Err(_) => unavailable(),
                },
                _ => match self.0.store.load_body(id).await {
                    Ok(Some(body)) => {
                        let order = body.body.succession_order(self.0.clock.now());
                        match serde_json::to_string(&order) {
                            Ok(text) => Some((200, text)),
                            Err(e) => {
                                tracing::error!(error = %e, "the succession order cannot be serialised");
                                unavailable()
                            }
                        }
                    }
                    Ok(None) => not_found(),
                    Err(_) => unavailable(),
                },
            }
        })
    }
}

struct Ready(Arc<Shared>);

impl crate::http::Readiness for Ready {
    fn check(&self) -> std::pin::Pin<Box<dyn std::future::Future<Output = Vec<(&'static str, bool)>> + Send + '_>> {
        Box::pin(async move {
            vec![
                ("database", self.0.store.ping().await),
                ("broker", self.0.broker_up()),
                ("consumer", self.0.consuming()),
            ]
        })
    }
}

fn describe_metrics(m: &Metrics) {
    m.help("nachfolge_messages_total", "Inbound messages by type and outcome");
    m.help("nachfolge_handler_seconds", "Time to process one inbound message");
    m.help("nachfolge_outbox_backlog", "Unpublished events in the outbox");
    m.help("nachfolge_outbox_oldest_seconds", "Age of the oldest unpublished event");
    m.help("nachfolge_timers_due", "Deadline timers due and not fired");
    m.help("nachfolge_timers_pending", "Deadline timers not fired");
    m.help("nachfolge_mails_total", "E-mails by outcome");
    m.help("nachfolge_events_published_total", "Events published with a broker confirm");
    m.help("nachfolge_timers_fired_total", "Deadline timers fired");
}

/// Resolves when shutdown was requested.
async fn stopped(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|v| *v).await;
}

fn backoff(attempt: u32) -> Duration {
    Duration::from_millis((250u64 << attempt.min(7)).min(30_000))
}

// ---------------------------------------------------------------------------------------------------------
// Inbound

async fn consume_loop(shared: Arc<Shared>, shutdown: watch::Receiver<bool>) {
    let mut attempt = 0;
    loop {
        if *shutdown.borrow() {
            break;
        }
        match consume_session(&shared, shutdown.clone()).await {
            Ok(()) => break,
            Err(e) => {
                shared.broker_connected.store(false, Ordering::Relaxed);
                shared.consumer_registered.store(false, Ordering::Relaxed);
                tracing::warn!(error = %e, "consumer session ended, reconnecting");
                let mut s = shutdown.clone();
                tokio::select! {
                    _ = tokio::time::sleep(backoff(attempt)) => {}
                    _ = stopped(&mut s) => {}
                }
                attempt += 1;
            }
        }
    }
}

/// One delivery handed to a lane.
struct Job {
    delivery: Delivery,
}

async fn consume_session(shared: &Arc<Shared>, mut shutdown: watch::Receiver<bool>) -> anyhow::Result<()> {
    let cfg = &shared.config.amqp;
    let conn = bus::connect_config(cfg, "nachfolge-consumer").await?;
    let ch = conn.create_channel().await?;
    bus::declare_topology(&ch, cfg).await?;
    ch.basic_qos(cfg.prefetch, BasicQosOptions::default()).await?;
    let dlx = bus::confirm_channel(&conn).await?;
    let mut consumer = ch
        .basic_consume(
            cfg.commands_queue.as_str().into(),
            "".into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await?;
    let tag = consumer.tag();
    shared.broker_connected.store(true, Ordering::Relaxed);
    *shared.broker_status.lock().unwrap_or_else(|p| p.into_inner()) = Some(conn.status().clone());
    shared.consumer_registered.store(true, Ordering::Relaxed);
    tracing::info!(queue = %cfg.commands_queue, prefetch = cfg.prefetch, "consuming");

    // lanes: one body's messages are processed in order by one lane; a lane applies what has arrived
    // meanwhile as one batch (one transaction, one commit for many messages)
    let lanes = usize::from(cfg.prefetch).clamp(1, shared.config.worker.lanes.max(1));
    let batch_max = shared.config.worker.batch_max.max(1);
    let mut senders = Vec::with_capacity(lanes);
    let mut handles = Vec::with_capacity(lanes);
    for _ in 0..lanes {
        let (tx, mut rx) = mpsc::channel::<Job>(usize::from(cfg.prefetch).max(16));
        senders.push(tx);
        let (shared, dlx) = (shared.clone(), dlx.clone());
        handles.push(tokio::spawn(async move {
            while let Some(job) = rx.recv().await {
                let mut jobs = vec![job];
                while jobs.len() < batch_max {
                    match rx.try_recv() {
                        Ok(job) => jobs.push(job),
                        Err(_) => break,
                    }
                }
                handle_deliveries(&shared, &dlx, jobs).await;
            }
        }));
    }
    let result = loop {
        tokio::select! {
            _ = stopped(&mut shutdown) => {
                let _ = ch.basic_cancel(tag.clone(), BasicCancelOptions::default()).await;
                break Ok(());
            }
            next = consumer.next() => match next {
                None => break Err(anyhow::anyhow!("consumer stream ended")),
                Some(Err(e)) => {
                    shared.consumer_registered.store(false, Ordering::Relaxed);
                    match ch.wait_for_recovery(e).await {
                        Ok(()) => {
                            tracing::info!("broker connection recovered");
                            shared.consumer_registered.store(true, Ordering::Relaxed);
                            continue;
                        }
                        Err(e) => break Err(e.into()),
                    }
                }
                Some(Ok(delivery)) => {
                    let lane = lane_of(&delivery, lanes);
                    if senders[lane].send(Job { delivery }).await.is_err() {
                        break Err(anyhow::anyhow!("lane stopped"));
                    }
                }
            }
        }
    };
    // finish in-flight work
    drop(senders);
    for h in handles {
        let _ = h.await;
    }
    shared.consumer_registered.store(false, Ordering::Relaxed);
    let _ = conn.close(200, "bye".into()).await;
    result
}

/// Route by body id (the CloudEvents `subject`, else a cheap look into the data), so one body's messages
/// keep their order.
fn lane_of(d: &Delivery, lanes: usize) -> usize {
    use std::hash::{Hash, Hasher};
    let key = serde_json::from_slice::<serde_json::Value>(&d.data)
        .ok()
        .and_then(|v| {
            v.get("subject")
                .and_then(|s| s.as_str().map(str::to_owned))
                .or_else(|| v.pointer("/data/body").and_then(|s| s.as_str().map(str::to_owned)))
                .or_else(|| v.pointer("/data/body/id").and_then(|s| s.as_str().map(str::to_owned)))
                .or_else(|| v.get("body").and_then(|s| s.as_str().map(str::to_owned)))
        })
        .unwrap_or_default();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    (h.finish() % lanes as u64) as usize
}

/// Record the 32-hex trace id of the inbound `traceparent` on the current delivery span.
fn record_trace_id(traceparent: Option<&str>) {
    if let Some(id) = traceparent.and_then(bus::trace_id) {
        tracing::Span::current().record("trace_id", id);
    }
}

/// A parsed delivery on its way through a batch.
struct Parsed {
    delivery: Delivery,
    span: tracing::Span,
    label: String,
    item: Item,
}

/// Parse a batch of deliveries, refuse the bad ones, apply the rest in one transaction and settle each
/// delivery: ack, dead-letter, or requeue later.
async fn handle_deliveries(shared: &Arc<Shared>, dlx: &Channel, jobs: Vec<Job>) {
    let start = Instant::now();
    let mut parsed = Vec::with_capacity(jobs.len());
    for job in jobs {
        // every log line of this delivery carries the inbound trace id (recorded once parsed)
        let span = tracing::info_span!("message", trace_id = tracing::field::Empty);
        let d = job.delivery;
        match span.in_scope(|| parse_delivery(shared, &d)) {
            Ok((label, item)) => parsed.push(Parsed { delivery: d, span, label, item }),
            Err(refused) => {
                let (label, cause, body, reason) = *refused;
                tracing::Instrument::instrument(reject(shared, dlx, &d, &cause, body.as_deref(), &reason), span).await;
                count_message(shared, &label, "rejected", start);
            }
        }
    }
    if parsed.is_empty() {
        return;
    }
    let items: Vec<Item> = parsed.iter().map(|p| p.item.clone()).collect();
    let outcomes = apply_items(shared, &items).await;
    let wake = outcomes.contains(&Applied::Applied);
    // settle the batch's deliveries together: each ack waits for the connection's I/O loop
    let settled = parsed.into_iter().zip(outcomes).map(|(p, outcome)| {
        let (label, span) = (p.label.clone(), p.span.clone());
        async move {
            let result = tracing::Instrument::instrument(settle(shared, dlx, p, outcome), span).await;
            count_message(shared, &label, result, start);
        }
    });
    futures_util::future::join_all(settled).await;
    // the relay and the mail sender start after the acks: the next deliveries come first
    if wake {
        shared.wake_relay.notify_one();
        shared.wake_mail.notify_one();
    }
}

fn count_message(shared: &Shared, label: &str, outcome: &str, start: Instant) {
    shared.metrics.inc_counter("nachfolge_messages_total", &[("type", label), ("outcome", outcome)], 1);
    shared.metrics.observe_since("nachfolge_handler_seconds", &[("type", label)], start);
}

/// A refused delivery: metric label, cause, body (if known) and reason.
type Refused = Box<(String, Cause, Option<String>, String)>;

/// Parse a delivery into a batch item, or say why it is refused.
fn parse_delivery(shared: &Shared, d: &Delivery) -> Result<(String, Item), Refused> {
    let max = shared.config.worker.max_message_bytes;
    let env = match bus::parse_envelope(&d.data, &d.properties, max) {
        Ok(env) => env,
        Err(e) => {
            let cause = Cause {
                key: e.id.clone().unwrap_or_default(),
                ty: e.ty.clone().unwrap_or_default(),
                // identifies the raw message, so each distinct bad message is reported once
                payload: serde_json::json!({"invalid": true, "bytes": d.data.len(),
                    "digest": uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, &d.data).to_string()}),
                traceparent: bus::header_text(&d.properties, "traceparent").and_then(|t| bus::valid_traceparent(&t)),
                tracestate: None,
            };
            record_trace_id(cause.traceparent.as_deref());
            return Err(Box::new(("invalid".to_owned(), cause, None, e.reason)));
        }
    };
    let cause = Cause {
        key: env.id.clone(),
        ty: env.ty.clone(),
        payload: env.data.clone(),
        traceparent: env.traceparent.clone(),
        tracestate: env.tracestate.clone(),
    };
    record_trace_id(cause.traceparent.as_deref());
    let label =
        if crate::messages::INBOUND_TYPES.contains(&env.ty.as_str()) { env.ty.clone() } else { "unknown".into() };
    match Inbound::parse(&env.ty, env.data) {
        Err(e) => Err(Box::new((label, cause, None, e.to_string()))),
        Ok(inbound) => {
            let body_id = inbound.body_id().to_owned();
            let work = match inbound {
                Inbound::ElectionRegistered(s) => Work::Register(s),
                other => Work::Inbound(Command::Inbound(other)),
            };
            Ok((label, Item { cause, body_id, work }))
        }
    }
}

/// Settle one delivery after its batch: ack, dead-letter, or requeue after a delay.
async fn settle(shared: &Arc<Shared>, dlx: &Channel, p: Parsed, outcome: Applied) -> &'static str {
    let (d, cause, body_id) = (&p.delivery, &p.item.cause, &p.item.body_id);
    match outcome {
        Applied::Applied => {
            forget_unknown(shared, &cause.key);
            ack(d).await;
            tracing::info!(message_id = %cause.key, r#type = %cause.ty, body = %body_id, "applied");
            "applied"
        }
        Applied::Duplicate => {
            ack(d).await;
            tracing::info!(message_id = %cause.key, r#type = %cause.ty, "duplicate, ignored");
            "duplicate"
        }
        Applied::Rejected(reason) => {
            forget_unknown(shared, &cause.key);
            // record_rejection is idempotent; for an id reused with other data it records the new reason
            reject(shared, dlx, d, cause, Some(body_id), &reason).await;
            "rejected"
        }
        Applied::Unknown(reason) => {
            let first = {
                let mut map = shared.unknown_since.lock().unwrap_or_else(|p| p.into_inner());
                *map.entry(cause.key.clone()).or_insert_with(Instant::now)
            };
            if first.elapsed() >= shared.config.worker.unknown_retry() {
                forget_unknown(shared, &cause.key);
                reject(shared, dlx, d, cause, Some(body_id), &reason).await;
                return "rejected";
            }
            let delay = backoff(attempt_of(first));
            tracing::info!(message_id = %cause.key, reason = %reason, delay_ms = delay.as_millis() as u64, "names something unknown yet, retrying later");
            // requeue after a delay without blocking the lane
            let acker = d.acker.clone();
            tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                let _ = acker.nack(BasicNackOptions { multiple: false, requeue: true }).await;
            });
            "retried"
        }
    }
}

fn attempt_of(first: Instant) -> u32 {
    (first.elapsed().as_secs_f64().max(0.25) / 0.25).log2() as u32
}

fn forget_unknown(shared: &Shared, key: &str) {
    shared.unknown_since.lock().unwrap_or_else(|p| p.into_inner()).remove(key);
}

async fn ack(d: &Delivery) {
    if let Err(e) = d.acker.ack(BasicAckOptions::default()).await {
        // the channel broke after commit: the message comes again and the inbox deduplicates it
        tracing::warn!(error = %e, "ack failed; the redelivery will be deduplicated");
    }
}

/// Record the refusal (inbox, audit, `message.rejected`), copy the message to the dead-letter exchange
/// with its reason, then ack it.
async fn reject(shared: &Arc<Shared>, dlx: &Channel, d: &Delivery, cause: &Cause, body: Option<&str>, reason: &str) {
    tracing::warn!(message_id = %cause.key, r#type = %cause.ty, reason = %reason, "message rejected");
    let (mut attempt, mut permanent) = (0, 0);
    loop {
        match shared.store.record_rejection(cause, body, reason, shared.clock.now()).await {
            Ok(()) => break,
            Err(e) if e.is_transient() => {
                tracing::warn!(error = %e, "recording a rejection failed, retrying");
                tokio::time::sleep(backoff(attempt)).await;
                attempt += 1;
            }
            Err(e) => {
                permanent += 1;
                if permanent >= PERMANENT_ATTEMPTS {
                    // the message still goes to the dead-letter queue with its reason; only the inbox and
                    // audit record (and `message.rejected`) are missing
                    tracing::error!(error = %e, "a rejection cannot be recorded; dead-lettering it without the record");
                    break;
                }
                tracing::warn!(error = %e, attempt = permanent, "recording a rejection failed permanently, trying again");
                tokio::time::sleep(backoff(permanent)).await;
            }
        }
    }
    shared.wake_relay.notify_one();
    let routing_key = d.routing_key.as_str().to_owned();
    match bus::dead_letter(dlx, &shared.config.amqp.dead_letter_exchange, &routing_key, &d.data, &d.properties, reason)
        .await
    {
        Ok(Published::Confirmed) => ack(d).await,
        Ok(other) => {
            tracing::error!(outcome = ?other, "dead-lettering was not confirmed; requeueing");
            let _ = d.acker.nack(BasicNackOptions { multiple: false, requeue: true }).await;
        }
        Err(e) => {
            tracing::error!(error = %e, "dead-lettering failed; requeueing");
            let _ = d.acker.nack(BasicNackOptions { multiple: false, requeue: true }).await;
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Outbox relay

async fn relay_loop(shared: Arc<Shared>, mut shutdown: watch::Receiver<bool>) {
    let mut attempt = 0;
    loop {
        if *shutdown.borrow() {
            break;
        }
        match relay_session(&shared, shutdown.clone()).await {
            Ok(()) => break,
            Err(e) => {
                tracing::warn!(error = %e, "outbox relay session ended, reconnecting");
                tokio::select! {
                    _ = tokio::time::sleep(backoff(attempt)) => {}
                    _ = stopped(&mut shutdown) => {}
                }
                attempt += 1;
            }
        }
    }
}

async fn relay_session(shared: &Arc<Shared>, mut shutdown: watch::Receiver<bool>) -> anyhow::Result<()> {
    let cfg = &shared.config.amqp;
    let conn: Connection = bus::connect_config(cfg, "nachfolge-publisher").await?;
    let ch = bus::confirm_channel(&conn).await?;
    bus::declare_topology(&ch, cfg).await?;
    let poll = shared.config.worker.poll_interval();
    // the database connection holding the relay lock, kept while this replica is the publisher
    let mut lock: Option<RelayLock> = None;
    // the batch published last, whose confirms are collected after the next batch went out
    let mut inflight: Option<Inflight> = None;
    let linger = shared.config.worker.relay_linger();
    let result = async {
        // when stopping: one more batch, then its confirms
        let mut last_batch_sent = false;
        // whether the outbox may hold more: after a wake-up (a commit wrote events), a poll interval, or a
        // full batch; a short batch took everything, so the database is not asked again until then
        let mut more = true;
        loop {
            let stopping = *shutdown.borrow();
            more |= shared.wake_relay.notified().now_or_never().is_some();
            let ask = (more || stopping) && !last_batch_sent;
            let full = relay_step(shared, &ch, &mut lock, &mut inflight, ask).await?;
            if stopping {
                if last_batch_sent && inflight.is_none() {
                    break;
                }
                last_batch_sent = true;
                continue;
            }
            more = ask && full;
            if !more && inflight.is_none() {
                tokio::select! {
                    // let the events of the next few commits join this round
                    _ = shared.wake_relay.notified() => tokio::time::sleep(linger).await,
                    _ = tokio::time::sleep(poll) => {}
                    _ = stopped(&mut shutdown) => {}
                }
                more = true;
            }
        }
        Ok::<(), anyhow::Error>(())
    }
    .await;
    // closing the connection releases the lock for another replica
    if let Some(l) = lock.take() {
        l.release().await;
    }
    let _ = conn.close(200, "bye".into()).await;
    result
}

/// A published batch waiting for its confirms.
struct Inflight {
    batch: Vec<crate::store::PendingEvent>,
    confirms: Vec<lapin::PublisherConfirm>,
}

/// One step of the relay: publish the next batch (when `more`), then collect the confirms of the batch
/// before it and mark it — the database and the broker work at the same time. Returns whether the
/// outbox may hold more at once (the page read was full). Several replicas: only the holder of the relay lock (a session
/// lock on a connection of its own) publishes, so the per-body order holds.
async fn relay_step(
    shared: &Arc<Shared>,
    ch: &Channel,
    lock: &mut Option<RelayLock>,
    inflight: &mut Option<Inflight>,
    more: bool,
) -> anyhow::Result<bool> {
    if lock.is_none() {
        *lock = shared.store.try_relay_lock().await?;
    }
    let Some(db) = lock.as_mut() else { return Ok(false) };
    let (mut next, mut full) = (None, false);
    if more {
        let limit = i64::from(shared.config.worker.outbox_batch);
        let busy: Vec<i64> = inflight.iter().flat_map(|i| i.batch.iter().map(|e| e.id)).collect();
        let batch;
        (batch, full) = Store::pending_events(db, limit, shared.clock.now(), &busy).await?;
        if !batch.is_empty() {
            let mut confirms = Vec::with_capacity(batch.len());
            for ev in &batch {
                confirms.push(
                    bus::publish_raw(ch, &shared.config.amqp.events_exchange, &ev.meta, ev.payload.as_bytes()).await?,
                );
            }
            next = Some(Inflight { batch, confirms });
        }
    }
    if let Some(prev) = std::mem::replace(inflight, next) {
        settle_batch(shared, db, prev).await?;
    }
    Ok(full)
}

/// Collect a batch's confirms in order and mark the events published (or to be retried).
async fn settle_batch(shared: &Arc<Shared>, db: &mut RelayLock, prev: Inflight) -> anyhow::Result<()> {
    let mut ok = Vec::new();
    let mut failed_bodies = std::collections::HashSet::new();
    for (ev, confirm) in prev.batch.iter().zip(prev.confirms) {
        let outcome: Published = confirm.await?.into();
        let key = ev.body_id.clone().unwrap_or_default();
        if outcome == Published::Confirmed && !failed_bodies.contains(&key) {
            ok.push(ev.id);
            continue;
        }
        // keep the order per body: everything after a failure is published again later
        let why = match outcome {
            Published::Unroutable => "unroutable: no queue bound for this event type",
            Published::Nacked => "nacked by the broker",
            Published::Confirmed => "an earlier event of this body is not yet published",
        };
        if failed_bodies.insert(key) {
            tracing::warn!(event_type = %ev.meta.ty, reason = why, "event not published, will retry");
        }
        let retry = shared.clock.now() + chrono::Duration::from_std(backoff(ev.attempts as u32)).unwrap_or_default();
        Store::mark_publish_failed(db, ev.id, why, retry).await?;
    }
    Store::mark_published(db, &ok, shared.clock.now()).await?;
    shared.metrics.inc_counter("nachfolge_events_published_total", &[], ok.len() as u64);
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------
// Mail sender

/// E-mails claimed per round of the mail sender; each result is recorded as soon as its mail is sent.
const MAIL_BATCH: i64 = 10;

/// Due timers claimed per round of the timer loop.
const TIMER_CLAIM: i64 = 1000;

async fn mail_loop(shared: Arc<Shared>, mailer: Mailer, mut shutdown: watch::Receiver<bool>) {
    let poll = shared.config.worker.poll_interval();
    // a claimed mail whose sender died is retried once its lease ran out
    let lease = shared.config.smtp.timeout() + Duration::from_secs(10);
    loop {
        if *shutdown.borrow() {
            break;
        }
        let now = shared.clock.now();
        let batch = match shared.store.claim_mails(MAIL_BATCH, now, lease).await {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!(error = %e, "claiming mails failed");
                Vec::new()
            }
        };
        // send one, record its result, send the next
        for m in &batch {
            let result = mailer.send(m).await;
            let now = shared.clock.now();
            let (cmd, step, outcome) = match result {
                SendResult::Sent => (
                    Command::NotificationSent {
                        case: m.case_id.clone(),
                        round: m.round as u32,
                        message_id: m.message_id.clone(),
                        sent_at: now,
                    },
                    Step::MailSent { message_id: m.message_id.clone() },
                    "sent",
                ),
                SendResult::Permanent(reason) => (
                    Command::NotificationFailed {
                        case: m.case_id.clone(),
                        round: m.round as u32,
                        reason: reason.clone(),
                    },
                    Step::MailFailed { message_id: m.message_id.clone(), reason },
                    "failed",
                ),
                SendResult::Transient(reason) => {
                    tracing::warn!(case = %m.case_id, attempts = m.attempts, reason = %reason, "mail not sent, will retry");
                    let retry = now + chrono::Duration::from_std(backoff(m.attempts as u32 + 4)).unwrap_or_default();
                    if let Err(e) = shared.store.mail_retry(&m.message_id, &reason, retry).await {
                        tracing::warn!(error = %e, "recording a mail retry failed");
                    }
                    shared.metrics.inc_counter("nachfolge_mails_total", &[("outcome", "retry")], 1);
                    continue;
                }
            };
            let cause = Cause {
                key: format!("mail:{}", m.message_id),
                ty: if outcome == "sent" { "mail.sent".into() } else { "mail.failed".into() },
                payload: serde_json::json!({"message_id": m.message_id, "case": m.case_id, "round": m.round}),
                ..Cause::default()
            };
            // recorded at once: a crash between the server's `250` and this commit re-sends only this one
            let item = Item { cause, body_id: m.body_id.clone(), work: Work::Internal(cmd, step) };
            if let Some(Applied::Rejected(e)) = apply_items(&shared, std::slice::from_ref(&item)).await.pop() {
                tracing::error!(case = %m.case_id, error = %e, "mail result not applicable");
            }
            tracing::info!(case = %m.case_id, round = m.round, outcome, "mail processed");
            shared.metrics.inc_counter("nachfolge_mails_total", &[("outcome", outcome)], 1);
            shared.wake_relay.notify_one();
        }
        // a short batch took everything that was due: wait for a wake-up (one that came meanwhile is kept
        // as a permit) instead of asking the database again at once
        if (batch.len() as i64) < MAIL_BATCH {
            tokio::select! {
                _ = shared.wake_mail.notified() => {}
                _ = tokio::time::sleep(poll) => {}
                _ = stopped(&mut shutdown) => {}
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Timers

async fn timer_loop(shared: Arc<Shared>, mut shutdown: watch::Receiver<bool>) {
    let poll = shared.config.worker.poll_interval().min(Duration::from_millis(500));
    loop {
        if *shutdown.borrow() {
            break;
        }
        let fired = fire_due_timers(&shared).await;
        if fired == 0 {
            // sleep until the next deadline falls due, at most one poll interval (deadlines scheduled
            // meanwhile, here or by another replica, are seen at the next poll)
            let pause = match shared.store.next_timer_due(shared.clock.now()).await {
                Ok(Some(due)) => (due - shared.clock.now()).to_std().unwrap_or_default().min(poll),
                _ => poll,
            };
            tokio::select! {
                _ = tokio::time::sleep(pause.max(Duration::from_millis(1))) => {}
                _ = stopped(&mut shutdown) => {}
            }
        }
    }
}

/// Apply commands in one batch, retrying database trouble for as long as it lasts (never dead-lettering
/// for it; the inbox and the bookkeeping steps make a retry harmless). A permanent error (a template that
/// cannot render, an aggregate that no longer reads, an SQL error of the statement) is tried
/// [`PERMANENT_ATTEMPTS`] times; a panic — a bug — once. Either way a batch is then applied command by
/// command, and the one command that fails alone is refused with an internal-error reason (dead-lettered,
/// `message.rejected`), so one bad message cannot stop a lane.
async fn apply_items(shared: &Arc<Shared>, items: &[Item]) -> Vec<Applied> {
    let attempt = async {
        let (mut attempt, mut permanent) = (0, 0);
        loop {
            let now = shared.clock.now();
            match shared.store.apply_batch(items, now, &shared.settings, &shared.templates).await {
                Ok(o) => return Ok(o),
                Err(e) if e.is_transient() => {
                    tracing::warn!(error = %e, commands = items.len(), attempt, "transient failure, retrying");
                    tokio::time::sleep(backoff(attempt)).await;
                    attempt += 1;
                }
                Err(e) => {
                    permanent += 1;
                    if permanent >= PERMANENT_ATTEMPTS {
                        return Err(e.to_string());
                    }
                    tracing::warn!(error = %e, commands = items.len(), attempt = permanent, "permanent failure, trying again");
                    tokio::time::sleep(backoff(permanent)).await;
                }
            }
        }
    };
    let failure = match std::panic::AssertUnwindSafe(attempt).catch_unwind().await {
        Ok(Ok(outcomes)) => return outcomes,
        Ok(Err(error)) => error,
        Err(panic) => panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_owned()),
    };
    if items.len() > 1 {
        tracing::error!(commands = items.len(), error = %failure, "a batch failed; applying its commands one by one");
        let mut outcomes = Vec::with_capacity(items.len());
        for item in items {
            outcomes.extend(Box::pin(apply_items(shared, std::slice::from_ref(item))).await);
        }
        return outcomes;
    }
    tracing::error!(message_id = %items.first().map(|i| i.cause.key.as_str()).unwrap_or_default(), error = %failure, "the command cannot be applied; it is refused");
    vec![Applied::Rejected(format!("internal error while processing this message (please report it): {failure}"))]
}

/// Fire every due timer once; returns how many fired.
pub async fn fire_due_timers(shared: &Arc<Shared>) -> usize {
    let now = shared.clock.now();
    let due = match shared.store.claim_timers(TIMER_CLAIM, now, Duration::from_secs(60)).await {
        Ok(d) => d,
        Err(e) => {
            tracing::warn!(error = %e, "claiming timers failed");
            return 0;
        }
    };
    // one council's timers in order, in as few transactions as possible; different councils' timers
    // packed together up to the batch size; batches run concurrently, bounded so the consumer keeps
    // database connections
    let mut by_body: std::collections::BTreeMap<String, Vec<crate::store::DueTimer>> =
        std::collections::BTreeMap::new();
    for t in due {
        by_body.entry(t.body_id.clone()).or_default().push(t);
    }
    let batch_max = shared.config.worker.batch_max.max(1);
    let mut units: Vec<Vec<Vec<crate::store::DueTimer>>> = Vec::new();
    let mut packed: Vec<crate::store::DueTimer> = Vec::new();
    for (_, timers) in by_body {
        if timers.len() >= batch_max {
            units.push(timers.chunks(batch_max).map(<[_]>::to_vec).collect());
            continue;
        }
        if packed.len() + timers.len() > batch_max {
            units.push(vec![std::mem::take(&mut packed)]);
        }
        packed.extend(timers);
    }
    if !packed.is_empty() {
        units.push(vec![packed]);
    }
    let parallel = (shared.config.database.max_connections as usize / 2).clamp(1, 4);
    // tasks, not futures of this task: rendering and serialising use every core
    let permits = Arc::new(tokio::sync::Semaphore::new(parallel));
    let mut tasks = tokio::task::JoinSet::new();
    for unit in units {
        let Ok(permit) = permits.clone().acquire_owned().await else { break };
        let shared = shared.clone();
        tasks.spawn(async move {
            let _permit = permit;
            let mut fired = 0;
            for chunk in unit {
                fired += fire_timers(&shared, chunk).await;
            }
            fired
        });
    }
    let mut fired = 0;
    while let Some(n) = tasks.join_next().await {
        fired += n.unwrap_or(0);
    }
    if fired > 0 {
        shared.metrics.inc_counter("nachfolge_timers_fired_total", &[], fired as u64);
        shared.wake_relay.notify_one();
        shared.wake_mail.notify_one();
    }
    fired
}

/// Fire a batch of due timers in one transaction.
async fn fire_timers(shared: &Arc<Shared>, timers: Vec<crate::store::DueTimer>) -> usize {
    let items: Vec<Item> = timers
        .iter()
        .map(|t| Item {
            cause: Cause {
                key: format!("timer:{}:{}", t.key, t.due_at.timestamp()),
                ty: if t.key.contains("#objection#") {
                    "objection_period.ended".into()
                } else {
                    "deadline.expired".into()
                },
                payload: serde_json::json!({"key": t.key, "case": t.case_id, "round": t.round, "due_at": t.due_at}),
                ..Cause::default()
            },
            body_id: t.body_id.clone(),
            work: Work::Internal(
                crate::procedure::timer_command(&t.key, &t.case_id, t.round as u32),
                Step::TimerFired { key: t.key.clone(), due_at: t.due_at },
            ),
        })
        .collect();
    let results = apply_items(shared, &items).await;
    let mut fired = 0;
    for (t, result) in timers.iter().zip(results) {
        match result {
            Applied::Rejected(e) => tracing::error!(case = %t.case_id, error = %e, "deadline not applicable"),
            _ => {
                fired += 1;
                let lag = (shared.clock.now() - t.due_at).num_milliseconds() as f64 / 1000.0;
                shared.metrics.observe("nachfolge_timer_lag_seconds", &[], lag.max(0.0));
                tracing::info!(case = %t.case_id, round = t.round, "deadline fired");
            }
        }
    }
    if fired > 0 {
        shared.wake_relay.notify_one();
    }
    fired
}

// ---------------------------------------------------------------------------------------------------------
// Stats

async fn stats_loop(shared: Arc<Shared>, mut shutdown: watch::Receiver<bool>) {
    loop {
        let now = shared.clock.now();
        if let Ok((n, age)) = shared.store.outbox_backlog(now).await {
            shared.metrics.set_gauge("nachfolge_outbox_backlog", &[], n as f64);
            shared.metrics.set_gauge("nachfolge_outbox_oldest_seconds", &[], age);
        }
        if let Ok((due, pending)) = shared.store.timer_counts(now).await {
            shared.metrics.set_gauge("nachfolge_timers_due", &[], due as f64);
            shared.metrics.set_gauge("nachfolge_timers_pending", &[], pending as f64);
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(5)) => {}
            _ = stopped(&mut shutdown) => break,
        }
    }
}
