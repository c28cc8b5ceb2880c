//! Times the recompute of synthetic historical games (the figure `weiqi bench ratings` reports).
//!
//! `cargo run --release -p weiqi-rating --example bench_ratings -- [GAMES] [SEED] [RUNS]`

use std::time::Instant;

use weiqi_rating::{RatingSystem, bench_players, recompute_games, summarise, synthetic_history};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(42);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let t = Instant::now();
    let history = synthetic_history(games, bench_players(games), seed);
    let generate = t.elapsed().as_secs_f64();
    let mut times = Vec::new();
    let mut summary = None;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let book = recompute_games(RatingSystem::default(), &history).expect("synthetic games are valid");
        times.push(t.elapsed().as_secs_f64());
        summary = Some(summarise(&book, games));
    }
    times.sort_by(f64::total_cmp);
    println!(
        "games={games} players={} generate_s={generate:.3} recompute_s_median={:.3} runs={:?} summary={:?}",
        bench_players(games),
        times[times.len() / 2],
        times,
        summary
    );
}
