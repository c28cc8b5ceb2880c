//! The rating book: every player's rating in one system, built only by [`RatingBook::evolve`].

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::rating_log::{RatingEvent, RatingUpdate};
use crate::system::{PlayerRating, RatingSystem, glicko2_decay};
use crate::{GameConditions, GameId, Millis, PlayerId, RatedResult};

/// A rated game as the rating core needs it (from a `GameEnded` event of a game created as rated).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatedGame {
    /// The game.
    pub id: GameId,
    /// The player with Black.
    pub black: PlayerId,
    /// The player with White.
    pub white: PlayerId,
    /// Who won.
    pub result: RatedResult,
    /// Handicap stones and komi.
    pub conditions: GameConditions,
    /// When the game ended.
    pub ended_at: Millis,
    /// The tournament the game was played in, if any (EGF rates a tournament's games together).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
}

/// What a caller sees of one player's rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingView {
    /// The rating.
    pub rating: f64,
    /// Glicko-2 deviation including inactivity decay up to the asked time (0 for EGF and Elo).
    pub deviation: f64,
    /// Glicko-2 volatility (0 for EGF and Elo).
    pub volatility: f64,
    /// Rated games counted.
    pub games: u32,
    /// Whether the rating is provisional.
    pub provisional: bool,
}

/// A Glicko-2 game waiting for its period to close, with both players resolved to book slots.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PendingGame {
    pub black: usize,
    pub white: usize,
    pub result: RatedResult,
    pub conditions: GameConditions,
}

/// Every player's rating in one system: the state of the rating decider.
///
/// Invariant: the book changes only through [`RatingBook::evolve`] (or [`crate::recompute`], which
/// shares every formula with it), so replaying the same events always gives bit-identical ratings.
#[derive(Clone, Debug)]
pub struct RatingBook {
    pub(crate) system: RatingSystem,
    pub(crate) index: HashMap<PlayerId, usize>,
    pub(crate) players: Vec<(PlayerId, PlayerRating)>,
    pub(crate) seen: HashSet<GameId>,
    /// Glicko-2: the period now collecting games, and its games in arrival order.
    pub(crate) open_period: Option<i64>,
    /// Glicko-2: the last period closed; later games never join an earlier period.
    pub(crate) last_closed: Option<i64>,
    pub(crate) pending: Vec<PendingGame>,
    /// EGF: games of unfinished tournaments, waiting to be rated together, by tournament.
    pub(crate) tournaments: BTreeMap<String, Vec<PendingGame>>,
    /// EGF: tournaments already rated; a late game of one is rated on its own.
    pub(crate) closed_tournaments: HashSet<String>,
}

impl RatingBook {
    /// An empty book for `system`.
    #[must_use]
    pub fn new(system: RatingSystem) -> RatingBook {
        RatingBook {
            system,
            index: HashMap::new(),
            players: Vec::new(),
            seen: HashSet::new(),
            open_period: None,
            last_closed: None,
            pending: Vec::new(),
            tournaments: BTreeMap::new(),
            closed_tournaments: HashSet::new(),
        }
    }

    /// The system this book runs.
    #[must_use]
    pub fn system(&self) -> &RatingSystem {
        &self.system
    }

    /// Number of players with a rating.
    #[must_use]
    pub fn player_count(&self) -> usize {
        self.players.len()
    }

    /// Number of distinct games recorded.
    #[must_use]
    pub fn game_count(&self) -> usize {
        self.seen.len()
    }

    /// Whether a game has already been recorded.
    #[must_use]
    pub fn has_game(&self, id: &GameId) -> bool {
        self.seen.contains(id)
    }

    /// Glicko-2: the rating period currently collecting games, if any.
    #[must_use]
    pub fn open_period(&self) -> Option<i64> {
        self.open_period
    }

    /// Games of `player` recorded but not rated yet: in the open Glicko-2 period, or (EGF) in a
    /// tournament that has not finished.
    #[must_use]
    pub fn pending_games(&self, player: &PlayerId) -> u32 {
        let Some(slot) = self.slot(player) else { return 0 };
        let mine = |g: &&PendingGame| g.black == slot || g.white == slot;
        let n = self.pending.iter().filter(mine).count()
            + self.tournaments.values().flat_map(|games| games.iter()).filter(mine).count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// EGF: tournaments with games recorded and not rated yet.
    pub fn open_tournaments(&self) -> impl Iterator<Item = &str> {
        self.tournaments.keys().map(String::as_str)
    }

    /// EGF: whether a tournament has been rated (its later games are rated one by one).
    #[must_use]
    pub fn tournament_rated(&self, tournament: &str) -> bool {
        self.closed_tournaments.contains(tournament)
    }

    /// The stored rating of a player (for Glicko-2: as of the end of their last rated period).
    #[must_use]
    pub fn stored(&self, player: &PlayerId) -> Option<&PlayerRating> {
        self.index.get(player).map(|&i| &self.players[i].1)
    }

    /// All players with their stored ratings, in the order they first appeared.
    pub fn iter(&self) -> impl Iterator<Item = (&PlayerId, &PlayerRating)> {
        self.players.iter().map(|(p, r)| (p, r))
    }

    /// A player's rating as seen at `now`: Glicko-2 deviations grow for every fully elapsed period
    /// without games. `None` for a player never seen.
    #[must_use]
    pub fn view(&self, player: &PlayerId, now: Millis) -> Option<RatingView> {
        let stored = self.stored(player)?;
        let r = match &self.system {
            RatingSystem::Glicko2(s) => match stored.period {
                Some(last) => {
                    let current = s.period_of(now);
                    glicko2_decay(s, stored, current - 1 - last)
                }
                None => *stored,
            },
            _ => *stored,
        };
        Some(RatingView {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            games: r.games,
            provisional: self.system.is_provisional(&r),
        })
    }

    pub(crate) fn slot(&self, player: &PlayerId) -> Option<usize> {
        self.index.get(player).copied()
    }

    pub(crate) fn slot_or_insert(&mut self, player: &PlayerId) -> usize {
        if let Some(&i) = self.index.get(player) {
            return i;
        }
        let i = self.players.len();
        self.players.push((player.clone(), self.system.initial()));
        self.index.insert(player.clone(), i);
        i
    }

    /// The rating a player brings into a computation (a new player gets the initial rating).
    pub(crate) fn current_or_initial(&self, player: &PlayerId) -> PlayerRating {
        self.stored(player).copied().unwrap_or_else(|| self.system.initial())
    }

    /// Applies one event. Events carry the new values, so evolve does no rating arithmetic.
    pub fn evolve(&mut self, event: &RatingEvent) {
        match event {
            RatingEvent::PlayerSeeded { player, rating } => {
                let i = self.slot_or_insert(player);
                self.players[i].1 = *rating;
            }
            RatingEvent::GameRated { game, black, white } => {
                self.seen.insert(game.id.clone());
                self.apply_update(black);
                self.apply_update(white);
            }
            RatingEvent::GameQueued { game, period } => {
                self.seen.insert(game.id.clone());
                let black = self.slot_or_insert(&game.black);
                let white = self.slot_or_insert(&game.white);
                self.open_period = Some(*period);
                self.pending.push(PendingGame { black, white, result: game.result, conditions: game.conditions });
            }
            RatingEvent::TournamentGameQueued { game } => {
                self.seen.insert(game.id.clone());
                let black = self.slot_or_insert(&game.black);
                let white = self.slot_or_insert(&game.white);
                let tournament = game.tournament.clone().unwrap_or_default();
                self.tournaments.entry(tournament).or_default().push(PendingGame {
                    black,
                    white,
                    result: game.result,
                    conditions: game.conditions,
                });
            }
            RatingEvent::TournamentRated { tournament, updates } => {
                for u in updates {
                    self.apply_update(u);
                }
                self.tournaments.remove(tournament);
                self.closed_tournaments.insert(tournament.clone());
            }
            RatingEvent::GameCorrected { game, rated, updates, open_period } => {
                if rated.is_some() {
                    self.seen.insert(game.clone());
                } else {
                    self.seen.remove(game);
                }
                for u in updates {
                    self.apply_update(u);
                }
                self.open_period = *open_period;
            }
            RatingEvent::PeriodClosed { period, updates } => {
                for u in updates {
                    self.apply_update(u);
                }
                if self.open_period == Some(*period) {
                    self.open_period = None;
                    self.pending.clear();
                }
                self.last_closed = Some(self.last_closed.map_or(*period, |c| c.max(*period)));
            }
        }
    }

    fn apply_update(&mut self, u: &RatingUpdate) {
        let i = self.slot_or_insert(&u.player);
        self.players[i].1 = u.after;
    }
}

impl RatingBook {
    /// Glicko-2: the ratings `players` would have if the open rating period closed now, computed by
    /// the same formulas as its close ([`crate::rating_log`]'s `glicko2_close`) over every game queued
    /// in it: a provisional rating after each game, made final when the period closes (Glickman's
    /// "rating period"). Players without a game in the open period, and every other system, have none.
    #[must_use]
    pub fn provisional(&self, players: &[PlayerId]) -> Vec<RatingUpdate> {
        let (RatingSystem::Glicko2(s), Some(period)) = (&self.system, self.open_period) else {
            return Vec::new();
        };
        let slots: Vec<usize> = players.iter().filter_map(|p| self.slot(p)).collect();
        crate::rating_log::glicko2_close(self, s, period)
            .into_iter()
            .filter(|(slot, _, _)| slots.contains(slot))
            .map(|(slot, before, after)| RatingUpdate { player: self.players[slot].0.clone(), before, after })
            .collect()
    }

    /// A player's rating now as a reader sees it: under Glicko-2 with games in the open period, the
    /// provisional rating after them (`true`); else [`RatingBook::view`] (`false`).
    #[must_use]
    pub fn view_now(&self, player: &PlayerId, now: Millis) -> Option<(RatingView, bool)> {
        if let Some(u) = self.provisional(std::slice::from_ref(player)).into_iter().next() {
            let r = u.after;
            let view = RatingView {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
                games: r.games,
                provisional: true,
            };
            return Some((view, true));
        }
        self.view(player, now).map(|v| (v, false))
    }

    /// A player's rating at `now` as promotion evidence ([`crate::RatingSample`]).
    #[must_use]
    pub fn sample(&self, player: &PlayerId, now: Millis) -> Option<crate::RatingSample> {
        let v = self.view(player, now)?;
        Some(crate::RatingSample {
            system: self.system.name().to_owned(),
            rating: v.rating,
            deviation: v.deviation,
            games: v.games,
            at: now,
        })
    }
}
