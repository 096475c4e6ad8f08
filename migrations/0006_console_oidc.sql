-- Sign-in through an identity provider (OpenID Connect; docs/console.md "Sign-in through an identity
-- provider"). A session now has an origin: `local` (an account of console_users, its roles in
-- console_grants, as before) or `oidc` (login `oidc:<name>`, no row in console_users: its roles come from
-- the ID token's claim and are kept with the session). The foreign key to console_users gives way to that;
-- deleting an account deletes its local sessions itself (Store::delete_user).
ALTER TABLE console_sessions DROP CONSTRAINT IF EXISTS console_sessions_login_fkey;
ALTER TABLE console_sessions ADD COLUMN IF NOT EXISTS origin TEXT NOT NULL DEFAULT 'local'
    CHECK (origin IN ('local', 'oidc'));
-- the roles of an `oidc` session: [{"body": "...", "role": "..."}]; NULL for a local one
ALTER TABLE console_sessions ADD COLUMN IF NOT EXISTS grants JSONB;

-- A sign-in on its way to the provider and back: the browser holds a random token in a cookie, this
-- table its SHA-256 with the request's state, nonce and PKCE verifier. Taken (deleted) when the browser
-- comes back, whatever the outcome; rows past their end are removed as new sign-ins start.
CREATE TABLE IF NOT EXISTS console_oidc_sign_ins (
    flow_hash   BYTEA PRIMARY KEY,
    state       TEXT NOT NULL,
    nonce       TEXT NOT NULL,
    verifier    TEXT NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS console_oidc_sign_ins_expiry ON console_oidc_sign_ins(expires_at);
