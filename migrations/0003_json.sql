-- nachfolge: keep the council aggregate, the events and the audit payloads as `json` (the text as the worker
-- wrote it) instead of `jsonb`. The worker only ever writes these documents whole and reads them whole; jsonb
-- parsed every document into its binary form on the way in and printed it again on the way out, the largest
-- JSON cost on the database side. The json operators (->, ->>) still work for ad-hoc queries; events are now
-- published with their keys in the order the worker wrote them.
ALTER TABLE bodies ALTER COLUMN state TYPE json USING state::json;
ALTER TABLE outbox ALTER COLUMN event TYPE json USING event::json;
ALTER TABLE audit_log ALTER COLUMN payload TYPE json USING payload::json;
DO $$
BEGIN
    ALTER TABLE bodies ALTER COLUMN state SET COMPRESSION lz4;
    ALTER TABLE outbox ALTER COLUMN event SET COMPRESSION lz4;
    ALTER TABLE audit_log ALTER COLUMN payload SET COMPRESSION lz4;
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'lz4 compression not available (%), keeping the default', SQLERRM;
END
$$;
