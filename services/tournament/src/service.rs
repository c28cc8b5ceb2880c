//! The tournament service: load → decide → append with the expected sequence → reply.
//!
//! * **One writer per tournament in process.** Each tournament has an async mutex (its critical
//!   section awaits the append); commands to different tournaments run in parallel.
//! * **The expected sequence is the backstop across instances.** Every append names the version the
//!   decision was made on; a conflict reads the tail and decides again. Gateways may therefore run
//!   the service in every process (no bus hop is needed for tournament commands).
//! * **Duplicates answer with the original outcome** (from memory, or from the log), and append
//!   nothing. The process manager relies on this: its command ids are derived from the tournament,
//!   round and table ([`crate::ids`]).
//! * **Rejections and faults append nothing.** A fault forgets the cached state; the caller retries
//!   with the same command id.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use prost::Message;
use tokio::sync::Mutex as AsyncMutex;
use weiqi_eventlog::{AggregateId, AggregateKind, AppendError, CommandId, EventLog, LogError, NewEvent, RecordedEvent};
use weiqi_pairing::ids::Millis;
use weiqi_proto::v1 as pb;

use crate::aggregate::{Body, ServiceRejection, TournamentAggregate, TournamentCommand, decide, result_fact};
use crate::convert::DecodeError;
use crate::ids::check_tournament_id;

/// Recent command ids remembered per tournament, to answer retries without the log.
const RECENT_COMMANDS: usize = 256;
/// Decisions retried after conflicts before giving up.
const MAX_CONFLICT_RETRIES: usize = 16;

/// Server time and fresh seeds. The real one reads the system clock and the OS random source; tests
/// inject fixed ones.
pub trait Clock: Send + Sync + 'static {
    /// Server time now.
    fn now(&self) -> Millis;
    /// A fresh seed for a tournament created without one (it is then recorded in `Created`).
    fn seed(&self) -> u64;
}

/// The system clock and `uuid`'s OS random source.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Millis {
        let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        Millis(d.as_millis() as i64)
    }
    fn seed(&self) -> u64 {
        let b = uuid::Uuid::new_v4();
        u64::from_le_bytes(b.as_bytes()[..8].try_into().expect("8 bytes"))
    }
}

/// What an accepted command did.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The events appended (for a duplicate: appended the first time).
    pub events: Vec<pb::TournamentEventEnvelope>,
    /// The command had been appended before.
    pub duplicate: bool,
    /// The tournament's last sequence after the command.
    pub sequence: u64,
}

impl Outcome {
    /// For the wire.
    pub fn to_pb(&self) -> pb::TournamentCommandReply {
        pb::TournamentCommandReply { events: self.events.clone(), duplicate: self.duplicate, sequence: self.sequence }
    }
}

/// Why a command was not accepted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ServiceError {
    /// Refused: nothing appended; do not retry as is.
    #[error(transparent)]
    Rejected(#[from] ServiceRejection),
    /// A request id reused for another tournament.
    #[error("request id already used for tournament {0}")]
    CommandIdReused(String),
    /// The log is unreachable: the outcome is unknown, retry with the same command id.
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// The tournament's log does not decode; it is not acted on.
    #[error("internal: {0}")]
    Internal(String),
}

impl ServiceError {
    /// The gRPC status (typed rejection in the details).
    pub fn to_status(&self) -> tonic::Status {
        match self {
            ServiceError::Rejected(r) => weiqi_edge::status::rejection_status(&r.to_pb()),
            ServiceError::CommandIdReused(_) => weiqi_edge::status::gateway_rejection(
                pb::rejection::Kind::InvalidArgument,
                "request_id_reused",
                self.to_string(),
            ),
            ServiceError::Unavailable(why) => tonic::Status::unavailable(why.clone()),
            ServiceError::Internal(why) => tonic::Status::internal(why.clone()),
        }
    }

    /// Whether retrying the same command may succeed.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, ServiceError::Unavailable(_))
    }

    fn bad(code: &'static str, message: impl Into<String>) -> ServiceError {
        ServiceError::Rejected(ServiceRejection::Bad(crate::convert::BadRequest { code, message: message.into() }))
    }
}

impl From<LogError> for ServiceError {
    fn from(e: LogError) -> Self {
        ServiceError::Unavailable(e.to_string())
    }
}

/// Decodes one stored event (an encoded `TournamentEventEnvelope`).
pub fn decode_recorded(r: &RecordedEvent) -> Result<(pb::TournamentEventEnvelope, Body), DecodeError> {
    let envelope = pb::TournamentEventEnvelope::decode(r.payload.clone())
        .map_err(|e| DecodeError(format!("sequence {}: {e}", r.sequence)))?;
    let body = Body::from_pb(envelope.body.as_ref())?;
    Ok((envelope, body))
}

struct Entry {
    /// Whether the log has been read once (after that, a cheap last-sequence check tells whether
    /// another instance appended).
    loaded: bool,
    agg: TournamentAggregate,
    recent: VecDeque<(String, Vec<pb::TournamentEventEnvelope>)>,
    corrupt: Option<String>,
}

impl Entry {
    fn new() -> Entry {
        Entry { loaded: false, agg: TournamentAggregate::default(), recent: VecDeque::new(), corrupt: None }
    }

    fn remember(&mut self, command: &str, events: Vec<pb::TournamentEventEnvelope>) {
        if self.recent.len() >= RECENT_COMMANDS {
            self.recent.pop_front();
        }
        self.recent.push_back((command.to_string(), events));
    }

    fn recall(&self, command: &str) -> Option<Vec<pb::TournamentEventEnvelope>> {
        self.recent.iter().rev().find(|(c, _)| c == command).map(|(_, e)| e.clone())
    }
}

/// The tournament service over an event log.
pub struct TournamentService<L> {
    log: L,
    clock: Arc<dyn Clock>,
    tournaments: Mutex<HashMap<String, Arc<AsyncMutex<Entry>>>>,
}

impl<L: EventLog> TournamentService<L> {
    /// A service over `log` with the system clock.
    pub fn new(log: L) -> TournamentService<L> {
        TournamentService::with_clock(log, Arc::new(SystemClock))
    }

    /// A service with an injected clock (tests, simulations).
    pub fn with_clock(log: L, clock: Arc<dyn Clock>) -> TournamentService<L> {
        TournamentService { log, clock, tournaments: Mutex::new(HashMap::new()) }
    }

    /// The event log.
    pub fn log(&self) -> &L {
        &self.log
    }

    /// The clock.
    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    fn entry(&self, id: &str) -> Arc<AsyncMutex<Entry>> {
        let mut map = self.tournaments.lock().expect("tournament cache lock");
        map.entry(id.to_string()).or_insert_with(|| Arc::new(AsyncMutex::new(Entry::new()))).clone()
    }

    async fn catch_up(&self, id: &AggregateId, entry: &mut Entry) -> Result<(), LogError> {
        let tail = self.log.read(AggregateKind::Tournament, id, entry.agg.version + 1).await?;
        let mut i = 0;
        while i < tail.len() && entry.corrupt.is_none() {
            let command = tail[i].command_id.as_str().to_string();
            let mut events = Vec::new();
            while i < tail.len() && tail[i].command_id.as_str() == command {
                match decode_recorded(&tail[i]) {
                    Ok((envelope, body)) => {
                        entry.agg.apply(&body);
                        entry.agg.version = tail[i].sequence;
                        events.push(envelope);
                    }
                    Err(e) => {
                        entry.corrupt = Some(format!("tournament {}: {e}", id.as_str()));
                        break;
                    }
                }
                i += 1;
            }
            entry.remember(&command, events);
        }
        Ok(())
    }

    /// Brings the cached state up to date: a full read the first time, then only when the log's last
    /// sequence shows that another instance appended. (The log's `read` loads a whole aggregate, so
    /// reading "the tail" on every command would cost the whole tournament each time.)
    async fn refresh(&self, id: &AggregateId, entry: &mut Entry) -> Result<(), LogError> {
        if entry.loaded && self.log.last_sequence(AggregateKind::Tournament, id).await? == entry.agg.version {
            return Ok(());
        }
        self.catch_up(id, entry).await?;
        entry.loaded = true;
        Ok(())
    }

    /// Runs `f` on the tournament's current state (caught up with the log). `None`: no such tournament.
    pub async fn read<R>(
        &self,
        tournament_id: &str,
        f: impl FnOnce(&TournamentAggregate) -> R,
    ) -> Result<Option<R>, ServiceError> {
        let id = AggregateId::new(tournament_id).map_err(|e| ServiceError::bad("bad_tournament_id", e.to_string()))?;
        let entry = self.entry(tournament_id);
        let mut entry = entry.lock().await;
        self.refresh(&id, &mut entry).await?;
        if let Some(c) = &entry.corrupt {
            return Err(ServiceError::Internal(c.clone()));
        }
        Ok(entry.agg.exists().then(|| f(&entry.agg)))
    }

    /// Handles one command from `actor` with the caller's `command_id` (a retry reuses it).
    #[tracing::instrument(name = "tournament.command", skip_all, fields(tournament = %tournament_id, command = %command_id))]
    pub async fn execute(
        &self,
        tournament_id: &str,
        command_id: &str,
        actor: &pb::Actor,
        command: &TournamentCommand,
    ) -> Result<Outcome, ServiceError> {
        check_tournament_id(tournament_id).map_err(|e| ServiceError::bad("bad_tournament_id", e.to_string()))?;
        let id = AggregateId::new(tournament_id).map_err(|e| ServiceError::bad("bad_tournament_id", e.to_string()))?;
        let cid = CommandId::new(command_id).map_err(|e| ServiceError::bad("bad_request_id", e.to_string()))?;
        let entry = self.entry(tournament_id);
        let mut entry = entry.lock().await;
        self.refresh(&id, &mut entry).await?;
        for _ in 0..MAX_CONFLICT_RETRIES {
            if let Some(c) = &entry.corrupt {
                return Err(ServiceError::Internal(c.clone()));
            }
            if let Some(events) = entry.recall(command_id) {
                let sequence = events.last().map_or(entry.agg.version, |e| e.sequence);
                return Ok(Outcome { events, duplicate: true, sequence });
            }
            let now = self.clock.now();
            let mut command = command.clone();
            if let TournamentCommand::Create { config, .. } = &mut command
                && config.seed == 0
            {
                config.seed = self.clock.seed();
            }
            let bodies = decide(&entry.agg, &command, now)?;
            let envelopes = self.envelopes(tournament_id, command_id, actor, &entry.agg, &bodies, now);
            let batch: Vec<NewEvent> =
                envelopes.iter().zip(&bodies).map(|(e, b)| NewEvent::new(b.type_name(), e.encode_to_vec())).collect();
            match self.log.append(AggregateKind::Tournament, &id, entry.agg.version, &cid, &batch).await {
                Ok(outcome) if !outcome.duplicate => {
                    for b in &bodies {
                        entry.agg.apply(b);
                    }
                    entry.agg.version = outcome.last_sequence;
                    entry.remember(command_id, envelopes.clone());
                    return Ok(Outcome { events: envelopes, duplicate: false, sequence: outcome.last_sequence });
                }
                Ok(_) => {
                    self.catch_up(&id, &mut entry).await?;
                    if let Some(events) = entry.recall(command_id) {
                        let sequence = events.last().map_or(entry.agg.version, |e| e.sequence);
                        return Ok(Outcome { events, duplicate: true, sequence });
                    }
                    let all = self.log.read(AggregateKind::Tournament, &id, 1).await?;
                    let events: Vec<_> = all
                        .iter()
                        .filter(|r| r.command_id.as_str() == command_id)
                        .filter_map(|r| decode_recorded(r).ok().map(|(e, _)| e))
                        .collect();
                    let sequence = events.last().map_or(entry.agg.version, |e| e.sequence);
                    return Ok(Outcome { events, duplicate: true, sequence });
                }
                Err(AppendError::Conflict { .. }) => self.catch_up(&id, &mut entry).await?,
                Err(AppendError::CommandIdReused { original }) => {
                    return Err(ServiceError::CommandIdReused(original.as_str().to_string()));
                }
                Err(AppendError::Invalid(e)) => return Err(ServiceError::bad("too_large", e.to_string())),
                Err(AppendError::Unavailable(e)) => {
                    *entry = Entry::new();
                    return Err(ServiceError::Unavailable(e.to_string()));
                }
                Err(AppendError::Corrupt(e)) => return Err(ServiceError::Internal(e.to_string())),
            }
        }
        Err(ServiceError::Unavailable("too many concurrent conflicts on this tournament; retry".into()))
    }

    fn envelopes(
        &self,
        tournament_id: &str,
        command_id: &str,
        actor: &pb::Actor,
        agg: &TournamentAggregate,
        bodies: &[Body],
        now: Millis,
    ) -> Vec<pb::TournamentEventEnvelope> {
        bodies
            .iter()
            .enumerate()
            .map(|(i, b)| pb::TournamentEventEnvelope {
                event_id: uuid::Uuid::new_v4().to_string(),
                tournament_id: tournament_id.to_string(),
                sequence: agg.version + i as u64 + 1,
                server_time_ms: now.0,
                causation_id: command_id.to_string(),
                correlation_id: String::new(),
                actor: Some(actor.clone()),
                body: Some(b.to_pb()),
                result: match b {
                    Body::Domain(e) => result_fact(tournament_id, agg, e),
                    _ => None,
                },
            })
            .collect()
    }

    /// Forgets cached tournaments (they are rebuilt from the log on the next command).
    pub fn evict_all(&self) {
        self.tournaments.lock().expect("tournament cache lock").clear();
    }
}
