//! Local accounts: argon2id password hashes (PHC strings) in PostgreSQL, roles per council, the
//! `nachfolge user …` commands, and the sign-in with its throttle.
//!
//! A password is read from standard input or a file, never from the command line (where `ps` and the
//! shell history would show it).

use std::io::Read;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use super::Console;
use crate::config::Config;
use crate::store::{Grant, Store, ALL_BODIES, THROTTLE_ADDRESS, THROTTLE_LOGIN};

/// Shortest password accepted.
pub const MIN_PASSWORD_CHARS: usize = 12;
/// Longest password accepted (hashing is bounded work).
pub const MAX_PASSWORD_BYTES: usize = 1024;

/// The roles of a local account.
pub const ROLES: &[&str] = &["wahlleiter", "viewer", "admin"];

/// Why an account cannot be created or used as asked.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AccountError {
    #[error("login must be 1 to 64 characters of a-z, 0-9, '.', '_', '-' and '@'")]
    Login,
    #[error("unknown role {0:?} (expected wahlleiter, viewer or admin)")]
    Role(String),
    #[error("role {0} needs at least one --body")]
    BodyNeeded(String),
    #[error("role admin covers every council: give no --body")]
    AdminWithBody,
    #[error("role admin covers every council: say so with --all-councils")]
    AdminNeedsAllCouncils,
    #[error("--all-councils is for role admin only; give a wahlleiter or viewer each council with --body")]
    AllCouncilsNotAdmin,
    #[error("{0:?} is not a council id (a body id is 1 to 200 characters, not '*', no control characters; every council is --all-councils with --role admin)")]
    Body(String),
    #[error("the password must have at least {MIN_PASSWORD_CHARS} characters")]
    ShortPassword,
    #[error("the password must have at most {MAX_PASSWORD_BYTES} bytes")]
    LongPassword,
    #[error("no password given (standard input was empty)")]
    NoPassword,
}

/// A login as stored: trimmed, lower case, and of the allowed characters.
pub fn normalise_login(login: &str) -> Result<String, AccountError> {
    let login = login.trim().to_lowercase();
    let ok = !login.is_empty()
        && login.len() <= 64
        && login.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-@".contains(&b));
    if ok {
        Ok(login)
    } else {
        Err(AccountError::Login)
    }
}

/// The grants of `role` for `bodies`. Every council is said explicitly (`all_councils`, the option
/// `--all-councils`) and only for `admin`, which needs it; `wahlleiter` and `viewer` need one or more
/// bodies. A body id is never `*` (the stored mark of every council), empty or with control characters,
/// so that no spelling of a body grants more than that body.
pub fn grants(role: &str, bodies: &[String], all_councils: bool) -> Result<Vec<Grant>, AccountError> {
    let bodies: Vec<String> = bodies.iter().map(|b| b.trim().to_owned()).collect();
    if let Some(bad) =
        bodies.iter().find(|b| b.is_empty() || b.len() > 200 || *b == ALL_BODIES || b.chars().any(char::is_control))
    {
        return Err(AccountError::Body(bad.clone()));
    }
    match role {
        "admin" if !bodies.is_empty() => Err(AccountError::AdminWithBody),
        "admin" if !all_councils => Err(AccountError::AdminNeedsAllCouncils),
        "admin" => Ok(vec![Grant { body: ALL_BODIES.to_owned(), role: "admin".to_owned() }]),
        "wahlleiter" | "viewer" if all_councils => Err(AccountError::AllCouncilsNotAdmin),
        "wahlleiter" | "viewer" if bodies.is_empty() => Err(AccountError::BodyNeeded(role.to_owned())),
        "wahlleiter" | "viewer" => Ok(bodies.into_iter().map(|body| Grant { body, role: role.to_owned() }).collect()),
        other => Err(AccountError::Role(other.to_owned())),
    }
}

/// Checks a new password's length.
pub fn check_password(password: &str) -> Result<(), AccountError> {
    if password.is_empty() {
        Err(AccountError::NoPassword)
    } else if password.len() > MAX_PASSWORD_BYTES {
        Err(AccountError::LongPassword)
    } else if password.chars().count() < MIN_PASSWORD_CHARS {
        Err(AccountError::ShortPassword)
    } else {
        Ok(())
    }
}

/// The argon2id hash of a password as a PHC string (argon2's defaults: m = 19 MiB, t = 2, p = 1).
pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("cannot hash the password: {e}"))
}

/// Whether `password` matches the PHC string `hash`; an unreadable hash matches nothing.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
}

/// A hash no password matches, verified when the login does not exist so that the answer takes as long.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password(&super::session::token()).unwrap_or_default())
}

/// Reads a password: the file's content, or standard input; one trailing line break is dropped.
pub fn read_password(file: Option<&std::path::Path>) -> anyhow::Result<String> {
    let mut text = String::new();
    match file {
        Some(path) => {
            text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        }
        None => {
            use std::io::IsTerminal;
            if std::io::stdin().is_terminal() {
                eprintln!("password (the input is shown; pipe it in or use --password-file to hide it), then Enter:");
                std::io::stdin().read_line(&mut text)?;
            } else {
                std::io::stdin().take(MAX_PASSWORD_BYTES as u64 + 3).read_to_string(&mut text)?;
            }
        }
    }
    let text = text.strip_suffix('\n').unwrap_or(&text);
    let text = text.strip_suffix('\r').unwrap_or(text);
    Ok(text.to_owned())
}

/// `nachfolge user add`: create an account with a role (for one or more councils, or — `admin` with
/// `all_councils` — every council).
pub async fn run_add(
    config: &Config,
    login: &str,
    role: &str,
    bodies: &[String],
    all_councils: bool,
    password_file: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    let login = normalise_login(login)?;
    let grants = grants(role, bodies, all_councils)?;
    let password = read_password(password_file)?;
    check_password(&password)?;
    let hash = tokio::task::spawn_blocking(move || hash_password(&password)).await??;
    let store = Store::connect(&config.database).await?;
    if !store.create_user(&login, &hash, &grants).await? {
        anyhow::bail!("the login exists already (use `nachfolge user grant` or `nachfolge user passwd`)");
    }
    eprintln!("account {login} created ({role})");
    Ok(())
}

/// `nachfolge user grant`: give an existing account a role.
pub async fn run_grant(
    config: &Config,
    login: &str,
    role: &str,
    bodies: &[String],
    all_councils: bool,
) -> anyhow::Result<()> {
    let login = normalise_login(login)?;
    let grants = grants(role, bodies, all_councils)?;
    let store = Store::connect(&config.database).await?;
    if !store.grant(&login, &grants).await? {
        anyhow::bail!("no such account");
    }
    eprintln!("account {login}: role {role} granted");
    Ok(())
}

/// `nachfolge user passwd`: set a new password; the account's sessions end.
pub async fn run_passwd(config: &Config, login: &str, password_file: Option<&std::path::Path>) -> anyhow::Result<()> {
    let login = normalise_login(login)?;
    let password = read_password(password_file)?;
    check_password(&password)?;
    let hash = tokio::task::spawn_blocking(move || hash_password(&password)).await??;
    let store = Store::connect(&config.database).await?;
    if !store.set_password(&login, &hash).await? {
        anyhow::bail!("no such account");
    }
    eprintln!("account {login}: password changed, sessions ended");
    Ok(())
}

/// `nachfolge user delete`: delete an account with its roles and sessions.
pub async fn run_delete(config: &Config, login: &str) -> anyhow::Result<()> {
    let login = normalise_login(login)?;
    let store = Store::connect(&config.database).await?;
    if !store.delete_user(&login).await? {
        anyhow::bail!("no such account");
    }
    eprintln!("account {login} deleted");
    Ok(())
}

/// `nachfolge user list`: every account with its roles (login, role, council; never a hash).
pub async fn run_list(config: &Config) -> anyhow::Result<()> {
    let store = Store::connect(&config.database).await?;
    for (login, grants) in store.users().await? {
        let roles: Vec<String> = grants.iter().map(|g| format!("{}:{}", g.role, g.body)).collect();
        println!("{login}\t{}", roles.join(","));
    }
    Ok(())
}

/// The outcome of a sign-in attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignIn {
    Success,
    /// Wrong login or password (which of the two is not told).
    Failure,
    /// Too many attempts for this login from this client, or from this address: the next one is allowed
    /// after this wait (docs/security.md "Sign-in throttle"); the password was not checked.
    Throttled(std::time::Duration),
}

/// Password checks (argon2id, about 19 MiB and tens of milliseconds of a core each) running at once;
/// further sign-ins wait for a slot, so a crowd of guesses cannot exhaust memory or starve the runtime's
/// blocking pool.
const ARGON2_SLOTS: usize = 4;
static ARGON2: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(ARGON2_SLOTS);

/// Checks a sign-in against the throttle and the stored hash. The attempt is counted against the login
/// (from this client) and the client address *before* the password is checked, so parallel guesses
/// cannot pass the limit. Beyond the free attempts a key waits a growing delay before its next attempt —
/// no lock-out: the same login from another client is not held up, and after the delay the right
/// password signs in (docs/security.md "Sign-in throttle"). On success the login's attempts are forgotten
/// and the address's count of this attempt is taken back.
pub async fn sign_in(
    console: &Console,
    login: &str,
    password: &str,
    address: &str,
) -> Result<SignIn, crate::store::StoreError> {
    let cfg = &console.config;
    let now = console.clock.now();
    let forget_before = now - chrono::Duration::minutes(i64::from(cfg.login_window_minutes));
    // a login of other characters cannot exist; it is throttled all the same (its first 64 characters)
    let login = normalise_login(login).unwrap_or_else(|_| login.trim().to_lowercase().chars().take(64).collect());
    // per login *and client*: a stranger's wrong passwords elsewhere do not lock the real user out
    let login_key = format!("{address}/{login}");
    let keys = [
        (THROTTLE_LOGIN, login_key.as_str(), cfg.login_max_failures),
        (THROTTLE_ADDRESS, address, cfg.address_max_failures),
    ];
    let delays = (cfg.login_delay_seconds, cfg.login_max_delay_seconds);
    if let Some(wait) = console.store.count_sign_in_attempt(&keys, now, forget_before, delays).await? {
        return Ok(SignIn::Throttled(wait));
    }
    let hash = console.store.password_hash(&login).await?;
    let known = hash.is_some();
    let hash = hash.unwrap_or_else(|| dummy_hash().to_owned());
    let password = password.to_owned();
    let matches = password.len() <= MAX_PASSWORD_BYTES && {
        // a closed semaphore is never the case (it is a static); then the check fails closed
        let Ok(_slot) = ARGON2.acquire().await else { return Ok(SignIn::Failure) };
        tokio::task::spawn_blocking(move || verify_password(&password, &hash)).await.unwrap_or(false)
    };
    if known && matches {
        console.store.clear_sign_in_failures(THROTTLE_LOGIN, &login_key).await?;
        console.store.uncount_sign_in_attempt(THROTTLE_ADDRESS, address).await?;
        Ok(SignIn::Success)
    } else {
        Ok(SignIn::Failure)
    }
}

/// The client of a request for the throttle: the TCP peer, or — when the peer is one of
/// `trusted_proxies` — the nearest address of `X-Forwarded-For` that is not a trusted proxy (read from the
/// right: the entries left of it are the client's own word and could be anything). An entry that is not an
/// address there, or none, leaves the peer.
pub fn client_address(
    peer: std::net::IpAddr,
    headers: &axum::http::HeaderMap,
    trusted: &[std::net::IpAddr],
) -> std::net::IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let entries: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    for entry in entries.iter().rev() {
        let ip = entry
            .parse::<std::net::IpAddr>()
            .ok()
            .or_else(|| entry.parse::<std::net::SocketAddr>().ok().map(|s| s.ip()));
        match ip {
            Some(ip) if trusted.contains(&ip) => continue,
            Some(ip) => return ip,
            None => return peer,
        }
    }
    peer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_is_read_from_x_forwarded_for_only_behind_a_trusted_proxy() {
        let ip = |s: &str| s.parse::<std::net::IpAddr>().expect("ip");
        let proxy = ip("10.0.0.5");
        let mut h = axum::http::HeaderMap::new();
        h.insert("x-forwarded-for", "198.51.100.1, 203.0.113.9".parse().expect("header"));
        // not from a trusted proxy: the peer, whatever the header says
        assert_eq!(client_address(ip("192.0.2.7"), &h, &[proxy]), ip("192.0.2.7"));
        assert_eq!(client_address(proxy, &h, &[]), proxy);
        // from the proxy: the rightmost entry (the one the proxy saw); the left one is the client's own word
        assert_eq!(client_address(proxy, &h, &[proxy]), ip("203.0.113.9"));
        // a chain of trusted proxies is skipped
        h.insert("x-forwarded-for", "203.0.113.9, 10.0.0.6".parse().expect("header"));
        assert_eq!(client_address(proxy, &h, &[proxy, ip("10.0.0.6")]), ip("203.0.113.9"));
        // garbage or no header: the peer
        h.insert("x-forwarded-for", "203.0.113.9, unbekannt".parse().expect("header"));
        assert_eq!(client_address(proxy, &h, &[proxy]), proxy);
        assert_eq!(client_address(proxy, &axum::http::HeaderMap::new(), &[proxy]), proxy);
        h.insert("x-forwarded-for", "[2001:db8::1]:4711".parse().expect("header"));
        assert_eq!(client_address(proxy, &h, &[proxy]), ip("2001:db8::1"));
    }

    #[test]
    fn argon2id_hashes_verify_only_their_password() {
        let hash = hash_password("richtig und lang genug").expect("hash");
        assert!(hash.starts_with("$argon2id$v=19$"), "{hash}");
        assert!(verify_password("richtig und lang genug", &hash));
        assert!(!verify_password("falsch und lang genug", &hash));
        assert!(!verify_password("richtig und lang genug", "not a phc string"));
        assert_ne!(hash, hash_password("richtig und lang genug").expect("hash"), "salted");
    }

    #[test]
    fn logins_roles_and_passwords_are_checked() {
        assert_eq!(normalise_login(" Wahlleitung.Rat@Stadt ").as_deref(), Ok("wahlleitung.rat@stadt"));
        assert_eq!(normalise_login(""), Err(AccountError::Login));
        assert_eq!(normalise_login("a b"), Err(AccountError::Login));
        assert_eq!(normalise_login(&"a".repeat(65)), Err(AccountError::Login));
        let rat = vec!["musterstadt-rat".to_owned()];
        assert_eq!(grants("wahlleiter", &rat, false).map(|g| g.len()), Ok(1));
        assert_eq!(grants("viewer", &[], false), Err(AccountError::BodyNeeded("viewer".into())));
        assert_eq!(grants("admin", &rat, true), Err(AccountError::AdminWithBody));
        assert_eq!(grants("admin", &[], true).map(|g| g[0].body.clone()), Ok(ALL_BODIES.to_owned()));
        assert_eq!(grants("root", &rat, false), Err(AccountError::Role("root".into())));
    }

    #[test]
    fn every_council_is_an_explicit_admin_only_option_and_star_is_no_body() {
        // `--body '*'` used to be stored as the mark of every council: a Wahlleitung of all of them
        for role in ["wahlleiter", "viewer", "admin"] {
            for body in ["*", " * ", "", "a\u{7}b"] {
                assert_eq!(
                    grants(role, &[body.to_owned()], false),
                    Err(AccountError::Body(body.trim().to_owned())),
                    "{role} {body:?}"
                );
            }
        }
        assert_eq!(grants("admin", &[], false), Err(AccountError::AdminNeedsAllCouncils));
        assert_eq!(grants("wahlleiter", &[], true), Err(AccountError::AllCouncilsNotAdmin));
        let rat = vec!["musterstadt-rat".to_owned()];
        assert_eq!(grants("viewer", &rat, true), Err(AccountError::AllCouncilsNotAdmin));
        assert_eq!(
            grants("wahlleiter", &[" musterstadt-rat ".to_owned()], false),
            Ok(vec![Grant { body: "musterstadt-rat".into(), role: "wahlleiter".into() }])
        );
        assert_eq!(check_password("kurz"), Err(AccountError::ShortPassword));
        assert_eq!(check_password(""), Err(AccountError::NoPassword));
        assert_eq!(check_password(&"x".repeat(1025)), Err(AccountError::LongPassword));
        assert_eq!(check_password("zwölf Zeichen"), Ok(()));
    }
}
