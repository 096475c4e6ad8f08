//! The mail outbox: e-mails written with the state, claimed by the mail sender with a lease, retried,
//! marked sent or failed for good.

use super::*;
use crate::procedure::MailKind;

/// A claimed e-mail to send.
#[derive(Debug, Clone)]
pub struct PendingMail {
    pub message_id: String,
    pub body_id: BodyId,
    pub case_id: CaseId,
    pub round: i32,
    pub recipient: Option<String>,
    pub reply_to: String,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    /// The RFC 5545 calendar to attach (the period notice), if any.
    pub calendar: Option<String>,
    /// What the mail is: its result goes to the core with it.
    pub kind: MailKind,
    pub attempts: i32,
    /// What the SMTP server said already, when its result could not be recorded before: `Some(Ok(at))`
    /// accepted at `at`, `Some(Err(reason))` refused for good. Such a mail is never sent again; only its
    /// result is recorded (migration 0010).
    pub smtp_done: Option<Result<DateTime<Utc>, String>>,
    /// How often recording the result failed before.
    pub record_attempts: i32,
}

/// What became of a mail result that could not be recorded ([`Store::mail_result_unrecorded`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unrecorded {
    /// Kept with the server's answer; recording is tried again at the time given.
    Retry,
    /// The limit is reached: the row is closed (`sent_at` or `failed_at`) without the procedure step.
    GaveUp,
    /// The result was recorded meanwhile (the core refused the command, its step took effect).
    Recorded,
}

impl Store {
    /// Claim due e-mails with a lease (several replicas may run the sender).
    pub async fn claim_mails(
        &self,
        limit: i64,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<Vec<PendingMail>, StoreError> {
        // due on the worker's clock (the retry schedule), free on the database's clock (the lease: a replica whose
        // clock steps or runs ahead does not take a mail another replica is still sending, migration 0016)
        let claim = "UPDATE mail_outbox SET next_attempt_at = $2, attempts = attempts + 1,
                 leased_until = clock_timestamp() + make_interval(secs => $4)
             WHERE message_id IN (
                SELECT message_id FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1
                  AND (leased_until IS NULL OR leased_until <= clock_timestamp())
                ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                AND (SELECT set_config('synchronous_commit', 'off', true)) = 'off'
             RETURNING message_id, body_id, case_id, round, recipient, reply_to, subject, text_body, html_body, calendar,
                 kind, attempts, smtp_done_at, smtp_failure, record_attempts";
        sqlx::query(claim)
            .bind(now)
            .bind(lease_end(now, lease))
            .bind(limit)
            .bind(lease.as_secs_f64())
            .fetch_all(&self.pool)
            .await?
            .into_iter()
            .map(|r| {
                Ok(PendingMail {
                    message_id: r.try_get("message_id")?,
                    body_id: r.try_get::<String, _>("body_id")?.into(),
                    case_id: r.try_get::<String, _>("case_id")?.into(),
                    round: r.try_get("round")?,
                    recipient: r.try_get("recipient")?,
                    reply_to: r.try_get("reply_to")?,
                    subject: r.try_get("subject")?,
                    text_body: r.try_get("text_body")?,
                    html_body: r.try_get("html_body")?,
                    calendar: r.try_get("calendar")?,
                    // a kind this build does not know (written by a newer one) is recorded as nothing but sent
                    kind: MailKind::from_name(r.try_get("kind")?).unwrap_or(MailKind::PeriodNotice),
                    attempts: r.try_get("attempts")?,
                    smtp_done: match (
                        r.try_get::<Option<DateTime<Utc>>, _>("smtp_done_at")?,
                        r.try_get("smtp_failure")?,
                    ) {
                        (None, _) => None,
                        (Some(_), Some(reason)) => Some(Err(reason)),
                        (Some(at), None) => Some(Ok(at)),
                    },
                    record_attempts: r.try_get("record_attempts")?,
                })
            })
            .collect()
    }

    /// The result of a mail the server answered could not be recorded through the core (nothing was
    /// written): keep the answer (`failure` `None`: accepted at `done_at`) so the mail is never sent again,
    /// count the attempt, and try again at `retry_at` — or, from the `limit`-th attempt on, close the row
    /// (`sent_at` or `failed_at`, `last_error` saying why) without the procedure step.
    pub async fn mail_result_unrecorded(
        &self,
        message_id: &str,
        done_at: DateTime<Utc>,
        failure: Option<&str>,
        error: &str,
        retry_at: DateTime<Utc>,
        limit: i32,
    ) -> Result<Unrecorded, StoreError> {
        let row = sqlx::query(
            "UPDATE mail_outbox SET smtp_done_at = coalesce(smtp_done_at, $2), smtp_failure = $3,
                 record_attempts = record_attempts + 1, next_attempt_at = $5, leased_until = NULL,
                 last_error = 'result not recorded: ' || $4,
                 sent_at = CASE WHEN record_attempts + 1 >= $6 AND $3::text IS NULL THEN coalesce(smtp_done_at, $2) END,
                 failed_at = CASE WHEN record_attempts + 1 >= $6 AND $3::text IS NOT NULL THEN coalesce(smtp_done_at, $2) END
             WHERE message_id = $1 AND sent_at IS NULL AND failed_at IS NULL
             RETURNING record_attempts",
        )
        .bind(message_id)
        .bind(done_at)
        .bind(failure)
        .bind(error)
        .bind(retry_at)
        .bind(limit)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            None => Unrecorded::Recorded,
            Some(r) if r.try_get::<i32, _>("record_attempts")? >= limit => Unrecorded::GaveUp,
            Some(_) => Unrecorded::Retry,
        })
    }

    /// Extend the lease of a mail in flight by `lease` from now on the database's clock (and its next attempt to
    /// `lease` after `now` on the worker's) while its SMTP session runs; nothing once its result is recorded.
    pub async fn renew_mail_lease(
        &self,
        message_id: &str,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE mail_outbox SET next_attempt_at = greatest(next_attempt_at, $2),
                 leased_until = greatest(leased_until, clock_timestamp() + make_interval(secs => $3))
             WHERE message_id = $1 AND sent_at IS NULL AND failed_at IS NULL
               AND (SELECT set_config('synchronous_commit', 'off', true)) = 'off'",
        )
        .bind(message_id)
        .bind(lease_end(now, lease))
        .bind(lease.as_secs_f64())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn mail_retry(&self, message_id: &str, error: &str, retry_at: DateTime<Utc>) -> Result<(), StoreError> {
        // the retry is due on the worker's clock: the lease ends with the attempt
        sqlx::query(
            "UPDATE mail_outbox SET last_error = $2, next_attempt_at = $3, leased_until = NULL WHERE message_id = $1",
        )
        .bind(message_id)
        .bind(error)
        .bind(retry_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

/// Mark a mail sent, or failed for good with `failure`; `false` if that was done before. (Fired timers
/// are marked for the whole batch with one statement.)
pub(super) async fn mark_mail(
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

/// The deterministic Message-ID of a case round's e-mail of a kind: the determination's is
/// `<case.r<round>@nachfolge.invalid>` (as it always was), any other kind adds its name
/// (`<case.r<round>.not-acquired@nachfolge.invalid>`) and its variant, if any
/// (`<case.r<round>.period-notice.20261203@nachfolge.invalid>`, the day of service), so two mails of one round
/// never share an id. The case and the variant are written as
/// [`id_token`](nachfolge_core::texts::ics::id_token)s (one to one, without dots): the first dot ends the
/// case, so two cases — of one council or of two — never share a Message-ID (a case id of letters, digits
/// and `-` keeps the id it always had).
pub fn mail_message_id(case: &str, round: u32, kind: MailKind, variant: Option<&str>) -> String {
    use nachfolge_core::texts::ics::id_token;
    let safe = id_token(case);
    let variant = variant.map(|v| format!(".{}", id_token(v))).unwrap_or_default();
    match kind {
        MailKind::Determination => format!("<{safe}.r{round}{variant}@nachfolge.invalid>"),
        other => format!("<{safe}.r{round}.{}{variant}@nachfolge.invalid>", other.as_str().replace('_', "-")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_id_of_the_determination_is_unchanged_other_kinds_differ() {
        assert_eq!(mail_message_id("rat-1", 2, MailKind::Determination, None), "<rat-1.r2@nachfolge.invalid>");
        assert_eq!(mail_message_id("r a/t", 1, MailKind::Determination, None), "<r=20a=2Ft.r1@nachfolge.invalid>");
        assert_eq!(
            mail_message_id("rat-1", 2, MailKind::NotAcquired, None),
            "<rat-1.r2.not-acquired@nachfolge.invalid>"
        );
        assert_eq!(
            mail_message_id("rat-1", 2, MailKind::PeriodNotice, Some("20261203")),
            "<rat-1.r2.period-notice.20261203@nachfolge.invalid>"
        );
    }

    /// Issue 26 point 4: the body ids `rat/1` and `rat 1` (cases `rat/1-1`, `rat 1-1`) both became `rat_1-1`
    /// before, and the second council's mail was dropped by `ON CONFLICT DO NOTHING`.
    #[test]
    fn bodies_whose_ids_differ_outside_the_plain_characters_get_different_message_ids() {
        let cases = ["rat/1-1", "rat 1-1", "rat_1-1", "rat.1-1", "rat-1-1", "rät-1-1"];
        for kind in [MailKind::Determination, MailKind::NotAcquired, MailKind::PeriodNotice] {
            let ids: std::collections::HashSet<String> =
                cases.iter().map(|c| mail_message_id(c, 1, kind, Some("20261203"))).collect();
            assert_eq!(ids.len(), cases.len(), "{ids:?}");
        }
        // a dot in the case cannot pose as the round: `c.r1` in round 5 is not `c` in round 1 with a variant
        assert_ne!(
            mail_message_id("c.r1", 5, MailKind::Determination, None),
            mail_message_id("c", 1, MailKind::Determination, Some("r5"))
        );
    }
}
