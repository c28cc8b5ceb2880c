//! Colors, points and moves, and their GTP and SGF spellings.

use std::fmt;

/// The smallest board the engine accepts.
pub const MIN_SIZE: u8 = 2;
/// The largest board the engine accepts (SGF allows 52; 25 covers every real use).
pub const MAX_SIZE: u8 = 25;

/// A side in the game. Black moves first unless handicap or an ancient ruleset says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Black, 黑.
    Black,
    /// White, 白.
    White,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-color arrays.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// `Black` or `White`, as sentences write it.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }

    /// `B` or `W`, as SGF and SGF results write it.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// Parses `b`, `black`, `w`, `white` (any case), as GTP does.
    pub fn parse(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// An intersection of the board: `x` is the column from the left, `y` the row from the top (SGF's
/// orientation), both from 0. GTP counts rows from the bottom; [`Point::to_gtp`] converts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column from the left, 0-based.
    pub x: u8,
    /// Row from the top, 0-based.
    pub y: u8,
}

/// GTP column letters: `I` is skipped.
const GTP_COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl Point {
    /// A point from its column and row (0-based, from the top-left).
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// Whether the point lies on a board of `size`.
    pub const fn is_on(self, size: u8) -> bool {
        self.x < size && self.y < size
    }

    /// Parses a GTP vertex such as `D4` or `t19` (not `pass`) for a board of `size`.
    pub fn from_gtp(s: &str, size: u8) -> Option<Point> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 {
            return None;
        }
        let letter = b[0].to_ascii_uppercase();
        let x = GTP_COLUMNS.iter().position(|&c| c == letter)? as u8;
        let digits = &s[1..];
        if !digits.bytes().all(|c| c.is_ascii_digit()) || digits.starts_with('0') {
            return None;
        }
        let row: u8 = digits.parse().ok()?;
        if row == 0 || row > size || x >= size {
            return None;
        }
        Some(Point { x, y: size - row })
    }

    /// The GTP spelling of this point on a board of `size`, e.g. `D4`.
    pub fn to_gtp(self, size: u8) -> String {
        format!("{}{}", GTP_COLUMNS[self.x as usize] as char, size - self.y)
    }

    /// Parses an SGF point such as `dd` (two lower-case letters, `a` = 0). Upper case letters are
    /// SGF's columns 26–51 and lie off every board this engine plays on.
    pub fn from_sgf(s: &[u8]) -> Option<Point> {
        if s.len() != 2 {
            return None;
        }
        let coord = |c: u8| -> Option<u8> {
            match c {
                b'a'..=b'z' => Some(c - b'a'),
                b'A'..=b'Z' => Some(c - b'A' + 26),
                _ => None,
            }
        };
        Some(Point { x: coord(s[0])?, y: coord(s[1])? })
    }

    /// The SGF spelling of this point, e.g. `dd`.
    pub fn to_sgf(self) -> String {
        let c = |v: u8| (if v < 26 { b'a' + v } else { b'A' + v - 26 }) as char;
        format!("{}{}", c(self.x), c(self.y))
    }
}

/// What a player does on their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone placed on a point.
    Play(Point),
    /// A pass (虚着).
    Pass,
}

impl Move {
    /// Parses a GTP move: a vertex or `pass`.
    pub fn from_gtp(s: &str, size: u8) -> Option<Move> {
        if s.eq_ignore_ascii_case("pass") { Some(Move::Pass) } else { Point::from_gtp(s, size).map(Move::Play) }
    }

    /// The GTP spelling: a vertex or `pass`.
    pub fn to_gtp(self, size: u8) -> String {
        match self {
            Move::Play(p) => p.to_gtp(size),
            Move::Pass => "pass".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_vertices_skip_i_and_count_rows_from_the_bottom() {
        assert_eq!(Point::from_gtp("A1", 19), Some(Point::new(0, 18)));
        assert_eq!(Point::from_gtp("J19", 19), Some(Point::new(8, 0)));
        assert_eq!(Point::from_gtp("t19", 19), Some(Point::new(18, 0)));
        assert_eq!(Point::from_gtp("I5", 19), None);
        assert_eq!(Point::from_gtp("U1", 19), None);
        assert_eq!(Point::from_gtp("A20", 19), None);
        assert_eq!(Point::from_gtp("A0", 19), None);
        assert_eq!(Point::from_gtp("A01", 19), None);
        assert_eq!(Point::from_gtp("Z25", 25), Some(Point::new(24, 0)));
        assert_eq!(Point::new(3, 15).to_gtp(19), "D4");
    }

    #[test]
    fn sgf_points_round_trip() {
        for x in 0..25 {
            for y in 0..25 {
                let p = Point::new(x, y);
                assert_eq!(Point::from_sgf(p.to_sgf().as_bytes()), Some(p));
            }
        }
        assert_eq!(Point::from_sgf(b"tt"), Some(Point::new(19, 19)));
        assert_eq!(Point::from_sgf(b"a"), None);
    }
}
