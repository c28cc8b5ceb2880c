//! The defects a new user found (issue 10), each checked through the real gRPC and HTTP edges, on the
//! embedded log and on a real nats-server: hidden nigiri secrets per role, request ids reused by
//! another actor or command, out-of-range setups, strangers denied, `Watch` ending with the game, both
//! reflection protocols, and bearer tokens on the SGF route.

use std::time::Duration;

use futures::StreamExt;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tonic::Code;
use weiqi_e2e::{Suite, authed, code_of, pt, rid};
use weiqi_gateway::auth::Role;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_service_client::GameServiceClient;

fn player(id: &str, rank: &str) -> Option<pb::PlayerRef> {
    Some(pb::PlayerRef { id: id.into(), name: id.to_uppercase(), rank: rank.into() })
}

/// A started game of the league between alice (Black, 1d) and bob (White, 1k) on a `size` board,
/// created by the organiser: its id.
async fn league_game(c: &mut GameServiceClient<tonic::transport::Channel>, org: &str, size: u32) -> String {
    let req = pb::CreateGameRequest {
        request_id: rid(),
        size,
        first: player("alice", "1d"),
        second: player("bob", "1k"),
        event_id: "league".into(),
        start: true,
        ..Default::default()
    };
    c.create_game(authed(req, org)).await.unwrap().into_inner().game_id
}

fn nigiri_secrets(events: &[pb::EventEnvelope]) -> Vec<Vec<u8>> {
    events
        .iter()
        .filter_map(|e| match e.event.as_ref()?.kind.as_ref()? {
            pb::game_event::Kind::NigiriCommitted(n) => Some(n.secret.clone()),
            _ => None,
        })
        .collect()
}

/// A casual nigiri game created by alice: her reply, and its retry, carry no secret; a referee's view of
/// the log does; the revealed secret still checks against the commitment.
async fn nigiri_secret_stays_hidden(s: &Suite) {
    let alice = s.token("alice", &[Role::Player]);
    let bob = s.token("bob", &[Role::Player]);
    let referee = s.token("ref", &[Role::Admin]);
    let mut c = s.client().await;
    let req = pb::CreateGameRequest {
        request_id: rid(),
        size: 9,
        first: player("alice", "1d"),
        second: player("bob", "1k"),
        color_method: pb::game_created::ColorMethod::Nigiri as i32,
        start: true,
        ..Default::default()
    };
    let created = c.create_game(authed(req.clone(), &alice)).await.expect("a casual game").into_inner();
    let reply = created.reply.expect("a reply");
    let secrets = nigiri_secrets(&reply.events);
    assert_eq!(secrets.len(), 1, "the commitment is in the reply");
    assert!(secrets[0].is_empty(), "the creator must not receive the secret: {:?}", secrets[0]);
    // A retry of the same request answers the same, hidden.
    let retry = pb::CreateGameRequest { game_id: created.game_id.clone(), ..req };
    let again = c.create_game(authed(retry, &alice)).await.expect("a retry").into_inner().reply.unwrap();
    assert!(again.duplicate);
    assert!(nigiri_secrets(&again.events).iter().all(Vec::is_empty), "a retried reply hides the secret too");
    // Watching: players and the public see no secret, the referee (an administrator: the game has no
    // event) sees it.
    let watch = |token: String| {
        let game = created.game_id.clone();
        async move {
            let mut c = s.client().await;
            let mut stream = c
                .watch(authed(pb::WatchRequest { game_id: game, from_sequence: 1 }, &token))
                .await
                .expect("watch")
                .into_inner();
            let first_two: Vec<_> = stream.by_ref().take(2).map(|e| e.expect("an event")).collect().await;
            nigiri_secrets(&first_two)
        }
    };
    assert!(watch(alice.clone()).await.iter().all(Vec::is_empty));
    assert!(watch(s.token("tv", &[Role::Broadcaster])).await.iter().all(Vec::is_empty));
    let seen = watch(referee).await;
    assert_eq!(seen[0].len(), 32, "a referee sees the secret");
    // Bob guesses; the reveal carries the secret, which checks against the commitment, and the colors
    // say they were decided by nigiri.
    let guess = pb::GuessNigiriRequest { game_id: created.game_id.clone(), request_id: rid(), even: true };
    let r = c.guess_nigiri(authed(guess, &bob)).await.expect("the guess").into_inner();
    let revealed = r.events.iter().find_map(|e| match e.event.as_ref()?.kind.as_ref()? {
        pb::game_event::Kind::NigiriRevealed(n) => Some(n.secret.clone()),
        _ => None,
    });
    assert_eq!(revealed.as_ref().map(Vec::len), Some(32));
    let method = r.events.iter().find_map(|e| match e.event.as_ref()?.kind.as_ref()? {
        pb::game_event::Kind::ColorsDecided(d) => Some(d.method),
        _ => None,
    });
    assert_eq!(method, Some(pb::colors_decided::Method::Nigiri as i32));
}

/// Bob reusing Alice's request id with another point, or as a pass, is refused and appends nothing.
async fn a_reused_request_id_is_refused(s: &Suite) {
    let org = s.token("org", &[Role::Organiser]);
    let alice = s.token("alice", &[Role::Player]);
    let bob = s.token("bob", &[Role::Player]);
    let mut c = s.client().await;
    let game = league_game(&mut c, &org, 9).await;
    let id = rid();
    let mv = |vertex: &str, request_id: &str| pb::PlayMoveRequest {
        game_id: game.clone(),
        request_id: request_id.into(),
        point: Some(pt(vertex, 9)),
        ..Default::default()
    };
    c.play_move(authed(mv("E5", &id), &alice)).await.expect("Alice's move");
    let before = s.events(&game).await;
    // The same command from the same actor is a retry.
    let retry = c.play_move(authed(mv("E5", &id), &alice)).await.expect("a retry").into_inner();
    assert!(retry.duplicate);
    // Bob with Alice's id: another point, then a pass.
    let stolen = c.play_move(authed(mv("C3", &id), &bob)).await.expect_err("not Bob's request");
    assert_eq!((stolen.code(), code_of(&stolen).as_str()), (Code::InvalidArgument, "request_id_reused"));
    let pass = pb::PassRequest { game_id: game.clone(), request_id: id.clone(), ..Default::default() };
    let stolen = c.pass(authed(pass, &bob)).await.expect_err("not Bob's request");
    assert_eq!(code_of(&stolen), "request_id_reused");
    // Alice herself with another point under the same id.
    let other = c.play_move(authed(mv("D4", &id), &alice)).await.expect_err("another command");
    assert_eq!(code_of(&other), "request_id_reused");
    assert_eq!(s.events(&game).await, before, "nothing was appended");
    // Bob's own move with a fresh id still goes through.
    c.play_move(authed(mv("C3", &rid()), &bob)).await.expect("Bob's own move");
}

/// Out-of-range setups are refused with the field and the allowed range; nothing is appended.
async fn out_of_range_setups_are_refused(s: &Suite) {
    let org = s.token("org", &[Role::Organiser]);
    let mut c = s.client().await;
    let base = pb::CreateGameRequest {
        size: 19,
        first: player("alice", "1d"),
        second: player("bob", "1k"),
        event_id: "league".into(),
        ..Default::default()
    };
    let fischer = |initial_ms: i64, cap_ms: i64| {
        Some(pb::TimeControl {
            system: Some(pb::time_control::System::Fischer(pb::time_control::Fischer {
                initial_ms,
                increment_ms: 10_000,
                cap_ms,
            })),
            pass_on_overrun: false,
        })
    };
    let ruleset = |ko: i32| Some(pb::Ruleset { preset: "chinese".into(), ko, ..Default::default() });
    let cases: Vec<(&str, pb::CreateGameRequest, &str)> = vec![
        ("komi 2^31-1", pb::CreateGameRequest { komi_half_points: Some(i32::MAX), ..base.clone() }, "-722 to 722"),
        ("komi -2^31", pb::CreateGameRequest { komi_half_points: Some(i32::MIN), ..base.clone() }, "-722 to 722"),
        ("size 0", pb::CreateGameRequest { size: 0, ..base.clone() }, "2 to 25"),
        ("size 26", pb::CreateGameRequest { size: 26, ..base.clone() }, "2 to 25"),
        ("unknown ko rule", pb::CreateGameRequest { ruleset: ruleset(9), ..base.clone() }, "ko = 9"),
        ("Fischer 2^62 ms", pb::CreateGameRequest { time_control: fischer(1 << 62, 0), ..base.clone() }, "at most"),
        (
            "Fischer cap below initial",
            pb::CreateGameRequest { time_control: fischer(600_000, 60_000), ..base.clone() },
            "cap",
        ),
        ("ancient on 9×9", pb::CreateGameRequest { size: 9, rules: "ancient".into(), ..base.clone() }, "19×19"),
    ];
    for (what, mut req, says) in cases {
        req.request_id = rid();
        req.game_id = rid();
        let game = req.game_id.clone();
        let err = c.create_game(authed(req, &org)).await.expect_err(what);
        assert_eq!(err.code(), Code::InvalidArgument, "{what}: {err:?}");
        assert!(err.message().contains(says), "{what}: {:?} should say {says:?}", err.message());
        assert_eq!(s.events(&game).await, 0, "{what}: nothing appended");
    }
    // In range: accepted, and the count cannot overflow.
    let ok = pb::CreateGameRequest { request_id: rid(), komi_half_points: Some(722), ..base };
    c.create_game(authed(ok, &org)).await.expect("komi 361 is allowed on 19×19");
}

/// A player of neither side is denied (not told the phase), and the denial says what they may do.
async fn strangers_are_denied(s: &Suite) {
    let alice = s.token("alice", &[Role::Player]);
    let eve = s.token("eve", &[Role::Player]);
    let mut c = s.client().await;
    let req = pb::CreateGameRequest {
        request_id: rid(),
        size: 9,
        first: player("alice", "1d"),
        second: player("bob", "1k"),
        start: true,
        ..Default::default()
    };
    let game = c.create_game(authed(req, &alice)).await.unwrap().into_inner().game_id;
    let start = pb::GameRequest { game_id: game.clone(), request_id: rid() };
    let err = c.start_game(authed(start, &eve)).await.expect_err("not eve's game");
    assert_eq!(err.code(), Code::PermissionDenied, "{err:?}");
    assert!(!err.message().contains("in play"), "no game state leaks: {}", err.message());
    let warn = pb::RefereeRequest {
        game_id: game,
        request_id: rid(),
        action: Some(pb::referee_request::Action::Pause(pb::referee_request::Pause { reason: "x".into() })),
    };
    // A referee of some events only: this casual game belongs to none.
    let staff = s.auth.issue("ref", &[Role::Referee], &["city-open"], Duration::from_secs(60));
    let err = c.referee(authed(warn, &staff)).await.expect_err("not an event game");
    assert_eq!(err.code(), Code::PermissionDenied);
    assert!(err.message().contains("its players play it with their own accounts"), "{}", err.message());
}

/// `Watch` ends after the last event of a finished game, live or replayed.
async fn watch_ends_with_the_game(s: &Suite) {
    let org = s.token("org", &[Role::Organiser]);
    let alice = s.token("alice", &[Role::Player]);
    let bob = s.token("bob", &[Role::Player]);
    let tv = s.token("tv", &[Role::Broadcaster]);
    let mut c = s.client().await;
    let game = league_game(&mut c, &org, 9).await;
    let mut live =
        c.watch(authed(pb::WatchRequest { game_id: game.clone(), from_sequence: 1 }, &tv)).await.unwrap().into_inner();
    let mv = pb::PlayMoveRequest {
        game_id: game.clone(),
        request_id: rid(),
        point: Some(pt("E5", 9)),
        ..Default::default()
    };
    c.play_move(authed(mv, &alice)).await.unwrap();
    c.resign(authed(pb::GameRequest { game_id: game.clone(), request_id: rid() }, &bob)).await.unwrap();
    let all = tokio::time::timeout(Duration::from_secs(10), live.by_ref().collect::<Vec<_>>())
        .await
        .expect("the live stream ends after the game's last event");
    assert_eq!(all.len() as u64, s.events(&game).await);
    // Replayed after the end, and from past the end.
    for from in [1, 100] {
        let stream = c
            .watch(authed(pb::WatchRequest { game_id: game.clone(), from_sequence: from }, &tv))
            .await
            .unwrap()
            .into_inner();
        let n = tokio::time::timeout(Duration::from_secs(10), stream.count()).await.expect("ends");
        assert_eq!(n as u64, if from == 1 { s.events(&game).await } else { 0 });
    }
}

async fn both_reflection_protocols_answer(s: &Suite) {
    use tonic_reflection::pb::{v1, v1alpha};
    let channel = tonic::transport::Channel::from_shared(s.url.clone()).unwrap().connect().await.unwrap();
    let mut alpha = v1alpha::server_reflection_client::ServerReflectionClient::new(channel.clone());
    let request = v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1alpha::server_reflection_request::MessageRequest::ListServices(String::new())),
    };
    let mut replies =
        alpha.server_reflection_info(futures::stream::iter([request])).await.expect("v1alpha").into_inner();
    let reply = replies.next().await.expect("a reply").expect("v1alpha answers");
    let Some(v1alpha::server_reflection_response::MessageResponse::ListServicesResponse(list)) = reply.message_response
    else {
        panic!("not a service list: {reply:?}")
    };
    assert!(list.service.iter().any(|s| s.name == "weiqi.v1.GameService"), "{list:?}");
    let mut current = v1::server_reflection_client::ServerReflectionClient::new(channel);
    let request = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1::server_reflection_request::MessageRequest::ListServices(String::new())),
    };
    let mut replies = current.server_reflection_info(futures::stream::iter([request])).await.expect("v1").into_inner();
    assert!(replies.next().await.expect("a reply").is_ok());
}

/// `GET /games/{game}/sgf` with `authorization: Bearer` (programs) as well as `?token=` (browsers).
async fn sgf_takes_a_bearer_header(s: &Suite) {
    let org = s.token("org", &[Role::Organiser]);
    let mut c = s.client().await;
    let game = league_game(&mut c, &org, 9).await;
    let status = |header: Option<String>, query: &str| {
        let (addr, path) = (s.http.clone(), format!("/games/{game}/sgf{query}"));
        async move {
            let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
            let auth = header.map(|h| format!("Authorization: {h}\r\n")).unwrap_or_default();
            let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n");
            stream.write_all(request.as_bytes()).await.unwrap();
            let mut line = String::new();
            BufReader::new(stream).read_line(&mut line).await.unwrap();
            line.split_whitespace().nth(1).and_then(|s| s.parse::<u16>().ok()).unwrap()
        }
    };
    assert_eq!(status(Some(format!("Bearer {org}")), "").await, 200);
    assert_eq!(status(None, &format!("?token={org}")).await, 200);
    // The public reads finished games' records; a game in play's needs a token (issue 28 item 13).
    assert_eq!(status(None, "").await, 403);
    assert_eq!(status(Some("Bearer nonsense".into()), "").await, 401);
}

/// A move retried long after it was played (70 moves later, past any window of recent commands) is
/// answered with its original outcome, not refused as out of turn.
async fn a_retry_past_any_window_is_recognised(s: &Suite) {
    let org = s.token("org", &[Role::Organiser]);
    let alice = s.token("alice", &[Role::Player]);
    let bob = s.token("bob", &[Role::Player]);
    let mut c = s.client().await;
    let game = league_game(&mut c, &org, 19).await;
    // Black fills the bottom rows, White the top rows: no capture, 70 moves.
    let columns = "ABCDEFGHJKLMNOPQRST".as_bytes();
    let vertex = |k: usize, top: bool| {
        let row = if top { 19 - k / 19 } else { 1 + k / 19 };
        format!("{}{row}", columns[k % 19] as char)
    };
    let mv = |n: usize| {
        let (k, white) = (n / 2, n % 2 == 1);
        let r = pb::PlayMoveRequest {
            game_id: game.clone(),
            request_id: format!("{game}-move-{n}"),
            point: Some(pt(&vertex(k, white), 19)),
            ..Default::default()
        };
        (r, if white { &bob } else { &alice })
    };
    let mut first_answer = None;
    for n in 0..70 {
        let (r, token) = mv(n);
        let reply = c.play_move(authed(r, token)).await.unwrap_or_else(|e| panic!("move {n}: {e:?}")).into_inner();
        if n == 1 {
            first_answer = Some(reply.events);
        }
    }
    let before = s.events(&game).await;
    let (r, token) = mv(1);
    let again = c.play_move(authed(r, token)).await.expect("a retry, not not_your_turn").into_inner();
    assert!(again.duplicate);
    assert_eq!(Some(again.events), first_answer, "answered with the original events");
    assert_eq!(s.events(&game).await, before, "nothing appended");
}

async fn all(s: &Suite) {
    a_retry_past_any_window_is_recognised(s).await;
    nigiri_secret_stays_hidden(s).await;
    a_reused_request_id_is_refused(s).await;
    out_of_range_setups_are_refused(s).await;
    strangers_are_denied(s).await;
    watch_ends_with_the_game(s).await;
    both_reflection_protocols_answer(s).await;
    sgf_takes_a_bearer_header(s).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_defects_stay_fixed_on_the_embedded_log() {
    all(&Suite::embedded().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_defects_stay_fixed_on_nats() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    all(&Suite::nats(&nats.url(), 2).await).await;
}
