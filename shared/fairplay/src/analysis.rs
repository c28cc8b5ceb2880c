//! One analysed position: the engine's candidates, best first, with their values for the side to
//! move, and the move the player chose. Read from an engine's answer (GNU Go's `top_moves_black`).

use serde::{Deserialize, Serialize};

/// A move the engine ranks, with its value for the side to move (higher is better; the engine's
/// unit, points for GNU Go).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The move as GTP writes it (`D16`, `pass`), upper case.
    pub vertex: String,
    /// Its value.
    pub value: f64,
}

/// The engine's view of one position, and the move played in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveAnalysis {
    /// The move's number in the game (1 = the first move).
    pub move_number: u32,
    /// Whether Black played it.
    pub black: bool,
    /// The move played, as GTP writes it.
    pub played: String,
    /// The engine's candidates, best first (empty: the engine had none, e.g. only a pass).
    pub candidates: Vec<Candidate>,
}

impl MoveAnalysis {
    /// The played move's rank among the candidates (1 = the engine's first choice); `None` when the
    /// engine did not list it.
    #[must_use]
    pub fn played_rank(&self) -> Option<usize> {
        self.candidates.iter().position(|c| c.vertex.eq_ignore_ascii_case(&self.played)).map(|i| i + 1)
    }

    /// What the played move loses against the engine's best (never negative). A move the engine did
    /// not list loses at least as much as its last listed one: that bound is answered. `None`
    /// without candidates.
    #[must_use]
    pub fn loss(&self) -> Option<f64> {
        let best = self.candidates.first()?.value;
        let played = match self.played_rank() {
            Some(r) => self.candidates[r - 1].value,
            None => self.candidates.last()?.value,
        };
        Some((best - played).max(0.0))
    }

    /// How far the best move stands above the third (or the last, with fewer): large when only one
    /// move is good (a "complex" position, where finding it says most).
    #[must_use]
    pub fn gap(&self) -> Option<f64> {
        let best = self.candidates.first()?.value;
        let third = self.candidates.get(2).or(self.candidates.last())?.value;
        Some(best - third)
    }
}

/// Why an engine's answer did not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A vertex without its value, or a value that is no number.
    #[error("expected `VERTEX VALUE` pairs, found {0:?}")]
    BadPair(String),
}

/// Reads GNU Go's `top_moves_black` / `top_moves_white` answer (`D16 75.01 O17 74.04 …`, without the
/// `= `): candidates best first (GNU Go lists them so; they are sorted again by value, stable).
///
/// # Errors
/// [`ParseError::BadPair`] for an odd token count or a value that is not a finite number.
pub fn parse_top_moves(answer: &str) -> Result<Vec<Candidate>, ParseError> {
    let tokens: Vec<&str> = answer.split_whitespace().collect();
    let mut out = Vec::with_capacity(tokens.len() / 2);
    for pair in tokens.chunks(2) {
        let [vertex, value] = pair else { return Err(ParseError::BadPair(pair.join(" "))) };
        let value: f64 = value.parse().map_err(|_| ParseError::BadPair(pair.join(" ")))?;
        if !value.is_finite() || vertex.is_empty() || vertex.len() > 4 {
            return Err(ParseError::BadPair(pair.join(" ")));
        }
        out.push(Candidate { vertex: vertex.to_ascii_uppercase(), value });
    }
    out.sort_by(|a, b| b.value.total_cmp(&a.value));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysed(played: &str, answer: &str) -> MoveAnalysis {
        MoveAnalysis {
            move_number: 40,
            black: true,
            played: played.into(),
            candidates: parse_top_moves(answer).unwrap(),
        }
    }

    #[test]
    fn gnu_gos_answer_reads_and_the_played_move_is_ranked_with_its_loss() {
        let answer = "D16 75.01 O17 74.04 O3 74.04 R6 74.03";
        let table = [
            // played, rank, loss
            ("D16", Some(1), 0.0),
            ("o17", Some(2), 75.01 - 74.04),
            ("R6", Some(4), 75.01 - 74.03),
            // Not listed: at least the last listed move's loss.
            ("A1", None, 75.01 - 74.03),
        ];
        for (played, rank, loss) in table {
            let a = analysed(played, answer);
            assert_eq!(a.played_rank(), rank, "{played}");
            assert!((a.loss().unwrap() - loss).abs() < 1e-9, "{played}: {:?}", a.loss());
        }
        assert!((analysed("D16", answer).gap().unwrap() - (75.01 - 74.04)).abs() < 1e-9);
        assert_eq!(analysed("D16", "").loss(), None);
    }

    #[test]
    fn malformed_answers_are_refused() {
        for bad in ["D16", "D16 x", "D16 NaN", "D16 inf"] {
            assert!(parse_top_moves(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_top_moves("  ").unwrap(), vec![]);
    }
}
