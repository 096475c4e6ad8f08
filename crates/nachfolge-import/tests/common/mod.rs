//! What the importer's tests share: the sample files, read where they lie (`../shared/election-exports/`,
//! never copied into the repository), and the body's facts no file holds.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use nachfolge_core::model::{BodyKind, Land, ReturningOfficer};
use nachfolge_import::{BodyFacts, InputFile};

/// `../shared/election-exports` from the project root.
pub fn exports() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/election-exports")
}

/// The files of one sample election, by name.
pub fn files(dir: &str) -> Vec<InputFile> {
    let mut out: Vec<InputFile> = std::fs::read_dir(exports().join(dir))
        .expect("the sample folder (../shared/election-exports)")
        .map(|e| {
            let p = e.expect("entry").path();
            let name = p.file_name().expect("name").to_string_lossy().into_owned();
            InputFile { name, bytes: std::fs::read(&p).expect("read") }
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// A council of `land` with its term and Wahlleitung; `size` the statutory size, where the test gives one.
pub fn facts(land: Land, size: Option<u32>) -> BodyFacts {
    BodyFacts {
        land,
        id: "test-rat".into(),
        name: "Rat der Teststadt".into(),
        kind: BodyKind::Council,
        statutory_size: size,
        term_start: NaiveDate::from_ymd_opt(2026, 11, 1).expect("date"),
        term_end: NaiveDate::from_ymd_opt(2031, 10, 31).expect("date"),
        returning_officer: ReturningOfficer {
            name: "Wahlleitung".into(),
            email: "wahlleitung@example.org".into(),
            address: Some("Rathausplatz 1, 12345 Teststadt".into()),
            title: None,
        },
    }
}
