//! Clock events: the facts, with server timestamps, that a clock is a fold of.
//!
//! The game service records these (inside its own game events) and replays them through
//! [`crate::Clock::apply`]. Every timestamp is the server's.

use crate::bank::Bank;
use crate::lag::LagReport;
use crate::side::{BySide, Side};
use crate::time::{DurationMs, Millis};

/// Something that happened to a game's clock.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ClockEvent {
    /// Lateness (Art. 22.1–3): `amount` is deducted from `side`'s main time before the clock starts.
    LatenessDeducted {
        /// The late player.
        side: Side,
        /// Twice the late time, by the rules.
        amount: DurationMs,
    },
    /// Art. 22.4: in a fast game with no basic time, the absent player's byo-yomi ran for `amount` before
    /// they arrived: it is charged as thinking time (whole periods used up, the rest off the current one)
    /// before the clock starts. If it uses up the last period, the player has lost by lateness.
    LatenessRan {
        /// The late player.
        side: Side,
        /// How late they were.
        amount: DurationMs,
    },
    /// The clock of the first player to move starts.
    Started {
        /// Server time.
        at: Millis,
    },
    /// `side` completed a move (a stone or a pass) and the opponent's clock starts.
    Moved {
        /// The player who moved.
        side: Side,
        /// Server time the move was received.
        at: Millis,
        /// What the client reported, to claim lag compensation.
        report: Option<LagReport>,
    },
    /// The referee or the schedule pauses the game (Art. 14); pause time is not charged.
    Paused {
        /// Server time.
        at: Millis,
        /// Who paused it.
        by: Referee,
    },
    /// Play resumes after a pause or an adjournment. After an adjournment the sealed move is revealed and
    /// played (or, if its point is occupied, the sealer forfeits a turn): either way the sealer's opponent is
    /// to move and that clock starts.
    Resumed {
        /// Server time.
        at: Millis,
        /// Who resumed it.
        by: Referee,
    },
    /// Adjournment: `side`, to move, has sealed a move. The time used to seal is charged as a move and the
    /// clock stops until [`ClockEvent::Resumed`]. The sealed move's content is kept by the game service.
    Sealed {
        /// The sealer (the player to move).
        side: Side,
        /// Server time the sealed move was handed in.
        at: Millis,
        /// What the client reported, to claim lag compensation.
        report: Option<LagReport>,
    },
    /// A referee sets one or both sides' time (Art. 22.8–9).
    Corrected {
        /// Server time; the corrected side's current turn restarts from here.
        at: Millis,
        /// The new bank for each corrected side.
        set: BySide<Option<Bank>>,
        /// Why.
        reason: CorrectionReason,
        /// Who.
        by: Referee,
    },
    /// `side` asks that, if it overruns its last byo-yomi period, the overrun count as a pass (Art. 22.5).
    /// Only where the event allows it ([`crate::OverrunRule::PassOnRequest`]).
    PassOnOverrunRequested {
        /// The player asking.
        side: Side,
    },
    /// `side`'s time ran out, recorded at `at` (at or after the deadline).
    TimeExpired {
        /// The player out of time.
        side: Side,
        /// Server time it was recorded.
        at: Millis,
        /// Loss, or a pass under Art. 22.5; must be what the clock computes.
        outcome: ExpiryOutcome,
    },
    /// The game ended for another reason (resignation, count, referee's decision): the clock stops.
    Stopped {
        /// Server time.
        at: Millis,
    },
}

impl ClockEvent {
    /// The server time of the event, if it has one.
    #[must_use]
    pub fn at(&self) -> Option<Millis> {
        match self {
            ClockEvent::LatenessDeducted { .. }
            | ClockEvent::LatenessRan { .. }
            | ClockEvent::PassOnOverrunRequested { .. } => None,
            ClockEvent::Started { at }
            | ClockEvent::Moved { at, .. }
            | ClockEvent::Paused { at, .. }
            | ClockEvent::Resumed { at, .. }
            | ClockEvent::Sealed { at, .. }
            | ClockEvent::Corrected { at, .. }
            | ClockEvent::TimeExpired { at, .. }
            | ClockEvent::Stopped { at } => Some(*at),
        }
    }
}

/// A referee's identity, recorded with every referee action.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Referee {
    /// Account or badge id.
    pub id: String,
    /// Their authority.
    pub role: RefereeRole,
}

/// A referee's authority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RefereeRole {
    /// A table referee.
    Referee,
    /// The chief referee (裁判长): needed for a one-sided time correction (Art. 22.8).
    Chief,
    /// The event's schedule (a scheduled pause or resumption), acting for the organiser.
    Schedule,
}

impl Referee {
    /// A table referee.
    #[must_use]
    pub fn table(id: impl Into<String>) -> Referee {
        Referee { id: id.into(), role: RefereeRole::Referee }
    }

    /// The chief referee.
    #[must_use]
    pub fn chief(id: impl Into<String>) -> Referee {
        Referee { id: id.into(), role: RefereeRole::Chief }
    }
}

/// Why a referee corrected the clock.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CorrectionReason {
    /// Art. 22.8: the clock was faulty; the time used was prorated to the true total.
    Malfunction {
        /// The main time each side had used by the faulty clock.
        shown_used: BySide<DurationMs>,
        /// The true total of time both sides used.
        true_total: DurationMs,
    },
    /// Art. 22.9: the time used before a pause was not recorded; it is split evenly.
    NoRecord {
        /// The true total of time both sides used.
        true_total: DurationMs,
    },
    /// Any other ruling, with the referee's note.
    Ruling {
        /// The note.
        note: String,
    },
}

/// What an expired clock means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ExpiryOutcome {
    /// The player loses on time.
    Loss,
    /// Art. 22.5: the overrun counts as a pass; the player keeps the last period and play goes on.
    Pass,
}

/// A flag: who is out of time, when, and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Expiry {
    /// The player out of time.
    pub side: Side,
    /// The instant the flag fell (the deadline).
    pub deadline: Millis,
    /// Loss or pass.
    pub outcome: ExpiryOutcome,
}
