//! The referee's byo-yomi calls as data, for overlays and voice clocks.
//!
//! Art. 12.3, for 60 s reserved minutes: "30 s, 40 s, 50 s, 55 s, 58 s, 1 minute, X minutes left"; in the
//! last minute "30 s, 40 s, 50 s", then each second "1 … 10", and at "10" the minute is used — in the last
//! minute, time is up. Fast games fix their own calls "on the same principle"; seed 001's 30 s byo-yomi is
//! called "10 s, 20 s, then 1 … 10".
//!
//! A [`CallSchedule`] says when, within one period, each call falls; the clock turns it into instants for
//! the player to move ([`crate::Clock::next_call`], [`crate::Clock::calls_between`]). Calls are nominal: they
//! ignore the lag grace, so "time up" is called when the period ends and the flag falls at most the grace
//! later. There are calls only under byo-yomi and only in byo-yomi (not in main time).

use crate::time::DurationMs;

/// When the referee calls, within one byo-yomi period.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CallSchedule {
    /// Seconds into a period that is not the last at which the time used is called.
    pub marks: Vec<u32>,
    /// Seconds into the last period at which the time used is called, before the countdown.
    pub last_period_marks: Vec<u32>,
    /// In the last period, count "1 … countdown" in its final seconds; the final count means time is up.
    pub countdown: u32,
    /// At the end of a period that is not the last, announce the periods left ("1 minute, X left").
    pub announce_periods: bool,
}

/// One call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Call {
    /// "N seconds": the time used in the current period.
    Seconds(u32),
    /// A period is used up ("1 minute, X minutes left"): `periods_left` remain, the new current one included.
    PeriodUsed {
        /// Periods left after this one.
        periods_left: u32,
    },
    /// A second of the last period's countdown ("1" … "9").
    Count(u32),
    /// The final count ("10"): the last period is used and time is up.
    TimeUp {
        /// The number called ("10"; zero if the schedule has no countdown).
        count: u32,
    },
}

impl CallSchedule {
    /// Art. 12.3 for 60 s reserved minutes: 30, 40, 50, 55, 58, "1 minute, X left"; last minute 30, 40, 50,
    /// then 1 … 10.
    #[must_use]
    pub fn chinese() -> CallSchedule {
        CallSchedule {
            marks: vec![30, 40, 50, 55, 58],
            last_period_marks: vec![30, 40, 50],
            countdown: 10,
            announce_periods: true,
        }
    }

    /// Fast byo-yomi of `period` per move (30 s, 20 s, 10 s …): every 10 s, and in the last period every 10 s
    /// up to the final 10 seconds, which are counted 1 … 10. For 30 s this is seed 001's "10 s, 20 s, 1 … 10".
    #[must_use]
    pub fn fast(period: DurationMs) -> CallSchedule {
        let secs = u32::try_from(period.as_millis().max(0) / 1_000).unwrap_or(u32::MAX);
        let countdown = secs.min(10);
        CallSchedule {
            marks: (1..).map(|k| k * 10).take_while(|&s| s < secs).take(1_000).collect(),
            last_period_marks: (1..).map(|k| k * 10).take_while(|&s| s + countdown <= secs).take(1_000).collect(),
            countdown,
            announce_periods: true,
        }
    }

    /// No calls.
    #[must_use]
    pub fn silent() -> CallSchedule {
        CallSchedule { marks: Vec::new(), last_period_marks: Vec::new(), countdown: 0, announce_periods: false }
    }

    /// True if the schedule never calls.
    #[must_use]
    pub fn is_silent(&self) -> bool {
        self.marks.is_empty() && self.last_period_marks.is_empty() && self.countdown == 0 && !self.announce_periods
    }

    /// The calls within one period of length `period`, as (time into the period, call), in order.
    /// `periods_after` is the number of periods after this one (0 for the last).
    #[must_use]
    pub fn period_calls(&self, period: DurationMs, periods_after: u32) -> Vec<(DurationMs, Call)> {
        let mut calls = Vec::new();
        if self.is_silent() {
            return calls;
        }
        let last = periods_after == 0;
        let marks = if last { &self.last_period_marks } else { &self.marks };
        for &s in marks {
            let offset = DurationMs::from_secs(i64::from(s));
            if offset > DurationMs::ZERO && offset < period {
                calls.push((offset, Call::Seconds(s)));
            }
        }
        if last {
            for n in 1..self.countdown {
                let offset = period - DurationMs::from_secs(i64::from(self.countdown - n));
                if offset > DurationMs::ZERO {
                    calls.push((offset, Call::Count(n)));
                }
            }
            calls.push((period, Call::TimeUp { count: self.countdown }));
        } else if self.announce_periods {
            calls.push((period, Call::PeriodUsed { periods_left: periods_after }));
        }
        calls.sort_by_key(|&(offset, _)| offset);
        calls
    }
}

impl Default for CallSchedule {
    fn default() -> CallSchedule {
        CallSchedule::silent()
    }
}

/// The byo-yomi periods of one turn in "turn time" (milliseconds of thinking since the turn began): period
/// `first + k` begins at `origin + k × period`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timeline {
    /// Turn time at which period `first` began: negative when the turn starts with part of the period
    /// already gone (only after a referee's correction, since a move renews the period).
    pub origin: i64,
    pub first: u32,
    pub periods: u32,
    pub period: i64,
}

impl Timeline {
    /// Calls at turn times in `(after, until]`, in order, stopping after `limit` calls.
    pub(crate) fn calls(&self, schedule: &CallSchedule, after: i64, until: i64, limit: usize) -> Vec<(i64, Call)> {
        let mut out = Vec::new();
        if schedule.is_silent() || self.period <= 0 || until <= after {
            return out;
        }
        let skipped = (after - self.origin).div_euclid(self.period).max(0);
        let Ok(skipped) = u32::try_from(skipped) else {
            return out;
        };
        let mut q = self.first.saturating_add(skipped);
        while q <= self.periods {
            let start = self.origin.saturating_add(i64::from(q - self.first).saturating_mul(self.period));
            if start >= until {
                break;
            }
            for (offset, call) in schedule.period_calls(DurationMs(self.period), self.periods - q) {
                let at = start.saturating_add(offset.as_millis());
                if at > after && at <= until {
                    out.push((at, call));
                    if out.len() >= limit {
                        return out;
                    }
                }
            }
            q += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(calls: &[(DurationMs, Call)]) -> Vec<(i64, Call)> {
        calls.iter().map(|&(d, c)| (d.as_millis() / 1_000, c)).collect()
    }

    #[test]
    fn a_reserved_minute_that_is_not_the_last_is_called_thirty_forty_fifty_fifty_five_fifty_eight_then_the_minutes_left()
     {
        let calls = CallSchedule::chinese().period_calls(DurationMs::from_mins(1), 3);
        assert_eq!(
            secs(&calls),
            vec![
                (30, Call::Seconds(30)),
                (40, Call::Seconds(40)),
                (50, Call::Seconds(50)),
                (55, Call::Seconds(55)),
                (58, Call::Seconds(58)),
                (60, Call::PeriodUsed { periods_left: 3 }),
            ]
        );
    }

    #[test]
    fn the_last_minute_is_called_thirty_forty_fifty_then_one_to_ten() {
        let calls = CallSchedule::chinese().period_calls(DurationMs::from_mins(1), 0);
        let mut expected = vec![(30, Call::Seconds(30)), (40, Call::Seconds(40)), (50, Call::Seconds(50))];
        expected.extend((1..10).map(|n| (50 + i64::from(n), Call::Count(n))));
        expected.push((60, Call::TimeUp { count: 10 }));
        assert_eq!(secs(&calls), expected);
    }

    #[test]
    fn seed_001_fast_thirty_seconds_is_ten_twenty_then_one_to_ten() {
        let calls = CallSchedule::fast(DurationMs::from_secs(30)).period_calls(DurationMs::from_secs(30), 0);
        let mut expected = vec![(10, Call::Seconds(10)), (20, Call::Seconds(20))];
        expected.extend((1..10).map(|n| (20 + i64::from(n), Call::Count(n))));
        expected.push((30, Call::TimeUp { count: 10 }));
        assert_eq!(secs(&calls), expected);
    }

    #[test]
    fn ten_second_byo_yomi_is_counted_every_second() {
        let calls = CallSchedule::fast(DurationMs::from_secs(10)).period_calls(DurationMs::from_secs(10), 0);
        let mut expected: Vec<_> = (1..10).map(|n| (i64::from(n), Call::Count(n))).collect();
        expected.push((10, Call::TimeUp { count: 10 }));
        assert_eq!(secs(&calls), expected);
    }

    #[test]
    fn a_silent_schedule_never_calls() {
        assert!(CallSchedule::silent().period_calls(DurationMs::from_secs(30), 0).is_empty());
    }
}
