//! Confirming a prepared determination at the console (`determination.confirmed`, the `confirm` mode: the
//! case waits with `succession.proposed`). Bayern: the council decides on the Nachrücken (Art. 48 Abs. 3
//! Satz 2 GLKrWG).

use serde_json::json;

use crate::flow::{audit, confirm, local_now, preview, refused_to_viewer, signed_in};
use crate::register;
use crate::support::app::{example, App};

const BODY: &str = "musterberg-gemeinderat";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wahlleiter_confirms_the_proposed_successor_and_a_stale_round_is_filed_without_effect() {
    let app = App::spawn().await;
    register(&app, example("by-election.json")).await;
    app.send(
        "vacancy.reported",
        json!({"body": BODY, "member": "B1-02", "reason": "resigned", "effective_at": "2026-11-02T10:00:00+01:00"}),
    )
    .await;
    let proposed = app.wait_event("succession.proposed", |_| true).await;
    let case = proposed["data"]["case"].as_str().expect("case").to_owned();
    // the confirmation is dated after the proposal
    app.advance(chrono::Duration::minutes(2));
    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    let page = browser.get(&format!("/raete/{BODY}/faelle/{case}")).await;
    assert!(page.body.contains("Vorgeschlagene Nachfolge feststellen"), "{}", page.body);
    assert!(!page.body.contains("Zustellung der Benachrichtigung erfassen"), "{}", page.body);

    let path = format!("/raete/{BODY}/faelle/{case}/feststellung");
    let form = browser.get(&path).await;
    assert!(form.body.contains("Vorgeschlagen ist in Runde 1: <strong>Dominik Dorn</strong>"), "{}", form.body);
    let at = local_now(&app);
    let by = "Gemeinderat Musterberg, Beschluss Nr. 12";

    // a confirmation of another round is filed without effect, and the preview says why
    let stale = [("round", "2"), ("confirmed_by", by), ("confirmed_at", at.as_str())];
    let shown = preview(&mut browser, &path, &stale).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(shown.body.contains("nicht angewandt: der Vorschlag ist nicht mehr aktuell"), "{}", shown.body);

    let fields = [("round", "1"), ("confirmed_by", by), ("confirmed_at", at.as_str())];
    let shown = preview(&mut browser, &path, &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(shown.body.contains("Nachfolge festgestellt: Dominik Dorn."), "{}", shown.body);
    assert!(shown.body.contains("Die Frist für Dominik Dorn beginnt erst mit der Zustellung"), "{}", shown.body);
    assert!(audit(&app, BODY, "determination.confirmed").await.is_empty(), "the preview wrote nothing");

    let done = confirm(&mut browser, &path, &shown).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<strong>Erfasst:</strong>"), "{}", done.body);
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(
        (det["data"]["successor"]["id"].as_str(), det["data"]["confirmed_by"].as_str()),
        (Some("B1-04"), Some(by))
    );
    assert_eq!(det["recordedby"], "wahlleitung", "{det}");
    let entries = audit(&app, BODY, "determination.confirmed").await;
    assert_eq!((entries.len(), entries[0]["recorded_by"].as_str()), (1, Some("wahlleitung")), "{entries:?}");

    // determined: nothing left to confirm; the same form again is a duplicate
    assert_eq!(browser.get(&path).await.status, 404);
    let again = confirm(&mut browser, &path, &shown).await;
    assert!(again.body.contains("Bereits erfasst:"), "{}", again.body);
    refused_to_viewer(&app, BODY, &path, &fields).await;
    assert_eq!(audit(&app, BODY, "determination.confirmed").await.len(), 1);
}

/// Baden-Württemberg (§ 31 Abs. 2 Satz 2 GemO): the council confirms the move of the holder of a weiterer Sitz into
/// her Wohnbezirk's seat; the case page links the case that fills the weiterer Sitz she gave up, and that case's page
/// says how the seat fell free and links back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_case_of_a_move_links_the_case_of_the_weiterer_sitz_it_frees() {
    const TOW: &str = "teilhausen-gemeinderat";
    let app = App::spawn().await;
    register(&app, example("bw-teilortswahl-election.json")).await;
    app.send("vacancy.reported", example("bw-teilortswahl-vacancy.json")).await;
    let proposed = app.wait_event("succession.proposed", |_| true).await;
    assert_eq!(proposed["data"]["successor"]["id"], "T1-04");
    app.advance(chrono::Duration::minutes(2));
    let confirmed_at = nachfolge::calendar::berlin(app.now()).to_rfc3339();
    let resolution = json!({"body": TOW, "case": "teilhausen-gemeinderat-1", "round": 1,
        "confirmed_by": "Gemeinderat Teilhausen, Beschluss Nr. 3", "confirmed_at": confirmed_at});
    app.send("determination.confirmed", resolution).await;
    let next = app.wait_event("succession.proposed", |e| e["data"]["case"] == "teilhausen-gemeinderat-2").await;
    assert_eq!(next["data"]["successor"]["id"], "T1-06");

    let mut browser = signed_in(&app, TOW, "wahlleitung", "wahlleiter").await;
    let first = browser.get(&format!("/raete/{TOW}/faelle/teilhausen-gemeinderat-1")).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert!(first.body.contains("in den Sitz des Wohnbezirks nachgerückt (§ 31 Abs. 2 Satz 2 GemO)"), "{}", first.body);
    assert!(
        first.body.contains("<a href=\"/raete/teilhausen-gemeinderat/faelle/teilhausen-gemeinderat-2\">"),
        "{}",
        first.body
    );
    let second = browser.get(&format!("/raete/{TOW}/faelle/teilhausen-gemeinderat-2")).await;
    assert_eq!(second.status, 200, "{}", second.body);
    assert!(second.body.contains("Weiterer Sitz frei geworden durch Nachrücken von"), "{}", second.body);
    assert!(second.body.contains("Nachrücken aus einem weiteren Sitz in den Sitz des Wohnbezirks"), "{}", second.body);
    assert!(
        second.body.contains("<a href=\"/raete/teilhausen-gemeinderat/faelle/teilhausen-gemeinderat-1\">"),
        "{}",
        second.body
    );
    assert!(second.body.contains("Vorgeschlagene Nachfolge feststellen"), "{}", second.body);
}

/// § 25 Abs. 2 Satz 2 LKrO: in a Kreistag the same pages speak of the Ausgleichssitz and the Wahlkreis.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_case_of_a_kreistag_move_speaks_of_the_ausgleichssitz_and_the_wahlkreis() {
    const ALB: &str = "albkreis-kreistag";
    let app = App::spawn().await;
    register(&app, example("bw-kreistag-ausgleich-election.json")).await;
    app.send("vacancy.reported", example("bw-kreistag-ausgleich-vacancy.json")).await;
    let proposed = app.wait_event("succession.proposed", |_| true).await;
    assert_eq!(proposed["data"]["successor"]["id"], "FW-II-02");
    app.advance(chrono::Duration::minutes(2));
    let confirmed_at = nachfolge::calendar::berlin(app.now()).to_rfc3339();
    let resolution = json!({"body": ALB, "case": "albkreis-kreistag-1", "round": 1,
        "confirmed_by": "Kreistag Albkreis, Beschluss Nr. 7", "confirmed_at": confirmed_at});
    app.send("determination.confirmed", resolution).await;
    let next = app.wait_event("succession.proposed", |e| e["data"]["case"] == "albkreis-kreistag-2").await;
    assert_eq!(next["data"]["successor"]["id"], "FW-II-03");

    let mut browser = signed_in(&app, ALB, "wahlleitung", "wahlleiter").await;
    let first = browser.get(&format!("/raete/{ALB}/faelle/albkreis-kreistag-1")).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert!(first.body.contains("in den Sitz des Wahlkreises nachgerückt (§ 25 Abs. 2 Satz 2 LKrO)"), "{}", first.body);
    let second = browser.get(&format!("/raete/{ALB}/faelle/albkreis-kreistag-2")).await;
    assert_eq!(second.status, 200, "{}", second.body);
    assert!(second.body.contains("Ausgleichssitz frei geworden durch Nachrücken von"), "{}", second.body);
    assert!(second.body.contains("Nachrücken aus einem Ausgleichssitz in den Sitz des Wahlkreises"), "{}", second.body);
    assert!(!second.body.contains("Wohnbezirk") && !second.body.contains("weiteren Sitz"), "{}", second.body);
}
