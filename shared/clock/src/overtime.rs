//! Overtime by moves: moves per period (定时限步制) and Canadian overtime.
//!
//! After main time, a player must make `moves` moves within `period`. Running out of the period's time
//! before the moves are made loses. When the moves are made:
//! - moves per period: the next period's time is added to what is left (15 moves per 10 minutes, made in 7
//!   minutes: the next period has 13 minutes);
//! - Canadian: the next period starts from a full `period`, whatever was left.
//!
//! The move during which main time runs out counts as the first move of the first period.

use crate::bank::{Bank, BankError};
use crate::time::DurationMs;

/// Thinking time left in this turn before the flag.
pub(crate) fn available(bank: &Bank) -> DurationMs {
    if bank.in_overtime() { bank.period_left } else { bank.main + bank.period_left }
}

/// The bank after `elapsed` (non-negative) of thinking in one turn; `None` when the period's time is gone.
pub(crate) fn spend(bank: &Bank, elapsed: DurationMs) -> Option<Bank> {
    let (mut bank, rest) = match bank.spend_main(elapsed) {
        Ok(bank) => return Some(bank),
        Err(overtime) => overtime,
    };
    if rest < bank.period_left {
        bank.period_left = bank.period_left - rest;
        Some(bank)
    } else {
        None
    }
}

/// After a move made in time in overtime, one fewer move is due; when none are, the next period starts.
pub(crate) fn complete_move(bank: &Bank, moves: u32, period: DurationMs, carry: bool) -> Bank {
    if !bank.in_overtime() {
        return *bank;
    }
    let mut bank = *bank;
    bank.moves_left = bank.moves_left.saturating_sub(1);
    if bank.moves_left == 0 {
        bank.period = bank.period.saturating_add(1);
        bank.moves_left = moves;
        bank.period_left = if carry { bank.period_left + period } else { period };
    }
    bank
}

pub(crate) fn validate(bank: &Bank, moves: u32, period: DurationMs, carry: bool) -> Result<(), BankError> {
    if bank.moves_left == 0 || bank.moves_left > moves {
        return Err(BankError::MovesLeft);
    }
    if bank.in_overtime() {
        if !bank.main.is_zero() {
            Err(BankError::Phase)
        } else if bank.period_left.is_zero() {
            Err(BankError::Empty)
        } else if !carry && bank.period_left > period {
            Err(BankError::PeriodLeft)
        } else {
            Ok(())
        }
    } else if bank.main.is_zero() {
        Err(BankError::Phase)
    } else if bank.period_left != period || bank.moves_left != moves {
        Err(BankError::PeriodLeft)
    } else {
        Ok(())
    }
}
