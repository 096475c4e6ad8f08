//! RabbitMQ: topology, inbound envelope parsing (CloudEvents structured and binary mode), publishing with
//! confirms and `mandatory`, dead-lettering with a reason header. Knows nothing of election law.

use chrono::{DateTime, Utc};
use lapin::options::{
    BasicPublishOptions, ConfirmSelectOptions, ExchangeDeclareOptions, QueueBindOptions, QueueDeclareOptions,
};
use lapin::tcp::OwnedTLSConfig;
use lapin::types::{AMQPValue, FieldTable, LongString, ShortString};
use lapin::{
    BasicProperties, Channel, Confirmation, Connection, ConnectionProperties, DefaultConnectionBuilder, ExchangeKind,
};
use serde_json::Value;

use crate::config::AmqpConfig;
use crate::messages::CloudEvent;

/// Structured-mode content type.
pub const CE_JSON: &str = "application/cloudevents+json";

/// The AMQP frame size the worker proposes (`frame_max`) unless the URL sets one: 16 KiB, so lapin's
/// buffers take 1 MiB a connection instead of 8 MiB (docs/performance.md, "Memory").
pub const FRAME_MAX: u32 = 16 * 1024;

/// Open a connection with lapin's connection and topology recovery enabled.
pub async fn connect(url: &str, name: &str) -> lapin::Result<Connection> {
    connect_with(url, name, None).await
}

/// Like [`connect`]; for `amqps://` the PEM CA certificates in `ca_pem` are trusted in addition to the
/// built-in webpki roots (also on automatic reconnects). The server name checked is the URL's host.
pub async fn connect_with(url: &str, name: &str, ca_pem: Option<&str>) -> lapin::Result<Connection> {
    let props = ConnectionProperties::default().with_connection_name(name.into()).enable_auto_recover();
    let tls = OwnedTLSConfig { identity: None, cert_chain: ca_pem.map(str::to_owned) };
    let builder = DefaultConnectionBuilder::new()?;
    // lapin keeps 32 frames of the negotiated size per direction and connection, and RabbitMQ offers
    // 128 KiB frames: 8 MiB a connection, touched page by page as the ring buffers wrap. A larger message
    // simply goes in more frames. A `frame_max` in the URL still wins; a URL that does not parse is left
    // to lapin, which reports it.
    let builder = match url.parse::<lapin::uri::AMQPUri>() {
        Ok(mut uri) => {
            uri.query.frame_max.get_or_insert(FRAME_MAX);
            builder.with_uri(uri)
        }
        Err(_) => builder.with_uri_str(url.to_owned()),
    };
    builder.with_properties(props).with_tls_config(tls).connect().await
}

/// [`connect_with`] as configured: `amqp.url`, trusting the CA certificates of `amqp.ca_file` when set
/// (the file is read at every call, so a renewed CA needs no restart).
pub async fn connect_config(cfg: &AmqpConfig, name: &str) -> lapin::Result<Connection> {
    let ca = match &cfg.ca_file {
        Some(path) => Some(read_pem_ca_file("amqp.ca_file", path)?),
        None => None,
    };
    connect_with(&cfg.url, name, ca.as_deref()).await
}

/// Reads the PEM CA bundle named by the configuration key `key` (`amqp.ca_file`, `database.ca_file`);
/// an unreadable file or one without a `-----BEGIN CERTIFICATE-----` is an error naming the key.
/// (lapin itself would silently ignore what it cannot parse and fall back to the built-in roots)
pub fn read_pem_ca_file(key: &str, path: &std::path::Path) -> std::io::Result<String> {
    let pem = std::fs::read_to_string(path)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{key} {}: {e}", path.display())))?;
    if !pem.contains("-----BEGIN CERTIFICATE-----") {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{key} {}: no PEM certificate (-----BEGIN CERTIFICATE-----) in the file", path.display()),
        ));
    }
    Ok(pem)
}

fn quorum_args(extra: &[(&str, AMQPValue)]) -> FieldTable {
    let mut t = FieldTable::default();
    t.insert("x-queue-type".into(), AMQPValue::LongString("quorum".into()));
    for (k, v) in extra {
        t.insert((*k).into(), v.clone());
    }
    t
}

fn durable() -> ExchangeDeclareOptions {
    ExchangeDeclareOptions { durable: true, ..ExchangeDeclareOptions::default() }
}

/// Declare the whole topology of docs/contract.md ("Topology"), idempotently.
pub async fn declare_topology(ch: &Channel, cfg: &AmqpConfig) -> lapin::Result<()> {
    let bind = |q: &str, x: &str| {
        let (q, x) = (q.to_owned(), x.to_owned());
        async move {
            ch.queue_bind(q.into(), x.into(), "#".into(), QueueBindOptions::default(), FieldTable::default()).await
        }
    };
    ch.exchange_declare(
        cfg.dead_letter_exchange.as_str().into(),
        ExchangeKind::Topic,
        durable(),
        FieldTable::default(),
    )
    .await?;
    ch.queue_declare(cfg.dead_letter_queue.as_str().into(), QueueDeclareOptions::durable(), quorum_args(&[])).await?;
    bind(&cfg.dead_letter_queue, &cfg.dead_letter_exchange).await?;

    ch.exchange_declare(cfg.commands_exchange.as_str().into(), ExchangeKind::Topic, durable(), FieldTable::default())
        .await?;
    let args = quorum_args(&[
        ("x-delivery-limit", AMQPValue::LongLongInt(i64::from(cfg.delivery_limit))),
        ("x-dead-letter-exchange", AMQPValue::LongString(cfg.dead_letter_exchange.as_str().into())),
    ]);
    ch.queue_declare(cfg.commands_queue.as_str().into(), QueueDeclareOptions::durable(), args).await?;
    bind(&cfg.commands_queue, &cfg.commands_exchange).await?;

    ch.exchange_declare(cfg.events_exchange.as_str().into(), ExchangeKind::Topic, durable(), FieldTable::default())
        .await?;
    if !cfg.events_queue.is_empty() {
        ch.queue_declare(cfg.events_queue.as_str().into(), QueueDeclareOptions::durable(), quorum_args(&[])).await?;
        bind(&cfg.events_queue, &cfg.events_exchange).await?;
    }
    Ok(())
}

/// A channel in confirm mode.
pub async fn confirm_channel(conn: &Connection) -> lapin::Result<Channel> {
    let ch = conn.create_channel().await?;
    ch.confirm_select(ConfirmSelectOptions::default()).await?;
    Ok(ch)
}

/// The result of one confirmed, mandatory publish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Published {
    Confirmed,
    /// No queue is bound for the routing key: the event is kept and retried.
    Unroutable,
    Nacked,
}

impl From<Confirmation> for Published {
    fn from(c: Confirmation) -> Self {
        match c {
            Confirmation::Ack(Some(_)) => Published::Unroutable,
            Confirmation::Ack(None) | Confirmation::NotRequested => Published::Confirmed,
            Confirmation::Nack(_) => Published::Nacked,
        }
    }
}

/// AMQP properties mirroring a CloudEvent: `message_id` = id, `type`, content type, timestamp, persistent.
pub fn event_properties(id: &str, ty: &str, time: Option<DateTime<Utc>>) -> BasicProperties {
    let mut p = BasicProperties::default()
        .with_message_id(id.into())
        .with_type(ty.into())
        .with_content_type(CE_JSON.into())
        .with_delivery_mode(2);
    if let Some(t) = time {
        p = p.with_timestamp(t.timestamp().max(0) as u64);
    }
    p
}

/// Publish a structured-mode event (mandatory) and return the pending confirmation.
pub async fn publish_event(ch: &Channel, exchange: &str, event: &Value) -> lapin::Result<lapin::PublisherConfirm> {
    let text = |name: &str| event.get(name).and_then(Value::as_str).filter(|v| !v.is_empty()).map(str::to_owned);
    let meta = EventMeta {
        id: text("id").unwrap_or_default(),
        ty: text("type").unwrap_or_default(),
        time: text("time").and_then(|t| DateTime::parse_from_rfc3339(&t).ok()).map(|t| t.with_timezone(&Utc)),
        traceparent: text("traceparent"),
        tracestate: text("tracestate"),
    };
    publish_raw(ch, exchange, &meta, event.to_string().as_bytes()).await
}

/// What the AMQP properties of a published event carry.
#[derive(Debug, Clone, Default)]
pub struct EventMeta {
    pub id: String,
    pub ty: String,
    pub time: Option<DateTime<Utc>>,
    pub traceparent: Option<String>,
    pub tracestate: Option<String>,
}

/// Publish an event already serialised (structured mode), routed by its type.
pub async fn publish_raw(
    ch: &Channel,
    exchange: &str,
    meta: &EventMeta,
    payload: &[u8],
) -> lapin::Result<lapin::PublisherConfirm> {
    let mut props = event_properties(&meta.id, &meta.ty, meta.time);
    // W3C trace context (CloudEvents distributed-tracing extension) mirrored as AMQP headers
    let mut headers = FieldTable::default();
    for (name, value) in [("traceparent", &meta.traceparent), ("tracestate", &meta.tracestate)] {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
            headers.insert(name.into(), long_string(v));
        }
    }
    if !headers.inner().is_empty() {
        props = props.with_headers(headers);
    }
    ch.basic_publish(
        exchange.into(),
        meta.ty.as_str().into(),
        BasicPublishOptions { mandatory: true, ..BasicPublishOptions::default() },
        payload,
        props,
    )
    .await
}

/// Send a refused message to the dead-letter exchange with the header `x-rejection-reason`.
pub async fn dead_letter(
    ch: &Channel,
    exchange: &str,
    routing_key: &str,
    data: &[u8],
    props: &BasicProperties,
    reason: &str,
) -> lapin::Result<Published> {
    let mut headers = props.headers().clone().unwrap_or_default();
    headers.insert("x-rejection-reason".into(), AMQPValue::LongString(truncate(reason, 4000).into()));
    let props = props.clone().with_headers(headers).with_delivery_mode(2);
    let key = if routing_key.is_empty() { "unknown" } else { routing_key };
    let confirm = ch.basic_publish(exchange.into(), key.into(), BasicPublishOptions::default(), data, props).await?;
    Ok(confirm.await?.into())
}

fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_owned();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_owned()
}

/// An inbound event after envelope parsing.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    pub id: String,
    pub ty: String,
    pub subject: Option<String>,
    pub data: Value,
    /// W3C `traceparent` (CloudEvents extension attribute, or the AMQP header), if present and valid.
    pub traceparent: Option<String>,
    /// W3C `tracestate`, kept only together with a valid `traceparent`.
    pub tracestate: Option<String>,
}

/// Why a delivery's envelope is refused; carries what is known of id and type for `message.rejected`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvelopeError {
    pub id: Option<String>,
    pub ty: Option<String>,
    pub reason: String,
}

fn header_str(headers: &FieldTable, names: &[&str]) -> Option<String> {
    names.iter().find_map(|n| match headers.inner().get(&ShortString::from(*n))? {
        AMQPValue::LongString(s) => Some(String::from_utf8_lossy(s.as_bytes()).into_owned()),
        AMQPValue::ShortString(s) => Some(s.as_str().to_owned()),
        _ => None,
    })
}

fn ce_header(headers: &FieldTable, attr: &str) -> Option<String> {
    header_str(headers, &[&format!("cloudEvents_{attr}"), &format!("cloudEvents:{attr}"), &format!("ce_{attr}")])
}

/// Parse an AMQP message into an [`Envelope`]: structured mode (`application/cloudevents+json`) or binary
/// mode (data as the body, attributes in `cloudEvents_*` / `cloudEvents:*` headers or the AMQP `type` and
/// `message_id` properties).
pub fn parse_envelope(data: &[u8], props: &BasicProperties, max_bytes: usize) -> Result<Envelope, EnvelopeError> {
    let headers = props.headers().clone().unwrap_or_default();
    let prop_id = props.message_id().as_ref().map(|s| s.as_str().to_owned());
    let prop_ty = props.kind().as_ref().map(|s| s.as_str().to_owned());
    let hdr_id = ce_header(&headers, "id");
    let hdr_ty = ce_header(&headers, "type");
    let known = |reason: String| EnvelopeError {
        id: hdr_id.clone().or_else(|| prop_id.clone()),
        ty: hdr_ty.clone().or_else(|| prop_ty.clone()),
        reason,
    };
    if data.len() > max_bytes {
        return Err(known(format!("message too large: {} bytes, the limit is {max_bytes}", data.len())));
    }
    if std::str::from_utf8(data).is_err() {
        return Err(known("body is not valid UTF-8".into()));
    }
    let content_type = props.content_type().as_ref().map(|c| c.as_str().to_ascii_lowercase());
    let media = content_type.as_deref().map(|c| c.split(';').next().unwrap_or("").trim().to_owned());
    let trace = |mut env: Envelope| {
        // structured mode: the extension attribute wins; otherwise (and in binary mode) the headers
        if env.traceparent.is_none() {
            env.traceparent = header_str(&headers, &["traceparent"])
                .or_else(|| ce_header(&headers, "traceparent"))
                .and_then(|t| valid_traceparent(&t));
            env.tracestate = env
                .traceparent
                .as_ref()
                .and(header_str(&headers, &["tracestate"]).or_else(|| ce_header(&headers, "tracestate")))
                .and_then(|t| valid_tracestate(&t));
        }
        env
    };
    match media.as_deref() {
        Some(CE_JSON) => structured(data, known).map(trace),
        Some("application/json") | None if hdr_id.is_some() || hdr_ty.is_some() || prop_ty.is_some() => {
            let id = hdr_id.clone().or_else(|| prop_id.clone()).filter(|s| !s.is_empty());
            let ty = hdr_ty.clone().or_else(|| prop_ty.clone()).filter(|s| !s.is_empty());
            let (Some(id), Some(ty)) = (id, ty) else {
                return Err(known("binary mode: id and type are required (cloudEvents_id / cloudEvents_type headers or AMQP message_id / type properties)".into()));
            };
            let value: Value = serde_json::from_slice(data).map_err(|e| known(format!("data: invalid JSON: {e}")))?;
            let env = Envelope {
                id,
                ty,
                subject: ce_header(&headers, "subject"),
                data: value,
                traceparent: None,
                tracestate: None,
            };
            Ok(trace(env))
        }
        None => structured(data, known).map(trace),
        Some(other) => Err(known(format!(
            "content type {other:?} is not supported: use {CE_JSON} (structured mode) or application/json with CloudEvents headers (binary mode)"
        ))),
    }
}

fn structured(data: &[u8], known: impl Fn(String) -> EnvelopeError) -> Result<Envelope, EnvelopeError> {
    let value: Value = serde_json::from_slice(data).map_err(|e| known(format!("invalid JSON: {e}")))?;
    let id = value.get("id").and_then(Value::as_str).map(str::to_owned);
    let ty = value.get("type").and_then(Value::as_str).map(str::to_owned);
    let err = |reason: String| EnvelopeError { id: id.clone(), ty: ty.clone(), reason };
    let ev: CloudEvent = serde_json::from_value(value.clone()).map_err(|e| err(format!("envelope: {e}")))?;
    if ev.specversion != "1.0" {
        return Err(err(format!("specversion: {:?} is not supported, expected \"1.0\"", ev.specversion)));
    }
    if ev.id.is_empty() {
        return Err(err("id: must not be empty".into()));
    }
    if let Some(ct) = ev.datacontenttype.as_deref() {
        if !ct.starts_with("application/json") {
            return Err(err(format!("datacontenttype: {ct:?} is not supported, expected application/json")));
        }
    }
    let traceparent = value.get("traceparent").and_then(Value::as_str).and_then(valid_traceparent);
    let tracestate =
        traceparent.as_ref().and(value.get("tracestate").and_then(Value::as_str)).and_then(valid_tracestate);
    Ok(Envelope { id: ev.id, ty: ev.ty, subject: ev.subject, data: ev.data, traceparent, tracestate })
}

/// A W3C `traceparent` (`00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`), normalised to lower
/// case; `None` when it is malformed (an invalid trace context is dropped, never passed on).
pub fn valid_traceparent(s: &str) -> Option<String> {
    let s = s.trim().to_ascii_lowercase();
    let hex = |p: &str, n: usize| p.len() == n && p.bytes().all(|b| b.is_ascii_hexdigit());
    let mut parts = s.splitn(5, '-');
    let (version, trace, parent, flags) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let rest = parts.next();
    let ok = hex(version, 2)
        && version != "ff"
        && hex(trace, 32)
        && trace.bytes().any(|b| b != b'0')
        && hex(parent, 16)
        && parent.bytes().any(|b| b != b'0')
        && hex(flags, 2)
        // version 00 has exactly four fields; later versions may append more
        && (rest.is_none() || version != "00");
    ok.then_some(s)
}

/// The 32-hex trace id of a valid `traceparent`.
pub fn trace_id(traceparent: &str) -> Option<&str> {
    traceparent.get(3..35).filter(|t| t.len() == 32)
}

/// A W3C `tracestate`: printable ASCII, at most 512 characters (else dropped).
fn valid_tracestate(s: &str) -> Option<String> {
    let s = s.trim();
    (!s.is_empty() && s.len() <= 512 && s.bytes().all(|b| (0x20..0x7f).contains(&b))).then(|| s.to_owned())
}

/// A header value as text, for tests and tools.
pub fn header_text(props: &BasicProperties, name: &str) -> Option<String> {
    header_str(&props.headers().clone().unwrap_or_default(), &[name])
}

/// Convert text into an AMQP long string value.
pub fn long_string(s: &str) -> AMQPValue {
    AMQPValue::LongString(LongString::from(s.as_bytes().to_vec()))
}
