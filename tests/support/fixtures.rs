//! Small fluent helpers to build election snapshots and bodies for tests.
//!
//! ```ignore
//! #[path = "support/fixtures.rs"]
//! mod fixtures;
//! use fixtures::*;
//!
//! let body = nrw()
//!     .list(party("L1", vec![
//!         cand("L1-01", 1).seated(SeatVia::List),
//!         cand("L1-02", 2).left_party(),
//!         cand("L1-03", 3).substitute_for("L1-01"),
//!         off_list("L1-D7").district("07").seated(SeatVia::District),
//!     ]))
//!     .body();
//! let d = decide(&body, &query("L1-01").via(SeatVia::List)).unwrap();
//! ```
//!
//! Defaults: term 2025-11-01 – 2030-10-31, statutory size 44, reference time (see [`REFERENCE`]) 2026-06-01
//! 12:00 Europe/Berlin, dated facts on [`FACT_DAY`] (2026-02-01). Hessen candidates get 0 votes unless set.
#![allow(dead_code)]

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use nachfolge::model::{
    Authority, Body, BodyInfo, BodyKind, Candidate, Declination, DeterminationMode, ElectoralSystem, Fact, Land, List,
    ListKind, ReturningOfficer, Seat, SeatVia, Snapshot, SubstituteDesignation, Term, WaiverForm,
};
use nachfolge::rules::{Cause, Query};

/// Start of the default term.
pub const TERM_START: &str = "2025-11-01";
/// End of the default term.
pub const TERM_END: &str = "2030-10-31";
/// The default day of dated facts (`on`).
pub const FACT_DAY: &str = "2026-02-01";
/// The default reference time (the determination), 2026-06-01 12:00 Europe/Berlin (CEST).
pub const REFERENCE: &str = "2026-06-01T10:00:00Z";

/// A date from `YYYY-MM-DD`.
pub fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap_or_else(|e| panic!("bad date {s:?}: {e}"))
}

/// An instant from RFC 3339.
pub fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap_or_else(|e| panic!("bad time {s:?}: {e}")).with_timezone(&Utc)
}

/// 10:00 UTC of a day (noon in Berlin in summer, 11:00 in winter): a reference time on that local day.
pub fn noon(day: &str) -> DateTime<Utc> {
    Utc.from_utc_datetime(&d(day).and_hms_opt(10, 0, 0).expect("valid time"))
}

// ---------------------------------------------------------------------------------------------------------
// Snapshot

/// Builder of a [`Snapshot`].
#[derive(Debug, Clone)]
pub struct SnapshotBuilder {
    pub snapshot: Snapshot,
}

fn builder(land: Land) -> SnapshotBuilder {
    let id = match land {
        Land::Nw => "musterstadt-rat",
        Land::He => "musterhausen-gv",
        Land::Rp => "musterdorf-rat",
        Land::Ni => "musterfeld-rat",
        Land::St => "musterstedt-rat",
        Land::Th => "musterbach-rat",
        Land::Sh => "musterwik-gv",
        Land::By => "musterberg-gemeinderat",
        Land::Bw => "musterhausen-gr",
        Land::Sn => "musterwitz-rat",
        Land::Mv => "musterhagen-gv",
        Land::Bb => "musterwalde-sv",
        Land::Sl => "musterweiler-gr",
    };
    SnapshotBuilder {
        snapshot: Snapshot {
            body: BodyInfo {
                id: id.to_owned(),
                name: format!("Rat {id}"),
                land,
                kind: BodyKind::Council,
                electoral_system: ElectoralSystem::Proportional,
                statutory_size: 44,
                term: Term { start: d(TERM_START), end: d(TERM_END) },
                returning_officer: ReturningOfficer {
                    name: "Wahlleitung".to_owned(),
                    email: "wahlleitung@example.org".to_owned(),
                    address: Some("Markt 1, 12345 Musterstadt".to_owned()),
                    title: None,
                },
                // Saarland: the Wahlleitung confirms every determination (§ 44 KWG not verified; docs/legal.md)
                determination: if land == Land::Sl { DeterminationMode::Confirm } else { Default::default() },
                readings: Default::default(),
                local_holidays: vec![],
                // the venues of the Rechtsbehelfsbelehrungen, required at registration (§ 58 Abs. 1 VwGO)
                remedy_court: Some(Authority {
                    name: "Verwaltungsgericht Musterstadt".to_owned(),
                    address: "Gerichtsplatz 1, 12345 Musterstadt".to_owned(),
                }),
                supervisory_authority: (land == Land::Th).then(|| Authority {
                    name: "Landratsamt Musterkreis".to_owned(),
                    address: "Kreisplatz 1, 12399 Musterkreisstadt".to_owned(),
                }),
                single_municipality_areas: vec![],
            },
            lists: vec![],
        },
    }
}

/// An empty NRW body (§ 45 KWahlG NRW), proportional, statutory size 44.
pub fn nrw() -> SnapshotBuilder {
    builder(Land::Nw)
}

/// An empty Hessen body (§ 34 KWG), proportional, statutory size 44.
pub fn hessen() -> SnapshotBuilder {
    builder(Land::He)
}

/// An empty Rheinland-Pfalz body (§ 45 KWG), proportional, statutory size 44.
pub fn rheinland_pfalz() -> SnapshotBuilder {
    builder(Land::Rp)
}

/// An empty Niedersachsen body (§ 44 NKWG), proportional, statutory size 44.
pub fn niedersachsen() -> SnapshotBuilder {
    builder(Land::Ni)
}

/// An empty Sachsen-Anhalt body (§ 47 KWG LSA), proportional, statutory size 44.
pub fn sachsen_anhalt() -> SnapshotBuilder {
    builder(Land::St)
}

/// An empty Thüringen body (§ 23 ThürKWG), proportional, statutory size 44.
pub fn thueringen() -> SnapshotBuilder {
    builder(Land::Th)
}

/// An empty Schleswig-Holstein body (§ 44 GKWG), proportional, statutory size 44.
pub fn schleswig_holstein() -> SnapshotBuilder {
    builder(Land::Sh)
}

/// An empty Bayern body (Art. 37 GLKrWG), proportional, statutory size 44.
pub fn bayern() -> SnapshotBuilder {
    builder(Land::By)
}

/// An empty Baden-Württemberg body (§ 31 GemO, § 26 KomWG), proportional, statutory size 44.
pub fn baden_wuerttemberg() -> SnapshotBuilder {
    builder(Land::Bw)
}

/// An empty Sachsen body (§ 34 SächsGemO, § 21 KomWG), proportional, statutory size 44.
pub fn sachsen() -> SnapshotBuilder {
    builder(Land::Sn)
}

/// An empty Mecklenburg-Vorpommern body (§ 46 LKWG M-V), proportional, statutory size 44.
pub fn mecklenburg_vorpommern() -> SnapshotBuilder {
    builder(Land::Mv)
}

/// An empty Saarland body (§ 57 KWO), proportional, statutory size 44, `determination: confirm`.
pub fn saarland() -> SnapshotBuilder {
    builder(Land::Sl)
}

/// An empty Brandenburg body (§ 60 BbgKWahlG), proportional, statutory size 44.
pub fn brandenburg() -> SnapshotBuilder {
    builder(Land::Bb)
}

impl SnapshotBuilder {
    pub fn id(mut self, id: &str) -> Self {
        self.snapshot.body.id = id.to_owned();
        self
    }
    /// A Kreistag (`body.kind = kreistag`; docs/legal.md, "Kreistage").
    pub fn kreistag(mut self) -> Self {
        self.snapshot.body.kind = BodyKind::Kreistag;
        self.snapshot.body.name = format!("Kreistag {}", self.snapshot.body.id);
        self
    }
    /// A Bezirkstag (`body.kind = bezirkstag`; docs/legal.md, "Point 10: Bezirkstage"); in Bayern with
    /// `determination: confirm`, which a Bayern Bezirkstag must say ("Bayern's Bezirkstage").
    pub fn bezirkstag(mut self) -> Self {
        self.snapshot.body.kind = BodyKind::Bezirkstag;
        if self.snapshot.body.land == Land::By {
            self.snapshot.body.determination = DeterminationMode::Confirm;
        }
        self.snapshot.body.name = format!("Bezirkstag {}", self.snapshot.body.id);
        self
    }
    pub fn size(mut self, statutory_size: u32) -> Self {
        self.snapshot.body.statutory_size = statutory_size;
        self
    }
    /// Hessen majority election (only one list admitted, § 1 Abs. 2 KWG).
    pub fn majority(mut self) -> Self {
        self.snapshot.body.electoral_system = ElectoralSystem::Majority;
        self
    }
    pub fn term(mut self, start: &str, end: &str) -> Self {
        self.snapshot.body.term = Term { start: d(start), end: d(end) };
        self
    }
    pub fn list(mut self, list: List) -> Self {
        self.snapshot.lists.push(list);
        self
    }
    pub fn lists(mut self, lists: impl IntoIterator<Item = List>) -> Self {
        self.snapshot.lists.extend(lists);
        self
    }
    /// Change the snapshot in place (for odd cases the helpers do not cover).
    pub fn with(mut self, f: impl FnOnce(&mut Snapshot)) -> Self {
        f(&mut self.snapshot);
        self
    }
    pub fn snapshot(self) -> Snapshot {
        self.snapshot
    }
    /// The validated body; panics with the validation error.
    pub fn body(self) -> Body {
        Body::from_snapshot(self.snapshot).unwrap_or_else(|e| panic!("fixture snapshot is invalid: {e}"))
    }
    /// The snapshot as JSON (the wire form).
    pub fn json(&self) -> serde_json::Value {
        serde_json::to_value(&self.snapshot).expect("snapshot serializes")
    }
}

// ---------------------------------------------------------------------------------------------------------
// Lists

fn list(id: &str, kind: ListKind, candidates: Vec<Candidate>) -> List {
    List {
        id: id.to_owned(),
        name: format!("Liste {id}"),
        short_name: Some(id.to_owned()),
        kind,
        area: None,
        party: None,
        candidates,
    }
}

/// A party's Reserveliste / Wahlvorschlag.
pub fn party(id: &str, candidates: Vec<Candidate>) -> List {
    list(id, ListKind::Party, candidates)
}

/// A voter group's list.
pub fn voter_group(id: &str, candidates: Vec<Candidate>) -> List {
    list(id, ListKind::VoterGroup, candidates)
}

/// An individual candidate (Einzelbewerber): a "list" of one, no Reserveliste behind him.
pub fn individual(id: &str, candidate: Candidate) -> List {
    list(id, ListKind::Individual, vec![candidate])
}

/// `list` as the Wahlvorschlag of Wahlbereich / Wahlkreis `area`, tied to the party's other areas by `party`
/// (`lists[].area`, `lists[].party`; docs/contract.md, "Several Wahlbereiche").
pub fn in_area(list: List, area: &str, party: Option<&str>) -> List {
    List { area: Some(area.to_owned()), party: party.map(str::to_owned), ..list }
}

// ---------------------------------------------------------------------------------------------------------
// Candidates

/// A list candidate at `position`.
pub fn cand(id: &str, position: u32) -> Candidate {
    Candidate {
        id: id.to_owned(),
        position: Some(position),
        given_name: "Vorname".to_owned(),
        family_name: format!("Name-{id}"),
        email: Some(format!("{}@example.org", id.to_lowercase())),
        postal_address: None,
        form_of_address: None,
        academic_degree: None,
        votes: None,
        lot_rank: None,
        additional_rank: None,
        district: None,
        substitute_for: None,
        substitute_designation: None,
        seat: None,
        facts: vec![],
    }
}

/// A candidate without list position (e.g. district only).
pub fn off_list(id: &str) -> Candidate {
    Candidate { position: None, ..cand(id, 1) }
}

/// A Hessen candidate at `position` with `votes` personal votes.
pub fn hcand(id: &str, position: u32, votes: i64) -> Candidate {
    cand(id, position).votes(votes)
}

/// Fluent setters on [`Candidate`].
pub trait CandidateExt: Sized {
    fn edit(self, f: impl FnOnce(&mut Candidate)) -> Self;

    fn votes(self, votes: i64) -> Self {
        self.edit(|c| c.votes = Some(votes))
    }
    fn no_votes(self) -> Self {
        self.edit(|c| c.votes = None)
    }
    /// Rang nach dem bei der Feststellung des Wahlergebnisses gezogenen Los (Art. 37 Abs. 1 GLKrWG, § 23 Satz 3
    /// KomWG).
    fn lot_rank(self, rank: u32) -> Self {
        self.edit(|c| c.lot_rank = Some(rank))
    }
    fn position(self, position: Option<u32>) -> Self {
        self.edit(|c| c.position = position)
    }
    fn district(self, district: &str) -> Self {
        self.edit(|c| c.district = Some(district.to_owned()))
    }
    fn substitute_for(self, id: &str) -> Self {
        self.edit(|c| c.substitute_for = Some(id.to_owned()))
    }
    /// The candidacy an Ersatzbewerber is named for (§ 45 Abs. 4 KWahlG NRW).
    fn named_for(self, designation: SubstituteDesignation) -> Self {
        self.edit(|c| c.substitute_designation = Some(designation))
    }
    fn no_email(self) -> Self {
        self.edit(|c| c.email = None)
    }
    /// Holds a seat since the term start.
    fn seated(self, via: SeatVia) -> Self {
        self.edit(|c| c.seat = Some(Seat { since: d(TERM_START), via }))
    }
    fn fact(self, fact: Fact) -> Self {
        self.edit(|c| c.facts.push(fact))
    }
    fn left_party(self) -> Self {
        self.fact(Fact::LeftParty { on: d(FACT_DAY) })
    }
    /// Joined another party or voter group; was no member of any when the list was drawn up.
    fn joined_other_party(self) -> Self {
        self.fact(Fact::JoinedOtherParty { on: d(FACT_DAY), was_member: false })
    }
    /// Joined another party or voter group; was a member of one when the list was drawn up.
    fn joined_other_party_as_member(self) -> Self {
        self.fact(Fact::JoinedOtherParty { on: d(FACT_DAY), was_member: true })
    }
    /// Waiver zur Niederschrift (§ 38 KWahlG NRW).
    fn waived_recorded(self) -> Self {
        self.fact(Fact::Waived { on: d(FACT_DAY), form: WaiverForm::Recorded })
    }
    /// Waiver by letter, fax or e-mail.
    fn waived_written(self) -> Self {
        self.fact(Fact::Waived { on: d(FACT_DAY), form: WaiverForm::Written })
    }
    /// The party's written notice of the exit reached the Wahlleiter on `on` (§ 47 Abs. 1 Satz 2 KWG LSA, § 44
    /// Abs. 2 NKWG).
    fn party_notice(self, on: &str) -> Self {
        self.fact(Fact::PartyNotice { on: d(on) })
    }
    fn declined(self) -> Self {
        self.fact(Fact::Declined { on: d(FACT_DAY), of: Declination::Succession })
    }
    fn died(self) -> Self {
        self.fact(Fact::Died { on: d(FACT_DAY) })
    }
    /// Not eligible from `from` until `until` (inclusive; open-ended with `None`).
    fn ineligible(self, from: &str, until: Option<&str>) -> Self {
        self.fact(Fact::Ineligible { from: d(from), until: until.map(d) })
    }
    fn barred(self, reason: &str) -> Self {
        self.fact(Fact::Barred { on: d(FACT_DAY), reason: reason.to_owned() })
    }
    fn bar_cured(self) -> Self {
        self.fact(Fact::BarCured { on: d(FACT_DAY) })
    }
    /// Held a seat in this term and left (no seat now).
    fn former_member(self) -> Self {
        self.fact(Fact::FormerMember { on: d(FACT_DAY) }).edit(|c| c.seat = None)
    }
}

impl CandidateExt for Candidate {
    fn edit(mut self, f: impl FnOnce(&mut Candidate)) -> Self {
        f(&mut self);
        self
    }
}

// ---------------------------------------------------------------------------------------------------------
// Queries and cases

/// A query for `departed` at the default reference time, seat won how unknown, no lot, nobody pending.
pub fn query(departed: &str) -> Query<'_> {
    Query { departed, departed_via: None, at: t(REFERENCE), lot_winner: None, pending: vec![], cause: Cause::Ordinary }
}

/// Fluent setters on [`Query`].
pub trait QueryExt<'a>: Sized {
    fn via(self, via: SeatVia) -> Self;
    fn at(self, at: DateTime<Utc>) -> Self;
    fn lot(self, winner: &'a str) -> Self;
    /// `candidate` is the pending successor of another open case.
    fn pending(self, candidate: &'a str) -> Self;
    /// The seat is free for `cause` (a party ban, a merger).
    fn cause(self, cause: Cause) -> Self;
}

impl<'a> QueryExt<'a> for Query<'a> {
    fn via(mut self, via: SeatVia) -> Self {
        self.departed_via = Some(via);
        self
    }
    fn at(mut self, at: DateTime<Utc>) -> Self {
        self.at = at;
        self
    }
    fn lot(mut self, winner: &'a str) -> Self {
        self.lot_winner = Some(winner);
        self
    }
    fn pending(mut self, candidate: &'a str) -> Self {
        self.pending.push(candidate);
        self
    }
    fn cause(mut self, cause: Cause) -> Self {
        self.cause = cause;
        self
    }
}
