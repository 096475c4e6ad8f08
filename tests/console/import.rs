//! „Wahlergebnis übernehmen“: the Wahlleitung uploads the published Oldenburg 2026 files (read where they
//! lie, `../shared/election-exports/`; the repository holds no copy), sees the preview with the 52 seats and
//! the import report, corrects a seat, confirms — `election.registered` through the command path with
//! `recorded_by` — and sees the council; a re-import shows the differences; a contacts CSV merges into the
//! preview. Refusals in German: no role, a body too large, files of no known format.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::flow::{audit, local_now, signed_in};
use crate::support::app::App;
use crate::{Answer, Client};

const BODY: &str = "oldenburg-rat";
const OLDENBURG: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/election-exports/ni-oldenburg-2026-ratswahl-votemanager");
const BOUNDARY: &str = "----nachfolgeTestBoundary7MA4YWxkTrZu0gW";

/// The Oldenburg files as (name, text).
fn oldenburg() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(OLDENBURG)
        .expect("the Oldenburg files")
        .map(|e| {
            let e = e.expect("entry");
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(e.path()).expect("UTF-8 text"))
        })
        .collect();
    files.sort();
    files
}

/// The body facts of the form for Oldenburg.
fn facts() -> Vec<(&'static str, &'static str)> {
    vec![
        ("land", "NI"),
        ("body", BODY),
        ("name", "Rat der Stadt Oldenburg"),
        ("kind", "council"),
        ("term_start", "2026-11-01"),
        ("term_end", "2031-10-31"),
        ("officer_name", "Wahlleitung der Stadt Oldenburg"),
        ("officer_email", "wahlleitung@example.org"),
        ("officer_address", "Markt 1, 26122 Oldenburg"),
        ("court_name", "Verwaltungsgericht Oldenburg"),
        ("court_address", "Schloßplatz 10, 26122 Oldenburg"),
    ]
}

/// A `multipart/form-data` body of `fields` and the files of the field `dateien`.
fn multipart(fields: &[(&str, &str)], files: &[(String, String)]) -> String {
    let mut b = String::new();
    for (k, v) in fields {
        b.push_str(&format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n"));
    }
    for (name, text) in files {
        b.push_str(&format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"dateien\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n{text}\r\n"
        ));
    }
    b.push_str(&format!("--{BOUNDARY}--\r\n"));
    b
}

/// The upload form's token, then the upload with the body facts (`extra` replaces or adds fields).
async fn upload(browser: &mut Client, files: &[(String, String)], extra: &[(&str, &str)]) -> Answer {
    let form = browser.get("/wahlergebnis").await;
    assert_eq!(form.status, 200, "{}", form.body);
    assert!(form.body.contains("enctype=\"multipart/form-data\""), "{}", form.body);
    let csrf = form.csrf().expect("a token");
    let mut fields = facts();
    fields.retain(|(k, _)| !extra.iter().any(|(e, _)| e == k));
    fields.extend_from_slice(extra);
    fields.push(("csrf", csrf.as_str()));
    let body = multipart(&fields, files);
    let ct = format!("multipart/form-data; boundary={BOUNDARY}");
    browser.request("POST", "/wahlergebnis/vorschau", Some(body), &[("Content-Type", ct.as_str())]).await
}

/// The token of the previewed import, from the correction form's address.
fn token(page: &Answer) -> String {
    let at =
        page.body.find("action=\"/wahlergebnis/").expect("a form of the preview") + "action=\"/wahlergebnis/".len();
    let rest = &page.body[at..];
    rest[..rest.find('/').expect("…/korrektur")].to_owned()
}

/// The table row of candidate `id` on the preview.
fn row<'a>(page: &'a Answer, id: &str) -> &'a str {
    let id_at = page.body.find(&format!("<td class=\"kennung\">{id}</td>")).expect("the candidate's row");
    let at = page.body[..id_at].rfind("<tr>").expect("the row's start");
    let rest = &page.body[at..];
    &rest[..rest.find("</tr>").expect("row end")]
}

fn message_id(page: &Answer) -> String {
    let at =
        page.body.find("name=\"message_id\" value=\"").expect("a confirm form") + "name=\"message_id\" value=\"".len();
    let rest = &page.body[at..];
    rest[..rest.find('"').expect("end")].to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wahlleitung_uploads_the_oldenburg_files_corrects_a_seat_confirms_and_sees_the_council() {
    let app = App::spawn().await;
    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    let councils = browser.get("/raete").await;
    assert!(councils.body.contains("<a href=\"/wahlergebnis\">Wahlergebnis übernehmen</a>"), "{}", councils.body);

    let shown = upload(&mut browser, &oldenburg(), &[]).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(shown.body.contains("Noch ist nichts übernommen."), "{}", shown.body);
    assert!(shown.body.contains("383 Personen"), "{}", shown.body);
    assert!(shown.body.contains("52 Sitze</dd>"), "{}", shown.body);
    assert!(shown.body.contains("<dt>Gesetzliche Mitgliederzahl</dt><dd>52</dd>"), "{}", shown.body);
    assert!(shown.body.contains("<h2>Bericht des Imports</h2>"), "{}", shown.body);
    // what was read and every point of the importer in German (the CLI keeps the English)
    assert!(shown.body.contains("Gefundene Sitze: 52 (17 aus Personenwahl, 35 über die Liste)"), "{}", shown.body);
    assert!(!shown.body.contains("seats found"), "said in German only: {}", shown.body);
    assert!(
        shown.body.contains("6 Wahlbereiche: Jeder Wahlvorschlag eines Wahlbereichs ist eine eigene Liste"),
        "{}",
        shown.body
    );
    assert!(!shown.body.contains("each Wahlvorschlag of a Wahlbereich"), "said in German only: {}", shown.body);
    assert!(shown.body.contains("<h3>Zu bestätigen oder zu ergänzen ("), "{}", shown.body);
    assert!(shown.body.contains("383 Personen haben keine E-Mail-Adresse"), "{}", shown.body);
    assert!(!shown.body.contains("have no e-mail address"), "said in German only: {}", shown.body);
    assert!(!shown.body.contains("Unterschiede zum registrierten"), "a first import: {}", shown.body);
    assert!(row(&shown, "L1-WB1-01").contains("durch Personenstimmen"), "{}", row(&shown, "L1-WB1-01"));
    assert!(row(&shown, "L1-WB1-07").contains("<td>870</td>"), "{}", row(&shown, "L1-WB1-07"));
    assert!(row(&shown, "L1-WB1-07").contains("<td>–</td>\n"), "no seat: {}", row(&shown, "L1-WB1-07"));
    // the preview wrote nothing
    assert!(audit(&app, BODY, "election.registered").await.is_empty());

    // the seat of L1-WB1-01 goes to L1-WB1-07 (a correction the official makes), who gets an e-mail address
    let token = token(&shown);
    let csrf = shown.csrf().expect("token");
    let corrected = browser
        .post(
            &format!("/wahlergebnis/{token}/korrektur"),
            &[
                ("csrf", csrf.as_str()),
                ("k0_id", "L1-WB1-01"),
                ("k0_sitz", "kein"),
                ("k1_id", "L1-WB1-07"),
                ("k1_sitz", "personal_vote"),
                ("k1_email", "a.k@example.org"),
                ("k1_anrede", "frau"),
            ],
        )
        .await;
    assert_eq!(corrected.status, 200, "{}", corrected.body);
    assert!(row(&corrected, "L1-WB1-07").contains("durch Personenstimmen"), "{}", row(&corrected, "L1-WB1-07"));
    assert!(row(&corrected, "L1-WB1-07").contains("a.k@example.org"), "{}", row(&corrected, "L1-WB1-07"));
    assert!(!row(&corrected, "L1-WB1-01").contains("durch Personenstimmen"), "{}", row(&corrected, "L1-WB1-01"));
    assert!(corrected.body.contains("382 Personen haben keine E-Mail-Adresse"), "{}", corrected.body);
    // an unknown person is refused in German, nothing changes
    let wrong = browser
        .post(
            &format!("/wahlergebnis/{token}/korrektur"),
            &[("csrf", csrf.as_str()), ("k0_id", "L9-99"), ("k0_sitz", "list")],
        )
        .await;
    assert_eq!(wrong.status, 422, "{}", wrong.body);
    assert!(
        wrong.body.contains("Die Kennung „L9-99“ gehört zu keiner Person dieses Wahlergebnisses."),
        "{}",
        wrong.body
    );

    let fields = [("csrf", csrf.as_str()), ("message_id", &message_id(&corrected))];
    let done = browser.post(&format!("/wahlergebnis/{token}"), &fields).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<strong>Übernommen:</strong>"), "{}", done.body);
    let registered = app.wait_event("body.registered", |e| e["data"]["body"] == BODY).await;
    assert_eq!(registered["recordedby"], "wahlleitung", "{registered}");
    let entries = audit(&app, BODY, "election.registered").await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0]["recorded_by"], "wahlleitung");

    // the council as registered: the corrected seat, 52 seats
    let council = browser.get("/raete/oldenburg-rat").await;
    assert_eq!(council.status, 200, "{}", council.body);
    assert!(council.body.contains("Rat der Stadt Oldenburg"), "{}", council.body);
    let json: Value = serde_json::from_str(&browser.get("/bodies/oldenburg-rat").await.body).expect("json");
    let cands: Vec<&Value> = json["snapshot"]["lists"]
        .as_array()
        .or_else(|| json["lists"].as_array())
        .expect("lists")
        .iter()
        .flat_map(|l| l["candidates"].as_array().expect("candidates"))
        .collect();
    assert_eq!(cands.iter().filter(|c| !c["seat"].is_null()).count(), 52);
    let c = cands.iter().find(|c| c["id"] == "L1-WB1-07").expect("L1-WB1-07");
    assert_eq!((c["seat"]["via"].as_str(), c["email"].as_str()), (Some("personal_vote"), Some("a.k@example.org")));

    // the same confirm form again: already taken over, nothing applied twice
    let again = browser.post(&format!("/wahlergebnis/{token}"), &fields).await;
    assert_eq!(again.status, 404, "the preview is used up: {}", again.body);

    // a re-import of the published files shows what it would change before it replaces the snapshot
    let reimport = upload(&mut browser, &oldenburg(), &[]).await;
    assert_eq!(reimport.status, 200, "{}", reimport.body);
    assert!(reimport.body.contains("<h2>Unterschiede zum registrierten Wahlergebnis</h2>"), "{}", reimport.body);
    assert!(reimport.body.contains("(L1-WB1-07): ohne Sitz statt durch Personenstimmen"), "{}", reimport.body);
    assert!(reimport.body.contains("(L1-WB1-01): durch Personenstimmen statt ohne Sitz"), "{}", reimport.body);

    // while a succession case is open the registered lists stay: the preview says so and offers no confirmation
    let when = local_now(&app);
    let fields = [("member", "L1-WB1-07"), ("departure", "died"), ("effective_at", when.as_str())];
    let vacancy = crate::flow::preview(&mut browser, "/raete/oldenburg-rat/ausscheiden", &fields).await;
    assert_eq!(vacancy.status, 200, "{}", vacancy.body);
    let reported = crate::flow::confirm(&mut browser, "/raete/oldenburg-rat/ausscheiden", &vacancy).await;
    assert_eq!(reported.status, 200, "{}", reported.body);
    let blocked = upload(&mut browser, &oldenburg(), &[]).await;
    assert_eq!(blocked.status, 200, "{}", blocked.body);
    assert!(blocked.body.contains("Die Vertretung hat einen offenen Nachfolgefall."), "{}", blocked.body);
    assert!(
        blocked.body.contains("<button type=\"submit\" disabled>Wahlergebnis verbindlich übernehmen"),
        "{}",
        blocked.body
    );
    let csrf = blocked.csrf().expect("token");
    let refused = browser
        .post(
            &format!("/wahlergebnis/{}", self::token(&blocked)),
            &[("csrf", csrf.as_str()), ("message_id", &message_id(&blocked))],
        )
        .await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert_eq!(audit(&app, BODY, "election.registered").await.len(), 1, "nothing registered a second time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_without_the_role_too_large_or_of_no_known_format_is_refused_in_german() {
    let app = App::spawn().await;
    // a viewer has no upload form
    let mut viewer = signed_in(&app, BODY, "leser", "viewer").await;
    assert_eq!(viewer.get("/wahlergebnis").await.status, 404);
    let councils = viewer.get("/raete").await;
    assert!(!councils.body.contains("Wahlergebnis übernehmen"), "{}", councils.body);

    // the Wahlleitung of another body may not import for Oldenburg
    let mut other = signed_in(&app, "musterstadt-rat", "andere", "wahlleiter").await;
    let refused = upload(&mut other, &oldenburg(), &[]).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused.body.contains("Für die Vertretung „oldenburg-rat“ haben Sie keine Berechtigung."),
        "{}",
        refused.body
    );
    // the form keeps what was entered
    assert!(refused.body.contains("value=\"Rat der Stadt Oldenburg\""), "{}", refused.body);

    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    // files of no known format
    let unknown =
        upload(&mut browser, &[("notizen.txt".to_owned(), "Das ist kein Wahlergebnis.\n".to_owned())], &[]).await;
    assert_eq!(unknown.status, 422, "{}", unknown.body);
    assert!(unknown.body.contains("Das Format der Dateien ist nicht erkannt"), "{}", unknown.body);
    // a contacts CSV merges into the preview
    let mut files = oldenburg();
    let with_contacts = {
        let form = browser.get("/wahlergebnis").await;
        let csrf = form.csrf().expect("a token");
        let mut fields = facts();
        fields.push(("csrf", csrf.as_str()));
        let mut body = multipart(&fields, &files);
        body.truncate(body.len() - format!("--{BOUNDARY}--\r\n").len());
        body.push_str(&format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"kontakte\"; filename=\"kontakte.csv\"\r\n\r\nliste;platz;e-mail;anrede\nL1-WB1;7;a.k@example.org;Frau\n\r\n--{BOUNDARY}--\r\n"
        ));
        let ct = format!("multipart/form-data; boundary={BOUNDARY}");
        browser.request("POST", "/wahlergebnis/vorschau", Some(body), &[("Content-Type", ct.as_str())]).await
    };
    assert_eq!(with_contacts.status, 200, "{}", with_contacts.body);
    assert!(
        row(&with_contacts, "L1-WB1-07").contains("<th scope=\"row\">Frau "),
        "{}",
        row(&with_contacts, "L1-WB1-07")
    );
    assert!(row(&with_contacts, "L1-WB1-07").contains("a.k@example.org"), "{}", row(&with_contacts, "L1-WB1-07"));
    assert!(with_contacts.body.contains("382 Personen haben keine E-Mail-Adresse"), "{}", with_contacts.body);
    files.clear();
    // a missing fact
    let no_term = upload(&mut browser, &oldenburg(), &[("term_end", "")]).await;
    assert_eq!(no_term.status, 422, "{}", no_term.body);
    assert!(no_term.body.contains("Bitte geben Sie das Ende der Wahlperiode als Datum an."), "{}", no_term.body);

    // a body announced larger than the upload limit is refused before it is read
    let jar: Vec<String> = browser.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let head = format!(
        "POST /wahlergebnis/vorschau HTTP/1.1\r\nHost: {}\r\nCookie: {}\r\nContent-Type: multipart/form-data; boundary={BOUNDARY}\r\nContent-Length: {}\r\n\r\n",
        browser.addr,
        jar.join("; "),
        nachfolge::console::upload::MAX_UPLOAD_BYTES + 1
    );
    let mut stream = tokio::net::TcpStream::connect(browser.addr).await.expect("connect");
    stream.write_all(head.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut raw)).await.expect("in time").expect("read");
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
    assert!(text.contains("Die gesendeten Daten sind zu umfangreich."), "{text}");
    // and a form without its token is refused as every form is
    let body = multipart(&facts(), &oldenburg());
    let ct = format!("multipart/form-data; boundary={BOUNDARY}");
    let forged = browser.request("POST", "/wahlergebnis/vorschau", Some(body), &[("Content-Type", ct.as_str())]).await;
    assert_eq!(forged.status, 403, "{}", forged.body);
    // an upload is taken at its own path only
    let body = multipart(&[("csrf", "x")], &[]);
    let elsewhere =
        browser.request("POST", "/raete/oldenburg-rat/ausscheiden", Some(body), &[("Content-Type", ct.as_str())]).await;
    assert_eq!(elsewhere.status, 403, "{}", elsewhere.body);
}

/// The previewed import is kept in the database (migration 0017), not in one worker's memory: the upload reaches
/// one replica, the correction and the confirmation another — as a load balancer without sticky sessions sends
/// them — and a restart of the first keeps the preview; once confirmed it is deleted (it holds personal data).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_previewed_import_is_confirmed_on_another_replica_and_then_deleted() {
    let mut app = App::spawn().await;
    let mut first = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    let shown = upload(&mut first, &oldenburg(), &[]).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    let token = token(&shown);
    let csrf = shown.csrf().expect("token");
    // in the database, for this user (one process's memory would be shared by both workers of this test)
    let db = app.db().await;
    let kept: Vec<String> = sqlx::query_scalar("SELECT login FROM console_import_previews WHERE token = $1")
        .bind(&token)
        .fetch_all(&db)
        .await
        .expect("previews");
    assert_eq!(kept, ["wahlleitung"]);
    // the first replica restarts; the user's next steps reach a second one
    if let Some(w) = app.worker.take() {
        w.shutdown().await;
    }
    let second = nachfolge::worker::Worker::start(app.config.clone(), app.clock.clone()).await.expect("second");
    let mut other = crate::Client {
        addr: second.console_addr.expect("the second console listens"),
        cookies: first.cookies.clone(),
    };
    let corrected = other
        .post(
            &format!("/wahlergebnis/{token}/korrektur"),
            &[("csrf", csrf.as_str()), ("k0_id", "L1-WB1-07"), ("k0_email", "a.k@example.org")],
        )
        .await;
    assert_eq!(corrected.status, 200, "{}", corrected.body);
    assert!(row(&corrected, "L1-WB1-07").contains("a.k@example.org"), "{}", row(&corrected, "L1-WB1-07"));
    let fields = [("csrf", csrf.as_str()), ("message_id", &message_id(&corrected))];
    let done = other.post(&format!("/wahlergebnis/{token}"), &fields).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<strong>Übernommen:</strong>"), "{}", done.body);
    let kept: i64 =
        sqlx::query_scalar("SELECT count(*) FROM console_import_previews").fetch_one(&db).await.expect("count");
    assert_eq!(kept, 0, "the confirmed preview is deleted");
    // the used-up preview is gone for a second confirmation
    let again = other.post(&format!("/wahlergebnis/{token}"), &fields).await;
    assert_eq!(again.status, 404, "{}", again.body);
    second.shutdown().await;
}

/// A preview whose hour has passed holds a whole election's personal data and can no longer be read: the console
/// deletes it when it starts and every few minutes (`console::PREVIEW_SWEEP`), not only at the next upload; a
/// fresh preview stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_preview_is_deleted_by_the_console_without_a_further_upload() {
    let mut app = App::spawn().await;
    let mut browser = signed_in(&app, BODY, "wahlleitung", "wahlleiter").await;
    let old = token(&upload(&mut browser, &oldenburg(), &[]).await);
    let fresh = token(&upload(&mut browser, &oldenburg(), &[]).await);
    let db = app.db().await;
    // the first preview's hour has passed (the database's clock decides)
    sqlx::query("UPDATE console_import_previews SET created_at = now() - interval '2 hours' WHERE token = $1")
        .bind(&old)
        .execute(&db)
        .await
        .expect("backdate");
    // a replica starts: its console sweeps at once
    if let Some(w) = app.worker.take() {
        w.shutdown().await;
    }
    let second = nachfolge::worker::Worker::start(app.config.clone(), app.clock.clone()).await.expect("second");
    let left = |db: sqlx::PgPool| async move {
        sqlx::query_scalar::<_, String>("SELECT token FROM console_import_previews ORDER BY token")
            .fetch_all(&db)
            .await
            .expect("previews")
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut kept = left(db.clone()).await;
    while kept.contains(&old) && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        kept = left(db.clone()).await;
    }
    assert_eq!(kept, [fresh], "the expired preview is deleted, the fresh one kept");
    second.shutdown().await;
}
