//! Service (Zustellung), one-week periods and objection periods. The public holidays (gesetzliche
//! Feiertage) and the acts cited come from the Land's law (`land/<land>.rs`).
//!
//! Pure: no I/O, no clock reads. All calendar days are days in the council's time zone,
//! Europe/Berlin. Every computed deadline carries its own trail (service basis, fiction, §§ applied,
//! extension and why); see docs/legal.md ("Service fiction", "One-week period", "Objection period").

use chrono::{DateTime, Datelike, NaiveDate, Utc, Weekday};

use crate::calendar::{add_days, add_months_bgb, is_weekend};
pub use crate::calendar::{end_of_day, local_date};
use crate::land::{Land, LocalHolidays, Span};
use crate::model::BodyKind;
pub use crate::model::{FictionDay, PeriodEnd};
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
    /// Einschreiben durch Übergabe, posted on the given day. Zustellungsfiktion (§ 4 Abs. 2 Satz 2 LZG NRW /
    /// HVwZG; § 4 Abs. 2 VwZG): deemed served on the 3rd day after posting if posted until 31 Dec 2024, on
    /// the 4th day if posted from 1 Jan 2025 (Postrechtsmodernisierungsgesetz). An Einwurf-Einschreiben is
    /// no formal service and has no fiction (BVerwG, Urt. v. 19.9.2000 – 9 C 7/00).
    RegisteredLetterPosted,
    /// Heilung (§ 8 LZG NRW / HVwZG): the day the document demonstrably reached the person.
    ActualReceipt,
}

/// The detail of a moved fiction day: the reading and the dispute.
const FICTION_DAY_DISPUTE: &str = "body.readings.fiction_day = next_working_day: BFH, Urt. v. 14.10.2003 – IX R 68/98; a. A. OVG Niedersachsen, Beschl. v. 26.10.2006 – 7 PA 184/06, OVG Rheinland-Pfalz, Urt. v. 30.10.2014 – 10 A 11170/13";

/// The detail of a period read as fixed.
const FIXED_PERIOD: &str = "body.readings.period_end = fixed: Wahlrechtsfristen verlängern sich nicht, wenn ihr letzter Tag auf einen Sonnabend, Sonntag oder Feiertag fällt";

/// First posting day for which the registered-letter fiction is the 4th instead of the 3rd day.
fn fourth_day_rule_from() -> NaiveDate {
    NaiveDate::from_ymd_opt(2025, 1, 1).unwrap_or(NaiveDate::MIN)
}

/// Why `day` is no working day of the Land (with the body's local holidays): `weekend:Saturday`,
/// `public_holiday:Fronleichnam`.
fn non_working(land: Land, local: LocalHolidays, day: NaiveDate) -> String {
    if is_weekend(day) {
        let name = if day.weekday() == Weekday::Sat { "Saturday" } else { "Sunday" };
        format!("weekend:{name}")
    } else {
        format!("public_holiday:{}", land.holiday_name_in(day, local).unwrap_or("unknown"))
    }
}

/// The service date (Zustellung) for a notification with `basis`, and the trail explaining it.
///
/// Explicit service messages (certificate, return receipt, acknowledgement, actual receipt) give the service
/// day itself; the fiction counts from the day of posting. A fiction day on a Saturday, Sunday or public
/// holiday stays where it is under [`FictionDay::Kept`] and moves to the next working day under
/// [`FictionDay::NextWorkingDay`] (docs/legal.md, "Service fiction": the dispute).
pub fn service_date(
    basis: &ServiceBasis,
    on: NaiveDate,
    land: Land,
    fiction_day: FictionDay,
) -> (NaiveDate, Vec<TrailStep>) {
    service_date_in(basis, on, land, LocalHolidays::NONE, fiction_day)
}

/// [`service_date`] for a body that observes the local holidays `local` (`body.local_holidays`).
pub fn service_date_in(
    basis: &ServiceBasis,
    on: NaiveDate,
    land: Land,
    local: LocalHolidays,
    fiction_day: FictionDay,
) -> (NaiveDate, Vec<TrailStep>) {
    let law = land.law();
    let served = |citation: String| TrailStep::new(None, Verdict::Noted, "served", citation);
    match basis {
        // Postzustellungsurkunde
        ServiceBasis::Certificate => (on, vec![served(law.service_rule("3"))]),
        // Einschreiben mit Rückschein: the Rückschein proves the day of service.
        ServiceBasis::ReturnReceipt => (on, vec![served(law.service_rule("4 Abs. 2 Satz 1"))]),
        // Empfangsbekenntnis
        ServiceBasis::Acknowledgement => (on, vec![served(law.service_rule("5"))]),
        // Heilung von Zustellungsmängeln
        ServiceBasis::ActualReceipt => (on, vec![served(law.service_rule("8"))]),
        ServiceBasis::RegisteredLetterPosted => {
            let days: u64 = if on < fourth_day_rule_from() { 3 } else { 4 };
            let mut date = add_days(on, days);
            let mut trail = vec![TrailStep::new(None, Verdict::Noted, "service_fiction", law.service_rule("4 Abs. 2"))];
            if fiction_day == FictionDay::NextWorkingDay {
                while !land.is_working_day_in(date, local) {
                    trail.push(
                        TrailStep::new(
                            None,
                            Verdict::Noted,
                            format!("fiction_day_moved_{}", non_working(land, local, date)),
                            law.fiction_move_citation(),
                        )
                        .with_detail(FICTION_DAY_DISPUTE),
                    );
                    match date.succ_opt() {
                        Some(next) => date = next,
                        None => break,
                    }
                }
            }
            (date, trail)
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

/// How the body reads the law on periods and service (its `readings`, resolved against the deployment's
/// settings): what [`one_week_deadline`] and [`objection_period`] need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PeriodRules {
    pub period_end: PeriodEnd,
    pub fiction_day: FictionDay,
    /// The body's local holidays (`body.local_holidays`): a period is extended over them too.
    pub local: LocalHolidays,
}

/// Extend `last_day` over Saturdays, Sundays and the Land's public holidays (`LandLaw::extension_citation`:
/// § 31 Abs. 3 Satz 1 VwVfG NRW / HVwVfG; Rheinland-Pfalz § 193 BGB) under [`PeriodEnd::Extended`], or note that it is not extended under [`PeriodEnd::Fixed`]; one
/// reading for the one-week period and the objection period (docs/legal.md, "One reading for both periods").
fn period_end(
    land: Land,
    local: LocalHolidays,
    mut last_day: NaiveDate,
    rule: PeriodEnd,
    trail: &mut Vec<TrailStep>,
) -> NaiveDate {
    match rule {
        PeriodEnd::Fixed => {
            trail.push(
                TrailStep::new(None, Verdict::Noted, "fixed_period", "vgl. § 54 Abs. 1 BWahlG")
                    .with_detail(FIXED_PERIOD),
            );
        }
        PeriodEnd::Extended => {
            // § 31 Abs. 3 Satz 1 of the Land's VwVfG, or what the Land's law says instead (RP: § 193 BGB)
            let citation = land.law().extension_citation();
            while !land.is_working_day_in(last_day, local) {
                trail.push(TrailStep::new(
                    None,
                    Verdict::Noted,
                    format!("extended_{}", non_working(land, local, last_day)),
                    citation.clone(),
                ));
                match last_day.succ_opt() {
                    Some(next) => last_day = next,
                    None => break,
                }
            }
        }
    }
    last_day
}

/// One-week period (§§ 187 Abs. 1, 188 Abs. 2 BGB) after service, extended over Sat/Sun/public holidays of
/// the Land to the next working day (§ 31 Abs. 3 Satz 1 VwVfG NRW / HVwVfG) unless the body reads election
/// periods as fixed ([`PeriodEnd::Fixed`]).
pub fn one_week_deadline(basis: &ServiceBasis, on: NaiveDate, land: Land, rules: PeriodRules) -> Deadline {
    acceptance_deadline(basis, on, land, rules, 1)
}

/// A period of `weeks` weeks after service (the Land's acceptance period, `LandLaw::acceptance_weeks`),
/// counted and extended as [`one_week_deadline`]: it ends with the day of the last week that has the service
/// day's weekday (§ 188 Abs. 2 BGB).
pub fn acceptance_deadline(
    basis: &ServiceBasis,
    on: NaiveDate,
    land: Land,
    rules: PeriodRules,
    weeks: u32,
) -> Deadline {
    let (served_on, mut trail) = service_date_in(basis, on, land, rules.local, rules.fiction_day);

    // § 187 Abs. 1 BGB: the day of service is not counted; § 188 Abs. 2 BGB: the period ends with
    // the day of the last week that has the same weekday as the day of service.
    let reason = match weeks {
        1 => "period_one_week".to_owned(),
        2 => "period_two_weeks".to_owned(),
        n => format!("period_{n}_weeks"),
    };
    trail.push(TrailStep::new(None, Verdict::Noted, reason, "§§ 187 Abs. 1, 188 Abs. 2 BGB"));
    let last_day =
        period_end(land, rules.local, add_days(served_on, 7 * u64::from(weeks)), rules.period_end, &mut trail);

    Deadline { served_on, last_day, ends_at: end_of_day(last_day), trail }
}

/// The working days left of a period whose last day is `last_day`, counted from `today` to the last day, both
/// included: the days on which the office can still receive a declaration. Saturdays, Sundays, the Land's
/// public holidays and the body's local ones (`local`) are not counted; 0 once the last day has passed.
/// For display (the Wahlleiter console); the period itself is [`acceptance_deadline`]'s.
pub fn working_days_left(land: Land, local: LocalHolidays, today: NaiveDate, last_day: NaiveDate) -> u32 {
    // a period of the election statutes is weeks long; the bound only keeps a bad date from looping long
    let days = today.iter_days().take_while(|d| *d <= last_day).take(3660);
    u32::try_from(days.filter(|d| land.is_working_day_in(*d, local)).count()).unwrap_or(u32::MAX)
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
/// weekday (§ 188 Abs. 2 BGB). A last day on a Saturday, Sunday or holiday is extended like the one-week
/// period, or not at all, by the same reading ([`PeriodEnd`]; docs/legal.md, "One reading for both
/// periods"). It ends at 24:00 Europe/Berlin.
pub fn objection_period(land: Land, issued_at: DateTime<Utc>, rule: PeriodEnd) -> ObjectionPeriod {
    objection_period_in(land, LocalHolidays::NONE, issued_at, rule)
}

/// [`objection_period`] for a body that observes the local holidays `local` (`body.local_holidays`).
pub fn objection_period_in(
    land: Land,
    local: LocalHolidays,
    issued_at: DateTime<Utc>,
    rule: PeriodEnd,
) -> ObjectionPeriod {
    // the same for a council and a Kreistag in every Land (docs/legal.md, "Kreistage")
    let objection = land.law().procedure(BodyKind::Council).objection;
    let day = local_date(issued_at);
    let last_day = match objection.span {
        Span::Months(n) => add_months_bgb(day, n),
        Span::Weeks(n) => add_days(day, 7 * u64::from(n)),
    };
    let clamped = matches!(objection.span, Span::Months(_)) && last_day.day() != day.day();
    let mut trail = vec![
        TrailStep::new(None, Verdict::Noted, objection.reason, objection.citation),
        TrailStep::new(None, Verdict::Noted, "announcement_day_not_counted", "§ 187 Abs. 1 BGB"),
        TrailStep::new(
            None,
            Verdict::Noted,
            "ends_at_end_of_last_day",
            if clamped { "§ 188 Abs. 3 BGB" } else { "§ 188 Abs. 2 BGB" },
        ),
    ];
    let last_day = period_end(land, local, last_day, rule, &mut trail);
    ObjectionPeriod { last_day, ends_at: end_of_day(last_day), trail }
}

/// The period a barred member has to prove that his bar ended, `months` calendar months after his acceptance
/// took effect on `day` (Brandenburg: four months, § 51 Abs. 2 Satz 3 BbgKWahlG; `LandLaw::bar_end_proof_months`):
/// §§ 187 Abs. 1, 188 Abs. 2, 3 BGB, extended as the body reads its periods ([`PeriodEnd`]).
pub fn bar_end_proof_period(
    land: Land,
    local: LocalHolidays,
    day: NaiveDate,
    months: u32,
    citation: &str,
    rule: PeriodEnd,
) -> ObjectionPeriod {
    let last_day = add_months_bgb(day, months);
    let clamped = last_day.day() != day.day();
    let mut trail = vec![
        TrailStep::new(None, Verdict::Noted, format!("bar_end_proof_{months}_months_after_acceptance"), citation),
        TrailStep::new(None, Verdict::Noted, "acceptance_day_not_counted", "§ 187 Abs. 1 BGB"),
        TrailStep::new(
            None,
            Verdict::Noted,
            "ends_at_end_of_last_day",
            if clamped { "§ 188 Abs. 3 BGB" } else { "§ 188 Abs. 2 BGB" },
        ),
    ];
    let last_day = period_end(land, local, last_day, rule, &mut trail);
    ObjectionPeriod { last_day, ends_at: end_of_day(last_day), trail }
}

#[cfg(test)]
mod tests;
