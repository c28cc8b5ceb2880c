//! The `showboard` drawing, laid out as GNU Go lays it out: column letters above and below, row
//! numbers on both sides, `X` for Black, `O` for White, `+` on star points, `.` elsewhere, and the
//! capture counts beside two rows.

use std::fmt::Write;

use weiqi_rules::{Color, Game, Point};

/// The board as `showboard` answers it. Starts with a newline, so the drawing begins on the line
/// after `= `.
pub(super) fn draw(game: &Game) -> String {
    let size = game.size();
    let board = game.board();
    let letters: String = (0..size).map(|x| format!(" {}", column_letter(x))).collect();
    let (white_row, black_row) = if size < 10 { (size - 2, size - 1) } else { (8, 9) };
    let mut out = String::with_capacity((size as usize + 2) * (size as usize * 2 + 40));
    let _ = write!(out, "\n  {letters}");
    for y in 0..size {
        let row = size - y;
        let _ = write!(out, "\n{row:>2}");
        for x in 0..size {
            let p = Point::new(x, y);
            let c = match board.get(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None if is_star_point(size, p) => '+',
                None => '.',
            };
            out.push(' ');
            out.push(c);
        }
        let _ = write!(out, " {row}");
        if y == white_row {
            let _ = write!(out, "     WHITE (O) has captured {} stones", game.prisoners(Color::White));
        }
        if y == black_row {
            let _ = write!(out, "     BLACK (X) has captured {} stones", game.prisoners(Color::Black));
        }
    }
    let _ = write!(out, "\n  {letters}");
    out
}

/// The GTP column letter of column `x` (`I` skipped).
fn column_letter(x: u8) -> char {
    let c = b'A' + x;
    (if c >= b'I' { c + 1 } else { c }) as char
}

/// Where GNU Go draws star points: corner points 1 line in on 3×3 and 5×5, 2 lines in up to 11×11,
/// 3 lines in above; the centre of odd boards; the side midpoints of odd boards from 13×13. None on
/// 2×2 and 4×4.
fn is_star_point(size: u8, p: Point) -> bool {
    if size < 3 || size == 4 {
        return false;
    }
    let edge = match size {
        3 | 5 => 1,
        6..=11 => 2,
        _ => 3,
    };
    let far = size - 1 - edge;
    let mid = size / 2;
    let odd = size % 2 == 1;
    let line = |v: u8| v == edge || v == far;
    let centre = |v: u8| odd && v == mid;
    (line(p.x) && line(p.y))
        || (centre(p.x) && centre(p.y))
        || (size >= 13 && ((line(p.x) && centre(p.y)) || (centre(p.x) && line(p.y))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stars(size: u8) -> Vec<String> {
        let mut v: Vec<Point> = (0..size)
            .flat_map(|y| (0..size).map(move |x| Point::new(x, y)))
            .filter(|&p| is_star_point(size, p))
            .collect();
        v.sort_by_key(|p| (p.y, p.x));
        v.iter().map(|p| p.to_gtp(size)).collect()
    }

    #[test]
    fn star_points_are_where_gnu_go_draws_them() {
        // Read off `showboard` of gnugo 3.8 for each size.
        assert!(stars(2).is_empty());
        assert_eq!(stars(3), ["B2"]);
        assert!(stars(4).is_empty());
        assert_eq!(stars(5), ["B4", "D4", "C3", "B2", "D2"]);
        assert_eq!(stars(6), ["C4", "D4", "C3", "D3"]);
        assert_eq!(stars(9), ["C7", "G7", "E5", "C3", "G3"]);
        assert_eq!(stars(11), ["C9", "J9", "F6", "C3", "J3"]);
        assert_eq!(stars(12), ["D9", "J9", "D4", "J4"]);
        assert_eq!(stars(13), ["D10", "G10", "K10", "D7", "G7", "K7", "D4", "G4", "K4"]);
        assert_eq!(stars(19).len(), 9);
    }
}
