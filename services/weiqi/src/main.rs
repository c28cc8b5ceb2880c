//! `weiqi`: one binary for the whole suite.
//!
//! * `weiqi up` runs every service in one process on an embedded event log (or on NATS/Redis).
//! * `weiqi serve <service>` runs one service against NATS, for multi-process deployments.
//! * `weiqi play …` is a small gRPC client; `weiqi token` issues tokens.
//! * `weiqi gtp`, `weiqi sgf check|score`, `weiqi cert verify` are offline tools.
//! * `weiqi bench …` measures whole paths; every bench prints a table and, with `--json`, one JSON
//!   object on its last line.

// The benchmarks drive real browsers and servers through the test kit: built only with `--features
// bench` (and for this crate's own tests), so the shipped binary carries no test code.
#[cfg(any(feature = "bench", test))]
mod bench;
mod cmd;
mod event_classes;

/// mimalloc instead of the system allocator: a server handling thousands of small requests a second spends
/// a fifth of its time in glibc's malloc otherwise (measured with perf under `weiqi bench e2e`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(any(feature = "bench", test))]
mod output;
mod shutdown;
mod suite;

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "weiqi",
    version,
    about = "A Go (weiqi/baduk) platform for associations: games, clocks, tournaments, ranks"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every service in one process (embedded log and in-memory read models unless --nats/--redis).
    Up(UpArgs),
    /// Run one service against NATS (for multi-process and k8s deployments).
    Serve(ServeArgs),
    /// A small client: create a game, play moves, watch.
    Play(cmd::play::PlayArgs),
    /// Issue a token signed with this data directory's secret.
    Token(cmd::token::TokenArgs),
    /// Accounts: add, disable, enable, grant and revoke roles.
    Account(cmd::account::AccountArgs),
    /// Connect a GTP engine (GNU Go, KataGo, Pachi, `weiqi gtp`) to the platform as a player.
    Bot(cmd::bot::BotArgs),
    /// A GTP version 2 engine on stdin/stdout.
    Gtp(cmd::gtp::GtpArgs),
    /// SGF tools.
    #[command(subcommand)]
    Sgf(cmd::sgf::SgfCommand),
    /// Statistics of games: win rates by colour, komi, handicap and rank difference, lengths,
    /// openings, results by reason (SGF files, or the archive in the event log).
    Stats(cmd::stats::StatsArgs),
    /// Data for analysts.
    #[command(subcommand)]
    Export(ExportCommand),
    /// Back up every kind of the event log (games, tournaments, players, cases, accounts, settings,
    /// the archive) to one compressed, checksummed file: a consistent cut at the log's heads when it
    /// starts, streamed (JetStream: while the platform runs; the embedded log belongs to a running
    /// `weiqi up`, which serves the same file to an administrator at `GET /admin/backup`).
    Backup(cmd::backup::BackupArgs),
    /// Write a backup file into an EMPTY event log (embedded or JetStream), exactly as it was: the
    /// file is checked first, then written, then read back and every aggregate replayed. Also how an
    /// association moves from `weiqi up` to a NATS cluster.
    Restore(cmd::backup::RestoreArgs),
    /// Rank certificates.
    #[command(subcommand)]
    Cert(cmd::cert::CertCommand),
    /// Benchmarks of whole paths.
    #[cfg(any(feature = "bench", test))]
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// Benchmarks of whole paths: not in this build (`cargo build --release -p weiqi --features bench`).
    #[cfg(not(any(feature = "bench", test)))]
    Bench {
        /// What would have been benchmarked.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// Where the suite keeps its data and listens.
#[derive(Args, Clone, Debug)]
pub struct UpArgs {
    /// Data directory: the embedded event log and the server's secrets.
    #[arg(long, default_value = "./weiqi-data", env = "WEIQI_DATA_DIR")]
    pub data_dir: PathBuf,
    /// gRPC (and gRPC-web) address.
    #[arg(long, default_value = "127.0.0.1:50051", env = "WEIQI_GRPC_ADDR")]
    pub grpc: SocketAddr,
    /// HTTP address (metrics, health).
    #[arg(long, default_value = "127.0.0.1:8080", env = "WEIQI_HTTP_ADDR")]
    pub http: SocketAddr,
    /// NATS server URL: use JetStream for the logs instead of the embedded log.
    #[arg(long, env = "WEIQI_NATS_URL")]
    pub nats: Option<String>,
    /// JetStream stream replicas (3 on a 3-node NATS cluster; 1 on a single server).
    #[arg(long, default_value_t = 1, env = "WEIQI_STREAM_REPLICAS")]
    pub replicas: usize,
    /// Redis URL: keep read models in Redis instead of memory.
    #[arg(long, env = "WEIQI_REDIS_URL")]
    pub redis: Option<String>,
    /// Do not print the quick start.
    #[arg(long)]
    pub quiet: bool,
    /// The web is served over TLS (directly or behind a proxy): mark its cookies `Secure`. Implied
    /// by --tls-cert.
    #[arg(long, env = "WEIQI_SECURE_COOKIES")]
    pub secure_cookies: bool,
    /// Serve gRPC and HTTP over TLS with this certificate chain (PEM, leaf first); with --tls-key.
    #[arg(long, env = "WEIQI_TLS_CERT", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM: PKCS#8, PKCS#1 or SEC1).
    #[arg(long, env = "WEIQI_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// gRPC requests a second one token may make (bursts of twice that); 0: no limit.
    #[arg(long, default_value_t = 50, env = "WEIQI_RATE_PER_TOKEN")]
    pub rate_per_token: u32,
    /// gRPC requests a second one address may make (bursts of twice that); 0: no limit. Behind a
    /// proxy every caller has the proxy's address: raise it, or limit at the proxy.
    #[arg(long, default_value_t = 500, env = "WEIQI_RATE_PER_ADDRESS")]
    pub rate_per_address: u32,
    /// gRPC calls (streams: Watch, WatchClock, MyGames) one token may hold open at once; 0: no limit.
    #[arg(long, default_value_t = 32, env = "WEIQI_OPEN_PER_TOKEN")]
    pub open_per_token: u32,
    /// Public streams (live game pages of viewers not signed in, gRPC Watch without a token) one
    /// address may hold open at once; 0: no limit. Generous: a school's pupils share one address;
    /// behind a proxy, raise it.
    #[arg(long, default_value_t = 2_000, env = "WEIQI_STREAMS_PER_ADDRESS")]
    pub streams_per_address: u32,
    /// Which services run besides the game service and the gateway (default: all of them). The
    /// end-to-end benchmark runs `--services none` to measure the move path alone.
    #[arg(long, value_delimiter = ',', default_value = "clock,tournament,ranking")]
    pub services: Vec<suite::Extra>,
    /// The association whose key signs rank certificates (`<data dir>/association.key`).
    #[arg(long, default_value = "cwa", env = "WEIQI_ASSOCIATION")]
    pub association: String,
    /// Which tournaments count for promotion rules, and as what (TOML; see
    /// `services/weiqi/event-classes.example.toml`). Without it, tournaments only rate their games.
    #[arg(long, env = "WEIQI_EVENT_CLASSES")]
    pub event_classes: Option<PathBuf>,
    /// The rating system of the ranking service. Each system keeps its own ledger: switching rates
    /// every rated game in the logs again under the new system, from the first.
    #[arg(long, value_enum, default_value = "glicko2", env = "WEIQI_RATING_SYSTEM")]
    pub rating_system: suite::RatingChoice,
    /// Promotion and ladder rules: every `*.toml` in this directory (one file per ladder; see
    /// `shared/rating/rules/` for the format), validated at start. Without it, the built-in example
    /// rules. A changed rule set applies to cases opened after the change.
    #[arg(long, env = "WEIQI_PROMOTION_RULES")]
    pub promotion_rules: Option<PathBuf>,
}

#[derive(Subcommand)]
enum ExportCommand {
    /// Apache Parquet files for analysts: `games.parquet`, `moves.parquet`, `results.parquet` (the
    /// schema is in `services/weiqi/src/cmd/parquet.rs` and ARCHITECTURE.md). Reads NATS JetStream
    /// (`--nats`) or the embedded log of `--data-dir` (stop `weiqi up` first).
    Parquet {
        /// The directory to write the files into (made if missing).
        #[arg(long, short)]
        out: PathBuf,
        /// NATS server URL.
        #[arg(long, env = "WEIQI_NATS_URL")]
        nats: Option<String>,
        /// Data directory of the embedded log.
        #[arg(long, default_value = "./weiqi-data", env = "WEIQI_DATA_DIR")]
        data_dir: PathBuf,
        /// Print one JSON object: games, moves, results, archived, live, seconds.
        #[arg(long)]
        json: bool,
        /// Whose ratings fill `black_rating` and `white_rating`: the rating system whose ledger is
        /// read (as `weiqi up --rating-system`).
        #[arg(long, value_enum, default_value = "glicko2", env = "WEIQI_RATING_SYSTEM")]
        rating_system: suite::RatingChoice,
    },
}

#[derive(Args)]
struct ServeArgs {
    /// Which service.
    #[arg(value_enum)]
    service: suite::Service,
    #[command(flatten)]
    up: UpArgs,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Up(args) => serve_until_stopped(suite::up(args)),
        Command::Serve(args) => serve_until_stopped(suite::serve(args.service, args.up)),
        Command::Play(args) => runtime().block_on(cmd::play::run(args)),
        Command::Token(args) => cmd::token::run(args),
        Command::Gtp(args) => cmd::gtp::run(args),
        Command::Account(args) => runtime().block_on(cmd::account::run(args)),
        Command::Bot(args) => serve_until_stopped(cmd::bot::run(args)),
        Command::Sgf(c) => cmd::sgf::run(c),
        Command::Cert(c) => cmd::cert::run(c),
        Command::Stats(args) => cmd::stats::run(args),
        Command::Export(ExportCommand::Parquet { out, nats, data_dir, json, rating_system }) => {
            runtime().block_on(async {
                let log = cmd::source::open_log(nats.as_deref(), &data_dir, false).await?;
                cmd::parquet::run(log, &out, &rating_system.system(), json).await?;
                Ok(std::process::ExitCode::SUCCESS)
            })
        }
        Command::Backup(args) => runtime().block_on(cmd::backup::run_backup(args)),
        Command::Restore(args) => runtime().block_on(cmd::backup::run_restore(args)),
        #[cfg(any(feature = "bench", test))]
        Command::Bench(b) => bench::run(b),
        #[cfg(not(any(feature = "bench", test)))]
        Command::Bench { .. } => Err(anyhow::anyhow!(
            "this weiqi was built without its benchmarks (they drive browsers and servers through the test \
             kit); build them with: cargo build --release -p weiqi --features bench"
        )),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Runs a server to its end, then drops the runtime without waiting on work that would outlive it (a
/// blocking read of the embedded log, a follower still catching up): stopping must take seconds.
fn serve_until_stopped(
    server: impl std::future::Future<Output = anyhow::Result<std::process::ExitCode>>,
) -> anyhow::Result<std::process::ExitCode> {
    let runtime = runtime();
    let result = runtime.block_on(server);
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    result
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime starts")
}
