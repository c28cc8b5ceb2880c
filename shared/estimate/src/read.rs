//! Tactical reading of chains short of liberties: can the opponent of a chain capture it when it
//! moves first, and can the owner keep it when the owner moves first?
//!
//! A plain minimax search in the style of a Go program's tactical reader, on the liberties of one
//! chain. The attacker plays on the target's liberties, or saves one of its own chains next to the
//! target that is in atari. The defender captures an enemy chain next to the target that is in
//! atari, extends on a liberty, fills a liberty of an enemy chain next to the target that is short
//! of liberties too (a capturing race), or passes (a seki needs no move). Every move must be legal
//! (no suicide, no retaking a ko at once). A chain with more than [`SAFE_LIBS`] liberties is out of
//! tactical danger; the search stops at a depth and after a number of nodes, and then answers
//! [`Outcome::Unknown`], which the caller treats as no answer.

use crate::grid::{Cell, EMPTY, Grid, other};

/// A chain with more liberties than this is out of tactical danger.
pub(crate) const SAFE_LIBS: usize = 4;

/// The most enemy chains next to the target that the defender looks at.
const MAX_ADJACENT: usize = 8;

/// The most candidate moves at one node.
const MAX_MOVES: usize = 16;

/// The answer to one question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Yes,
    No,
    Unknown,
}

/// Up to `SAFE_LIBS + 1` liberties of a chain: `n` is their number, `SAFE_LIBS + 1` meaning more
/// than [`SAFE_LIBS`].
#[derive(Clone, Copy)]
struct Libs {
    n: usize,
    at: [Cell; SAFE_LIBS + 1],
}

/// A small list of moves without allocation.
struct Moves {
    n: usize,
    at: [Cell; MAX_MOVES],
}

impl Moves {
    fn new() -> Moves {
        Moves { n: 0, at: [0; MAX_MOVES] }
    }
    fn push(&mut self, c: Cell) {
        if self.n < MAX_MOVES && !self.at[..self.n].contains(&c) {
            self.at[self.n] = c;
            self.n += 1;
        }
    }
}

/// What a move changed, to take it back: the captured stones are the last `captured` entries of
/// [`Reader::captures`].
struct Undo {
    at: Cell,
    captured: usize,
    ko: Cell,
}

/// A board to read on: a copy of the stones, the simple-ko point and scratch space.
pub(crate) struct Reader {
    stride: usize,
    color: Vec<u8>,
    ko: Cell,
    mark: Vec<u32>,
    seen: Vec<u32>,
    generation: u32,
    stack: Vec<Cell>,
    stack2: Vec<Cell>,
    captures: Vec<Cell>,
    /// Nodes left for the current question, and for all questions together.
    nodes: u32,
    budget: u32,
}

impl Reader {
    /// A reader for the stones `color` of `grid`'s layout, allowed `budget` nodes in all.
    pub fn new(grid: &Grid, color: &[u8], budget: u32) -> Reader {
        Reader {
            stride: grid.stride,
            color: color.to_vec(),
            ko: 0,
            mark: vec![0; grid.len],
            seen: vec![0; grid.len],
            generation: 0,
            stack: Vec::with_capacity(64),
            stack2: Vec::with_capacity(64),
            captures: Vec::with_capacity(64),
            nodes: 0,
            budget,
        }
    }

    #[inline]
    fn neighbours(&self, c: Cell) -> [Cell; 4] {
        [c - self.stride, c - 1, c + 1, c + self.stride]
    }

    fn next_generation(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.seen.iter_mut().for_each(|m| *m = 0);
            self.generation = 1;
        }
        self.generation
    }

    /// The liberties of the chain on `c`. With `adjacent`, also one stone of every enemy chain next
    /// to it (up to [`MAX_ADJACENT`]), marked in `seen` with the returned generation.
    fn chain(&mut self, c: Cell, mut adjacent: Option<&mut Moves>) -> Libs {
        let me = self.color[c];
        let g = self.next_generation();
        let mut libs = Libs { n: 0, at: [0; SAFE_LIBS + 1] };
        self.stack.clear();
        self.stack.push(c);
        self.mark[c] = g;
        while let Some(s) = self.stack.pop() {
            for n in self.neighbours(s) {
                let k = self.color[n];
                if k == EMPTY {
                    if self.mark[n] != g {
                        self.mark[n] = g;
                        if libs.n <= SAFE_LIBS {
                            libs.at[libs.n] = n;
                            libs.n += 1;
                        }
                    }
                } else if k == me {
                    if self.mark[n] != g {
                        self.mark[n] = g;
                        self.stack.push(n);
                    }
                } else if k == other(me)
                    && let Some(adj) = adjacent.as_deref_mut()
                    && adj.n < MAX_ADJACENT
                    && self.seen[n] != g
                {
                    // Mark the whole enemy chain so that it is listed once.
                    adj.at[adj.n] = n;
                    adj.n += 1;
                    self.mark_chain(n, g);
                }
            }
        }
        libs
    }

    /// Marks the chain on `c` in `seen` with `g` (the first stack is in use by the caller).
    fn mark_chain(&mut self, c: Cell, g: u32) {
        let k = self.color[c];
        self.stack2.clear();
        self.stack2.push(c);
        self.seen[c] = g;
        while let Some(s) = self.stack2.pop() {
            for n in self.neighbours(s) {
                if self.color[n] == k && self.seen[n] != g {
                    self.seen[n] = g;
                    self.stack2.push(n);
                }
            }
        }
    }

    /// Plays `me` on `c` if legal (empty, not the ko point, not suicide).
    fn play(&mut self, c: Cell, me: u8) -> Option<Undo> {
        if self.color[c] != EMPTY || c == self.ko {
            return None;
        }
        let opp = other(me);
        self.color[c] = me;
        let before = self.captures.len();
        for n in self.neighbours(c) {
            if self.color[n] == opp && self.chain(n, None).n == 0 {
                // Take the chain off.
                self.stack2.clear();
                self.stack2.push(n);
                self.color[n] = EMPTY;
                while let Some(s) = self.stack2.pop() {
                    self.captures.push(s);
                    for m in self.neighbours(s) {
                        if self.color[m] == opp {
                            self.color[m] = EMPTY;
                            self.stack2.push(m);
                        }
                    }
                }
            }
        }
        let captured = self.captures.len() - before;
        let own = self.chain(c, None);
        if own.n == 0 {
            self.color[c] = EMPTY;
            return None;
        }
        let ko = self.ko;
        let single = self.neighbours(c).iter().all(|&n| self.color[n] != me);
        self.ko = if captured == 1 && single && own.n == 1 { self.captures[before] } else { 0 };
        Some(Undo { at: c, captured, ko })
    }

    fn undo(&mut self, u: Undo) {
        let me = self.color[u.at];
        self.color[u.at] = EMPTY;
        for _ in 0..u.captured {
            let s = self.captures.pop().expect("recorded");
            self.color[s] = other(me);
        }
        self.ko = u.ko;
    }

    fn spend(&mut self) -> bool {
        if self.nodes == 0 || self.budget == 0 {
            return false;
        }
        self.nodes -= 1;
        self.budget -= 1;
        true
    }

    /// Whether the opponent of the chain on `target`, moving first, can capture it, searching at
    /// most `depth` moves deep and `nodes` nodes.
    pub fn can_capture(&mut self, target: Cell, depth: u32, nodes: u32) -> Outcome {
        self.nodes = nodes;
        self.ko = 0;
        self.attack(target, depth)
    }

    /// Whether the owner of the chain on `target`, moving first, can keep it from capture.
    pub fn can_save(&mut self, target: Cell, depth: u32, nodes: u32) -> Outcome {
        self.nodes = nodes;
        self.ko = 0;
        self.defend(target, depth)
    }

    /// The attacker to move: can it capture the chain on `target`?
    fn attack(&mut self, target: Cell, depth: u32) -> Outcome {
        let me = other(self.color[target]);
        let mut adjacent = Moves::new();
        let libs = self.chain(target, Some(&mut adjacent));
        if libs.n == 0 {
            return Outcome::Yes;
        }
        if libs.n > SAFE_LIBS {
            return Outcome::No;
        }
        if libs.n == 1
            && let Some(u) = self.play(libs.at[0], me)
        {
            self.undo(u);
            return Outcome::Yes;
        }
        if depth == 0 || !self.spend() {
            return Outcome::Unknown;
        }
        let mut moves = Moves::new();
        for &l in &libs.at[..libs.n] {
            moves.push(l);
        }
        // Our chains next to the target in atari: their liberty saves them or gives them up.
        for &a in &adjacent.at[..adjacent.n] {
            let l = self.chain(a, None);
            if l.n == 1 {
                moves.push(l.at[0]);
            }
        }
        let mut unknown = false;
        for &m in &moves.at[..moves.n] {
            let Some(u) = self.play(m, me) else { continue };
            let r = if self.color[target] == EMPTY { Outcome::No } else { self.defend(target, depth - 1) };
            self.undo(u);
            match r {
                Outcome::No => return Outcome::Yes,
                Outcome::Unknown => unknown = true,
                Outcome::Yes => {}
            }
        }
        if unknown { Outcome::Unknown } else { Outcome::No }
    }

    /// The defender to move: can it keep the chain on `target`?
    fn defend(&mut self, target: Cell, depth: u32) -> Outcome {
        let me = self.color[target];
        let mut adjacent = Moves::new();
        let libs = self.chain(target, Some(&mut adjacent));
        if libs.n > SAFE_LIBS {
            return Outcome::Yes;
        }
        if depth == 0 || !self.spend() {
            return Outcome::Unknown;
        }
        // Captures first, then extensions, then the liberties of enemy chains that are short of
        // liberties as well; last, a pass.
        let mut enemy: [Libs; MAX_ADJACENT] = [Libs { n: 0, at: [0; SAFE_LIBS + 1] }; MAX_ADJACENT];
        for (k, &a) in adjacent.at[..adjacent.n].iter().enumerate() {
            enemy[k] = self.chain(a, None);
        }
        let enemy = &enemy[..adjacent.n];
        let mut moves = Moves::new();
        for e in enemy.iter().filter(|e| e.n == 1) {
            moves.push(e.at[0]);
        }
        for &l in &libs.at[..libs.n] {
            moves.push(l);
        }
        for e in enemy.iter().filter(|e| e.n > 1 && e.n <= libs.n + 1) {
            for &l in &e.at[..e.n] {
                moves.push(l);
            }
        }
        let mut unknown = false;
        for &m in &moves.at[..moves.n] {
            let Some(u) = self.play(m, me) else { continue };
            let r = self.attack(target, depth - 1);
            self.undo(u);
            match r {
                Outcome::No => return Outcome::Yes,
                Outcome::Unknown => unknown = true,
                Outcome::Yes => {}
            }
        }
        // A pass: the attacker moves again (and may retake no ko).
        let ko = std::mem::replace(&mut self.ko, 0);
        let r = self.attack(target, depth - 1);
        self.ko = ko;
        match r {
            Outcome::No => Outcome::Yes,
            Outcome::Yes if !unknown => Outcome::No,
            _ => Outcome::Unknown,
        }
    }
}
