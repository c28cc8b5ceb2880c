//! `weiqi-time`: time as integer milliseconds, the one time type of the platform. [`Millis`] is an
//! instant (server time, ms since the Unix epoch), [`DurationMs`] a span.
//!
//! Every pure core (rules, clock, pairing, rating) takes time as a parameter of these types and never
//! reads a clock; the services read the clock once per decision, through their environment, and pass
//! the instant in.
//!
//! ```
//! use weiqi_time::{DurationMs, Millis};
//!
//! let start = Millis(1_700_000_000_000);
//! let deadline = start + DurationMs::from_mins(30);
//! assert_eq!(deadline - start, DurationMs::from_secs(1800));
//! assert_eq!(DurationMs(125_004).to_string(), "2:05.004");
//! ```
//!
//! # Invariants
//!
//! * Arithmetic saturates instead of overflowing, so no input can make a core panic.
//! * Both types serialise as a bare integer of milliseconds (serde), so stored JSON and TOML stay
//!   readable and stable.
//! * Nothing here reads a clock.

mod date;

pub use date::{BadDate, CivilDate};

use std::fmt;
use std::ops::{Add, Sub};

/// An instant: a server timestamp in whole milliseconds (Unix epoch in production, any origin in tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Millis(pub i64);

/// A span of time in whole milliseconds. Negative values only appear as rejected input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct DurationMs(pub i64);

impl Millis {
    /// One day, in ms (also the instant one day after the epoch): for calendar arithmetic.
    pub const DAY: Millis = Millis(86_400_000);
    /// One week, in ms (also the instant one week after the epoch).
    pub const WEEK: Millis = Millis(7 * 86_400_000);

    /// `self + other` in ms, saturating (for cores that count spans in `Millis`).
    #[must_use]
    pub const fn plus(self, other: Millis) -> Millis {
        Millis(self.0.saturating_add(other.0))
    }

    /// The span from `earlier` to `self` (negative if `earlier` is later).
    #[must_use]
    pub const fn since(self, earlier: Millis) -> DurationMs {
        DurationMs(self.0.saturating_sub(earlier.0))
    }
}

impl DurationMs {
    /// No time at all.
    pub const ZERO: DurationMs = DurationMs(0);
    /// The longest span; used as "never" internally.
    pub const MAX: DurationMs = DurationMs(i64::MAX);

    /// A span of `ms` milliseconds.
    #[must_use]
    pub const fn from_millis(ms: i64) -> DurationMs {
        DurationMs(ms)
    }

    /// A span of `s` seconds.
    #[must_use]
    pub const fn from_secs(s: i64) -> DurationMs {
        DurationMs(s.saturating_mul(1_000))
    }

    /// A span of `m` minutes.
    #[must_use]
    pub const fn from_mins(m: i64) -> DurationMs {
        DurationMs(m.saturating_mul(60_000))
    }

    /// A span of `h` hours.
    #[must_use]
    pub const fn from_hours(h: i64) -> DurationMs {
        DurationMs(h.saturating_mul(3_600_000))
    }

    /// The span in milliseconds.
    #[must_use]
    pub const fn as_millis(self) -> i64 {
        self.0
    }

    /// True if the span is below zero.
    #[must_use]
    pub const fn is_negative(self) -> bool {
        self.0 < 0
    }

    /// True if the span is zero.
    #[must_use]
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// The span, or zero if it is negative.
    #[must_use]
    pub const fn non_negative(self) -> DurationMs {
        if self.0 < 0 { DurationMs::ZERO } else { self }
    }

    /// `n` times the span (saturating).
    #[must_use]
    pub const fn times(self, n: i64) -> DurationMs {
        DurationMs(self.0.saturating_mul(n))
    }
}

impl Add<DurationMs> for Millis {
    type Output = Millis;
    fn add(self, rhs: DurationMs) -> Millis {
        Millis(self.0.saturating_add(rhs.0))
    }
}

impl Sub<DurationMs> for Millis {
    type Output = Millis;
    fn sub(self, rhs: DurationMs) -> Millis {
        Millis(self.0.saturating_sub(rhs.0))
    }
}

impl Sub<Millis> for Millis {
    type Output = DurationMs;
    fn sub(self, rhs: Millis) -> DurationMs {
        self.since(rhs)
    }
}

impl Add for DurationMs {
    type Output = DurationMs;
    fn add(self, rhs: DurationMs) -> DurationMs {
        DurationMs(self.0.saturating_add(rhs.0))
    }
}

impl Sub for DurationMs {
    type Output = DurationMs;
    fn sub(self, rhs: DurationMs) -> DurationMs {
        DurationMs(self.0.saturating_sub(rhs.0))
    }
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}ms", self.0)
    }
}

/// `1:02:03.004`, `2:03.004` or `3.004s`: hours and minutes only when present.
impl fmt::Display for DurationMs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let ms = self.0.unsigned_abs();
        let (h, m, s, frac) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1_000 % 60, ms % 1_000);
        if h > 0 {
            write!(f, "{sign}{h}:{m:02}:{s:02}.{frac:03}")
        } else if m > 0 {
            write!(f, "{sign}{m}:{s:02}.{frac:03}")
        } else {
            write!(f, "{sign}{s}.{frac:03}s")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_saturates_instead_of_panicking() {
        assert_eq!(Millis(i64::MAX) + DurationMs(5), Millis(i64::MAX));
        assert_eq!(Millis(i64::MIN) - DurationMs(5), Millis(i64::MIN));
        assert_eq!(Millis(i64::MAX) - Millis(i64::MIN), DurationMs::MAX);
        assert_eq!(DurationMs::MAX.times(3), DurationMs::MAX);
    }

    #[test]
    fn display_shows_only_the_units_present() {
        assert_eq!(DurationMs::from_secs(3).to_string(), "3.000s");
        assert_eq!(DurationMs(125_004).to_string(), "2:05.004");
        assert_eq!(DurationMs::from_hours(1).to_string(), "1:00:00.000");
        assert_eq!(DurationMs(-1_500).to_string(), "-1.500s");
    }
}
