//! Benson's unconditional life (D. B. Benson, "Life in the game of Go", 1976).
//!
//! For one color, a *region* is a maximal connected set of points that are not its stones (empty
//! points and enemy stones). A region is *vital* to a chain that borders it when every empty point of
//! the region is a liberty of that chain. Start from every chain of the color and every region; then
//! repeat until nothing changes: drop each chain with fewer than two vital regions among those left,
//! and drop each region that borders a dropped chain. The chains left can never be captured, whatever
//! the opponent plays and even if their owner passes forever; the regions left are theirs, and every
//! enemy stone inside them is dead (it can only ever get liberties that are also liberties of the
//! living chains, which can fill them all safely).

use crate::chains::{Chains, NO_ID};
use crate::grid::{BORDER, Cell, EMPTY, Grid};

/// What Benson's algorithm proves for one color.
pub(crate) struct Unconditional {
    /// Per chain index: unconditionally alive (always false for the other color's chains).
    pub alive: Vec<bool>,
    /// Per cell: inside a region of the living chains (their eyes, and the enemy stones there).
    pub safe: Vec<bool>,
}

struct BensonRegion {
    cells: Vec<Cell>,
    empties: u32,
    /// Bordering chains of the color, each with the number of the region's empty points that are its
    /// liberties.
    borders: Vec<(u32, u32)>,
}

/// Benson's algorithm for the stones of code `me`.
pub(crate) fn unconditional(grid: &Grid, color: &[u8], chains: &Chains, me: u8) -> Unconditional {
    let mut region_of = vec![NO_ID; grid.len];
    let mut regions: Vec<BensonRegion> = Vec::new();
    let mut stack = Vec::new();
    for &c in &grid.points {
        if color[c] == me || region_of[c] != NO_ID {
            continue;
        }
        let id = regions.len() as u32;
        let mut r = BensonRegion { cells: Vec::new(), empties: 0, borders: Vec::new() };
        region_of[c] = id;
        stack.push(c);
        while let Some(s) = stack.pop() {
            r.cells.push(s);
            let empty = color[s] == EMPTY;
            if empty {
                r.empties += 1;
            }
            let mut adjacent = [NO_ID; 4];
            for (i, n) in grid.neighbours(s).into_iter().enumerate() {
                let k = color[n];
                if k == BORDER {
                    continue;
                }
                if k == me {
                    let ch = chains.chain_of[n];
                    if adjacent[..i].contains(&ch) {
                        continue;
                    }
                    adjacent[i] = ch;
                    match r.borders.iter_mut().find(|(x, _)| *x == ch) {
                        Some(entry) => entry.1 += u32::from(empty),
                        None => r.borders.push((ch, u32::from(empty))),
                    }
                } else if region_of[n] == NO_ID {
                    region_of[n] = id;
                    stack.push(n);
                }
            }
        }
        regions.push(r);
    }

    let mut alive: Vec<bool> = chains.chains.iter().map(|ch| ch.color == me).collect();
    let mut live_region = vec![true; regions.len()];
    loop {
        let mut vital = vec![0u32; chains.chains.len()];
        for (r, region) in regions.iter().enumerate() {
            if !live_region[r] || region.empties == 0 {
                continue;
            }
            for &(ch, libs) in &region.borders {
                if libs == region.empties {
                    vital[ch as usize] += 1;
                }
            }
        }
        let mut changed = false;
        for (ch, a) in alive.iter_mut().enumerate() {
            if *a && vital[ch] < 2 {
                *a = false;
                changed = true;
            }
        }
        for (r, region) in regions.iter().enumerate() {
            if live_region[r] && region.borders.iter().any(|&(ch, _)| !alive[ch as usize]) {
                live_region[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    let mut safe = vec![false; grid.len];
    for (ch, chain) in chains.chains.iter().enumerate() {
        if alive[ch] {
            for &s in &chain.stones {
                safe[s] = true;
            }
        }
    }
    for (r, region) in regions.iter().enumerate() {
        // Only a region vital to a living chain is safe: a big region that merely borders living
        // chains may still hold enemy life.
        let vital = region.empties > 0 && region.borders.iter().any(|&(_, libs)| libs == region.empties);
        if live_region[r] && vital {
            for &s in &region.cells {
                safe[s] = true;
            }
        }
    }
    Unconditional { alive, safe }
}
