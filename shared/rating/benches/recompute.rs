//! Criterion bench: recompute Glicko-2 ratings from synthetic historical games.
//!
//! 1,000,000 games is the target (≤ 10 s); criterion runs it 10 times, so the default here is
//! 100,000 games. Set `WEIQI_BENCH_GAMES=1000000` for the full figure.

use criterion::{Criterion, criterion_group, criterion_main};
use weiqi_rating::{RatingSystem, bench_players, recompute_games, synthetic_history};

fn recompute(c: &mut Criterion) {
    let games: usize = std::env::var("WEIQI_BENCH_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let history = synthetic_history(games, bench_players(games), 42);
    let mut group = c.benchmark_group("ratings");
    group.sample_size(10);
    group.bench_function(format!("recompute_glicko2_{games}_games"), |b| {
        b.iter(|| recompute_games(RatingSystem::default(), &history).expect("valid"));
    });
    group.finish();
}

criterion_group!(benches, recompute);
criterion_main!(benches);
