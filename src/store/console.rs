//! The console's tables (migration 5, docs/console.md): local accounts and their roles per council,
//! server-side sessions, the sign-in throttle, and the reads of the console pages (bodies, audit log).

use super::*;

/// A role of a local account for one council, or for every council (`admin`, body `*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// A body id, or [`ALL_BODIES`] for an `admin`.
    pub body: String,
    /// `wahlleiter`, `viewer` or `admin`.
    pub role: String,
}

/// The body id of a grant that covers every council.
pub const ALL_BODIES: &str = "*";

/// A session found by its token: whose it is, its form token, and where it came from.
#[derive(Debug, Clone)]
pub struct SessionRow {
    pub login: String,
    /// The name shown (a session through the identity provider); `None`: the login is shown.
    pub name: Option<String>,
    pub csrf: String,
    /// `local` (a local account, its roles in `console_grants`) or `oidc` (the identity provider).
    pub origin: String,
    /// The roles of an `oidc` session, from the ID token; `None` for a local one.
    pub grants: Option<Vec<Grant>>,
}

/// The origins of a session (`console_sessions.origin`).
pub const ORIGIN_LOCAL: &str = "local";
pub const ORIGIN_OIDC: &str = "oidc";

/// One row of a body's audit log, as the console shows it.
#[derive(Debug, Clone)]
pub struct AuditRow {
    pub seq: i64,
    pub at: DateTime<Utc>,
    /// `command`, `effect` or `rejected`.
    pub kind: String,
    pub ty: String,
    pub message_id: Option<String>,
    pub payload: Value,
}

/// The sign-in throttle's scopes.
pub const THROTTLE_LOGIN: &str = "login";
pub const THROTTLE_ADDRESS: &str = "address";

/// Most audit rows the console reads of one body.
const AUDIT_LIMIT: i64 = 20_000;

impl Store {
    /// Create a local account with its grants; `false` when the login exists already (nothing changed).
    pub async fn create_user(&self, login: &str, password: &str, grants: &[Grant]) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let created = sqlx::query("INSERT INTO console_users (login, password) VALUES ($1, $2) ON CONFLICT DO NOTHING")
            .bind(login)
            .bind(password)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if !created {
            return Ok(false);
        }
        insert_grants(&mut tx, login, grants).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Add (or change the role of) grants of an existing account; `false` when there is no such login.
    pub async fn grant(&self, login: &str, grants: &[Grant]) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let exists: Option<String> = sqlx::query_scalar("SELECT login FROM console_users WHERE login = $1 FOR UPDATE")
            .bind(login)
            .fetch_optional(&mut *tx)
            .await?;
        if exists.is_none() {
            return Ok(false);
        }
        insert_grants(&mut tx, login, grants).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Replace an account's password hash and end its sessions; `false` when there is no such login.
    pub async fn set_password(&self, login: &str, password: &str) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let n = sqlx::query("UPDATE console_users SET password = $2, updated_at = now() WHERE login = $1")
            .bind(login)
            .bind(password)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        sqlx::query("DELETE FROM console_sessions WHERE login = $1 AND origin = 'local'")
            .bind(login)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(n == 1)
    }

    /// Delete an account with its grants and sessions; `false` when there is no such login.
    pub async fn delete_user(&self, login: &str) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM console_sessions WHERE login = $1 AND origin = 'local'")
            .bind(login)
            .execute(&mut *tx)
            .await?;
        let n = sqlx::query("DELETE FROM console_users WHERE login = $1").bind(login).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(n.rows_affected() == 1)
    }

    /// Every account with its grants, by login.
    pub async fn users(&self) -> Result<Vec<(String, Vec<Grant>)>, StoreError> {
        let rows = sqlx::query(
            "SELECT u.login, g.body_id, g.role FROM console_users u
             LEFT JOIN console_grants g ON g.login = u.login ORDER BY u.login, g.body_id",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut users: Vec<(String, Vec<Grant>)> = Vec::new();
        for r in rows {
            let login: String = r.try_get("login")?;
            if users.last().is_none_or(|(l, _)| *l != login) {
                users.push((login, Vec::new()));
            }
            if let (Some(body), Some(role)) =
                (r.try_get::<Option<String>, _>("body_id")?, r.try_get::<Option<String>, _>("role")?)
            {
                if let Some((_, grants)) = users.last_mut() {
                    grants.push(Grant { body, role });
                }
            }
        }
        Ok(users)
    }

    /// The stored password hash of a login, if the account exists.
    pub async fn password_hash(&self, login: &str) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT password FROM console_users WHERE login = $1")
            .bind(login)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// The grants of a login.
    pub async fn grants(&self, login: &str) -> Result<Vec<Grant>, StoreError> {
        let rows = sqlx::query("SELECT body_id, role FROM console_grants WHERE login = $1 ORDER BY body_id")
            .bind(login)
            .fetch_all(&self.pool)
            .await?;
        rows.into_iter().map(|r| Ok(Grant { body: r.try_get("body_id")?, role: r.try_get("role")? })).collect()
    }

    /// Start a session; sessions past their end are removed on the way. `provider` is the name shown and
    /// the roles of a session from the identity provider (origin `oidc`); without it the session is a local
    /// account's (its login shown, its roles in `console_grants`).
    pub async fn create_session(
        &self,
        token_hash: &[u8],
        login: &str,
        csrf: &str,
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
        provider: Option<(&str, &[Grant])>,
    ) -> Result<(), StoreError> {
        let (name, grants) = (provider.map(|p| p.0), provider.map(|p| p.1));
        let origin = if grants.is_some() { ORIGIN_OIDC } else { ORIGIN_LOCAL };
        let grants = grants
            .map(|g| Value::Array(g.iter().map(|g| json!({"body": g.body, "role": g.role})).collect()).to_string());
        sqlx::query("DELETE FROM console_sessions WHERE expires_at <= $1").bind(now).execute(&self.pool).await?;
        sqlx::query(
            "INSERT INTO console_sessions (token_hash, login, csrf, created_at, last_seen_at, expires_at, origin, grants, name)
             VALUES ($1, $2, $3, $4, $4, $5, $6, $7::jsonb, $8)",
        )
        .bind(token_hash)
        .bind(login)
        .bind(csrf)
        .bind(now)
        .bind(expires_at)
        .bind(origin)
        .bind(grants)
        .bind(name)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The live session with this token hash, touched: `None` when unknown, past its end, or idle since
    /// before `idle_since`.
    pub async fn touch_session(
        &self,
        token_hash: &[u8],
        now: DateTime<Utc>,
        idle_since: DateTime<Utc>,
    ) -> Result<Option<SessionRow>, StoreError> {
        let row = sqlx::query(
            "UPDATE console_sessions SET last_seen_at = $2
             WHERE token_hash = $1 AND expires_at > $2 AND last_seen_at > $3
             RETURNING login, name, csrf, origin, grants::text AS grants",
        )
        .bind(token_hash)
        .bind(now)
        .bind(idle_since)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else { return Ok(None) };
        let grants = r.try_get::<Option<String>, _>("grants")?.map(|text| {
            let rows: Vec<Value> = serde_json::from_str(&text).unwrap_or_default();
            rows.iter()
                .filter_map(|g| {
                    let (body, role) = (g.get("body")?.as_str()?, g.get("role")?.as_str()?);
                    Some(Grant { body: body.to_owned(), role: role.to_owned() })
                })
                .collect()
        });
        Ok(Some(SessionRow {
            login: r.try_get("login")?,
            name: r.try_get("name")?,
            csrf: r.try_get("csrf")?,
            origin: r.try_get("origin")?,
            grants,
        }))
    }

    /// Remember a sign-in on its way to the identity provider; those past their end are removed.
    pub async fn begin_oidc_sign_in(
        &self,
        flow_hash: &[u8],
        state: &str,
        nonce: &str,
        verifier: &str,
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM console_oidc_sign_ins WHERE expires_at <= $1").bind(now).execute(&self.pool).await?;
        sqlx::query(
            "INSERT INTO console_oidc_sign_ins (flow_hash, state, nonce, verifier, expires_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(flow_hash)
        .bind(state)
        .bind(nonce)
        .bind(verifier)
        .bind(expires_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Take (delete and return) the sign-in of `flow_hash` if it has not ended: its state, nonce and
    /// verifier. A second take of the same sign-in finds nothing.
    pub async fn take_oidc_sign_in(
        &self,
        flow_hash: &[u8],
        now: DateTime<Utc>,
    ) -> Result<Option<(String, String, String)>, StoreError> {
        let row = sqlx::query(
            "DELETE FROM console_oidc_sign_ins WHERE flow_hash = $1 RETURNING state, nonce, verifier, expires_at > $2 AS live",
        )
        .bind(flow_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else { return Ok(None) };
        if !r.try_get::<bool, _>("live")? {
            return Ok(None);
        }
        Ok(Some((r.try_get("state")?, r.try_get("nonce")?, r.try_get("verifier")?)))
    }

    /// End a session.
    pub async fn delete_session(&self, token_hash: &[u8]) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM console_sessions WHERE token_hash = $1").bind(token_hash).execute(&self.pool).await?;
        Ok(())
    }

    /// Count a sign-in attempt against each of `keys` (scope, key, free attempts) *before* its password is
    /// checked (docs/security.md "Sign-in throttle"). A key's first `limit` attempts are free; after
    /// that each further one is allowed only `delay.0` seconds after the last counted attempt, doubling
    /// with every attempt up to `delay.1` seconds. A key without an attempt since `forget_before` starts
    /// again. `Ok(None)`: counted; `Ok(Some(wait))`: refused, nothing counted, allowed again in `wait`.
    ///
    /// The count and the check are one statement per key under the row's lock, in one transaction, so
    /// parallel attempts are counted one after another and no more get through to the password check than
    /// the policy allows (issue 26, point 8: check → argon2 → count let parallel guesses through).
    pub async fn count_sign_in_attempt(
        &self,
        keys: &[(&str, &str, u32)],
        now: DateTime<Utc>,
        forget_before: DateTime<Utc>,
        delay: (u32, u32),
    ) -> Result<Option<std::time::Duration>, StoreError> {
        // the delay before the next attempt of a key with `f.failures` counted attempts beyond its limit $5
        const DELAY: &str =
            "make_interval(secs => LEAST($7::float8, $6::float8 * power(2::float8, LEAST(f.failures - $5, 30))))";
        // apart from the counting transaction: its row locks are then taken only in the order of `keys`
        sqlx::query("DELETE FROM console_sign_in_failures WHERE last_at <= $1")
            .bind(forget_before)
            .execute(&self.pool)
            .await?;
        let mut tx = self.pool.begin().await?;
        for (scope, key, limit) in keys {
            let limit = i32::try_from(*limit).unwrap_or(i32::MAX);
            let counted: Option<i32> = sqlx::query_scalar(&format!(
                "INSERT INTO console_sign_in_failures AS f (scope, key, failures, window_start, last_at)
                 VALUES ($1, $2, 1, $3, $3)
                 ON CONFLICT (scope, key) DO UPDATE
                   SET failures = CASE WHEN f.last_at <= $4 THEN 1 ELSE f.failures + 1 END,
                       window_start = CASE WHEN f.last_at <= $4 THEN $3 ELSE f.window_start END,
                       last_at = $3
                   WHERE f.last_at <= $4 OR f.failures < $5 OR f.last_at + {DELAY} <= $3
                 RETURNING failures"
            ))
            .bind(scope)
            .bind(key)
            .bind(now)
            .bind(forget_before)
            .bind(limit)
            .bind(f64::from(delay.0))
            .bind(f64::from(delay.1.max(delay.0)))
            .fetch_optional(&mut *tx)
            .await?;
            if counted.is_none() {
                let wait: f64 = sqlx::query_scalar(&format!(
                    "SELECT EXTRACT(EPOCH FROM (f.last_at + {DELAY} - $3))::float8
                     FROM console_sign_in_failures f WHERE f.scope = $1 AND f.key = $2 AND $4::timestamptz IS NOT NULL"
                ))
                .bind(scope)
                .bind(key)
                .bind(now)
                .bind(forget_before)
                .bind(limit)
                .bind(f64::from(delay.0))
                .bind(f64::from(delay.1.max(delay.0)))
                .fetch_optional(&mut *tx)
                .await?
                .unwrap_or(0.0);
                tx.rollback().await?;
                return Ok(Some(std::time::Duration::from_secs_f64(wait.clamp(1.0, 86_400.0))));
            }
        }
        tx.commit().await?;
        Ok(None)
    }

    /// Take back one counted attempt of a key (a sign-in that succeeded does not count against its
    /// client address).
    pub async fn uncount_sign_in_attempt(&self, scope: &str, key: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE console_sign_in_failures SET failures = failures - 1 WHERE scope = $1 AND key = $2 AND failures > 0",
        )
        .bind(scope)
        .bind(key)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Forget the failed sign-ins of one key (a login that signed in).
    pub async fn clear_sign_in_failures(&self, scope: &str, key: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM console_sign_in_failures WHERE scope = $1 AND key = $2")
            .bind(scope)
            .bind(key)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The ids of every stored council.
    pub async fn body_ids(&self) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT id FROM bodies ORDER BY id").fetch_all(&self.pool).await?)
    }

    /// A body's audit log in order (at most the first 20 000 rows).
    pub async fn audit_log(&self, body_id: &str) -> Result<Vec<AuditRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, at, kind, type, message_id, payload::text AS payload FROM audit_log
             WHERE body_id = $1 ORDER BY seq LIMIT $2",
        )
        .bind(body_id)
        .bind(AUDIT_LIMIT)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| {
                let payload: String = r.try_get("payload")?;
                Ok(AuditRow {
                    seq: r.try_get("seq")?,
                    at: r.try_get("at")?,
                    kind: r.try_get("kind")?,
                    ty: r.try_get("type")?,
                    message_id: r.try_get("message_id")?,
                    payload: serde_json::from_str(&payload).unwrap_or(Value::Null),
                })
            })
            .collect()
    }
}

/// The previews whose hour (`$1` seconds) has passed.
const DROP_EXPIRED_PREVIEWS: &str =
    "DELETE FROM console_import_previews WHERE created_at <= now() - make_interval(secs => $1)";

/// The console's previewed election result imports (migration 0017, docs/console.md "Election results"): kept
/// for the user who uploaded them until confirmed or `ttl` old (the database's clock), at most `max` at a time —
/// any replica answers the three steps, and a restart keeps them.
impl Store {
    /// Delete the previews `ttl` old or older (the database's clock): they hold a whole election's personal data
    /// and can no longer be read. The console sweeps them when it starts and every few minutes
    /// (`console::PREVIEW_SWEEP`); returns how many went.
    pub async fn drop_expired_import_previews(&self, ttl: std::time::Duration) -> Result<u64, StoreError> {
        let done = sqlx::query(DROP_EXPIRED_PREVIEWS).bind(ttl.as_secs_f64()).execute(&self.pool).await?;
        Ok(done.rows_affected())
    }

    /// Keep a preview (`imported`, `files`: JSON) for `login` under `token`; expired previews are deleted, and the
    /// oldest beyond `max - 1`.
    pub async fn keep_import_preview(
        &self,
        token: &str,
        login: &str,
        imported: &Value,
        files: &Value,
        ttl: std::time::Duration,
        max: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(DROP_EXPIRED_PREVIEWS).bind(ttl.as_secs_f64()).execute(&mut *tx).await?;
        sqlx::query(
            "DELETE FROM console_import_previews WHERE token IN (
                 SELECT token FROM console_import_previews ORDER BY created_at DESC OFFSET greatest($1 - 1, 0))",
        )
        .bind(max)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO console_import_previews (token, login, imported, files) VALUES ($1, $2, $3::jsonb, $4::jsonb)",
        )
        .bind(token)
        .bind(login)
        .bind(imported.to_string())
        .bind(files.to_string())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// `login`'s preview `token` younger than `ttl`: (imported, files) as kept.
    pub async fn import_preview(
        &self,
        token: &str,
        login: &str,
        ttl: std::time::Duration,
    ) -> Result<Option<(Value, Value)>, StoreError> {
        let row = sqlx::query(
            "SELECT imported::text AS imported, files::text AS files FROM console_import_previews
             WHERE token = $1 AND login = $2 AND created_at > now() - make_interval(secs => $3)",
        )
        .bind(token)
        .bind(login)
        .bind(ttl.as_secs_f64())
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else { return Ok(None) };
        let (imported, files): (String, String) = (r.try_get("imported")?, r.try_get("files")?);
        let parse = |text: &str| {
            serde_json::from_str(text)
                .map_err(|e| StoreError::Corrupt(token.to_owned(), format!("import preview: {e}")))
        };
        Ok(Some((parse(&imported)?, parse(&files)?)))
    }

    /// Replace the import of `login`'s preview `token` (a correction) and start its hour again; `false` if it is
    /// gone.
    pub async fn update_import_preview(
        &self,
        token: &str,
        login: &str,
        imported: &Value,
        ttl: std::time::Duration,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE console_import_previews SET imported = $3::jsonb, created_at = now()
             WHERE token = $1 AND login = $2 AND created_at > now() - make_interval(secs => $4)",
        )
        .bind(token)
        .bind(login)
        .bind(imported.to_string())
        .bind(ttl.as_secs_f64())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// The preview `token` is used up (confirmed).
    pub async fn drop_import_preview(&self, token: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM console_import_previews WHERE token = $1").bind(token).execute(&self.pool).await?;
        Ok(())
    }
}

async fn insert_grants(tx: &mut Transaction<'_, Postgres>, login: &str, grants: &[Grant]) -> Result<(), StoreError> {
    for g in grants {
        sqlx::query(
            "INSERT INTO console_grants (login, body_id, role) VALUES ($1, $2, $3)
             ON CONFLICT (login, body_id) DO UPDATE SET role = EXCLUDED.role",
        )
        .bind(login)
        .bind(&g.body)
        .bind(&g.role)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}
