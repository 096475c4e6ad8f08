//! The actions: service and a declaration recorded at the console go through the store's batch path (the
//! core's validation, the inbox, the audit log naming the user, the outbox with `recordedby`).

use serde_json::{json, Value};

use crate::support::app::App;
use crate::{add_user, client, nrw, register, Client, PASSWORD};

/// A vacancy in the NRW example: the case of Felix Fuchs (L1-06), notified.
async fn open_case(app: &App) -> String {
    register(app, nrw()).await;
    app.send(
        "vacancy.reported",
        json!({"body": "musterstadt-rat", "member": "L1-01", "reason": "died", "effective_at": "2026-05-04T10:00:00+02:00"}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    app.wait_event("successor.notified", |_| true).await;
    det["data"]["case"].as_str().expect("case").to_owned()
}

async fn signed_in(app: &App, login: &str, role: &str) -> Client {
    add_user(app, login, role, &["musterstadt-rat"]).await;
    let mut browser = client(app);
    assert_eq!(browser.sign_in(login, PASSWORD).await.status, 303);
    browser
}

/// The form's token, the preview with `fields`, then the confirm form's fields (with its message id).
async fn preview(browser: &mut Client, path: &str, fields: &[(&str, &str)]) -> (crate::Answer, Vec<(String, String)>) {
    let form = browser.get(path).await;
    assert_eq!(form.status, 200, "{}", form.body);
    let csrf = form.csrf().expect("the form has a token");
    let mut f: Vec<(&str, &str)> = fields.to_vec();
    f.push(("csrf", csrf.as_str()));
    let answer = browser.post(&format!("{path}/vorschau"), &f).await;
    let mut confirm: Vec<(String, String)> = fields.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    confirm.push(("csrf".into(), csrf.clone()));
    if let Some(at) = answer.body.find("name=\"message_id\" value=\"") {
        let rest = &answer.body[at + "name=\"message_id\" value=\"".len()..];
        confirm.push(("message_id".into(), rest[..rest.find('"').unwrap_or(0)].to_owned()));
    }
    (answer, confirm)
}

async fn confirm(browser: &mut Client, path: &str, fields: &[(String, String)]) -> crate::Answer {
    let f: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    browser.post(path, &f).await
}

async fn audit(app: &App, ty: &str) -> Vec<Value> {
    let rows: Vec<String> = sqlx::query_scalar(
        "SELECT payload::text FROM audit_log WHERE body_id = 'musterstadt-rat' AND kind = 'command' AND type = $1 ORDER BY seq",
    )
    .bind(ty)
    .fetch_all(&app.db().await)
    .await
    .expect("audit log");
    rows.iter().map(|r| serde_json::from_str(r).expect("json")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wahlleiter_records_service_and_sees_the_deadline_and_the_audit_log_names_him() {
    let app = App::spawn().await;
    let case = open_case(&app).await;
    let mut browser = signed_in(&app, "wahlleitung", "wahlleiter").await;
    let page = browser.get(&format!("/raete/musterstadt-rat/faelle/{case}")).await;
    assert!(page.body.contains("Zustellung der Benachrichtigung erfassen"), "{}", page.body);

    let path = format!("/raete/musterstadt-rat/faelle/{case}/zustellung");
    let today = nachfolge::deadline::local_date(app.now()).to_string();
    let fields = [("candidate", "L1-06"), ("method", "certificate"), ("on", today.as_str())];
    let (shown, fields) = preview(&mut browser, &path, &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(shown.body.contains("Noch ist nichts erfasst"), "{}", shown.body);
    assert!(shown.body.contains("Die Frist für Felix Fuchs endet dann mit Ablauf des "), "{}", shown.body);
    // and that the successor is mailed the period (the Fristmitteilung with its calendar entry)
    assert!(
        shown
            .body
            .contains("Felix Fuchs erhält per E-Mail eine Fristmitteilung mit dem Fristende als Kalendereintrag."),
        "{}",
        shown.body
    );
    // the preview changed nothing
    assert!(audit(&app, "notification.served").await.is_empty());

    let done = confirm(&mut browser, &path, &fields).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<strong>Erfasst:</strong>"), "{}", done.body);
    let set = app.wait_event("deadline.set", |_| true).await;
    let last_day: chrono::NaiveDate = serde_json::from_value(set["data"]["last_day"].clone()).expect("last day");
    let german = nachfolge::calendar::german_date(last_day);
    // the preview said what the core then did: the period's last day with the Land's holidays
    assert!(
        shown.body.contains(&format!("endet dann mit Ablauf des {german} (24:00 Uhr)")),
        "{german}: {}",
        shown.body
    );
    assert!(done.body.contains(&format!("endet mit Ablauf des {german}")), "{}", done.body);
    // who did it: in the event's extension attribute and in the command's audit entry
    assert_eq!(set["recordedby"], "wahlleitung", "{set}");
    let entries = audit(&app, "notification.served").await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0]["recorded_by"], "wahlleitung");
    assert_eq!(entries[0]["candidate"], "L1-06");

    // the same form again: the inbox knows its message id, nothing is applied twice
    let again = confirm(&mut browser, &path, &fields).await;
    assert!(again.body.contains("Bereits erfasst:"), "{}", again.body);
    assert_eq!(audit(&app, "notification.served").await.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_recorded_at_the_console_moves_the_case_to_the_next_successor() {
    let app = App::spawn().await;
    let case = open_case(&app).await;
    let today = nachfolge::deadline::local_date(app.now()).to_string();
    app.send(
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-06", "method": "certificate", "on": today}),
    )
    .await;
    app.wait_event("deadline.set", |_| true).await;
    // the refusal reaches the office a day later
    app.advance(chrono::Duration::days(1));
    let mut browser = signed_in(&app, "wahlleitung", "wahlleiter").await;
    let path = format!("/raete/musterstadt-rat/faelle/{case}/erklaerung");
    // the form: the receipt prefilled to the second, and when the notification went out
    let local = |t| nachfolge::calendar::berlin(t).naive_local();
    let before = local(app.now()) - chrono::Duration::seconds(1);
    let form = browser.get(&path).await.body;
    let after = local(app.now());
    let value = form.split("name=\"received_at\" type=\"datetime-local\" step=\"1\" required value=\"").nth(1);
    let value = value.and_then(|v| v.get(..19)).unwrap_or_default();
    let prefilled = chrono::NaiveDateTime::parse_from_str(value, "%Y-%m-%dT%H:%M:%S");
    assert!(prefilled.is_ok_and(|p| before <= p && p <= after), "{value} not now, to the second: {form}");
    assert!(form.contains("Die Benachrichtigung wurde am ") && form.contains(" Uhr abgesandt."), "{form}");
    let at = nachfolge::calendar::berlin(app.now()).format("%Y-%m-%dT%H:%M").to_string();
    let fields = [("candidate", "L1-06"), ("kind", "refuse"), ("received_at", at.as_str())];
    let (shown, fields) = preview(&mut browser, &path, &fields).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(!shown.body.contains("nicht angewandt"), "{}", shown.body);

    let done = confirm(&mut browser, &path, &fields).await;
    assert_eq!(done.status, 200, "{}", done.body);
    let next = app.wait_event("succession.determined", |e| e["data"]["successor"]["id"] != "L1-06").await;
    assert_eq!(next["recordedby"], "wahlleitung", "{next}");
    assert_eq!(next["data"]["round"], 2, "{next}");
    let name = next["data"]["successor"]["name"].as_str().expect("name").to_owned();
    // the preview named the next successor, and the result page shows the case with him
    assert!(shown.body.contains(&format!("Nachfolge festgestellt: {name}.")), "{name}: {}", shown.body);
    assert!(done.body.contains(&format!("Nachfolge festgestellt: {name}.")), "{}", done.body);
    assert!(done.body.contains(&format!("Nachfolge: {name}")), "{}", done.body);
    assert_eq!(audit(&app, "declaration.received").await[0]["recorded_by"], "wahlleitung");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_viewer_cannot_act_and_a_post_without_form_token_is_refused() {
    let app = App::spawn().await;
    let case = open_case(&app).await;
    let today = nachfolge::deadline::local_date(app.now()).to_string();
    let path = format!("/raete/musterstadt-rat/faelle/{case}/zustellung");
    let fields = [("candidate", "L1-06"), ("method", "certificate"), ("on", today.as_str())];

    let mut viewer = signed_in(&app, "leser", "viewer").await;
    let page = viewer.get(&format!("/raete/musterstadt-rat/faelle/{case}")).await;
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("Zustellung der Benachrichtigung erfassen"), "{}", page.body);
    assert_eq!(viewer.get(&path).await.status, 404);
    let csrf = page.csrf().expect("the sign-out form has the session's token");
    let mut f: Vec<(&str, &str)> = fields.to_vec();
    f.push(("csrf", csrf.as_str()));
    f.push(("message_id", "7d9f8a2e-0000-4000-8000-000000000001"));
    assert_eq!(viewer.post(&format!("{path}/vorschau"), &f).await.status, 404);
    assert_eq!(viewer.post(&path, &f).await.status, 404);

    let mut wahlleiter = signed_in(&app, "wahlleitung", "wahlleiter").await;
    let mut f: Vec<(&str, &str)> = fields.to_vec();
    f.push(("message_id", "7d9f8a2e-0000-4000-8000-000000000002"));
    assert_eq!(wahlleiter.post(&path, &f).await.status, 403);
    f.push(("csrf", "0000"));
    assert_eq!(wahlleiter.post(&path, &f).await.status, 403);
    assert!(audit(&app, "notification.served").await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cores_refusal_is_shown_in_german_and_recorded_with_the_user() {
    let app = App::spawn().await;
    let case = open_case(&app).await;
    let mut browser = signed_in(&app, "wahlleitung", "wahlleiter").await;
    let path = format!("/raete/musterstadt-rat/faelle/{case}/zustellung");
    let tomorrow = (nachfolge::deadline::local_date(app.now()) + chrono::Duration::days(1)).to_string();
    let fields = [("candidate", "L1-06"), ("method", "certificate"), ("on", tomorrow.as_str())];
    // the preview already says why: the core refuses a service date in the future
    let (shown, mut fields) = preview(&mut browser, &path, &fields).await;
    assert_eq!(shown.status, 422, "{}", shown.body);
    assert!(shown.body.contains("Der angegebene Tag liegt in der Zukunft."), "{}", shown.body);
    assert!(!shown.body.contains("name=\"message_id\""), "no confirm form: {}", shown.body);
    // confirmed anyway (a form kept open across midnight): refused by the core, recorded as the consumer does
    fields.push(("message_id".into(), "5b0c1d3e-1111-4222-8333-444455556666".into()));
    let done = confirm(&mut browser, &path, &fields).await;
    assert_eq!(done.status, 422, "{}", done.body);
    assert!(
        done.body.contains("<strong>Abgelehnt:</strong> Der angegebene Tag liegt in der Zukunft."),
        "{}",
        done.body
    );
    let rejected = app.wait_event("message.rejected", |_| true).await;
    assert_eq!(rejected["recordedby"], "wahlleitung", "{rejected}");
    assert_eq!(rejected["data"]["message_id"], "5b0c1d3e-1111-4222-8333-444455556666");
    let rows: Vec<String> = sqlx::query_scalar(
        "SELECT payload::text FROM audit_log WHERE body_id = 'musterstadt-rat' AND kind = 'rejected'",
    )
    .fetch_all(&app.db().await)
    .await
    .expect("audit log");
    assert_eq!(rows.len(), 1, "{rows:?}");
    let entry: Value = serde_json::from_str(&rows[0]).expect("json");
    assert_eq!(entry["recorded_by"], "wahlleitung", "{entry}");
    assert!(audit(&app, "notification.served").await.is_empty());
}
