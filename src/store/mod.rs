//! PostgreSQL state: the body aggregates, inbox, audit log, outbox, mail outbox and timers.
//!
//! Commands run in transactions that lock their body rows ([`Store::apply_batch`]); the effects the core
//! returns are written in that same transaction, so nothing is lost between state and messages.

use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::{json, Value};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, Connection, PgConnection, PgPool, Postgres, Row, Transaction};

use crate::config::DatabaseConfig;
use crate::messages::AnnouncementIssued;
use crate::model::{BodyId, CaseId, Snapshot};
use crate::procedure::{self as case, Council, Effect, Rejection, Settings};
use crate::templates::Templates;

mod batch;
mod bodies;
mod cache;
mod console;
mod inbox;
mod locks;
mod mails;
mod outbox;
mod rows;
mod timers;
pub mod tls;
mod writes;

pub use mails::{mail_message_id, PendingMail, Unrecorded};
pub use outbox::{Pending, PendingEvent, RelayLock};
pub use timers::DueTimer;

pub use bodies::CaseListing;
use bodies::{case_rows, decode_body};
pub use console::{
    AuditRow, Grant, SessionRow, ALL_BODIES, ORIGIN_LOCAL, ORIGIN_OIDC, THROTTLE_ADDRESS, THROTTLE_LOGIN,
};
use mails::mark_mail;
use rows::*;
use writes::*;

/// The migrations of `migrations/`, embedded at build time and applied in version order by sqlx's
/// migrator (`nachfolge migrate`, and on `run`), which records them with their checksums in
/// `_sqlx_migrations` and holds its own advisory lock while it runs.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// A store error: database trouble (transient) or a bad template (configuration).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Template(#[from] crate::templates::TemplateError),
    #[error("stored state of body {0} is unreadable: {1}")]
    Corrupt(String, String),
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A document the worker writes could not be serialised (a bug, not bad input).
    #[error("cannot serialise {0}: {1}")]
    Encode(&'static str, String),
    /// A broken invariant of the store itself (a bug).
    #[error("internal: {0}")]
    Internal(&'static str),
}

impl StoreError {
    /// Whether trying again later can succeed: the database is unreachable, restarting, out of
    /// connections, or a transaction lost a serialisation race or a deadlock. Everything else — a template
    /// that cannot render, a stored aggregate that no longer reads, a document that cannot be serialised,
    /// an SQL error of the statement itself — fails the same way every time.
    pub fn is_transient(&self) -> bool {
        match self {
            StoreError::Db(e) | StoreError::Migrate(sqlx::migrate::MigrateError::Execute(e)) => {
                matches!(
                    e,
                    sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Tls(_)
                ) || matches!(e, sqlx::Error::Database(d) if d.code().is_some_and(|c| {
                    // 57: operator intervention (shutdown, cancel); 08: connection exception;
                    // 53: insufficient resources; 40001/40P01: serialisation failure, deadlock
                    c.starts_with("57") || c.starts_with("08") || c.starts_with("53") || c == "40001" || c == "40P01"
                }))
            }
            StoreError::Template(_)
            | StoreError::Corrupt(..)
            | StoreError::Encode(..)
            | StoreError::Internal(_)
            | StoreError::Migrate(_) => false,
        }
    }
}

/// Serialise a document the worker writes; a failure is a [`StoreError::Encode`], never `null`.
pub(crate) fn encode<T: serde::Serialize>(what: &'static str, value: &T) -> Result<Value, StoreError> {
    serde_json::to_value(value).map_err(|e| StoreError::Encode(what, e.to_string()))
}

/// What happened to one command of a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// The command took effect (or had none).
    Applied,
    /// Seen before with the same data (inbound), or its bookkeeping step was done before (timer, mail
    /// result): nothing done again.
    Duplicate,
    /// Inbound: refused for good, dead-letter with this reason (the caller records it). Internal: not
    /// applicable (logged); its bookkeeping step still took effect.
    Rejected(String),
    /// Inbound: names something not known yet, retry later (nothing was written).
    Unknown(String),
}

/// Who caused a command: an inbound message, a timer or the mail sender. Used for audit and event ids.
#[derive(Debug, Clone, Default)]
pub struct Cause {
    /// Deterministic key: CloudEvents id, `timer:<key>` or `mail:<message-id>`.
    pub key: String,
    pub ty: String,
    pub payload: Value,
    /// W3C trace context of the inbound message, carried to every event it causes (CloudEvents
    /// distributed-tracing extension attributes `traceparent` / `tracestate`).
    pub traceparent: Option<String>,
    pub tracestate: Option<String>,
    /// The console user who entered the command (login), if it came from the console: named in the
    /// command's audit entry (`recorded_by`) and carried by every event it causes as the CloudEvents
    /// extension attribute `recordedby` (docs/contract.md, docs/console.md).
    pub recorded_by: Option<String>,
}

#[derive(Clone)]
pub struct Store {
    pool: PgPool,
    /// Decoded aggregates of committed batches (`cache.rs`).
    cache: std::sync::Arc<cache::Cache>,
    /// Optimistic writes committed and fallen back to the locking path (`batch.rs`).
    optimistic: std::sync::Arc<OptimisticCounts>,
}

/// How the optimistic write went (`Store::optimistic_stats`).
#[derive(Default)]
struct OptimisticCounts {
    committed: std::sync::atomic::AtomicU64,
    fell_back: std::sync::atomic::AtomicU64,
}

/// The bookkeeping step an internal command comes with: it commits with the command's effects and
/// deduplicates it (a mail result or a timer is applied once).
#[derive(Debug, Clone)]
pub enum Step {
    MailSent { message_id: String },
    MailFailed { message_id: String, reason: String },
    TimerFired { key: String, due_at: DateTime<Utc> },
}

/// What one command of a batch asks for.
#[derive(Debug, Clone)]
pub enum Work {
    /// `election.registered`: create or replace the body (deduplicated by the inbox).
    Register(Box<Snapshot>),
    /// Any other inbound command (deduplicated by the inbox).
    Inbound(case::Command),
    /// A timer or mail result with its bookkeeping step.
    Internal(case::Command, Step),
}

/// One command of a batch: what caused it, the body it concerns, the work.
#[derive(Debug, Clone)]
pub struct Item {
    pub cause: Cause,
    pub body_id: BodyId,
    pub work: Work,
}

/// The id of the `i`-th event a command of `body` caused by `cause` (a message id, `timer:…`, `mail:…`):
/// a UUIDv5 of both, so that two councils' messages with the same id cause events of different ids (issue
/// 26 point 10). The body's length comes first, so that no two (body, cause) pairs give the same text.
fn event_id(body: &str, cause: &str, i: usize) -> String {
    let name = format!("urn:nachfolge:{}:{body}:{cause}:{i}", body.len());
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, name.as_bytes()).to_string()
}

/// A digest of a message's type and data for duplicate detection: a UUIDv5 (SHA-1 based) of the JSON
/// text, enough to tell "same id, different data".
pub fn digest(ty: &str, data: &Value) -> String {
    let text = format!("{ty}\n{data}");
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, text.as_bytes()).to_string()
}

/// A pooled connection idle this long is pinged before it is handed out.
const PING_IDLE: Duration = Duration::from_secs(1);

impl Store {
    /// Connect, creating the database if it does not exist, and apply the migrations.
    pub async fn connect(cfg: &DatabaseConfig) -> Result<Store, StoreError> {
        let opts = tls::pg_connect_options(cfg)?
            .log_statements(tracing::log::LevelFilter::Trace)
            // the batch statements take arrays: a plan per execution would cost more than the statement
            .options([("plan_cache_mode", "force_generic_plan"), ("enable_seqscan", "off")]);
        create_database_if_missing(&opts).await?;
        let budget = (cfg.cache_mib as usize).saturating_mul(1 << 20);
        let cache = std::sync::Arc::new(cache::Cache::new(budget));
        let identity = std::sync::Arc::new(std::sync::Mutex::new(None));
        let (watched, seen) = (cache.clone(), identity.clone());
        let pool = PgPoolOptions::new()
            .max_connections(cfg.max_connections)
            .acquire_timeout(Duration::from_secs(10))
            // sqlx pings every connection it hands out (one more round trip per statement); only one that sat
            // idle for a while is pinged here. One in constant use is tested by its use: an error on a
            // connection that broke in the last second fails that one operation, which is retried like any
            // other I/O error (docs/performance.md, "Round trips")
            .test_before_acquire(false)
            .before_acquire(|conn, meta| {
                Box::pin(async move {
                    if meta.idle_for >= PING_IDLE {
                        sqlx::Connection::ping(conn).await?;
                    }
                    Ok(true)
                })
            })
            // every new connection (after a failover or restart all are new) checks that the database is the
            // one the aggregate cache was filled from (docs/reliability.md, "Failover and restore")
            .after_connect(move |conn, _| {
                let (cache, seen) = (watched.clone(), seen.clone());
                Box::pin(async move {
                    check_identity(conn, &cache, &seen).await;
                    Ok(())
                })
            })
            .connect_with(opts)
            .await?;
        let store = Store { pool, cache, optimistic: Default::default() };
        store.migrate().await?;
        Ok(store)
    }

    /// Apply the embedded migrations. A database set up before sqlx's migrator kept its record in
    /// `schema_migrations`: that record is adopted first (under [`locks::MIGRATIONS`], so replicas that
    /// start at once adopt it once), then the migrator applies what is missing.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(locks::MIGRATIONS).execute(&mut *tx).await?;
        let row = sqlx::query(
            "SELECT to_regclass('schema_migrations') IS NOT NULL AS legacy,
                    to_regclass('_sqlx_migrations') IS NOT NULL AS adopted",
        )
        .fetch_one(&mut *tx)
        .await?;
        let (legacy, adopted): (bool, bool) = (row.try_get("legacy")?, row.try_get("adopted")?);
        if legacy && !adopted {
            let done: Vec<i32> =
                sqlx::query_scalar("SELECT version FROM schema_migrations").fetch_all(&mut *tx).await?;
            // the table as sqlx's migrator creates it (sqlx-postgres, `ensure_migrations_table`)
            sqlx::raw_sql(
                "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL,
                    installed_on TIMESTAMPTZ NOT NULL DEFAULT now(), success BOOLEAN NOT NULL,
                    checksum BYTEA NOT NULL, execution_time BIGINT NOT NULL)",
            )
            .execute(&mut *tx)
            .await?;
            for m in MIGRATOR.iter().filter(|m| done.contains(&(m.version as i32))) {
                sqlx::query(
                    "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
                     VALUES ($1, $2, true, $3, 0)",
                )
                .bind(m.version)
                .bind(m.description.as_ref())
                .bind(m.checksum.as_ref())
                .execute(&mut *tx)
                .await?;
            }
            tracing::info!(versions = done.len(), "migration record adopted from schema_migrations");
        }
        tx.commit().await?;
        MIGRATOR.run(&self.pool).await?;
        Ok(())
    }

    /// Close the pool: waits for the connections in use to be returned.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }

    /// Run a claiming statement (`$1` now, `$2` end of the lease, `$3` limit): rows that are due and not
    /// leased by another replica, leased to this one.
    ///
    /// A lease is committed without waiting for the WAL flush (`synchronous_commit = off`, this transaction
    /// only): it is visible to every other replica at once, and a lease lost in a crash of the database
    /// server only lets the row be claimed again after the restart — what a lease that ran out does anyway.
    /// The effects of handling the row (a mail sent, a timer fired) are committed synchronously, and that
    /// commit flushes the lease with it. One flush less per mail and per timer (docs/performance.md).
    ///
    /// The setting is made by the statement itself, so the claim is one round trip without a transaction
    /// block: each claiming statement carries `AND (SELECT set_config('synchronous_commit', 'off', true)) =
    /// 'off'`, a condition without columns that PostgreSQL evaluates once, before any row is locked (a
    /// one-time filter), and whose `SET LOCAL` holds for the statement's own transaction.
    async fn claim(
        &self,
        sql: &'static str,
        limit: i64,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<Vec<sqlx::postgres::PgRow>, StoreError> {
        Ok(sqlx::query(sql).bind(now).bind(lease_end(now, lease)).bind(limit).fetch_all(&self.pool).await?)
    }
}

/// When a lease taken at `now` on the worker's clock ends (a claimed row's next attempt).
fn lease_end(now: DateTime<Utc>, lease: Duration) -> DateTime<Utc> {
    now + chrono::Duration::from_std(lease).unwrap_or(chrono::Duration::seconds(60))
}

/// The identity of the database server a connection reached: its system identifier
/// (`pg_control_system()`) and the timeline it writes on (the first eight hex digits of the current WAL
/// file's name; on a server in recovery the timeline of its last checkpoint, `pg_control_checkpoint()`).
/// A failover to a standby or a point-in-time restore starts a new timeline; another cluster has another
/// identifier. Both functions are executable by any role (PostgreSQL 15: checked with a role without
/// privileges).
const IDENTITY: &str = "SELECT s.system_identifier,
        CASE WHEN pg_is_in_recovery() THEN c.timeline_id::bigint
             ELSE ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::bigint END AS timeline
   FROM pg_control_system() s, pg_control_checkpoint() c";

/// On a new connection: read the server's identity and drop the whole aggregate cache when it differs
/// from the one seen before (or cannot be read: then nothing cached is trusted). The cache's entries are
/// also checked one by one against each row's `state_version`; this drops them at once, before any batch
/// reads them, and frees their memory.
async fn check_identity(conn: &mut PgConnection, cache: &cache::Cache, seen: &std::sync::Mutex<Option<(i64, i64)>>) {
    let now = match sqlx::query_as::<_, (i64, i64)>(IDENTITY).fetch_one(&mut *conn).await {
        Ok(identity) => Some(identity),
        Err(e) => {
            tracing::warn!(error = %e, "the database's identity cannot be read; the aggregate cache is dropped");
            None
        }
    };
    let mut seen = seen.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(dropped) = identity_changed(&mut seen, now).then(|| cache.clear()) {
        tracing::warn!(
            system_identifier = now.map(|i| i.0),
            timeline = now.map(|i| i.1),
            dropped,
            "the database's identity or timeline changed (failover or restore); the aggregate cache is dropped"
        );
    }
}

/// Remember `now` and say whether the cache must go: the identity changed since the last connection, or
/// could not be read. The first identity read is taken as it is.
fn identity_changed(seen: &mut Option<(i64, i64)>, now: Option<(i64, i64)>) -> bool {
    let changed = now.is_none() || seen.is_some_and(|before| Some(before) != now);
    *seen = now;
    changed
}

#[cfg(test)]
mod identity_tests {
    use super::identity_changed;

    #[test]
    fn the_cache_goes_when_the_identity_or_timeline_changes_or_cannot_be_read() {
        let mut seen = None;
        assert!(!identity_changed(&mut seen, Some((7, 1))), "the first identity is taken");
        assert!(!identity_changed(&mut seen, Some((7, 1))), "the same server");
        assert!(identity_changed(&mut seen, Some((7, 2))), "a failover or restore: a new timeline");
        assert!(!identity_changed(&mut seen, Some((7, 2))));
        assert!(identity_changed(&mut seen, Some((8, 2))), "another cluster");
        assert!(identity_changed(&mut seen, None), "unreadable: nothing cached is trusted");
        assert!(!identity_changed(&mut seen, Some((8, 2))), "read again: taken as it is");
    }
}

async fn create_database_if_missing(opts: &PgConnectOptions) -> Result<(), StoreError> {
    match opts.connect().await {
        Ok(conn) => {
            conn.close().await?;
            Ok(())
        }
        Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("3D000") => {
            let name = opts.get_database().unwrap_or("nachfolge").to_owned();
            let mut admin = opts.clone().database("postgres").connect().await?;
            let sql = format!("CREATE DATABASE \"{}\"", name.replace('"', "\"\""));
            match sqlx::query(&sql).execute(&mut admin).await {
                Ok(_) => tracing::info!("database created"),
                // another replica (or a killed predecessor) created it meanwhile: 42P04 duplicate_database, or
                // 23505 unique_violation when both inserted into pg_database at the same moment
                Err(sqlx::Error::Database(e)) if matches!(e.code().as_deref(), Some("42P04" | "23505")) => {}
                Err(e) => return Err(e.into()),
            }
            admin.close().await?;
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

/// What the inbox holds of a message (for one body: the inbox key is the body and the message id).
struct Seen {
    /// [`digest`] of its type and data.
    digest: String,
    /// `applied` or `rejected`.
    outcome: String,
    reason: Option<String>,
}

/// What the `cases` listing table holds of a case; only changed cases are written.
#[derive(Debug, PartialEq)]
struct CaseRow {
    state: &'static str,
    round: i32,
    successor: Option<String>,
    deadline: Option<DateTime<Utc>>,
}
