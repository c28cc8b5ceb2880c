//! `weiqi bench clocks`: 10,000 running clocks with random deadlines against a real nats-server; how long
//! after each deadline the `TimeExpired` event is appended, and the clock service's CPU use.

use std::process::ExitCode;
use std::time::Duration;

use super::clocks_harness::{BenchConfig, run_detailed};
use anyhow::Result;

use crate::output::report;

pub async fn run(clocks: usize, nats: Option<String>, min_secs: u64, max_secs: u64, json: bool) -> Result<ExitCode> {
    let config = BenchConfig {
        clocks,
        nats_url: nats,
        min_main: Duration::from_secs(min_secs),
        max_main: Duration::from_secs(max_secs.max(min_secs + 1)),
        ..BenchConfig::default()
    };
    eprintln!("running {clocks} clocks of {min_secs}–{max_secs} s to their flags …");
    let (r, _details) = run_detailed(config).await.map_err(|e| anyhow::anyhow!("{e}"))?;
    report(
        &format!("weiqi bench clocks — {clocks} running clocks, deadlines {min_secs}–{max_secs} s, real nats-server"),
        &[
            ("flag delay p50 (ms)", format!("{:.1}", r.flag_delay_p50_ms), ""),
            ("flag delay p99 (ms)", format!("{:.1}", r.flag_delay_p99_ms), "≤ 50"),
            ("flag delay max (ms)", format!("{:.1}", r.flag_delay_max_ms), "≤ 200"),
            ("clock service CPU (cores)", format!("{:.3}", r.cpu_cores), "< 1"),
        ],
        json.then_some(&r),
    );
    Ok(ExitCode::SUCCESS)
}
