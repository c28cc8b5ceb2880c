//! `weiqi-aggregate`: the one runner every event-sourced aggregate of the platform runs on.
//!
//! An aggregate (a game, a tournament, a player, the rating ledger, a certification case, an account)
//! is a pure decider — [`Aggregate::decide`] a command against the folded state, [`Aggregate::evolve`]
//! the state with an event — plus the codec of its events. The [`Runner`] is everything around it,
//! written once:
//!
//! * **the cache of folded state**, one slot per aggregate id, evicted when idle;
//! * **catch-up from the log** the first time an aggregate is used, after a conflict, and before a
//!   refusal decided on a cached state (another instance may have appended since);
//! * **the append with the expected sequence and the command id**: no append is blind, and one
//!   command appends once;
//! * **the bounded conflict retry** ([`MAX_CONFLICT_RETRIES`]): another writer appended first, so read
//!   the tail and decide again;
//! * **one duplicate policy**: every append carries a digest of the actor and the command
//!   ([`COMMAND_DIGEST`]). A command id seen before with the same digest is a retry and is answered with
//!   the original outcome (from memory or from the log); the same id with another command or from
//!   another actor is refused ([`RunError::RequestIdReused`]);
//! * **nothing unreadable is appended**: the events decided are folded into a copy of the state before
//!   the append ([`Aggregate::decide_and_fold`]); a decision that does not fold is refused.
//!
//! Time and randomness come from one [`Environment`]; the decider gets them in a [`Context`], so it stays
//! pure.
//!
//! # Example
//!
//! ```
//! use weiqi_aggregate::{Aggregate, Context, Request, Runner, SystemEnvironment};
//! use weiqi_eventlog::{AggregateKind, EmbeddedConfig, EmbeddedLog, NewEvent, RecordedEvent};
//!
//! /// A counter that may not go above ten.
//! struct Counter;
//!
//! impl Aggregate for Counter {
//!     const KIND: AggregateKind = AggregateKind::Player;
//!     const NAME: &'static str = "counter";
//!     type State = u32;
//!     type Actor = String;
//!     type Command = u32;
//!     type Event = u32;
//!     type Stored = u32;
//!     type Rejection = String;
//!
//!     fn decide(state: &u32, _: &String, add: &u32, _: &Context<'_>) -> Result<Vec<u32>, String> {
//!         if state + add > 10 { Err(format!("{state} + {add} is more than ten")) } else { Ok(vec![*add]) }
//!     }
//!     fn evolve(state: &mut u32, add: &u32) -> Result<(), String> {
//!         *state += add;
//!         Ok(())
//!     }
//!     fn inconsistent(why: String) -> String {
//!         why
//!     }
//!     fn encode(add: &u32, _: &weiqi_aggregate::EventMeta<'_, Self>) -> (NewEvent, u32) {
//!         (NewEvent::new("counter.Added", add.to_le_bytes().to_vec()), *add)
//!     }
//!     fn decode(r: &RecordedEvent) -> Result<u32, String> {
//!         Ok(u32::from_le_bytes(r.payload[..].try_into().map_err(|_| "four bytes".to_string())?))
//!     }
//!     fn event(add: &u32) -> &u32 {
//!         add
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! let log = EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default())?;
//! let runner: Runner<Counter, _> = Runner::new(log, std::sync::Arc::new(SystemEnvironment));
//! let ann = "ann".to_string();
//! let added = runner.execute(Request::new("c-1", "req-1", &ann, &7)).await?;
//! assert_eq!((added.sequence, added.duplicate), (1, false));
//! // A retry answers the original outcome; the same id for another command is refused.
//! assert!(runner.execute(Request::new("c-1", "req-1", &ann, &7)).await?.duplicate);
//! assert!(runner.execute(Request::new("c-1", "req-1", &ann, &1)).await.is_err());
//! assert!(runner.execute(Request::new("c-1", "req-2", &ann, &4)).await.is_err(), "7 + 4 > 10");
//! assert_eq!(runner.read("c-1", |count, _| *count).await?, 7);
//! # Ok(())
//! # }
//! ```
//!
//! # Invariants
//!
//! * The runner decides nothing: every rule is in [`Aggregate::decide`]. It knows no protobuf: the
//!   codec ([`Aggregate::encode`], [`Aggregate::decode`]) belongs to the aggregate's edge.
//! * Every append names the expected last sequence and the command id.
//! * A rejection, a refused duplicate and an infrastructure fault append nothing. After an
//!   `Unavailable` append (unknown outcome) the cached state is dropped and rebuilt from the log.
//! * An aggregate whose log does not decode or fold is never acted on ([`RunError::Corrupt`]).

mod aggregate;
mod rejection;
mod runner;

pub use aggregate::{Aggregate, COMMAND_DIGEST, Context, Decided, EventMeta, default_digest};
pub use rejection::RejectionKind;
pub use runner::{MAX_CONFLICT_RETRIES, Outcome, Request, RunError, Runner, RunnerConfig};
pub use weiqi_eventlog::{Environment, Sleep, SystemEnvironment};
pub use weiqi_time::{DurationMs, Millis};
