//! The pairing criteria and their weights (documented here once, used by every matching).
//!
//! Each possible pair `{a, b}` of a round is an edge whose weight is `BASE − cost`, where the cost
//! stacks the criteria of issue 5 in priority order into disjoint bit ranges ("tiers"):
//!
//! | priority | criterion | value per pair | multiplier |
//! | --- | --- | --- | --- |
//! | 1 | never a rematch (also: organiser's forbidden pairs) | no edge at all; under [`RematchPolicy::Discouraged`] (elimination formats) 1 per rematch | 2^68 |
//! | 2 | a bye never twice, to the lowest eligible | decided before the matching (see [`crate::swiss`]) | — |
//! | 3 | minimal score (or McMahon score) difference | d·(R + d): d = \|score(a) − score(b)\| in points, R the round's number of score groups, each capped at 255 (OpenGotha's cost, below) | 2^71 |
//! | 4 | color balance | \|balance(a) + balance(b)\| (+1 if both last had the same color), capped at 15; 0 in handicap games | 2^56 |
//! | 5 | seeding inside a score group ([`crate::seeding`]: split and fold, slip or random) | 0 for the system's ideal partner … 100,000 | 2^28 |
//! | 6 | handicap policy | handicap stones the pair would get, 0–9 | 2^13 |
//! | 7 | club / region / family separation (optional) | 3 for the same family; else 2 for the same club, 1 for the same region (pairgoth's soft avoidance) | 1 |
//!
//! `BASE = 2^111`. A window holds at most 2,048 pairs (11 bits), and each tier's multiplier exceeds the
//! largest possible sum of all lower tiers over a whole window, so a maximum-weight matching is
//! *lexicographic*: it first matches as many players as possible (every edge outweighs all costs
//! together), then has the fewest rematches, then the smallest total score difference, and only then
//! looks at colors, then seeding, then handicaps and clubs. No amount of color balance ever buys one
//! point of score difference. (Why seeding sits below color: see [`crate::seeding`].) `balance` is the player's games with Black minus games with White in even games.
//!
//! **The cost of a score difference grows faster than the difference** (issue 30 item 13), as in
//! OpenGotha: its `Tournament.costValue` (Main Criterion 2, "Minimize score difference") gives a pair
//! `paiMaMinimizeScoreDifference · (1 − x)(1 + k·x)` with `x = |groupNumber(a) − groupNumber(b)| /
//! numberOfGroups` and `k = paiStandardNX1Factor = ½`, and maximizes the sum. Minimizing the shortfall
//! instead, `1 − (1 − x)(1 + x/2) = x/2 + x²/2 = d·(R + d) / 2R²` with `d` the difference and `R` the
//! number of score groups; `2R²` is the same for every pair of a round, so the tier counts `d·(R + d)`.
//! One gap of 3 then costs more than gaps of 1 and 2 (`3·(R+3) > 1·(R+1) + 2·(R+2)`), where a linear cost
//! made them equal and let color balance choose the wider gap. Costs recorded before this rule carry no
//! `R` (0) and count `d`, as they were decided.

use crate::ids::{Color, PlayerId};
use crate::matching::{TIERS, Weight};
use crate::seeding::{SEEDING_SCALE, Seat, Seeding, seeding_cost};
use serde::{Deserialize, Serialize};

/// The weight of an edge before costs are subtracted; exceeds every possible window's total cost.
pub const BASE: Weight = 1 << 111;
/// Multiplier of a rematch (only when rematches are discouraged rather than forbidden).
pub const REMATCH: Weight = 1 << 99;
/// Multiplier of one unit of score-difference cost ([`EdgeCost::score_cost`]).
pub const SCORE: Weight = 1 << 71;
/// Multiplier of one unit of color imbalance.
pub const COLOR: Weight = 1 << 56;
/// Multiplier of one unit of seeding cost ([`crate::seeding::seeding_cost`], at most 100,000 a pair).
pub const SEEDING: Weight = 1 << 28;
/// Multiplier of one handicap stone.
pub const HANDICAP: Weight = 1 << 13;
/// Multiplier of one unit of club/region closeness.
pub const SEPARATION: Weight = 1;
/// Largest number of players in one matching window for which the tiers stay strictly lexicographic
/// (windows are at most [`crate::swiss::PairingParams::max_window`] players, 1,536 by default).
pub const MAX_WINDOW: usize = 4096;
/// Largest score difference, and number of score groups, the score tier tells apart.
pub const SCORE_CAP: u32 = 255;

/// How handicaps are given in a pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HandicapPolicy {
    /// Every game is even (colors by balance or nigiri, full komi).
    Even,
    /// Handicap = rank difference minus `reduction`, at most `ceiling` stones (1 = 让先: Black, no komi).
    ByRank {
        /// Stones subtracted from the rank difference.
        reduction: u8,
        /// Maximum number of stones (≤ 9).
        ceiling: u8,
    },
}

impl HandicapPolicy {
    /// Handicap stones for two players of the given rank values.
    pub fn stones(self, rank_a: i32, rank_b: i32) -> u8 {
        match self {
            HandicapPolicy::Even => 0,
            HandicapPolicy::ByRank { reduction, ceiling } => {
                let d = (rank_a - rank_b).unsigned_abs() as i64 - i64::from(reduction);
                d.clamp(0, i64::from(ceiling.min(9))) as u8
            }
        }
    }
}

/// Whether a second meeting is impossible or merely expensive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RematchPolicy {
    /// Swiss and McMahon: two players never meet twice.
    Forbidden,
    /// Elimination formats with few players left: a rematch is allowed when nothing else works.
    Discouraged,
}

/// Whether a player may receive a second pairing bye.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ByePolicy {
    /// Swiss and McMahon: a bye never twice.
    OncePerPlayer,
    /// Elimination formats: the player with the fewest byes, lowest first.
    FewestFirst,
}

/// The organiser's pairing options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingPolicy {
    /// Handicap policy (criterion 5).
    pub handicap: HandicapPolicy,
    /// Separate players of the same club (criterion 6).
    pub separate_clubs: bool,
    /// Separate players of the same region (criterion 6).
    pub separate_regions: bool,
    /// Separate players of the same family (criterion 6); absent from configs recorded before it.
    #[serde(default)]
    pub separate_families: bool,
    /// Rematches (criterion 1).
    pub rematches: RematchPolicy,
    /// Byes (criterion 2).
    pub byes: ByePolicy,
    /// Seeding inside a score group (criterion 5), by round.
    #[serde(default)]
    pub seeding: Seeding,
}

impl Default for PairingPolicy {
    fn default() -> Self {
        PairingPolicy {
            handicap: HandicapPolicy::Even,
            separate_clubs: false,
            separate_regions: false,
            separate_families: false,
            rematches: RematchPolicy::Forbidden,
            byes: ByePolicy::OncePerPlayer,
            seeding: Seeding::default(),
        }
    }
}

/// A player as the pairing sees them before a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The player.
    pub id: PlayerId,
    /// Pairing score in points (Swiss: points; McMahon: initial score × win points + points).
    pub score: i64,
    /// Rank value ([`crate::rank::Rank::value`]).
    pub rank: i32,
    /// Recorded lot: breaks ties of order (lower first).
    pub lot: u64,
    /// Games with Black minus games with White, in even games.
    pub color_balance: i32,
    /// Color of the last even game.
    pub last_color: Option<Color>,
    /// Pairing byes received so far.
    pub byes: u32,
    /// Everyone already met (any order; duplicates harmless).
    pub opponents: Vec<PlayerId>,
    /// Interned club, for separation.
    pub club: Option<u32>,
    /// Interned region, for separation.
    pub region: Option<u32>,
    /// Interned family, for separation.
    pub family: Option<u32>,
    /// The player's seat in their score group ([`crate::seeding::seat_candidates`]); `None`: no
    /// seeding (team pairings, tests of the other criteria).
    pub seat: Option<Seat>,
}

/// What one pair costs, criterion by criterion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeCost {
    /// 1 when the two have met before (only possible under [`RematchPolicy::Discouraged`]).
    pub rematch: u8,
    /// Absolute score difference in points.
    pub score_diff: u32,
    /// The number of score groups of the round the difference was weighed in (OpenGotha's
    /// `numberOfGroups`); 0 in costs recorded before the cost grew with the square, which count `d`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub score_groups: u32,
    /// Color-imbalance units.
    #[serde(rename = "colour")] // the JSON form keeps the name earlier versions wrote
    pub color: u32,
    /// Seeding cost inside the score group (0 = the seed system's ideal partner). Absent from the
    /// JSON form when 0, which is the JSON earlier versions wrote.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub seeding: u32,
    /// Handicap stones.
    pub handicap: u8,
    /// 3 for the same family; else 2 for the same club, 1 for the same region (at most 3).
    pub separation: u8,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

/// The criteria of [`EdgeCost`], in priority order, for explanations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Criterion {
    /// Two players met before.
    Rematch,
    /// Score difference.
    ScoreDifference,
    /// Color balance.
    #[serde(rename = "ColourBalance")] // the JSON form keeps the name earlier versions wrote
    ColorBalance,
    /// Seeding inside a score group.
    Seeding,
    /// Handicap stones.
    Handicap,
    /// Same club, region or family.
    Separation,
}

impl EdgeCost {
    /// The score difference's cost: `d·(R + d)` (see the module doc), or `d` for a cost recorded
    /// without `R`.
    pub fn score_cost(&self) -> u32 {
        let d = self.score_diff.min(SCORE_CAP);
        match self.score_groups.min(SCORE_CAP) {
            0 => d,
            groups => d * (groups + d),
        }
    }

    /// The cost as one number (see the table in this module's doc).
    pub fn scalar(&self) -> Weight {
        tiers_scalar(&self.capped_tiers())
    }

    /// The criteria values the matching weighs, in priority order, each within its tier's cap (the
    /// score difference as its cost): what [`crate::matching::lexicographic_matching`] minimises.
    pub fn capped_tiers(&self) -> [u32; TIERS] {
        [
            u32::from(self.rematch.min(1)),
            self.score_cost(),
            self.color.min(15),
            self.seeding.min(SEEDING_SCALE),
            u32::from(self.handicap.min(9)),
            u32::from(self.separation.min(3)),
        ]
    }

    /// The edge weight given to the matching.
    pub fn weight(&self) -> Weight {
        BASE - self.scalar()
    }

    /// The criteria values in priority order (the score difference as its cost).
    pub fn tiers(&self) -> [(Criterion, u32); 6] {
        [
            (Criterion::Rematch, u32::from(self.rematch)),
            (Criterion::ScoreDifference, self.score_cost()),
            (Criterion::ColorBalance, self.color),
            (Criterion::Seeding, self.seeding),
            (Criterion::Handicap, u32::from(self.handicap)),
            (Criterion::Separation, u32::from(self.separation)),
        ]
    }
}

/// Capped tiers ([`EdgeCost::capped_tiers`]) stacked with the fixed multipliers of the table above.
pub fn tiers_scalar(tiers: &[u32; TIERS]) -> Weight {
    let [rematch, score, color, seeding, handicap, separation] = tiers.map(Weight::from);
    rematch * REMATCH
        + score * SCORE
        + color * COLOR
        + seeding * SEEDING
        + handicap * HANDICAP
        + separation * SEPARATION
}

/// Whether `a` has met `b`.
pub fn have_met(a: &Candidate, b: &Candidate) -> bool {
    a.opponents.contains(&b.id)
}

/// The number of score groups among `candidates` (distinct scores; at least 1).
pub fn score_groups(candidates: &[Candidate]) -> u32 {
    let scores: std::collections::BTreeSet<i64> = candidates.iter().map(|c| c.score).collect();
    u32::try_from(scores.len()).unwrap_or(u32::MAX).max(1)
}

/// The cost of pairing `a` with `b` in a round of `groups` score groups ([`score_groups`]), or `None`
/// when they may not meet (rematch under [`RematchPolicy::Forbidden`]). Forbidden pairs are checked by
/// the caller.
pub fn edge_cost(a: &Candidate, b: &Candidate, policy: &PairingPolicy, groups: u32) -> Option<EdgeCost> {
    let rematch = have_met(a, b);
    if rematch && policy.rematches == RematchPolicy::Forbidden {
        return None;
    }
    let handicap = policy.handicap.stones(a.rank, b.rank);
    let color = if handicap > 0 {
        0
    } else {
        let same_last = matches!((a.last_color, b.last_color), (Some(x), Some(y)) if x == y);
        (a.color_balance + b.color_balance).unsigned_abs() + u32::from(same_last)
    };
    let mut separation = 0;
    if policy.separate_clubs && a.club.is_some() && a.club == b.club {
        separation += 2;
    }
    if policy.separate_regions && a.region.is_some() && a.region == b.region {
        separation += 1;
    }
    // A family is the closest tie: it weighs as much as one club and one region together (the tier
    // holds at most 3 per pair, see `tiers_are_lexicographic_over_a_full_window`).
    if policy.separate_families && a.family.is_some() && a.family == b.family {
        separation = 3;
    }
    Some(EdgeCost {
        rematch: u8::from(rematch),
        score_diff: (a.score - b.score).unsigned_abs().min(u64::from(u32::MAX)) as u32,
        score_groups: groups,
        color,
        seeding: seeding_cost(a, b),
        handicap,
        separation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strictness claim of the module doc: a window's worst lower tiers never reach one unit above.
    #[test]
    fn tiers_are_lexicographic_over_a_full_window() {
        let pairs = (MAX_WINDOW / 2) as Weight;
        let seeding = Weight::from(SEEDING_SCALE);
        assert!(pairs * 3 * SEPARATION < HANDICAP);
        assert!(pairs * (9 * HANDICAP + 3 * SEPARATION) < SEEDING);
        assert!(pairs * (seeding * SEEDING + 9 * HANDICAP + 3) < COLOR);
        assert!(pairs * (15 * COLOR + seeding * SEEDING + 9 * HANDICAP + 3) < SCORE);
        let worst = EdgeCost {
            rematch: 1,
            score_diff: u32::MAX,
            score_groups: u32::MAX,
            color: 15,
            seeding: SEEDING_SCALE,
            handicap: 9,
            separation: 3,
        };
        let score = Weight::from(worst.score_cost());
        assert_eq!(score, 255 * 510);
        assert!(pairs * (score * SCORE + 15 * COLOR + seeding * SEEDING + 9 * HANDICAP + 3) < REMATCH);
        assert!(pairs * (REMATCH + score * SCORE + 15 * COLOR + seeding * SEEDING + 9 * HANDICAP + 3) < BASE);
        assert_eq!(worst.scalar(), REMATCH + score * SCORE + 15 * COLOR + seeding * SEEDING + 9 * HANDICAP + 3);
        // The solver's duals stay far from overflow even with doubled weights.
        assert!(BASE.checked_mul(4 * pairs).is_some());
    }

    /// OpenGotha's cost: one gap of 3 costs more than gaps of 1 and 2, whatever the number of groups;
    /// a cost recorded without the number of groups counts the difference as it was decided.
    #[test]
    fn a_wide_gap_costs_more_than_two_narrow_ones() {
        let cost = |d: u32, groups: u32| {
            EdgeCost {
                rematch: 0,
                score_diff: d,
                score_groups: groups,
                color: 0,
                seeding: 0,
                handicap: 0,
                separation: 0,
            }
            .score_cost()
        };
        for groups in [1, 2, 5, 9, 40, 255, 1000] {
            assert!(cost(3, groups) + cost(0, groups) > cost(1, groups) + cost(2, groups), "{groups} groups");
            assert!(cost(4, groups) > cost(2, groups) * 2, "{groups} groups");
        }
        assert_eq!((cost(3, 9), cost(1, 9), cost(2, 9)), (36, 10, 22));
        assert_eq!(cost(3, 0), 3, "a recorded cost without groups stays linear");
    }

    #[test]
    fn handicap_by_rank_is_reduced_and_capped() {
        let p = HandicapPolicy::ByRank { reduction: 1, ceiling: 9 };
        assert_eq!(p.stones(5, 1), 3);
        assert_eq!(p.stones(1, 1), 0);
        assert_eq!(p.stones(-20, 7), 9);
        assert_eq!(HandicapPolicy::Even.stones(-20, 7), 0);
    }
}
