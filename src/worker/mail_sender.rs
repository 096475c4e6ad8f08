//! The mail sender: sends the mail outbox over SMTP and reports each result through the core.

use super::*;

/// E-mails claimed per round of the mail sender; each result is recorded as soon as its mail is sent.
pub(super) const MAIL_BATCH: i64 = 10;

pub(super) async fn mail_loop(shared: Arc<Shared>, mailer: Mailer, mut shutdown: watch::Receiver<bool>) {
    let poll = shared.config.worker.poll_interval();
    // a claimed mail whose sender died is retried once its lease ran out
    let lease = shared.config.smtp.timeout() + Duration::from_secs(10);
    loop {
        if *shutdown.borrow() {
            break;
        }
        let now = shared.clock.now();
        let batch = match shared.store.claim_mails(MAIL_BATCH, now, lease).await {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!(error = %e, "claiming mails failed");
                Vec::new()
            }
        };
        // send one, record its result, send the next
        for m in &batch {
            let result = mailer.send(m).await;
            let now = shared.clock.now();
            let (cmd, step, outcome) = match result {
                SendResult::Sent => (
                    Command::NotificationSent {
                        case: m.case_id.clone(),
                        round: m.round as u32,
                        kind: m.kind,
                        message_id: m.message_id.clone(),
                        sent_at: now,
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
                    continue;
                }
            };
            let cause = Cause {
                key: format!("mail:{}", m.message_id),
                ty: if outcome == "sent" { "mail.sent".into() } else { "mail.failed".into() },
                payload: serde_json::json!({"message_id": m.message_id, "case": m.case_id, "round": m.round}),
                ..Cause::default()
            };
            // recorded at once: a crash between the server's `250` and this commit re-sends only this one
            let item = Item { cause, body_id: m.body_id.clone(), work: Work::Internal(cmd, step) };
            if let Some(Applied::Rejected(e)) = apply_items(&shared, std::slice::from_ref(&item)).await.pop() {
                tracing::error!(case = %m.case_id, error = %e, "mail result not applicable");
            }
            tracing::info!(case = %m.case_id, round = m.round, outcome, "mail processed");
            shared.metrics.inc_counter("nachfolge_mails_total", &[("outcome", outcome)], 1);
            shared.wake_relay.notify_one();
        }
        // a short batch took everything that was due: wait for a wake-up (one that came meanwhile is kept
        // as a permit) instead of asking the database again at once
        if (batch.len() as i64) < MAIL_BATCH {
            tokio::select! {
                _ = shared.wake_mail.notified() => {}
                _ = tokio::time::sleep(poll) => {}
                _ = stopped(&mut shutdown) => {}
            }
        }
    }
}
