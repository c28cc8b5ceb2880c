//! Identifiers and the time newtype used throughout the tournament core.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A registered player, unique within one tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PlayerId(pub u32);

/// A registered team, unique within one tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TeamId(pub u32);

/// Milliseconds since the Unix epoch (server time, passed in; never read from a clock here): the
/// platform's one time type.
pub use weiqi_time::Millis;

/// One game of a round: `round` is 1-based, `table` is 1-based within the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct GameRef {
    /// The round, from 1.
    pub round: u32,
    /// The table (board number of the round), from 1.
    pub table: u32,
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0)
    }
}

impl fmt::Display for TeamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "T{}", self.0)
    }
}

impl fmt::Display for GameRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "R{}T{}", self.round, self.table)
    }
}

/// The two colors of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Color {
    /// Black moves first.
    Black,
    /// White moves second (and receives komi).
    White,
}

impl Color {
    /// The other color.
    pub fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}
