//! Criterion benches for the rules core: replay with positional superko, the legal-point set of a
//! middle-game position, scoring a final position; and the `goban` crate replaying the same games.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use weiqi_rules::random::random_game;
use weiqi_rules::{Color, Game, Move, Ruleset, score};

fn games(n: u64) -> Vec<Vec<(Color, Move)>> {
    (0..n).map(|seed| random_game(19, Ruleset::chinese(), seed, 1000).0).collect()
}

fn replay(c: &mut Criterion) {
    let games = games(20);
    let total: usize = games.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group("replay-19x19");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("weiqi-rules", |b| {
        b.iter(|| {
            for moves in &games {
                let mut g = Game::new(19, Ruleset::chinese()).unwrap();
                for &(color, mv) in moves {
                    black_box(g.play(color, mv).unwrap());
                }
            }
        })
    });
    group.bench_function("goban", |b| {
        b.iter(|| {
            for moves in &games {
                let mut g = goban::rules::game::Game::new(goban::rules::GobanSizes::Nineteen, goban::rules::CHINESE);
                for &(_, mv) in moves {
                    let m = match mv {
                        Move::Pass => goban::rules::Move::Pass,
                        Move::Play(p) => goban::rules::Move::Play(p.y, p.x),
                    };
                    black_box(g.try_play(m).is_ok());
                }
            }
        })
    });
    group.finish();
}

fn legal_points(c: &mut Criterion) {
    let (moves, _) = random_game(19, Ruleset::chinese(), 7, 1000);
    let mut g = Game::new(19, Ruleset::chinese()).unwrap();
    for &(color, mv) in &moves[..150] {
        g.play(color, mv).unwrap();
    }
    c.bench_function("legal-points-19x19-middle-game", |b| b.iter(|| black_box(g.legal_points(g.to_move()))));
}

fn scoring(c: &mut Criterion) {
    let (_, g) = random_game(19, Ruleset::chinese(), 11, 1000);
    c.bench_function("score-19x19-final", |b| b.iter(|| black_box(score(&g, &[], [0, 0]).unwrap())));
    let (_, j) = random_game(19, Ruleset::japanese(), 11, 1000);
    c.bench_function("score-19x19-final-territory", |b| b.iter(|| black_box(score(&j, &[], [0, 0]).unwrap())));
    c.bench_function("new-game-19x19", |b| {
        b.iter_batched(|| (), |_| black_box(Game::new(19, Ruleset::chinese()).unwrap()), BatchSize::SmallInput)
    });
}

criterion_group!(benches, replay, legal_points, scoring);
criterion_main!(benches);
