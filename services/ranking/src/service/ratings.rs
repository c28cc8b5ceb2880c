//! Ratings: games rated as they end, tournaments as they finish (EGF), periods closed on the tick,
//! seeds from declared ranks, and the ratings read back.

use std::time::Duration;

use futures::StreamExt;
use weiqi_eventlog::{AggregateKind, EventLog, Position, RecordedEvent};
use weiqi_game::domain::types::{GAME_ENDED, RESULT_CORRECTED};
use weiqi_rating::{GameId, PlayerId, RatingBook, RatingCommand, RatingEvent, RatingRejection};

use super::RankingService;
use crate::domain::RankingRejection;
use crate::domain::ledger::rated_players;
use crate::error::RankingError;
use crate::games::{GameLogError, load_game};
use crate::ledger::RatingReport;
use crate::registry::player_aggregate;
use crate::tournaments::FinalResults;

impl RankingService {
    /// Rates a game that ended (rated games only), as read from its log. Returns whether the book
    /// changed.
    ///
    /// # Errors
    /// Faults; a game log that does not replay is `Corrupt` and is never rated.
    pub async fn rate_game(&self, game: &str, position: Option<Position>) -> Result<bool, RankingError> {
        self.ready().await?;
        let record = load_game(&self.log, game).await?;
        let Some(rated) = record.as_ref().and_then(|r| r.rated_game()) else {
            return Ok(false);
        };
        // Recorded before (e.g. when its tournament was rated first), or corrected since: nothing changes.
        if self.ledger.read(|_, state, _| state.knows_game(&rated.id)).await? {
            return Ok(false);
        }
        let players = [rated.black.clone(), rated.white.clone()];
        // A player entered in the registry another way than through this service (`weiqi account add
        // --rank`, a restored backup) starts from their grade, as registration here does.
        for p in &players {
            if self.ledger.read(|book, _, _| book.stored(p).is_none()).await? && player_aggregate(p).is_ok() {
                self.seed_from_held_grade(p).await?;
            }
        }
        let events =
            self.ledger.record(&self.registry, RatingCommand::RecordGame(rated), position.map(Position::raw)).await?;
        let changed = !events.is_empty();
        if changed {
            for p in &players {
                self.promotions_for(p).await?;
            }
        }
        Ok(changed)
    }

    /// EGF: rates a finished tournament's games together (see [`weiqi_rating::RatingCommand::CloseTournament`]).
    /// Every game the final results list is recorded first (from its own log; a game recorded before is
    /// skipped), so a result the game follower has not reached yet is not rated on its own later.
    /// Does nothing under other systems. Returns the number of players rated.
    ///
    /// # Errors
    /// Faults. A listed game whose log does not replay is logged and left out.
    pub async fn close_tournament(&self, results: &FinalResults) -> Result<usize, RankingError> {
        self.ready().await?;
        self.rate_tournament(results).await
    }

    pub(super) async fn rate_tournament(&self, results: &FinalResults) -> Result<usize, RankingError> {
        if !matches!(&self.config.system, weiqi_rating::RatingSystem::Egf(s) if s.rate_by_tournament) {
            return Ok(0);
        }
        let tournament = results.event.id.0.clone();
        if self.ledger.read(|book, _, _| book.tournament_rated(&tournament)).await? {
            return Ok(0);
        }
        let mut games: Vec<&GameId> = results.groups.iter().flat_map(|g| &g.placings).flat_map(|p| &p.games).collect();
        games.sort();
        games.dedup();
        for game in games {
            let record = match load_game(&self.log, &game.0).await {
                Ok(record) => record,
                // As when following games: a log that does not replay is never acted on; the rest of
                // the tournament is still rated.
                Err(GameLogError::Corrupt { game, reason }) => {
                    tracing::error!(%game, %reason, %tournament, "ranking: tournament game not rated");
                    continue;
                }
                Err(e) => return Err(e.into()),
            };
            // A game the book has (recorded, or corrected since) is not recorded again.
            if let Some(rated) = record.and_then(|r| r.rated_game())
                && !self.ledger.read(|_, state, _| state.knows_game(&rated.id)).await?
            {
                self.ledger.record(&self.registry, RatingCommand::RecordGame(rated), None).await?;
            }
        }
        let events = self.ledger.record(&self.registry, RatingCommand::CloseTournament { tournament }, None).await?;
        Ok(events
            .iter()
            .map(|e| match e {
                RatingEvent::TournamentRated { updates, .. } => updates.len(),
                _ => 0,
            })
            .sum())
    }

    /// Closes the open Glicko-2 period if it is over now (the timer calls this). Returns the number
    /// of players rated.
    ///
    /// # Errors
    /// Faults.
    pub async fn close_periods(&self) -> Result<usize, RankingError> {
        self.ready().await?;
        let events = self.ledger.record(&self.registry, RatingCommand::ClosePeriods, None).await?;
        let players = rated_players(&events);
        for p in &players {
            self.promotions_for(p).await?;
        }
        Ok(players.len())
    }

    /// Seeds a new player's rating from a declared grade (the nominal rating of the association's
    /// mapping for the system), if the player has no rated games yet.
    pub(super) async fn seed_from_rank(
        &self,
        player: &PlayerId,
        ladder: &str,
        grade: &str,
    ) -> Result<(), RankingError> {
        let Some(rating) =
            self.rules_for(ladder).and_then(|r| r.mapping(self.config.system.name())).and_then(|m| m.rating_for(grade))
        else {
            return Ok(());
        };
        if self.ledger.read(|book, _, _| book.stored(player).is_some()).await? {
            return Ok(());
        }
        let seed = RatingCommand::Seed { player: player.clone(), rating, deviation: None };
        match self.ledger.record(&self.registry, seed, None).await {
            Ok(_) | Err(RankingError::Rejected(RankingRejection::Rating(RatingRejection::AlreadyRated(_)))) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// The amateur grade `rating` stands for under the association's mapping for the system in force
    /// (the ladder's grade-to-rating map), if the mapping has one.
    #[must_use]
    pub fn grade_for_rating(&self, rating: f64) -> Option<String> {
        self.rules_for("amateur")
            .and_then(|r| r.mapping(self.config.system.name()))
            .and_then(|m| m.grade_for(rating))
            .map(str::to_owned)
    }

    /// A player's rating now: under Glicko-2 with games in the open rating period, the provisional
    /// rating after them (final when the period closes; `pending_games` says how many wait).
    ///
    /// # Errors
    /// Faults while loading.
    pub async fn rating(&self, player: &PlayerId) -> Result<RatingReport, RankingError> {
        self.ready().await?;
        let now = self.now();
        let (view, pending_games) = self
            .ledger
            .read(|book, _, _| (book.view_now(player, now).map(|(v, _)| v), book.pending_games(player)))
            .await?;
        let grade_for_rating = view.and_then(|v| self.grade_for_rating(v.rating));
        Ok(RatingReport { system: self.config.system.name().to_owned(), view, grade_for_rating, pending_games })
    }

    /// A copy of the live rating book.
    ///
    /// # Errors
    /// Faults while loading.
    pub async fn book(&self) -> Result<RatingBook, RankingError> {
        self.ready().await?;
        self.ledger.book().await
    }

    /// The ledger's last sequence.
    ///
    /// # Errors
    /// Faults while loading.
    pub async fn ledger_sequence(&self) -> Result<u64, RankingError> {
        self.ready().await?;
        self.ledger.sequence().await
    }

    /// Follows every game log and rates each rated game when it ends. Runs until aborted; resumes
    /// after the last game in the ledger (and, within a run, after the last event handled).
    pub(super) async fn follow_games(&self) {
        let follower = weiqi_eventlog::Follower::register("ranking_games", AggregateKind::Game);
        let mut backoff = Duration::from_millis(100);
        let mut resume = Position::START;
        loop {
            let from = match self.follow_from().await {
                Ok(from) => from.max(resume),
                Err(e) => {
                    tracing::warn!(error = %e, "ranking: cannot load state, retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(5));
                    continue;
                }
            };
            let mut stream = match self.log.follow(AggregateKind::Game, from).await {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(error = %e, "ranking: cannot follow games, retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(5));
                    continue;
                }
            };
            backoff = Duration::from_millis(100);
            while let Some(item) = stream.next().await {
                match item {
                    Ok(r) if r.event_type == GAME_ENDED || r.event_type == RESULT_CORRECTED => {
                        // Rating a game continues the trace of the command that ended or corrected it.
                        let span =
                            tracing::info_span!("ranking.rate_game", game = %r.aggregate_id, event = %r.event_type);
                        weiqi_telemetry::set_parent(&span, &weiqi_eventlog::trace_of(&r.headers));
                        if let Err(e) = tracing::Instrument::instrument(self.on_game_event(&r), span).await {
                            tracing::warn!(error = %e, game = %r.aggregate_id, "ranking: rating a game failed, resuming");
                            tokio::time::sleep(backoff).await;
                            break;
                        }
                        resume = resume.max(r.position.next());
                        follower.at(r.position);
                    }
                    Ok(r) => {
                        resume = resume.max(r.position.next());
                        follower.at(r.position);
                    }
                    Err(e) => tracing::warn!(error = %e, "ranking: game log follow"),
                }
            }
        }
    }

    async fn follow_from(&self) -> Result<Position, RankingError> {
        self.ready().await?;
        self.ledger.games_from().await
    }

    /// A game's result was corrected in its log (`position`: the correction's): the book counts the game
    /// as its log says now, re-rating it and every later game in order
    /// ([`RatingCommand::CorrectGame`]), and every certification case holding the game as evidence takes
    /// it as verified now ([`RankingService::revise_evidence`]). Returns whether the book changed.
    ///
    /// # Errors
    /// Faults; a game log that does not replay is `Corrupt`.
    pub async fn game_corrected(&self, game: &str, position: Option<Position>) -> Result<bool, RankingError> {
        self.ready().await?;
        let Some(record) = load_game(&self.log, game).await? else {
            return Ok(false);
        };
        let id = GameId(game.to_owned());
        let rated = record.rated_game();
        let counted = self.ledger.read(|_, state, _| state.counted_game(&id).cloned()).await?;
        let mut changed = false;
        if counted != rated {
            let command = RatingCommand::CorrectGame { game: id.clone(), rated };
            let events = self.ledger.record(&self.registry, command, position.map(Position::raw)).await?;
            changed = !events.is_empty();
            for p in rated_players(&events) {
                self.promotions_for(&p).await?;
            }
        }
        self.revise_evidence(&record, position).await?;
        // The tournament's results may have been published again before this game's log was
        // corrected: the placings that list it are verified again now.
        if let Some(tournament) = &record.tournament
            && let Some(results) = self.results.final_results(tournament).await?
        {
            self.revise_placings(&results).await?;
        }
        Ok(changed)
    }

    /// A game ended (rated as its log says) or its result was corrected (re-rated, evidence revised).
    async fn on_game_event(&self, r: &RecordedEvent) -> Result<(), RankingError> {
        let game = r.aggregate_id.as_str();
        let done = if r.event_type == RESULT_CORRECTED {
            self.game_corrected(game, Some(r.position)).await
        } else {
            self.rate_game(game, Some(r.position)).await
        };
        match done {
            Ok(_) => Ok(()),
            // A log that does not replay is never acted on; skip it and say so.
            Err(RankingError::Corrupt(why)) => {
                tracing::error!(game, %why, event = %r.event_type, "ranking: game not rated");
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}
