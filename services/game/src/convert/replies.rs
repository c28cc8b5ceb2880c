//! Command outcomes on the wire: the reply a gateway or the bus gives, and back.

use weiqi_proto::v1 as pb;

use super::stored::{recorded_from_pb, recorded_to_pb};
use crate::domain::{Actor, Rejection};
use crate::service::{Accepted, GameError};

/// A rejection on the wire, with its kind, stable code and message.
pub fn rejection_to_pb(r: &Rejection) -> pb::Rejection {
    weiqi_edge::status::rejection(r.kind(), r.code(), r.to_string())
}

/// An error as a typed rejection, if it is one (a fault is not).
pub fn error_rejection(e: &GameError) -> Option<pb::Rejection> {
    let invalid = |code: &str, message: String| pb::Rejection {
        kind: pb::rejection::Kind::InvalidArgument as i32,
        code: code.to_string(),
        message,
    };
    match e {
        GameError::Rejected(r) => Some(rejection_to_pb(r)),
        GameError::Refused { kind, code, message } => Some(pb::Rejection {
            kind: weiqi_edge::status::kind_to_pb(*kind) as i32,
            code: code.clone(),
            message: message.clone(),
        }),
        GameError::RequestIdReused { .. } => Some(invalid("request_id_reused", e.to_string())),
        GameError::BadRequest { code, message } => Some(invalid(code, message.clone())),
        GameError::Unavailable(_) | GameError::Internal(_) => None,
    }
}

/// The accepted reply for `viewer`: what they may not see is cleared.
pub fn accepted_to_pb(game_id: &str, a: &Accepted, viewer: &Actor) -> pb::CommandReply {
    pb::CommandReply {
        events: a.events.iter().map(|r| recorded_to_pb(game_id, r, viewer)).collect(),
        duplicate: a.duplicate,
        sequence: a.sequence,
    }
}

/// A command's outcome as the bus carries it.
pub fn reply_to_pb(game_id: &str, result: &Result<Accepted, GameError>, viewer: &Actor) -> pb::GameCommandReply {
    use pb::game_command_reply::Outcome as O;
    let outcome = match result {
        Ok(a) => O::Accepted(accepted_to_pb(game_id, a, viewer)),
        Err(e) => match error_rejection(e) {
            Some(r) => O::Rejected(r),
            None => match e {
                GameError::Internal(why) => O::Internal(why.clone()),
                _ => O::Unavailable(e.to_string()),
            },
        },
    };
    pb::GameCommandReply { outcome: Some(outcome) }
}

/// A reply from the bus back into the domain.
pub fn reply_from_pb(reply: pb::GameCommandReply) -> Result<Accepted, GameError> {
    use pb::game_command_reply::Outcome as O;
    match reply.outcome {
        Some(O::Accepted(a)) => {
            let events = a
                .events
                .iter()
                .map(recorded_from_pb)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| GameError::Internal(format!("reply: {e}")))?;
            Ok(Accepted { events, duplicate: a.duplicate, sequence: a.sequence, position: None })
        }
        Some(O::Rejected(r)) => Err(rejection_from_pb(r)),
        Some(O::Unavailable(why)) => Err(GameError::Unavailable(why)),
        Some(O::Internal(why)) => Err(GameError::Internal(why)),
        Some(O::View(_)) | None => Err(GameError::Internal("unexpected reply from the game service".into())),
    }
}

/// A rejection from the bus: its kind, code and message (the game service that refused kept the typed
/// reason).
fn rejection_from_pb(r: pb::Rejection) -> GameError {
    if r.code == "request_id_reused" {
        return GameError::RequestIdReused { other: None };
    }
    GameError::Refused { kind: weiqi_edge::status::kind_from_pb(r.kind), code: r.code, message: r.message }
}
