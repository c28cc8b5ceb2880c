//! The tournament service: tournaments run on the one aggregate runner ([`weiqi_aggregate::Runner`]).
//!
//! The runner owns *load → decide → append with the expected sequence → retry → answer duplicates*:
//! one writer per tournament in process, the expected sequence as the backstop across instances (so
//! gateways may run the service in every process), a retry answered with the original events and a
//! reused request id refused, decisions folded before they are appended, nothing appended on a
//! rejection or a fault. The process manager relies on the duplicate policy: its command ids are
//! derived from the tournament, round and table ([`crate::ids`]).

use std::sync::Arc;

use weiqi_aggregate::{
    Aggregate, Context, Decided, Environment, EventMeta, Outcome, Request, RunError, Runner, RunnerConfig,
    SystemEnvironment,
};
use weiqi_eventlog::{AggregateKind, EventLog, NewEvent, RecordedEvent};
use weiqi_game::domain::Actor;
use weiqi_pairing::command::Command;
use weiqi_pairing::ids::Millis;

use crate::aggregate::{Event, ServiceRejection, TournamentAggregate, TournamentCommand, decide_events};
use crate::codec::log::{self, Recorded};
use crate::convert::BadRequest;
use crate::ids::check_tournament_id;

/// Recent command outcomes remembered per tournament, to answer retries without the log.
const RECENT_COMMANDS: usize = 256;

/// The tournament as an [`Aggregate`].
pub struct Tournaments;

impl Aggregate for Tournaments {
    const KIND: AggregateKind = AggregateKind::Tournament;
    const NAME: &'static str = "tournament";
    type State = TournamentAggregate;
    type Actor = Actor;
    type Command = TournamentCommand;
    type Event = Event;
    type Stored = Recorded;
    type Rejection = ServiceRejection;

    fn decide(
        state: &TournamentAggregate,
        _actor: &Actor,
        command: &TournamentCommand,
        ctx: &Context<'_>,
    ) -> Result<Vec<Event>, ServiceRejection> {
        match command {
            // A tournament created without a seed gets one drawn for it (recorded in `Created`).
            TournamentCommand::Create { config, settings } if config.seed == 0 => {
                let mut config = config.clone();
                config.seed = u64::from_le_bytes(ctx.random[..8].try_into().expect("8 bytes")).max(1);
                let command = TournamentCommand::Create { config, settings: settings.clone() };
                decide_events(state, ctx.aggregate, &command, Millis(ctx.now.0))
            }
            _ => decide_events(state, ctx.aggregate, command, Millis(ctx.now.0)),
        }
    }

    fn evolve(state: &mut TournamentAggregate, event: &Event) -> Result<(), String> {
        state.apply(&event.body);
        state.version += 1;
        Ok(())
    }

    fn inconsistent(reason: String) -> ServiceRejection {
        ServiceRejection::Inconsistent(reason)
    }

    fn decide_and_fold(
        state: &TournamentAggregate,
        actor: &Actor,
        command: &TournamentCommand,
        ctx: &Context<'_>,
    ) -> Decided<Self> {
        let events = Self::decide(state, actor, command, ctx)?;
        let mut next = state.clone();
        for e in &events {
            Self::evolve(&mut next, e).map_err(Self::inconsistent)?;
        }
        Ok((events, next))
    }

    fn needs_random(command: &TournamentCommand) -> bool {
        matches!(command, TournamentCommand::Create { config, .. } if config.seed == 0)
    }

    fn encode(event: &Event, meta: &EventMeta<'_, Self>) -> (NewEvent, Recorded) {
        let recorded = Recorded {
            sequence: meta.sequence,
            event_id: meta.event_id.clone(),
            at: Millis(meta.at.0),
            causation: meta.command_id.to_string(),
            actor: meta.actor.clone(),
            event: event.clone(),
        };
        (log::encode(meta.aggregate, &recorded), recorded)
    }

    fn decode(r: &RecordedEvent) -> Result<Recorded, String> {
        log::decode(r).map_err(|e| e.to_string())
    }

    fn event(stored: &Recorded) -> &Event {
        &stored.event
    }
}

/// What an accepted command did: the events appended (for a retry: appended the first time).
pub type Accepted = Outcome<Recorded>;

/// Why a command was not accepted. Nothing was appended.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ServiceError {
    /// Refused: do not retry as is.
    #[error(transparent)]
    Rejected(#[from] ServiceRejection),
    /// A request id reused for another command, by another actor, or on another tournament.
    #[error("request id already used{}", .0.as_ref().map(|t| format!(" for tournament {t}")).unwrap_or_else(|| " for another command on this tournament".into()))]
    CommandIdReused(Option<String>),
    /// The log is unreachable: the outcome is unknown, retry with the same command id.
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// The tournament's log does not decode; it is not acted on.
    #[error("internal: {0}")]
    Internal(String),
}

impl ServiceError {
    /// Whether retrying the same command may succeed.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, ServiceError::Unavailable(_))
    }

    fn bad(code: &'static str, message: impl Into<String>) -> ServiceError {
        ServiceError::Rejected(ServiceRejection::Bad(BadRequest { code, message: message.into() }))
    }
}

impl From<RunError<ServiceRejection>> for ServiceError {
    fn from(e: RunError<ServiceRejection>) -> ServiceError {
        match e {
            RunError::Rejected(r) => ServiceError::Rejected(r),
            RunError::RequestIdReused { other } => ServiceError::CommandIdReused(other),
            RunError::BadId { field: "id", reason } => ServiceError::bad("bad_tournament_id", reason),
            RunError::BadId { reason, .. } => ServiceError::bad("bad_request_id", reason),
            RunError::TooLarge(why) => ServiceError::bad("too_large", why),
            RunError::Unavailable(why) => ServiceError::Unavailable(why),
            RunError::Corrupt(why) => ServiceError::Internal(why),
        }
    }
}

/// Decodes one stored tournament event.
///
/// # Errors
/// Why the stored bytes are not a tournament event.
pub fn decode_recorded(r: &RecordedEvent) -> Result<Recorded, crate::convert::DecodeError> {
    log::decode(r)
}

/// The tournament service over an event log.
pub struct TournamentService<L> {
    runner: Runner<Tournaments, L>,
}

impl<L: EventLog> TournamentService<L> {
    /// A service over `log` with the system clock and randomness.
    pub fn new(log: L) -> TournamentService<L> {
        TournamentService::with_environment(log, Arc::new(SystemEnvironment))
    }

    /// A service with an injected environment (tests, simulations).
    pub fn with_environment(log: L, env: Arc<dyn Environment>) -> TournamentService<L> {
        TournamentService { runner: Runner::with_config(log, env, RunnerConfig { recent: RECENT_COMMANDS }) }
    }

    /// The event log.
    pub fn log(&self) -> &L {
        self.runner.log()
    }

    /// Server time now.
    pub fn now(&self) -> Millis {
        Millis(self.runner.env().now().0)
    }

    /// Runs `f` on the tournament's current state (caught up with the log). `None`: no such tournament.
    ///
    /// # Errors
    /// A bad id, an unreachable log, a log that does not replay.
    pub async fn read<R>(
        &self,
        tournament_id: &str,
        f: impl FnOnce(&TournamentAggregate) -> R,
    ) -> Result<Option<R>, ServiceError> {
        Ok(self.runner.read(tournament_id, |t, _| t.exists().then(|| f(t))).await?)
    }

    /// Handles one command from `actor` with the caller's `command_id` (a retry reuses it).
    ///
    /// # Errors
    /// See [`ServiceError`].
    #[tracing::instrument(name = "tournament.command", skip_all, fields(tournament = %tournament_id, command = %command_id))]
    pub async fn execute(
        &self,
        tournament_id: &str,
        command_id: &str,
        actor: &Actor,
        command: &TournamentCommand,
    ) -> Result<Accepted, ServiceError> {
        use weiqi_telemetry::{metrics, names, names::labels};
        check_tournament_id(tournament_id).map_err(|e| ServiceError::bad("bad_tournament_id", e.to_string()))?;
        let started = std::time::Instant::now();
        let result = self.runner.execute(Request::new(tournament_id, command_id, actor, command)).await;
        let name = command.name();
        let outcome = match &result {
            Ok(a) if a.duplicate => "duplicate",
            Ok(_) => "accepted",
            Err(RunError::Unavailable(_)) => "unavailable",
            Err(_) => "rejected",
        };
        let seconds = started.elapsed().as_secs_f64();
        metrics::counter!(names::COMMANDS, labels::COMMAND => name, labels::OUTCOME => outcome).increment(1);
        metrics::histogram!(names::COMMAND_SECONDS, labels::COMMAND => name).record(seconds);
        if matches!(command, TournamentCommand::PairRound { .. } | TournamentCommand::Core(Command::PairRound))
            && outcome == "accepted"
        {
            // The pairing core runs inside the decision: the command's time is the round's pairing
            // (load, pair, append).
            metrics::histogram!(names::PAIRING_SECONDS).record(seconds);
        }
        Ok(result?)
    }

    /// The pairing `PairRound` would make now, as the round's pairings, without appending anything
    /// (the organiser's draft: forbid or fix pairs and grant byes, and look again, before pairing).
    /// The pairing is deterministic, so pairing next with nothing changed makes exactly this one.
    ///
    /// # Errors
    /// The rejection `PairRound` would meet (not running, a round still open…); a bad id, an
    /// unreachable log.
    pub async fn preview_round(
        &self,
        tournament_id: &str,
    ) -> Result<Option<weiqi_proto::v1::TournamentPairings>, ServiceError> {
        check_tournament_id(tournament_id).map_err(|e| ServiceError::bad("bad_tournament_id", e.to_string()))?;
        let now = self.now();
        let outcome = self
            .read(tournament_id, |t| {
                let bodies = crate::aggregate::decide(t, &TournamentCommand::PairRound { round: None }, now)?;
                let mut next = t.clone();
                for b in &bodies {
                    next.apply(b);
                }
                let round = next.core.current_round();
                let mut draft = crate::projector::round_pairings(tournament_id, &next, round);
                // A draft's games are not created: no game ids.
                for g in draft.iter_mut().flat_map(|d| d.games.iter_mut()) {
                    g.game_id.clear();
                }
                Ok::<_, ServiceRejection>(draft)
            })
            .await?;
        match outcome {
            None => Ok(None),
            Some(Ok(view)) => Ok(view),
            Some(Err(r)) => Err(ServiceError::Rejected(r)),
        }
    }

    /// What `command` would append now, appending nothing (an import's check before it is made):
    /// the events as they would be recorded, with the sequences they would take.
    ///
    /// # Errors
    /// The rejection the command would meet; a bad id, an unreachable log.
    pub async fn dry_run(
        &self,
        tournament_id: &str,
        actor: &Actor,
        command: &TournamentCommand,
    ) -> Result<Accepted, ServiceError> {
        check_tournament_id(tournament_id).map_err(|e| ServiceError::bad("bad_tournament_id", e.to_string()))?;
        let now = self.now();
        let decided = self
            .runner
            .read(tournament_id, |t, version| {
                decide_events(t, tournament_id, command, now).map(|events| (events, version))
            })
            .await?;
        let (events, version) = decided?;
        let events: Vec<Recorded> = events
            .into_iter()
            .enumerate()
            .map(|(i, event)| Recorded {
                sequence: version + 1 + i as u64,
                event_id: String::new(),
                at: now,
                causation: String::new(),
                actor: actor.clone(),
                event,
            })
            .collect();
        Ok(Accepted { sequence: version + events.len() as u64, events, duplicate: false, position: None })
    }

    /// Forgets cached tournaments (they are rebuilt from the log on the next command).
    pub fn evict_all(&self) {
        self.runner.forget_all();
    }
}
