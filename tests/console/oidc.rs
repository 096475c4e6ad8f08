//! Sign-in through an identity provider: a real OpenID provider (node-oidc-provider, tests/oidc-provider/)
//! started by the test, its sign-in form filled in with plain HTTP requests, against the real console and
//! PostgreSQL. The provider's ID tokens are RS256-signed with a key it makes at start; its accounts carry
//! their roles in the claim `nachfolge_roles`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};

use crate::support::app::{example, App};
use crate::support::tls::TestPki;
use crate::{add_user, client, nrw, register, Client, PASSWORD};

const CLIENT_ID: &str = "nachfolge-konsole";
/// The password of the provider's test accounts (tests/oidc-provider/provider.mjs).
const IDP_PASSWORD: &str = "Dienstkonto-2026!";
const CALLBACK: &str = "/anmelden/dienstkonto/rueckkehr";

fn provider_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oidc-provider")
}

/// node and npm, and the provider's packages (`npm ci` once when they are missing); fails loudly.
fn install_provider() {
    static INSTALLED: std::sync::Mutex<bool> = std::sync::Mutex::new(false);
    let mut installed = INSTALLED.lock().unwrap_or_else(|p| p.into_inner());
    if *installed {
        return;
    }
    for tool in ["node", "npm"] {
        let ok = std::process::Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success());
        assert!(
            ok,
            "the sign-in tests start a real OpenID provider (node-oidc-provider) and need `{tool}` on PATH: \
             install Node.js 20.19 or newer with npm (Debian: nodejs, npm), then run `npm ci` in tests/oidc-provider"
        );
    }
    let dir = provider_dir();
    if !dir.join("node_modules/oidc-provider/package.json").is_file() {
        let out = std::process::Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .output()
            .expect("npm ci runs");
        assert!(
            out.status.success(),
            "`npm ci` in tests/oidc-provider failed (the npm registry must be reachable once):\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    *installed = true;
}

/// The provider as a child process (killed when dropped).
struct Provider {
    issuer: String,
    secret: String,
    _child: tokio::process::Child,
}

impl Provider {
    /// Started for the console on `port`; over HTTPS with the test PKI's server certificate when `tls`.
    async fn start(port: u16, client_secret: &str, tls: Option<&TestPki>) -> Provider {
        install_provider();
        let mut command = tokio::process::Command::new("node");
        if let Some(pki) = tls {
            command.env("TLS_CERT", &pki.cert_file).env("TLS_KEY", &pki.key_file);
        }
        let mut child = command
            .arg("provider.mjs")
            .current_dir(provider_dir())
            .env("REDIRECT_URI", format!("http://127.0.0.1:{port}{CALLBACK}"))
            .env("CLIENT_SECRET", client_secret)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("node starts tests/oidc-provider/provider.mjs");
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let first = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
            .await
            .expect("the provider is ready within 30 s")
            .expect("read")
            .expect("the provider prints its issuer");
        let ready: serde_json::Value = serde_json::from_str(&first).expect("a line of JSON");
        let issuer = ready["issuer"].as_str().expect("issuer").to_owned();
        // drain what it prints later (notices), so that it never blocks on a full pipe
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Provider { issuer, secret: client_secret.to_owned(), _child: child }
    }
}

/// The browser's side at the provider: plain HTTP, no redirects followed, a cookie jar by name.
struct Idp {
    http: reqwest::Client,
    issuer: String,
    cookies: BTreeMap<String, String>,
}

struct IdpAnswer {
    status: u16,
    location: Option<String>,
}

impl Idp {
    /// A client of `issuer` that trusts the test CA (for a provider over HTTPS).
    fn new(issuer: &str) -> Idp {
        use rustls::pki_types::pem::PemObject;
        let mut roots = rustls::RootCertStore::empty();
        let pki = TestPki::get();
        for cert in rustls::pki_types::CertificateDer::pem_file_iter(&pki.ca_file).expect("the test CA") {
            roots.add(cert.expect("a certificate")).expect("the test CA as a root");
        }
        let tls =
            rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .expect("TLS versions")
                .with_root_certificates(roots)
                .with_no_client_auth();
        let http = reqwest::Client::builder()
            .tls_backend_preconfigured(tls)
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        Idp { http, issuer: issuer.to_owned(), cookies: BTreeMap::new() }
    }

    fn absolute(&self, url: &str) -> String {
        if url.starts_with('/') {
            format!("{}{url}", self.issuer)
        } else {
            url.to_owned()
        }
    }

    async fn send(&mut self, request: reqwest::RequestBuilder) -> IdpAnswer {
        let jar: Vec<String> = self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let response = request.header("cookie", jar.join("; ")).send().await.expect("the provider answers");
        for c in response.headers().get_all("set-cookie") {
            let c = c.to_str().unwrap_or_default();
            if let Some((name, rest)) = c.split_once('=') {
                self.cookies.insert(name.to_owned(), rest.split(';').next().unwrap_or_default().to_owned());
            }
        }
        let status = response.status().as_u16();
        let location = response.headers().get("location").and_then(|l| l.to_str().ok()).map(|l| self.absolute(l));
        let _ = response.text().await;
        IdpAnswer { status, location }
    }

    async fn get(&mut self, url: &str) -> IdpAnswer {
        let request = self.http.get(self.absolute(url));
        self.send(request).await
    }

    async fn post(&mut self, url: &str, form: &[(&str, &str)]) -> IdpAnswer {
        let body = form_urlencoded::Serializer::new(String::new()).extend_pairs(form).finish();
        let request =
            self.http.post(self.absolute(url)).header("content-type", "application/x-www-form-urlencoded").body(body);
        self.send(request).await
    }
}

/// A free port on the loopback address (the console's: its callback is registered at the provider first).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// A console on `port` with sign-in through `provider`, and two councils (one granted by the provider's
/// `wahlleitung` account, one not).
async fn console_for(provider: &Provider, port: u16, ca_file: Option<&Path>) -> App {
    let (issuer, secret, ca_file) = (provider.issuer.clone(), provider.secret.clone(), ca_file.map(Path::to_path_buf));
    let app = App::spawn_with(move |c| {
        c.console.addr = format!("127.0.0.1:{port}");
        c.console.oidc.issuer = issuer;
        c.console.oidc.client_id = CLIENT_ID.into();
        c.console.oidc.client_secret = secret;
        c.console.oidc.redirect_url = format!("http://127.0.0.1:{port}{CALLBACK}");
        c.console.oidc.scopes = "openid profile nachfolge".into();
        c.console.oidc.ca_file = ca_file;
    })
    .await;
    register(&app, nrw()).await;
    register(&app, example("he-election.json")).await;
    app
}

/// A console with sign-in through a freshly started provider (plain http on loopback).
async fn console_with_provider() -> (App, Provider) {
    let port = free_port();
    let provider = Provider::start(port, &uuid::Uuid::new_v4().simple().to_string(), None).await;
    (console_for(&provider, port, None).await, provider)
}

/// From the console's sign-in link through the provider's form: the console path (with the query) the
/// provider sends the browser back to. `tamper` may change the authorization request on its way.
async fn through_provider(
    browser: &mut Client,
    issuer: &str,
    login: &str,
    tamper: impl Fn(String) -> String,
) -> String {
    through_provider_from(browser, "/anmelden/dienstkonto", issuer, login, tamper).await
}

/// [`through_provider`] from the console's sign-in link `start` (e.g. with `?weiter=`).
async fn through_provider_from(
    browser: &mut Client,
    start: &str,
    issuer: &str,
    login: &str,
    tamper: impl Fn(String) -> String,
) -> String {
    // a browser new to the provider, so that it asks for the password (no single sign-on session yet)
    let mut idp = Idp::new(issuer);
    let start = browser.get(start).await;
    assert_eq!(start.status, 303, "{}", start.body);
    let flow = start.set_cookies().into_iter().find(|c| c.starts_with("nachfolge-dienstkonto=")).expect("flow cookie");
    assert!(flow.contains("HttpOnly") && flow.contains("SameSite=Lax") && flow.contains("Max-Age=600"), "{flow}");
    let auth = start.header("location").expect("to the provider").to_owned();
    assert!(auth.starts_with(&idp.issuer), "{auth}");
    for part in ["response_type=code", "code_challenge_method=S256", "code_challenge=", "nonce=", "state="] {
        assert!(auth.contains(part), "{part} in {auth}");
    }
    let to_form = idp.get(&tamper(auth)).await;
    assert_eq!(to_form.status, 303);
    let form = to_form.location.expect("to the sign-in form");
    assert_eq!(idp.get(&form).await.status, 200);
    let wrong = idp.post(&form, &[("login", login), ("password", "falsch")]).await;
    assert_eq!(wrong.status, 401, "the provider checks the password");
    let signed = idp.post(&form, &[("login", login), ("password", IDP_PASSWORD)]).await;
    assert_eq!(signed.status, 303);
    let back = idp.get(&signed.location.expect("resume")).await;
    assert_eq!(back.status, 303);
    let back = back.location.expect("back to the console");
    let at = back.find(CALLBACK).expect("the console's callback");
    back[at..].to_owned()
}

/// `path?query` with the parameter `name` set to `value`.
fn with_param(url: &str, name: &str, value: &str) -> String {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .map(|(k, v)| {
            let v = if k == name { value.to_owned() } else { v.into_owned() };
            (k.into_owned(), v)
        })
        .collect();
    format!("{path}?{}", form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish())
}

fn param(url: &str, name: &str) -> String {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == name).map(|(_, v)| v.into_owned()).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wahlleiter_signs_in_through_the_provider_sees_the_granted_council_only_and_signs_out() {
    let (app, provider) = console_with_provider().await;
    add_user(&app, "lokal", "viewer", &["beispielstadt-stvv"]).await;
    let mut browser = client(&app);

    // the sign-in page offers both ways
    let page = browser.get("/anmelden").await;
    assert!(page.body.contains("<a href=\"/anmelden/dienstkonto\">Mit Dienstkonto anmelden</a>"), "{}", page.body);
    assert!(page.body.contains("<label for=\"login\">Anmeldename</label>"), "{}", page.body);

    let back = through_provider(&mut browser, &provider.issuer, "wahlleitung", |u| u).await;
    let done = browser.get(&back).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("<meta http-equiv=\"refresh\" content=\"0; url=/raete\">"), "{}", done.body);
    let session = done.set_cookies().into_iter().find(|c| c.starts_with("nachfolge=")).expect("session cookie");
    assert!(session.contains("HttpOnly") && session.contains("SameSite=Strict"), "{session}");
    assert!(!browser.cookies.contains_key("nachfolge-dienstkonto"), "the sign-in's cookie is deleted");

    // the council of the claim, as a Wahlleiter; the other council does not exist for this user
    let list = browser.get("/raete").await;
    assert_eq!(list.status, 200, "{}", list.body);
    assert!(list.body.contains("Rat der Stadt Musterstadt") && list.body.contains("wahlleitung"), "{}", list.body);
    assert!(!list.body.contains("oidc:"), "the name is shown, not the recorded id: {}", list.body);
    assert!(!list.body.contains("Beispielstadt"), "{}", list.body);
    assert_eq!(browser.get("/raete/musterstadt-rat").await.status, 200);
    assert_eq!(browser.get("/raete/beispielstadt-stvv").await.status, 404);
    assert_eq!(browser.get("/bodies/beispielstadt-stvv").await.status, 404);
    assert_eq!(browser.get("/bodies/musterstadt-rat").await.status, 200);

    // the Wahlleiter acts, and the user signed in through the provider is who recorded it
    app.send(
        "vacancy.reported",
        serde_json::json!({"body": "musterstadt-rat", "member": "L1-01", "reason": "died", "effective_at": "2026-05-04T10:00:00+02:00"}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    let path = format!("/raete/musterstadt-rat/faelle/{case}/zustellung");
    let form = browser.get(&path).await;
    assert_eq!(form.status, 200, "{}", form.body);
    let csrf = form.csrf().expect("the form's token");
    let today = nachfolge::deadline::local_date(app.now()).to_string();
    let fields = [("candidate", "L1-06"), ("method", "certificate"), ("on", today.as_str()), ("csrf", csrf.as_str())];
    let preview = browser.post(&format!("{path}/vorschau"), &fields).await;
    let at = preview.body.find("name=\"message_id\" value=\"").expect("the confirm form") + 25;
    let message_id = preview.body[at..at + 36].to_owned();
    let mut confirm = fields.to_vec();
    confirm.push(("message_id", message_id.as_str()));
    assert_eq!(browser.post(&path, &confirm).await.status, 200);
    let set = app.wait_event("deadline.set", |_| true).await;
    // recorded by the provider's stable `sub` with its issuer, not by the name it shows
    let recorded = format!("oidc:wahlleitung@{}", provider.issuer);
    assert_eq!(set["recordedby"], recorded.as_str(), "{set}");

    // the session is marked as the provider's, with the claim's roles (the two entries not understood left out)
    let db = app.db().await;
    let (login, origin, grants): (String, String, String) =
        sqlx::query_as("SELECT login, origin, grants::text FROM console_sessions")
            .fetch_one(&db)
            .await
            .expect("one session");
    assert_eq!((login.as_str(), origin.as_str()), (recorded.as_str(), "oidc"));
    let name: Option<String> =
        sqlx::query_scalar("SELECT name FROM console_sessions").fetch_one(&db).await.expect("the name");
    assert_eq!(name.as_deref(), Some("wahlleitung"), "the name claim is what is shown");
    let grants: serde_json::Value = serde_json::from_str(&grants).expect("json");
    assert_eq!(grants, serde_json::json!([{"body": "musterstadt-rat", "role": "wahlleiter"}]));
    let outcome: i64 =
        sqlx::query_scalar("SELECT count(*) FROM console_oidc_sign_ins").fetch_one(&db).await.expect("n");
    assert_eq!(outcome, 0, "the sign-in was taken");

    // sign-out ends the console's session
    let csrf = list.csrf().expect("the sign-out form's token");
    let token = browser.cookies.get("nachfolge").cloned().expect("token");
    let out = browser.post("/abmelden", &[("csrf", csrf.as_str())]).await;
    assert_eq!((out.status, out.header("location")), (303, Some("/anmelden")));
    browser.cookies.insert("nachfolge".into(), token);
    assert_eq!(browser.get("/raete").await.status, 303, "the old cookie signs nobody in");

    // local accounts keep working beside the provider
    let mut local = client(&app);
    assert_eq!(local.sign_in("lokal", PASSWORD).await.status, 303);
    let list = local.get("/raete").await;
    assert!(list.body.contains("Beispielstadt") && !list.body.contains("Musterstadt"), "{}", list.body);

    // a new password, or deleting the account, still ends a local account's sessions (their foreign key to
    // console_users gave way to the provider's sessions; the store deletes them itself)
    add_user(&app, "zweitzugang", "viewer", &["beispielstadt-stvv"]).await;
    let mut second = client(&app);
    assert_eq!(second.sign_in("zweitzugang", PASSWORD).await.status, 303);
    let file = std::env::temp_dir().join(format!("nachfolge-oidc-test-{}", app.suffix));
    std::fs::write(&file, "ein-neues-Passwort-2026\n").expect("password file");
    nachfolge::console::auth::run_passwd(&app.config, "zweitzugang", Some(&file)).await.expect("passwd");
    let _ = std::fs::remove_file(&file);
    assert_eq!(second.get("/raete").await.status, 303, "a new password ends the sessions");
    assert_eq!(local.get("/raete").await.status, 200, "of that account only");
    nachfolge::console::auth::run_delete(&app.config, "lokal").await.expect("deleted");
    assert_eq!(local.get("/raete").await.status, 303, "deleting the account ends its sessions");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_state_a_replayed_code_a_wrong_nonce_another_issuer_an_old_sign_in_and_no_role_are_refused() {
    let (app, provider) = console_with_provider().await;
    let db = app.db().await;
    let db = &db;
    let sessions = move || async move {
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM console_sessions").fetch_one(db).await.expect("n");
        n
    };

    // a wrong state: refused, and the sign-in is used up (the right answer afterwards finds nothing)
    let mut browser = client(&app);
    let back = through_provider(&mut browser, &provider.issuer, "wahlleitung", |u| u).await;
    let wrong = browser.get(&with_param(&back, "state", &"0".repeat(64))).await;
    assert_eq!(wrong.status, 400, "{}", wrong.body);
    assert!(wrong.body.contains("konnte nicht bestätigt werden"), "{}", wrong.body);
    assert!(!browser.cookies.contains_key("nachfolge"));
    let late = browser.get(&back).await;
    assert_eq!(late.status, 400);
    assert!(late.body.contains("abgelaufen oder ungültig"), "{}", late.body);
    assert_eq!(sessions().await, 0);

    // the provider's answer in another browser (without the sign-in's cookie): refused
    let mut browser = client(&app);
    let back = through_provider(&mut browser, &provider.issuer, "wahlleitung", |u| u).await;
    let mut foreign = client(&app);
    assert_eq!(foreign.get(&back).await.status, 400);
    assert_eq!(sessions().await, 0);

    // a replayed code: signed in once; the same answer again, and the code under a new sign-in's state
    let mut browser = client(&app);
    let back = through_provider(&mut browser, &provider.issuer, "wahlleitung", |u| u).await;
    assert_eq!(browser.get(&back).await.status, 200);
    assert_eq!(sessions().await, 1);
    let mut again = client(&app);
    let start = again.get("/anmelden/dienstkonto").await;
    let state = param(start.header("location").expect("to the provider"), "state");
    let replay = again.get(&with_param(&back, "state", &state)).await;
    assert_eq!(replay.status, 400, "the provider refuses a code used before: {}", replay.body);
    assert!(replay.body.contains("konnte nicht bestätigt werden"), "{}", replay.body);
    assert_eq!(browser.get(&back).await.status, 400, "the same answer twice");
    assert_eq!(sessions().await, 1);

    // a wrong nonce: the provider puts the nonce it was sent into the ID token; the console compares
    let mut browser = client(&app);
    let back =
        through_provider(&mut browser, &provider.issuer, "wahlleitung", |u| with_param(&u, "nonce", "untergeschoben"))
            .await;
    let refused = browser.get(&back).await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("konnte nicht bestätigt werden"), "{}", refused.body);
    assert_eq!(sessions().await, 1);

    // an account without a role for the console: no session
    let mut browser = client(&app);
    let back = through_provider(&mut browser, &provider.issuer, "ohne-rolle", |u| u).await;
    let none = browser.get(&back).await;
    assert_eq!(none.status, 403, "{}", none.body);
    assert!(none.body.contains("keine Rolle für die Nachfolge-Konsole"), "{}", none.body);
    assert_eq!(sessions().await, 1);

    // the answer naming another issuer (RFC 9207: a mixed-up answer of another provider)
    let mut browser = client(&app);
    let back = through_provider(&mut browser, &provider.issuer, "wahlleitung", |u| u).await;
    assert_eq!(param(&back, "iss"), provider.issuer, "the provider names itself");
    let mixed = browser.get(&with_param(&back, "iss", "https://andere.example.org")).await;
    assert_eq!(mixed.status, 400, "{}", mixed.body);

    // the user cancelled at the provider: its error answer with the right state
    let mut browser = client(&app);
    let start = browser.get("/anmelden/dienstkonto").await;
    let state = param(start.header("location").expect("to the provider"), "state");
    let cancelled = browser.get(&format!("{CALLBACK}?error=access_denied&state={state}")).await;
    assert_eq!(cancelled.status, 403, "{}", cancelled.body);
    assert!(cancelled.body.contains("abgebrochen oder abgelehnt"), "{}", cancelled.body);

    // a sign-in older than ten minutes (the console's clock) has ended
    let mut browser = client(&app);
    let back = through_provider(&mut browser, &provider.issuer, "wahlleitung", |u| u).await;
    app.advance(chrono::Duration::minutes(11));
    let ended = browser.get(&back).await;
    assert_eq!(ended.status, 400, "{}", ended.body);
    assert!(ended.body.contains("abgelaufen oder ungültig"), "{}", ended.body);
    assert_eq!(sessions().await, 1);

    // counted by outcome on /metrics, without a name
    let metrics = app.worker.as_ref().expect("worker").shared.metrics.render();
    assert!(metrics.contains("nachfolge_console_oidc_sign_ins_total{outcome=\"refused\"} 8"), "{metrics}");
    assert!(metrics.contains("nachfolge_console_oidc_sign_ins_total{outcome=\"cancelled\"} 1"), "{metrics}");
    assert!(!metrics.contains("wahlleitung"), "no login in the metrics");
    assert!(metrics.contains("nachfolge_console_oidc_sign_ins_total{outcome=\"no_role\"} 1"), "{metrics}");
    assert!(metrics.contains("nachfolge_console_oidc_sign_ins_total{outcome=\"success\"} 1"), "{metrics}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_provider_with_a_private_ca_is_reached_over_https_with_the_ca_file_only() {
    let pki = TestPki::get();
    let port = free_port();
    let provider = Provider::start(port, &uuid::Uuid::new_v4().simple().to_string(), Some(pki)).await;
    assert!(provider.issuer.starts_with("https://127.0.0.1:"), "{}", provider.issuer);

    // without console.oidc.ca_file the provider's certificate is not trusted: no sign-in, a German reason
    let untrusting = console_for(&provider, free_port(), None).await;
    let mut browser = client(&untrusting);
    let down = browser.get("/anmelden/dienstkonto").await;
    assert_eq!(down.status, 503, "{}", down.body);
    assert!(down.body.contains("Der Anmeldedienst ist gerade nicht erreichbar"), "{}", down.body);
    assert!(down.body.contains("Mit Dienstkonto anmelden"), "the sign-in page again: {}", down.body);
    drop(untrusting);

    // with it: discovery, keys and token over HTTPS, and the council of the claim
    let app = console_for(&provider, port, Some(&pki.ca_file)).await;
    let mut browser = client(&app);
    let back = through_provider(&mut browser, &provider.issuer, "wahlleitung", |u| u).await;
    assert_eq!(browser.get(&back).await.status, 200);
    let list = browser.get("/raete").await;
    assert!(list.body.contains("Rat der Stadt Musterstadt"), "{}", list.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_provider_the_sign_in_offers_local_accounts_only() {
    let app = App::spawn().await;
    let mut browser = client(&app);
    let page = browser.get("/anmelden").await;
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("Dienstkonto"), "{}", page.body);
    assert_eq!(browser.get("/anmelden/dienstkonto").await.status, 404);
    assert_eq!(browser.get("/anmelden/dienstkonto/rueckkehr?code=x&state=y").await.status, 404);
}

/// Issue 26, point 11: a deep link survives the sign-in through the provider too: the sign-in page's link
/// carries it, a `SameSite=Lax` cookie keeps it while the browser is at the provider, and the page after
/// the callback leads there; a path of another site is not taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deep_link_survives_the_sign_in_through_the_provider() {
    let (app, provider) = console_with_provider().await;
    let mut browser = client(&app);
    let wanted = "/raete/musterstadt-rat";
    let first = browser.get(wanted).await;
    let to_sign_in = first.header("location").expect("to the sign-in").to_owned();
    assert_eq!(to_sign_in, "/anmelden?weiter=%2Fraete%2Fmusterstadt-rat");
    let page = browser.get(&to_sign_in).await;
    let link = "/anmelden/dienstkonto?weiter=%2Fraete%2Fmusterstadt-rat";
    assert!(page.body.contains(&format!("<a href=\"{link}\">Mit Dienstkonto anmelden</a>")), "{}", page.body);
    let back = through_provider_from(&mut browser, link, &provider.issuer, "wahlleitung", |u| u).await;
    assert!(browser.cookies.contains_key("nachfolge-weiter"), "kept while at the provider");
    let done = browser.get(&back).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("content=\"0; url=/raete/musterstadt-rat\""), "{}", done.body);
    assert!(
        done.body.contains("<a href=\"/raete/musterstadt-rat\">Weiter zur angeforderten Seite</a>"),
        "{}",
        done.body
    );
    assert!(!browser.cookies.contains_key("nachfolge-weiter"), "deleted after the callback");
    assert_eq!(browser.get(wanted).await.status, 200);

    // another site's address is not taken
    let mut other = client(&app);
    let evil = "/anmelden/dienstkonto?weiter=%2F%2Fevil.example%2F";
    let back = through_provider_from(&mut other, evil, &provider.issuer, "wahlleitung", |u| u).await;
    assert!(!other.cookies.contains_key("nachfolge-weiter"));
    let done = other.get(&back).await;
    assert!(done.body.contains("content=\"0; url=/raete\""), "{}", done.body);
}
