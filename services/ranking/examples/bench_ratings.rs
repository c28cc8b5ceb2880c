//! Runs `weiqi_ranking::bench::run` (what `weiqi bench ratings` reports).
//!
//! `cargo run --release -p weiqi-ranking --example bench_ratings -- [GAMES] [REDIS_URL|memory|-] [nagle]`

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let games = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let mut config = weiqi_ranking::bench::BenchConfig { games, ..Default::default() };
    match args.next().as_deref() {
        Some("memory") => config.start_redis = false,
        Some("-") | None => {}
        Some(url) => config.redis_url = Some(url.to_owned()),
    }
    if args.next().as_deref() == Some("nagle") {
        config.tcp_nodelay = false;
    }
    match weiqi_ranking::bench::run(config).await {
        Ok(report) => {
            println!("{}", serde_json::to_string(&report).expect("the report serialises"));
            println!(
                "backend={} players={} reads={} leaderboard_p50_ms={:.3}",
                report.backend, report.players, report.reads, report.leaderboard_p50_ms
            );
        }
        Err(e) => {
            eprintln!("bench failed: {e}");
            std::process::exit(1);
        }
    }
}
