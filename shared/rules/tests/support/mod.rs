//! Helpers for rule tests: positions drawn as ASCII diagrams.
#![allow(dead_code)]

use weiqi_rules::{Color, Game, Move, Point, Ruleset};

/// Builds a game from a square diagram of `X` (black), `O` (white) and `.` (empty), top row first,
/// with `to_move` to play.
pub fn position(ruleset: Ruleset, diagram: &str, to_move: Color) -> Game {
    let rows: Vec<Vec<char>> = diagram
        .lines()
        .map(|l| l.split_whitespace().filter_map(|t| t.chars().next()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let size = rows.len() as u8;
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
    let mut game = Game::new(size, ruleset).unwrap();
    game.setup(&black, &white, &[]).unwrap();
    if game.to_move() != to_move {
        game.set_to_move(to_move);
    }
    game
}

/// A GTP vertex on the game's board.
pub fn pt(game: &Game, v: &str) -> Point {
    Point::from_gtp(v, game.size()).unwrap_or_else(|| panic!("bad vertex {v}"))
}

/// Plays a GTP vertex (or `pass`) for `color`.
pub fn play(game: &mut Game, color: Color, v: &str) -> Result<weiqi_rules::Played, weiqi_rules::Illegal> {
    let mv = Move::from_gtp(v, game.size()).unwrap_or_else(|| panic!("bad move {v}"));
    game.play(color, mv)
}

/// The board as a diagram.
pub fn diagram(game: &Game) -> String {
    game.board().to_ascii()
}

/// A tiny deterministic generator (SplitMix64) for tests and property inputs.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays a random game: each move is a uniformly random legal point that does not fill an own
/// single-point eye, else a pass; stops after two passes or `max_moves`. Returns the moves played.
pub fn random_game(game: &mut Game, rng: &mut Rng, max_moves: usize) -> Vec<(Color, Move)> {
    let mut moves = Vec::new();
    let mut passes = 0;
    while passes < 2 && moves.len() < max_moves {
        let color = game.to_move();
        let candidates: Vec<Point> =
            game.legal_points(color).into_iter().filter(|&p| !game.fills_own_eye(color, p)).collect();
        let mv = if candidates.is_empty() { Move::Pass } else { Move::Play(candidates[rng.below(candidates.len())]) };
        game.play(color, mv).unwrap();
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
        moves.push((color, mv));
    }
    moves
}
