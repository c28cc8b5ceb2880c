//! `weiqi bench pairing`.

use std::process::ExitCode;
use std::time::Instant;

use super::pairing_harness::{BenchSystem, bench_pairing_with};
use anyhow::Result;

use crate::output::report;

pub fn run(players: usize, swiss: bool, seed: u64, json: bool) -> Result<ExitCode> {
    let start = Instant::now();
    let clock = move || start.elapsed().as_secs_f64();
    let system = if swiss { BenchSystem::Swiss } else { BenchSystem::McMahon };
    eprintln!("pairing 7 rounds of a {players}-player {system:?} …");
    let r = bench_pairing_with(players, seed, system, 7, &clock);
    // Issue 31 item 4: a 10,000-player round in a second, a 50,000-player round in five.
    let target = if players <= 10_000 { "≤ 1" } else { "≤ 5 (50,000)" };
    report(
        &format!("weiqi bench pairing — {players} players, {system:?}, rounds 1–7"),
        &[
            ("worst round pairing time (s)", format!("{:.3}", r.pair_seconds), target),
            ("median round pairing time (s)", format!("{:.3}", r.pair_seconds_median), ""),
            ("rematches", r.rematches.to_string(), "0"),
            ("score difference sum", r.score_diff_sum.to_string(), ""),
            ("color imbalance", r.color_imbalance.to_string(), ""),
            ("gap to exact optimum, 1,000 players (%)", format!("{:.6}", r.optimum_gap_pct), "≤ 0.1"),
            ("criteria-cost gap, 1,000 players (%)", format!("{:.6}", r.optimum_cost_gap_pct), ""),
            (
                "score differences, windows / exact",
                format!("{} / {}", r.compared_score_diff_sum, r.optimum_score_diff_sum),
                "",
            ),
            ("color units, windows / exact", format!("{} / {}", r.compared_color_sum, r.optimum_color_sum), ""),
            ("seeding cost, windows / exact", format!("{} / {}", r.compared_seeding_sum, r.optimum_seeding_sum), ""),
            ("standings (ms)", format!("{:.1}", r.standings_ms), "≤ 200"),
        ],
        json.then_some(&r),
    );
    Ok(ExitCode::SUCCESS)
}
