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

/// The engine's own placement of `stones` free handicap stones (GTP `place_free_handicap`), as GNU Go
/// places them: the fixed placement when there is one; beyond nine stones, the nine star points and then
/// a balanced spread on the fourth and third lines (each next stone as far as possible from those
/// already placed, the fourth line preferred, ties broken from the top left), never on the first or second
/// line and never touching another handicap stone. Boards too small for star points spread over the whole
/// board. At most as many stones as fit without touching are placed (GTP allows fewer than asked).
/// Listed as GNU Go lists them: rows from the top, then columns from the left.
pub fn free_placement(size: u8, stones: usize) -> Vec<Point> {
    if let Some(points) = u8::try_from(stones).ok().and_then(|n| fixed_handicap(size, n).ok()) {
        return points;
    }
    let max_fixed = max_fixed_handicap(size);
    let mut placed = if max_fixed >= 2 && stones > usize::from(max_fixed) {
        fixed_handicap(size, max_fixed).unwrap_or_default()
    } else {
        Vec::new()
    };
    // The line a point is on, counted from 1 at the nearest edge.
    let line = |p: Point| 1 + p.x.min(p.y).min(size - 1 - p.x).min(size - 1 - p.y);
    let all: Vec<Point> = (0..size).flat_map(|y| (0..size).map(move |x| Point::new(x, y))).collect();
    let lines34: Vec<Point> = all.iter().copied().filter(|&p| matches!(line(p), 3 | 4)).collect();
    let touches = |p: Point, placed: &[Point]| placed.iter().any(|q| p.x.abs_diff(q.x) + p.y.abs_diff(q.y) <= 1);
    let distance = |p: Point, placed: &[Point]| {
        placed.iter().map(|q| u32::from(p.x.abs_diff(q.x)).pow(2) + u32::from(p.y.abs_diff(q.y)).pow(2)).min()
    };
    let candidates = if size >= 9 { &lines34 } else { &all };
    // How unevenly the stones would fill the board's halves (left/right, top/bottom) with `p` added.
    let mid = size / 2;
    let imbalance = |p: Point, placed: &[Point]| {
        let side = |v: u8| i32::from(v > mid) - i32::from(v < mid);
        let (h, v) = placed.iter().chain([&p]).fold((0i32, 0i32), |(h, v), q| (h + side(q.x), v + side(q.y)));
        h.unsigned_abs() + v.unsigned_abs()
    };
    while placed.len() < stones {
        let best = candidates.iter().copied().filter(|&p| !touches(p, &placed)).max_by_key(|&p| {
            // Farthest from the stones placed (the centre of the board first on an empty one), then
            // the halves kept even, the fourth line before the third, the first in reading order.
            let far = distance(p, &placed).unwrap_or_else(|| u32::from(line(p)));
            (far, std::cmp::Reverse(imbalance(p, &placed)), line(p) == 4, std::cmp::Reverse((p.y, p.x)))
        });
        match best {
            Some(p) => placed.push(p),
            None => break,
        }
    }
    placed.sort_by_key(|p| (p.y, p.x));
    placed
}

/// The historical seated stones (座子) for the `ancient` ruleset: two black and two white stones on
/// diagonal corner star points. White's on the upper-left and lower-right, Black's on the upper-right
/// and lower-left, as ancient diagrams draw them. Seated stones are a 19×19 convention: on any other
/// size there are none (the game service refuses `ancient` there; analysis tools that build a
/// [`crate::Game`] get the ancient counting without seats, Black first).
pub fn seated_stones(size: u8) -> Option<([Point; 2], [Point; 2])> {
    if size != 19 {
        return None;
    }
    let (low, high) = (3, 15);
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
    fn free_placement_beyond_nine_spreads_over_the_third_and_fourth_lines() {
        assert_eq!(free_placement(19, 9), fixed_handicap(19, 9).unwrap());
        for n in 10..=24 {
            let points = free_placement(19, n);
            assert_eq!(points.len(), n, "{n}");
            let star = fixed_handicap(19, 9).unwrap();
            assert!(star.iter().all(|s| points.contains(s)), "{n}: the nine star points come first");
            for (i, &a) in points.iter().enumerate() {
                let line = 1 + a.x.min(a.y).min(18 - a.x).min(18 - a.y);
                assert!(line >= 3, "{n}: {} is on the first or second line", a.to_gtp(19));
                assert!(
                    star.contains(&a) || matches!(line, 3 | 4),
                    "{n}: {} is off the third and fourth lines",
                    a.to_gtp(19)
                );
                for &b in &points[i + 1..] {
                    assert!(a.x.abs_diff(b.x) + a.y.abs_diff(b.y) > 1, "{n}: {a:?} touches {b:?}");
                }
            }
            // Balanced: each half of the board holds about half the stones.
            let left = points.iter().filter(|p| p.x < 9).count();
            let right = points.iter().filter(|p| p.x > 9).count();
            let top = points.iter().filter(|p| p.y < 9).count();
            let bottom = points.iter().filter(|p| p.y > 9).count();
            assert!(left.abs_diff(right) <= 2 && top.abs_diff(bottom) <= 2, "{n}: {left}/{right} {top}/{bottom}");
        }
        let gtp = |n| free_placement(19, n).iter().map(|p| p.to_gtp(19)).collect::<Vec<_>>().join(" ");
        assert_eq!(gtp(12), "G17 N17 D16 K16 Q16 D10 K10 Q10 R7 D4 K4 Q4");
        // Small boards: spread over the whole board, never touching.
        assert_eq!(free_placement(5, 3).len(), 3);
        assert_eq!(free_placement(2, 3).len(), 2, "a 2×2 board holds two separate stones");
        assert!(free_placement(3, 100).len() <= 5);
    }

    #[test]
    fn seated_stones_are_placed_on_19x19_only() {
        let (black, white) = seated_stones(19).unwrap();
        let v = |p: [Point; 2]| p.map(|p| p.to_gtp(19));
        assert_eq!((v(black), v(white)), (["Q16".to_string(), "D4".into()], ["D16".to_string(), "Q4".into()]));
        for size in [7, 9, 13, 17, 25] {
            assert_eq!(seated_stones(size), None, "{size}×{size}");
            let g = crate::Game::new(size, crate::Ruleset::ancient()).unwrap();
            assert_eq!((g.board().stone_count(crate::Color::Black), g.to_move()), (0, crate::Color::Black));
        }
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
