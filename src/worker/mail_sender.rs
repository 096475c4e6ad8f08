//! The mail sender: sends the mail outbox over SMTP and reports each result through the core.

use super::*;
use std::collections::HashSet;

use crate::store::Unrecorded;

/// How often the result of a mail the server answered is tried to be recorded through the core before the
/// sender gives up (and alerts): with [`record_backoff`], about four hours — long enough for a rolling
/// deploy to end, so a replica of the new version records it.
pub(crate) const RECORD_ATTEMPTS: i32 = 8;

/// The pause before recording a mail result again: 1, 2, 4 … minutes, at most an hour.
pub(crate) fn record_backoff(attempts: i32) -> chrono::Duration {
    chrono::Duration::minutes(1i64 << attempts.clamp(0, 6))
}

/// Time a mail's lease reaches beyond one SMTP command's timeout: recording the result after the session.
const RECORD_MARGIN: Duration = Duration::from_secs(10);

/// Sends the mail outbox with bounded concurrency (`smtp.concurrency`): a mail is claimed only when a slot
/// is free and starts at once, with a lease of one command's timeout plus [`RECORD_MARGIN`] that is renewed
/// every half timeout while its session runs — so the lease covers exactly the mail in flight, however long
/// the server takes (up to `smtp.data_timeout_secs` for the answer to the data), and a mail whose replica
/// died is free again soon. One slow or hanging server answer holds one slot, not the queue.
pub(super) async fn mail_loop(shared: Arc<Shared>, mailer: Mailer, mut shutdown: watch::Receiver<bool>) {
    let poll = shared.config.worker.poll_interval();
    let slots = shared.config.smtp.concurrency.max(1) as usize;
    // a claimed mail whose sender died is retried once its lease ran out
    let lease = shared.config.smtp.timeout() + RECORD_MARGIN;
    let mailer = Arc::new(mailer);
    let mut running = tokio::task::JoinSet::new();
    // the Message-IDs this replica has in an SMTP session: a mail claimed again while its session still runs
    // (its lease, on the database's clock, ran out because a renewal came late) is not sent a second time in
    // parallel — the session's renewal keeps the new lease going and its result is recorded once
    let in_flight: Arc<Mutex<HashSet<String>>> = Arc::default();
    loop {
        if *shutdown.borrow() {
            break;
        }
        let free = slots.saturating_sub(running.len());
        let mut claimed = 0;
        if free > 0 {
            let now = shared.clock.now();
            let batch = match shared.store.claim_mails(free as i64, now, lease).await {
                Ok(b) => b,
                Err(e) => {
                    tracing::warn!(error = %e, "claiming mails failed");
                    Vec::new()
                }
            };
            claimed = batch.len();
            for m in batch {
                let Some(sending) = Sending::start(&in_flight, &m.message_id) else {
                    tracing::warn!(case = %m.case_id, "a mail still in its SMTP session was claimed again; not sent twice");
                    continue;
                };
                let (shared, mailer) = (shared.clone(), mailer.clone());
                running.spawn(async move {
                    let _sending = sending;
                    deliver(&shared, &mailer, &m, lease).await;
                });
            }
        }
        // every free slot got a mail: there may be more, ask again when a slot frees; otherwise everything
        // due is in flight — wait for a wake-up (one that came meanwhile is kept as a permit), a freed slot
        // or the poll interval
        if free > 0 && claimed == free {
            continue;
        }
        tokio::select! {
            Some(_) = running.join_next(), if !running.is_empty() => {}
            _ = shared.wake_mail.notified() => {}
            _ = tokio::time::sleep(poll) => {}
            _ = stopped(&mut shutdown) => {}
        }
    }
    // let the mails in flight finish and record their results (each bounded by its timeouts)
    while running.join_next().await.is_some() {}
}

/// A mail in this replica's SMTP session: its Message-ID leaves the set when the session's task ends, however
/// it ends (a panic included), so the mail can be claimed and sent again once its lease runs out.
struct Sending {
    set: Arc<Mutex<HashSet<String>>>,
    message_id: String,
}

impl Sending {
    /// The session of `message_id` starts, unless this replica has it running already.
    fn start(set: &Arc<Mutex<HashSet<String>>>, message_id: &str) -> Option<Sending> {
        let new = set.lock().unwrap_or_else(|p| p.into_inner()).insert(message_id.to_owned());
        new.then(|| Sending { set: set.clone(), message_id: message_id.to_owned() })
    }
}

impl Drop for Sending {
    fn drop(&mut self) {
        self.set.lock().unwrap_or_else(|p| p.into_inner()).remove(&self.message_id);
    }
}

/// Send one claimed mail (unless the server answered it before and only its result is missing) and record
/// the result through the core. A result that cannot be recorded (nothing was written: an aggregate this
/// replica cannot read, an internal error, a panic) keeps the server's answer in the row, so the mail is
/// never sent again; recording is tried [`RECORD_ATTEMPTS`] times with [`record_backoff`], then the row is
/// closed with an alert (`nachfolge_mail_results_unrecorded_total`, an error in the log).
async fn deliver(shared: &Arc<Shared>, mailer: &Mailer, m: &crate::store::PendingMail, lease: Duration) {
    let result = match &m.smtp_done {
        Some(Ok(_)) => SendResult::Sent,
        Some(Err(reason)) => SendResult::Permanent(reason.clone()),
        None => {
            // the lease is renewed while the session runs; it stops with the session
            let renew = async {
                let every = (shared.config.smtp.timeout() / 2).max(Duration::from_millis(500));
                loop {
                    tokio::time::sleep(every).await;
                    if let Err(e) = shared.store.renew_mail_lease(&m.message_id, shared.clock.now(), lease).await {
                        tracing::warn!(error = %e, "renewing a mail's lease failed");
                    }
                }
            };
            tokio::select! {
                r = mailer.send(m) => r,
                never = renew => never,
            }
        }
    };
    let now = shared.clock.now();
    let done_at = match &m.smtp_done {
        Some(Ok(at)) => *at,
        _ => now,
    };
    let (cmd, step, outcome) = match result {
        SendResult::Sent => (
            Command::NotificationSent {
                case: m.case_id.clone(),
                round: m.round as u32,
                kind: m.kind,
                message_id: m.message_id.clone(),
                sent_at: done_at,
            },
            Step::MailSent { message_id: m.message_id.clone() },
            "sent",
        ),
        SendResult::Permanent(reason) => (
            Command::NotificationFailed {
                case: m.case_id.clone(),
                round: m.round as u32,
                kind: m.kind,
                reason: reason.clone(),
            },
            Step::MailFailed { message_id: m.message_id.clone(), reason },
            "failed",
        ),
        SendResult::Transient(reason) => {
            tracing::warn!(case = %m.case_id, attempts = m.attempts, reason = %reason, "mail not sent, will retry");
            let retry = now + chrono::Duration::from_std(backoff(m.attempts as u32 + 4)).unwrap_or_default();
            if let Err(e) = shared.store.mail_retry(&m.message_id, &reason, retry).await {
                tracing::warn!(error = %e, "recording a mail retry failed");
            }
            shared.metrics.inc_counter("nachfolge_mails_total", &[("outcome", "retry")], 1);
            return;
        }
    };
    let failure = match &step {
        Step::MailFailed { reason, .. } => Some(reason.clone()),
        _ => None,
    };
    let cause = Cause {
        key: format!("mail:{}", m.message_id),
        ty: if outcome == "sent" { "mail.sent".into() } else { "mail.failed".into() },
        payload: serde_json::json!({"message_id": m.message_id, "case": m.case_id, "round": m.round}),
        ..Cause::default()
    };
    // recorded at once: a crash between the server's `250` and this commit re-sends only this one
    let item = Item { cause, body_id: m.body_id.clone(), work: Work::Internal(cmd, step) };
    if let Some(Applied::Rejected(e)) = apply_items(shared, std::slice::from_ref(&item)).await.pop() {
        // either the core refused the command and its step took effect (the row is closed), or nothing
        // was written: then keep the server's answer and try recording again later
        let retry = shared.clock.now() + record_backoff(m.record_attempts);
        match shared
            .store
            .mail_result_unrecorded(&m.message_id, done_at, failure.as_deref(), &e, retry, RECORD_ATTEMPTS)
            .await
        {
            Ok(Unrecorded::Recorded) => tracing::error!(case = %m.case_id, error = %e, "mail result not applicable"),
            Ok(Unrecorded::Retry) => {
                tracing::warn!(case = %m.case_id, attempts = m.record_attempts + 1, error = %e, "mail result not recorded; the mail is not sent again, recording is retried");
                shared.metrics.inc_counter("nachfolge_mails_total", &[("outcome", "unrecorded")], 1);
                return;
            }
            Ok(Unrecorded::GaveUp) => {
                tracing::error!(case = %m.case_id, attempts = m.record_attempts + 1, error = %e, "mail result could not be recorded; given up, the procedure does not know of this mail (alert)");
                shared.metrics.inc_counter("nachfolge_mail_results_unrecorded_total", &[("outcome", outcome)], 1);
                return;
            }
            Err(err) => {
                // nothing written at all: the lease runs out and the mail is sent again (same Message-ID)
                tracing::error!(case = %m.case_id, error = %err, "keeping an unrecorded mail result failed");
                return;
            }
        }
    }
    tracing::info!(case = %m.case_id, round = m.round, outcome, "mail processed");
    shared.metrics.inc_counter("nachfolge_mails_total", &[("outcome", outcome)], 1);
    shared.wake_relay.notify_one();
}
