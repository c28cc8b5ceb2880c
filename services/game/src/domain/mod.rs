//! The pure game domain: [`decide`] a command against a [`GameState`], [`GameState::evolve`] the state
//! with the events. Nothing here is async, reads a clock, or knows protobuf, NATS or Redis.

pub mod broadcast;
mod command;
mod decide;
mod event;
mod ids;
mod note;
mod recorded;
mod rejection;
mod state;

pub use broadcast::SpectatorDelay;
pub use command::Command;
pub use decide::{ABSENCE_CLAIM, decide, decide_and_fold, nigiri_stones, rank_value};
pub use event::{
    ClockSnapshot, ColorMethod, CycleRulingExt, EndReason, GameEvent, GameResult, GameSetup, LagReport, OutageReason,
    Outcome, PlayerRef, SideClock, TournamentRef, VoidGround, types,
};
pub use ids::{Actor, GameId, PlayerId};
pub use note::{Note, NoteKind};
pub use recorded::Recorded;
pub use rejection::{Rejection, RejectionKind};
pub use state::{Corrupt, GameState, Lateness, Nigiri, Phase, Proposal, side};
