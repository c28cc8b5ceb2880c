//! `weiqi bench tournament`: a simulated Swiss run through the real services, end to end.
//!
//! [`simulated_event`] runs a whole event (by default 2,000 players, 7 rounds) the way production
//! runs it: the game service on the event log (NATS JetStream when a URL is given, answering
//! commands over NATS request/reply; else the embedded log, in process), the tournament service,
//! the process manager (which creates every game, records every result and pairs every round after
//! the first), and the projector (standings and pairings into the in-memory read model, or Redis).
//!
//! The players are simulated **through the game service's client API** ([`GameClient`], the same
//! commands the gateway forwards, minus gRPC and token checks): each game gets a few random legal
//! moves (picked with `weiqi_rules` on a local replay), then the player to move resigns. Games are
//! played `concurrency` at a time. The organiser only registers the field, starts and pairs round 1.
//!
//! The clock is `std::time::Instant`; this is a benchmark, not a test, and asserts nothing about
//! time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use weiqi_eventlog::{AnyBus, AnyEventLog, EmbeddedConfig, EmbeddedLog, JetStreamConfig, JetStreamLog, NatsBus};
use weiqi_game::client::GameClient;
use weiqi_game::domain::Command as GameCommand;
use weiqi_game::domain::{Actor, PlayerId as GamePlayer};
use weiqi_game::service::{GameError, GameRequest, GameService};
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, TournamentConfig};
use weiqi_pairing::state::Phase;
use weiqi_rules::{Game, Move, Ruleset};

use weiqi_tournament::aggregate::TournamentCommand;
use weiqi_tournament::manager::{ManagerConfig, ProcessManager};
use weiqi_tournament::projector::Projector;
use weiqi_tournament::read_model::{AnyReadModel, MemoryReadModel, ReadModel, RedisReadModel};
use weiqi_tournament::service::TournamentService;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimulatedEventConfig {
    /// Players in the field.
    pub players: usize,
    /// Swiss rounds.
    pub rounds: u32,
    /// NATS server URL (JetStream log, game service over NATS); `None`: embedded log in process.
    pub nats_url: Option<String>,
    /// Redis URL for the read model; `None`: in memory.
    pub redis_url: Option<String>,
    /// Seed of the field and of the moves.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// Random moves before the resignation.
    pub moves_per_game: u32,
}

impl SimulatedEventConfig {
    /// The figure: 2,000 players, 7 rounds, 4 moves a game, 256 games at once.
    pub fn new(players: usize, rounds: u32, nats_url: Option<String>) -> SimulatedEventConfig {
        SimulatedEventConfig {
            players,
            rounds,
            nats_url,
            redis_url: None,
            seed: 2026,
            concurrency: 256,
            moves_per_game: 4,
        }
    }
}

/// What the simulation measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimulatedEventReport {
    /// Players.
    pub players: usize,
    /// Rounds.
    pub rounds: u32,
    /// "nats" or "embedded".
    pub backend: String,
    /// Games created and played.
    pub games: usize,
    /// Game commands sent by the simulated players (moves and resignations).
    pub player_commands: usize,
    /// Wall time of the whole run, from creating the tournament to the last standings projected.
    pub wall_seconds: f64,
    /// Creating the tournament and registering the field.
    pub registration_seconds: f64,
    /// From pairing round 1 to the final standings in the read model.
    pub play_seconds: f64,
    /// Each round, from its pairing being read to its completion.
    pub round_seconds: Vec<f64>,
}

/// Why the simulation stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("simulated event failed: {0}")]
pub struct SimulationError(pub String);

fn fail(e: impl std::fmt::Display) -> SimulationError {
    SimulationError(e.to_string())
}

/// Runs `players` players through a `rounds`-round Swiss on the real services (see the module doc).
pub async fn simulated_event(
    players: usize,
    rounds: u32,
    nats_url: Option<String>,
) -> Result<SimulatedEventReport, SimulationError> {
    simulated_event_with(&SimulatedEventConfig::new(players, rounds, nats_url)).await
}

/// [`simulated_event`] with every setting.
pub async fn simulated_event_with(cfg: &SimulatedEventConfig) -> Result<SimulatedEventReport, SimulationError> {
    let run = uuid::Uuid::new_v4().simple().to_string()[..8].to_string();
    let mut cleanup = None;
    let (log, bus, backend) = match &cfg.nats_url {
        Some(url) => {
            // A fresh prefix: separate streams and subjects for every run on a shared server.
            let prefix = format!("wqbench{run}");
            let config = JetStreamConfig { prefix: prefix.clone(), ..JetStreamConfig::default() };
            let js = JetStreamLog::connect(url, config).await.map_err(fail)?;
            let bus = AnyBus::Nats(NatsBus::with_prefix(js.client().clone(), prefix));
            (AnyEventLog::JetStream(js), Some(bus), "nats")
        }
        None => {
            let dir = std::env::temp_dir().join(format!("weiqi-bench-{run}"));
            std::fs::create_dir_all(&dir).map_err(fail)?;
            let log = EmbeddedLog::open(dir.join("events.redb"), EmbeddedConfig::default()).map_err(fail)?;
            cleanup = Some(dir);
            (AnyEventLog::Embedded(log), None, "embedded")
        }
    };
    let result = run_event(cfg, log, bus, backend, &run).await;
    if let Some(dir) = cleanup {
        let _ = std::fs::remove_dir_all(dir);
    }
    result
}

pub(crate) async fn run_event(
    cfg: &SimulatedEventConfig,
    log: AnyEventLog,
    bus: Option<AnyBus>,
    backend: &str,
    run: &str,
) -> Result<SimulatedEventReport, SimulationError> {
    let game_service = Arc::new(GameService::new(log.clone()));
    let mut tasks = Vec::new();
    let games = match bus {
        Some(bus) => {
            let (svc, b) = (game_service.clone(), bus.clone());
            tasks.push(tokio::spawn(async move {
                let _ = weiqi_game::bus::serve(svc, &b).await;
            }));
            GameClient::Bus(bus, Duration::from_secs(30))
        }
        None => GameClient::Local(game_service.clone()),
    };
    let model: AnyReadModel = match &cfg.redis_url {
        Some(url) => RedisReadModel::connect_with_prefix(url, &format!("wqbench{run}")).await.map_err(fail)?.into(),
        None => MemoryReadModel::new().into(),
    };
    let svc = Arc::new(TournamentService::new(log.clone()));
    let projector = Arc::new(Projector::new(log.clone(), model.clone()));
    tasks.push(tokio::spawn(projector.clone().run()));
    let pm = Arc::new(ProcessManager::new(svc.clone(), games.clone(), model.clone(), ManagerConfig::default()));
    tasks.push(tokio::spawn(pm.run()));
    let report = drive(cfg, &svc, &games, &model, backend, run).await;
    for t in tasks {
        t.abort();
    }
    report
}

fn organiser() -> weiqi_game::domain::Actor {
    weiqi_game::domain::Actor::Organiser("bench".into())
}

async fn drive(
    cfg: &SimulatedEventConfig,
    svc: &Arc<TournamentService<AnyEventLog>>,
    games: &GameClient,
    model: &AnyReadModel,
    backend: &str,
    run: &str,
) -> Result<SimulatedEventReport, SimulationError> {
    let t = format!("bench-{run}");
    let started = Instant::now();
    let config = TournamentConfig::new("Simulated Swiss", Format::Swiss { rounds: cfg.rounds }, cfg.seed);
    let settings = weiqi_tournament::settings::GameSettings { size: 9, auto_pair: true, ..Default::default() };
    let exec = |cid: String, cmd: TournamentCommand| {
        let (svc, t) = (svc.clone(), t.clone());
        async move { svc.execute(&t, &cid, &organiser(), &cmd).await.map_err(fail) }
    };
    exec("create".into(), TournamentCommand::Create { config, settings }).await?;
    for r in weiqi_pairing::simulate::synthetic_field(cfg.players, cfg.seed) {
        let account = format!("b{}", r.player.0);
        exec(format!("reg-{account}"), TournamentCommand::Register { account, registration: r }).await?;
    }
    exec("start".into(), TournamentCommand::Core(Command::Start)).await?;
    let registration_seconds = started.elapsed().as_secs_f64();
    let play_started = Instant::now();
    exec("pair-1".into(), TournamentCommand::PairRound { round: Some(1) }).await?;
    let mut round_seconds = Vec::new();
    let (mut games_played, mut commands) = (0usize, 0usize);
    for round in 1..=cfg.rounds {
        let round_started = Instant::now();
        let list = wait_for(|| async {
            svc.read(&t, |a| {
                let r = a.core.rounds.get(round as usize - 1)?;
                Some(
                    r.games
                        .iter()
                        .map(|g| {
                            (
                                weiqi_tournament::ids::game_id(&t, round, g.paired.table),
                                a.account(g.paired.black),
                                a.account(g.paired.white),
                            )
                        })
                        .collect::<Vec<_>>(),
                )
            })
            .await
            .ok()
            .flatten()
            .flatten()
        })
        .await?;
        let seed = cfg.seed ^ u64::from(round) << 32;
        let played: Vec<Result<usize, SimulationError>> = futures::stream::iter(list.into_iter().enumerate())
            .map(|(i, (gid, black, white))| {
                play(games.clone(), gid, black, white, cfg.moves_per_game, seed.wrapping_add(i as u64))
            })
            .buffer_unordered(cfg.concurrency.max(1))
            .collect()
            .await;
        for p in played {
            commands += p?;
            games_played += 1;
        }
        wait_for(|| async {
            svc.read(&t, |a| a.core.rounds.get(round as usize - 1).is_some_and(|r| r.completed).then_some(()))
                .await
                .ok()
                .flatten()
                .flatten()
        })
        .await?;
        round_seconds.push(round_started.elapsed().as_secs_f64());
    }
    let version = wait_for(|| async {
        svc.read(&t, |a| matches!(a.core.phase, Phase::Finished(_)).then_some(a.version)).await.ok().flatten().flatten()
    })
    .await?;
    wait_for(|| async { model.applied(&t).await.ok().filter(|&a| a >= version) }).await?;
    Ok(SimulatedEventReport {
        players: cfg.players,
        rounds: cfg.rounds,
        backend: backend.to_string(),
        games: games_played,
        player_commands: commands,
        wall_seconds: started.elapsed().as_secs_f64(),
        registration_seconds,
        play_seconds: play_started.elapsed().as_secs_f64(),
        round_seconds,
    })
}

/// Polls `f` every 5 ms until it yields (at most 10 minutes).
async fn wait_for<T, F: std::future::Future<Output = Option<T>>>(
    mut f: impl FnMut() -> F,
) -> Result<T, SimulationError> {
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        if let Some(v) = f().await {
            return Ok(v);
        }
        if Instant::now() > deadline {
            return Err(SimulationError("timed out waiting for the services".into()));
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Plays one game: `moves` random legal moves, then the player to move resigns. Returns the number
/// of commands sent.
async fn play(
    games: GameClient,
    gid: String,
    black: String,
    white: String,
    moves: u32,
    seed: u64,
) -> Result<usize, SimulationError> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut local = Game::new(9, Ruleset::chinese()).map_err(fail)?;
    let mut sent = 0;
    let mut n = 0u32;
    let actor = |c: weiqi_rules::Color| {
        Actor::Player(GamePlayer(if c == weiqi_rules::Color::Black { black.clone() } else { white.clone() }))
    };
    loop {
        let color = local.to_move();
        let (command, cid, next) = if n < moves
            && let Move::Play(p) = local.random_move(color, |k| rng.random_range(0..k))
        {
            let play = GameCommand::Play { mv: Move::Play(p), expected_number: n + 1, lag: None };
            (play, format!("{gid}-m{n}"), Some(p))
        } else {
            (GameCommand::Resign, format!("{gid}-resign"), None)
        };
        let request = GameRequest {
            game_id: gid.clone(),
            command_id: cid,
            correlation_id: String::new(),
            actor: actor(color),
            command,
        };
        match games.execute(&request, &[]).await {
            Ok(_) => {
                sent += 1;
                match next {
                    Some(p) => {
                        local.play(color, Move::Play(p)).map_err(fail)?;
                        n += 1;
                    }
                    None => return Ok(sent),
                }
            }
            // Not created yet (the process manager is on its way), or a transient fault: again.
            Err(e) if e.code() == "not_found" => tokio::time::sleep(Duration::from_millis(5)).await,
            Err(GameError::Unavailable(_)) => tokio::time::sleep(Duration::from_millis(20)).await,
            Err(e) => return Err(SimulationError(format!("{gid}: {e}"))),
        }
    }
}

/// `weiqi bench tournament`: the report as a table, and with `--json` one JSON object on the last line.
pub async fn run(
    players: usize,
    rounds: u32,
    nats: Option<String>,
    json: bool,
) -> anyhow::Result<std::process::ExitCode> {
    eprintln!("simulating a {players}-player Swiss of {rounds} rounds through the real services …");
    let report = simulated_event(players, rounds, nats).await.map_err(|e| anyhow::anyhow!("{}", e.0))?;
    let per_round: Vec<String> = report.round_seconds.iter().map(|s| format!("{s:.2}")).collect();
    crate::output::report(
        &format!("weiqi bench tournament — {players} players, {rounds} rounds, {} backend", report.backend),
        &[
            ("games", report.games.to_string(), ""),
            ("player commands", report.player_commands.to_string(), ""),
            ("seconds per round", per_round.join(" "), ""),
        ],
        json.then_some(&report),
    );
    Ok(std::process::ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    //! The simulated event on a small field: it plays every game through the services and reports what
    //! it did (time is reported, never asserted).
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_small_simulated_swiss_runs_to_the_end_on_the_embedded_log() {
        let mut cfg = SimulatedEventConfig::new(21, 3, None);
        cfg.moves_per_game = 3;
        let report = simulated_event_with(&cfg).await.unwrap();
        assert_eq!((report.players, report.rounds, report.backend.as_str()), (21, 3, "embedded"));
        assert_eq!(report.games, 30, "10 games a round (one bye)");
        assert_eq!(report.round_seconds.len(), 3);
        assert!(report.player_commands >= report.games, "at least a resignation per game");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_small_simulated_swiss_runs_on_nats() {
        let nats = weiqi_testkit::require!(weiqi_testkit::NatsServer::start());
        let report = simulated_event(16, 2, Some(nats.url())).await.unwrap();
        assert_eq!((report.games, report.backend.as_str()), (16, "nats"));
    }
}
