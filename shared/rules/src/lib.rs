//! `weiqi-rules`: the Go (weiqi, baduk) rules core that every game of the platform replays through.
//!
//! It knows boards from 2×2 to 25×25, chains and their liberties, captures, suicide, simple ko,
//! positional and situational superko, handicap placement, and counting by area or territory with
//! komi, handicap compensation, warning penalties and the historical group tax. Rulesets are data
//! ([`Ruleset`]), with presets for the rules the association uses (`chinese`, the default;
//! `japanese`, `korean`, `aga`, `new-zealand`, `tromp-taylor`, `ing`, and `ancient` for historical
//! records).
//!
//! ```
//! use weiqi_rules::{Color, Game, Illegal, Move, Point, Ruleset, score};
//!
//! let mut game = Game::new(9, Ruleset::chinese()).unwrap();
//! let d4 = Point::from_gtp("D4", 9).unwrap();
//! game.play(Color::Black, Move::Play(d4)).unwrap();
//! assert_eq!(game.play(Color::White, Move::Play(d4)), Err(Illegal::Occupied));
//! game.play(Color::White, Move::Pass).unwrap();
//! game.play(Color::Black, Move::Pass).unwrap();
//! let count = score(&game, &[], [0, 0]).unwrap();
//! assert_eq!(count.result.to_sgf(), "B+73.5"); // 81 points of area against 7.5 komi
//! ```
//!
//! # Design
//!
//! The [`Board`] keeps every chain as a circular list of stones with its exact liberty count at the
//! chain's head, all packed into one `u32` per cell of a padded array; a move touches only its
//! neighbours and the chains it joins or captures. Legality checks ([`Game::check`]) work out a move's
//! captures and resulting hash without touching the board; superko looks the hash up in a set of
//! earlier positions, one 64-bit hash per position. Undo replays the action list.
//!
//! # Invariants
//!
//! * The crate is pure: no IO, no async, no clock, no randomness, no dependency on protobuf, NATS or
//!   Redis. Same actions in, same positions and hashes out.
//! * Position hashes ([`zobrist`]) are fixed in the source and never change between versions: they are
//!   stored in game events and checked on replay. A golden test pins them.
//! * Every refusal is an [`Illegal`] value; nothing here panics on a bad move.
//! * Incremental liberties always equal a from-scratch recount (property-tested).

mod board;
mod game;
mod geometry;
pub mod handicap;
mod history;
mod legality;
mod point;
pub mod random;
mod ruleset;
mod scoring;
pub mod zobrist;

pub use board::{Board, Placed, UnsupportedSize};
pub use game::{Action, Game, MovePreview, Played, SetupError, SetupStones};
pub use handicap::HandicapError;
pub use legality::{Illegal, IllegalAt};
pub use point::{Color, MAX_SIZE, MIN_SIZE, Move, Point};
pub use ruleset::{
    CycleRuling, Family, HalfPoints, HandicapCompensation, IllegalMovePolicy, KoRule, Komi, PRESET_NAMES, Ruleset,
    RulesetError, Scoring, Suicide, UnknownRuleset,
};
pub use scoring::{Score, ScoreError, ScoreResult, SideCount, score, score_position};

#[cfg(test)]
mod golden {
    use super::*;

    /// If this test fails, the position hash changed and no stored game would replay. Never update the
    /// constants: restore the hash definition instead.
    #[test]
    fn position_hashes_never_change() {
        let mut g = Game::new(19, Ruleset::chinese()).unwrap();
        assert_eq!(g.hash(), 0);
        let moves = ["Q16", "D4", "Q4", "D16", "C3", "D3"];
        let mut hashes = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let color = if i % 2 == 0 { Color::Black } else { Color::White };
            let p = Point::from_gtp(m, 19).unwrap();
            hashes.push(g.play(color, Move::Play(p)).unwrap().hash);
        }
        assert_eq!(zobrist::stone_key(Color::Black, 0, 0), GOLDEN_KEY_B_A1_TOP);
        assert_eq!(hashes, GOLDEN_HASHES);
    }

    const GOLDEN_KEY_B_A1_TOP: u64 = 18252132340533463306;
    const GOLDEN_HASHES: [u64; 6] = [
        11754420321419776435,
        13685483602655598049,
        16906883287554583157,
        4293056775267496804,
        12245473633957946676,
        6538569273035412555,
    ];
}
