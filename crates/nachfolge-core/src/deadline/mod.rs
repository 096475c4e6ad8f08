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
/// holidays of the Land to the next working day under the Land's rule (`LandLaw::extension_citation`: § 31
/// Abs. 3 Satz 1 VwVfG NRW / HVwVfG; Rheinland-Pfalz § 193 BGB) unless `fixed_end_date` is true and the Land
/// lets the authority fix the end (`LandLaw::fixed_end_citation`, § 31 Abs. 3 Satz 2).
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

    let law = land.law();
    if let (true, Some(citation)) = (fixed_end_date, law.fixed_end_citation()) {
        trail.push(noted("fixed_end_date".to_owned(), citation));
    } else {
        let citation = law.extension_citation();
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
mod tests;
