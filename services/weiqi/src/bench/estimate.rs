//! `weiqi bench estimate`: the dead-stone estimator on real end-of-game positions, against GNU Go.
//!
//! Positions: the final positions of corpus records (`--corpus`, default `$WEIQI_CORPUS`) whose
//! `RE[]` is a count (`B+3.5`), on `--size` boards, the first `--positions` of them in path order.
//! For each, the estimator is timed (one core, one position at a time) and GNU Go 3.8
//! (`gnugo --mode gtp --level 10`, `loadsgf` then `final_status_list dead`) is asked and timed on
//! the same position in the same run. Reported:
//!
//! * `exact_vs_gnugo`: positions where the estimated dead stones are exactly GNU Go's;
//! * `exact_vs_record` and `gnugo_vs_record`: positions where counting with the estimated (GNU Go's)
//!   dead stones gives `RE[]` exactly;
//! * `median_ms`, `p99_ms`: the estimator's time per position; `gnugo_median_ms` GNU Go's.
//!
//! The JSON object on the last line has the keys `positions`, `exact_vs_gnugo`, `median_ms`,
//! `p99_ms` and the others above.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use weiqi_rules::{Game, Point, score};

use crate::cmd::sgf::counted_result;
use crate::cmd::source::collect;
use crate::output::{median, report};

/// What the bench reports.
#[derive(Debug, Serialize)]
pub struct EstimateReport {
    pub positions: usize,
    pub exact_vs_gnugo: usize,
    pub median_ms: f64,
    pub p99_ms: f64,
    pub exact_vs_record: usize,
    pub gnugo_vs_record: usize,
    pub gnugo_median_ms: f64,
    pub size: u8,
}

/// One end-of-game position.
struct Position {
    file: PathBuf,
    game: Game,
    /// `RE[]` in half points for Black.
    recorded: i64,
}

fn positions(corpus: &Path, size: u8, limit: usize) -> Result<Vec<Position>> {
    let mut files = Vec::new();
    collect(corpus, &mut files)?;
    let mut out = Vec::new();
    for file in files {
        if out.len() >= limit {
            break;
        }
        let Ok(bytes) = std::fs::read(&file) else { continue };
        let Ok((record, game)) = weiqi_sgf::load(&bytes) else { continue };
        let Some(recorded) = record.result.as_deref().and_then(counted_result) else { continue };
        if record.size != size || game.move_number() < usize::from(size) * 4 {
            continue;
        }
        out.push(Position { file, game, recorded });
    }
    Ok(out)
}

/// GNU Go in GTP mode (also the fair-play bench's engine).
pub(super) struct GnuGo {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl GnuGo {
    /// Starts `program`; the default name `gnugo` is found as the tests find it (`$WEIQI_GNUGO`,
    /// `PATH`, then `/usr/games` where Debian installs it).
    pub(super) fn start(program: &str, level: u32) -> Result<GnuGo> {
        let program = match program {
            "gnugo" => weiqi_testkit::external_tool("gnugo", &["/usr/games"])?,
            path => std::path::PathBuf::from(path),
        };
        let mut child = Command::new(&program)
            .args(["--mode", "gtp", "--level", &level.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start {} (install gnugo, or pass --gnugo PATH)", program.display()))?;
        let stdin = child.stdin.take().context("gnugo stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("gnugo stdout")?);
        Ok(GnuGo { child, stdin, stdout })
    }

    /// One command's answer (without `= `), or GNU Go's refusal as an error.
    pub(super) fn send(&mut self, command: &str) -> Result<String> {
        writeln!(self.stdin, "{command}")?;
        self.stdin.flush()?;
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line)? == 0 {
                bail!("gnugo closed its output");
            }
            if line.trim().is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            answer.push_str(&line);
        }
        match answer.strip_prefix('=') {
            Some(rest) => Ok(rest.trim().to_string()),
            None => bail!("gnugo refused {command:?}: {}", answer.trim()),
        }
    }
}

impl Drop for GnuGo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn chains_of(game: &Game, points: &[Point]) -> BTreeSet<Point> {
    points.iter().filter(|p| game.board().get(**p).is_some()).flat_map(|p| game.board().chain(*p)).collect()
}

fn count_halves(game: &Game, dead: &[Point]) -> Option<i64> {
    let s = score(game, dead, [0, 0]).ok()?;
    Some(i64::from(s.black_total.0) - i64::from(s.white_total.0))
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

pub fn run(corpus: Option<PathBuf>, count: usize, size: u8, gnugo: String, json: bool) -> Result<ExitCode> {
    let corpus = corpus
        .or_else(|| std::env::var_os("WEIQI_CORPUS").map(PathBuf::from))
        .context("no corpus: pass --corpus DIR or set WEIQI_CORPUS")?;
    let list = positions(&corpus, size, count)?;
    anyhow::ensure!(!list.is_empty(), "no counted {size}×{size} records under {}", corpus.display());
    eprintln!("{} counted {size}×{size} positions; the estimator, then GNU Go level 10 on each …", list.len());
    let mut engine = GnuGo::start(&gnugo, 10)?;
    let (mut ours_ms, mut gnu_ms) = (Vec::new(), Vec::new());
    let (mut exact_vs_gnugo, mut exact_vs_record, mut gnugo_vs_record) = (0, 0, 0);
    for (i, p) in list.iter().enumerate() {
        let t = Instant::now();
        let e = weiqi_estimate::estimate(p.game.board(), p.game.to_move(), p.game.ruleset());
        ours_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let ours = e.dead_stones();

        // GTP arguments cannot hold spaces: GNU Go reads a copy of the record from a plain path.
        let copy = tempfile::Builder::new().suffix(".sgf").tempfile()?;
        std::fs::copy(&p.file, copy.path())?;
        let t = Instant::now();
        engine.send(&format!("loadsgf {}", copy.path().display()))?;
        let listed = engine.send("final_status_list dead")?;
        gnu_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let theirs: Vec<Point> = listed.split_whitespace().filter_map(|v| Point::from_gtp(v, size)).collect();

        exact_vs_gnugo += usize::from(chains_of(&p.game, &ours) == chains_of(&p.game, &theirs));
        exact_vs_record += usize::from(count_halves(&p.game, &ours) == Some(p.recorded));
        gnugo_vs_record += usize::from(count_halves(&p.game, &theirs) == Some(p.recorded));
        if !json && (i + 1) % 10 == 0 {
            eprintln!("  {} / {}", i + 1, list.len());
        }
    }
    let median_ms = median(&mut ours_ms.clone());
    ours_ms.sort_by(f64::total_cmp);
    let r = EstimateReport {
        positions: list.len(),
        exact_vs_gnugo,
        median_ms,
        p99_ms: percentile(&ours_ms, 0.99),
        exact_vs_record,
        gnugo_vs_record,
        gnugo_median_ms: median(&mut gnu_ms),
        size,
    };
    let n = r.positions;
    report(
        &format!("weiqi bench estimate — {n} counted {size}×{size} positions from {}", corpus.display()),
        &[
            ("dead stones exactly GNU Go's", format!("{} / {n}", r.exact_vs_gnugo), ""),
            ("count gives RE[] (estimator)", format!("{} / {n}", r.exact_vs_record), "≥ GNU Go's"),
            ("count gives RE[] (GNU Go 3.8 level 10)", format!("{} / {n}", r.gnugo_vs_record), ""),
            ("estimator median (ms)", format!("{:.2}", r.median_ms), ""),
            ("estimator p99 (ms)", format!("{:.2}", r.p99_ms), "≤ 50"),
            ("GNU Go median (ms)", format!("{:.1}", r.gnugo_median_ms), ""),
        ],
        json.then_some(&r),
    );
    Ok(ExitCode::SUCCESS)
}
