//! The padded cell layout the estimator works on, and the stones of the position copied into it.
//!
//! The same layout as the rules core's board (which keeps its own private): a board of size N is a
//! one-dimensional array of `(N + 2) * (N + 1) + 1` cells with a border, row stride `N + 1`, so the
//! four neighbours and four diagonals of an on-board cell are always inside the array.

use weiqi_rules::{Board, Color, Point};

/// Index of a cell in the padded layout.
pub(crate) type Cell = usize;

pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
pub(crate) const BORDER: u8 = 3;

/// The code of a color in cell arrays.
#[inline]
pub(crate) const fn code(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// The color of a stone code.
#[inline]
pub(crate) fn color_of(code: u8) -> Option<Color> {
    match code {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

/// The other stone code.
#[inline(always)]
pub(crate) const fn other(code: u8) -> u8 {
    3 - code
}

/// One board size's layout and a position on it.
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    pub size: u8,
    pub stride: usize,
    pub len: usize,
    /// Every on-board cell, row by row from the top-left.
    pub points: Vec<Cell>,
    /// The stone on every cell (`EMPTY`, `BLACK`, `WHITE`, `BORDER`).
    pub color: Vec<u8>,
}

impl Grid {
    /// The position of `board` in the padded layout.
    pub fn of(board: &Board) -> Grid {
        let size = board.size();
        let n = size as usize;
        let stride = n + 1;
        let len = (n + 2) * stride + 1;
        let mut color = vec![BORDER; len];
        let mut points = Vec::with_capacity(n * n);
        for y in 0..size {
            for x in 0..size {
                let c = (y as usize + 1) * stride + x as usize + 1;
                points.push(c);
                color[c] = board.get(Point::new(x, y)).map_or(EMPTY, code);
            }
        }
        Grid { size, stride, len, points, color }
    }

    /// The cell of an on-board point.
    #[cfg(test)]
    pub fn cell(&self, p: Point) -> Cell {
        (p.y as usize + 1) * self.stride + p.x as usize + 1
    }

    /// The point of an on-board cell.
    #[inline]
    pub fn point(&self, c: Cell) -> Point {
        Point::new((c % self.stride - 1) as u8, (c / self.stride - 1) as u8)
    }

    /// Row-major index (0..N²) of an on-board cell, for the per-point arrays of the answer.
    #[inline]
    pub fn index(&self, c: Cell) -> usize {
        (c / self.stride - 1) * self.size as usize + (c % self.stride - 1)
    }

    /// The four neighbours of a cell, border cells included.
    #[inline(always)]
    pub fn neighbours(&self, c: Cell) -> [Cell; 4] {
        [c - self.stride, c - 1, c + 1, c + self.stride]
    }
}
