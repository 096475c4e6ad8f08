//! Sign-in, sessions, the form token and the throttle.

use crate::support::app::App;
use crate::{add_user, add_user_cli, assert_security_headers, client, nrw, register, PASSWORD};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_made_with_the_cli_signs_in_and_out_and_a_wrong_password_is_refused() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    add_user_cli(&app, "Wahlleitung", "wahlleiter", &["musterstadt-rat"]).await;
    let mut browser = client(&app);

    // not signed in: the pages lead to the sign-in, which is German, labelled and protected
    let home = browser.get("/raete").await;
    assert_eq!((home.status, home.header("location")), (303, Some("/anmelden")));
    let form = browser.get("/anmelden").await;
    assert_eq!(form.status, 200);
    assert_security_headers(&form);
    assert!(form.body.contains("<html lang=\"de\">") && form.body.contains("href=\"#inhalt\""), "{}", form.body);
    assert!(form.body.contains("<label for=\"login\">Anmeldename</label>"), "{}", form.body);
    let sign_in_cookie =
        form.set_cookies().into_iter().find(|c| c.starts_with("nachfolge-anmeldung=")).expect("cookie");
    assert!(sign_in_cookie.contains("HttpOnly") && sign_in_cookie.contains("SameSite=Strict"), "{sign_in_cookie}");

    // a wrong password: refused, no session
    let wrong = browser.sign_in("wahlleitung", "falsches Passwort!").await;
    assert_eq!(wrong.status, 401);
    assert!(wrong.body.contains("Anmeldename oder Passwort ist falsch."), "{}", wrong.body);
    assert!(!browser.cookies.contains_key("nachfolge"));
    // an unknown login: the same answer
    let unknown = browser.sign_in("niemand", PASSWORD).await;
    assert_eq!(unknown.status, 401);

    // the right one (the login in any case): a session cookie, HttpOnly and SameSite=Strict, and the councils
    let ok = browser.sign_in("WAHLLEITUNG", PASSWORD).await;
    assert_eq!((ok.status, ok.header("location")), (303, Some("/raete")), "{}", ok.body);
    let session = ok.set_cookies().into_iter().find(|c| c.starts_with("nachfolge=")).expect("session cookie");
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Strict") && session.contains("Path=/"),
        "{session}"
    );
    assert!(!session.contains("Secure"), "secure_cookie = false in the tests (plain http on localhost)");
    let councils = browser.get("/raete").await;
    assert_eq!(councils.status, 200, "{}", councils.body);
    assert!(councils.body.contains("Rat der Stadt Musterstadt") && councils.body.contains("Wahlleitung"));

    // the session is stored as a hash only
    let db = app.db().await;
    let token = browser.cookies.get("nachfolge").cloned().expect("token");
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM console_sessions WHERE token_hash = sha256($1::bytea)")
        .bind(token.as_bytes())
        .fetch_one(&db)
        .await
        .expect("sessions");
    assert_eq!(stored, 1);
    let plain: i64 = sqlx::query_scalar("SELECT count(*) FROM console_sessions WHERE encode(token_hash, 'hex') = $1")
        .bind(&token)
        .fetch_one(&db)
        .await
        .expect("sessions");
    assert_eq!(plain, 0);
    let hash: String = sqlx::query_scalar("SELECT password FROM console_users WHERE login = 'wahlleitung'")
        .fetch_one(&db)
        .await
        .expect("user");
    assert!(hash.starts_with("$argon2id$"), "{hash}");

    // sign-out needs the form token, then ends the session for good
    let stale = browser.post("/abmelden", &[]).await;
    assert_eq!(stale.status, 403);
    let csrf = councils.csrf().expect("the sign-out form has a token");
    let out = browser.post("/abmelden", &[("csrf", csrf.as_str())]).await;
    assert_eq!((out.status, out.header("location")), (303, Some("/anmelden")));
    browser.cookies.insert("nachfolge".into(), token);
    let after = browser.get("/raete").await;
    assert_eq!((after.status, after.header("location")), (303, Some("/anmelden")), "the old cookie signs nobody in");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_ends_after_the_idle_time() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    add_user(&app, "leser", "viewer", &["musterstadt-rat"]).await;
    let mut browser = client(&app);
    assert_eq!(browser.sign_in("leser", PASSWORD).await.status, 303);
    assert_eq!(browser.get("/raete").await.status, 200);
    app.advance(chrono::Duration::minutes(59));
    assert_eq!(browser.get("/raete").await.status, 200, "used within the idle time");
    app.advance(chrono::Duration::minutes(61));
    assert_eq!(browser.get("/raete").await.status, 303, "idle for longer than console.session_idle_minutes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_post_needs_the_form_token_and_cross_site_posts_are_refused() {
    let app = App::spawn().await;
    add_user(&app, "wahlleitung", "wahlleiter", &["musterstadt-rat"]).await;
    let mut browser = client(&app);
    let form = browser.get("/anmelden").await;
    let csrf = form.csrf().expect("token");
    let login = [("login", "wahlleitung"), ("password", PASSWORD)];

    // without the token, with another token, without the cookie: refused before the password is looked at
    let none = browser.post("/anmelden", &login).await;
    assert_eq!(none.status, 403);
    assert!(none.body.contains("Das Formular ist abgelaufen oder ungültig"), "{}", none.body);
    assert_security_headers(&none);
    let other = "0".repeat(64);
    let wrong = browser.post("/anmelden", &[login[0], login[1], ("csrf", other.as_str())]).await;
    assert_eq!(wrong.status, 403);
    let mut stranger = client(&app);
    let no_cookie = stranger.post("/anmelden", &[login[0], login[1], ("csrf", csrf.as_str())]).await;
    assert_eq!(no_cookie.status, 403, "a token without its cookie");
    // a cross-site request, even with the right token
    let cross = browser
        .post_with("/anmelden", &[login[0], login[1], ("csrf", csrf.as_str())], &[("Origin", "https://evil.example")])
        .await;
    assert_eq!(cross.status, 403);
    let fetch = browser
        .post_with("/anmelden", &[login[0], login[1], ("csrf", csrf.as_str())], &[("Sec-Fetch-Site", "cross-site")])
        .await;
    assert_eq!(fetch.status, 403);
    // none of these was a sign-in attempt: the throttle counted nothing
    let db = app.db().await;
    let counted: i64 =
        sqlx::query_scalar("SELECT count(*) FROM console_sign_in_failures").fetch_one(&db).await.expect("throttle");
    assert_eq!(counted, 0);

    // with the token (and a same-origin Origin) it goes through; once signed in, the session's token counts
    let origin = format!("http://{}", browser.addr);
    let ok = browser
        .post_with("/anmelden", &[login[0], login[1], ("csrf", csrf.as_str())], &[("Origin", origin.as_str())])
        .await;
    assert_eq!(ok.status, 303, "{}", ok.body);
    let page = browser.get("/raete").await;
    let session_csrf = page.csrf().expect("token");
    assert_ne!(session_csrf, csrf, "a session has its own form token");
    assert_eq!(browser.post("/abmelden", &[("csrf", csrf.as_str())]).await.status, 403, "the sign-in form's token");
    assert_eq!(browser.post("/abmelden", &[("csrf", session_csrf.as_str())]).await.status, 303);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_in_is_throttled_per_login_and_per_address() {
    let app = App::spawn_with(|c| {
        c.console.login_max_failures = 3;
        c.console.address_max_failures = 6;
        c.console.login_delay_seconds = 30;
        c.console.login_window_minutes = 15;
    })
    .await;
    add_user(&app, "wahlleitung", "wahlleiter", &["musterstadt-rat"]).await;
    add_user(&app, "leser", "viewer", &["musterstadt-rat"]).await;
    let mut browser = client(&app);
    for _ in 0..3 {
        assert_eq!(browser.sign_in("wahlleitung", "falsches Passwort!").await.status, 401);
    }
    // the free attempts are used: the next one, even with the right password, must wait, and is told so
    let held = browser.sign_in("wahlleitung", PASSWORD).await;
    assert_eq!(held.status, 429);
    assert!(held.body.contains("Bitte warten Sie 30 Sekunden und versuchen Sie es dann erneut."), "{}", held.body);
    assert_eq!(held.header("retry-after"), Some("30"));
    assert!(!browser.cookies.contains_key("nachfolge"));
    // another login from the same address still signs in, until the address has used its free attempts too
    assert_eq!(browser.sign_in("leser", PASSWORD).await.status, 303);
    let mut other = client(&app);
    for _ in 0..3 {
        assert_eq!(other.sign_in("jemand", "falsches Passwort!").await.status, 401);
    }
    let mut third = client(&app);
    assert_eq!(third.sign_in("leser", PASSWORD).await.status, 429, "six attempts from this address");
    // the delay passes: the login signs in with the right password, and its attempts are forgotten
    app.advance(chrono::Duration::seconds(31));
    assert_eq!(third.sign_in("wahlleitung", PASSWORD).await.status, 303);
    let db = app.db().await;
    let left: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM console_sign_in_failures WHERE scope = 'login' AND key = '127.0.0.1/wahlleitung'",
    )
    .fetch_one(&db)
    .await
    .expect("throttle");
    assert_eq!(left, 0);
}

/// Issue 26, point 8: growing delays instead of a lock-out. Beyond the free attempts each further attempt
/// of a (login, client) waits `console.login_delay_seconds`, doubling up to `console.login_max_delay_seconds`;
/// an attempt within the delay is refused without a password check and does not prolong it; after the delay
/// the right password signs in. A key without an attempt for `console.login_window_minutes` starts again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_passwords_meet_growing_delays_not_a_lock_out() {
    let app = App::spawn_with(|c| {
        c.console.login_max_failures = 2;
        c.console.address_max_failures = 100;
        c.console.login_delay_seconds = 30;
        c.console.login_max_delay_seconds = 120;
        c.console.login_window_minutes = 60;
    })
    .await;
    add_user(&app, "wahlleitung", "wahlleiter", &["musterstadt-rat"]).await;
    let mut browser = client(&app);
    let wrong = "falsches Passwort!";
    let status = |a: &crate::Answer| (a.status, a.header("retry-after").map(str::to_owned));
    for _ in 0..2 {
        assert_eq!(browser.sign_in("wahlleitung", wrong).await.status, 401);
    }
    // 30 s, then 60 s, then 120 s (the longest), each from the last checked attempt
    for (delay, retry) in [(30, "30"), (60, "60"), (120, "120"), (120, "120")] {
        let early = browser.sign_in("wahlleitung", wrong).await;
        assert_eq!(status(&early), (429, Some(retry.to_owned())), "{delay}: {}", early.body);
        app.advance(chrono::Duration::seconds(delay - 1));
        let still = browser.sign_in("wahlleitung", PASSWORD).await;
        assert_eq!(status(&still), (429, Some("1".to_owned())), "one second before the end of {delay} s");
        app.advance(chrono::Duration::seconds(1));
        assert_eq!(browser.sign_in("wahlleitung", wrong).await.status, 401, "checked after {delay} s");
    }
    // the right password after the delay signs in, and the login starts again with its free attempts
    app.advance(chrono::Duration::seconds(120));
    assert_eq!(browser.sign_in("wahlleitung", PASSWORD).await.status, 303);
    let mut again = client(&app);
    for _ in 0..2 {
        assert_eq!(again.sign_in("wahlleitung", wrong).await.status, 401);
    }
    assert_eq!(again.sign_in("wahlleitung", wrong).await.status, 429);
    // a quiet window: forgotten, the free attempts are back
    app.advance(chrono::Duration::minutes(61));
    assert_eq!(again.sign_in("wahlleitung", wrong).await.status, 401);
    assert_eq!(again.sign_in("wahlleitung", wrong).await.status, 401);
    assert_eq!(again.sign_in("wahlleitung", wrong).await.status, 429);
}

/// Issue 26, point 8: the attempt is counted before the password is checked, so wrong passwords sent in
/// parallel get no more password checks than the limit — the others are throttled without one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_wrong_passwords_cannot_exceed_the_limit() {
    let app = App::spawn_with(|c| {
        c.console.login_max_failures = 3;
        c.console.address_max_failures = 100;
        c.console.login_window_minutes = 15;
    })
    .await;
    add_user(&app, "wahlleitung", "wahlleiter", &["musterstadt-rat"]).await;
    // each guess has its form first, then all are sent at once
    let mut guesses = Vec::new();
    for _ in 0..16 {
        let mut browser = client(&app);
        let form = browser.get("/anmelden").await;
        let csrf = form.csrf().expect("the sign-in form has a token");
        guesses.push(tokio::spawn(async move {
            let fields = [("login", "wahlleitung"), ("password", "falsches Passwort!"), ("csrf", csrf.as_str())];
            browser.post("/anmelden", &fields).await.status
        }));
    }
    let mut statuses = Vec::new();
    for g in guesses {
        statuses.push(g.await.expect("a guess"));
    }
    let checked = statuses.iter().filter(|s| **s == 401).count();
    let throttled = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!(checked, 3, "exactly the limit reached the password check: {statuses:?}");
    assert_eq!(throttled, 13, "{statuses:?}");
    let db = app.db().await;
    let counted: i32 = sqlx::query_scalar(
        "SELECT failures FROM console_sign_in_failures WHERE scope = 'login' AND key = '127.0.0.1/wahlleitung'",
    )
    .fetch_one(&db)
    .await
    .expect("throttle");
    assert_eq!(counted, 3);
}

/// Issue 26, point 8: wrong passwords from a stranger's address do not lock the real user out. Behind a
/// trusted proxy the client is the `X-Forwarded-For` entry the proxy added; the stranger's (login, client)
/// is refused, the real user from another address signs in; a forged header from an untrusted peer counts
/// for nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_real_user_signs_in_during_an_attack_from_another_address() {
    let app = App::spawn_with(|c| {
        c.console.login_max_failures = 3;
        c.console.address_max_failures = 10;
        c.console.login_window_minutes = 15;
        c.console.trusted_proxies = vec!["127.0.0.1".parse().expect("ip")];
    })
    .await;
    add_user(&app, "wahlleitung", "wahlleiter", &["musterstadt-rat"]).await;
    let attempt = |xff: &'static str, password: &'static str| {
        let mut browser = client(&app);
        async move {
            let form = browser.get("/anmelden").await;
            let csrf = form.csrf().expect("the sign-in form has a token");
            let fields = [("login", "wahlleitung"), ("password", password), ("csrf", csrf.as_str())];
            browser.post_with("/anmelden", &fields, &[("X-Forwarded-For", xff)]).await.status
        }
    };
    for _ in 0..3 {
        assert_eq!(attempt("198.51.100.1, 203.0.113.9", "falsches Passwort!").await, 401);
    }
    // the attacker's (login, client) is refused now, the right password too
    assert_eq!(attempt("203.0.113.9", "falsches Passwort!").await, 429);
    assert_eq!(attempt("203.0.113.9", PASSWORD).await, 429);
    // the real user, from another address, signs in
    assert_eq!(attempt("192.0.2.44", PASSWORD).await, 303);
    // the attacker cannot pass as someone else by the part of the header the proxy did not write
    assert_eq!(attempt("192.0.2.44, 203.0.113.9", "falsches Passwort!").await, 429);
}
