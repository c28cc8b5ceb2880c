//! Time controls: which time system a game uses, with its figures, calls, overrun rule and lag allowance.

use crate::calls::CallSchedule;
use crate::lag::LagConfig;
use crate::time::DurationMs;

/// One minute: the length of a Chinese reserved minute.
pub const MINUTE: DurationMs = DurationMs::from_mins(1);

/// The longest duration a time control may hold (main time, a period, an increment, a cap): 30 days, enough
/// for correspondence play, and far from where millisecond arithmetic could saturate.
pub const MAX_DURATION: DurationMs = DurationMs::from_hours(30 * 24);

/// The most byo-yomi periods, reserved minutes or moves per period a control may ask for.
pub const MAX_COUNT: u32 = 1_000;

/// A time system with its figures (RULES.md section 2, Art. 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TimeSystem {
    /// No clock: nothing is timed and nobody flags.
    NoClock,
    /// Absolute time (包干): the game must end within `main`; running out loses.
    Absolute {
        /// Basic time per side.
        main: DurationMs,
    },
    /// Chinese byo-yomi (读秒) with reserved minutes: `basic` includes `reserved_minutes` minutes. Down to
    /// those minutes, a move under 60 s costs nothing and each full 60 s spent on one move consumes one
    /// reserved minute; at the end of the last minute time is up.
    ChineseByoYomi {
        /// Basic time per side, reserved minutes included.
        basic: DurationMs,
        /// Minutes of `basic` reserved for byo-yomi (5 in national events, 1 in local ones).
        reserved_minutes: u32,
    },
    /// Japanese byo-yomi: after `main`, `periods` periods of `period` each. A move made within the current
    /// period costs nothing; each period that runs out is used up; when the last runs out time is up.
    /// The fast forms are 30 s, 20 s and 10 s periods, often with no main time.
    JapaneseByoYomi {
        /// Main time per side (may be zero in fast games).
        main: DurationMs,
        /// Number of byo-yomi periods.
        periods: u32,
        /// Length of one period.
        period: DurationMs,
    },
    /// Moves per period (定时限步制): after `main`, `moves` moves within each `period`; time left over at the
    /// end of a period carries into the next.
    MovesPerPeriod {
        /// Main time per side (may be zero).
        main: DurationMs,
        /// Moves to make in each period.
        moves: u32,
        /// Length of one period.
        period: DurationMs,
    },
    /// Canadian overtime: after `main`, `moves` moves within `period`; once they are made, the period starts
    /// again in full (nothing carries over).
    Canadian {
        /// Main time per side (may be zero).
        main: DurationMs,
        /// Moves to make in each period.
        moves: u32,
        /// Length of one period.
        period: DurationMs,
    },
    /// Fischer increment: `initial`, plus `increment` after each move, never raising the time above `cap`.
    Fischer {
        /// Initial time per side.
        initial: DurationMs,
        /// Time added after each move.
        increment: DurationMs,
        /// Highest time an increment may bring a player to (an increment never lowers the time).
        cap: Option<DurationMs>,
    },
}

/// What an overrun of the last byo-yomi period means (Art. 22.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum OverrunRule {
    /// The player loses on time (the default).
    #[default]
    Loss,
    /// The event allows a player who asked for it to have the overrun count as a pass instead; play goes on
    /// under the same byo-yomi. Only for byo-yomi systems.
    PassOnRequest,
}

/// A complete time control: the system and the event's options around it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TimeControl {
    /// The time system and its figures.
    pub system: TimeSystem,
    /// What an overrun of the last byo-yomi period means.
    pub overrun: OverrunRule,
    /// The referee's calls during byo-yomi (silent for systems without byo-yomi).
    pub calls: CallSchedule,
    /// The lag-compensation allowance.
    pub lag: LagConfig,
}

/// Why a time control is not usable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    /// A duration in the control is negative.
    #[error("a duration in the time control is negative")]
    NegativeDuration,
    /// Absolute time with no time at all.
    #[error("absolute time needs a positive basic time")]
    NoTime,
    /// Fischer with neither initial time nor increment.
    #[error("Fischer needs a positive initial time")]
    NoInitialTime,
    /// Byo-yomi or overtime with no periods, an empty period or no moves per period.
    #[error("overtime needs at least one period of positive length and at least one move")]
    EmptyOvertime,
    /// Chinese byo-yomi whose basic time is shorter than its reserved minutes.
    #[error("the basic time {basic} is shorter than the {reserved_minutes} reserved minutes")]
    BasicShorterThanReserve {
        /// The basic time.
        basic: DurationMs,
        /// The reserved minutes.
        reserved_minutes: u32,
    },
    /// [`OverrunRule::PassOnRequest`] on a system without byo-yomi periods.
    #[error("an overrun can only count as a pass under byo-yomi")]
    OverrunNeedsByoYomi,
    /// The lag configuration is inconsistent.
    #[error("lag allowance must be non-negative with start <= cap")]
    Lag,
    /// A duration longer than [`MAX_DURATION`].
    #[error("{field} of {value} is out of range: at most {max}")]
    TooLong {
        /// Which figure.
        field: &'static str,
        /// Its value.
        value: DurationMs,
        /// The largest allowed.
        max: DurationMs,
    },
    /// A count (periods, reserved minutes, moves) above [`MAX_COUNT`].
    #[error("{field} of {value} is out of range: 1 to {max}")]
    TooMany {
        /// Which figure.
        field: &'static str,
        /// Its value.
        value: u32,
        /// The largest allowed.
        max: u32,
    },
    /// A Fischer cap below the initial time: the first increment could never be added.
    #[error("the Fischer cap {cap} is below the initial time {initial}")]
    CapBelowInitial {
        /// The cap.
        cap: DurationMs,
        /// The initial time.
        initial: DurationMs,
    },
}

fn check_duration(field: &'static str, value: DurationMs) -> Result<(), ControlError> {
    if value.is_negative() {
        Err(ControlError::NegativeDuration)
    } else if value > MAX_DURATION {
        Err(ControlError::TooLong { field, value, max: MAX_DURATION })
    } else {
        Ok(())
    }
}

fn check_count(field: &'static str, value: u32) -> Result<(), ControlError> {
    if value > MAX_COUNT { Err(ControlError::TooMany { field, value, max: MAX_COUNT }) } else { Ok(()) }
}

/// The normalised arithmetic form of a system (Chinese byo-yomi is Japanese byo-yomi with 60 s periods).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Rule {
    NoClock,
    Absolute { main: DurationMs },
    Fischer { initial: DurationMs, increment: DurationMs, cap: Option<DurationMs> },
    ByoYomi { main: DurationMs, periods: u32, period: DurationMs },
    Moves { main: DurationMs, moves: u32, period: DurationMs, carry: bool },
}

impl TimeSystem {
    pub(crate) fn rule(self) -> Rule {
        match self {
            TimeSystem::NoClock => Rule::NoClock,
            TimeSystem::Absolute { main } => Rule::Absolute { main },
            TimeSystem::ChineseByoYomi { basic, reserved_minutes } => Rule::ByoYomi {
                main: basic - MINUTE.times(i64::from(reserved_minutes)),
                periods: reserved_minutes,
                period: MINUTE,
            },
            TimeSystem::JapaneseByoYomi { main, periods, period } => Rule::ByoYomi { main, periods, period },
            TimeSystem::MovesPerPeriod { main, moves, period } => Rule::Moves { main, moves, period, carry: true },
            TimeSystem::Canadian { main, moves, period } => Rule::Moves { main, moves, period, carry: false },
            TimeSystem::Fischer { initial, increment, cap } => Rule::Fischer { initial, increment, cap },
        }
    }

    /// True for the byo-yomi systems (Chinese and Japanese), the only ones with referee calls and Art. 22.5.
    #[must_use]
    pub fn has_byo_yomi(self) -> bool {
        matches!(self.rule(), Rule::ByoYomi { .. })
    }

    /// The main (basic) time before any overtime; for Chinese byo-yomi, the basic time less the reserved
    /// minutes. Zero for no clock.
    #[must_use]
    pub fn main_time(self) -> DurationMs {
        match self.rule() {
            Rule::NoClock => DurationMs::ZERO,
            Rule::Absolute { main } | Rule::ByoYomi { main, .. } | Rule::Moves { main, .. } => main,
            Rule::Fischer { initial, .. } => initial,
        }
    }

    /// Checks the figures.
    ///
    /// # Errors
    /// The first problem found.
    pub fn validate(self) -> Result<(), ControlError> {
        self.check_ranges()?;
        let negative = |d: DurationMs| d.is_negative();
        match self {
            TimeSystem::NoClock => Ok(()),
            TimeSystem::Absolute { main } => {
                if negative(main) {
                    Err(ControlError::NegativeDuration)
                } else if main.is_zero() {
                    Err(ControlError::NoTime)
                } else {
                    Ok(())
                }
            }
            TimeSystem::ChineseByoYomi { basic, reserved_minutes } => {
                if negative(basic) {
                    Err(ControlError::NegativeDuration)
                } else if reserved_minutes == 0 {
                    Err(ControlError::EmptyOvertime)
                } else if basic < MINUTE.times(i64::from(reserved_minutes)) {
                    Err(ControlError::BasicShorterThanReserve { basic, reserved_minutes })
                } else {
                    Ok(())
                }
            }
            TimeSystem::JapaneseByoYomi { main, periods: count, period }
            | TimeSystem::MovesPerPeriod { main, moves: count, period }
            | TimeSystem::Canadian { main, moves: count, period } => {
                if negative(main) || negative(period) {
                    Err(ControlError::NegativeDuration)
                } else if count == 0 || period.is_zero() {
                    Err(ControlError::EmptyOvertime)
                } else {
                    Ok(())
                }
            }
            TimeSystem::Fischer { initial, increment, cap } => {
                if negative(initial) || negative(increment) || cap.is_some_and(negative) {
                    Err(ControlError::NegativeDuration)
                } else if initial.is_zero() {
                    Err(ControlError::NoInitialTime)
                } else if let Some(cap) = cap.filter(|&cap| cap < initial) {
                    Err(ControlError::CapBelowInitial { cap, initial })
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Every figure within [`MAX_DURATION`] and [`MAX_COUNT`] (negative durations are refused too).
    fn check_ranges(self) -> Result<(), ControlError> {
        match self {
            TimeSystem::NoClock => Ok(()),
            TimeSystem::Absolute { main } => check_duration("main time", main),
            TimeSystem::ChineseByoYomi { basic, reserved_minutes } => {
                check_duration("basic time", basic)?;
                check_count("reserved minutes", reserved_minutes)
            }
            TimeSystem::JapaneseByoYomi { main, periods, period } => {
                check_duration("main time", main)?;
                check_duration("period", period)?;
                check_count("periods", periods)
            }
            TimeSystem::MovesPerPeriod { main, moves, period } | TimeSystem::Canadian { main, moves, period } => {
                check_duration("main time", main)?;
                check_duration("period", period)?;
                check_count("moves per period", moves)
            }
            TimeSystem::Fischer { initial, increment, cap } => {
                check_duration("initial time", initial)?;
                check_duration("increment", increment)?;
                cap.map_or(Ok(()), |cap| check_duration("cap", cap))
            }
        }
    }
}

impl TimeControl {
    /// A control for `system` with the defaults: overrun loses, the referee's calls suited to the system
    /// ([`CallSchedule::chinese`] for reserved minutes, [`CallSchedule::fast`] for Japanese periods, silent
    /// otherwise) and [`LagConfig::STANDARD`] (none for no clock).
    ///
    /// # Errors
    /// If the figures are invalid.
    pub fn new(system: TimeSystem) -> Result<TimeControl, ControlError> {
        system.validate()?;
        let calls = match system {
            TimeSystem::ChineseByoYomi { .. } => CallSchedule::chinese(),
            TimeSystem::JapaneseByoYomi { period, .. } => CallSchedule::fast(period),
            _ => CallSchedule::silent(),
        };
        let lag = if system == TimeSystem::NoClock { LagConfig::NONE } else { LagConfig::STANDARD };
        Ok(TimeControl { system, overrun: OverrunRule::Loss, calls, lag })
    }

    /// No clock.
    #[must_use]
    pub fn no_clock() -> TimeControl {
        TimeControl {
            system: TimeSystem::NoClock,
            overrun: OverrunRule::Loss,
            calls: CallSchedule::silent(),
            lag: LagConfig::NONE,
        }
    }

    /// Absolute time (包干).
    ///
    /// # Errors
    /// If `main` is not positive.
    pub fn absolute(main: DurationMs) -> Result<TimeControl, ControlError> {
        TimeControl::new(TimeSystem::Absolute { main })
    }

    /// Chinese byo-yomi: `basic` time of which `reserved_minutes` are reserved.
    ///
    /// # Errors
    /// If there are no reserved minutes or they exceed the basic time.
    pub fn chinese(basic: DurationMs, reserved_minutes: u32) -> Result<TimeControl, ControlError> {
        TimeControl::new(TimeSystem::ChineseByoYomi { basic, reserved_minutes })
    }

    /// Japanese byo-yomi: `main`, then `periods` × `period`.
    ///
    /// # Errors
    /// If there is no period or a period is empty.
    pub fn japanese(main: DurationMs, periods: u32, period: DurationMs) -> Result<TimeControl, ControlError> {
        TimeControl::new(TimeSystem::JapaneseByoYomi { main, periods, period })
    }

    /// Moves per period (定时限步制): `main`, then `moves` moves per `period`, unused time carrying over.
    ///
    /// # Errors
    /// If there are no moves or the period is empty.
    pub fn moves_per_period(main: DurationMs, moves: u32, period: DurationMs) -> Result<TimeControl, ControlError> {
        TimeControl::new(TimeSystem::MovesPerPeriod { main, moves, period })
    }

    /// Canadian overtime: `main`, then `moves` moves per `period`, the period restarting in full.
    ///
    /// # Errors
    /// If there are no moves or the period is empty.
    pub fn canadian(main: DurationMs, moves: u32, period: DurationMs) -> Result<TimeControl, ControlError> {
        TimeControl::new(TimeSystem::Canadian { main, moves, period })
    }

    /// Fischer increment with an optional cap.
    ///
    /// # Errors
    /// If `initial` is not positive or a figure is negative.
    pub fn fischer(
        initial: DurationMs,
        increment: DurationMs,
        cap: Option<DurationMs>,
    ) -> Result<TimeControl, ControlError> {
        TimeControl::new(TimeSystem::Fischer { initial, increment, cap })
    }

    /// A national event (Art. 12.3): `basic` time with 5 reserved minutes.
    ///
    /// # Errors
    /// If `basic` is shorter than 5 minutes.
    pub fn national(basic: DurationMs) -> Result<TimeControl, ControlError> {
        TimeControl::chinese(basic, 5)
    }

    /// Seed 001's local event: 1 hour, then 30 s per move, called "10 s, 20 s, 1 … 10".
    #[must_use]
    pub fn seed_001_local() -> TimeControl {
        TimeControl {
            system: TimeSystem::JapaneseByoYomi {
                main: DurationMs::from_hours(1),
                periods: 1,
                period: DurationMs::from_secs(30),
            },
            overrun: OverrunRule::Loss,
            calls: CallSchedule::fast(DurationMs::from_secs(30)),
            lag: LagConfig::STANDARD,
        }
    }

    /// The same control with another overrun rule.
    ///
    /// # Errors
    /// [`ControlError::OverrunNeedsByoYomi`] for a pass-on-request rule without byo-yomi.
    pub fn with_overrun(mut self, overrun: OverrunRule) -> Result<TimeControl, ControlError> {
        self.overrun = overrun;
        self.validate()?;
        Ok(self)
    }

    /// The same control with another call schedule.
    #[must_use]
    pub fn with_calls(mut self, calls: CallSchedule) -> TimeControl {
        self.calls = calls;
        self
    }

    /// The same control with another lag allowance.
    ///
    /// # Errors
    /// If the allowance is inconsistent.
    pub fn with_lag(mut self, lag: LagConfig) -> Result<TimeControl, ControlError> {
        self.lag = lag;
        self.validate()?;
        Ok(self)
    }

    /// Checks the system, the overrun rule and the lag allowance.
    ///
    /// # Errors
    /// The first problem found.
    pub fn validate(&self) -> Result<(), ControlError> {
        self.system.validate()?;
        if self.overrun == OverrunRule::PassOnRequest && !self.system.has_byo_yomi() {
            return Err(ControlError::OverrunNeedsByoYomi);
        }
        self.lag.validate()
    }

    pub(crate) fn rule(&self) -> Rule {
        self.system.rule()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_reserved_minutes_are_sixty_second_periods_inside_the_basic_time() {
        let control = TimeControl::chinese(DurationMs::from_hours(2), 5).unwrap();
        assert_eq!(control.rule(), Rule::ByoYomi { main: DurationMs::from_mins(115), periods: 5, period: MINUTE });
        assert_eq!(control.system.main_time(), DurationMs::from_mins(115));
    }

    #[test]
    fn invalid_figures_are_refused() {
        let secs = DurationMs::from_secs;
        assert_eq!(TimeControl::absolute(DurationMs::ZERO), Err(ControlError::NoTime));
        assert_eq!(TimeControl::absolute(secs(-1)), Err(ControlError::NegativeDuration));
        assert_eq!(
            TimeControl::chinese(DurationMs::from_mins(4), 5),
            Err(ControlError::BasicShorterThanReserve { basic: DurationMs::from_mins(4), reserved_minutes: 5 })
        );
        assert_eq!(TimeControl::chinese(DurationMs::from_mins(4), 0), Err(ControlError::EmptyOvertime));
        assert_eq!(TimeControl::japanese(secs(0), 0, secs(30)), Err(ControlError::EmptyOvertime));
        assert_eq!(TimeControl::canadian(secs(0), 5, secs(0)), Err(ControlError::EmptyOvertime));
        assert_eq!(TimeControl::fischer(secs(0), secs(5), None), Err(ControlError::NoInitialTime));
        assert_eq!(
            TimeControl::absolute(secs(60)).unwrap().with_overrun(OverrunRule::PassOnRequest),
            Err(ControlError::OverrunNeedsByoYomi)
        );
    }

    #[test]
    fn figures_out_of_range_are_refused_not_saturated() {
        let huge = DurationMs(1 << 62);
        assert_eq!(
            TimeControl::fischer(huge, DurationMs::from_secs(5), None),
            Err(ControlError::TooLong { field: "initial time", value: huge, max: MAX_DURATION })
        );
        assert!(TimeControl::fischer(MAX_DURATION, DurationMs::ZERO, None).is_ok());
        assert!(matches!(TimeControl::japanese(DurationMs::ZERO, 5, huge), Err(ControlError::TooLong { .. })));
        assert_eq!(
            TimeControl::japanese(DurationMs::ZERO, 1_001, DurationMs::from_secs(30)),
            Err(ControlError::TooMany { field: "periods", value: 1_001, max: MAX_COUNT })
        );
        let (initial, cap) = (DurationMs::from_mins(10), DurationMs::from_mins(5));
        assert_eq!(
            TimeControl::fischer(initial, DurationMs::from_secs(10), Some(cap)),
            Err(ControlError::CapBelowInitial { cap, initial })
        );
        assert!(TimeControl::fischer(initial, DurationMs::from_secs(10), Some(initial)).is_ok());
    }

    #[test]
    fn the_chinese_basic_time_may_be_exactly_the_reserve() {
        let control = TimeControl::chinese(DurationMs::from_mins(1), 1).unwrap();
        assert_eq!(control.rule(), Rule::ByoYomi { main: DurationMs::ZERO, periods: 1, period: MINUTE });
    }
}
