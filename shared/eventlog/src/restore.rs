//! Writing stored batches back, as a backup holds them (`weiqi restore`).
//!
//! A restore is not an ordinary append: it writes history. Each batch keeps its aggregate, its
//! sequences, its command id and the time it was first stored; the batches of one kind are stored in
//! the order they are sent, many of them in flight at once. What differs from
//! [`EventLog::append`](crate::EventLog::append):
//!
//! * **The time is the batch's own** ([`StoredBatch::timestamp_ms`]), not the time of the restore:
//!   reads return it (the SGF record's date of a game is its first event's time).
//! * **No de-duplication by command id.** History may hold one command id twice in a kind, appended
//!   further apart than the duplicate window; both are stored. The id is stored as usual, so a later
//!   retry of a restored command whose expected sequence is stale is still answered as a duplicate.
//! * **The expected sequence is checked** (`first_sequence - 1`): a restored batch that does not
//!   follow its aggregate's last one is a [`AppendError::Conflict`], as an append would be.
//! * **Order and pipelining.** [`Restorer::send`] hands the batch to the log (the embedded writer's
//!   queue, or the NATS connection) and returns at once with a [`RestoreAck`] to await later. The
//!   restorer predicts where each batch lands (the `n`-th batch sent after a head of `h` lands at
//!   batch `h + n`: a restore writes into a kind nobody else writes), which lets JetStream publish an
//!   aggregate's next batch before the previous one is acknowledged; each acknowledgement is checked
//!   against the prediction, so a batch stored out of order, or a writer racing the restore, fails
//!   the restore instead of passing unnoticed.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::{
    AggregateId, AggregateKind, AnyEventLog, AppendError, AppendOutcome, CommandId, EventLog, LogError, NewEvent,
};

/// One append as the log stored it: what a restore writes back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredBatch {
    /// The aggregate.
    pub aggregate_id: AggregateId,
    /// The sequence of its first event (the aggregate's last sequence before it, plus one).
    pub first_sequence: u64,
    /// The command whose append stored it.
    pub command_id: CommandId,
    /// When the log first stored it, ms since the Unix epoch.
    pub timestamp_ms: i64,
    /// Its events, in order.
    pub events: Vec<NewEvent>,
}

/// The acknowledgement of one restored batch: where it was stored, or why not.
#[must_use = "a restored batch is only known to be stored once its acknowledgement is awaited"]
pub struct RestoreAck(Pin<Box<dyn Future<Output = Result<AppendOutcome, AppendError>> + Send>>);

impl RestoreAck {
    pub(crate) fn new(future: impl Future<Output = Result<AppendOutcome, AppendError>> + Send + 'static) -> Self {
        Self(Box::pin(future))
    }
}

impl Future for RestoreAck {
    type Output = Result<AppendOutcome, AppendError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.0.as_mut().poll(cx)
    }
}

impl std::fmt::Debug for RestoreAck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RestoreAck")
    }
}

/// Writes the batches of one kind back into a log, in the order they are sent (see the module doc).
#[derive(Debug)]
pub struct Restorer {
    log: AnyEventLog,
    kind: AggregateKind,
    /// The batch number (stream sequence) the next batch sent will land at.
    next_batch: u64,
    /// JetStream: each restored aggregate's last event sequence and the predicted stream sequence
    /// of its last batch.
    tips: HashMap<AggregateId, (u64, u64)>,
}

impl AnyEventLog {
    /// A restorer of `kind` into this log, from its head now. Only this restorer may write the kind
    /// until it is done (every batch checks where it landed).
    ///
    /// # Errors
    /// The log is unreachable.
    pub async fn restorer(&self, kind: AggregateKind) -> Result<Restorer, LogError> {
        let head = self.head(kind).await?;
        Ok(Restorer { log: self.clone(), kind, next_batch: head.batch(), tips: HashMap::new() })
    }
}

impl Restorer {
    /// The kind it writes.
    pub fn kind(&self) -> AggregateKind {
        self.kind
    }

    /// Hands `batch` to the log after the batches sent before it, and returns its acknowledgement
    /// without waiting for it. Await acknowledgements in any order; a failed one means this batch
    /// and possibly later ones of the same aggregate were not stored.
    ///
    /// # Errors
    /// The batch is invalid (empty, too large) or the log is unreachable; nothing of it was sent.
    pub async fn send(&mut self, batch: &StoredBatch) -> Result<RestoreAck, AppendError> {
        let predicted = self.next_batch;
        let ack = match &self.log {
            AnyEventLog::Embedded(log) => log.restore_send(self.kind, batch)?,
            AnyEventLog::JetStream(log) => {
                // The server checks the stream sequence of the subject's last message; the event
                // sequence is checked here, against what this restorer wrote or the stream holds.
                let (last, previous) = match self.tips.get(&batch.aggregate_id) {
                    Some(tip) => *tip,
                    None if batch.first_sequence <= 1 => (0, 0),
                    None => log.last_tip(self.kind, &batch.aggregate_id).await?,
                };
                if batch.first_sequence != last + 1 {
                    return Ok(RestoreAck::new(async move { Err(AppendError::Conflict { actual: last }) }));
                }
                let ack = log.restore_send(self.kind, batch, previous).await?;
                let count = batch.events.len() as u64;
                self.tips.insert(batch.aggregate_id.clone(), (batch.first_sequence + count - 1, predicted));
                ack
            }
        };
        self.next_batch += 1;
        let kind = self.kind;
        Ok(RestoreAck::new(async move {
            let outcome = ack.await?;
            if outcome.duplicate || outcome.position.batch() != predicted {
                return Err(AppendError::Unavailable(
                    format!(
                        "a restored {kind} batch landed at {} instead of {}:0: another writer appended to the kind during the restore",
                        outcome.position,
                        predicted
                    )
                    .into(),
                ));
            }
            Ok(outcome)
        }))
    }
}
