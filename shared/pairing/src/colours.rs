//! Giving colours to a pair (Art. 10): handicap, then balance, then alternation, then nigiri.

use crate::event::ColourBy;
use crate::ids::{Colour, PlayerId};
use crate::weights::Candidate;

/// Decides `(black, white, how)` for a pair. In a handicap game the weaker player takes Black; in
/// an even game the player with more games as Black takes White, then each takes the colour
/// opposite to their last game, and otherwise a nigiri draw decides (`nigiri()` true: `a` Black).
pub fn assign(
    a: &Candidate,
    b: &Candidate,
    handicap: u8,
    nigiri: &mut dyn FnMut() -> bool,
) -> (PlayerId, PlayerId, ColourBy) {
    if handicap > 0 {
        let (weak, strong) = if a.rank <= b.rank { (a, b) } else { (b, a) };
        return (weak.id, strong.id, ColourBy::Handicap);
    }
    if a.colour_balance != b.colour_balance {
        return if a.colour_balance < b.colour_balance {
            (a.id, b.id, ColourBy::Balance)
        } else {
            (b.id, a.id, ColourBy::Balance)
        };
    }
    match (a.last_colour, b.last_colour) {
        (Some(Colour::White), Some(Colour::Black)) | (Some(Colour::White), None) | (None, Some(Colour::Black)) => {
            (a.id, b.id, ColourBy::Alternation)
        }
        (Some(Colour::Black), Some(Colour::White)) | (Some(Colour::Black), None) | (None, Some(Colour::White)) => {
            (b.id, a.id, ColourBy::Alternation)
        }
        _ => {
            if nigiri() {
                (a.id, b.id, ColourBy::Nigiri)
            } else {
                (b.id, a.id, ColourBy::Nigiri)
            }
        }
    }
}
