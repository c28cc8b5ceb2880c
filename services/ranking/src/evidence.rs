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
) -> Result<Result<VerifiedGame, EvidenceProblem>, RankingError> {
    let record = match load_game(log, game).await {
        Ok(Some(r)) => r,
        Ok(None) => return Ok(Err(EvidenceProblem::NoSuchGame { game: game.to_owned() })),
        Err(GameLogError::Corrupt { reason, .. }) => {
            return Ok(Err(EvidenceProblem::GameUnreadable { game: game.to_owned(), reason }));
        }
        Err(e) => return Err(e.into()),
    };
    let Some((opponent, opponent_rank)) = record.opponent_of(player) else {
        return Ok(Err(EvidenceProblem::NotInGame { game: game.to_owned(), player: player.clone() }));
    };
    let (Some(outcome), Some(at)) = (record.outcome_for(player), record.ended_at) else {
        return Ok(Err(EvidenceProblem::GameNotEnded { game: game.to_owned() }));
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
) -> Result<Result<Evidence, EvidenceProblem>, RankingError> {
    let Some(results) = results.final_results(tournament).await? else {
        return Ok(Err(EvidenceProblem::NoFinalResults { tournament: tournament.to_owned() }));
    };
    let Some((group, placing)) = results.placing_of(player) else {
        return Ok(Err(EvidenceProblem::NotPlaced { tournament: tournament.to_owned(), player: player.clone() }));
    };
    if !placing.games.is_empty() {
        let mut wins = 0u32;
        for game in &placing.games {
            let record = match load_game(log, &game.0).await {
                Ok(Some(r)) => r,
                Ok(None) => {
                    return Ok(Err(EvidenceProblem::EventGameMissing {
                        tournament: tournament.to_owned(),
                        game: game.0.clone(),
                    }));
                }
                Err(GameLogError::Corrupt { reason, .. }) => {
                    return Ok(Err(EvidenceProblem::EventGameUnreadable {
                        tournament: tournament.to_owned(),
                        game: game.0.clone(),
                        reason,
                    }));
                }
                Err(e) => return Err(e.into()),
            };
            if record.tournament.as_deref() != Some(tournament) {
                return Ok(Err(EvidenceProblem::GameOfAnotherEvent {
                    tournament: tournament.to_owned(),
                    game: game.0.clone(),
                }));
            }
            match record.outcome_for(player) {
                Some(GameOutcome::Win) => wins += 1,
                Some(_) => {}
                None if record.opponent_of(player).is_none() => {
                    return Ok(Err(EvidenceProblem::NotInEventGame {
                        tournament: tournament.to_owned(),
                        player: player.clone(),
                        game: game.0.clone(),
                    }));
                }
                None => {
                    return Ok(Err(EvidenceProblem::EventGameNoResult {
                        tournament: tournament.to_owned(),
                        game: game.0.clone(),
                    }));
                }
            }
        }
        if wins + placing.byes != placing.wins {
            return Ok(Err(EvidenceProblem::WinsDiffer {
                tournament: tournament.to_owned(),
                claimed: placing.wins,
                wins,
                byes: placing.byes,
            }));
        }
        let played = u32::try_from(placing.games.len()).unwrap_or(u32::MAX);
        if played + placing.byes > group.rounds {
            return Ok(Err(EvidenceProblem::TooManyGames {
                tournament: tournament.to_owned(),
                played,
                byes: placing.byes,
                rounds: group.rounds,
            }));
        }
    }
    Ok(results
        .evidence_for(player)
        .map(Evidence::Placing)
        .ok_or_else(|| EvidenceProblem::NotPlaced { tournament: tournament.to_owned(), player: player.clone() }))
}

/// Why one item of evidence does not verify against the logs: its English line for programs and
/// logs, and its data for pages to say it in their words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvidenceProblem {
    /// No game has this id.
    #[error("game {game}: no such game")]
    NoSuchGame { game: String },
    /// The game's log does not replay.
    #[error("game {game}: its log does not replay ({reason})")]
    GameUnreadable { game: String, reason: String },
    /// The applicant did not play the game.
    #[error("game {game}: {player} did not play in it")]
    NotInGame { game: String, player: PlayerId },
    /// The game has no result yet.
    #[error("game {game}: not ended with a result")]
    GameNotEnded { game: String },
    /// The tournament has not published its final results.
    #[error("tournament {tournament}: no final results")]
    NoFinalResults { tournament: String },
    /// The applicant has no place in the tournament's final results.
    #[error("tournament {tournament}: {player} is not placed")]
    NotPlaced { tournament: String, player: PlayerId },
    /// A game the results list does not exist.
    #[error("tournament {tournament}: game {game} does not exist")]
    EventGameMissing { tournament: String, game: String },
    /// A game the results list does not replay.
    #[error("tournament {tournament}: game {game} does not replay ({reason})")]
    EventGameUnreadable { tournament: String, game: String, reason: String },
    /// A game the results list was played in another event.
    #[error("tournament {tournament}: game {game} belongs to another event")]
    GameOfAnotherEvent { tournament: String, game: String },
    /// The applicant did not play a game the results list for them.
    #[error("tournament {tournament}: {player} did not play game {game}")]
    NotInEventGame { tournament: String, player: PlayerId, game: String },
    /// A game the results list has no result.
    #[error("tournament {tournament}: game {game} has no result")]
    EventGameNoResult { tournament: String, game: String },
    /// The wins the results claim are not the games' wins and byes.
    #[error("tournament {tournament}: {claimed} wins claimed, the game logs show {wins} and {byes} byes")]
    WinsDiffer { tournament: String, claimed: u32, wins: u32, byes: u32 },
    /// More games and byes than rounds.
    #[error("tournament {tournament}: {played} games and {byes} byes in {rounds} rounds")]
    TooManyGames { tournament: String, played: u32, byes: u32, rounds: u32 },
    /// The applicant has no rating to show.
    #[error("{player} has no {system} rating")]
    NoRating { player: PlayerId, system: String },
}
