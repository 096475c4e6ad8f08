//! Brandenburg: Brandenburgisches Kommunalwahlgesetz (BbgKWahlG) § 12 (Unvereinbarkeit), § 51 (Erwerb der
//! Mitgliedschaft), §§ 55, 56, 58 (Wahleinspruch, Wahlprüfung), §§ 59 to 62 (Verlust, Berufung und
//! Ausscheiden von Ersatzpersonen, Verbot), the Kommunalwahlverordnung (BbgKWahlV) § 80, the BbgVwZG (which
//! applies the VwZG), the VwVfGBbg (which applies the VwVfG) and the Feiertagsgesetz (FTG). Who succeeds:
//! `rules/bb.rs`. Readings taken: docs/legal.md, "Brandenburg".

use chrono::NaiveDate;

use super::{Acceptance, LandLaw, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, ElectoralSystem, ListKind, SeatVia, Snapshot, ValidationError};
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Brandenburg.
pub(super) struct Bb;

const COUNCIL: Procedure = Procedure {
    // § 51 Abs. 1 BbgKWahlG, applied to the Ersatzperson by § 80 Abs. 1 Satz 1 BbgKWahlV ("weist sie auf § 51
    // … hin") and § 51 Abs. 2 Satz 4: a written declaration within one week; silence is acceptance "mit
    // Beginn des folgenden Tages"; a refusal cannot be withdrawn
    acceptance: Acceptance::Declaration,
    // § 51 Abs. 1 Satz 3: "Eine Erklärung unter Vorbehalt gilt als Ablehnung."
    reservation: Reservation::Refusal,
    determination_mail: "bb_offer",
    not_acquired_mail: None,
    // a refusal: the seat passes to the next Ersatzperson in the order (§ 60 Abs. 3 Satz 1)
    next_round_citation: Some("§ 60 Abs. 3 Satz 1 BbgKWahlG"),
    bar_citation: rules::bb::BAR_CITATION,
    // [decision] the Wahleinspruch (§ 55 BbgKWahlG; the Ersatzperson is a Beteiligter, § 56 Abs. 2) within two
    // weeks after the announcement; § 55 itself could not be read (docs/legal.md, "Brandenburg", [open])
    objection: Objection {
        span: Span::Weeks(2),
        reason: "two_weeks_after_announcement",
        citation: "§ 55 BbgKWahlG",
    },
    review: Review {
        // § 56 Abs. 1 BbgKWahlG: "Die Wahlprüfung obliegt der neugewählten Vertretung."
        council_refused: None,
        citation: "§§ 55, 56 BbgKWahlG",
        council_in_place_of_officer: None,
    },
    texts: Texts {
        template_prefix: "bb",
        determination_subject: "Übergang eines Sitzes in der Vertretung „{name}“ auf Sie als Ersatzperson – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Übergang eines Sitzes in der Vertretung „{name}“ auf Sie als Ersatzperson – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis nach § 51 Abs. 2 BbgKWahlG",
        announcement_basis: "§ 60 Abs. 7 BbgKWahlG, § 80 Abs. 1 Satz 2, Abs. 3 BbgKWahlV",
        party_ban_basis: Some("§ 62 Abs. 3 BbgKWahlG, § 80 Abs. 3 BbgKWahlV"),
        announcement_remedy: "Wahleinspruch binnen zwei Wochen nach der Bekanntmachung bei der Wahlleitung{office} (§ 55 BbgKWahlG)",
        review_basis: "§§ 55, 56 BbgKWahlG",
        review_remedy: "Klage vor dem Verwaltungsgericht{court} binnen eines Monats nach Bekanntgabe; ein Widerspruchsverfahren findet nicht statt (§ 58 Abs. 2 BbgKWahlG)",
        court_review_remedy: "keine Klage: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_final_remedy: "keiner: die Entscheidung ist unanfechtbar",
        successor_title: "Bekanntmachung über den Übergang eines Sitzes in der Vertretung „{name}“ auf eine Ersatzperson",
        vacancy_title: "Bekanntmachung über einen unbesetzt bleibenden Sitz in der Vertretung „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft in der Vertretung „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Wahleinsprüche gegen den Übergang eines Sitzes in der Vertretung „{name}“",
        not_acquired_subject: None,
        correction_title: "Berichtigung der Bekanntmachung über den Übergang eines Sitzes in der Vertretung „{name}“ auf eine Ersatzperson",
    },
};

/// A council (`body.kind = council`).
static PROCEDURE: Procedure = COUNCIL;

/// A Kreistag: the BbgKWahlG governs the elections to the Gemeindevertretungen and the Kreistage alike (§ 1
/// BbgKWahlG; the succession §§ 60–62 and the acceptance § 51 speak of the "Vertretung"), so only the words
/// change (docs/legal.md, "Kreistage": Brandenburg).
static KREISTAG: Procedure = Procedure {
    texts: Texts {
        determination_subject: "Übergang eines Sitzes im Kreistag „{name}“ auf Sie als Ersatzperson – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Übergang eines Sitzes im Kreistag „{name}“ auf Sie als Ersatzperson – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis nach § 51 Abs. 2 BbgKWahlG",
        announcement_remedy: "Wahleinspruch binnen zwei Wochen nach der Bekanntmachung bei der Kreiswahlleitung{office} (§ 55 BbgKWahlG)",
        successor_title: "Bekanntmachung über den Übergang eines Sitzes im Kreistag „{name}“ auf eine Ersatzperson",
        vacancy_title: "Bekanntmachung über einen unbesetzt bleibenden Sitz im Kreistag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft im Kreistag „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Wahleinsprüche gegen den Übergang eines Sitzes im Kreistag „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über den Übergang eines Sitzes im Kreistag „{name}“ auf eine Ersatzperson",
        ..COUNCIL.texts
    },
    ..COUNCIL
};

/// § 2 Abs. 1 FTG beyond the nationwide holidays: Ostersonntag and Pfingstsonntag (Sundays anyway) and the
/// Reformationsfest. The 8. Mai is a Gedenktag (§ 2 Abs. 2), no Feiertag.
const HOLIDAYS: &[Holiday] = &[
    Holiday::Easter { offset: 0, name: "Ostersonntag" },
    Holiday::Easter { offset: 49, name: "Pfingstsonntag" },
    Holiday::Fixed { month: 10, day: 31, name: "Reformationstag" },
];

impl LandLaw for Bb {
    /// Several Wahlkreise (§ 32 BbgKWahlG): each Wahlkreis's Wahlvorschlag on its own — the seat passes to "die in
    /// der Reihenfolge erste Ersatzperson des Wahlvorschlages, auf dem die ausgeschiedene Person gewählt worden
    /// ist" (§ 60 Abs. 3 Satz 1 BbgKWahlG); no fall-back to other Wahlkreise was read.
    fn areas(&self, _kind: BodyKind) -> rules::Areas {
        rules::Areas::Separate(
            "Brandenburg has no fall-back to the party's other Wahlkreise (§ 60 Abs. 3 Satz 1 BbgKWahlG: the Wahlvorschlag on which the departed was elected): record each Wahlkreis's Wahlvorschlag with its area and without a party key",
        )
    }

    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        // § 5 Abs. 1 Satz 2 BbgKWahlG: Mehrheits- und Persönlichkeitswahl where only one Wahlvorschlag or only
        // Einzelwahlvorschläge were admitted (docs/legal.md, "Point 6: Mehrheitswahl")
        let only_individuals = s.lists.iter().all(|l| l.kind == ListKind::Individual);
        if s.body.electoral_system == ElectoralSystem::Majority && !only_individuals {
            super::majority_one_list(s, "§ 5 Abs. 1 Satz 2 BbgKWahlG")?;
            // [decision] § 60 Abs. 1: the Ersatzpersonen are the not elected Bewerbende **of the Wahlvorschlag**;
            // whether a person not proposed who received votes is one was not read
            for (li, list) in s.lists.iter().enumerate() {
                if let Some(ci) = list.candidates.iter().position(|c| c.position.is_none()) {
                    return Err(ValidationError::new(
                        format!("lists[{li}].candidates[{ci}].position"),
                        "is required in a Brandenburg majority election: the Ersatzpersonen are the Bewerbende of the one admitted Wahlvorschlag (§ 60 Abs. 1 BbgKWahlG); a person not proposed is not modelled",
                    ));
                }
            }
        }
        super::refuse_district_substitute(&s.body.readings)?;
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                let path = format!("lists[{li}].candidates[{ci}]");
                super::refuse_ersatzbewerber(
                    c,
                    || format!("{path}.substitute_for"),
                    "in Brandenburg the votes decide (§ 60 Abs. 2 BbgKWahlG)",
                )?;
                if let Some(seat) = &c.seat {
                    if seat.via == SeatVia::PersonalVote {
                        return Err(ValidationError::new(
                            format!("{path}.seat.via"),
                            "is list or succession in Brandenburg",
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn validate_cause(&self, cause: Cause) -> Result<(), ValidationError> {
        match cause {
            // § 62 Abs. 3: every seat freed by the ban stays vacant, whatever Wahlvorschlag it was won on
            Cause::Ordinary | Cause::PartyBan { .. } => Ok(()),
            // § 59 Abs. 1 Nr. 4: the corrected result allots the seat (`rules::bb::RESULT_CORRECTED`)
            Cause::ResultCorrected => Ok(()),
            Cause::Merger => Err(super::merger_is_hessens(Some("BbgKWahlG"))),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::bb::decide(body, q)
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        rules::bb::list_order(s, body.list(list))
    }

    /// § 2 Abs. 1 FTG.
    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        holiday_in(&[NATIONWIDE, HOLIDAYS], d)
    }

    /// § 1 Abs. 1 BbgVwZG applies §§ 2 to 10 VwZG "in der jeweils geltenden Fassung".
    fn service_act(&self) -> &'static str {
        "VwZG i. V. m. § 1 Abs. 1 BbgVwZG"
    }

    /// § 1 Abs. 1 VwVfGBbg applies the VwVfG (not re-read, docs/legal.md).
    fn procedure_act(&self) -> &'static str {
        "VwVfG i. V. m. § 1 Abs. 1 VwVfGBbg"
    }

    /// § 51 Abs. 2 Satz 3 BbgKWahlG: "Die Beendigung des Dienstverhältnisses ist dem Wahlleiter spätestens vier
    /// Monate nach Annahme der Wahl nachzuweisen" — else the seat is lost (§ 59 Abs. 1 Nr. 6).
    fn bar_end_proof_months(&self) -> Option<(u32, &'static str)> {
        Some((4, "§ 51 Abs. 2 Satz 3, § 59 Abs. 1 Nr. 6 BbgKWahlG"))
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
