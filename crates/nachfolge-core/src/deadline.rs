//! Service (Zustellung), one-week periods and objection periods. The public holidays (gesetzliche
//! Feiertage) and the acts cited come from the Land's law (`land/<land>.rs`).
//!
//! Pure: no I/O, no clock reads. All calendar days are days in the council's time zone,
//! Europe/Berlin. Every computed deadline carries its own trail (service basis, fiction, §§ applied,
//! extension and why); see docs/legal.md ("Service fiction", "One-week period", "Objection period").

use chrono::{DateTime, Datelike, NaiveDate, Utc, Weekday};

use crate::calendar::{add_days, add_months_bgb, is_weekend};
pub use crate::calendar::{end_of_day, local_date};
use crate::land::{Land, Span};
use crate::trail::{TrailStep, Verdict};

/// How the service (Zustellung) date became known.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ServiceBasis {
    /// Postzustellungsurkunde (§ 3 LZG NRW / § 3 HVwZG): served on the given day.
    Certificate,
    /// Einschreiben mit Rückschein (§ 4 Abs. 2 Satz 1 LZG NRW / HVwZG): served on the given day.
    ReturnReceipt,
    /// Empfangsbekenntnis (§ 5 LZG NRW / HVwZG): served on the given day.
    Acknowledgement,
    /// Einschreiben, posted on the given day. Zustellungsfiktion (§ 4 Abs. 2 Satz 2 LZG NRW / HVwZG;
    /// § 4 Abs. 2 VwZG): deemed served on the 3rd day after posting if posted until 31 Dec 2024, on
    /// the 4th day if posted from 1 Jan 2025 (Postrechtsmodernisierungsgesetz).
    RegisteredLetterPosted,
    /// E-mail sent on the given day, deemed served `fiction_days` days later (configured per channel).
    Email {
        /// Days between sending and the deemed service.
        fiction_days: u32,
    },
}

/// First posting day for which the registered-letter fiction is the 4th instead of the 3rd day.
fn fourth_day_rule_from() -> NaiveDate {
    NaiveDate::from_ymd_opt(2025, 1, 1).unwrap_or(NaiveDate::MIN)
}

/// The service date (Zustellung) for a notification with `basis`, and the trail explaining it.
///
/// Explicit service messages (certificate, return receipt, acknowledgement) give the service day
/// itself; the fictions count from the day of posting / sending. No shift over weekends or
/// holidays applies to the fiction itself.
pub fn service_date(basis: &ServiceBasis, on: NaiveDate, land: Land) -> (NaiveDate, Vec<TrailStep>) {
    let law = land.law().service_act();
    let served = |citation: String| TrailStep::new(None, Verdict::Noted, "served", citation);
    match basis {
        // Postzustellungsurkunde
        ServiceBasis::Certificate => (on, vec![served(format!("§ 3 {law}"))]),
        // Einschreiben mit Rückschein: the Rückschein proves the day of service.
        ServiceBasis::ReturnReceipt => (on, vec![served(format!("§ 4 Abs. 2 Satz 1 {law}"))]),
        // Empfangsbekenntnis
        ServiceBasis::Acknowledgement => (on, vec![served(format!("§ 5 {law}"))]),
        ServiceBasis::RegisteredLetterPosted => {
            let days: u64 = if on < fourth_day_rule_from() { 3 } else { 4 };
            let date = add_days(on, days);
            let step = TrailStep {
                candidate: None,
                verdict: Verdict::Noted,
                reason: "service_fiction".to_owned(),
                citation: format!("§ 4 Abs. 2 {law}"),
                detail: None,
            };
            (date, vec![step])
        }
        ServiceBasis::Email { fiction_days } => {
            let date = add_days(on, u64::from(*fiction_days));
            let step = TrailStep {
                candidate: None,
                verdict: Verdict::Noted,
                reason: "service_fiction".to_owned(),
                citation: format!("§ 5 Abs. 7 {law}"),
                detail: None,
            };
            (date, vec![step])
        }
    }
}

/// A computed one-week period.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Deadline {
    /// Day of service (Zustellung), actual or deemed.
    pub served_on: NaiveDate,
    /// Last day of the period (Fristende), after any extension.
    pub last_day: NaiveDate,
    /// The instant the last day ends (24:00 Europe/Berlin = next day 00:00).
    pub ends_at: DateTime<Utc>,
    /// Service basis, fiction, §§ applied, extensions and why.
    pub trail: Vec<TrailStep>,
}

/// One-week period (§§ 187 Abs. 1, 188 Abs. 2 BGB) after service, extended over Sat/Sun/public
/// holidays of the Land to the next working day (§ 31 Abs. 3 Satz 1 VwVfG NRW / § 31 Abs. 3 Satz 1
/// HVwVfG) unless `fixed_end_date` (§ 31 Abs. 3 Satz 2) is true.
pub fn one_week_deadline(basis: &ServiceBasis, on: NaiveDate, land: Land, fixed_end_date: bool) -> Deadline {
    let (served_on, mut trail) = service_date(basis, on, land);
    let noted = |reason: String, citation: String| TrailStep {
        candidate: None,
        verdict: Verdict::Noted,
        reason,
        citation,
        detail: None,
    };

    // § 187 Abs. 1 BGB: the day of service is not counted; § 188 Abs. 2 BGB: the period ends with
    // the day of the next week that has the same weekday as the day of service.
    let mut last_day = add_days(served_on, 7);
    trail.push(noted("period_one_week".to_owned(), "§§ 187 Abs. 1, 188 Abs. 2 BGB".to_owned()));

    let vwvfg = land.law().procedure_act();
    if fixed_end_date {
        trail.push(noted("fixed_end_date".to_owned(), format!("§ 31 Abs. 3 Satz 2 {vwvfg}")));
    } else {
        let citation = format!("§ 31 Abs. 3 Satz 1 {vwvfg}");
        while !land.is_working_day(last_day) {
            let reason = if is_weekend(last_day) {
                let day = if last_day.weekday() == Weekday::Sat { "Saturday" } else { "Sunday" };
                format!("extended_weekend:{day}")
            } else {
                let name = land.holiday_name(last_day).unwrap_or("unknown");
                format!("extended_public_holiday:{name}")
            };
            trail.push(noted(reason, citation.clone()));
            match last_day.succ_opt() {
                Some(next) => last_day = next,
                None => break,
            }
        }
    }

    Deadline { served_on, last_day, ends_at: end_of_day(last_day), trail }
}

/// An objection period (Einspruchsfrist) after a public announcement.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ObjectionPeriod {
    pub last_day: NaiveDate,
    /// The instant the period ends: the day after `last_day`, 00:00 Europe/Berlin.
    pub ends_at: DateTime<Utc>,
    pub trail: Vec<TrailStep>,
}

/// The objection period of an announcement issued at `issued_at` under the Land's law (its
/// [`crate::land::Objection`]): the day of the announcement is not counted (§ 187 Abs. 1 BGB); a period of
/// months ends with the day of the last month that has the announcement day's number, or that month's last
/// day if it has no such day (§ 188 Abs. 2 and 3 BGB: 31 Jan → 28/29 Feb); a period of weeks with the same
/// weekday (§ 188 Abs. 2 BGB). It ends at 24:00 Europe/Berlin. **[decision]** Not extended over Saturdays,
/// Sundays or holidays: election periods are fixed (docs/legal.md, "Objection period").
pub fn objection_period(land: Land, issued_at: DateTime<Utc>) -> ObjectionPeriod {
    let rule = land.law().procedure().objection;
    let day = local_date(issued_at);
    let last_day = match rule.span {
        Span::Months(n) => add_months_bgb(day, n),
        Span::Weeks(n) => add_days(day, 7 * u64::from(n)),
    };
    let clamped = matches!(rule.span, Span::Months(_)) && last_day.day() != day.day();
    let trail = vec![
        TrailStep::new(None, Verdict::Noted, rule.reason, rule.citation),
        TrailStep::new(None, Verdict::Noted, "announcement_day_not_counted", "§ 187 Abs. 1 BGB"),
        TrailStep::new(
            None,
            Verdict::Noted,
            "ends_at_end_of_last_day",
            if clamped { "§ 188 Abs. 3 BGB" } else { "§ 188 Abs. 2 BGB" },
        ),
    ];
    ObjectionPeriod { last_day, ends_at: end_of_day(last_day), trail }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calendar::easter_sunday;

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("test date")
    }

    fn instant(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).expect("test instant").with_timezone(&Utc)
    }

    fn reasons(d: &Deadline) -> Vec<&str> {
        d.trail.iter().map(|s| s.reason.as_str()).collect()
    }

    fn served(on: &str, land: Land) -> Deadline {
        one_week_deadline(&ServiceBasis::Certificate, date(on), land, false)
    }

    const NW_HOLIDAYS: &[(i32, &[(&str, &str)])] = &[
        (
            2025,
            &[
                ("2025-01-01", "Neujahr"),
                ("2025-04-18", "Karfreitag"),
                ("2025-04-21", "Ostermontag"),
                ("2025-05-01", "Tag der Arbeit"),
                ("2025-05-29", "Christi Himmelfahrt"),
                ("2025-06-09", "Pfingstmontag"),
                ("2025-06-19", "Fronleichnam"),
                ("2025-10-03", "Tag der Deutschen Einheit"),
                ("2025-11-01", "Allerheiligen"),
                ("2025-12-25", "1. Weihnachtstag"),
                ("2025-12-26", "2. Weihnachtstag"),
            ],
        ),
        (
            2026,
            &[
                ("2026-01-01", "Neujahr"),
                ("2026-04-03", "Karfreitag"),
                ("2026-04-06", "Ostermontag"),
                ("2026-05-01", "Tag der Arbeit"),
                ("2026-05-14", "Christi Himmelfahrt"),
                ("2026-05-25", "Pfingstmontag"),
                ("2026-06-04", "Fronleichnam"),
                ("2026-10-03", "Tag der Deutschen Einheit"),
                ("2026-11-01", "Allerheiligen"),
                ("2026-12-25", "1. Weihnachtstag"),
                ("2026-12-26", "2. Weihnachtstag"),
            ],
        ),
        (
            2027,
            &[
                ("2027-01-01", "Neujahr"),
                ("2027-03-26", "Karfreitag"),
                ("2027-03-29", "Ostermontag"),
                ("2027-05-01", "Tag der Arbeit"),
                ("2027-05-06", "Christi Himmelfahrt"),
                ("2027-05-17", "Pfingstmontag"),
                ("2027-05-27", "Fronleichnam"),
                ("2027-10-03", "Tag der Deutschen Einheit"),
                ("2027-11-01", "Allerheiligen"),
                ("2027-12-25", "1. Weihnachtstag"),
                ("2027-12-26", "2. Weihnachtstag"),
            ],
        ),
        (
            2028,
            &[
                ("2028-01-01", "Neujahr"),
                ("2028-04-14", "Karfreitag"),
                ("2028-04-17", "Ostermontag"),
                ("2028-05-01", "Tag der Arbeit"),
                ("2028-05-25", "Christi Himmelfahrt"),
                ("2028-06-05", "Pfingstmontag"),
                ("2028-06-15", "Fronleichnam"),
                ("2028-10-03", "Tag der Deutschen Einheit"),
                ("2028-11-01", "Allerheiligen"),
                ("2028-12-25", "1. Weihnachtstag"),
                ("2028-12-26", "2. Weihnachtstag"),
            ],
        ),
        (
            2029,
            &[
                ("2029-01-01", "Neujahr"),
                ("2029-03-30", "Karfreitag"),
                ("2029-04-02", "Ostermontag"),
                ("2029-05-01", "Tag der Arbeit"),
                ("2029-05-10", "Christi Himmelfahrt"),
                ("2029-05-21", "Pfingstmontag"),
                ("2029-05-31", "Fronleichnam"),
                ("2029-10-03", "Tag der Deutschen Einheit"),
                ("2029-11-01", "Allerheiligen"),
                ("2029-12-25", "1. Weihnachtstag"),
                ("2029-12-26", "2. Weihnachtstag"),
            ],
        ),
        (
            2030,
            &[
                ("2030-01-01", "Neujahr"),
                ("2030-04-19", "Karfreitag"),
                ("2030-04-22", "Ostermontag"),
                ("2030-05-01", "Tag der Arbeit"),
                ("2030-05-30", "Christi Himmelfahrt"),
                ("2030-06-10", "Pfingstmontag"),
                ("2030-06-20", "Fronleichnam"),
                ("2030-10-03", "Tag der Deutschen Einheit"),
                ("2030-11-01", "Allerheiligen"),
                ("2030-12-25", "1. Weihnachtstag"),
                ("2030-12-26", "2. Weihnachtstag"),
            ],
        ),
    ];

    const HE_HOLIDAYS: &[(i32, &[(&str, &str)])] = &[
        (
            2025,
            &[
                ("2025-01-01", "Neujahr"),
                ("2025-04-18", "Karfreitag"),
                ("2025-04-20", "Ostersonntag"),
                ("2025-04-21", "Ostermontag"),
                ("2025-05-01", "Tag der Arbeit"),
                ("2025-05-29", "Christi Himmelfahrt"),
                ("2025-06-08", "Pfingstsonntag"),
                ("2025-06-09", "Pfingstmontag"),
                ("2025-06-19", "Fronleichnam"),
                ("2025-10-03", "Tag der Deutschen Einheit"),
                ("2025-12-25", "1. Weihnachtstag"),
                ("2025-12-26", "2. Weihnachtstag"),
            ],
        ),
        (
            2026,
            &[
                ("2026-01-01", "Neujahr"),
                ("2026-04-03", "Karfreitag"),
                ("2026-04-05", "Ostersonntag"),
                ("2026-04-06", "Ostermontag"),
                ("2026-05-01", "Tag der Arbeit"),
                ("2026-05-14", "Christi Himmelfahrt"),
                ("2026-05-24", "Pfingstsonntag"),
                ("2026-05-25", "Pfingstmontag"),
                ("2026-06-04", "Fronleichnam"),
                ("2026-10-03", "Tag der Deutschen Einheit"),
                ("2026-12-25", "1. Weihnachtstag"),
                ("2026-12-26", "2. Weihnachtstag"),
            ],
        ),
        (
            2027,
            &[
                ("2027-01-01", "Neujahr"),
                ("2027-03-26", "Karfreitag"),
                ("2027-03-28", "Ostersonntag"),
                ("2027-03-29", "Ostermontag"),
                ("2027-05-01", "Tag der Arbeit"),
                ("2027-05-06", "Christi Himmelfahrt"),
                ("2027-05-16", "Pfingstsonntag"),
                ("2027-05-17", "Pfingstmontag"),
                ("2027-05-27", "Fronleichnam"),
                ("2027-10-03", "Tag der Deutschen Einheit"),
                ("2027-12-25", "1. Weihnachtstag"),
                ("2027-12-26", "2. Weihnachtstag"),
            ],
        ),
        (
            2028,
            &[
                ("2028-01-01", "Neujahr"),
                ("2028-04-14", "Karfreitag"),
                ("2028-04-16", "Ostersonntag"),
                ("2028-04-17", "Ostermontag"),
                ("2028-05-01", "Tag der Arbeit"),
                ("2028-05-25", "Christi Himmelfahrt"),
                ("2028-06-04", "Pfingstsonntag"),
                ("2028-06-05", "Pfingstmontag"),
                ("2028-06-15", "Fronleichnam"),
                ("2028-10-03", "Tag der Deutschen Einheit"),
                ("2028-12-25", "1. Weihnachtstag"),
                ("2028-12-26", "2. Weihnachtstag"),
            ],
        ),
        (
            2029,
            &[
                ("2029-01-01", "Neujahr"),
                ("2029-03-30", "Karfreitag"),
                ("2029-04-01", "Ostersonntag"),
                ("2029-04-02", "Ostermontag"),
                ("2029-05-01", "Tag der Arbeit"),
                ("2029-05-10", "Christi Himmelfahrt"),
                ("2029-05-20", "Pfingstsonntag"),
                ("2029-05-21", "Pfingstmontag"),
                ("2029-05-31", "Fronleichnam"),
                ("2029-10-03", "Tag der Deutschen Einheit"),
                ("2029-12-25", "1. Weihnachtstag"),
                ("2029-12-26", "2. Weihnachtstag"),
            ],
        ),
        (
            2030,
            &[
                ("2030-01-01", "Neujahr"),
                ("2030-04-19", "Karfreitag"),
                ("2030-04-21", "Ostersonntag"),
                ("2030-04-22", "Ostermontag"),
                ("2030-05-01", "Tag der Arbeit"),
                ("2030-05-30", "Christi Himmelfahrt"),
                ("2030-06-09", "Pfingstsonntag"),
                ("2030-06-10", "Pfingstmontag"),
                ("2030-06-20", "Fronleichnam"),
                ("2030-10-03", "Tag der Deutschen Einheit"),
                ("2030-12-25", "1. Weihnachtstag"),
                ("2030-12-26", "2. Weihnachtstag"),
            ],
        ),
    ];
    #[test]
    fn holiday_tables_2025_to_2030() {
        for (land, table) in [(Land::Nw, NW_HOLIDAYS), (Land::He, HE_HOLIDAYS)] {
            for (year, expected) in table {
                let expected: Vec<(NaiveDate, &str)> = expected.iter().map(|(d, n)| (date(d), *n)).collect();
                assert_eq!(land.holidays(*year), expected, "{land:?} {year}");
            }
        }
    }

    #[test]
    fn easter_sunday_gregorian_computus() {
        for (year, expected) in [
            (2025, "2025-04-20"),
            (2026, "2026-04-05"),
            (2027, "2027-03-28"),
            (2028, "2028-04-16"),
            (2029, "2029-04-01"),
            (2030, "2030-04-21"),
            (2038, "2038-04-25"),
            (2285, "2285-03-22"),
        ] {
            assert_eq!(easter_sunday(year), Some(date(expected)), "{year}");
        }
    }

    #[test]
    fn no_reformationstag_drei_koenige_mariae_himmelfahrt_buss_und_bettag() {
        for d in ["2025-01-06", "2025-08-15", "2025-10-31", "2025-11-19"] {
            assert!(!Land::Nw.is_public_holiday(date(d)), "NW {d}");
            assert!(!Land::He.is_public_holiday(date(d)), "HE {d}");
        }
    }

    #[test]
    fn working_days() {
        assert!(Land::Nw.is_working_day(date("2025-06-20"))); // Friday
        assert!(!Land::Nw.is_working_day(date("2025-06-19"))); // Fronleichnam
        assert!(!Land::Nw.is_working_day(date("2025-06-21"))); // Saturday
        assert!(!Land::Nw.is_working_day(date("2025-06-22"))); // Sunday
        assert!(!Land::Nw.is_working_day(date("2027-11-01"))); // Allerheiligen, Monday
        assert!(Land::He.is_working_day(date("2027-11-01")));
    }

    #[test]
    fn bgb_188_abs_2_one_week_same_weekday() {
        let d = served("2025-03-04", Land::Nw); // Tuesday
        assert_eq!(d.served_on, date("2025-03-04"));
        assert_eq!(d.last_day, date("2025-03-11"));
        assert_eq!(d.last_day.weekday(), Weekday::Tue);
        assert_eq!(reasons(&d), ["served", "period_one_week"]);
        assert_eq!(d.trail[0].citation, "§ 3 LZG NRW");
        assert_eq!(d.trail[1].citation, "§§ 187 Abs. 1, 188 Abs. 2 BGB");
        assert!(d.trail.iter().all(|s| s.verdict == Verdict::Noted && s.candidate.is_none()));
    }

    #[test]
    fn vwvfg_31_abs_3_satz_1_fronleichnam_extends_to_friday() {
        // LAW.md § 4 worked example: served Thu 12 Jun 2025, week ends Thu 19 Jun (Fronleichnam).
        for land in [Land::Nw, Land::He] {
            let d = served("2025-06-12", land);
            assert_eq!(d.last_day, date("2025-06-20"), "{land:?}");
            assert_eq!(d.ends_at, instant("2025-06-20T22:00:00Z"));
            assert_eq!(reasons(&d), ["served", "period_one_week", "extended_public_holiday:Fronleichnam"]);
        }
        assert_eq!(served("2025-06-12", Land::Nw).trail[2].citation, "§ 31 Abs. 3 Satz 1 VwVfG NRW");
        assert_eq!(served("2025-06-12", Land::He).trail[2].citation, "§ 31 Abs. 3 Satz 1 HVwVfG");
    }

    #[test]
    fn vwvfg_31_abs_3_satz_1_saturday_extends_to_monday() {
        let d = served("2025-03-08", Land::Nw); // Saturday service, e.g. by Rückschein
        assert_eq!(d.last_day, date("2025-03-17"));
        assert_eq!(reasons(&d), ["served", "period_one_week", "extended_weekend:Saturday", "extended_weekend:Sunday"]);
    }

    #[test]
    fn vwvfg_31_abs_3_satz_1_sunday_extends_to_monday() {
        let d = served("2025-03-09", Land::He);
        assert_eq!(d.last_day, date("2025-03-17"));
        assert_eq!(reasons(&d), ["served", "period_one_week", "extended_weekend:Sunday"]);
    }

    #[test]
    fn vwvfg_31_abs_3_satz_1_allerheiligen_extends_in_nrw_only() {
        // 1 Nov 2027 is a Monday.
        let nw = served("2027-10-25", Land::Nw);
        assert_eq!(nw.last_day, date("2027-11-02"));
        assert_eq!(reasons(&nw), ["served", "period_one_week", "extended_public_holiday:Allerheiligen"]);
        let he = served("2027-10-25", Land::He);
        assert_eq!(he.last_day, date("2027-11-01"));
        assert_eq!(reasons(&he), ["served", "period_one_week"]);
    }

    #[test]
    fn vwvfg_31_abs_3_satz_1_easter_chain_to_tuesday() {
        // Karfreitag 3 Apr 2026 → Sat → Sun → Ostermontag → Tue 7 Apr.
        let nw = served("2026-03-27", Land::Nw);
        assert_eq!(nw.last_day, date("2026-04-07"));
        assert_eq!(
            reasons(&nw),
            [
                "served",
                "period_one_week",
                "extended_public_holiday:Karfreitag",
                "extended_weekend:Saturday",
                "extended_weekend:Sunday",
                "extended_public_holiday:Ostermontag"
            ]
        );
        let he = served("2026-03-27", Land::He);
        assert_eq!(he.last_day, date("2026-04-07"));
        assert_eq!(he.trail.len(), 6);
    }

    #[test]
    fn vwvfg_31_abs_3_satz_1_christmas_chain_to_monday() {
        // 25 Dec 2025 is a Thursday: 25, 26, Sat 27, Sun 28 → Mon 29 Dec.
        let d = served("2025-12-18", Land::Nw);
        assert_eq!(d.last_day, date("2025-12-29"));
        assert_eq!(
            reasons(&d)[2..],
            [
                "extended_public_holiday:1. Weihnachtstag",
                "extended_public_holiday:2. Weihnachtstag",
                "extended_weekend:Saturday",
                "extended_weekend:Sunday"
            ]
        );
        assert_eq!(d.ends_at, instant("2025-12-29T23:00:00Z"));
    }

    #[test]
    fn vwvfg_31_abs_3_satz_1_new_year_extends_into_next_year() {
        // 1 Jan 2026 is a Thursday.
        let d = served("2025-12-25", Land::He);
        assert_eq!(d.last_day, date("2026-01-02"));
        assert_eq!(reasons(&d)[2..], ["extended_public_holiday:Neujahr"]);
        // 1 Jan 2028 is a Saturday: Sat, Sun → Mon 3 Jan.
        let d = served("2027-12-25", Land::Nw);
        assert_eq!(d.last_day, date("2028-01-03"));
    }

    #[test]
    fn vwvfg_31_abs_3_satz_2_fixed_end_date_no_extension() {
        let d = one_week_deadline(&ServiceBasis::Certificate, date("2025-06-12"), Land::Nw, true);
        assert_eq!(d.last_day, date("2025-06-19"));
        assert_eq!(d.ends_at, instant("2025-06-19T22:00:00Z"));
        assert_eq!(reasons(&d), ["served", "period_one_week", "fixed_end_date"]);
        assert_eq!(d.trail[2].citation, "§ 31 Abs. 3 Satz 2 VwVfG NRW");
        let he = one_week_deadline(&ServiceBasis::Certificate, date("2025-03-08"), Land::He, true);
        assert_eq!(he.last_day, date("2025-03-15")); // a Saturday
        assert_eq!(he.trail[2].citation, "§ 31 Abs. 3 Satz 2 HVwVfG");
    }

    #[test]
    fn lzg_nrw_4_abs_2_fourth_day_from_2025() {
        // LAW.md § 4 worked example: posted Fri 6 Jun 2025 → served Tue 10 Jun → ends Tue 17 Jun.
        let basis = ServiceBasis::RegisteredLetterPosted;
        let (served_on, trail) = service_date(&basis, date("2025-06-06"), Land::Nw);
        assert_eq!(served_on, date("2025-06-10"));
        assert_eq!(trail.len(), 1);
        assert_eq!(trail[0].reason, "service_fiction");
        assert_eq!(trail[0].citation, "§ 4 Abs. 2 LZG NRW");
        let d = one_week_deadline(&basis, date("2025-06-06"), Land::Nw, false);
        assert_eq!(d.served_on, date("2025-06-10"));
        assert_eq!(d.last_day, date("2025-06-17"));
        assert_eq!(d.ends_at, instant("2025-06-17T22:00:00Z"));
        assert_eq!(reasons(&d), ["service_fiction", "period_one_week"]);
        // First posting day of the new rule.
        let (served_on, _) = service_date(&basis, date("2025-01-01"), Land::Nw);
        assert_eq!(served_on, date("2025-01-05"));
    }

    #[test]
    fn lzg_nrw_4_abs_2_third_day_until_2024() {
        // LAW.md § 4 worked example: posted Mon 30 Dec 2024 → served Thu 2 Jan 2025.
        let basis = ServiceBasis::RegisteredLetterPosted;
        let (served_on, _) = service_date(&basis, date("2024-12-30"), Land::Nw);
        assert_eq!(served_on, date("2025-01-02"));
        let (served_on, _) = service_date(&basis, date("2024-12-31"), Land::Nw);
        assert_eq!(served_on, date("2025-01-03"));
    }

    #[test]
    fn hvwzg_4_abs_2_citation_in_hessen() {
        let (served_on, trail) = service_date(&ServiceBasis::RegisteredLetterPosted, date("2025-06-06"), Land::He);
        assert_eq!(served_on, date("2025-06-10"));
        assert_eq!(trail[0].citation, "§ 4 Abs. 2 HVwZG");
    }

    #[test]
    fn explicit_service_on_given_day() {
        for basis in [ServiceBasis::Certificate, ServiceBasis::ReturnReceipt, ServiceBasis::Acknowledgement] {
            let (served_on, trail) = service_date(&basis, date("2025-06-07"), Land::He);
            assert_eq!(served_on, date("2025-06-07"));
            assert_eq!(trail.len(), 1);
            assert_eq!(trail[0].reason, "served");
            assert!(trail[0].citation.ends_with("HVwZG"), "{:?}", trail[0]);
        }
    }

    #[test]
    fn email_fiction_configured_days() {
        let (served_on, trail) = service_date(&ServiceBasis::Email { fiction_days: 3 }, date("2025-06-02"), Land::Nw);
        assert_eq!(served_on, date("2025-06-05"));
        assert_eq!(trail[0].reason, "service_fiction");
        let (served_on, _) = service_date(&ServiceBasis::Email { fiction_days: 0 }, date("2025-06-02"), Land::Nw);
        assert_eq!(served_on, date("2025-06-02"));
        let d = one_week_deadline(&ServiceBasis::Email { fiction_days: 2 }, date("2025-06-10"), Land::He, false);
        assert_eq!(d.served_on, date("2025-06-12"));
        assert_eq!(d.last_day, date("2025-06-20")); // 19 Jun Fronleichnam
    }

    #[test]
    fn ends_at_winter_time_is_23_utc() {
        assert_eq!(served("2025-03-04", Land::Nw).ends_at, instant("2025-03-11T23:00:00Z"));
        assert_eq!(end_of_day(date("2025-01-15")), instant("2025-01-15T23:00:00Z"));
    }

    #[test]
    fn ends_at_summer_time_is_22_utc() {
        assert_eq!(end_of_day(date("2025-07-15")), instant("2025-07-15T22:00:00Z"));
    }

    #[test]
    fn end_of_day_across_dst_transitions() {
        // DST starts Sun 30 Mar 2025, ends Sun 26 Oct 2025.
        assert_eq!(end_of_day(date("2025-03-29")), instant("2025-03-29T23:00:00Z"));
        assert_eq!(end_of_day(date("2025-03-30")), instant("2025-03-30T22:00:00Z"));
        assert_eq!(end_of_day(date("2025-10-25")), instant("2025-10-25T22:00:00Z"));
        assert_eq!(end_of_day(date("2025-10-26")), instant("2025-10-26T23:00:00Z"));
    }

    #[test]
    fn local_date_in_berlin() {
        assert_eq!(local_date(instant("2025-06-19T21:59:59Z")), date("2025-06-19"));
        assert_eq!(local_date(instant("2025-06-19T22:00:00Z")), date("2025-06-20"));
        assert_eq!(local_date(instant("2025-01-01T22:59:59Z")), date("2025-01-01"));
        assert_eq!(local_date(instant("2025-01-01T23:00:00Z")), date("2025-01-02"));
        for d in ["2025-03-29", "2025-03-30", "2025-10-26", "2025-12-31"] {
            assert_eq!(local_date(end_of_day(date(d))), date(d).succ_opt().expect("next"));
        }
    }

    #[test]
    fn extreme_dates_do_not_panic() {
        let d = served("2025-06-12", Land::Nw);
        assert!(d.ends_at > instant("2025-06-12T00:00:00Z"));
        let far = one_week_deadline(&ServiceBasis::Email { fiction_days: u32::MAX }, NaiveDate::MAX, Land::Nw, false);
        assert_eq!(far.last_day, NaiveDate::MAX);
        assert_eq!(far.ends_at, DateTime::<Utc>::MAX_UTC);
        assert!(Land::He.holidays(i32::MAX).is_empty());
        let _ = Land::Nw.holiday_name(NaiveDate::MIN);
    }

    #[test]
    fn serde_names() {
        assert_eq!(serde_json::to_string(&Land::Nw).ok().as_deref(), Some("\"NW\""));
        assert_eq!(serde_json::from_str::<Land>("\"HE\"").ok(), Some(Land::He));
        assert_eq!(
            serde_json::to_string(&ServiceBasis::RegisteredLetterPosted).ok().as_deref(),
            Some("\"registered_letter_posted\"")
        );
        assert_eq!(
            serde_json::to_string(&ServiceBasis::Email { fiction_days: 3 }).ok().as_deref(),
            Some(r#"{"email":{"fiction_days":3}}"#)
        );
        let d = served("2025-06-12", Land::Nw);
        let json = serde_json::to_string(&d).expect("serialize");
        assert!(json.contains(r#""ends_at":"2025-06-20T22:00:00Z""#), "{json}");
        assert_eq!(serde_json::from_str::<Deadline>(&json).ok(), Some(d));
    }
}
