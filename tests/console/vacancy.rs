//! Reporting a vacancy at the console (`vacancy.reported`): from the council page, since there is no case
//! yet; the preview names whom the core would determine and says when his period starts.

use serde_json::json;

use crate::flow::{audit, confirm, metrics, preview, refused_to_viewer, signed_in};
use crate::support::app::App;
use crate::{nrw, register};

const BODY: &str = "musterstadt-rat";
const PATH: &str = "/raete/musterstadt-rat/ausscheiden";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wahlleiter_reports_a_vacancy_and_the_preview_names_the_successor_the_core_then_determines() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    let page = browser.get("/raete/musterstadt-rat").await;
    assert!(page.body.contains("Ausscheiden eines Mitglieds melden"), "{}", page.body);

    let form = browser.get(PATH).await;
    assert_eq!(form.status, 200, "{}", form.body);
    // the members who hold a seat, no one else; the party-ban question as a group with its legend (NRW)
    assert!(form.body.contains("<option value=\"L1-01\">Anna Albers"), "{}", form.body);
    assert!(!form.body.contains("<option value=\"L1-05\""), "{}", form.body);
    assert!(form.body.contains("<legend>Nur bei einem Verbot"), "{}", form.body);
    assert!(form.body.contains("<label for=\"effective_at\">"), "{}", form.body);

    let fields = [("member", "L1-01"), ("departure", "died"), ("effective_at", "2026-05-04T10:00")];
    let shown = preview(&mut browser, PATH, &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(shown.body.contains("Noch ist nichts erfasst"), "{}", shown.body);
    assert!(shown.body.contains("Anna Albers scheidet aus, wirksam 04.05.2026, 10:00 Uhr."), "{}", shown.body);
    assert!(shown.body.contains("Nachfolge festgestellt: Felix Fuchs."), "{}", shown.body);
    assert!(shown.body.contains("Die Frist für Felix Fuchs beginnt erst mit der Zustellung"), "{}", shown.body);
    // the preview wrote nothing
    assert!(audit(&app, BODY, "vacancy.reported").await.is_empty());

    let done = confirm(&mut browser, PATH, &shown).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<strong>Erfasst:</strong>"), "{}", done.body);
    let det = app.wait_event("succession.determined", |_| true).await;
    assert_eq!(det["data"]["successor"]["id"], "L1-06", "{det}");
    assert_eq!(det["recordedby"], "wahlleitung", "{det}");
    let case = det["data"]["case"].as_str().expect("case");
    // the result shows the new case and leads to it
    assert!(done.body.contains(&format!("Stand des Falls {case}")), "{}", done.body);
    assert!(done.body.contains("Nachfolge: Felix Fuchs"), "{}", done.body);
    assert!(done.body.contains("Die E-Mail an Felix Fuchs ist zum Versand vorbereitet."), "{}", done.body);
    let entries = audit(&app, BODY, "vacancy.reported").await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(
        (entries[0]["recorded_by"].as_str(), entries[0]["member"].as_str()),
        (Some("wahlleitung"), Some("L1-01"))
    );
    assert_eq!(entries[0]["effective_at"], "2026-05-04T10:00:00+02:00");

    // the same form again: the inbox knows its message id
    let again = confirm(&mut browser, PATH, &shown).await;
    assert!(again.body.contains("Bereits erfasst:"), "{}", again.body);
    assert_eq!(audit(&app, BODY, "vacancy.reported").await.len(), 1);
    let counted = metrics(&app).await;
    for outcome in ["applied", "duplicate"] {
        let line = format!("nachfolge_console_actions_total{{outcome=\"{outcome}\",type=\"vacancy.reported\"}} 1");
        assert!(counted.contains(&line), "{line}: {counted}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacancy_of_someone_without_a_seat_is_refused_in_german_and_a_viewer_cannot_report_one() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    let fields = [("member", "L1-05"), ("departure", "resigned"), ("effective_at", "2026-05-04T10:00")];
    let shown = preview(&mut browser, PATH, &fields).await;
    assert_eq!(shown.status, 422, "{}", shown.body);
    assert!(shown.body.contains("Die Person hat keinen Sitz in der Vertretung."), "{}", shown.body);
    assert!(!shown.body.contains("name=\"message_id\""), "no confirm form: {}", shown.body);
    // a form without the party-ban answer is refused before the core sees it
    let fields = [("member", "L1-01"), ("departure", "party_banned"), ("effective_at", "2026-05-04T10:00")];
    let shown = preview(&mut browser, PATH, &fields).await;
    assert_eq!(shown.status, 422, "{}", shown.body);
    assert!(shown.body.contains("verbotenen Partei oder Vereinigung selbst gewählt"), "{}", shown.body);

    let viewer_page = {
        let mut viewer = signed_in(&app, BODY, "zuschauer", "viewer").await;
        viewer.get("/raete/musterstadt-rat").await
    };
    assert_eq!(viewer_page.status, 200);
    assert!(!viewer_page.body.contains("Ausscheiden eines Mitglieds melden"), "{}", viewer_page.body);
    assert!(!viewer_page.body.contains("Tatsache erfassen"), "{}", viewer_page.body);
    let fields = [("member", "L1-01"), ("departure", "died"), ("effective_at", "2026-05-04T10:00")];
    refused_to_viewer(&app, BODY, PATH, &fields).await;
    assert!(audit(&app, BODY, "vacancy.reported").await.is_empty());
    app.settle().await;
    assert!(app.events.of("succession.determined").is_empty(), "{:?}", json!(app.events.all()));
}

/// A successor without an e-mail address: the console does not claim an e-mail is ready to go, but says the
/// notification goes by letter and where the letter for service is — and the case page offers it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_successor_without_an_email_address_is_notified_by_letter_and_the_console_says_so() {
    let app = App::spawn().await;
    let mut snapshot = nrw();
    for list in snapshot["lists"].as_array_mut().into_iter().flatten() {
        for c in list["candidates"].as_array_mut().into_iter().flatten() {
            if c["id"] == "L1-06" {
                c.as_object_mut().expect("candidate").remove("email");
            }
        }
    }
    register(&app, snapshot).await;
    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    let fields = [("member", "L1-01"), ("departure", "died"), ("effective_at", "2026-05-04T10:00")];
    let shown = preview(&mut browser, PATH, &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    let letter = "Für Felix Fuchs ist keine E-Mail-Adresse bekannt: Die Benachrichtigung geht per Brief.";
    assert!(shown.body.contains(letter), "{}", shown.body);

    let done = confirm(&mut browser, PATH, &shown).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<strong>Erfasst:</strong>"), "{}", done.body);
    assert!(
        done.body
            .contains(&format!("{letter} Das Schreiben zur Zustellung steht im Fall unter „Schriftstücke“ bereit.")),
        "{}",
        done.body
    );
    assert!(!done.body.contains("E-Mail an Felix Fuchs"), "{}", done.body);
    assert!(!done.body.contains("zum Versand vorbereitet"), "{}", done.body);
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case");
    let page = browser.get(&format!("/raete/{BODY}/faelle/{case}")).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains(&format!("/raete/{BODY}/faelle/{case}/schreiben.pdf")), "{}", page.body);
    // the case history does not claim an e-mail either (issue 26, point 11)
    assert!(page.body.contains("Benachrichtigung per Brief vorgesehen (keine E-Mail-Adresse)"), "{}", page.body);
    assert!(!page.body.contains("E-Mail vorbereitet"), "{}", page.body);
}
