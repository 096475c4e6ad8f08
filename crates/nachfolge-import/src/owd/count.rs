//! The areas (Wahlgebietseinteilungen: Stimmbezirk → Wahlbezirk), the votes (Wahlergebnisse) summed per
//! Wahlbezirk and list, and the Wahlbezirk winners (§ 32 KWahlG NRW).

use std::collections::{BTreeMap, HashMap};

use nachfolge_core::model::BodyKind;

use super::lists::Entry;
use super::{some_of, some_of_de};
use crate::csv::Table;
use crate::{ImportError, Options, Report, Severity};

/// A Wahlbezirk (`kandidat-gebiet-nr`) and how many Stimmbezirke it has.
pub(super) struct Wahlbezirk {
    pub(super) nr: String,
    pub(super) stimmbezirke: usize,
}

/// The map Stimmbezirk → Wahlbezirk (Wahlgebietseinteilungen).
pub(super) struct Areas {
    pub(super) wahlbezirke: Vec<Wahlbezirk>,
    pub(super) by_nr: HashMap<String, usize>,
    /// Stimmbezirk key → its Wahlbezirk (`None`: the file assigns it to none).
    pub(super) stimmbezirke: HashMap<String, Option<usize>>,
    pub(super) polling: usize,
    pub(super) postal: usize,
}

impl Areas {
    /// The Wahlbezirk `nr` names: the same string, else (numbers only) the same number (`1` = `01` = `001`).
    pub(super) fn find(&self, nr: &str) -> Option<usize> {
        if let Some(i) = self.by_nr.get(nr) {
            return Some(*i);
        }
        let key = number_key(nr)?;
        let mut hits = self.wahlbezirke.iter().enumerate().filter(|(_, w)| number_key(&w.nr).as_deref() == Some(&key));
        match (hits.next(), hits.next()) {
            (Some((i, _)), None) => Some(i),
            _ => None,
        }
    }
}

fn number_key(s: &str) -> Option<String> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| {
        let t = s.trim_start_matches('0');
        if t.is_empty() { "0" } else { t }.to_owned()
    })
}

/// The key of a Stimmbezirk: its number; in a Kreistag election with its municipality's AGS.
fn stimmbezirk_key(kind: BodyKind, gs: &str, nr: &str) -> String {
    match kind {
        // a body over several municipalities (a Bezirkstag is not an NRW body; refused before the import)
        BodyKind::Kreistag | BodyKind::Bezirkstag | BodyKind::Regionalversammlung => format!("{gs}/{nr}"),
        BodyKind::Council => nr.to_owned(),
    }
}

pub(super) fn read_areas(t: &Table, kind: BodyKind, report: &mut Report) -> Result<Areas, ImportError> {
    let (nr, art, wb, gs) = (
        t.require("bezirk-nr")?,
        t.require("bezirk-art")?,
        t.require("kandidat-gebiet-nr")?,
        t.require("wahl-behoerde-gs")?,
    );
    let mut areas =
        Areas { wahlbezirke: Vec::new(), by_nr: HashMap::new(), stimmbezirke: HashMap::new(), polling: 0, postal: 0 };
    let mut lines: HashMap<String, usize> = HashMap::new();
    let mut unassigned = Vec::new();
    for row in &t.rows {
        let sb = row.get(nr).trim();
        if sb.is_empty() {
            return Err(ImportError::at(&t.file, row.line, Some(nr + 1), "bezirk-nr is empty", "bezirk-nr ist leer."));
        }
        let key = stimmbezirk_key(kind, row.get(gs).trim(), sb);
        if let Some(first) = lines.insert(key.clone(), row.line) {
            return Err(ImportError::at(
                &t.file,
                row.line,
                Some(nr + 1),
                format!("Stimmbezirk {sb} is also on line {first}"),
                format!("Der Stimmbezirk {sb} steht auch in Zeile {first}."),
            ));
        }
        match row.get(art).trim() {
            "W" => areas.polling += 1,
            "B" => areas.postal += 1,
            _ => {}
        }
        let w = row.get(wb).trim();
        let idx = if w.is_empty() {
            unassigned.push(sb.to_owned());
            None
        } else {
            let next = areas.wahlbezirke.len();
            let i = *areas.by_nr.entry(w.to_owned()).or_insert(next);
            if i == next {
                areas.wahlbezirke.push(Wahlbezirk { nr: w.to_owned(), stimmbezirke: 0 });
            }
            areas.wahlbezirke[i].stimmbezirke += 1;
            Some(i)
        };
        areas.stimmbezirke.insert(key, idx);
    }
    if areas.wahlbezirke.is_empty() {
        return Err(ImportError::in_file(
            &t.file,
            "no Stimmbezirk is assigned to a Wahlbezirk (kandidat-gebiet-nr)",
            "Kein Stimmbezirk ist einem Wahlbezirk zugeordnet (kandidat-gebiet-nr).",
        ));
    }
    if !unassigned.is_empty() {
        report.point(
            Severity::DataFault,
            Some(t.file.as_str()),
            None,
            format!(
                "{} Stimmbezirke have no Wahlbezirk (kandidat-gebiet-nr empty): {}; their votes count for no \
                 district candidate",
                unassigned.len(),
                some_of(&unassigned)
            ),
            format!(
                "Stimmbezirke ohne Wahlbezirk (kandidat-gebiet-nr leer): {} ({}); ihre Stimmen zählen für keine \
                 Bewerberin und keinen Bewerber im Wahlbezirk.",
                unassigned.len(),
                some_of_de(&unassigned)
            ),
        );
    }
    Ok(areas)
}

/// The votes of one list in one Wahlbezirk.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Tally {
    pub(super) sum: u64,
    /// Stimmbezirke with a number in the list's column.
    pub(super) filled: usize,
    /// Stimmbezirke with an empty cell.
    pub(super) empty: usize,
}

/// What Wahlergebnisse gives: per (Wahlbezirk, ballot entry) the votes where the list has a candidate, the
/// Stimmbezirke reported per Wahlbezirk, each list's total.
pub(super) struct Count {
    pub(super) tally: HashMap<(usize, usize), Tally>,
    pub(super) reported: Vec<usize>,
    pub(super) totals: Vec<u64>,
    pub(super) summed: usize,
}

pub(super) fn read_count(
    t: &Table,
    ballot: &[Entry],
    areas: &Areas,
    district_lists: &HashMap<(usize, usize), Vec<usize>>,
    kind: BodyKind,
    options: &Options,
    report: &mut Report,
) -> Result<Count, ImportError> {
    let (nr, gs) = (t.require("bezirk-nr")?, t.require("wahl-behoerde-gs")?);
    let columns: Vec<usize> =
        ballot.iter().map(|e| t.require(&format!("D{}", e.position))).collect::<Result<_, _>>()?;
    let valid = t.column("D");
    let extra: Vec<&str> = t
        .header
        .iter()
        .filter(|h| {
            h.strip_prefix('D')
                .and_then(|n| n.parse::<u32>().ok())
                .is_some_and(|n| !ballot.iter().any(|e| e.position == n))
        })
        .map(String::as_str)
        .collect();
    if !extra.is_empty() {
        report.point(
            Severity::DataFault,
            Some(t.file.as_str()),
            Some(1),
            format!("columns {} have no ballot entry: not counted", extra.join(", ")),
            format!(
                "Die Spalten {} gehören zu keinem Wahlvorschlag auf dem Stimmzettel: nicht gezählt.",
                extra.join(", ")
            ),
        );
    }
    let mut count = Count {
        tally: HashMap::new(),
        reported: vec![0; areas.wahlbezirke.len()],
        totals: vec![0; ballot.len()],
        summed: 0,
    };
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut outside = Vec::new();
    let mut outside_de = Vec::new();
    let mut wrong_total = Vec::new();
    // (Wahlbezirk, entry) → (Stimmbezirke, votes, first line): votes for a list without a candidate there
    let mut stray: BTreeMap<(usize, usize), (usize, u64, usize)> = BTreeMap::new();
    for row in &t.rows {
        let sb = row.get(nr).trim();
        let key = stimmbezirk_key(kind, row.get(gs).trim(), sb);
        let cells: Vec<Option<u64>> = columns.iter().map(|c| t.count(row, *c)).collect::<Result<_, _>>()?;
        let total = valid.map(|c| t.count(row, c)).transpose()?.flatten();
        if cells.iter().all(Option::is_none) && total.is_none() {
            continue; // not reported yet
        }
        let Some(assigned) = areas.stimmbezirke.get(&key) else {
            outside.push(format!("{sb} (line {})", row.line));
            outside_de.push(format!("{sb} (Zeile {})", row.line));
            continue;
        };
        if let Some(first) = seen.insert(key, row.line) {
            return Err(ImportError::at(
                &t.file,
                row.line,
                Some(nr + 1),
                format!("Stimmbezirk {sb} is also on line {first}"),
                format!("Der Stimmbezirk {sb} steht auch in Zeile {first}."),
            ));
        }
        let Some(w) = *assigned else { continue };
        count.reported[w] += 1;
        count.summed += 1;
        let sum = cells.iter().flatten().fold(0u64, |a, v| a.saturating_add(*v));
        if total.is_some_and(|d| d != sum) {
            wrong_total.push(row.line.to_string());
        }
        for (e, v) in cells.iter().enumerate() {
            count.totals[e] = count.totals[e].saturating_add(v.unwrap_or(0));
            if district_lists.contains_key(&(w, e)) {
                let tally = count.tally.entry((w, e)).or_default();
                match v {
                    Some(v) => {
                        tally.sum = tally.sum.saturating_add(*v);
                        tally.filled += 1;
                    }
                    None => tally.empty += 1,
                }
            } else if let Some(v) = v.filter(|v| *v > 0) {
                let s = stray.entry((w, e)).or_insert((0, 0, row.line));
                s.0 += 1;
                s.1 = s.1.saturating_add(v);
            }
        }
    }
    if !outside.is_empty() {
        report.point(
            Severity::DataFault,
            Some(t.file.as_str()),
            None,
            format!(
                "{} rows name no Stimmbezirk of Wahlgebietseinteilungen (aggregate rows?): {}; not counted",
                outside.len(),
                some_of(&outside)
            ), format!(
                "Zeilen, die keinen Stimmbezirk der Wahlgebietseinteilungen nennen (Summenzeilen?): {} ({}); nicht gezählt.",
                outside.len(),
                some_of_de(&outside_de)
            ),
        );
    }
    if !wrong_total.is_empty() {
        report.point(
            Severity::DataFault,
            Some(t.file.as_str()),
            None,
            format!(
                "on {} rows the valid votes (D) are not the sum of the lists' columns (lines {}); the lists' columns \
                 were counted",
                wrong_total.len(),
                some_of(&wrong_total)
            ), format!(
                "In {} Zeilen sind die gültigen Stimmen (D) nicht die Summe der Spalten der Wahlvorschläge (Zeilen {}); \
                 gezählt wurden die Spalten der Wahlvorschläge.",
                wrong_total.len(),
                some_of_de(&wrong_total)
            ),
        );
    }
    for ((w, e), (n, votes, line)) in stray {
        report.point(
            Severity::DataFault,
            Some(t.file.as_str()),
            Some(line),
            format!(
                "{votes} votes for {} in {n} Stimmbezirke of Wahlbezirk {}, where it has no candidate (D{} should be \
                 empty there); counted for no candidate",
                ballot[e].label(),
                areas.wahlbezirke[w].nr,
                ballot[e].position
            ),
            format!(
                "{votes} Stimmen für {} in {n} Stimmbezirken des Wahlbezirks {}, in dem der Wahlvorschlag keine \
                 Bewerberin und keinen Bewerber hat (D{} müsste dort leer sein); für niemanden gezählt.",
                ballot[e].label_de(),
                areas.wahlbezirke[w].nr,
                ballot[e].position
            ),
        );
    }
    let mut missing: Vec<String> = areas
        .stimmbezirke
        .iter()
        .filter(|(k, w)| w.is_some() && !seen.contains_key(*k))
        .map(|(k, _)| k.clone())
        .collect();
    missing.sort();
    if !missing.is_empty() {
        let what = format!(
            "{} of {} Stimmbezirke have no result: {}",
            missing.len(),
            areas.stimmbezirke.len(),
            some_of(&missing)
        );
        let what_de = format!(
            "{} von {} Stimmbezirken haben kein Ergebnis: {}",
            missing.len(),
            areas.stimmbezirke.len(),
            some_of_de(&missing)
        );
        if !options.allow_incomplete {
            return Err(ImportError::in_file(
                &t.file,
                format!("{what}. The count is incomplete: import the final result (or allow an incomplete count)"),
                format!("{what_de}. Die Auszählung ist unvollständig: bitte das endgültige Ergebnis übernehmen."),
            ));
        }
        report.point(
            Severity::ToConfirm,
            Some(t.file.as_str()),
            None,
            format!("{what}. Imported as allowed; no winner is set in their Wahlbezirke"),
            format!("{what_de}. Wie zugelassen übernommen; in ihren Wahlbezirken ist niemand als gewählt gesetzt."),
        );
    }
    Ok(count)
}

/// The winner of every Wahlbezirk whose count is complete and unambiguous (§ 32 Satz 1 KWahlG NRW): the index
/// of the candidate. A tie (§ 32 Satz 3: the lot) and every gap is a point, and no seat.
pub(super) fn winners(
    ballot: &[Entry],
    areas: &Areas,
    district_lists: &HashMap<(usize, usize), Vec<usize>>,
    count: &Count,
    file: &str,
    report: &mut Report,
) -> Vec<usize> {
    let mut out = Vec::new();
    for (w, wb) in areas.wahlbezirke.iter().enumerate() {
        if count.reported[w] < wb.stimmbezirke {
            continue; // reported with the incomplete count
        }
        let mut contenders: Vec<(u64, usize)> = Vec::new();
        let mut undecided = false;
        for (e, entry) in ballot.iter().enumerate() {
            if !district_lists.contains_key(&(w, e)) {
                continue;
            }
            let t = count.tally.get(&(w, e)).copied().unwrap_or_default();
            if t.filled == 0 {
                report.point(
                    Severity::DataFault,
                    Some(file),
                    None,
                    format!(
                        "{} has a candidate in Wahlbezirk {} but no votes in any of its {} Stimmbezirke (D{} empty): \
                         the district candidacy was probably not on the ballot; no votes set",
                        entry.label(),
                        wb.nr,
                        wb.stimmbezirke,
                        entry.position
                    ),
                    format!(
                        "{} hat eine Bewerberin oder einen Bewerber im Wahlbezirk {}, aber in keinem seiner {} \
                         Stimmbezirke Stimmen (D{} leer): Die Bewerbung im Wahlbezirk stand wohl nicht auf dem \
                         Stimmzettel; keine Stimmen gesetzt.",
                        entry.label_de(),
                        wb.nr,
                        wb.stimmbezirke,
                        entry.position
                    ),
                );
            } else if t.empty > 0 {
                undecided = true;
                report.point(
                    Severity::DataFault,
                    Some(file),
                    None,
                    format!(
                        "{} has votes in {} but no number in {} of the {} Stimmbezirke of Wahlbezirk {} (D{} empty)",
                        entry.label(),
                        t.filled,
                        t.empty,
                        wb.stimmbezirke,
                        wb.nr,
                        entry.position
                    ), format!(
                        "{} hat Stimmen in {}, aber keine Zahl in {} der {} Stimmbezirke des Wahlbezirks {} (D{} leer).",
                        entry.label_de(),
                        t.filled,
                        t.empty,
                        wb.stimmbezirke,
                        wb.nr,
                        entry.position
                    ),
                );
            } else {
                contenders.push((t.sum, e));
            }
        }
        if undecided {
            report.point(
                Severity::ToConfirm,
                Some(file),
                None,
                format!("Wahlbezirk {}: the votes are incomplete, no winner set; enter the elected candidate", wb.nr), format!("Wahlbezirk {}: Die Stimmen sind unvollständig, niemand ist als gewählt gesetzt; bitte die gewählte Person eintragen.", wb.nr),
            );
            continue;
        }
        let Some(best) = contenders.iter().map(|c| c.0).max() else {
            report.point(
                Severity::ToConfirm,
                Some(file),
                None,
                format!("Wahlbezirk {}: no candidate has votes", wb.nr),
                format!("Wahlbezirk {}: Keine Bewerberin und kein Bewerber hat Stimmen.", wb.nr),
            );
            continue;
        };
        let tied: Vec<usize> = contenders.iter().filter(|c| c.0 == best).map(|c| c.1).collect();
        if tied.len() > 1 {
            let names: Vec<String> = tied.iter().map(|e| ballot[*e].label()).collect();
            let names_de: Vec<String> = tied.iter().map(|e| ballot[*e].label_de()).collect();
            report.point(
                Severity::ToConfirm,
                Some(file),
                None,
                format!(
                    "Wahlbezirk {}: {} tie with {best} votes; the Wahlleiter draws the lot (§ 32 Satz 3 KWahlG NRW). No \
                     seat set: enter the winner the lot named",
                    wb.nr,
                    names.join(" and ")
                ), format!(
                    "Wahlbezirk {}: Stimmengleichheit zwischen {} mit je {best} Stimmen; es entscheidet das vom \
                     Wahlleiter zu ziehende Los (§ 32 Satz 3 KWahlG NRW). Kein Sitz gesetzt: bitte die durch \
                     Losentscheid gewählte Person eintragen.",
                    wb.nr,
                    names_de.join(" und ")
                ),
            );
            continue;
        }
        match district_lists.get(&(w, tied[0])).map(Vec::as_slice) {
            Some([one]) => out.push(*one),
            _ => report.point(
                Severity::ToConfirm,
                Some(file),
                None,
                format!(
                    "Wahlbezirk {}: {} has the most votes but more than one candidate there; no seat set",
                    wb.nr,
                    ballot[tied[0]].label()
                ),
                format!(
                    "Wahlbezirk {}: {} hat die meisten Stimmen, dort aber mehr als eine Bewerberin oder einen \
                     Bewerber; kein Sitz gesetzt.",
                    wb.nr,
                    ballot[tied[0]].label_de()
                ),
            ),
        }
    }
    out
}
