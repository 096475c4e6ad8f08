-- The optimistic write (docs/architecture.md, "Optimistic write"): a batch whose bodies are all in the
-- worker's aggregate cache is written with one statement, without locking the rows first. The statement
-- commits only if every body row still has the sequence the cache holds, every inbound message is new
-- and every mail result is the first; otherwise it calls this function, which aborts the statement (and
-- with it the implicit transaction) with SQLSTATE NF409, and the worker runs the batch again on the
-- locking path.
CREATE OR REPLACE FUNCTION nachfolge_write_conflict() RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    RAISE EXCEPTION 'write conflict: a body changed, a message was seen or a mail result was recorded meanwhile'
        USING ERRCODE = 'NF409';
END
$$;
