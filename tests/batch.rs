//! `Store::apply_batch` against the real PostgreSQL of this machine: several commands in one transaction,
//! with refused, unknown, duplicate and reused-id commands among them. A refused command must change
//! nothing, the others must take effect exactly as if each had been applied alone.

mod support {
    pub mod app;
    pub mod fixtures;
    pub mod smtp_sink;
}

use nachfolge::messages::Inbound;
use nachfolge::model::SeatVia;
use nachfolge::procedure::{Command, MailKind, Settings};
use nachfolge::store::{Applied, Cause, Item, Step, Store, Work};
use nachfolge::templates::Templates;
use serde_json::{json, Value};
use sqlx::Row;
use support::app::{test_config, unique, Cleanup};
use support::fixtures::{cand, nrw, party, CandidateExt};

/// An NRW council of four seats: one list of eight, the first four seated.
fn council(id: &str) -> Value {
    let cands = (0..8)
        .map(|i| {
            let c = cand(&format!("{id}-{i}"), i + 1);
            if i < 4 {
                c.seated(SeatVia::List)
            } else {
                c
            }
        })
        .collect();
    nrw().id(id).size(4).list(party("L0", cands)).json()
}

fn item(id: &str, ty: &str, data: Value) -> Item {
    let inbound = Inbound::parse(ty, data.clone()).expect("valid test message");
    let body_id = inbound.body_id().to_owned();
    let work = match inbound {
        Inbound::ElectionRegistered(s) => Work::Register(s),
        other => Work::Inbound(Command::Inbound(other)),
    };
    Item {
        cause: Cause { key: id.into(), ty: ty.into(), payload: data, ..Cause::default() },
        body_id: body_id.into(),
        work,
    }
}

fn vacancy(body: &str, member: &str) -> Value {
    json!({"body": body, "member": member, "reason": "resigned", "effective_at": "2026-05-01T00:00:00+02:00"})
}

/// A database of its own for one test (dropped with the returned `Cleanup`): its configuration, the store
/// on it (migrated), and the test's own connection for inspecting what the store wrote.
async fn open() -> (nachfolge::config::Config, Cleanup, Store, sqlx::PgPool) {
    let config = test_config(&unique(), "smtp://127.0.0.1:1");
    let cleanup = Cleanup(config.clone());
    let store = Store::connect(&config.database).await.expect("database");
    let db = sqlx::PgPool::connect(&config.database.url).await.expect("inspection pool");
    (config, cleanup, store, db)
}

/// The store's cached aggregate of `body` is the row as stored: the same sequence, byte for byte.
/// Another replica records that the candidate at `index` on council `a`'s first list left the party: the
/// row changes, with a new sequence, behind this store's back.
async fn left_party_behind_the_workers_back(db: &sqlx::PgPool, index: usize) {
    sqlx::query(&format!(
        "UPDATE bodies SET audit_seq = audit_seq + 1,
           state = jsonb_set(state::jsonb, '{{snapshot,lists,0,candidates,{index},facts}}',
                             '[{{\"type\": \"left_party\", \"on\": \"2026-02-01\"}}]')::json
         WHERE id = 'a'"
    ))
    .execute(db)
    .await
    .expect("change behind the worker's back");
}

async fn assert_cached_as_stored(store: &Store, db: &sqlx::PgPool, body: &str) {
    let (seq, cached) = store.cached_state(body).expect("the body is cached after its batch");
    let row = sqlx::query("SELECT audit_seq, state::text AS state FROM bodies WHERE id = $1")
        .bind(body)
        .fetch_one(db)
        .await
        .expect("row");
    assert_eq!(seq, row.get::<i64, _>("audit_seq"), "cached at the stored sequence");
    assert_eq!(cached, row.get::<String, _>("state"), "cached aggregate equals the stored one");
}

#[tokio::test]
async fn one_transaction_many_commands_refused_ones_change_nothing() {
    let (_, _cleanup, store, db) = open().await;
    let templates = Templates::load(None).expect("templates");
    let settings = Settings::default();
    let now = chrono::Utc::now();
    let items = vec![
        item("reg-a", "election.registered", council("a")),
        item("reg-b", "election.registered", council("b")),
        item("v1", "vacancy.reported", vacancy("a", "a-0")),
        // unknown member: retried later, nothing written
        item("v2", "vacancy.reported", vacancy("a", "a-99")),
        // holds no seat: refused; the body is changed by nobody
        item("v3", "vacancy.reported", vacancy("a", "a-6")),
        item("v4", "vacancy.reported", vacancy("b", "b-1")),
        // a body nobody registered
        item("v5", "vacancy.reported", vacancy("nowhere", "x")),
        // the same message again in the same batch, and the same id with other data
        item("v1", "vacancy.reported", vacancy("a", "a-0")),
        item("v4", "vacancy.reported", vacancy("b", "b-2")),
        item("v6", "vacancy.reported", vacancy("a", "a-1")),
    ];
    let outcomes = store.apply_batch(&items, now, &settings, &templates).await.expect("batch");
    let kinds: Vec<&str> = outcomes
        .iter()
        .map(|o| match o {
            Applied::Applied => "applied",
            Applied::Duplicate => "duplicate",
            Applied::Rejected(_) => "rejected",
            Applied::Unknown(_) => "unknown",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "applied",
            "applied",
            "applied",
            "unknown",
            "rejected",
            "applied",
            "unknown",
            "duplicate",
            "rejected",
            "applied"
        ]
    );
    let Applied::Rejected(reason) = &outcomes[8] else { unreachable!() };
    assert!(reason.contains("already used for different data"), "{reason}");

    let pool = &db;
    // two cases in a, one in b: successors in list order, the refused vacancy left no trace
    let rows = sqlx::query("SELECT id, successor FROM cases ORDER BY id").fetch_all(pool).await.expect("cases");
    let cases: Vec<(String, Option<String>)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    assert_eq!(
        cases,
        [
            ("a-1".to_owned(), Some("a-4".to_owned())),
            ("a-2".to_owned(), Some("a-5".to_owned())),
            ("b-1".to_owned(), Some("b-4".to_owned()))
        ]
    );
    // the inbox holds exactly the applied messages
    let inbox: Vec<String> =
        sqlx::query_scalar("SELECT message_id FROM inbox ORDER BY message_id").fetch_all(pool).await.expect("inbox");
    assert_eq!(inbox, ["reg-a", "reg-b", "v1", "v4", "v6"]);
    // each body's audit log is gap-free and ends at the stored sequence
    for body in ["a", "b"] {
        let seqs: Vec<i64> = sqlx::query_scalar("SELECT seq FROM audit_log WHERE body_id = $1 ORDER BY seq")
            .bind(body)
            .fetch_all(pool)
            .await
            .expect("audit");
        assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>(), "audit of {body} is gap-free");
        let stored: i64 = sqlx::query_scalar("SELECT audit_seq FROM bodies WHERE id = $1")
            .bind(body)
            .fetch_one(pool)
            .await
            .expect("body");
        assert_eq!(stored, seqs.len() as i64);
    }
    // one determination per applied vacancy, in the order of the commands
    let determined: Vec<String> = sqlx::query_scalar(
        "SELECT event->'data'->>'case' FROM outbox WHERE type = 'succession.determined' ORDER BY id",
    )
    .fetch_all(pool)
    .await
    .expect("outbox");
    assert_eq!(determined, ["a-1", "b-1", "a-2"]);

    // the whole batch again (a redelivery after a lost ack): nothing twice
    let again = store.apply_batch(&items, now, &settings, &templates).await.expect("batch again");
    assert!(again.iter().all(|o| *o != Applied::Applied), "{again:?}");
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM outbox WHERE type = 'succession.determined'")
        .fetch_one(pool)
        .await
        .expect("outbox");
    assert_eq!(n, 3);
    db.close().await;
    store.close().await;
}

/// Migration 3 turns the stored documents from `jsonb` into `json`: a database written before it keeps its
/// councils, events and audit log, and the worker goes on from where it stood.
#[tokio::test]
async fn migration_3_keeps_what_a_database_of_version_2_holds() {
    let (config, _cleanup, store, db) = open().await;
    let templates = Templates::load(None).expect("templates");
    let (settings, now) = (Settings::default(), chrono::Utc::now());
    let first =
        [item("reg-a", "election.registered", council("a")), item("v1", "vacancy.reported", vacancy("a", "a-0"))];
    store.apply_batch(&first, now, &settings, &templates).await.expect("batch");
    // back to the schema of version 2, with these rows in it
    sqlx::raw_sql(
        "ALTER TABLE bodies ALTER COLUMN state TYPE jsonb USING state::jsonb;
         ALTER TABLE outbox ALTER COLUMN event TYPE jsonb USING event::jsonb;
         ALTER TABLE audit_log ALTER COLUMN payload TYPE jsonb USING payload::jsonb;
         DELETE FROM _sqlx_migrations WHERE version = 3;",
    )
    .execute(&db)
    .await
    .expect("downgrade");
    let documents = "SELECT (SELECT state::jsonb FROM bodies WHERE id = 'a'),
                            (SELECT jsonb_agg(event::jsonb ORDER BY id) FROM outbox),
                            (SELECT jsonb_agg(payload::jsonb ORDER BY seq) FROM audit_log)";
    let before: (Value, Value, Value) = sqlx::query_as(documents).fetch_one(&db).await.expect("read");
    db.close().await;
    store.close().await;

    let store = Store::connect(&config.database).await.expect("migrated");
    let db = sqlx::PgPool::connect(&config.database.url).await.expect("inspection pool");
    let types: Vec<String> = sqlx::query_scalar(
        "SELECT data_type FROM information_schema.columns
         WHERE (table_name, column_name) IN (('bodies', 'state'), ('outbox', 'event'), ('audit_log', 'payload'))",
    )
    .fetch_all(&db)
    .await
    .expect("columns");
    assert_eq!(types, ["json", "json", "json"]);
    let after: (Value, Value, Value) = sqlx::query_as(documents).fetch_one(&db).await.expect("read");
    assert_eq!(before, after, "the documents are the same JSON");
    // the council goes on: the next vacancy is decided on the migrated aggregate
    let next = [item("v2", "vacancy.reported", vacancy("a", "a-1"))];
    assert_eq!(store.apply_batch(&next, now, &settings, &templates).await.expect("batch"), [Applied::Applied]);
    let body = store.load_body("a").await.expect("load").expect("body a");
    assert_eq!(body.cases.len(), 2);
    let successors: Vec<Option<String>> =
        sqlx::query_scalar("SELECT successor FROM cases ORDER BY id").fetch_all(&db).await.expect("cases");
    assert_eq!(successors, [Some("a-4".to_owned()), Some("a-5".to_owned())]);
    db.close().await;
    store.close().await;
}

/// Before sqlx's migrator, the worker kept its own record of applied migrations in `schema_migrations`. A
/// database of that time is adopted: its versions are recorded in `_sqlx_migrations` (with the checksums of
/// the embedded files), nothing is applied twice, and the councils stay as they were.
#[tokio::test]
async fn a_database_migrated_by_the_old_runner_is_adopted_not_migrated_again() {
    let (config, _cleanup, store, db) = open().await;
    let templates = Templates::load(None).expect("templates");
    let (settings, now) = (Settings::default(), chrono::Utc::now());
    let reg = [item("reg-a", "election.registered", council("a"))];
    assert_eq!(store.apply_batch(&reg, now, &settings, &templates).await.expect("batch"), [Applied::Applied]);
    // the record as the old runner left it
    sqlx::raw_sql(
        "DROP TABLE _sqlx_migrations;
         CREATE TABLE schema_migrations (version INT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
         INSERT INTO schema_migrations (version) VALUES (1), (2), (3);",
    )
    .execute(&db)
    .await
    .expect("old record");
    store.close().await;

    let store = Store::connect(&config.database).await.expect("adopted and migrated");
    // adopted rows carry execution_time 0; a migration the migrator ran again would carry its own time
    let rows = sqlx::query("SELECT version, success, execution_time FROM _sqlx_migrations ORDER BY version")
        .fetch_all(&db)
        .await
        .expect("record");
    let record: Vec<(i64, bool, i64)> =
        rows.iter().map(|r| (r.get("version"), r.get("success"), r.get("execution_time"))).collect();
    assert_eq!(record[..3], [(1, true, 0), (2, true, 0), (3, true, 0)]);
    // what came after the old runner is applied as usual
    assert!(record[3..].iter().all(|(v, ok, time)| *v > 3 && *ok && *time > 0), "{record:?}");
    assert!(store.load_body("a").await.expect("load").is_some(), "the council is still there");
    // a second start finds nothing to do
    store.close().await;
    let store = Store::connect(&config.database).await.expect("second start");
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM _sqlx_migrations").fetch_one(&db).await.expect("count");
    assert_eq!(n as usize, record.len());
    db.close().await;
    store.close().await;
}

/// Migration 4 gives every timer its kind: an objection timer of an older database (round 0, the number
/// only in its key `{case}#objection#{n}`) becomes kind `objection` with `round` = n; a deadline keeps its
/// round. A case id that itself contains `#objection#` is not mistaken.
#[tokio::test]
async fn migration_4_gives_old_timers_their_kind() {
    let (config, _cleanup, store, db) = open().await;
    // back to the schema of version 3, with timers as it wrote them
    sqlx::raw_sql(
        "ALTER TABLE timers DROP COLUMN kind;
         DELETE FROM _sqlx_migrations WHERE version = 4;
         INSERT INTO timers (key, body_id, case_id, round, due_at) VALUES
           ('rat-1#2', 'rat', 'rat-1', 2, now()),
           ('rat-1#objection#3', 'rat', 'rat-1', 0, now()),
           ('x#objection#1#4', 'x', 'x#objection#1', 4, now());",
    )
    .execute(&db)
    .await
    .expect("downgrade");
    store.close().await;
    let store = Store::connect(&config.database).await.expect("migrated");
    let rows = sqlx::query("SELECT key, kind, round FROM timers ORDER BY key").fetch_all(&db).await.expect("timers");
    let timers: Vec<(String, String, i32)> =
        rows.iter().map(|r| (r.get("key"), r.get("kind"), r.get("round"))).collect();
    assert_eq!(
        timers,
        [
            ("rat-1#2".to_owned(), "deadline".to_owned(), 2),
            ("rat-1#objection#3".to_owned(), "objection".to_owned(), 3),
            ("x#objection#1#4".to_owned(), "deadline".to_owned(), 4),
        ]
    );
    db.close().await;
    store.close().await;
}

/// The aggregate cache (`store/cache.rs`): after each committed batch the cached aggregate is, byte for
/// byte, what the row holds at the same sequence — also after a pass that was rolled back for a refused
/// command — and a row changed behind the worker's back (another replica: a new `audit_seq`) is read
/// again, not served from the cache.
#[tokio::test]
async fn the_aggregate_cache_serves_only_the_stored_version() {
    let (_, _cleanup, store, db) = open().await;
    let templates = Templates::load(None).expect("templates");
    let settings = Settings::default();
    let now = chrono::Utc::now();
    let registered = store
        .apply_batch(&[item("reg-a", "election.registered", council("a"))], now, &settings, &templates)
        .await
        .expect("register");
    assert_eq!(registered, [Applied::Applied]);
    assert_cached_as_stored(&store, &db, "a").await;

    // another replica records that a-4 left the party: the row changes, with a new sequence
    left_party_behind_the_workers_back(&db, 4).await;
    let outcomes = store
        .apply_batch(&[item("v1", "vacancy.reported", vacancy("a", "a-0"))], now, &settings, &templates)
        .await
        .expect("vacancy");
    assert_eq!(outcomes, [Applied::Applied]);
    let successor: Option<String> =
        sqlx::query_scalar("SELECT successor FROM cases WHERE id = 'a-1'").fetch_one(&db).await.expect("case");
    assert_eq!(successor.as_deref(), Some("a-5"), "the changed row was read, not the cached aggregate");
    assert_cached_as_stored(&store, &db, "a").await;

    // served from the cache: a refused command first (a-6 holds no seat), so that pass is rolled back and
    // the batch runs again; the aggregate still equals the row afterwards
    let items =
        [item("v-bad", "vacancy.reported", vacancy("a", "a-6")), item("v2", "vacancy.reported", vacancy("a", "a-1"))];
    let outcomes = store.apply_batch(&items, now, &settings, &templates).await.expect("second vacancy");
    assert!(matches!(outcomes[0], Applied::Rejected(_)), "{outcomes:?}");
    assert_eq!(outcomes[1], Applied::Applied);
    assert_cached_as_stored(&store, &db, "a").await;
    let outcomes = store
        .apply_batch(&[item("v3", "vacancy.reported", vacancy("a", "a-2"))], now, &settings, &templates)
        .await
        .expect("third vacancy");
    assert_eq!(outcomes, [Applied::Applied]);
    assert_cached_as_stored(&store, &db, "a").await;
    let (bodies, bytes) = store.cache_stats();
    assert_eq!(bodies, 1);
    assert!(bytes > 0);
    db.close().await;
    store.close().await;
}

/// The optimistic write (docs/architecture.md, "Optimistic write"): a batch of one cached body commits
/// with one statement, and only while the row is at the cached sequence. A redelivered message, a reused
/// id, a row changed behind the worker's back, a refused command and a mail result recorded before each go
/// the locking path, and the outcome is what the locking path alone gives; a batch of two bodies is not
/// tried.
#[tokio::test]
async fn an_optimistic_write_commits_only_at_the_cached_version() {
    let (_, _cleanup, store, db) = open().await;
    let templates = Templates::load(None).expect("templates");
    let settings = Settings::default();
    let now = chrono::Utc::now();
    let apply = |items: Vec<Item>| {
        let (store, templates, settings) = (store.clone(), &templates, &settings);
        async move { store.apply_batch(&items, now, settings, templates).await.expect("batch") }
    };
    let successor = |case: &'static str| {
        let db = db.clone();
        async move {
            sqlx::query_scalar::<_, Option<String>>("SELECT successor FROM cases WHERE id = $1")
                .bind(case)
                .fetch_one(&db)
                .await
                .expect("case")
        }
    };
    let audit_len = |db: &sqlx::PgPool| {
        let db = db.clone();
        async move {
            let n: i64 = sqlx::query_scalar("SELECT count(*) FROM audit_log WHERE body_id = 'a'")
                .fetch_one(&db)
                .await
                .expect("audit");
            n
        }
    };

    // a registration is never optimistic: the body may not exist yet
    assert_eq!(apply(vec![item("reg-a", "election.registered", council("a"))]).await, [Applied::Applied]);
    assert_eq!(store.optimistic_stats(), (0, 0));

    // the cached body at its sequence: one statement
    assert_eq!(apply(vec![item("v1", "vacancy.reported", vacancy("a", "a-0"))]).await, [Applied::Applied]);
    assert_eq!(store.optimistic_stats(), (1, 0));
    assert_eq!(successor("a-1").await.as_deref(), Some("a-4"));
    assert_cached_as_stored(&store, &db, "a").await;
    let seq: i64 =
        sqlx::query_scalar("SELECT audit_seq FROM bodies WHERE id = 'a'").fetch_one(&db).await.expect("body");
    assert_eq!(audit_len(&db).await, seq, "the audit log is gap-free up to the stored sequence");

    // the same message again: the inbox insert fails the condition, the locking path finds the duplicate
    let before = audit_len(&db).await;
    assert_eq!(apply(vec![item("v1", "vacancy.reported", vacancy("a", "a-0"))]).await, [Applied::Duplicate]);
    // and the same id with other data is refused there
    let reused = apply(vec![item("v1", "vacancy.reported", vacancy("a", "a-1"))]).await;
    assert!(
        matches!(&reused[..], [Applied::Rejected(r)] if r.contains("already used for different data")),
        "{reused:?}"
    );
    assert_eq!(store.optimistic_stats(), (1, 2));
    assert_eq!(audit_len(&db).await, before, "nothing written twice");

    // another replica records that a-5 left the party: the row has a new sequence, the cached copy is old
    left_party_behind_the_workers_back(&db, 5).await;
    sqlx::query(
        "INSERT INTO audit_log (body_id, seq, at, kind, type, payload)
         SELECT 'a', audit_seq, now(), 'command', 'candidate.fact', '{}' FROM bodies WHERE id = 'a'",
    )
    .execute(&db)
    .await
    .expect("its audit entry");
    assert_eq!(apply(vec![item("v2", "vacancy.reported", vacancy("a", "a-1"))]).await, [Applied::Applied]);
    assert_eq!(store.optimistic_stats(), (1, 3), "the stale copy did not commit");
    assert_eq!(successor("a-2").await.as_deref(), Some("a-6"), "a-5 left the party: the row was read again");

    // cached again: a-2 leaves, a-7 follows
    assert_eq!(apply(vec![item("v3", "vacancy.reported", vacancy("a", "a-2"))]).await, [Applied::Applied]);
    assert_eq!(store.optimistic_stats(), (2, 3));
    assert_eq!(successor("a-3").await.as_deref(), Some("a-7"));

    // a mail result: marked and recorded with one statement; the same result again is a duplicate
    let mail = sqlx::query("SELECT message_id, round, kind FROM mail_outbox WHERE case_id = 'a-3'")
        .fetch_one(&db)
        .await
        .expect("the determination's mail");
    let (message_id, round, kind): (String, i32, String) = (mail.get(0), mail.get(1), mail.get(2));
    let failed = || Item {
        cause: Cause {
            key: format!("mail:{message_id}"),
            ty: "mail.failed".into(),
            payload: json!({"message_id": message_id}),
            ..Cause::default()
        },
        body_id: "a".to_owned().into(),
        work: Work::Internal(
            Command::NotificationFailed {
                case: "a-3".to_owned().into(),
                round: round as u32,
                kind: MailKind::from_name(&kind).expect("a known kind"),
                reason: "no e-mail address".into(),
            },
            Step::MailFailed { message_id: message_id.clone(), reason: "no e-mail address".into() },
        ),
    };
    assert_eq!(apply(vec![failed()]).await, [Applied::Applied]);
    assert_eq!(store.optimistic_stats(), (3, 3));
    let error: Option<String> = sqlx::query_scalar("SELECT last_error FROM mail_outbox WHERE message_id = $1")
        .bind(&message_id)
        .fetch_one(&db)
        .await
        .expect("mail");
    assert_eq!(error.as_deref(), Some("no e-mail address"));
    let before = audit_len(&db).await;
    assert_eq!(apply(vec![failed()]).await, [Applied::Duplicate]);
    assert_eq!(store.optimistic_stats(), (3, 4));
    assert_eq!(audit_len(&db).await, before);

    // the locking path took the duplicate; it locked the body before it found the result recorded (bodies
    // before their rows: docs/architecture.md, "Lock order") and keeps it cached, so the next batch (a-3
    // leaves) is written optimistically
    assert_eq!(apply(vec![item("v4", "vacancy.reported", vacancy("a", "a-3"))]).await, [Applied::Applied]);
    assert_eq!(store.optimistic_stats(), (4, 4), "cached by the locking path that took the duplicate");

    // a refused command (a-6 holds no seat) goes the locking path, which refuses it and changes nothing
    let before = audit_len(&db).await;
    let refused = apply(vec![item("v-bad", "vacancy.reported", vacancy("a", "a-6"))]).await;
    assert!(matches!(&refused[..], [Applied::Rejected(_)]), "{refused:?}");
    assert_eq!(store.optimistic_stats(), (4, 5));
    assert_eq!(audit_len(&db).await, before);

    // a batch of two bodies, both cached, takes the locking path without trying
    let regs =
        vec![item("reg-b", "election.registered", council("b")), item("reg-c", "election.registered", council("c"))];
    assert_eq!(apply(regs).await, [Applied::Applied, Applied::Applied]);
    let before = store.optimistic_stats();
    let two =
        vec![item("w1", "vacancy.reported", vacancy("b", "b-0")), item("w2", "vacancy.reported", vacancy("c", "c-0"))];
    assert_eq!(apply(two).await, [Applied::Applied, Applied::Applied]);
    assert_eq!(store.optimistic_stats(), before);
    assert_eq!(successor("b-1").await.as_deref(), Some("b-4"));
    assert_eq!(successor("c-1").await.as_deref(), Some("c-4"));
    db.close().await;
    store.close().await;
}

/// The tables that hold a body's state, as a restore brings them back together.
const STATE_TABLES: [&str; 7] = ["bodies", "cases", "audit_log", "inbox", "outbox", "mail_outbox", "timers"];

/// Issue 26 point 6 (docs/reliability.md, "Failover and restore"): a failover to an asynchronous standby
/// takes the database back to an earlier copy — a command this worker committed is lost — and another
/// replica then applies another command on the new primary, so each body's `audit_seq` reaches again the
/// number this worker cached. The next command of this worker, on the optimistic write (body `a`) and on
/// the locking path (body `b`, in a batch of two bodies), acts on the state the database holds, and the
/// other replica's command is not silently reverted.
#[tokio::test]
async fn a_row_restored_behind_the_workers_back_at_the_cached_sequence_is_read_again() {
    let (config, _cleanup, store, db) = open().await;
    let templates = Templates::load(None).expect("templates");
    let settings = Settings::default();
    let now = chrono::Utc::now();
    let apply = |store: &Store, items: Vec<Item>| {
        let (store, templates, settings) = (store.clone(), &templates, &settings);
        async move { store.apply_batch(&items, now, settings, templates).await.expect("batch") }
    };
    let seq = |body: &'static str| {
        let db = db.clone();
        async move {
            sqlx::query_scalar::<_, i64>("SELECT audit_seq FROM bodies WHERE id = $1")
                .bind(body)
                .fetch_one(&db)
                .await
                .expect("body")
        }
    };
    let regs = ["a", "b", "c"].map(|b| item(&format!("reg-{b}"), "election.registered", council(b)));
    assert_eq!(apply(&store, regs.to_vec()).await, vec![Applied::Applied; 3]);
    let first =
        vec![item("a0", "vacancy.reported", vacancy("a", "a-0")), item("b0", "vacancy.reported", vacancy("b", "b-0"))];
    assert_eq!(apply(&store, first).await, vec![Applied::Applied; 2]);

    // the standby's copy: everything as it stands now
    for t in STATE_TABLES {
        sqlx::query(&format!("CREATE TABLE standby_{t} AS SELECT * FROM {t}")).execute(&db).await.expect("copy");
    }
    // this worker records that a-1 and b-1 left; committed on the primary, the standby never receives it
    let lost =
        vec![item("a1", "vacancy.reported", vacancy("a", "a-1")), item("b1", "vacancy.reported", vacancy("b", "b-1"))];
    assert_eq!(apply(&store, lost).await, vec![Applied::Applied; 2]);
    let cached = (seq("a").await, seq("b").await);
    assert_eq!(store.cached_state("a").map(|c| c.0), Some(cached.0));
    assert_eq!(store.cached_state("b").map(|c| c.0), Some(cached.1));

    // the failover: the standby, promoted, holds the earlier copy
    let mut tx = db.begin().await.expect("restore");
    sqlx::query(&format!("TRUNCATE {}", STATE_TABLES.join(", "))).execute(&mut *tx).await.expect("truncate");
    for t in STATE_TABLES {
        sqlx::query(&format!("INSERT INTO {t} SELECT * FROM standby_{t}")).execute(&mut *tx).await.expect("restore");
    }
    tx.commit().await.expect("restored");

    // another replica records on the new primary that a-2 and b-2 left: the sequences repeat
    let other = Store::connect(&config.database).await.expect("another replica");
    let theirs =
        vec![item("a2", "vacancy.reported", vacancy("a", "a-2")), item("b2", "vacancy.reported", vacancy("b", "b-2"))];
    assert_eq!(apply(&other, theirs).await, vec![Applied::Applied; 2]);
    assert_eq!((seq("a").await, seq("b").await), cached, "the same sequences as this worker cached");
    other.close().await;

    // this worker records that a-3 left (optimistic write) and that b-3 and c-0 left (locking path)
    assert_eq!(apply(&store, vec![item("a3", "vacancy.reported", vacancy("a", "a-3"))]).await, [Applied::Applied]);
    let two =
        vec![item("b3", "vacancy.reported", vacancy("b", "b-3")), item("c0", "vacancy.reported", vacancy("c", "c-0"))];
    assert_eq!(apply(&store, two).await, vec![Applied::Applied; 2]);
    assert_cached_as_stored(&store, &db, "a").await;
    assert_cached_as_stored(&store, &db, "b").await;

    // a replica without a cache judges by what is stored: a-2 and b-2 left (the other replica's commands
    // stand), a-1 and b-1 still hold their seats (this worker's lost commit is not resurrected)
    let fresh = Store::connect(&config.database).await.expect("a fresh replica");
    for body in ["a", "b"] {
        let again = apply(
            &fresh,
            vec![item(&format!("{body}2-again"), "vacancy.reported", vacancy(body, &format!("{body}-2")))],
        )
        .await;
        assert!(matches!(&again[..], [Applied::Rejected(_)]), "{body}-2 left before (the other replica): {again:?}");
        let seated =
            apply(&fresh, vec![item(&format!("{body}1-now"), "vacancy.reported", vacancy(body, &format!("{body}-1")))])
                .await;
        assert_eq!(seated, [Applied::Applied], "{body}-1 still holds the seat after the failover");
    }
    fresh.close().await;
    db.close().await;
    store.close().await;
}

/// Issue 26 point 7 (docs/architecture.md, "Lock order"): every write path takes a body's row lock before
/// the rows that belong to the body (its mails, timers, inbox entries). A transaction holding the body —
/// as the optimistic write does when it marks a mail result, or a rejection's record — therefore never
/// waits for a batch that waits for the same body. Here a batch recording a mail's result waits for the
/// body while another transaction holds it and then marks that mail: no deadlock, both go through. Before,
/// the batch marked the mail first and then waited for the body, and PostgreSQL aborted one of the two
/// (`40P01`).
#[tokio::test]
async fn a_batch_waiting_for_a_body_holds_none_of_its_rows() {
    let (_, _cleanup, store, db) = open().await;
    let templates = Templates::load(None).expect("templates");
    let settings = Settings::default();
    let now = chrono::Utc::now();
    let first = [
        item("reg-a", "election.registered", council("a")),
        item("reg-b", "election.registered", council("b")),
        item("v1", "vacancy.reported", vacancy("a", "a-0")),
    ];
    let outcomes = store.apply_batch(&first, now, &settings, &templates).await.expect("vacancy");
    assert_eq!(outcomes, vec![Applied::Applied; 3]);
    let mail = sqlx::query("SELECT message_id, round, kind FROM mail_outbox WHERE case_id = 'a-1'")
        .fetch_one(&db)
        .await
        .expect("the determination's mail");
    let (message_id, round, kind): (String, i32, String) = (mail.get(0), mail.get(1), mail.get(2));
    let failed = Item {
        cause: Cause {
            key: format!("mail:{message_id}"),
            ty: "mail.failed".into(),
            payload: json!({"message_id": message_id}),
            ..Cause::default()
        },
        body_id: "a".to_owned().into(),
        work: Work::Internal(
            Command::NotificationFailed {
                case: "a-1".to_owned().into(),
                round: round as u32,
                kind: MailKind::from_name(&kind).expect("a known kind"),
                reason: "no e-mail address".into(),
            },
            Step::MailFailed { message_id: message_id.clone(), reason: "no e-mail address".into() },
        ),
    };
    // another path holds the body
    let mut holder = db.begin().await.expect("holder");
    let holder_pid: i32 = sqlx::query_scalar("SELECT pg_backend_pid()").fetch_one(&mut *holder).await.expect("pid");
    sqlx::query("SELECT 1 FROM bodies WHERE id = 'a' FOR UPDATE").execute(&mut *holder).await.expect("lock");
    // a batch of two bodies (the locking path) records the mail's result and a vacancy in `b`: it waits
    let batch = {
        let (store, settings) = (store.clone(), settings.clone());
        let items = [failed, item("w1", "vacancy.reported", vacancy("b", "b-0"))];
        tokio::spawn(async move {
            let templates = Templates::load(None).expect("templates");
            store.apply_batch(&items, now, &settings, &templates).await
        })
    };
    // until PostgreSQL reports the batch's connection waiting for a lock (bounded: 10 s)
    let mut waiting = false;
    for _ in 0..1000 {
        let n: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1",
        )
        .bind(holder_pid)
        .fetch_one(&db)
        .await
        .expect("activity");
        if n > 0 {
            waiting = true;
            break;
        }
        tokio::task::yield_now().await;
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(waiting, "the batch waits for the body");
    // the holder touches the body's mail (as the optimistic write's mark does after it locked the body)
    sqlx::query("SET LOCAL lock_timeout = '5s'").execute(&mut *holder).await.expect("timeout");
    sqlx::query("UPDATE mail_outbox SET attempts = attempts WHERE message_id = $1")
        .bind(&message_id)
        .execute(&mut *holder)
        .await
        .expect("the holder of the body is not made to wait for the batch: no deadlock");
    holder.commit().await.expect("commit");
    let outcome = batch.await.expect("task").expect("the batch commits after the holder, without a deadlock error");
    assert_eq!(outcome, vec![Applied::Applied; 2]);
    db.close().await;
    store.close().await;
}

/// Issue 26 point 10 (docs/contract.md, "Message ids"): inbound message ids are deduplicated per council.
/// The same id sent to two councils is two messages — both take effect, each with its own events — and
/// a redelivery to the same council is a duplicate; a reused id with other data is refused for that
/// council only.
#[tokio::test]
async fn the_same_message_id_for_two_councils_is_two_messages() {
    let (_, _cleanup, store, db) = open().await;
    let templates = Templates::load(None).expect("templates");
    let settings = Settings::default();
    let now = chrono::Utc::now();
    let apply = |items: Vec<Item>| {
        let (store, templates, settings) = (store.clone(), &templates, &settings);
        async move { store.apply_batch(&items, now, settings, templates).await.expect("batch") }
    };
    let regs = vec![item("reg", "election.registered", council("a")), item("reg", "election.registered", council("b"))];
    assert_eq!(apply(regs).await, vec![Applied::Applied; 2], "one registration id for two councils");
    // in one batch, and each council's own
    let same =
        vec![item("m1", "vacancy.reported", vacancy("a", "a-0")), item("m1", "vacancy.reported", vacancy("b", "b-0"))];
    assert_eq!(apply(same).await, vec![Applied::Applied; 2]);
    let successors: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT id, successor FROM cases ORDER BY id").fetch_all(&db).await.expect("cases");
    assert_eq!(
        successors,
        [("a-1".to_owned(), Some("a-4".to_owned())), ("b-1".to_owned(), Some("b-4".to_owned()))],
        "both vacancies took effect"
    );
    let events: i64 = sqlx::query_scalar("SELECT count(DISTINCT event_id) FROM outbox WHERE body_id = 'b'")
        .fetch_one(&db)
        .await
        .expect("events");
    assert!(events > 1, "council b's events were written beside council a's of the same message id");
    // a redelivery to one council is a duplicate; the same id with other data is refused there only
    assert_eq!(apply(vec![item("m1", "vacancy.reported", vacancy("a", "a-0"))]).await, [Applied::Duplicate]);
    let reused = apply(vec![item("m1", "vacancy.reported", vacancy("b", "b-1"))]).await;
    assert!(
        matches!(&reused[..], [Applied::Rejected(r)] if r.contains("already used for different data")),
        "{reused:?}"
    );
    // an id used by council a only is new to council c: no probing, no pre-empting
    assert_eq!(apply(vec![item("reg-c", "election.registered", council("c"))]).await, [Applied::Applied]);
    assert_eq!(apply(vec![item("m1", "vacancy.reported", vacancy("c", "c-0"))]).await, [Applied::Applied]);
    let rows: i64 =
        sqlx::query_scalar("SELECT count(*) FROM inbox WHERE message_id = 'm1'").fetch_one(&db).await.expect("inbox");
    assert_eq!(rows, 3, "one inbox entry per council");
    db.close().await;
    store.close().await;
}
