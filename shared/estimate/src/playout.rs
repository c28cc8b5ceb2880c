//! Monte-Carlo playouts on a small, fast board of its own.
//!
//! The rules core's `Board` keeps exact liberties and superko history, which a playout does not
//! need. This board keeps, at the head of each chain, its number of *pseudo-liberties* (one per
//! stone–empty adjacency) with their sum and sum of squares: a chain is captured when the count is
//! zero, and it is in atari exactly when every pseudo-liberty is the same point, that is when
//! `count × Σ² = (Σ)²` (the point being `Σ / count`). Both tests are O(1), and so is the test of a
//! candidate move: the merged chain's sums are the sums of its parts.
//!
//! The policy, for the side to move:
//!
//! 1. If the last move left its own chain in atari, capture it.
//! 2. If the last move put one of our chains in atari, extend it from its liberty when that gives it
//!    at least two liberties.
//! 3. Otherwise capture the biggest enemy chain in atari anywhere on the board.
//! 4. Otherwise, with the probability `Policy::patterns` gives, a point next to the last move that
//!    answers it by a 3×3 pattern (see `pattern`) and is neither refused by the rules of 5 nor a
//!    self-atari, at random among those.
//! 5. Otherwise a uniformly random empty point, skipping the ko point, suicide, our own true eyes
//!    (every neighbour ours, and at most one opponent diagonal, none on the edge), and self-atari
//!    that would leave a chain of two or more stones with one liberty (a single stone may still be
//!    thrown in: throw-ins destroy false eyes and nakade kill eye shapes), and a move that leaves
//!    our chain two liberties into which the enemy can throw a nakade (see `opens_nakade`).
//! 6. Pass when nothing is left. Two passes in a row end the playout.
//!
//! At the end every point belongs to the color of its stone, or, when empty, to the one color of its
//! stone neighbours; empty points touching both colors (the shared liberties of a seki) are neutral.

use weiqi_rules::random::SplitMix64;

use crate::grid::{BLACK, BORDER, Cell, EMPTY, Grid, WHITE, other};
use crate::shape::killing_shape;

const NONE: u16 = u16::MAX;

/// What a candidate move would do to the mover's chain.
struct Candidate {
    /// The merged chain would have no liberty and the move captures nothing.
    suicide: bool,
    /// The merged chain would be left in atari and the move captures nothing.
    self_atari: bool,
    /// Stones of the merged chain, the new stone included.
    stones: u32,
    /// The merged chain's one liberty, when it is left in atari.
    liberty: Cell,
    /// The merged chain's pseudo-liberties (one per stone–empty adjacency).
    pseudo: u32,
}

/// The choices of the playout policy that can be tuned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Policy {
    /// How often, out of 256, a move answers the last one by a 3×3 pattern when one fits.
    pub patterns: u16,
}

/// The most stones a nakade sacrifice may have (a rabbity six).
const MAX_NAKADE: usize = 6;

/// A playout board.
#[derive(Clone)]
pub(crate) struct PlayoutBoard {
    stride: usize,
    color: Vec<u8>,
    head: Vec<u16>,
    next: Vec<u16>,
    /// At a chain's head: pseudo-liberties, their sum and sum of squares, and the stone count.
    libs: Vec<u16>,
    lsum: Vec<u32>,
    lsq: Vec<u32>,
    stones: Vec<u16>,
    /// Every empty on-board cell, and where each is in the list.
    empty: Vec<u16>,
    empty_at: Vec<u16>,
    /// The point the side to move may not play (simple ko), or 0.
    ko: Cell,
    /// Stones of chains that were left in atari by some move (stale entries are dropped when read).
    ataris: Vec<u16>,
}

impl PlayoutBoard {
    /// The position of `grid`. Chains are built by playing each stone in turn: no stone of a legal
    /// position captures or is captured while its own position is set up (every partial chain keeps
    /// a liberty of its final chain or a point still empty).
    pub fn new(grid: &Grid) -> PlayoutBoard {
        let len = grid.len;
        let mut b = PlayoutBoard {
            stride: grid.stride,
            color: grid.color.iter().map(|&c| if c == BORDER { BORDER } else { EMPTY }).collect(),
            head: vec![NONE; len],
            next: vec![NONE; len],
            libs: vec![0; len],
            lsum: vec![0; len],
            lsq: vec![0; len],
            stones: vec![0; len],
            empty: Vec::with_capacity(grid.points.len()),
            empty_at: vec![NONE; len],
            ko: 0,
            ataris: Vec::new(),
        };
        for &c in &grid.points {
            b.empty_at[c] = b.empty.len() as u16;
            b.empty.push(c as u16);
        }
        for &c in &grid.points {
            if grid.color[c] == BLACK || grid.color[c] == WHITE {
                b.play(c, grid.color[c]);
            }
        }
        b.ko = 0;
        b.ataris.clear();
        for &c in &grid.points {
            if matches!(b.color[c], BLACK | WHITE) && b.head(c) == c && b.in_atari(c) {
                b.ataris.push(c as u16);
            }
        }
        b
    }

    /// Copies another board of the same size into this one without allocating.
    pub fn copy_from(&mut self, other: &PlayoutBoard) {
        self.color.copy_from_slice(&other.color);
        self.head.copy_from_slice(&other.head);
        self.next.copy_from_slice(&other.next);
        self.libs.copy_from_slice(&other.libs);
        self.lsum.copy_from_slice(&other.lsum);
        self.lsq.copy_from_slice(&other.lsq);
        self.stones.copy_from_slice(&other.stones);
        self.empty.clear();
        self.empty.extend_from_slice(&other.empty);
        self.empty_at.copy_from_slice(&other.empty_at);
        self.ko = other.ko;
        self.ataris.clear();
        self.ataris.extend_from_slice(&other.ataris);
    }

    #[inline(always)]
    fn neighbours(&self, c: Cell) -> [Cell; 4] {
        [c - self.stride, c - 1, c + 1, c + self.stride]
    }

    #[inline(always)]
    fn diagonals(&self, c: Cell) -> [Cell; 4] {
        [c - self.stride - 1, c - self.stride + 1, c + self.stride - 1, c + self.stride + 1]
    }

    /// The stone code on a cell.
    #[inline(always)]
    pub fn color(&self, c: Cell) -> u8 {
        self.color[c]
    }

    #[inline(always)]
    fn head(&self, c: Cell) -> Cell {
        self.head[c] as Cell
    }

    #[inline(always)]
    fn add_lib(&mut self, h: Cell, lib: Cell) {
        self.libs[h] += 1;
        self.lsum[h] += lib as u32;
        self.lsq[h] += (lib * lib) as u32;
    }

    #[inline(always)]
    fn remove_lib(&mut self, h: Cell, lib: Cell) {
        self.libs[h] -= 1;
        self.lsum[h] -= lib as u32;
        self.lsq[h] -= (lib * lib) as u32;
    }

    /// Whether the chain headed by `h` has exactly one liberty.
    #[inline(always)]
    fn in_atari(&self, h: Cell) -> bool {
        let n = self.libs[h] as u64;
        let s = self.lsum[h] as u64;
        n > 0 && n * self.lsq[h] as u64 == s * s
    }

    /// The one liberty of a chain in atari.
    #[inline(always)]
    fn atari_liberty(&self, h: Cell) -> Cell {
        (self.lsum[h] / self.libs[h] as u32) as Cell
    }

    fn remove_empty(&mut self, c: Cell) {
        let i = self.empty_at[c] as usize;
        let last = self.empty.pop().expect("the cell is in the list") as Cell;
        if last != c {
            self.empty[i] = last as u16;
            self.empty_at[last] = i as u16;
        }
        self.empty_at[c] = NONE;
    }

    fn add_empty(&mut self, c: Cell) {
        self.empty_at[c] = self.empty.len() as u16;
        self.empty.push(c as u16);
    }

    /// Plays a legal, non-suicidal move of `me` on the empty cell `c`: merges, captures, sets ko.
    pub fn play(&mut self, c: Cell, me: u8) {
        let opp = other(me);
        self.remove_empty(c);
        self.color[c] = me;
        self.head[c] = c as u16;
        self.next[c] = c as u16;
        self.stones[c] = 1;
        self.libs[c] = 0;
        self.lsum[c] = 0;
        self.lsq[c] = 0;
        for n in self.neighbours(c) {
            match self.color[n] {
                EMPTY => self.add_lib(c, n),
                BORDER => {}
                _ => {
                    let h = self.head(n);
                    self.remove_lib(h, c);
                }
            }
        }
        for n in self.neighbours(c) {
            if self.color[n] == me && self.head(n) != self.head(c) {
                let (a, b) = (self.head(c), self.head(n));
                self.merge(a, b);
            }
        }
        let mut captured = 0;
        let mut captured_at = 0;
        for n in self.neighbours(c) {
            if self.color[n] == opp {
                let h = self.head(n);
                if self.libs[h] == 0 {
                    captured += self.stones[h];
                    captured_at = n;
                    self.remove_chain(h);
                }
            }
        }
        let h = self.head(c);
        self.ko = if captured == 1 && self.stones[h] == 1 && self.libs[h] == 1 { captured_at } else { 0 };
        if self.in_atari(h) {
            self.ataris.push(h as u16);
        }
        for n in self.neighbours(c) {
            if self.color[n] == opp && self.in_atari(self.head(n)) {
                self.ataris.push(n as u16);
            }
        }
    }

    /// A pass: only the ko point is forgotten.
    pub fn pass(&mut self) {
        self.ko = 0;
    }

    /// Joins the chains headed by `a` and `b` (the smaller is relabelled).
    fn merge(&mut self, a: Cell, b: Cell) {
        let (big, small) = if self.stones[a] >= self.stones[b] { (a, b) } else { (b, a) };
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = self.next[s] as Cell;
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.libs[big] += self.libs[small];
        self.lsum[big] += self.lsum[small];
        self.lsq[big] += self.lsq[small];
        self.stones[big] += self.stones[small];
    }

    /// Takes the chain headed by `h` off the board and gives its points back as liberties.
    fn remove_chain(&mut self, h: Cell) {
        let mut s = h;
        loop {
            self.color[s] = EMPTY;
            self.add_empty(s);
            s = self.next[s] as Cell;
            if s == h {
                break;
            }
        }
        loop {
            let next = self.next[s] as Cell;
            for n in self.neighbours(s) {
                if matches!(self.color[n], BLACK | WHITE) {
                    let hh = self.head(n);
                    self.add_lib(hh, s);
                }
            }
            self.head[s] = NONE;
            s = next;
            if s == h {
                break;
            }
        }
    }

    /// Whether the empty cell `c` is a true eye of `me`: every neighbour `me` or the edge, and at most
    /// one opponent stone on the diagonals (none when the point is on the edge).
    fn is_true_eye(&self, c: Cell, me: u8) -> bool {
        if self.neighbours(c).iter().any(|&n| self.color[n] != me && self.color[n] != BORDER) {
            return false;
        }
        let mut opp = 0;
        let mut edge = false;
        for d in self.diagonals(c) {
            match self.color[d] {
                BORDER => edge = true,
                k if k == other(me) => opp += 1,
                _ => {}
            }
        }
        if edge { opp == 0 } else { opp <= 1 }
    }

    /// What `me` on the empty cell `c` would do to its own chain.
    fn candidate(&self, c: Cell, me: u8) -> Candidate {
        let opp = other(me);
        // Signed: `c` is taken off before the chain it belongs to is added.
        let (mut libs, mut sum, mut sq) = (0i64, 0i64, 0i64);
        let mut stones = 1u32;
        let mut seen = [NONE; 4];
        let mut captures = false;
        let cc = c as i64;
        for (i, n) in self.neighbours(c).into_iter().enumerate() {
            let k = self.color[n];
            if k == EMPTY {
                libs += 1;
                sum += n as i64;
                sq += (n * n) as i64;
            } else if k == me {
                let h = self.head[n];
                // `c` is one pseudo-liberty of the chain per adjacency; it is filled now.
                libs -= 1;
                sum -= cc;
                sq -= cc * cc;
                if !seen[..i].contains(&h) {
                    seen[i] = h;
                    let h = h as Cell;
                    libs += i64::from(self.libs[h]);
                    sum += i64::from(self.lsum[h]);
                    sq += i64::from(self.lsq[h]);
                    stones += u32::from(self.stones[h]);
                }
            } else if k == opp && self.in_atari(self.head(n)) {
                captures = true;
            }
        }
        let one = libs > 0 && libs * sq == sum * sum;
        let liberty = if one { (sum / libs) as Cell } else { 0 };
        Candidate {
            suicide: !captures && libs == 0,
            self_atari: !captures && one,
            stones,
            liberty,
            pseudo: libs.max(0) as u32,
        }
    }

    /// Whether the policy lets `me` play the empty cell `c` at random.
    #[inline]
    fn acceptable(&self, c: Cell, me: u8) -> bool {
        if c == self.ko {
            return false;
        }
        let empty_neighbours = self.neighbours(c).iter().filter(|&&n| self.color[n] == EMPTY).count();
        if empty_neighbours >= 2 {
            // Two liberties of its own: neither suicide nor self-atari, and not an eye.
            return true;
        }
        if empty_neighbours == 0 && self.is_true_eye(c, me) {
            return false;
        }
        let m = self.candidate(c, me);
        if m.suicide {
            return false;
        }
        if m.self_atari {
            return m.stones == 1 || (m.stones as usize <= MAX_NAKADE && self.is_nakade(c, me, m.liberty));
        }
        // Two liberties are at most eight pseudo-liberties (four stones around each): only then can
        // the move leave exactly two.
        m.pseudo > 8 || !self.opens_nakade(c, me)
    }

    /// Whether `me` on `c` leaves its chain two liberties that the enemy can fill as a nakade: the
    /// enemy's stone there is a self-atari that also puts our chain in atari, and the shape we would
    /// capture kills us. In a seki whose inner chain has a killing shape this is the one move that
    /// loses it (the shared liberties are never ours to fill); random play would otherwise make it.
    fn opens_nakade(&self, c: Cell, me: u8) -> bool {
        let mut libs = [0usize; 2];
        let mut n = 0;
        let mut add = |l: Cell, libs: &mut [usize; 2]| -> bool {
            if libs[..n].contains(&l) {
                return true;
            }
            if n == 2 {
                return false;
            }
            libs[n] = l;
            n += 1;
            true
        };
        for nb in self.neighbours(c) {
            if self.color[nb] == EMPTY && !add(nb, &mut libs) {
                return false;
            }
        }
        let mut seen = [NONE; 4];
        for (i, nb) in self.neighbours(c).into_iter().enumerate() {
            if self.color[nb] != me || seen[..i].contains(&self.head[nb]) {
                continue;
            }
            seen[i] = self.head[nb];
            let h = self.head(nb);
            let mut s = h;
            loop {
                for l in self.neighbours(s) {
                    if l != c && self.color[l] == EMPTY && !add(l, &mut libs) {
                        return false;
                    }
                }
                s = self.next[s] as Cell;
                if s == h {
                    break;
                }
            }
        }
        if n != 2 {
            return false;
        }
        let opp = other(me);
        // A small enemy chain next to one of them, whose liberties are ours too (or `c`).
        let small_enemy = |l: Cell| {
            self.neighbours(l).iter().any(|&e| {
                if self.color[e] != opp || self.stones[self.head(e)] as usize >= MAX_NAKADE {
                    return false;
                }
                let h = self.head(e);
                let mut s = h;
                loop {
                    if self.neighbours(s).iter().any(|&x| self.color[x] == EMPTY && x != c && !libs.contains(&x)) {
                        return false;
                    }
                    s = self.next[s] as Cell;
                    if s == h {
                        return true;
                    }
                }
            })
        };
        if !libs.iter().any(|&l| small_enemy(l)) {
            return false;
        }
        let mut after = self.clone();
        after.play(c, me);
        libs.iter().any(|&l| {
            if l == after.ko {
                return false;
            }
            let m = after.candidate(l, opp);
            m.self_atari && m.stones as usize <= MAX_NAKADE && after.is_nakade(l, opp, m.liberty)
        })
    }

    /// Whether `me` on `c` makes a chain in atari, held inside one enemy chain, whose capture leaves
    /// the enemy an eye space that cannot make two eyes: any three points or fewer, the square and the
    /// pyramid four, the bent four in the corner, the bulky and crossed five, the rabbity six. Such a
    /// sacrifice (nakade) kills; any other self-atari of two or more stones only helps the enemy.
    fn is_nakade(&self, c: Cell, me: u8, liberty: Cell) -> bool {
        let mut cells = [0usize; MAX_NAKADE];
        cells[0] = c;
        let mut n = 1;
        for nb in self.neighbours(c) {
            if self.color[nb] != me || cells[..n].contains(&nb) {
                continue;
            }
            let h = self.head(nb);
            let mut s = h;
            loop {
                if n == MAX_NAKADE {
                    return false;
                }
                cells[n] = s;
                n += 1;
                s = self.next[s] as Cell;
                if s == h {
                    break;
                }
            }
        }
        let cells = &cells[..n];
        let mut enclosing = NONE;
        for &s in cells {
            for nb in self.neighbours(s) {
                if nb == liberty || nb == c || cells.contains(&nb) {
                    continue;
                }
                match self.color[nb] {
                    BORDER => {}
                    k if k == other(me) => {
                        let h = self.head[nb];
                        if enclosing == NONE {
                            enclosing = h;
                        } else if enclosing != h {
                            return false;
                        }
                    }
                    _ => return false,
                }
            }
        }
        if enclosing == NONE || !killing_shape(cells, self.stride, |s| self.color[s] == BORDER) {
            return false;
        }
        // An enclosing chain with an eye elsewhere lives whatever shape it captures: then the
        // sacrifice only breaks a seki.
        let enemy = other(me);
        let h = enclosing as Cell;
        let mut s = h;
        loop {
            for nb in self.neighbours(s) {
                if nb != liberty
                    && self.color[nb] == EMPTY
                    && self.neighbours(nb).iter().all(|&m| self.color[m] == enemy || self.color[m] == BORDER)
                {
                    return false;
                }
            }
            s = self.next[s] as Cell;
            if s == h {
                break;
            }
        }
        true
    }

    /// A legal move at `c` for `me` that leaves its chain at least two liberties.
    fn safe_extension(&self, c: Cell, me: u8) -> bool {
        if c == self.ko {
            return false;
        }
        let m = self.candidate(c, me);
        !m.suicide && !m.self_atari
    }

    /// The neighbourhood code of `c` for the pattern table (see `pattern`).
    #[inline]
    fn neighbourhood(&self, c: Cell) -> usize {
        let s = self.stride;
        [c - s - 1, c - s, c - s + 1, c - 1, c + 1, c + s - 1, c + s, c + s + 1]
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &n)| acc | (usize::from(self.color[n]) << (2 * i)))
    }

    /// A point next to the opponent's `last` move that answers it by a 3×3 pattern, and that the
    /// policy lets `me` play without leaving its chain in atari; chosen at random among them.
    fn pattern_answer(&self, me: u8, last: Cell, rng: &mut SplitMix64) -> Option<Cell> {
        let table = crate::pattern::table();
        let s = self.stride;
        let mut found = [0usize; 8];
        let mut n = 0;
        for c in [last - s - 1, last - s, last - s + 1, last - 1, last + 1, last + s - 1, last + s, last + s + 1] {
            if self.color[c] == EMPTY
                && table[self.neighbourhood(c)]
                && self.acceptable(c, me)
                && !self.candidate(c, me).self_atari
            {
                found[n] = c;
                n += 1;
            }
        }
        (n > 0).then(|| found[rng.below(n)])
    }

    /// Chooses the move of `me` after the opponent's `last` move (0 after a pass), or `None` to pass.
    fn choose(&mut self, me: u8, last: Cell, rng: &mut SplitMix64, policy: &Policy) -> Option<Cell> {
        if last != 0 && self.color[last] == other(me) {
            let h = self.head(last);
            if self.in_atari(h) {
                let lib = self.atari_liberty(h);
                if lib != self.ko && !self.candidate(lib, me).suicide {
                    return Some(lib);
                }
            }
            for n in self.neighbours(last) {
                if self.color[n] == me {
                    let h = self.head(n);
                    if self.in_atari(h) {
                        let lib = self.atari_liberty(h);
                        if self.safe_extension(lib, me) {
                            return Some(lib);
                        }
                    }
                }
            }
        }
        // Anywhere on the board: capture the biggest enemy chain in atari. (Saving our own chains in
        // atari anywhere, not only next to the last move, makes dead stones run and loses accuracy.)
        let mut capture = (0, 0);
        let mut i = 0;
        while i < self.ataris.len() {
            let s = self.ataris[i] as Cell;
            let k = self.color[s];
            if !matches!(k, BLACK | WHITE) || !self.in_atari(self.head(s)) {
                self.ataris.swap_remove(i);
                continue;
            }
            i += 1;
            let h = self.head(s);
            let size = self.stones[h];
            let lib = self.atari_liberty(h);
            if k != me && size > capture.0 && lib != self.ko {
                capture = (size, lib);
            }
        }
        if capture.0 > 0 {
            return Some(capture.1);
        }
        if policy.patterns > 0
            && last != 0
            && rng.below(256) < policy.patterns as usize
            && let Some(c) = self.pattern_answer(me, last, rng)
        {
            return Some(c);
        }
        let len = self.empty.len();
        if len == 0 {
            return None;
        }
        let start = rng.below(len);
        (0..len).map(|i| self.empty[(start + i) % len] as Cell).find(|&c| self.acceptable(c, me))
    }

    /// Plays the position out from here, `first` to move, until two passes in a row or `limit`
    /// moves. Returns the moves played (passes included).
    pub fn run(&mut self, first: u8, limit: usize, rng: &mut SplitMix64, policy: &Policy) -> usize {
        let mut me = first;
        let mut last = 0;
        let mut passes = 0;
        let mut played = 0;
        for _ in 0..limit {
            played += 1;
            match self.choose(me, last, rng, policy) {
                Some(c) => {
                    self.play(c, me);
                    last = c;
                    passes = 0;
                }
                None => {
                    self.pass();
                    last = 0;
                    passes += 1;
                    if passes == 2 {
                        break;
                    }
                }
            }
            me = other(me);
        }
        played
    }

    /// The owner of a cell at the end of a playout: its stone's code, or for an empty cell the one
    /// color among its stone neighbours; `EMPTY` when neutral.
    #[inline]
    pub fn owner(&self, c: Cell) -> u8 {
        match self.color[c] {
            EMPTY => {
                let mut mask = 0;
                for n in self.neighbours(c) {
                    mask |= match self.color[n] {
                        BLACK => 1,
                        WHITE => 2,
                        _ => 0,
                    };
                }
                match mask {
                    1 => BLACK,
                    2 => WHITE,
                    _ => EMPTY,
                }
            }
            k => k,
        }
    }

    /// Checks the chain bookkeeping against a recount. For tests.
    #[cfg(test)]
    pub fn check(&self, grid: &Grid) -> Result<(), String> {
        for &c in &grid.points {
            if matches!(self.color[c], BLACK | WHITE) {
                let h = self.head(c);
                let mut libs = 0u16;
                let mut count = 0u16;
                let mut s = h;
                loop {
                    count += 1;
                    if self.head(s) != h {
                        return Err(format!("cell {s} has another head"));
                    }
                    libs += self.neighbours(s).iter().filter(|&&n| self.color[n] == EMPTY).count() as u16;
                    s = self.next[s] as Cell;
                    if s == h {
                        break;
                    }
                }
                if libs != self.libs[h] || count != self.stones[h] {
                    return Err(format!(
                        "chain at {h}: {libs} libs, {count} stones; kept {} {}",
                        self.libs[h], self.stones[h]
                    ));
                }
            } else if self.color[c] == EMPTY && self.empty[self.empty_at[c] as usize] as Cell != c {
                return Err(format!("empty cell {c} not listed"));
            }
        }
        let empties = grid.points.iter().filter(|&&c| self.color[c] == EMPTY).count();
        if empties != self.empty.len() {
            return Err("empty list has the wrong length".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weiqi_rules::{Board, Color, Game, Point, Ruleset};

    fn random_board(size: u8, seed: u64) -> Board {
        let (_, game) = weiqi_rules::random::random_game(size, Ruleset::chinese(), seed, 60);
        game.board().clone()
    }

    #[test]
    fn pseudo_liberties_stay_exact_through_playouts() {
        for seed in 0..20 {
            let board = random_board(9, seed);
            let grid = Grid::of(&board);
            let base = PlayoutBoard::new(&grid);
            base.check(&grid).unwrap();
            let mut b = base.clone();
            let mut rng = SplitMix64(seed);
            let mut me = BLACK;
            for _ in 0..300 {
                match b.choose(me, 0, &mut rng, &Policy::default()) {
                    Some(c) => b.play(c, me),
                    None => b.pass(),
                }
                b.check(&grid).unwrap();
                me = other(me);
            }
        }
    }

    #[test]
    fn a_setup_position_is_copied_exactly() {
        let mut game = Game::new(5, Ruleset::chinese()).unwrap();
        let b: Vec<Point> = [(0, 1), (1, 0), (1, 1)].iter().map(|&(x, y)| Point::new(x, y)).collect();
        let w: Vec<Point> = [(2, 0), (2, 1), (0, 2), (1, 2)].iter().map(|&(x, y)| Point::new(x, y)).collect();
        game.setup(&b, &w, &[]).unwrap();
        let grid = Grid::of(game.board());
        let pb = PlayoutBoard::new(&grid);
        pb.check(&grid).unwrap();
        let black_head = pb.head(grid.cell(Point::new(1, 1)));
        assert!(pb.in_atari(black_head), "the black corner chain has one liberty, A5");
        assert_eq!(grid.point(pb.atari_liberty(black_head)), Point::new(0, 0));
        assert_eq!(pb.color(grid.cell(Point::new(2, 2))), EMPTY);
        assert_eq!(game.board().get(Point::new(2, 0)), Some(Color::White));
    }
}
