//! Unit tests of the configuration: defaults, file, environment, `_FILE` secrets, errors, redaction.

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
        for (key, default) in keys {
            if let serde_json::Value::Object(table) = default {
                assert!(text.contains(&format!("[{section}.{key}]")), "table {section}.{key} missing");
                for name in table.keys() {
                    assert!(text.contains(&format!("{name} =")), "key {section}.{key}.{name} missing");
                }
                continue;
            }
            assert!(text.contains(&format!("{key} =")), "key {section}.{key} missing");
        }
    }
}

#[test]
fn built_in_defaults_are_valid() {
    Config::default().validate().expect("defaults validate");
    let config = Config::from_env_and_file(Some(&default_toml_path()), Vec::new()).expect("load");
    assert_eq!(config.amqp.prefetch, 32);
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
    let config = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__AMQP__EVENTS_QUEUE", "")])).expect("load");
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
    let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__SMTP__URL_FILE", "/nonexistent/secret")]))
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
fn otlp_endpoint_is_an_http_url_and_its_ca_file_needs_https() {
    let config = Config::default();
    assert_eq!((config.telemetry.otlp_endpoint, config.telemetry.ca_file), (None, None));
    let config = Config::from_env_and_file(
        None::<&Path>,
        env(&[
            ("NACHFOLGE__TELEMETRY__OTLP_ENDPOINT", "https://collector.example.org:4318"),
            ("NACHFOLGE__TELEMETRY__CA_FILE", "/etc/nachfolge/otel-ca.pem"),
        ]),
    )
    .expect("load");
    assert_eq!(config.telemetry.ca_file.as_deref(), Some(Path::new("/etc/nachfolge/otel-ca.pem")));
    Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__TELEMETRY__OTLP_ENDPOINT", "http://c:4318")]))
        .expect("plain http");
    let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__TELEMETRY__OTLP_ENDPOINT", "c:4318")]))
        .expect_err("no scheme");
    assert!(err.to_string().contains("telemetry.otlp_endpoint"), "{err}");
    let err = Config::from_env_and_file(
        None::<&Path>,
        env(&[("NACHFOLGE__TELEMETRY__OTLP_ENDPOINT", "http://c:4318"), ("NACHFOLGE__TELEMETRY__CA_FILE", "/ca.pem")]),
    )
    .expect_err("ca file with http://");
    assert!(err.to_string().contains("telemetry.ca_file"), "{err}");
    let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__TELEMETRY__CA_FILE", "/ca.pem")]))
        .expect_err("ca file without an endpoint");
    assert!(err.to_string().contains("telemetry.ca_file"), "{err}");
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

#[test]
fn removed_email_fiction_days_is_refused_naming_the_key_and_why() {
    // docs/legal.md, "Service fiction": an e-mail is no formal service
    let path = temp_file("fiction.toml", "[service]\nemail_fiction_days = 3\n");
    let err = Config::from_env_and_file(Some(&path), Vec::new()).expect_err("removed key in a file");
    assert!(matches!(err, ConfigError::RemovedKey { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains("`service.email_fiction_days`"), "{text}");
    assert!(text.contains("fiction.toml"), "{text}");
    assert!(text.contains("no formal service"), "{text}");
    assert!(text.contains("notification.served"), "{text}");

    for var in ["NACHFOLGE__SERVICE__EMAIL_FICTION_DAYS", "NACHFOLGE__Service__Email_Fiction_Days_FILE"] {
        let err = Config::from_env_and_file(None::<&Path>, env(&[(var, "3")])).expect_err("removed key in env");
        let text = err.to_string();
        assert!(text.contains("`service.email_fiction_days"), "{text}");
        assert!(text.contains(var), "{text}");
        assert!(text.contains("no formal service"), "{text}");
    }

    // an old file whose [service] section is empty (the former default.toml) still loads
    let path =
        temp_file("empty-service.toml", "[service]\n# email_fiction_days = 3\n\n[rules]\nfixed_end_date = true\n");
    let config = Config::from_env_and_file(Some(&path), Vec::new()).expect("empty removed section");
    assert!(config.rules.fixed_end_date);
    // another unknown key of the removed section is still unknown
    let path = temp_file("other-service.toml", "[service]\nsomething = 1\n");
    let err = Config::from_env_and_file(Some(&path), Vec::new()).expect_err("unknown key");
    assert!(matches!(err, ConfigError::UnknownKey { .. }), "{err}");
}

#[test]
fn console_cookie_without_secure_only_on_loopback_and_its_own_listener() {
    let load = |pairs: &[(&str, &str)]| Config::from_env_and_file(None::<&Path>, env(pairs));
    let config = load(&[("NACHFOLGE__CONSOLE__SECURE_COOKIE", "false")]).expect("plain http on 127.0.0.1");
    assert!(!config.console.secure_cookie && config.console.enabled);
    load(&[("NACHFOLGE__CONSOLE__SECURE_COOKIE", "false"), ("NACHFOLGE__CONSOLE__ADDR", "localhost:9000")])
        .expect("localhost");
    let err = load(&[("NACHFOLGE__CONSOLE__SECURE_COOKIE", "false"), ("NACHFOLGE__CONSOLE__ADDR", "0.0.0.0:8081")])
        .expect_err("not on a public address");
    assert!(err.to_string().contains("console.secure_cookie"), "{err}");
    load(&[("NACHFOLGE__CONSOLE__ADDR", "0.0.0.0:8081")]).expect("a Secure cookie anywhere");
    let err = load(&[("NACHFOLGE__CONSOLE__ADDR", "127.0.0.1:8080")]).expect_err("the operations listener's address");
    assert!(err.to_string().contains("console.addr"), "{err}");
    load(&[("NACHFOLGE__CONSOLE__ADDR", "127.0.0.1:8080"), ("NACHFOLGE__CONSOLE__ENABLED", "false")])
        .expect("switched off");
    let err = load(&[("NACHFOLGE__CONSOLE__LOGIN_MAX_FAILURES", "0")]).expect_err("no throttle");
    assert!(err.to_string().contains("console.login_max_failures"), "{err}");
}

/// Issue 26, point 8: the sign-in delays and the console listener's limits have defaults and are checked.
#[test]
fn console_throttle_and_listener_limits_have_defaults_and_are_checked() {
    let load = |pairs: &[(&str, &str)]| Config::from_env_and_file(None::<&Path>, env(pairs));
    let c = load(&[]).expect("defaults").console;
    assert_eq!((c.login_max_failures, c.login_delay_seconds, c.login_max_delay_seconds), (5, 30, 900));
    assert_eq!((c.max_connections, c.header_timeout_seconds, c.body_timeout_seconds), (64, 5, 30));
    assert_eq!((c.max_header_bytes, c.max_headers), (8192, 50));
    assert_eq!((c.max_form_bytes, c.max_upload_bytes), (64 * 1024, 32 * 1024 * 1024));
    let c = load(&[("NACHFOLGE__CONSOLE__MAX_CONNECTIONS", "8"), ("NACHFOLGE__CONSOLE__MAX_UPLOAD_BYTES", "1000000")])
        .expect("set from the environment")
        .console;
    assert_eq!((c.max_connections, c.max_upload_bytes), (8, 1_000_000));
    for (key, value, named) in [
        ("NACHFOLGE__CONSOLE__MAX_CONNECTIONS", "0", "console.max_connections"),
        ("NACHFOLGE__CONSOLE__HEADER_TIMEOUT_SECONDS", "0", "console.header_timeout_seconds"),
        ("NACHFOLGE__CONSOLE__BODY_TIMEOUT_SECONDS", "0", "console.body_timeout_seconds"),
        ("NACHFOLGE__CONSOLE__MAX_HEADERS", "0", "console.max_headers"),
        ("NACHFOLGE__CONSOLE__MAX_HEADER_BYTES", "512", "console.max_header_bytes"),
        ("NACHFOLGE__CONSOLE__MAX_FORM_BYTES", "0", "console.max_form_bytes"),
        ("NACHFOLGE__CONSOLE__MAX_UPLOAD_BYTES", "0", "console.max_upload_bytes"),
        ("NACHFOLGE__CONSOLE__LOGIN_DELAY_SECONDS", "0", "console.login_delay_seconds"),
        ("NACHFOLGE__CONSOLE__LOGIN_MAX_DELAY_SECONDS", "10", "console.login_max_delay_seconds"),
    ] {
        let err = load(&[(key, value)]).expect_err(named);
        assert!(err.to_string().contains(named), "{key}={value}: {err}");
    }
}

#[test]
fn console_oidc_is_a_table_whose_secret_comes_only_from_the_environment() {
    let secret = temp_file("oidc-secret", "geheim-und-lang\n");
    let file = temp_file(
        "oidc.toml",
        "[console.oidc]\nissuer = \"https://idp.example.org/realms/rathaus\"\nclient_id = \"nachfolge\"\n",
    );
    let config = Config::from_env_and_file(
        Some(&file),
        env(&[
            ("NACHFOLGE__CONSOLE__OIDC__REDIRECT_URL", "https://konsole.example.org/anmelden/dienstkonto/rueckkehr"),
            ("NACHFOLGE__CONSOLE__OIDC__CLIENT_SECRET_FILE", secret.to_str().expect("utf-8 path")),
            ("nachfolge__console__oidc__roles_claim", "resource_access.nachfolge.roles"),
        ]),
    )
    .expect("file and environment merge into [console.oidc]");
    let oidc = &config.console.oidc;
    assert!(oidc.enabled());
    assert_eq!(oidc.issuer, "https://idp.example.org/realms/rathaus");
    assert_eq!(oidc.client_id, "nachfolge");
    assert_eq!(oidc.client_secret, "geheim-und-lang");
    assert_eq!(oidc.roles_claim, "resource_access.nachfolge.roles");
    assert_eq!(oidc.scopes, "openid profile", "untouched keys keep their defaults");
    assert!(!format!("{config:?}").contains("geheim"), "the secret is not in the debug output");
    assert!(!Config::default().console.oidc.enabled());

    // the secret in a file is refused, naming the variables to use
    let file = temp_file("oidc-secret.toml", "[console.oidc]\nclient_secret = \"geheim\"\n");
    let err = Config::from_env_and_file(Some(&file), Vec::new()).expect_err("secret in a file");
    let text = err.to_string();
    assert!(
        text.contains("console.oidc.client_secret") && text.contains("NACHFOLGE__CONSOLE__OIDC__CLIENT_SECRET_FILE"),
        "{text}"
    );
    // unknown keys of the table, from a file or the environment
    let file = temp_file("oidc-unknown.toml", "[console.oidc]\nissuerr = \"x\"\n");
    let err = Config::from_env_and_file(Some(&file), Vec::new()).expect_err("unknown key");
    assert!(err.to_string().contains("console.oidc.issuerr"), "{err}");
    let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__CONSOLE__OIDC__NOPE", "x")]))
        .expect_err("unknown key");
    assert!(err.to_string().contains("console.oidc.nope"), "{err}");
    let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__CONSOLE__ADDR__X", "x")]))
        .expect_err("not a table");
    assert!(matches!(err, ConfigError::MalformedEnv { .. }), "{err}");

    // validation when an issuer is set
    let load = |pairs: &[(&str, &str)]| {
        let mut all = vec![
            ("NACHFOLGE__CONSOLE__OIDC__ISSUER", "https://idp.example.org"),
            ("NACHFOLGE__CONSOLE__OIDC__CLIENT_ID", "nachfolge"),
            ("NACHFOLGE__CONSOLE__OIDC__REDIRECT_URL", "https://konsole.example.org/anmelden/dienstkonto/rueckkehr"),
        ];
        all.retain(|(k, _)| !pairs.iter().any(|(p, _)| p == k));
        all.extend_from_slice(pairs);
        Config::from_env_and_file(None::<&Path>, env(&all))
    };
    load(&[]).expect("complete");
    load(&[("NACHFOLGE__CONSOLE__OIDC__ISSUER", "http://127.0.0.1:9000")]).expect("plain http on loopback");
    for (key, value, named) in [
        ("NACHFOLGE__CONSOLE__OIDC__ISSUER", "http://idp.example.org", "console.oidc.issuer"),
        ("NACHFOLGE__CONSOLE__OIDC__ISSUER", "idp.example.org", "console.oidc.issuer"),
        ("NACHFOLGE__CONSOLE__OIDC__REDIRECT_URL", "https://konsole.example.org/callback", "console.oidc.redirect_url"),
        ("NACHFOLGE__CONSOLE__OIDC__CLIENT_ID", "", "console.oidc.client_id"),
        ("NACHFOLGE__CONSOLE__OIDC__ROLES_CLAIM", " ", "console.oidc.roles_claim"),
    ] {
        let err = load(&[(key, value)]).expect_err(value);
        assert!(err.to_string().contains(named), "{value}: {err}");
    }
}
