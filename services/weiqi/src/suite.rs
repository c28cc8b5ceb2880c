//! Composition: which components run in this process, on which log, bus and read models.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use weiqi_clock_service::{ClockGateway, ClockService};
use weiqi_eventlog::{
    AnyBus, AnyEventLog, EmbeddedConfig, EmbeddedLog, JetStreamConfig, JetStreamLog, LocalBus, NatsBus,
};
use weiqi_game::api::GameApi;
use weiqi_game::client::GameClient;
use weiqi_game::grpc::GameGrpc;
use weiqi_game::service::GameService;
use weiqi_gateway::auth::{Authority, Role};
use weiqi_gateway::info::InfoGateway;
use weiqi_ranking::tournaments::{Classifier, TournamentLog};
use weiqi_ranking::{RankingConfig, RankingGateway, RankingProjector, RankingService};
use weiqi_tournament::grpc::TournamentGateway;
use weiqi_tournament::manager::{ManagerConfig, ProcessManager};
use weiqi_tournament::memory::MemoryReadModel;
use weiqi_tournament::projector::Projector;
use weiqi_tournament::read_model::AnyReadModel;
use weiqi_tournament::redis_model::RedisReadModel;
use weiqi_tournament::service::TournamentService;

use crate::UpArgs;
use crate::shutdown::{GRACE, Shutdown};

/// A service `weiqi up` can leave out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Extra {
    /// The clock service.
    Clock,
    /// The tournament service.
    Tournament,
    /// The ranking service (ratings, registry, certification).
    Ranking,
    /// None of them: only the game service and the gateway.
    None,
}

pub use crate::cmd::source::RatingChoice;

/// A service `weiqi serve` can run alone.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Service {
    /// The game service: commands over NATS request/reply (queue group: run several).
    Game,
    /// The clock service: flags clocks, publishes byo-yomi calls and ticks.
    Clock,
    /// The tournament process manager and read-model projector.
    Tournament,
    /// The ranking service: ratings, player registry, certification cases, and its projector.
    Ranking,
    /// The gRPC gateway, forwarding commands over NATS.
    Gateway,
}

/// The infrastructure one process uses.
pub struct Backbone {
    pub log: AnyEventLog,
    pub bus: AnyBus,
    pub backend: &'static str,
}

impl Backbone {
    /// NATS JetStream if a URL is given, else the embedded log in `data_dir`.
    pub async fn open(args: &UpArgs) -> Result<Backbone> {
        match &args.nats {
            Some(url) => {
                let config = JetStreamConfig { replicas: args.replicas, ..JetStreamConfig::default() };
                // A cluster that is still forming (every service starting at once) times out creating
                // replicated streams: retry for a minute before giving up.
                let deadline = std::time::Instant::now() + Duration::from_secs(60);
                let log = loop {
                    match JetStreamLog::connect(url, config.clone()).await {
                        Ok(log) => break log,
                        Err(e) if std::time::Instant::now() < deadline => {
                            tracing::warn!(error = %e, "NATS JetStream not ready; retrying");
                            tokio::time::sleep(Duration::from_secs(2)).await;
                        }
                        Err(e) => {
                            return Err(e).with_context(|| format!("connecting to NATS JetStream at {url}"));
                        }
                    }
                };
                let bus = NatsBus::new(log.client().clone());
                Ok(Backbone { log: AnyEventLog::JetStream(log), bus: AnyBus::Nats(bus), backend: "nats" })
            }
            None => {
                std::fs::create_dir_all(&args.data_dir)
                    .with_context(|| format!("creating data directory {}", args.data_dir.display()))?;
                let path = args.data_dir.join("events.redb");
                let log = EmbeddedLog::open(&path, EmbeddedConfig::default())
                    .with_context(|| format!("opening the embedded event log {}", path.display()))?;
                Ok(Backbone {
                    log: AnyEventLog::Embedded(log),
                    bus: AnyBus::Local(LocalBus::new()),
                    backend: "embedded",
                })
            }
        }
    }
}

/// The server's token secret: `<data dir>/secret.key`, made on first start (64 hex digits).
pub fn authority(data_dir: &Path) -> Result<Authority> {
    let path = data_dir.join("secret.key");
    std::fs::create_dir_all(data_dir).with_context(|| format!("creating {}", data_dir.display()))?;
    let secret = match std::fs::read_to_string(&path) {
        Ok(text) => hex::decode(text.trim()).with_context(|| format!("{} is not hex", path.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut bytes = Vec::with_capacity(32);
            bytes.extend_from_slice(uuid::Uuid::new_v4().as_bytes());
            bytes.extend_from_slice(uuid::Uuid::new_v4().as_bytes());
            let created = weiqi_ranking::keys::write_once_private(&path, &hex::encode(&bytes))
                .with_context(|| format!("writing {}", path.display()))?;
            if !created {
                // Another process on this data directory made it first: use theirs.
                return authority(data_dir);
            }
            bytes
        }
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    anyhow::ensure!(secret.len() >= 32, "{} holds fewer than 32 bytes", path.display());
    Ok(Authority::new(&secret, "weiqi"))
}

fn trace_fn() -> Arc<dyn Fn() -> Vec<(String, String)> + Send + Sync> {
    Arc::new(weiqi_telemetry::inject_current)
}

fn spawn_eviction(game: Arc<GameService<AnyEventLog>>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            game.evict_idle(Duration::from_secs(30 * 60));
        }
    });
}

/// The tournament read model: Redis if a URL is given, else in memory.
async fn tournament_model(redis: Option<&str>) -> Result<AnyReadModel> {
    Ok(match redis {
        Some(url) => {
            RedisReadModel::connect(url).await.with_context(|| format!("connecting to Redis at {url}"))?.into()
        }
        None => MemoryReadModel::new().into(),
    })
}

/// The background workers of the tournament service: the projector into the read model and the process
/// manager (creates paired games, records results, pairs next rounds).
fn spawn_tournament_workers(
    log: &AnyEventLog,
    tournaments: &Arc<TournamentService<AnyEventLog>>,
    model: &AnyReadModel,
    game: &GameClient,
) {
    tokio::spawn(Arc::new(Projector::new(log.clone(), model.clone())).run());
    let manager = ProcessManager::new(tournaments.clone(), game.clone(), model.clone(), ManagerConfig::default());
    tokio::spawn(Arc::new(manager).run());
}

/// The ranking service over this data directory's association key (`association.key`, made on first
/// start; its public half is `association.key.pub`, what `weiqi cert verify --key` takes).
fn ranking_service(log: &AnyEventLog, args: &UpArgs) -> Result<Arc<RankingService>> {
    let (data_dir, association) = (&args.data_dir, &args.association);
    let key = weiqi_ranking::keys::load_or_create(&data_dir.join("association.key"), association)
        .with_context(|| format!("association key in {}", data_dir.display()))?;
    // Which tournaments count for promotion rules is the association's call (`--event-classes`); without
    // it none do, and rated games still rate.
    let classify: Classifier = crate::event_classes::load(args.event_classes.as_deref())?;
    let results = Arc::new(TournamentLog::new(log.clone(), classify));
    let rules = match &args.promotion_rules {
        Some(dir) => weiqi_ranking::rules_dir::load_rules_dir(dir)
            .with_context(|| format!("promotion rules in {}", dir.display()))?,
        None => weiqi_ranking::shipped_rules(),
    };
    for r in &rules {
        tracing::info!(rule_set = %r.name, ladder = %r.ladder.id, digest = %r.digest, "promotion rules in force");
    }
    let mut config = RankingConfig::new(key, rules);
    config.system = args.rating_system.system();
    Ok(Arc::new(RankingService::new(log.clone(), results, config)))
}

/// The ranking read model: Redis if a URL is given, else in memory.
async fn ranking_model(redis: Option<&str>) -> Result<weiqi_ranking::AnyReadModel> {
    Ok(match redis {
        Some(url) => weiqi_ranking::RedisReadModel::connect(url, "rk:")
            .await
            .map_err(|e| anyhow::anyhow!("connecting to Redis at {url}: {e}"))?
            .into(),
        None => weiqi_ranking::MemoryReadModel::new().into(),
    })
}

/// The tournament service's player directory, backed by the ranking service's registry.
struct Registry(Arc<RankingService>);

impl weiqi_tournament::directory::PlayerDirectory for Registry {
    fn snapshot<'a>(&'a self, account: &'a str) -> weiqi_tournament::directory::Lookup<'a> {
        Box::pin(async move {
            self.0
                .tournament_snapshot(account)
                .await
                .map_err(|e| weiqi_tournament::directory::DirectoryUnavailable(e.to_string()))
        })
    }
}

/// The ranking service's player registry, where the web enters self-registered players.
struct WebRegistry(Arc<RankingService>);

impl weiqi_web::Registry for WebRegistry {
    fn register<'a>(
        &'a self,
        player: &'a str,
        name_zh: &'a str,
        name_latin: &'a str,
        region: &'a str,
        rank: Option<&'a str>,
        by: &'a str,
        request_id: &'a str,
    ) -> futures::future::BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            let profile = weiqi_ranking::domain::Profile {
                id: weiqi_rating::PlayerId(player.to_string()),
                name_zh: name_zh.to_string(),
                name_latin: name_latin.to_string(),
                region: region.to_string(),
                ..Default::default()
            };
            self.0.register_player(profile, rank, by, request_id).await.map(|_| ()).map_err(|e| e.to_string())
        })
    }

    fn profile<'a>(&'a self, player: &'a str) -> futures::future::BoxFuture<'a, Option<(String, String, String)>> {
        Box::pin(async move {
            let entry = self.0.player(&weiqi_rating::PlayerId(player.to_string())).await.ok().flatten()?;
            Some((entry.profile.name_zh, entry.profile.name_latin, entry.profile.region))
        })
    }
}

/// The web's settings from the command line.
fn web_config(args: &UpArgs) -> weiqi_web::WebConfig {
    weiqi_web::WebConfig {
        secure_cookies: args.secure_cookies || args.tls_cert.is_some(),
        streams_per_address: (args.streams_per_address > 0).then_some(args.streams_per_address),
    }
}

/// The web (WEB.md) over this gateway's game RPCs, with its index caught up with the logs.
async fn web(
    backbone: &Backbone,
    auth: &Authority,
    game: &GameClient,
    ranking: (&Arc<RankingService>, &weiqi_ranking::AnyReadModel),
    tournaments: (&Arc<TournamentService<AnyEventLog>>, &AnyReadModel),
    config: weiqi_web::WebConfig,
) -> Result<Arc<weiqi_web::Web>> {
    let (ranking, ranking_model) = ranking;
    // The office, the leaderboards and the certificates call the ranking's API, as its gRPC server does.
    let ranking_api = weiqi_ranking::api::RankingApi::new(ranking.clone(), ranking_model.clone());
    // The desks and the public tournament pages call the tournament's API, as its gRPC server does.
    let (service, model) = tournaments;
    let tournament_api =
        weiqi_tournament::api::TournamentApi::new(service.clone(), model.clone(), Arc::new(Registry(ranking.clone())));
    let roles = Role::ALL.iter().map(|r| r.name().to_string());
    let accounts =
        weiqi_account::AccountService::new(backbone.log.clone(), Arc::new(weiqi_aggregate::SystemEnvironment), roles);
    let games = GameApi::new(game.clone(), backbone.log.clone(), trace_fn());
    let web = weiqi_web::Web::new(
        backbone.log.clone(),
        auth.clone(),
        games,
        accounts,
        weiqi_web::Services {
            registry: Some(Arc::new(WebRegistry(ranking.clone()))),
            tournaments: Some(tournament_api),
            ranking: Some(ranking_api),
        },
        config,
    );
    web.start().await.context("reading the logs for the web's lists")?;
    Ok(web)
}

/// Readiness of this process (`/readyz`, `weiqi_edge::ready`): the event log answers, its followers
/// run and have caught up, and Redis answers when the read models live there. Its gauges refresh
/// every few seconds from now on.
fn readiness(backbone: &Backbone, redis: Option<&str>) -> Result<Arc<weiqi_edge::ready::Readiness>> {
    let mut readiness = weiqi_edge::ready::Readiness::new(backbone.log.clone());
    if let Some(url) = redis {
        let client = redis::Client::open(url).with_context(|| format!("the Redis URL {url}"))?;
        readiness = readiness.with_check(
            "redis",
            Arc::new(move || {
                let client = client.clone();
                Box::pin(async move {
                    let mut c = client.get_multiplexed_async_connection().await.map_err(|e| e.to_string())?;
                    redis::cmd("PING").query_async::<String>(&mut c).await.map(|_| ()).map_err(|e| e.to_string())
                })
            }),
        );
    }
    let readiness = Arc::new(readiness);
    readiness.spawn();
    Ok(readiness)
}

/// The HTTP side of every process: metrics, liveness and readiness.
fn health_routes(readiness: &Arc<weiqi_edge::ready::Readiness>) -> axum::Router {
    weiqi_gateway::server::http_router(weiqi_telemetry::render_metrics).merge(readiness.router())
}

/// The HTTP side of a gateway: the web's pages, overlays and records, metrics and health.
fn http_routes(
    backbone: &Backbone,
    auth: &Authority,
    web: &Arc<weiqi_web::Web>,
    readiness: &Arc<weiqi_edge::ready::Readiness>,
) -> axum::Router {
    let routes = health_routes(readiness)
        .merge(weiqi_web::overlay::router(backbone.log.clone(), auth.clone()))
        .merge(web.router());
    weiqi_edge::headers::compressed(routes)
}

/// The gRPC routes of a gateway: games, identity, clocks, tournaments, ranking.
async fn gateway_routes(
    backbone: &Backbone,
    auth: &Authority,
    game: GameClient,
    tournaments: Arc<TournamentService<AnyEventLog>>,
    model: AnyReadModel,
    ranking: Arc<RankingService>,
    ranking_model: weiqi_ranking::AnyReadModel,
) -> tonic::service::RoutesBuilder {
    let services = [
        "weiqi.v1.GameService",
        "weiqi.v1.GatewayService",
        "weiqi.v1.ClockService",
        "weiqi.v1.TournamentService",
        "weiqi.v1.RankingService",
    ];
    let mut routes = weiqi_gateway::server::base_routes(
        GameGrpc::new(GameApi::new(game, backbone.log.clone(), trace_fn()), auth.clone()),
        InfoGateway::new(auth.clone(), backbone.backend, services.iter().map(|s| s.to_string()).collect()),
    )
    .await;
    routes.add_service(weiqi_proto::v1::clock_service_server::ClockServiceServer::new(ClockGateway::new(
        backbone.log.clone(),
        backbone.bus.clone(),
        auth.clone(),
    )));
    routes.add_service(
        TournamentGateway::new(tournaments, model, auth.clone(), Arc::new(Registry(ranking.clone()))).into_server(),
    );
    routes.add_service(RankingGateway::new(ranking, ranking_model, auth.clone()).into_server());
    routes
}

/// `weiqi up`: every service in this process, until SIGTERM or Ctrl-C (at any stage: see `shutdown.rs`).
pub async fn up(args: UpArgs) -> Result<ExitCode> {
    let shutdown = Shutdown::install();
    match shutdown.bounded(run_up(args, shutdown.clone())).await {
        Some(result) => result,
        None => {
            eprintln!("weiqi: stopped (streams still open were closed after {} s)", GRACE.as_secs());
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Stops at start on a certificate the servers would refuse.
async fn check_tls(args: &UpArgs) -> Result<()> {
    if let Some(tls) = &edge_config(args).tls {
        weiqi_edge::serve::check_tls(tls).await.context("--tls-cert and --tls-key")?;
    }
    Ok(())
}

async fn run_up(args: UpArgs, shutdown: Shutdown) -> Result<ExitCode> {
    let _telemetry = weiqi_telemetry::init("weiqi")?;
    check_tls(&args).await?;
    let backbone = Backbone::open(&args).await?;
    let auth = authority(&args.data_dir)?;
    let game = Arc::new(GameService::new(backbone.log.clone()));
    if let AnyBus::Nats(_) = &backbone.bus {
        // Also answer commands from other processes (gateways started with `weiqi serve gateway`).
        let (svc, bus) = (game.clone(), backbone.bus.clone());
        tokio::spawn(async move { svc.serve(&bus).await });
    }
    spawn_eviction(game.clone());
    let client = GameClient::Local(game);

    if args.services.contains(&Extra::Clock) {
        // The game service runs in this process: while it is down no move can be taken, and the clock
        // heartbeat's file lets the next start excuse that time on every running clock.
        let config = weiqi_clock_service::ClockConfig {
            alive_file: Some(args.data_dir.join("clock.alive")),
            ..weiqi_clock_service::ClockConfig::default()
        };
        let clocks = Arc::new(ClockService::with(
            backbone.log.clone(),
            backbone.bus.clone(),
            client.clone(),
            Arc::new(weiqi_clock_service::SystemClock),
            config,
        ));
        tokio::spawn(clocks.run());
    }
    let tournaments = Arc::new(TournamentService::new(backbone.log.clone()));
    let model = tournament_model(args.redis.as_deref()).await?;
    if args.services.contains(&Extra::Tournament) {
        spawn_tournament_workers(&backbone.log, &tournaments, &model, &client);
    }
    let ranking = ranking_service(&backbone.log, &args)?;
    let rank_model = ranking_model(args.redis.as_deref()).await?;
    if args.services.contains(&Extra::Ranking) {
        tokio::spawn(ranking.clone().run());
        tokio::spawn(Arc::new(RankingProjector::new(backbone.log.clone(), rank_model.clone())).run());
    }

    let ready = readiness(&backbone, args.redis.as_deref())?;
    let grpc = weiqi_gateway::server::bind(args.grpc).await?;
    let http = weiqi_gateway::server::bind(args.http).await?;
    let web =
        web(&backbone, &auth, &client, (&ranking, &rank_model), (&tournaments, &model), web_config(&args)).await?;
    let routes = gateway_routes(&backbone, &auth, client, tournaments, model, ranking, rank_model).await;
    print_web(&args, &web);
    if !args.quiet {
        print_quick_start(&args, &auth, backbone.backend);
    }
    let edge = edge_config(&args);
    // The embedded log's file is this process's: a live backup is asked of it (`GET /admin/backup`).
    let backups = crate::cmd::backup::http::router(
        backbone.log.clone(),
        auth.clone(),
        crate::cmd::backup::source_of(args.nats.as_deref(), &args.data_dir),
        args.data_dir.clone(),
    );
    // Either server failing (a certificate refused, say) stops the process with its reason.
    tokio::try_join!(
        serve_grpc(routes, grpc, &edge, shutdown.signalled()),
        serve_http(http_routes(&backbone, &auth, &web, &ready).merge(backups), http, &edge, shutdown.signalled()),
    )?;
    eprintln!("weiqi: stopped");
    Ok(ExitCode::SUCCESS)
}

/// `weiqi serve <service>`: one service against NATS, until SIGTERM or Ctrl-C.
pub async fn serve(service: Service, args: UpArgs) -> Result<ExitCode> {
    anyhow::ensure!(args.nats.is_some(), "`weiqi serve` needs --nats URL (use `weiqi up` for a single process)");
    let shutdown = Shutdown::install();
    match shutdown.bounded(run_serve(service, args, shutdown.clone())).await {
        Some(result) => result,
        None => {
            eprintln!("weiqi: stopped (streams still open were closed after {} s)", GRACE.as_secs());
            Ok(ExitCode::SUCCESS)
        }
    }
}

async fn run_serve(service: Service, args: UpArgs, shutdown: Shutdown) -> Result<ExitCode> {
    let shutdown_signal = || shutdown.signalled();
    let _telemetry = weiqi_telemetry::init(&format!("weiqi-{service:?}").to_lowercase())?;
    check_tls(&args).await?;
    let backbone = Backbone::open(&args).await?;
    let remote_game = GameClient::Bus(backbone.bus.clone(), Duration::from_secs(10));
    let ready = readiness(&backbone, args.redis.as_deref())?;
    if !matches!(service, Service::Gateway) {
        // Every service answers /healthz, /readyz and /metrics on --http, for probes and Prometheus.
        let http = weiqi_gateway::server::bind(args.http).await?;
        let (edge, routes, stop) = (edge_config(&args), health_routes(&ready), shutdown_signal());
        tokio::spawn(async move {
            if let Err(e) = serve_http(routes, http, &edge, stop).await {
                tracing::error!(error = %e, "the HTTP side stopped");
            }
        });
    }
    match service {
        Service::Game => {
            let game = Arc::new(GameService::new(backbone.log.clone()));
            spawn_eviction(game.clone());
            eprintln!("weiqi: game service on NATS, queue group weiqi.games");
            tokio::select! {
                r = game.serve(&backbone.bus) => r.context("serving game commands")?,
                _ = shutdown_signal() => {}
            }
        }
        Service::Clock => {
            let clocks = Arc::new(ClockService::new(backbone.log.clone(), backbone.bus.clone(), remote_game));
            eprintln!("weiqi: clock service on NATS");
            tokio::select! {
                _ = clocks.run() => {}
                _ = shutdown_signal() => {}
            }
        }
        Service::Tournament => {
            let tournaments = Arc::new(TournamentService::new(backbone.log.clone()));
            let model = tournament_model(args.redis.as_deref()).await?;
            spawn_tournament_workers(&backbone.log, &tournaments, &model, &remote_game);
            eprintln!("weiqi: tournament process manager and projector on NATS");
            shutdown_signal().await;
        }
        Service::Ranking => {
            let ranking = ranking_service(&backbone.log, &args)?;
            let rank_model = ranking_model(args.redis.as_deref()).await?;
            tokio::spawn(Arc::new(RankingProjector::new(backbone.log.clone(), rank_model)).run());
            eprintln!("weiqi: ranking service on NATS");
            tokio::select! {
                _ = ranking.run() => {}
                _ = shutdown_signal() => {}
            }
        }
        Service::Gateway => {
            let auth = authority(&args.data_dir)?;
            let tournaments = Arc::new(TournamentService::new(backbone.log.clone()));
            let model = tournament_model(args.redis.as_deref()).await?;
            let ranking = ranking_service(&backbone.log, &args)?;
            let rank_model = ranking_model(args.redis.as_deref()).await?;
            if args.redis.is_none() {
                // Without a shared Redis, this gateway keeps its own read models up to date.
                tokio::spawn(Arc::new(Projector::new(backbone.log.clone(), model.clone())).run());
                tokio::spawn(Arc::new(RankingProjector::new(backbone.log.clone(), rank_model.clone())).run());
            }
            let grpc = weiqi_gateway::server::bind(args.grpc).await?;
            let http = weiqi_gateway::server::bind(args.http).await?;
            let web =
                web(&backbone, &auth, &remote_game, (&ranking, &rank_model), (&tournaments, &model), web_config(&args))
                    .await?;
            let routes = gateway_routes(&backbone, &auth, remote_game, tournaments, model, ranking, rank_model).await;
            eprintln!("weiqi: gateway on {} (gRPC, gRPC-web), HTTP on {}", args.grpc, args.http);
            print_web(&args, &web);
            let edge = edge_config(&args);
            tokio::try_join!(
                serve_grpc(routes, grpc, &edge, shutdown_signal()),
                serve_http(http_routes(&backbone, &auth, &web, &ready), http, &edge, shutdown_signal()),
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The gRPC address `weiqi up` and `weiqi play` use by default.
pub const DEFAULT_GRPC: &str = "127.0.0.1:50051";

/// Tokens the quick start hands out: (subject, roles, what for).
pub const DEMO_ACCOUNTS: &[(&str, &[Role], &str)] = &[
    ("alice", &[Role::Player], "player"),
    ("bob", &[Role::Player], "player"),
    ("referee", &[Role::Referee], "referee of every event"),
    ("organiser", &[Role::Organiser], "organiser of every event"),
    ("broadcaster", &[Role::Broadcaster], "reads games and clocks"),
    ("reviewer", &[Role::Reviewer], "rank certification reviewer"),
];

/// Serves gRPC as `edge` says (TLS, limits).
async fn serve_grpc(
    routes: tonic::service::RoutesBuilder,
    listener: tokio::net::TcpListener,
    edge: &weiqi_edge::serve::EdgeConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<()> {
    weiqi_edge::serve::serve_grpc_with(routes, listener, edge, shutdown).await.context("the gRPC server")
}

/// Serves the HTTP side, over TLS when `edge` has it.
async fn serve_http(
    router: axum::Router,
    listener: tokio::net::TcpListener,
    edge: &weiqi_edge::serve::EdgeConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<()> {
    weiqi_edge::serve::serve_http_with(router, listener, edge.tls.as_ref(), shutdown).await.context("the HTTP server")
}

/// TLS and limits of this process's edges, from its arguments.
fn edge_config(args: &UpArgs) -> weiqi_edge::serve::EdgeConfig {
    use weiqi_edge::limits::{Limits, Rate};
    weiqi_edge::serve::EdgeConfig {
        tls: args
            .tls_cert
            .clone()
            .zip(args.tls_key.clone())
            .map(|(cert, key)| weiqi_edge::serve::TlsFiles { cert, key }),
        limits: Limits {
            per_token: Rate::per_second(args.rate_per_token),
            per_address: Rate::per_second(args.rate_per_address),
            open_per_token: (args.open_per_token > 0).then_some(args.open_per_token),
            open_per_address: (args.streams_per_address > 0).then_some(args.streams_per_address),
        },
    }
}

/// `https` when this process serves TLS itself or sits behind a proxy that does (`--secure-cookies`).
fn scheme(args: &UpArgs) -> &'static str {
    if args.secure_cookies || args.tls_cert.is_some() { "https" } else { "http" }
}

/// The web's address and, while no administrator exists, the one-time link that creates the first
/// one. Printed even with `--quiet` (scripts and tests read them).
fn print_web(args: &UpArgs, web: &weiqi_web::Web) {
    let scheme = scheme(args);
    let host =
        if args.http.ip().is_unspecified() { format!("127.0.0.1:{}", args.http.port()) } else { args.http.to_string() };
    println!("weiqi: home page {scheme}://{host}/");
    if let Some(path) = web.first_admin_path() {
        println!("weiqi: create the first administrator: {scheme}://{host}{path}");
    }
}

fn print_quick_start(args: &UpArgs, auth: &Authority, backend: &str) {
    let ttl = Duration::from_secs(30 * 24 * 3600);
    let scheme = scheme(args);
    let server = format!("{scheme}://{}", args.grpc);
    let plaintext = if args.tls_cert.is_some() { "" } else { "-plaintext " };
    println!("weiqi {} is up ({backend} backend, data in {})", env!("CARGO_PKG_VERSION"), args.data_dir.display());
    println!("  gRPC + gRPC-web  {server}   (reflection on: try `grpcurl {plaintext}{} list`)", args.grpc);
    println!("  HTTP             {scheme}://{}/metrics  /healthz  /readyz  /overlay/<GAME>?token=…", args.http);
    println!();
    println!("Tokens (valid 30 days; `weiqi token --help` makes more):");
    for (sub, roles, what) in DEMO_ACCOUNTS {
        let events: &[&str] =
            if roles.iter().any(|r| matches!(r, Role::Referee | Role::Organiser)) { &["*"] } else { &[] };
        let token = auth.issue(sub, roles, events, ttl);
        let var = format!("WEIQI_TOKEN_{}", sub.to_uppercase());
        println!("  export {var}={token}   # {sub}: {what}");
    }
    println!();
    // `weiqi play` reaches 127.0.0.1:50051 unless told otherwise: name the server when it listens elsewhere.
    let to = if args.grpc.to_string() == DEFAULT_GRPC { String::new() } else { format!(" --server {server}") };
    println!("Play a game from another terminal:");
    println!("  weiqi play new{to} --token $WEIQI_TOKEN_ORGANISER --black alice --white bob --size 9");
    println!("  weiqi play move{to} <GAME> E5 --token $WEIQI_TOKEN_ALICE");
    println!("  weiqi play watch{to} <GAME> --token $WEIQI_TOKEN_BROADCASTER");
    println!(
        "Broadcast overlay (a browser source): {scheme}://{}/overlay/<GAME>?token=$WEIQI_TOKEN_BROADCASTER",
        args.http
    );
    println!("Stop with Ctrl-C.");
}
