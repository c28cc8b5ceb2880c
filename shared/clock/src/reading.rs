//! What a clock shows at an instant: for each side, main time, current period, periods and moves left;
//! the deadline of the player to move.

use crate::bank::Bank;
use crate::clock::Phase;
use crate::side::{BySide, Side};
use crate::time::{DurationMs, Millis};

/// The clock at one instant, computed only from the events' server timestamps and that instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reading {
    /// The instant read.
    pub at: Millis,
    /// Running, paused, adjourned, over …
    pub phase: Phase,
    /// Whose turn it is (whose clock runs while running).
    pub to_move: Side,
    /// When the player to move flags if nothing happens (lag grace included); `None` unless running with a
    /// clock.
    pub deadline: Option<Millis>,
    /// Each side's time.
    pub sides: BySide<SideReading>,
}

/// One side's time at an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SideReading {
    /// The bank at this instant (the running side's current turn charged up to the instant): main time left,
    /// current period number (0 in main time), time left in the period, moves left in the period.
    pub bank: Bank,
    /// Byo-yomi periods left, the current one included (zero without byo-yomi).
    pub periods_left: u32,
    /// Thinking time left before the flag, grace excluded; `None` with no clock.
    pub available: Option<DurationMs>,
    /// The lag-compensation quota banked.
    pub lag_quota: DurationMs,
    /// True if this side's flag has fallen.
    pub flagged: bool,
}

impl Reading {
    /// One side's time.
    #[must_use]
    pub fn side(&self, side: Side) -> &SideReading {
        &self.sides[side]
    }
}
