//! Commands to the clock and the decider that turns them into events; Art. 22.8–9 time corrections.
//!
//! `Clock::decide(command, now)` is the pure decide step: it never changes the clock, it returns the events
//! to record (each stamped `now`), and it has checked that the clock accepts them. The service then appends
//! them with the expected sequence and folds them with [`Clock::apply`].

use crate::bank::Bank;
use crate::clock::Clock;
use crate::error::ClockError;
use crate::event::{ClockEvent, CorrectionReason, Referee};
use crate::lag::LagReport;
use crate::side::{BySide, Side};
use crate::time::{DurationMs, Millis};
use crate::time_control::Rule;

/// Something a player, referee or service asks of the clock.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClockCommand {
    /// Start the first mover's clock.
    Start,
    /// `side` moves (or passes).
    Move {
        /// The mover.
        side: Side,
        /// The client's lag report.
        report: Option<LagReport>,
    },
    /// Pause (Art. 14).
    Pause {
        /// Who.
        by: Referee,
    },
    /// Resume after a pause or adjournment.
    Resume {
        /// Who.
        by: Referee,
    },
    /// Adjourn: `side`, to move, hands in a sealed move.
    Seal {
        /// The sealer.
        side: Side,
        /// The client's lag report.
        report: Option<LagReport>,
    },
    /// Set one or both sides' time.
    Correct {
        /// New banks.
        set: BySide<Option<Bank>>,
        /// Why.
        reason: CorrectionReason,
        /// Who.
        by: Referee,
    },
    /// Art. 22.8: a faulty clock showed `shown_used` main time used; the true total is `true_total`. If the
    /// error is 2 minutes per hour or more, the time used is prorated; otherwise nothing changes.
    ProrateMalfunction {
        /// Main time used per side by the faulty clock.
        shown_used: BySide<DurationMs>,
        /// The true total both sides used.
        true_total: DurationMs,
        /// Who.
        by: Referee,
    },
    /// Art. 22.9: the time used was not recorded; both sides are taken to have used half of `true_total`.
    SplitEvenly {
        /// The true total both sides used.
        true_total: DurationMs,
        /// Who.
        by: Referee,
    },
    /// Art. 22.5: `side` asks that an overrun of its last period count as a pass.
    RequestPassOnOverrun {
        /// Who asks.
        side: Side,
    },
    /// The clock service claims the flag of the player to move.
    Expire,
    /// The game ended otherwise.
    Stop,
}

/// What a faulty clock calls for (Art. 22.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MalfunctionRuling {
    /// The error is under 2 minutes per hour: the clock may be replaced, the time is not changed.
    KeepTime,
    /// The error is 2 minutes per hour or more: replace the clock and prorate the time used.
    Prorate,
}

/// Art. 22.8: is the faulty clock's total (`shown_total`) off the true total by 2 minutes per hour or more?
#[must_use]
pub fn malfunction_ruling(shown_total: DurationMs, true_total: DurationMs) -> MalfunctionRuling {
    let error = i128::from((shown_total - true_total).as_millis()).abs();
    // error / true_total >= 2 min / 60 min  <=>  30 × error >= true_total
    if 30 * error >= i128::from(true_total.as_millis()) {
        MalfunctionRuling::Prorate
    } else {
        MalfunctionRuling::KeepTime
    }
}

/// Art. 22.8: share `true_total` between the sides in proportion to the time each used by the faulty clock
/// (Black's share rounded down, White gets the rest). With nothing shown, the total is split evenly.
#[must_use]
pub fn prorate(shown_used: BySide<DurationMs>, true_total: DurationMs) -> BySide<DurationMs> {
    let black = i128::from(shown_used.black.non_negative().as_millis());
    let white = i128::from(shown_used.white.non_negative().as_millis());
    if black + white == 0 {
        return split_evenly(true_total);
    }
    let total = i128::from(true_total.non_negative().as_millis());
    let black_share = i64::try_from(total * black / (black + white)).unwrap_or(i64::MAX);
    BySide::new(DurationMs(black_share), true_total.non_negative() - DurationMs(black_share))
}

/// Art. 22.9: with no record, each side is taken to have used half (Black rounded down).
#[must_use]
pub fn split_evenly(true_total: DurationMs) -> BySide<DurationMs> {
    let total = true_total.non_negative();
    let black = DurationMs(total.as_millis() / 2);
    BySide::new(black, total - black)
}

impl Clock {
    /// Decides `command` at `now`: the events to record, already checked against this clock.
    ///
    /// # Errors
    /// Why the command cannot be carried out now. A move at or after the deadline is
    /// [`ClockError::TimeExpired`]: the game service refuses it, and the flag is recorded with
    /// [`ClockCommand::Expire`].
    pub fn decide(&self, command: &ClockCommand, now: Millis) -> Result<Vec<ClockEvent>, ClockError> {
        let events = match command {
            ClockCommand::Start => vec![ClockEvent::Started { at: now }],
            ClockCommand::Move { side, report } => {
                vec![ClockEvent::Moved { side: *side, at: now, report: *report }]
            }
            ClockCommand::Pause { by } => vec![ClockEvent::Paused { at: now, by: by.clone() }],
            ClockCommand::Resume { by } => vec![ClockEvent::Resumed { at: now, by: by.clone() }],
            ClockCommand::Seal { side, report } => {
                vec![ClockEvent::Sealed { side: *side, at: now, report: *report }]
            }
            ClockCommand::Correct { set, reason, by } => {
                vec![ClockEvent::Corrected { at: now, set: *set, reason: reason.clone(), by: by.clone() }]
            }
            ClockCommand::ProrateMalfunction { shown_used, true_total, by } => {
                let shown_total = shown_used.black + shown_used.white;
                match malfunction_ruling(shown_total, *true_total) {
                    MalfunctionRuling::KeepTime => Vec::new(),
                    MalfunctionRuling::Prorate => vec![ClockEvent::Corrected {
                        at: now,
                        set: self.banks_after_used(prorate(*shown_used, *true_total), now)?,
                        reason: CorrectionReason::Malfunction { shown_used: *shown_used, true_total: *true_total },
                        by: by.clone(),
                    }],
                }
            }
            ClockCommand::SplitEvenly { true_total, by } => vec![ClockEvent::Corrected {
                at: now,
                set: self.banks_after_used(split_evenly(*true_total), now)?,
                reason: CorrectionReason::NoRecord { true_total: *true_total },
                by: by.clone(),
            }],
            ClockCommand::RequestPassOnOverrun { side } => {
                vec![ClockEvent::PassOnOverrunRequested { side: *side }]
            }
            ClockCommand::Expire => {
                let side = self.to_move();
                let flag = self.flag(now).ok_or(ClockError::NotExpired { side, deadline: self.deadline() })?;
                vec![ClockEvent::TimeExpired { side: flag.side, at: now, outcome: flag.outcome }]
            }
            ClockCommand::Stop => vec![ClockEvent::Stopped { at: now }],
        };
        let mut clock = self.clone();
        for event in &events {
            clock = clock.apply(event)?;
        }
        Ok(events)
    }

    /// The banks that give each side `used` of main time used (plus Fischer increments received), for
    /// prorations. Both sides must still be in main time.
    fn banks_after_used(&self, used: BySide<DurationMs>, now: Millis) -> Result<BySide<Option<Bank>>, ClockError> {
        let reading = self.reading(now);
        let control = self.control();
        let rule = control.rule();
        let mut set = BySide::new(None, None);
        for side in Side::BOTH {
            if reading.sides[side].bank.in_overtime() {
                return Err(ClockError::NotInMainTime { side });
            }
            let base = match rule {
                Rule::Fischer { initial, .. } => initial + self.increments(side),
                _ => control.system.main_time(),
            };
            set[side] = Some(Bank::with_main(control, base - used[side]));
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: fn(i64) -> DurationMs = DurationMs::from_mins;

    #[test]
    fn two_minutes_per_hour_is_the_threshold_inclusive() {
        assert_eq!(malfunction_ruling(MIN(62), MIN(60)), MalfunctionRuling::Prorate);
        assert_eq!(malfunction_ruling(MIN(58), MIN(60)), MalfunctionRuling::Prorate);
        assert_eq!(malfunction_ruling(MIN(62) - DurationMs(1), MIN(60)), MalfunctionRuling::KeepTime);
        assert_eq!(malfunction_ruling(MIN(124), MIN(120)), MalfunctionRuling::Prorate);
        assert_eq!(malfunction_ruling(MIN(123), MIN(120)), MalfunctionRuling::KeepTime);
    }

    #[test]
    fn proration_keeps_the_shown_proportion_and_the_true_total() {
        assert_eq!(prorate(BySide::new(MIN(44), MIN(22)), MIN(60)), BySide::new(MIN(40), MIN(20)));
        assert_eq!(
            prorate(BySide::new(DurationMs(1), DurationMs(2)), DurationMs(10)),
            BySide::new(DurationMs(3), DurationMs(7))
        );
        assert_eq!(prorate(BySide::new(DurationMs::ZERO, DurationMs::ZERO), MIN(60)), BySide::new(MIN(30), MIN(30)));
        assert_eq!(split_evenly(DurationMs(7)), BySide::new(DurationMs(3), DurationMs(4)));
    }
}
