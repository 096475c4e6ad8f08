//! Group commit: one transaction locks the bodies of a batch, runs the core on each command, and writes
//! everything through [`super::writes::Writes`].

use super::*;

impl Store {
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
        // a message id seen twice for one body ends a chunk: the second is judged against what the first
        // left behind (the same id for two bodies is two messages: the inbox key is the pair)
        let mut from = 0;
        while from < items.len() {
            let mut seen = std::collections::HashSet::new();
            let mut to = from;
            while to < items.len() && seen.insert((items[to].body_id.as_str(), items[to].cause.key.as_str())) {
                to += 1;
            }
            let chunk = &items[from..to];
            match self.try_unlocked(chunk, now, settings, templates).await? {
                Some(true) => {
                    self.optimistic.committed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    outcomes.extend(chunk.iter().map(|_| Applied::Applied));
                    from = to;
                    continue;
                }
                Some(false) => {
                    self.optimistic.fell_back.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                None => {}
            }
            let mut refused: Vec<Option<Applied>> = vec![None; chunk.len()];
            // each pass either commits or takes out at least one more command
            while !self.try_batch(chunk, &mut refused, now, settings, templates).await? {}
            outcomes.extend(refused.into_iter().map(|o| o.unwrap_or(Applied::Applied)));
            from = to;
        }
        Ok(outcomes)
    }

    /// The optimistic pass (docs/architecture.md, "Optimistic write"): when every command is inbound or a
    /// mail's result and all name one body, which is in the aggregate cache, the core runs on the cached
    /// aggregate and [`Writes::flush_unlocked`] writes everything with one statement — one round trip
    /// instead of `BEGIN`, the locking query, the write and `COMMIT`. It commits only if nothing changed
    /// meanwhile: every body row still at the cached sequence, every message new, every mail result the
    /// first. `Ok(Some(true))`: committed. `Ok(None)` (not eligible) or `Ok(Some(false))` (a command
    /// refused, a timer to cancel, or a condition failed): nothing was written and the batch takes the
    /// locking path ([`Store::try_batch`]), which judges duplicates and refusals; the body taken out of the
    /// cache is dropped then (the core may have changed it), and the locking path reads it from the
    /// database.
    async fn try_unlocked(
        &self,
        items: &[Item],
        now: DateTime<Utc>,
        settings: &Settings,
        templates: &Templates,
    ) -> Result<Option<bool>, StoreError> {
        let eligible = |it: &Item| {
            matches!(it.work, Work::Inbound(_) | Work::Internal(_, Step::MailSent { .. } | Step::MailFailed { .. }))
        };
        let Some(first) = items.first() else { return Ok(None) };
        if !items.iter().all(eligible) {
            return Ok(None);
        }
        // one body only: a batch of many (a lane under load) holds them all out of the cache while the core
        // runs, and a conflict on any one discards the work and the aggregates of all (measured slower at
        // prefetch 100, docs/performance.md); the locking path serves such batches
        let id = first.body_id.as_str();
        if items.iter().any(|it| it.body_id.as_str() != id) {
            return Ok(None);
        }
        let Some((expected, expected_version, super::cache::Hit { body: mut council, mut memo, .. })) =
            self.cache.take_latest(id)
        else {
            return Ok(None);
        };
        let before = case_rows(&council);
        let mut seq = expected;
        let mut writes = Writes::new(now);
        let mut mails = MailResults::default();
        for item in items {
            let cmd = match &item.work {
                Work::Inbound(cmd) => cmd,
                Work::Internal(cmd, Step::MailSent { message_id }) => {
                    mails.sent.push(message_id.clone());
                    cmd
                }
                Work::Internal(cmd, Step::MailFailed { message_id, reason }) => {
                    mails.failed.push(message_id.clone());
                    mails.reasons.push(reason.clone());
                    cmd
                }
                Work::Internal(_, Step::TimerFired { .. }) | Work::Register(_) => return Ok(Some(false)),
            };
            let Ok(effects) = case::handle(&mut council, cmd.clone(), now, settings) else { return Ok(Some(false)) };
            if effects.iter().any(|e| matches!(e, Effect::Cancel { .. })) {
                return Ok(Some(false));
            }
            writes.command(None, (&council, &mut seq), &item.cause, effects, templates, None).await?;
            if let Work::Inbound(_) = item.work {
                writes.applied(&item.cause, &item.body_id, digest(&item.cause.ty, &item.cause.payload));
            }
        }
        let (size, version) = writes.body(&council, &before, seq, &mut memo)?;
        if !writes.flush_unlocked(&self.pool, vec![expected], vec![expected_version], mails).await? {
            return Ok(Some(false));
        }
        self.cache.put(id.to_owned(), seq, version, super::cache::Hit { body: council, size, memo });
        Ok(Some(true))
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
        // the bodies first, then their rows (docs/architecture.md, "Lock order"): lock every body a command
        // still to run names — also one whose bookkeeping step turns out done below — before any of its
        // mails or timers, so this batch holds none of a body's rows while it waits for the body
        let candidates: Vec<&Item> =
            items.iter().zip(outcomes.iter()).filter(|(_, o)| o.is_none()).map(|(it, _)| it).collect();
        let mut wanted: Vec<&str> = candidates.iter().map(|it| it.body_id.as_str()).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mut new: Vec<&str> =
            candidates.iter().filter(|it| matches!(it.work, Work::Register(_))).map(|it| it.body_id.as_str()).collect();
        new.sort_unstable();
        new.dedup();
        // inbox: messages seen before, read with the locks (one round trip); a duplicate committed by
        // another replica while this one waited for a lock is caught by the inbox insert at the end
        let keys: Vec<(&str, &str)> = candidates
            .iter()
            .filter(|it| !matches!(it.work, Work::Internal(..)))
            .map(|it| (it.body_id.as_str(), it.cause.key.as_str()))
            .collect();
        let (mut bodies, known) = lock_bodies(&mut tx, &self.cache, &wanted, &new, &keys).await?;
        // bookkeeping steps: a step done before (another replica, a lease that ran out) means the command
        // was applied already
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
        // internal command's step still takes effect); the loop below skips the others
        let mut writes = Writes::new(now);
        for (i, item) in items.iter().enumerate() {
            if outcomes[i].is_some() {
                continue;
            }
            let internal = matches!(item.work, Work::Internal(..));
            // inbound only: what the inbox keeps to tell a duplicate from a reused id
            let digest = (!internal).then(|| digest(&item.cause.ty, &item.cause.payload));
            if let Some(digest) = &digest {
                let key = (item.body_id.as_str().to_owned(), item.cause.key.clone());
                if let Some(Seen { digest: d, outcome, reason }) = known.get(&key) {
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
                    writes
                        .command(Some(&mut tx), (body, &mut slot.seq), &item.cause, effects, templates, fired)
                        .await?;
                    if let Some(digest) = digest {
                        writes.applied(&item.cause, &item.body_id, digest);
                    }
                }
                Err(rejection) => {
                    // the body may be half-changed: run the pass again without this command
                    outcomes[i] = Some(match rejection {
                        Rejection::Unknown(r) if !internal => Applied::Unknown(r),
                        Rejection::Unknown(r) | Rejection::Invalid(r) => Applied::Rejected(r),
                        Rejection::Internal(r) => Applied::Rejected(format!(
                            "internal error while processing this message (please report it): {r}"
                        )),
                    });
                    tx.rollback().await?;
                    return Ok(false);
                }
            }
        }
        for slot in bodies.values_mut() {
            if let (true, Some(body)) = (slot.dirty, slot.body.as_ref()) {
                (slot.size, slot.version) = writes.body(body, &slot.before, slot.seq, &mut slot.memo)?;
            }
        }
        let n = writes.inbound();
        if writes.flush(&mut tx).await? != n {
            // an id used at once for another body by another replica: judge again against the inbox
            tx.rollback().await?;
            return Ok(false);
        }
        tx.commit().await?;
        // committed: the bodies as they now stand in the database serve the next batch
        for (id, slot) in bodies {
            if let Some(body) = slot.body {
                let hit = super::cache::Hit { body, size: slot.size, memo: slot.memo };
                self.cache.put(id, slot.seq, slot.version, hit);
            }
        }
        Ok(true)
    }
}

/// A body locked by a batch: the aggregate (`None` if it does not exist yet), its audit sequence and state
/// version, and what the `cases` listing held before.
pub(super) struct Slot {
    body: Option<Council>,
    seq: i64,
    /// The row's `state_version` (migration 0013) as read, or as this batch writes it.
    version: String,
    /// Length of the body's stored JSON (the aggregate cache's measure).
    size: usize,
    /// Its cases as last written (the aggregate cache's; empty after a decode).
    memo: super::cache::CaseMemo,
    before: HashMap<CaseId, CaseRow>,
    dirty: bool,
}

/// Lock the bodies `ids` for this transaction (rows in ascending id order, before any row that belongs to
/// a body: docs/architecture.md, "Lock order") and load the aggregates and their audit sequences, and what
/// the inbox holds of the messages `keys` (body, message id: deduplication is per body, migration 0014).
/// `registering` (a subset of `ids`) may not exist yet: their advisory locks are taken first, in
/// ascending key order. An aggregate the cache holds at the row's state version (and sequence) is taken
/// from the cache; the database sends the state only of the others, and a cached entry of another version
/// is dropped (docs/reliability.md, "Failover and restore").
pub(super) async fn lock_bodies(
    tx: &mut Transaction<'_, Postgres>,
    cache: &super::cache::Cache,
    ids: &[&str],
    registering: &[&str],
    keys: &[(&str, &str)],
) -> Result<(HashMap<String, Slot>, HashMap<(String, String), Seen>), StoreError> {
    let mut slots = HashMap::with_capacity(ids.len());
    let mut seen = HashMap::new();
    if ids.is_empty() {
        return Ok((slots, seen));
    }
    if !registering.is_empty() {
        let mut keys: Vec<i64> = registering.iter().map(|id| super::locks::body(id)).collect();
        keys.sort_unstable();
        keys.dedup();
        // a function scan yields the array in order: the locks are taken in ascending key order
        sqlx::query("SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k")
            .bind(&keys)
            .execute(&mut **tx)
            .await?;
    }
    let (cached_ids, cached_seqs, cached_versions) = cache.versions(ids);
    // the state of a row still at the cached version and sequence is not sent (`NULL`): the cache holds it.
    // The sequence alone repeats after a failover or a restore; the version does not (migration 0013)
    let rows = sqlx::query(
        "WITH b AS (SELECT id, audit_seq, state_version::text AS version,
                      CASE WHEN EXISTS (SELECT 1 FROM unnest($3::text[], $4::bigint[], $5::text[]) AS u(i, s, v)
                                        WHERE u.i = bodies.id AND u.s = bodies.audit_seq
                                          AND u.v::uuid = bodies.state_version)
                           THEN NULL ELSE state::text END AS state
                    FROM bodies WHERE id = ANY($1) ORDER BY id FOR UPDATE)
         SELECT true AS is_body, id, state, audit_seq, version, NULL AS outcome, NULL AS reason FROM b
         UNION ALL
         SELECT false, message_id, digest, NULL, body_id, outcome, reason FROM inbox
          WHERE (body_id, message_id) IN (SELECT * FROM unnest($6::text[], $2::text[]))",
    )
    .bind(ids)
    .bind(keys.iter().map(|k| k.1).collect::<Vec<_>>())
    .bind(&cached_ids)
    .bind(&cached_seqs)
    .bind(&cached_versions)
    .bind(keys.iter().map(|k| k.0).collect::<Vec<_>>())
    .fetch_all(&mut **tx)
    .await?;
    let sent: HashMap<&str, &str> =
        cached_ids.iter().map(String::as_str).zip(cached_versions.iter().map(String::as_str)).collect();
    for r in rows {
        let is_body: bool = r.try_get("is_body")?;
        let id: String = r.try_get("id")?;
        // `state` holds a body's aggregate (`NULL`: cached), or the digest of a message the inbox has seen
        let state: Option<String> = r.try_get("state")?;
        if is_body {
            let seq: i64 = r.try_get("audit_seq")?;
            let version: String = r.try_get::<Option<String>, _>("version")?.unwrap_or_default();
            let decoded = |state: &str| -> Result<super::cache::Hit, StoreError> {
                Ok(super::cache::Hit { body: decode_body(&id, state)?, size: state.len(), memo: HashMap::new() })
            };
            let hit = match state {
                Some(state) => {
                    if let Some(stale) = sent.get(id.as_str()) {
                        // the database holds another state than the cached one: that entry is dead
                        cache.discard(&id, stale);
                    }
                    decoded(&state)?
                }
                None => match cache.take(&id, seq, &version) {
                    Some(hit) => hit,
                    None => {
                        // evicted since the query was sent: read it under the lock just taken
                        let state: String = sqlx::query_scalar("SELECT state::text FROM bodies WHERE id = $1")
                            .bind(&id)
                            .fetch_one(&mut **tx)
                            .await?;
                        decoded(&state)?
                    }
                },
            };
            let before = case_rows(&hit.body);
            let slot =
                Slot { body: Some(hit.body), seq, version, size: hit.size, memo: hit.memo, before, dirty: false };
            slots.insert(id, slot);
        } else {
            let digest = state.unwrap_or_default();
            // for an inbox row the `version` column carries its body
            let body: String = r.try_get::<Option<String>, _>("version")?.unwrap_or_default();
            seen.insert((body, id), Seen { digest, outcome: r.try_get("outcome")?, reason: r.try_get("reason")? });
        }
    }
    for id in ids {
        slots.entry((*id).to_owned()).or_insert_with(|| Slot {
            body: None,
            seq: 0,
            version: String::new(),
            size: 0,
            memo: HashMap::new(),
            before: HashMap::new(),
            dirty: false,
        });
    }
    Ok((slots, seen))
}
