//! Joining what the CSVs count (list n, Wahlbereich, position k, votes) with what the result JSON names
//! (lists, candidates by votes, the elected table) and the index (list names). A join is made only where it
//! is unique; everything else is a point for the official, never a guess (docs/import.md, "Joins").

use std::collections::{BTreeMap, HashMap};

use super::json::{individual_name, norm, JsonList, ResultJson};
use super::names::{display_key, split_display, split_elected, Split};
use crate::{Report, Severity};
use nachfolge_core::model::{Land, SeatVia};

/// One candidate as counted: list n, Wahlbereich (area mode), position k, personal votes.
#[derive(Debug, Clone)]
pub struct Cand {
    pub id: String,
    pub n: u32,
    pub area: Option<u32>,
    pub k: u32,
    pub votes: u64,
    pub name: Option<Split>,
    pub seat: Option<SeatVia>,
}

/// The names of list n.
#[derive(Debug, Clone, Default)]
pub struct ListNames {
    pub long: Option<String>,
    pub short: Option<String>,
    /// The index into the result JSON's lists.
    pub json: Option<usize>,
}

/// Map the CSV's lists (n with their total over the whole area) to the result JSON's lists: by the index's
/// list name, then by a unique total, then by order where everything else agrees.
pub fn map_lists(
    totals: &BTreeMap<u32, Option<u64>>,
    index: Option<&[(u32, String)]>,
    result: Option<&ResultJson>,
    file: Option<&str>,
    report: &mut Report,
) -> BTreeMap<u32, ListNames> {
    let mut out: BTreeMap<u32, ListNames> = totals.keys().map(|n| (*n, ListNames::default())).collect();
    for (n, name) in index.into_iter().flatten() {
        if let Some(l) = out.get_mut(n) {
            l.long = Some(name.clone());
        }
    }
    let Some(r) = result else { return out };
    let mut taken = vec![false; r.lists.len()];
    // 1. the index's name
    for (_, l) in out.iter_mut() {
        let Some(name) = l.long.as_deref().map(norm) else { continue };
        let hits: Vec<usize> = (0..r.lists.len())
            .filter(|j| norm(&r.lists[*j].long) == name || norm(&r.lists[*j].short) == name)
            .collect();
        if let [j] = hits[..] {
            if !taken[j] {
                taken[j] = true;
                l.json = Some(j);
            }
        }
    }
    // 2. a total that only one list of each side has
    let unmapped: Vec<u32> = out.iter().filter(|(_, l)| l.json.is_none()).map(|(n, _)| *n).collect();
    for &n in &unmapped {
        let Some(t) = totals[&n] else { continue };
        let same_csv = unmapped.iter().filter(|m| totals[*m] == Some(t)).count();
        let hits: Vec<usize> = (0..r.lists.len()).filter(|j| !taken[*j] && r.lists[*j].total == Some(t)).collect();
        if let ([j], 1) = (&hits[..], same_csv) {
            taken[*j] = true;
            if let Some(l) = out.get_mut(&n) {
                l.json = Some(*j);
            }
        }
    }
    // 3. the order, where both sides have as many lists and every list mapped so far sits at its place
    if out.values().any(|l| l.json.is_none()) && r.lists.len() == out.len() {
        let in_order = out.values().enumerate().all(|(i, l)| l.json.is_none_or(|j| j == i));
        if in_order {
            let mut by_order = Vec::new();
            for (i, (n, l)) in out.iter_mut().enumerate() {
                if l.json.is_none() {
                    l.json = Some(i);
                    by_order.push(format!("D{n}"));
                }
            }
            report.point(
                Severity::ToConfirm,
                file,
                None,
                format!(
                    "lists {} were matched to the result JSON by their order only (neither a name nor a unique total tells): check their names",
                    by_order.join(", ")
                ), format!(
                    "Die Wahlvorschläge {} wurden der Ergebnis-JSON nur nach ihrer Reihenfolge zugeordnet (weder ein Name noch eine eindeutige Stimmenzahl entscheidet): bitte ihre Namen prüfen.",
                    by_order.join(", ")
                ),
            );
        }
    }
    for (n, l) in out.iter_mut() {
        let Some(j) = l.json else {
            report.point(
                Severity::ToConfirm,
                file,
                None,
                format!("list D{n} could not be matched to a list of the result JSON: its name and candidates' names are missing"), format!("Der Wahlvorschlag D{n} konnte keinem Wahlvorschlag der Ergebnis-JSON zugeordnet werden: Sein Name und die Namen seiner Bewerberinnen und Bewerber fehlen."),
            );
            continue;
        };
        let jl = &r.lists[j];
        if let (Some(a), Some(b)) = (totals[n], jl.total) {
            if a != b {
                report.point(
                    Severity::DataFault,
                    file,
                    None,
                    format!("list D{n}: {a} votes in the CSV, {b} in the result JSON"),
                    format!("Wahlvorschlag D{n}: {a} Stimmen in der CSV, {b} in der Ergebnis-JSON."),
                );
            }
        }
        if !jl.long.is_empty() {
            l.long = Some(jl.long.clone());
        }
        if !jl.short.is_empty() && !jl.individual {
            l.short = Some(jl.short.clone());
        }
    }
    out
}

/// How a seat was won, from the elected table's `Mandat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mandate {
    /// `direkt`: by the candidate's personal votes (Niedersachsen: Personenwahl, § 36 Abs. 5 NKWG).
    Direct,
    /// `Listenplatz N`: by the list order (Listenwahl, § 36 Abs. 6 NKWG).
    ListPlace(u32),
}

/// `"Wahlbereich 3, Listenplatz 2"` → (Some(3), ListPlace(2)); `None` for a text this importer does not know.
pub fn parse_mandate(text: &str) -> Option<(Option<u32>, Mandate)> {
    let mut area = None;
    let mut mandate = None;
    for part in text.split(',').map(str::trim) {
        let lower = part.to_lowercase();
        if let Some(i) = lower.strip_prefix("wahlbereich") {
            area = Some(i.trim().parse().ok()?);
        } else if lower == "direkt" || lower == "direktmandat" {
            mandate = Some(Mandate::Direct);
        } else if let Some(n) = lower.strip_prefix("listenplatz") {
            mandate = Some(Mandate::ListPlace(n.trim().parse().ok()?));
        } else {
            return None;
        }
    }
    Some((area, mandate?))
}

/// Set the seats of the elected table and the names it gives. `areas`: the Wahlbereiche exist (a `Mandat`
/// must then name one).
pub fn seats(
    cands: &mut [Cand],
    lists: &BTreeMap<u32, ListNames>,
    r: &ResultJson,
    land: Land,
    areas: bool,
    file: Option<&str>,
    report: &mut Report,
) {
    let by_party: HashMap<String, u32> = lists
        .iter()
        .filter_map(|(n, l)| l.json.map(|j| (norm(&r.lists[j].short), *n)))
        .chain(lists.iter().filter_map(|(n, l)| l.long.as_deref().map(|x| (norm(x), *n))))
        .collect();
    let mut direct_outside_ni = 0usize;
    for row in &r.elected {
        let unassigned = |report: &mut Report, why: String, why_de: String| {
            report.point(
                Severity::ToConfirm,
                file,
                None,
                format!("elected table, row {}: {why}; the seat was not assigned — assign it in the console", row.row),
                format!(
                    "Tabelle der Gewählten, Zeile {}: {why_de}; der Sitz wurde nicht zugeordnet – bitte in der Konsole zuordnen.",
                    row.row
                ),
            )
        };
        let votes_de = row.votes.map_or_else(|| "ohne Stimmenzahl".to_owned(), |v| format!("{v} Stimmen"));
        let Some(&n) = by_party.get(&norm(&row.party)) else {
            unassigned(
                report,
                format!("the party `{}` is none of the lists", row.party),
                format!("Die Partei `{}` gehört zu keinem der Wahlvorschläge", row.party),
            );
            continue;
        };
        let Some((area, mandate)) = parse_mandate(&row.mandate) else {
            unassigned(
                report,
                format!("the mandate `{}` is not understood", row.mandate),
                format!("Das Mandat `{}` ist nicht verständlich", row.mandate),
            );
            continue;
        };
        if areas && area.is_none() {
            unassigned(
                report,
                format!("the mandate `{}` names no Wahlbereich", row.mandate),
                format!("Das Mandat `{}` nennt keinen Wahlbereich", row.mandate),
            );
            continue;
        }
        let area = if areas { area } else { None };
        let hits: Vec<usize> = (0..cands.len())
            .filter(|i| {
                let c = &cands[*i];
                c.n == n
                    && c.area == area
                    && match mandate {
                        Mandate::ListPlace(k) => c.k == k,
                        Mandate::Direct => c.seat.is_none() && Some(c.votes) == row.votes,
                    }
            })
            .collect();
        let i = match hits[..] {
            [i] => i,
            [] => {
                unassigned(
                    report,
                    format!("no candidate of list D{n} matches `{}` with {:?} votes", row.mandate, row.votes),
                    format!(
                        "Keine Bewerberin und kein Bewerber des Wahlvorschlags D{n} passt zu `{}` ({votes_de})",
                        row.mandate
                    ),
                );
                continue;
            }
            _ => {
                let ids: Vec<&str> = hits.iter().map(|i| cands[*i].id.as_str()).collect();
                unassigned(
                    report,
                    format!(
                        "`{}` with {:?} votes fits several candidates ({}): the join by votes is ambiguous",
                        row.mandate,
                        row.votes,
                        ids.join(", ")
                    ), format!(
                        "`{}` ({votes_de}) passt zu mehreren Bewerberinnen und Bewerbern ({}): Die Zuordnung nach Stimmen ist nicht eindeutig",
                        row.mandate,
                        ids.join(", ")
                    ),
                );
                continue;
            }
        };
        let c = &mut cands[i];
        if c.seat.is_some() {
            report.point(
                Severity::DataFault,
                file,
                None,
                format!("elected table, row {}: {} already holds a seat from another row", row.row, c.id),
                format!(
                    "Tabelle der Gewählten, Zeile {}: {} hat bereits einen Sitz aus einer anderen Zeile.",
                    row.row, c.id
                ),
            );
            continue;
        }
        if matches!(mandate, Mandate::ListPlace(_)) && row.votes.is_some_and(|v| v != c.votes) {
            report.point(
                Severity::DataFault,
                file,
                None,
                format!(
                    "elected table, row {}: {} has {} votes in the CSV, {:?} in the elected table",
                    row.row, c.id, c.votes, row.votes
                ), format!(
                    "Tabelle der Gewählten, Zeile {}: {} hat {} Stimmen in der CSV, in der Tabelle der Gewählten: {votes_de}.",
                    row.row, c.id, c.votes
                ),
            );
        }
        c.seat = Some(match mandate {
            Mandate::Direct if land == Land::Ni => SeatVia::PersonalVote,
            Mandate::Direct => {
                direct_outside_ni += 1;
                SeatVia::List
            }
            Mandate::ListPlace(_) => SeatVia::List,
        });
        c.name = Some(split_elected(&row.name));
    }
    if direct_outside_ni > 0 {
        report.point(
            Severity::ToConfirm,
            file,
            None,
            format!("{direct_outside_ni} seat(s) marked `direkt` were recorded as `list`: `personal_vote` is a Niedersachsen seat (§ 36 Abs. 5 NKWG); check how they were won"), format!("Als `direkt` gekennzeichnete Sitze, die als Listensitz erfasst wurden: {direct_outside_ni}. Ein Sitz aus Personenwahl (`personal_vote`) ist ein Sitz nach niedersächsischem Recht (§ 36 Abs. 5 NKWG); bitte prüfen, wie diese Sitze errungen wurden."),
        );
    }
    let seated: usize = cands.iter().filter(|c| c.seat.is_some()).count();
    for (party, count) in &r.seats {
        let Some(n) = by_party.get(&norm(party)) else { continue };
        let found = cands.iter().filter(|c| c.n == *n && c.seat.is_some()).count() as u64;
        if found != *count {
            report.point(
                Severity::DataFault,
                file,
                None,
                format!("list D{n} ({party}): {count} seats in the seat distribution, {found} assigned from the elected table"), format!("Wahlvorschlag D{n} ({party}): {count} Sitze in der Sitzverteilung, {found} aus der Tabelle der Gewählten zugeordnet."),
            );
        }
    }
    report.read(
        format!(
            "seats found: {seated} ({} by personal vote, {} by list) in {} rows of the elected table",
            cands.iter().filter(|c| c.seat == Some(SeatVia::PersonalVote)).count(),
            cands.iter().filter(|c| c.seat == Some(SeatVia::List)).count(),
            r.elected.len()
        ),
        format!(
            "Gefundene Sitze: {seated} ({} aus Personenwahl, {} über die Liste) in {} Zeilen der Tabelle der Gewählten",
            cands.iter().filter(|c| c.seat == Some(SeatVia::PersonalVote)).count(),
            cands.iter().filter(|c| c.seat == Some(SeatVia::List)).count(),
            r.elected.len()
        ),
    );
}

/// Name the candidates of every mapped list by their votes: a result-JSON name whose vote count is unique
/// in its list (over all Wahlbereiche) goes to the one candidate with that count. Names already set (from
/// the elected table) are taken out first.
pub fn names_by_votes(
    cands: &mut [Cand],
    lists: &BTreeMap<u32, ListNames>,
    r: &ResultJson,
    file: Option<&str>,
    report: &mut Report,
) {
    for (n, l) in lists {
        let Some(j) = l.json else { continue };
        let jl: &JsonList = &r.lists[j];
        let idx: Vec<usize> = (0..cands.len()).filter(|i| cands[*i].n == *n).collect();
        if jl.individual || (jl.candidates.is_empty() && idx.len() == 1) {
            if let ([i], Some(name)) = (&idx[..], individual_name(&jl.short).or(individual_name(&jl.long))) {
                cands[*i].name.get_or_insert_with(|| split_display(name));
            }
            continue;
        }
        let mut pool: Vec<(String, u64)> = jl.candidates.clone();
        let mut multiset_json: Vec<u64> = pool.iter().map(|p| p.1).collect();
        let mut multiset_csv: Vec<u64> = idx.iter().map(|i| cands[*i].votes).collect();
        multiset_json.sort_unstable();
        multiset_csv.sort_unstable();
        if multiset_json != multiset_csv {
            report.point(
                Severity::DataFault,
                file,
                None,
                format!(
                    "list D{n}: the result JSON's candidates ({} with their votes) are not the CSV's ({}): names are joined only where a vote count is unique on both sides",
                    multiset_json.len(),
                    multiset_csv.len()
                ), format!(
                    "Wahlvorschlag D{n}: Die Bewerberinnen und Bewerber der Ergebnis-JSON ({} mit ihren Stimmen) sind nicht die der CSV ({}): Namen werden nur zugeordnet, wo eine Stimmenzahl auf beiden Seiten eindeutig ist.",
                    multiset_json.len(),
                    multiset_csv.len()
                ),
            );
        }
        for &i in &idx {
            let Some(s) = &cands[i].name else { continue };
            let key = s.key();
            if let Some(p) = pool.iter().position(|(name, v)| *v == cands[i].votes && display_key(name) == key) {
                pool.swap_remove(p);
            }
        }
        let mut by_votes: BTreeMap<u64, (Vec<usize>, Vec<String>)> = BTreeMap::new();
        for &i in idx.iter().filter(|i| cands[**i].name.is_none()) {
            by_votes.entry(cands[i].votes).or_default().0.push(i);
        }
        for (name, v) in pool {
            by_votes.entry(v).or_default().1.push(name);
        }
        let mut ambiguous = Vec::new();
        for (_, (cs, names)) in by_votes {
            match (&cs[..], &names[..]) {
                ([i], [name]) => cands[*i].name = Some(split_display(name)),
                (cs, _) => ambiguous.extend(cs.iter().map(|i| cands[*i].id.clone())),
            }
        }
        if !ambiguous.is_empty() {
            ambiguous.sort();
            report.point(
                Severity::ToConfirm,
                file,
                None,
                format!(
                    "list D{n}: {} candidate(s) share their vote count with another of the list, or have no name of that count in the result JSON ({}): not named by votes — set their names with --contacts or in the console",
                    ambiguous.len(),
                    ambiguous.join(", ")
                ), format!(
                    "Wahlvorschlag D{n}: Bewerberinnen und Bewerber, die ihre Stimmenzahl mit einer anderen Person des Wahlvorschlags teilen oder zu deren Stimmenzahl die Ergebnis-JSON keinen Namen hat: {} ({}); nicht nach Stimmen benannt – bitte ihre Namen über die Kontaktdatei oder in der Konsole setzen.",
                    ambiguous.len(),
                    ambiguous.join(", ")
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mandates_are_read_or_refused() {
        assert_eq!(parse_mandate("Wahlbereich 1, direkt"), Some((Some(1), Mandate::Direct)));
        assert_eq!(parse_mandate("Wahlbereich 6, Listenplatz 12"), Some((Some(6), Mandate::ListPlace(12))));
        assert_eq!(parse_mandate("Listenplatz 3"), Some((None, Mandate::ListPlace(3))));
        assert_eq!(parse_mandate("Ausgleichsmandat"), None);
        assert_eq!(parse_mandate("Wahlbereich 2"), None);
    }
}
