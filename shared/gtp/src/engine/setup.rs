//! Setting up a game: `boardsize`, `clear_board`, `komi`.

use weiqi_rules::{Komi, MAX_SIZE, MIN_SIZE};

use super::{Engine, Outcome};
use crate::command::Command;
use crate::error::CommandError;

/// `boardsize N`: a new empty board of N×N (2 to 25). Komi is kept.
pub(super) fn boardsize(engine: &mut Engine, command: &Command) -> Outcome {
    let size: i64 = command.arg(0).and_then(|s| s.parse().ok()).ok_or(CommandError::BoardsizeNotInteger)?;
    if size < MIN_SIZE as i64 || size > MAX_SIZE as i64 {
        return Err(CommandError::UnacceptableSize);
    }
    engine.new_game(size as u8)?;
    Ok(String::new())
}

/// `clear_board`: an empty board of the same size; captures and history are reset, komi is kept.
pub(super) fn clear_board(engine: &mut Engine, _: &Command) -> Outcome {
    engine.new_game(engine.game.size())?;
    Ok(String::new())
}

/// `komi K`: the komi of this game and the next ones, in points (a multiple of 0.5).
pub(super) fn komi(engine: &mut Engine, command: &Command) -> Outcome {
    let points: f64 = command.arg(0).and_then(|s| s.parse().ok()).ok_or(CommandError::KomiNotFloat)?;
    let komi = Komi::from_points(points).ok_or(CommandError::KomiNotHalfPoints)?;
    engine.ruleset.komi = komi;
    engine.game.set_komi(komi);
    Ok(String::new())
}
