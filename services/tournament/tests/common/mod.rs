//! Shared test helpers: a tournament driven through the service on any log.
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use weiqi_aggregate::Environment;
use weiqi_eventlog::{AnyEventLog, EmbeddedConfig, EmbeddedLog, EventLog};
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, McMahonBars, TournamentConfig};
use weiqi_pairing::ids::{Color, GameRef, PlayerId};
use weiqi_pairing::outcome::GameResult;
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_proto::v1 as pb;
use weiqi_tournament::aggregate::TournamentCommand;
use weiqi_tournament::service::TournamentService;
use weiqi_tournament::settings::GameSettings;

/// A clock that advances one second per reading (and draws the seed 7).
pub struct StepClock(pub AtomicI64);

impl Environment for StepClock {
    fn now(&self) -> weiqi_aggregate::Millis {
        weiqi_aggregate::Millis(self.0.fetch_add(1000, Ordering::SeqCst))
    }
    fn random(&self) -> [u8; 32] {
        let mut seed = [0; 32];
        seed[0] = 7;
        seed
    }
}

pub fn step_clock() -> Arc<StepClock> {
    Arc::new(StepClock(AtomicI64::new(1_800_000_000_000)))
}

pub fn embedded() -> (tempfile::TempDir, AnyEventLog) {
    let dir = tempfile::tempdir().unwrap();
    let log = EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default()).unwrap();
    (dir, AnyEventLog::Embedded(log))
}

pub fn organiser() -> weiqi_game::domain::Actor {
    weiqi_game::domain::Actor::Organiser("org".into())
}

pub fn mcmahon(name: &str, rounds: u32) -> TournamentConfig {
    TournamentConfig::new(
        name,
        Format::McMahon { rounds, bars: McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(20) } },
        11,
    )
}

pub fn settings(auto_pair: bool) -> GameSettings {
    GameSettings { size: 9, auto_pair, ..GameSettings::default() }
}

pub fn registration(i: u32) -> Registration {
    let mut r = Registration::new(PlayerId(i), &format!("Player{i} Given"), Rank::from_value(3 - (i as i32 % 25)));
    r.name_zh = format!("棋手{i}");
    r.club = Some(format!("club-{}", i % 7));
    r.region = Some(format!("region-{}", i % 3));
    r.egd_pin = Some(10_000_000 + u64::from(i));
    r
}

pub async fn run<L: EventLog>(svc: &TournamentService<L>, t: &str, cid: &str, cmd: TournamentCommand) {
    svc.execute(t, cid, &organiser(), &cmd).await.unwrap_or_else(|e| panic!("{cid}: {e}"));
}

/// Creates, registers `players` (accounts `p<i>`) and starts a tournament.
pub async fn open<L: EventLog>(
    svc: &TournamentService<L>,
    t: &str,
    config: TournamentConfig,
    auto: bool,
    players: u32,
) {
    run(svc, t, "create", TournamentCommand::Create { config, settings: settings(auto) }).await;
    for i in 1..=players {
        let cmd = TournamentCommand::Register { account: format!("p{i}"), registration: registration(i) };
        run(svc, t, &format!("reg-{t}-{i}"), cmd).await;
    }
    run(svc, t, &format!("start-{t}"), TournamentCommand::Core(Command::Start)).await;
}

/// Pairs the next round and records a result for every game (Black wins on odd tables).
pub async fn play_round<L: EventLog>(svc: &TournamentService<L>, t: &str) -> u32 {
    let round = svc.read(t, |a| a.core.current_round()).await.unwrap().unwrap() + 1;
    run(svc, t, &format!("pair-{t}-{round}"), TournamentCommand::PairRound { round: Some(round) }).await;
    let tables = svc.read(t, |a| a.core.rounds[round as usize - 1].games.len() as u32).await.unwrap().unwrap();
    for table in 1..=tables {
        let color = if table % 2 == 1 { Color::Black } else { Color::White };
        let cmd = TournamentCommand::Core(Command::RecordResult {
            game: GameRef { round, table },
            result: GameResult::win(color),
        });
        run(svc, t, &format!("res-{t}-{round}-{table}"), cmd).await;
    }
    round
}

/// A gateway composed as `weiqi up` composes it: the base routes (games, identity) plus tournaments,
/// served on a free port until the returned sender is dropped.
pub async fn serve_gateway(
    log: AnyEventLog,
    games: weiqi_game::client::GameClient,
    svc: Arc<TournamentService<AnyEventLog>>,
    model: weiqi_tournament::read_model::AnyReadModel,
    auth: weiqi_gateway::auth::Authority,
    directory: Arc<dyn weiqi_tournament::directory::PlayerDirectory>,
) -> (String, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let mut routes = weiqi_gateway::server::base_routes(
        weiqi_game::grpc::GameGrpc::new(weiqi_game::api::GameApi::new(games, log, Arc::new(Vec::new)), auth.clone()),
        weiqi_gateway::info::InfoGateway::new(auth.clone(), "test", vec![]),
    )
    .await;
    routes.add_service(weiqi_tournament::grpc::TournamentGateway::new(svc, model, auth, directory).into_server());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(weiqi_gateway::server::serve_grpc(routes, listener, async move {
        let _ = rx.await;
    }));
    (url, tx)
}

pub fn authority() -> weiqi_gateway::auth::Authority {
    weiqi_gateway::auth::Authority::new(b"a test secret of at least 32 bytes!!", "weiqi-test")
}

pub fn token(
    auth: &weiqi_gateway::auth::Authority,
    sub: &str,
    roles: &[weiqi_gateway::auth::Role],
    events: &[&str],
) -> String {
    auth.issue(sub, roles, events, std::time::Duration::from_secs(3600))
}

/// A request with a bearer token.
pub fn req<T>(msg: T, token: &str) -> tonic::Request<T> {
    let mut r = tonic::Request::new(msg);
    r.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    r
}

pub fn snapshot(i: u32) -> pb::TournamentPlayerSnapshot {
    let r = registration(i);
    weiqi_tournament::convert::snapshot_of(&r)
}

pub fn mcmahon_pb(name: &str, rounds: u32) -> pb::TournamentConfig {
    pb::TournamentConfig {
        name: name.into(),
        format: Some(pb::TournamentFormat {
            format: Some(pb::tournament_format::Format::Mcmahon(pb::tournament_format::McMahon {
                rounds,
                top_bar: "3d".into(),
                bottom_bar: "20k".into(),
            })),
        }),
        seed: 2026,
        ..Default::default()
    }
}
