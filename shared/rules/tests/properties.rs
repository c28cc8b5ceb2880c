//! Property tests: invariants that hold for every legal move sequence.

mod support;

use proptest::prelude::*;
use support::{Rng, random_game};
use weiqi_rules::{Color, Game, KoRule, Move, Ruleset, Suicide};

fn ruleset(ko: u8, suicide: bool) -> Ruleset {
    Ruleset {
        ko: [KoRule::Simple, KoRule::PositionalSuperko, KoRule::SituationalSuperko][ko as usize % 3],
        suicide: if suicide { Suicide::Allowed } else { Suicide::Forbidden },
        ..Ruleset::chinese()
    }
}

/// A random move list: at each step a uniformly random legal point (eye-filling included, so
/// suicides and captures of big chains happen), or a pass one time in twenty.
fn random_moves(size: u8, rules: Ruleset, seed: u64, len: usize) -> Vec<(Color, Move)> {
    let mut g = Game::new(size, rules).unwrap();
    let mut rng = Rng(seed);
    let mut moves = Vec::new();
    for _ in 0..len {
        let color = g.to_move();
        let legal = g.legal_points(color);
        let mv =
            if legal.is_empty() || rng.below(20) == 0 { Move::Pass } else { Move::Play(legal[rng.below(legal.len())]) };
        g.play(color, mv).unwrap();
        moves.push((color, mv));
    }
    moves
}

fn replay(size: u8, rules: Ruleset, moves: &[(Color, Move)]) -> (Game, Vec<u64>) {
    let mut g = Game::new(size, rules).unwrap();
    let hashes = moves.iter().map(|&(c, m)| g.play(c, m).expect("moves were legal when generated").hash).collect();
    (g, hashes)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn replaying_a_move_list_twice_gives_the_same_hashes(
        size in 2u8..=13, ko in 0u8..3, suicide in any::<bool>(), seed in any::<u64>(), len in 0usize..300,
    ) {
        let rules = ruleset(ko, suicide);
        let moves = random_moves(size, rules, seed, len);
        let (a, ha) = replay(size, rules, &moves);
        let (b, hb) = replay(size, rules, &moves);
        prop_assert_eq!(ha, hb);
        prop_assert_eq!(a.board(), b.board());
    }

    #[test]
    fn incremental_liberties_equal_a_recount_after_every_move(
        size in 2u8..=11, ko in 0u8..3, suicide in any::<bool>(), seed in any::<u64>(), len in 0usize..250,
    ) {
        let rules = ruleset(ko, suicide);
        let moves = random_moves(size, rules, seed, len);
        let mut g = Game::new(size, rules).unwrap();
        for (i, &(c, m)) in moves.iter().enumerate() {
            g.play(c, m).unwrap();
            if let Err(e) = g.board().check_invariants() {
                return Err(TestCaseError::fail(format!("after move {i}: {e}")));
            }
        }
    }

    #[test]
    fn stones_on_board_plus_captures_equal_stones_played(
        size in 2u8..=13, ko in 0u8..3, suicide in any::<bool>(), seed in any::<u64>(), len in 0usize..300,
    ) {
        let rules = ruleset(ko, suicide);
        let moves = random_moves(size, rules, seed, len);
        let (g, _) = replay(size, rules, &moves);
        for color in [Color::Black, Color::White] {
            let played = moves.iter().filter(|(c, m)| *c == color && matches!(m, Move::Play(_))).count() as u32;
            let lost = g.prisoners(color.opponent());
            prop_assert_eq!(g.board().stone_count(color) + lost, played, "{:?}", color);
        }
    }

    #[test]
    fn captures_replayed_from_the_start_equal_what_each_move_took(
        size in 2u8..=11, ko in 0u8..3, suicide in any::<bool>(), seed in any::<u64>(), len in 0usize..250,
    ) {
        let rules = ruleset(ko, suicide);
        let moves = random_moves(size, rules, seed, len);
        let mut g = Game::new(size, rules).unwrap();
        let taken: Vec<u32> = moves.iter().map(|&(c, m)| g.play(c, m).unwrap().captured).collect();
        prop_assert_eq!(g.captures(), taken);
    }

    #[test]
    fn undo_followed_by_replay_is_the_identity(
        size in 2u8..=9, ko in 0u8..3, suicide in any::<bool>(), seed in any::<u64>(), len in 1usize..120, back in 1usize..10,
    ) {
        let rules = ruleset(ko, suicide);
        let moves = random_moves(size, rules, seed, len);
        let (mut g, hashes) = replay(size, rules, &moves);
        let back = back.min(moves.len());
        let before = (g.board().clone(), g.prisoners(Color::Black), g.prisoners(Color::White), g.to_move(), g.legal_points(g.to_move()));
        for _ in 0..back {
            g.undo().unwrap();
        }
        if moves.len() > back {
            prop_assert_eq!(g.hash(), hashes[moves.len() - back - 1]);
        }
        for &(c, m) in &moves[moves.len() - back..] {
            g.play(c, m).unwrap();
        }
        let after = (g.board().clone(), g.prisoners(Color::Black), g.prisoners(Color::White), g.to_move(), g.legal_points(g.to_move()));
        prop_assert_eq!(before, after);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A preview says exactly what playing the move then does.
    #[test]
    fn preview_matches_the_move(size in 2u8..=9, ko in 0u8..3, suicide in any::<bool>(), seed in any::<u64>(), len in 0usize..150) {
        let rules = ruleset(ko, suicide);
        let moves = random_moves(size, rules, seed, len);
        let (g, _) = replay(size, rules, &moves);
        let color = g.to_move();
        for p in g.board().points() {
            match g.preview(color, p) {
                Err(e) => prop_assert_eq!(g.check(color, Move::Play(p)), Err(e)),
                Ok(pv) => {
                    let mut h = g.clone();
                    let played = h.play(color, Move::Play(p)).unwrap();
                    prop_assert_eq!(played.hash, pv.hash_after);
                    prop_assert_eq!(played.cycle, pv.cycle);
                    let mut removed: Vec<_> = h.last_removed().collect();
                    removed.sort();
                    let mut expected = pv.captured.clone();
                    expected.extend(pv.suicided.iter().copied());
                    expected.sort();
                    prop_assert_eq!(removed, expected);
                }
            }
        }
    }
}

#[test]
fn long_random_games_keep_every_invariant() {
    // Eye-respecting random games to the end on the common sizes, checked after every move.
    for (size, seed) in [(9u8, 1u64), (13, 2), (19, 3)] {
        let mut g = Game::new(size, Ruleset::chinese()).unwrap();
        let moves = random_game(&mut g, &mut Rng(seed), 2000);
        assert!(moves.len() > size as usize * size as usize / 2, "a random game fills the board");
        let (h, _) = replay(size, Ruleset::chinese(), &moves);
        h.board().check_invariants().unwrap();
        assert_eq!(h.board(), g.board());
    }
}
