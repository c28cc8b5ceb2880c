//! Rule tests, one per rule of RULES.md sections 1 and 3, with positions drawn as diagrams.

mod support;

use expect_test::expect;
use support::{diagram, play, position, pt};
use weiqi_rules::{
    Color::{Black, White},
    Game, HalfPoints, Illegal, KoRule, Komi, Ruleset, Scoring, Suicide, score, score_position,
};

fn with_ko(ko: KoRule) -> Ruleset {
    Ruleset { ko, ..Ruleset::chinese() }
}

fn with_suicide(suicide: Suicide) -> Ruleset {
    Ruleset { suicide, ..Ruleset::chinese() }
}

#[test]
fn capture_comes_before_suicide() {
    let mut g = position(
        Ruleset::chinese(),
        r"
        . O X
        O X .
        X . .",
        Black,
    );
    let played = play(&mut g, Black, "A3").unwrap();
    assert_eq!(played.captured, 2);
    assert_eq!(g.board().liberties(pt(&g, "A3")), Some(2));
    assert_eq!(g.prisoners(Black), 2);
    expect![[r#"
        X . X
        . X .
        X . .
    "#]]
    .assert_eq(&diagram(&g));
}

#[test]
fn single_stone_suicide_is_refused_under_every_setting() {
    for suicide in [Suicide::Forbidden, Suicide::Allowed] {
        let mut g = position(
            with_suicide(suicide),
            r"
            . O .
            O . .
            . . .",
            Black,
        );
        assert_eq!(play(&mut g, Black, "A3"), Err(Illegal::Suicide), "{suicide:?}");
        assert_eq!(g.board().get(pt(&g, "A3")), None);
    }
}

#[test]
fn multi_stone_suicide_is_refused_or_removes_the_chain() {
    let diagram_text = r"
        X . O .
        O O O .
        . . . .
        . . . .";
    let mut forbidden = position(with_suicide(Suicide::Forbidden), diagram_text, Black);
    assert_eq!(play(&mut forbidden, Black, "B4"), Err(Illegal::Suicide));

    let mut allowed = position(with_suicide(Suicide::Allowed), diagram_text, Black);
    let played = play(&mut allowed, Black, "B4").unwrap();
    assert_eq!((played.captured, played.suicided), (0, 2));
    assert_eq!(allowed.prisoners(White), 2, "suicided stones are White's prisoners");
    expect![[r#"
        . . O .
        O O O .
        . . . .
        . . . .
    "#]]
    .assert_eq(&diagram(&allowed));
}

const KO: &str = r"
    . X O .
    X O . O
    . X O .
    . . . .";

#[test]
fn simple_ko_forbids_the_immediate_retake_under_every_ko_rule() {
    for ko in [KoRule::Simple, KoRule::PositionalSuperko, KoRule::SituationalSuperko] {
        let mut g = position(with_ko(ko), KO, Black);
        assert_eq!(play(&mut g, Black, "C3").unwrap().captured, 1);
        assert_eq!(g.ko_point().map(|(p, c)| (p.to_gtp(4), c)), Some(("B3".to_string(), White)));
        assert_eq!(play(&mut g, White, "B3"), Err(Illegal::Ko), "{ko:?}");
        // After an exchange elsewhere the ko may be retaken.
        play(&mut g, White, "D1").unwrap();
        play(&mut g, Black, "A1").unwrap();
        assert_eq!(play(&mut g, White, "B3").unwrap().captured, 1, "{ko:?}");
    }
}

#[test]
fn snapback_is_not_ko() {
    let mut g = position(
        Ruleset::chinese(),
        r"
        . . X O .
        X X X O .
        O O O O .
        . . . . .
        . . . . .",
        White,
    );
    assert_eq!(play(&mut g, White, "A5").unwrap().captured, 0);
    assert_eq!(play(&mut g, Black, "B5").unwrap().captured, 1);
    let snap = play(&mut g, White, "A5").unwrap();
    assert_eq!(snap.captured, 5);
    expect![[r#"
        O . . O .
        . . . O .
        O O O O .
        . . . . .
        . . . . .
    "#]]
    .assert_eq(&diagram(&g));
}

/// Three kos; each capture is legal under simple ko, and six captures return to the start.
const TRIPLE_KO: &str = r"
    . X O . . . X O .
    X . X O . X O . O
    . X O . . . X O .
    . . . . . . . . .
    . X O . . . . . .
    X O . O . . . . .
    . X O . . . . . .
    . . . . . . . . .
    . . . . . . . . .";

fn triple_ko_cycle(ko: KoRule) -> Vec<Result<bool, Illegal>> {
    // Ko 1 (top left): Black holds C8, White takes at B8. Ko 2 (top right): White holds G8, Black
    // takes at H8. Ko 3 (lower left): White holds B4, Black takes at C4. No capture is the immediate
    // retake of the ko just taken.
    let mut g = position(with_ko(ko), TRIPLE_KO, Black);
    let start = g.hash();
    let moves = [(Black, "H8"), (White, "B8"), (Black, "C4"), (White, "G8"), (Black, "C8"), (White, "B4")];
    let mut out = Vec::new();
    for (color, v) in moves {
        let r = play(&mut g, color, v);
        out.push(r.map(|p| p.cycle));
        if r.is_err() {
            break;
        }
    }
    if out.len() == 6 && out[5].is_ok() {
        assert_eq!(g.hash(), start, "six captures return to the start");
    }
    out
}

#[test]
fn triple_ko_is_a_cycle_under_simple_ko_and_illegal_under_superko() {
    let simple = triple_ko_cycle(KoRule::Simple);
    assert_eq!(simple, vec![Ok(false), Ok(false), Ok(false), Ok(false), Ok(false), Ok(true)]);
    for ko in [KoRule::PositionalSuperko, KoRule::SituationalSuperko] {
        let r = triple_ko_cycle(ko);
        assert_eq!(r.len(), 6, "{ko:?}");
        assert_eq!(r[5], Err(Illegal::Superko), "{ko:?}");
    }
}

const SEND_TWO_RETURN_ONE: &str = r"
    O . O . X
    O O X X X
    . . . . .
    . . . . .
    . . . . .";

#[test]
fn sending_two_returning_one() {
    // White sends two (D5), Black captures them (B5), White returns one (C5): the board repeats.
    let run = |ko| {
        let mut g = position(with_ko(ko), SEND_TWO_RETURN_ONE, White);
        assert_eq!(play(&mut g, White, "D5").unwrap().captured, 0);
        assert_eq!(play(&mut g, Black, "B5").unwrap().captured, 2);
        play(&mut g, White, "C5")
    };
    let simple = run(KoRule::Simple).unwrap();
    assert!(simple.cycle, "simple ko reports the repetition");
    assert_eq!(run(KoRule::PositionalSuperko), Err(Illegal::Superko));
    // Situational superko: the same board, but now Black is to move instead of White, so it is new.
    let situational = run(KoRule::SituationalSuperko).unwrap();
    assert_eq!(situational.captured, 1);
}

const SEKI: &str = r"
    . O X X O X .
    . O X . O X .
    . O X X O X .
    . O X . O X .
    . O X O O X .
    . O X X O X .
    . O X X O X .";

#[test]
fn seki_counts_under_area_and_not_under_territory() {
    let area = position(Ruleset::chinese().with_komi(Komi(0)), SEKI, Black);
    let s = score(&area, &[], [0, 0]).unwrap();
    // The shared liberties D6 and D4 are dame: split under Chinese area counting.
    assert_eq!((s.black.stones, s.white.stones, s.dame), (18, 15, 2));
    assert_eq!((s.black.territory, s.white.territory), (7, 7));
    assert_eq!(s.black_area_halves(), 2 * 25 + 2);
    assert_eq!(s.white_area_halves(), 2 * 22 + 2);
    assert_eq!(s.result.to_sgf(), "B+3");

    let territory = position(Ruleset::japanese().with_komi(Komi(0)), SEKI, Black);
    let t = score(&territory, &[], [0, 0]).unwrap();
    assert_eq!((t.black.territory, t.white.territory, t.dame), (7, 7, 2));
    assert_eq!(t.result.to_sgf(), "Draw");
}

const SEKI_WITH_EYES: &str = r"
    O X . X . O . O X
    O X X X X O O O X
    O O O O O X X X X
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .";

#[test]
fn eyes_in_seki_are_not_territory() {
    // Black's inner chain has the eye C9, White's the eye G9; they share E9, which neither can fill
    // without being captured. Under territory rules the eyes count for nobody.
    let t = score(&position(Ruleset::japanese().with_komi(Komi(0)), SEKI_WITH_EYES, Black), &[], [0, 0]).unwrap();
    assert_eq!((t.black.seki_eyes, t.white.seki_eyes), (1, 1), "{t}");
    assert_eq!((t.black.territory, t.white.territory, t.dame), (0, 0, 55), "{t}");
    assert_eq!(t.result.to_sgf(), "Draw");
    let a = score(&position(Ruleset::chinese().with_komi(Komi(0)), SEKI_WITH_EYES, Black), &[], [0, 0]).unwrap();
    assert_eq!((a.black.seki_eyes, a.black.territory, a.white.territory), (0, 1, 1), "area has no seki exception");
    assert_eq!(a.result.to_sgf(), "Draw");
}

#[test]
fn dame_are_split_half_each_under_chinese_rules() {
    let g = position(
        Ruleset::chinese().with_komi(Komi(0)),
        r"
        . X . O .
        . X . O .
        . X . O .
        . X . O .
        . X . O .",
        Black,
    );
    let s = score(&g, &[], [0, 0]).unwrap();
    assert_eq!(s.dame, 5);
    assert_eq!(s.black_area_halves(), 25, "5 stones + 5 territory + 2½ dame = 12½");
    assert_eq!(s.result.to_sgf(), "Draw");
    let tt = score(&position(Ruleset::tromp_taylor().with_komi(Komi(0)), &diagram(&g), Black), &[], [0, 0]).unwrap();
    assert_eq!(tt.black_total, HalfPoints(20), "Tromp-Taylor counts dame for nobody");
}

/// A 19×19 final position where Black's area is `black` points (cells in row-major order below it),
/// with the point `black` left as a dame if `dame` is set, and everything else White's. Only the
/// boundary holds stones.
fn split_board(black: usize, dame: bool) -> Game {
    let n = 19;
    let area = |i: usize| -> u8 {
        if i < black {
            b'B'
        } else if dame && i == black {
            b'D'
        } else {
            b'W'
        }
    };
    let mut rows = Vec::new();
    for y in 0..n {
        let mut row = Vec::new();
        for x in 0..n {
            let me = area(y * n + x);
            let mut boundary = false;
            for (dx, dy) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                if nx >= 0 && ny >= 0 && nx < n as i32 && ny < n as i32 && area(ny as usize * n + nx as usize) != me {
                    boundary = true;
                }
            }
            row.push(match (me, boundary) {
                (b'B', true) => "X",
                (b'W', true) => "O",
                _ => ".",
            });
        }
        rows.push(row.join(" "));
    }
    position(Ruleset::chinese(), &rows.join("\n"), Black)
}

#[test]
fn chinese_counts_quoted_in_points_and_stones() {
    let cases = [
        (185, false, "B+1.5", "Black wins by ¾ stone"),
        (184, false, "W+0.5", "White wins by ¼ stone"),
        (184, true, "B+0.5", "Black wins by ¼ stone"),
        (180, false, "W+8.5", "White wins by 4¼ stones"),
    ];
    for (black, dame, points, stones) in cases {
        let g = split_board(black, dame);
        let s = score(&g, &[], [0, 0]).unwrap();
        let count = s.black_area_halves();
        assert_eq!(count, 2 * black as u32 + dame as u32, "count");
        assert_eq!(s.result.to_sgf(), points, "{black} dame={dame}");
        assert_eq!(s.result.in_stones(), stones, "{black} dame={dame}");
    }
}

#[test]
fn three_handicap_stones_182_is_a_draw() {
    let rules = Ruleset::chinese().with_komi(Komi(0));
    for (black, dame, expected) in [(182, false, "Draw"), (182, true, "B+1"), (181, true, "W+1")] {
        let g = split_board(black, dame);
        let s = score_position(g.board(), &rules, [0, 0], 3, &[], [0, 0]).unwrap();
        assert_eq!(s.handicap_compensation, HalfPoints(6), "three points returned");
        assert_eq!(s.result.to_sgf(), expected, "{black} dame={dame}");
    }
    // 让先: one stone of handicap is Black first without komi; nothing is returned.
    let g = split_board(181, false);
    let s = score_position(g.board(), &rules, [0, 0], 1, &[], [0, 0]).unwrap();
    assert_eq!(s.result.to_sgf(), "B+1");
}

#[test]
fn warnings_cost_one_stone_each() {
    let g = split_board(185, false);
    let s = score(&g, &[], [1, 0]).unwrap();
    assert_eq!(s.result.to_sgf(), "W+0.5", "B+1.5 less two points");
    let s = score(&g, &[], [0, 2]).unwrap();
    assert_eq!(s.result.to_sgf(), "B+5.5");
}

#[test]
fn dead_chains_are_removed_before_counting() {
    let g = position(
        Ruleset::japanese().with_komi(Komi(0)),
        r"
        . . X O .
        . O X O .
        . . X O .
        . . X O .
        . . X O .",
        Black,
    );
    let dead = [pt(&g, "B4")];
    let t = score(&g, &dead, [0, 0]).unwrap();
    assert_eq!((t.black.territory, t.black.prisoners, t.white.dead), (10, 1, 1));
    assert_eq!(t.result.to_sgf(), "B+6");
    let area = score_position(g.board(), &Ruleset::chinese().with_komi(Komi(0)), [0, 0], 0, &dead, [0, 0]).unwrap();
    assert_eq!(area.result.to_sgf(), "B+5", "15 against 10");
    assert!(score(&g, &[pt(&g, "A1")], [0, 0]).is_err());
}

#[test]
fn group_tax_charges_each_living_group() {
    let rules = Ruleset::ancient();
    let g = position(
        rules,
        r"
        . X . O .
        X X . O O
        . . . . .
        X X . O O
        . X . O .",
        Black,
    );
    let s = score(&g, &[], [0, 0]).unwrap();
    assert_eq!((s.black.groups, s.white.groups), (2, 2));
    assert_eq!(s.scoring, Scoring::AreaDameSplit);
}

#[test]
fn occupied_off_board_and_game_over_are_typed() {
    let mut g = Game::new(9, Ruleset::chinese()).unwrap();
    play(&mut g, Black, "E5").unwrap();
    assert_eq!(play(&mut g, White, "E5"), Err(Illegal::Occupied));
    assert_eq!(g.play(White, weiqi_rules::Move::Play(weiqi_rules::Point::new(9, 0))), Err(Illegal::OffBoard));
    g.end();
    assert_eq!(play(&mut g, White, "A1"), Err(Illegal::GameOver));
    g.resume(White);
    assert!(play(&mut g, White, "A1").is_ok());
}

#[test]
fn undo_restores_the_previous_position() {
    let mut g = position(Ruleset::chinese(), KO, Black);
    let before = (g.hash(), diagram(&g), g.prisoners(Black));
    play(&mut g, Black, "C3").unwrap();
    g.undo().unwrap();
    assert_eq!((g.hash(), diagram(&g), g.prisoners(Black)), before);
    // The ko is gone with the move, so Black may take again.
    assert_eq!(play(&mut g, Black, "C3").unwrap().captured, 1);
}

#[test]
fn the_rules_example_from_the_crate_doc_counts_every_point() {
    let mut g = Game::new(9, Ruleset::chinese()).unwrap();
    play(&mut g, Black, "D4").unwrap();
    let s = score(&g, &[], [0, 0]).unwrap();
    assert_eq!((s.black.stones, s.black.territory), (1, 80));
}

#[test]
fn ing_shares_neutral_points_evenly_and_gives_ties_to_black() {
    // Five dame in the middle column: two each, the fifth left unfilled.
    let g = position(
        Ruleset::ing().with_komi(Komi(0)),
        r"
        . X . O .
        . X . O .
        . X . O .
        . X . O .
        . X . O .",
        Black,
    );
    let s = score(&g, &[], [0, 0]).unwrap();
    assert_eq!(s.scoring, Scoring::Ing);
    assert_eq!((s.dame, s.black_area_halves(), s.white_area_halves()), (5, 24, 24), "10 + 2 dame each");
    assert_eq!(s.result.winner, Some(Black), "a tie goes to Black");
    assert_eq!(s.result.in_stones(), "Black wins the tie");
    // Under Ing's komi of 8 a 19×19 game is never drawn: 184 against 177 + 8 is still Black's.
    let board = split_board(184, false);
    let s = score_position(board.board(), &Ruleset::ing(), [0, 0], 0, &[], [0, 0]).unwrap();
    assert_eq!((s.black_total, s.white_total), (HalfPoints(368), HalfPoints(2 * 177 + 16)));
    assert_eq!(s.result.winner, Some(White));
    // With one neutral point left unfilled, 184 against 176 + 8 komi is a tie, and Black's.
    let board = split_board(184, true);
    let s = score_position(board.board(), &Ruleset::ing(), [0, 0], 0, &[], [0, 0]).unwrap();
    assert_eq!((s.dame, s.black_total, s.white_total), (1, HalfPoints(368), HalfPoints(368)));
    assert_eq!(s.result.winner, Some(Black));
}

#[test]
fn ing_allows_multi_stone_suicide_and_refuses_single_stone_suicide() {
    let mut g = position(
        Ruleset::ing(),
        r"
        X . O .
        O O O .
        . . . .
        . . . .",
        Black,
    );
    assert_eq!(play(&mut g, Black, "B4").map(|p| p.suicided), Ok(2));
    let mut g = position(
        Ruleset::ing(),
        r"
        . O .
        O . .
        . . .",
        Black,
    );
    assert_eq!(play(&mut g, Black, "A3"), Err(Illegal::Suicide));
}

/// Plays `moves` (GTP vertices, `pass`) alternately from Black on an empty board.
fn played(size: u8, rules: Ruleset, moves: &[&str]) -> Game {
    let mut g = Game::new(size, rules).unwrap();
    for v in moves {
        let color = g.to_move();
        play(&mut g, color, v).unwrap_or_else(|e| panic!("{v}: {e}"));
    }
    g
}

#[test]
fn aga_pass_stones_make_the_territory_count_equal_the_area_count() {
    // A 5×5 game with a capture, ended by Black's pass; under pass stones White passes once more.
    let moves = ["C3", "C2", "B2", "D2", "C1", "B3", "A3", "B4", "D3", "C4", "D4", "A2", "E2", "pass", "pass"];
    let g = played(5, Ruleset::aga().with_komi(Komi(0)), &moves);
    assert!(g.prisoners(Black) + g.prisoners(White) > 0);
    assert!(!g.pass_ends_play(Black), "Black's pass after White's does not end play under pass stones");
    assert!(g.pass_ends_play(White), "White passes last");
    let mut g = g;
    play(&mut g, White, "pass").unwrap();
    let area = score(&g, &[], [0, 0]).unwrap();
    let as_territory = Ruleset { scoring: Scoring::Territory, ..*g.ruleset() };
    let prisoners = [g.prisoners(Black), g.prisoners(White)];
    let territory = score_position(g.board(), &as_territory, prisoners, 0, &[], [0, 0]).unwrap();
    assert_eq!(area.result, territory.result, "area:\n{area}\nterritory:\n{territory}");
    assert_eq!(area.black_total.0 - area.white_total.0, territory.black_total.0 - territory.white_total.0);
    // Without pass stones the two counts differ on the same moves.
    let chinese = Ruleset { pass_stones: false, ..*g.ruleset() };
    let mut plain = played(5, chinese, &moves);
    play(&mut plain, White, "pass").unwrap();
    let t = score_position(
        plain.board(),
        &Ruleset { scoring: Scoring::Territory, ..chinese },
        [plain.prisoners(Black), plain.prisoners(White)],
        0,
        &[],
        [0, 0],
    )
    .unwrap();
    assert_ne!(t.black_total.0 - t.white_total.0, area.black_total.0 - area.white_total.0);
}

#[test]
fn aga_pass_stones_hold_on_random_games() {
    for seed in 0..40 {
        let (_, mut g) = weiqi_rules::random::random_game(7, Ruleset::aga().with_komi(Komi(0)), seed, 400);
        if g.consecutive_passes() < 2 {
            continue;
        }
        if !g.pass_ends_play(White) || g.actions().last() != Some(&weiqi_rules::Action::Pass(White)) {
            play(&mut g, White, "pass").unwrap();
        }
        let area = score(&g, &[], [0, 0]).unwrap();
        let rules = Ruleset { scoring: Scoring::Territory, ..*g.ruleset() };
        let t = score_position(g.board(), &rules, [g.prisoners(Black), g.prisoners(White)], 0, &[], [0, 0]).unwrap();
        if t.black.seki_eyes + t.white.seki_eyes > 0 {
            continue; // the territory count gives eyes in seki to nobody
        }
        assert_eq!(
            area.black_total.0 - area.white_total.0,
            t.black_total.0 - t.white_total.0,
            "seed {seed}:\n{area}\n{t}"
        );
    }
}

#[test]
fn huge_komi_cannot_overflow_the_count() {
    let g = played(9, Ruleset::chinese(), &["E5", "pass", "pass"]);
    for (komi, winner) in [(i32::MAX, Some(White)), (i32::MIN, Some(Black))] {
        let rules = g.ruleset().with_komi(Komi(komi));
        let s = score_position(g.board(), &rules, [0, 0], 0, &[], [0, 0]).unwrap();
        assert_eq!(s.result.winner, winner, "komi {komi}: {s}");
        assert!(s.result.margin.0 > 0);
        assert!(!s.result.to_sgf().contains("+-"), "{}", s.result.to_sgf());
    }
}
