//! The operational endpoints, an [`axum`] router served over HTTP/1.1 by hyper:
//!
//! * `GET /healthz` → 200 `{"status":"ok"}` (the process is alive);
//! * `GET /readyz` → runs the readiness checks; 200 when all pass, else 503;
//!   body `{"ready":bool,"checks":{"database":true,…}}`;
//! * `GET /metrics` → 200, Prometheus text format 0.0.4;
//! * any other path → 404; another method on a known path → 405 with `Allow` (`HEAD` is answered like
//!   `GET`, without the body).
//!
//! The request head must arrive within 5 s (else the connection is closed) and fit in 8 KiB (else 431);
//! a malformed request gets 400. Every response closes the connection (no idle keep-alive), and no
//! connection lives longer than [`Limits::connection_timeout`] (30 s here), however slowly its client reads.
//! At most [`Limits::max_connections`] connections are served at once; further ones wait in the listen queue.
//!
//! Nothing here carries personal data: the council's snapshot and cases (`/bodies/{id}`) are served by the
//! Wahlleiter console behind sign-in ([`crate::console`], on its own listener). [`serve_router`] serves
//! both listeners the same way.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{on, MethodFilter};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::task::JoinSet;

use crate::metrics::{self, Metrics};

/// Largest request head accepted.
pub const MAX_HEAD_BYTES: usize = 8 * 1024;
/// Time allowed to send the request head.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// Time an operations connection may live in all ([`Limits::connection_timeout`]).
pub const CONNECTION_TIMEOUT: Duration = Duration::from_secs(30);
/// Time allowed for the readiness checks; a check that has not answered by then counts as failed.
pub const READINESS_TIMEOUT: Duration = Duration::from_secs(5);
/// How a listener bounds its clients ([`serve_router`]); the console's come from its settings
/// (docs/security.md "The console's listener").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Connections served at once; further ones are not accepted (they wait in the listen queue) until one
    /// ends.
    pub max_connections: usize,
    /// Time allowed to send the request head; then the connection is closed without an answer.
    pub head_timeout: Duration,
    /// Largest request head hyper reads (at least 8 KiB); beyond it hyper answers 431 (without a body).
    pub max_head_bytes: usize,
    /// Most header fields hyper reads; beyond them hyper answers 431 (without a body).
    pub max_headers: usize,
    /// Time a connection may live from its acceptance: head, body, the handler and the sending of the answer
    /// together. Then it is closed, whatever it is doing — a client that reads its answer slowly (or not at
    /// all) gives its slot back at the latest then.
    pub connection_timeout: Duration,
}

impl Default for Limits {
    /// The operations endpoints' limits.
    fn default() -> Self {
        Limits {
            max_connections: 256,
            head_timeout: HEAD_TIMEOUT,
            max_head_bytes: MAX_HEAD_BYTES,
            max_headers: 100,
            connection_timeout: CONNECTION_TIMEOUT,
        }
    }
}

/// Time in-flight connections get to finish after shutdown.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);

/// Counter of answered requests, by route and status.
pub const REQUESTS_METRIC: &str = "nachfolge_http_requests_total";

/// The client's address, in the extensions of every request [`serve_router`] hands on (axum's own
/// `ConnectInfo` needs its `tokio` feature and its own serve loop).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub std::net::SocketAddr);

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
}

/// The routes [`serve`] answers.
pub fn router(state: HttpState) -> Router {
    Router::new()
        .route("/healthz", on(MethodFilter::GET, healthz))
        .route("/readyz", on(MethodFilter::GET, readyz))
        .route("/metrics", on(MethodFilter::GET, render_metrics))
        .fallback(|| async { text(StatusCode::NOT_FOUND, "not found\n") })
        .method_not_allowed_fallback(|| async { text(StatusCode::METHOD_NOT_ALLOWED, "method not allowed\n") })
        .layer(middleware::from_fn_with_state(state.clone(), count_answers))
        .with_state(state)
}

/// Serves the endpoints on `listener` until `shutdown` completes, then lets in-flight connections finish
/// (for a few seconds at most).
pub async fn serve(listener: TcpListener, state: HttpState, shutdown: impl Future<Output = ()>) {
    state.metrics.help(REQUESTS_METRIC, "HTTP requests answered, by route and status.");
    serve_router(listener, router(state), "HTTP endpoints", Limits::default(), shutdown).await;
}

/// Serves `router` on `listener` as described in the module documentation (`limits`: connections at once,
/// head timeout and size, header count; one request per connection, drain at shutdown). Each request
/// carries the client's address ([`ClientAddr`]).
pub async fn serve_router(
    listener: TcpListener,
    router: Router,
    what: &'static str,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    use tower::ServiceExt as _;
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, "{what} listening");
    }
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.head_timeout)
        // hyper refuses a buffer below 8 KiB
        .max_buf_size(limits.max_head_bytes.max(MAX_HEAD_BYTES))
        .max_headers(limits.max_headers.max(1))
        .keep_alive(false);
    let max_connections = limits.max_connections.max(1);
    let mut connections = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            biased;
            () = &mut shutdown => break,
            // Reap finished connections first, so that a freed slot is seen.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            // At the limit nothing is accepted: further clients wait in the listen queue.
            accepted = listener.accept(), if connections.len() < max_connections => match accepted {
                Ok((stream, peer)) => {
                    let service = TowerToHyperService::new(router.clone().map_request(
                        move |mut request: axum::http::Request<hyper::body::Incoming>| {
                            request.extensions_mut().insert(ClientAddr(peer));
                            request
                        },
                    ));
                    let connection = http.serve_connection(TokioIo::new(stream), service);
                    let deadline = limits.connection_timeout;
                    connections.spawn(async move {
                        match tokio::time::timeout(deadline, connection).await {
                            Ok(Ok(())) => {}
                            Ok(Err(error)) => tracing::debug!(%error, "HTTP connection ended with an error"),
                            // dropping the connection closes the socket and frees the slot
                            Err(_) => tracing::debug!("HTTP connection closed at its deadline"),
                        }
                    });
                }
                Err(error) => {
                    // E.g. too many open files: back off briefly instead of spinning.
                    tracing::warn!(%error, "HTTP accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
        }
    }
    drop(listener);
    let drained = tokio::time::timeout(DRAIN_TIMEOUT, async { while connections.join_next().await.is_some() {} }).await;
    if drained.is_err() {
        connections.abort_all();
    }
    tracing::debug!("{what} stopped");
}

/// Counts every answer of the router by route and status, and marks it not to be cached.
async fn count_answers(State(state): State<HttpState>, request: Request, next: Next) -> Response {
    let route = match request.extensions().get::<MatchedPath>().map(MatchedPath::as_str) {
        Some("/healthz") => "healthz",
        Some("/readyz") => "readyz",
        Some("/metrics") => "metrics",
        _ => "other",
    };
    let mut response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    state.metrics.inc_counter(REQUESTS_METRIC, &[("route", route), ("status", &status)], 1);
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn text(status: StatusCode, body: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body).into_response()
}

fn json(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

async fn healthz() -> Response {
    json(StatusCode::OK, r#"{"status":"ok"}"#.to_owned())
}

async fn render_metrics(State(state): State<HttpState>) -> Response {
    ([(header::CONTENT_TYPE, metrics::CONTENT_TYPE)], state.metrics.render()).into_response()
}

async fn readyz(State(state): State<HttpState>) -> Response {
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
    json(if ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE }, body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

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
        let state = HttpState { metrics: metrics.clone(), readiness: checks.clone() };
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(serve(listener, state, async {
            let _ = stopped.await;
        }));
        Server { addr, checks, metrics, stop: Some(stop), task }
    }

    /// Status, head and body of the answer to `raw`, read until the server closes the connection.
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

    /// The value of header `name` in `head` (names are case-insensitive).
    fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
        head.lines().skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim())
        })
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
        assert_eq!(header(&head, "content-type"), Some("application/json"), "{head}");
        assert_eq!(header(&head, "connection"), Some("close"), "{head}");
        assert_eq!(header(&head, "content-length"), Some("15"), "{head}");
        assert_eq!(header(&head, "cache-control"), Some("no-store"), "{head}");

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

        let (status, head, body) = request(server.addr, &get("/nope")).await;
        assert_eq!(status, 404);
        assert_eq!(body, "not found\n");
        assert_eq!(header(&head, "content-type"), Some("text/plain; charset=utf-8"), "{head}");
        // The council's data is not served here (the console serves it behind sign-in).
        let (status, _, _) = request(server.addr, &get("/bodies/rat")).await;
        assert_eq!(status, 404);

        let (status, head, body) =
            request(server.addr, "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}").await;
        assert_eq!(status, 405);
        assert_eq!(body, "method not allowed\n");
        assert_eq!(header(&head, "allow"), Some("GET,HEAD"), "{head}");

        // HEAD is answered like GET, without the body.
        let (status, head, body) = request(server.addr, "HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await;
        assert_eq!(status, 200);
        assert_eq!(header(&head, "content-length"), Some("15"), "{head}");
        assert_eq!(body, "");

        let (status, _, _) = request(server.addr, "garbage\r\n\r\n").await;
        assert_eq!(status, 400);

        let huge = format!("GET /healthz HTTP/1.1\r\nX-Fill: {}\r\n\r\n", "a".repeat(MAX_HEAD_BYTES));
        let (status, _, _) = request(server.addr, &huge).await;
        assert_eq!(status, 431);

        // Bare LF line endings are tolerated.
        let (status, _, _) = request(server.addr, "GET /healthz HTTP/1.0\n\n").await;
        assert_eq!(status, 200);

        server.metrics.inc_counter("nachfolge_test_total", &[], 5);
        let (status, head, body) = request(server.addr, &get("/metrics")).await;
        assert_eq!(status, 200);
        assert_eq!(header(&head, "content-type"), Some("text/plain; version=0.0.4; charset=utf-8"), "{head}");
        assert!(body.contains("\nnachfolge_test_total 5\n"), "{body}");
        for series in [
            "nachfolge_http_requests_total{route=\"healthz\",status=\"200\"} 3",
            "nachfolge_http_requests_total{route=\"healthz\",status=\"405\"} 1",
            "nachfolge_http_requests_total{route=\"readyz\",status=\"200\"} 1",
            "nachfolge_http_requests_total{route=\"readyz\",status=\"503\"} 1",
            "nachfolge_http_requests_total{route=\"other\",status=\"404\"} 2",
        ] {
            assert!(body.contains(series), "{series} in {body}");
        }

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
    async fn slow_clients_are_cut_off() {
        let server = start().await;
        let started = std::time::Instant::now();
        // One client sends half a head, one nothing at all.
        let mut half = TcpStream::connect(server.addr).await.expect("connect");
        half.write_all(b"GET /healthz HTTP/1.1\r\n").await.expect("write");
        let mut silent = TcpStream::connect(server.addr).await.expect("connect");
        for stream in [&mut half, &mut silent] {
            let mut response = String::new();
            // hyper closes the connection when the head timeout passes, without a response (closed or reset).
            let _closed = tokio::time::timeout(HEAD_TIMEOUT * 2, stream.read_to_string(&mut response))
                .await
                .expect("closed within the head timeout");
            assert!(response.is_empty(), "{response}");
        }
        assert!(started.elapsed() >= HEAD_TIMEOUT - Duration::from_millis(100));
    }

    /// A client that asks for a large answer and never reads it holds its slot only until the connection's
    /// deadline: with one slot, the next client is served after it (issue 26 point 8, slow clients).
    #[tokio::test]
    async fn a_client_that_does_not_read_its_answer_gives_its_slot_back_at_the_deadline() {
        const DEADLINE: Duration = Duration::from_secs(1);
        let big = axum::routing::get(|| async { vec![b'x'; 64 * 1024 * 1024] });
        let small = axum::routing::get(|| async { "small" });
        let router = Router::new().route("/big", big).route("/small", small);
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let limits = Limits { max_connections: 1, connection_timeout: DEADLINE, ..Limits::default() };
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(serve_router(listener, router, "test", limits, async {
            let _ = stopped.await;
        }));

        // The first client asks for 64 MiB — more than the socket buffers hold — and reads nothing.
        let mut hog = TcpStream::connect(addr).await.expect("connect");
        hog.write_all(get("/big").as_bytes()).await.expect("write");
        tokio::time::sleep(Duration::from_millis(200)).await;
        let started = std::time::Instant::now();
        // The second waits in the listen queue until the first's deadline frees the one slot.
        let (status, _, body) = request(addr, &get("/small")).await;
        assert_eq!((status, body.as_str()), (200, "small"));
        assert!(started.elapsed() < DEADLINE * 5, "served only after {:?}", started.elapsed());
        drop(hog);
        let _ = stop.send(());
        let _ = tokio::time::timeout(Duration::from_secs(10), task).await;
    }
}
