//! The outbox relay: publishes the outbox in id order with publisher confirms, on the one replica that
//! holds the relay lock.

use super::*;

pub(super) async fn relay_loop(shared: Arc<Shared>, mut shutdown: watch::Receiver<bool>) {
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

pub(super) async fn relay_session(shared: &Arc<Shared>, mut shutdown: watch::Receiver<bool>) -> anyhow::Result<()> {
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
        // the earliest retry of an event in backoff, as the last page read told it
        let mut next_retry: Option<chrono::DateTime<chrono::Utc>> = None;
        loop {
            let stopping = *shutdown.borrow();
            more |= shared.wake_relay.notified().now_or_never().is_some();
            let ask = (more || stopping) && !last_batch_sent;
            let (full, retry) = relay_step(shared, &ch, &mut lock, &mut inflight, ask).await?;
            if ask {
                next_retry = retry;
            }
            if stopping {
                if last_batch_sent && inflight.is_none() {
                    break;
                }
                last_batch_sent = true;
                continue;
            }
            more = ask && full;
            if !more && inflight.is_none() {
                // sleep until the earliest retry of an event in backoff falls due (on the worker's clock), at
                // most one poll interval; never a hot loop over events that are not due
                let pause = next_retry
                    .map(|t| (t - shared.clock.now()).to_std().unwrap_or_default().min(poll))
                    .unwrap_or(poll)
                    .max(Duration::from_millis(1));
                tokio::select! {
                    // let the events of the next few commits join this round
                    _ = shared.wake_relay.notified() => tokio::time::sleep(linger).await,
                    _ = tokio::time::sleep(pause) => {}
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
pub(super) struct Inflight {
    batch: Vec<crate::store::PendingEvent>,
    confirms: Vec<lapin::PublisherConfirm>,
}

/// One step of the relay: publish the next batch (when `more`), then collect the confirms of the batch
/// before it and mark it — the database and the broker work at the same time. Returns whether the
/// outbox may hold more at once (the page read was full) and, if not, the earliest retry of an event in
/// backoff. Several replicas: only the holder of the relay lock (a session lock on a connection of its own)
/// publishes; the order per body and its one exception are those of [`crate::store::Pending`].
pub(super) async fn relay_step(
    shared: &Arc<Shared>,
    ch: &Channel,
    lock: &mut Option<RelayLock>,
    inflight: &mut Option<Inflight>,
    more: bool,
) -> anyhow::Result<(bool, Option<chrono::DateTime<chrono::Utc>>)> {
    if lock.is_none() {
        *lock = shared.store.try_relay_lock().await?;
    }
    let Some(db) = lock.as_mut() else { return Ok((false, None)) };
    let (mut next, mut full, mut retry) = (None, false, None);
    if more {
        let limit = i64::from(shared.config.worker.outbox_batch);
        let busy: Vec<i64> = inflight.iter().flat_map(|i| i.batch.iter().map(|e| e.id)).collect();
        let page = Store::pending_events(db, limit, shared.clock.now(), &busy).await?;
        let batch = page.events;
        (full, retry) = (page.full, page.next_retry);
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
    Ok((full, retry))
}

/// Collect a batch's confirms in order and mark the events published (or to be retried).
pub(super) async fn settle_batch(shared: &Arc<Shared>, db: &mut RelayLock, prev: Inflight) -> anyhow::Result<()> {
    let mut ok = Vec::new();
    let mut failed_bodies = std::collections::HashSet::new();
    for (ev, confirm) in prev.batch.iter().zip(prev.confirms) {
        let outcome: Published = confirm.await?.into();
        let key = ev.body_id.clone().unwrap_or_default();
        if outcome == Published::Confirmed && !failed_bodies.contains(&key) {
            ok.push(ev.id);
            continue;
        }
        // everything of this body after a failure in this batch is published again later, after it (the
        // events of the next batch, already sent, are the exception of `Pending`)
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
