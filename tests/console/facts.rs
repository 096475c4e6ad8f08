//! The candidate fact action: a fact (`candidate.fact_recorded`) recorded at the console goes through the
//! store's batch path; the preview names what the core would do with it (docs/console.md, "Actions").

use serde_json::json;

use crate::support::app::App;
use crate::{add_user, client, nrw, register, PASSWORD};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wahlleiter_records_that_the_pending_successor_left_the_party_and_the_next_one_is_named() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    app.send(
        "vacancy.reported",
        json!({"body": "musterstadt-rat", "member": "L1-01", "reason": "died", "effective_at": "2026-05-04T10:00:00+02:00"}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    app.wait_event("successor.notified", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    assert_eq!(det["data"]["successor"]["id"], "L1-06", "{det}");

    add_user(&app, "wahlleitung", "wahlleiter", &["musterstadt-rat"]).await;
    add_user(&app, "zuschauer", "viewer", &["musterstadt-rat"]).await;
    let mut browser = client(&app);
    assert_eq!(browser.sign_in("wahlleitung", PASSWORD).await.status, 303);
    let page = browser.get(&format!("/raete/musterstadt-rat/faelle/{case}")).await;
    assert!(page.body.contains("Tatsache zu einer Person erfassen"), "{}", page.body);

    let path = format!("/raete/musterstadt-rat/faelle/{case}/tatsache");
    let form = browser.get(&path).await;
    assert_eq!(form.status, 200, "{}", form.body);
    let csrf = form.csrf().expect("the form has a token");
    let today = nachfolge::deadline::local_date(app.now()).to_string();
    let fields = [("candidate", "L1-06"), ("fact", "left_party"), ("on", today.as_str()), ("csrf", csrf.as_str())];
    let shown = browser.post(&format!("{path}/vorschau"), &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(shown.body.contains("Noch ist nichts erfasst"), "{}", shown.body);
    assert!(shown.body.contains("Austritt aus der Partei oder Wählergruppe"), "{}", shown.body);
    let at = shown.body.find("name=\"message_id\" value=\"").expect("a confirm form") + 25;
    let message_id = shown.body[at..at + 36].to_owned();

    // a viewer of the council may not see the action at all
    let mut viewer = client(&app);
    assert_eq!(viewer.sign_in("zuschauer", PASSWORD).await.status, 303);
    assert_eq!(viewer.get(&path).await.status, 404);
    let token = viewer.get("/raete/musterstadt-rat").await.csrf().expect("a token");
    let refused = viewer.post(&format!("{path}/vorschau"), &[("candidate", "L1-06"), ("csrf", token.as_str())]).await;
    assert_eq!(refused.status, 404, "{}", refused.body);

    let mut confirm: Vec<(&str, &str)> = fields.to_vec();
    confirm.push(("message_id", message_id.as_str()));
    let done = browser.post(&path, &confirm).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<strong>Erfasst:</strong>"), "{}", done.body);
    let next = app.wait_event("succession.determined", |e| e["data"]["successor"]["id"] != "L1-06").await;
    assert_eq!(next["recordedby"], "wahlleitung", "{next}");
    let name = next["data"]["successor"]["name"].as_str().expect("name").to_owned();
    // the preview named the consequence the core then drew, and so does the result
    assert!(shown.body.contains(&format!("Nachfolge festgestellt: {name}.")), "{name}: {}", shown.body);
    assert!(done.body.contains(&format!("Nachfolge festgestellt: {name}.")), "{}", done.body);
    assert!(done.body.contains(&format!("Nachfolge: {name}")), "{}", done.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fact_is_recorded_from_the_nachrueckerliste_and_the_list_then_passes_the_person_over() {
    use crate::flow::{audit, confirm, preview, signed_in};
    let app = App::spawn().await;
    register(&app, nrw()).await;
    let mut browser = signed_in(&app, "musterstadt-rat", "wahlleitung", "wahlleiter").await;
    let page = browser.get("/raete/musterstadt-rat").await;
    // per candidate of the Nachrückerliste a link, named for the person
    assert!(page.body.contains("tatsache?person=L1-06"), "{}", page.body);
    assert!(page.body.contains("Tatsache erfassen<span class=\"unsichtbar\"> zu Felix Fuchs</span>"), "{}", page.body);

    let path = "/raete/musterstadt-rat/tatsache";
    let form = browser.get(&format!("{path}?person=L1-06")).await;
    assert_eq!(form.status, 200, "{}", form.body);
    // the person by name, selected (issue 26, point 11: no id to type)
    assert!(form.body.contains("<option value=\"L1-06\" selected>Felix Fuchs ("), "{}", form.body);
    // a person the council does not know is not prefilled
    assert!(!browser.get(&format!("{path}?person=X9-99")).await.body.contains(" selected>"));

    let today = nachfolge::deadline::local_date(app.now()).to_string();
    let fields = [("candidate", "L1-06"), ("fact", "left_party"), ("on", today.as_str())];
    let shown = preview(&mut browser, path, &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(shown.body.contains("Austritt aus der Partei oder Wählergruppe"), "{}", shown.body);
    assert!(audit(&app, "musterstadt-rat", "candidate.fact_recorded").await.is_empty(), "the preview wrote nothing");
    let done = confirm(&mut browser, path, &shown).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<strong>Erfasst:</strong>"), "{}", done.body);
    assert!(done.body.contains("Zurück zur Vertretung"), "{}", done.body);
    let entries = audit(&app, "musterstadt-rat", "candidate.fact_recorded").await;
    assert_eq!((entries.len(), entries[0]["recorded_by"].as_str()), (1, Some("wahlleitung")), "{entries:?}");
    let order: serde_json::Value =
        serde_json::from_str(&browser.get("/bodies/musterstadt-rat/succession-order").await.body).expect("json");
    let passed = order["lists"][0]["passed_over"].as_array().expect("passed over");
    assert!(passed.iter().any(|p| p["candidate"] == "L1-06"), "{order}");
}

/// The fact form offers exactly the facts the council's Land knows (`Fact::allowed_in`): in
/// Mecklenburg-Vorpommern the party's notice (§ 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V), membership of a banned party
/// (§ 47 Abs. 1 LKWG M-V) and the proofs not supplied (§ 46 Abs. 2 Satz 5 LKWG M-V), not Niedersachsen's
/// Direktwahl office (§ 45 Abs. 4 NKWG); in NRW none of these. A recorded membership of the banned party passes
/// the Ersatzperson over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mv_47_abs_1_lkwg_the_fact_form_offers_the_facts_of_the_council_s_land_and_records_a_banned_party_member() {
    use crate::flow::{audit, confirm, preview, signed_in};
    let app = App::spawn().await;
    register(&app, nrw()).await;
    register(&app, crate::support::app::example("mv-election.json")).await;
    let body = "musterhagen-stadtvertretung";
    let mut browser = signed_in(&app, body, "wahlleitung", "wahlleiter").await;
    let form = browser.get(&format!("/raete/{body}/tatsache")).await;
    assert_eq!(form.status, 200, "{}", form.body);
    for code in ["party_notice", "banned_party_member", "status_lost_proofs", "left_party", "barred"] {
        assert!(form.body.contains(&format!("<option value=\"{code}\"")), "{code}: {}", form.body);
    }
    assert!(!form.body.contains("<option value=\"status_lost_office\""), "{}", form.body);

    let mut nrw_browser = signed_in(&app, "musterstadt-rat", "wl-nrw", "wahlleiter").await;
    let nrw_form = nrw_browser.get("/raete/musterstadt-rat/tatsache").await;
    assert_eq!(nrw_form.status, 200, "{}", nrw_form.body);
    for code in ["party_notice", "banned_party_member", "status_lost_proofs", "status_lost_office"] {
        assert!(!nrw_form.body.contains(&format!("<option value=\"{code}\"")), "{code}: {}", nrw_form.body);
    }

    let path = format!("/raete/{body}/tatsache");
    let today = nachfolge::deadline::local_date(app.now()).to_string();
    let fields = [("candidate", "M1-06"), ("fact", "banned_party_member"), ("on", today.as_str())];
    let shown = preview(&mut browser, &path, &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(shown.body.contains("Zugehörigkeit zur verbotenen Partei oder Vereinigung"), "{}", shown.body);
    let done = confirm(&mut browser, &path, &shown).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<strong>Erfasst:</strong>"), "{}", done.body);
    let entries = audit(&app, body, "candidate.fact_recorded").await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    let order: serde_json::Value =
        serde_json::from_str(&browser.get(&format!("/bodies/{body}/succession-order")).await.body).expect("json");
    let passed = order["lists"][0]["passed_over"].as_array().expect("passed over");
    assert!(passed.iter().any(|p| p["candidate"] == "M1-06" && p["reason"] == "banned_party_member"), "{order}");
}
