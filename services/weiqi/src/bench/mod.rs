//! `weiqi bench …`: benchmarks of whole paths. Each prints a table and, with `--json`, one JSON object
//! on its last line with the keys its issue names. Figures are medians over repeated runs in one
//! process; run a release build (`cargo run --release -p weiqi -- bench …`).

mod clocks;
mod clocks_harness;
mod e2e;
mod estimate;
mod export;
mod fairplay;
mod pairing;
mod pairing_harness;
mod ratings;
mod ratings_harness;
mod rules;
mod spectators;
pub(crate) mod tournament;
mod web;

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
    /// Random legal games through the real gRPC API against `weiqi up --nats` (a separate process):
    /// moves/s, latency percentiles, raw JetStream publishes on the same server, server memory.
    E2e {
        /// Concurrent games.
        #[arg(long, default_value_t = 10_000)]
        games: usize,
        /// Moves in flight (closed loop) / creation concurrency.
        #[arg(long, default_value_t = 256)]
        concurrency: usize,
        /// Offered rate in moves/s (open loop); without it, as fast as it can (closed loop).
        #[arg(long)]
        rate: Option<f64>,
        /// NATS server URL (default: start a fresh nats-server).
        #[arg(long)]
        nats: Option<String>,
        /// Length of the measured phase.
        #[arg(long, default_value_t = 20.0)]
        seconds: f64,
        /// Seconds of load before measuring.
        #[arg(long, default_value_t = 2.0)]
        warmup: f64,
        /// Board size of the random games.
        #[arg(long, default_value_t = 19)]
        size: u32,
        #[arg(long)]
        json: bool,
    },
    /// A broadcast: viewers on the game pages' live streams (half on one top board) while moves are
    /// played through gRPC at a fixed rate against `weiqi up --nats` (a separate process): move and
    /// delivery latency, dropped viewers, server memory and CPU per 1,000 views delivered.
    Spectators {
        /// Viewers (one live stream each). One process holds at most `ulimit -n` sockets.
        #[arg(long, default_value_t = 20_000)]
        watchers: usize,
        /// Games.
        #[arg(long, default_value_t = 500)]
        games: usize,
        /// Offered moves per second, round-robin over the games.
        #[arg(long, default_value_t = 100.0)]
        rate: f64,
        /// Length of the measured phase.
        #[arg(long, default_value_t = 20.0)]
        seconds: f64,
        /// NATS server URL (default: start a fresh nats-server).
        #[arg(long)]
        nats: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Running clocks against a real nats-server: flag delay after each deadline, clock-service CPU.
    Clocks {
        #[arg(long, default_value_t = 10_000)]
        clocks: usize,
        /// NATS server URL (default: start a fresh nats-server).
        #[arg(long)]
        nats: Option<String>,
        /// Shortest main time, seconds.
        #[arg(long, default_value_t = 10)]
        min_secs: u64,
        /// Longest main time, seconds.
        #[arg(long, default_value_t = 60)]
        max_secs: u64,
        #[arg(long)]
        json: bool,
    },
    /// Recompute ratings from a million synthetic games; leaderboard reads through the gateway.
    Ratings {
        #[arg(long, default_value_t = 1_000_000)]
        games: usize,
        /// Redis URL (default: start a redis-server if one is installed, else read from memory).
        #[arg(long)]
        redis: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// The dead-stone estimator on counted end-of-game positions of the corpus, against GNU Go 3.8 at
    /// level 10 on the same positions: agreement with GNU Go and with `RE[]`, time per position.
    Estimate {
        /// Positions (the first counted records in path order).
        #[arg(long, default_value_t = 100)]
        positions: usize,
        /// Board size.
        #[arg(long, default_value_t = 19)]
        size: u8,
        /// The SGF corpus (default: $WEIQI_CORPUS).
        #[arg(long)]
        corpus: Option<std::path::PathBuf>,
        /// GNU Go's program (`gnugo`: `$WEIQI_GNUGO`, else on `PATH`, else `/usr/games/gnugo` where Debian puts it).
        #[arg(long, default_value = "gnugo")]
        gnugo: String,
        #[arg(long)]
        json: bool,
    },
    /// Fair play on real human games: each position from move 30 analysed once by GNU Go; human and
    /// engine-assisted players (p = 0.3, 0.6, 0.9) assessed with the shipped rule table; the share of
    /// assisted players flagged when at most 1 % of the humans are.
    Fairplay {
        /// Games (the first even 19×19 records of 100 moves or more, in path order).
        #[arg(long, default_value_t = 12)]
        games: usize,
        /// The last move analysed in each game.
        #[arg(long, default_value_t = 150)]
        max_move: u32,
        /// GNU Go's level (1 is fast; 10 is GNU Go's default strength).
        #[arg(long, default_value_t = 1)]
        level: u32,
        /// The SGF corpus (default: $WEIQI_CORPUS).
        #[arg(long)]
        corpus: Option<std::path::PathBuf>,
        /// GNU Go's program (as for `bench estimate`).
        #[arg(long, default_value = "gnugo")]
        gnugo: String,
        #[arg(long)]
        json: bool,
    },
    /// Two real Chromium pages play through the web: click → own board, click → opponent's board,
    /// and the bytes of the game page's first load.
    Web {
        /// Moves to play (both sides together).
        #[arg(long, default_value_t = 50)]
        moves: usize,
        #[arg(long)]
        json: bool,
    },
    /// The Parquet export of a large archive (synthetic archived games in a fresh embedded log):
    /// seconds, games/s and peak memory during the export.
    Export {
        #[arg(long, default_value_t = 1_000_000)]
        games: u64,
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
    /// A simulated Swiss through the real services (game, tournament, process manager, projector):
    /// every game played by simulated players through the game service's client.
    Tournament {
        #[arg(long, default_value_t = 2_000)]
        players: usize,
        #[arg(long, default_value_t = 7)]
        rounds: u32,
        /// NATS server URL (default: the embedded log, in process).
        #[arg(long)]
        nats: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: BenchCommand) -> Result<ExitCode> {
    match command {
        BenchCommand::Rules { games, runs, json } => rules::run(games, runs, json),
        BenchCommand::Estimate { positions, size, corpus, gnugo, json } => {
            estimate::run(corpus, positions, size, gnugo, json)
        }
        BenchCommand::Fairplay { games, max_move, level, corpus, gnugo, json } => {
            fairplay::run(corpus, games, max_move, level, gnugo, json)
        }
        BenchCommand::Export { games, json } => crate::runtime().block_on(export::run(games, json)),
        BenchCommand::Web { moves, json } => crate::runtime().block_on(web::run(moves, json)),
        BenchCommand::Pairing { players, swiss, seed, json } => pairing::run(players, swiss, seed, json),
        BenchCommand::Tournament { players, rounds, nats, json } => {
            crate::runtime().block_on(tournament::run(players, rounds, nats, json))
        }
        BenchCommand::Ratings { games, redis, json } => crate::runtime().block_on(ratings::run(games, redis, json)),
        BenchCommand::Clocks { clocks, nats, min_secs, max_secs, json } => {
            crate::runtime().block_on(clocks::run(clocks, nats, min_secs, max_secs, json))
        }
        BenchCommand::Spectators { watchers, games, rate, seconds, nats, json } => crate::runtime()
            .block_on(spectators::run(spectators::SpectatorArgs { watchers, games, rate, seconds, nats, json })),
        BenchCommand::E2e { games, concurrency, rate, nats, seconds, warmup, size, json } => crate::runtime()
            .block_on(e2e::run(e2e::E2eArgs { games, concurrency, rate, nats, seconds, warmup, size, json })),
    }
}
