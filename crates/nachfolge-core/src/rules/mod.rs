//! Who succeeds: one rule set per Land, reached through the Land's law ([`crate::land::LandLaw::decide`]).
//!
//! * [`nw`]: § 45 KWahlG NRW (Ersatzbewerber, then list order).
//! * [`he`]: § 34 KWG (most personal votes, list order on ties; lot in a majority election).
//! * [`rp`]: § 45 KWG Rheinland-Pfalz; [`st`]: § 47 KWG LSA, § 42 Abs. 4 KVG LSA; [`th`]: § 23 ThürKWG (all
//!   by personal votes).
//! * [`bw`]: § 31 Abs. 2 GemO with § 26 KomWG (Ersatzpersonen by votes, per Wohnbezirk).
//! * [`sn`]: § 34 Abs. 2 SächsGemO with §§ 21, 23 KomWG (Ersatzpersonen by votes).
//! * [`ni`]: § 44 NKWG with § 38 (by how the seat was won: personal votes with lot, or list order).
//! * [`sh`]: § 44 GKWG (closed lists: the next candidate on the list the departed stood for).
//! * [`bb`]: § 60 BbgKWahlG with §§ 61, 62 (Ersatzpersonen by votes, candidates without votes last).
//!
//! Rule sets are pure: the body and a [`Query`] in, a [`Decision`] with its trail out. What every rule set
//! shares lives here: the [`Standing`] of a candidate at the reference time and the list order.

pub mod areas;
pub mod bb;
pub mod bw;
pub mod by;
pub mod he;
pub mod mv;
pub mod ni;
pub mod nw;
pub mod order;
pub mod rp;
pub mod sh;
pub mod sl;
pub mod sn;
pub mod st;
pub mod th;
pub(crate) mod votes;

pub use areas::{Areas, FallBack};
pub use order::{ListOrder, PassedOver, SubstitutePriority, SuccessionOrder};

use std::collections::HashSet;

use chrono::{DateTime, NaiveDate, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::calendar::local_date;
use crate::model::{Body, Candidate, DepartureReason, Fact, ListKind, SeatVia, ValidationError};
use crate::trail::{TrailStep, Verdict};

/// What the rules are asked: who succeeds the departed member at the reference time.
#[derive(Debug, Clone)]
pub struct Query<'a> {
    /// The departed member (Ausgeschiedener).
    pub departed: &'a str,
    /// How the departed won his seat (for § 45 Abs. 4 KWahlG NRW); `None` if unknown.
    pub departed_via: Option<SeatVia>,
    /// Reference time: the moment of the determination.
    pub at: DateTime<Utc>,
    /// Hessen majority election: the winner of the lot, once drawn (§ 34 Abs. 1a KWG).
    pub lot_winner: Option<&'a str>,
    /// Candidates offered another vacancy and not yet decided (the pending successors of the council's
    /// other open cases): they count as called.
    pub pending: Vec<&'a str>,
    /// Why the seat is free, as far as the rules care (a party ban, a merger); `Ordinary` otherwise.
    pub cause: Cause,
}

/// Why a seat is free, as far as the rules care. Which causes a Land knows: `LandLaw::validate_cause`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Cause {
    /// Death, resignation, loss of eligibility …: the Land's succession rule applies.
    #[default]
    Ordinary,
    /// NRW § 46 Abs. 1, 3 KWahlG: seat lost by a party or association ban. `list_banned`: the member was
    /// elected on the banned party's (organisation's) own list — the seat stays vacant (§ 46 Abs. 2 Satz 1);
    /// otherwise § 45 applies to the list he was elected on (§ 46 Abs. 2 Satz 2).
    PartyBan { list_banned: bool },
    /// Hessen § 33 Abs. 1 Nr. 4 KWG: seat lost by the Eingliederung of the municipality; § 34 does not apply.
    Merger,
    /// Brandenburg § 59 Abs. 1 Nr. 4 BbgKWahlG: seat lost through a Berichtigung or Neufeststellung of the
    /// election result; the corrected result, not the succession, allots it.
    ResultCorrected,
}

impl Cause {
    /// The cause of a reported departure; `list_banned` is required with `party_banned` and refused
    /// otherwise (the error names the field).
    pub fn of(reason: DepartureReason, list_banned: Option<bool>) -> Result<Cause, ValidationError> {
        match (reason, list_banned) {
            (DepartureReason::PartyBanned, Some(list_banned)) => Ok(Cause::PartyBan { list_banned }),
            (DepartureReason::PartyBanned, None) => Err(ValidationError::new(
                "list_banned",
                "is required with reason party_banned: was the member elected on the banned party's own list (§ 46 Abs. 2 KWahlG NRW)?",
            )),
            (_, Some(_)) => Err(ValidationError::new("list_banned", "is only given with reason party_banned")),
            (DepartureReason::Merger, None) => Ok(Cause::Merger),
            (DepartureReason::ResultCorrected, None) => Ok(Cause::ResultCorrected),
            (_, None) => Ok(Cause::Ordinary),
        }
    }
}

/// Why a seat stays vacant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VacancyReason {
    /// The departed did not stand for a party or voter group (§ 45 Abs. 5 Satz 1 KWahlG NRW).
    IndividualCandidate,
    /// Reserveliste / Wahlvorschlag erschöpft.
    ListExhausted,
    /// NRW: the member was elected on the list of a party or organisation that was banned; the seat stays
    /// vacant and the statutory size falls (§ 46 Abs. 2 Satz 1 KWahlG NRW).
    PartyBanned,
    /// Hessen: Eingliederung of the municipality; § 34 KWG does not apply (§ 33 Abs. 1 Nr. 4 KWG): no
    /// successor, no determination, the statutory size unchanged.
    Merger,
    /// The rule for this seat was not read, and the Wahlleitung decides on it by hand — the worker names nobody,
    /// announces nothing and does not change the statutory size. Saarland: the departed's list has no Ersatzperson
    /// left (§ 57 Abs. 1 Satz 2 KWO refers to § 44 Abs. 3 Satz 3 KWG; docs/legal.md, "Saarland"). Rheinland-Pfalz:
    /// the seat was lost through a party ban (§ 46 Abs. 1 KWG; what follows for the seat was not read).
    ReturningOfficerDecides,
    /// Brandenburg: the member lost the seat through a Berichtigung or Neufeststellung of the election result
    /// (§ 59 Abs. 1 Nr. 4 BbgKWahlG). The corrected result allots the seat: no Ersatzperson is called, nothing
    /// is announced by the worker (the corrected result is announced as such), the statutory size is unchanged;
    /// the Wahlleitung registers the corrected result (`election.registered`) once the case is closed
    /// (docs/legal.md, "Point 11: three smaller gaps").
    ResultCorrected,
}

impl VacancyReason {
    /// The returning officer determines the vacancy and it is announced (open to objection); not after a
    /// Hessen merger, where the member leaves with the agreement's entry into force (§ 33 Abs. 3 Nr. 4 KWG),
    /// not where the Wahlleitung decides by hand what an exhausted Saarland list means, and not where a corrected
    /// result allots the seat (Brandenburg § 59 Abs. 1 Nr. 4 BbgKWahlG).
    pub fn is_determined(self) -> bool {
        !matches!(self, VacancyReason::Merger | VacancyReason::ReturningOfficerDecides | VacancyReason::ResultCorrected)
    }
}

/// The seat left to the Wahlleitung where the rule for it was not read ([`VacancyReason::ReturningOfficerDecides`]):
/// the trail notes why (`reason`, `citation`), nobody is named, the statutory size is unchanged.
pub(crate) fn left_to_returning_officer(
    body: &Body,
    trail: &mut Vec<TrailStep>,
    reason: &str,
    citation: &str,
) -> Outcome {
    trail.push(TrailStep::new(None, Verdict::Noted, reason, citation));
    Outcome::Vacant { reason: VacancyReason::ReturningOfficerDecides, statutory_size: body.info().statutory_size }
}

/// The result of the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Listennachfolger / nachrückender Vertreter.
    Successor {
        candidate: String,
        list: String,
        /// A Hinderungsgrund / Unvereinbarkeit is recorded: he is determined, but must prove its end.
        barred: bool,
    },
    /// Sitz bleibt unbesetzt; `statutory_size` is the reduced gesetzliche Mitgliederzahl.
    Vacant { reason: VacancyReason, statutory_size: u32 },
    /// Stimmengleichheit bei Mehrheitswahl: the Wahlleiter draws the lot (§ 34 Abs. 1a KWG).
    LotRequired { tied: Vec<String> },
}

/// Outcome plus the trail that explains it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub outcome: Outcome,
    pub trail: Vec<TrailStep>,
}

/// A query the rules cannot answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecideError {
    #[error("member: unknown candidate {0:?}")]
    UnknownMember(String),
    #[error("winner: {0:?} is not one of the tied candidates")]
    LotWinnerNotTied(String),
    /// A departure the body's Land has no rule for (e.g. `merger` in NRW).
    #[error("{0}")]
    Cause(ValidationError),
}

/// Why a candidate is passed over: the reason code of the trail and the statute it rests on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exclusion {
    /// Machine-readable reason, e.g. `left_party` (its German wording: `texts::reason_de`).
    pub reason: &'static str,
    /// The statute, e.g. `§ 45 Abs. 3 Satz 1 KWahlG NRW`.
    pub citation: String,
}

/// Facts of one candidate evaluated at the reference time; shared by the rule sets.
pub struct Standing<'a> {
    pub body: &'a Body,
    pub reference: NaiveDate,
    pending: HashSet<&'a str>,
    /// The day the departed's seat became free: the vacancy's `effective_at` (its day in Europe/Berlin), as
    /// the worker and `nachfolge decide` record it on him (`procedure::record_departure`: his latest
    /// `former_member` or `declined` fact) — never the reference time, which in a later round or with
    /// `decide --at` is later; the reference day only for a query on a departed who still holds the seat (a
    /// rule test asking directly); `None` without a departed (the succession order).
    vacated: Option<NaiveDate>,
}

impl<'a> Standing<'a> {
    pub fn new(body: &'a Body, q: &Query<'a>) -> Self {
        let reference = local_date(q.at);
        let vacated = body.candidate(q.departed).map(|c| match c.seat {
            Some(_) => reference,
            None => c
                .facts
                .iter()
                .filter_map(|f| match f {
                    Fact::FormerMember { on } | Fact::Declined { on, .. } => Some(*on),
                    _ => None,
                })
                .max()
                .unwrap_or(reference),
        });
        Standing { body, reference, pending: q.pending.iter().copied().collect(), vacated }
    }
    /// The day the seat became free if known (see the field), else `None`.
    pub fn vacated(&self) -> Option<NaiveDate> {
        self.vacated
    }
    pub fn seated(&self, c: &Candidate) -> bool {
        c.seat.is_some()
    }
    pub fn former_member(&self, c: &Candidate) -> bool {
        c.has_fact(|f| matches!(f, Fact::FormerMember { .. }))
    }
    /// Offered another vacancy and not yet decided.
    pub fn pending(&self, c: &Candidate) -> bool {
        self.pending.contains(c.id.as_str())
    }
    pub fn died(&self, c: &Candidate) -> bool {
        c.has_fact(|f| matches!(f, Fact::Died { .. }))
    }
    /// A Hinderungsgrund is current on the reference day (docs/legal.md, "Bars by date").
    pub fn barred(&self, c: &Candidate) -> bool {
        c.is_barred_at(self.reference)
    }
    /// A Hinderungsgrund is current on the reference day **and** the Land's law makes the successor prove its
    /// end (`LandLaw::bar_effect` other than `HoldsUpNothing`): the `barred` of a successor and the
    /// `barred_must_prove_end` note. Mecklenburg-Vorpommern: an Unvereinbarkeit holds up nothing (§ 25 Abs. 4
    /// KV M-V; § 46 with § 34 LKWG M-V has no proof step) — noted `incompatibility_holds_up_nothing` instead.
    pub fn must_prove_bar_end(&self, c: &Candidate) -> bool {
        self.barred(c) && self.body.land().law().bar_effect() != BarEffect::HoldsUpNothing
    }
    /// An ineligibility interval covers the reference day.
    pub fn ineligible_now(&self, c: &Candidate) -> bool {
        let r = self.reference;
        c.has_fact(|f| matches!(f, Fact::Ineligible { from, until } if *from <= r && until.is_none_or(|u| u >= r)))
    }
    /// Stands on a party's list (not a Wählergruppe's): only a party can give written notice of an exit
    /// (Sachsen-Anhalt, Mecklenburg-Vorpommern, Brandenburg).
    pub fn on_party_list(&self, c: &Candidate) -> bool {
        self.body.list_of(&c.id).is_some_and(|l| l.kind == ListKind::Party)
    }
    /// A written notice of the party reached the Wahlleitung before the day the seat became free (§ 47 Abs. 1
    /// Satz 2 KWG LSA, § 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V, § 60 Abs. 4 BbgKWahlG; Niedersachsen's § 44 Abs. 2
    /// NKWG reads the same day). The succession order, where no seat is free, answers for a seat falling
    /// vacant on the reference day: a notice before that day, as `decide` for a vacancy effective then.
    pub fn party_notified(&self, c: &Candidate) -> bool {
        let vacated = self.vacated.unwrap_or(self.reference);
        let before = |on: &NaiveDate| *on < vacated;
        c.has_fact(|f| matches!(f, Fact::PartyNotice { on } if before(on)))
    }
    /// Belonged to the banned party, Wählergruppe or Vereinigung, the loss taking effect on or before the
    /// reference day (Parteiverbot: § 47 Abs. 1 LKWG M-V, § 46 Abs. 1 KWG Rheinland-Pfalz, § 62 Abs. 1, 2
    /// BbgKWahlG): the Anwartschaft is lost for the term.
    pub fn banned_party_member(&self, c: &Candidate) -> bool {
        let r = self.reference;
        c.has_fact(|f| matches!(f, Fact::BannedPartyMember { on } if *on <= r))
    }
    /// Left as Ersatzperson for the Wahlperiode on or before the reference day (`substitute_status_lost`: § 46
    /// Abs. 2 Satz 5 LKWG M-V, § 45 Abs. 4 NKWG; validation keeps each ground to its Land).
    pub fn status_lost(&self, c: &Candidate) -> bool {
        let r = self.reference;
        c.has_fact(|f| matches!(f, Fact::SubstituteStatusLost { on, .. } if *on <= r))
    }
    /// An ineligibility interval overlaps [term start, reference day].
    pub fn ineligible_during_term(&self, c: &Candidate) -> bool {
        let (start, r) = (self.body.info().term.start, self.reference);
        c.has_fact(|f| matches!(f, Fact::Ineligible { from, until } if *from <= r && until.is_none_or(|u| u >= start)))
    }
}

/// Candidates of a list that stand on the Reserveliste, in list order.
pub(crate) fn in_list_order(candidates: &[Candidate]) -> Vec<&Candidate> {
    let mut v: Vec<&Candidate> = candidates.iter().filter(|c| c.position.is_some()).collect();
    v.sort_by_key(|c| c.position);
    v
}

/// What the end of the period means for a barred successor (Hinderungsgrund, Unvereinbarkeit) who has not
/// proven the end of the bar, under the declaration model ([`crate::land::LandLaw::bar_effect`]; defined here, below the Länder, because the rules
/// read it too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarEffect {
    /// The election counts as refused, whether he stayed silent or accepted: the proof is a condition of the
    /// acceptance, and silence is acceptance only once it is in (NRW § 62 Nr. 1, 5 KWahlO; Rheinland-Pfalz § 44
    /// Abs. 2 Satz 2 KWG, § 64 Abs. 1 Nr. 1, Abs. 2 KWO; Brandenburg § 51 Abs. 2 Satz 1, 2 BbgKWahlG;
    /// Niedersachsen § 50 Abs. 3 Satz 1, 2 NKomVG).
    Refusal,
    /// The election counts as accepted (silence, § 43 Abs. 1 Satz 2 KWG LSA) or was accepted, and the mandate is
    /// lost at once because the Hinderungsgrund stood when it was accepted (Sachsen-Anhalt § 42 Abs. 1 Nr. 3 KVG
    /// LSA, "Mandatsverlust"); the seat passes to the next (§ 42 Abs. 4 KVG LSA).
    LostAtAcceptance,
    /// Nothing happens when the period ends: membership is acquired only with the written proof of the leave or
    /// of another post, whenever it comes (Schleswig-Holstein § 37a Abs. 1 Satz 1 GKWG: "erwirbt abweichend von
    /// § 37 die Mitgliedschaft … erst, wenn …").
    AwaitsProof,
    /// The bar holds up nothing: membership is acquired as without it, and its consequences follow from the
    /// Kommunalverfassung later (Mecklenburg-Vorpommern § 25 Abs. 4 KV M-V: the membership rests until the
    /// incompatible post is given up).
    HoldsUpNothing,
}
