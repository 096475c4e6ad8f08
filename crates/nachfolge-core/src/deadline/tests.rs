//! The deadline calculator: holiday tables 2025–2030, §§ 187, 188 BGB, § 31 Abs. 3 VwVfG, service fictions.

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
    one_week_deadline(&ServiceBasis::Certificate, date(on), land, PeriodRules::default())
}

const FIXED: PeriodRules =
    PeriodRules { period_end: PeriodEnd::Fixed, fiction_day: FictionDay::NextWorkingDay, local: LocalHolidays::NONE };
const KEPT: FictionDay = FictionDay::Kept;
const MOVED: FictionDay = FictionDay::NextWorkingDay;

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
    // worked example (docs/legal.md, "One-week period"): served Thu 12 Jun 2025, week ends Thu 19 Jun (Fronleichnam).
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

/// Formerly `vwvfg_31_abs_3_satz_2_fixed_end_date_no_extension`: a fixed end is the election-law reading
/// (`readings.period_end = fixed`), not § 31 Abs. 3 Satz 2 VwVfG (which needs the notice to name the day).
#[test]
fn period_end_fixed_no_extension_of_the_week() {
    let d = one_week_deadline(&ServiceBasis::Certificate, date("2025-06-12"), Land::Nw, FIXED);
    assert_eq!(d.last_day, date("2025-06-19"));
    assert_eq!(d.ends_at, instant("2025-06-19T22:00:00Z"));
    assert_eq!(reasons(&d), ["served", "period_one_week", "fixed_period"]);
    assert_eq!(d.trail[2].citation, "vgl. § 54 Abs. 1 BWahlG");
    assert!(d.trail[2].detail.as_deref().is_some_and(|t| t.contains("period_end = fixed")));
    let he = one_week_deadline(&ServiceBasis::Certificate, date("2025-03-08"), Land::He, FIXED);
    assert_eq!(he.last_day, date("2025-03-15")); // a Saturday
}

#[test]
fn one_reading_for_both_periods_objection_period_extended_like_the_week() {
    // NRW, announced Sat 30 May 2026: one month → Tue 30 Jun (a working day): no extension either way
    let p = objection_period(Land::Nw, instant("2026-05-30T10:00:00+02:00"), PeriodEnd::Extended);
    assert_eq!(p.last_day, date("2026-06-30"));
    // NRW, announced Mon 31 Aug 2026: one month → Wed 30 Sep (§ 188 Abs. 3 BGB); Sat 3 Oct 2026 case below
    // announced Thu 3 Sep 2026 → Sat 3 Oct 2026 (Tag der Deutschen Einheit, a Saturday) → Mon 5 Oct
    let p = objection_period(Land::Nw, instant("2026-09-03T10:00:00+02:00"), PeriodEnd::Extended);
    assert_eq!(p.last_day, date("2026-10-05"));
    assert_eq!(p.ends_at, instant("2026-10-05T22:00:00Z"));
    let r: Vec<&str> = p.trail.iter().map(|s| s.reason.as_str()).collect();
    assert_eq!(
        r,
        [
            "one_month_after_announcement",
            "announcement_day_not_counted",
            "ends_at_end_of_last_day",
            "extended_weekend:Saturday",
            "extended_weekend:Sunday"
        ]
    );
    assert_eq!(p.trail[3].citation, "§ 31 Abs. 3 Satz 1 VwVfG NRW");
    // the same announcement read as fixed: Sat 3 Oct, with the note
    let p = objection_period(Land::Nw, instant("2026-09-03T10:00:00+02:00"), PeriodEnd::Fixed);
    assert_eq!(p.last_day, date("2026-10-03"));
    assert_eq!(p.trail.last().map(|s| s.reason.as_str()), Some("fixed_period"));
    // Hessen, two weeks from Thu 21 May 2026 → Thu 4 Jun 2026, Fronleichnam → Fri 5 Jun
    let p = objection_period(Land::He, instant("2026-05-21T10:00:00+02:00"), PeriodEnd::Extended);
    assert_eq!(p.last_day, date("2026-06-05"));
    assert_eq!(p.trail.last().map(|s| s.reason.as_str()), Some("extended_public_holiday:Fronleichnam"));
    assert_eq!(p.trail.last().map(|s| s.citation.as_str()), Some("§ 31 Abs. 3 Satz 1 HVwVfG"));
}

#[test]
fn lzg_nrw_4_abs_2_fourth_day_from_2025() {
    // worked example (docs/legal.md, "One-week period"): posted Fri 6 Jun 2025 → served Tue 10 Jun → ends Tue 17 Jun.
    let basis = ServiceBasis::RegisteredLetterPosted;
    let (served_on, trail) = service_date(&basis, date("2025-06-06"), Land::Nw, MOVED);
    assert_eq!(served_on, date("2025-06-10"));
    assert_eq!(trail.len(), 1);
    assert_eq!(trail[0].reason, "service_fiction");
    assert_eq!(trail[0].citation, "§ 4 Abs. 2 LZG NRW");
    let d = one_week_deadline(&basis, date("2025-06-06"), Land::Nw, PeriodRules::default());
    assert_eq!(d.served_on, date("2025-06-10"));
    assert_eq!(d.last_day, date("2025-06-17"));
    assert_eq!(d.ends_at, instant("2025-06-17T22:00:00Z"));
    assert_eq!(reasons(&d), ["service_fiction", "period_one_week"]);
    // First posting day of the new rule: the 4th day is Sun 5 Jan 2025 (kept), or Mon 6 Jan (moved, the default).
    let (served_on, _) = service_date(&basis, date("2025-01-01"), Land::Nw, KEPT);
    assert_eq!(served_on, date("2025-01-05"));
    let (served_on, trail) = service_date(&basis, date("2025-01-01"), Land::Nw, MOVED);
    assert_eq!(served_on, date("2025-01-06"));
    assert_eq!(trail[1].reason, "fiction_day_moved_weekend:Sunday");
}

#[test]
fn lzg_nrw_4_abs_2_third_day_until_2024() {
    // worked example (docs/legal.md, "One-week period"): posted Mon 30 Dec 2024 → served Thu 2 Jan 2025.
    let basis = ServiceBasis::RegisteredLetterPosted;
    let (served_on, _) = service_date(&basis, date("2024-12-30"), Land::Nw, MOVED);
    assert_eq!(served_on, date("2025-01-02"));
    let (served_on, _) = service_date(&basis, date("2024-12-31"), Land::Nw, MOVED);
    assert_eq!(served_on, date("2025-01-03"));
}

#[test]
fn hvwzg_4_abs_2_citation_in_hessen() {
    let (served_on, trail) = service_date(&ServiceBasis::RegisteredLetterPosted, date("2025-06-06"), Land::He, MOVED);
    assert_eq!(served_on, date("2025-06-10"));
    assert_eq!(trail[0].citation, "§ 4 Abs. 2 HVwZG");
}

#[test]
fn explicit_service_on_given_day() {
    for basis in [
        ServiceBasis::Certificate,
        ServiceBasis::ReturnReceipt,
        ServiceBasis::Acknowledgement,
        ServiceBasis::ActualReceipt,
    ] {
        // a Saturday: an explicit service day is a fact, never moved
        let (served_on, trail) = service_date(&basis, date("2025-06-07"), Land::He, MOVED);
        assert_eq!(served_on, date("2025-06-07"));
        assert_eq!(trail.len(), 1);
        assert_eq!(trail[0].reason, "served");
        assert!(trail[0].citation.ends_with("HVwZG"), "{:?}", trail[0]);
    }
}

/// Formerly `email_fiction_configured_days`: the e-mail fiction was removed (docs/legal.md, "Service
/// fiction"); § 4 Abs. 2 LZG NRW with the fiction day on a weekend or holiday takes its place.
#[test]
fn lzg_nrw_4_abs_2_fiction_day_on_weekend_or_holiday_moved_or_kept() {
    let basis = ServiceBasis::RegisteredLetterPosted;
    // posted Tue 1 Dec 2026 → 4th day Sat 5 Dec → Mon 7 Dec
    let (served_on, trail) = service_date(&basis, date("2026-12-01"), Land::Nw, MOVED);
    assert_eq!(served_on, date("2026-12-07"));
    let r: Vec<&str> = trail.iter().map(|s| s.reason.as_str()).collect();
    assert_eq!(r, ["service_fiction", "fiction_day_moved_weekend:Saturday", "fiction_day_moved_weekend:Sunday"]);
    assert_eq!(trail[1].citation, "§ 31 Abs. 3 Satz 1 VwVfG NRW entsprechend");
    let (served_on, trail) = service_date(&basis, date("2026-12-01"), Land::Nw, KEPT);
    assert_eq!((served_on, trail.len()), (date("2026-12-05"), 1));
    // a Land's own holiday: posted Wed 28 Oct 2026 → Sun 1 Nov (Allerheiligen, NRW only) → Mon 2 Nov either way
    let (nw, _) = service_date(&basis, date("2026-10-28"), Land::Nw, MOVED);
    let (he, _) = service_date(&basis, date("2026-10-28"), Land::He, MOVED);
    assert_eq!((nw, he), (date("2026-11-02"), date("2026-11-02")));
    // posted Wed 27 Oct 2027 → Sun 31 Oct → Mon 1 Nov 2027: Allerheiligen in NRW → Tue 2 Nov; Hessen Mon 1 Nov
    let (nw, trail) = service_date(&basis, date("2027-10-27"), Land::Nw, MOVED);
    assert_eq!(nw, date("2027-11-02"));
    assert_eq!(trail.last().map(|s| s.reason.as_str()), Some("fiction_day_moved_public_holiday:Allerheiligen"));
    let (he, _) = service_date(&basis, date("2027-10-27"), Land::He, MOVED);
    assert_eq!(he, date("2027-11-01"));
    // the week counts from the moved day, then its own end is extended (or not) by its own reading
    let d = one_week_deadline(&basis, date("2026-12-01"), Land::Nw, PeriodRules::default());
    assert_eq!((d.served_on, d.last_day), (date("2026-12-07"), date("2026-12-14")));
    let kept = PeriodRules { period_end: PeriodEnd::Fixed, fiction_day: KEPT, local: LocalHolidays::NONE };
    let d = one_week_deadline(&basis, date("2026-12-01"), Land::Nw, kept);
    assert_eq!((d.served_on, d.last_day), (date("2026-12-05"), date("2026-12-12")));
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
    let far =
        one_week_deadline(&ServiceBasis::RegisteredLetterPosted, NaiveDate::MAX, Land::Nw, PeriodRules::default());
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
    assert_eq!(serde_json::to_string(&ServiceBasis::ActualReceipt).ok().as_deref(), Some("\"actual_receipt\""));
    let d = served("2025-06-12", Land::Nw);
    let json = serde_json::to_string(&d).expect("serialize");
    assert!(json.contains(r#""ends_at":"2025-06-20T22:00:00Z""#), "{json}");
    assert_eq!(serde_json::from_str::<Deadline>(&json).ok(), Some(d));
}

#[test]
fn ni_nfeiertagsg_2_reformationstag_since_2017_no_fronleichnam_allerheiligen() {
    let ni = Land::Ni;
    assert_eq!(ni.holiday_name(date("2028-10-31")), Some("Reformationstag"));
    assert_eq!(ni.holiday_name(date("2017-10-31")), Some("Reformationstag"));
    assert_eq!(ni.holiday_name(date("2016-10-31")), None);
    // § 7 NFeiertagsG: kirchliche Feiertage only, no gesetzliche
    for d in ["2027-05-27", "2027-11-01", "2027-01-06"] {
        assert!(!ni.is_public_holiday(date(d)), "NI {d}");
    }
    assert_eq!(ni.holidays(2027).len(), 10);
}

#[test]
fn st_feiertg_lsa_2_heilige_drei_koenige_and_reformationstag_extend_the_week() {
    // served Wed 30 Dec 2026 → the week ends Wed 6 Jan 2027, Heilige Drei Könige (§ 2 Nr. 2 FeiertG LSA) → Thu 7 Jan
    let d = served("2026-12-30", Land::St);
    assert_eq!(d.last_day, date("2027-01-07"));
    assert_eq!(reasons(&d), ["served", "period_one_week", "extended_public_holiday:Heilige Drei Könige"]);
    assert_eq!(d.trail[2].citation, "§ 31 Abs. 3 Satz 1 VwVfG i. V. m. § 1 Abs. 1 VwVfG LSA");
    // served Tue 24 Oct 2028 → Tue 31 Oct, Reformationstag (Nr. 9) → Wed 1 Nov: Allerheiligen is no holiday here
    let d = served("2028-10-24", Land::St);
    assert_eq!(d.last_day, date("2028-11-01"));
    assert_eq!(reasons(&d), ["served", "period_one_week", "extended_public_holiday:Reformationstag"]);
    // no Fronleichnam, no Buß- und Bettag (only "erhöhter Schutz", § 5), uniform for the whole Land
    for day in ["2026-06-04", "2026-11-18", "2026-11-01", "2026-08-15"] {
        assert!(!Land::St.is_public_holiday(date(day)), "ST {day}");
    }
    assert_eq!(Land::St.holidays(2026).len(), 11);
    assert_eq!(serde_json::from_str::<Land>("\"ST\"").ok(), Some(Land::St));
}

#[test]
fn th_thuerfgtg_2_weltkindertag_since_2019_and_reformationstag_extend_the_week() {
    // served Mon 13 Sep 2027 → the week ends Mon 20 Sep, Weltkindertag (§ 2 Abs. 1 ThürFGtG) → Tue 21 Sep
    let d = served("2027-09-13", Land::Th);
    assert_eq!(d.last_day, date("2027-09-21"));
    assert_eq!(reasons(&d), ["served", "period_one_week", "extended_public_holiday:Weltkindertag"]);
    assert_eq!(d.trail[2].citation, "§ 31 Abs. 3 Satz 1 ThürVwVfG");
    assert!(Land::Th.is_public_holiday(date("2019-09-20")));
    assert!(!Land::Th.is_public_holiday(date("2018-09-20")), "the Weltkindertag is a holiday since 2019");
    assert_eq!(Land::Th.holiday_name(date("2028-10-31")), Some("Reformationstag"));
    // Fronleichnam only in some municipalities (not known to the calendar), no Heilige Drei Könige
    for day in ["2026-06-04", "2026-01-06", "2026-11-01"] {
        assert!(!Land::Th.is_public_holiday(date(day)), "TH {day}");
    }
    assert_eq!(serde_json::from_str::<Land>("\"TH\"").ok(), Some(Land::Th));
}

#[test]
fn mv_ftg_2_frauentag_since_2023_and_reformationstag_extend_the_week() {
    // served Mon 1 Mar 2027 → the week ends Mon 8 Mar, Frauentag (§ 2 FTG M-V) → Tue 9 Mar
    let d = served("2027-03-01", Land::Mv);
    assert_eq!(d.last_day, date("2027-03-09"));
    assert_eq!(reasons(&d), ["served", "period_one_week", "extended_public_holiday:Frauentag"]);
    assert_eq!(d.trail[2].citation, "§ 31 Abs. 3 Satz 1 VwVfG M-V");
    // before 2023 the 8 March was a working day: served Tue 1 Mar 2022 → Tue 8 Mar 2022
    let d = served("2022-03-01", Land::Mv);
    assert_eq!(d.last_day, date("2022-03-08"));
    assert!(!Land::Mv.is_public_holiday(date("2022-03-08")), "the Frauentag is a holiday since 2023");
    assert_eq!(Land::Mv.holiday_name(date("2023-03-08")), Some("Frauentag"));
    assert_eq!(Land::Mv.holiday_name(date("2028-10-31")), Some("Reformationstag"));
    for day in ["2026-06-04", "2026-01-06", "2026-11-01", "2026-09-20"] {
        assert!(!Land::Mv.is_public_holiday(date(day)), "MV {day}");
    }
    assert_eq!(Land::Mv.holidays(2026).len(), 11);
    assert_eq!(serde_json::from_str::<Land>("\"MV\"").ok(), Some(Land::Mv));
}

#[test]
fn bb_ftg_2_reformationstag_extends_the_week_allerheiligen_does_not() {
    // served Tue 24 Oct 2028 → the week ends Tue 31 Oct, Reformationstag (§ 2 Abs. 1 Nr. 10 FTG) → Wed 1 Nov
    let d = served("2028-10-24", Land::Bb);
    assert_eq!(d.last_day, date("2028-11-01"));
    assert_eq!(reasons(&d), ["served", "period_one_week", "extended_public_holiday:Reformationstag"]);
    assert_eq!(d.trail[2].citation, "§ 31 Abs. 3 Satz 1 VwVfG i. V. m. § 1 Abs. 1 VwVfGBbg");
    // served Wed 25 Oct 2028 → Wed 1 Nov: no holiday in Brandenburg
    assert_eq!(served("2028-10-25", Land::Bb).last_day, date("2028-11-01"));
    assert_eq!(Land::Bb.holidays(2026).len(), 12);
}

#[test]
fn bb_bbgkwahlg_51_abs_2_satz_3_four_months_after_acceptance_month_end_and_extension() {
    let bb = |day: &str, rule: PeriodEnd| {
        bar_end_proof_period(Land::Bb, LocalHolidays::NONE, date(day), 4, "§ 51 Abs. 2 Satz 3 BbgKWahlG", rule)
    };
    // 31 Oct 2028 + 4 months: no 31 February → Wed 28 Feb 2029 (§ 188 Abs. 3 BGB)
    let p = bb("2028-10-31", PeriodEnd::Extended);
    assert_eq!(p.last_day, date("2029-02-28"));
    assert_eq!(p.trail[0].citation, "§ 51 Abs. 2 Satz 3 BbgKWahlG");
    assert_eq!(p.trail[2].citation, "§ 188 Abs. 3 BGB");
    assert_eq!(p.ends_at, instant("2029-03-01T00:00:00+01:00"));
    // 30 Nov 2028 + 4 months = Karfreitag 30 Mar 2029 → Tue 3 Apr (Saturday, Ostersonntag, Ostermontag)
    let p = bb("2028-11-30", PeriodEnd::Extended);
    assert_eq!(p.last_day, date("2029-04-03"));
    assert_eq!(p.trail[2].citation, "§ 188 Abs. 2 BGB");
    // read as fixed, it is not extended
    assert_eq!(bb("2028-11-30", PeriodEnd::Fixed).last_day, date("2029-03-30"));
}

#[test]
fn working_days_left_skip_weekends_and_the_lands_holidays() {
    let none = LocalHolidays::NONE;
    // Thu 24 Dec 2026 (a working day) to Mon 28 Dec: 25 and 26 Dec are holidays, 27 Dec a Sunday → 2
    assert_eq!(working_days_left(Land::Nw, none, date("2026-12-24"), date("2026-12-28")), 2);
    // the last day itself counts; after it nothing is left
    assert_eq!(working_days_left(Land::Nw, none, date("2026-12-28"), date("2026-12-28")), 1);
    assert_eq!(working_days_left(Land::Nw, none, date("2026-12-29"), date("2026-12-28")), 0);
    // Fronleichnam (Thu 4 Jun 2026) is a holiday in NRW, not in Niedersachsen
    assert_eq!(working_days_left(Land::Nw, none, date("2026-06-01"), date("2026-06-05")), 4);
    assert_eq!(working_days_left(Land::Ni, none, date("2026-06-01"), date("2026-06-05")), 5);
    // a body's local holiday counts too: Mariä Himmelfahrt (Sat 15 Aug 2026 is a weekend day anyway;
    // Tue 15 Aug 2028)
    let local = LocalHolidays::of(Land::By, &["mariae_himmelfahrt".to_owned()]);
    let plain = working_days_left(Land::By, none, date("2028-08-14"), date("2028-08-16"));
    let with_local = working_days_left(Land::By, local, date("2028-08-14"), date("2028-08-16"));
    assert_eq!((plain, with_local), (3, 2));
}

/// Sachsen: Fronleichnam is a gesetzlicher Feiertag only in the municipalities the FronleichnamsVO names (§ 1
/// Abs. 1 SächsSFG): served Thu 28 May 2026, the week ends on Fronleichnam (Thu 4 June) — extended to Fri 5
/// June for a council that observes it (`body.local_holidays: ["fronleichnam"]`), not for the others.
#[test]
fn sn_saechssfg_1_abs_1_fronleichnam_extends_the_week_only_where_the_verordnung_makes_it_a_holiday() {
    let rules = |codes: &[&str]| PeriodRules {
        local: LocalHolidays::of(Land::Sn, &codes.iter().map(|c| (*c).to_owned()).collect::<Vec<_>>()),
        ..PeriodRules::default()
    };
    let plain = one_week_deadline(&ServiceBasis::Certificate, date("2026-05-28"), Land::Sn, rules(&[]));
    assert_eq!(plain.last_day, date("2026-06-04"));
    let sorbian = one_week_deadline(&ServiceBasis::Certificate, date("2026-05-28"), Land::Sn, rules(&["fronleichnam"]));
    assert_eq!(sorbian.last_day, date("2026-06-05"));
    assert_eq!(reasons(&sorbian), ["served", "period_one_week", "extended_public_holiday:Fronleichnam"]);
    assert!(!Land::Sn.is_public_holiday(date("2026-06-04")), "not a statewide holiday in Sachsen");
    assert_eq!(Land::Sn.law().local_holidays()[0].citation, "§ 1 Abs. 1 SächsSFG i. V. m. der FronleichnamsVO");
}

/// Thüringen: Fronleichnam where it is a holiday for municipalities with a predominantly Catholic population
/// (§ 2 Abs. 2 ThürFGtG; Landkreis Eichsfeld): Fronleichnam 2027 is Thu 27 May — served Thu 20 May 2027, the
/// week ends on it and moves to Fri 28 May only where it is observed.
#[test]
fn th_thuerfgtg_2_abs_2_fronleichnam_extends_the_week_only_in_the_catholic_municipalities() {
    let rules = |codes: &[&str]| PeriodRules {
        local: LocalHolidays::of(Land::Th, &codes.iter().map(|c| (*c).to_owned()).collect::<Vec<_>>()),
        ..PeriodRules::default()
    };
    let plain = one_week_deadline(&ServiceBasis::Certificate, date("2027-05-20"), Land::Th, rules(&[]));
    assert_eq!(plain.last_day, date("2027-05-27"));
    let eichsfeld =
        one_week_deadline(&ServiceBasis::Certificate, date("2027-05-20"), Land::Th, rules(&["fronleichnam"]));
    assert_eq!(eichsfeld.last_day, date("2027-05-28"));
    assert_eq!(reasons(&eichsfeld), ["served", "period_one_week", "extended_public_holiday:Fronleichnam"]);
    assert_eq!(Land::Th.law().local_holidays()[0].citation, "§ 2 Abs. 2 ThürFGtG");
}

/// What holds on every day of service (the calendar sweep of issue 27, in the pure core): for every Land and
/// every day from 2026 to 2030, a period of one or two weeks (§§ 187 Abs. 1, 188 Abs. 2 BGB) ends on the first
/// working day on or after the day the weeks end (§ 31 Abs. 3 Satz 1 VwVfG, § 193 BGB) at 24:00 Berlin time,
/// and the working days the console counts are 1 on the last day and 0 after it.
#[test]
fn bgb_188_abs_2_with_vwvfg_31_abs_3_every_day_of_service_in_every_land_ends_on_a_working_day_at_midnight() {
    for land in Land::ALL {
        for served_on in date("2026-01-01").iter_days().take_while(|d| *d <= date("2030-12-31")) {
            for weeks in [1, 2] {
                let d = acceptance_deadline(&ServiceBasis::Certificate, served_on, land, PeriodRules::default(), weeks);
                let nominal = add_days(served_on, 7 * u64::from(weeks));
                assert_eq!(d.served_on, served_on, "{land:?} {served_on}");
                assert!(d.last_day >= nominal, "{land:?} {served_on}: {} before {nominal}", d.last_day);
                assert!(land.is_working_day(d.last_day), "{land:?} {served_on}: {} is no working day", d.last_day);
                assert!(
                    nominal.iter_days().take_while(|x| *x < d.last_day).all(|x| !land.is_working_day(x)),
                    "{land:?} {served_on}: a working day before {}",
                    d.last_day
                );
                assert_eq!(d.ends_at, end_of_day(d.last_day));
                assert_eq!(local_date(d.ends_at), d.last_day.succ_opt().expect("next day"), "24:00 of the last day");
                let left = |today: NaiveDate| working_days_left(land, LocalHolidays::NONE, today, d.last_day);
                assert_eq!(left(d.last_day), 1, "{land:?} {served_on}");
                assert_eq!(left(d.last_day.succ_opt().expect("next day")), 0, "{land:?} {served_on}");
                assert!(left(served_on) >= 2, "{land:?} {served_on}: at least two working days");
            }
        }
    }
}
