//! `weiqi play`: a small gRPC client, so a newcomer can try the suite without writing code.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use futures::StreamExt;
use tonic::transport::Channel;
use weiqi_edge::patience::Patient;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_service_client::GameServiceClient;
use weiqi_rules::{Color, Game, Move, Point, Ruleset};

#[derive(Args)]
pub struct PlayArgs {
    /// The gateway.
    #[arg(long, global = true, default_value = "http://127.0.0.1:50051", env = "WEIQI_SERVER")]
    server: String,
    /// Bearer token (see the quick start of `weiqi up`, or `weiqi token`).
    #[arg(long, global = true, env = "WEIQI_TOKEN", hide_env_values = true)]
    token: Option<String>,
    #[command(subcommand)]
    command: PlayCommand,
}

#[derive(Subcommand)]
enum PlayCommand {
    /// Create a game (organisers; or a player for a casual game of their own).
    New {
        /// Black's player id (the first player; with --nigiri, colors are drawn).
        #[arg(long)]
        black: String,
        /// White's player id.
        #[arg(long)]
        white: String,
        #[arg(long, default_value_t = 19)]
        size: u32,
        /// Ruleset preset: chinese, japanese, korean, aga, new-zealand, tromp-taylor, ing, ancient.
        #[arg(long, default_value = "chinese")]
        rules: String,
        /// Komi in points (default: the ruleset's; 0 with handicap).
        #[arg(long)]
        komi: Option<f64>,
        #[arg(long, default_value_t = 0)]
        handicap: u32,
        /// Decide colors by nigiri (the second player guesses with `weiqi play guess`).
        #[arg(long)]
        nigiri: bool,
        /// Event id (referees of this event may act on the game).
        #[arg(long, default_value = "")]
        event: String,
        /// Time control: none, absolute:MIN, japanese:MIN:PERIODS:SECS, chinese:MIN:RESERVED, fischer:MIN:INCSECS,
        /// canadian:MIN:MOVES:PERIODMIN.
        #[arg(long, default_value = "none")]
        time: String,
        /// Count for ratings.
        #[arg(long)]
        rated: bool,
    },
    /// Play a stone (GTP vertex such as D4).
    Move {
        game: String,
        vertex: String,
        /// The move number this must be (guards against a stale view).
        #[arg(long, default_value_t = 0)]
        expect: u32,
    },
    /// Pass.
    Pass { game: String },
    /// Resign.
    Resign { game: String },
    /// Start the clock of a game created without `start`.
    Start { game: String },
    /// Guess the nigiri: even or odd.
    Guess {
        game: String,
        #[arg(value_parser = ["even", "odd"])]
        parity: String,
    },
    /// Propose dead chains (one vertex per chain) during the count.
    Dead { game: String, vertices: Vec<String> },
    /// Accept the count.
    Accept { game: String },
    /// Dispute the count: play resumes (Art. 21.4).
    Dispute { game: String },
    /// Show the board, clocks and result.
    Show { game: String },
    /// Write the game record as SGF (to standard output, or to a file).
    Sgf {
        game: String,
        /// Write to this file instead of standard output.
        #[arg(long, short)]
        out: Option<std::path::PathBuf>,
    },
    /// Print the game's events as they happen (from the start).
    Watch {
        game: String,
        #[arg(long, default_value_t = 1)]
        from: u64,
    },
    /// Play a whole random game between two players to a counted result (a demonstration).
    Demo {
        /// Organiser token (creates the game).
        #[arg(long, env = "WEIQI_TOKEN_ORGANISER", hide_env_values = true)]
        organiser: String,
        /// Black's token (player `alice` in the quick start).
        #[arg(long, env = "WEIQI_TOKEN_ALICE", hide_env_values = true)]
        black: String,
        /// White's token (player `bob`).
        #[arg(long, env = "WEIQI_TOKEN_BOB", hide_env_values = true)]
        white: String,
        #[arg(long, default_value = "alice")]
        black_id: String,
        #[arg(long, default_value = "bob")]
        white_id: String,
        #[arg(long, default_value_t = 9)]
        size: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn request_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

fn authed<T>(message: T, token: &str) -> Result<tonic::Request<T>> {
    let mut r = tonic::Request::new(message);
    r.metadata_mut().insert("authorization", format!("Bearer {token}").parse().context("token is not valid ASCII")?);
    Ok(r)
}

fn status_error(s: tonic::Status) -> anyhow::Error {
    match weiqi_gateway::error::rejection_of(&s) {
        Some(r) => anyhow::anyhow!("{} ({:?}): {}", r.code, s.code(), r.message),
        None => anyhow::anyhow!("{:?}: {}", s.code(), s.message()),
    }
}

pub fn parse_time(spec: &str) -> Result<Option<pb::TimeControl>> {
    use pb::time_control::{self as T, System};
    let parts: Vec<&str> = spec.split(':').collect();
    let num =
        |i: usize| -> Result<i64> { parts.get(i).context("missing field")?.parse::<i64>().context("not a number") };
    let min = 60_000;
    let system = match parts[0] {
        "none" | "" => return Ok(None),
        "absolute" => System::Absolute(T::Absolute { main_ms: num(1)? * min }),
        "japanese" => System::Japanese(T::JapaneseByoYomi {
            main_ms: num(1)? * min,
            periods: num(2)? as u32,
            period_ms: num(3)? * 1000,
        }),
        "chinese" => System::Chinese(T::ChineseByoYomi { basic_ms: num(1)? * min, reserved_minutes: num(2)? as u32 }),
        "fischer" => System::Fischer(T::Fischer { initial_ms: num(1)? * min, increment_ms: num(2)? * 1000, cap_ms: 0 }),
        "canadian" => {
            System::Canadian(T::Canadian { main_ms: num(1)? * min, moves: num(2)? as u32, period_ms: num(3)? * min })
        }
        other => bail!("unknown time system {other:?}"),
    };
    Ok(Some(pb::TimeControl { system: Some(system), pass_on_overrun: false }))
}

fn print_view(v: &pb::GameView) {
    print!("{}", render_view(v));
}

/// The game as `weiqi play show` prints it: the board, the captures, clocks, and the result or the side
/// to move. Every line ends with a newline, the last one included.
pub fn render_view(v: &pb::GameView) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let phase = pb::game_view::Phase::try_from(v.phase).map(|p| p.as_str_name()).unwrap_or("?");
    let name = |p: &Option<pb::PlayerRef>| {
        p.as_ref()
            .map(|p| if p.rank.is_empty() { p.id.clone() } else { format!("{} ({})", p.id, p.rank) })
            .unwrap_or_default()
    };
    let _ = writeln!(
        out,
        "game {}  {}  move {}",
        v.game_id,
        phase.trim_start_matches("PHASE_").to_lowercase(),
        v.move_number
    );
    let _ = writeln!(out, "Black {}   White {}", name(&v.black), name(&v.white));
    let size = v.size as u8;
    let letters: String = (0..size).map(|x| Point::new(x, 0).to_gtp(size).chars().next().unwrap_or('?')).collect();
    let _ = writeln!(out, "   {}", letters.chars().map(|c| format!("{c} ")).collect::<String>().trim_end());
    for (i, row) in v.rows.iter().enumerate() {
        let n = size as usize - i;
        let _ = writeln!(out, "{n:>2} {}", row.chars().map(|c| format!("{c} ")).collect::<String>().trim_end());
    }
    let _ = writeln!(out, "captured by Black: {}, by White: {}", v.black_prisoners, v.white_prisoners);
    if let Some(c) = &v.clock {
        let side = |s: &Option<pb::ClockSide>| {
            s.as_ref().map(|s| format!("{}s main, {} periods", s.main_ms / 1000, s.periods_left)).unwrap_or_default()
        };
        let _ = writeln!(out, "clocks: Black {}   White {}", side(&c.black), side(&c.white));
    }
    if let Some(r) = &v.result {
        let _ = writeln!(out, "result: {}  {}", r.sgf, r.stones);
    } else {
        let to_move = if v.to_move == pb::Color::White as i32 { "White" } else { "Black" };
        let _ = writeln!(out, "{to_move} to move");
    }
    out
}

fn point_of(vertex: &str, size: u32) -> Result<pb::Point> {
    let p = Point::from_gtp(vertex, size as u8)
        .with_context(|| format!("{vertex} is not a vertex of a {size}×{size} board"))?;
    Ok(pb::Point { x: p.x as u32, y: p.y as u32 })
}

pub async fn run(args: PlayArgs) -> Result<ExitCode> {
    let channel = Channel::from_shared(args.server.clone())
        .context("bad server URL")?
        .connect()
        .await
        .with_context(|| format!("cannot reach {} (is `weiqi up` running?)", args.server))?;
    // Waits out the gateway's rate limit (`retry-after-ms`) rather than stop.
    let mut client = GameServiceClient::new(Patient::new(channel));
    let token = || args.token.clone().context("a token is needed: --token or WEIQI_TOKEN");
    let print_reply = |r: pb::CommandReply| {
        let size = r
            .events
            .iter()
            .find_map(|e| match e.event.as_ref().and_then(|e| e.kind.as_ref()) {
                Some(pb::game_event::Kind::Created(c)) => Some(c.size as u8),
                _ => None,
            })
            .unwrap_or(19);
        for e in &r.events {
            println!("{:>4} {}", e.sequence, describe(e, size));
        }
    };
    match args.command {
        PlayCommand::New { black, white, size, rules, komi, handicap, nigiri, event, time, rated } => {
            let req = pb::CreateGameRequest {
                request_id: request_id(),
                size,
                rules,
                komi_half_points: komi.map(|k| (k * 2.0).round() as i32),
                handicap,
                first: Some(pb::PlayerRef { id: black, ..Default::default() }),
                second: Some(pb::PlayerRef { id: white, ..Default::default() }),
                color_method: if nigiri {
                    pb::game_created::ColorMethod::Nigiri
                } else {
                    pb::game_created::ColorMethod::Fixed
                } as i32,
                time_control: parse_time(&time)?,
                event_id: event,
                rated,
                start: true,
                ..Default::default()
            };
            let r = client.create_game(authed(req, &token()?)?).await.map_err(status_error)?.into_inner();
            println!("{}", r.game_id);
        }
        PlayCommand::Move { game, vertex, expect } => {
            let view = client
                .get_game(authed(pb::GetGameRequest { game_id: game.clone() }, &token()?)?)
                .await
                .map_err(status_error)?
                .into_inner();
            let point = point_of(&vertex, view.size)?;
            let req = pb::PlayMoveRequest {
                game_id: game,
                request_id: request_id(),
                point: Some(point),
                expected_move_number: expect,
                lag: None,
            };
            let reply = client.play_move(authed(req, &token()?)?).await.map_err(status_error)?.into_inner();
            for e in &reply.events {
                println!("{:>4} {}", e.sequence, describe(e, view.size as u8));
            }
        }
        PlayCommand::Pass { game } => {
            let req = pb::PassRequest { game_id: game, request_id: request_id(), ..Default::default() };
            print_reply(client.pass(authed(req, &token()?)?).await.map_err(status_error)?.into_inner());
        }
        PlayCommand::Resign { game } => {
            let req = pb::GameRequest { game_id: game, request_id: request_id() };
            print_reply(client.resign(authed(req, &token()?)?).await.map_err(status_error)?.into_inner());
        }
        PlayCommand::Start { game } => {
            let req = pb::GameRequest { game_id: game, request_id: request_id() };
            print_reply(client.start_game(authed(req, &token()?)?).await.map_err(status_error)?.into_inner());
        }
        PlayCommand::Guess { game, parity } => {
            let req = pb::GuessNigiriRequest { game_id: game, request_id: request_id(), even: parity == "even" };
            print_reply(client.guess_nigiri(authed(req, &token()?)?).await.map_err(status_error)?.into_inner());
        }
        PlayCommand::Dead { game, vertices } => {
            let view = client
                .get_game(authed(pb::GetGameRequest { game_id: game.clone() }, &token()?)?)
                .await
                .map_err(status_error)?
                .into_inner();
            let points = vertices.iter().map(|v| point_of(v, view.size)).collect::<Result<Vec<_>>>()?;
            let req = pb::MarkDeadRequest { game_id: game, request_id: request_id(), points };
            print_reply(client.mark_dead(authed(req, &token()?)?).await.map_err(status_error)?.into_inner());
        }
        PlayCommand::Accept { game } => {
            let req = pb::GameRequest { game_id: game, request_id: request_id() };
            print_reply(client.accept_score(authed(req, &token()?)?).await.map_err(status_error)?.into_inner());
        }
        PlayCommand::Dispute { game } => {
            let req = pb::GameRequest { game_id: game, request_id: request_id() };
            print_reply(client.dispute_score(authed(req, &token()?)?).await.map_err(status_error)?.into_inner());
        }
        PlayCommand::Sgf { game, out } => {
            let record = client
                .get_record(authed(pb::GetGameRequest { game_id: game }, &token()?)?)
                .await
                .map_err(status_error)?
                .into_inner();
            match out {
                Some(path) => {
                    std::fs::write(&path, &record.sgf).with_context(|| format!("writing {}", path.display()))?
                }
                // A record ends with a newline, so the shell prompt does not follow it on the same line.
                None if record.sgf.ends_with('\n') => print!("{}", record.sgf),
                None => println!("{}", record.sgf),
            }
        }
        PlayCommand::Show { game } => {
            let v = client
                .get_game(authed(pb::GetGameRequest { game_id: game }, &token()?)?)
                .await
                .map_err(status_error)?
                .into_inner();
            print_view(&v);
        }
        PlayCommand::Watch { game, from } => {
            let view = client
                .get_game(authed(pb::GetGameRequest { game_id: game.clone() }, &token()?)?)
                .await
                .map_err(status_error)?
                .into_inner();
            let mut stream = client
                .watch(authed(pb::WatchRequest { game_id: game, from_sequence: from }, &token()?)?)
                .await
                .map_err(status_error)?
                .into_inner();
            while let Some(item) = stream.next().await {
                let e = item.map_err(status_error)?;
                println!("{:>4} {}", e.sequence, describe(&e, view.size as u8));
            }
        }
        PlayCommand::Demo { organiser, black, white, black_id, white_id, size, seed } => {
            demo(&mut client, &organiser, &black, &white, &black_id, &white_id, size, seed).await?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One line per event, for people.
pub fn describe(e: &pb::EventEnvelope, size: u8) -> String {
    use pb::game_event::Kind as K;
    let v =
        |p: &Option<pb::Point>| p.as_ref().map(|p| Point::new(p.x as u8, p.y as u8).to_gtp(size)).unwrap_or_default();
    let color = |c: i32| if c == pb::Color::White as i32 { "White" } else { "Black" };
    match e.event.as_ref().and_then(|e| e.kind.as_ref()) {
        Some(K::Created(c)) => format!(
            "game created: {}×{} {}",
            c.size,
            c.size,
            c.ruleset.as_ref().map(|r| r.preset.as_str()).unwrap_or("")
        ),
        Some(K::ColorsDecided(c)) => format!("colors: Black {} White {}", c.black, c.white),
        Some(K::Started(_)) => "clock started".into(),
        Some(K::StonePlayed(s)) => format!(
            "move {}: {} {}{}",
            s.move_number,
            color(s.color),
            v(&s.point),
            if s.captures.is_empty() { String::new() } else { format!(" captures {}", s.captures.len()) }
        ),
        Some(K::Passed(p)) => format!("move {}: {} passes", p.move_number, color(p.color)),
        Some(K::ScoringStarted(_)) => "two passes: counting (mark dead chains, then accept)".into(),
        Some(K::DeadStonesSuggested(d)) => format!("the estimate suggests {} dead stone(s)", d.points.len()),
        Some(K::DeadChainsMarked(d)) => format!("{} marks {} dead chain(s)", color(d.by), d.points.len()),
        Some(K::ScoreAccepted(a)) => format!("{} accepts the count", color(a.by)),
        Some(K::Ended(g)) => format!(
            "game over: {} {}{}",
            g.result.as_ref().map(|r| r.sgf.as_str()).unwrap_or(""),
            g.result.as_ref().map(|r| r.stones.as_str()).unwrap_or(""),
            if g.ruling_note.is_empty() { String::new() } else { format!(" (ruling: {})", g.ruling_note) }
        ),
        Some(other) => format!("{other:?}").split('(').next().unwrap_or("event").to_string(),
        None => "empty event".into(),
    }
}

#[allow(clippy::too_many_arguments)]
async fn demo(
    client: &mut GameServiceClient<Patient<Channel>>,
    organiser: &str,
    black: &str,
    white: &str,
    black_id: &str,
    white_id: &str,
    size: u32,
    seed: u64,
) -> Result<()> {
    let req = pb::CreateGameRequest {
        request_id: request_id(),
        size,
        rules: "chinese".into(),
        first: Some(pb::PlayerRef { id: black_id.into(), ..Default::default() }),
        second: Some(pb::PlayerRef { id: white_id.into(), ..Default::default() }),
        start: true,
        ..Default::default()
    };
    let game_id = client.create_game(authed(req, organiser)?).await.map_err(status_error)?.into_inner().game_id;
    println!("game {game_id}");
    // A local copy of the game picks random legal moves; the server decides.
    let mut local = Game::new(size as u8, Ruleset::chinese())?;
    let mut rng = weiqi_rules::random::SplitMix64(seed);
    let mut number = 0;
    while local.consecutive_passes() < 2 && number < 4 * size * size {
        let color = local.to_move();
        let mv = local.random_move(color, |n| rng.below(n));
        let token = if color == Color::Black { black } else { white };
        number += 1;
        let reply = match mv {
            Move::Play(p) => {
                let req = pb::PlayMoveRequest {
                    game_id: game_id.clone(),
                    request_id: request_id(),
                    point: Some(pb::Point { x: p.x as u32, y: p.y as u32 }),
                    expected_move_number: number,
                    lag: None,
                };
                client.play_move(authed(req, token)?).await
            }
            Move::Pass => {
                let req = pb::PassRequest {
                    game_id: game_id.clone(),
                    request_id: request_id(),
                    expected_move_number: number,
                    lag: None,
                };
                client.pass(authed(req, token)?).await
            }
        };
        reply.map_err(status_error)?;
        local.play(color, mv)?;
    }
    for token in [black, white] {
        let req = pb::GameRequest { game_id: game_id.clone(), request_id: request_id() };
        client.accept_score(authed(req, token)?).await.map_err(status_error)?;
    }
    let v =
        client.get_game(authed(pb::GetGameRequest { game_id }, organiser)?).await.map_err(status_error)?.into_inner();
    print_view(&v);
    Ok(())
}
