//! The harness of `weiqi bench ratings [--json]`.
//!
//! 1. Generates `games` synthetic historical games (seeded; `weiqi_rating::synthetic_history`, about
//!    50 games per player) and times the recompute of default Glicko-2 ratings over them
//!    (`recompute_seconds`; generation is not timed).
//! 2. Projects every player of the resulting book into a read model: Redis at `redis_url` if given,
//!    else a `redis-server` started by the testkit if one is installed, else memory
//!    ([`BenchReport::backend`] says which).
//! 3. Serves `weiqi.v1.RankingService` in process (the gateway's `serve_grpc` on a loopback port),
//!    reads leaderboard pages of 50 through a gRPC client, cycling over the overall, band and region
//!    boards, and reports the 99th percentile (`leaderboard_p99_ms`).
//!
//! The JSON report has exactly the keys `games`, `recompute_seconds`, `leaderboard_p99_ms`; the other
//! fields are for the table.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use weiqi_edge::auth::Authority;
use weiqi_eventlog::{AnyEventLog, EmbeddedConfig, EmbeddedLog};
use weiqi_proto::v1 as pb;
use weiqi_rating::{AssociationKey, Ladder, Millis, PlayerId, RankMapping, RatingBook, RatingSystem};

use weiqi_ranking::domain::{Profile, RankBasis, RankEntry, RatingPoint};
use weiqi_ranking::readmodel::{AnyReadModel, Change, MemoryReadModel, ReadModel, RedisReadModel};
use weiqi_ranking::tournaments::NoTournaments;
use weiqi_ranking::{RankingConfig, RankingGateway, RankingService};

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Synthetic games to recompute.
    pub games: usize,
    /// Seed of the synthetic history.
    pub seed: u64,
    /// Redis to project into; `None`: start one with the testkit if possible, else memory.
    pub redis_url: Option<String>,
    /// Whether to try starting a `redis-server` when no URL is given.
    pub start_redis: bool,
    /// Leaderboard reads measured (after a warm-up of a tenth as many).
    pub reads: usize,
    /// Page size of each read.
    pub page: u32,
    /// Serve with `TCP_NODELAY` on accepted connections (the gateway's `serve_grpc` stack otherwise
    /// unchanged); `false` calls `weiqi_edge::serve::serve_grpc` as it stands, whose accepted
    /// sockets keep Nagle's algorithm and so wait for the client's delayed ACK (about 40 ms).
    pub tcp_nodelay: bool,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            games: 1_000_000,
            seed: 42,
            redis_url: None,
            start_redis: true,
            reads: 5_000,
            page: 50,
            tcp_nodelay: true,
        }
    }
}

/// The figures. Serialises to exactly `games`, `recompute_seconds`, `leaderboard_p99_ms`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    /// Games recomputed.
    pub games: usize,
    /// Wall time of the recompute.
    pub recompute_seconds: f64,
    /// 99th percentile of one leaderboard read through the gateway, milliseconds.
    pub leaderboard_p99_ms: f64,
    /// `redis` or `memory`.
    #[serde(skip)]
    pub backend: String,
    /// Players in the book (and on the boards).
    #[serde(skip)]
    pub players: usize,
    /// Median leaderboard read, milliseconds.
    #[serde(skip)]
    pub leaderboard_p50_ms: f64,
    /// Leaderboard reads measured.
    #[serde(skip)]
    pub reads: usize,
}

/// Why the benchmark could not run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The recompute refused an input (a bug: the history is generated).
    #[error("recompute: {0}")]
    Recompute(String),
    /// The read model failed.
    #[error("read model: {0}")]
    ReadModel(#[from] weiqi_ranking::readmodel::ReadModelError),
    /// The in-process gateway or its client failed.
    #[error("gateway: {0}")]
    Gateway(String),
}

const REGIONS: [&str; 8] = ["beijing", "shanghai", "guangdong", "sichuan", "zhejiang", "jiangsu", "hubei", "shandong"];

/// Runs the benchmark (see the module doc).
///
/// # Errors
/// [`BenchError`] when a part cannot run.
pub async fn run(config: BenchConfig) -> Result<BenchReport, BenchError> {
    let (games, seed) = (config.games, config.seed);
    let (book, recompute_seconds) = tokio::task::spawn_blocking(move || {
        let history = weiqi_rating::synthetic_history(games, weiqi_rating::bench_players(games), seed);
        let started = Instant::now();
        let book = weiqi_rating::recompute_games(RatingSystem::default(), &history);
        let seconds = started.elapsed().as_secs_f64();
        book.map(|b| (b, seconds)).map_err(|e| BenchError::Recompute(e.to_string()))
    })
    .await
    .map_err(|e| BenchError::Recompute(e.to_string()))??;

    // Keep a started redis-server alive until the end.
    let mut _redis_server = None;
    let model: AnyReadModel = match (&config.redis_url, config.start_redis) {
        (Some(url), _) => RedisReadModel::connect(url, "bench:").await?.into(),
        (None, true) => match weiqi_testkit::RedisServer::start() {
            Ok(server) => {
                let model = RedisReadModel::connect(&server.url(), "bench:").await?;
                _redis_server = Some(server);
                model.into()
            }
            Err(_) => MemoryReadModel::new().into(),
        },
        (None, false) => MemoryReadModel::new().into(),
    };
    model.clear().await?;
    project(&model, &book).await?;

    let p = measure(&model, &config).await?;
    Ok(BenchReport {
        games,
        recompute_seconds,
        leaderboard_p99_ms: p.1,
        backend: model.backend().to_owned(),
        players: book.player_count(),
        leaderboard_p50_ms: p.0,
        reads: config.reads,
    })
}

/// Projects every player of the book: a profile, a grade from the rating, the rating.
async fn project(model: &AnyReadModel, book: &RatingBook) -> Result<(), BenchError> {
    let mapping = RankMapping::linear("glicko2", &Ladder::amateur(), 25, 2100.0, 100.0, Some(31));
    let now = Millis(1_735_689_600_000);
    let mut batch = Vec::with_capacity(3_000);
    let mut position = 0u64;
    for (n, (player, r)) in book.iter().enumerate() {
        let id = player.0.clone();
        let grade = mapping.grade_for(r.rating).map(str::to_owned);
        let mut tag = |c: Change| {
            position += 1;
            batch.push((position, c));
        };
        tag(Change::Profile(Profile {
            id: PlayerId(id.clone()),
            name_zh: format!("棋手{n}"),
            name_latin: format!("Player {n}"),
            region: REGIONS[n % REGIONS.len()].to_owned(),
            club: format!("club-{}", n % 97),
            egd_pin: String::new(),
        }));
        tag(Change::Rank {
            player: id.clone(),
            entry: RankEntry {
                ladder: "amateur".into(),
                grade,
                grade_name: String::new(),
                previous: None,
                basis: RankBasis::Declared,
                case: None,
                serial: None,
                reason: String::new(),
                at: now,
            },
        });
        tag(Change::Rating {
            player: id,
            point: RatingPoint {
                system: "glicko2".into(),
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
                games: r.games,
                provisional: r.deviation > 110.0,
                rating_before: r.rating,
                deviation_before: r.deviation,
                game: None,
                period: r.period,
                open_period: false,
                tournament: None,
                ledger_sequence: 1,
                at: now,
            },
        });
        if batch.len() >= 3_000 {
            model.apply(&batch).await?;
            batch.clear();
        }
    }
    model.apply(&batch).await?;
    Ok(())
}

/// Serves the gateway in process and measures leaderboard reads: `(p50, p99)` in milliseconds.
async fn measure(model: &AnyReadModel, config: &BenchConfig) -> Result<(f64, f64), BenchError> {
    let gateway_error = |e: &dyn std::fmt::Display| BenchError::Gateway(e.to_string());
    let dir = std::env::temp_dir().join(format!(
        "weiqi-bench-ratings-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| gateway_error(&e))?;
    let log: AnyEventLog =
        EmbeddedLog::open(dir.join("events.redb"), EmbeddedConfig::default()).map_err(|e| gateway_error(&e))?.into();
    let key = AssociationKey::from_seed("bench", [1; 32]).map_err(|e| gateway_error(&e))?;
    let service = Arc::new(RankingService::new(log, Arc::new(NoTournaments), RankingConfig::new(key, Vec::new())));
    let auth = Authority::new(b"bench-secret-of-at-least-32-bytes!!", "weiqi-bench");
    let gateway = RankingGateway::new(service, model.clone(), auth);
    let mut routes = tonic::service::RoutesBuilder::default();
    routes.add_service(gateway.into_server());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(|e| gateway_error(&e))?;
    let addr = listener.local_addr().map_err(|e| gateway_error(&e))?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async {
        let _ = stopped.await;
    };
    let server = if config.tcp_nodelay {
        tokio::spawn(serve_nodelay(routes, listener, shutdown))
    } else {
        tokio::spawn(weiqi_edge::serve::serve_grpc(routes, listener, shutdown))
    };
    let result = async {
        let mut client = pb::ranking_service_client::RankingServiceClient::connect(format!("http://{addr}"))
            .await
            .map_err(|e| gateway_error(&e))?;
        let boards = [("", ""), ("sdk", ""), ("", "shanghai"), ("dan", "beijing"), ("ddk", "")];
        let mut histogram =
            hdrhistogram::Histogram::<u64>::new_with_bounds(1, 60_000_000, 3).map_err(|e| gateway_error(&e))?;
        let warm_up = (config.reads / 10).max(10);
        for i in 0..warm_up + config.reads {
            let (band, region) = boards[i % boards.len()];
            let request = pb::LeaderboardRequest {
                band: band.into(),
                region: region.into(),
                offset: u32::try_from((i * 7) % 200).unwrap_or(0),
                limit: config.page,
                min_position: 0,
            };
            let started = Instant::now();
            let page = client.leaderboard(request).await.map_err(|e| gateway_error(&e))?.into_inner();
            let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX).max(1);
            if page.entries.is_empty() && page.total > 200 {
                return Err(BenchError::Gateway("an empty page of a full board".into()));
            }
            if i >= warm_up {
                histogram.saturating_record(micros);
            }
        }
        Ok((histogram.value_at_quantile(0.5) as f64 / 1000.0, histogram.value_at_quantile(0.99) as f64 / 1000.0))
    }
    .await;
    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(5), server).await;
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// `weiqi_edge::serve::serve_grpc` with `TCP_NODELAY` set on every accepted connection.
async fn serve_nodelay(
    routes: tonic::service::RoutesBuilder,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), tonic::transport::Error> {
    let incoming = tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
    tonic::transport::Server::builder()
        .accept_http1(true)
        .layer(tonic_web::GrpcWebLayer::new())
        .add_routes(routes.routes())
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_has_exactly_the_issue_keys() {
        let report = BenchReport {
            games: 10,
            recompute_seconds: 0.5,
            leaderboard_p99_ms: 1.25,
            backend: "memory".into(),
            players: 3,
            leaderboard_p50_ms: 0.5,
            reads: 7,
        };
        let json = serde_json::to_value(&report).unwrap();
        let mut keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["games", "leaderboard_p99_ms", "recompute_seconds"]);
    }
}
