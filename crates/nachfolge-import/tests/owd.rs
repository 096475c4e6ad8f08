//! The Offene-Wahldaten importer on the three published NRW 2020 samples (read where they lie,
//! `../shared/election-exports/` from the project root) and on small synthetic sets for the faults.
//! The figures were summed by hand from the CSVs (awk over Wahlgebietseinteilungen and Wahlergebnisse).

use std::path::PathBuf;

use chrono::NaiveDate;
use nachfolge_core::model::{Candidate, Land, ListKind, ReturningOfficer, SeatVia, Snapshot};
use nachfolge_import::{detect, import, BodyFacts, Format, ImportError, InputFile, Options, Report, Severity};

fn exports(dir: &str) -> Vec<InputFile> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/election-exports").join(dir);
    let entries = std::fs::read_dir(&path)
        .unwrap_or_else(|e| panic!("the published samples must lie in {}: {e}", path.display()));
    let mut files: Vec<InputFile> = entries
        .map(|e| {
            let e = e.expect("directory entry");
            InputFile {
                name: e.file_name().to_string_lossy().into_owned(),
                bytes: std::fs::read(e.path()).expect("readable sample"),
            }
        })
        .collect();
    files.sort_by(|a, b| a.name.cmp(&b.name));
    files
}

fn facts(id: &str, statutory_size: Option<u32>) -> BodyFacts {
    BodyFacts {
        land: Land::Nw,
        id: id.to_owned(),
        name: format!("Rat {id}"),
        kind: Default::default(),
        statutory_size,
        term_start: day(2020, 11, 1),
        term_end: day(2025, 10, 31),
        returning_officer: serde_json::from_value::<ReturningOfficer>(serde_json::json!({
            "name": "Wahlleitung", "email": "wahlleitung@example.org", "address": "Markt 1, 12345 Musterstadt"
        }))
        .expect("returning officer"),
    }
}

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("date")
}

fn run(files: &[InputFile], facts: &BodyFacts, options: &Options) -> Result<(Snapshot, Report), ImportError> {
    let imported = import(files, None, facts, options)?;
    assert_eq!(imported.format, Format::Owd);
    Ok((imported.snapshot, imported.report))
}

fn sample(dir: &str, size: Option<u32>) -> (Snapshot, Report) {
    run(&exports(dir), &facts(dir, size), &Options::default()).expect("the sample imports")
}

fn find<'s>(s: &'s Snapshot, family: &str, given: &str) -> (&'s str, &'s Candidate) {
    let mut hits = s.lists.iter().flat_map(|l| l.candidates.iter().map(move |c| (l.id.as_str(), c)));
    let hit = hits.find(|(_, c)| c.family_name == family && c.given_name == given);
    hit.unwrap_or_else(|| panic!("candidate {given} {family}"))
}

fn seats_by_list(s: &Snapshot) -> Vec<(&str, usize)> {
    s.lists
        .iter()
        .map(|l| (l.id.as_str(), l.candidates.iter().filter(|c| c.seat.is_some()).count()))
        .filter(|(_, n)| *n > 0)
        .collect()
}

fn points(r: &Report, severity: Severity) -> Vec<&str> {
    r.points.iter().filter(|p| p.severity == severity).map(|p| p.message.as_str()).collect()
}

/// `nachfolge decide` on the snapshot with one vacancy.
fn decide(s: &Snapshot, member: &str) -> serde_json::Value {
    let election = serde_json::to_vec(s).expect("snapshot as JSON");
    let vacancy = serde_json::json!({
        "body": s.body.id, "member": member, "reason": "resigned", "effective_at": "2021-06-30T23:59:59+02:00"
    });
    nachfolge_core::offline::decide(&election, vacancy.to_string().as_bytes(), None).expect("decide runs")
}

// --- the published samples -------------------------------------------------------------------------------

#[test]
fn duesseldorf_2020_lists_candidates_and_district_seats() {
    let (s, r) = sample("nw-duesseldorf-2020-ratswahl-owd", Some(82));
    assert_eq!(s.lists.len(), 16);
    assert_eq!(s.lists.iter().map(|l| l.candidates.len()).sum::<usize>(), 703);
    // position 12: the single candidate; positions 13 and 16 have no short name and join by long name
    let e12 = &s.lists[11];
    assert_eq!((e12.id.as_str(), e12.kind), ("E12", ListKind::Individual));
    assert_eq!(e12.name, "Einzelbewerberin Albertine Kallenbach - Alle sind Wir");
    assert_eq!(e12.candidates.len(), 1);
    assert_eq!(e12.candidates[0].position, None);
    let l13 = &s.lists[12];
    assert_eq!(
        (l13.name.as_str(), l13.short_name.as_deref(), l13.candidates.len()),
        ("Klimaliste Düsseldorf", None, 41)
    );
    assert_eq!((s.lists[15].name.as_str(), s.lists[15].candidates.len()), ("WIDERSTAND 2020 Wir für Düsseldorf", 5));
    assert_eq!((s.lists[0].short_name.as_deref(), s.lists[0].candidates.len()), (Some("CDU"), 77));
    // 41 Wahlbezirke: 30 CDU, 10 GRÜNE, 1 SPD
    assert_eq!(seats_by_list(&s), [("L1", 30), ("L2", 1), ("L3", 10)]);
    // Wahlbezirk 030: SPD, 1,406 votes over its Stimmbezirke
    let (list, albes) = find(&s, "Albes", "Burkhard Franz Götz");
    assert_eq!((list, albes.votes, albes.district.as_deref()), ("L2", Some(1406), Some("030")));
    assert_eq!(albes.seat.as_ref().map(|x| x.via), Some(SeatVia::District));
    // the four Wahlbezirke where Die PARTEI's column is empty although the Kandidaten file names a candidate
    let faults = points(&r, Severity::DataFault);
    assert_eq!(faults.len(), 4, "{faults:#?}");
    for wb in ["020", "023", "024", "041"] {
        assert!(faults.iter().any(|f| f.contains("Die PARTEI") && f.contains(&format!("Wahlbezirk {wb} "))), "{wb}");
    }
    let (_, winterfeld) = find(&s, "Winterfeld", "Benedikt");
    assert_eq!((winterfeld.district.as_deref(), winterfeld.votes), (Some("020"), None));
    assert!(r
        .read
        .iter()
        .any(|l| l.en.contains("454 Stimmbezirke (316 polling, 138 postal) mapped to 41 Wahlbezirke")));
    assert!(r.read.iter().any(|l| l.en.contains("41 of 41 Wahlbezirk seats found")));
    // the given size is 2 × 41: no point on it
    assert!(!points(&r, Severity::ToConfirm)
        .iter()
        .any(|p| p.contains("statutory size given") || p.contains("derived")));
}

#[test]
fn kwahlg_nrw_32_satz_1_the_wahlbezirk_goes_to_the_most_votes() {
    // Düsseldorf, Wahlbezirk 004 (8 polling, 4 postal Stimmbezirke): CDU 1,523, GRÜNE 1,518
    let (s, _) = sample("nw-duesseldorf-2020-ratswahl-owd", Some(82));
    let (list, mansheim) = find(&s, "Mansheim", "Aletta");
    assert_eq!((list, mansheim.position, mansheim.votes), ("L1", Some(27), Some(1523)));
    let seat = mansheim.seat.as_ref().expect("district seat");
    assert_eq!((seat.via, seat.since), (SeatVia::District, day(2020, 11, 1)));
    let (list, bursian) = find(&s, "Bursian", "Olaf");
    assert_eq!((list, bursian.position, bursian.votes, bursian.seat.is_some()), ("L3", None, Some(1518), false));
}

#[test]
fn badmuenstereifel_2020_postal_districts_and_a_single_candidate() {
    let (s, r) = sample("nw-badmuenstereifel-2020-ratswahl-owd", Some(32));
    assert_eq!(s.lists.len(), 7);
    assert_eq!(s.lists.iter().map(|l| l.candidates.len()).sum::<usize>(), 111);
    // UWV joins by short name although the long names differ between Stimmzettel and Kandidaten
    let uwv = &s.lists[2];
    assert_eq!(
        (uwv.name.as_str(), uwv.short_name.as_deref(), uwv.candidates.len()),
        ("UWV-Unabhängige Wählervereinigung", Some("UWV"), 17)
    );
    assert_eq!(seats_by_list(&s), [("L1", 12), ("L2", 2), ("L3", 1), ("E7", 1)]);
    // Wahlbezirk 10: the single candidate, 79 + 98 (postal) votes, against CDU 54 + 67
    let (list, hoever) = find(&s, "Hoever", "Willi");
    assert_eq!((list, hoever.position, hoever.votes), ("E7", None, Some(177)));
    assert_eq!(s.lists[6].kind, ListKind::Individual);
    assert_eq!(hoever.seat.as_ref().map(|x| x.via), Some(SeatVia::District));
    // Wahlbezirk 9: CDU 53 + 96 = 149, SPD 71 + 74 = 145
    let (_, hammes) = find(&s, "Hammes", "Florian");
    assert_eq!((hammes.votes, hammes.seat.is_some()), (Some(149), true));
    assert!(r.read.iter().any(|l| l.en.contains("32 Stimmbezirke (16 polling, 16 postal) mapped to 16 Wahlbezirke")));
    assert_eq!(points(&r, Severity::DataFault), Vec::<&str>::new());
}

#[test]
fn kall_2020_the_kandidaten_file_carries_another_ags() {
    let (s, r) = sample("nw-kall-2020-ratswahl-owd", Some(28));
    assert_eq!(s.lists.len(), 6);
    assert_eq!(s.lists.iter().map(|l| l.candidates.len()).sum::<usize>(), 102);
    assert_eq!(seats_by_list(&s), [("L1", 5), ("L2", 4), ("L3", 5)]);
    // Wahlbezirk 14 (three Stimmbezirke): FDP 204 + 88 + 81
    let (list, reiff) = find(&s, "Reiff", "Hans");
    assert_eq!((list, reiff.position, reiff.votes, reiff.seat.is_some()), ("L3", Some(12), Some(373), true));
    // Wahlbezirk 2: FDP 98, CDU 95
    let (_, wolter) = find(&s, "Wolter", "Manfred");
    assert_eq!((wolter.votes, wolter.seat.is_some()), (Some(98), true));
    // a Reserveliste-only candidate
    let (list, hoevel) = find(&s, "Hövel", "Roman");
    assert_eq!((list, hoevel.position, hoevel.district.as_deref(), hoevel.votes), ("L1", Some(15), None, None));
    // the AGS fault: named with the files, not fatal
    let ags: Vec<_> = r.points.iter().filter(|p| p.message.contains("`wahl-behoerde-gs` differs")).collect();
    assert_eq!(ags.len(), 1);
    assert_eq!(ags[0].severity, Severity::DataFault);
    let kandidaten = "05366024_20200913_Ratswahl-NRW_Kandidaten_V0-2_20200930T111111.csv";
    assert_eq!(ags[0].file.as_deref(), Some(kandidaten));
    assert!(ags[0].message.contains(&format!("05366004 in {kandidaten}")), "{}", ags[0].message);
    for other in ["Stimmzettel", "Wahlergebnisse", "Wahlgebietseinteilungen", "Wahlparameter"] {
        assert!(ags[0].message.contains(&format!("05366024_20200913_Ratswahl-NRW_{other}_V0-2")), "{other}");
    }
    assert_eq!(points(&r, Severity::DataFault).len(), 1);
}

#[test]
fn every_imported_snapshot_validates_and_decide_runs_with_one_vacancy() {
    for dir in
        ["nw-duesseldorf-2020-ratswahl-owd", "nw-badmuenstereifel-2020-ratswahl-owd", "nw-kall-2020-ratswahl-owd"]
    {
        let (s, _) = sample(dir, None);
        let body = nachfolge_core::model::Body::from_snapshot(s.clone()).expect("validates");
        assert_eq!(body.candidate_count(), s.lists.iter().map(|l| l.candidates.len()).sum::<usize>());
        // and through JSON, as `nachfolge decide` reads it
        let json = serde_json::to_vec(&s).expect("JSON");
        assert_eq!(nachfolge_core::model::parse_snapshot(&json).expect("parses"), s);
    }
    // Kall: the FDP's Wahlbezirk winner of 14 leaves; his list's next without a seat is position 2
    let (kall, _) = sample("nw-kall-2020-ratswahl-owd", None);
    let d = decide(&kall, "L3-12");
    assert_eq!((d["outcome"].as_str(), d["successor"].as_str()), (Some("successor"), Some("L3-02")), "{d}");
    // Düsseldorf: a CDU Wahlbezirk winner leaves; the successor comes from the CDU's Reserveliste
    let (dus, _) = sample("nw-duesseldorf-2020-ratswahl-owd", None);
    let d = decide(&dus, "L1-27");
    assert_eq!((d["outcome"].as_str(), d["list"].as_str()), (Some("successor"), Some("L1")), "{d}");
    // Bad Münstereifel: the single candidate leaves; nobody succeeds an Einzelbewerber (§ 45 Abs. 5 Satz 1)
    let (bm, _) = sample("nw-badmuenstereifel-2020-ratswahl-owd", None);
    let hoever = find(&bm, "Hoever", "Willi").1.id.clone();
    let d = decide(&bm, &hoever);
    assert_eq!(d["outcome"].as_str(), Some("vacant"), "{d}");
}

#[test]
fn kwahlg_nrw_33_reserveliste_seats_are_left_to_the_wahlausschuss() {
    for dir in
        ["nw-duesseldorf-2020-ratswahl-owd", "nw-badmuenstereifel-2020-ratswahl-owd", "nw-kall-2020-ratswahl-owd"]
    {
        let (s, r) = sample(dir, None);
        let via: Vec<SeatVia> =
            s.lists.iter().flat_map(|l| &l.candidates).filter_map(|c| c.seat.as_ref()).map(|x| x.via).collect();
        assert!(via.iter().all(|v| *v == SeatVia::District), "{dir}");
        let todo = points(&r, Severity::ToConfirm);
        assert!(todo.iter().any(|p| p.contains("Reserveliste seat") && p.contains("§ 33 KWahlG NRW")), "{dir}");
        assert!(todo.iter().any(|p| p.contains("Ersatzbewerber")), "{dir}");
        assert!(s.lists.iter().flat_map(|l| &l.candidates).all(|c| c.substitute_for.is_none()));
    }
}

#[test]
fn kwahlg_nrw_3_abs_2_statutory_size_from_the_wahlbezirke() {
    // Kall: 14 Wahlbezirke, so 28 representatives
    let (s, r) = sample("nw-kall-2020-ratswahl-owd", None);
    assert_eq!(s.body.statutory_size, 28);
    assert!(points(&r, Severity::ToConfirm)
        .iter()
        .any(|p| p.contains("statutory size 28 derived from the 14 Wahlbezirke")));
    let (s, r) = sample("nw-kall-2020-ratswahl-owd", Some(30));
    assert_eq!(s.body.statutory_size, 30);
    assert!(points(&r, Severity::ToConfirm).iter().any(|p| p.contains("the statutory size given is 30")));
}

#[test]
fn form_of_address_from_the_kandidaten_file() {
    let (s, _) = sample("nw-kall-2020-ratswahl-owd", None);
    use nachfolge_core::model::FormOfAddress;
    assert_eq!(find(&s, "Reiff", "Hans").1.form_of_address, Some(FormOfAddress::Herr));
    assert_eq!(find(&s, "Mey-Wirtz", "Petra").1.form_of_address, Some(FormOfAddress::Frau));
    // Düsseldorf leaves kandidat-geschlecht empty
    let (s, _) = sample("nw-duesseldorf-2020-ratswahl-owd", None);
    assert!(s.lists.iter().flat_map(|l| &l.candidates).all(|c| c.form_of_address.is_none()));
}

// --- small synthetic sets -----------------------------------------------------------------------------------

const HEAD: &str = "version;wahl-behoerde-gs;wahl-datum;wahl-name";
const COMMON: &str = "0.3;05999000;13.09.2020;Ratswahl NRW";

/// Two lists (A, B) and a single candidate (E) over two Wahlbezirke of two Stimmbezirke each (one postal).
struct Set {
    kandidaten: Vec<String>,
    stimmzettel: Vec<String>,
    ergebnisse: Vec<String>,
    gebiete: Vec<String>,
    parameter: Vec<String>,
}

impl Set {
    fn new() -> Set {
        let lines = |rows: &[&str]| rows.iter().map(|r| r.to_string()).collect::<Vec<_>>();
        let kand = |rest: &str| format!("{COMMON};{rest}");
        Set {
            kandidaten: vec![
                format!("{HEAD};partei-kurzname;partei-langname;kandidat-name;kandidat-namensvorsatz;kandidat-vorname;kandidat-akadgrad;kandidat-geburtsjahr;kandidat-geschlecht;kandidat-beruf;kandidat-gebiet-nr;kandidat-listenplatz"),
                kand("A;Partei A;Adler;;Anna;Dr.;1970;W;;01;1"),
                kand("A;Partei A;Busch;von;Bernd;;1971;M;;02;0"),
                kand("A;Partei A;Claus;;Clara;;1972;W;;;2"),
                kand("B;Partei B;Dorn;;Dora;;1973;W;;01;2"),
                kand("B;Partei B;Eck;;Emil;;1974;M;;02;1"),
                kand("Eva Frei;Einzelbewerberin#Eva Frei;Frei;;Eva;;1975;W;;02;0"),
            ],
            stimmzettel: vec![
                format!("{HEAD};stimmzettel-gebiet-nr;stimmzettel-gebiet-bezeichnung;stimmzettel-position;partei-kurzname;partei-langname;partei-rgb-wert;partei-typ"),
                format!("{COMMON};;Rat;1;A;Partei A;#000000;P"),
                format!("{COMMON};;Rat;2;B;Partei B;#111111;P"),
                format!("{COMMON};;Rat;3;Eva Frei;Einzelbewerberin#Eva Frei;#222222;E"),
            ],
            ergebnisse: vec![
                format!("{HEAD};bezirk-nr;bezirk-name;zeitstempel-erfassung;A;B;C;D;D1;D2;D3"),
                format!("{COMMON};01.1;Nord;;100;60;0;60;40;20;"),
                format!("{COMMON};01.2;Nord Brief;;0;30;0;30;10;20;"),
                format!("{COMMON};02.1;Süd;;100;70;0;70;20;20;30"),
                format!("{COMMON};02.2;Süd Brief;;0;25;0;25;5;15;5"),
            ],
            gebiete: vec![
                format!("{HEAD};bezirk-nr;bezirk-name;bezirk-art;kandidat-gebiet-nr;kandidat-gebiet-bezeichnung"),
                format!("{COMMON};01.1;Nord;W;01;Nord"),
                format!("{COMMON};01.2;Nord Brief;B;01;Nord"),
                format!("{COMMON};02.1;Süd;W;02;Süd"),
                format!("{COMMON};02.2;Süd Brief;B;02;Süd"),
            ],
            parameter: lines(&[
                "version;wahl-behoerde-gs;wahl-behoerde-name;wahl-datum;wahl-name;wahl-bezeichnung;kandidat-gebiet-bezeichnung;bezirk-bezeichnung",
                "0.3;05999000;Gemeinde Muster;13.09.2020;Ratswahl NRW;Ratswahl;Wahlbezirk;Stimmbezirk",
            ]),
        }
    }

    fn files(&self) -> Vec<InputFile> {
        let file = |role: &str, rows: &[String]| InputFile {
            name: format!("05999000_20200913_Ratswahl-NRW_{role}_V0-3_20200930T111111.csv"),
            bytes: (rows.join("\n") + "\n").into_bytes(),
        };
        vec![
            file("Kandidaten", &self.kandidaten),
            file("Stimmzettel", &self.stimmzettel),
            file("Wahlergebnisse", &self.ergebnisse),
            file("Wahlgebietseinteilungen", &self.gebiete),
            file("Wahlparameter", &self.parameter),
        ]
    }

    fn import(&self) -> Result<(Snapshot, Report), ImportError> {
        self.import_with(&Options::default())
    }

    fn import_with(&self, options: &Options) -> Result<(Snapshot, Report), ImportError> {
        run(&self.files(), &facts("muster", Some(4)), options)
    }
}

#[test]
fn a_synthetic_set_imports_names_positions_and_votes() {
    let (s, r) = Set::new().import().expect("imports");
    let ids: Vec<Vec<&str>> = s.lists.iter().map(|l| l.candidates.iter().map(|c| c.id.as_str()).collect()).collect();
    assert_eq!(ids, [vec!["L1-01", "L1-02", "L1-WB02"], vec!["L2-01", "L2-02"], vec!["E3-WB02"]]);
    let (_, adler) = find(&s, "Adler", "Anna");
    assert_eq!(
        (adler.votes, adler.district.as_deref(), adler.academic_degree.as_deref()),
        (Some(50), Some("01"), Some("Dr."))
    );
    let (_, busch) = find(&s, "von Busch", "Bernd");
    assert_eq!((busch.position, busch.votes, busch.seat.is_some()), (None, Some(25), false));
    // Wahlbezirk 02: A 25, B 35, Eva Frei 35 — a tie
    assert_eq!(find(&s, "Frei", "Eva").1.votes, Some(35));
    assert_eq!(s.lists[2].name, "Einzelbewerberin Eva Frei");
    assert!(r
        .read
        .iter()
        .any(|l| l.en.contains("votes per ballot entry: A (ballot position 1) 75, B (ballot position 2) 75")));
}

#[test]
fn kwahlg_nrw_32_satz_3_a_tie_is_left_to_the_lot() {
    let (s, r) = Set::new().import().expect("imports");
    // Wahlbezirk 01: A 50, B 40 — Adler wins; Wahlbezirk 02: B 35, Eva Frei 35 — no seat
    let seated: Vec<&str> =
        s.lists.iter().flat_map(|l| &l.candidates).filter(|c| c.seat.is_some()).map(|c| c.id.as_str()).collect();
    assert_eq!(seated, ["L1-01"]);
    let lot: Vec<&str> = points(&r, Severity::ToConfirm).into_iter().filter(|p| p.contains("§ 32 Satz 3")).collect();
    assert_eq!(lot.len(), 1);
    assert!(lot[0].contains("Wahlbezirk 02") && lot[0].contains("35 votes"), "{}", lot[0]);
}

#[test]
fn a_vote_for_a_list_without_a_candidate_and_an_empty_cell_are_data_faults() {
    let mut set = Set::new();
    set.ergebnisse[1] = format!("{COMMON};01.1;Nord;;100;61;0;61;40;20;1"); // Eva Frei stands only in 02
    set.ergebnisse[4] = format!("{COMMON};02.2;Süd Brief;;0;25;0;20;5;;5"); // B's cell empty in one of two
    let (s, r) = set.import().expect("imports");
    let faults = points(&r, Severity::DataFault);
    assert!(faults.iter().any(|f| f.contains("1 votes for Eva Frei") && f.contains("Wahlbezirk 01")), "{faults:#?}");
    assert!(
        faults.iter().any(|f| f.contains("B (ballot position 2) has votes in 1 but no number in 1")),
        "{faults:#?}"
    );
    assert!(points(&r, Severity::ToConfirm).iter().any(|p| p.contains("Wahlbezirk 02: the votes are incomplete")));
    assert_eq!(find(&s, "Eck", "Emil").1.votes, None);
    assert!(s
        .lists
        .iter()
        .flat_map(|l| &l.candidates)
        .all(|c| c.district.as_deref() != Some("02") || c.seat.is_none()));
}

#[test]
fn joins_by_long_name_where_the_short_name_is_empty_and_never_guesses() {
    let mut set = Set::new();
    set.stimmzettel[2] = format!("{COMMON};;Rat;2;;Partei B;#111111;P");
    set.kandidaten[4] = format!("{COMMON};;partei  b;Dorn;;Dora;;1973;W;;01;2");
    set.kandidaten[5] = format!("{COMMON};;Partei B;Eck;;Emil;;1974;M;;02;1");
    let (s, _) = set.import().expect("imports");
    assert_eq!(s.lists[1].candidates.len(), 2);
    // two ballot entries with the same short name and long name: the candidates are left to the official
    let mut set = Set::new();
    set.stimmzettel[2] = format!("{COMMON};;Rat;2;A;Partei A;#111111;P");
    let (s, r) = set.import().expect("imports");
    assert_eq!(s.lists[0].candidates.len(), 0);
    let todo = points(&r, Severity::ToConfirm);
    assert!(
        todo.iter().any(|p| p.contains("of 3 candidates") && p.contains("more than one ballot entry")),
        "{todo:#?}"
    );
    // B's candidates name a list that is not on the ballot
    assert!(todo.iter().any(|p| p.contains("`B` / `Partei B`") && p.contains("matches no ballot entry")), "{todo:#?}");
}

#[test]
fn a_missing_file_or_column_is_an_error_naming_the_file() {
    let set = Set::new();
    let mut files = set.files();
    files.remove(2);
    let e = run(&files, &facts("muster", None), &Options::default()).expect_err("no Wahlergebnisse");
    assert!(e.to_string().contains("Wahlergebnisse") && e.message.contains("missing"), "{e}");

    let mut set = Set::new();
    set.kandidaten =
        set.kandidaten.iter().map(|l| l.rsplit_once(';').map_or(l.clone(), |(a, _)| a.to_owned())).collect();
    let e = set.import().expect_err("no kandidat-listenplatz");
    assert_eq!(e.file.as_deref(), Some("05999000_20200913_Ratswahl-NRW_Kandidaten_V0-3_20200930T111111.csv"));
    assert!(e.message.contains("kandidat-listenplatz"), "{e}");

    let mut set = Set::new();
    set.ergebnisse =
        set.ergebnisse.iter().map(|l| l.rsplit_once(';').map_or(l.clone(), |(a, _)| a.to_owned())).collect();
    let e = set.import().expect_err("no D3");
    assert!(e.to_string().contains("Wahlergebnisse") && e.message.contains("`D3`"), "{e}");
}

#[test]
fn an_incomplete_count_is_refused_unless_allowed() {
    let mut set = Set::new();
    set.ergebnisse.remove(4);
    let e = set.import().expect_err("incomplete");
    assert!(e.message.contains("1 of 4 Stimmbezirke have no result: 02.2"), "{e}");
    let (s, r) = set.import_with(&Options { allow_incomplete: true }).expect("allowed");
    assert!(points(&r, Severity::ToConfirm).iter().any(|p| p.contains("no winner is set")));
    assert_eq!(find(&s, "Eck", "Emil").1.votes, None);
    assert!(find(&s, "Adler", "Anna").1.seat.is_some());
}

#[test]
fn malformed_files_are_refused_with_line_and_column() {
    let mut set = Set::new();
    set.ergebnisse[3] = format!("{COMMON};02.1;Süd;;100;70;0;70;20;zwanzig;30");
    let e = set.import().expect_err("not a count");
    assert_eq!((e.line, e.column), (Some(4), Some(13)));
    let mut files = Set::new().files();
    let cut = files[2].bytes.len() - 8;
    files[2].bytes.truncate(cut); // in the last row
    let e = run(&files, &facts("muster", None), &Options::default()).expect_err("truncated");
    assert_eq!(e.line, Some(5), "{e}");
    let mut files = Set::new().files();
    files[0].bytes = files[0].bytes.iter().flat_map(|b| if *b == b'W' { vec![0xDC] } else { vec![*b] }).collect();
    let e = run(&files, &facts("muster", None), &Options::default()).expect_err("Latin-1");
    assert!(e.file.as_deref().is_some_and(|f| f.contains("_Kandidaten_")) && e.message.contains("not UTF-8"), "{e}");
    let mut set = Set::new();
    set.stimmzettel[3] = format!("{COMMON};;Rat;3;Eva Frei;Einzelbewerberin#Eva Frei;#222222;X");
    let e = set.import().expect_err("unknown partei-typ");
    assert!(e.message.contains("partei-typ `X`"), "{e}");
    let mut set = Set::new();
    set.kandidaten[3] = format!("{COMMON};A;Partei A;Claus;;Clara;;1972;W;;;1");
    let e = set.import().expect_err("position twice");
    assert!(e.message.contains("position 1 of A (ballot position 1) is also held by line 2"), "{e}");
}

#[test]
fn differing_dates_and_versions_are_data_faults() {
    let mut set = Set::new();
    set.stimmzettel = set.stimmzettel.iter().map(|l| l.replace("13.09.2020", "20.09.2020")).collect();
    set.gebiete = set.gebiete.iter().map(|l| l.replacen("0.3;", "0.4;", 1)).collect();
    let (_, r) = set.import().expect("imports");
    let faults = points(&r, Severity::DataFault);
    assert!(faults.iter().any(|f| f.contains("`wahl-datum` differs")
        && f.contains("20.09.2020 in 05999000_20200913_Ratswahl-NRW_Stimmzettel")));
    assert!(faults.iter().any(|f| f.contains("`version` differs")));
    assert!(points(&r, Severity::Info).iter().any(|p| p.contains("schema version `0.4`")));
}

#[test]
fn detect_recognises_an_owd_set_by_names_and_headers() {
    let files = Set::new().files();
    assert_eq!(detect(&files), Some(Format::Owd));
    // renamed files: recognised and assigned by their headers
    let renamed: Vec<InputFile> = files
        .iter()
        .enumerate()
        .map(|(i, f)| InputFile { name: format!("datei{i}.csv"), bytes: f.bytes.clone() })
        .collect();
    assert_eq!(detect(&renamed), Some(Format::Owd));
    assert!(run(&renamed, &facts("muster", Some(4)), &Options::default()).is_ok());
    // a votemanager CSV is not OWD
    let vm = InputFile { name: "Open-Data-Stadtrat.csv".into(), bytes: b"datum;wahl;ags;gebiet-nr;D1\n".to_vec() };
    assert!(!nachfolge_import::owd::recognises(&[vm]));
}

#[test]
fn an_owd_set_is_an_nrw_election() {
    let mut f = facts("muster", Some(4));
    f.land = Land::He;
    let e = run(&Set::new().files(), &f, &Options::default()).expect_err("not NRW");
    assert!(e.message.contains("NRW"), "{e}");
}

#[test]
fn a_city_of_400_wahlbezirke_and_1600_candidates() {
    // four lists, each with a candidate in every Wahlbezirk; in Wahlbezirk w list (w mod 4) leads
    let (wbs, lists) = (400usize, 4usize);
    let mut set = Set::new();
    set.stimmzettel.truncate(1);
    set.kandidaten.truncate(1);
    set.gebiete.truncate(1);
    set.ergebnisse = vec![format!("{HEAD};bezirk-nr;bezirk-name;zeitstempel-erfassung;A;B;C;D;D1;D2;D3;D4")];
    for l in 1..=lists {
        set.stimmzettel.push(format!("{COMMON};;Rat;{l};P{l};Partei {l};#000000;P"));
    }
    for w in 1..=wbs {
        for l in 1..=lists {
            let place = (w - 1) * lists + l; // unique within the list up to 1,600
            set.kandidaten.push(format!("{COMMON};P{l};Partei {l};Name{w}x{l};;Vorname;;1980;;;{w:03};{place}"));
        }
        for sb in 1..=2 {
            set.gebiete.push(format!("{COMMON};{w:03}.{sb};Bezirk;{};{w:03};WB", if sb == 1 { "W" } else { "B" }));
            let votes: Vec<usize> = (1..=lists).map(|l| if (w % lists) + 1 == l { 50 + sb } else { 10 + l }).collect();
            let d: usize = votes.iter().sum();
            let cells: Vec<String> = votes.iter().map(usize::to_string).collect();
            set.ergebnisse.push(format!("{COMMON};{w:03}.{sb};Bezirk;;0;{d};0;{d};{}", cells.join(";")));
        }
    }
    let started = std::time::Instant::now();
    let (s, r) = run(&set.files(), &facts("stadt", None), &Options::default()).expect("imports");
    let took = started.elapsed();
    assert_eq!(s.lists.iter().map(|l| l.candidates.len()).sum::<usize>(), wbs * lists);
    assert_eq!(s.body.statutory_size, 800);
    for (li, list) in s.lists.iter().enumerate() {
        let won: Vec<&Candidate> = list.candidates.iter().filter(|c| c.seat.is_some()).collect();
        assert_eq!(won.len(), wbs / lists, "{}", list.id);
        assert!(won.iter().all(|c| c.votes == Some(103)), "{}", list.id);
        assert!(won.iter().all(|c| c
            .district
            .as_deref()
            .and_then(|d| d.parse::<usize>().ok())
            .is_some_and(|w| w % lists == li)));
    }
    assert_eq!(points(&r, Severity::DataFault), Vec::<&str>::new());
    eprintln!("400 Wahlbezirke, 800 Stimmbezirke, 1,600 candidates imported in {took:?}");
}
