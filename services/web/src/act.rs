//! `POST /games/{id}/act`: a page's command, as JSON, made a domain command and sent to the game's
//! API ([`weiqi_game::api::GameApi`]) with the session's caller, so a browser and a program are checked
//! by the same code (the game's authority: who may play, who referees which event).
//!
//! The body is `{"request_id": "…", "action": "play", …}`; the page makes one request id per click
//! and reuses it when it retries, so a retry appends nothing new. The answer is `{"ok": true,
//! "sequence": n}` or `{"ok": false, "code": "ko", "message": "<the reason in the page's language>"}`
//! with the HTTP status of the refusal (400, 403, 409, 401 when signed out, 503 when the log is down).
//! Every value from the page is range-checked here or by the domain before anything is appended.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use weiqi_clock::{Bank, DurationMs};
use weiqi_game::api::ApiError;
use weiqi_game::authority::Asks;
use weiqi_game::domain::{Command, EndReason, Outcome};
use weiqi_rules::{Color, Move, Point};

use crate::Web;
use crate::i18n::{Lang, refusal, t};
use crate::session::Viewer;
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
    /// Claim the win over an opponent away too long (a casual game; the server measures the absence).
    ClaimAbsence,
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
    /// Void the last move, on a ground (`double-move`, `ko`, `forbidden-point`; empty: none named).
    Void {
        /// Why.
        reason: String,
        /// The article ruled on.
        #[serde(default)]
        ground: String,
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

fn color(lang: Lang, s: &str) -> Result<Color, Refusal> {
    match s {
        "black" => Ok(Color::Black),
        "white" => Ok(Color::White),
        _ => Err(bad(lang, "bad_color")),
    }
}

fn text(lang: Lang, s: &str) -> Result<String, Refusal> {
    if s.chars().count() > MAX_TEXT { Err(bad(lang, "text_too_long")) } else { Ok(s.trim().to_string()) }
}

/// A side's clock as the referee's form says it (main seconds, periods or reserved minutes left, and
/// optionally the time and moves left in the current period), made a bank of the game's control.
fn side(lang: Lang, s: &SideForm, control: &weiqi_clock::TimeControl) -> Result<Bank, Refusal> {
    let day = 24 * 3600;
    if !(0..=day).contains(&s.main_s)
        || !(0..=day).contains(&s.period_left_s)
        || s.periods_left > 1000
        || s.moves_left > 1000
    {
        return Err(bad(lang, "out_of_range"));
    }
    let some = |n: u32| (n > 0).then_some(n);
    Bank::corrected(
        control,
        DurationMs(s.main_s * 1000),
        some(s.periods_left),
        (s.period_left_s > 0).then_some(DurationMs(s.period_left_s * 1000)),
        some(s.moves_left),
    )
    .map_err(|e| {
        let code = match e {
            weiqi_clock::BankError::Negative => "bank_negative",
            weiqi_clock::BankError::Empty => "bank_empty",
            weiqi_clock::BankError::Phase => "bank_phase",
            weiqi_clock::BankError::Period => "bank_period",
            weiqi_clock::BankError::PeriodLeft => "bank_period_left",
            weiqi_clock::BankError::MovesLeft => "bank_moves_left",
        };
        bad(lang, code)
    })
}

/// The game API's answer for the page.
fn api_refusal(lang: Lang, e: &ApiError) -> Refusal {
    let code = if e.kind().is_some() { e.code() } else { "unavailable" };
    refuse(crate::pages::refused_status(e), code, crate::pages::refused_text(lang, e))
}

fn point(lang: Lang, vertex: &str, size: u8) -> Result<Point, Refusal> {
    Point::from_gtp(vertex, size).ok_or_else(|| bad(lang, "bad_point"))
}

/// `POST /games/{id}/act`.
pub async fn act(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path(game): Path<String>,
    headers: HeaderMap,
    body: Result<Json<Body>, axum::extract::rejection::JsonRejection>,
) -> Response {
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
    let setup = web.index.game(&game).and_then(|g| g.state.setup);
    let size = setup.as_ref().map_or(19, |s| s.size);
    let control = setup.map_or_else(weiqi_clock::TimeControl::no_clock, |s| s.time_control.clone());
    match run(&web, &member, &game, &body.request_id, body.action, size, &control, lang).await {
        Ok(sequence) => Json(json!({ "ok": true, "sequence": sequence })).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

/// The domain command a page's action is, and what it asks of the game.
fn command(
    action: Action,
    size: u8,
    control: &weiqi_clock::TimeControl,
    lang: Lang,
) -> Result<(Asks, Command), Refusal> {
    let referee = |c: Command| Ok((Asks::Referee, c));
    match action {
        Action::Start => Ok((Asks::Start, Command::Start)),
        Action::Play { vertex, move_number } => {
            let mv = Move::Play(point(lang, &vertex, size)?);
            Ok((Asks::Play, Command::Play { mv, expected_number: move_number, lag: None }))
        }
        Action::Pass { move_number } => {
            Ok((Asks::Play, Command::Play { mv: Move::Pass, expected_number: move_number, lag: None }))
        }
        Action::Resign => Ok((Asks::Play, Command::Resign)),
        // Filled in by `run` with the opponent's absence as this server saw it.
        Action::ClaimAbsence => Ok((Asks::Play, Command::ClaimAbsence { away: DurationMs::ZERO })),
        Action::Guess { even } => Ok((Asks::Play, Command::GuessNigiri { even })),
        Action::Mark { vertices } => {
            if vertices.len() > 361 {
                return Err(bad(lang, "out_of_range"));
            }
            let points = vertices.iter().map(|v| point(lang, v, size)).collect::<Result<Vec<_>, _>>()?;
            Ok((Asks::Play, Command::MarkDead { points }))
        }
        Action::Accept => Ok((Asks::Play, Command::AcceptScore)),
        Action::Dispute => Ok((Asks::Play, Command::DisputeScore)),
        Action::Seal { vertex } => {
            let mv = match vertex.as_deref() {
                Some(v) => Move::Play(point(lang, v, size)?),
                None => Move::Pass,
            };
            Ok((Asks::Play, Command::Seal { mv, lag: None }))
        }
        Action::Warn { color: c, reason } => {
            referee(Command::Warn { color: color(lang, &c)?, reason: text(lang, &reason)? })
        }
        Action::Void { reason, ground } => {
            let ground = if ground.is_empty() {
                Some(weiqi_game::domain::VoidGround::Unspecified)
            } else {
                weiqi_game::domain::VoidGround::parse(&ground)
            };
            let ground = ground.ok_or_else(|| bad(lang, "bad_request"))?;
            referee(Command::VoidLastMove { reason: text(lang, &reason)?, ground })
        }
        Action::Pause { reason } => referee(Command::Pause { reason: text(lang, &reason)? }),
        Action::Resume => referee(Command::Resume),
        Action::ResumeAdjourned => referee(Command::ResumeAdjourned),
        Action::Swap => referee(Command::SwapColors),
        // The referee starts the clock whoever is missing.
        Action::StartNow => referee(Command::Start),
        Action::Lateness { color: c, minutes } => {
            if minutes > 24 * 60 {
                return Err(bad(lang, "out_of_range"));
            }
            let late = DurationMs(i64::from(minutes) * 60_000);
            referee(Command::ReportLateness { color: color(lang, &c)?, late })
        }
        Action::CorrectClock { black, white, reason } => referee(Command::CorrectClock {
            black: black.as_ref().map(|s| side(lang, s, control)).transpose()?,
            white: white.as_ref().map(|s| side(lang, s, control)).transpose()?,
            reason: text(lang, &reason)?,
        }),
        Action::Adjudicate { outcome, note } => {
            let outcome = match outcome.as_str() {
                "black" => Outcome::BlackWins,
                "white" => Outcome::WhiteWins,
                "draw" => Outcome::Draw,
                "both-lose" => Outcome::BothLose,
                "no-result" => Outcome::NoResult,
                "replay" => Outcome::Replay,
                _ => return Err(bad(lang, "bad_outcome")),
            };
            referee(Command::Adjudicate { outcome, reason: EndReason::Referee, note: text(lang, &note)? })
        }
    }
}

#[allow(clippy::too_many_arguments)]
async fn run(
    web: &Web,
    member: &Member,
    game: &str,
    request_id: &str,
    action: Action,
    size: u8,
    control: &weiqi_clock::TimeControl,
    lang: Lang,
) -> Result<u64, Refusal> {
    let (asks, mut command) = command(action, size, control, lang)?;
    if let Command::ClaimAbsence { away } = &mut command {
        // The opponent of the claimant, and how long they have been away: the server's own measure.
        let state = web.index.game(game).map(|g| g.state);
        let opponent = state.as_ref().and_then(|s| match (&s.black, &s.white) {
            (Some(b), Some(w)) if b.id.0 == member.name() => Some(w.id.0.clone()),
            (Some(b), Some(w)) if w.id.0 == member.name() => Some(b.id.0.clone()),
            _ => None,
        });
        if let Some(o) = opponent {
            *away = web.presence.away(game, &o).await.unwrap_or(DurationMs::ZERO);
        }
    }
    match web.game.act(&member.caller(), game, request_id, asks, command).await {
        Ok((_, accepted)) => Ok(accepted.sequence),
        Err(e) => Err(api_refusal(lang, &e)),
    }
}
