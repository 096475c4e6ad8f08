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
//! * Unknown sections and keys are errors that name the key and where it came from.
//!
//! Secrets (URLs with passwords) must never be logged in clear: the `Debug` output of the sections that
//! hold URLs is redacted with [`redact_url`].

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

/// The whole configuration of the worker.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub amqp: AmqpConfig,
    pub database: DatabaseConfig,
    pub smtp: SmtpConfig,
    pub http: HttpConfig,
    pub service: ServiceConfig,
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
    /// PEM file of CA certificates trusted for TLS to PostgreSQL in addition to the built-in webpki roots
    /// (e.g. a private CA); read at every new connection. Only allowed with `sslmode=verify-full` or
    /// `verify-ca` in the URL (see `store::tls`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ca_file: Option<PathBuf>,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        Self { url: "postgres://postgres@127.0.0.1:5432/nachfolge".to_owned(), max_connections: 10, ca_file: None }
    }
}

impl fmt::Debug for DatabaseConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatabaseConfig")
            .field("url", &redact_url(&self.url))
            .field("max_connections", &self.max_connections)
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
    /// Timeout for one send, in seconds.
    pub timeout_secs: u64,
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
            ca_file: None,
        }
    }
}

impl SmtpConfig {
    /// The timeout for one send.
    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_secs)
    }
}

impl fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The sender is an operator's address, not a personal one, but keep it out of logs anyway.
        f.debug_struct("SmtpConfig")
            .field("url", &redact_url(&self.url))
            .field("from", &"<set>")
            .field("timeout_secs", &self.timeout_secs)
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

/// Service of the notification.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServiceConfig {
    /// Unset: no deadline runs until `notification.served`. `Some(n)`: the e-mail counts as served
    /// `n` days after sending.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email_fiction_days: Option<u32>,
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
    /// OTLP/HTTP endpoint of an OpenTelemetry collector (`http://collector:4318`); unset: no trace export.
    pub otlp_endpoint: Option<String>,
    /// `service.name` of the exported spans.
    pub service_name: String,
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        TelemetryConfig { otlp_endpoint: None, service_name: "nachfolge".into() }
    }
}

/// Deployment choices where the statutes leave room.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct RulesConfig {
    /// NRW: issue the announcement at determination instead of at the start of membership.
    pub announce_at_determination: bool,
    /// § 31 Abs. 3 Satz 2 VwVfG: the notification names a fixed end date for the deadline.
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

    /// Checks the values that the types alone do not constrain.
    pub fn validate(&self) -> Result<(), ConfigError> {
        fn invalid(key: &str, message: &str) -> ConfigError {
            ConfigError::InvalidValue {
                key: key.to_owned(),
                origin: Origin::Validation.to_string(),
                message: message.to_owned(),
            }
        }
        fn has_scheme(url: &str, schemes: &[&str]) -> bool {
            url.split_once("://").is_some_and(|(scheme, rest)| {
                !rest.is_empty() && schemes.iter().any(|s| scheme.eq_ignore_ascii_case(s))
            })
        }

        if !has_scheme(&self.amqp.url, &["amqp", "amqps"]) {
            return Err(invalid("amqp.url", "expected an amqp:// or amqps:// URL"));
        }
        for (key, name) in [
            ("amqp.commands_exchange", &self.amqp.commands_exchange),
            ("amqp.commands_queue", &self.amqp.commands_queue),
            ("amqp.events_exchange", &self.amqp.events_exchange),
            ("amqp.dead_letter_exchange", &self.amqp.dead_letter_exchange),
            ("amqp.dead_letter_queue", &self.amqp.dead_letter_queue),
        ] {
            if name.trim().is_empty() {
                return Err(invalid(key, "must not be empty"));
            }
        }
        if self.amqp.prefetch == 0 {
            return Err(invalid("amqp.prefetch", "must be at least 1"));
        }
        if self.amqp.delivery_limit == 0 {
            return Err(invalid("amqp.delivery_limit", "must be at least 1"));
        }
        if !has_scheme(&self.database.url, &["postgres", "postgresql"]) {
            return Err(invalid("database.url", "expected a postgres:// or postgresql:// URL"));
        }
        if self.database.max_connections == 0 {
            return Err(invalid("database.max_connections", "must be at least 1"));
        }
        // sslmode and the CA: `database.ca_file` only with sslmode=verify-full/verify-ca (src/store/tls.rs).
        crate::store::tls::validate(&self.database).map_err(|(key, message)| invalid(key, &message))?;
        if !has_scheme(&self.smtp.url, &["smtp", "smtps"]) {
            return Err(invalid("smtp.url", "expected an smtp:// or smtps:// URL"));
        }
        if !self.smtp.from.contains('@') {
            return Err(invalid("smtp.from", "expected an e-mail address"));
        }
        if self.smtp.timeout_secs == 0 {
            return Err(invalid("smtp.timeout_secs", "must be at least 1"));
        }
        // A CA file with a plaintext URL would suggest an encryption that does not happen.
        if self.amqp.ca_file.is_some() && !has_scheme(&self.amqp.url, &["amqps"]) {
            return Err(invalid("amqp.ca_file", "is only used with TLS: amqp.url must be an amqps:// URL"));
        }
        if self.smtp.ca_file.is_some() && crate::mail::url_tls(&self.smtp.url).is_none() {
            return Err(invalid(
                "smtp.ca_file",
                "is only used with TLS: smtp.url must be smtps://… or smtp://…?tls=required",
            ));
        }
        if self.http.addr.trim().is_empty() {
            return Err(invalid("http.addr", "must not be empty"));
        }
        if self.worker.max_message_bytes == 0 {
            return Err(invalid("worker.max_message_bytes", "must be at least 1"));
        }
        if self.worker.outbox_batch == 0 {
            return Err(invalid("worker.outbox_batch", "must be at least 1"));
        }
        if self.worker.poll_interval_ms == 0 {
            return Err(invalid("worker.poll_interval_ms", "must be at least 1"));
        }
        if self.worker.relay_linger_ms > self.worker.poll_interval_ms {
            return Err(invalid("worker.relay_linger_ms", "must not exceed worker.poll_interval_ms"));
        }
        if chrono::TimeDelta::try_seconds(self.clock.offset_secs).is_none() {
            return Err(invalid("clock.offset_secs", "out of range"));
        }
        Ok(())
    }
}

/// The known sections and keys with their defaults, derived from [`Config::default`].
fn schema() -> Schema {
    let mut schema = Schema::new();
    // Serializing plain strings, numbers and booleans cannot fail; an empty schema would only make
    // every key "unknown", which the tests catch.
    if let Ok(serde_json::Value::Object(sections)) = serde_json::to_value(Config::default()) {
        for (section, keys) in sections {
            if let serde_json::Value::Object(keys) = keys {
                schema.insert(section, keys.into_iter().collect());
            }
        }
    }
    // Optional keys are skipped when `None`; they are known all the same.
    for (section, key) in [
        ("service", "email_fiction_days"),
        ("templates", "dir"),
        ("amqp", "ca_file"),
        ("database", "ca_file"),
        ("smtp", "ca_file"),
        ("telemetry", "otlp_endpoint"),
    ] {
        schema.entry(section.to_owned()).or_default().entry(key.to_owned()).or_insert(serde_json::Value::Null);
    }
    schema
}

/// Checks that one value deserializes for its key; returns the deserializer's message otherwise.
fn check_value(section: &str, key: &str, value: &toml::Value) -> Result<(), String> {
    let mut inner = toml::Table::new();
    inner.insert(key.to_owned(), value.clone());
    let mut outer = toml::Table::new();
    outer.insert(section.to_owned(), toml::Value::Table(inner));
    toml::Value::Table(outer).try_into::<Config>().map(|_| ()).map_err(|e| e.message().to_owned())
}

fn set_value(table: &mut toml::Table, section: &str, key: &str, value: toml::Value) {
    let entry = table.entry(section.to_owned()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if let toml::Value::Table(inner) = entry {
        inner.insert(key.to_owned(), value);
    }
}

fn remove_value(table: &mut toml::Table, section: &str, key: &str) {
    if let Some(toml::Value::Table(inner)) = table.get_mut(section) {
        inner.remove(key);
    }
}

fn merge_file(schema: &Schema, table: &mut toml::Table, path: &Path) -> Result<(), ConfigError> {
    let text =
        std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: path.to_path_buf(), source })?;
    let parsed: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        // Report position and message only: the offending line may hold a secret.
        let (line, column) = e.span().map(|span| line_column(&text, span.start)).unwrap_or((0, 0));
        ConfigError::Parse { path: path.to_path_buf(), line, column, message: e.message().to_owned() }
    })?;
    let origin = Origin::File(path.to_path_buf());
    for (section, value) in parsed {
        let Some(keys) = schema.get(&section) else {
            return Err(ConfigError::UnknownKey { key: section, origin: origin.to_string() });
        };
        let toml::Value::Table(inner) = value else {
            return Err(ConfigError::InvalidValue {
                key: section,
                origin: origin.to_string(),
                message: "expected a table".to_owned(),
            });
        };
        for (key, value) in inner {
            if !keys.contains_key(&key) {
                return Err(ConfigError::UnknownKey { key: format!("{section}.{key}"), origin: origin.to_string() });
            }
            check_value(&section, &key, &value).map_err(|message| ConfigError::InvalidValue {
                key: format!("{section}.{key}"),
                origin: origin.to_string(),
                message,
            })?;
            set_value(table, &section, &key, value);
        }
    }
    Ok(())
}

fn has_env_prefix(name: &str) -> bool {
    name.get(..ENV_PREFIX.len()).is_some_and(|p| p.eq_ignore_ascii_case(ENV_PREFIX))
}

/// One environment override, before its value is typed.
struct EnvOverride {
    var: String,
    raw: String,
}

fn merge_env(
    schema: &Schema,
    table: &mut toml::Table,
    env: impl IntoIterator<Item = (String, String)>,
) -> Result<(), ConfigError> {
    let mut overrides: BTreeMap<(String, String), EnvOverride> = BTreeMap::new();
    for (var, value) in env {
        if !has_env_prefix(&var) {
            continue;
        }
        let rest = &var[ENV_PREFIX.len()..];
        let mut parts = rest.split("__");
        let (Some(section), Some(key), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(ConfigError::MalformedEnv { var });
        };
        if section.is_empty() || key.is_empty() {
            return Err(ConfigError::MalformedEnv { var });
        }
        let section = section.to_ascii_lowercase();
        let key = key.to_ascii_lowercase();
        let Some(keys) = schema.get(&section) else {
            return Err(ConfigError::UnknownKey { key: section, origin: Origin::Env(var).to_string() });
        };
        let (key, raw) = if keys.contains_key(&key) {
            (key, value)
        } else if let Some(base) = key.strip_suffix(FILE_SUFFIX).filter(|base| keys.contains_key(*base)) {
            let path = PathBuf::from(&value);
            let content = std::fs::read_to_string(&path).map_err(|source| ConfigError::SecretFile {
                var: var.clone(),
                path,
                source,
            })?;
            (base.to_owned(), content.trim().to_owned())
        } else {
            return Err(ConfigError::UnknownKey {
                key: format!("{section}.{key}"),
                origin: Origin::Env(var).to_string(),
            });
        };
        if let Some(previous) = overrides.get(&(section.clone(), key.clone())) {
            return Err(ConfigError::ConflictingEnv {
                key: format!("{section}.{key}"),
                first: previous.var.clone(),
                second: var,
            });
        }
        overrides.insert((section, key), EnvOverride { var, raw });
    }

    for ((section, key), EnvOverride { var, raw }) in overrides {
        // an empty variable means "not set" — except where the empty string is a value of its own
        if raw.is_empty() && !EMPTY_IS_A_VALUE.contains(&(section.as_str(), key.as_str())) {
            remove_value(table, &section, &key);
            continue;
        }
        let default = schema.get(&section).and_then(|keys| keys.get(&key)).unwrap_or(&serde_json::Value::Null);
        let candidates = typed_candidates(default, &raw);
        // Report the error of the most specific reading (e.g. "out of range" for a number).
        let mut first_error: Option<String> = None;
        let mut accepted = None;
        for candidate in candidates {
            match check_value(&section, &key, &candidate) {
                Ok(()) => {
                    accepted = Some(candidate);
                    break;
                }
                Err(message) => {
                    first_error.get_or_insert(message);
                }
            }
        }
        let Some(value) = accepted else {
            return Err(ConfigError::InvalidValue {
                key: format!("{section}.{key}"),
                origin: Origin::Env(var).to_string(),
                message: first_error.unwrap_or_default(),
            });
        };
        set_value(table, &section, &key, value);
    }
    Ok(())
}

/// The TOML values an environment string may stand for, most specific first, typed by the key's
/// default value.
fn typed_candidates(default: &serde_json::Value, raw: &str) -> Vec<toml::Value> {
    let trimmed = raw.trim();
    let integer = trimmed.parse::<i64>().ok().map(toml::Value::Integer);
    let boolean = if trimmed.eq_ignore_ascii_case("true") {
        Some(toml::Value::Boolean(true))
    } else if trimmed.eq_ignore_ascii_case("false") {
        Some(toml::Value::Boolean(false))
    } else {
        None
    };
    let string = toml::Value::String(raw.to_owned());
    match default {
        serde_json::Value::String(_) => vec![string],
        serde_json::Value::Number(_) => integer.into_iter().chain([string]).collect(),
        serde_json::Value::Bool(_) => boolean.into_iter().chain([string]).collect(),
        _ => integer.into_iter().chain(boolean).chain([string]).collect(),
    }
}

/// 1-based line and column of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Hides the password of a URL (and query parameters that look like secrets) so it can be logged.
///
/// `amqp://guest:guest@host:5672/%2f` → `amqp://guest:***@host:5672/%2f`;
/// `postgres://host/db?password=x` → `postgres://host/db?password=***`.
pub fn redact_url(url: &str) -> String {
    const MASK: &str = "***";
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, url),
    };

    // The query and fragment start at the first `?` or `#`; user info ends at the last `@` before.
    let tail_start = rest.find(['?', '#']).unwrap_or(rest.len());
    let (main, tail) = rest.split_at(tail_start);
    let main = match main.rfind('@') {
        Some(at) => {
            let (userinfo, host) = main.split_at(at);
            match userinfo.split_once(':') {
                Some((user, _password)) => format!("{user}:{MASK}{host}"),
                None if scheme.is_none() => format!("{MASK}{host}"),
                None => format!("{userinfo}{host}"),
            }
        }
        None => main.to_owned(),
    };

    let tail = match tail.strip_prefix('?') {
        Some(query_and_fragment) => {
            let (query, fragment) = match query_and_fragment.split_once('#') {
                Some((q, f)) => (q, Some(f)),
                None => (query_and_fragment, None),
            };
            let query = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((name, _)) if is_secret_param(name) => format!("{name}={MASK}"),
                    _ => pair.to_owned(),
                })
                .collect::<Vec<_>>()
                .join("&");
            match fragment {
                Some(fragment) => format!("?{query}#{fragment}"),
                None => format!("?{query}"),
            }
        }
        None => tail.to_owned(),
    };

    match scheme {
        Some(scheme) => format!("{scheme}://{main}{tail}"),
        None => format!("{main}{tail}"),
    }
}

fn is_secret_param(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    ["pass", "secret", "token", "key", "auth", "credential"].iter().any(|needle| name.contains(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    fn default_toml_path() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_PATH)
    }

    fn temp_file(name: &str, content: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("nachfolge-config-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        let path = dir.join(name);
        std::fs::write(&path, content).expect("write temp file");
        path
    }

    #[test]
    fn default_toml_equals_built_in_defaults() {
        let path = default_toml_path();
        let from_file = Config::from_env_and_file(Some(&path), Vec::new()).expect("load default.toml");
        assert_eq!(from_file, Config::default());

        // Every known key is present in the file (optional ones as comments).
        let text = std::fs::read_to_string(&path).expect("read default.toml");
        for (section, keys) in schema() {
            assert!(text.contains(&format!("[{section}]")), "section {section} missing");
            for key in keys.keys() {
                assert!(text.contains(&format!("{key} =")), "key {section}.{key} missing");
            }
        }
    }

    #[test]
    fn built_in_defaults_are_valid() {
        Config::default().validate().expect("defaults validate");
        let config = Config::from_env_and_file(Some(&default_toml_path()), Vec::new()).expect("load");
        assert_eq!(config.amqp.prefetch, 32);
        assert_eq!(config.service.email_fiction_days, None);
        assert_eq!(config.templates.dir, None);
    }

    #[test]
    fn explicit_missing_file_is_an_error() {
        let err = Config::from_env_and_file(Some(Path::new("/nonexistent/nachfolge.toml")), Vec::new())
            .expect_err("missing file");
        assert!(matches!(err, ConfigError::Read { .. }), "{err}");
        assert!(err.to_string().contains("/nonexistent/nachfolge.toml"), "{err}");
    }

    #[test]
    fn env_overrides_nested_keys_case_insensitively() {
        let config = Config::from_env_and_file(
            Some(&default_toml_path()),
            env(&[
                ("NACHFOLGE__AMQP__URL", "amqps://u:p@broker:5671/vh"),
                ("nachfolge__amqp__prefetch", "7"),
                ("NACHFOLGE__Service__Email_Fiction_Days", "3"),
                ("NACHFOLGE__RULES__FIXED_END_DATE", "TRUE"),
                ("NACHFOLGE__CLOCK__OFFSET_SECS", "-3600"),
                ("NACHFOLGE__TEMPLATES__DIR", "/etc/nachfolge/templates"),
                ("NACHFOLGE__SMTP__FROM", "wahlamt@example.org"),
                ("UNRELATED", "x"),
            ]),
        )
        .expect("load");
        assert_eq!(config.amqp.url, "amqps://u:p@broker:5671/vh");
        assert_eq!(config.amqp.prefetch, 7);
        assert_eq!(config.service.email_fiction_days, Some(3));
        assert!(config.rules.fixed_end_date);
        assert_eq!(config.clock.offset_secs, -3600);
        assert_eq!(config.templates.dir.as_deref(), Some(Path::new("/etc/nachfolge/templates")));
        assert_eq!(config.smtp.from, "wahlamt@example.org");
        // Untouched keys keep their defaults.
        assert_eq!(config.amqp.commands_queue, "nachfolge.commands");
    }

    #[test]
    fn env_overrides_the_file_and_empty_resets() {
        let path = temp_file(
            "override.toml",
            "[worker]\npoll_interval_ms = 50\noutbox_batch = 5\n[http]\naddr = \"0.0.0.0:9000\"\n",
        );
        let config = Config::from_env_and_file(
            Some(&path),
            env(&[("NACHFOLGE__WORKER__POLL_INTERVAL_MS", "75"), ("NACHFOLGE__HTTP__ADDR", "")]),
        )
        .expect("load");
        assert_eq!(config.worker.poll_interval_ms, 75);
        assert_eq!(config.worker.outbox_batch, 5);
        assert_eq!(config.http.addr, "127.0.0.1:8080");
    }

    #[test]
    fn empty_events_queue_from_the_environment_means_no_events_queue() {
        let config =
            Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__AMQP__EVENTS_QUEUE", "")])).expect("load");
        assert_eq!(config.amqp.events_queue, "");
        let config = Config::from_env_and_file(None::<&Path>, env(&[])).expect("load");
        assert_eq!(config.amqp.events_queue, "nachfolge.events");
    }

    #[test]
    fn numeric_looking_strings_stay_strings() {
        let config = Config::from_env_and_file(
            None::<&Path>,
            env(&[("NACHFOLGE__TEMPLATES__DIR", "2024"), ("NACHFOLGE__AMQP__COMMANDS_QUEUE", "42")]),
        )
        .expect("load");
        assert_eq!(config.templates.dir.as_deref(), Some(Path::new("2024")));
        assert_eq!(config.amqp.commands_queue, "42");
    }

    #[test]
    fn file_suffix_reads_a_secret_file() {
        let secret = temp_file("db-url", "postgres://app:s3cret@db:5432/nachfolge\n");
        let config = Config::from_env_and_file(
            None::<&Path>,
            env(&[("NACHFOLGE__DATABASE__URL_FILE", secret.to_str().expect("utf-8 path"))]),
        )
        .expect("load");
        assert_eq!(config.database.url, "postgres://app:s3cret@db:5432/nachfolge");
        // Debug output never shows the password.
        let debug = format!("{config:?}");
        assert!(!debug.contains("s3cret"), "{debug}");
        assert!(!debug.contains("guest:guest"), "{debug}");
    }

    #[test]
    fn missing_secret_file_names_the_variable() {
        let err =
            Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__SMTP__URL_FILE", "/nonexistent/secret")]))
                .expect_err("missing secret file");
        assert!(err.to_string().contains("NACHFOLGE__SMTP__URL_FILE"), "{err}");
    }

    #[test]
    fn value_and_file_variant_conflict() {
        let secret = temp_file("amqp-url", "amqp://a:b@c/d");
        let err = Config::from_env_and_file(
            None::<&Path>,
            env(&[
                ("NACHFOLGE__AMQP__URL", "amqp://x/y"),
                ("NACHFOLGE__AMQP__URL_FILE", secret.to_str().expect("utf-8 path")),
            ]),
        )
        .expect_err("conflict");
        assert!(matches!(err, ConfigError::ConflictingEnv { .. }), "{err}");
    }

    #[test]
    fn unknown_keys_are_errors_naming_the_key() {
        let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__AMQP__PREFTCH", "3")]))
            .expect_err("unknown env key");
        assert!(matches!(err, ConfigError::UnknownKey { .. }), "{err}");
        let text = err.to_string();
        assert!(text.contains("amqp.preftch"), "{text}");
        assert!(text.contains("NACHFOLGE__AMQP__PREFTCH"), "{text}");

        let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__NOPE__URL", "x")]))
            .expect_err("unknown env section");
        assert!(err.to_string().contains("`nope`"), "{err}");

        let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__AMQP", "x")])).expect_err("malformed");
        assert!(matches!(err, ConfigError::MalformedEnv { .. }), "{err}");

        let path = temp_file("unknown.toml", "[smtp]\nurl = \"smtp://x:25\"\nsender = \"a@b\"\n");
        let err = Config::from_env_and_file(Some(&path), Vec::new()).expect_err("unknown file key");
        let text = err.to_string();
        assert!(text.contains("smtp.sender"), "{text}");
        assert!(text.contains("unknown.toml"), "{text}");

        let path = temp_file("unknown-section.toml", "[mail]\nurl = \"smtp://x:25\"\n");
        let err = Config::from_env_and_file(Some(&path), Vec::new()).expect_err("unknown section");
        assert!(err.to_string().contains("`mail`"), "{err}");
    }

    #[test]
    fn bad_types_are_errors_naming_the_key() {
        let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__AMQP__PREFETCH", "many")]))
            .expect_err("bad env type");
        assert!(matches!(err, ConfigError::InvalidValue { .. }), "{err}");
        let text = err.to_string();
        assert!(text.contains("amqp.prefetch"), "{text}");
        assert!(text.contains("NACHFOLGE__AMQP__PREFETCH"), "{text}");

        let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__AMQP__PREFETCH", "70000")]))
            .expect_err("out of range");
        assert!(err.to_string().contains("amqp.prefetch"), "{err}");

        let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__RULES__FIXED_END_DATE", "yes")]))
            .expect_err("bad bool");
        assert!(err.to_string().contains("rules.fixed_end_date"), "{err}");

        let path = temp_file("badtype.toml", "[database]\nmax_connections = \"ten\"\n");
        let err = Config::from_env_and_file(Some(&path), Vec::new()).expect_err("bad file type");
        let text = err.to_string();
        assert!(text.contains("database.max_connections"), "{text}");
        assert!(text.contains("badtype.toml"), "{text}");

        let path = temp_file("syntax.toml", "[database]\nurl = \"postgres://u:secret@h/db\n");
        let err = Config::from_env_and_file(Some(&path), Vec::new()).expect_err("bad syntax");
        let text = err.to_string();
        assert!(matches!(err, ConfigError::Parse { .. }), "{text}");
        assert!(!text.contains("secret@"), "{text}");
    }

    #[test]
    fn validation_rejects_nonsense() {
        let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__AMQP__PREFETCH", "0")]))
            .expect_err("zero prefetch");
        assert!(err.to_string().contains("amqp.prefetch"), "{err}");
        let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__DATABASE__URL", "mysql://x/y")]))
            .expect_err("wrong scheme");
        assert!(err.to_string().contains("database.url"), "{err}");
        let err = Config::from_env_and_file(
            None::<&Path>,
            env(&[("NACHFOLGE__WORKER__POLL_INTERVAL_MS", "50"), ("NACHFOLGE__WORKER__RELAY_LINGER_MS", "60")]),
        )
        .expect_err("linger longer than the poll interval");
        assert!(err.to_string().contains("worker.relay_linger_ms"), "{err}");
    }

    #[test]
    fn ca_files_are_optional_paths_and_need_a_tls_url() {
        let config = Config::default();
        assert_eq!((config.amqp.ca_file, config.smtp.ca_file), (None, None));

        // `…__CA_FILE` is the key itself (the path), not the `_FILE` indirection of a key `ca`.
        let config = Config::from_env_and_file(
            None::<&Path>,
            env(&[
                ("NACHFOLGE__AMQP__URL", "amqps://u:p@broker:5671/vh"),
                ("NACHFOLGE__AMQP__CA_FILE", "/etc/nachfolge/ca.pem"),
                ("NACHFOLGE__SMTP__URL", "smtp://mail.example.org:587?tls=required"),
                ("NACHFOLGE__SMTP__CA_FILE", "/etc/nachfolge/smtp-ca.pem"),
            ]),
        )
        .expect("load");
        assert_eq!(config.amqp.ca_file.as_deref(), Some(Path::new("/etc/nachfolge/ca.pem")));
        assert_eq!(config.smtp.ca_file.as_deref(), Some(Path::new("/etc/nachfolge/smtp-ca.pem")));

        let path = temp_file("ca.toml", "[smtp]\nurl = \"smtps://mail.example.org\"\nca_file = \"/ca.pem\"\n");
        let config = Config::from_env_and_file(Some(&path), Vec::new()).expect("load file");
        assert_eq!(config.smtp.ca_file.as_deref(), Some(Path::new("/ca.pem")));

        let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__AMQP__CA_FILE", "/ca.pem")]))
            .expect_err("ca file with amqp://");
        assert!(err.to_string().contains("amqp.ca_file"), "{err}");
        let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__SMTP__CA_FILE", "/ca.pem")]))
            .expect_err("ca file with plaintext smtp://");
        assert!(err.to_string().contains("smtp.ca_file"), "{err}");
        assert!(crate::mail::url_tls("smtp://h:25?tls=opportunistic").is_some());
        assert!(crate::mail::url_tls("smtp://h:25?x=tls=required").is_none());
    }

    #[test]
    fn redacts_urls() {
        assert_eq!(redact_url("amqp://guest:guest@127.0.0.1:5672/%2f"), "amqp://guest:***@127.0.0.1:5672/%2f");
        assert_eq!(
            redact_url("postgres://postgres@127.0.0.1:5432/nachfolge"),
            "postgres://postgres@127.0.0.1:5432/nachfolge"
        );
        assert_eq!(redact_url("smtp://127.0.0.1:1025"), "smtp://127.0.0.1:1025");
        assert_eq!(
            redact_url("smtps://user:p@ss:w/rd@mail.example.org:465?tls=required"),
            "smtps://user:***@mail.example.org:465?tls=required"
        );
        assert_eq!(
            redact_url("postgres://db/nachfolge?sslmode=require&password=hunter2#x"),
            "postgres://db/nachfolge?sslmode=require&password=***#x"
        );
        assert_eq!(redact_url("user:pw@host"), "user:***@host");
        assert!(!redact_url("amqp://a:topsecret@h").contains("topsecret"));
    }
}
