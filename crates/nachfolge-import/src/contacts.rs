//! The contacts CSV: what no published result file holds — postal and e-mail addresses, the form of address,
//! names the files lack, seats — merged into an imported snapshot (`nachfolge import --contacts FILE`;
//! docs/import.md, "Contacts CSV").
//!
//! The same dialect as the exports (UTF-8, `;`, one header line). Columns, by name (German or English):
//!
//! | column | meaning |
//! |---|---|
//! | `liste` / `list` | the list: its id in the snapshot (`L3`, `L3-WB2`), its name or its short name |
//! | `platz` / `position` | the position on that list |
//! | `name` | or: the candidate's name as in the snapshot ("Vorname Nachname") |
//! | `vorname` / `given_name`, `nachname` / `family_name` | set the name (both together) |
//! | `titel` / `academic_degree` | the akademischer Grad („Dr.“), `-` to remove it |
//! | `e-mail` / `email` | e-mail address |
//! | `anschrift` / `postal_address` | postal address, lines separated by commas or line breaks |
//! | `anrede` / `form_of_address` | `Frau` or `Herr` |
//! | `sitz` / `seat` | how the candidate holds a seat: `liste` (list), `personenwahl` (personal_vote), `direktmandat` (district), `kein` (none) |
//!
//! `liste` and one of `platz` and `name` are required; an empty cell leaves the field as it is. A row that
//! matches no candidate or several, a candidate set by two rows, and a column this file does not know are
//! errors naming the line and column.

use std::collections::HashMap;

use nachfolge_core::model::{FormOfAddress, Seat, SeatVia, Snapshot};

use crate::csv::Table;
use crate::{ImportError, InputFile, Report, Severity};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Col {
    List,
    Position,
    Name,
    Given,
    Family,
    Degree,
    Email,
    Address,
    Salutation,
    Seat,
}

fn column(header: &str) -> Option<Col> {
    let h = header.trim().to_lowercase().replace([' ', '-'], "_");
    Some(match h.as_str() {
        "liste" | "list" | "wahlvorschlag" => Col::List,
        "platz" | "position" | "listenplatz" => Col::Position,
        "name" => Col::Name,
        "vorname" | "given_name" => Col::Given,
        "nachname" | "family_name" => Col::Family,
        "titel" | "akademischer_grad" | "academic_degree" => Col::Degree,
        "e_mail" | "email" => Col::Email,
        "anschrift" | "postal_address" | "adresse" => Col::Address,
        "anrede" | "form_of_address" => Col::Salutation,
        "sitz" | "seat" => Col::Seat,
        _ => return None,
    })
}

fn key(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// Merge the contacts in `file` into `snapshot`.
pub fn merge(snapshot: &mut Snapshot, file: &InputFile, report: &mut Report) -> Result<(), ImportError> {
    let table = Table::parse(file)?;
    let name = table.file.as_str();
    let mut cols: HashMap<Col, usize> = HashMap::new();
    let mut unknown = Vec::new();
    for (i, h) in table.header.iter().enumerate() {
        match column(h) {
            Some(c) if cols.insert(c, i).is_some() => {
                return Err(ImportError::at(
                    name,
                    1,
                    Some(i + 1),
                    format!("the column `{h}` appears twice"),
                    format!("Die Spalte `{h}` kommt zweimal vor."),
                ))
            }
            Some(_) => {}
            None => unknown.push(format!("`{h}`")),
        }
    }
    if !unknown.is_empty() {
        return Err(ImportError::at(
            name,
            1,
            None,
            format!(
                "unknown columns {} (known: liste, platz, name, vorname, nachname, titel, e-mail, anschrift, anrede, sitz; docs/import.md)",
                unknown.join(", ")
            ), format!(
                "Unbekannte Spalten {} (bekannt sind: liste, platz, name, vorname, nachname, titel, e-mail, anschrift, anrede, sitz).",
                unknown.join(", ")
            ),
        ));
    }
    let Some(&list_col) = cols.get(&Col::List) else {
        return Err(ImportError::at(
            name,
            1,
            None,
            "the header has no column `liste`",
            "Die Kopfzeile hat keine Spalte `liste`.",
        ));
    };
    if !cols.contains_key(&Col::Position) && !cols.contains_key(&Col::Name) {
        return Err(ImportError::at(
            name,
            1,
            None,
            "the header has neither `platz` nor `name`: a row cannot name its candidate", "Die Kopfzeile hat weder `platz` noch `name`: Eine Zeile kann so keine Bewerberin und keinen Bewerber bezeichnen.",
        ));
    }
    let term_start = snapshot.body.term.start;
    let mut set_by: HashMap<(usize, usize), usize> = HashMap::new();
    let mut counts = [0usize; 5];
    for row in &table.rows {
        let cell = |c: Col| cols.get(&c).map(|i| (row.get(*i).trim(), *i + 1));
        if row.cells.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let at = |col: usize, msg: String, de: String| ImportError::at(name, row.line, Some(col), msg, de);
        let list = row.get(list_col).trim();
        if list.is_empty() {
            return Err(at(list_col + 1, "no list".into(), "Kein Wahlvorschlag angegeben.".into()));
        }
        let lists: Vec<usize> = match snapshot.lists.iter().position(|l| l.id == list) {
            Some(i) => vec![i],
            None => (0..snapshot.lists.len())
                .filter(|i| {
                    let l = &snapshot.lists[*i];
                    key(&l.name) == key(list) || l.short_name.as_deref().is_some_and(|s| key(s) == key(list))
                })
                .collect(),
        };
        if lists.is_empty() {
            return Err(at(
                list_col + 1,
                format!("no list `{list}` in the snapshot (its id, name or short name)"),
                format!("Kein Wahlvorschlag `{list}` im Wahlergebnis (Kennung, Name oder Kurzbezeichnung)."),
            ));
        }
        let position = match cell(Col::Position) {
            Some((p, col)) if !p.is_empty() => Some(p.parse::<u32>().map_err(|_| {
                at(col, format!("`{p}` is not a list position"), format!("`{p}` ist kein Listenplatz."))
            })?),
            _ => None,
        };
        let wanted = cell(Col::Name).map(|(n, _)| key(n)).filter(|n| !n.is_empty());
        if position.is_none() && wanted.is_none() {
            return Err(at(
                list_col + 1,
                "neither a position nor a name: the row names no candidate".into(),
                "Weder Listenplatz noch Name: Die Zeile bezeichnet keine Bewerberin und keinen Bewerber.".into(),
            ));
        }
        let mut hits = Vec::new();
        for &li in &lists {
            for (ci, c) in snapshot.lists[li].candidates.iter().enumerate() {
                if position.is_none_or(|p| c.position == Some(p))
                    && wanted.as_ref().is_none_or(|w| {
                        key(&c.full_name()) == *w
                            || c.academic_degree.as_ref().is_some_and(|d| key(&format!("{d} {}", c.full_name())) == *w)
                    })
                {
                    hits.push((li, ci));
                }
            }
        }
        let (li, ci) = match hits[..] {
            [one] => one,
            [] => {
                return Err(at(
                    list_col + 1,
                    "the row matches no candidate".into(),
                    "Die Zeile passt zu keiner Bewerberin und keinem Bewerber.".into(),
                ))
            }
            _ => {
                let ids: Vec<&str> = hits.iter().map(|(l, c)| snapshot.lists[*l].candidates[*c].id.as_str()).collect();
                return Err(at(
                    list_col + 1,
                    format!("the row matches several candidates ({}): give the list id", ids.join(", ")), format!("Die Zeile passt zu mehreren Bewerberinnen und Bewerbern ({}): bitte die Kennung des Wahlvorschlags angeben.", ids.join(", ")),
                ));
            }
        };
        if let Some(first) = set_by.insert((li, ci), row.line) {
            return Err(at(
                list_col + 1,
                format!("the candidate was already set by line {first}"),
                format!("Die Bewerberin oder der Bewerber wurde bereits in Zeile {first} gesetzt."),
            ));
        }
        let c = &mut snapshot.lists[li].candidates[ci];
        match (cell(Col::Given), cell(Col::Family)) {
            (Some((g, _)), Some((f, _))) if !g.is_empty() && !f.is_empty() => {
                c.given_name = g.to_owned();
                c.family_name = f.to_owned();
                counts[3] += 1;
            }
            (Some((g, col)), _) | (_, Some((g, col))) if !g.is_empty() => {
                return Err(at(
                    col,
                    "`vorname` and `nachname` are set together".into(),
                    "`vorname` und `nachname` sind nur gemeinsam anzugeben.".into(),
                ))
            }
            _ => {}
        }
        if let Some((d, _)) = cell(Col::Degree).filter(|(d, _)| !d.is_empty()) {
            c.academic_degree = (d != "-").then(|| d.to_owned());
        }
        if let Some((e, col)) = cell(Col::Email).filter(|(e, _)| !e.is_empty()) {
            let ok = e.split_once('@').is_some_and(|(l, d)| !l.is_empty() && d.contains('.'));
            if !ok || e.chars().any(char::is_whitespace) {
                return Err(at(
                    col,
                    format!("`{e}` is not an e-mail address"),
                    format!("`{e}` ist keine E-Mail-Adresse."),
                ));
            }
            c.email = Some(e.to_owned());
            counts[0] += 1;
        }
        if let Some((a, _)) = cell(Col::Address).filter(|(a, _)| !a.is_empty()) {
            let lines: Vec<&str> = a.split(['\n', ',']).map(str::trim).filter(|l| !l.is_empty()).collect();
            c.postal_address = Some(lines.join(", "));
            counts[1] += 1;
        }
        if let Some((s, col)) = cell(Col::Salutation).filter(|(s, _)| !s.is_empty()) {
            c.form_of_address = Some(match s.to_lowercase().as_str() {
                "frau" => FormOfAddress::Frau,
                "herr" => FormOfAddress::Herr,
                _ => {
                    return Err(at(
                        col,
                        format!("`{s}`: the form of address is `Frau` or `Herr` (or empty)"),
                        format!("`{s}`: Die Anrede lautet `Frau` oder `Herr` (oder bleibt leer)."),
                    ))
                }
            });
            counts[2] += 1;
        }
        if let Some((s, col)) = cell(Col::Seat).filter(|(s, _)| !s.is_empty()) {
            let via = match key(s).as_str() {
                "liste" | "list" | "listenwahl" => Some(SeatVia::List),
                "personenwahl" | "personal_vote" | "direkt" => Some(SeatVia::PersonalVote),
                "direktmandat" | "district" | "wahlbezirk" => Some(SeatVia::District),
                "kein" | "keiner" | "none" | "-" => None,
                _ => {
                    return Err(at(
                        col,
                        format!("`{s}`: the seat is `liste`, `personenwahl`, `direktmandat` or `kein`"),
                        format!("`{s}`: Der Sitz ist `liste`, `personenwahl`, `direktmandat` oder `kein`."),
                    ))
                }
            };
            c.seat = via.map(|via| Seat { since: c.seat.as_ref().map_or(term_start, |s| s.since), via });
            counts[4] += 1;
        }
    }
    report.read(
        format!(
            "contacts ({name}): {} row(s); e-mail {}, postal address {}, form of address {}, name {}, seat {}",
            set_by.len(),
            counts[0],
            counts[1],
            counts[2],
            counts[3],
            counts[4]
        ),
        format!(
            "Kontaktdaten ({name}): {} Zeile(n); E-Mail {}, Postanschrift {}, Anrede {}, Name {}, Sitz {}",
            set_by.len(),
            counts[0],
            counts[1],
            counts[2],
            counts[3],
            counts[4]
        ),
    );
    if counts[4] > 0 {
        report.point(
            Severity::Info,
            Some(name),
            None,
            format!("{} seat(s) set from the contacts file", counts[4]),
            format!("Aus der Kontaktdatei gesetzte Sitze: {}.", counts[4]),
        );
    }
    Ok(())
}
