//! Errors of the event log, as values callers can act on.

use crate::{AggregateId, InvalidName};

/// A boxed error from the infrastructure (NATS client, redb, IO).
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// An append that was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    /// The aggregate is not at the expected sequence: someone else appended first (or, with
    /// expected 0, the aggregate already exists). Reload from `actual` and decide again.
    #[error("conflict: expected another sequence, the aggregate is at {actual}")]
    Conflict {
        /// The aggregate's current last sequence.
        actual: u64,
    },
    /// The command id was already used for another aggregate of the same kind.
    #[error("command id already used for aggregate {original}")]
    CommandIdReused {
        /// The aggregate the command id was first appended to.
        original: AggregateId,
    },
    /// The batch itself is not acceptable; nothing was appended.
    #[error(transparent)]
    Invalid(#[from] InvalidAppend),
    /// The log could not be reached or did not answer in time. The append may or may not have
    /// landed: retry with the same command id (a landed append comes back as a duplicate).
    #[error("event log unavailable: {0}")]
    Unavailable(#[source] BoxError),
    /// Stored data could not be decoded.
    #[error(transparent)]
    Corrupt(#[from] Corrupt),
}

/// Why a batch cannot be appended at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidAppend {
    /// A batch needs at least one event.
    #[error("empty batch")]
    Empty,
    /// More events than [`MAX_BATCH_EVENTS`](crate::MAX_BATCH_EVENTS).
    #[error("{0} events in one batch is too many")]
    TooManyEvents(usize),
    /// The encoded batch is larger than the log accepts.
    #[error("batch of {bytes} bytes exceeds the limit of {max}")]
    TooLarge {
        /// The encoded size.
        bytes: usize,
        /// The limit.
        max: usize,
    },
    /// An event type name longer than 65,535 bytes, or a header that cannot be framed.
    #[error("event type or header too long")]
    FieldTooLong,
}

/// A read, follow or watch that failed.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The log could not be reached or did not answer in time.
    #[error("event log unavailable: {0}")]
    Unavailable(#[source] BoxError),
    /// Stored data could not be decoded.
    #[error(transparent)]
    Corrupt(#[from] Corrupt),
    /// An argument was not a valid name.
    #[error(transparent)]
    InvalidName(#[from] InvalidName),
}

impl From<LogError> for AppendError {
    fn from(error: LogError) -> Self {
        match error {
            LogError::Unavailable(source) => Self::Unavailable(source),
            LogError::Corrupt(corrupt) => Self::Corrupt(corrupt),
            LogError::InvalidName(_) => Self::Invalid(InvalidAppend::FieldTooLong),
        }
    }
}

/// Stored data that does not decode: a bug or a foreign writer, never a normal condition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("corrupt record: {0}")]
pub struct Corrupt(pub &'static str);
