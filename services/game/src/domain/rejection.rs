//! Why a command is refused. Every variant is something a user can act on.

use weiqi_rules::Illegal;

use super::state::Phase;

/// How a rejection maps to a status: the kinds every service shares.
pub use weiqi_aggregate::RejectionKind;

/// A refused command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// The rules refuse the move.
    #[error("illegal move: {0}")]
    Illegal(Illegal),
    /// It is the other player's turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The actor is not a player of this game.
    #[error("you are not a player of this game")]
    NotAPlayer,
    /// Only a referee or organiser may do this.
    #[error("only a referee of this game's event may do this")]
    NotAReferee,
    /// Only the chief referee may correct one side's clock alone (Art. 22.8).
    #[error("a one-sided clock correction needs the chief referee")]
    NeedsChiefReferee,
    /// The mover's time had already run out when the move arrived.
    #[error("your time has expired")]
    TimeExpired,
    /// The client's move number is stale: someone moved since it looked.
    #[error("expected move {expected}, but the game is at move {actual}")]
    StaleMoveNumber {
        /// What the client expected.
        expected: u32,
        /// What it is.
        actual: u32,
    },
    /// The game does not exist.
    #[error("no such game")]
    NotFound,
    /// The game already exists.
    #[error("the game already exists")]
    AlreadyExists,
    /// The game is not in a phase that allows this.
    #[error("not allowed while the game is {0}")]
    WrongPhase(Phase),
    /// Colors may be corrected only up to and including move 10 (Art. 17.1).
    #[error("colors can only be swapped up to move 10")]
    SwapTooLate,
    /// There is no move to void.
    #[error("there is no move to void")]
    NothingToVoid,
    /// Only the guesser guesses nigiri.
    #[error("only the other player guesses nigiri")]
    NotTheGuesser,
    /// The clock has not run out.
    #[error("the clock has not run out")]
    NotExpired,
    /// A flag decided on a sequence the game has moved past (a move got in first).
    #[error("the clock flagged at sequence {seen}, but the game is at sequence {current}")]
    FlagOutdated {
        /// The sequence the clock saw.
        seen: u64,
        /// The game's sequence now.
        current: u64,
    },
    /// The event does not allow Art. 22.5 overrun passes.
    #[error("this event does not allow an overrun to count as a pass")]
    OverrunPassNotAllowed,
    /// Only the player to move seals.
    #[error("only the player to move seals a move")]
    NotTheSealer,
    /// A casual game has no referee to open a sealed move (Art. 14: adjournment is a referee's
    /// decision, or both players'): sealing is for games of an event.
    #[error("a casual game has no referee to open a sealed move: only games of an event are adjourned")]
    SealNeedsReferee,
    /// A claim of victory over an absent opponent in a game of an event: its referee decides.
    #[error("in a game of an event the referee decides about an absent opponent")]
    AbsenceClaimInEvent,
    /// The opponent has not been away long enough (or is here).
    #[error("the opponent has been away {away}, a claim needs {needed}")]
    OpponentNotAwayLongEnough {
        /// How long so far.
        away: weiqi_clock::DurationMs,
        /// How long a claim needs.
        needed: weiqi_clock::DurationMs,
    },
    /// The setup is not a valid game.
    #[error("invalid setup: {0}")]
    InvalidSetup(String),
    /// A point is not on the board.
    #[error("{0} is not a point on this board")]
    BadPoint(String),
    /// The clock refused the change.
    #[error("clock: {0}")]
    Clock(String),
    /// A dead-chain point holds no stone.
    #[error("{0} holds no stone")]
    NotAStone(String),
    /// A lateness report for a side already reported.
    #[error("{0}'s lateness has already been reported")]
    LatenessAlreadyReported(&'static str),
    /// A value outside its range (the field, and what is allowed).
    #[error("{field} is out of range: {allowed}")]
    OutOfRange {
        /// The field.
        field: &'static str,
        /// What is allowed.
        allowed: String,
    },
    /// An outage that no running clock overlaps (the clock was not running, or its time had run out
    /// before the outage began).
    #[error("no running clock to excuse for that outage")]
    NothingToExcuse,
    /// The offerer of a casual game tried to start it: the other player accepts it by starting it.
    #[error("this game is your offer: it starts when the other player accepts it")]
    OfferNotAccepted,
    /// A game id (or a tournament reference) that only the platform chooses.
    #[error("tournament games are created by the platform itself when a round is paired")]
    ReservedGameId,
    /// The events decided do not fold into the state: a bug, refused so that nothing unreadable is
    /// appended.
    #[error("the decision does not apply to the game ({0}); nothing was recorded")]
    Inconsistent(String),
}

impl Rejection {
    /// A stable, machine-readable code (status details, metrics labels).
    pub fn code(&self) -> &'static str {
        match self {
            Rejection::Illegal(i) => i.code(),
            Rejection::NotYourTurn => "not_your_turn",
            Rejection::NotAPlayer => "not_a_player",
            Rejection::NotAReferee => "not_a_referee",
            Rejection::NeedsChiefReferee => "needs_chief_referee",
            Rejection::TimeExpired => "time_expired",
            Rejection::StaleMoveNumber { .. } => "stale_move_number",
            Rejection::NotFound => "not_found",
            Rejection::AlreadyExists => "already_exists",
            Rejection::WrongPhase(_) => "wrong_phase",
            Rejection::SwapTooLate => "swap_too_late",
            Rejection::NothingToVoid => "nothing_to_void",
            Rejection::NotTheGuesser => "not_the_guesser",
            Rejection::NotExpired => "not_expired",
            Rejection::FlagOutdated { .. } => "flag_outdated",
            Rejection::OverrunPassNotAllowed => "overrun_pass_not_allowed",
            Rejection::NotTheSealer => "not_the_sealer",
            Rejection::SealNeedsReferee => "seal_needs_referee",
            Rejection::AbsenceClaimInEvent => "absence_claim_in_event",
            Rejection::OpponentNotAwayLongEnough { .. } => "opponent_not_away_long_enough",
            Rejection::InvalidSetup(_) => "invalid_setup",
            Rejection::BadPoint(_) => "bad_point",
            Rejection::Clock(_) => "clock",
            Rejection::NotAStone(_) => "not_a_stone",
            Rejection::LatenessAlreadyReported(_) => "lateness_already_reported",
            Rejection::OutOfRange { .. } => "out_of_range",
            Rejection::OfferNotAccepted => "offer_not_accepted",
            Rejection::NothingToExcuse => "nothing_to_excuse",
            Rejection::ReservedGameId => "reserved_game_id",
            Rejection::Inconsistent(_) => "inconsistent",
        }
    }

    /// How it maps to a gRPC status code.
    pub fn kind(&self) -> RejectionKind {
        match self {
            Rejection::InvalidSetup(_)
            | Rejection::BadPoint(_)
            | Rejection::NotAStone(_)
            | Rejection::OutOfRange { .. }
            | Rejection::ReservedGameId => RejectionKind::InvalidArgument,
            Rejection::Illegal(Illegal::OffBoard) => RejectionKind::InvalidArgument,
            Rejection::NotAPlayer | Rejection::NotAReferee | Rejection::NeedsChiefReferee => {
                RejectionKind::PermissionDenied
            }
            Rejection::NotFound => RejectionKind::NotFound,
            Rejection::AlreadyExists => RejectionKind::AlreadyExists,
            _ => RejectionKind::FailedPrecondition,
        }
    }
}
