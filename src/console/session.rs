//! Server-side sessions: a random token in a cookie (`Secure` unless configured off for plain http on
//! localhost, `HttpOnly`, `SameSite=Strict`, `Path=/`), its SHA-256 and the session's form token in
//! PostgreSQL (`console_sessions`). A session ends after `console.session_idle_minutes` without a request
//! and `console.session_max_hours` after sign-in, or at sign-out. A session is a local account's (its
//! roles read from `console_grants` at every request) or the identity provider's (origin `oidc`, the
//! roles of its ID token kept with it).

use argon2::password_hash::rand_core::{OsRng, RngCore};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use sha2::{Digest, Sha256};

use super::Console;
use crate::store::{Grant, ALL_BODIES};

/// Bytes of randomness in a session or form token (hex-encoded: twice as many characters).
const TOKEN_BYTES: usize = 32;

/// A fresh random token (256 bits from the operating system, hex).
pub fn token() -> String {
    let mut bytes = [0u8; TOKEN_BYTES];
    OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `s` has the form of a [`token`] (so a cookie of another form is never looked up).
pub fn is_token(s: &str) -> bool {
    s.len() == 2 * TOKEN_BYTES && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// What is stored of a session token.
pub fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// The signed-in user of a request: the login, the roles per council and the session's form token.
#[derive(Debug, Clone)]
pub struct User {
    /// Who is recorded (`recorded_by`): a local login, or `oidc:<sub>@<iss>`.
    pub login: String,
    /// Who is shown: the local login, or the provider's name claim.
    pub name: String,
    pub grants: Vec<Grant>,
    pub csrf: String,
    /// The session token's hash (sign-out ends this session).
    pub token_hash: Vec<u8>,
    /// Where the session came from: `local` (a local account) or `oidc` (the identity provider).
    pub origin: String,
}

impl User {
    /// The user's role for council `body`: `admin` (every council), `wahlleiter` or `viewer`. Only an
    /// `admin` grant covers every council: a `wahlleiter` or `viewer` grant for body `*` (stored by
    /// `user add --body '*'` before that was refused) covers none.
    pub fn role_for(&self, body: &str) -> Option<&str> {
        self.grants.iter().find(|g| covers_all(g) || (g.body == body && g.body != ALL_BODIES)).map(|g| g.role.as_str())
    }

    /// Whether the user may see council `body`.
    pub fn may_see(&self, body: &str) -> bool {
        self.role_for(body).is_some()
    }

    /// Whether the user sees every council (`admin`).
    pub fn sees_all(&self) -> bool {
        self.grants.iter().any(covers_all)
    }
}

/// Whether a grant covers every council: an `admin` one for [`ALL_BODIES`].
fn covers_all(g: &Grant) -> bool {
    g.body == ALL_BODIES && g.role == "admin"
}

/// The signed-in user of a request, if any: an extension set by [`load`] on every request.
#[derive(Debug, Clone, Default)]
pub struct Viewer(pub Option<User>);

/// The session cookie's name: with `Secure` the `__Host-` prefix (the browser then keeps it to this host,
/// path `/`, HTTPS).
pub fn session_cookie(console: &Console) -> &'static str {
    if console.config.secure_cookie {
        "__Host-nachfolge"
    } else {
        "nachfolge"
    }
}

/// The cookie of the sign-in form's token (before there is a session; double submit).
pub fn sign_in_cookie(console: &Console) -> &'static str {
    if console.config.secure_cookie {
        "__Host-nachfolge-anmeldung"
    } else {
        "nachfolge-anmeldung"
    }
}

/// A `Set-Cookie` value: `max_age` seconds, 0 to delete it.
pub fn set_cookie(console: &Console, name: &str, value: &str, max_age: i64) -> HeaderValue {
    let secure = if console.config.secure_cookie { "; Secure" } else { "" };
    let text = format!("{name}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Strict{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("invalid=; Max-Age=0"))
}

/// The value of cookie `name` in the request's `Cookie` headers.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).find_map(|pair| {
        let (n, v) = pair.trim().split_once('=')?;
        (n == name).then_some(v.trim())
    })
}

/// Middleware: looks up the session of the request's cookie and sets [`Viewer`]. A cookie of no live
/// session signs nobody in. Database trouble is answered with 503.
pub async fn load(State(console): State<Console>, mut request: Request, next: Next) -> Response {
    let token = cookie(request.headers(), session_cookie(&console)).filter(|t| is_token(t)).map(str::to_owned);
    let mut viewer = Viewer(None);
    if let Some(token) = token {
        match user_of(&console, &token).await {
            Ok(user) => viewer = Viewer(user),
            Err(error) => {
                tracing::warn!(%error, "console: session lookup failed");
                return super::pages::unavailable(&console);
            }
        }
    }
    let signed_out = viewer.0.is_none();
    let wanted = (request.method() == axum::http::Method::GET).then(|| {
        request.uri().path_and_query().map_or_else(|| request.uri().path().to_owned(), |p| p.as_str().to_owned())
    });
    request.extensions_mut().insert(viewer);
    let mut response = next.run(request).await;
    // a page that needs sign-in: the sign-in remembers it and returns there (docs/console.md, "Sign-in")
    let to_sign_in = response.headers().get(header::LOCATION).is_some_and(|l| l.as_bytes() == b"/anmelden");
    if signed_out && to_sign_in && response.status() == axum::http::StatusCode::SEE_OTHER {
        if let Some(path) = wanted.as_deref().and_then(return_path) {
            let query: String =
                form_urlencoded::Serializer::new(String::new()).append_pair(RETURN_FIELD, &path).finish();
            if let Ok(location) = HeaderValue::from_str(&format!("/anmelden?{query}")) {
                response.headers_mut().insert(header::LOCATION, location);
            }
        }
    }
    response
}

/// The query parameter and form field that carry the page to return to after sign-in.
pub const RETURN_FIELD: &str = "weiter";

/// The page to return to after sign-in, if `raw` may be one: a path of this console only — it starts with
/// one `/` (not `//` or `/\`, which a browser reads as another host), has no backslash, no control
/// character, at most 2000 bytes, and is not the sign-in or sign-out itself, the start page or the councils
/// (where a sign-in leads anyway). Anything
/// else (an absolute URL, `//evil.example`, `javascript:…`) is no return path: no open redirect.
pub fn return_path(raw: &str) -> Option<String> {
    let ok = raw.len() <= 2000
        && raw.starts_with('/')
        && !raw.starts_with("//")
        && !raw.contains('\\')
        && !raw.chars().any(char::is_control)
        && raw != "/"
        && raw != "/raete"
        && !raw.starts_with("/anmelden")
        && !raw.starts_with("/abmelden");
    ok.then(|| raw.to_owned())
}

async fn user_of(console: &Console, token: &str) -> Result<Option<User>, crate::store::StoreError> {
    let now = console.clock.now();
    let idle = chrono::Duration::minutes(i64::from(console.config.session_idle_minutes));
    let hash = token_hash(token);
    let Some(row) = console.store.touch_session(&hash, now, now - idle).await? else {
        return Ok(None);
    };
    // a session from the identity provider keeps the roles its ID token gave; a local one reads its grants
    let grants = match row.grants {
        Some(grants) => grants,
        None => console.store.grants(&row.login).await?,
    };
    let name = row.name.unwrap_or_else(|| row.login.clone());
    Ok(Some(User { login: row.login, name, grants, csrf: row.csrf, token_hash: hash, origin: row.origin }))
}

/// Start a session for the local account `login`: returns the cookie to set.
pub async fn start(console: &Console, login: &str) -> Result<HeaderValue, crate::store::StoreError> {
    begin(console, login, None).await
}

/// Start a session signed in through the identity provider, with the roles of its ID token
/// ([`super::oidc_flow`]): returns the cookie to set.
pub async fn start_from_provider(
    console: &Console,
    login: &str,
    name: &str,
    grants: &[Grant],
) -> Result<HeaderValue, crate::store::StoreError> {
    begin(console, login, Some((name, grants))).await
}

async fn begin(
    console: &Console,
    login: &str,
    provider: Option<(&str, &[Grant])>,
) -> Result<HeaderValue, crate::store::StoreError> {
    let token = token();
    let now = console.clock.now();
    let max = chrono::Duration::hours(i64::from(console.config.session_max_hours));
    console.store.create_session(&token_hash(&token), login, &self::token(), now, now + max, provider).await?;
    Ok(set_cookie(console, session_cookie(console), &token, max.num_seconds()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_path_of_the_console_is_a_return_path() {
        for ok in ["/raete/rat", "/raete/rat/faelle/rat-1?x=1", "/raete/r%C3%A4t", "/wahlergebnis"] {
            assert_eq!(return_path(ok).as_deref(), Some(ok), "{ok}");
        }
        let long = format!("/{}", "a".repeat(2000));
        for bad in [
            "",
            "/",
            "/raete",
            "//evil.example",
            "///evil.example",
            "/\\evil.example",
            "/raete\\..",
            "https://evil.example/",
            "javascript:alert(1)",
            "raete",
            "/anmelden?weiter=/raete",
            "/abmelden",
            "/raete\n",
            long.as_str(),
        ] {
            assert_eq!(return_path(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn tokens_are_random_hex_of_256_bits() {
        let (a, b) = (token(), token());
        assert_ne!(a, b);
        assert!(is_token(&a) && is_token(&b), "{a}");
        assert!(!is_token("abc") && !is_token(&"g".repeat(64)));
        assert_eq!(token_hash(&a).len(), 32);
    }

    #[test]
    fn cookies_are_found_by_name() {
        let mut h = HeaderMap::new();
        h.append(header::COOKIE, HeaderValue::from_static("a=1; nachfolge=xyz"));
        h.append(header::COOKIE, HeaderValue::from_static("nachfolge-anmeldung=t"));
        assert_eq!(cookie(&h, "nachfolge"), Some("xyz"));
        assert_eq!(cookie(&h, "nachfolge-anmeldung"), Some("t"));
        assert_eq!(cookie(&h, "b"), None);
    }
}
