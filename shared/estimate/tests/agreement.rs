//! Agreement on real final positions: the committed fixture (`tests/data/positions.txt`, see
//! `examples/make_fixture.rs`) holds final positions of corpus games with counted results, and GNU
//! Go 3.8's dead stones for each (level 10). A position is *exactly right* when counting it with the
//! estimated dead stones removed gives exactly the recorded `RE[]`.
//!
//! The figures are printed; the test fails if the estimator gets fewer positions exactly right than
//! it did when the fixture was made, so any change to the method that loses quality shows here.

mod support;

use std::path::Path;

use support::fixture::{self, Entry};
use weiqi_estimate::estimate;
use weiqi_rules::Point;

/// Positions the estimator got exactly right when this was last measured (see the crate docs).
const MEASURED_EXACT: usize = 289;

struct Tally {
    ours: usize,
    gnugo: usize,
    same_as_gnugo: usize,
}

fn judge(entries: &[Entry]) -> Tally {
    let mut t = Tally { ours: 0, gnugo: 0, same_as_gnugo: 0 };
    for e in entries {
        let mut dead = estimate(e.game.board(), e.to_move, &e.ruleset).dead_stones();
        t.ours += usize::from(e.counts_as_recorded(&dead));
        t.gnugo += usize::from(e.counts_as_recorded(&e.gnugo_dead));
        let mut theirs: Vec<Point> = e.gnugo_dead.clone();
        dead.sort();
        theirs.sort();
        t.same_as_gnugo += usize::from(dead == theirs);
    }
    t
}

#[test]
fn the_estimator_gets_as_many_counts_right_as_when_measured() {
    let entries = fixture::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/positions.txt"));
    assert!(entries.len() >= 300, "the fixture holds a few hundred positions");
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    let chunk = entries.len().div_ceil(threads);
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = entries.chunks(chunk).map(|part| s.spawn(move || judge(part))).collect();
        handles.into_iter().map(|h| h.join().expect("a judging thread")).collect()
    });
    let sum = |f: fn(&Tally) -> usize| tallies.iter().map(f).sum::<usize>();
    let (n, ours, gnugo, same) = (entries.len(), sum(|t| t.ours), sum(|t| t.gnugo), sum(|t| t.same_as_gnugo));
    println!(
        "{n} positions: estimator exactly right {ours}, GNU Go exactly right {gnugo}, same dead set as GNU Go {same}"
    );
    assert!(ours >= MEASURED_EXACT, "exactly right: {ours}, measured {MEASURED_EXACT}");
}
