-- Timers say what they are (issue 13): `kind` beside the key, so the worker rebuilds the timer from
-- (kind, case_id, round) and never parses a key. `round` holds the kind's number: the round of a
-- `deadline`, the announcement of an `objection` period (whose rows had round 0 and the number only in
-- the key `{case}#objection#{n}`).
ALTER TABLE timers ADD COLUMN IF NOT EXISTS kind TEXT NOT NULL DEFAULT 'deadline';
UPDATE timers
   SET kind = 'objection',
       round = substr(key, length(case_id) + 12)::int
 WHERE left(key, length(case_id)) = case_id
   AND substr(key, length(case_id) + 1) ~ '^#objection#[0-9]+$';
ALTER TABLE timers ALTER COLUMN kind DROP DEFAULT;
