//! A player's time as it stands between turns, and the per-system arithmetic of spending it.
//!
//! The clock keeps one [`Bank`] per side, as of the start of the current turn. Everything that happens
//! within a turn is computed from it: [`Bank::spend`] charges thinking time (draining main time, then
//! overtime), [`Bank::complete_move`] applies the per-move rule (byo-yomi period reset, moves counted in the
//! period, Fischer increment). This file holds the bank itself; what each time system does with it is
//! `systems.rs`, which hands the byo-yomi and moves-per-period details to `byoyomi.rs` and
//! `overtime.rs` (both read the bank, none of them is read back by this file).

use crate::time::DurationMs;
use crate::time_control::{Rule, TimeControl};

/// One side's remaining time between turns.
///
/// - `main`: main (basic) time left; for Chinese byo-yomi, excluding the reserved minutes.
/// - `period`: 0 while in main time; once in overtime, the 1-based number of the current period.
/// - `period_left`: time left in the current period (byo-yomi, moves per period, Canadian); the full
///   period while in main time. For moves per period it may exceed one period (carried time).
/// - `moves_left`: moves still to make in the current period (moves per period, Canadian).
///
/// Fields that a system does not use are zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bank {
    /// Main time left.
    pub main: DurationMs,
    /// 0 in main time, else the number of the current overtime period (1 = first).
    pub period: u32,
    /// Time left in the current period.
    pub period_left: DurationMs,
    /// Moves left to make in the current period.
    pub moves_left: u32,
}

/// Why a bank does not fit a time control (for referee corrections).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BankError {
    /// A duration is negative.
    #[error("a duration is negative")]
    Negative,
    /// The bank holds no time at all: the player would already be out of time.
    #[error("no time left")]
    Empty,
    /// Main time is left but the bank claims to be in overtime, or the reverse.
    #[error("main time and overtime disagree")]
    Phase,
    /// The period number is outside 1..=periods.
    #[error("no such period")]
    Period,
    /// The time left in the period is more than a period (byo-yomi, Canadian).
    #[error("more than a period left in the period")]
    PeriodLeft,
    /// The moves left are outside 1..=moves.
    #[error("moves left out of range")]
    MovesLeft,
}

impl Bank {
    /// The bank a player starts the game with.
    #[must_use]
    pub fn initial(control: &TimeControl) -> Bank {
        Bank::start(control.rule())
    }

    /// The bank a player starts with, but with `main` main time (saturating at zero; with no main time left
    /// an overtime system starts in its first period). For corrections and prorations.
    #[must_use]
    pub fn with_main(control: &TimeControl, main: DurationMs) -> Bank {
        let rule = control.rule();
        let mut bank = Bank::start(rule);
        match rule {
            Rule::NoClock => {}
            Rule::Absolute { .. } | Rule::Fischer { .. } => bank.main = main.non_negative(),
            Rule::ByoYomi { .. } | Rule::Moves { .. } => {
                bank.main = main.non_negative();
                bank.period = u32::from(bank.main.is_zero());
            }
        }
        bank
    }

    /// The bank a referee's correction sets, as a referee says it: `main` main time left and
    /// `periods_left` byo-yomi periods (or reserved minutes) left, the current one included; in
    /// overtime, optionally the time (`period_left`) and moves (`moves_left`) left in the current
    /// period, else a full one. While main time is left every period is still there: fewer is
    /// refused (`Phase`). Checked against `control` ([`Bank::validate`]).
    ///
    /// # Errors
    /// The bank does not fit the control.
    pub fn corrected(
        control: &TimeControl,
        main: DurationMs,
        periods_left: Option<u32>,
        period_left: Option<DurationMs>,
        moves_left: Option<u32>,
    ) -> Result<Bank, BankError> {
        if main.is_negative() || period_left.is_some_and(DurationMs::is_negative) {
            return Err(BankError::Negative);
        }
        let mut bank = Bank::with_main(control, main);
        match control.rule() {
            Rule::ByoYomi { periods, .. } => {
                let left = periods_left.unwrap_or(periods);
                if left == 0 || left > periods {
                    return Err(BankError::Period);
                }
                if !bank.in_overtime() && left != periods {
                    return Err(BankError::Phase);
                }
                if bank.in_overtime() {
                    bank.period = periods + 1 - left;
                    bank.period_left = period_left.filter(|p| !p.is_zero()).unwrap_or(bank.period_left);
                }
            }
            Rule::Moves { .. } if bank.in_overtime() => {
                bank.period_left = period_left.filter(|p| !p.is_zero()).unwrap_or(bank.period_left);
                bank.moves_left = moves_left.filter(|m| *m > 0).unwrap_or(bank.moves_left);
            }
            _ => {}
        }
        bank.validate(control)?;
        Ok(bank)
    }

    pub(crate) fn start(rule: Rule) -> Bank {
        match rule {
            Rule::NoClock => Bank::default(),
            Rule::Absolute { main } => Bank { main, ..Bank::default() },
            Rule::Fischer { initial, .. } => Bank { main: initial, ..Bank::default() },
            Rule::ByoYomi { main, period, .. } => {
                Bank { main, period: u32::from(main.is_zero()), period_left: period, moves_left: 0 }
            }
            Rule::Moves { main, moves, period, .. } => {
                Bank { main, period: u32::from(main.is_zero()), period_left: period, moves_left: moves }
            }
        }
    }

    /// True once main time is used up and overtime (byo-yomi, periods) has begun.
    #[must_use]
    pub fn in_overtime(&self) -> bool {
        self.period > 0
    }

    /// Main time first: the bank after `elapsed` if main time covers it (`Ok`); else (`Err`) the bank with
    /// main time gone and its first overtime period begun, and the time still to spend in overtime. A bank
    /// already in overtime spends nothing here.
    pub(crate) fn spend_main(self, elapsed: DurationMs) -> Result<Bank, (Bank, DurationMs)> {
        if self.in_overtime() {
            return Err((self, elapsed));
        }
        if elapsed < self.main {
            return Ok(Bank { main: self.main - elapsed, ..self });
        }
        Err((Bank { main: DurationMs::ZERO, period: 1, ..self }, elapsed - self.main))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rules() -> impl Strategy<Value = Rule> {
        let d = |max: i64| (0..max).prop_map(DurationMs);
        prop_oneof![
            (1..100_000i64).prop_map(|m| Rule::Absolute { main: DurationMs(m) }),
            (1..100_000i64, d(10_000), proptest::option::of(d(200_000)))
                .prop_map(|(i, increment, cap)| { Rule::Fischer { initial: DurationMs(i), increment, cap } }),
            (d(100_000), 1..6u32, 1..60_000i64).prop_map(|(main, periods, p)| Rule::ByoYomi {
                main,
                periods,
                period: DurationMs(p)
            }),
            (d(100_000), 1..20u32, 1..600_000i64, any::<bool>())
                .prop_map(|(main, moves, p, carry)| { Rule::Moves { main, moves, period: DurationMs(p), carry } }),
        ]
    }

    proptest! {
        /// `spend` fails exactly when the elapsed time reaches `available`, and spending in two steps is the
        /// same as spending at once (the clock can be paused anywhere in a turn).
        #[test]
        fn spending_matches_available_and_splits(rule in rules(), a in 0..400_000i64, b in 0..400_000i64) {
            let bank = Bank::start(rule);
            let available = bank.available_under(rule).unwrap();
            let total = DurationMs(a + b);
            let at_once = bank.spend(rule, total);
            prop_assert_eq!(at_once.is_none(), total >= available);
            let in_two = bank.spend(rule, DurationMs(a)).and_then(|mid| mid.spend(rule, DurationMs(b)));
            prop_assert_eq!(at_once, in_two);
            if let Some(after) = at_once {
                prop_assert_eq!(after.available_under(rule).unwrap(), available - total);
            }
        }
    }
}
