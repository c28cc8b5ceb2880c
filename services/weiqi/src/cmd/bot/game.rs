//! One game of a bot: the engine kept in step with the game's log, its moves sent, the count answered.
//!
//! The log is the truth. The bridge watches the game from its first event and replays every stone and
//! pass into the engine; a stone the engine generated itself is not replayed twice. Anything the
//! engine cannot follow step by step (a move a referee takes back, a restart of the engine) is handled
//! by clearing the engine's board and replaying the whole game, so after a crash of the engine, of the
//! bridge or of the gateway, the game resumes from the log exactly where it is.
//!
//! A call refused by the gateway's rate limit (`ResourceExhausted`) is asked again, the same
//! request, once the wait the gateway names is over ([`Gateway::ask`]): the session goes on where
//! it was. Starting the session over instead would ask again at once (the game, the watch, the
//! game again) and be refused again, for ever, on a tight limit. What the bridge counts across the
//! game (illegal moves in a row, disputes of the count) lives in [`Tally`], which outlives the
//! sessions, so no reconnection resets it.

use std::collections::BTreeSet;
use std::future::Future;
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use futures::{FutureExt, StreamExt};
use tonic::Code;
use tonic::transport::Channel;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_event::Kind as K;
use weiqi_proto::v1::game_service_client::GameServiceClient;
use weiqi_proto::v1::game_view::Phase;
use weiqi_proto::v1::time_control::System;
use weiqi_rules::{Color, Game, Move, Point, Ruleset};

use super::engine::{Engine, EngineError, Generated, parse_genmove};

/// Engine restarts per game before the bridge gives the game up (it can be resumed by restarting
/// the bridge; nothing is lost).
const ENGINE_RESTARTS: u32 = 3;
/// Illegal moves in a row from the engine before the bridge passes for it.
const ILLEGAL_IN_A_ROW: u32 = 3;
/// Refusals of a stone that are the engine's fault (the rules core's codes, and a point off the board).
const ENGINE_FAULTS: [&str; 6] = ["occupied", "suicide", "ko", "superko", "off_board", "bad_point"];
/// Disputes of the count per game after which the bridge accepts the proposal on the table (a
/// referee can still correct the result); two engines that never agree must not play forever.
const DISPUTES: u32 = 2;

/// How a game task ended.
#[derive(Debug)]
pub enum Finished {
    /// The game is over (its result is in the log).
    Ended,
    /// The engine kept dying.
    EngineGaveUp(String),
}

/// What the bridge needs to play one game.
#[derive(Clone)]
pub struct Seat {
    /// The gateway.
    pub server: String,
    /// The bot's token.
    pub token: String,
    /// The bot's player id.
    pub me: String,
    /// The engine command.
    pub engine: String,
    /// The game as created.
    pub game: pb::MyGame,
    /// Start the game (a casual challenge accepted) when it waits for its players.
    pub start: bool,
}

fn authed<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut r = tonic::Request::new(message);
    if let Ok(v) = format!("Bearer {token}").parse() {
        r.metadata_mut().insert("authorization", v);
    }
    r
}

fn is_infrastructure(s: &tonic::Status) -> bool {
    matches!(s.code(), Code::Unavailable | Code::Unknown | Code::Cancelled | Code::DeadlineExceeded | Code::Internal)
}

/// How long the gateway asks a caller refused by its rate limit to wait (a second if it does not say).
fn retry_after(s: &tonic::Status) -> Duration {
    let ms = s.metadata().get("retry-after-ms").and_then(|v| v.to_str().ok()?.parse().ok()).unwrap_or(1_000);
    Duration::from_millis(ms)
}

/// The game service as one bot's token asks it.
#[derive(Clone)]
struct Gateway {
    client: GameServiceClient<Channel>,
    token: String,
}

impl Gateway {
    /// Asks `call` with `message`, waiting out the rate limit in place: a `ResourceExhausted`
    /// refusal (nothing reached the service) is asked again, the same request, after the wait
    /// the gateway names. Any other answer is returned.
    async fn ask<M, T, Fut>(
        &self,
        message: M,
        call: impl Fn(GameServiceClient<Channel>, tonic::Request<M>) -> Fut,
    ) -> Result<T, tonic::Status>
    where
        M: Clone,
        Fut: Future<Output = Result<tonic::Response<T>, tonic::Status>>,
    {
        loop {
            match call(self.client.clone(), authed(message.clone(), &self.token)).await {
                Err(s) if s.code() == Code::ResourceExhausted => {
                    let wait = retry_after(&s);
                    tracing::debug!("asked too fast for the token's rate limit; asking again in {wait:?}");
                    tokio::time::sleep(wait).await;
                }
                answer => return answer.map(tonic::Response::into_inner),
            }
        }
    }

    async fn view(&self, id: &str) -> Result<pb::GameView, tonic::Status> {
        self.ask(pb::GetGameRequest { game_id: id.into() }, |mut c, r| async move { c.get_game(r).await }).await
    }
}

/// Why a call was not answered: the gateway or the log is unreachable (the session resumes from the
/// log after a growing backoff).
fn not_now(s: &tonic::Status) -> Option<Stop> {
    is_infrastructure(s).then(|| Stop::Connection(describe(s)))
}

fn describe(s: &tonic::Status) -> String {
    match weiqi_gateway::error::rejection_of(s) {
        Some(r) => format!("{}: {}", r.code, r.message),
        None => format!("{:?}: {}", s.code(), s.message()),
    }
}

/// Plays the game to its end: reconnecting after a gateway restart, restarting the engine if it dies.
pub async fn play(seat: Seat) -> Finished {
    let id = seat.game.game_id.clone();
    let mut engine_failures = 0;
    let mut backoff = Duration::from_millis(200);
    let mut tally = Tally::default();
    loop {
        match session(&seat, &mut tally).await {
            Ok(()) => return Finished::Ended,
            Err(Stop::Engine(why)) => {
                engine_failures += 1;
                tracing::warn!(game = %id, %why, "engine failed ({engine_failures} of {ENGINE_RESTARTS})");
                if engine_failures >= ENGINE_RESTARTS {
                    return Finished::EngineGaveUp(why);
                }
            }
            Err(Stop::Connection(why)) => {
                tracing::info!(game = %id, %why, "gateway unreachable; resuming from the log in {backoff:?}");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        }
    }
}

/// Why a session stopped before the game ended.
enum Stop {
    Engine(String),
    Connection(String),
}

impl From<EngineError> for Stop {
    fn from(e: EngineError) -> Stop {
        Stop::Engine(e.to_string())
    }
}

impl From<tonic::Status> for Stop {
    fn from(s: tonic::Status) -> Stop {
        Stop::Connection(describe(&s))
    }
}

/// What the bridge counts across a whole game, whatever the sessions (reconnections, engine
/// restarts) in between.
#[derive(Default)]
struct Tally {
    /// Illegal moves from the engine in a row.
    illegal: u32,
    /// Disputes of the count.
    disputes: u32,
}

/// The game as the bridge follows it.
struct Follow {
    size: u8,
    /// Stones and passes in order (handicap stones as Black stones).
    moves: Vec<(Color, Move)>,
    /// A move the engine generated and the game has not recorded yet.
    pending: Option<(Color, Move)>,
    /// The proposal of dead stones on the table, and who made it (`None`: the estimate's suggestion).
    proposal: Option<(Option<Color>, Vec<Point>)>,
    /// Whether the bot marked dead stones in this count.
    marked: bool,
    /// Whether the bot answered the proposal on the table.
    answered: bool,
    /// Move numbers the bot has already moved at.
    moved_at: Option<u32>,
    ended: bool,
}

/// Connects, replays, plays until the end; `Err` says what to retry.
async fn session(seat: &Seat, tally: &mut Tally) -> Result<(), Stop> {
    let id = seat.game.game_id.clone();
    let channel = Channel::from_shared(seat.server.clone())
        .map_err(|e| Stop::Connection(e.to_string()))?
        .connect()
        .await
        .map_err(|e| Stop::Connection(e.to_string()))?;
    let gateway = Gateway { client: GameServiceClient::new(channel), token: seat.token.clone() };
    let view = gateway.view(&id).await?;
    if view.phase == Phase::Ended as i32 {
        return Ok(());
    }
    let size = u8::try_from(view.size).map_err(|_| Stop::Connection(format!("board size {}", view.size)))?;
    let mut engine = Engine::start(&seat.engine).await.map_err(|e| Stop::Engine(format!("{e:#}")))?;
    setup(&mut engine, &seat.game, size).await?;
    let caught_up_at = view.sequence;
    let mut stream = gateway
        .ask(pb::WatchRequest { game_id: id.clone(), from_sequence: 1 }, |mut c, r| async move { c.watch(r).await })
        .await?;
    let mut f = Follow {
        size,
        moves: Vec::new(),
        pending: None,
        proposal: None,
        marked: false,
        answered: false,
        moved_at: None,
        ended: false,
    };
    let mut next = stream.next().await;
    while let Some(item) = next {
        let envelope = item?;
        follow(&mut engine, &mut f, &envelope).await?;
        if f.ended {
            engine.quit().await;
            return Ok(());
        }
        // Events of one decision arrive together: follow them all before acting on the game.
        if let Some(ready) = stream.next().now_or_never() {
            next = ready;
            continue;
        }
        if envelope.sequence >= caught_up_at {
            act(&gateway, &mut engine, &mut f, tally, seat).await?;
        }
        next = stream.next().await;
    }
    engine.quit().await;
    // The stream ends after GameEnded; anything else is a cut connection.
    let view = gateway.view(&id).await?;
    if view.phase == Phase::Ended as i32 { Ok(()) } else { Err(Stop::Connection("the watch stream ended".into())) }
}

/// Board size, komi and time settings.
async fn setup(engine: &mut Engine, game: &pb::MyGame, size: u8) -> Result<(), Stop> {
    engine.send(&format!("boardsize {size}")).await?;
    engine.send("clear_board").await?;
    let komi = game.ruleset.as_ref().map_or(0, |r| r.komi_half_points);
    engine.try_send(&format!("komi {}", f64::from(komi) / 2.0)).await?;
    for command in time_settings(game.time_control.as_ref(), engine.knows("kgs-time_settings")) {
        engine.try_send(&command).await?;
    }
    Ok(())
}

fn secs(ms: i64) -> i64 {
    (ms.max(0) + 999) / 1000
}

/// GTP time settings for a time control (GTP's `time_settings`, or KGS's where it says more).
fn time_settings(t: Option<&pb::TimeControl>, kgs: bool) -> Vec<String> {
    let Some(system) = t.and_then(|t| t.system.as_ref()) else {
        return vec!["time_settings 0 1 0".into()];
    };
    let one = |s: String| vec![s];
    match system {
        System::None(_) => one("time_settings 0 1 0".into()),
        System::Absolute(a) => one(format!("time_settings {} 0 0", secs(a.main_ms))),
        System::Japanese(j) if kgs => {
            one(format!("kgs-time_settings byoyomi {} {} {}", secs(j.main_ms), secs(j.period_ms), j.periods))
        }
        System::Japanese(j) => one(format!("time_settings {} {} 1", secs(j.main_ms), secs(j.period_ms))),
        System::Chinese(c) if kgs => {
            one(format!("kgs-time_settings byoyomi {} 60 {}", secs(c.basic_ms), c.reserved_minutes))
        }
        System::Chinese(c) => one(format!("time_settings {} 60 1", secs(c.basic_ms))),
        System::MovesPerPeriod(m) => {
            one(format!("time_settings {} {} {}", secs(m.main_ms), secs(m.period_ms), m.moves))
        }
        System::Canadian(c) => one(format!("time_settings {} {} {}", secs(c.main_ms), secs(c.period_ms), c.moves)),
        // GTP has no Fischer clock: the initial time as absolute, and `time_left` before every move.
        System::Fischer(f) => one(format!("time_settings {} 0 0", secs(f.initial_ms))),
    }
}

fn color_of(c: i32) -> Option<Color> {
    match pb::Color::try_from(c) {
        Ok(pb::Color::Black) => Some(Color::Black),
        Ok(pb::Color::White) => Some(Color::White),
        _ => None,
    }
}

fn gtp_color(c: Color) -> &'static str {
    if c == Color::Black { "b" } else { "w" }
}

fn point(p: Option<&pb::Point>) -> Option<Point> {
    p.and_then(|p| Some(Point::new(u8::try_from(p.x).ok()?, u8::try_from(p.y).ok()?)))
}

/// Brings one event into the engine and the bridge's account of the game.
async fn follow(engine: &mut Engine, f: &mut Follow, envelope: &pb::EventEnvelope) -> Result<(), Stop> {
    let Some(kind) = envelope.event.as_ref().and_then(|e| e.kind.as_ref()) else { return Ok(()) };
    match kind {
        K::HandicapPlaced(h) => {
            for p in h.points.iter().filter_map(|p| point(Some(p))) {
                record(engine, f, Color::Black, Move::Play(p)).await?;
            }
        }
        K::StonePlayed(s) => {
            if let (Some(c), Some(p)) = (color_of(s.color), point(s.point.as_ref())) {
                record(engine, f, c, Move::Play(p)).await?;
            }
        }
        K::Passed(p) => {
            if let Some(c) = color_of(p.color) {
                record(engine, f, c, Move::Pass).await?;
            }
        }
        K::MoveVoided(v) => {
            if v.taken_back
                && let Some(c) = color_of(v.color)
                && let Some(i) = f.moves.iter().rposition(|(mc, _)| *mc == c)
            {
                f.moves.remove(i);
            }
            f.pending = None;
            replay(engine, f).await?;
        }
        K::ScoringStarted(_) => {
            f.proposal = None;
            f.marked = false;
            f.answered = false;
        }
        K::DeadStonesSuggested(s) => {
            f.proposal = Some((None, s.points.iter().filter_map(|p| point(Some(p))).collect()));
            f.answered = false;
        }
        K::DeadChainsMarked(m) => {
            f.proposal = Some((color_of(m.by), m.points.iter().filter_map(|p| point(Some(p))).collect()));
            f.answered = false;
        }
        K::ScoreDisputed(_) => f.proposal = None,
        K::Ended(_) => f.ended = true,
        _ => {}
    }
    Ok(())
}

/// Records a move the game made: the engine plays it unless it generated it itself.
async fn record(engine: &mut Engine, f: &mut Follow, color: Color, mv: Move) -> Result<(), Stop> {
    if f.pending == Some((color, mv)) {
        f.pending = None;
    } else {
        if f.pending.is_some() {
            // The game recorded something else than what the engine generated: start over.
            f.pending = None;
            f.moves.push((color, mv));
            return replay(engine, f).await;
        }
        engine.send(&format!("play {} {}", gtp_color(color), mv.to_gtp(f.size))).await?;
    }
    f.moves.push((color, mv));
    Ok(())
}

/// Clears the engine's board and replays every move.
async fn replay(engine: &mut Engine, f: &Follow) -> Result<(), Stop> {
    engine.send("clear_board").await?;
    for (c, mv) in &f.moves {
        engine.send(&format!("play {} {}", gtp_color(*c), mv.to_gtp(f.size))).await?;
    }
    Ok(())
}

/// Does what the game expects of the bot now, if anything.
async fn act(
    gateway: &Gateway,
    engine: &mut Engine,
    f: &mut Follow,
    tally: &mut Tally,
    seat: &Seat,
) -> Result<(), Stop> {
    let id = seat.game.game_id.clone();
    let view = gateway.view(&id).await?;
    let mine = if view.black.as_ref().is_some_and(|p| p.id == seat.me) {
        Color::Black
    } else if view.white.as_ref().is_some_and(|p| p.id == seat.me) {
        Color::White
    } else {
        // Colors not decided yet (nigiri): guess if it is ours to guess.
        if view.phase == Phase::Nigiri as i32 {
            let r = pb::GuessNigiriRequest { game_id: id.clone(), request_id: request_id(&id, "guess"), even: true };
            refusal_is_fine(gateway.ask(r, |mut c, r| async move { c.guess_nigiri(r).await }).await)?;
        }
        return Ok(());
    };
    let phase = Phase::try_from(view.phase).unwrap_or(Phase::Unspecified);
    match phase {
        Phase::Ready if seat.start => {
            let r = pb::GameRequest { game_id: id.clone(), request_id: request_id(&id, "start") };
            refusal_is_fine(gateway.ask(r, |mut c, r| async move { c.start_game(r).await }).await)?;
        }
        Phase::Playing if color_of(view.to_move) == Some(mine) => {
            let number = view.move_number + 1;
            if f.moved_at == Some(number) && f.pending.is_some() {
                return Ok(());
            }
            f.moved_at = Some(number);
            f.proposal = None;
            time_left(engine, &view, mine).await?;
            let answer = engine.send(&format!("genmove {}", gtp_color(mine))).await?;
            let generated = parse_genmove(&answer, f.size).map_err(|e| Stop::Engine(format!("{e:#}")))?;
            send_move(gateway, engine, f, tally, seat, (mine, number), generated).await?;
        }
        Phase::Scoring => answer_count(gateway, engine, f, tally, seat, mine, &view).await?,
        _ => {}
    }
    Ok(())
}

async fn time_left(engine: &mut Engine, view: &pb::GameView, mine: Color) -> Result<(), Stop> {
    let Some(clock) = &view.clock else { return Ok(()) };
    let side = if mine == Color::Black { clock.black.as_ref() } else { clock.white.as_ref() };
    let Some(side) = side else { return Ok(()) };
    let command = if side.period == 0 {
        format!("time_left {} {} 0", gtp_color(mine), secs(side.main_ms))
    } else {
        format!("time_left {} {} {}", gtp_color(mine), secs(side.period_left_ms), side.moves_left.max(1))
    };
    engine.try_send(&command).await?;
    Ok(())
}

fn request_id(game: &str, what: &str) -> String {
    format!("bot-{game}-{what}-{}", uuid::Uuid::new_v4())
}

/// A refusal (the game moved on, it was not ours to do) is logged; only infrastructure stops.
fn refusal_is_fine<T>(r: Result<T, tonic::Status>) -> Result<(), Stop> {
    match r {
        Ok(_) => Ok(()),
        Err(s) => match not_now(&s) {
            Some(stop) => Err(stop),
            None => {
                tracing::debug!(why = %describe(&s), "refused");
                Ok(())
            }
        },
    }
}

/// Sends the engine's move `number` for `mine`, asking the engine again after an illegal one, and
/// passing for it after [`ILLEGAL_IN_A_ROW`].
async fn send_move(
    gateway: &Gateway,
    engine: &mut Engine,
    f: &mut Follow,
    tally: &mut Tally,
    seat: &Seat,
    (mine, number): (Color, u32),
    mut generated: Generated,
) -> Result<(), Stop> {
    let id = seat.game.game_id.clone();
    loop {
        let result = match generated {
            Generated::Resign => {
                let r = pb::GameRequest { game_id: id.clone(), request_id: request_id(&id, "resign") };
                return refusal_is_fine(gateway.ask(r, |mut c, r| async move { c.resign(r).await }).await);
            }
            Generated::Pass => {
                f.pending = Some((mine, Move::Pass));
                let r = pb::PassRequest {
                    game_id: id.clone(),
                    request_id: request_id(&id, &format!("move{number}")),
                    expected_move_number: number,
                    lag: None,
                };
                gateway.ask(r, |mut c, r| async move { c.pass(r).await }).await.map(|_| ())
            }
            Generated::Play(p) => {
                f.pending = Some((mine, Move::Play(p)));
                let r = pb::PlayMoveRequest {
                    game_id: id.clone(),
                    request_id: request_id(&id, &format!("move{number}")),
                    point: Some(pb::Point { x: u32::from(p.x), y: u32::from(p.y) }),
                    expected_move_number: number,
                    lag: None,
                };
                gateway.ask(r, |mut c, r| async move { c.play_move(r).await }).await.map(|_| ())
            }
        };
        match result {
            Ok(()) => {
                tally.illegal = 0;
                return Ok(());
            }
            Err(s) => {
                if let Some(stop) = not_now(&s) {
                    return Err(stop);
                }
                let rejection = weiqi_gateway::error::rejection_of(&s).map(|r| r.code).unwrap_or_default();
                f.pending = None;
                if !matches!(generated, Generated::Play(_)) || !ENGINE_FAULTS.contains(&rejection.as_str()) {
                    // Not the engine's fault (the game moved on: time, a referee): follow the log.
                    tracing::info!(game = %id, why = %describe(&s), "move not recorded");
                    replay(engine, f).await?;
                    return Ok(());
                }
                tally.illegal += 1;
                tracing::warn!(
                    game = %id, engine = %seat.engine, why = %describe(&s),
                    "the engine played an illegal move ({} in a row)", tally.illegal
                );
                replay(engine, f).await?;
                if tally.illegal >= ILLEGAL_IN_A_ROW {
                    tracing::warn!(game = %id, "passing for the engine after {ILLEGAL_IN_A_ROW} illegal moves");
                    generated = Generated::Pass;
                    continue;
                }
                let answer = engine.send(&format!("genmove {}", gtp_color(mine))).await?;
                generated = parse_genmove(&answer, f.size).map_err(|e| Stop::Engine(format!("{e:#}")))?;
            }
        }
    }
}

/// The stones of the chains through `points` on the board of `view`.
fn chains(view: &pb::GameView, points: &[Point]) -> Result<BTreeSet<Point>> {
    let size = u8::try_from(view.size).context("board size")?;
    let mut game = Game::new(size, Ruleset::chinese()).map_err(|e| anyhow!("{e:?}"))?;
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (y, row) in view.rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let p = Point::new(x as u8, y as u8);
            match c {
                'X' => black.push(p),
                'O' => white.push(p),
                _ => {}
            }
        }
    }
    game.setup(&black, &white, &[]).map_err(|e| anyhow!("{e:?}"))?;
    let mut out = BTreeSet::new();
    for p in points {
        if game.board().get(*p).is_some() {
            out.extend(game.board().chain(*p));
        }
    }
    Ok(out)
}

/// Answers the proposal on the table: accept when the engine agrees; otherwise propose the engine's
/// own dead stones once, and dispute a second disagreement (accepting after [`DISPUTES`]).
async fn answer_count(
    gateway: &Gateway,
    engine: &mut Engine,
    f: &mut Follow,
    tally: &mut Tally,
    seat: &Seat,
    mine: Color,
    view: &pb::GameView,
) -> Result<(), Stop> {
    let id = seat.game.game_id.clone();
    let listed = engine.send("final_status_list dead").await?;
    let engine_dead: Vec<Point> = listed.split_whitespace().filter_map(|v| Point::from_gtp(v, f.size)).collect();
    let Some((by, points)) = f.proposal.clone() else {
        // Nobody has proposed anything: propose the engine's dead stones.
        if f.marked {
            return Ok(());
        }
        f.marked = true;
        let r = pb::MarkDeadRequest {
            game_id: id.clone(),
            request_id: request_id(&id, "dead"),
            points: engine_dead.iter().map(|p| pb::Point { x: u32::from(p.x), y: u32::from(p.y) }).collect(),
        };
        refusal_is_fine(gateway.ask(r, |mut c, r| async move { c.mark_dead(r).await }).await)?;
        return accept_own(gateway, &id).await;
    };
    if f.answered || by == Some(mine) {
        return Ok(());
    }
    f.answered = true;
    let theirs = chains(view, &points).map_err(|e| Stop::Engine(format!("{e:#}")))?;
    let ours = chains(view, &engine_dead).map_err(|e| Stop::Engine(format!("{e:#}")))?;
    let req = |what: &str| pb::GameRequest { game_id: id.clone(), request_id: request_id(&id, what) };
    if theirs == ours || tally.disputes >= DISPUTES {
        if theirs != ours {
            tracing::warn!(game = %id, "accepting the proposal after {DISPUTES} disputes; a referee can correct the count");
        }
        return refusal_is_fine(gateway.ask(req("accept"), |mut c, r| async move { c.accept_score(r).await }).await);
    }
    if !f.marked {
        f.marked = true;
        let r = pb::MarkDeadRequest {
            game_id: id.clone(),
            request_id: request_id(&id, "dead"),
            points: ours.iter().map(|p| pb::Point { x: u32::from(p.x), y: u32::from(p.y) }).collect(),
        };
        refusal_is_fine(gateway.ask(r, |mut c, r| async move { c.mark_dead(r).await }).await)?;
        return accept_own(gateway, &id).await;
    }
    tally.disputes += 1;
    refusal_is_fine(gateway.ask(req("dispute"), |mut c, r| async move { c.dispute_score(r).await }).await)
}

/// Accepts the bot's own marks: marking is not accepting (the opponent's acceptance ends the count
/// only once the marker has accepted too).
async fn accept_own(gateway: &Gateway, id: &str) -> Result<(), Stop> {
    let r = pb::GameRequest { game_id: id.to_string(), request_id: request_id(id, "accept-own") };
    refusal_is_fine(gateway.ask(r, |mut c, r| async move { c.accept_score(r).await }).await)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_become_gtp_time_settings() {
        let tc = |system| pb::TimeControl { system: Some(system), ..Default::default() };
        assert_eq!(time_settings(None, false), ["time_settings 0 1 0"]);
        let japanese =
            tc(System::Japanese(pb::time_control::JapaneseByoYomi { main_ms: 600_000, periods: 5, period_ms: 30_000 }));
        assert_eq!(time_settings(Some(&japanese), true), ["kgs-time_settings byoyomi 600 30 5"]);
        assert_eq!(time_settings(Some(&japanese), false), ["time_settings 600 30 1"]);
        let canadian =
            tc(System::Canadian(pb::time_control::Canadian { main_ms: 1_500, moves: 25, period_ms: 300_000 }));
        assert_eq!(time_settings(Some(&canadian), false), ["time_settings 2 300 25"]);
        let fischer =
            tc(System::Fischer(pb::time_control::Fischer { initial_ms: 60_000, increment_ms: 5_000, cap_ms: 0 }));
        assert_eq!(time_settings(Some(&fischer), true), ["time_settings 60 0 0"]);
    }

    #[test]
    fn proposals_compare_as_whole_chains() {
        let view = pb::GameView {
            size: 5,
            rows: vec![".XX..".into(), ".X...".into(), ".....".into(), "...OO".into(), "....O".into()],
            ..Default::default()
        };
        let one = chains(&view, &[Point::new(1, 0)]).unwrap();
        let other = chains(&view, &[Point::new(1, 1), Point::new(2, 0)]).unwrap();
        assert_eq!(one, other);
        assert_eq!(one.len(), 3);
        assert_ne!(one, chains(&view, &[Point::new(4, 4)]).unwrap());
        assert!(chains(&view, &[Point::new(0, 0)]).unwrap().is_empty(), "an empty point marks nothing");
    }
}
