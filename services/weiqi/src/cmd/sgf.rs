//! `weiqi sgf check`, `weiqi sgf score`, `weiqi sgf import` (in `archive.rs`) and `weiqi sgf export`
//! (in `export.rs`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use weiqi_rules::{Point, Ruleset, score};
use weiqi_sgf::{Record, ReplayError, SgfError};

#[derive(Subcommand)]
pub enum SgfCommand {
    /// Validate and replay SGF files (recursing into directories, where only `*.sgf` files are taken):
    /// each replays, or is refused with the byte offset, move number, point and reason. Records read
    /// leniently (a fractional `HA`) are listed as warnings.
    Check {
        /// Files and directories.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print one JSON object instead of the summary. It also says, for every record whose `RE[]`
        /// was counted (`B+3.5`), whether counting with the estimated dead stones gives that result.
        #[arg(long)]
        json: bool,
        /// Compare the estimated count with `RE[]` in the summary too (always done with `--json`).
        #[arg(long)]
        estimate: bool,
    },
    /// Count the final position of a record: the counts and the result.
    Score {
        file: PathBuf,
        /// Ruleset (default: the record's own `RU`, Japanese if absent). Its komi applies when the record
        /// has no `KM`.
        #[arg(long)]
        rules: Option<String>,
        /// Dead chains, one GTP vertex per chain (comma or space separated). Overrides `--estimate`.
        #[arg(long, value_delimiter = ',', num_args = 1..)]
        dead: Vec<String>,
        /// Count with the dead stones the estimator finds (weiqi-estimate), not every stone alive.
        #[arg(long)]
        estimate: bool,
        /// Komi in points (default: the record's `KM`).
        #[arg(long)]
        komi: Option<f64>,
        #[arg(long)]
        json: bool,
    },
    /// Import records into the event log as archived games (files and directories of `*.sgf`): each
    /// is replayed first and refused with the reason if it does not; the same file twice is one game
    /// (its id is its content hash). Archived games are never live: no clock or tournament reads them,
    /// and only `--rate` rates them. Writes NATS JetStream (`--nats`) or the embedded log of `--data-dir` (made if
    /// missing; stop `weiqi up` first).
    Import {
        /// Files and directories.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Recorded with every game (e.g. the archive's name).
        #[arg(long, default_value = "")]
        event: String,
        /// Print one JSON object: files, imported, duplicates, refused, seconds, records_per_sec.
        #[arg(long)]
        json: bool,
        /// NATS server URL.
        #[arg(long, env = "WEIQI_NATS_URL")]
        nats: Option<String>,
        /// Data directory of the embedded log.
        #[arg(long, default_value = "./weiqi-data", env = "WEIQI_DATA_DIR")]
        data_dir: PathBuf,
        /// Then rate the records' results, oldest first, for the players registered here whose id,
        /// Chinese or Latin name the record names (`PB`, `PW`); the others are listed and left out.
        /// Rating the same records again changes nothing.
        #[arg(long)]
        rate: bool,
        /// With --rate: the rating system in force (as `weiqi up --rating-system`).
        #[arg(long, value_enum, default_value = "glicko2", env = "WEIQI_RATING_SYSTEM")]
        rating_system: super::source::RatingChoice,
        /// With --rate: the promotion and ladder rules in force (as `weiqi up --promotion-rules`),
        /// whose grade-to-rating maps seed unrated players from the records' ranks.
        #[arg(long, env = "WEIQI_PROMOTION_RULES")]
        promotion_rules: Option<PathBuf>,
        /// With --rate: the association's key file (default `<data dir>/association.key`).
        #[arg(long)]
        association_key: Option<PathBuf>,
        /// With --rate: the association's name.
        #[arg(long, default_value = "cwa", env = "WEIQI_ASSOCIATION")]
        association: String,
    },
    /// Write every game in the event log as `<OUT>/<game id>.sgf` (finished games; `--unfinished` adds
    /// the games in play). Reads NATS JetStream (`--nats`) or the embedded log of `--data-dir` (stop
    /// `weiqi up` first: the embedded log allows one process).
    Export {
        /// The directory to write to (made if missing).
        #[arg(long, short)]
        out: PathBuf,
        /// Also write the games still in play.
        #[arg(long)]
        unfinished: bool,
        /// NATS server URL.
        #[arg(long, env = "WEIQI_NATS_URL")]
        nats: Option<String>,
        /// Data directory of the embedded log.
        #[arg(long, default_value = "./weiqi-data", env = "WEIQI_DATA_DIR")]
        data_dir: PathBuf,
    },
}

#[derive(Serialize)]
struct Refusal {
    file: String,
    #[serde(rename = "move")]
    move_number: Option<usize>,
    point: Option<String>,
    reason: String,
}

#[derive(Serialize)]
struct Warning {
    file: String,
    warning: String,
}

/// A counted record's result against the count with the estimated dead stones.
#[derive(Serialize)]
struct EstimateCheck {
    file: String,
    recorded: String,
    estimated: String,
    agrees: bool,
}

#[derive(Serialize)]
struct CheckReport {
    files: usize,
    replayed: usize,
    refused: usize,
    refusals: Vec<Refusal>,
    warnings: Vec<Warning>,
    /// Replayed records whose `RE[]` is a count (`B+3.5`, `W+0.5`, `0`/`Draw`).
    counted: usize,
    /// Of those, how many the estimated count gives exactly.
    estimate_agrees: usize,
    estimates: Vec<EstimateCheck>,
}

/// `RE[]` as a count in half points for Black (`None`: not a count: resignation, time, unknown).
pub fn counted_result(re: &str) -> Option<i64> {
    let re = re.trim();
    if re == "0" || re.eq_ignore_ascii_case("draw") || re.eq_ignore_ascii_case("jigo") {
        return Some(0);
    }
    let (sign, margin) = match re.split_once('+') {
        Some(("B" | "b", m)) => (1, m),
        Some(("W" | "w", m)) => (-1, m),
        _ => return None,
    };
    let points: f64 = margin.trim().parse().ok()?;
    let halves = points * 2.0;
    (halves.fract() == 0.0 && halves > 0.0).then(|| sign * halves as i64)
}

/// The count of `game`'s final position with the estimated dead stones, and those stones.
pub fn estimated_count(game: &weiqi_rules::Game) -> Result<(weiqi_rules::Score, Vec<Point>)> {
    let e = weiqi_estimate::estimate(game.board(), game.to_move(), game.ruleset());
    let dead = e.dead_stones();
    Ok((score(game, &dead, [0, 0])?, dead))
}

fn halves_for_black(s: &weiqi_rules::Score) -> i64 {
    i64::from(s.black_total.0) - i64::from(s.white_total.0)
}

/// What one record gave: its warnings (what was read leniently) and, if asked and `RE[]` is a count,
/// the recorded and the estimated result.
type Checked = (Vec<String>, Option<(String, String, bool)>);

/// Replays one record, or says why it is refused.
fn check_one(bytes: &[u8], estimate: bool) -> Result<Checked, (Option<usize>, Option<String>, String)> {
    match weiqi_sgf::load(bytes) {
        Ok((record, game)) => {
            let warnings = record.warnings.iter().map(ToString::to_string).collect();
            let recorded = record.result.as_deref().filter(|_| estimate).and_then(|re| Some((re, counted_result(re)?)));
            let compared = match recorded {
                Some((re, want)) => match estimated_count(&game) {
                    Ok((s, _)) => Some((re.to_string(), s.result.to_sgf(), halves_for_black(&s) == want)),
                    Err(e) => Some((re.to_string(), format!("not counted: {e}"), false)),
                },
                None => None,
            };
            Ok((warnings, compared))
        }
        Err(e) => {
            let (number, point) = match &e {
                SgfError::Replay(ReplayError::Illegal { move_number, vertex, .. }) => {
                    (Some(*move_number), Some(vertex.clone()))
                }
                _ => (None, None),
            };
            Err((number, point, e.to_string()))
        }
    }
}

pub fn run(command: SgfCommand) -> Result<ExitCode> {
    match command {
        SgfCommand::Check { paths, json, estimate } => check(paths, json, json || estimate),
        SgfCommand::Score { file, rules, dead, estimate, komi, json } => {
            score_file(file, rules, dead, estimate, komi, json)
        }
        SgfCommand::Import {
            paths,
            event,
            json,
            nats,
            data_dir,
            rate,
            rating_system,
            promotion_rules,
            association_key,
            association,
        } => {
            let rate_with = if rate {
                let rules = match &promotion_rules {
                    Some(dir) => weiqi_ranking::rules_dir::load_rules_dir(dir)
                        .with_context(|| format!("promotion rules in {}", dir.display()))?,
                    None => weiqi_ranking::shipped_rules(),
                };
                Some(super::archive::RateWith {
                    key: association_key.unwrap_or_else(|| data_dir.join("association.key")),
                    association,
                    system: rating_system.system(),
                    rules,
                })
            } else {
                None
            };
            let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
            let summary = runtime.block_on(async {
                let log = super::source::open_log(nats.as_deref(), &data_dir, true).await?;
                super::archive::run_import(log, &paths, &event, json, rate_with).await
            })?;
            Ok(if summary.refused == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        SgfCommand::Export { out, unfinished, nats, data_dir } => {
            let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
            runtime.block_on(async {
                let log = super::source::open_log(nats.as_deref(), &data_dir, false).await?;
                super::export::run(log, &out, unfinished).await
            })?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn check(paths: Vec<PathBuf>, json: bool, estimate: bool) -> Result<ExitCode> {
    let mut files = Vec::new();
    for p in &paths {
        anyhow::ensure!(p.exists(), "{} does not exist", p.display());
        super::source::collect(p, &mut files)?;
    }
    let bar = ProgressBar::new(files.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} files, {per_sec}, eta {eta} {msg}")
            .expect("a valid template"),
    );
    if json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut report = CheckReport {
        files: files.len(),
        replayed: 0,
        refused: 0,
        refusals: Vec::new(),
        warnings: Vec::new(),
        counted: 0,
        estimate_agrees: 0,
        estimates: Vec::new(),
    };
    for f in &files {
        let bytes = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
        match check_one(&bytes, estimate) {
            Ok((warnings, compared)) => {
                report.replayed += 1;
                let file = f.display().to_string();
                report.warnings.extend(warnings.into_iter().map(|warning| Warning { file: file.clone(), warning }));
                if let Some((recorded, estimated, agrees)) = compared {
                    report.counted += 1;
                    report.estimate_agrees += usize::from(agrees);
                    report.estimates.push(EstimateCheck { file, recorded, estimated, agrees });
                }
            }
            Err((move_number, point, reason)) => {
                report.refused += 1;
                report.refusals.push(Refusal { file: f.display().to_string(), move_number, point, reason });
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        for w in &report.warnings {
            println!("warning  {}: {}", w.file, w.warning);
        }
        for r in &report.refusals {
            println!("refused  {}: {}", r.file, r.reason);
        }
        println!("{} files: {} replayed, {} refused", report.files, report.replayed, report.refused);
        if estimate {
            println!(
                "{} counted records: the estimated count gives RE[] exactly in {}",
                report.counted, report.estimate_agrees
            );
        }
    }
    Ok(if report.refused == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

#[derive(Serialize)]
struct ScoreReport {
    file: String,
    rules: String,
    komi: f64,
    black: serde_json::Value,
    white: serde_json::Value,
    dame: u32,
    black_area: f64,
    white_area: f64,
    black_total: f64,
    white_total: f64,
    result: String,
    stones: String,
    recorded_result: Option<String>,
    /// The dead stones counted (GTP vertices): given with `--dead`, or estimated with `--estimate`.
    dead: Vec<String>,
    /// Whether the dead stones are the estimator's.
    estimated: bool,
}

fn score_file(
    file: PathBuf,
    rules: Option<String>,
    dead: Vec<String>,
    estimate: bool,
    komi: Option<f64>,
    json: bool,
) -> Result<ExitCode> {
    let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
    let collection = weiqi_sgf::parse(&bytes).map_err(SgfError::from)?;
    let record = Record::from_tree(&collection.games[0]).map_err(SgfError::from)?;
    // `--rules R` counts under R; without `KM` in the record, with R's komi (none in a handicap game).
    let mut ruleset = match &rules {
        Some(r) => record.ruleset_under(r.parse::<Ruleset>()?),
        None => record.ruleset(),
    };
    if let Some(k) = komi {
        ruleset.komi = weiqi_rules::Komi::from_points(k).context("komi must be a multiple of 0.5")?;
    }
    let game = record.replay(ruleset).map_err(SgfError::from)?;
    let dead: Vec<Point> = dead
        .iter()
        .flat_map(|s| s.split_whitespace())
        .map(|v| Point::from_gtp(v, record.size).with_context(|| format!("{v} is not a vertex of this board")))
        .collect::<Result<_>>()?;
    let estimated = estimate && dead.is_empty();
    let (s, dead) = if estimated { estimated_count(&game)? } else { (score(&game, &dead, [0, 0])?, dead) };
    let side = |c: &weiqi_rules::SideCount| serde_json::json!({"stones": c.stones, "territory": c.territory, "prisoners": c.prisoners, "dead": c.dead, "seki_eyes": c.seki_eyes});
    let report = ScoreReport {
        file: file.display().to_string(),
        rules: ruleset.preset_name().unwrap_or("custom").to_string(),
        komi: ruleset.komi.points(),
        black: side(&s.black),
        white: side(&s.white),
        dame: s.dame,
        black_area: s.black_area_halves() as f64 / 2.0,
        white_area: s.white_area_halves() as f64 / 2.0,
        black_total: s.black_total.0 as f64 / 2.0,
        white_total: s.white_total.0 as f64 / 2.0,
        result: s.result.to_sgf(),
        stones: s.result.in_stones(),
        recorded_result: record.result.clone(),
        dead: dead.iter().map(|p| p.to_gtp(record.size)).collect(),
        estimated,
    };
    if json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        if estimated {
            let list: Vec<String> = dead.iter().map(|p| p.to_gtp(record.size)).collect();
            println!("estimated dead: {}", if list.is_empty() { "none".to_string() } else { list.join(" ") });
        }
        println!("{s}");
        if let Some(re) = &record.result {
            println!("recorded RE[{re}]");
        }
    }
    Ok(ExitCode::SUCCESS)
}
