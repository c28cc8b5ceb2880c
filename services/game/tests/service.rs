//! The game service on both event logs: the embedded one and real NATS JetStream (a real nats-server
//! started by the testkit; skipped with a notice if it is missing, unless WEIQI_REQUIRE_EXTERNAL=1).

use std::sync::Arc;

use weiqi_eventlog::{
    AggregateId, AggregateKind, AnyEventLog, EmbeddedConfig, EmbeddedLog, EventLog, JetStreamConfig, JetStreamLog,
};
use weiqi_game::bus::answer;
use weiqi_game::convert::{decode_recorded, wire_command as command};
use weiqi_game::domain::{Actor, GameState, PlayerId};
use weiqi_game::service::GameService;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_command::Command as C;

fn ann() -> Actor {
    Actor::Player(PlayerId("ann".into()))
}
/// Games here are created by an organiser (a player only offers casual games).
fn organiser() -> Actor {
    Actor::Organiser("org".into())
}
fn bob() -> Actor {
    Actor::Player(PlayerId("bob".into()))
}

fn create(game: &str, size: u32) -> C {
    C::Create(pb::CreateGameRequest {
        game_id: game.into(),
        size,
        rules: "chinese".into(),
        first: Some(pb::PlayerRef { id: "ann".into(), name: "Ann".into(), rank: "2d".into() }),
        second: Some(pb::PlayerRef { id: "bob".into(), name: "Bob".into(), rank: "1d".into() }),
        start: true,
        ..Default::default()
    })
}

fn play(game: &str, x: u32, y: u32) -> C {
    C::Play(pb::PlayMoveRequest { game_id: game.into(), point: Some(pb::Point { x, y }), ..Default::default() })
}

fn outcome(r: &pb::GameCommandReply) -> &pb::game_command_reply::Outcome {
    r.outcome.as_ref().expect("a reply has an outcome")
}

fn is_accepted(r: &pb::GameCommandReply) -> bool {
    matches!(outcome(r), pb::game_command_reply::Outcome::Accepted(_))
}

fn rejection_code(r: &pb::GameCommandReply) -> String {
    match outcome(r) {
        pb::game_command_reply::Outcome::Rejected(rej) => rej.code.clone(),
        other => panic!("expected a rejection, got {other:?}"),
    }
}

async fn log_len<L: EventLog>(log: &L, game: &str) -> u64 {
    log.last_sequence(AggregateKind::Game, &AggregateId::new(game).unwrap()).await.unwrap()
}

/// The same suite on any log.
async fn suite(log: AnyEventLog) {
    let svc = Arc::new(GameService::new(log.clone()));
    let g = "g-suite-1";

    // Create, then a retry of the same request: one creation.
    let r = answer(&svc, &command(g, "c-1", &organiser(), create(g, 9)), &[]).await;
    assert!(is_accepted(&r), "{r:?}");
    let again = answer(&svc, &command(g, "c-1", &organiser(), create(g, 9)), &[]).await;
    let pb::game_command_reply::Outcome::Accepted(a) = outcome(&again) else { panic!("{again:?}") };
    assert!(a.duplicate);
    assert_eq!(log_len(&log, g).await, 3, "GameCreated, ColorsDecided, GameStarted");

    // A move, retried: appended once, answered with the same events.
    let first = answer(&svc, &command(g, "m-1", &ann(), play(g, 4, 4)), &[]).await;
    let retry = answer(&svc, &command(g, "m-1", &ann(), play(g, 4, 4)), &[]).await;
    let (pb::game_command_reply::Outcome::Accepted(a), pb::game_command_reply::Outcome::Accepted(b)) =
        (outcome(&first), outcome(&retry))
    else {
        panic!("{first:?} {retry:?}")
    };
    assert_eq!(a.events, b.events);
    assert!(b.duplicate);
    assert_eq!(log_len(&log, g).await, 4);

    // A second service instance (empty cache) answers the retry from the log.
    let other = GameService::new(log.clone());
    let retry = answer(&other, &command(g, "m-1", &ann(), play(g, 4, 4)), &[]).await;
    let pb::game_command_reply::Outcome::Accepted(c) = outcome(&retry) else { panic!("{retry:?}") };
    assert!(c.duplicate);
    assert_eq!(c.events, a.events);

    // Rejections append nothing.
    let before = log_len(&log, g).await;
    assert_eq!(rejection_code(&answer(&svc, &command(g, "m-2", &ann(), play(g, 3, 3)), &[]).await), "not_your_turn");
    assert_eq!(rejection_code(&answer(&svc, &command(g, "m-3", &bob(), play(g, 4, 4)), &[]).await), "occupied");
    assert_eq!(rejection_code(&answer(&svc, &command(g, "m-4", &bob(), play(g, 40, 4)), &[]).await), "off_board");
    let eve = Actor::Player(PlayerId("eve".into()));
    assert_eq!(rejection_code(&answer(&svc, &command(g, "m-5", &eve, play(g, 3, 3)), &[]).await), "not_a_player");
    assert_eq!(
        rejection_code(&answer(&svc, &command("nope", "m-6", &bob(), play("nope", 3, 3)), &[]).await),
        "not_found"
    );
    assert_eq!(log_len(&log, g).await, before);

    // The log replays to the same state, hashes checked.
    let events = log.read(AggregateKind::Game, &AggregateId::new(g).unwrap(), 1).await.unwrap();
    let domain: Vec<_> = events.iter().map(|r| decode_recorded(r).unwrap().event).collect();
    let state = GameState::replay(&domain).unwrap();
    assert_eq!(state.move_number, 1);

    // A view.
    let view = answer(&svc, &command(g, "v", &bob(), C::Get(pb::GetGameRequest { game_id: g.into() })), &[]).await;
    let pb::game_command_reply::Outcome::View(v) = outcome(&view) else { panic!("{view:?}") };
    assert_eq!(v.move_number, 1);
    assert_eq!(v.rows[4], "....X....");

    alternating_instances(log.clone()).await;
    conflicting_commands(log.clone()).await;
}

/// Two instances take turns serving one game: each one's cache is stale every other move, and neither
/// refuses a good move because of it.
async fn alternating_instances(log: AnyEventLog) {
    let g = "g-alternate";
    let a = GameService::new(log.clone());
    let b = GameService::new(log.clone());
    assert!(is_accepted(&answer(&a, &command(g, "alt-create", &organiser(), create(g, 9)), &[]).await));
    let moves = [(ann(), 2, 2), (bob(), 6, 6), (ann(), 2, 6), (bob(), 6, 2), (ann(), 4, 4)];
    for (i, (actor, x, y)) in moves.into_iter().enumerate() {
        let svc = if i % 2 == 0 { &a } else { &b };
        let r = answer(svc, &command(g, &format!("alt-{i}"), &actor, play(g, x, y)), &[]).await;
        assert!(is_accepted(&r), "move {i}: {r:?}");
    }
    // A stale instance still refuses what is really wrong.
    let r = answer(&b, &command(g, "alt-bad", &ann(), play(g, 4, 4)), &[]).await;
    assert_eq!(rejection_code(&r), "not_your_turn");
}

/// 1,000 concurrent commands, many conflicting, from two service instances on one game: exactly one
/// legal history, no fork, no gap.
async fn conflicting_commands(log: AnyEventLog) {
    let g = "g-race";
    let a = Arc::new(GameService::new(log.clone()));
    let b = Arc::new(GameService::new(log.clone()));
    assert!(is_accepted(&answer(&a, &command(g, "race-create", &organiser(), create(g, 19)), &[]).await));
    let mut tasks = Vec::new();
    for i in 0..1000u32 {
        let svc = if i % 2 == 0 { a.clone() } else { b.clone() };
        // Both players try every point in a small region, so most commands conflict or are illegal.
        let actor = if i % 3 == 0 { bob() } else { ann() };
        let (x, y) = (i % 7, (i / 7) % 7);
        tasks.push(tokio::spawn(async move {
            let r = answer(&svc, &command(g, &format!("race-{i}"), &actor, play(g, x, y)), &[]).await;
            (i, r)
        }));
    }
    let mut accepted_ids = Vec::new();
    for t in tasks {
        let (i, r) = t.await.unwrap();
        match outcome(&r) {
            pb::game_command_reply::Outcome::Accepted(_) => accepted_ids.push(i),
            pb::game_command_reply::Outcome::Rejected(_) => {}
            other => panic!("command {i}: {other:?}"),
        }
    }
    let events = log.read(AggregateKind::Game, &AggregateId::new(g).unwrap(), 1).await.unwrap();
    // Dense sequences, one legal history.
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.sequence, i as u64 + 1, "no gap");
    }
    let domain: Vec<_> = events.iter().map(|r| decode_recorded(r).unwrap().event).collect();
    let state = GameState::replay(&domain).expect("the log is one legal history");
    // Every accepted command appears exactly once.
    let stones =
        events.iter().filter(|e| e.command_id.as_str().starts_with("race-") && e.command_id.as_str() != "race-create");
    let mut ids: Vec<String> = stones.map(|e| e.command_id.as_str().to_string()).collect();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "no command appended twice");
    assert_eq!(n, accepted_ids.len(), "every accepted command is in the log, once");
    assert_eq!(state.move_number as usize, n);
    assert!(n > 10, "the race made progress: {n} moves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_suite_on_the_embedded_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default()).unwrap();
    suite(AnyEventLog::Embedded(log)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_suite_on_jetstream() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    let log = JetStreamLog::connect(&nats.url(), JetStreamConfig::default()).await.unwrap();
    suite(AnyEventLog::JetStream(log)).await;
}
