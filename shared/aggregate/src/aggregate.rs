//! What an aggregate gives the runner: its pure decider and evolver, and the codec of its events.

use std::fmt;

use sha2::{Digest, Sha256};
use weiqi_eventlog::{AggregateKind, NewEvent, RecordedEvent};
use weiqi_time::Millis;

/// The header every appended event carries: the digest of the command and its actor
/// ([`Aggregate::digest`]), so a retry can be told from another command reusing its id.
pub const COMMAND_DIGEST: &str = "weiqi-command-digest";

/// What a decision may use besides the state and the command: the aggregate's id, the server time and,
/// when the aggregate asks for it ([`Aggregate::needs_random`]), 32 random bytes. Both come from the
/// [`crate::Environment`], so `decide` stays pure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context<'a> {
    /// The aggregate's id.
    pub aggregate: &'a str,
    /// Server time of the decision.
    pub now: Millis,
    /// Random bytes (zero unless asked for).
    pub random: [u8; 32],
}

/// What the codec knows about an event it encodes.
pub struct EventMeta<'a, A: Aggregate + ?Sized> {
    /// The aggregate's id.
    pub aggregate: &'a str,
    /// The sequence the event will have.
    pub sequence: u64,
    /// Server time of the decision.
    pub at: Millis,
    /// The command's id.
    pub command_id: &'a str,
    /// The command's correlation id (empty if none).
    pub correlation_id: &'a str,
    /// Who issued the command.
    pub actor: &'a A::Actor,
    /// A fresh id for the event.
    pub event_id: String,
}

/// What [`Aggregate::decide_and_fold`] gives: the events decided and the state with them folded in, or
/// the rejection.
pub type Decided<A> = Result<(Vec<<A as Aggregate>::Event>, <A as Aggregate>::State), <A as Aggregate>::Rejection>;

/// An event-sourced aggregate: a pure decider over its folded state, and the codec of its events.
///
/// `decide` and `evolve` are pure (no IO, no clock, no unseeded randomness); the codec is the only
/// place that knows the stored encoding (protobuf).
pub trait Aggregate: Send + Sync + 'static {
    /// The log the aggregate lives in.
    const KIND: AggregateKind;
    /// A short name for metrics and traces (`game`, `tournament`, `player`, `ledger`, `case`).
    const NAME: &'static str;
    /// The folded state.
    type State: Default + Clone + Send + Sync + 'static;
    /// Who issues commands (`Debug` must be deterministic: it goes into the command digest).
    type Actor: fmt::Debug + Send + Sync;
    /// A command (`Debug` must be deterministic: no hash maps).
    type Command: fmt::Debug + Send + Sync;
    /// An event.
    type Event: Send + Sync;
    /// What a stored event decodes to: the event with whatever replies carry beside it (its sequence,
    /// time, cause), or the event itself.
    type Stored: Clone + Send + Sync + 'static;
    /// Why a command is refused.
    type Rejection: Send;

    /// Decides `command` from `actor` against `state`.
    ///
    /// # Errors
    /// The rejection; nothing is appended.
    fn decide(
        state: &Self::State,
        actor: &Self::Actor,
        command: &Self::Command,
        ctx: &Context<'_>,
    ) -> Result<Vec<Self::Event>, Self::Rejection>;

    /// Folds one event into the state.
    ///
    /// # Errors
    /// Why the event does not fit the state (a log that does not replay).
    fn evolve(state: &mut Self::State, event: &Self::Event) -> Result<(), String>;

    /// The rejection for a decision whose events do not fold into the state (a bug in `decide`).
    fn inconsistent(reason: String) -> Self::Rejection;

    /// [`Self::decide`], then the events folded into a copy of the state: what the runner appends and
    /// caches next. An aggregate whose decider already folds (to check its own events) overrides this
    /// to avoid folding twice.
    ///
    /// # Errors
    /// The rejection, or [`Self::inconsistent`] if an event does not fold.
    fn decide_and_fold(
        state: &Self::State,
        actor: &Self::Actor,
        command: &Self::Command,
        ctx: &Context<'_>,
    ) -> Decided<Self> {
        let events = Self::decide(state, actor, command, ctx)?;
        let mut next = state.clone();
        for event in &events {
            Self::evolve(&mut next, event).map_err(Self::inconsistent)?;
        }
        Ok((events, next))
    }

    /// Whether deciding `command` needs random bytes ([`Context::random`]).
    fn needs_random(_command: &Self::Command) -> bool {
        false
    }

    /// The digest of a command and its actor, stored with its events ([`COMMAND_DIGEST`]).
    fn digest(actor: &Self::Actor, command: &Self::Command) -> String {
        default_digest(actor, command)
    }

    /// Encodes an event for the log, with what a reply carries of it.
    fn encode(event: &Self::Event, meta: &EventMeta<'_, Self>) -> (NewEvent, Self::Stored);

    /// Decodes a stored event.
    ///
    /// # Errors
    /// Why the stored bytes are not an event of this aggregate.
    fn decode(recorded: &RecordedEvent) -> Result<Self::Stored, String>;

    /// The event a stored event holds (to fold it).
    fn event(stored: &Self::Stored) -> &Self::Event;
}

/// SHA-256 of the actor's and the command's `Debug` forms, in hex.
pub fn default_digest(actor: &impl fmt::Debug, command: &impl fmt::Debug) -> String {
    let mut h = Sha256::new();
    h.update(format!("{actor:?}").as_bytes());
    h.update([0]);
    h.update(format!("{command:?}").as_bytes());
    hex::encode(h.finalize())
}
