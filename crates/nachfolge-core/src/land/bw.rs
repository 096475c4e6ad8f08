//! Baden-Württemberg: Gemeindeordnung (GemO) §§ 15, 16, 28, 29, 31, 32, the Kommunalwahlgesetz (KomWG) § 26,
//! the LVwZG, the LVwVfG and the Feiertagsgesetz. Who succeeds: `rules/bw.rs`. Readings taken: docs/legal.md,
//! "Baden-Württemberg".
//!
//! The Ersatzperson moves up by law (§ 31 Abs. 2 Satz 1 GemO: "rückt … nach"); nobody is asked to accept. The
//! Gemeinderat resolves on him — whether a Hinderungsgrund exists (§ 29 Abs. 5) and whether a refusal for a
//! wichtiger Grund is justified (§ 16 Abs. 2) — and the Bürgermeister verpflichtet him (§ 32 Abs. 1): the
//! case waits for that resolution (`Acceptance::ByLaw` with `council_determines`). No public announcement is
//! prescribed: the successor is told by letter only.

use chrono::NaiveDate;

use super::{Acceptance, LandLaw, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, ElectoralSystem, SeatVia, Snapshot, ValidationError};
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Baden-Württemberg.
pub(super) struct Bw;

const COUNCIL: Procedure = Procedure {
    // § 31 Abs. 2 Satz 1 GemO; § 29 Abs. 5, § 16 Abs. 2 GemO: the council resolves
    acceptance: Acceptance::ByLaw { council_determines: true, announced: false },
    // no declaration is asked for; never read
    reservation: Reservation::Refusal,
    determination_mail: "bw_determination",
    not_acquired_mail: None,
    next_round_citation: Some("§ 31 Abs. 2 Satz 1 GemO"),
    bar_citation: rules::bw::BAR_CITATION,
    // [decision] the council's finding is a Verwaltungsakt: Widerspruch within a month (§ 70 Abs. 1 VwGO).
    // Nothing is announced, so no objection period is ever timed from an announcement.
    objection: Objection {
        span: Span::Months(1),
        reason: "one_month_after_announcement",
        citation: "§ 70 Abs. 1 VwGO",
    },
    review: Review {
        council_refused: None,
        citation: "§ 31 Abs. 2 Satz 1 GemO i. V. m. §§ 68 ff. VwGO",
        council_in_place_of_officer: None,
    },
    texts: Texts {
        template_prefix: "bw",
        determination_subject: "Nachrücken als Ersatzperson, „{name}“ (§ 31 Abs. 2 GemO)",
        barred_subject: "Nachrücken als Ersatzperson, „{name}“ (§ 31 Abs. 2 GemO)",
        announcement_basis: "§ 31 Abs. 2 GemO",
        party_ban_basis: None,
        announcement_remedy: "Widerspruch binnen eines Monats nach Bekanntgabe (§ 70 Abs. 1 VwGO)",
        review_basis: "§ 31 Abs. 2 GemO i. V. m. §§ 68 ff. VwGO",
        review_remedy: "Klage vor dem Verwaltungsgericht{court} binnen eines Monats nach Zustellung des Widerspruchsbescheids (§ 74 Abs. 1 VwGO)",
        court_review_remedy: "keine Klage: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_final_remedy: "keiner: die Entscheidung ist unanfechtbar",
        successor_title: "Nachrücken in den Gemeinderat „{name}“",
        vacancy_title: "Unbesetzter Sitz im Gemeinderat „{name}“",
        not_acquired_title: "Nichteintritt in den Gemeinderat „{name}“",
        review_title: "Entscheidung über den Widerspruch gegen das Nachrücken in den Gemeinderat „{name}“",
        not_acquired_subject: None,
        correction_title: "Berichtigung: Nachrücken in den Gemeinderat „{name}“",
    },
};

/// A council (`body.kind = council`).
static PROCEDURE: Procedure = COUNCIL;

/// Why a barred successor to a Kreistag is passed over or must prove the end of the bar (docs/legal.md, "Kreistage").
const KREISTAG_BAR: &str = "§ 24 Abs. 1, 2 LKrO";

/// A Kreistag: the council's procedure with the Kreistag's norms and words (docs/legal.md, "Kreistage").
static KREISTAG: Procedure = Procedure {
    bar_citation: KREISTAG_BAR,
    next_round_citation: Some("§ 25 Abs. 2 Satz 1 LKrO"),
    review: Review {
        council_refused: None,
        citation: "§ 25 Abs. 2 Satz 1 LKrO i. V. m. §§ 68 ff. VwGO",
        council_in_place_of_officer: None,
    },
    texts: Texts {
        determination_subject: "Nachrücken als Ersatzperson, „{name}“ (§ 25 Abs. 2 LKrO)",
        barred_subject: "Nachrücken als Ersatzperson, „{name}“ (§ 25 Abs. 2 LKrO)",
        announcement_basis: "§ 25 Abs. 2 LKrO",
        review_basis: "§ 25 Abs. 2 LKrO i. V. m. §§ 68 ff. VwGO",
        successor_title: "Nachrücken in den Kreistag „{name}“",
        vacancy_title: "Unbesetzter Sitz im Kreistag „{name}“",
        not_acquired_title: "Nichteintritt in den Kreistag „{name}“",
        review_title: "Entscheidung über den Widerspruch gegen das Nachrücken in den Kreistag „{name}“",
        correction_title: "Berichtigung: Nachrücken in den Kreistag „{name}“",
        ..COUNCIL.texts
    },
    ..COUNCIL
};

/// The rule set's citations that differ for a Kreistag (`LandLaw::kreistag_citations`; docs/legal.md, "Kreistage").
static KREISTAG_CITATIONS: &[(&str, &str)] = &[
    ("§ 31 Abs. 2 Satz 1 GemO", "§ 25 Abs. 2 Satz 1 LKrO"),
    (
        "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 1 Satz 3 KomWG",
        "§ 25 Abs. 2 Satz 1 LKrO i. V. m. § 26 Abs. 1 Satz 3 KomWG",
    ),
    ("§ 31 Abs. 2 Satz 1 i. V. m. § 28 GemO", "§ 25 Abs. 2 Satz 1 i. V. m. § 23 LKrO"),
    (rules::bw::BAR_CITATION, KREISTAG_BAR),
    ("§ 16 Abs. 1, 2 GemO", "§ 12 LKrO"),
    ("§ 16 Abs. 1 Satz 3 GemO", "§ 12 LKrO"),
    ("§ 15 Abs. 1, § 16 Abs. 2 GemO", "§§ 11, 12 LKrO"),
    (rules::bw::SUPPLEMENTARY_ELECTION, "§ 25 Abs. 3 LKrO"),
    // the holder of an Ausgleichssitz moves up into his Wahlkreis's seat, his Ausgleichssitz passes on (docs/legal.md,
    // "Baden-Württemberg: a Kreistag's Ausgleichssitze")
    (rules::bw::ADDITIONAL_MOVES_UP, "§ 25 Abs. 2 Satz 2 Halbsatz 1 LKrO"),
    (rules::bw::ADDITIONAL_SEAT_THEN, "§ 25 Abs. 2 Satz 2 Halbsatz 1 i. V. m. Satz 1 LKrO, § 46 Abs. 3 KomWO"),
];

/// § 1 Feiertagsgesetz BW beyond the nationwide holidays.
const HOLIDAYS: &[Holiday] = &[
    Holiday::Fixed { month: 1, day: 6, name: "Erscheinungsfest (Heilige Drei Könige)" },
    Holiday::Easter { offset: 60, name: "Fronleichnam" },
    Holiday::Fixed { month: 11, day: 1, name: "Allerheiligen" },
];

impl LandLaw for Bw {
    /// A weiterer Sitz stays one: its successor is the next Ersatzperson for the weitere Sitze (§ 26 Abs. 2 Satz 5
    /// KomWG) and holds it as such, so that his own successor is found the same way.
    fn successor_seat_via(&self, departed_via: Option<SeatVia>) -> SeatVia {
        match departed_via {
            Some(SeatVia::Additional) => SeatVia::Additional,
            _ => SeatVia::Succession,
        }
    }

    /// A Kreistag's Wahlkreise: each Wahlkreis's Wahlvorschlag on its own — "rückt der Bewerber nach, der bei der
    /// Feststellung des Wahlergebnisses als nächster Ersatzmann festgestellt worden ist" (§ 25 Abs. 2 Satz 1 LKrO);
    /// no fall-back to other Wahlkreise. A party key ties a party's Wahlvorschläge for its Ausgleichssitze only,
    /// whose Ersatzpersonen stand across the Wahlkreise (`additional_rank`). A Gemeinderat's Wohnbezirke are the
    /// candidates' `district`.
    fn areas(&self, kind: BodyKind) -> rules::Areas {
        match kind {
            BodyKind::Kreistag => rules::Areas::Tied,
            // a Bezirkstag is refused for Baden-Württemberg at validation (`body.kind`)
            BodyKind::Council | BodyKind::Bezirkstag | BodyKind::Regionalversammlung => rules::Areas::Refused(
                "a Gemeinderat in Baden-Württemberg has one Wahlgebiet; the Wohnbezirke of an unechte Teilortswahl are the candidates' district (§ 26 Abs. 2 KomWG)",
            ),
        }
    }

    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        let majority = s.body.electoral_system == ElectoralSystem::Majority;
        if majority && s.body.kind != BodyKind::Council {
            return Err(ValidationError::new(
                "body.electoral_system",
                "a majority election is modelled for a Gemeinderat in Baden-Württemberg (§ 26 Abs. 3 GemO), not for a Kreistag: the LKrO's rule for it was not read (docs/legal.md, \"Point 6: Mehrheitswahl\")",
            ));
        }
        if majority {
            // § 26 Abs. 3 GemO: one list of everyone who received votes (docs/legal.md, "Point 6: Mehrheitswahl")
            super::majority_one_list(s, "§ 26 Abs. 3 GemO")?;
        }
        let readings = &s.body.readings;
        if readings.announcement.is_some() {
            return Err(ValidationError::new(
                "body.readings.announcement",
                "is an NRW reading (§ 45 Abs. 6 Satz 7 KWahlG NRW); in Baden-Württemberg nothing is announced (§ 31 Abs. 2 GemO)",
            ));
        }
        super::refuse_district_substitute(readings)?;
        // unechte Teilortswahl: every candidate names his Wohnbezirk, or none does
        let with_district = s.lists.iter().flat_map(|l| &l.candidates).any(|c| c.district.is_some());
        // [decision] a majority election with unechte Teilortswahl (§ 27 Abs. 2 GemO with § 26 Abs. 3) is not
        // modelled: the KomWG's rule on its Ersatzpersonen per Wohnbezirk was not read (docs/legal.md)
        if majority && with_district {
            return Err(ValidationError::new(
                "body.electoral_system",
                "a majority election with unechte Teilortswahl is not modelled for Baden-Württemberg: the rule on its Ersatzpersonen per Wohnbezirk (KomWG) was not read (docs/legal.md, \"Point 6: Mehrheitswahl\")",
            ));
        }
        // a Kreistag's Wahlkreise are lists with `area` (§ 25 Abs. 2 Satz 1 LKrO); unechte Teilortswahl is a
        // Gemeinderat's: a Kreistag snapshot names no district (docs/legal.md, "Several Wahlbereiche")
        if s.body.kind == BodyKind::Kreistag && with_district {
            let (li, ci) = s
                .lists
                .iter()
                .enumerate()
                .find_map(|(li, l)| l.candidates.iter().position(|c| c.district.is_some()).map(|ci| (li, ci)))
                .unwrap_or((0, 0));
            return Err(ValidationError::new(
                format!("lists[{li}].candidates[{ci}].district"),
                "unechte Teilortswahl (§ 26 Abs. 2 KomWG) is a Gemeinderat's; a Kreistag's Wahlkreise are its lists' area (§ 25 Abs. 2 Satz 1 LKrO)",
            ));
        }
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                let at = |field: &str| format!("lists[{li}].candidates[{ci}].{field}");
                // a weiterer Sitz exists under unechte Teilortswahl in a Gemeinderat (§ 26 Abs. 2 Satz 4 KomWG)
                // and as a Kreistag's Ausgleichssitz (§ 25 Abs. 2 Satz 2 LKrO, § 26 Abs. 3 Satz 3 KomWG)
                if c.seat.as_ref().is_some_and(|seat| seat.via == SeatVia::Additional)
                    && !with_district
                    && s.body.kind != BodyKind::Kreistag
                {
                    return Err(ValidationError::new(
                        at("seat.via"),
                        "additional exists in a Gemeinderat elected by unechte Teilortswahl (weiterer Sitz, § 26 Abs. 2 Satz 4 KomWG; every candidate names his Wohnbezirk) and in a Kreistag (Ausgleichssitz, § 25 Abs. 2 Satz 2 LKrO)",
                    ));
                }
                if c.votes.is_none() {
                    return Err(ValidationError::new(
                        at("votes"),
                        "is required in a Baden-Württemberg body (§ 26 Abs. 1 Satz 3 KomWG ranks the Ersatzpersonen by votes)",
                    ));
                }
                super::refuse_ersatzbewerber(
                    c,
                    || at("substitute_for"),
                    "in Baden-Württemberg the votes decide (§ 26 KomWG)",
                )?;
                if with_district && c.district.as_deref().is_none_or(|d| d.trim().is_empty()) {
                    return Err(ValidationError::new(
                        at("district"),
                        "names the Wohnbezirk: with unechte Teilortswahl every candidate stands for one (§ 26 Abs. 2 KomWG), and some candidates of this body name theirs",
                    ));
                }
            }
        }
        Ok(())
    }

    fn validate_cause(&self, cause: Cause) -> Result<(), ValidationError> {
        match cause {
            Cause::Ordinary => Ok(()),
            Cause::PartyBan { .. } => Err(ValidationError::new(
                "reason",
                "party_banned is not modelled for Baden-Württemberg: § 31a GemO was not read (docs/legal.md)",
            )),
            Cause::ResultCorrected => Err(super::result_correction_not_read()),
            Cause::Merger => Err(super::merger_is_hessens(None)),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::bw::decide(body, q)
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        rules::bw::list_order(s, body.list(list))
    }

    /// § 1 Feiertagsgesetz BW: Heilige Drei Könige, Fronleichnam, Allerheiligen beyond the nationwide ones.
    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        holiday_in(&[NATIONWIDE, HOLIDAYS], d)
    }

    fn service_act(&self) -> &'static str {
        "LVwZG"
    }

    fn procedure_act(&self) -> &'static str {
        "LVwVfG"
    }

    fn procedure(&self, kind: BodyKind) -> &'static Procedure {
        match kind {
            BodyKind::Council => &PROCEDURE,
            BodyKind::Kreistag => &KREISTAG,
            // refused at validation: only the Bezirkstag Pfalz is served (docs/legal.md, "Point 10: Bezirkstage")
            BodyKind::Bezirkstag => &PROCEDURE,
            // refused at validation: the Regionalversammlung is Saarland's
            BodyKind::Regionalversammlung => &PROCEDURE,
        }
    }

    fn kreistag_citations(&self) -> &'static [(&'static str, &'static str)] {
        KREISTAG_CITATIONS
    }
}
