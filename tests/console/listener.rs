//! Issue 26, point 8: the console's listener bounds its clients (docs/security.md "The console's
//! listener"), tested over a real TCP socket: a slow head is cut off, a slow body gets 408, an over-long
//! head 431, an over-large body 413 (each a German page), and connections beyond `console.max_connections`
//! wait until one ends.

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::client;
use crate::support::app::App;

/// Sends `raw` on a new connection and reads the answer until the console closes the connection.
async fn raw_answer(addr: std::net::SocketAddr, raw: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream.write_all(raw).await.expect("write");
    read_all(&mut stream, Duration::from_secs(30)).await
}

async fn read_all(stream: &mut TcpStream, within: Duration) -> String {
    let mut buf = Vec::new();
    // a reset after the answer (the console closed with unread bytes) still leaves what was read
    let _ = tokio::time::timeout(within, stream.read_to_end(&mut buf)).await.expect("the console answers in time");
    String::from_utf8_lossy(&buf).into_owned()
}

fn get(addr: std::net::SocketAddr, path: &str, extra: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/html\r\n{extra}\r\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_sends_its_head_or_body_slowly_is_cut_off() {
    let app = App::spawn_with(|c| {
        c.console.header_timeout_seconds = 1;
        c.console.body_timeout_seconds = 1;
    })
    .await;
    let addr = client(&app).addr;
    let started = Instant::now();
    // half a head, then nothing: closed without an answer after the head timeout
    let mut slow = TcpStream::connect(addr).await.expect("connect");
    slow.write_all(b"GET /anmelden HTTP/1.1\r\nHost: x\r\n").await.expect("write");
    let answer = read_all(&mut slow, Duration::from_secs(10)).await;
    assert!(answer.is_empty(), "{answer}");
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(900) && waited < Duration::from_secs(5), "{waited:?}");

    // a whole head, then only part of the announced body: 408 with the German page after the body timeout
    let mut browser = client(&app);
    let form = browser.get("/anmelden").await;
    let csrf = form.csrf().expect("token");
    let jar: Vec<String> = browser.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let head = format!(
        "POST /anmelden HTTP/1.1\r\nHost: {addr}\r\nCookie: {}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\ncsrf={csrf}&login=",
        jar.join("; ")
    );
    let started = Instant::now();
    let mut slow = TcpStream::connect(addr).await.expect("connect");
    slow.write_all(head.as_bytes()).await.expect("write");
    let answer = read_all(&mut slow, Duration::from_secs(10)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("Die Daten sind nicht rechtzeitig angekommen."), "{answer}");
    assert!(started.elapsed() >= Duration::from_millis(900), "{:?}", started.elapsed());
    // nothing of it was a sign-in attempt
    let db = app.db().await;
    let counted: i64 =
        sqlx::query_scalar("SELECT count(*) FROM console_sign_in_failures").fetch_one(&db).await.expect("throttle");
    assert_eq!(counted, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_over_long_head_gets_431_and_an_over_large_body_413_as_german_pages() {
    let app = App::spawn_with(|c| {
        c.console.max_header_bytes = 4096;
        c.console.max_headers = 20;
        c.console.max_form_bytes = 1024;
    })
    .await;
    let addr = client(&app).addr;
    // a head within the limit is answered
    let ok = raw_answer(addr, get(addr, "/anmelden", "").as_bytes()).await;
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");

    // a head above console.max_header_bytes: 431, the console's German page with its headers
    let fill = format!("X-Fill: {}\r\n", "a".repeat(5000));
    let long = raw_answer(addr, get(addr, "/anmelden", &fill).as_bytes()).await;
    assert!(long.starts_with("HTTP/1.1 431"), "{long}");
    assert!(
        long.contains("<html lang=\"de\">") && long.contains("Die Kopfzeilen der Anfrage sind zu umfangreich."),
        "{long}"
    );
    assert!(long.to_ascii_lowercase().contains("content-security-policy: default-src 'none'"), "{long}");
    // more header fields than console.max_headers: the same
    let many: String = (0..25).map(|i| format!("X-F{i}: {i}\r\n")).collect();
    let many = raw_answer(addr, get(addr, "/anmelden", &many).as_bytes()).await;
    assert!(many.starts_with("HTTP/1.1 431") && many.contains("Die Kopfzeilen der Anfrage"), "{many}");
    // a head beyond what is read at all (twice the limit): hyper's own 431, the connection closed
    let huge = format!("X-Fill: {}\r\n", "a".repeat(20_000));
    let huge = raw_answer(addr, get(addr, "/anmelden", &huge).as_bytes()).await;
    assert!(huge.starts_with("HTTP/1.1 431"), "{huge}");

    // a form body announced above console.max_form_bytes: 413 before it is read
    let head = format!(
        "POST /anmelden HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\n"
    );
    let large = raw_answer(addr, head.as_bytes()).await;
    assert!(large.starts_with("HTTP/1.1 413"), "{large}");
    assert!(large.contains("Die gesendeten Daten sind zu umfangreich."), "{large}");
    // sent in chunks without a length: 413 once the limit is passed
    let chunk = "a".repeat(800);
    let chunked = format!(
        "POST /anmelden HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n320\r\n{chunk}\r\n320\r\n{chunk}\r\n0\r\n\r\n"
    );
    let chunked = raw_answer(addr, chunked.as_bytes()).await;
    assert!(chunked.starts_with("HTTP/1.1 413") && chunked.contains("zu umfangreich"), "{chunked}");

    // a request axum refuses (a path that is not UTF-8): 400 as a German page, not plain text
    let bad = raw_answer(addr, get(addr, "/raete/%FF", "").as_bytes()).await;
    assert!(bad.starts_with("HTTP/1.1 400"), "{bad}");
    assert!(bad.contains("<html lang=\"de\">") && bad.contains("Ungültige Anfrage"), "{bad}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_limit_wait_until_one_ends() {
    let app = App::spawn_with(|c| {
        c.console.max_connections = 2;
        c.console.header_timeout_seconds = 60;
    })
    .await;
    let addr = client(&app).addr;
    // two clients hold every slot with half a head each
    let mut holders = Vec::new();
    for _ in 0..2 {
        let mut s = TcpStream::connect(addr).await.expect("connect");
        s.write_all(b"GET /anmelden HTTP/1.1\r\n").await.expect("write");
        holders.push(s);
    }
    // a third is not served while they hold them (its connection waits in the listen queue)
    let mut third = TcpStream::connect(addr).await.expect("the listen queue takes it");
    third.write_all(get(addr, "/anmelden", "").as_bytes()).await.expect("write");
    let mut buf = [0u8; 64];
    let early = tokio::time::timeout(Duration::from_millis(700), third.read(&mut buf)).await;
    assert!(early.is_err(), "answered while both slots were held: {early:?}");
    // one holder goes away: the third is served
    drop(holders.pop());
    let answer = read_all(&mut third, Duration::from_secs(10)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // and the slot is free again for the next
    let next = raw_answer(addr, get(addr, "/anmelden", "").as_bytes()).await;
    assert!(next.starts_with("HTTP/1.1 200"), "{next}");
}
