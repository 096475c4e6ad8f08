//! Schleswig-Holstein: Gemeinde- und Kreiswahlgesetz (GKWG) §§ 37, 38, 39, 40, 43, 44, 45, § 31a der
//! Gemeindeordnung (GO, Unvereinbarkeit), the Landesverwaltungsgesetz (LVwG) and the Gesetz über Sonn- und
//! Feiertage (SFTG). Who succeeds: `rules/sh.rs`. Readings taken: docs/legal.md, "Schleswig-Holstein".

use chrono::{Datelike, NaiveDate};

use super::{Acceptance, BarEffect, LandLaw, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, ElectoralSystem, SeatVia, Snapshot, ValidationError};
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Schleswig-Holstein.
pub(super) struct Sh;

const COUNCIL: Procedure = Procedure {
    // [decision] § 37 GKWG applied to the Nachrückende: membership automatically when one week after the
    // notification of the Feststellung ends, unless refused in writing within it (`membership_at_period_end`);
    // a declaration with a reservation counts as refusal (Satz 2); a refusal cannot be withdrawn (Satz 3)
    acceptance: Acceptance::Declaration,
    reservation: Reservation::Refusal,
    determination_mail: "sh_offer",
    not_acquired_mail: None,
    // a refusal: "so rückt die nächste Bewerberin oder der nächste Bewerber … nach"
    next_round_citation: Some("§ 44 Abs. 1 GKWG"),
    bar_citation: rules::sh::BAR_CITATION,
    // the Einspruch of § 38 against the Wahlleiter's Feststellung (§ 44 Abs. 3 Satz 3): one month
    objection: Objection {
        span: Span::Months(1),
        reason: "one_month_after_announcement",
        citation: "§ 44 Abs. 3 Satz 3 i. V. m. § 38 Abs. 1 GKWG",
    },
    review: Review {
        // [decision] the Vertretung decides the Einspruch after the committee's pre-examination (§ 39 GKWG)
        council_refused: None,
        citation: "§ 44 Abs. 3 Satz 3 i. V. m. §§ 38, 39 GKWG",
        // "In Zweifelsfällen entscheidet die Vertretung nach Vorprüfung durch den nach § 39 gewählten Ausschuss"
        council_in_place_of_officer: Some("§ 44 Abs. 3 Satz 2 GKWG"),
    },
    texts: Texts {
        template_prefix: "sh",
        determination_subject: "Nachrücken in die Vertretung „{name}“ – Feststellung und Hinweis auf die Wochenfrist",
        barred_subject: "Nachrücken in die Vertretung „{name}“ – Feststellung und Hinweis auf die Wochenfrist",
        announcement_basis: "§ 44 Abs. 3 Satz 1 GKWG",
        party_ban_basis: Some("§ 45 GKWG i. V. m. § 44 Abs. 3 Satz 1 GKWG"),
        announcement_remedy: "Einspruch jeder und jedes Wahlberechtigten des Wahlgebiets binnen eines Monats nach der Bekanntmachung, schriftlich oder zur Niederschrift bei der Wahlleitung{office}, innerhalb der Frist zu begründen (§ 44 Abs. 3 Satz 3 i. V. m. § 38 GKWG)",
        review_basis: "§ 44 Abs. 3 Satz 3 i. V. m. §§ 38, 39 GKWG",
        review_remedy: "Klage vor dem Verwaltungsgericht{court} binnen eines Monats nach Zustellung der Entscheidung (§ 44 Abs. 3 Satz 3, § 40 GKWG, § 74 Abs. 1 Satz 2 VwGO)",
        court_review_remedy: "keine Klage nach § 40 GKWG: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_final_remedy: "keiner: die Entscheidung ist unanfechtbar",
        successor_title: "Bekanntmachung über das Nachrücken in die Vertretung „{name}“",
        vacancy_title: "Bekanntmachung über das Leerbleiben eines Sitzes in der Vertretung „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft in der Vertretung „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Einsprüche gegen die Feststellung des Nachrückens in die Vertretung „{name}“",
        not_acquired_subject: None,
        correction_title: "Berichtigung der Bekanntmachung über das Nachrücken in die Vertretung „{name}“",
    },
};

/// A council (`body.kind = council`).
static PROCEDURE: Procedure = COUNCIL;

/// Why a barred successor to a Kreistag is passed over or must prove the end of the bar (docs/legal.md, "Kreistage").
const KREISTAG_BAR: &str = "§ 26a KrO i. V. m. § 37a Abs. 1 Satz 1 GKWG";

/// A Kreistag: the council's procedure with the Kreistag's norms and words (docs/legal.md, "Kreistage").
static KREISTAG: Procedure = Procedure {
    bar_citation: KREISTAG_BAR,
    texts: Texts {
        determination_subject: "Nachrücken in den Kreistag „{name}“ – Feststellung und Hinweis auf die Wochenfrist",
        barred_subject: "Nachrücken in den Kreistag „{name}“ – Feststellung und Hinweis auf die Wochenfrist",
        announcement_remedy: "Einspruch jeder und jedes Wahlberechtigten des Wahlgebiets binnen eines Monats nach der Bekanntmachung, schriftlich oder zur Niederschrift bei der Kreiswahlleitung{office}, innerhalb der Frist zu begründen (§ 44 Abs. 3 Satz 3 i. V. m. § 38 GKWG)",
        successor_title: "Bekanntmachung über das Nachrücken in den Kreistag „{name}“",
        vacancy_title: "Bekanntmachung über das Leerbleiben eines Sitzes im Kreistag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft im Kreistag „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Einsprüche gegen die Feststellung des Nachrückens in den Kreistag „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über das Nachrücken in den Kreistag „{name}“",
        ..COUNCIL.texts
    },
    ..COUNCIL
};

/// The rule set's citations that differ for a Kreistag (`LandLaw::kreistag_citations`; docs/legal.md, "Kreistage").
static KREISTAG_CITATIONS: &[(&str, &str)] = &[(rules::sh::BAR_CITATION, KREISTAG_BAR)];

/// § 2 Abs. 1 SFTG beyond the nationwide holidays: the Reformationstag (Nr. 8, since the amendment in force on
/// 30 March 2018; in 2017 a one-off holiday everywhere).
const HOLIDAYS: &[Holiday] = &[Holiday::Fixed { month: 10, day: 31, name: "Reformationstag" }];
/// The first year the Reformationstag was a holiday in Schleswig-Holstein.
const REFORMATIONSTAG_SINCE: i32 = 2017;

impl LandLaw for Sh {
    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        if s.body.electoral_system == ElectoralSystem::Majority {
            return Err(ValidationError::new(
                "body.electoral_system",
                "Schleswig-Holstein has no majority election: Wahlkreise and lists with Verhältnisausgleich (§§ 7, 9, 10 GKWG)",
            ));
        }
        super::refuse_district_substitute(&s.body.readings)?;
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                let path = format!("lists[{li}].candidates[{ci}]");
                super::refuse_ersatzbewerber(
                    c,
                    || format!("{path}.substitute_for"),
                    "in Schleswig-Holstein the next candidate on the list moves up (§ 44 Abs. 1 GKWG)",
                )?;
                if let Some(seat) = &c.seat {
                    if seat.via == SeatVia::PersonalVote {
                        return Err(ValidationError::new(
                            format!("{path}.seat.via"),
                            "is district (unmittelbare Vertreterin/unmittelbarer Vertreter), list or succession in Schleswig-Holstein",
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn validate_cause(&self, cause: Cause) -> Result<(), ValidationError> {
        match cause {
            Cause::Ordinary | Cause::PartyBan { list_banned: true } => Ok(()),
            Cause::PartyBan { list_banned: false } => Err(ValidationError::new(
                "list_banned",
                "false is not modelled for Schleswig-Holstein: § 45 GKWG was not read in full for a member of the banned party elected on another list (docs/legal.md)",
            )),
            Cause::ResultCorrected => Err(super::result_correction_not_read()),
            Cause::Merger => Err(super::merger_is_hessens(Some("GKWG"))),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::sh::decide(body, q)
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        rules::sh::list_order(s, body.list(list))
    }

    /// § 2 Abs. 1 SFTG.
    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        if d.year() >= REFORMATIONSTAG_SINCE {
            holiday_in(&[NATIONWIDE, HOLIDAYS], d)
        } else {
            holiday_in(&[NATIONWIDE], d)
        }
    }

    /// **[verify]** the Zustellung of the Landesverwaltungsgesetz (§§ 146 ff. LVwG; docs/legal.md).
    fn service_act(&self) -> &'static str {
        "LVwG"
    }

    fn procedure_act(&self) -> &'static str {
        "LVwG"
    }

    /// **[verify]** § 89 Abs. 3 LVwG, the Land's rule beside § 31 Abs. 3 VwVfG (docs/legal.md).
    fn extension_citation(&self) -> String {
        "§ 89 Abs. 3 LVwG".to_owned()
    }

    /// § 37 Satz 1 GKWG: membership "automatisch nach Ablauf der Frist von einer Woche", unless refused.
    fn membership_at_period_end(&self) -> bool {
        true
    }

    /// § 37a Abs. 1 Satz 1 GKWG: an official or employee (Abs. 4) whose post is incompatible with the mandate
    /// "erwirbt abweichend von § 37 die Mitgliedschaft in der Vertretung erst, wenn sie oder er gleichzeitig die
    /// Beurlaubung … oder … die Übertragung einer anderen Funktion schriftlich nachweist" — no deemed refusal
    /// and no deemed acceptance at the end of the week (docs/legal.md, "Schleswig-Holstein").
    fn bar_effect(&self) -> BarEffect {
        BarEffect::AwaitsProof
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
