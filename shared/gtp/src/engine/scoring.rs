//! Counting: `final_score` and `final_status_list`, judged by the estimator.
//!
//! Both ask [`weiqi_estimate::estimate`] which stones are dead or in seki in the position as it
//! stands (with the side to move and the configured rules), then count with the dead stones removed
//! under the configured rules (komi and handicap compensation included).

use weiqi_estimate::{Estimate, Status, estimate};
use weiqi_rules::{Point, score};

use super::{Engine, Outcome};
use crate::args;
use crate::command::Command;
use crate::error::CommandError;

fn judge(engine: &Engine) -> Estimate {
    let game = &engine.game;
    estimate(game.board(), game.to_move(), game.ruleset())
}

/// `final_score`: the result as `B+3.5`, `W+0.5`, or `0` for a draw, with the estimated dead stones
/// removed.
pub(super) fn final_score(engine: &mut Engine, _: &Command) -> Outcome {
    let dead = judge(engine).dead_stones();
    let count = score(&engine.game, &dead, [0, 0]).expect("the estimator marks only stones dead");
    Ok(match count.result.winner {
        None => "0".to_string(),
        Some(_) => count.result.to_sgf(),
    })
}

/// `final_status_list STATUS` (`alive`, `dead` or `seki`): the chains the estimator gives that status,
/// one per line, each chain's stones in board order, chains in the board order of their first stone.
pub(super) fn final_status_list(engine: &mut Engine, command: &Command) -> Outcome {
    let wanted = match command.arg(0).ok_or(CommandError::MissingStatus)? {
        "alive" => Status::Alive,
        "dead" => Status::Dead,
        "seki" => Status::Seki,
        _ => return Err(CommandError::InvalidStatus),
    };
    let e = judge(engine);
    Ok(chains_with(engine, &e, wanted))
}

fn chains_with(engine: &Engine, e: &Estimate, wanted: Status) -> String {
    let board = engine.game.board();
    let size = engine.game.size();
    let mut seen = vec![false; size as usize * size as usize];
    let index = |p: Point| p.y as usize * size as usize + p.x as usize;
    let mut lines = Vec::new();
    for p in board.points() {
        if seen[index(p)] || e.status(p) != Some(wanted) {
            continue;
        }
        let chain = board.chain(p);
        for &s in &chain {
            seen[index(s)] = true;
        }
        lines.push(args::point_list(chain, size));
    }
    lines.join("\n")
}
