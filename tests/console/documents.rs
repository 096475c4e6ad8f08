//! A case's documents: the letter to the successor for service (`schreiben.pdf`) and the announcement as PDF
//! and text (`bekanntmachung/{n}.pdf`, `.txt`), read back with pdftotext (poppler-utils; `.ci/run`
//! installs it).

use std::process::Command;
use std::time::Duration;

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::app::App;
use crate::{add_user, client, nrw, register, Client, PASSWORD};

/// A GET whose answer may be binary: status, headers (names in lower case), body bytes.
async fn fetch(browser: &Client, path: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let jar: Vec<String> = browser.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let head = format!("GET {path} HTTP/1.1\r\nHost: {}\r\nCookie: {}\r\n\r\n", browser.addr, jar.join("; "));
    let mut stream = tokio::net::TcpStream::connect(browser.addr).await.expect("connect to the console");
    stream.write_all(head.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut raw))
        .await
        .expect("answer in time")
        .expect("read");
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("head and body");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).expect("status");
    let headers = lines
        .filter_map(|l| l.split_once(':').map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned())))
        .collect();
    (status, headers, raw[split + 4..].to_vec())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

/// The text of `pdf` as pdftotext extracts it, every run of white space one space.
fn pdftotext(pdf: &[u8], name: &str) -> String {
    let file = std::env::temp_dir().join(format!("nachfolge-{}-{name}.pdf", std::process::id()));
    std::fs::write(&file, pdf).expect("write the PDF");
    let out = Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(&file)
        .arg("-")
        .output()
        .expect("pdftotext runs (Debian: poppler-utils)");
    let _ = std::fs::remove_file(&file);
    assert!(out.status.success(), "pdftotext: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8").split_whitespace().collect::<Vec<_>>().join(" ")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_letter_for_service_and_the_announcement_download_behind_sign_in_and_role() {
    let app = App::spawn().await;
    let mut snapshot = nrw();
    for list in snapshot["lists"].as_array_mut().into_iter().flatten() {
        for c in list["candidates"].as_array_mut().into_iter().flatten() {
            if c["id"] == "L1-06" {
                c["postal_address"] = json!("Große Straße 5, 12345 Musterstadt");
            }
        }
    }
    register(&app, snapshot).await;
    add_user(&app, "wahlleitung", "wahlleiter", &["musterstadt-rat"]).await;
    add_user(&app, "fremd", "viewer", &["andere-stadt"]).await;
    let mut browser = client(&app);
    assert_eq!(browser.sign_in("wahlleitung", PASSWORD).await.status, 303);
    app.send(
        "vacancy.reported",
        json!({"body": "musterstadt-rat", "member": "L1-01", "reason": "died", "effective_at": "2026-05-04T10:00:00+02:00"}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    app.wait_event("successor.notified", |_| true).await;
    let page_path = format!("/raete/musterstadt-rat/faelle/{case}");
    let letter_path = format!("{page_path}/schreiben.pdf");

    // the case page links the letter while the successor is offered the seat
    let page = browser.get(&page_path).await.body.replace("&#x2f;", "/");
    assert!(page.contains(&format!("href=\"{letter_path}\"")), "{page}");

    let (status, headers, pdf) = fetch(&browser, &letter_path).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&pdf));
    assert_eq!(header(&headers, "content-type"), Some("application/pdf"));
    assert!(header(&headers, "content-disposition").is_some_and(|d| d.starts_with("attachment; filename=\"schreiben-")));
    assert_eq!(header(&headers, "cache-control"), Some("no-store"));
    let text = pdftotext(&pdf, "letter");
    let today = nachfolge::calendar::german_date(nachfolge::deadline::local_date(app.now()));
    for want in [
        // the address field: return address, recipient with the postal address
        "Erika Beispiel · Rathausplatz 1 · 12345 Musterstadt",
        // with „Herrn“ from his form of address (DIN 5008; docs/legal.md, "Form of address")
        "Herrn Felix Fuchs Große Straße 5 12345 Musterstadt",
        // the information block: Aktenzeichen and date
        &format!("Aktenzeichen {case} (Runde 1)"),
        &format!("Datum {today}"),
        "Sehr geehrter Herr Fuchs,",
        // the request with the period rule, and the Hinweise (§ 45 Abs. 6 KWahlG NRW)
        "Ich fordere Sie auf, binnen einer Woche nach Zustellung dieser Benachrichtigung schriftlich zu erklären, ob Sie die Wahl annehmen (§ 45 Abs. 6 Satz 2 KWahlG).",
        "Geben Sie bis zum Ablauf der Frist keine Erklärung ab, gilt die Wahl mit Ablauf der Frist als angenommen (§ 45 Abs. 6 Satz 4 KWahlG).",
        "Eine Ablehnung kann nicht widerrufen werden (§ 45 Abs. 6 Satz 6 KWahlG).",
        // the signature of the body's Wahlleiterin, with her own title
        "Mit freundlichen Grüßen Erika Beispiel",
        "Wahlleiterin für die Wahl der Vertretung „Rat der Stadt Musterstadt“",
    ] {
        assert!(text.contains(want), "{want:?} not in {text}");
    }
    // the letter is the service: it does not say it does not replace it
    assert!(!text.contains("ersetzt nicht die förmliche Zustellung"), "{text}");

    // a user without a role for the council, and nobody signed in, get nothing
    let mut other = client(&app);
    assert_eq!(other.sign_in("fremd", PASSWORD).await.status, 303);
    assert_eq!(fetch(&other, &letter_path).await.0, 404);
    let (status, headers, _) = fetch(&client(&app), &letter_path).await;
    assert_eq!(
        (status, header(&headers, "location")),
        (303, Some("/anmelden?weiter=%2Fraete%2Fmusterstadt-rat%2Ffaelle%2Fmusterstadt-rat-1%2Fschreiben.pdf"))
    );

    // service, then the acceptance: the seat is filled and announced
    let today_iso = nachfolge::deadline::local_date(app.now()).to_string();
    app.send(
        "notification.served",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-06", "method": "certificate", "on": today_iso}),
    )
    .await;
    app.wait_event("deadline.set", |_| true).await;
    app.send(
        "declaration.received",
        json!({"body": "musterstadt-rat", "case": case, "candidate": "L1-06", "kind": "accept", "received_at": app.now().to_rfc3339()}),
    )
    .await;
    let issued = app.wait_event("announcement.issued", |e| e["data"]["case"] == case.as_str()).await;
    let announced = issued["data"]["text"].as_str().expect("text").to_owned();

    // the offer is settled: no letter any more; the page lists the announcement
    assert_eq!(fetch(&browser, &letter_path).await.0, 404);
    let page = browser.get(&page_path).await.body.replace("&#x2f;", "/");
    let txt_path = format!("{page_path}/bekanntmachung/1.txt");
    let pdf_path = format!("{page_path}/bekanntmachung/1.pdf");
    assert!(page.contains(&format!("href=\"{txt_path}\"")) && page.contains(&format!("href=\"{pdf_path}\"")), "{page}");
    assert!(!page.contains(&letter_path), "{page}");

    let (status, headers, body) = fetch(&browser, &txt_path).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(String::from_utf8(body).expect("UTF-8"), announced);

    let (status, headers, pdf) = fetch(&browser, &pdf_path).await;
    assert_eq!((status, header(&headers, "content-type")), (200, Some("application/pdf")));
    let text = pdftotext(&pdf, "announcement");
    let words = announced.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(text.trim(), words, "the PDF holds the announcement's text, word for word");
    assert!(text.contains("Felix Fuchs") && text.contains("Rechtsbehelfsbelehrung"), "{text}");

    for missing in ["2.pdf", "0.txt", "1.html"] {
        assert_eq!(fetch(&browser, &format!("{page_path}/bekanntmachung/{missing}")).await.0, 404, "{missing}");
    }
    assert_eq!(fetch(&other, &pdf_path).await.0, 404);
    assert_eq!(fetch(&other, &txt_path).await.0, 404);
}

#[tokio::test]
async fn a_letter_with_a_character_the_fonts_lack_is_refused_with_a_german_page_naming_it() {
    let app = App::spawn().await;
    let mut snapshot = nrw();
    for list in snapshot["lists"].as_array_mut().into_iter().flatten() {
        for c in list["candidates"].as_array_mut().into_iter().flatten() {
            if c["id"] == "L1-06" {
                c["postal_address"] = json!("Große Straße 5, 김해시");
            }
        }
    }
    register(&app, snapshot).await;
    add_user(&app, "wahlleitung", "wahlleiter", &["musterstadt-rat"]).await;
    let mut browser = client(&app);
    assert_eq!(browser.sign_in("wahlleitung", PASSWORD).await.status, 303);
    app.send(
        "vacancy.reported",
        json!({"body": "musterstadt-rat", "member": "L1-01", "reason": "died", "effective_at": "2026-05-04T10:00:00+02:00"}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    let (status, headers, body) = fetch(&browser, &format!("/raete/musterstadt-rat/faelle/{case}/schreiben.pdf")).await;
    let page = String::from_utf8_lossy(&body);
    assert_eq!(status, 422, "{page}");
    assert!(header(&headers, "content-type").is_some_and(|t| t.starts_with("text/html")));
    for want in
        ["Die Schrift des Schreibens enthält diese Zeichen nicht", "(U+AE40)", "Bitte prüfen Sie die Schreibweise"]
    {
        assert!(page.contains(want), "{want:?} not in {page}");
    }
}
