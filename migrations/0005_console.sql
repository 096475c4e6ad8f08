-- The Wahlleiter console (docs/console.md): local accounts with argon2id hashes, their roles per council,
-- server-side sessions and the sign-in throttle. Nothing here is read by the worker's command path.

-- A local account. `password` is a PHC string (argon2id); the login is the only name stored.
CREATE TABLE IF NOT EXISTS console_users (
    login       TEXT PRIMARY KEY,
    password    TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Roles per council: `wahlleiter` or `viewer` for one body; `admin` for every body (body_id '*').
CREATE TABLE IF NOT EXISTS console_grants (
    login       TEXT NOT NULL REFERENCES console_users(login) ON DELETE CASCADE,
    body_id     TEXT NOT NULL,
    role        TEXT NOT NULL CHECK (role IN ('wahlleiter', 'viewer', 'admin')),
    PRIMARY KEY (login, body_id)
);

-- Server-side sessions. The cookie holds a random token; only its SHA-256 is stored, so a copy of this
-- table signs nobody in. `csrf` is the session's token for every form (checked on every POST).
CREATE TABLE IF NOT EXISTS console_sessions (
    token_hash   BYTEA PRIMARY KEY,
    login        TEXT NOT NULL REFERENCES console_users(login) ON DELETE CASCADE,
    csrf         TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    last_seen_at TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS console_sessions_login ON console_sessions(login);
CREATE INDEX IF NOT EXISTS console_sessions_expiry ON console_sessions(expires_at);

-- Failed sign-ins per login name (`scope` 'login') and per client address ('address') in the current
-- window; a key is refused while `failures` has reached the limit and the window has not passed.
CREATE TABLE IF NOT EXISTS console_sign_in_failures (
    scope         TEXT NOT NULL,
    key           TEXT NOT NULL,
    failures      INT NOT NULL,
    window_start  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope, key)
);
