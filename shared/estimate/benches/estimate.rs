//! Criterion bench: the estimate of real 19×19 final positions from the agreement fixture.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use weiqi_estimate::estimate;
use weiqi_rules::{Color, Game, Point, Ruleset};

/// The first `n` 19×19 positions of the fixture, with the side to move.
fn positions(n: usize) -> Vec<(Game, Color)> {
    let text = include_str!("../tests/data/positions.txt");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f.len() == 11 && f[1] == "19")
        .take(n)
        .map(|f| {
            let (mut black, mut white) = (Vec::new(), Vec::new());
            for (y, row) in f[10].split('/').enumerate() {
                for (x, ch) in row.chars().enumerate() {
                    let p = Point::new(x as u8, y as u8);
                    match ch {
                        'X' => black.push(p),
                        'O' => white.push(p),
                        _ => {}
                    }
                }
            }
            let mut game = Game::new(19, Ruleset::preset(f[3]).unwrap_or_default()).unwrap();
            game.setup(&black, &white, &[]).unwrap();
            (game, Color::parse(f[2]).unwrap_or(Color::Black))
        })
        .collect()
}

fn estimates(c: &mut Criterion) {
    let positions = positions(8);
    let mut group = c.benchmark_group("estimate-19x19-final");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.sample_size(20);
    group.bench_function("default", |b| {
        b.iter(|| {
            for (game, to_move) in &positions {
                black_box(estimate(game.board(), *to_move, game.ruleset()));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, estimates);
criterion_main!(benches);
