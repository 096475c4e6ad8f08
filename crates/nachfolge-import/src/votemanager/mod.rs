//! votemanager (vote iT; also OK.VOTE and other hosted installations) result files: docs/import.md,
//! "votemanager".
//!
//! The result CSVs (one per level: whole area, Wahlbereiche, Wahlbezirke) count the votes of every list and
//! list position; the index (`open_data.json`) names the lists; the presentation's result JSON names lists
//! and candidates and says who holds a seat and how. Candidate ids are `L<n>-<k>` (list n of the CSV,
//! position k, two digits at least), with Wahlbereiche `L<n>-WB<i>-<k>`; list ids `L<n>`, `L<n>-WB<i>`. They
//! are stable across re-imports of the same election.

mod counts;
mod join;
mod json;
mod names;
mod schema;

use std::collections::{BTreeMap, BTreeSet};

use chrono::NaiveDate;
use nachfolge_core::model::{
    BodyInfo, Candidate, DeterminationMode, ElectoralSystem, List, ListKind, Readings, Seat, Snapshot, Term,
};

use crate::csv::Table;
use crate::{BodyFacts, ImportError, InputFile, Options, Report, Severity, PLACEHOLDER_NAME};
use counts::{Level, ResultFile};
use join::{Cand, ListNames};
use json::{norm, Jsons};
use schema::Role;

pub use schema::Schema;

fn first_line(bytes: &[u8]) -> String {
    let end = bytes.iter().take(64 * 1024).position(|b| *b == b'\n').unwrap_or(bytes.len().min(64 * 1024));
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

fn is_result_csv(f: &InputFile) -> bool {
    f.name.to_lowercase().ends_with(".csv") && first_line(&f.bytes).contains("schnellmeldungen")
}

fn is_presentation_json(f: &InputFile) -> bool {
    let head = String::from_utf8_lossy(&f.bytes[..f.bytes.len().min(64 * 1024)]);
    f.name.to_lowercase().ends_with(".json")
        && ["\"Komponente\"", "\"dateifelder\"", "\"wahleintraege\""].iter().any(|k| head.contains(k))
}

/// The files look like a votemanager export: a result CSV (its header has the count state,
/// `max-schnellmeldungen`) or a presentation JSON.
pub fn recognises(files: &[InputFile]) -> bool {
    files.iter().any(|f| is_result_csv(f) || is_presentation_json(f))
}

/// The counts of one area: its Wahlbereich (area mode), its cells, its line (0: summed over rows).
type AreaCounts<'a> = (Option<u32>, &'a [Option<u64>], usize);

fn list_id(n: u32, area: Option<u32>) -> String {
    area.map_or_else(|| format!("L{n}"), |a| format!("L{n}-WB{a}"))
}

/// Partei, Wählergruppe or Einzelwahlvorschlag, from the name (the files do not say).
fn list_kind(name: &str, individual: bool) -> ListKind {
    let lower = name.to_lowercase();
    if individual || lower.contains("einzelwahlvorschlag") || lower.contains("einzelbewerber") {
        ListKind::Individual
    } else if ["wählergemeinschaft", "wählergruppe", "wählervereinigung", "wählerinitiative", "wählerliste"]
        .iter()
        .any(|w| lower.contains(w))
    {
        ListKind::VoterGroup
    } else {
        ListKind::Party
    }
}

/// Import a votemanager export.
pub fn import(files: &[InputFile], facts: &BodyFacts, options: &Options) -> Result<(Snapshot, Report), ImportError> {
    let mut report = Report::default();
    let mut tables = Vec::new();
    let mut jsons = Jsons::default();
    for f in files {
        let lower = f.name.to_lowercase();
        if lower.ends_with(".csv") {
            if is_result_csv(f) {
                tables.push(Table::parse(f)?);
            } else {
                report.point(
                    Severity::Info,
                    Some(&f.name),
                    None,
                    "not a votemanager result CSV; ignored",
                    "Keine Ergebnis-CSV von votemanager; nicht berücksichtigt.",
                );
            }
        } else if lower.ends_with(".json") {
            json::read_json(f, &mut jsons, &mut report)?;
        } else {
            report.point(
                Severity::Info,
                Some(&f.name),
                None,
                "neither CSV nor JSON; ignored",
                "Weder CSV noch JSON; nicht berücksichtigt.",
            );
        }
    }
    if tables.is_empty() {
        return Err(ImportError::general(
            "no votemanager result CSV among the files (its header has `gebiet-name`, `max-schnellmeldungen`, `anz-schnellmeldungen`)", "Unter den Dateien ist keine Ergebnis-CSV von votemanager (ihre Kopfzeile enthält `gebiet-name`, `max-schnellmeldungen`, `anz-schnellmeldungen`).",
        ));
    }
    let open = jsons.open.take();
    let mut rfs = Vec::new();
    for t in tables {
        let hint = open.as_ref().is_some_and(|(_, od)| od.is_areas_file(&t.file));
        rfs.push(ResultFile::read(t, hint)?);
    }
    let wahlen: BTreeSet<&str> = rfs.iter().map(|f| f.wahl.as_str()).collect();
    if wahlen.len() > 1 {
        let which: Vec<String> = rfs.iter().map(|f| format!("{}: `{}`", f.file, f.wahl)).collect();
        return Err(ImportError::general(
            format!(
                "the files hold several elections ({}): put the files of one council election in the folder",
                which.join(", ")
            ),
            format!(
            "Die Dateien enthalten mehrere Wahlen ({}): Bitte nur die Dateien einer Wahl der Vertretung übernehmen.",
            which.join(", ")
        ),
        ));
    }
    let schema = rfs[0].cols.schema;
    if let Some(f) = rfs.iter().find(|f| f.cols.schema != schema) {
        return Err(ImportError::at(
            &f.file,
            1,
            None,
            format!("its schema ({}) differs from {}'s ({})", f.cols.schema.label(), rfs[0].file, schema.label()),
            format!(
                "Ihr Aufbau ({}) weicht von dem der Datei {} ab ({}).",
                f.cols.schema.label_de(),
                rfs[0].file,
                schema.label_de()
            ),
        ));
    }
    for (what, get) in
        [("ags", (|f: &ResultFile| f.ags.clone()) as fn(&ResultFile) -> String), ("datum", |f| f.datum.clone())]
    {
        let values: BTreeSet<String> = rfs.iter().map(get).collect();
        if values.len() > 1 {
            let which: Vec<String> = rfs.iter().map(|f| format!("{} `{}`", f.file, get(f))).collect();
            report.point(
                Severity::DataFault,
                None,
                None,
                format!("the files differ in `{what}`: {}", which.join(", ")),
                format!("Die Dateien weichen in `{what}` voneinander ab: {}", which.join(", ")),
            );
        }
    }
    let (wahl, datum, ags) = (rfs[0].wahl.clone(), rfs[0].datum.clone(), rfs[0].ags.clone());
    for f in rfs.iter_mut() {
        if f.level != Level::Whole {
            f.drop_aggregate_rows(&mut report);
        }
    }
    let of = |level: Level| -> Vec<usize> { (0..rfs.len()).filter(|i| rfs[*i].level == level).collect() };
    let (wholes, areas, districts) = (of(Level::Whole), of(Level::Areas), of(Level::Districts));
    let area_mode = !areas.is_empty();
    let source = if let Some(&a) = areas.first() {
        a
    } else if let Some(&w) = wholes.first() {
        w
    } else {
        districts.iter().copied().max_by_key(|i| rfs[*i].rows.len()).unwrap_or(0)
    };
    let reference = wholes.first().copied().unwrap_or(source);
    for (i, f) in rfs.iter().enumerate() {
        report.read(
            format!("{}: {} row(s), {} level, schema {}", f.file, f.rows.len(), f.level.label(), f.cols.schema.label()),
            format!(
                "{}: {} Zeile(n), Ebene {}, Aufbau {}",
                f.file,
                f.rows.len(),
                f.level.label_de(),
                f.cols.schema.label_de()
            ),
        );
        if i == reference {
            continue;
        }
        let diff = counts::disagreements(f, &rfs[reference]);
        if !diff.is_empty() {
            let shown: Vec<String> =
                diff.iter().take(5).map(|(c, a, b)| format!("`{c}` {} vs {}", show(*a), show(*b))).collect();
            report.point(
                Severity::DataFault,
                Some(&f.file),
                None,
                format!(
                    "the levels do not agree: the sum of its rows differs from {} in {} column(s) ({}{}); the candidates' votes are taken from {}",
                    rfs[reference].file,
                    diff.len(),
                    shown.join(", "),
                    if diff.len() > 5 { ", …" } else { "" },
                    rfs[source].file
                ), format!(
                    "Die Ebenen stimmen nicht überein: Die Summe ihrer Zeilen weicht in {} Spalte(n) von {} ab ({}{}); die Stimmen der Bewerberinnen und Bewerber werden aus {} übernommen.",
                    diff.len(),
                    rfs[reference].file,
                    shown.join(", ").replace(" vs ", " gegenüber "),
                    if diff.len() > 5 { ", …" } else { "" },
                    rfs[source].file
                ),
            );
        }
    }
    let (anz, max) = rfs[reference].state();
    if anz < max {
        let f = &rfs[reference];
        let line = f.rows.first().map_or(2, |r| r.line);
        if !options.allow_incomplete {
            return Err(ImportError::at(
                &f.file,
                line,
                Some(f.cols.anz + 1),
                format!("the count is incomplete: {anz} of {max} Schnellmeldungen; an interim result is refused (--allow-incomplete imports it)"), format!("Die Auszählung ist unvollständig: {anz} von {max} Schnellmeldungen; ein Zwischenergebnis wird nicht übernommen."),
            ));
        }
        report.point(
            Severity::ToConfirm,
            Some(&f.file),
            Some(line),
            format!("an interim result: {anz} of {max} Schnellmeldungen; votes and seats may still change"),
            format!(
                "Ein Zwischenergebnis: {anz} von {max} Schnellmeldungen; Stimmen und Sitze können sich noch ändern."
            ),
        );
    }
    report.read(
        format!("count: {anz} of {max} Schnellmeldungen"),
        format!("Auszählung: {anz} von {max} Schnellmeldungen"),
    );
    let src = &rfs[source];
    counts::check_rows(src, &mut report);
    if !area_mode {
        counts::check_gaps(src, &mut report);
    }

    // the candidates as counted: (n, area, k, votes)
    let lists = src.cols.lists();
    let col_of = |want: &dyn Fn(&Role) -> bool| -> Vec<usize> {
        (0..src.cols.roles.len()).filter(|i| want(&src.cols.roles[*i])).collect()
    };
    let sums = src.sums();
    let mut cands: Vec<Cand> = Vec::new();
    let mut groups: Vec<(u32, Option<u32>, bool)> = Vec::new();
    let rows: Vec<AreaCounts> = if area_mode {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for (place, r) in src.rows.iter().enumerate() {
            let (a, named) = counts::area_number(r, place);
            if !named {
                report.point(
                    Severity::ToConfirm,
                    Some(&src.file),
                    Some(r.line),
                    format!("the Wahlbereich `{}` has no number; numbered {a} by its place", r.gebiet_name),
                    format!(
                        "Der Wahlbereich `{}` hat keine Nummer; er erhält nach seiner Stellung die Nummer {a}.",
                        r.gebiet_name
                    ),
                );
            }
            if !seen.insert(a) {
                return Err(ImportError::at(
                    &src.file,
                    r.line,
                    None,
                    format!("Wahlbereich {a} appears twice"),
                    format!("Der Wahlbereich {a} kommt zweimal vor."),
                ));
            }
            out.push((Some(a), r.counts.as_slice(), r.line));
        }
        out
    } else {
        vec![(None, sums.as_slice(), 0)]
    };
    let mut gaps = Vec::new();
    for (area, counts, line) in &rows {
        for &n in &lists {
            let cand_cols = col_of(&|r| matches!(r, Role::Candidate(m, _) if *m == n));
            let any_cols = col_of(
                &|r| matches!(r, Role::Candidate(m, _) | Role::Total(m) | Role::ListVotes(m) | Role::CandidateSum(m) if *m == n),
            );
            if any_cols.iter().all(|c| counts[*c].is_none()) {
                continue;
            }
            let lid = list_id(n, *area);
            let mut ks: Vec<(u32, u64)> = cand_cols
                .iter()
                .filter_map(|c| match (src.cols.roles[*c], counts[*c]) {
                    (Role::Candidate(_, k), Some(v)) => Some((k, v)),
                    _ => None,
                })
                .collect();
            let individual = cand_cols.is_empty();
            if individual {
                let total = col_of(&|r| matches!(r, Role::Total(m) if *m == n)).first().and_then(|c| counts[*c]);
                ks = total.map(|t| vec![(1, t)]).unwrap_or_default();
            }
            if ks.is_empty() {
                report.point(
                    Severity::DataFault,
                    Some(&src.file),
                    (*line > 0).then_some(*line),
                    format!(
                        "list D{n}{}: votes but no candidate; left out",
                        area.map_or(String::new(), |a| format!(", Wahlbereich {a}"))
                    ),
                    format!(
                        "Wahlvorschlag D{n}{}: Stimmen, aber keine Bewerberin und kein Bewerber; nicht übernommen.",
                        area.map_or(String::new(), |a| format!(", Wahlbereich {a}"))
                    ),
                );
                continue;
            }
            ks.sort_unstable();
            let last = ks.last().map_or(0, |k| k.0);
            if last as usize != ks.len() {
                let have: BTreeSet<u32> = ks.iter().map(|k| k.0).collect();
                let missing: Vec<String> = (1..last).filter(|k| !have.contains(k)).map(|k| k.to_string()).collect();
                gaps.push(format!("{lid}: {}", missing.join(", ")));
            }
            groups.push((n, *area, individual));
            for (k, votes) in ks {
                cands.push(Cand { id: format!("{lid}-{k:02}"), n, area: *area, k, votes, name: None, seat: None });
            }
        }
    }
    if !gaps.is_empty() {
        report.point(
            Severity::ToConfirm,
            Some(&src.file),
            None,
            format!("list positions without a value between others (no candidate counted there): {}; check the Wahlvorschläge", gaps.join("; ")), format!("Listenplätze ohne Wert zwischen anderen (dort wurde keine Bewerberin und kein Bewerber gezählt): {}; bitte die Wahlvorschläge prüfen.", gaps.join("; ")),
        );
    }
    let area_count = rows.len();
    if area_mode {
        report.read(
            format!(
                "areas summed: {area_count} Wahlbereiche, one list per Wahlvorschlag and Wahlbereich ({})",
                src.file
            ),
            format!(
                "Gebiete zusammengefasst: {area_count} Wahlbereiche, eine Liste je Wahlvorschlag und Wahlbereich ({})",
                src.file
            ),
        );
    } else {
        report.read(
            format!("areas summed: {} row(s) of {}", src.rows.len(), src.file),
            format!("Gebiete zusammengefasst: {} Zeile(n) aus {}", src.rows.len(), src.file),
        );
    }

    // names and seats
    let mut result = json::pick_result(&mut jsons, &wahl, &datum, &mut report)?;
    if let Some((name, t)) = &jsons.termin {
        let w = norm(&wahl);
        match t.iter().find(|x| !w.is_empty() && norm(x).starts_with(&w)) {
            Some(title) => report.read(format!("election: {title} ({name})"), format!("Wahl: {title} ({name})")),
            None => report.point(
                Severity::Info,
                Some(name),
                None,
                format!("names no election `{wahl}`"),
                format!("Nennt keine Wahl `{wahl}`."),
            ),
        }
    }
    let index = open.as_ref().and_then(|(_, od)| od.list_names(&wahl));
    if let (Some((name, _)), None) = (&open, index) {
        report.point(
            Severity::ToConfirm,
            Some(name),
            None,
            format!("has no list names for the election `{wahl}`"),
            format!("Enthält keine Namen der Wahlvorschläge für die Wahl `{wahl}`."),
        );
    }
    // a list's votes over the whole area: the source's sum (the Wahlbereiche add up to the whole, checked)
    let totals: BTreeMap<u32, Option<u64>> = lists
        .iter()
        .map(|n| (*n, col_of(&|r| matches!(r, Role::Total(m) if *m == *n)).first().and_then(|c| sums[*c])))
        .collect();
    let rfile = result.as_ref().map(|(n, _)| n.clone());
    let list_names = join::map_lists(&totals, index, result.as_ref().map(|r| &r.1), rfile.as_deref(), &mut report);
    let several_areas = area_mode && area_count > 1;
    if let Some((file, r)) = result.as_mut() {
        let json_areas: BTreeSet<u32> =
            r.elected.iter().filter_map(|e| join::parse_mandate(&e.mandate)).filter_map(|(a, _)| a).collect();
        if !area_mode && json_areas.len() > 1 {
            return Err(ImportError::in_file(
                file,
                "the elected table names several Wahlbereiche, but no CSV of the Wahlbereiche is among the files (the votes of a list position are per Wahlbereich): add it", "Die Tabelle der Gewählten nennt mehrere Wahlbereiche, aber unter den Dateien ist keine CSV der Wahlbereiche (die Stimmen eines Listenplatzes gelten je Wahlbereich): bitte ergänzen.",
            ));
        }
        if r.has_elected_table {
            join::seats(&mut cands, &list_names, r, facts.land, area_mode, Some(file), &mut report);
        } else {
            report.point(
                Severity::ToConfirm,
                Some(file),
                None,
                "the result JSON has no table of elected candidates: no seats were set — mark the seat holders", "Die Ergebnis-JSON enthält keine Tabelle der Gewählten: Es wurden keine Sitze gesetzt – bitte die Inhaberinnen und Inhaber der Sitze kennzeichnen.",
            );
        }
        join::names_by_votes(&mut cands, &list_names, r, Some(file), &mut report);
    } else {
        report.point(
            Severity::ToConfirm,
            None,
            None,
            "no result JSON of the presentation among the files: the candidates' names and the seats are not in the CSVs; every candidate carries a placeholder name and no seat is set — add the names (--contacts) and mark the seat holders", "Unter den Dateien ist keine Ergebnis-JSON der Präsentation: Die Namen der Bewerberinnen und Bewerber und die Sitze stehen nicht in den CSV-Dateien; jede Bewerberin und jeder Bewerber trägt einen Platzhalternamen, und es ist kein Sitz gesetzt – bitte die Namen ergänzen (Kontaktdatei) und die Inhaberinnen und Inhaber der Sitze kennzeichnen.",
        );
    }
    if index.is_none() && result.is_none() {
        report.point(Severity::ToConfirm, None, None, format!("no list names in the files (no open_data.json, no result JSON): lists are named `Wahlvorschlag <n> {PLACEHOLDER_NAME}`"), format!("Die Dateien enthalten keine Namen der Wahlvorschläge (keine open_data.json, keine Ergebnis-JSON): Die Wahlvorschläge heißen `Wahlvorschlag <n> {PLACEHOLDER_NAME}`."));
    }
    let guessed: Vec<&str> =
        cands.iter().filter(|c| c.name.as_ref().is_some_and(|s| !s.certain)).map(|c| c.id.as_str()).collect();
    if !guessed.is_empty() {
        report.point(
            Severity::ToConfirm,
            rfile.as_deref(),
            None,
            format!(
                "{} name(s) of more than two words were split into given and family name at a guess: {} — check them",
                guessed.len(),
                guessed.join(", ")
            ), format!(
                "Namen aus mehr als zwei Wörtern, die geschätzt in Vor- und Familienname geteilt wurden: {}: {} – bitte prüfen.",
                guessed.len(),
                guessed.join(", ")
            ),
        );
    }

    // the snapshot
    let seats_json: Option<u64> =
        result.as_ref().map(|(_, r)| r.seats.iter().map(|s| s.1).sum::<u64>()).filter(|s| *s > 0);
    let statutory_size = match (facts.statutory_size, seats_json) {
        (Some(s), Some(j)) if u64::from(s) != j => {
            report.point(
                Severity::ToConfirm,
                rfile.as_deref(),
                None,
                format!("--statutory-size is {s}, the seat distribution allocated {j} seats"),
                format!(
                    "Die angegebene gesetzliche Zahl der Sitze ist {s}, die Sitzverteilung hat {j} Sitze vergeben."
                ),
            );
            s
        }
        (Some(s), _) => s,
        (None, Some(j)) => {
            report.point(Severity::ToConfirm, rfile.as_deref(), None, format!("the statutory size was taken from the seat distribution ({j} seats allocated): check it against the Land's law (--statutory-size sets it)"), format!("Die gesetzliche Zahl der Sitze wurde aus der Sitzverteilung übernommen ({j} Sitze vergeben): bitte anhand des Kommunalwahlrechts des Landes prüfen."));
            u32::try_from(j).map_err(|_| {
                ImportError::general(
                    "the seat distribution is not a council size",
                    "Die Sitzverteilung ergibt keine Größe einer Vertretung.",
                )
            })?
        }
        (None, None) => {
            return Err(ImportError::general(
                "no file states the council's size: give --statutory-size",
                "Keine Datei nennt die Zahl der Sitze der Vertretung: bitte die gesetzliche Zahl der Sitze angeben.",
            ))
        }
    };
    if let Some(l) = schema.land().filter(|l| *l != facts.land) {
        report.point(
            Severity::ToConfirm,
            Some(&src.file),
            None,
            format!(
                "the CSV has the schema of {l:?} ({}), the body is in {:?}: check --land",
                schema.label(),
                facts.land
            ),
            format!(
                "Die CSV hat den Aufbau für {} ({}), die Vertretung liegt aber in {}: bitte das Land prüfen.",
                land_de(l),
                schema.label_de(),
                land_de(facts.land)
            ),
        );
    }
    if let Ok(day) = NaiveDate::parse_from_str(&datum, "%d.%m.%Y") {
        report.read(format!("election day {datum}, AGS {ags}"), format!("Wahltag {datum}, AGS {ags}"));
        if facts.term_start < day {
            report.point(
                Severity::ToConfirm,
                None,
                None,
                format!("the term starts ({}) before the election day ({datum})", facts.term_start),
                format!("Die Wahlperiode beginnt ({}) vor dem Wahltag ({datum}).", facts.term_start),
            );
        }
    }
    // the Land's law knows the fall-back to a party's other Wahlbereiche: the lists carry `area` and `party`
    let tie_areas = matches!(
        nachfolge_core::land::LandLaw::areas(facts.land.law(), facts.kind),
        nachfolge_core::rules::Areas::FallBack(_)
    );
    let mut snap_lists = Vec::new();
    let mut kinds: BTreeMap<u32, (String, ListKind)> = BTreeMap::new();
    for (n, area, individual) in &groups {
        let names: ListNames = list_names.get(n).cloned().unwrap_or_default();
        let json_individual = names.json.zip(result.as_ref()).is_some_and(|(j, (_, r))| r.lists[j].individual);
        let base = names.long.clone().unwrap_or_else(|| format!("Wahlvorschlag {n} {PLACEHOLDER_NAME}"));
        let kind = list_kind(&base, *individual || json_individual);
        if kind != ListKind::Party {
            kinds.insert(*n, (base.clone(), kind));
        }
        let name = match area {
            Some(a) if several_areas => format!("{base} (Wahlbereich {a})"),
            _ => base,
        };
        let individual_name =
            names.long.as_deref().and_then(json::individual_name).filter(|_| *individual).map(names::split_display);
        let candidates = cands
            .iter()
            .filter(|c| c.n == *n && c.area == *area)
            .map(|c| {
                let (given, family, degree) = match c.name.as_ref().or(individual_name.as_ref()) {
                    Some(s) => (s.given.clone(), s.family.clone(), s.degree.clone()),
                    None => (
                        PLACEHOLDER_NAME.to_owned(),
                        match area {
                            Some(a) if several_areas => format!("Wahlvorschlag {n}, Wahlbereich {a}, Platz {}", c.k),
                            _ => format!("Wahlvorschlag {n}, Platz {}", c.k),
                        },
                        None,
                    ),
                };
                Candidate {
                    id: c.id.clone(),
                    position: Some(c.k),
                    given_name: given,
                    family_name: family,
                    email: None,
                    postal_address: None,
                    form_of_address: None,
                    academic_degree: degree,
                    votes: Some(i64::try_from(c.votes).unwrap_or(i64::MAX)),
                    lot_rank: None,
                    additional_rank: None,
                    district: None,
                    substitute_for: None,
                    substitute_designation: None,
                    seat: c.seat.map(|via| Seat { since: facts.term_start, via }),
                    facts: Vec::new(),
                }
            })
            .collect();
        // several Wahlbereiche where the Land falls back to the party's other areas (Niedersachsen: § 44 Abs. 5
        // Satz 1 i. V. m. § 38 Abs. 5 NKWG): the Wahlbereich, and the Wahlvorschlag number as the key that ties a
        // party's Wahlvorschläge together — the files number a party's Wahlvorschläge alike in every Wahlbereich
        // (the columns D<n>); an Einzelwahlvorschlag is not tied (docs/import.md, "Several Wahlbereiche")
        let (list_area, party) = match area {
            Some(a) if several_areas && tie_areas => {
                (Some(format!("Wahlbereich {a}")), (kind != ListKind::Individual).then(|| format!("D{n}")))
            }
            _ => (None, None),
        };
        snap_lists.push(List {
            id: list_id(*n, *area),
            name,
            short_name: names.short.clone(),
            kind,
            area: list_area,
            party,
            candidates,
        });
    }
    let others: Vec<String> = kinds
        .iter()
        .map(|(n, (_, k))| {
            format!("D{n} {}", if *k == ListKind::Individual { "Einzelwahlvorschlag" } else { "Wählergruppe" })
        })
        .collect();
    report.point(
        Severity::ToConfirm,
        None,
        None,
        format!(
            "the files do not say whether a list is a Partei, a Wählergruppe or an Einzelwahlvorschlag; taken from the names: every list a Partei{}{} — check",
            if others.is_empty() { "" } else { " except " },
            others.join("; ")
        ), format!(
            "Die Dateien geben nicht an, ob ein Wahlvorschlag der einer Partei, einer Wählergruppe oder ein Einzelwahlvorschlag ist; aus den Namen geschlossen: Alle Wahlvorschläge gelten als solche von Parteien{}{} – bitte prüfen.",
            if others.is_empty() { "" } else { ", ausgenommen " },
            others.join("; ")
        ),
    );
    let determination = if several_areas && tie_areas {
        report.point(
            Severity::Info,
            None,
            None,
            format!(
                "{area_count} Wahlbereiche: each Wahlvorschlag of a Wahlbereich is a list of its own (`L<n>-WB<i>`, `area` = \"Wahlbereich <i>\"), tied to the same Wahlvorschlag's lists in the other Wahlbereiche by `party` = \"D<n>\"; a successor is found in the Wahlbereich of the departed, and once its list is exhausted in the party's other Wahlbereiche (§ 44 Abs. 5 Satz 1 NKWG i. V. m. § 38 Abs. 5 NKWG; docs/legal.md, \"Several Wahlbereiche\")"
            ), format!(
                "{area_count} Wahlbereiche: Jeder Wahlvorschlag eines Wahlbereichs ist eine eigene Liste (`L<n>-WB<i>`, `area` = „Wahlbereich <i>“), mit den Listen desselben Wahlvorschlags in den anderen Wahlbereichen über `party` = „D<n>“ verbunden; die Ersatzperson wird im Wahlbereich der ausgeschiedenen Person festgestellt und, wenn dessen Wahlvorschlag erschöpft ist, in den anderen Wahlbereichen der Partei oder Wählergruppe (§ 44 Abs. 5 Satz 1 NKWG i. V. m. § 38 Abs. 5 NKWG)."
            ),
        );
        DeterminationMode::Automatic
    } else if several_areas {
        report.point(
            Severity::ToConfirm,
            None,
            None,
            format!(
                "{area_count} Wahlbereiche: each Wahlvorschlag of a Wahlbereich is a list of its own (`L<n>-WB<i>`), so a successor is found in the Wahlbereich of the departed; the Land's fall-back to a party's lists in the other Wahlbereiche is not modelled — the body is registered with `determination: confirm`, so that every determination is checked (docs/legal.md, \"Several Wahlbereiche\")"
            ), format!(
                "{area_count} Wahlbereiche: Jeder Wahlvorschlag eines Wahlbereichs ist eine eigene Liste (`L<n>-WB<i>`); die Ersatzperson wird daher im Wahlbereich der ausgeschiedenen Person festgestellt. Der Übergang auf die Wahlvorschläge der Partei in den anderen Wahlbereichen ist für dieses Land nicht abgebildet – die Vertretung wird daher so übernommen, dass jede Feststellung vor ihrer Wirkung bestätigt werden muss."
            ),
        );
        DeterminationMode::Confirm
    } else {
        DeterminationMode::Automatic
    };
    let n_lists = lists.len();
    report.read(
        format!(
            "lists: {n_lists} Wahlvorschläge (D{}), {} list(s) in the snapshot",
            lists.iter().map(u32::to_string).collect::<Vec<_>>().join(", D"),
            snap_lists.len()
        ),
        format!(
            "Wahlvorschläge: {n_lists} (D{}), {} Liste(n) im Wahlergebnis",
            lists.iter().map(u32::to_string).collect::<Vec<_>>().join(", D"),
            snap_lists.len()
        ),
    );
    report.read(format!("candidates: {}", cands.len()), format!("Bewerberinnen und Bewerber: {}", cands.len()));
    let snapshot = Snapshot {
        body: BodyInfo {
            id: facts.id.clone(),
            name: facts.name.clone(),
            land: facts.land,
            kind: facts.kind,
            electoral_system: ElectoralSystem::Proportional,
            statutory_size,
            term: Term { start: facts.term_start, end: facts.term_end },
            returning_officer: facts.returning_officer.clone(),
            determination,
            readings: Readings::default(),
            local_holidays: Vec::new(),
            // the venues of the Rechtsbehelfsbelehrungen are no part of a result file; registration asks for
            // them (§ 58 Abs. 1 VwGO)
            remedy_court: None,
            supervisory_authority: None,
            single_municipality_areas: vec![],
        },
        lists: snap_lists,
    };
    Ok((snapshot, report))
}

fn show(v: Option<u64>) -> String {
    v.map_or_else(|| "empty".to_owned(), |v| v.to_string())
}

/// The Land's name in German (the console's report).
fn land_de(land: nachfolge_core::model::Land) -> &'static str {
    use nachfolge_core::model::Land;
    match land {
        Land::Nw => "Nordrhein-Westfalen",
        Land::He => "Hessen",
        Land::Rp => "Rheinland-Pfalz",
        Land::Ni => "Niedersachsen",
        Land::St => "Sachsen-Anhalt",
        Land::Th => "Thüringen",
        Land::Sh => "Schleswig-Holstein",
        Land::By => "Bayern",
        Land::Bw => "Baden-Württemberg",
        Land::Sn => "Sachsen",
        Land::Mv => "Mecklenburg-Vorpommern",
        Land::Bb => "Brandenburg",
        Land::Sl => "Saarland",
    }
}
