//! The clock: an immutable value folded from clock events, read at any instant.

use std::sync::Arc;

use crate::bank::Bank;
use crate::calls::{Call, Timeline};
use crate::error::ClockError;
use crate::event::{ClockEvent, Expiry, ExpiryOutcome, RefereeRole};
use crate::lag::LagReport;
use crate::reading::{Reading, SideReading};
use crate::side::{BySide, Side};
use crate::time::{DurationMs, Millis};
use crate::time_control::{OverrunRule, Rule, TimeControl};

/// Where the game's clock stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Waiting for [`ClockEvent::Started`] (lateness deductions may be applied).
    NotStarted,
    /// The clock of the player to move runs, since `since` (the start of the turn or the resumption).
    Running {
        /// When the current running stretch began.
        since: Millis,
    },
    /// Paused by a referee or the schedule; the current turn's time so far is kept.
    Paused,
    /// Adjourned after `sealer` sealed a move; the opponent is to move on resumption.
    Adjourned {
        /// Who sealed.
        sealer: Side,
    },
    /// `side` lost on time, recorded at `at`.
    Expired {
        /// The player out of time.
        side: Side,
        /// When it was recorded.
        at: Millis,
    },
    /// The game ended otherwise; the clock stopped at `at`.
    Stopped {
        /// When.
        at: Millis,
    },
}

impl Phase {
    /// True once the clock has stopped for good.
    #[must_use]
    pub fn is_over(&self) -> bool {
        matches!(self, Phase::Expired { .. } | Phase::Stopped { .. })
    }
}

/// How a move was charged: the server's measure, the lag credited, and what was taken off the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveCharge {
    /// The player who moved.
    pub side: Side,
    /// When the move was received.
    pub at: Millis,
    /// The server-measured thinking time of the turn (pauses excluded).
    pub elapsed: DurationMs,
    /// The lag credited from the quota.
    pub credit: DurationMs,
    /// `elapsed - credit`: the time charged by the time system's rules.
    pub charged: DurationMs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Player {
    /// The bank as of the start of this side's current (or next) turn.
    bank: Bank,
    /// Lag-compensation quota.
    quota: DurationMs,
    /// Art. 22.5 request on file.
    pass_on_overrun: bool,
    /// Fischer increments received so far (for proration of used time).
    increments: DurationMs,
}

/// A game's clock: a cheap-to-clone immutable value. [`Clock::apply`] folds one event in O(1);
/// [`Clock::reading`], [`Clock::deadline`] and [`Clock::flag`] read it at any instant without changing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: Arc<TimeControl>,
    rule: Rule,
    players: BySide<Player>,
    to_move: Side,
    phase: Phase,
    /// Time already used in the current turn before `Phase::Running::since` (turns interrupted by pauses).
    turn_used: DurationMs,
    last_at: Option<Millis>,
    last_move: Option<MoveCharge>,
}

/// A replay that stopped at an event the clock refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("clock event #{index} refused: {error}")]
pub struct ReplayError {
    /// Index of the refused event.
    pub index: usize,
    /// Why.
    pub error: ClockError,
}

/// Folds `events` into a fresh clock for `control`, `first` to move.
///
/// # Errors
/// The control is invalid, or an event is refused (with its index).
pub fn replay<'a>(
    control: TimeControl,
    first: Side,
    events: impl IntoIterator<Item = &'a ClockEvent>,
) -> Result<Clock, ReplayError> {
    let mut clock = Clock::new(control, first).map_err(|error| ReplayError { index: 0, error })?;
    for (index, event) in events.into_iter().enumerate() {
        clock = clock.apply(event).map_err(|error| ReplayError { index, error })?;
    }
    Ok(clock)
}

impl Clock {
    /// A clock that has not started, `first` to move (White in handicap games).
    ///
    /// # Errors
    /// If the control is invalid.
    pub fn new(control: TimeControl, first: Side) -> Result<Clock, ClockError> {
        control.validate()?;
        let rule = control.rule();
        let player = Player {
            bank: Bank::start(rule),
            quota: control.lag.start,
            pass_on_overrun: false,
            increments: DurationMs::ZERO,
        };
        Ok(Clock {
            control: Arc::new(control),
            rule,
            players: BySide::both(player),
            to_move: first,
            phase: Phase::NotStarted,
            turn_used: DurationMs::ZERO,
            last_at: None,
            last_move: None,
        })
    }

    /// The time control.
    #[must_use]
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Whose turn it is.
    #[must_use]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Where the clock stands.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// `side`'s bank as of the start of its current or next turn (use [`Clock::reading`] for "now").
    #[must_use]
    pub fn bank(&self, side: Side) -> Bank {
        self.players[side].bank
    }

    /// `side`'s lag-compensation quota.
    #[must_use]
    pub fn lag_quota(&self, side: Side) -> DurationMs {
        self.players[side].quota
    }

    /// Fischer increments `side` has received so far.
    #[must_use]
    pub fn increments(&self, side: Side) -> DurationMs {
        self.players[side].increments
    }

    /// True if `side` asked for Art. 22.5 pass-on-overrun.
    #[must_use]
    pub fn pass_on_overrun(&self, side: Side) -> bool {
        self.players[side].pass_on_overrun
    }

    /// How the last move (or sealed move) was charged.
    #[must_use]
    pub fn last_move(&self) -> Option<MoveCharge> {
        self.last_move
    }

    /// The time of the last event applied.
    #[must_use]
    pub fn last_event_at(&self) -> Option<Millis> {
        self.last_at
    }

    /// The thinking time the player to move has used in this turn by `at` (pauses excluded).
    #[must_use]
    pub fn turn_elapsed(&self, at: Millis) -> DurationMs {
        match self.phase {
            Phase::Running { since } => self.turn_used + (at - since).non_negative(),
            _ => self.turn_used,
        }
    }

    /// When the player to move flags if nothing happens: the end of their time plus the lag grace (the
    /// smaller of their quota and [`crate::LagConfig::max_grace`]). `None` unless running with a clock.
    /// Does not depend on "now": it changes only when an event is applied.
    #[must_use]
    pub fn deadline(&self) -> Option<Millis> {
        let Phase::Running { since } = self.phase else {
            return None;
        };
        let player = &self.players[self.to_move];
        let available = player.bank.available_under(self.rule)?;
        let grace = if available > DurationMs::ZERO { self.control.lag.grace(player.quota) } else { DurationMs::ZERO };
        Some(since + (available - self.turn_used) + grace)
    }

    /// The flag, if the deadline has passed by `now` (`now >= deadline`). The game service refuses a move
    /// at or after the deadline, and the clock service records [`ClockEvent::TimeExpired`] from this: both
    /// compute it from the same events, so they cannot disagree.
    #[must_use]
    pub fn flag(&self, now: Millis) -> Option<Expiry> {
        let deadline = self.deadline()?;
        (now >= deadline).then(|| Expiry { side: self.to_move, deadline, outcome: self.expiry_outcome(self.to_move) })
    }

    /// What `side` running out of time would mean now: a pass under Art. 22.5 if the event allows it and the
    /// player asked, else a loss.
    #[must_use]
    pub fn expiry_outcome(&self, side: Side) -> ExpiryOutcome {
        let allowed = self.control.overrun == OverrunRule::PassOnRequest && matches!(self.rule, Rule::ByoYomi { .. });
        if allowed && self.players[side].pass_on_overrun { ExpiryOutcome::Pass } else { ExpiryOutcome::Loss }
    }

    /// The clock as shown at `now`.
    #[must_use]
    pub fn reading(&self, now: Millis) -> Reading {
        let deadline = self.deadline();
        let sides = self.players.map(|side, player| {
            let mut bank = player.bank;
            let mut flagged = matches!(self.phase, Phase::Expired { side: s, .. } if s == side);
            if side == self.to_move && matches!(self.phase, Phase::Running { .. } | Phase::Paused) {
                let elapsed = self.turn_elapsed(now);
                bank = match player.bank.spend(self.rule, elapsed) {
                    Some(bank) => bank,
                    None => {
                        flagged |= deadline.is_some_and(|d| now >= d);
                        player.bank.exhausted(self.rule)
                    }
                };
            }
            SideReading {
                bank,
                periods_left: bank.periods_left(&self.control),
                available: bank.available_under(self.rule),
                lag_quota: player.quota,
                flagged,
            }
        });
        Reading { at: now, phase: self.phase, to_move: self.to_move, deadline, sides }
    }

    /// The next referee call strictly after `now` for the player to move, with its instant (byo-yomi only;
    /// nominal times, grace ignored). `None` if not running or nothing more will be called this turn.
    #[must_use]
    pub fn next_call(&self, now: Millis) -> Option<(Millis, Call)> {
        self.calls(now, Millis(i64::MAX), 1).into_iter().next()
    }

    /// The referee calls for the player to move with instants in `(after, until]`, in order.
    #[must_use]
    pub fn calls_between(&self, after: Millis, until: Millis) -> Vec<(Millis, Call)> {
        self.calls(after, until, usize::MAX)
    }

    fn calls(&self, after: Millis, until: Millis, limit: usize) -> Vec<(Millis, Call)> {
        let (Phase::Running { since }, Rule::ByoYomi { periods, period, .. }) = (self.phase, self.rule) else {
            return Vec::new();
        };
        if until < since {
            return Vec::new();
        }
        let bank = self.players[self.to_move].bank;
        let timeline = if bank.in_overtime() {
            Timeline {
                origin: -(period - bank.period_left).as_millis(),
                first: bank.period,
                periods,
                period: period.as_millis(),
            }
        } else {
            Timeline { origin: bank.main.as_millis(), first: 1, periods, period: period.as_millis() }
        };
        let used = self.turn_used.as_millis();
        let from = used.saturating_add((after.max(since) - since).as_millis());
        let to = used.saturating_add((until - since).as_millis());
        timeline
            .calls(&self.control.calls, from, to, limit)
            .into_iter()
            .map(|(turn_time, call)| (since + DurationMs(turn_time - used), call))
            .collect()
    }

    /// The clock after `event`. O(1); `self` is unchanged.
    ///
    /// # Errors
    /// Why the event cannot happen now (out of order, wrong phase or side, after the deadline, …).
    pub fn apply(&self, event: &ClockEvent) -> Result<Clock, ClockError> {
        if let (Some(at), Some(last)) = (event.at(), self.last_at)
            && at < last
        {
            return Err(ClockError::OutOfOrder { at, last });
        }
        let mut next = self.clone();
        match event {
            ClockEvent::LatenessDeducted { side, amount } => next.deduct(*side, *amount)?,
            ClockEvent::LatenessRan { side, amount } => next.run_down(*side, *amount)?,
            ClockEvent::Started { at } => match self.phase {
                Phase::NotStarted => next.phase = Phase::Running { since: *at },
                phase if phase.is_over() => return Err(ClockError::GameOver),
                _ => return Err(ClockError::AlreadyStarted),
            },
            ClockEvent::Moved { side, at, report } => {
                next.charge_move(*side, *at, *report)?;
                next.phase = Phase::Running { since: *at };
            }
            ClockEvent::Sealed { side, at, report } => {
                next.charge_move(*side, *at, *report)?;
                next.phase = Phase::Adjourned { sealer: *side };
            }
            ClockEvent::Paused { at, .. } => {
                self.check_on_time(*at)?;
                next.turn_used = self.turn_elapsed(*at);
                next.phase = Phase::Paused;
            }
            ClockEvent::Resumed { at, .. } => match self.phase {
                Phase::Paused | Phase::Adjourned { .. } => next.phase = Phase::Running { since: *at },
                Phase::Running { .. } => return Err(ClockError::NotPaused),
                Phase::NotStarted => return Err(ClockError::NotStarted),
                Phase::Expired { .. } | Phase::Stopped { .. } => return Err(ClockError::GameOver),
            },
            ClockEvent::Corrected { at, set, by, .. } => next.correct(*at, set, by.role)?,
            ClockEvent::PassOnOverrunRequested { side } => {
                if self.phase.is_over() {
                    return Err(ClockError::GameOver);
                }
                if self.control.overrun != OverrunRule::PassOnRequest {
                    return Err(ClockError::OverrunPassNotAllowed);
                }
                next.players[*side].pass_on_overrun = true;
            }
            ClockEvent::TimeExpired { side, at, outcome } => next.expire(*side, *at, *outcome)?,
            ClockEvent::Stopped { at } => {
                if self.phase.is_over() {
                    return Err(ClockError::GameOver);
                }
                let elapsed = self.turn_elapsed(*at);
                let player = &mut next.players[self.to_move];
                player.bank = player.bank.spend(self.rule, elapsed).unwrap_or_else(|| player.bank.exhausted(self.rule));
                next.turn_used = DurationMs::ZERO;
                next.phase = Phase::Stopped { at: *at };
            }
        }
        if let Some(at) = event.at() {
            next.last_at = Some(at);
        }
        Ok(next)
    }

    /// Refuses an action by the player to move at or after the deadline, or when not running.
    fn check_on_time(&self, at: Millis) -> Result<(), ClockError> {
        match self.phase {
            Phase::Running { .. } => match self.deadline() {
                Some(deadline) if at >= deadline => Err(ClockError::TimeExpired { side: self.to_move, deadline }),
                _ => Ok(()),
            },
            Phase::NotStarted => Err(ClockError::NotStarted),
            Phase::Paused | Phase::Adjourned { .. } => Err(ClockError::NotRunning),
            Phase::Expired { .. } | Phase::Stopped { .. } => Err(ClockError::GameOver),
        }
    }

    /// Charges `side`'s move at `at`: lag credit, the time system's rules, quota refill; passes the turn.
    fn charge_move(&mut self, side: Side, at: Millis, report: Option<LagReport>) -> Result<(), ClockError> {
        self.check_on_time(at)?;
        if side != self.to_move {
            return Err(ClockError::NotYourTurn { side, to_move: self.to_move });
        }
        let elapsed = self.turn_elapsed(at);
        let lag = self.control.lag;
        let rule = self.rule;
        let deadline = self.deadline();
        let player = &mut self.players[side];
        let (credit, quota) = match player.bank.available_under(rule) {
            None => (DurationMs::ZERO, player.quota),
            Some(available) => {
                let claimed = report.map_or(DurationMs::ZERO, |r| r.claimed(elapsed));
                let needed = if elapsed >= available { elapsed - available + DurationMs(1) } else { DurationMs::ZERO };
                lag.credit(player.quota, claimed, needed, elapsed)
            }
        };
        let charged = elapsed - credit;
        let expired = || ClockError::TimeExpired { side, deadline: deadline.unwrap_or(at) };
        let spent = player.bank.spend(rule, charged).ok_or_else(expired)?;
        let moved = spent.complete_move(rule);
        if matches!(rule, Rule::Fischer { .. }) {
            player.increments = player.increments + (moved.main - spent.main);
        }
        player.bank = moved;
        player.quota = quota;
        self.last_move = Some(MoveCharge { side, at, elapsed, credit, charged });
        self.to_move = side.opponent();
        self.turn_used = DurationMs::ZERO;
        Ok(())
    }

    fn deduct(&mut self, side: Side, amount: DurationMs) -> Result<(), ClockError> {
        match self.phase {
            Phase::NotStarted => {}
            phase if phase.is_over() => return Err(ClockError::GameOver),
            _ => return Err(ClockError::AlreadyStarted),
        }
        if amount.is_negative() {
            return Err(ClockError::NegativeDuration(amount));
        }
        let player = &mut self.players[side];
        player.bank =
            player.bank.deduct(self.rule, amount).ok_or(ClockError::DeductionExhaustsTime { side, amount })?;
        Ok(())
    }

    /// Art. 22.4: charges `amount` of absence as thinking time before the start.
    fn run_down(&mut self, side: Side, amount: DurationMs) -> Result<(), ClockError> {
        match self.phase {
            Phase::NotStarted => {}
            phase if phase.is_over() => return Err(ClockError::GameOver),
            _ => return Err(ClockError::AlreadyStarted),
        }
        if amount.is_negative() {
            return Err(ClockError::NegativeDuration(amount));
        }
        let rule = self.rule;
        let player = &mut self.players[side];
        player.bank = player.bank.spend(rule, amount).ok_or(ClockError::DeductionExhaustsTime { side, amount })?;
        Ok(())
    }

    fn correct(&mut self, at: Millis, set: &BySide<Option<Bank>>, role: RefereeRole) -> Result<(), ClockError> {
        if self.phase.is_over() {
            return Err(ClockError::GameOver);
        }
        match (set.black.is_some(), set.white.is_some()) {
            (false, false) => return Err(ClockError::EmptyCorrection),
            (true, true) => {}
            _ if role != RefereeRole::Chief => return Err(ClockError::ChiefRefereeRequired),
            _ => {}
        }
        for (side, bank) in set.iter() {
            let Some(bank) = bank else { continue };
            bank.validate(&self.control).map_err(|error| ClockError::InvalidBank { side, error })?;
            self.players[side].bank = *bank;
            if side == self.to_move {
                self.turn_used = DurationMs::ZERO;
                if let Phase::Running { .. } = self.phase {
                    self.phase = Phase::Running { since: at };
                }
            }
        }
        Ok(())
    }

    fn expire(&mut self, side: Side, at: Millis, recorded: ExpiryOutcome) -> Result<(), ClockError> {
        if self.phase.is_over() {
            return Err(ClockError::GameOver);
        }
        let flag = self.flag(at).filter(|flag| flag.side == side);
        let Some(flag) = flag else {
            return Err(ClockError::NotExpired { side, deadline: self.deadline() });
        };
        if recorded != flag.outcome {
            return Err(ClockError::OutcomeMismatch { recorded, computed: flag.outcome });
        }
        let rule = self.rule;
        let player = &mut self.players[side];
        player.bank = player.bank.exhausted(rule);
        self.turn_used = DurationMs::ZERO;
        match flag.outcome {
            ExpiryOutcome::Loss => self.phase = Phase::Expired { side, at },
            ExpiryOutcome::Pass => {
                // Art. 22.5: the player keeps the last period, in full, and the opponent is to move.
                player.bank = player.bank.complete_move(rule);
                self.to_move = side.opponent();
                self.phase = Phase::Running { since: at };
            }
        }
        Ok(())
    }
}
