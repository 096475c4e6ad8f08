//! The outbox (events written with the state, published by the relay): reading a page, marking it
//! published or failed, the backlog.

use super::*;

/// A claimed outbox event to publish: the CloudEvent as JSON text and what its AMQP properties carry.
#[derive(Debug, Clone)]
pub struct PendingEvent {
    pub id: i64,
    pub body_id: Option<String>,
    pub meta: crate::bus::EventMeta,
    pub payload: String,
    pub attempts: i32,
}

/// A page of the outbox for the relay ([`Store::pending_events`]).
///
/// Order per body: events are published in id (commit) order, and an event of a body waiting for its retry
/// holds back the body's later events that were not yet published. The exception of docs/contract.md
/// ("Ordering"): the relay publishes a batch while it waits for the confirms of the one before, so when the
/// broker refuses an event (unroutable, nacked), later events of the same body that went out with the next
/// batch arrive before its retry; consumers that need strict order order by `time` and deduplicate by `id`.
#[derive(Debug, Default)]
pub struct Pending {
    pub events: Vec<PendingEvent>,
    /// The page was full: there may be more due at once.
    pub full: bool,
    /// When the page was not full: the earliest time an event waiting for its retry falls due.
    pub next_retry: Option<DateTime<Utc>>,
}

/// The relay lock: a connection of its own holding the session advisory lock [`super::locks::RELAY`]. Only
/// its holder publishes, so no other replica interleaves its publishing (the order per body of [`Pending`]);
/// closing it releases the lock.
pub struct RelayLock(PgConnection);

impl RelayLock {
    /// Release the lock (by closing its connection) for another replica.
    pub async fn release(self) {
        let _ = self.0.close().await;
    }
}

impl Store {
    /// Take the relay lock if no other replica holds it.
    pub async fn try_relay_lock(&self) -> Result<Option<RelayLock>, StoreError> {
        let mut c = self.pool.acquire().await?.detach();
        let locked: bool =
            sqlx::query_scalar("SELECT pg_try_advisory_lock($1)").bind(super::locks::RELAY).fetch_one(&mut c).await?;
        if !locked {
            let _ = c.close().await;
            return Ok(None);
        }
        // Marking events published is committed without waiting for the WAL flush: a mark lost in a crash of
        // the database server means the events are published again after the restart, with the same ids —
        // as after a crash between a broker confirm and the mark, which at-least-once delivery allows
        // (docs/contract.md). The connection is the relay's own; the setting ends with it.
        sqlx::query("SET synchronous_commit = off").execute(&mut c).await?;
        Ok(Some(RelayLock(c)))
    }

    /// The events due for publishing, in id order (oldest first), at most `limit`, chosen in SQL: unpublished,
    /// not `in_flight` (published, confirms outstanding), not waiting for the retry after a failed attempt,
    /// and not behind an event of the same body that waits for its retry (so a council's events are not
    /// overtaken by its own later ones on the next page; see [`Pending`] for the one exception
    /// docs/contract.md names). Events of
    /// bodies in backoff never fill the page, however many and however old they are: the later events of
    /// other bodies are read past them. Also returns whether the page was full (there may be more) and,
    /// when it was not, the earliest time an event waiting for its retry falls due.
    pub async fn pending_events(
        RelayLock(conn): &mut RelayLock,
        limit: i64,
        now: DateTime<Utc>,
        in_flight: &[i64],
    ) -> Result<Pending, StoreError> {
        let rows = sqlx::query(
            // per body (`''` for events without one), the first unpublished event waiting for its retry: it
            // and everything after it waits. Only an event that failed waits (`attempts > 0`), so the few
            // waiting rows come from their own index (migration 12), not from a read of every unpublished row
            // on each page. The event is `json` text: one json_to_record parses it once for the three fields
            // (each ->> would parse it again)
            "WITH waiting AS (
                 SELECT coalesce(body_id, '') AS body, min(id) AS first FROM outbox
                 WHERE published_at IS NULL AND attempts > 0 AND next_attempt_at > $3 GROUP BY 1)
             SELECT o.id, o.body_id, o.type, o.event::text AS event, o.attempts, o.event_id, m.time,
                    m.traceparent, m.tracestate
             FROM outbox o
                  LEFT JOIN waiting w ON w.body = coalesce(o.body_id, ''),
                  json_to_record(o.event) AS m(time text, traceparent text, tracestate text)
             WHERE o.published_at IS NULL AND o.id <> ALL($2) AND (w.first IS NULL OR o.id < w.first)
             ORDER BY o.id LIMIT $1",
        )
        .bind(limit)
        .bind(in_flight)
        .bind(now)
        .fetch_all(&mut *conn)
        .await?;
        let full = rows.len() as i64 >= limit;
        let mut events = Vec::with_capacity(rows.len());
        for r in rows {
            let time: Option<String> = r.try_get("time")?;
            let meta = crate::bus::EventMeta {
                id: r.try_get("event_id")?,
                ty: r.try_get("type")?,
                time: time.and_then(|t| DateTime::parse_from_rfc3339(&t).ok()).map(|t| t.with_timezone(&Utc)),
                traceparent: r.try_get("traceparent")?,
                tracestate: r.try_get("tracestate")?,
            };
            let (id, body_id, payload, attempts) =
                (r.try_get("id")?, r.try_get("body_id")?, r.try_get("event")?, r.try_get("attempts")?);
            events.push(PendingEvent { id, body_id, meta, payload, attempts });
        }
        let next_retry = if full {
            None
        } else {
            sqlx::query_scalar(
                "SELECT min(next_attempt_at) FROM outbox
                 WHERE published_at IS NULL AND attempts > 0 AND next_attempt_at > $1",
            )
            .bind(now)
            .fetch_one(&mut *conn)
            .await?
        };
        Ok(Pending { events, full, next_retry })
    }

    pub async fn mark_published(
        RelayLock(conn): &mut RelayLock,
        ids: &[i64],
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET published_at = $2 WHERE id = ANY($1)")
            .bind(ids)
            .bind(now)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    pub async fn mark_publish_failed(
        RelayLock(conn): &mut RelayLock,
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
        let row = sqlx::query("SELECT count(*) AS n, min(created_at) AS oldest FROM outbox WHERE published_at IS NULL")
            .fetch_one(&self.pool)
            .await?;
        let n: i64 = row.try_get("n")?;
        let oldest: Option<DateTime<Utc>> = row.try_get("oldest")?;
        Ok((n, oldest.map(|t| (now - t).num_milliseconds() as f64 / 1000.0).unwrap_or(0.0)))
    }
}
