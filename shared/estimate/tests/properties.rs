//! Properties of every estimate: the same position always gets the same answer, a chain Benson's
//! algorithm proves alive is never dead, a chain has one status, and owners agree with statuses.

use proptest::prelude::*;
use weiqi_estimate::{EstimateConfig, Status, estimate_with, unconditionally_alive};
use weiqi_rules::random::random_game;
use weiqi_rules::{Color, Ruleset};

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn estimates_are_deterministic_and_never_kill_what_benson_proves_alive(
        size in 5u8..=13, seed in any::<u64>(), moves in 0usize..400, playouts in 1u32..80, japanese in any::<bool>(),
    ) {
        let rules = if japanese { Ruleset::japanese() } else { Ruleset::chinese() };
        let (_, game) = random_game(size, rules, seed, moves);
        let board = game.board();
        let config = EstimateConfig { playouts, ..EstimateConfig::default() };
        let a = estimate_with(board, game.to_move(), &rules, &config);
        let b = estimate_with(&board.clone(), game.to_move(), &rules, &config);
        prop_assert_eq!(&a, &b);
        for color in [Color::Black, Color::White] {
            for p in unconditionally_alive(board, color) {
                prop_assert_eq!(a.status(p), Some(Status::Alive), "{} is proven alive", p.to_gtp(size));
                prop_assert_eq!(a.owner(p), Some(color));
            }
        }
        for p in board.points() {
            match board.get(p) {
                None => prop_assert_eq!(a.status(p), None),
                Some(color) => {
                    for q in board.chain(p) {
                        prop_assert_eq!(a.status(q), a.status(p));
                    }
                    match a.status(p) {
                        Some(Status::Dead) => prop_assert_ne!(a.owner(p), Some(color)),
                        _ => prop_assert_eq!(a.owner(p), Some(color)),
                    }
                }
            }
            prop_assert!((-1.0..=1.0).contains(&a.ownership(p)));
        }
    }
}
