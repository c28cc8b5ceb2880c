//! Commands: what players, referees and services ask of a game.

use weiqi_rules::{Color, Move, Point};

use super::event::{EndReason, GameSetup, LagReport, Outcome};

/// A command to one game. The actor and the server time come alongside, to [`super::decide`].
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Create the game. `nigiri_secret` is the only randomness: the runner draws it from its environment
    /// when the command is decided (whatever the caller put there is replaced, and it is not part of
    /// the command's digest), and the game records it through its commitment, so the draw can be
    /// checked afterwards.
    Create {
        /// The setup.
        setup: Box<GameSetup>,
        /// 32 random bytes for nigiri (ignored for fixed colors).
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
    /// A player of a casual game claims the win: the opponent has had no page open for `away` (the
    /// server measures it; issue 32 item 14). In a game of an event the referee decides instead.
    ClaimAbsence {
        /// How long the opponent has been away, as the server saw it.
        away: weiqi_clock::DurationMs,
    },
    /// Referee: warn a side (Art. 24).
    Warn {
        /// The side.
        color: Color,
        /// Why.
        reason: String,
    },
    /// Referee: swap colors (Art. 17.1, up to move 10).
    SwapColors,
    /// Referee: the last move is void and its player does not move again at once (Art. 17.2, 18.3,
    /// 19); the ground decides whether a warning follows.
    VoidLastMove {
        /// Why.
        reason: String,
        /// The article ruled on.
        ground: crate::domain::VoidGround,
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
        /// How the game ended, as the referee records it: `Referee` for a ruling, `Forfeit` for a game
        /// not played, `Resignation`, `Time` or `Score` for a result played over the board and entered
        /// by hand (a tournament desk).
        reason: EndReason,
        /// Why.
        note: String,
    },
    /// Referee or organiser: correct the result of an ended game (a recording error, a ruling after
    /// the game, cheating). The game record, and everything that follows the game's log (ratings,
    /// certification evidence), takes the corrected result.
    CorrectResult {
        /// The corrected outcome.
        outcome: Outcome,
        /// How the game ended, as corrected.
        reason: EndReason,
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
    /// Clock service: the player to move has flagged, as the clock saw the game at sequence `seen`.
    /// Decided on that sequence only: if anything was recorded since (a move got in first), the flag
    /// is refused and the clock re-reads the log.
    ExpireTime {
        /// The game's last sequence when the clock saw the deadline pass.
        seen: u64,
    },
    /// Clock service: the platform could not take a move from `from` to `to`; that time is no
    /// player's (the running clock resumes from `from`, the last moment a move could be taken).
    ExcuseOutage {
        /// The last moment the server could take a move.
        from: weiqi_clock::Millis,
        /// When it could again.
        to: weiqi_clock::Millis,
        /// Why it could not.
        reason: super::event::OutageReason,
    },
}

impl Command {
    /// A short name for metrics and traces (`create`, `play`, `pass`, `referee`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Command::Create { .. } => "create",
            Command::GuessNigiri { .. } => "guess_nigiri",
            Command::Start => "start",
            Command::Play { mv: weiqi_rules::Move::Pass, .. } => "pass",
            Command::Play { .. } => "play",
            Command::Resign => "resign",
            Command::MarkDead { .. } => "mark_dead",
            Command::AcceptScore => "accept_score",
            Command::DisputeScore => "dispute_score",
            Command::Seal { .. } => "seal",
            Command::RequestPassOnOverrun => "request_pass_on_overrun",
            Command::ClaimAbsence { .. } => "claim_absence",
            Command::ExpireTime { .. } => "expire_time",
            Command::ExcuseOutage { .. } => "excuse_outage",
            Command::Warn { .. }
            | Command::SwapColors
            | Command::VoidLastMove { .. }
            | Command::Pause { .. }
            | Command::Resume
            | Command::ResumeAdjourned
            | Command::Adjudicate { .. }
            | Command::CorrectResult { .. }
            | Command::CorrectClock { .. }
            | Command::ReportLateness { .. } => "referee",
        }
    }
}
