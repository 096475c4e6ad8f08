//! Sachsen-Anhalt: Kommunalwahlgesetz (KWG LSA) §§ 41, 43, 47–53, the Kommunalwahlordnung (KWO LSA) § 75, the
//! Kommunalverfassungsgesetz (KVG LSA) §§ 41, 42, the VwZG LSA (which applies the VwZG), the VwVfG LSA and the
//! Feiertagsgesetz (FeiertG LSA). Who succeeds: `rules/st.rs`. Readings taken: docs/legal.md,
//! "Sachsen-Anhalt".

use chrono::NaiveDate;

use super::{Acceptance, BarEffect, LandLaw, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, ElectoralSystem, Snapshot, ValidationError};
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Sachsen-Anhalt.
pub(super) struct St;

const COUNCIL: Procedure = Procedure {
    // § 75 Abs. 1 KWO LSA i. V. m. § 43 KWG LSA: served, one week, silence is acceptance from the start of the
    // next day, a reservation is refusal, a refusal cannot be withdrawn; not before the predecessor left
    // (§ 43 Abs. 2). A barred successor must end the bar before he accepts (§ 42 Abs. 1 Nr. 3 KVG LSA).
    acceptance: Acceptance::Declaration,
    reservation: Reservation::Refusal,
    determination_mail: "st_offer",
    not_acquired_mail: None,
    // a refusal: he "scheidet als nächst festgestellter Bewerber aus", the next one succeeds
    next_round_citation: Some("§ 48 Abs. 1 Satz 1 KWG LSA, § 42 Abs. 4 KVG LSA"),
    bar_citation: rules::st::BAR_CITATION,
    // the Wahleinspruch against a Feststellung made after the result was announced (§ 50 Abs. 3 KWG LSA)
    objection: Objection {
        span: Span::Weeks(2),
        reason: "two_weeks_after_announcement",
        citation: "§ 50 Abs. 3 Satz 1 KWG LSA",
    },
    // the Vertretung decides (§ 52 Abs. 2 KWG LSA)
    review: Review { council_refused: None, citation: "§ 52 Abs. 2 KWG LSA", council_in_place_of_officer: None },
    texts: Texts {
        template_prefix: "st",
        determination_subject: "Übergang eines Sitzes in der Vertretung „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Übergang eines Sitzes in der Vertretung „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis über die Beseitigung des Hinderungsgrundes",
        announcement_basis: "§ 75 Abs. 1 Satz 3 KWO LSA",
        party_ban_basis: Some("§ 75 Abs. 3 KWO LSA"),
        announcement_remedy: "Wahleinspruch jeder wahlberechtigten Person des Wahlgebiets, jeder Partei oder Wählergruppe, die einen Wahlvorschlag eingereicht hat, und der Kommunalaufsichtsbehörde binnen zwei Wochen nach der Bekanntgabe, mit Begründung schriftlich oder zur Niederschrift bei der Wahlleitung{office}; wem die Feststellung zugestellt wurde, für den beginnt die Frist mit der Zustellung (§ 50 Abs. 1 bis 3 KWG LSA)",
        review_basis: "§ 52 Abs. 2 KWG LSA",
        review_remedy: "Klage vor dem Verwaltungsgericht{court} binnen eines Monats nach Zustellung der Entscheidung der Vertretung (§ 53 KWG LSA)",
        court_review_remedy: "keine Klage nach § 53 KWG LSA: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_final_remedy: "keiner: die Entscheidung ist unanfechtbar",
        successor_title: "Bekanntmachung über den Übergang eines Sitzes in der Vertretung „{name}“",
        vacancy_title: "Bekanntmachung über das Unbesetztbleiben eines Sitzes in der Vertretung „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft in der Vertretung „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Wahleinsprüche gegen den Übergang eines Sitzes in der Vertretung „{name}“",
        not_acquired_subject: None,
        correction_title: "Berichtigung der Bekanntmachung über den Übergang eines Sitzes in der Vertretung „{name}“",
    },
};

/// A council (`body.kind = council`).
static PROCEDURE: Procedure = COUNCIL;

/// A Kreistag: the council's procedure with the Kreistag's norms and words (docs/legal.md, "Kreistage").
static KREISTAG: Procedure = Procedure {
    texts: Texts {
        determination_subject: "Übergang eines Sitzes im Kreistag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Übergang eines Sitzes im Kreistag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis über die Beseitigung des Hinderungsgrundes",
        announcement_remedy: "Wahleinspruch jeder wahlberechtigten Person des Wahlgebiets, jeder Partei oder Wählergruppe, die einen Wahlvorschlag eingereicht hat, und der Kommunalaufsichtsbehörde binnen zwei Wochen nach der Bekanntgabe, mit Begründung schriftlich oder zur Niederschrift bei der Kreiswahlleitung{office}; wem die Feststellung zugestellt wurde, für den beginnt die Frist mit der Zustellung (§ 50 Abs. 1 bis 3 KWG LSA)",
        review_remedy: "Klage vor dem Verwaltungsgericht{court} binnen eines Monats nach Zustellung der Entscheidung des Kreistags (§ 53 KWG LSA)",
        successor_title: "Bekanntmachung über den Übergang eines Sitzes im Kreistag „{name}“",
        vacancy_title: "Bekanntmachung über das Unbesetztbleiben eines Sitzes im Kreistag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft im Kreistag „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Wahleinsprüche gegen den Übergang eines Sitzes im Kreistag „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über den Übergang eines Sitzes im Kreistag „{name}“",
        ..COUNCIL.texts
    },
    ..COUNCIL
};

/// § 2 FeiertG LSA beyond the nationwide holidays: Heilige Drei Könige and Reformationstag, uniform for the
/// whole Land (Buß- und Bettag is no Feiertag, § 5).
const HOLIDAYS: &[Holiday] = &[
    Holiday::Fixed { month: 1, day: 6, name: "Heilige Drei Könige" },
    Holiday::Fixed { month: 10, day: 31, name: "Reformationstag" },
];

impl LandLaw for St {
    /// Several Wahlbereiche: an exhausted Wahlvorschlag falls back to the party's Wahlvorschläge in the other
    /// Wahlbereiche (§ 47 Abs. 3 Satz 1 KWG LSA; its wording after "in einem Wah…" could not be read: order by
    /// votes and the lot are a **[decision]**, docs/legal.md, "Several Wahlbereiche").
    fn areas(&self, _kind: BodyKind) -> rules::Areas {
        rules::Areas::FallBack(rules::FallBack {
            citation: "§ 47 Abs. 3 Satz 1 KWG LSA",
            lot: "§ 47 Abs. 3 Satz 1 KWG LSA",
        })
    }

    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        super::refuse_district_substitute(&s.body.readings)?;
        if s.body.electoral_system == ElectoralSystem::Majority && s.lists.len() != 1 {
            return Err(ValidationError::new(
                "lists",
                format!(
                    "a majority election (§ 3 Abs. 2 Satz 2 KWG LSA) is recorded as exactly one list of its candidates, found {}",
                    s.lists.len()
                ),
            ));
        }
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                super::refuse_ersatzbewerber(
                    c,
                    || format!("lists[{li}].candidates[{ci}].substitute_for"),
                    "in Sachsen-Anhalt the votes decide (§ 41 Abs. 2 KWG LSA)",
                )?;
                if c.district.is_some() {
                    return Err(ValidationError::new(
                        format!("lists[{li}].candidates[{ci}].district"),
                        "is an NRW field; in Sachsen-Anhalt record the Wahlvorschlag of the departed's Wahlbereich as its own list (§ 41 Abs. 1 KWG LSA)",
                    ));
                }
            }
        }
        Ok(())
    }

    fn validate_cause(&self, cause: Cause) -> Result<(), ValidationError> {
        match cause {
            // § 47 Abs. 2 Nr. 1 (the banned party's own Wahlvorschlag) and Nr. 2 (`rules::st::PARTY_BAN_SEAT`)
            Cause::Ordinary | Cause::PartyBan { .. } => Ok(()),
            Cause::ResultCorrected => Err(super::result_correction_not_read()),
            Cause::Merger => Err(super::merger_is_hessens(Some("KWG LSA"))),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::st::decide(body, q)
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        rules::st::list_order(s, body.list(list), body.info().electoral_system == ElectoralSystem::Majority)
    }

    /// § 2 FeiertG LSA.
    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        holiday_in(&[NATIONWIDE, HOLIDAYS], d)
    }

    /// § 1 Abs. 1 VwZG LSA: §§ 2 to 10 VwZG in their current version.
    fn service_act(&self) -> &'static str {
        "VwZG i. V. m. § 1 Abs. 1 VwZG LSA"
    }

    /// § 1 Abs. 1 VwVfG LSA applies the VwVfG of the Bund; see [`LandLaw::extension_citation`].
    fn procedure_act(&self) -> &'static str {
        "VwVfG LSA"
    }

    /// [decision] § 31 Abs. 3 Satz 1 VwVfG, applied by § 1 Abs. 1 VwVfG LSA (docs/legal.md, "Sachsen-Anhalt").
    fn extension_citation(&self) -> String {
        "§ 31 Abs. 3 Satz 1 VwVfG i. V. m. § 1 Abs. 1 VwVfG LSA".to_owned()
    }

    /// § 42 Abs. 1 Nr. 3 KVG LSA: "verliert … sein Mandat, wenn … ein Hinderungsgrund nach § 41 Abs. 1, 2 oder 3
    /// bereits zum Zeitpunkt der Annahme der Wahl vorliegt" — no deemed refusal; silence is acceptance (§ 43
    /// Abs. 1 Satz 2 KWG LSA), and the mandate is lost at once (docs/legal.md, "Sachsen-Anhalt").
    fn bar_effect(&self) -> BarEffect {
        BarEffect::LostAtAcceptance
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
