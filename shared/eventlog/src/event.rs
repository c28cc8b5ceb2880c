//! Events going in (`NewEvent`), events coming out (`RecordedEvent`), and what an append did.

use bytes::Bytes;

use crate::{AggregateId, AggregateKind, CommandId, Position};

/// The W3C trace context header that carries the trace id and parent span.
pub const TRACEPARENT: &str = "traceparent";
/// The W3C trace context header with vendor-specific trace state.
pub const TRACESTATE: &str = "tracestate";

/// Ordered string headers (W3C `traceparent`/`tracestate`, …) carried with an event or a bus
/// message. A name may repeat; [`get`](Self::get) returns the first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers(Vec<(String, String)>);

impl Headers {
    /// No headers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a header (builder style).
    pub fn with(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.insert(name, value);
        self
    }

    /// Adds a header.
    pub fn insert(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.0.push((name.into(), value.into()));
    }

    /// Sets `name` to `value`, replacing every header of that name (names compare
    /// case-insensitively).
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        self.0.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
        self.0.push((name, value.into()));
    }

    /// The first value of `name` (names compare case-insensitively).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// All headers in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The number of headers.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<N: Into<String>, V: Into<String>> FromIterator<(N, V)> for Headers {
    fn from_iter<T: IntoIterator<Item = (N, V)>>(iter: T) -> Self {
        Self(iter.into_iter().map(|(n, v)| (n.into(), v.into())).collect())
    }
}

/// An event to append: a type name, opaque payload bytes (protobuf, encoded by the caller) and
/// headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    /// The event's type name, e.g. `weiqi.v1.StonePlayed`.
    pub event_type: String,
    /// The encoded event.
    pub payload: Bytes,
    /// Headers, e.g. the W3C trace context of the command that caused it.
    pub headers: Headers,
}

impl NewEvent {
    /// An event without headers.
    pub fn new(event_type: impl Into<String>, payload: impl Into<Bytes>) -> Self {
        Self { event_type: event_type.into(), payload: payload.into(), headers: Headers::new() }
    }

    /// Adds a header (builder style).
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.insert(name, value);
        self
    }
}

/// An event as stored in the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedEvent {
    /// The aggregate's kind.
    pub kind: AggregateKind,
    /// The aggregate's id.
    pub aggregate_id: AggregateId,
    /// The event's sequence in its aggregate: 1, 2, 3, … without gaps.
    pub sequence: u64,
    /// Where it is in the log of its kind (for `follow` and checkpoints).
    pub position: Position,
    /// When the log stored it, server time in milliseconds since the Unix epoch. All events of
    /// one append share it.
    pub timestamp_ms: i64,
    /// The command whose append recorded it.
    pub command_id: CommandId,
    /// The event's type name.
    pub event_type: String,
    /// The encoded event.
    pub payload: Bytes,
    /// Its headers.
    pub headers: Headers,
}

/// What an append did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppendOutcome {
    /// Sequence of the first event of the batch.
    pub first_sequence: u64,
    /// Sequence of the last event of the batch: the aggregate's new expected sequence.
    pub last_sequence: u64,
    /// Position of the first event of the batch.
    pub position: Position,
    /// `true` when this command id had already been appended: nothing was appended now, and
    /// the sequences are those of the original append.
    pub duplicate: bool,
}
