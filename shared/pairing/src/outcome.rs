//! Game results as the tournament sees them (Art. 13, 17.5, 22, 23).

use crate::ids::Color;
use serde::{Deserialize, Serialize};

/// What happened in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// The given color won.
    Win(Color),
    /// A draw (e.g. a triple ko ruled a draw).
    Draw,
    /// Both players lose (Art. 17.5, 22.3, 23.1): no points for either.
    BothLose,
    /// Annulled: the game counts for no one (e.g. results cancelled for cheating, Art. 23.1).
    Void,
}

/// Why a game ended the way it did (affects exports and some tie-breaks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResultReason {
    /// Played out: counting, resignation, time, warnings (how is not recorded).
    Played,
    /// Not played: a player did not appear within the limit (no-show) or was too late (Art. 22).
    Forfeit,
    /// A referee's ruling (Art. 17–24), including cheating.
    Referee,
    /// Played out and counted (as a referee enters it at the desk).
    Counted,
    /// Played out: a player resigned (as a referee enters it at the desk).
    Resignation,
    /// Played out: a player's time ran out (as a referee enters it at the desk).
    Time,
}

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    /// The outcome.
    pub outcome: Outcome,
    /// The reason.
    pub reason: ResultReason,
}

impl GameResult {
    /// A played game won by `color`.
    pub fn win(color: Color) -> GameResult {
        GameResult { outcome: Outcome::Win(color), reason: ResultReason::Played }
    }

    /// A played draw.
    pub fn draw() -> GameResult {
        GameResult { outcome: Outcome::Draw, reason: ResultReason::Played }
    }

    /// A forfeit won by `color`.
    pub fn forfeit(winner: Color) -> GameResult {
        GameResult { outcome: Outcome::Win(winner), reason: ResultReason::Forfeit }
    }

    /// Whether the game was actually played (not a forfeit or void).
    pub fn was_played(&self) -> bool {
        self.reason != ResultReason::Forfeit && self.outcome != Outcome::Void
    }
}

/// One side's view of a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlayerResult {
    /// Won.
    Win,
    /// Drew.
    Draw,
    /// Lost (including both-lose).
    Loss,
    /// Void game.
    Void,
}

impl Outcome {
    /// The result for the player holding `color`.
    pub fn for_color(self, color: Color) -> PlayerResult {
        match self {
            Outcome::Win(c) if c == color => PlayerResult::Win,
            Outcome::Win(_) | Outcome::BothLose => PlayerResult::Loss,
            Outcome::Draw => PlayerResult::Draw,
            Outcome::Void => PlayerResult::Void,
        }
    }
}
