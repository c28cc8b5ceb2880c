//! Why a command fails. The `Display` text of each variant is the GTP error message, worded as
//! GNU Go 3.8 words it wherever GNU Go has the same failure, so that controllers written against
//! GNU Go read our errors the same way.

use weiqi_rules::Illegal;

/// A failed command: answered `? message`, and the engine carries on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The command name is not one this engine knows.
    #[error("unknown command")]
    UnknownCommand,
    /// A color argument is missing or is not `b`, `black`, `w` or `white`.
    #[error("invalid color")]
    InvalidColor,
    /// A vertex argument is missing, malformed or off the board.
    #[error("invalid coordinate")]
    InvalidCoordinate,
    /// A move argument (color and vertex) is missing or malformed.
    #[error("invalid color or coordinate")]
    InvalidMove,
    /// The rules refuse the move (the reason is kept for callers; the message stays GTP's).
    #[error("illegal move")]
    IllegalMove(Illegal),
    /// `countlib` on an empty point.
    #[error("vertex must not be empty")]
    EmptyVertex,
    /// `boardsize` without an integer.
    #[error("boardsize not an integer")]
    BoardsizeNotInteger,
    /// `boardsize` outside 2..=25.
    #[error("unacceptable size")]
    UnacceptableSize,
    /// `komi` without a number.
    #[error("komi not a float")]
    KomiNotFloat,
    /// `komi` that is not a whole number of half points (or absurdly large).
    #[error("komi must be a multiple of 0.5")]
    KomiNotHalfPoints,
    /// `undo` with no move to take back.
    #[error("cannot undo")]
    CannotUndo,
    /// A handicap command on a board that already holds stones.
    #[error("board not empty")]
    BoardNotEmpty,
    /// A handicap count that is not an integer.
    #[error("handicap not an integer")]
    HandicapNotInteger,
    /// A handicap count or placement the board cannot take.
    #[error("invalid handicap")]
    InvalidHandicap,
    /// `set_free_handicap` naming a vertex twice.
    #[error("repeated vertex")]
    RepeatedVertex,
    /// `final_status_list` without a status.
    #[error("missing status")]
    MissingStatus,
    /// `final_status_list` with a status other than `alive`, `dead` or `seki`.
    #[error("invalid status")]
    InvalidStatus,
    /// `loadsgf` without a file name.
    #[error("missing filename")]
    MissingFilename,
    /// `loadsgf` whose file cannot be read, parsed or replayed.
    #[error("cannot open or parse '{file}': {reason}")]
    CannotLoad {
        /// The file named.
        file: String,
        /// What went wrong.
        reason: String,
    },
    /// `loadsgf` with a second argument that is neither a move number nor a vertex.
    #[error("invalid move number or vertex")]
    InvalidUntil,
    /// `printsgf` could not write its file.
    #[error("cannot write '{file}': {reason}")]
    CannotWrite {
        /// The file named.
        file: String,
        /// What went wrong.
        reason: String,
    },
    /// `time_settings` without three integers.
    #[error("not three integers")]
    NotThreeIntegers,
    /// `time_left` without a time and a stone count.
    #[error("time and stones not two integers")]
    NotTwoIntegers,
    /// `known_command` without a name.
    #[error("missing command name")]
    MissingCommandName,
}
