//! Crash test: a driver feeds a realistic mix of messages for many councils — registrations, vacancies,
//! service dates, acceptances, refusals, silence until deadlines are made due with `clock.offset_secs` —
//! while the worker (the real binary) is killed with SIGKILL at random moments and restarted. Afterwards
//! the invariants are checked from the published events and the database.
//!
//! Short form (CI): `cargo test --test crash` — 20 kills, 8 councils.
//! Long form: `CRASH_KILLS=1000 CRASH_COUNCILS=40 cargo test --test crash -- --nocapture` (≈ 10 minutes).
//! `CRASH_SEED` repeats a run.

mod support {
    pub mod app;
    pub mod child;
    pub mod smtp_sink;
}

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::app::{observe, publish_command, test_config, unique};
use support::child::Child;
use support::smtp_sink::SmtpSink;

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// xorshift: a small, seedable generator, so a failing run can be repeated.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn council(id: &str) -> Value {
    let cands: Vec<Value> = (0..16)
        .map(|i| {
            json!({
                "id": format!("{id}-{i:02}"), "position": i + 1, "given_name": "Vorname", "family_name": format!("Name {i}"),
                "email": format!("{id}-{i:02}@example.org"),
                "seat": if i < 6 { json!({"since": "2025-11-01", "via": "list"}) } else { Value::Null },
            })
        })
        .collect();
    json!({
        "body": {"id": id, "name": format!("Rat {id}"), "land": "NW", "statutory_size": 6,
                 "term": {"start": "2025-11-01", "end": "2030-10-31"},
                 "returning_officer": {"name": "Wahlleitung", "email": "wahlleitung@example.org", "address": "Markt 1, 12345 Musterstadt"},
                 "remedy_court": {"name": "Verwaltungsgericht Musterstadt", "address": "Justizplatz 1, 12340 Musterstadt"}},
        "lists": [{"id": "L1", "name": "Liste 1", "kind": "party", "candidates": cands}]
    })
}

fn distinct(events: &[Value]) -> BTreeMap<String, Value> {
    events.iter().map(|e| (e["id"].as_str().unwrap_or_default().to_owned(), e.clone())).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_at_random_moments_nothing_lost_nothing_doubled() {
    let kills_wanted = env_num("CRASH_KILLS", 20);
    let councils = env_num("CRASH_COUNCILS", 8) as usize;
    let now_nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1);
    let seed = env_num("CRASH_SEED", now_nanos ^ 0x9E37_79B9_7F4A_7C15) | 1;
    println!("crash test: seed {seed}, {kills_wanted} kills, {councils} councils");
    let smtp = SmtpSink::start().await;
    let suffix = unique();
    let mut config = test_config(&suffix, &smtp.url());
    config.smtp.timeout_secs = 2;
    let (_conn, ch, events, dead) = observe(&config).await;
    let _cleanup = support::app::Cleanup(config.clone());
    let log = std::env::temp_dir().join(format!("nachfolge-crash-{suffix}.log"));

    // the killer: SIGKILL at random moments, restart at once, until enough kills are done
    let offset = Arc::new(AtomicI64::new(config.clock.offset_secs));
    let kills = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let killer = {
        let (offset, kills, stop, config, log) =
            (offset.clone(), kills.clone(), stop.clone(), config.clone(), log.clone());
        tokio::spawn(async move {
            let mut rng = Rng(seed);
            let mut child = Child::new(config, log);
            child.start().await;
            while !stop.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_millis(150 + rng.below(900))).await;
                // a kill while kills are wanted, and always when the clock must jump (the offset applies at start)
                let jump = child.offset_secs != offset.load(Ordering::Relaxed);
                if kills.load(Ordering::Relaxed) < kills_wanted || jump {
                    child.kill().await;
                    kills.fetch_add(1, Ordering::Relaxed);
                }
                child.offset_secs = offset.load(Ordering::Relaxed);
                if !child.running() {
                    child.start().await;
                }
            }
            child.kill().await;
        })
    };
    let publish = |ty: &'static str, data: Value| {
        let ch = ch.clone();
        let x = config.amqp.commands_exchange.clone();
        async move {
            publish_command(&ch, &x, ty, data).await.await.expect("confirm");
        }
    };
    let wait = |ty: &'static str, n: usize, pred: fn(&Value) -> bool| {
        let events = events.clone();
        async move {
            let end = Instant::now() + Duration::from_secs(240);
            while Instant::now() < end {
                if distinct(&events.of(ty).into_iter().filter(&pred).collect::<Vec<_>>()).len() >= n {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            panic!("timed out waiting for {n} × {ty}");
        }
    };
    let mut rng = Rng(seed.rotate_left(17));
    let ids: Vec<String> = (0..councils).map(|i| format!("k{i}")).collect();

    // registrations and two vacancies per council
    for id in &ids {
        publish("election.registered", council(id)).await;
    }
    wait("body.registered", councils, |_| true).await;
    for id in &ids {
        for m in 0..2 {
            publish("vacancy.reported", json!({"body": id, "member": format!("{id}-{m:02}"), "reason": "resigned", "effective_at": "2026-05-01T00:00:00+02:00"})).await;
        }
    }
    let cases = councils * 2;
    wait("succession.determined", cases, |_| true).await;
    wait("successor.notified", cases, |_| true).await;

    // service for every case; then accept, refuse, or stay silent
    let today = nachfolge::deadline::local_date(support::app::test_now()).to_string();
    let determined = distinct(&events.of("succession.determined"));
    let mut refused = 0;
    for e in determined.values() {
        let d = &e["data"];
        let (body, case, cand) = (d["body"].clone(), d["case"].clone(), d["successor"]["id"].clone());
        publish(
            "notification.served",
            json!({"body": body, "case": case, "candidate": cand, "method": "certificate", "on": today}),
        )
        .await;
        let kind = match rng.below(10) {
            0..=3 => Some("accept"),
            4..=5 => Some("refuse"),
            _ => None,
        };
        if let Some(kind) = kind {
            refused += usize::from(kind == "refuse");
            let at = support::app::test_now().to_rfc3339();
            publish(
                "declaration.received",
                json!({"body": body, "case": case, "candidate": cand, "kind": kind, "received_at": at}),
            )
            .await;
        }
    }
    wait("deadline.set", cases, |_| true).await;
    // refused cases get a second round: serve it too
    wait("succession.determined", cases + refused, |_| true).await;
    wait("successor.notified", cases + refused, |_| true).await;
    for e in distinct(&events.of("succession.determined")).values().filter(|e| e["data"]["round"] == 2) {
        let d = &e["data"];
        publish(
            "notification.served",
            json!({"body": d["body"], "case": d["case"], "candidate": d["successor"]["id"], "method": "certificate", "on": today}),
        )
        .await;
    }
    // every round's period is set (with the real clock) before it jumps: a service applied after the jump
    // would find its period over and apply the deemed acceptance at once, with no timer to fire
    wait("deadline.set", cases + refused, |_| true).await;
    // every remaining deadline passes: the worker's clock jumps 12 days at its next (re)start
    offset.store(config.clock.offset_secs + 12 * 86_400, Ordering::Relaxed);
    wait("membership.changed", cases, |e| e["data"]["change"] == "joined").await;
    // let the killer finish its kills, then settle
    let end = Instant::now() + Duration::from_secs(60 + kills_wanted * 2);
    while kills.load(Ordering::Relaxed) < kills_wanted && Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::sleep(Duration::from_secs(4)).await;
    stop.store(true, Ordering::Relaxed);
    killer.await.expect("killer");
    let kills = kills.load(Ordering::Relaxed);
    assert!(kills >= kills_wanted, "only {kills} kills");

    // --- invariants ---------------------------------------------------------------------------------
    let all = events.all();
    // events carry unique ids: every copy of an id is the same event
    let mut by_id: BTreeMap<String, Value> = BTreeMap::new();
    let mut redelivered = 0;
    for e in &all {
        let id = e["id"].as_str().unwrap_or_default().to_owned();
        if let Some(prev) = by_id.get(&id) {
            assert_eq!(prev["data"], e["data"], "two different events share the id {id}");
            redelivered += 1;
        } else {
            by_id.insert(id, e.clone());
        }
    }
    let unique_events: Vec<&Value> = by_id.values().collect();
    let per = |ty: &str| unique_events.iter().filter(|e| e["type"] == ty).copied().collect::<Vec<_>>();
    // every round has exactly one determination (one offer)
    let mut rounds = BTreeSet::new();
    for e in per("succession.determined") {
        let key = format!("{}#{}", e["data"]["case"], e["data"]["round"]);
        assert!(rounds.insert(key.clone()), "two determinations for {key}");
    }
    assert_eq!(rounds.len(), cases + refused);
    // every vacancy has exactly one final outcome: one membership start per case
    let mut joined = BTreeSet::new();
    for e in per("membership.changed").into_iter().filter(|e| e["data"]["change"] == "joined") {
        let case = e["data"]["case"].as_str().unwrap_or_default().to_owned();
        assert!(joined.insert(case.clone()), "membership started twice in {case}");
    }
    assert_eq!(joined.len(), cases);
    // no message was refused
    assert!(per("message.rejected").is_empty(), "rejected: {:?}", per("message.rejected"));
    assert!(dead.lock().unwrap_or_else(|p| p.into_inner()).is_empty());
    // the database: every case filled, every deadline fired exactly once, audit logs gap-free
    let db = sqlx::PgPool::connect(&config.database.url).await.expect("db");
    let open: i64 =
        sqlx::query_scalar("SELECT count(*) FROM cases WHERE state <> 'filled'").fetch_one(&db).await.expect("cases");
    assert_eq!(open, 0, "every case ends filled");
    let unfired: i64 = sqlx::query_scalar("SELECT count(*) FROM timers WHERE fired_at IS NULL AND key NOT LIKE '%#objection#%' AND due_at < now() + interval '11 days'")
        .fetch_one(&db)
        .await
        .expect("timers");
    assert_eq!(unfired, 0, "every due deadline fired");
    let deemed =
        per("membership.changed").into_iter().filter(|e| e["data"]["basis"] == "deemed_acceptance").count() as i64;
    let fired: i64 =
        sqlx::query_scalar("SELECT count(*) FROM timers WHERE fired_at IS NOT NULL AND key NOT LIKE '%#objection#%'")
            .fetch_one(&db)
            .await
            .expect("timers");
    assert!(fired >= deemed, "each deemed acceptance comes from one fired deadline");
    for id in &ids {
        let seqs: Vec<i64> = sqlx::query_scalar("SELECT seq FROM audit_log WHERE body_id = $1 ORDER BY seq")
            .bind(id)
            .fetch_all(&db)
            .await
            .expect("audit");
        assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>(), "audit log of {id} has gaps");
    }
    // e-mails: one per round, except where a 250 was lost in a kill (then the same Message-ID again)
    let mut per_message: BTreeMap<String, usize> = BTreeMap::new();
    for m in smtp.messages() {
        *per_message.entry(m.header("Message-ID").unwrap_or_default()).or_default() += 1;
    }
    // the period notices after service (Fristmitteilung) have Message-IDs of their own: at most one per served
    // round (none where the period had passed when the service was applied)
    let notices = per_message.keys().filter(|id| id.contains(".period-notice.")).count();
    assert_eq!(per_message.len() - notices, cases + refused, "one notification (Message-ID) per round");
    assert!(notices <= cases + refused, "{notices} period notices for {} rounds", cases + refused);
    let resent: usize = per_message.values().map(|n| n - 1).sum();
    println!(
        "crash test: {kills} kills; {} cases, {} rounds, {} memberships; lost 0, doubled 0; {redelivered} events re-published with the same id; {resent} e-mails re-sent after a lost 250",
        cases,
        rounds.len(),
        joined.len()
    );
    let _ = std::fs::remove_file(log);
}
