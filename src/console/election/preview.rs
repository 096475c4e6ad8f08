//! What the preview of an import shows and what the form changes: the snapshot in words (lists, persons,
//! seats), the report's points under German headings, the points still open on the snapshot as it stands,
//! what registration would refuse, the differences to a registered snapshot, and the corrections.

use std::collections::BTreeMap;

use nachfolge_import::{Severity, PLACEHOLDER_NAME};
use serde_json::{json, Value};

use crate::model::{BodyKind, FormOfAddress, Seat, SeatVia, Snapshot};

/// Rows of the correction form.
pub const CORRECTION_ROWS: usize = 5;

/// What registration would refuse (the snapshot's checks and the Rechtsbehelfsbelehrung's venues), in words.
pub(super) fn registration_problems(s: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    if let Err(e) = nachfolge_import::validate(s) {
        out.push(format!("Das Wahlergebnis ist so nicht gültig: {}", e.message_de));
    }
    if let Err(e) = crate::land::validate_remedy_venues(&s.body) {
        out.push(match e.field.as_str() {
            "body.remedy_court" => "Bitte geben Sie das Verwaltungsgericht mit Anschrift an: Die Rechtsbehelfsbelehrung muss es mit seinem Sitz nennen (§ 58 Abs. 1 VwGO).".to_owned(),
            "body.supervisory_authority" if s.body.supervisory_authority.is_none() => "Bitte geben Sie die Rechtsaufsichtsbehörde mit Anschrift an: In Thüringen wird die Wahlanfechtung bei ihr erhoben (§ 31 Abs. 1 ThürKWG), und die Rechtsbehelfsbelehrung muss sie mit ihrem Sitz nennen.".to_owned(),
            "body.supervisory_authority" => "Eine Rechtsaufsichtsbehörde wird nur in Thüringen angegeben (§ 31 ThürKWG); bitte lassen Sie die Felder leer.".to_owned(),
            "body.returning_officer.address" => "Bitte geben Sie die Anschrift der Wahlleitung an: Die Rechtsbehelfsbelehrung muss sie mit ihrem Sitz nennen (§ 58 Abs. 1 VwGO).".to_owned(),
            _ => format!("Die Angaben zur Rechtsbehelfsbelehrung fehlen: {} ({})", e.field, e.problem),
        });
    }
    out
}

fn kind_de(kind: BodyKind) -> &'static str {
    match kind {
        BodyKind::Kreistag => "Kreistag",
        BodyKind::Bezirkstag => "Bezirkstag",
        BodyKind::Regionalversammlung => "Regionalversammlung",
        _ => "Gemeinde- oder Stadtrat",
    }
}

pub(super) fn body_facts(s: &Snapshot) -> Value {
    let b = &s.body;
    json!({
        "id": b.id, "name": b.name, "land": serde_json::to_value(b.land).unwrap_or_default(), "kind": kind_de(b.kind),
        "statutory_size": b.statutory_size,
        "term": format!("{} bis {}", b.term.start.format("%d.%m.%Y"), b.term.end.format("%d.%m.%Y")),
        "officer": b.returning_officer.name, "officer_email": b.returning_officer.email,
        "officer_address": b.returning_officer.address,
        "court": b.remedy_court.as_ref().map(|c| format!("{}, {}", c.name, c.address)),
        "supervisory": b.supervisory_authority.as_ref().map(|c| format!("{}, {}", c.name, c.address)),
        "confirm": matches!(b.determination, crate::model::DeterminationMode::Confirm),
    })
}

/// How a seat was won, in German; `kind`: a Kreistag's `additional` seat is an Ausgleichssitz.
fn seat_de(seat: Option<&Seat>, kind: BodyKind) -> &'static str {
    match seat.map(|s| s.via) {
        None => "",
        Some(SeatVia::District) => "Direktmandat im Wahlbezirk",
        Some(SeatVia::List) => "über die Liste",
        Some(SeatVia::Succession) => "als Listennachfolge",
        Some(SeatVia::PersonalVote) => "durch Personenstimmen",
        Some(SeatVia::Additional) if kind == BodyKind::Kreistag => "als Ausgleichssitz",
        Some(SeatVia::Additional) => "als weiterer Sitz (unechte Teilortswahl)",
    }
}

pub(super) fn lists(s: &Snapshot) -> Vec<Value> {
    s.lists
        .iter()
        .map(|l| {
            let candidates: Vec<Value> = l
                .candidates
                .iter()
                .map(|c| {
                    json!({
                        "id": c.id, "position": c.position, "name": c.full_name(), "votes": c.votes,
                        "district": c.district, "seat": seat_de(c.seat.as_ref(), s.body.kind),
                        "email": c.email, "address": c.postal_address,
                        "anrede": match c.form_of_address { Some(FormOfAddress::Frau) => "Frau", Some(FormOfAddress::Herr) => "Herr", None => "" },
                    })
                })
                .collect();
            json!({
                "id": l.id, "name": l.name,
                "seats": l.candidates.iter().filter(|c| c.seat.is_some()).count(),
                "votes": l.candidates.iter().filter_map(|c| c.votes).sum::<i64>(),
                "candidates": candidates,
            })
        })
        .collect()
}

/// The report's points by weight, with German headings.
pub(super) fn points(report: &nachfolge_import::Report) -> Vec<Value> {
    // the importer's points on what the snapshot lacks are said by [`open_points`], on the snapshot as it stands
    [
        (Severity::ToConfirm, "Zu bestätigen oder zu ergänzen"),
        (Severity::DataFault, "Fehler in den Dateien"),
        (Severity::Info, "Hinweise"),
    ]
    .into_iter()
    .filter_map(|(severity, title)| {
        let items: Vec<Value> = report
            .points
            .iter()
            .filter(|p| p.severity == severity && !(p.file.is_none() && is_missing_point(&p.message)))
            .map(|p| {
                let at = match (&p.file, p.line) {
                    (Some(f), Some(l)) => format!("{f}, Zeile {l}"),
                    (Some(f), None) => f.clone(),
                    _ => String::new(),
                };
                json!({"at": at, "message": p.message_de})
            })
            .collect();
        (!items.is_empty()).then(|| json!({"title": title, "items": items}))
    })
    .collect()
}

/// Whether `message` is one of the importer's points on what no file holds (`nachfolge_import`'s `missing`),
/// which the console says in German on the snapshot as corrected ([`open_points`]).
fn is_missing_point(message: &str) -> bool {
    message.contains(&format!("have no name (`{PLACEHOLDER_NAME}`)"))
        || message.contains("seat(s) set, the statutory size is")
        || message.contains("candidate(s) without a seat have no postal address")
        || message.contains("candidate(s) have no e-mail address")
        || message.contains("candidate(s) have no form of address")
}

/// What the snapshot, as it stands after the corrections, still lacks: names, seat holders, addresses,
/// e-mail addresses, forms of address — in German (the importer's points of the same kind, said again on
/// the corrected snapshot).
pub(super) fn open_points(s: &Snapshot) -> (Vec<String>, Vec<String>) {
    let cands: Vec<_> = s.lists.iter().flat_map(|l| &l.candidates).collect();
    let mut confirm = Vec::new();
    let mut notes = Vec::new();
    let placeholders = cands.iter().filter(|c| c.given_name == PLACEHOLDER_NAME).count();
    if placeholders > 0 {
        confirm.push(format!(
            "{placeholders} von {} Personen haben keinen Namen („{PLACEHOLDER_NAME}“): Bitte ergänzen Sie die Namen (Kontaktdaten-CSV).",
            cands.len()
        ));
    }
    let seats = cands.iter().filter(|c| c.seat.is_some()).count();
    if seats as u64 != u64::from(s.body.statutory_size) {
        confirm.push(format!(
            "Vergeben sind {seats} Sitze, die gesetzliche Mitgliederzahl ist {}: Bitte kennzeichnen Sie die Sitzinhaber.",
            s.body.statutory_size
        ));
    }
    let no_address = cands.iter().filter(|c| c.seat.is_none() && c.postal_address.is_none()).count();
    if no_address > 0 {
        confirm.push(format!(
            "{no_address} Personen ohne Sitz haben keine Postanschrift: Einer nachrückenden Person wird die Benachrichtigung durch Brief zugestellt, der die Anschrift braucht (Korrekturen oder Kontaktdaten-CSV)."
        ));
    }
    let no_email = cands.iter().filter(|c| c.email.is_none()).count();
    if no_email > 0 {
        confirm.push(format!("{no_email} Personen haben keine E-Mail-Adresse (Korrekturen oder Kontaktdaten-CSV)."));
    }
    let no_salutation = cands.iter().filter(|c| c.form_of_address.is_none()).count();
    if no_salutation > 0 {
        notes.push(format!(
            "{no_salutation} Personen haben keine Anrede: Schreiben an sie nennen die Person ohne „Frau“ oder „Herr“."
        ));
    }
    (confirm, notes)
}

/// The differences between the registered snapshot `old` and the imported `new`, in German: lists and
/// candidates added or removed, votes and seats changed.
pub fn differences(old: &Snapshot, new: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    let old_lists: BTreeMap<&str, &str> = old.lists.iter().map(|l| (l.id.as_str(), l.name.as_str())).collect();
    let new_lists: BTreeMap<&str, &str> = new.lists.iter().map(|l| (l.id.as_str(), l.name.as_str())).collect();
    for (id, name) in &new_lists {
        if !old_lists.contains_key(id) {
            out.push(format!("Wahlvorschlag hinzugekommen: {name} ({id})"));
        }
    }
    for (id, name) in &old_lists {
        if !new_lists.contains_key(id) {
            out.push(format!("Wahlvorschlag entfallen: {name} ({id})"));
        }
    }
    let index = |s: &Snapshot| -> BTreeMap<String, (String, crate::model::Candidate)> {
        s.lists.iter().flat_map(|l| l.candidates.iter().map(|c| (c.id.clone(), (l.id.clone(), c.clone())))).collect()
    };
    let (before, after) = (index(old), index(new));
    for (id, (list, c)) in &after {
        match before.get(id) {
            None => out.push(format!("Person hinzugekommen: {} ({id}, {list})", c.full_name())),
            Some((_, o)) => {
                if o.votes != c.votes {
                    let v = |x: Option<i64>| x.map_or_else(|| "keine Angabe".to_owned(), |n| n.to_string());
                    out.push(format!("Stimmen von {} ({id}): {} statt {}", c.full_name(), v(c.votes), v(o.votes)));
                }
                if o.seat.as_ref().map(|s| s.via) != c.seat.as_ref().map(|s| s.via) {
                    let w = |s: Option<&Seat>| if s.is_some() { seat_de(s, new.body.kind) } else { "ohne Sitz" };
                    out.push(format!(
                        "Sitz von {} ({id}): {} statt {}",
                        c.full_name(),
                        w(c.seat.as_ref()),
                        w(o.seat.as_ref())
                    ));
                }
            }
        }
    }
    for (id, (list, c)) in &before {
        if !after.contains_key(id) {
            out.push(format!("Person entfallen: {} ({id}, {list})", c.full_name()));
        }
    }
    out
}

/// Applies the correction rows (`k{n}_id`, `k{n}_sitz`, `k{n}_email`, `k{n}_anschrift`, `k{n}_anrede`) to
/// `s`; a German reason when a row cannot be applied (nothing is changed then).
pub(super) fn correct(s: &mut Snapshot, form: &[(String, String)]) -> Result<usize, String> {
    let field = |row: usize, name: &str| {
        let key = format!("k{row}_{name}");
        form.iter().find(|(k, _)| *k == key).map(|(_, v)| v.trim().to_owned()).unwrap_or_default()
    };
    let mut copy = s.clone();
    let since = copy.body.term.start;
    let mut changed = 0;
    for row in 0..CORRECTION_ROWS {
        let id = field(row, "id");
        let (seat, email, address, anrede) =
            (field(row, "sitz"), field(row, "email"), field(row, "anschrift"), field(row, "anrede"));
        if id.is_empty() {
            if !(seat.is_empty() && email.is_empty() && address.is_empty() && anrede.is_empty()) {
                return Err(format!("Zeile {}: Bitte geben Sie die Kennung der Person an.", row + 1));
            }
            continue;
        }
        let Some(c) = copy.lists.iter_mut().flat_map(|l| l.candidates.iter_mut()).find(|c| c.id == id) else {
            return Err(format!(
                "Zeile {}: Die Kennung „{id}“ gehört zu keiner Person dieses Wahlergebnisses.",
                row + 1
            ));
        };
        match seat.as_str() {
            "" => {}
            "kein" => c.seat = None,
            via => {
                let via = match via {
                    "list" => SeatVia::List,
                    "district" => SeatVia::District,
                    "personal_vote" => SeatVia::PersonalVote,
                    _ => return Err(format!("Zeile {}: Diese Art des Sitzes gibt es nicht.", row + 1)),
                };
                c.seat = Some(Seat { since, via });
            }
        }
        if !email.is_empty() {
            if email.len() > 254 || !email.contains('@') || email.chars().any(char::is_whitespace) {
                return Err(format!("Zeile {}: „{email}“ ist keine E-Mail-Adresse.", row + 1));
            }
            c.email = Some(email);
        }
        if !address.is_empty() {
            if address.len() > 500 {
                return Err(format!("Zeile {}: Die Anschrift ist zu lang.", row + 1));
            }
            c.postal_address = Some(address);
        }
        match anrede.as_str() {
            "" => {}
            "frau" => c.form_of_address = Some(FormOfAddress::Frau),
            "herr" => c.form_of_address = Some(FormOfAddress::Herr),
            "keine" => c.form_of_address = None,
            _ => return Err(format!("Zeile {}: Diese Anrede gibt es nicht.", row + 1)),
        }
        changed += 1;
    }
    *s = copy;
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot() -> Snapshot {
        serde_json::from_value(json!({
            "body": {"id": "rat", "name": "Rat", "land": "NW", "statutory_size": 2,
                "term": {"start": "2025-11-01", "end": "2030-10-31"},
                "returning_officer": {"name": "Erika Beispiel", "email": "w@example.org"}},
            "lists": [{"id": "L1", "name": "Partei A", "kind": "party", "candidates": [
                {"id": "L1-01", "position": 1, "given_name": "Anna", "family_name": "Albers", "votes": 10,
                 "seat": {"since": "2025-11-01", "via": "list"}},
                {"id": "L1-02", "position": 2, "given_name": "Bert", "family_name": "Brandt", "votes": 5}
            ]}]
        }))
        .expect("snapshot")
    }

    /// § 58 Abs. 1 VwGO, § 31 Abs. 1 ThürKWG: registration needs every venue the Belehrung names; the preview
    /// says which is missing, in German, before the confirmation is offered.
    #[test]
    fn vwgo_58_abs_1_and_thuerkwg_31_abs_1_the_preview_names_the_missing_venue() {
        let mut s = snapshot();
        let p = registration_problems(&s);
        assert!(p.iter().any(|m| m.contains("die Anschrift der Wahlleitung an")), "{p:?}");
        s.body.returning_officer.address = Some("Markt 1, 12345 Musterstadt".into());
        let p = registration_problems(&s);
        assert!(p.iter().any(|m| m.contains("das Verwaltungsgericht mit Anschrift")), "{p:?}");
        let court = crate::model::Authority {
            name: "Verwaltungsgericht Musterstadt".into(),
            address: "Justizplatz 1, 12340 Musterstadt".into(),
        };
        s.body.remedy_court = Some(court.clone());
        assert!(registration_problems(&s).is_empty(), "{:?}", registration_problems(&s));
        s.body.supervisory_authority = Some(court.clone());
        let p = registration_problems(&s);
        assert!(p.iter().any(|m| m.contains("nur in Thüringen")), "{p:?}");
        s.body.supervisory_authority = None;
        s.body.land = crate::model::Land::Th;
        let p = registration_problems(&s);
        assert!(p.iter().any(|m| m.contains("die Rechtsaufsichtsbehörde mit Anschrift")), "{p:?}");
    }

    #[test]
    fn corrections_move_a_seat_and_add_contacts_or_change_nothing() {
        let mut s = snapshot();
        let form: Vec<(String, String)> = [
            ("k0_id", "L1-01"),
            ("k0_sitz", "kein"),
            ("k1_id", "L1-02"),
            ("k1_sitz", "list"),
            ("k1_email", "b.brandt@example.org"),
            ("k1_anschrift", "Markt 2, 12345 Musterstadt"),
            ("k1_anrede", "herr"),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
        assert_eq!(correct(&mut s, &form), Ok(2));
        let c = &s.lists[0].candidates;
        assert!(c[0].seat.is_none());
        assert_eq!(
            c[1].seat.as_ref().map(|s| (s.since.to_string(), s.via)),
            Some(("2025-11-01".into(), SeatVia::List))
        );
        assert_eq!(c[1].form_of_address, Some(FormOfAddress::Herr));
        assert_eq!(c[1].postal_address.as_deref(), Some("Markt 2, 12345 Musterstadt"));

        let before = s.clone();
        let bad = vec![
            ("k0_id".to_owned(), "L1-02".to_owned()),
            ("k0_anrede".to_owned(), "frau".to_owned()),
            ("k1_id".to_owned(), "L9-99".to_owned()),
        ];
        let e = correct(&mut s, &bad).expect_err("unknown id");
        assert!(e.contains("„L9-99“ gehört zu keiner Person"), "{e}");
        assert_eq!(s, before, "nothing half-corrected");
    }

    #[test]
    fn a_reimport_names_lists_and_candidates_added_and_removed_and_votes_and_seats_changed() {
        let old = snapshot();
        let mut new = snapshot();
        new.lists[0].candidates[1].votes = Some(7);
        new.lists[0].candidates[0].seat = None;
        new.lists[0].candidates.remove(1);
        let mut l2 = new.lists[0].clone();
        l2.id = "L2".into();
        l2.name = "Wählergruppe B".into();
        l2.candidates[0].id = "L2-01".into();
        new.lists.push(l2);
        let d = differences(&old, &new);
        assert!(d.contains(&"Wahlvorschlag hinzugekommen: Wählergruppe B (L2)".to_owned()), "{d:?}");
        assert!(d.contains(&"Person hinzugekommen: Anna Albers (L2-01, L2)".to_owned()), "{d:?}");
        assert!(d.contains(&"Person entfallen: Bert Brandt (L1-02, L1)".to_owned()), "{d:?}");
        assert!(d.contains(&"Sitz von Anna Albers (L1-01): ohne Sitz statt über die Liste".to_owned()), "{d:?}");
        let mut votes = snapshot();
        votes.lists[0].candidates[1].votes = Some(7);
        assert_eq!(differences(&old, &votes), vec!["Stimmen von Bert Brandt (L1-02): 7 statt 5".to_owned()]);
        assert!(differences(&old, &old).is_empty());
    }
}
