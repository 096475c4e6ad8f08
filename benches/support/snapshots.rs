//! Snapshots for the benchmarks: a council of any Land the worker serves, valid under that Land's
//! validation (`Body::from_snapshot`: votes for every candidate, a list position, seats won `via: list`, no
//! NRW-only fields), and the mix of Länder and council sizes of the `germany` scenario.
//!
//! One generator serves every Land because the fields some Länder require (votes, position) are accepted by
//! the others, and the fields some Länder refuse (districts, Ersatzbewerber, `personal_vote` seats) are left
//! out. Bayern's bodies alternate with and without the local holiday Mariä Himmelfahrt.

use serde_json::{json, Value};

/// Every Land code the worker serves, with the approximate number of its Gemeinden plus Landkreise (the
/// weights of the mix; Destatis Gemeindeverzeichnis, rounded).
pub const LANDS: &[(&str, usize)] = &[
    ("BB", 413 + 14),
    ("BW", 1_101 + 35),
    ("BY", 2_056 + 71),
    ("HE", 421 + 21),
    ("MV", 726 + 6),
    ("NI", 941 + 36),
    ("NW", 396 + 31),
    ("RP", 2_301 + 24),
    ("SH", 1_104 + 11),
    ("SN", 418 + 10),
    ("ST", 218 + 11),
    ("TH", 605 + 17),
];

/// What one council of the mix looks like: lists, candidates per list, seats per list.
#[derive(Clone, Copy, Debug)]
#[allow(dead_code)] // each bench uses a part of this file
pub struct Shape {
    pub lists: usize,
    pub per_list: usize,
    pub seated: usize,
}

/// The size of council `i` of the mix, by `i % 100`: 1 % big cities (12 lists of 100 candidates, 84 seats),
/// 7 % large towns (8 × 70, 48 seats), 17 % middle towns (6 × 40, 30 seats), 30 % small municipalities
/// (5 × 20, 15 seats), 45 % villages (3 × 12, 9 seats). On average 138 candidates: 11,000 councils hold
/// about 1.52 million.
#[allow(dead_code)]
pub fn shape(i: usize) -> Shape {
    match i % 100 {
        0 => Shape { lists: 12, per_list: 100, seated: 7 },
        1..=7 => Shape { lists: 8, per_list: 70, seated: 6 },
        8..=24 => Shape { lists: 6, per_list: 40, seated: 5 },
        25..=54 => Shape { lists: 5, per_list: 20, seated: 3 },
        _ => Shape { lists: 3, per_list: 12, seated: 3 },
    }
}

/// The Land of council `i` of `n`: the first councils one of each Land (so that even a smoke run has every
/// Land), the rest by the weights of [`LANDS`].
#[allow(dead_code)]
pub fn land_of(i: usize, n: usize) -> &'static str {
    if i < LANDS.len() {
        return LANDS[i].0;
    }
    let total: usize = LANDS.iter().map(|l| l.1).sum();
    let rest = n.saturating_sub(LANDS.len()).max(1);
    let at = (i - LANDS.len()) * total / rest;
    let mut acc = 0;
    for (code, weight) in LANDS {
        acc += weight;
        if at < acc {
            return code;
        }
    }
    LANDS[LANDS.len() - 1].0
}

/// Distinct votes within a list, not in list order (the vote-ranked Länder really sort): a permutation of
/// `0..per` (37 is coprime to every list length used here).
fn votes(i: usize, per: usize) -> i64 {
    let per = per.max(1);
    let k = if per % 37 == 0 { 41 } else { 37 };
    100 + ((i * k) % per) as i64 * 3
}

/// A council `id` of `land` with `shape`; `email`: every candidate has an address; `facts`: every seventh
/// candidate left his party, every eleventh waived in writing (the successor sits deeper in the list).
pub fn council(land: &str, id: &str, shape: Shape, email: bool, facts: bool) -> Value {
    let Shape { lists, per_list, seated } = shape;
    let lists: Vec<Value> = (0..lists)
        .map(|l| {
            let cands: Vec<Value> = (0..per_list)
                .map(|i| {
                    let mut f = vec![];
                    if facts && i % 7 == 1 {
                        f.push(json!({"type": "left_party", "on": "2026-02-01"}));
                    }
                    if facts && i % 11 == 2 {
                        f.push(json!({"type": "waived", "on": "2026-02-01", "form": "written"}));
                    }
                    let seat = if i < seated { json!({"since": "2025-11-01", "via": "list"}) } else { Value::Null };
                    let mut c = json!({
                        "id": format!("{id}-L{l}-{i:03}"), "position": i + 1, "given_name": "Vorname",
                        "family_name": format!("Name {i}"), "votes": votes(i, per_list), "seat": seat, "facts": f,
                    });
                    if email {
                        c["email"] = json!(format!("c{i}@example.org"));
                    }
                    c
                })
                .collect();
            json!({"id": format!("L{l}"), "name": format!("Liste {l}"), "kind": "party", "candidates": cands})
        })
        .collect();
    let mut body = json!({
        "id": id, "name": format!("Rat {id}"), "land": land, "statutory_size": (seated * shape.lists).max(1),
        "term": {"start": "2025-11-01", "end": "2030-10-31"},
        "returning_officer": {"name": "Wahlleitung", "email": "wahlleitung@example.org", "address": "Markt 1, 12345 Musterstadt"},
        "remedy_court": {"name": "Verwaltungsgericht Musterstadt", "address": "Justizplatz 1, 12340 Musterstadt"}
    });
    if land == "TH" {
        // the Wahlanfechtung is lodged with the Rechtsaufsichtsbehörde (§ 31 Abs. 1 ThürKWG)
        body["supervisory_authority"] =
            json!({"name": "Landratsamt Musterkreis", "address": "Kreisplatz 1, 12399 Musterkreisstadt"});
    }
    if land == "BY" && id.bytes().last().is_some_and(|b| b % 2 == 0) {
        body["local_holidays"] = json!(["mariae_himmelfahrt"]);
    }
    json!({"body": body, "lists": lists})
}
