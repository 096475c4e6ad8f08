//! Configuration: built-in defaults, then a TOML file, then `NACHFOLGE__SECTION__KEY` environment
//! variables.
//!
//! * With an explicit path the file must exist. Without one, [`DEFAULT_PATH`] is read when it exists;
//!   otherwise the built-in defaults apply, so the binary runs with no config file at all.
//! * Every key can be overridden from the environment: `NACHFOLGE__AMQP__URL=amqp://…` sets `amqp.url`.
//!   Section and key names are case-insensitive. Values are typed by the key: numbers and booleans are
//!   parsed, everything else is a string. An empty value resets the key to its built-in default
//!   (except `NACHFOLGE__AMQP__EVENTS_QUEUE=`, which sets no events queue).
//! * `NACHFOLGE__SECTION__KEY_FILE=/path` reads the value from a file (trimmed), for Docker and
//!   Kubernetes secrets.
//! * A key may be a table of its own (`[console.oidc]`): its keys are `NACHFOLGE__CONSOLE__OIDC__ISSUER`
//!   and so on, and a few secrets in it only come from the environment ([`ENV_ONLY`]).
//! * Unknown sections and keys are errors that name the key and where it came from.
//!
//! Secrets (URLs with passwords) must never be logged in clear: the `Debug` output of the sections that
//! hold URLs is redacted with [`redact_url`].
//!
//! **Why not the `config` crate.** It was considered (issue 13) and kept out: it cannot reset a key to its
//! default with an empty variable, does not refuse unknown keys with the variable or file that set them,
//! has no `_FILE` secrets, and types environment values by guessing rather than by the key. Each of these
//! is a documented behaviour operators rely on; the layering here is about 200 lines (`layers.rs`).

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The config file used when no path is given and the file exists (relative to the working directory).
pub const DEFAULT_PATH: &str = "config/default.toml";

/// Prefix of the environment variables that override configuration keys.
pub const ENV_PREFIX: &str = "NACHFOLGE__";

/// Keys an empty environment variable sets to `""` instead of leaving unset: `amqp.events_queue = ""`
/// means "no events queue, consumers bind their own".
const EMPTY_IS_A_VALUE: &[(&str, &str)] = &[("amqp", "events_queue")];

/// Suffix of an environment variable whose value is the path of a file holding the value.
const FILE_SUFFIX: &str = "_file";

/// Secrets that only the environment may set (the variable, or its `_FILE` form), never a file of
/// settings, which is read by more people and kept in more places.
const ENV_ONLY: &[(&str, &str)] = &[("console", "oidc.client_secret")];

/// The whole configuration of the worker.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub amqp: AmqpConfig,
    pub database: DatabaseConfig,
    pub smtp: SmtpConfig,
    pub http: HttpConfig,
    pub console: ConsoleConfig,
    pub clock: ClockConfig,
    pub templates: TemplatesConfig,
    pub worker: WorkerConfig,
    pub rules: RulesConfig,
    pub telemetry: TelemetryConfig,
}

/// RabbitMQ connection and topology.
#[derive(Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct AmqpConfig {
    /// Broker URL (`amqp://` or `amqps://`); may hold a password.
    pub url: String,
    /// Topic exchange the commands arrive on.
    pub commands_exchange: String,
    /// Quorum queue the worker consumes (bound `#` to the commands exchange).
    pub commands_queue: String,
    /// Topic exchange the worker publishes its events to (routing key = event type).
    pub events_exchange: String,
    /// Optional queue bound `#` to the events exchange (declared at start when not empty); empty by
    /// default: consumers declare their own queues.
    pub events_queue: String,
    /// Dead-letter exchange of the commands queue.
    pub dead_letter_exchange: String,
    /// Queue bound to the dead-letter exchange.
    pub dead_letter_queue: String,
    /// Consumer prefetch (unacknowledged deliveries in flight).
    pub prefetch: u16,
    /// Quorum-queue delivery limit before a message is dead-lettered.
    pub delivery_limit: u32,
    /// PEM file of CA certificates trusted for `amqps://` in addition to the built-in webpki roots
    /// (e.g. a private CA); read at every connect. Only allowed with an `amqps://` URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ca_file: Option<PathBuf>,
}

impl Default for AmqpConfig {
    fn default() -> Self {
        Self {
            url: "amqp://guest:guest@127.0.0.1:5672/%2f".to_owned(),
            commands_exchange: "nachfolge.commands".to_owned(),
            commands_queue: "nachfolge.commands".to_owned(),
            events_exchange: "nachfolge.events".to_owned(),
            events_queue: "nachfolge.events".into(),
            dead_letter_exchange: "nachfolge.dead-letter".to_owned(),
            dead_letter_queue: "nachfolge.dead-letter".to_owned(),
            prefetch: 32,
            delivery_limit: 50,
            ca_file: None,
        }
    }
}

impl fmt::Debug for AmqpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AmqpConfig")
            .field("url", &redact_url(&self.url))
            .field("commands_exchange", &self.commands_exchange)
            .field("commands_queue", &self.commands_queue)
            .field("events_exchange", &self.events_exchange)
            .field("events_queue", &self.events_queue)
            .field("dead_letter_exchange", &self.dead_letter_exchange)
            .field("dead_letter_queue", &self.dead_letter_queue)
            .field("prefetch", &self.prefetch)
            .field("delivery_limit", &self.delivery_limit)
            .field("ca_file", &self.ca_file)
            .finish()
    }
}

/// PostgreSQL connection.
#[derive(Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct DatabaseConfig {
    /// Database URL (`postgres://` or `postgresql://`); may hold a password.
    pub url: String,
    /// Size of the connection pool.
    pub max_connections: u32,
    /// Memory for decoded body aggregates between batches, in MiB of their stored JSON (`0`: off). A
    /// body whose row has not changed since is neither read nor decoded again (`store::cache`).
    pub cache_mib: u32,
    /// PEM file of CA certificates trusted for TLS to PostgreSQL in addition to the built-in webpki roots
    /// (e.g. a private CA); read at every new connection. Only allowed with `sslmode=verify-full` or
    /// `verify-ca` in the URL (see `store::tls`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ca_file: Option<PathBuf>,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        Self {
            url: "postgres://postgres@127.0.0.1:5432/nachfolge".to_owned(),
            max_connections: 10,
            cache_mib: 8,
            ca_file: None,
        }
    }
}

impl fmt::Debug for DatabaseConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatabaseConfig")
            .field("url", &redact_url(&self.url))
            .field("max_connections", &self.max_connections)
            .field("cache_mib", &self.cache_mib)
            .field("ca_file", &self.ca_file)
            .finish()
    }
}

/// Outgoing mail.
#[derive(Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct SmtpConfig {
    /// SMTP URL in lettre's syntax (`smtp://`, `smtps://`, `?tls=required`); may hold a password.
    pub url: String,
    /// Sender address (`From:`).
    pub from: String,
    /// Timeout for each SMTP command (connecting with greeting and EHLO, STARTTLS, AUTH, MAIL, RCPT, DATA),
    /// in seconds.
    pub timeout_secs: u64,
    /// Timeout for the server's answer after the message's data, in seconds (RFC 5321 § 4.5.3.2.6 asks
    /// for 10 minutes: a server may check the message before it answers). A timeout here leaves it open
    /// whether the message was taken: it is sent again later, with the same Message-ID.
    pub data_timeout_secs: u64,
    /// How many e-mails are sent at the same time (each on its own SMTP connection, with a lease of its
    /// own): one slow or hanging delivery holds one slot, not the queue. 1–64.
    pub concurrency: u32,
    /// PEM file of CA certificates trusted for SMTP TLS (`smtps://`, `?tls=required`,
    /// `?tls=opportunistic`) in addition to the built-in webpki roots. Only allowed with a TLS URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ca_file: Option<PathBuf>,
}

impl Default for SmtpConfig {
    fn default() -> Self {
        Self {
            url: "smtp://127.0.0.1:1025".to_owned(),
            from: "nachfolge@localhost".to_owned(),
            timeout_secs: 30,
            data_timeout_secs: 600,
            concurrency: 4,
            ca_file: None,
        }
    }
}

impl SmtpConfig {
    /// The timeout of each SMTP command.
    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_secs)
    }
    /// The timeout for the answer after the data.
    pub fn data_timeout(&self) -> Duration {
        Duration::from_secs(self.data_timeout_secs)
    }
}

impl fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The sender is an operator's address, not a personal one, but keep it out of logs anyway.
        f.debug_struct("SmtpConfig")
            .field("url", &redact_url(&self.url))
            .field("from", &"<set>")
            .field("timeout_secs", &self.timeout_secs)
            .field("data_timeout_secs", &self.data_timeout_secs)
            .field("concurrency", &self.concurrency)
            .field("ca_file", &self.ca_file)
            .finish()
    }
}

/// The HTTP endpoints (`/healthz`, `/readyz`, `/metrics`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct HttpConfig {
    /// Listen address, `host:port`.
    pub addr: String,
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self { addr: "127.0.0.1:8080".to_owned() }
    }
}

/// The Wahlleiter console (`src/console/`, docs/console.md): its own listener, sign-in, sessions.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct ConsoleConfig {
    /// Serve the console from `nachfolge run`.
    pub enabled: bool,
    /// Listen address of the console, `host:port`.
    pub addr: String,
    /// Mark the session cookie `Secure` (sent over HTTPS only, cookie name `__Host-nachfolge`). Only for a
    /// console reached over plain HTTP on localhost may this be `false`.
    pub secure_cookie: bool,
    /// A session ends after this many minutes without a request.
    pub session_idle_minutes: u32,
    /// A session ends this many hours after sign-in, however active.
    pub session_max_hours: u32,
    /// Sign-in attempts for one login name from one client (docs/security.md "Sign-in throttle") that are
    /// free; after them each further attempt of that login *from that client* waits a growing delay
    /// (others, and the same login from another client, are not held up).
    pub login_max_failures: u32,
    /// Sign-in attempts from one client address (any login) that are free; beyond them the address's
    /// attempts wait a growing delay as well. A successful sign-in takes its attempt back.
    pub address_max_failures: u32,
    /// The first delay, in seconds, once a key's free attempts are used; it doubles with every further
    /// attempt, up to `login_max_delay_seconds`.
    pub login_delay_seconds: u32,
    /// The longest delay between two attempts of one key, in seconds.
    pub login_max_delay_seconds: u32,
    /// A key (login and client, or address) without an attempt for this many minutes starts again with
    /// its free attempts.
    pub login_window_minutes: u32,
    /// Reverse proxies whose `X-Forwarded-For` names the client (their own addresses, exactly). A request
    /// from another peer is the peer's; empty: `X-Forwarded-For` is never read.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// A running period whose end is at most this many days away is marked as urgent.
    pub urgent_days: u32,
    /// Connections served at once (docs/security.md "The console's listener"); further ones wait in the
    /// listen queue until one ends.
    pub max_connections: u32,
    /// Seconds a client has to send the request head; then the connection is closed.
    pub header_timeout_seconds: u32,
    /// Seconds a client has to send the request body once the head is read; then 408.
    pub body_timeout_seconds: u32,
    /// Largest request head (request line and headers), in bytes; beyond it 431.
    pub max_header_bytes: u32,
    /// Most header fields in a request; beyond it 431.
    pub max_headers: u32,
    /// Largest form body (every POST but the upload), in bytes; beyond it 413.
    pub max_form_bytes: u32,
    /// Largest upload of „Wahlergebnis übernehmen“ (the result files), in bytes; beyond it 413.
    pub max_upload_bytes: u32,
    /// Sign-in through the municipality's identity provider (`[console.oidc]`; off while `issuer` is empty).
    pub oidc: OidcConfig,
}

impl Default for ConsoleConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            addr: "127.0.0.1:8081".to_owned(),
            secure_cookie: true,
            session_idle_minutes: 60,
            session_max_hours: 10,
            login_max_failures: 5,
            address_max_failures: 20,
            login_delay_seconds: 30,
            login_max_delay_seconds: 900,
            login_window_minutes: 60,
            trusted_proxies: Vec::new(),
            urgent_days: 3,
            max_connections: 64,
            header_timeout_seconds: 5,
            body_timeout_seconds: 30,
            max_header_bytes: 8192,
            max_headers: 50,
            max_form_bytes: 64 * 1024,
            max_upload_bytes: crate::console::upload::MAX_UPLOAD_BYTES as u32,
            oidc: OidcConfig::default(),
        }
    }
}

/// Sign-in through an OpenID provider (`[console.oidc]`, docs/console.md "Sign-in through an identity
/// provider"): the authorization code flow with PKCE; the roles per council come from a claim of the ID
/// token. Off while `issuer` is empty; local accounts work either way.
#[derive(Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct OidcConfig {
    /// The issuer identifier (`https://idp.example.org/realms/rathaus`); its discovery document is
    /// `<issuer>/.well-known/openid-configuration`. Empty: no sign-in through a provider.
    pub issuer: String,
    /// The console's client id at the provider.
    pub client_id: String,
    /// The client secret (`client_secret_basic`); only from `NACHFOLGE__CONSOLE__OIDC__CLIENT_SECRET` or
    /// `…_FILE`, never from a file of settings. Empty: a public client (PKCE alone).
    pub client_secret: String,
    /// The console's callback as the browser reaches it: `https://<console>/anmelden/dienstkonto/rueckkehr`,
    /// registered at the provider as the client's redirect URI.
    pub redirect_url: String,
    /// The scopes asked for, separated by spaces (`openid` is added when missing).
    pub scopes: String,
    /// The ID token claim with the roles (`wahlleiter:<body>`, `viewer:<body>`, `admin`); a dotted path
    /// (`resource_access.nachfolge.roles`) reaches into nested objects.
    pub roles_claim: String,
    /// The ID token claim shown and recorded as the user (`oidc:<value>`); `sub` when it is missing.
    pub login_claim: String,
    /// PEM file of CA certificates trusted for the provider's HTTPS in addition to the built-in webpki
    /// roots (a private issuer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ca_file: Option<PathBuf>,
}

impl Default for OidcConfig {
    fn default() -> Self {
        Self {
            issuer: String::new(),
            client_id: String::new(),
            client_secret: String::new(),
            redirect_url: String::new(),
            scopes: "openid profile".to_owned(),
            roles_claim: "nachfolge_roles".to_owned(),
            login_claim: "preferred_username".to_owned(),
            ca_file: None,
        }
    }
}

impl OidcConfig {
    /// Whether sign-in through a provider is configured.
    pub fn enabled(&self) -> bool {
        !self.issuer.trim().is_empty()
    }
}

impl fmt::Debug for OidcConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OidcConfig")
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .field("client_secret", &if self.client_secret.is_empty() { "" } else { "***" })
            .field("redirect_url", &self.redirect_url)
            .field("scopes", &self.scopes)
            .field("roles_claim", &self.roles_claim)
            .field("login_claim", &self.login_claim)
            .field("ca_file", &self.ca_file)
            .finish()
    }
}

/// Keys that were removed, with why: a configuration that still sets one is refused with this message
/// (docs/legal.md, "Service fiction"). A section left with no keys may stay in a file, empty.
pub(super) const REMOVED_KEYS: &[(&str, &str, &str)] = &[(
    "service",
    "email_fiction_days",
    "removed: an e-mail is no formal service (Zustellung) — the fiction of § 5 Abs. 7 LZG NRW / HVwZG holds only for electronic service in a procedure conducted electronically at the recipient's request, with the instruction it requires, which the § 45 KWahlG NRW / § 34 KWG notification is not; the period starts with notification.served. Delete the key (docs/legal.md, \"Service fiction\")",
)];

/// Why a key was removed, if it was.
pub(super) fn removed_key(section: &str, key: &str) -> Option<&'static str> {
    REMOVED_KEYS
        .iter()
        .find(|(s, k, _)| *s == section && (*k == key || key.strip_suffix(FILE_SUFFIX) == Some(*k)))
        .map(|(_, _, why)| *why)
}

/// The worker's clock.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClockConfig {
    /// Shifts the worker's clock by this many seconds (staging and end-to-end tests only).
    pub offset_secs: i64,
}

/// Mail and announcement templates.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct TemplatesConfig {
    /// Directory whose templates override the compiled-in defaults.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dir: Option<PathBuf>,
}

/// Worker loop tuning.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct WorkerConfig {
    /// How long a message naming an unknown body, case or candidate is retried before it is rejected.
    pub unknown_retry_secs: u64,
    /// Largest inbound message body accepted, in bytes.
    pub max_message_bytes: usize,
    /// Outbox rows published per batch.
    pub outbox_batch: u32,
    /// Poll interval of the outbox relay, mail sender and timer loop, in milliseconds.
    pub poll_interval_ms: u64,
    /// Consumer lanes (at most `amqp.prefetch`): messages of one body always go to the same lane, lanes
    /// run concurrently.
    pub lanes: usize,
    /// Most commands applied in one transaction (a lane's waiting messages, due timers).
    pub batch_max: usize,
    /// How long the outbox relay waits after a commit woke it before it reads the outbox, so that the
    /// events of several commits go out in one round, in milliseconds (0: at once).
    pub relay_linger_ms: u64,
}

impl Default for WorkerConfig {
    fn default() -> Self {
        Self {
            unknown_retry_secs: 300,
            max_message_bytes: 4 * 1024 * 1024,
            outbox_batch: 100,
            poll_interval_ms: 500,
            lanes: 4,
            batch_max: 50,
            relay_linger_ms: 10,
        }
    }
}

impl WorkerConfig {
    /// How long a message naming something unknown is retried.
    pub fn unknown_retry(&self) -> Duration {
        Duration::from_secs(self.unknown_retry_secs)
    }

    /// The poll interval of the background loops.
    pub fn poll_interval(&self) -> Duration {
        Duration::from_millis(self.poll_interval_ms)
    }

    /// The outbox relay's wait between a wake-up and its read of the outbox.
    pub fn relay_linger(&self) -> Duration {
        Duration::from_millis(self.relay_linger_ms)
    }
}

/// Trace export.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct TelemetryConfig {
    /// OTLP/HTTP endpoint of an OpenTelemetry collector (`http://collector:4318`, `https://…`); spans go to
    /// `<endpoint>/v1/traces`. Unset: no trace export.
    pub otlp_endpoint: Option<String>,
    /// `service.name` of the exported spans.
    pub service_name: String,
    /// PEM file of CA certificates trusted for an `https://` endpoint in addition to the built-in roots.
    pub ca_file: Option<PathBuf>,
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        TelemetryConfig { otlp_endpoint: None, service_name: "nachfolge".into(), ca_file: None }
    }
}

/// Deployment choices where the statutes leave room: the defaults of the readings a body may set itself
/// (`body.readings` in its snapshot wins; docs/legal.md, "Per-body readings").
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct RulesConfig {
    /// NRW: issue the announcement at determination instead of at the start of membership (default of
    /// `readings.announcement`).
    pub announce_at_determination: bool,
    /// Read the periods of the election statutes as fixed: neither the one-week period nor the objection
    /// period is extended over a Saturday, Sunday or holiday (default of `readings.period_end`).
    pub fixed_end_date: bool,
    /// Hours after the end of a period before the deadline is acted on (deemed acceptance, deemed
    /// refusal, deemed non-acquisition), so that a declaration that reached the Wahlleitung in time but is
    /// entered a little later still counts. The legal effect is dated at the end of the period regardless.
    pub deadline_grace_hours: u32,
}

/// Why the configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("config file {} is not valid TOML (line {line}, column {column}): {message}", path.display())]
    Parse { path: PathBuf, line: usize, column: usize, message: String },
    #[error("unknown configuration key `{key}` (from {origin})")]
    UnknownKey { key: String, origin: String },
    #[error("configuration key `{key}` (from {origin}) was {why}")]
    RemovedKey { key: String, origin: String, why: String },
    #[error("invalid value for configuration key `{key}` (from {origin}): {message}")]
    InvalidValue { key: String, origin: String, message: String },
    #[error("environment variable `{var}` is malformed: expected {ENV_PREFIX}SECTION__KEY")]
    MalformedEnv { var: String },
    #[error("environment variables `{first}` and `{second}` both set configuration key `{key}`")]
    ConflictingEnv { key: String, first: String, second: String },
    #[error("cannot read the file named by environment variable `{var}` ({}): {source}", path.display())]
    SecretFile {
        var: String,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("environment variable `{var}` is not valid UTF-8")]
    NotUnicode { var: String },
}

/// Where a configuration value came from, for error messages.
#[derive(Debug, Clone)]
enum Origin {
    File(PathBuf),
    Env(String),
    Validation,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::File(path) => write!(f, "file {}", path.display()),
            Origin::Env(var) => write!(f, "environment variable {var}"),
            Origin::Validation => f.write_str("validation"),
        }
    }
}

mod layers;
mod redact;
#[cfg(test)]
mod tests;
mod validate;

use layers::*;
pub use redact::redact_url;

/// The known sections and keys, each with its default value (JSON `null` for optional keys).
/// The known sections and keys, each with its default value (JSON `null` for optional keys).
type Schema = BTreeMap<String, BTreeMap<String, serde_json::Value>>;

impl Config {
    /// Loads the configuration from defaults, the file and the process environment.
    ///
    /// With `path = None`, [`DEFAULT_PATH`] is read when it exists.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let mut env = Vec::new();
        for (name, value) in std::env::vars_os() {
            let Some(name) = name.to_str() else { continue };
            if !has_env_prefix(name) {
                continue;
            }
            match value.into_string() {
                Ok(value) => env.push((name.to_owned(), value)),
                Err(_) => return Err(ConfigError::NotUnicode { var: name.to_owned() }),
            }
        }
        Self::from_env_and_file(path, env)
    }

    /// Loads the configuration from defaults, the file and the given environment (testable form of
    /// [`Config::load`]). Variables without the `NACHFOLGE__` prefix are ignored.
    pub fn from_env_and_file(
        path: Option<&Path>,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        let schema = schema();
        let mut table = toml::Table::new();

        let file = match path {
            Some(path) => Some(path.to_path_buf()),
            None => {
                let default = PathBuf::from(DEFAULT_PATH);
                default.is_file().then_some(default)
            }
        };
        if let Some(path) = file {
            merge_file(&schema, &mut table, &path)?;
        }
        merge_env(&schema, &mut table, env)?;

        let config: Config =
            toml::Value::Table(table).try_into().map_err(|e: toml::de::Error| ConfigError::InvalidValue {
                key: "<config>".to_owned(),
                origin: Origin::Validation.to_string(),
                message: e.message().to_owned(),
            })?;
        config.validate()?;
        Ok(config)
    }
}
