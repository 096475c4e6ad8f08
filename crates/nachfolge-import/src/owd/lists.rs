//! The ballot (Stimmzettel) and the candidates (Kandidaten) joined to it.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use nachfolge_core::model::{FormOfAddress, ListKind};

use super::count::Areas;
use super::{cell, norm, some_of, some_of_de};
use crate::csv::Table;
use crate::{ImportError, Report, Severity};

/// One entry of the ballot (Stimmzettel): a list or a single candidate.
pub(super) struct Entry {
    pub(super) position: u32,
    pub(super) short: String,
    pub(super) long: String,
    pub(super) kind: ListKind,
}

impl Entry {
    /// How the report names it.
    pub(super) fn label(&self) -> String {
        let name = if self.short.is_empty() { &self.long } else { &self.short };
        format!("{} (ballot position {})", name, self.position)
    }
    /// The entry as the console names it, in German.
    pub(super) fn label_de(&self) -> String {
        let name = if self.short.is_empty() { &self.long } else { &self.short };
        format!("{} (Platz {} auf dem Stimmzettel)", name, self.position)
    }
}

pub(super) fn read_ballot(t: &Table) -> Result<Vec<Entry>, ImportError> {
    let (pos, short, long, typ) = (
        t.require("stimmzettel-position")?,
        t.require("partei-kurzname")?,
        t.require("partei-langname")?,
        t.require("partei-typ")?,
    );
    let area = t.column("stimmzettel-gebiet-nr");
    let ballots: BTreeSet<&str> = t.rows.iter().map(|r| cell(r, area)).filter(|a| !a.is_empty()).collect();
    if ballots.len() > 1 {
        return Err(ImportError::in_file(
            &t.file,
            format!(
                "{} ballots (stimmzettel-gebiet-nr {}): more than one election in one set (e.g. Bezirksvertretungen); \
                 a council election has one ballot",
                ballots.len(),
                ballots.iter().copied().collect::<Vec<_>>().join(", ")
            ),
            format!(
                "{} Stimmzettel (stimmzettel-gebiet-nr {}): mehr als eine Wahl in einem Satz Dateien (z. B. \
                 Bezirksvertretungen); eine Wahl der Vertretung hat einen Stimmzettel.",
                ballots.len(),
                ballots.iter().copied().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    let mut lines: HashMap<u32, usize> = HashMap::new();
    let mut out = Vec::new();
    for row in &t.rows {
        let raw = row.get(pos).trim();
        let position = raw.parse::<u32>().ok().filter(|p| *p > 0).ok_or_else(|| {
            ImportError::at(
                &t.file,
                row.line,
                Some(pos + 1),
                format!("stimmzettel-position `{raw}` is not a position"),
                format!("stimmzettel-position `{raw}` ist kein Platz auf dem Stimmzettel."),
            )
        })?;
        if let Some(first) = lines.insert(position, row.line) {
            return Err(ImportError::at(
                &t.file,
                row.line,
                Some(pos + 1),
                format!("ballot position {position} is also on line {first}"),
                format!("Der Platz {position} auf dem Stimmzettel steht auch in Zeile {first}."),
            ));
        }
        let kind = match row.get(typ).trim() {
            "P" => ListKind::Party,
            "E" => ListKind::Individual,
            other => {
                return Err(ImportError::at(
                    &t.file,
                    row.line,
                    Some(typ + 1),
                    format!("partei-typ `{other}` is neither P (list) nor E (single candidate)"),
                    format!("partei-typ `{other}` ist weder P (Liste) noch E (Einzelbewerber)."),
                ))
            }
        };
        let entry =
            Entry { position, short: row.get(short).trim().to_owned(), long: row.get(long).trim().to_owned(), kind };
        if entry.short.is_empty() && entry.long.is_empty() {
            return Err(ImportError::at(
                &t.file,
                row.line,
                None,
                "the ballot entry has neither a short nor a long name",
                "Der Wahlvorschlag auf dem Stimmzettel hat weder einen Kurz- noch einen Langnamen.",
            ));
        }
        out.push(entry);
    }
    if out.is_empty() {
        return Err(ImportError::in_file(&t.file, "the ballot has no entries", "Der Stimmzettel hat keine Einträge."));
    }
    out.sort_by_key(|e| e.position);
    Ok(out)
}

/// A candidate as read from the Kandidaten file.
pub(super) struct Cand {
    pub(super) entry: usize,
    pub(super) line: usize,
    pub(super) given: String,
    pub(super) family: String,
    pub(super) degree: Option<String>,
    pub(super) position: Option<u32>,
    pub(super) district: Option<String>,
    pub(super) wahlbezirk: Option<usize>,
    pub(super) form: Option<FormOfAddress>,
}

/// How a Kandidaten row's list names meet the ballot.
enum Joined {
    One(usize),
    /// The short name is on no ballot entry; the long name is on exactly one.
    ByLong(usize),
    None,
    Many(Vec<usize>),
}

/// Join by short name; by long name where the short name is empty (or matches nothing, reported), or to tell
/// two entries of the same short name apart. Never a guess: more than one match stays unjoined.
fn join(ballot: &[Entry], short: &str, long: &str) -> Joined {
    let (s, l) = (norm(short), norm(long));
    let by_long = |among: &[usize]| -> Vec<usize> {
        among.iter().copied().filter(|i| !l.is_empty() && norm(&ballot[*i].long) == l).collect()
    };
    let all: Vec<usize> = (0..ballot.len()).collect();
    let pick = |hits: Vec<usize>, one: fn(usize) -> Joined| match hits.len() {
        0 => Joined::None,
        1 => one(hits[0]),
        _ => Joined::Many(hits),
    };
    if s.is_empty() {
        return pick(by_long(&all), Joined::One);
    }
    let hits: Vec<usize> = all.iter().copied().filter(|i| norm(&ballot[*i].short) == s).collect();
    match hits.len() {
        0 => pick(by_long(&all), Joined::ByLong),
        1 => Joined::One(hits[0]),
        _ => match by_long(&hits).as_slice() {
            [one] => Joined::One(*one),
            _ => Joined::Many(hits),
        },
    }
}

pub(super) fn read_candidates(
    t: &Table,
    ballot: &[Entry],
    areas: &Areas,
    report: &mut Report,
) -> Result<Vec<Cand>, ImportError> {
    let (short, long, name, given, district, place) = (
        t.require("partei-kurzname")?,
        t.require("partei-langname")?,
        t.require("kandidat-name")?,
        t.require("kandidat-vorname")?,
        t.require("kandidat-gebiet-nr")?,
        t.require("kandidat-listenplatz")?,
    );
    let (prefix, degree, sex) =
        (t.column("kandidat-namensvorsatz"), t.column("kandidat-akadgrad"), t.column("kandidat-geschlecht"));
    let mut out = Vec::new();
    let mut unjoined: BTreeMap<(String, String), (Vec<String>, Vec<usize>)> = BTreeMap::new();
    let mut by_long_noted: BTreeSet<usize> = BTreeSet::new();
    let mut positions: HashMap<(usize, u32), usize> = HashMap::new();
    for row in &t.rows {
        let (s, l) = (row.get(short).trim(), row.get(long).trim());
        let entry = match join(ballot, s, l) {
            Joined::One(e) => e,
            Joined::ByLong(e) => {
                if by_long_noted.insert(e) {
                    report.point(
                        Severity::DataFault,
                        Some(t.file.as_str()),
                        Some(row.line),
                        format!(
                            "the short name `{s}` is on no ballot entry; joined by the long name to {}",
                            ballot[e].label()
                        ), format!(
                            "Der Kurzname `{s}` steht bei keinem Wahlvorschlag auf dem Stimmzettel; über den Langnamen {} zugeordnet.",
                            ballot[e].label_de()
                        ),
                    );
                }
                e
            }
            Joined::None => {
                unjoined.entry((s.to_owned(), l.to_owned())).or_default().0.push(row.line.to_string());
                continue;
            }
            Joined::Many(hits) => {
                let group = unjoined.entry((s.to_owned(), l.to_owned())).or_default();
                group.0.push(row.line.to_string());
                group.1 = hits;
                continue;
            }
        };
        if row.get(name).trim().is_empty() {
            return Err(ImportError::at(
                &t.file,
                row.line,
                Some(name + 1),
                "kandidat-name is empty",
                "kandidat-name ist leer.",
            ));
        }
        let family =
            [cell(row, prefix), row.get(name).trim()].iter().filter(|p| !p.is_empty()).copied().collect::<Vec<_>>();
        let title = cell(row, degree);
        let raw = row.get(place).trim();
        // `0`: a candidacy in the Wahlbezirk only
        let mut position = match raw {
            "" => None,
            _ => Some(raw.parse::<u32>().map_err(|_| {
                ImportError::at(
                    &t.file,
                    row.line,
                    Some(place + 1),
                    format!("kandidat-listenplatz `{raw}` is not a position"),
                    format!("kandidat-listenplatz `{raw}` ist kein Listenplatz."),
                )
            })?)
            .filter(|p| *p > 0),
        };
        if ballot[entry].kind == ListKind::Individual {
            if let Some(p) = position.take() {
                report.point(
                    Severity::DataFault,
                    Some(t.file.as_str()),
                    Some(row.line),
                    format!("a single candidate has no Reserveliste; kandidat-listenplatz {p} ignored"),
                    format!(
                        "Ein Einzelbewerber hat keine Reserveliste; kandidat-listenplatz {p} nicht berücksichtigt."
                    ),
                );
            }
        }
        if let Some(p) = position {
            if let Some(other) = positions.insert((entry, p), row.line) {
                return Err(ImportError::at(
                    &t.file,
                    row.line,
                    Some(place + 1),
                    format!("Reserveliste position {p} of {} is also held by line {other}", ballot[entry].label()),
                    format!(
                        "Der Listenplatz {p} der Reserveliste {} ist auch in Zeile {other} vergeben.",
                        ballot[entry].label_de()
                    ),
                ));
            }
        }
        let raw = row.get(district).trim();
        let (district, wahlbezirk) = match (!raw.is_empty()).then(|| areas.find(raw)) {
            None => (None, None),
            Some(Some(i)) => (Some(areas.wahlbezirke[i].nr.clone()), Some(i)),
            Some(None) => {
                let why =
                    format!("Wahlbezirk `{raw}` is not in Wahlgebietseinteilungen: kept as written, no votes summed");
                let why_de = format!(
                    "Der Wahlbezirk `{raw}` steht nicht in den Wahlgebietseinteilungen: wie angegeben übernommen, \
                     keine Stimmen zusammengezählt."
                );
                report.point(Severity::DataFault, Some(t.file.as_str()), Some(row.line), why, why_de);
                (Some(raw.to_owned()), None)
            }
        };
        if position.is_none() && district.is_none() {
            report.point(
                Severity::DataFault,
                Some(t.file.as_str()),
                Some(row.line),
                "the candidate has neither a Wahlbezirk nor a Reserveliste position", "Die Bewerberin oder der Bewerber hat weder einen Wahlbezirk noch einen Listenplatz auf einer Reserveliste.",
            );
        }
        let form = match cell(row, sex) {
            "W" | "w" => Some(FormOfAddress::Frau),
            "M" | "m" => Some(FormOfAddress::Herr),
            _ => None,
        };
        out.push(Cand {
            entry,
            line: row.line,
            given: row.get(given).trim().to_owned(),
            family: family.join(" "),
            degree: (!title.is_empty()).then(|| title.to_owned()),
            position,
            district,
            wahlbezirk,
            form,
        });
    }
    for ((s, l), (lines, hits)) in unjoined {
        let (why, why_de) = if hits.is_empty() {
            ("matches no ballot entry".to_owned(), "passt zu keinem Wahlvorschlag auf dem Stimmzettel".to_owned())
        } else {
            let labels: Vec<String> = hits.iter().map(|i| ballot[*i].label()).collect();
            let labels_de: Vec<String> = hits.iter().map(|i| ballot[*i].label_de()).collect();
            (
                format!("matches more than one ballot entry ({})", labels.join(", ")),
                format!("passt zu mehr als einem Wahlvorschlag auf dem Stimmzettel ({})", labels_de.join(", ")),
            )
        };
        report.point(
            Severity::ToConfirm,
            Some(t.file.as_str()),
            lines.first().and_then(|l| l.parse().ok()),
            format!(
                "the list `{s}` / `{l}` of {} candidates (lines {}) {why}: they were not imported; add them by hand",
                lines.len(),
                some_of(&lines)
            ), format!(
                "Der Wahlvorschlag `{s}` / `{l}` mit {} Bewerberinnen und Bewerbern (Zeilen {}) {why_de}: Sie wurden nicht übernommen; bitte von Hand ergänzen.",
                lines.len(),
                some_of_de(&lines)
            ),
        );
    }
    for (i, e) in ballot.iter().enumerate() {
        if !out.iter().any(|c| c.entry == i) {
            report.point(
                Severity::DataFault,
                Some(t.file.as_str()),
                None,
                format!("{} has no candidate", e.label()),
                format!("{} hat keine Bewerberin und keinen Bewerber.", e.label_de()),
            );
        }
    }
    Ok(out)
}
