//! The spectators' delay (issue 34 item 1): which prefix of a game's log a spectator may see now.
//!
//! A live public move list is a cheating channel: a friend watching the broadcast can feed a player
//! an engine's moves. An event therefore sets a delay for spectators, in minutes or in moves, that
//! every spectator channel honours (the game page, `/watch`, the overlay, the SGF of a live game, the
//! lobby's live list, gRPC `Watch`). Players of the game, its referees and staff see it live: who
//! sees what is [`crate::authority::sees_live`]; what a spectator sees is decided here, once.
//!
//! ```text
//!   log:      created  start  m1   m2   m3   m4   m5        (marks: time, moves so far, ended)
//!   Moves(2):   ✓       ✓     ✓    ✓    ✓    ·    ·         the last two moves wait
//!   Minutes(15): every event older than 15 minutes, and all before the first move
//!   ended:      ✓       ✓     ✓    ✓    ✓    ✓    ✓         a finished game is shown whole
//! ```
//!
//! Pure: the caller passes the time.

use super::state::{GameState, Phase};

/// How long spectators wait behind the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpectatorDelay {
    /// Each event is shown this many minutes after it happened.
    Minutes(u32),
    /// The latest this many moves are held back.
    Moves(u32),
}

impl SpectatorDelay {
    /// The delay of a rated event's games unless the event says otherwise.
    pub const RATED_EVENT_DEFAULT: SpectatorDelay = SpectatorDelay::Minutes(15);

    /// The longest delay an event may set: a day in minutes, or a whole game in moves.
    pub const MAX_MINUTES: u32 = 24 * 60;
    /// The most moves an event may hold back.
    pub const MAX_MOVES: u32 = 400;

    /// Whether it holds nothing back.
    #[must_use]
    pub fn is_live(self) -> bool {
        matches!(self, SpectatorDelay::Minutes(0) | SpectatorDelay::Moves(0))
    }

    /// Whether it is within the bounds an event may set.
    #[must_use]
    pub fn in_range(self) -> bool {
        match self {
            SpectatorDelay::Minutes(m) => m <= Self::MAX_MINUTES,
            SpectatorDelay::Moves(n) => n <= Self::MAX_MOVES,
        }
    }
}

/// What the delay reads of one event of the log, once folded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// When it was recorded (server time, ms).
    pub at_ms: i64,
    /// Moves played after it.
    pub moves: u32,
    /// Whether the game was over after it.
    pub ended: bool,
}

impl Mark {
    /// The mark of the event just folded into `state`, recorded at `at_ms`.
    #[must_use]
    pub fn of(state: &GameState, at_ms: i64) -> Mark {
        Mark { at_ms, moves: state.move_number, ended: state.phase == Phase::Ended }
    }
}

/// How many of a game's events (their `marks`, in log order) a spectator may see at `now_ms`: a
/// prefix. Everything without a delay, or once the game is over; the events before the first move
/// at once (the game exists, colors are known); then, under `Minutes(m)`, each event `m` minutes
/// after it happened, and under `Moves(n)`, all but the latest `n` moves.
#[must_use]
pub fn visible(delay: Option<SpectatorDelay>, marks: &[Mark], now_ms: i64) -> usize {
    let Some(delay) = delay.filter(|d| !d.is_live()) else { return marks.len() };
    if marks.last().is_some_and(|m| m.ended) {
        return marks.len();
    }
    match delay {
        SpectatorDelay::Minutes(m) => {
            let cutoff = now_ms.saturating_sub(i64::from(m) * 60_000);
            marks.iter().take_while(|k| k.moves == 0 || k.at_ms <= cutoff).count()
        }
        SpectatorDelay::Moves(n) => {
            let allowed = marks.last().map_or(0, |m| m.moves).saturating_sub(n);
            marks.iter().take_while(|k| k.moves <= allowed).count()
        }
    }
}

/// When the first hidden event (`marks[shown]`) becomes visible by itself (a minutes delay); `None`
/// when only a later move or the game's end can show it.
#[must_use]
pub fn next_release(delay: Option<SpectatorDelay>, marks: &[Mark], shown: usize) -> Option<i64> {
    match delay {
        Some(SpectatorDelay::Minutes(m)) if m > 0 => marks.get(shown).map(|k| k.at_ms + i64::from(m) * 60_000),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: i64 = 60_000;

    /// created, started, five moves one minute apart from minute 10.
    fn marks(ended: bool) -> Vec<Mark> {
        let mut m = vec![Mark { at_ms: 0, moves: 0, ended: false }, Mark { at_ms: 5 * MIN, moves: 0, ended: false }];
        m.extend((1..=5).map(|n| Mark { at_ms: (9 + i64::from(n)) * MIN, moves: n, ended: false }));
        if ended {
            m.push(Mark { at_ms: 15 * MIN, moves: 5, ended: true });
        }
        m
    }

    #[test]
    fn a_spectator_sees_the_prefix_the_delay_allows() {
        use SpectatorDelay::{Minutes, Moves};
        // delay, now (minutes), events visible (of 7: created, started, moves 1–5)
        let table = [
            (None, 15, 7),
            (Some(Minutes(0)), 15, 7),
            (Some(Moves(0)), 15, 7),
            (Some(Moves(2)), 15, 5),
            (Some(Moves(5)), 15, 2),
            (Some(Moves(9)), 15, 2),
            (Some(Minutes(15)), 0, 2),
            (Some(Minutes(15)), 24, 2),
            (Some(Minutes(15)), 25, 3),
            (Some(Minutes(15)), 27, 5),
            (Some(Minutes(15)), 90, 7),
        ];
        for (delay, now, shown) in table {
            assert_eq!(visible(delay, &marks(false), now * MIN), shown, "{delay:?} at minute {now}");
        }
        // Over: the whole game, whatever the delay.
        assert_eq!(visible(Some(Moves(3)), &marks(true), 15 * MIN), 8);
        assert_eq!(visible(Some(Minutes(15)), &marks(true), 16 * MIN), 8);
    }

    #[test]
    fn the_next_release_is_the_first_hidden_events_time_plus_the_delay() {
        let m = marks(false);
        assert_eq!(next_release(Some(SpectatorDelay::Minutes(15)), &m, 2), Some(25 * MIN));
        assert_eq!(next_release(Some(SpectatorDelay::Minutes(15)), &m, 7), None);
        assert_eq!(next_release(Some(SpectatorDelay::Moves(2)), &m, 5), None);
        assert!(SpectatorDelay::Minutes(24 * 60).in_range() && !SpectatorDelay::Moves(401).in_range());
    }
}
