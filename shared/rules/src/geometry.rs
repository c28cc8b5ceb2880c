//! The fixed shape of a board of one size: padded cell layout, neighbours, and per-cell Zobrist keys.
//!
//! A board of size N is stored as a one-dimensional array of `(N + 2) * (N + 1) + 1` cells with a
//! border: row stride `N + 1`, so that the single padding column serves as both the right edge of one
//! row and the left edge of the next (the layout KataGo uses). The four neighbours of cell `i` are
//! `i - stride`, `i - 1`, `i + 1`, `i + stride`, with no bounds checks: every on-board cell has four
//! neighbours inside the array, some of them border cells.
//!
//! Geometries are built once per size and shared (`&'static`), so a board carries only a pointer.

use std::sync::OnceLock;

use crate::point::{Color, MAX_SIZE, MIN_SIZE, Point};
use crate::zobrist;

/// Index of a cell in the padded layout.
pub(crate) type Cell = usize;

/// The shape of one board size.
pub(crate) struct Geometry {
    pub size: u8,
    pub stride: usize,
    pub len: usize,
    /// Every on-board cell, in row-major order from the top-left.
    pub points: Box<[u16]>,
    /// Zobrist key per cell and color (0 for border cells).
    pub keys: Box<[[u64; 2]]>,
}

impl Geometry {
    fn build(size: u8) -> Geometry {
        let n = size as usize;
        let stride = n + 1;
        let len = (n + 2) * stride + 1;
        let mut points = Vec::with_capacity(n * n);
        let mut keys = vec![[0u64; 2]; len];
        for y in 0..size {
            for x in 0..size {
                let c = (y as usize + 1) * stride + x as usize + 1;
                points.push(c as u16);
                keys[c] = [zobrist::stone_key(Color::Black, x, y), zobrist::stone_key(Color::White, x, y)];
            }
        }
        Geometry { size, stride, len, points: points.into_boxed_slice(), keys: keys.into_boxed_slice() }
    }

    /// The shared geometry of `size`, or `None` outside 2..=25.
    pub fn of(size: u8) -> Option<&'static Geometry> {
        static ALL: [OnceLock<Geometry>; MAX_SIZE as usize + 1] = [const { OnceLock::new() }; MAX_SIZE as usize + 1];
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return None;
        }
        Some(ALL[size as usize].get_or_init(|| Geometry::build(size)))
    }

    /// The cell of an on-board point.
    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        (p.y as usize + 1) * self.stride + p.x as usize + 1
    }

    /// The point of an on-board cell.
    #[inline]
    pub fn point(&self, c: Cell) -> Point {
        let y = c / self.stride - 1;
        let x = c % self.stride - 1;
        Point::new(x as u8, y as u8)
    }

    /// The four neighbours of a cell, border cells included.
    #[inline(always)]
    pub fn neighbours(&self, c: Cell) -> [Cell; 4] {
        [c - self.stride, c - 1, c + 1, c + self.stride]
    }
}
