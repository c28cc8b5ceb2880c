//! The tournament's events: the only facts. State is a fold of these through [`crate::evolve`].

use crate::config::{ByeKind, TournamentConfig};
use crate::ids::{GameRef, Millis, PlayerId, TeamId};
use crate::outcome::GameResult;
use crate::registration::Registration;
use crate::weights::EdgeCost;
use serde::{Deserialize, Serialize};

/// How a game's colors were decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ColorBy {
    /// The player with more games as Black takes White.
    Balance,
    /// Equal balance: each takes the color opposite to their last game.
    Alternation,
    /// Equal in every way: a recorded random draw (online nigiri) from the tournament seed.
    Nigiri,
    /// A handicap game: the weaker player takes Black.
    Handicap,
    /// Read from the Berger table.
    Berger,
    /// Fixed by the organiser.
    Organiser,
    /// Team match: the home team holds Black on odd boards.
    BoardOrder,
}

impl ColorBy {
    /// Its name in exports and read models (`balance`, `board-order`).
    pub fn name(self) -> &'static str {
        match self {
            ColorBy::Balance => "balance",
            ColorBy::Alternation => "alternation",
            ColorBy::Nigiri => "nigiri",
            ColorBy::Handicap => "handicap",
            ColorBy::Berger => "berger",
            ColorBy::Organiser => "organiser",
            ColorBy::BoardOrder => "board-order",
        }
    }
}

/// Why a player has no game in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ByeReason {
    /// The odd player of a Swiss/McMahon/elimination round.
    Pairing,
    /// The player asked to sit out (organiser's bye).
    Requested,
    /// A round-robin rest (odd group) or an opponent whose results were voided.
    Rest,
    /// A knockout bye: advances without playing (top seeds; an opponent who lost by both-lose).
    Advance,
}

/// A player without a game in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bye {
    /// The player.
    pub player: PlayerId,
    /// How it scores.
    pub kind: ByeKind,
    /// Why.
    pub reason: ByeReason,
}

/// A team match within a round; its boards are games with the same `match_no`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatch {
    /// 1-based within the round.
    pub match_no: u32,
    /// Holds Black on odd boards.
    pub home: TeamId,
    /// Holds White on odd boards.
    pub away: TeamId,
}

/// Which board of which team match a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamBoard {
    /// The match within the round.
    pub match_no: u32,
    /// The board, from 1.
    pub board: u32,
}

/// One game as paired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedGame {
    /// Table within the round, from 1.
    pub table: u32,
    /// Black.
    pub black: PlayerId,
    /// White.
    pub white: PlayerId,
    /// Handicap stones (0 even, 1 = 让先 no komi, 2–9 placed stones).
    pub handicap: u8,
    /// How colors were decided.
    #[serde(rename = "colour_by")] // the JSON form keeps the name earlier versions wrote
    pub color_by: ColorBy,
    /// The pairing criteria values of this pair (Swiss/McMahon and loss-group eliminations).
    pub cost: Option<EdgeCost>,
    /// Fixed by the organiser rather than by the pairing.
    pub fixed: bool,
    /// The team match and board, in team events.
    pub team_board: Option<TeamBoard>,
    /// The group, in a group stage (0-based).
    pub group: Option<u32>,
}

/// Which part of the event a round belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// The whole event is one stage.
    Main,
    /// Group round robin.
    Groups,
    /// Knockout after groups.
    Knockout,
}

/// An entry of a knockout bracket, in bracket order: winners of neighbouring slots meet next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BracketSlot {
    /// The game at this table.
    Game(u32),
    /// This player advances without a game.
    Through(PlayerId),
    /// Nobody advances (both lost, or no one was there).
    Empty,
}

/// Why a player left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WithdrawalReason {
    /// The player asked.
    Request,
    /// Too many no-shows.
    NoShows,
    /// Disqualified by the referee (Art. 23).
    Disqualified,
}

/// The Art. 28 ruling applied to a withdrawal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WithdrawalRuling {
    /// Round robin, fewer than half the rounds played: all the player's results are void.
    ResultsVoid,
    /// Round robin (half or more), team and match play, knockout: results stand, the rest are forfeits.
    ResultsStandRestForfeited,
    /// Swiss/McMahon: results stand and the player is no longer paired; opponents' tie-breaks count
    /// the unplayed rounds at A points each (seed 004, Art. 29.3).
    ResultsStandNotPaired,
}

/// Why a result was changed after the fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Correction {
    /// Cheating established later (Art. 23.1): even after later rounds were paired.
    Cheating,
    /// A recording error corrected by the referee.
    RecordingError,
}

/// Who won the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Champion {
    /// A player.
    Player(PlayerId),
    /// A team.
    Team(TeamId),
    /// Nobody (e.g. a win-and-continue contest ending in a draw).
    None,
}

/// Everything that can happen to a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TournamentEvent {
    /// The tournament was created (the seed of every random choice is in the config).
    Created {
        /// Configuration.
        config: TournamentConfig,
        /// When.
        at: Millis,
    },
    /// A player entered (a snapshot of their name, rank, club, region and EGD PIN).
    PlayerRegistered {
        /// The snapshot.
        registration: Registration,
    },
    /// A player's registration changed (names, club, region, country, rating, PIN; the rank only
    /// before the first round was paired).
    PlayerEdited {
        /// The registration now.
        registration: Registration,
    },
    /// A player who was never placed in a round left the field.
    PlayerRemoved {
        /// The player.
        player: PlayerId,
    },
    /// The last round's pairing was taken back (no game of it had a result).
    RoundUnpaired {
        /// The round.
        round: u32,
        /// How many games the pairing taken back had (their game records are closed).
        tables: u32,
    },
    /// A bye granted for a round not yet paired was taken back.
    ByeCancelled {
        /// The round.
        round: u32,
        /// The player.
        player: PlayerId,
    },
    /// The director changed what may change mid-event (rounds, bars, tie-break order).
    SettingsChanged {
        /// The format now.
        format: crate::config::Format,
        /// The ranking criteria now.
        ranking: Vec<crate::standings::TieBreak>,
        /// When.
        at: Millis,
    },
    /// A team entered with its roster in board order.
    TeamRegistered {
        /// The team.
        team: TeamId,
        /// Its name.
        name: String,
        /// Members, in board order.
        members: Vec<PlayerId>,
    },
    /// Lots were drawn (from the seed): they number round-robin tables, break seeding ties and
    /// decide the last tie-break.
    LotsDrawn {
        /// Player lots.
        players: Vec<(PlayerId, u64)>,
        /// Team lots.
        teams: Vec<(TeamId, u64)>,
    },
    /// Registration closed and play began.
    Started {
        /// When.
        at: Millis,
    },
    /// These two must not be paired (family, team-mates): in one round, or in every round.
    PairForbidden {
        /// One player.
        a: PlayerId,
        /// The other.
        b: PlayerId,
        /// The one round it holds for; `None` (as every forbid was before): every round.
        #[serde(default)]
        round: Option<u32>,
    },
    /// A forbidden pairing was lifted.
    PairAllowed {
        /// One player.
        a: PlayerId,
        /// The other.
        b: PlayerId,
    },
    /// The organiser fixed a game of a coming round by hand.
    PairingFixed {
        /// The round.
        round: u32,
        /// Black.
        black: PlayerId,
        /// White.
        white: PlayerId,
    },
    /// The organiser gave a player a bye in a coming round.
    ByeGranted {
        /// The round.
        round: u32,
        /// The player.
        player: PlayerId,
        /// Full-point or zero-point (or half-point).
        kind: ByeKind,
    },
    /// A team's line-up for a round (临场出人制).
    LineUpSubmitted {
        /// The round.
        round: u32,
        /// The team.
        team: TeamId,
        /// Players in board order.
        players: Vec<PlayerId>,
    },
    /// A round was paired.
    RoundPaired {
        /// The round, from 1.
        round: u32,
        /// The stage.
        stage: Stage,
        /// The games.
        games: Vec<PairedGame>,
        /// Players without a game.
        byes: Vec<Bye>,
        /// Team matches (team events).
        team_matches: Vec<TeamMatch>,
        /// Knockout bracket order (knockout stages).
        bracket: Vec<BracketSlot>,
        /// Teams without a match this round (odd number of teams).
        team_byes: Vec<TeamId>,
    },
    /// A result came in.
    ResultRecorded {
        /// The game.
        game: GameRef,
        /// The result.
        result: GameResult,
        /// When.
        at: Millis,
    },
    /// A result was changed after the fact; standings recompute.
    ResultCorrected {
        /// The game.
        game: GameRef,
        /// The new result.
        result: GameResult,
        /// Why.
        reason: Correction,
        /// When.
        at: Millis,
    },
    /// A player did not appear in time for a game.
    NoShowRecorded {
        /// The player.
        player: PlayerId,
        /// The game.
        game: GameRef,
    },
    /// A warning (Art. 24) was recorded; fewer warnings rank first (Art. 27 B).
    WarningIssued {
        /// The player.
        player: PlayerId,
        /// The game.
        game: GameRef,
    },
    /// A player withdrew.
    PlayerWithdrawn {
        /// The player.
        player: PlayerId,
        /// Rounds paired when they left.
        after_round: u32,
        /// Why.
        reason: WithdrawalReason,
        /// The Art. 28 ruling.
        ruling: WithdrawalRuling,
    },
    /// A player reached the elimination loss count.
    PlayerEliminated {
        /// The player.
        player: PlayerId,
        /// In this round.
        round: u32,
    },
    /// A just-eliminated player was kept in to keep the field even (Swiss plus elimination).
    PlayerReprieved {
        /// The player.
        player: PlayerId,
        /// Before this round.
        round: u32,
    },
    /// Every game of a round has a result.
    RoundCompleted {
        /// The round.
        round: u32,
    },
    /// The event is over.
    Finished {
        /// The winner, where the format has one.
        champion: Champion,
    },
}
