//! Domain ⇄ `weiqi.v1` protobuf, written once, split by concept. Only this module (and the stored-event
//! codec in it) knows the wire types of games; the domain never does.
//!
//! | file | what |
//! | --- | --- |
//! | `basics.rs` | colors, points, lag reports, actors |
//! | `rules.rs` | rulesets, time controls, clock banks and readings |
//! | `setup.rs` | players and the game setup (`GameCreated`, `CreateGameRequest`) |
//! | `results.rs` | outcomes, reasons, results and counts |
//! | `events.rs` | every game event |
//! | `stored.rs` | stored envelopes: encode, decode and fold, and hiding what a role may not see |
//! | `commands.rs` | commands both ways (requests and the bus) |
//! | `replies.rs` | command outcomes and rejections on the wire |
//! | `view.rs` | the game view |
//!
//! Enum pairs are written once each with [`wire_enum!`]: a value the server does not know is refused
//! with the field and the value, never replaced by a default.

/// A message that does not decode into the domain.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot decode {what}: {why}")]
pub struct DecodeError {
    /// What was being decoded.
    pub what: &'static str,
    /// Why it failed.
    pub why: String,
}

pub(crate) fn err<T>(what: &'static str, why: impl Into<String>) -> Result<T, DecodeError> {
    Err(DecodeError { what, why: why.into() })
}

pub(crate) fn need<'a, T>(v: &'a Option<T>, what: &'static str) -> Result<&'a T, DecodeError> {
    v.as_ref().ok_or(DecodeError { what, why: "missing".into() })
}

pub(crate) fn bytes32(b: &[u8], what: &'static str) -> Result<[u8; 32], DecodeError> {
    b.try_into().map_err(|_| DecodeError { what, why: format!("{} bytes, expected 32", b.len()) })
}

/// One domain enum and its wire enum, both ways: `$to(domain) -> wire` and `$from(i32) -> domain`,
/// refusing unspecified and unknown values with the field's name.
macro_rules! wire_enum {
    ($(#[$doc:meta])* $to:ident, $from:ident, $what:literal, $domain:ty => $wire:ty { $($d:path => $w:path),+ $(,)? }) => {
        $(#[$doc])*
        pub fn $to(v: $domain) -> $wire {
            match v { $($d => $w),+ }
        }

        $(#[$doc])*
        pub fn $from(raw: i32) -> Result<$domain, crate::convert::DecodeError> {
            match <$wire>::try_from(raw) {
                $(Ok($w) => Ok($d),)+
                _ => Err(crate::convert::DecodeError {
                    what: $what,
                    why: format!("{raw} is not a value this server knows"),
                }),
            }
        }
    };
}

mod basics;
mod commands;
mod events;
mod replies;
mod results;
mod rules;
mod setup;
mod stored;
mod view;

pub use basics::{actor_from_pb, actor_to_pb, color_from_pb, color_to_pb, lag_from_pb, point_from_pb, point_to_pb};
pub use commands::{command_from_kind, command_from_pb, command_to_pb, wire_command};
pub use events::{event_from_pb, event_to_pb};
pub use replies::{accepted_to_pb, error_rejection, rejection_to_pb, reply_from_pb, reply_to_pb};
pub use results::{outcome_from_pb, outcome_to_pb, result_to_pb, score_to_pb};
pub use rules::{ruleset_from_pb, ruleset_to_pb, time_control_from_pb, time_control_to_pb};
pub use setup::{setup_from_request, setup_to_request};
pub use stored::{decode_recorded, envelope, fold_recorded, recorded_from_pb, recorded_to_pb, redact};
pub use view::view;

#[cfg(test)]
mod tests;
