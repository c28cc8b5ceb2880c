//! Shared set-up of the clock service's tests: a log, a bus, the game service, and helpers to create
//! games and read what their logs decided.

#![allow(dead_code)]

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use prost::Message;
use weiqi_clock::{Millis, Side};
use weiqi_clock_service::{ClockConfig, ClockService, ClockStats, TOPIC};
use weiqi_eventlog::{
    AggregateId, AggregateKind, AnyBus, AnyEventLog, Bus, EmbeddedConfig, EmbeddedLog, EventLog, JetStreamConfig,
    JetStreamLog, LocalBus, NatsBus, Subscription,
};
use weiqi_game::client::GameClient;
use weiqi_game::convert::decode_recorded;
use weiqi_game::domain::{Actor, GameEvent, GameState, PlayerId};
use weiqi_game::service::{Environment, GameError, GameRequest, GameService};
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_command_reply::Outcome;

/// How long a test waits for something that must happen (a liveness bound, not a timing assertion).
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A log, a bus, and the game service on them.
pub struct World {
    pub log: AnyEventLog,
    pub bus: AnyBus,
    pub games: Arc<GameService<AnyEventLog>>,
    /// How the clock service reaches the game service: in process on the embedded log, over NATS on
    /// JetStream (as in `weiqi serve`).
    pub client: GameClient,
    _dir: Option<tempfile::TempDir>,
    _tasks: Vec<Aborted>,
}

/// Aborts a task when dropped.
pub struct Aborted(pub tokio::task::JoinHandle<()>);

impl Drop for Aborted {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl World {
    /// The embedded log and the in-process bus, the game service called in process.
    pub fn embedded(env: Arc<dyn Environment>) -> World {
        let dir = tempfile::tempdir().unwrap();
        let log = AnyEventLog::Embedded(
            EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default()).unwrap(),
        );
        let games = Arc::new(GameService::with_environment(log.clone(), env));
        World {
            log,
            bus: AnyBus::Local(LocalBus::new()),
            client: GameClient::Local(games.clone()),
            games,
            _dir: Some(dir),
            _tasks: Vec::new(),
        }
    }

    /// JetStream and the NATS bus at `url`, with `instances` game services serving commands from the bus.
    pub async fn nats(url: &str, env: Arc<dyn Environment>, instances: usize) -> World {
        let log = AnyEventLog::JetStream(JetStreamLog::connect(url, JetStreamConfig::default()).await.unwrap());
        let bus = AnyBus::Nats(NatsBus::new(connect(url).await));
        let mut tasks = Vec::new();
        let mut first = None;
        for _ in 0..instances.max(1) {
            let games = Arc::new(GameService::with_environment(log.clone(), env.clone()));
            first.get_or_insert_with(|| games.clone());
            let bus = bus.clone();
            tasks.push(Aborted(tokio::spawn(async move {
                let _ = games.serve(&bus).await;
            })));
        }
        // Let the subscriptions reach the server before the first command.
        tokio::time::sleep(Duration::from_millis(100)).await;
        World {
            log,
            client: GameClient::Bus(bus.clone(), Duration::from_secs(2)),
            bus,
            games: first.unwrap(),
            _dir: None,
            _tasks: tasks,
        }
    }

    /// A clock service on this world, running.
    pub async fn clock_service(&self, time: Arc<dyn Environment>) -> (Arc<ClockService>, Aborted) {
        let config = ClockConfig { tick_interval: Some(Duration::from_secs(1)), ..ClockConfig::default() };
        self.clock_service_with(time, config).await
    }

    /// A clock service on this world with `config`, running.
    pub async fn clock_service_with(
        &self,
        time: Arc<dyn Environment>,
        config: ClockConfig,
    ) -> (Arc<ClockService>, Aborted) {
        let service =
            Arc::new(ClockService::with(self.log.clone(), self.bus.clone(), self.client.clone(), time, config));
        let task = Aborted(tokio::spawn(service.clone().run()));
        let s = service.clone();
        eventually("the clock service reads the log", || {
            let s = s.clone();
            async move { s.stats().caught_up }
        })
        .await;
        (service, task)
    }

    /// Creates and starts a game between ann (Black) and bob (White) with `control`.
    pub async fn create(&self, game: &str, control: pb::TimeControl) {
        let player = |id: &str| Some(pb::PlayerRef { id: id.into(), name: id.into(), rank: "1d".into() });
        let request = pb::CreateGameRequest {
            game_id: game.into(),
            size: 9,
            rules: "chinese".into(),
            first: player("ann"),
            second: player("bob"),
            color_method: pb::game_created::ColorMethod::Fixed as i32,
            time_control: Some(control),
            start: true,
            ..Default::default()
        };
        let setup = weiqi_game::convert::setup_from_request(&request).expect("a valid setup");
        let create = GameRequest {
            game_id: game.into(),
            command_id: format!("create-{game}"),
            correlation_id: String::new(),
            actor: Actor::System("tournament".into()),
            command: weiqi_game::domain::Command::Create { setup: Box::new(setup), nigiri_secret: [0; 32] },
        };
        // Retried with the same id while the game service is unreachable (after a nats-server restart).
        for _ in 0..100 {
            match self.client.execute(&create, &[]).await {
                Ok(_) => return,
                Err(GameError::Unavailable(_)) => tokio::time::sleep(Duration::from_millis(100)).await,
                Err(other) => panic!("creating {game}: {other:?}"),
            }
        }
        panic!("creating {game}: the game service stayed unreachable");
    }

    /// `player` plays at (x, y); the reply.
    pub async fn play(&self, game: &str, request_id: &str, player: &str, x: u32, y: u32) -> pb::GameCommandReply {
        let actor = Actor::Player(PlayerId(player.into()));
        let play = GameRequest {
            game_id: game.into(),
            command_id: request_id.into(),
            correlation_id: String::new(),
            actor: actor.clone(),
            command: weiqi_game::domain::Command::Play {
                mv: weiqi_rules::Move::Play(weiqi_rules::Point::new(x as u8, y as u8)),
                expected_number: 0,
                lag: None,
            },
        };
        let result = self.client.execute(&play, &[]).await;
        weiqi_game::convert::reply_to_pb(game, &result, &actor)
    }

    /// The game's events (none while the log is unreachable).
    pub async fn events(&self, game: &str) -> Vec<GameEvent> {
        let id = AggregateId::new(game).unwrap();
        let recorded = self.log.read(AggregateKind::Game, &id, 1).await.unwrap_or_default();
        recorded.iter().map(|r| decode_recorded(r).unwrap().event).collect()
    }

    /// The game folded from its log (which must replay).
    pub async fn state(&self, game: &str) -> GameState {
        GameState::replay(&self.events(game).await).expect("the log replays")
    }

    /// The flags recorded in the game's log: (side, deadline, at).
    pub async fn flags(&self, game: &str) -> Vec<(Side, Millis, Millis)> {
        self.events(game)
            .await
            .into_iter()
            .filter_map(|e| match e {
                GameEvent::TimeExpired { color, deadline, at, .. } => {
                    Some((weiqi_game::domain::side(color), deadline, at))
                }
                _ => None,
            })
            .collect()
    }

    /// Waits until the game's log holds a flag, and returns the flags.
    pub async fn flagged(&self, game: &str) -> Vec<(Side, Millis, Millis)> {
        eventually(&format!("{game} is flagged"), || async move { !self.flags(game).await.is_empty() }).await;
        self.flags(game).await
    }

    /// Subscribes to the ticks of `game`.
    pub async fn ticks(&self, game: &str) -> Ticks {
        Ticks(self.bus.subscribe(TOPIC, Some(game)).await.unwrap())
    }
}

/// The ticks of one game from the bus.
pub struct Ticks(pub Subscription);

impl Ticks {
    /// The next tick.
    pub async fn next(&mut self) -> pb::ClockTick {
        let published = tokio::time::timeout(PATIENCE, self.0.next()).await.expect("a tick in time").expect("open");
        pb::ClockTick::decode(published.message.payload).unwrap()
    }

    /// Ticks until one satisfies `stop` (included).
    pub async fn until(&mut self, stop: impl Fn(&pb::ClockTick) -> bool) -> Vec<pb::ClockTick> {
        let mut out = Vec::new();
        loop {
            let tick = self.next().await;
            let done = stop(&tick);
            out.push(tick);
            if done {
                return out;
            }
        }
    }
}

pub async fn connect(url: &str) -> async_nats::Client {
    async_nats::ConnectOptions::new().retry_on_initial_connect().connect(url).await.unwrap()
}

/// Polls `check` every 10 ms until it holds; fails the test after [`PATIENCE`].
pub async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let give_up = tokio::time::Instant::now() + PATIENCE;
    while !check().await {
        assert!(tokio::time::Instant::now() < give_up, "gave up waiting: {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Waits until every flag a service sent has been answered.
pub async fn settled(service: &ClockService) -> ClockStats {
    eventually("every flag is answered", || async move {
        let s = service.stats();
        s.flags_sent == s.flags_recorded + s.flags_duplicate + s.flags_refused + s.flags_unavailable
    })
    .await;
    service.stats()
}

pub fn absolute(ms: i64) -> pb::TimeControl {
    pb::TimeControl {
        system: Some(pb::time_control::System::Absolute(pb::time_control::Absolute { main_ms: ms })),
        pass_on_overrun: false,
    }
}

pub fn japanese(main_ms: i64, periods: u32, period_ms: i64) -> pb::TimeControl {
    pb::TimeControl {
        system: Some(pb::time_control::System::Japanese(pb::time_control::JapaneseByoYomi {
            main_ms,
            periods,
            period_ms,
        })),
        pass_on_overrun: false,
    }
}

pub fn rejection_code(reply: &pb::GameCommandReply) -> Option<&str> {
    match &reply.outcome {
        Some(Outcome::Rejected(r)) => Some(&r.code),
        _ => None,
    }
}

pub fn is_accepted(reply: &pb::GameCommandReply) -> bool {
    matches!(reply.outcome, Some(Outcome::Accepted(_)))
}

/// The deadline of the player to move, from the log.
pub async fn deadline(world: &World, game: &str) -> Millis {
    world.state(game).await.clock.and_then(|c| c.deadline()).expect("a running clock")
}

/// The call of a tick, if it is one.
pub fn call(tick: &pb::ClockTick) -> Option<(i64, weiqi_clock::Call)> {
    let call = weiqi_clock_service::convert::call_from_pb(tick.call.as_ref()?)?;
    Some((tick.at_ms, call))
}

pub fn is_expired(tick: &pb::ClockTick) -> bool {
    tick.phase == pb::ClockPhase::Expired as i32
}
