//! The rating ledger aggregate (pure): the rating book of the configured system, one entry per input.
//!
//! ```text
//! decide_ledger(&LedgerState, &LedgerCommand, now) -> Result<Vec<LedgerEntry>, RankingRejection>
//! LedgerState::evolve(&mut self, &LedgerEntry)
//! ```
//!
//! Each entry is one input of the book (a rated game as read from its game log, a period-close tick, a
//! seed from a declared rank, a tournament closed), the time it was decided at, and the events the
//! rating core produced. Glicko-2 rates everybody who played in a period at once, against ratings from
//! before the period, so one log for the whole book is the natural aggregate. An input that changes
//! nothing (a game rated before, no period to close) decides no entry.
//!
//! Every rating change of an entry is then recorded in the player's own log ([`rating_points`]).

use std::sync::OnceLock;

use weiqi_rating::{
    GameId, Millis, PlayerId, RatedGame, RatingBook, RatingCommand, RatingEvent, RatingInput, RatingRejection,
    RatingSystem, RatingUpdate,
};

use super::RankingRejection;
use super::player::RatingPoint;

/// One entry of the rating ledger: an input of the rating book, the events it produced, and where
/// the game came from in the game log.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LedgerEntry {
    /// The command and the time it was decided at.
    pub input: RatingInput,
    /// What it did to the book.
    pub events: Vec<RatingEvent>,
    /// The `GameEnded` event's position in the game log (for games).
    pub game_position: Option<u64>,
    /// Glicko-2, a game queued in the open period: its players' ratings as if the period closed now
    /// ([`RatingBook::provisional`]). Derived, never folded into the book.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub provisional: Vec<RatingUpdate>,
}

/// What the service asks of the ledger.
#[derive(Clone, Debug, PartialEq)]
pub struct LedgerCommand {
    /// The book's system (configuration: every command names it, see [`LedgerState::book`]).
    pub system: RatingSystem,
    /// The input.
    pub command: RatingCommand,
    /// For a game: its `GameEnded` event's position in the game log.
    pub game_position: Option<u64>,
}

/// The ledger folded: the rating book and where the game follower resumes.
///
/// The book's system is configuration, which a state made by `Default` (as the runner makes it) cannot
/// know; so the entries folded before anyone asks are kept as events, and the book is built from them
/// for the configured system the first time it is asked for ([`LedgerState::book`]), then evolved in
/// place. One ledger runs one system: its aggregate id names it.
///
/// Every input is kept too: a correction ([`RatingCommand::CorrectGame`]) re-rates the corrected game and
/// every later one in order, which only the inputs allow ([`weiqi_rating::decide_correction`]); once a
/// ledger holds a correction its book is the inputs recomputed ([`weiqi_rating::recompute`]), the same
/// formulas as the live path.
#[derive(Clone, Debug, Default)]
pub struct LedgerState {
    book: OnceLock<RatingBook>,
    /// Rating events folded before the book was built.
    backlog: Vec<RatingEvent>,
    /// Every input, in order.
    inputs: Vec<RatingInput>,
    /// Every game an input names, as the book counts it now (its last correction, else as recorded;
    /// `None`: a correction took it out): a lookup for each ended game, not a scan of the inputs.
    games: std::collections::HashMap<GameId, Option<RatedGame>>,
    /// Whether an input is a correction (the book is then rebuilt from the inputs).
    corrected: bool,
    /// The highest game-log position of a game entry.
    last_game_position: Option<u64>,
}

impl LedgerState {
    /// The book of `system` (built on first use from the entries folded so far).
    pub fn book(&self, system: &RatingSystem) -> &RatingBook {
        self.book.get_or_init(|| {
            if self.corrected { self.rebuilt(system) } else { weiqi_rating::replay(system.clone(), &self.backlog) }
        })
    }

    /// The book recomputed from the inputs (every one was accepted when it was decided, so the
    /// recompute accepts them; should one be refused, the events replayed instead).
    fn rebuilt(&self, system: &RatingSystem) -> RatingBook {
        weiqi_rating::recompute(system.clone(), &self.inputs)
            .unwrap_or_else(|_| weiqi_rating::replay(system.clone(), &self.backlog))
    }

    /// Whether any input names the game (recorded, or corrected): it is then the book's already, and a
    /// change to it is a correction, never a second recording.
    #[must_use]
    pub fn knows_game(&self, game: &GameId) -> bool {
        self.games.contains_key(game)
    }

    /// The game as the book counts it now: its last correction, else as recorded; `None` when the
    /// book never counted it (or a correction took it out).
    #[must_use]
    pub fn counted_game(&self, game: &GameId) -> Option<&RatedGame> {
        self.games.get(game)?.as_ref()
    }

    /// The game-log position of the last game entry, if any (the game follower resumes after it).
    #[must_use]
    pub fn last_game_position(&self) -> Option<u64> {
        self.last_game_position
    }

    /// Applies one entry.
    pub fn evolve(&mut self, entry: &LedgerEntry) {
        match &entry.input.command {
            RatingCommand::RecordGame(g) => {
                self.games.insert(g.id.clone(), Some(g.clone()));
            }
            RatingCommand::CorrectGame { game, rated } => {
                self.games.insert(game.clone(), rated.clone());
            }
            _ => {}
        }
        self.inputs.push(entry.input.clone());
        let correction = matches!(entry.input.command, RatingCommand::CorrectGame { .. });
        self.corrected |= correction;
        match self.book.get_mut() {
            Some(book) => {
                if !self.backlog.is_empty() {
                    // Folded into the book when it was built.
                    self.backlog = Vec::new();
                }
                for e in &entry.events {
                    book.evolve(e);
                }
                // A correction re-rates what followed the game: the book is the inputs recomputed
                // (should they not recompute, the correction's updates stand).
                if correction && let Ok(rebuilt) = weiqi_rating::recompute(book.system().clone(), &self.inputs) {
                    *book = rebuilt;
                }
            }
            None => self.backlog.extend(entry.events.iter().cloned()),
        }
        if let Some(p) = entry.game_position {
            self.last_game_position = Some(self.last_game_position.map_or(p, |q| q.max(p)));
        }
    }
}

/// When an input is decided: a game never before it ended (the game service's clock decided the end),
/// anything else now.
#[must_use]
pub fn decision_time(command: &RatingCommand, now: Millis) -> Millis {
    match command {
        RatingCommand::RecordGame(game) => Millis(now.0.max(game.ended_at.0)),
        RatingCommand::CorrectGame { rated: Some(game), .. } => Millis(now.0.max(game.ended_at.0)),
        _ => now,
    }
}

/// Decides one input of the book. Pure: `now` is the decision time. No entry when the input changes
/// nothing (a game recorded before included).
///
/// # Errors
/// [`RankingRejection::Rating`] when the rating core refuses the input.
pub fn decide_ledger(
    state: &LedgerState,
    command: &LedgerCommand,
    now: Millis,
) -> Result<Vec<LedgerEntry>, RankingRejection> {
    let at = decision_time(&command.command, now);
    let book = state.book(&command.system);
    let decided = match &command.command {
        RatingCommand::CorrectGame { game, rated } => {
            if state.counted_game(game) == rated.as_ref() {
                // The book already counts the game so: nothing to re-rate.
                return Ok(Vec::new());
            }
            weiqi_rating::decide_correction(book, &state.inputs, game, rated.as_ref(), at)
        }
        other => weiqi_rating::decide(book, other, at),
    };
    let events = match decided {
        Ok(events) => events,
        Err(RatingRejection::DuplicateGame(_)) => Vec::new(),
        Err(r) => return Err(r.into()),
    };
    if events.is_empty() {
        return Ok(Vec::new());
    }
    // A game queued in the open Glicko-2 period: both players' provisional ratings after it, so the
    // pages show a rating from the first game (the close makes it final).
    let provisional = match events.iter().find_map(|e| match e {
        RatingEvent::GameQueued { game, .. } => Some(game),
        _ => None,
    }) {
        Some(game) => {
            let mut after = book.clone();
            for e in &events {
                after.evolve(e);
            }
            after.provisional(&[game.black.clone(), game.white.clone()])
        }
        None => Vec::new(),
    };
    Ok(vec![LedgerEntry {
        input: RatingInput { at, command: command.command.clone() },
        events,
        game_position: command.game_position,
        provisional,
    }])
}

/// The description a ledger command's id is derived from (`ledger/<system>/...`, `system` the
/// system's name): the same logical input always gets the same id, so it is appended once. Closing
/// periods names the period open now (`open_period`). It is also the cause the entry's envelope
/// records.
#[must_use]
pub fn command_description(
    system: &str,
    command: &RatingCommand,
    open_period: Option<i64>,
    game_position: Option<u64>,
) -> String {
    match command {
        RatingCommand::RecordGame(g) => format!("ledger/{system}/game/{}", g.id),
        RatingCommand::Seed { player, .. } => format!("ledger/{system}/seed/{player}"),
        RatingCommand::ClosePeriods => format!("ledger/{system}/close/{}", open_period.map_or(-1, |p| p)),
        RatingCommand::CloseTournament { tournament } => format!("ledger/{system}/tournament/{tournament}"),
        // One entry per result the game's log records for it (its outcome and how it counts).
        RatingCommand::CorrectGame { game, rated } => {
            let counts = rated.as_ref().map_or("unrated".to_owned(), |g| format!("{:?}", g.result));
            format!("ledger/{system}/correct/{game}/{counts}/{}", game_position.map_or(-1, |p| p as i64))
        }
    }
}

/// The description of the command that appended `entry` (see [`command_description`]): a closed
/// period is the one its event names.
#[must_use]
pub fn entry_description(system: &str, entry: &LedgerEntry) -> String {
    let closed = entry.events.iter().find_map(|e| match e {
        RatingEvent::PeriodClosed { period, .. } => Some(*period),
        _ => None,
    });
    command_description(system, &entry.input.command, closed, entry.game_position)
}

/// Every rating change of ledger entry `sequence`, as the players' logs record it: one point per
/// player (the last one, should a player appear twice).
#[must_use]
pub fn rating_points(system: &RatingSystem, sequence: u64, entry: &LedgerEntry) -> Vec<(PlayerId, RatingPoint)> {
    let point = |u: &RatingUpdate, game: Option<GameId>, period: Option<i64>, tournament: Option<&str>| RatingPoint {
        open_period: false,
        system: system.name().to_owned(),
        rating: u.after.rating,
        deviation: u.after.deviation,
        volatility: u.after.volatility,
        games: u.after.games,
        provisional: system.is_provisional(&u.after),
        rating_before: u.before.rating,
        deviation_before: u.before.deviation,
        game,
        period,
        tournament: tournament.map(str::to_owned),
        ledger_sequence: sequence,
        at: entry.input.at,
    };
    let mut points: Vec<(PlayerId, RatingPoint)> = Vec::new();
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
            RatingEvent::GameCorrected { game, updates, .. } => {
                points.extend(updates.iter().map(|u| (u.player.clone(), point(u, Some(game.clone()), None, None))));
            }
            RatingEvent::GameQueued { game, .. } => {
                // Provisional, until the period closes.
                let t = game.tournament.as_deref();
                points.extend(entry.provisional.iter().map(|u| {
                    let mut p = point(u, Some(game.id.clone()), None, t);
                    p.open_period = true;
                    p.provisional = true;
                    (u.player.clone(), p)
                }));
            }
            RatingEvent::PlayerSeeded { .. } | RatingEvent::TournamentGameQueued { .. } => {}
        }
    }
    let mut last: Vec<(PlayerId, RatingPoint)> = Vec::with_capacity(points.len());
    for (player, p) in points {
        last.retain(|(q, _)| *q != player);
        last.push((player, p));
    }
    last
}

/// The players whose rating an entry's events changed.
#[must_use]
pub fn rated_players(events: &[RatingEvent]) -> Vec<PlayerId> {
    events
        .iter()
        .flat_map(|e| match e {
            RatingEvent::PeriodClosed { updates, .. }
            | RatingEvent::TournamentRated { updates, .. }
            | RatingEvent::GameCorrected { updates, .. } => updates.iter().map(|u| u.player.clone()).collect(),
            _ => Vec::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use weiqi_rating::{EgfSettings, GameConditions, RatedGame, RatedResult};

    use super::*;

    fn game(id: &str, ended_at: i64, tournament: Option<&str>) -> RatedGame {
        RatedGame {
            id: GameId::from(id),
            black: PlayerId::from("ann"),
            white: PlayerId::from("bob"),
            result: RatedResult::BlackWins,
            conditions: GameConditions::even(),
            ended_at: Millis(ended_at),
            tournament: tournament.map(str::to_owned),
        }
    }

    fn command(system: &RatingSystem, command: RatingCommand, game_position: Option<u64>) -> LedgerCommand {
        LedgerCommand { system: system.clone(), command, game_position }
    }

    fn run(state: &mut LedgerState, c: &LedgerCommand, now: i64) -> Vec<LedgerEntry> {
        let entries = decide_ledger(state, c, Millis(now)).unwrap();
        for e in &entries {
            state.evolve(e);
        }
        entries
    }

    #[test]
    fn given_an_egf_ledger_when_a_game_is_recorded_then_one_entry_rates_both_and_a_repeat_records_nothing() {
        let egf = RatingSystem::Egf(EgfSettings::default());
        let mut state = LedgerState::default();
        let record = command(&egf, RatingCommand::RecordGame(game("g-1", 50, None)), Some(7));
        // Decided now, but never before the game ended.
        let entries = run(&mut state, &record, 40);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].input.at, Millis(50));
        assert_eq!(entries[0].game_position, Some(7));
        assert_eq!(state.last_game_position(), Some(7));
        assert_eq!(entry_description("egf", &entries[0]), "ledger/egf/game/g-1");
        let points = rating_points(&egf, 3, &entries[0]);
        assert_eq!(points.iter().map(|(p, _)| p.0.as_str()).collect::<Vec<_>>(), ["ann", "bob"]);
        assert!(points.iter().all(|(_, p)| p.ledger_sequence == 3 && p.game == Some(GameId::from("g-1"))));
        assert!(points[0].1.rating > points[0].1.rating_before, "the winner gains");
        assert!(run(&mut state, &record, 60).is_empty(), "a game recorded before decides nothing");
        assert_eq!(state.book(&egf).game_count(), 1);
    }

    #[test]
    fn given_no_open_period_when_closing_then_nothing_and_a_refused_seed_is_a_rejection() {
        let glicko = RatingSystem::default();
        let mut state = LedgerState::default();
        assert!(run(&mut state, &command(&glicko, RatingCommand::ClosePeriods, None), 10).is_empty());
        let queued = run(&mut state, &command(&glicko, RatingCommand::RecordGame(game("g-1", 5, None)), None), 10);
        assert_eq!(queued.len(), 1);
        // A queued game changes no stored rating yet; its players' logs get provisional points, the
        // ratings the period's close would give them now.
        assert_eq!(state.book(&glicko).stored(&PlayerId::from("ann")).map(|r| r.games), Some(0));
        let points = rating_points(&glicko, 1, &queued[0]);
        assert_eq!(points.len(), 2, "{points:?}");
        assert!(points.iter().all(|(_, p)| p.open_period && p.provisional && p.games == 1 && p.period.is_none()));
        let preview = state.book(&glicko).provisional(&[PlayerId::from("ann")]);
        assert_eq!(points.iter().find(|(p, _)| p.0 == "ann").map(|(_, p)| p.rating), Some(preview[0].after.rating));
        assert_eq!(
            command_description(glicko.name(), &RatingCommand::ClosePeriods, state.book(&glicko).open_period(), None),
            format!("ledger/glicko2/close/{}", state.book(&glicko).open_period().unwrap())
        );
        let seed = RatingCommand::Seed { player: PlayerId::from("ann"), rating: 2000.0, deviation: None };
        assert!(matches!(
            decide_ledger(&state, &command(&glicko, seed, None), Millis(11)),
            Err(RankingRejection::Rating(RatingRejection::AlreadyRated(_)))
        ));
    }

    #[test]
    fn entries_folded_before_the_book_is_asked_for_build_the_same_book() {
        let egf = RatingSystem::Egf(EgfSettings::default());
        let mut live = LedgerState::default();
        let mut entries = Vec::new();
        for (n, id) in ["g-1", "g-2", "g-3"].iter().enumerate() {
            let c = command(&egf, RatingCommand::RecordGame(game(id, n as i64, Some("cup"))), None);
            entries.extend(run(&mut live, &c, 100));
        }
        let c = command(&egf, RatingCommand::CloseTournament { tournament: "cup".into() }, None);
        let closed = run(&mut live, &c, 200);
        assert_eq!(rated_players(&closed[0].events).len(), 2);
        entries.extend(closed);
        let mut replayed = LedgerState::default();
        for e in &entries {
            replayed.evolve(e);
        }
        let (a, b) = (live.book(&egf), replayed.book(&egf));
        assert_eq!(format!("{:?}", a.iter().collect::<Vec<_>>()), format!("{:?}", b.iter().collect::<Vec<_>>()));
        assert!(b.tournament_rated("cup"));
    }
}
