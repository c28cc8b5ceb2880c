//! Small helpers over the event log: reading everything stored now, and deterministic command ids.

use futures::{FutureExt, StreamExt};
use weiqi_eventlog::{AggregateKind, CommandId, EventLog, LogError, Position, RecordedEvent};

/// Bits of a position that number the events inside one batch (see `weiqi_eventlog::Position`).
const INDEX_BITS: u32 = 16;

fn batch(p: Position) -> u64 {
    p.raw() >> INDEX_BITS
}

/// Every event of `kind` at position ≥ `from` stored when the call starts, in log order.
///
/// `head` names the batch after the last one; the follow stream delivers a stored batch's events
/// together, so once an event of the last batch arrives the rest of it is already waiting.
///
/// # Errors
/// When the log cannot be reached.
pub async fn read_stored<L: EventLog>(
    log: &L,
    kind: AggregateKind,
    from: Position,
) -> Result<Vec<RecordedEvent>, LogError> {
    let head = log.head(kind).await?;
    let last_batch = batch(head).saturating_sub(1);
    if last_batch == 0 || batch(from) > last_batch {
        return Ok(Vec::new());
    }
    let mut stream = log.follow(kind, from).await?;
    let mut out = Vec::new();
    while let Some(item) = stream.next().await {
        let event = item?;
        let at_end = batch(event.position) >= last_batch;
        out.push(event);
        if at_end {
            while let Some(Some(item)) = stream.next().now_or_never() {
                let event = item?;
                if batch(event.position) > last_batch {
                    break;
                }
                out.push(event);
            }
            break;
        }
    }
    Ok(out)
}

/// A deterministic command id for a description (a UUID v5): retries of the same logical command
/// get the same id, so the log appends them once.
#[must_use]
pub fn command_id(description: &str) -> CommandId {
    let id = uuid::Uuid::new_v5(&NAMESPACE, description.as_bytes());
    CommandId::new(id.to_string()).expect("a UUID is a valid command id")
}

/// The namespace of the ranking service's v5 UUIDs.
pub const NAMESPACE: uuid::Uuid = uuid::Uuid::from_u128(0x5e1f_7a0c_4b3d_4c2e_9a61_0d8b_2f47_c3a9);

/// A short deterministic hex id (32 digits) for a description.
#[must_use]
pub fn hex_id(description: &str) -> String {
    uuid::Uuid::new_v5(&NAMESPACE, description.as_bytes()).simple().to_string()
}
