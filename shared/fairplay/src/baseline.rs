//! The baseline of a rank band and time control: each figure's mean and standard deviation over the
//! players of that band (from the platform's games and the imported archive). A player is compared
//! with their own band only: strong players agree with engines more, and that is no evidence.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::figures::{Figure, Figures};

/// One figure's spread over a band.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    /// Mean.
    pub mean: f64,
    /// Standard deviation (population).
    pub sd: f64,
    /// Players measured.
    pub n: u32,
}

/// The baseline of one rank band and time control.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// The rank band (`dan`, `sdk`, …).
    pub band: String,
    /// The time control (`blitz`, `rapid`, `slow`, …).
    pub time_control: String,
    /// Each measured figure's spread.
    pub stats: BTreeMap<Figure, Stat>,
}

impl Baseline {
    /// The baseline of `players` (their figures), counting for each figure only the players with at
    /// least `min_positions` counted moves for whom it was measured.
    #[must_use]
    pub fn of<'a>(
        band: &str,
        time_control: &str,
        players: impl IntoIterator<Item = &'a Figures> + Clone,
        min_positions: u32,
    ) -> Baseline {
        let mut stats = BTreeMap::new();
        for figure in Figure::ALL {
            let values: Vec<f64> = players
                .clone()
                .into_iter()
                .filter(|f| f.positions >= min_positions)
                .filter_map(|f| f.get(figure))
                .filter(|v| v.is_finite())
                .collect();
            if values.is_empty() {
                continue;
            }
            let n = values.len() as f64;
            let mean = values.iter().sum::<f64>() / n;
            let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
            stats.insert(figure, Stat { mean, sd, n: values.len() as u32 });
        }
        Baseline { band: band.to_owned(), time_control: time_control.to_owned(), stats }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_baseline_counts_only_players_with_enough_moves() {
        let player = |positions, top1| Figures { positions, top1, ..Figures::default() };
        let players = [player(50, 0.4), player(50, 0.6), player(3, 1.0)];
        let b = Baseline::of("dan", "rapid", &players, 40);
        let s = b.stats[&Figure::Top1];
        assert_eq!(s.n, 2);
        assert!((s.mean - 0.5).abs() < 1e-9 && (s.sd - 0.1).abs() < 1e-9, "{s:?}");
        assert!(!b.stats.contains_key(&Figure::TimeCv), "not measured for anyone");
    }
}
