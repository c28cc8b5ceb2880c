//! placeholder
mod aggregate;
mod bus;
mod embedded;
mod error;
mod event;
mod frame;
mod jetstream;
mod log;
mod subjects;

pub use aggregate::{
    AggregateId, AggregateKind, CommandId, InvalidName, MAX_BATCH_EVENTS, MAX_NAME_LEN, Position,
};
pub use bus::{
    AnyBus, Bus, BusError, BusMessage, InvalidBusName, LocalBus, NatsBus, Published, Request,
    Requests, Subscription,
};
pub use embedded::{EmbeddedConfig, EmbeddedLog};
pub use error::{AppendError, BoxError, Corrupt, InvalidAppend, LogError};
pub use event::{AppendOutcome, Headers, NewEvent, RecordedEvent, TRACEPARENT, TRACESTATE};
pub use jetstream::{JetStreamConfig, JetStreamLog};
pub use log::{AnyEventLog, EventLog, EventStream};
