//! The read-only pages: the Nachrückerliste, open cases with their periods, a case's history, and the
//! JSON reads behind sign-in.

use serde_json::json;

use crate::support::app::App;
use crate::{add_user, assert_security_headers, client, nrw, register, PASSWORD};
use nachfolge::land::{Land, LocalHolidays};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_council_page_shows_the_nachrueckerliste_open_cases_periods_and_the_history() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    add_user(&app, "wahlleitung", "wahlleiter", &["musterstadt-rat"]).await;
    let mut browser = client(&app);
    assert_eq!(browser.sign_in("wahlleitung", PASSWORD).await.status, 303);

    // the Nachrückerliste as the core computes it (§ 45 KWahlG NRW): David Dietrich is next on L1;
    // Anna Albers holds a seat, Clara Conrad left the party
    let page = browser.get("/raete/musterstadt-rat").await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert_security_headers(&page);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    let body = &page.body;
    assert!(
        body.contains("Nächste Nachfolge: <strong>David Dietrich</strong> <span class=\"kennung\">(L1-04)</span>"),
        "{body}"
    );
    assert!(body.contains("Anna Albers <span class=\"kennung\">(L1-01)</span></th><td>ist bereits Mitglied der Vertretung</td><td>§ 45 Abs. 2 Satz 1 KWahlG NRW</td>"), "{body}");
    assert!(body.contains("<td>§ 45 Abs. 3 Satz 1 KWahlG NRW</td>"), "left the party: {body}");
    assert!(body.contains("Keine offenen Fälle."), "{body}");
    // the individual candidate's list: nobody can succeed (§ 45 Abs. 5)
    assert!(body.contains("Einzelbewerber Hans Huber") && body.contains("Niemand kann nachrücken."), "{body}");

    // a vacancy: the case opens with Felix Fuchs, the Ersatzbewerber of the district winner
    app.send(
        "vacancy.reported",
        json!({"body": "musterstadt-rat", "member": "L1-01", "reason": "died", "effective_at": "2026-05-04T10:00:00+02:00"}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.wait_event("successor.notified", |_| true).await;
    let page = browser.get("/raete/musterstadt-rat").await;
    assert!(page.body.contains("Felix Fuchs <span class=\"kennung\">(L1-06)</span>"), "{}", page.body);
    assert!(page.body.contains("Benachrichtigt; Zustellung noch nicht erfasst"), "{}", page.body);
    assert!(page.body.contains("keine laufende Frist"), "{}", page.body);
    // while his case is open he would be passed over for another seat (§ 45 Abs. 2 Satz 1 KWahlG NRW)
    assert!(
        page.body.contains("Felix Fuchs <span class=\"kennung\">(L1-06)</span></th><td>ist bereits als Listennachfolger für einen anderen Sitz festgestellt</td><td>§ 45 Abs. 2 Satz 1 KWahlG NRW</td>"),
        "{}",
        page.body
    );
    let order = browser.get("/bodies/musterstadt-rat/succession-order").await;
    assert!(order.body.contains(r#"{"candidate":"L1-06","reason":"pending_successor""#), "{}", order.body);

    // served today: the period runs; the working days left are the core's count with the Land's holidays
    let today = nachfolge::deadline::local_date(app.now());
    app.send(
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-06", "method": "certificate", "on": today.to_string()}),
    )
    .await;
    let set = app.wait_event("deadline.set", |_| true).await;
    let last_day: chrono::NaiveDate = serde_json::from_value(set["data"]["last_day"].clone()).expect("last day");
    let left = nachfolge::deadline::working_days_left(Land::Nw, LocalHolidays::NONE, today, last_day);
    let page = browser.get("/raete/musterstadt-rat").await;
    let german = nachfolge::calendar::german_date(last_day);
    assert!(page.body.contains(&format!("endet mit Ablauf des {german}")), "{}", page.body);
    assert!(page.body.contains(&format!("Noch {left} Arbeitstage")), "{left} in {}", page.body);
    assert!(page.body.contains("Frist läuft") && !page.body.contains("Dringend"), "{}", page.body);

    // two days before the period ends it ends within three days (`urgent_days`): marked in words. Counted
    // back from the period's end, not forward from today: served on a Saturday or Sunday, or before a holiday,
    // the week ends later (§ 193 BGB), so "five days later" is not urgent on every day (the session has ended
    // meanwhile)
    app.advance_to(crate::support::app::period_end(&set) - chrono::Duration::days(2));
    assert_eq!(browser.get("/raete/musterstadt-rat").await.status, 303, "idle session ended");
    assert_eq!(browser.sign_in("wahlleitung", PASSWORD).await.status, 303);
    let page = browser.get("/raete/musterstadt-rat").await;
    assert!(page.body.contains("<strong class=\"dringend\">Dringend:</strong>"), "{}", page.body);
    let later = nachfolge::deadline::local_date(app.now());
    let left = nachfolge::deadline::working_days_left(Land::Nw, LocalHolidays::NONE, later, last_day);
    let days = if left == 1 { "Arbeitstag " } else { "Arbeitstage" };
    assert!(page.body.contains(&format!("Noch {left} {days}")), "{left} in {}", page.body);
    let councils = browser.get("/raete").await;
    assert!(councils.body.contains("Dringend: 1"), "{}", councils.body);

    // the case page: state, period, and the history from the audit log, every entry that concerns the case
    let url = format!("/raete/musterstadt-rat/faelle/{case}");
    // the link is there, as written: no slash escaped as `&#x2f;` in the page source
    assert!(page.body.contains(&format!("href=\"{url}\"")), "{}", page.body);
    assert!(!page.body.contains("&#x2f;"), "{}", page.body);
    // the Hinweise of the Nachrückerliste in German, not as codes (§ 45 Abs. 3 Satz 1 i. V. m. § 38 KWahlG NRW)
    assert!(
        page.body
            .contains("David Dietrich: hat auf die Anwartschaft verzichtet, aber nicht in der vorgeschriebenen Form"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("waiver_not_in_form") && !page.body.contains("individual_candidate"), "{}", page.body);
    let case_page = browser.get(&url).await;
    assert_eq!(case_page.status, 200, "{}", case_page.body);
    let body = &case_page.body;
    for text in [
        "Anna Albers",
        "Tod, wirksam 04.05.2026, 10:00 Uhr",
        "Ausscheiden gemeldet",
        "Nachfolge festgestellt",
        "Zustellung erfasst",
        "Frist gesetzt",
        "E-Mail vorbereitet",
        "<strong class=\"dringend\">Dringend:</strong>",
    ] {
        assert!(body.contains(text), "{text} in {body}");
    }
    assert!(!body.contains("Wahlergebnis registriert"), "the registration concerns no case: {body}");
    assert_eq!(browser.get("/raete/musterstadt-rat/faelle/musterstadt-rat-99").await.status, 404);
    assert_eq!(browser.get("/raete/nirgendwo").await.status, 404);
    let css = browser.get("/console.css").await;
    assert_eq!((css.status, css.header("content-type")), (200, Some("text/css; charset=utf-8")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_json_requires_sign_in_on_the_console_and_is_gone_from_the_operations_listener() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    add_user(&app, "wahlleitung", "wahlleiter", &["musterstadt-rat"]).await;
    let mut browser = client(&app);
    let anonymous = browser.get("/bodies/musterstadt-rat").await;
    assert_eq!(anonymous.status, 401);
    assert_eq!(anonymous.body, r#"{"error":"sign-in required"}"#);
    assert_security_headers(&anonymous);
    assert_eq!(browser.get("/bodies/musterstadt-rat/succession-order").await.status, 401);

    assert_eq!(browser.sign_in("wahlleitung", PASSWORD).await.status, 303);
    let body = browser.get("/bodies/musterstadt-rat").await;
    assert_eq!((body.status, body.header("content-type")), (200, Some("application/json")));
    assert!(body.body.contains("\"returning_officer\""), "{}", body.body);
    let order = browser.get("/bodies/musterstadt-rat/succession-order").await;
    assert_eq!(order.status, 200);
    assert!(order.body.contains("\"order\":[\"L1-04\",\"L1-05\""), "{}", order.body);
    assert_eq!(browser.get("/bodies/nowhere").await.status, 404);

    // the operations listener keeps its endpoints and serves no personal data
    let ops = crate::Client::new(app.worker.as_ref().and_then(|w| w.http_addr).expect("http"));
    let mut ops = ops;
    assert_eq!(ops.get("/healthz").await.status, 200);
    assert_eq!(ops.get("/metrics").await.status, 200);
    assert_eq!(ops.get("/bodies/musterstadt-rat").await.status, 404);
    assert_eq!(ops.get("/bodies/musterstadt-rat/succession-order").await.status, 404);
    let metrics = ops.get("/metrics").await.body;
    assert!(metrics.contains("nachfolge_console_sign_ins_total{outcome=\"success\"} 1"), "{metrics}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_can_be_switched_off() {
    let app = App::spawn_with(|c| c.console.enabled = false).await;
    let worker = app.worker.as_ref().expect("running");
    assert!(worker.console_addr.is_none());
    assert!(worker.http_addr.is_some(), "the operations listener stays");
}
