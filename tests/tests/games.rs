//! Complete games through the real gRPC API, on the embedded log and on a real nats-server; bad input;
//! retries; fault injection (kill -9 nats-server, kill a game-service instance).

use std::time::Duration;

use tonic::Code;
use weiqi_e2e::{Suite, authed, code_of, pt, rid};
use weiqi_gateway::auth::Role;
use weiqi_proto::v1 as pb;

struct Tokens {
    org: String,
    alice: String,
    bob: String,
    referee: String,
    eve: String,
    tv: String,
}

fn tokens(s: &Suite) -> Tokens {
    Tokens {
        org: s.token("org", &[Role::Organiser]),
        alice: s.token("alice", &[Role::Player]),
        bob: s.token("bob", &[Role::Player]),
        referee: s.token("ref", &[Role::Referee]),
        eve: s.token("eve", &[Role::Player]),
        tv: s.token("tv", &[Role::Broadcaster]),
    }
}

async fn new_game(s: &Suite, t: &Tokens, size: u32, rules: &str) -> String {
    let mut c = s.client().await;
    let req = pb::CreateGameRequest {
        request_id: rid(),
        size,
        rules: rules.into(),
        first: Some(pb::PlayerRef { id: "alice".into(), name: "Alice".into(), rank: "1d".into() }),
        second: Some(pb::PlayerRef { id: "bob".into(), name: "Bob".into(), rank: "1k".into() }),
        event_id: "league".into(),
        start: true,
        ..Default::default()
    };
    c.create_game(authed(req, &t.org)).await.expect("create").into_inner().game_id
}

async fn play(s: &Suite, token: &str, game: &str, vertex: &str, size: u8) -> Result<pb::CommandReply, tonic::Status> {
    let mut c = s.client().await;
    let req = pb::PlayMoveRequest {
        game_id: game.into(),
        request_id: rid(),
        point: Some(pt(vertex, size)),
        ..Default::default()
    };
    c.play_move(authed(req, token)).await.map(|r| r.into_inner())
}

async fn pass(s: &Suite, token: &str, game: &str) -> Result<pb::CommandReply, tonic::Status> {
    let mut c = s.client().await;
    c.pass(authed(pb::PassRequest { game_id: game.into(), request_id: rid(), ..Default::default() }, token))
        .await
        .map(|r| r.into_inner())
}

async fn view(s: &Suite, token: &str, game: &str) -> pb::GameView {
    let mut c = s.client().await;
    c.get_game(authed(pb::GetGameRequest { game_id: game.into() }, token)).await.expect("view").into_inner()
}

fn ended(reply: &pb::CommandReply) -> Option<pb::GameResult> {
    reply.events.iter().find_map(|e| match e.event.as_ref()?.kind.as_ref()? {
        pb::game_event::Kind::Ended(g) => g.result.clone(),
        _ => None,
    })
}

/// The game suite, the same on every backend.
async fn suite(s: &Suite) {
    let t = tokens(s);
    let mut c = s.client().await;

    // A game to two passes, dead-stone marking and an accepted score.
    let g = new_game(s, &t, 9, "chinese").await;
    play(s, &t.alice, &g, "E5", 9).await.unwrap();
    play(s, &t.bob, &g, "C3", 9).await.unwrap();
    play(s, &t.alice, &g, "G3", 9).await.unwrap();
    pass(s, &t.bob, &g).await.unwrap();
    let r = pass(s, &t.alice, &g).await.unwrap();
    assert!(r.events.iter().any(|e| matches!(
        e.event.as_ref().and_then(|e| e.kind.as_ref()),
        Some(pb::game_event::Kind::ScoringStarted(_))
    )));
    c.mark_dead(authed(
        pb::MarkDeadRequest { game_id: g.clone(), request_id: rid(), points: vec![pt("C3", 9)] },
        &t.alice,
    ))
    .await
    .unwrap();
    // Marking is not accepting: the marker accepts too (issue 32 item 4).
    c.accept_score(authed(pb::GameRequest { game_id: g.clone(), request_id: rid() }, &t.alice)).await.unwrap();
    let r = c
        .accept_score(authed(pb::GameRequest { game_id: g.clone(), request_id: rid() }, &t.bob))
        .await
        .unwrap()
        .into_inner();
    let result = ended(&r).expect("the count ends the game");
    assert_eq!(result.sgf, "B+73.5");
    let v = view(s, &t.tv, &g).await;
    assert_eq!(v.phase, pb::game_view::Phase::Ended as i32);
    assert_eq!(v.score.as_ref().map(|s| s.black_area_halves), Some(162));

    // A resignation.
    let g = new_game(s, &t, 9, "japanese").await;
    play(s, &t.alice, &g, "E5", 9).await.unwrap();
    let r =
        c.resign(authed(pb::GameRequest { game_id: g.clone(), request_id: rid() }, &t.bob)).await.unwrap().into_inner();
    assert_eq!(ended(&r).unwrap().sgf, "B+R");

    // A dispute that resumes play, claimant first.
    let g = new_game(s, &t, 9, "japanese").await;
    play(s, &t.alice, &g, "E5", 9).await.unwrap();
    play(s, &t.bob, &g, "A1", 9).await.unwrap();
    pass(s, &t.alice, &g).await.unwrap();
    pass(s, &t.bob, &g).await.unwrap();
    c.mark_dead(authed(
        pb::MarkDeadRequest { game_id: g.clone(), request_id: rid(), points: vec![pt("A1", 9)] },
        &t.alice,
    ))
    .await
    .unwrap();
    c.dispute_score(authed(pb::GameRequest { game_id: g.clone(), request_id: rid() }, &t.bob)).await.unwrap();
    assert_eq!(view(s, &t.tv, &g).await.phase, pb::game_view::Phase::Playing as i32);
    let err = play(s, &t.bob, &g, "B1", 9).await.unwrap_err();
    assert_eq!((err.code(), code_of(&err).as_str()), (Code::FailedPrecondition, "not_your_turn"));
    play(s, &t.alice, &g, "B1", 9).await.unwrap();

    // A second warning loses.
    let g = new_game(s, &t, 9, "chinese").await;
    let warn = |color: pb::Color| pb::RefereeRequest {
        game_id: g.clone(),
        request_id: rid(),
        action: Some(pb::referee_request::Action::Warn(pb::referee_request::Warn {
            color: color as i32,
            reason: "Art. 17.4".into(),
        })),
    };
    c.referee(authed(warn(pb::Color::White), &t.referee)).await.unwrap();
    let r = c.referee(authed(warn(pb::Color::White), &t.referee)).await.unwrap().into_inner();
    assert_eq!(ended(&r).unwrap().outcome, pb::game_result::Outcome::BlackWins as i32);
    assert_eq!(ended(&r).unwrap().reason, pb::game_result::Reason::Warnings as i32);

    // Retrying a command with the same id returns the same result and appends once.
    let g = new_game(s, &t, 9, "chinese").await;
    let req = pb::PlayMoveRequest {
        game_id: g.clone(),
        request_id: "retry-me".into(),
        point: Some(pt("D4", 9)),
        ..Default::default()
    };
    let first = c.play_move(authed(req.clone(), &t.alice)).await.unwrap().into_inner();
    let before = s.events(&g).await;
    let second = c.play_move(authed(req.clone(), &t.alice)).await.unwrap().into_inner();
    assert!(second.duplicate);
    assert_eq!(first.events, second.events);
    assert_eq!(s.events(&g).await, before, "a retry appends nothing");

    bad_input(s, &t, &g).await;
}

/// Each bad input gets the right status code, and nothing is appended.
async fn bad_input(s: &Suite, t: &Tokens, g: &str) {
    let mut c = s.client().await;
    let before = s.events(g).await;
    // Wrong turn, illegal move, another player's game.
    let e = play(s, &t.alice, g, "E5", 9).await.unwrap_err();
    assert_eq!((e.code(), code_of(&e).as_str()), (Code::FailedPrecondition, "not_your_turn"));
    let e = play(s, &t.bob, g, "D4", 9).await.unwrap_err();
    assert_eq!((e.code(), code_of(&e).as_str()), (Code::FailedPrecondition, "occupied"));
    let e = play(s, &t.eve, g, "E5", 9).await.unwrap_err();
    assert_eq!((e.code(), code_of(&e).as_str()), (Code::PermissionDenied, "not_a_player"));
    // Off the board.
    let req = pb::PlayMoveRequest {
        game_id: g.into(),
        request_id: rid(),
        point: Some(pb::Point { x: 30, y: 3 }),
        ..Default::default()
    };
    let e = c.play_move(authed(req, &t.bob)).await.unwrap_err();
    assert_eq!((e.code(), code_of(&e).as_str()), (Code::InvalidArgument, "off_board"));
    // Malformed: no point, no request id.
    let req = pb::PlayMoveRequest { game_id: g.into(), request_id: rid(), point: None, ..Default::default() };
    assert_eq!(c.play_move(authed(req, &t.bob)).await.unwrap_err().code(), Code::InvalidArgument);
    let req = pb::PlayMoveRequest {
        game_id: g.into(),
        request_id: String::new(),
        point: Some(pt("E5", 9)),
        ..Default::default()
    };
    assert_eq!(c.play_move(authed(req, &t.bob)).await.unwrap_err().code(), Code::InvalidArgument);
    // Oversized.
    let req = pb::PlayMoveRequest {
        game_id: "x".repeat(100_000),
        request_id: rid(),
        point: Some(pt("E5", 9)),
        ..Default::default()
    };
    let e = c.play_move(authed(req, &t.bob)).await.unwrap_err();
    assert!(matches!(e.code(), Code::OutOfRange | Code::ResourceExhausted | Code::InvalidArgument), "{e:?}");
    // Unknown game.
    let e = play(s, &t.bob, "no-such-game", "E5", 9).await.unwrap_err();
    assert_eq!(e.code(), Code::NotFound);
    // Forged and expired tokens; no token.
    let mut forged = t.bob.clone();
    forged.replace_range(forged.len() - 4.., "AAAA");
    assert_eq!(play(s, &forged, g, "E5", 9).await.unwrap_err().code(), Code::Unauthenticated);
    let other = weiqi_gateway::auth::Authority::new(b"not the server's secret, thirty-two+", "weiqi-e2e");
    let foreign = other.issue("bob", &[Role::Player], &[], Duration::from_secs(60));
    assert_eq!(play(s, &foreign, g, "E5", 9).await.unwrap_err().code(), Code::Unauthenticated);
    let expired = s.auth.issue("bob", &[Role::Player], &[], Duration::from_secs(0));
    tokio::time::sleep(Duration::from_secs(7)).await; // past the 5 s leeway
    assert_eq!(play(s, &expired, g, "E5", 9).await.unwrap_err().code(), Code::Unauthenticated);
    let req = pb::GetGameRequest { game_id: g.into() };
    assert_eq!(c.get_game(tonic::Request::new(req)).await.unwrap_err().code(), Code::Unauthenticated);
    // Broadcasters only read; referees of another event cannot act.
    assert_eq!(play(s, &t.tv, g, "E5", 9).await.unwrap_err().code(), Code::PermissionDenied);
    let outsider = s.auth.issue("ref2", &[Role::Referee], &["another-event"], Duration::from_secs(60));
    let warn = pb::RefereeRequest {
        game_id: g.into(),
        request_id: rid(),
        action: Some(pb::referee_request::Action::Warn(pb::referee_request::Warn { color: 1, reason: "x".into() })),
    };
    assert_eq!(c.referee(authed(warn, &outsider)).await.unwrap_err().code(), Code::PermissionDenied);
    assert_eq!(s.events(g).await, before, "no bad input appended anything");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_suite_on_the_embedded_log() {
    let s = Suite::embedded().await;
    suite(&s).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_suite_on_nats() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    let s = Suite::nats(&nats.url(), 2).await;
    suite(&s).await;
}

/// kill -9 nats-server mid-game, then restart it: clients get Unavailable during the outage and continue
/// afterwards; not one move is lost or duplicated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nats_outage_loses_and_duplicates_nothing() {
    let Some(mut nats) = weiqi_testkit::nats_or_skip() else { return };
    let s = Suite::nats(&nats.url(), 1).await;
    let t = tokens(&s);
    let g = new_game(&s, &t, 9, "chinese").await;
    let moves = ["E5", "C3", "G3", "C7", "G7", "E3", "E7", "C5", "G5", "D4"];
    let mut c = s.client().await;
    let request = |i: usize| pb::PlayMoveRequest {
        game_id: g.clone(),
        request_id: format!("move-{i}"),
        point: Some(pt(moves[i], 9)),
        ..Default::default()
    };
    let token = |i: usize| if i.is_multiple_of(2) { t.alice.clone() } else { t.bob.clone() };
    for i in 0..4 {
        c.play_move(authed(request(i), &token(i))).await.unwrap();
    }
    nats.kill();
    // During the outage the move is answered Unavailable (never an error that would make the client give up).
    for _ in 0..2 {
        let e = c.play_move(authed(request(4), &token(4))).await.unwrap_err();
        assert_eq!(e.code(), Code::Unavailable, "{e:?}");
    }
    nats.restart().expect("nats-server restarts");
    // The client retries the same request ids until each is answered; then plays on.
    #[allow(clippy::needless_range_loop)]
    for i in 4..moves.len() {
        let mut tries = 0;
        loop {
            match c.play_move(authed(request(i), &token(i))).await {
                Ok(_) => break,
                Err(e) if e.code() == Code::Unavailable && tries < 100 => {
                    tries += 1;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("move {i} ({}): {e:?}", moves[i]),
            }
        }
    }
    // One legal history with every move exactly once.
    let v = view(&s, &t.tv, &g).await;
    assert_eq!(v.move_number, moves.len() as u32);
    let stones: usize = v.rows.iter().map(|r| r.chars().filter(|c| *c != '.').count()).sum();
    assert_eq!(stones, moves.len());
    use weiqi_eventlog::EventLog;
    let recorded = s
        .log
        .read(weiqi_eventlog::AggregateKind::Game, &weiqi_eventlog::AggregateId::new(&g).unwrap(), 1)
        .await
        .unwrap();
    for i in 0..moves.len() {
        let n = recorded.iter().filter(|e| e.command_id.as_str() == format!("move-{i}")).count();
        assert_eq!(n, 1, "move {i} recorded once");
    }
}

/// Kill one game-service instance mid-load: the other takes over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_game_service_instance_takes_over() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    let s = Suite::nats(&nats.url(), 2).await;
    let t = tokens(&s);
    let g = new_game(&s, &t, 19, "chinese").await;
    let mut c = s.client().await;
    let letters = "ABCDEFGHJKLMNOPQRST";
    for i in 0..40u32 {
        if i == 10 {
            s.game_instances[0].abort();
        }
        let v = format!("{}{}", &letters[(i % 19) as usize..(i % 19) as usize + 1], 1 + (i / 19) * 2 + (i % 2));
        let token = if i % 2 == 0 { &t.alice } else { &t.bob };
        let id = format!("load-{i}");
        let mut tries = 0;
        loop {
            let req = pb::PlayMoveRequest {
                game_id: g.clone(),
                request_id: id.clone(),
                point: Some(pt(&v, 19)),
                ..Default::default()
            };
            match c.play_move(authed(req, token)).await {
                Ok(_) => break,
                Err(e) if e.code() == Code::Unavailable && tries < 20 => {
                    tries += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("move {i} {v}: {e:?}"),
            }
        }
    }
    let v = view(&s, &t.tv, &g).await;
    assert_eq!(v.move_number, 40, "no move lost or duplicated across the takeover");
}
