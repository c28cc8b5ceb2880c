//! Zobrist keys for position hashes.
//!
//! Position hashes are written into game events and checked on every replay, so the keys must never
//! change between versions. They are defined here, in the source, as the output of SplitMix64 (a
//! public, fixed algorithm) from a fixed seed, indexed by color and by the point's *canonical*
//! coordinates `y * 25 + x`, never by the board's internal layout. A golden test in `lib.rs` pins
//! known hashes: if it fails, the hash definition changed, and every stored game would stop
//! replaying.
//!
//! The hash of a board is the XOR of the keys of its stones (the empty board hashes to 0). For
//! situational superko, a side-to-move key is XORed in as well.

use crate::point::{Color, MAX_SIZE};

/// The fixed seed. Never change it.
const SEED: u64 = 0x5745_4951_495f_5a42; // "WEIQI_ZB"

/// Number of canonical points: a 25×25 board.
const CANONICAL_POINTS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn generate() -> ([[u64; CANONICAL_POINTS]; 2], [u64; 2]) {
    let mut stones = [[0u64; CANONICAL_POINTS]; 2];
    let mut state = SEED;
    let mut color = 0;
    while color < 2 {
        let mut i = 0;
        while i < CANONICAL_POINTS {
            let (s, v) = splitmix64(state);
            state = s;
            stones[color][i] = v;
            i += 1;
        }
        color += 1;
    }
    let (s, black_to_move) = splitmix64(state);
    let (_, white_to_move) = splitmix64(s);
    (stones, [black_to_move, white_to_move])
}

const KEYS: ([[u64; CANONICAL_POINTS]; 2], [u64; 2]) = generate();

/// The key of a stone of `color` at canonical coordinates (`x`, `y`).
#[inline]
pub const fn stone_key(color: Color, x: u8, y: u8) -> u64 {
    KEYS.0[color.index()][y as usize * MAX_SIZE as usize + x as usize]
}

/// The key XORed into a position hash for situational superko: who is to move.
#[inline]
pub const fn to_move_key(color: Color) -> u64 {
    KEYS.1[color.index()]
}
