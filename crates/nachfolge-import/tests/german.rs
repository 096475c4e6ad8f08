//! Every point, every "read" line and every error of the import has a German text for the console
//! („Wahlergebnis übernehmen“): checked on all the sample imports (`../shared/election-exports/`, read where
//! they lie) and on malformed input.

mod common;
use common::{facts, files};

use nachfolge_core::model::Land;
use nachfolge_import::{import, ImportError, InputFile, Options, Report};

/// Every sample folder, its Land and the size the tests give (None: the importer finds or derives it).
const SAMPLES: [(&str, Land, Option<u32>); 7] = [
    ("ni-oldenburg-2026-ratswahl-votemanager", Land::Ni, None),
    ("he-darmstadt-2021-stadtverordnetenwahl-votemanager", Land::He, Some(71)),
    ("by-vaterstetten-2020-gemeinderatswahl-votemanager", Land::By, Some(30)),
    ("by-karlstadt-2020-stadtratswahl-votemanager", Land::By, Some(24)),
    ("nw-badmuenstereifel-2020-ratswahl-owd", Land::Nw, None),
    ("nw-duesseldorf-2020-ratswahl-owd", Land::Nw, None),
    ("nw-kall-2020-ratswahl-owd", Land::Nw, None),
];

/// A German text: not empty, not the English one, and without the English words a forgotten
/// translation would carry.
fn assert_german(de: &str, en: &str, what: &str) {
    assert!(!de.trim().is_empty(), "{what}: no German text for `{en}`");
    assert_ne!(de, en, "{what}: the German text is the English one");
    for english in [
        " the ", " is ", " are ", " has ", " not ", " of ", "ignored", "check", " and ", "whole", "level", "schema",
        "row(s)", "generic",
    ] {
        assert!(!de.contains(english), "{what}: `{de}` looks English (`{english}`)");
    }
}

fn assert_report_german(r: &Report, dir: &str) {
    assert!(!r.points.is_empty() && !r.read.is_empty(), "{dir}: a report");
    for l in &r.read {
        assert_german(&l.de, &l.en, &format!("{dir}, read"));
    }
    for p in &r.points {
        assert_german(&p.message_de, &p.message, &format!("{dir}, point"));
    }
}

#[test]
fn every_point_and_read_line_of_the_sample_imports_has_a_german_text() {
    for (dir, land, size) in SAMPLES {
        let imported = import(&files(dir), None, &facts(land, size), &Options::default()).expect("the sample imports");
        assert_report_german(&imported.report, dir);
    }
}

#[test]
fn the_points_of_an_interim_count_and_of_a_missing_size_have_a_german_text() {
    // without the given size and with an incomplete count allowed, more points are made
    for (dir, land, _) in SAMPLES {
        let allow = Options { allow_incomplete: true };
        if let Ok(imported) = import(&files(dir), None, &facts(land, None), &allow) {
            assert_report_german(&imported.report, dir);
        }
    }
}

fn error(files: &[InputFile]) -> ImportError {
    let facts = facts(Land::Ni, Some(50));
    import(files, None, &facts, &Options::default()).expect_err("refused")
}

#[test]
fn an_error_names_file_and_line_in_german_too() {
    let csv = |body: &str| InputFile { name: "wahl.csv".into(), bytes: body.as_bytes().to_vec() };
    let header = "datum;wahl;ags;gebiet-nr;gebiet-name;max-schnellmeldungen;anz-schnellmeldungen;D1_1\n";
    let cases = [
        vec![csv(&format!("{header}01.11.2026;Ratswahl;03403000;1;Stadt;1;1;12;13\n"))],
        vec![csv(&format!("{header}01.11.2026;Ratswahl;03403000;1;Stadt;1;1;zwölf\n"))],
        vec![csv(&format!("{header}\"01.11.2026;Ratswahl\n"))],
        vec![InputFile { name: "praesentation.json".into(), bytes: b"{\"a\": ".to_vec() }],
        vec![InputFile { name: "liesmich.pdf".into(), bytes: b"%PDF".to_vec() }],
    ];
    for files in cases {
        let e = error(&files);
        assert_german(&e.message_de, &e.message, "error");
        // the place is kept: the console says it in German around the text
        let de = e.to_german();
        if let Some(line) = e.line {
            assert!(de.contains(&format!("Zeile {line}")), "{de}");
        }
    }
    let e = error(&[csv(&format!("{header}01.11.2026;Ratswahl;03403000;1;Stadt;1;1;zwölf\n"))]);
    assert_eq!(e.to_german(), "Datei wahl.csv, Zeile 2, Spalte 8: `zwölf` in der Spalte `D1_1` ist keine Anzahl.");
}
