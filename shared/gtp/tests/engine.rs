//! Properties of the engine: the random bot plays only legal, non-eye-filling moves and replays
//! from its seed; no command line, however malformed, breaks the engine or the protocol.

use proptest::prelude::*;
use weiqi_gtp::{Config, Engine, parse_line, serve};
use weiqi_rules::random::SplitMix64;
use weiqi_rules::{Color, Move, Ruleset};

/// Plays a bot-against-bot game through GTP; returns the answers to `genmove`.
fn bot_game(seed: u64, size: u8, ruleset: Ruleset) -> (Vec<String>, Engine) {
    let mut engine = Engine::new(Config::new(ruleset, seed));
    assert!(engine.execute_line(&format!("boardsize {size}")).unwrap().is_success());
    let mut answers = Vec::new();
    let mut color = Color::Black;
    for _ in 0..(size as usize * size as usize * 3) {
        let before = engine.game().clone();
        let answer = engine.execute_line(&format!("genmove {color}")).unwrap().result.expect("genmove never fails");
        let mv = Move::from_gtp(&answer, size).expect("genmove answers a vertex or pass");
        match mv {
            Move::Play(p) => {
                assert_eq!(before.check(color, mv), Ok(()), "{answer} was not legal");
                assert!(!before.fills_own_eye(color, p), "{answer} fills an own eye");
            }
            Move::Pass => {
                let candidates = before.legal_points(color).into_iter().filter(|&p| !before.fills_own_eye(color, p));
                assert_eq!(candidates.count(), 0, "passed with a move left");
            }
        }
        answers.push(answer);
        if engine.game().consecutive_passes() >= 2 {
            break;
        }
        color = color.opponent();
    }
    (answers, engine)
}

#[test]
fn the_bot_plays_legal_moves_to_the_end_of_the_game() {
    for (seed, size) in [(1, 5), (2, 9), (3, 9), (4, 13)] {
        let (answers, engine) = bot_game(seed, size, Ruleset::chinese());
        assert_eq!(engine.game().consecutive_passes(), 2, "seed {seed}: the game ended by passes");
        assert!(answers.len() > size as usize, "seed {seed}: a real game");
        let mut engine = engine;
        let score = engine.execute_line("final_score").unwrap().result.unwrap();
        assert!(score == "0" || score.starts_with("B+") || score.starts_with("W+"), "{score}");
    }
}

#[test]
fn the_bot_replays_from_its_seed() {
    for seed in [0, 42, u64::MAX] {
        assert_eq!(bot_game(seed, 9, Ruleset::japanese()).0, bot_game(seed, 9, Ruleset::japanese()).0);
    }
    assert_ne!(bot_game(1, 9, Ruleset::chinese()).0, bot_game(2, 9, Ruleset::chinese()).0);
}

#[test]
fn serve_stops_at_quit_and_at_end_of_input() {
    let mut out = Vec::new();
    serve(Config::default(), &b"name\nquit\nname\n"[..], &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "= weiqi\n\n= \n\n");
    let mut out = Vec::new();
    serve(Config::default(), &b"1 name"[..], &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "=1 weiqi\n\n", "a last line without newline is still read");
    let mut out = Vec::new();
    serve(Config::default(), &b"\xff\xfe name\r\n2 protocol_version\r\n"[..], &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "? unknown command\n\n=2 2\n\n", "bad UTF-8 is read lossily");
}

/// Command lines built from the engine's own command names and plausible or absurd arguments.
fn command_line() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = Engine::command_names().chain(["", "frobnicate", "genmove_black"]).collect();
    let arg = prop_oneof![
        Just("black".to_string()),
        Just("w".to_string()),
        Just("pass".to_string()),
        "[A-Za-z][0-9]{1,2}",
        "-?[0-9]{1,3}(\\.[0-9])?",
        "[ -~]{0,6}",
        Just("tests/data/capture.sgf".to_string()),
    ];
    (proptest::option::of(0u64..100), proptest::sample::select(names), proptest::collection::vec(arg, 0..4)).prop_map(
        |(id, name, args)| {
            let id = id.map(|i| format!("{i} ")).unwrap_or_default();
            format!("{id}{name} {}", args.join(" "))
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any sequence of command lines: every answer is one well-formed GTP response with the
    /// command's id, and the engine's board stays consistent.
    #[test]
    fn any_command_sequence_keeps_the_protocol(lines in proptest::collection::vec(command_line(), 1..60)) {
        let mut engine = Engine::new(Config::default());
        for line in &lines {
            // `printsgf FILE` would write over the file named (the test data included).
            if parse_line(line).is_some_and(|c| c.name == "printsgf" && !c.args.is_empty()) {
                continue;
            }
            let Some(response) = engine.execute_line(line) else { continue };
            let wire = response.to_wire();
            prop_assert!(wire.starts_with('=') || wire.starts_with('?'), "{wire:?}");
            prop_assert!(wire.ends_with("\n\n"));
            prop_assert!(!wire[..wire.len() - 2].contains("\n\n"), "empty line inside {wire:?}");
            prop_assert_eq!(response.id, parse_line(line).unwrap().id);
            engine.game().board().check_invariants().map_err(TestCaseError::fail)?;
            if engine.has_quit() {
                break;
            }
        }
    }

    /// Arbitrary bytes as input lines never break the parser or the engine.
    #[test]
    fn arbitrary_lines_are_answered_or_ignored(line in "\\PC{0,40}") {
        let mut engine = Engine::new(Config::default());
        if let Some(response) = engine.execute_line(&line) {
            prop_assert!(response.to_wire().ends_with("\n\n"));
        }
    }
}

#[test]
fn random_legal_play_through_gtp_agrees_with_the_rules_core() {
    // Drive the engine with random `play` commands and check its answers against the rules core.
    let mut rng = SplitMix64(99);
    let mut engine = Engine::new(Config::new(Ruleset::tromp_taylor(), 0));
    engine.execute_line("boardsize 7").unwrap();
    let mut shadow = weiqi_rules::Game::new(7, Ruleset::tromp_taylor()).unwrap();
    for _ in 0..400 {
        let color = if rng.below(2) == 0 { Color::Black } else { Color::White };
        let p = weiqi_rules::Point::new(rng.below(7) as u8, rng.below(7) as u8);
        let ours = engine.execute_line(&format!("play {color} {}", p.to_gtp(7))).unwrap();
        let expected = shadow.play(color, Move::Play(p));
        assert_eq!(ours.is_success(), expected.is_ok(), "play {color} {}", p.to_gtp(7));
        assert_eq!(engine.game().board(), shadow.board());
    }
}
