//! Why a command was refused: values a caller can act on.

use crate::ids::{GameRef, PlayerId, TeamId};
use crate::swiss::PairingError;
use serde::{Deserialize, Serialize};

/// A refused command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum Rejection {
    /// The tournament does not exist yet.
    #[error("the tournament has not been created")]
    NotCreated,
    /// `Create` on an existing tournament.
    #[error("the tournament already exists")]
    AlreadyCreated,
    /// The configuration is unusable.
    #[error("invalid configuration: {0}")]
    InvalidConfig(ConfigProblem),
    /// Registration is closed for this format.
    #[error("registration is closed")]
    RegistrationClosed,
    /// The player id is already registered.
    #[error("{0} is already registered")]
    AlreadyRegistered(PlayerId),
    /// The team id is already registered.
    #[error("{0} is already registered")]
    TeamAlreadyRegistered(TeamId),
    /// No such player.
    #[error("{0} is not registered")]
    UnknownPlayer(PlayerId),
    /// No such team.
    #[error("{0} is not registered")]
    UnknownTeam(TeamId),
    /// The player belongs to another team (or twice to this one).
    #[error("{0} cannot be in this team")]
    PlayerInAnotherTeam(PlayerId),
    /// Already started.
    #[error("the tournament has already started")]
    AlreadyStarted,
    /// Not started yet.
    #[error("the tournament has not started")]
    NotStarted,
    /// Too few entrants for the format.
    #[error("{needed} entrants are needed, {have} registered")]
    TooFewEntrants {
        /// Needed.
        needed: usize,
        /// Registered.
        have: usize,
    },
    /// The event is over.
    #[error("the tournament is finished")]
    Finished,
    /// The previous round still has games without results.
    #[error("round {0} is not complete")]
    RoundIncomplete(u32),
    /// The command names a round other than the next one.
    #[error("round {0} is not the next round")]
    NotNextRound(u32),
    /// No such game.
    #[error("no game {0}")]
    UnknownGame(GameRef),
    /// The game already has a result (use a correction).
    #[error("game {0} already has a result")]
    AlreadyRecorded(GameRef),
    /// The game has no result yet (nothing to correct).
    #[error("game {0} has no result yet")]
    NotRecorded(GameRef),
    /// The player is not in that game.
    #[error("{0} does not play in that game")]
    NotInGame(PlayerId),
    /// Knockout-family formats need a decisive result; a draw or void game is replayed.
    #[error("this format needs a decisive result; replay the game")]
    DecisiveResultRequired,
    /// The no-show limit has not passed yet.
    #[error("the no-show limit has not passed ({remaining_ms} ms left)")]
    NoShowTooEarly {
        /// Milliseconds until it passes.
        remaining_ms: i64,
    },
    /// The player has already withdrawn.
    #[error("{0} has withdrawn")]
    Withdrawn(PlayerId),
    /// This command does not apply to this format.
    #[error("not available in this format")]
    NotInThisFormat,
    /// The player already has a game, bye or fixed pairing in that round.
    #[error("{0} is already placed in that round")]
    AlreadyPlaced(PlayerId),
    /// A player cannot be paired with themselves.
    #[error("a player cannot meet themselves")]
    SamePlayer,
    /// Lifting a forbid that is not there.
    #[error("{0} and {1} are not forbidden to meet")]
    NotForbidden(PlayerId, PlayerId),
    /// A team match cannot start without this team's line-up.
    #[error("{0} has not submitted a line-up")]
    LineUpMissing(TeamId),
    /// The line-up does not fit the rules (size, members).
    #[error("invalid line-up for {0}")]
    InvalidLineUp(TeamId),
    /// The pairing failed.
    #[error("pairing failed: {0}")]
    Pairing(PairingError),
    /// A rank changes only before the first round is paired.
    #[error("the rank of {0} is fixed once a round is paired")]
    RankFixed(PlayerId),
    /// The player was placed in a round: they withdraw instead of being removed.
    #[error("{0} has played in the event; withdraw them instead")]
    AlreadyPlayed(PlayerId),
    /// No bye was granted to the player for that round, or the round is paired already.
    #[error("{0} has no bye to take back in that round")]
    NoByeToCancel(PlayerId),
    /// A change of settings this event cannot take: another kind of format, fewer rounds than those
    /// paired, bars while a round is open, or a change of a format that has none to change.
    #[error("this change cannot be made now: {0}")]
    SettingsFixed(&'static str),
    /// Only the last round may be unpaired, and only while none of its games has a result.
    #[error("round {0} cannot be unpaired: it is not the last round, or a game of it has a result")]
    CannotUnpair(u32),
}

/// What is wrong with a configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum ConfigProblem {
    /// A count (rounds, cycles, losses, groups, boards, wins) is zero.
    #[error("a count is zero")]
    ZeroCount,
    /// Points must satisfy win > draw ≥ loss ≥ 0.
    #[error("points must satisfy win > draw >= loss >= 0")]
    Points,
    /// The ranking list is empty.
    #[error("no ranking criteria")]
    NoRanking,
    /// McMahon bars are upside down.
    #[error("the McMahon top bar is below the bottom bar")]
    Bars,
}
