//! The state of one game, rebuilt by folding its events ([`GameState::evolve`]).
//!
//! Folding checks the log as it goes: every stone must be legal under the game's rules and every
//! recorded position hash must equal the one the rules core computes; the clock must accept every
//! clock change. A mismatch is a [`Corrupt`] error, and a service refuses to act on such a game.

use std::fmt;

use weiqi_clock::{BySide, Clock, ClockEvent, CorrectionReason, ExpiryOutcome, Millis, Referee, RefereeRole, Side};
use weiqi_rules::{Color, Game, Illegal, Move, Point};

use super::event::{GameEvent, GameResult, GameSetup, PlayerRef};
use super::ids::PlayerId;

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// No event yet: the game does not exist.
    New,
    /// Created; colors are being decided by nigiri.
    Nigiri,
    /// Colors decided; waiting for the start.
    Ready,
    /// Play in progress.
    Playing,
    /// Paused by a referee (Art. 14).
    Paused,
    /// Adjourned with a sealed move.
    Adjourned,
    /// Two passes: dead chains are being agreed.
    Scoring,
    /// Over.
    Ended,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::New => "not created",
            Phase::Nigiri => "deciding colors by nigiri",
            Phase::Ready => "waiting to start",
            Phase::Playing => "in play",
            Phase::Paused => "paused",
            Phase::Adjourned => "adjourned",
            Phase::Scoring => "being counted",
            Phase::Ended => "over",
        })
    }
}

/// A log that does not replay: the game must not be acted on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Corrupt {
    /// A recorded position hash differs from the rules core's.
    #[error("move {number}: recorded position hash {recorded:#018x}, replay gives {replayed:#018x}")]
    HashMismatch {
        /// The move number.
        number: u32,
        /// What the event says.
        recorded: u64,
        /// What replay computes.
        replayed: u64,
    },
    /// A recorded move the rules refuse.
    #[error("move {number}: the log records an illegal move ({reason})")]
    IllegalMove {
        /// The move number.
        number: u32,
        /// Why.
        reason: Illegal,
    },
    /// The clock refuses a recorded change.
    #[error("clock: {0}")]
    Clock(String),
    /// An event that cannot follow the state (e.g. a move before creation).
    #[error("event {event} cannot follow a game that is {phase}")]
    OutOfPlace {
        /// The event type.
        event: &'static str,
        /// The phase.
        phase: Phase,
    },
}

/// The nigiri in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nigiri {
    /// Who holds the stones (the higher-ranked player).
    pub holder: PlayerId,
    /// Who guesses.
    pub guesser: PlayerId,
    /// SHA-256 of the secret.
    pub commitment: [u8; 32],
}

/// A side's lateness as reported by a referee before the start (Art. 22).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lateness {
    /// How late.
    pub late: weiqi_clock::DurationMs,
    /// Beyond the limit (or penalised out of all their time): they lose by lateness.
    pub beyond_limit: bool,
}

/// The current dead-chain proposal during scoring.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Proposal {
    /// Who proposed it (the claimant if it is disputed).
    pub by: Option<Color>,
    /// One point per dead chain.
    pub points: Vec<Point>,
    /// Who has accepted it (Black, White).
    pub accepted: [bool; 2],
}

/// Everything the deciders need to know about one game.
#[derive(Clone, Debug)]
pub struct GameState {
    /// The last sequence folded (0 before creation).
    pub version: u64,
    /// Where the game stands.
    pub phase: Phase,
    /// The setup, once created.
    pub setup: Option<Box<GameSetup>>,
    /// Black, once decided.
    pub black: Option<PlayerRef>,
    /// White, once decided.
    pub white: Option<PlayerRef>,
    /// The nigiri in progress.
    pub nigiri: Option<Nigiri>,
    /// The nigiri secret (recorded with the commitment, revealed after the guess).
    pub nigiri_secret: Option<[u8; 32]>,
    /// The position under the game's rules.
    pub game: Option<Game>,
    /// The clock.
    pub clock: Option<Clock>,
    /// Warnings per side (Black, White).
    pub warnings: [u32; 2],
    /// Moves made (stones and passes; voided moves not counted).
    pub move_number: u32,
    /// The dead-chain proposal during scoring.
    pub proposal: Proposal,
    /// The sealed move of an adjournment.
    pub sealed: Option<(Color, Move)>,
    /// The phase to return to after a pause.
    pub paused_from: Phase,
    /// The result, once ended.
    pub result: Option<GameResult>,
    /// A referee's ruling that ended the game: the reason given.
    pub ruling: Option<String>,
    /// Dead chains agreed at the count.
    pub dead: Vec<Point>,
    /// The last stone or pass: (color, move, whether a stone can be taken back).
    pub last_move: Option<(Color, Move)>,
    /// Server time of the last event with a timestamp.
    pub last_at: Millis,
    /// Lateness reported before the start, per side (Black, White).
    pub lateness: [Option<Lateness>; 2],
    /// An offered casual game was accepted by the other player (or has started).
    pub offer_accepted: bool,
    /// The referee's rulings and the turns of play a reader must be told about, in order.
    pub notes: Vec<super::note::Note>,
    /// Set between SealedMoveRevealed and the move it reveals.
    revealing: bool,
}

impl Default for GameState {
    fn default() -> GameState {
        GameState {
            version: 0,
            offer_accepted: false,
            phase: Phase::New,
            setup: None,
            black: None,
            white: None,
            nigiri: None,
            nigiri_secret: None,
            game: None,
            clock: None,
            warnings: [0, 0],
            move_number: 0,
            proposal: Proposal::default(),
            sealed: None,
            paused_from: Phase::Playing,
            result: None,
            ruling: None,
            dead: Vec::new(),
            last_move: None,
            last_at: Millis(0),
            lateness: [None, None],
            notes: Vec::new(),
            revealing: false,
        }
    }
}

/// The clock core's side for a color.
pub fn side(color: Color) -> Side {
    match color {
        Color::Black => Side::Black,
        Color::White => Side::White,
    }
}

/// The referee identity the clock records for system actions (scoring pauses).
fn system_referee() -> Referee {
    Referee { id: "system".into(), role: RefereeRole::Schedule }
}

impl GameState {
    /// Folds a whole log from the start.
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a GameEvent>) -> Result<GameState, Corrupt> {
        let mut state = GameState::default();
        for e in events {
            state.evolve(e)?;
        }
        Ok(state)
    }

    /// The color a player has in this game, if they play in it.
    pub fn color_of(&self, player: &PlayerId) -> Option<Color> {
        if self.black.as_ref().is_some_and(|p| &p.id == player) {
            Some(Color::Black)
        } else if self.white.as_ref().is_some_and(|p| &p.id == player) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Whether the player is one of the two (colors decided or not).
    /// Whether this is a casual game one player offered that the other has not accepted yet: not a
    /// game anyone plays (the lobby lists it as a challenge, not as a game in play).
    pub fn awaiting_acceptance(&self) -> bool {
        self.setup.as_ref().is_some_and(|s| s.offered_by.is_some())
            && !self.offer_accepted
            && matches!(self.phase, Phase::Nigiri | Phase::Ready)
    }

    /// Whether `player` sits at this game.
    pub fn is_player(&self, player: &PlayerId) -> bool {
        self.setup.as_ref().is_some_and(|s| &s.first.id == player || &s.second.id == player)
    }

    /// Whose turn it is on the board.
    pub fn to_move(&self) -> Option<Color> {
        self.game.as_ref().map(Game::to_move)
    }

    /// Who acts next, as players, spectators and the clock see it: the player to move, except while
    /// adjourned, when the sealer has moved (the sealed move waits to be revealed) and the opponent is
    /// the one whose clock runs on resumption.
    pub fn to_act(&self) -> Option<Color> {
        match (self.phase, self.sealed) {
            (Phase::Adjourned, Some((sealer, _))) => Some(sealer.opponent()),
            _ => self.to_move(),
        }
    }

    /// The side whose lateness forfeits the game once the opponent is present, if any.
    pub fn late_beyond_limit(&self) -> Option<Color> {
        [Color::Black, Color::White].into_iter().find(|c| self.lateness[c.index()].is_some_and(|l| l.beyond_limit))
    }

    fn game_mut(&mut self, event: &'static str) -> Result<&mut Game, Corrupt> {
        let phase = self.phase;
        self.game.as_mut().ok_or(Corrupt::OutOfPlace { event, phase })
    }

    fn clock_apply(&mut self, event: ClockEvent) -> Result<(), Corrupt> {
        if let Some(clock) = &self.clock {
            self.clock = Some(clock.apply(&event).map_err(|e| Corrupt::Clock(e.to_string()))?);
        }
        Ok(())
    }

    fn touch(&mut self, at: Millis) {
        if at > self.last_at {
            self.last_at = at;
        }
    }

    /// Folds one event. The version advances by one.
    pub fn evolve(&mut self, event: &GameEvent) -> Result<(), Corrupt> {
        let name = event.type_name();
        let out_of_place = |phase| Corrupt::OutOfPlace { event: name, phase };
        if self.phase == Phase::New && !matches!(event, GameEvent::Created(_)) {
            return Err(out_of_place(self.phase));
        }
        match event {
            GameEvent::Created(setup) => {
                if self.phase != Phase::New {
                    return Err(out_of_place(self.phase));
                }
                let mut game = Game::new(setup.size, setup.ruleset).map_err(|_| out_of_place(self.phase))?;
                if setup.handicap == 1 {
                    game.set_handicap(1);
                }
                let white_first = setup.handicap >= 2 || setup.ruleset.seated_stones;
                let first = if white_first { Side::White } else { Side::Black };
                self.clock =
                    Some(Clock::new(setup.time_control.clone(), first).map_err(|e| Corrupt::Clock(e.to_string()))?);
                self.game = Some(game);
                self.setup = Some(setup.clone());
                self.phase = Phase::Nigiri;
            }
            GameEvent::NigiriCommitted { holder, commitment, .. } => {
                let setup = self.setup.as_ref().ok_or(out_of_place(self.phase))?;
                let guesser = if &setup.first.id == holder { setup.second.id.clone() } else { setup.first.id.clone() };
                self.nigiri = Some(Nigiri { holder: holder.clone(), guesser, commitment: *commitment });
                if let GameEvent::NigiriCommitted { secret, .. } = event {
                    self.nigiri_secret = Some(*secret);
                }
            }
            GameEvent::NigiriGuessed { .. } | GameEvent::NigiriRevealed { .. } => {}
            GameEvent::ColorsDecided { black, white, .. } => {
                let setup = self.setup.as_ref().ok_or(out_of_place(self.phase))?;
                let find = |id: &PlayerId| {
                    if &setup.first.id == id {
                        Some(setup.first.clone())
                    } else if &setup.second.id == id {
                        Some(setup.second.clone())
                    } else {
                        None
                    }
                };
                self.black = Some(find(black).ok_or(out_of_place(self.phase))?);
                self.white = Some(find(white).ok_or(out_of_place(self.phase))?);
                self.nigiri = None;
                self.phase = Phase::Ready;
            }
            GameEvent::HandicapPlaced { points } => {
                let game = self.game_mut(name)?;
                game.place_handicap(points).map_err(|_| Corrupt::OutOfPlace { event: name, phase: Phase::Ready })?;
            }
            GameEvent::OfferAccepted { .. } => {
                if !matches!(self.phase, Phase::Nigiri | Phase::Ready) {
                    return Err(out_of_place(self.phase));
                }
                self.offer_accepted = true;
            }
            GameEvent::Started { at } => {
                if self.phase != Phase::Ready {
                    return Err(out_of_place(self.phase));
                }
                self.offer_accepted = true;
                self.clock_apply(ClockEvent::Started { at: *at })?;
                self.phase = Phase::Playing;
                self.touch(*at);
            }
            GameEvent::StonePlayed { color, point, hash, number, at, lag, from_sealed, .. } => {
                let game = self.game_mut(name)?;
                let played = game
                    .play(*color, Move::Play(*point))
                    .map_err(|reason| Corrupt::IllegalMove { number: *number, reason })?;
                if played.hash != *hash {
                    return Err(Corrupt::HashMismatch { number: *number, recorded: *hash, replayed: played.hash });
                }
                if !*from_sealed && !self.revealing {
                    self.clock_apply(ClockEvent::Moved { side: side(*color), at: *at, report: *lag })?;
                }
                self.revealing = false;
                self.move_number = *number;
                self.last_move = Some((*color, Move::Play(*point)));
                self.touch(*at);
            }
            GameEvent::Passed { color, number, at, lag, .. } => {
                let game = self.game_mut(name)?;
                game.play(*color, Move::Pass).map_err(|reason| Corrupt::IllegalMove { number: *number, reason })?;
                if !self.revealing {
                    self.clock_apply(ClockEvent::Moved { side: side(*color), at: *at, report: *lag })?;
                }
                self.revealing = false;
                self.move_number = *number;
                self.last_move = Some((*color, Move::Pass));
                self.touch(*at);
            }
            GameEvent::Resigned { at, .. } => self.touch(*at),
            GameEvent::WarningIssued { color, count, .. } => self.warnings[color.index()] = *count,
            GameEvent::ColorsSwapped => std::mem::swap(&mut self.black, &mut self.white),
            GameEvent::MoveVoided { color, taken_back, at, .. } => {
                let revealing = self.revealing;
                let game = self.game_mut(name)?;
                if *taken_back {
                    game.undo();
                    self.move_number = self.move_number.saturating_sub(1);
                }
                let game = self.game_mut(name)?;
                game.forfeit_turn(*color);
                // A refused move forfeits the turn: the mover's clock stops, the opponent's starts. A move
                // taken back had already switched the clock; a sealed move was charged when sealed.
                if !*taken_back && !revealing {
                    self.clock_apply(ClockEvent::Moved { side: side(*color), at: *at, report: None })?;
                }
                self.revealing = false;
                self.last_move = None;
                self.touch(*at);
            }
            GameEvent::OutageExcused { from, to, .. } => {
                // The clock stood still while the platform could not take a move.
                self.clock_apply(ClockEvent::Paused { at: *from, by: system_referee() })?;
                self.clock_apply(ClockEvent::Resumed { at: *to, by: system_referee() })?;
                self.touch(*to);
            }
            GameEvent::Paused { at, .. } => {
                self.clock_apply(ClockEvent::Paused { at: *at, by: system_referee() })?;
                self.paused_from = self.phase;
                self.phase = Phase::Paused;
                self.touch(*at);
            }
            GameEvent::Resumed { at } => {
                self.clock_apply(ClockEvent::Resumed { at: *at, by: system_referee() })?;
                self.phase = if self.phase == Phase::Adjourned { Phase::Playing } else { self.paused_from };
                self.touch(*at);
            }
            GameEvent::Adjourned { sealer, sealed, at, lag } => {
                self.clock_apply(ClockEvent::Sealed { side: side(*sealer), at: *at, report: *lag })?;
                self.sealed = Some((*sealer, *sealed));
                self.phase = Phase::Adjourned;
                self.touch(*at);
            }
            GameEvent::SealedMoveRevealed { at, .. } => {
                self.sealed = None;
                self.revealing = true;
                self.touch(*at);
            }
            GameEvent::ScoringStarted { at } => {
                self.clock_apply(ClockEvent::Paused { at: *at, by: system_referee() })?;
                self.game_mut(name)?.end();
                self.proposal = Proposal::default();
                self.phase = Phase::Scoring;
                self.touch(*at);
            }
            GameEvent::DeadStonesSuggested { points, .. } => {
                self.proposal = Proposal { by: None, points: points.clone(), accepted: [false, false] };
            }
            GameEvent::DeadChainsMarked { by, points } => {
                // A change of marks withdraws every acceptance, the marker's too: only accepting
                // accepts (issue 32 item 4: one tap on a chain must not end the count for its marker).
                self.proposal = Proposal { by: Some(*by), points: points.clone(), accepted: [false, false] };
            }
            GameEvent::ScoreAccepted { by } => self.proposal.accepted[by.index()] = true,
            GameEvent::ScoreDisputed { .. } => {}
            GameEvent::PlayResumed { first, at } => {
                self.clock_apply(ClockEvent::Resumed { at: *at, by: system_referee() })?;
                // The claimant moves first (Art. 21.4). If the clock had the other side to move, that side
                // hands over the turn at once: a zero-time move on the clock.
                if let Some(clock) = &self.clock
                    && clock.to_move() != side(*first)
                {
                    let other = clock.to_move();
                    self.clock_apply(ClockEvent::Moved { side: other, at: *at, report: None })?;
                }
                self.game_mut(name)?.resume(*first);
                self.proposal = Proposal::default();
                self.phase = Phase::Playing;
                self.touch(*at);
            }
            GameEvent::TimeExpired { color, at, counted_as_pass, .. } => {
                let outcome = if *counted_as_pass { ExpiryOutcome::Pass } else { ExpiryOutcome::Loss };
                self.clock_apply(ClockEvent::TimeExpired { side: side(*color), at: *at, outcome })?;
                if *counted_as_pass {
                    let number = self.move_number + 1;
                    let game = self.game_mut(name)?;
                    game.play(*color, Move::Pass).map_err(|reason| Corrupt::IllegalMove { number, reason })?;
                    self.move_number = number;
                    self.last_move = Some((*color, Move::Pass));
                }
                self.touch(*at);
            }
            GameEvent::ClockCorrected { black, white, reason, referee, chief, at } => {
                let role = if *chief { RefereeRole::Chief } else { RefereeRole::Referee };
                let by = Referee { id: referee.clone(), role };
                let set = BySide { black: *black, white: *white };
                self.clock_apply(ClockEvent::Corrected {
                    at: *at,
                    set,
                    reason: CorrectionReason::Ruling { note: reason.clone() },
                    by,
                })?;
                self.touch(*at);
            }
            GameEvent::LatenessPenalised { color, late, deducted, byo_yomi_ran } => {
                let (side, amount) = (side(*color), *deducted);
                self.clock_apply(if *byo_yomi_ran {
                    ClockEvent::LatenessRan { side, amount }
                } else {
                    ClockEvent::LatenessDeducted { side, amount }
                })?;
                self.lateness[color.index()] = Some(Lateness { late: *late, beyond_limit: false });
            }
            GameEvent::LateBeyondLimit { color, late } => {
                if self.phase != Phase::Ready {
                    return Err(out_of_place(self.phase));
                }
                self.lateness[color.index()] = Some(Lateness { late: *late, beyond_limit: true });
            }
            GameEvent::PassOnOverrunRequested { color } => {
                self.clock_apply(ClockEvent::PassOnOverrunRequested { side: side(*color) })?;
            }
            GameEvent::ResultCorrected { result, note, at, .. } => {
                self.result = Some(result.clone());
                if !note.is_empty() {
                    self.ruling = Some(note.clone());
                }
                self.touch(*at);
            }
            GameEvent::Ended { result, dead, note, at } => {
                if let Some(clock) = &self.clock
                    && !clock.phase().is_over()
                {
                    self.clock_apply(ClockEvent::Stopped { at: (*at).max(self.last_at) })?;
                }
                if let Some(g) = self.game.as_mut() {
                    g.end();
                }
                self.result = Some(result.clone());
                self.ruling = (!note.is_empty()).then(|| note.clone());
                self.dead = dead.clone();
                self.phase = Phase::Ended;
                self.touch(*at);
            }
        }
        self.note(event);
        self.version += 1;
        Ok(())
    }

    /// Keeps the note an event makes, if any (after the event is folded: a void's note follows the
    /// forfeited turn it leaves in the record).
    fn note(&mut self, event: &GameEvent) {
        use super::note::{Note, NoteKind};
        let (kind, reason) = match event {
            GameEvent::WarningIssued { color, reason, count } => {
                (NoteKind::Warning { color: *color, count: *count }, reason.clone())
            }
            GameEvent::Paused { reason, .. } => (NoteKind::Paused, reason.clone()),
            GameEvent::Resumed { .. } => (NoteKind::Resumed, String::new()),
            GameEvent::MoveVoided { color, mv, reason, taken_back, ground, .. } => {
                // The move taken back (or refused) would have been the next after those on the board.
                let number = self.move_number + 1;
                (
                    NoteKind::Voided { color: *color, number, mv: *mv, ground: *ground, refused: !taken_back },
                    reason.clone(),
                )
            }
            GameEvent::ScoreDisputed { by } => (NoteKind::Disputed { by: *by }, String::new()),
            GameEvent::PlayResumed { first, .. } => (NoteKind::PlayResumed { first: *first }, String::new()),
            GameEvent::ClockCorrected { reason, .. } => (NoteKind::ClockCorrected, reason.clone()),
            GameEvent::ColorsSwapped => (NoteKind::ColorsSwapped, String::new()),
            _ => return,
        };
        let actions = self.game.as_ref().map_or(0, |g| g.actions().len());
        self.notes.push(Note { actions, move_number: self.move_number, kind, reason });
    }
}
