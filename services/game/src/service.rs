//! The game service: load → decide → append with the expected sequence → reply.
//!
//! * **One writer per game in process.** Each game has an async mutex; commands to one game run one
//!   at a time, commands to different games in parallel. (An async mutex, not a std one, because the
//!   critical section awaits the append.)
//! * **The expected sequence is the backstop across instances.** Every append names the version the
//!   decision was made on. A conflict means another instance appended first: read the tail, fold it,
//!   and decide again.
//! * **Duplicates answer with the original outcome.** A command id seen before (in this instance's
//!   recent commands, or reported by the log as a duplicate) is answered with the events it appended
//!   the first time; nothing is appended again.
//! * **Rejections append nothing.** So do infrastructure faults: the reply says `unavailable` and the
//!   caller retries with the same command id.
//! * **Aggregates are cached and evicted when idle** ([`GameService::evict_idle`]).
//! * **A log that does not replay is never acted on**: the reply says `internal` with the reason.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use prost::Message;
use tokio::sync::Mutex as AsyncMutex;
use weiqi_clock::Millis;
use weiqi_eventlog::{
    AggregateId, AggregateKind, AppendError, CommandId, EventLog, Headers, LogError, NewEvent, RecordedEvent,
};
use weiqi_proto::v1 as pb;

use weiqi_telemetry::metrics::{counter, gauge, histogram};
use weiqi_telemetry::names::{self, labels};

use crate::convert;
use crate::domain::{Actor, GameEvent, GameState, Phase, Rejection, RejectionKind, decide};

/// How many recent command ids each cached game remembers, to answer retries without the log.
const RECENT_COMMANDS: usize = 64;
/// How often a command is decided again after conflicts before giving up.
const MAX_CONFLICT_RETRIES: usize = 16;

/// A source of server time (ms since the epoch) and of nigiri secrets. The real one reads the system
/// clock and the OS random source; tests inject fixed ones.
pub trait Environment: Send + Sync + 'static {
    /// Server time now.
    fn now(&self) -> Millis;
    /// 32 random bytes for a nigiri.
    fn secret(&self) -> [u8; 32];
}

/// The system clock and `uuid`'s OS random source.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemEnvironment;

impl Environment for SystemEnvironment {
    fn now(&self) -> Millis {
        let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        Millis(d.as_millis() as i64)
    }
    fn secret(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        out[..16].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
        out[16..].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
        out
    }
}

/// One cached game.
struct Entry {
    state: GameState,
    /// Recent command ids and the events they appended, oldest first (bounded), with an index by id.
    recent: VecDeque<String>,
    recent_events: HashMap<String, Vec<pb::EventEnvelope>>,
    /// Set when the log failed to replay.
    corrupt: Option<String>,
    /// Whether the log has been read once. After that, the cache is trusted until an append meets a
    /// conflict (another instance appended): reading the log on every command would cost a round trip
    /// per move, and the expected sequence already guards against a stale cache.
    loaded: bool,
    last_used: Instant,
}

impl Entry {
    fn new() -> Entry {
        Entry {
            state: GameState::default(),
            recent: VecDeque::new(),
            recent_events: HashMap::new(),
            corrupt: None,
            loaded: false,
            last_used: Instant::now(),
        }
    }

    fn remember(&mut self, command_id: &str, events: Vec<pb::EventEnvelope>) {
        if self.recent_events.insert(command_id.to_string(), events).is_none() {
            self.recent.push_back(command_id.to_string());
        }
        while self.recent.len() > RECENT_COMMANDS {
            if let Some(old) = self.recent.pop_front() {
                self.recent_events.remove(&old);
            }
        }
    }

    fn recall(&self, command_id: &str) -> Option<Vec<pb::EventEnvelope>> {
        self.recent_events.get(command_id).cloned()
    }
}

/// The game service over an event log.
pub struct GameService<L> {
    log: L,
    env: Arc<dyn Environment>,
    games: Mutex<HashMap<String, Arc<AsyncMutex<Entry>>>>,
}

/// The answer to a command: accepted (with the events), rejected, or a fault.
pub type Reply = pb::GameCommandReply;

/// The command's kind, for metric labels.
fn command_kind(c: &pb::GameCommand) -> &'static str {
    use pb::game_command::Command as C;
    match &c.command {
        Some(C::Create(_)) => "create",
        Some(C::Start(_)) => "start",
        Some(C::GuessNigiri(_)) => "guess_nigiri",
        Some(C::Play(_)) => "play",
        Some(C::Pass(_)) => "pass",
        Some(C::Resign(_)) => "resign",
        Some(C::MarkDead(_)) => "mark_dead",
        Some(C::AcceptScore(_)) => "accept_score",
        Some(C::DisputeScore(_)) => "dispute_score",
        Some(C::Seal(_)) => "seal",
        Some(C::RequestPassOnOverrun(_)) => "request_pass_on_overrun",
        Some(C::Referee(_)) => "referee",
        Some(C::ExpireTime(_)) => "expire_time",
        Some(C::Get(_)) => "get",
        None => "empty",
    }
}

/// The outcome of a reply, for metric labels.
fn outcome_label(r: &Reply) -> &'static str {
    use pb::game_command_reply::Outcome as O;
    match &r.outcome {
        Some(O::Accepted(a)) if a.duplicate => "duplicate",
        Some(O::Accepted(_)) => "accepted",
        Some(O::Rejected(_)) => "rejected",
        Some(O::Unavailable(_)) => "unavailable",
        Some(O::Internal(_)) => "internal",
        Some(O::View(_)) => "view",
        None => "empty",
    }
}

fn rejected(r: &Rejection) -> Reply {
    let kind = match r.kind() {
        RejectionKind::InvalidArgument => pb::rejection::Kind::InvalidArgument,
        RejectionKind::FailedPrecondition => pb::rejection::Kind::FailedPrecondition,
        RejectionKind::NotFound => pb::rejection::Kind::NotFound,
        RejectionKind::PermissionDenied => pb::rejection::Kind::PermissionDenied,
        RejectionKind::AlreadyExists => pb::rejection::Kind::AlreadyExists,
    };
    reject(kind, r.code(), r.to_string())
}

fn reject(kind: pb::rejection::Kind, code: &str, message: impl Into<String>) -> Reply {
    Reply {
        outcome: Some(pb::game_command_reply::Outcome::Rejected(pb::Rejection {
            kind: kind as i32,
            code: code.to_string(),
            message: message.into(),
        })),
    }
}

fn unavailable(why: impl std::fmt::Display) -> Reply {
    Reply { outcome: Some(pb::game_command_reply::Outcome::Unavailable(why.to_string())) }
}

fn internal(why: impl std::fmt::Display) -> Reply {
    Reply { outcome: Some(pb::game_command_reply::Outcome::Internal(why.to_string())) }
}

fn accepted(events: Vec<pb::EventEnvelope>, duplicate: bool) -> Reply {
    let sequence = events.last().map_or(0, |e| e.sequence);
    Reply { outcome: Some(pb::game_command_reply::Outcome::Accepted(pb::CommandReply { events, duplicate, sequence })) }
}

/// Decodes one stored event (an encoded `EventEnvelope`).
pub fn decode_recorded(r: &RecordedEvent) -> Result<(pb::EventEnvelope, GameEvent), String> {
    let envelope = pb::EventEnvelope::decode(r.payload.clone()).map_err(|e| format!("sequence {}: {e}", r.sequence))?;
    let event = envelope.event.as_ref().ok_or_else(|| format!("sequence {}: empty envelope", r.sequence))?;
    let domain = convert::event_from_pb(event).map_err(|e| format!("sequence {}: {e}", r.sequence))?;
    Ok((envelope, domain))
}

/// Folds one stored event into `state`: decoded, then evolved (position hashes re-checked). The error
/// says why the log does not replay.
pub fn fold_recorded(state: &mut GameState, r: &RecordedEvent) -> Result<(), String> {
    let (_, event) = decode_recorded(r)?;
    state.evolve(&event).map_err(|e| format!("sequence {}: {e}", r.sequence))
}

impl<L: EventLog> GameService<L> {
    /// A service over `log`, with the system clock.
    pub fn new(log: L) -> GameService<L> {
        GameService::with_environment(log, Arc::new(SystemEnvironment))
    }

    /// A service with an injected environment (tests).
    pub fn with_environment(log: L, env: Arc<dyn Environment>) -> GameService<L> {
        GameService { log, env, games: Mutex::new(HashMap::new()) }
    }

    /// The event log.
    pub fn log(&self) -> &L {
        &self.log
    }

    /// Number of games cached.
    pub fn cached_games(&self) -> usize {
        self.games.lock().expect("cache lock").len()
    }

    /// Drops games not used for `idle`. Their state is rebuilt from the log on the next command. Also
    /// refreshes the cached-games and active-games gauges.
    pub fn evict_idle(&self, idle: Duration) -> usize {
        let mut games = self.games.lock().expect("cache lock");
        let before = games.len();
        let mut active = 0usize;
        games.retain(|_, entry| match entry.try_lock() {
            Ok(e) => {
                let keep = e.last_used.elapsed() < idle;
                if keep && matches!(e.state.phase, Phase::Playing | Phase::Paused | Phase::Adjourned | Phase::Scoring) {
                    active += 1;
                }
                keep
            }
            Err(_) => {
                active += 1;
                true // in use
            }
        });
        gauge!(names::CACHED_GAMES).set(games.len() as f64);
        gauge!(names::ACTIVE_GAMES).set(active as f64);
        before - games.len()
    }

    fn entry(&self, game_id: &str) -> Arc<AsyncMutex<Entry>> {
        let mut games = self.games.lock().expect("cache lock");
        games.entry(game_id.to_string()).or_insert_with(|| Arc::new(AsyncMutex::new(Entry::new()))).clone()
    }

    /// Reads and folds the events after the cached version.
    async fn catch_up(
        &self,
        id: &AggregateId,
        entry: &mut Entry,
    ) -> Result<Vec<(String, pb::EventEnvelope)>, LogError> {
        let tail = self.log.read(AggregateKind::Game, id, entry.state.version + 1).await?;
        let mut folded = Vec::with_capacity(tail.len());
        for r in &tail {
            if entry.corrupt.is_some() {
                break;
            }
            match decode_recorded(r) {
                Ok((envelope, event)) => {
                    if let Err(e) = entry.state.evolve(&event) {
                        entry.corrupt = Some(format!("game {}: {e}", id.as_str()));
                    } else {
                        folded.push((r.command_id.as_str().to_string(), envelope));
                    }
                }
                Err(e) => entry.corrupt = Some(format!("game {}: {e}", id.as_str())),
            }
        }
        // Group the folded events by command so that retries of recent commands are answered from memory.
        let mut i = 0;
        while i < folded.len() {
            let cmd = folded[i].0.clone();
            let mut events = Vec::new();
            while i < folded.len() && folded[i].0 == cmd {
                events.push(folded[i].1.clone());
                i += 1;
            }
            entry.remember(&cmd, events);
        }
        Ok(folded)
    }

    /// The events a command appended, read back from the log (for a duplicate the cache does not know).
    async fn events_of(&self, id: &AggregateId, command_id: &str) -> Result<Vec<pb::EventEnvelope>, LogError> {
        let all = self.log.read(AggregateKind::Game, id, 1).await?;
        Ok(all
            .iter()
            .filter(|r| r.command_id.as_str() == command_id)
            .filter_map(|r| decode_recorded(r).ok().map(|(e, _)| e))
            .collect())
    }

    /// A snapshot of a game.
    pub async fn view(&self, game_id: &str) -> Reply {
        let Ok(id) = AggregateId::new(game_id) else {
            return reject(
                pb::rejection::Kind::InvalidArgument,
                "bad_game_id",
                "game ids are 1–128 of A-Z a-z 0-9 _ -",
            );
        };
        let entry = self.entry(game_id);
        let mut entry = entry.lock().await;
        entry.last_used = Instant::now();
        if let Err(e) = self.catch_up(&id, &mut entry).await {
            return unavailable(e);
        }
        if let Some(c) = &entry.corrupt {
            return internal(c);
        }
        if entry.state.version == 0 {
            return rejected(&Rejection::NotFound);
        }
        Reply {
            outcome: Some(pb::game_command_reply::Outcome::View(convert::view(game_id, &entry.state, self.env.now()))),
        }
    }

    /// Handles one command. `headers` carry the caller's trace context: the command's span continues
    /// that trace, and the appended events carry the context on.
    pub async fn handle(&self, command: &pb::GameCommand, headers: &[(String, String)]) -> Reply {
        use tracing::Instrument;
        let span = tracing::info_span!("game.command", game = %command.game_id, request = %command.command_id, kind = command_kind(command));
        weiqi_telemetry::set_parent(&span, headers);
        let started = Instant::now();
        let kind = command_kind(command);
        let reply = async {
            let headers = weiqi_telemetry::inject_current();
            self.handle_inner(command, &headers).await
        }
        .instrument(span)
        .await;
        let outcome = outcome_label(&reply);
        counter!(names::COMMANDS, labels::COMMAND => kind, labels::OUTCOME => outcome).increment(1);
        if let Some(pb::game_command_reply::Outcome::Rejected(r)) = &reply.outcome {
            counter!(names::REJECTIONS, labels::COMMAND => kind, labels::REASON => r.code.clone()).increment(1);
        }
        histogram!(names::COMMAND_SECONDS, labels::COMMAND => kind).record(started.elapsed().as_secs_f64());
        reply
    }

    async fn handle_inner(&self, command: &pb::GameCommand, headers: &[(String, String)]) -> Reply {
        // Only a creation needs a nigiri secret; drawing one costs OS randomness.
        let secret = match &command.command {
            Some(pb::game_command::Command::Create(_)) => self.env.secret(),
            _ => [0; 32],
        };
        let decoded = match convert::command_from_pb(command, secret) {
            Ok(Some(d)) => d,
            Ok(None) => return self.view(&command.game_id).await,
            Err(e) => return reject(pb::rejection::Kind::InvalidArgument, "bad_request", e.to_string()),
        };
        let (actor, cmd) = decoded;
        let Ok(id) = AggregateId::new(&command.game_id) else {
            return reject(
                pb::rejection::Kind::InvalidArgument,
                "bad_game_id",
                "game ids are 1–128 of A-Z a-z 0-9 _ -",
            );
        };
        let Ok(command_id) = CommandId::new(&command.command_id) else {
            return reject(
                pb::rejection::Kind::InvalidArgument,
                "bad_request_id",
                "request ids are 1–128 of A-Z a-z 0-9 _ -",
            );
        };
        let entry = self.entry(&command.game_id);
        let mut entry = entry.lock().await;
        entry.last_used = Instant::now();
        // Whether the cached state was read from the log during this command (so it is current).
        let mut fresh = false;
        if !entry.loaded {
            if let Err(e) = self.catch_up(&id, &mut entry).await {
                return unavailable(e);
            }
            entry.loaded = true;
            fresh = true;
        }
        for _ in 0..MAX_CONFLICT_RETRIES {
            if let Some(c) = &entry.corrupt {
                return internal(c);
            }
            if let Some(events) = entry.recall(command_id.as_str()) {
                return accepted(events, true);
            }
            let now = self.env.now();
            let events = match decide(&entry.state, &actor, &cmd, now) {
                Ok(events) => events,
                Err(r) if !fresh => {
                    // Another instance may have appended since this one cached the game: a stale state could
                    // refuse a command that the current one accepts ("not your turn"). Read the tail and decide
                    // again before refusing. (An acceptance on a stale state is caught by the expected sequence.)
                    tracing::debug!(reason = r.code(), "rejected on the cached state; re-reading the log");
                    let before = entry.state.version;
                    if let Err(e) = self.catch_up(&id, &mut entry).await {
                        return unavailable(e);
                    }
                    fresh = true;
                    if entry.state.version == before {
                        return rejected(&r);
                    }
                    continue;
                }
                Err(r) => {
                    tracing::debug!(reason = r.code(), "rejected");
                    return rejected(&r);
                }
            };
            let envelopes = self.envelopes(command, &actor, &entry.state, &events, now);
            let batch: Vec<NewEvent> = envelopes
                .iter()
                .zip(&events)
                .map(|(env, ev)| {
                    let mut e = NewEvent::new(ev.type_name(), env.encode_to_vec());
                    for (k, v) in headers {
                        e = e.with_header(k.clone(), v.clone());
                    }
                    e
                })
                .collect();
            let append_started = Instant::now();
            let appended = self.log.append(AggregateKind::Game, &id, entry.state.version, &command_id, &batch).await;
            histogram!(names::APPEND_SECONDS).record(append_started.elapsed().as_secs_f64());
            match appended {
                Ok(outcome) if !outcome.duplicate => {
                    for ev in &events {
                        if let Err(e) = entry.state.evolve(ev) {
                            // Decided events always fold; if not, the game is unusable until inspected.
                            entry.corrupt = Some(format!("game {}: decided events do not fold: {e}", id.as_str()));
                            return internal(entry.corrupt.clone().unwrap_or_default());
                        }
                    }
                    counter!(names::EVENTS_APPENDED).increment(envelopes.len() as u64);
                    entry.remember(command_id.as_str(), envelopes.clone());
                    return accepted(envelopes, false);
                }
                Ok(_duplicate) => {
                    if let Err(e) = self.catch_up(&id, &mut entry).await {
                        return unavailable(e);
                    }
                    if let Some(events) = entry.recall(command_id.as_str()) {
                        return accepted(events, true);
                    }
                    return match self.events_of(&id, command_id.as_str()).await {
                        Ok(events) => accepted(events, true),
                        Err(e) => unavailable(e),
                    };
                }
                Err(AppendError::Conflict { .. }) => {
                    counter!(names::APPEND_CONFLICTS).increment(1);
                    tracing::debug!("conflict: reloading");
                    if let Err(e) = self.catch_up(&id, &mut entry).await {
                        return unavailable(e);
                    }
                    fresh = true;
                }
                Err(AppendError::CommandIdReused { original }) => {
                    return reject(
                        pb::rejection::Kind::InvalidArgument,
                        "request_id_reused",
                        format!("request id already used for game {}", original.as_str()),
                    );
                }
                Err(AppendError::Invalid(e)) => {
                    return reject(pb::rejection::Kind::InvalidArgument, "too_large", e.to_string());
                }
                Err(AppendError::Unavailable(e)) => {
                    // The outcome is unknown: forget the cached state so the next command re-reads it.
                    *entry = Entry::new();
                    return unavailable(e);
                }
                Err(AppendError::Corrupt(e)) => return internal(e),
            }
        }
        unavailable("too many concurrent conflicts on this game; retry")
    }

    fn envelopes(
        &self,
        command: &pb::GameCommand,
        actor: &Actor,
        state: &GameState,
        events: &[GameEvent],
        now: Millis,
    ) -> Vec<pb::EventEnvelope> {
        events
            .iter()
            .enumerate()
            .map(|(i, e)| pb::EventEnvelope {
                event_id: uuid::Uuid::new_v4().to_string(),
                game_id: command.game_id.clone(),
                sequence: state.version + i as u64 + 1,
                server_time_ms: now.0,
                causation_id: command.command_id.clone(),
                correlation_id: command.correlation_id.clone(),
                actor: Some(convert::actor_to_pb(actor)),
                event: Some(convert::event_to_pb(e)),
            })
            .collect()
    }

    /// Serves commands from the bus (`weiqi.cmd.games.<game>`, queue group `weiqi.games`) until the
    /// bus closes. Each request is handled on its own task; per-game ordering comes from the game's
    /// mutex.
    pub async fn serve<B: weiqi_eventlog::Bus>(self: Arc<Self>, bus: &B) -> Result<(), weiqi_eventlog::BusError>
    where
        L: 'static,
    {
        use futures::StreamExt;
        let mut requests = bus.serve("games").await?;
        while let Some(request) = requests.next().await {
            let service = self.clone();
            tokio::spawn(async move {
                let headers: Vec<(String, String)> =
                    request.message.headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
                let reply = match pb::GameCommand::decode(request.message.payload.clone()) {
                    Ok(cmd) => service.handle(&cmd, &headers).await,
                    Err(e) => reject(pb::rejection::Kind::InvalidArgument, "malformed", e.to_string()),
                };
                let _ = request.respond(weiqi_eventlog::BusMessage::new(reply.encode_to_vec())).await;
            });
        }
        Ok(())
    }
}

/// Builds the headers of a recorded event as (name, value) pairs.
pub fn header_pairs(h: &Headers) -> Vec<(String, String)> {
    h.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// The domain command for `cmd`, for callers that build commands in code.
pub fn command(game_id: &str, command_id: &str, actor: &Actor, kind: pb::game_command::Command) -> pb::GameCommand {
    pb::GameCommand {
        command_id: command_id.to_string(),
        game_id: game_id.to_string(),
        actor: Some(convert::actor_to_pb(actor)),
        correlation_id: String::new(),
        command: Some(kind),
    }
}
