//! Commands: what players, referees and services ask of a game.

use weiqi_rules::{Color, Move, Point};

use super::event::{GameSetup, LagReport, Outcome};

/// A command to one game. The actor and the server time come alongside, to [`super::decide`].
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Create the game. `nigiri_secret` is drawn by the service (the only randomness) and recorded
    /// through its commitment, so the draw can be checked afterwards.
    Create {
        /// The setup.
        setup: Box<GameSetup>,
        /// 32 random bytes for nigiri (ignored for fixed colours).
        nigiri_secret: [u8; 32],
    },
    /// The guesser's nigiri guess: even (two stones shown) or odd (one).
    GuessNigiri {
        /// True for even.
        even: bool,
    },
    /// Start the clock (a player, referee or the scheduler).
    Start,
    /// Play a stone (or pass) as the player to move.
    Play {
        /// The move.
        mv: Move,
        /// The move number the client expects this to be (0 = unchecked).
        expected_number: u32,
        /// Lag report for bounded compensation.
        lag: Option<LagReport>,
    },
    /// Resign.
    Resign,
    /// Propose dead chains (one point per chain).
    MarkDead {
        /// Points of dead chains.
        points: Vec<Point>,
    },
    /// Accept the current proposal.
    AcceptScore,
    /// Dispute the current proposal: play resumes (Art. 21.4).
    DisputeScore,
    /// Seal a move and adjourn (the player to move).
    Seal {
        /// The sealed move.
        mv: Move,
        /// Lag report.
        lag: Option<LagReport>,
    },
    /// Art. 22.5: count an overrun of the last period as a pass.
    RequestPassOnOverrun,
    /// Referee: warn a side (Art. 24).
    Warn {
        /// The side.
        color: Color,
        /// Why.
        reason: String,
    },
    /// Referee: swap colours (Art. 17.1, up to move 10).
    SwapColours,
    /// Referee: the last move is void and its player forfeits the turn (Art. 17.2, 18.3, 19).
    VoidLastMove {
        /// Why.
        reason: String,
    },
    /// Referee: pause.
    Pause {
        /// Why.
        reason: String,
    },
    /// Referee: resume after a pause.
    Resume,
    /// Referee: resume an adjourned game; the sealed move is revealed and played.
    ResumeAdjourned,
    /// Referee: decide the result.
    Adjudicate {
        /// The ruling.
        outcome: Outcome,
        /// Why.
        note: String,
    },
    /// Referee: set the clocks (Art. 22.8). `None` leaves a side unchanged.
    CorrectClock {
        /// Black's new time.
        black: Option<weiqi_clock::Bank>,
        /// White's new time.
        white: Option<weiqi_clock::Bank>,
        /// Why.
        reason: String,
    },
    /// Referee: a side arrived late by `late` (Art. 22).
    ReportLateness {
        /// The late side.
        color: Color,
        /// How late.
        late: weiqi_clock::DurationMs,
    },
    /// Clock service: the player to move has flagged.
    ExpireTime,
}
