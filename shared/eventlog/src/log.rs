//! The `EventLog` trait, the stream type of `follow`/`watch`, and `AnyEventLog`.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::Stream;

use crate::{
    AggregateId, AggregateKind, AppendError, AppendOutcome, CommandId, EmbeddedLog, JetStreamLog, LogError, NewEvent,
    Position, RecordedEvent,
};

/// An append-only log of events per aggregate, grouped by aggregate kind.
///
/// Implementations: [`JetStreamLog`] (NATS JetStream) and [`EmbeddedLog`] (a local redb file).
/// Both pass the same conformance suite (`tests/conformance.rs`).
pub trait EventLog: Send + Sync {
    /// Appends `events` to aggregate `id` of `kind`, all or none, if the aggregate's last
    /// sequence is `expected` (0: the aggregate must not exist yet).
    ///
    /// * Success: the events get sequences `expected + 1 ..= expected + events.len()`.
    /// * The same `command` appended before (within the duplicate window): nothing is
    ///   appended, and the original outcome comes back with `duplicate: true`, even if
    ///   `expected` is stale by now because that first try landed.
    /// * Another `expected`: [`AppendError::Conflict`] with the actual last sequence.
    /// * [`AppendError::Unavailable`]: unknown outcome; retry with the same command id.
    fn append(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
        expected: u64,
        command: &CommandId,
        events: &[NewEvent],
    ) -> impl Future<Output = Result<AppendOutcome, AppendError>> + Send;

    /// The events of one aggregate with sequence ≥ `from_sequence`, in order (empty for an
    /// aggregate that does not exist).
    fn read(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
        from_sequence: u64,
    ) -> impl Future<Output = Result<Vec<RecordedEvent>, LogError>> + Send;

    /// The last sequence of one aggregate (0 if it does not exist).
    fn last_sequence(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
    ) -> impl Future<Output = Result<u64, LogError>> + Send;

    /// The position just past the last event of `kind`: `follow(kind, head)` sees only what
    /// is appended from now on.
    fn head(&self, kind: AggregateKind) -> impl Future<Output = Result<Position, LogError>> + Send;

    /// Every event of `kind` at position ≥ `from`, in log order: first those already stored,
    /// then new ones as they are appended. The stream does not end; it pauses while the log
    /// is unreachable and resumes where it stopped. Resume after a checkpoint with
    /// `follow(kind, last_handled.position.next())`.
    fn follow(&self, kind: AggregateKind, from: Position)
    -> impl Future<Output = Result<EventStream, LogError>> + Send;

    /// The events of one aggregate with sequence ≥ `from_sequence`: catch-up, then live (for
    /// the gRPC `Watch`). Same resumption rules as [`follow`](Self::follow).
    fn watch(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
        from_sequence: u64,
    ) -> impl Future<Output = Result<EventStream, LogError>> + Send;
}

/// A stream of recorded events from [`EventLog::follow`] or [`EventLog::watch`]. Dropping it
/// releases what it holds on the server.
pub struct EventStream(Pin<Box<dyn Stream<Item = Result<RecordedEvent, LogError>> + Send>>);

impl EventStream {
    /// Wraps any stream of recorded events.
    pub fn new(stream: impl Stream<Item = Result<RecordedEvent, LogError>> + Send + 'static) -> Self {
        Self(Box::pin(stream))
    }
}

impl Stream for EventStream {
    type Item = Result<RecordedEvent, LogError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.as_mut().poll_next(cx)
    }
}

impl std::fmt::Debug for EventStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EventStream")
    }
}

/// Either implementation, chosen at run time (`weiqi up` → embedded, `--nats` → JetStream),
/// without boxing the futures. Cheap to clone.
#[derive(Debug, Clone)]
pub enum AnyEventLog {
    /// NATS JetStream.
    JetStream(JetStreamLog),
    /// A local redb file.
    Embedded(EmbeddedLog),
}

impl From<JetStreamLog> for AnyEventLog {
    fn from(log: JetStreamLog) -> Self {
        Self::JetStream(log)
    }
}

impl From<EmbeddedLog> for AnyEventLog {
    fn from(log: EmbeddedLog) -> Self {
        Self::Embedded(log)
    }
}

impl EventLog for AnyEventLog {
    async fn append(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
        expected: u64,
        command: &CommandId,
        events: &[NewEvent],
    ) -> Result<AppendOutcome, AppendError> {
        use tracing::Instrument;
        // A traced command's append is a span of its own: a JetStream publish (`producer`), or a
        // write to the embedded file (`client`). Untraced appends (imports, restores) make none.
        let traced = weiqi_telemetry::current_trace_id().is_some();
        match self {
            Self::JetStream(log) => {
                let span = if traced {
                    tracing::info_span!(
                        "eventlog.append",
                        otel.kind = "producer",
                        otel.name = %format!("{kind} append"),
                        messaging.system = "nats",
                        messaging.operation = "publish",
                        messaging.destination.name = %kind,
                        weiqi.events = events.len(),
                        weiqi.expected_sequence = expected,
                    )
                } else {
                    tracing::Span::none()
                };
                log.append(kind, id, expected, command, events).instrument(span).await
            }
            Self::Embedded(log) => {
                let span = if traced {
                    tracing::info_span!(
                        "eventlog.append",
                        otel.kind = "client",
                        otel.name = %format!("{kind} append"),
                        db.system = "redb",
                        weiqi.events = events.len(),
                        weiqi.expected_sequence = expected,
                    )
                } else {
                    tracing::Span::none()
                };
                log.append(kind, id, expected, command, events).instrument(span).await
            }
        }
    }

    async fn read(
        &self,
        kind: AggregateKind,
        id: &AggregateId,
        from_sequence: u64,
    ) -> Result<Vec<RecordedEvent>, LogError> {
        match self {
            Self::JetStream(log) => log.read(kind, id, from_sequence).await,
            Self::Embedded(log) => log.read(kind, id, from_sequence).await,
        }
    }

    async fn last_sequence(&self, kind: AggregateKind, id: &AggregateId) -> Result<u64, LogError> {
        match self {
            Self::JetStream(log) => log.last_sequence(kind, id).await,
            Self::Embedded(log) => log.last_sequence(kind, id).await,
        }
    }

    async fn head(&self, kind: AggregateKind) -> Result<Position, LogError> {
        match self {
            Self::JetStream(log) => log.head(kind).await,
            Self::Embedded(log) => log.head(kind).await,
        }
    }

    async fn follow(&self, kind: AggregateKind, from: Position) -> Result<EventStream, LogError> {
        match self {
            Self::JetStream(log) => log.follow(kind, from).await,
            Self::Embedded(log) => log.follow(kind, from).await,
        }
    }

    async fn watch(&self, kind: AggregateKind, id: &AggregateId, from_sequence: u64) -> Result<EventStream, LogError> {
        match self {
            Self::JetStream(log) => log.watch(kind, id, from_sequence).await,
            Self::Embedded(log) => log.watch(kind, id, from_sequence).await,
        }
    }
}
