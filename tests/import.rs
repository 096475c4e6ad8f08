//! `nachfolge import` as the real binary: the Oldenburg 2026 files where they lie
//! (`../shared/election-exports/`), then `nachfolge decide` on the snapshot it printed; malformed folders and
//! files end with exit 2 and the place of the fault; `--publish` against the real RabbitMQ of this machine
//! (an exchange and a queue of the test's own).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

const OLDENBURG: &str = "../shared/election-exports/ni-oldenburg-2026-ratswahl-votemanager";

/// A fresh folder under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "nachfolge-import-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }
    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).expect("write");
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn nachfolge(args: &[&str]) -> Output {
    nachfolge_env(args, &[])
}

fn nachfolge_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nachfolge"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run nachfolge")
}

fn import(dir: &Path, extra: &[&str]) -> Output {
    import_env(dir, extra, &[])
}

fn import_env(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let dir = dir.to_str().expect("path");
    let mut args = vec![
        "import",
        dir,
        "--land",
        "NI",
        "--body",
        "oldenburg-rat",
        "--name",
        "Rat der Stadt Oldenburg",
        "--term-start",
        "2026-11-01",
        "--term-end",
        "2031-10-31",
        "--returning-officer-name",
        "Wahlleitung der Stadt Oldenburg",
        "--returning-officer-email",
        "wahlleitung@example.org",
        "--returning-officer-address",
        "Markt 1, 26122 Oldenburg",
    ];
    args.extend_from_slice(extra);
    nachfolge_env(&args, env)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn import_oldenburg_then_decide_a_vacancy_on_the_snapshot() {
    let tmp = TempDir::new();
    let contacts = tmp.file("kontakte.csv", "liste;platz;e-mail;anrede\nL1-WB1;7;a.k@example.org;Frau\n".as_bytes());
    let out = import(Path::new(OLDENBURG), &["--contacts", contacts.to_str().expect("path")]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let snapshot: Value = serde_json::from_str(&stdout).expect("the snapshot on stdout");
    assert_eq!(snapshot["body"]["id"], "oldenburg-rat");
    assert_eq!(snapshot["body"]["statutory_size"], 52);
    // several Wahlbereiche, tied per Wahlvorschlag (issue 25, point 5): no forced confirmation in Niedersachsen
    assert_eq!(snapshot["body"]["determination"], "automatic");
    let l1 = snapshot["lists"].as_array().expect("lists").iter().find(|l| l["id"] == "L1-WB1").expect("L1-WB1");
    assert_eq!((&l1["area"], &l1["party"]), (&Value::from("Wahlbereich 1"), &Value::from("D1")));
    let cands: Vec<&Value> = snapshot["lists"]
        .as_array()
        .expect("lists")
        .iter()
        .flat_map(|l| l["candidates"].as_array().expect("candidates"))
        .collect();
    assert_eq!(cands.len(), 383);
    assert_eq!(cands.iter().filter(|c| !c["seat"].is_null()).count(), 52);
    let c = cands.iter().find(|c| c["id"] == "L1-WB1-07").expect("L1-WB1-07");
    assert_eq!(
        (&c["email"], &c["form_of_address"], &c["votes"]),
        (&Value::from("a.k@example.org"), &Value::from("frau"), &Value::from(870))
    );
    assert!(stderr.starts_with("read:\n"), "{stderr}");
    assert!(stderr.contains("  seats found: 52 (17 by personal vote, 35 by list)"), "{stderr}");
    assert!(stderr.contains("to confirm or add ("), "{stderr}");
    assert!(stderr.contains("contacts (kontakte.csv): 1 row(s)"), "{stderr}");

    // one vacancy, decided on the imported snapshot: the Personenwahl seat of Wahlbereich 1 (GRÜNE) goes to
    // the not elected candidate with most votes of that Wahlvorschlag (D1_2_7 = 870)
    let election = tmp.file("election.json", stdout.as_bytes());
    let vacancy = tmp.file(
        "vacancy.json",
        br#"{"body": "oldenburg-rat", "member": "L1-WB1-01", "reason": "resigned", "effective_at": "2027-01-15T12:00:00+01:00"}"#,
    );
    let out = nachfolge(&[
        "decide",
        "--election",
        election.to_str().expect("path"),
        "--vacancy",
        vacancy.to_str().expect("path"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let decided: Value = serde_json::from_slice(&out.stdout).expect("decision");
    assert_eq!(
        (&decided["outcome"], &decided["successor"], &decided["list"]),
        (&Value::from("successor"), &Value::from("L1-WB1-07"), &Value::from("L1-WB1"))
    );
}

#[test]
fn import_errors_exit_2_naming_the_file_line_and_column() {
    // a wrong separator
    let tmp = TempDir::new();
    tmp.file(
        "Open-Data-Wahl.csv",
        b"datum,wahl,gebiet-name,max-schnellmeldungen,anz-schnellmeldungen,D1,D1_1\n1,2,3,4,5,6,7\n",
    );
    let out = import(&tmp.0, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "nothing on stdout");
    assert!(
        text(&out.stderr).starts_with("error: Open-Data-Wahl.csv:1: the header has no `;`: wrong separator"),
        "{}",
        text(&out.stderr)
    );

    // a value that is not a count: file, line and column
    let tmp = TempDir::new();
    tmp.file(
        "Open-Data-Wahl.csv",
        "datum;wahl;ags;gebiet-nr;gebiet-name;max-schnellmeldungen;anz-schnellmeldungen;A;D;D1;D1_1\n\
         13.09.2026;Ratswahl;03000000;0;Stadt;1;1;100;x7;7;7\n"
            .as_bytes(),
    );
    let out = import(&tmp.0, &["--statutory-size", "10"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("error: Open-Data-Wahl.csv:2:9: `x7` in column `D` is not a count"),
        "{}",
        text(&out.stderr)
    );

    // a file of 200 MB (sparse: no disk is used) is refused before it is read
    let tmp = TempDir::new();
    let big = std::fs::File::create(tmp.0.join("Open-Data-gross.csv")).expect("create");
    big.set_len(200 << 20).expect("set_len");
    let out = import(&tmp.0, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("error: Open-Data-gross.csv: file is larger than the 50 MB"),
        "{}",
        text(&out.stderr)
    );

    // nothing recognised; a folder that is not there
    let tmp = TempDir::new();
    tmp.file("notiz.txt", b"hallo");
    let out = import(&tmp.0, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no votemanager or Offene-Wahldaten files recognised"), "{}", text(&out.stderr));
    let out = import(&tmp.0.join("fehlt"), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read the folder"), "{}", text(&out.stderr));

    // an option the body needs is missing (clap's usage error, also exit 2)
    let out = nachfolge(&["import", OLDENBURG, "--land", "XX"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown Land"), "{}", text(&out.stderr));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn import_publish_sends_the_snapshot_as_election_registered() {
    use lapin::options::{
        BasicGetOptions, ExchangeDeclareOptions, ExchangeDeleteOptions, QueueBindOptions, QueueDeclareOptions,
    };
    use lapin::types::FieldTable;
    use lapin::{Connection, ConnectionProperties, ExchangeKind};

    const AMQP_URL: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";
    let conn = Connection::connect(AMQP_URL, ConnectionProperties::default()).await.expect("RabbitMQ");
    let ch = conn.create_channel().await.expect("channel");
    let exchange = format!("nachfolge-import-test-{}", std::process::id());
    ch.exchange_declare(
        exchange.as_str().into(),
        ExchangeKind::Topic,
        ExchangeDeclareOptions { auto_delete: true, ..ExchangeDeclareOptions::default() },
        FieldTable::default(),
    )
    .await
    .expect("exchange");
    let q = ch
        .queue_declare(
            "".into(),
            QueueDeclareOptions { exclusive: true, auto_delete: true, ..QueueDeclareOptions::default() },
            FieldTable::default(),
        )
        .await
        .expect("queue");
    ch.queue_bind(
        q.name().clone(),
        exchange.as_str().into(),
        "#".into(),
        QueueBindOptions::default(),
        FieldTable::default(),
    )
    .await
    .expect("bind");

    // without the Verwaltungsgericht registration would refuse the snapshot (§ 58 Abs. 1 VwGO): nothing is sent
    let ex = exchange.clone();
    let refused = tokio::task::spawn_blocking(move || {
        let env = [("NACHFOLGE__AMQP__URL", AMQP_URL), ("NACHFOLGE__AMQP__COMMANDS_EXCHANGE", ex.as_str())];
        import_env(Path::new(OLDENBURG), &["--publish"], &env)
    })
    .await
    .expect("import");
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert!(text(&refused.stderr).contains("body.remedy_court"), "{}", text(&refused.stderr));

    let ex = exchange.clone();
    let out = tokio::task::spawn_blocking(move || {
        let env = [("NACHFOLGE__AMQP__URL", AMQP_URL), ("NACHFOLGE__AMQP__COMMANDS_EXCHANGE", ex.as_str())];
        let court = [
            "--remedy-court-name",
            "Verwaltungsgericht Oldenburg",
            "--remedy-court-address",
            "Schloßplatz 10, 26122 Oldenburg",
        ];
        import_env(Path::new(OLDENBURG), &[&court[..], &["--publish"]].concat(), &env)
    })
    .await
    .expect("import");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let id = stderr.lines().last().and_then(|l| l.strip_prefix("published election.registered ")).expect("the id");

    let msg = ch
        .basic_get(q.name().clone(), BasicGetOptions { no_ack: true })
        .await
        .expect("get")
        .expect("the published message");
    assert_eq!(msg.delivery.routing_key.as_str(), "election.registered");
    let event: Value = serde_json::from_slice(&msg.delivery.data).expect("a CloudEvent");
    assert_eq!(
        (&event["type"], &event["id"], &event["subject"]),
        (&Value::from("election.registered"), &Value::from(id), &Value::from("oldenburg-rat"))
    );
    let printed: Value = serde_json::from_slice(&out.stdout).expect("the snapshot on stdout");
    assert_eq!(event["data"], printed, "the snapshot printed is the snapshot sent");
    assert_eq!(printed["body"]["remedy_court"]["name"], "Verwaltungsgericht Oldenburg", "{printed}");
    let _ = ch.exchange_delete(exchange.as_str().into(), ExchangeDeleteOptions::default()).await;
    let _ = conn.close(200, "bye".into()).await;
}
