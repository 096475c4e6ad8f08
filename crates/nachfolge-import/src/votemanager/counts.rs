//! The result CSVs as counts: one file per level (the whole area, the Wahlbereiche, the Wahlbezirke), the
//! level of each, aggregate rows, the checks that the levels agree, and the count state
//! (docs/import.md, "Levels").

use super::schema::{classify, Columns, Role};
use crate::csv::Table;
use crate::{ImportError, Report, Severity};

/// The level a result file is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// One row: the whole electoral area (Gemeinde, Stadt, Kreis).
    Whole,
    /// One row per Wahlbereich, each with its own lists (Niedersachsen).
    Areas,
    /// One row per Wahlbezirk (Stimmbezirk), or another partition of the whole area.
    Districts,
}

impl Level {
    pub fn label(self) -> &'static str {
        match self {
            Level::Whole => "whole area",
            Level::Areas => "Wahlbereiche",
            Level::Districts => "Wahlbezirke",
        }
    }

    /// The level in German (the console's report).
    pub fn label_de(self) -> &'static str {
        match self {
            Level::Whole => "gesamtes Wahlgebiet",
            Level::Areas => "Wahlbereiche",
            Level::Districts => "Wahlbezirke",
        }
    }
}

/// One row with its counts (`None`: empty cell, not reported or no candidate).
#[derive(Debug, Clone)]
pub struct CountRow {
    pub line: usize,
    pub gebiet_nr: String,
    pub gebiet_name: String,
    pub counts: Vec<Option<u64>>,
}

/// One result CSV, read.
#[derive(Debug, Clone)]
pub struct ResultFile {
    pub file: String,
    pub header: Vec<String>,
    pub cols: Columns,
    pub level: Level,
    pub rows: Vec<CountRow>,
    /// The `wahl`, `datum` and `ags` of the first row.
    pub wahl: String,
    pub datum: String,
    pub ags: String,
}

impl ResultFile {
    /// Read `table` (a votemanager result CSV); `areas_hint`: the file is known to be the Wahlbereiche file
    /// (by `open_data.json`).
    pub fn read(table: Table, areas_hint: bool) -> Result<ResultFile, ImportError> {
        let cols = classify(&table)?;
        let mut rows = Vec::with_capacity(table.rows.len());
        for row in &table.rows {
            let mut counts = Vec::with_capacity(cols.roles.len());
            for (i, role) in cols.roles.iter().enumerate() {
                counts.push(if *role == Role::Text { None } else { table.count(row, i)? });
            }
            rows.push(CountRow {
                line: row.line,
                gebiet_nr: cols.gebiet_nr.map(|i| row.get(i).trim().to_owned()).unwrap_or_default(),
                gebiet_name: row.get(cols.gebiet_name).trim().to_owned(),
                counts,
            });
        }
        if rows.is_empty() {
            return Err(ImportError::in_file(
                &table.file,
                "the file has a header but no rows",
                "Die Datei hat eine Kopfzeile, aber keine Zeilen.",
            ));
        }
        let first = table.rows.first();
        let text = |c: Option<usize>| c.and_then(|c| first.map(|r| r.get(c).trim().to_owned())).unwrap_or_default();
        let (wahl, datum, ags) = (text(cols.wahl), text(cols.datum), text(cols.ags));
        let named_areas = table.file.to_lowercase().contains("wahlbereich")
            || rows.iter().all(|r| r.gebiet_name.to_lowercase().contains("wahlbereich"));
        let level = if rows.len() == 1 {
            Level::Whole
        } else if areas_hint || named_areas {
            Level::Areas
        } else {
            Level::Districts
        };
        Ok(ResultFile { file: table.file, header: table.header, cols, level, rows, wahl, datum, ags })
    }

    /// Drop rows that are the sum of all the others (an aggregate row in a file of Wahlbezirke); reported.
    pub fn drop_aggregate_rows(&mut self, report: &mut Report) {
        if self.rows.len() < 3 {
            return;
        }
        let totals = self.sums();
        let count_cols: Vec<usize> = (0..self.cols.roles.len()).filter(|i| self.cols.roles[*i] != Role::Text).collect();
        let is_aggregate = |r: &CountRow| {
            r.counts.get(self.cols.max).copied().flatten().unwrap_or(0) > 0
                && count_cols.iter().all(|&c| {
                    let v = r.counts[c].unwrap_or(0);
                    totals[c].unwrap_or(0) == 2 * v
                })
        };
        let (aggregates, rows): (Vec<CountRow>, Vec<CountRow>) = self.rows.drain(..).partition(is_aggregate);
        self.rows = rows;
        for r in aggregates {
            report.point(
                Severity::Info,
                Some(&self.file),
                Some(r.line),
                "an aggregate row (the sum of all other rows) was left out, so that nothing is counted twice", "Eine Summenzeile (die Summe aller anderen Zeilen) wurde nicht übernommen, damit nichts doppelt gezählt wird.",
            );
        }
    }

    /// The sum of every column over the rows (`None` where every cell is empty).
    pub fn sums(&self) -> Vec<Option<u64>> {
        let mut out = vec![None; self.cols.roles.len()];
        for r in &self.rows {
            for (o, v) in out.iter_mut().zip(&r.counts) {
                if let Some(v) = v {
                    *o = Some(o.unwrap_or(0u64).saturating_add(*v));
                }
            }
        }
        out
    }

    /// Reports received and expected over the rows.
    pub fn state(&self) -> (u64, u64) {
        let s = self.sums();
        (s[self.cols.anz].unwrap_or(0), s[self.cols.max].unwrap_or(0))
    }
}

/// A Roman numeral (I, II, …, XLIX).
fn roman(s: &str) -> Option<u32> {
    let vals: Vec<i64> = s
        .chars()
        .map(|c| match c {
            'I' => Some(1),
            'V' => Some(5),
            'X' => Some(10),
            'L' => Some(50),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let total: i64 =
        vals.iter().enumerate().map(|(i, v)| if vals.get(i + 1).is_some_and(|w| w > v) { -v } else { *v }).sum();
    u32::try_from(total).ok().filter(|n| *n > 0)
}

/// The number of a Wahlbereich from its row: `gebiet-nr`, "Wahlbereich <i>" in the name, a Roman numeral in
/// front ("III - Stadtmitte"), else its place in the file (`false`).
pub fn area_number(row: &CountRow, place: usize) -> (u32, bool) {
    if let Ok(n) = row.gebiet_nr.parse::<u32>() {
        return (n, true);
    }
    let lower = row.gebiet_name.to_lowercase();
    if let Some(rest) = lower.split("wahlbereich").nth(1) {
        let digits: String = rest.trim().chars().take_while(char::is_ascii_digit).collect();
        if let Ok(n) = digits.parse() {
            return (n, true);
        }
    }
    if let Some(n) = row.gebiet_name.split([' ', '-', '.']).next().and_then(roman) {
        return (n, true);
    }
    (place as u32 + 1, false)
}

/// Compare the column sums of `a` and `b` (files of the same election on different levels); every column
/// both have must agree. Returns the disagreeing columns as `(column, a, b)`.
pub fn disagreements(a: &ResultFile, b: &ResultFile) -> Vec<(String, Option<u64>, Option<u64>)> {
    let (sa, sb) = (a.sums(), b.sums());
    let index: std::collections::HashMap<&str, usize> =
        b.header.iter().enumerate().map(|(j, h)| (h.as_str(), j)).collect();
    let mut out = Vec::new();
    for (i, col) in a.header.iter().enumerate() {
        if a.cols.roles[i] == Role::Text {
            continue;
        }
        let Some(&j) = index.get(col.as_str()) else { continue };
        if sa[i] != sb[j] {
            out.push((col.clone(), sa[i], sb[j]));
        }
    }
    out
}

/// Check the figures inside each row: a list's total is its list votes plus its personal votes, and the
/// personal votes add up (Niedersachsen); a list's votes are the sum of its candidates' (Hessen, Bayern).
pub fn check_rows(f: &ResultFile, report: &mut Report) {
    /// The columns of one list: list votes, personal votes, total, positions.
    #[derive(Default)]
    struct ListCols {
        list_votes: Option<usize>,
        cand_sum: Option<usize>,
        total: Option<usize>,
        positions: Vec<usize>,
    }
    let mut by_list: std::collections::BTreeMap<u32, ListCols> = std::collections::BTreeMap::new();
    for (i, role) in f.cols.roles.iter().enumerate() {
        match *role {
            Role::ListVotes(n) => by_list.entry(n).or_default().list_votes = Some(i),
            Role::CandidateSum(n) => by_list.entry(n).or_default().cand_sum = Some(i),
            Role::Total(n) => by_list.entry(n).or_default().total = Some(i),
            Role::Candidate(n, _) => by_list.entry(n).or_default().positions.push(i),
            Role::Text | Role::Count => {}
        }
    }
    let mut faults = 0usize;
    let mut first: Option<(usize, (String, String))> = None;
    for r in &f.rows {
        for (&n, cols) in &by_list {
            let cell = |c: Option<usize>| c.and_then(|c| r.counts[c]);
            let (list_votes, cand_sum, total) = (cell(cols.list_votes), cell(cols.cand_sum), cell(cols.total));
            let sum = cols.positions.iter().filter_map(|c| r.counts[*c]).reduce(|a, b| a + b);
            let has_candidates = !cols.positions.is_empty();
            let mut wrong = None;
            match (list_votes, cand_sum, total) {
                (Some(l), Some(c), Some(t)) if l + c != t => {
                    wrong = Some((
                        format!("D{n}: list votes {l} + personal votes {c} ≠ total {t}"),
                        format!("D{n}: Listenstimmen {l} + Personenstimmen {c} ≠ Stimmen insgesamt {t}"),
                    ))
                }
                _ => {}
            }
            if let (Some(c), Some(s)) = (cand_sum, sum) {
                if c != s {
                    wrong = Some((
                        format!("D{n}: the sum of personal votes {c} ≠ the candidates' votes {s}"),
                        format!("D{n}: Summe der Personenstimmen {c} ≠ Stimmen der Bewerberinnen und Bewerber {s}"),
                    ));
                }
            } else if cand_sum.is_none() && list_votes.is_none() && has_candidates {
                if let (Some(t), Some(s)) = (total, sum) {
                    if t != s {
                        wrong = Some((format!("D{n}: the list's votes {t} ≠ the sum of its candidates' votes {s}"), format!("D{n}: Stimmen des Wahlvorschlags {t} ≠ Summe der Stimmen seiner Bewerberinnen und Bewerber {s}")));
                    }
                }
            }
            if let Some(w) = wrong {
                faults += 1;
                first.get_or_insert((r.line, w));
            }
        }
    }
    if let Some((line, (what, what_de))) = first {
        report.point(
            Severity::DataFault,
            Some(&f.file),
            Some(line),
            format!("{faults} list figure(s) that do not add up within their row; the first: {what}"), format!("Zahlen von Wahlvorschlägen, die sich innerhalb ihrer Zeile nicht aufaddieren: {faults}; die erste: {what_de}"),
        );
    }
}

/// Cells left empty in a reporting row where other rows of the same file have a count for that column: not
/// reported, taken as such (never as 0) and reported.
pub fn check_gaps(f: &ResultFile, report: &mut Report) {
    if f.level == Level::Areas || f.rows.len() < 2 {
        return;
    }
    let sums = f.sums();
    let mut gaps = 0usize;
    let mut first = None;
    for r in &f.rows {
        if r.counts[f.cols.anz].unwrap_or(0) == 0 {
            continue;
        }
        for (i, role) in f.cols.roles.iter().enumerate() {
            if *role != Role::Text && r.counts[i].is_none() && sums[i].is_some() {
                gaps += 1;
                first.get_or_insert((r.line, f.header[i].clone()));
            }
        }
    }
    if let Some((line, col)) = first {
        report.point(
            Severity::DataFault,
            Some(&f.file),
            Some(line),
            format!(
                "{gaps} empty cell(s) in rows that reported, where other rows have a count (first: column `{col}`); taken as not reported, not as 0"
            ), format!(
                "Leere Zellen in gemeldeten Zeilen, wo andere Zeilen eine Anzahl haben: {gaps} (die erste: Spalte `{col}`); als nicht gemeldet gewertet, nicht als 0."
            ),
        );
    }
}
