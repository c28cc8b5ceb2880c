//! Shared test helpers: a tournament driven through the service on any log.
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use weiqi_eventlog::{AnyEventLog, EmbeddedConfig, EmbeddedLog, EventLog};
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, McMahonBars, TournamentConfig};
use weiqi_pairing::ids::{Colour, GameRef, Millis, PlayerId};
use weiqi_pairing::outcome::GameResult;
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_proto::v1 as pb;
use weiqi_tournament::aggregate::TournamentCommand;
use weiqi_tournament::service::{Clock, TournamentService};

/// A clock that advances one second per reading.
pub struct StepClock(pub AtomicI64);

impl Clock for StepClock {
    fn now(&self) -> Millis {
        Millis(self.0.fetch_add(1000, Ordering::SeqCst))
    }
    fn seed(&self) -> u64 {
        7
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

pub fn organiser() -> pb::Actor {
    pb::Actor { kind: pb::actor::Kind::Organiser as i32, id: "org".into() }
}

pub fn mcmahon(name: &str, rounds: u32) -> TournamentConfig {
    TournamentConfig::new(
        name,
        Format::McMahon { rounds, bars: McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(20) } },
        11,
    )
}

pub fn settings(auto_pair: bool) -> pb::TournamentGameSettings {
    pb::TournamentGameSettings { size: 9, rules: "chinese".into(), auto_pair, ..Default::default() }
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
        let colour = if table % 2 == 1 { Colour::Black } else { Colour::White };
        let cmd = TournamentCommand::Core(Command::RecordResult {
            game: GameRef { round, table },
            result: GameResult::win(colour),
        });
        run(svc, t, &format!("res-{t}-{round}-{table}"), cmd).await;
    }
    round
}
