//! Which text of a Land's succession rules applies: its Fassungen, each valid for a span of days.
//!
//! A rule set carries its Fassung (docs/legal.md, "Fassungen"): the one in force on the reference day (the day of
//! the determination, `Query::at` in Europe/Berlin) applies. A Land that declares no Fassungen has one,
//! [`Fassung::CURRENT`], valid from the far past; a Land whose rules changed declares each text with its dates
//! ([`super::LandLaw::fassungen`]) and picks its rule variant by [`super::LandLaw::fassung_at`].

use chrono::NaiveDate;
use serde::{Serialize, Serializer};

/// One text (Fassung) of a Land's succession rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Fassung {
    /// Machine-readable id, e.g. `kwahlg-nrw-2024`; `current` for a Land that declares no Fassungen.
    pub id: &'static str,
    /// First day in force; `null` in JSON for the far past.
    #[serde(serialize_with = "far_past_as_null")]
    pub valid_from: NaiveDate,
    /// Last day in force (inclusive); `None` while in force.
    pub valid_to: Option<NaiveDate>,
    /// The text as cited, with its promulgation, e.g. `§ 45 KWahlG NRW i. d. F. d. Art. 1 G v. 5.7.2024 (GV. NRW.
    /// S. 444)`; empty for [`Fassung::CURRENT`].
    pub source: &'static str,
}

impl Fassung {
    /// The one Fassung of a Land that declares none: the text the rule set implements, valid from the far past.
    pub const CURRENT: Fassung = Fassung { id: "current", valid_from: NaiveDate::MIN, valid_to: None, source: "" };

    /// Whether the Fassung is in force on `day`.
    pub fn in_force(&self, day: NaiveDate) -> bool {
        self.valid_from <= day && self.valid_to.is_none_or(|to| day <= to)
    }

    /// The Fassung of `fassungen` in force on `day`; outside all of them the nearest one (the first before its
    /// start, the last after its end), [`Fassung::CURRENT`] if the list is empty.
    pub fn pick(fassungen: &'static [Fassung], day: NaiveDate) -> &'static Fassung {
        if let Some(f) = fassungen.iter().find(|f| f.in_force(day)) {
            return f;
        }
        match (fassungen.first(), fassungen.last()) {
            (Some(first), _) if day < first.valid_from => first,
            (_, Some(last)) => last,
            _ => &Fassung::CURRENT,
        }
    }
}

/// A date, as `YYYY-MM-DD`; the far past (`NaiveDate::MIN`) as `null`.
fn far_past_as_null<S: Serializer>(d: &NaiveDate, s: S) -> Result<S::Ok, S::Error> {
    if *d == NaiveDate::MIN {
        s.serialize_none()
    } else {
        d.serialize(s)
    }
}

/// A date for a `const` table of Fassungen (fails to compile if the date is invalid).
pub(crate) const fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    match NaiveDate::from_ymd_opt(y, m, d) {
        Some(d) => d,
        None => panic!("invalid date in a Fassung table"),
    }
}
