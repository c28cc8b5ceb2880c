//! Recompute: every rating rebuilt from the rating inputs, without events, bit-identical to the live path.
//!
//! The live path is `decide` → append events → `evolve`. Recompute applies the same formulas
//! ([`crate::rating_log`]) straight to a [`RatingBook`], skipping the events. Given the same inputs in
//! the same order (the games in log order, and the period-close ticks the service sent), both end in
//! exactly the same state, down to the last bit of every `f64`.
//!
//! Also here: a seeded generator of synthetic historical games and [`bench_recompute`], the library
//! half of `weiqi bench ratings`.

use std::collections::{HashMap, HashSet};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::book::{PendingGame, RatedGame};
use crate::rating_log::{
    RatingRejection, glicko2_close, glicko2_placement, rate_single_game, validate_game, waits_for_tournament,
};
use crate::{
    GameConditions, GameId, Millis, PlayerId, RatedResult, RatingBook, RatingCommand, RatingEvent, RatingSystem, decide,
};

/// One input of the rating book, in log order: a command and the time it was decided at.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingInput {
    /// When the command was decided (`now` of [`decide`]).
    pub at: Millis,
    /// The command.
    pub command: RatingCommand,
}

impl RatingInput {
    /// A game recorded at the moment it ended.
    #[must_use]
    pub fn game(game: RatedGame) -> RatingInput {
        RatingInput { at: game.ended_at, command: RatingCommand::RecordGame(game) }
    }
}

/// Why a recompute stopped: the input at `index` was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("rating input {index} refused: {rejection}")]
pub struct RecomputeError {
    /// Position of the refused input.
    pub index: usize,
    /// Why.
    pub rejection: RatingRejection,
}

/// Rebuilds a book from inputs, in order.
///
/// A corrected game ([`RatingCommand::CorrectGame`]) counts, where it was recorded, as its last
/// correction says (or not at all: its players keep their place in the book), so every later game is
/// re-rated in order. A game never recorded before (a forfeit found played) counts from its first
/// correction that rates it.
pub fn recompute<'a>(
    system: RatingSystem,
    inputs: impl IntoIterator<Item = &'a RatingInput>,
) -> Result<RatingBook, RecomputeError> {
    let inputs: Vec<&RatingInput> = inputs.into_iter().collect();
    let mut corrected: HashMap<&GameId, Option<&RatedGame>> = HashMap::new();
    let mut recorded: HashSet<&GameId> = HashSet::new();
    for input in &inputs {
        match &input.command {
            RatingCommand::RecordGame(g) => {
                recorded.insert(&g.id);
            }
            RatingCommand::CorrectGame { game, rated } => {
                corrected.insert(game, rated.as_ref());
            }
            _ => {}
        }
    }
    let mut placed: HashSet<&GameId> = HashSet::new();
    let mut book = RatingBook::new(system);
    for (index, input) in inputs.iter().enumerate() {
        let refused = |rejection| RecomputeError { index, rejection };
        match &input.command {
            RatingCommand::RecordGame(g) => match corrected.get(&g.id) {
                Some(Some(now)) => ingest_game(&mut book, now, input.at).map_err(refused)?,
                Some(None) => {
                    book.slot_or_insert(&g.black);
                    book.slot_or_insert(&g.white);
                }
                None => ingest_game(&mut book, g, input.at).map_err(refused)?,
            },
            RatingCommand::CorrectGame { game, rated: Some(_) } if !recorded.contains(game) && placed.insert(game) => {
                if let Some(Some(now)) = corrected.get(game) {
                    ingest_game(&mut book, now, input.at).map_err(refused)?;
                }
            }
            RatingCommand::CorrectGame { .. } => {}
            command => ingest(&mut book, command, input.at).map_err(refused)?,
        }
    }
    Ok(book)
}

/// Rebuilds a book from games alone, each recorded when it ended (no period-close ticks).
pub fn recompute_games<'a>(
    system: RatingSystem,
    games: impl IntoIterator<Item = &'a RatedGame>,
) -> Result<RatingBook, RecomputeError> {
    let mut book = RatingBook::new(system);
    for (index, game) in games.into_iter().enumerate() {
        ingest_game(&mut book, game, game.ended_at).map_err(|rejection| RecomputeError { index, rejection })?;
    }
    Ok(book)
}

fn ingest(book: &mut RatingBook, command: &RatingCommand, now: Millis) -> Result<(), RatingRejection> {
    match command {
        RatingCommand::RecordGame(game) => ingest_game(book, game, now),
        // Corrections are placed by `recompute`, which sees every input.
        RatingCommand::CorrectGame { .. } => Ok(()),
        // Seeds and ticks are rare: going through decide/evolve costs nothing and shares the code.
        RatingCommand::Seed { .. } | RatingCommand::ClosePeriods | RatingCommand::CloseTournament { .. } => {
            for event in decide(book, command, now)? {
                book.evolve(&event);
            }
            Ok(())
        }
    }
}

fn ingest_game(book: &mut RatingBook, game: &RatedGame, now: Millis) -> Result<(), RatingRejection> {
    validate_game(book, game, now)?;
    match book.system.clone() {
        RatingSystem::Glicko2(s) => {
            let (close, period) = glicko2_placement(book, &s, game);
            if let Some(open) = close {
                for (slot, _, after) in glicko2_close(book, &s, open) {
                    book.players[slot].1 = after;
                }
                book.open_period = None;
                book.pending.clear();
                book.last_closed = Some(book.last_closed.map_or(open, |c| c.max(open)));
            }
            book.seen.insert(game.id.clone());
            let black = book.slot_or_insert(&game.black);
            let white = book.slot_or_insert(&game.white);
            book.open_period = Some(period);
            book.pending.push(PendingGame { black, white, result: game.result, conditions: game.conditions });
        }
        RatingSystem::Egf(s) if waits_for_tournament(book, &s, game) => {
            book.evolve(&RatingEvent::TournamentGameQueued { game: game.clone() });
        }
        RatingSystem::Egf(_) | RatingSystem::Elo(_) => {
            let (b, w) = rate_single_game(book, game);
            book.seen.insert(game.id.clone());
            let bi = book.slot_or_insert(&game.black);
            book.players[bi].1 = b.after;
            let wi = book.slot_or_insert(&game.white);
            book.players[wi].1 = w.after;
        }
    }
    Ok(())
}

/// Applies a stream of already-decided events (the live path's replay), for symmetry with [`recompute`].
pub fn replay<'a>(system: RatingSystem, events: impl IntoIterator<Item = &'a RatingEvent>) -> RatingBook {
    let mut book = RatingBook::new(system);
    for e in events {
        book.evolve(e);
    }
    book
}

/// A seeded, reproducible history of rated games between players of hidden strengths.
///
/// Players get a hidden strength around 1500 (±~500); pairings are random; when strengths differ by more
/// than 150 points the weaker player takes Black with a handicap of one stone per 100 points (at most 9)
/// and 0.5 komi, otherwise the game is even with 7.5 komi; the winner is drawn from the Elo expectation
/// of the hidden strengths with the handicap added. Games are spread evenly over five years starting at
/// 2020-01-01, so a Glicko-2 book sees about 260 weekly periods.
#[must_use]
pub fn synthetic_history(games: usize, players: usize, seed: u64) -> Vec<RatedGame> {
    let players = players.max(2);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ids: Vec<PlayerId> = (0..players).map(|i| PlayerId(format!("p{i:06}"))).collect();
    let strength: Vec<f64> = (0..players)
        .map(|_| {
            let s: f64 = (0..3).map(|_| rng.random::<f64>()).sum();
            1500.0 + (s - 1.5) * 600.0
        })
        .collect();
    let start = Millis(1_577_836_800_000); // 2020-01-01T00:00:00Z
    let span = 5 * 52 * Millis::WEEK.0;
    let step = (span / i64::try_from(games.max(1)).unwrap_or(i64::MAX)).max(1);
    let mut out = Vec::with_capacity(games);
    for n in 0..games {
        let a = rng.random_range(0..players);
        let mut b = rng.random_range(0..players - 1);
        if b >= a {
            b += 1;
        }
        let diff = strength[a] - strength[b];
        let (black, white, stones) = if diff.abs() > 150.0 {
            let stones = ((diff.abs() / 100.0).floor() as u8).clamp(2, 9);
            if diff > 0.0 { (b, a, stones) } else { (a, b, stones) }
        } else {
            (a, b, 0)
        };
        let conditions = if stones > 0 { GameConditions::handicap(stones) } else { GameConditions::even() };
        let edge = strength[black] + 100.0 * conditions.effective_handicap() - strength[white];
        let p_black = 1.0 / (1.0 + 10f64.powf(-edge / 400.0));
        let result = if rng.random::<f64>() < p_black { RatedResult::BlackWins } else { RatedResult::WhiteWins };
        out.push(RatedGame {
            id: GameId(format!("g{n:08}")),
            black: ids[black].clone(),
            white: ids[white].clone(),
            result,
            conditions,
            ended_at: Millis(start.0 + step * i64::try_from(n).unwrap_or(i64::MAX)),
            tournament: None,
        });
    }
    out
}

/// What [`bench_recompute`] computed: enough to check two runs agree, nothing timed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchSummary {
    /// Games recomputed.
    pub games: usize,
    /// Players in the book.
    pub players: usize,
    /// Mean rating over all players.
    pub mean_rating: f64,
    /// Highest rating.
    pub max_rating: f64,
    /// Sum of all ratings and deviations: equal bits mean equal books.
    pub checksum: f64,
}

/// The number of synthetic players used for `games` games (about 50 games each, 2..=50,000).
#[must_use]
pub fn bench_players(games: usize) -> usize {
    (games / 50).clamp(2, 50_000)
}

/// Generates `games` synthetic historical games from `seed` and recomputes default Glicko-2 ratings.
///
/// The library half of `weiqi bench ratings`: the caller times it (the core reads no clock). To time the
/// recompute alone, call [`synthetic_history`] and [`recompute_games`] separately.
///
/// # Errors
/// Never for generated input; the error is passed through rather than hidden.
pub fn bench_recompute(games: usize, seed: u64) -> Result<BenchSummary, RecomputeError> {
    let history = synthetic_history(games, bench_players(games), seed);
    let book = recompute_games(RatingSystem::default(), &history)?;
    Ok(summarise(&book, games))
}

/// Summarises a book for [`BenchSummary`].
#[must_use]
pub fn summarise(book: &RatingBook, games: usize) -> BenchSummary {
    let mut sum = 0.0;
    let mut max = f64::NEG_INFINITY;
    let mut checksum = 0.0;
    for (_, r) in book.iter() {
        sum += r.rating;
        max = max.max(r.rating);
        checksum += r.rating + r.deviation;
    }
    let players = book.player_count();
    BenchSummary {
        games,
        players,
        mean_rating: if players > 0 { sum / players as f64 } else { 0.0 },
        max_rating: max,
        checksum,
    }
}
