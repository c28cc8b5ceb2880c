//! Ratings: the rating ledger and its fan-out to player logs.
//!
//! The rating book of the configured system is one aggregate, the **ledger** (kind `player`, id
//! `_ledger-<system>`): each entry is one input of the book (a rated game as read from its game log,
//! a period-close tick, a seed from a declared rank), the time it was decided at, and the events the
//! rating core produced. Glicko-2 rates everybody who played in a period at once, against ratings
//! from before the period, so one log for the whole book is the natural aggregate. Every rating
//! change is then recorded in the player's own log (`RatingChanged`, with the ledger sequence), which
//! is what the read models and other services consume.
//!
//! Recomputing the book from the ledger's inputs (each game input checked against its game log) gives
//! exactly the live values: see [`crate::recompute`].

use std::time::Duration;

use futures::StreamExt;
use futures::stream::FuturesUnordered;
use weiqi_eventlog::{AggregateKind, AppendError, EventLog, Position, RecordedEvent};
use weiqi_rating::{
    GameId, Millis, PlayerId, RatedGame, RatingBook, RatingCommand, RatingEvent, RatingInput, RatingRejection,
    RatingUpdate, RatingView, decide,
};

use crate::convert::{self, ActorKind, LedgerEntry, Meta};
use crate::error::RankingError;
use crate::games::load_game;
use crate::logs::command_id;
use crate::registry::{PlayerCommand, PlayerState, RatingPoint};
use crate::service::{MAX_CONFLICT_RETRIES, RankingService, State, player_aggregate};

/// Player logs written at once when a period closes.
const FAN_OUT_PARALLELISM: usize = 16;

/// A player's rating as the service reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingReport {
    /// The system.
    pub system: String,
    /// The rating now (`None`: never seen in a rated game nor seeded).
    pub view: Option<RatingView>,
    /// The grade the rating stands for (amateur mapping of the system), if any.
    pub grade_for_rating: Option<String>,
    /// Games recorded and not rated yet: in the open Glicko-2 period, or (EGF) in an unfinished
    /// tournament.
    pub pending_games: u32,
}

impl RankingService {
    /// Applies a ledger entry's events to the in-memory book.
    pub(crate) fn fold_ledger(&self, st: &mut State, entry: &LedgerEntry) {
        for e in &entry.events {
            st.book.evolve(e);
        }
        if let Some(p) = entry.game_position {
            st.games_from = st.games_from.max(Position::from_raw(p).next());
        }
    }

    fn ledger_command_id(&self, input: &RatingInput, book: &RatingBook) -> String {
        let system = self.config.system.name();
        match &input.command {
            RatingCommand::RecordGame(g) => format!("ledger/{system}/game/{}", g.id),
            RatingCommand::Seed { player, .. } => format!("ledger/{system}/seed/{player}"),
            RatingCommand::ClosePeriods => {
                format!("ledger/{system}/close/{}", book.open_period().map_or(-1, |p| p))
            }
            RatingCommand::CloseTournament { tournament } => format!("ledger/{system}/tournament/{tournament}"),
        }
    }

    /// Decides one input of the book and appends it to the ledger, then fans it out. Returns the
    /// events (none if the input changes nothing, e.g. a game rated before).
    pub(crate) async fn ledger_input(
        &self,
        st: &mut State,
        input: RatingInput,
        game_position: Option<u64>,
    ) -> Result<Vec<RatingEvent>, RankingError> {
        for _ in 0..MAX_CONFLICT_RETRIES {
            let events = match decide(&st.book, &input.command, input.at) {
                Ok(events) => events,
                Err(RatingRejection::DuplicateGame(_)) => Vec::new(),
                Err(r) => return Err(r.into()),
            };
            if events.is_empty() {
                if let Some(p) = game_position {
                    st.games_from = st.games_from.max(Position::from_raw(p).next());
                }
                return Ok(events);
            }
            let description = self.ledger_command_id(&input, &st.book);
            let entry = LedgerEntry { input: input.clone(), events, game_position };
            let meta = Meta {
                causation: description.clone(),
                actor: ActorKind::System,
                actor_id: self.config.service_id.clone(),
                at: input.at,
            };
            let event = convert::ledger_event(&entry, &meta);
            let cid = command_id(&description);
            match self.log.append(AggregateKind::Player, &self.ledger, st.ledger_sequence, &cid, &[event]).await {
                Ok(outcome) if !outcome.duplicate => {
                    self.fold_ledger(st, &entry);
                    st.ledger_sequence = outcome.last_sequence;
                    self.fan_out(st, outcome.last_sequence, &entry).await?;
                    return Ok(entry.events);
                }
                Ok(_) | Err(AppendError::Conflict { .. }) => {
                    // Entries appended by an earlier try of ours (a duplicate) or by another instance:
                    // fold them and make sure their changes reached the players (idempotent).
                    for (sequence, entry) in self.reload_ledger(st).await? {
                        self.fan_out(st, sequence, &entry).await?;
                    }
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(RankingError::Internal("rating ledger: conflicts did not settle".into()))
    }

    /// Records every rating change of ledger entry `sequence` in the players' logs (idempotent).
    pub(crate) async fn fan_out(&self, st: &mut State, sequence: u64, entry: &LedgerEntry) -> Result<(), RankingError> {
        let mut points: Vec<(PlayerId, RatingPoint)> = Vec::new();
        let point =
            |u: &RatingUpdate, game: Option<GameId>, period: Option<i64>, tournament: Option<&str>| RatingPoint {
                system: self.config.system.name().to_owned(),
                rating: u.after.rating,
                deviation: u.after.deviation,
                volatility: u.after.volatility,
                games: u.after.games,
                provisional: self.config.system.is_provisional(&u.after),
                rating_before: u.before.rating,
                deviation_before: u.before.deviation,
                game,
                period,
                tournament: tournament.map(str::to_owned),
                ledger_sequence: sequence,
                at: entry.input.at,
            };
        for e in &entry.events {
            match e {
                RatingEvent::GameRated { game, black, white } => {
                    let t = game.tournament.as_deref();
                    points.push((black.player.clone(), point(black, Some(game.id.clone()), None, t)));
                    points.push((white.player.clone(), point(white, Some(game.id.clone()), None, t)));
                }
                RatingEvent::PeriodClosed { period, updates } => {
                    points.extend(updates.iter().map(|u| (u.player.clone(), point(u, None, Some(*period), None))));
                }
                RatingEvent::TournamentRated { tournament, updates } => {
                    points.extend(updates.iter().map(|u| (u.player.clone(), point(u, None, None, Some(tournament)))));
                }
                RatingEvent::PlayerSeeded { .. }
                | RatingEvent::GameQueued { .. }
                | RatingEvent::TournamentGameQueued { .. } => {}
            }
        }
        // A player appears at most once per entry except in two games of one EGF/Elo entry, which
        // cannot happen (one game per entry); keep the last point per player anyway.
        let mut work: Vec<(PlayerId, RatingPoint, PlayerState)> = Vec::new();
        for (player, p) in points {
            if player_aggregate(&player).is_err() {
                tracing::warn!(%player, "rated player id is not a log name: rating kept in the book only");
                continue;
            }
            work.retain(|(q, _, _)| *q != player);
            let state = st.players.remove(&player).unwrap_or_default();
            work.push((player, p, state));
        }
        let service_id = self.config.service_id.clone();
        let mut tasks: FuturesUnordered<_> = FuturesUnordered::new();
        let mut results = Vec::new();
        let mut queue = work.into_iter();
        loop {
            while tasks.len() < FAN_OUT_PARALLELISM {
                let Some((player, p, state)) = queue.next() else { break };
                let service_id = service_id.clone();
                tasks.push(async move {
                    let mut state = if state.version == 0 { self.read_player(&player, state).await? } else { state };
                    let cid = command_id(&format!("rating/{}/{player}", p.ledger_sequence));
                    let command = PlayerCommand::RecordRating(p);
                    self.player_command(&mut state, &player, &command, &cid, (ActorKind::System, &service_id)).await?;
                    Ok::<_, RankingError>((player, state))
                });
            }
            match tasks.next().await {
                Some(r) => results.push(r),
                None => break,
            }
        }
        let mut first_error = None;
        for r in results {
            match r {
                Ok((player, state)) => {
                    st.players.insert(player, state);
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match first_error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Rates a game that ended (rated games only), as read from its log. Returns whether the book
    /// changed.
    ///
    /// # Errors
    /// Faults; a game log that does not replay is `Internal` and is never rated.
    pub async fn rate_game(&self, game: &str, position: Option<Position>) -> Result<bool, RankingError> {
        let record = load_game(&self.log, game).await?;
        let rated = record.as_ref().and_then(|r| r.rated_game());
        let mut st = self.lock().await?;
        let Some(rated) = rated else {
            if let Some(p) = position {
                st.games_from = st.games_from.max(p.next());
            }
            return Ok(false);
        };
        let changed = self.record_rated(&mut st, rated, position).await?;
        let players = [record.as_ref().map(|r| r.black.clone()), record.map(|r| r.white)];
        drop(st);
        if changed {
            for p in players.into_iter().flatten() {
                self.consider_promotion(&p).await?;
            }
        }
        Ok(changed)
    }

    async fn record_rated(
        &self,
        st: &mut State,
        game: RatedGame,
        position: Option<Position>,
    ) -> Result<bool, RankingError> {
        if st.book.has_game(&game.id) {
            // Recorded before (e.g. when its tournament was rated first): only the follower moves on.
            if let Some(p) = position {
                st.games_from = st.games_from.max(p.next());
            }
            return Ok(false);
        }
        // The game service's clock decided the end; never decide before it.
        let at = Millis(self.clock.now().0.max(game.ended_at.0));
        let events = self
            .ledger_input(st, RatingInput { at, command: RatingCommand::RecordGame(game) }, position.map(Position::raw))
            .await?;
        Ok(!events.is_empty())
    }

    /// EGF: rates a finished tournament's games together (see [`weiqi_rating::RatingCommand::CloseTournament`]).
    /// Every game the final results list is recorded first (from its own log; a game recorded before is
    /// skipped), so a result the game follower has not reached yet is not rated on its own later.
    /// Does nothing under other systems. Returns the number of players rated.
    ///
    /// # Errors
    /// Faults. A listed game whose log does not replay is logged and left out.
    pub async fn close_tournament(&self, results: &crate::tournaments::FinalResults) -> Result<usize, RankingError> {
        if !matches!(&self.config.system, weiqi_rating::RatingSystem::Egf(s) if s.rate_by_tournament) {
            return Ok(0);
        }
        let tournament = results.event.id.0.clone();
        if self.lock().await?.book.tournament_rated(&tournament) {
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
                Err(crate::games::GameLogError::Corrupt { game, reason }) => {
                    tracing::error!(%game, %reason, %tournament, "ranking: tournament game not rated");
                    continue;
                }
                Err(e) => return Err(e.into()),
            };
            if let Some(rated) = record.and_then(|r| r.rated_game()) {
                let mut st = self.lock().await?;
                self.record_rated(&mut st, rated, None).await?;
            }
        }
        let mut st = self.lock().await?;
        let input = RatingInput { at: self.clock.now(), command: RatingCommand::CloseTournament { tournament } };
        let events = self.ledger_input(&mut st, input, None).await?;
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
        let mut st = self.lock().await?;
        let input = RatingInput { at: self.clock.now(), command: RatingCommand::ClosePeriods };
        let events = self.ledger_input(&mut st, input, None).await?;
        let players: Vec<PlayerId> = events
            .iter()
            .flat_map(|e| match e {
                RatingEvent::PeriodClosed { updates, .. } => updates.iter().map(|u| u.player.clone()).collect(),
                _ => Vec::new(),
            })
            .collect();
        drop(st);
        for p in &players {
            self.consider_promotion(p).await?;
        }
        Ok(players.len())
    }

    /// Seeds a new player's rating from a declared grade (the nominal rating of the association's
    /// mapping for the system), if the player has no rated games yet.
    pub(crate) async fn seed_from_rank(
        &self,
        st: &mut State,
        player: &PlayerId,
        ladder: &str,
        grade: &str,
    ) -> Result<(), RankingError> {
        let Some(rating) =
            self.rules_for(ladder).and_then(|r| r.mapping(self.config.system.name())).and_then(|m| m.rating_for(grade))
        else {
            return Ok(());
        };
        if st.book.stored(player).is_some() {
            return Ok(());
        }
        let input = RatingInput {
            at: self.clock.now(),
            command: RatingCommand::Seed { player: player.clone(), rating, deviation: None },
        };
        match self.ledger_input(st, input, None).await {
            Ok(_) | Err(RankingError::Rejected { code: "already_rated", .. }) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// A player's rating now.
    ///
    /// # Errors
    /// Faults while loading.
    pub async fn rating(&self, player: &PlayerId) -> Result<RatingReport, RankingError> {
        let st = self.lock().await?;
        let now = self.clock.now();
        let view = st.book.view(player, now);
        let grade_for_rating = view.and_then(|v| {
            self.rules_for("amateur")
                .and_then(|r| r.mapping(self.config.system.name()))
                .and_then(|m| m.grade_for(v.rating))
                .map(str::to_owned)
        });
        Ok(RatingReport {
            system: self.config.system.name().to_owned(),
            view,
            grade_for_rating,
            pending_games: st.book.pending_games(player),
        })
    }

    /// A copy of the live rating book.
    ///
    /// # Errors
    /// Faults while loading.
    pub async fn book(&self) -> Result<RatingBook, RankingError> {
        Ok(self.lock().await?.book.clone())
    }

    /// The ledger's last sequence.
    ///
    /// # Errors
    /// Faults while loading.
    pub async fn ledger_sequence(&self) -> Result<u64, RankingError> {
        Ok(self.lock().await?.ledger_sequence)
    }

    /// Follows every game log and rates each rated game when it ends. Runs until aborted; resumes
    /// after the last game in the ledger.
    pub(crate) async fn follow_games(&self) {
        let mut backoff = Duration::from_millis(100);
        loop {
            let from = match self.lock().await {
                Ok(st) => st.games_from,
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
                    Ok(r) if r.event_type == "weiqi.v1.GameEnded" => {
                        if let Err(e) = self.on_game_ended(&r).await {
                            tracing::warn!(error = %e, game = %r.aggregate_id, "ranking: rating a game failed, resuming");
                            tokio::time::sleep(backoff).await;
                            break;
                        }
                    }
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "ranking: game log follow"),
                }
            }
        }
    }

    async fn on_game_ended(&self, r: &RecordedEvent) -> Result<(), RankingError> {
        match self.rate_game(r.aggregate_id.as_str(), Some(r.position)).await {
            Ok(_) => Ok(()),
            // A log that does not replay is never acted on; skip it and say so.
            Err(RankingError::Internal(why)) => {
                tracing::error!(game = %r.aggregate_id, %why, "ranking: game not rated");
                let mut st = self.lock().await?;
                st.games_from = st.games_from.max(r.position.next());
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}
