//! Offene Wahldaten (OWD): the five CSV files NRW municipalities publish for a council election — Kandidaten,
//! Stimmzettel, Wahlergebnisse, Wahlgebietseinteilungen, Wahlparameter (schema versions 0.2 and 0.3 seen;
//! columns are read by name). docs/import.md, "Offene Wahldaten".
//!
//! The files give the ballot (lists and single candidates), every candidate with the Wahlbezirk of his
//! district candidacy and his Reserveliste position (`0` = district only), the votes per Stimmbezirk and
//! ballot position, and the Wahlbezirk of every Stimmbezirk (postal ones too). Each voter has one vote, cast
//! for the district candidate and counted for his list (§ 31 KWahlG NRW): a district candidate's votes are the
//! sum of his list's column over the Stimmbezirke of his Wahlbezirk, and the one with the most votes wins it
//! (§ 32 KWahlG NRW). The files do not give the Reserveliste seats (§ 33 KWahlG NRW, determined by the
//! Wahlausschuss), the Ersatzbewerber (§ 16 Abs. 2) or a lot drawn on a tie: the report asks the official.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use chrono::NaiveDate;
use nachfolge_core::model::{
    Body, BodyInfo, BodyKind, Candidate, DeterminationMode, ElectoralSystem, Land, List, ListKind, Readings, Seat,
    SeatVia, Snapshot, Term,
};

mod count;
mod lists;

use crate::csv::{Row, Table};
use crate::{BodyFacts, ImportError, InputFile, Options, Report, Severity};
use count::{read_areas, read_count, winners};
use lists::{read_ballot, read_candidates};

/// The schema versions read when the importer was written; another one is read by column names and noted.
const KNOWN_VERSIONS: &[&str] = &["0.2", "0.3"];

/// The columns every OWD file carries.
const COMMON: [&str; 4] = ["version", "wahl-behoerde-gs", "wahl-datum", "wahl-name"];

/// The five files of a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Kandidaten,
    Stimmzettel,
    Wahlergebnisse,
    Wahlgebietseinteilungen,
    Wahlparameter,
}

impl Role {
    const ALL: [Role; 5] =
        [Role::Kandidaten, Role::Stimmzettel, Role::Wahlergebnisse, Role::Wahlgebietseinteilungen, Role::Wahlparameter];

    /// The word in the file name (`05111000_20200913_Ratswahl-NRW_Kandidaten_V0-3_….csv`).
    fn name(self) -> &'static str {
        match self {
            Role::Kandidaten => "Kandidaten",
            Role::Stimmzettel => "Stimmzettel",
            Role::Wahlergebnisse => "Wahlergebnisse",
            Role::Wahlgebietseinteilungen => "Wahlgebietseinteilungen",
            Role::Wahlparameter => "Wahlparameter",
        }
    }

    /// Columns that only this file's header has.
    fn markers(self) -> &'static [&'static str] {
        match self {
            Role::Kandidaten => &["kandidat-name", "kandidat-listenplatz"],
            Role::Stimmzettel => &["stimmzettel-position", "partei-typ"],
            Role::Wahlergebnisse => &["bezirk-nr", "D1"],
            Role::Wahlgebietseinteilungen => &["bezirk-nr", "bezirk-art", "kandidat-gebiet-nr"],
            Role::Wahlparameter => &["wahl-bezeichnung", "bezirk-bezeichnung"],
        }
    }

    fn by_name(name: &str) -> Option<Role> {
        let lower = name.to_lowercase();
        if !lower.ends_with(".csv") {
            return None;
        }
        Role::ALL.into_iter().find(|r| lower.contains(&r.name().to_lowercase()))
    }

    fn by_header(header: &[String]) -> Option<Role> {
        let has = |c: &str| header.iter().any(|h| h == c);
        if !has("wahl-behoerde-gs") {
            return None;
        }
        Role::ALL.into_iter().find(|r| r.markers().iter().all(|m| has(m)))
    }
}

/// The first line of a file, split at `;` (for recognition only; the import parses the whole file).
fn header_of(bytes: &[u8]) -> Vec<String> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let end = bytes.iter().position(|b| *b == b'\n').unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).split(';').map(|c| c.trim().trim_matches('"').trim().to_owned()).collect()
}

/// The files look like an OWD file set: at least one has an OWD header (the common column
/// `wahl-behoerde-gs` and the columns of one of the five files), or an OWD file name and that column.
pub fn recognises(files: &[InputFile]) -> bool {
    files.iter().any(|f| {
        let header = header_of(&f.bytes);
        Role::by_header(&header).is_some()
            || (Role::by_name(&f.name).is_some() && header.iter().any(|h| h == "wahl-behoerde-gs"))
    })
}

/// The five parsed files.
struct Files {
    kandidaten: Table,
    stimmzettel: Table,
    ergebnisse: Table,
    gebiete: Table,
    parameter: Table,
}

impl Files {
    /// Assign every file its role (by name, else by header), refuse a missing or doubled one, parse.
    fn read(files: &[InputFile], report: &mut Report) -> Result<Files, ImportError> {
        let mut found: [Option<&InputFile>; 5] = [None; 5];
        for f in files {
            let Some(role) = Role::by_name(&f.name).or_else(|| Role::by_header(&header_of(&f.bytes))) else {
                report.point(
                    Severity::Info,
                    Some(f.name.as_str()),
                    None,
                    "not an Offene-Wahldaten file: ignored",
                    "Keine Datei im Format Offene Wahldaten; nicht berücksichtigt.",
                );
                continue;
            };
            let slot = &mut found[role as usize];
            if let Some(first) = slot {
                return Err(ImportError::general(
                    format!("two {} files, {} and {}: import one election at a time", role.name(), first.name, f.name),
                    format!(
                        "Zwei Dateien der Art {}, {} und {}: bitte jeweils nur eine Wahl übernehmen.",
                        role.name(),
                        first.name,
                        f.name
                    ),
                ));
            }
            *slot = Some(f);
        }
        let mut tables = Vec::with_capacity(5);
        for role in Role::ALL {
            let Some(file) = found[role as usize] else {
                let present: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
                return Err(ImportError::in_file(
                    &format!("…_{}_….csv", role.name()),
                    format!(
                        "missing: an Offene-Wahldaten set has the five files Kandidaten, Stimmzettel, Wahlergebnisse, \
                         Wahlgebietseinteilungen and Wahlparameter; given: {}",
                        if present.is_empty() { "none".to_owned() } else { present.join(", ") }
                    ),
                    format!(
                        "Fehlt: Ein Satz Offene Wahldaten besteht aus den fünf Dateien Kandidaten, Stimmzettel, \
                         Wahlergebnisse, Wahlgebietseinteilungen und Wahlparameter; vorhanden: {}",
                        if present.is_empty() { "keine".to_owned() } else { present.join(", ") }
                    ),
                ));
            };
            let table = Table::parse(file)?;
            for column in COMMON {
                table.require(column)?;
            }
            tables.push(table);
        }
        let mut tables = tables.into_iter();
        let mut next = || {
            tables.next().ok_or_else(|| {
                ImportError::general(
                    "internal: a file went missing",
                    "Interner Fehler: Eine Datei ist abhandengekommen.",
                )
            })
        };
        Ok(Files {
            kandidaten: next()?,
            stimmzettel: next()?,
            ergebnisse: next()?,
            gebiete: next()?,
            parameter: next()?,
        })
    }

    fn all(&self) -> [(&Table, Role); 5] {
        [
            (&self.kandidaten, Role::Kandidaten),
            (&self.stimmzettel, Role::Stimmzettel),
            (&self.ergebnisse, Role::Wahlergebnisse),
            (&self.gebiete, Role::Wahlgebietseinteilungen),
            (&self.parameter, Role::Wahlparameter),
        ]
    }
}

/// Whitespace-normalised, lower-case: how list names are compared.
fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// A column's value as a string (trimmed); empty when the column is absent.
fn cell(row: &Row, col: Option<usize>) -> &str {
    col.map_or("", |c| row.get(c).trim())
}

/// Up to five items and how many more.
fn some_of(items: &[String]) -> String {
    let shown: Vec<&str> = items.iter().take(5).map(String::as_str).collect();
    match items.len() {
        n if n > 5 => format!("{} and {} more", shown.join(", "), n - 5),
        _ => shown.join(", "),
    }
}

/// Up to five items and how many more, in German.
fn some_of_de(items: &[String]) -> String {
    let shown: Vec<&str> = items.iter().take(5).map(String::as_str).collect();
    match items.len() {
        n if n > 5 => format!("{} und {} weitere", shown.join(", "), n - 5),
        _ => shown.join(", "),
    }
}

/// The election's facts must be the same in all five files: a difference is a data fault (named with the
/// files), not fatal. A Kreistag's Stimmbezirke may carry their municipality's AGS: there only the
/// Kandidaten, Stimmzettel and Wahlparameter files are compared on `wahl-behoerde-gs`.
fn check_same(files: &Files, kind: BodyKind, report: &mut Report) -> Result<(), ImportError> {
    for column in COMMON {
        let mut by_value: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for (table, role) in files.all() {
            let per_stimmbezirk = matches!(role, Role::Wahlergebnisse | Role::Wahlgebietseinteilungen);
            if column == "wahl-behoerde-gs" && kind == BodyKind::Kreistag && per_stimmbezirk {
                continue;
            }
            let idx = table.require(column)?;
            let values: BTreeSet<&str> = table.rows.iter().map(|r| r.get(idx).trim()).collect();
            for v in values {
                by_value.entry(v.to_owned()).or_default().push(&table.file);
            }
        }
        if by_value.len() > 1 {
            let most = by_value.values().map(Vec::len).max().unwrap_or(0);
            let odd: Vec<&str> = by_value.values().filter(|fs| fs.len() < most).flatten().copied().collect();
            let text: Vec<String> = by_value
                .iter()
                .map(|(v, fs)| format!("{} in {}", if v.is_empty() { "(empty)" } else { v }, fs.join(", ")))
                .collect();
            let text_de: Vec<String> = by_value
                .iter()
                .map(|(v, fs)| format!("{} in {}", if v.is_empty() { "(leer)" } else { v }, fs.join(", ")))
                .collect();
            report.point(
                Severity::DataFault,
                odd.first().copied().filter(|_| odd.len() == 1),
                None,
                format!(
                    "`{column}` differs between the files: {}. The import went on with the files as they are; \
                     check that every file belongs to this election",
                    text.join("; ")
                ),
                format!(
                    "`{column}` weicht zwischen den Dateien ab: {}. Der Import wurde mit den Dateien fortgesetzt, wie \
                     sie sind; bitte prüfen, dass jede Datei zu dieser Wahl gehört.",
                    text_de.join("; ")
                ),
            );
        }
        if column == "version" {
            for v in by_value.keys().filter(|v| !KNOWN_VERSIONS.contains(&v.as_str())) {
                report.point(
                    Severity::Info,
                    None,
                    None,
                    format!("schema version `{v}` was not seen before (known: 0.2, 0.3); read by column names"), format!("Die Schema-Version `{v}` ist bisher nicht bekannt (bekannt: 0.2, 0.3); nach den Spaltennamen gelesen."),
                );
            }
        }
    }
    Ok(())
}

/// Import an OWD file set: docs/import.md, "Offene Wahldaten".
pub fn import(files: &[InputFile], facts: &BodyFacts, options: &Options) -> Result<(Snapshot, Report), ImportError> {
    if facts.land != Land::Nw {
        return Err(ImportError::general(
            "Offene-Wahldaten files describe an NRW election (district candidates and Reservelisten, one vote); the \
             body's Land is not NW", "Dateien im Format Offene Wahldaten beschreiben eine Wahl in Nordrhein-Westfalen (Bewerberinnen und \
             Bewerber in Wahlbezirken und Reservelisten, eine Stimme); die Vertretung liegt nicht in Nordrhein-Westfalen.",
        ));
    }
    let mut report = Report::default();
    let files = Files::read(files, &mut report)?;
    check_same(&files, facts.kind, &mut report)?;
    let parameter = files.parameter.rows.first().ok_or_else(|| {
        ImportError::in_file(&files.parameter.file, "the file has no row", "Die Datei hat keine Zeile.")
    })?;
    let p = &files.parameter;
    let (version, date) = (cell(parameter, p.column("version")), cell(parameter, p.column("wahl-datum")));
    report.read(
        format!(
            "Offene Wahldaten {version}: {} of {date}, {} (AGS {})",
            cell(parameter, p.column("wahl-name")),
            cell(parameter, p.column("wahl-behoerde-name")),
            cell(parameter, p.column("wahl-behoerde-gs"))
        ),
        format!(
            "Offene Wahldaten {version}: {} vom {date}, {} (AGS {})",
            cell(parameter, p.column("wahl-name")),
            cell(parameter, p.column("wahl-behoerde-name")),
            cell(parameter, p.column("wahl-behoerde-gs"))
        ),
    );
    if let Ok(day) = NaiveDate::parse_from_str(date, "%d.%m.%Y") {
        if facts.term_start < day {
            report.point(
                Severity::ToConfirm,
                None,
                None,
                format!("the term starts on {} but the election was on {date}: check the term", facts.term_start),
                format!(
                    "Die Wahlperiode beginnt am {}, die Wahl war aber am {date}: bitte die Wahlperiode prüfen.",
                    facts.term_start
                ),
            );
        }
    }

    let ballot = read_ballot(&files.stimmzettel)?;
    let areas = read_areas(&files.gebiete, facts.kind, &mut report)?;
    let cands = read_candidates(&files.kandidaten, &ballot, &areas, &mut report)?;
    let mut district_lists: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
    for (i, c) in cands.iter().enumerate() {
        if let Some(w) = c.wahlbezirk {
            district_lists.entry((w, c.entry)).or_default().push(i);
        }
    }
    let mut doubled: Vec<(&(usize, usize), &Vec<usize>)> =
        district_lists.iter().filter(|(_, cs)| cs.len() > 1).collect();
    doubled.sort();
    for ((w, e), cs) in doubled {
        let lines: Vec<String> = cs.iter().map(|c| cands[*c].line.to_string()).collect();
        report.point(
            Severity::DataFault,
            Some(files.kandidaten.file.as_str()),
            Some(cands[cs[0]].line),
            format!(
                "{} has {} candidates in Wahlbezirk {} (lines {}); their votes cannot be told apart",
                ballot[*e].label(),
                cs.len(),
                areas.wahlbezirke[*w].nr,
                lines.join(", ")
            ), format!(
                "{} hat {} Bewerberinnen und Bewerber im Wahlbezirk {} (Zeilen {}); ihre Stimmen lassen sich nicht unterscheiden.",
                ballot[*e].label_de(),
                cs.len(),
                areas.wahlbezirke[*w].nr,
                lines.join(", ")
            ),
        );
    }
    let count = read_count(&files.ergebnisse, &ballot, &areas, &district_lists, facts.kind, options, &mut report)?;
    let won: HashSet<usize> =
        winners(&ballot, &areas, &district_lists, &count, &files.ergebnisse.file, &mut report).into_iter().collect();

    let votes_of = |i: usize| -> Option<i64> {
        let c = &cands[i];
        let w = c.wahlbezirk?;
        let t = count.tally.get(&(w, c.entry))?;
        let complete = count.reported[w] == areas.wahlbezirke[w].stimmbezirke;
        let alone = district_lists.get(&(w, c.entry)).is_some_and(|cs| cs.len() == 1);
        (complete && alone && t.filled > 0 && t.empty == 0).then(|| i64::try_from(t.sum).unwrap_or(i64::MAX))
    };
    let mut lists: Vec<List> = Vec::with_capacity(ballot.len());
    for (e, entry) in ballot.iter().enumerate() {
        let individual = entry.kind == ListKind::Individual;
        let id = format!("{}{}", if individual { "E" } else { "L" }, entry.position);
        // an Einzelbewerber's long name may read `Einzelbewerberin#Name`
        let long = if individual { entry.long.replace('#', " ") } else { entry.long.clone() };
        let name = if long.is_empty() { entry.short.clone() } else { long };
        let short_name = (!entry.short.is_empty() && entry.short != name).then(|| entry.short.clone());
        let mut members: Vec<usize> = (0..cands.len()).filter(|i| cands[*i].entry == e).collect();
        members.sort_by_key(|i| {
            let c = &cands[*i];
            let wb = c.wahlbezirk.unwrap_or(usize::MAX);
            (c.position.is_none(), c.position, wb, c.line)
        });
        let mut used = BTreeSet::new();
        let mut candidates = Vec::with_capacity(members.len());
        for i in members {
            let c = &cands[i];
            let mut cid = match (c.position, &c.district) {
                (Some(p), _) => format!("{id}-{p:02}"),
                (None, Some(d)) => format!("{id}-WB{d}"),
                (None, None) => format!("{id}-K{}", c.line),
            };
            if !used.insert(cid.clone()) {
                cid = format!("{id}-K{}", c.line);
                used.insert(cid.clone());
            }
            candidates.push(Candidate {
                id: cid,
                position: c.position,
                given_name: c.given.clone(),
                family_name: c.family.clone(),
                email: None,
                postal_address: None,
                form_of_address: c.form,
                academic_degree: c.degree.clone(),
                votes: votes_of(i),
                lot_rank: None,
                additional_rank: None,
                district: c.district.clone(),
                substitute_for: None,
                substitute_designation: None,
                seat: won.contains(&i).then_some(Seat { since: facts.term_start, via: SeatVia::District }),
                facts: Vec::new(),
            });
        }
        let kind = if individual { ListKind::Individual } else { ListKind::Party };
        lists.push(List { id, name, short_name, kind, area: None, party: None, candidates });
    }

    let derived = u32::try_from(areas.wahlbezirke.len()).unwrap_or(u32::MAX).saturating_mul(2);
    let statutory_size = match facts.statutory_size {
        Some(size) => {
            if size != derived {
                report.point(
                    Severity::ToConfirm,
                    None,
                    None,
                    format!(
                        "the statutory size given is {size}; the files' {} Wahlbezirke make {derived} representatives \
                         (§ 3 Abs. 2, § 4 Abs. 1 KWahlG NRW: half of them in Wahlbezirke). Right only if overhang and \
                         compensation seats (§ 33 KWahlG NRW) changed it",
                        areas.wahlbezirke.len()
                    ),
                    format!(
                        "Die angegebene gesetzliche Zahl der Vertreter ist {size}; die {} Wahlbezirke der Dateien \
                         ergeben {derived} Vertreter (§ 3 Abs. 2, § 4 Abs. 1 KWahlG NRW: die Hälfte wird in \
                         Wahlbezirken gewählt). Das ist nur richtig, wenn Überhang- und Ausgleichsmandate \
                         (§ 33 KWahlG NRW) die Zahl verändert haben.",
                        areas.wahlbezirke.len()
                    ),
                );
            }
            size
        }
        None => {
            report.point(
                Severity::ToConfirm,
                None,
                None,
                format!(
                    "statutory size {derived} derived from the {} Wahlbezirke (§ 3 Abs. 2, § 4 Abs. 1 KWahlG NRW: half \
                     the representatives are elected in Wahlbezirke); give it where overhang and compensation seats \
                     (§ 33 KWahlG NRW) changed it",
                    areas.wahlbezirke.len()
                ),
                format!(
                    "Gesetzliche Zahl der Vertreter {derived}, abgeleitet aus den {} Wahlbezirken (§ 3 Abs. 2, § 4 \
                     Abs. 1 KWahlG NRW: die Hälfte der Vertreter wird in Wahlbezirken gewählt); bitte angeben, wenn \
                     Überhang- und Ausgleichsmandate (§ 33 KWahlG NRW) sie verändert haben.",
                    areas.wahlbezirke.len()
                ),
            );
            derived
        }
    };

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
            determination: DeterminationMode::default(),
            readings: Readings::default(),
            local_holidays: Vec::new(),
            remedy_court: None,
            supervisory_authority: None,
            single_municipality_areas: vec![],
        },
        lists,
    };

    let on_list = cands.iter().filter(|c| c.position.is_some()).count();
    let in_district = cands.iter().filter(|c| c.district.is_some()).count();
    let individuals = ballot.iter().filter(|e| e.kind == ListKind::Individual).count();
    report.read(
        format!(
        "{} ballot entries ({} lists, {individuals} single candidate(s)), {} candidates ({on_list} on a Reserveliste, \
         {in_district} in a Wahlbezirk)",
        ballot.len(),
        ballot.len() - individuals,
        cands.len()
    ),
        format!(
            "{} Wahlvorschläge auf dem Stimmzettel ({} Listen, {individuals} Einzelbewerber), {} Bewerberinnen und \
         Bewerber ({on_list} auf einer Reserveliste, {in_district} in einem Wahlbezirk)",
            ballot.len(),
            ballot.len() - individuals,
            cands.len()
        ),
    );
    report.read(
        format!(
            "{} Stimmbezirke ({} polling, {} postal) mapped to {} Wahlbezirke; {} Stimmbezirke summed",
            areas.stimmbezirke.len(),
            areas.polling,
            areas.postal,
            areas.wahlbezirke.len(),
            count.summed
        ),
        format!(
            "{} Stimmbezirke ({} Urnenwahl, {} Briefwahl) {} Wahlbezirken zugeordnet; {} Stimmbezirke zusammengezählt",
            areas.stimmbezirke.len(),
            areas.polling,
            areas.postal,
            areas.wahlbezirke.len(),
            count.summed
        ),
    );
    let totals: Vec<String> = ballot.iter().zip(&count.totals).map(|(e, v)| format!("{} {v}", e.label())).collect();
    let totals_de: Vec<String> =
        ballot.iter().zip(&count.totals).map(|(e, v)| format!("{} {v}", e.label_de())).collect();
    report.read(
        format!("votes per ballot entry: {}", totals.join(", ")),
        format!("Stimmen je Wahlvorschlag: {}", totals_de.join(", ")),
    );
    report.read(format!(
        "{} of {} Wahlbezirk seats found (most votes, § 32 KWahlG NRW); Reserveliste seats: not in the files",
        won.len(),
        areas.wahlbezirke.len()
    ), format!(
        "{} von {} Sitzen in Wahlbezirken ermittelt (meiste Stimmen, § 32 KWahlG NRW); Sitze aus Reservelisten: nicht in den Dateien",
        won.len(),
        areas.wahlbezirke.len()
    ));
    report.point(
        Severity::ToConfirm,
        None,
        None,
        "the Wahlbezirk seats were found from the votes (most votes, § 32 Satz 1 KWahlG NRW): confirm them against the \
         Wahlausschuss's determination (a candidate who lost eligibility before election day is not considered, \
         § 32 Satz 2)", "Die Sitze in den Wahlbezirken wurden aus den Stimmen ermittelt (meiste Stimmen, § 32 Satz 1 KWahlG NRW): bitte \
         mit der Feststellung des Wahlausschusses abgleichen (eine Bewerberin oder ein Bewerber, die oder der vor dem \
         Wahltag die Wählbarkeit verloren hat, bleibt unberücksichtigt, § 32 Satz 2 KWahlG NRW).",
    );
    report.point(
        Severity::ToConfirm,
        None,
        None,
        "the files do not say who won a Reserveliste seat: enter the list seats (via list) the Wahlausschuss \
         determined (§ 33 KWahlG NRW); the report's votes per ballot entry are the figures it starts from",
        "Die Dateien geben nicht an, wer einen Sitz aus einer Reserveliste erhalten hat: bitte die vom \
         Wahlausschuss festgestellten Listensitze eintragen (§ 33 KWahlG NRW); die Stimmen je Wahlvorschlag in \
         diesem Bericht sind die Ausgangszahlen dafür.",
    );
    report.point(
        Severity::ToConfirm,
        None,
        None,
        "the files name no Ersatzbewerber (§ 16 Abs. 2 KWahlG NRW): enter them (substitute_for) where a list named them", "Die Dateien nennen keine Ersatzbewerber (§ 16 Abs. 2 KWahlG NRW): bitte eintragen, wo ein Wahlvorschlag \
         sie benannt hat.",
    );
    report.point(
        Severity::Info,
        None,
        None,
        "partei-typ P stands for parties and Wählergruppen alike: every list was imported as `party`; change a \
         Wählergruppe to `voter_group` (the succession rules treat both alike)",
        "partei-typ P steht für Parteien und Wählergruppen gleichermaßen: Jeder Wahlvorschlag wurde als Wahlvorschlag \
         einer Partei übernommen; bitte eine Wählergruppe als solche kennzeichnen (die Regeln der Nachfolge \
         behandeln beide gleich).",
    );
    let forms = cands.iter().filter(|c| c.form.is_some()).count();
    report.point(
        Severity::Info,
        Some(files.kandidaten.file.as_str()),
        None,
        format!(
            "form of address from kandidat-geschlecht (W: Frau, M: Herr) for {forms} of {} candidates",
            cands.len()
        ),
        format!(
            "Anrede aus kandidat-geschlecht (W: Frau, M: Herr) für {forms} von {} Bewerberinnen und Bewerbern",
            cands.len()
        ),
    );

    Body::from_snapshot(snapshot.clone()).map_err(|e| {
        ImportError::general(
            format!("the imported election does not validate ({e}): a fault of the files or the importer"),
            format!("Das übernommene Wahlergebnis ist nicht gültig ({e}): ein Fehler der Dateien oder des Imports."),
        )
    })?;
    Ok((snapshot, report))
}
