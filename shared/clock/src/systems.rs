//! What each time system does with a [`Bank`]: how much thinking time it allows, how a turn's thinking
//! is charged, what completing a move on time gives back, a lateness deduction, the bank once the flag
//! has fallen, and whether a referee's correction fits the control. Absolute time, Fischer and no clock
//! are a line each here; byo-yomi (`byoyomi.rs`) and moves per period / Canadian (`overtime.rs`) have
//! files of their own.

use crate::bank::{Bank, BankError};
use crate::time::DurationMs;
use crate::time_control::{Rule, TimeControl};
use crate::{byoyomi, overtime};

impl Bank {
    /// Byo-yomi periods not yet used up, the current one included ("还剩 X 分" for reserved minutes).
    /// Zero for systems without byo-yomi.
    #[must_use]
    pub fn periods_left(&self, control: &TimeControl) -> u32 {
        match control.rule() {
            Rule::ByoYomi { periods, .. } => byoyomi::periods_left(self, periods),
            _ => 0,
        }
    }

    /// The thinking time this bank allows in one turn before the flag falls (grace not included); `None`
    /// with no clock.
    #[must_use]
    pub fn available(&self, control: &TimeControl) -> Option<DurationMs> {
        self.available_under(control.rule())
    }

    pub(crate) fn available_under(&self, rule: Rule) -> Option<DurationMs> {
        match rule {
            Rule::NoClock => None,
            Rule::Absolute { .. } | Rule::Fischer { .. } => Some(self.main),
            Rule::ByoYomi { periods, period, .. } => Some(byoyomi::available(self, periods, period)),
            Rule::Moves { .. } => Some(overtime::available(self)),
        }
    }

    /// The bank after `elapsed` of thinking within one turn, or `None` if time ran out, which happens
    /// exactly when `elapsed >= available`.
    pub(crate) fn spend(&self, rule: Rule, elapsed: DurationMs) -> Option<Bank> {
        let elapsed = elapsed.non_negative();
        match rule {
            Rule::NoClock => Some(*self),
            Rule::Absolute { .. } | Rule::Fischer { .. } => {
                (elapsed < self.main).then(|| Bank { main: self.main - elapsed, ..*self })
            }
            Rule::ByoYomi { periods, period, .. } => byoyomi::spend(self, periods, period, elapsed),
            Rule::Moves { .. } => overtime::spend(self, elapsed),
        }
    }

    /// The bank after a move is completed on time: the per-move rule of the system.
    pub(crate) fn complete_move(&self, rule: Rule) -> Bank {
        match rule {
            Rule::NoClock | Rule::Absolute { .. } => *self,
            Rule::Fischer { increment, cap, .. } => {
                let raised = self.main + increment;
                let main = match cap {
                    Some(cap) => raised.min(cap).max(self.main),
                    None => raised,
                };
                Bank { main, ..*self }
            }
            Rule::ByoYomi { period, .. } => byoyomi::complete_move(self, period),
            Rule::Moves { moves, period, carry, .. } => overtime::complete_move(self, moves, period, carry),
        }
    }

    /// The bank after a lateness deduction of `amount` (Art. 22.1): it comes off main time only and stops at
    /// zero, leaving byo-yomi and overtime whole. `None` if it leaves a system without overtime (absolute,
    /// Fischer) with no time.
    pub(crate) fn deduct(&self, rule: Rule, amount: DurationMs) -> Option<Bank> {
        let main = (self.main - amount.non_negative()).non_negative();
        match rule {
            Rule::NoClock => Some(*self),
            Rule::Absolute { .. } | Rule::Fischer { .. } => (!main.is_zero()).then_some(Bank { main, ..*self }),
            Rule::ByoYomi { .. } | Rule::Moves { .. } => {
                let period = if main.is_zero() { self.period.max(1) } else { self.period };
                Some(Bank { main, period, ..*self })
            }
        }
    }

    /// The bank once the flag has fallen: nothing left (shown in readings).
    pub(crate) fn exhausted(&self, rule: Rule) -> Bank {
        match rule {
            Rule::NoClock => *self,
            Rule::Absolute { .. } | Rule::Fischer { .. } => Bank { main: DurationMs::ZERO, ..*self },
            Rule::ByoYomi { periods, .. } => {
                Bank { main: DurationMs::ZERO, period: periods, period_left: DurationMs::ZERO, moves_left: 0 }
            }
            Rule::Moves { .. } => {
                Bank { main: DurationMs::ZERO, period: self.period.max(1), period_left: DurationMs::ZERO, ..*self }
            }
        }
    }

    /// Checks that the bank fits the control and holds some time (for referee corrections).
    ///
    /// # Errors
    /// The first inconsistency found.
    pub fn validate(&self, control: &TimeControl) -> Result<(), BankError> {
        let rule = control.rule();
        if self.main.is_negative() || self.period_left.is_negative() {
            return Err(BankError::Negative);
        }
        match rule {
            Rule::NoClock => Ok(()),
            Rule::Absolute { .. } | Rule::Fischer { .. } => {
                if self.main.is_zero() {
                    Err(BankError::Empty)
                } else {
                    Ok(())
                }
            }
            Rule::ByoYomi { periods, period, .. } => byoyomi::validate(self, periods, period),
            Rule::Moves { moves, period, carry, .. } => overtime::validate(self, moves, period, carry),
        }
    }
}
