-- The relay's rows in backoff (issue 26 point 5): an event waits for its retry only after a failed attempt
-- (`attempts > 0`), so the relay finds the waiting ones, and the earliest retry, through this small index
-- instead of reading every unpublished row on each page (src/store/outbox.rs, `pending_events`).
CREATE INDEX IF NOT EXISTS outbox_waiting ON outbox (next_attempt_at) WHERE published_at IS NULL AND attempts > 0;
