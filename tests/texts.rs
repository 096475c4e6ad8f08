//! Golden files of every e-mail and announcement text, rendered from the example elections through the
//! pure core and the built-in templates. The rendered texts live in `docs/texts/` so that the docs show
//! exactly what the worker sends; `UPDATE_GOLDEN=1 cargo test --test texts` rewrites them after a
//! deliberate change.

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use nachfolge::messages::Inbound;
use nachfolge::model::Snapshot;
use nachfolge::procedure::{self, Command, Council, Effect, MailKind, Settings};
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

/// The relay reports the notification of round 1 of `case` sent at [`now`] (a declaration before it would be
/// refused as `before_notification`).
fn notification_sent(b: &mut Council, case: &nachfolge::model::CaseId) {
    notification_sent_at(b, case, now());
}

/// [`notification_sent`], the report handled at `at`.
fn notification_sent_at(b: &mut Council, case: &nachfolge::model::CaseId, at: DateTime<Utc>) {
    let sent = Command::NotificationSent {
        case: case.clone(),
        round: 1,
        kind: MailKind::Determination,
        message_id: "<m@x>".into(),
        sent_at: now(),
    };
    procedure::handle(b, sent, at, &Settings::default()).expect("sent");
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
                // the notification is `<prefix>.mail.*`; another kind of mail names its kind
                let name = match m.kind {
                    MailKind::Determination => "mail".to_owned(),
                    other => format!("mail-{}", other.as_str()),
                };
                golden(&format!("{prefix}.{name}.txt"), &format!("Betreff: {}\n\n{}", m.subject, r.text));
                golden(&format!("{prefix}.{name}.html"), &r.html);
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
    notification_sent(&mut b, &case);
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

/// The rendered text of the first mail or announcement of `kind` among `effects`.
fn text_of(effects: &[Effect], kind: &str) -> String {
    let t = Templates::load(None).expect("templates");
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Mail(m) if kind == "mail" => Some(t.mail(&m.template, &m.context).expect("mail").text),
            Effect::Announce(a) if a.kind == kind => Some(t.announcement(&a.template, &a.context).expect("text")),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no {kind} among the effects"))
}

#[test]
fn kwahlo_nrw_69_abs_2_satz_2_offer_to_an_ersatzbewerber_says_a_refusal_ends_his_list_place() {
    // L1-06 is Anna Albers' Ersatzbewerber (the district winner)
    let mut b = body(example("nrw-election.json"));
    let offer = text_of(&run(&mut b, "vacancy.reported", example("nrw-vacancy-district-winner.json"), now()), "mail");
    assert!(offer.contains("scheiden Sie damit auch als Bewerber nach der Reihenfolge der Reserveliste aus (§ 45 Abs. 3 Satz 2 KWahlG, § 69 Abs. 2 Satz 2 KWahlO)"), "{offer}");
    // a list successor who is no Ersatzbewerber: only the general notice of § 45 Abs. 3 Satz 2
    let mut b = body(example("nrw-election.json"));
    let offer = text_of(&run(&mut b, "vacancy.reported", example("nrw-vacancy-list-member.json"), now()), "mail");
    assert!(
        offer.contains("werden Sie auch später nicht mehr aus der Reserveliste berufen (§ 45 Abs. 3 Satz 2 KWahlG)")
    );
    assert!(!offer.contains("KWahlO)."), "{offer}");
    // a list successor who is also another member's Ersatzbewerber loses that role too (§ 62 Nr. 4 KWahlO)
    let mut s = example("nrw-election.json");
    for i in [3, 4] {
        s["lists"][0]["candidates"][i]["facts"] = json!([{"type": "declined", "on": "2026-05-02"}]);
    }
    let mut b = body(s);
    let offer = text_of(&run(&mut b, "vacancy.reported", example("nrw-vacancy-list-member.json"), now()), "mail");
    // Felix Fuchs (`herr`): the word for him, not both forms (docs/legal.md, "Form of address")
    assert!(offer.contains("zugleich als Ersatzbewerber für Anna Albers benannt. Lehnen Sie die Annahme der Wahl ab, scheiden Sie damit auch als Ersatzbewerber aus (§ 69 Abs. 2 Satz 1 in Verbindung mit § 62 Nr. 4 KWahlO)"), "{offer}");
}

#[test]
fn nrw_45_abs_6_satz_3_membership_besteht_seit_only_for_a_past_day() {
    // L1-02 leaves on 31 Dec 2026; L1-04 accepts on 2 Dec: membership begins on 31 Dec (not before the
    // predecessor's departure) — the announcement of 2 Dec says "beginnt am"
    let mut b = body(example("nrw-election.json"));
    let mut v = example("nrw-vacancy-list-member.json");
    v["effective_at"] = json!("2026-12-31T23:59:59+01:00");
    run(&mut b, "vacancy.reported", v, now());
    let case = b.cases.keys().next().expect("case").clone();
    notification_sent(&mut b, &case);
    let accept = json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-04", "kind": "accept",
        "received_at": "2026-12-02T10:00:00+01:00"});
    let text =
        text_of(&run(&mut b, "declaration.received", accept, "2026-12-02T09:30:00Z".parse().expect("t")), "successor");
    assert!(text.contains("Die Mitgliedschaft in der Vertretung beginnt am 31.12.2026."), "{text}");
    // silence: deemed accepted when the period ends (Mon 7 Dec 24:00); announced on 8 Dec the membership
    // "beginnt am" 8 Dec, announced a day later (the timer's grace) it "besteht seit" 8 Dec
    let deemed = |fired: &str| {
        let mut b = body(example("nrw-election.json"));
        run(&mut b, "vacancy.reported", example("nrw-vacancy-list-member.json"), now());
        let case = b.cases.keys().next().expect("case").clone();
        let served = json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-04", "method": "certificate", "on": "2026-11-30"});
        run(&mut b, "notification.served", served, now());
        let cmd = Command::DeadlineExpired { case, round: 1 };
        let e = procedure::handle(&mut b, cmd, fired.parse().expect("t"), &Settings::default()).expect("deadline");
        text_of(&e, "successor")
    };
    let text = deemed("2026-12-08T10:00:00Z");
    assert!(text.contains("Die Mitgliedschaft in der Vertretung beginnt am 08.12.2026; die Wahl gilt"), "{text}");
    let text = deemed("2026-12-09T10:00:00Z");
    assert!(text.contains("Die Mitgliedschaft in der Vertretung besteht seit dem 08.12.2026; die Wahl gilt"), "{text}");
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
fn nrw_party_ban_texts() {
    // § 46 Abs. 2 Satz 1 KWahlG NRW: elected on the banned party's list — the seat stays vacant
    let mut b = body(example("nrw-election.json"));
    let v = json!({"body": "musterstadt-rat", "member": "L1-02", "reason": "party_banned", "list_banned": true,
        "effective_at": "2026-11-27T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    render(&e, "nrw-party-ban");
}

#[test]
fn hessen_lot_texts() {
    // § 34 Abs. 1a KWG: W1-05 and W1-06 have 990 votes each; the returning officer draws W1-06
    let mut s = example("he-election.json");
    s["body"]["electoral_system"] = json!("majority");
    let mut b = body(s);
    run(&mut b, "vacancy.reported", example("he-vacancy.json"), now());
    let case = b.cases.keys().next().expect("case").clone();
    let lot = json!({"body": "beispielstadt-stvv", "case": case, "winner": "W1-06",
        "drawn_at": "2026-11-30T11:30:00+01:00", "drawn_by": "Gemeindewahlleiterin Petra Muster"});
    let e = run(&mut b, "lot.drawn", lot, "2026-11-30T11:00:00Z".parse().expect("time"));
    render(&e, "he-lot");
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
    notification_sent(&mut b, &case);
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

/// When a review decision is recorded: a month after it was taken (18 Dec 2026), once the Klage period after its
/// Bekanntgabe has ended unused — it is unanfechtbar since 19 Jan 2027 (`final_on`).
fn later() -> DateTime<Utc> {
    "2027-01-20T10:00:00Z".parse().expect("time")
}

/// A final review decision of 18 Dec 2026, unanfechtbar since 19 Jan 2027; `v["final"] = false` (and removing
/// `final_on`) makes it one that can still be challenged ([`not_final`]).
fn review(case: &str, body: &str, outcome: &str, successor: Option<&str>, by: Option<&str>) -> Value {
    let mut v = json!({"body": body, "case": case, "outcome": outcome, "decided_at": "2026-12-18T18:00:00+01:00",
        "final": true, "final_on": "2027-01-19"});
    if let Some(s) = successor {
        v["successor"] = json!(s);
    }
    if let Some(b) = by {
        v["decided_by"] = json!(b);
    }
    v
}

/// `review` as a decision that can still be challenged: not final, no day of finality.
fn not_final(mut v: Value) -> Value {
    v["final"] = json!(false);
    if let Some(o) = v.as_object_mut() {
        o.remove("final_on");
    }
    v
}

/// NRW: L1-02 resigned; L1-04 accepted and is a member.
fn nrw_filled() -> (Council, String) {
    let mut b = body(example("nrw-election.json"));
    run(&mut b, "vacancy.reported", example("nrw-vacancy-list-member.json"), now());
    let case = b.cases.keys().next().expect("case").clone();
    notification_sent(&mut b, &case);
    run(
        &mut b,
        "declaration.received",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-04", "kind": "accept", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    (b, case.to_string())
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
    let pending = not_final(review(&case, "musterstadt-rat", "amended", Some("L1-05"), None));
    let e = run(&mut b.clone(), "review.decided", pending, later());
    render(&e, "nrw-review-amended-not-final");
    let e = run(&mut b, "review.decided", review(&case, "musterstadt-rat", "amended", Some("L1-05"), None), later());
    render(&e, "nrw-review-amended");
}

#[test]
fn nrw_41_abs_1_klage_within_a_month_after_bekanntgabe_none_after_a_court_decision() {
    let (filled, case) = nrw_filled();
    let mut b = filled.clone();
    // a decision that can still be challenged offers the Klage (a final one offers none: nrw-review-confirmed)
    let open = not_final(review(&case, "musterstadt-rat", "confirmed", None, None));
    let e = run(&mut b, "review.decided", open, later());
    let text = text_of(&e, "review");
    assert!(text.contains("binnen eines Monats nach ihrer Bekanntgabe Klage vor dem Verwaltungsgericht"), "{text}");
    assert!(!text.contains("Zustellung Klage") && !text.contains("nach ihrer Zustellung"), "{text}");
    // the determination's own announcement: the officer's decision on objections, too, after Bekanntgabe
    let mut b = body(example("nrw-election.json"));
    let e = run(&mut b, "vacancy.reported", example("nrw-vacancy-individual.json"), now());
    assert!(text_of(&e, "vacancy")
        .contains("gegen ihre Entscheidung kann binnen eines Monats nach ihrer Bekanntgabe Klage"));
    // a court decided: the officer carries it out, no further Klage is offered
    let mut b = filled;
    let e = run(&mut b, "review.decided", review(&case, "musterstadt-rat", "confirmed", None, Some("court")), later());
    let text = text_of(&e, "review");
    assert!(text.contains("eine Klage nach § 41 KWahlG ist gegen sie nicht gegeben"), "{text}");
    assert!(!text.contains("binnen eines Monats"), "{text}");
    let a = e.iter().find_map(|e| if let Effect::Announce(a) = e { Some(a) } else { None }).expect("announcement");
    assert!(a.objection_period.starts_with("keine Klage nach § 41 KWahlG NRW"), "{}", a.objection_period);
}

#[test]
fn he_25_rechtsbehelfsbelehrung_as_the_statute_says() {
    let mut b = body(example("he-election.json"));
    let e = run(&mut b, "vacancy.reported", example("he-vacancy.json"), now());
    let text = text_of(&e, "successor");
    for phrase in [
        // only the voters of the Wahlkreis (§ 25 Abs. 1 Satz 1), within an Ausschlussfrist
        "Jede wahlberechtigte Person des Wahlkreises kann binnen einer Ausschlussfrist von zwei Wochen nach dieser öffentlichen Bekanntmachung Einspruch erheben.",
        // supporters only for one who does not claim his own rights (Satz 2)
        "Der Einspruch einer wahlberechtigten Person, die nicht die Verletzung eigener Rechte geltend macht, ist nur zulässig, wenn ihn eins vom Hundert der Wahlberechtigten, mindestens jedoch fünf Wahlberechtigte, unterstützen; bei mehr als 10 000 Wahlberechtigten müssen mindestens 100 Wahlberechtigte den Einspruch unterstützen.",
        // reasons in detail within the period (Abs. 2)
        "innerhalb der Einspruchsfrist im Einzelnen zu begründen; nach Ablauf der Einspruchsfrist können weitere Einspruchsgründe nicht mehr geltend gemacht werden (§ 25 KWG)",
        // § 27: the Beteiligten and the Aufsichtsbehörde, after Zustellung or Verkündung
        "steht den Beteiligten und der Aufsichtsbehörde innerhalb eines Monats nach Zustellung oder Verkündung die Klage im Verwaltungsstreitverfahren vor dem Verwaltungsgericht (Verwaltungsgericht Beispielstadt, Gerichtsstraße 2, 65430 Beispielstadt) zu",
        // § 58 Abs. 1 VwGO: the authority the Einspruch is lodged with, and its seat
        "schriftlich oder zur Niederschrift bei der Wahlleitung, Marktplatz 3, 65432 Beispielstadt, einzureichen",
    ] {
        assert!(text.contains(phrase), "missing {phrase:?} in\n{text}");
    }
    // § 25 names no other objectors
    assert!(!text.contains("Einspruch können auch"), "{text}");
    let a = e.iter().find_map(|e| if let Effect::Announce(a) = e { Some(a) } else { None }).expect("announcement");
    assert!(
        a.objection_period.contains("Ausschlussfrist von zwei Wochen")
            && a.objection_period.contains("im Einzelnen zu begründen")
    );
    // a court decided: no further Klage
    let case = b.cases.keys().next().expect("case").clone();
    let e =
        run(&mut b, "review.decided", review(&case, "beispielstadt-stvv", "confirmed", None, Some("court")), later());
    let text = text_of(&e, "review");
    assert!(text.contains("eine Klage nach § 27 KWG ist gegen sie nicht gegeben"), "{text}");
    assert!(text.contains("entschieden worden (gerichtliche Entscheidung):") && !text.contains("court"), "{text}");
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

// Rheinland-Pfalz: the shared declaration-model templates with the sentences of law/rp.txt (§ 45 KWG,
// §§ 64, 66 KWO)

const RP: &str = "beispielhausen-rat";

/// RP: R1-02 resigned; R1-04 (most votes among those not called, tie with R1-05 by list order) is offered
/// the seat; the offer is sent and served.
fn rp_offered() -> (Council, String, Vec<Effect>) {
    let mut b = body(example("rp-election.json"));
    let e = run(&mut b, "vacancy.reported", example("rp-vacancy.json"), now());
    let case = b.cases.keys().next().expect("case").clone();
    notification_sent(&mut b, &case);
    run(
        &mut b,
        "notification.served",
        json!({"body": RP, "case": case, "candidate": "R1-04", "method": "certificate", "on": "2026-11-30"}),
        now(),
    );
    (b, case.to_string(), e)
}

#[test]
fn rp_offer_and_announcement_texts() {
    let (mut b, case, e) = rp_offered();
    render(&e, "rp-successor-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("gilt die Wahl als angenommen (§ 44 Abs. 2 Satz 1 KWG)"), "{offer}");
    assert!(offer.contains("Eine Erklärung unter Vorbehalt gilt als Ablehnung (§ 64 Abs. 1 Satz 2 Nr. 2 KWO)"));
    let e = run(
        &mut b,
        "declaration.received",
        json!({"body": RP, "case": case, "candidate": "R1-04", "kind": "accept", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    render(&e, "rp-successor-accepted");
    let text = text_of(&e, "successor");
    assert!(text.contains("Widerspruch erhoben werden"), "{text}");
    assert!(text.contains("(§ 70 Abs. 1 Satz 1 der Verwaltungsgerichtsordnung)"), "{text}");
}

#[test]
fn rp_64_abs_2_kwo_barred_offer_asks_for_the_proof_within_the_week() {
    let mut s = example("rp-election.json");
    s["lists"][0]["candidates"][3]["facts"] =
        json!([{"type": "barred", "on": "2025-01-01", "reason": "Beschäftigte der Stadtverwaltung"}]);
    let mut b = body(s);
    let e = run(&mut b, "vacancy.reported", example("rp-vacancy.json"), now());
    render(&e, "rp-barred-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("(Beschäftigte der Stadtverwaltung; § 5 KWG)"), "{offer}");
    assert!(offer.contains("gilt die Wahl als abgelehnt (§ 44 Abs. 2 Satz 2 KWG, § 66 Abs. 1 Satz 4 in Verbindung mit § 64 Abs. 2 Satz 1 KWO)"), "{offer}");
    // § 64 Abs. 1 Nr. 1 KWO: silence is acceptance only "vorbehaltlich" the proof
    assert!(offer.contains("- Erbringen Sie den Nachweis bis zum Ablauf der Frist und geben keine Erklärung ab, gilt die Wahl als angenommen (§ 44 Abs. 2 Satz 1 KWG)."), "{offer}");
    assert!(!offer.contains("- Geben Sie bis zum Ablauf der Frist keine Erklärung ab"), "{offer}");
}

#[test]
fn rp_66_abs_3_satz_2_kwo_no_ersatzperson_text() {
    // R2-02 refused when the list was drawn up: the party's Wahlvorschlag has no Ersatzperson left
    let mut b = body(example("rp-election.json"));
    let v = json!({"body": RP, "member": "R2-01", "reason": "died", "effective_at": "2026-11-28T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    render(&e, "rp-vacancy");
    let text = text_of(&e, "vacancy");
    assert!(text.contains("keine Ersatzperson vorhanden ist, weil der Wahlvorschlag „Partei für Beispielhausen“ erschöpft ist (§ 45 Abs. 2 Satz 1 KWG)"), "{text}");
    assert!(
        text.contains("vermindert sich für den Rest der Wahlzeit auf 31 (§ 29 Abs. 4 der Gemeindeordnung)"),
        "{text}"
    );
}

#[test]
fn rp_review_texts() {
    let (mut filled, case, _) = rp_offered();
    run(
        &mut filled,
        "declaration.received",
        json!({"body": RP, "case": case, "candidate": "R1-04", "kind": "accept", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    let mut b = filled.clone();
    let e = run(&mut b, "review.decided", review(&case, RP, "confirmed", None, Some("Wahlleitung")), later());
    render(&e, "rp-review-confirmed");
    let mut b = filled.clone();
    // the Widerspruchsbescheid while the Klage is still open: the remedy is the Klage (§ 74 VwGO)
    let open = not_final(review(&case, RP, "amended", Some("R1-05"), Some("Wahlleitung")));
    let e = run(&mut b, "review.decided", open, later());
    render(&e, "rp-review-amended");
    let text = text_of(&e, "review");
    assert!(text.contains("Klage vor dem Verwaltungsgericht (Verwaltungsgericht Beispielhausen, Justizstraße 5, 67800 Beispielhausen) erhoben werden (§ 74 Abs. 1 Satz 1"), "{text}");
}

// Niedersachsen: the shared declaration-model templates with the sentences of law/ni.txt (§ 44 NKWG, § 40
// NKWG, § 77 NKWO); the vacancy has its own text (the statutory size does not fall)

const NI: &str = "musterfeld-rat";

/// NI: N1-02 (Personenwahl) resigned; N1-04 is passed over (the party's notice, § 44 Abs. 2 NKWG); N1-05
/// (most votes) is offered the seat; the offer is sent and served.
fn ni_offered() -> (Council, String, Vec<Effect>) {
    let mut b = body(example("ni-election.json"));
    let e = run(&mut b, "vacancy.reported", example("ni-vacancy.json"), now());
    let case = b.cases.keys().next().expect("case").clone();
    notification_sent(&mut b, &case);
    run(
        &mut b,
        "notification.served",
        json!({"body": NI, "case": case, "candidate": "N1-05", "method": "certificate", "on": "2026-11-30"}),
        now(),
    );
    (b, case.to_string(), e)
}

#[test]
fn ni_offer_and_announcement_texts() {
    let (mut b, case, e) = ni_offered();
    render(&e, "ni-successor-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("gilt die Wahl mit Beginn des nächsten Tages nach Ablauf der Frist als angenommen (§ 40 Abs. 1 Satz 4 NKWG)"), "{offer}");
    assert!(offer.contains("Eine Erklärung unter Vorbehalt gilt als Ablehnung (§ 40 Abs. 1 Satz 5 NKWG)"), "{offer}");
    assert!(
        offer.contains("scheiden Sie als Ersatzperson für die gesamte Wahlperiode aus (§ 45 Abs. 1 Satz 1 NKWG)"),
        "{offer}"
    );
    assert!(offer.contains("Dirk Dierks"), "the passed over candidate is named: {offer}");
    let e = run(
        &mut b,
        "declaration.received",
        json!({"body": NI, "case": case, "candidate": "N1-05", "kind": "accept", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    render(&e, "ni-successor-accepted");
    let text = text_of(&e, "successor");
    assert!(text.contains("Einspruch erhoben werden"), "{text}");
    assert!(text.contains("innerhalb von zwei Wochen nach dieser Bekanntmachung"), "{text}");
    assert!(text.contains("(§ 49a NKWG)"), "{text}");
}

#[test]
fn ni_nkomvg_50_barred_offer_asks_for_the_proof_within_the_week() {
    let mut s = example("ni-election.json");
    s["lists"][0]["candidates"][4]["facts"] =
        json!([{"type": "barred", "on": "2026-11-01", "reason": "Beamtin mit Dienstbezügen der Gemeinde"}]);
    let mut b = body(s);
    let e = run(&mut b, "vacancy.reported", example("ni-vacancy.json"), now());
    render(&e, "ni-barred-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("(Beamtin mit Dienstbezügen der Gemeinde; § 50 Abs. 1 NKomVG)"), "{offer}");
    // § 50 Abs. 3 Satz 1, 2 NKomVG: within the week the declaration that ends the employment, not its end
    assert!(offer.contains("dass Sie die zur Beendigung Ihres mit der Mitgliedschaft unvereinbaren Amtes oder Beschäftigungsverhältnisses erforderliche Erklärung abgegeben haben"), "{offer}");
    assert!(!offer.contains("beendet ist"), "{offer}");
    assert!(offer.contains("gilt die Wahl als abgelehnt (§ 50 Abs. 3 Satz 1 und 2 NKomVG); das gilt auch, wenn Sie die Annahme erklärt oder keine Erklärung abgegeben haben."), "{offer}");
    // the four-month step and the loss of the seat (§ 50 Abs. 3 Satz 3, § 52 Abs. 1 Satz 1 Nr. 7 NKomVG)
    assert!(offer.contains("spätestens vier Monate nach Annahme der Wahl nachzuweisen; wird dieser Nachweis nicht geführt, verlieren Sie mit Ablauf dieser Frist Ihren Sitz (§ 50 Abs. 3 Satz 3, § 52 Abs. 1 Satz 1 Nr. 7 NKomVG)."), "{offer}");
}

#[test]
fn ni_nkwg_44_abs_5_no_ersatzperson_text() {
    // N2-02 refused the election: the voter group's Wahlvorschlag has no Ersatzperson left
    let mut b = body(example("ni-election.json"));
    let v = json!({"body": NI, "member": "N2-01", "reason": "died", "effective_at": "2026-11-28T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    render(&e, "ni-vacancy");
    let text = text_of(&e, "vacancy");
    assert!(text.contains("auf dem Wahlvorschlag „Wählergemeinschaft Musterfeld“ keine Ersatzperson mehr vorhanden ist (§ 44 Abs. 5 NKWG)"), "{text}");
    assert!(text.contains("Der Sitz bleibt bis zum Ende der Wahlperiode unbesetzt."), "{text}");
    assert!(!text.contains("vermindert"), "{text}");
}

#[test]
fn ni_review_texts() {
    let (mut filled, case, _) = ni_offered();
    run(
        &mut filled,
        "declaration.received",
        json!({"body": NI, "case": case, "candidate": "N1-05", "kind": "accept", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    let mut b = filled.clone();
    let e = run(&mut b, "review.decided", review(&case, NI, "confirmed", None, Some("council")), later());
    render(&e, "ni-review-confirmed");
    let text = text_of(&e, "review");
    assert!(text.contains("§ 49a NKWG"), "{text}");
}

// ---------------------------------------------------------------------------------------------------------
// Issue 27: remedies with court and seat, final review decisions, smaller wording, form of address

/// § 58 Abs. 1 VwGO: a Rechtsbehelfsbelehrung names the authority or the court the remedy is lodged with and its
/// seat, and the period — every golden announcement whose Belehrung offers a remedy names a place with its
/// postal code, and none sends the reader to "the Rechtsbehelfsbelehrung of the decision".
#[test]
fn vwgo_58_abs_1_every_belehrung_names_the_court_or_authority_with_its_seat() {
    let dir = format!("{}/docs/texts", env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("docs/texts") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        if !name.contains(".announcement-") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("golden");
        let Some((_, rest)) = text.split_once("Rechtsbehelfsbelehrung\n\n") else { continue };
        let belehrung = rest.split("\n\nAnschrift der").next().unwrap_or(rest);
        assert!(!belehrung.contains("ergibt sich aus der Rechtsbehelfsbelehrung"), "{name}: {belehrung}");
        assert!(!belehrung.contains("nach Maßgabe der Rechtsbehelfsbelehrung"), "{name}: {belehrung}");
        let no_remedy = belehrung.contains("ein Rechtsbehelf ist nicht mehr gegeben")
            || belehrung.contains("vollzieht eine gerichtliche Entscheidung");
        if no_remedy {
            continue;
        }
        let seat = belehrung.as_bytes().windows(6).any(|w| w[..5].iter().all(u8::is_ascii_digit) && w[5] == b' ');
        assert!(seat, "{name}: no seat (postal code and place) in the Belehrung:\n{belehrung}");
        checked += 1;
    }
    assert!(checked > 30, "only {checked} Belehrungen checked");
}

/// Registration refuses a body whose texts would teach a remedy without its venue (§ 58 Abs. 1 VwGO): the
/// message names the field; Thüringen also needs the Rechtsaufsichtsbehörde, which no other Land's text names;
/// Baden-Württemberg teaches no remedy and needs neither.
#[test]
fn vwgo_58_abs_1_registration_names_the_missing_court_or_authority() {
    let refused = |s: Value| {
        let s: Snapshot = serde_json::from_value(s).expect("snapshot");
        match procedure::register(None, s) {
            Err(e) => format!("{e:?}"),
            Ok(_) => String::new(),
        }
    };
    let mut s = example("nrw-election.json");
    s["body"].as_object_mut().expect("body").remove("remedy_court");
    assert!(refused(s).contains("body.remedy_court: required"));
    let mut s = example("he-election.json");
    s["body"]["returning_officer"].as_object_mut().expect("officer").remove("address");
    assert!(refused(s).contains("body.returning_officer.address: required"));
    let mut s = example("th-election.json");
    s["body"].as_object_mut().expect("body").remove("supervisory_authority");
    assert!(refused(s).contains("body.supervisory_authority: required in Thüringen"));
    let mut s = example("sh-election.json");
    s["body"]["supervisory_authority"] =
        json!({"name": "Kreis Musterkreis", "address": "Kreisplatz 1, 24990 Musterwik"});
    assert!(refused(s).contains("body.supervisory_authority: no text of this Land"));
    let mut s = example("bw-election.json");
    s["body"]["returning_officer"].as_object_mut().expect("officer").remove("address");
    assert_eq!(refused(s), "", "Baden-Württemberg announces nothing and teaches no remedy");
}

/// Hessen § 34 Abs. 5 KWG: a review decision final on 19 Jan 2027 — the notice and the successor's letter name the
/// same day, the membership begins that day, and the letter offers no Einspruch the notice says is gone.
#[test]
fn he_34_abs_5_review_final_the_letter_and_the_notice_agree() {
    let mut b = body(example("he-election.json"));
    run(&mut b, "vacancy.reported", example("he-vacancy.json"), now());
    let case = b.cases.keys().next().expect("case").clone();
    let e = run(
        &mut b,
        "review.decided",
        review(&case, "beispielstadt-stvv", "amended", Some("W1-06"), Some("council")),
        later(),
    );
    let (mail, notice) = (text_of(&e, "mail"), text_of(&e, "review"));
    assert!(notice.contains("Die Entscheidung ist seit dem 19.01.2027 rechtskräftig"), "{notice}");
    assert!(notice.contains("Die Mitgliedschaft besteht seit dem 19.01.2027."), "{notice}");
    assert!(
        notice.contains("scheidet mit dem Eintritt der Rechtskraft am 19.01.2027 aus der Vertretung aus"),
        "{notice}"
    );
    assert!(mail.contains("Die Vertretung hat am 18.12.2026 im Wahlprüfungsverfahren beschlossen"), "{mail}");
    assert!(mail.contains("Die Entscheidung ist seit dem 19.01.2027 rechtskräftig"), "{mail}");
    assert!(mail.contains("Sie sind Mitglied der Vertretung seit dem 19.01.2027"), "{mail}");
    assert!(!mail.contains("Einspruch erheben") && !mail.contains("habe ich am"), "{mail}");
}

/// Rheinland-Pfalz: once the Widerspruchsbescheid is unanfechtbar the named Ersatzperson is asked to declare
/// within a week — the offer says which decision called her and since when it is final, as the notice does
/// (issue 27: the offer must not go out while the notice says nothing changes yet).
#[test]
fn rp_review_final_the_offer_follows_the_unanfechtbar_decision() {
    let (mut filled, case, _) = rp_offered();
    run(
        &mut filled,
        "declaration.received",
        json!({"body": RP, "case": case, "candidate": "R1-04", "kind": "accept", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    let mut b = filled.clone();
    let open = not_final(review(&case, RP, "amended", Some("R1-05"), Some("Wahlleitung")));
    let e = run(&mut b, "review.decided", open, later());
    assert!(e.iter().all(|e| !matches!(e, Effect::Mail(_))), "no offer while the decision is not final");
    let e = run(&mut b, "review.decided", review(&case, RP, "amended", Some("R1-05"), Some("Wahlleitung")), later());
    render(&e, "rp-review-amended-final");
    let (mail, notice) = (text_of(&e, "mail"), text_of(&e, "review"));
    assert!(notice.contains("Die Entscheidung ist seit dem 19.01.2027 unanfechtbar"), "{notice}");
    assert!(notice.contains("endet mit dem Eintritt der Unanfechtbarkeit am 19.01.2027"), "{notice}");
    assert!(mail.contains("Im Widerspruchsverfahren gegen meine frühere Feststellung ist am 18.12.2026 entschieden worden; die Entscheidung ist seit dem 19.01.2027 unanfechtbar"), "{mail}");
}

/// § 41 Abs. 1 KWahlG NRW: the Klage runs from the Bekanntgabe — the correction notices too (not "nach Zustellung").
#[test]
fn nrw_41_abs_1_correction_notices_say_bekanntgabe() {
    for file in
        ["nrw-correction-accepted.announcement-correction.txt", "nrw-correction-refused.announcement-correction.txt"]
    {
        let text =
            std::fs::read_to_string(format!("{}/docs/texts/{file}", env!("CARGO_MANIFEST_DIR"))).expect("golden");
        assert!(text.contains("binnen eines Monats nach ihrer Bekanntgabe Klage vor dem Verwaltungsgericht"), "{text}");
        assert!(!text.contains("nach Zustellung Klage"), "{text}");
    }
}

/// Hessen § 34 Abs. 5 KWG in a vacancy notice: nobody succeeded, so nobody "behält den Sitz" — the seat stays empty.
#[test]
fn he_34_abs_5_vacancy_notice_says_the_seat_stays_empty() {
    let text = std::fs::read_to_string(format!(
        "{}/docs/texts/he-vacancy.announcement-vacancy.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("golden");
    assert!(text.contains("bleibt der Sitz leer (§ 34 Abs. 5 KWG)"), "{text}");
    assert!(!text.contains("behält"), "{text}");
}

/// A formal letter greets by the form of address („Sehr geehrte Frau Dr. Ehlers,“); without one, by the full name
/// („Guten Tag Vorname Name,“, docs/legal.md "Form of address") — never „Sehr geehrte(r)“; the predecessor and the
/// addressee get their own words where known, both only where not.
#[test]
fn din_5008_anrede_and_gendered_words_follow_the_form_of_address() {
    let (_, _, e) = ni_offered();
    let offer = text_of(&e, "mail");
    assert!(offer.starts_with("Sehr geehrte Frau Dr. Ehlers,"), "{offer}");
    assert!(offer.contains("Ausscheiden Ihres Vorgängers"), "{offer}");
    let mut b = body(example("st-election.json"));
    let offer = text_of(&run(&mut b, "vacancy.reported", example("st-vacancy.json"), now()), "mail");
    assert!(offer.starts_with("Guten Tag "), "{offer}");
    assert!(offer.contains("Ihrer Vorgängerin oder Ihres Vorgängers"), "{offer}");
    assert!(!offer.contains("geehrte(r)") && !offer.contains("geehrte*r"), "{offer}");
}

#[path = "texts/st.rs"]
mod st;

#[path = "texts/th.rs"]
mod th;

/// Baden-Württemberg (§ 31 Abs. 2 GemO): tests/texts/bw.rs.
#[path = "texts/bw.rs"]
mod bw;
#[path = "texts/by.rs"]
mod by;
#[path = "texts/sh.rs"]
mod sh;

/// Sachsen (§ 34 Abs. 2 SächsGemO): tests/texts/sn.rs.
#[path = "texts/sn.rs"]
mod sn;

/// Mecklenburg-Vorpommern (§§ 34, 46 LKWG M-V): tests/texts/mv.rs.
#[path = "texts/mv.rs"]
mod mv;

/// Brandenburg (§§ 51, 60 BbgKWahlG): tests/texts/bb.rs.
#[path = "texts/bb.rs"]
mod bb;

/// Saarland (§ 57 KWO, §§ 43, 50 KWG; § 44 KWG not read): tests/texts/sl.rs.
#[path = "texts/sl.rs"]
mod sl;

// Kreistage — body.kind (tests/texts/kreistag.rs)
#[path = "texts/kreistag.rs"]
mod kreistag;

// The period notice after service (Fristmitteilung), every Land with a period
#[path = "texts/period_notice.rs"]
mod period_notice;

// what the successor is told on silence, a missing proof, a reservation: the procedure's own decision (issue 27)
#[path = "texts/consequences.rs"]
mod consequences;
