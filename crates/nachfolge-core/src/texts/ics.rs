//! The end of a running period after service as an iCalendar entry (RFC 5545): one VCALENDAR with one
//! all-day VEVENT on the period's last day (Fristende), for the returning officer's calendar.
//!
//! Pure: the shell gives the case, the period and the time stamp and serves the text
//! (`GET /raete/{body}/faelle/{case}/frist.ics`, docs/console.md). It carries the Aktenzeichen, the
//! council's name, the day of service and the last day with the statute — nothing the successor's own
//! letter does not carry, and no name or address. The period always runs from service (Zustellung), so the
//! notification sent at the determination cannot carry it; the period notice sent when service is recorded
//! attaches it ([`super::period`]; docs/console.md, "Period as a calendar entry").

use chrono::{DateTime, NaiveDate, Utc};

use crate::calendar::german_date;
use crate::land::Acceptance;
use crate::model::{BodyKind, Land};

/// Which period the entry is for: part of its UID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeriodKind {
    /// The period to declare whether the successor accepts (Erklärung über die Annahme der Wahl); a barred
    /// successor proves the end of the bar within the same period.
    Acceptance,
    /// Hessen: the week to prove the end of the bar (§ 34 Abs. 3 i. V. m. § 23 Abs. 2 KWG); there is no
    /// acceptance to declare.
    BarProof,
}

impl PeriodKind {
    /// The period after service in a Land's procedure for a body of `kind`; `None` where none runs
    /// (`Acceptance::ByLaw`: Baden-Württemberg, Sachsen).
    pub fn of(land: Land, kind: BodyKind) -> Option<PeriodKind> {
        match land.law().procedure(kind).acceptance {
            Acceptance::Declaration | Acceptance::ExpressDeclaration => Some(PeriodKind::Acceptance),
            Acceptance::WithDetermination => Some(PeriodKind::BarProof),
            Acceptance::ByLaw { .. } => None,
        }
    }

    /// `acceptance`, `bar-proof`.
    pub fn as_str(self) -> &'static str {
        match self {
            PeriodKind::Acceptance => "acceptance",
            PeriodKind::BarProof => "bar-proof",
        }
    }
}

/// The statute that sets the period after service, as the Land's letter to the successor cites it
/// (`config/templates/mail/`, `config/templates/law/`); `None` for a Land without such a period.
/// A Kreistag's (or another body kind's) where the Land's table names one (`LandLaw::kind_citations`). **[decision]** in every Land
/// listed the same act governs councils and district assemblies (docs/legal.md, "The period as a calendar
/// entry").
pub fn period_citation(land: Land, kind: BodyKind) -> Option<&'static str> {
    // a Bayern Bezirkstag: the Bezirkswahlgesetz, not the GLKrWG (docs/legal.md, "Bayern's Bezirkstage")
    if (land, kind) == (Land::By, BodyKind::Bezirkstag) {
        return Some("Art. 4 Abs. 2 Satz 1, Abs. 3 BezWG");
    }
    let council = council_period_citation(land)?;
    match land.law().kind_citations(kind).iter().find(|(c, _)| *c == council) {
        Some((_, own)) => Some(own),
        None => Some(council),
    }
}

fn council_period_citation(land: Land) -> Option<&'static str> {
    Some(match land {
        Land::Nw => "§ 45 Abs. 6 Satz 2 KWahlG NRW",
        Land::He => "§ 34 Abs. 3 Satz 2 i. V. m. § 23 Abs. 2 KWG",
        Land::By => "Art. 48 Abs. 3 Satz 3 i. V. m. Art. 47 Abs. 2 Satz 1 GLKrWG",
        Land::Ni => "§ 40 Abs. 1 Sätze 1 und 2 NKWG",
        Land::Rp => "§ 45 Abs. 5 i. V. m. § 44 Abs. 1 KWG",
        Land::Bb => "§ 51 Abs. 1 Satz 1 BbgKWahlG",
        Land::Mv => "§ 34 Satz 1 und 2 LKWG M-V",
        Land::Sh => "§ 37 Satz 1 GKWG",
        Land::St => "§ 43 Abs. 1 Satz 1 KWG LSA",
        Land::Th => "§ 23 Abs. 4 Halbsatz 2 i. V. m. § 29 Satz 1 ThürKWG",
        Land::Sl => "§ 43 Satz 1 KWG i. V. m. § 57 Abs. 4 KWO",
        Land::Bw | Land::Sn => return None,
    })
}

/// The facts of one calendar entry.
#[derive(Debug, Clone)]
pub struct PeriodEntry<'a> {
    /// The case id (the Aktenzeichen of the letter).
    pub case: &'a str,
    pub round: u32,
    pub kind: PeriodKind,
    pub land: Land,
    pub body_kind: BodyKind,
    /// The council's name, as the letter writes it.
    pub body_name: &'a str,
    /// Day of service (Zustellung), actual or deemed.
    pub served_on: NaiveDate,
    /// Last day of the period, after any extension.
    pub last_day: NaiveDate,
    /// When the entry is made (DTSTAMP).
    pub stamp: DateTime<Utc>,
}

/// The entry's UID: stable per case, round and period kind, so a calendar replaces the entry it holds
/// (`<case>-<round>-<kind>@nachfolge`, the case as an [`id_token`]). Two cases never share a UID: the
/// round and the kind are read from the right, the rest is the token, which decodes to one case only.
pub fn period_uid(case: &str, round: u32, kind: PeriodKind) -> String {
    format!("{}-{round}-{}@nachfolge", id_token(case), kind.as_str())
}

/// An id as a token for a Message-ID (RFC 5322 `dot-atom-text`) or a calendar UID, one to one: ASCII
/// letters, digits and `-` stay as they are, every other byte of the UTF-8 text becomes `=XX` (upper-case
/// hex; `=` itself included, so the encoding can be undone and two ids never share a token). The token holds
/// no `.`, so a dot after it ends it. Ids made only of letters, digits and `-` keep the token they always had.
pub fn id_token(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("={b:02X}"));
        }
    }
    out
}

/// The VCALENDAR (RFC 5545) with one all-day VEVENT on the last day of the period: CRLF line endings
/// (§ 3.1), lines folded at 75 octets (§ 3.1), TEXT values escaped (§ 3.3.11), `METHOD:PUBLISH`.
pub fn period_calendar(e: &PeriodEntry<'_>) -> String {
    let (what, summary_what) = match e.kind {
        PeriodKind::Acceptance => {
            ("die Erklärung über die Annahme der Wahl", "Ende der Frist zur Erklärung über die Annahme der Wahl")
        }
        PeriodKind::BarProof => (
            "den Nachweis der Beendigung des mit der Mitgliedschaft unvereinbaren Amtes oder Arbeitsverhältnisses",
            "Ende der Frist zum Nachweis der Beendigung der Unvereinbarkeit",
        ),
    };
    let body = match e.body_kind {
        BodyKind::Council => "Vertretung",
        BodyKind::Kreistag => "Kreistag",
        BodyKind::Bezirkstag => "Bezirkstag",
        BodyKind::Regionalversammlung => "Regionalversammlung",
    };
    let summary = format!("{summary_what} – {body} „{}“", e.body_name);
    let basis = period_citation(e.land, e.body_kind).map(|c| format!(" ({c})")).unwrap_or_default();
    let description = format!(
        "Aktenzeichen: {} (Runde {})\nFrist für {what}{basis}.\nZustellung am {}; die Frist endet mit Ablauf des {} (24:00 Uhr).",
        e.case,
        e.round,
        german_date(e.served_on),
        german_date(e.last_day),
    );
    let next_day = e.last_day.succ_opt().unwrap_or(e.last_day);
    let lines = [
        "BEGIN:VCALENDAR".to_owned(),
        "VERSION:2.0".to_owned(),
        "PRODID:-//nachfolge//Fristen//DE".to_owned(),
        "CALSCALE:GREGORIAN".to_owned(),
        "METHOD:PUBLISH".to_owned(),
        "BEGIN:VEVENT".to_owned(),
        format!("UID:{}", escape(&period_uid(e.case, e.round, e.kind))),
        format!("DTSTAMP:{}", e.stamp.format("%Y%m%dT%H%M%SZ")),
        format!("DTSTART;VALUE=DATE:{}", e.last_day.format("%Y%m%d")),
        format!("DTEND;VALUE=DATE:{}", next_day.format("%Y%m%d")),
        format!("SUMMARY:{}", escape(&summary)),
        format!("DESCRIPTION:{}", escape(&description)),
        "TRANSP:TRANSPARENT".to_owned(),
        "END:VEVENT".to_owned(),
        "END:VCALENDAR".to_owned(),
    ];
    let mut out = String::new();
    for line in &lines {
        out.push_str(&fold(line));
        out.push_str("\r\n");
    }
    out
}

/// A TEXT value escaped (RFC 5545 § 3.3.11): `\` → `\\`, `;` → `\;`, `,` → `\,`, a line break → `\n`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push_str("\\n");
                }
            }
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// A content line folded (RFC 5545 § 3.1): no line longer than 75 octets without its CRLF, each
/// continuation starting with one space; never inside a UTF-8 character.
pub fn fold(line: &str) -> String {
    const MAX: usize = 75;
    let mut out = String::with_capacity(line.len() + line.len() / MAX * 3);
    let mut used = 0;
    for c in line.chars() {
        let n = c.len_utf8();
        if used + n > MAX {
            out.push_str("\r\n ");
            used = 1;
        }
        out.push(c);
        used += n;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(case: &str) -> PeriodEntry<'_> {
        PeriodEntry {
            case,
            round: 2,
            kind: PeriodKind::Acceptance,
            land: Land::Nw,
            body_kind: BodyKind::Council,
            body_name: "Rat der Stadt Musterstadt; Ausschuss, Bezirk\\Nord",
            served_on: NaiveDate::from_ymd_opt(2026, 12, 3).expect("date"),
            last_day: NaiveDate::from_ymd_opt(2026, 12, 10).expect("date"),
            stamp: DateTime::parse_from_rfc3339("2026-12-02T03:50:07Z").expect("time").with_timezone(&Utc),
        }
    }

    /// Undo the folding: CRLF followed by one space is removed (RFC 5545 § 3.1).
    fn unfold(text: &str) -> String {
        text.replace("\r\n ", "")
    }

    #[test]
    fn rfc_5545_section_3_1_lines_end_with_crlf_and_fold_at_75_octets() {
        let ics = period_calendar(&entry("rat-1"));
        assert!(ics.ends_with("END:VCALENDAR\r\n"), "{ics}");
        for line in ics.split_terminator("\r\n") {
            assert!(line.len() <= 75, "{} octets: {line:?}", line.len());
            assert!(!line.contains('\n') && !line.contains('\r'), "bare line break in {line:?}");
        }
        assert!(ics.contains("\r\n "), "the description is long enough to be folded");
        // folding never splits a UTF-8 character: every physical line is valid UTF-8 on its own
        for line in ics.as_bytes().split(|b| *b == b'\n') {
            assert!(std::str::from_utf8(line).is_ok());
        }
        let long = "X".repeat(200) + &"ü".repeat(100);
        let folded = fold(&long);
        assert!(folded.split("\r\n").all(|l| l.len() <= 75));
        assert_eq!(unfold(&folded), long);
    }

    #[test]
    fn rfc_5545_section_3_3_11_text_escapes_backslash_semicolon_comma_and_newline() {
        assert_eq!(escape("a\\b;c,d\ne\r\nf"), "a\\\\b\\;c\\,d\\ne\\nf");
        let ics = unfold(&period_calendar(&entry("rat-1")));
        assert!(
            ics.contains("SUMMARY:Ende der Frist zur Erklärung über die Annahme der Wahl – Vertretung „Rat der Stadt Musterstadt\\; Ausschuss\\, Bezirk\\\\Nord“\r\n"),
            "{ics}"
        );
        assert!(ics.contains("DESCRIPTION:Aktenzeichen: rat-1 (Runde 2)\\nFrist für die Erklärung über die Annahme der Wahl (§ 45 Abs. 6 Satz 2 KWahlG NRW).\\nZustellung am 03.12.2026\\; die Frist endet mit Ablauf des 10.12.2026 (24:00 Uhr).\r\n"), "{ics}");
    }

    #[test]
    fn id_tokens_are_one_to_one_clean_ids_unchanged() {
        assert_eq!(id_token("musterstadt-rat-1"), "musterstadt-rat-1");
        // the ids that all became `rat_1` before
        let ids = ["rat/1", "rat 1", "rat_1", "rat.1", "rat=2F1", "ratä1", "rat\u{1F600}1"];
        let tokens: std::collections::HashSet<String> = ids.iter().map(|i| id_token(i)).collect();
        assert_eq!(tokens.len(), ids.len(), "{tokens:?}");
        assert_eq!(id_token("rat/1"), "rat=2F1");
        assert_eq!(id_token("rat=2F1"), "rat=3D2F1");
        assert_eq!(id_token("ratä1"), "rat=C3=A41");
        assert!(ids.iter().all(|i| !id_token(i).contains('.')));
        assert_ne!(period_uid("rat/1", 2, PeriodKind::Acceptance), period_uid("rat 1", 2, PeriodKind::Acceptance));
    }

    #[test]
    fn rfc_5545_section_3_6_1_one_all_day_event_on_the_last_day_with_a_stable_uid() {
        let ics = unfold(&period_calendar(&entry("rat/1")));
        let lines: Vec<&str> = ics.split_terminator("\r\n").collect();
        assert_eq!(lines.first(), Some(&"BEGIN:VCALENDAR"));
        for want in [
            "VERSION:2.0",
            "METHOD:PUBLISH",
            "UID:rat=2F1-2-acceptance@nachfolge",
            "DTSTAMP:20261202T035007Z",
            "DTSTART;VALUE=DATE:20261210",
            "DTEND;VALUE=DATE:20261211",
        ] {
            assert!(lines.contains(&want), "{want} missing in {ics}");
        }
        assert_eq!(lines.iter().filter(|l| **l == "BEGIN:VEVENT").count(), 1);
        assert_eq!(lines.last(), Some(&"END:VCALENDAR"));
        // another stamp, the same UID: the calendar replaces the entry
        let mut later = entry("rat/1");
        later.stamp += chrono::Duration::days(1);
        assert!(unfold(&period_calendar(&later)).contains("UID:rat=2F1-2-acceptance@nachfolge\r\n"));
        let mut proof = entry("rat/1");
        proof.kind = PeriodKind::BarProof;
        proof.land = Land::He;
        let ics = unfold(&period_calendar(&proof));
        assert!(ics.contains("UID:rat=2F1-2-bar-proof@nachfolge\r\n"), "{ics}");
        assert!(ics.contains("(§ 34 Abs. 3 Satz 2 i. V. m. § 23 Abs. 2 KWG)"), "{ics}");
        // a Kreistag is named as one
        let mut kreistag = entry("kt-1");
        kreistag.body_kind = BodyKind::Kreistag;
        kreistag.body_name = "Kreistag Musterkreis";
        let ics = unfold(&period_calendar(&kreistag));
        assert!(ics.contains("– Kreistag „Kreistag Musterkreis“\r\n"), "{ics}");
    }

    #[test]
    fn the_period_kind_follows_the_lands_procedure() {
        assert_eq!(PeriodKind::of(Land::Nw, BodyKind::Council), Some(PeriodKind::Acceptance));
        assert_eq!(PeriodKind::of(Land::By, BodyKind::Council), Some(PeriodKind::Acceptance));
        assert_eq!(PeriodKind::of(Land::He, BodyKind::Council), Some(PeriodKind::BarProof));
        assert_eq!(PeriodKind::of(Land::Bw, BodyKind::Council), None);
        assert_eq!(period_citation(Land::Sn, BodyKind::Council), None);
    }
}
