-- A version of each body's stored state that cannot repeat (issue 26 point 6; docs/reliability.md,
-- "Failover and restore"). The aggregate cache and the optimistic write compared only `audit_seq`, which
-- repeats after a failover to an asynchronous standby, a point-in-time restore, or a repair that rewrites
-- `state`: a replica could take its old aggregate as current and silently revert another replica's
-- commands. `state_version` is a random UUID written with every change of the row: the worker writes a
-- fresh one with every state it writes (src/store/writes.rs), and the trigger gives a fresh one to every
-- other update that leaves it unchanged (a rejection's audit entry, a migration, a manual repair). A
-- restore brings back the versions of its copy, which no replica has cached after the copy was taken.
ALTER TABLE bodies ADD COLUMN IF NOT EXISTS state_version uuid NOT NULL DEFAULT gen_random_uuid();

CREATE OR REPLACE FUNCTION nachfolge_state_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.state_version IS NOT DISTINCT FROM OLD.state_version THEN
        NEW.state_version := gen_random_uuid();
    END IF;
    RETURN NEW;
END
$$;

DROP TRIGGER IF EXISTS bodies_state_version ON bodies;
CREATE TRIGGER bodies_state_version BEFORE UPDATE ON bodies
    FOR EACH ROW EXECUTE FUNCTION nachfolge_state_version();
