//! GTP arguments: colors, vertices and moves, and vertex lists in GNU Go's order.

use weiqi_rules::{Color, Move, Point};

/// GTP column letters: `I` is skipped.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// Parses a GTP color: `b`, `black`, `w`, `white`, in any case.
pub fn color(token: Option<&str>) -> Option<Color> {
    token.and_then(Color::parse)
}

/// Parses a GTP vertex on a board of `size`: a column letter (any case, `I` skipped) and a row
/// number counted from the bottom, or `pass`. Leading zeros in the row are accepted, as GNU Go
/// accepts them; anything after the number is not.
pub fn vertex(token: Option<&str>, size: u8) -> Option<Move> {
    let token = token?;
    if token.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    point(token, size).map(Move::Play)
}

/// Parses a GTP vertex that must be a point (not `pass`).
pub fn point(token: &str, size: u8) -> Option<Point> {
    let bytes = token.as_bytes();
    let (&letter, digits) = bytes.split_first()?;
    let x = COLUMNS.iter().position(|&c| c == letter.to_ascii_uppercase())?;
    if digits.is_empty() || digits.len() > 4 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let row: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
    let size = size as usize;
    if x >= size || row == 0 || row > size {
        return None;
    }
    Some(Point::new(x as u8, (size - row) as u8))
}

/// Writes points as GNU Go lists vertices: sorted by row from the top, then by column, separated by
/// single spaces, upper case.
pub fn point_list(points: impl IntoIterator<Item = Point>, size: u8) -> String {
    let mut points: Vec<Point> = points.into_iter().collect();
    points.sort_by_key(|p| (p.y, p.x));
    let mut out = String::with_capacity(points.len() * 4);
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&p.to_gtp(size));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_parse_like_gnu_go_within_one_token() {
        let table: &[(&str, u8, Option<Move>)] = &[
            ("A1", 19, Some(Move::Play(Point::new(0, 18)))),
            ("a1", 19, Some(Move::Play(Point::new(0, 18)))),
            ("T19", 19, Some(Move::Play(Point::new(18, 0)))),
            ("J9", 9, Some(Move::Play(Point::new(8, 0)))),
            ("c03", 5, Some(Move::Play(Point::new(2, 2)))),
            ("PASS", 5, Some(Move::Pass)),
            ("pass", 5, Some(Move::Pass)),
            ("I5", 19, None),
            ("U1", 19, None),
            ("A20", 19, None),
            ("A0", 19, None),
            ("F1", 5, None),
            ("C3x", 5, None),
            ("C", 5, None),
            ("3", 5, None),
            ("", 5, None),
            ("C-3", 5, None),
            ("C+3", 5, None),
            ("Ä3", 5, None),
            ("Z25", 25, Some(Move::Play(Point::new(24, 0)))),
        ];
        for &(token, size, expected) in table {
            assert_eq!(vertex(Some(token), size), expected, "{token} on {size}");
        }
        assert_eq!(vertex(None, 19), None);
    }

    #[test]
    fn lists_are_in_board_order() {
        let pts = [Point::new(2, 4), Point::new(1, 3), Point::new(0, 4)];
        assert_eq!(point_list(pts, 5), "B2 A1 C1");
        assert_eq!(point_list([], 5), "");
    }
}
