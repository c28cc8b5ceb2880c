//! `weiqi bench export`: the Parquet export of a large archive. `--games` synthetic archived games
//! (19×19, a 40-move main line each, players and ranks from a small field) are appended to a fresh
//! embedded log in a temporary directory (not timed: the fill is reported apart), then the whole
//! log is exported by `weiqi export parquet` in its own process; the time, the rate and that
//! process's peak resident memory (Linux `VmHWM`) are reported. With `--json` the last line holds
//! `games`, `moves`, `seconds` (the export's own timing), `process_seconds`, `games_per_sec`,
//! `peak_rss_mb` and `fill_seconds`.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use futures::StreamExt;
use weiqi_archive::{ArchivedGame, ArchivedMove, Reason, Winner};
use weiqi_eventlog::{
    AggregateId, AggregateKind, AnyEventLog, CommandId, EmbeddedConfig, EmbeddedLog, EventLog, NewEvent,
};
use weiqi_rules::{Color, Point};

/// Moves in each synthetic game.
const MOVES: usize = 40;

fn synthetic(i: u64) -> ArchivedGame {
    let mut state = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let moves = (0..MOVES)
        .map(|n| {
            let r = next();
            ArchivedMove {
                color: if n % 2 == 0 { Color::Black } else { Color::White },
                point: Some(Point { x: (r % 19) as u8, y: ((r >> 8) % 19) as u8 }),
                captures: u32::from(r % 23 == 0),
            }
        })
        .collect();
    let r = next();
    let rank = |v: u64| if v.is_multiple_of(2) { format!("{}k", v % 10 + 1) } else { format!("{}d", v % 7 + 1) };
    let id = format!("sgf-bench{i:027}");
    ArchivedGame {
        id,
        sgf: Vec::new(),
        sha256: String::new(),
        size: 19,
        black: (format!("player{}", r % 5_000), rank(r >> 3)),
        white: (format!("player{}", (r >> 16) % 5_000), rank(r >> 5)),
        date: "2020-01-01".into(),
        played_on: "2020-01-01".parse().ok(),
        event: format!("event {}", i % 1_000),
        round: (i % 7 + 1).to_string(),
        place: "Beijing".into(),
        game_name: String::new(),
        rules: "chinese".into(),
        rules_written: "Chinese".into(),
        komi_halves: Some(15),
        handicap: 0,
        time_limit: "3600".into(),
        overtime: "3x30 byo-yomi".into(),
        result: if r % 3 == 0 { "W+R".into() } else { "B+2.5".into() },
        winner: if r % 3 == 0 { Winner::White } else { Winner::Black },
        reason: if r % 3 == 0 { Reason::Resignation } else { Reason::Count },
        margin_halves: if r % 3 == 0 { 0 } else { 5 },
        moves,
        final_hash: r,
        imported_as: "bench".into(),
    }
}

/// A process's peak resident memory in MiB (Linux `VmHWM` in its status file).
fn peak_rss_mb(status_path: &str) -> Option<f64> {
    let status = std::fs::read_to_string(status_path).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

pub async fn run(games: u64, json: bool) -> Result<ExitCode> {
    let dir = tempfile::tempdir()?;
    let log: AnyEventLog = EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default())?.into();
    let fill = Instant::now();
    let appended = futures::stream::iter(0..games)
        .map(|i| {
            let log = log.clone();
            async move {
                let g = synthetic(i);
                let id = AggregateId::new(&g.id)?;
                let command = CommandId::new(format!("import-{}", g.id))?;
                let event = NewEvent::new(weiqi_archive::codec::EVENT_TYPE, weiqi_archive::codec::encode(&g));
                log.append(AggregateKind::Archive, &id, 0, &command, &[event]).await.context("appending")?;
                Ok::<_, anyhow::Error>(())
            }
        })
        .buffer_unordered(512);
    let results: Vec<Result<()>> = appended.collect().await;
    results.into_iter().collect::<Result<Vec<()>>>()?;
    let fill_seconds = fill.elapsed().as_secs_f64();
    if !json {
        eprintln!("{games} archived games appended in {fill_seconds:.1} s; exporting");
    }

    // The export runs as its own process (`weiqi export parquet`), as an analyst runs it, so its
    // peak memory is its own and not the fill's: the log is closed first.
    drop(log);
    let out = dir.path().join("parquet");
    let start = Instant::now();
    let mut child = std::process::Command::new(std::env::current_exe()?)
        .args(["export", "parquet", "--json", "--data-dir"])
        .arg(dir.path())
        .arg("-o")
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .context("starting `weiqi export parquet`")?;
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak: Option<f64> = None;
    let status = loop {
        if let Some(mb) = peak_rss_mb(&status_path) {
            peak = Some(peak.map_or(mb, |p: f64| p.max(mb)));
        }
        if let Some(status) = child.try_wait()? {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let seconds = start.elapsed().as_secs_f64();
    anyhow::ensure!(status.success(), "`weiqi export parquet` failed: {status}");
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().context("its output")?, &mut stdout)?;
    let summary: serde_json::Value =
        serde_json::from_str(stdout.lines().last().unwrap_or("{}")).context("its JSON summary")?;
    let games = summary["games"].as_u64().unwrap_or(0);
    let moves = summary["moves"].as_u64().unwrap_or(0);
    let export_seconds = summary["seconds"].as_f64().unwrap_or(seconds);
    let size: u64 = ["games", "moves", "results"]
        .iter()
        .filter_map(|t| std::fs::metadata(out.join(format!("{t}.parquet"))).ok())
        .map(|m| m.len())
        .sum();
    let rate = games as f64 / export_seconds.max(1e-9);
    println!("export to Parquet ({games} games, {moves} moves)");
    println!("  {:<28} {:>12}", "fill (not timed)", format!("{fill_seconds:.1} s"));
    println!("  {:<28} {:>12}", "export (in the process)", format!("{export_seconds:.2} s"));
    println!("  {:<28} {:>12}", "export (process start to end)", format!("{seconds:.2} s"));
    println!("  {:<28} {:>12}", "games/s", format!("{rate:.0}"));
    println!("  {:<28} {:>12}", "peak RSS of the export", peak.map_or("n/a".into(), |p| format!("{p:.0} MiB")));
    println!("  {:<28} {:>12}", "files", format!("{:.1} MiB", size as f64 / 1048576.0));
    if json {
        println!(
            "{}",
            serde_json::json!({
                "games": games,
                "moves": moves,
                "seconds": export_seconds,
                "process_seconds": seconds,
                "games_per_sec": rate,
                "peak_rss_mb": peak,
                "fill_seconds": fill_seconds,
                "parquet_bytes": size,
            })
        );
    }
    Ok(ExitCode::SUCCESS)
}
