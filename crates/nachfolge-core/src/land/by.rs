//! Bayern: Gemeinde- und Landkreiswahlgesetz (GLKrWG) Art. 37, 38, 47, 48, the Gemeindeordnung (GO)
//! Art. 31, the Gemeinde- und Landkreiswahlordnung (GLKrWO) § 95, the VwZVG, the BayVwVfG and the
//! Feiertagsgesetz (FTG) with its local holidays. Who succeeds: `rules/by.rs`. Readings taken:
//! docs/legal.md, "Bayern".

use chrono::NaiveDate;

use super::{Acceptance, LandLaw, LocalHoliday, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, DeterminationMode, ElectoralSystem, Snapshot, ValidationError};
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Bayern.
pub(super) struct By;

const COUNCIL: Procedure = Procedure {
    // Art. 48 Abs. 3 Satz 3 i. V. m. Art. 47 Abs. 2 GLKrWG: asked in writing to declare within two weeks;
    // not accepted within them → deemed refused (Art. 47 Abs. 2 Satz 2)
    acceptance: Acceptance::ExpressDeclaration,
    // Art. 47 Abs. 3 Satz 2, 3 GLKrWG: a reservation or condition is void, the acceptance stands
    reservation: Reservation::Ineffective,
    determination_mail: "by_offer",
    not_acquired_mail: None,
    // "In den Fällen der Sätze 1 und 2 rückt ein Listennachfolger nach"
    next_round_citation: Some("Art. 48 Abs. 1 Satz 3 GLKrWG"),
    bar_citation: rules::by::BAR_CITATION,
    // [decision] the council's decision on the Nachrücken (Art. 48 Abs. 3 Satz 2) is a Verwaltungsakt; no
    // Wahlanfechtung (Art. 51 concerns the election), no Widerspruch (Art. 15 Abs. 2 AGVwGO): the action, one month
    // (docs/legal.md, "Bayern")
    objection: Objection {
        span: Span::Months(1),
        reason: "one_month_after_announcement",
        citation: "§ 74 Abs. 1 Satz 2 VwGO",
    },
    review: Review {
        council_refused: Some(
            "decided_by: in Bayern the council's decision on the Nachrücken (Art. 48 Abs. 3 Satz 2 GLKrWG) is challenged by an action before the Verwaltungsgericht, not reviewed by the council (docs/legal.md, \"Bayern\")",
        ),
        citation: "§ 113 Abs. 1 VwGO",
        council_in_place_of_officer: Some("Art. 48 Abs. 3 Satz 2 GLKrWG"),
    },
    texts: Texts {
        template_prefix: "by",
        determination_subject: "Listennachfolge, „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Listennachfolge, „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis über die Beendigung des Hinderungsgrundes",
        announcement_basis: "Art. 48 Abs. 3 Satz 2 GLKrWG",
        party_ban_basis: None,
        announcement_remedy: "Klage vor dem Bayerischen Verwaltungsgericht{court} binnen eines Monats nach Bekanntgabe (§ 74 Abs. 1 Satz 2 VwGO)",
        review_basis: "§ 113 Abs. 1 VwGO",
        review_remedy: "Antrag auf Zulassung der Berufung binnen eines Monats nach Zustellung des Urteils, zu stellen beim Verwaltungsgericht{court} (§ 124a Abs. 4 Satz 1 und 2 VwGO)",
        court_review_remedy: "keine Klage: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_final_remedy: "keiner: die Entscheidung ist unanfechtbar",
        successor_title: "Bekanntmachung über das Nachrücken eines Listennachfolgers in „{name}“",
        vacancy_title: "Bekanntmachung über das Unbesetztbleiben eines Sitzes in „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichtantritt des Amts in „{name}“",
        review_title: "Bekanntmachung der gerichtlichen Entscheidung über das Nachrücken eines Listennachfolgers in „{name}“",
        not_acquired_subject: None,
        correction_title: "Berichtigung der Bekanntmachung über das Nachrücken eines Listennachfolgers in „{name}“",
    },
};

/// A council (`body.kind = council`).
static PROCEDURE: Procedure = COUNCIL;

/// Why a barred successor to a Kreistag is passed over or must prove the end of the bar (docs/legal.md, "Kreistage").
const KREISTAG_BAR: &str = "Art. 37 Abs. 2 Satz 2 Halbsatz 2 GLKrWG i. V. m. Art. 24 Abs. 3 LKrO";

/// A Kreistag: the council's procedure with the Kreistag's norms and words (docs/legal.md, "Kreistage").
static KREISTAG: Procedure = Procedure {
    bar_citation: KREISTAG_BAR,
    texts: Texts {
        determination_subject: "Listennachfolge, Kreistag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Listennachfolge, Kreistag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis über die Beendigung des Hinderungsgrundes",
        successor_title: "Bekanntmachung über das Nachrücken eines Listennachfolgers in den Kreistag „{name}“",
        vacancy_title: "Bekanntmachung über das Unbesetztbleiben eines Sitzes im Kreistag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichtantritt des Amts im Kreistag „{name}“",
        review_title: "Bekanntmachung der gerichtlichen Entscheidung über das Nachrücken eines Listennachfolgers in den Kreistag „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über das Nachrücken eines Listennachfolgers in den Kreistag „{name}“",
        ..COUNCIL.texts
    },
    ..COUNCIL
};

/// A Bezirkstag (`body.kind = bezirkstag`): the Bezirkswahlgesetz with the Landeswahlgesetz, not the GLKrWG —
/// one week to declare acceptance and the readiness for the oath, silence is acceptance, reservations and
/// conditions are void, an acceptance without that readiness is a refusal (Art. 4 Abs. 2, 3 BezWG); the
/// Bezirkstagspräsidentin or der Bezirkstagspräsident in place of the Wahlkreisleiter, the Bezirkstag in place of
/// the Wahlkreisausschuss (Abs. 3). Every determination waits for the confirmation ([`BEZIRKSTAG_CONFIRM`];
/// docs/legal.md, "Bayern's Bezirkstage").
static BEZIRKSTAG: Procedure = Procedure {
    acceptance: Acceptance::Declaration,
    // "der Annahmeerklärung beigefügte Vorbehalte oder Bedingungen sind unwirksam" (Art. 4 Abs. 2 Satz 3)
    reservation: Reservation::Ineffective,
    determination_mail: "byb_offer",
    not_acquired_mail: None,
    // "Wird die Ablehnung für wirksam erachtet, hat der Wahlkreisleiter unverzüglich den Listennachfolger zu
    // verständigen" (Art. 4 Abs. 2 Satz 6, Abs. 3)
    next_round_citation: Some("Art. 4 Abs. 2 Satz 6, Abs. 3 BezWG"),
    bar_citation: rules::by::bezirkstag::BAR_CITATION,
    // [decision, open] the remedy: as for the council's decision on the Nachrücken, the action (no Widerspruch,
    // Art. 15 Abs. 2 AGVwGO); the Wahlprüfung of the LWG is not among the articles Art. 4 Abs. 1 BezWG names as read
    objection: COUNCIL.objection,
    review: Review {
        council_refused: Some(
            "decided_by: the determination of the Listennachfolger for a Bayern Bezirkstag is challenged by an action before the Verwaltungsgericht, not reviewed by the Bezirkstag (docs/legal.md, \"Bayern's Bezirkstage\")",
        ),
        citation: "§ 113 Abs. 1 VwGO",
        council_in_place_of_officer: None,
    },
    texts: Texts {
        template_prefix: "byb",
        determination_subject: "Nachrücken in den Bezirkstag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Nachrücken in den Bezirkstag „{name}“ – Aufforderung zur Erklärung über die Annahme der Wahl",
        announcement_basis: "Art. 4 Abs. 3 BezWG i. V. m. Art. 46 Abs. 1 LWG",
        party_ban_basis: None,
        announcement_remedy: COUNCIL.texts.announcement_remedy,
        review_basis: "§ 113 Abs. 1 VwGO",
        review_remedy: COUNCIL.texts.review_remedy,
        court_review_remedy: COUNCIL.texts.court_review_remedy,
        review_final_remedy: COUNCIL.texts.review_final_remedy,
        successor_title: "Bekanntmachung über das Nachrücken eines Listennachfolgers in den Bezirkstag „{name}“",
        vacancy_title: "Bekanntmachung über das Unbesetztbleiben eines Sitzes im Bezirkstag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichtantritt des Amts im Bezirkstag „{name}“",
        review_title: "Bekanntmachung der gerichtlichen Entscheidung über das Nachrücken eines Listennachfolgers in den Bezirkstag „{name}“",
        not_acquired_subject: None,
        correction_title: "Berichtigung der Bekanntmachung über das Nachrücken eines Listennachfolgers in den Bezirkstag „{name}“",
    },
};

/// Why a Bayern Bezirkstag's snapshot must say `determination: confirm` (the message of the refusal of
/// `automatic`).
pub const BEZIRKSTAG_CONFIRM: &str = "must be \"confirm\" for a Bayern Bezirkstag: the Bezirkstagspräsidentin or der Bezirkstagspräsident determines the Listennachfolger (Art. 4 Abs. 3 BezWG), and what an exhausted Wahlkreisvorschlag, a refusal and a former member mean was decided without a text that says it (docs/legal.md, \"Bayern's Bezirkstage\") — so every determination the worker proposes is confirmed";

/// A Bayern Bezirkstag: a Verhältniswahl of Wahlkreisvorschläge (Art. 4 Abs. 1 BezWG with Art. 42 ff. LWG) — no
/// majority election, each candidate's Gesamtstimmen (`votes`, required by the council's check too), no
/// Wohnbezirke or areas; `determination: confirm`.
fn validate_bezirkstag(s: &Snapshot) -> Result<(), ValidationError> {
    if s.body.determination != DeterminationMode::Confirm {
        return Err(ValidationError::new("body.determination", BEZIRKSTAG_CONFIRM));
    }
    if s.body.electoral_system == ElectoralSystem::Majority {
        return Err(ValidationError::new(
            "body.electoral_system",
            "a Bayern Bezirkstag is elected by Verhältniswahl of Wahlkreisvorschläge (Art. 4 Abs. 1 BezWG, Art. 42 LWG); there is no majority election",
        ));
    }
    Ok(())
}

/// The rule set's citations that differ for a Kreistag (`LandLaw::kreistag_citations`; docs/legal.md, "Kreistage").
static KREISTAG_CITATIONS: &[(&str, &str)] = &[(rules::by::BAR_CITATION, KREISTAG_BAR)];

/// Art. 1 Abs. 1 Nr. 1 FTG beyond the nationwide holidays.
const HOLIDAYS: &[Holiday] = &[
    Holiday::Fixed { month: 1, day: 6, name: "Heilige Drei Könige" },
    Holiday::Easter { offset: 60, name: "Fronleichnam" },
    Holiday::Fixed { month: 11, day: 1, name: "Allerheiligen" },
];

/// The holidays of the FTG that hold only in some municipalities (`body.local_holidays`).
static LOCAL_HOLIDAYS: &[LocalHoliday] = &[
    // in municipalities with a predominantly Catholic population, as the Landesamt für Statistik finds
    // (Art. 1 Abs. 3 FTG)
    LocalHoliday {
        code: "mariae_himmelfahrt",
        holiday: Holiday::Fixed { month: 8, day: 15, name: "Mariä Himmelfahrt" },
        citation: "Art. 1 Abs. 1 Nr. 2 FTG",
    },
    // in the city of Augsburg
    LocalHoliday {
        code: "augsburger_friedensfest",
        holiday: Holiday::Fixed { month: 8, day: 8, name: "Augsburger Hohes Friedensfest" },
        citation: "Art. 1 Abs. 2 FTG",
    },
];

impl LandLaw for By {
    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        super::refuse_district_substitute(&s.body.readings)?;
        if s.body.kind == BodyKind::Bezirkstag {
            validate_bezirkstag(s)?;
        }
        if s.body.electoral_system == ElectoralSystem::Majority && s.lists.len() != 1 {
            return Err(ValidationError::new(
                "lists",
                format!(
                    "a majority election (Art. 38 GLKrWG) is recorded as exactly one list of the persons who received votes, found {}",
                    s.lists.len()
                ),
            ));
        }
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                if c.votes.is_none() {
                    return Err(ValidationError::new(
                        format!("lists[{li}].candidates[{ci}].votes"),
                        "is required in a Bayern body (Art. 37 Abs. 1 Satz 1 GLKrWG: Listennachfolger in the order of their votes)",
                    ));
                }
                super::refuse_ersatzbewerber(
                    c,
                    || format!("lists[{li}].candidates[{ci}].substitute_for"),
                    "in Bayern the votes decide (Art. 37 Abs. 1 GLKrWG)",
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
                "party_banned is not modelled for Bayern: the Rechtsaufsichtsbehörde determines the loss of office and who succeeds (Art. 49 GLKrWG; docs/legal.md)",
            )),
            Cause::ResultCorrected => Err(super::result_correction_not_read()),
            Cause::Merger => Err(super::merger_is_hessens(Some("GLKrWG"))),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::by::decide(body, q)
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        rules::by::list_order(body, s, body.list(list))
    }

    /// Art. 1 Abs. 1 Nr. 1 FTG (statewide); the local ones: [`LandLaw::local_holidays`].
    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        holiday_in(&[NATIONWIDE, HOLIDAYS], d)
    }

    fn local_holidays(&self) -> &'static [LocalHoliday] {
        LOCAL_HOLIDAYS
    }

    /// Bayerisches Verwaltungszustellungs- und Vollstreckungsgesetz; its articles: [`LandLaw::service_rule`].
    fn service_act(&self) -> &'static str {
        "VwZVG"
    }

    /// The VwZVG counts in articles; its Heilung is Art. 9 (the VwZG's § 8), its fiction Art. 4 Abs. 2 Satz 2
    /// (docs/legal.md, "Bayern").
    fn service_rule(&self, vwzg: &str) -> String {
        let article = match vwzg {
            "8" => "9",
            "4 Abs. 2" => "4 Abs. 2 Satz 2",
            other => other,
        };
        format!("Art. {article} VwZVG")
    }

    fn procedure_act(&self) -> &'static str {
        "BayVwVfG"
    }

    fn extension_citation(&self) -> String {
        "Art. 31 Abs. 3 Satz 1 BayVwVfG".to_owned()
    }

    fn fiction_move_citation(&self) -> String {
        "Art. 31 Abs. 3 Satz 1 BayVwVfG entsprechend".to_owned()
    }

    /// Art. 47 Abs. 2 Satz 1 GLKrWG: "binnen zwei Wochen"; a Bezirkstag: "binnen einer Woche" (Art. 4 Abs. 2
    /// Satz 1, Abs. 3 BezWG).
    fn acceptance_weeks(&self, kind: BodyKind) -> u32 {
        match kind {
            BodyKind::Bezirkstag => 1,
            // the Regionalversammlung is Saarland's (refused at validation)
            BodyKind::Council | BodyKind::Kreistag | BodyKind::Regionalversammlung => 2,
        }
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
