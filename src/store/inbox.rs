//! The inbox side of a refused message: it is recorded (inbox, audit log, `message.rejected`) so that a
//! redelivery is refused the same way.

use super::*;

impl Store {
    /// Record a refused message: inbox (so a redelivery is refused the same way), audit log of the body
    /// if it exists, and `message.rejected` in the outbox.
    pub async fn record_rejection(
        &self,
        cause: &Cause,
        body_id: Option<&str>,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        // the body first, then its rows (docs/architecture.md, "Lock order"): the batch locks the body
        // before it inserts the inbox row of the same message, so the reverse order here could deadlock
        let seq: Option<i64> = match body_id {
            Some(id) => {
                // the body's audit sequence, locked; the aggregate itself is not needed
                sqlx::query_scalar("SELECT audit_seq FROM bodies WHERE id = $1 FOR UPDATE")
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?
            }
            None => None,
        };
        let digest = digest(&cause.ty, &cause.payload);
        if !cause.key.is_empty() {
            sqlx::query(
                "INSERT INTO inbox (message_id, type, body_id, digest, outcome, reason) VALUES ($1, $2, $3, $4, 'rejected', $5)
                 ON CONFLICT (body_id, message_id) DO NOTHING",
            )
            .bind(&cause.key)
            .bind(&cause.ty)
            // a message that names no body is kept under the body '' (migration 0014)
            .bind(body_id.unwrap_or_default())
            .bind(&digest)
            .bind(reason)
            .execute(&mut *tx)
            .await?;
        }
        // One `message.rejected` per distinct message (id and data): a redelivery of the same bad message
        // publishes nothing new, a reused id with other data is reported on its own.
        let event = event_id(body_id.unwrap_or_default(), &format!("rejected:{}:{digest}", cause.key), 0);
        let seen: Option<String> = sqlx::query_scalar("SELECT event_id FROM outbox WHERE event_id = $1")
            .bind(&event)
            .fetch_optional(&mut *tx)
            .await?;
        if seen.is_some() {
            tx.rollback().await?;
            return Ok(());
        }
        if let (Some(id), Some(mut seq)) = (body_id, seq) {
            let mut audit = AuditCols::default();
            let mut payload = json!({"message": cause.payload, "reason": reason});
            if let Some(login) = &cause.recorded_by {
                payload["recorded_by"] = json!(login);
            }
            let payload = payload.to_string();
            audit.push(id, &mut seq, now, Entry { kind: "rejected", ty: &cause.ty, id: Some(&cause.key), payload });
            insert_audit(&mut tx, audit).await?;
            sqlx::query("UPDATE bodies SET audit_seq = $2 WHERE id = $1").bind(id).bind(seq).execute(&mut *tx).await?;
        }
        let data = crate::messages::MessageRejected {
            message_id: (!cause.key.is_empty()).then(|| cause.key.clone()),
            ty: (!cause.ty.is_empty()).then(|| cause.ty.clone()),
            reason: reason.to_owned(),
        };
        let ty = <crate::messages::MessageRejected as crate::messages::Event>::TYPE;
        let data = encode(ty, &data)?;
        insert_event(&mut tx, outbox_row(&event, body_id, ty, &data.to_string(), now, cause)?, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Forget that the message `message_id` to the body `body_id` (`""`: a message that names no body) was
    /// refused (before it is redriven), so that it is judged afresh. Another council's message of the same
    /// id is not touched.
    pub async fn forget_rejection(&self, body_id: &str, message_id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM inbox WHERE body_id = $1 AND message_id = $2 AND outcome = 'rejected'")
            .bind(body_id)
            .bind(message_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
