//! Broadcast overlays over plain HTTP, for tools that speak neither gRPC nor gRPC-web (OBS browser
//! sources, vMix, a newsroom's own page).
//!
//! * `GET /overlay/{game}/events?token=T[&lang=zh-CN|en]` is a Server-Sent Events stream. Every event is a
//!   `view`: one JSON object with the board, the players, prisoners, warnings, the clocks read at the
//!   server's time, the deadline of the player to move, the time system in words, the referee's latest
//!   byo-yomi call, the event, round and board, the last moves, and the result in SGF form and in words
//!   ("Black wins by resignation", "黑中盘胜"). The language is `lang`, else the `Accept-Language`
//!   header, else Chinese. A `view` is sent after each event of
//!   the game's log (history first, then live) and once a second while a clock runs, so the clocks
//!   tick without client-side arithmetic. The stream ends after the game's end. Anyone may watch
//!   (what a spectator sees: no token needed), limited per address; a token given must verify. The view is folded from the log through the game domain, so a
//!   sealed move stays hidden until it is revealed.
//! * `GET /overlay/{game}[?token=T]` is a page that draws that stream (SVG, with its style sheet and
//!   script served from `/overlay/assets/`: the policy runs no inline script; other sites may frame
//!   it): add it to a streaming tool as a browser source. It draws with the game page's board module
//!   (`board.js`, and its look, `board.css`) and speaks the site's catalogue: its words come with the
//!   page as a JSON block, in the page's language.
//! * `GET /games/{game}/sgf[?token=T]` is the game record as SGF (`application/x-go-sgf`): a finished
//!   game's for anyone (limited per address), a game in play's, as far as it has been played, for any
//!   valid token. For archives, analysts and any Go program.
//!
//! A signed-in browser's session cookie (`wq_session`) counts as its token on all three routes. No
//! route mints tokens for the public. Refusals are in the request's language.
//! `EventSource` cannot send headers, so a program's token travels in the query string. Give overlays a
//! broadcaster token with a short expiry, and keep this port behind TLS.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use futures::{Stream, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, EventLog, EventStream};
use weiqi_game::convert::fold_recorded;
use weiqi_game::domain::{GameState, Phase, PlayerRef};
use weiqi_rules::{Action, Color, Move};

use weiqi_edge::auth::Authority;
use weiqi_game::record::RecordError;

use crate::words::{self, Lang};

/// How often a running clock is re-sent.
const TICK: Duration = Duration::from_secs(1);

/// Requests per address per minute on the public routes (generous: a school's classroom shares one
/// address), and the burst allowed at once.
pub const PUBLIC_PER_MINUTE: u32 = 240;
/// See [`PUBLIC_PER_MINUTE`].
pub const PUBLIC_BURST: u32 = 120;

/// The overlay endpoints' state.
struct Overlay {
    log: AnyEventLog,
    auth: Authority,
    per_address: governor::DefaultKeyedRateLimiter<std::net::IpAddr>,
}

/// The client's address, when the server was started with connect info.
struct Peer(Option<std::net::IpAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Peer {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, _: &S) -> Result<Peer, Infallible> {
        Ok(Peer(parts.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip())))
    }
}

/// The overlay routes, to merge into the HTTP router.
pub fn router(log: AnyEventLog, auth: Authority) -> axum::Router {
    let overlay = axum::Router::new()
        .route("/overlay/assets/{file}", get(asset))
        .route("/overlay/{game}", get(page))
        .route("/overlay/{game}/events", get(events))
        .route("/games/{game}/sgf", get(record))
        .with_state(Arc::new(Overlay { log, auth, per_address: public_limiter() }));
    weiqi_edge::headers::embeddable(overlay)
}

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
    lang: Option<String>,
}

/// The language of a request: `?lang=`, else `Accept-Language`, else Chinese.
fn lang_of(headers: &HeaderMap, query: &TokenQuery) -> Lang {
    let header = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or("");
    Lang::negotiate(query.lang.as_deref().unwrap_or(header))
}

fn refuse(status: StatusCode, message: impl Into<String>) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], message.into()).into_response()
}

fn public_limiter() -> governor::DefaultKeyedRateLimiter<std::net::IpAddr> {
    weiqi_edge::limits::keyed(PUBLIC_BURST, Duration::from_secs(60) / PUBLIC_PER_MINUTE)
}

/// The caller's token: the `authorization: Bearer …` header (programs), else `?token=` (browsers, whose
/// `EventSource` cannot send headers).
fn token_of(headers: &HeaderMap, query: TokenQuery) -> Option<String> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .map(|t| t.trim().to_string());
    bearer
        .or(query.token.filter(|t| !t.is_empty()))
        .or_else(|| weiqi_edge::auth::cookie(headers, weiqi_edge::auth::SESSION_COOKIE).map(str::to_string))
        .filter(|t| !t.is_empty())
}

/// Who asks, once checked: the token, when one is given and verifies; `None` for the public (no
/// token) within its per-address limit. A token that does not verify is refused, never treated as
/// the public's: a revoked token stops here as everywhere.
fn authorised(
    overlay: &Overlay,
    game: &str,
    headers: &HeaderMap,
    peer: &Peer,
    query: TokenQuery,
) -> Result<(AggregateId, Option<String>), (StatusCode, words::Refusal)> {
    let id = AggregateId::new(game).map_err(|_| (StatusCode::BAD_REQUEST, words::Refusal::BadId))?;
    match token_of(headers, query) {
        Some(token) => {
            overlay.auth.verify(&token).map_err(|_| (StatusCode::UNAUTHORIZED, words::Refusal::Token))?;
            Ok((id, Some(token)))
        }
        None => {
            if let Some(ip) = peer.0
                && overlay.per_address.check_key(&ip).is_err()
            {
                return Err((StatusCode::TOO_MANY_REQUESTS, words::Refusal::TooMany));
            }
            if overlay.per_address.len() > 10_000 {
                overlay.per_address.retain_recent();
            }
            Ok((id, None))
        }
    }
}

fn refused(lang: Lang, status: StatusCode, why: words::Refusal) -> Response {
    let mut r = refuse(status, words::refusal(lang, why));
    if status == StatusCode::TOO_MANY_REQUESTS {
        r.headers_mut().insert(header::RETRY_AFTER, axum::http::HeaderValue::from_static("30"));
    }
    r
}

async fn page(Path(game): Path<String>, headers: HeaderMap, Query(query): Query<TokenQuery>) -> Response {
    let lang = lang_of(&headers, &query);
    match AggregateId::new(&game) {
        Ok(_) => Html(overlay_page(lang)).into_response(),
        Err(_) => refused(lang, StatusCode::BAD_REQUEST, words::Refusal::BadId),
    }
}

async fn events(
    State(overlay): State<Arc<Overlay>>,
    Path(game): Path<String>,
    headers: HeaderMap,
    peer: Peer,
    Query(query): Query<TokenQuery>,
) -> Response {
    let lang = lang_of(&headers, &query);
    let (id, token) = match authorised(&overlay, &game, &headers, &peer, query) {
        Ok(who) => who,
        Err((status, why)) => return refused(lang, status, why),
    };
    let last = match overlay.log.last_sequence(AggregateKind::Game, &id).await {
        Ok(0) => return refused(lang, StatusCode::NOT_FOUND, words::Refusal::NoSuchGame),
        Ok(n) => n,
        Err(e) => {
            tracing::warn!(game = %id, error = %e, "overlay: the log is unavailable");
            return refused(lang, StatusCode::SERVICE_UNAVAILABLE, words::Refusal::Unavailable);
        }
    };
    let stream = match overlay.log.watch(AggregateKind::Game, &id, 1).await {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(game = %id, error = %e, "overlay: the log is unavailable");
            return refused(lang, StatusCode::SERVICE_UNAVAILABLE, words::Refusal::Unavailable);
        }
    };
    // A spectator of a delayed game (issue 34 item 1) sees it as the delay lets: the stream catches
    // up with that and follows the rest through the delay.
    let caller = token.as_deref().and_then(|t| overlay.auth.verify(t).ok()).map(|c| weiqi_game::api::caller(&c));
    let stored = match overlay.log.read(AggregateKind::Game, &id, 1).await {
        Ok(events) => events,
        Err(e) => {
            tracing::warn!(game = %id, error = %e, "overlay: the log is unavailable");
            return refused(lang, StatusCode::SERVICE_UNAVAILABLE, words::Refusal::Unavailable);
        }
    };
    let mut whole = GameState::default();
    if stored.iter().try_for_each(|r| fold_recorded(&mut whole, r)).is_err() {
        return refused(lang, StatusCode::SERVICE_UNAVAILABLE, words::Refusal::Unavailable);
    }
    let delayed = weiqi_game::authority::watches_delayed(caller.as_ref(), &whole);
    let (last, stream) = if delayed {
        let seen =
            weiqi_game::delayed::seen_prefix(&stored, caller.as_ref(), weiqi_game::delayed::now_ms()).unwrap_or(0);
        let caught_up = seen.checked_sub(1).and_then(|i| stored.get(i)).map_or(1, |r| r.sequence);
        (caught_up, EventStream::new(weiqi_game::delayed::spectator_stream(stream, weiqi_game::delayed::read_recorded)))
    } else {
        (last, stream)
    };
    // nginx-style proxies buffer responses unless told not to; an event stream must not be.
    let views = follow_views(last, stream, true, move |state| view_event(&game, lang, state, delayed));
    // A stream opened with a token ends when the token's authority does (revoked, account disabled).
    let views: std::pin::Pin<Box<dyn Stream<Item = Result<Event, Infallible>> + Send>> = match token {
        Some(token) => Box::pin(overlay.auth.guard(token, views, |_| true, |_| None)),
        None => Box::pin(views),
    };
    let sse = Sse::new(views).keep_alive(KeepAlive::default());
    ([(header::HeaderName::from_static("x-accel-buffering"), "no")], sse).into_response()
}

async fn record(
    State(overlay): State<Arc<Overlay>>,
    Path(game): Path<String>,
    headers: HeaderMap,
    peer: Peer,
    Query(query): Query<TokenQuery>,
) -> Response {
    let lang = lang_of(&headers, &query);
    let (id, token) = match authorised(&overlay, &game, &headers, &peer, query) {
        Ok(who) => who,
        Err((status, why)) => return refused(lang, status, why),
    };
    if token.is_none() {
        // The public reads finished games' records; a game in play's is for signed-in viewers.
        match finished(&overlay.log, &id).await {
            Ok(Some(true)) => {}
            Ok(Some(false)) => return refused(lang, StatusCode::FORBIDDEN, words::Refusal::NotFinished),
            Ok(None) => return refused(lang, StatusCode::NOT_FOUND, words::Refusal::NoSuchGame),
            Err(()) => return refused(lang, StatusCode::SERVICE_UNAVAILABLE, words::Refusal::Unavailable),
        }
    }
    let caller = token.as_deref().and_then(|t| overlay.auth.verify(t).ok()).map(|c| weiqi_game::api::caller(&c));
    match weiqi_game::record::sgf_record(&overlay.log, &game, caller.as_ref()).await {
        Ok(sgf) => {
            let disposition = format!("attachment; filename=\"{game}.sgf\"");
            (
                [
                    (header::CONTENT_TYPE, "application/x-go-sgf; charset=utf-8".to_string()),
                    (header::CONTENT_DISPOSITION, disposition),
                ],
                sgf,
            )
                .into_response()
        }
        Err(RecordError::BadId(_)) => refused(lang, StatusCode::BAD_REQUEST, words::Refusal::BadId),
        Err(RecordError::NotFound) => refused(lang, StatusCode::NOT_FOUND, words::Refusal::NoSuchGame),
        Err(e @ (RecordError::Unavailable(_) | RecordError::Corrupt(_))) => {
            tracing::warn!(game = %id, error = %e, "a game record cannot be read");
            refused(lang, StatusCode::SERVICE_UNAVAILABLE, words::Refusal::Unavailable)
        }
    }
}

/// Whether the game has ended (`None`: no such game).
async fn finished(log: &AnyEventLog, id: &AggregateId) -> Result<Option<bool>, ()> {
    let events = log.read(AggregateKind::Game, id, 1).await.map_err(|_| ())?;
    if events.is_empty() {
        return Ok(None);
    }
    let mut state = GameState::default();
    for recorded in &events {
        fold_recorded(&mut state, recorded).map_err(|_| ())?;
    }
    Ok(Some(state.phase == Phase::Ended))
}

/// What the stream is doing.
/// What a followed stream is doing.
struct Follow<R> {
    /// The log's last sequence when the stream opened: views are sent from there on (history folds
    /// silently, so a late viewer gets one view, not the whole game replayed).
    caught_up_at: u64,
    events: EventStream,
    ticker: tokio::time::Interval,
    state: GameState,
    end_with_game: bool,
    render: R,
    done: bool,
}

/// A game's log as a stream of rendered views (Server-Sent Events): one when the stream has caught
/// up with `caught_up_at`, one after each later event, and one a second while a clock runs. With
/// `end_with_game`, the stream ends after the game's end. Shared by the overlay and the web's game
/// page, which render the state each in their own way.
pub fn follow_views<R>(
    caught_up_at: u64,
    events: EventStream,
    end_with_game: bool,
    render: R,
) -> impl Stream<Item = Result<Event, Infallible>>
where
    R: Fn(&GameState) -> Event + Send + 'static,
{
    // The first tick one period from now: the opening view was just sent.
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + TICK, TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let follow =
        Follow { caught_up_at, events, ticker, state: GameState::default(), end_with_game, render, done: false };
    futures::stream::unfold(follow, |mut f| async move {
        if f.done {
            return None;
        }
        loop {
            let running = f.state.version >= f.caught_up_at && clock_runs(&f.state);
            tokio::select! {
                item = f.events.next() => {
                    let folded = match item {
                        Some(Ok(recorded)) => fold_recorded(&mut f.state, &recorded),
                        Some(Err(e)) => Err(e.to_string()),
                        None => return None,
                    };
                    if let Err(e) = folded {
                        return Some((Ok(problem(&e)), Follow { done: true, ..f }));
                    }
                    if f.state.version < f.caught_up_at {
                        continue;
                    }
                    f.done = f.end_with_game && f.state.phase == Phase::Ended;
                    let view = (f.render)(&f.state);
                    return Some((Ok(view), f));
                }
                _ = f.ticker.tick(), if running => {
                    let view = (f.render)(&f.state);
                    return Some((Ok(view), f));
                }
            }
        }
    })
}

fn clock_runs(state: &GameState) -> bool {
    state.phase == Phase::Playing
        && state.clock.as_ref().is_some_and(|c| c.control().system != weiqi_clock::TimeSystem::NoClock)
}

fn problem(message: &str) -> Event {
    Event::default().event("problem").data(message)
}

fn view_event(game: &str, lang: Lang, state: &GameState, delayed: bool) -> Event {
    let at = if delayed { crate::live::delayed_reading(state, crate::now()) } else { crate::now() };
    Event::default().event("view").data(view_value(game, lang, state, at).to_string())
}

/// The overlay's view of a game read at `at` (see the module doc), for other pages that draw games
/// (the web's game page adds what a player needs on top of it). Read from the folded domain state.
pub fn view_value(game: &str, lang: Lang, state: &GameState, at: weiqi_clock::Millis) -> Value {
    view_json(game, state, lang, at)
}

/// How many of the last moves a view lists.
const LAST_MOVES: usize = 6;

/// The last moves played (stones and passes), oldest first, numbered as the game numbers them.
fn last_moves(state: &GameState, size: u8) -> Vec<Value> {
    let Some(game) = &state.game else { return Vec::new() };
    let moves: Vec<(usize, Color, String)> = game
        .actions()
        .iter()
        .filter_map(|a| match a {
            Action::Play(c, p) => Some((*c, p.to_gtp(size))),
            Action::Pass(c) => Some((*c, "pass".to_string())),
            _ => None,
        })
        .enumerate()
        .map(|(i, (c, v))| (i + 1, c, v))
        .collect();
    moves[moves.len().saturating_sub(LAST_MOVES)..]
        .iter()
        .map(|(n, c, v)| json!({ "number": n, "color": color_name(*c), "move": v }))
        .collect()
}

/// The referee's latest byo-yomi call in the current turn, in words.
fn latest_call(state: &GameState, lang: Lang, at: weiqi_clock::Millis) -> Option<Value> {
    let clock = state.clock.as_ref().filter(|_| state.phase == Phase::Playing)?;
    let (_, call) = clock.calls_between(weiqi_clock::Millis(i64::MIN), at).into_iter().last()?;
    let side = match clock.to_move() {
        weiqi_clock::Side::Black => "black",
        weiqi_clock::Side::White => "white",
    };
    Some(json!({ "side": side, "text": words::call(lang, call) }))
}

/// The referee's calls to come for the player to move, read at `at`: how long after `at` each is
/// due, which side, and the words (at most 400, within an hour), so that a page says them on time
/// without the server sending anything while the player thinks.
pub(crate) fn upcoming_calls(state: &GameState, lang: Lang, at: weiqi_clock::Millis) -> Value {
    let Some(clock) = state.clock.as_ref().filter(|_| state.phase == Phase::Playing) else {
        return json!([]);
    };
    let side = match clock.to_move() {
        weiqi_clock::Side::Black => "black",
        weiqi_clock::Side::White => "white",
    };
    let until = at + weiqi_clock::DurationMs(3_600_000);
    let calls: Vec<Value> = clock
        .calls_between(at, until)
        .into_iter()
        .take(400)
        .map(|(t, call)| json!({ "in_ms": (t - at).0, "side": side, "text": words::call(lang, call) }))
        .collect();
    json!(calls)
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::New => "new",
        Phase::Nigiri => "nigiri",
        Phase::Ready => "ready",
        Phase::Playing => "playing",
        Phase::Paused => "paused",
        Phase::Adjourned => "adjourned",
        Phase::Scoring => "scoring",
        Phase::Ended => "ended",
    }
}

/// The JSON an overlay draws (see the module doc), from the game's domain state.
fn view_json(game: &str, state: &GameState, lang: Lang, at: weiqi_clock::Millis) -> Value {
    let setup = state.setup.as_deref();
    let size = setup.map_or(19, |s| s.size);
    let board = state.game.as_ref();
    let prisoners = |c: Color| board.map_or(0, |g| g.prisoners(c));
    let player = |p: &Option<PlayerRef>, prisoners: u32, warnings: u32| {
        let (id, name, rank) =
            p.as_ref().map(|p| (p.id.0.as_str(), p.name.as_str(), p.rank.as_str())).unwrap_or_default();
        json!({ "id": id, "name": name, "rank": rank, "prisoners": prisoners, "warnings": warnings })
    };
    let clock = state.clock.as_ref().filter(|c| c.control().system != weiqi_clock::TimeSystem::NoClock);
    let reading = clock.map(|c| c.reading(at));
    let side = |s: weiqi_clock::Side| {
        reading.as_ref().map(|r| {
            let r = r.side(s);
            json!({
                "main_ms": r.bank.main.0,
                "period": r.bank.period,
                "periods_left": r.periods_left,
                "period_left_ms": r.bank.period_left.0,
                "moves_left": r.bank.moves_left,
            })
        })
    };
    let deadline = reading.as_ref().filter(|_| state.phase == Phase::Playing).and_then(|r| r.deadline).map(|d| d.0);
    let last_move = state.last_move.map(|(color, mv)| {
        let point = match mv {
            Move::Play(p) => p.to_gtp(size),
            Move::Pass => "pass".to_owned(),
        };
        json!({ "color": color_name(color), "move": point })
    });
    let to_move = (state.phase == Phase::Playing).then(|| state.to_move().map(color_name)).flatten();
    let tournament = setup.and_then(|s| s.tournament.as_ref());
    let result = state.result.as_ref().map(|r| {
        json!({
            "sgf": r.to_sgf(),
            "text": r.score.as_ref().map(|s| s.result.in_stones()).unwrap_or_default(),
            "words": words::result(lang, r),
        })
    });
    let rows: Vec<String> =
        board.map(|g| g.board().to_ascii().lines().map(|l| l.replace(' ', "")).collect()).unwrap_or_default();
    json!({
        "lang": lang.tag(),
        "event": setup.and_then(|s| s.event_id.clone()).or_else(|| tournament.map(|t| t.id.clone())),
        "tournament": tournament.map(|t| t.id.clone()),
        "round": tournament.map(|t| t.round),
        "board": tournament.map(|t| t.board),
        "time_system": setup.map(|s| words::time_system(lang, &s.time_control.system)),
        "call": latest_call(state, lang, at),
        "moves": last_moves(state, size),
        "game": game,
        "phase": phase_name(state.phase),
        "size": if setup.is_some() { u32::from(size) } else { 0 },
        "handicap": setup.map_or(0, |s| u32::from(s.handicap)),
        "move_number": state.move_number,
        "to_move": to_move,
        "last_move": last_move,
        "black": player(&state.black, prisoners(Color::Black), state.warnings[0]),
        "white": player(&state.white, prisoners(Color::White), state.warnings[1]),
        "rows": rows,
        "clock": reading.as_ref().map(|_| json!({
            "black": side(weiqi_clock::Side::Black),
            "white": side(weiqi_clock::Side::White),
        })),
        "deadline_ms": deadline.filter(|d| *d > 0),
        "result": result,
        "sequence": state.version,
        "at_ms": at.0,
    })
}

/// The catalogue's words the overlay's script shows (and the phases, [`crate::i18n::PHASE_KEYS`]).
pub const SCRIPT_KEYS: &[&str] = &[
    "words-black",
    "words-white",
    "captures",
    "warnings",
    "move-number",
    "pass",
    "overlay-round",
    "overlay-board",
    "board-label",
    "reconnecting",
    "rank-dan",
    "rank-kyu",
    "rank-pro",
];

/// The overlay page in `lang`: draws the `view` stream of the game named in its own path, with the
/// catalogue's words for its script (a JSON block: the policy runs no inline script).
fn overlay_page(lang: Lang) -> String {
    let keys = [SCRIPT_KEYS, &crate::i18n::PHASE_KEYS].concat();
    let strings = crate::pages::json_block(&crate::i18n::script_strings(lang, &keys)).0;
    format!(
        r##"<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>weiqi overlay</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="stylesheet" href="/overlay/assets/overlay.css">
<script type="module" src="/overlay/assets/overlay.js"></script>
<script type="application/json" id="overlay-strings">{strings}</script>
</head><body><div id="wrap"><svg id="board" class="board" viewBox="0 0 100 100" role="img"></svg><div class="panel">
 <div class="box small" id="event"></div>
 <div class="box side" id="black"><div class="name"></div><div class="clock"></div><div class="call"></div><div class="small"></div></div>
 <div class="box side" id="white"><div class="name"></div><div class="clock"></div><div class="call"></div><div class="small"></div></div>
 <div class="box"><div class="small" id="system"></div><ol id="moves"></ol></div>
 <div class="box" id="resultbox" hidden><div id="result"></div><div class="small" id="sgf"></div></div>
 <div class="small" id="status"></div></div></div>
</body></html>
"##,
        lang = lang.tag()
    )
}

/// The overlay's style sheet: its layout, then the board's look (the site's own `board.css`).
static CSS: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| [include_str!("../assets/overlay.css"), crate::assets::BOARD_CSS].concat());

/// The overlay's script (a module: it runs after the page is parsed); it imports `./board.js`.
const JS: &str = include_str!("../assets/overlay.js");

/// `GET /overlay/assets/{file}`: the overlay's style sheet, its script and the board module it imports
/// (the game page's).
async fn asset(Path(file): Path<String>) -> Response {
    let (body, kind) = match file.as_str() {
        "overlay.css" => (CSS.as_str(), "text/css; charset=utf-8"),
        "overlay.js" => (JS, "text/javascript; charset=utf-8"),
        "board.js" => (crate::assets::BOARD_JS, "text/javascript; charset=utf-8"),
        _ => return refuse(StatusCode::NOT_FOUND, "no such file"),
    };
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "public, max-age=300")], body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use weiqi_clock::{DurationMs, Millis, TimeControl};
    use weiqi_game::domain::{Actor, ColorMethod, Command, GameSetup, PlayerId, PlayerRef, decide};

    fn started(control: TimeControl) -> GameState {
        let player = |id: &str| PlayerRef { id: PlayerId(id.into()), name: id.into(), rank: "1d".into() };
        let setup = GameSetup {
            ruleset: weiqi_rules::Ruleset::chinese(),
            size: 9,
            handicap: 0,
            handicap_points: Vec::new(),
            first: player("ann"),
            second: player("bob"),
            color_method: ColorMethod::Fixed,
            time_control: control,
            tournament: None,
            event_id: None,
            scheduled_start: None,
            rated: false,
            start_immediately: true,
            lateness_limit: DurationMs::from_mins(15),
            absence_claim: None,
            offered_by: None,
            spectator_delay: None,
        };
        let mut state = GameState::default();
        let create = Command::Create { setup: Box::new(setup), nigiri_secret: [0; 32] };
        for e in decide(&state, &Actor::Organiser("org".into()), &create, Millis(0)).unwrap() {
            state.evolve(&e).unwrap();
        }
        state
    }

    #[test]
    fn the_latest_byo_yomi_call_is_shown_in_words() {
        let state = started(TimeControl::japanese(DurationMs::ZERO, 3, DurationMs::from_secs(30)).unwrap());
        assert_eq!(latest_call(&state, Lang::ZhCn, Millis(5_000)), None, "nothing called yet");
        let call = latest_call(&state, Lang::ZhCn, Millis(15_000)).unwrap();
        assert_eq!((call["side"].as_str(), call["text"].as_str()), (Some("black"), Some("10秒")));
        let call = latest_call(&state, Lang::En, Millis(31_000)).unwrap();
        assert_eq!(call["text"], "one period used, 2 left");
        // No calls in main time.
        let state = started(TimeControl::absolute(DurationMs::from_mins(10)).unwrap());
        assert_eq!(latest_call(&state, Lang::En, Millis(60_000)), None);
    }

    /// The calls a view announces ahead are the calls the referee makes when their time comes: a page
    /// that says each one at its `in_ms` says what a view read then would say.
    #[test]
    fn the_calls_to_come_are_the_calls_made_when_their_time_comes() {
        let state = started(TimeControl::japanese(DurationMs::ZERO, 3, DurationMs::from_secs(30)).unwrap());
        let at = Millis(5_000);
        let calls = upcoming_calls(&state, Lang::ZhCn, at);
        let calls = calls.as_array().unwrap();
        assert!(calls.len() >= 3, "{calls:?}");
        for c in calls {
            let due = Millis(at.0 + c["in_ms"].as_i64().unwrap());
            assert!(due > at);
            let then = latest_call(&state, Lang::ZhCn, due).unwrap();
            assert_eq!((&then["side"], &then["text"]), (&c["side"], &c["text"]), "at {due:?}");
        }
        assert_eq!(calls[0]["text"], "10秒");
        // Nothing to come without a running byo-yomi.
        let state = started(TimeControl::absolute(DurationMs::from_mins(10)).unwrap());
        assert_eq!(upcoming_calls(&state, Lang::En, Millis(60_000)), json!([]));
    }
}
