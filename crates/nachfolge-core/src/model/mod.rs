//! The election model: the snapshot of one council (Vertretung) and its lists, as the contract defines it,
//! parsed once at the edge into a validated [`Body`].
//!
//! The wire form ([`Snapshot`]) and the domain form share their field types; [`Body`] adds the indexes the
//! rules need (candidate id → list and position) and the open succession cases.

use std::collections::HashMap;

use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// What a Land's law says: `crate::land::LandLaw`, reached by `Land::law` (land/mod.rs).
/// The Land whose law applies to a council: its ISO 3166-2 code without `DE-`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Land {
    /// Nordrhein-Westfalen.
    #[serde(rename = "NW")]
    Nw,
    /// Hessen.
    #[serde(rename = "HE")]
    He,
    /// Rheinland-Pfalz.
    #[serde(rename = "RP")]
    Rp,
    /// Niedersachsen.
    #[serde(rename = "NI")]
    Ni,
    /// Sachsen-Anhalt.
    #[serde(rename = "ST")]
    St,
    /// Thüringen.
    #[serde(rename = "TH")]
    Th,
    /// Schleswig-Holstein.
    #[serde(rename = "SH")]
    Sh,
    /// Bayern.
    #[serde(rename = "BY")]
    By,
    /// Baden-Württemberg.
    #[serde(rename = "BW")]
    Bw,
    /// Sachsen.
    #[serde(rename = "SN")]
    Sn,
    /// Mecklenburg-Vorpommern.
    #[serde(rename = "MV")]
    Mv,
    /// Brandenburg.
    #[serde(rename = "BB")]
    Bb,
    /// Saarland (served with the Wahlleitung in charge: § 44 KWG was not read; docs/legal.md, "Saarland").
    #[serde(rename = "SL")]
    Sl,
}

impl Land {
    /// Every Land served, in the order of the enum: one place for tests and tables that go through them all.
    pub const ALL: [Land; 13] = [
        Land::Nw,
        Land::He,
        Land::Rp,
        Land::Ni,
        Land::St,
        Land::Th,
        Land::Sh,
        Land::By,
        Land::Bw,
        Land::Sn,
        Land::Mv,
        Land::Bb,
        Land::Sl,
    ];
}

/// Grund des Ausscheidens (`vacancy.reported`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DepartureReason {
    Died,
    /// an elected candidate declined the election (Ablehnung der Wahl)
    Declined,
    Resigned,
    LostEligibility,
    LostSeat,
    /// Hessen: membership deemed not acquired (§ 23 Abs. 2 Satz 3 KWG)
    NotAcquired,
    /// NRW: seat lost by a party or association ban (§ 46 Abs. 1, 3 KWahlG NRW); with `list_banned`
    PartyBanned,
    /// Hessen: seat lost by the Eingliederung of the municipality (§ 33 Abs. 1 Nr. 4 KWG); § 34 does not
    /// apply — no successor
    Merger,
    /// Brandenburg: seat lost through a Berichtigung of the election result or its Neufeststellung (§ 59 Abs. 1
    /// Nr. 4 BbgKWahlG): the corrected result allots the seat — no Ersatzperson is called (docs/legal.md, "Point
    /// 11: three smaller gaps")
    ResultCorrected,
    /// Baden-Württemberg: the holder of a weiterer Sitz (§ 26 Abs. 2 Satz 4 KomWG) moved up into his Wohnbezirk's
    /// seat as its next Ersatzperson, and the weiterer Sitz is free (§ 31 Abs. 2 Satz 2 GemO). He stays a member.
    /// Only the worker opens such a case, with the move; `vacancy.reported` refuses it (docs/legal.md,
    /// "Baden-Württemberg: weitere Sitze").
    MovedUp,
    Other,
}

/// Wahlsystem: `proportional` (Verhältniswahl) or `majority` (Mehrheitswahl, e.g. Hessen: only one list
/// admitted, § 1 Abs. 2 KWG; Baden-Württemberg § 26 Abs. 3 GemO; Brandenburg § 5 Abs. 1 Satz 2 BbgKWahlG). A
/// majority election is **one list of everyone who received votes**: the admitted Wahlvorschlag's candidates
/// with their `position`, every other person who received votes (written in) without one, each with `votes`
/// (docs/contract.md, "Majority election").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum ElectoralSystem {
    #[default]
    Proportional,
    Majority,
}

/// Wahlzeit: the council's term.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Term {
    pub start: NaiveDate,
    pub end: NaiveDate,
}

/// Wahlleiter: the returning officer who determines the successor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReturningOfficer {
    pub name: String,
    pub email: String,
    /// Postal address with the place („Rathausplatz 1, 12345 Musterstadt“): where declarations go, and the
    /// seat of the Wahlleitung a Rechtsbehelfsbelehrung names where an objection is lodged with it (§ 58 Abs. 1
    /// VwGO). Required at registration in every Land whose texts carry a Rechtsbehelfsbelehrung
    /// (docs/legal.md, "Remedies: court, authority and seat").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// The officer's own title under a signature and in the letterhead, as the officer holds it
    /// („Wahlleiterin“, „Kreiswahlleiter“, „Erster Bürgermeister“); absent, the texts sign with the office
    /// („Wahlleitung“, „Kreiswahlleitung“), never with both gender forms (docs/legal.md, "Form of address").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// A court or authority a Rechtsbehelfsbelehrung names, with its seat (§ 58 Abs. 1 VwGO: „die
/// Verwaltungsbehörde oder das Gericht, bei denen der Rechtsbehelf anzubringen ist, den Sitz“).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Authority {
    /// Its name as the Belehrung says it, e.g. „Verwaltungsgericht Düsseldorf“, „Landratsamt Musterkreis“.
    pub name: String,
    /// Its postal address with the place, the seat (e.g. „Bastionstraße 39, 40213 Düsseldorf“).
    pub address: String,
}

/// Who makes the determination (Feststellung) of a successor: the worker, or the returning officer on the
/// worker's proposal (docs/legal.md, "The returning officer determines").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum DeterminationMode {
    /// The worker determines the successor as soon as the rules name him (`succession.determined`).
    #[default]
    Automatic,
    /// The worker proposes the successor (`succession.proposed`); the returning officer determines him
    /// with `determination.confirmed` (§ 45 Abs. 6 Satz 1 KWahlG NRW, § 34 Abs. 3 Satz 1 KWG; § 35a VwVfG).
    Confirm,
}

/// How a period of the election statute ends when its last day is a Saturday, Sunday or public holiday
/// (docs/legal.md, "Per-body readings"). One reading for the one-week period after service (§ 45 Abs. 6
/// Satz 2 KWahlG NRW, § 23 Abs. 2 Satz 2 KWG) **and** the objection period (§ 39 Abs. 1 KWahlG NRW, § 25
/// Abs. 1 KWG).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum PeriodEnd {
    /// Extended to the next working day (§ 31 Abs. 3 Satz 1 VwVfG NRW / HVwVfG).
    #[default]
    Extended,
    /// Not extended: election-law periods are fixed (the rule § 54 Abs. 1 BWahlG states for federal
    /// elections; for the KWahlG NRW expected in its § 49 — unverified; none found in the KWG).
    Fixed,
}

/// The day a registered letter (Übergabe-Einschreiben) is deemed served when the fourth day after posting
/// (§ 4 Abs. 2 Satz 2 LZG NRW / HVwZG) is a Saturday, Sunday or public holiday (docs/legal.md, "Service
/// fiction").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum FictionDay {
    /// The next working day (BFH, Urt. v. 14.10.2003 – IX R 68/98): the later of the two readings, taken
    /// because a deemed acceptance, refusal or non-acquisition depends on it.
    #[default]
    NextWorkingDay,
    /// The fourth day itself, whatever day it is (OVG Niedersachsen 7 PA 184/06; OVG Rheinland-Pfalz
    /// 10 A 11170/13).
    Kept,
}

/// When an NRW determination is announced (§ 45 Abs. 6 Satz 7 KWahlG NRW).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum AnnouncementTime {
    /// When membership starts (acceptance, deemed acceptance), or at once for a vacancy.
    #[default]
    AtMembership,
    /// At the determination.
    AtDetermination,
}

/// NRW § 45 Abs. 4 KWahlG: what becomes of an Ersatzbewerber named only for the district candidacy of a
/// departed who won his seat through the list ("bleibt … unberücksichtigt").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum DistrictSubstitute {
    /// He has no priority as Ersatzbewerber and keeps his own list place (§ 16 Abs. 2 "unbeschadet der
    /// Reihenfolge im übrigen").
    #[default]
    KeepsListPlace,
    /// He is passed over in this succession altogether.
    Excluded,
}

/// The readings a body takes where the statutes are open (docs/legal.md, "Per-body readings"). Every field
/// is optional: unset means the deployment's setting where one exists (`rules.fixed_end_date`,
/// `rules.announce_at_determination`, `rules.deadline_grace_hours`), otherwise the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Readings {
    /// `extended` (default) or `fixed`: the end of the one-week period **and** of the objection period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period_end: Option<PeriodEnd>,
    /// `next_working_day` (default) or `kept`: a registered letter's fiction day on a Saturday, Sunday or
    /// holiday.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fiction_day: Option<FictionDay>,
    /// NRW: `at_membership` (default) or `at_determination` (§ 45 Abs. 6 Satz 7 KWahlG NRW).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub announcement: Option<AnnouncementTime>,
    /// Hours (at most 168) after the end of a period before its deemed effect is applied; the effect stays
    /// dated at the end of the period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_grace_hours: Option<u32>,
    /// NRW: `keeps_list_place` (default) or `excluded` (§ 45 Abs. 4 KWahlG NRW).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub district_substitute: Option<DistrictSubstitute>,
}

impl Readings {
    /// Whether no reading is set (the object is then not written).
    pub fn is_unset(&self) -> bool {
        *self == Readings::default()
    }
}

/// Which kind of elected body a snapshot describes (`body.kind`): a municipal council (Gemeinderat,
/// Stadtrat, Gemeindevertretung, Rat; default) or the council of a Landkreis (Kreistag). The succession rules
/// are the same election statute for both in every Land served; what differs — the norms of the
/// Landkreisordnung that a Kreistag's bar and membership rest on, who signs, the words — is answered by the
/// Land's law for each kind (docs/legal.md, "Kreistage").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum BodyKind {
    /// Die Vertretung einer Gemeinde (Gemeinderat, Stadtrat, Gemeindevertretung, Rat).
    #[default]
    Council,
    /// Der Kreistag eines Landkreises (Kreises).
    Kreistag,
    /// Der Bezirkstag: served for the Bezirkstag des Bezirksverbands Pfalz (Rheinland-Pfalz, § 56 KWG: closed
    /// lists, a Nachfolger named per Bewerber); refused elsewhere — Bayern's Bezirkstage (Bezirkswahlgesetz with
    /// the Landeswahlgesetz) are not modelled (docs/legal.md, "Point 10: Bezirkstage").
    Bezirkstag,
    /// Die Regionalversammlung des Regionalverbands Saarbrücken (Saarland, § 205 KSVG): served on the Kreistag's
    /// footing with the Wahlleitung confirming every determination; refused elsewhere (docs/legal.md, "Saarland:
    /// the Regionalversammlung").
    Regionalversammlung,
}

impl BodyKind {
    /// Whether this is the default kind (the field is then not written).
    pub fn is_council(&self) -> bool {
        *self == BodyKind::Council
    }

    /// The body in the nominative with its article, as the texts use it: „die Vertretung“, „der Kreistag“.
    pub fn nominative(self) -> &'static str {
        match self {
            BodyKind::Council => "die Vertretung",
            BodyKind::Kreistag => "der Kreistag",
            BodyKind::Bezirkstag => "der Bezirkstag",
            BodyKind::Regionalversammlung => "die Regionalversammlung",
        }
    }

    /// [`BodyKind::nominative`] at the head of a sentence: „Die Vertretung“, „Der Kreistag“.
    pub fn nominative_capitalized(self) -> &'static str {
        match self {
            BodyKind::Council => "Die Vertretung",
            BodyKind::Kreistag => "Der Kreistag",
            BodyKind::Bezirkstag => "Der Bezirkstag",
            BodyKind::Regionalversammlung => "Die Regionalversammlung",
        }
    }

    /// Accusative: „die Vertretung“, „den Kreistag“.
    pub fn accusative(self) -> &'static str {
        match self {
            BodyKind::Council => "die Vertretung",
            BodyKind::Kreistag => "den Kreistag",
            BodyKind::Bezirkstag => "den Bezirkstag",
            BodyKind::Regionalversammlung => "die Regionalversammlung",
        }
    }

    /// Dative: „der Vertretung“, „dem Kreistag“.
    pub fn dative(self) -> &'static str {
        match self {
            BodyKind::Council => "der Vertretung",
            BodyKind::Kreistag => "dem Kreistag",
            BodyKind::Bezirkstag => "dem Bezirkstag",
            BodyKind::Regionalversammlung => "der Regionalversammlung",
        }
    }

    /// Genitive: „der Vertretung“, „des Kreistags“.
    pub fn genitive(self) -> &'static str {
        match self {
            BodyKind::Council => "der Vertretung",
            BodyKind::Kreistag => "des Kreistags",
            BodyKind::Bezirkstag => "des Bezirkstags",
            BodyKind::Regionalversammlung => "der Regionalversammlung",
        }
    }

    /// The returning officer's office in running text: „Wahlleitung“, „Kreiswahlleitung“.
    pub fn office(self) -> &'static str {
        match self {
            BodyKind::Council => "Wahlleitung",
            BodyKind::Kreistag => "Kreiswahlleitung",
            BodyKind::Bezirkstag => "Wahlleitung",
            BodyKind::Regionalversammlung => "Wahlleitung",
        }
    }

    /// The wire code (`council`, `kreistag`).
    pub fn code(self) -> &'static str {
        match self {
            BodyKind::Council => "council",
            BodyKind::Kreistag => "kreistag",
            BodyKind::Bezirkstag => "bezirkstag",
            BodyKind::Regionalversammlung => "regionalversammlung",
        }
    }
}

/// Vertretung: the council (or district council, Kreistag …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BodyInfo {
    pub id: String,
    pub name: String,
    /// `NW` (§ 45 KWahlG NRW), `HE` (§ 34 KWG Hessen), `RP` (§ 45 KWG Rheinland-Pfalz), `NI` (§ 44 NKWG), `ST`
    /// (§ 47 KWG LSA), `TH` (§ 23 ThürKWG), `SH` (§ 44 GKWG), `BY` (Art. 37 GLKrWG), `BW` (§ 31 GemO, § 26
    /// KomWG), `SN` (§ 34 SächsGemO) or `MV` (§ 46 LKWG M-V).
    pub land: Land,
    /// `council` (default), `kreistag`, `bezirkstag` or `regionalversammlung`: the council of a municipality, of a
    /// Landkreis, a Bezirkstag (Pfalz, Bayern), or the Regionalversammlung des Regionalverbands Saarbrücken
    /// (docs/contract.md, "body.kind"; docs/legal.md, "Kreistage", "Point 10: Bezirkstage", "Saarland: the
    /// Regionalversammlung").
    #[serde(default, skip_serializing_if = "BodyKind::is_council")]
    pub kind: BodyKind,
    #[serde(default)]
    pub electoral_system: ElectoralSystem,
    /// Gesetzliche Mitgliederzahl; reduced by one for every seat left vacant (§ 45 Abs. 5 Satz 2 KWahlG NRW,
    /// § 34 Abs. 1 Satz 2 KWG).
    pub statutory_size: u32,
    pub term: Term,
    pub returning_officer: ReturningOfficer,
    /// `automatic` (default) or `confirm`: whether the returning officer confirms each determination before
    /// it takes effect.
    #[serde(default)]
    pub determination: DeterminationMode,
    /// The readings this body takes where the statutes are open (docs/legal.md, "Per-body readings").
    #[serde(default, skip_serializing_if = "Readings::is_unset")]
    pub readings: Readings,
    /// The holidays of the Land's Feiertagsgesetz that hold only in some municipalities and hold where this
    /// body's periods run (docs/contract.md, "Local holidays"): codes of the Land's table, e.g.
    /// `mariae_himmelfahrt` (Bayern, Art. 1 Abs. 1 Nr. 2 FTG: municipalities with a predominantly Catholic
    /// population) or `augsburger_friedensfest` (Art. 1 Abs. 2 FTG: the city of Augsburg). Empty for a Land
    /// without such holidays. A period ending on one of them is extended like over a statewide holiday.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub local_holidays: Vec<String>,
    /// The Verwaltungsgericht an action against this body's determinations and review decisions is brought
    /// before, with its seat (§ 58 Abs. 1 VwGO; § 52 Nr. 3 VwGO: the court of the district where the
    /// authority has its seat). Required at registration in every Land whose texts carry a
    /// Rechtsbehelfsbelehrung (docs/legal.md, "Remedies: court, authority and seat").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remedy_court: Option<Authority>,
    /// Thüringen: the Rechtsaufsichtsbehörde a Wahlanfechtung is lodged with and that decides it (§ 31 ThürKWG),
    /// with its seat; required at registration there, refused elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supervisory_authority: Option<Authority>,
    /// A Baden-Württemberg Kreistag: the Wahlkreise (`lists[].area`) that consist of one Gemeinde only. An
    /// Ersatzperson of such a Wahlkreis is passed over where his moving up would give it more than two fifths of the
    /// seats (§ 25 Abs. 2 Satz 2 Halbsatz 2 LKrO; docs/legal.md, "Baden-Württemberg: a Kreistag's
    /// Ausgleichssitze"). Refused elsewhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub single_municipality_areas: Vec<String>,
}

/// Kind of the Wahlvorschlag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ListKind {
    /// Partei
    Party,
    /// Wählergruppe
    VoterGroup,
    /// Einzelbewerber: no list behind the candidate (§ 45 Abs. 5 Satz 1 KWahlG NRW).
    Individual,
}

/// How a seat was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatVia {
    /// Direktmandat im Wahlbezirk
    District,
    /// über die Reserveliste
    List,
    /// als Listennachfolger
    Succession,
    /// Personenwahl (Niedersachsen, § 36 Abs. 5 NKWG): won by the candidate's own votes. Listenwahl there is
    /// `list` (§ 36 Abs. 6). A seat that passed to an Ersatzperson keeps how it was won (docs/legal.md,
    /// "Niedersachsen").
    PersonalVote,
    /// Weiterer Sitz (Ausgleichssitz) under unechte Teilortswahl (Baden-Württemberg, § 26 Abs. 2 Satz 4 KomWG,
    /// § 25 Abs. 2 Sätze 5 bis 9 KomWG): allotted across the Wohnbezirke by votes; its own Ersatzpersonen succeed
    /// (§ 26 Abs. 2 Satz 5 KomWG). In a Baden-Württemberg Kreistag: an Ausgleichssitz (§ 25 Abs. 2 Satz 2 LKrO,
    /// § 26 Abs. 3 Satz 3 KomWG), filled from the Ersatzpersonen for the Ausgleichssitze (`additional_rank`).
    /// Refused elsewhere; a successor keeps it (docs/legal.md, "Baden-Württemberg: weitere Sitze", "Baden-Württemberg:
    /// a Kreistag's Ausgleichssitze").
    Additional,
}

/// A seat held now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Seat {
    pub since: NaiveDate,
    pub via: SeatVia,
}

/// For which candidacy of the candidate in `substitute_for` an Ersatzbewerber is named (§ 16 Abs. 2 KWahlG NRW:
/// "für einen im Wahlbezirk oder für einen auf einer Reserveliste aufgestellten Bewerber"). Decides whether
/// § 45 Abs. 4 KWahlG NRW takes his priority (docs/legal.md, "Ersatzbewerber named only for the district").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum SubstituteDesignation {
    /// only for the candidacy in the Wahlbezirk (the default)
    #[default]
    District,
    /// for the candidacy on the Reserveliste
    List,
    /// for both candidacies
    Both,
}

/// Form of a waiver (Verzicht auf die Anwartschaft).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WaiverForm {
    /// zur Niederschrift des Wahlleiters (§ 38 KWahlG NRW)
    Recorded,
    /// schriftlich (letter, fax, e-mail)
    Written,
}

/// Why a `banned_party_member` fact is refused outside the Länder whose loss of the Anwartschaft is modelled.
pub const BANNED_PARTY_MEMBER_ONLY: &str = "banned_party_member is a fact of Mecklenburg-Vorpommern (§ 47 Abs. 1 LKWG M-V), Rheinland-Pfalz (§ 46 Abs. 1 KWG), Brandenburg (§ 62 Abs. 1, 2 BbgKWahlG), Saarland (§ 50 Abs. 1 KWG), Sachsen-Anhalt (§ 48 Abs. 1 Satz 2 i. V. m. § 47 Abs. 2 Nr. 2 KWG LSA) and Niedersachsen (§ 45 Abs. 1 Satz 2 i. V. m. § 44 Abs. 3 Nr. 2 NKWG); no other Land's loss of the Anwartschaft by a party ban is modelled (docs/legal.md)";

/// A dated fact about a candidate. All facts count as recorded; intervals (`ineligible`) and bars
/// (`barred` / `bar_cured`, docs/legal.md "Bars by date") are judged at the reference time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Fact {
    /// left the party or voter group he stood for
    LeftParty {
        on: NaiveDate,
    },
    /// joined a party or voter group other than the nominating one after the list was drawn up
    JoinedOtherParty {
        on: NaiveDate,
        /// He was a member of a party or voter group when the list was drawn up (default `false`). NRW § 45
        /// Abs. 3 Satz 3 KWahlG passes over only a candidate who was not; a member who switched parties has
        /// left the nominating one: record `left_party` (Abs. 3 Satz 1). See docs/legal.md.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        was_member: bool,
    },
    /// Verzicht auf die Anwartschaft
    Waived {
        on: NaiveDate,
        form: WaiverForm,
    },
    /// declined: `of` says what — the election as an elected person (Ablehnung der Wahl) or one succession
    /// (Nachrücken) as a Listennachfolger / Ersatzperson
    Declined {
        on: NaiveDate,
        /// What was declined (default `succession`: the meaning every snapshot had before the field; the
        /// worker records `election` for a vacancy with reason `declined`). Read per Land: docs/legal.md,
        /// "Two kinds of declining".
        #[serde(default, skip_serializing_if = "Declination::is_succession")]
        of: Declination,
    },
    Died {
        on: NaiveDate,
    },
    /// not eligible (Wählbarkeit verloren) from `from` until `until` (inclusive; open-ended without it)
    Ineligible {
        from: NaiveDate,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        until: Option<NaiveDate>,
    },
    /// Hinderungsgrund / Unvereinbarkeit (§ 13 KWahlG NRW, § 37 HGO): e.g. employed by the municipality
    Barred {
        on: NaiveDate,
        reason: String,
    },
    /// the bar has ended
    BarCured {
        on: NaiveDate,
    },
    /// held a seat in this term and left
    FormerMember {
        on: NaiveDate,
    },
    /// The nominating party told the returning officer in writing that the candidate left the party, was
    /// expelled, or (Sachsen-Anhalt) joined a party with a competing Wahlvorschlag; `on`: the day the notice
    /// reached him. Sachsen-Anhalt (§ 47 Abs. 1 Satz 2, 3 KWG LSA; recorded with `left_party` or
    /// `joined_other_party`) and Niedersachsen (§ 44 Abs. 2 NKWG: the notice alone) pass him over if it arrived
    /// before the seat fell vacant.
    PartyNotice {
        on: NaiveDate,
    },
    /// Belonged to a party (or part of one) the Bundesverfassungsgericht declared unconstitutional, or to a
    /// banned Wählergruppe or Vereinigung, within the period the Land's statute names (Parteiverbot: § 47
    /// Abs. 1 LKWG M-V, § 46 Abs. 1 KWG Rheinland-Pfalz, § 62 Abs. 1, 2 BbgKWahlG, § 50 Abs. 1 KWG Saarland, § 48
    /// Abs. 1 Satz 2 KWG LSA, § 45 Abs. 1 Satz 2 i. V. m. § 44 Abs. 3 Nr. 2 NKWG); `on`: the day the loss
    /// took effect (the Verkündung of the judgment, or the ban becoming unanfechtbar). The Ersatzperson has
    /// lost the Anwartschaft for the term. The Wahlleitung finds the membership; the worker does not check it.
    /// Refused in the other Länder (docs/legal.md, "Party ban: Mecklenburg-Vorpommern, Rheinland-Pfalz,
    /// Brandenburg").
    BannedPartyMember {
        on: NaiveDate,
    },
    /// The Ersatzperson left as Ersatzperson for the Wahlperiode on `on`, for a `ground` only one Land knows:
    /// Mecklenburg-Vorpommern `proofs_not_supplied` (the Wahlleitung's finding that the required proofs were
    /// not supplied within the period it set, § 46 Abs. 2 Satz 5 LKWG M-V; `on`: the finding), Niedersachsen
    /// `direct_office_accepted` (accepted the election to an office filled by Direktwahl, § 45 Abs. 4 NKWG;
    /// `on`: the acceptance). Passed over from `on` on, for good. Refused in the other Länder and with the other
    /// Land's ground (docs/legal.md, "Point 11: three smaller gaps").
    SubstituteStatusLost {
        on: NaiveDate,
        ground: StatusLossGround,
    },
}

/// Why an Ersatzperson left as Ersatzperson (`substitute_status_lost`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StatusLossGround {
    /// Mecklenburg-Vorpommern: required proofs not supplied in the period the Wahlleitung set; its finding
    /// (§ 46 Abs. 2 Satz 4, 5 LKWG M-V).
    ProofsNotSupplied,
    /// Niedersachsen: accepted the election to an office filled by Direktwahl (§ 45 Abs. 4 NKWG).
    DirectOfficeAccepted,
}

impl StatusLossGround {
    /// The one Land whose statute has the ground.
    pub fn land(self) -> Land {
        match self {
            StatusLossGround::ProofsNotSupplied => Land::Mv,
            StatusLossGround::DirectOfficeAccepted => Land::Ni,
        }
    }
}

/// The refusal of a `substitute_status_lost` whose ground is not the body's Land's.
pub const STATUS_LOSS_GROUND_ONLY: &str = "substitute_status_lost has the ground proofs_not_supplied only in Mecklenburg-Vorpommern (§ 46 Abs. 2 Satz 5 LKWG M-V) and direct_office_accepted only in Niedersachsen (§ 45 Abs. 4 NKWG); no other Land's loss of the status is modelled (docs/legal.md, \"Point 11: three smaller gaps\")";

/// What a `declined` fact declines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Declination {
    /// A Listennachfolger / Ersatzperson refused one Nachrücken (the offer of a seat that fell vacant).
    #[default]
    Succession,
    /// An elected person declined the election (Ablehnung der Wahl) and never took the seat.
    Election,
}

impl Declination {
    /// The default, left out on the wire.
    pub fn is_succession(&self) -> bool {
        *self == Declination::Succession
    }
}

impl Fact {
    /// The wire name of the fact type.
    pub fn kind(&self) -> &'static str {
        match self {
            Fact::LeftParty { .. } => "left_party",
            Fact::JoinedOtherParty { .. } => "joined_other_party",
            Fact::Waived { .. } => "waived",
            Fact::Declined { .. } => "declined",
            Fact::Died { .. } => "died",
            Fact::Ineligible { .. } => "ineligible",
            Fact::Barred { .. } => "barred",
            Fact::BarCured { .. } => "bar_cured",
            Fact::FormerMember { .. } => "former_member",
            Fact::PartyNotice { .. } => "party_notice",
            Fact::BannedPartyMember { .. } => "banned_party_member",
            Fact::SubstituteStatusLost { .. } => "substitute_status_lost",
        }
    }

    /// Whether a council of `land` can record this fact: the one place that says which facts are only one
    /// Land's (the snapshot's validation refuses the others, naming the norm; the console offers only these).
    /// `party_notice`: § 47 Abs. 1 Satz 2 KWG LSA, § 44 Abs. 2 NKWG, § 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V, § 60
    /// Abs. 4 BbgKWahlG; `banned_party_member`: § 47 Abs. 1 LKWG M-V, § 46 Abs. 1 KWG, § 62 Abs. 1, 2
    /// BbgKWahlG, § 50 Abs. 1 KWG Saarland, § 48 Abs. 1 Satz 2 KWG LSA, § 45 Abs. 1 Satz 2 NKWG;
    /// `substitute_status_lost`: its ground's Land.
    pub fn allowed_in(&self, land: Land) -> bool {
        match self {
            Fact::PartyNotice { .. } => matches!(land, Land::St | Land::Ni | Land::Mv | Land::Bb),
            Fact::BannedPartyMember { .. } => {
                matches!(land, Land::Mv | Land::Rp | Land::Bb | Land::Sl | Land::St | Land::Ni)
            }
            Fact::SubstituteStatusLost { ground, .. } => ground.land() == land,
            _ => true,
        }
    }
}

/// Anrede of a candidate in formal letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FormOfAddress {
    /// „Sehr geehrte Frau …“
    Frau,
    /// „Sehr geehrter Herr …“
    Herr,
}

/// Bewerber: a candidate of a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Candidate {
    pub id: String,
    /// Position on the Reserveliste; `null` = not on the list (e.g. district only; in a majority election a
    /// person not proposed who received votes, written in on the ballot).
    #[serde(default)]
    pub position: Option<u32>,
    pub given_name: String,
    pub family_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postal_address: Option<String>,
    /// Anrede: how a letter addresses the candidate („Sehr geehrte Frau …“, „Sehr geehrter Herr …“); absent,
    /// the texts use a form that names the person without one (docs/legal.md, "Form of address").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form_of_address: Option<FormOfAddress>,
    /// Akademischer Grad the candidate bears in the Anrede and the address („Dr.“, „Prof. Dr.“): „Sehr geehrte
    /// Frau Dr. Name“.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub academic_degree: Option<String>,
    /// Personal votes (Hessen; optional in NRW; required in a majority election, whose list is everyone who
    /// received votes). Negative values are refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub votes: Option<i64>,
    /// Rang nach dem bei der Feststellung des Wahlergebnisses gezogenen Los (1 first): where the Land's lot on
    /// equal votes was already drawn when the result was determined — Bayern (Art. 36 Satz 2, Art. 37 Abs. 1
    /// Satz 1 Halbsatz 2, Art. 38 Abs. 2 Satz 3 GLKrWG), a Sachsen majority election (§ 23 Satz 3 KomWG), a
    /// Baden-Württemberg majority election (§ 31 Abs. 2 Satz 1 i. V. m. § 26 Abs. 3 GemO) and a Saarland majority
    /// election (§ 57 Abs. 2 i. V. m. § 55 Abs. 2 Satz 2 KWO) — the order it gave among the candidates of a list with
    /// the same votes. When every tied candidate has
    /// one, the lowest is chosen and no lot is asked for; absent, no lot was drawn (docs/legal.md, "Point 7:
    /// lots drawn when the result was determined"). Refused elsewhere, without `votes`, and twice among equal
    /// votes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lot_rank: Option<u32>,
    /// Ersatzperson für Ausgleichssitze (a Baden-Württemberg Kreistag): the place the Kreiswahlausschuss determined
    /// for the candidate, when the result was determined, among the Ersatzpersonen for the Ausgleichssitze of his
    /// party or Wählervereinigung across the Wahlkreise (1 first; its Wahlvorschläge are tied by `lists[].party`) —
    /// § 25 Abs. 2 Satz 1 LKrO ("als nächster Ersatzmann festgestellt"), § 46 Abs. 3 KomWO. A vacant Ausgleichssitz
    /// passes in this order (docs/legal.md, "Baden-Württemberg: a Kreistag's Ausgleichssitze"). Refused elsewhere
    /// and twice within a party.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_rank: Option<u32>,
    /// NRW Wahlbezirk of a district candidacy; Baden-Württemberg, unechte Teilortswahl: the Wohnbezirk the
    /// candidate stood for (§ 26 Abs. 2 KomWG; docs/legal.md, "Baden-Württemberg").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub district: Option<String>,
    /// Ersatzbewerber (§ 45 Abs. 2 Satz 1 KWahlG NRW, § 16 Abs. 2): named for that candidate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub substitute_for: Option<String>,
    /// NRW, with `substitute_for`: named for the district candidacy (`district`, the default), the list
    /// candidacy (`list`) or both (`both`) of that candidate (§ 45 Abs. 4 KWahlG NRW, § 16 Abs. 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub substitute_designation: Option<SubstituteDesignation>,
    #[serde(default)]
    pub seat: Option<Seat>,
    #[serde(default)]
    pub facts: Vec<Fact>,
}

impl BodyInfo {
    /// The returning officer's title under a signature and in a letterhead: the officer's own
    /// (`returning_officer.title`, e.g. „Kreiswahlleiterin“), else the office („Wahlleitung“,
    /// „Kreiswahlleitung“) — never both gender forms (docs/legal.md, "Form of address").
    pub fn officer_title(&self) -> &str {
        match self.returning_officer.title.as_deref().map(str::trim) {
            Some(t) if !t.is_empty() => t,
            _ => self.kind.office(),
        }
    }
}

impl Candidate {
    pub fn full_name(&self) -> String {
        format!("{} {}", self.given_name, self.family_name)
    }
    /// The candidacy an Ersatzbewerber is named for (`district` unless the snapshot says otherwise).
    pub fn designation(&self) -> SubstituteDesignation {
        self.substitute_designation.unwrap_or_default()
    }
    pub fn has_fact(&self, pred: impl Fn(&Fact) -> bool) -> bool {
        self.facts.iter().any(pred)
    }
    /// The reason of the Hinderungsgrund current on `day`, if any: the latest `barred` fact dated on or
    /// before `day`, unless a `bar_cured` fact dated on or before `day` is later. A bar that was cured and
    /// arises again is a bar. On the same date the fact recorded later (later in `facts`) is the later one.
    /// The one predicate of the rules, the Nachrückerliste and the procedure (docs/legal.md, "Bars by date").
    pub fn bar_at(&self, day: NaiveDate) -> Option<&str> {
        let mut barred: Option<((NaiveDate, usize), &str)> = None;
        let mut cured: Option<(NaiveDate, usize)> = None;
        for (i, f) in self.facts.iter().enumerate() {
            match f {
                Fact::Barred { on, reason } if *on <= day => barred = Some(((*on, i), reason.as_str())).max(barred),
                Fact::BarCured { on } if *on <= day => cured = Some((*on, i)).max(cured),
                _ => {}
            }
        }
        let (when, reason) = barred?;
        (cured < Some(when)).then_some(reason)
    }

    /// A Hinderungsgrund is current on `day` (see [`Candidate::bar_at`]).
    pub fn is_barred_at(&self, day: NaiveDate) -> bool {
        self.bar_at(day).is_some()
    }
}

/// Wahlvorschlag / Reserveliste.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct List {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_name: Option<String>,
    pub kind: ListKind,
    /// Wahlbereich / Wahlkreis: the area of the Wahlgebiet this Wahlvorschlag stood in, where the Wahlgebiet
    /// has several (Niedersachsen § 37 NKWG, Mecklenburg-Vorpommern § 64 LKWG M-V, Sachsen-Anhalt, Sachsen § 22
    /// KomWG, a Baden-Württemberg Kreistag, Brandenburg). Absent: the Wahlgebiet has one area, or the snapshot
    /// does not say. Which Länder accept it: docs/contract.md, "Several Wahlbereiche".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<String>,
    /// The key that ties the Wahlvorschläge one party or Wählergruppe submitted in the several areas (the same
    /// value on each of them, e.g. `spd`): where an area's Wahlvorschlag is exhausted, the Land's fall-back to
    /// the same party's other areas takes its candidates from these lists (§ 38 Abs. 5, § 44 Abs. 5 NKWG;
    /// docs/legal.md, "Several Wahlbereiche"). Requires `area`; refused where the Land has no such fall-back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party: Option<String>,
    pub candidates: Vec<Candidate>,
}

/// The election snapshot: `data` of `election.registered`, input of `nachfolge decide`, output of
/// `nachfolge export`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    pub body: BodyInfo,
    pub lists: Vec<List>,
}

/// A snapshot refused by validation: names the field and the problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct ValidationError {
    /// JSON path of the offending field, e.g. `lists[0].candidates[2].votes`.
    pub field: String,
    pub problem: String,
}

impl ValidationError {
    pub fn new(field: impl Into<String>, problem: impl Into<String>) -> Self {
        ValidationError { field: field.into(), problem: problem.into() }
    }
}

mod body;
mod ids;
mod parse;
mod validate;

pub use body::{Body, Loc};
pub use ids::{BodyId, CandidateId, CaseId};
pub use parse::{from_value, parse_json, parse_snapshot};
pub(crate) use validate::validate;
pub use validate::MAX_GRACE_HOURS;
