//! The calendar of German administrative law: days in Europe/Berlin, where a day ends, Easter, adding
//! days and months as §§ 187, 188 BGB count them, and how officials write a date. Pure: no clock reads.

use chrono::{DateTime, Datelike, Days, FixedOffset, NaiveDate, NaiveTime, TimeZone, Utc, Weekday};
use chrono_tz::Europe::Berlin;

/// A Land's gesetzliche Feiertage as its Feiertagsgesetz lists them: fixed dates and days counted from Easter.
pub struct Holidays {
    /// (month, day, name).
    pub fixed: &'static [(u32, u32, &'static str)],
    /// (days after Easter Sunday, negative before it; name).
    pub easter: &'static [(i64, &'static str)],
}

impl Holidays {
    /// The name of the holiday on `d`, if any.
    pub fn name(&self, d: NaiveDate) -> Option<&'static str> {
        if let Some((_, _, name)) = self.fixed.iter().find(|(m, day, _)| (d.month(), d.day()) == (*m, *day)) {
            return Some(name);
        }
        let offset = d.signed_duration_since(easter_sunday(d.year())?).num_days();
        self.easter.iter().find(|(o, _)| *o == offset).map(|(_, name)| *name)
    }
}

/// Easter Sunday (Ostersonntag) of `year` by the Gregorian computus (anonymous Gregorian algorithm,
/// Meeus/Jones/Butcher). `None` only if the date is not representable.
pub fn easter_sunday(year: i32) -> Option<NaiveDate> {
    let a = year.rem_euclid(19);
    let b = year.div_euclid(100);
    let c = year.rem_euclid(100);
    let d = b.div_euclid(4);
    let e = b.rem_euclid(4);
    let f = (b + 8).div_euclid(25);
    let g = (b - f + 1).div_euclid(3);
    let h = (19 * a + b - d - g + 15).rem_euclid(30);
    let i = c.div_euclid(4);
    let k = c.rem_euclid(4);
    let l = (32 + 2 * e + 2 * i - h - k).rem_euclid(7);
    let m = (a + 11 * h + 22 * l).div_euclid(451);
    let month = (h + l - 7 * m + 114).div_euclid(31);
    let day = (h + l - 7 * m + 114).rem_euclid(31) + 1;
    NaiveDate::from_ymd_opt(year, u32::try_from(month).ok()?, u32::try_from(day).ok()?)
}

pub fn is_weekend(d: NaiveDate) -> bool {
    matches!(d.weekday(), Weekday::Sat | Weekday::Sun)
}

/// `d` plus `n` days, saturating at the last representable date.
pub fn add_days(d: NaiveDate, n: u64) -> NaiveDate {
    d.checked_add_days(Days::new(n)).unwrap_or(NaiveDate::MAX)
}

/// The instant a calendar day ends in Europe/Berlin (= start of the next day, DST-correct).
pub fn end_of_day(d: NaiveDate) -> DateTime<Utc> {
    let Some(next) = d.succ_opt() else {
        return DateTime::<Utc>::MAX_UTC;
    };
    let midnight = next.and_time(NaiveTime::MIN);
    // Midnight always exists exactly once in Europe/Berlin (transitions happen at 02:00/03:00);
    // the fallback only guards against a future rule change.
    Berlin
        .from_local_datetime(&midnight)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(|| Berlin.from_utc_datetime(&midnight).with_timezone(&Utc))
}

/// The calendar day (Europe/Berlin) of an instant.
pub fn local_date(t: DateTime<Utc>) -> NaiveDate {
    t.with_timezone(&Berlin).date_naive()
}

/// The first instant of a calendar day in Europe/Berlin.
pub fn start_of_day(day: NaiveDate) -> DateTime<Utc> {
    match day.pred_opt() {
        Some(before) => end_of_day(before),
        None => DateTime::<Utc>::MIN_UTC,
    }
}

/// `day` plus `months` calendar months; a day the target month lacks becomes its last day (§ 188 Abs. 3 BGB).
pub fn add_months_bgb(day: NaiveDate, months: u32) -> NaiveDate {
    // chrono clamps to the last day of the month, which is exactly § 188 Abs. 3 BGB
    day.checked_add_months(chrono::Months::new(months)).unwrap_or(NaiveDate::MAX)
}

/// An instant as RFC 3339 with the Europe/Berlin offset.
pub fn berlin(t: DateTime<Utc>) -> DateTime<FixedOffset> {
    t.with_timezone(&Berlin).fixed_offset()
}

/// A date as German officials write it (`01.12.2026`).
pub fn german_date(d: NaiveDate) -> String {
    d.format("%d.%m.%Y").to_string()
}
