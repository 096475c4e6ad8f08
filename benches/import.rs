//! Benchmark of `nachfolge import` without the folder: time per import (parse, sum, check, join, validate) of
//! the largest published samples (Düsseldorf 2020, Offene Wahldaten, 454 Stimmbezirke; Darmstadt 2021 and
//! Oldenburg 2026, votemanager) and of a synthetic city of 1,500 candidates over 400 Wahlbezirke (issue 24:
//! well under a second each).
//!
//! `cargo bench --bench import` (full), `cargo bench --profile dev --bench import -- --smoke` (seconds; CI
//! checks that it runs and that the output is well formed, never a timing threshold). The samples are read
//! from `../shared/election-exports/` where they lie; a missing one is skipped and said so.

use std::path::Path;
use std::time::Instant;

use chrono::NaiveDate;
use nachfolge::model::{BodyKind, Land, ReturningOfficer};
use nachfolge_import::{import, BodyFacts, InputFile, Options};
use serde_json::json;

fn facts(land: Land, size: Option<u32>) -> BodyFacts {
    BodyFacts {
        land,
        id: "bench-rat".into(),
        name: "Rat der Benchstadt".into(),
        kind: BodyKind::Council,
        statutory_size: size,
        term_start: NaiveDate::from_ymd_opt(2026, 11, 1).expect("date"),
        term_end: NaiveDate::from_ymd_opt(2031, 10, 31).expect("date"),
        returning_officer: ReturningOfficer {
            name: "Wahlleitung".into(),
            email: "wahlleitung@example.org".into(),
            address: Some("Rathausplatz 1, 12345 Benchstadt".into()),
            title: None,
        },
    }
}

/// The files of a sample folder, or `None` when it is not there.
fn sample(dir: &str) -> Option<Vec<InputFile>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/election-exports").join(dir);
    let entries = std::fs::read_dir(path).ok()?;
    let mut files: Vec<InputFile> = entries
        .filter_map(Result::ok)
        .map(|e| InputFile {
            name: e.file_name().to_string_lossy().into_owned(),
            bytes: std::fs::read(e.path()).expect("read a sample file"),
        })
        .collect();
    files.sort_by(|a, b| a.name.cmp(&b.name));
    Some(files)
}

const LISTS: u32 = 15;
const PER_LIST: u32 = 100;
const DISTRICTS: u32 = 400;

/// A synthetic votemanager export (Niedersachsen 2026 schema, one Wahlbereich): 15 lists of 100 candidates,
/// 400 Wahlbezirke and the whole-area row, a result JSON naming every candidate, and 45 seats by list place.
/// Every candidate's total is unique in his list (Wahlbezirk 1 carries `k × 4,000`, the others at most 9
/// each), so every name is joined.
fn synthetic_city() -> Vec<InputFile> {
    let mut head =
        String::from("datum;wahl;ags;gebiet-nr;gebiet-name;max-schnellmeldungen;anz-schnellmeldungen;A;B;C1;C2;D");
    for n in 1..=LISTS {
        head.push_str(&format!(";D{n}_1;D{n}_3;D{n}_4"));
        for k in 1..=PER_LIST {
            head.push_str(&format!(";D{n}_2_{k}"));
        }
    }
    let mut totals = vec![vec![0u64; PER_LIST as usize + 1]; LISTS as usize + 1];
    let mut list_votes = vec![0u64; LISTS as usize + 1];
    let mut rows = String::new();
    let (mut all_d, mut all_a) = (0u64, 0u64);
    for r in 1..=DISTRICTS {
        let mut cells = String::new();
        let mut d = 0u64;
        for n in 1..=LISTS {
            let lv = u64::from((r * 7 + n * 13) % 40);
            let cand: Vec<u64> = (1..=PER_LIST)
                .map(|k| if r == 1 { u64::from(k) * 4_000 } else { u64::from((r * 31 + n * 17 + k * 7) % 10) })
                .collect();
            let sum: u64 = cand.iter().sum();
            cells.push_str(&format!(";{lv};{sum};{}", lv + sum));
            for (k, v) in cand.iter().enumerate() {
                cells.push_str(&format!(";{v}"));
                totals[n as usize][k + 1] += v;
            }
            list_votes[n as usize] += lv;
            d += lv + sum;
        }
        all_d += d;
        all_a += 1_000;
        rows.push_str(&format!(
            "13.09.2026;Ratswahl;03999000;{r:03};Wahlbezirk {r:03};1;1;1000;700;5;695;{d}{cells}\n"
        ));
    }
    let mut whole = format!(
        "13.09.2026;Ratswahl;03999000;0;Stadt Benchstadt;{DISTRICTS};{DISTRICTS};{all_a};280000;2000;278000;{all_d}"
    );
    let mut zeilen = Vec::new();
    let mut elected = Vec::new();
    for n in 1..=LISTS {
        let sum: u64 = totals[n as usize].iter().sum();
        let lv = list_votes[n as usize];
        whole.push_str(&format!(";{lv};{sum};{}", lv + sum));
        for k in 1..=PER_LIST {
            whole.push_str(&format!(";{}", totals[n as usize][k as usize]));
        }
        let short = format!("P{n}");
        zeilen.push(json!({"label": {"labelKurz": format!("{short} - Summe Partei- und Kandidaten-Stimmen"), "labelLang": format!("Partei {n} - Summe Partei- und Kandidaten-Stimmen")}, "zahl": (lv + sum).to_string()}));
        zeilen
            .push(json!({"label": {"labelKurz": format!("{short} - Stimmen für die Partei")}, "zahl": lv.to_string()}));
        let subs: Vec<_> = (1..=PER_LIST)
            .map(|k| json!({"label": {"labelKurz": format!("Vorname{k} Nachname{n}x{k}")}, "zahl": totals[n as usize][k as usize].to_string()}))
            .collect();
        zeilen.push(json!({"label": {"labelKurz": format!("{short} - Summe Kandidaten-Stimmen")}, "zahl": sum.to_string(), "sub_zeilen": subs}));
        for k in 1..=3u32 {
            elected.push(json!([
                short,
                format!("Nachname{n}x{k}, Vorname{k}"),
                format!("Listenplatz {k}"),
                totals[n as usize][k as usize].to_string()
            ]));
        }
    }
    let seats: Vec<_> = (1..=LISTS).map(|n| json!({"label": format!("P{n}"), "sitze": 3})).collect();
    let result = json!({"seitentitel": "Ratswahl 13.09.2026 - Stadt Benchstadt", "Komponente": {
        "tabelle": {"zeilen": zeilen},
        "sitze": {"tortenDiagramm": {"entries": seats}, "tabelle": {"ueberschriften": ["Partei", "Kandidat/in", "Mandat", "Stimmen"], "zeilen": elected}}}});
    vec![
        InputFile {
            name: "Open-Data-03999000-Ratswahl-Stadt.csv".into(),
            bytes: format!("{head}\n{whole}\n").into_bytes(),
        },
        InputFile {
            name: "Open-Data-03999000-Ratswahl-Wahlbezirk.csv".into(),
            bytes: format!("{head}\n{rows}").into_bytes(),
        },
        InputFile { name: "ergebnis.json".into(), bytes: serde_json::to_vec(&result).expect("JSON") },
    ]
}

/// Median and maximum milliseconds of `iterations` imports, and the candidates imported.
fn measure(files: &[InputFile], facts: &BodyFacts, iterations: usize) -> (f64, f64, usize) {
    let first = import(files, None, facts, &Options::default()).expect("the benchmark's files import");
    let candidates = first.snapshot.lists.iter().map(|l| l.candidates.len()).sum();
    let mut samples: Vec<f64> = (0..iterations)
        .map(|_| {
            let t = Instant::now();
            let i = import(files, None, facts, &Options::default()).expect("import");
            std::hint::black_box(&i);
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    samples.sort_by(|a, b| a.total_cmp(b));
    (samples[samples.len() / 2], samples[samples.len() - 1], candidates)
}

fn main() {
    let smoke = std::env::args().any(|a| a == "--smoke");
    let iterations = if smoke { 2 } else { 20 };
    println!("import benchmark ({iterations} imports each{})", if smoke { ", smoke" } else { "" });
    println!("{:<52} {:>6} {:>10} {:>10} {:>8}", "set", "MB", "candidates", "median ms", "max ms");
    let mut cases: Vec<(String, Vec<InputFile>, BodyFacts)> = Vec::new();
    let samples = [
        ("nw-duesseldorf-2020-ratswahl-owd", Land::Nw, Some(82)),
        ("he-darmstadt-2021-stadtverordnetenwahl-votemanager", Land::He, Some(71)),
        ("ni-oldenburg-2026-ratswahl-votemanager", Land::Ni, None),
    ];
    for (dir, land, size) in samples {
        match sample(dir) {
            Some(files) => cases.push((dir.to_owned(), files, facts(land, size))),
            None => println!("{dir}: not found, skipped"),
        }
    }
    cases.push(("synthetic: 1,500 candidates, 400 Wahlbezirke".into(), synthetic_city(), facts(Land::Ni, Some(45))));
    let mut results = Vec::new();
    for (name, files, facts) in &cases {
        let mb = files.iter().map(|f| f.bytes.len()).sum::<usize>() as f64 / 1_048_576.0;
        let (median, max, candidates) = measure(files, facts, iterations);
        println!("{name:<52} {mb:>6.2} {candidates:>10} {median:>10.1} {max:>8.1}");
        results.push(json!({"set": name, "mb": mb, "candidates": candidates, "median_ms": median, "max_ms": max}));
    }
    assert!(results.iter().all(|r| r["median_ms"].as_f64().is_some_and(f64::is_finite)), "malformed result");
    println!("{}", json!({"benchmark": "import", "iterations": iterations, "results": results}));
}
