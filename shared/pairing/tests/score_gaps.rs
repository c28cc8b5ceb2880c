//! Issue 30 item 13: score gaps weighed as OpenGotha weighs them.
//!
//! Round 2 of the director's McMahon paired MMS 32 against 29 where 32 v 31 and 31 v 29 were free: a
//! linear cost counts one gap of 3 the same as gaps of 1 and 2, and color balance broke the tie toward
//! the wide gap. OpenGotha's cost grows faster than the gap (`weiqi_pairing::weights`), so the two
//! narrow gaps win, whatever the colors say; and "why?" says so.
//!
//! ```text
//!   player  MMS  balance  last   chosen (linear)        chosen (OpenGotha)
//!   A       32   +2       Black  A–D  gap 3, color 0     A–C  gap 1, color 1
//!   B       31   +1       Black  B–C  gap 0, color 0     B–D  gap 2, color 1
//!   C       31   −1       White
//!   D       29   −2       White
//!
//! (A–B with C–D also has gaps 1 and 2, but color 3 + 3.)
//! ```

use std::collections::BTreeSet;

use weiqi_pairing::ids::{Color, PlayerId};
use weiqi_pairing::swiss::{PairingParams, pair_round};
use weiqi_pairing::weights::{Candidate, PairingPolicy};

fn player(id: u32, mms: i64, balance: i32) -> Candidate {
    Candidate {
        id: PlayerId(id),
        score: mms,
        rank: 0,
        lot: u64::from(id),
        color_balance: balance,
        last_color: Some(if balance > 0 { Color::Black } else { Color::White }),
        byes: 0,
        opponents: Vec::new(),
        club: None,
        region: None,
        family: None,
        seat: None,
    }
}

fn pairs(field: &[Candidate]) -> BTreeSet<(u32, u32)> {
    let plan = pair_round(field, &BTreeSet::new(), &PairingPolicy::default(), &PairingParams::default()).unwrap();
    plan.pairs.iter().map(|p| (p.a.0.min(p.b.0), p.a.0.max(p.b.0))).collect()
}

#[test]
fn two_narrow_gaps_beat_one_wide_gap_even_against_color_balance() {
    let (a, b, c, d) = (1, 2, 3, 4);
    let field = [player(a, 32, 2), player(b, 31, 1), player(c, 31, -1), player(d, 29, -2)];
    // 32 v 31 and 31 v 29, not 32 v 29 and 31 v 31.
    assert_eq!(pairs(&field), BTreeSet::from([(a, c), (b, d)]));
}

#[test]
fn the_smallest_gaps_still_come_first() {
    // 32 31 30 29: A–B + C–D (gaps 1 and 1) always beats anything with a gap of 2 or 3.
    let field = [player(1, 32, 1), player(2, 31, 1), player(3, 30, -1), player(4, 29, -1)];
    assert_eq!(pairs(&field), BTreeSet::from([(1, 2), (3, 4)]));
}
