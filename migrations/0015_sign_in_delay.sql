-- Sign-in throttle with growing delays (issue 26 point 8, docs/security.md "Sign-in throttle"): a key's
-- count is forgotten after a window without an attempt, and beyond the free attempts the next one is
-- allowed only a growing delay after the last counted one — both measured from the last counted attempt.
ALTER TABLE console_sign_in_failures ADD COLUMN IF NOT EXISTS last_at TIMESTAMPTZ;
UPDATE console_sign_in_failures SET last_at = window_start WHERE last_at IS NULL;
ALTER TABLE console_sign_in_failures ALTER COLUMN last_at SET NOT NULL;
