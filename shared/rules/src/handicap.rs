//! Handicap stones: fixed placement on the star points (GTP `fixed_handicap`) and free placement.
//!
//! With N ≥ 2 handicap stones Black places them and White moves first; at the count Black returns N
//! points (N/2 stones) under Chinese rules, N − 1 under AGA (see
//! [`crate::ruleset::HandicapCompensation`]). A handicap of one, 让先, is Black moving first without
//! komi: no stones are placed.

use crate::point::{MAX_SIZE, Point};

/// Why a handicap cannot be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandicapError {
    /// Fixed placement exists for 2 to 9 stones on odd boards from 9×9, 2 to 4 on other boards from
    /// 7×7, and not at all below 7×7.
    #[error("{stones} fixed handicap stones cannot be placed on a {size}×{size} board")]
    NotAvailable {
        /// Stones asked for.
        stones: u8,
        /// Board size.
        size: u8,
    },
    /// A free placement named a point twice, or a point off the board.
    #[error("invalid handicap point {0:?}")]
    BadPoint(Point),
    /// A free placement asked for fewer than 2 or more stones than the board can hold.
    #[error("{0} handicap stones is not a valid free placement")]
    BadCount(usize),
}

/// The largest fixed handicap on a board of `size` (0 if none is available).
pub const fn max_fixed_handicap(size: u8) -> u8 {
    if size < 7 || size > MAX_SIZE {
        0
    } else if size % 2 == 1 && size >= 9 {
        9
    } else {
        4
    }
}

/// The star points for a fixed handicap of `stones` on a board of `size`, ordered as GNU Go answers
/// `fixed_handicap`: rows from the top, then columns from the left.
pub fn fixed_handicap(size: u8, stones: u8) -> Result<Vec<Point>, HandicapError> {
    if stones < 2 || stones > max_fixed_handicap(size) {
        return Err(HandicapError::NotAvailable { stones, size });
    }
    let edge = if size >= 13 { 3 } else { 2 };
    let low = edge;
    let high = size - 1 - edge;
    let mid = size / 2;
    // Points as (x, y) with y from the top.
    let upper_right = Point::new(high, low);
    let lower_left = Point::new(low, high);
    let upper_left = Point::new(low, low);
    let lower_right = Point::new(high, high);
    let centre = Point::new(mid, mid);
    let left = Point::new(low, mid);
    let right = Point::new(high, mid);
    let top = Point::new(mid, low);
    let bottom = Point::new(mid, high);
    let mut points = vec![upper_right, lower_left];
    if stones >= 3 {
        points.push(upper_left);
    }
    if stones >= 4 {
        points.push(lower_right);
    }
    if stones == 5 || stones == 7 || stones == 9 {
        points.push(centre);
    }
    if stones >= 6 {
        points.push(left);
        points.push(right);
    }
    if stones >= 8 {
        points.push(top);
        points.push(bottom);
    }
    points.sort_by_key(|p| (p.y, p.x));
    Ok(points)
}

/// Checks a free placement: 2 or more distinct points on the board, fewer than the board holds.
pub fn free_handicap(size: u8, points: &[Point]) -> Result<Vec<Point>, HandicapError> {
    let total = size as usize * size as usize;
    if points.len() < 2 || points.len() >= total {
        return Err(HandicapError::BadCount(points.len()));
    }
    let mut seen = Vec::with_capacity(points.len());
    for &p in points {
        if !p.is_on(size) || seen.contains(&p) {
            return Err(HandicapError::BadPoint(p));
        }
        seen.push(p);
    }
    Ok(seen)
}

/// The historical seated stones (座子) for the `ancient` ruleset: two black and two white stones on
/// diagonal corner star points. White's on the upper-left and lower-right, Black's on the upper-right
/// and lower-left, as ancient diagrams draw them.
pub fn seated_stones(size: u8) -> Option<([Point; 2], [Point; 2])> {
    if size < 7 {
        return None;
    }
    let edge = if size >= 13 { 3 } else { 2 };
    let (low, high) = (edge, size - 1 - edge);
    Some(([Point::new(high, low), Point::new(low, high)], [Point::new(low, low), Point::new(high, high)]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gtp(size: u8, stones: u8) -> String {
        fixed_handicap(size, stones).unwrap().iter().map(|p| p.to_gtp(size)).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn fixed_placement_matches_gnu_go() {
        // Answers recorded from `gnugo --mode gtp`, `fixed_handicap N`.
        assert_eq!(gtp(19, 2), "Q16 D4");
        assert_eq!(gtp(19, 3), "D16 Q16 D4");
        assert_eq!(gtp(19, 4), "D16 Q16 D4 Q4");
        assert_eq!(gtp(19, 5), "D16 Q16 K10 D4 Q4");
        assert_eq!(gtp(19, 6), "D16 Q16 D10 Q10 D4 Q4");
        assert_eq!(gtp(19, 7), "D16 Q16 D10 K10 Q10 D4 Q4");
        assert_eq!(gtp(19, 8), "D16 K16 Q16 D10 Q10 D4 K4 Q4");
        assert_eq!(gtp(19, 9), "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4");
        assert_eq!(gtp(13, 9), "D10 G10 K10 D7 G7 K7 D4 G4 K4");
        assert_eq!(gtp(13, 3), "D10 K10 D4");
        assert_eq!(gtp(9, 5), "C7 G7 E5 C3 G3");
        assert_eq!(gtp(9, 8), "C7 E7 G7 C5 G5 C3 E3 G3");
        assert_eq!(gtp(7, 4), "C5 E5 C3 E3");
        assert_eq!(gtp(8, 2), "F6 C3");
        assert_eq!(gtp(10, 4), "C8 H8 C3 H3");
        assert!(fixed_handicap(7, 5).is_err());
        assert!(fixed_handicap(10, 5).is_err());
        assert!(fixed_handicap(5, 2).is_err());
        assert!(fixed_handicap(19, 1).is_err());
        assert!(fixed_handicap(19, 10).is_err());
    }

    #[test]
    fn free_placement_is_validated() {
        let a = Point::new(0, 0);
        assert!(free_handicap(9, &[a, Point::new(1, 1)]).is_ok());
        assert_eq!(free_handicap(9, &[a, a]), Err(HandicapError::BadPoint(a)));
        assert_eq!(free_handicap(9, &[a]), Err(HandicapError::BadCount(1)));
        assert_eq!(free_handicap(9, &[a, Point::new(9, 0)]), Err(HandicapError::BadPoint(Point::new(9, 0))));
    }
}
