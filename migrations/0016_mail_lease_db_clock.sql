-- Mail leases on the database's clock (docs/reliability.md, "Each letter once"): a claimed mail is leased until
-- `leased_until`, reckoned with the server's clock_timestamp(), so a replica whose own clock steps ahead (NTP, a
-- resumed VM) or runs ahead of another's does not take a mail another replica is still sending.
-- `next_attempt_at` stays the retry schedule on the worker's clock (and is still set at the claim, so a replica of
-- the previous version keeps honouring the lease during a rolling deploy); a retry clears the lease.
ALTER TABLE mail_outbox ADD COLUMN IF NOT EXISTS leased_until TIMESTAMPTZ;
