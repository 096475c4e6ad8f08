//! Saarland: Kommunalwahlgesetz (KWG) § 43 (Benachrichtigung der Gewählten), § 17 (Unvereinbarkeit), § 50
//! (Folgen eines Parteiverbotes), the Kommunalwahlordnung (KWO) §§ 56, 57, the Saarländisches
//! Verwaltungszustellungsgesetz (§ 1 SVwZG, which applies the VwZG) and the Feiertagsgesetz (§ 2 SFG). Who
//! succeeds: `rules/sl.rs`. **§ 44 KWG "Ersatzleute" was not read**: the Wahlleitung is in charge — a snapshot
//! must say `determination: confirm` (docs/legal.md, "Saarland"). A Kreistag (§ 156 Abs. 3 KSVG, §§ 61, 62, 66
//! KWG, §§ 80, 94 KWO) is served on the same footing, its Kreiswahlleitung in charge (docs/legal.md, "Saarland:
//! Kreistage"), and the Regionalversammlung Saarbrücken on the Kreistag's (§ 205 Abs. 3 KSVG; "Saarland: the
//! Regionalversammlung").

use chrono::NaiveDate;

use super::{Acceptance, LandLaw, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, DeterminationMode, ElectoralSystem, SeatVia, Snapshot, ValidationError};
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Saarland.
pub(super) struct Sl;

/// Why every determination waits for the Wahlleitung (the message of the refusal of `automatic`).
pub const NOT_VERIFIED: &str = "must be \"confirm\" in Saarland: § 44 KWG (Ersatzleute) could not be read and is not verified, so the Wahlleitung confirms every determination the worker proposes on § 57 KWO (docs/legal.md, \"Saarland\")";

static PROCEDURE: Procedure = Procedure {
    // § 43 KWG with § 56, § 57 Abs. 4 KWO: one week to declare in writing, silence is acceptance, a
    // reservation is a refusal, a refusal is irrevocable; a barred Ersatzperson must prove (§ 56 Abs. 3 KWO)
    acceptance: Acceptance::Declaration,
    reservation: Reservation::Refusal,
    determination_mail: "sl_offer",
    not_acquired_mail: None,
    // a refusal: the next Mandatsanwärter of the same list
    next_round_citation: Some("§ 57 Abs. 1 Satz 1 KWO"),
    bar_citation: rules::sl::BAR_CITATION,
    // [decision, open] § 47 KWG (Wahlanfechtung) was not read; the Feststellung is a Verwaltungsakt of the
    // Gemeindewahlleitung: the Widerspruch of the VwGO (docs/legal.md, "Saarland")
    objection: Objection { span: Span::Months(1), reason: "one_month_after_announcement", citation: "§ 70 Abs. 1 Satz 1 VwGO" },
    review: Review {
        council_refused: Some(
            "decided_by: in Saarland the Widerspruch against the Wahlleitung's determination is decided by her (Abhilfe, § 72 VwGO) or the Widerspruchsbehörde (§ 73 VwGO), not by the council",
        ),
        citation: "§§ 72, 73 VwGO",
        council_in_place_of_officer: None,
    },
    texts: Texts {
        template_prefix: "sl",
        determination_subject: "Nachrücken als Ersatzperson in die Vertretung „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Nachrücken als Ersatzperson in die Vertretung „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis nach § 56 Abs. 3 KWO",
        announcement_basis: "§ 57 Abs. 1 Satz 1 KWO",
        party_ban_basis: Some("§ 50 Abs. 3 KWG"),
        announcement_remedy: "Widerspruch binnen eines Monats nach Bekanntgabe, schriftlich oder zur Niederschrift bei der Wahlleitung{office} (§§ 68, 70 VwGO)",
        review_basis: "§§ 72, 73 VwGO",
        review_remedy: "Klage vor dem Verwaltungsgericht{court} binnen eines Monats nach Zustellung des Widerspruchsbescheids (§ 74 Abs. 1 Satz 1 VwGO)",
        court_review_remedy: "keine Klage: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_final_remedy: "keiner: die Entscheidung ist unanfechtbar",
        successor_title: "Bekanntmachung über das Nachrücken einer Ersatzperson in die Vertretung „{name}“",
        vacancy_title: "Bekanntmachung über das Unbesetztbleiben eines Sitzes in der Vertretung „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft in der Vertretung „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Widersprüche gegen das Nachrücken einer Ersatzperson in die Vertretung „{name}“",
        not_acquired_subject: None,
        correction_title: "Berichtigung der Bekanntmachung über das Nachrücken einer Ersatzperson in die Vertretung „{name}“",
    },
};

/// A Kreistag's Unvereinbarkeit: § 64 Satz 1 KWG limits the eligibility of the Landkreis's officials and employees,
/// § 17 Abs. 2 KWG applies, and the Kreiswahlleitung proceeds under § 56 Abs. 3 KWO (§ 80 Abs. 2 KWO).
pub const KREISTAG_BAR: &str = "§ 64 Satz 1 i. V. m. § 17 Abs. 2 KWG, § 80 Abs. 2, § 56 Abs. 3 KWO";

/// The Kreistag's Ersatzleute: the Kreiswahlausschuss determines them with the result (§ 94 Abs. 2 KWO); a
/// Kreistag's Wahlvorschlag has a Gebietsliste and Bereichslisten as a Gemeinderat's (§ 66 KWG), so § 57 Abs. 1
/// KWO is applied entsprechend (**[decision]**: § 78 KWO, which may say so, was not read).
pub const KREISTAG_NEXT: &str = "§ 57 Abs. 1 Satz 1 KWO entsprechend, § 94 Abs. 2 KWO";

/// A Kreistag (`body.kind = kreistag`): the council's procedure with the Kreistag's norms (docs/legal.md, "Saarland:
/// Kreistage"); the words (Kreistag, Kreiswahlleitung) come from the body's kind.
static KREISTAG: Procedure = Procedure {
    bar_citation: KREISTAG_BAR,
    next_round_citation: Some(KREISTAG_NEXT),
    texts: Texts {
        determination_subject: "Nachrücken als Ersatzperson in den Kreistag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Nachrücken als Ersatzperson in den Kreistag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis nach § 80 Abs. 2, § 56 Abs. 3 KWO",
        announcement_basis: KREISTAG_NEXT,
        successor_title: "Bekanntmachung über das Nachrücken einer Ersatzperson in den Kreistag „{name}“",
        vacancy_title: "Bekanntmachung über das Unbesetztbleiben eines Sitzes im Kreistag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft im Kreistag „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Widersprüche gegen das Nachrücken einer Ersatzperson in den Kreistag „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über das Nachrücken einer Ersatzperson in den Kreistag „{name}“",
        ..PROCEDURE.texts
    },
    ..PROCEDURE
};

/// The rule set's citations that differ for a Kreistag (`LandLaw::kreistag_citations`).
static KREISTAG_CITATIONS: &[(&str, &str)] = &[
    (rules::sl::NEXT, KREISTAG_NEXT),
    (rules::sl::BAR_CITATION, KREISTAG_BAR),
    (rules::sl::ELIGIBLE, "§ 57 Abs. 3 KWO entsprechend"),
    (rules::sl::EXHAUSTED, "§ 57 Abs. 1 Satz 2 KWO entsprechend"),
];

/// The Regionalversammlung des Regionalverbands Saarbrücken (`body.kind = regionalversammlung`): § 205 Abs. 3 KSVG
/// leaves its "Ergänzung" to the KWG, whose part for it (§§ 67–71 KWG) was not read — **[decision]** served on the
/// Kreistag's footing (the Regionalverband is the Saarbrücken counterpart of a Landkreis, § 194 KSVG), § 57 KWO
/// applied entsprechend, the Wahlleitung confirming every determination (docs/legal.md, "Saarland: the
/// Regionalversammlung").
pub const REGIONAL_NEXT: &str = "§ 57 Abs. 1 Satz 1 KWO entsprechend, § 205 Abs. 3 KSVG";
/// Its Unvereinbarkeit: the KWG's rule for it was not read; § 17 KWG and § 56 Abs. 3 KWO applied entsprechend.
pub const REGIONAL_BAR: &str = "§ 17 KWG entsprechend i. V. m. § 56 Abs. 3 KWO, § 205 Abs. 3 KSVG";

static REGIONALVERSAMMLUNG: Procedure = Procedure {
    bar_citation: REGIONAL_BAR,
    next_round_citation: Some(REGIONAL_NEXT),
    texts: Texts {
        determination_subject: "Nachrücken als Ersatzperson in die Regionalversammlung „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Nachrücken als Ersatzperson in die Regionalversammlung „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis nach § 56 Abs. 3 KWO",
        announcement_basis: REGIONAL_NEXT,
        successor_title: "Bekanntmachung über das Nachrücken einer Ersatzperson in die Regionalversammlung „{name}“",
        vacancy_title: "Bekanntmachung über das Unbesetztbleiben eines Sitzes in der Regionalversammlung „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft in der Regionalversammlung „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Widersprüche gegen das Nachrücken einer Ersatzperson in die Regionalversammlung „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über das Nachrücken einer Ersatzperson in die Regionalversammlung „{name}“",
        ..PROCEDURE.texts
    },
    ..PROCEDURE
};

/// The rule set's citations that differ for the Regionalversammlung.
static REGIONAL_CITATIONS: &[(&str, &str)] = &[
    (rules::sl::NEXT, REGIONAL_NEXT),
    (rules::sl::BAR_CITATION, REGIONAL_BAR),
    (rules::sl::ELIGIBLE, "§ 57 Abs. 3 KWO entsprechend"),
    (rules::sl::EXHAUSTED, "§ 57 Abs. 1 Satz 2 KWO entsprechend"),
];

/// § 2 SFG beyond the nationwide holidays: Fronleichnam, Mariä Himmelfahrt, Allerheiligen.
const HOLIDAYS: &[Holiday] = &[
    Holiday::Easter { offset: 60, name: "Fronleichnam" },
    Holiday::Fixed { month: 8, day: 15, name: "Mariä Himmelfahrt" },
    Holiday::Fixed { month: 11, day: 1, name: "Allerheiligen" },
];

impl LandLaw for Sl {
    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        if s.body.determination != DeterminationMode::Confirm {
            return Err(ValidationError::new("body.determination", NOT_VERIFIED));
        }
        if s.body.electoral_system == ElectoralSystem::Majority {
            // § 57 Abs. 2 with § 55 Abs. 2 KWO: everyone who got no seat, by votes (docs/legal.md, "Saarland")
            super::majority_one_list(s, "§ 57 Abs. 2 i. V. m. § 55 Abs. 2 KWO")?;
        }
        super::refuse_district_substitute(&s.body.readings)?;
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                let path = format!("lists[{li}].candidates[{ci}]");
                super::refuse_ersatzbewerber(
                    c,
                    || format!("{path}.substitute_for"),
                    "in Saarland the Mandatsanwärter of the member's Gebiets- or Bereichsliste follow in list order (§ 57 Abs. 1 KWO)",
                )?;
                if let Some(seat) = &c.seat {
                    if matches!(seat.via, SeatVia::District | SeatVia::PersonalVote) {
                        return Err(ValidationError::new(
                            format!("{path}.seat.via"),
                            "is list or succession in Saarland: closed lists, a Gebietsliste and Bereichslisten each recorded as a list of its own (§ 57 Abs. 1 KWO)",
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn validate_cause(&self, cause: Cause) -> Result<(), ValidationError> {
        match cause {
            Cause::Ordinary | Cause::PartyBan { .. } => Ok(()),
            Cause::ResultCorrected => Err(super::result_correction_not_read()),
            Cause::Merger => Err(super::merger_is_hessens(Some("KWG Saarland, as far as read,"))),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::sl::decide(body, q)
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        rules::sl::list_order(s, body.list(list))
    }

    /// § 2 SFG.
    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        holiday_in(&[NATIONWIDE, HOLIDAYS], d)
    }

    /// § 1 SVwZG applies the VwZG "in der jeweils geltenden Fassung" to the Gemeinden.
    fn service_act(&self) -> &'static str {
        "VwZG i. V. m. § 1 SVwZG"
    }

    /// **[verify]** the SVwVfG was not read; its § 31 Abs. 3 is taken to match the VwVfG's (docs/legal.md).
    fn procedure_act(&self) -> &'static str {
        "SVwVfG"
    }

    fn procedure(&self, kind: BodyKind) -> &'static Procedure {
        match kind {
            BodyKind::Kreistag => &KREISTAG,
            BodyKind::Regionalversammlung => &REGIONALVERSAMMLUNG,
            // a Bezirkstag is refused at validation (docs/legal.md, "Point 10: Bezirkstage")
            BodyKind::Council | BodyKind::Bezirkstag => &PROCEDURE,
        }
    }

    fn kreistag_citations(&self) -> &'static [(&'static str, &'static str)] {
        KREISTAG_CITATIONS
    }

    fn kind_citations(&self, kind: BodyKind) -> &'static [(&'static str, &'static str)] {
        match kind {
            BodyKind::Kreistag => self.kreistag_citations(),
            BodyKind::Regionalversammlung => REGIONAL_CITATIONS,
            BodyKind::Council | BodyKind::Bezirkstag => &[],
        }
    }
}
