//! Handicap commands: `fixed_handicap`, `place_free_handicap`, `set_free_handicap`.
//!
//! All three need an empty board and at least two stones; the stones become the starting position
//! (they cannot be undone) and White moves next. Komi is left as the controller set it.

use weiqi_rules::handicap::fixed_handicap as fixed_points;
use weiqi_rules::{Color, Point};

use super::{Engine, Outcome};
use crate::args;
use crate::command::Command;
use crate::error::CommandError;

/// `fixed_handicap N`: the standard star-point placement (2 to 9 stones on odd boards from 9×9,
/// 2 to 4 on other boards from 7×7), listed as GNU Go lists it.
pub(super) fn fixed_handicap(engine: &mut Engine, command: &Command) -> Outcome {
    if !engine.board_is_empty() {
        return Err(CommandError::BoardNotEmpty);
    }
    let stones = handicap_count(command)?;
    let size = engine.game.size();
    let points =
        u8::try_from(stones).ok().and_then(|n| fixed_points(size, n).ok()).ok_or(CommandError::InvalidHandicap)?;
    place(engine, &points)
}

/// `place_free_handicap N`: the engine chooses. It uses the fixed placement when one exists for N
/// stones on this board, and otherwise [`free_placement`], which may place fewer stones than asked
/// (GTP allows this) when the board is too small.
pub(super) fn place_free_handicap(engine: &mut Engine, command: &Command) -> Outcome {
    if !engine.board_is_empty() {
        return Err(CommandError::BoardNotEmpty);
    }
    let stones = handicap_count(command)?;
    let points = free_placement(engine.game.size(), stones);
    place(engine, &points)
}

/// `set_free_handicap V1 V2 ...`: the controller chooses. Every vertex must be a distinct point
/// of the board, at least two of them, fewer than the board holds.
pub(super) fn set_free_handicap(engine: &mut Engine, command: &Command) -> Outcome {
    if !engine.board_is_empty() {
        return Err(CommandError::BoardNotEmpty);
    }
    let size = engine.game.size();
    let mut points: Vec<Point> = Vec::with_capacity(command.args.len());
    for token in &command.args {
        let p = args::point(token, size).ok_or(CommandError::InvalidCoordinate)?;
        if points.contains(&p) {
            return Err(CommandError::RepeatedVertex);
        }
        points.push(p);
    }
    place(engine, &points).map(|_| String::new())
}

/// The handicap count argument; fewer than two stones is no handicap at all.
fn handicap_count(command: &Command) -> Result<usize, CommandError> {
    let n: i64 = command.arg(0).and_then(|s| s.parse().ok()).ok_or(CommandError::HandicapNotInteger)?;
    if n < 2 {
        return Err(CommandError::InvalidHandicap);
    }
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// Puts the stones on the board and lists them.
fn place(engine: &mut Engine, points: &[Point]) -> Outcome {
    engine.game.place_handicap(points).map_err(|_| CommandError::InvalidHandicap)?;
    debug_assert_eq!(engine.game.to_move(), Color::White);
    Ok(args::point_list(points.iter().copied(), engine.game.size()))
}

pub use weiqi_rules::handicap::free_placement;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_placement_is_fixed_where_possible() {
        assert_eq!(free_placement(19, 4), fixed_points(19, 4).unwrap());
    }
}
