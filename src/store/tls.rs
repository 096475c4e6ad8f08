//! TLS to PostgreSQL: the connect options of `database.url`, with the CA certificates of
//! `database.ca_file`.
//!
//! sqlx is built with rustls (ring) and the Mozilla roots of webpki-roots, as lapin and lettre are. The TLS
//! mode is the URL's `sslmode` (libpq's names):
//!
//! * `verify-full` — TLS; the certificate must chain to a trusted root and name the URL's host.
//! * `verify-ca` — TLS; the certificate must chain to a trusted root, its names are not checked.
//! * `require` — TLS, but the certificate is **not** verified (encryption against eavesdropping, no
//!   protection against an active man in the middle). Unlike libpq, sqlx does not turn `require` into
//!   `verify-ca` when a root certificate is given, so a CA with `require` is refused here.
//! * `prefer` (sqlx's and libpq's default), `allow`, `disable` — plaintext, or unverified TLS when the
//!   server offers it (`prefer`).
//!
//! `database.ca_file` adds the CA certificates of a PEM file to the built-in roots (a private CA), as
//! `amqp.ca_file` and `smtp.ca_file` do; it is checked when the options are built (a file without a
//! certificate is an error naming the key) and read by sqlx at every new connection of the pool, so a
//! renewed CA needs no restart.

use std::str::FromStr;

use sqlx::postgres::{PgConnectOptions, PgSslMode};

use crate::config::DatabaseConfig;

/// The configuration key of the private CA file.
pub const CA_FILE_KEY: &str = "database.ca_file";

/// The connect options of `database.url`, trusting the CA certificates of `database.ca_file` (when set)
/// in addition to the built-in roots.
///
/// Errors: a URL sqlx cannot parse, an inconsistent TLS configuration (see [`check`]), a CA file that
/// cannot be read or holds no certificate — all `sqlx::Error::Configuration`, which the worker does not
/// retry.
pub fn pg_connect_options(cfg: &DatabaseConfig) -> Result<PgConnectOptions, sqlx::Error> {
    let opts = PgConnectOptions::from_str(&cfg.url)?;
    check(cfg, &opts).map_err(|(key, message)| sqlx::Error::Configuration(format!("{key}: {message}").into()))?;
    match &cfg.ca_file {
        Some(path) => {
            crate::bus::read_pem_ca_file(CA_FILE_KEY, path).map_err(|e| sqlx::Error::Configuration(e.into()))?;
            Ok(opts.ssl_root_cert(path))
        }
        None => Ok(opts),
    }
}

/// Checks the TLS settings of the database section without touching the CA file (for
/// `Config::validate`): the URL parses, and a CA (`database.ca_file`, or `sslrootcert` in the URL) is
/// only given where it is used — with `sslmode=verify-full` or `verify-ca` — and only once. Returns the
/// key at fault and the message.
pub fn validate(cfg: &DatabaseConfig) -> Result<(), (&'static str, String)> {
    let opts = PgConnectOptions::from_str(&cfg.url).map_err(|e| ("database.url", format!("cannot be parsed: {e}")))?;
    check(cfg, &opts)
}

fn check(cfg: &DatabaseConfig, opts: &PgConnectOptions) -> Result<(), (&'static str, String)> {
    let mode = opts.get_ssl_mode();
    let verifies = matches!(mode, PgSslMode::VerifyCa | PgSslMode::VerifyFull);
    let root_cert_in_url = url_has_param(&cfg.url, &["sslrootcert", "ssl-root-cert", "ssl-ca"]);
    if cfg.ca_file.is_some() && root_cert_in_url {
        return Err((CA_FILE_KEY, "is set, and so is sslrootcert in database.url: give the CA once".to_owned()));
    }
    if cfg.ca_file.is_some() && !verifies {
        return Err((
            CA_FILE_KEY,
            format!(
                "is only used to verify the server's certificate: database.url needs sslmode=verify-full \
                 (or verify-ca), not {}",
                mode_name(mode)
            ),
        ));
    }
    if root_cert_in_url && !verifies {
        return Err((
            "database.url",
            format!(
                "sslrootcert is only used with sslmode=verify-full or verify-ca, not {} (sqlx does not \
                 verify the certificate with require, unlike libpq)",
                mode_name(mode)
            ),
        ));
    }
    Ok(())
}

/// libpq's name of an `sslmode`.
pub fn mode_name(mode: PgSslMode) -> &'static str {
    match mode {
        PgSslMode::Disable => "disable",
        PgSslMode::Allow => "allow",
        PgSslMode::Prefer => "prefer",
        PgSslMode::Require => "require",
        PgSslMode::VerifyCa => "verify-ca",
        PgSslMode::VerifyFull => "verify-full",
    }
}

/// Whether the URL's query has one of the parameters `names`.
fn url_has_param(url: &str, names: &[&str]) -> bool {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    let query = query.split_once('#').map_or(query, |(q, _)| q);
    query.split('&').any(|pair| names.contains(&pair.split_once('=').map_or(pair, |(k, _)| k)))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn cfg(url: &str, ca_file: Option<&str>) -> DatabaseConfig {
        DatabaseConfig { url: url.to_owned(), ca_file: ca_file.map(PathBuf::from), ..DatabaseConfig::default() }
    }

    #[test]
    fn the_url_sets_the_mode_and_the_ca_file_the_root() {
        let opts = pg_connect_options(&cfg("postgres://u@db.example:5432/n?sslmode=verify-full", None)).expect("opts");
        assert_eq!(mode_name(opts.get_ssl_mode()), "verify-full");
        let opts = pg_connect_options(&cfg("postgres://u@db.example/n?sslmode=require", None)).expect("opts");
        assert_eq!(mode_name(opts.get_ssl_mode()), "require");

        let dir = std::env::temp_dir().join(format!("nachfolge-store-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let ca = dir.join("ca.pem");
        std::fs::write(&ca, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n").expect("write");
        let with_ca = cfg("postgres://u@db.example/n?sslmode=verify-ca", ca.to_str());
        let opts = pg_connect_options(&with_ca).expect("opts with a CA");
        assert_eq!(mode_name(opts.get_ssl_mode()), "verify-ca");

        let junk = dir.join("junk.pem");
        std::fs::write(&junk, "no certificate\n").expect("write");
        let err = pg_connect_options(&cfg("postgres://u@db.example/n?sslmode=verify-full", junk.to_str()))
            .expect_err("junk CA file");
        assert!(err.to_string().contains("database.ca_file") && err.to_string().contains("no PEM"), "{err}");
        let err =
            pg_connect_options(&cfg("postgres://u@db.example/n?sslmode=verify-full", Some("/nonexistent/ca.pem")))
                .expect_err("missing CA file");
        assert!(matches!(err, sqlx::Error::Configuration(_)), "not retried as transient: {err:?}");
        assert!(err.to_string().contains("database.ca_file /nonexistent/ca.pem"), "{err}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_ca_is_refused_where_it_would_not_be_used() {
        assert_eq!(validate(&cfg("postgres://u@db/n", None)), Ok(()));
        assert_eq!(validate(&cfg("postgres://u@db/n?sslmode=verify-full", Some("/ca.pem"))), Ok(()));
        assert_eq!(validate(&cfg("postgres://u@db/n?sslmode=VERIFY-CA&application_name=x", Some("/ca.pem"))), Ok(()));
        assert_eq!(validate(&cfg("postgres://u@db/n?sslmode=verify-full&sslrootcert=/ca.pem", None)), Ok(()));
        for (url, ca, key, needle) in [
            ("postgres://u@db/n", Some("/ca.pem"), "database.ca_file", "not prefer"),
            ("postgres://u@db/n?sslmode=require", Some("/ca.pem"), "database.ca_file", "not require"),
            ("postgres://u@db/n?sslmode=disable", Some("/ca.pem"), "database.ca_file", "not disable"),
            ("postgres://u@db/n?sslmode=verify-full&sslrootcert=/a.pem", Some("/ca.pem"), "database.ca_file", "once"),
            ("postgres://u@db/n?sslmode=require&sslrootcert=/a.pem", None, "database.url", "unlike libpq"),
            ("postgres://u@db/n?sslmode=verify_full", None, "database.url", "ssl_mode"),
        ] {
            let (got, message) = validate(&cfg(url, ca)).expect_err(url);
            assert_eq!(got, key, "{url}: {message}");
            assert!(message.contains(needle), "{url}: {message}");
        }
        assert!(!url_has_param("postgres://u@db/n?application_name=sslrootcert", &["sslrootcert"]));
    }

    #[test]
    fn database_ca_file_is_a_configuration_key_checked_at_load() {
        use crate::config::Config;
        use std::path::Path;
        let env = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
        };
        let config = Config::from_env_and_file(
            None::<&Path>,
            env(&[
                ("NACHFOLGE__DATABASE__URL", "postgres://u:p@db.example:5432/n?sslmode=verify-full"),
                ("NACHFOLGE__DATABASE__CA_FILE", "/etc/nachfolge/pg-ca.pem"),
            ]),
        )
        .expect("load");
        assert_eq!(config.database.ca_file.as_deref(), Some(Path::new("/etc/nachfolge/pg-ca.pem")));
        assert!(format!("{:?}", config.database).contains("pg-ca.pem"));
        assert_eq!(Config::default().database.ca_file, None);

        let err = Config::from_env_and_file(None::<&Path>, env(&[("NACHFOLGE__DATABASE__CA_FILE", "/ca.pem")]))
            .expect_err("a CA file with the default sslmode (prefer)");
        assert!(err.to_string().contains("`database.ca_file`") && err.to_string().contains("verify-full"), "{err}");
        let err = Config::from_env_and_file(
            None::<&Path>,
            env(&[("NACHFOLGE__DATABASE__URL", "postgres://u@db/n?sslmode=requir")]),
        )
        .expect_err("unknown sslmode");
        assert!(err.to_string().contains("`database.url`"), "{err}");
    }
}
