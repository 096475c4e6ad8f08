//! Mecklenburg-Vorpommern: Landes- und Kommunalwahlgesetz (LKWG M-V) §§ 33 Abs. 2, 34, 35, 46, the Landes- und
//! Kommunalwahlordnung (LKWO M-V) § 46, § 25 der Kommunalverfassung (KV M-V, Unvereinbarkeit), the
//! Landesverwaltungsverfahrensgesetz (VwVfG M-V, also the Land's Zustellungsrecht) and the Feiertagsgesetz
//! (FTG M-V). Who succeeds: `rules/mv.rs`. Readings taken: docs/legal.md, "Mecklenburg-Vorpommern".

use chrono::{Datelike, NaiveDate};

use super::{Acceptance, BarEffect, LandLaw, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, ElectoralSystem, SeatVia, Snapshot, ValidationError};
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Mecklenburg-Vorpommern.
pub(super) struct Mv;

const COUNCIL: Procedure = Procedure {
    // [decision] § 34 LKWG M-V applied to the nachrückende Person (§ 46 Abs. 3 LKWO M-V: the notification
    // points to § 34): membership one week after the notification unless refused in writing within it
    // (`membership_at_period_end`); a refusal cannot be withdrawn (§ 34 Satz 4)
    acceptance: Acceptance::Declaration,
    // § 34 Satz 3: "Eine Erklärung unter Vorbehalt gilt als unbeachtlich" — he becomes a member
    reservation: Reservation::Ineffective,
    determination_mail: "mv_offer",
    not_acquired_mail: None,
    // "Lehnt eine Ersatzperson die Annahme des Sitzes ab, so scheidet sie … aus": the next Ersatzperson
    next_round_citation: Some("§ 46 Abs. 2 Satz 1, 7 LKWG M-V"),
    bar_citation: rules::mv::BAR_CITATION,
    // Einspruch against the Wahlleitung's Feststellung: two weeks after the announcement, no suspensive effect
    objection: Objection {
        span: Span::Weeks(2),
        reason: "two_weeks_after_announcement",
        citation: "§ 46 Abs. 4 i. V. m. § 35 LKWG M-V",
    },
    review: Review {
        // § 36 Abs. 1 Satz 2 LKWG M-V: "Bei allen Kommunalwahlen entscheidet die Vertretung" (the
        // Rechtsaufsichtsbehörde in its place under § 36 Abs. 3, not modelled)
        council_refused: None,
        citation: "§ 46 Abs. 4 i. V. m. §§ 35, 36 LKWG M-V",
        council_in_place_of_officer: None,
    },
    texts: Texts {
        template_prefix: "mv",
        determination_subject: "Nachrücken in die Vertretung „{name}“ – Benachrichtigung und Hinweis auf die Wochenfrist",
        barred_subject: "Nachrücken in die Vertretung „{name}“ – Benachrichtigung und Hinweis auf die Wochenfrist und die Unvereinbarkeit",
        announcement_basis: "§ 46 Abs. 5 Satz 2 LKWG M-V, § 46 Abs. 3 LKWO M-V",
        party_ban_basis: None,
        announcement_remedy: "Einspruch binnen zwei Wochen nach der Bekanntmachung unter Angabe der Gründe bei der Wahlleitung{office}, ohne aufschiebende Wirkung (§ 46 Abs. 4 i. V. m. § 35 LKWG M-V)",
        review_basis: "§ 46 Abs. 4 i. V. m. §§ 35, 36 LKWG M-V",
        review_remedy: "Klage vor dem Verwaltungsgericht{court} binnen eines Monats nach Zustellung der Entscheidung (§ 40 LKWG M-V, § 74 Abs. 1 Satz 2 VwGO)",
        court_review_remedy: "keine Klage: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_final_remedy: "keiner: die Entscheidung ist unanfechtbar",
        successor_title: "Bekanntmachung über das Nachrücken in die Vertretung „{name}“",
        vacancy_title: "Bekanntmachung über das Freibleiben eines Sitzes in der Vertretung „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft in der Vertretung „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Einsprüche gegen die Feststellung des Nachrückens in die Vertretung „{name}“",
        not_acquired_subject: None,
        correction_title: "Berichtigung der Bekanntmachung über das Nachrücken in die Vertretung „{name}“",
    },
};

/// A council (`body.kind = council`).
static PROCEDURE: Procedure = COUNCIL;

/// Why a barred successor to a Kreistag is passed over or must prove the end of the bar (docs/legal.md, "Kreistage").
const KREISTAG_BAR: &str = "Unvereinbarkeit von Amt und Mandat nach Teil 2 KV M-V (Landkreisordnung)";

/// A Kreistag: the council's procedure with the Kreistag's norms and words (docs/legal.md, "Kreistage").
static KREISTAG: Procedure = Procedure {
    bar_citation: KREISTAG_BAR,
    texts: Texts {
        determination_subject: "Nachrücken in den Kreistag „{name}“ – Benachrichtigung und Hinweis auf die Wochenfrist",
        barred_subject: "Nachrücken in den Kreistag „{name}“ – Benachrichtigung und Hinweis auf die Wochenfrist und die Unvereinbarkeit",
        announcement_remedy: "Einspruch binnen zwei Wochen nach der Bekanntmachung unter Angabe der Gründe bei der Kreiswahlleitung{office}, ohne aufschiebende Wirkung (§ 46 Abs. 4 i. V. m. § 35 LKWG M-V)",
        successor_title: "Bekanntmachung über das Nachrücken in den Kreistag „{name}“",
        vacancy_title: "Bekanntmachung über das Freibleiben eines Sitzes im Kreistag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft im Kreistag „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Einsprüche gegen die Feststellung des Nachrückens in den Kreistag „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über das Nachrücken in den Kreistag „{name}“",
        ..COUNCIL.texts
    },
    ..COUNCIL
};

/// The rule set's citations that differ for a Kreistag (`LandLaw::kreistag_citations`; docs/legal.md, "Kreistage").
static KREISTAG_CITATIONS: &[(&str, &str)] = &[(rules::mv::BAR_CITATION, KREISTAG_BAR)];

/// § 2 FTG M-V beyond the nationwide holidays: the Reformationstag, and the Internationaler Frauentag from 2023
/// (amendment of June 2022; docs/legal.md).
const HOLIDAYS: &[Holiday] = &[
    Holiday::Fixed { month: 3, day: 8, name: "Frauentag" },
    Holiday::Fixed { month: 10, day: 31, name: "Reformationstag" },
];
/// The first year the Frauentag is a holiday in Mecklenburg-Vorpommern.
const FRAUENTAG_SINCE: i32 = 2023;

impl LandLaw for Mv {
    /// Several Wahlbereiche (§ 61 Abs. 2, § 64 LKWG M-V): an exhausted Wahlvorschlag falls back to the party's
    /// Wahlvorschläge in the other Wahlbereiche — § 46 Abs. 3 Satz 1 LKWG M-V: "… so gilt bei der Wahl einer
    /// kommunalen Vertretung in einem Wahlgebiet mit mehreren Wahlbereichen § 64 Absatz 5 … entsprechend" (as a 2024
    /// notice quotes it). § 64 Abs. 5 was read only to "… diejenigen Personen auf den Wahlvorschlägen dieser Partei
    /// oder Wählergruppe in den …": the order by votes and the lot are a **[decision]** (docs/legal.md, "Several
    /// Wahlbereiche" and "Issue 25, fourth pass").
    fn areas(&self, _kind: BodyKind) -> rules::Areas {
        rules::Areas::FallBack(rules::FallBack {
            citation: "§ 46 Abs. 3 Satz 1 i. V. m. § 64 Abs. 5 LKWG M-V",
            lot: "§ 46 Abs. 3 Satz 1 i. V. m. § 64 Abs. 5 LKWG M-V",
        })
    }

    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        // § 60 Abs. 1 Satz 1 LKWG M-V: the kommunalen Vertretungen are always elected by Verhältniswahl
        // (docs/legal.md, "Point 6: Mehrheitswahl")
        if s.body.electoral_system == ElectoralSystem::Majority {
            return Err(ValidationError::new(
                "body.electoral_system",
                "Mecklenburg-Vorpommern has no majority election for a kommunale Vertretung: it is elected by a mit der Personenwahl verbundene Verhältniswahl (§ 60 Abs. 1 Satz 1 LKWG M-V)",
            ));
        }
        super::refuse_district_substitute(&s.body.readings)?;
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                let path = format!("lists[{li}].candidates[{ci}]");
                if c.votes.is_none() {
                    return Err(ValidationError::new(
                        format!("{path}.votes"),
                        "is required in a Mecklenburg-Vorpommern body (§ 33 Abs. 2 Satz 3 LKWG M-V: the Ersatzpersonen rank by votes)",
                    ));
                }
                super::refuse_ersatzbewerber(
                    c,
                    || format!("{path}.substitute_for"),
                    "in Mecklenburg-Vorpommern the votes decide (§ 33 Abs. 2 LKWG M-V)",
                )?;
                if let Some(seat) = &c.seat {
                    if seat.via == SeatVia::PersonalVote {
                        return Err(ValidationError::new(
                            format!("{path}.seat.via"),
                            "is list or succession in Mecklenburg-Vorpommern",
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn validate_cause(&self, cause: Cause) -> Result<(), ValidationError> {
        match cause {
            Cause::Ordinary => Ok(()),
            // § 65 Abs. 1 Nr. 5 with § 46 Abs. 1 LKWG M-V: the seat passes to the next Ersatzperson; who belonged
            // to the banned party is passed over (§ 47 Abs. 1; `rules::mv::PARTY_BAN_SEAT`)
            Cause::PartyBan { .. } => Ok(()),
            Cause::ResultCorrected => Err(super::result_correction_not_read()),
            Cause::Merger => Err(super::merger_is_hessens(Some("LKWG M-V"))),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::mv::decide(body, q)
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        rules::mv::list_order(s, body.list(list))
    }

    /// § 2 FTG M-V; the Frauentag from 2023.
    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        holiday_in(&[NATIONWIDE, HOLIDAYS], d).filter(|name| *name != "Frauentag" || d.year() >= FRAUENTAG_SINCE)
    }

    /// **[verify]** the Zustellung of the VwVfG M-V (old § 97: the third day after posting; whether the Land
    /// followed the federal fourth day from 2025 is open, docs/legal.md).
    fn service_act(&self) -> &'static str {
        "VwVfG M-V"
    }

    fn procedure_act(&self) -> &'static str {
        "VwVfG M-V"
    }

    /// § 34 Satz 1, 2 LKWG M-V: membership "eine Woche nach" the notice, unless refused in writing within it.
    fn membership_at_period_end(&self) -> bool {
        true
    }

    /// § 25 Abs. 4 KV M-V: an Unvereinbarkeit holds up neither the succession nor membership; the membership
    /// rests until the incompatible post is given up (docs/legal.md, "Mecklenburg-Vorpommern").
    fn bar_effect(&self) -> BarEffect {
        BarEffect::HoldsUpNothing
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
