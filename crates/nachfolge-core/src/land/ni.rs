//! Niedersachsen: Niedersächsisches Kommunalwahlgesetz (NKWG), § 44 "Ersatz von Vertreterinnen und Vertretern"
//! with §§ 38, 40, 45 and § 49a, the Kommunalwahlordnung (NKWO) § 77, § 50 NKomVG (Unvereinbarkeit), the
//! NVwZG and NVwVfG (which apply the federal VwZG and VwVfG) and the Feiertagsgesetz (NFeiertagsG). Who
//! succeeds: `rules/ni.rs`. Readings taken: docs/legal.md, "Niedersachsen".

use chrono::{Datelike, NaiveDate};

use super::{Acceptance, LandLaw, Objection, Procedure, Reservation, Review, Span, Texts};
use crate::calendar::{holiday_in, Holiday, NATIONWIDE};
use crate::model::{Body, BodyKind, ElectoralSystem, ListKind, SeatVia, Snapshot, ValidationError};
use crate::rules::{self, Cause, DecideError, Decision, ListOrder, Query, Standing};

/// Niedersachsen.
pub(super) struct Ni;

const COUNCIL: Procedure = Procedure {
    // § 77 Abs. 1 Satz 1, 2 NKWO, § 40 Abs. 1 NKWG: served notice; one week after Zugang (the service), in
    // writing; silence is acceptance "mit Beginn des nächsten Tages nach Ablauf der Frist" (the instant the
    // period ends); a reservation is refusal; a refusal cannot be withdrawn. A barred Ersatzperson proves the
    // end of the bar within the week, else his election counts as refused (docs/legal.md)
    acceptance: Acceptance::Declaration,
    reservation: Reservation::Refusal,
    determination_mail: "ni_offer",
    not_acquired_mail: None,
    // a refusal: out for the Wahlperiode, the seat passes to the next Ersatzperson
    next_round_citation: Some("§ 45 Abs. 1 Satz 1 NKWG"),
    bar_citation: rules::ni::BAR_CITATION,
    // [decision] the Einspruch of the special procedure of § 49a NKWG (VG Braunschweig 1 A 21/09), within two
    // weeks as the Wahleinspruch (§ 46 Abs. 3 Satz 1 NKWG); § 49a not read (docs/legal.md, open points)
    objection: Objection {
        span: Span::Weeks(2),
        reason: "two_weeks_after_announcement",
        citation: "§ 49a NKWG, Frist entsprechend § 46 Abs. 3 Satz 1 NKWG",
    },
    review: Review {
        // [decision] the Vertretung decides (VG Braunschweig 1 A 33/12: "Feststellung des Rats")
        council_refused: None,
        citation: "§ 49a NKWG",
        council_in_place_of_officer: None,
    },
    texts: Texts {
        template_prefix: "ni",
        determination_subject: "Übergang eines Sitzes in der Vertretung „{name}“ auf Sie als Ersatzperson – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Übergang eines Sitzes in der Vertretung „{name}“ auf Sie als Ersatzperson – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis nach § 50 Abs. 3 NKomVG",
        announcement_basis: "§ 77 Abs. 1 Satz 3 NKWO",
        party_ban_basis: Some("§ 44 Abs. 3 NKWG i. V. m. § 77 Abs. 1 Satz 3 NKWO"),
        announcement_remedy: "Einspruch binnen zwei Wochen nach der Bekanntmachung, schriftlich oder zur Niederschrift bei der Wahlleitung{office} (§ 49a NKWG)",
        review_basis: "§ 49a NKWG",
        review_remedy: "Klage vor dem Verwaltungsgericht{court} binnen eines Monats nach Zustellung der Entscheidung (§ 74 Abs. 1 Satz 2 VwGO)",
        court_review_remedy: "keine Klage: die Entscheidung vollzieht eine gerichtliche Entscheidung",
        review_final_remedy: "keiner: die Entscheidung ist unanfechtbar",
        successor_title: "Bekanntmachung über den Übergang eines Sitzes auf eine Ersatzperson in der Vertretung „{name}“",
        vacancy_title: "Bekanntmachung über einen unbesetzt bleibenden Sitz in der Vertretung „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft in der Vertretung „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Einsprüche gegen den Übergang eines Sitzes in der Vertretung „{name}“",
        not_acquired_subject: None,
        correction_title: "Berichtigung der Bekanntmachung über den Übergang eines Sitzes auf eine Ersatzperson in der Vertretung „{name}“",
    },
};

/// A council (`body.kind = council`).
static PROCEDURE: Procedure = COUNCIL;

/// A Kreistag: the council's procedure with the Kreistag's norms and words (docs/legal.md, "Kreistage").
static KREISTAG: Procedure = Procedure {
    texts: Texts {
        determination_subject: "Übergang eines Sitzes im Kreistag „{name}“ auf Sie als Ersatzperson – Aufforderung zur Erklärung über die Annahme der Wahl",
        barred_subject: "Übergang eines Sitzes im Kreistag „{name}“ auf Sie als Ersatzperson – Aufforderung zur Erklärung über die Annahme der Wahl und zum Nachweis nach § 50 Abs. 3 NKomVG",
        announcement_remedy: "Einspruch binnen zwei Wochen nach der Bekanntmachung, schriftlich oder zur Niederschrift bei der Kreiswahlleitung{office} (§ 49a NKWG)",
        successor_title: "Bekanntmachung über den Übergang eines Sitzes auf eine Ersatzperson im Kreistag „{name}“",
        vacancy_title: "Bekanntmachung über einen unbesetzt bleibenden Sitz im Kreistag „{name}“",
        not_acquired_title: "Bekanntmachung über den Nichterwerb der Mitgliedschaft im Kreistag „{name}“",
        review_title: "Bekanntmachung der Entscheidung über Einsprüche gegen den Übergang eines Sitzes im Kreistag „{name}“",
        correction_title: "Berichtigung der Bekanntmachung über den Übergang eines Sitzes auf eine Ersatzperson im Kreistag „{name}“",
        ..COUNCIL.texts
    },
    ..COUNCIL
};

/// § 2 Abs. 1 NFeiertagsG beyond the nationwide holidays: the Reformationstag (Buchst. h, since the law of
/// 22 June 2018; in 2017 a one-off holiday).
const HOLIDAYS: &[Holiday] = &[Holiday::Fixed { month: 10, day: 31, name: "Reformationstag" }];
/// The first year the Reformationstag was a holiday in Niedersachsen.
const REFORMATIONSTAG_SINCE: i32 = 2017;

impl LandLaw for Ni {
    /// Several Wahlbereiche (§ 37 NKWG): an exhausted Wahlvorschlag falls back to the party's Wahlvorschläge in
    /// the other Wahlbereiche, by votes, lot on equal votes (§ 44 Abs. 5 Satz 1 i. V. m. § 37 Abs. 5, § 38 Abs. 5).
    fn areas(&self, _kind: BodyKind) -> rules::Areas {
        rules::Areas::FallBack(rules::FallBack { citation: rules::ni::OTHER_AREAS, lot: rules::ni::OTHER_AREAS_LOT })
    }

    fn validate(&self, s: &Snapshot) -> Result<(), ValidationError> {
        if s.body.electoral_system == ElectoralSystem::Majority {
            return Err(ValidationError::new(
                "body.electoral_system",
                "a majority election is not modelled for Niedersachsen; its Ersatzpersonen follow § 38 NKWG for proportional elections only (docs/legal.md)",
            ));
        }
        super::refuse_district_substitute(&s.body.readings)?;
        for (li, list) in s.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                let path = format!("lists[{li}].candidates[{ci}]");
                super::refuse_ersatzbewerber(
                    c,
                    || format!("{path}.substitute_for"),
                    "in Niedersachsen § 38 NKWG decides",
                )?;
                if let Some(seat) = &c.seat {
                    if !matches!(seat.via, SeatVia::PersonalVote | SeatVia::List) {
                        return Err(ValidationError::new(
                            format!("{path}.seat.via"),
                            "is personal_vote (Personenwahl, § 36 Abs. 5 NKWG) or list (Listenwahl, § 36 Abs. 6 NKWG) in Niedersachsen; a seat that passed to an Ersatzperson keeps how it was won",
                        ));
                    }
                }
                if list.kind == ListKind::Individual {
                    continue;
                }
                if c.votes.is_none() {
                    return Err(ValidationError::new(
                        format!("{path}.votes"),
                        "is required in a Niedersachsen body (§ 38 Abs. 2 NKWG ranks by votes; 0 if none)",
                    ));
                }
                if c.position.is_none() {
                    return Err(ValidationError::new(
                        format!("{path}.position"),
                        "is required in a Niedersachsen body (§ 38 Abs. 3 NKWG: the order of the Wahlvorschlag)",
                    ));
                }
            }
        }
        Ok(())
    }

    fn validate_cause(&self, cause: Cause) -> Result<(), ValidationError> {
        match cause {
            // § 44 Abs. 3 NKWG
            Cause::Ordinary | Cause::PartyBan { .. } => Ok(()),
            Cause::ResultCorrected => Err(super::result_correction_not_read()),
            Cause::Merger => Err(super::merger_is_hessens(Some("NKWG"))),
        }
    }

    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError> {
        rules::ni::decide(body, q)
    }

    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder {
        rules::ni::list_order(s, body.list(list))
    }

    /// § 2 Abs. 1 NFeiertagsG.
    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str> {
        if d.year() >= REFORMATIONSTAG_SINCE {
            holiday_in(&[NATIONWIDE, HOLIDAYS], d)
        } else {
            holiday_in(&[NATIONWIDE], d)
        }
    }

    fn service_act(&self) -> &'static str {
        "VwZG i. V. m. § 1 Abs. 1 NVwZG"
    }

    fn procedure_act(&self) -> &'static str {
        "VwVfG i. V. m. § 1 Abs. 1 NVwVfG"
    }

    /// The seat passes as it was won (§ 44 Abs. 1: "geht der Sitz … über"): a later vacancy of the successor
    /// is filled as that seat's (docs/legal.md, "Niedersachsen").
    fn successor_seat_via(&self, departed_via: Option<SeatVia>) -> SeatVia {
        departed_via.unwrap_or(SeatVia::Succession)
    }

    /// § 52 Abs. 1 Satz 1 Nr. 7 NKomVG: the seat is lost by "Ablauf der Frist gemäß § 50 Abs. 3 Satz 3 oder 5,
    /// wenn der nach diesen Vorschriften erforderliche Nachweis nicht geführt ist" — the end of the employment
    /// is proven within four months after the acceptance (§ 50 Abs. 3 Satz 3 **[verify]**, as § 51 Abs. 2 Satz 3
    /// BbgKWahlG; docs/legal.md, "Niedersachsen").
    fn bar_end_proof_months(&self) -> Option<(u32, &'static str)> {
        Some((4, "§ 50 Abs. 3 Satz 3, § 52 Abs. 1 Satz 1 Nr. 7 NKomVG"))
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
