//! Fuzzing of everything that parses outside input, with proptest: the AMQP envelope and inbound command
//! parser, and `decide` on arbitrary and on mutated election files. Nothing may panic; every input is
//! either accepted or refused with a reason.
//!
//! `cargo test --test fuzz` runs a short form; `PROPTEST_CASES=200000 cargo test --release --test fuzz`
//! runs long (see docs/reliability.md for the figures).

use lapin::types::{AMQPValue, FieldTable};
use lapin::BasicProperties;
use proptest::prelude::*;
use serde_json::Value;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000)
}

fn example(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))).expect("example")
}

/// Parse like the worker does: envelope, then the command's data.
fn parse_inbound(data: &[u8], props: &BasicProperties) {
    match nachfolge::bus::parse_envelope(data, props, 4 * 1024 * 1024) {
        Ok(env) => {
            let _ = nachfolge::messages::Inbound::parse(&env.ty, env.data);
        }
        Err(e) => assert!(!e.reason.is_empty(), "a refusal has a reason"),
    }
}

/// Flip, insert or delete bytes of a valid document.
fn mutate(mut bytes: Vec<u8>, ops: &[(usize, u8, u8)]) -> Vec<u8> {
    for &(pos, byte, op) in ops {
        if bytes.is_empty() {
            break;
        }
        let i = pos % bytes.len();
        match op % 3 {
            0 => bytes[i] = byte,
            1 => bytes.insert(i, byte),
            _ => {
                bytes.remove(i);
            }
        }
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn envelope_parser_never_panics_on_arbitrary_bytes(data in proptest::collection::vec(any::<u8>(), 0..2048), structured in any::<bool>()) {
        let props = if structured {
            BasicProperties::default().with_content_type("application/cloudevents+json".into())
        } else {
            let mut h = FieldTable::default();
            h.insert("cloudEvents_id".into(), AMQPValue::LongString("x".into()));
            h.insert("cloudEvents_type".into(), AMQPValue::LongString("vacancy.reported".into()));
            BasicProperties::default().with_content_type("application/json".into()).with_headers(h)
        };
        parse_inbound(&data, &props);
    }

    #[test]
    fn command_parser_never_panics_on_mutated_events(ops in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..12), which in 0usize..4) {
        let event = match which {
            0 => br#"{"specversion":"1.0","id":"a","source":"s","type":"vacancy.reported","data":{"body":"b","member":"m","reason":"died","effective_at":"2026-01-01T00:00:00Z"}}"#.to_vec(),
            1 => br#"{"specversion":"1.0","id":"a","source":"s","type":"declaration.received","data":{"body":"b","case":"c","candidate":"x","kind":"accept","received_at":"2026-01-01T00:00:00+01:00"}}"#.to_vec(),
            2 => br#"{"specversion":"1.0","id":"a","source":"s","type":"notification.served","data":{"body":"b","case":"c","candidate":"x","method":"certificate","on":"2026-01-01"}}"#.to_vec(),
            _ => {
                let snapshot: Value = serde_json::from_slice(&example("nrw-election.json")).expect("json");
                serde_json::to_vec(&serde_json::json!({"specversion":"1.0","id":"a","source":"s","type":"election.registered","data":snapshot})).expect("json")
            }
        };
        let props = BasicProperties::default().with_content_type("application/cloudevents+json".into());
        parse_inbound(&mutate(event, &ops), &props);
    }

    #[test]
    fn decide_never_panics_on_mutated_elections(ops in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..8), nrw in any::<bool>()) {
        let (election, vacancy) = if nrw {
            (example("nrw-election.json"), example("nrw-vacancy-list-member.json"))
        } else {
            (example("he-election.json"), example("he-vacancy.json"))
        };
        let election = mutate(election, &ops);
        match nachfolge::offline::decide(&election, &vacancy, None) {
            Ok(v) => prop_assert!(v["outcome"].is_string()),
            Err(msg) => prop_assert!(!msg.is_empty()),
        }
    }
}
