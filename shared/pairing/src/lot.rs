//! Deterministic random choices. Every draw comes from a ChaCha8 stream keyed by the tournament's
//! recorded seed, the purpose and a number (round or player), so it is portable, reproducible, and
//! independent of the order in which other draws were made. Each drawn value is recorded in an event.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What a draw is for (keeps the streams apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A player's or team's lot.
    Lot = 1,
    /// Nigiri for the games of a round.
    Nigiri = 2,
    /// Simulated results (benchmarks and tests only).
    Simulation = 3,
}

/// SplitMix64 finaliser: spreads the key bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The random stream for `(seed, purpose, n)`.
pub fn stream(seed: u64, purpose: Purpose, n: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(mix(seed ^ mix((purpose as u64) << 56 ^ n)))
}

/// The lot of entrant `n` (a player or team id) in a tournament with this seed.
pub fn lot(seed: u64, n: u64) -> u64 {
    stream(seed, Purpose::Lot, n).random()
}

/// A nigiri draw per game of a round: `true` means the first-named player takes Black.
pub fn nigiri(seed: u64, round: u32) -> impl FnMut() -> bool {
    let mut rng = stream(seed, Purpose::Nigiri, u64::from(round));
    move || rng.random_bool(0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_reproducible_and_keyed() {
        assert_eq!(lot(7, 1), lot(7, 1));
        assert_ne!(lot(7, 1), lot(7, 2));
        assert_ne!(lot(7, 1), lot(8, 1));
        let a: Vec<bool> = std::iter::repeat_with(nigiri(5, 3)).take(64).collect();
        let b: Vec<bool> = std::iter::repeat_with(nigiri(5, 3)).take(64).collect();
        assert_eq!(a, b);
        assert!(a.iter().any(|&x| x) && a.iter().any(|&x| !x));
    }
}
