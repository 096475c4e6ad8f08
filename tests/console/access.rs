//! Roles per council: a viewer or Wahlleiter sees only the councils granted; an admin sees all.

use crate::support::app::{example, App};
use crate::{add_user, add_user_cli, client, nrw, register, PASSWORD};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_viewer_cannot_see_another_council_and_an_admin_sees_every_council() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    register(&app, example("he-election.json")).await;
    add_user(&app, "leser-he", "viewer", &["beispielstadt-stvv"]).await;
    add_user_cli(&app, "betrieb", "admin", &[]).await;

    let mut viewer = client(&app);
    assert_eq!(viewer.sign_in("leser-he", PASSWORD).await.status, 303);
    let list = viewer.get("/raete").await;
    assert!(list.body.contains("Stadtverordnetenversammlung Beispielstadt"), "{}", list.body);
    assert!(list.body.contains("Lesezugriff") && list.body.contains("Hessen"), "{}", list.body);
    assert!(!list.body.contains("Musterstadt"), "{}", list.body);
    assert_eq!(viewer.get("/raete/beispielstadt-stvv").await.status, 200);
    // the other council is answered as if it did not exist, on every path
    let other = viewer.get("/raete/musterstadt-rat").await;
    assert_eq!(other.status, 404);
    assert!(!other.body.contains("Musterstadt"), "{}", other.body);
    assert_eq!(viewer.get("/raete/musterstadt-rat/faelle/musterstadt-rat-1").await.status, 404);
    assert_eq!(viewer.get("/bodies/musterstadt-rat").await.status, 404);
    assert_eq!(viewer.get("/bodies/musterstadt-rat/succession-order").await.status, 404);
    assert_eq!(viewer.get("/bodies/beispielstadt-stvv").await.status, 200);

    let mut admin = client(&app);
    assert_eq!(admin.sign_in("betrieb", PASSWORD).await.status, 303);
    let list = admin.get("/raete").await;
    assert!(list.body.contains("Rat der Stadt Musterstadt"), "{}", list.body);
    assert!(list.body.contains("Stadtverordnetenversammlung Beispielstadt"), "{}", list.body);
    assert_eq!(admin.get("/raete/musterstadt-rat").await.status, 200);
    assert_eq!(admin.get("/bodies/beispielstadt-stvv").await.status, 200);
}

/// The Wahlleitung of one council has no way into another: every page, every JSON read and every action
/// (form, preview and confirmation, with the session's valid form token and a fresh message id) of the
/// other council answers 404 as if it did not exist, and nothing is recorded there. The probe of issue 26
/// found no hole; this guards it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wahlleitung_of_one_council_cannot_read_or_act_on_another() {
    let app = App::spawn().await;
    register(&app, nrw()).await;
    register(&app, example("he-election.json")).await;
    app.send(
        "vacancy.reported",
        serde_json::json!({"body": "musterstadt-rat", "member": "L1-01", "reason": "died", "effective_at": "2026-05-04T10:00:00+02:00"}),
    )
    .await;
    let det = app.wait_event("succession.determined", |_| true).await;
    let case = det["data"]["case"].as_str().expect("case").to_owned();
    add_user(&app, "wahlleitung-he", "wahlleiter", &["beispielstadt-stvv"]).await;
    let before = audit(&app).await;

    let mut he = client(&app);
    assert_eq!(he.sign_in("wahlleitung-he", PASSWORD).await.status, 303);
    // its own council: the action form with the session's token
    let own = he.get("/raete/beispielstadt-stvv/ausscheiden").await;
    assert_eq!(own.status, 200, "{}", own.body);
    let csrf = own.csrf().expect("the form has a token");

    let other = "/raete/musterstadt-rat";
    let case_path = format!("{other}/faelle/{case}");
    let mut reads = vec![
        other.to_owned(),
        case_path.clone(),
        format!("{case_path}/frist.ics"),
        format!("{case_path}/schreiben.pdf"),
        format!("{case_path}/bekanntmachung/bekanntmachung.pdf"),
        "/bodies/musterstadt-rat".to_owned(),
        "/bodies/musterstadt-rat/succession-order".to_owned(),
        format!("{other}/ausscheiden"),
        format!("{other}/tatsache?person=L1-02"),
    ];
    let case_actions = ["zustellung", "erklaerung", "tatsache", "los", "feststellung", "pruefung", "nachweis"];
    reads.extend(case_actions.iter().map(|a| format!("{case_path}/{a}")));
    for path in &reads {
        let answer = he.get(path).await;
        assert_eq!(answer.status, 404, "GET {path}: {}", answer.body);
        assert!(!answer.body.contains("Musterstadt"), "GET {path}: {}", answer.body);
    }

    let fields = [
        ("csrf", csrf.as_str()),
        ("message_id", "00000000-0000-4000-8000-000000000026"),
        ("member", "L1-02"),
        ("person", "L1-02"),
        ("reason", "resigned"),
        ("effective_at", "2026-06-30T23:59"),
        ("served_at", "2026-05-10T10:00"),
        ("declaration", "accepted"),
        ("declared_at", "2026-05-11T10:00"),
    ];
    let mut posts: Vec<String> = Vec::new();
    for a in case_actions {
        posts.push(format!("{case_path}/{a}"));
        posts.push(format!("{case_path}/{a}/vorschau"));
    }
    for a in ["ausscheiden", "tatsache"] {
        posts.push(format!("{other}/{a}"));
        posts.push(format!("{other}/{a}/vorschau"));
    }
    for path in &posts {
        let answer = he.post(path, &fields).await;
        assert_eq!(answer.status, 404, "POST {path}: {}", answer.body);
        assert!(!answer.body.contains("Musterstadt"), "POST {path}: {}", answer.body);
    }
    assert_eq!(audit(&app).await, before, "nothing was recorded for the other council");
    // the same session still acts on its own council (the refusals are not a broken session)
    assert_eq!(he.get("/raete/beispielstadt-stvv").await.status, 200);
}

/// `user add --body '*'` once granted every council; it is refused, and a grant of body `*` that is no
/// `admin` one (stored before) covers no council at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn star_is_no_body_and_every_council_is_an_explicit_admin_option() {
    use tokio::io::AsyncWriteExt;
    let app = App::spawn().await;
    register(&app, nrw()).await;
    let run = |args: &'static [&'static str]| {
        let url = app.config.database.url.clone();
        async move {
            let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_nachfolge"));
            cmd.arg("user").args(args).env("NACHFOLGE__DATABASE__URL", url);
            cmd.stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
            let mut child = cmd.spawn().expect("nachfolge user");
            let mut stdin = child.stdin.take().expect("stdin");
            stdin.write_all(format!("{PASSWORD}\n").as_bytes()).await.expect("password");
            drop(stdin);
            child.wait_with_output().await.expect("nachfolge user ends")
        }
    };
    for args in [
        &["add", "alle", "--role", "wahlleiter", "--body", "*"][..],
        &["add", "alle", "--role", "viewer", "--body", "*"][..],
        &["add", "alle", "--role", "admin", "--body", "*"][..],
        &["add", "alle", "--role", "admin"][..],
        &["add", "alle", "--role", "wahlleiter", "--all-councils"][..],
    ] {
        let out = run(args).await;
        assert!(!out.status.success(), "{args:?} must be refused");
    }
    let users: i64 =
        sqlx::query_scalar("SELECT count(*) FROM console_users").fetch_one(&app.db().await).await.expect("users");
    assert_eq!(users, 0, "no account was created");
    assert!(run(&["add", "betrieb", "--role", "admin", "--all-councils"]).await.status.success());
    assert!(run(&["add", "rat", "--role", "wahlleiter", "--body", "musterstadt-rat"]).await.status.success());
    assert!(!run(&["grant", "rat", "--role", "wahlleiter", "--body", "*"]).await.status.success());

    // a Wahlleiter grant for `*` written before the refusal: it covers nothing
    add_user(&app, "alt", "wahlleiter", &["beispielstadt-stvv"]).await;
    sqlx::query("INSERT INTO console_grants (login, body_id, role) VALUES ('alt', '*', 'wahlleiter')")
        .execute(&app.db().await)
        .await
        .expect("old grant");
    let mut old = client(&app);
    assert_eq!(old.sign_in("alt", PASSWORD).await.status, 303);
    assert_eq!(old.get("/raete/musterstadt-rat").await.status, 404);
    assert_eq!(old.get("/bodies/musterstadt-rat").await.status, 404);
    let mut admin = client(&app);
    assert_eq!(admin.sign_in("betrieb", PASSWORD).await.status, 303);
    assert_eq!(admin.get("/raete/musterstadt-rat").await.status, 200);
}

/// How many rows the audit log of the NRW example's council has.
async fn audit(app: &App) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM audit_log WHERE body_id = 'musterstadt-rat'")
        .fetch_one(&app.db().await)
        .await
        .expect("audit log")
}
