//! `cargo run --release -p weiqi-pairing --example bench_pairing -- 10000 [swiss]`: prints the
//! pairing benchmark report as JSON (the CLI `weiqi bench pairing` wraps the same function).

use std::time::Instant;
use weiqi_pairing::bench::{BenchSystem, bench_pairing_with};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let system = if args.iter().any(|a| a == "swiss") { BenchSystem::Swiss } else { BenchSystem::McMahon };
    let origin = Instant::now();
    let clock = move || origin.elapsed().as_secs_f64();
    let report = bench_pairing_with(players, 1, system, 7, &clock);
    println!("{}", serde_json::to_string_pretty(&report).expect("serialisable"));
}
