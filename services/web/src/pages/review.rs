//! `/games/{id}/review`: the review of a finished game (issue 32 item 11). Step through the moves,
//! try variations on a private board (in the page, never sent anywhere), see the estimator's territory
//! at any move and a graph of the estimated score along the game, download the SGF.
//!
//! Only a finished game is reviewed: the estimator's view of a game in play would help its players.
//! `GET /games/{id}/review/data` gives every position of the game (replayed by the rules core from the
//! log, so captures and forfeited turns are the game's own) and the estimated lead after each move
//! (a quick estimate per position, computed once per game and kept); `…/review/estimate?at=N` gives
//! the territory at move N with the full estimate.
//!
//! A shared board (`POST /games/{id}/review/share`, then `/reviews/{board}`) is the same page driven
//! by the one who opened it and followed live by everyone on its link ([`crate::shared_review`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Form, Json};
use maud::html;
use serde::Deserialize;
use serde_json::{Value, json};
use weiqi_game::domain::{GameState, Phase};
use weiqi_rules::{Action, Color, Game, Move};

use super::{json_block, message};
use crate::Web;
use crate::i18n::{script_strings, t};
use crate::session::{Viewer, csrf_ok};
use crate::shared_review::{Board, MAX_VARIATION};

/// The catalogue keys `review.js` uses.
pub const SCRIPT_KEYS: &[&str] = &[
    "black",
    "white",
    "pass",
    "board-label",
    "review-move",
    "review-variation",
    "review-lead-black",
    "review-lead-white",
    "review-even",
    "review-territory",
    "review-territory-off",
    "review-follow",
    "review-follow-stop",
];

/// Calls `f` with `game` at its start and after each of its actions, replayed by the rules core (so
/// captures and forfeited turns are the game's own).
fn each_position(game: &Game, mut f: impl FnMut(&Game)) {
    let mut g = game.clone();
    while g.undo().is_some() {}
    f(&g);
    for a in game.actions() {
        let _ = match a {
            Action::Play(c, p) => g.play(*c, Move::Play(*p)).map(drop).map_err(drop),
            Action::Pass(c) => g.play(*c, Move::Pass).map(drop).map_err(drop),
            Action::ForfeitTurn(c) => {
                g.forfeit_turn(*c);
                Ok(())
            }
            Action::Setup(s) => g.setup(&s.black, &s.white, &s.empty).map_err(drop),
            Action::SetToMove(c) => {
                g.set_to_move(*c);
                Ok(())
            }
        };
        f(&g);
    }
}

/// The estimated lead of Black in points (komi counted) on `board`.
fn lead(board: &weiqi_rules::Board, to_move: Color, ruleset: &weiqi_rules::Ruleset, quick: bool) -> (f64, Vec<i8>) {
    let config = if quick {
        weiqi_estimate::EstimateConfig { playouts: 48, moves: 6_000, ..Default::default() }
    } else {
        weiqi_estimate::EstimateConfig::default()
    };
    let e = weiqi_estimate::estimate_with(board, to_move, ruleset, &config);
    let mut owner = Vec::new();
    let mut sum = 0i64;
    for p in board.points() {
        let o = match e.owner(p) {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => 0,
        };
        sum += i64::from(o);
        owner.push(o);
    }
    #[allow(clippy::cast_precision_loss)]
    let lead = sum as f64 - f64::from(ruleset.komi.0) / 2.0;
    (lead, owner)
}

/// The review's data, per game and version.
#[derive(Default)]
pub struct Reviews {
    cache: Mutex<HashMap<String, (u64, Arc<Value>)>>,
}

async fn finished(web: &Web, game: &str) -> Result<GameState, StatusCode> {
    let g = web.index.game(game).ok_or(StatusCode::NOT_FOUND)?;
    if g.state.phase != Phase::Ended || g.state.game.is_none() {
        return Err(StatusCode::CONFLICT);
    }
    Ok(g.state)
}

/// `GET /games/{id}/review`.
pub async fn page(State(web): State<Arc<Web>>, viewer: Viewer, Path(game): Path<String>) -> Response {
    render(&web, &viewer, &game, None).await
}

/// The review page of `game`, alone or as shared board `shared`.
async fn render(web: &Web, viewer: &Viewer, game: &str, shared: Option<&Board>) -> Response {
    let lang = viewer.lang;
    let state = match finished(web, game).await {
        Ok(s) => s,
        Err(StatusCode::CONFLICT) => return message(web, viewer, StatusCode::CONFLICT, &t(lang, "review-not-ended")),
        Err(_) => return message(web, viewer, StatusCode::NOT_FOUND, &t(lang, "game-not-found")),
    };
    let name = |p: &Option<weiqi_game::domain::PlayerRef>| {
        p.as_ref().map(|p| if p.name.is_empty() { p.id.0.clone() } else { p.name.clone() }).unwrap_or_default()
    };
    let title = format!("{} – {}", name(&state.black), name(&state.white));
    let me = viewer.member.as_ref().map(|m| m.name().to_string());
    let driving = shared.is_some_and(|b| me.as_deref() == Some(b.driver.as_str()));
    let config = json!({
        "game": game,
        "lang": lang.tag(),
        "strings": script_strings(lang, SCRIPT_KEYS),
        "shared": shared.map(|b| json!({ "id": b.id, "driver": driving, "board": b })),
    });
    let body = html! {
        section.game.review data-game=(game) {
            div.board-wrap {
                svg id="board" class="board" viewBox="0 0 100 100" role="img" aria-label=(t(lang, "review-title")) {}
            }
            aside.panel {
                h1.title { (t(lang, "review-title")) " · " (title) }
                @if let Some(r) = &state.result { p { strong data-result="" { (r.to_sgf()) } " " (crate::words::result(lang, r)) } }
                @if let Some(b) = shared {
                    div.shared-board data-shared-board=(b.id) data-driver=(driving) {
                        @if driving {
                            p { (t(lang, "review-shared-driving")) }
                            p.small { (t(lang, "review-shared-link")) " " input.share-link readonly value={ "/reviews/" (b.id) } aria-label=(t(lang, "review-shared-link")); }
                        } @else {
                            p { (crate::i18n::ta(lang, "review-shared-following", &[("name", b.driver_name.clone())])) }
                            button type="button" data-action="review-follow" aria-pressed="true" { (t(lang, "review-follow-stop")) }
                        }
                    }
                } @else if viewer.member.is_some() {
                    form.inline method="post" action={ "/games/" (game) "/review/share" } {
                        (super::csrf_field(viewer))
                        button type="submit" data-action="review-share" { (t(lang, "review-share")) }
                    }
                }
                p id="position" class="status" aria-live="polite" {}
                div.controls {
                    button type="button" data-action="review-first" aria-label=(t(lang, "review-first")) { "|◀" }
                    button type="button" data-action="review-prev" aria-label=(t(lang, "review-prev")) { "◀" }
                    button type="button" data-action="review-next" aria-label=(t(lang, "review-next")) { "▶" }
                    button type="button" data-action="review-last" aria-label=(t(lang, "review-last")) { "▶|" }
                }
                input id="scrub" type="range" min="0" max="0" value="0" aria-label=(t(lang, "review-scrub"));
                // On a shared board the driver's variations are everyone's; a follower's own steps leave it.
                p.small { (t(lang, match (shared.is_some(), driving) {
                    (false, _) => "review-help",
                    (true, true) => "review-help-driving",
                    (true, false) => "review-help-following",
                })) }
                div.controls {
                    button type="button" data-action="review-territory" aria-pressed="false" { (t(lang, "review-territory")) }
                    button type="button" data-action="review-main" hidden { (t(lang, "review-back")) }
                }
                p id="variation" class="small" data-variation="0" {}
                figure.chart {
                    figcaption.small { (t(lang, "review-graph")) }
                    svg id="graph" class="graph" viewBox="0 0 300 80" role="img" aria-label=(t(lang, "review-graph")) {}
                }
                p.links {
                    a href={ "/games/" (game) } { (t(lang, "review-to-game")) }
                    " · "
                    a href={ "/games/" (game) "/sgf" } download={ (game) ".sgf" } data-link="sgf" { (t(lang, "link-sgf")) }
                }
            }
        }
        script type="application/json" id="review-config" { (json_block(&config)) }
    };
    super::page(web, viewer, &t(lang, "review-title"), body, &["review.js"])
}

/// The share form.
#[derive(Deserialize)]
pub struct ShareForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /games/{id}/review/share`: a signed-in member opens a shared board on a finished game, which
/// they drive; its page's link is for those who follow.
pub async fn share(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path(game): Path<String>,
    headers: HeaderMap,
    Form(form): Form<ShareForm>,
) -> Response {
    let lang = viewer.lang;
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return super::csrf_refused(&web, &viewer);
    }
    let Some(m) = &viewer.member else { return super::redirect("/login", vec![]) };
    let state = match finished(&web, &game).await {
        Ok(s) => s,
        Err(StatusCode::CONFLICT) => return message(&web, &viewer, StatusCode::CONFLICT, &t(lang, "review-not-ended")),
        Err(_) => return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "game-not-found")),
    };
    let end = state.game.as_ref().map_or(0, |g| u32::try_from(g.actions().len()).unwrap_or(u32::MAX));
    let shown = if m.account.display_name.is_empty() { m.name().to_string() } else { m.account.display_name.clone() };
    match web.shared_boards.open(&game, m.name(), &shown, end).await {
        Ok(b) => super::redirect(&format!("/reviews/{}", b.id), vec![]),
        Err(e) => {
            tracing::warn!("{e}");
            message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable"))
        }
    }
}

/// `GET /reviews/{board}`: the shared board's page (the driver's, or a follower's).
pub async fn shared_page(State(web): State<Arc<Web>>, viewer: Viewer, Path(board): Path<String>) -> Response {
    let Some(b) = web.shared_boards.get(&board) else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(viewer.lang, "refusal-review-board-gone"));
    };
    render(&web, &viewer, &b.game.clone(), Some(&b)).await
}

/// What the driver shows.
#[derive(Deserialize)]
pub struct Shown {
    at: u32,
    #[serde(default)]
    variation: Vec<String>,
    #[serde(default)]
    territory: bool,
}

/// `POST /reviews/{board}` (JSON, the page's CSRF header): the driver's board moves; the move and
/// every point of the variation are checked against the game.
pub async fn shared_move(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path(board): Path<String>,
    headers: HeaderMap,
    body: Result<Json<Shown>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let lang = viewer.lang;
    let refuse = |status: StatusCode, code: &str| {
        (status, Json(json!({ "ok": false, "code": code, "message": crate::i18n::refusal(lang, code, "") })))
            .into_response()
    };
    if !csrf_ok(&headers, None) {
        return refuse(StatusCode::FORBIDDEN, "csrf");
    }
    let Some(m) = &viewer.member else { return refuse(StatusCode::UNAUTHORIZED, "signed_out") };
    let Ok(Json(shown)) = body else { return refuse(StatusCode::BAD_REQUEST, "bad_request") };
    let Some(b) = web.shared_boards.get(&board) else { return refuse(StatusCode::NOT_FOUND, "review_board_gone") };
    let Ok(state) = finished(&web, &b.game).await else { return refuse(StatusCode::NOT_FOUND, "review_board_gone") };
    let Some(g) = state.game.as_ref() else { return refuse(StatusCode::NOT_FOUND, "review_board_gone") };
    let in_game = usize::try_from(shown.at).is_ok_and(|at| at <= g.actions().len());
    let points_ok = shown.variation.len() <= MAX_VARIATION
        && shown.variation.iter().all(|v| weiqi_rules::Point::from_gtp(v, g.size()).is_some());
    if !in_game || !points_ok {
        return refuse(StatusCode::BAD_REQUEST, "out_of_range");
    }
    match web.shared_boards.set(&board, m.name(), shown.at, shown.variation, shown.territory).await {
        Ok(Ok(b)) => Json(json!({ "ok": true, "version": b.version })).into_response(),
        Ok(Err(e)) => refuse(
            if e == crate::shared_review::BoardError::Gone { StatusCode::NOT_FOUND } else { StatusCode::FORBIDDEN },
            e.code(),
        ),
        Err(e) => {
            tracing::warn!("{e}");
            refuse(StatusCode::SERVICE_UNAVAILABLE, "unavailable")
        }
    }
}

/// `GET /reviews/{board}/live`: the board now, then every newer state of it (Server-Sent Events,
/// event `board`); the stream ends when the board is gone.
pub async fn shared_live(State(web): State<Arc<Web>>, Path(board): Path<String>) -> Response {
    use axum::response::sse::{Event, KeepAlive, Sse};
    if web.shared_boards.get(&board).is_none() {
        return StatusCode::NOT_FOUND.into_response();
    }
    let changes = web.shared_boards.subscribe();
    let stream = futures::stream::unfold((web, changes, 0u64, true), move |(web, mut rx, seen, first)| {
        let board = board.clone();
        async move {
            loop {
                if !first {
                    rx.changed().await.ok()?;
                }
                let b = web.shared_boards.get(&board)?;
                if first || b.version > seen {
                    let data = serde_json::to_string(&b).ok()?;
                    let event = Event::default().event("board").data(data);
                    return Some((Ok::<_, std::convert::Infallible>(event), (web, rx, b.version, false)));
                }
            }
        }
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(std::time::Duration::from_secs(15))).into_response()
}

/// `GET /games/{id}/review/data`.
pub async fn data(State(web): State<Arc<Web>>, Path(game): Path<String>) -> Response {
    let state = match finished(&web, &game).await {
        Ok(s) => s,
        Err(status) => return status.into_response(),
    };
    if let Some((v, value)) = web.reviews.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(&game)
        && *v == state.version
    {
        return Json(value.as_ref().clone()).into_response();
    }
    let version = state.version;
    let computed = tokio::task::spawn_blocking(move || {
        let g = state.game.as_ref().expect("checked");
        let size = g.size();
        let mut moves = Vec::new();
        for a in g.actions() {
            moves.push(match a {
                Action::Play(c, p) => json!([if *c == Color::Black { "black" } else { "white" }, p.to_gtp(size)]),
                Action::Pass(c) | Action::ForfeitTurn(c) => {
                    json!([if *c == Color::Black { "black" } else { "white" }, "pass"])
                }
                _ => json!(["", ""]),
            });
        }
        // Each position (rows of X, O and .) and the lead after it from a quick estimate, in one replay.
        let (mut positions, mut leads) = (Vec::new(), Vec::new());
        each_position(g, |p| {
            positions.push(p.board().to_ascii().lines().map(|l| l.replace(' ', "")).collect::<Vec<_>>());
            leads.push((lead(p.board(), p.to_move(), g.ruleset(), true).0 * 10.0).round() / 10.0);
        });
        json!({ "size": size, "positions": positions, "moves": moves, "leads": leads })
    })
    .await;
    match computed {
        Ok(value) => {
            let value = Arc::new(value);
            let mut cache = web.reviews.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if cache.len() > 256 {
                cache.clear();
            }
            cache.insert(game, (version, value.clone()));
            Json(value.as_ref().clone()).into_response()
        }
        Err(_) => StatusCode::SERVICE_UNAVAILABLE.into_response(),
    }
}

/// The estimate's query.
#[derive(Deserialize)]
pub struct At {
    at: usize,
}

/// `GET /games/{id}/review/estimate?at=N`: the territory after N actions (+1 Black, −1 White, 0
/// neither, per point row by row) and the lead.
pub async fn estimate(State(web): State<Arc<Web>>, Path(game): Path<String>, Query(q): Query<At>) -> Response {
    let state = match finished(&web, &game).await {
        Ok(s) => s,
        Err(status) => return status.into_response(),
    };
    let g = state.game.expect("checked");
    if q.at > g.actions().len() {
        return StatusCode::BAD_REQUEST.into_response();
    }
    let value = tokio::task::spawn_blocking(move || {
        let mut replay = g.clone();
        while replay.actions().len() > q.at && replay.undo().is_some() {}
        let (lead, owner) = lead(replay.board(), replay.to_move(), g.ruleset(), false);
        json!({ "at": q.at, "lead": (lead * 10.0).round() / 10.0, "owner": owner })
    })
    .await;
    match value {
        Ok(v) => Json(v).into_response(),
        Err(_) => StatusCode::SERVICE_UNAVAILABLE.into_response(),
    }
}
