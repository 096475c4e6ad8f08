//! Bodies and cases as stored: the aggregate JSON, the `cases` rows that mirror it, export.

use super::*;

impl Store {
    /// The current snapshot of a body with its cases (`nachfolge export`).
    pub async fn export(&self, body_id: &str) -> Result<Value, StoreError> {
        let state: Option<Value> = sqlx::query_scalar("SELECT state FROM bodies WHERE id = $1")
            .bind(body_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(state.unwrap_or(Value::Null))
    }

    /// Load a body without locking (reads only).
    pub async fn load_body(&self, body_id: &str) -> Result<Option<Council>, StoreError> {
        let state: Option<String> = sqlx::query_scalar("SELECT state::text FROM bodies WHERE id = $1")
            .bind(body_id)
            .fetch_optional(&self.pool)
            .await?;
        state.map(|s| decode_body(body_id, &s)).transpose()
    }

    /// How many aggregates the cache holds, and the length of their stored JSON.
    pub fn cache_stats(&self) -> (usize, usize) {
        self.cache.stats()
    }

    /// How many batches the optimistic write committed, and how many it handed to the locking path after
    /// trying (a body changed meanwhile, a message seen before, a refusal, a timer to cancel).
    pub fn optimistic_stats(&self) -> (u64, u64) {
        let OptimisticCounts { committed, fell_back } = &*self.optimistic;
        (committed.load(std::sync::atomic::Ordering::Relaxed), fell_back.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The cached aggregate of `body_id` with its audit sequence, serialised as it would be stored: equal
    /// to the row at that sequence (tests/batch.rs checks it).
    pub fn cached_state(&self, body_id: &str) -> Option<(i64, String)> {
        self.cache.encoded(body_id)
    }
}

pub(super) fn decode_body(body_id: &str, state: &str) -> Result<Council, StoreError> {
    // the snapshot is indexed as it is read (`Body`'s Deserialize)
    serde_json::from_str(state).map_err(|e| StoreError::Corrupt(body_id.to_owned(), e.to_string()))
}

pub(super) fn case_rows(body: &Council) -> HashMap<CaseId, CaseRow> {
    body.cases
        .values()
        .map(|c| {
            let deadline = match &c.state {
                case::CaseState::Offered(o) => o.deadline.as_ref().map(|d| d.ends_at),
                _ => None,
            };
            let row = CaseRow {
                state: c.state_name(),
                round: c.round as i32,
                successor: c.successor().map(str::to_owned),
                deadline,
            };
            (c.id.clone(), row)
        })
        .collect()
}

/// One succession case, for listings: ids, state, round and deadline only.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CaseListing {
    pub case: CaseId,
    pub body: BodyId,
    /// `awaiting_lot` | `offered` (open), `filled` | `vacant` (closed): [`case::Case::state_name`].
    pub state: String,
    pub round: i32,
    /// Candidate id of the current successor, if any.
    pub successor: Option<String>,
    /// End of the running period (the instant the last day ends), RFC 3339, Europe/Berlin offset.
    pub deadline: Option<String>,
    pub updated_at: String,
}

impl Store {
    /// The cases, optionally only open ones and only of one body, ordered by body and case number.
    pub async fn cases(&self, open_only: bool, body: Option<&str>) -> Result<Vec<CaseListing>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, body_id, state, round, successor, deadline, updated_at FROM cases
             WHERE (NOT $1 OR state = ANY($2)) AND ($3::text IS NULL OR body_id = $3)
             ORDER BY body_id, length(id), id",
        )
        .bind(open_only)
        .bind(case::Case::OPEN_STATES)
        .bind(body)
        .fetch_all(&self.pool)
        .await?;
        let time = |t: DateTime<Utc>| crate::calendar::berlin(t).to_rfc3339_opts(chrono::SecondsFormat::Secs, false);
        rows.into_iter()
            .map(|r| {
                Ok(CaseListing {
                    case: r.try_get::<String, _>("id")?.into(),
                    body: r.try_get::<String, _>("body_id")?.into(),
                    state: r.try_get("state")?,
                    round: r.try_get("round")?,
                    successor: r.try_get("successor")?,
                    deadline: r.try_get::<Option<DateTime<Utc>>, _>("deadline")?.map(time),
                    updated_at: time(r.try_get("updated_at")?),
                })
            })
            .collect()
    }
}
