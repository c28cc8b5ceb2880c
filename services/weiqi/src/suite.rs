//! Composition: which components run in this process, on which log, bus and read models.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use weiqi_eventlog::{
    AnyBus, AnyEventLog, EmbeddedConfig, EmbeddedLog, JetStreamConfig, JetStreamLog, LocalBus, NatsBus,
};
use weiqi_game::client::GameClient;
use weiqi_game::service::GameService;
use weiqi_gateway::auth::{Authority, Role};
use weiqi_gateway::game::GameGateway;
use weiqi_gateway::info::InfoGateway;

use crate::UpArgs;

/// A service `weiqi serve` can run alone.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Service {
    /// The game service: commands over NATS request/reply.
    Game,
    /// The gRPC gateway, forwarding game commands over NATS.
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
                let log = JetStreamLog::connect(url, JetStreamConfig::default())
                    .await
                    .with_context(|| format!("connecting to NATS JetStream at {url}"))?;
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
            write_private(&path, &hex::encode(&bytes))?;
            bytes
        }
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    anyhow::ensure!(secret.len() >= 32, "{} holds fewer than 32 bytes", path.display());
    Ok(Authority::new(&secret, "weiqi"))
}

fn write_private(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

fn trace_fn() -> Arc<dyn Fn() -> Vec<(String, String)> + Send + Sync> {
    Arc::new(weiqi_telemetry::inject_current)
}

async fn shutdown_signal() {
    let _ = tokio::signal::ctrl_c().await;
}

/// `weiqi up`: every service in this process.
pub async fn up(args: UpArgs) -> Result<ExitCode> {
    let _telemetry = weiqi_telemetry::init("weiqi")?;
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
    let grpc = weiqi_gateway::server::bind(args.grpc).await?;
    let http = weiqi_gateway::server::bind(args.http).await?;
    let services = vec!["weiqi.v1.GameService".to_string(), "weiqi.v1.GatewayService".to_string()];
    let routes = weiqi_gateway::server::base_routes(
        GameGateway::new(client, backbone.log.clone(), auth.clone(), trace_fn()),
        InfoGateway::new(auth.clone(), backbone.backend, services),
    )
    .await;
    if !args.quiet {
        print_quick_start(&args, &auth, backbone.backend);
    }
    let grpc_task = tokio::spawn(weiqi_gateway::server::serve_grpc(routes, grpc, shutdown_signal()));
    let http_task = tokio::spawn(weiqi_gateway::server::serve_http(
        weiqi_gateway::server::http_router(weiqi_telemetry::render_metrics),
        http,
        shutdown_signal(),
    ));
    grpc_task.await?.context("gRPC server")?;
    http_task.await?.context("HTTP server")?;
    eprintln!("weiqi: stopped");
    Ok(ExitCode::SUCCESS)
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

/// `weiqi serve <service>`: one service against NATS.
pub async fn serve(service: Service, args: UpArgs) -> Result<ExitCode> {
    anyhow::ensure!(args.nats.is_some(), "`weiqi serve` needs --nats URL (use `weiqi up` for a single process)");
    let _telemetry = weiqi_telemetry::init(&format!("weiqi-{service:?}").to_lowercase())?;
    let backbone = Backbone::open(&args).await?;
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
        Service::Gateway => {
            let auth = authority(&args.data_dir)?;
            let client = GameClient::Bus(backbone.bus.clone(), Duration::from_secs(10));
            let grpc = weiqi_gateway::server::bind(args.grpc).await?;
            let routes = weiqi_gateway::server::base_routes(
                GameGateway::new(client, backbone.log.clone(), auth.clone(), trace_fn()),
                InfoGateway::new(auth, backbone.backend, vec!["weiqi.v1.GameService".into()]),
            )
            .await;
            eprintln!("weiqi: gateway on {} (gRPC, gRPC-web)", args.grpc);
            weiqi_gateway::server::serve_grpc(routes, grpc, shutdown_signal()).await?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Tokens the quick start hands out: (subject, roles, what for).
pub const DEMO_ACCOUNTS: &[(&str, &[Role], &str)] = &[
    ("alice", &[Role::Player], "player"),
    ("bob", &[Role::Player], "player"),
    ("referee", &[Role::Referee], "referee of every event"),
    ("organiser", &[Role::Organiser], "organiser of every event"),
    ("broadcaster", &[Role::Broadcaster], "reads games and clocks"),
    ("reviewer", &[Role::Reviewer], "rank certification reviewer"),
];

fn print_quick_start(args: &UpArgs, auth: &Authority, backend: &str) {
    let ttl = Duration::from_secs(30 * 24 * 3600);
    let server = format!("http://{}", args.grpc);
    println!("weiqi {} is up ({backend} backend, data in {})", env!("CARGO_PKG_VERSION"), args.data_dir.display());
    println!("  gRPC + gRPC-web  {server}   (reflection on: try `grpcurl -plaintext {} list`)", args.grpc);
    println!("  HTTP             http://{}/metrics  /healthz", args.http);
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
    println!("Play a game from another terminal:");
    println!("  weiqi play new --token $WEIQI_TOKEN_ORGANISER --black alice --white bob --size 9");
    println!("  weiqi play move <GAME> E5 --token $WEIQI_TOKEN_ALICE");
    println!("  weiqi play watch <GAME> --token $WEIQI_TOKEN_BROADCASTER");
    println!("Stop with Ctrl-C.");
}
