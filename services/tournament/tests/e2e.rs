//! End to end with a real nats-server and redis-server: a 64-player, 5-round McMahon. The game
//! service runs on JetStream and answers over NATS; the gateway is composed as `weiqi up` composes
//! it (games, identity, tournaments) and served on a free port; the process manager creates every
//! game and records every result; the projector keeps standings and pairings in Redis. The organiser
//! drives the event and the 64 players play every game through the gRPC API with their own tokens:
//! random legal moves (picked with `weiqi_rules` on a local replay, checked against the server's
//! board at the end), then a resignation, or two passes and both players accepting the count.
//! Skipped with a notice if the servers are missing, unless WEIQI_REQUIRE_EXTERNAL=1.

mod common;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use common::*;
use rand::{Rng, SeedableRng};
use weiqi_eventlog::{
    AggregateId, AggregateKind, AnyBus, AnyEventLog, EventLog, JetStreamConfig, JetStreamLog, NatsBus,
};
use weiqi_game::client::GameClient;
use weiqi_game::service::GameService;
use weiqi_gateway::auth::Role;
use weiqi_pairing::event::TournamentEvent;
use weiqi_pairing::standings::standings;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_service_client::GameServiceClient;
use weiqi_proto::v1::tournament_service_client::TournamentServiceClient;
use weiqi_rules::{Color, Game, Move, Ruleset};
use weiqi_tournament::aggregate::Body;
use weiqi_tournament::directory::NoDirectory;
use weiqi_tournament::manager::{ManagerConfig, ProcessManager};
use weiqi_tournament::projector::Projector;
use weiqi_tournament::read_model::{AnyReadModel, RedisReadModel};
use weiqi_tournament::service::{TournamentService, decode_recorded};

const PLAYERS: u32 = 64;
const ROUNDS: u32 = 5;
const T: &str = "national-mcmahon";

type Channel = tonic::transport::Channel;

/// Plays one game through the gateway: both players, each with their own token.
async fn play_game(
    mut games: GameServiceClient<Channel>,
    tokens: Arc<HashMap<String, String>>,
    gid: String,
    seed: u64,
) {
    let any = tokens.values().next().unwrap().clone();
    let view = loop {
        match games.get_game(req(pb::GetGameRequest { game_id: gid.clone() }, &any)).await {
            Ok(v) if v.get_ref().phase == pb::game_view::Phase::Playing as i32 => break v.into_inner(),
            Ok(_) => {}
            Err(s) if s.code() == tonic::Code::NotFound => {}
            Err(s) => panic!("{gid}: {s}"),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let black = view.black.unwrap().id;
    let white = view.white.unwrap().id;
    let token = |c: Color| tokens[if c == Color::Black { &black } else { &white }].clone();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut local = Game::new(9, Ruleset::chinese()).unwrap();
    let moves = rng.random_range(6..30u32);
    let mut n = 0u32;
    while n < moves {
        let color = local.to_move();
        let Move::Play(p) = local.random_move(color, |k| rng.random_range(0..k)) else { break };
        let r = pb::PlayMoveRequest {
            game_id: gid.clone(),
            request_id: format!("{gid}-m{n}"),
            point: Some(pb::Point { x: u32::from(p.x), y: u32::from(p.y) }),
            expected_move_number: n + 1,
            lag: None,
        };
        games.play_move(req(r, &token(color))).await.unwrap_or_else(|s| panic!("{gid} move {n}: {s}"));
        local.play(color, Move::Play(p)).unwrap();
        n += 1;
    }
    let rid = |what: &str| format!("{gid}-{what}");
    if rng.random_bool(0.5) {
        let loser = local.to_move();
        games
            .resign(req(pb::GameRequest { game_id: gid.clone(), request_id: rid("resign") }, &token(loser)))
            .await
            .unwrap();
    } else {
        for k in 0..2 {
            let color = local.to_move();
            let r = pb::PassRequest {
                game_id: gid.clone(),
                request_id: rid(&format!("pass{k}")),
                expected_move_number: n + 1,
                lag: None,
            };
            games.pass(req(r, &token(color))).await.unwrap();
            local.play(color, Move::Pass).unwrap();
            n += 1;
        }
        for c in [Color::Black, Color::White] {
            let r = pb::GameRequest { game_id: gid.clone(), request_id: rid(&format!("accept-{c:?}")) };
            games.accept_score(req(r, &token(c))).await.unwrap();
        }
    }
    let end = games.get_game(req(pb::GetGameRequest { game_id: gid.clone() }, &any)).await.unwrap().into_inner();
    assert_eq!(end.phase, pb::game_view::Phase::Ended as i32, "{gid}");
    assert_eq!(end.move_number, n, "{gid}");
    let rows: Vec<String> = (0..9u8)
        .map(|y| {
            (0..9u8)
                .map(|x| match local.board().get(weiqi_rules::Point::new(x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect()
        })
        .collect();
    assert_eq!(end.rows, rows, "{gid}: the server's board equals the local replay");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_64_player_mcmahon_is_played_through_the_real_services() {
    let nats = weiqi_testkit::require!(weiqi_testkit::NatsServer::start());
    let redis = weiqi_testkit::require!(weiqi_testkit::RedisServer::start());
    let js = JetStreamLog::connect(&nats.url(), JetStreamConfig::default()).await.unwrap();
    let bus = AnyBus::Nats(NatsBus::new(js.client().clone()));
    let log = AnyEventLog::JetStream(js);

    // The game service, answering over NATS.
    let game_service = Arc::new(GameService::new(log.clone()));
    {
        let (svc, bus) = (game_service.clone(), bus.clone());
        tokio::spawn(async move { svc.serve(&bus).await });
    }
    let games = GameClient::Bus(bus.clone(), Duration::from_secs(10));

    // The tournament service, its process manager and its projector into Redis.
    let svc = Arc::new(TournamentService::new(log.clone()));
    let model: AnyReadModel = RedisReadModel::connect(&redis.url()).await.unwrap().into();
    let projector = Arc::new(Projector::new(log.clone(), model.clone()));
    let projector_task = tokio::spawn(projector.clone().run());
    let config = ManagerConfig { sweep_every: Duration::from_millis(200), ..ManagerConfig::default() };
    let pm = Arc::new(ProcessManager::new(svc.clone(), games.clone(), model.clone(), config));
    let pm_task = tokio::spawn(pm.clone().run());

    let auth = authority();
    let (url, _stop) =
        serve_gateway(log.clone(), games, svc.clone(), model.clone(), auth.clone(), Arc::new(NoDirectory)).await;
    let channel = tonic::transport::Endpoint::from_shared(url).unwrap().connect().await.unwrap();
    let mut tc = TournamentServiceClient::new(channel.clone());
    let gc = GameServiceClient::new(channel.clone());
    let organiser = token(&auth, "organiser", &[Role::Organiser], &[T]);
    let tokens: Arc<HashMap<String, String>> = Arc::new(
        (1..=PLAYERS).map(|i| (format!("p{i}"), token(&auth, &format!("p{i}"), &[Role::Player], &[]))).collect(),
    );

    // The organiser creates the event, registers the field and pairs round 1; later rounds pair themselves.
    let create = pb::CreateTournamentRequest {
        tournament_id: T.into(),
        request_id: "create".into(),
        config: Some(mcmahon_pb("National McMahon", ROUNDS)),
        settings: Some(pb::TournamentGameSettings {
            size: 9,
            rules: "chinese".into(),
            auto_pair: true,
            rated: true,
            ..Default::default()
        }),
    };
    tc.create_tournament(req(create, &organiser)).await.unwrap();
    for i in 1..=PLAYERS {
        let r = pb::RegisterPlayerRequest {
            tournament_id: T.into(),
            request_id: format!("reg-{i}"),
            account_id: format!("p{i}"),
            player: i,
            snapshot: Some(snapshot(i)),
        };
        tc.register_player(req(r, &organiser)).await.unwrap();
    }
    tc.start_tournament(req(pb::TournamentRequest { tournament_id: T.into(), request_id: "start".into() }, &organiser))
        .await
        .unwrap();
    tc.pair_round(req(
        pb::PairRoundRequest { tournament_id: T.into(), request_id: "pair-1".into(), round: 1 },
        &organiser,
    ))
    .await
    .unwrap();

    for round in 1..=ROUNDS {
        // The pairings, as everyone reads them (from Redis).
        let pairings = loop {
            match tc
                .get_pairings(req(
                    pb::GetTournamentPairingsRequest { tournament_id: T.into(), round, min_sequence: 0 },
                    &tokens["p1"],
                ))
                .await
            {
                Ok(p) if p.get_ref().games.len() == (PLAYERS / 2) as usize => break p.into_inner(),
                _ => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        };
        assert!(pairings.byes.is_empty());
        let plays: Vec<_> = pairings
            .games
            .iter()
            .map(|g| {
                tokio::spawn(play_game(
                    gc.clone(),
                    tokens.clone(),
                    g.game_id.clone(),
                    u64::from(round * 1000 + g.table),
                ))
            })
            .collect();
        for p in plays {
            p.await.unwrap();
        }
        // Every result comes back through the process manager; the round completes in Redis.
        for _ in 0..3000 {
            let p = tc
                .get_pairings(req(
                    pb::GetTournamentPairingsRequest { tournament_id: T.into(), round, min_sequence: 0 },
                    &tokens["p2"],
                ))
                .await
                .unwrap()
                .into_inner();
            if p.completed {
                assert!(p.games.iter().all(|g| !g.result.is_empty()));
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    // Finished, and the standings read back from Redis equal the core's standings from the log.
    let mut summary = pb::TournamentSummary::default();
    for _ in 0..3000 {
        summary = tc
            .get_tournament(req(pb::GetTournamentRequest { tournament_id: T.into(), min_sequence: 0 }, &tokens["p3"]))
            .await
            .unwrap()
            .into_inner();
        if summary.phase == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!((summary.phase.as_str(), summary.rounds_paired), ("finished", ROUNDS));
    let want = svc.read(T, |a| standings(&a.core)).await.unwrap().unwrap();
    let got = loop {
        let s = tc
            .get_standings(req(
                pb::GetTournamentStandingsRequest { tournament_id: T.into(), offset: 0, limit: 0, min_sequence: 0 },
                &tokens["p4"],
            ))
            .await
            .unwrap()
            .into_inner();
        if s.sequence == summary.sequence {
            break s;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!((got.total, got.after_round), (PLAYERS, ROUNDS));
    assert_eq!(
        got.rows.iter().map(|r| (r.place, r.entrant, r.values.clone(), r.games)).collect::<Vec<_>>(),
        want.rows
            .iter()
            .map(|r| (r.place, r.player.0, r.values.iter().map(|v| v.to_string()).collect::<Vec<_>>(), r.games))
            .collect::<Vec<_>>()
    );
    assert!(got.rows.iter().all(|r| r.games == ROUNDS), "everyone played every round");
    assert_eq!(got.rows[0].entrant, summary.champion);
    let page = tc
        .get_standings(req(
            pb::GetTournamentStandingsRequest { tournament_id: T.into(), offset: 10, limit: 5, min_sequence: 0 },
            &tokens["p4"],
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(page.rows, got.rows[10..15].to_vec());

    // Every game created once and ended once; every result recorded once, by the process manager.
    let events = log.read(AggregateKind::Tournament, &AggregateId::new(T).unwrap(), 1).await.unwrap();
    let mut results = 0;
    for r in &events {
        let recorded = decode_recorded(r).unwrap();
        if let Body::Domain(TournamentEvent::ResultRecorded { game, .. }) = recorded.event.body {
            assert_eq!(recorded.causation, format!("result-t-{T}-r{}-b{}", game.round, game.table));
            results += 1;
        }
    }
    assert_eq!(results, PLAYERS / 2 * ROUNDS);
    for round in 1..=ROUNDS {
        for table in 1..=PLAYERS / 2 {
            let gid = weiqi_tournament::ids::game_id(T, round, table);
            let ev = log.read(AggregateKind::Game, &AggregateId::new(&gid).unwrap(), 1).await.unwrap();
            let kinds: Vec<&str> = ev.iter().map(|e| e.event_type.as_str()).collect();
            assert_eq!(kinds.iter().filter(|k| **k == "weiqi.v1.GameCreated").count(), 1, "{gid}");
            assert_eq!(kinds.iter().filter(|k| **k == "weiqi.v1.GameEnded").count(), 1, "{gid}");
        }
    }
    // The .h9 export has one line per player.
    let h9 = tc
        .export(req(
            pb::ExportTournamentRequest {
                tournament_id: T.into(),
                kind: pb::export_tournament_request::Kind::H9 as i32,
                ..Default::default()
            },
            &tokens["p5"],
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(h9.content.lines().filter(|l| !l.starts_with(';')).count(), PLAYERS as usize);
    assert_eq!(weiqi_pairing::h9::check_h9(&h9.content), vec![], "{}", h9.content);
    pm_task.abort();
    projector_task.abort();
}
