//! `weiqi stats`: win rate by colour, komi, handicap and rank difference, game lengths, common
//! openings and results by reason (`weiqi_archive::stats`), over SGF files and directories, or over
//! the archive in the event log (`--data-dir`, `--nats`). Tables on the terminal, one JSON object
//! with `--json`, SVG charts with `--svg DIR`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use weiqi_archive::stats::{Report, Row, Tally};
use weiqi_archive::{ArchivedGame, Stats};

/// `weiqi stats`.
#[derive(Args)]
pub struct StatsArgs {
    /// SGF files and directories (without them: the archive in the event log).
    pub paths: Vec<PathBuf>,
    /// NATS server URL (the archive in JetStream).
    #[arg(long, env = "WEIQI_NATS_URL")]
    pub nats: Option<String>,
    /// Data directory of the embedded log (stop `weiqi up` first).
    #[arg(long, default_value = "./weiqi-data", env = "WEIQI_DATA_DIR")]
    pub data_dir: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write SVG charts (colour, handicap, lengths, openings) into this directory.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// How many first moves and openings to list.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
}

/// The statistics of SGF files (records that do not replay are skipped and counted).
///
/// # Errors
/// A path that does not exist or cannot be read.
pub fn of_files(paths: &[PathBuf], top: usize) -> Result<(Report, usize)> {
    let mut files = Vec::new();
    for p in paths {
        anyhow::ensure!(p.exists(), "{} does not exist", p.display());
        super::source::collect(p, &mut files)?;
    }
    let mut stats = Stats::default();
    let mut skipped = 0;
    for f in &files {
        let bytes = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
        match ArchivedGame::from_sgf(&bytes, "") {
            Ok(g) => stats.add(&g.facts()),
            Err(_) => skipped += 1,
        }
    }
    Ok((stats.finish(top), skipped))
}

pub fn run(args: StatsArgs) -> Result<ExitCode> {
    let (report, skipped) = if args.paths.is_empty() {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
        runtime.block_on(async {
            let log = super::source::open_log(args.nats.as_deref(), &args.data_dir, false).await?;
            let mut stats = Stats::default();
            super::archive::read_all(&log, |g| {
                stats.add(&g.facts());
                Ok(())
            })
            .await?;
            Ok::<_, anyhow::Error>((stats.finish(args.top), 0))
        })?
    } else {
        of_files(&args.paths, args.top)?
    };
    if let Some(dir) = &args.svg {
        charts(&report, dir)?;
    }
    if args.json {
        let mut v = serde_json::to_value(&report)?;
        v["skipped"] = skipped.into();
        println!("{v}");
    } else {
        print!("{}", tables(&report, skipped));
        if let Some(dir) = &args.svg {
            println!("charts written to {}", dir.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn rate(t: &Tally) -> String {
    t.black_rate().map_or_else(|| "–".into(), |r| format!("{:.1}%", r * 100.0))
}

fn tally_table<K: std::fmt::Display>(out: &mut String, title: &str, key: &str, rows: &[Row<K>]) {
    let _ = writeln!(out, "\n{title}");
    let _ = writeln!(
        out,
        "  {key:>10} {:>8} {:>8} {:>8} {:>6} {:>8} {:>8}",
        "games", "black", "white", "draw", "?", "black %"
    );
    for r in rows {
        let t = &r.tally;
        let _ = writeln!(
            out,
            "  {:>10} {:>8} {:>8} {:>8} {:>6} {:>8} {:>8}",
            r.key.to_string(),
            t.games,
            t.black,
            t.white,
            t.draws,
            t.unknown,
            rate(t)
        );
    }
}

/// The report as terminal tables.
#[must_use]
pub fn tables(r: &Report, skipped: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} games, {} moves{}",
        r.games,
        r.moves,
        if skipped > 0 { format!(" ({skipped} records do not replay: left out)") } else { String::new() }
    );
    tally_table(&mut out, "Win rate by colour", "games", &[r.colour.clone(), r.even.clone()]);
    tally_table(&mut out, "By komi", "komi", &r.komi);
    tally_table(&mut out, "By handicap", "stones", &r.handicap);
    tally_table(&mut out, "By rank difference (Black − White, grades)", "difference", &r.rank_difference);
    let _ = writeln!(out, "\nGame length");
    let most = r.lengths.iter().map(|l| l.1).max().unwrap_or(1).max(1);
    for (from, n) in &r.lengths {
        let width = (n * 40).div_ceil(most) as usize;
        let _ = writeln!(
            out,
            "  {:>4}–{:<4} {:>7} {}",
            from,
            from + weiqi_archive::stats::LENGTH_BUCKET - 1,
            n,
            "█".repeat(width)
        );
    }
    for (title, list) in
        [("First moves (even games, up to symmetry)", &r.first_moves), ("Three-move openings", &r.openings)]
    {
        let _ = writeln!(out, "\n{title}");
        for f in list {
            let _ = writeln!(out, "  {:>2}×{:<2} {:<12} {:>7}", f.size, f.size, f.moves, f.games);
        }
    }
    let _ = writeln!(out, "\nResults by reason");
    for (reason, n) in &r.reasons {
        let _ = writeln!(out, "  {reason:>12} {n:>7}");
    }
    out
}

/// A bar chart of `bars` (label, value) into `path`, drawn by the same code as the web's profile
/// pages ([`weiqi_web::charts::bar_chart`]).
fn bar_chart(path: &Path, title: &str, y_label: &str, bars: &[(String, f64)], y_max: f64) -> Result<()> {
    let svg = weiqi_web::charts::bar_chart(title, y_label, bars, y_max, (720, 400))
        .with_context(|| format!("drawing the chart {title}"))?;
    std::fs::write(path, svg).with_context(|| format!("writing {}", path.display()))
}

/// The report's charts: `colour.svg`, `handicap.svg`, `lengths.svg`, `first-moves.svg`.
///
/// # Errors
/// The directory cannot be written.
pub fn charts(r: &Report, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let pct = |t: &Tally| t.black_rate().unwrap_or(0.0) * 100.0;
    bar_chart(
        &dir.join("colour.svg"),
        "Black's share of decided games",
        "% won by Black",
        &[("all".into(), pct(&r.colour.tally)), ("even".into(), pct(&r.even.tally))],
        100.0,
    )?;
    let handicap: Vec<(String, f64)> = r.handicap.iter().map(|h| (h.key.to_string(), pct(&h.tally))).collect();
    bar_chart(&dir.join("handicap.svg"), "Black's share by handicap", "% won by Black", &handicap, 100.0)?;
    let lengths: Vec<(String, f64)> =
        r.lengths.iter().map(|&(f, n)| (weiqi_archive::stats::length_bucket(f), n as f64)).collect();
    let most = lengths.iter().map(|l| l.1).fold(1.0, f64::max);
    bar_chart(&dir.join("lengths.svg"), "Game length (moves)", "games", &lengths, most * 1.1)?;
    let firsts: Vec<(String, f64)> =
        r.first_moves.iter().map(|f| (format!("{} {}", f.size, f.moves), f.games as f64)).collect();
    let most = firsts.iter().map(|l| l.1).fold(1.0, f64::max);
    bar_chart(&dir.join("first-moves.svg"), "First moves (up to symmetry)", "games", &firsts, most * 1.1)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three records counted by hand: Black wins two (one on the count, one by resignation), White
    /// one on time; komi 6.5 twice and none once; one 2-stone game; the even games open on a star
    /// point, and their first three moves are one opening seen in a mirror.
    #[test]
    fn a_small_fixed_set_gives_the_hand_counts_and_charts() {
        let dir = tempfile::tempdir().unwrap();
        let files = [
            "(;GM[1]FF[4]SZ[19]KM[6.5]BR[3d]WR[1d]RE[B+2.5];B[pd];W[dp];B[pp])",
            "(;GM[1]FF[4]SZ[19]KM[6.5]BR[1k]WR[1d]RE[B+R];B[dd];W[pp];B[dp];W[pd])",
            "(;GM[1]FF[4]SZ[19]HA[2]AB[dd][pp]RE[W+T];W[pd])",
        ];
        for (i, f) in files.iter().enumerate() {
            std::fs::write(dir.path().join(format!("{i}.sgf")), f).unwrap();
        }
        let (r, skipped) = of_files(&[dir.path().to_path_buf()], 5).unwrap();
        assert_eq!((r.games, r.moves, skipped), (3, 8, 0));
        assert_eq!((r.colour.tally.black, r.colour.tally.white), (2, 1));
        assert_eq!((r.even.tally.games, r.even.tally.black), (2, 2));
        let komi: Vec<(&str, u64)> = r.komi.iter().map(|k| (k.key.as_str(), k.tally.games)).collect();
        assert_eq!(komi, [("none", 1), ("6.5", 2)], "a handicap game without KM has no komi");
        assert_eq!(r.rank_difference.iter().map(|d| (d.key, d.tally.games)).collect::<Vec<_>>(), [(-1, 1), (2, 1)]);
        assert_eq!((r.first_moves[0].games, r.first_moves.len()), (2, 1), "pd and dd are one opening");
        // pd-dp-pp and dd-pp-dp are one opening, mirrored left to right.
        assert_eq!((r.openings.len(), r.openings[0].games), (1, 2));
        let reasons: std::collections::BTreeMap<&str, u64> = r.reasons.iter().copied().collect();
        assert_eq!((reasons["count"], reasons["resignation"], reasons["time"]), (1, 1, 1));
        let text = tables(&r, skipped);
        assert!(text.contains("Win rate by colour") && text.contains("66.7%"), "{text}");
        let svg = dir.path().join("svg");
        charts(&r, &svg).unwrap();
        for name in ["colour", "handicap", "lengths", "first-moves"] {
            let s = std::fs::read_to_string(svg.join(format!("{name}.svg"))).unwrap();
            assert!(s.starts_with("<svg") && s.contains("<rect"), "{name}");
        }
    }
}
