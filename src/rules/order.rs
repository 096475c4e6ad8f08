//! The "Nachrückerliste": for every list, the order in which its candidates would succeed right now, and why
//! the others are passed over. It answers "who is next?" before anyone leaves, with the same exclusion rules
//! the determination applies ([`super::nrw::exclusion`], [`super::hessen::exclusion`]) — nothing is duplicated.
//!
//! * NRW (§ 45 KWahlG NRW): the Reserveliste in list order. An Ersatzbewerber takes priority only for the
//!   member he is named for (§ 45 Abs. 2 Satz 1; not under Abs. 4), so that priority is listed separately
//!   (`substitutes`); his own list position stays in `order`. An individual candidate's seat is never filled
//!   (Abs. 5 Satz 1): `order` is empty and a note says why.
//! * Hessen (§ 34 KWG): most personal votes first, equal votes by list order (Abs. 1 Satz 1); in a majority
//!   election equal votes are decided by lot (Abs. 1a): such groups are listed in `lot_groups`.

use std::cmp::Reverse;

use chrono::{DateTime, FixedOffset, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{hessen, in_list_order, nrw, Query, Standing};
use crate::model::{Body, Candidate, ElectoralSystem, Land, List, ListKind, SeatVia};
use crate::trail::{TrailStep, Verdict};

/// The succession order of every list of a body at a reference time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SuccessionOrder {
    pub body: String,
    pub land: Land,
    /// The reference time the facts are judged at.
    pub at: DateTime<FixedOffset>,
    pub lists: Vec<ListOrder>,
}

/// The order of one list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ListOrder {
    pub list: String,
    /// Candidate ids, first successor first.
    pub order: Vec<String>,
    /// Everyone on the list who cannot succeed, with the reason.
    pub passed_over: Vec<PassedOver>,
    /// NRW: Ersatzbewerber who would succeed ahead of `order` if the member they are named for left.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub substitutes: Vec<SubstitutePriority>,
    /// Hessen majority election: candidates in `order` with equal votes; the lot decides among them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lot_groups: Vec<Vec<String>>,
    /// Facts without effect, list-level findings and bars to membership.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<TrailStep>,
}

/// A candidate who is passed over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PassedOver {
    pub candidate: String,
    pub reason: String,
    pub citation: String,
}

/// NRW: an Ersatzbewerber's priority for one member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SubstitutePriority {
    pub candidate: String,
    pub substitute_for: String,
    pub citation: String,
}

/// The succession order of every list of `body`, judged at `at`.
pub fn succession_order(body: &Body, at: DateTime<Utc>) -> SuccessionOrder {
    let q = Query { departed: "", departed_via: None, at, lot_winner: None, case: None };
    let s = Standing::new(body, &q);
    let lists = body
        .snapshot
        .lists
        .iter()
        .map(|l| match body.land() {
            Land::Nw => nrw_order(&s, l),
            Land::He => he_order(&s, l, body.info().electoral_system == ElectoralSystem::Majority),
        })
        .collect();
    SuccessionOrder {
        body: body.id().to_owned(),
        land: body.land(),
        at: at.with_timezone(&chrono_tz::Europe::Berlin).fixed_offset(),
        lists,
    }
}

fn passed(c: &Candidate, reason: &str, citation: String) -> PassedOver {
    PassedOver { candidate: c.id.clone(), reason: reason.to_owned(), citation }
}

fn barred_note(c: &Candidate, citation: &str, notes: &mut Vec<TrailStep>) {
    if c.is_barred() {
        notes.push(TrailStep::new(Some(&c.id), Verdict::Noted, "barred_must_prove_end", citation));
    }
}

fn nrw_order(s: &Standing, list: &List) -> ListOrder {
    let mut out = ListOrder {
        list: list.id.clone(),
        order: vec![],
        passed_over: vec![],
        substitutes: vec![],
        lot_groups: vec![],
        notes: vec![],
    };
    if list.kind == ListKind::Individual {
        // § 45 Abs. 5 Satz 1: no list behind an individual candidate; his seat stays vacant
        out.notes.push(TrailStep::new(None, Verdict::Noted, "individual_candidate", nrw::cite("Abs. 5 Satz 1")));
        return out;
    }
    for c in in_list_order(&list.candidates) {
        match nrw::exclusion(s, c) {
            Some((reason, citation)) => out.passed_over.push(passed(c, reason, citation)),
            None => {
                nrw::notes(c, &mut out.notes);
                barred_note(c, "§ 13 KWahlG NRW, § 69 Abs. 2 i. V. m. § 62 Nr. 5 KWahlO NRW", &mut out.notes);
                out.order.push(c.id.clone());
            }
        }
    }
    // candidates without a list position (district only) are not on the Reserveliste (§ 45 Abs. 2 Satz 1)
    for c in list.candidates.iter().filter(|c| c.position.is_none()) {
        out.passed_over.push(passed(c, "no_list_position", nrw::cite("Abs. 2 Satz 1")));
    }
    // Ersatzbewerber: priority for the seated member they are named for, unless § 45 Abs. 4 takes it
    for sub in list.candidates.iter().filter(|c| c.substitute_for.is_some()) {
        let Some(member) = list.candidates.iter().find(|m| Some(m.id.as_str()) == sub.substitute_for.as_deref()) else {
            continue;
        };
        let Some(seat) = &member.seat else { continue };
        if nrw::exclusion(s, sub).is_some() {
            continue; // passed over anyway; already listed
        }
        if member.district.is_some() && seat.via != SeatVia::District {
            out.notes.push(TrailStep::new(
                Some(&sub.id),
                Verdict::Noted,
                "substitute_without_priority",
                nrw::cite("Abs. 4"),
            ));
        } else {
            out.substitutes.push(SubstitutePriority {
                candidate: sub.id.clone(),
                substitute_for: member.id.clone(),
                citation: nrw::cite("Abs. 2 Satz 1"),
            });
        }
    }
    if out.order.is_empty() {
        out.notes.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", nrw::cite("Abs. 5 Satz 1")));
    }
    out
}

fn he_order(s: &Standing, list: &List, majority: bool) -> ListOrder {
    let mut out = ListOrder {
        list: list.id.clone(),
        order: vec![],
        passed_over: vec![],
        substitutes: vec![],
        lot_groups: vec![],
        notes: vec![],
    };
    // the ranking of § 34 Abs. 1 Satz 1 KWG, exactly as `hessen::decide` builds it
    let mut ranking: Vec<(usize, &Candidate)> = list.candidates.iter().enumerate().collect();
    ranking.sort_by_key(|(i, c)| (Reverse(c.votes.unwrap_or(0)), c.position.unwrap_or(u32::MAX), *i));
    let mut eligible: Vec<&Candidate> = vec![];
    for (_, c) in ranking {
        match hessen::exclusion(s, c) {
            Some((reason, citation)) => out.passed_over.push(passed(c, reason, citation)),
            None => {
                hessen::notes(c, &mut out.notes);
                barred_note(c, &format!("{} i. V. m. § 23 Abs. 2 KWG", hessen::cite("Abs. 3 Satz 2")), &mut out.notes);
                out.order.push(c.id.clone());
                eligible.push(c);
            }
        }
    }
    if majority {
        // § 34 Abs. 1a: equal votes → lot
        for group in eligible.chunk_by(|a, b| a.votes.unwrap_or(0) == b.votes.unwrap_or(0)) {
            if group.len() > 1 {
                out.lot_groups.push(group.iter().map(|c| c.id.clone()).collect());
            }
        }
    }
    if out.order.is_empty() {
        out.notes.push(TrailStep::new(None, Verdict::Noted, "list_exhausted", hessen::cite("Abs. 1 Satz 2")));
    }
    out
}
