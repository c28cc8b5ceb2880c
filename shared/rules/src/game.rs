//! A game under a ruleset: whose turn it is, ko, superko history, prisoners, passes, and undo.

use crate::board::{Board, UnsupportedSize};
use crate::geometry::Cell;
use crate::handicap::{self, HandicapError};
use crate::history::History;
use crate::legality::Illegal;
use crate::point::{Color, Move, Point};
use crate::ruleset::{KoRule, Komi, Ruleset, Suicide};
use crate::zobrist;

/// One thing that happened to the game, in order. Undo replays these from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A stone was played.
    Play(Color, Point),
    /// A player passed.
    Pass(Color),
    /// A player's turn was forfeited (a void move, Art. 18.3/19).
    ForfeitTurn(Color),
    /// Stones were added or removed outside play (SGF `AB`/`AW`/`AE`). Boxed: setup is rare, and an
    /// action list is kept for every game a service caches.
    Setup(Box<SetupStones>),
    /// The player to move was set (SGF `PL`).
    SetToMove(Color),
}

/// Stones added or removed outside play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupStones {
    /// Points that became black.
    pub black: Vec<Point>,
    /// Points that became white.
    pub white: Vec<Point>,
    /// Points that were cleared.
    pub empty: Vec<Point>,
}

/// What a legal stone move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Opponent stones captured (listed by [`Game::last_removed`]).
    pub captured: u32,
    /// Own stones removed by a multi-stone suicide (where allowed).
    pub suicided: u32,
    /// The board hash after the move.
    pub hash: u64,
    /// Under simple ko, the move repeated an earlier whole-board position (Art. 20). Never true under
    /// superko rules, where such a move is illegal.
    pub cycle: bool,
}

/// What a move would do, worked out by [`Game::preview`] without playing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePreview {
    /// Opponent stones the move captures, sorted.
    pub captured: Vec<Point>,
    /// Own stones removed by a multi-stone suicide (the played point included), sorted.
    pub suicided: Vec<Point>,
    /// The board hash after the move.
    pub hash_after: u64,
    /// Under simple ko: the move repeats an earlier whole-board position.
    pub cycle: bool,
}

/// Why setup stones cannot be placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A point is off the board.
    #[error("setup point {0:?} is off the board")]
    OffBoard(Point),
    /// The setup leaves a chain without liberties, which no legal position has.
    #[error("setup leaves the chain at {0:?} without liberties")]
    NoLiberties(Point),
    /// Handicap stones must go on an empty board before the first move.
    #[error("handicap stones can only be placed on an empty board before the first move")]
    NotAtStart,
    /// The handicap itself is not valid.
    #[error(transparent)]
    Handicap(#[from] HandicapError),
}

/// How the game starts, for undo by replay.
#[derive(Clone)]
struct Start {
    board: Board,
    to_move: Color,
    handicap: u8,
}

/// A game in progress under a [`Ruleset`]: the board, whose turn it is, the ko point, the superko
/// history (one hash per position), prisoners, consecutive passes, and the list of actions (for undo
/// by replay).
///
/// Colors are not forced to alternate: [`Game::play`] takes the color, as GTP does. Services that
/// enforce turns check [`Game::to_move`] first.
#[derive(Clone)]
pub struct Game {
    ruleset: Ruleset,
    board: Board,
    to_move: Color,
    /// A point forbidden to one color by simple ko.
    ko: Option<(Cell, Color)>,
    passes: u8,
    prisoners: [u32; 2],
    handicap: u8,
    history: History,
    actions: Vec<Action>,
    start: Start,
    removed: Vec<u16>,
    ended: bool,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("to_move", &self.to_move)
            .field("moves", &self.actions.len())
            .field("prisoners", &self.prisoners)
            .field("board", &self.board)
            .finish()
    }
}

impl Game {
    /// A new game on an empty board (or with seated stones, if the ruleset says so). Black moves
    /// first, except under seated stones, where White does.
    pub fn new(size: u8, ruleset: Ruleset) -> Result<Game, UnsupportedSize> {
        let mut board = Board::new(size)?;
        let mut to_move = Color::Black;
        if ruleset.seated_stones
            && let Some((black, white)) = handicap::seated_stones(size)
        {
            let geo = board.geometry();
            for p in black {
                board.set_raw(geo.cell(p), Some(Color::Black));
            }
            for p in white {
                board.set_raw(geo.cell(p), Some(Color::White));
            }
            board.rebuild_chains();
            to_move = Color::White;
        }
        let mut game = Game {
            ruleset,
            start: Start { board: board.clone(), to_move, handicap: 0 },
            board,
            to_move,
            ko: None,
            passes: 0,
            prisoners: [0, 0],
            handicap: 0,
            history: History::with_capacity(256),
            actions: Vec::new(),
            removed: Vec::with_capacity(64),
            ended: false,
        };
        game.remember_position();
        Ok(game)
    }

    /// A game with handicap stones already placed: White moves first. `stones` of 1 is 让先: no
    /// stones, Black moves first. Handicap games have no komi unless [`Game::set_komi`] says so.
    pub fn with_fixed_handicap(size: u8, ruleset: Ruleset, stones: u8) -> Result<Game, SetupError> {
        let mut game = Game::new(size, ruleset.with_komi(Komi(0)))
            .map_err(|_| SetupError::Handicap(HandicapError::NotAvailable { stones, size }))?;
        if stones >= 2 {
            let points = handicap::fixed_handicap(size, stones)?;
            game.place_handicap(&points)?;
        } else {
            game.handicap = stones;
            game.start.handicap = stones;
        }
        Ok(game)
    }

    /// Places handicap stones (fixed or free) on the empty board before the first move. White moves
    /// next.
    pub fn place_handicap(&mut self, points: &[Point]) -> Result<(), SetupError> {
        if !self.actions.is_empty() || self.board.stone_count(Color::Black) + self.board.stone_count(Color::White) > 0 {
            return Err(SetupError::NotAtStart);
        }
        let points = handicap::free_handicap(self.board.size(), points)?;
        let geo = self.board.geometry();
        for &p in &points {
            self.board.set_raw(geo.cell(p), Some(Color::Black));
        }
        self.board.rebuild_chains();
        self.handicap = points.len() as u8;
        self.to_move = Color::White;
        self.history.clear();
        self.remember_position();
        self.start = Start { board: self.board.clone(), to_move: Color::White, handicap: self.handicap };
        Ok(())
    }

    /// Sets the number of handicap stones for the count (SGF `HA` with the stones given as setup).
    pub fn set_handicap(&mut self, stones: u8) {
        self.handicap = stones;
        if self.actions.is_empty() {
            self.start.handicap = stones;
        }
    }

    /// The ruleset in force.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// Changes komi (GTP `komi`, SGF `KM`). Does not touch the position.
    pub fn set_komi(&mut self, komi: Komi) {
        self.ruleset.komi = komi;
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board size.
    pub fn size(&self) -> u8 {
        self.board.size()
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Number of handicap stones (1 for 让先, 0 for an even game).
    pub fn handicap(&self) -> u8 {
        self.handicap
    }

    /// Stones captured by `by` so far (suicided stones count for the opponent).
    pub fn prisoners(&self, by: Color) -> u32 {
        self.prisoners[by.index()]
    }

    /// Consecutive passes at the end of the record.
    pub fn consecutive_passes(&self) -> u8 {
        self.passes
    }

    /// Whether a pass by `color` now would end play: it would be the second pass in a row, and, under AGA
    /// pass stones, White would be the last to pass (after Black's second pass White passes once more,
    /// so both have made as many moves, and the territory count agrees with the area count).
    pub fn pass_ends_play(&self, color: Color) -> bool {
        self.passes >= 1 && (!self.ruleset.pass_stones || color == Color::White)
    }

    /// Everything that happened, in order.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// Number of moves and passes played (setup actions not counted).
    pub fn move_number(&self) -> usize {
        self.actions.iter().filter(|a| matches!(a, Action::Play(..) | Action::Pass(_) | Action::ForfeitTurn(_))).count()
    }

    /// The Zobrist hash of the board.
    pub fn hash(&self) -> u64 {
        self.board.hash()
    }

    /// The point the given color may not play on at once because of simple ko, if any.
    pub fn ko_point(&self) -> Option<(Point, Color)> {
        self.ko.map(|(c, color)| (self.board.geometry().point(c), color))
    }

    /// Whether play has been ended with [`Game::end`].
    pub fn is_over(&self) -> bool {
        self.ended
    }

    /// Ends play: every further move is refused with [`Illegal::GameOver`].
    pub fn end(&mut self) {
        self.ended = true;
    }

    /// Resumes play after a disputed count (Art. 21.4): `first` moves next.
    pub fn resume(&mut self, first: Color) {
        self.ended = false;
        self.passes = 0;
        self.to_move = first;
    }

    /// Sets the player to move (SGF `PL`).
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
        self.actions.push(Action::SetToMove(color));
    }

    /// The stones removed by the last stone move (captures, then any suicided stones).
    pub fn last_removed(&self) -> impl Iterator<Item = Point> + '_ {
        let geo = self.board.geometry();
        self.removed.iter().map(move |&c| geo.point(c as Cell))
    }

    /// Whether `color` may make `mv` now, and why not.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), Illegal> {
        if self.ended {
            return Err(Illegal::GameOver);
        }
        match mv {
            Move::Pass => Ok(()),
            Move::Play(p) => {
                let c = self.board.cell_of(p).ok_or(Illegal::OffBoard)?;
                self.check_cell(c, color).map(|_| ())
            }
        }
    }

    /// Whether `color` may play on the on-board cell `c`; returns the board hash after the move.
    #[inline]
    fn check_cell(&self, c: Cell, color: Color) -> Result<u64, Illegal> {
        if !self.board.is_empty_cell(c) {
            return Err(Illegal::Occupied);
        }
        let ko_retake = self.ko == Some((c, color));
        if ko_retake && self.ruleset.ko == KoRule::Simple {
            return Err(Illegal::Ko);
        }
        let pv = self.board.preview(c, color);
        if pv.suicide && (self.ruleset.suicide == Suicide::Forbidden || pv.single_stone) {
            return Err(Illegal::Suicide);
        }
        let repeated = match self.ruleset.ko {
            KoRule::Simple => false,
            KoRule::PositionalSuperko => self.history.contains(pv.hash_after),
            KoRule::SituationalSuperko => self.history.contains(pv.hash_after ^ zobrist::to_move_key(color.opponent())),
        };
        if repeated {
            return Err(if ko_retake { Illegal::Ko } else { Illegal::Superko });
        }
        Ok(pv.hash_after)
    }

    /// What `color` playing on `p` would do, without changing the game: the stones it would capture (or,
    /// for an allowed multi-stone suicide, the own stones it would lose), the board hash after it, and
    /// whether the board would repeat an earlier one (only possible under simple ko). The game service
    /// decides a move with this and records the result in the event; replay then checks the hash.
    pub fn preview(&self, color: Color, p: Point) -> Result<MovePreview, Illegal> {
        if self.ended {
            return Err(Illegal::GameOver);
        }
        let c = self.board.cell_of(p).ok_or(Illegal::OffBoard)?;
        let hash_after = self.check_cell(c, color)?;
        let geo = self.board.geometry();
        let mut captured = Vec::new();
        let mut suicided = Vec::new();
        let mut heads: Vec<Cell> = Vec::with_capacity(4);
        for n in geo.neighbours(c) {
            match self.board.get_cell(n) {
                Some(k) if k != color => {
                    let h = self.board.head(n);
                    if self.board.libs_at_head(h) == 1 && !heads.contains(&h) {
                        heads.push(h);
                        captured.extend(self.board.chain_cells(h).map(|s| geo.point(s)));
                    }
                }
                _ => {}
            }
        }
        if captured.is_empty() && self.board.preview(c, color).suicide {
            suicided.push(p);
            for n in geo.neighbours(c) {
                if self.board.get_cell(n) == Some(color) {
                    let h = self.board.head(n);
                    if !heads.contains(&h) {
                        heads.push(h);
                        suicided.extend(self.board.chain_cells(h).map(|s| geo.point(s)));
                    }
                }
            }
        }
        captured.sort();
        suicided.sort();
        let cycle = self.ruleset.ko == KoRule::Simple && self.history.contains(hash_after);
        Ok(MovePreview { captured, suicided, hash_after, cycle })
    }

    /// Plays `mv` for `color` if it is legal. A pass is always legal while the game is not over.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<Played, Illegal> {
        if self.ended {
            return Err(Illegal::GameOver);
        }
        let p = match mv {
            Move::Pass => {
                self.pass(color);
                return Ok(Played { captured: 0, suicided: 0, hash: self.board.hash(), cycle: false });
            }
            Move::Play(p) => p,
        };
        let c = self.board.cell_of(p).ok_or(Illegal::OffBoard)?;
        self.check_cell(c, color)?;
        self.remember_departure(color);
        self.removed.clear();
        let placed = self.board.place(c, color, &mut self.removed);
        self.prisoners[color.index()] += placed.captured;
        self.prisoners[color.opponent().index()] += placed.suicided;
        self.ko = self.board.ko_point_after(c, placed, self.removed.last().copied()).map(|k| (k, color.opponent()));
        self.passes = 0;
        self.to_move = color.opponent();
        self.actions.push(Action::Play(color, p));
        let fresh = self.remember_position();
        Ok(Played {
            captured: placed.captured,
            suicided: placed.suicided,
            hash: self.board.hash(),
            cycle: !fresh && self.ruleset.ko == KoRule::Simple,
        })
    }

    fn pass(&mut self, color: Color) {
        if self.ruleset.pass_stones {
            // AGA: the passer hands the opponent a stone as a prisoner.
            self.prisoners[color.opponent().index()] += 1;
        }
        self.remember_departure(color);
        self.ko = None;
        self.passes = self.passes.saturating_add(1);
        self.to_move = color.opponent();
        self.actions.push(Action::Pass(color));
        self.removed.clear();
        self.remember_position();
    }

    /// Forfeits `color`'s turn: the move they tried is void (Art. 18.3, 19). The turn passes to the
    /// opponent; this is not a pass toward ending the game.
    pub fn forfeit_turn(&mut self, color: Color) {
        self.remember_departure(color);
        self.ko = None;
        self.passes = 0;
        self.to_move = color.opponent();
        self.actions.push(Action::ForfeitTurn(color));
        self.removed.clear();
        self.remember_position();
    }

    /// Adds and removes stones outside play (SGF setup). The position joins the history; the ko point
    /// is cleared.
    pub fn setup(&mut self, black: &[Point], white: &[Point], empty: &[Point]) -> Result<(), SetupError> {
        let size = self.board.size();
        if let Some(&p) = black.iter().chain(white).chain(empty).find(|p| !p.is_on(size)) {
            return Err(SetupError::OffBoard(p));
        }
        let mut board = self.board.clone();
        let geo = board.geometry();
        for &p in empty {
            board.set_raw(geo.cell(p), None);
        }
        for &p in black {
            board.set_raw(geo.cell(p), Some(Color::Black));
        }
        for &p in white {
            board.set_raw(geo.cell(p), Some(Color::White));
        }
        if let Some(p) = board.rebuild_chains() {
            return Err(SetupError::NoLiberties(p));
        }
        self.board = board;
        self.ko = None;
        self.actions.push(Action::Setup(Box::new(SetupStones {
            black: black.to_vec(),
            white: white.to_vec(),
            empty: empty.to_vec(),
        })));
        self.remember_position();
        Ok(())
    }

    /// Under simple ko and positional superko, records the board just reached; returns false if it was
    /// already there. (Situational superko records positions as they are left: see
    /// [`Game::remember_departure`].)
    fn remember_position(&mut self) -> bool {
        match self.ruleset.ko {
            KoRule::Simple | KoRule::PositionalSuperko => self.history.insert(self.board.hash()),
            KoRule::SituationalSuperko => true,
        }
    }

    /// Under situational superko, records the situation `color` is about to move from: the board
    /// with `color` to move. A position counts as having occurred with a player to move once that
    /// player acted in it, so a `PL` change or a setup never leaves a stale entry behind.
    fn remember_departure(&mut self, color: Color) {
        if self.ruleset.ko == KoRule::SituationalSuperko {
            self.history.insert(self.board.hash() ^ zobrist::to_move_key(color));
        }
    }

    /// Every point where `color` may play now, row by row from the top-left.
    pub fn legal_points(&self, color: Color) -> Vec<Point> {
        let mut out = Vec::with_capacity(self.board.size() as usize * self.board.size() as usize);
        self.for_each_legal(color, |p| out.push(p));
        out
    }

    /// Calls `f` with every point where `color` may play now.
    pub fn for_each_legal(&self, color: Color, mut f: impl FnMut(Point)) {
        if self.ended {
            return;
        }
        let geo = self.board.geometry();
        for &c in geo.points.iter() {
            let c = c as Cell;
            if self.board.is_empty_cell(c) && self.check_cell(c, color).is_ok() {
                f(geo.point(c));
            }
        }
    }

    /// Whether `color` at `p` would fill one of its own single-point eyes: every neighbour is an own
    /// stone or the edge. (The random player never does this.)
    pub fn fills_own_eye(&self, color: Color, p: Point) -> bool {
        let Some(c) = self.board.cell_of(p) else { return false };
        if !self.board.is_empty_cell(c) {
            return false;
        }
        let geo = self.board.geometry();
        geo.neighbours(c).iter().all(|&n| match self.board.get_cell(n) {
            Some(k) => k == color,
            None => !self.board.is_empty_cell(n),
        })
    }

    /// The move a uniformly random player would make: a legal point that does not fill one of its
    /// own single-point eyes, chosen by `pick(n)` (which must return a number below `n`), or a pass
    /// when none is left. The randomness is the caller's, so this stays deterministic.
    pub fn random_move(&self, color: Color, mut pick: impl FnMut(usize) -> usize) -> Move {
        let mut candidates: Vec<Point> = Vec::with_capacity(self.board.size() as usize * self.board.size() as usize);
        self.for_each_legal(color, |p| {
            if !self.fills_own_eye(color, p) {
                candidates.push(p)
            }
        });
        if candidates.is_empty() {
            Move::Pass
        } else {
            Move::Play(candidates[pick(candidates.len()) % candidates.len()])
        }
    }

    /// Undoes the last action by replaying the others from the start. Returns it, or `None` if there is
    /// nothing to undo.
    pub fn undo(&mut self) -> Option<Action> {
        let last = self.actions.pop()?;
        let actions = std::mem::take(&mut self.actions);
        self.restart();
        for a in actions {
            self.redo(a);
        }
        Some(last)
    }

    fn restart(&mut self) {
        self.board = self.start.board.clone();
        self.to_move = self.start.to_move;
        self.handicap = self.start.handicap;
        self.ko = None;
        self.passes = 0;
        self.prisoners = [0, 0];
        self.history.clear();
        self.removed.clear();
        self.ended = false;
        self.remember_position();
    }

    fn redo(&mut self, a: Action) {
        match a {
            Action::Play(color, p) => {
                // It was legal when first played, so it is legal again.
                let r = self.play(color, Move::Play(p));
                debug_assert!(r.is_ok());
            }
            Action::Pass(color) => self.pass(color),
            Action::ForfeitTurn(color) => self.forfeit_turn(color),
            Action::Setup(s) => {
                let r = self.setup(&s.black, &s.white, &s.empty);
                debug_assert!(r.is_ok());
            }
            Action::SetToMove(color) => self.set_to_move(color),
        }
    }

    /// The stones each action captured, in the order of [`Game::actions`] (0 for a pass, a forfeited
    /// turn or setup): the game replayed from its start. Records keep only the actions; this gives
    /// back what each move took.
    pub fn captures(&self) -> Vec<u32> {
        let mut replay = self.clone();
        replay.actions.clear();
        replay.restart();
        self.actions
            .iter()
            .map(|a| {
                let before = replay.prisoners;
                let mover = match a {
                    Action::Play(c, _) => Some(*c),
                    _ => None,
                };
                replay.redo(a.clone());
                mover.map_or(0, |c| replay.prisoners[c.index()] - before[c.index()])
            })
            .collect()
    }

    /// Bytes held by this game: board, history and action list.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Game>() - std::mem::size_of::<Board>() * 2
            + self.board.memory_bytes()
            + self.start.board.memory_bytes()
            + self.history.memory_bytes()
            + self.actions.capacity() * std::mem::size_of::<Action>()
    }

    /// Number of positions remembered for superko.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }
}
