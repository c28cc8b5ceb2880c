//! The runner: *load → decide → append with the expected sequence → retry → answer duplicates*, once.
//!
//! * **One writer per aggregate in process.** Each aggregate id has an async mutex: commands to one
//!   aggregate run one at a time, commands to different ones in parallel. (An async mutex, because the
//!   critical section awaits the append; the map of slots behind a std mutex, because it is only held
//!   to find or insert a slot, never across an await.)
//! * **The expected sequence is the backstop across instances.** The cached state is trusted after
//!   the first read: reading the log on every command would cost a round trip per move. Every append
//!   names the sequence the decision was made on, so a stale cache cannot append; a conflict reads the
//!   tail and decides again, at most [`MAX_CONFLICT_RETRIES`] times. A refusal decided on a state not
//!   read in this command is decided again on the fresh tail before it is given.
//! * **Duplicates**: see the crate doc. Every command id of an aggregate is known for the aggregate's
//!   life (an index of command id → its batch's sequences, filled as the log is folded), so a retry
//!   is recognised however many commands came after it; the recent outcomes are kept decoded
//!   ([`RunnerConfig::recent`]), older ones are read back from their batch in the log.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Mutex as AsyncMutex;
use weiqi_eventlog::{AggregateId, AppendError, CommandId, EventLog, LogError, Position};
use weiqi_telemetry::metrics::{counter, histogram};
use weiqi_telemetry::names::{self, labels};

use crate::aggregate::{Aggregate, COMMAND_DIGEST, Context, EventMeta};
use weiqi_eventlog::Environment;

/// How often a command is decided again after conflicts before the caller is told to retry.
pub const MAX_CONFLICT_RETRIES: usize = 16;

/// How a runner is tuned.
#[derive(Clone, Copy, Debug)]
pub struct RunnerConfig {
    /// Command outcomes kept decoded per aggregate, to answer retries without reading the log (every
    /// command id is recognised whatever this is; older outcomes are read back).
    pub recent: usize,
}

impl Default for RunnerConfig {
    fn default() -> RunnerConfig {
        RunnerConfig { recent: 64 }
    }
}

/// One command for the runner.
pub struct Request<'a, A: Aggregate> {
    /// The aggregate's id.
    pub id: &'a str,
    /// The command's id (a retry reuses it).
    pub command_id: &'a str,
    /// Who issues it.
    pub actor: &'a A::Actor,
    /// The command.
    pub command: &'a A::Command,
    /// The correlation id the events carry (empty if none).
    pub correlation_id: &'a str,
    /// Headers every appended event carries (W3C trace context).
    pub headers: &'a [(String, String)],
}

impl<'a, A: Aggregate> Request<'a, A> {
    /// A request without correlation id or headers.
    pub fn new(id: &'a str, command_id: &'a str, actor: &'a A::Actor, command: &'a A::Command) -> Request<'a, A> {
        Request { id, command_id, actor, command, correlation_id: "", headers: &[] }
    }

    /// With a correlation id.
    #[must_use]
    pub fn correlated(mut self, correlation_id: &'a str) -> Request<'a, A> {
        self.correlation_id = correlation_id;
        self
    }

    /// With headers for the appended events.
    #[must_use]
    pub fn with_headers(mut self, headers: &'a [(String, String)]) -> Request<'a, A> {
        self.headers = headers;
        self
    }
}

/// An accepted command.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome<S> {
    /// What the events of the command are stored as (for a retry: those appended the first time).
    pub events: Vec<S>,
    /// The command had been appended before.
    pub duplicate: bool,
    /// The aggregate's last sequence after the command.
    pub sequence: u64,
    /// The log position of the command's last event, for reads that wait for "at least position N"
    /// in a follower's read model (read your writes); `None` for a duplicate answered from memory.
    pub position: Option<Position>,
}

/// Why a command was not accepted. Nothing was appended.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RunError<R> {
    /// The aggregate refused it.
    #[error("rejected")]
    Rejected(R),
    /// The command id was used before for another command, by another actor, or on another
    /// aggregate (`Some(id)`).
    #[error("request id already used{}", other.as_ref().map(|o| format!(" for {o}")).unwrap_or_else(|| " for another command".into()))]
    RequestIdReused {
        /// The aggregate it was used on, if it is another one.
        other: Option<String>,
    },
    /// The aggregate id or the command id is not acceptable (`field`: why).
    #[error("{field}: {reason}")]
    BadId {
        /// `id` or `command_id`.
        field: &'static str,
        /// Why.
        reason: String,
    },
    /// The events are too large for one append.
    #[error("too large: {0}")]
    TooLarge(String),
    /// The log is unreachable, or conflicts did not settle: the outcome is unknown, retry with the
    /// same command id.
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// The aggregate's log does not replay; it is not acted on.
    #[error("the log does not replay: {0}")]
    Corrupt(String),
}

impl<R> From<LogError> for RunError<R> {
    fn from(e: LogError) -> Self {
        RunError::Unavailable(e.to_string())
    }
}

/// A command outcome remembered: its digest (empty for events stored without one) and what it stored.
#[derive(Clone)]
struct Remembered<S> {
    digest: String,
    events: Vec<S>,
}

/// One cached aggregate.
struct Slot<A: Aggregate> {
    state: A::State,
    /// The last sequence folded.
    version: u64,
    recent: VecDeque<String>,
    remembered: HashMap<String, Remembered<A::Stored>>,
    /// Every command id the aggregate's log holds, for the aggregate's life, with the sequences of
    /// its batch (first, last): a retry is recognised however long ago its command was appended,
    /// and answered with its events read back from exactly there. (About 100 bytes a command: a
    /// 300-move game 30 KB, 3,000 registrations 300 KB.)
    commands: HashMap<Box<str>, (u64, u64)>,
    corrupt: Option<String>,
    loaded: bool,
    last_used: Instant,
}

impl<A: Aggregate> Slot<A> {
    fn new() -> Slot<A> {
        Slot {
            state: A::State::default(),
            version: 0,
            recent: VecDeque::new(),
            remembered: HashMap::new(),
            commands: HashMap::new(),
            corrupt: None,
            loaded: false,
            last_used: Instant::now(),
        }
    }

    fn remember(&mut self, limit: usize, command_id: &str, digest: String, events: Vec<A::Stored>) {
        if self.remembered.insert(command_id.to_string(), Remembered { digest, events }).is_none() {
            self.recent.push_back(command_id.to_string());
        }
        while self.recent.len() > limit {
            if let Some(old) = self.recent.pop_front() {
                self.remembered.remove(&old);
            }
        }
    }
}

/// Runs aggregate `A` on event log `L`.
pub struct Runner<A: Aggregate, L> {
    log: L,
    env: Arc<dyn Environment>,
    config: RunnerConfig,
    slots: Mutex<HashMap<String, Arc<AsyncMutex<Slot<A>>>>>,
}

/// The answer to a command id met before: the original outcome if it is the same command from the same
/// actor (events stored without a digest are taken as the same), else a refusal.
fn retry_or_reused<S, R>(digest: &str, seen: Remembered<S>, version: u64) -> Result<Outcome<S>, RunError<R>> {
    if !seen.digest.is_empty() && seen.digest != digest {
        return Err(RunError::RequestIdReused { other: None });
    }
    counter!(names::DUPLICATE_COMMANDS).increment(1);
    Ok(Outcome { sequence: version, events: seen.events, duplicate: true, position: None })
}

impl<A: Aggregate, L: EventLog> Runner<A, L> {
    /// A runner over `log`, with time and randomness from `env`.
    pub fn new(log: L, env: Arc<dyn Environment>) -> Runner<A, L> {
        Runner::with_config(log, env, RunnerConfig::default())
    }

    /// A runner with its tuning.
    pub fn with_config(log: L, env: Arc<dyn Environment>, config: RunnerConfig) -> Runner<A, L> {
        Runner { log, env, config, slots: Mutex::new(HashMap::new()) }
    }

    /// The event log.
    pub fn log(&self) -> &L {
        &self.log
    }

    /// The environment (time, randomness).
    pub fn env(&self) -> &Arc<dyn Environment> {
        &self.env
    }

    /// How many aggregates are cached.
    pub fn cached(&self) -> usize {
        self.slots.lock().expect("slots lock").len()
    }

    /// Drops the aggregates not used for `idle` (rebuilt from the log when next used); returns how many,
    /// and counts those kept that `active` says are active.
    pub fn evict_idle(&self, idle: Duration, active: impl Fn(&A::State) -> bool) -> (usize, usize) {
        let mut slots = self.slots.lock().expect("slots lock");
        let before = slots.len();
        let mut active_count = 0;
        slots.retain(|_, slot| match slot.try_lock() {
            Ok(s) => {
                let keep = s.last_used.elapsed() < idle;
                if keep && active(&s.state) {
                    active_count += 1;
                }
                keep
            }
            Err(_) => {
                active_count += 1;
                true // in use
            }
        });
        (before - slots.len(), active_count)
    }

    /// Forgets every cached aggregate.
    pub fn forget_all(&self) {
        self.slots.lock().expect("slots lock").clear();
    }

    fn slot(&self, id: &str) -> Arc<AsyncMutex<Slot<A>>> {
        let mut slots = self.slots.lock().expect("slots lock");
        slots.entry(id.to_string()).or_insert_with(|| Arc::new(AsyncMutex::new(Slot::new()))).clone()
    }

    /// Reads and folds the events after the cached version; remembers their commands' outcomes.
    async fn catch_up(&self, id: &AggregateId, slot: &mut Slot<A>) -> Result<(), LogError> {
        let tail = self.log.read(A::KIND, id, slot.version + 1).await?;
        let mut i = 0;
        while i < tail.len() && slot.corrupt.is_none() {
            let command = tail[i].command_id.as_str().to_string();
            let digest = tail[i].headers.get(COMMAND_DIGEST).unwrap_or_default().to_string();
            let first = tail[i].sequence;
            let mut stored = Vec::new();
            while i < tail.len() && tail[i].command_id.as_str() == command {
                let r = &tail[i];
                let folded = A::decode(r).and_then(|s| A::evolve(&mut slot.state, A::event(&s)).map(|()| s));
                match folded {
                    Ok(s) => {
                        slot.version = r.sequence;
                        stored.push(s);
                    }
                    Err(e) => {
                        slot.corrupt = Some(format!("{} {} sequence {}: {e}", A::NAME, id.as_str(), r.sequence));
                        break;
                    }
                }
                i += 1;
            }
            // A restored log may hold an id twice (further apart than any window): the first counts.
            slot.commands.entry(command.as_str().into()).or_insert((first, slot.version));
            slot.remember(self.config.recent, &command, digest, stored);
        }
        Ok(())
    }

    /// A command's outcome read back from the log, from its batch's sequences (for a retry the cache
    /// of recent outcomes no longer holds).
    async fn outcome_from_log(
        &self,
        id: &AggregateId,
        command_id: &str,
        (first, last): (u64, u64),
    ) -> Result<Remembered<A::Stored>, LogError> {
        let tail = self.log.read(A::KIND, id, first).await?;
        let mine: Vec<_> =
            tail.iter().take_while(|r| r.sequence <= last).filter(|r| r.command_id.as_str() == command_id).collect();
        let digest = mine.first().and_then(|r| r.headers.get(COMMAND_DIGEST)).unwrap_or_default().to_string();
        let events = mine.iter().filter_map(|r| A::decode(r).ok()).collect();
        Ok(Remembered { digest, events })
    }

    /// Runs `f` on the aggregate's current state (caught up with the log) and its last sequence.
    ///
    /// # Errors
    /// A bad id, an unreachable log, or a log that does not replay.
    pub async fn read<T>(&self, id: &str, f: impl FnOnce(&A::State, u64) -> T) -> Result<T, RunError<A::Rejection>> {
        let aid = AggregateId::new(id).map_err(|e| RunError::BadId { field: "id", reason: e.to_string() })?;
        let slot = self.slot(id);
        let mut slot = slot.lock().await;
        slot.last_used = Instant::now();
        // One cheap question tells whether another instance appended since the cache was filled.
        if !slot.loaded || self.log.last_sequence(A::KIND, &aid).await? != slot.version {
            self.catch_up(&aid, &mut slot).await?;
            slot.loaded = true;
        }
        if let Some(c) = &slot.corrupt {
            return Err(RunError::Corrupt(c.clone()));
        }
        Ok(f(&slot.state, slot.version))
    }

    /// Runs one command: see the module doc.
    ///
    /// # Errors
    /// See [`RunError`]; whatever the error, nothing was appended (for `Unavailable`: retry with the
    /// same command id to learn the outcome).
    pub async fn execute(&self, request: Request<'_, A>) -> Result<Outcome<A::Stored>, RunError<A::Rejection>> {
        let Request { id, command_id, actor, command, correlation_id, headers } = request;
        let aid = AggregateId::new(id).map_err(|e| RunError::BadId { field: "id", reason: e.to_string() })?;
        let cid =
            CommandId::new(command_id).map_err(|e| RunError::BadId { field: "command_id", reason: e.to_string() })?;
        let digest = A::digest(actor, command);
        let slot = self.slot(id);
        let mut slot = slot.lock().await;
        slot.last_used = Instant::now();
        // Whether the cached state was read from the log during this command (so it is current).
        let mut fresh = false;
        if !slot.loaded {
            self.catch_up(&aid, &mut slot).await?;
            slot.loaded = true;
            fresh = true;
        }
        for _ in 0..MAX_CONFLICT_RETRIES {
            if let Some(c) = &slot.corrupt {
                return Err(RunError::Corrupt(c.clone()));
            }
            if let Some(seen) = slot.remembered.get(command_id).cloned() {
                return retry_or_reused(&digest, seen, slot.version);
            }
            // Older than the recent outcomes kept decoded: read back from the log where it stands.
            if let Some(&batch) = slot.commands.get(command_id) {
                let seen = self.outcome_from_log(&aid, command_id, batch).await?;
                return retry_or_reused(&digest, seen, slot.version);
            }
            let ctx = Context {
                aggregate: id,
                now: self.env.now(),
                random: if A::needs_random(command) { self.env.random() } else { [0; 32] },
            };
            let (events, next) = match A::decide_and_fold(&slot.state, actor, command, &ctx) {
                Ok(decided) => decided,
                Err(r) if !fresh => {
                    // Another instance may have appended since this one cached the aggregate: a stale state
                    // could refuse what the current one accepts. Read the tail and decide again first.
                    let before = slot.version;
                    self.catch_up(&aid, &mut slot).await?;
                    fresh = true;
                    if slot.version == before {
                        return Err(RunError::Rejected(r));
                    }
                    continue;
                }
                Err(r) => return Err(RunError::Rejected(r)),
            };
            let (batch, stored): (Vec<_>, Vec<_>) = events
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let meta = EventMeta {
                        aggregate: id,
                        sequence: slot.version + i as u64 + 1,
                        at: ctx.now,
                        command_id,
                        correlation_id,
                        actor,
                        event_id: self.env.unique_id(),
                    };
                    let (mut new, s) = A::encode(e, &meta);
                    new = new.with_header(COMMAND_DIGEST, digest.clone());
                    for (k, v) in headers {
                        new = new.with_header(k.clone(), v.clone());
                    }
                    (new, s)
                })
                .unzip();
            let started = Instant::now();
            let appended = self.log.append(A::KIND, &aid, slot.version, &cid, &batch).await;
            histogram!(names::APPEND_SECONDS, labels::LOG => A::NAME).record(started.elapsed().as_secs_f64());
            match appended {
                Ok(outcome) if !outcome.duplicate => {
                    slot.state = next;
                    slot.version = outcome.last_sequence;
                    counter!(names::EVENTS_APPENDED, labels::LOG => A::NAME).increment(batch.len() as u64);
                    slot.commands.insert(command_id.into(), (outcome.first_sequence, outcome.last_sequence));
                    slot.remember(self.config.recent, command_id, digest, stored.clone());
                    // A batch is one log entry: its events' positions are the first one's plus their index.
                    let last = Position::from_raw(outcome.position.raw() + (batch.len() as u64).saturating_sub(1));
                    return Ok(Outcome {
                        events: stored,
                        duplicate: false,
                        sequence: outcome.last_sequence,
                        position: Some(last),
                    });
                }
                Ok(outcome) => {
                    // The log knew the command id (this instance lost the first outcome): compare digests.
                    self.catch_up(&aid, &mut slot).await?;
                    if let Some(seen) = slot.remembered.get(command_id).cloned() {
                        return retry_or_reused(&digest, seen, slot.version);
                    }
                    let batch = (outcome.first_sequence, outcome.last_sequence);
                    let seen = self.outcome_from_log(&aid, command_id, batch).await?;
                    return retry_or_reused(&digest, seen, slot.version);
                }
                Err(AppendError::Conflict { .. }) => {
                    counter!(names::APPEND_CONFLICTS, labels::LOG => A::NAME).increment(1);
                    tracing::debug!(aggregate = A::NAME, id, "conflict: reading the tail");
                    self.catch_up(&aid, &mut slot).await?;
                    fresh = true;
                }
                Err(AppendError::CommandIdReused { original }) => {
                    return Err(RunError::RequestIdReused { other: Some(original.as_str().to_string()) });
                }
                Err(AppendError::Invalid(e)) => {
                    counter!(names::APPEND_ERRORS, labels::LOG => A::NAME).increment(1);
                    return Err(RunError::TooLarge(e.to_string()));
                }
                Err(AppendError::Unavailable(e)) => {
                    counter!(names::APPEND_ERRORS, labels::LOG => A::NAME).increment(1);
                    // The outcome is unknown: forget the cached state so the next command re-reads it.
                    *slot = Slot::new();
                    return Err(RunError::Unavailable(e.to_string()));
                }
                Err(AppendError::Corrupt(e)) => return Err(RunError::Corrupt(e.to_string())),
            }
        }
        Err(RunError::Unavailable(format!("too many concurrent conflicts on {} {id}; retry", A::NAME)))
    }
}
