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
//! With `--marked OUT`, only the positions whose record's last node carries the players' territory
//! marks (`TB`, `TW`: the count they agreed) are written, all of them, to `OUT` instead of `--out`
//! (the committed `tests/data/marked.txt`), with a twelfth field: the stones the players agreed were dead (the
//! White stones on Black's marks and the Black stones on White's; `-` for none). Those are exactly
//! "the removals the players agreed", which the estimator and GNU Go are then compared with.
//!
//! Line format, tab-separated: name, size, to move (`B`/`W`), rules preset, komi, handicap,
//! prisoners taken by Black and by White, `RE[]`, GNU Go's dead stones (GTP vertices separated by
//! spaces, `-` for none), and the board (rows top first, joined by `/`, of `X`, `O`, `.`); in
//! `--marked` files, the players' dead stones after it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

use weiqi_rules::{Color, Game, Point};
use weiqi_sgf::{GameTree, Record, RecordedResult};

struct Position {
    name: String,
    game: Game,
    rules: &'static str,
    result: String,
    /// The stones the players marked dead (territory marks on the last node), if they marked.
    agreed: Option<Vec<Point>>,
}

/// The points of an SGF point list value: one point (`pd`) or a rectangle (`aa:cc`).
fn point_list(value: &str) -> Vec<Point> {
    let (a, b) = value.split_once(':').unwrap_or((value, value));
    let (Some(a), Some(b)) = (Point::from_sgf(a.as_bytes()), Point::from_sgf(b.as_bytes())) else { return Vec::new() };
    let mut out = Vec::new();
    for y in a.y.min(b.y)..=a.y.max(b.y) {
        for x in a.x.min(b.x)..=a.x.max(b.x) {
            out.push(Point::new(x, y));
        }
    }
    out
}

/// The stones the players agreed were dead: those on the other color's territory marks of the main
/// line's last node. `None` when that node has no marks.
fn agreed_dead(tree: &GameTree, game: &Game) -> Option<Vec<Point>> {
    let last = tree.main_line().last()?;
    if last.get("TB").is_none() && last.get("TW").is_none() {
        return None;
    }
    let mut dead = Vec::new();
    for (ident, owner) in [("TB", Color::Black), ("TW", Color::White)] {
        for value in last.get(ident).map(|p| p.values.as_slice()).unwrap_or_default() {
            for p in point_list(value) {
                if game.board().get(p) == Some(owner.opponent()) {
                    dead.push(p);
                }
            }
        }
    }
    dead.sort();
    dead.dedup();
    Some(dead)
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
            let agreed = agreed_dead(tree, &game);
            out.push(Position { name: format!("{rel}#{k}"), game, rules, result, agreed });
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
    let agreed = match &p.agreed {
        Some(a) if a.is_empty() => "\t-".to_string(),
        Some(a) => format!("\t{}", a.iter().map(|p| p.to_gtp(n)).collect::<Vec<_>>().join(" ")),
        None => String::new(),
    };
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}{}",
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
        rows.join("/"),
        agreed
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
    let mut marked: Option<PathBuf> = None;
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--gnugo" => gnugo = value(),
            "--out" => out = PathBuf::from(value()),
            "--all" => all = Some(PathBuf::from(value())),
            "--every" => every = value().parse().expect("--every N"),
            "--jobs" => jobs = value().parse().expect("--jobs N"),
            "--no-gnugo" => ask_gnugo = false,
            "--marked" => marked = Some(PathBuf::from(value())),
            other => panic!("unknown argument {other}"),
        }
    }
    let header = if marked.is_some() { HEADER.replace("board\n", "board\tagreed_dead\n") } else { HEADER.to_string() };
    let corpus = PathBuf::from(std::env::var("WEIQI_CORPUS").expect("set WEIQI_CORPUS to the SGF corpus"));
    let mut positions = positions(&corpus);
    eprintln!("{} counted positions", positions.len());
    if let Some(marked) = &marked {
        // Only the positions the players marked, all of them, with their marks.
        positions.retain(|p| p.agreed.is_some());
        eprintln!("{} of them marked by the players", positions.len());
        out = marked.clone();
        every = 1;
    } else {
        for p in &mut positions {
            p.agreed = None;
        }
    }

    if !ask_gnugo {
        // Only the positions, for measuring the estimator alone: GNU Go's list is left empty.
        let lines: Vec<String> = positions.iter().map(|p| line(p, &[])).collect();
        std::fs::write(&out, format!("{header}{}\n", lines.join("\n"))).expect("write --out");
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
        std::fs::write(&all, format!("{header}{}\n", lines.join("\n"))).expect("write --all");
    }
    let chosen: Vec<&String> = lines.iter().step_by(every.max(1)).collect();
    let text: String = chosen.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&out, format!("{header}{text}")).expect("write --out");
    eprintln!("{} positions, {} in {}", lines.len(), chosen.len(), out.display());
}
