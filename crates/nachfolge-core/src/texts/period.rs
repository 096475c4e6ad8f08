//! The Fristmitteilung: the e-mail to the successor once service is recorded and his period after service
//! runs (`deadline.set`). It tells him the day of service, the period with its statute, its end, and what
//! happens when it passes — for information; it does not replace the letter served — and carries the period
//! as an RFC 5545 calendar entry, the same text the console's `frist.ics` gives (docs/console.md, "Period as a
//! calendar entry"; docs/legal.md, "The period notice to the successor").
//!
//! The sentences on what happens when the period passes are the letter's (`texts::consequence`), chosen by the
//! effect the procedure applies when the period ends (`land::lapse`).

use chrono::{DateTime, NaiveDate, Utc};
use serde_json::json;

use super::ics::{period_calendar, period_citation, PeriodEntry, PeriodKind};
use super::{context, MailKind, MailRequest, Notice};
use crate::calendar::{berlin, german_date};
use crate::model::{Body, BodyKind, Land};

/// The template of the period notice, one for every Land (the Land's words come from here).
pub const PERIOD_NOTICE_TEMPLATE: &str = "period_notice";

/// How the day of service came about, as the notice says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Served {
    /// Served on that day (Postzustellungsurkunde, Rückschein, Empfangsbekenntnis).
    On,
    /// Deemed served on that day (the registered letter's Zustellungsfiktion).
    Deemed,
    /// Received on that day (a healed service, § 8 VwZG and the Länder's acts; Bayern's Zugang).
    Received,
}

/// The facts of one period notice.
#[derive(Debug, Clone, Copy)]
pub struct PeriodFacts {
    pub served: Served,
    /// Day of service (Zustellung) or receipt, actual or deemed.
    pub served_on: NaiveDate,
    /// Last day of the period, after any extension.
    pub last_day: NaiveDate,
    /// The instant the period ends.
    pub ends_at: DateTime<Utc>,
    /// The successor must prove the end of a bar within the period.
    pub barred: bool,
}

/// The period notice to the successor of `n`; `None` without an e-mail address, for a Land without a
/// period after service, or once the period has ended (`n.now` at or after `ends_at`).
pub fn period_notice_mail(body: &Body, n: &Notice<'_>, p: &PeriodFacts) -> Option<MailRequest> {
    if n.now >= p.ends_at {
        return None;
    }
    let successor = n.successor?;
    let c = body.candidate(successor)?;
    let to = c.email.clone()?;
    let info = body.info();
    let (land, body_kind) = (body.land(), info.kind);
    let kind = PeriodKind::of(land, body_kind)?;
    let citation = period_citation(land, body_kind)?;
    let round = n.case.map_or(0, |c| c.round);
    let calendar = period_calendar(&PeriodEntry {
        case: n.case_id,
        round,
        kind,
        land,
        body_kind,
        body_name: &info.name,
        served_on: p.served_on,
        last_day: p.last_day,
        stamp: n.now,
    });
    let end_time = end_time(p.last_day, p.ends_at);
    let mut context = context(body, n);
    if let Some(obj) = context.as_object_mut() {
        obj.insert(
            "period".into(),
            json!({
                "kind": kind.as_str(),
                "document": document(land),
                "served": match p.served { Served::On => "on", Served::Deemed => "deemed", Served::Received => "received" },
                "served_on": german_date(p.served_on),
                "what": what(kind),
                "citation": citation,
                "last_day": german_date(p.last_day),
                "end_time": end_time,
                "lapse": lapse(body, p.barred),
                "barred": p.barred,
            }),
        );
    }
    let subject = format!(
        "Fristmitteilung: Ende der Frist am {}, {} „{}“",
        german_date(p.last_day),
        match body_kind {
            BodyKind::Council => "Vertretung",
            BodyKind::Kreistag => "Kreistag",
            BodyKind::Bezirkstag => "Bezirkstag",
            BodyKind::Regionalversammlung => "Regionalversammlung",
        },
        info.name
    );
    Some(MailRequest {
        case: n.case_id.to_owned(),
        round,
        kind: MailKind::PeriodNotice,
        candidate: successor.to_owned(),
        to: Some(to),
        reply_to: info.returning_officer.email.clone(),
        template: PERIOD_NOTICE_TEMPLATE.to_owned(),
        subject,
        context,
        variant: Some(p.served_on.format("%Y%m%d").to_string()),
        calendar: Some(calendar),
    })
}

/// The document whose service started the period, as the Land's letter names itself, up to „in <body>“.
/// The time of day a period ending at `ends_at` ends on its `last_day` (Europe/Berlin): the end of a day is
/// „24:00“ of that day (§ 188 Abs. 1 BGB), not 00:00 of the next; else the instant's „HH:MM“.
pub fn end_time(last_day: NaiveDate, ends_at: DateTime<Utc>) -> String {
    let end = berlin(ends_at);
    if end.date_naive() > last_day {
        "24:00".to_owned()
    } else {
        end.format("%H:%M").to_string()
    }
}

fn document(land: Land) -> &'static str {
    match land {
        Land::He => "Feststellung Ihres Nachrückens",
        Land::By => "Verständigung über Ihr Nachrücken",
        _ => "Benachrichtigung über Ihr Nachrücken",
    }
}

/// What the period is for (after „Frist zur …“ / „Frist zum …“).
fn what(kind: PeriodKind) -> &'static str {
    match kind {
        PeriodKind::Acceptance => "zur Erklärung über die Annahme der Wahl",
        PeriodKind::BarProof => {
            "zum Nachweis, dass Sie das mit der Mitgliedschaft unvereinbare Amt oder Arbeitsverhältnis beendet haben"
        }
    }
}

/// What happens when the period passes, sentence by sentence — the same sentences as the letter, chosen by the
/// effect the procedure will apply ([`super::consequence`]): silence first, then, for a barred successor, the
/// missing proof. Hessen runs a period only for a barred successor.
pub fn lapse(body: &Body, barred: bool) -> Vec<String> {
    super::consequence::consequences(body, barred).lapse
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bgb_188_abs_1_a_period_ends_at_24_00_of_its_last_day() {
        let last = NaiveDate::from_ymd_opt(2026, 12, 9).expect("day");
        let at = |t: &str| DateTime::parse_from_rfc3339(t).expect("instant").with_timezone(&Utc);
        // midnight after the last day, Europe/Berlin (23:00 UTC in winter)
        assert_eq!(end_time(last, at("2026-12-09T23:00:00Z")), "24:00");
        // an end within the last day keeps its time
        assert_eq!(end_time(last, at("2026-12-09T17:00:00Z")), "18:00");
    }

    #[test]
    fn every_land_with_a_period_says_what_happens_when_it_passes() {
        let snapshot = |land: &str, kind: &str| {
            let s = serde_json::json!({
                "body": {"id": "b", "name": "Rat", "land": land, "kind": kind, "statutory_size": 10,
                    "term": {"start": "2024-06-01", "end": "2029-05-31"},
                    "returning_officer": {"name": "Wahlleitung", "email": "w@example.org"}},
                "lists": [],
            });
            serde_json::from_value::<crate::model::Snapshot>(s).map(Body::indexed).expect("snapshot")
        };
        for land in ["NW", "RP", "NI", "ST", "TH", "BB", "MV", "SH", "BY", "SL"] {
            for kind in ["council", "kreistag"] {
                let words = lapse(&snapshot(land, kind), false);
                assert_eq!(words.len(), 1, "{land}");
                assert!(words[0].contains("Ablauf der Frist"), "{land}: {}", words[0]);
            }
        }
        assert_eq!(
            lapse(&snapshot("NW", "council"), true)[0],
            "Weisen Sie mir nicht bis zum Ablauf der Frist nach, dass Sie das mit der Mitgliedschaft unvereinbare Amt oder Arbeitsverhältnis beendet haben, gilt die Wahl als abgelehnt (§ 69 Abs. 2 in Verbindung mit § 62 Nr. 5 KWahlO); das gilt auch, wenn Sie die Annahme erklärt oder keine Erklärung abgegeben haben."
        );
        // an Unvereinbarkeit holds up nothing in Mecklenburg-Vorpommern
        assert_eq!(lapse(&snapshot("MV", "council"), true), lapse(&snapshot("MV", "council"), false));
        let he = lapse(&snapshot("HE", "council"), true);
        assert!(he[0].contains("rückwirkend als nicht erworben (§ 23 Abs. 2 Satz 3 KWG)"), "{he:?}");
        assert!(lapse(&snapshot("BW", "council"), false).is_empty());
    }
}
