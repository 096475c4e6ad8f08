//! The text of what a batch writes, without I/O: the outbox row of an event (the CloudEvent with its
//! extension attributes), the audit payload of a command, and the council aggregate's JSON.

use super::*;

/// An outbox row waiting to be written.
pub(super) struct OutboxRow {
    pub(super) id: String,
    pub(super) body_id: Option<String>,
    pub(super) ty: String,
    /// The CloudEvent as JSON text.
    pub(super) event: String,
}

/// A CloudEvent (the fields of [`CloudEvent`], in its order) with the distributed-tracing extension
/// attributes of its cause; `data` is the JSON text the audit log keeps, embedded as it is, so an event's
/// data is serialised once.
#[derive(serde::Serialize)]
pub(super) struct TracedEvent<'a> {
    specversion: &'static str,
    id: &'a str,
    source: &'static str,
    #[serde(rename = "type")]
    ty: &'a str,
    time: chrono::DateTime<chrono::FixedOffset>,
    subject: &'a str,
    datacontenttype: &'static str,
    data: &'a serde_json::value::RawValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    traceparent: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tracestate: Option<&'a str>,
    /// The console user who entered the command that caused the event (docs/contract.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    recordedby: Option<&'a str>,
}

/// A command's audit payload: the message's data, with `recorded_by` (the console user's login) added when
/// it was entered at the console.
pub(super) fn audit_payload(cause: &Cause) -> String {
    match (&cause.recorded_by, &cause.payload) {
        (Some(login), Value::Object(map)) => {
            let mut map = map.clone();
            map.insert("recorded_by".to_owned(), Value::String(login.clone()));
            Value::Object(map).to_string()
        }
        _ => cause.payload.to_string(),
    }
}

/// The outbox row of event `id` of type `ty` whose data is the JSON text `data` (as the audit log keeps it).
pub(super) fn outbox_row(
    id: &str,
    body_id: Option<&str>,
    ty: &str,
    data: &str,
    now: DateTime<Utc>,
    cause: &Cause,
) -> Result<OutboxRow, StoreError> {
    let encode = |e: serde_json::Error| StoreError::Encode("an event", e.to_string());
    let traceparent = cause.traceparent.as_deref();
    let traced = TracedEvent {
        specversion: "1.0",
        id,
        source: crate::messages::SOURCE,
        ty,
        time: now.fixed_offset(),
        subject: body_id.unwrap_or(""),
        datacontenttype: "application/json",
        data: serde_json::from_str(data).map_err(encode)?,
        traceparent,
        tracestate: traceparent.and(cause.tracestate.as_deref()),
        recordedby: cause.recorded_by.as_deref(),
    };
    let event = serde_json::to_string(&traced).map_err(encode)?;
    Ok(OutboxRow { id: id.to_owned(), body_id: body_id.map(str::to_owned), ty: ty.to_owned(), event })
}

/// The aggregate's JSON, exactly as `serde_json::to_string(council)` writes it (fields in declaration order,
/// cases in id order), with the JSON of every case equal to its memo copied instead of serialised again
/// (`store/cache.rs`; `tests/batch.rs` compares the two byte for byte).
pub(super) fn encode_council(council: &Council, memo: &mut super::cache::CaseMemo) -> Result<String, StoreError> {
    let corrupt = |e: serde_json::Error| StoreError::Corrupt(council.id().to_owned(), e.to_string());
    let mut out: Vec<u8> = Vec::with_capacity(4096);
    out.extend_from_slice(b"{\"snapshot\":");
    serde_json::to_writer(&mut out, &council.body).map_err(corrupt)?;
    out.extend_from_slice(b",\"cases\":{");
    for (i, (id, case)) in council.cases.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut out, id).map_err(corrupt)?;
        out.push(b':');
        match memo.get(id) {
            Some((was, json)) if was == case => out.extend_from_slice(json.as_bytes()),
            _ => {
                let json = serde_json::to_string(case).map_err(corrupt)?;
                out.extend_from_slice(json.as_bytes());
                memo.insert(id.clone(), (case.clone(), json));
            }
        }
    }
    if memo.len() > council.cases.len() {
        memo.retain(|id, _| council.cases.contains_key(id));
    }
    out.extend_from_slice(b"},\"case_seq\":");
    out.extend_from_slice(council.case_seq.to_string().as_bytes());
    out.push(b'}');
    String::from_utf8(out).map_err(|e| StoreError::Corrupt(council.id().to_owned(), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::CloudEvent;

    /// The outbox's event text is exactly the core's [`CloudEvent`] as serde writes it (same fields, same
    /// order), with the extension attributes after it, although its data is embedded as text.
    #[test]
    fn an_outbox_event_is_the_cloudevent_with_its_extensions_byte_for_byte() {
        let now = DateTime::parse_from_rfc3339("2026-12-02T10:15:00+00:00").expect("time").with_timezone(&Utc);
        let data = serde_json::json!({"case": "rat-1", "successor": {"id": "c-7", "name": "Frau Ä. Ößer"}, "n": [1, 2.5, null]});
        let cause = Cause {
            traceparent: Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".into()),
            tracestate: Some("k=v".into()),
            recorded_by: Some("wahlleitung".into()),
            ..Cause::default()
        };
        let row =
            outbox_row("ev-1", Some("rat"), "succession.determined", &data.to_string(), now, &cause).expect("row");
        let mut expected =
            serde_json::to_string(&CloudEvent::new("ev-1".into(), "succession.determined", "rat", now, data))
                .expect("event");
        expected.pop(); // the closing brace
        expected.push_str(concat!(
            r#","traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","tracestate":"k=v","#,
            r#""recordedby":"wahlleitung"}"#
        ));
        assert_eq!(row.event, expected);
        // without a trace or a user: the event alone; and data that is not JSON is an error, not an event
        let bare = outbox_row("ev-2", None, "message.rejected", "{}", now, &Cause::default()).expect("row");
        assert!(
            bare.event.ends_with(r#""subject":"","datacontenttype":"application/json","data":{}}"#),
            "{}",
            bare.event
        );
        assert!(outbox_row("ev-3", None, "x", "{", now, &Cause::default()).is_err());
    }
}
