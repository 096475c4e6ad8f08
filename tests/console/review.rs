//! Recording a review decision at the console (`review.decided`): against a determination (NRW: the
//! Wahlleitung decides, never the council), and for a case the worker referred to the Wahlleitung
//! (`case.review_required`).

use serde_json::{json, Value};

use crate::flow::{audit, confirm, local_now, preview, refused_to_viewer, signed_in};
use crate::support::app::App;
use crate::{nrw, register};

const BODY: &str = "musterstadt-rat";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wahlleiter_amends_a_determination_and_the_named_candidate_succeeds() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    app.send(
        "vacancy.reported",
        json!({"body": BODY, "member": "L1-02", "reason": "resigned", "effective_at": "2026-05-04T10:00:00+02:00"}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "L1-04");
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.wait_event("successor.notified", |_| true).await;
    app.send(
        "declaration.received",
        json!({"body": BODY, "case": case, "candidate": "L1-04", "kind": "accept", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    app.wait_event("announcement.issued", |e| e["data"]["kind"] == "successor").await;
    app.advance(chrono::Duration::minutes(2));

    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    let page = browser.get(&format!("/raete/{BODY}/faelle/{case}")).await;
    // a closed case: only the review is offered
    assert!(
        page.body.contains("Entscheidung über einen Einspruch oder im Wahlprüfungsverfahren erfassen"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("Zustellung der Benachrichtigung erfassen"), "{}", page.body);
    let path = format!("/raete/{BODY}/faelle/{case}/pruefung");
    let form = browser.get(&path).await;
    assert!(form.body.contains("<legend>Ergebnis der Entscheidung</legend>"), "{}", form.body);
    assert!(form.body.contains("<legend>Ist die Entscheidung unanfechtbar (rechtskräftig)?</legend>"), "{}", form.body);
    // NRW: the Wahlleitung decides in place of the council (§ 45 Abs. 6 Satz 8 KWahlG NRW)
    assert!(!form.body.contains("value=\"council\""), "{}", form.body);
    assert!(form.body.contains("<option value=\"L1-05\">Emma Engel"), "{}", form.body);

    let at = local_now(&app);
    let without = [
        ("outcome", "amended"),
        ("decided_by", "officer"),
        ("final", "true"),
        ("final_on", &at[..10]),
        ("decided_at", at.as_str()),
    ];
    let shown = preview(&mut browser, &path, &without).await;
    assert_eq!(shown.status, 422, "{}", shown.body);
    assert!(shown.body.contains("Bitte wählen Sie bei einer Änderung die Person, die nachrückt."), "{}", shown.body);
    let by_council = [
        ("outcome", "confirmed"),
        ("decided_by", "council"),
        ("final", "true"),
        ("final_on", &at[..10]),
        ("decided_at", at.as_str()),
    ];
    let shown = preview(&mut browser, &path, &by_council).await;
    assert_eq!(shown.status, 422, "{}", shown.body);
    assert!(shown.body.contains("entscheidet die Vertretung hier nicht selbst"), "{}", shown.body);

    let fields = [
        ("outcome", "amended"),
        ("successor", "L1-05"),
        ("decided_by", "officer"),
        ("final", "true"),
        ("final_on", &at[..10]),
        ("decided_at", at.as_str()),
    ];
    let shown = preview(&mut browser, &path, &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(shown.body.contains("David Dietrich scheidet aus"), "{}", shown.body);
    assert!(shown.body.contains("Nachfolge festgestellt: Emma Engel."), "{}", shown.body);
    assert!(audit(&app, BODY, "review.decided").await.is_empty(), "the preview wrote nothing");

    let done = confirm(&mut browser, &path, &shown).await;
    assert_eq!(done.status, 200, "{}", done.body);
    let left = app.wait_event("membership.changed", |e| e["data"]["basis"] == "review").await;
    assert_eq!(left["data"]["person"]["id"], "L1-04");
    assert_eq!(left["recordedby"], "wahlleitung", "{left}");
    let det2 = app.wait_event("succession.determined", |e| e["data"]["round"] == 2).await;
    assert_eq!(det2["data"]["successor"]["id"], "L1-05");
    let entries = audit(&app, BODY, "review.decided").await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(
        (entries[0]["recorded_by"].as_str(), entries[0]["decided_by"].as_str()),
        (Some("wahlleitung"), Some("Wahlleitung"))
    );
    assert_eq!(entries[0]["final"], true);
    assert!(done.body.contains("Nachfolge: Emma Engel"), "{}", done.body);
    refused_to_viewer(&app, BODY, &path, &fields).await;
}

/// NRW with Felix Fuchs (L1-06) barred: he accepts but does not prove in time — deemed refusal, round 2.
fn nrw_barred() -> Value {
    let mut s = nrw();
    s["lists"][0]["candidates"][5]["facts"] =
        json!([{"type": "barred", "on": "2026-01-01", "reason": "Beschäftigter der Stadtverwaltung"}]);
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_case_referred_for_review_says_so_until_a_decision_is_recorded() {
    let app = App::spawn().await;
    register(&app, nrw_barred()).await;
    app.send(
        "vacancy.reported",
        json!({"body": BODY, "member": "L1-01", "reason": "resigned", "effective_at": "2026-05-04T10:00:00+02:00"}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.wait_event("successor.notified", |_| true).await;
    let today = nachfolge::deadline::local_date(app.now()).to_string();
    app.send(
        "notification.served",
        json!({"body": BODY, "case": case, "candidate": "L1-06", "method": "certificate", "on": today}),
    )
    .await;
    let dl = app.wait_event("deadline.set", |_| true).await;
    app.send(
        "declaration.received",
        json!({"body": BODY, "case": case, "candidate": "L1-06", "kind": "accept", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    app.wait_event("declaration.recorded", |e| e["data"]["kind"] == "accept").await;
    let proven_at = app.now().to_rfc3339();
    app.pass_period(&dl);
    app.wait_event("succession.determined", |e| e["data"]["round"] == 2).await;
    // the proof had reached the office in time, but is entered only now: the worker refers the case
    app.send("bar.cured", json!({"body": BODY, "case": case, "candidate": "L1-06", "proven_at": proven_at})).await;
    app.wait_event("case.review_required", |_| true).await;

    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    let case_page = format!("/raete/{BODY}/faelle/{case}");
    let page = browser.get(&case_page).await;
    assert!(page.body.contains("<strong>Prüfung erforderlich:</strong>"), "{}", page.body);
    assert!(
        page.body.contains("Entscheidung über einen Einspruch oder im Wahlprüfungsverfahren erfassen"),
        "{}",
        page.body
    );

    // a viewer reads that the case waits for a decision, and is offered nothing
    let mut viewer = signed_in(&app, BODY, "zuschauer", "viewer").await;
    let seen = viewer.get(&case_page).await;
    assert!(seen.body.contains("<strong>Prüfung erforderlich:</strong>"), "{}", seen.body);
    assert!(!seen.body.contains("Wahlprüfungsverfahren erfassen"), "{}", seen.body);

    let path = format!("{case_page}/pruefung");
    let at = local_now(&app);
    let fields = [
        ("outcome", "confirmed"),
        ("decided_by", "officer"),
        ("final", "true"),
        ("final_on", &at[..10]),
        ("decided_at", at.as_str()),
    ];
    let shown = preview(&mut browser, &path, &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(audit(&app, BODY, "review.decided").await.is_empty(), "the preview wrote nothing");
    let done = confirm(&mut browser, &path, &shown).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<strong>Erfasst:</strong>"), "{}", done.body);
    let ann = app.wait_event("announcement.issued", |e| e["data"]["kind"] == "review").await;
    assert_eq!(ann["recordedby"], "wahlleitung", "{ann}");
    assert_eq!(audit(&app, BODY, "review.decided").await[0]["recorded_by"], "wahlleitung");
    let page = browser.get(&case_page).await;
    assert!(!page.body.contains("Prüfung erforderlich:"), "decided: {}", page.body);
}
