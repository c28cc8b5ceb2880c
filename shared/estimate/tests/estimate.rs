//! Life and death on positions drawn as diagrams: `X` Black, `O` White, `.` empty, top row first.

use weiqi_estimate::{Estimate, Status, estimate, unconditionally_alive};
use weiqi_rules::{Color, Game, Komi, Point, Ruleset, score};

use Color::{Black, White};

/// A game holding the position of `diagram`, `to_move` to play.
fn position(ruleset: Ruleset, diagram: &str, to_move: Color) -> Game {
    let rows: Vec<Vec<char>> = diagram
        .lines()
        .map(|l| l.split_whitespace().filter_map(|t| t.chars().next()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let mut black = Vec::new();
    let mut white = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), rows.len(), "diagram must be square");
        for (x, &c) in row.iter().enumerate() {
            let p = Point::new(x as u8, y as u8);
            match c {
                'X' => black.push(p),
                'O' => white.push(p),
                '.' => {}
                other => panic!("unexpected {other:?} in diagram"),
            }
        }
    }
    let mut game = Game::new(rows.len() as u8, ruleset).unwrap();
    game.setup(&black, &white, &[]).unwrap();
    if game.to_move() != to_move {
        game.set_to_move(to_move);
    }
    game
}

fn judged(ruleset: Ruleset, diagram: &str, to_move: Color) -> (Game, Estimate) {
    let game = position(ruleset, diagram, to_move);
    let e = estimate(game.board(), to_move, game.ruleset());
    (game, e)
}

/// Points as GTP vertices, in the order given.
fn vertices(game: &Game, points: &[Point]) -> String {
    points.iter().map(|p| p.to_gtp(game.size())).collect::<Vec<_>>().join(" ")
}

fn pt(game: &Game, v: &str) -> Point {
    Point::from_gtp(v, game.size()).unwrap_or_else(|| panic!("bad vertex {v}"))
}

/// Every chain has one status.
fn assert_chains_agree(game: &Game, e: &Estimate) {
    let board = game.board();
    for p in board.points().filter(|&p| board.get(p).is_some()) {
        for q in board.chain(p) {
            assert_eq!(
                e.status(q),
                e.status(p),
                "{} and {} are one chain",
                p.to_gtp(game.size()),
                q.to_gtp(game.size())
            );
        }
    }
}

#[test]
fn stones_without_eyes_in_the_opponents_territory_are_dead() {
    let (game, e) = judged(
        Ruleset::chinese(),
        r"
        . . . . . . . . .
        . . . . . X . . .
        . . . . . . . . .
        O O O O O O O O O
        X X X X X X X X X
        . . . . . . . . .
        . . . O . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        Black,
    );
    assert_eq!(vertices(&game, &e.dead_stones()), "F8 D3");
    assert_eq!(e.status(pt(&game, "E5")), Some(Status::Alive));
    assert_eq!(e.status(pt(&game, "E6")), Some(Status::Alive));
    assert_eq!(e.owner(pt(&game, "D3")), Some(Black));
    assert_eq!(e.owner(pt(&game, "F8")), Some(White));
    assert!(e.ownership(pt(&game, "D3")) > 0.0, "Black keeps D3 in most playouts");
    assert_chains_agree(&game, &e);
    // Black: the wall and four rows, 45 points; White: 36; komi 7.5.
    assert_eq!(score(&game, &e.dead_stones(), [0, 0]).unwrap().result.to_sgf(), "B+1.5");
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
fn seki_stones_are_alive_and_their_shared_liberties_are_dame() {
    let (game, e) = judged(Ruleset::japanese().with_komi(Komi(0)), SEKI, Black);
    assert!(e.dead_stones().is_empty(), "{}", vertices(&game, &e.dead_stones()));
    assert_eq!(
        vertices(&game, &e.seki_stones()),
        "C7 D7 E7 C6 E6 C5 D5 E5 C4 E4 C3 D3 E3 C2 D2 E2 C1 D1 E1",
        "the inner chains, which share D6 and D4 and have no eye"
    );
    assert_eq!(e.status(pt(&game, "B4")), Some(Status::Alive));
    assert_eq!(e.status(pt(&game, "F4")), Some(Status::Alive));
    assert_eq!((e.owner(pt(&game, "D6")), e.owner(pt(&game, "D4"))), (None, None));
    assert_eq!(e.owner(pt(&game, "A4")), Some(White));
    assert_chains_agree(&game, &e);
    assert_eq!(score(&game, &e.dead_stones(), [0, 0]).unwrap().result.to_sgf(), "Draw");
}

const SEKI_WITH_EYES: &str = r"
    O X . X . O . O X
    O X X X X O O O X
    O O O O O X X X X
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .";

#[test]
fn a_seki_with_one_eye_each_leaves_the_eyes_to_nobody_under_territory_scoring() {
    let (game, e) = judged(Ruleset::japanese().with_komi(Komi(0)), SEKI_WITH_EYES, Black);
    assert!(e.dead_stones().is_empty(), "{}", vertices(&game, &e.dead_stones()));
    assert_eq!(vertices(&game, &e.seki_stones()), "B9 D9 F9 H9 B8 C8 D8 E8 F8 G8 H8");
    let owners = |v: &str| e.owner(pt(&game, v));
    assert_eq!((owners("C9"), owners("E9"), owners("G9")), (None, None, None));
    assert_eq!((owners("A1"), owners("J1")), (Some(White), Some(Black)));
    // White's 24 points against Black's 18; the seki counts for nobody.
    assert_eq!(score(&game, &e.dead_stones(), [0, 0]).unwrap().result.to_sgf(), "W+6");

    let (game, e) = judged(Ruleset::chinese().with_komi(Komi(0)), SEKI_WITH_EYES, White);
    let owners = |v: &str| e.owner(pt(&game, v));
    assert_eq!((owners("C9"), owners("E9"), owners("G9")), (Some(Black), None, Some(White)), "area counts the eyes");
}

#[test]
fn a_false_eye_is_not_a_second_eye() {
    // White's corner has a real eye at A9; C9 looks like one, but Black's D8 makes it false: Black
    // captures D9 from C9, and the corner is left with one eye.
    let (game, e) = judged(
        Ruleset::japanese(),
        r"
        . O . O X X O . .
        O O O X X X O . .
        X X X X . X O . .
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .",
        White,
    );
    assert_eq!(vertices(&game, &e.dead_stones()), "B9 D9 A8 B8 C8");
    assert_eq!(e.status(pt(&game, "D8")), Some(Status::Alive));
    assert_chains_agree(&game, &e);
}

#[test]
fn two_eyes_that_no_ko_can_take_make_life() {
    let game = position(
        Ruleset::japanese(),
        r"
        . O . O X X O . .
        O O O O X X O . .
        X X X X X X O . .
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .",
        Black,
    );
    let e = estimate(game.board(), Black, game.ruleset());
    assert!(e.dead_stones().is_empty(), "{}", vertices(&game, &e.dead_stones()));
    assert_eq!(e.status(pt(&game, "B9")), Some(Status::Alive));
    assert_eq!(vertices(&game, &unconditionally_alive(game.board(), White)), "B9 D9 A8 B8 C8 D8");
    assert_eq!(e.ownership(pt(&game, "A9")), -1.0, "a proven eye is White's in every count");
    assert_eq!(e.owner(pt(&game, "C9")), Some(White));
}

#[test]
fn bent_four_in_the_corner_is_dead() {
    // Black A2 makes the bent four: White takes at C2 and Black starts a ko White cannot win once
    // Black has removed every threat. White's seven stones are dead; Black's three inside live.
    let (game, e) = judged(
        Ruleset::japanese(),
        r"
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .
        . . . . . X O . .
        X X X X X X O . .
        O O O O X X O . .
        . O . O X X O . .
        X X X O X X O . .",
        White,
    );
    assert_eq!(vertices(&game, &e.dead_stones()), "A3 B3 C3 D3 B2 D2 D1");
    assert_eq!(e.status(pt(&game, "A1")), Some(Status::Alive));
    assert!(e.seki_stones().is_empty(), "it is not a seki: {}", vertices(&game, &e.seki_stones()));
    assert_chains_agree(&game, &e);
}

#[test]
fn a_big_group_with_one_eye_is_dead() {
    let (game, e) = judged(
        Ruleset::chinese(),
        r"
        . . . . . . . . . . X O .
        . X X X X X X X X . X O .
        . X O O O O O O X . X O .
        . X O O . . O O X . X O .
        . X O O O O O O X . X O .
        . X O O O O O O X . X O .
        . X X X X X X X X . X O .
        . . . . . . . . . . X O .
        . . . . . . . . . . X O .
        . . . . . . . . . . X O .
        . . . . . . . . . . X O .
        . . . . . . . . . . X O .
        . . . . . . . . . . X O .",
        White,
    );
    let dead = e.dead_stones();
    assert_eq!(dead.len(), 22, "{}", vertices(&game, &dead));
    assert!(dead.iter().all(|&p| game.board().get(p) == Some(White) && (2..=7).contains(&p.x)));
    assert_chains_agree(&game, &e);
    // Black: eleven columns of 13, White: two; komi 7.5.
    assert_eq!(score(&game, &dead, [0, 0]).unwrap().result.to_sgf(), "B+109.5");
}

#[test]
fn chains_that_share_two_liberties_share_a_status() {
    // White's B4 and C3 are two chains, but Black cannot cut them apart: they live or die together,
    // and here they die. Black's wall has a cutting point at D6 that White cannot use.
    let (game, e) = judged(
        Ruleset::chinese(),
        r"
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        X X X . O . . . .
        . . . X O . . . .
        . O . X O . . . .
        . . O X O . . . .
        . . . X O . . . .
        . . . X O . . . .",
        Black,
    );
    assert_eq!(vertices(&game, &e.dead_stones()), "B4 C3");
    for v in ["D9", "A6", "D5"] {
        assert_eq!(e.status(pt(&game, v)), Some(Status::Alive), "{v}");
    }
}

#[test]
fn the_same_position_always_gets_the_same_answer() {
    let game = position(Ruleset::japanese(), SEKI_WITH_EYES, Black);
    let first = estimate(game.board(), Black, game.ruleset());
    for _ in 0..3 {
        assert_eq!(estimate(game.board(), Black, game.ruleset()), first);
    }
}

#[test]
fn benson_proves_only_chains_with_two_vital_regions() {
    let game = position(
        Ruleset::chinese(),
        r"
        . X . X O .
        X X X X O .
        O O O O O .
        . . . . . .
        . . . . . .
        . . . . . .",
        Black,
    );
    assert_eq!(vertices(&game, &unconditionally_alive(game.board(), Black)), "B6 D6 A5 B5 C5 D5");
    assert_eq!(vertices(&game, &unconditionally_alive(game.board(), White)), "", "one big region is not two eyes");
}

#[test]
fn stones_their_owner_cannot_save_even_moving_first_are_dead() {
    // White's C9 and D8 share their one liberty D9 with E9, which belongs to White's living group
    // through F9, so the three make one group to the playouts. But White connecting at D9 leaves the
    // four stones one liberty (F9), and Black takes C9 and D8 at D9 whenever he likes: reading shows
    // they cannot be kept, so they are dead. E9 connects at F9 and lives.
    let (game, e) = judged(
        Ruleset::chinese(),
        r"
        . X O . O . . . .
        X X X O X O . . .
        . . X X X O . . .
        . . X . X O . . .
        X X X X X O . . .
        O O O O O O . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        Black,
    );
    assert_eq!(vertices(&game, &e.dead_stones()), "C9 D8");
    assert_eq!(e.status(pt(&game, "E9")), Some(Status::Alive));
    assert_chains_agree(&game, &e);
}

const CRITICAL_CORNER: &str = r"
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X X X X . .
    X O O O O O X . .
    X O . O . X X . .
    O O X O O X . . .
    O X X X O X . . .
    . X X O O X . . .";

#[test]
fn a_chain_that_whoever_moves_first_decides_belongs_to_the_side_to_move() {
    // Black's six stones in the corner share A1 and C3's liberty C4 with White's chain, whose third
    // liberty E4 is Black's too. Black to move fills E4 and it is a seki: neither side can then fill
    // A1 or C4. White to move plays C4 and takes the six stones. The playouts, which move at random,
    // leave them about even; reading decides by the side to move, and so does counting the
    // liberties (none outside for Black, one for White, two shared), which calls it a seki.
    let inner = "C3 B2 C2 D2 B1 C1";
    let (game, e) = judged(Ruleset::japanese(), CRITICAL_CORNER, Black);
    assert!(e.dead_stones().is_empty(), "{}", vertices(&game, &e.dead_stones()));
    assert_eq!(e.status(pt(&game, "C3")), Some(Status::Seki));
    assert_chains_agree(&game, &e);

    let (game, e) = judged(Ruleset::japanese(), CRITICAL_CORNER, White);
    assert_eq!(vertices(&game, &e.dead_stones()), inner);
    assert_chains_agree(&game, &e);
}

#[test]
fn a_nakade_does_not_kill_a_chain_that_can_capture_its_way_out() {
    // White's chain on the left has two liberties, B6 and A5, around Black's A6: filling either is
    // self-atari for Black, and White's capture of A6 and a filled point would leave a killing
    // shape. But Black's A2 is in atari against the same chain: White captures it at A1, joins the
    // group below, and the capture of A6 then makes a second eye. The chain lives; A6 and A2 are dead.
    const CORNER: &str = r"
        . . . . . . . . .
        X X X X . . . . .
        O O O X . . . . .
        X . O X . . . . .
        . O O X . . . . .
        O O X X . . . . .
        O X X . . . . . .
        X O O O O O O O O
        . O . . . . . . .";
    for to_move in [Black, White] {
        let (game, e) = judged(Ruleset::japanese(), CORNER, to_move);
        assert_eq!(vertices(&game, &e.dead_stones()), "A6 A2", "{to_move:?} to move");
        assert_eq!(e.status(pt(&game, "B5")), Some(Status::Alive));
        assert_chains_agree(&game, &e);
    }
}

#[test]
fn the_group_that_wins_a_capturing_race_lives() {
    // A final position from GNU Go's regression games (NNGS, whitemouse–GNU Go, W+31.5). White's
    // F9 F8 F7 have two liberties, G9 and E7, and cannot be kept even with White to move; the
    // playouts, which often let them live, leave Black's top group about even. Reading kills the
    // three stones, so the black group around them wins the race and lives, as the players agreed.
    let (game, e) = judged(
        Ruleset::japanese().with_komi(Komi::from_points(0.5).unwrap()),
        r"
        . O X . X O . . .
        O O X . X O X X X
        O X X . . O X O X
        O X X X X X O O O
        . O X O O O O . O
        O O O O X X O O .
        . O X X X X X X O
        O X X O . X O O .
        X X X . . . X . O",
        White,
    );
    for v in ["F9", "F8", "F7"] {
        assert_eq!(e.status(pt(&game, v)), Some(Status::Dead), "{v}");
    }
    for v in ["C9", "E9", "G8", "B7", "F6"] {
        assert_eq!(e.status(pt(&game, v)), Some(Status::Alive), "{v}");
    }
    assert_chains_agree(&game, &e);
}

/// Black's ring has no eye and two outside liberties (A6, G5); White's three stones inside it have
/// none, and the two share four liberties (C6, E6, E5, C4). Counting: White cannot win, and Black,
/// to capture, would need as many outside liberties as shared ones, so neither can: a seki. And it
/// stays one when White fills all its liberties but one, since what Black captures is no killing
/// shape. The playouts, which fill shared liberties at random, lose the white stones more often
/// than not.
const RING_SEKI: &str = r"
    . O . O . O . O .
    O O O O O O O O O
    O X X X X X O . O
    . X . O . X O O O
    O X X O . X . O O
    O X . O X X O O .
    O X X X X X O . O
    . O O O O O O O O
    O O . O . O . O .";

#[test]
fn a_seki_with_shared_liberties_is_found_by_counting_them() {
    for to_move in [Black, White] {
        let (game, e) = judged(Ruleset::japanese(), RING_SEKI, to_move);
        assert_eq!(e.dead_stones(), vec![], "to move {to_move}");
        assert_eq!(e.status(pt(&game, "D6")), Some(Status::Seki), "to move {to_move}");
        assert_eq!(e.status(pt(&game, "B7")), Some(Status::Seki), "to move {to_move}");
        for shared in ["C6", "E6", "E5", "C4"] {
            assert_eq!(e.owner(pt(&game, shared)), None, "{shared} is dame");
        }
        assert_eq!(e.status(pt(&game, "A8")), Some(Status::Alive));
        assert_chains_agree(&game, &e);
    }
}

#[test]
fn a_ring_whose_inner_stones_can_make_a_killing_shape_is_no_seki() {
    // As above, but White's two stones and the four shared liberties make a two-by-three block: White
    // fills three of them, Black must capture five stones in the shape of a bulky five, and White
    // kills by playing its vital point. Black's outside liberties do not help; the count alone would
    // call it a seki.
    let (game, e) = judged(
        Ruleset::japanese(),
        r"
        . O . O . O . O .
        O O O O O O O O O
        O X X X X X O . O
        . X . O . X O O O
        O X . O . X . O O
        O X X X X X O O .
        O O O O O O O . O
        . O . O . O O O O
        O O O O O O . O .",
        Black,
    );
    assert_eq!(e.status(pt(&game, "B7")), Some(Status::Dead));
    assert_eq!(e.status(pt(&game, "D6")), Some(Status::Alive));
    assert_chains_agree(&game, &e);
}

/// A seki in the corner whose inner chain has a killing shape (after the corner of GnuGo-Aya, cgf2003).
/// Black's big chain has two liberties, G9 and J7; the black stone H9 has G9 and J9; White's two
/// stones H8 and J8 have J9 and J7. Nobody can fill J9 or J7 without self-atari. Black filling G9
/// (connecting H9) leaves its chain J9 and J7, White's own two liberties: then White throws in at
/// either, Black captures three stones in a bent three, and White kills at its vital point. So G9
/// is the one move that loses the seki, and the playouts must not make it at random (before they
/// learnt that, they lost Black's corner four times in five).
const CORNER_SEKI: &str = r"
    . O . O O X . X .
    O O O O X X X O O
    . O . O X X X X .
    O O O O O O O X X
    O . O . O . O O O
    O O O O O O O O O
    . O . O . O . O .
    O O O O O O O O O
    . O . O . O . O .";

#[test]
fn a_seki_is_not_lost_by_filling_the_liberty_that_lets_a_nakade_in() {
    for to_move in [Black, White] {
        let (game, e) = judged(Ruleset::japanese(), CORNER_SEKI, to_move);
        assert_eq!(vertices(&game, &e.dead_stones()), "", "to move {to_move}");
        for stone in ["F9", "E7", "J6", "H8", "J8"] {
            assert_eq!(e.status(pt(&game, stone)), Some(Status::Seki), "{stone}, to move {to_move}");
        }
        for shared in ["J9", "J7", "G9"] {
            assert_eq!(e.owner(pt(&game, shared)), None, "{shared} is nobody's, to move {to_move}");
        }
        assert_chains_agree(&game, &e);
    }
}

/// A chain with a nakade inside dies whatever its outside liberties (nicklas2, 9×9). Black's bottom
/// chain (A2, A1 to H1, up to J6) has liberties D2, J1 and J4; White's three stones H2, J2, J3 inside
/// have J1 and J4, so they race. Black's outside liberty D2 leads into open points (D3), so Black is
/// not held in and counting the race would say nothing; but White fills J1 or J4 whenever it likes,
/// Black must capture four stones in the shape of a pyramid four, and White kills at its vital
/// point. The players agreed so. Random play keeps Black about half the time, just at the threshold.
#[test]
fn a_nakade_inside_kills_a_chain_that_is_not_held_in() {
    let board = r"
        . X X X . . . . .
        . O X X X O X X .
        . O O X O O X O O
        . . . O . . O O X
        . . O . O O O X X
        . . . . O X O X .
        O . O . O X X X O
        X O O . O O X O O
        X X X X X X X X .";
    for to_move in [White, Black] {
        let (game, e) = judged(Ruleset::japanese(), board, to_move);
        for stone in ["A1", "H1", "G3", "J6"] {
            assert_eq!(e.status(pt(&game, stone)), Some(Status::Dead), "{stone}, to move {to_move}");
        }
        for stone in ["H2", "J3", "C2", "E2"] {
            assert_eq!(e.status(pt(&game, stone)), Some(Status::Alive), "{stone}, to move {to_move}");
        }
        assert_chains_agree(&game, &e);
    }
}

/// A loose corner that random play keeps alive dies when the playouts answer locally (filllib19
/// from GNU Go's regression games, 9×9, B+6.5, Black to move). White's seven stones in the lower
/// left (A2, B4 B3 C3 C2, D4 D3) share A3, B2 and A1 with Black's B1 C1 and cannot make two eyes
/// there; Black's four stones in the lower right (G2 G1, H3 H2) sit in White's area. Random play
/// left the white corner alive just above the threshold; with local answers by 3×3 pattern the
/// playouts kill it, as GNU Go does and the recorded result says.
#[test]
fn a_corner_with_one_eye_dies_when_the_playouts_answer_locally() {
    let board = r"
        . X . X O O O X X
        X X X X X O X X .
        O O O O O O X . X
        X X O . O O O X X
        . X X X X O O O O
        X O X O X X O O .
        . O O O X O O X O
        O . O X X O X X O
        . X X . X O X . .";
    let (game, e) = judged(Ruleset::japanese().with_komi(Komi::from_points(6.5).unwrap()), board, Black);
    assert_eq!(vertices(&game, &e.dead_stones()), "B4 D4 B3 C3 D3 H3 A2 C2 G2 H2 G1");
    assert_chains_agree(&game, &e);
}
