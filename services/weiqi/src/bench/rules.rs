//! `weiqi bench rules`.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use serde::Serialize;
use weiqi_rules::random::random_game;
use weiqi_rules::{Board, Color, Game, Move, Ruleset, score};

use crate::output::{median, report};

#[derive(Serialize)]
struct RulesReport {
    replay_moves_per_sec: f64,
    legal_points_us: f64,
    score_us: f64,
    board_bytes: usize,
    goban_replay_moves_per_sec: Option<f64>,
    goban_ratio: Option<f64>,
    games: u64,
    moves: usize,
    runs: usize,
}

fn replay(games: &[Vec<(Color, Move)>]) -> usize {
    let mut n = 0;
    for moves in games {
        let mut g = Game::new(19, Ruleset::chinese()).expect("19×19");
        for &(c, m) in moves {
            black_box(g.play(c, m).expect("recorded moves are legal"));
            n += 1;
        }
    }
    n
}

#[cfg(feature = "goban")]
fn goban_replay(games: &[Vec<(Color, Move)>]) -> usize {
    let mut n = 0;
    for moves in games {
        let mut g = goban::rules::game::Game::new(goban::rules::GobanSizes::Nineteen, goban::rules::CHINESE);
        for &(_, m) in moves {
            let m = match m {
                Move::Pass => goban::rules::Move::Pass,
                Move::Play(p) => goban::rules::Move::Play(p.y, p.x),
            };
            black_box(g.try_play(m).is_ok());
            n += 1;
        }
    }
    n
}

pub fn run(games: u64, runs: usize, json: bool) -> Result<ExitCode> {
    let runs = runs.max(1);
    eprintln!("generating {games} random 19×19 games …");
    let played: Vec<(Vec<(Color, Move)>, Game)> =
        (0..games).map(|s| random_game(19, Ruleset::chinese(), s, 1000)).collect();
    let lists: Vec<Vec<(Color, Move)>> = played.iter().map(|(m, _)| m.clone()).collect();
    let total: usize = lists.iter().map(Vec::len).sum();

    let mut replay_rates = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let n = replay(&lists);
        replay_rates.push(n as f64 / t.elapsed().as_secs_f64());
    }

    // Middle-game positions: after 150 moves (or half the game).
    let middles: Vec<Game> = lists
        .iter()
        .map(|moves| {
            let mut g = Game::new(19, Ruleset::chinese()).expect("19×19");
            for &(c, m) in &moves[..moves.len().min(150).min(moves.len() / 2 + 1)] {
                g.play(c, m).expect("legal");
            }
            g
        })
        .collect();
    let mut legal_us = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let mut calls = 0;
        for _ in 0..20 {
            for g in &middles {
                black_box(g.legal_points(g.to_move()));
                calls += 1;
            }
        }
        legal_us.push(t.elapsed().as_secs_f64() * 1e6 / calls as f64);
    }

    let finals: Vec<&Game> = played.iter().map(|(_, g)| g).collect();
    let mut score_us = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let mut calls = 0;
        for _ in 0..20 {
            for g in &finals {
                black_box(score(g, &[], [0, 0]).expect("no dead stones"));
                calls += 1;
            }
        }
        score_us.push(t.elapsed().as_secs_f64() * 1e6 / calls as f64);
    }
    let board_bytes = Board::new(19).expect("19×19").memory_bytes();

    #[cfg(feature = "goban")]
    let goban_rate = {
        let mut rates = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            let n = goban_replay(&lists);
            rates.push(n as f64 / t.elapsed().as_secs_f64());
        }
        Some(median(&mut rates))
    };
    #[cfg(not(feature = "goban"))]
    let goban_rate: Option<f64> = None;

    let r = RulesReport {
        replay_moves_per_sec: median(&mut replay_rates),
        legal_points_us: median(&mut legal_us),
        score_us: median(&mut score_us),
        board_bytes,
        goban_replay_moves_per_sec: goban_rate,
        goban_ratio: None,
        games,
        moves: total,
        runs,
    };
    let r = RulesReport { goban_ratio: goban_rate.map(|g| r.replay_moves_per_sec / g), ..r };
    let goban_text = match (r.goban_replay_moves_per_sec, r.goban_ratio) {
        (Some(g), Some(ratio)) => (format!("{:.2} M", g / 1e6), format!("{ratio:.1}×")),
        _ => ("not built".into(), "(use --features goban)".into()),
    };
    report(
        &format!("weiqi bench rules — {games} random 19×19 games, {total} moves, median of {runs} runs"),
        &[
            ("replay, positional superko (moves/s)", format!("{:.2} M", r.replay_moves_per_sec / 1e6), "≥ 5 M"),
            ("legal-point set, middle game (µs)", format!("{:.2}", r.legal_points_us), "≤ 20"),
            ("score a final position (µs)", format!("{:.2}", r.score_us), "≤ 10"),
            ("board state, 19×19 (bytes)", r.board_bytes.to_string(), "≤ 2048"),
            ("goban crate replay (moves/s)", goban_text.0, ""),
            ("weiqi-rules / goban", goban_text.1, "> 1"),
        ],
        json.then_some(&r),
    );
    Ok(ExitCode::SUCCESS)
}
