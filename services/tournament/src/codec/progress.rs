//! The field as the event runs: the start, withdrawals with their Art. 28 rulings, eliminations,
//! reprieves, and the champion at the end.

use weiqi_pairing::event::{Champion, TournamentEvent, WithdrawalReason, WithdrawalRuling};
use weiqi_pairing::ids::{Millis, PlayerId, TeamId};
use weiqi_proto::v1 as pb;

use super::{CodecError, EnumPairs, required};

use pb::tournament_player_withdrawn::{Reason as PbReason, Ruling as PbRuling};

const REASONS: EnumPairs<WithdrawalReason, PbReason> = EnumPairs(&[
    (WithdrawalReason::Request, PbReason::Request),
    (WithdrawalReason::NoShows, PbReason::NoShows),
    (WithdrawalReason::Disqualified, PbReason::Disqualified),
]);

const RULINGS: EnumPairs<WithdrawalRuling, PbRuling> = EnumPairs(&[
    (WithdrawalRuling::ResultsVoid, PbRuling::ResultsVoid),
    (WithdrawalRuling::ResultsStandRestForfeited, PbRuling::ResultsStandRestForfeited),
    (WithdrawalRuling::ResultsStandNotPaired, PbRuling::ResultsStandNotPaired),
]);

pub(super) fn started_to_pb(at: Millis) -> pb::TournamentStarted {
    pb::TournamentStarted { at_ms: at.0 }
}

pub(super) fn started_from_pb(m: &pb::TournamentStarted) -> TournamentEvent {
    TournamentEvent::Started { at: Millis(m.at_ms) }
}

pub(super) fn player_withdrawn_to_pb(
    player: PlayerId,
    after_round: u32,
    reason: WithdrawalReason,
    ruling: WithdrawalRuling,
) -> pb::TournamentPlayerWithdrawn {
    pb::TournamentPlayerWithdrawn {
        player: player.0,
        after_round,
        reason: REASONS.encode(reason),
        ruling: RULINGS.encode(ruling),
    }
}

pub(super) fn player_withdrawn_from_pb(m: &pb::TournamentPlayerWithdrawn) -> Result<TournamentEvent, CodecError> {
    Ok(TournamentEvent::PlayerWithdrawn {
        player: PlayerId(m.player),
        after_round: m.after_round,
        reason: REASONS.decode("TournamentPlayerWithdrawn.reason", m.reason)?,
        ruling: RULINGS.decode("TournamentPlayerWithdrawn.ruling", m.ruling)?,
    })
}

pub(super) fn player_eliminated_to_pb(player: PlayerId, round: u32) -> pb::TournamentPlayerEliminated {
    pb::TournamentPlayerEliminated { player: player.0, round }
}

pub(super) fn player_eliminated_from_pb(m: &pb::TournamentPlayerEliminated) -> TournamentEvent {
    TournamentEvent::PlayerEliminated { player: PlayerId(m.player), round: m.round }
}

pub(super) fn player_reprieved_to_pb(player: PlayerId, round: u32) -> pb::TournamentPlayerReprieved {
    pb::TournamentPlayerReprieved { player: player.0, round }
}

pub(super) fn player_reprieved_from_pb(m: &pb::TournamentPlayerReprieved) -> TournamentEvent {
    TournamentEvent::PlayerReprieved { player: PlayerId(m.player), round: m.round }
}

pub(super) fn finished_to_pb(champion: Champion) -> pb::TournamentFinished {
    use pb::tournament_champion::{Nobody, Winner};
    let winner = match champion {
        Champion::Player(p) => Winner::Player(p.0),
        Champion::Team(t) => Winner::Team(t.0),
        Champion::None => Winner::Nobody(Nobody {}),
    };
    pb::TournamentFinished { champion: Some(pb::TournamentChampion { winner: Some(winner) }) }
}

pub(super) fn finished_from_pb(m: &pb::TournamentFinished) -> Result<TournamentEvent, CodecError> {
    use pb::tournament_champion::Winner;
    let champion = required(m.champion.as_ref(), "TournamentFinished.champion")?;
    let champion = match required(champion.winner.as_ref(), "TournamentChampion.winner")? {
        Winner::Player(p) => Champion::Player(PlayerId(*p)),
        Winner::Team(t) => Champion::Team(TeamId(*t)),
        Winner::Nobody(_) => Champion::None,
    };
    Ok(TournamentEvent::Finished { champion })
}
