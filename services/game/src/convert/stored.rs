//! Stored game events: the envelope every event is appended in, decoded back into the domain and folded
//! (for the runner, and for followers that read the log directly: the overlay, the record, the export,
//! the clock service), and what a role may see of it.

use prost::Message;
use weiqi_clock::Millis;
use weiqi_eventlog::RecordedEvent;
use weiqi_proto::v1 as pb;

use super::basics::{actor_from_pb, actor_to_pb};
use super::events::{event_from_pb, event_to_pb};
use super::{DecodeError, need};
use crate::domain::{Actor, GameEvent, GameState, Recorded};

/// The envelope a game event is stored in.
#[allow(clippy::too_many_arguments, reason = "an envelope is these fields, each named at the call")]
pub fn envelope(
    game_id: &str,
    sequence: u64,
    at: Millis,
    causation: &str,
    correlation: &str,
    actor: &Actor,
    event_id: String,
    event: &GameEvent,
) -> pb::EventEnvelope {
    pb::EventEnvelope {
        event_id,
        game_id: game_id.to_string(),
        sequence,
        server_time_ms: at.0,
        causation_id: causation.to_string(),
        correlation_id: correlation.to_string(),
        actor: Some(actor_to_pb(actor)),
        event: Some(event_to_pb(event)),
    }
}

/// A recorded event as the wire carries it, with what `viewer` may not see cleared ([`redact`]).
pub fn recorded_to_pb(game_id: &str, r: &Recorded, viewer: &Actor) -> pb::EventEnvelope {
    let mut e =
        envelope(game_id, r.sequence, r.at, &r.causation, &r.correlation, &r.actor, r.event_id.clone(), &r.event);
    if !viewer.sees_hidden() {
        redact(&mut e);
    }
    e
}

/// A wire envelope into the domain.
pub fn recorded_from_pb(e: &pb::EventEnvelope) -> Result<Recorded, DecodeError> {
    Ok(Recorded {
        sequence: e.sequence,
        event_id: e.event_id.clone(),
        at: Millis(e.server_time_ms),
        causation: e.causation_id.clone(),
        correlation: e.correlation_id.clone(),
        actor: actor_from_pb(need(&e.actor, "envelope actor")?)?,
        event: event_from_pb(need(&e.event, "envelope event")?)?,
    })
}

/// Decodes one stored event (an encoded `EventEnvelope`).
pub fn decode_recorded(r: &RecordedEvent) -> Result<Recorded, String> {
    let envelope = pb::EventEnvelope::decode(r.payload.clone()).map_err(|e| format!("sequence {}: {e}", r.sequence))?;
    recorded_from_pb(&envelope).map_err(|e| format!("sequence {}: {e}", r.sequence))
}

/// Folds one stored event into `state`: decoded, then evolved (position hashes re-checked). The error
/// says why the log does not replay.
pub fn fold_recorded(state: &mut GameState, r: &RecordedEvent) -> Result<(), String> {
    let recorded = decode_recorded(r)?;
    state.evolve(&recorded.event).map_err(|e| format!("sequence {}: {e}", r.sequence))
}

/// Hides what a client may not see yet: the nigiri secret before the reveal and the sealed move
/// before resumption. Referees and services see everything ([`Actor::sees_hidden`]).
pub fn redact(envelope: &mut pb::EventEnvelope) {
    use pb::game_event::Kind as K;
    match envelope.event.as_mut().and_then(|e| e.kind.as_mut()) {
        Some(K::NigiriCommitted(n)) => n.secret.clear(),
        Some(K::Adjourned(a)) => {
            a.sealed_point = None;
            a.sealed_pass = false;
        }
        _ => {}
    }
}
