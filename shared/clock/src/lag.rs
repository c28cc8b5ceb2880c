//! Bounded lag compensation: a per-player token bucket of time the server may credit back.
//!
//! Idea from lichess's scalachess (`LagTracker`): a client reports how much of the server-measured move
//! time was network lag (or its own measured thinking time). The server believes it only up to the player's
//! quota. The quota refills by a fixed amount after each of the player's moves and never exceeds a cap.
//! The same quota pays for a small grace on the flag: a move that arrives just after the nominal end of
//! time is still accepted if the quota covers the overrun, and the overrun is then taken from the quota.
//!
//! Bound: over any game, the total credited to a player is at most `start + gain_per_move × moves`, and a
//! single move is credited at most `cap`. A client that lies about its lag gains nothing more.

use crate::time::DurationMs;

/// The lag allowance of a time control (the numbers are documented in the crate doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LagConfig {
    /// Added to the quota after each of the player's moves.
    pub gain_per_move: DurationMs,
    /// The quota at the start of the game.
    pub start: DurationMs,
    /// The quota never exceeds this.
    pub cap: DurationMs,
    /// The flag falls at most this long after the nominal end of time (less if the quota is smaller).
    pub max_grace: DurationMs,
}

impl LagConfig {
    /// The default: 500 ms per move, 1.5 s at the start, at most 3.5 s banked, at most 1 s of flag grace.
    pub const STANDARD: LagConfig = LagConfig {
        gain_per_move: DurationMs::from_millis(500),
        start: DurationMs::from_millis(1_500),
        cap: DurationMs::from_millis(3_500),
        max_grace: DurationMs::from_millis(1_000),
    };

    /// No compensation and no grace: every millisecond the server measures is charged (over-the-board
    /// games transcribed by a referee, tests).
    pub const NONE: LagConfig = LagConfig {
        gain_per_move: DurationMs::ZERO,
        start: DurationMs::ZERO,
        cap: DurationMs::ZERO,
        max_grace: DurationMs::ZERO,
    };

    /// Checks that every figure is non-negative and that the start is within the cap.
    ///
    /// # Errors
    /// [`crate::ControlError::Lag`].
    pub fn validate(&self) -> Result<(), crate::ControlError> {
        let figures = [self.gain_per_move, self.start, self.cap, self.max_grace];
        if figures.iter().any(|d| d.is_negative()) || self.start > self.cap {
            Err(crate::ControlError::Lag)
        } else {
            Ok(())
        }
    }

    /// The flag grace a player with `quota` has: the quota, at most `max_grace`.
    #[must_use]
    pub fn grace(&self, quota: DurationMs) -> DurationMs {
        quota.min(self.max_grace).non_negative()
    }

    /// Credits a move: `claimed` is the lag the client reports, `needed` the least credit that keeps the move
    /// on time (non-zero only when the move landed in the grace window), `elapsed` the server-measured move
    /// time. Returns the credit and the quota after the move.
    ///
    /// The credit is `min(claimed, quota)`, raised to `needed` (which never exceeds the grace, hence the
    /// quota), and never more than `elapsed`: no move is charged less than zero.
    #[must_use]
    pub(crate) fn credit(
        &self,
        quota: DurationMs,
        claimed: DurationMs,
        needed: DurationMs,
        elapsed: DurationMs,
    ) -> (DurationMs, DurationMs) {
        let credit = claimed.non_negative().min(quota).max(needed).min(elapsed).min(quota).non_negative();
        let refilled = (quota - credit + self.gain_per_move).min(self.cap);
        (credit, refilled)
    }
}

impl Default for LagConfig {
    fn default() -> LagConfig {
        LagConfig::STANDARD
    }
}

/// What a client reports with its move, to claim lag compensation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LagReport {
    /// The client's estimate of the network and processing lag included in the server's measure.
    Lag(DurationMs),
    /// The thinking time the client measured itself; the lag claimed is the server's measure minus this.
    MoveTime(DurationMs),
}

impl LagReport {
    /// The lag this report claims for a move the server measured at `elapsed`, between zero and `elapsed`.
    #[must_use]
    pub fn claimed(self, elapsed: DurationMs) -> DurationMs {
        let lag = match self {
            LagReport::Lag(lag) => lag,
            LagReport::MoveTime(move_time) => elapsed - move_time.non_negative(),
        };
        lag.non_negative().min(elapsed.non_negative())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(i64) -> DurationMs = DurationMs::from_millis;

    #[test]
    fn a_claim_is_believed_up_to_the_quota_then_the_bucket_refills() {
        let lag = LagConfig::STANDARD;
        // Quota 1500: a 300 ms claim is believed in full; 1500 - 300 + 500 = 1700 left.
        assert_eq!(lag.credit(MS(1_500), MS(300), MS(0), MS(10_000)), (MS(300), MS(1_700)));
        // A 10 s lie is believed only up to the quota, which then refills from zero.
        assert_eq!(lag.credit(MS(1_500), MS(10_000), MS(0), MS(20_000)), (MS(1_500), MS(500)));
        // An honest player saturates at the cap.
        assert_eq!(lag.credit(MS(3_400), MS(0), MS(0), MS(5_000)), (MS(0), MS(3_500)));
    }

    #[test]
    fn a_move_is_never_charged_below_zero() {
        assert_eq!(LagConfig::STANDARD.credit(MS(1_500), MS(900), MS(0), MS(200)), (MS(200), MS(1_800)));
        assert_eq!(LagReport::Lag(MS(900)).claimed(MS(200)), MS(200));
        assert_eq!(LagReport::MoveTime(MS(-5)).claimed(MS(200)), MS(200));
        assert_eq!(LagReport::MoveTime(MS(150)).claimed(MS(200)), MS(50));
        assert_eq!(LagReport::MoveTime(MS(950)).claimed(MS(200)), MS(0));
    }

    #[test]
    fn a_move_in_the_grace_window_takes_what_it_needs_from_the_quota() {
        // The client claimed nothing but the move landed 400 ms into the grace window.
        assert_eq!(LagConfig::STANDARD.credit(MS(1_500), MS(0), MS(400), MS(30_400)), (MS(400), MS(1_600)));
    }

    #[test]
    fn grace_is_the_quota_up_to_the_maximum() {
        assert_eq!(LagConfig::STANDARD.grace(MS(300)), MS(300));
        assert_eq!(LagConfig::STANDARD.grace(MS(3_000)), MS(1_000));
        assert_eq!(LagConfig::NONE.grace(MS(3_000)), MS(0));
    }
}
