//! The pure ranking domain: the three aggregates' deciders and evolvers, and why a request is refused.
//!
//! * [`player`]: a player's log — registry entry, grades held per ladder, rating and rank history.
//! * [`ledger`]: the rating ledger — the rating book of the configured system, one entry per input,
//!   and the rating changes each entry records in the players' logs.
//! * [`case`]: certification cases — the rating core's case decider, one order of commands at a time.
//! * [`RankingRejection`]: every refusal, with a stable code and a kind.
//!
//! Nothing here is async, reads a clock, does IO, or knows protobuf: time is a parameter, and a
//! decision that changes nothing decides no events.

pub mod actor;
pub mod case;
pub mod ledger;
pub mod player;
pub mod rejection;

pub use actor::{Actor, ActorKind};
pub use case::CaseOrder;
pub use ledger::{LedgerCommand, LedgerEntry, LedgerState};
pub use player::{
    BANDS, DeclaredGrade, Holding, PlayerCommand, PlayerEvent, PlayerState, Profile, ProposalRecord, RankBasis,
    RankEntry, RatingPoint,
};
pub use rejection::{RankingRejection, RejectionKind};
/// The rating core's refusals a [`RankingRejection`] carries (for pages to say them in their words).
pub use weiqi_rating::{CaseRejection, RatingRejection};
