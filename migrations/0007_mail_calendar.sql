-- The period notice (Fristmitteilung) to the successor after service carries the period as an RFC 5545
-- calendar entry (docs/contract.md, "E-mails"): the text of its `text/calendar; method=PUBLISH` attachment,
-- NULL for a mail without one. The mail's kind (`determination`, `not_acquired`, `period_notice`) tells the
-- mail sender which result the core records (only the determination's is `successor.notified`); rows
-- written before this migration get the kind their Message-ID names.
ALTER TABLE mail_outbox ADD COLUMN IF NOT EXISTS calendar TEXT;
ALTER TABLE mail_outbox ADD COLUMN IF NOT EXISTS kind TEXT NOT NULL DEFAULT 'determination';
UPDATE mail_outbox SET kind = 'not_acquired'
    WHERE kind = 'determination' AND message_id LIKE '%.not-acquired@nachfolge.invalid>';
