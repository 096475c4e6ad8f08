-- nachfolge: compress large values with lz4 instead of pglz where the server supports it (PostgreSQL 14+
-- built with lz4, as Debian's and the official images are). Council aggregates are rewritten by every
-- command; pglz compression was the largest single cost on the database side. Only a speed-up: on a server
-- without lz4 the columns keep pglz and the migration still succeeds.
DO $$
BEGIN
    ALTER TABLE bodies ALTER COLUMN state SET COMPRESSION lz4;
    ALTER TABLE outbox ALTER COLUMN event SET COMPRESSION lz4;
    ALTER TABLE audit_log ALTER COLUMN payload SET COMPRESSION lz4;
    ALTER TABLE mail_outbox ALTER COLUMN text_body SET COMPRESSION lz4;
    ALTER TABLE mail_outbox ALTER COLUMN html_body SET COMPRESSION lz4;
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'lz4 compression not available (%), keeping the default', SQLERRM;
END
$$;
