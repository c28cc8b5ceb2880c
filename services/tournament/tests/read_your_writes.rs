//! Issue 15 item 4: read your writes. A command's reply carries the log position it reached; reads
//! (summary, standings, pairings) that ask for "at least position N" wait briefly until the read
//! model — here folded by the projector running on its own, as in `weiqi up` — has reached it, so
//! `GetPairings` right after `PairRound` answers the round instead of `NotFound`. A position the
//! log never reaches is refused with `Unavailable`, naming the position reached.

mod common;

use std::sync::Arc;

use common::*;
use tonic::Code;
use weiqi_game::client::GameClient;
use weiqi_game::service::GameService;
use weiqi_gateway::auth::Role;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::tournament_service_client::TournamentServiceClient;
use weiqi_tournament::directory::MemoryDirectory;
use weiqi_tournament::projector::Projector;
use weiqi_tournament::read_model::{AnyReadModel, MemoryReadModel};
use weiqi_tournament::service::TournamentService;

#[tokio::test]
async fn reads_wait_for_the_position_a_command_reached() {
    let (_dir, log) = embedded();
    let svc = Arc::new(TournamentService::new(log.clone()));
    let games = GameClient::Local(Arc::new(GameService::new(log.clone())));
    let model: AnyReadModel = MemoryReadModel::new().into();
    tokio::spawn(Arc::new(Projector::new(log.clone(), model.clone())).run());
    let auth = authority();
    let (url, _stop) =
        serve_gateway(log.clone(), games, svc, model, auth.clone(), Arc::new(MemoryDirectory::new())).await;
    let mut c = TournamentServiceClient::connect(url).await.unwrap();
    let t = "ryw-open";
    let org = token(&auth, "org", &[Role::Organiser], &[t]);
    let create = pb::CreateTournamentRequest {
        tournament_id: t.into(),
        request_id: "c".into(),
        config: Some(mcmahon_pb("RYW Open", 3)),
        settings: Some(pb::TournamentGameSettings { size: 9, ..Default::default() }),
    };
    c.create_tournament(req(create, &org)).await.unwrap();
    for i in 1..=6 {
        let r = pb::RegisterPlayerRequest {
            tournament_id: t.into(),
            request_id: format!("r{i}"),
            account_id: format!("p{i}"),
            player: 0,
            snapshot: Some(snapshot(i)),
        };
        c.register_player(req(r, &org)).await.unwrap();
    }
    let start = pb::TournamentRequest { tournament_id: t.into(), request_id: "s".into() };
    c.start_tournament(req(start, &org)).await.unwrap();
    for round in 1..=3u32 {
        let pair = pb::PairRoundRequest { tournament_id: t.into(), request_id: format!("p{round}"), round };
        let reply = c.pair_round(req(pair, &org)).await.unwrap().into_inner();
        assert!(reply.sequence > 0, "the reply carries the position it reached");
        // At once, with the reply's position: the round is there, never NotFound.
        let ask = pb::GetTournamentPairingsRequest { tournament_id: t.into(), round, min_sequence: reply.sequence };
        let p = c.get_pairings(req(ask, &org)).await.unwrap().into_inner();
        assert_eq!((p.round, p.games.len()), (round, 3));
        let ask = pb::GetTournamentRequest { tournament_id: t.into(), min_sequence: reply.sequence };
        let s = c.get_tournament(req(ask, &org)).await.unwrap().into_inner();
        assert!(s.sequence >= reply.sequence && s.rounds_paired == round);
        let mut last = reply.sequence;
        for g in &p.games {
            let result = pb::RecordTournamentResultRequest {
                tournament_id: t.into(),
                request_id: format!("res-{round}-{}", g.table),
                round,
                table: g.table,
                result: Some(pb::TournamentGameOutcome {
                    outcome: pb::tournament_game_outcome::Outcome::WhiteWins as i32,
                    reason: 0,
                }),
                correction: false,
                cheating: false,
            };
            last = c.record_result(req(result, &org)).await.unwrap().into_inner().sequence;
        }
        // The standings asked for at the last result's position count every game of the round.
        let ask =
            pb::GetTournamentStandingsRequest { tournament_id: t.into(), offset: 0, limit: 0, min_sequence: last };
        let st = c.get_standings(req(ask, &org)).await.unwrap().into_inner();
        assert!(st.sequence >= last);
        assert_eq!(st.after_round, round);
        assert_eq!(st.rows.iter().map(|r| r.wins).sum::<u32>(), 3 * round, "every result of round {round} counted");
    }
    // A position the log never reaches: Unavailable after the wait, naming the position reached.
    let ask = pb::GetTournamentPairingsRequest { tournament_id: t.into(), round: 1, min_sequence: 1_000_000 };
    let err = c.get_pairings(req(ask, &org)).await.unwrap_err();
    assert_eq!(err.code(), Code::Unavailable);
    assert!(err.message().contains("not yet 1000000"), "{}", err.message());
}
