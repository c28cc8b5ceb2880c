//! Games as the ranking service reads them: a game's log replayed through the game domain (position
//! hashes checked), reduced to what ratings and evidence need.
//!
//! # Which games are rated
//!
//! A game is rated when it was created with `rated` set and ended with a win or a draw, except a
//! forfeit or lateness result (Art. 22: no game was played). Both-lose, no-result and replay
//! outcomes are not rated. Handicap and komi come from the setup: stones, the komi given, the
//! ruleset's standard komi (6.5 under territory scoring, 7.5 under area scoring) and the handicap
//! compensation White receives (Chinese rules: one point per stone, from two stones up).

use weiqi_eventlog::{AggregateId, AggregateKind, EventLog, LogError};
use weiqi_game::convert::decode_recorded;
use weiqi_game::domain::{EndReason, GameEvent, GameResult, GameState, Outcome};
use weiqi_rating::{GameConditions, GameId, GameOutcome, Millis, PlayerId, RatedGame, RatedResult};
use weiqi_rules::{HandicapCompensation, Ruleset, Scoring};

/// A game, as its log says.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The game.
    pub id: GameId,
    /// Black.
    pub black: PlayerId,
    /// White.
    pub white: PlayerId,
    /// Black's rank as frozen at creation.
    pub black_rank: String,
    /// White's rank as frozen at creation.
    pub white_rank: String,
    /// Created as rated.
    pub rated: bool,
    /// The tournament, if any.
    pub tournament: Option<String>,
    /// The result, once ended.
    pub result: Option<GameResult>,
    /// When it ended.
    pub ended_at: Option<Millis>,
    /// Handicap and komi.
    pub conditions: GameConditions,
}

/// Why a game log cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum GameLogError {
    /// The log cannot be reached.
    #[error(transparent)]
    Log(#[from] LogError),
    /// The log does not replay (hash mismatch, undecodable event): never acted on.
    #[error("game {game}: {reason}")]
    Corrupt {
        /// The game.
        game: String,
        /// Why.
        reason: String,
    },
}

/// The handicap and komi of a game under its ruleset.
#[must_use]
pub fn conditions(ruleset: &Ruleset, stones: u8) -> GameConditions {
    let standard_komi = match ruleset.scoring {
        Scoring::Territory => 6.5,
        Scoring::Area | Scoring::AreaDameSplit => 7.5,
        // Ing's komi of 8 with ties to Black is the even game under Ing's counting.
        Scoring::Ing => 8.0,
    };
    let compensation = if stones >= 2 {
        match ruleset.handicap_compensation {
            HandicapCompensation::None => 0.0,
            HandicapCompensation::N => f64::from(stones),
            HandicapCompensation::NMinusOne => f64::from(stones - 1),
        }
    } else {
        0.0
    };
    GameConditions { stones, komi: ruleset.komi.points(), standard_komi, compensation }
}

impl GameRecord {
    /// The game for the rating book, if it is rated and its result counts.
    #[must_use]
    pub fn rated_game(&self) -> Option<RatedGame> {
        if !self.rated {
            return None;
        }
        let result = self.result.as_ref()?;
        if matches!(result.reason, EndReason::Forfeit | EndReason::Lateness) {
            return None;
        }
        let rated = match result.outcome {
            Outcome::BlackWins => RatedResult::BlackWins,
            Outcome::WhiteWins => RatedResult::WhiteWins,
            Outcome::Draw => RatedResult::Jigo,
            Outcome::BothLose | Outcome::NoResult | Outcome::Replay => return None,
        };
        Some(RatedGame {
            id: self.id.clone(),
            black: self.black.clone(),
            white: self.white.clone(),
            result: rated,
            conditions: self.conditions,
            ended_at: self.ended_at?,
            tournament: self.tournament.clone(),
        })
    }

    /// The result for `player`, if they played and the game ended with one.
    #[must_use]
    pub fn outcome_for(&self, player: &PlayerId) -> Option<GameOutcome> {
        let result = self.result.as_ref()?;
        let black = if *player == self.black {
            true
        } else if *player == self.white {
            false
        } else {
            return None;
        };
        match result.outcome {
            Outcome::BlackWins => Some(if black { GameOutcome::Win } else { GameOutcome::Loss }),
            Outcome::WhiteWins => Some(if black { GameOutcome::Loss } else { GameOutcome::Win }),
            Outcome::Draw => Some(GameOutcome::Draw),
            Outcome::BothLose => Some(GameOutcome::Loss),
            Outcome::NoResult | Outcome::Replay => None,
        }
    }

    /// The opponent of `player` and the opponent's rank at creation.
    #[must_use]
    pub fn opponent_of(&self, player: &PlayerId) -> Option<(&PlayerId, &str)> {
        if *player == self.black {
            Some((&self.white, &self.white_rank))
        } else if *player == self.white {
            Some((&self.black, &self.black_rank))
        } else {
            None
        }
    }
}

/// Reads and replays one game's log; `Ok(None)` if the game does not exist or has no colors yet.
///
/// # Errors
/// [`GameLogError`] when the log cannot be read or does not replay.
pub async fn load_game<L: EventLog>(log: &L, game: &str) -> Result<Option<GameRecord>, GameLogError> {
    let corrupt = |reason: String| GameLogError::Corrupt { game: game.to_owned(), reason };
    let Ok(id) = AggregateId::new(game) else {
        return Ok(None);
    };
    let events = log.read(AggregateKind::Game, &id, 1).await?;
    if events.is_empty() {
        return Ok(None);
    }
    let mut state = GameState::default();
    let mut ended_at = None;
    for r in &events {
        let event = decode_recorded(r).map_err(corrupt)?.event;
        if let GameEvent::Ended { at, .. } = &event {
            ended_at = Some(Millis(at.0));
        }
        state.evolve(&event).map_err(|e| corrupt(e.to_string()))?;
    }
    let (Some(setup), Some(black), Some(white)) = (&state.setup, &state.black, &state.white) else {
        return Ok(None);
    };
    Ok(Some(GameRecord {
        id: GameId(game.to_owned()),
        black: PlayerId(black.id.0.clone()),
        white: PlayerId(white.id.0.clone()),
        black_rank: black.rank.clone(),
        white_rank: white.rank.clone(),
        rated: setup.rated,
        tournament: setup.tournament.as_ref().map(|t| t.id.clone()),
        conditions: conditions(&setup.ruleset, setup.handicap),
        result: state.result.clone(),
        ended_at,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_follow_the_ruleset() {
        let chinese = Ruleset::chinese();
        let even = conditions(&chinese, 0);
        assert_eq!((even.komi, even.standard_komi, even.compensation), (7.5, 7.5, 0.0));
        assert!(even.effective_handicap().abs() < 1e-12);
        let mut four = Ruleset::chinese();
        four.komi = weiqi_rules::Komi::from_points(0.5).unwrap();
        let c = conditions(&four, 4);
        assert_eq!(c.compensation, 4.0);
        assert!((c.effective_handicap() - (3.0 + 3.0 / 14.0)).abs() < 1e-12);
        let mut japanese = Ruleset::japanese();
        japanese.komi = weiqi_rules::Komi::from_points(0.5).unwrap();
        let j = conditions(&japanese, 3);
        assert_eq!((j.standard_komi, j.compensation), (6.5, 0.0));
        assert!((j.effective_handicap() - 2.5).abs() < 1e-12);
    }

    fn record(outcome: Outcome, reason: EndReason, rated: bool) -> GameRecord {
        GameRecord {
            id: GameId::from("g"),
            black: PlayerId::from("b"),
            white: PlayerId::from("w"),
            black_rank: "1k".into(),
            white_rank: "1d".into(),
            rated,
            tournament: None,
            result: Some(GameResult { outcome, reason, score: None }),
            ended_at: Some(Millis(9)),
            conditions: GameConditions::even(),
        }
    }

    #[test]
    fn which_games_are_rated() {
        let table = [
            (Outcome::BlackWins, EndReason::Resignation, true, Some(RatedResult::BlackWins)),
            (Outcome::WhiteWins, EndReason::Time, true, Some(RatedResult::WhiteWins)),
            (Outcome::Draw, EndReason::Score, true, Some(RatedResult::Jigo)),
            (Outcome::BlackWins, EndReason::Forfeit, true, None),
            (Outcome::WhiteWins, EndReason::Lateness, true, None),
            (Outcome::BothLose, EndReason::Referee, true, None),
            (Outcome::NoResult, EndReason::Cycle, true, None),
            (Outcome::BlackWins, EndReason::Resignation, false, None),
        ];
        for (outcome, reason, rated, want) in table {
            let got = record(outcome, reason, rated).rated_game().map(|g| g.result);
            assert_eq!(got, want, "{outcome:?} {reason:?} rated={rated}");
        }
        let r = record(Outcome::WhiteWins, EndReason::Resignation, true);
        assert_eq!(r.outcome_for(&PlayerId::from("w")), Some(GameOutcome::Win));
        assert_eq!(r.outcome_for(&PlayerId::from("b")), Some(GameOutcome::Loss));
        assert_eq!(r.outcome_for(&PlayerId::from("x")), None);
        assert_eq!(r.opponent_of(&PlayerId::from("b")), Some((&PlayerId::from("w"), "1d")));
    }
}
