//! Thüringen: Thüringer Kommunalwahlgesetz (ThürKWG) §§ 23, 29–31, the Thüringer Kommunalordnung (ThürKO)
//! § 23 Abs. 4, the ThürVwZVG (which applies the VwZG), the ThürVwVfG and the Thüringer Feier- und
//! Gedenktagsgesetz. Who succeeds: `rules/th.rs`. Readings taken: docs/legal.md, "Thüringen".

use chrono::{Datelike, NaiveDate};

use super::{Acceptance, LandLaw, LocalHoliday, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, ElectoralSystem, Snapshot, ValidationError};
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Thüringen.
pub(super) struct Th;

const COUNCIL: Procedure = Procedure {
    // § 23 Abs. 4 i. V. m. § 29 ThürKWG: a week after service; accepted unless refused in writing within it
    acceptance: Acceptance::Declaration,
    // § 29 Satz 3 ThürKWG: a reservation or condition is void, the acceptance stands
    reservation: Reservation::Ineffective,
    determination_mail: "th_offer",
    not_acquired_mail: None,
    // "so ist ein Nachrücker zu berufen"
    next_round_citation: Some("§ 23 Abs. 1 ThürKWG"),
    bar_citation: rules::th::BAR_CITATION,
    // the Wahlanfechtung, as practice applies it to the Feststellung of a Nachrücker (docs/legal.md)
    objection: Objection {
        span: Span::Weeks(2),
        reason: "two_weeks_after_announcement",
        citation: "§ 31 Abs. 1 ThürKWG",
    },
    review: Review {
        council_refused: Some(
            "decided_by: in Thüringen the Rechtsaufsichtsbehörde decides the Wahlanfechtung (§ 31 Abs. 2 ThürKWG), not the council",
        ),
        citation: "§ 31 Abs. 2 ThürKWG",
        council_in_place_of_officer: None,
    },
    texts: Texts {
        template_prefix: "th",
        determination_subject: "Feststellung des Nachrückens, „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Feststellung des Nachrückens, „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis über die Beendigung der Unvereinbarkeit",
        announcement_basis: "§ 23 Abs. 4 ThürKWG",
        party_ban_basis: None,
        announcement_remedy: "Wahlanfechtung jeder wahlberechtigten Person binnen zwei Wochen nach der Bekanntmachung, schriftlich mit Begründung bei der Rechtsaufsichtsbehörde{authority} (§ 31 Abs. 1 ThürKWG)",
        review_basis: "§ 31 Abs. 2 ThürKWG",
        review_remedy: "Klage vor dem Verwaltungsgericht{court} binnen eines Monats nach Bekanntgabe der Entscheidung der Rechtsaufsichtsbehörde (§ 74 Abs. 1 Satz 2 VwGO)",
        court_review_remedy: "keine Klage: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_final_remedy: "keiner: die Entscheidung ist unanfechtbar",
        successor_title: "Bekanntmachung über die Feststellung eines Nachrückers für „{name}“",
        vacancy_title: "Bekanntmachung über das Unbesetztbleiben eines Sitzes in „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft in „{name}“",
        review_title: "Bekanntmachung der Entscheidung über die Wahlanfechtung gegen die Feststellung eines Nachrückers für „{name}“",
        not_acquired_subject: None,
        correction_title: "Berichtigung der Bekanntmachung über die Feststellung eines Nachrückers für „{name}“",
    },
};

/// A council (`body.kind = council`).
static PROCEDURE: Procedure = COUNCIL;

/// Why a barred successor to a Kreistag is passed over or must prove the end of the bar (docs/legal.md, "Kreistage").
const KREISTAG_BAR: &str = "§ 102 Abs. 4 ThürKO i. V. m. § 30 Abs. 2 Nr. 2 ThürKWG";

/// A Kreistag: the council's procedure with the Kreistag's norms and words (docs/legal.md, "Kreistage").
static KREISTAG: Procedure = Procedure {
    bar_citation: KREISTAG_BAR,
    texts: Texts {
        determination_subject: "Feststellung des Nachrückens, Kreistag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Feststellung des Nachrückens, Kreistag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis über die Beendigung der Unvereinbarkeit",
        successor_title: "Bekanntmachung über die Feststellung eines Nachrückers für den Kreistag „{name}“",
        vacancy_title: "Bekanntmachung über das Unbesetztbleiben eines Sitzes im Kreistag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft im Kreistag „{name}“",
        review_title: "Bekanntmachung der Entscheidung über die Wahlanfechtung gegen die Feststellung eines Nachrückers für den Kreistag „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über die Feststellung eines Nachrückers für den Kreistag „{name}“",
        ..COUNCIL.texts
    },
    ..COUNCIL
};

/// The rule set's citations that differ for a Kreistag (`LandLaw::kreistag_citations`; docs/legal.md, "Kreistage").
static KREISTAG_CITATIONS: &[(&str, &str)] = &[(rules::th::BAR_CITATION, KREISTAG_BAR)];

/// The holidays that hold only in some municipalities (`body.local_holidays`): Fronleichnam in municipalities
/// with a predominantly Catholic population (§ 2 Abs. 2 ThürFGtG: by Rechtsverordnung; where it was a
/// holiday in 1994 — Landkreis Eichsfeld, parts of the Unstrut-Hainich-Kreis and the Wartburgkreis — it
/// continues as one until that Verordnung, docs/legal.md, "Local holidays").
static LOCAL_HOLIDAYS: &[LocalHoliday] = &[LocalHoliday {
    code: "fronleichnam",
    holiday: Holiday::Easter { offset: 60, name: "Fronleichnam" },
    citation: "§ 2 Abs. 2 ThürFGtG",
}];

/// § 2 Abs. 1 ThürFGtG beyond the nationwide holidays. The Weltkindertag since 2019 (GVBl. 2019 S. 22).
/// Fronleichnam holds only in some municipalities (§ 2 Abs. 2, § 10 Abs. 1): not known here (docs/legal.md).
const HOLIDAYS: &[Holiday] = &[
    Holiday::Fixed { month: 9, day: 20, name: "Weltkindertag" },
    Holiday::Fixed { month: 10, day: 31, name: "Reformationstag" },
];

impl LandLaw for Th {
    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        super::refuse_district_substitute(&s.body.readings)?;
        if s.body.electoral_system == ElectoralSystem::Majority && s.lists.len() != 1 {
            return Err(ValidationError::new(
                "lists",
                format!(
                    "a majority election (§ 13 Abs. 1 Satz 2 ThürKWG) is recorded as exactly one list of the persons who received votes, found {}",
                    s.lists.len()
                ),
            ));
        }
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                if c.votes.is_none() {
                    return Err(ValidationError::new(
                        format!("lists[{li}].candidates[{ci}].votes"),
                        "is required in a Thüringen body (§ 23 Abs. 2 Satz 2 i. V. m. § 22 Abs. 5, Abs. 3 ThürKWG rank by votes)",
                    ));
                }
                super::refuse_ersatzbewerber(
                    c,
                    || format!("lists[{li}].candidates[{ci}].substitute_for"),
                    "in Thüringen the votes decide (§ 23 Abs. 2 ThürKWG)",
                )?;
            }
        }
        Ok(())
    }

    fn validate_cause(&self, cause: Cause) -> Result<(), ValidationError> {
        match cause {
            Cause::Ordinary => Ok(()),
            Cause::PartyBan { .. } => Err(ValidationError::new(
                "reason",
                "party_banned is not modelled for Thüringen: § 30 Abs. 4 ThürKWG ends the office with the judgment, but who succeeds was not researched (docs/legal.md)",
            )),
            Cause::ResultCorrected => Err(super::result_correction_not_read()),
            Cause::Merger => Err(super::merger_is_hessens(Some("ThürKWG"))),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::th::decide(body, q)
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        rules::th::list_order(body, s, body.list(list))
    }

    /// § 2 Abs. 1 ThürFGtG; the Weltkindertag from 2019.
    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        holiday_in(&[NATIONWIDE, HOLIDAYS], d).filter(|name| *name != "Weltkindertag" || d.year() >= 2019)
    }

    fn local_holidays(&self) -> &'static [LocalHoliday] {
        LOCAL_HOLIDAYS
    }

    /// **[verify]** § 1 Abs. 1 ThürVwZVG as amended in 2024: the §§ 2 to 10 VwZG (docs/legal.md).
    fn service_act(&self) -> &'static str {
        "VwZG i. V. m. § 1 Abs. 1 ThürVwZVG"
    }

    fn procedure_act(&self) -> &'static str {
        "ThürVwVfG"
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

    /// The Wahlanfechtung is lodged with the Rechtsaufsichtsbehörde (§ 31 Abs. 1 ThürKWG).
    fn remedy_at_supervisory_authority(&self) -> bool {
        true
    }
}
