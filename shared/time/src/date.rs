//! Civil dates (UTC) for certificates, records and exports, computed from [`Millis`] without a clock or
//! time-zone database.

use std::fmt;
use std::str::FromStr;

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};

use crate::Millis;

/// A proleptic Gregorian calendar date, printed as `YYYY-MM-DD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CivilDate {
    /// Year, e.g. 2026.
    pub year: i32,
    /// Month 1..=12.
    pub month: u8,
    /// Day of month 1..=31.
    pub day: u8,
}

/// Why a text is not a `YYYY-MM-DD` date.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a YYYY-MM-DD date: {0:?}")]
pub struct BadDate(pub String);

impl CivilDate {
    /// The UTC date containing the instant `at`.
    #[must_use]
    pub fn from_millis(at: Millis) -> CivilDate {
        let days = at.0.div_euclid(Millis::DAY.0);
        civil_from_days(days)
    }

    /// Midnight UTC at the start of this date.
    #[must_use]
    pub fn to_millis(self) -> Millis {
        Millis(days_from_civil(self) * Millis::DAY.0)
    }
}

/// Days from 0001-01-01 (chrono's day 1 of the common era) to 1970-01-01.
const UNIX_EPOCH_FROM_CE: i64 = 719_163;

/// The date `days` days after 1970-01-01, by the calendar arithmetic of `chrono` (dates far outside
/// any game's, beyond chrono's range of about ±262,000 years, are clamped to its ends).
fn civil_from_days(days: i64) -> CivilDate {
    let ce =
        i32::try_from(days.saturating_add(UNIX_EPOCH_FROM_CE)).unwrap_or(if days < 0 { i32::MIN } else { i32::MAX });
    let date =
        NaiveDate::from_num_days_from_ce_opt(ce).unwrap_or(if days < 0 { NaiveDate::MIN } else { NaiveDate::MAX });
    CivilDate { year: date.year(), month: date.month() as u8, day: date.day() as u8 }
}

/// Days from 1970-01-01 to `date` (a date chrono cannot hold, an invalid day of a month included, is
/// counted from the nearest valid one: 02-30 as 03-01 and so on, as the arithmetic formula did).
fn days_from_civil(date: CivilDate) -> i64 {
    let first = NaiveDate::from_ymd_opt(date.year, u32::from(date.month.clamp(1, 12)), 1).unwrap_or(if date.year < 0 {
        NaiveDate::MIN
    } else {
        NaiveDate::MAX
    });
    i64::from(first.num_days_from_ce()) - UNIX_EPOCH_FROM_CE + i64::from(date.day) - 1
}

impl fmt::Display for CivilDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl FromStr for CivilDate {
    type Err = BadDate;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadDate(s.to_owned());
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return Err(bad());
        }
        let digits = |r: std::ops::Range<usize>| -> Result<u32, BadDate> {
            let part = &s[r];
            if part.bytes().all(|c| c.is_ascii_digit()) { part.parse().map_err(|_| bad()) } else { Err(bad()) }
        };
        let (y, m, d) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
        let date = CivilDate {
            year: y as i32,
            month: u8::try_from(m).map_err(|_| bad())?,
            day: u8::try_from(d).map_err(|_| bad())?,
        };
        // Round-trip through the day count rejects 2026-02-30 and friends.
        if !(1..=12).contains(&date.month) || date.day == 0 || CivilDate::from_millis(date.to_millis()) != date {
            return Err(bad());
        }
        Ok(date)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_dates() {
        assert_eq!(CivilDate::from_millis(Millis(0)).to_string(), "1970-01-01");
        // 2000-02-29 12:00 UTC
        assert_eq!(CivilDate::from_millis(Millis(951_825_600_000)).to_string(), "2000-02-29");
        assert_eq!(CivilDate::from_millis(Millis(-1)).to_string(), "1969-12-31");
        assert!("2026-02-30".parse::<CivilDate>().is_err());
        assert!("2026-1-01".parse::<CivilDate>().is_err());
        assert_eq!("2024-02-29".parse::<CivilDate>().unwrap().to_string(), "2024-02-29");
    }

    proptest! {
        #[test]
        fn day_round_trip(days in -700_000i64..2_900_000) {
            let date = CivilDate::from_millis(Millis(days * Millis::DAY.0));
            prop_assert_eq!(date.to_millis(), Millis(days * Millis::DAY.0));
            prop_assert_eq!(date.to_string().parse::<CivilDate>().unwrap(), date);
        }
    }
}
