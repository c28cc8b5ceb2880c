//! Outcomes, reasons, results and counts.

use weiqi_proto::v1 as pb;
use weiqi_rules::{Color, HalfPoints, Komi, Score, ScoreResult, Scoring, SideCount};

use super::rules::{scoring_from_pb, scoring_to_pb};
use crate::domain::{EndReason, GameResult, Outcome};

wire_enum!(
    /// How a game ended, to and from the wire.
    outcome_to_pb, outcome_from_pb, "outcome", Outcome => pb::game_result::Outcome {
        Outcome::BlackWins => pb::game_result::Outcome::BlackWins,
        Outcome::WhiteWins => pb::game_result::Outcome::WhiteWins,
        Outcome::Draw => pb::game_result::Outcome::Draw,
        Outcome::BothLose => pb::game_result::Outcome::BothLose,
        Outcome::NoResult => pb::game_result::Outcome::NoResult,
        Outcome::Replay => pb::game_result::Outcome::Replay,
    }
);

wire_enum!(
    /// Why a game ended, to and from the wire.
    reason_to_pb, reason_from_pb, "end reason", EndReason => pb::game_result::Reason {
        EndReason::Score => pb::game_result::Reason::Score,
        EndReason::Resignation => pb::game_result::Reason::Resignation,
        EndReason::Time => pb::game_result::Reason::Time,
        EndReason::Forfeit => pb::game_result::Reason::Forfeit,
        EndReason::Warnings => pb::game_result::Reason::Warnings,
        EndReason::Referee => pb::game_result::Reason::Referee,
        EndReason::Lateness => pb::game_result::Reason::Lateness,
        EndReason::Cycle => pb::game_result::Reason::Cycle,
    }
);

/// The result on the wire, with its SGF and Chinese forms.
pub fn result_to_pb(r: &GameResult) -> pb::GameResult {
    let margin = r.score.as_ref().map_or(0, |s| s.result.margin.0.unsigned_abs());
    pb::GameResult {
        outcome: outcome_to_pb(r.outcome) as i32,
        reason: reason_to_pb(r.reason) as i32,
        margin_half_points: margin,
        sgf: r.to_sgf(),
        stones: r.score.as_ref().map(|s| s.result.in_stones()).unwrap_or_default(),
    }
}

fn side_count_to_pb(s: &SideCount) -> pb::score_detail::Side {
    pb::score_detail::Side {
        stones: s.stones,
        territory: s.territory,
        prisoners: s.prisoners,
        dead: s.dead,
        seki_eyes: s.seki_eyes,
        groups: s.groups,
    }
}

fn side_count_from_pb(s: &Option<pb::score_detail::Side>) -> SideCount {
    s.as_ref()
        .map(|s| SideCount {
            stones: s.stones,
            territory: s.territory,
            prisoners: s.prisoners,
            dead: s.dead,
            seki_eyes: s.seki_eyes,
            groups: s.groups,
        })
        .unwrap_or_default()
}

/// The count on the wire.
pub fn score_to_pb(s: &Score) -> pb::ScoreDetail {
    pb::ScoreDetail {
        black: Some(side_count_to_pb(&s.black)),
        white: Some(side_count_to_pb(&s.white)),
        dame: s.dame,
        komi_half_points: s.komi.0,
        handicap_compensation_half_points: s.handicap_compensation.0,
        black_warnings: s.warnings[0],
        white_warnings: s.warnings[1],
        black_total_half_points: s.black_total.0,
        white_total_half_points: s.white_total.0,
        black_area_halves: s.black_area_halves(),
        white_area_halves: s.white_area_halves(),
        scoring: scoring_to_pb(s.scoring) as i32,
    }
}

pub(crate) fn score_from_pb(s: &pb::ScoreDetail) -> Score {
    let scoring =
        pb::ruleset::Scoring::try_from(s.scoring).ok().and_then(scoring_from_pb).unwrap_or(Scoring::AreaDameSplit);
    let diff = i64::from(s.black_total_half_points) - i64::from(s.white_total_half_points);
    Score {
        scoring,
        black: side_count_from_pb(&s.black),
        white: side_count_from_pb(&s.white),
        dame: s.dame,
        komi: Komi(s.komi_half_points),
        handicap_compensation: HalfPoints(s.handicap_compensation_half_points),
        warnings: [s.black_warnings, s.white_warnings],
        black_total: HalfPoints(s.black_total_half_points),
        white_total: HalfPoints(s.white_total_half_points),
        result: ScoreResult {
            winner: match diff.signum() {
                1 => Some(Color::Black),
                -1 => Some(Color::White),
                _ if scoring == Scoring::Ing => Some(Color::Black),
                _ => None,
            },
            margin: HalfPoints::saturating(diff.abs()),
        },
    }
}
