//! Capturing races (semeai) and seki by counting liberties, the classical way.
//!
//! Two adjacent chains of opposite colors race when neither lives on its own. Each has *outside*
//! liberties (its own, that the opponent must fill), and perhaps one eye, which counts as liberties
//! by its size (1, 2, 3, 5, 8 and 12 for eyes of one to six points: the moves the opponent needs to
//! fill it, nakade included); the *shared* liberties are both chains' liberties. Filling a shared
//! liberty takes one from each side, and a stone may not be played into an eye's last point unless
//! it captures. [`race`] plays that abstract game out exactly, for either side moving first, and
//! says who captures whom, or that neither can and the chains are in seki: the rules of thumb
//! (without eyes the outside liberties decide and shared liberties make seki; an eye beats no eye
//! unless much shorter; the bigger eye gets the shared liberties) all follow from it.

use std::collections::HashMap;

use crate::chains::{Chains, NO_ID};
use crate::grid::{BLACK, BORDER, Cell, EMPTY, Grid};
use crate::shape::killing_shape;

/// The liberties an eye of 0..=6 points is worth in a race.
const EYE_LIBERTIES: [u8; 7] = [0, 1, 2, 3, 5, 8, 12];

/// The largest region (the inner chain's stones and liberties) a sacrifice can make a nakade of.
const MAX_NAKADE_REGION: usize = 7;

/// Counts are capped here: more is plenty.
const CAP: u8 = 12;

/// The end of a race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RaceEnd {
    /// The first chain captures the second.
    FirstWins,
    /// The second chain captures the first.
    SecondWins,
    /// Neither can capture the other.
    Seki,
}

/// One side of a race: outside liberties and eye liberties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Side {
    pub outside: u8,
    pub eye: u8,
}

/// The abstract race between `first` and `second` with `shared` liberties, `first` to move.
///
/// With eyes of different sizes (or an eye against none) the shared liberties are the bigger eye's:
/// the other side can fill them only after it has filled that eye's outside liberties, and then
/// each one it fills is its own last liberty but one; so they count as the bigger eye's outside
/// liberties. With equal eyes (or none), the game below is played with them shared.
pub(crate) fn race(first: Side, second: Side, shared: u8) -> RaceEnd {
    let cap = |s: Side| Side { outside: s.outside.min(CAP), eye: s.eye.min(CAP) };
    let (mut first, mut second, mut shared) = (cap(first), cap(second), shared.min(CAP));
    if first.eye > second.eye {
        first.outside = (first.outside + shared).min(CAP);
        shared = 0;
    } else if second.eye > first.eye {
        second.outside = (second.outside + shared).min(CAP);
        shared = 0;
    }
    let mut memo = HashMap::new();
    match value(first, second, shared, false, &mut memo) {
        1 => RaceEnd::FirstWins,
        -1 => RaceEnd::SecondWins,
        _ => RaceEnd::Seki,
    }
}

/// The value of the race for the side to move, `me`: 1 it captures, −1 it is captured, 0 seki.
/// `passed`: the opponent's last move was a pass (a second pass ends the race in seki).
fn value(me: Side, opp: Side, shared: u8, passed: bool, memo: &mut HashMap<(Side, Side, u8, bool), i8>) -> i8 {
    let opp_total = opp.outside + opp.eye + shared;
    let my_total = me.outside + me.eye + shared;
    if opp_total <= 1 {
        return 1; // fill the last liberty
    }
    if let Some(&v) = memo.get(&(me, opp, shared, passed)) {
        return v;
    }
    let mut best = if passed { 0 } else { -value(opp, me, shared, true, memo) };
    if best < 1 && opp.outside > 0 {
        best = best.max(-value(Side { outside: opp.outside - 1, ..opp }, me, shared, false, memo));
    }
    // A shared liberty: both lose one; not suicide.
    if best < 1 && shared > 0 && my_total > 1 {
        best = best.max(-value(opp, me, shared - 1, false, memo));
    }
    // Into the eye: only while the stone keeps a liberty there (the capturing fill is above).
    if best < 1 && opp.eye >= 2 {
        best = best.max(-value(Side { eye: opp.eye - 1, ..opp }, me, shared, false, memo));
    }
    memo.insert((me, opp, shared, passed), best);
    best
}

/// A race between two adjacent chains found on the board: `black` and `white` are chain indices.
#[derive(Clone, Debug)]
pub(crate) struct Race {
    pub black: usize,
    pub white: usize,
    /// The end with Black moving first, and with White moving first.
    pub black_first: RaceEnd,
    pub white_first: RaceEnd,
    /// The shared liberties.
    pub shared: Vec<Cell>,
}

/// The races on the board between chains that `weak` says do not live on their own. `group_of`
/// gives every chain's group (see `judge::groups`); a group with two eyes, or one eye bigger than
/// six points, lives on its own and races nobody. A chain that can connect to a chain not `weak`
/// (through one of its liberties) races nobody either.
pub(crate) fn races(grid: &Grid, chains: &Chains, group_of: &[u32], weak: &[bool]) -> Vec<Race> {
    let n = chains.chains.len();
    // Eye regions of each group: empty regions touching only its color.
    let mut eyes: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (r, region) in chains.regions.iter().enumerate() {
        if region.touches != 1 && region.touches != 2 {
            continue;
        }
        let border = region.cells.iter().flat_map(|&c| grid.neighbours(c)).find(|&m| chains.chain_of[m] != NO_ID);
        if let Some(m) = border {
            eyes[group_of[chains.chain_of[m] as usize] as usize].push(r as u32);
        }
    }
    let lives_alone =
        |g: usize| eyes[g].len() >= 2 || eyes[g].iter().any(|&r| chains.regions[r as usize].cells.len() > 6);
    let own_region = |c: Cell, color: u8| {
        let t = chains.regions[chains.region_of[c] as usize].touches;
        t == if color == BLACK { 1 } else { 2 }
    };
    // A chain that could gain liberties by extending (a liberty outside its eyes with an empty
    // neighbour that is not its liberty) is not held in: counting its liberties says nothing.
    let closed = |i: usize| {
        let chain = &chains.chains[i];
        chain.liberties.iter().filter(|&&l| !own_region(l, chain.color)).all(|&l| {
            grid.neighbours(l).iter().all(|&m| grid.color[m] != EMPTY || chain.liberties.binary_search(&m).is_ok())
        })
    };
    // A chain next to an enemy chain in atari can capture it, which the count does not see.
    let captures_elsewhere = |i: usize| {
        chains.chains[i].stones.iter().any(|&s| {
            grid.neighbours(s).iter().any(|&m| {
                let z = chains.chain_of[m];
                z != NO_ID
                    && chains.chains[z as usize].color != chains.chains[i].color
                    && chains.chains[z as usize].liberties.len() == 1
            })
        })
    };
    let in_danger = |z: usize| weak[z] && !lives_alone(group_of[z] as usize);
    // A chain that races except that it is not held in: a nakade inside it still kills it (its
    // outside liberties, however many, do not help), so it may be the outer chain of a sacrifice.
    let loose: Vec<bool> = (0..n)
        .map(|i| {
            let chain = &chains.chains[i];
            weak[i]
                && chain.liberties.len() >= 2
                && !lives_alone(group_of[i] as usize)
                && !captures_elsewhere(i)
                && !chain.liberties.iter().any(|&l| {
                    grid.neighbours(l).iter().any(|&m| {
                        let z = chains.chain_of[m];
                        z != NO_ID
                            && z as usize != i
                            && chains.chains[z as usize].color == chain.color
                            && !weak[z as usize]
                    })
                })
        })
        .collect();
    let racer: Vec<bool> = (0..n).map(|i| loose[i] && closed(i)).collect();
    // A chain's side of a race against a chain whose liberties are `theirs`.
    let side = |i: usize, theirs: &[Cell]| {
        let chain = &chains.chains[i];
        let mut eye = 0;
        let mut outside = 0u8;
        for &l in &chain.liberties {
            let region = chains.region_of[l] as usize;
            let touches = chains.regions[region].touches;
            if touches == if chain.color == BLACK { 1 } else { 2 } {
                eye = EYE_LIBERTIES[chains.regions[region].cells.len().min(6)];
            } else if !theirs.contains(&l) {
                outside = outside.saturating_add(1);
            }
        }
        Side { outside, eye }
    };
    // The race of `i` against `j` is theirs alone: no liberty of `i` touches another chain in
    // danger (of either color), which would take part in it.
    let isolated = |i: usize, j: usize| {
        chains.chains[i].liberties.iter().all(|&l| {
            grid.neighbours(l).iter().all(|&m| {
                let z = chains.chain_of[m];
                z == NO_ID || z as usize == i || z as usize == j || !in_danger(z as usize)
            })
        })
    };
    // Whether `inner`, all of whose liberties are shared with `outer` (which has no eye), kills it
    // by sacrifice: its stones and liberties make a small region that only `outer` borders, and
    // once it fills all its liberties but one, `outer` must capture and is left with a killing
    // eye shape (a nakade), so `outer` dies whatever its outside liberties.
    let sacrifice = |inner: usize, outer: usize| {
        let mut region: Vec<Cell> = chains.chains[inner].stones.clone();
        let mut i = 0;
        while i < region.len() && region.len() <= MAX_NAKADE_REGION {
            let c = region[i];
            i += 1;
            for m in grid.neighbours(c) {
                match grid.color[m] {
                    BORDER => {}
                    EMPTY if chains.chains[inner].liberties.binary_search(&m).is_ok() => {
                        if !region.contains(&m) {
                            region.push(m);
                        }
                    }
                    _ if chains.chain_of[m] as usize == inner || chains.chain_of[m] as usize == outer => {}
                    _ => return false,
                }
            }
        }
        if region.len() > MAX_NAKADE_REGION {
            return false;
        }
        chains.chains[inner].liberties.iter().any(|&keep| {
            let shape: Vec<Cell> = region.iter().copied().filter(|&c| c != keep).collect();
            connected(grid, &shape) && killing_shape(&shape, grid.stride, |c| grid.color[c] == BORDER)
        })
    };
    let mut out = Vec::new();
    for b in (0..n).filter(|&i| loose[i] && chains.chains[i].color == BLACK) {
        let mut seen: Vec<usize> = Vec::new();
        for &s in &chains.chains[b].stones {
            for m in grid.neighbours(s) {
                let w = chains.chain_of[m];
                if w == NO_ID || grid.color[m] == EMPTY || chains.chains[w as usize].color == BLACK {
                    continue;
                }
                let w = w as usize;
                if !loose[w] || seen.contains(&w) {
                    continue;
                }
                seen.push(w);
                let (b_alone, w_alone) = (isolated(b, w), isolated(w, b));
                let (bl, wl) = (&chains.chains[b].liberties, &chains.chains[w].liberties);
                let shared: Vec<Cell> = bl.iter().copied().filter(|l| wl.contains(l)).collect();
                let (bs, ws) = (side(b, wl), side(w, bl));
                let k = shared.len().min(u8::MAX as usize) as u8;
                // A sacrifice needs only the inner chain's liberties (all shared) to be theirs alone.
                let (black_first, white_first) =
                    if w_alone && bs.eye == 0 && ws.outside == 0 && ws.eye == 0 && sacrifice(w, b) {
                        (RaceEnd::SecondWins, RaceEnd::SecondWins)
                    } else if b_alone && ws.eye == 0 && bs.outside == 0 && bs.eye == 0 && sacrifice(b, w) {
                        (RaceEnd::FirstWins, RaceEnd::FirstWins)
                    } else if !racer[b] || !racer[w] || !b_alone || !w_alone {
                        // Not held in, or racing a third chain: only a sacrifice decides.
                        continue;
                    } else {
                        let white_first = match race(ws, bs, k) {
                            RaceEnd::FirstWins => RaceEnd::SecondWins,
                            RaceEnd::SecondWins => RaceEnd::FirstWins,
                            RaceEnd::Seki => RaceEnd::Seki,
                        };
                        (race(bs, ws, k), white_first)
                    };
                out.push(Race { black: b, white: w, black_first, white_first, shared });
            }
        }
    }
    out
}

/// Whether `cells` are one connected set.
fn connected(grid: &Grid, cells: &[Cell]) -> bool {
    let Some(&first) = cells.first() else { return true };
    let mut reached = vec![first];
    let mut j = 0;
    while j < reached.len() {
        let c = reached[j];
        j += 1;
        for m in grid.neighbours(c) {
            if cells.contains(&m) && !reached.contains(&m) {
                reached.push(m);
            }
        }
    }
    reached.len() == cells.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(outside: u8, eye: u8) -> Side {
        Side { outside, eye }
    }

    #[test]
    fn without_eyes_outside_liberties_decide_and_shared_ones_make_seki() {
        assert_eq!(race(s(0, 0), s(0, 0), 1), RaceEnd::FirstWins);
        assert_eq!(race(s(0, 0), s(0, 0), 2), RaceEnd::Seki);
        assert_eq!(race(s(1, 0), s(0, 0), 2), RaceEnd::FirstWins);
        assert_eq!(race(s(0, 0), s(2, 0), 2), RaceEnd::SecondWins);
        assert_eq!(race(s(0, 0), s(3, 0), 4), RaceEnd::Seki);
        assert_eq!(race(s(3, 0), s(3, 0), 0), RaceEnd::FirstWins);
        assert_eq!(race(s(2, 0), s(3, 0), 0), RaceEnd::SecondWins);
    }

    #[test]
    fn an_eye_beats_no_eye_unless_much_shorter() {
        // The shared liberties count for the eye.
        assert_eq!(race(s(1, 0), s(0, 1), 1), RaceEnd::SecondWins);
        assert_eq!(race(s(2, 0), s(0, 1), 2), RaceEnd::SecondWins);
        assert_eq!(race(s(3, 0), s(0, 1), 2), RaceEnd::FirstWins);
        assert_eq!(race(s(0, 1), s(3, 0), 2), RaceEnd::FirstWins);
        assert_eq!(race(s(0, 1), s(1, 0), 3), RaceEnd::FirstWins);
    }

    #[test]
    fn equal_eyes_share_nothing_and_a_bigger_eye_takes_the_shared_liberties() {
        assert_eq!(race(s(0, 1), s(0, 1), 2), RaceEnd::Seki);
        assert_eq!(race(s(0, 3), s(0, 1), 2), RaceEnd::FirstWins);
        assert_eq!(race(s(0, 1), s(0, 3), 2), RaceEnd::SecondWins);
    }
}
