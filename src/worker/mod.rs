//! The worker: consumer lanes, outbox relay, mail sender, timer loop, stats, HTTP and the console, wired
//! together.
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

mod consumer;
mod mail_sender;
mod reads;
mod relay;
mod stats;
mod timers;

use consumer::consume_loop;
use mail_sender::mail_loop;
use reads::Ready;
use relay::relay_loop;
use stats::{describe_metrics, stats_loop};
pub use timers::fire_due_timers;
use timers::timer_loop;

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
    /// First time a message naming something unknown was seen (retry window), by (body, message id): per
    /// council, as the inbox deduplicates (docs/contract.md, "Message ids").
    unknown_since: Mutex<HashMap<(String, String), Instant>>,
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
    /// The console's address, when `console.enabled`.
    pub console_addr: Option<std::net::SocketAddr>,
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
        let http_state =
            crate::http::HttpState { metrics: shared.metrics.clone(), readiness: Arc::new(Ready(shared.clone())) };
        let mut srx = rx.clone();
        tasks.push(tokio::spawn(crate::http::serve(listener, http_state, async move {
            let _ = srx.wait_for(|s| *s).await;
        })));
        let mut console_addr = None;
        if shared.config.console.enabled {
            let listener = tokio::net::TcpListener::bind(&shared.config.console.addr)
                .await
                .with_context(|| format!("console.addr {}", shared.config.console.addr))?;
            console_addr = listener.local_addr().ok();
            let console = crate::console::Console::new(
                shared.config.console.clone(),
                shared.config.templates.dir.as_deref(),
                shared.store.clone(),
                shared.clock.clone(),
                shared.metrics.clone(),
                shared.settings.clone(),
                Some({
                    let shared = shared.clone();
                    Arc::new(move || {
                        shared.wake_relay.notify_one();
                        shared.wake_mail.notify_one();
                    })
                }),
            )
            .context("console")?;
            let mut crx = rx.clone();
            tasks.push(tokio::spawn(crate::console::serve(listener, console, async move {
                let _ = crx.wait_for(|s| *s).await;
            })));
        }
        tasks.push(tokio::spawn(consume_loop(shared.clone(), rx.clone())));
        tasks.push(tokio::spawn(relay_loop(shared.clone(), rx.clone())));
        tasks.push(tokio::spawn(mail_loop(shared.clone(), mailer, rx.clone())));
        tasks.push(tokio::spawn(timer_loop(shared.clone(), rx.clone())));
        tasks.push(tokio::spawn(stats_loop(shared.clone(), rx)));
        tracing::info!(http = ?http_addr, console = ?console_addr, amqp = %crate::config::redact_url(&shared.config.amqp.url), "worker started");
        Ok(Worker { shared, shutdown: tx, tasks, http_addr, console_addr })
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

/// Resolves when shutdown was requested.
async fn stopped(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|v| *v).await;
}

fn backoff(attempt: u32) -> Duration {
    Duration::from_millis((250u64 << attempt.min(7)).min(30_000))
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
