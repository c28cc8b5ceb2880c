//! The gateway's HTTP side: a game played through gRPC is followed as Server-Sent Events (one view when
//! the stream opens, one per move, the stream closing after the end), then fetched as an SGF record;
//! on the embedded log and on a real nats-server; and the refusals.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use weiqi_e2e::{Suite, authed, pt, rid};
use weiqi_gateway::auth::Role;
use weiqi_proto::v1 as pb;

/// A response being read: the status code and the rest of the connection.
struct Http {
    status: u16,
    content_type: String,
    content_length: Option<usize>,
    chunked: bool,
    reader: BufReader<TcpStream>,
}

async fn get(addr: &str, path: &str) -> Http {
    let mut stream = TcpStream::connect(addr).await.expect("the HTTP side is up");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).await.unwrap();
    let status = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).expect("a status line");
    let mut chunked = false;
    let mut content_type = String::new();
    let mut content_length = None;
    loop {
        line.clear();
        reader.read_line(&mut line).await.unwrap();
        if line == "\r\n" || line.is_empty() {
            break;
        }
        let lower = line.to_ascii_lowercase();
        if lower.starts_with("transfer-encoding: chunked") {
            chunked = true;
        }
        if let Some(v) = lower.strip_prefix("content-type:") {
            content_type = v.trim().to_owned();
        }
        if let Some(v) = lower.strip_prefix("content-length:") {
            content_length = v.trim().parse().ok();
        }
    }
    Http { status, content_type, content_length, chunked, reader }
}

impl Http {
    /// The whole body of a response that is not a stream.
    async fn body(mut self) -> String {
        if self.chunked {
            let mut all = String::new();
            while let Some(chunk) = self.chunk().await {
                all.push_str(&chunk);
            }
            return all;
        }
        let mut body = vec![0; self.content_length.expect("a length or chunks")];
        self.reader.read_exact(&mut body).await.unwrap();
        String::from_utf8(body).expect("UTF-8")
    }

    /// The next chunk of the body; `None` at its end.
    async fn chunk(&mut self) -> Option<String> {
        assert!(self.chunked, "an event stream is chunked");
        let mut size = String::new();
        self.reader.read_line(&mut size).await.ok()?;
        let n = usize::from_str_radix(size.trim(), 16).ok()?;
        if n == 0 {
            return None;
        }
        let mut body = vec![0; n + 2];
        self.reader.read_exact(&mut body).await.ok()?;
        body.truncate(n);
        Some(String::from_utf8(body).expect("UTF-8"))
    }

    /// The next `view` event, or `None` when the stream ends. Fails on a `problem` event.
    async fn view(&mut self, pending: &mut String) -> Option<Value> {
        loop {
            if let Some(end) = pending.find("\n\n") {
                let event: String = pending.drain(..end + 2).collect();
                let name = event.lines().find_map(|l| l.strip_prefix("event:")).map(str::trim);
                let data: String = event.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).collect();
                match name {
                    Some("view") => return Some(serde_json::from_str(&data).expect("a view is JSON")),
                    Some("problem") => panic!("the overlay reported a problem: {data}"),
                    _ => continue, // keep-alive comments
                }
            }
            let chunk = tokio::time::timeout(Duration::from_secs(20), self.chunk()).await.expect("an event in time")?;
            pending.push_str(&chunk);
        }
    }

    /// Views until one with `move_number` = `n` (clock re-sends of the previous one are skipped).
    async fn view_at(&mut self, pending: &mut String, n: u64) -> Value {
        loop {
            let v = self.view(pending).await.expect("the stream goes on");
            if v["move_number"].as_u64() == Some(n) {
                return v;
            }
            assert!(v["move_number"].as_u64() < Some(n), "skipped past move {n}: {v}");
        }
    }
}

/// A time control as `weiqi play new --time` writes it (`japanese:MIN:PERIODS:SECS`).
fn weiqi_play_time(spec: &str) -> Option<pb::TimeControl> {
    let f: Vec<i64> = spec.split(':').skip(1).map(|n| n.parse().unwrap()).collect();
    Some(pb::TimeControl {
        system: Some(pb::time_control::System::Japanese(pb::time_control::JapaneseByoYomi {
            main_ms: f[0] * 60_000,
            periods: f[1] as u32,
            period_ms: f[2] * 1000,
        })),
        pass_on_overrun: false,
    })
}

async fn play(s: &Suite, token: &str, game: &str, vertex: &str) {
    let mut c = s.client().await;
    let req = pb::PlayMoveRequest {
        game_id: game.into(),
        request_id: rid(),
        point: Some(pt(vertex, 9)),
        ..Default::default()
    };
    c.play_move(authed(req, token)).await.expect("the move is accepted");
}

async fn overlay(s: &Suite) {
    let org = s.token("org", &[Role::Organiser]);
    let alice = s.token("alice", &[Role::Player]);
    let bob = s.token("bob", &[Role::Player]);
    let tv = s.token("tv", &[Role::Broadcaster]);
    let mut c = s.client().await;
    let create = pb::CreateGameRequest {
        request_id: rid(),
        size: 9,
        rules: "chinese".into(),
        first: Some(pb::PlayerRef { id: "alice".into(), name: "Alice".into(), rank: "1d".into() }),
        second: Some(pb::PlayerRef { id: "bob".into(), name: "Bob".into(), rank: "1k".into() }),
        event_id: "league".into(),
        tournament_id: "city-open".into(),
        round: 3,
        board: 7,
        time_control: weiqi_play_time("japanese:60:5:30"),
        start: true,
        ..Default::default()
    };
    // A tournament's game is the platform's to create (its process manager does it when a round is
    // paired): created here the same way, through the game service as the tournament.
    assert_eq!(
        c.create_game(authed(create.clone(), &org)).await.unwrap_err().code(),
        tonic::Code::PermissionDenied,
        "an organiser does not name a tournament's game"
    );
    let g = "t-city-open-r3-b7".to_string();
    let platform = weiqi_game::domain::Actor::System("tournament".into());
    let command = weiqi_game::convert::wire_command(&g, &rid(), &platform, pb::game_command::Command::Create(create));
    let games = weiqi_game::service::GameService::new(s.log.clone());
    let reply = weiqi_game::bus::answer(&games, &command, &[]).await;
    assert!(matches!(reply.outcome, Some(pb::game_command_reply::Outcome::Accepted(_))), "{reply:?}");

    // Refusals, each with its status and nothing streamed.
    // The public watches without a token (what any spectator sees; issue 28 item 13), but a token
    // given must verify.
    assert_eq!(get(&s.http, &format!("/overlay/{g}/events")).await.status, 200, "no token: the public's view");
    let forged = weiqi_gateway::auth::Authority::new(b"not the server's secret, thirty-two+", "weiqi-e2e").issue(
        "tv",
        &[Role::Broadcaster],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(get(&s.http, &format!("/overlay/{g}/events?token={forged}")).await.status, 401, "forged");
    assert_eq!(get(&s.http, &format!("/overlay/no-such-game/events?token={tv}")).await.status, 404);
    assert_eq!(get(&s.http, &format!("/overlay/bad%20id/events?token={tv}")).await.status, 400);
    let page = get(&s.http, &format!("/overlay/{g}?token={tv}")).await;
    assert_eq!((page.status, page.content_type.as_str()), (200, "text/html; charset=utf-8"));

    play(s, &alice, &g, "E5").await;
    play(s, &bob, &g, "C3").await;

    // A viewer joining at move 2 gets one view of the position, not the game replayed.
    let mut http = get(&s.http, &format!("/overlay/{g}/events?token={tv}")).await;
    assert_eq!((http.status, http.content_type.as_str()), (200, "text/event-stream"));
    let mut pending = String::new();
    let v = http.view(&mut pending).await.expect("a first view");
    assert_eq!(v["move_number"], 2, "{v}");
    assert_eq!((v["phase"].as_str(), v["to_move"].as_str()), (Some("playing"), Some("black")));
    assert_eq!(v["last_move"]["move"], "C3");
    assert_eq!((v["black"]["name"].as_str(), v["white"]["rank"].as_str()), (Some("Alice"), Some("1k")));
    let rows: Vec<&str> = v["rows"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert_eq!(rows.len(), 9);
    assert_eq!(&rows[4][4..5], "X", "E5 is Black's: {rows:?}");
    assert_eq!(&rows[6][2..3], "O", "C3 is White's: {rows:?}");
    // Chinese by default: the time system in words, the event, round and board, the last moves.
    assert_eq!(v["lang"], "zh-CN");
    assert_eq!(v["time_system"], "基本用时1小时，读秒30秒5次");
    assert_eq!((v["event"].as_str(), v["round"].as_u64(), v["board"].as_u64()), (Some("league"), Some(3), Some(7)));
    let moves: Vec<String> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| format!("{} {} {}", m["number"], m["color"].as_str().unwrap(), m["move"].as_str().unwrap()))
        .collect();
    assert_eq!(moves, ["1 black E5", "2 white C3"]);

    // Live moves arrive as they are played.
    play(s, &alice, &g, "G3").await;
    let v = http.view_at(&mut pending, 3).await;
    assert_eq!((v["last_move"]["color"].as_str(), v["to_move"].as_str()), (Some("black"), Some("white")));
    assert_eq!(&v["rows"][6].as_str().unwrap()[6..7], "X");

    // The end: a final view with the result, then the stream closes.
    c.resign(authed(pb::GameRequest { game_id: g.clone(), request_id: rid() }, &bob)).await.unwrap();
    let last = loop {
        let v = http.view(&mut pending).await.expect("a view of the end");
        if v["phase"] == "ended" {
            break v;
        }
    };
    assert_eq!((last["result"]["sgf"].as_str(), last["to_move"].as_str()), (Some("B+R"), None));
    assert_eq!(last["result"]["words"], "黑中盘胜", "the result in words, not `B+R ·`");
    assert!(http.view(&mut pending).await.is_none(), "the stream ends after the game");
    // In English when asked (the page passes its language on).
    let mut english = get(&s.http, &format!("/overlay/{g}/events?lang=en&token={tv}")).await;
    let v = english.view(&mut String::new()).await.expect("a view");
    assert_eq!((v["result"]["words"].as_str(), v["lang"].as_str()), (Some("Black wins by resignation"), Some("en")));
    assert_eq!(v["time_system"], "1 h + 5 × 30 s byo-yomi");
    let page = get(&s.http, &format!("/overlay/{g}?lang=en&token={tv}")).await.body().await;
    assert!(page.contains(r#"<html lang="en">"#), "the page is in the language asked for");

    // The record, as SGF, for archives and analysts.
    // A finished game's record is public (issue 28 item 13); a forged token is still refused.
    assert_eq!(get(&s.http, &format!("/games/{g}/sgf")).await.status, 200);
    assert_eq!(get(&s.http, &format!("/games/{g}/sgf?token={forged}")).await.status, 401);
    assert_eq!(get(&s.http, &format!("/games/no-such-game/sgf?token={tv}")).await.status, 404);
    let sgf = get(&s.http, &format!("/games/{g}/sgf?token={tv}")).await;
    assert_eq!((sgf.status, sgf.content_type.as_str()), (200, "application/x-go-sgf; charset=utf-8"));
    let text = sgf.body().await;
    let (record, game) = weiqi_sgf::load(text.as_bytes()).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!((record.size, record.nodes.len(), record.result.as_deref()), (9, 3, Some("B+R")));
    assert_eq!((record.black.name.as_deref(), record.white.rank.as_deref()), (Some("Alice"), Some("1k")));
    assert_eq!(record.game_name.as_deref(), Some(g.as_str()));
    assert!(record.date.as_deref().is_some_and(|d| d.len() == 10 && d.starts_with("20")), "{:?}", record.date);
    assert_eq!(game.board().to_ascii().matches('X').count(), 2);
    // The same record through gRPC.
    let by_grpc = c.get_record(authed(pb::GetGameRequest { game_id: g.clone() }, &tv)).await.unwrap().into_inner();
    assert_eq!(by_grpc.sgf, text);
    let missing = c.get_record(authed(pb::GetGameRequest { game_id: "no-such-game".into() }, &tv)).await.unwrap_err();
    assert_eq!(missing.code(), tonic::Code::NotFound);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overlay_follows_a_game_on_the_embedded_log() {
    overlay(&Suite::embedded().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overlay_follows_a_game_on_jetstream() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    overlay(&Suite::nats(&nats.url(), 1).await).await;
}
