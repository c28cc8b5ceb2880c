//! The event log in a local redb file, for `weiqi up`: no server, same semantics.
//!
//! Per kind, three tables:
//!
//! * `<kind>.batches`: batch number (dense per kind, from 1) → record (aggregate id, first
//!   sequence, event count, command id, timestamp, then the [batch frame](crate::frame)).
//!   The batch number plays the role of the JetStream stream sequence in [`Position`]s.
//! * `<kind>.index`: (aggregate id, last sequence of the batch) → batch number. The last key
//!   of an aggregate's range is its tip; a range from `(id, s)` finds the batch holding `s`.
//! * `<kind>.commands`: command id → batch number, for de-duplication within the window.
//!
//! One writer thread owns all writes and commits in groups: it takes every append waiting in
//! its queue, applies them one after the other in one write transaction (each checks its
//! expected sequence against the state left by the previous one), commits once with
//! `Durability::Immediate` (an fsync), then answers them all. A commit that fails answers
//! every append of the group with `Unavailable`, and none of them is stored. Followers wake up
//! through a `tokio::sync::watch` per kind that carries the last committed batch number.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use bytes::{Buf, BufMut, Bytes, BytesMut};
use redb::{Database, Durability, ReadTransaction, ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};
use tokio::sync::{mpsc, oneshot, watch};

use crate::{
    AggregateId, AggregateKind, AppendError, AppendOutcome, CommandId, Corrupt, EventLog, EventStream, LogError,
    NewEvent, Position, RecordedEvent, RestoreAck, StoredBatch, frame,
};

/// Settings of the embedded log.
#[derive(Debug, Clone)]
pub struct EmbeddedConfig {
    /// How long a command id is remembered for de-duplication (as JetStream's window).
    pub duplicate_window: Duration,
    /// Largest encoded batch (the same default as the JetStream log).
    pub max_batch_bytes: usize,
    /// Most appends committed in one transaction.
    pub max_group: usize,
    /// Bytes of the file redb keeps in memory (its page cache; redb's own default is 1 GiB, which a
    /// read of a large log fills). Resident memory grows to about this much plus what the process
    /// holds itself.
    pub cache_bytes: usize,
}

impl Default for EmbeddedConfig {
    /// For `weiqi up`: a 256 MiB cache holds the live games, tournaments and players of a league
    /// many times over.
    fn default() -> Self {
        Self {
            duplicate_window: Duration::from_secs(120),
            max_batch_bytes: 1024 * 1024 - 16 * 1024,
            max_group: 512,
            cache_bytes: 256 * 1024 * 1024,
        }
    }
}

impl EmbeddedConfig {
    /// For one pass over the log (exports, statistics, backups, imports): reading each page once
    /// gains nothing from a large cache, so 32 MiB keeps their memory bounded whatever the log's size.
    #[must_use]
    pub fn streaming() -> Self {
        Self { cache_bytes: 32 * 1024 * 1024, ..Self::default() }
    }
}

/// The event log in one redb file. Cheap to clone; the file closes when the last clone (and
/// the last follower stream) is dropped.
#[derive(Debug, Clone)]
pub struct EmbeddedLog {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    db: Arc<Database>,
    path: PathBuf,
    jobs: Option<mpsc::UnboundedSender<AppendJob>>,
    writer: Mutex<Option<JoinHandle<()>>>,
    committed: Vec<watch::Receiver<u64>>,
    config: EmbeddedConfig,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Closing the queue stops the writer after its current group; wait for it so that the
        // file can be reopened as soon as this returns.
        self.jobs = None;
        if let Some(writer) = self.writer.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let _ = writer.join();
        }
    }
}

#[derive(Debug)]
struct AppendJob {
    kind: AggregateKind,
    id: AggregateId,
    expected: u64,
    command: CommandId,
    count: u64,
    body: Bytes,
    /// A batch written back by a restore: stored with this time, its command id not de-duplicated.
    restored_at: Option<i64>,
    reply: oneshot::Sender<Result<AppendOutcome, AppendError>>,
}

type Batches = TableDefinition<'static, u64, &'static [u8]>;
type Index = TableDefinition<'static, (&'static str, u64), u64>;
type Commands = TableDefinition<'static, &'static str, u64>;

fn batches(kind: AggregateKind) -> Batches {
    TableDefinition::new(match kind {
        AggregateKind::Game => "game.batches",
        AggregateKind::Tournament => "tournament.batches",
        AggregateKind::Player => "player.batches",
        AggregateKind::Case => "case.batches",
        AggregateKind::Account => "account.batches",
        AggregateKind::Site => "site.batches",
        AggregateKind::Archive => "archive.batches",
        AggregateKind::Chat => "chat.batches",
    })
}

fn index(kind: AggregateKind) -> Index {
    TableDefinition::new(match kind {
        AggregateKind::Game => "game.index",
        AggregateKind::Tournament => "tournament.index",
        AggregateKind::Player => "player.index",
        AggregateKind::Case => "case.index",
        AggregateKind::Account => "account.index",
        AggregateKind::Site => "site.index",
        AggregateKind::Archive => "archive.index",
        AggregateKind::Chat => "chat.index",
    })
}

fn commands(kind: AggregateKind) -> Commands {
    TableDefinition::new(match kind {
        AggregateKind::Game => "game.commands",
        AggregateKind::Tournament => "tournament.commands",
        AggregateKind::Player => "player.commands",
        AggregateKind::Case => "case.commands",
        AggregateKind::Account => "account.commands",
        AggregateKind::Site => "site.commands",
        AggregateKind::Archive => "archive.commands",
        AggregateKind::Chat => "chat.commands",
    })
}

fn storage(error: impl Into<redb::Error>) -> LogError {
    LogError::Unavailable(Box::new(error.into()))
}

fn now_ms() -> i64 {
    use crate::Environment as _;
    crate::SystemEnvironment.now().0
}

/// One stored batch.
#[derive(Debug, Clone)]
struct BatchRecord {
    id: String,
    first: u64,
    count: u64,
    command: String,
    timestamp_ms: i64,
    body: Bytes,
}

impl BatchRecord {
    fn encode(&self) -> Vec<u8> {
        let mut out = BytesMut::with_capacity(40 + self.id.len() + self.command.len() + self.body.len());
        out.put_u16_le(self.id.len() as u16);
        out.put_slice(self.id.as_bytes());
        out.put_u64_le(self.first);
        out.put_u64_le(self.count);
        out.put_u16_le(self.command.len() as u16);
        out.put_slice(self.command.as_bytes());
        out.put_i64_le(self.timestamp_ms);
        out.put_slice(&self.body);
        out.to_vec()
    }

    fn decode(bytes: &[u8]) -> Result<Self, Corrupt> {
        const SHORT: Corrupt = Corrupt("batch record truncated");
        let mut buf = Bytes::copy_from_slice(bytes);
        let text = |buf: &mut Bytes| -> Result<String, Corrupt> {
            if buf.remaining() < 2 {
                return Err(SHORT);
            }
            let len = buf.get_u16_le() as usize;
            if buf.remaining() < len {
                return Err(SHORT);
            }
            String::from_utf8(buf.split_to(len).to_vec()).map_err(|_| Corrupt("batch record text"))
        };
        let id = text(&mut buf)?;
        if buf.remaining() < 16 {
            return Err(SHORT);
        }
        let first = buf.get_u64_le();
        let count = buf.get_u64_le();
        let command = text(&mut buf)?;
        if buf.remaining() < 8 {
            return Err(SHORT);
        }
        let timestamp_ms = buf.get_i64_le();
        Ok(Self { id, first, count, command, timestamp_ms, body: buf })
    }

    fn last(&self) -> u64 {
        self.first + self.count - 1
    }

    fn events(&self, kind: AggregateKind, batch: u64) -> Result<Vec<RecordedEvent>, Corrupt> {
        let id = AggregateId::new(&self.id).map_err(|_| Corrupt("stored aggregate id"))?;
        let command = CommandId::new(&self.command).map_err(|_| Corrupt("stored command id"))?;
        let batch = frame::Batch {
            kind,
            id: &id,
            command: &command,
            first: self.first,
            count: self.count,
            position: batch,
            timestamp_ms: self.timestamp_ms,
        };
        frame::expand(&batch, &self.body)
    }
}

impl EmbeddedLog {
    /// Opens (or creates) the log file at `path`, e.g. `./weiqi-data/events.redb`.
    pub fn open(path: impl AsRef<Path>, config: EmbeddedConfig) -> Result<Self, LogError> {
        let path = path.as_ref().to_path_buf();
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| LogError::Unavailable(Box::new(e)))?;
        }
        let db = Arc::new(Database::builder().set_cache_size(config.cache_bytes).create(&path).map_err(storage)?);
        // The log holds every account's password hash and every event: its owner's only (0600).
        #[cfg(unix)]
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o600))
            .map_err(|e| LogError::Unavailable(Box::new(e)))?;
        // Create every table up front, so that readers never meet a missing one.
        let txn = db.begin_write().map_err(storage)?;
        let mut last_batches = Vec::new();
        for kind in AggregateKind::ALL {
            let table = txn.open_table(batches(kind)).map_err(storage)?;
            last_batches.push(table.last().map_err(storage)?.map_or(0, |(k, _)| k.value()));
            drop(table);
            txn.open_table(index(kind)).map_err(storage)?;
            txn.open_table(commands(kind)).map_err(storage)?;
        }
        txn.commit().map_err(storage)?;

        let (senders, receivers): (Vec<_>, Vec<_>) = last_batches.into_iter().map(watch::channel).unzip();
        let (jobs, queue) = mpsc::unbounded_channel();
        let writer = Writer { db: db.clone(), config: config.clone(), committed: senders };
        let handle = std::thread::Builder::new()
            .name("weiqi-eventlog-writer".into())
            .spawn(move || writer.run(queue))
            .map_err(|e| LogError::Unavailable(Box::new(e)))?;
        Ok(Self {
            inner: Arc::new(Inner {
                db,
                path,
                jobs: Some(jobs),
                writer: Mutex::new(Some(handle)),
                committed: receivers,
                config,
            }),
        })
    }

    /// The file this log lives in.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Queues a restored batch for the writer (see [`crate::Restorer`]): batches queued one after the
    /// other are stored in that order. The answer arrives once its group is committed.
    pub(crate) fn restore_send(&self, kind: AggregateKind, batch: &StoredBatch) -> Result<RestoreAck, AppendError> {
        let body = frame::encode(&batch.events, self.inner.config.max_batch_bytes)?;
        let (reply, answer) = oneshot::channel();
        let job = AppendJob {
            kind,
            id: batch.aggregate_id.clone(),
            expected: batch.first_sequence.saturating_sub(1),
            command: batch.command_id.clone(),
            count: batch.events.len() as u64,
            body,
            restored_at: Some(batch.timestamp_ms),
            reply,
        };
        let closed = || AppendError::Unavailable("embedded log writer stopped".into());
        self.inner.jobs.as_ref().ok_or_else(closed)?.send(job).map_err(|_| closed())?;
        Ok(RestoreAck::new(async move { answer.await.map_err(|_| closed())? }))
    }

    fn read_txn(&self) -> Result<ReadTransaction, LogError> {
        self.inner.db.begin_read().map_err(storage)
    }
}

/// Reads the batches of one aggregate that hold sequences ≥ `from`.
fn read_aggregate(
    txn: &ReadTransaction,
    kind: AggregateKind,
    id: &str,
    from: u64,
) -> Result<Vec<RecordedEvent>, LogError> {
    let index = txn.open_table(index(kind)).map_err(storage)?;
    let batches = txn.open_table(batches(kind)).map_err(storage)?;
    let mut events = Vec::new();
    for entry in index.range((id, from)..=(id, u64::MAX)).map_err(storage)? {
        let (_, batch) = entry.map_err(storage)?;
        let batch = batch.value();
        let record = batches.get(batch).map_err(storage)?.ok_or(Corrupt("index names a missing batch"))?;
        let record = BatchRecord::decode(record.value())?;
        events.extend(record.events(kind, batch)?.into_iter().filter(|e| e.sequence >= from));
    }
    Ok(events)
}

/// Reads up to `limit` batches of `kind` from batch number `from`.
fn read_kind(
    txn: &ReadTransaction,
    kind: AggregateKind,
    from: u64,
    limit: usize,
) -> Result<Vec<RecordedEvent>, LogError> {
    let batches = txn.open_table(batches(kind)).map_err(storage)?;
    let mut events = Vec::new();
    for entry in batches.range(from..).map_err(storage)?.take(limit) {
        let (batch, record) = entry.map_err(storage)?;
        let record = BatchRecord::decode(record.value())?;
        events.extend(record.events(kind, batch.value())?);
    }
    Ok(events)
}

fn last_of(txn: &ReadTransaction, kind: AggregateKind, id: &str) -> Result<u64, LogError> {
    let index = txn.open_table(index(kind)).map_err(storage)?;
    let last = index.range((id, 0)..=(id, u64::MAX)).map_err(storage)?.next_back().transpose().map_err(storage)?;
    Ok(last.map_or(0, |(key, _)| key.value().1))
}

struct Writer {
    db: Arc<Database>,
    config: EmbeddedConfig,
    committed: Vec<watch::Sender<u64>>,
}

impl Writer {
    fn run(self, mut queue: mpsc::UnboundedReceiver<AppendJob>) {
        while let Some(first) = queue.blocking_recv() {
            let mut group = vec![first];
            while group.len() < self.config.max_group {
                match queue.try_recv() {
                    Ok(job) => group.push(job),
                    Err(_) => break,
                }
            }
            self.commit_group(group);
        }
    }

    fn commit_group(&self, group: Vec<AppendJob>) {
        let mut answers = Vec::with_capacity(group.len());
        let result = (|| -> Result<(), LogError> {
            let mut txn = self.db.begin_write().map_err(storage)?;
            txn.set_durability(Durability::Immediate).map_err(storage)?;
            let now = now_ms();
            for job in &group {
                answers.push(self.apply(&txn, job, now));
            }
            txn.commit().map_err(storage)?;
            Ok(())
        })();
        match result {
            Ok(()) => {
                for (kind, sender) in AggregateKind::ALL.into_iter().zip(&self.committed) {
                    let last = group
                        .iter()
                        .zip(&answers)
                        .filter(|(job, answer)| job.kind == kind && matches!(answer, Ok(o) if !o.duplicate))
                        .filter_map(|(_, answer)| answer.as_ref().ok().map(|o| o.position.batch()))
                        .max();
                    if let Some(last) = last {
                        sender.send_replace(last);
                    }
                }
                for (job, answer) in group.into_iter().zip(answers) {
                    let _ = job.reply.send(answer);
                }
            }
            Err(error) => {
                let reason = error.to_string();
                for job in group {
                    let _ = job.reply.send(Err(AppendError::Unavailable(reason.clone().into())));
                }
            }
        }
    }

    /// Applies one append inside the group's transaction.
    fn apply(&self, txn: &WriteTransaction, job: &AppendJob, now: i64) -> Result<AppendOutcome, AppendError> {
        let kind = job.kind;
        let mut commands = txn.open_table(commands(kind)).map_err(storage)?;
        let mut index = txn.open_table(index(kind)).map_err(storage)?;
        let mut batches = txn.open_table(batches(kind)).map_err(storage)?;
        let window_ms = self.config.duplicate_window.as_millis() as i64;

        let record_at = |batches: &redb::Table<u64, &[u8]>, batch: u64| -> Result<BatchRecord, AppendError> {
            let record = batches.get(batch).map_err(storage)?.ok_or(Corrupt("command names a missing batch"))?;
            Ok(BatchRecord::decode(record.value())?)
        };
        let duplicate = |record: &BatchRecord, batch: u64| -> Result<AppendOutcome, AppendError> {
            if record.id != job.id.as_str() {
                let original = AggregateId::new(&record.id).map_err(|_| Corrupt("stored aggregate id"))?;
                return Err(AppendError::CommandIdReused { original });
            }
            Ok(AppendOutcome {
                first_sequence: record.first,
                last_sequence: record.last(),
                position: Position::of(batch, 0),
                duplicate: true,
            })
        };

        // 1. A command id seen within the window: the original outcome (not for a restored batch:
        // history may hold an id twice, appended further apart than the window).
        let seen = match job.restored_at {
            None => commands.get(job.command.as_str()).map_err(storage)?.map(|b| b.value()),
            Some(_) => None,
        };
        if let Some(batch) = seen {
            let record = record_at(&batches, batch)?;
            if now - record.timestamp_ms < window_ms {
                return duplicate(&record, batch);
            }
        }

        // 2. The expected sequence.
        let tip = index
            .range((job.id.as_str(), 0)..=(job.id.as_str(), u64::MAX))
            .map_err(storage)?
            .next_back()
            .transpose()
            .map_err(storage)?
            .map_or(0, |(key, _)| key.value().1);
        if tip != job.expected && job.restored_at.is_some() {
            return Err(AppendError::Conflict { actual: tip });
        }
        if tip != job.expected {
            // As on JetStream: a retry whose first try landed is a duplicate even past the
            // window, if it was appended after the sequence the caller expected.
            if tip > job.expected {
                let later: Vec<u64> = index
                    .range((job.id.as_str(), job.expected + 1)..=(job.id.as_str(), u64::MAX))
                    .map_err(storage)?
                    .map(|entry| entry.map(|(_, batch)| batch.value()))
                    .collect::<Result<_, _>>()
                    .map_err(storage)?;
                for batch in later {
                    let record = record_at(&batches, batch)?;
                    if record.command == job.command.as_str() {
                        return duplicate(&record, batch);
                    }
                }
            }
            return Err(AppendError::Conflict { actual: tip });
        }

        // 3. Append.
        let batch = batches.last().map_err(storage)?.map_or(0, |(k, _)| k.value()) + 1;
        let record = BatchRecord {
            id: job.id.as_str().to_owned(),
            first: job.expected + 1,
            count: job.count,
            command: job.command.as_str().to_owned(),
            timestamp_ms: job.restored_at.unwrap_or(now),
            body: job.body.clone(),
        };
        batches.insert(batch, record.encode().as_slice()).map_err(storage)?;
        index.insert((job.id.as_str(), record.last()), batch).map_err(storage)?;
        commands.insert(job.command.as_str(), batch).map_err(storage)?;
        Ok(AppendOutcome {
            first_sequence: record.first,
            last_sequence: record.last(),
            position: Position::of(batch, 0),
            duplicate: false,
        })
    }
}

impl EventLog for EmbeddedLog {
    async fn append(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
        expected: u64,
        command: &CommandId,
        events: &[NewEvent],
    ) -> Result<AppendOutcome, AppendError> {
        let body = frame::encode(events, self.inner.config.max_batch_bytes)?;
        let (reply, answer) = oneshot::channel();
        let job = AppendJob {
            kind,
            id: id.clone(),
            expected,
            command: command.clone(),
            count: events.len() as u64,
            body,
            restored_at: None,
            reply,
        };
        let closed = || AppendError::Unavailable("embedded log writer stopped".into());
        self.inner.jobs.as_ref().ok_or_else(closed)?.send(job).map_err(|_| closed())?;
        answer.await.map_err(|_| closed())?
    }

    async fn read(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
        from_sequence: u64,
    ) -> Result<Vec<RecordedEvent>, LogError> {
        let db = self.inner.db.clone();
        let id = id.clone();
        tokio::task::spawn_blocking(move || {
            let txn = db.begin_read().map_err(storage)?;
            read_aggregate(&txn, kind, id.as_str(), from_sequence)
        })
        .await
        .map_err(|e| LogError::Unavailable(Box::new(e)))?
    }

    async fn last_sequence(&self, kind: AggregateKind, id: &AggregateId) -> Result<u64, LogError> {
        last_of(&self.read_txn()?, kind, id.as_str())
    }

    async fn head(&self, kind: AggregateKind) -> Result<Position, LogError> {
        let txn = self.read_txn()?;
        let table = txn.open_table(batches(kind)).map_err(storage)?;
        let last = table.last().map_err(storage)?.map_or(0, |(k, _)| k.value());
        Ok(Position::of(last + 1, 0))
    }

    async fn follow(&self, kind: AggregateKind, from: Position) -> Result<EventStream, LogError> {
        let committed = self.inner.committed[kind.index()].clone();
        Ok(tail_kind(self.inner.db.clone(), committed, kind, from))
    }

    async fn watch(&self, kind: AggregateKind, id: &AggregateId, from_sequence: u64) -> Result<EventStream, LogError> {
        let committed = self.inner.committed[kind.index()].clone();
        let db = self.inner.db.clone();
        let id = id.clone();
        let from_sequence = from_sequence.max(1);
        Ok(tail_aggregate(db, committed, kind, id, from_sequence))
    }
}

/// Follows the batches of one kind: read what is stored from the cursor, then wait for the
/// writer's next commit notice, and again.
fn tail_kind(db: Arc<Database>, committed: watch::Receiver<u64>, kind: AggregateKind, from: Position) -> EventStream {
    /// Batches read per transaction while catching up.
    const CHUNK: usize = 256;
    struct State {
        db: Arc<Database>,
        committed: watch::Receiver<u64>,
        kind: AggregateKind,
        next: Position,
        ready: VecDeque<RecordedEvent>,
    }
    let state = State { db, committed, kind, next: from, ready: VecDeque::new() };
    EventStream::new(futures::stream::unfold(state, |mut st| async move {
        loop {
            if let Some(event) = st.ready.pop_front() {
                st.next = event.position.next();
                return Some((Ok(event), st));
            }
            // Mark the current commit as seen before reading, so a commit that lands after the
            // read wakes us up.
            st.committed.borrow_and_update();
            let read = st
                .db
                .begin_read()
                .map_err(storage)
                .and_then(|txn| read_kind(&txn, st.kind, st.next.batch().max(1), CHUNK));
            match read {
                Ok(events) => {
                    let fresh: Vec<_> = events.into_iter().filter(|e| e.position >= st.next).collect();
                    if fresh.is_empty() {
                        st.committed.changed().await.ok()?;
                    } else {
                        st.ready.extend(fresh);
                    }
                }
                Err(error) => return Some((Err(error), st)),
            }
        }
    }))
}

/// Follows one aggregate from a sequence.
fn tail_aggregate(
    db: Arc<Database>,
    committed: watch::Receiver<u64>,
    kind: AggregateKind,
    id: AggregateId,
    from_sequence: u64,
) -> EventStream {
    struct State {
        db: Arc<Database>,
        committed: watch::Receiver<u64>,
        kind: AggregateKind,
        id: AggregateId,
        next_sequence: u64,
        ready: VecDeque<RecordedEvent>,
    }
    let state = State { db, committed, kind, id, next_sequence: from_sequence, ready: VecDeque::new() };
    EventStream::new(futures::stream::unfold(state, |mut st| async move {
        loop {
            if let Some(event) = st.ready.pop_front() {
                st.next_sequence = event.sequence + 1;
                return Some((Ok(event), st));
            }
            st.committed.borrow_and_update();
            let read = st
                .db
                .begin_read()
                .map_err(storage)
                .and_then(|txn| read_aggregate(&txn, st.kind, st.id.as_str(), st.next_sequence));
            match read {
                Ok(events) if events.is_empty() => st.committed.changed().await.ok()?,
                Ok(events) => st.ready.extend(events),
                Err(error) => return Some((Err(error), st)),
            }
        }
    }))
}
