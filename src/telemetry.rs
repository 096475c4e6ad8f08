//! Logging: `tracing` events to stderr, filtered by `RUST_LOG` (default `info`), as JSON lines or compact
//! text; and, behind `telemetry.otlp_endpoint`, trace export with OpenTelemetry.
//!
//! Log ids only: names, addresses, e-mail addresses and secrets never go into a log event. Use
//! [`crate::config::redact_url`] for URLs.
//!
//! **Trace export.** `tracing-opentelemetry` turns the worker's `tracing` spans (one `message` span per
//! inbound message, kind `CONSUMER`, with the log events inside it as span events) into OpenTelemetry spans;
//! the SDK's batch span processor queues them (bounded: [`MAX_QUEUE`] spans, further ones are dropped and
//! reported once) and a thread of its own sends them every second as OTLP/HTTP (protobuf) to
//! `<endpoint>/v1/traces` with reqwest's blocking client — rustls with ring and the webpki roots, plus the CA
//! certificates of `telemetry.ca_file`. The `OTEL_BSP_*` and `OTEL_EXPORTER_OTLP_HEADERS` environment
//! variables are honoured; export never blocks or fails message processing.
//! [`continue_trace`] makes a message's span the child of its inbound `traceparent` and returns the span's
//! own context for the events the message causes. Without an endpoint there is no OpenTelemetry layer at all
//! and the inbound context is passed on unchanged.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::{TraceContextExt, TracerProvider as _};
use opentelemetry::{InstrumentationScope, KeyValue};
use opentelemetry_otlp::{Protocol, WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{BatchConfigBuilder, BatchSpanProcessor, SdkTracerProvider};
use opentelemetry_sdk::Resource;
use tracing_opentelemetry::{OpenTelemetryLayer, OpenTelemetrySpanExt};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

use crate::config::TelemetryConfig;

/// The configuration key of the collector's private CA file.
pub const CA_FILE_KEY: &str = "telemetry.ca_file";

/// Most finished spans waiting for export (`OTEL_BSP_MAX_QUEUE_SIZE` overrides).
pub const MAX_QUEUE: usize = 2048;

/// How long one export may take, connecting included (instead of `OTEL_EXPORTER_OTLP_TIMEOUT`).
const EXPORT_TIMEOUT: Duration = Duration::from_secs(10);

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

/// The worker's trace export, if any. [`Tracing::shutdown`] (or dropping it) exports what is still queued
/// and stops the exporter: call it after the worker has stopped.
#[must_use = "dropping it stops the trace export"]
pub struct Tracing {
    provider: Option<SdkTracerProvider>,
}

impl Tracing {
    /// No trace export (the commands other than `run`).
    pub fn none() -> Tracing {
        Tracing { provider: None }
    }

    /// Export the queued spans and stop the exporter.
    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(provider) = self.provider.take() {
            if let Err(e) = provider.shutdown() {
                tracing::warn!(error = %e, "trace export: the last spans could not be exported");
            }
        }
    }
}

impl Drop for Tracing {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The worker's subscriber: JSON logs, plus OTLP trace export when `telemetry.otlp_endpoint` is set.
pub fn init_worker(telemetry: &TelemetryConfig) -> Result<Tracing, String> {
    let Some(endpoint) = telemetry.otlp_endpoint.as_deref().filter(|e| !e.is_empty()) else {
        init(true);
        return Ok(Tracing::none());
    };
    let provider = tracer_provider(telemetry, endpoint)?;
    let scope = InstrumentationScope::builder("nachfolge").with_version(env!("CARGO_PKG_VERSION")).build();
    // the worker's own spans and events at `info` and above, whatever `RUST_LOG` says (it filters the logs)
    let otel = span_layer(provider.tracer_with_scope(scope))
        .with_filter(tracing_subscriber::filter::Targets::new().with_target("nachfolge", tracing::Level::INFO));
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let fmt = tracing_subscriber::fmt::layer()
        .json()
        .flatten_event(true)
        .with_current_span(true)
        .with_span_list(false)
        .with_writer(std::io::stderr)
        .with_filter(filter);
    let _ = tracing_subscriber::registry().with(fmt).with(otel).try_init();
    Ok(Tracing { provider: Some(provider) })
}

/// The OpenTelemetry layer: a span starts when its context is first asked for (so that [`continue_trace`]
/// can still set its parent), not when it is entered; no thread, code location or busy/idle attributes.
fn span_layer<S>(tracer: opentelemetry_sdk::trace::Tracer) -> OpenTelemetryLayer<S, opentelemetry_sdk::trace::Tracer>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    tracing_opentelemetry::layer()
        .with_tracer(tracer)
        .with_context_activation(false)
        .with_tracked_inactivity(false)
        .with_threads(false)
        .with_location(false)
}

/// The tracer provider: `service.name` = `telemetry.service_name`, the batch span processor, the OTLP/HTTP
/// exporter for `endpoint`.
pub fn tracer_provider(telemetry: &TelemetryConfig, endpoint: &str) -> Result<SdkTracerProvider, String> {
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_http_client(http_client(telemetry)?)
        .with_endpoint(traces_url(endpoint)?)
        .with_protocol(Protocol::HttpBinary)
        .with_timeout(EXPORT_TIMEOUT)
        .build()
        .map_err(|e| format!("telemetry.otlp_endpoint: {e}"))?;
    // `OTEL_BSP_*` from the environment first; the worker's defaults where they are unset
    let mut batch = BatchConfigBuilder::default();
    if std::env::var_os("OTEL_BSP_MAX_QUEUE_SIZE").is_none() {
        batch = batch.with_max_queue_size(MAX_QUEUE);
    }
    if std::env::var_os("OTEL_BSP_SCHEDULE_DELAY").is_none() {
        batch = batch.with_scheduled_delay(Duration::from_secs(1));
    }
    let processor = BatchSpanProcessor::builder(exporter).with_batch_config(batch.build()).build();
    let resource = Resource::builder()
        .with_service_name(telemetry.service_name.clone())
        .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
        .build();
    Ok(SdkTracerProvider::builder().with_span_processor(processor).with_resource(resource).build())
}

/// `<endpoint>/v1/traces` (the endpoint may have a path prefix); `http://` or `https://` only.
fn traces_url(endpoint: &str) -> Result<String, String> {
    let (scheme, rest) = endpoint.split_once("://").unwrap_or(("", endpoint));
    if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
        return Err("telemetry.otlp_endpoint: expected an http:// or https:// URL".into());
    }
    if rest.split(['/', '?', '#']).next().unwrap_or_default().is_empty() {
        return Err("telemetry.otlp_endpoint: missing host".into());
    }
    Ok(format!("{}/v1/traces", endpoint.trim_end_matches('/')))
}

/// reqwest's blocking client (the batch processor exports from a thread of its own, outside the tokio
/// runtime) over rustls with ring, trusting the webpki roots and the CA certificates of `telemetry.ca_file`.
/// No proxy: the collector is reached directly, as before.
fn http_client(telemetry: &TelemetryConfig) -> Result<reqwest::blocking::Client, String> {
    let mut roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    if let Some(path) = &telemetry.ca_file {
        use rustls::pki_types::pem::PemObject;
        let pem = crate::bus::read_pem_ca_file(CA_FILE_KEY, path).map_err(|e| e.to_string())?;
        for cert in rustls::pki_types::CertificateDer::pem_slice_iter(pem.as_bytes()) {
            let added = cert.map_err(|e| e.to_string()).and_then(|c| roots.add(c).map_err(|e| e.to_string()));
            added.map_err(|e| format!("{CA_FILE_KEY} {}: {e}", path.display()))?;
        }
    }
    let tls = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("telemetry: TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    reqwest::blocking::Client::builder()
        .tls_backend_preconfigured(tls)
        .no_proxy()
        .connect_timeout(Duration::from_secs(2))
        .timeout(EXPORT_TIMEOUT)
        .build()
        .map_err(|e| format!("telemetry: cannot build the HTTP client: {e}"))
}

/// The trace context for the events of the message being processed, called in its `message` span with the
/// message's valid inbound `traceparent` / `tracestate`.
///
/// With trace export the span becomes the child of the inbound context (W3C TraceContext propagator; a
/// new trace when there is none, or it does not parse) and its own context is returned, so a downstream
/// consumer's span is a child of the worker's span. Without export (no OpenTelemetry layer) the inbound
/// context is returned unchanged.
pub fn continue_trace(traceparent: Option<String>, tracestate: Option<String>) -> (Option<String>, Option<String>) {
    let span = tracing::Span::current();
    let propagator = TraceContextPropagator::new();
    let mut carrier = HashMap::new();
    for (key, value) in [("traceparent", &traceparent), ("tracestate", &tracestate)] {
        if let Some(v) = value {
            carrier.insert(key.to_owned(), v.clone());
        }
    }
    if span.set_parent(propagator.extract(&carrier)).is_err() {
        return (traceparent, tracestate);
    }
    span.record("otel.kind", "consumer");
    let cx = span.context();
    if !cx.span().span_context().is_valid() {
        return (traceparent, tracestate);
    }
    let mut out = HashMap::new();
    propagator.inject_context(&cx, &mut out);
    match out.remove("traceparent") {
        Some(own) => (Some(own), out.remove("tracestate").filter(|s| !s.is_empty())),
        None => (traceparent, tracestate),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TP: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    #[test]
    fn init_twice_is_harmless() {
        super::init(true);
        super::init(false);
        tracing::info!("telemetry initialised");
    }

    #[test]
    fn traces_url_appends_the_signal_path() {
        assert_eq!(traces_url("http://collector:4318").as_deref(), Ok("http://collector:4318/v1/traces"));
        assert_eq!(traces_url("https://10.0.0.1/otel/").as_deref(), Ok("https://10.0.0.1/otel/v1/traces"));
        assert!(traces_url("collector:4318").is_err());
        assert!(traces_url("ftp://collector").is_err());
        assert!(traces_url("http://").is_err());
        assert!(traces_url("http:///v1").is_err());
    }

    #[test]
    fn ca_file_must_hold_a_certificate() {
        let path = std::env::temp_dir().join(format!("nachfolge-otel-ca-{}.pem", uuid::Uuid::new_v4()));
        std::fs::write(&path, "not a certificate").expect("write");
        let cfg = TelemetryConfig { ca_file: Some(path.clone()), ..TelemetryConfig::default() };
        let err = tracer_provider(&cfg, "https://collector:4318").expect_err("refused");
        assert!(err.contains(CA_FILE_KEY), "{err}");
        let _ = std::fs::remove_file(path);
    }

    /// A message span (a subscriber with the OpenTelemetry layer, spans not exported) continues the
    /// inbound trace and hands its own span id to the events; without the layer the context is copied.
    #[test]
    fn message_span_continues_the_inbound_trace() {
        let inbound = (Some(TP.to_owned()), Some("muni=7".to_owned()));
        let copied = tracing::info_span!("message", otel.kind = tracing::field::Empty)
            .in_scope(|| continue_trace(inbound.0.clone(), inbound.1.clone()));
        assert_eq!(copied, inbound, "no OpenTelemetry layer: unchanged");

        let provider = SdkTracerProvider::builder().build();
        let subscriber = tracing_subscriber::registry().with(span_layer(provider.tracer("t")));
        tracing::subscriber::with_default(subscriber, || {
            let span = || tracing::info_span!("message", otel.kind = tracing::field::Empty);
            let (tp, ts) = span().in_scope(|| continue_trace(inbound.0.clone(), inbound.1.clone()));
            let tp = tp.expect("traceparent");
            assert_eq!(&tp[..36], &TP[..36], "same version and trace id: {tp}");
            assert_ne!(&tp[36..52], &TP[36..52], "the worker's span id, not the parent's");
            assert_eq!(&tp[52..], "-01", "sampled, as the parent");
            assert_eq!(ts.as_deref(), Some("muni=7"));

            // no inbound context: a new trace, and the events name it
            let (tp, ts) = span().in_scope(|| continue_trace(None, None));
            let tp = tp.expect("a new trace");
            assert!(crate::bus::valid_traceparent(&tp).is_some() && !tp.contains(&TP[3..35]), "{tp}");
            assert_eq!(ts, None);

            // the upstream's decision not to sample is kept
            let unsampled = "00-11112222333344445555666677778888-1111222233334444-00";
            let (tp, _) = span().in_scope(|| continue_trace(Some(unsampled.to_owned()), None));
            let tp = tp.expect("traceparent");
            assert!(tp.starts_with("00-11112222333344445555666677778888-") && tp.ends_with("-00"), "{tp}");
        });
    }
}
