-- No mail is dropped silently (issue 26, point 4). The mail outbox is written with
-- `ON CONFLICT (message_id) DO NOTHING`: a command applied again queues the same mail again, and the
-- second row must be left out. A second row with the same Message-ID but another body, case, round or kind
-- is no repetition but a collision (two cases whose ids once mapped to the same Message-ID): this trigger
-- refuses it with SQLSTATE NFM01, which fails the whole write (the command is not applied, the error is
-- logged and the message dead-lettered) instead of leaving one council's mail out. The Message-IDs are
-- one to one since this version (`mail_message_id`), so the trigger guards against a bug, not a normal case.
CREATE OR REPLACE FUNCTION nachfolge_mail_id_collision() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM mail_outbox m WHERE m.message_id = NEW.message_id
               AND (m.body_id <> NEW.body_id OR m.case_id <> NEW.case_id OR m.round <> NEW.round
                    OR m.kind <> NEW.kind)) THEN
        RAISE EXCEPTION 'mail % is queued for another case already', NEW.message_id USING ERRCODE = 'NFM01';
    END IF;
    RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS mail_outbox_id_collision ON mail_outbox;
CREATE TRIGGER mail_outbox_id_collision BEFORE INSERT ON mail_outbox
    FOR EACH ROW EXECUTE FUNCTION nachfolge_mail_id_collision();
