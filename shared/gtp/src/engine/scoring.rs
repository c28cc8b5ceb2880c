//! Counting: `final_score` and `final_status_list`.
//!
//! The engine does not judge life and death: with no dead stones marked, every stone on the board
//! counts as alive. `final_score` counts the position as it stands under the configured rules
//! (komi, handicap compensation included); `final_status_list alive` lists every chain,
//! `dead` and `seki` list nothing.

use weiqi_rules::{Color, Point, score};

use super::{Engine, Outcome};
use crate::args;
use crate::command::Command;
use crate::error::CommandError;

/// `final_score`: the result as `B+3.5`, `W+0.5`, or `0` for a draw.
pub(super) fn final_score(engine: &mut Engine, _: &Command) -> Outcome {
    let count = score(&engine.game, &[], [0, 0]).expect("no dead stones are marked, so every mark is valid");
    Ok(match count.result.winner {
        None => "0".to_string(),
        Some(_) => count.result.to_sgf(),
    })
}

/// `final_status_list STATUS`: for `alive`, one chain per line (its stones in board order, chains
/// in the board order of their first stone); for `dead` and `seki`, nothing.
pub(super) fn final_status_list(engine: &mut Engine, command: &Command) -> Outcome {
    match command.arg(0).ok_or(CommandError::MissingStatus)? {
        "alive" => Ok(alive_chains(engine)),
        "dead" | "seki" => Ok(String::new()),
        _ => Err(CommandError::InvalidStatus),
    }
}

fn alive_chains(engine: &Engine) -> String {
    let board = engine.game.board();
    let size = engine.game.size();
    let mut seen = vec![false; size as usize * size as usize];
    let index = |p: Point| p.y as usize * size as usize + p.x as usize;
    let mut lines = Vec::new();
    for p in board.points() {
        if seen[index(p)] || !matches!(board.get(p), Some(Color::Black | Color::White)) {
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
