//! Prints the estimator's view of a position: statuses and the playouts' ownership per point.
//!
//! ```text
//! cargo run --release -p weiqi-estimate --example explain -- [black|white] [japanese|chinese|...] < diagram.txt
//! ```
//!
//! The diagram is rows of `X` (Black), `O` (White) and `.`, top row first, separated by spaces.

use std::io::Read;

use weiqi_estimate::{Status, estimate};
use weiqi_rules::{Color, Game, Point, Ruleset};

fn main() {
    let mut args = std::env::args().skip(1);
    let to_move = args.next().and_then(|s| Color::parse(&s)).unwrap_or(Color::Black);
    let ruleset = args.next().and_then(|s| Ruleset::preset(&s)).unwrap_or_default();
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("a diagram on stdin");
    let rows: Vec<Vec<char>> = text
        .lines()
        .map(|l| l.split_whitespace().filter_map(|t| t.chars().next()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let size = rows.len() as u8;
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (y, row) in rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            match c {
                'X' => black.push(Point::new(x as u8, y as u8)),
                'O' => white.push(Point::new(x as u8, y as u8)),
                _ => {}
            }
        }
    }
    let mut game = Game::new(size, ruleset).expect("a supported size");
    game.setup(&black, &white, &[]).expect("a legal position");
    let e = estimate(game.board(), to_move, &ruleset);
    println!("status (x/o alive, d dead, s seki) and ownership ×10 (+ Black):");
    for y in 0..size {
        let mut left = String::new();
        let mut right = String::new();
        for x in 0..size {
            let p = Point::new(x, y);
            left.push(match (game.board().get(p), e.status(p)) {
                (Some(_), Some(Status::Dead)) => 'd',
                (Some(_), Some(Status::Seki)) => 's',
                (Some(Color::Black), _) => 'x',
                (Some(Color::White), _) => 'o',
                (None, _) => match e.owner(p) {
                    Some(Color::Black) => '+',
                    Some(Color::White) => '-',
                    None => '.',
                },
            });
            left.push(' ');
            right.push_str(&format!("{:>3}", (e.ownership(p) * 10.0).round() as i32));
        }
        println!("{left}   {right}");
    }
}
