//! The 3×3 shapes a playout answers locally: the hane, cut and edge patterns of MoGo (Gelly, Wang,
//! Munos and Teytaud, *Modification of UCT with patterns in Monte-Carlo Go*, 2006), as Pachi and
//! other Monte-Carlo programs use them.
//!
//! A pattern is the eight points around an empty candidate point, read as `X` (one color), `O` (the
//! other), `.` (empty), ` ` (off the board), `x` (not `X`: empty, `O` or off the board), `o` (not
//! `O`) and `?` (anything). Every pattern counts in its eight symmetries and with the colors
//! swapped, so a table of the 4⁸ neighbourhoods (each point one of the grid's codes: empty, black,
//! white, border) says whether a point matches.

use std::sync::OnceLock;

use crate::grid::{BLACK, BORDER, EMPTY, WHITE};

/// The patterns, rows top first; the middle point is the candidate and always empty.
const PATTERNS: [[&str; 3]; 13] = [
    ["XOX", "...", "???"], // hane that encloses
    ["XO.", "...", "?.?"], // hane that does not cut
    ["XO?", "X..", "x.?"], // magari
    [".O.", "X..", "..."], // katatsuke, diagonal attachment
    ["XO?", "O.o", "?o?"], // cut: unprotected
    ["XO?", "O.X", "???"], // cut: peeped
    ["?X?", "O.O", "ooo"], // cut 2 (de)
    ["OX?", "o.O", "???"], // cut a keima
    ["X.?", "O.?", "   "], // edge: chase
    ["OX?", "X.O", "   "], // edge: block the cut
    ["?X?", "x.O", "   "], // edge: block the connection
    ["?XO", "x.x", "   "], // edge: sagari
    ["?OX", "X.O", "   "], // edge: cut
];

/// The codes one pattern character allows, `X` standing for `x_code`.
fn allowed(ch: u8, x_code: u8) -> &'static [u8] {
    let o_code = if x_code == BLACK { WHITE } else { BLACK };
    match (ch, o_code == WHITE) {
        (b'X', true) | (b'O', false) => &[BLACK],
        (b'X', false) | (b'O', true) => &[WHITE],
        (b'.', _) => &[EMPTY],
        (b' ', _) => &[BORDER],
        (b'x', true) | (b'o', false) => &[EMPTY, WHITE, BORDER],
        (b'x', false) | (b'o', true) => &[EMPTY, BLACK, BORDER],
        _ => &[EMPTY, BLACK, WHITE, BORDER],
    }
}

/// The eight neighbour positions (row, column in 0..3) in the order of a neighbourhood code:
/// NW, N, NE, W, E, SW, S, SE.
const ORDER: [(usize, usize); 8] = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)];

/// The pattern table: `table()[code]` for a neighbourhood `code` (two bits a neighbour, in
/// [`ORDER`]).
pub(crate) fn table() -> &'static [bool] {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![false; 1 << 16];
        for pattern in PATTERNS {
            let grid: Vec<&[u8]> = pattern.iter().map(|r| r.as_bytes()).collect();
            for symmetry in 0..8 {
                // The character at (r, c) of the pattern seen in this symmetry.
                let at = |r: usize, c: usize| {
                    let (r, c) = if symmetry & 4 != 0 { (c, r) } else { (r, c) };
                    let r = if symmetry & 1 != 0 { 2 - r } else { r };
                    let c = if symmetry & 2 != 0 { 2 - c } else { c };
                    grid[r][c]
                };
                for x_code in [BLACK, WHITE] {
                    let choices: Vec<&[u8]> = ORDER.iter().map(|&(r, c)| allowed(at(r, c), x_code)).collect();
                    fill(&mut table, &choices, 0, 0);
                }
            }
        }
        table
    })
}

/// Marks every code that takes one of `choices[i]` at each neighbour from `i` on.
fn fill(table: &mut [bool], choices: &[&[u8]], i: usize, code: usize) {
    if i == choices.len() {
        table[code] = true;
        return;
    }
    for &k in choices[i] {
        fill(table, choices, i + 1, code | (usize::from(k) << (2 * i)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(rows: [&str; 3]) -> usize {
        let g: Vec<&[u8]> = rows.iter().map(|r| r.as_bytes()).collect();
        ORDER.iter().enumerate().fold(0, |acc, (i, &(r, c))| {
            let k = match g[r][c] {
                b'X' => BLACK,
                b'O' => WHITE,
                b' ' => BORDER,
                _ => EMPTY,
            };
            acc | (usize::from(k) << (2 * i))
        })
    }

    #[test]
    fn a_hane_matches_in_every_orientation_and_either_color() {
        let t = table();
        assert!(t[code(["XOX", "...", "..."])]);
        assert!(t[code(["...", "...", "OXO"])], "upside down, colors swapped");
        assert!(t[code(["X..", "O..", "X.."])], "turned");
    }

    #[test]
    fn an_empty_neighbourhood_and_a_lone_stone_match_nothing() {
        let t = table();
        assert!(!t[code(["...", "...", "..."])]);
        assert!(!t[code(["...", "..X", "..."])]);
        assert!(!t[code(["X..", "...", "..."])]);
    }

    #[test]
    fn an_edge_pattern_matches_on_the_edge() {
        let t = table();
        assert!(t[code([".OX", "X.O", "   "])], "the cut on the edge");
        assert!(t[code(["   ", "O.X", "XO."])], "upside down, colors swapped");
    }
}
