//! Agreement on real final positions: the committed fixture (`tests/data/positions.txt`, see
//! `examples/make_fixture.rs`) holds final positions of corpus games with counted results, and GNU
//! Go 3.8's dead stones for each (level 10). A position is *exactly right* when counting it with the
//! estimated dead stones removed gives exactly the recorded `RE[]`.
//!
//! The second fixture (`tests/data/marked.txt`) holds the final positions whose records carry the
//! players' territory marks, so the dead stones the players agreed are known: there a position is
//! right when the estimated dead stones are exactly those.
//!
//! The figures are printed; the tests fail if the estimator gets fewer positions right than it did
//! when the fixtures were made, so any change to the method that loses quality shows here.

mod support;

use std::path::Path;

use support::fixture::{self, Entry};
use weiqi_estimate::estimate;
use weiqi_rules::Point;

/// Positions the estimator got exactly right when this was last measured (see the crate docs).
const MEASURED_EXACT: usize = 292;

/// Positions of `marked.txt` where the estimator's dead stones were exactly the players' when this
/// was last measured (GNU Go's: 128 of 136).
const MEASURED_AS_MARKED: usize = 129;

#[derive(Default)]
struct Tally {
    ours: usize,
    gnugo: usize,
    same_as_gnugo: usize,
    ours_as_marked: usize,
    gnugo_as_marked: usize,
}

fn judge(entries: &[Entry]) -> Tally {
    let mut t = Tally::default();
    for e in entries {
        let mut dead = estimate(e.game.board(), e.to_move, &e.ruleset).dead_stones();
        t.ours += usize::from(e.counts_as_recorded(&dead));
        t.gnugo += usize::from(e.counts_as_recorded(&e.gnugo_dead));
        t.ours_as_marked += usize::from(e.as_agreed(&dead));
        t.gnugo_as_marked += usize::from(e.as_agreed(&e.gnugo_dead));
        let mut theirs: Vec<Point> = e.gnugo_dead.clone();
        dead.sort();
        theirs.sort();
        t.same_as_gnugo += usize::from(dead == theirs);
    }
    t
}

/// Judges every position of a fixture on all cores.
fn judge_all(file: &str) -> (usize, Tally) {
    let entries = fixture::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(file));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    let chunk = entries.len().div_ceil(threads);
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = entries.chunks(chunk).map(|part| s.spawn(move || judge(part))).collect();
        handles.into_iter().map(|h| h.join().expect("a judging thread")).collect()
    });
    let sum = tallies.into_iter().fold(Tally::default(), |a, t| Tally {
        ours: a.ours + t.ours,
        gnugo: a.gnugo + t.gnugo,
        same_as_gnugo: a.same_as_gnugo + t.same_as_gnugo,
        ours_as_marked: a.ours_as_marked + t.ours_as_marked,
        gnugo_as_marked: a.gnugo_as_marked + t.gnugo_as_marked,
    });
    (entries.len(), sum)
}

#[test]
fn the_estimator_gets_as_many_counts_right_as_when_measured() {
    let (n, t) = judge_all("positions.txt");
    assert!(n >= 300, "the fixture holds a few hundred positions");
    println!(
        "{n} positions: estimator exactly right {}, GNU Go exactly right {}, same dead set as GNU Go {}",
        t.ours, t.gnugo, t.same_as_gnugo
    );
    assert!(t.ours >= MEASURED_EXACT, "exactly right: {}, measured {MEASURED_EXACT}", t.ours);
}

#[test]
fn the_estimator_removes_what_the_players_agreed_as_often_as_when_measured() {
    let (n, t) = judge_all("marked.txt");
    assert!(n >= 100, "the fixture holds every marked record of the corpus");
    println!(
        "{n} positions the players marked: estimator as marked {}, GNU Go as marked {}",
        t.ours_as_marked, t.gnugo_as_marked
    );
    assert!(t.gnugo_as_marked > n / 2, "the marks are the players' dead stones: GNU Go finds most of them");
    assert!(t.ours_as_marked >= MEASURED_AS_MARKED, "as marked: {}, measured {MEASURED_AS_MARKED}", t.ours_as_marked);
}
