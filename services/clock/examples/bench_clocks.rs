//! Runs the clock benchmark and prints the report and details as JSON, one line per run.
//!
//! `cargo run --release -p weiqi-clock-service --example bench_clocks -- [clocks] [min_s] [max_s] [runs] [nats_url]`
//! (defaults: 10000 10 60 1, a nats-server started for the run).

use std::time::Duration;

use weiqi_clock_service::bench::{BenchConfig, run_detailed};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let config = BenchConfig {
        clocks: arg(0, 10_000) as usize,
        min_main: Duration::from_secs(arg(1, 10)),
        max_main: Duration::from_secs(arg(2, 60)),
        nats_url: args.get(4).cloned(),
        ..BenchConfig::default()
    };
    for run in 0..arg(3, 1) {
        let config = BenchConfig { seed: run + 1, ..config.clone() };
        let (report, details) = run_detailed(config).await?;
        println!("{}", serde_json::json!({ "report": report, "details": details }));
    }
    Ok(())
}
