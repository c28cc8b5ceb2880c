//! Builds the agreement fixture `tests/data/positions.txt` from the SGF corpus and GNU Go.
//!
//! ```text
//! WEIQI_CORPUS=/work/shared/corpus cargo run --release -p weiqi-estimate --example make_fixture -- \
//!     [--gnugo /usr/games/gnugo] [--jobs 2] [--all OUT_ALL] [--every K] [--out shared/estimate/tests/data/positions.txt]
//! ```
//!
//! Takes every game record of the corpus whose `RE[]` is a counted win (`B+3.5`, `W+0.5`: not
//! resignation, time, forfeit or a draw), on a board GNU Go plays (up to 19×19), that replays under
//! its own rules; drops repeated positions. For each final position it asks GNU Go 3.8 at level 10
//! (`gnugo --mode gtp --level 10`) for `final_status_list dead`, after `loadsgf` of a record holding
//! just that position (setup stones, the side to move, komi), so both programs judge exactly the
//! same board. Every position goes to `--all` (when given); every `--every`-th one (default 3) to
//! `--out`, the committed fixture, so the positions not committed can be used to tune the estimator
//! and the committed ones stay a held-out test.
//!
//! With `--no-gnugo`, every position goes to `--out` with an empty GNU Go list (to measure the
//! estimator alone).
//!
//! Line format, tab-separated: name, size, to move (`B`/`W`), rules preset, komi, handicap,
//! prisoners taken by Black and by White, `RE[]`, GNU Go's dead stones (GTP vertices separated by
//! spaces, `-` for none), and the board (rows top first, joined by `/`, of `X`, `O`, `.`).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

use weiqi_rules::{Color, Game, Point};
use weiqi_sgf::{Record, RecordedResult};

struct Position {
    name: String,
    game: Game,
    rules: &'static str,
    result: String,
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("corpus directory").map(|e| e.expect("directory entry").path()).collect();
    entries.sort();
    for e in entries {
        if e.is_dir() {
            collect(&e, out);
        } else if e.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")) {
            out.push(e);
        }
    }
}

fn positions(corpus: &Path) -> Vec<Position> {
    let mut files = Vec::new();
    collect(corpus, &mut files);
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else { continue };
        let Ok(collection) = weiqi_sgf::parse(&bytes) else { continue };
        for (k, tree) in collection.games.iter().enumerate() {
            let Ok(record) = Record::from_tree(tree) else { continue };
            let Some(RecordedResult::Score(_, margin)) = record.recorded_result() else { continue };
            if margin.0 <= 0 || record.size > 19 {
                continue;
            }
            let ruleset = record.ruleset();
            let Some(rules) = ruleset.preset_name() else { continue };
            let Ok(game) = record.replay(ruleset) else { continue };
            let board = game.board();
            if board.stone_count(Color::Black) + board.stone_count(Color::White) == 0 {
                continue;
            }
            let result = record.result.clone().expect("a counted result");
            if !seen.insert((board.hash(), game.to_move(), result.clone())) {
                continue;
            }
            let rel = f.strip_prefix(corpus).unwrap_or(f).display().to_string();
            out.push(Position { name: format!("{rel}#{k}"), game, rules, result });
        }
    }
    out
}

/// A record with just the position: setup stones, the side to move and komi.
fn position_sgf(game: &Game) -> String {
    let board = game.board();
    let mut s = format!("(;GM[1]FF[4]SZ[{}]KM[{}]", board.size(), game.ruleset().komi.points());
    for (prop, color) in [("AB", Color::Black), ("AW", Color::White)] {
        let points: Vec<Point> = board.points().filter(|&p| board.get(p) == Some(color)).collect();
        if !points.is_empty() {
            s.push_str(prop);
            for p in points {
                s.push_str(&format!("[{}]", p.to_sgf()));
            }
        }
    }
    s.push_str(&format!("PL[{}])\n", game.to_move().letter()));
    s
}

struct GnuGo {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl GnuGo {
    fn start(program: &str) -> GnuGo {
        let mut child = Command::new(program)
            .args(["--mode", "gtp", "--level", "10"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        GnuGo { child, input, output }
    }

    /// Sends one command; the answer without its `= ` and final empty line.
    fn ask(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.input, "{command}").expect("gnugo reads");
        self.input.flush().expect("gnugo reads");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            assert!(self.output.read_line(&mut line).expect("gnugo writes") > 0, "gnugo stopped");
            if line.trim().is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        match answer.strip_prefix('=') {
            Some(rest) => Ok(rest.trim().to_string()),
            None => Err(answer.trim().to_string()),
        }
    }

    fn dead(&mut self, game: &Game, scratch: &Path) -> Result<Vec<String>, String> {
        std::fs::write(scratch, position_sgf(game)).expect("scratch file");
        self.ask(&format!("loadsgf {}", scratch.display()))?;
        let answer = self.ask("final_status_list dead")?;
        let mut dead: Vec<String> = answer.split_whitespace().map(str::to_string).collect();
        dead.sort_by_key(|v| Point::from_gtp(v, game.size()));
        Ok(dead)
    }
}

impl Drop for GnuGo {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

fn line(p: &Position, gnugo_dead: &[String]) -> String {
    let game = &p.game;
    let board = game.board();
    let n = board.size();
    let rows: Vec<String> = (0..n)
        .map(|y| {
            (0..n)
                .map(|x| match board.get(Point::new(x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect()
        })
        .collect();
    let dead = if gnugo_dead.is_empty() { "-".to_string() } else { gnugo_dead.join(" ") };
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        p.name.replace('\t', " "),
        n,
        game.to_move().letter(),
        p.rules,
        game.ruleset().komi.points(),
        game.handicap(),
        game.prisoners(Color::Black),
        game.prisoners(Color::White),
        p.result,
        dead,
        rows.join("/")
    )
}

const HEADER: &str =
    "# name\tsize\tto_move\trules\tkomi\thandicap\tprisoners_black\tprisoners_white\tresult\tgnugo_dead\tboard\n";

fn main() {
    let mut args = std::env::args().skip(1);
    let mut gnugo = "gnugo".to_string();
    let mut out = PathBuf::from("shared/estimate/tests/data/positions.txt");
    let mut all: Option<PathBuf> = None;
    let mut every = 3usize;
    let mut jobs = 1usize;
    let mut ask_gnugo = true;
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--gnugo" => gnugo = value(),
            "--out" => out = PathBuf::from(value()),
            "--all" => all = Some(PathBuf::from(value())),
            "--every" => every = value().parse().expect("--every N"),
            "--jobs" => jobs = value().parse().expect("--jobs N"),
            "--no-gnugo" => ask_gnugo = false,
            other => panic!("unknown argument {other}"),
        }
    }
    let corpus = PathBuf::from(std::env::var("WEIQI_CORPUS").expect("set WEIQI_CORPUS to the SGF corpus"));
    let positions = positions(&corpus);
    eprintln!("{} counted positions", positions.len());

    if !ask_gnugo {
        // Only the positions, for measuring the estimator alone: GNU Go's list is left empty.
        let lines: Vec<String> = positions.iter().map(|p| line(p, &[])).collect();
        std::fs::write(&out, format!("{HEADER}{}\n", lines.join("\n"))).expect("write --out");
        return;
    }
    let next = Mutex::new(0usize);
    let answers: Mutex<Vec<Option<Vec<String>>>> = Mutex::new(vec![None; positions.len()]);
    std::thread::scope(|s| {
        for job in 0..jobs.max(1) {
            let (next, answers, positions, gnugo) = (&next, &answers, &positions, &gnugo);
            s.spawn(move || {
                let mut engine = GnuGo::start(gnugo);
                let scratch =
                    std::env::temp_dir().join(format!("weiqi-estimate-fixture-{}-{job}.sgf", std::process::id()));
                loop {
                    let i = {
                        let mut n = next.lock().expect("not poisoned");
                        let i = *n;
                        *n += 1;
                        i
                    };
                    if i >= positions.len() {
                        break;
                    }
                    match engine.dead(&positions[i].game, &scratch) {
                        Ok(dead) => answers.lock().expect("not poisoned")[i] = Some(dead),
                        Err(e) => eprintln!("{}: gnugo refused: {e}", positions[i].name),
                    }
                    if i % 50 == 0 {
                        eprintln!("{i}/{}", positions.len());
                    }
                }
                let _ = std::fs::remove_file(&scratch);
            });
        }
    });
    let answers = answers.into_inner().expect("not poisoned");
    let lines: Vec<String> =
        positions.iter().zip(&answers).filter_map(|(p, a)| a.as_ref().map(|dead| line(p, dead))).collect();

    if let Some(all) = all {
        std::fs::write(&all, format!("{HEADER}{}\n", lines.join("\n"))).expect("write --all");
    }
    let chosen: Vec<&String> = lines.iter().step_by(every.max(1)).collect();
    let text: String = chosen.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&out, format!("{HEADER}{text}")).expect("write --out");
    eprintln!("{} positions, {} in {}", lines.len(), chosen.len(), out.display());
}
