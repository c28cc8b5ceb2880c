//! A player's figures over their analysed moves: how often they play the engine's first choice and
//! one of its first three, what they lose per move, how often they find the one good move in complex
//! positions, how evenly they spend their time, and how often the game's window lost focus during
//! their own turn.

use serde::{Deserialize, Serialize};

use crate::analysis::MoveAnalysis;
use crate::table::Settings;

/// What the game page recorded during one of the player's own turns (issue 34 item 3: sent by the
/// page as events on the game's log, never shown to the opponent). Unknown parts are `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// The move's number.
    pub move_number: u32,
    /// Seconds the player took.
    pub seconds: Option<f64>,
    /// Whether the window lost focus during the turn.
    pub blurred: Option<bool>,
}

/// A figure the rule table may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    /// Share of counted moves that were the engine's first choice.
    Top1,
    /// Share that were among its first three.
    Top3,
    /// Mean loss per counted move (the engine's unit).
    MeanLoss,
    /// Share of complex positions where the player found the first choice.
    ComplexTop1,
    /// Coefficient of variation of the time per move (low: mechanically even).
    TimeCv,
    /// Share of own turns during which the window lost focus.
    BlurShare,
}

impl Figure {
    /// Every figure.
    pub const ALL: [Figure; 6] =
        [Figure::Top1, Figure::Top3, Figure::MeanLoss, Figure::ComplexTop1, Figure::TimeCv, Figure::BlurShare];

    /// Its name in the rule table.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Figure::Top1 => "top1",
            Figure::Top3 => "top3",
            Figure::MeanLoss => "mean_loss",
            Figure::ComplexTop1 => "complex_top1",
            Figure::TimeCv => "time_cv",
            Figure::BlurShare => "blur_share",
        }
    }
}

/// A player's figures over some games (one game, or a window of them).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// Moves counted (from the table's `from_move`, with the engine's candidates).
    pub positions: u32,
    /// Share of them that were the engine's first choice.
    pub top1: f64,
    /// Share among its first three.
    pub top3: f64,
    /// Mean loss per counted move.
    pub mean_loss: f64,
    /// Complex positions among them.
    pub complex_positions: u32,
    /// Share of complex positions where the player found the first choice (`None`: none).
    pub complex_top1: Option<f64>,
    /// Coefficient of variation of the seconds per move (`None`: fewer than 5 timed moves).
    pub time_cv: Option<f64>,
    /// Share of turns with a lost focus (`None`: the page recorded none).
    pub blur_share: Option<f64>,
}

impl Figures {
    /// A figure's value (`None`: not measured).
    #[must_use]
    pub fn get(&self, figure: Figure) -> Option<f64> {
        let counted = |v: f64| (self.positions > 0).then_some(v);
        match figure {
            Figure::Top1 => counted(self.top1),
            Figure::Top3 => counted(self.top3),
            Figure::MeanLoss => counted(self.mean_loss),
            Figure::ComplexTop1 => self.complex_top1,
            Figure::TimeCv => self.time_cv,
            Figure::BlurShare => self.blur_share,
        }
    }
}

/// The figures of one player's `moves` (their own moves only) and `turns`, under `settings`: moves
/// before `from_move` and moves the engine had no candidates for are not counted.
#[must_use]
pub fn figures<'a>(moves: impl IntoIterator<Item = &'a MoveAnalysis>, turns: &[Turn], settings: &Settings) -> Figures {
    let (mut n, mut top1, mut top3, mut loss, mut complex, mut complex_top1) = (0u32, 0u32, 0u32, 0.0, 0u32, 0u32);
    for m in moves.into_iter().filter(|m| m.move_number >= settings.from_move) {
        let Some(l) = m.loss() else { continue };
        n += 1;
        loss += l;
        let rank = m.played_rank();
        top1 += u32::from(rank == Some(1));
        top3 += u32::from(rank.is_some_and(|r| r <= 3));
        if m.candidates.len() >= 2 && m.gap().is_some_and(|g| g >= settings.complex_gap) {
            complex += 1;
            complex_top1 += u32::from(rank == Some(1));
        }
    }
    let share = |k: u32, of: u32| if of == 0 { 0.0 } else { f64::from(k) / f64::from(of) };
    let counted: Vec<&Turn> = turns.iter().filter(|t| t.move_number >= settings.from_move).collect();
    let seconds: Vec<f64> = counted.iter().filter_map(|t| t.seconds).filter(|s| s.is_finite() && *s >= 0.0).collect();
    let time_cv = (seconds.len() >= 5).then(|| {
        let mean = seconds.iter().sum::<f64>() / seconds.len() as f64;
        let var = seconds.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / seconds.len() as f64;
        if mean > 0.0 { var.sqrt() / mean } else { 0.0 }
    });
    let focus: Vec<bool> = counted.iter().filter_map(|t| t.blurred).collect();
    let blurred = focus.iter().filter(|b| **b).count() as f64;
    Figures {
        positions: n,
        top1: share(top1, n),
        top3: share(top3, n),
        mean_loss: if n == 0 { 0.0 } else { loss / f64::from(n) },
        complex_positions: complex,
        complex_top1: (complex > 0).then(|| share(complex_top1, complex)),
        time_cv,
        blur_share: (!focus.is_empty()).then(|| blurred / focus.len() as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Candidate;

    fn at(n: u32, played: &str) -> MoveAnalysis {
        // A4 is worth 10, B4 9.5, C4 2 (so the position is complex: the best stands 8 above the third).
        let candidates = [("A4", 10.0), ("B4", 9.5), ("C4", 2.0)]
            .into_iter()
            .map(|(v, value)| Candidate { vertex: v.into(), value })
            .collect();
        MoveAnalysis { move_number: n, black: true, played: played.into(), candidates }
    }

    #[test]
    fn given_fixed_analyses_when_counted_then_the_shares_and_the_loss_follow() {
        let settings = Settings { from_move: 30, min_positions: 1, complex_gap: 3.0 };
        // Move 10 is opening theory and is not counted.
        let moves = [at(10, "C4"), at(31, "A4"), at(33, "B4"), at(35, "C4"), at(37, "Z9")];
        let f = figures(&moves, &[], &settings);
        assert_eq!(f.positions, 4);
        assert!((f.top1 - 0.25).abs() < 1e-9);
        assert!((f.top3 - 0.75).abs() < 1e-9);
        // Losses 0, 0.5, 8, and 8 (not listed: at least the last listed).
        assert!((f.mean_loss - 16.5 / 4.0).abs() < 1e-9);
        assert_eq!((f.complex_positions, f.complex_top1), (4, Some(0.25)));
        assert_eq!((f.time_cv, f.blur_share), (None, None));
    }

    #[test]
    fn even_timing_and_lost_focus_are_measured_on_the_counted_turns() {
        let settings = Settings { from_move: 30, min_positions: 1, complex_gap: 3.0 };
        let even: Vec<Turn> =
            (30..40).map(|n| Turn { move_number: n, seconds: Some(5.0), blurred: Some(n % 2 == 0) }).collect();
        let f = figures(&[], &even, &settings);
        assert_eq!(f.time_cv, Some(0.0));
        assert_eq!(f.blur_share, Some(0.5));
        let uneven: Vec<Turn> = [1.0, 30.0, 2.0, 60.0, 3.0, 5.0]
            .iter()
            .enumerate()
            .map(|(i, s)| Turn { move_number: 30 + i as u32, seconds: Some(*s), blurred: None })
            .collect();
        assert!(figures(&[], &uneven, &settings).time_cv.unwrap() > 1.0);
        assert_eq!(Figures::default().get(Figure::Top1), None, "nothing counted, nothing measured");
    }
}
