//! `weiqi bench …`: benchmarks of whole paths. Each prints a table and, with `--json`, one JSON object
//! on its last line with the keys its issue names. Figures are medians over repeated runs in one
//! process; run a release build (`cargo run --release -p weiqi -- bench …`).

mod pairing;
mod rules;

use std::process::ExitCode;

use anyhow::Result;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum BenchCommand {
    /// The rules core: replay speed with superko, legal-point set, scoring, board size; and the `goban`
    /// crate on the same games (build with `--features goban`).
    Rules {
        /// Random 19×19 games to replay.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Repetitions (the median is reported).
        #[arg(long, default_value_t = 9)]
        runs: usize,
        #[arg(long)]
        json: bool,
    },
    /// Swiss/McMahon pairing of a large field, rounds 1–7, quality against the exact optimum, and standings.
    Pairing {
        #[arg(long, default_value_t = 10_000)]
        players: usize,
        /// Pair a plain Swiss instead of McMahon.
        #[arg(long)]
        swiss: bool,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: BenchCommand) -> Result<ExitCode> {
    match command {
        BenchCommand::Rules { games, runs, json } => rules::run(games, runs, json),
        BenchCommand::Pairing { players, swiss, seed, json } => pairing::run(players, swiss, seed, json),
    }
}
