//! Recomputing every rating from the logs.
//!
//! The ledger records each input of the rating book (the game as read from its game log, the
//! period-close ticks, the seeds) with the time it was decided at. [`from_logs`] reads the ledger,
//! re-derives every game input from its own game log (a ledger entry that disagrees with its game
//! log is an error, so the ledger is checked rather than trusted), and rebuilds the book with
//! [`weiqi_rating::recompute`], the rating core's event-free path. The result must equal the live
//! book bit for bit; the tests compare it with the service's book, the players' logs and the read
//! model.

use std::collections::HashMap;

use weiqi_eventlog::{AggregateId, AggregateKind, EventLog};
use weiqi_rating::{GameId, RatedGame, RatingBook, RatingCommand, RatingInput, RatingSystem, recompute, replay};

use crate::codec::read_ledger;
use crate::error::RankingError;
use crate::games::load_game;

/// What a recompute found.
#[derive(Clone, Debug)]
pub struct Recomputed {
    /// The book rebuilt from the inputs, formulas applied afresh.
    pub book: RatingBook,
    /// The book replayed from the ledger's recorded events (no arithmetic).
    pub replayed: RatingBook,
    /// Ledger entries read.
    pub entries: usize,
    /// Games re-derived from their game logs (and counted by the book).
    pub games: usize,
}

/// Rebuilds the book of `system` from the logs (see the module doc).
///
/// # Errors
/// Faults; `Corrupt` when a ledger game disagrees with its game log or an input is refused.
pub async fn from_logs<L: EventLog>(log: &L, system: RatingSystem) -> Result<Recomputed, RankingError> {
    let ledger = AggregateId::new(format!("_ledger-{}", system.name())).expect("a valid ledger id");
    let stored = log.read(AggregateKind::Player, &ledger, 1).await?;
    let mut entries = Vec::with_capacity(stored.len());
    for r in &stored {
        entries.push((r.sequence, read_ledger(r)?));
    }
    // A corrected game is checked as its last correction says (what its log says now).
    let mut last: HashMap<GameId, (u64, Option<RatedGame>)> = HashMap::new();
    for (sequence, entry) in &entries {
        match &entry.input.command {
            RatingCommand::RecordGame(game) => {
                last.insert(game.id.clone(), (*sequence, Some(game.clone())));
            }
            RatingCommand::CorrectGame { game, rated } => {
                last.insert(game.clone(), (*sequence, rated.clone()));
            }
            _ => {}
        }
    }
    let mut games = 0;
    for (game, (sequence, counted)) in &last {
        let from_log = load_game(log, &game.0).await?.and_then(|g| g.rated_game());
        if from_log != *counted {
            return Err(RankingError::Corrupt(format!(
                "ledger entry {sequence} says {counted:?}, the game log says {from_log:?}"
            )));
        }
        games += usize::from(counted.is_some());
    }
    let mut inputs: Vec<RatingInput> = Vec::with_capacity(entries.len());
    let mut events = Vec::new();
    for (_, entry) in entries {
        events.extend(entry.events);
        inputs.push(entry.input);
    }
    let book = recompute(system.clone(), &inputs).map_err(|e| RankingError::Corrupt(e.to_string()))?;
    Ok(Recomputed { replayed: replay(system, &events), book, entries: stored.len(), games })
}

/// Whether two books hold exactly the same ratings: same players in the same order, every `f64` equal
/// bit for bit, same games and the same open period. Returns the first difference.
#[must_use]
pub fn difference(a: &RatingBook, b: &RatingBook) -> Option<String> {
    if a.player_count() != b.player_count() || a.game_count() != b.game_count() || a.open_period() != b.open_period() {
        return Some(format!(
            "players {} vs {}, games {} vs {}, open period {:?} vs {:?}",
            a.player_count(),
            b.player_count(),
            a.game_count(),
            b.game_count(),
            a.open_period(),
            b.open_period()
        ));
    }
    for ((pa, ra), (pb, rb)) in a.iter().zip(b.iter()) {
        let same = pa == pb
            && ra.rating.to_bits() == rb.rating.to_bits()
            && ra.deviation.to_bits() == rb.deviation.to_bits()
            && ra.volatility.to_bits() == rb.volatility.to_bits()
            && ra.games == rb.games
            && ra.period == rb.period;
        if !same {
            return Some(format!("{pa}: {ra:?} vs {pb}: {rb:?}"));
        }
    }
    None
}
