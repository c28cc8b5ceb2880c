//! Why the clock refuses an event or a command.

use crate::bank::BankError;
use crate::event::ExpiryOutcome;
use crate::side::Side;
use crate::time::{DurationMs, Millis};
use crate::time_control::ControlError;

/// Why an event cannot be applied or a command cannot be decided. Every variant is something a caller can
/// act on; nothing here is a bug report.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// The time control is invalid.
    #[error("invalid time control: {0}")]
    Control(#[from] ControlError),
    /// The event is timestamped before the previous one.
    #[error("event at {at} comes before the previous event at {last}")]
    OutOfOrder {
        /// The event's time.
        at: Millis,
        /// The previous event's time.
        last: Millis,
    },
    /// The clock has not started yet.
    #[error("the clock has not started")]
    NotStarted,
    /// The clock has already started (start twice, or a lateness deduction after the start).
    #[error("the clock has already started")]
    AlreadyStarted,
    /// The clock is paused or adjourned, so no one can move or be paused.
    #[error("the clock is stopped (paused or adjourned)")]
    NotRunning,
    /// Resume without a pause or adjournment.
    #[error("the clock is not paused or adjourned")]
    NotPaused,
    /// The game's clock is over (expired or stopped).
    #[error("the clock has stopped for good")]
    GameOver,
    /// It is the other side's turn.
    #[error("{side} cannot move: it is {to_move}'s turn")]
    NotYourTurn {
        /// Who tried.
        side: Side,
        /// Who is to move.
        to_move: Side,
    },
    /// The player to move acted at or after the deadline: they are out of time.
    #[error("{side} is out of time: the flag fell at {deadline}")]
    TimeExpired {
        /// The player out of time.
        side: Side,
        /// When the flag fell.
        deadline: Millis,
    },
    /// A time expiry was claimed before the deadline (or for the wrong side, or with no clock).
    #[error("{side}'s time has not expired (deadline {deadline:?})")]
    NotExpired {
        /// The side claimed out of time.
        side: Side,
        /// The actual deadline, if any.
        deadline: Option<Millis>,
    },
    /// A recorded expiry outcome differs from what the clock computes.
    #[error("expiry outcome {recorded:?} differs from the clock's {computed:?}")]
    OutcomeMismatch {
        /// The outcome in the event.
        recorded: ExpiryOutcome,
        /// The outcome the clock computes.
        computed: ExpiryOutcome,
    },
    /// A one-sided correction by someone other than the chief referee (Art. 22.8).
    #[error("a one-sided time correction needs the chief referee")]
    ChiefRefereeRequired,
    /// A correction that sets nothing.
    #[error("the correction sets no time")]
    EmptyCorrection,
    /// A corrected bank does not fit the time control.
    #[error("{side}'s corrected time does not fit the time control: {error}")]
    InvalidBank {
        /// The side.
        side: Side,
        /// What is wrong.
        error: BankError,
    },
    /// A negative duration in an event or command.
    #[error("negative duration {0}")]
    NegativeDuration(DurationMs),
    /// A lateness deduction that leaves an absolute or Fischer player no time (the lateness ruling is then
    /// a forfeit, not a deduction).
    #[error("deducting {amount} leaves {side} no time")]
    DeductionExhaustsTime {
        /// The late player.
        side: Side,
        /// The deduction.
        amount: DurationMs,
    },
    /// Art. 22.5 pass-on-overrun asked for where the event does not allow it.
    #[error("this event does not let an overrun count as a pass")]
    OverrunPassNotAllowed,
    /// A proration of main time for a side already in overtime.
    #[error("{side} is no longer in main time; prorate main time only")]
    NotInMainTime {
        /// The side.
        side: Side,
    },
}
