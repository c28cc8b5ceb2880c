//! Issue 15 item 8, the service side: an event run in OpenGotha continues here. Its players are
//! registered under the accounts their keys give, `ImportOpenGotha` replays its rounds in one append
//! (checked first by a dry run that appends nothing), the standings are the file's, the process
//! manager creates no game for an imported round and pairs the next round itself; and the refusals
//! (a player not registered, other McMahon bars, a round already paired, a bad file, a caller who is
//! not staff) append nothing.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use common::*;
use weiqi_eventlog::{AggregateId, AggregateKind, EventLog};
use weiqi_game::client::GameClient;
use weiqi_game::service::GameService;
use weiqi_pairing::command::Command;
use weiqi_pairing::config::TournamentConfig;
use weiqi_pairing::ids::{Color, GameRef, PlayerId};
use weiqi_pairing::opengotha::{export_opengotha, read_tournament};
use weiqi_pairing::outcome::{GameResult, Outcome, ResultReason};
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::standings::standings;
use weiqi_pairing::state::Tournament;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::tournament_service_client::TournamentServiceClient;
use weiqi_tournament::aggregate::{ServiceRejection, TournamentCommand};
use weiqi_tournament::ids::game_id;
use weiqi_tournament::manager::{ManagerConfig, ProcessManager};
use weiqi_tournament::read_model::{AnyReadModel, MemoryReadModel};
use weiqi_tournament::service::{ServiceError, TournamentService};

const NAMES: [&str; 7] = ["Li Wei", "Wang Fang", "Zhang Min", "Chen Jie", "Liu Yang", "Zhao Lei", "Sun Li"];

/// The event as OpenGotha had it: a 3-round McMahon (bars 3d and 20k, as [`mcmahon`]), two rounds
/// played (a forfeit among them), written as OpenGotha writes its file.
fn in_opengotha() -> (Tournament, String) {
    let mut s = Simulation::new(mcmahon("Spring McMahon", 3), 77).unwrap();
    for (i, n) in NAMES.iter().enumerate() {
        let mut r = Registration::new(PlayerId(i as u32 + 1), n, Rank::from_value(4 - 3 * i as i32));
        r.club = Some("Qiyuan".into());
        s.run(Command::Register { registration: r }).unwrap();
    }
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    let forfeit = GameResult { outcome: Outcome::Win(Color::White), reason: ResultReason::Forfeit };
    s.run(Command::RecordResult { game: GameRef { round: 1, table: 1 }, result: forfeit }).unwrap();
    s.play_round().unwrap();
    s.run(Command::PairRound).unwrap();
    s.play_round().unwrap();
    let xml = export_opengotha(&s.state, 3);
    (s.state, xml)
}

/// Name → (McMahon score, games) after the last round.
fn table(t: &Tournament) -> BTreeMap<String, (String, usize)> {
    standings(t)
        .rows
        .iter()
        .map(|r| {
            let played = t
                .rounds
                .iter()
                .flat_map(|x| &x.games)
                .filter(|g| g.paired.black == r.player || g.paired.white == r.player)
                .count();
            (t.players[&r.player].registration.name_latin.clone(), (format!("{:?}", r.values[0]), played))
        })
        .collect()
}

/// A tournament here with the file's players registered under their accounts (as the desk's import
/// registers them).
async fn registered(svc: &TournamentService<weiqi_eventlog::AnyEventLog>, t: &str, config: TournamentConfig) {
    run(svc, t, &format!("create-{t}"), TournamentCommand::Create { config, settings: settings(true) }).await;
    let (_, xml) = in_opengotha();
    for (i, p) in read_tournament(&xml).unwrap().players.iter().enumerate() {
        let registration =
            Registration::new(PlayerId(0), &format!("{} {}", p.name, p.first_name), p.parsed_rank().unwrap());
        let cmd = TournamentCommand::Register { account: p.account(), registration };
        run(svc, t, &format!("reg-{t}-{i}"), cmd).await;
    }
}

async fn length(log: &weiqi_eventlog::AnyEventLog, t: &str) -> u64 {
    log.last_sequence(AggregateKind::Tournament, &AggregateId::new(t).unwrap()).await.unwrap()
}

fn import(xml: &str) -> TournamentCommand {
    TournamentCommand::ImportOpenGotha { file: Box::new(read_tournament(xml).unwrap()), sha256: "ab".repeat(32) }
}

#[tokio::test]
async fn the_rounds_come_in_at_once_and_the_event_goes_on_here() {
    let (_dir, log) = embedded();
    let svc = Arc::new(TournamentService::new(log.clone()));
    let games = Arc::new(GameService::new(log.clone()));
    let t = "spring-import";
    registered(&svc, t, mcmahon("Spring McMahon", 3)).await;
    let (original, xml) = in_opengotha();
    let before = length(&log, t).await;

    // The dry run shows what the import appends, and appends nothing.
    let dry = svc.dry_run(t, &organiser(), &import(&xml)).await.unwrap();
    assert!(dry.events.len() > 20, "start, 2 rounds of fixes, byes, pairings, results: {}", dry.events.len());
    assert_eq!(dry.events[0].sequence, before + 1);
    assert_eq!(length(&log, t).await, before, "a dry run appends nothing");

    // The import: one append.
    let accepted = svc.execute(t, "import-1", &organiser(), &import(&xml)).await.unwrap();
    assert_eq!(accepted.events.len(), dry.events.len());
    assert_eq!(length(&log, t).await, before + dry.events.len() as u64);
    let copy = svc.read(t, |a| (a.core.clone(), a.imported_rounds)).await.unwrap().unwrap();
    assert_eq!(copy.1, 2, "rounds 1 and 2 imported");
    assert_eq!(copy.0.current_round(), 2);
    assert_eq!(table(&copy.0), table(&original), "the same McMahon scores and games as in OpenGotha");
    let forfeit = copy.0.rounds[0].games.iter().find(|g| g.result.is_some_and(|r| r.reason == ResultReason::Forfeit));
    assert!(forfeit.is_some(), "the forfeit is still a forfeit");
    // A retry of the same request appends nothing more.
    let again = svc.execute(t, "import-1", &organiser(), &import(&xml)).await.unwrap();
    assert!(again.duplicate);
    // A second import is refused: rounds are already paired here.
    let second = svc.execute(t, "import-2", &organiser(), &import(&xml)).await;
    assert!(matches!(second, Err(ServiceError::Rejected(ServiceRejection::Import(_)))), "{second:?}");

    // The process manager: no game for the imported rounds; round 3 is paired here and played.
    let config = ManagerConfig {
        sweep_every: Duration::from_millis(50),
        retry_after: Duration::from_millis(20),
        ..ManagerConfig::default()
    };
    let pm =
        Arc::new(ProcessManager::new(svc.clone(), GameClient::Local(games.clone()), MemoryReadModel::new(), config));
    let task = tokio::spawn(pm.run());
    let mut round = 0;
    for _ in 0..500 {
        round = svc.read(t, |a| a.core.current_round()).await.unwrap().unwrap();
        if round == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(round, 3, "the manager pairs the first round after the imported ones");
    let tables = svc.read(t, |a| a.core.rounds[2].games.len() as u32).await.unwrap().unwrap();
    let mut created = false;
    for _ in 0..500 {
        let id = AggregateId::new(game_id(t, 3, 1)).unwrap();
        if !log.read(AggregateKind::Game, &id, 1).await.unwrap().is_empty() {
            created = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(created, "round 3's games are created");
    task.abort();
    let _ = task.await;
    for r in 1..=2 {
        for table in 1..=tables {
            let id = AggregateId::new(game_id(t, r, table)).unwrap();
            assert!(log.read(AggregateKind::Game, &id, 1).await.unwrap().is_empty(), "no game for round {r}");
        }
    }
}

#[tokio::test]
async fn what_cannot_be_imported_is_refused_and_nothing_is_appended() {
    let (_dir, log) = embedded();
    let svc = TournamentService::new(log.clone());
    let (_, xml) = in_opengotha();
    let refused = |r: Result<_, ServiceError>| match r {
        Err(ServiceError::Rejected(ServiceRejection::Import(why))) => why,
        other => panic!("not refused: {other:?}"),
    };

    // A player of the file is not registered.
    let t = "missing-player";
    run(&svc, t, "create", TournamentCommand::Create { config: mcmahon("M", 3), settings: settings(false) }).await;
    let r = Registration::new(PlayerId(0), "Li Wei", Rank::Dan(4));
    run(&svc, t, "reg", TournamentCommand::Register { account: "liwei".into(), registration: r }).await;
    let before = length(&log, t).await;
    let why = refused(svc.execute(t, &format!("import-{t}"), &organiser(), &import(&xml)).await);
    assert!(why.contains("Wang Fang") && why.contains("wangfang"), "{why}");
    assert_eq!(length(&log, t).await, before);

    // Other McMahon bars than the file's.
    let t = "other-bars";
    let mut config = mcmahon("M", 3);
    if let weiqi_pairing::config::Format::McMahon { bars, .. } = &mut config.format {
        bars.top = Rank::Dan(1);
    }
    registered(&svc, t, config).await;
    let why = refused(svc.execute(t, &format!("import-{t}"), &organiser(), &import(&xml)).await);
    assert!(why.contains("bar 3d") && why.contains("1d"), "{why}");

    // A round already paired here.
    let t = "already-paired";
    registered(&svc, t, mcmahon("M", 3)).await;
    run(&svc, t, "start-paired", TournamentCommand::Core(Command::Start)).await;
    run(&svc, t, "pair-paired", TournamentCommand::PairRound { round: Some(1) }).await;
    let before = length(&log, t).await;
    let why = refused(svc.execute(t, &format!("import-{t}"), &organiser(), &import(&xml)).await);
    assert!(why.contains("already paired"), "{why}");
    assert_eq!(length(&log, t).await, before);
}

#[tokio::test]
async fn the_rpc_checks_the_caller_and_the_file() {
    let (_dir, log) = embedded();
    let svc = Arc::new(TournamentService::new(log.clone()));
    let games = GameClient::Local(Arc::new(GameService::new(log.clone())));
    let model: AnyReadModel = MemoryReadModel::new().into();
    let auth = authority();
    let directory = weiqi_tournament::directory::MemoryDirectory::new();
    let (url, _stop) = serve_gateway(log.clone(), games, svc.clone(), model, auth.clone(), Arc::new(directory)).await;
    let mut c = TournamentServiceClient::connect(url).await.unwrap();
    let t = "rpc-import";
    registered(&svc, t, mcmahon("Spring McMahon", 3)).await;
    let (_, xml) = in_opengotha();
    use weiqi_gateway::auth::Role;
    let organiser = token(&auth, "org", &[Role::Organiser], &[t]);
    let player = token(&auth, "liwei", &[Role::Player], &[]);
    let request = |file: &str, dry_run: bool, rid: &str| pb::ImportOpenGothaRequest {
        tournament_id: t.into(),
        request_id: rid.into(),
        file: file.into(),
        dry_run,
    };

    let denied = c.import_open_gotha(req(request(&xml, false, "a"), &player)).await.unwrap_err();
    assert_eq!(denied.code(), tonic::Code::PermissionDenied, "{denied:?}");
    let bad = c.import_open_gotha(req(request("<Players/>", false, "b"), &organiser)).await.unwrap_err();
    assert_eq!(bad.code(), tonic::Code::InvalidArgument, "{bad:?}");
    assert!(bad.message().contains("OpenGotha"), "{}", bad.message());
    let before = length(&log, t).await;
    let dry = c.import_open_gotha(req(request(&xml, true, ""), &organiser)).await.unwrap().into_inner();
    assert_eq!(length(&log, t).await, before);
    let done = c.import_open_gotha(req(request(&xml, false, "c"), &organiser)).await.unwrap().into_inner();
    assert_eq!(done.events.len(), dry.events.len());
    assert_eq!(done.sequence, before + dry.events.len() as u64);
    let marker = &done.events[0];
    let Some(pb::tournament_event_envelope::Body::Imported(m)) = &marker.body else {
        panic!("the first event is the import's marker: {marker:?}")
    };
    assert_eq!((m.source.as_str(), m.rounds, m.sha256.len()), ("OpenGotha", 2, 64));
    let refused = c.import_open_gotha(req(request(&xml, false, "d"), &organiser)).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::FailedPrecondition, "{refused:?}");
}
