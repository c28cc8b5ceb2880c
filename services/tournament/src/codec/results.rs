//! Results: recorded, corrected after the fact, forfeited for a no-show; and warnings.

use weiqi_pairing::event::{Correction, TournamentEvent};
use weiqi_pairing::ids::{Color, GameRef, Millis, PlayerId};
use weiqi_pairing::outcome::{GameResult, Outcome, ResultReason};
use weiqi_proto::v1 as pb;

use super::values::{game_ref_from_pb, game_ref_to_pb};
use super::{CodecError, EnumPairs, required};

use pb::tournament_core_result::{Outcome as PbOutcome, Reason as PbReason};
use pb::tournament_result_corrected::Reason as PbCorrection;

const OUTCOMES: EnumPairs<Outcome, PbOutcome> = EnumPairs(&[
    (Outcome::Win(Color::Black), PbOutcome::BlackWins),
    (Outcome::Win(Color::White), PbOutcome::WhiteWins),
    (Outcome::Draw, PbOutcome::Draw),
    (Outcome::BothLose, PbOutcome::BothLose),
    (Outcome::Void, PbOutcome::Void),
]);

const REASONS: EnumPairs<ResultReason, PbReason> = EnumPairs(&[
    (ResultReason::Played, PbReason::Played),
    (ResultReason::Forfeit, PbReason::Forfeit),
    (ResultReason::Referee, PbReason::Referee),
    (ResultReason::Counted, PbReason::Counted),
    (ResultReason::Resignation, PbReason::Resignation),
    (ResultReason::Time, PbReason::Time),
]);

const CORRECTIONS: EnumPairs<Correction, PbCorrection> = EnumPairs(&[
    (Correction::Cheating, PbCorrection::Cheating),
    (Correction::RecordingError, PbCorrection::RecordingError),
]);

/// A result for the wire.
#[must_use]
pub fn result_to_pb(r: &GameResult) -> pb::TournamentCoreResult {
    pb::TournamentCoreResult { outcome: OUTCOMES.encode(r.outcome), reason: REASONS.encode(r.reason) }
}

/// A stored result; `field` names the message field holding it.
///
/// # Errors
/// A [`CodecError`] when the result is missing or its outcome or reason is unknown.
pub fn result_from_pb(r: Option<&pb::TournamentCoreResult>, field: &'static str) -> Result<GameResult, CodecError> {
    let r = required(r, field)?;
    Ok(GameResult {
        outcome: OUTCOMES.decode("TournamentCoreResult.outcome", r.outcome)?,
        reason: REASONS.decode("TournamentCoreResult.reason", r.reason)?,
    })
}

pub(super) fn result_recorded_to_pb(game: GameRef, result: &GameResult, at: Millis) -> pb::TournamentResultRecorded {
    pb::TournamentResultRecorded { game: Some(game_ref_to_pb(game)), result: Some(result_to_pb(result)), at_ms: at.0 }
}

pub(super) fn result_recorded_from_pb(m: &pb::TournamentResultRecorded) -> Result<TournamentEvent, CodecError> {
    Ok(TournamentEvent::ResultRecorded {
        game: game_ref_from_pb(m.game.as_ref(), "TournamentResultRecorded.game")?,
        result: result_from_pb(m.result.as_ref(), "TournamentResultRecorded.result")?,
        at: Millis(m.at_ms),
    })
}

pub(super) fn result_corrected_to_pb(
    game: GameRef,
    result: &GameResult,
    reason: Correction,
    at: Millis,
) -> pb::TournamentResultCorrected {
    pb::TournamentResultCorrected {
        game: Some(game_ref_to_pb(game)),
        result: Some(result_to_pb(result)),
        reason: CORRECTIONS.encode(reason),
        at_ms: at.0,
    }
}

pub(super) fn result_corrected_from_pb(m: &pb::TournamentResultCorrected) -> Result<TournamentEvent, CodecError> {
    Ok(TournamentEvent::ResultCorrected {
        game: game_ref_from_pb(m.game.as_ref(), "TournamentResultCorrected.game")?,
        result: result_from_pb(m.result.as_ref(), "TournamentResultCorrected.result")?,
        reason: CORRECTIONS.decode("TournamentResultCorrected.reason", m.reason)?,
        at: Millis(m.at_ms),
    })
}

pub(super) fn no_show_recorded_to_pb(player: PlayerId, game: GameRef) -> pb::TournamentNoShowRecorded {
    pb::TournamentNoShowRecorded { player: player.0, game: Some(game_ref_to_pb(game)) }
}

pub(super) fn no_show_recorded_from_pb(m: &pb::TournamentNoShowRecorded) -> Result<TournamentEvent, CodecError> {
    Ok(TournamentEvent::NoShowRecorded {
        player: PlayerId(m.player),
        game: game_ref_from_pb(m.game.as_ref(), "TournamentNoShowRecorded.game")?,
    })
}

pub(super) fn warning_issued_to_pb(player: PlayerId, game: GameRef) -> pb::TournamentWarningIssued {
    pb::TournamentWarningIssued { player: player.0, game: Some(game_ref_to_pb(game)) }
}

pub(super) fn warning_issued_from_pb(m: &pb::TournamentWarningIssued) -> Result<TournamentEvent, CodecError> {
    Ok(TournamentEvent::WarningIssued {
        player: PlayerId(m.player),
        game: game_ref_from_pb(m.game.as_ref(), "TournamentWarningIssued.game")?,
    })
}
