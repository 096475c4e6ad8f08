//! Optional OTLP trace export, behind the switch `telemetry.otlp_endpoint`: one span per inbound message
//! (`message`, with the trace id of its W3C `traceparent`, or a new one), sent in batches as OTLP/HTTP with
//! JSON encoding to `<endpoint>/v1/traces`. No extra dependencies: a background thread posts over plain
//! HTTP — run an OpenTelemetry collector beside the worker for TLS and fan-out. Export failures never
//! affect message processing; spans are dropped when the collector is unreachable.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::mpsc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::Subscriber;
use tracing_subscriber::layer::Context;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

/// One finished span.
#[derive(Debug, Clone)]
struct Finished {
    trace_id: String,
    span_id: String,
    name: &'static str,
    start: u128,
    end: u128,
    attributes: Vec<(String, String)>,
}

#[derive(Debug)]
struct Open {
    start: u128,
    trace_id: Option<String>,
    attributes: Vec<(String, String)>,
}

struct Fields<'a>(&'a mut Open);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "trace_id" {
            if value.len() == 32 && value.bytes().all(|b| b.is_ascii_hexdigit()) {
                self.0.trace_id = Some(value.to_ascii_lowercase());
            }
        } else {
            self.0.attributes.push((field.name().to_owned(), value.to_owned()));
        }
    }
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.record_str(field, &format!("{value:?}"));
    }
}

fn now_nanos() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0)
}

fn random_hex(bytes: usize) -> String {
    let id = uuid::Uuid::new_v4();
    id.as_bytes()[..bytes].iter().map(|b| format!("{b:02x}")).collect()
}

/// The tracing layer; spans named `message` are exported.
pub struct OtlpLayer {
    tx: mpsc::Sender<Finished>,
}

impl OtlpLayer {
    /// Start the exporter thread for `endpoint` (`http://host:port`, optionally with a path prefix).
    pub fn new(endpoint: &str, service_name: &str, flush_every: Duration) -> Result<OtlpLayer, String> {
        let target = Target::parse(endpoint)?;
        let (tx, rx) = mpsc::channel::<Finished>();
        let service = service_name.to_owned();
        std::thread::Builder::new()
            .name("otlp-export".into())
            .spawn(move || export_loop(rx, target, service, flush_every))
            .map_err(|e| format!("telemetry.otlp_endpoint: cannot start the exporter: {e}"))?;
        Ok(OtlpLayer { tx })
    }
}

impl<S> Layer<S> for OtlpLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        if attrs.metadata().name() != "message" {
            return;
        }
        let mut open = Open { start: now_nanos(), trace_id: None, attributes: Vec::new() };
        attrs.record(&mut Fields(&mut open));
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(open);
        }
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            if let Some(open) = span.extensions_mut().get_mut::<Open>() {
                values.record(&mut Fields(open));
            }
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else { return };
        let Some(open) = span.extensions_mut().remove::<Open>() else { return };
        let finished = Finished {
            trace_id: open.trace_id.unwrap_or_else(|| random_hex(16)),
            span_id: random_hex(8),
            name: span.metadata().name(),
            start: open.start,
            end: now_nanos(),
            attributes: open.attributes,
        };
        let _ = self.tx.send(finished);
    }
}

#[derive(Debug, Clone)]
struct Target {
    host: String,
    port: u16,
    path: String,
}

impl Target {
    fn parse(endpoint: &str) -> Result<Target, String> {
        let rest = endpoint.strip_prefix("http://").ok_or_else(|| {
            "telemetry.otlp_endpoint: only http:// is supported (run a collector beside the worker)".to_owned()
        })?;
        let (hostport, prefix) = match rest.find('/') {
            Some(i) => (&rest[..i], rest[i..].trim_end_matches('/')),
            None => (rest, ""),
        };
        let (host, port) = match hostport.rsplit_once(':') {
            Some((h, p)) => (h, p.parse::<u16>().map_err(|_| format!("telemetry.otlp_endpoint: bad port {p:?}"))?),
            None => (hostport, 4318),
        };
        if host.is_empty() {
            return Err("telemetry.otlp_endpoint: missing host".into());
        }
        Ok(Target { host: host.to_owned(), port, path: format!("{prefix}/v1/traces") })
    }
}

fn export_loop(rx: mpsc::Receiver<Finished>, target: Target, service: String, flush_every: Duration) {
    let mut batch = Vec::new();
    loop {
        match rx.recv_timeout(flush_every) {
            Ok(span) => {
                batch.push(span);
                if batch.len() < 256 {
                    continue;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                if !batch.is_empty() {
                    let _ = post(&target, &payload(&service, &batch));
                }
                return;
            }
        }
        if !batch.is_empty() {
            // a failed export drops the batch: tracing must never hold up the worker
            let _ = post(&target, &payload(&service, &batch));
            batch.clear();
        }
    }
}

/// The OTLP/JSON `ExportTraceServiceRequest` (ids hex-encoded, times as decimal strings).
fn payload(service: &str, spans: &[Finished]) -> Value {
    let spans: Vec<Value> = spans
        .iter()
        .map(|s| {
            let attributes: Vec<Value> =
                s.attributes.iter().map(|(k, v)| json!({"key": k, "value": {"stringValue": v}})).collect();
            json!({
                "traceId": s.trace_id, "spanId": s.span_id, "name": s.name, "kind": 5,
                "startTimeUnixNano": s.start.to_string(), "endTimeUnixNano": s.end.to_string(),
                "attributes": attributes,
            })
        })
        .collect();
    json!({"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": service}}]},
        "scopeSpans": [{"scope": {"name": "nachfolge", "version": env!("CARGO_PKG_VERSION")}, "spans": spans}],
    }]})
}

fn post(target: &Target, body: &Value) -> std::io::Result<u16> {
    let body = body.to_string();
    let addr = (target.host.as_str(), target.port)
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no address"))?;
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(2))?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    stream.set_write_timeout(Some(Duration::from_secs(5)))?;
    let head = format!(
        "POST {} HTTP/1.1\r\nHost: {}:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        target.path,
        target.host,
        target.port,
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body.as_bytes())?;
    let mut status = [0u8; 12];
    stream.read_exact(&mut status)?;
    let code = std::str::from_utf8(&status[9..12]).ok().and_then(|c| c.parse().ok()).unwrap_or(0);
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::layer::SubscriberExt;

    #[test]
    fn endpoint_parsing() {
        let t = Target::parse("http://collector:4318").expect("ok");
        assert_eq!((t.host.as_str(), t.port, t.path.as_str()), ("collector", 4318, "/v1/traces"));
        let t = Target::parse("http://10.0.0.1/otel/").expect("ok");
        assert_eq!((t.port, t.path.as_str()), (4318, "/otel/v1/traces"));
        assert!(Target::parse("https://collector:4318").is_err());
        assert!(Target::parse("http://:1").is_err());
    }

    /// A fake collector receives one OTLP/JSON request with the span of a message and its trace id.
    #[test]
    fn message_span_is_exported_with_its_trace_id() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let collector = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().expect("accept");
            s.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            loop {
                let n = s.read(&mut chunk).unwrap_or(0);
                buf.extend_from_slice(&chunk[..n]);
                let text = String::from_utf8_lossy(&buf).into_owned();
                if let Some(i) = text.find("\r\n\r\n") {
                    let len: usize = text
                        .lines()
                        .find_map(|l| l.strip_prefix("Content-Length: ").and_then(|v| v.trim().parse().ok()))
                        .unwrap_or(0);
                    if buf.len() >= i + 4 + len || n == 0 {
                        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
                        return text;
                    }
                }
                if n == 0 {
                    return text;
                }
            }
        });
        let layer = OtlpLayer::new(&format!("http://127.0.0.1:{port}"), "nachfolge-test", Duration::from_millis(50))
            .expect("layer");
        let subscriber = tracing_subscriber::registry().with(layer);
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!("message", trace_id = tracing::field::Empty);
            span.record("trace_id", "4bf92f3577b34da6a3ce929d0e0e4736");
            let _enter = span.enter();
            tracing::info!("handled");
        });
        let request = collector.join().expect("collector");
        assert!(request.starts_with("POST /v1/traces HTTP/1.1"), "{request}");
        let body = &request[request.find("\r\n\r\n").expect("body") + 4..];
        let v: Value = serde_json::from_str(body).expect("json");
        let span = &v["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
        assert_eq!(span["traceId"], "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(span["name"], "message");
        assert_eq!(span["spanId"].as_str().map(str::len), Some(16));
        assert_eq!(v["resourceSpans"][0]["resource"]["attributes"][0]["value"]["stringValue"], "nachfolge-test");
    }
}
