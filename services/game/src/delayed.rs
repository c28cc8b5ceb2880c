//! A spectator's follower of a game's log under the game's delay (issue 34 item 1): events in, the
//! events a spectator may see now out, in order. The rule is the domain's
//! ([`crate::domain::broadcast`]); this holds what waits. The web's spectator feed and gRPC `Watch`
//! both follow a delayed game through it, and the pages that render once (the game page, `/watch`,
//! the overlay, a live game's SGF) fold [`visible_prefix`] of its log.

use std::collections::VecDeque;

use crate::domain::broadcast::{Mark, SpectatorDelay, next_release, visible};
use crate::domain::{GameEvent, GameState};

/// The events of one game a spectator is following, the visible ones handed out.
#[derive(Debug)]
pub struct Delayed<T> {
    scratch: GameState,
    marks: Vec<Mark>,
    held: VecDeque<T>,
    shown: usize,
}

impl<T> Default for Delayed<T> {
    fn default() -> Delayed<T> {
        Delayed { scratch: GameState::default(), marks: Vec::new(), held: VecDeque::new(), shown: 0 }
    }
}

impl<T> Delayed<T> {
    /// Nothing followed yet.
    #[must_use]
    pub fn new() -> Delayed<T> {
        Delayed::default()
    }

    /// Takes the next event of the log (recorded at `at_ms`), and `item`, what to hand out when it is
    /// visible.
    ///
    /// # Errors
    /// The log does not fold (the reason).
    pub fn push(&mut self, event: &GameEvent, at_ms: i64, item: T) -> Result<(), String> {
        self.scratch.evolve(event).map_err(|e| e.to_string())?;
        self.marks.push(Mark::of(&self.scratch, at_ms));
        self.held.push_back(item);
        Ok(())
    }

    /// The game's delay for spectators (`None`: live).
    #[must_use]
    pub fn delay(&self) -> Option<SpectatorDelay> {
        self.scratch.setup.as_ref().and_then(|s| s.spectator_delay)
    }

    /// The items visible at `now_ms` not handed out yet, in log order.
    pub fn release(&mut self, now_ms: i64) -> Vec<T> {
        let n = visible(self.delay(), &self.marks, now_ms).saturating_sub(self.shown);
        self.shown += n;
        self.held.drain(..n.min(self.held.len())).collect()
    }

    /// When the first held item becomes visible by itself (ms), if it does.
    #[must_use]
    pub fn next_release(&self) -> Option<i64> {
        next_release(self.delay(), &self.marks, self.shown)
    }

    /// Items held back now.
    #[must_use]
    pub fn held(&self) -> usize {
        self.held.len()
    }
}

/// How many of a game's `events` (with their times, in log order) a spectator may see at `now_ms`.
///
/// # Errors
/// The log does not fold (the reason).
pub fn visible_prefix<'a>(
    events: impl IntoIterator<Item = (&'a GameEvent, i64)>,
    now_ms: i64,
) -> Result<usize, String> {
    let mut d = Delayed::new();
    for (event, at) in events {
        d.push(event, at, ())?;
    }
    Ok(d.release(now_ms).len())
}
