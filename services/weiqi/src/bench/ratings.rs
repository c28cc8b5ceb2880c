//! `weiqi bench ratings`: recompute ratings for a million synthetic historical games, then read
//! leaderboards through the gateway (Redis if one is given or can be started, else memory).

use std::process::ExitCode;

use super::ratings_harness::{BenchConfig, run as bench_run};
use anyhow::Result;

use crate::output::report;

pub async fn run(games: usize, redis: Option<String>, json: bool) -> Result<ExitCode> {
    // `tcp_nodelay: false` serves through `weiqi_gateway::server::serve_grpc` itself, the path `weiqi up`
    // uses (it sets TCP_NODELAY on accepted connections).
    let config = BenchConfig { games, redis_url: redis, tcp_nodelay: false, ..BenchConfig::default() };
    eprintln!("recomputing {games} synthetic games, then leaderboard reads through the gateway …");
    let r = bench_run(config).await.map_err(|e| anyhow::anyhow!("{e}"))?;
    report(
        &format!("weiqi bench ratings — {games} games, {} players, leaderboard on {}", r.players, r.backend),
        &[
            ("recompute all ratings (s)", format!("{:.2}", r.recompute_seconds), "≤ 10"),
            ("leaderboard read p99 through the gateway (ms)", format!("{:.2}", r.leaderboard_p99_ms), "≤ 5"),
        ],
        json.then_some(&r),
    );
    Ok(ExitCode::SUCCESS)
}
