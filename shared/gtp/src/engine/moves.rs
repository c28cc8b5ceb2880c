//! Moves: `play`, `genmove` (the random load-test bot) and `undo`.

use weiqi_rules::Action;

use super::{Engine, Outcome};
use crate::args;
use crate::command::Command;
use crate::error::CommandError;

/// `play COLOR VERTEX`: plays a stone or a pass for either color (GTP does not force turns).
pub(super) fn play(engine: &mut Engine, command: &Command) -> Outcome {
    let size = engine.game.size();
    let color = args::color(command.arg(0)).ok_or(CommandError::InvalidMove)?;
    let mv = args::vertex(command.arg(1), size).ok_or(CommandError::InvalidMove)?;
    engine.game.play(color, mv).map_err(CommandError::IllegalMove)?;
    Ok(String::new())
}

/// `genmove COLOR`: plays and answers a uniformly random legal move for `COLOR` that does not fill
/// one of its own single-point eyes, or `pass` when no such move is left. The choice comes from the
/// engine's seeded generator, so a session replays identically from the same seed.
pub(super) fn genmove(engine: &mut Engine, command: &Command) -> Outcome {
    let color = args::color(command.arg(0)).ok_or(CommandError::InvalidColor)?;
    let rng = &mut engine.rng;
    let mv = engine.game.random_move(color, |n| rng.below(n));
    engine.game.play(color, mv).map_err(CommandError::IllegalMove)?;
    Ok(mv.to_gtp(engine.game.size()))
}

/// `undo`: takes back the last move or pass. Handicap stones and positions loaded from SGF setup
/// are not moves and cannot be undone.
pub(super) fn undo(engine: &mut Engine, _: &Command) -> Outcome {
    match engine.game.actions().last() {
        Some(Action::Play(..) | Action::Pass(_) | Action::ForfeitTurn(_)) => {
            engine.game.undo();
            Ok(String::new())
        }
        _ => Err(CommandError::CannotUndo),
    }
}
