//! The static picture of a position: its chains with their liberties, and its empty regions with the
//! colors they touch.

use crate::grid::{BLACK, BORDER, Cell, EMPTY, Grid, WHITE};

/// No chain or region on this cell.
pub(crate) const NO_ID: u32 = u32::MAX;

/// A chain of stones.
#[derive(Clone, Debug)]
pub(crate) struct Chain {
    /// `BLACK` or `WHITE`.
    pub color: u8,
    /// Its stones, in board order.
    pub stones: Vec<Cell>,
    /// Its liberties, in board order.
    pub liberties: Vec<Cell>,
}

/// A maximal connected set of empty points.
#[derive(Clone, Debug)]
pub(crate) struct Region {
    /// Its points, in the order they were reached.
    pub cells: Vec<Cell>,
    /// Bit 1: touches a black stone; bit 2: touches a white stone.
    pub touches: u8,
}

/// Chains and empty regions of one position.
#[derive(Clone, Debug)]
pub(crate) struct Chains {
    pub chains: Vec<Chain>,
    /// Chain index per cell, or [`NO_ID`].
    pub chain_of: Vec<u32>,
    pub regions: Vec<Region>,
    /// Region index per cell, or [`NO_ID`].
    pub region_of: Vec<u32>,
}

impl Chains {
    /// Labels the chains and empty regions of `color` (a cell array of `grid`'s layout).
    pub fn of(grid: &Grid, color: &[u8]) -> Chains {
        let mut chain_of = vec![NO_ID; grid.len];
        let mut region_of = vec![NO_ID; grid.len];
        let mut chains = Vec::new();
        let mut regions = Vec::new();
        let mut lib_mark = vec![NO_ID; grid.len];
        let mut stack = Vec::new();
        for &c in &grid.points {
            let k = color[c];
            if k == EMPTY {
                if region_of[c] != NO_ID {
                    continue;
                }
                let id = regions.len() as u32;
                let mut cells = Vec::new();
                let mut touches = 0;
                region_of[c] = id;
                stack.push(c);
                while let Some(s) = stack.pop() {
                    cells.push(s);
                    for n in grid.neighbours(s) {
                        match color[n] {
                            EMPTY if region_of[n] == NO_ID => {
                                region_of[n] = id;
                                stack.push(n);
                            }
                            BLACK => touches |= 1,
                            WHITE => touches |= 2,
                            _ => {}
                        }
                    }
                }
                regions.push(Region { cells, touches });
            } else if k != BORDER && chain_of[c] == NO_ID {
                let id = chains.len() as u32;
                let mut stones = Vec::new();
                let mut liberties = Vec::new();
                chain_of[c] = id;
                stack.push(c);
                while let Some(s) = stack.pop() {
                    stones.push(s);
                    for n in grid.neighbours(s) {
                        if color[n] == EMPTY {
                            if lib_mark[n] != id {
                                lib_mark[n] = id;
                                liberties.push(n);
                            }
                        } else if color[n] == k && chain_of[n] == NO_ID {
                            chain_of[n] = id;
                            stack.push(n);
                        }
                    }
                }
                stones.sort_unstable();
                liberties.sort_unstable();
                chains.push(Chain { color: k, stones, liberties });
            }
        }
        Chains { chains, chain_of, regions, region_of }
    }
}
