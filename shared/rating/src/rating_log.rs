//! The rating decider: commands, events, rejections, and the formulas shared with [`crate::recompute`].
//!
//! ```text
//! decide(&RatingBook, &RatingCommand, now) -> Result<Vec<RatingEvent>, RatingRejection>
//! RatingBook::evolve(&mut self, &RatingEvent)
//! ```
//!
//! * Elo rates each game when it is recorded ([`RatingEvent::GameRated`]); so does EGF for a game
//!   played outside a tournament.
//! * EGF, as the EGD does it, rates a tournament's games together: they wait
//!   ([`RatingEvent::TournamentGameQueued`]) until [`RatingCommand::CloseTournament`] (sent by the
//!   service when the tournament's final results are published), then every player who played is rated
//!   at once ([`RatingEvent::TournamentRated`]), each game against the opponent's rating from *before*
//!   the tournament and the changes summed. A game of a tournament already rated (a late result) is
//!   rated on its own. With [`crate::EgfSettings::rate_by_tournament`] off, every game is rated when it
//!   is recorded.
//! * Glicko-2 queues games in the open rating period ([`RatingEvent::GameQueued`]) and rates everybody
//!   who played in it at once when it closes ([`RatingEvent::PeriodClosed`]), each player against the
//!   opponents' ratings from *before* the period, as the paper prescribes. A period closes when a game
//!   of a later period arrives or when [`RatingCommand::ClosePeriods`] finds it over at `now` (the
//!   service sends that on a timer). Either way the values are the same. A game that arrives after its
//!   period was closed counts in the next open period. Inactive players' deviations grow lazily: the
//!   decay for skipped periods is applied when the player is next rated or viewed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use skillratings::glicko2::glicko2_rating_period;

use crate::book::RatedGame;
use crate::system::{
    EgfSettings, EgfTournamentGame, Glicko2Settings, PlayerRating, RatingSystem, egf_game, egf_tournament, elo_game,
    glicko2_decay, glicko2_opponent,
};
use crate::{GameId, Millis, PlayerId, RatingBook};

/// What the rating service asks of the book.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum RatingCommand {
    /// Give a player without rated games a starting rating (e.g. the nominal rating of a declared rank).
    Seed {
        /// The player.
        player: PlayerId,
        /// Starting rating.
        rating: f64,
        /// Starting Glicko-2 deviation; the system's initial deviation when absent.
        deviation: Option<f64>,
    },
    /// Record a rated game.
    RecordGame(RatedGame),
    /// Close the open Glicko-2 rating period if it is over at `now` (no events otherwise).
    ClosePeriods,
    /// EGF: a tournament finished; rate its waiting games together (no events under other systems, or
    /// when the tournament was rated before).
    CloseTournament {
        /// The tournament.
        tournament: String,
    },
    /// A game's result was corrected after it was recorded (or a game not rated, e.g. a forfeit, was
    /// found played): from now on it counts as `rated` (`None`: not rated). The book is rebuilt as if
    /// the game had always had that result, so every later game is re-rated, in order
    /// ([`crate::recompute`]). Decided with the book's inputs: [`decide_correction`].
    CorrectGame {
        /// The game.
        game: GameId,
        /// The game as it counts now; `None`: not rated (a forfeit, no result).
        rated: Option<RatedGame>,
    },
}

/// A player's rating before and after a change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingUpdate {
    /// The player.
    pub player: PlayerId,
    /// The rating the computation started from (Glicko-2: with inactivity decay applied).
    pub before: PlayerRating,
    /// The new rating.
    pub after: PlayerRating,
}

/// What happened to the book. Events carry the new values: replaying needs no arithmetic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
#[allow(
    clippy::large_enum_variant,
    reason = "events are built once and appended; boxing would only complicate matching and conversion"
)]
pub enum RatingEvent {
    /// A player got a starting rating.
    PlayerSeeded {
        /// The player.
        player: PlayerId,
        /// The starting rating.
        rating: PlayerRating,
    },
    /// EGF/Elo: a game was rated.
    GameRated {
        /// The game.
        game: RatedGame,
        /// Black's change.
        black: RatingUpdate,
        /// White's change.
        white: RatingUpdate,
    },
    /// Glicko-2: a game joined the open rating period.
    GameQueued {
        /// The game.
        game: RatedGame,
        /// The period it counts in.
        period: i64,
    },
    /// EGF: a tournament game waits for the tournament to finish.
    TournamentGameQueued {
        /// The game.
        game: RatedGame,
    },
    /// EGF: a tournament finished and everybody who played in it was rated (possibly nobody, when it
    /// had no rated games; later games of it are then rated one by one).
    TournamentRated {
        /// The tournament.
        tournament: String,
        /// One update per player who played, in book order.
        updates: Vec<RatingUpdate>,
    },
    /// Glicko-2: a period closed and everybody who played in it was rated.
    PeriodClosed {
        /// The period.
        period: i64,
        /// One update per player who played, in book order.
        updates: Vec<RatingUpdate>,
    },
    /// A game's result was corrected and the book rebuilt from its inputs: every player whose rating
    /// changed, from the live value to the rebuilt one (the re-rating of the game and of every later
    /// one, in order). Folding it sets those ratings; the games waiting in an open period or tournament
    /// are the rebuilt book's (a ledger rebuilds its book from its inputs, see [`crate::recompute`]).
    GameCorrected {
        /// The game.
        game: GameId,
        /// The game as it counts now; `None`: not rated.
        rated: Option<RatedGame>,
        /// Every player whose rating changed, in book order.
        updates: Vec<RatingUpdate>,
        /// Glicko-2: the open period of the rebuilt book.
        open_period: Option<i64>,
    },
}

/// Why a rating command was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum RatingRejection {
    /// Black and White are the same player.
    #[error("game {game}: {player} cannot play themself")]
    SelfPlay {
        /// The game.
        game: GameId,
        /// The player.
        player: PlayerId,
    },
    /// The game was recorded before.
    #[error("game {0} is already rated")]
    DuplicateGame(GameId),
    /// The game ends after `now`.
    #[error("game {game} ends at {ended_at:?}, after now ({now:?})")]
    GameInFuture {
        /// The game.
        game: GameId,
        /// Its end.
        ended_at: Millis,
        /// The decision time.
        now: Millis,
    },
    /// Komi or compensation is not a finite number.
    #[error("game {0}: komi and compensation must be finite numbers")]
    BadConditions(GameId),
    /// A seed was sent for a player who already has rated or queued games.
    #[error("{0} already has rated games; a starting rating can no longer be set")]
    AlreadyRated(PlayerId),
    /// A seed rating or deviation is not a finite (positive, for the deviation) number.
    #[error("{0}: starting rating must be finite and deviation finite and positive")]
    BadSeed(PlayerId),
    /// A correction is decided against the book's inputs ([`decide_correction`]), not the book alone.
    #[error("game {0}: a correction needs the book's inputs")]
    CorrectionNeedsInputs(GameId),
    /// The corrected game is not the game named (another id, or the same player on both sides).
    #[error("game {0}: the corrected game does not match")]
    CorrectionMismatch(GameId),
}

/// Decides what a command does to the book. Pure: no clock, no IO; `now` is the decision time.
pub fn decide(book: &RatingBook, command: &RatingCommand, now: Millis) -> Result<Vec<RatingEvent>, RatingRejection> {
    match command {
        RatingCommand::Seed { player, rating, deviation } => decide_seed(book, player, *rating, *deviation),
        RatingCommand::RecordGame(game) => decide_game(book, game, now),
        RatingCommand::CorrectGame { game, .. } => Err(RatingRejection::CorrectionNeedsInputs(game.clone())),
        RatingCommand::ClosePeriods => Ok(match (&book.system, book.open_period) {
            (RatingSystem::Glicko2(s), Some(open)) if s.period_end(open) <= now => {
                vec![close_event(book, s, open)]
            }
            _ => Vec::new(),
        }),
        RatingCommand::CloseTournament { tournament } => Ok(match &book.system {
            RatingSystem::Egf(s) if s.rate_by_tournament && !book.tournament_rated(tournament) => {
                let updates = egf_tournament_close(book, tournament)
                    .into_iter()
                    .map(|(slot, before, after)| RatingUpdate { player: book.players[slot].0.clone(), before, after })
                    .collect();
                vec![RatingEvent::TournamentRated { tournament: tournament.clone(), updates }]
            }
            _ => Vec::new(),
        }),
    }
}

/// Decides a correction of `game` against the book and the inputs it was built from (in order): the
/// book is rebuilt with the correction appended ([`crate::recompute`]) and every player whose rating
/// differs is updated, from the live value to the rebuilt one. Pure.
///
/// # Errors
/// A corrected game that is not `game` or plays itself, or an input the rebuild refuses.
pub fn decide_correction(
    book: &RatingBook,
    inputs: &[crate::RatingInput],
    game: &GameId,
    rated: Option<&RatedGame>,
    now: Millis,
) -> Result<Vec<RatingEvent>, RatingRejection> {
    if let Some(g) = rated
        && (g.id != *game || g.black == g.white)
    {
        return Err(RatingRejection::CorrectionMismatch(game.clone()));
    }
    let command = RatingCommand::CorrectGame { game: game.clone(), rated: rated.cloned() };
    let correction = crate::RatingInput { at: now, command };
    let rebuilt = crate::recompute(book.system.clone(), inputs.iter().chain(std::iter::once(&correction)))
        .map_err(|e| e.rejection)?;
    let updates = rebuilt
        .iter()
        .filter(|(player, after)| book.stored(player).is_none_or(|before| !before.same_bits(after)))
        .map(|(player, after)| RatingUpdate {
            player: player.clone(),
            before: book.current_or_initial(player),
            after: *after,
        })
        .collect();
    Ok(vec![RatingEvent::GameCorrected {
        game: game.clone(),
        rated: rated.cloned(),
        updates,
        open_period: rebuilt.open_period,
    }])
}

fn decide_seed(
    book: &RatingBook,
    player: &PlayerId,
    rating: f64,
    deviation: Option<f64>,
) -> Result<Vec<RatingEvent>, RatingRejection> {
    let mut start = book.system.initial();
    if book.stored(player).is_some_and(|r| r.games > 0) || book.pending_games(player) > 0 {
        return Err(RatingRejection::AlreadyRated(player.clone()));
    }
    if !rating.is_finite() || deviation.is_some_and(|d| !d.is_finite() || d <= 0.0) {
        return Err(RatingRejection::BadSeed(player.clone()));
    }
    start.rating = rating;
    if let (RatingSystem::Glicko2(_), Some(d)) = (&book.system, deviation) {
        start.deviation = d;
    }
    Ok(vec![RatingEvent::PlayerSeeded { player: player.clone(), rating: start }])
}

/// Checks a game against the book: the validations shared by decide and recompute.
pub(crate) fn validate_game(book: &RatingBook, game: &RatedGame, now: Millis) -> Result<(), RatingRejection> {
    if game.black == game.white {
        return Err(RatingRejection::SelfPlay { game: game.id.clone(), player: game.black.clone() });
    }
    if book.has_game(&game.id) {
        return Err(RatingRejection::DuplicateGame(game.id.clone()));
    }
    if game.ended_at > now {
        return Err(RatingRejection::GameInFuture { game: game.id.clone(), ended_at: game.ended_at, now });
    }
    let c = &game.conditions;
    if !c.komi.is_finite() || !c.compensation.is_finite() || !c.standard_komi.is_finite() {
        return Err(RatingRejection::BadConditions(game.id.clone()));
    }
    Ok(())
}

fn decide_game(book: &RatingBook, game: &RatedGame, now: Millis) -> Result<Vec<RatingEvent>, RatingRejection> {
    validate_game(book, game, now)?;
    match &book.system {
        RatingSystem::Glicko2(s) => {
            let (close, period) = glicko2_placement(book, s, game);
            let mut events = Vec::with_capacity(2);
            if let Some(open) = close {
                events.push(close_event(book, s, open));
            }
            events.push(RatingEvent::GameQueued { game: game.clone(), period });
            Ok(events)
        }
        RatingSystem::Egf(s) if waits_for_tournament(book, s, game) => {
            Ok(vec![RatingEvent::TournamentGameQueued { game: game.clone() }])
        }
        RatingSystem::Egf(_) | RatingSystem::Elo(_) => {
            let (black, white) = rate_single_game(book, game);
            Ok(vec![RatingEvent::GameRated { game: game.clone(), black, white }])
        }
    }
}

/// EGF: whether a game waits for its tournament to finish (it has one, not rated yet).
pub(crate) fn waits_for_tournament(book: &RatingBook, s: &EgfSettings, game: &RatedGame) -> bool {
    s.rate_by_tournament && game.tournament.as_deref().is_some_and(|t| !book.tournament_rated(t))
}

/// EGF: rates everybody with a waiting game in `tournament`. Returns `(slot, before, after)` in slot
/// order; every game counts against the opponent's rating from before the tournament.
pub(crate) fn egf_tournament_close(book: &RatingBook, tournament: &str) -> Vec<(usize, PlayerRating, PlayerRating)> {
    let Some(games) = book.tournaments.get(tournament) else { return Vec::new() };
    let RatingSystem::Egf(settings) = &book.system else { return Vec::new() };
    let mut by_player: BTreeMap<usize, Vec<EgfTournamentGame>> = BTreeMap::new();
    for g in games {
        let (b, w) = (book.players[g.black].1.rating, book.players[g.white].1.rating);
        by_player.entry(g.black).or_default().push(EgfTournamentGame {
            opponent: w,
            outcome: g.result.for_black(),
            conditions: g.conditions,
            i_am_black: true,
        });
        by_player.entry(g.white).or_default().push(EgfTournamentGame {
            opponent: b,
            outcome: g.result.for_white(),
            conditions: g.conditions,
            i_am_black: false,
        });
    }
    by_player
        .into_iter()
        .map(|(slot, games)| {
            let before = book.players[slot].1;
            let after = PlayerRating {
                rating: egf_tournament(settings, before.rating, &games),
                games: before.games + u32::try_from(games.len()).unwrap_or(u32::MAX),
                ..before
            };
            (slot, before, after)
        })
        .collect()
}

/// Where a Glicko-2 game goes: which open period must close first (if any), and the period it joins.
pub(crate) fn glicko2_placement(book: &RatingBook, s: &Glicko2Settings, game: &RatedGame) -> (Option<i64>, i64) {
    let own = s.period_of(game.ended_at);
    match book.open_period {
        Some(open) if own > open => (Some(open), own),
        Some(open) => (None, open),
        None => (None, book.last_closed.map_or(own, |c| own.max(c + 1))),
    }
}

/// EGF/Elo: both players' updates for one game, from their ratings before it. (Under Glicko-2, which
/// rates by period, this returns the ratings unchanged apart from the game count; it is not called.)
pub(crate) fn rate_single_game(book: &RatingBook, game: &RatedGame) -> (RatingUpdate, RatingUpdate) {
    let b = book.current_or_initial(&game.black);
    let w = book.current_or_initial(&game.white);
    let (nb, nw) = match &book.system {
        RatingSystem::Egf(s) => egf_game(s, &b, &w, game.result, &game.conditions),
        RatingSystem::Elo(s) => elo_game(s, &b, &w, game.result, &game.conditions),
        RatingSystem::Glicko2(_) => (b.rating, w.rating),
    };
    let after = |r: &PlayerRating, new: f64| PlayerRating { rating: new, games: r.games + 1, ..*r };
    (
        RatingUpdate { player: game.black.clone(), before: b, after: after(&b, nb) },
        RatingUpdate { player: game.white.clone(), before: w, after: after(&w, nw) },
    )
}

fn close_event(book: &RatingBook, s: &Glicko2Settings, period: i64) -> RatingEvent {
    let updates = glicko2_close(book, s, period)
        .into_iter()
        .map(|(slot, before, after)| RatingUpdate { player: book.players[slot].0.clone(), before, after })
        .collect();
    RatingEvent::PeriodClosed { period, updates }
}

/// Glicko-2: rates everybody with a game in the open period. Returns `(slot, before, after)` in slot
/// order; `before` includes the inactivity decay up to the start of `period`.
pub(crate) fn glicko2_close(
    book: &RatingBook,
    s: &Glicko2Settings,
    period: i64,
) -> Vec<(usize, PlayerRating, PlayerRating)> {
    let pre = |slot: usize| -> PlayerRating {
        let stored = &book.players[slot].1;
        match stored.period {
            Some(last) => glicko2_decay(s, stored, period - 1 - last),
            None => *stored,
        }
    };
    // (slot, arrival order, opponent as seen through the handicap, outcome)
    let mut entries = Vec::with_capacity(book.pending.len() * 2);
    for (n, g) in book.pending.iter().enumerate() {
        let (b, w) = (pre(g.black), pre(g.white));
        entries.push((g.black, 2 * n, glicko2_opponent(s, &w, &g.conditions, true), g.result.for_black()));
        entries.push((g.white, 2 * n + 1, glicko2_opponent(s, &b, &g.conditions, false), g.result.for_white()));
    }
    entries.sort_unstable_by_key(|e| (e.0, e.1));
    let config = s.config();
    let mut out = Vec::new();
    let mut results = Vec::new();
    let mut i = 0;
    while i < entries.len() {
        let slot = entries[i].0;
        results.clear();
        while i < entries.len() && entries[i].0 == slot {
            results.push((entries[i].2, entries[i].3));
            i += 1;
        }
        let before = pre(slot);
        let new = glicko2_rating_period(&before.glicko(), &results, &config);
        let after = PlayerRating {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
            games: before.games + u32::try_from(results.len()).unwrap_or(u32::MAX),
            period: Some(period),
        };
        out.push((slot, before, after));
    }
    out
}
