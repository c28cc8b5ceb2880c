//! The game service: games run on the one aggregate runner ([`weiqi_aggregate::Runner`]).
//!
//! The runner owns the loop (*load → decide → append with the expected sequence → retry → answer
//! duplicates*) and its guarantees: one writer per game in process, the expected sequence as the
//! backstop across instances, a retry answered with the original outcome and a reused request id
//! refused, decisions folded before they are appended, nothing appended on a rejection or a fault.
//! This file adds what is the game's own: the commands' metrics and traces, the view of a game, and
//! idle eviction. It takes domain commands; the gateway and the bus decode the wire once.

use std::sync::Arc;
use std::time::{Duration, Instant};

pub use weiqi_aggregate::{Environment, SystemEnvironment};
use weiqi_aggregate::{Outcome, Request, RunError, Runner, RunnerConfig};
use weiqi_clock::Millis;
use weiqi_eventlog::EventLog;
use weiqi_telemetry::metrics::{counter, gauge, histogram};
use weiqi_telemetry::names::{self, labels};

use crate::aggregate::GameAggregate;
use crate::domain::{Actor, Command, GameState, Phase, Recorded, Rejection};

/// Recent command outcomes each cached game remembers, to answer retries without the log.
const RECENT_COMMANDS: usize = 64;

/// One command to a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRequest {
    /// The game.
    pub game_id: String,
    /// The request id (a retry reuses it).
    pub command_id: String,
    /// The correlation id the events carry (empty if none).
    pub correlation_id: String,
    /// Who asks.
    pub actor: Actor,
    /// What.
    pub command: Command,
}

/// An accepted command: the events it appended (for a retry: appended the first time).
pub type Accepted = Outcome<Recorded>;

/// Why a command was not accepted. Nothing was appended.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GameError {
    /// The game refused it.
    #[error(transparent)]
    Rejected(#[from] Rejection),
    /// A game service reached over the bus refused it: the kind, the stable code and the message of its
    /// rejection.
    #[error("{message}")]
    Refused {
        /// How it maps to a status.
        kind: crate::domain::RejectionKind,
        /// The stable code.
        code: String,
        /// The reason.
        message: String,
    },
    /// The request id was used before for another command, by another actor, or on another game.
    #[error("this request id was already used{}; send a new request id", other.as_ref().map(|g| format!(" for game {g}")).unwrap_or_else(|| " for another command on this game".into()))]
    RequestIdReused {
        /// The other game, if it is another one.
        other: Option<String>,
    },
    /// The request is malformed (`code`: a stable reason).
    #[error("{message}")]
    BadRequest {
        /// `bad_game_id`, `bad_request_id`, `too_large`, `bad_request`.
        code: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The log or the service is unreachable: the outcome is unknown, retry with the same request id.
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// The game's log does not replay; it is not acted on.
    #[error("internal: {0}")]
    Internal(String),
}

impl GameError {
    /// A stable, machine-readable code (status details, metric labels).
    pub fn code(&self) -> &str {
        match self {
            GameError::Rejected(r) => r.code(),
            GameError::Refused { code, .. } => code,
            GameError::RequestIdReused { .. } => "request_id_reused",
            GameError::BadRequest { code, .. } => code,
            GameError::Unavailable(_) => "unavailable",
            GameError::Internal(_) => "internal",
        }
    }

    /// What kind of refusal this is; `None` for a fault (unavailable, or a log that does not replay).
    pub fn kind(&self) -> Option<crate::domain::RejectionKind> {
        use crate::domain::RejectionKind as K;
        match self {
            GameError::Rejected(r) => Some(r.kind()),
            GameError::Refused { kind, .. } => Some(*kind),
            GameError::RequestIdReused { .. } | GameError::BadRequest { .. } => Some(K::InvalidArgument),
            GameError::Unavailable(_) | GameError::Internal(_) => None,
        }
    }
}

impl From<RunError<Rejection>> for GameError {
    fn from(e: RunError<Rejection>) -> GameError {
        match e {
            RunError::Rejected(r) => GameError::Rejected(r),
            RunError::RequestIdReused { other } => GameError::RequestIdReused { other },
            RunError::BadId { field: "id", .. } => {
                GameError::BadRequest { code: "bad_game_id", message: "game ids are 1–128 of A-Z a-z 0-9 _ -".into() }
            }
            RunError::BadId { .. } => GameError::BadRequest {
                code: "bad_request_id",
                message: "request ids are 1–128 of A-Z a-z 0-9 _ -".into(),
            },
            RunError::TooLarge(why) => GameError::BadRequest { code: "too_large", message: why },
            RunError::Unavailable(why) => GameError::Unavailable(why),
            RunError::Corrupt(why) => GameError::Internal(why),
        }
    }
}

/// The game service over an event log.
pub struct GameService<L> {
    runner: Runner<GameAggregate, L>,
}

impl<L: EventLog> GameService<L> {
    /// A service over `log`, with the system clock and randomness.
    pub fn new(log: L) -> GameService<L> {
        GameService::with_environment(log, Arc::new(SystemEnvironment))
    }

    /// A service with an injected environment (tests).
    pub fn with_environment(log: L, env: Arc<dyn Environment>) -> GameService<L> {
        GameService { runner: Runner::with_config(log, env, RunnerConfig { recent: RECENT_COMMANDS }) }
    }

    /// The event log.
    pub fn log(&self) -> &L {
        self.runner.log()
    }

    /// Server time now.
    pub fn now(&self) -> Millis {
        self.runner.env().now()
    }

    /// Number of games cached.
    pub fn cached_games(&self) -> usize {
        self.runner.cached()
    }

    /// Drops games not used for `idle` (rebuilt from the log on the next command) and refreshes the
    /// cached-games and active-games gauges.
    pub fn evict_idle(&self, idle: Duration) -> usize {
        let active =
            |s: &GameState| matches!(s.phase, Phase::Playing | Phase::Paused | Phase::Adjourned | Phase::Scoring);
        let (evicted, active) = self.runner.evict_idle(idle, active);
        gauge!(names::CACHED_GAMES).set(self.runner.cached() as f64);
        gauge!(names::ACTIVE_GAMES).set(active as f64);
        evicted
    }

    /// Runs `f` on a game's state, caught up with the log.
    ///
    /// # Errors
    /// `NotFound` for a game that does not exist, and the runner's faults.
    pub async fn read<T>(&self, game_id: &str, f: impl FnOnce(&GameState) -> T) -> Result<T, GameError> {
        let out = self.runner.read(game_id, |state, _| (state.version > 0).then(|| f(state))).await?;
        out.ok_or(GameError::Rejected(Rejection::NotFound))
    }

    /// Handles one command. `headers` carry the caller's trace context: the command's span continues
    /// that trace, and the appended events carry the context on.
    pub async fn execute(&self, request: &GameRequest, headers: &[(String, String)]) -> Result<Accepted, GameError> {
        use tracing::Instrument;
        let kind = request.command.name();
        let span = tracing::info_span!("game.command", game = %request.game_id, request = %request.command_id, kind);
        weiqi_telemetry::set_parent(&span, headers);
        let started = Instant::now();
        let result = async {
            let headers = weiqi_telemetry::inject_current();
            let run = Request {
                id: &request.game_id,
                command_id: &request.command_id,
                actor: &request.actor,
                command: &request.command,
                correlation_id: &request.correlation_id,
                headers: &headers,
            };
            self.runner.execute(run).await.map_err(GameError::from)
        }
        .instrument(span)
        .await;
        let outcome = match &result {
            Ok(a) if a.duplicate => "duplicate",
            Ok(_) => "accepted",
            Err(
                GameError::Rejected(_)
                | GameError::Refused { .. }
                | GameError::RequestIdReused { .. }
                | GameError::BadRequest { .. },
            ) => "rejected",
            Err(GameError::Unavailable(_)) => "unavailable",
            Err(GameError::Internal(_)) => "internal",
        };
        counter!(names::COMMANDS, labels::COMMAND => kind, labels::OUTCOME => outcome).increment(1);
        if let Err(e) = &result
            && outcome == "rejected"
        {
            counter!(names::REJECTIONS, labels::COMMAND => kind, labels::REASON => e.code().to_string()).increment(1);
            tracing::debug!(reason = e.code(), "rejected");
        }
        histogram!(names::COMMAND_SECONDS, labels::COMMAND => kind).record(started.elapsed().as_secs_f64());
        result
    }
}
