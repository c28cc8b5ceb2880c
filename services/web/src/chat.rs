//! A game's chat on its page (issue 32 item 10): `POST /games/{id}/chat` (post, report, hide, mute,
//! unmute) and `GET /games/{id}/chat/live?room=players|spectators` (Server-Sent Events).
//!
//! Who the viewer is in this game ([`weiqi_chat::Speaker`]: seated, staff, the game over) is read
//! from the game's state on every request, and the chat's own rules decide ([`weiqi_chat::domain`]).
//! A room the viewer may not read is refused before anything is sent: a player's page never opens the
//! spectators' stream while the game is played, and the server would refuse it if it tried. Each
//! `chat` event of a stream is the room's visible messages for that reader (the last
//! [`SHOWN`]), re-sent after each event of the chat's log; staff also get hidden messages (marked)
//! and the number of reports.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event as Sse, KeepAlive};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use serde::Deserialize;
use serde_json::{Value, json};
use weiqi_chat::{Chat, ChatError, Command, ModerationCommand, Room, Speaker};
use weiqi_eventlog::{AggregateId, AggregateKind, EventLog};
use weiqi_game::domain::Phase;

use crate::Web;
use crate::i18n::{Lang, refusal, t};
use crate::live::Seat;
use crate::session::{Viewer, csrf_ok};

/// How many messages a stream shows of a room.
pub const SHOWN: usize = 200;

/// Who `viewer` is in `game` for its chat (`None`: no such game), with whether the game's event has
/// its players' rooms open (the moderation's log; a casual game's always are).
pub async fn speaker(web: &Web, viewer: &Viewer, game: &str) -> Option<Speaker> {
    let mut who = seat_facts(web, viewer, game)?;
    let event = web.index.game(game).and_then(|g| g.state.setup.and_then(|s| s.event_id));
    if event.is_some() {
        match web.chat.moderation().await {
            Ok(m) => who.players_chat_on = m.players_chat_on(event.as_deref()),
            Err(e) => tracing::warn!(error = %e, "chat moderation unreadable: the players' room is taken as open"),
        }
    }
    Some(who)
}

fn seat_facts(web: &Web, viewer: &Viewer, game: &str) -> Option<Speaker> {
    let indexed = web.index.game(game)?;
    let state = &indexed.state;
    let seat = Seat::of(viewer, state);
    let (id, name, admin) = match &viewer.member {
        Some(m) => (m.name().to_string(), m.account.display_name.clone(), m.has(weiqi_edge::auth::Role::Admin)),
        None => (String::new(), String::new(), false),
    };
    let seated = state.setup.as_ref().is_some_and(|s| !id.is_empty() && (s.first.id.0 == id || s.second.id.0 == id));
    Some(Speaker {
        name: if name.is_empty() { id.clone() } else { name },
        id,
        seated,
        // Seat first: a referee who plays in this game is a player in it.
        staff: !seated && (seat.referee || admin),
        muted: false,
        game_over: state.phase == Phase::Ended,
        players_chat_on: true,
    })
}

/// The rooms `who` reads now, in the order the page shows them.
pub fn rooms(who: &Speaker) -> Vec<&'static str> {
    [Room::Players, Room::Spectators].into_iter().filter(|r| who.reads(*r)).map(Room::key).collect()
}

/// The rooms `who` may write in now (signed in, and the rules allow it; muting is checked on posting).
pub fn writable(who: &Speaker) -> Vec<&'static str> {
    if who.id.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if who.staff || (who.seated && who.players_chat_on) {
        out.push(Room::Players.key());
    }
    if !who.seated || who.game_over {
        out.push(Room::Spectators.key());
    }
    out
}

fn message_json(who: &Speaker, m: &weiqi_chat::Message) -> Value {
    let mut v = json!({ "id": m.id, "name": m.name, "author": m.author, "text": m.text, "at_ms": m.at.0, "mine": m.author == who.id });
    if who.staff {
        v["hidden"] = json!(m.hidden.is_some());
        v["reports"] = json!(m.reported_by.len());
    }
    v
}

fn frame(chat: &Chat, who: &Speaker, room: Room) -> Value {
    json!({ "room": room.key(), "messages": chat.visible(who, room, SHOWN).into_iter().map(|m| message_json(who, m)).collect::<Vec<_>>() })
}

/// The stream's query.
#[derive(Deserialize)]
pub struct RoomQuery {
    room: String,
}

/// `GET /games/{id}/chat/live?room=…`.
pub async fn live(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    crate::pages::ClientAddr(address): crate::pages::ClientAddr,
    Path(game): Path<String>,
    Query(q): Query<RoomQuery>,
) -> Response {
    let lang = viewer.lang;
    let Some(room) = Room::parse(&q.room) else { return (StatusCode::BAD_REQUEST, "bad room").into_response() };
    let Some(who) = speaker(&web, &viewer, &game).await else {
        return (StatusCode::NOT_FOUND, t(lang, "game-not-found")).into_response();
    };
    if !who.reads(room) {
        let code = if room == Room::Spectators { "chat_player_in_play" } else { "chat_not_a_player" };
        return (StatusCode::FORBIDDEN, refusal(lang, code, "")).into_response();
    }
    let Ok(id) = AggregateId::new(&game) else { return (StatusCode::BAD_REQUEST, "bad game id").into_response() };
    let Some(ticket) = web.fanout.admit(if viewer.member.is_some() { None } else { address }) else {
        return (StatusCode::TOO_MANY_REQUESTS, [(header::RETRY_AFTER, "30")], t(lang, "too-many-streams"))
            .into_response();
    };
    let (chat, version) = match web.chat.chat(&game).await {
        Ok(c) => c,
        Err(e) => return (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response(),
    };
    let events = match web.log.watch(AggregateKind::Chat, &id, version + 1).await {
        Ok(s) => s,
        Err(e) => return (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response(),
    };
    let first = Sse::default().event("chat").data(frame(&chat, &who, room).to_string());
    let stream = futures::stream::once(async move { Ok::<_, Infallible>(first) }).chain(futures::stream::unfold(
        (chat, events, who, ticket),
        move |(mut chat, mut events, who, ticket)| async move {
            loop {
                let recorded = match events.next().await? {
                    Ok(r) => r,
                    Err(e) => {
                        tracing::warn!(error = %e, "chat stream");
                        return None;
                    }
                };
                let Ok(event) = weiqi_chat::codec::decode(&recorded) else { continue };
                if weiqi_chat::domain::evolve(&mut chat, &event).is_err() {
                    return None;
                }
                let data = frame(&chat, &who, room).to_string();
                return Some((Ok(Sse::default().event("chat").data(data)), (chat, events, who, ticket)));
            }
        },
    ));
    axum::response::sse::Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(std::time::Duration::from_secs(15)))
        .into_response()
}

/// A chat request from the page.
#[derive(Debug, Deserialize)]
pub struct Body {
    request_id: String,
    action: String,
    #[serde(default)]
    room: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    message: u64,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    account: String,
}

fn answer(lang: Lang, result: Result<(), ChatError>) -> Response {
    match result {
        Ok(()) => Json(json!({ "ok": true })).into_response(),
        Err(e) => {
            let status = match &e {
                ChatError::Refused(weiqi_chat::Rejection::NotStaff | weiqi_chat::Rejection::NotAPlayer)
                | ChatError::Moderation(weiqi_chat::ModerationRejection::NotStaff) => StatusCode::FORBIDDEN,
                ChatError::Refused(weiqi_chat::Rejection::TooFast) => StatusCode::TOO_MANY_REQUESTS,
                ChatError::Refused(_) | ChatError::Moderation(_) => StatusCode::CONFLICT,
                ChatError::BadRequest(_) => StatusCode::BAD_REQUEST,
                ChatError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            };
            if let ChatError::Unavailable(why) = &e {
                tracing::warn!(error = %why, "chat");
            }
            let code = e.code();
            (status, Json(json!({ "ok": false, "code": code, "message": refusal(lang, code, "") }))).into_response()
        }
    }
}

/// `POST /games/{id}/chat`.
pub async fn act(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path(game): Path<String>,
    headers: HeaderMap,
    body: Result<Json<Body>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let lang = viewer.lang;
    let refuse = |status: StatusCode, code: &str| {
        (status, Json(json!({ "ok": false, "code": code, "message": refusal(lang, code, "") }))).into_response()
    };
    if !csrf_ok(&headers, None) {
        return refuse(StatusCode::FORBIDDEN, "csrf");
    }
    if viewer.member.is_none() {
        return refuse(StatusCode::UNAUTHORIZED, "signed_out");
    }
    let Ok(Json(body)) = body else { return refuse(StatusCode::BAD_REQUEST, "bad_request") };
    let Some(who) = speaker(&web, &viewer, &game).await else { return refuse(StatusCode::NOT_FOUND, "not_found") };
    let request_id = format!("chat-{}", body.request_id);
    let result = match body.action.as_str() {
        "post" => {
            let Some(room) = Room::parse(&body.room) else { return refuse(StatusCode::BAD_REQUEST, "bad_request") };
            web.chat.run(&game, &request_id, &who, &Command::Post { room, text: body.text }).await
        }
        "report" => web.chat.run(&game, &request_id, &who, &Command::Report { id: body.message }).await,
        "hide" => {
            web.chat.run(&game, &request_id, &who, &Command::Hide { id: body.message, reason: body.reason }).await
        }
        "mute" => {
            let account = match web.chat.chat(&game).await {
                // Staff mute the author of a message they read in this game.
                Ok((chat, _)) => match chat.message(body.message) {
                    Some(m) => m.author.clone(),
                    None if !body.account.is_empty() => body.account,
                    None => return refuse(StatusCode::BAD_REQUEST, "chat_no_such_message"),
                },
                Err(e) => return answer(lang, Err(e)),
            };
            let command = ModerationCommand::Mute { account, reason: body.reason };
            web.chat.moderate(&request_id, &who, &command).await
        }
        "unmute" => web.chat.moderate(&request_id, &who, &ModerationCommand::Unmute { account: body.account }).await,
        _ => return refuse(StatusCode::BAD_REQUEST, "bad_request"),
    };
    answer(lang, result)
}
