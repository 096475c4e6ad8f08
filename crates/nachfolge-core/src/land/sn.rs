//! Sachsen: Gemeindeordnung (SächsGemO) §§ 17, 18, 31, 32, 34, 35, the Kommunalwahlgesetz (KomWG) §§ 21, 23,
//! the SächsVwVfZG (which applies the VwZG and the VwVfG) and the Sonn- und Feiertagsgesetz (SächsSFG). Who
//! succeeds: `rules/sn.rs`. Readings taken: docs/legal.md, "Sachsen".
//!
//! The Ersatzperson moves up by law (§ 34 Abs. 2 SächsGemO: "rückt … nach"); nobody is asked to accept. The
//! Gemeinderat finds whether a Hinderungsgrund exists (§ 32 Abs. 3) and decides on a wichtiger Grund (§ 18
//! Abs. 2): the case waits for its resolution (`Acceptance::ByLaw` with `council_determines`). No public
//! announcement is prescribed: the successor is told by letter only.

use chrono::{Datelike, NaiveDate, Weekday};

use super::{Acceptance, LandLaw, LocalHoliday, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, ElectoralSystem, Snapshot, ValidationError};
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Sachsen.
pub(super) struct Sn;

const COUNCIL: Procedure = Procedure {
    // § 34 Abs. 2 SächsGemO; § 32 Abs. 3, § 18 Abs. 2 SächsGemO: the council resolves
    acceptance: Acceptance::ByLaw { council_determines: true, announced: false },
    // no declaration is asked for; never read
    reservation: Reservation::Refusal,
    determination_mail: "sn_determination",
    not_acquired_mail: None,
    next_round_citation: Some("§ 34 Abs. 2 SächsGemO"),
    bar_citation: rules::sn::BAR_CITATION,
    // [decision] the council's finding is a Verwaltungsakt (§ 32 Abs. 3 Satz 3): Widerspruch within a month
    // (§ 70 Abs. 1 VwGO). Nothing is announced, so no objection period is ever timed.
    objection: Objection {
        span: Span::Months(1),
        reason: "one_month_after_announcement",
        citation: "§ 70 Abs. 1 VwGO",
    },
    review: Review {
        council_refused: None,
        citation: "§ 34 Abs. 2 SächsGemO i. V. m. §§ 68 ff. VwGO",
        council_in_place_of_officer: None,
    },
    texts: Texts {
        template_prefix: "sn",
        determination_subject: "Nachrücken als Ersatzperson, „{name}“ (§ 34 Abs. 2 SächsGemO)",
        barred_subject: "Nachrücken als Ersatzperson, „{name}“ (§ 34 Abs. 2 SächsGemO)",
        announcement_basis: "§ 34 Abs. 2 SächsGemO",
        party_ban_basis: None,
        announcement_remedy: "Widerspruch binnen eines Monats nach Bekanntgabe (§ 70 Abs. 1 VwGO)",
        review_basis: "§ 34 Abs. 2 SächsGemO i. V. m. §§ 68 ff. VwGO",
        review_remedy: "Klage vor dem Verwaltungsgericht{court} binnen eines Monats nach Zustellung des Widerspruchsbescheids (§ 74 Abs. 1 VwGO)",
        court_review_remedy: "keine Klage: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_final_remedy: "keiner: die Entscheidung ist unanfechtbar",
        successor_title: "Nachrücken in die Vertretung „{name}“",
        vacancy_title: "Unbesetzter Sitz in der Vertretung „{name}“",
        not_acquired_title: "Nichteintritt in die Vertretung „{name}“",
        review_title: "Entscheidung über den Widerspruch gegen das Nachrücken in die Vertretung „{name}“",
        not_acquired_subject: None,
        correction_title: "Berichtigung: Nachrücken in die Vertretung „{name}“",
    },
};

/// A council (`body.kind = council`).
static PROCEDURE: Procedure = COUNCIL;

/// Why a barred successor to a Kreistag is passed over or must prove the end of the bar (docs/legal.md, "Kreistage").
const KREISTAG_BAR: &str = "§ 28 SächsLKrO";

/// A Kreistag: the council's procedure with the Kreistag's norms and words (docs/legal.md, "Kreistage").
static KREISTAG: Procedure = Procedure {
    bar_citation: KREISTAG_BAR,
    next_round_citation: Some("§ 30 Abs. 2 SächsLKrO"),
    review: Review {
        council_refused: None,
        citation: "§ 30 Abs. 2 SächsLKrO i. V. m. §§ 68 ff. VwGO",
        council_in_place_of_officer: None,
    },
    texts: Texts {
        determination_subject: "Nachrücken als Ersatzperson, „{name}“ (§ 30 Abs. 2 SächsLKrO)",
        barred_subject: "Nachrücken als Ersatzperson, „{name}“ (§ 30 Abs. 2 SächsLKrO)",
        announcement_basis: "§ 30 Abs. 2 SächsLKrO",
        review_basis: "§ 30 Abs. 2 SächsLKrO i. V. m. §§ 68 ff. VwGO",
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
    ("§ 34 Abs. 2 SächsGemO", "§ 30 Abs. 2 SächsLKrO"),
    (
        "§ 34 Abs. 2 SächsGemO i. V. m. § 21 Abs. 2 Satz 2 KomWG",
        "§ 30 Abs. 2 SächsLKrO i. V. m. § 21 Abs. 2 Satz 2 KomWG",
    ),
    ("§ 34 Abs. 2 SächsGemO i. V. m. § 23 Satz 2 KomWG", "§ 30 Abs. 2 SächsLKrO i. V. m. § 23 Satz 2 KomWG"),
    ("§ 34 Abs. 2 i. V. m. § 31 SächsGemO", "§ 30 Abs. 2 i. V. m. § 27 SächsLKrO"),
    (rules::sn::BAR_CITATION, KREISTAG_BAR),
    ("§ 18 Abs. 1, 2 SächsGemO", "§ 16 SächsLKrO"),
    ("§ 18 Abs. 2 SächsGemO", "§ 16 SächsLKrO"),
    ("§ 34 SächsGemO (Ergänzungswahl)", "§ 30 Abs. 5 SächsLKrO (Ergänzungswahl)"),
];

/// The holidays of the SächsSFG that hold only in some municipalities (`body.local_holidays`): Fronleichnam
/// "nur in den vom Staatsministerium des Innern durch Rechtsverordnung bestimmten Regionen" (§ 1 Abs. 1
/// SächsSFG) — the FronleichnamsVO of 4 May 1993 (SächsGVBl. S. 417), mostly Sorbian Catholic municipalities
/// and Ortsteile of the Landkreis Bautzen (docs/legal.md, "Local holidays").
static LOCAL_HOLIDAYS: &[LocalHoliday] = &[LocalHoliday {
    code: "fronleichnam",
    holiday: Holiday::Easter { offset: 60, name: "Fronleichnam" },
    citation: "§ 1 Abs. 1 SächsSFG i. V. m. der FronleichnamsVO",
}];

/// § 1 Abs. 1 SächsSFG beyond the nationwide holidays (the Buß- und Bettag: [`buss_und_bettag`]). Fronleichnam
/// holds only in the places the FronleichnamsVO names: not known here (docs/legal.md, "Sachsen").
const HOLIDAYS: &[Holiday] = &[Holiday::Fixed { month: 10, day: 31, name: "Reformationsfest" }];

/// The Buß- und Bettag: the Wednesday before 23 November (16 to 22 November).
fn buss_und_bettag(d: NaiveDate) -> bool {
    d.month() == 11 && (16..=22).contains(&d.day()) && d.weekday() == Weekday::Wed
}

impl LandLaw for Sn {
    /// Several Wahlkreise (§ 2 Abs. 2, 3, § 22 KomWG): an exhausted Wahlvorschlag falls back to the party's
    /// Wahlvorschläge in the other Wahlkreise, as the surplus seats of § 22 Abs. 3 Satz 2 KomWG (**[decision]**:
    /// applied entsprechend; the council's resolution confirms every Ersatzperson, docs/legal.md).
    fn areas(&self, _kind: BodyKind) -> rules::Areas {
        rules::Areas::FallBack(rules::FallBack {
            citation: "§ 34 Abs. 2 SächsGemO i. V. m. § 22 Abs. 3 Satz 2 KomWG entsprechend",
            lot: "§ 22 Abs. 3 Satz 2 KomWG entsprechend",
        })
    }

    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        let readings = &s.body.readings;
        if readings.announcement.is_some() {
            return Err(ValidationError::new(
                "body.readings.announcement",
                "is an NRW reading (§ 45 Abs. 6 Satz 7 KWahlG NRW); in Sachsen nothing is announced (§ 34 Abs. 2 SächsGemO)",
            ));
        }
        super::refuse_district_substitute(readings)?;
        if s.body.electoral_system == ElectoralSystem::Majority && s.lists.len() != 1 {
            return Err(ValidationError::new(
                "lists",
                format!(
                    "a majority election (§ 23 KomWG) is recorded as exactly one list of all persons who received votes, found {}",
                    s.lists.len()
                ),
            ));
        }
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                let at = |field: &str| format!("lists[{li}].candidates[{ci}].{field}");
                if c.votes.is_none() {
                    return Err(ValidationError::new(
                        at("votes"),
                        "is required in a Sachsen body (§ 21 Abs. 2, § 23 KomWG rank the Ersatzpersonen by votes)",
                    ));
                }
                super::refuse_ersatzbewerber(
                    c,
                    || at("substitute_for"),
                    "in Sachsen the votes decide (§ 21 Abs. 2 KomWG)",
                )?;
                if c.district.is_some() {
                    return Err(ValidationError::new(
                        at("district"),
                        "is not used in Sachsen: record each Wahlkreis's Wahlvorschlag as a list of its own (§ 22 KomWG)",
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
                "party_banned is not modelled for Sachsen: who fills such seats (§ 34 SächsGemO) was not read (docs/legal.md)",
            )),
            Cause::ResultCorrected => Err(super::result_correction_not_read()),
            Cause::Merger => Err(super::merger_is_hessens(None)),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::sn::decide(body, q)
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        rules::sn::list_order(body, s, body.list(list))
    }

    /// § 1 Abs. 1 SächsSFG: Reformationsfest and Buß- und Bettag beyond the nationwide ones.
    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        holiday_in(&[NATIONWIDE, HOLIDAYS], d).or_else(|| buss_und_bettag(d).then_some("Buß- und Bettag"))
    }

    fn local_holidays(&self) -> &'static [LocalHoliday] {
        LOCAL_HOLIDAYS
    }

    /// § 4 Abs. 1 SächsVwVfZG applies the VwZG.
    fn service_act(&self) -> &'static str {
        "VwZG i. V. m. § 4 Abs. 1 SächsVwVfZG"
    }

    /// § 1 SächsVwVfZG applies the VwVfG.
    fn procedure_act(&self) -> &'static str {
        "VwVfG i. V. m. § 1 SächsVwVfZG"
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
