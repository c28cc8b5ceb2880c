//! Eye shapes that cannot make two eyes once the attacker holds the vital point (nakade shapes).

use crate::grid::Cell;

/// Whether an eye space of these connected cells (row stride `stride`) is dead however its owner
/// plays, once the attacker holds its vital point: see the list in the crate docs.
pub(crate) fn killing_shape(cells: &[Cell], stride: usize, border: impl Fn(Cell) -> bool) -> bool {
    let inside = |c: Cell| cells.contains(&c);
    let degree = |c: Cell| [c - stride, c - 1, c + 1, c + stride].into_iter().filter(|&n| inside(n)).count();
    let has_square = cells.iter().any(|&c| inside(c + 1) && inside(c + stride) && inside(c + stride + 1));
    match cells.len() {
        0..=3 => true,
        4 => {
            has_square
                || cells.iter().any(|&c| degree(c) == 3)
                || cells.iter().any(|&k| {
                    // The bent four in the corner: its bend on the corner point, one arm two long.
                    let edges = [k - stride, k - 1, k + 1, k + stride].into_iter().filter(|&n| border(n)).count();
                    edges == 2 && degree(k) == 2 && cells.iter().all(|&c| c == k || degree(c) <= 2)
                })
        }
        5 => has_square || cells.iter().any(|&c| degree(c) == 4),
        6 => cells.iter().any(|&c| {
            degree(c) == 4 && {
                let arms = [c - stride, c - 1, c + 1, c + stride];
                cells.iter().any(|&d| !arms.contains(&d) && d != c && degree(d) == 2)
            }
        }),
        _ => false,
    }
}
