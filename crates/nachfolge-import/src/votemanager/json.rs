//! The JSON files of a votemanager presentation: the index (`open_data.json` with the list names of each
//! CSV, or `termin.json` with the elections of the date) and the result JSON (`Komponente`: list totals,
//! candidate names with votes, seats, the table of elected candidates). Read leniently: a field that is
//! missing is absent, never an error (docs/import.md, "votemanager").

use serde_json::Value;

use crate::csv::MAX_FILE_BYTES;
use crate::{ImportError, InputFile, Report, Severity};

/// The kind of a JSON file.
pub enum JsonFile {
    /// `open_data.json`: the CSV files (`csvs`: `wahl`, `ebene`, `url`) and their fields (`dateifelder`:
    /// `name`, `parteien` = `feld` `D<n>` → `wert` list name).
    OpenData(OpenData),
    /// `termin.json`: the elections of the date (`wahleintraege`).
    Termin(Vec<String>),
    /// The presentation's result JSON of one area.
    Result(Box<ResultJson>),
    Other,
}

#[derive(Debug, Clone, Default)]
pub struct OpenData {
    /// `csvs`: (wahl, ebene, file name of the url).
    pub csvs: Vec<(String, String, String)>,
    /// `dateifelder`: (name, [(n, list name)]).
    pub fields: Vec<(String, Vec<(u32, String)>)>,
}

impl OpenData {
    /// The list names of election `wahl`: the `dateifelder` entry named like it (or the only one).
    pub fn list_names(&self, wahl: &str) -> Option<&[(u32, String)]> {
        let w = norm(wahl);
        let exact: Vec<_> = self.fields.iter().filter(|(name, _)| norm(name) == w).collect();
        let prefixed: Vec<_> =
            self.fields.iter().filter(|(name, _)| !w.is_empty() && norm(name).starts_with(&w)).collect();
        match (exact.as_slice(), prefixed.as_slice(), self.fields.as_slice()) {
            ([one], _, _) | ([], [one], _) => Some(&one.1),
            ([], [], [only]) => Some(&only.1),
            _ => None,
        }
    }

    /// Whether the index says `file` is on the level of the Wahlbereiche.
    pub fn is_areas_file(&self, file: &str) -> bool {
        self.csvs.iter().any(|(_, ebene, f)| f == file && norm(ebene).contains("wahlbereich"))
    }
}

/// One group of the result table: a list (or an individual candidate), its total and candidates.
#[derive(Debug, Clone)]
pub struct JsonList {
    pub short: String,
    pub long: String,
    pub total: Option<u64>,
    /// (name as shown, "Vorname Nachname" with titles; votes).
    pub candidates: Vec<(String, u64)>,
    /// The label names an Einzelwahlvorschlag (an individual candidate).
    pub individual: bool,
}

/// One row of the table of elected candidates.
#[derive(Debug, Clone)]
pub struct ElectedRow {
    /// Position in the table (1-based), for the report.
    pub row: usize,
    pub party: String,
    /// As shown: "Nachname, Vorname" with titles in front.
    pub name: String,
    pub mandate: String,
    pub votes: Option<u64>,
}

#[derive(Debug, Clone, Default)]
pub struct ResultJson {
    /// `seitentitel` (election, date and area).
    pub title: String,
    pub lists: Vec<JsonList>,
    /// Seats per list short name (`sitze.tortenDiagramm.entries`).
    pub seats: Vec<(String, u64)>,
    pub elected: Vec<ElectedRow>,
    /// The table of elected candidates is there (even if empty).
    pub has_elected_table: bool,
}

/// Letters and digits only, lower case: for comparing names of files, elections and lists.
pub fn norm(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// A count as the presentation writes it: `"1.289"`, `1289`, `"1.289 Stimmen"`.
pub fn count(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => {
            n.as_u64().or_else(|| n.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0).map(|f| f as u64))
        }
        Value::String(s) => {
            let digits: String = s.split_whitespace().next()?.chars().filter(|c| *c != '.').collect();
            digits.parse().ok()
        }
        _ => None,
    }
}

fn text(v: Option<&Value>) -> String {
    v.and_then(Value::as_str).map(str::trim).unwrap_or_default().to_owned()
}

/// The suffixes of the Niedersachsen result table's rows; a list's rows share the part before.
const SUFFIXES: &[(&str, Part)] = &[
    (" - Summe Partei- und Kandidaten-Stimmen", Part::Total),
    (" - Summe Partei- und Kandidatenstimmen", Part::Total),
    (" - Stimmen für die Partei", Part::ListVotes),
    (" - Stimmen für die Liste", Part::ListVotes),
    (" - Summe Kandidaten-Stimmen", Part::Candidates),
    (" - Summe Kandidatenstimmen", Part::Candidates),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Total,
    ListVotes,
    Candidates,
    Whole,
}

fn split_label(label: &str) -> (&str, Part) {
    for (suffix, part) in SUFFIXES {
        if let Some(p) = label.strip_suffix(suffix) {
            return (p.trim(), *part);
        }
    }
    (label.trim(), Part::Whole)
}

/// Whether a label names an individual candidate's proposal (Einzelwahlvorschlag, Einzelbewerber/in).
pub fn individual_name(label: &str) -> Option<&str> {
    let lower = label.to_lowercase();
    for marker in [", einzelwahlvorschlag", ", einzelbewerberin", ", einzelbewerber", " (einzelwahlvorschlag)"] {
        if lower.ends_with(marker) {
            let cut = label.len() - marker.len();
            return label.get(..cut).map(str::trim);
        }
    }
    None
}

fn read_result(v: &Value) -> ResultJson {
    let k = &v["Komponente"];
    let mut out = ResultJson { title: text(v.get("seitentitel")), ..ResultJson::default() };
    for row in k.pointer("/tabelle/zeilen").and_then(Value::as_array).into_iter().flatten() {
        let short_label = text(row.pointer("/label/labelKurz"));
        let long_label =
            row.pointer("/label/labelLang").and_then(Value::as_str).map(str::trim).unwrap_or(&short_label).to_owned();
        let (short, part) = split_label(&short_label);
        let (long, _) = split_label(&long_label);
        let zahl = count(&row["zahl"]);
        let pos = match out.lists.iter().position(|l| l.short == short && part != Part::Whole) {
            Some(p) => p,
            None => {
                out.lists.push(JsonList {
                    short: short.to_owned(),
                    long: long.to_owned(),
                    total: None,
                    candidates: Vec::new(),
                    individual: part == Part::Whole && individual_name(short).is_some(),
                });
                out.lists.len() - 1
            }
        };
        let list = &mut out.lists[pos];
        if matches!(part, Part::Total | Part::Whole) {
            list.total = zahl;
        }
        for sub in row.get("sub_zeilen").and_then(Value::as_array).into_iter().flatten() {
            if let Some(votes) = count(&sub["zahl"]) {
                list.candidates.push((text(sub.pointer("/label/labelKurz")), votes));
            }
        }
    }
    let sitze = &k["sitze"];
    for e in sitze.pointer("/tortenDiagramm/entries").and_then(Value::as_array).into_iter().flatten() {
        if let Some(n) = count(&e["sitze"]) {
            out.seats.push((text(e.get("label")), n));
        }
    }
    if let Some(table) = sitze.get("tabelle") {
        out.has_elected_table = true;
        let heads: Vec<String> = table
            .get("ueberschriften")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|h| norm(h.as_str().unwrap_or("")))
            .collect();
        let col = |want: &str, default: usize| heads.iter().position(|h| h.starts_with(want)).unwrap_or(default);
        let (cp, cn, cm, cs) = (col("partei", 0), col("kandidat", 1), col("mandat", 2), col("stimmen", 3));
        for (i, row) in table.get("zeilen").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let cell = |c: usize| row.get(c).map(|v| text(Some(v))).unwrap_or_default();
            out.elected.push(ElectedRow {
                row: i + 1,
                party: cell(cp),
                name: cell(cn),
                mandate: cell(cm),
                votes: row.get(cs).and_then(count),
            });
        }
    }
    out
}

fn file_name(url: &str) -> String {
    url.rsplit('/').next().unwrap_or(url).to_owned()
}

/// Classify and read a JSON file.
pub fn read(v: &Value) -> JsonFile {
    if v.get("Komponente").is_some() {
        return JsonFile::Result(Box::new(read_result(v)));
    }
    if v.get("csvs").is_some() || v.get("dateifelder").is_some() {
        let mut od = OpenData::default();
        for c in v.get("csvs").and_then(Value::as_array).into_iter().flatten() {
            od.csvs.push((text(c.get("wahl")), text(c.get("ebene")), file_name(&text(c.get("url")))));
        }
        for d in v.get("dateifelder").and_then(Value::as_array).into_iter().flatten() {
            let mut names = Vec::new();
            for p in d.get("parteien").and_then(Value::as_array).into_iter().flatten() {
                let feld = text(p.get("feld"));
                if let Some(n) = feld.strip_prefix('D').and_then(|n| n.parse::<u32>().ok()) {
                    names.push((n, text(p.get("wert"))));
                }
            }
            od.fields.push((text(d.get("name")), names));
        }
        return JsonFile::OpenData(od);
    }
    if let Some(entries) = v.get("wahleintraege").and_then(Value::as_array) {
        return JsonFile::Termin(entries.iter().map(|e| text(e.pointer("/wahl/titel"))).collect());
    }
    JsonFile::Other
}

/// The JSON files, read.
#[derive(Default)]
pub struct Jsons {
    pub open: Option<(String, OpenData)>,
    pub termin: Option<(String, Vec<String>)>,
    pub results: Vec<(String, ResultJson)>,
}

pub fn read_json(f: &InputFile, out: &mut Jsons, report: &mut Report) -> Result<(), ImportError> {
    if f.bytes.len() > MAX_FILE_BYTES {
        return Err(ImportError::in_file(
            &f.name,
            format!("file is larger than {} MB", MAX_FILE_BYTES >> 20),
            format!("Die Datei ist größer als {} MB.", MAX_FILE_BYTES >> 20),
        ));
    }
    let v: Value = serde_json::from_slice(&f.bytes).map_err(|e| {
        let what = e.to_string();
        let what = what.split(" at line ").next().unwrap_or(&what).to_owned();
        ImportError::at(
            &f.name,
            e.line(),
            Some(e.column()),
            format!("not valid JSON ({what}; a truncated file?)"),
            format!("Kein gültiges JSON ({what}; eine abgeschnittene Datei?)."),
        )
    })?;
    match read(&v) {
        JsonFile::OpenData(od) if out.open.is_none() => out.open = Some((f.name.clone(), od)),
        JsonFile::Termin(t) if out.termin.is_none() => out.termin = Some((f.name.clone(), t)),
        JsonFile::Result(r) => out.results.push((f.name.clone(), *r)),
        JsonFile::OpenData(_) | JsonFile::Termin(_) => {
            report.point(
                Severity::DataFault,
                Some(&f.name),
                None,
                "a second index file; ignored",
                "Eine zweite Indexdatei; nicht berücksichtigt.",
            );
        }
        JsonFile::Other => report.point(
            Severity::Info,
            Some(&f.name),
            None,
            "not a votemanager JSON file; ignored",
            "Keine JSON-Datei von votemanager; nicht berücksichtigt.",
        ),
    }
    Ok(())
}

/// The result JSON of the election (its title names the election and the date); `None` when there is none.
pub fn pick_result(
    jsons: &mut Jsons,
    wahl: &str,
    datum: &str,
    report: &mut Report,
) -> Result<Option<(String, ResultJson)>, ImportError> {
    let (w, d) = (norm(wahl), norm(datum));
    let all = std::mem::take(&mut jsons.results);
    // of the election's date (or without a title), then naming the election
    let (dated, others): (Vec<_>, Vec<_>) =
        all.into_iter().partition(|(_, r)| r.title.is_empty() || norm(&r.title).contains(&d));
    let (mut ours, unnamed): (Vec<_>, Vec<_>) =
        dated.into_iter().partition(|(_, r)| r.title.is_empty() || norm(&r.title).contains(&w));
    let mut ignored = others;
    match (ours.is_empty(), <[_; 1]>::try_from(unnamed)) {
        (true, Ok([only])) => {
            // the only result JSON of the date, whose title names the election otherwise
            report.point(
                Severity::ToConfirm,
                Some(&only.0),
                None,
                format!(
                    "the result JSON's title `{}` does not name the election `{wahl}` of the CSVs; taken as its result, the only one of the date — check",
                    only.1.title
                ), format!(
                    "Der Titel `{}` der Ergebnis-JSON nennt nicht die Wahl `{wahl}` der CSV-Dateien; als deren Ergebnis übernommen, da sie die einzige dieses Datums ist – bitte prüfen.",
                    only.1.title
                ),
            );
            ours.push(only);
        }
        (_, Ok(one)) => ignored.extend(one),
        (_, Err(several)) => ignored.extend(several),
    }
    for (name, r) in ignored {
        report.point(
            Severity::Info,
            Some(&name),
            None,
            format!("a result JSON of another election (`{}`); ignored", r.title),
            format!("Eine Ergebnis-JSON einer anderen Wahl (`{}`); nicht berücksichtigt.", r.title),
        );
    }
    if ours.len() > 1 {
        ours.retain(|(_, r)| r.has_elected_table);
    }
    match ours.len() {
        0 | 1 => Ok(ours.pop()),
        _ => Err(ImportError::general(format!(
            "several result JSON files of the election with a table of elected candidates ({}): keep the one of the whole area",
            ours.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
        ), format!(
            "Mehrere Ergebnis-JSON-Dateien der Wahl mit einer Tabelle der Gewählten ({}): bitte nur die des gesamten Wahlgebiets übernehmen.",
            ours.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn counts_labels_and_the_elected_table_are_read() {
        assert_eq!(count(&json!("1.289")), Some(1289));
        assert_eq!(count(&json!("62.862 Stimmen")), Some(62862));
        assert_eq!(count(&json!(29.0)), Some(29));
        assert_eq!(count(&json!("24,91 %")), None);
        assert_eq!(individual_name("Michael Stille, Einzelwahlvorschlag"), Some("Michael Stille"));
        let v = json!({"seitentitel": "Stadtratswahl 13.09.2026 - X", "Komponente": {
            "tabelle": {"zeilen": [
                {"label": {"labelKurz": "A - Summe Partei- und Kandidaten-Stimmen", "labelLang": "Partei A - Summe Partei- und Kandidaten-Stimmen"}, "zahl": "1.000"},
                {"label": {"labelKurz": "A - Stimmen für die Partei"}, "zahl": "600"},
                {"label": {"labelKurz": "A - Summe Kandidaten-Stimmen"}, "zahl": "400", "sub_zeilen": [
                    {"label": {"labelKurz": "Eva Muster"}, "zahl": "300"}, {"label": {"labelKurz": "Dr. Max Muster"}, "zahl": "100"}]},
                {"label": {"labelKurz": "Ina Solo, Einzelwahlvorschlag"}, "zahl": "50"}]},
            "sitze": {"tortenDiagramm": {"entries": [{"label": "A", "sitze": 2}]},
                      "tabelle": {"ueberschriften": ["Partei", "Kandidat/in", "Mandat", "Stimmen"],
                                  "zeilen": [["A", "Muster, Eva", "direkt", "300"]]}}}});
        let JsonFile::Result(r) = read(&v) else { panic!("a result JSON") };
        assert_eq!(r.lists.len(), 2);
        assert_eq!(
            (r.lists[0].short.as_str(), r.lists[0].long.as_str(), r.lists[0].total),
            ("A", "Partei A", Some(1000))
        );
        assert_eq!(r.lists[0].candidates, [("Eva Muster".to_owned(), 300), ("Dr. Max Muster".to_owned(), 100)]);
        assert!(r.lists[1].individual && r.lists[1].total == Some(50));
        assert_eq!(r.seats, [("A".to_owned(), 2)]);
        assert_eq!((r.elected[0].mandate.as_str(), r.elected[0].votes), ("direkt", Some(300)));
    }

    #[test]
    fn the_index_gives_list_names_per_election() {
        let v = json!({"csvs": [{"wahl": "Ratswahl", "ebene": "Wahlbereiche", "url": "opendata/Open-Data-Ratswahl-Wahlbereiche.csv"}],
                       "dateifelder": [{"name": "Ratswahl", "felder": [], "parteien": [{"feld": "D1", "wert": "Partei A"}, {"feld": "D3", "wert": "Liste C"}]},
                                       {"name": "Ortsratswahl (Nord)", "parteien": [{"feld": "D1", "wert": "Other"}]}]});
        let JsonFile::OpenData(od) = read(&v) else { panic!("open data") };
        assert_eq!(od.list_names("Ratswahl"), Some(&[(1, "Partei A".to_owned()), (3, "Liste C".to_owned())][..]));
        assert!(od.list_names("Kreistagswahl").is_none());
        assert!(od.is_areas_file("Open-Data-Ratswahl-Wahlbereiche.csv"));
    }
}
