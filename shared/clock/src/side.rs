//! The two players, and a pair of values indexed by them.
//!
//! The clock has its own `Side` so that it depends on nothing; the game service converts from the rules
//! crate's color.

use std::fmt;
use std::ops::{Index, IndexMut};

/// A player, by color.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// Black.
    Black,
    /// White.
    White,
}

impl Side {
    /// Both sides, Black first.
    pub const BOTH: [Side; 2] = [Side::Black, Side::White];

    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Black => "Black",
            Side::White => "White",
        })
    }
}

/// One value per side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BySide<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

impl<T> BySide<T> {
    /// A pair from Black's and White's values.
    pub const fn new(black: T, white: T) -> BySide<T> {
        BySide { black, white }
    }

    /// The same value for both sides.
    pub fn both(value: T) -> BySide<T>
    where
        T: Clone,
    {
        BySide { black: value.clone(), white: value }
    }

    /// Applies `f` to each side's value.
    pub fn map<U>(self, mut f: impl FnMut(Side, T) -> U) -> BySide<U> {
        BySide { black: f(Side::Black, self.black), white: f(Side::White, self.white) }
    }

    /// The pair as `(side, &value)`, Black first.
    pub fn iter(&self) -> impl Iterator<Item = (Side, &T)> {
        [(Side::Black, &self.black), (Side::White, &self.white)].into_iter()
    }
}

impl<T> Index<Side> for BySide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        match side {
            Side::Black => &self.black,
            Side::White => &self.white,
        }
    }
}

impl<T> IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Black => &mut self.black,
            Side::White => &mut self.white,
        }
    }
}
