//! The ranking service's stored events ⇄ `weiqi.v1` protobuf, once; the edge where protobuf meets the
//! domain.
//!
//! Every stored event is an encoded `weiqi.v1.RankingEnvelope` (event id, server time, causation,
//! actor) with a typed body:
//!
//! * [`player`]: player events (registrations, rating and rank changes, proposals), the messages other
//!   services and the projector consume; also the messages the gateway's views share with them.
//! * [`ledger`]: rating-ledger entries ⇄ `RatingLedgerEntry` ([`crate::domain::LedgerEntry`]: a
//!   [`weiqi_rating::RatingInput`] and the [`weiqi_rating::RatingEvent`]s it produced).
//! * [`case`]: [`weiqi_rating::CaseEvent`]s ⇄ `CertificationCaseEvent`, with their evidence, automatic
//!   checks and certificates.
//! * [`results`]: tournaments' final results ⇄ `weiqi.v1.RankingResults` (the results port's body).
//!
//! The event type names are the constants below.
//!
//! Writing cannot fail. Reading a stored message fails with a [`CodecError`] that names the field
//! (`message.field`, as in the `.proto` file) when a message the domain always has is missing, a
//! `oneof` is empty, a number does not fit the domain's type, or an enum holds a value this version
//! does not know (`*_UNSPECIFIED` included): an unknown value is never replaced by a default. A stored
//! event that cannot be read at all is a [`DecodeError`] naming the aggregate and the sequence.
//!
//! Every `f64` is a protobuf `double`, stored as its IEEE-754 bits: ratings come back bit for bit.
//! The doubles have explicit presence (`optional double`), always written and required when read:
//! prost skips an implicit-presence double equal to `0.0`, which `-0.0` is (tokio-rs/prost#1177).
//!
//! # Upgrade path
//!
//! Earlier versions wrote ledger entries and case events as the rating core's serde JSON
//! (`VersionedJson`, schema [`LEDGER_TYPE`] or [`CASE_TYPE`], version 1). [`read_ledger`] and
//! [`read_case`] still read those bodies, so logs written before keep replaying; nothing writes them
//! any more. The JSON kept every `f64` bit for bit too (serde_json's `float_roundtrip`).

pub mod case;
pub mod ledger;
pub mod player;
pub mod results;

use prost::Message;
use weiqi_eventlog::RecordedEvent;
use weiqi_proto::v1 as pb;
use weiqi_rating::Millis;

pub use case::{case_event, case_event_from_pb, case_event_to_pb, read_case};
pub use ledger::{ledger_entry_from_pb, ledger_entry_to_pb, ledger_event, read_ledger};
pub use player::{player_event, read_player};
pub use results::{BadResults, results_from_pb, results_pb};

use crate::domain::ActorKind;

/// Event type of a ledger entry.
pub const LEDGER_TYPE: &str = "weiqi.rating.LedgerEntry";
/// Event type of a case event.
pub const CASE_TYPE: &str = "weiqi.rating.CaseEvent";
/// Event type of a player's registration.
pub const PLAYER_REGISTERED: &str = "weiqi.v1.PlayerRegistered";
/// Event type of a profile update.
pub const PLAYER_PROFILE_UPDATED: &str = "weiqi.v1.PlayerProfileUpdated";
/// Event type of a rating change in a player's log.
pub const RATING_CHANGED: &str = "weiqi.v1.RatingChanged";
/// Event type of a grade change in a player's log.
pub const RANK_CHANGED: &str = "weiqi.v1.RankChanged";
/// Event type of a promotion proposal in a player's log.
pub const PROMOTION_PROPOSED: &str = "weiqi.v1.PromotionProposed";
/// Event type of [`crate::domain::PlayerEvent::Invited`].
pub const PLAYER_INVITED: &str = "weiqi.v1.PlayerInvited";
/// Event type of [`crate::domain::PlayerEvent::InvitationAccepted`].
pub const PLAYER_INVITATION_ACCEPTED: &str = "weiqi.v1.PlayerInvitationAccepted";
/// Event type of [`crate::domain::PlayerEvent::MergedInto`].
pub const PLAYER_MERGED_INTO: &str = "weiqi.v1.PlayerMergedInto";
/// Event type of [`crate::domain::PlayerEvent::Absorbed`].
pub const PLAYER_ABSORBED: &str = "weiqi.v1.PlayerAbsorbed";
/// Event type of tournament results for ranking.
pub const RESULTS_TYPE: &str = "weiqi.v1.RankingResults";

/// The envelope fields of an event to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    /// The command.
    pub causation: String,
    /// Who.
    pub actor: ActorKind,
    /// Their id.
    pub actor_id: String,
    /// Server time.
    pub at: Millis,
}

/// A stored event that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind} {id} sequence {sequence}: {reason}")]
pub struct DecodeError {
    /// Aggregate kind.
    pub kind: String,
    /// Aggregate id.
    pub id: String,
    /// Sequence.
    pub sequence: u64,
    /// What is wrong.
    pub reason: String,
}

pub(crate) fn decode_error(r: &RecordedEvent, reason: impl Into<String>) -> DecodeError {
    DecodeError {
        kind: r.kind.to_string(),
        id: r.aggregate_id.to_string(),
        sequence: r.sequence,
        reason: reason.into(),
    }
}

/// The envelope of an event with its id.
pub(crate) fn envelope(meta: &Meta, event_id: String, body: pb::ranking_envelope::Body) -> pb::RankingEnvelope {
    let kind = match meta.actor {
        ActorKind::Player => pb::actor::Kind::Player,
        ActorKind::Staff => pb::actor::Kind::Organiser,
        ActorKind::System => pb::actor::Kind::System,
    };
    pb::RankingEnvelope {
        event_id,
        server_time_ms: meta.at.0,
        causation_id: meta.causation.clone(),
        actor: Some(pb::Actor { kind: kind as i32, id: meta.actor_id.clone() }),
        body: Some(body),
    }
}

/// A fresh event id (for events written outside the runner, which draws its own).
pub(crate) fn fresh_event_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// The envelope of a stored event.
pub(crate) fn open_envelope(r: &RecordedEvent) -> Result<pb::RankingEnvelope, DecodeError> {
    pb::RankingEnvelope::decode(r.payload.clone()).map_err(|e| decode_error(r, e.to_string()))
}

/// The body of a stored event.
pub(crate) fn open(r: &RecordedEvent) -> Result<pb::ranking_envelope::Body, DecodeError> {
    open_envelope(r)?.body.ok_or_else(|| decode_error(r, "empty envelope"))
}

/// The upgrade path: a body an earlier version wrote as the rating core's serde JSON.
pub(crate) fn read_legacy_json<T: serde::de::DeserializeOwned>(
    r: &RecordedEvent,
    j: &pb::VersionedJson,
    schema: &str,
    version: u32,
) -> Result<T, DecodeError> {
    if j.schema != schema || j.version != version {
        return Err(decode_error(r, format!("expected {schema} v{version}, found {} v{}", j.schema, j.version)));
    }
    serde_json::from_slice(&j.json).map_err(|e| decode_error(r, format!("{schema}: {e}")))
}

pub use weiqi_proto::codec::CodecError;
pub(crate) use weiqi_proto::codec::{EnumPairs, required};
