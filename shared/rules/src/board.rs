//! The board: stones, chains, exact liberties and captures, kept incrementally. The hot path.
//!
//! Every cell is one `u32`:
//!
//! ```text
//!  31        22 21        12 11         2 1  0
//! +------------+------------+------------+----+
//! |  liberties |    next    |    head    | col|
//! +------------+------------+------------+----+
//! ```
//!
//! * `col`: empty (0), black (1), white (2), border (3). An empty cell is all zeroes.
//! * `head`: the cell that names this stone's chain; the chain's data lives there.
//! * `next`: the next stone of the same chain; the stones of a chain form a circular list.
//! * `liberties`: at the head only, the chain's exact number of liberties (distinct empty
//!   neighbours). At most 625 on a 25×25 board, so ten bits suffice.
//!
//! A 19×19 board is 421 cells, 1,684 bytes, plus a pointer to the shared [`Geometry`] and the hash.
//!
//! Placing a stone touches only its neighbours and the chains it merges or captures: merging walks
//! the smaller chain, capturing walks the captured chain. Nothing floods the whole board.

use crate::geometry::{Cell, Geometry};
use crate::point::{Color, Point};

const EMPTY: u32 = 0;
const BLACK: u32 = 1;
const WHITE: u32 = 2;
const BORDER: u32 = 3;

const HEAD_SHIFT: u32 = 2;
const NEXT_SHIFT: u32 = 12;
const LIBS_SHIFT: u32 = 22;
const FIELD: u32 = 0x3ff;
const HEAD_MASK: u32 = FIELD << HEAD_SHIFT;
const NEXT_MASK: u32 = FIELD << NEXT_SHIFT;

#[inline(always)]
fn col(v: u32) -> u32 {
    v & 3
}
#[inline(always)]
fn head_of(v: u32) -> Cell {
    ((v >> HEAD_SHIFT) & FIELD) as Cell
}
#[inline(always)]
fn next_of(v: u32) -> Cell {
    ((v >> NEXT_SHIFT) & FIELD) as Cell
}
#[inline(always)]
fn libs_of(v: u32) -> u32 {
    v >> LIBS_SHIFT
}
#[inline(always)]
const fn code(color: Color) -> u32 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}
#[inline(always)]
fn color_of_code(c: u32) -> Option<Color> {
    match c {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

/// What placing a stone would do, worked out without changing the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Preview {
    /// Opponent stones the move would capture.
    pub captures: u32,
    /// The move would leave its own chain without liberties and capture nothing.
    pub suicide: bool,
    /// The suicide would remove only the placed stone (no own chain joins it).
    pub single_stone: bool,
    /// The board hash after the move (captures and, for suicide, the removal of own stones included).
    pub hash_after: u64,
}

/// What placing a stone did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Placed {
    /// Opponent stones removed.
    pub captured: u32,
    /// Own stones removed by a suicide (the placed stone included).
    pub suicided: u32,
}

/// A Go board of one size with stones, chains and liberties.
#[derive(Clone)]
pub struct Board {
    geo: &'static Geometry,
    cells: Box<[u32]>,
    hash: u64,
    stones: [u16; 2],
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size() == other.size()
            && self.geo.points.iter().all(|&c| self.get_cell(c as Cell) == other.get_cell(c as Cell))
    }
}
impl Eq for Board {}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board {}×{}\n{}", self.size(), self.size(), self.to_ascii())
    }
}

/// A board size outside 2..=25.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board size {0} is not supported (2 to 25)")]
pub struct UnsupportedSize(pub u8);

impl Board {
    /// An empty board of `size` (2 to 25).
    pub fn new(size: u8) -> Result<Board, UnsupportedSize> {
        let geo = Geometry::of(size).ok_or(UnsupportedSize(size))?;
        let mut cells = vec![BORDER; geo.len].into_boxed_slice();
        for &c in geo.points.iter() {
            cells[c as usize] = EMPTY;
        }
        Ok(Board { geo, cells, hash: 0, stones: [0, 0] })
    }

    /// The board size (its side length).
    #[inline]
    pub fn size(&self) -> u8 {
        self.geo.size
    }

    /// The Zobrist hash of the stones on the board (the empty board is 0). Stored in events; see
    /// [`crate::zobrist`].
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Number of stones of `color` on the board.
    #[inline]
    pub fn stone_count(&self, color: Color) -> u32 {
        self.stones[color.index()] as u32
    }

    /// The stone on `p`, if any. `None` also for points off the board.
    pub fn get(&self, p: Point) -> Option<Color> {
        if !p.is_on(self.size()) {
            return None;
        }
        self.get_cell(self.geo.cell(p))
    }

    /// Every point of the board, row by row from the top-left.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        self.geo.points.iter().map(|&c| self.geo.point(c as Cell))
    }

    /// Bytes this board occupies: the struct plus its cell array.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Board>() + self.cells.len() * std::mem::size_of::<u32>()
    }

    /// The exact number of liberties of the chain on `p`, or `None` if `p` is empty.
    pub fn liberties(&self, p: Point) -> Option<u32> {
        let c = self.cell_of(p)?;
        let v = self.cells[c];
        if !matches!(col(v), BLACK | WHITE) {
            return None;
        }
        Some(libs_of(self.cells[head_of(v)]))
    }

    /// The stones of the chain on `p` (empty if `p` is empty), sorted.
    pub fn chain(&self, p: Point) -> Vec<Point> {
        let Some(c) = self.cell_of(p) else { return Vec::new() };
        if !matches!(col(self.cells[c]), BLACK | WHITE) {
            return Vec::new();
        }
        let mut out: Vec<Point> = self.chain_cells(c).map(|s| self.geo.point(s)).collect();
        out.sort();
        out
    }

    /// The liberty points of the chain on `p` (empty if `p` is empty), sorted.
    pub fn liberty_points(&self, p: Point) -> Vec<Point> {
        let Some(c) = self.cell_of(p) else { return Vec::new() };
        if !matches!(col(self.cells[c]), BLACK | WHITE) {
            return Vec::new();
        }
        let mut seen = vec![false; self.geo.len];
        let mut out = Vec::new();
        for s in self.chain_cells(c) {
            for n in self.geo.neighbours(s) {
                if self.cells[n] == EMPTY && !seen[n] {
                    seen[n] = true;
                    out.push(self.geo.point(n));
                }
            }
        }
        out.sort();
        out
    }

    /// The board drawn as rows of `X` (black), `O` (white) and `.`, top row first.
    pub fn to_ascii(&self) -> String {
        let n = self.size();
        let mut s = String::with_capacity((n as usize * 2 + 1) * n as usize);
        for y in 0..n {
            for x in 0..n {
                if x > 0 {
                    s.push(' ');
                }
                s.push(match self.get(Point::new(x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            s.push('\n');
        }
        s
    }

    // ---- crate-internal access for the game and scoring ----

    pub(crate) fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    #[inline]
    pub(crate) fn cell_of(&self, p: Point) -> Option<Cell> {
        p.is_on(self.size()).then(|| self.geo.cell(p))
    }

    #[inline]
    pub(crate) fn get_cell(&self, c: Cell) -> Option<Color> {
        color_of_code(col(self.cells[c]))
    }

    #[inline]
    pub(crate) fn is_empty_cell(&self, c: Cell) -> bool {
        self.cells[c] == EMPTY
    }

    /// The head of the chain on a stone cell.
    #[inline]
    pub(crate) fn head(&self, c: Cell) -> Cell {
        head_of(self.cells[c])
    }

    /// Liberties of the chain whose head is `h`.
    #[inline]
    pub(crate) fn libs_at_head(&self, h: Cell) -> u32 {
        libs_of(self.cells[h])
    }

    /// The stones of the chain containing stone cell `c`.
    pub(crate) fn chain_cells(&self, c: Cell) -> ChainCells<'_> {
        ChainCells { cells: &self.cells, start: c, cur: Some(c) }
    }

    /// XOR of the keys of the stones of the chain containing `c`.
    fn chain_hash(&self, c: Cell) -> u64 {
        let ci = (col(self.cells[c]) - 1) as usize;
        self.chain_cells(c).fold(0, |h, s| h ^ self.geo.keys[s][ci])
    }

    /// Works out what a stone of `color` on the empty cell `c` would do.
    #[inline]
    pub(crate) fn preview(&self, c: Cell, color: Color) -> Preview {
        let me = code(color);
        let opp = BLACK + WHITE - me;
        let mut has_empty = false;
        let mut own_safe = false;
        let mut own_heads = [0usize; 4];
        let mut n_own = 0;
        let mut caught = [0usize; 4];
        let mut n_caught = 0;
        let mut captures = 0;
        for n in self.geo.neighbours(c) {
            let v = self.cells[n];
            match col(v) {
                EMPTY => has_empty = true,
                k if k == me => {
                    let h = head_of(v);
                    if libs_of(self.cells[h]) > 1 {
                        own_safe = true;
                    }
                    if !own_heads[..n_own].contains(&h) {
                        own_heads[n_own] = h;
                        n_own += 1;
                    }
                }
                k if k == opp => {
                    let h = head_of(v);
                    if libs_of(self.cells[h]) == 1 && !caught[..n_caught].contains(&h) {
                        caught[n_caught] = h;
                        n_caught += 1;
                    }
                }
                _ => {}
            }
        }
        let mut hash_after = self.hash ^ self.geo.keys[c][color.index()];
        for &h in &caught[..n_caught] {
            hash_after ^= self.chain_hash(h);
            captures += self.chain_cells(h).count() as u32;
        }
        let suicide = n_caught == 0 && !has_empty && !own_safe;
        if suicide {
            // The placed stone and every own chain next to it come off the board.
            hash_after = self.hash;
            for &h in &own_heads[..n_own] {
                hash_after ^= self.chain_hash(h);
            }
        }
        Preview { captures, suicide, single_stone: suicide && n_own == 0, hash_after }
    }

    /// Places a stone of `color` on the empty cell `c`, captures, and (if the chain is left without
    /// liberties) removes the mover's own chain. Legality is the caller's business. Removed stones are
    /// appended to `removed`: captured opponent stones first, then any own stones.
    pub(crate) fn place(&mut self, c: Cell, color: Color, removed: &mut Vec<u16>) -> Placed {
        debug_assert_eq!(self.cells[c], EMPTY);
        let me = code(color);
        let opp = BLACK + WHITE - me;
        let nb = self.geo.neighbours(c);
        let mut libs = 0;
        for n in nb {
            if self.cells[n] == EMPTY {
                libs += 1;
            }
        }
        self.cells[c] = me | (c as u32) << HEAD_SHIFT | (c as u32) << NEXT_SHIFT | libs << LIBS_SHIFT;
        self.hash ^= self.geo.keys[c][color.index()];
        self.stones[color.index()] += 1;

        let mut own = [0usize; 4];
        let mut n_own = 0;
        let mut foe = [0usize; 4];
        let mut n_foe = 0;
        for n in nb {
            let v = self.cells[n];
            let k = col(v);
            if k == me {
                let h = head_of(v);
                if !own[..n_own].contains(&h) {
                    own[n_own] = h;
                    n_own += 1;
                }
            } else if k == opp {
                let h = head_of(v);
                if !foe[..n_foe].contains(&h) {
                    foe[n_foe] = h;
                    n_foe += 1;
                }
            }
        }
        let mut head = c;
        for &h in &own[..n_own] {
            self.sub_lib(h);
            head = self.merge(head, h);
        }
        let mut placed = Placed::default();
        for &h in &foe[..n_foe] {
            self.sub_lib(h);
            if libs_of(self.cells[h]) == 0 {
                placed.captured += self.remove_chain(h, removed);
            }
        }
        if libs_of(self.cells[head]) == 0 {
            placed.suicided = self.remove_chain(head, removed);
        }
        placed
    }

    /// Whether the stone just placed on `c` made a simple-ko shape: it captured exactly one stone and
    /// is a lone stone with one liberty. Returns the point that is then forbidden to the opponent.
    pub(crate) fn ko_point_after(&self, c: Cell, placed: Placed, removed_last: Option<u16>) -> Option<Cell> {
        if placed.captured != 1 || placed.suicided != 0 {
            return None;
        }
        let v = self.cells[c];
        if head_of(v) == c && next_of(v) == c && libs_of(v) == 1 { removed_last.map(|r| r as Cell) } else { None }
    }

    #[inline(always)]
    fn sub_lib(&mut self, h: Cell) {
        self.cells[h] = self.cells[h].wrapping_sub(1 << LIBS_SHIFT);
    }

    #[inline(always)]
    fn add_libs(&mut self, h: Cell, n: u32) {
        self.cells[h] = self.cells[h].wrapping_add(n << LIBS_SHIFT);
    }

    #[inline(always)]
    fn is_liberty_of(&self, e: Cell, h: Cell) -> bool {
        // Empty and border cells have head 0, and no chain head is cell 0 (it is a border cell).
        self.geo.neighbours(e).iter().any(|&n| head_of(self.cells[n]) == h)
    }

    /// Joins the chains headed by `a` and `b` and returns the surviving head. Walks the smaller chain.
    fn merge(&mut self, a: Cell, b: Cell) -> Cell {
        if a == b {
            return a;
        }
        // Find the smaller chain by walking both lists in step.
        let (mut x, mut y) = (next_of(self.cells[a]), next_of(self.cells[b]));
        let (small, big) = loop {
            if x == a {
                break (a, b);
            }
            if y == b {
                break (b, a);
            }
            x = next_of(self.cells[x]);
            y = next_of(self.cells[y]);
        };
        let mut added = 0;
        let mut s = small;
        loop {
            for n in self.geo.neighbours(s) {
                if self.cells[n] == EMPTY && !self.is_liberty_of(n, big) {
                    added += 1;
                }
            }
            self.cells[s] = (self.cells[s] & !HEAD_MASK) | (big as u32) << HEAD_SHIFT;
            s = next_of(self.cells[s]);
            if s == small {
                break;
            }
        }
        let nb = next_of(self.cells[big]);
        let ns = next_of(self.cells[small]);
        self.cells[big] = (self.cells[big] & !NEXT_MASK) | (ns as u32) << NEXT_SHIFT;
        self.cells[small] = (self.cells[small] & !NEXT_MASK) | (nb as u32) << NEXT_SHIFT;
        self.add_libs(big, added);
        big
    }

    /// Takes the chain headed by `h` off the board and gives its points back as liberties.
    fn remove_chain(&mut self, h: Cell, removed: &mut Vec<u16>) -> u32 {
        let k = col(self.cells[h]);
        let ci = (k - 1) as usize;
        let other = BLACK + WHITE - k;
        let mut s = h;
        let mut count = 0;
        loop {
            let next = next_of(self.cells[s]);
            self.cells[s] = EMPTY;
            self.hash ^= self.geo.keys[s][ci];
            removed.push(s as u16);
            count += 1;
            let mut seen = [0usize; 4];
            let mut n_seen = 0;
            for n in self.geo.neighbours(s) {
                let v = self.cells[n];
                if col(v) == other {
                    let hh = head_of(v);
                    if !seen[..n_seen].contains(&hh) {
                        seen[n_seen] = hh;
                        n_seen += 1;
                        self.add_libs(hh, 1);
                    }
                }
            }
            s = next;
            if s == h {
                break;
            }
        }
        self.stones[ci] -= count as u16;
        count
    }

    /// Puts or clears a stone without captures (setup: SGF `AB`/`AW`/`AE`, handicap). Chains are
    /// rebuilt afterwards with [`Board::rebuild_chains`].
    pub(crate) fn set_raw(&mut self, c: Cell, stone: Option<Color>) {
        if let Some(old) = self.get_cell(c) {
            self.hash ^= self.geo.keys[c][old.index()];
            self.stones[old.index()] -= 1;
        }
        self.cells[c] = EMPTY;
        if let Some(color) = stone {
            self.cells[c] = code(color);
            self.hash ^= self.geo.keys[c][color.index()];
            self.stones[color.index()] += 1;
        }
    }

    /// Recomputes every chain, list and liberty count from the colors alone (a full flood fill). Used
    /// after setup, and by tests as the from-scratch reference for the incremental counts. Returns a
    /// stone of a chain left without liberties, if any.
    pub(crate) fn rebuild_chains(&mut self) -> Option<Point> {
        let geo = self.geo;
        for &c in geo.points.iter() {
            let c = c as Cell;
            let k = col(self.cells[c]);
            self.cells[c] = k;
        }
        let mut visited = vec![false; geo.len];
        let mut lib_mark = vec![0u32; geo.len];
        let mut stack = Vec::new();
        let mut dead = None;
        for (mark, &c) in (1u32..).zip(geo.points.iter()) {
            let c = c as Cell;
            let k = col(self.cells[c]);
            if !(k == BLACK || k == WHITE) || visited[c] {
                continue;
            }
            // Flood the chain, linking stones in visiting order.
            let mut members = Vec::new();
            stack.push(c);
            visited[c] = true;
            let mut libs = 0;
            while let Some(s) = stack.pop() {
                members.push(s);
                for n in geo.neighbours(s) {
                    let v = self.cells[n];
                    if v == EMPTY {
                        if lib_mark[n] != mark {
                            lib_mark[n] = mark;
                            libs += 1;
                        }
                    } else if col(v) == k && !visited[n] {
                        visited[n] = true;
                        stack.push(n);
                    }
                }
            }
            for (i, &s) in members.iter().enumerate() {
                let next = members[(i + 1) % members.len()];
                self.cells[s] = k | (c as u32) << HEAD_SHIFT | (next as u32) << NEXT_SHIFT;
            }
            self.cells[c] |= libs << LIBS_SHIFT;
            if libs == 0 && dead.is_none() {
                dead = Some(geo.point(c));
            }
        }
        dead
    }

    /// The chain structure in canonical form (for each stone: the smallest cell of its chain, and the
    /// chain's liberties), to compare an incrementally kept board with a rebuilt one.
    #[doc(hidden)]
    pub fn chain_signature(&self) -> Vec<(Point, Point, u32)> {
        let mut out = Vec::new();
        for &c in self.geo.points.iter() {
            let c = c as Cell;
            if matches!(col(self.cells[c]), BLACK | WHITE) {
                let min = self.chain_cells(c).min().unwrap_or(c);
                out.push((self.geo.point(c), self.geo.point(min), libs_of(self.cells[self.head(c)])));
            }
        }
        out
    }

    /// A copy with every chain rebuilt from scratch (see [`Board::chain_signature`]).
    #[doc(hidden)]
    pub fn rebuilt(&self) -> Board {
        let mut b = self.clone();
        b.rebuild_chains();
        b
    }

    /// Checks internal consistency: every chain list closes, heads agree, liberties equal a recount,
    /// and the hash equals one recomputed from the stones. For tests.
    #[doc(hidden)]
    pub fn check_invariants(&self) -> Result<(), String> {
        let fresh = self.rebuilt();
        if fresh.chain_signature() != self.chain_signature() {
            return Err(format!("chains or liberties differ from a recount\n{}", self.to_ascii()));
        }
        let mut h = 0;
        let mut counts = [0u16; 2];
        for &c in self.geo.points.iter() {
            if let Some(color) = self.get_cell(c as Cell) {
                h ^= self.geo.keys[c as Cell][color.index()];
                counts[color.index()] += 1;
            }
        }
        if h != self.hash {
            return Err("hash differs from a recount".into());
        }
        if counts != self.stones {
            return Err("stone counts differ from a recount".into());
        }
        Ok(())
    }
}

/// The stones of one chain, following its circular list.
pub(crate) struct ChainCells<'a> {
    cells: &'a [u32],
    start: Cell,
    cur: Option<Cell>,
}

impl Iterator for ChainCells<'_> {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        let c = self.cur?;
        let n = next_of(self.cells[c]);
        self.cur = (n != self.start).then_some(n);
        Some(c)
    }
}
