//! Seeded random play: the load-test bot's move choice and the random games used by tests and
//! benchmarks. Deterministic: the same seed gives the same game on every machine and version.

use crate::game::Game;
use crate::point::{Color, Move};
use crate::ruleset::Ruleset;

/// SplitMix64, a small, fast, portable generator. Not for anything that needs unpredictability.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0), with negligible bias for the small `n` used here.
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// Plays a random game from the empty board of `size` under `ruleset`: each move is a uniformly
/// random legal point that does not fill an own single-point eye, or a pass when there is none. Stops
/// at two consecutive passes or after `max_moves`. Returns the moves and the final game.
pub fn random_game(size: u8, ruleset: Ruleset, seed: u64, max_moves: usize) -> (Vec<(Color, Move)>, Game) {
    let mut game = Game::new(size, ruleset).expect("size checked by the caller");
    let mut rng = SplitMix64(seed);
    let mut moves = Vec::new();
    while game.consecutive_passes() < 2 && moves.len() < max_moves {
        let color = game.to_move();
        let mv = game.random_move(color, |n| rng.below(n));
        game.play(color, mv).expect("random_move only returns legal moves");
        moves.push((color, mv));
    }
    (moves, game)
}
