//! Operator commands: `publish` (smoke tests), `dead-letters list|redrive`, `cases`.
//!
//! They read the normal configuration and never declare topology (the worker does that on start, or the
//! broker definitions of the deployment), so an operator account needs no `configure` permission.
//!
//! Personal data never reaches the output: dead letters are shown by id, type, routing key and reason,
//! cases by ids, state, round and deadline — never names or addresses.

use anyhow::{anyhow, bail, Context};
use chrono::{DateTime, SecondsFormat, Utc};
use lapin::message::Delivery;
use lapin::options::{BasicAckOptions, BasicGetOptions, BasicNackOptions, BasicPublishOptions, QueueDeclareOptions};
use lapin::types::{AMQPValue, FieldTable, ShortString};
use lapin::{BasicProperties, Channel, Connection};
use serde::Serialize;
use serde_json::{json, Value};

use crate::bus::{self, Published, CE_JSON};
use crate::config::{AmqpConfig, Config};
use crate::store::Store;

/// The `source` of events sent with `nachfolge publish`.
pub const CLI_SOURCE: &str = "urn:nachfolge:cli";

/// Headers the broker or the worker added when dead-lettering; stripped before a redrive.
const DEAD_LETTER_HEADERS: &[&str] = &[
    "x-rejection-reason",
    "x-death",
    "x-delivery-count",
    "x-first-death-exchange",
    "x-first-death-queue",
    "x-first-death-reason",
    "x-last-death-exchange",
    "x-last-death-queue",
    "x-last-death-reason",
];

/// The worker's own connect path ([`bus::connect_config`]): `amqps://` with `amqp.ca_file` works here too.
async fn connect(cfg: &AmqpConfig) -> anyhow::Result<Connection> {
    bus::connect_config(cfg, "nachfolge-cli")
        .await
        .with_context(|| format!("connecting to {}", crate::config::redact_url(&cfg.url)))
}

async fn close(ch: &Channel, conn: &Connection) {
    let _ = ch.close(200, "bye".into()).await;
    let _ = conn.close(200, "bye".into()).await;
}

// ---------------------------------------------------------------------------------------------------------
// publish

/// Build the CloudEvent `nachfolge publish` sends. `input` is either a full CloudEvent (it has
/// `specversion`; `ty` and `id` override its `type` and `id` when given) or bare `data`, which needs `ty`
/// and gets `id` (default: a new UUID v4), source [`CLI_SOURCE`], the time and `subject` = the body id
/// (`data.body`, or `data.body.id` for a registration). The envelope is checked as the worker checks it.
pub fn build_event(input: &[u8], ty: Option<&str>, id: Option<&str>, now: DateTime<Utc>) -> anyhow::Result<Value> {
    let value: Value = serde_json::from_slice(input).context("input: invalid JSON")?;
    let event = if value.get("specversion").is_some() {
        let mut event = value;
        let obj = event.as_object_mut().ok_or_else(|| anyhow!("input: a CloudEvent must be a JSON object"))?;
        if let Some(ty) = ty {
            obj.insert("type".into(), json!(ty));
        }
        if let Some(id) = id {
            obj.insert("id".into(), json!(id));
        }
        event
    } else {
        let Some(ty) = ty else {
            bail!("--type is required when the input is bare data (a full CloudEvent has `specversion`)");
        };
        let id = id.map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_owned);
        let subject = value
            .get("body")
            .and_then(|b| b.as_str().or_else(|| b.get("id").and_then(Value::as_str)))
            .map(str::to_owned);
        let mut event = json!({
            "specversion": "1.0", "id": id, "source": CLI_SOURCE, "type": ty,
            "time": now.to_rfc3339_opts(SecondsFormat::Millis, false),
            "datacontenttype": "application/json", "data": value,
        });
        if let Some(s) = subject {
            event["subject"] = json!(s);
        }
        event
    };
    let bytes = serde_json::to_vec(&event)?;
    let props = BasicProperties::default().with_content_type(CE_JSON.into());
    bus::parse_envelope(&bytes, &props, usize::MAX).map_err(|e| anyhow!("input: {}", e.reason))?;
    Ok(event)
}

/// Publish an event to the commands exchange (structured mode, persistent, mandatory, with a publisher
/// confirm; routing key = type). Returns its id.
pub async fn publish(cfg: &AmqpConfig, event: &Value) -> anyhow::Result<String> {
    let id = event.get("id").and_then(Value::as_str).unwrap_or_default().to_owned();
    let conn = connect(cfg).await?;
    let ch = bus::confirm_channel(&conn).await?;
    let exchange = &cfg.commands_exchange;
    let outcome = async {
        let confirm = bus::publish_event(&ch, exchange, event).await?;
        Ok::<Published, lapin::Error>(confirm.await?.into())
    }
    .await
    .with_context(|| format!("publishing to exchange {exchange:?} (does it exist? the worker declares it on start)"));
    close(&ch, &conn).await;
    match outcome? {
        Published::Confirmed => Ok(id),
        Published::Unroutable => {
            bail!("unroutable: no queue is bound to exchange {exchange:?} (start the worker once: it declares the topology)")
        }
        Published::Nacked => bail!("the broker refused the message (nack)"),
    }
}

/// `nachfolge publish FILE`: print the id of the published event.
pub async fn run_publish(config: &Config, file: &str, ty: Option<&str>, id: Option<&str>) -> anyhow::Result<()> {
    let input = crate::ops::read_input(file).with_context(|| file.to_owned())?;
    let event = build_event(&input, ty, id, Utc::now())?;
    let id = publish(&config.amqp, &event).await?;
    println!("{id}");
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------
// dead letters

/// One dead-lettered message, as shown to an operator: ids, type and reason only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeadLetter {
    /// 1-based position in the dead-letter queue when it was read.
    pub position: usize,
    /// CloudEvents id (or AMQP `message_id`), if it could be read.
    pub id: Option<String>,
    #[serde(rename = "type")]
    pub ty: Option<String>,
    pub routing_key: String,
    /// `x-rejection-reason`, or for a message the broker dead-lettered (delivery limit) `broker: <reason>`.
    pub reason: Option<String>,
}

fn describe(d: &Delivery, position: usize) -> DeadLetter {
    let (id, ty) = match bus::parse_envelope(&d.data, &d.properties, usize::MAX) {
        Ok(env) => (Some(env.id), Some(env.ty)),
        Err(e) => (e.id, e.ty),
    };
    let reason = bus::header_text(&d.properties, "x-rejection-reason")
        .or_else(|| x_death_reason(d.properties.headers().as_ref()?).map(|r| format!("broker: {r}")));
    DeadLetter { position, id, ty, routing_key: d.routing_key.as_str().to_owned(), reason }
}

/// The `reason` of the most recent `x-death` entry (set when the broker dead-lettered the message).
fn x_death_reason(headers: &FieldTable) -> Option<String> {
    let AMQPValue::FieldArray(deaths) = headers.inner().get(&ShortString::from("x-death"))? else {
        return None;
    };
    deaths.as_slice().iter().find_map(|d| match d {
        AMQPValue::FieldTable(t) => match t.inner().get(&ShortString::from("reason"))? {
            AMQPValue::LongString(s) => Some(String::from_utf8_lossy(s.as_bytes()).into_owned()),
            AMQPValue::ShortString(s) => Some(s.as_str().to_owned()),
            _ => None,
        },
        _ => None,
    })
}

/// Ready messages in a queue (passive declare: fails if the queue does not exist).
async fn ready_count(ch: &Channel, queue: &str) -> anyhow::Result<usize> {
    let q = ch
        .queue_declare(
            queue.into(),
            QueueDeclareOptions { passive: true, ..QueueDeclareOptions::default() },
            FieldTable::default(),
        )
        .await
        .with_context(|| format!("queue {queue:?} (does it exist? the worker declares it on start)"))?;
    Ok(q.message_count() as usize)
}

/// Fetch messages until the queue has no more ready (or `max` are held), without acknowledging them: they
/// stay unacknowledged on this channel until given back.
async fn fetch(ch: &Channel, queue: &str, max: Option<usize>) -> anyhow::Result<Vec<Delivery>> {
    let mut held = Vec::new();
    while max.is_none_or(|m| held.len() < m) {
        match ch.basic_get(queue.into(), BasicGetOptions { no_ack: false }).await? {
            Some(m) => held.push(m.delivery),
            None => break,
        }
    }
    Ok(held)
}

/// Return messages to their queue, in the order they were fetched (`basic.nack` with requeue: the broker
/// keeps the order; RabbitMQ ≥ 4.3 does not count a nack toward a quorum queue's delivery limit).
async fn give_back(held: &[Delivery]) -> anyhow::Result<()> {
    for d in held {
        d.acker.nack(BasicNackOptions { multiple: false, requeue: true }).await?;
    }
    Ok(())
}

/// `nachfolge dead-letters list`: the first `limit` (default: all) dead letters, left in the queue in
/// their order.
pub async fn dead_letters_list(cfg: &AmqpConfig, limit: Option<usize>) -> anyhow::Result<Vec<DeadLetter>> {
    let conn = connect(cfg).await?;
    let ch = conn.create_channel().await?;
    let result = async {
        ready_count(&ch, &cfg.dead_letter_queue).await?;
        let held = fetch(&ch, &cfg.dead_letter_queue, limit).await?;
        let out = held.iter().enumerate().map(|(i, d)| describe(d, i + 1)).collect();
        give_back(&held).await?;
        Ok(out)
    }
    .await;
    // closing the channel also returns anything still unacknowledged after an error
    close(&ch, &conn).await;
    result
}

/// Progress of a redrive: `done` of `total` messages moved.
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize);

/// `nachfolge dead-letters redrive`: move dead letters back to the commands exchange — all (or the first
/// `limit`), or only those with CloudEvents id `id`. Each is published with a confirm (headers of the
/// dead-lettering stripped, routing key and properties kept), then acknowledged in the dead-letter queue.
/// Before that, the inbox entry of its earlier rejection is removed so the worker evaluates it afresh
/// (with the state and the code of today); a message that is still invalid comes back to the dead-letter
/// queue with its reason. Messages not redriven stay in the queue in their order.
pub async fn dead_letters_redrive(
    config: &Config,
    limit: Option<usize>,
    id: Option<&str>,
    progress: Progress<'_>,
) -> anyhow::Result<Vec<DeadLetter>> {
    let cfg = &config.amqp;
    let store = Store::connect(&config.database).await.context("database")?;
    let conn = connect(cfg).await?;
    let get = conn.create_channel().await?;
    let publish = bus::confirm_channel(&conn).await?;
    let result = async {
        let queue = cfg.dead_letter_queue.as_str();
        // the broker's count is the expected total (it may lag a moment behind messages just returned)
        let count = ready_count(&get, queue).await?;
        let mut done = Vec::new();
        match id {
            None => {
                let mut total = limit.map_or(count, |l| l.min(count));
                progress(0, total);
                // a message the worker refuses again comes back behind the others: stop when one returns
                let mut moved = std::collections::HashSet::new();
                while limit.is_none_or(|l| done.len() < l) {
                    let Some(m) = get.basic_get(queue.into(), BasicGetOptions { no_ack: false }).await? else {
                        break;
                    };
                    if !moved.insert(fingerprint(&m.delivery)) {
                        give_back(&[m.delivery]).await?;
                        break;
                    }
                    done.push(redrive_one(&store, &publish, cfg, &m.delivery, done.len() + 1).await?);
                    total = total.max(done.len());
                    progress(done.len(), total);
                }
            }
            Some(id) => {
                let held = fetch(&get, queue, None).await?;
                let wanted: Vec<usize> = held
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| describe(d, 0).id.as_deref() == Some(id))
                    .map(|(i, _)| i)
                    .take(limit.unwrap_or(usize::MAX))
                    .collect();
                let total = wanted.len();
                // give the others back first, so that a redriven message the worker refuses again lands
                // behind them
                let mut selected = Vec::new();
                let mut rest = Vec::new();
                for (i, d) in held.into_iter().enumerate() {
                    if wanted.contains(&i) {
                        selected.push((i + 1, d));
                    } else {
                        rest.push(d);
                    }
                }
                give_back(&rest).await?;
                progress(0, total);
                for (position, d) in &selected {
                    done.push(redrive_one(&store, &publish, cfg, d, *position).await?);
                    progress(done.len(), total);
                }
                if total == 0 {
                    bail!("no dead letter with id {id:?} among the {} in {queue:?}", rest.len());
                }
            }
        }
        Ok(done)
    }
    .await;
    close(&publish, &conn).await;
    let _ = get.close(200, "bye".into()).await;
    store.close().await;
    result
}

/// Identifies a message by its body and id (to recognise one redriven earlier in the same run).
fn fingerprint(d: &Delivery) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    d.data.hash(&mut h);
    d.properties.message_id().as_ref().map(|s| s.as_str().to_owned()).hash(&mut h);
    h.finish()
}

async fn redrive_one(
    store: &Store,
    ch: &Channel,
    cfg: &AmqpConfig,
    d: &Delivery,
    position: usize,
) -> anyhow::Result<DeadLetter> {
    let info = describe(d, position);
    if let Some(id) = info.id.as_deref() {
        // the rejection of this council's message only (the inbox is per body: docs/contract.md, "Message
        // ids"); a message that names no body was recorded under ""
        let body = bus::parse_envelope(&d.data, &d.properties, usize::MAX)
            .ok()
            .and_then(|env| crate::messages::Inbound::parse(&env.ty, env.data).ok())
            .map(|inbound| inbound.body_id().to_owned())
            .unwrap_or_default();
        store.forget_rejection(&body, id).await.context("forgetting the earlier rejection")?;
    }
    let mut headers = FieldTable::default();
    for (k, v) in d.properties.headers().as_ref().map(|h| h.inner().iter()).into_iter().flatten() {
        if !DEAD_LETTER_HEADERS.contains(&k.as_str()) {
            headers.insert(k.clone(), v.clone());
        }
    }
    let props = d.properties.clone().with_headers(headers).with_delivery_mode(2);
    let key = match d.routing_key.as_str() {
        "" | "unknown" => info.ty.clone().unwrap_or_else(|| "unknown".into()),
        k => k.to_owned(),
    };
    let outcome: anyhow::Result<Published> = async {
        let confirm = ch
            .basic_publish(
                cfg.commands_exchange.as_str().into(),
                key.as_str().into(),
                BasicPublishOptions { mandatory: true, ..BasicPublishOptions::default() },
                &d.data,
                props,
            )
            .await?;
        Ok(confirm.await?.into())
    }
    .await;
    match outcome {
        Ok(Published::Confirmed) => {
            d.acker.ack(BasicAckOptions::default()).await?;
            Ok(info)
        }
        other => {
            let _ = d.acker.nack(BasicNackOptions { multiple: false, requeue: true }).await;
            match other {
                Err(e) => Err(e.context(format!("publishing to exchange {:?}", cfg.commands_exchange))),
                Ok(p) => bail!("publishing to exchange {:?} was not confirmed: {p:?}", cfg.commands_exchange),
            }
        }
    }
}

/// Render dead letters: a table, or one JSON object per line.
pub fn render_dead_letters(items: &[DeadLetter], json: bool) -> serde_json::Result<String> {
    if json {
        return json_lines(items);
    }
    let rows: Vec<Vec<String>> = items
        .iter()
        .map(|d| {
            vec![
                d.position.to_string(),
                d.id.clone().unwrap_or_else(|| "-".into()),
                d.ty.clone().unwrap_or_else(|| "-".into()),
                d.routing_key.clone(),
                d.reason.clone().unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    Ok(table(&["#", "ID", "TYPE", "ROUTING KEY", "REASON"], &rows))
}

/// `nachfolge dead-letters list`.
pub async fn run_dead_letters_list(config: &Config, limit: Option<usize>, json: bool) -> anyhow::Result<()> {
    let items = dead_letters_list(&config.amqp, limit).await?;
    print!("{}", render_dead_letters(&items, json)?);
    if !json {
        eprintln!("{} dead letter(s) shown, left in {:?}", items.len(), config.amqp.dead_letter_queue);
    }
    Ok(())
}

/// `nachfolge dead-letters redrive`, with progress on stderr (`redriven 10/123`).
pub async fn run_dead_letters_redrive(
    config: &Config,
    limit: Option<usize>,
    id: Option<&str>,
    json: bool,
) -> anyhow::Result<()> {
    let mut last = None;
    let mut report = |done: usize, total: usize| {
        // every message for small batches, else about every percent, and always the last one
        let step = (total / 100).max(1);
        if done == total || done % step == 0 {
            if last != Some(done) {
                eprintln!("redriven {done}/{total}");
            }
            last = Some(done);
        }
    };
    let items = dead_letters_redrive(config, limit, id, &mut report).await?;
    print!("{}", render_dead_letters(&items, json)?);
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------
// cases

/// One succession case, for listings (see [`crate::store::CaseListing`]).
pub use crate::store::CaseListing as CaseRow;

/// Render cases: a table, or one JSON object per line.
pub fn render_cases(rows: &[CaseRow], json: bool) -> serde_json::Result<String> {
    if json {
        return json_lines(rows);
    }
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|c| {
            vec![
                c.case.to_string(),
                c.body.to_string(),
                c.state.clone(),
                c.round.to_string(),
                c.successor.clone().unwrap_or_else(|| "-".into()),
                c.deadline.clone().unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    Ok(table(&["CASE", "BODY", "STATE", "ROUND", "SUCCESSOR", "DEADLINE"], &cells))
}

/// `nachfolge cases`.
pub async fn run_cases(config: &Config, open_only: bool, body: Option<&str>, json: bool) -> anyhow::Result<()> {
    let store = Store::connect(&config.database).await.context("database")?;
    let rows = store.cases(open_only, body).await;
    store.close().await;
    print!("{}", render_cases(&rows?, json)?);
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------
// output

fn json_lines<T: Serialize>(items: &[T]) -> serde_json::Result<String> {
    items.iter().map(|i| serde_json::to_string(i).map(|line| line + "\n")).collect()
}

/// A plain text table with a header row; columns padded to their widest cell, the last one not padded.
fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let last = cells.len().saturating_sub(1);
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            if i == last {
                s.push_str(cell);
            } else {
                s.push_str(&format!("{cell:<w$}  "));
            }
        }
        s.trim_end().to_owned() + "\n"
    };
    let mut out = line(header.to_vec());
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

/// Read a file argument; `-` is standard input.
pub fn read_input(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-30T10:00:00+01:00").map(|t| t.with_timezone(&Utc)).expect("time")
    }

    #[test]
    fn bare_data_gets_an_envelope_with_subject_and_new_id() {
        let data = br#"{"body": "musterstadt-rat", "member": "L1-02", "reason": "resigned", "effective_at": "2026-06-30T23:59:59+02:00"}"#;
        let ev = build_event(data, Some("vacancy.reported"), None, now()).expect("event");
        assert_eq!(ev["specversion"], "1.0");
        assert_eq!(ev["type"], "vacancy.reported");
        assert_eq!(ev["source"], CLI_SOURCE);
        assert_eq!(ev["subject"], "musterstadt-rat");
        assert_eq!(ev["data"]["member"], "L1-02");
        let id = ev["id"].as_str().expect("id");
        assert_eq!(uuid::Uuid::parse_str(id).expect("uuid").get_version_num(), 4);
    }

    #[test]
    fn registration_subject_is_the_body_id_and_id_can_be_given() {
        let data = br#"{"body": {"id": "beispielstadt-stvv"}, "lists": []}"#;
        let ev = build_event(data, Some("election.registered"), Some("smoke-1"), now()).expect("event");
        assert_eq!(ev["subject"], "beispielstadt-stvv");
        assert_eq!(ev["id"], "smoke-1");
    }

    #[test]
    fn bare_data_without_type_is_refused() {
        let err = build_event(br#"{"body": "x"}"#, None, None, now()).expect_err("needs --type");
        assert!(err.to_string().contains("--type"), "{err}");
    }

    #[test]
    fn a_full_cloudevent_is_kept_and_checked() {
        let ce = br#"{"specversion": "1.0", "id": "a-1", "source": "urn:x", "type": "lot.drawn", "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "data": {}}"#;
        let ev = build_event(ce, None, None, now()).expect("event");
        assert_eq!(ev["id"], "a-1");
        assert_eq!(ev["traceparent"], "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        let ev = build_event(ce, Some("bar.cured"), Some("a-2"), now()).expect("override");
        assert_eq!((ev["id"].as_str(), ev["type"].as_str()), (Some("a-2"), Some("bar.cured")));
        let bad = br#"{"specversion": "0.3", "id": "a-1", "source": "urn:x", "type": "lot.drawn"}"#;
        assert!(build_event(bad, None, None, now()).is_err());
    }

    #[test]
    fn tables_pad_columns() {
        let t = table(&["A", "BB"], &[vec!["xxx".into(), "y".into()]]);
        assert_eq!(t, "A    BB\nxxx  y\n");
    }
}
