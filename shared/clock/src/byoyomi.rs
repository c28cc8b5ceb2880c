//! Byo-yomi arithmetic, shared by Chinese reserved minutes and Japanese periods.
//!
//! Chinese byo-yomi with K reserved minutes is Japanese byo-yomi with K periods of 60 s: a move that takes
//! less than a period costs nothing; each full period one move takes uses one period up; the move that
//! reaches the end of the last period is out of time. A move of exactly one period uses it ("at '10' the
//! minute is used", Art. 12.3), so with 5 reserved minutes: 59 s costs nothing, 60 s one minute, 125 s two.
//!
//! Overtime begins the instant main time runs out, even in the middle of a move: the rest of that move
//! counts in the first period.

use crate::bank::{Bank, BankError};
use crate::time::DurationMs;

/// Periods not yet used up, the current one included.
pub(crate) fn periods_left(bank: &Bank, periods: u32) -> u32 {
    if bank.in_overtime() { (periods + 1).saturating_sub(bank.period) } else { periods }
}

/// Thinking time left in this turn before the flag.
pub(crate) fn available(bank: &Bank, periods: u32, period: DurationMs) -> DurationMs {
    if bank.in_overtime() {
        bank.period_left + period.times(i64::from(periods.saturating_sub(bank.period)))
    } else {
        bank.main + period.times(i64::from(periods))
    }
}

/// The bank after `elapsed` (non-negative) of thinking in one turn; `None` once the last period is used.
pub(crate) fn spend(bank: &Bank, periods: u32, period: DurationMs, elapsed: DurationMs) -> Option<Bank> {
    let entering = !bank.in_overtime();
    let (mut bank, mut rest) = match bank.spend_main(elapsed) {
        Ok(bank) => return Some(bank),
        Err(overtime) => overtime,
    };
    if entering {
        bank.period_left = period;
    }
    if rest < bank.period_left {
        bank.period_left = bank.period_left - rest;
        return Some(bank);
    }
    // The current period is used up; whole periods after it go too.
    rest = rest - bank.period_left;
    let whole = rest.as_millis() / period.as_millis();
    let next = i64::from(bank.period) + 1 + whole;
    if next > i64::from(periods) {
        return None;
    }
    bank.period = u32::try_from(next).ok()?;
    bank.period_left = DurationMs(period.as_millis() - rest.as_millis() % period.as_millis());
    Some(bank)
}

/// After a move made in time, the current period starts again in full.
pub(crate) fn complete_move(bank: &Bank, period: DurationMs) -> Bank {
    if bank.in_overtime() { Bank { period_left: period, ..*bank } } else { *bank }
}

pub(crate) fn validate(bank: &Bank, periods: u32, period: DurationMs) -> Result<(), BankError> {
    if bank.in_overtime() {
        if !bank.main.is_zero() {
            Err(BankError::Phase)
        } else if bank.period > periods {
            Err(BankError::Period)
        } else if bank.period_left.is_zero() {
            Err(BankError::Empty)
        } else if bank.period_left > period {
            Err(BankError::PeriodLeft)
        } else {
            Ok(())
        }
    } else if bank.main.is_zero() {
        Err(BankError::Phase)
    } else if bank.period_left != period {
        Err(BankError::PeriodLeft)
    } else {
        Ok(())
    }
}
