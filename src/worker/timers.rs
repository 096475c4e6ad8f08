//! The timer loop: fires due deadlines (claimed with a lease), one council's in order, councils concurrently.

use super::*;
use crate::procedure::Timer;

/// Due timers claimed per round of the timer loop.
pub(super) const TIMER_CLAIM: i64 = 1000;

/// How often a timer whose command fails without writing anything is tried (with
/// [`super::mail_sender::record_backoff`], about four hours) before it is given up with an alert
/// (`nachfolge_timers_failed_total`, an error in the log); before, it was claimed again every minute for ever.
pub(crate) const TIMER_ATTEMPTS: i32 = 8;

pub(super) async fn timer_loop(shared: Arc<Shared>, mut shutdown: watch::Receiver<bool>) {
    let poll = shared.config.worker.poll_interval().min(Duration::from_millis(500));
    loop {
        if *shutdown.borrow() {
            break;
        }
        let fired = fire_due_timers(&shared).await;
        if fired == 0 {
            // sleep until the next deadline falls due, at most one poll interval (deadlines scheduled
            // meanwhile, here or by another replica, are seen at the next poll)
            let pause = match shared.store.next_timer_due(shared.clock.now()).await {
                Ok(Some(due)) => (due - shared.clock.now()).to_std().unwrap_or_default().min(poll),
                _ => poll,
            };
            tokio::select! {
                _ = tokio::time::sleep(pause.max(Duration::from_millis(1))) => {}
                _ = stopped(&mut shutdown) => {}
            }
        }
    }
}

/// Fire every due timer once; returns how many fired.
pub async fn fire_due_timers(shared: &Arc<Shared>) -> usize {
    let now = shared.clock.now();
    let due = match shared.store.claim_timers(TIMER_CLAIM, now, Duration::from_secs(60)).await {
        Ok(d) => d,
        Err(e) => {
            tracing::warn!(error = %e, "claiming timers failed");
            return 0;
        }
    };
    // one council's timers in order, in as few transactions as possible; different councils' timers
    // packed together up to the batch size; batches run concurrently, bounded so the consumer keeps
    // database connections
    let mut by_body: std::collections::BTreeMap<String, Vec<crate::store::DueTimer>> =
        std::collections::BTreeMap::new();
    for t in due {
        by_body.entry(t.body_id.clone().into()).or_default().push(t);
    }
    let batch_max = shared.config.worker.batch_max.max(1);
    let mut units: Vec<Vec<Vec<crate::store::DueTimer>>> = Vec::new();
    let mut packed: Vec<crate::store::DueTimer> = Vec::new();
    for (_, timers) in by_body {
        if timers.len() >= batch_max {
            units.push(timers.chunks(batch_max).map(<[_]>::to_vec).collect());
            continue;
        }
        if packed.len() + timers.len() > batch_max {
            units.push(vec![std::mem::take(&mut packed)]);
        }
        packed.extend(timers);
    }
    if !packed.is_empty() {
        units.push(vec![packed]);
    }
    let parallel = (shared.config.database.max_connections as usize / 2).clamp(1, 4);
    // tasks, not futures of this task: rendering and serialising use every core
    let permits = Arc::new(tokio::sync::Semaphore::new(parallel));
    let mut tasks = tokio::task::JoinSet::new();
    for unit in units {
        let Ok(permit) = permits.clone().acquire_owned().await else { break };
        let shared = shared.clone();
        tasks.spawn(async move {
            let _permit = permit;
            let mut fired = 0;
            for chunk in unit {
                fired += fire_timers(&shared, chunk).await;
            }
            fired
        });
    }
    let mut fired = 0;
    while let Some(n) = tasks.join_next().await {
        fired += n.unwrap_or(0);
    }
    if fired > 0 {
        shared.metrics.inc_counter("nachfolge_timers_fired_total", &[], fired as u64);
        shared.wake_relay.notify_one();
        shared.wake_mail.notify_one();
    }
    fired
}

/// Fire a batch of due timers in one transaction.
pub(super) async fn fire_timers(shared: &Arc<Shared>, timers: Vec<crate::store::DueTimer>) -> usize {
    let items: Vec<Item> = timers
        .iter()
        .map(|t| Item {
            cause: Cause {
                key: format!("timer:{}:{}", t.key, t.due_at.timestamp()),
                ty: match t.timer {
                    Timer::Deadline { .. } => "deadline.expired".into(),
                    Timer::Objection { .. } => "objection_period.ended".into(),
                },
                payload: serde_json::json!({"key": t.key, "case": t.timer.case(), "kind": t.timer.kind(), "round": t.timer.number(), "due_at": t.due_at}),
                ..Cause::default()
            },
            body_id: t.body_id.clone(),
            work: Work::Internal(
                t.timer.command(),
                Step::TimerFired { key: t.key.clone(), due_at: t.due_at },
            ),
        })
        .collect();
    let results = apply_items(shared, &items).await;
    let mut fired = 0;
    for (t, result) in timers.iter().zip(results) {
        match result {
            Applied::Rejected(e) => {
                // either the core refused the command and the timer is marked fired, or nothing was written:
                // then count it and try again after a backoff, up to a limit (issue 26 point 1)
                let now = shared.clock.now();
                let retry = now + super::mail_sender::record_backoff(t.attempts);
                match shared.store.timer_failed(&t.key, &e, now, retry, TIMER_ATTEMPTS).await {
                    Ok(None) => tracing::error!(case = %t.timer.case(), error = %e, "deadline not applicable"),
                    Ok(Some(false)) => {
                        tracing::warn!(case = %t.timer.case(), attempts = t.attempts + 1, error = %e, "deadline could not be applied; retried later")
                    }
                    Ok(Some(true)) => {
                        tracing::error!(case = %t.timer.case(), attempts = t.attempts + 1, error = %e, "deadline could not be applied; given up (alert)");
                        shared.metrics.inc_counter("nachfolge_timers_failed_total", &[], 1);
                    }
                    Err(err) => {
                        tracing::error!(case = %t.timer.case(), error = %err, "recording a failed deadline failed")
                    }
                }
            }
            _ => {
                fired += 1;
                let lag = (shared.clock.now() - t.due_at).num_milliseconds() as f64 / 1000.0;
                shared.metrics.observe("nachfolge_timer_lag_seconds", &[], lag.max(0.0));
                tracing::info!(case = %t.timer.case(), kind = t.timer.kind(), number = t.timer.number(), "timer fired");
            }
        }
    }
    if fired > 0 {
        shared.wake_relay.notify_one();
    }
    fired
}
