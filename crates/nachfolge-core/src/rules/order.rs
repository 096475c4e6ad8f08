//! The "Nachrückerliste": for every list, the order in which its candidates would succeed right now, and why
//! the others are passed over. It answers "who is next?" before anyone leaves, with the same exclusion rules
//! the determination applies (each Land's `list_order` beside its `decide`, reached through
//! [`crate::land::LandLaw::list_order`]) — nothing is duplicated.
//!
//! * NRW (§ 45 KWahlG NRW): the Reserveliste in list order. An Ersatzbewerber takes priority only for the
//!   member he is named for (§ 45 Abs. 2 Satz 1; not under Abs. 4), so that priority is listed separately
//!   (`substitutes`); his own list position stays in `order`. An individual candidate's seat is never filled
//!   (Abs. 5 Satz 1): `order` is empty and a note says why.
//! * Hessen (§ 34 KWG): most personal votes first, equal votes by list order (Abs. 1 Satz 1); in a majority
//!   election equal votes are decided by lot (Abs. 1a): such groups are listed in `lot_groups`.

use chrono::{DateTime, FixedOffset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::{Candidate, Land};
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

impl ListOrder {
    /// An empty order of list `list`.
    pub(super) fn new(list: &str) -> ListOrder {
        ListOrder {
            list: list.to_owned(),
            order: vec![],
            passed_over: vec![],
            substitutes: vec![],
            lot_groups: vec![],
            notes: vec![],
        }
    }
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

pub(super) fn passed(c: &Candidate, reason: &str, citation: String) -> PassedOver {
    PassedOver { candidate: c.id.clone(), reason: reason.to_owned(), citation }
}

/// The note on a successor with a current bar: `barred_must_prove_end` where the Land makes him prove its end,
/// `incompatibility_holds_up_nothing` where it does not ([`super::Standing::must_prove_bar_end`]).
pub(super) fn barred_note(s: &super::Standing, c: &Candidate, citation: &str, notes: &mut Vec<TrailStep>) {
    if s.must_prove_bar_end(c) {
        notes.push(TrailStep::new(Some(&c.id), Verdict::Noted, "barred_must_prove_end", citation));
    } else if s.barred(c) {
        notes.push(TrailStep::new(Some(&c.id), Verdict::Noted, "incompatibility_holds_up_nothing", citation));
    }
}
