//! The process manager on the embedded log with the game service in process: games are created once,
//! results recorded once, across restarts (with and without checkpoints); no-shows are claimed; a
//! result decided by the tournament closes the game.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, EventLog};
use weiqi_game::bus::{answer, view_reply};
use weiqi_game::client::GameClient;
use weiqi_game::convert::{decode_recorded as decode_game, wire_command as command};
use weiqi_game::domain::{Actor, GameEvent, PlayerId as GamePlayer};
use weiqi_game::service::GameService;
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, TournamentConfig};
use weiqi_pairing::event::TournamentEvent;
use weiqi_pairing::ids::{Color, GameRef};
use weiqi_pairing::outcome::{GameResult, Outcome, ResultReason};
use weiqi_pairing::state::Phase;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_command::Command as C;
use weiqi_tournament::aggregate::{Body, TournamentCommand};
use weiqi_tournament::ids::game_id;
use weiqi_tournament::manager::{ManagerConfig, ProcessManager};
use weiqi_tournament::read_model::MemoryReadModel;
use weiqi_tournament::service::{TournamentService, decode_recorded};

struct World {
    _dir: tempfile::TempDir,
    log: AnyEventLog,
    svc: Arc<TournamentService<AnyEventLog>>,
    games: Arc<GameService<AnyEventLog>>,
}

fn world() -> World {
    let (dir, log) = embedded();
    let svc = Arc::new(TournamentService::new(log.clone()));
    let games = Arc::new(GameService::new(log.clone()));
    World { _dir: dir, log, svc, games }
}

fn manager(w: &World, store: &MemoryReadModel) -> tokio::task::JoinHandle<()> {
    let config = ManagerConfig {
        sweep_every: Duration::from_millis(50),
        retry_after: Duration::from_millis(20),
        ..ManagerConfig::default()
    };
    let pm = Arc::new(ProcessManager::new(w.svc.clone(), GameClient::Local(w.games.clone()), store.clone(), config));
    tokio::spawn(pm.run())
}

async fn eventually<F: std::future::Future<Output = bool>>(what: &str, mut f: impl FnMut() -> F) {
    for _ in 0..1500 {
        if f().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("timed out waiting for {what}");
}

async fn game_events(log: &AnyEventLog, gid: &str) -> Vec<GameEvent> {
    let id = AggregateId::new(gid).unwrap();
    log.read(AggregateKind::Game, &id, 1).await.unwrap().iter().map(|r| decode_game(r).unwrap().event).collect()
}

async fn tournament_events(log: &AnyEventLog, t: &str) -> Vec<(String, Body)> {
    let id = AggregateId::new(t).unwrap();
    log.read(AggregateKind::Tournament, &id, 1)
        .await
        .unwrap()
        .iter()
        .map(|r| {
            let recorded = decode_recorded(r).unwrap();
            (recorded.causation, recorded.event.body)
        })
        .collect()
}

/// The accounts of a game's Black and White as the game has them.
async fn players(log: &AnyEventLog, gid: &str) -> Option<(String, String)> {
    game_events(log, gid).await.iter().find_map(|e| match e {
        GameEvent::ColorsDecided { black, white, .. } => Some((black.0.clone(), white.0.clone())),
        _ => None,
    })
}

async fn resign(w: &World, gid: &str, account: &str) {
    let actor = Actor::Player(GamePlayer(account.into()));
    let cmd = command(gid, &format!("resign-{gid}"), &actor, C::Resign(pb::GameRequest::default()));
    let reply = answer(&w.games, &cmd, &[]).await;
    assert!(matches!(reply.outcome, Some(pb::game_command_reply::Outcome::Accepted(_))), "{reply:?}");
}

async fn open_games(w: &World, t: &str) -> Vec<(u32, u32)> {
    w.svc
        .read(t, |a| {
            let r = a.core.rounds.last().unwrap();
            r.games.iter().filter(|g| g.result.is_none()).map(|g| (r.number, g.paired.table)).collect()
        })
        .await
        .unwrap()
        .unwrap()
}

/// Ends the open games of the current round whose table satisfies `which` (White resigns on odd
/// tables, Black on even), waiting for each game to exist first.
async fn end_games(w: &World, t: &str, which: impl Fn(u32) -> bool) {
    for (round, table) in open_games(w, t).await {
        if !which(table) {
            continue;
        }
        let gid = game_id(t, round, table);
        eventually("the game to be created", || async { players(&w.log, &gid).await.is_some() }).await;
        let (black, white) = players(&w.log, &gid).await.unwrap();
        resign(w, &gid, if table % 2 == 1 { &white } else { &black }).await;
    }
}

async fn round_complete(w: &World, t: &str, round: u32) -> bool {
    w.svc.read(t, |a| a.core.rounds.get(round as usize - 1).is_some_and(|r| r.completed)).await.unwrap().unwrap()
}

/// No game created twice, no result recorded twice, no round paired twice.
async fn assert_no_duplicates(w: &World, t: &str) -> (usize, usize) {
    let events = tournament_events(&w.log, t).await;
    let mut results = std::collections::HashSet::new();
    let mut rounds = std::collections::HashSet::new();
    let mut games = 0;
    for (_, body) in &events {
        match body {
            Body::Domain(TournamentEvent::ResultRecorded { game, .. }) => {
                assert!(results.insert(*game), "result of {game} recorded twice");
            }
            Body::Domain(TournamentEvent::RoundPaired { round, games: g, .. }) => {
                assert!(rounds.insert(*round), "round {round} paired twice");
                for pg in g {
                    let gid = game_id(t, *round, pg.table);
                    let ev = game_events(&w.log, &gid).await;
                    let created = ev.iter().filter(|e| matches!(e, GameEvent::Created(_))).count();
                    let ended = ev.iter().filter(|e| matches!(e, GameEvent::Ended { .. })).count();
                    assert_eq!(created, 1, "{gid} created {created} times");
                    assert!(ended <= 1, "{gid} ended {ended} times");
                    games += 1;
                }
            }
            _ => {}
        }
    }
    (games, results.len())
}

#[tokio::test]
async fn restarts_mid_round_create_no_second_game_and_record_no_second_result() {
    let w = world();
    let t = "restart-swiss";
    let config = TournamentConfig::new("Restart Swiss", Format::Swiss { rounds: 3 }, 5);
    open(&w.svc, t, config, true, 12).await;
    let store = MemoryReadModel::new();
    let pm = manager(&w, &store);
    run(&w.svc, t, "pair-1", TournamentCommand::PairRound { round: Some(1) }).await;

    // Half of round 1 ends while the manager runs; it is killed; the rest ends while it is down.
    end_games(&w, t, |table| table <= 3).await;
    eventually("3 results", || async { open_games(&w, t).await.len() == 3 }).await;
    pm.abort();
    let _ = pm.await;
    end_games(&w, t, |_| true).await;
    assert!(!round_complete(&w, t, 1).await, "nobody records results while the manager is down");

    // Restarted: it picks up the results, completes the round and pairs round 2 by itself.
    let pm = manager(&w, &store);
    eventually("round 2 paired", || async { w.svc.read(t, |a| a.core.current_round()).await.unwrap() == Some(2) })
        .await;
    assert!(round_complete(&w, t, 1).await);

    // Killed again right after pairing (games may be half created), restarted, and played out.
    pm.abort();
    let _ = pm.await;
    let pm = manager(&w, &store);
    for round in 2..=3 {
        eventually("the round paired", || async {
            w.svc.read(t, |a| a.core.current_round()).await.unwrap() == Some(round)
        })
        .await;
        end_games(&w, t, |_| true).await;
        eventually("the round complete", || async { round_complete(&w, t, round).await }).await;
    }
    eventually("finished", || async {
        w.svc.read(t, |a| matches!(a.core.phase, Phase::Finished(_))).await.unwrap() == Some(true)
    })
    .await;
    pm.abort();
    let _ = pm.await;
    assert_eq!(assert_no_duplicates(&w, t).await, (18, 18));

    // A manager that lost every checkpoint replays both logs and appends nothing.
    let tournament_len = w.log.last_sequence(AggregateKind::Tournament, &AggregateId::new(t).unwrap()).await.unwrap();
    let pm = manager(&w, &MemoryReadModel::new());
    tokio::time::sleep(Duration::from_millis(1500)).await;
    pm.abort();
    let _ = pm.await;
    assert_eq!(
        w.log.last_sequence(AggregateKind::Tournament, &AggregateId::new(t).unwrap()).await.unwrap(),
        tournament_len
    );
    assert_eq!(assert_no_duplicates(&w, t).await, (18, 18));
}

#[tokio::test]
async fn no_shows_are_forfeited_and_their_games_closed() {
    let w = world();
    let t = "no-shows";
    let mut config = TournamentConfig::new("No-shows", Format::Swiss { rounds: 2 }, 3);
    config.no_show_limit_ms = 300;
    config.withdraw_after_no_shows = None;
    open(&w.svc, t, config, false, 4).await;
    let pm = manager(&w, &MemoryReadModel::new());
    run(&w.svc, t, "pair-1", TournamentCommand::PairRound { round: Some(1) }).await;

    // Table 1: Black plays once, White never answers. Table 2: nobody moves.
    let g1 = game_id(t, 1, 1);
    eventually("game 1", || async { players(&w.log, &g1).await.is_some() }).await;
    let (black, _) = players(&w.log, &g1).await.unwrap();
    let play = C::Play(pb::PlayMoveRequest { point: Some(pb::Point { x: 4, y: 4 }), ..Default::default() });
    let reply = answer(&w.games, &command(&g1, "m1", &Actor::Player(GamePlayer(black)), play), &[]).await;
    assert!(matches!(reply.outcome, Some(pb::game_command_reply::Outcome::Accepted(_))), "{reply:?}");

    eventually("both forfeits", || async { round_complete(&w, t, 1).await }).await;
    let results = w
        .svc
        .read(t, |a| a.core.rounds[0].games.iter().map(|g| g.result.unwrap()).collect::<Vec<_>>())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(results, vec![GameResult::forfeit(Color::Black), GameResult::forfeit(Color::White)]);
    let no_shows = w.svc.read(t, |a| a.core.players.values().map(|e| e.no_shows).sum::<u32>()).await.unwrap();
    assert_eq!(no_shows, Some(2));

    // The games were closed in the game service with the same outcome.
    for (table, want) in [(1, pb::game_result::Outcome::BlackWins), (2, pb::game_result::Outcome::WhiteWins)] {
        let gid = game_id(t, 1, table);
        eventually("the game closed", || async {
            game_events(&w.log, &gid).await.iter().any(|e| matches!(e, GameEvent::Ended { .. }))
        })
        .await;
        let view = view_reply(&w.games, &gid).await;
        let Some(pb::game_command_reply::Outcome::View(v)) = view.outcome else { panic!("{view:?}") };
        assert_eq!(v.result.unwrap().outcome, want as i32, "table {table}");
    }
    pm.abort();
    let _ = pm.await;
    assert_no_duplicates(&w, t).await;
}

#[tokio::test]
async fn a_result_recorded_by_hand_ends_the_game() {
    let w = world();
    let t = "by-hand";
    open(&w.svc, t, TournamentConfig::new("By hand", Format::Swiss { rounds: 1 }, 3), false, 2).await;
    let pm = manager(&w, &MemoryReadModel::new());
    run(&w.svc, t, "pair-1", TournamentCommand::PairRound { round: Some(1) }).await;
    let gid = game_id(t, 1, 1);
    eventually("the game", || async { players(&w.log, &gid).await.is_some() }).await;
    let result = GameResult { outcome: Outcome::BothLose, reason: ResultReason::Referee };
    let cmd = TournamentCommand::Core(Command::RecordResult { game: GameRef { round: 1, table: 1 }, result });
    run(&w.svc, t, "by-hand-1", cmd).await;
    eventually("the game ended", || async {
        game_events(&w.log, &gid).await.iter().any(|e| matches!(e, GameEvent::Ended { .. }))
    })
    .await;
    let view = view_reply(&w.games, &gid).await;
    let Some(pb::game_command_reply::Outcome::View(v)) = view.outcome else { panic!("{view:?}") };
    assert_eq!(v.result.unwrap().outcome, pb::game_result::Outcome::BothLose as i32);
    // The game's end comes back to the tournament, which already has the result: nothing appended.
    tokio::time::sleep(Duration::from_millis(300)).await;
    pm.abort();
    let _ = pm.await;
    let recorded = tournament_events(&w.log, t)
        .await
        .iter()
        .filter(|(_, b)| matches!(b, Body::Domain(TournamentEvent::ResultRecorded { .. })))
        .count();
    assert_eq!(recorded, 1);
}

/// Issue 30 item 10: a round's pairing taken back closes its games with no result; the round paired
/// again gets games of its own (new ids), and only their results count.
#[tokio::test]
async fn an_unpaired_round_closes_its_games_and_the_new_pairing_gets_new_ones() {
    let w = world();
    let t = "unpaired";
    open(&w.svc, t, TournamentConfig::new("Unpaired", Format::Swiss { rounds: 2 }, 3), false, 4).await;
    let pm = manager(&w, &MemoryReadModel::new());
    run(&w.svc, t, "pair-1", TournamentCommand::PairRound { round: Some(1) }).await;
    let old = [game_id(t, 1, 1), game_id(t, 1, 2)];
    for gid in &old {
        eventually("the first pairing's game", || async { players(&w.log, gid).await.is_some() }).await;
    }
    run(&w.svc, t, "unpair-1", TournamentCommand::Core(Command::UnpairRound { round: 1 })).await;
    for gid in &old {
        eventually("the game taken back closed", || async {
            game_events(&w.log, gid).await.iter().any(|e| matches!(e, GameEvent::Ended { .. }))
        })
        .await;
        let view = view_reply(&w.games, gid).await;
        let Some(pb::game_command_reply::Outcome::View(v)) = view.outcome else { panic!("{view:?}") };
        assert_eq!(v.result.unwrap().outcome, pb::game_result::Outcome::NoResult as i32, "{gid}");
    }
    run(&w.svc, t, "pair-1-again", TournamentCommand::PairRound { round: Some(1) }).await;
    let new = weiqi_tournament::ids::game_id_in(t, 1, 1, 1);
    eventually("the new pairing's game", || async { players(&w.log, &new).await.is_some() }).await;
    let (black, _) = players(&w.log, &new).await.unwrap();
    resign(&w, &new, &black).await;
    eventually("the new game's result recorded", || async {
        w.svc.read(t, |a| a.core.rounds[0].games[0].result.is_some()).await.unwrap().unwrap()
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    pm.abort();
    let _ = pm.await;
    let recorded: Vec<_> = tournament_events(&w.log, t)
        .await
        .into_iter()
        .filter(|(_, b)| matches!(b, Body::Domain(TournamentEvent::ResultRecorded { .. })))
        .collect();
    assert_eq!(recorded.len(), 1, "only the new game's result: {recorded:?}");
    assert_eq!(recorded[0].0, weiqi_tournament::ids::result_command(&new));
}
