//! The Fristmitteilung: the e-mail to the successor once service is recorded and his period after service
//! runs (`deadline.set`). It tells him the day of service, the period with its statute, its end, and what
//! happens when it passes — for information; it does not replace the letter served — and carries the period
//! as an RFC 5545 calendar entry, the same text the console's `frist.ics` gives (docs/console.md, "Period as a
//! calendar entry"; docs/legal.md, "The period notice to the successor").
//!
//! The sentences on what happens when the period passes are the ones the Land's letter to the successor
//! already writes (`config/templates/mail/<land>_offer`, `he_determination`, `law/<land>.txt`), with their
//! citations: no new reading of a statute.

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
                "lapse": lapse(land, body_kind, kind, p.barred),
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

/// What happens when the period passes, sentence by sentence, as the Land's letter says it: silence first,
/// then, for a barred successor, the missing proof. Hessen runs a period only for a barred successor.
pub fn lapse(land: Land, body_kind: BodyKind, kind: PeriodKind, barred: bool) -> Vec<&'static str> {
    let mut out = Vec::new();
    if kind == PeriodKind::BarProof {
        out.push(
            "Wird der Nachweis nicht bis zum Ablauf der Frist erbracht, gilt Ihre Mitgliedschaft rückwirkend als nicht erworben (§ 23 Abs. 2 Satz 3 KWG); an Ihre Stelle rückt dann die nächste Bewerberin oder der nächste Bewerber nach.",
        );
        return out;
    }
    let silence = match land {
        Land::Nw => "Geben Sie bis zum Ablauf der Frist keine Erklärung ab, gilt die Wahl mit Ablauf der Frist als angenommen (§ 45 Abs. 6 Satz 4 KWahlG).",
        Land::Rp => "Geben Sie bis zum Ablauf der Frist keine Erklärung ab, gilt die Wahl als angenommen (§ 44 Abs. 2 Satz 1 KWG).",
        Land::Ni => "Geben Sie bis zum Ablauf der Frist keine Erklärung ab, gilt die Wahl mit Beginn des nächsten Tages nach Ablauf der Frist als angenommen (§ 40 Abs. 1 Satz 4 NKWG).",
        Land::St => "Geben Sie bis zum Ablauf der Frist keine Erklärung ab, gilt die Wahl mit Beginn des folgenden Tages als angenommen (§ 43 Abs. 1 Satz 2 KWG LSA).",
        Land::Th => "Geben Sie bis zum Ablauf der Frist keine Erklärung ab, gilt die Wahl als angenommen (§ 29 Satz 2 ThürKWG); eine Ablehnung muss innerhalb der Frist schriftlich erklärt werden.",
        Land::Bb => "Geben Sie bis zum Ablauf der Frist keine Erklärung ab, gilt die Wahl mit Beginn des folgenden Tages als angenommen (§ 51 Abs. 1 Satz 2 BbgKWahlG).",
        Land::Mv => "Lehnen Sie die Wahl nicht bis zum Ablauf der Frist schriftlich ab, erwerben Sie die Mitgliedschaft mit Ablauf der Woche (§ 34 Satz 1 LKWG M-V); auch eine Annahmeerklärung lässt die Mitgliedschaft nicht früher beginnen.",
        Land::Sh => "Lehnen Sie die Wahl nicht bis zum Ablauf der Frist schriftlich ab, erwerben Sie die Mitgliedschaft mit Ablauf der Frist (§ 37 Satz 1 GKWG); auch eine Annahmeerklärung lässt die Mitgliedschaft nicht früher beginnen.",
        Land::By => match body_kind {
            BodyKind::Council => "Nehmen Sie die Wahl nicht bis zum Ablauf der Frist schriftlich oder zur Niederschrift bei der Gemeindeverwaltung an, gilt sie als abgelehnt (Art. 47 Abs. 2 Satz 2 GLKrWG); es rückt dann die nächste Listennachfolgerin oder der nächste Listennachfolger nach.",
            BodyKind::Kreistag => "Nehmen Sie die Wahl nicht bis zum Ablauf der Frist schriftlich oder zur Niederschrift beim Landratsamt an, gilt sie als abgelehnt (Art. 47 Abs. 2 Satz 2 GLKrWG); es rückt dann die nächste Listennachfolgerin oder der nächste Listennachfolger nach.",
        },
        Land::He | Land::Bw | Land::Sn => return out,
    };
    out.push(silence);
    if barred {
        // MV and SH: an Unvereinbarkeit holds up nothing; Bayern passes a barred successor over
        let proof = match land {
            Land::Nw => Some("Weisen Sie mir nicht bis zum Ablauf der Frist nach, dass Sie das mit der Mitgliedschaft unvereinbare Amt oder Arbeitsverhältnis beendet haben, gilt die Wahl als abgelehnt (§ 69 Abs. 2 in Verbindung mit § 62 Nr. 5 KWahlO)."),
            Land::Rp => Some("Weisen Sie mir nicht bis zum Ablauf der Frist die Beendigung Ihres Dienst- oder Beschäftigungsverhältnisses oder Ihre Beurlaubung ohne Bezüge nach, gilt die Wahl als abgelehnt (§ 66 Abs. 1 Satz 4 in Verbindung mit § 64 Abs. 2 Satz 1 KWO)."),
            Land::Ni => Some("Weisen Sie mir nicht bis zum Ablauf der Frist nach, dass das mit der Mitgliedschaft unvereinbare Dienst- oder Beschäftigungsverhältnis beendet ist, gilt die Wahl als abgelehnt (§ 50 Abs. 3 NKomVG)."),
            Land::St => Some("Weisen Sie mir nicht bis zum Ablauf der Frist nach, dass der Hinderungsgrund beseitigt ist, wird verfahren, als hätten Sie die Annahme der Wahl abgelehnt; der Sitz geht auf die nächste nächst festgestellte Bewerberin oder den nächsten nächst festgestellten Bewerber über."),
            Land::Th => Some("Weisen Sie mir nicht bis zum Ablauf der Frist nach, dass die Unvereinbarkeit beendet ist, wird verfahren, als hätten Sie die Wahl abgelehnt; als Nachrückerin oder Nachrücker wird dann die nächste Person festgestellt."),
            Land::Bb => Some("Weisen Sie mir nicht bis zum Ablauf der Frist nach, dass Sie die zur Beendigung Ihres Beamten- oder Arbeitnehmerverhältnisses erforderliche Erklärung abgegeben haben, gilt die Wahl als abgelehnt (§ 51 Abs. 2 Satz 1, 2 und 4 BbgKWahlG)."),
            _ => None,
        };
        out.extend(proof);
    }
    out
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
        for land in [Land::Nw, Land::Rp, Land::Ni, Land::St, Land::Th, Land::Bb, Land::Mv, Land::Sh, Land::By] {
            for body_kind in [BodyKind::Council, BodyKind::Kreistag] {
                let kind = PeriodKind::of(land, body_kind).expect("a period");
                let words = lapse(land, body_kind, kind, false);
                assert_eq!(words.len(), 1, "{land:?}");
                assert!(words[0].contains("Ablauf der Frist"), "{land:?}: {}", words[0]);
            }
        }
        assert_eq!(
            lapse(Land::Nw, BodyKind::Council, PeriodKind::Acceptance, true)[1],
            "Weisen Sie mir nicht bis zum Ablauf der Frist nach, dass Sie das mit der Mitgliedschaft unvereinbare Amt oder Arbeitsverhältnis beendet haben, gilt die Wahl als abgelehnt (§ 69 Abs. 2 in Verbindung mit § 62 Nr. 5 KWahlO)."
        );
        // an Unvereinbarkeit holds up nothing in Schleswig-Holstein and Mecklenburg-Vorpommern
        assert_eq!(lapse(Land::Sh, BodyKind::Council, PeriodKind::Acceptance, true).len(), 1);
        assert_eq!(lapse(Land::Mv, BodyKind::Council, PeriodKind::Acceptance, true).len(), 1);
        let he = lapse(Land::He, BodyKind::Council, PeriodKind::BarProof, true);
        assert!(he[0].contains("rückwirkend als nicht erworben (§ 23 Abs. 2 Satz 3 KWG)"), "{he:?}");
        assert!(lapse(Land::Bw, BodyKind::Council, PeriodKind::Acceptance, false).is_empty());
    }
}
