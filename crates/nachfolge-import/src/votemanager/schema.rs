//! The columns of a votemanager result CSV, read from its header: which schema it is and what every column
//! means (docs/import.md, "Schema versions").

use crate::csv::Table;
use crate::ImportError;
use nachfolge_core::model::Land;

/// The schema versions this importer knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schema {
    /// Niedersachsen 2026: `D<n>_1` list votes, `D<n>_3` sum of personal votes, `D<n>_4` total,
    /// `D<n>_2_<k>` personal votes of position k.
    Ni2026,
    /// Niedersachsen 2021: `D<n>_liste`, `D<n>_summe_kandidaten`, `D<n>_summe_liste_kandidaten`, `D<n>_<k>`.
    Ni2021,
    /// Hessen: `unveraendert_<n>`, `veraendert_<n>`, `panasch_<n>`, `D<n>` (votes of the list, the sum of its
    /// candidates' votes), `D<n>_<k>`.
    Hessen,
    /// Bayern 2020 (OK.VOTE): `D<n>_unveraendert`, `D<n>_veraendert`, `D<n>`, `D<n>_<k>`,
    /// `Summe_unveraendert`, `Summe_veraendert`.
    Bayern2020,
    /// Only `D<n>` and `D<n>_<k>`: the columns every schema but Niedersachsen 2026 shares, with their meaning.
    Generic,
}

impl Schema {
    pub fn label(self) -> &'static str {
        match self {
            Schema::Ni2026 => "Niedersachsen 2026 (D<n>_1, D<n>_3, D<n>_4, D<n>_2_<k>)",
            Schema::Ni2021 => {
                "Niedersachsen 2021 (D<n>_liste, D<n>_summe_kandidaten, D<n>_summe_liste_kandidaten, D<n>_<k>)"
            }
            Schema::Hessen => "Hessen (unveraendert_<n>, veraendert_<n>, panasch_<n>, D<n>, D<n>_<k>)",
            Schema::Bayern2020 => "Bayern 2020 (D<n>_unveraendert, D<n>_veraendert, D<n>, D<n>_<k>)",
            Schema::Generic => "generic (D<n>, D<n>_<k>)",
        }
    }

    /// The schema in German (the console's report).
    pub fn label_de(self) -> &'static str {
        match self {
            Schema::Generic => "allgemein (D<n>, D<n>_<k>)",
            other => other.label(),
        }
    }

    /// The Land whose election law the schema belongs to, where it is one Land's.
    pub fn land(self) -> Option<Land> {
        match self {
            Schema::Ni2026 | Schema::Ni2021 => Some(Land::Ni),
            Schema::Hessen => Some(Land::He),
            Schema::Bayern2020 => Some(Land::By),
            Schema::Generic => None,
        }
    }
}

/// What one column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `datum`, `wahl`, `ags`, `gebiet-nr`, `gebiet-name`: text, not summed.
    Text,
    /// `max-schnellmeldungen`, `anz-schnellmeldungen` and the statistics (`A…`, `B…`, `C…`, `D`, `E`, ballot
    /// counts): summed and compared between levels, not used otherwise.
    Count,
    /// Votes for the list as a whole (`D<n>_1`, `D<n>_liste`).
    ListVotes(u32),
    /// The sum of the list's personal votes (`D<n>_3`, `D<n>_summe_kandidaten`).
    CandidateSum(u32),
    /// All votes of the list (`D<n>_4`, `D<n>_summe_liste_kandidaten`, `D<n>`).
    Total(u32),
    /// Personal votes of position k of list n (`D<n>_2_<k>`, `D<n>_<k>`).
    Candidate(u32, u32),
}

/// The columns of a result CSV.
#[derive(Debug, Clone)]
pub struct Columns {
    pub schema: Schema,
    pub roles: Vec<Role>,
    pub datum: Option<usize>,
    pub wahl: Option<usize>,
    pub ags: Option<usize>,
    pub gebiet_nr: Option<usize>,
    pub gebiet_name: usize,
    pub max: usize,
    pub anz: usize,
}

impl Columns {
    /// The list numbers, ascending.
    pub fn lists(&self) -> Vec<u32> {
        let mut out: Vec<u32> = self
            .roles
            .iter()
            .filter_map(|r| match r {
                Role::ListVotes(n) | Role::CandidateSum(n) | Role::Total(n) | Role::Candidate(n, _) => Some(*n),
                _ => None,
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// `D<n>` followed by `rest`: (n, rest).
fn list_prefix(col: &str) -> Option<(u32, &str)> {
    let rest = col.strip_prefix('D')?;
    let end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let n = rest[..end].parse().ok().filter(|n| *n > 0)?;
    Some((n, &rest[end..]))
}

fn number(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok().filter(|k| *k > 0)
}

/// `A`, `A1`, `B2`, `C`, `C1`, `D`, `E`: the statistics of the count.
fn is_statistic(col: &str) -> bool {
    let mut chars = col.chars();
    match chars.next() {
        Some('A' | 'B' | 'C') => chars.all(|c| c.is_ascii_digit()),
        Some('D' | 'E') => chars.next().is_none(),
        _ => false,
    }
}

fn role(schema: Schema, col: &str) -> Option<Role> {
    if is_statistic(col) {
        return Some(Role::Count);
    }
    match schema {
        Schema::Ni2026 => {
            let (n, rest) = list_prefix(col)?;
            match rest {
                "_1" => Some(Role::ListVotes(n)),
                "_3" => Some(Role::CandidateSum(n)),
                "_4" => Some(Role::Total(n)),
                _ => rest.strip_prefix("_2_").and_then(number).map(|k| Role::Candidate(n, k)),
            }
        }
        Schema::Ni2021 => {
            let (n, rest) = list_prefix(col)?;
            match rest {
                "_liste" => Some(Role::ListVotes(n)),
                "_summe_kandidaten" => Some(Role::CandidateSum(n)),
                "_summe_liste_kandidaten" => Some(Role::Total(n)),
                _ => rest.strip_prefix('_').and_then(number).map(|k| Role::Candidate(n, k)),
            }
        }
        Schema::Hessen | Schema::Bayern2020 | Schema::Generic => {
            let ballots = match schema {
                Schema::Hessen => ["unveraendert_", "veraendert_", "panasch_"]
                    .iter()
                    .any(|p| col.strip_prefix(p).and_then(number).is_some()),
                Schema::Bayern2020 => {
                    matches!(col, "Summe_unveraendert" | "Summe_veraendert")
                        || list_prefix(col).is_some_and(|(_, r)| r == "_unveraendert" || r == "_veraendert")
                }
                _ => false,
            };
            if ballots {
                return Some(Role::Count);
            }
            let (n, rest) = list_prefix(col)?;
            if rest.is_empty() {
                Some(Role::Total(n))
            } else {
                rest.strip_prefix('_').and_then(number).map(|k| Role::Candidate(n, k))
            }
        }
    }
}

/// The schema of `table`, from marker columns; every other column must fit it.
fn detect(table: &Table) -> Result<Schema, ImportError> {
    let h = &table.header;
    let has = |pred: &dyn Fn(&str) -> bool| h.iter().any(|c| pred(c));
    let mut found = Vec::new();
    if has(&|c| list_prefix(c).is_some_and(|(_, r)| r.strip_prefix("_2_").and_then(number).is_some())) {
        found.push(Schema::Ni2026);
    }
    if has(&|c| {
        list_prefix(c).is_some_and(|(_, r)| matches!(r, "_liste" | "_summe_kandidaten" | "_summe_liste_kandidaten"))
    }) {
        found.push(Schema::Ni2021);
    }
    if has(&|c| {
        ["unveraendert_", "veraendert_", "panasch_"].iter().any(|p| c.strip_prefix(p).and_then(number).is_some())
    }) {
        found.push(Schema::Hessen);
    }
    if has(&|c| {
        matches!(c, "Summe_unveraendert" | "Summe_veraendert")
            || list_prefix(c).is_some_and(|(_, r)| r == "_unveraendert" || r == "_veraendert")
    }) {
        found.push(Schema::Bayern2020);
    }
    match found.as_slice() {
        [one] => Ok(*one),
        [] if has(&|c| matches!(role(Schema::Generic, c), Some(Role::Candidate(..)))) => Ok(Schema::Generic),
        [] => Err(ImportError::at(
            &table.file,
            1,
            None,
            "the header has no candidate columns (D<n>_<k> or D<n>_2_<k>): not the result of a council election, or a schema this importer does not know (docs/import.md lists the known ones)", "Die Kopfzeile hat keine Spalten für Bewerberinnen und Bewerber (D<n>_<k> oder D<n>_2_<k>): nicht das Ergebnis einer Wahl der Vertretung oder ein Aufbau, den der Import nicht kennt.",
        )),
        several => Err(ImportError::at(
            &table.file,
            1,
            None,
            format!(
                "the header mixes the columns of several schemas ({}); this importer does not know such a file",
                several.iter().map(|s| s.label()).collect::<Vec<_>>().join("; ")
            ), format!(
                "Die Kopfzeile mischt die Spalten mehrerer Aufbauten ({}); eine solche Datei kennt der Import nicht.",
                several.iter().map(|s| s.label_de()).collect::<Vec<_>>().join("; ")
            ),
        )),
    }
}

/// Read the columns of a result CSV; an unknown column is an error naming the file and the columns.
pub fn classify(table: &Table) -> Result<Columns, ImportError> {
    let schema = detect(table)?;
    let idx = |name: &str| table.column(name);
    let gebiet_name = table.require("gebiet-name")?;
    let max = table.require("max-schnellmeldungen")?;
    let anz = table.require("anz-schnellmeldungen")?;
    let mut roles = Vec::with_capacity(table.header.len());
    let mut unknown = Vec::new();
    for col in &table.header {
        let r = match col.as_str() {
            "datum" | "wahl" | "ags" | "gebiet-nr" | "gebiet-name" => Some(Role::Text),
            "max-schnellmeldungen" | "anz-schnellmeldungen" => Some(Role::Count),
            c => role(schema, c),
        };
        match r {
            Some(r) => roles.push(r),
            None => {
                unknown.push(col.as_str());
                roles.push(Role::Text);
            }
        }
    }
    if !unknown.is_empty() {
        let shown: Vec<String> = unknown.iter().take(8).map(|c| format!("`{c}`")).collect();
        let more = if unknown.len() > 8 { format!(" and {} more", unknown.len() - 8) } else { String::new() };
        let more_de = if unknown.len() > 8 { format!(" und {} weitere", unknown.len() - 8) } else { String::new() };
        return Err(ImportError::at(
            &table.file,
            1,
            None,
            format!(
                "unknown columns for the {} schema: {}{more} (a schema version this importer does not know; docs/import.md lists the known ones)",
                schema.label(),
                shown.join(", ")
            ), format!(
                "Unbekannte Spalten für den Aufbau {}: {}{more_de} (eine Fassung des Aufbaus, die der Import nicht kennt).",
                schema.label_de(),
                shown.join(", ")
            ),
        ));
    }
    Ok(Columns {
        schema,
        roles,
        datum: idx("datum"),
        wahl: idx("wahl"),
        ags: idx("ags"),
        gebiet_nr: idx("gebiet-nr"),
        gebiet_name,
        max,
        anz,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InputFile;

    fn header(cols: &str) -> Result<Columns, ImportError> {
        let text = format!("datum;wahl;ags;gebiet-nr;gebiet-name;max-schnellmeldungen;anz-schnellmeldungen;{cols}\n");
        let t = Table::parse(&InputFile { name: "h.csv".into(), bytes: text.into_bytes() }).expect("parses");
        classify(&t)
    }

    #[test]
    fn every_known_schema_is_read_from_its_header() {
        let c = header("A;B;C1;C2;D;D1_1;D1_3;D1_4;D1_2_1;D1_2_2;D2_4").expect("NI 2026");
        assert_eq!(c.schema, Schema::Ni2026);
        assert_eq!(c.roles[5..12], [Role::Count; 7]);
        assert_eq!(
            c.roles[12..],
            [
                Role::ListVotes(1),
                Role::CandidateSum(1),
                Role::Total(1),
                Role::Candidate(1, 1),
                Role::Candidate(1, 2),
                Role::Total(2)
            ]
        );
        let c = header("A;D;D1_liste;D1_summe_kandidaten;D1_summe_liste_kandidaten;D1_1;D1_12").expect("NI 2021");
        assert_eq!(c.schema, Schema::Ni2021);
        assert_eq!(
            c.roles[9..],
            [Role::ListVotes(1), Role::CandidateSum(1), Role::Total(1), Role::Candidate(1, 1), Role::Candidate(1, 12)]
        );
        let c = header("A;C;D;unveraendert_1;veraendert_1;panasch_1;D1;D1_1;D1_2").expect("Hessen");
        assert_eq!(c.schema, Schema::Hessen);
        assert_eq!(c.lists(), [1]);
        let c = header("A;B2;E;D1_unveraendert;D1_veraendert;D1;D1_1;D5;D5_1;Summe_unveraendert;Summe_veraendert")
            .expect("Bayern");
        assert_eq!(c.schema, Schema::Bayern2020);
        assert_eq!(c.lists(), [1, 5]);
        assert_eq!(header("A;D;D1;D1_1;D1_2").expect("generic").schema, Schema::Generic);
    }

    #[test]
    fn an_unknown_or_mixed_header_is_refused_naming_the_columns() {
        let e = header("A;D;D1_1;D1_3;D1_4;D1_2_1;F1;D1_9_9").expect_err("unknown");
        assert_eq!((e.file.as_deref(), e.line), (Some("h.csv"), Some(1)));
        assert!(e.message.contains("`F1`, `D1_9_9`"), "{e}");
        let e = header("A;D;D1_liste;D1_2_1").expect_err("mixed");
        assert!(e.message.contains("mixes"), "{e}");
        let e = header("A;D;D1;D2").expect_err("no candidates");
        assert!(e.message.contains("no candidate columns"), "{e}");
    }
}
