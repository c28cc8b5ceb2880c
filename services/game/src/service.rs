//! The game service: load → decide → append with the expected sequence → reply.
//!
//! * **One writer per game in process.** Each game has an async mutex; commands to one game run one
//!   at a time, commands to different games in parallel. (An async mutex, not a std one, because the
//!   critical section awaits the append.)
//! * **The expected sequence is the backstop across instances.** Every append names the version the
//!   decision was made on. A conflict means another instance appended first: read the tail, fold it,
//!   and decide again.
//! * **Duplicates answer with the original outcome, and only duplicates do.** Every append carries a
//!   digest of the command and its actor (header [`COMMAND_DIGEST`]). A command id seen before (in this
//!   instance's recent commands, or reported by the log as a duplicate) with the same digest is a retry:
//!   it is answered with the events it appended the first time, and nothing is appended again. The same
//!   id with another command or from another actor is refused (`request_id_reused`).
//! * **Hidden information stays hidden in replies.** The nigiri secret and a sealed move are cleared from
//!   the events a reply carries unless the actor is a referee or a service (retries included).
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
use crate::domain::{Actor, GameEvent, GameState, Phase, Rejection, RejectionKind, decide_and_fold};

/// The header that carries a command's digest (SHA-256 of the actor and the command, request id left
/// out), so a retry can be told from another command that reuses its id.
pub const COMMAND_DIGEST: &str = "weiqi-command-digest";

/// The digest of a command and its actor: the wire command with its request and correlation ids cleared,
/// encoded (prost encodes a message deterministically) and hashed.
pub fn command_digest(command: &pb::GameCommand) -> String {
    use sha2::{Digest, Sha256};
    let canonical = pb::GameCommand { command_id: String::new(), correlation_id: String::new(), ..command.clone() };
    hex_digest(&Sha256::digest(canonical.encode_to_vec()))
}

fn hex_digest(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

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

/// A command this instance has seen appended: its digest (empty for events written before digests were
/// recorded) and the events it appended.
#[derive(Clone)]
struct Remembered {
    digest: String,
    events: Vec<pb::EventEnvelope>,
}

/// One cached game.
struct Entry {
    state: GameState,
    /// Recent command ids and the events they appended, oldest first (bounded), with an index by id.
    recent: VecDeque<String>,
    recent_events: HashMap<String, Remembered>,
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

    fn remember(&mut self, command_id: &str, digest: String, events: Vec<pb::EventEnvelope>) {
        if self.recent_events.insert(command_id.to_string(), Remembered { digest, events }).is_none() {
            self.recent.push_back(command_id.to_string());
        }
        while self.recent.len() > RECENT_COMMANDS {
            if let Some(old) = self.recent.pop_front() {
                self.recent_events.remove(&old);
            }
        }
    }

    fn recall(&self, command_id: &str) -> Option<Remembered> {
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

/// The accepted reply for `actor`: what a player, spectator or broadcaster may not see yet (the nigiri
/// secret, a sealed move) is cleared; referees and services see everything.
fn accepted(actor: &Actor, mut events: Vec<pb::EventEnvelope>, duplicate: bool) -> Reply {
    if !sees_hidden(actor) {
        events.iter_mut().for_each(convert::redact);
    }
    let sequence = events.last().map_or(0, |e| e.sequence);
    Reply { outcome: Some(pb::game_command_reply::Outcome::Accepted(pb::CommandReply { events, duplicate, sequence })) }
}

/// Whether `actor` may see hidden information (referees and the platform's own services).
fn sees_hidden(actor: &Actor) -> bool {
    actor.is_referee() || matches!(actor, Actor::System(_))
}

/// The answer to a command id met before: the original outcome if it is the same command from the same
/// actor (an old event without a digest is taken as the same), else a refusal.
fn retry_or_reused(actor: &Actor, digest: &str, seen: Remembered) -> Reply {
    if !seen.digest.is_empty() && seen.digest != digest {
        return reject(
            pb::rejection::Kind::InvalidArgument,
            "request_id_reused",
            "this request id was already used for another command on this game; send a new request id",
        );
    }
    accepted(actor, seen.events, true)
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
    ) -> Result<Vec<(String, String, pb::EventEnvelope)>, LogError> {
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
                        let digest = r.headers.get(COMMAND_DIGEST).unwrap_or_default().to_string();
                        folded.push((r.command_id.as_str().to_string(), digest, envelope));
                    }
                }
                Err(e) => entry.corrupt = Some(format!("game {}: {e}", id.as_str())),
            }
        }
        // Group the folded events by command so that retries of recent commands are answered from memory.
        let mut i = 0;
        while i < folded.len() {
            let (cmd, digest) = (folded[i].0.clone(), folded[i].1.clone());
            let mut events = Vec::new();
            while i < folded.len() && folded[i].0 == cmd {
                events.push(folded[i].2.clone());
                i += 1;
            }
            entry.remember(&cmd, digest, events);
        }
        Ok(folded)
    }

    /// The events a command appended and its digest, read back from the log (for a duplicate the cache
    /// does not know).
    async fn events_of(&self, id: &AggregateId, command_id: &str) -> Result<Remembered, LogError> {
        let all = self.log.read(AggregateKind::Game, id, 1).await?;
        let mine: Vec<_> = all.iter().filter(|r| r.command_id.as_str() == command_id).collect();
        let digest = mine.first().and_then(|r| r.headers.get(COMMAND_DIGEST)).unwrap_or_default().to_string();
        let events = mine.iter().filter_map(|r| decode_recorded(r).ok().map(|(e, _)| e)).collect();
        Ok(Remembered { digest, events })
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
        let digest = command_digest(command);
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
            if let Some(seen) = entry.recall(command_id.as_str()) {
                return retry_or_reused(&actor, &digest, seen);
            }
            let now = self.env.now();
            let (events, next) = match decide_and_fold(&entry.state, &actor, &cmd, now) {
                Ok(decided) => decided,
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
                    let mut e = NewEvent::new(ev.type_name(), env.encode_to_vec()).with_header(COMMAND_DIGEST, &digest);
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
                    // `decide_and_fold` folded the events already: the state is the next one.
                    entry.state = next;
                    counter!(names::EVENTS_APPENDED).increment(envelopes.len() as u64);
                    entry.remember(command_id.as_str(), digest.clone(), envelopes.clone());
                    return accepted(&actor, envelopes, false);
                }
                Ok(_duplicate) => {
                    if let Err(e) = self.catch_up(&id, &mut entry).await {
                        return unavailable(e);
                    }
                    if let Some(seen) = entry.recall(command_id.as_str()) {
                        return retry_or_reused(&actor, &digest, seen);
                    }
                    return match self.events_of(&id, command_id.as_str()).await {
                        Ok(seen) => retry_or_reused(&actor, &digest, seen),
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
