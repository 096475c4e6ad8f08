//! Inbound: the consumer and its lanes. Each delivery is parsed, routed to a lane by body id (one lane
//! processes one body's messages in arrival order), applied in batches and acked after the commit; refused
//! messages are dead-lettered with `x-rejection-reason` and recorded.

use super::*;

pub(super) async fn consume_loop(shared: Arc<Shared>, shutdown: watch::Receiver<bool>) {
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
pub(super) struct Job {
    delivery: Delivery,
}

pub(super) async fn consume_session(shared: &Arc<Shared>, mut shutdown: watch::Receiver<bool>) -> anyhow::Result<()> {
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
pub(super) fn lane_of(d: &Delivery, lanes: usize) -> usize {
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

/// Record the 32-hex trace id of the message's `traceparent` on the current delivery span.
pub(super) fn record_trace_id(traceparent: Option<&str>) {
    if let Some(id) = traceparent.and_then(bus::trace_id) {
        tracing::Span::current().record("trace_id", id);
    }
}

/// A parsed delivery on its way through a batch (its [`Item`] travels beside it, in the batch's list).
pub(super) struct Parsed {
    delivery: Delivery,
    span: tracing::Span,
    label: String,
}

/// Parse a batch of deliveries, refuse the bad ones, apply the rest in one transaction and settle each
/// delivery: ack, dead-letter, or requeue later.
pub(super) async fn handle_deliveries(shared: &Arc<Shared>, dlx: &Channel, jobs: Vec<Job>) {
    let start = Instant::now();
    let mut parsed = Vec::with_capacity(jobs.len());
    // the items apart from the deliveries, so the batch borrows them instead of copying each snapshot
    let mut items: Vec<Item> = Vec::with_capacity(jobs.len());
    for job in jobs {
        // every log line of this delivery carries the trace id (recorded once parsed); with trace export
        // the span is exported as the child of the inbound `traceparent` (`telemetry::continue_trace`)
        let span = tracing::info_span!("message", trace_id = tracing::field::Empty, otel.kind = tracing::field::Empty);
        let d = job.delivery;
        match span.in_scope(|| parse_delivery(shared, &d)) {
            Ok((label, item)) => {
                parsed.push(Parsed { delivery: d, span, label });
                items.push(item);
            }
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
    let outcomes = apply_items(shared, &items).await;
    let wake = outcomes.contains(&Applied::Applied);
    // settle the batch's deliveries together: each ack waits for the connection's I/O loop
    let settled = parsed.into_iter().zip(&items).zip(outcomes).map(|((p, item), outcome)| {
        let (label, span) = (p.label.clone(), p.span.clone());
        async move {
            let result = tracing::Instrument::instrument(settle(shared, dlx, p, item, outcome), span).await;
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

pub(super) fn count_message(shared: &Shared, label: &str, outcome: &str, start: Instant) {
    shared.metrics.inc_counter("nachfolge_messages_total", &[("type", label), ("outcome", outcome)], 1);
    shared.metrics.observe_since("nachfolge_handler_seconds", &[("type", label)], start);
}

/// A refused delivery: metric label, cause, body (if known) and reason.
type Refused = Box<(String, Cause, Option<String>, String)>;

/// Parse a delivery into a batch item, or say why it is refused.
pub(super) fn parse_delivery(shared: &Shared, d: &Delivery) -> Result<(String, Item), Refused> {
    let max = shared.config.worker.max_message_bytes;
    let env = match bus::parse_envelope(&d.data, &d.properties, max) {
        Ok(env) => env,
        Err(e) => {
            let inbound = bus::header_text(&d.properties, "traceparent").and_then(|t| bus::valid_traceparent(&t));
            let (traceparent, tracestate) = crate::telemetry::continue_trace(inbound, None);
            let cause = Cause {
                key: e.id.clone().unwrap_or_default(),
                ty: e.ty.clone().unwrap_or_default(),
                // identifies the raw message, so each distinct bad message is reported once
                payload: serde_json::json!({"invalid": true, "bytes": d.data.len(),
                    "digest": uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, &d.data).to_string()}),
                traceparent,
                tracestate,
                recorded_by: None,
            };
            record_trace_id(cause.traceparent.as_deref());
            return Err(Box::new(("invalid".to_owned(), cause, None, e.reason)));
        }
    };
    // the events carry the worker span's context with trace export, else the inbound one
    let (traceparent, tracestate) = crate::telemetry::continue_trace(env.traceparent.clone(), env.tracestate.clone());
    let cause = Cause {
        key: env.id.clone(),
        ty: env.ty.clone(),
        payload: env.data.clone(),
        traceparent,
        tracestate,
        recorded_by: None,
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
            Ok((label, Item { cause, body_id: body_id.into(), work }))
        }
    }
}

/// Settle one delivery after its batch: ack, dead-letter, or requeue after a delay.
pub(super) async fn settle(
    shared: &Arc<Shared>,
    dlx: &Channel,
    p: Parsed,
    item: &Item,
    outcome: Applied,
) -> &'static str {
    let (d, cause, body_id) = (&p.delivery, &item.cause, &item.body_id);
    match outcome {
        Applied::Applied => {
            forget_unknown(shared, body_id, &cause.key);
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
            forget_unknown(shared, body_id, &cause.key);
            // record_rejection is idempotent; for an id reused with other data it records the new reason
            reject(shared, dlx, d, cause, Some(body_id), &reason).await;
            "rejected"
        }
        Applied::Unknown(reason) => {
            let first = {
                let mut map = shared.unknown_since.lock().unwrap_or_else(|p| p.into_inner());
                *map.entry((body_id.to_string(), cause.key.clone())).or_insert_with(Instant::now)
            };
            if first.elapsed() >= shared.config.worker.unknown_retry() {
                forget_unknown(shared, body_id, &cause.key);
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

pub(super) fn attempt_of(first: Instant) -> u32 {
    (first.elapsed().as_secs_f64().max(0.25) / 0.25).log2() as u32
}

/// Ends the retry window of message `key` to body `body` (windows are per council, as the inbox is).
pub(super) fn forget_unknown(shared: &Shared, body: &str, key: &str) {
    shared.unknown_since.lock().unwrap_or_else(|p| p.into_inner()).remove(&(body.to_owned(), key.to_owned()));
}

pub(super) async fn ack(d: &Delivery) {
    if let Err(e) = d.acker.ack(BasicAckOptions::default()).await {
        // the channel broke after commit: the message comes again and the inbox deduplicates it
        tracing::warn!(error = %e, "ack failed; the redelivery will be deduplicated");
    }
}

/// Record the refusal (inbox, audit, `message.rejected`), copy the message to the dead-letter exchange
/// with its reason, then ack it.
pub(super) async fn reject(
    shared: &Arc<Shared>,
    dlx: &Channel,
    d: &Delivery,
    cause: &Cause,
    body: Option<&str>,
    reason: &str,
) {
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
