//! Recording the proof that a bar ended (`bar.cured`) at the console. Hessen: a barred successor is a
//! member without voting right until he proves, within a week of service, that the bar ended (§ 34 Abs. 3
//! Satz 2 i. V. m. § 23 Abs. 2 KWG; docs/legal.md).

use serde_json::{json, Value};

use crate::flow::{audit, confirm, local_now, preview, refused_to_viewer, signed_in};
use crate::register;
use crate::support::app::{example, App};

const BODY: &str = "beispielstadt-stvv";

/// The Hessen example with e-mail addresses; Mia Maurer (W1-05) is barred (an official of the town).
fn hessen_barred() -> Value {
    let mut s = example("he-election.json");
    for c in s["lists"][0]["candidates"].as_array_mut().into_iter().flatten() {
        let id = c["id"].as_str().unwrap_or_default().to_lowercase();
        c["email"] = json!(format!("{id}@example.org"));
    }
    s["lists"][0]["candidates"][4]["facts"] =
        json!([{"type": "barred", "on": "2026-01-01", "reason": "Beamtin der Stadt"}]);
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wahlleiter_records_the_proof_and_the_barred_member_gets_full_rights() {
    let app = App::spawn().await;
    register(&app, hessen_barred()).await;
    app.send(
        "vacancy.reported",
        json!({"body": BODY, "member": "W1-02", "reason": "resigned", "effective_at": "2026-10-15T00:00:00+02:00"}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!((det["data"]["successor"]["id"].as_str(), det["data"]["barred"].as_bool()), (Some("W1-05"), Some(true)));
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.wait_event("successor.notified", |_| true).await;
    let today = nachfolge::deadline::local_date(app.now()).to_string();
    app.send(
        "notification.served",
        json!({"body": BODY, "case": case, "candidate": "W1-05", "method": "acknowledgement", "on": today}),
    )
    .await;
    app.wait_event("deadline.set", |_| true).await;
    app.advance(chrono::Duration::minutes(2));

    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    let page = browser.get(&format!("/raete/{BODY}/faelle/{case}")).await;
    assert!(page.body.contains("Nachweis der Beseitigung des Hinderungsgrundes erfassen"), "{}", page.body);
    // Hessen has no acceptance step (§ 34 KWG: a member with the determination): no declaration is offered, and
    // its form is not found (the core's procedure says so, not the console)
    assert!(!page.body.contains("Erklärung (Annahme oder Ablehnung) erfassen"), "{}", page.body);
    assert_eq!(browser.get(&format!("/raete/{BODY}/faelle/{case}/erklaerung")).await.status, 404);
    let path = format!("/raete/{BODY}/faelle/{case}/nachweis");
    let form = browser.get(&path).await;
    assert!(form.body.contains("value=\"W1-05\""), "the successor prefilled: {}", form.body);
    assert!(form.body.contains("§ 34 Abs. 3 Satz 2 KWG i. V. m. § 23 Abs. 2 KWG"), "{}", form.body);

    // a proof dated tomorrow: the core refuses it, in German
    let tomorrow =
        nachfolge::calendar::berlin(app.now() + chrono::Duration::days(1)).format("%Y-%m-%dT%H:%M").to_string();
    let shown = preview(&mut browser, &path, &[("candidate", "W1-05"), ("proven_at", tomorrow.as_str())]).await;
    assert_eq!(shown.status, 422, "{}", shown.body);
    assert!(shown.body.contains("Der angegebene Tag liegt in der Zukunft."), "{}", shown.body);

    let at = local_now(&app);
    let fields = [("candidate", "W1-05"), ("proven_at", at.as_str())];
    let shown = preview(&mut browser, &path, &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(
        shown.body.contains("Der Nachweis von Mia Maurer über die Beseitigung des Hinderungsgrundes wird erfasst."),
        "{}",
        shown.body
    );
    assert!(shown.body.contains("Mia Maurer hat ab "), "{}", shown.body);
    assert!(audit(&app, BODY, "bar.cured").await.is_empty(), "the preview wrote nothing");

    let done = confirm(&mut browser, &path, &shown).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<strong>Erfasst:</strong>"), "{}", done.body);
    let upd = app.wait_event("membership.changed", |e| e["data"]["change"] == "updated").await;
    assert_eq!((upd["data"]["basis"].as_str(), upd["data"]["voting_right"].as_bool()), (Some("bar_cured"), Some(true)));
    assert_eq!(upd["recordedby"], "wahlleitung", "{upd}");
    let entries = audit(&app, BODY, "bar.cured").await;
    assert_eq!((entries.len(), entries[0]["recorded_by"].as_str()), (1, Some("wahlleitung")), "{entries:?}");

    // proven: the action no longer applies
    let page = browser.get(&format!("/raete/{BODY}/faelle/{case}")).await;
    assert!(!page.body.contains("Nachweis der Beseitigung des Hinderungsgrundes erfassen"), "{}", page.body);
    assert_eq!(browser.get(&path).await.status, 404);
    refused_to_viewer(&app, BODY, &path, &fields).await;
}
