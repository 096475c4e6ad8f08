//! The Wahlleiter console: German web pages, served by `nachfolge run` on a listener of its own
//! (`console.addr`), behind sign-in with local accounts (docs/console.md).
//!
//! * [`routes`] — the paths, and the layers every request passes: security headers, the session, the
//!   CSRF check of every POST;
//! * [`auth`] — local accounts: argon2id hashes, `nachfolge user …`, the sign-in throttle;
//! * [`oidc`], [`oidc_flow`], [`jws`] — sign-in through the municipality's identity provider (OpenID
//!   Connect, authorization code with PKCE; the ID token's signature checked with ring), roles per council
//!   from a claim;
//! * [`session`] — server-side sessions in PostgreSQL, the cookies;
//! * [`csrf`] — the form token checked on every POST (the sign-in form and the actions);
//! * [`pages`] — the handlers: sign-in, councils, a council (Nachrückerliste, open cases), a case (history),
//!   and the JSON reads `/bodies/{id}` that moved here from the operations listener;
//! * [`calendar`] — a case's running period as an iCalendar entry (`…/frist.ics`);
//! * [`documents`] — the letter to the successor for service (`…/schreiben.pdf`) and the announcements
//!   (`…/bekanntmachung/{n}.pdf`, `.txt`), laid out by [`crate::letter`];
//! * [`actions`] — the Wahlleitung's entries (service, a declaration, a fact, a vacancy, a lot, a confirmation,
//!   a review decision, a bar's proof): the same inbound command the bus
//!   carries, previewed by a dry run of the core and applied through [`Store::apply_batch`];
//! * [`election`] — „Wahlergebnis übernehmen“: the published result files uploaded ([`upload`], a bounded
//!   multipart parser), imported with [`nachfolge_import`], previewed, corrected and registered as
//!   `election.registered` through the command path;
//! * [`views`] — the minijinja templates under `config/templates/console/` and what they are given.
//!
//! The console reads what the worker stored and asks the core (`Council::succession_order`,
//! `deadline::working_days_left`, the German words of `texts`); it applies no election law of its own and
//! writes procedure state only as the bus does: an action is an inbound command applied by the store's
//! batch path (validation by the core, the inbox's deduplication, audit log, outbox). Logs carry no login names, addresses or names of persons.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use crate::config::ConsoleConfig;
use crate::metrics::Metrics;
use crate::store::Store;
use crate::worker::Clock;

pub mod actions;
pub mod auth;
pub mod calendar;
pub mod csrf;
pub mod documents;
pub mod election;
pub mod jws;
pub mod oidc;
pub mod oidc_flow;
pub mod pages;
pub mod routes;
pub mod session;
pub mod upload;
pub mod views;

/// Counter of sign-in attempts by outcome (`success`, `failure`, `throttled`).
pub const SIGN_INS_METRIC: &str = "nachfolge_console_sign_ins_total";

/// What the console's handlers share.
#[derive(Clone)]
pub struct Console(Arc<Inner>);

pub struct Inner {
    pub config: ConsoleConfig,
    pub store: Store,
    pub clock: Arc<Clock>,
    pub metrics: Arc<Metrics>,
    pub views: views::Views,
    /// The procedure settings and templates the worker applies commands with (the actions use the same).
    pub settings: crate::procedure::Settings,
    pub templates: crate::templates::Templates,
    /// Called after an action committed: wakes the worker's outbox relay and mail sender.
    pub on_applied: Option<Waker>,
    /// The identity provider, when `console.oidc.issuer` is set.
    pub oidc: Option<oidc::Oidc>,
}

/// What the console calls after an action committed.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

impl std::ops::Deref for Console {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl Console {
    /// The console over `store`; its templates are the built-in ones, overridden by files of the same name
    /// under `templates_dir/console/`. Fails on a bad template or an unreadable `console.oidc.ca_file`.
    pub fn new(
        config: ConsoleConfig,
        templates_dir: Option<&Path>,
        store: Store,
        clock: Arc<Clock>,
        metrics: Arc<Metrics>,
        settings: crate::procedure::Settings,
        on_applied: Option<Waker>,
    ) -> anyhow::Result<Console> {
        metrics.help(SIGN_INS_METRIC, "Sign-in attempts at the console, by outcome.");
        metrics.help(actions::ACTIONS_METRIC, "Actions entered at the console, by type and outcome.");
        metrics.help(oidc::METRIC, "Sign-ins at the console through the identity provider, by outcome.");
        let views = views::Views::load(templates_dir)?;
        let templates = crate::templates::Templates::load(templates_dir)?;
        let oidc = if config.oidc.enabled() { Some(oidc::Oidc::new(&config.oidc)?) } else { None };
        Ok(Console(Arc::new(Inner { config, store, clock, metrics, views, settings, templates, on_applied, oidc })))
    }
}

/// Seconds a console connection has, beyond the times for its head and body, for the handler and for sending
/// its answer; then it is closed ([`crate::http::Limits::connection_timeout`]).
pub const ANSWER_SECONDS: u64 = 120;

/// Serves the console on `listener` until `shutdown` completes (as the operations endpoints are served:
/// [`crate::http::serve_router`]).
pub async fn serve(
    listener: tokio::net::TcpListener,
    console: Console,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let c = &console.config;
    // hyper reads up to twice the configured head and header count, so that the console answers a head
    // above its limits with its own German page (routes::limits); beyond that hyper's bare 431
    let limits = crate::http::Limits {
        max_connections: c.max_connections as usize,
        head_timeout: std::time::Duration::from_secs(u64::from(c.header_timeout_seconds)),
        max_head_bytes: 2 * c.max_header_bytes as usize,
        max_headers: 2 * c.max_headers as usize,
        // head and body in their own times, then the handler and the answer (docs/security.md § 4b)
        connection_timeout: std::time::Duration::from_secs(
            u64::from(c.header_timeout_seconds) + u64::from(c.body_timeout_seconds) + ANSWER_SECONDS,
        ),
    };
    // expired import previews hold a whole election's personal data: swept at the start and then every few
    // minutes, on every replica (the delete is idempotent; docs/security.md)
    let sweeper = tokio::spawn(sweep_previews(console.store.clone()));
    crate::http::serve_router(listener, routes::router(console), "console", limits, shutdown).await;
    sweeper.abort();
}

/// How often the console deletes the import previews whose hour has passed
/// ([`Store::drop_expired_import_previews`]).
pub const PREVIEW_SWEEP: std::time::Duration = std::time::Duration::from_secs(300);

async fn sweep_previews(store: Store) {
    let mut every = tokio::time::interval(PREVIEW_SWEEP);
    loop {
        every.tick().await;
        match store.drop_expired_import_previews(election::PENDING_TTL).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(deleted = n, "expired import previews deleted"),
            Err(error) => tracing::warn!(%error, "expired import previews not deleted; the next sweep tries again"),
        }
    }
}

/// Whether `addr` (`host:port`) names a loopback address (`127.0.0.0/8`, `::1`, `localhost`), where a
/// session cookie without `Secure` is allowed (`console.secure_cookie = false`).
pub fn is_loopback_addr(addr: &str) -> bool {
    if let Ok(a) = addr.trim().parse::<SocketAddr>() {
        return a.ip().is_loopback();
    }
    addr.trim().rsplit_once(':').is_some_and(|(host, _)| host.eq_ignore_ascii_case("localhost"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_addresses() {
        for a in ["127.0.0.1:8081", "127.0.0.2:1", "[::1]:8081", "localhost:8081", "LOCALHOST:1"] {
            assert!(is_loopback_addr(a), "{a}");
        }
        for a in ["0.0.0.0:8081", "10.0.0.1:80", "[::]:8081", "example.org:443", "", "localhost"] {
            assert!(!is_loopback_addr(a), "{a}");
        }
    }
}
