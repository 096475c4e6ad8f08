//! PostgreSQL state: the body aggregates, inbox, audit log, outbox, mail outbox and timers.
//!
//! Every command runs in one transaction that locks its body row ([`Store::apply`]); the effects the core
//! returns are written in that same transaction, so nothing is lost between state and messages.

use std::collections::HashMap;
use std::str::FromStr;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::{json, Value};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, Connection, PgPool, Postgres, Row, Transaction};

use crate::case::{self, Effect, Rejection, Settings};
use crate::config::DatabaseConfig;
use crate::messages::{AnnouncementIssued, CloudEvent};
use crate::model::Body;
use crate::templates::Templates;

/// Embedded migrations, applied in order (`nachfolge migrate`, and on `run`).
const MIGRATIONS: &[(i32, &str)] = &[(1, include_str!("../migrations/0001_init.sql"))];

/// A store error: database trouble (transient) or a bad template (configuration).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Template(#[from] crate::templates::TemplateError),
    #[error("stored state of body {0} is unreadable: {1}")]
    Corrupt(String, String),
}

/// What happened to an inbound message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// The command took effect (or had none).
    Applied,
    /// Seen before with the same data: nothing done again.
    Duplicate,
    /// Refused for good: dead-letter with this reason (recorded in the inbox).
    Rejected(String),
    /// Names something not known yet: retry later (nothing was written).
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
}

#[derive(Clone)]
pub struct Store {
    pub pool: PgPool,
}

/// A claimed e-mail to send.
#[derive(Debug, Clone)]
pub struct PendingMail {
    pub message_id: String,
    pub body_id: String,
    pub case_id: String,
    pub round: i32,
    pub recipient: Option<String>,
    pub reply_to: String,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub attempts: i32,
}

/// A claimed outbox event to publish.
#[derive(Debug, Clone)]
pub struct PendingEvent {
    pub id: i64,
    pub body_id: Option<String>,
    pub ty: String,
    pub event: Value,
    pub attempts: i32,
}

/// The bookkeeping step an internal command comes with.
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    MailSent { message_id: &'a str },
    MailFailed { message_id: &'a str, reason: &'a str },
    TimerFired { key: &'a str, due_at: DateTime<Utc> },
}

/// A due timer.
#[derive(Debug, Clone)]
pub struct DueTimer {
    pub key: String,
    pub body_id: String,
    pub case_id: String,
    pub round: i32,
    pub due_at: DateTime<Utc>,
}

fn event_id(cause: &str, i: usize) -> String {
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, format!("urn:nachfolge:{cause}:{i}").as_bytes()).to_string()
}

/// A digest of a message's type and data for duplicate detection: a UUIDv5 (SHA-1 based) of the JSON
/// text, enough to tell "same id, different data".
pub fn digest(ty: &str, data: &Value) -> String {
    let text = format!("{ty}\n{data}");
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, text.as_bytes()).to_string()
}

impl Store {
    /// Connect, creating the database if it does not exist, and apply the migrations.
    pub async fn connect(cfg: &DatabaseConfig) -> Result<Store, StoreError> {
        let opts = PgConnectOptions::from_str(&cfg.url)?.log_statements(tracing::log::LevelFilter::Trace);
        create_database_if_missing(&opts).await?;
        let pool = PgPoolOptions::new()
            .max_connections(cfg.max_connections)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(opts)
            .await?;
        let store = Store { pool };
        store.migrate().await?;
        Ok(store)
    }

    /// Apply the embedded migrations under an advisory lock (several replicas may start at once).
    pub async fn migrate(&self) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock(4242001)").execute(&mut *tx).await?;
        sqlx::query(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
        )
        .execute(&mut *tx)
        .await?;
        for (version, sql) in MIGRATIONS {
            let done: Option<i32> = sqlx::query_scalar("SELECT version FROM schema_migrations WHERE version = $1")
                .bind(version)
                .fetch_optional(&mut *tx)
                .await?;
            if done.is_none() {
                sqlx::raw_sql(sql).execute(&mut *tx).await?;
                sqlx::query("INSERT INTO schema_migrations (version) VALUES ($1)")
                    .bind(version)
                    .execute(&mut *tx)
                    .await?;
                tracing::info!(version, "migration applied");
            }
        }
        tx.commit().await?;
        Ok(())
    }

    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }

    /// Process one inbound command in one transaction: dedup, lock the body, run the core, write state,
    /// audit, outbox, mails and timers.
    #[allow(clippy::too_many_arguments)]
    pub async fn apply_inbound(
        &self,
        cause: &Cause,
        body_id: &str,
        cmd: Option<case::Command>,
        snapshot: Option<crate::model::Snapshot>,
        now: DateTime<Utc>,
        settings: &Settings,
        templates: &Templates,
    ) -> Result<Applied, StoreError> {
        let digest = digest(&cause.ty, &cause.payload);
        let mut tx = self.pool.begin().await?;
        // inbox first: a concurrent duplicate waits here until the first commits
        let inserted = sqlx::query(
            "INSERT INTO inbox (message_id, type, body_id, digest, outcome) VALUES ($1, $2, $3, $4, 'applied') ON CONFLICT (message_id) DO NOTHING",
        )
        .bind(&cause.key)
        .bind(&cause.ty)
        .bind(body_id)
        .bind(&digest)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted == 0 {
            let row = sqlx::query("SELECT digest, outcome, reason FROM inbox WHERE message_id = $1")
                .bind(&cause.key)
                .fetch_one(&mut *tx)
                .await?;
            tx.rollback().await?;
            let (d, outcome, reason): (String, String, Option<String>) = (row.get(0), row.get(1), row.get(2));
            if d != digest {
                return Ok(Applied::Rejected(format!(
                    "id: message id {:?} was already used for different data",
                    cause.key
                )));
            }
            return Ok(if outcome == "rejected" {
                Applied::Rejected(reason.unwrap_or_default())
            } else {
                Applied::Duplicate
            });
        }
        let existing = lock_body(&mut tx, body_id).await?;
        let audit_seq = existing.as_ref().map_or(0, |(_, seq)| *seq);
        let before = existing.as_ref().map(|(b, _)| case_rows(b)).unwrap_or_default();
        let result = match (snapshot, cmd) {
            (Some(snapshot), _) => case::register(existing.as_ref().map(|(b, _)| b), snapshot),
            (None, Some(cmd)) => match existing {
                None => Err(Rejection::Unknown(format!("body: unknown body {body_id:?}"))),
                Some((mut body, _)) => case::handle(&mut body, cmd, now, settings).map(|effects| (body, effects)),
            },
            (None, None) => Err(Rejection::Invalid("no command".into())),
        };
        match result {
            Ok((body, effects)) => {
                persist(&mut tx, &body, &before, audit_seq, cause, effects, now, templates).await?;
                tx.commit().await?;
                Ok(Applied::Applied)
            }
            Err(Rejection::Unknown(reason)) => {
                tx.rollback().await?;
                Ok(Applied::Unknown(reason))
            }
            Err(Rejection::Invalid(reason)) => {
                tx.rollback().await?;
                self.record_rejection(cause, Some(body_id), &reason, now).await?;
                Ok(Applied::Rejected(reason))
            }
        }
    }

    /// Record a refused message: inbox (so a redelivery is refused the same way), audit log of the body
    /// if it exists, and `message.rejected` in the outbox.
    pub async fn record_rejection(
        &self,
        cause: &Cause,
        body_id: Option<&str>,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let digest = digest(&cause.ty, &cause.payload);
        if !cause.key.is_empty() {
            sqlx::query(
                "INSERT INTO inbox (message_id, type, body_id, digest, outcome, reason) VALUES ($1, $2, $3, $4, 'rejected', $5) ON CONFLICT (message_id) DO NOTHING",
            )
            .bind(&cause.key)
            .bind(&cause.ty)
            .bind(body_id)
            .bind(&digest)
            .bind(reason)
            .execute(&mut *tx)
            .await?;
        }
        // One `message.rejected` per distinct message (id and data): a redelivery of the same bad message
        // publishes nothing new, a reused id with other data is reported on its own.
        let event = event_id(&format!("rejected:{}:{digest}", cause.key), 0);
        let seen: Option<String> = sqlx::query_scalar("SELECT event_id FROM outbox WHERE event_id = $1")
            .bind(&event)
            .fetch_optional(&mut *tx)
            .await?;
        if seen.is_some() {
            tx.rollback().await?;
            return Ok(());
        }
        if let Some(id) = body_id {
            if let Some((_, audit_seq)) = lock_body(&mut tx, id).await? {
                let mut seq = AuditSeq { body_id: id.to_owned(), seq: audit_seq, rows: Vec::new() };
                let payload = json!({"message": cause.payload, "reason": reason});
                seq.push(now, "rejected", &cause.ty, Some(&cause.key), &payload);
                let last = seq.seq;
                seq.flush(&mut tx).await?;
                sqlx::query("UPDATE bodies SET audit_seq = $2 WHERE id = $1")
                    .bind(id)
                    .bind(last)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        let data = crate::messages::MessageRejected {
            message_id: (!cause.key.is_empty()).then(|| cause.key.clone()),
            ty: (!cause.ty.is_empty()).then(|| cause.ty.clone()),
            reason: reason.to_owned(),
        };
        let data = serde_json::to_value(data).unwrap_or(Value::Null);
        insert_event(&mut tx, &event, body_id, "message.rejected", data, now, cause).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Run an internal command (timer, mail result) against a body in one transaction, together with
    /// the bookkeeping step that caused it (marking the mail sent or the timer fired).
    #[allow(clippy::too_many_arguments)]
    pub async fn apply_internal(
        &self,
        cause: &Cause,
        body_id: &str,
        cmd: case::Command,
        step: Step<'_>,
        now: DateTime<Utc>,
        settings: &Settings,
        templates: &Templates,
    ) -> Result<Result<(), Rejection>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let first = match step {
            Step::MailSent { message_id } => {
                sqlx::query("UPDATE mail_outbox SET sent_at = $2 WHERE message_id = $1 AND sent_at IS NULL")
                    .bind(message_id)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?
            }
            Step::MailFailed { message_id, reason } => sqlx::query(
                "UPDATE mail_outbox SET failed_at = $2, last_error = $3 WHERE message_id = $1 AND failed_at IS NULL",
            )
            .bind(message_id)
            .bind(now)
            .bind(reason)
            .execute(&mut *tx)
            .await?,
            Step::TimerFired { key, due_at } => {
                sqlx::query("UPDATE timers SET fired_at = $2 WHERE key = $1 AND fired_at IS NULL AND due_at = $3")
                    .bind(key)
                    .bind(now)
                    .bind(due_at)
                    .execute(&mut *tx)
                    .await?
            }
        };
        if first.rows_affected() == 0 {
            // done before (another replica, or a lease that ran out): nothing twice
            tx.rollback().await?;
            return Ok(Ok(()));
        }
        let Some((mut body, audit_seq)) = lock_body(&mut tx, body_id).await? else {
            tx.commit().await?;
            return Ok(Err(Rejection::Unknown(format!("body {body_id:?} vanished"))));
        };
        let before = case_rows(&body);
        match case::handle(&mut body, cmd, now, settings) {
            Ok(effects) => {
                persist(&mut tx, &body, &before, audit_seq, cause, effects, now, templates).await?;
                tx.commit().await?;
                Ok(Ok(()))
            }
            Err(e) => {
                // the before-queries still take effect (the mail is sent, the timer has fired)
                tx.commit().await?;
                Ok(Err(e))
            }
        }
    }

    // --- outbox ---------------------------------------------------------------------------------------

    /// Pending events in id order (oldest first), at most `limit`.
    pub async fn pending_events(&self, limit: i64, now: DateTime<Utc>) -> Result<Vec<PendingEvent>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, body_id, type, event, attempts, next_attempt_at FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        // per body, stop at the first event that is waiting for its retry, so order is kept
        let mut blocked = std::collections::HashSet::new();
        let mut out = Vec::new();
        for r in rows {
            let body: Option<String> = r.get(1);
            let next: DateTime<Utc> = r.get(5);
            let key = body.clone().unwrap_or_default();
            if blocked.contains(&key) {
                continue;
            }
            if next > now {
                blocked.insert(key);
                continue;
            }
            out.push(PendingEvent { id: r.get(0), body_id: body, ty: r.get(2), event: r.get(3), attempts: r.get(4) });
        }
        Ok(out)
    }

    pub async fn mark_published(&self, ids: &[i64], now: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET published_at = $2 WHERE id = ANY($1)")
            .bind(ids)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn mark_publish_failed(&self, id: i64, error: &str, retry_at: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3 WHERE id = $1")
            .bind(id)
            .bind(error)
            .bind(retry_at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Outbox backlog: count and age of the oldest unpublished event in seconds.
    pub async fn outbox_backlog(&self, now: DateTime<Utc>) -> Result<(i64, f64), StoreError> {
        let row = sqlx::query("SELECT count(*), min(created_at) FROM outbox WHERE published_at IS NULL")
            .fetch_one(&self.pool)
            .await?;
        let n: i64 = row.get(0);
        let oldest: Option<DateTime<Utc>> = row.get(1);
        Ok((n, oldest.map(|t| (now - t).num_milliseconds() as f64 / 1000.0).unwrap_or(0.0)))
    }

    // --- mail -----------------------------------------------------------------------------------------

    /// Claim due e-mails with a lease (several replicas may run the sender).
    pub async fn claim_mails(
        &self,
        limit: i64,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<Vec<PendingMail>, StoreError> {
        let lease_until = now + chrono::Duration::from_std(lease).unwrap_or(chrono::Duration::seconds(60));
        let rows = sqlx::query(
            "UPDATE mail_outbox SET next_attempt_at = $2, attempts = attempts + 1 WHERE message_id IN (
                SELECT message_id FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1
                ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
             RETURNING message_id, body_id, case_id, round, recipient, reply_to, subject, text_body, html_body, attempts",
        )
        .bind(now)
        .bind(lease_until)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| PendingMail {
                message_id: r.get(0),
                body_id: r.get(1),
                case_id: r.get(2),
                round: r.get(3),
                recipient: r.get(4),
                reply_to: r.get(5),
                subject: r.get(6),
                text_body: r.get(7),
                html_body: r.get(8),
                attempts: r.get(9),
            })
            .collect())
    }

    pub async fn mail_retry(&self, message_id: &str, error: &str, retry_at: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("UPDATE mail_outbox SET last_error = $2, next_attempt_at = $3 WHERE message_id = $1")
            .bind(message_id)
            .bind(error)
            .bind(retry_at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    // --- timers ---------------------------------------------------------------------------------------

    /// Claim due timers with a lease.
    pub async fn claim_timers(
        &self,
        limit: i64,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<Vec<DueTimer>, StoreError> {
        let lease_until = now + chrono::Duration::from_std(lease).unwrap_or(chrono::Duration::seconds(60));
        let rows = sqlx::query(
            "UPDATE timers SET leased_until = $2 WHERE key IN (
                SELECT key FROM timers WHERE fired_at IS NULL AND due_at <= $1 AND (leased_until IS NULL OR leased_until < $1)
                ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
             RETURNING key, body_id, case_id, round, due_at",
        )
        .bind(now)
        .bind(lease_until)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| DueTimer {
                key: r.get(0),
                body_id: r.get(1),
                case_id: r.get(2),
                round: r.get(3),
                due_at: r.get(4),
            })
            .collect())
    }

    /// Number of timers due now and pending.
    pub async fn timer_counts(&self, now: DateTime<Utc>) -> Result<(i64, i64), StoreError> {
        let row =
            sqlx::query("SELECT count(*) FILTER (WHERE due_at <= $1), count(*) FROM timers WHERE fired_at IS NULL")
                .bind(now)
                .fetch_one(&self.pool)
                .await?;
        Ok((row.get(0), row.get(1)))
    }

    // --- reads ----------------------------------------------------------------------------------------

    /// The current snapshot of a body with its cases (`nachfolge export`).
    pub async fn export(&self, body_id: &str) -> Result<Value, StoreError> {
        let state: Option<Value> = sqlx::query_scalar("SELECT state FROM bodies WHERE id = $1")
            .bind(body_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(state.unwrap_or(Value::Null))
    }

    /// Load a body without locking (reads only).
    pub async fn load_body(&self, body_id: &str) -> Result<Option<Body>, StoreError> {
        let state: Option<Value> = sqlx::query_scalar("SELECT state FROM bodies WHERE id = $1")
            .bind(body_id)
            .fetch_optional(&self.pool)
            .await?;
        state.map(|s| decode_body(body_id, s)).transpose()
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

fn decode_body(body_id: &str, state: Value) -> Result<Body, StoreError> {
    let mut body: Body =
        serde_json::from_value(state).map_err(|e| StoreError::Corrupt(body_id.to_owned(), e.to_string()))?;
    body.reindex();
    Ok(body)
}

/// A locked body with its audit sequence (`None` if the body does not exist yet).
type Locked = Option<(Body, i64)>;

/// Lock the body row for this transaction and load the aggregate and its audit sequence.
async fn lock_body(tx: &mut Transaction<'_, Postgres>, body_id: &str) -> Result<Locked, StoreError> {
    // registration of a new body: serialise concurrent first registrations with an advisory lock
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))").bind(body_id).execute(&mut **tx).await?;
    let row = sqlx::query("SELECT state, audit_seq FROM bodies WHERE id = $1 FOR UPDATE")
        .bind(body_id)
        .fetch_optional(&mut **tx)
        .await?;
    row.map(|r| Ok((decode_body(body_id, r.get(0))?, r.get(1)))).transpose()
}

/// What the `cases` listing table holds of a case; only changed cases are written.
type CaseRow = (String, i32, Option<String>, Option<DateTime<Utc>>);

fn case_rows(body: &Body) -> HashMap<String, CaseRow> {
    body.cases
        .values()
        .map(|c| {
            let deadline = match &c.state {
                case::CaseState::Offered(o) => o.deadline.as_ref().map(|d| d.ends_at),
                _ => None,
            };
            (c.id.clone(), (c.state_name().to_owned(), c.round as i32, c.successor().map(str::to_owned), deadline))
        })
        .collect()
}

/// Write what a command produced, in its transaction: effects (outbox, mails, timers), the body with its
/// audit sequence and changed cases, and the audit rows — batched, a few statements per command.
#[allow(clippy::too_many_arguments)]
async fn persist(
    tx: &mut Transaction<'_, Postgres>,
    body: &Body,
    before: &HashMap<String, CaseRow>,
    audit_seq: i64,
    cause: &Cause,
    effects: Vec<Effect>,
    now: DateTime<Utc>,
    templates: &Templates,
) -> Result<(), StoreError> {
    let mut seq = AuditSeq { body_id: body.id().to_owned(), seq: audit_seq, rows: Vec::new() };
    seq.push(now, "command", &cause.ty, Some(&cause.key), &cause.payload);
    let mut outbox = Vec::new();
    write_effects(tx, body, cause, effects, now, templates, &mut seq, &mut outbox).await?;
    save_body(tx, body, before, seq.seq, now).await?;
    insert_events(tx, outbox).await?;
    seq.flush(tx).await
}

async fn save_body(
    tx: &mut Transaction<'_, Postgres>,
    body: &Body,
    before: &HashMap<String, CaseRow>,
    audit_seq: i64,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let state = serde_json::to_value(body).map_err(|e| StoreError::Corrupt(body.id().to_owned(), e.to_string()))?;
    let land = serde_json::to_value(body.land()).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
    sqlx::query(
        "INSERT INTO bodies (id, land, state, audit_seq, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET land = EXCLUDED.land, state = EXCLUDED.state, audit_seq = EXCLUDED.audit_seq,
           updated_at = EXCLUDED.updated_at",
    )
    .bind(body.id())
    .bind(land)
    .bind(state)
    .bind(audit_seq)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    for (id, row) in case_rows(body) {
        if before.get(&id) == Some(&row) {
            continue;
        }
        let (state, round, successor, deadline) = row;
        sqlx::query(
            "INSERT INTO cases (id, body_id, state, round, successor, deadline, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, round = EXCLUDED.round, successor = EXCLUDED.successor,
               deadline = EXCLUDED.deadline, updated_at = EXCLUDED.updated_at
             WHERE cases.state IS DISTINCT FROM EXCLUDED.state OR cases.round IS DISTINCT FROM EXCLUDED.round
               OR cases.deadline IS DISTINCT FROM EXCLUDED.deadline",
        )
        .bind(&id)
        .bind(body.id())
        .bind(state)
        .bind(round)
        .bind(successor)
        .bind(deadline)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// One audit row: sequence, time, kind, type, message id, payload.
type AuditRow = (i64, DateTime<Utc>, String, String, Option<String>, Value);

/// The per-body audit sequence, kept in the body row so the log is gap-free; rows are buffered and
/// written with one statement.
struct AuditSeq {
    body_id: String,
    seq: i64,
    rows: Vec<AuditRow>,
}

impl AuditSeq {
    fn push(&mut self, at: DateTime<Utc>, kind: &str, ty: &str, message_id: Option<&str>, payload: &Value) {
        self.seq += 1;
        self.rows.push((self.seq, at, kind.to_owned(), ty.to_owned(), message_id.map(str::to_owned), payload.clone()));
    }
    async fn flush(self, tx: &mut Transaction<'_, Postgres>) -> Result<(), StoreError> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let mut seqs = Vec::with_capacity(self.rows.len());
        let (mut ats, mut kinds, mut types, mut ids, mut payloads) = (vec![], vec![], vec![], vec![], vec![]);
        for (seq, at, kind, ty, id, payload) in self.rows {
            seqs.push(seq);
            ats.push(at);
            kinds.push(kind);
            types.push(ty);
            ids.push(id);
            payloads.push(payload);
        }
        sqlx::query(
            "INSERT INTO audit_log (body_id, seq, at, kind, type, message_id, payload)
             SELECT $1, * FROM UNNEST($2::bigint[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::jsonb[])",
        )
        .bind(&self.body_id)
        .bind(seqs)
        .bind(ats)
        .bind(kinds)
        .bind(types)
        .bind(ids)
        .bind(payloads)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

/// An outbox row waiting to be written.
struct OutboxRow {
    id: String,
    body_id: Option<String>,
    ty: String,
    event: Value,
    now: DateTime<Utc>,
}

fn outbox_row(id: &str, body_id: Option<&str>, ty: &str, data: Value, now: DateTime<Utc>, cause: &Cause) -> OutboxRow {
    let event = CloudEvent::new(id.to_owned(), ty, body_id.unwrap_or(""), now, data);
    let mut event = serde_json::to_value(&event).unwrap_or(Value::Null);
    if let (Some(obj), Some(tp)) = (event.as_object_mut(), cause.traceparent.as_ref()) {
        obj.insert("traceparent".into(), Value::String(tp.clone()));
        if let Some(ts) = cause.tracestate.as_ref() {
            obj.insert("tracestate".into(), Value::String(ts.clone()));
        }
    }
    OutboxRow { id: id.to_owned(), body_id: body_id.map(str::to_owned), ty: ty.to_owned(), event, now }
}

/// Write outbox rows with one statement, in their order (the relay publishes by id).
async fn insert_events(tx: &mut Transaction<'_, Postgres>, rows: Vec<OutboxRow>) -> Result<(), StoreError> {
    if rows.is_empty() {
        return Ok(());
    }
    let (mut ids, mut bodies, mut types, mut events, mut times) = (vec![], vec![], vec![], vec![], vec![]);
    for r in rows {
        ids.push(r.id);
        bodies.push(r.body_id);
        types.push(r.ty);
        events.push(r.event);
        times.push(r.now);
    }
    sqlx::query(
        "INSERT INTO outbox (event_id, body_id, type, event, created_at)
         SELECT a, b, c, d, e FROM UNNEST($1::text[], $2::text[], $3::text[], $4::jsonb[], $5::timestamptz[]) WITH ORDINALITY AS t(a, b, c, d, e, n)
         ORDER BY n
         ON CONFLICT (event_id) DO NOTHING",
    )
    .bind(ids)
    .bind(bodies)
    .bind(types)
    .bind(events)
    .bind(times)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn insert_event(
    tx: &mut Transaction<'_, Postgres>,
    id: &str,
    body_id: Option<&str>,
    ty: &str,
    data: Value,
    now: DateTime<Utc>,
    cause: &Cause,
) -> Result<(), StoreError> {
    insert_events(tx, vec![outbox_row(id, body_id, ty, data, now, cause)]).await
}

/// The deterministic Message-ID of a case round's e-mail.
pub fn mail_message_id(case: &str, round: u32) -> String {
    let safe: String =
        case.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' }).collect();
    format!("<{safe}.r{round}@nachfolge.invalid>")
}

#[allow(clippy::too_many_arguments)]
async fn write_effects(
    tx: &mut Transaction<'_, Postgres>,
    body: &Body,
    cause: &Cause,
    effects: Vec<Effect>,
    now: DateTime<Utc>,
    templates: &Templates,
    seq: &mut AuditSeq,
    outbox: &mut Vec<OutboxRow>,
) -> Result<(), StoreError> {
    let body_id = body.id();
    for (i, effect) in effects.into_iter().enumerate() {
        let id = event_id(&cause.key, i);
        match effect {
            Effect::Publish { event_type, data } => {
                seq.push(now, "effect", event_type, Some(&id), &data);
                outbox.push(outbox_row(&id, Some(body_id), event_type, data, now, cause));
            }
            Effect::Announce(a) => {
                let text = templates.announcement(&a.template, &a.context)?;
                let data = AnnouncementIssued {
                    body: body_id.to_owned(),
                    case: a.case.clone(),
                    kind: a.kind.clone(),
                    title: a.title.clone(),
                    text,
                    legal_basis: a.legal_basis.clone(),
                    objection_period: a.objection_period.clone(),
                    issued_at: case::berlin(a.issued_at),
                    facts: a.context.clone(),
                };
                let data = serde_json::to_value(data).unwrap_or(Value::Null);
                seq.push(now, "effect", "announcement.issued", Some(&id), &data);
                outbox.push(outbox_row(&id, Some(body_id), "announcement.issued", data, now, cause));
            }
            Effect::Mail(m) => {
                let rendered = templates.mail(&m.template, &m.context)?;
                let message_id = mail_message_id(&m.case, m.round);
                let audit = json!({"case": m.case, "round": m.round, "candidate": m.candidate, "message_id": message_id, "template": m.template});
                seq.push(now, "effect", "mail.queued", Some(&message_id), &audit);
                sqlx::query(
                    "INSERT INTO mail_outbox (message_id, body_id, case_id, round, candidate, recipient, reply_to, subject, text_body, html_body, created_at, next_attempt_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) ON CONFLICT (message_id) DO NOTHING",
                )
                .bind(&message_id)
                .bind(body_id)
                .bind(&m.case)
                .bind(m.round as i32)
                .bind(&m.candidate)
                .bind(&m.to)
                .bind(&m.reply_to)
                .bind(&m.subject)
                .bind(&rendered.text)
                .bind(&rendered.html)
                .bind(now)
                .execute(&mut **tx)
                .await?;
            }
            Effect::Schedule { key, due_at, case, round } => {
                let audit = json!({"key": key, "due_at": due_at, "case": case, "round": round});
                seq.push(now, "effect", "timer.scheduled", None, &audit);
                sqlx::query(
                    "INSERT INTO timers (key, body_id, case_id, round, due_at) VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT (key) DO UPDATE SET due_at = EXCLUDED.due_at, leased_until = NULL, fired_at = NULL",
                )
                .bind(&key)
                .bind(body_id)
                .bind(&case)
                .bind(round as i32)
                .bind(due_at)
                .execute(&mut **tx)
                .await?;
            }
            Effect::Cancel { key } => {
                let n = sqlx::query("DELETE FROM timers WHERE key = $1 AND fired_at IS NULL")
                    .bind(&key)
                    .execute(&mut **tx)
                    .await?;
                if n.rows_affected() > 0 {
                    seq.push(now, "effect", "timer.cancelled", None, &json!({"key": key}));
                }
            }
        }
    }
    Ok(())
}
