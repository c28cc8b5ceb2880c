//! The event log of weiqi, and its message bus.
//!
//! Every game, tournament, player and certification case is an append-only log of events.
//! This crate stores those logs, in NATS JetStream ([`JetStreamLog`]) for real deployments or
//! in a local redb file ([`EmbeddedLog`]) for `weiqi up`, behind one trait, [`EventLog`],
//! with the same semantics (one conformance suite, `tests/conformance.rs`, runs on both).
//! It also carries non-persistent messages: commands to services and ephemeral topics such as
//! clock ticks ([`Bus`], on NATS or in process).
//!
//! # Example
//!
//! ```
//! use weiqi_eventlog::{AggregateId, AggregateKind, AppendError, CommandId, EmbeddedConfig,
//!                     EmbeddedLog, EventLog, NewEvent};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! let log = EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default())?;
//! let game = AggregateId::new("0b6f3c2e-9d1a-4e5f-8a7b-1c2d3e4f5a6b")?;
//!
//! // expected 0: the game must not exist yet.
//! let created = NewEvent::new("weiqi.v1.GameCreated", b"...".to_vec());
//! let outcome = log.append(AggregateKind::Game, &game, 0, &CommandId::new("req-1")?, &[created]).await?;
//! assert_eq!(outcome.last_sequence, 1);
//!
//! // A retry of the same command: nothing new, the original outcome.
//! let created = NewEvent::new("weiqi.v1.GameCreated", b"...".to_vec());
//! let again = log.append(AggregateKind::Game, &game, 0, &CommandId::new("req-1")?, &[created]).await?;
//! assert!(again.duplicate && again.last_sequence == 1);
//!
//! // Another command that decided on a stale state: a conflict, reload and decide again.
//! let pass = NewEvent::new("weiqi.v1.Passed", Vec::new());
//! let stale = log.append(AggregateKind::Game, &game, 0, &CommandId::new("req-2")?, &[pass]).await;
//! assert!(matches!(stale, Err(AppendError::Conflict { actual: 1 })));
//!
//! let events = log.read(AggregateKind::Game, &game, 1).await?;
//! assert_eq!(events.len(), 1);
//! # Ok(())
//! # }
//! ```
//!
//! # Invariants
//!
//! * **Dense sequences.** The events of one aggregate are numbered 1, 2, 3, … without gaps;
//!   every append names the sequence it expects to follow (0 for a new aggregate) and fails
//!   with [`AppendError::Conflict`] otherwise. Two racing appends on one aggregate: exactly
//!   one wins. No fork, ever: on JetStream the server enforces it with
//!   `Nats-Expected-Last-Subject-Sequence`, in the embedded log the single writer does.
//! * **Atomic batches.** An append of several events stores all or none: one append is one
//!   JetStream message (one redb row), framed by this crate and flattened on read.
//! * **Idempotent commands.** A command id appended before returns the original outcome
//!   (`duplicate: true`) and appends nothing: within the duplicate window always, and past it
//!   when the retry's expected sequence is stale because the first try landed.
//! * **Faults are typed.** [`AppendError::Unavailable`] / [`LogError::Unavailable`] /
//!   [`BusError::is_unavailable`] are infrastructure faults (gRPC `Unavailable`), distinct from
//!   conflicts and invalid input. An `Unavailable` append has an unknown outcome: retry it with
//!   the same command id.
//! * **Payloads are opaque.** Callers encode protobuf; the log stores bytes, a type name and
//!   headers (W3C `traceparent`/`tracestate` travel with events and bus messages).
//! * **Only this crate knows NATS subjects** (see the table in `subjects.rs`).
//!
//! # Durability
//!
//! A JetStream acknowledgement means the message is in the stream leader's store (and, with
//! replicas, in a quorum of replicas' memory), **not** that it is fsynced: nats-server syncs
//! its files every `sync_interval` (2 minutes by default). A process crash (`kill -9`) loses
//! nothing that was acknowledged (the data is in the OS page cache); a power loss or kernel
//! crash on a single node can lose the last interval. Deployments must therefore run either
//! a cluster with R3 streams (`JetStreamConfig::replicas = 3`: an ack means a quorum has it)
//! or a single node with `jetstream { sync_interval: always }` (fsync before every ack; the
//! testkit's `NatsServer::start_sync_always`). The embedded log commits with
//! `Durability::Immediate` (an fsync per group commit) before it answers.
//!
//! # Backups
//!
//! A backup reads each kind with [`EventLog::follow`] up to the head it took at its start; a restore
//! writes the batches back with a [`Restorer`] ([`AnyEventLog::restorer`]), which keeps each batch's
//! sequences, command id and original time, in the order of the backup (see `restore.rs`).
//!
//! # Choosing an implementation at run time
//!
//! [`AnyEventLog`] and [`AnyBus`] are enums over the two implementations; they implement the
//! traits without boxing futures, so services can take `impl EventLog` or the enum.
mod aggregate;
pub mod bench;
mod bus;
mod embedded;
mod env;
mod error;
mod event;
pub mod followers;
mod frame;
mod jetstream;
mod log;
mod restore;
mod subjects;

pub use aggregate::{AggregateId, AggregateKind, CommandId, InvalidName, MAX_BATCH_EVENTS, MAX_NAME_LEN, Position};
pub use bus::{
    AnyBus, Bus, BusError, BusMessage, InvalidBusName, LocalBus, NatsBus, Published, Request, Requests, Subscription,
    trace_of,
};
pub use embedded::{EmbeddedConfig, EmbeddedLog};
pub use env::{Environment, Sleep, SystemEnvironment};
pub use error::{AppendError, BoxError, Corrupt, InvalidAppend, LogError};
pub use event::{AppendOutcome, Headers, NewEvent, RecordedEvent, TRACEPARENT, TRACESTATE};
pub use followers::{Follower, FollowerReport};
pub use jetstream::{JetStreamConfig, JetStreamLog, ReadMethod};
pub use log::{AnyEventLog, EventLog, EventStream};
pub use restore::{RestoreAck, Restorer, StoredBatch};
