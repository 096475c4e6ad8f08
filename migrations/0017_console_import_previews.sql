-- A previewed election result import of the console („Wahlergebnis übernehmen“, docs/console.md "Election
-- results"), kept for the user who uploaded it until it is confirmed (then deleted) or an hour has passed. In the
-- database, not in one worker's memory, so the three steps may reach any replica, and a restart keeps them.
-- `created_at` is the database's clock (the age of a preview does not depend on a replica's clock).
CREATE TABLE IF NOT EXISTS console_import_previews (
    token      TEXT PRIMARY KEY,
    login      TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    imported   JSONB NOT NULL,
    files      JSONB NOT NULL
);
CREATE INDEX IF NOT EXISTS console_import_previews_age ON console_import_previews (created_at);
