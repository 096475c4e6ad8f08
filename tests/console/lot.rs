//! Entering a lot result at the console (`lot.drawn`) for a case waiting for the lot (`lot.requested`,
//! Hessen majority election, § 34 Abs. 1a KWG): the tied candidates as a radio group.

use serde_json::{json, Value};

use crate::flow::{audit, confirm, local_now, metrics, preview, refused_to_viewer, signed_in};
use crate::register;
use crate::support::app::{example, App};

const BODY: &str = "beispielstadt-stvv";

/// The Hessen example as a majority election in which W1-05 and W1-06 tie (990 votes each).
fn majority_with_a_tie() -> Value {
    let mut s = example("he-election.json");
    s["body"]["electoral_system"] = json!("majority");
    for c in s["lists"][0]["candidates"].as_array_mut().into_iter().flatten() {
        let id = c["id"].as_str().unwrap_or_default().to_lowercase();
        c["email"] = json!(format!("{id}@example.org"));
    }
    s["lists"][0]["candidates"][4]["facts"] = json!([]);
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wahlleiter_enters_the_lot_and_the_drawn_candidate_is_determined() {
    let app = App::spawn().await;
    register(&app, majority_with_a_tie()).await;
    app.send(
        "vacancy.reported",
        json!({"body": BODY, "member": "W1-02", "reason": "resigned", "effective_at": "2026-10-15T00:00:00+02:00"}),
    )
    .await;
    let lot = app.wait_event("lot.requested", |_| true).await;
    let case = lot["data"]["case"].as_str().expect("case").to_owned();
    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    let page = browser.get(&format!("/raete/{BODY}/faelle/{case}")).await;
    assert!(page.body.contains("Ergebnis des Losentscheids erfassen"), "{}", page.body);
    assert!(!page.body.contains("Zustellung der Benachrichtigung erfassen"), "no one to serve yet: {}", page.body);

    let path = format!("/raete/{BODY}/faelle/{case}/los");
    let form = browser.get(&path).await;
    assert_eq!(form.status, 200, "{}", form.body);
    assert!(form.body.contains("<legend>Auf wen ist das Los gefallen?</legend>"), "{}", form.body);
    assert!(form.body.contains("value=\"W1-05\""), "{}", form.body);
    assert!(form.body.contains("Nils Neumann <span class=\"kennung\">(W1-06)</span>"), "{}", form.body);
    assert!(form.body.contains("value=\"Jonas Muster\""), "the returning officer prefilled: {}", form.body);

    // someone outside the lot group: the core's refusal, in German, and no confirm form
    let at = local_now(&app);
    let wrong = [("winner", "W1-04"), ("drawn_by", "Jonas Muster, Wahlleiter"), ("drawn_at", at.as_str())];
    let shown = preview(&mut browser, &path, &wrong).await;
    assert_eq!(shown.status, 422, "{}", shown.body);
    assert!(
        shown.body.contains("Die gewählte Person gehört nicht zu den Personen mit Stimmengleichheit."),
        "{}",
        shown.body
    );
    assert!(!shown.body.contains("name=\"message_id\""), "{}", shown.body);

    let fields = [("winner", "W1-06"), ("drawn_by", "Jonas Muster, Wahlleiter"), ("drawn_at", at.as_str())];
    let shown = preview(&mut browser, &path, &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(shown.body.contains("Nachfolge festgestellt: Nils Neumann."), "{}", shown.body);
    assert!(shown.body.contains("Nils Neumann wird Mitglied ab"), "Hessen: with the determination: {}", shown.body);
    // the period the determination opens: the objection period of its announcement (§ 25 Abs. 1 KWG)
    assert!(shown.body.contains("Einspruchsfrist gegen die Bekanntmachung Nr. 1 vom"), "{}", shown.body);
    assert!(shown.body.contains("Grundlage: Feststellung der Nachfolge"), "{}", shown.body);
    assert!(audit(&app, BODY, "lot.drawn").await.is_empty(), "the preview wrote nothing");

    let done = confirm(&mut browser, &path, &shown).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<strong>Erfasst:</strong>"), "{}", done.body);
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "W1-06", "{det}");
    assert_eq!(det["recordedby"], "wahlleitung", "{det}");
    let entries = audit(&app, BODY, "lot.drawn").await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0]["recorded_by"], "wahlleitung");
    assert_eq!(entries[0]["drawn_by"], "Jonas Muster, Wahlleiter");
    let counted = metrics(&app).await;
    assert!(counted.contains("nachfolge_console_actions_total{outcome=\"applied\",type=\"lot.drawn\"} 1"), "{counted}");

    // the lot is drawn: the action no longer applies
    assert_eq!(browser.get(&path).await.status, 404);
    refused_to_viewer(&app, BODY, &path, &fields).await;
    assert_eq!(audit(&app, BODY, "lot.drawn").await.len(), 1);
}
