//! Game events: what happened, in the domain's own types. `convert.rs` maps them to and from
//! `weiqi.v1.GameEvent` once, at the edge.

use weiqi_clock::{DurationMs, Millis, TimeControl};
use weiqi_rules::{Color, Move, Point, Ruleset, Score};

use super::ids::PlayerId;

/// A player as the game knows them, frozen at creation.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PlayerRef {
    /// Registry id.
    pub id: PlayerId,
    /// Display name.
    pub name: String,
    /// Rank as text (`5d`, `3k`, `9p`).
    pub rank: String,
}

/// How colors are decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorMethod {
    /// The first player takes Black (handicap games, organiser's draw).
    Fixed,
    /// Nigiri (Art. 10), verifiable: commit, guess, reveal.
    Nigiri,
}

/// The game's tournament, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRef {
    /// Tournament id.
    pub id: String,
    /// Round number.
    pub round: u32,
    /// Board (table) number.
    pub board: u32,
}

/// Everything fixed when the game is created.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSetup {
    /// The ruleset, komi included (0 in handicap games unless set).
    pub ruleset: Ruleset,
    /// Board size.
    pub size: u8,
    /// Handicap stones (1 = 让先).
    pub handicap: u8,
    /// Free placement: the points Black chose (empty for fixed placement on the star points).
    pub handicap_points: Vec<Point>,
    /// The players (colors decided by [`ColorMethod`]).
    pub first: PlayerRef,
    /// The second player.
    pub second: PlayerRef,
    /// How colors are decided.
    pub color_method: ColorMethod,
    /// The time control.
    pub time_control: TimeControl,
    /// The tournament, if any.
    pub tournament: Option<TournamentRef>,
    /// The event whose referees may act on this game.
    pub event_id: Option<String>,
    /// When the game is scheduled to start.
    pub scheduled_start: Option<Millis>,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// Start as soon as colors are decided.
    pub start_immediately: bool,
    /// Lateness beyond this forfeits (Art. 22: 1 h, or 15 min at the same venue).
    pub lateness_limit: DurationMs,
    /// A casual game: how long the opponent may be away before a player may claim the win (`None`:
    /// [`crate::domain::ABSENCE_CLAIM`]).
    pub absence_claim: Option<DurationMs>,
    /// The player who offered this casual game (created it as a player): it starts only when the
    /// other player accepts (starts it). `None`: created by staff or the platform.
    pub offered_by: Option<PlayerId>,
    /// How late spectators see the game (`None`: live; issue 34 item 1).
    pub spectator_delay: Option<super::broadcast::SpectatorDelay>,
}

/// How a game ended (RULES.md section 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Black wins.
    BlackWins,
    /// White wins.
    WhiteWins,
    /// Drawn.
    Draw,
    /// Both lose (Art. 17.5, 22.3).
    BothLose,
    /// No result (e.g. a cycle under Japanese rules).
    NoResult,
    /// The game is to be replayed.
    Replay,
}

impl Outcome {
    /// The win for `color`.
    pub fn win(color: Color) -> Outcome {
        match color {
            Color::Black => Outcome::BlackWins,
            Color::White => Outcome::WhiteWins,
        }
    }

    /// The winner, if one side won.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::BlackWins => Some(Color::Black),
            Outcome::WhiteWins => Some(Color::White),
            _ => None,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Counted.
    Score,
    /// A player resigned.
    Resignation,
    /// A player's time ran out.
    Time,
    /// Forfeit (no-show, misconduct).
    Forfeit,
    /// A second warning (Art. 24).
    Warnings,
    /// A referee's decision.
    Referee,
    /// Lateness beyond the limit (Art. 22).
    Lateness,
    /// A whole-board repetition ruled by the cycle rule (Art. 20).
    Cycle,
}

/// The result of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Who won, or what else.
    pub outcome: Outcome,
    /// Why.
    pub reason: EndReason,
    /// The count, when counted.
    pub score: Option<Score>,
}

impl GameResult {
    /// The SGF `RE` form: `B+1.5`, `W+R`, `B+T`, `B+F`, `Draw`, `Void`.
    pub fn to_sgf(&self) -> String {
        if let Some(s) = &self.score
            && self.reason == EndReason::Score
        {
            return s.result.to_sgf();
        }
        match self.outcome.winner() {
            Some(c) => {
                let how = match self.reason {
                    EndReason::Resignation => "R",
                    EndReason::Time => "T",
                    EndReason::Score => "",
                    _ => "F",
                };
                format!("{}+{how}", c.letter())
            }
            None => match self.outcome {
                Outcome::Draw => "Draw".into(),
                _ => "Void".into(),
            },
        }
    }
}

/// What a client said about its lag, as the clock core takes it.
pub type LagReport = weiqi_clock::LagReport;

/// One side's clock as recorded with a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SideClock {
    /// Main time left.
    pub main: DurationMs,
    /// Byo-yomi periods left (the current one included).
    pub periods_left: u32,
    /// Time left in the current period.
    pub period_left: DurationMs,
    /// Moves left in the current period.
    pub moves_left: u32,
}

/// Both clocks as recorded with a move (informational: replay recomputes the clock from timestamps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ClockSnapshot {
    /// Black's clock.
    pub black: SideClock,
    /// White's clock.
    pub white: SideClock,
}

/// One game event.
#[derive(Clone, Debug, PartialEq)]
pub enum GameEvent {
    /// The game exists.
    Created(Box<GameSetup>),
    /// The holder commits to a hidden handful of stones: SHA-256 of a secret.
    NigiriCommitted {
        /// The higher-ranked player, who holds the stones.
        holder: PlayerId,
        /// SHA-256 of the secret.
        commitment: [u8; 32],
        /// The secret itself, kept in the log (the only source of truth) and hidden from clients by the
        /// gateway until [`GameEvent::NigiriRevealed`].
        secret: [u8; 32],
    },
    /// The other player guesses odd (one stone shown) or even (two).
    NigiriGuessed {
        /// The guesser.
        guesser: PlayerId,
        /// True for even.
        even: bool,
    },
    /// The secret is revealed; anyone can check it against the commitment and recount.
    NigiriRevealed {
        /// The secret.
        secret: [u8; 32],
        /// Stones in the hand, derived from the secret.
        stones: u32,
        /// Whether the guess was right (the guesser then takes Black).
        guess_correct: bool,
    },
    /// Colors are decided.
    ColorsDecided {
        /// Black.
        black: PlayerId,
        /// White.
        white: PlayerId,
        /// How: fixed by the setup, or by the nigiri just revealed.
        method: ColorMethod,
    },
    /// Handicap stones are on the board.
    HandicapPlaced {
        /// Their points.
        points: Vec<Point>,
    },
    /// The clock starts.
    Started {
        /// Server time.
        at: Millis,
    },
    /// A stone is played.
    StonePlayed {
        /// Who played.
        color: Color,
        /// Where.
        point: Point,
        /// Opponent stones captured.
        captures: Vec<Point>,
        /// Own stones removed by a multi-stone suicide.
        suicided: Vec<Point>,
        /// The board hash after the move; replay checks it.
        hash: u64,
        /// Move number (1-based; passes count).
        number: u32,
        /// Server time.
        at: Millis,
        /// The client's lag report.
        lag: Option<LagReport>,
        /// Under simple ko, the move repeated a position.
        cycle: bool,
        /// The sealed move of an adjournment (already charged on the clock).
        from_sealed: bool,
        /// Both clocks after the move.
        clock: Option<ClockSnapshot>,
    },
    /// A pass.
    Passed {
        /// Who passed.
        color: Color,
        /// Move number.
        number: u32,
        /// Server time.
        at: Millis,
        /// The client's lag report.
        lag: Option<LagReport>,
        /// Both clocks after the pass.
        clock: Option<ClockSnapshot>,
    },
    /// A player resigned.
    Resigned {
        /// Who.
        color: Color,
        /// Server time.
        at: Millis,
    },
    /// A referee's warning (Art. 24).
    WarningIssued {
        /// The warned side.
        color: Color,
        /// Why.
        reason: String,
        /// That side's warnings in this game, this one included.
        count: u32,
    },
    /// The other player accepted an offered casual game (it starts once its colors are decided).
    OfferAccepted {
        /// Who accepted.
        by: PlayerId,
    },
    /// Colors corrected (Art. 17.1).
    ColorsSwapped,
    /// A move is void and the player forfeits the turn (Art. 17.2, 18.3, 19).
    MoveVoided {
        /// The player.
        color: Color,
        /// The voided move.
        mv: Move,
        /// Why.
        reason: String,
        /// The move had been played and is taken back (else it was refused).
        taken_back: bool,
        /// The referee's ground (RULES.md § 3); `Unspecified` for a move the server refused by itself
        /// and for rulings recorded before grounds were named.
        ground: VoidGround,
        /// Server time.
        at: Millis,
    },
    /// Paused (Art. 14).
    Paused {
        /// Why.
        reason: String,
        /// Server time.
        at: Millis,
    },
    /// Resumed after a pause or an adjournment.
    Resumed {
        /// Server time.
        at: Millis,
    },
    /// Adjourned with a sealed move (hidden from the opponent until revealed).
    Adjourned {
        /// The player who sealed.
        sealer: Color,
        /// The sealed move.
        sealed: Move,
        /// Server time.
        at: Millis,
        /// The client's lag report.
        lag: Option<LagReport>,
    },
    /// The sealed move is revealed on resumption.
    SealedMoveRevealed {
        /// The sealer.
        sealer: Color,
        /// The move.
        mv: Move,
        /// Server time.
        at: Millis,
    },
    /// Two passes: the count begins.
    ScoringStarted {
        /// Server time.
        at: Millis,
    },
    /// When the count begins, the estimator's proposal of dead stones: a suggestion for both players to
    /// accept or correct, never a decision.
    DeadStonesSuggested {
        /// Every stone taken for dead.
        points: Vec<Point>,
        /// Stones taken for seki.
        seki: Vec<Point>,
    },
    /// A side proposes the dead chains.
    DeadChainsMarked {
        /// Who proposes.
        by: Color,
        /// One point per chain.
        points: Vec<Point>,
    },
    /// A side accepts the proposal.
    ScoreAccepted {
        /// Who.
        by: Color,
    },
    /// A side disputes the proposal (Art. 21.4).
    ScoreDisputed {
        /// Who.
        by: Color,
    },
    /// Play resumes after a dispute; the claimant moves first.
    PlayResumed {
        /// Who moves first.
        first: Color,
        /// Server time.
        at: Millis,
    },
    /// A side's time ran out.
    TimeExpired {
        /// Who.
        color: Color,
        /// The deadline that passed.
        deadline: Millis,
        /// Server time of the flag.
        at: Millis,
        /// Art. 22.5: counted as a pass instead of a loss.
        counted_as_pass: bool,
    },
    /// The platform could not take a move from `from` to `to`: the running clock did not run then
    /// (RULES.md, beside Art. 12: the server's outage is no player's time).
    OutageExcused {
        /// The last moment the server could take a move (never before the game's last event).
        from: Millis,
        /// When it could again.
        to: Millis,
        /// Why it could not.
        reason: OutageReason,
    },
    /// The result of an ended game was corrected (a recording error, a ruling after the game): the game's
    /// result from now on, wherever the game is read.
    ResultCorrected {
        /// The result before.
        previous: GameResult,
        /// The corrected result.
        result: GameResult,
        /// Why.
        note: String,
        /// When.
        at: Millis,
    },
    /// A referee set the clocks (Art. 22.8).
    ClockCorrected {
        /// New time for Black, if corrected.
        black: Option<weiqi_clock::Bank>,
        /// New time for White, if corrected.
        white: Option<weiqi_clock::Bank>,
        /// Why.
        reason: String,
        /// The referee who made it.
        referee: String,
        /// Whether the chief referee made it (needed for a one-sided correction).
        chief: bool,
        /// Server time.
        at: Millis,
    },
    /// Lateness penalised before the start (Art. 22): the late player has arrived.
    LatenessPenalised {
        /// Who was late.
        color: Color,
        /// How late.
        late: DurationMs,
        /// What it cost: deducted from main time (twice the lateness, Art. 22.1–2), or, in a fast game
        /// with no basic time, the byo-yomi that ran while they were absent (Art. 22.4).
        deducted: DurationMs,
        /// Art. 22.4: `deducted` ran off the byo-yomi (else it came off main time).
        byo_yomi_ran: bool,
    },
    /// A player was later than the limit, or so late that the penalty leaves them no time (Art. 22.1–4).
    /// They lose by lateness once the opponent is known to be present (reported in time, or the game is
    /// started); both lose if the opponent is late beyond the limit too (Art. 22.3).
    LateBeyondLimit {
        /// Who.
        color: Color,
        /// How late.
        late: DurationMs,
    },
    /// Art. 22.5: the player asks that an overrun count as a pass.
    PassOnOverrunRequested {
        /// Who.
        color: Color,
    },
    /// The game is over.
    Ended {
        /// The result.
        result: GameResult,
        /// Dead chains agreed at the count.
        dead: Vec<Point>,
        /// A referee's ruling: the reason given; empty otherwise.
        note: String,
        /// Server time.
        at: Millis,
    },
}

impl GameEvent {
    /// The protobuf message name, stored as the event type in the log (one of [`types`]).
    pub fn type_name(&self) -> &'static str {
        match self {
            GameEvent::Created(_) => types::GAME_CREATED,
            GameEvent::NigiriCommitted { .. } => types::NIGIRI_COMMITTED,
            GameEvent::NigiriGuessed { .. } => types::NIGIRI_GUESSED,
            GameEvent::NigiriRevealed { .. } => types::NIGIRI_REVEALED,
            GameEvent::ColorsDecided { .. } => types::COLORS_DECIDED,
            GameEvent::HandicapPlaced { .. } => types::HANDICAP_PLACED,
            GameEvent::Started { .. } => types::GAME_STARTED,
            GameEvent::StonePlayed { .. } => types::STONE_PLAYED,
            GameEvent::Passed { .. } => types::PASSED,
            GameEvent::Resigned { .. } => types::RESIGNED,
            GameEvent::WarningIssued { .. } => types::WARNING_ISSUED,
            GameEvent::OfferAccepted { .. } => types::OFFER_ACCEPTED,
            GameEvent::ColorsSwapped => types::COLORS_SWAPPED,
            GameEvent::MoveVoided { .. } => types::MOVE_VOIDED,
            GameEvent::Paused { .. } => types::PAUSED,
            GameEvent::Resumed { .. } => types::RESUMED,
            GameEvent::Adjourned { .. } => types::ADJOURNED,
            GameEvent::SealedMoveRevealed { .. } => types::SEALED_MOVE_REVEALED,
            GameEvent::ScoringStarted { .. } => types::SCORING_STARTED,
            GameEvent::DeadStonesSuggested { .. } => types::DEAD_STONES_SUGGESTED,
            GameEvent::DeadChainsMarked { .. } => types::DEAD_CHAINS_MARKED,
            GameEvent::ScoreAccepted { .. } => types::SCORE_ACCEPTED,
            GameEvent::ScoreDisputed { .. } => types::SCORE_DISPUTED,
            GameEvent::PlayResumed { .. } => types::PLAY_RESUMED,
            GameEvent::TimeExpired { .. } => types::TIME_EXPIRED,
            GameEvent::ClockCorrected { .. } => types::CLOCK_CORRECTED,
            GameEvent::OutageExcused { .. } => types::OUTAGE_EXCUSED,
            GameEvent::ResultCorrected { .. } => types::RESULT_CORRECTED,
            GameEvent::LatenessPenalised { .. } => types::LATENESS_PENALISED,
            GameEvent::LateBeyondLimit { .. } => types::LATE_BEYOND_LIMIT,
            GameEvent::PassOnOverrunRequested { .. } => types::PASS_ON_OVERRUN_REQUESTED,
            GameEvent::Ended { .. } => types::GAME_ENDED,
        }
    }
}

/// The event type names game events are stored under: constants of the crate that owns them, for
/// followers that pick events by type (the ranking service rates games on [`types::GAME_ENDED`]).
pub mod types {
    /// `GameCreated`.
    pub const GAME_CREATED: &str = "weiqi.v1.GameCreated";
    /// `NigiriCommitted`.
    pub const NIGIRI_COMMITTED: &str = "weiqi.v1.NigiriCommitted";
    /// `NigiriGuessed`.
    pub const NIGIRI_GUESSED: &str = "weiqi.v1.NigiriGuessed";
    /// `NigiriRevealed`.
    pub const NIGIRI_REVEALED: &str = "weiqi.v1.NigiriRevealed";
    /// `ColorsDecided`.
    pub const COLORS_DECIDED: &str = "weiqi.v1.ColorsDecided";
    /// `HandicapPlaced`.
    pub const HANDICAP_PLACED: &str = "weiqi.v1.HandicapPlaced";
    /// `GameStarted`.
    pub const GAME_STARTED: &str = "weiqi.v1.GameStarted";
    /// `StonePlayed`.
    pub const STONE_PLAYED: &str = "weiqi.v1.StonePlayed";
    /// `Passed`.
    pub const PASSED: &str = "weiqi.v1.Passed";
    /// `Resigned`.
    pub const RESIGNED: &str = "weiqi.v1.Resigned";
    /// `WarningIssued`.
    pub const WARNING_ISSUED: &str = "weiqi.v1.WarningIssued";
    /// `ColorsSwapped`.
    pub const COLORS_SWAPPED: &str = "weiqi.v1.ColorsSwapped";
    /// `OfferAccepted`.
    pub const OFFER_ACCEPTED: &str = "weiqi.v1.OfferAccepted";
    /// `OutageExcused`.
    pub const OUTAGE_EXCUSED: &str = "weiqi.v1.OutageExcused";
    /// `ResultCorrected`.
    pub const RESULT_CORRECTED: &str = "weiqi.v1.ResultCorrected";
    /// `MoveVoided`.
    pub const MOVE_VOIDED: &str = "weiqi.v1.MoveVoided";
    /// `Paused`.
    pub const PAUSED: &str = "weiqi.v1.Paused";
    /// `Resumed`.
    pub const RESUMED: &str = "weiqi.v1.Resumed";
    /// `Adjourned`.
    pub const ADJOURNED: &str = "weiqi.v1.Adjourned";
    /// `SealedMoveRevealed`.
    pub const SEALED_MOVE_REVEALED: &str = "weiqi.v1.SealedMoveRevealed";
    /// `ScoringStarted`.
    pub const SCORING_STARTED: &str = "weiqi.v1.ScoringStarted";
    /// `DeadStonesSuggested`.
    pub const DEAD_STONES_SUGGESTED: &str = "weiqi.v1.DeadStonesSuggested";
    /// `DeadChainsMarked`.
    pub const DEAD_CHAINS_MARKED: &str = "weiqi.v1.DeadChainsMarked";
    /// `ScoreAccepted`.
    pub const SCORE_ACCEPTED: &str = "weiqi.v1.ScoreAccepted";
    /// `ScoreDisputed`.
    pub const SCORE_DISPUTED: &str = "weiqi.v1.ScoreDisputed";
    /// `PlayResumed`.
    pub const PLAY_RESUMED: &str = "weiqi.v1.PlayResumed";
    /// `TimeExpired`.
    pub const TIME_EXPIRED: &str = "weiqi.v1.TimeExpired";
    /// `ClockCorrected`.
    pub const CLOCK_CORRECTED: &str = "weiqi.v1.ClockCorrected";
    /// `LatenessPenalised`.
    pub const LATENESS_PENALISED: &str = "weiqi.v1.LatenessPenalised";
    /// `LateBeyondLimit`.
    pub const LATE_BEYOND_LIMIT: &str = "weiqi.v1.LateBeyondLimit";
    /// `PassOnOverrunRequested`.
    pub const PASS_ON_OVERRUN_REQUESTED: &str = "weiqi.v1.PassOnOverrunRequested";
    /// `GameEnded`.
    pub const GAME_ENDED: &str = "weiqi.v1.GameEnded";
}

/// Why a referee voids the last move (RULES.md § 3): the article decides what follows. Online the
/// player whose move is void never plays again at once: the opponent is to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VoidGround {
    /// No ground named (a refused move, an older record).
    #[default]
    Unspecified,
    /// Art. 17.2: one side played twice in a row: the second move is void and the player is warned.
    DoubleMove,
    /// Art. 18.3: a ko retaken without a threat: void, the turn forfeited, a warning.
    KoWithoutThreat,
    /// Art. 19: a stone on a forbidden point: void, the turn forfeited.
    ForbiddenPoint,
}

impl VoidGround {
    /// Whether the ruling carries a warning (Art. 17.2, 18.3).
    #[must_use]
    pub fn warns(self) -> bool {
        matches!(self, VoidGround::DoubleMove | VoidGround::KoWithoutThreat)
    }

    /// Whether the record says the player forfeited a turn (Art. 18.3, 19). After a double move the
    /// turn simply passes to the opponent, whose turn it was.
    #[must_use]
    pub fn forfeits(self) -> bool {
        !matches!(self, VoidGround::DoubleMove)
    }

    /// The article, for the record (`None`: unspecified).
    #[must_use]
    pub fn article(self) -> Option<&'static str> {
        match self {
            VoidGround::Unspecified => None,
            VoidGround::DoubleMove => Some("17.2"),
            VoidGround::KoWithoutThreat => Some("18.3"),
            VoidGround::ForbiddenPoint => Some("19"),
        }
    }

    /// Its name in forms and on the wire's edge (`double-move`, `ko`, `forbidden-point`).
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            VoidGround::Unspecified => "unspecified",
            VoidGround::DoubleMove => "double-move",
            VoidGround::KoWithoutThreat => "ko",
            VoidGround::ForbiddenPoint => "forbidden-point",
        }
    }

    /// From [`VoidGround::key`].
    #[must_use]
    pub fn parse(key: &str) -> Option<VoidGround> {
        [VoidGround::Unspecified, VoidGround::DoubleMove, VoidGround::KoWithoutThreat, VoidGround::ForbiddenPoint]
            .into_iter()
            .find(|g| g.key() == key)
    }
}

/// The outcome a cycle ruling gives (Art. 20).
pub trait CycleRulingExt {
    /// No result, draw or replay.
    fn outcome(self) -> Outcome;
}

impl CycleRulingExt for weiqi_rules::CycleRuling {
    fn outcome(self) -> Outcome {
        match self {
            weiqi_rules::CycleRuling::NoResult => Outcome::NoResult,
            weiqi_rules::CycleRuling::Draw => Outcome::Draw,
            weiqi_rules::CycleRuling::Replay => Outcome::Replay,
        }
    }
}

/// Why the platform could not take a move for a while.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutageReason {
    /// The server was not running (killed, restarted).
    Restart,
    /// The server ran, but its event log could not be reached.
    LogUnavailable,
}

impl OutageReason {
    /// A stable name (`restart`, `log_unavailable`).
    pub fn name(self) -> &'static str {
        match self {
            OutageReason::Restart => "restart",
            OutageReason::LogUnavailable => "log_unavailable",
        }
    }
}
