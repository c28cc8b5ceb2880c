//! Measures the estimator on a fixture: how often its dead stones give exactly the recorded result,
//! how often GNU Go's do, how often the two dead sets are equal, and the time per position. On a
//! fixture with the players' marks (`tests/data/marked.txt`), also how often each program's dead
//! stones are exactly the players' (`--verbose` names the positions where only one of them is).
//!
//! ```text
//! cargo run --release -p weiqi-estimate --example agreement -- [FIXTURE] [--exclude FIXTURE] [--playouts N]
//!     [--verbose] [--diagnose] [--show N] [--only NAME]... [--differ] [--right FILE] [--cpu]
//! ```
//!
//! `--exclude` leaves out the positions of another fixture (to measure on the positions the committed
//! fixture does not hold); `--verbose` prints every position where the estimator misses the result;
//! `--diagnose` says which misses one chain's status would fix; `--show N` draws the first N missed
//! boards with the estimator's marks (`x`/`o` dead Black/White, `b`/`w` Black/White in seki, `*`
//! dead for GNU Go) and ownership;
//! `--only NAME` keeps the positions whose name contains NAME and draws them all; `--right FILE`
//! writes the names of the positions the estimator gets exactly right; `--cpu` times each estimate by
//! the CPU time of its thread (Linux) instead of the wall clock, for a machine busy with other work.

#[path = "../tests/support/fixture.rs"]
mod fixture;

use std::path::PathBuf;
use std::time::Instant;

use weiqi_estimate::{EstimateConfig, estimate_with};
use weiqi_rules::Point;

/// The CPU time this thread has run, in nanoseconds (Linux: the first field of
/// `/proc/thread-self/schedstat`), to time estimates on a busy machine.
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}

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
    let mut cpu = false;
    let mut show = 0usize;
    let mut diagnose = false;
    let mut right_out: Option<PathBuf> = None;
    let mut right_names = String::new();
    let mut fixable = 0usize;
    let mut only: Vec<String> = Vec::new();
    let mut differ = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--exclude" => exclude = Some(PathBuf::from(args.next().expect("--exclude FILE"))),
            "--playouts" => {
                config.playouts = args.next().expect("--playouts N").parse().expect("a number");
                config.moves = u64::from(config.playouts) * 150;
            }
            "--patterns" => config.patterns = args.next().expect("--patterns N").parse().expect("a number"),
            "--verbose" => verbose = true,
            "--cpu" => cpu = true,
            "--diagnose" => diagnose = true,
            "--right" => right_out = Some(PathBuf::from(args.next().expect("--right FILE"))),
            "--show" => show = args.next().expect("--show N").parse().expect("a number"),
            "--only" => only.push(args.next().expect("--only NAME")),
            "--differ" => differ = true,
            _ => path = PathBuf::from(a),
        }
    }
    let excluded: std::collections::HashSet<String> =
        exclude.map(|p| fixture::read(&p).into_iter().map(|e| e.name).collect()).unwrap_or_default();
    let entries: Vec<_> = fixture::read(&path)
        .into_iter()
        .filter(|e| !excluded.contains(&e.name))
        .filter(|e| only.is_empty() || only.iter().any(|o| e.name.contains(o.as_str())))
        .collect();
    if !only.is_empty() {
        show = entries.len();
    }
    let (mut ours, mut gnugo, mut same, mut either) = (0, 0, 0, 0);
    // Against the players' marks (`marked.txt`): positions marked, estimator, GNU Go, both.
    let mut marks = [0usize; 4];
    let mut times = Vec::new();
    let mut checksum = 0u64;
    let mut times19: Vec<(f64, String)> = Vec::new();
    for e in &entries {
        let start = Instant::now();
        let cpu_start = if cpu { thread_cpu_ns() } else { None };
        let est = estimate_with(e.game.board(), e.to_move, &e.ruleset, &config);
        let ms = match (cpu_start, thread_cpu_ns()) {
            (Some(a), Some(b)) if cpu => (b - a) as f64 / 1e6,
            _ => start.elapsed().as_secs_f64() * 1000.0,
        };
        times.push(ms);
        if e.game.size() == 19 {
            times19.push((ms, e.name.clone()));
        }
        let dead = est.dead_stones();
        checksum = dead.iter().fold(checksum.rotate_left(5), |h, p| {
            h.wrapping_mul(31).wrapping_add(u64::from(p.x) * 32 + u64::from(p.y))
        });
        let ok = e.counts_as_recorded(&dead);
        let gnugo_ok = e.counts_as_recorded(&e.gnugo_dead);
        let agree = sorted(dead.clone()) == sorted(e.gnugo_dead.clone());
        if e.agreed_dead.is_some() {
            let (a, b) = (e.as_agreed(&dead), e.as_agreed(&e.gnugo_dead));
            marks[0] += 1;
            marks[1] += usize::from(a);
            marks[2] += usize::from(b);
            marks[3] += usize::from(a && b);
            if verbose && !(a && b) {
                let agreed = e.agreed_dead.clone().unwrap_or_default();
                let diff = |mine: &[Point]| {
                    let mine = sorted(mine.to_vec());
                    let extra: Vec<String> =
                        mine.iter().filter(|p| !agreed.contains(p)).map(|p| p.to_gtp(e.game.size())).collect();
                    let missing: Vec<String> =
                        agreed.iter().filter(|p| !mine.contains(p)).map(|p| p.to_gtp(e.game.size())).collect();
                    format!("dead beyond the marks [{}], marked but kept [{}]", extra.join(" "), missing.join(" "))
                };
                println!(
                    "MARKS {}: estimator {}, GNU Go {}",
                    e.name,
                    if a { "as marked".to_string() } else { diff(&dead) },
                    if b { "as marked".to_string() } else { diff(&e.gnugo_dead) }
                );
            }
        }
        ours += usize::from(ok);
        if ok {
            right_names.push_str(&e.name);
            right_names.push('\n');
        }
        gnugo += usize::from(gnugo_ok);
        same += usize::from(agree);
        either += usize::from(ok || gnugo_ok);
        if diagnose && !ok {
            // Would changing the status of one chain give the recorded result?
            let board = e.game.board();
            let mut seen = std::collections::HashSet::new();
            for p in board.points().filter(|&p| board.get(p).is_some()) {
                let chain = board.chain(p);
                if !seen.insert(chain[0]) {
                    continue;
                }
                let is_dead = dead.contains(&p);
                let toggled: Vec<Point> = if is_dead {
                    dead.iter().copied().filter(|q| !chain.contains(q)).collect()
                } else {
                    dead.iter().copied().chain(chain.iter().copied()).collect()
                };
                if e.counts_as_recorded(&toggled) {
                    let own: f32 = chain.iter().map(|&q| est.ownership(q)).sum::<f32>() / chain.len() as f32;
                    println!(
                        "FIX {} by {} {} ({} stones, ownership {:.2}, to move {})",
                        e.name,
                        if is_dead { "reviving" } else { "killing" },
                        p.to_gtp(board.size()),
                        chain.len(),
                        own,
                        e.to_move
                    );
                    fixable += 1;
                    break;
                }
            }
        }
        if (show > 0 && (!ok || !only.is_empty())) || (differ && !agree) {
            show = show.saturating_sub(1);
            let score = |dead: &[Point]| {
                weiqi_rules::score_position(e.game.board(), &e.ruleset, e.prisoners, e.handicap, dead, [0, 0])
                    .expect("dead stones are stones")
            };
            let (count, theirs) = (score(&dead), score(&e.gnugo_dead));
            println!(
                "{} ({:?}, to move {}): ours {}, GNU Go {}, recorded {:?}; right: ours {ok}, GNU Go {gnugo_ok}",
                e.name,
                e.ruleset.family,
                e.to_move,
                count.result.to_sgf(),
                theirs.result.to_sgf(),
                e.result
            );
            let board = e.game.board();
            let letters: String =
                "ABCDEFGHJKLMNOPQRST".chars().take(board.size() as usize).map(|c| format!("{c} ")).collect();
            println!("    {letters}");
            for y in 0..board.size() {
                let row: String = (0..board.size())
                    .map(|x| {
                        let p = Point::new(x, y);
                        let c = match (board.get(p), est.status(p)) {
                            (Some(weiqi_rules::Color::Black), Some(weiqi_estimate::Status::Dead)) => 'x',
                            (Some(weiqi_rules::Color::White), Some(weiqi_estimate::Status::Dead)) => 'o',
                            (Some(weiqi_rules::Color::Black), Some(weiqi_estimate::Status::Seki)) => 'b',
                            (Some(weiqi_rules::Color::White), Some(weiqi_estimate::Status::Seki)) => 'w',
                            (Some(weiqi_rules::Color::Black), _) => 'X',
                            (Some(weiqi_rules::Color::White), _) => 'O',
                            (None, _) => match est.owner(p) {
                                Some(weiqi_rules::Color::Black) => '+',
                                Some(weiqi_rules::Color::White) => '-',
                                None => '.',
                            },
                        };
                        let g = if e.gnugo_dead.contains(&p) { '*' } else { ' ' };
                        format!("{c}{g}")
                    })
                    .collect();
                let own: String = (0..board.size())
                    .map(|x| format!("{:>3}", (est.ownership(Point::new(x, y)) * 9.0).round() as i32))
                    .collect();
                println!("{:>2}  {row}  {own}", board.size() - y);
            }
            // Why the estimator differs from GNU Go, chain by chain.
            let mut seen = std::collections::HashSet::new();
            for p in board.points().filter(|&p| board.get(p).is_some()) {
                let chain = board.chain(p);
                if dead.contains(&p) == e.gnugo_dead.contains(&p) || !seen.insert(chain[0]) {
                    continue;
                }
                println!(
                    "    {} ({} stones): {} by {:?}",
                    p.to_gtp(board.size()),
                    chain.len(),
                    if dead.contains(&p) { "dead" } else { "alive" },
                    est.why(p)
                );
            }
        }
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
    if let Some(path) = right_out {
        std::fs::write(path, &right_names).expect("write --right");
    }
    times.sort_by(f64::total_cmp);
    let n = entries.len();
    let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    println!("{n} positions ({} playouts), dead-set checksum {checksum:x}", config.playouts);
    println!("estimator exactly right: {ours} ({:.1}%)", pct(ours));
    println!("GNU Go exactly right:    {gnugo} ({:.1}%)", pct(gnugo));
    println!("either right:            {either} ({:.1}%)", pct(either));
    println!("same dead set as GNU Go: {same} ({:.1}%)", pct(same));
    if marks[0] > 0 {
        let [n, a, b, both] = marks;
        println!("as the players marked ({n} positions): estimator {a}, GNU Go {b}, both {both}");
    }
    if diagnose {
        println!("misses one chain's status away from the result: {fixable}");
    }
    if n > 0 {
        let at = |q: f64| times[((n - 1) as f64 * q).round() as usize];
        println!("ms per position: median {:.1}, p99 {:.1}, max {:.1}", at(0.5), at(0.99), times[n - 1]);
    }
    times19.sort_by(|a, b| a.0.total_cmp(&b.0));
    let m = times19.len();
    if m > 0 {
        let at = |q: f64| times19[((m - 1) as f64 * q).round() as usize].0;
        println!(
            "ms per 19×19 position ({m}): median {:.1}, p99 {:.1}, max {:.1}",
            at(0.5),
            at(0.99),
            times19[m - 1].0
        );
        if verbose {
            for (ms, name) in times19.iter().rev().take(5) {
                println!("  slow: {ms:.1} ms {name}");
            }
        }
    }
}
