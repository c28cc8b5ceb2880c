//! Tournaments' final results ⇄ `weiqi.v1.RankingResults`, the body the results port
//! ([`crate::tournaments::ResultsLog`]) stores under [`super::RESULTS_TYPE`].

use weiqi_proto::v1 as pb;
use weiqi_rating::{EventLevel, EventRef, GameId, Millis, PlayerId};

use crate::tournaments::{FinalResults, Placing, ResultsGroup};

/// Tournament results as the ranking port carries them.
#[must_use]
pub fn results_pb(r: &FinalResults) -> pb::RankingResults {
    pb::RankingResults {
        tournament_id: r.event.id.0.clone(),
        name: r.event.name.clone(),
        kind: r.event.kind.clone(),
        level: r.event.level.name().to_owned(),
        ended_at_ms: r.ended_at.0,
        groups: r
            .groups
            .iter()
            .map(|g| pb::RankingResultsGroup {
                group: g.group.clone().unwrap_or_default(),
                rounds: g.rounds,
                field_by_grade: g.field_by_grade.iter().map(|(k, v)| (k.clone(), *v)).collect(),
                placings: g
                    .placings
                    .iter()
                    .map(|p| pb::RankingPlacing {
                        player_id: p.player.0.clone(),
                        place: p.place,
                        wins: p.wins,
                        byes: p.byes,
                        game_ids: p.games.iter().map(|g| g.0.clone()).collect(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Why results cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadResults {
    /// The level is not one of the known names.
    #[error("unknown event level {0:?}")]
    UnknownLevel(String),
    /// No tournament id.
    #[error("results without a tournament id")]
    NoTournament,
}

/// Results from their message.
///
/// # Errors
/// [`BadResults`] for an unknown level or a missing id.
pub fn results_from_pb(m: &pb::RankingResults) -> Result<FinalResults, BadResults> {
    if m.tournament_id.is_empty() {
        return Err(BadResults::NoTournament);
    }
    let level = EventLevel::from_name(&m.level).ok_or_else(|| BadResults::UnknownLevel(m.level.clone()))?;
    Ok(FinalResults {
        event: EventRef { id: m.tournament_id.as_str().into(), name: m.name.clone(), kind: m.kind.clone(), level },
        ended_at: Millis(m.ended_at_ms),
        groups: m
            .groups
            .iter()
            .map(|g| ResultsGroup {
                group: (!g.group.is_empty()).then(|| g.group.clone()),
                rounds: g.rounds,
                field_by_grade: g.field_by_grade.iter().map(|(k, v)| (k.clone(), *v)).collect(),
                placings: g
                    .placings
                    .iter()
                    .map(|p| Placing {
                        player: PlayerId(p.player_id.clone()),
                        place: p.place,
                        wins: p.wins,
                        byes: p.byes,
                        games: p.game_ids.iter().map(|g| GameId(g.clone())).collect(),
                    })
                    .collect(),
            })
            .collect(),
    })
}
