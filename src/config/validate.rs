//! Checks of the merged configuration that no single key can make: ranges, schemes, TLS settings that
//! belong together.

use super::*;

impl Config {
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
        if !(1..=3600).contains(&self.smtp.data_timeout_secs) {
            return Err(invalid("smtp.data_timeout_secs", "must be between 1 and 3600"));
        }
        if !(1..=64).contains(&self.smtp.concurrency) {
            return Err(invalid("smtp.concurrency", "must be between 1 and 64"));
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
        let otlp = self.telemetry.otlp_endpoint.as_deref().filter(|e| !e.is_empty());
        if otlp.is_some_and(|e| !has_scheme(e, &["http", "https"])) {
            return Err(invalid("telemetry.otlp_endpoint", "expected an http:// or https:// URL"));
        }
        if self.telemetry.ca_file.is_some() && !otlp.is_some_and(|e| has_scheme(e, &["https"])) {
            return Err(invalid(
                "telemetry.ca_file",
                "is only used with TLS: telemetry.otlp_endpoint must be an https:// URL",
            ));
        }
        if self.http.addr.trim().is_empty() {
            return Err(invalid("http.addr", "must not be empty"));
        }
        if self.console.enabled {
            if self.console.addr.trim().is_empty() {
                return Err(invalid("console.addr", "must not be empty"));
            }
            if self.console.addr.trim() == self.http.addr.trim() && !self.console.addr.trim().ends_with(":0") {
                return Err(invalid("console.addr", "must differ from http.addr (the console has its own listener)"));
            }
        }
        if !self.console.secure_cookie && !crate::console::is_loopback_addr(&self.console.addr) {
            return Err(invalid(
                "console.secure_cookie",
                "may be false only while console.addr listens on a loopback address (plain http on localhost)",
            ));
        }
        for (key, value) in [
            ("console.session_idle_minutes", self.console.session_idle_minutes),
            ("console.session_max_hours", self.console.session_max_hours),
            ("console.login_max_failures", self.console.login_max_failures),
            ("console.address_max_failures", self.console.address_max_failures),
            ("console.login_window_minutes", self.console.login_window_minutes),
            ("console.login_delay_seconds", self.console.login_delay_seconds),
            ("console.max_connections", self.console.max_connections),
            ("console.header_timeout_seconds", self.console.header_timeout_seconds),
            ("console.body_timeout_seconds", self.console.body_timeout_seconds),
            ("console.max_headers", self.console.max_headers),
            ("console.max_form_bytes", self.console.max_form_bytes),
            ("console.max_upload_bytes", self.console.max_upload_bytes),
        ] {
            if value == 0 {
                return Err(invalid(key, "must be at least 1"));
            }
        }
        if self.console.login_max_delay_seconds < self.console.login_delay_seconds {
            return Err(invalid(
                "console.login_max_delay_seconds",
                "must not be less than console.login_delay_seconds",
            ));
        }
        if self.console.max_header_bytes < 1024 {
            return Err(invalid("console.max_header_bytes", "must be at least 1024 (a browser's request head)"));
        }
        if self.console.oidc.enabled() {
            validate_oidc(&self.console.oidc).map_err(|(key, message)| invalid(key, &message))?;
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

/// Checks `[console.oidc]` when an issuer is set: HTTPS URLs (plain http only for a provider and a
/// console on a loopback address, as in the tests), the callback path, a client id and a roles claim.
fn validate_oidc(oidc: &OidcConfig) -> Result<(), (&'static str, String)> {
    fn url(key: &'static str, value: &str) -> Result<reqwest::Url, (&'static str, String)> {
        let url = reqwest::Url::parse(value.trim()).map_err(|e| (key, format!("not a URL: {e}")))?;
        let host = url.host_str().unwrap_or_default().trim_start_matches('[').trim_end_matches(']');
        let loopback =
            host.parse::<std::net::IpAddr>().map_or(host.eq_ignore_ascii_case("localhost"), |ip| ip.is_loopback());
        match url.scheme() {
            "https" => {}
            "http" if loopback => {}
            _ => return Err((key, "expected an https:// URL (http:// only on a loopback address)".to_owned())),
        }
        if url.query().is_some() || url.fragment().is_some() || !url.username().is_empty() {
            return Err((key, "must not hold a query, a fragment or credentials".to_owned()));
        }
        Ok(url)
    }
    let issuer = url("console.oidc.issuer", &oidc.issuer)?;
    let redirect = url("console.oidc.redirect_url", &oidc.redirect_url)?;
    if redirect.path() != crate::console::oidc::CALLBACK_PATH {
        return Err((
            "console.oidc.redirect_url",
            format!("must end in the console's callback path {}", crate::console::oidc::CALLBACK_PATH),
        ));
    }
    if oidc.client_id.trim().is_empty() {
        return Err(("console.oidc.client_id", "must be set when console.oidc.issuer is".to_owned()));
    }
    if oidc.roles_claim.trim().is_empty() {
        return Err(("console.oidc.roles_claim", "must not be empty".to_owned()));
    }
    if oidc.ca_file.is_some() && issuer.scheme() != "https" {
        return Err((
            "console.oidc.ca_file",
            "is only used with TLS: console.oidc.issuer must be an https:// URL".to_owned(),
        ));
    }
    Ok(())
}
