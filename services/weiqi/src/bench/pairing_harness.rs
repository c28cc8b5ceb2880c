//! Benchmark support for `weiqi bench pairing`: simulates rounds 1–7 of an N-player McMahon (or
//! Swiss) through the real aggregate and reports pairing time and quality.
//!
//! This module measures time only through the `clock` the caller passes (seconds from any fixed
//! origin; the CLI passes `Instant`), so the crate itself never reads a clock.
//!
//! - `pair_seconds`: the **worst** round's `decide(PairRound)` time (records, candidates, matching
//!   windows, colors); `pair_seconds_median` is the median round.
//! - `rematches`: pairs that met before, over all rounds (must be 0).
//! - `score_diff_sum`: the sum over all rounds and pairs of |pairing score difference| in points
//!   (McMahon: MMS × 2 + points; Swiss: points).
//! - `color_imbalance`: after the last round, Σ over players of |games as Black − games as White|
//!   in even games.
//! - `optimum_gap_pct`: on 1,000-player fields (the first 1,000 players' own simulation, or the
//!   field itself when smaller), the largest relative shortfall over the 7 rounds of the windowed
//!   pairing's matching weight against the exact dense optimum (one blossom over the whole field).
//!   Because every edge carries the `BASE` weight this figure is tiny by construction;
//!   `optimum_cost_gap_pct` compares the criteria costs alone (`Σ cost`, lower is better), which is
//!   the stricter measure, and both score-difference sums are printed, as are both sums of the
//!   lower tiers, color imbalance and seeding cost (`compared_*` windowed, `optimum_*` exact).
//! - `standings_ms`: computing full standings of the final state.

use serde::Serialize;
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, McMahonBars, TournamentConfig};
use weiqi_pairing::decide::decide;
use weiqi_pairing::matching::Weight;
use weiqi_pairing::rank::Rank;
use weiqi_pairing::record::records;
use weiqi_pairing::rounds::next_round_candidates;
use weiqi_pairing::simulate::{Simulation, synthetic_field};
use weiqi_pairing::standings::standings;
use weiqi_pairing::swiss::{PairingParams, pair_round};

/// Which system the benchmark runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BenchSystem {
    /// McMahon with bars 3d / 20k (the Go standard).
    McMahon,
    /// Plain Swiss on points.
    Swiss,
}

/// What `weiqi bench pairing --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingBenchReport {
    /// Players in the field.
    pub players: usize,
    /// Rounds simulated.
    pub rounds: u32,
    /// The system.
    pub system: BenchSystem,
    /// Worst round's pairing time, seconds.
    pub pair_seconds: f64,
    /// Median round's pairing time, seconds.
    pub pair_seconds_median: f64,
    /// Rematches over all rounds.
    pub rematches: usize,
    /// Σ |score difference| over all pairs of all rounds, in points.
    pub score_diff_sum: u64,
    /// Σ |Black − White| over players at the end.
    pub color_imbalance: u64,
    /// Worst round's weight shortfall against the exact optimum, percent (1,000-player field).
    pub optimum_gap_pct: f64,
    /// Worst round's criteria-cost excess over the exact optimum, percent (1,000-player field).
    pub optimum_cost_gap_pct: f64,
    /// Σ |score difference| of the windowed pairings on the comparison field.
    pub compared_score_diff_sum: u64,
    /// Σ |score difference| of the exact pairings on the comparison field.
    pub optimum_score_diff_sum: u64,
    /// Σ color-imbalance units of the windowed pairings on the comparison field.
    pub compared_color_sum: u64,
    /// Σ color-imbalance units of the exact pairings on the comparison field.
    pub optimum_color_sum: u64,
    /// Σ seeding cost of the windowed pairings on the comparison field.
    pub compared_seeding_sum: u64,
    /// Σ seeding cost of the exact pairings on the comparison field.
    pub optimum_seeding_sum: u64,
    /// Matching weight of the windowed pairing, worst round (as a decimal string: i128).
    pub windowed_weight: String,
    /// Matching weight of the exact pairing in that round.
    pub optimum_weight: String,
    /// Players in the comparison field.
    pub compared_players: usize,
    /// Standings of the final state, milliseconds.
    pub standings_ms: f64,
}

fn config(system: BenchSystem, rounds: u32, seed: u64) -> TournamentConfig {
    let format = match system {
        BenchSystem::McMahon => {
            Format::McMahon { rounds, bars: McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(20) } }
        }
        BenchSystem::Swiss => Format::Swiss { rounds },
    };
    TournamentConfig::new("bench", format, seed)
}

/// Runs the benchmark for a system and number of rounds.
pub fn bench_pairing_with(
    players: usize,
    seed: u64,
    system: BenchSystem,
    rounds: u32,
    clock: &dyn Fn() -> f64,
) -> PairingBenchReport {
    let mut sim = Simulation::new(config(system, rounds, seed), seed).expect("valid config");
    sim.register_all(&synthetic_field(players, seed)).expect("fresh ids");
    sim.run(Command::Start).expect("enough players");
    let mut times = Vec::new();
    for _ in 0..rounds {
        let t0 = clock();
        let events = decide(&sim.state, &Command::PairRound, sim.now).expect("pairable");
        times.push(clock() - t0);
        for e in &events {
            weiqi_pairing::state::evolve(&mut sim.state, e);
        }
        sim.log.extend(events);
        sim.play_round().expect("results");
    }
    let mut met = std::collections::HashSet::new();
    let mut rematches = 0;
    let mut score_diff_sum = 0u64;
    for r in &sim.state.rounds {
        for g in &r.games {
            let key = (g.paired.black.min(g.paired.white), g.paired.black.max(g.paired.white));
            if !met.insert(key) {
                rematches += 1;
            }
            score_diff_sum += u64::from(g.paired.cost.map_or(0, |c| c.score_diff));
        }
    }
    let recs = records(&sim.state, sim.state.current_round());
    let mut color_imbalance = 0u64;
    for rec in &recs.list {
        let b: i64 = rec
            .entries
            .iter()
            .map(|e| match e {
                weiqi_pairing::record::Entry::Game { color, handicap: 0, forfeit: false, .. } => {
                    if *color == weiqi_pairing::ids::Color::Black { 1 } else { -1 }
                }
                _ => 0,
            })
            .sum();
        color_imbalance += b.unsigned_abs();
    }
    let t0 = clock();
    let st = standings(&sim.state);
    let standings_ms = (clock() - t0) * 1000.0;
    debug_assert_eq!(st.rows.len(), players);

    // Quality against the exact optimum on a 1,000-player field.
    let compared = players.min(1000);
    let mut cmp = Simulation::new(config(system, rounds, seed ^ 0xC0FFEE), seed ^ 0xC0FFEE).expect("valid");
    cmp.register_all(&synthetic_field(compared, seed ^ 0xC0FFEE)).expect("fresh ids");
    cmp.run(Command::Start).expect("enough players");
    let policy = cmp.state.config.as_ref().expect("created").pairing;
    let (mut gap, mut cost_gap) = (0.0f64, 0.0f64);
    let (mut w_win, mut w_opt): (Weight, Weight) = (0, 0);
    let (mut sd_win, mut sd_opt) = (0u64, 0u64);
    let (mut color_win, mut color_opt, mut seed_win, mut seed_opt) = (0u64, 0u64, 0u64, 0u64);
    let tier = |plan: &weiqi_pairing::swiss::RoundPlan, f: fn(&weiqi_pairing::weights::EdgeCost) -> u32| {
        plan.pairs.iter().map(|p| u64::from(f(&p.cost))).sum::<u64>()
    };
    for _ in 0..rounds {
        let cands = next_round_candidates(&cmp.state);
        let forbidden = cmp.state.forbidden_in(cmp.state.current_round() + 1);
        let windowed = pair_round(&cands, &forbidden, &policy, &PairingParams::default()).expect("pairable");
        let exact = pair_round(&cands, &forbidden, &policy, &PairingParams::exact(cands.len())).expect("pairable");
        sd_win += windowed.pairs.iter().map(|p| u64::from(p.cost.score_diff)).sum::<u64>();
        sd_opt += exact.pairs.iter().map(|p| u64::from(p.cost.score_diff)).sum::<u64>();
        color_win += tier(&windowed, |c| c.color);
        color_opt += tier(&exact, |c| c.color);
        seed_win += tier(&windowed, |c| c.seeding);
        seed_opt += tier(&exact, |c| c.seeding);
        let (ww, wo) = (windowed.weight(), exact.weight());
        let g = if wo > 0 { (wo - ww) as f64 / wo as f64 * 100.0 } else { 0.0 };
        if g >= gap {
            gap = g;
            w_win = ww;
            w_opt = wo;
        }
        let (cw, co) = (windowed.cost(), exact.cost());
        let cg = if co > 0 {
            (cw - co) as f64 / co as f64 * 100.0
        } else if cw > 0 {
            100.0
        } else {
            0.0
        };
        cost_gap = cost_gap.max(cg);
        cmp.run(Command::PairRound).expect("pairable");
        cmp.play_round().expect("results");
    }
    let mut sorted = times.clone();
    sorted.sort_by(|a, b| a.total_cmp(b));
    PairingBenchReport {
        players,
        rounds,
        system,
        pair_seconds: sorted.last().copied().unwrap_or(0.0),
        pair_seconds_median: sorted.get(sorted.len() / 2).copied().unwrap_or(0.0),
        rematches,
        score_diff_sum,
        color_imbalance,
        optimum_gap_pct: gap,
        optimum_cost_gap_pct: cost_gap,
        compared_score_diff_sum: sd_win,
        optimum_score_diff_sum: sd_opt,
        compared_color_sum: color_win,
        optimum_color_sum: color_opt,
        compared_seeding_sum: seed_win,
        optimum_seeding_sum: seed_opt,
        windowed_weight: w_win.to_string(),
        optimum_weight: w_opt.to_string(),
        compared_players: compared,
        standings_ms,
    }
}
