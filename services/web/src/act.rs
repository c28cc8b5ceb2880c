//! `POST /games/{id}/act`: a page's command, as JSON, sent through the gRPC gateway's own
//! [`weiqi_gateway::game::GameGateway`] with the session's token in `authorization`, so a browser
//! and a program are checked by the same code (who may play, who referees which event).
//!
//! The body is `{"request_id": "…", "action": "play", …}`; the page makes one request id per click
//! and reuses it when it retries, so a retry appends nothing new. The answer is `{"ok": true,
//! "sequence": n}` or `{"ok": false, "code": "ko", "message": "<the reason in the page's language>"}`
//! with the HTTP status of the refusal (400, 403, 409, 401 when signed out, 503 when the log is down).
//! Every value from the page is range-checked here or by the domain before anything is appended.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use tonic::{Code, Request, Status};
use weiqi_gateway::error::rejection_of;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_service_server::GameService;
use weiqi_proto::v1::referee_request as rr;

use crate::Web;
use crate::i18n::{Lang, refusal, t};
use crate::session::{Member, csrf_ok};

/// A clock side as the referee panel gives it.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct SideForm {
    /// Main time left, seconds.
    pub main_s: i64,
    /// Periods left (byo-yomi) or reserved minutes left.
    #[serde(default)]
    pub periods_left: u32,
    /// Time left in the current period, seconds.
    #[serde(default)]
    pub period_left_s: i64,
    /// Moves left in the current period.
    #[serde(default)]
    pub moves_left: u32,
}

/// A page's command.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Action {
    /// Start the clock (a player, once colours are decided).
    Start,
    /// Play a stone at a GTP vertex.
    Play {
        /// `D4`.
        vertex: String,
        /// The move number this move will be (stale pages are refused).
        #[serde(default)]
        move_number: u32,
    },
    /// Pass.
    Pass {
        /// As for `play`.
        #[serde(default)]
        move_number: u32,
    },
    /// Resign.
    Resign,
    /// Guess the nigiri: even or odd.
    Guess {
        /// Even (two stones shown).
        even: bool,
    },
    /// Propose the dead chains (one vertex per chain).
    Mark {
        /// Vertices.
        vertices: Vec<String>,
    },
    /// Accept the count.
    Accept,
    /// Dispute the count (a referee decides).
    Dispute,
    /// Seal the move (adjourns the game).
    Seal {
        /// The sealed vertex, or `None` to seal a pass.
        vertex: Option<String>,
    },
    /// A referee's warning.
    Warn {
        /// `black` or `white`.
        color: String,
        /// Why.
        reason: String,
    },
    /// Void the last move.
    Void {
        /// Why.
        reason: String,
    },
    /// Pause the clocks.
    Pause {
        /// Why.
        reason: String,
    },
    /// Resume after a pause.
    Resume,
    /// Resume an adjourned game (the sealed move is played).
    ResumeAdjourned,
    /// Swap the colours (up to move 10).
    Swap,
    /// Start now, whoever is missing (the referee).
    StartNow,
    /// Report a player late.
    Lateness {
        /// `black` or `white`.
        color: String,
        /// How late, minutes.
        minutes: u32,
    },
    /// Correct the clocks (one side only: the chief referee).
    CorrectClock {
        /// Black's clock, if corrected.
        black: Option<SideForm>,
        /// White's clock, if corrected.
        white: Option<SideForm>,
        /// Why.
        reason: String,
    },
    /// Decide the game.
    Adjudicate {
        /// `black`, `white`, `draw`, `both-lose`, `no-result`, `replay`.
        outcome: String,
        /// The ruling's note.
        note: String,
    },
}

/// The body: an action and its request id.
#[derive(Clone, Debug, Deserialize)]
pub struct Body {
    /// Made by the page per click; reused on retry.
    pub request_id: String,
    /// The command.
    #[serde(flatten)]
    pub action: Action,
}

/// Longest free text (reasons, notes).
const MAX_TEXT: usize = 500;

/// A refused command, answered as `{"ok": false, "code", "message"}` with its HTTP status.
#[derive(Debug)]
pub struct Refusal {
    status: StatusCode,
    code: String,
    message: String,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "ok": false, "code": self.code, "message": self.message }))).into_response()
    }
}

fn bad(lang: Lang, code: &str) -> Refusal {
    refuse(StatusCode::BAD_REQUEST, code, refusal(lang, code, ""))
}

fn refuse(status: StatusCode, code: &str, message: String) -> Refusal {
    Refusal { status, code: code.to_string(), message }
}

fn color(lang: Lang, s: &str) -> Result<i32, Refusal> {
    match s {
        "black" => Ok(pb::Color::Black as i32),
        "white" => Ok(pb::Color::White as i32),
        _ => Err(bad(lang, "bad_color")),
    }
}

fn text(lang: Lang, s: &str) -> Result<String, Refusal> {
    if s.chars().count() > MAX_TEXT { Err(bad(lang, "text_too_long")) } else { Ok(s.trim().to_string()) }
}

fn side(lang: Lang, s: &SideForm) -> Result<pb::ClockSide, Refusal> {
    let day = 24 * 3600;
    if !(0..=day).contains(&s.main_s)
        || !(0..=day).contains(&s.period_left_s)
        || s.periods_left > 1000
        || s.moves_left > 1000
    {
        return Err(bad(lang, "out_of_range"));
    }
    Ok(pb::ClockSide {
        main_ms: s.main_s * 1000,
        periods_left: s.periods_left,
        period_left_ms: s.period_left_s * 1000,
        moves_left: s.moves_left,
        period: 0,
    })
}

/// The status's answer for the page.
fn status_refusal(lang: Lang, status: &Status) -> Refusal {
    let http = crate::pages::http_status(status);
    match rejection_of(status) {
        Some(r) => refuse(http, &r.code, refusal(lang, &r.code, &r.message)),
        None if status.code() == Code::Unauthenticated => refuse(http, "signed_out", t(lang, "refusal-signed-out")),
        None => refuse(http, "unavailable", t(lang, "refusal-unavailable")),
    }
}

fn authed<T>(member: &Member, message: T) -> Request<T> {
    crate::pages::bearer(&member.token, message)
}

fn point(lang: Lang, vertex: &str, size: u8) -> Result<pb::Point, Refusal> {
    weiqi_rules::Point::from_gtp(vertex, size)
        .map(|p| pb::Point { x: u32::from(p.x), y: u32::from(p.y) })
        .ok_or_else(|| bad(lang, "bad_point"))
}

/// `POST /games/{id}/act`.
pub async fn act(
    State(web): State<Arc<Web>>,
    Path(game): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Result<Json<Body>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let viewer = web.viewer(&headers, query.as_deref()).await;
    let lang = viewer.lang;
    if !csrf_ok(&headers, None) {
        return refuse(StatusCode::FORBIDDEN, "csrf", t(lang, "refusal-csrf")).into_response();
    }
    let Some(member) = viewer.member else {
        return refuse(StatusCode::UNAUTHORIZED, "signed_out", t(lang, "refusal-signed-out")).into_response();
    };
    let Ok(Json(body)) = body else { return bad(lang, "bad_request").into_response() };
    if body.request_id.is_empty()
        || body.request_id.len() > 64
        || !body.request_id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return bad(lang, "bad_request_id").into_response();
    }
    let size = web.index.game(&game).and_then(|g| g.state.setup.map(|s| s.size)).unwrap_or(19);
    match run(&web, &member, &game, &body.request_id, body.action, size, lang).await {
        Ok(reply) => Json(json!({ "ok": true, "sequence": reply.sequence })).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

async fn run(
    web: &Web,
    member: &Member,
    game: &str,
    request_id: &str,
    action: Action,
    size: u8,
    lang: Lang,
) -> Result<pb::CommandReply, Refusal> {
    let g = &web.game;
    let (game_id, request_id) = (game.to_string(), request_id.to_string());
    let plain = || pb::GameRequest { game_id: game_id.clone(), request_id: request_id.clone() };
    let referee = |action: rr::Action| pb::RefereeRequest {
        game_id: game_id.clone(),
        request_id: request_id.clone(),
        action: Some(action),
    };
    let reply = match action {
        Action::Start => g.start_game(authed(member, plain())).await,
        Action::Play { vertex, move_number } => {
            let point = point(lang, &vertex, size)?;
            let r = pb::PlayMoveRequest {
                game_id: game_id.clone(),
                request_id: request_id.clone(),
                point: Some(point),
                expected_move_number: move_number,
                lag: None,
            };
            g.play_move(authed(member, r)).await
        }
        Action::Pass { move_number } => {
            let r = pb::PassRequest {
                game_id: game_id.clone(),
                request_id: request_id.clone(),
                expected_move_number: move_number,
                lag: None,
            };
            g.pass(authed(member, r)).await
        }
        Action::Resign => g.resign(authed(member, plain())).await,
        Action::Guess { even } => {
            g.guess_nigiri(authed(
                member,
                pb::GuessNigiriRequest { game_id: game_id.clone(), request_id: request_id.clone(), even },
            ))
            .await
        }
        Action::Mark { vertices } => {
            if vertices.len() > 361 {
                return Err(bad(lang, "out_of_range"));
            }
            let points = vertices.iter().map(|v| point(lang, v, size)).collect::<Result<Vec<_>, _>>()?;
            g.mark_dead(authed(
                member,
                pb::MarkDeadRequest { game_id: game_id.clone(), request_id: request_id.clone(), points },
            ))
            .await
        }
        Action::Accept => g.accept_score(authed(member, plain())).await,
        Action::Dispute => g.dispute_score(authed(member, plain())).await,
        Action::Seal { vertex } => {
            let point = vertex.as_deref().map(|v| point(lang, v, size)).transpose()?;
            let r = pb::SealMoveRequest {
                game_id: game_id.clone(),
                request_id: request_id.clone(),
                pass: point.is_none(),
                point,
                lag: None,
            };
            g.seal_move(authed(member, r)).await
        }
        Action::Warn { color: c, reason } => {
            let a = rr::Action::Warn(rr::Warn { color: color(lang, &c)?, reason: text(lang, &reason)? });
            g.referee(authed(member, referee(a))).await
        }
        Action::Void { reason } => {
            let a = rr::Action::VoidLastMove(rr::VoidLastMove { reason: text(lang, &reason)? });
            g.referee(authed(member, referee(a))).await
        }
        Action::Pause { reason } => {
            g.referee(authed(member, referee(rr::Action::Pause(rr::Pause { reason: text(lang, &reason)? })))).await
        }
        Action::Resume => g.referee(authed(member, referee(rr::Action::Resume(rr::Resume {})))).await,
        Action::ResumeAdjourned => {
            g.referee(authed(member, referee(rr::Action::ResumeAdjourned(rr::ResumeAdjourned {})))).await
        }
        Action::Swap => g.referee(authed(member, referee(rr::Action::SwapColors(rr::SwapColors {})))).await,
        Action::StartNow => g.referee(authed(member, referee(rr::Action::StartNow(rr::StartNow {})))).await,
        Action::Lateness { color: c, minutes } => {
            if minutes > 24 * 60 {
                return Err(bad(lang, "out_of_range"));
            }
            let a = rr::Action::ReportLateness(rr::ReportLateness {
                color: color(lang, &c)?,
                late_ms: i64::from(minutes) * 60_000,
            });
            g.referee(authed(member, referee(a))).await
        }
        Action::CorrectClock { black, white, reason } => {
            let a = rr::Action::CorrectClock(rr::CorrectClock {
                black: black.as_ref().map(|s| side(lang, s)).transpose()?,
                white: white.as_ref().map(|s| side(lang, s)).transpose()?,
                reason: text(lang, &reason)?,
            });
            g.referee(authed(member, referee(a))).await
        }
        Action::Adjudicate { outcome, note } => {
            use pb::game_result::Outcome as O;
            let outcome = match outcome.as_str() {
                "black" => O::BlackWins,
                "white" => O::WhiteWins,
                "draw" => O::Draw,
                "both-lose" => O::BothLose,
                "no-result" => O::NoResult,
                "replay" => O::Replay,
                _ => return Err(bad(lang, "bad_outcome")),
            };
            let a =
                rr::Action::Adjudicate(rr::Adjudicate { outcome: outcome as i32, note: text(lang, &note)?, reason: 0 });
            g.referee(authed(member, referee(a))).await
        }
    };
    reply.map(tonic::Response::into_inner).map_err(|s| status_refusal(lang, &s))
}
