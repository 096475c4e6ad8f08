//! The words of the procedure: the German subjects and titles, the legal bases and remedies, and the
//! template context of every e-mail and announcement.
//!
//! The procedure says *what* happened — a [`Notice`]: which case, as it stood, who succeeds, the trail,
//! and for an announcement its [`AnnouncementKind`], number, objection period and [`Detail`] — and this
//! module says it in German. One place to change what a letter or an announcement says: the wording
//! per Land is [`crate::land::Texts`] (subjects, titles, remedies) and the templates under
//! `config/templates/` (sentences); how the facts reach the templates is here.

pub mod consequence;
pub mod ics;
pub mod letter;
pub mod period;
mod words;

pub use words::{
    addressee, departure_de, departure_in, gendered, gendered_phrases, reason_de, reason_de_in, salutation,
};

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::calendar::{berlin, german_date, local_date};
use crate::deadline::ObjectionPeriod;
use crate::land::Texts;
use crate::messages::{DepartureReason, MembershipBasis, ReviewOutcome};
use crate::model::Body;
use crate::rules::VacancyReason;
use crate::trail::{TrailStep, Verdict};

/// What an e-mail is: part of its Message-ID (the determination's keeps the id it always had).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MailKind {
    /// The notification of the determination (NRW: with the acceptance request).
    #[default]
    Determination,
    /// Hessen: the membership of a barred successor is deemed not acquired, retroactively (§ 23 Abs. 2 Satz 3
    /// KWG, § 56 Abs. 2 KWO).
    NotAcquired,
    /// The Fristmitteilung: service recorded, the period runs; for information, with the period as a calendar
    /// entry ([`period::period_notice_mail`]).
    PeriodNotice,
}

impl MailKind {
    /// `determination`, `not_acquired`, `period_notice`.
    pub fn as_str(self) -> &'static str {
        match self {
            MailKind::Determination => "determination",
            MailKind::NotAcquired => "not_acquired",
            MailKind::PeriodNotice => "period_notice",
        }
    }

    /// The kind of its stored name ([`MailKind::as_str`]); `None` for a name not known.
    pub fn from_name(name: &str) -> Option<MailKind> {
        match name {
            "determination" => Some(MailKind::Determination),
            "not_acquired" => Some(MailKind::NotAcquired),
            "period_notice" => Some(MailKind::PeriodNotice),
            _ => None,
        }
    }
}

/// An e-mail to render and send.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MailRequest {
    pub case: String,
    /// The round the mail belongs to (a not-acquired mail: the round of the person concerned).
    pub round: u32,
    #[serde(default)]
    pub kind: MailKind,
    pub candidate: String,
    pub to: Option<String>,
    pub reply_to: String,
    /// Template name under `templates/mail/` (`.txt` and `.html`).
    pub template: String,
    pub subject: String,
    pub context: Value,
    /// Keeps two mails of one kind in one round apart in their Message-ID (the period notice: the day of
    /// service, `YYYYMMDD`, so a later certificate that moves the period is mailed again); `None`: the kind
    /// and round are unique.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// An RFC 5545 calendar (`text/calendar; method=PUBLISH`) to attach as `frist.ics` (the period notice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calendar: Option<String>,
}

/// A public announcement (Bekanntmachung) to render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Announcement {
    pub case: String,
    pub kind: String,
    pub title: String,
    pub legal_basis: String,
    pub objection_period: String,
    /// Template name under `templates/announcement/`.
    pub template: String,
    pub issued_at: DateTime<Utc>,
    pub context: Value,
}

/// What an announcement announces; its wire name (`kind`) picks the template `<prefix>_<kind>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnnouncementKind {
    /// The successor determined (or, with a declaration, accepted).
    Successor,
    /// The seat stays vacant.
    Vacancy,
    /// Hessen: a barred successor's membership is deemed not acquired.
    NotAcquired,
    /// A review decision (Wahlprüfung, Einspruchsentscheidung).
    Review,
    /// The correction of an announced deemed acceptance.
    Correction,
}

impl AnnouncementKind {
    /// `successor`, `vacancy`, `not_acquired`, `review`, `correction`.
    pub fn as_str(self) -> &'static str {
        match self {
            AnnouncementKind::Successor => "successor",
            AnnouncementKind::Vacancy => "vacancy",
            AnnouncementKind::NotAcquired => "not_acquired",
            AnnouncementKind::Review => "review",
            AnnouncementKind::Correction => "correction",
        }
    }
}

/// Where a case stood when the notice was issued, as far as the texts tell it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stage {
    /// Offered (NRW) or determined pending the proof (Hessen): when, from when the successor is a member, and
    /// whether a Hinderungsgrund or Unvereinbarkeit was recorded at the determination (`Offer::barred`).
    Offered { determined_at: DateTime<Utc>, member_since: Option<DateTime<Utc>>, barred: bool },
    /// The seat is filled.
    Filled { since: DateTime<Utc>, basis: MembershipBasis },
    /// The seat stays vacant.
    Vacant(VacancyReason),
    /// Anything else (awaiting a lot, proposed).
    Open,
}

/// A case as the texts see it.
#[derive(Debug, Clone, Copy)]
pub struct CaseFacts<'a> {
    pub id: &'a str,
    pub round: u32,
    /// The member who left.
    pub departed: &'a str,
    pub reason: DepartureReason,
    pub effective_at: DateTime<Utc>,
    pub stage: Stage,
    /// The lot that chose the successor (§ 34 Abs. 1a KWG): who drew it, and when.
    pub lot: Option<(&'a str, DateTime<FixedOffset>)>,
    /// The final review decision (`amended`) that installed the successor of this round, if one did.
    pub review: Option<ReviewFacts<'a>>,
}

/// A review decision as the letter to the successor it installed tells it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReviewFacts<'a> {
    pub decided_at: DateTime<Utc>,
    /// The day it became unanfechtbar / rechtskräftig (`None` for records stored before it was asked for).
    pub final_on: Option<NaiveDate>,
    /// `council`, `court` or the deciding office.
    pub decided_by: Option<&'a str>,
}

/// What happened, for one e-mail or announcement: the case (`None` if unknown), the person concerned, the
/// trail of the determination.
#[derive(Debug, Clone, Copy)]
pub struct Notice<'a> {
    pub case_id: &'a str,
    pub case: Option<CaseFacts<'a>>,
    pub successor: Option<&'a str>,
    pub trail: &'a [TrailStep],
    pub now: DateTime<Utc>,
}

/// What an announcement adds to the common facts.
#[derive(Debug, Clone, PartialEq)]
pub enum Detail<'a> {
    None,
    /// A declaration that came in time corrects an announced deemed acceptance.
    Correction {
        /// `accept` or `refuse`
        kind: &'a str,
        received_at: DateTime<Utc>,
        last_day: Option<NaiveDate>,
        deemed_since: DateTime<Utc>,
        /// the membership that now begins (an acceptance)
        member_since: Option<DateTime<Utc>>,
    },
    /// A review decision.
    Review {
        outcome: ReviewOutcome,
        decided_at: DateTime<Utc>,
        decided_by: Option<&'a str>,
        by_council: bool,
        by_court: bool,
        officer_inactive: bool,
        citation: &'a str,
        /// the person who held (or was offered) the seat, and whether he was a member
        previous: Option<(&'a str, bool)>,
        was_vacant: bool,
        is_final: bool,
        /// the day it became unanfechtbar / rechtskräftig (with `is_final`)
        final_on: Option<NaiveDate>,
    },
}

/// The dates a not-acquired notice tells (Hessen § 23 Abs. 2 Satz 3 KWG).
#[derive(Debug, Clone, Copy)]
pub struct NotAcquired {
    pub member_since: DateTime<Utc>,
    pub determined_at: DateTime<Utc>,
    pub served_on: Option<NaiveDate>,
    pub last_day: Option<NaiveDate>,
    pub ended: DateTime<Utc>,
}

/// The notification of the determination to the successor (NRW: with the acceptance request; Hessen: the
/// determination, for a barred successor with the proof request). `None` without a successor.
pub fn determination_mail(body: &Body, n: &Notice<'_>) -> Option<MailRequest> {
    let successor = n.successor?;
    let c = body.candidate(successor)?;
    let info = body.info();
    let procedure = body.land().law().procedure(body.info().kind);
    let texts = &procedure.texts;
    let barred = c.is_barred_at(local_date(n.now));
    let subject = if barred { texts.barred_subject } else { texts.determination_subject };
    Some(MailRequest {
        case: n.case_id.to_owned(),
        round: n.case.map_or(0, |c| c.round),
        kind: MailKind::Determination,
        candidate: successor.to_owned(),
        to: c.email.clone(),
        reply_to: info.returning_officer.email.clone(),
        template: procedure.determination_mail.to_owned(),
        subject: Texts::with_name(subject, &info.name),
        context: context(body, n),
        variant: None,
        calendar: None,
    })
}

/// Hessen: the notice to a barred successor that his membership is deemed not acquired, retroactively; `None`
/// where the Land has no such rule.
pub fn not_acquired_mail(body: &Body, n: &Notice<'_>, d: &NotAcquired) -> Option<MailRequest> {
    let procedure = body.land().law().procedure(body.info().kind);
    let (template, subject) = (procedure.not_acquired_mail?, procedure.texts.not_acquired_subject?);
    let successor = n.successor?;
    let c = body.candidate(successor)?;
    let info = body.info();
    let mut context = context(body, n);
    if let Some(obj) = context.as_object_mut() {
        obj.insert(
            "not_acquired".into(),
            json!({
                "member_since": german_date(local_date(d.member_since)),
                "determined_date": german_date(local_date(d.determined_at)),
                "served_on": d.served_on.map(german_date),
                "last_day": d.last_day.map(german_date),
                "ended_date": german_date(local_date(d.ended)),
            }),
        );
    }
    Some(MailRequest {
        case: n.case_id.to_owned(),
        round: n.case.map_or(0, |c| c.round),
        kind: MailKind::NotAcquired,
        candidate: successor.to_owned(),
        to: c.email.clone(),
        reply_to: info.returning_officer.email.clone(),
        template: template.to_owned(),
        subject: Texts::with_name(subject, &info.name),
        context,
        variant: None,
        calendar: None,
    })
}

/// A public announcement: its title, legal basis, remedy, template and facts. `number` is its number in the
/// case; `objection` the period an objection against it runs in (none against a review decision).
pub fn announcement(
    body: &Body,
    n: &Notice<'_>,
    kind: AnnouncementKind,
    number: u32,
    objection: Option<&ObjectionPeriod>,
    detail: &Detail<'_>,
) -> Announcement {
    let info = body.info();
    let texts = &body.land().law().procedure(info.kind).texts;
    let stage = n.case.map(|c| c.stage);
    let party_ban = stage == Some(Stage::Vacant(VacancyReason::PartyBanned));
    let (legal_basis, remedy) = match (kind, detail) {
        (AnnouncementKind::Review, Detail::Review { by_court: true, .. }) => {
            (texts.review_basis, texts.court_review_remedy)
        }
        (AnnouncementKind::Review, Detail::Review { is_final: false, .. }) => (texts.review_basis, texts.review_remedy),
        (AnnouncementKind::Review, _) => (texts.review_basis, texts.review_final_remedy),
        (AnnouncementKind::Vacancy, _) if party_ban => {
            (texts.party_ban_basis.unwrap_or(texts.announcement_basis), texts.announcement_remedy)
        }
        _ => (texts.announcement_basis, texts.announcement_remedy),
    };
    // the court and the authority with their seats (§ 58 Abs. 1 VwGO)
    let remedy = Texts::with_venues(remedy, info);
    let title = match kind {
        AnnouncementKind::Vacancy => texts.vacancy_title,
        AnnouncementKind::NotAcquired => texts.not_acquired_title,
        AnnouncementKind::Review => texts.review_title,
        AnnouncementKind::Correction => texts.correction_title,
        AnnouncementKind::Successor => texts.successor_title,
    };
    let mut context = context(body, n);
    if let Some(obj) = context.as_object_mut() {
        match stage {
            Some(Stage::Filled { since, basis }) => {
                obj.insert("member_since".into(), json!(german_date(local_date(since))));
                obj.insert("member_since_past".into(), json!(local_date(since) < local_date(n.now)));
                obj.insert("basis".into(), json!(basis));
            }
            Some(Stage::Vacant(reason)) => {
                obj.insert("reason".into(), json!(reason));
            }
            _ => {}
        }
        obj.insert("objection_period".into(), json!(remedy));
        obj.insert("legal_basis".into(), json!(legal_basis));
        obj.insert("announcement".into(), json!(number));
        if let Some(p) = objection {
            obj.insert(
                "objection_period_ends".into(),
                json!({"last_day": p.last_day, "ends_at": berlin(p.ends_at), "trail": p.trail}),
            );
        }
        match detail {
            Detail::None => {}
            Detail::Correction { kind, received_at, last_day, deemed_since, member_since } => {
                obj.insert(
                    "correction".into(),
                    json!({
                        "kind": kind,
                        "accepted": *kind == "accept",
                        "received_date": german_date(local_date(*received_at)),
                        "last_day": last_day.map(german_date),
                        "deemed_date": german_date(local_date(*deemed_since)),
                        "member_since": member_since.map(|t| german_date(local_date(t))),
                    }),
                );
            }
            Detail::Review {
                outcome,
                decided_at,
                decided_by,
                by_council,
                by_court,
                officer_inactive,
                citation,
                previous,
                was_vacant,
                is_final,
                final_on,
            } => {
                let previous = previous.and_then(|(id, was_member)| {
                    let c = body.candidate(id)?;
                    Some(json!({"id": c.id, "name": c.full_name(), "position": c.position, "was_member": was_member,
                        "form": c.form_of_address}))
                });
                obj.insert(
                    "review".into(),
                    json!({
                        "outcome": outcome,
                        "decided_date": german_date(local_date(*decided_at)),
                        "decided_by": decided_by,
                        "by_council": by_council,
                        "by_court": by_court,
                        "officer_inactive": officer_inactive,
                        "citation": citation,
                        "previous": previous,
                        "was_vacant": was_vacant,
                        "final": is_final,
                        "final_date": final_on.map(german_date),
                    }),
                );
            }
        }
    }
    Announcement {
        case: n.case_id.to_owned(),
        kind: kind.as_str().to_owned(),
        title: Texts::with_name(title, &info.name),
        legal_basis: legal_basis.to_owned(),
        objection_period: remedy,
        template: format!("{}_{}", texts.template_prefix, kind.as_str()),
        issued_at: n.now,
        context,
    }
}

/// The template context shared by e-mails and announcements: names, dates, and who was passed over.
fn context(body: &Body, n: &Notice<'_>) -> Value {
    let info = body.info();
    let today = local_date(n.now);
    let case = n.case.as_ref();
    let departed = case.and_then(|c| body.candidate(c.departed));
    let list = case.and_then(|c| body.list_of(c.departed));
    let succ = n.successor.and_then(|s| body.candidate(s));
    let offer = case.and_then(|c| match c.stage {
        Stage::Offered { determined_at, member_since, .. } => Some((determined_at, member_since)),
        _ => None,
    });
    // what the end of the period will do, as the procedure decides it (the offer's bar, else the candidate's)
    let barred = match case.map(|c| c.stage) {
        Some(Stage::Offered { barred, .. }) => barred,
        _ => succ.is_some_and(|s| s.is_barred_at(today)),
    };
    let consequences = succ.map(|_| consequence::context(&consequence::consequences(body, barred)));
    let passed_over: Vec<Value> = n
        .trail
        .iter()
        .filter(|s| s.verdict == Verdict::Skipped && s.reason != "departed")
        .filter_map(|s| {
            let c = body.candidate(s.candidate.as_deref()?)?;
            Some(json!({
                "id": c.id, "name": c.full_name(), "position": c.position, "form": c.form_of_address,
                "reason": gendered_phrases(&reason_de_in(&s.reason, info.kind), c.form_of_address), "citation": s.citation,
            }))
        })
        .collect();
    let chosen = n
        .trail
        .iter()
        .find(|s| s.verdict == Verdict::Chosen)
        .map(|s| json!({"candidate": s.candidate, "reason": s.reason, "citation": s.citation}));
    let member_since = offer.and_then(|(_, m)| m);
    // Baden-Württemberg: the successor held a weiterer Sitz and moves into the Wohnbezirk seat (§ 31 Abs. 2 Satz 2
    // GemO); his letter tells of the move, not of an entry into the council
    let moves_up = n.trail.iter().any(|s| {
        matches!(s.reason.as_str(), "additional_seat_holder_moves_up" | "ausgleichssitz_holder_moves_up")
            && s.candidate.is_some()
            && s.candidate.as_deref() == n.successor
    });
    // "besteht seit" only for a day before today, "beginnt am" otherwise
    let member_since_past = member_since.is_some_and(|t| local_date(t) < today);
    // an Ersatzbewerber's candidate (KWahlO NRW § 62 Nr. 4, § 69 Abs. 2)
    let substitute_for = succ
        .and_then(|s| s.substitute_for.as_deref())
        .and_then(|id| body.candidate(id))
        .map(|c| json!({"id": c.id, "name": c.full_name()}));
    let lot = case.filter(|_| n.successor.is_some()).and_then(|c| c.lot).map(|(drawn_by, drawn_at)| {
        let at = berlin(drawn_at.with_timezone(&Utc));
        json!({"drawn_by": drawn_by, "drawn_date": german_date(at.date_naive()), "drawn_time": at.format("%H:%M").to_string()})
    });
    json!({
        "land": body.land(),
        // the body's kind and its words in the four cases, the returning officer's office and title
        // (`model::BodyKind`; docs/legal.md, "Kreistage")
        "body": {
            "id": info.id, "name": info.name, "statutory_size": info.statutory_size,
            "kind": info.kind.code(), "nom": info.kind.nominative(), "Nom": info.kind.nominative_capitalized(),
            "acc": info.kind.accusative(),
            "dat": info.kind.dative(), "gen": info.kind.genitive(),
            "office": info.kind.office(), "officer_title": info.officer_title(),
            // `confirm`: the returning officer or (Bayern) the council determines each successor
            "determination": info.determination,
            "electoral_system": info.electoral_system,
        },
        "officer": info.returning_officer,
        // the venues a Rechtsbehelfsbelehrung names with their seats (§ 58 Abs. 1 VwGO), and the same as the
        // words a sentence inserts („bei der Wahlleitung{office}“, „vor dem Verwaltungsgericht{court}“): empty for a
        // body stored before registration asked for them
        "court": info.remedy_court,
        "authority": info.supervisory_authority,
        "venue": {
            "office": info.returning_officer.address.as_deref().map(|a| format!(", {a},")).unwrap_or_default(),
            "court": Texts::with_venues("{court}", info),
            "authority": Texts::with_venues("{authority}", info),
        },
        "case": n.case_id,
        "round": case.map(|c| c.round),
        "departed": departed.map(|d| json!({"id": d.id, "name": d.full_name(), "form": d.form_of_address})),
        "departure": case.map(|c| c.reason),
        "departure_reason": case.map(|c| departure_in(c.reason, info.kind)),
        "effective_date": case.map(|c| german_date(local_date(c.effective_at))),
        "list": list.map(|l| json!({"id": l.id, "name": l.name, "short_name": l.short_name, "kind": l.kind})),
        // the Anrede of a letter to the successor (docs/legal.md, "Form of address")
        "salutation": succ.map(salutation),
        "successor": succ.map(|s| json!({
            "id": s.id, "name": s.full_name(), "position": s.position, "form": s.form_of_address,
            "postal_address": s.postal_address, "barred": s.is_barred_at(today), "bar_reason": s.bar_at(today),
            "substitute_for": substitute_for, "district": s.district,
        })),
        "moves_up": moves_up,
        "determined_date": german_date(local_date(offer.map(|(d, _)| d).unwrap_or(n.now))),
        "passed_over": passed_over,
        "chosen": chosen,
        "lot": lot,
        // the final review decision that installed the successor (his letter names it, offers no objection)
        "installed_by_review": case.and_then(|c| c.review).filter(|_| n.successor.is_some()).map(|r| json!({
            "decided_date": german_date(local_date(r.decided_at)),
            "final_date": r.final_on.map(german_date),
            "by_council": r.decided_by == Some("council"),
            "by_court": r.decided_by == Some("court"),
        })),
        "consequences": consequences,
        "member_since": member_since.map(|t| german_date(local_date(t))),
        "member_since_past": member_since_past,
        "today": german_date(today),
        "place": place_of(info.returning_officer.address.as_deref()),
    })
}

/// The place for the signature line ("Musterstadt, 02.12.2026"): the town after the postal code of the
/// returning officer's address, if it has one.
fn place_of(address: Option<&str>) -> Option<String> {
    let last = address?.rsplit(',').next()?.trim();
    let (code, town) = last.split_once(' ')?;
    (code.len() == 5 && code.chars().all(|c| c.is_ascii_digit()) && !town.trim().is_empty())
        .then(|| town.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::place_of;

    #[test]
    fn the_signature_place_is_the_town_after_the_postal_code() {
        assert_eq!(place_of(Some("Rathausplatz 1, 12345 Musterstadt")).as_deref(), Some("Musterstadt"));
        assert_eq!(place_of(Some("Rathausplatz 1, Musterstadt")), None);
        assert_eq!(place_of(None), None);
    }
}
