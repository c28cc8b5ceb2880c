//! Game records: `loadsgf` and `printsgf`.

use weiqi_rules::{Color, Move};
use weiqi_sgf::Record;

use super::{Engine, Outcome};
use crate::args;
use crate::command::Command;
use crate::error::CommandError;

/// Where `loadsgf` stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Until {
    /// The whole main line.
    End,
    /// Just before move number N (1-based, passes counted), as GNU Go's `loadsgf FILE N`.
    MoveNumber(usize),
    /// Just before the first move played on this vertex.
    Vertex(weiqi_rules::Point),
}

/// `loadsgf FILE [MOVE_NUMBER | VERTEX]`: reads the first game of an SGF file and replays its main
/// line under the engine's rules, with the record's board size and komi (the engine's komi if the
/// record has none). With a move number N it stops just before move N (so `loadsgf f 1` gives the
/// starting position); with a vertex, just before the first move there. Answers the color to move.
pub(super) fn loadsgf(engine: &mut Engine, command: &Command) -> Outcome {
    let file = command.arg(0).ok_or(CommandError::MissingFilename)?;
    let cannot = |reason: String| CommandError::CannotLoad { file: file.to_string(), reason };
    let bytes = std::fs::read(file).map_err(|e| cannot(e.to_string()))?;
    let collection = weiqi_sgf::parse(&bytes).map_err(|e| cannot(e.to_string()))?;
    let tree = collection.games.first().ok_or_else(|| cannot("no game in the file".to_string()))?;
    let mut record = Record::from_tree(tree).map_err(|e| cannot(e.to_string()))?;
    let until = match command.arg(1) {
        None => Until::End,
        Some(s) => match s.parse::<usize>() {
            Ok(n) if n >= 1 => Until::MoveNumber(n),
            Ok(_) => return Err(CommandError::InvalidUntil),
            Err(_) => match args::vertex(Some(s), record.size) {
                Some(Move::Play(p)) => Until::Vertex(p),
                _ => return Err(CommandError::InvalidUntil),
            },
        },
    };
    let next = truncate(&mut record, until);
    let komi = record.komi.unwrap_or(engine.ruleset.komi);
    let mut game = record.replay(engine.ruleset.with_komi(komi)).map_err(|e| cannot(e.to_string()))?;
    let to_move = match next {
        Some(color) => color,
        None if game.move_number() == 0 && record.setup.to_move.is_none() && record.handicap >= 2 => Color::White,
        None => game.to_move(),
    };
    if game.to_move() != to_move {
        game.set_to_move(to_move);
    }
    engine.ruleset.komi = komi;
    engine.game = game;
    Ok(to_move.to_string())
}

/// Cuts the record's main line where `until` says; returns the color of the first move cut off.
fn truncate(record: &mut Record, until: Until) -> Option<Color> {
    let mut number = 0;
    let cut = record.nodes.iter().position(|node| {
        let Some((_, mv)) = node.play else { return false };
        number += 1;
        match until {
            Until::End => false,
            Until::MoveNumber(n) => number == n,
            Until::Vertex(p) => mv == Move::Play(p),
        }
    })?;
    let color = record.nodes[cut].play.map(|(c, _)| c);
    record.nodes.truncate(cut);
    color
}

/// `printsgf [FILE]`: the game so far as SGF: in the response, or written to FILE (then the
/// response is empty).
pub(super) fn printsgf(engine: &mut Engine, command: &Command) -> Outcome {
    let sgf = weiqi_sgf::from_game(&engine.game, None, None, None);
    match command.arg(0) {
        None => Ok(sgf.trim_end().to_string()),
        Some(file) => {
            std::fs::write(file, sgf)
                .map_err(|e| CommandError::CannotWrite { file: file.to_string(), reason: e.to_string() })?;
            Ok(String::new())
        }
    }
}
