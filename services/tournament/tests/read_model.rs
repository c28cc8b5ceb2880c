//! One suite for both read models: in memory, and Redis (a real redis-server from the testkit;
//! skipped with a notice if it is missing, unless WEIQI_REQUIRE_EXTERNAL=1).

mod common;

use std::sync::Arc;

use common::*;
use weiqi_pairing::standings::standings;
use weiqi_proto::v1 as pb;
use weiqi_tournament::projector::Projector;
use weiqi_tournament::read_model::{
    AnyReadModel, MemoryReadModel, ReadModel, RedisReadModel, RoundUpdate, StandingsUpdate, Update,
};
use weiqi_tournament::service::TournamentService;

fn row(entrant: u32, place: u32, points: &str) -> pb::TournamentStandingRow {
    pb::TournamentStandingRow {
        place,
        entrant,
        account_id: format!("p{entrant}"),
        name_latin: format!("Player {entrant}"),
        values: vec![points.into()],
        ..Default::default()
    }
}

fn game(table: u32, result: &str) -> pb::TournamentPairing {
    pb::TournamentPairing { table, black: table * 2 - 1, white: table * 2, result: result.into(), ..Default::default() }
}

fn update(t: &str, sequence: u64, rounds_paired: u32) -> Update {
    Update {
        tournament: t.into(),
        sequence,
        summary: pb::TournamentSummary { tournament_id: t.into(), rounds_paired, sequence, ..Default::default() },
        ..Default::default()
    }
}

async fn suite(model: AnyReadModel) {
    let t = "suite-open";
    model.clear(t).await.unwrap();
    assert_eq!(model.applied(t).await.unwrap(), 0);
    assert_eq!(model.summary(t).await.unwrap(), None);
    assert_eq!(model.standings(t, 0, 0).await.unwrap(), None);
    assert_eq!(model.pairings(t, 0).await.unwrap(), None);

    // A first write: three rows, one round.
    let mut u = update(t, 10, 1);
    u.standings = Some(StandingsUpdate {
        after_round: 1,
        criteria: vec!["MMS".into(), "SOSM".into()],
        team: false,
        total: 3,
        rows: vec![(0, row(2, 1, "2")), (1, row(3, 2, "2")), (2, row(1, 3, "0"))],
        removed: vec![],
    });
    u.rounds = vec![RoundUpdate {
        round: 1,
        completed: false,
        games: vec![game(2, ""), game(1, "B+")],
        byes: Some(vec![pb::TournamentBye { player: 5, kind: "full-point".into(), ..Default::default() }]),
    }];
    assert!(model.apply(&u).await.unwrap());
    assert_eq!(model.applied(t).await.unwrap(), 10);
    let st = model.standings(t, 0, 0).await.unwrap().unwrap();
    assert_eq!(st.rows.iter().map(|r| r.entrant).collect::<Vec<_>>(), vec![2, 3, 1]);
    assert_eq!((st.total, st.after_round, st.sequence), (3, 1, 10));
    assert_eq!(st.criteria, vec!["MMS", "SOSM"]);
    let page = model.standings(t, 1, 1).await.unwrap().unwrap();
    assert_eq!(page.rows.iter().map(|r| r.entrant).collect::<Vec<_>>(), vec![3]);
    assert_eq!(page.total, 3);
    assert!(model.standings(t, 5, 2).await.unwrap().unwrap().rows.is_empty());
    let p = model.pairings(t, 0).await.unwrap().unwrap();
    assert_eq!(p.games.iter().map(|g| g.table).collect::<Vec<_>>(), vec![1, 2], "table order");
    assert_eq!(p.byes.len(), 1);
    assert!(!p.completed);

    // A replayed (or stale) update changes nothing.
    let mut stale = update(t, 10, 7);
    stale.standings = Some(StandingsUpdate { total: 0, removed: vec![1, 2, 3], ..Default::default() });
    assert!(!model.apply(&stale).await.unwrap());
    assert_eq!(model.summary(t).await.unwrap().unwrap().rounds_paired, 1);
    assert_eq!(model.standings(t, 0, 0).await.unwrap().unwrap().rows.len(), 3);

    // A later update: a row moves, one is removed, a result comes in, the round completes.
    let mut u = update(t, 12, 1);
    u.standings = Some(StandingsUpdate {
        after_round: 1,
        criteria: vec!["MMS".into(), "SOSM".into()],
        team: false,
        total: 2,
        rows: vec![(0, row(3, 1, "4")), (1, row(2, 2, "2"))],
        removed: vec![1],
    });
    u.rounds = vec![RoundUpdate { round: 1, completed: true, games: vec![game(2, "W+")], byes: None }];
    assert!(model.apply(&u).await.unwrap());
    let st = model.standings(t, 0, 0).await.unwrap().unwrap();
    assert_eq!(st.rows.iter().map(|r| (r.entrant, r.values[0].as_str())).collect::<Vec<_>>(), vec![(3, "4"), (2, "2")]);
    let p = model.pairings(t, 1).await.unwrap().unwrap();
    assert!(p.completed);
    assert_eq!(p.games.iter().map(|g| g.result.as_str()).collect::<Vec<_>>(), vec!["B+", "W+"]);
    assert_eq!(p.byes.len(), 1, "byes kept when not rewritten");
    assert_eq!(model.pairings(t, 2).await.unwrap(), None);

    // Checkpoints.
    assert_eq!(model.checkpoint("pm-games").await.unwrap(), None);
    model.set_checkpoint("pm-games", 77).await.unwrap();
    assert_eq!(model.checkpoint("pm-games").await.unwrap(), Some(77));

    // Cleared: gone, and writable from scratch again.
    model.clear(t).await.unwrap();
    assert_eq!(model.applied(t).await.unwrap(), 0);
    assert_eq!(model.summary(t).await.unwrap(), None);
    assert_eq!(model.pairings(t, 1).await.unwrap(), None);
    assert!(model.apply(&update(t, 1, 0)).await.unwrap());

    projected(model).await;
}

/// The projector writes what the core computes, idempotently, and a rebuild reproduces it.
async fn projected(model: AnyReadModel) {
    let (_dir, log) = embedded();
    let svc = TournamentService::with_environment(log.clone(), step_clock());
    let t = "proj-mm";
    model.clear(t).await.unwrap();
    open(&svc, t, mcmahon("Projected", 3), false, 11).await;
    play_round(&svc, t).await;
    play_round(&svc, t).await;
    let projector = Arc::new(Projector::new(log.clone(), model.clone()));
    projector.catch_up().await.unwrap();

    let check = |round: u32| {
        let (svc, model) = (&svc, &model);
        async move {
            let (want, rounds) = svc.read(t, |a| (standings(&a.core), a.core.current_round())).await.unwrap().unwrap();
            let got = model.standings(t, 0, 0).await.unwrap().unwrap();
            assert_eq!(got.after_round, want.after_round);
            assert_eq!(
                got.rows.iter().map(|r| (r.place, r.entrant, r.values.clone())).collect::<Vec<_>>(),
                want.rows
                    .iter()
                    .map(|r| (r.place, r.player.0, r.values.iter().map(|v| v.to_string()).collect::<Vec<_>>()))
                    .collect::<Vec<_>>()
            );
            assert!(
                got.rows.iter().all(|r| r.account_id == format!("p{}", r.entrant) && r.name_zh.starts_with("棋手"))
            );
            let summary = model.summary(t).await.unwrap().unwrap();
            assert_eq!(summary.rounds_paired, rounds);
            assert_eq!(summary.rounds_paired, round);
            let p = model.pairings(t, round).await.unwrap().unwrap();
            assert_eq!(p.games.len(), 5);
            assert_eq!(p.byes.len(), 1);
            assert!(p.games.iter().all(|g| !g.result.is_empty() && g.game_id.starts_with("t-proj-mm-r")));
        }
    };
    check(2).await;

    // More results: only the changes are written, and the result equals a fresh projection.
    play_round(&svc, t).await;
    projector.catch_up().await.unwrap();
    check(3).await;
    assert_eq!(model.summary(t).await.unwrap().unwrap().phase, "finished");
    let applied = model.applied(t).await.unwrap();

    // A second projector (a restart) replays without writing anything new.
    let again = Projector::new(log.clone(), model.clone());
    again.catch_up().await.unwrap();
    assert_eq!(model.applied(t).await.unwrap(), applied);

    // Dropped and rebuilt from the log: the same read model.
    let before = (model.standings(t, 0, 0).await.unwrap(), model.pairings(t, 2).await.unwrap());
    again.rebuild(t).await.unwrap();
    assert_eq!((model.standings(t, 0, 0).await.unwrap(), model.pairings(t, 2).await.unwrap()), before);
}

#[tokio::test]
async fn memory_read_model() {
    suite(MemoryReadModel::new().into()).await;
}

#[tokio::test]
async fn redis_read_model() {
    let redis = weiqi_testkit::require!(weiqi_testkit::RedisServer::start());
    let model = RedisReadModel::connect(&redis.url()).await.unwrap();
    suite(model.into()).await;
}
