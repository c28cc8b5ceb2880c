//! The event log on NATS JetStream.
//!
//! * One stream per kind (`WEIQI_GAMES` with subjects `weiqi.game.*`, …), file storage,
//!   `allow_direct`, a configurable duplicate window and replica count.
//! * One append = one message (the [batch frame](crate::frame)), so a batch is atomic on every
//!   server version. Headers: `Nats-Msg-Id` = command id (server-side de-duplication),
//!   `Nats-Expected-Last-Subject-Sequence` (0 for a new aggregate), `Weiqi-Seq` (first event
//!   sequence), `Weiqi-Count` (events in the batch), `Weiqi-Prev` (stream sequence of the
//!   previous message of the aggregate, so a conflict can be traced back), and the first
//!   event's `traceparent`/`tracestate` for NATS-level tooling.
//! * A batch written back by a restore ([`crate::Restorer`]) carries its command id in
//!   `Weiqi-Command` instead of `Nats-Msg-Id` (no server de-duplication) and the time it was
//!   first stored in `Weiqi-Time`, which reads return instead of the message's own time.
//! * A cache maps each aggregate to its tip: (last event sequence, stream sequence of its last
//!   message). The expected-subject-sequence header needs the stream sequence; the cache saves
//!   a round trip per append. A stale tip can only make the server refuse the publish; the
//!   refusal is then re-checked against the server, never trusted blindly.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::HeaderMap;
use async_nats::jetstream::Context;
use async_nats::jetstream::consumer::{DeliverPolicy, pull::OrderedConfig};
use async_nats::jetstream::context::{ContextBuilder, PublishErrorKind};
use async_nats::jetstream::message::{PublishMessage, StreamMessage};
use async_nats::jetstream::stream::{
    Config as StreamConfig, DirectGetErrorKind, LastRawMessageErrorKind, StorageType, Stream,
};
use bytes::Bytes;
use futures::StreamExt;

use crate::event::{TRACEPARENT, TRACESTATE};
use crate::{
    AggregateId, AggregateKind, AppendError, AppendOutcome, CommandId, Corrupt, EventLog, EventStream, InvalidAppend,
    LogError, NewEvent, Position, RecordedEvent, RestoreAck, StoredBatch, frame, subjects,
};

const SEQ_HEADER: &str = "Weiqi-Seq";
const COUNT_HEADER: &str = "Weiqi-Count";
const PREV_HEADER: &str = "Weiqi-Prev";
const MSG_ID_HEADER: &str = "Nats-Msg-Id";
/// The command id of a restored batch (written without `Nats-Msg-Id`, which the server would
/// de-duplicate on: history may hold an id twice, appended further apart than the window).
const COMMAND_HEADER: &str = "Weiqi-Command";
/// The time a restored batch was first stored, in ms since the epoch (the server stamps every
/// message with its own arrival time; reads prefer this header).
const TIME_HEADER: &str = "Weiqi-Time";

/// Settings of the JetStream log.
#[derive(Debug, Clone)]
pub struct JetStreamConfig {
    /// First subject token and stream name prefix (`weiqi` → `weiqi.game.<id>`,
    /// `WEIQI_GAMES`). Change it to run several independent logs on one server.
    pub prefix: String,
    /// Stream replicas (1 on a single server, 3 on a cluster).
    pub replicas: usize,
    /// How long the server remembers command ids for de-duplication (30 s by default). Correctness does
    /// not depend on it: a retry whose first try landed meets a stale expected sequence, and the log then
    /// finds the command id in the aggregate's tail. The window only saves that walk for quick retries,
    /// and every id in it costs nats-server memory and garbage-collection time: at 5,000 appends/s a
    /// two-minute window held 600,000 ids and its collections stalled appends by tens of milliseconds
    /// (measured with `weiqi bench e2e`).
    pub duplicate_window: Duration,
    /// Largest encoded batch (the server's `max_payload`, 1 MiB by default, bounds it too).
    pub max_batch_bytes: usize,
    /// Timeout of publish acks and API requests: past it an append is `Unavailable`.
    pub timeout: Duration,
    /// Publishes awaiting their ack at once, per log handle (back-pressure beyond).
    pub max_acks_in_flight: usize,
    /// Aggregates whose tip is cached; past it the cache is emptied and refills on demand.
    pub tip_cache_capacity: usize,
    /// How [`EventLog::read`] loads an aggregate.
    pub read_method: ReadMethod,
}

/// How the JetStream log loads one aggregate's messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReadMethod {
    /// Batched direct get on nats-server ≥ 2.11, an ordered consumer before.
    #[default]
    Auto,
    /// One batched direct get request (ADR-31, nats-server ≥ 2.11): no consumer is created.
    BatchDirectGet,
    /// An ephemeral ordered consumer filtered to the aggregate's subject.
    OrderedConsumer,
}

impl Default for JetStreamConfig {
    fn default() -> Self {
        Self {
            prefix: "weiqi".to_owned(),
            replicas: 1,
            duplicate_window: Duration::from_secs(30),
            max_batch_bytes: 1024 * 1024 - 16 * 1024,
            timeout: Duration::from_secs(5),
            max_acks_in_flight: 20_000,
            tip_cache_capacity: 200_000,
            read_method: ReadMethod::Auto,
        }
    }
}

/// The event log on NATS JetStream. Cheap to clone (one shared connection and cache).
#[derive(Debug, Clone)]
pub struct JetStreamLog {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    client: async_nats::Client,
    js: Context,
    config: JetStreamConfig,
    /// One handle per kind, indexed by `AggregateKind::index`.
    streams: Vec<Stream<()>>,
    /// Aggregate → tip. A std mutex: held for a map operation only, never across an await.
    tips: Mutex<HashMap<(AggregateKind, AggregateId), Tip>>,
    /// Whether the server answers batched direct gets (nats-server ≥ 2.11).
    batch_direct_get: bool,
}

/// The last event sequence of an aggregate and the stream sequence of its last message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Tip {
    last: u64,
    stream_seq: u64,
}

/// One stored message, decoded enough to answer de-duplication questions.
#[derive(Debug, Clone)]
struct MessageMeta {
    subject: String,
    stream_seq: u64,
    first: u64,
    count: u64,
    prev: u64,
    command: Option<String>,
    /// The original time of a restored batch.
    time: Option<i64>,
}

impl MessageMeta {
    fn of(message: &StreamMessage) -> Result<Self, Corrupt> {
        Self::from_parts(message.subject.as_str(), message.sequence, &message.headers)
    }

    fn from_parts(subject: &str, stream_seq: u64, headers: &HeaderMap) -> Result<Self, Corrupt> {
        let number = |name: &str| -> Result<u64, Corrupt> {
            headers
                .get(name)
                .and_then(|v| v.as_str().parse().ok())
                .ok_or(Corrupt("message without a Weiqi sequence header"))
        };
        Ok(Self {
            subject: subject.to_owned(),
            stream_seq,
            first: number(SEQ_HEADER)?,
            count: number(COUNT_HEADER)?,
            prev: number(PREV_HEADER).unwrap_or(0),
            command: headers.get(MSG_ID_HEADER).or_else(|| headers.get(COMMAND_HEADER)).map(|v| v.as_str().to_owned()),
            time: headers.get(TIME_HEADER).and_then(|v| v.as_str().parse().ok()),
        })
    }

    /// The batch's time: the original one of a restored batch, else the server's.
    fn timestamp_ms(&self, server_nanos: i128) -> i64 {
        self.time.unwrap_or_else(|| millis(server_nanos))
    }

    fn last(&self) -> u64 {
        self.first + self.count - 1
    }

    fn tip(&self) -> Tip {
        Tip { last: self.last(), stream_seq: self.stream_seq }
    }
}

fn unavailable(error: impl std::error::Error + Send + Sync + 'static) -> LogError {
    LogError::Unavailable(Box::new(error))
}

impl JetStreamLog {
    /// Connects to `url` and prepares the streams (see [`with_client`](Self::with_client)).
    pub async fn connect(url: &str, config: JetStreamConfig) -> Result<Self, LogError> {
        let client =
            async_nats::ConnectOptions::new().retry_on_initial_connect().connect(url).await.map_err(unavailable)?;
        Self::with_client(client, config).await
    }

    /// Uses an existing connection; creates each kind's stream, or updates its settings.
    pub async fn with_client(client: async_nats::Client, config: JetStreamConfig) -> Result<Self, LogError> {
        let js = ContextBuilder::new()
            .timeout(config.timeout)
            .max_ack_inflight(config.max_acks_in_flight)
            .backpressure_on_inflight(true)
            .build(client.clone());
        let mut streams = Vec::with_capacity(AggregateKind::ALL.len());
        for kind in AggregateKind::ALL {
            let stream_config = StreamConfig {
                name: subjects::stream(&config.prefix, kind),
                subjects: vec![subjects::kind_wildcard(&config.prefix, kind)],
                storage: StorageType::File,
                num_replicas: config.replicas,
                duplicate_window: config.duplicate_window,
                allow_direct: true,
                description: Some(format!("weiqi event log of kind {kind}")),
                ..Default::default()
            };
            js.create_or_update_stream(stream_config).await.map_err(unavailable)?;
            let stream = js.get_stream_no_info(subjects::stream(&config.prefix, kind)).await.map_err(unavailable)?;
            streams.push(stream);
        }
        let version = client.server_info().version;
        let batch_direct_get = match config.read_method {
            ReadMethod::Auto => server_at_least(&version, 2, 11),
            ReadMethod::BatchDirectGet => true,
            ReadMethod::OrderedConsumer => false,
        };
        Ok(Self {
            inner: Arc::new(Inner { client, js, config, streams, tips: Mutex::new(HashMap::new()), batch_direct_get }),
        })
    }

    /// The NATS connection (share it with a [`NatsBus`](crate::NatsBus)).
    pub fn client(&self) -> &async_nats::Client {
        &self.inner.client
    }

    /// The settings in force.
    pub fn config(&self) -> &JetStreamConfig {
        &self.inner.config
    }

    fn stream(&self, kind: AggregateKind) -> &Stream<()> {
        &self.inner.streams[kind.index()]
    }

    fn subject(&self, kind: AggregateKind, id: &AggregateId) -> String {
        subjects::aggregate(&self.inner.config.prefix, kind, id.as_str())
    }

    fn cached_tip(&self, kind: AggregateKind, id: &AggregateId) -> Option<Tip> {
        let tips = self.inner.tips.lock().unwrap_or_else(|p| p.into_inner());
        tips.get(&(kind, id.clone())).copied()
    }

    /// Records a tip, never moving one backwards (concurrent appends may finish out of order).
    fn remember_tip(&self, kind: AggregateKind, id: &AggregateId, tip: Tip) {
        let mut tips = self.inner.tips.lock().unwrap_or_else(|p| p.into_inner());
        if tips.len() >= self.inner.config.tip_cache_capacity {
            tips.clear();
        }
        let entry = tips.entry((kind, id.clone())).or_default();
        if tip.stream_seq >= entry.stream_seq {
            *entry = tip;
        }
    }

    fn forget_tip(&self, kind: AggregateKind, id: &AggregateId) {
        let mut tips = self.inner.tips.lock().unwrap_or_else(|p| p.into_inner());
        tips.remove(&(kind, id.clone()));
    }

    /// The last message of an aggregate, from any replica (fast) or from the stream leader
    /// (authoritative, for conflict re-checks).
    async fn last_message(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
        from_leader: bool,
    ) -> Result<Option<MessageMeta>, LogError> {
        let subject = self.subject(kind, id);
        let stream = self.stream(kind);
        let message = if from_leader {
            match stream.get_last_raw_message_by_subject(&subject).await {
                Ok(message) => message,
                Err(e) if e.kind() == LastRawMessageErrorKind::NoMessageFound => return Ok(None),
                Err(e) => return Err(unavailable(e)),
            }
        } else {
            match stream.direct_get_last_for_subject(subject).await {
                Ok(message) => message,
                Err(e) if e.kind() == DirectGetErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(unavailable(e)),
            }
        };
        let meta = MessageMeta::of(&message)?;
        self.remember_tip(kind, id, meta.tip());
        Ok(Some(meta))
    }

    async fn message_at(&self, kind: AggregateKind, stream_seq: u64) -> Result<MessageMeta, LogError> {
        let message = self.stream(kind).direct_get(stream_seq).await.map_err(unavailable)?;
        Ok(MessageMeta::of(&message)?)
    }

    /// Publishes a restored batch (see [`crate::Restorer`]) after the aggregate's message at stream
    /// sequence `previous` (0: the aggregate must not exist), and returns without waiting for the
    /// acknowledgement: publishes sent one after the other reach the stream in that order.
    pub(crate) async fn restore_send(
        &self,
        kind: AggregateKind,
        batch: &StoredBatch,
        previous: u64,
    ) -> Result<RestoreAck, AppendError> {
        let body = frame::encode(&batch.events, self.inner.config.max_batch_bytes)?;
        let count = batch.events.len() as u64;
        let mut publish = PublishMessage::build()
            .payload(body)
            .expected_last_subject_sequence(previous)
            .header(COMMAND_HEADER, batch.command_id.as_str())
            .header(TIME_HEADER, batch.timestamp_ms.to_string())
            .header(SEQ_HEADER, batch.first_sequence.to_string())
            .header(COUNT_HEADER, count.to_string())
            .header(PREV_HEADER, previous.to_string());
        for name in [TRACEPARENT, TRACESTATE] {
            if let Some(value) = batch.events.first().and_then(|e| e.headers.get(name)) {
                publish = publish.header(name, value);
            }
        }
        let id = batch.aggregate_id.clone();
        let subject = self.subject(kind, &id);
        let ack = match self.inner.js.send_publish(subject, publish).await {
            Ok(ack) => ack,
            Err(e) if e.kind() == PublishErrorKind::MaxPayloadExceeded => {
                return Err(AppendError::Invalid(InvalidAppend::TooLarge {
                    bytes: batch.events.iter().map(|e| e.payload.len()).sum(),
                    max: self.inner.client.server_info().max_payload,
                }));
            }
            Err(e) => return Err(AppendError::Unavailable(Box::new(e))),
        };
        let log = self.clone();
        let first = batch.first_sequence;
        Ok(RestoreAck::new(async move {
            match ack.await {
                Ok(ack) => {
                    log.remember_tip(kind, &id, Tip { last: first + count - 1, stream_seq: ack.sequence });
                    Ok(AppendOutcome {
                        first_sequence: first,
                        last_sequence: first + count - 1,
                        position: Position::of(ack.sequence, 0),
                        duplicate: ack.duplicate,
                    })
                }
                Err(e) if e.kind() == PublishErrorKind::WrongLastSequence => {
                    let actual = log.last_message(kind, &id, true).await?.map_or(0, |m| m.last());
                    Err(AppendError::Conflict { actual })
                }
                Err(e) => Err(AppendError::Unavailable(Box::new(e))),
            }
        }))
    }

    /// An aggregate's last event sequence and the stream sequence of its last message ((0, 0) if
    /// it has none), from the leader.
    pub(crate) async fn last_tip(&self, kind: AggregateKind, id: &AggregateId) -> Result<(u64, u64), LogError> {
        Ok(self.last_message(kind, id, true).await?.map_or((0, 0), |m| (m.last(), m.stream_seq)))
    }

    /// The outcome of the stored message `meta` as the answer to a duplicate command.
    fn duplicate_outcome(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
        meta: &MessageMeta,
    ) -> Result<AppendOutcome, AppendError> {
        if meta.subject != self.subject(kind, id) {
            let original = subjects::aggregate_id_of(&self.inner.config.prefix, kind, &meta.subject)
                .and_then(|id| AggregateId::new(id).ok())
                .ok_or(Corrupt("duplicate on a foreign subject"))?;
            return Err(AppendError::CommandIdReused { original });
        }
        Ok(AppendOutcome {
            first_sequence: meta.first,
            last_sequence: meta.last(),
            position: Position::of(meta.stream_seq, 0),
            duplicate: true,
        })
    }

    /// The aggregate is not at `expected`. Either this command landed already (its first try
    /// succeeded and this is a retry) — then answer with that outcome — or it is a conflict.
    /// Walks back from the last message through `Weiqi-Prev` over every message appended after
    /// `expected`, looking for the command id.
    async fn resolve_mismatch(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
        expected: u64,
        command: &CommandId,
        last: Option<MessageMeta>,
    ) -> Result<AppendOutcome, AppendError> {
        let actual = last.as_ref().map_or(0, MessageMeta::last);
        let mut cursor = last;
        while let Some(meta) = cursor {
            if meta.last() <= expected {
                break;
            }
            if meta.command.as_deref() == Some(command.as_str()) {
                return self.duplicate_outcome(kind, id, &meta);
            }
            cursor = if meta.prev == 0 { None } else { Some(self.message_at(kind, meta.prev).await?) };
        }
        Err(AppendError::Conflict { actual })
    }

    /// Reads one aggregate's messages with stream sequence ≥ `start`, with the fastest method
    /// the server offers.
    async fn read_messages(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
    ) -> Result<Vec<(MessageMeta, i64, Bytes)>, LogError> {
        if self.inner.batch_direct_get {
            self.read_by_batch_direct_get(kind, id).await
        } else {
            self.read_by_ordered_consumer(kind, id).await
        }
    }

    /// ADR-31 batched direct get: one request, the server streams the subject's messages to an
    /// inbox and ends with a `204 EOB` status. No consumer is created.
    async fn read_by_batch_direct_get(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
    ) -> Result<Vec<(MessageMeta, i64, Bytes)>, LogError> {
        const BATCH: usize = 1000;
        let subject = self.subject(kind, id);
        let api = format!("$JS.API.DIRECT.GET.{}", subjects::stream(&self.inner.config.prefix, kind));
        let client = &self.inner.client;
        let mut out = Vec::new();
        let mut start = 1u64;
        loop {
            let inbox = client.new_inbox();
            let mut replies = client.subscribe(inbox.clone()).await.map_err(unavailable)?;
            let request = format!(r#"{{"seq":{start},"next_by_subj":"{subject}","batch":{BATCH}}}"#);
            client.publish_with_reply(api.clone(), inbox, request.into()).await.map_err(unavailable)?;
            let mut received = 0usize;
            loop {
                let reply = tokio::time::timeout(self.inner.config.timeout, replies.next())
                    .await
                    .map_err(unavailable)?
                    .ok_or(Corrupt("direct get reply stream closed"))?;
                match reply.status.map(|s| s.as_u16()) {
                    // End of batch, or nothing (more) on this subject.
                    Some(204) | Some(404) => break,
                    Some(_) => {
                        return Err(LogError::Unavailable(
                            format!("direct get answered {:?} {:?}", reply.status, reply.description).into(),
                        ));
                    }
                    None => {
                        let message = StreamMessage::try_from(reply)
                            .map_err(|_| Corrupt("direct get reply without stream headers"))?;
                        let meta = MessageMeta::of(&message)?;
                        start = message.sequence + 1;
                        received += 1;
                        let at = meta.timestamp_ms(message.time.unix_timestamp_nanos());
                        out.push((meta, at, message.payload));
                    }
                }
            }
            if received < BATCH {
                return Ok(out);
            }
        }
    }

    /// An ordered consumer filtered to the subject, read until nothing is pending (servers
    /// before 2.11, which cannot batch direct gets).
    async fn read_by_ordered_consumer(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
    ) -> Result<Vec<(MessageMeta, i64, Bytes)>, LogError> {
        let consumer = self
            .stream(kind)
            .create_consumer(OrderedConfig {
                filter_subject: self.subject(kind, id),
                deliver_policy: DeliverPolicy::All,
                ..Default::default()
            })
            .await
            .map_err(unavailable)?;
        let mut out = Vec::new();
        if consumer.cached_info().num_pending == 0 {
            return Ok(out);
        }
        let mut messages = consumer.messages().await.map_err(unavailable)?;
        while let Some(message) =
            tokio::time::timeout(self.inner.config.timeout, messages.next()).await.map_err(unavailable)?
        {
            let message = message.map_err(unavailable)?;
            let info = message.info().map_err(LogError::Unavailable)?;
            let (stream_seq, pending, time) = (info.stream_sequence, info.pending, info.published);
            let headers = message.headers.clone().unwrap_or_default();
            let meta = MessageMeta::from_parts(message.subject.as_str(), stream_seq, &headers)?;
            let at = meta.timestamp_ms(time.unix_timestamp_nanos());
            out.push((meta, at, message.payload.clone()));
            if pending == 0 {
                break;
            }
        }
        Ok(out)
    }

    /// Decodes one stored message into its events.
    fn events_of(
        &self,
        kind: AggregateKind,
        meta: &MessageMeta,
        timestamp_ms: i64,
        body: &Bytes,
    ) -> Result<Vec<RecordedEvent>, Corrupt> {
        let id = subjects::aggregate_id_of(&self.inner.config.prefix, kind, &meta.subject)
            .and_then(|id| AggregateId::new(id).ok())
            .ok_or(Corrupt("message on a foreign subject"))?;
        let command = meta
            .command
            .as_deref()
            .and_then(|c| CommandId::new(c).ok())
            .ok_or(Corrupt("message without a command id"))?;
        let batch = frame::Batch {
            kind,
            id: &id,
            command: &command,
            first: meta.first,
            count: meta.count,
            position: meta.stream_seq,
            timestamp_ms,
        };
        frame::expand(&batch, body)
    }

    /// A resilient tail over the stream of `kind`, filtered to `filter` (one aggregate or the
    /// whole kind), from stream sequence `start`; events before `min_position` or with a
    /// sequence below `min_sequence` are skipped. Survives server restarts by recreating its
    /// ordered consumer after the last message it delivered.
    fn tail(&self, kind: AggregateKind, filter: String, min_position: Position, min_sequence: u64) -> EventStream {
        struct State {
            log: JetStreamLog,
            kind: AggregateKind,
            filter: String,
            next_stream_seq: u64,
            min_position: Position,
            min_sequence: u64,
            messages: Option<async_nats::jetstream::consumer::pull::Ordered>,
            ready: std::collections::VecDeque<RecordedEvent>,
            backoff: Duration,
        }
        let state = State {
            log: self.clone(),
            kind,
            filter,
            next_stream_seq: min_position.batch().max(1),
            min_position,
            min_sequence,
            messages: None,
            ready: Default::default(),
            backoff: Duration::from_millis(50),
        };
        EventStream::new(futures::stream::unfold(state, |mut st| async move {
            loop {
                if let Some(event) = st.ready.pop_front() {
                    return Some((Ok(event), st));
                }
                let Some(messages) = st.messages.as_mut() else {
                    let created = st
                        .log
                        .stream(st.kind)
                        .create_consumer(OrderedConfig {
                            filter_subject: st.filter.clone(),
                            deliver_policy: DeliverPolicy::ByStartSequence { start_sequence: st.next_stream_seq },
                            ..Default::default()
                        })
                        .await;
                    let opened = match created {
                        Ok(consumer) => consumer.messages().await.map_err(|e| e.to_string()),
                        Err(e) => Err(e.to_string()),
                    };
                    match opened {
                        Ok(messages) => {
                            st.messages = Some(messages);
                            st.backoff = Duration::from_millis(50);
                        }
                        Err(error) => {
                            tracing::warn!(%error, filter = %st.filter, "event log tail: cannot open consumer, retrying");
                            tokio::time::sleep(st.backoff).await;
                            st.backoff = (st.backoff * 2).min(Duration::from_secs(2));
                        }
                    }
                    continue;
                };
                let message = match messages.next().await {
                    Some(Ok(message)) => message,
                    failure => {
                        if let Some(Err(error)) = failure {
                            tracing::warn!(%error, filter = %st.filter, "event log tail interrupted, resuming");
                        }
                        st.messages = None;
                        tokio::time::sleep(st.backoff).await;
                        continue;
                    }
                };
                let decoded = message.info().map_err(|_| Corrupt("message without JetStream info")).and_then(|info| {
                    let headers = message.headers.clone().unwrap_or_default();
                    let meta = MessageMeta::from_parts(message.subject.as_str(), info.stream_sequence, &headers)?;
                    st.log
                        .events_of(
                            st.kind,
                            &meta,
                            meta.timestamp_ms(info.published.unix_timestamp_nanos()),
                            &message.payload,
                        )
                        .map(|events| (info.stream_sequence, events))
                });
                match decoded {
                    Ok((stream_seq, events)) => {
                        st.next_stream_seq = stream_seq + 1;
                        st.ready.extend(
                            events
                                .into_iter()
                                .filter(|e| e.position >= st.min_position && e.sequence >= st.min_sequence),
                        );
                    }
                    Err(corrupt) => return Some((Err(LogError::Corrupt(corrupt)), st)),
                }
            }
        }))
    }
}

/// Milliseconds since the epoch from nanoseconds since the epoch.
fn millis(nanos: i128) -> i64 {
    (nanos / 1_000_000) as i64
}

/// Whether a server version string (`2.15.1`) is at least `major.minor`.
fn server_at_least(version: &str, major: u64, minor: u64) -> bool {
    let mut parts = version.trim_start_matches('v').split(['.', '-']).map(|p| p.parse::<u64>().unwrap_or(0));
    let found = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    found >= (major, minor)
}

impl EventLog for JetStreamLog {
    async fn append(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
        expected: u64,
        command: &CommandId,
        events: &[NewEvent],
    ) -> Result<AppendOutcome, AppendError> {
        let body = frame::encode(events, self.inner.config.max_batch_bytes)?;
        let count = events.len() as u64;

        // The stream sequence the aggregate's last message must have.
        let expected_stream_seq = match self.cached_tip(kind, id) {
            _ if expected == 0 => 0,
            Some(tip) if tip.last == expected => tip.stream_seq,
            _ => {
                // Unknown or different tip: ask a replica, then the leader before concluding.
                let mut last = self.last_message(kind, id, false).await?;
                if last.as_ref().map_or(0, MessageMeta::last) != expected {
                    last = self.last_message(kind, id, true).await?;
                }
                match &last {
                    Some(meta) if meta.last() == expected => meta.stream_seq,
                    _ => {
                        return self.resolve_mismatch(kind, id, expected, command, last).await;
                    }
                }
            }
        };

        let mut publish = PublishMessage::build()
            .payload(body)
            .message_id(command.as_str())
            .expected_last_subject_sequence(expected_stream_seq)
            .header(SEQ_HEADER, (expected + 1).to_string())
            .header(COUNT_HEADER, count.to_string())
            .header(PREV_HEADER, expected_stream_seq.to_string());
        for name in [TRACEPARENT, TRACESTATE] {
            if let Some(value) = events[0].headers.get(name) {
                publish = publish.header(name, value);
            }
        }
        let subject = self.subject(kind, id);
        let sent = self.inner.js.send_publish(subject, publish).await;
        let acked = match sent {
            Ok(ack) => ack.await,
            Err(e) => Err(e),
        };
        match acked {
            Ok(ack) if !ack.duplicate => {
                let tip = Tip { last: expected + count, stream_seq: ack.sequence };
                self.remember_tip(kind, id, tip);
                Ok(AppendOutcome {
                    first_sequence: expected + 1,
                    last_sequence: expected + count,
                    position: Position::of(ack.sequence, 0),
                    duplicate: false,
                })
            }
            Ok(ack) => {
                // The server recognised the command id: answer with the original append.
                let meta = self.message_at(kind, ack.sequence).await?;
                self.duplicate_outcome(kind, id, &meta)
            }
            Err(e) if e.kind() == PublishErrorKind::WrongLastSequence => {
                let last = self.last_message(kind, id, true).await?;
                self.resolve_mismatch(kind, id, expected, command, last).await
            }
            Err(e) if e.kind() == PublishErrorKind::MaxPayloadExceeded => {
                Err(AppendError::Invalid(InvalidAppend::TooLarge {
                    bytes: events.iter().map(|e| e.payload.len()).sum(),
                    max: self.inner.client.server_info().max_payload,
                }))
            }
            Err(e) => {
                // Unknown outcome: forget the tip so the retry asks the server.
                self.forget_tip(kind, id);
                Err(AppendError::Unavailable(Box::new(e)))
            }
        }
    }

    async fn read(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
        from_sequence: u64,
    ) -> Result<Vec<RecordedEvent>, LogError> {
        let messages = self.read_messages(kind, id).await?;
        if let Some((meta, _, _)) = messages.last() {
            self.remember_tip(kind, id, meta.tip());
        }
        let mut events = Vec::new();
        for (meta, timestamp_ms, body) in &messages {
            if meta.last() < from_sequence {
                continue;
            }
            let decoded = self.events_of(kind, meta, *timestamp_ms, body)?;
            events.extend(decoded.into_iter().filter(|e| e.sequence >= from_sequence));
        }
        Ok(events)
    }

    async fn last_sequence(&self, kind: AggregateKind, id: &AggregateId) -> Result<u64, LogError> {
        Ok(self.last_message(kind, id, false).await?.map_or(0, |meta| meta.last()))
    }

    async fn head(&self, kind: AggregateKind) -> Result<Position, LogError> {
        let info = self.stream(kind).get_info().await.map_err(unavailable)?;
        Ok(Position::of(info.state.last_sequence + 1, 0))
    }

    async fn follow(&self, kind: AggregateKind, from: Position) -> Result<EventStream, LogError> {
        let filter = subjects::kind_wildcard(&self.inner.config.prefix, kind);
        Ok(self.tail(kind, filter, from, 0))
    }

    async fn watch(&self, kind: AggregateKind, id: &AggregateId, from_sequence: u64) -> Result<EventStream, LogError> {
        Ok(self.tail(kind, self.subject(kind, id), Position::START, from_sequence))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_versions_compare_by_major_and_minor() {
        assert!(server_at_least("2.15.1", 2, 11));
        assert!(server_at_least("2.11.0", 2, 11));
        assert!(!server_at_least("2.10.22", 2, 11));
        assert!(!server_at_least("2.9.25", 2, 11));
        assert!(server_at_least("3.0.0", 2, 11));
    }
}
