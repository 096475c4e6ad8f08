//! Benchmark of the pure rules engine: time per `decide` for a council with 2,000 candidates on 10 lists
//! under every Land's rule set (issue 14: at most 100 µs each), and how it grows from 100 to 20,000
//! candidates.
//!
//! `cargo bench --bench decide` (full), `cargo bench --bench decide -- --smoke` (seconds; CI checks that
//! it runs and that the output is well formed, never a timing threshold), `-- --land NW,BY` to pick Länder.

use std::time::Instant;

use chrono::{DateTime, Utc};
use nachfolge::model::{Body, Snapshot};
use nachfolge::rules::{Outcome, Query};
use serde_json::json;

#[path = "support/snapshots.rs"]
mod snapshots;

/// A body of `land` with `n` candidates on `lists` lists, valid under that Land's validation
/// (`support/snapshots.rs`). The first half of each list holds a seat, every seventh candidate left his
/// party, every eleventh waived by letter; the votes are a permutation of the list order: the successor
/// sits deep in the list and the vote-ranked Länder really sort.
fn body(land: &str, n: usize, lists: usize) -> Body {
    let per = n / lists;
    let shape = snapshots::Shape { lists, per_list: per, seated: per / 2 };
    let snapshot: Snapshot =
        serde_json::from_value(snapshots::council(land, "bench", shape, false, true)).expect("benchmark snapshot");
    match Body::from_snapshot(snapshot) {
        Ok(b) => b,
        Err(e) => panic!("benchmark snapshot of {land} refused: {}: {}", e.field, e.problem),
    }
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
    let args: Vec<String> = std::env::args().collect();
    let picked: Option<Vec<String>> = args
        .iter()
        .position(|a| a == "--land")
        .and_then(|i| args.get(i + 1))
        .map(|s| s.split(',').map(str::to_owned).collect());
    let lands: Vec<&str> = snapshots::LANDS
        .iter()
        .map(|(code, _)| *code)
        .filter(|code| picked.as_ref().is_none_or(|p| p.iter().any(|x| x == code)))
        .collect();
    for land in lands {
        for &n in sizes {
            let b = body(land, n, 10);
            let s = measure(&b, iterations);
            println!("{land:<4} {n:>10} {:>12.1} {:>12.1} {:>12.1}", s.median_us, s.p99_us, s.max_us);
            results.push(json!({"land": land, "candidates": n, "median_us": s.median_us, "p99_us": s.p99_us, "max_us": s.max_us}));
        }
    }
    let all_finite = results.iter().all(|r| r["median_us"].as_f64().is_some_and(f64::is_finite));
    assert!(all_finite, "malformed benchmark result");
    // issue 14: at most 100 µs per decide at 2,000 candidates for every Land (reported, never asserted:
    // a shared machine's timing is no test)
    let over: Vec<&str> = results
        .iter()
        .filter(|r| r["candidates"] == 2_000 && r["median_us"].as_f64().is_some_and(|m| m > 100.0))
        .filter_map(|r| r["land"].as_str())
        .collect();
    println!(
        "median above 100 µs at 2,000 candidates: {}",
        if over.is_empty() { "none".into() } else { over.join(", ") }
    );
    println!(
        "{}",
        json!({"benchmark": "decide", "iterations": iterations, "results": results, "over_100us_at_2000": over})
    );
}
