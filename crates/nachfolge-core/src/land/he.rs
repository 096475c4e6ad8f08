//! Hessen: Hessisches Kommunalwahlgesetz (KWG), § 34 "Nachrücken", with § 23 KWG (acquisition of
//! membership, bars), the Kommunalwahlordnung (KWO), the HVwZG, the HVwVfG and the Hessisches
//! Feiertagsgesetz. Who succeeds: `rules/he.rs`. Readings taken: docs/legal.md.

use chrono::NaiveDate;

use super::{Acceptance, LandLaw, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, ElectoralSystem, Snapshot, ValidationError};
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Hessen.
pub(super) struct He;

const COUNCIL: Procedure = Procedure {
    // § 34 Abs. 3 Satz 2 i. V. m. § 23 KWG
    acceptance: Acceptance::WithDetermination,
    reservation: Reservation::Refusal,
    determination_mail: "he_determination",
    // § 56 Abs. 2 KWO
    not_acquired_mail: Some("he_not_acquired"),
    next_round_citation: None,
    bar_citation: rules::he::BAR_CITATION,
    objection: Objection {
        span: Span::Weeks(2),
        reason: "two_weeks_after_announcement",
        citation: "§ 34 Abs. 4 Satz 1 i. V. m. § 25 Abs. 1 KWG",
    },
    review: Review {
        council_refused: None,
        citation: "§ 34 Abs. 4 Satz 2 KWG",
        council_in_place_of_officer: Some("§ 34 Abs. 4 Satz 3 KWG"),
    },
    texts: Texts {
        template_prefix: "he",
        determination_subject: "Feststellung des Nachrückens, Vertretung „{name}“",
        barred_subject: "Feststellung des Nachrückens, Vertretung „{name}“ – Nachweis über die Beseitigung des Hinderungsgrundes",
        announcement_basis: "§ 34 Abs. 3 Satz 1 KWG i. V. m. § 58 KWO",
        party_ban_basis: None,
        // § 25 KWG: only the voters of the Wahlkreis; supporters only for one who does not claim his own rights;
        // reasons in detail within the period (docs/legal.md, "Remedies")
        announcement_remedy: "Einspruch jeder wahlberechtigten Person des Wahlkreises binnen einer Ausschlussfrist von zwei Wochen nach der öffentlichen Bekanntmachung, schriftlich oder zur Niederschrift bei der Wahlleitung{office} und innerhalb der Frist im Einzelnen zu begründen; wer nicht die Verletzung eigener Rechte geltend macht, braucht die Unterstützung von eins vom Hundert der Wahlberechtigten, mindestens fünf, höchstens 100 (§ 34 Abs. 4 Satz 1 i. V. m. § 25 KWG)",
        review_basis: "§ 34 Abs. 4 KWG i. V. m. § 26 KWG",
        court_review_remedy: "keine Klage nach § 27 KWG: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_remedy: "Klage der Beteiligten und der Aufsichtsbehörde im Verwaltungsstreitverfahren vor dem Verwaltungsgericht{court} binnen eines Monats nach Zustellung oder Verkündung des Beschlusses, ohne Widerspruch (§ 34 Abs. 4 Satz 1 i. V. m. § 27 KWG)",
        review_final_remedy: "keiner: im Wahlprüfungsverfahren ist rechtskräftig entschieden (§ 34 Abs. 5 KWG)",
        successor_title: "Bekanntmachung über das Nachrücken in die Vertretung „{name}“",
        vacancy_title: "Bekanntmachung über das Leerbleiben eines Sitzes in der Vertretung „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft in der Vertretung „{name}“",
        not_acquired_subject: Some("Mitgliedschaft in der Vertretung „{name}“ rückwirkend nicht erworben (§ 23 Abs. 2 Satz 3 KWG)"),
        review_title: "Bekanntmachung der Entscheidung im Wahlprüfungsverfahren über das Nachrücken in die Vertretung „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über das Nachrücken in die Vertretung „{name}“",
    },
};

/// A council (`body.kind = council`).
static PROCEDURE: Procedure = COUNCIL;

/// A Kreistag: the council's procedure with the Kreistag's norms and words (docs/legal.md, "Kreistage").
static KREISTAG: Procedure = Procedure {
    texts: Texts {
        determination_subject: "Feststellung des Nachrückens, Kreistag „{name}“",
        barred_subject: "Feststellung des Nachrückens, Kreistag „{name}“ – Nachweis über die Beseitigung des Hinderungsgrundes",
        announcement_remedy: "Einspruch jeder wahlberechtigten Person des Wahlkreises binnen einer Ausschlussfrist von zwei Wochen nach der öffentlichen Bekanntmachung, schriftlich oder zur Niederschrift bei der Kreiswahlleitung{office} und innerhalb der Frist im Einzelnen zu begründen; wer nicht die Verletzung eigener Rechte geltend macht, braucht die Unterstützung von eins vom Hundert der Wahlberechtigten, mindestens fünf, höchstens 100 (§ 34 Abs. 4 Satz 1 i. V. m. § 25 KWG)",
        successor_title: "Bekanntmachung über das Nachrücken in den Kreistag „{name}“",
        vacancy_title: "Bekanntmachung über das Leerbleiben eines Sitzes im Kreistag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft im Kreistag „{name}“",
        not_acquired_subject: Some("Mitgliedschaft im Kreistag „{name}“ rückwirkend nicht erworben (§ 23 Abs. 2 Satz 3 KWG)"),
        review_title: "Bekanntmachung der Entscheidung im Wahlprüfungsverfahren über das Nachrücken in den Kreistag „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über das Nachrücken in den Kreistag „{name}“",
        ..COUNCIL.texts
    },
    ..COUNCIL
};

/// The holidays of Hessen beyond the nationwide ones (§ 1 HFeiertagsG), which also lists Ostersonntag and
/// Pfingstsonntag (Sundays anyway).
const HOLIDAYS: &[Holiday] = &[
    Holiday::Easter { offset: 0, name: "Ostersonntag" },
    Holiday::Easter { offset: 49, name: "Pfingstsonntag" },
    Holiday::Easter { offset: 60, name: "Fronleichnam" },
];

impl LandLaw for He {
    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        if s.body.electoral_system == ElectoralSystem::Majority && s.lists.len() != 1 {
            return Err(ValidationError::new(
                "lists",
                format!("a majority election has exactly one admitted list (§ 1 Abs. 2 KWG), found {}", s.lists.len()),
            ));
        }
        let readings = &s.body.readings;
        if readings.announcement.is_some() {
            return Err(ValidationError::new(
                "body.readings.announcement",
                "is an NRW reading (§ 45 Abs. 6 Satz 7 KWahlG NRW); in Hessen the determination is announced at once (§ 34 Abs. 3 Satz 1 KWG)",
            ));
        }
        if readings.district_substitute.is_some() {
            return Err(ValidationError::new(
                "body.readings.district_substitute",
                "is an NRW reading (§ 45 Abs. 4 KWahlG NRW); Ersatzbewerber exist only in NRW",
            ));
        }
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                if c.votes.is_none() {
                    return Err(ValidationError::new(
                        format!("lists[{li}].candidates[{ci}].votes"),
                        "is required in a Hessen body (§ 34 Abs. 1 KWG ranks by personal votes)",
                    ));
                }
                if c.substitute_designation.is_some() {
                    return Err(ValidationError::new(
                        format!("lists[{li}].candidates[{ci}].substitute_designation"),
                        "Ersatzbewerber exist only in NRW (§ 45 Abs. 2, 4 KWahlG NRW)",
                    ));
                }
                if c.substitute_for.is_some() {
                    return Err(ValidationError::new(
                        format!("lists[{li}].candidates[{ci}].substitute_for"),
                        "Ersatzbewerber exist only in NRW (§ 45 Abs. 2 KWahlG NRW)",
                    ));
                }
            }
        }
        Ok(())
    }

    fn validate_cause(&self, cause: Cause) -> Result<(), ValidationError> {
        match cause {
            Cause::ResultCorrected => Err(super::result_correction_not_read()),
            Cause::Ordinary | Cause::Merger => Ok(()),
            Cause::PartyBan { .. } => Err(ValidationError::new(
                "reason",
                "party_banned is an NRW reason (§ 46 KWahlG NRW); no rule for a party ban is modelled for Hessen (docs/legal.md)",
            )),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::he::decide(body, q)
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        rules::he::list_order(s, body.list(list), body.info().electoral_system == ElectoralSystem::Majority)
    }

    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        holiday_in(&[NATIONWIDE, HOLIDAYS], d)
    }

    fn service_act(&self) -> &'static str {
        "HVwZG"
    }

    fn procedure_act(&self) -> &'static str {
        "HVwVfG"
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
}
