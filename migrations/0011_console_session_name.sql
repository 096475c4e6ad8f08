-- Issue 26, point 9: a session through the identity provider is recorded by the provider's stable
-- identifier, login `oidc:<sub>@<iss>`, and shown by its name claim (`console.oidc.login_claim`), kept
-- here. NULL for a local session (its login is shown). Sessions started before keep their old login
-- `oidc:<name>` until they end.
ALTER TABLE console_sessions ADD COLUMN IF NOT EXISTS name TEXT;
