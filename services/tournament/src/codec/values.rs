//! Small values several events share: player and team numbers, ranks, game references, bye kinds.

use weiqi_pairing::config::ByeKind;
use weiqi_pairing::ids::{GameRef, PlayerId, TeamId};
use weiqi_pairing::rank::Rank;
use weiqi_proto::v1 as pb;

use super::{CodecError, EnumPairs, narrow, required};

/// How a bye scores.
pub(crate) const BYE_KINDS: EnumPairs<ByeKind, pb::TournamentByeKind> = EnumPairs(&[
    (ByeKind::FullPoint, pb::TournamentByeKind::FullPoint),
    (ByeKind::HalfPoint, pb::TournamentByeKind::HalfPoint),
    (ByeKind::ZeroPoint, pb::TournamentByeKind::ZeroPoint),
]);

/// Player numbers for the wire.
pub(crate) fn player_numbers(players: &[PlayerId]) -> Vec<u32> {
    players.iter().map(|p| p.0).collect()
}

/// Stored player numbers.
pub(crate) fn players(numbers: &[u32]) -> Vec<PlayerId> {
    numbers.iter().copied().map(PlayerId).collect()
}

/// Team numbers for the wire.
pub(crate) fn team_numbers(teams: &[TeamId]) -> Vec<u32> {
    teams.iter().map(|t| t.0).collect()
}

/// Stored team numbers.
pub(crate) fn teams(numbers: &[u32]) -> Vec<TeamId> {
    numbers.iter().copied().map(TeamId).collect()
}

/// A rank for the wire.
pub(crate) fn rank_to_pb(rank: Rank) -> pb::TournamentRank {
    use pb::tournament_rank::Grade;
    let (grade, number) = match rank {
        Rank::Kyu(n) => (Grade::Kyu, n),
        Rank::Dan(n) => (Grade::Dan, n),
        Rank::Pro(n) => (Grade::Pro, n),
    };
    pb::TournamentRank { grade: grade.into(), number: u32::from(number) }
}

/// A stored rank; `field` names the message field holding it.
pub(crate) fn rank_from_pb(rank: Option<&pb::TournamentRank>, field: &'static str) -> Result<Rank, CodecError> {
    use pb::tournament_rank::Grade;
    let rank = required(rank, field)?;
    let number = narrow::<u8>(rank.number, "TournamentRank.number")?;
    match Grade::try_from(rank.grade) {
        Ok(Grade::Kyu) => Ok(Rank::Kyu(number)),
        Ok(Grade::Dan) => Ok(Rank::Dan(number)),
        Ok(Grade::Pro) => Ok(Rank::Pro(number)),
        Ok(Grade::Unspecified) | Err(_) => {
            Err(CodecError::UnknownEnum { field: "TournamentRank.grade", value: rank.grade })
        }
    }
}

/// A game reference for the wire.
pub(crate) fn game_ref_to_pb(game: GameRef) -> pb::TournamentGameRef {
    pb::TournamentGameRef { round: game.round, table: game.table }
}

/// A stored game reference; `field` names the message field holding it.
pub(crate) fn game_ref_from_pb(
    game: Option<&pb::TournamentGameRef>,
    field: &'static str,
) -> Result<GameRef, CodecError> {
    let game = required(game, field)?;
    Ok(GameRef { round: game.round, table: game.table })
}
