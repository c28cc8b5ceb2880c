//! Criterion benchmarks: one Swiss/McMahon round paired by windows and exactly, and standings.
//! `cargo bench -p weiqi-pairing` (the CLI's `weiqi bench pairing` reports the full simulation).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, McMahonBars, TournamentConfig};
use weiqi_pairing::rank::Rank;
use weiqi_pairing::rounds::next_round_candidates;
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::simulate::synthetic_field;
use weiqi_pairing::standings::standings;
use weiqi_pairing::swiss::{PairingParams, pair_round};

/// A McMahon field of `n` players after `rounds` simulated rounds.
fn field(n: usize, rounds: u32) -> Simulation {
    let bars = McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(20) };
    let mut s = Simulation::new(TournamentConfig::new("bench", Format::McMahon { rounds: 7, bars }, 7), 7).unwrap();
    s.register_all(&synthetic_field(n, 7)).unwrap();
    s.run(Command::Start).unwrap();
    s.play_to_end(rounds).unwrap();
    s
}

fn pairing(c: &mut Criterion) {
    let s = field(1000, 3);
    let cands = next_round_candidates(&s.state);
    let policy = s.state.config.as_ref().unwrap().pairing;
    let none = Default::default();
    let mut g = c.benchmark_group("pair_round_1000_after_3");
    g.sample_size(10);
    g.bench_function("windows", |b| {
        b.iter(|| pair_round(black_box(&cands), &none, &policy, &PairingParams::default()).unwrap())
    });
    g.bench_function("exact_dense", |b| {
        b.iter(|| pair_round(black_box(&cands), &none, &policy, &PairingParams::exact(cands.len())).unwrap())
    });
    g.finish();
}

fn standings_bench(c: &mut Criterion) {
    let s = field(2000, 5);
    let mut g = c.benchmark_group("standings");
    g.sample_size(20);
    g.bench_function("2000_players_5_rounds", |b| b.iter(|| standings(black_box(&s.state))));
    g.finish();
}

criterion_group!(benches, pairing, standings_bench);
criterion_main!(benches);
