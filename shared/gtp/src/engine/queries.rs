//! Questions about the position: `showboard`, and the GNU Go extensions `is_legal`, `all_legal`,
//! `list_stones`, `captures` and `countlib`, answered exactly as GNU Go 3.8 answers them (same
//! values, same vertex order and case, same error messages). `tests/transcripts/gnugo.gtp` holds
//! GNU Go's own answers, and our engine must reproduce them.

use weiqi_rules::{Move, Point};

use super::{Engine, Outcome, showboard as draw};
use crate::args;
use crate::command::Command;
use crate::error::CommandError;

/// `showboard`: the board drawn in text, in GNU Go's layout.
pub(super) fn showboard(engine: &mut Engine, _: &Command) -> Outcome {
    Ok(draw::draw(&engine.game))
}

/// `is_legal COLOR VERTEX`: `1` if the move is legal now under the rules in force (ko, superko,
/// suicide), `0` if not. An occupied point is `0`; `pass` is always `1`.
pub(super) fn is_legal(engine: &mut Engine, command: &Command) -> Outcome {
    let size = engine.game.size();
    let color = args::color(command.arg(0)).ok_or(CommandError::InvalidMove)?;
    let mv = args::vertex(command.arg(1), size).ok_or(CommandError::InvalidMove)?;
    Ok(if engine.game.check(color, mv).is_ok() { "1" } else { "0" }.to_string())
}

/// `all_legal COLOR`: every point where the move is legal, in board order (never `pass`).
pub(super) fn all_legal(engine: &mut Engine, command: &Command) -> Outcome {
    let color = args::color(command.arg(0)).ok_or(CommandError::InvalidColor)?;
    Ok(args::point_list(engine.game.legal_points(color), engine.game.size()))
}

/// `list_stones COLOR`: the stones of one color, in board order.
pub(super) fn list_stones(engine: &mut Engine, command: &Command) -> Outcome {
    let color = args::color(command.arg(0)).ok_or(CommandError::InvalidColor)?;
    let board = engine.game.board();
    let stones: Vec<Point> = board.points().filter(|&p| board.get(p) == Some(color)).collect();
    Ok(args::point_list(stones, engine.game.size()))
}

/// `captures COLOR`: how many stones COLOR has captured (the opponent's suicides included, as GNU Go
/// counts them).
pub(super) fn captures(engine: &mut Engine, command: &Command) -> Outcome {
    let color = args::color(command.arg(0)).ok_or(CommandError::InvalidColor)?;
    Ok(engine.game.prisoners(color).to_string())
}

/// `countlib VERTEX`: the number of liberties of the chain on VERTEX.
pub(super) fn countlib(engine: &mut Engine, command: &Command) -> Outcome {
    let size = engine.game.size();
    let Some(Move::Play(p)) = args::vertex(command.arg(0), size) else {
        return Err(CommandError::InvalidCoordinate);
    };
    let liberties = engine.game.board().liberties(p).ok_or(CommandError::EmptyVertex)?;
    Ok(liberties.to_string())
}
