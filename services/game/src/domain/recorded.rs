//! A game event as the log holds it: the event with its place in the log, its time, its cause and who
//! caused it. Replies, watchers and followers see events in this form.

use weiqi_clock::Millis;

use super::event::GameEvent;
use super::ids::Actor;

/// One stored game event.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// Its sequence in the game's log (1-based).
    pub sequence: u64,
    /// A unique id.
    pub event_id: String,
    /// Server time of the decision that produced it.
    pub at: Millis,
    /// The command that caused it.
    pub causation: String,
    /// The correlation id the command carried (empty if none).
    pub correlation: String,
    /// Who issued the command.
    pub actor: Actor,
    /// The event.
    pub event: GameEvent,
}
