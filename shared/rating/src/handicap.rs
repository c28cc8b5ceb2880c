//! Handicap and komi: how much a game's conditions favour Black, in ranks.
//!
//! # The model (documented choice)
//!
//! All three rating systems adjust the *expected result* of a game, never the result itself. The
//! adjustment is one number, the **effective handicap** `h` in ranks (positive: Black is favoured):
//!
//! ```text
//! h = max(stones − 1, 0) + (standard_komi − komi − compensation) / (2 · (standard_komi − 0.5))
//! ```
//!
//! * `stones` handicap stones give Black `stones − 1` extra moves compared with an even game without
//!   komi. (One "stone" traditionally means: Black moves first, no stone placed, no komi.)
//! * Komi is measured against the ruleset's standard komi (7.5 area, 6.5 territory). Dropping from the
//!   standard komi to the traditional handicap komi of 0.5 is worth **half a rank**, so one komi point
//!   is worth `1 / (2 · (standard_komi − 0.5))` of a rank: 1/14 under area scoring, 1/12 under
//!   territory scoring. Reverse komi and komi above standard fall out of the same line.
//! * `compensation` is the points White receives back for handicap stones under the ruleset
//!   (Chinese rules return half a stone per handicap stone, `stones` points in area counting); the
//!   caller supplies it from the ruleset, so the rating core knows no rules.
//!
//! With the traditional 0.5 komi this gives `h = stones − 0.5` for `stones ≥ 1`: exactly the EGF
//! convention, whose GoR formula raises the receiver's rating by `100 · (h_EGF − 0.5)` for a handicap of
//! `h_EGF` stones. An even game with standard komi gives `h = 0`. This is the OGS idea of working in rank
//! space with komi adjusted for the rules, with EGF's numbers at the traditional points.
//!
//! Each rating system turns `h` into rating points its own way: EGF by its published formula (100 GoR
//! points per rank), Glicko-2 and Elo by a configurable `points_per_rank` (default 100). The stronger
//! side's expected score falls by as much as the receiver's rises.

use serde::{Deserialize, Serialize};

/// The conditions of one game that shift its expected result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameConditions {
    /// Handicap stones (0 or 1: no stones placed; 1 traditionally means "no komi").
    pub stones: u8,
    /// Komi actually given to White, in points (negative for reverse komi).
    pub komi: f64,
    /// The ruleset's standard komi for an even game (7.5 area, 6.5 territory).
    pub standard_komi: f64,
    /// Points White receives back for handicap stones under the ruleset (0 unless the rules say so).
    pub compensation: f64,
}

impl GameConditions {
    /// An even game with the standard komi of the Chinese rules (7.5).
    #[must_use]
    pub fn even() -> GameConditions {
        GameConditions { stones: 0, komi: 7.5, standard_komi: 7.5, compensation: 0.0 }
    }

    /// A traditional handicap game: `stones` stones, 0.5 komi, no compensation, area scoring.
    #[must_use]
    pub fn handicap(stones: u8) -> GameConditions {
        GameConditions { stones, komi: 0.5, standard_komi: 7.5, compensation: 0.0 }
    }

    /// The effective handicap in ranks in Black's favour (see the module doc for the formula).
    ///
    /// Non-finite inputs and a standard komi of 0.5 or less contribute nothing from komi.
    #[must_use]
    pub fn effective_handicap(&self) -> f64 {
        let stones = f64::from(self.stones.saturating_sub(1));
        let per_rank = 2.0 * (self.standard_komi - 0.5);
        let komi_shift = self.standard_komi - self.komi - self.compensation;
        let komi_term =
            if per_rank > 0.0 && komi_shift.is_finite() && per_rank.is_finite() { komi_shift / per_rank } else { 0.0 };
        stones + komi_term
    }
}

impl Default for GameConditions {
    fn default() -> Self {
        GameConditions::even()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traditional_handicaps_match_the_egf_convention() {
        // (stones, komi, standard) -> h
        let table = [
            (0u8, 7.5, 7.5, 0.0),
            (1, 7.5, 7.5, 0.0),
            (1, 0.5, 7.5, 0.5),
            (2, 0.5, 7.5, 1.5),
            (9, 0.5, 7.5, 8.5),
            (0, 6.5, 6.5, 0.0),
            (3, 0.5, 6.5, 2.5),
            (0, -6.5, 7.5, 1.0), // reverse komi of 6.5 under area scoring: 14 points = one rank
        ];
        for (stones, komi, standard_komi, want) in table {
            let g = GameConditions { stones, komi, standard_komi, compensation: 0.0 };
            assert!((g.effective_handicap() - want).abs() < 1e-12, "{g:?} -> {}", g.effective_handicap());
        }
    }

    #[test]
    fn chinese_compensation_reduces_the_advantage() {
        let plain = GameConditions::handicap(4);
        let chinese = GameConditions { compensation: 4.0, ..plain };
        assert!((plain.effective_handicap() - 3.5).abs() < 1e-12);
        assert!((chinese.effective_handicap() - (3.0 + 3.0 / 14.0)).abs() < 1e-12);
    }
}
