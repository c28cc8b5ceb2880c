//! Why a move is illegal.

use crate::point::Point;

/// The reason the rules refuse a move. Exhaustive: every refusal the engine makes is one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Illegal {
    /// The point already holds a stone.
    #[error("the point is occupied")]
    Occupied,
    /// The move would leave its own chain without liberties and capture nothing (Art. 5).
    #[error("suicide: the move would leave its own chain without liberties")]
    Suicide,
    /// The immediate recapture of a ko (Art. 6, 20; Art. 18.3).
    #[error("ko: the stone cannot be retaken at once")]
    Ko,
    /// The move would repeat an earlier whole-board position (superko).
    #[error("superko: the move would repeat an earlier whole-board position")]
    Superko,
    /// The point is not on the board.
    #[error("the point is off the board")]
    OffBoard,
    /// Play has ended.
    #[error("the game is over")]
    GameOver,
}

impl Illegal {
    /// A short, stable, machine-readable name (used in events, metrics and status details).
    pub const fn code(self) -> &'static str {
        match self {
            Illegal::Occupied => "occupied",
            Illegal::Suicide => "suicide",
            Illegal::Ko => "ko",
            Illegal::Superko => "superko",
            Illegal::OffBoard => "off_board",
            Illegal::GameOver => "game_over",
        }
    }
}

/// An illegal move together with where it was tried, for error messages about records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{point:?}: {reason}")]
pub struct IllegalAt {
    /// The point tried.
    pub point: Point,
    /// Why it was refused.
    pub reason: Illegal,
}
