//! A minimal HTTP/1.1 server for the operational endpoints, on a plain tokio `TcpListener`:
//!
//! * `GET /healthz` → 200 `{"status":"ok"}` (the process is alive);
//! * `GET /readyz` → runs the readiness checks; 200 when all pass, else 503;
//!   body `{"ready":bool,"checks":{"database":true,…}}`;
//! * `GET /metrics` → 200, Prometheus text format 0.0.4;
//! * any other path → 404; another method on a known path → 405.
//!
//! Only the request head is read (at most 8 KiB, within 5 s); every response closes the connection.
//! Each connection runs in its own task.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

use crate::metrics::{self, Metrics};

/// Largest request head accepted.
pub const MAX_HEAD_BYTES: usize = 8 * 1024;
/// Time allowed to send the request head.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// Time allowed for the readiness checks; a check that has not answered by then counts as failed.
pub const READINESS_TIMEOUT: Duration = Duration::from_secs(5);
/// Time in-flight connections get to finish after shutdown.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);

/// Counter of answered requests, by route and status.
pub const REQUESTS_METRIC: &str = "nachfolge_http_requests_total";

/// What [`Readiness::check`] returns: named check results.
pub type ReadinessFuture<'a> = Pin<Box<dyn Future<Output = Vec<(&'static str, bool)>> + Send + 'a>>;

/// The readiness checks behind `/readyz`, e.g. `[("database", true), ("broker", true), ("consumer", false)]`.
pub trait Readiness: Send + Sync {
    /// Runs every check; each result is named.
    fn check(&self) -> ReadinessFuture<'_>;
}

/// What the endpoints serve.
#[derive(Clone)]
pub struct HttpState {
    pub metrics: Arc<Metrics>,
    pub readiness: Arc<dyn Readiness>,
    /// Read endpoints under `/bodies/` (answered by the worker), if any.
    pub reads: Option<Arc<dyn Reads>>,
}

/// The future a [`Reads`] lookup returns: status and JSON body, `None` for an unknown path.
pub type ReadFuture<'a> = std::pin::Pin<Box<dyn Future<Output = Option<(u16, String)>> + Send + 'a>>;

/// Read-only resources under `/bodies/…`.
pub trait Reads: Send + Sync {
    fn get<'a>(&'a self, path: &'a str) -> ReadFuture<'a>;
}

/// Serves the endpoints on `listener` until `shutdown` completes, then lets in-flight connections finish
/// (for a few seconds at most).
pub async fn serve(listener: TcpListener, state: HttpState, shutdown: impl Future<Output = ()>) {
    state.metrics.help(REQUESTS_METRIC, "HTTP requests answered, by route and status.");
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, "HTTP endpoints listening");
    }
    let mut connections = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => {
                    let state = state.clone();
                    connections.spawn(async move { handle_connection(stream, &state).await });
                }
                Err(error) => {
                    // E.g. too many open files: back off briefly instead of spinning.
                    tracing::warn!(%error, "HTTP accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            // Reap finished connections so the set does not grow.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    let drained = tokio::time::timeout(DRAIN_TIMEOUT, async { while connections.join_next().await.is_some() {} }).await;
    if drained.is_err() {
        connections.abort_all();
    }
    tracing::debug!("HTTP endpoints stopped");
}

/// A response before it is written.
struct Response {
    status: u16,
    content_type: &'static str,
    body: String,
    allow: bool,
}

impl Response {
    fn json(status: u16, body: String) -> Self {
        Self { status, content_type: "application/json", body, allow: false }
    }

    fn text(status: u16, body: &str) -> Self {
        Self { status, content_type: "text/plain; charset=utf-8", body: body.to_owned(), allow: false }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

enum Head {
    Complete(Vec<u8>),
    TooLarge,
    Closed,
}

async fn read_head(stream: &mut TcpStream) -> std::io::Result<Head> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(Head::Closed);
        }
        let search_from = buf.len().saturating_sub(3);
        buf.extend_from_slice(&chunk[..n]);
        if let Some(pos) = find_head_end(&buf[search_from..]) {
            let end = search_from + pos;
            if end > MAX_HEAD_BYTES {
                return Ok(Head::TooLarge);
            }
            buf.truncate(end);
            return Ok(Head::Complete(buf));
        }
        if buf.len() > MAX_HEAD_BYTES {
            return Ok(Head::TooLarge);
        }
    }
}

/// Offset just past the blank line that ends the head (`\r\n\r\n`, or bare `\n\n`).
fn find_head_end(buf: &[u8]) -> Option<usize> {
    let crlf = buf.windows(4).position(|w| w == b"\r\n\r\n").map(|p| p + 4);
    let lf = buf.windows(2).position(|w| w == b"\n\n").map(|p| p + 2);
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

async fn handle_connection(mut stream: TcpStream, state: &HttpState) {
    let response = match tokio::time::timeout(HEAD_TIMEOUT, read_head(&mut stream)).await {
        Err(_elapsed) => Some((Response::text(408, "request timeout\n"), "other")),
        Ok(Err(_)) | Ok(Ok(Head::Closed)) => None,
        Ok(Ok(Head::TooLarge)) => Some((Response::text(431, "request head too large\n"), "other")),
        Ok(Ok(Head::Complete(head))) => Some(route(&head, state).await),
    };
    let Some((response, route_label)) = response else {
        return;
    };
    let status = response.status.to_string();
    state.metrics.inc_counter(REQUESTS_METRIC, &[("route", route_label), ("status", &status)], 1);
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n",
        response.status,
        reason(response.status),
        response.content_type,
        response.body.len()
    );
    if response.allow {
        head.push_str("Allow: GET\r\n");
    }
    head.push_str("\r\n");
    let write = async {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(response.body.as_bytes()).await?;
        stream.shutdown().await
    };
    if let Err(error) = tokio::time::timeout(HEAD_TIMEOUT, write)
        .await
        .unwrap_or_else(|_| Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "write timed out")))
    {
        tracing::debug!(%error, "HTTP response not delivered");
        return;
    }
    // Drain what the client still sends (e.g. a request body) until it closes, so that closing does
    // not reset the connection before the client has read the response.
    let drain = async {
        let mut sink = [0u8; 1024];
        let mut drained = 0usize;
        while drained < 64 * 1024 {
            match stream.read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => drained += n,
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
}

/// Answers one request head; returns the response and the route label for the metrics.
async fn route(head: &[u8], state: &HttpState) -> (Response, &'static str) {
    let Some((method, target)) = parse_request_line(head) else {
        return (Response::text(400, "bad request\n"), "other");
    };
    let path = target.split(['?', '#']).next().unwrap_or(target);
    let route = match path {
        "/healthz" => "healthz",
        "/readyz" => "readyz",
        "/metrics" => "metrics",
        p if p.starts_with("/bodies/") && state.reads.is_some() => "bodies",
        _ => return (Response::text(404, "not found\n"), "other"),
    };
    if method != "GET" {
        let mut response = Response::text(405, "method not allowed\n");
        response.allow = true;
        return (response, route);
    }
    let response = match route {
        "healthz" => Response::json(200, r#"{"status":"ok"}"#.to_owned()),
        "readyz" => readyz(state).await,
        "bodies" => match state.reads.as_ref() {
            Some(reads) => match reads.get(path).await {
                Some((status, body)) => Response::json(status, body),
                None => Response::text(404, "not found\n"),
            },
            None => Response::text(404, "not found\n"),
        },
        _ => Response { status: 200, content_type: metrics::CONTENT_TYPE, body: state.metrics.render(), allow: false },
    };
    (response, route)
}

async fn readyz(state: &HttpState) -> Response {
    let checks = tokio::time::timeout(READINESS_TIMEOUT, state.readiness.check()).await.ok();
    let (ready, checks) = match checks {
        Some(checks) => {
            let ready = checks.iter().all(|(_, ok)| *ok);
            let map: serde_json::Map<String, serde_json::Value> =
                checks.into_iter().map(|(name, ok)| (name.to_owned(), serde_json::Value::Bool(ok))).collect();
            (ready, map)
        }
        None => {
            tracing::warn!("readiness checks timed out");
            let mut map = serde_json::Map::new();
            map.insert("timeout".to_owned(), serde_json::Value::Bool(false));
            (false, map)
        }
    };
    let body = serde_json::json!({ "ready": ready, "checks": checks }).to_string();
    Response::json(if ready { 200 } else { 503 }, body)
}

/// Method and target of the request line, if it is well-formed HTTP/1.x.
fn parse_request_line(head: &[u8]) -> Option<(&str, &str)> {
    let line_end = head.iter().position(|b| *b == b'\n')?;
    let line = std::str::from_utf8(&head[..line_end]).ok()?.trim_end_matches('\r');
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    if method.is_empty() || !target.starts_with('/') || !version.starts_with("HTTP/1.") {
        return None;
    }
    Some((method, target))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    struct Checks {
        broker: AtomicBool,
    }

    impl Readiness for Checks {
        fn check(&self) -> ReadinessFuture<'_> {
            Box::pin(async move { vec![("database", true), ("broker", self.broker.load(Ordering::SeqCst))] })
        }
    }

    struct Server {
        addr: std::net::SocketAddr,
        checks: Arc<Checks>,
        metrics: Arc<Metrics>,
        stop: Option<tokio::sync::oneshot::Sender<()>>,
        task: tokio::task::JoinHandle<()>,
    }

    async fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let checks = Arc::new(Checks { broker: AtomicBool::new(true) });
        let metrics = Arc::new(Metrics::new());
        let state = HttpState { metrics: metrics.clone(), readiness: checks.clone(), reads: None };
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(serve(listener, state, async {
            let _ = stopped.await;
        }));
        Server { addr, checks, metrics, stop: Some(stop), task }
    }

    async fn request(addr: std::net::SocketAddr, raw: &str) -> (u16, String, String) {
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        stream.write_all(raw.as_bytes()).await.expect("write");
        let mut response = String::new();
        tokio::time::timeout(Duration::from_secs(10), stream.read_to_string(&mut response))
            .await
            .expect("response in time")
            .expect("read");
        let (head, body) = response.split_once("\r\n\r\n").expect("head and body");
        let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("status");
        (status, head.to_owned(), body.to_owned())
    }

    fn get(path: &str) -> String {
        format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nUser-Agent: test\r\n\r\n")
    }

    #[tokio::test]
    async fn healthz_readyz_metrics_and_errors() {
        let mut server = start().await;

        let (status, head, body) = request(server.addr, &get("/healthz")).await;
        assert_eq!(status, 200);
        assert_eq!(body, r#"{"status":"ok"}"#);
        assert!(head.contains("Content-Type: application/json"), "{head}");
        assert!(head.contains("Connection: close"), "{head}");
        assert!(head.contains("Content-Length: 15"), "{head}");

        let (status, _, body) = request(server.addr, &get("/readyz")).await;
        assert_eq!(status, 200);
        let json: serde_json::Value = serde_json::from_str(&body).expect("json");
        assert_eq!(json, serde_json::json!({"ready": true, "checks": {"database": true, "broker": true}}));

        server.checks.broker.store(false, Ordering::SeqCst);
        let (status, _, body) = request(server.addr, &get("/readyz?verbose=1")).await;
        assert_eq!(status, 503);
        let json: serde_json::Value = serde_json::from_str(&body).expect("json");
        assert_eq!(json["ready"], false);
        assert_eq!(json["checks"]["broker"], false);
        assert_eq!(json["checks"]["database"], true);

        server.metrics.inc_counter("nachfolge_test_total", &[], 5);
        let (status, head, body) = request(server.addr, &get("/metrics")).await;
        assert_eq!(status, 200);
        assert!(head.contains("Content-Type: text/plain; version=0.0.4"), "{head}");
        assert!(body.contains("nachfolge_test_total 5\n"), "{body}");
        assert!(body.contains("nachfolge_http_requests_total{route=\"readyz\",status=\"503\"} 1"), "{body}");

        let (status, _, _) = request(server.addr, &get("/nope")).await;
        assert_eq!(status, 404);

        let (status, head, _) =
            request(server.addr, "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}").await;
        assert_eq!(status, 405);
        assert!(head.contains("Allow: GET"), "{head}");

        let (status, _, _) = request(server.addr, "garbage\r\n\r\n").await;
        assert_eq!(status, 400);

        let huge = format!("GET /healthz HTTP/1.1\r\nX-Fill: {}\r\n\r\n", "a".repeat(MAX_HEAD_BYTES));
        let (status, _, _) = request(server.addr, &huge).await;
        assert_eq!(status, 431);

        // Bare LF line endings are tolerated.
        let (status, _, _) = request(server.addr, "GET /healthz HTTP/1.0\n\n").await;
        assert_eq!(status, 200);

        if let Some(stop) = server.stop.take() {
            let _ = stop.send(());
        }
        tokio::time::timeout(Duration::from_secs(10), &mut server.task)
            .await
            .expect("server stops")
            .expect("server task");
        assert!(TcpStream::connect(server.addr).await.is_err());
    }

    #[tokio::test]
    async fn slow_clients_time_out() {
        let server = start().await;
        let mut stream = TcpStream::connect(server.addr).await.expect("connect");
        stream.write_all(b"GET /healthz HTTP/1.1\r\n").await.expect("write");
        let mut response = String::new();
        tokio::time::timeout(HEAD_TIMEOUT * 2, stream.read_to_string(&mut response))
            .await
            .expect("answered within the head timeout")
            .expect("read");
        assert!(response.starts_with("HTTP/1.1 408 "), "{response}");
    }
}
