//! `weiqi bench fairplay`: the fair-play pipeline on real human games (issue 34, "Measure").
//!
//! Games: the first `--games` 19×19 even records of the corpus (`--corpus`, default
//! `$WEIQI_CORPUS`) with at least 100 moves, in path order. Each position from move 30 to
//! `--max-move` is analysed once by GNU Go (`top_moves_black`/`top_moves_white` at `--level`): the
//! engine's candidates with values. From the same analyses:
//!
//! * a **human** player plays the recorded moves;
//! * an **assisted** player plays, at each of its positions from move 30 on, the engine's first choice
//!   with probability p (0.3, 0.6, 0.9; seeded, so a run repeats) and the recorded move otherwise.
//!
//! Each player's figures (`weiqi_fairplay::figures`) are assessed with the shipped rule table
//! against the baseline of the human players of the run's other games (leave one game out: nobody
//! is part of their own baseline). One number, the *strictness* that scales
//! every standard-deviation threshold of the table, is set to the loosest reading that flags (verdict
//! "suspect") at most 1 % of the human players; the report gives, per p, the share of assisted players
//! flagged at that reading.
//!
//! With the same engine as assistant and judge this measures the pipeline and the rule table, not
//! how well a strong assistant can be caught: a player helped by a stronger engine than the judge
//! agrees with the judge less and is caught less; a judge stronger than the assistant separates
//! better. The corpus records carry no focus events and few times, so behaviour flags rarely take
//! part here.
//!
//! The JSON object on the last line has the keys `games`, `positions`, `flag_rate_human`,
//! `detect_p30`, `detect_p60`, `detect_p90`, `positions_per_sec`, and `players`, `strictness`,
//! `level`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use weiqi_fairplay::{Baseline, Figures, MoveAnalysis, RuleTable, Turn, Verdict, assess, figures, parse_top_moves};
use weiqi_rules::{Color, Move};

use super::estimate::GnuGo;
use crate::cmd::source::collect;
use crate::output::report;

/// What the bench reports.
#[derive(Debug, Serialize)]
pub struct FairplayReport {
    pub games: usize,
    pub positions: usize,
    pub players: usize,
    pub flag_rate_human: f64,
    pub detect_p30: f64,
    pub detect_p60: f64,
    pub detect_p90: f64,
    pub positions_per_sec: f64,
    pub strictness: f64,
    pub level: u32,
}

/// One analysed game: each side's analysed moves and timed turns.
struct Analysed {
    moves: [Vec<MoveAnalysis>; 2],
    turns: [Vec<Turn>; 2],
}

fn side(black: bool) -> usize {
    usize::from(!black)
}

/// Analyses one record with GNU Go: `None` when the record is not a usable even 19×19 game.
fn analyse(engine: &mut GnuGo, bytes: &[u8], from: u32, max_move: u32) -> Result<Option<Analysed>> {
    let Ok((record, _)) = weiqi_sgf::load(bytes) else { return Ok(None) };
    let plays: Vec<_> = record.nodes.iter().filter_map(|n| n.play.map(|p| (p, n.time_left))).collect();
    let setup = !record.setup.black.is_empty() || !record.setup.white.is_empty();
    if record.size != 19 || record.handicap > 0 || setup || plays.len() < 100 {
        return Ok(None);
    }
    engine.send("boardsize 19")?;
    engine.send("clear_board")?;
    engine.send(&format!("komi {}", record.komi.map_or(7.5, |k| k.points())))?;
    let mut out = Analysed { moves: [Vec::new(), Vec::new()], turns: [Vec::new(), Vec::new()] };
    let mut last_left: [Option<f64>; 2] = [None, None];
    for (i, ((color, mv), left)) in plays.iter().enumerate() {
        let n = i as u32 + 1;
        if n > max_move {
            break;
        }
        let black = *color == Color::Black;
        let vertex = mv.to_gtp(19);
        if n >= from && matches!(mv, Move::Play(_)) {
            let answer = engine.send(if black { "top_moves_black" } else { "top_moves_white" })?;
            let candidates = parse_top_moves(&answer).with_context(|| format!("GNU Go's top moves: {answer:?}"))?;
            out.moves[side(black)].push(MoveAnalysis { move_number: n, black, played: vertex.clone(), candidates });
        }
        // Seconds spent, where the record keeps the time left (`BL`/`WL`) and main time ran down.
        let s = side(black);
        let seconds = match (last_left[s], left) {
            (Some(before), Some(after)) if before >= *after => Some(before - after),
            _ => None,
        };
        last_left[s] = *left;
        out.turns[s].push(Turn { move_number: n, seconds, blurred: None });
        if engine.send(&format!("play {} {vertex}", if black { "B" } else { "W" })).is_err() {
            // GNU Go's own ko rule refused a move the record's rules allow: the game stops here.
            break;
        }
    }
    Ok(Some(out))
}

/// The assisted player of `moves`: the engine's first choice with probability `p` at each position.
fn assisted(moves: &[MoveAnalysis], p: f64, rng: &mut SmallRng) -> Vec<MoveAnalysis> {
    moves
        .iter()
        .map(|m| {
            let mut m = m.clone();
            if rng.random::<f64>() < p
                && let Some(best) = m.candidates.first()
            {
                m.played = best.vertex.clone();
            }
            m
        })
        .collect()
}

/// The share of `players` (Black and White of each game in turn) assessed "suspect", each against the
/// baseline of the other games' human players (`baselines[game]`).
fn suspect_share(players: &[Figures], baselines: &[Baseline], table: &RuleTable, strictness: f64) -> f64 {
    if players.is_empty() {
        return 0.0;
    }
    let flagged = players
        .iter()
        .enumerate()
        .filter(|(i, f)| assess(f, &baselines[i / 2], table, strictness).verdict == Verdict::Suspect)
        .count();
    flagged as f64 / players.len() as f64
}

pub fn run(
    corpus: Option<PathBuf>,
    games: usize,
    max_move: u32,
    level: u32,
    gnugo: String,
    json: bool,
) -> Result<ExitCode> {
    let corpus = corpus
        .or_else(|| std::env::var_os("WEIQI_CORPUS").map(PathBuf::from))
        .context("no corpus: pass --corpus DIR or set WEIQI_CORPUS")?;
    anyhow::ensure!((31..=400).contains(&max_move), "--max-move is 31 to 400");
    let table = RuleTable::built_in();
    let from = table.assessment.from_move;
    let mut files = Vec::new();
    collect(&corpus, &mut files)?;
    let mut engine = GnuGo::start(&gnugo, level)?;
    let started = Instant::now();
    let mut analysed = Vec::new();
    for file in &files {
        if analysed.len() >= games {
            break;
        }
        let Ok(bytes) = std::fs::read(file) else { continue };
        if let Some(a) = analyse(&mut engine, &bytes, from, max_move)? {
            analysed.push(a);
            if !json {
                eprintln!("  {} / {games} games analysed", analysed.len());
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    anyhow::ensure!(!analysed.is_empty(), "no even 19×19 records of 100 moves or more under {}", corpus.display());
    let positions: usize = analysed.iter().map(|a| a.moves[0].len() + a.moves[1].len()).sum();

    let humans: Vec<Figures> = analysed
        .iter()
        .flat_map(|a| (0..2).map(move |s| figures(&a.moves[s], &a.turns[s], &table.assessment)))
        .collect();
    // Each game's players are judged against the other games' humans (leave one game out), so no
    // player is part of their own baseline.
    let baselines: Vec<Baseline> = (0..analysed.len())
        .map(|g| {
            let others = humans.iter().enumerate().filter(|(i, _)| i / 2 != g).map(|(_, f)| f);
            Baseline::of("corpus", "corpus", others, table.assessment.min_positions)
        })
        .collect();
    let assisted_at = |p: f64| -> Vec<Figures> {
        analysed
            .iter()
            .enumerate()
            .flat_map(|(g, a)| {
                (0..2).map(move |s| {
                    let mut rng = SmallRng::seed_from_u64((g as u64) << 8 | s as u64 | ((p * 100.0) as u64) << 32);
                    figures(&assisted(&a.moves[s], p, &mut rng), &a.turns[s], &table.assessment)
                })
            })
            .collect()
    };
    // The loosest reading that flags at most 1 % of the humans.
    let strictness = (5..=200)
        .map(|k| f64::from(k) * 0.05)
        .find(|s| suspect_share(&humans, &baselines, &table, *s) <= 0.01)
        .unwrap_or(10.0);
    let detect = |p: f64| suspect_share(&assisted_at(p), &baselines, &table, strictness);
    let r = FairplayReport {
        games: analysed.len(),
        positions,
        players: humans.len(),
        flag_rate_human: suspect_share(&humans, &baselines, &table, strictness),
        detect_p30: detect(0.3),
        detect_p60: detect(0.6),
        detect_p90: detect(0.9),
        positions_per_sec: if seconds > 0.0 { positions as f64 / seconds } else { 0.0 },
        strictness,
        level,
    };
    let pct = |v: f64| format!("{:.1} %", v * 100.0);
    report(
        &format!(
            "weiqi bench fairplay — {} games, {} positions (moves {from}–{max_move}) from {}, GNU Go level {level}",
            r.games,
            r.positions,
            corpus.display()
        ),
        &[
            ("players (human)", r.players.to_string(), ""),
            ("human players flagged", pct(r.flag_rate_human), "≤ 1 %"),
            ("assisted p = 0.3 flagged", pct(r.detect_p30), ""),
            ("assisted p = 0.6 flagged", pct(r.detect_p60), ""),
            ("assisted p = 0.9 flagged", pct(r.detect_p90), ""),
            ("strictness (sd thresholds ×)", format!("{:.2}", r.strictness), ""),
            ("positions analysed per second", format!("{:.1}", r.positions_per_sec), ""),
        ],
        json.then_some(&r),
    );
    Ok(ExitCode::SUCCESS)
}
