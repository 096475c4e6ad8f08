-- Bounded re-sends (issue 26, point 1; docs/reliability.md). A mail the SMTP server accepted (or refused
-- for good) whose result cannot be recorded through the core (an aggregate this replica cannot read during a
-- rolling deploy, an internal error, a panic) keeps what the server said: `smtp_done_at` (when) and
-- `smtp_failure` (NULL: accepted; else the permanent refusal). The mail sender then never sends it again: it
-- only tries to record the result, `record_attempts` times with a growing backoff, and gives up with an
-- alert after the limit (the row is closed with `sent_at` or `failed_at` and `last_error`).
ALTER TABLE mail_outbox ADD COLUMN IF NOT EXISTS smtp_done_at TIMESTAMPTZ;
ALTER TABLE mail_outbox ADD COLUMN IF NOT EXISTS smtp_failure TEXT;
ALTER TABLE mail_outbox ADD COLUMN IF NOT EXISTS record_attempts INT NOT NULL DEFAULT 0;
-- The same for a timer whose command fails without writing anything: counted, retried with a backoff
-- (the lease), and after the limit given up (`failed_at`, `last_error`) with an alert instead of being
-- claimed again every minute for ever.
ALTER TABLE timers ADD COLUMN IF NOT EXISTS attempts INT NOT NULL DEFAULT 0;
ALTER TABLE timers ADD COLUMN IF NOT EXISTS failed_at TIMESTAMPTZ;
ALTER TABLE timers ADD COLUMN IF NOT EXISTS last_error TEXT;
