//! Counting a final position, given the dead chains: area (数子法) or territory (数目法), komi,
//! handicap compensation, warning penalties and the historical group tax.
//!
//! All arithmetic is in half points, in `i64` (no komi or count can overflow it), so results are exact: 7.5 points of komi is 15 half points, and a
//! Chinese result of ¾ stone is 3 half points (one stone of area is two points).
//!
//! * **Area, dame split** (Chinese): a side's count is its living stones plus the empty points it
//!   alone surrounds, plus half of every empty point that touches both colors (dame, and shared
//!   liberties in seki). Par on 19×19 is 180.5.
//! * **Area** (Tromp-Taylor, AGA, New Zealand): the same without the split: an empty region that
//!   reaches only one color counts for it; any other empty point counts for nobody.
//! * **Ing** (SST laws): area, with the neutral points shared evenly: each side gets half of them in
//!   whole points, and when their number is odd one is left unfilled and counts for nobody. A tie goes to
//!   Black, so under Ing's komi of 8 a game never ends drawn.
//! * **Territory** (Japanese, Korean): surrounded empty points plus prisoners (captured during play and
//!   dead stones removed at the end). Points in seki count for nobody, eyes of groups in seki included.
//!   A neutral point is a shared liberty of a seki when neither side can fill it without leaving its
//!   own chain with a single liberty; chains touching such a point are in seki.

use std::fmt;

use crate::board::Board;
use crate::game::Game;
use crate::geometry::Cell;
use crate::point::{Color, Point};
use crate::ruleset::{HalfPoints, HandicapCompensation, Komi, Ruleset, Scoring};

/// Why a position cannot be scored as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// A point marked dead holds no stone.
    #[error("{0:?} is marked dead but holds no stone")]
    NotAStone(Point),
    /// A point marked dead is off the board.
    #[error("{0:?} is off the board")]
    OffBoard(Point),
}

/// One side's part of the count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideCount {
    /// Living stones on the board.
    pub stones: u32,
    /// Empty points (and points of removed dead stones) surrounded by this side alone.
    pub territory: u32,
    /// Stones this side captured during play plus the opponent's dead stones removed at the end.
    pub prisoners: u32,
    /// This side's stones marked dead.
    pub dead: u32,
    /// Separate living groups (for the group tax).
    pub groups: u32,
    /// Empty points this side alone surrounds but which do not count because its group is in seki
    /// (territory scoring only).
    pub seki_eyes: u32,
}

/// Who won and by how much.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreResult {
    /// The winner, or `None` for a draw (jigo).
    pub winner: Option<Color>,
    /// The margin in half points (always ≥ 0).
    pub margin: HalfPoints,
}

impl ScoreResult {
    /// The result in SGF `RE` form: `B+1.5`, `W+0.5`, `Draw`.
    pub fn to_sgf(&self) -> String {
        match self.winner {
            None => "Draw".to_string(),
            Some(c) => format!("{}+{}", c.letter(), self.margin),
        }
    }

    /// The result in Chinese stones (one stone = two points): "Black wins by ¾ stone".
    pub fn in_stones(&self) -> String {
        match self.winner {
            None => "Draw".to_string(),
            Some(c) => {
                let side = if c == Color::Black { "Black" } else { "White" };
                if self.margin.0 == 0 {
                    return format!("{side} wins the tie");
                }
                format!("{side} wins by {}", stones_text(self.margin.0.unsigned_abs()))
            }
        }
    }
}

/// Half points as stones in quarters: 3 → "¾ stone", 6 → "1½ stones".
fn stones_text(half_points: u32) -> String {
    let whole = half_points / 4;
    let frac = ["", "¼", "½", "¾"][(half_points % 4) as usize];
    let plural = if whole > 1 || (whole == 1 && !frac.is_empty()) { "stones" } else { "stone" };
    if whole == 0 { format!("{frac} {plural}") } else { format!("{whole}{frac} {plural}") }
}

/// The full count of a final position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// How the position was counted.
    pub scoring: Scoring,
    /// Black's part.
    pub black: SideCount,
    /// White's part.
    pub white: SideCount,
    /// Empty points touching both colors (or none): dame and shared liberties in seki.
    pub dame: u32,
    /// Komi given to White.
    pub komi: Komi,
    /// Points returned to White for handicap stones, in half points.
    pub handicap_compensation: HalfPoints,
    /// Warnings per side (Black, White); each costs two points.
    pub warnings: [u32; 2],
    /// Black's total in half points, after every adjustment.
    pub black_total: HalfPoints,
    /// White's total in half points, after every adjustment.
    pub white_total: HalfPoints,
    /// The result.
    pub result: ScoreResult,
}

impl Score {
    /// Black's area count in half stones (stones + territory + half the dame under dame split), the
    /// number a Chinese referee announces: 370 means 185 stones.
    pub fn black_area_halves(&self) -> u32 {
        2 * (self.black.stones + self.black.territory) + self.dame_share_halves()
    }

    /// White's area count in half stones (see [`Score::black_area_halves`]).
    pub fn white_area_halves(&self) -> u32 {
        2 * (self.white.stones + self.white.territory) + self.dame_share_halves()
    }

    /// Each side's share of the dame, in half points: half of them under dame split, half of them in
    /// whole points under Ing's counting, none otherwise.
    fn dame_share_halves(&self) -> u32 {
        match self.scoring {
            Scoring::AreaDameSplit => self.dame,
            Scoring::Ing => 2 * (self.dame / 2),
            Scoring::Area | Scoring::Territory => 0,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "scoring: {:?}", self.scoring)?;
        for (name, s) in [("black", &self.black), ("white", &self.white)] {
            writeln!(
                f,
                "{name}: stones {} territory {} prisoners {} dead {} seki-eyes {}",
                s.stones, s.territory, s.prisoners, s.dead, s.seki_eyes
            )?;
        }
        writeln!(f, "dame: {}", self.dame)?;
        writeln!(
            f,
            "black area {} white area {}",
            HalfPoints(self.black_area_halves() as i32),
            HalfPoints(self.white_area_halves() as i32)
        )?;
        writeln!(f, "komi {} handicap compensation {}", self.komi, self.handicap_compensation)?;
        writeln!(f, "black total {} white total {}", self.black_total, self.white_total)?;
        write!(f, "result {} ({})", self.result.to_sgf(), self.result.in_stones())
    }
}

/// Counts a finished game: its board, prisoners and handicap under its ruleset, with the chains on
/// `dead` removed and `warnings` (Black, White) charged.
pub fn score(game: &Game, dead: &[Point], warnings: [u32; 2]) -> Result<Score, ScoreError> {
    score_position(
        game.board(),
        game.ruleset(),
        [game.prisoners(Color::Black), game.prisoners(Color::White)],
        game.handicap(),
        dead,
        warnings,
    )
}

/// Counts a position. `prisoners` are the stones captured during play by (Black, White).
pub fn score_position(
    board: &Board,
    ruleset: &Ruleset,
    prisoners: [u32; 2],
    handicap: u8,
    dead: &[Point],
    warnings: [u32; 2],
) -> Result<Score, ScoreError> {
    let geo = board.geometry();
    let mut black = SideCount { prisoners: prisoners[0], ..SideCount::default() };
    let mut white = SideCount { prisoners: prisoners[1], ..SideCount::default() };

    // Remove the dead chains on a copy, so that liberties and regions see the cleaned board.
    let cleaned;
    let board = if dead.is_empty() {
        board
    } else {
        let mut b = board.clone();
        let mut dead_cells: Vec<Cell> = Vec::new();
        for &p in dead {
            let c = board.cell_of(p).ok_or(ScoreError::OffBoard(p))?;
            if board.get_cell(c).is_none() {
                return Err(ScoreError::NotAStone(p));
            }
            dead_cells.extend(board.chain_cells(c));
        }
        dead_cells.sort_unstable();
        dead_cells.dedup();
        for &c in &dead_cells {
            match board.get_cell(c) {
                Some(Color::Black) => {
                    black.dead += 1;
                    white.prisoners += 1;
                }
                Some(Color::White) => {
                    white.dead += 1;
                    black.prisoners += 1;
                }
                None => {}
            }
            b.set_raw(c, None);
        }
        b.rebuild_chains();
        cleaned = b;
        &cleaned
    };
    black.stones = board.stone_count(Color::Black);
    white.stones = board.stone_count(Color::White);

    // Label empty regions and note which colors each one reaches.
    const NONE: u16 = u16::MAX;
    let mut region = vec![NONE; geo.len];
    let mut reach: Vec<u8> = Vec::new();
    let mut sizes: Vec<u32> = Vec::new();
    let mut stack: Vec<Cell> = Vec::with_capacity(64);
    for &c in geo.points.iter() {
        let c = c as Cell;
        if region[c] != NONE || !board.is_empty_cell(c) {
            continue;
        }
        let id = reach.len() as u16;
        let mut mask = 0u8;
        let mut size = 0u32;
        region[c] = id;
        stack.push(c);
        while let Some(s) = stack.pop() {
            size += 1;
            for n in geo.neighbours(s) {
                if board.is_empty_cell(n) {
                    if region[n] == NONE {
                        region[n] = id;
                        stack.push(n);
                    }
                } else {
                    match board.get_cell(n) {
                        Some(Color::Black) => mask |= 1,
                        Some(Color::White) => mask |= 2,
                        None => {}
                    }
                }
            }
        }
        reach.push(mask);
        sizes.push(size);
    }

    // Under territory scoring, find the chains in seki and the regions they make their eyes.
    let mut seki_region = vec![false; reach.len()];
    if ruleset.scoring == Scoring::Territory && reach.contains(&3) {
        let mut seki_heads: Vec<Cell> = Vec::new();
        let mut marks = Marks::new(geo.len);
        for &c in geo.points.iter() {
            let c = c as Cell;
            if region[c] == NONE || reach[region[c] as usize] != 3 {
                continue;
            }
            let adjacent = |color| geo.neighbours(c).iter().any(|&n| board.get_cell(n) == Some(color));
            if !(adjacent(Color::Black) && adjacent(Color::White)) {
                continue;
            }
            if fill_is_safe(board, c, Color::Black, &mut marks) || fill_is_safe(board, c, Color::White, &mut marks) {
                continue;
            }
            for n in geo.neighbours(c) {
                if board.get_cell(n).is_some() {
                    let h = board.head(n);
                    if !seki_heads.contains(&h) {
                        seki_heads.push(h);
                    }
                }
            }
        }
        if !seki_heads.is_empty() {
            for &c in geo.points.iter() {
                let c = c as Cell;
                if region[c] == NONE || !matches!(reach[region[c] as usize], 1 | 2) {
                    continue;
                }
                if geo.neighbours(c).iter().any(|&n| board.get_cell(n).is_some() && seki_heads.contains(&board.head(n)))
                {
                    seki_region[region[c] as usize] = true;
                }
            }
        }
    }

    let mut dame = 0;
    for (i, (&mask, &size)) in reach.iter().zip(&sizes).enumerate() {
        let side = match mask {
            1 => &mut black,
            2 => &mut white,
            _ => {
                dame += size;
                continue;
            }
        };
        if seki_region[i] {
            side.seki_eyes += size;
        } else {
            side.territory += size;
        }
    }

    if ruleset.group_tax {
        black.groups = count_groups(board, &region, &reach, Color::Black);
        white.groups = count_groups(board, &region, &reach, Color::White);
    }

    // Half points, in i64: komi, compensation and penalties come from outside and must not overflow.
    let halves = |n: u32| 2 * i64::from(n);
    let (mut b, mut w) = match ruleset.scoring {
        Scoring::AreaDameSplit => (
            halves(black.stones + black.territory) + i64::from(dame),
            halves(white.stones + white.territory) + i64::from(dame),
        ),
        Scoring::Area => (halves(black.stones + black.territory), halves(white.stones + white.territory)),
        Scoring::Ing => {
            let share = halves(dame / 2);
            (halves(black.stones + black.territory) + share, halves(white.stones + white.territory) + share)
        }
        Scoring::Territory => (halves(black.territory + black.prisoners), halves(white.territory + white.prisoners)),
    };
    let compensation: i64 = if handicap >= 2 {
        match ruleset.handicap_compensation {
            HandicapCompensation::None => 0,
            HandicapCompensation::N => 2 * i64::from(handicap),
            HandicapCompensation::NMinusOne => 2 * (i64::from(handicap) - 1),
        }
    } else {
        0
    };
    w += i64::from(ruleset.komi.0) + compensation;
    b -= 4 * i64::from(warnings[0]);
    w -= 4 * i64::from(warnings[1]);
    if ruleset.group_tax {
        b -= 4 * i64::from(black.groups);
        w -= 4 * i64::from(white.groups);
    }
    let diff = b - w;
    let winner = match diff.signum() {
        1 => Some(Color::Black),
        -1 => Some(Color::White),
        // Ing: a tie goes to Black.
        _ if ruleset.scoring == Scoring::Ing => Some(Color::Black),
        _ => None,
    };
    let result = ScoreResult { winner, margin: HalfPoints::saturating(diff.abs()) };
    Ok(Score {
        scoring: ruleset.scoring,
        black,
        white,
        dame,
        komi: ruleset.komi,
        handicap_compensation: HalfPoints::saturating(compensation),
        warnings,
        black_total: HalfPoints::saturating(b),
        white_total: HalfPoints::saturating(w),
        result,
    })
}

/// Generation-stamped marks over cells, reused without clearing.
struct Marks {
    mark: Vec<u32>,
    stamp: u32,
}

impl Marks {
    fn new(len: usize) -> Marks {
        Marks { mark: vec![0; len], stamp: 0 }
    }
    fn next(&mut self) {
        self.stamp += 1;
    }
    /// Marks `c`; returns true if it was not yet marked in this generation.
    fn set(&mut self, c: Cell) -> bool {
        let fresh = self.mark[c] != self.stamp;
        self.mark[c] = self.stamp;
        fresh
    }
}

/// Whether `color` could fill the empty point `c` and keep at least two liberties (or capture).
fn fill_is_safe(board: &Board, c: Cell, color: Color, marks: &mut Marks) -> bool {
    let geo = board.geometry();
    marks.next();
    marks.set(c);
    let mut libs = 0;
    let mut seen_heads: [Cell; 4] = [0; 4];
    let mut n_heads = 0;
    for n in geo.neighbours(c) {
        if board.is_empty_cell(n) {
            if marks.set(n) {
                libs += 1;
            }
            continue;
        }
        match board.get_cell(n) {
            Some(k) if k == color => {
                let h = board.head(n);
                if seen_heads[..n_heads].contains(&h) {
                    continue;
                }
                seen_heads[n_heads] = h;
                n_heads += 1;
                for s in board.chain_cells(h) {
                    for m in geo.neighbours(s) {
                        if board.is_empty_cell(m) && marks.set(m) {
                            libs += 1;
                        }
                    }
                }
            }
            Some(_) if board.libs_at_head(board.head(n)) == 1 => return true, // filling captures
            Some(_) => {}
            None => {}
        }
        if libs >= 2 {
            return true;
        }
    }
    libs >= 2
}

/// Separate living groups of `color`: connected components of its stones and the empty regions that
/// reach only it.
fn count_groups(board: &Board, region: &[u16], reach: &[u8], color: Color) -> u32 {
    let geo = board.geometry();
    let own_mask = if color == Color::Black { 1 } else { 2 };
    let belongs = |c: Cell| -> bool {
        match board.get_cell(c) {
            Some(k) => k == color,
            None => board.is_empty_cell(c) && region[c] != u16::MAX && reach[region[c] as usize] == own_mask,
        }
    };
    let mut seen = vec![false; geo.len];
    let mut stack = Vec::new();
    let mut groups = 0;
    for &c in geo.points.iter() {
        let c = c as Cell;
        if seen[c] || board.get_cell(c) != Some(color) {
            continue;
        }
        groups += 1;
        seen[c] = true;
        stack.push(c);
        while let Some(s) = stack.pop() {
            for n in geo.neighbours(s) {
                if !seen[n] && belongs(n) {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
    }
    groups
}
