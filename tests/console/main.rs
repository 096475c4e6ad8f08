//! The Wahlleiter console end to end: the worker (with its console on an ephemeral port) against the real
//! PostgreSQL and RabbitMQ of this machine, driven over HTTP as a browser would (cookies, form tokens).
//! Accounts are made through the command line's path (`nachfolge user add`, the binary itself or its
//! function). The clock is the worker's controllable clock.

#[path = "../support"]
mod support {
    pub mod app;
    pub mod child;
    pub mod smtp_sink;
    pub mod tls;
}

mod access;
mod actions;
mod bar;
mod calendar;
mod client;
mod determination;
mod documents;
mod facts;
mod flow;
mod import;
mod listener;
mod lot;
mod officials;
mod oidc;
mod pages;
mod review;
mod sign_in;
mod vacancy;

use serde_json::{json, Value};
use support::app::{example, App};

pub use client::{Answer, Client};

/// The password of every test account.
pub const PASSWORD: &str = "Stimmzettel-2026!";

/// Register a council through the bus and wait until it is stored.
pub async fn register(app: &App, snapshot: Value) {
    let id = snapshot["body"]["id"].as_str().unwrap_or_default().to_owned();
    app.send("election.registered", snapshot).await;
    app.wait_event("body.registered", |e| e["data"]["body"] == id.as_str()).await;
}

/// The NRW example with an e-mail address for every candidate.
pub fn nrw() -> Value {
    let mut s = example("nrw-election.json");
    for list in s["lists"].as_array_mut().into_iter().flatten() {
        for c in list["candidates"].as_array_mut().into_iter().flatten() {
            let id = c["id"].as_str().unwrap_or_default().to_lowercase();
            c["email"] = json!(format!("{id}@example.org"));
        }
    }
    s
}

/// A client of the app's console.
pub fn client(app: &App) -> Client {
    Client::new(app.worker.as_ref().and_then(|w| w.console_addr).expect("the console listens"))
}

/// `nachfolge user add` as an operator runs it: the binary, the password on standard input.
pub async fn add_user_cli(app: &App, login: &str, role: &str, bodies: &[&str]) {
    use tokio::io::AsyncWriteExt;
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_nachfolge"));
    cmd.args(["user", "add", login, "--role", role]);
    if role == "admin" {
        cmd.arg("--all-councils");
    }
    for b in bodies {
        cmd.args(["--body", b]);
    }
    cmd.env("NACHFOLGE__DATABASE__URL", &app.config.database.url)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("nachfolge user add");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(format!("{PASSWORD}\n").as_bytes()).await.expect("password");
    drop(stdin);
    let out = child.wait_with_output().await.expect("user add ends");
    assert!(out.status.success(), "user add: {}", String::from_utf8_lossy(&out.stderr));
}

/// `nachfolge user add`'s function, the password in a file.
pub async fn add_user(app: &App, login: &str, role: &str, bodies: &[&str]) {
    let file = std::env::temp_dir().join(format!("nachfolge-console-{}-{login}", app.suffix));
    std::fs::write(&file, format!("{PASSWORD}\n")).expect("password file");
    let bodies: Vec<String> = bodies.iter().map(|b| (*b).to_owned()).collect();
    let added =
        nachfolge::console::auth::run_add(&app.config, login, role, &bodies, role == "admin", Some(&file)).await;
    let _ = std::fs::remove_file(&file);
    added.expect("account created");
}

/// The security headers every console answer carries.
pub fn assert_security_headers(a: &Answer) {
    let csp = a.header("content-security-policy").expect("a Content-Security-Policy");
    assert!(csp.contains("default-src 'none'") && !csp.contains("unsafe-inline"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'") && csp.contains("form-action 'self'"), "{csp}");
    assert_eq!(a.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(a.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(a.header("cache-control"), Some("no-store"));
}
