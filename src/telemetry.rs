//! Logging: `tracing` events to stderr, filtered by `RUST_LOG` (default `info`), as JSON lines or compact
//! text.
//!
//! Log ids only: names, addresses, e-mail addresses and secrets never go into a log event. Use
//! [`crate::config::redact_url`] for URLs.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber. `json` selects JSON lines (for log collectors), otherwise compact text
/// (coloured when stderr is a terminal). Safe to call more than once: later calls change nothing.
pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    // An error means a global subscriber is already set (a second call, or a test harness): keep it.
    let _ = if json {
        builder.json().flatten_event(true).with_current_span(true).with_span_list(false).try_init()
    } else {
        builder.compact().with_ansi(std::io::stderr().is_terminal()).try_init()
    };
}

/// The worker's subscriber: JSON logs, plus OTLP trace export when `telemetry.otlp_endpoint` is set.
pub fn init_worker(telemetry: &crate::config::TelemetryConfig) -> Result<(), String> {
    let Some(endpoint) = telemetry.otlp_endpoint.as_deref().filter(|e| !e.is_empty()) else {
        init(true);
        return Ok(());
    };
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let otlp = crate::otlp::OtlpLayer::new(endpoint, &telemetry.service_name, std::time::Duration::from_secs(1))?;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let fmt = tracing_subscriber::fmt::layer()
        .json()
        .flatten_event(true)
        .with_current_span(true)
        .with_span_list(false)
        .with_writer(std::io::stderr);
    let _ = tracing_subscriber::registry().with(filter).with(fmt).with(otlp).try_init();
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn init_twice_is_harmless() {
        super::init(true);
        super::init(false);
        tracing::info!("telemetry initialised");
    }
}
