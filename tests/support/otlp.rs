//! A fake OpenTelemetry collector for the trace-export tests (tests/ops.rs, tests/tls.rs): OTLP/HTTP with
//! protobuf bodies, decoded with `opentelemetry-proto`.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

/// The spans a fake OTLP/HTTP collector received, each with its resource's `service.name`.
pub type Received = Arc<Mutex<Vec<(String, opentelemetry_proto::tonic::trace::v1::Span)>>>;

/// A fake OpenTelemetry collector on 127.0.0.1: answers `POST /v1/traces` (OTLP/HTTP, protobuf) with 200 and
/// keeps the spans; anything else gets a 404. Connections are kept alive, as the exporter's client does.
pub async fn collector() -> (std::net::SocketAddr, Received) {
    use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
    use prost::Message;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let received: Received = Arc::default();
    let sink = received.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let sink = sink.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 8192];
                loop {
                    // one request: the head, then Content-Length bytes of body
                    let head_end = loop {
                        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                            break i + 4;
                        }
                        match stream.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    };
                    let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
                    let len: usize = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:").and_then(|v| v.trim().parse().ok()))
                        .unwrap_or(0);
                    while buf.len() < head_end + len {
                        match stream.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    }
                    let body: Vec<u8> = buf.drain(..head_end + len).skip(head_end).collect();
                    let ok = head.starts_with("post /v1/traces ") && head.contains("application/x-protobuf");
                    if ok {
                        let request = ExportTraceServiceRequest::decode(body.as_slice()).expect("OTLP protobuf");
                        let mut spans = sink.lock().unwrap_or_else(|p| p.into_inner());
                        for rs in request.resource_spans {
                            let service = rs
                                .resource
                                .iter()
                                .flat_map(|r| &r.attributes)
                                .find(|kv| kv.key == "service.name")
                                .and_then(|kv| kv.value.as_ref())
                                .and_then(|v| match &v.value {
                                    Some(opentelemetry_proto::tonic::common::v1::any_value::Value::StringValue(s)) => {
                                        Some(s.clone())
                                    }
                                    _ => None,
                                })
                                .unwrap_or_default();
                            for ss in rs.scope_spans {
                                spans.extend(ss.spans.into_iter().map(|span| (service.clone(), span)));
                            }
                        }
                    }
                    let status = if ok { "200 OK" } else { "404 Not Found" };
                    let answer = format!(
                        "HTTP/1.1 {status}\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n"
                    );
                    if stream.write_all(answer.as_bytes()).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    (addr, received)
}

/// Lower-case hex of an id.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
