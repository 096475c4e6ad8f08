//! Nordrhein-Westfalen: Kommunalwahlgesetz (KWahlG NRW), § 45 "Ersatzbestimmung von Vertretern", with the
//! Kommunalwahlordnung (KWahlO NRW), the Landeszustellungsgesetz (LZG NRW), the VwVfG NRW and the
//! Feiertagsgesetz NW. Who succeeds: `rules/nw.rs`. Readings taken: docs/legal.md.

use chrono::NaiveDate;

use super::fassung::ymd;
use super::{Acceptance, Fassung, LandLaw, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::local_date;
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, ElectoralSystem, Snapshot, SubstituteDesignation, ValidationError};
use crate::rules::nw::Text;
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Nordrhein-Westfalen.
pub(super) struct Nw;

const COUNCIL: Procedure = Procedure {
    // § 45 Abs. 6 Satz 2–6 KWahlG NRW
    acceptance: Acceptance::Declaration,
    reservation: Reservation::Refusal,
    determination_mail: "nrw_offer",
    not_acquired_mail: None,
    next_round_citation: Some("§ 45 Abs. 2 Satz 2 KWahlG NRW"),
    bar_citation: rules::nw::BAR_CITATION,
    objection: Objection {
        span: Span::Months(1),
        reason: "one_month_after_announcement",
        citation: "§ 45 Abs. 6 Satz 8 i. V. m. § 39 Abs. 1 KWahlG NRW",
    },
    review: Review {
        council_refused: Some(
            "decided_by: in NRW the returning officer decides objections against his determination, in place of the council (§ 45 Abs. 6 Satz 8 KWahlG NRW)",
        ),
        citation: "§ 45 Abs. 6 Satz 8 KWahlG NRW",
        council_in_place_of_officer: None,
    },
    texts: Texts {
        template_prefix: "nrw",
        determination_subject: "Feststellung der Listennachfolge, Vertretung „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Feststellung der Listennachfolge, Vertretung „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        announcement_basis: "§ 45 Abs. 6 Satz 7 KWahlG NRW",
        // § 46 Abs. 4 Satz 2 "§ 45 Abs. 2 findet Anwendung": the procedure, today in § 45 Abs. 6 (docs/legal.md)
        party_ban_basis: Some("§ 46 Abs. 4 i. V. m. § 45 Abs. 6 Satz 7 KWahlG NRW"),
        announcement_remedy: "Einspruch bei der {office_name}{office} binnen eines Monats nach der Bekanntmachung (§ 45 Abs. 6 Satz 8 i. V. m. § 39 Abs. 1 KWahlG NRW)",
        review_basis: "§ 45 Abs. 6 Satz 8 KWahlG NRW",
        // § 41 Abs. 1 Satz 1: "binnen eines Monats nach Bekanntgabe" (§ 65 Satz 4 KWahlO: the announcement is
        // the Bekanntgabe for those not served)
        review_remedy: "Klage vor dem Verwaltungsgericht{court} binnen eines Monats nach Bekanntgabe der Entscheidung (§ 45 Abs. 6 Satz 8 i. V. m. § 41 Abs. 1 KWahlG NRW)",
        court_review_remedy: "keine Klage nach § 41 KWahlG NRW: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_final_remedy: "keiner: die Entscheidung ist unanfechtbar (§ 45 Abs. 6 Satz 8 i. V. m. § 40 Abs. 3 KWahlG NRW)",
        successor_title: "Bekanntmachung über die Feststellung der Listennachfolge für die Vertretung „{name}“",
        vacancy_title: "Bekanntmachung über das Freibleiben eines Sitzes in der Vertretung „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft in der Vertretung „{name}“",
        not_acquired_subject: None,
        review_title: "Bekanntmachung der Entscheidung über Einsprüche gegen die Feststellung der Listennachfolge für die Vertretung „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über die Listennachfolge in der Vertretung „{name}“",
    },
};

/// A council (`body.kind = council`).
static PROCEDURE: Procedure = COUNCIL;

/// A Kreistag: the council's procedure with the Kreistag's norms and words (docs/legal.md, "Kreistage").
static KREISTAG: Procedure = Procedure {
    texts: Texts {
        determination_subject: "Feststellung der Listennachfolge, Kreistag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Feststellung der Listennachfolge, Kreistag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        successor_title: "Bekanntmachung über die Feststellung der Listennachfolge für den Kreistag „{name}“",
        vacancy_title: "Bekanntmachung über das Freibleiben eines Sitzes im Kreistag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft im Kreistag „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Einsprüche gegen die Feststellung der Listennachfolge für den Kreistag „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über die Listennachfolge im Kreistag „{name}“",
        ..COUNCIL.texts
    },
    ..COUNCIL
};

/// The Fassungen of § 45 KWahlG NRW (docs/legal.md, "Fassungen of § 45 KWahlG NRW"): the text before and after
/// Art. 1 of the Gesetz vom 5. Juli 2024 (GV. NRW. S. 444, promulgated 30 July 2024), which added the "nicht
/// ununterbrochen" clause to Abs. 2 Satz 2 and Abs. 3 Satz 3. In force from 31 July 2024 **[verify]**.
static FASSUNGEN: [Fassung; 2] = [
    Fassung {
        id: "kwahlg-nrw-45-before-2024",
        valid_from: NaiveDate::MIN,
        valid_to: Some(ymd(2024, 7, 30)),
        source: "§ 45 KWahlG NRW i. d. F. vor Art. 1 G v. 5.7.2024 (GV. NRW. S. 444)",
    },
    Fassung {
        id: "kwahlg-nrw-45-2024",
        valid_from: ymd(2024, 7, 31),
        valid_to: None,
        source: "§ 45 KWahlG NRW i. d. F. d. Art. 1 G v. 5.7.2024 (GV. NRW. S. 444)",
    },
];

impl Nw {
    /// What § 45 says in the Fassung in force on `day`.
    fn text(&self, day: NaiveDate) -> Text {
        if self.fassung_at(day).id == FASSUNGEN[0].id {
            Text::BEFORE_2024
        } else {
            Text::CURRENT
        }
    }
}

/// The holidays of NRW beyond the nationwide ones (§ 2 Feiertagsgesetz NW).
const HOLIDAYS: &[Holiday] = &[
    Holiday::Easter { offset: 60, name: "Fronleichnam" },
    Holiday::Fixed { month: 11, day: 1, name: "Allerheiligen" },
];

impl LandLaw for Nw {
    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        if s.body.electoral_system == ElectoralSystem::Majority {
            return Err(ValidationError::new(
                "body.electoral_system",
                "majority election is only modelled for Hessen (§ 34 Abs. 1a KWG)",
            ));
        }
        // substitute_designation: only on an Ersatzbewerber, and only for a candidacy his candidate has
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                let Some(designation) = c.substitute_designation else { continue };
                let path = format!("lists[{li}].candidates[{ci}].substitute_designation");
                let Some(target) = c.substitute_for.as_deref() else {
                    return Err(ValidationError::new(path, "is set without substitute_for"));
                };
                // substitute_for names a candidate of the same list (checked before)
                let Some(t) = list.candidates.iter().find(|o| o.id == target) else { continue };
                let (district, on_list) = match designation {
                    SubstituteDesignation::District => (true, false),
                    SubstituteDesignation::List => (false, true),
                    SubstituteDesignation::Both => (true, true),
                };
                if district && t.district.is_none() {
                    return Err(ValidationError::new(
                        path,
                        format!("names the district candidacy of {target:?}, who stood in no district (no `district`)"),
                    ));
                }
                if on_list && t.position.is_none() {
                    return Err(ValidationError::new(
                        path,
                        format!(
                            "names the list candidacy of {target:?}, who is not on the Reserveliste (no `position`)"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn validate_cause(&self, cause: Cause) -> Result<(), ValidationError> {
        match cause {
            Cause::Ordinary | Cause::PartyBan { .. } => Ok(()),
            Cause::ResultCorrected => Err(super::result_correction_not_read()),
            Cause::Merger => Err(super::merger_is_hessens(Some("KWahlG NRW"))),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::nw::decide(body, q, self.text(local_date(q.at)))
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        let reading = body.info().readings.district_substitute.unwrap_or_default();
        rules::nw::list_order(s, body.list(list), reading, self.text(s.reference))
    }

    fn fassungen(&self) -> &'static [Fassung] {
        &FASSUNGEN
    }

    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        holiday_in(&[NATIONWIDE, HOLIDAYS], d)
    }

    fn service_act(&self) -> &'static str {
        "LZG NRW"
    }

    fn procedure_act(&self) -> &'static str {
        "VwVfG NRW"
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
