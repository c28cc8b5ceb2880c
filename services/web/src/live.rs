//! `GET /games/{id}/live`: the game page's Server-Sent Events.
//!
//! The stream opens with a `seat` event: who the viewer is (`viewer`, and whether they referee this
//! game: `referee`, `chief`); the page reads their color (`me`) and whether they sit at it (`seated`)
//! from each view (`black`, `white`, `seats`). Then each event is a `view`: the overlay's view of the
//! game (board, players, clocks read at the server's time, the byo-yomi call, the last moves, the
//! result in words) plus what the page needs on top: the move list, the dead-chain proposal during
//! the count with who has accepted it and the live count it gives (points and stones), the nigiri's
//! guesser, whether a move is sealed (never which), and the calls to come (`calls`), which the page
//! says on time by itself.
//! A view is sent when the stream opens and after every event of the game, the same bytes to every
//! viewer ([`crate::fanout`]); a `beat` every 15 s (every second on a player's own stream) says the
//! stream is alive.
//!
//! `EventSource` reconnects by itself after a lost connection (a restarted gateway, a phone changing
//! networks); the new stream starts with the latest view, so the page resumes without a reload. The
//! session cookie is sent with it (same origin), so no token is in the URL.

use std::sync::Arc;

use crate::fanout::{sse, viewer_stream};
use crate::overlay::{upcoming_calls, view_value};
use crate::pages::ClientAddr;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::StreamExt as _;
use serde_json::{Value, json};
use weiqi_eventlog::{AggregateId, AggregateKind, EventLog};
use weiqi_game::authority::{self, Table};
use weiqi_game::domain::{GameState, Phase};
use weiqi_rules::{Action, Color};

use crate::Web;
use crate::i18n::Lang;
use crate::session::Viewer;

/// Who the viewer is in one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seat {
    /// The viewer's account, if signed in.
    pub name: Option<String>,
    /// May act as referee on this game.
    pub referee: bool,
    /// Acts as chief referee (one-sided clock corrections).
    pub chief: bool,
}

impl Seat {
    /// The seat of `viewer` at the game `state`, as the game's authority decides it: seat first (a
    /// referee who plays in it is a player there), then role and event scope.
    pub fn of(viewer: &Viewer, state: &GameState) -> Seat {
        match &viewer.member {
            None => Seat::default(),
            Some(m) => {
                let caller = m.caller();
                let referee = Table::of(state).is_some_and(|t| authority::referees(&caller, &t));
                Seat { name: Some(m.name().to_string()), referee, chief: referee && (caller.chief || caller.admin) }
            }
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The page's view of `state` for `seat`, read at `at`.
pub fn page_view(game: &str, lang: Lang, state: &GameState, seat: &Seat, at: weiqi_clock::Millis) -> Value {
    let mut v = view_value(game, lang, state, at);
    let size = state.setup.as_ref().map_or(19, |s| s.size);
    let gtp = |p: &weiqi_rules::Point| p.to_gtp(size);
    let mut moves = Vec::new();
    if let Some(g) = &state.game {
        for a in g.actions() {
            match a {
                Action::Play(c, p) => moves.push(json!([color_name(*c), p.to_gtp(size)])),
                Action::Pass(c) => moves.push(json!([color_name(*c), "pass"])),
                _ => {}
            }
        }
    }
    let scoring = (state.phase == Phase::Scoring).then(|| {
        let count =
            state.game.as_ref().and_then(|g| weiqi_rules::score(g, &state.proposal.points, state.warnings).ok());
        json!({
            "marks": state.proposal.points.iter().map(gtp).collect::<Vec<_>>(),
            "by": state.proposal.by.map(color_name),
            "accepted": { "black": state.proposal.accepted[0], "white": state.proposal.accepted[1] },
            "count": count.map(|s| json!({
                "sgf": s.result.to_sgf(),
                "stones": s.result.in_stones(),
                "black_half_points": s.black_total.0,
                "white_half_points": s.white_total.0,
                "black_area_halves": s.black_area_halves(),
                "white_area_halves": s.white_area_halves(),
            })),
        })
    });
    let nigiri = state.nigiri.as_ref().map(|n| json!({ "guesser": n.guesser.0, "holder": n.holder.0 }));
    let obj = v.as_object_mut().expect("the view is an object");
    obj.insert("all_moves".into(), json!(moves));
    obj.insert("dead".into(), json!(state.dead.iter().map(gtp).collect::<Vec<_>>()));
    obj.insert("scoring".into(), scoring.unwrap_or(Value::Null));
    obj.insert("nigiri".into(), nigiri.unwrap_or(Value::Null));
    // That a move is sealed, never which: the point stays in the log until the referee resumes.
    obj.insert("sealed".into(), json!(state.sealed.is_some()));
    obj.insert("calls".into(), upcoming_calls(state, lang, at));
    // The referee's rulings and the turns of play both players are told about (issue 32 items 5, 8).
    let notes: Vec<Value> = state
        .notes
        .iter()
        .map(|n| json!({ "move_number": n.move_number, "kind": note_kind(&n.kind), "text": crate::words::note(lang, size, n) }))
        .collect();
    obj.insert("notes".into(), json!(notes));
    // Who sits at this game (before colors are decided too): the page tells its viewer's seat from it.
    let sitting = state.setup.as_ref().map(|s| vec![s.first.id.0.clone(), s.second.id.0.clone()]).unwrap_or_default();
    obj.insert("seats".into(), json!(sitting));
    obj.extend(seat_value(state, seat).as_object().cloned().unwrap_or_default());
    v
}

fn note_kind(k: &weiqi_game::domain::NoteKind) -> &'static str {
    use weiqi_game::domain::NoteKind as K;
    match k {
        K::Warning { .. } => "warning",
        K::Paused => "paused",
        K::Resumed => "resumed",
        K::Voided { .. } => "voided",
        K::Disputed { .. } => "disputed",
        K::PlayResumed { .. } => "play-resumed",
        K::ClockCorrected => "clock-corrected",
        K::ColorsSwapped => "colors-swapped",
    }
}

/// Who `seat` is in the game `state`: the part of a page's view that differs per viewer (the live
/// stream sends it once, as its first event, and shares the rest).
pub fn seat_value(state: &GameState, seat: &Seat) -> Value {
    let me = seat.name.as_deref().and_then(|n| {
        if state.black.as_ref().is_some_and(|b| b.id.0 == n) {
            Some("black")
        } else if state.white.as_ref().is_some_and(|w| w.id.0 == n) {
            Some("white")
        } else {
            None
        }
    });
    let seated = seat
        .name
        .as_deref()
        .is_some_and(|n| state.setup.as_ref().is_some_and(|s| s.first.id.0 == n || s.second.id.0 == n));
    json!({ "me": me, "seated": seated, "referee": seat.referee, "chief": seat.chief, "viewer": seat.name })
}

/// `GET /games/{id}/live`: the viewer's `seat`, then the game's shared views ([`crate::fanout`]).
pub async fn live(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    ClientAddr(address): ClientAddr,
    Path(game): Path<String>,
) -> Response {
    let Ok(id) = AggregateId::new(&game) else {
        return (StatusCode::BAD_REQUEST, "bad game id").into_response();
    };
    match web.log.last_sequence(AggregateKind::Game, &id).await {
        Ok(0) => return (StatusCode::NOT_FOUND, "no such game").into_response(),
        Ok(_) => {}
        Err(e) => return (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response(),
    }
    // Signed-in viewers are counted by their session's limits; the public by their address.
    let Some(ticket) = web.fanout.admit(if viewer.member.is_some() { None } else { address }) else {
        let text = crate::i18n::t(viewer.lang, "too-many-streams");
        return (StatusCode::TOO_MANY_REQUESTS, [(header::RETRY_AFTER, "30")], text).into_response();
    };
    // Who the viewer is; the page reads their color and whether they sit here from each view.
    let indexed = web.index.game(&game);
    let seat = indexed.as_ref().map(|g| Seat::of(&viewer, &g.state)).unwrap_or_default();
    // A player's page hears from the server every second, so it notices a stall within three.
    let seated = indexed
        .as_ref()
        .and_then(|g| g.state.setup.as_ref())
        .zip(seat.name.as_deref())
        .is_some_and(|(s, n)| s.first.id.0 == n || s.second.id.0 == n);
    let every = if seated { crate::fanout::PLAYER_BEAT } else { crate::fanout::BEAT };
    // A seated player is here while this stream is open (the other player is told when they are not).
    let here = seated.then(|| web.presence.join(&game, seat.name.as_deref().unwrap_or_default()));
    let seat = json!({ "viewer": seat.name, "referee": seat.referee, "chief": seat.chief });
    // A spectator of a delayed game follows its delayed feed (issue 34 item 1).
    let delayed = indexed.as_ref().is_some_and(|g| delayed_for(&viewer, &g.state));
    let frames = web.fanout.subscribe(&game, id, delayed);
    let views = viewer_stream(sse("seat", &seat.to_string()), frames, viewer.lang, ticket, every).map(move |x| {
        let _here = &here;
        x
    });
    // A signed-in viewer's stream lasts as long as the session's authority is what it was: signed
    // out, disabled, or a role granted or revoked, the stream ends and the page's `EventSource`
    // opens it again as whoever the viewer is now.
    let views: std::pin::Pin<Box<dyn futures::Stream<Item = _> + Send>> = match &viewer.member {
        Some(m) => {
            let roles = m.claims.roles.clone();
            Box::pin(web.auth.guard(m.token.clone(), views, move |c| c.roles == roles, |_| None))
        }
        None => Box::pin(views),
    };
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::HeaderName::from_static("x-accel-buffering"), "no"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        axum::body::Body::from_stream(views),
    )
        .into_response()
}

/// Whether `viewer` watches the game of `state` as a delayed spectator (the game's authority
/// decides: [`authority::watches_delayed`]).
pub fn delayed_for(viewer: &Viewer, state: &GameState) -> bool {
    let caller = viewer.member.as_ref().map(crate::session::Member::caller);
    authority::watches_delayed(caller.as_ref(), state)
}

/// The instant a delayed view's clocks are read at: `now` less a delay in minutes (so they stand as
/// they stood then), or the latest event's time under a delay in moves.
pub fn delayed_reading(state: &GameState, now: weiqi_clock::Millis) -> weiqi_clock::Millis {
    use weiqi_game::domain::SpectatorDelay;
    match state.setup.as_deref().and_then(|s| s.spectator_delay) {
        Some(SpectatorDelay::Minutes(m)) => weiqi_clock::Millis(now.0 - i64::from(m) * 60_000).max(state.last_at),
        Some(SpectatorDelay::Moves(_)) => state.last_at,
        None => now,
    }
}

/// Marks a delayed spectator's view: under a delay in moves the clocks shown are as they stood at
/// the latest move shown, so the page does not run them (`clocks_frozen`).
pub fn mark_delayed(view: &mut Value, state: &GameState) {
    use weiqi_game::domain::SpectatorDelay;
    if matches!(state.setup.as_deref().and_then(|s| s.spectator_delay), Some(SpectatorDelay::Moves(_))) {
        view["clocks_frozen"] = json!(true);
    }
}

/// `GET /games/{id}/presence`: how long each player has been away (`null`: here), and how long a
/// casual game's claim needs (`null`: a game of an event, whose referee decides).
pub async fn presence(State(web): State<Arc<Web>>, Path(game): Path<String>) -> Response {
    let Some(indexed) = web.index.game(&game) else {
        return (StatusCode::NOT_FOUND, "no such game").into_response();
    };
    let state = &indexed.state;
    let mut out = serde_json::Map::new();
    for (side, p) in [("black", &state.black), ("white", &state.white)] {
        let away = match p {
            Some(p) => web.presence.away(&game, &p.id.0).await.map(|d| d.0),
            None => None,
        };
        out.insert(side.into(), json!(away));
    }
    let casual = state.setup.as_ref().is_some_and(|s| s.tournament.is_none() && s.event_id.is_none());
    let needed = state.setup.as_ref().map(|s| s.absence_claim.unwrap_or(weiqi_game::domain::ABSENCE_CLAIM).0);
    out.insert("claim_after_ms".into(), json!(if casual { needed } else { None }));
    Json(Value::Object(out)).into_response()
}
