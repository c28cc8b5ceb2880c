//! The table-squatting attack, played whole through gRPC against the gateway, the game service, the
//! tournament service and its process manager: a player (and a referee of another event) tries to
//! create the games of round 1's tables before the round is paired, resigns them, and the real
//! players' games are the ones the standings count.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use tonic::Code;
use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, EventLog};
use weiqi_game::bus::answer;
use weiqi_game::client::GameClient;
use weiqi_game::convert::{decode_recorded as decode_game, wire_command};
use weiqi_game::domain::{Actor, GameEvent};
use weiqi_game::service::GameService;
use weiqi_gateway::auth::Role;
use weiqi_gateway::error::rejection_of;
use weiqi_pairing::config::{Format, TournamentConfig};
use weiqi_pairing::ids::GameRef;
use weiqi_pairing::outcome::Outcome;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_command::Command as C;
use weiqi_proto::v1::game_service_client::GameServiceClient;
use weiqi_tournament::aggregate::TournamentCommand;
use weiqi_tournament::directory::MemoryDirectory;
use weiqi_tournament::ids::game_id;
use weiqi_tournament::manager::{ManagerConfig, ProcessManager};
use weiqi_tournament::read_model::{AnyReadModel, MemoryReadModel};
use weiqi_tournament::service::TournamentService;

async fn eventually<F: std::future::Future<Output = bool>>(what: &str, mut f: impl FnMut() -> F) {
    for _ in 0..1500 {
        if f().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("timed out waiting for {what}");
}

/// The game's creator and its Black and White, as its log has them.
async fn seats(log: &AnyEventLog, gid: &str) -> Option<(Actor, String, String)> {
    let id = AggregateId::new(gid).unwrap();
    let events = log.read(AggregateKind::Game, &id, 1).await.unwrap();
    let created = events.first().map(|r| decode_game(r).unwrap().actor)?;
    events.iter().map(|r| decode_game(r).unwrap().event).find_map(|e| match e {
        GameEvent::ColorsDecided { black, white, .. } => Some((created.clone(), black.0, white.0)),
        _ => None,
    })
}

fn squat(game: &str, me: &str, opponent: &str, event: &str) -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        game_id: game.into(),
        request_id: format!("squat-{game}-{me}"),
        size: 9,
        first: Some(pb::PlayerRef { id: me.into(), ..Default::default() }),
        second: Some(pb::PlayerRef { id: opponent.into(), ..Default::default() }),
        event_id: event.into(),
        start: true,
        ..Default::default()
    }
}

#[tokio::test]
async fn a_squatted_table_is_refused_and_the_real_players_game_is_the_one_counted() {
    let (_dir, log) = embedded();
    let svc = Arc::new(TournamentService::new(log.clone()));
    let games = Arc::new(GameService::new(log.clone()));
    let model: AnyReadModel = MemoryReadModel::new().into();
    let auth = authority();
    let (url, _stop) = serve_gateway(
        log.clone(),
        GameClient::Local(games.clone()),
        svc.clone(),
        model,
        auth.clone(),
        Arc::new(MemoryDirectory::new()),
    )
    .await;
    let config = ManagerConfig {
        sweep_every: Duration::from_millis(50),
        retry_after: Duration::from_millis(20),
        ..ManagerConfig::default()
    };
    let store = MemoryReadModel::new();
    let pm = Arc::new(ProcessManager::new(svc.clone(), GameClient::Local(games.clone()), store, config));
    let pm = tokio::spawn(pm.run());

    let t = "T1";
    let config = TournamentConfig::new("Squat Open", Format::Swiss { rounds: 1 }, 5);
    open(&svc, t, config, false, 4).await;
    let mut c = GameServiceClient::connect(url).await.unwrap();

    // The attack, before round 1 is paired: a player of the event creates the tables' games with
    // himself seated, and a referee of another event tries the same under his own event.
    let mallory = token(&auth, "p1", &[Role::Player], &[]);
    let referee_a = token(&auth, "ref-a", &[Role::Referee], &["A"]);
    for (table, who, event, caller) in [(1, "p1", "", &mallory), (2, "p1", "", &mallory), (2, "ref-a", "A", &referee_a)]
    {
        let gid = game_id(t, 1, table);
        let refused = c.create_game(req(squat(&gid, who, "p2", event), caller)).await.unwrap_err();
        let rejection = rejection_of(&refused).map(|r| r.code).unwrap_or_default();
        assert_eq!((refused.code(), rejection.as_str()), (Code::InvalidArgument, "reserved_game_id"), "{gid} by {who}");
        assert_eq!(log.last_sequence(AggregateKind::Game, &AggregateId::new(&gid).unwrap()).await.unwrap(), 0);
    }
    // A game naming the tournament under an id of its own is refused too.
    let mut named = squat("mine", "p1", "p2", "");
    named.tournament_id = t.into();
    named.round = 1;
    named.board = 1;
    let refused = c.create_game(req(named, &mallory)).await.unwrap_err();
    assert_eq!(rejection_of(&refused).unwrap().code, "tournament_game");
    // A squat already in a log from before this check (written here through the service itself by an
    // actor that is not the tournament) is never adopted: its result is not the table's.
    let legacy = game_id(t, 1, 2);
    let intruder = Actor::System("intruder".into());
    let create = wire_command(&legacy, "legacy-squat", &intruder, C::Create(squat(&legacy, "p1", "p3", "")));
    assert!(matches!(answer(&games, &create, &[]).await.outcome, Some(pb::game_command_reply::Outcome::Accepted(_))));

    // Round 1 is paired; the manager creates the tables' games.
    run(&svc, t, "pair-1", TournamentCommand::PairRound { round: Some(1) }).await;
    let table_1 = game_id(t, 1, 1);
    eventually("table 1's game", || async { seats(&log, &table_1).await.is_some() }).await;
    let (creator, black, white) = seats(&log, &table_1).await.unwrap();
    assert_eq!(creator, Actor::System("tournament".into()), "the platform created table 1's game");
    let paired = svc
        .read(t, |a| {
            let g = a.core.game(GameRef { round: 1, table: 1 }).unwrap();
            (a.account(g.paired.black), a.account(g.paired.white))
        })
        .await
        .unwrap()
        .unwrap();
    assert_eq!((black.clone(), white.clone()), paired, "the pairing's players in the pairing's colours");

    // The real players play it: White resigns with her own token, and the result is recorded.
    let white_token = token(&auth, &white, &[Role::Player], &[]);
    let resign = pb::GameRequest { game_id: table_1.clone(), request_id: "white-resigns".into() };
    c.resign(req(resign, &white_token)).await.expect("the real player acts in her own game");
    eventually("table 1's result", || async {
        svc.read(t, |a| a.core.game(GameRef { round: 1, table: 1 }).unwrap().result.is_some()).await.unwrap()
            == Some(true)
    })
    .await;
    let result = svc.read(t, |a| a.core.game(GameRef { round: 1, table: 1 }).unwrap().result).await.unwrap().unwrap();
    assert_eq!(result.map(|r| r.outcome), Some(Outcome::Win(weiqi_pairing::ids::Color::Black)));

    // The legacy squat on table 2 ends by resignation; the table's result stays open for the referee.
    let resign = wire_command(&legacy, "legacy-resign", &Actor::Player(weiqi_game::domain::PlayerId("p3".into())), {
        C::Resign(pb::GameRequest::default())
    });
    assert!(matches!(answer(&games, &resign, &[]).await.outcome, Some(pb::game_command_reply::Outcome::Accepted(_))));
    tokio::time::sleep(Duration::from_millis(500)).await;
    let table_2 = svc.read(t, |a| a.core.game(GameRef { round: 1, table: 2 }).unwrap().result).await.unwrap().unwrap();
    assert_eq!(table_2, None, "a game that merely has the table's name decides nothing");
    pm.abort();
}
