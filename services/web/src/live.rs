//! `GET /games/{id}/live`: the game page's Server-Sent Events.
//!
//! Each event is a `view`: the overlay's view of the game (board, players, clocks read at the server's
//! time, the byo-yomi call, the last moves, the result in words) plus what the page needs on top: the
//! move list, the dead-chain proposal during the count with who has accepted it and the live count it
//! gives (points and stones), the nigiri's guesser, whether a move is sealed (never which), and who the
//! viewer is in this game. A view is sent when the stream opens (folded from the log), after every
//! event, and once a second while a clock runs, so byo-yomi calls are announced on time.
//!
//! `EventSource` reconnects by itself after a lost connection (a restarted gateway, a phone changing
//! networks); the new stream starts again from the log, so the page resumes without a reload. The
//! session cookie is sent with it (same origin), so no token is in the URL.

use std::sync::Arc;
use std::time::Duration;

use crate::overlay::{follow_views, view_value};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
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
    obj.insert("me".into(), json!(me));
    obj.insert("seated".into(), json!(seated));
    obj.insert("referee".into(), json!(seat.referee));
    obj.insert("chief".into(), json!(seat.chief));
    obj.insert("viewer".into(), json!(seat.name));
    v
}

/// `GET /games/{id}/live`.
pub async fn live(State(web): State<Arc<Web>>, viewer: Viewer, Path(game): Path<String>) -> Response {
    let Ok(id) = AggregateId::new(&game) else {
        return (StatusCode::BAD_REQUEST, "bad game id").into_response();
    };
    let last = match web.log.last_sequence(AggregateKind::Game, &id).await {
        Ok(0) => return (StatusCode::NOT_FOUND, "no such game").into_response(),
        Ok(n) => n,
        Err(e) => return (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response(),
    };
    let seat = web.index.game(&game).map(|g| Seat::of(&viewer, &g.state)).unwrap_or_default();
    let events = match web.log.watch(AggregateKind::Game, &id, 1).await {
        Ok(s) => s,
        Err(e) => return (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response(),
    };
    let lang = viewer.lang;
    // The stream stays open after the game's end (a page left open keeps its connection quiet).
    let views = follow_views(last, events, false, move |state| {
        Event::default().event("view").data(page_view(&game, lang, state, &seat, crate::now()).to_string())
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
    let sse = Sse::new(views).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)));
    ([(header::HeaderName::from_static("x-accel-buffering"), "no"), (header::CACHE_CONTROL, "no-store")], sse)
        .into_response()
}
