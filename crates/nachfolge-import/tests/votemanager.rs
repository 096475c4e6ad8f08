//! The votemanager importer on the published files of four council elections, read where they lie
//! (`../shared/election-exports/`, never copied into the repository), and on malformed input. The figures
//! asserted were checked by hand against the CSVs (and the result JSON for Oldenburg).

mod common;
use common::{exports, facts, files};

use std::collections::HashMap;

use chrono::{NaiveDate, TimeZone, Utc};
use nachfolge_core::model::{Body, DeterminationMode, Land, ListKind, SeatVia, Snapshot};
use nachfolge_core::rules::{Outcome, Query};
use nachfolge_import::{
    import, import_with_contacts, Format, ImportError, Imported, InputFile, Options, Severity, PLACEHOLDER_NAME,
};

const OLDENBURG: &str = "ni-oldenburg-2026-ratswahl-votemanager";
const DARMSTADT: &str = "he-darmstadt-2021-stadtverordnetenwahl-votemanager";
const VATERSTETTEN: &str = "by-vaterstetten-2020-gemeinderatswahl-votemanager";
const KARLSTADT: &str = "by-karlstadt-2020-stadtratswahl-votemanager";

fn run_files(files: &[InputFile], land: Land, size: Option<u32>) -> Result<Imported, ImportError> {
    import(files, None, &facts(land, size), &Options::default())
}

fn run(dir: &str, land: Land, size: Option<u32>) -> Imported {
    match run_files(&files(dir), land, size) {
        Ok(i) => i,
        Err(e) => panic!("{dir} does not import: {e}"),
    }
}

fn cand<'a>(s: &'a Snapshot, id: &str) -> &'a nachfolge_core::model::Candidate {
    s.lists.iter().flat_map(|l| &l.candidates).find(|c| c.id == id).unwrap_or_else(|| panic!("no candidate {id}"))
}

fn count_candidates(s: &Snapshot) -> usize {
    s.lists.iter().map(|l| l.candidates.len()).sum()
}

fn points(i: &Imported, severity: Severity) -> Vec<String> {
    i.report.points.iter().filter(|p| p.severity == severity).map(|p| p.message.clone()).collect()
}

/// Replace `from` by `to` in file `name` of `files`.
fn edit(files: &mut [InputFile], name: &str, from: &str, to: &str) {
    let f = files.iter_mut().find(|f| f.name == name).unwrap_or_else(|| panic!("no file {name}"));
    let text = String::from_utf8(f.bytes.clone()).expect("utf-8");
    assert!(text.contains(from), "{name} contains {from:?}");
    f.bytes = text.replacen(from, to, 1).into_bytes();
}

/// Decide the succession of `departed` (who holds a seat) on the imported snapshot.
fn decide(s: &Snapshot, departed: &str) -> Outcome {
    let body = Body::from_snapshot(s.clone()).expect("the snapshot validates");
    let via = cand(s, departed).seat.as_ref().map(|seat| seat.via);
    let q = Query {
        departed,
        departed_via: via,
        at: Utc.with_ymd_and_hms(2027, 1, 15, 12, 0, 0).single().expect("time"),
        lot_winner: None,
        pending: vec![],
        cause: Default::default(),
    };
    body.decide(&q).expect("decide").outcome
}

// ---------------------------------------------------------------------------------------------------------
// Oldenburg (Niedersachsen 2026 schema, six Wahlbereiche, result JSON with the elected table)

#[test]
fn oldenburg_lists_candidates_votes_and_names() {
    let i = run(OLDENBURG, Land::Ni, None);
    let s = &i.snapshot;
    assert_eq!(i.format, Format::Votemanager);
    // 16 Wahlvorschläge, each Wahlvorschlag of a Wahlbereich a list of its own: 88 (list, Wahlbereich)
    assert_eq!(s.lists.len(), 88);
    // 382 list candidates (the result JSON's sub_zeilen) and the Einzelwahlvorschlag
    assert_eq!(count_candidates(s), 383);
    assert_eq!(s.body.statutory_size, 52, "the seats the distribution allocated");
    let l1 = &s.lists[0];
    assert_eq!(
        (l1.id.as_str(), l1.name.as_str(), l1.short_name.as_deref()),
        ("L1-WB1", "BÜNDNIS 90/DIE GRÜNEN (Wahlbereich 1)", Some("GRÜNE"))
    );
    assert_eq!(l1.candidates.len(), 8, "D1_2_1 … D1_2_8 filled in Wahlbereich 1, D1_2_9 and D1_2_10 empty");
    // D1_2_k of the row "Wahlbereich 1": 1289;529;346;189;577;531;870;168
    let votes: Vec<i64> = l1.candidates.iter().filter_map(|c| c.votes).collect();
    assert_eq!(votes, [1289, 529, 346, 189, 577, 531, 870, 168]);
    let c = cand(s, "L1-WB1-07");
    assert_eq!((c.given_name.as_str(), c.family_name.as_str(), c.votes), ("Anna Sarah", "Krämer", Some(870)));
    // Wahlbereich 4, SPD position 1: D2_2_1 = 2198
    assert_eq!(cand(s, "L2-WB4-01").votes, Some(2198));
    // the Einzelwahlvorschlag D11 stood in Wahlbereich 4 only (D11_4 = 124)
    let ind: Vec<_> = s.lists.iter().filter(|l| l.id.starts_with("L11-")).collect();
    assert_eq!(ind.len(), 1);
    assert_eq!((ind[0].id.as_str(), ind[0].kind), ("L11-WB4", ListKind::Individual));
    let c = &ind[0].candidates[0];
    assert_eq!((c.full_name().as_str(), c.votes, c.seat.is_none()), ("Michael Stille", Some(124), true));
    assert_eq!(
        s.lists.iter().find(|l| l.id == "L16-WB1").map(|l| l.kind),
        Some(ListKind::VoterGroup),
        "Wählergemeinschaft"
    );
}

#[test]
fn oldenburg_names_joined_by_votes_only_where_unique() {
    let i = run(OLDENBURG, Land::Ni, None);
    let s = &i.snapshot;
    // every name set matches the result JSON's name with those votes, in the same list
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(exports().join(OLDENBURG).join("praesentation-ratswahl.json")).expect("result JSON"),
    )
    .expect("JSON");
    let mut by_list: HashMap<String, Vec<(String, i64)>> = HashMap::new();
    for row in json["Komponente"]["tabelle"]["zeilen"].as_array().expect("rows") {
        let label = row["label"]["labelKurz"].as_str().unwrap_or("");
        let Some(short) = label.strip_suffix(" - Summe Kandidaten-Stimmen") else { continue };
        for sub in row["sub_zeilen"].as_array().expect("candidates") {
            let votes = sub["zahl"].as_str().unwrap_or("").replace('.', "").parse().expect("votes");
            by_list
                .entry(short.to_owned())
                .or_default()
                .push((sub["label"]["labelKurz"].as_str().unwrap_or("").to_owned(), votes));
        }
    }
    let mut named = 0;
    let mut unnamed = Vec::new();
    for l in s.lists.iter().filter(|l| l.kind != ListKind::Individual) {
        let pool = &by_list[l.short_name.as_deref().expect("short name")];
        for c in &l.candidates {
            if c.given_name == PLACEHOLDER_NAME {
                unnamed.push((l.id.split('-').next().expect("n").to_owned(), c.id.clone(), c.votes.expect("votes")));
                continue;
            }
            named += 1;
            let shown = c.academic_degree.as_ref().map_or_else(|| c.full_name(), |d| format!("{d} {}", c.full_name()));
            assert!(pool.contains(&(shown.clone(), c.votes.expect("votes"))), "{} {shown} is in the result JSON", c.id);
        }
    }
    assert_eq!(named + unnamed.len(), 382);
    // the README's 44: candidates sharing their vote count with another of the same Wahlvorschlag — none of
    // them is named by a guess, each shares its count with another candidate of its Wahlvorschlag
    assert_eq!(unnamed.len(), 44);
    for (n, id, votes) in &unnamed {
        let same = s.lists.iter().filter(|l| l.id.split('-').next() == Some(n)).flat_map(|l| &l.candidates);
        assert!(same.filter(|c| c.votes == Some(*votes)).count() > 1, "{id} shares {votes} votes");
    }
    let ambiguous = points(&i, Severity::ToConfirm);
    assert!(
        ambiguous
            .iter()
            .any(|p| p.starts_with("list D16: 8 candidate(s) share their vote count") && p.contains("L16-WB1-02")),
        "{ambiguous:?}"
    );
    assert!(ambiguous.iter().any(|p| p == "44 of 383 candidates have no name (`[Name fehlt]`): add them"));
    // the official's points name ids, never names
    assert!(i.report.points.iter().all(|p| !p.message.contains("Krämer") && !p.message.contains("Stille")));
}

#[test]
fn ni_36_abs_5_and_6_nkwg_direkt_is_personal_vote_listenplatz_is_list() {
    let i = run(OLDENBURG, Land::Ni, None);
    let s = &i.snapshot;
    let seated: Vec<_> = s.lists.iter().flat_map(|l| &l.candidates).filter(|c| c.seat.is_some()).collect();
    assert_eq!(seated.len(), 52);
    let via = |v| seated.iter().filter(|c| c.seat.as_ref().map(|s| s.via) == Some(v)).count();
    assert_eq!((via(SeatVia::PersonalVote), via(SeatVia::List)), (17, 35));
    assert!(seated.iter().all(|c| c.seat.as_ref().map(|s| s.since) == NaiveDate::from_ymd_opt(2026, 11, 1)));
    // "GRÜNE; Menge, Susanne; Wahlbereich 1, direkt; 1.289"
    let c = cand(s, "L1-WB1-01");
    assert_eq!(
        (c.full_name().as_str(), c.seat.as_ref().map(|s| s.via)),
        ("Susanne Menge", Some(SeatVia::PersonalVote))
    );
    // "GRÜNE; Drügemöller, Ruth; Wahlbereich 5, Listenplatz 1; 485"
    let c = cand(s, "L1-WB5-01");
    assert_eq!(
        (c.full_name().as_str(), c.votes, c.seat.as_ref().map(|s| s.via)),
        ("Ruth Drügemöller", Some(485), Some(SeatVia::List))
    );
    // "GRÜNE; Dr. Giesers, Benjamin; Wahlbereich 6, Listenplatz 2; 449": the degree apart
    let c = cand(s, "L1-WB6-02");
    assert_eq!(
        (c.academic_degree.as_deref(), c.given_name.as_str(), c.family_name.as_str()),
        (Some("Dr."), "Benjamin", "Giesers")
    );
    // "Echt Oldenburg; Butzin, Ralf; Wahlbereich 6, direkt; 605": D15, one candidate in Wahlbereich 6
    let c = cand(s, "L15-WB6-01");
    assert_eq!((c.votes, c.seat.as_ref().map(|s| s.via)), (Some(605), Some(SeatVia::PersonalVote)));
    // seats per Wahlvorschlag as the distribution says: GRÜNE 13, SPD 12, CDU 7, Die Linke 7, AfD 5
    let per = |n: &str| {
        s.lists
            .iter()
            .filter(|l| l.id.split('-').next() == Some(n))
            .flat_map(|l| &l.candidates)
            .filter(|c| c.seat.is_some())
            .count()
    };
    assert_eq!([per("L1"), per("L2"), per("L3"), per("L4"), per("L6"), per("L16")], [13, 12, 7, 7, 5, 0]);
    assert!(points(&i, Severity::DataFault).is_empty(), "the four files agree: {:?}", points(&i, Severity::DataFault));
    assert!(i
        .report
        .read
        .iter()
        .any(|r| r.en == "seats found: 52 (17 by personal vote, 35 by list) in 52 rows of the elected table"));
}

#[test]
fn ni_44_abs_5_nkwg_38_abs_5_wahlbereiche_are_lists_of_their_own_tied_by_the_wahlvorschlag_number() {
    let i = run(OLDENBURG, Land::Ni, None);
    // issue 25, point 5: the fall-back to the party's other Wahlbereiche is modelled, so no forced confirmation
    assert_eq!(i.snapshot.body.determination, DeterminationMode::Automatic);
    assert!(
        points(&i, Severity::Info).iter().any(
            |p| p.starts_with("6 Wahlbereiche:") && p.contains("§ 44 Abs. 5 Satz 1 NKWG i. V. m. § 38 Abs. 5 NKWG")
        ),
        "{:?}",
        points(&i, Severity::Info)
    );
    let l1 = i.snapshot.lists.iter().find(|l| l.id == "L1-WB1").expect("L1-WB1");
    assert_eq!((l1.area.as_deref(), l1.party.as_deref()), (Some("Wahlbereich 1"), Some("D1")));
    // an Einzelwahlvorschlag is not tied to anything
    let ind = i.snapshot.lists.iter().find(|l| l.id == "L11-WB4").expect("L11-WB4");
    assert_eq!((ind.area.as_deref(), ind.party.as_deref()), (Some("Wahlbereich 4"), None));
    // the successor of a Personenwahl seat is the not elected candidate with most votes of the same
    // Wahlvorschlag in the same Wahlbereich (§ 44 Abs. 1 i. V. m. § 38 Abs. 2 NKWG): Wahlbereich 1, GRÜNE,
    // D1_2_7 = 870 — not a candidate of another Wahlbereich with more votes
    match decide(&i.snapshot, "L1-WB1-01") {
        Outcome::Successor { candidate, list, .. } => {
            assert_eq!((candidate.as_str(), list.as_str()), ("L1-WB1-07", "L1-WB1"))
        }
        other => panic!("{other:?}"),
    }
}

/// § 44 Abs. 5 Satz 1 i. V. m. § 37 Abs. 5, § 38 Abs. 5 NKWG on the imported Oldenburg result: once every other
/// candidate of GRÜNE in Wahlbereich 1 has refused, the seat passes to GRÜNE's not elected candidate with the most
/// votes in the other five Wahlbereiche.
#[test]
fn ni_38_abs_5_nkwg_an_exhausted_imported_wahlbereich_falls_back_to_the_partys_other_wahlbereiche() {
    let i = run(OLDENBURG, Land::Ni, None);
    let mut s = i.snapshot.clone();
    let refused = nachfolge_core::model::Fact::Declined {
        on: NaiveDate::from_ymd_opt(2027, 1, 2).expect("date"),
        of: Default::default(),
    };
    let wb1 = s.lists.iter_mut().find(|l| l.id == "L1-WB1").expect("L1-WB1");
    wb1.candidates.iter_mut().filter(|c| c.seat.is_none()).for_each(|c| c.facts.push(refused.clone()));
    // the expected successor, read off the snapshot: most votes among GRÜNE's candidates without a seat elsewhere
    let best = s
        .lists
        .iter()
        .filter(|l| l.party.as_deref() == Some("D1") && l.id != "L1-WB1")
        .flat_map(|l| l.candidates.iter().map(move |c| (l, c)))
        .filter(|(_, c)| c.seat.is_none())
        .max_by_key(|(_, c)| c.votes)
        .map(|(l, c)| (c.id.clone(), l.id.clone(), c.votes))
        .expect("candidates in other Wahlbereiche");
    let ties = s
        .lists
        .iter()
        .filter(|l| l.party.as_deref() == Some("D1") && l.id != "L1-WB1")
        .flat_map(|l| &l.candidates)
        .filter(|c| c.seat.is_none() && c.votes == best.2)
        .count();
    assert_eq!(ties, 1, "the sample has no tie at the top");
    match decide(&s, "L1-WB1-01") {
        Outcome::Successor { candidate, list, .. } => {
            assert_eq!((candidate, list), (best.0.clone(), best.1.clone()));
            assert!(best.1.starts_with("L1-WB") && best.1 != "L1-WB1");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn oldenburg_without_the_wahlbereiche_file_is_refused() {
    let f: Vec<InputFile> =
        files(OLDENBURG).into_iter().filter(|f| f.name != "ratswahl-2026-wahlbereiche.csv").collect();
    let e = run_files(&f, Land::Ni, None).expect_err("no Wahlbereiche");
    assert_eq!(e.file.as_deref(), Some("praesentation-ratswahl.json"));
    assert!(e.message.contains("no CSV of the Wahlbereiche"), "{e}");
}

// ---------------------------------------------------------------------------------------------------------
// Darmstadt (Hessen schema, Wahlbezirke only, no names), Bayern 2020 (Vaterstetten, Karlstadt)

#[test]
fn darmstadt_hessen_schema_sums_the_wahlbezirke() {
    let i = run(DARMSTADT, Land::He, Some(71));
    let s = &i.snapshot;
    // D1–D14 without D9; D2_72 and D3_72 … D3_75 empty in every row: no candidate there
    let ids: Vec<&str> = s.lists.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L10", "L11", "L12", "L13", "L14"]);
    let sizes: Vec<usize> = s.lists.iter().map(|l| l.candidates.len()).collect();
    assert_eq!(sizes, [68, 71, 71, 25, 31, 30, 29, 33, 27, 29, 20, 26, 25]);
    assert_eq!(count_candidates(s), 485);
    // Σ over the 137 rows
    assert_eq!(
        [cand(s, "L1-01").votes, cand(s, "L1-68").votes, cand(s, "L2-03").votes, cand(s, "L14-25").votes],
        [Some(19599), Some(8507), Some(24641), Some(2478)]
    );
    let c = cand(s, "L3-07");
    assert_eq!((c.given_name.as_str(), c.family_name.as_str()), (PLACEHOLDER_NAME, "Wahlvorschlag 3, Platz 7"));
    assert_eq!(s.lists[0].name, format!("Wahlvorschlag 1 {PLACEHOLDER_NAME}"));
    assert!(count_candidates(s) == s.lists.iter().flat_map(|l| &l.candidates).filter(|c| c.seat.is_none()).count());
    let p = points(&i, Severity::ToConfirm);
    assert!(p.iter().any(|p| p.starts_with("no result JSON of the presentation")), "{p:?}");
    assert!(p.iter().any(|p| p == "0 seat(s) set, the statutory size is 71: mark the seat holders"));
    assert!(i
        .report
        .read
        .iter()
        .any(|r| r.en == "count: 137 of 137 Schnellmeldungen" && r.de == "Auszählung: 137 von 137 Schnellmeldungen"));
}

#[test]
fn vaterstetten_bayern_schema_whole_area_row_and_stimmbezirke_agree() {
    let i = run(VATERSTETTEN, Land::By, Some(30));
    let s = &i.snapshot;
    assert_eq!(s.lists.len(), 6);
    assert_eq!(count_candidates(s), 173);
    assert_eq!(s.lists[3].candidates.len(), 23, "list 4 has 23 candidates");
    assert_eq!(
        [cand(s, "L1-01").votes, cand(s, "L1-02").votes, cand(s, "L1-30").votes, cand(s, "L6-01").votes],
        [Some(9994), Some(5724), Some(2297), Some(3162)]
    );
    assert!(points(&i, Severity::DataFault).is_empty(), "{:?}", points(&i, Severity::DataFault));
    assert!(
        i.report.points.iter().any(|p| p.file.as_deref() == Some("Open-Data-Dokumentation.pdf")),
        "the PDF is ignored, said so"
    );
}

#[test]
fn karlstadt_gaps_in_list_numbers_and_leading_zeros() {
    let i = run(KARLSTADT, Land::By, Some(24));
    let s = &i.snapshot;
    let ids: Vec<&str> = s.lists.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["L1", "L2", "L5", "L6", "L7", "L8"]);
    let sizes: Vec<usize> = s.lists.iter().map(|l| l.candidates.len()).collect();
    assert_eq!(sizes, [24, 24, 20, 4, 24, 14]);
    assert_eq!(
        [cand(s, "L1-01").votes, cand(s, "L2-24").votes, cand(s, "L8-14").votes],
        [Some(7698), Some(1640), Some(171)]
    );
}

#[test]
fn he_34_abs_1_kwg_and_by_art_37_glkrwg_decide_on_imported_snapshots_with_a_seat_from_the_contacts() {
    // the files have no seats: the official marks one with the contacts CSV, then a vacancy is decided
    let contacts = InputFile { name: "kontakte.csv".into(), bytes: b"liste;platz;sitz\nL1;1;liste\n".to_vec() };
    for (dir, land, size, successor) in
        [(DARMSTADT, Land::He, 71, "L1-03"), (VATERSTETTEN, Land::By, 30, "L1-04"), (KARLSTADT, Land::By, 24, "L1-03")]
    {
        let i = import_with_contacts(&files(dir), None, &facts(land, Some(size)), &Options::default(), Some(&contacts))
            .expect("imports");
        // the not elected candidate with most votes (Σ D1_k: 18519, 6875, 5261)
        match decide(&i.snapshot, "L1-01") {
            Outcome::Successor { candidate, .. } => assert_eq!(candidate, successor, "{dir}"),
            other => panic!("{dir}: {other:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// the levels, the count state, aggregate rows, BOMs

#[test]
fn levels_that_disagree_are_reported_with_both_files() {
    let mut f = files(VATERSTETTEN);
    // Stimmbezirk 01, D1_1: 312 → 313 (the whole-area row keeps 9994)
    edit(&mut f, "Open-Data-Gemeinderatswahl-Bayern1166.csv", ";4120;312;", ";4120;313;");
    let i = run_files(&f, Land::By, Some(30)).expect("imports");
    let faults: Vec<_> = i.report.points.iter().filter(|p| p.severity == Severity::DataFault).collect();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0].file.as_deref(), Some("Open-Data-Gemeinderatswahl-Bayern1166.csv"));
    assert!(
        faults[0].message.contains("Open-Data-Gemeinderatswahl-Bayern1163.csv")
            && faults[0].message.contains("`D1_1` 9995 vs 9994"),
        "{}",
        faults[0].message
    );
    assert_eq!(cand(&i.snapshot, "L1-01").votes, Some(9994), "the whole-area row, never both levels added");
}

#[test]
fn an_incomplete_count_is_refused_unless_allowed() {
    let mut f = files(VATERSTETTEN);
    edit(
        &mut f,
        "Open-Data-Gemeinderatswahl-Bayern1163.csv",
        ";Gemeinde Vaterstetten;38;38;",
        ";Gemeinde Vaterstetten;38;37;",
    );
    let e = run_files(&f, Land::By, Some(30)).expect_err("incomplete");
    assert_eq!(
        (e.file.as_deref(), e.line, e.column),
        (Some("Open-Data-Gemeinderatswahl-Bayern1163.csv"), Some(2), Some(7))
    );
    assert!(e.message.contains("37 of 38 Schnellmeldungen"), "{e}");
    let i = import(&f, None, &facts(Land::By, Some(30)), &Options { allow_incomplete: true }).expect("allowed");
    assert!(points(&i, Severity::ToConfirm).iter().any(|p| p.starts_with("an interim result: 37 of 38")));
}

#[test]
fn an_aggregate_row_is_left_out_and_nothing_counted_twice() {
    let mut f: Vec<InputFile> = files(KARLSTADT);
    let whole = String::from_utf8(f[0].bytes.clone()).expect("utf-8");
    let total_row = whole.lines().nth(1).expect("the whole-area row").to_owned();
    let districts = f.iter_mut().find(|x| x.name.ends_with("1106.csv")).expect("districts");
    districts.bytes.extend_from_slice(format!("{total_row}\n").as_bytes());
    for only_districts in [false, true] {
        let set: Vec<InputFile> =
            f.iter().filter(|x| !only_districts || x.name.ends_with("1106.csv")).cloned().collect();
        let i = run_files(&set, Land::By, Some(24)).expect("imports");
        assert_eq!(cand(&i.snapshot, "L1-01").votes, Some(7698), "only_districts: {only_districts}");
        assert!(points(&i, Severity::DataFault).is_empty(), "{:?}", points(&i, Severity::DataFault));
        let agg: Vec<_> = i.report.points.iter().filter(|p| p.message.starts_with("an aggregate row")).collect();
        assert_eq!((agg.len(), agg[0].line), (1, Some(25)));
    }
}

#[test]
fn byte_order_marks_and_crlf_are_read() {
    let mut f = files(KARLSTADT);
    for file in &mut f {
        let text = String::from_utf8(file.bytes.clone()).expect("utf-8").replace('\n', "\r\n");
        file.bytes = [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
    }
    let i = run_files(&f, Land::By, Some(24)).expect("imports");
    assert_eq!(count_candidates(&i.snapshot), 110);
    assert_eq!(cand(&i.snapshot, "L1-01").votes, Some(7698));
}

#[test]
fn several_elections_in_one_folder_are_refused() {
    let mut f = files(VATERSTETTEN);
    edit(&mut f, "Open-Data-Gemeinderatswahl-Bayern1163.csv", "Wahl des Gemeinderats", "Wahl des Kreistags");
    let e = run_files(&f, Land::By, Some(30)).expect_err("two elections");
    assert!(e.message.contains("several elections") && e.message.contains("Wahl des Kreistags"), "{e}");
}

// ---------------------------------------------------------------------------------------------------------
// schema versions and the index, on small files written here

const HEAD: &str = "datum;wahl;ags;gebiet-nr;gebiet-name;max-schnellmeldungen;anz-schnellmeldungen;A;B;C;D";

fn csv(name: &str, text: &str) -> InputFile {
    InputFile { name: name.into(), bytes: text.as_bytes().to_vec() }
}

#[test]
fn ni_2021_schema_with_index_names_an_individual_and_an_unreported_cell() {
    let head = format!(
        "{HEAD};D1_liste;D1_summe_kandidaten;D1_summe_liste_kandidaten;D1_1;D1_2;D1_3;D2_summe_liste_kandidaten"
    );
    let districts = format!(
        "{head}\n12.09.2021;Ratswahl;03000000;1;Bezirk 1;1;1;100;80;0;240;40;60;100;30;30;0;20\n\
         12.09.2021;Ratswahl;03000000;2;Bezirk 2;1;1;100;70;0;210;50;50;100;25;;25;10\n"
    );
    let index = r#"{"csvs": [{"wahl": "Ratswahl", "ebene": "Wahlbezirke", "url": "x/Open-Data-Ratswahl-Wahlbezirk.csv"}],
        "dateifelder": [{"name": "Ratswahl", "felder": [], "parteien": [{"feld": "D1", "wert": "Partei Eins"}, {"feld": "D2", "wert": "Erika Muster, Einzelwahlvorschlag"}]}]}"#;
    let f = [csv("Open-Data-Ratswahl-Wahlbezirk.csv", &districts), csv("open_data.json", index)];
    let i = run_files(&f, Land::Ni, Some(5)).expect("imports");
    let s = &i.snapshot;
    assert_eq!(s.lists.len(), 2);
    assert_eq!((s.lists[0].name.as_str(), s.lists[0].kind), ("Partei Eins", ListKind::Party));
    assert_eq!(
        (s.lists[1].name.as_str(), s.lists[1].kind),
        ("Erika Muster, Einzelwahlvorschlag", ListKind::Individual)
    );
    // D1_2 is empty in a row that reported: not reported, never 0 — and said so
    assert_eq!(
        [cand(s, "L1-01").votes, cand(s, "L1-02").votes, cand(s, "L1-03").votes, cand(s, "L2-01").votes],
        [Some(55), Some(30), Some(25), Some(30)]
    );
    let faults = points(&i, Severity::DataFault);
    assert!(
        faults.iter().any(|p| p.contains("empty cell(s) in rows that reported") && p.contains("`D1_2`")),
        "{faults:?}"
    );
    assert_eq!(cand(s, "L2-01").full_name(), "Erika Muster", "the index names the Einzelwahlvorschlag");
}

#[test]
fn result_json_joins_by_order_and_never_guesses_a_seat_or_a_name() {
    // two lists with the same total (100): neither a name nor a total tells them apart, the order does
    let whole = format!(
        "{HEAD};D1;D1_1;D1_2;D1_3;D2;D2_1;D2_2\n14.03.2021;Gemeindewahl;06000000;0;Gemeinde;1;1;500;200;0;200;100;40;30;30;100;60;40\n"
    );
    let result = r#"{"seitentitel": "Gemeindewahl 14.03.2021 - Gemeinde", "Komponente": {
        "tabelle": {"zeilen": [
            {"label": {"labelKurz": "A", "labelLang": "Liste A"}, "zahl": "100", "sub_zeilen": [
                {"label": {"labelKurz": "Eva Erste"}, "zahl": "40"}, {"label": {"labelKurz": "Max Zweiter"}, "zahl": "30"},
                {"label": {"labelKurz": "Ute Dritte"}, "zahl": "30"}]},
            {"label": {"labelKurz": "B", "labelLang": "Liste B"}, "zahl": "100", "sub_zeilen": [
                {"label": {"labelKurz": "Bo Bee"}, "zahl": "60"}, {"label": {"labelKurz": "Cy Cee"}, "zahl": "40"}]}]},
        "sitze": {"tortenDiagramm": {"entries": [{"label": "A", "sitze": 2}, {"label": "B", "sitze": 1}]},
                  "tabelle": {"ueberschriften": ["Partei", "Kandidat/in", "Mandat", "Stimmen"], "zeilen": [
                      ["A", "Erste, Eva", "direkt", "40"], ["A", "Zweiter, Max", "direkt", "30"], ["B", "Bee, Bo", "Listenplatz 1", "60"]]}}}}"#;
    let f = [csv("Open-Data-Gemeindewahl.csv", &whole), csv("ergebnis.json", result)];
    let i = run_files(&f, Land::He, Some(3)).expect("imports");
    let s = &i.snapshot;
    assert_eq!((s.lists[0].name.as_str(), s.lists[1].name.as_str()), ("Liste A", "Liste B"));
    let p = points(&i, Severity::ToConfirm);
    assert!(
        p.iter().any(|p| p.starts_with("lists D1, D2 were matched to the result JSON by their order only")),
        "{p:?}"
    );
    // `direkt` outside Niedersachsen: a list seat, to confirm
    assert_eq!(cand(s, "L1-01").seat.as_ref().map(|s| s.via), Some(SeatVia::List));
    assert!(p.iter().any(|p| p.starts_with("1 seat(s) marked `direkt` were recorded as `list`")), "{p:?}");
    // "Zweiter, Max" with 30 votes fits positions 2 and 3 of list A: no seat, no name, a point
    assert!(cand(s, "L1-02").seat.is_none() && cand(s, "L1-03").seat.is_none());
    assert!(p.iter().any(|p| p.contains("row 2") && p.contains("fits several candidates (L1-02, L1-03)")), "{p:?}");
    assert_eq!(
        (cand(s, "L1-02").given_name.as_str(), cand(s, "L1-03").given_name.as_str()),
        (PLACEHOLDER_NAME, PLACEHOLDER_NAME)
    );
    assert_eq!(
        (cand(s, "L2-01").full_name(), cand(s, "L2-02").full_name()),
        ("Bo Bee".to_owned(), "Cy Cee".to_owned())
    );
    assert!(points(&i, Severity::DataFault)
        .iter()
        .any(|p| p.contains("list D1 (A): 2 seats in the seat distribution, 1 assigned")));
}

// ---------------------------------------------------------------------------------------------------------
// malformed input: a clear error naming the file (and line and column where there is one)

#[test]
fn a_truncated_csv_is_refused_with_its_line() {
    let mut f = files(OLDENBURG);
    let areas = f.iter_mut().find(|x| x.name == "ratswahl-2026-wahlbereiche.csv").expect("areas");
    let text = String::from_utf8(areas.bytes.clone()).expect("utf-8");
    let cut = text.match_indices('\n').nth(3).map(|(i, _)| i + 200).expect("four lines");
    areas.bytes.truncate(cut);
    let e = run_files(&f, Land::Ni, None).expect_err("truncated");
    assert_eq!((e.file.as_deref(), e.line), (Some("ratswahl-2026-wahlbereiche.csv"), Some(5)));
    assert!(e.message.contains("a truncated or malformed file"), "{e}");
}

#[test]
fn a_wrong_separator_is_refused() {
    let mut f = files(VATERSTETTEN);
    let whole = f.iter_mut().find(|x| x.name.ends_with("1163.csv")).expect("whole");
    whole.bytes = String::from_utf8(whole.bytes.clone()).expect("utf-8").replace(';', ",").into_bytes();
    let e = run_files(&f, Land::By, Some(30)).expect_err("commas");
    assert_eq!((e.file.as_deref(), e.line), (Some("Open-Data-Gemeinderatswahl-Bayern1163.csv"), Some(1)));
    assert!(e.message.contains("wrong separator"), "{e}");
}

#[test]
fn an_unknown_header_is_refused_naming_its_columns() {
    let mut f = files(DARMSTADT);
    edit(&mut f, "Open-Data-06411000-Stadtverordnetenwahl-Wahlbezirk.csv", ";panasch_1;D1;", ";panasch_1;D1_stimmen;");
    let e = run_files(&f, Land::He, Some(71)).expect_err("unknown column");
    assert_eq!((e.file.as_deref(), e.line), (Some("Open-Data-06411000-Stadtverordnetenwahl-Wahlbezirk.csv"), Some(1)));
    assert!(e.message.contains("unknown columns for the Hessen") && e.message.contains("`D1_stimmen`"), "{e}");
}

#[test]
fn a_file_that_is_not_utf8_is_refused_with_line_and_column() {
    let mut f = files(KARLSTADT);
    let whole = f.iter_mut().find(|x| x.name.ends_with("1103.csv")).expect("whole");
    let text = String::from_utf8(whole.bytes.clone()).expect("utf-8");
    // "Stadt Karlstadt" as Windows-1252 would write "Stadt Karlstädt"
    let at = text.find(";Stadt Karlstadt;").expect("name") + ";Stadt Karlst".len();
    whole.bytes.splice(at..at + 1, [0xE4]);
    let e = run_files(&f, Land::By, Some(24)).expect_err("latin-1");
    let column = text.lines().nth(1).expect("row").find("Karlstadt;").expect("in row") + "Karlst".len() + 1;
    assert_eq!(
        (e.file.as_deref(), e.line, e.column),
        (Some("Open-Data-Gemeinderatswahl-Bayern1103.csv"), Some(2), Some(column))
    );
    assert!(e.message.starts_with("not UTF-8"), "{e}");
}

#[test]
fn a_csv_of_200_mb_is_refused_before_it_is_parsed() {
    let mut f = files(KARLSTADT);
    let mut big = format!("{HEAD};D1;D1_1\n").into_bytes();
    big.resize(200 << 20, b'0');
    f.push(InputFile { name: "Open-Data-gross.csv".into(), bytes: big });
    let e = run_files(&f, Land::By, Some(24)).expect_err("too big");
    assert_eq!(e.file.as_deref(), Some("Open-Data-gross.csv"));
    assert!(e.message.contains("200 MB"), "{e}");
}

#[test]
fn a_truncated_result_json_is_refused_with_its_place() {
    let mut f = files(OLDENBURG);
    let r = f.iter_mut().find(|x| x.name == "praesentation-ratswahl.json").expect("result JSON");
    r.bytes.truncate(r.bytes.len() / 2);
    let e = run_files(&f, Land::Ni, None).expect_err("truncated JSON");
    assert_eq!(e.file.as_deref(), Some("praesentation-ratswahl.json"));
    assert!(e.line.is_some() && e.message.starts_with("not valid JSON"), "{e}");
}

#[test]
fn a_snapshot_the_land_refuses_is_an_error_not_half_an_import() {
    // Hessen requires votes; the import has them — but an empty body id fails the shared validation
    let mut fx = facts(Land::By, Some(24));
    fx.id = " ".into();
    let e = import(&files(KARLSTADT), None, &fx, &Options::default()).expect_err("invalid");
    assert!(e.message.starts_with("the snapshot does not validate: body.id"), "{e}");
}
