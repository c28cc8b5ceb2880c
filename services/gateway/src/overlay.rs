//! Broadcast overlays over plain HTTP, for tools that speak neither gRPC nor gRPC-web (OBS browser
//! sources, vMix, a newsroom's own page).
//!
//! * `GET /overlay/{game}/events?token=T` is a Server-Sent Events stream. Every event is a `view`: one
//!   JSON object with the board, the players, prisoners, warnings, the clocks read at the server's
//!   time, the deadline of the player to move, and the result. A `view` is sent after each event of
//!   the game's log (history first, then live) and once a second while a clock runs, so the clocks
//!   tick without client-side arithmetic. The stream ends after the game's end. Any valid token may
//!   watch, as with the gRPC `Watch`. The view is folded from the log through the game domain, so a
//!   sealed move stays hidden until it is revealed.
//! * `GET /overlay/{game}?token=T` is a self-contained page (inline SVG and JavaScript, no outside
//!   assets) that draws that stream: add it to a streaming tool as a browser source.
//! * `GET /games/{game}/sgf?token=T` is the game record as SGF (`application/x-go-sgf`), as far as it
//!   has been played: for archives, analysts and any Go program.
//!
//! `EventSource` cannot send headers, so the token travels in the query string. Give overlays a
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
use weiqi_game::domain::{GameState, Phase};
use weiqi_game::service::fold_recorded;
use weiqi_proto::v1 as pb;
use weiqi_rules::{Color, Move};

use crate::auth::Authority;
use crate::record::RecordError;

/// How often a running clock is re-sent.
const TICK: Duration = Duration::from_secs(1);

/// The overlay endpoints' state.
#[derive(Clone)]
struct Overlay {
    log: AnyEventLog,
    auth: Authority,
}

/// The overlay routes, to merge into the HTTP router.
pub fn router(log: AnyEventLog, auth: Authority) -> axum::Router {
    axum::Router::new()
        .route("/overlay/{game}", get(page))
        .route("/overlay/{game}/events", get(events))
        .route("/games/{game}/sgf", get(record))
        .with_state(Arc::new(Overlay { log, auth }))
}

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

fn refuse(status: StatusCode, message: impl Into<String>) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], message.into()).into_response()
}

/// The caller's token: the `authorization: Bearer …` header (programs), else `?token=` (browsers, whose
/// `EventSource` cannot send headers).
fn token_of(headers: &HeaderMap, query: TokenQuery) -> Option<String> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .map(|t| t.trim().to_string());
    bearer.or(query.token).filter(|t| !t.is_empty())
}

/// The game's id, once the caller's token checks out (any valid token may read a game).
fn authorised(
    overlay: &Overlay,
    game: &str,
    headers: &HeaderMap,
    query: TokenQuery,
) -> Result<AggregateId, (StatusCode, String)> {
    let Some(token) = token_of(headers, query) else {
        return Err((
            StatusCode::UNAUTHORIZED,
            "a token is required: send `authorization: Bearer <token>` or add ?token=<token>".into(),
        ));
    };
    overlay.auth.verify(&token).map_err(|e| (StatusCode::UNAUTHORIZED, e.to_string()))?;
    AggregateId::new(game).map_err(|e| (StatusCode::BAD_REQUEST, format!("bad game id: {e}")))
}

async fn page(Path(game): Path<String>) -> Response {
    match AggregateId::new(&game) {
        Ok(_) => Html(PAGE).into_response(),
        Err(e) => refuse(StatusCode::BAD_REQUEST, format!("bad game id: {e}")),
    }
}

async fn events(
    State(overlay): State<Arc<Overlay>>,
    Path(game): Path<String>,
    headers: HeaderMap,
    Query(query): Query<TokenQuery>,
) -> Response {
    let id = match authorised(&overlay, &game, &headers, query) {
        Ok(id) => id,
        Err((status, why)) => return refuse(status, why),
    };
    let last = match overlay.log.last_sequence(AggregateKind::Game, &id).await {
        Ok(0) => return refuse(StatusCode::NOT_FOUND, "no such game"),
        Ok(n) => n,
        Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
    };
    let stream = match overlay.log.watch(AggregateKind::Game, &id, 1).await {
        Ok(s) => s,
        Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
    };
    // nginx-style proxies buffer responses unless told not to; an event stream must not be.
    let sse = Sse::new(views(game, last, stream)).keep_alive(KeepAlive::default());
    ([(header::HeaderName::from_static("x-accel-buffering"), "no")], sse).into_response()
}

async fn record(
    State(overlay): State<Arc<Overlay>>,
    Path(game): Path<String>,
    headers: HeaderMap,
    Query(query): Query<TokenQuery>,
) -> Response {
    if let Err((status, why)) = authorised(&overlay, &game, &headers, query) {
        return refuse(status, why);
    }
    match crate::record::sgf_record(&overlay.log, &game).await {
        Ok(sgf) => ([(header::CONTENT_TYPE, "application/x-go-sgf; charset=utf-8")], sgf).into_response(),
        Err(e @ RecordError::BadId(_)) => refuse(StatusCode::BAD_REQUEST, e.to_string()),
        Err(e @ RecordError::NotFound) => refuse(StatusCode::NOT_FOUND, e.to_string()),
        Err(e @ RecordError::Unavailable(_)) => refuse(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
        Err(e @ RecordError::Corrupt(_)) => refuse(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// What the stream is doing.
struct Follow {
    game: String,
    /// The log's last sequence when the stream opened: views are sent from there on (history folds
    /// silently, so a late viewer gets one view, not the whole game replayed).
    caught_up_at: u64,
    events: EventStream,
    ticker: tokio::time::Interval,
    state: GameState,
    done: bool,
}

fn views(game: String, caught_up_at: u64, events: EventStream) -> impl Stream<Item = Result<Event, Infallible>> {
    // The first tick one period from now: the opening view was just sent.
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + TICK, TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let follow = Follow { game, caught_up_at, events, ticker, state: GameState::default(), done: false };
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
                    f.done = f.state.phase == Phase::Ended;
                    let view = view_event(&f.game, &f.state);
                    return Some((Ok(view), f));
                }
                _ = f.ticker.tick(), if running => {
                    let view = view_event(&f.game, &f.state);
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

fn now() -> weiqi_clock::Millis {
    let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    weiqi_clock::Millis(i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn view_event(game: &str, state: &GameState) -> Event {
    let at = now();
    let view = weiqi_game::convert::view(game, state, at);
    Event::default().event("view").data(view_json(&view, state, at.0).to_string())
}

fn colour_name(c: Color) -> &'static str {
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

/// The JSON an overlay draws (see the module doc).
fn view_json(v: &pb::GameView, state: &GameState, at_ms: i64) -> Value {
    let size = u8::try_from(v.size).unwrap_or(19);
    let player = |p: &Option<pb::PlayerRef>, prisoners: u32, warnings: u32| {
        let p = p.clone().unwrap_or_default();
        json!({ "id": p.id, "name": p.name, "rank": p.rank, "prisoners": prisoners, "warnings": warnings })
    };
    let side = |s: &Option<pb::ClockSide>| {
        s.as_ref().map(|s| {
            json!({
                "main_ms": s.main_ms,
                "period": s.period,
                "periods_left": s.periods_left,
                "period_left_ms": s.period_left_ms,
                "moves_left": s.moves_left,
            })
        })
    };
    let last_move = state.last_move.map(|(colour, mv)| {
        let point = match mv {
            Move::Play(p) => p.to_gtp(size),
            Move::Pass => "pass".to_owned(),
        };
        json!({ "colour": colour_name(colour), "move": point })
    });
    let to_move = (state.phase == Phase::Playing).then(|| state.to_move().map(colour_name)).flatten();
    json!({
        "game": v.game_id,
        "phase": phase_name(state.phase),
        "size": v.size,
        "handicap": v.handicap,
        "move_number": v.move_number,
        "to_move": to_move,
        "last_move": last_move,
        "black": player(&v.black, v.black_prisoners, v.black_warnings),
        "white": player(&v.white, v.white_prisoners, v.white_warnings),
        "rows": v.rows,
        "clock": v.clock.as_ref().map(|c| json!({ "black": side(&c.black), "white": side(&c.white) })),
        "deadline_ms": (v.deadline_ms > 0).then_some(v.deadline_ms),
        "result": v.result.as_ref().map(|r| json!({ "sgf": r.sgf, "text": r.stones })),
        "sequence": v.sequence,
        "at_ms": at_ms,
    })
}

/// The overlay page: draws the `view` stream of the game named in its own path.
const PAGE: &str = r##"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>weiqi overlay</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>
 body{margin:0;background:transparent;font:16px/1.3 system-ui,sans-serif;color:#111}
 #wrap{display:flex;gap:16px;align-items:flex-start;padding:12px}
 svg{width:min(80vh,80vw);height:min(80vh,80vw);background:#dcb35c;border-radius:4px}
 .side{background:rgba(255,255,255,.9);border-radius:6px;padding:8px 12px;margin-bottom:8px;min-width:190px}
 .side.turn{outline:3px solid #c0392b}
 .name{font-weight:600}.clock{font:600 28px ui-monospace,monospace}.small{font-size:13px;color:#444}
 #result{font-weight:700;font-size:20px}
</style></head><body><div id="wrap"><svg id="board" viewBox="0 0 100 100"></svg><div>
 <div class="side" id="black"><div class="name"></div><div class="clock"></div><div class="small"></div></div>
 <div class="side" id="white"><div class="name"></div><div class="clock"></div><div class="small"></div></div>
 <div id="result"></div><div class="small" id="status"></div></div></div>
<script>
const token = new URLSearchParams(location.search).get("token") || "";
const source = new EventSource(location.pathname.replace(/\/$/, "") + "/events?token=" + encodeURIComponent(token));
const NS = "http://www.w3.org/2000/svg";
function el(name, attrs) { const e = document.createElementNS(NS, name); for (const k in attrs) e.setAttribute(k, attrs[k]); return e; }
function stars(n) {
  if (n < 7) return [];
  const e = n >= 13 ? 3 : 2, m = (n - 1) / 2, f = n - 1 - e, list = [[e, e], [e, f], [f, e], [f, f]];
  if (n % 2 === 1) { list.push([m, m]); if (n >= 15) list.push([e, m], [m, e], [f, m], [m, f]); }
  return list;
}
function draw(v) {
  const svg = document.getElementById("board"), n = v.size, s = 100 / n, h = s / 2;
  svg.replaceChildren();
  for (let i = 0; i < n; i++) {
    svg.append(el("line", {x1: h, y1: h + i * s, x2: 100 - h, y2: h + i * s, stroke: "#000", "stroke-width": .15}));
    svg.append(el("line", {x1: h + i * s, y1: h, x2: h + i * s, y2: 100 - h, stroke: "#000", "stroke-width": .15}));
  }
  for (const [x, y] of stars(n)) svg.append(el("circle", {cx: h + x * s, cy: h + y * s, r: s * .12}));
  const letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  let last = null;
  if (v.last_move && v.last_move.move !== "pass") {
    const m = v.last_move.move; last = [letters.indexOf(m[0]), n - parseInt(m.slice(1), 10)];
  }
  v.rows.forEach((row, y) => [...row].forEach((c, x) => {
    if (c !== "X" && c !== "O") return;
    svg.append(el("circle", {cx: h + x * s, cy: h + y * s, r: s * .47, fill: c === "X" ? "#111" : "#f8f8f8", stroke: "#000", "stroke-width": .12}));
    if (last && last[0] === x && last[1] === y)
      svg.append(el("circle", {cx: h + x * s, cy: h + y * s, r: s * .2, fill: "none", stroke: c === "X" ? "#fff" : "#000", "stroke-width": .5}));
  }));
}
function mmss(ms) { const t = Math.max(0, Math.ceil(ms / 1000)); return Math.floor(t / 60) + ":" + String(t % 60).padStart(2, "0"); }
function clock(c) {
  if (!c) return "";
  if (c.period === 0) return mmss(c.main_ms);
  let text = mmss(c.period_left_ms) + " ×" + c.periods_left;
  if (c.moves_left > 0) text += " (" + c.moves_left + " moves)";
  return text;
}
function side(id, p, c, turn) {
  const box = document.getElementById(id);
  box.classList.toggle("turn", turn);
  box.querySelector(".name").textContent = (id === "black" ? "● " : "○ ") + (p.name || p.id) + " " + p.rank;
  box.querySelector(".clock").textContent = clock(c);
  box.querySelector(".small").textContent = "prisoners " + p.prisoners + (p.warnings ? " · warnings " + p.warnings : "");
}
source.addEventListener("view", (e) => {
  const v = JSON.parse(e.data);
  draw(v);
  side("black", v.black, v.clock && v.clock.black, v.to_move === "black");
  side("white", v.white, v.clock && v.clock.white, v.to_move === "white");
  document.getElementById("result").textContent = v.result ? v.result.sgf + " · " + v.result.text : "";
  document.getElementById("status").textContent = "move " + v.move_number + " · " + v.phase;
  if (v.phase === "ended") source.close();
});
source.addEventListener("problem", (e) => { document.getElementById("status").textContent = e.data; source.close(); });
source.onerror = () => { document.getElementById("status").textContent = "reconnecting…"; };
</script></body></html>
"##;
