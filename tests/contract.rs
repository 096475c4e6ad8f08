//! The published contract stays in step with the code.
//!
//! * `docs/schemas/<type>.json` holds exactly the JSON Schemas that `nachfolge schema` prints (one file per
//!   key, pretty-printed, trailing newline). When the Rust types change, regenerate them with
//!   `UPDATE_SCHEMAS=1 cargo test --test contract` and commit the result.
//! * Every example in `examples/` parses: election snapshots into a validated body, vacancy files as
//!   `vacancy.reported` data.
//! * `docs/asyncapi.yaml` references every committed schema (the document itself is validated by
//!   `.ci/lint-deploy` with the AsyncAPI parser; no YAML crate is needed here).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

const REGENERATE: &str = "regenerate with `UPDATE_SCHEMAS=1 cargo test --test contract` and commit docs/schemas/";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn schema_dir() -> PathBuf {
    root().join("docs").join("schemas")
}

/// The expected files: name → content (pretty JSON with a trailing newline).
fn expected_schemas() -> BTreeMap<String, String> {
    let Value::Object(map) = nachfolge::offline::schema() else {
        panic!("nachfolge::offline::schema() must return a JSON object keyed by message type");
    };
    map.into_iter()
        .map(|(ty, schema)| {
            assert!(
                !ty.is_empty() && ty.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')),
                "message type {ty:?} is not usable as a file name"
            );
            let mut text = serde_json::to_string_pretty(&schema).expect("serialize schema");
            text.push('\n');
            (format!("{ty}.json"), text)
        })
        .collect()
}

/// The committed `*.json` files: name → content.
fn committed_schemas(dir: &Path) -> BTreeMap<String, String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .map(|e| e.expect("read docs/schemas entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let name = p.file_name().expect("file name").to_string_lossy().into_owned();
            let text = fs::read_to_string(&p).unwrap_or_else(|e| panic!("read {}: {e}", p.display()));
            (name, text)
        })
        .collect()
}

#[test]
fn committed_schemas_match_the_code() {
    let dir = schema_dir();
    let expected = expected_schemas();
    let committed = committed_schemas(&dir);

    if std::env::var_os("UPDATE_SCHEMAS").is_some_and(|v| !v.is_empty() && v != "0") {
        fs::create_dir_all(&dir).expect("create docs/schemas");
        for (name, text) in &expected {
            if committed.get(name) != Some(text) {
                fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("write {name}: {e}"));
                eprintln!("wrote docs/schemas/{name}");
            }
        }
        for name in committed.keys().filter(|n| !expected.contains_key(*n)) {
            fs::remove_file(dir.join(name)).unwrap_or_else(|e| panic!("remove {name}: {e}"));
            eprintln!("removed docs/schemas/{name}");
        }
        return;
    }

    let mut problems = Vec::new();
    for (name, text) in &expected {
        match committed.get(name) {
            None => problems.push(format!("missing: docs/schemas/{name}")),
            Some(old) if old != text => problems.push(format!("differs from the code: docs/schemas/{name}")),
            Some(_) => {}
        }
    }
    for name in committed.keys().filter(|n| !expected.contains_key(*n)) {
        problems.push(format!("not printed by `nachfolge schema` (extra): docs/schemas/{name}"));
    }
    assert!(
        problems.is_empty(),
        "the committed JSON Schemas drifted from the code:\n  {}\n{REGENERATE}",
        problems.join("\n  ")
    );
}

#[test]
fn every_schema_file_is_referenced_by_the_asyncapi_document() {
    let path = root().join("docs").join("asyncapi.yaml");
    let doc = fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    // election.snapshot is the `nachfolge decide` input and the data of election.registered; it has the same
    // schema as election.registered and needs no message of its own.
    let missing: Vec<String> = expected_schemas()
        .into_keys()
        .filter(|name| name != "election.snapshot.json")
        .filter(|name| !doc.contains(&format!("./schemas/{name}")))
        .collect();
    assert!(missing.is_empty(), "docs/asyncapi.yaml does not reference: {missing:?}");
}

#[test]
fn every_example_parses() {
    let dir = root().join("examples");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("read examples/")
        .map(|e| e.expect("examples entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no examples in {}", dir.display());
    let (mut elections, mut vacancies) = (0, 0);
    for path in &files {
        let name = path.file_name().expect("file name").to_string_lossy().into_owned();
        let bytes = fs::read(path).unwrap_or_else(|e| panic!("read {name}: {e}"));
        if name.contains("vacancy") {
            nachfolge::model::parse_json::<nachfolge::messages::VacancyReported>(&bytes)
                .unwrap_or_else(|e| panic!("examples/{name}: not valid vacancy.reported data: {e}"));
            vacancies += 1;
        } else {
            let snapshot = nachfolge::model::parse_snapshot(&bytes)
                .unwrap_or_else(|e| panic!("examples/{name}: not a valid election snapshot: {e}"));
            nachfolge::model::Body::from_snapshot(snapshot)
                .unwrap_or_else(|e| panic!("examples/{name}: election snapshot fails validation: {e}"));
            elections += 1;
        }
    }
    assert!(elections > 0 && vacancies > 0, "expected election and vacancy examples, found {files:?}");
}
