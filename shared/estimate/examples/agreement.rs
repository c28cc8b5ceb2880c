//! Measures the estimator on a fixture: how often its dead stones give exactly the recorded result,
//! how often GNU Go's do, how often the two dead sets are equal, and the time per position.
//!
//! ```text
//! cargo run --release -p weiqi-estimate --example agreement -- [FIXTURE] [--exclude FIXTURE] [--playouts N] [--verbose]
//! ```
//!
//! `--exclude` leaves out the positions of another fixture (to measure on the positions the committed
//! fixture does not hold); `--verbose` prints every position where the estimator misses the result.

#[path = "../tests/support/fixture.rs"]
mod fixture;

use std::path::PathBuf;
use std::time::Instant;

use weiqi_estimate::{EstimateConfig, estimate_with};
use weiqi_rules::Point;

fn sorted(mut v: Vec<Point>) -> Vec<Point> {
    v.sort();
    v
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut path = PathBuf::from("shared/estimate/tests/data/positions.txt");
    let mut exclude: Option<PathBuf> = None;
    let mut config = EstimateConfig::default();
    let mut verbose = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--exclude" => exclude = Some(PathBuf::from(args.next().expect("--exclude FILE"))),
            "--playouts" => config.playouts = args.next().expect("--playouts N").parse().expect("a number"),
            "--verbose" => verbose = true,
            _ => path = PathBuf::from(a),
        }
    }
    let excluded: std::collections::HashSet<String> =
        exclude.map(|p| fixture::read(&p).into_iter().map(|e| e.name).collect()).unwrap_or_default();
    let entries: Vec<_> = fixture::read(&path).into_iter().filter(|e| !excluded.contains(&e.name)).collect();
    let (mut ours, mut gnugo, mut same, mut either) = (0, 0, 0, 0);
    let mut times = Vec::new();
    for e in &entries {
        let start = Instant::now();
        let est = estimate_with(e.game.board(), e.to_move, &e.ruleset, &config);
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        let dead = est.dead_stones();
        let ok = e.counts_as_recorded(&dead);
        let gnugo_ok = e.counts_as_recorded(&e.gnugo_dead);
        let agree = sorted(dead.clone()) == sorted(e.gnugo_dead.clone());
        ours += usize::from(ok);
        gnugo += usize::from(gnugo_ok);
        same += usize::from(agree);
        either += usize::from(ok || gnugo_ok);
        if verbose && !ok {
            let size = e.game.size();
            let v = |ps: &[Point]| ps.iter().map(|p| p.to_gtp(size)).collect::<Vec<_>>().join(" ");
            let ours_only: Vec<Point> = dead.iter().copied().filter(|p| !e.gnugo_dead.contains(p)).collect();
            let gnugo_only: Vec<Point> = e.gnugo_dead.iter().copied().filter(|p| !dead.contains(p)).collect();
            println!(
                "MISS {}\n  gnugo {}; ours-only dead: [{}]; gnugo-only dead: [{}]",
                e.name,
                if gnugo_ok { "right" } else { "wrong" },
                v(&ours_only),
                v(&gnugo_only)
            );
        }
    }
    times.sort_by(f64::total_cmp);
    let n = entries.len();
    let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    println!("{n} positions ({} playouts)", config.playouts);
    println!("estimator exactly right: {ours} ({:.1}%)", pct(ours));
    println!("GNU Go exactly right:    {gnugo} ({:.1}%)", pct(gnugo));
    println!("either right:            {either} ({:.1}%)", pct(either));
    println!("same dead set as GNU Go: {same} ({:.1}%)", pct(same));
    if n > 0 {
        let at = |q: f64| times[((n - 1) as f64 * q).round() as usize];
        println!("ms per position: median {:.1}, p99 {:.1}, max {:.1}", at(0.5), at(0.99), times[n - 1]);
    }
}
