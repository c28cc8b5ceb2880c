//! Giving colors to a pair (Art. 10): handicap, then balance, then alternation, then nigiri.

use crate::event::ColorBy;
use crate::ids::{Color, PlayerId};
use crate::weights::Candidate;

/// Decides `(black, white, how)` for a pair. In a handicap game the weaker player takes Black; in
/// an even game the player with more games as Black takes White, then each takes the color
/// opposite to their last game, and otherwise a nigiri draw decides (`nigiri()` true: `a` Black).
pub fn assign(
    a: &Candidate,
    b: &Candidate,
    handicap: u8,
    nigiri: &mut dyn FnMut() -> bool,
) -> (PlayerId, PlayerId, ColorBy) {
    if handicap > 0 {
        let (weak, strong) = if a.rank <= b.rank { (a, b) } else { (b, a) };
        return (weak.id, strong.id, ColorBy::Handicap);
    }
    if a.color_balance != b.color_balance {
        return if a.color_balance < b.color_balance {
            (a.id, b.id, ColorBy::Balance)
        } else {
            (b.id, a.id, ColorBy::Balance)
        };
    }
    match (a.last_color, b.last_color) {
        (Some(Color::White), Some(Color::Black)) | (Some(Color::White), None) | (None, Some(Color::Black)) => {
            (a.id, b.id, ColorBy::Alternation)
        }
        (Some(Color::Black), Some(Color::White)) | (Some(Color::Black), None) | (None, Some(Color::White)) => {
            (b.id, a.id, ColorBy::Alternation)
        }
        _ => {
            if nigiri() {
                (a.id, b.id, ColorBy::Nigiri)
            } else {
                (b.id, a.id, ColorBy::Nigiri)
            }
        }
    }
}
