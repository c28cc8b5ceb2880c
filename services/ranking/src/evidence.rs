//! Evidence is verified, never taken on trust.
//!
//! * A **game** counts if its log replays, it has ended, and the player played in it; the result,
//!   the opponent, the opponent's rank at the time and the event come from the log.
//! * A **tournament result** counts if the results port has the event's final results with the
//!   player placed; every game the placing lists must replay, belong to that tournament, include the
//!   player, and the wins they show (plus byes) must equal the wins claimed.
//! * A **rating** is read from the live book at the time of the check.
//!
//! Anything that fails is refused with the reason (`evidence_refused`); nothing unverified is ever
//! attached. Each check answers `Ok(Err(reason))` for evidence that does not hold, `Err` for a fault.

use weiqi_eventlog::EventLog;
use weiqi_rating::{Evidence, GameId, GameOutcome, PlayerId, VerifiedGame};

use crate::error::RankingError;
use crate::games::{GameLogError, load_game};
use crate::tournaments::TournamentResults;

/// Verifies one game for `player` against its log.
///
/// # Errors
/// Faults of the log or the results port.
pub async fn verify_game<L: EventLog>(
    log: &L,
    results: &dyn TournamentResults,
    player: &PlayerId,
    game: &str,
) -> Result<Result<VerifiedGame, String>, RankingError> {
    let record = match load_game(log, game).await {
        Ok(Some(r)) => r,
        Ok(None) => return Ok(Err(format!("game {game}: no such game"))),
        Err(GameLogError::Corrupt { reason, .. }) => {
            return Ok(Err(format!("game {game}: its log does not replay ({reason})")));
        }
        Err(e) => return Err(e.into()),
    };
    let Some((opponent, opponent_rank)) = record.opponent_of(player) else {
        return Ok(Err(format!("game {game}: {player} did not play in it")));
    };
    let (Some(outcome), Some(at)) = (record.outcome_for(player), record.ended_at) else {
        return Ok(Err(format!("game {game}: not ended with a result")));
    };
    let event = match &record.tournament {
        Some(t) => results.final_results(t).await?.map(|r| r.event),
        None => None,
    };
    Ok(Ok(VerifiedGame {
        game: GameId(game.to_owned()),
        opponent: opponent.clone(),
        opponent_grade: (!opponent_rank.is_empty()).then(|| opponent_rank.to_owned()),
        outcome,
        at,
        event,
    }))
}

/// Verifies a player's placing in a tournament's final results.
///
/// # Errors
/// Faults of the log or the results port.
pub async fn verify_placing<L: EventLog>(
    log: &L,
    results: &dyn TournamentResults,
    player: &PlayerId,
    tournament: &str,
) -> Result<Result<Evidence, String>, RankingError> {
    let Some(results) = results.final_results(tournament).await? else {
        return Ok(Err(format!("tournament {tournament}: no final results")));
    };
    let Some((group, placing)) = results.placing_of(player) else {
        return Ok(Err(format!("tournament {tournament}: {player} is not placed")));
    };
    if !placing.games.is_empty() {
        let mut wins = 0u32;
        for game in &placing.games {
            let record = match load_game(log, &game.0).await {
                Ok(Some(r)) => r,
                Ok(None) => return Ok(Err(format!("tournament {tournament}: game {game} does not exist"))),
                Err(GameLogError::Corrupt { reason, .. }) => {
                    return Ok(Err(format!("tournament {tournament}: game {game} does not replay ({reason})")));
                }
                Err(e) => return Err(e.into()),
            };
            if record.tournament.as_deref() != Some(tournament) {
                return Ok(Err(format!("tournament {tournament}: game {game} belongs to another event")));
            }
            match record.outcome_for(player) {
                Some(GameOutcome::Win) => wins += 1,
                Some(_) => {}
                None if record.opponent_of(player).is_none() => {
                    return Ok(Err(format!("tournament {tournament}: {player} did not play game {game}")));
                }
                None => return Ok(Err(format!("tournament {tournament}: game {game} has no result"))),
            }
        }
        if wins + placing.byes != placing.wins {
            return Ok(Err(format!(
                "tournament {tournament}: {} wins claimed, the game logs show {wins} and {} byes",
                placing.wins, placing.byes
            )));
        }
        let played = u32::try_from(placing.games.len()).unwrap_or(u32::MAX);
        if played + placing.byes > group.rounds {
            return Ok(Err(format!(
                "tournament {tournament}: {played} games and {} byes in {} rounds",
                placing.byes, group.rounds
            )));
        }
    }
    Ok(results.evidence_for(player).map(Evidence::Placing).ok_or_else(|| "not placed".to_owned()))
}
