//! Benchmark of the pure rules engine: time per `decide` for a council with 2,000 candidates on 10 lists
//! (NRW and Hessen), and how it grows from 100 to 20,000 candidates.
//!
//! `cargo bench --bench decide` (full), `cargo bench --bench decide -- --smoke` (seconds; CI checks that
//! it runs and that the output is well formed, never a timing threshold).

use std::time::Instant;

use chrono::{DateTime, Utc};
use nachfolge::model::{Body, Snapshot};
use nachfolge::rules::{Outcome, Query};
use serde_json::{json, Value};

/// A body of `n` candidates on `lists` lists. Every third candidate holds a seat, every seventh has a
/// fact that excludes him, every eleventh a waiver by letter: the successor sits deep in the list.
fn body(land: &str, n: usize, lists: usize) -> Body {
    let per = n / lists;
    let lists: Vec<Value> = (0..lists)
        .map(|l| {
            let cands: Vec<Value> = (0..per)
                .map(|i| {
                    let id = format!("L{l}-{i:05}");
                    let mut facts = vec![];
                    if i % 7 == 1 {
                        facts.push(json!({"type": "left_party", "on": "2026-02-01"}));
                    }
                    if i % 11 == 2 {
                        facts.push(json!({"type": "waived", "on": "2026-02-01", "form": "written"}));
                    }
                    let seat = if i % 3 == 0 || i < per / 2 {
                        json!({"since": "2025-11-01", "via": "list"})
                    } else {
                        Value::Null
                    };
                    json!({
                        "id": id, "position": i + 1, "given_name": "Vorname", "family_name": format!("Name{i}"),
                        "votes": (per - i) as i64 * 3, "seat": seat, "facts": facts,
                    })
                })
                .collect();
            json!({"id": format!("L{l}"), "name": format!("Liste {l}"), "kind": "party", "candidates": cands})
        })
        .collect();
    let snapshot: Snapshot = serde_json::from_value(json!({
        "body": {
            "id": "bench", "name": "Rat der Stadt Bench", "land": land, "statutory_size": 90,
            "term": {"start": "2025-11-01", "end": "2030-10-31"},
            "returning_officer": {"name": "Wahlleitung", "email": "wahlleitung@example.org"}
        },
        "lists": lists
    }))
    .expect("benchmark snapshot");
    Body::from_snapshot(snapshot).expect("valid benchmark snapshot")
}

struct Stats {
    median_us: f64,
    p99_us: f64,
    max_us: f64,
}

fn measure(body: &Body, iterations: usize) -> Stats {
    let at: DateTime<Utc> = "2026-11-30T10:00:00Z".parse().expect("time");
    let departed = body.snapshot.lists[0].candidates[0].id.clone();
    let q = Query {
        departed: &departed,
        departed_via: None,
        at,
        lot_winner: None,
        pending: vec![],
        cause: Default::default(),
    };
    // warm up and check the outcome once
    let d = body.decide(&q).expect("decide");
    assert!(matches!(d.outcome, Outcome::Successor { .. }), "benchmark body must yield a successor");
    let mut samples: Vec<f64> = (0..iterations)
        .map(|_| {
            let t = Instant::now();
            let d = body.decide(&q).expect("decide");
            std::hint::black_box(&d);
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    samples.sort_by(|a, b| a.total_cmp(b));
    let pick = |p: f64| samples[((samples.len() as f64 - 1.0) * p).round() as usize];
    Stats { median_us: pick(0.5), p99_us: pick(0.99), max_us: pick(1.0) }
}

fn main() {
    let smoke = std::env::args().any(|a| a == "--smoke");
    let iterations = if smoke { 50 } else { 2_000 };
    let sizes: &[usize] = if smoke { &[100, 2_000] } else { &[100, 500, 2_000, 5_000, 20_000] };
    println!("decide benchmark ({} iterations per size{})", iterations, if smoke { ", smoke" } else { "" });
    println!("{:<4} {:>10} {:>12} {:>12} {:>12}", "land", "candidates", "median µs", "p99 µs", "max µs");
    let mut results = Vec::new();
    for land in ["NW", "HE"] {
        for &n in sizes {
            let b = body(land, n, 10);
            let s = measure(&b, iterations);
            println!("{land:<4} {n:>10} {:>12.1} {:>12.1} {:>12.1}", s.median_us, s.p99_us, s.max_us);
            results.push(json!({"land": land, "candidates": n, "median_us": s.median_us, "p99_us": s.p99_us, "max_us": s.max_us}));
        }
    }
    let all_finite = results.iter().all(|r| r["median_us"].as_f64().is_some_and(f64::is_finite));
    assert!(all_finite, "malformed benchmark result");
    println!("{}", json!({"benchmark": "decide", "iterations": iterations, "results": results}));
}
