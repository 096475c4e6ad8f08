//! Golden files of every e-mail and announcement text, rendered from the example elections through the
//! pure core and the built-in templates. The rendered texts live in `docs/texts/` so that the docs show
//! exactly what the worker sends; `UPDATE_GOLDEN=1 cargo test --test texts` rewrites them after a
//! deliberate change.

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use nachfolge::messages::Inbound;
use nachfolge::model::Snapshot;
use nachfolge::procedure::{self, Command, Council, Effect, Settings};
use nachfolge::templates::Templates;

fn now() -> DateTime<Utc> {
    "2026-11-30T09:00:00Z".parse().expect("time")
}

fn example(name: &str) -> Value {
    let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json")
}

fn body(snapshot: Value) -> Council {
    let s: Snapshot = serde_json::from_value(snapshot).expect("snapshot");
    procedure::register(None, s).expect("register").0
}

fn cmd(ty: &str, data: Value) -> Command {
    Command::Inbound(Inbound::parse(ty, data).expect("valid command"))
}

fn run(body: &mut Council, ty: &str, data: Value, at: DateTime<Utc>) -> Vec<Effect> {
    procedure::handle(body, cmd(ty, data), at, &Settings::default()).expect("command applies")
}

/// Compare with (or, with UPDATE_GOLDEN=1, write) `docs/texts/<name>`.
fn golden(name: &str, text: &str) {
    let path = format!("{}/docs/texts/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(format!("{}/docs/texts", env!("CARGO_MANIFEST_DIR"))).expect("dir");
        std::fs::write(&path, text).expect("write golden");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{path} missing: run UPDATE_GOLDEN=1"));
    assert_eq!(text, expected, "{name} differs from its golden file (UPDATE_GOLDEN=1 to accept)");
}

fn render(effects: &[Effect], prefix: &str) {
    let t = Templates::load(None).expect("templates");
    for e in effects {
        match e {
            Effect::Mail(m) => {
                let r = t.mail(&m.template, &m.context).expect("mail renders");
                golden(&format!("{prefix}.mail.txt"), &format!("Betreff: {}\n\n{}", m.subject, r.text));
                golden(&format!("{prefix}.mail.html"), &r.html);
                check_german(&r.text);
            }
            Effect::Announce(a) => {
                let text = t.announcement(&a.template, &a.context).expect("announcement renders");
                golden(&format!("{prefix}.announcement-{}.txt", a.kind), &text);
                check_german(&text);
            }
            _ => {}
        }
    }
}

/// No unrendered placeholders, no empty values where a name belongs.
fn check_german(text: &str) {
    assert!(!text.contains("{{") && !text.contains("{%"), "unrendered template syntax:\n{text}");
    assert!(!text.contains("None") && !text.contains("null") && !text.contains("„“"), "missing value:\n{text}");
}

#[test]
fn nrw_offer_and_announcement_texts() {
    let mut b = body(example("nrw-election.json"));
    let e = run(&mut b, "vacancy.reported", example("nrw-vacancy-list-member.json"), now());
    render(&e, "nrw-successor-offer");
    let case = b.cases.keys().next().expect("case").clone();
    let sent = Command::NotificationSent { case: case.clone(), round: 1, message_id: "<m@x>".into(), sent_at: now() };
    procedure::handle(&mut b, sent, now(), &Settings::default()).expect("sent");
    run(
        &mut b,
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-04", "method": "certificate", "on": "2026-11-30"}),
        now(),
    );
    let e = run(
        &mut b,
        "declaration.received",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-04", "kind": "accept", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    render(&e, "nrw-successor-accepted");
}

#[test]
fn nrw_barred_offer_text() {
    let mut s = example("nrw-election.json");
    s["lists"][0]["candidates"][5]["facts"] =
        json!([{"type": "barred", "on": "2026-01-01", "reason": "Beschäftigter der Stadtverwaltung Musterstadt"}]);
    let mut b = body(s);
    let e = run(&mut b, "vacancy.reported", example("nrw-vacancy-district-winner.json"), now());
    render(&e, "nrw-barred-offer");
}

#[test]
fn nrw_vacancy_text() {
    let mut b = body(example("nrw-election.json"));
    let e = run(&mut b, "vacancy.reported", example("nrw-vacancy-individual.json"), now());
    render(&e, "nrw-vacancy");
}

#[test]
fn hessen_determination_texts() {
    let mut b = body(example("he-election.json"));
    let e = run(&mut b, "vacancy.reported", example("he-vacancy.json"), now());
    render(&e, "he-successor");
}

#[test]
fn hessen_barred_and_not_acquired_texts() {
    let mut s = example("he-election.json");
    s["lists"][0]["candidates"][4]["facts"] =
        json!([{"type": "barred", "on": "2026-01-01", "reason": "Beamtin der Stadt Beispielstadt"}]);
    let mut b = body(s);
    let e = run(&mut b, "vacancy.reported", example("he-vacancy.json"), now());
    render(&e, "he-barred");
    let case = b.cases.keys().next().expect("case").clone();
    run(
        &mut b,
        "notification.served",
        json!({"body": "beispielstadt-stvv", "case": case, "candidate": "W1-05", "method": "acknowledgement", "on": "2026-11-30"}),
        now(),
    );
    let e = procedure::handle(
        &mut b,
        Command::DeadlineExpired { case, round: 1 },
        "2026-12-09T00:00:00Z".parse().expect("t"),
        &Settings::default(),
    )
    .expect("deadline");
    render(&e, "he-not-acquired");
}

#[test]
fn hessen_vacancy_text() {
    let mut s = example("he-election.json");
    // nobody left to succeed: everyone else holds a seat or waived
    for c in s["lists"][0]["candidates"].as_array_mut().into_iter().flatten() {
        if c["seat"].is_null() {
            c["facts"] = json!([{"type": "waived", "on": "2026-05-02", "form": "written"}]);
        }
    }
    let mut b = body(s);
    let e = run(&mut b, "vacancy.reported", example("he-vacancy.json"), now());
    render(&e, "he-vacancy");
}

/// NRW: L1-04 served 30 Nov 2026, deemed accepted when the week ended (Mon 7 Dec 24:00); his timely
/// declaration is entered afterwards and corrects the record (docs/legal.md).
fn nrw_correction(kind: &str, prefix: &str) {
    let mut b = body(example("nrw-election.json"));
    run(&mut b, "vacancy.reported", example("nrw-vacancy-list-member.json"), now());
    let case = b.cases.keys().next().expect("case").clone();
    let sent = Command::NotificationSent { case: case.clone(), round: 1, message_id: "<m@x>".into(), sent_at: now() };
    procedure::handle(&mut b, sent, now(), &Settings::default()).expect("sent");
    run(
        &mut b,
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-04", "method": "certificate", "on": "2026-11-30"}),
        now(),
    );
    let ends: DateTime<Utc> = "2026-12-08T08:00:00Z".parse().expect("t");
    procedure::handle(&mut b, Command::DeadlineExpired { case: case.clone(), round: 1 }, ends, &Settings::default())
        .expect("deemed");
    let e = run(
        &mut b,
        "declaration.received",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-04", "kind": kind, "received_at": "2026-12-04T10:00:00+01:00"}),
        "2026-12-08T09:00:00Z".parse().expect("time"),
    );
    assert!(e.iter().any(|e| matches!(e, Effect::Announce(a) if a.kind == "correction")));
    let only: Vec<Effect> =
        e.into_iter().filter(|e| matches!(e, Effect::Announce(a) if a.kind == "correction")).collect();
    render(&only, prefix);
}

#[test]
fn nrw_correction_texts() {
    nrw_correction("accept", "nrw-correction-accepted");
    nrw_correction("refuse", "nrw-correction-refused");
}

// ---------------------------------------------------------------------------------------------------------
// Review decisions (§ 45 Abs. 6 Satz 8 KWahlG NRW; § 34 Abs. 4–6 KWG)

fn later() -> DateTime<Utc> {
    "2026-12-20T10:00:00Z".parse().expect("time")
}

fn review(case: &str, body: &str, outcome: &str, successor: Option<&str>, by: Option<&str>) -> Value {
    let mut v = json!({"body": body, "case": case, "outcome": outcome, "decided_at": "2026-12-18T18:00:00+01:00", "final": true});
    if let Some(s) = successor {
        v["successor"] = json!(s);
    }
    if let Some(b) = by {
        v["decided_by"] = json!(b);
    }
    v
}

/// NRW: L1-02 resigned; L1-04 accepted and is a member.
fn nrw_filled() -> (Council, String) {
    let mut b = body(example("nrw-election.json"));
    run(&mut b, "vacancy.reported", example("nrw-vacancy-list-member.json"), now());
    let case = b.cases.keys().next().expect("case").clone();
    let sent = Command::NotificationSent { case: case.clone(), round: 1, message_id: "<m@x>".into(), sent_at: now() };
    procedure::handle(&mut b, sent, now(), &Settings::default()).expect("sent");
    run(
        &mut b,
        "declaration.received",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-04", "kind": "accept", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    (b, case)
}

#[test]
fn nrw_review_texts() {
    let (filled, case) = nrw_filled();

    let mut b = filled.clone();
    let e = run(
        &mut b,
        "review.decided",
        review(&case, "musterstadt-rat", "confirmed", None, Some("Wahlleitung")),
        later(),
    );
    render(&e, "nrw-review-confirmed");

    // the objection: David Dietrich had lost his eligibility before the determination
    let mut b = filled.clone();
    run(
        &mut b,
        "candidate.fact_recorded",
        json!({"body": "musterstadt-rat", "candidate": "L1-04", "fact": {"type": "ineligible", "from": "2026-11-01"}}),
        later(),
    );
    let e = run(&mut b, "review.decided", review(&case, "musterstadt-rat", "annulled", None, None), later());
    render(&e, "nrw-review-annulled");

    let mut b = filled;
    // the Wahlleitung's decision while it can still be challenged: announced, nothing changes yet
    let mut pending = review(&case, "musterstadt-rat", "amended", Some("L1-05"), None);
    pending["final"] = json!(false);
    let e = run(&mut b.clone(), "review.decided", pending, later());
    render(&e, "nrw-review-amended-not-final");
    let e = run(&mut b, "review.decided", review(&case, "musterstadt-rat", "amended", Some("L1-05"), None), later());
    render(&e, "nrw-review-amended");
}

#[test]
fn hessen_review_texts() {
    let mut filled = body(example("he-election.json"));
    run(&mut filled, "vacancy.reported", example("he-vacancy.json"), now());
    let case = filled.cases.keys().next().expect("case").clone();

    let mut b = filled.clone();
    let e =
        run(&mut b, "review.decided", review(&case, "beispielstadt-stvv", "confirmed", None, Some("council")), later());
    render(&e, "he-review-confirmed");

    let mut b = filled.clone();
    let e = run(
        &mut b,
        "review.decided",
        review(&case, "beispielstadt-stvv", "amended", Some("W1-06"), Some("council")),
        later(),
    );
    render(&e, "he-review-amended");

    let mut b = filled;
    run(
        &mut b,
        "candidate.fact_recorded",
        json!({"body": "beispielstadt-stvv", "candidate": "W1-05", "fact": {"type": "left_party", "on": "2026-11-20"}}),
        later(),
    );
    let e =
        run(&mut b, "review.decided", review(&case, "beispielstadt-stvv", "annulled", None, Some("council")), later());
    render(&e, "he-review-annulled");
}

#[test]
fn hessen_council_determines_when_the_officer_stays_inactive() {
    let mut s = example("he-election.json");
    s["body"]["electoral_system"] = json!("majority");
    let mut b = body(s);
    run(&mut b, "vacancy.reported", example("he-vacancy.json"), now());
    let case = b.cases.keys().next().expect("case").clone();
    let e = run(
        &mut b,
        "review.decided",
        review(&case, "beispielstadt-stvv", "amended", Some("W1-06"), Some("council")),
        later(),
    );
    render(&e, "he-review-council-inactive");
}
