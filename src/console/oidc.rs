//! Sign-in through the municipality's identity provider: OpenID Connect, authorization code flow with
//! PKCE (S256), `state` and `nonce` (docs/console.md "Sign-in through an identity provider").
//!
//! * [`Oidc`] — the provider as the console sees it: its discovery document and key set (fetched when
//!   first needed, kept for [`METADATA_TTL`], the keys fetched again when a token names an unknown key),
//!   the authorization request, the token request, the ID token's checks;
//! * [`check_claims`] — OIDC Core 3.1.3.7: `iss`, `aud`/`azp`, `exp`, `iat`, `nonce` (the signature is
//!   checked before, [`super::jws`]);
//! * [`grants_from_claims`] — the roles per council of the configured claim, as local accounts have them.
//!
//! The HTTP client is reqwest's async client (already built for trace export) over rustls with ring,
//! trusting the webpki roots and `console.oidc.ca_file`; no redirects are followed, answers are bounded.
//! Nothing of a person is logged: not the subject, not the login, not the token.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64ct::{Base64UrlUnpadded, Encoding};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::jws::{self, Jwk, JwsError};
use crate::config::OidcConfig;
use crate::store::{Grant, ALL_BODIES};

/// Where the browser starts the sign-in: `GET` answers with the way to the provider.
pub const START_PATH: &str = "/anmelden/dienstkonto";
/// The provider's way back (`console.oidc.redirect_url` must end in it).
pub const CALLBACK_PATH: &str = "/anmelden/dienstkonto/rueckkehr";
/// Counter of sign-ins through the provider by outcome.
pub const METRIC: &str = "nachfolge_console_oidc_sign_ins_total";
/// The prefix of a login signed in through the provider (local logins have no `:`).
pub const LOGIN_PREFIX: &str = "oidc:";

/// How long the discovery document and the key set are kept.
pub const METADATA_TTL: Duration = Duration::from_secs(3600);
/// The key set is fetched again for an unknown key at most this often.
const KEYS_REFRESH_MIN: Duration = Duration::from_secs(60);
/// Clock skew allowed between the provider and the console for `exp` and `iat`.
const LEEWAY_SECS: i64 = 120;
/// Largest answer read from the provider.
const MAX_ANSWER_BYTES: usize = 1024 * 1024;
/// Timeout of one request to the provider.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Why a sign-in through the provider did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum OidcError {
    /// The provider cannot be reached or answers with something unusable.
    #[error("identity provider: {0}")]
    Provider(String),
    /// The provider refused the code (`invalid_grant` for a code used twice or a wrong verifier …).
    #[error("the token request was refused: {0}")]
    TokenRefused(String),
    /// The ID token failed a check.
    #[error("ID token refused: {0}")]
    Token(String),
}

impl From<JwsError> for OidcError {
    fn from(e: JwsError) -> OidcError {
        OidcError::Token(e.to_string())
    }
}

/// What the discovery document says (OpenID Connect Discovery 1.0 § 3).
#[derive(Debug, Clone)]
pub struct Metadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub jwks_uri: String,
}

struct Cached {
    metadata: Metadata,
    keys: Vec<Jwk>,
    fetched: Instant,
    keys_fetched: Instant,
}

/// The configured provider.
pub struct Oidc {
    pub config: OidcConfig,
    http: reqwest::Client,
    cache: tokio::sync::Mutex<Option<Cached>>,
}

/// What the browser's sign-in needs to remember between the way out and the way back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    pub state: String,
    pub nonce: String,
    /// The PKCE code verifier (RFC 7636 § 4.1: 64 characters of `[0-9a-f]`, 256 bits).
    pub verifier: String,
}

impl Pending {
    /// Fresh random values (256 bits each).
    pub fn new() -> Pending {
        let token = super::session::token;
        Pending { state: token(), nonce: token(), verifier: token() }
    }

    /// The S256 code challenge: BASE64URL(SHA-256(verifier)) (RFC 7636 § 4.2).
    pub fn challenge(&self) -> String {
        Base64UrlUnpadded::encode_string(&Sha256::digest(self.verifier.as_bytes()))
    }
}

impl Default for Pending {
    fn default() -> Self {
        Pending::new()
    }
}

impl Oidc {
    /// The provider of `config` (nothing is fetched yet); fails on an unreadable `ca_file`.
    pub fn new(config: &OidcConfig) -> anyhow::Result<Oidc> {
        let mut roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
        if let Some(path) = &config.ca_file {
            use rustls::pki_types::pem::PemObject;
            let key = "console.oidc.ca_file";
            let pem = crate::bus::read_pem_ca_file(key, path).map_err(|e| anyhow::anyhow!("{e}"))?;
            for cert in rustls::pki_types::CertificateDer::pem_slice_iter(pem.as_bytes()) {
                let added = cert.map_err(|e| e.to_string()).and_then(|c| roots.add(c).map_err(|e| e.to_string()));
                added.map_err(|e| anyhow::anyhow!("{key} {}: {e}", path.display()))?;
            }
        }
        let tls =
            rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()?
                .with_root_certificates(roots)
                .with_no_client_auth();
        let http = reqwest::Client::builder()
            .tls_backend_preconfigured(tls)
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(TIMEOUT)
            .timeout(TIMEOUT)
            .build()?;
        Ok(Oidc { config: config.clone(), http, cache: tokio::sync::Mutex::new(None) })
    }

    /// The issuer as configured, without surrounding blanks.
    fn issuer(&self) -> &str {
        self.config.issuer.trim()
    }

    /// The discovery document and keys, fetched when missing or older than [`METADATA_TTL`].
    pub async fn metadata(&self) -> Result<Metadata, OidcError> {
        let mut cache = self.cache.lock().await;
        if let Some(c) = cache.as_ref().filter(|c| c.fetched.elapsed() < METADATA_TTL) {
            return Ok(c.metadata.clone());
        }
        let metadata = self.discover().await?;
        let keys = self.fetch_keys(&metadata.jwks_uri).await?;
        let now = Instant::now();
        *cache = Some(Cached { metadata: metadata.clone(), keys, fetched: now, keys_fetched: now });
        Ok(metadata)
    }

    async fn discover(&self) -> Result<Metadata, OidcError> {
        let url = format!("{}/.well-known/openid-configuration", self.issuer().trim_end_matches('/'));
        let doc = self.get_json(&url).await?;
        let field = |name: &str| -> Result<String, OidcError> {
            let value = doc.get(name).and_then(Value::as_str).unwrap_or_default();
            if value.is_empty() {
                return Err(OidcError::Provider(format!("the discovery document has no {name}")));
            }
            Ok(value.to_owned())
        };
        let metadata = Metadata {
            issuer: field("issuer")?,
            authorization_endpoint: field("authorization_endpoint")?,
            token_endpoint: field("token_endpoint")?,
            jwks_uri: field("jwks_uri")?,
        };
        // OpenID Connect Discovery § 4.3: the issuer of the document is exactly the one asked
        if metadata.issuer != self.issuer() {
            return Err(OidcError::Provider("the discovery document names another issuer".into()));
        }
        // the endpoints over TLS when the issuer is (a plain http issuer is allowed on loopback only)
        if self.issuer().starts_with("https://") {
            for url in [&metadata.authorization_endpoint, &metadata.token_endpoint, &metadata.jwks_uri] {
                if !url.starts_with("https://") {
                    return Err(OidcError::Provider("an endpoint of the discovery document is not https".into()));
                }
            }
        }
        Ok(metadata)
    }

    async fn fetch_keys(&self, jwks_uri: &str) -> Result<Vec<Jwk>, OidcError> {
        let keys = jws::parse_jwks(&self.get_json(jwks_uri).await?);
        if keys.is_empty() {
            return Err(OidcError::Provider("the key set holds no usable signing key".into()));
        }
        Ok(keys)
    }

    async fn get_json(&self, url: &str) -> Result<Value, OidcError> {
        let request = self.http.get(url).header(reqwest::header::ACCEPT, "application/json");
        let (status, body) = self.send(request).await?;
        if status != 200 {
            return Err(OidcError::Provider(format!("{url} answered {status}")));
        }
        serde_json::from_slice(&body).map_err(|_| OidcError::Provider(format!("{url} did not answer JSON")))
    }

    /// Sends a request and reads at most [`MAX_ANSWER_BYTES`] of the answer.
    async fn send(&self, request: reqwest::RequestBuilder) -> Result<(u16, Vec<u8>), OidcError> {
        let unreachable = |e: reqwest::Error| OidcError::Provider(format!("cannot be reached: {}", e.without_url()));
        let mut response = request.send().await.map_err(unreachable)?;
        let status = response.status().as_u16();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(unreachable)? {
            if body.len() + chunk.len() > MAX_ANSWER_BYTES {
                return Err(OidcError::Provider("the answer is too large".into()));
            }
            body.extend_from_slice(&chunk);
        }
        Ok((status, body))
    }

    /// The scopes asked for: the configured ones, with `openid` first when it is missing.
    pub fn scopes(&self) -> String {
        let mut scopes: Vec<&str> = self.config.scopes.split_whitespace().collect();
        if !scopes.contains(&"openid") {
            scopes.insert(0, "openid");
        }
        scopes.join(" ")
    }

    /// The authorization request the browser is sent to (OIDC Core 3.1.2.1, RFC 7636 § 4.3).
    pub async fn authorization_url(&self, pending: &Pending) -> Result<String, OidcError> {
        let metadata = self.metadata().await?;
        let mut url = reqwest::Url::parse(&metadata.authorization_endpoint)
            .map_err(|_| OidcError::Provider("the authorization endpoint is no URL".into()))?;
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &self.config.client_id)
            .append_pair("redirect_uri", self.config.redirect_url.trim())
            .append_pair("scope", &self.scopes())
            .append_pair("state", &pending.state)
            .append_pair("nonce", &pending.nonce)
            .append_pair("code_challenge", &pending.challenge())
            .append_pair("code_challenge_method", "S256");
        Ok(url.into())
    }

    /// Exchanges the code for the ID token (OIDC Core 3.1.3.1) and checks it: signature against the
    /// provider's keys, then [`check_claims`]. Returns the token's claims.
    pub async fn sign_in(&self, code: &str, pending: &Pending) -> Result<Map<String, Value>, OidcError> {
        let metadata = self.metadata().await?;
        let public = self.config.client_secret.is_empty();
        let body = {
            let mut form = form_urlencoded::Serializer::new(String::new());
            form.append_pair("grant_type", "authorization_code")
                .append_pair("code", code)
                .append_pair("redirect_uri", self.config.redirect_url.trim())
                .append_pair("code_verifier", &pending.verifier);
            if public {
                form.append_pair("client_id", &self.config.client_id); // a public client (RFC 6749 § 4.1.3)
            }
            form.finish()
        };
        let mut request = self.http.post(&metadata.token_endpoint);
        if !public {
            // client_secret_basic: both form-encoded before Base64 (RFC 6749 § 2.3.1)
            let enc = |s: &str| form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
            request = request.basic_auth(enc(&self.config.client_id), Some(enc(&self.config.client_secret)));
        }
        let request = request
            .header(reqwest::header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(reqwest::header::ACCEPT, "application/json")
            .body(body);
        let (status, body) = self.send(request).await?;
        let answer: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        if status != 200 {
            // the error code only (RFC 6749 § 5.2); its description may quote what was sent
            let code = answer.get("error").and_then(Value::as_str).unwrap_or("no error code");
            let code: String = code.chars().filter(|c| c.is_ascii_graphic()).take(64).collect();
            return Err(OidcError::TokenRefused(format!("{status} {code}")));
        }
        let id_token = answer
            .get("id_token")
            .and_then(Value::as_str)
            .ok_or_else(|| OidcError::Provider("the token answer holds no id_token".into()))?;
        let claims = self.verify_signature(id_token).await?;
        check_claims(&claims, &metadata.issuer, &self.config.client_id, &pending.nonce, unix_now())?;
        Ok(claims)
    }

    /// Checks the signature; a token naming a key the cached set does not hold fetches the set again (the
    /// provider rotated its keys), at most every [`KEYS_REFRESH_MIN`].
    async fn verify_signature(&self, token: &str) -> Result<Map<String, Value>, OidcError> {
        let mut cache = self.cache.lock().await;
        let Some(cached) = cache.as_mut() else {
            return Err(OidcError::Provider("no key set".into()));
        };
        match jws::verify(token, &cached.keys) {
            Err(JwsError::NoKey) if cached.keys_fetched.elapsed() >= KEYS_REFRESH_MIN => {
                cached.keys = self.fetch_keys(&cached.metadata.jwks_uri).await?;
                cached.keys_fetched = Instant::now();
                Ok(jws::verify(token, &cached.keys)?)
            }
            other => Ok(other?),
        }
    }
}

/// Seconds since the Unix epoch by the machine's clock (not the console clock's offset, which is for the
/// procedure's periods: the provider stamps its tokens with the real time).
pub fn unix_now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// The checks of OIDC Core 3.1.3.7 after the signature: items 2 (`iss` exactly the issuer), 3–5 (`aud`
/// holds the client id; with other audiences `azp` must be it, and `azp`, when given, must be it), 9
/// (`exp` not passed), 10 (`iat` not in the future) and 11 (`nonce` the one sent), with [`LEEWAY_SECS`]
/// for clocks that differ.
pub fn check_claims(
    claims: &Map<String, Value>,
    issuer: &str,
    client_id: &str,
    nonce: &str,
    now: i64,
) -> Result<(), OidcError> {
    let refuse = |why: &str| Err(OidcError::Token(why.to_owned()));
    if claims.get("iss").and_then(Value::as_str) != Some(issuer) {
        return refuse("iss is not the issuer");
    }
    let audiences: Vec<&str> = match claims.get("aud") {
        Some(Value::String(a)) => vec![a.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if !audiences.contains(&client_id) {
        return refuse("aud does not name the console's client id");
    }
    let azp = claims.get("azp").and_then(Value::as_str);
    if azp.is_some_and(|a| a != client_id) || (audiences.len() > 1 && azp.is_none()) {
        return refuse("azp is not the console's client id");
    }
    let Some(exp) = claims.get("exp").and_then(Value::as_i64) else {
        return refuse("no exp");
    };
    if exp + LEEWAY_SECS <= now {
        return refuse("expired");
    }
    if claims.get("iat").and_then(Value::as_i64).is_none_or(|iat| iat > now + LEEWAY_SECS) {
        return refuse("iat missing or in the future");
    }
    let given = claims.get("nonce").and_then(Value::as_str).unwrap_or_default();
    if !bool::from(subtle::ConstantTimeEq::ct_eq(given.as_bytes(), nonce.as_bytes())) {
        return refuse("nonce is not the one sent");
    }
    if claims.get("sub").and_then(Value::as_str).is_none_or(str::is_empty) {
        return refuse("no sub");
    }
    Ok(())
}

/// The claim at `path`: the top-level claim of that name, or else the dotted path into nested objects
/// (`resource_access.nachfolge.roles`).
fn claim<'a>(claims: &'a Map<String, Value>, path: &str) -> Option<&'a Value> {
    if let Some(v) = claims.get(path) {
        return Some(v);
    }
    let mut parts = path.split('.');
    let mut at = claims.get(parts.next()?)?;
    for part in parts {
        at = at.get(part)?;
    }
    Some(at)
}

/// The roles of the configured claim as grants (docs/console.md "The roles claim"): `admin` (every
/// council), `wahlleiter:<body>` and `viewer:<body>`; a JSON array of such strings, or one string.
/// Entries of another form are ignored; of two roles for one council the stronger (`wahlleiter`) holds,
/// and `admin` stands alone. Returns the grants and how many entries were ignored.
pub fn grants_from_claims(claims: &Map<String, Value>, roles_claim: &str) -> (Vec<Grant>, usize) {
    let entries: Vec<&Value> = match claim(claims, roles_claim.trim()) {
        Some(Value::Array(a)) => a.iter().collect(),
        Some(v @ Value::String(_)) => vec![v],
        _ => Vec::new(),
    };
    let mut grants: std::collections::BTreeMap<String, &'static str> = std::collections::BTreeMap::new();
    let mut ignored = 0;
    for entry in entries {
        let text = entry.as_str().unwrap_or_default().trim();
        let (role, body) = match text.split_once(':') {
            Some((role, body)) => (role.trim(), Some(body.trim())),
            None => (text, None),
        };
        let valid_body =
            |b: &str| !b.is_empty() && b.len() <= 200 && !b.chars().any(char::is_control) && b != ALL_BODIES;
        match (role, body) {
            ("admin", None) => {
                grants.insert(ALL_BODIES.to_owned(), "admin");
            }
            ("wahlleiter", Some(b)) if valid_body(b) => {
                grants.insert(b.to_owned(), "wahlleiter");
            }
            ("viewer", Some(b)) if valid_body(b) => {
                grants.entry(b.to_owned()).or_insert("viewer");
            }
            _ => ignored += 1,
        }
    }
    if grants.contains_key(ALL_BODIES) {
        return (vec![Grant { body: ALL_BODIES.to_owned(), role: "admin".to_owned() }], ignored);
    }
    (grants.into_iter().map(|(body, role)| Grant { body, role: role.to_owned() }).collect(), ignored)
}

/// The login a session through the provider is recorded with (`recorded_by`, the session row):
/// `oidc:<sub>@<iss>`. `sub` is the provider's stable, never reassigned identifier of the user (OpenID
/// Connect Core 1.0, 2), unique only together with the issuer; a name claim such as
/// `preferred_username` can change or pass to another person, so it is only shown ([`name_from_claims`]).
/// Neither part is shortened (a cut could make two users one); control characters are dropped.
pub fn login_from_claims(claims: &Map<String, Value>) -> String {
    let part = |name: &str| -> String {
        claims.get(name).and_then(Value::as_str).unwrap_or_default().chars().filter(|c| !c.is_control()).collect()
    };
    format!("{LOGIN_PREFIX}{}@{}", part("sub"), part("iss"))
}

/// The name a session through the provider is shown with: the configured claim (`preferred_username`),
/// or `sub` without it — printable characters only, at most 64 of them.
pub fn name_from_claims(claims: &Map<String, Value>, login_claim: &str) -> String {
    let name = claim(claims, login_claim.trim())
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .or_else(|| claims.get("sub").and_then(Value::as_str))
        .unwrap_or_default();
    name.trim().chars().filter(|c| !c.is_control()).take(64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    const ISS: &str = "https://idp.example.org/realms/rathaus";

    fn good(now: i64) -> Value {
        json!({"iss": ISS, "aud": "nachfolge", "sub": "u1", "exp": now + 300, "iat": now, "nonce": "n1"})
    }

    #[test]
    fn the_id_token_claims_are_checked_as_oidc_core_says() {
        let now = 1_800_000_000;
        let check = |v: Value| check_claims(&claims(v), ISS, "nachfolge", "n1", now);
        check(good(now)).expect("valid");
        let with = |key: &str, value: Value| {
            let mut v = good(now);
            v[key] = value;
            v
        };
        let mut several = with("aud", json!(["nachfolge", "andere"]));
        several["azp"] = json!("nachfolge");
        check(several).expect("several audiences with azp");
        for (what, v) in [
            ("iss", with("iss", json!("https://idp.example.org"))),
            ("iss with slash", with("iss", json!(format!("{ISS}/")))),
            ("aud", with("aud", json!("andere"))),
            ("aud list", with("aud", json!(["andere"]))),
            ("several audiences without azp", with("aud", json!(["nachfolge", "andere"]))),
            ("azp", with("azp", json!("andere"))),
            ("expired", with("exp", json!(now - LEEWAY_SECS))),
            ("exp missing", with("exp", Value::Null)),
            ("iat future", with("iat", json!(now + LEEWAY_SECS + 1))),
            ("nonce", with("nonce", json!("n2"))),
            ("nonce missing", with("nonce", Value::Null)),
            ("sub", with("sub", json!(""))),
        ] {
            assert!(matches!(check(v), Err(OidcError::Token(_))), "{what}");
        }
        // within the leeway
        check(with("exp", json!(now - 60))).expect("a minute of skew");
    }

    #[test]
    fn roles_come_from_the_claim_in_the_documented_format() {
        let c = claims(json!({"nachfolge_roles": [
            "wahlleiter:musterstadt-rat", "viewer:musterstadt-rat", "viewer:nachbarort-rat",
            "buergermeister:x", "viewer:", "wahlleiter", 7, "viewer:*"
        ]}));
        let (grants, ignored) = grants_from_claims(&c, "nachfolge_roles");
        let pairs: Vec<(&str, &str)> = grants.iter().map(|g| (g.body.as_str(), g.role.as_str())).collect();
        assert_eq!(pairs, [("musterstadt-rat", "wahlleiter"), ("nachbarort-rat", "viewer")]);
        assert_eq!(ignored, 5);
        // admin stands alone and covers every council
        let c = claims(json!({"nachfolge_roles": ["viewer:x", "admin"]}));
        let (grants, _) = grants_from_claims(&c, "nachfolge_roles");
        assert_eq!(grants, [Grant { body: ALL_BODIES.into(), role: "admin".into() }]);
        // one string; a nested claim by a dotted path; a dotted top-level name
        let c = claims(json!({"rolle": "viewer:x", "resource_access": {"nachfolge": {"roles": ["wahlleiter:y"]}},
                              "https://example.org/roles": ["admin"]}));
        assert_eq!(grants_from_claims(&c, "rolle").0[0].body, "x");
        assert_eq!(grants_from_claims(&c, "resource_access.nachfolge.roles").0[0].role, "wahlleiter");
        assert_eq!(grants_from_claims(&c, "https://example.org/roles").0[0].role, "admin");
        assert!(grants_from_claims(&c, "fehlt").0.is_empty());
    }

    #[test]
    fn users_are_recorded_by_sub_with_the_issuer_and_shown_by_name() {
        let c = claims(json!({"iss": ISS, "sub": "2f1c", "preferred_username": "wahlleitung\u{7}"}));
        assert_eq!(login_from_claims(&c), format!("oidc:2f1c@{ISS}"));
        assert_eq!(name_from_claims(&c, "preferred_username"), "wahlleitung");
        assert_eq!(name_from_claims(&c, "email"), "2f1c");
        // a name passed on to another person is another user; the same user renamed stays one
        let other = claims(json!({"iss": ISS, "sub": "9a0b", "preferred_username": "wahlleitung"}));
        assert_ne!(login_from_claims(&other), login_from_claims(&c));
        let renamed = claims(json!({"iss": ISS, "sub": "2f1c", "preferred_username": "neuer-name"}));
        assert_eq!(login_from_claims(&renamed), login_from_claims(&c));
        // the same sub of another issuer is another user
        let elsewhere = claims(json!({"iss": "https://idp.example.org/realms/kreis", "sub": "2f1c"}));
        assert_ne!(login_from_claims(&elsewhere), login_from_claims(&c));
        // nothing is cut: a long sub stays whole
        let long = "x".repeat(255);
        let l = claims(json!({"iss": ISS, "sub": long}));
        assert!(login_from_claims(&l).contains(&long));
    }

    #[test]
    fn pkce_challenge_is_s256_of_the_verifier() {
        // RFC 7636 Appendix B
        let p = Pending {
            state: String::new(),
            nonce: String::new(),
            verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".into(),
        };
        assert_eq!(p.challenge(), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
        let (a, b) = (Pending::new(), Pending::new());
        assert_ne!(a, b);
        assert_eq!(a.verifier.len(), 64);
    }
}
