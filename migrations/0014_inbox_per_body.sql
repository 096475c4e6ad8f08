-- Inbound message ids are deduplicated per council (issue 26 point 10; docs/contract.md, "Message ids"):
-- with one global key, one council's Wahlleitung could find out whether an id had been used by another
-- council (a reused id is refused) or pre-empt another council's message by sending its id first. The key is
-- now (body, message id). A message that names no body (it could not be read) is kept under the body ''.
UPDATE inbox SET body_id = '' WHERE body_id IS NULL;
ALTER TABLE inbox ALTER COLUMN body_id SET DEFAULT '';
ALTER TABLE inbox ALTER COLUMN body_id SET NOT NULL;
ALTER TABLE inbox DROP CONSTRAINT IF EXISTS inbox_pkey;
ALTER TABLE inbox ADD PRIMARY KEY (body_id, message_id);
