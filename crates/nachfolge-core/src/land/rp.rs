//! Rheinland-Pfalz: Kommunalwahlgesetz (KWG), § 45 "Ersatzpersonen" with § 44 (Benachrichtigung, Annahme)
//! and § 5 (Unvereinbarkeit), the Kommunalwahlordnung (KWO) §§ 64, 66, § 29 Abs. 4 GemO, the LVwZG (which
//! applies the VwZG), the VwGO (Widerspruch) and the Feiertagsgesetz (LFtG). Who succeeds: `rules/rp.rs`.
//! Readings taken: docs/legal.md, "Rheinland-Pfalz".

use chrono::NaiveDate;

use super::{Acceptance, LandLaw, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, ElectoralSystem, Snapshot, ValidationError};
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Rheinland-Pfalz.
pub(super) struct Rp;

const COUNCIL: Procedure = Procedure {
    // § 45 Abs. 5 i. V. m. § 44 KWG, § 66 Abs. 1 Satz 4 i. V. m. § 64 KWO: one week after service, silence is
    // acceptance, a reservation is refusal, a refusal cannot be withdrawn, a barred successor must prove
    acceptance: Acceptance::Declaration,
    reservation: Reservation::Refusal,
    determination_mail: "rp_offer",
    // the declaration model: a barred Ersatzperson who does not prove is deemed to refuse; nothing is undone
    not_acquired_mail: None,
    // a refusal: "ist eine Ersatzperson einzuberufen" again
    next_round_citation: Some("§ 45 Abs. 1 KWG"),
    bar_citation: rules::rp::BAR_CITATION,
    // [decision] the KWG has no remedy of its own against the call of an Ersatzperson (§ 48 KWG covers the
    // validity of the election): the Widerspruch of the VwGO (docs/legal.md, "Rheinland-Pfalz")
    objection: Objection {
        span: Span::Months(1),
        reason: "one_month_after_announcement",
        citation: "§ 70 Abs. 1 Satz 1 VwGO",
    },
    review: Review {
        council_refused: Some(
            "decided_by: in Rheinland-Pfalz the Widerspruch against the returning officer's determination is decided by him (Abhilfe, § 72 VwGO) or the Widerspruchsbehörde (§ 73 VwGO), not by the council",
        ),
        citation: "§§ 72, 73 VwGO",
        council_in_place_of_officer: None,
    },
    texts: Texts {
        template_prefix: "rp",
        determination_subject: "Einberufung als Ersatzperson, Vertretung „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Einberufung als Ersatzperson, Vertretung „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis nach § 64 Abs. 2 KWO",
        announcement_basis: "§ 66 Abs. 3 KWO",
        party_ban_basis: None,
        announcement_remedy: "Widerspruch binnen eines Monats nach Bekanntgabe, schriftlich oder zur Niederschrift bei der Wahlleitung{office} (§§ 68, 70 VwGO)",
        review_basis: "§§ 72, 73 VwGO",
        review_remedy: "Klage vor dem Verwaltungsgericht{court} binnen eines Monats nach Zustellung des Widerspruchsbescheids (§ 74 Abs. 1 Satz 1 VwGO)",
        court_review_remedy: "keine Klage: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_final_remedy: "keiner: die Entscheidung ist unanfechtbar",
        successor_title: "Bekanntmachung über die Einberufung einer Ersatzperson in die Vertretung „{name}“",
        vacancy_title: "Bekanntmachung über das Fehlen einer Ersatzperson für einen Sitz in der Vertretung „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft in der Vertretung „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Widersprüche gegen die Einberufung einer Ersatzperson in die Vertretung „{name}“",
        not_acquired_subject: None,
        correction_title: "Berichtigung der Bekanntmachung über die Einberufung einer Ersatzperson in die Vertretung „{name}“",
    },
};

/// A council (`body.kind = council`).
static PROCEDURE: Procedure = COUNCIL;

/// Why a barred successor to a Kreistag is passed over or must prove the end of the bar (docs/legal.md, "Kreistage").
const KREISTAG_BAR: &str = "§ 55 Abs. 1 KWG, § 66 Abs. 1 Satz 4 i. V. m. § 64 Abs. 2 KWO";

/// A Kreistag: the council's procedure with the Kreistag's norms and words (docs/legal.md, "Kreistage").
static KREISTAG: Procedure = Procedure {
    bar_citation: KREISTAG_BAR,
    texts: Texts {
        determination_subject: "Einberufung als Ersatzperson, Kreistag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Einberufung als Ersatzperson, Kreistag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis nach § 64 Abs. 2 KWO",
        announcement_remedy: "Widerspruch binnen eines Monats nach Bekanntgabe, schriftlich oder zur Niederschrift bei der Kreiswahlleitung{office} (§§ 68, 70 VwGO)",
        successor_title: "Bekanntmachung über die Einberufung einer Ersatzperson in den Kreistag „{name}“",
        vacancy_title: "Bekanntmachung über das Fehlen einer Ersatzperson für einen Sitz im Kreistag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft im Kreistag „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Widersprüche gegen die Einberufung einer Ersatzperson in den Kreistag „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über die Einberufung einer Ersatzperson in den Kreistag „{name}“",
        ..COUNCIL.texts
    },
    ..COUNCIL
};

/// Why a barred successor to the Bezirkstag Pfalz must prove the end of the bar: the proof of § 64 Abs. 2 KWO;
/// **[open]** the Unvereinbarkeit norm of the Bezirksordnung was not read (docs/legal.md, "Point 10: Bezirkstage").
const BEZIRKSTAG_BAR: &str = "§ 66 Abs. 1 Satz 4 i. V. m. § 64 Abs. 2 KWO";

/// The Bezirkstag des Bezirksverbands Pfalz: the council's procedure (§ 66 Abs. 1 Satz 4, § 64 KWO apply to every
/// Ersatzperson) with the Bezirkstag's words (docs/legal.md, "Point 10: Bezirkstage").
static BEZIRKSTAG: Procedure = Procedure {
    bar_citation: BEZIRKSTAG_BAR,
    texts: Texts {
        determination_subject: "Einberufung als Ersatzperson, Bezirkstag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Einberufung als Ersatzperson, Bezirkstag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis nach § 64 Abs. 2 KWO",
        successor_title: "Bekanntmachung über die Einberufung einer Ersatzperson in den Bezirkstag „{name}“",
        vacancy_title: "Bekanntmachung über das Fehlen einer Ersatzperson für einen Sitz im Bezirkstag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft im Bezirkstag „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Widersprüche gegen die Einberufung einer Ersatzperson in den Bezirkstag „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über die Einberufung einer Ersatzperson in den Bezirkstag „{name}“",
        ..COUNCIL.texts
    },
    ..COUNCIL
};

/// The rule set's citations that differ for a Kreistag (`LandLaw::kreistag_citations`; docs/legal.md, "Kreistage").
static KREISTAG_CITATIONS: &[(&str, &str)] =
    &[(rules::rp::BAR_CITATION, KREISTAG_BAR), ("§ 29 Abs. 4 GemO", "§ 22 LKO")];

/// § 2 Abs. 1 Landesgesetz über den Schutz der Sonn- und Feiertage (LFtG). A holiday the Landesregierung
/// declares once by Rechtsverordnung (§ 2 Abs. 2 LFtG) is not known here (docs/legal.md).
const HOLIDAYS: &[Holiday] = &[
    Holiday::Easter { offset: 60, name: "Fronleichnam" },
    Holiday::Fixed { month: 11, day: 1, name: "Allerheiligen" },
];

impl LandLaw for Rp {
    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        let readings = &s.body.readings;
        if readings.period_end.is_some() {
            return Err(ValidationError::new(
                "body.readings.period_end",
                "is not a reading in Rheinland-Pfalz: § 193 BGB extends every period over Saturdays, Sundays and holidays",
            ));
        }
        super::refuse_district_substitute(readings)?;
        if s.body.kind == BodyKind::Bezirkstag {
            return validate_bezirkstag(s);
        }
        if s.body.electoral_system == ElectoralSystem::Majority && s.lists.len() != 1 {
            return Err(ValidationError::new(
                "lists",
                format!(
                    "a majority election (§ 22 KWG) is recorded as exactly one list of the persons who received votes, found {}",
                    s.lists.len()
                ),
            ));
        }
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                if c.votes.is_none() {
                    return Err(ValidationError::new(
                        format!("lists[{li}].candidates[{ci}].votes"),
                        "is required in a Rheinland-Pfalz body (§ 45 Abs. 2 Satz 2, Abs. 3 Satz 1 KWG rank by votes)",
                    ));
                }
                super::refuse_ersatzbewerber(
                    c,
                    || format!("lists[{li}].candidates[{ci}].substitute_for"),
                    "in Rheinland-Pfalz the votes decide (§ 45 Abs. 2 KWG)",
                )?;
            }
        }
        Ok(())
    }

    /// § 193 BGB extends every period that ends on a Saturday, Sunday or holiday (docs/legal.md,
    /// "Rheinland-Pfalz"): no reading to choose.
    fn period_end_open(&self) -> bool {
        false
    }

    fn validate_cause(&self, cause: Cause) -> Result<(), ValidationError> {
        match cause {
            Cause::Ordinary => Ok(()),
            // § 46 Abs. 1 KWG: the member loses the seat; the Wahlleiter decides on it (`rules::rp::PARTY_BAN_SEAT`)
            Cause::PartyBan { .. } => Ok(()),
            Cause::ResultCorrected => Err(super::result_correction_not_read()),
            Cause::Merger => Err(super::merger_is_hessens(Some("KWG Rheinland-Pfalz"))),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::rp::decide(body, q)
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        if body.info().kind == BodyKind::Bezirkstag {
            return rules::rp::list_order_bezirkstag(s, body.list(list));
        }
        rules::rp::list_order(s, body.list(list), body.info().electoral_system == ElectoralSystem::Majority)
    }

    /// § 2 Abs. 1 Landesgesetz über den Schutz der Sonn- und Feiertage (LFtG). A holiday the Landesregierung
    /// declares once by Rechtsverordnung (§ 2 Abs. 2 LFtG) is not known here (docs/legal.md).
    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        holiday_in(&[NATIONWIDE, HOLIDAYS], d)
    }

    fn service_act(&self) -> &'static str {
        "VwZG i. V. m. § 1 Abs. 1 LVwZG"
    }

    /// The LVwVfG does not apply to procedures under the KWG (§ 1 Abs. 3 Nr. 6 LVwVfG); see
    /// [`LandLaw::extension_citation`].
    fn procedure_act(&self) -> &'static str {
        "LVwVfG"
    }

    /// [decision] § 31 Abs. 3 VwVfG does not apply (§ 1 Abs. 3 Nr. 6 LVwVfG); a declaration due within a
    /// period that ends on a Saturday, Sunday or public holiday may be made on the next working day (§ 193
    /// BGB, applied to periods of public law).
    fn extension_citation(&self) -> String {
        "§ 193 BGB".to_owned()
    }

    fn procedure(&self, kind: BodyKind) -> &'static Procedure {
        match kind {
            BodyKind::Council => &PROCEDURE,
            BodyKind::Kreistag => &KREISTAG,
            BodyKind::Bezirkstag => &BEZIRKSTAG,
            // refused at validation: the Regionalversammlung is Saarland's
            BodyKind::Regionalversammlung => &PROCEDURE,
        }
    }

    fn kreistag_citations(&self) -> &'static [(&'static str, &'static str)] {
        KREISTAG_CITATIONS
    }
}

/// The Bezirkstag des Bezirksverbands Pfalz (§ 56 KWG): a Verhältniswahl with closed lists — every Bewerber has
/// his position (Nr. 2), votes are not needed (Nr. 1: one vote for a Wahlvorschlag), a Nachfolger is named for
/// at most one Bewerber of the same Wahlvorschlag (`substitute_for`; Nr. 3, the generic check), beside the
/// Bewerber or from among them (docs/legal.md, "Point 10: Bezirkstage").
fn validate_bezirkstag(s: &Snapshot) -> Result<(), ValidationError> {
    if s.body.electoral_system == ElectoralSystem::Majority {
        return Err(ValidationError::new(
            "body.electoral_system",
            "the Bezirkstag Pfalz is elected by Verhältniswahl with closed lists (§ 56 Abs. 1 Satz 1 Nr. 1, 2 KWG); there is no majority election",
        ));
    }
    for (li, list) in s.lists.iter().enumerate() {
        for (ci, c) in list.candidates.iter().enumerate() {
            let path = format!("lists[{li}].candidates[{ci}]");
            if c.substitute_designation.is_some() {
                return Err(ValidationError::new(
                    format!("{path}.substitute_designation"),
                    "is an NRW designation (§ 45 Abs. 4 KWahlG NRW); a Nachfolger for the Bezirkstag Pfalz is named with substitute_for (§ 56 Abs. 1 Satz 1 Nr. 3 KWG)",
                ));
            }
            if c.position.is_none() && c.substitute_for.is_none() {
                return Err(ValidationError::new(
                    format!("{path}.position"),
                    "is required for a Bewerber of the Bezirkstag Pfalz (closed lists, § 56 Abs. 1 Satz 1 Nr. 2 KWG); only a Nachfolger named beside the Bewerber (substitute_for) stands without one",
                ));
            }
        }
    }
    Ok(())
}
