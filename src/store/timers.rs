//! Durable timers: claimed with a lease when due; the next due time; counts for the metrics.

use super::*;

/// A due timer.
#[derive(Debug, Clone)]
pub struct DueTimer {
    /// The stored key ([`case::Timer::key`]), which the firing marks.
    pub key: String,
    pub body_id: BodyId,
    pub timer: case::Timer,
    pub due_at: DateTime<Utc>,
    /// How often firing it failed without writing anything (migration 0010).
    pub attempts: i32,
}

impl Store {
    /// Claim due timers with a lease.
    pub async fn claim_timers(
        &self,
        limit: i64,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<Vec<DueTimer>, StoreError> {
        let claim = "UPDATE timers SET leased_until = $2 WHERE key IN (
                SELECT key FROM timers WHERE fired_at IS NULL AND failed_at IS NULL AND due_at <= $1 AND (leased_until IS NULL OR leased_until < $1)
                ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                AND (SELECT set_config('synchronous_commit', 'off', true)) = 'off'
             RETURNING key, body_id, case_id, kind, round, due_at, attempts";
        self.claim(claim, limit, now, lease)
            .await?
            .into_iter()
            .map(|r| {
                let (key, kind, case, round): (String, String, String, i32) =
                    (r.try_get("key")?, r.try_get("kind")?, r.try_get("case_id")?, r.try_get("round")?);
                let timer =
                    u32::try_from(round).ok().and_then(|n| case::Timer::from_parts(&kind, &case, n)).ok_or_else(
                        || StoreError::Corrupt(case.clone(), format!("timer {key}: kind {kind:?}, round {round}")),
                    )?;
                Ok(DueTimer {
                    key,
                    body_id: r.try_get::<String, _>("body_id")?.into(),
                    timer,
                    due_at: r.try_get("due_at")?,
                    attempts: r.try_get("attempts")?,
                })
            })
            .collect()
    }

    /// A timer's command could not be applied and nothing was written (an internal error, a panic): count
    /// the attempt and lease the timer until `retry_at`, or, from the `limit`-th attempt on, give it up
    /// (`failed_at`, `last_error`). `None` if the timer was fired meanwhile (the core refused the command,
    /// its step took effect); else whether it was given up.
    pub async fn timer_failed(
        &self,
        key: &str,
        error: &str,
        now: DateTime<Utc>,
        retry_at: DateTime<Utc>,
        limit: i32,
    ) -> Result<Option<bool>, StoreError> {
        let row = sqlx::query(
            "UPDATE timers SET attempts = attempts + 1, last_error = $2, leased_until = $4,
                 failed_at = CASE WHEN attempts + 1 >= $5 THEN $3 END
             WHERE key = $1 AND fired_at IS NULL AND failed_at IS NULL RETURNING failed_at IS NOT NULL AS gave_up",
        )
        .bind(key)
        .bind(error)
        .bind(now)
        .bind(retry_at)
        .bind(limit)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| r.try_get("gave_up")).transpose().map_err(StoreError::from)
    }

    /// When the next timer falls due after `now` (those due already are claimed or leased).
    pub async fn next_timer_due(&self, now: DateTime<Utc>) -> Result<Option<DateTime<Utc>>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT min(due_at) FROM timers WHERE fired_at IS NULL AND failed_at IS NULL AND due_at > $1",
        )
        .bind(now)
        .fetch_one(&self.pool)
        .await?)
    }

    /// Number of timers due now and pending.
    pub async fn timer_counts(&self, now: DateTime<Utc>) -> Result<(i64, i64), StoreError> {
        let row =
            sqlx::query("SELECT count(*) FILTER (WHERE due_at <= $1) AS due, count(*) AS pending FROM timers WHERE fired_at IS NULL AND failed_at IS NULL")
                .bind(now)
                .fetch_one(&self.pool)
                .await?;
        Ok((row.try_get("due")?, row.try_get("pending")?))
    }
}
