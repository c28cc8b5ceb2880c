//! Issue 31 item 4: large fields are paired in windows, and the windows keep the seeding rules.
//!
//! A score group larger than a window used to be cut into windows holding its top half, then its
//! bottom half, each paired inside itself. The walk ([`weiqi_pairing::swiss`]) lists each group's
//! ideal pairs side by side, the pairs of two players wanting the same color first:
//!
//! ```text
//!   one group of 1,000, split and fold, no colors     every pair is seat k with seat 999 − k
//!   one group of 1,000, split and slip                every pair is seat k with seat 500 + k
//!   one group of 1,000, half want White, half Black   no pair of two players wanting one color
//!   the fitted i64 weights vs the fixed i128 tiers    the same optimum, tier by tier
//! ```

use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use weiqi_pairing::ids::{Color, PlayerId};
use weiqi_pairing::matching::{TIERS, WeightMatrix, lexicographic_matching, max_weight_matching};
use weiqi_pairing::seeding::{SeedSystem, seat_candidates};
use weiqi_pairing::swiss::{PairingParams, pair_round};
use weiqi_pairing::weights::{BASE, Candidate, PairingPolicy, tiers_scalar};

const N: usize = 1000;

/// `N` players on one score, rank and lot giving seat `i` to player `i`; `want(i)`: +1 wants White.
fn group(system: SeedSystem, want: impl Fn(usize) -> i32) -> Vec<Candidate> {
    let mut field: Vec<Candidate> = (0..N)
        .map(|i| Candidate {
            id: PlayerId(i as u32 + 1),
            score: 0,
            rank: 0,
            lot: i as u64,
            color_balance: want(i),
            last_color: match want(i) {
                1 => Some(Color::Black),
                -1 => Some(Color::White),
                _ => None,
            },
            byes: 0,
            opponents: Vec::new(),
            club: None,
            region: None,
            family: None,
            seat: None,
        })
        .collect();
    seat_candidates(&mut field, system, 7);
    field
}

/// Pairs as seats (lower first).
fn seats(field: &[Candidate]) -> Vec<(usize, usize)> {
    let plan = pair_round(field, &BTreeSet::new(), &PairingPolicy::default(), &PairingParams::default()).unwrap();
    assert_eq!(plan.pairs.len(), N / 2);
    assert!(plan.matchings > 1, "a field of {N} is paired in several windows");
    plan.pairs
        .iter()
        .map(|p| {
            let (a, b) = (p.a.0 as usize - 1, p.b.0 as usize - 1);
            (a.min(b), a.max(b))
        })
        .collect()
}

#[test]
fn a_group_larger_than_a_window_is_folded_whole() {
    for (a, b) in seats(&group(SeedSystem::SplitAndFold, |_| 0)) {
        assert_eq!(a + b, N - 1, "seat {a} met seat {b}");
    }
}

#[test]
fn a_group_larger_than_a_window_is_slipped_whole() {
    for (a, b) in seats(&group(SeedSystem::SplitAndSlip, |_| 0)) {
        assert_eq!(b - a, N / 2, "seat {a} met seat {b}");
    }
}

#[test]
fn windows_pair_opposite_colors_when_the_group_allows_it() {
    // Wants spread unevenly: runs of White and Black of different lengths across the seats.
    let want = |i: usize| if (i * 7919 % 1009).is_multiple_of(2) { 1 } else { -1 };
    let field = group(SeedSystem::SplitAndFold, want);
    let whites = (0..N).filter(|&i| want(i) == 1).count();
    assert!(whites.abs_diff(N - whites) <= 2, "the group is balanced: {whites} want White");
    let same = seats(&field).iter().filter(|&&(a, b)| want(a) == want(b)).count();
    assert!(same <= 1, "{same} pairs of players wanting the same color");
}

/// The sum of a matching's tiers, with the number of pairs first (more is better; then less).
fn totals(n: usize, cost: &BTreeMap<(usize, usize), [u32; TIERS]>, mate: &[Option<usize>]) -> (usize, [u64; TIERS]) {
    let mut sum = [0u64; TIERS];
    let mut pairs = 0;
    for (i, m) in mate.iter().enumerate() {
        if let Some(j) = *m
            && i < j
        {
            pairs += 1;
            for (s, v) in sum.iter_mut().zip(cost[&(i, j)]) {
                *s += u64::from(v);
            }
        }
    }
    assert!(mate.len() == n);
    (pairs, sum)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The weights fitted to the instance find a matching as good, tier by tier, as the fixed tiers.
    #[test]
    fn fitted_weights_find_the_fixed_tiers_optimum(
        n in 1usize..=24,
        cells in prop::collection::vec((prop::bool::weighted(0.8), 0u32..2, 0u32..300, 0u32..16, 0u32..100_001, 0u32..10, 0u32..4), 1..120),
    ) {
        let mut cost = BTreeMap::new();
        let mut k = 0;
        for i in 0..n {
            for j in i + 1..n {
                let (present, r, s, c, seed, h, sep) = cells[k % cells.len()];
                k += 1;
                if present {
                    cost.insert((i, j), [r, s, c, seed, h, sep]);
                }
            }
        }
        let fitted = lexicographic_matching(n, |i, j| cost.get(&(i, j)).copied());
        let mut w = WeightMatrix::new(n);
        for (&(i, j), c) in &cost {
            w.set(i, j, BASE - tiers_scalar(c));
        }
        let fixed = max_weight_matching(&w);
        for (i, m) in fitted.iter().enumerate() {
            if let Some(j) = *m {
                prop_assert_eq!(fitted[j], Some(i));
                prop_assert!(cost.contains_key(&(i.min(j), i.max(j))));
            }
        }
        let (fp, fs) = totals(n, &cost, &fitted);
        let (xp, xs) = totals(n, &cost, &fixed);
        prop_assert_eq!((fp, fs), (xp, xs));
    }
}
