//! The running period as an iCalendar entry (RFC 5545): `GET /raete/{body}/faelle/{case}/frist.ics`.

use serde_json::json;

use crate::support::app::App;
use crate::{add_user, assert_security_headers, client, nrw, register, PASSWORD};

/// Undo RFC 5545 § 3.1 folding and split into content lines.
fn content_lines(text: &str) -> Vec<String> {
    text.replace("\r\n ", "").split_terminator("\r\n").map(str::to_owned).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_period_after_service_downloads_as_an_rfc_5545_entry_behind_sign_in_and_role() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    add_user(&app, "wahlleitung", "wahlleiter", &["musterstadt-rat"]).await;
    add_user(&app, "fremd", "wahlleiter", &["andere-stadt"]).await;
    let mut browser = client(&app);
    assert_eq!(browser.sign_in("wahlleitung", PASSWORD).await.status, 303);

    app.send(
        "vacancy.reported",
        json!({"body": "musterstadt-rat", "member": "L1-01", "reason": "died", "effective_at": "2026-05-04T10:00:00+02:00"}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    let round = det["data"]["round"].as_u64().unwrap_or(1);
    app.wait_event("successor.notified", |_| true).await;
    let path = format!("/raete/musterstadt-rat/faelle/{case}/frist.ics");

    // notified, not served: no period runs yet, so there is nothing to put in a calendar
    let early = browser.get(&path).await;
    assert_eq!(early.status, 404, "{}", early.body);

    // served today (§ 45 Abs. 6 Satz 2 KWahlG NRW: one week after service)
    let today = nachfolge::deadline::local_date(app.now());
    app.send(
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-06", "method": "certificate", "on": today.to_string()}),
    )
    .await;
    let set = app.wait_event("deadline.set", |_| true).await;
    let last_day: chrono::NaiveDate = serde_json::from_value(set["data"]["last_day"].clone()).expect("last day");

    // the case page links the entry
    let page = browser.get(&format!("/raete/musterstadt-rat/faelle/{case}")).await;
    assert!(page.body.contains("frist.ics"), "{}", page.body);

    let ics = browser.get(&path).await;
    assert_eq!(ics.status, 200, "{}", ics.body);
    assert_security_headers(&ics);
    assert_eq!(ics.header("content-type"), Some("text/calendar; charset=utf-8; method=PUBLISH"));
    assert!(ics.header("content-disposition").is_some_and(|d| d.starts_with("attachment")));
    assert!(ics.body.ends_with("END:VCALENDAR\r\n"), "{}", ics.body);
    assert!(ics.body.split_terminator("\r\n").all(|l| l.len() <= 75), "folded at 75 octets: {}", ics.body);
    let lines = content_lines(&ics.body);
    let has = |want: &str| lines.iter().any(|l| l == want);
    assert!(has("BEGIN:VCALENDAR") && has("BEGIN:VEVENT") && has("METHOD:PUBLISH"), "{lines:?}");
    assert!(has(&format!("UID:{case}-{round}-acceptance@nachfolge")), "{lines:?}");
    assert!(has(&format!("DTSTART;VALUE=DATE:{}", last_day.format("%Y%m%d"))), "{lines:?}");
    let next = last_day.succ_opt().expect("next day");
    assert!(has(&format!("DTEND;VALUE=DATE:{}", next.format("%Y%m%d"))), "{lines:?}");
    let stamp = app.now().format("DTSTAMP:%Y%m%dT%H%M%SZ").to_string();
    assert!(has(&stamp), "{stamp} in {lines:?}");
    let summary = lines.iter().find(|l| l.starts_with("SUMMARY:")).expect("summary");
    assert!(
        summary.starts_with("SUMMARY:Ende der Frist zur Erklärung über die Annahme der Wahl – Vertretung „"),
        "{summary}"
    );
    let description = lines.iter().find(|l| l.starts_with("DESCRIPTION:")).expect("description");
    assert!(description.contains("(§ 45 Abs. 6 Satz 2 KWahlG NRW)"), "{description}");
    let german = nachfolge::calendar::german_date(last_day);
    assert!(description.contains(&format!("endet mit Ablauf des {german}")), "{description}");
    // no personal data beyond the letter's: not the successor's name or address
    assert!(!ics.body.contains("Fuchs") && !ics.body.contains("@example.org"), "{}", ics.body);

    // another council's returning officer does not learn that the case exists; without sign-in: to the sign-in
    let mut other = client(&app);
    assert_eq!(other.sign_in("fremd", PASSWORD).await.status, 303);
    assert_eq!(other.get(&path).await.status, 404);
    let mut anonymous = client(&app);
    let answer = anonymous.get(&path).await;
    assert_eq!(
        (answer.status, answer.header("location")),
        (303, Some("/anmelden?weiter=%2Fraete%2Fmusterstadt-rat%2Ffaelle%2Fmusterstadt-rat-1%2Ffrist.ics"))
    );
}
