//! The calendar of German administrative law: days in Europe/Berlin, where a day ends, Easter, adding
//! days and months as §§ 187, 188 BGB count them, and how officials write a date. Pure: no clock reads.

use chrono::{DateTime, Datelike, Days, FixedOffset, NaiveDate, NaiveTime, TimeZone, Utc, Weekday};
use chrono_tz::Europe::Berlin;

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

/// The instant a text names for "as if it were then" (the test suite's `NACHFOLGE_TEST_NOW`, README "Testing
/// as if on another day"): `YYYY-MM-DD` is that day at 10:00 in Berlin, an RFC 3339 instant is itself.
pub fn as_of(text: &str) -> Result<DateTime<Utc>, String> {
    let text = text.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Ok(t.with_timezone(&Utc));
    }
    let day = NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| format!("`{text}` is neither YYYY-MM-DD nor an RFC 3339 instant"))?;
    let ten = day.and_time(NaiveTime::from_hms_opt(10, 0, 0).unwrap_or_default());
    Berlin
        .from_local_datetime(&ten)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
        .ok_or_else(|| format!("{day} 10:00 does not exist in Berlin"))
}

/// An instant as RFC 3339 with the Europe/Berlin offset.
pub fn berlin(t: DateTime<Utc>) -> DateTime<FixedOffset> {
    t.with_timezone(&Berlin).fixed_offset()
}

/// A date as German officials write it (`01.12.2026`).
pub fn german_date(d: NaiveDate) -> String {
    d.format("%d.%m.%Y").to_string()
}

/// A gesetzlicher Feiertag, as a Land's Feiertagsgesetz lists it: a fixed date, or a day counted from Easter
/// Sunday. A Land's law lists its holidays as a table of these ([`holiday_in`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holiday {
    Fixed { month: u32, day: u32, name: &'static str },
    Easter { offset: i64, name: &'static str },
}

/// The holidays every Land's Feiertagsgesetz lists.
pub const NATIONWIDE: &[Holiday] = &[
    Holiday::Fixed { month: 1, day: 1, name: "Neujahr" },
    Holiday::Easter { offset: -2, name: "Karfreitag" },
    Holiday::Easter { offset: 1, name: "Ostermontag" },
    Holiday::Fixed { month: 5, day: 1, name: "Tag der Arbeit" },
    Holiday::Easter { offset: 39, name: "Christi Himmelfahrt" },
    Holiday::Easter { offset: 50, name: "Pfingstmontag" },
    Holiday::Fixed { month: 10, day: 3, name: "Tag der Deutschen Einheit" },
    Holiday::Fixed { month: 12, day: 25, name: "1. Weihnachtstag" },
    Holiday::Fixed { month: 12, day: 26, name: "2. Weihnachtstag" },
];

/// The name of the holiday on `d` in the given tables; a fixed date is named before a movable feast that
/// falls on the same day (as Tag der Arbeit and Christi Himmelfahrt in 2008).
pub fn holiday_in(tables: &[&[Holiday]], d: NaiveDate) -> Option<&'static str> {
    let all = || tables.iter().flat_map(|t| t.iter());
    let fixed = all().find_map(|h| match *h {
        Holiday::Fixed { month, day, name } if d.month() == month && d.day() == day => Some(name),
        _ => None,
    });
    fixed.or_else(|| {
        let offset = d.signed_duration_since(easter_sunday(d.year())?).num_days();
        all().find_map(|h| match *h {
            Holiday::Easter { offset: o, name } if o == offset => Some(name),
            _ => None,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_of_a_day_is_ten_in_berlin_and_an_instant_itself() {
        let t = |s: &str| as_of(s).map(|t| t.to_rfc3339());
        // winter and summer time, and the daylight-saving Sundays (10:00 exists on both)
        assert_eq!(t("2026-12-06"), Ok("2026-12-06T09:00:00+00:00".into()));
        assert_eq!(t("2027-03-28"), Ok("2027-03-28T08:00:00+00:00".into()));
        assert_eq!(t("2027-10-31"), Ok("2027-10-31T09:00:00+00:00".into()));
        assert_eq!(t("2028-02-29"), Ok("2028-02-29T09:00:00+00:00".into()));
        assert_eq!(t(" 2027-03-28T02:30:00+01:00 "), Ok("2027-03-28T01:30:00+00:00".into()));
        assert!(t("2027-02-29").is_err_and(|e| e.contains("neither")));
        assert!(t("morgen").is_err());
    }
}
