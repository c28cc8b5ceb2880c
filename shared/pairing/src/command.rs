//! What organisers, referees and the game service ask of a tournament.

use crate::config::{ByeKind, TournamentConfig};
use crate::event::{Correction, WithdrawalReason};
use crate::ids::{GameRef, Millis, PlayerId, TeamId};
use crate::outcome::GameResult;
use crate::registration::Registration;
use serde::{Deserialize, Serialize};

/// A request to change a tournament; [`crate::decide`] answers with events or a rejection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Create the tournament.
    Create {
        /// Configuration.
        config: TournamentConfig,
    },
    /// Register a player (before the start; Swiss and McMahon also accept late entries).
    Register {
        /// The snapshot to record.
        registration: Registration,
    },
    /// Register a team of already registered players, in board order.
    RegisterTeam {
        /// The team.
        team: TeamId,
        /// Its name.
        name: String,
        /// Members in board order.
        members: Vec<PlayerId>,
    },
    /// Close registration and draw the lots.
    Start,
    /// Forbid a pairing: for one round, or (`None`) for the whole event.
    ForbidPair {
        /// One player.
        a: PlayerId,
        /// The other.
        b: PlayerId,
        /// The one round it holds for (a round not paired yet); `None`: every round.
        round: Option<u32>,
    },
    /// Lift a forbidden pairing.
    AllowPair {
        /// One player.
        a: PlayerId,
        /// The other.
        b: PlayerId,
    },
    /// Fix a game of the next round by hand (Swiss/McMahon).
    FixPairing {
        /// The round (must be the next one).
        round: u32,
        /// Black.
        black: PlayerId,
        /// White.
        white: PlayerId,
    },
    /// Give a bye in the next round (Swiss/McMahon).
    GrantBye {
        /// The round (must be the next one).
        round: u32,
        /// The player.
        player: PlayerId,
        /// How it scores.
        kind: ByeKind,
    },
    /// Submit a team's line-up for the next round.
    SubmitLineUp {
        /// The round.
        round: u32,
        /// The team.
        team: TeamId,
        /// Players in board order.
        players: Vec<PlayerId>,
    },
    /// Pair the next round.
    PairRound,
    /// Record a game's result.
    RecordResult {
        /// The game.
        game: GameRef,
        /// The result.
        result: GameResult,
    },
    /// Forfeit the players of a game who made no move within the event's limit.
    ClaimNoShow {
        /// The game.
        game: GameRef,
        /// Who did not appear (one or both).
        absent: Vec<PlayerId>,
        /// When the game started.
        started_at: Millis,
    },
    /// Record a warning (Art. 24).
    IssueWarning {
        /// The game.
        game: GameRef,
        /// The warned player.
        player: PlayerId,
    },
    /// Withdraw a player (Art. 28).
    Withdraw {
        /// The player.
        player: PlayerId,
        /// Why.
        reason: WithdrawalReason,
    },
    /// Change a registered player's names, club, region, country, rating or EGD PIN; their rank
    /// only while no round is paired (the start scores and handicaps of paired rounds hang on it).
    EditPlayer {
        /// The registration as it should be (its `player` names whom).
        registration: Registration,
    },
    /// Take a player off the field who was never placed in a round (one who was withdraws).
    RemovePlayer {
        /// The player.
        player: PlayerId,
    },
    /// Take back the last round's pairing while none of its games has a result (Swiss and McMahon):
    /// the director adjusts (forbids, fixed games, byes) and pairs it again.
    UnpairRound {
        /// The round: the last paired one.
        round: u32,
    },
    /// Take back a bye granted for a round not yet paired (a player marked absent who came after all).
    CancelBye {
        /// The round.
        round: u32,
        /// The player.
        player: PlayerId,
    },
    /// Change what may change mid-event: a Swiss's or McMahon's number of rounds (not below those
    /// played), the McMahon bars (before a round is paired: between rounds), the tie-break order.
    ChangeSettings {
        /// The format as it should be (the same kind; its rounds or bars changed).
        format: crate::config::Format,
        /// The ranking criteria, in order.
        ranking: Vec<crate::standings::TieBreak>,
    },
    /// Change a result after the fact (Art. 23.1).
    CorrectResult {
        /// The game.
        game: GameRef,
        /// The new result.
        result: GameResult,
        /// Why.
        reason: Correction,
    },
}

impl Command {
    /// The command's name in snake case (`record_result`): a closed set, for metrics and logs.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Command::Create { .. } => "create",
            Command::Register { .. } => "register",
            Command::RegisterTeam { .. } => "register_team",
            Command::Start => "start",
            Command::ForbidPair { .. } => "forbid_pair",
            Command::AllowPair { .. } => "allow_pair",
            Command::FixPairing { .. } => "fix_pairing",
            Command::GrantBye { .. } => "grant_bye",
            Command::SubmitLineUp { .. } => "submit_line_up",
            Command::PairRound => "pair_round",
            Command::RecordResult { .. } => "record_result",
            Command::ClaimNoShow { .. } => "claim_no_show",
            Command::IssueWarning { .. } => "issue_warning",
            Command::Withdraw { .. } => "withdraw",
            Command::EditPlayer { .. } => "edit_player",
            Command::RemovePlayer { .. } => "remove_player",
            Command::UnpairRound { .. } => "unpair_round",
            Command::ChangeSettings { .. } => "change_settings",
            Command::CancelBye { .. } => "cancel_bye",
            Command::CorrectResult { .. } => "correct_result",
        }
    }
}
