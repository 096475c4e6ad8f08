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

use crate::case::{self, Effect, Rejection, Settings};
use crate::config::DatabaseConfig;
use crate::messages::{AnnouncementIssued, CloudEvent};
use crate::model::{Body, Snapshot};
use crate::templates::Templates;

/// Embedded migrations, applied in order (`nachfolge migrate`, and on `run`).
const MIGRATIONS: &[(i32, &str)] = &[
    (1, include_str!("../migrations/0001_init.sql")),
    (2, include_str!("../migrations/0002_lz4.sql")),
    (3, include_str!("../migrations/0003_json.sql")),
];

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

/// A claimed outbox event to publish: the CloudEvent as JSON text and what its AMQP properties carry.
#[derive(Debug, Clone)]
pub struct PendingEvent {
    pub id: i64,
    pub body_id: Option<String>,
    pub meta: crate::bus::EventMeta,
    pub payload: String,
    pub attempts: i32,
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
    pub body_id: String,
    pub work: Work,
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
        let opts = crate::store_tls::pg_connect_options(cfg)?
            .log_statements(tracing::log::LevelFilter::Trace)
            // the batch statements take arrays: a plan per execution would cost more than the statement
            .options([("plan_cache_mode", "force_generic_plan"), ("enable_seqscan", "off")]);
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

    /// Apply commands in as few transactions as possible (group commit): lock every body they name, run
    /// the core on each command in order, write state, audit, outbox, mails and timers, commit once.
    ///
    /// Outcomes come back in the order of `items`. Inbound commands are deduplicated by the inbox, internal
    /// ones by their bookkeeping step. A command the core refuses changes nothing: the batch is run again
    /// without it. A rejection is not recorded here: the caller dead-letters the message and records it
    /// with [`Store::record_rejection`].
    pub async fn apply_batch(
        &self,
        items: &[Item],
        now: DateTime<Utc>,
        settings: &Settings,
        templates: &Templates,
    ) -> Result<Vec<Applied>, StoreError> {
        let mut outcomes = Vec::with_capacity(items.len());
        // a message id seen twice ends a chunk: the second is judged against what the first left behind
        let mut from = 0;
        while from < items.len() {
            let mut seen = std::collections::HashSet::new();
            let mut to = from;
            while to < items.len() && seen.insert(items[to].cause.key.as_str()) {
                to += 1;
            }
            let chunk = &items[from..to];
            let mut refused: Vec<Option<Applied>> = vec![None; chunk.len()];
            // each pass either commits or takes out at least one more command
            while !self.try_batch(chunk, &mut refused, now, settings, templates).await? {}
            outcomes.extend(refused.into_iter().map(|o| o.unwrap_or(Applied::Applied)));
            from = to;
        }
        Ok(outcomes)
    }

    /// One pass of [`Store::apply_batch`]: `Ok(true)` when committed; `Ok(false)` when a command was refused
    /// (its outcome set) and the pass rolled back.
    async fn try_batch(
        &self,
        items: &[Item],
        outcomes: &mut [Option<Applied>],
        now: DateTime<Utc>,
        settings: &Settings,
        templates: &Templates,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        // bookkeeping steps first: a step done before (another replica, a lease that ran out) means the
        // command was applied already
        let mut timers: Vec<(usize, &str, DateTime<Utc>)> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match &item.work {
                Work::Internal(_, _) if outcomes[i] == Some(Applied::Duplicate) => {}
                Work::Internal(_, Step::TimerFired { key, due_at }) => timers.push((i, key, *due_at)),
                Work::Internal(_, Step::MailSent { message_id })
                    if !mark_mail(&mut tx, message_id, None, now).await? =>
                {
                    outcomes[i] = Some(Applied::Duplicate);
                }
                Work::Internal(_, Step::MailFailed { message_id, reason })
                    if !mark_mail(&mut tx, message_id, Some(reason), now).await? =>
                {
                    outcomes[i] = Some(Applied::Duplicate);
                }
                _ => {}
            }
        }
        if !timers.is_empty() {
            // all timers of the batch with one statement
            let keys: Vec<&str> = timers.iter().map(|t| t.1).collect();
            let dues: Vec<DateTime<Utc>> = timers.iter().map(|t| t.2).collect();
            let marked: std::collections::HashSet<String> = sqlx::query_scalar(
                "UPDATE timers SET fired_at = $3 FROM UNNEST($1::text[], $2::timestamptz[]) AS u(k, d)
                 WHERE key = u.k AND due_at = u.d AND fired_at IS NULL RETURNING key",
            )
            .bind(&keys)
            .bind(&dues)
            .bind(now)
            .fetch_all(&mut *tx)
            .await?
            .into_iter()
            .collect();
            for (i, key, _) in timers {
                if !marked.contains(key) {
                    outcomes[i] = Some(Applied::Duplicate);
                }
            }
        }
        // the commands still to run: not refused by the core in an earlier pass, not done before (a refused
        // internal command's step still takes effect)
        let pending: Vec<&Item> =
            items.iter().zip(outcomes.iter()).filter(|(_, o)| o.is_none()).map(|(it, _)| it).collect();
        let mut wanted: Vec<&str> = pending.iter().map(|it| it.body_id.as_str()).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mut new: Vec<&str> =
            pending.iter().filter(|it| matches!(it.work, Work::Register(_))).map(|it| it.body_id.as_str()).collect();
        new.sort_unstable();
        new.dedup();
        // inbox: messages seen before, read with the locks (one round trip); a duplicate committed by
        // another replica while this one waited for a lock is caught by the inbox insert at the end
        let keys: Vec<&str> = pending
            .iter()
            .filter(|it| !matches!(it.work, Work::Internal(..)))
            .map(|it| it.cause.key.as_str())
            .collect();
        let (mut bodies, known) = lock_bodies(&mut tx, &wanted, &new, &keys).await?;
        let mut writes = Writes::new(now);
        for (i, item) in items.iter().enumerate() {
            if outcomes[i].is_some() {
                continue;
            }
            let internal = matches!(item.work, Work::Internal(..));
            // inbound only: what the inbox keeps to tell a duplicate from a reused id
            let digest = (!internal).then(|| digest(&item.cause.ty, &item.cause.payload));
            if let Some(digest) = &digest {
                if let Some((d, outcome, reason)) = known.get(&item.cause.key) {
                    outcomes[i] = Some(if d != digest {
                        Applied::Rejected(format!(
                            "id: message id {:?} was already used for different data",
                            item.cause.key
                        ))
                    } else if outcome == "rejected" {
                        Applied::Rejected(reason.clone().unwrap_or_default())
                    } else {
                        Applied::Duplicate
                    });
                    continue;
                }
            }
            let Some(slot) = bodies.get_mut(item.body_id.as_str()) else { continue };
            let result = match &item.work {
                Work::Register(snapshot) => match case::register(slot.body.as_ref(), (**snapshot).clone()) {
                    Ok((body, effects)) => {
                        slot.body = Some(body);
                        Ok(effects)
                    }
                    Err(e) => Err(e),
                },
                Work::Inbound(cmd) | Work::Internal(cmd, _) => match slot.body.as_mut() {
                    Some(body) => case::handle(body, cmd.clone(), now, settings),
                    None => {
                        let reason = format!("body: unknown body {:?}", item.body_id);
                        outcomes[i] = Some(if internal { Applied::Rejected(reason) } else { Applied::Unknown(reason) });
                        // nothing was changed: the pass goes on
                        continue;
                    }
                },
            };
            match result {
                Ok(effects) => {
                    let Some(body) = slot.body.as_ref() else { continue };
                    slot.dirty = true;
                    let fired = match &item.work {
                        Work::Internal(_, Step::TimerFired { key, .. }) => Some(key.as_str()),
                        _ => None,
                    };
                    writes.command(&mut tx, (body, &mut slot.seq), &item.cause, effects, templates, fired).await?;
                    if let Some(digest) = digest {
                        writes.applied(&item.cause, &item.body_id, digest);
                    }
                }
                Err(rejection) => {
                    // the body may be half-changed: run the pass again without this command
                    outcomes[i] = Some(match rejection {
                        Rejection::Unknown(r) if !internal => Applied::Unknown(r),
                        Rejection::Unknown(r) | Rejection::Invalid(r) => Applied::Rejected(r),
                    });
                    tx.rollback().await?;
                    return Ok(false);
                }
            }
        }
        for slot in bodies.values() {
            if let (true, Some(body)) = (slot.dirty, slot.body.as_ref()) {
                writes.body(body, &slot.before, slot.seq)?;
            }
        }
        let n = writes.inbox.id.len();
        if writes.flush(&mut tx).await? != n {
            // an id used at once for another body by another replica: judge again against the inbox
            tx.rollback().await?;
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
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
            // the body's audit sequence, locked; the aggregate itself is not needed
            let seq: Option<i64> = sqlx::query_scalar("SELECT audit_seq FROM bodies WHERE id = $1 FOR UPDATE")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(mut seq) = seq {
                let mut audit = AuditCols::default();
                let payload = json!({"message": cause.payload, "reason": reason}).to_string();
                audit.push(id, &mut seq, now, Entry { kind: "rejected", ty: &cause.ty, id: Some(&cause.key), payload });
                insert_audit(&mut tx, audit).await?;
                sqlx::query("UPDATE bodies SET audit_seq = $2 WHERE id = $1")
                    .bind(id)
                    .bind(seq)
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
        insert_event(&mut tx, outbox_row(&event, body_id, "message.rejected", data, now, cause), now).await?;
        tx.commit().await?;
        Ok(())
    }

    // --- outbox ---------------------------------------------------------------------------------------

    /// Pending events in id order (oldest first) from a page of at most `limit` unpublished rows, without
    /// those `in_flight` (published, confirms outstanding) and those behind an event of the same body that
    /// waits for its retry. The flag tells whether the page was full (there may be more).
    pub async fn pending_events(
        conn: &mut PgConnection,
        limit: i64,
        now: DateTime<Utc>,
        in_flight: &[i64],
    ) -> Result<(Vec<PendingEvent>, bool), StoreError> {
        let rows = sqlx::query(
            // the event is `json` text: one json_to_record parses it once for the three fields (each ->>
            // would parse it again)
            "SELECT o.id, o.body_id, o.type, o.event::text, o.attempts, o.next_attempt_at, o.event_id, m.time,
                    m.traceparent, m.tracestate
             FROM outbox o, json_to_record(o.event) AS m(time text, traceparent text, tracestate text)
             WHERE o.published_at IS NULL AND o.id <> ALL($2) ORDER BY o.id LIMIT $1",
        )
        .bind(limit)
        .bind(in_flight)
        .fetch_all(&mut *conn)
        .await?;
        let full = rows.len() as i64 >= limit;
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
            let time: Option<String> = r.get(7);
            let meta = crate::bus::EventMeta {
                id: r.get(6),
                ty: r.get(2),
                time: time.and_then(|t| DateTime::parse_from_rfc3339(&t).ok()).map(|t| t.with_timezone(&Utc)),
                traceparent: r.get(8),
                tracestate: r.get(9),
            };
            out.push(PendingEvent { id: r.get(0), body_id: body, meta, payload: r.get(3), attempts: r.get(4) });
        }
        Ok((out, full))
    }

    pub async fn mark_published(conn: &mut PgConnection, ids: &[i64], now: DateTime<Utc>) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET published_at = $2 WHERE id = ANY($1)")
            .bind(ids)
            .bind(now)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    pub async fn mark_publish_failed(
        conn: &mut PgConnection,
        id: i64,
        error: &str,
        retry_at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3 WHERE id = $1")
            .bind(id)
            .bind(error)
            .bind(retry_at)
            .execute(&mut *conn)
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
        let claim = "UPDATE mail_outbox SET next_attempt_at = $2, attempts = attempts + 1 WHERE message_id IN (
                SELECT message_id FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1
                ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
             RETURNING message_id, body_id, case_id, round, recipient, reply_to, subject, text_body, html_body, attempts";
        Ok(self
            .claim(claim, limit, now, lease)
            .await?
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

    /// Run a claiming statement (`$1` now, `$2` end of the lease, `$3` limit): rows that are due and not
    /// leased by another replica, leased to this one.
    async fn claim(
        &self,
        sql: &'static str,
        limit: i64,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<Vec<sqlx::postgres::PgRow>, StoreError> {
        let lease_until = now + chrono::Duration::from_std(lease).unwrap_or(chrono::Duration::seconds(60));
        Ok(sqlx::query(sql).bind(now).bind(lease_until).bind(limit).fetch_all(&self.pool).await?)
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
        let claim = "UPDATE timers SET leased_until = $2 WHERE key IN (
                SELECT key FROM timers WHERE fired_at IS NULL AND due_at <= $1 AND (leased_until IS NULL OR leased_until < $1)
                ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
             RETURNING key, body_id, case_id, round, due_at";
        Ok(self
            .claim(claim, limit, now, lease)
            .await?
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

    /// When the next timer falls due after `now` (those due already are claimed or leased).
    pub async fn next_timer_due(&self, now: DateTime<Utc>) -> Result<Option<DateTime<Utc>>, StoreError> {
        Ok(sqlx::query_scalar("SELECT min(due_at) FROM timers WHERE fired_at IS NULL AND due_at > $1")
            .bind(now)
            .fetch_one(&self.pool)
            .await?)
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
        let state: Option<String> = sqlx::query_scalar("SELECT state::text FROM bodies WHERE id = $1")
            .bind(body_id)
            .fetch_optional(&self.pool)
            .await?;
        state.map(|s| decode_body(body_id, &s)).transpose()
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

fn decode_body(body_id: &str, state: &str) -> Result<Body, StoreError> {
    let mut body: Body =
        serde_json::from_str(state).map_err(|e| StoreError::Corrupt(body_id.to_owned(), e.to_string()))?;
    body.reindex();
    Ok(body)
}

/// A body locked by a batch: the aggregate (`None` if it does not exist yet), its audit sequence and what
/// the `cases` listing held before.
struct Slot {
    body: Option<Body>,
    seq: i64,
    before: HashMap<String, CaseRow>,
    dirty: bool,
}

/// The advisory lock key of a body id, taken by registrations: a body that does not exist yet has no row
/// to lock, so two first registrations of the same id are serialised by this key.
fn lock_key(body_id: &str) -> i64 {
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, body_id.as_bytes()).as_u64_pair().0 as i64
}

/// What the inbox holds of a message: digest, outcome, reason.
type Seen = (String, String, Option<String>);

/// Lock the bodies `ids` for this transaction (rows in ascending id order, so batches cannot deadlock)
/// and load the aggregates and their audit sequences, and what the inbox holds of the messages `keys`.
/// `registering` (a subset of `ids`) may not exist yet: their advisory locks are taken first, in
/// ascending key order.
async fn lock_bodies(
    tx: &mut Transaction<'_, Postgres>,
    ids: &[&str],
    registering: &[&str],
    keys: &[&str],
) -> Result<(HashMap<String, Slot>, HashMap<String, Seen>), StoreError> {
    let mut slots = HashMap::with_capacity(ids.len());
    let mut seen = HashMap::new();
    if ids.is_empty() {
        return Ok((slots, seen));
    }
    if !registering.is_empty() {
        let mut keys: Vec<i64> = registering.iter().map(|id| lock_key(id)).collect();
        keys.sort_unstable();
        keys.dedup();
        // a function scan yields the array in order: the locks are taken in ascending key order
        sqlx::query("SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k")
            .bind(&keys)
            .execute(&mut **tx)
            .await?;
    }
    let rows = sqlx::query(
        "WITH b AS (SELECT id, state::text AS state, audit_seq FROM bodies WHERE id = ANY($1) ORDER BY id FOR UPDATE)
         SELECT true, id, state, audit_seq, NULL, NULL FROM b
         UNION ALL
         SELECT false, message_id, digest, NULL, outcome, reason FROM inbox WHERE message_id = ANY($2)",
    )
    .bind(ids)
    .bind(keys)
    .fetch_all(&mut **tx)
    .await?;
    for r in rows {
        let is_body: bool = r.get(0);
        let id: String = r.get(1);
        if is_body {
            let state: String = r.get(2);
            let body = decode_body(&id, &state)?;
            let before = case_rows(&body);
            slots.insert(id, Slot { body: Some(body), seq: r.get(3), before, dirty: false });
        } else {
            seen.insert(id, (r.get(2), r.get(4), r.get(5)));
        }
    }
    for id in ids {
        slots.entry((*id).to_owned()).or_insert_with(|| Slot {
            body: None,
            seq: 0,
            before: HashMap::new(),
            dirty: false,
        });
    }
    Ok((slots, seen))
}

/// Mark a mail sent, or failed for good with `failure`; `false` if that was done before. (Fired timers
/// are marked for the whole batch with one statement.)
async fn mark_mail(
    tx: &mut Transaction<'_, Postgres>,
    message_id: &str,
    failure: Option<&str>,
    now: DateTime<Utc>,
) -> Result<bool, StoreError> {
    let done = match failure {
        None => sqlx::query("UPDATE mail_outbox SET sent_at = $2 WHERE message_id = $1 AND sent_at IS NULL")
            .bind(message_id)
            .bind(now),
        Some(reason) => sqlx::query(
            "UPDATE mail_outbox SET failed_at = $2, last_error = $3 WHERE message_id = $1 AND failed_at IS NULL",
        )
        .bind(message_id)
        .bind(now)
        .bind(reason),
    }
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() > 0)
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

/// Audit rows, column by column (one statement writes them all).
#[derive(Default)]
struct AuditCols {
    body: Vec<String>,
    seq: Vec<i64>,
    at: Vec<DateTime<Utc>>,
    kind: Vec<String>,
    ty: Vec<String>,
    id: Vec<Option<String>>,
    /// JSON text
    payload: Vec<String>,
}

/// One audit entry: kind (`command`, `effect`, `rejected`), type, message or event id, payload.
struct Entry<'a> {
    kind: &'a str,
    ty: &'a str,
    id: Option<&'a str>,
    payload: String,
}

/// A statement with its arguments.
type PgQuery<'q> = sqlx::query::Query<'q, Postgres, sqlx::postgres::PgArguments>;

impl AuditCols {
    /// Bind the columns as the next seven arrays (body, seq, at, kind, type, id, payload).
    fn bind(self, q: PgQuery<'_>) -> PgQuery<'_> {
        q.bind(self.body).bind(self.seq).bind(self.at).bind(self.kind).bind(self.ty).bind(self.id).bind(self.payload)
    }

    /// Append an entry to a body's log, taking the next number of its gap-free sequence.
    fn push(&mut self, body: &str, seq: &mut i64, at: DateTime<Utc>, e: Entry<'_>) {
        *seq += 1;
        self.body.push(body.to_owned());
        self.seq.push(*seq);
        self.at.push(at);
        self.kind.push(e.kind.to_owned());
        self.ty.push(e.ty.to_owned());
        self.id.push(e.id.map(str::to_owned));
        self.payload.push(e.payload);
    }
}

/// Rendered e-mails, column by column.
#[derive(Default)]
struct MailCols {
    message_id: Vec<String>,
    body_id: Vec<String>,
    case_id: Vec<String>,
    round: Vec<i32>,
    candidate: Vec<String>,
    recipient: Vec<Option<String>>,
    reply_to: Vec<String>,
    subject: Vec<String>,
    text_body: Vec<String>,
    html_body: Vec<String>,
}

/// Outbox events (JSON text), column by column, in publishing order.
#[derive(Default)]
struct OutboxCols {
    event_id: Vec<String>,
    body_id: Vec<Option<String>>,
    ty: Vec<String>,
    event: Vec<String>,
}

/// Changed bodies and `cases` rows, column by column.
#[derive(Default)]
struct BodyCols {
    id: Vec<String>,
    land: Vec<String>,
    state: Vec<String>,
    seq: Vec<i64>,
    case_id: Vec<String>,
    case_body: Vec<String>,
    case_state: Vec<String>,
    case_round: Vec<i32>,
    case_successor: Vec<Option<String>>,
    case_deadline: Vec<Option<DateTime<Utc>>>,
}

/// Inbox rows of the applied messages, column by column.
#[derive(Default)]
struct InboxCols {
    id: Vec<String>,
    ty: Vec<String>,
    body: Vec<String>,
    digest: Vec<String>,
}

/// A scheduled timer waiting to be written.
struct TimerRow {
    key: String,
    body: String,
    case: String,
    round: i32,
    due_at: DateTime<Utc>,
}

/// The rows a batch writes, buffered and written with one statement at the end. Timers are buffered too;
/// a cancel writes the buffered ones first and deletes at once (it reports whether it found the timer).
struct Writes {
    now: DateTime<Utc>,
    audit: AuditCols,
    outbox: OutboxCols,
    mails: MailCols,
    bodies: BodyCols,
    inbox: InboxCols,
    timers: Vec<TimerRow>,
}

impl Writes {
    fn new(now: DateTime<Utc>) -> Writes {
        Writes {
            now,
            audit: AuditCols::default(),
            outbox: OutboxCols::default(),
            mails: MailCols::default(),
            bodies: BodyCols::default(),
            inbox: InboxCols::default(),
            timers: Vec::new(),
        }
    }

    fn outbox(&mut self, row: OutboxRow) {
        self.outbox.event_id.push(row.id);
        self.outbox.body_id.push(row.body_id);
        self.outbox.ty.push(row.ty);
        self.outbox.event.push(row.event);
    }

    /// The inbox row of an applied message.
    fn applied(&mut self, cause: &Cause, body: &str, digest: String) {
        self.inbox.id.push(cause.key.clone());
        self.inbox.ty.push(cause.ty.clone());
        self.inbox.body.push(body.to_owned());
        self.inbox.digest.push(digest);
    }

    /// One command and its effects: the audit rows, outbox rows, mails and timers. `fired` is the timer
    /// this command fires, if any.
    async fn command(
        &mut self,
        tx: &mut Transaction<'_, Postgres>,
        (body, seq): (&Body, &mut i64),
        cause: &Cause,
        effects: Vec<Effect>,
        templates: &Templates,
        fired: Option<&str>,
    ) -> Result<(), StoreError> {
        let (body_id, now) = (body.id(), self.now);
        let entry = Entry { kind: "command", ty: &cause.ty, id: Some(&cause.key), payload: cause.payload.to_string() };
        self.audit.push(body_id, seq, now, entry);
        for (i, effect) in effects.into_iter().enumerate() {
            let id = event_id(&cause.key, i);
            match effect {
                Effect::Publish { event_type, data } => {
                    let entry = Entry { kind: "effect", ty: event_type, id: Some(&id), payload: data.to_string() };
                    self.audit.push(body_id, seq, now, entry);
                    self.outbox(outbox_row(&id, Some(body_id), event_type, data, now, cause));
                }
                Effect::Announce(a) => {
                    let text = templates.announcement(&a.template, &a.context)?;
                    let data = AnnouncementIssued {
                        body: body_id.to_owned(),
                        case: a.case,
                        kind: a.kind,
                        title: a.title,
                        text,
                        legal_basis: a.legal_basis,
                        objection_period: a.objection_period,
                        issued_at: case::berlin(a.issued_at),
                        facts: a.context,
                    };
                    let data = serde_json::to_value(data).unwrap_or(Value::Null);
                    let ty = "announcement.issued";
                    self.audit.push(
                        body_id,
                        seq,
                        now,
                        Entry { kind: "effect", ty, id: Some(&id), payload: data.to_string() },
                    );
                    self.outbox(outbox_row(&id, Some(body_id), ty, data, now, cause));
                }
                Effect::Mail(m) => {
                    let rendered = templates.mail(&m.template, &m.context)?;
                    let message_id = mail_message_id(&m.case, m.round);
                    let audit = json!({"case": m.case, "round": m.round, "candidate": m.candidate, "message_id": message_id, "template": m.template});
                    let entry =
                        Entry { kind: "effect", ty: "mail.queued", id: Some(&message_id), payload: audit.to_string() };
                    self.audit.push(body_id, seq, now, entry);
                    let c = &mut self.mails;
                    c.message_id.push(message_id);
                    c.body_id.push(body_id.to_owned());
                    c.case_id.push(m.case);
                    c.round.push(m.round as i32);
                    c.candidate.push(m.candidate);
                    c.recipient.push(m.to);
                    c.reply_to.push(m.reply_to);
                    c.subject.push(m.subject);
                    c.text_body.push(rendered.text);
                    c.html_body.push(rendered.html);
                }
                Effect::Schedule { key, due_at, case, round } => {
                    let audit = json!({"key": key, "due_at": due_at, "case": case, "round": round});
                    let entry = Entry { kind: "effect", ty: "timer.scheduled", id: None, payload: audit.to_string() };
                    self.audit.push(body_id, seq, now, entry);
                    self.timers.push(TimerRow { key, body: body_id.to_owned(), case, round: round as i32, due_at });
                }
                Effect::Cancel { key } => {
                    let pending = self.timers.iter().any(|t| t.key == key);
                    if fired == Some(key.as_str()) && !pending {
                        // the timer firing now: marked fired in this transaction, nothing to cancel
                        continue;
                    }
                    if pending {
                        self.write_timers(tx).await?;
                    }
                    let n = sqlx::query("DELETE FROM timers WHERE key = $1 AND fired_at IS NULL")
                        .bind(&key)
                        .execute(&mut **tx)
                        .await?;
                    if n.rows_affected() > 0 {
                        let payload = json!({"key": key}).to_string();
                        self.audit.push(
                            body_id,
                            seq,
                            now,
                            Entry { kind: "effect", ty: "timer.cancelled", id: None, payload },
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// Write the timers scheduled so far with one statement (the last schedule of a key wins).
    async fn write_timers(&mut self, tx: &mut Transaction<'_, Postgres>) -> Result<(), StoreError> {
        if self.timers.is_empty() {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.timers);
        let last: HashMap<&str, usize> = rows.iter().enumerate().map(|(i, t)| (t.key.as_str(), i)).collect();
        let rows: Vec<&TimerRow> =
            rows.iter().enumerate().filter(|(i, t)| last[t.key.as_str()] == *i).map(|(_, t)| t).collect();
        sqlx::query(
            "INSERT INTO timers (key, body_id, case_id, round, due_at)
             SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::int[], $5::timestamptz[])
             ON CONFLICT (key) DO UPDATE SET due_at = EXCLUDED.due_at, leased_until = NULL, fired_at = NULL",
        )
        .bind(rows.iter().map(|t| t.key.as_str()).collect::<Vec<_>>())
        .bind(rows.iter().map(|t| t.body.as_str()).collect::<Vec<_>>())
        .bind(rows.iter().map(|t| t.case.as_str()).collect::<Vec<_>>())
        .bind(rows.iter().map(|t| t.round).collect::<Vec<_>>())
        .bind(rows.iter().map(|t| t.due_at).collect::<Vec<_>>())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// The changed body: its state, audit sequence and changed `cases` rows.
    fn body(&mut self, body: &Body, before: &HashMap<String, CaseRow>, seq: i64) -> Result<(), StoreError> {
        let state =
            serde_json::to_string(body).map_err(|e| StoreError::Corrupt(body.id().to_owned(), e.to_string()))?;
        let land =
            serde_json::to_value(body.land()).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
        let c = &mut self.bodies;
        c.id.push(body.id().to_owned());
        c.land.push(land);
        c.state.push(state);
        c.seq.push(seq);
        for (id, row) in case_rows(body) {
            if before.get(&id) == Some(&row) {
                continue;
            }
            let (state, round, successor, deadline) = row;
            c.case_id.push(id);
            c.case_body.push(body.id().to_owned());
            c.case_state.push(state);
            c.case_round.push(round);
            c.case_successor.push(successor);
            c.case_deadline.push(deadline);
        }
        Ok(())
    }

    /// Write everything buffered, and the inbox rows of the applied messages, with one statement
    /// (data-modifying CTEs, one per table), whatever the number of commands. Returns how many inbox
    /// rows were written: fewer than buffered means an id was taken meanwhile.
    async fn flush(mut self, tx: &mut Transaction<'_, Postgres>) -> Result<usize, StoreError> {
        if self.audit.seq.is_empty() {
            return Ok(0);
        }
        self.write_timers(tx).await?;
        let (b, m, o, a, i) = (self.bodies, self.mails, self.outbox, self.audit, self.inbox);
        let query = sqlx::query(
            "WITH
             b AS (INSERT INTO bodies (id, land, state, audit_seq, updated_at)
                   SELECT i, l, s::json, a, $1 FROM UNNEST($2::text[], $3::text[], $4::text[], $5::bigint[]) AS t(i, l, s, a)
                   ON CONFLICT (id) DO UPDATE SET land = EXCLUDED.land, state = EXCLUDED.state,
                     audit_seq = EXCLUDED.audit_seq, updated_at = EXCLUDED.updated_at),
             c AS (INSERT INTO cases (id, body_id, state, round, successor, deadline, updated_at)
                   SELECT *, $1 FROM UNNEST($6::text[], $7::text[], $8::text[], $9::int[], $10::text[], $11::timestamptz[])
                   ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, round = EXCLUDED.round,
                     successor = EXCLUDED.successor, deadline = EXCLUDED.deadline, updated_at = EXCLUDED.updated_at),
             m AS (INSERT INTO mail_outbox (message_id, body_id, case_id, round, candidate, recipient, reply_to, subject,
                     text_body, html_body, created_at, next_attempt_at)
                   SELECT *, $1, $1 FROM UNNEST($12::text[], $13::text[], $14::text[], $15::int[], $16::text[],
                     $17::text[], $18::text[], $19::text[], $20::text[], $21::text[])
                   ON CONFLICT (message_id) DO NOTHING),
             o AS (INSERT INTO outbox (event_id, body_id, type, event, created_at)
                   SELECT e, bo, ty, ev::json, $1 FROM UNNEST($22::text[], $23::text[], $24::text[], $25::text[])
                     WITH ORDINALITY AS t(e, bo, ty, ev, n)
                   ORDER BY n
                   ON CONFLICT (event_id) DO NOTHING),
             a AS (INSERT INTO audit_log (body_id, seq, at, kind, type, message_id, payload)
                   SELECT b, s, a, k, ty, m, p::json FROM UNNEST($26::text[], $27::bigint[], $28::timestamptz[],
                     $29::text[], $30::text[], $31::text[], $32::text[]) AS t(b, s, a, k, ty, m, p))
             INSERT INTO inbox (message_id, type, body_id, digest, outcome)
             SELECT *, 'applied' FROM UNNEST($33::text[], $34::text[], $35::text[], $36::text[])
             ON CONFLICT (message_id) DO NOTHING",
        )
        .bind(self.now)
        .bind(b.id)
        .bind(b.land)
        .bind(b.state)
        .bind(b.seq)
        .bind(b.case_id)
        .bind(b.case_body)
        .bind(b.case_state)
        .bind(b.case_round)
        .bind(b.case_successor)
        .bind(b.case_deadline)
        .bind(m.message_id)
        .bind(m.body_id)
        .bind(m.case_id)
        .bind(m.round)
        .bind(m.candidate)
        .bind(m.recipient)
        .bind(m.reply_to)
        .bind(m.subject)
        .bind(m.text_body)
        .bind(m.html_body)
        .bind(o.event_id)
        .bind(o.body_id)
        .bind(o.ty)
        .bind(o.event);
        let inserted =
            a.bind(query).bind(i.id).bind(i.ty).bind(i.body).bind(i.digest).execute(&mut **tx).await?.rows_affected();
        Ok(inserted as usize)
    }
}

/// Write audit rows with one statement.
async fn insert_audit(tx: &mut Transaction<'_, Postgres>, a: AuditCols) -> Result<(), StoreError> {
    if a.seq.is_empty() {
        return Ok(());
    }
    a.bind(sqlx::query(
        "INSERT INTO audit_log (body_id, seq, at, kind, type, message_id, payload)
         SELECT b, s, a, k, ty, m, p::json
         FROM UNNEST($1::text[], $2::bigint[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[]) AS t(b, s, a, k, ty, m, p)",
    ))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// An outbox row waiting to be written.
struct OutboxRow {
    id: String,
    body_id: Option<String>,
    ty: String,
    /// The CloudEvent as JSON text.
    event: String,
}

/// A CloudEvent with the distributed-tracing extension attributes of its cause.
#[derive(serde::Serialize)]
struct TracedEvent<'a> {
    #[serde(flatten)]
    event: &'a CloudEvent,
    #[serde(skip_serializing_if = "Option::is_none")]
    traceparent: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tracestate: Option<&'a str>,
}

fn outbox_row(id: &str, body_id: Option<&str>, ty: &str, data: Value, now: DateTime<Utc>, cause: &Cause) -> OutboxRow {
    let event = CloudEvent::new(id.to_owned(), ty, body_id.unwrap_or(""), now, data);
    let traceparent = cause.traceparent.as_deref();
    let traced = TracedEvent { event: &event, traceparent, tracestate: traceparent.and(cause.tracestate.as_deref()) };
    let event = serde_json::to_string(&traced).unwrap_or_else(|_| "null".into());
    OutboxRow { id: id.to_owned(), body_id: body_id.map(str::to_owned), ty: ty.to_owned(), event }
}

/// Write one event into the outbox (`message.rejected`; batches write theirs with [`Writes::flush`]).
async fn insert_event(
    tx: &mut Transaction<'_, Postgres>,
    row: OutboxRow,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO outbox (event_id, body_id, type, event, created_at) VALUES ($1, $2, $3, $4::json, $5)
         ON CONFLICT (event_id) DO NOTHING",
    )
    .bind(row.id)
    .bind(row.body_id)
    .bind(row.ty)
    .bind(row.event)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The deterministic Message-ID of a case round's e-mail.
pub fn mail_message_id(case: &str, round: u32) -> String {
    let safe: String =
        case.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' }).collect();
    format!("<{safe}.r{round}@nachfolge.invalid>")
}
