//! The Wahlleiter console in a real browser (issue #15, points 6 and 7): the worker binary (`nachfolge run`,
//! its console on a free loopback port) against the real PostgreSQL and RabbitMQ of this machine and the
//! in-process SMTP sink; Debian's headless Chromium driven by playwright-core (`flow.mjs` in this folder)
//! through the flows a Wahlleiter takes, with axe-core (WCAG 2.1 A/AA) on every page and the keyboard alone.
//!
//! The set-up — an account made with `nachfolge user add`, an election and a vacancy published on the
//! worker's bus as the other suites do — is the operator's and the municipality's part; everything the
//! Wahlleitung does is done in the browser. Afterwards this test checks on the bus and in the mailbox what
//! the browser's clicks caused.
//!
//! Prerequisites (docs/console.md, "Browser and accessibility tests"): Node.js ≥ 20, Debian's `chromium`,
//! and `npm ci` in tests/browser. A missing one fails the test with the command that installs it.
//! `UPDATE_SCREENSHOTS=1` writes the screenshots to docs/console/ (else to target/browser-screenshots/).

#[path = "../support"]
mod support {
    pub mod app;
    pub mod child;
    pub mod smtp_sink;
}

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::{json, Value};
use support::app::{example, observe, publish_command, test_config, unique, Cleanup, Collected};
use support::smtp_sink::{Received, SmtpSink};

/// The password of the test account.
const PASSWORD: &str = "Stimmzettel-2026!";
/// The account the browser signs in with.
const LOGIN: &str = "wahlleitung";

/// The browser the flows run in (Debian's package; never a browser downloaded by a test tool).
fn chromium() -> PathBuf {
    PathBuf::from(std::env::var("NACHFOLGE_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()))
}

fn browser_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// Node.js, Chromium and the npm packages, or a failure that says how to install what is missing.
fn prerequisites() {
    let mut missing = Vec::new();
    match std::process::Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => {
            let v = String::from_utf8_lossy(&out.stdout);
            let major: u32 =
                v.trim().trim_start_matches('v').split('.').next().and_then(|m| m.parse().ok()).unwrap_or(0);
            if major < 20 {
                missing
                    .push(format!("Node.js ≥ 20 (found {}): apt-get install -y nodejs, or from nodejs.org", v.trim()));
            }
        }
        _ => missing.push("Node.js ≥ 20 and npm (`node` is not on PATH): apt-get install -y nodejs npm".to_owned()),
    }
    let chromium = chromium();
    if !chromium.is_file() {
        missing.push(format!(
            "Chromium ({} not found): apt-get install -y chromium chromium-driver (or set NACHFOLGE_CHROMIUM)",
            chromium.display()
        ));
    }
    for package in ["playwright-core", "axe-core"] {
        if !browser_dir().join("node_modules").join(package).join("package.json").is_file() {
            missing.push(format!("the npm package {package}: (cd tests/browser && npm ci)"));
        }
    }
    assert!(
        missing.is_empty(),
        "the browser tests cannot run; install what is missing (.ci/run does so):\n  - {}",
        missing.join("\n  - ")
    );
}

/// The worker binary with its console, the shared services' names of this test, and what the bus carries.
struct Stack {
    config: nachfolge::config::Config,
    console: String,
    smtp: SmtpSink,
    ch: lapin::Channel,
    events: Collected,
    worker: tokio::process::Child,
    log: PathBuf,
    /// Where the browser saves what it downloads (the letter, the announcement).
    downloads: PathBuf,
    _conn: lapin::Connection,
    _cleanup: Cleanup,
}

impl Stack {
    /// `nachfolge run` as an operator starts it, on plain http on loopback (`secure_cookie = false`), its clock
    /// `offset_secs` off the test clock (the real one, or the day `NACHFOLGE_TEST_NOW` pins).
    async fn start(offset_secs: i64) -> Stack {
        let smtp = SmtpSink::start().await;
        let suffix = unique();
        let config = test_config(&suffix, &smtp.url());
        let (conn, ch, events, _dead) = observe(&config).await;
        let cleanup = Cleanup(config.clone());
        let console = free_console_addr();
        let log = std::env::temp_dir().join(format!("nachfolge-browser-{suffix}.log"));
        let worker = spawn_worker(&config, &console, &log, offset_secs);
        let downloads = std::env::temp_dir().join(format!("nachfolge-browser-{suffix}-downloads"));
        std::fs::create_dir_all(&downloads).expect("the downloads folder");
        let mut stack =
            Stack { config, console, smtp, ch, events, worker, log, downloads, _conn: conn, _cleanup: cleanup };
        stack.wait_console(offset_secs).await;
        stack
    }

    /// Stop the worker and start it again on the same database, names and port, its clock `offset_secs` off.
    async fn restart(&mut self, offset_secs: i64) {
        let _ = self.worker.kill().await;
        self.worker = spawn_worker(&self.config, &self.console, &self.log, offset_secs);
        self.wait_console(offset_secs).await;
    }

    /// Wait until the console listens. The port was free when it was picked, but another process (the other
    /// test of this file, an outgoing connection's ephemeral port) may take it before the worker binds it:
    /// then the worker ends with "Address already in use" and is started again on another free port (the
    /// browser steps take the console's address from the stack each time).
    async fn wait_console(&mut self, offset_secs: i64) {
        for _attempt in 0..5 {
            match self.console_listens().await {
                Ok(()) => return,
                Err(log) if log.contains("Address already in use") => {
                    self.console = free_console_addr();
                    self.worker = spawn_worker(&self.config, &self.console, &self.log, offset_secs);
                }
                Err(log) => panic!("nachfolge run ended:\n{log}"),
            }
        }
        panic!("the console found no free port in five attempts:\n{}", self.log_text());
    }

    /// `Err(log)` when the worker ended before its console listened.
    async fn console_listens(&mut self) -> Result<(), String> {
        // up to two minutes: the first start creates and migrates the database, on a machine shared with others
        for _ in 0..2400 {
            if tokio::net::TcpStream::connect(&self.console).await.is_ok() {
                return Ok(());
            }
            if let Ok(Some(status)) = self.worker.try_wait() {
                return Err(format!("({status})\n{}", self.log_text()));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the console did not listen on {}:\n{}", self.console, self.log_text());
    }

    /// The worker's last log lines, for a failure's message.
    fn log_text(&self) -> String {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }

    /// Publish an inbound command on the worker's commands exchange.
    async fn send(&self, ty: &str, data: Value) {
        publish_command(&self.ch, &self.config.amqp.commands_exchange, ty, data)
            .await
            .await
            .expect("the broker takes the command");
    }

    /// Wait for the first event of a type matching `pred`.
    async fn wait_event(&self, ty: &str, pred: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..600 {
            if let Some(e) = self.events.of(ty).into_iter().find(|e| pred(e)) {
                return e;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let seen: Vec<String> = self.events.all().iter().map(|e| e["type"].to_string()).collect();
        panic!("timed out waiting for {ty}; seen: {seen:?}\n{}", self.log_text());
    }

    /// Wait for the first event of one of `types` matching `pred`.
    async fn wait_any(&self, types: &[&str], pred: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..600 {
            if let Some(e) = self.events.all().into_iter().find(|e| types.iter().any(|t| e["type"] == *t) && pred(e)) {
                return e;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("timed out waiting for one of {types:?}\n{}", self.log_text());
    }

    /// Register an election as the election software does, on the bus (the one message the Wahlleitung does
    /// not enter at the console).
    async fn register(&self, election: Value) {
        let body = election["body"]["id"].as_str().unwrap_or_default().to_owned();
        self.send("election.registered", election).await;
        self.wait_event("body.registered", |e| e["data"]["body"] == body.as_str()).await;
    }

    /// `nachfolge user add` as an operator runs it: the binary, the password on standard input.
    async fn add_user(&self, login: &str, role: &str, bodies: &[&str]) {
        use tokio::io::AsyncWriteExt;
        let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_nachfolge"));
        cmd.args(["user", "add", login, "--role", role]);
        if role == "admin" {
            cmd.arg("--all-councils");
        }
        for b in bodies {
            cmd.args(["--body", b]);
        }
        cmd.env("NACHFOLGE__DATABASE__URL", &self.config.database.url)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("nachfolge user add");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(format!("{PASSWORD}\n").as_bytes()).await.expect("password");
        drop(stdin);
        let out = child.wait_with_output().await.expect("user add ends");
        assert!(out.status.success(), "user add: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Run `flow.mjs` with a scenario; returns what it reports (its last line of output, JSON). Fails with
    /// everything the browser script printed when it fails.
    async fn browse(&self, scenario: Value) -> Value {
        let screenshots = if std::env::var("UPDATE_SCREENSHOTS").is_ok_and(|v| v == "1") {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/console")
        } else {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-screenshots")
        };
        std::fs::create_dir_all(&screenshots).expect("screenshot folder");
        let mut scenario = scenario;
        scenario["url"] = json!(format!("http://{}", self.console));
        scenario["login"] = json!(LOGIN);
        scenario["password"] = json!(PASSWORD);
        scenario["chromium"] = json!(chromium());
        scenario["screenshots"] = json!(screenshots);
        scenario["downloads"] = json!(self.downloads);
        let run = tokio::process::Command::new("node")
            .arg("flow.mjs")
            .current_dir(browser_dir())
            .env("NACHFOLGE_BROWSER_SCENARIO", scenario.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .output();
        let out = tokio::time::timeout(Duration::from_secs(300), run)
            .await
            .expect("the browser flow ends within 5 minutes")
            .expect("node runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        print!("{stdout}");
        eprint!("{stderr}");
        assert!(
            out.status.success(),
            "the browser flow failed ({}); see its output above. Worker log:\n{}",
            out.status,
            self.log_text()
        );
        let last = stdout.lines().rev().find(|l| l.starts_with('{')).expect("the flow reports JSON");
        serde_json::from_str(last).expect("the flow's report")
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        let _ = self.worker.start_kill();
        let _ = std::fs::remove_file(&self.log);
        let _ = std::fs::remove_dir_all(&self.downloads);
    }
}

/// A loopback address whose port was free a moment ago.
fn free_console_addr() -> String {
    let port =
        std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free loopback port").port();
    format!("127.0.0.1:{port}")
}

/// `nachfolge run` with the test's names (as tests/support/child.rs gives them), the console on `console`.
fn spawn_worker(
    config: &nachfolge::config::Config,
    console: &str,
    log: &Path,
    offset_secs: i64,
) -> tokio::process::Child {
    let file = std::fs::OpenOptions::new().create(true).append(true).open(log).expect("worker log file");
    let mut child = support::child::Child::new(config.clone(), log.to_owned());
    // off the test clock (pinned by NACHFOLGE_TEST_NOW, else the real one), which the config carries
    child.offset_secs = config.clock.offset_secs + offset_secs;
    tokio::process::Command::new(env!("CARGO_BIN_EXE_nachfolge"))
        .arg("run")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .envs(child.env())
        .env("NACHFOLGE__CONSOLE__ADDR", console)
        .env("NACHFOLGE__CONSOLE__SECURE_COOKIE", "false")
        .stdout(Stdio::null())
        .stderr(file)
        .kill_on_drop(true)
        .spawn()
        .expect("start nachfolge run")
}

/// The e-mail address the example gives a candidate, if any (David Dietrich, NRW's first successor, has none:
/// his notification fails, and the Wahlleitung serves the letter).
fn email_of(example_file: &str, id: &str) -> Option<String> {
    let s = example(example_file);
    let lists = s["lists"].as_array().cloned().unwrap_or_default();
    let found =
        lists.iter().flat_map(|l| l["candidates"].as_array().cloned().unwrap_or_default()).find(|c| c["id"] == id);
    found.and_then(|c| c["email"].as_str().map(str::to_owned))
}

fn person(det: &Value) -> Value {
    json!({"id": det["data"]["successor"]["id"], "name": det["data"]["successor"]["name"]})
}

/// The text of a PDF file as pdftotext extracts it (poppler-utils; `.ci/run` installs it), every run of white
/// space one space.
fn pdftotext(file: &Path) -> String {
    let out = std::process::Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(file)
        .arg("-")
        .output()
        .expect("pdftotext runs (Debian: poppler-utils)");
    assert!(out.status.success(), "pdftotext: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The file the browser downloaded as `name`.
fn downloaded(report: &Value, name: &str) -> PathBuf {
    PathBuf::from(
        report["downloads"][name].as_str().unwrap_or_else(|| panic!("the browser downloaded {name}: {report}")),
    )
}

/// The walkthrough of the README ("Der Weg durch die Konsole"), as a Wahlleitung does it in a browser: the
/// elections come from the election software (the bus); everything else happens in the console — both
/// vacancies reported („Ausscheiden melden“), NRW from service through a refusal to the next successor, his
/// letter (PDF), his service and acceptance, the membership and the announcement; Hessen from a barred
/// successor's service to the proof that the bar ended. Every page checked with axe-core, by keyboard alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wahlleiter_takes_cases_through_the_console_in_a_browser_accessibly() {
    prerequisites();
    // the vacancies and notifications eight days ago; the Wahlleitung's work today
    let mut stack = Stack::start(-8 * 86_400).await;
    // the examples as they are in examples/, as the README's walkthrough loads them
    stack.register(example("nrw-election.json")).await;
    stack.register(example("he-election.json")).await;
    stack.add_user(LOGIN, "wahlleiter", &["musterstadt-rat", "beispielstadt-stvv"]).await;
    let reported = stack
        .browse(json!({
            "phase": "vacancies",
            "nrw": {"body": "musterstadt-rat", "name": "Rat der Stadt Musterstadt",
                    "member": {"id": "L1-02", "name": "Bernd Brandt"},
                    "reason": {"code": "resigned", "label": "Verzicht auf den Sitz"}},
            "he": {"body": "beispielstadt-stvv", "name": "Stadtverordnetenversammlung Beispielstadt",
                   "member": {"id": "W1-02", "name": "Jan Jäger"},
                   "bar": {"id": "W1-05", "name": "Mia Maurer", "reason": "Beamtin der Stadt"},
                   "reason": {"code": "resigned", "label": "Verzicht auf den Sitz"}, "barred": true},
        }))
        .await;
    // the vacancies as the console applied them: determined, recorded by the signed-in user, notified
    let mut det = Vec::new();
    for (key, body) in [("nrw", "musterstadt-rat"), ("he", "beispielstadt-stvv")] {
        let case = reported[key]["case"].as_str().unwrap_or_else(|| panic!("the {key} case: {reported}")).to_owned();
        let d = stack.wait_event("succession.determined", |e| e["data"]["case"] == case.as_str()).await;
        assert_eq!((d["subject"].as_str(), d["recordedby"].as_str()), (Some(body), Some(LOGIN)), "{d}");
        assert_eq!(reported[key]["successor"], d["data"]["successor"]["name"], "the preview named him: {reported}");
        // notified by e-mail, or (no address in the example) the notification failed and goes out by letter
        stack.wait_any(&["successor.notified", "notification.failed"], |e| e["data"]["case"] == case.as_str()).await;
        det.push((case, d));
    }
    let [(nrw_case, nrw_det), (he_case, he_det)] = <[(String, Value); 2]>::try_from(det).expect("two cases");
    assert_eq!(he_det["data"]["barred"], true, "{he_det}");
    // the names the README's walkthrough gives ("Der Weg durch die Konsole")
    assert_eq!(nrw_det["data"]["successor"]["name"], "David Dietrich", "{nrw_det}");
    assert_eq!(he_det["data"]["successor"]["name"], "Mia Maurer", "{he_det}");
    stack.restart(0).await;

    // Hessen's acknowledgement of receipt came back dated five days ago: the period ends in about two days
    let today = nachfolge::deadline::local_date(support::app::test_now());
    let he_served = today - chrono::Duration::days(5);
    let report = stack
        .browse(json!({
            "phase": "work",
            "today": today.to_string(),
            "nrw": {"body": "musterstadt-rat", "name": "Rat der Stadt Musterstadt", "case": nrw_case,
                    "successor": person(&nrw_det), "tomorrow": (today + chrono::Duration::days(1)).to_string()},
            "he": {"body": "beispielstadt-stvv", "name": "Stadtverordnetenversammlung Beispielstadt",
                   "case": he_case, "successor": person(&he_det), "served_on": he_served.to_string()},
        }))
        .await;
    // what the clicks did: the service with its period, recorded by the signed-in user …
    let set = stack.wait_event("deadline.set", |e| e["data"]["case"] == nrw_case.as_str()).await;
    assert_eq!(set["recordedby"], LOGIN, "{set}");
    let last_day: chrono::NaiveDate = serde_json::from_value(set["data"]["last_day"].clone()).expect("last day");
    let german = nachfolge::calendar::german_date(last_day);
    assert_eq!(report["nrw"]["last_day"], german.as_str(), "the browser saw the period's end: {report}");
    // … the refusal, and the next successor determined and notified by mail
    let next = stack
        .wait_event("succession.determined", |e| e["data"]["case"] == nrw_case.as_str() && e["data"]["round"] == 2)
        .await;
    assert_eq!(next["recordedby"], LOGIN, "{next}");
    assert_eq!(report["nrw"]["next_successor"], next["data"]["successor"]["name"], "{report}");
    let next_id = next["data"]["successor"]["id"].as_str().unwrap_or_default();
    let address = email_of("nrw-election.json", next_id).unwrap_or_else(|| panic!("{next_id} has an address"));
    // the notification of the determination (not a period notice, whose Message-ID says `period-notice`)
    let notified = |m: &Received| {
        m.data.contains(&address) && !m.header("Message-ID").unwrap_or_default().contains("period-notice")
    };
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while !stack.smtp.messages().iter().any(notified) {
        assert!(std::time::Instant::now() < until, "the next successor is notified by mail");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Hessen: the service of the barred successor, with the period for the proof
    let he_set = stack.wait_event("deadline.set", |e| e["data"]["case"] == he_case.as_str()).await;
    assert_eq!(he_set["recordedby"], LOGIN, "{he_set}");
    assert_eq!(he_set["data"]["served_on"], he_served.to_string(), "the day typed into the date field: {he_set}");

    // NRW round 2: the letter the browser downloaded, addressed to the next successor, dated today, with the
    // statutory request of § 45 Abs. 6 KWahlG NRW (as tests/console/documents.rs checks it)
    let successor = next["data"]["successor"]["name"].as_str().unwrap_or_default().to_owned();
    assert_eq!(successor, "Emma Engel", "the README's walkthrough names her: {next}");
    let letter = pdftotext(&downloaded(&report, "schreiben.pdf"));
    for want in [
        // Emma Engel's form of address is `frau` in the example (docs/legal.md, "Form of address")
        "Sehr geehrte Frau Engel,".to_owned(),
        format!("Datum {}", nachfolge::calendar::german_date(today)),
        format!("Aktenzeichen {nrw_case} (Runde 2)"),
        "Ich fordere Sie auf, binnen einer Woche nach Zustellung dieser Benachrichtigung schriftlich zu erklären, ob Sie die Wahl annehmen (§ 45 Abs. 6 Satz 2 KWahlG).".to_owned(),
    ] {
        assert!(letter.contains(&want), "{want:?} not in the letter: {letter}");
    }
    // … his service and acceptance: a member, and the announcement the browser downloaded as text
    let round2 =
        |e: &Value| e["data"]["case"] == nrw_case.as_str() && e["data"]["candidate"] == next["data"]["successor"]["id"];
    let set2 = stack.wait_event("deadline.set", round2).await;
    assert_eq!(set2["recordedby"], LOGIN, "{set2}");
    let joined = stack
        .wait_event("membership.changed", |e| {
            e["data"]["person"]["id"] == next["data"]["successor"]["id"] && e["data"]["change"] == "joined"
        })
        .await;
    assert_eq!(joined["recordedby"], LOGIN, "{joined}");
    let issued = stack.wait_event("announcement.issued", |e| e["data"]["case"] == nrw_case.as_str()).await;
    let text = std::fs::read_to_string(downloaded(&report, "bekanntmachung.txt")).expect("the announcement's text");
    assert_eq!(Some(text.as_str()), issued["data"]["text"].as_str(), "the downloaded text is the announcement's");
    assert!(text.contains(&successor), "{text}");
    // Hessen: the proof, and with it the full membership
    let cured = stack
        .wait_event("membership.changed", |e| {
            e["data"]["person"]["id"] == he_det["data"]["successor"]["id"] && e["data"]["voting_right"] == true
        })
        .await;
    assert_eq!(cured["recordedby"], LOGIN, "{cured}");

    let violations = report["violations"].as_array().map_or(0, Vec::len);
    assert_eq!(violations, 0, "axe-core found violations: {report}");
    let pages = report["pages"].as_array().map_or(0, Vec::len);
    assert!(pages >= 20, "axe-core checked every page of the flows ({pages}): {report}");
    for shot in report["screenshots"].as_array().into_iter().flatten() {
        let path = PathBuf::from(shot.as_str().unwrap_or_default());
        let png = std::fs::read(&path).expect("the screenshot is written");
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{} is a PNG", path.display());
    }
}

/// The Hessen example as a majority election in which W1-05 and W1-06 tie (990 votes each), as
/// tests/console/lot.rs builds it: the next place is decided by lot (§ 34 Abs. 1a KWG).
fn hessen_majority_with_a_tie() -> Value {
    let mut s = example("he-election.json");
    s["body"]["electoral_system"] = json!("majority");
    for c in s["lists"][0]["candidates"].as_array_mut().into_iter().flatten() {
        let id = c["id"].as_str().unwrap_or_default().to_lowercase();
        c["email"] = json!(format!("{id}@example.org"));
    }
    s["lists"][0]["candidates"][4]["facts"] = json!([]);
    s
}

/// The console's commands of `ty` for `body` in the audit log, as the console wrote them.
async fn audit(config: &nachfolge::config::Config, body: &str, ty: &str) -> Vec<Value> {
    let db = sqlx::PgPool::connect(&config.database.url).await.expect("the test database");
    let rows: Vec<String> = sqlx::query_scalar(
        "SELECT payload::text FROM audit_log WHERE body_id = $1 AND kind = 'command' AND type = $2 ORDER BY seq",
    )
    .bind(body)
    .bind(ty)
    .fetch_all(&db)
    .await
    .expect("the audit log");
    rows.iter().map(|r| serde_json::from_str(r).expect("an audit entry is JSON")).collect()
}

/// The console's decisions in a browser, by keyboard, axe-core on every page: a tie reported in a majority
/// election and the lot entered („Losergebnis erfassen“, `lot.drawn`); a proposal confirmed („Nachfolge
/// feststellen“, `determination.confirmed`, Bayern's `determination: confirm`); a review decision on a
/// determined case („Entscheidung im Prüfungsverfahren erfassen“, `review.decided`, NRW).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wahlleiter_enters_a_lot_a_confirmation_and_a_review_decision_in_a_browser_accessibly() {
    prerequisites();
    const TIE: &str = "beispielstadt-stvv";
    const BY: &str = "musterberg-gemeinderat";
    const NRW: &str = "musterstadt-rat";
    // the vacancies ten minutes ago: the lot, the confirmation and the decision come after them
    let mut stack = Stack::start(-600).await;
    stack.register(hessen_majority_with_a_tie()).await;
    stack.register(example("by-election.json")).await;
    stack.register(example("nrw-election.json")).await;
    stack.add_user(LOGIN, "wahlleiter", &[TIE, BY, NRW]).await;
    let vacancy = |body: &str, member: &str| json!({"body": body, "member": member, "reason": "resigned", "effective_at": (support::app::test_now() - chrono::Duration::minutes(10)).to_rfc3339()});
    // the municipalities' set-up on the bus: Bayern's proposal, NRW's determination
    stack.send("vacancy.reported", vacancy(BY, "B1-02")).await;
    let proposed = stack.wait_event("succession.proposed", |e| e["subject"] == BY).await;
    let by_case = proposed["data"]["case"].as_str().expect("the Bayern case").to_owned();
    assert_eq!(proposed["data"]["successor"]["name"], "Dominik Dorn", "as tests/console/determination.rs: {proposed}");
    stack.send("vacancy.reported", vacancy(NRW, "L1-02")).await;
    let nrw_det = stack.wait_event("succession.determined", |e| e["subject"] == NRW).await;
    let nrw_case = nrw_det["data"]["case"].as_str().expect("the NRW case").to_owned();
    let tie = json!({"body": TIE, "name": "Stadtverordnetenversammlung Beispielstadt",
                     "member": {"id": "W1-02", "name": "Jan Jäger"},
                     "reason": {"code": "resigned", "label": "Verzicht auf den Sitz"},
                     "winner": {"id": "W1-06", "name": "Nils Neumann"}});
    // the tie reported in the console
    let reported = stack.browse(json!({"phase": "lot", "lot": tie.clone()})).await;
    let tie_case = reported["lot"]["case"].as_str().unwrap_or_else(|| panic!("the tie's case: {reported}")).to_owned();
    let requested = stack.wait_event("lot.requested", |e| e["data"]["case"] == tie_case.as_str()).await;
    assert_eq!(requested["recordedby"], LOGIN, "{requested}");
    stack.restart(0).await;

    let mut lot = tie;
    lot["case"] = json!(tie_case);
    let confirmed_by = "Gemeinderat Musterberg, Beschluss Nr. 12";
    let report = stack
        .browse(json!({
            "phase": "decisions",
            "lot": lot,
            "by": {"body": BY, "name": "Gemeinderat Musterberg",
                   "case": by_case, "proposed": person(&proposed), "confirmed_by": confirmed_by},
            "review": {"body": NRW, "name": "Rat der Stadt Musterstadt", "case": nrw_case, "successor": person(&nrw_det)},
        }))
        .await;

    // the lot: the drawn candidate determined, recorded by the signed-in user
    let det = stack.wait_event("succession.determined", |e| e["data"]["case"] == tie_case.as_str()).await;
    assert_eq!((det["data"]["successor"]["id"].as_str(), det["recordedby"].as_str()), (Some("W1-06"), Some(LOGIN)));
    let drawn = audit(&stack.config, TIE, "lot.drawn").await;
    assert_eq!((drawn.len(), drawn[0]["recorded_by"].as_str()), (1, Some(LOGIN)), "{drawn:?}");
    assert_eq!(drawn[0]["winner"], "W1-06", "{drawn:?}");
    // the proposal confirmed: Bayern's successor determined, with the confirmation typed in
    let det = stack.wait_event("succession.determined", |e| e["data"]["case"] == by_case.as_str()).await;
    assert_eq!(det["data"]["successor"]["id"], proposed["data"]["successor"]["id"], "{det}");
    assert_eq!((det["data"]["confirmed_by"].as_str(), det["recordedby"].as_str()), (Some(confirmed_by), Some(LOGIN)));
    let confirmed = audit(&stack.config, BY, "determination.confirmed").await;
    assert_eq!((confirmed.len(), confirmed[0]["recorded_by"].as_str()), (1, Some(LOGIN)), "{confirmed:?}");
    // the review decision: recorded by the signed-in user, announced
    let decided = audit(&stack.config, NRW, "review.decided").await;
    assert_eq!((decided.len(), decided[0]["recorded_by"].as_str()), (1, Some(LOGIN)), "{decided:?}");
    assert_eq!((decided[0]["outcome"].as_str(), decided[0]["final"].as_bool()), (Some("confirmed"), Some(true)));
    let ann = stack
        .wait_event("announcement.issued", |e| e["data"]["case"] == nrw_case.as_str() && e["data"]["kind"] == "review")
        .await;
    assert_eq!(ann["recordedby"], LOGIN, "{ann}");

    let violations = report["violations"].as_array().map_or(0, Vec::len);
    assert_eq!(violations, 0, "axe-core found violations: {report}");
    let pages = report["pages"].as_array().map_or(0, Vec::len);
    assert!(pages >= 15, "axe-core checked every page of the flows ({pages}): {report}");
}

/// „Wahlergebnis übernehmen“ in a browser (issue #24): the Wahlleitung of a body not yet registered uploads the
/// published Oldenburg 2026 files (read where they lie, `../shared/election-exports/`), types the body's facts,
/// sees the preview with the 52 seats and the import report, gives one seat to another candidate in the
/// correction form, confirms and sees the council — axe-core on every page. The Rust side checks that the
/// snapshot went through the command path: `body.registered` and the audit entry with the login, the corrected
/// seat in the registered data.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wahlleiter_takes_over_an_election_result_from_its_published_files_in_a_browser_accessibly() {
    prerequisites();
    const BODY: &str = "oldenburg-rat";
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/election-exports/ni-oldenburg-2026-ratswahl-votemanager");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the Oldenburg files")
        .map(|e| e.expect("entry").path().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let stack = Stack::start(0).await;
    stack.add_user(LOGIN, "wahlleiter", &[BODY]).await;
    let report = stack
        .browse(json!({
            "phase": "import",
            "election": {
                "files": files, "land": "NI", "land_name": "Niedersachsen", "body": BODY,
                "name": "Rat der Stadt Oldenburg", "term_start": "2026-11-01", "term_end": "2031-10-31",
                "officer": {"name": "Wahlleitung der Stadt Oldenburg", "email": "wahlleitung@example.org",
                            "address": "Markt 1, 26122 Oldenburg"},
                "court": {"name": "Verwaltungsgericht Oldenburg", "address": "Schloßplatz 10, 26122 Oldenburg"},
                "seats": 52,
                "correction": {"from": "L1-WB1-01", "to": "L1-WB1-07", "email": "a.k@example.org"},
            },
        }))
        .await;

    let registered = stack.wait_event("body.registered", |e| e["data"]["body"] == BODY).await;
    assert_eq!(registered["recordedby"], LOGIN, "{registered}");
    let entries = audit(&stack.config, BODY, "election.registered").await;
    assert_eq!((entries.len(), entries[0]["recorded_by"].as_str()), (1, Some(LOGIN)), "{entries:?}");
    let cands: Vec<&Value> = entries[0]["lists"]
        .as_array()
        .expect("the snapshot's lists")
        .iter()
        .flat_map(|l| l["candidates"].as_array().expect("candidates"))
        .collect();
    assert_eq!(cands.iter().filter(|c| !c["seat"].is_null()).count(), 52);
    let seat = |id: &str| cands.iter().find(|c| c["id"] == id).map(|c| c["seat"]["via"].clone());
    assert_eq!((seat("L1-WB1-07"), seat("L1-WB1-01")), (Some(json!("personal_vote")), Some(Value::Null)));

    let violations = report["violations"].as_array().map_or(0, Vec::len);
    assert_eq!(violations, 0, "axe-core found violations: {report}");
    let pages = report["pages"].as_array().map_or(0, Vec::len);
    assert!(pages >= 6, "axe-core checked every page of the flow ({pages}): {report}");
}
