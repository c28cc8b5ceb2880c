//! Every game event, both ways.

use weiqi_clock::{DurationMs, Millis};
use weiqi_proto::v1 as pb;
use weiqi_rules::Move;

use super::basics::{color_from_pb, color_to_pb, lag_from_pb, lag_to_pb, point_from_pb, point_to_pb, points_from_pb};
use super::results::{outcome_from_pb, reason_from_pb, result_to_pb, score_from_pb, score_to_pb};
use super::rules::{bank_from_pb, bank_to_pb, snapshot_from_pb, snapshot_to_pb};
use super::setup::{setup_from_pb, setup_to_pb};
use super::{DecodeError, bytes32, err, need};
use crate::domain::{ColorMethod, GameEvent, GameResult, PlayerId};

/// A domain event on the wire.
pub fn event_to_pb(e: &GameEvent) -> pb::GameEvent {
    use pb::game_event::Kind as K;
    let kind = match e {
        GameEvent::Created(s) => K::Created(setup_to_pb(s)),
        GameEvent::NigiriCommitted { holder, commitment, secret } => K::NigiriCommitted(pb::NigiriCommitted {
            holder: holder.0.clone(),
            commitment: commitment.to_vec(),
            secret: secret.to_vec(),
        }),
        GameEvent::NigiriGuessed { guesser, even } => {
            K::NigiriGuessed(pb::NigiriGuessed { guesser: guesser.0.clone(), even: *even })
        }
        GameEvent::NigiriRevealed { secret, stones, guess_correct } => K::NigiriRevealed(pb::NigiriRevealed {
            secret: secret.to_vec(),
            stones: *stones,
            guess_correct: *guess_correct,
        }),
        GameEvent::ColorsDecided { black, white, method } => K::ColorsDecided(pb::ColorsDecided {
            black: black.0.clone(),
            white: white.0.clone(),
            method: match method {
                ColorMethod::Fixed => pb::colors_decided::Method::Fixed,
                ColorMethod::Nigiri => pb::colors_decided::Method::Nigiri,
            } as i32,
        }),
        GameEvent::HandicapPlaced { points } => {
            K::HandicapPlaced(pb::HandicapPlaced { points: points.iter().copied().map(point_to_pb).collect() })
        }
        GameEvent::Started { at } => K::Started(pb::GameStarted { at_ms: at.0 }),
        GameEvent::StonePlayed {
            color,
            point,
            captures,
            suicided,
            hash,
            number,
            at,
            lag,
            cycle,
            from_sealed,
            clock,
        } => K::StonePlayed(pb::StonePlayed {
            color: color_to_pb(*color),
            point: Some(point_to_pb(*point)),
            captures: captures.iter().copied().map(point_to_pb).collect(),
            position_hash: *hash,
            move_number: *number,
            at_ms: at.0,
            clock: snapshot_to_pb(clock),
            lag: lag_to_pb(lag),
            cycle: *cycle,
            from_sealed: *from_sealed,
            suicided: suicided.iter().copied().map(point_to_pb).collect(),
        }),
        GameEvent::Passed { color, number, at, lag, clock } => K::Passed(pb::Passed {
            color: color_to_pb(*color),
            move_number: *number,
            at_ms: at.0,
            clock: snapshot_to_pb(clock),
            lag: lag_to_pb(lag),
        }),
        GameEvent::Resigned { color, at } => K::Resigned(pb::Resigned { color: color_to_pb(*color), at_ms: at.0 }),
        GameEvent::WarningIssued { color, reason, count } => {
            K::WarningIssued(pb::WarningIssued { color: color_to_pb(*color), reason: reason.clone(), count: *count })
        }
        GameEvent::ColorsSwapped => K::ColorsSwapped(pb::ColorsSwapped::default()),
        GameEvent::OfferAccepted { by } => K::OfferAccepted(pb::OfferAccepted { by: by.0.clone() }),
        GameEvent::MoveVoided { color, mv, reason, taken_back, ground, at } => K::MoveVoided(pb::MoveVoided {
            color: color_to_pb(*color),
            point: match mv {
                Move::Play(p) => Some(point_to_pb(*p)),
                Move::Pass => None,
            },
            reason: reason.clone(),
            taken_back: *taken_back,
            ground: void_ground_to_pb(*ground),
            at_ms: at.0,
        }),
        GameEvent::Paused { reason, at } => K::Paused(pb::Paused { reason: reason.clone(), at_ms: at.0 }),
        GameEvent::Resumed { at } => K::Resumed(pb::Resumed { at_ms: at.0 }),
        GameEvent::Adjourned { sealer, sealed, at, lag } => K::Adjourned(pb::Adjourned {
            sealer: color_to_pb(*sealer),
            sealed_point: match sealed {
                Move::Play(p) => Some(point_to_pb(*p)),
                Move::Pass => None,
            },
            sealed_pass: *sealed == Move::Pass,
            at_ms: at.0,
            lag: lag_to_pb(lag),
        }),
        GameEvent::SealedMoveRevealed { sealer, mv, at } => K::SealedMoveRevealed(pb::SealedMoveRevealed {
            sealer: color_to_pb(*sealer),
            point: match mv {
                Move::Play(p) => Some(point_to_pb(*p)),
                Move::Pass => None,
            },
            pass: *mv == Move::Pass,
            at_ms: at.0,
        }),
        GameEvent::ScoringStarted { at } => K::ScoringStarted(pb::ScoringStarted { at_ms: at.0 }),
        GameEvent::DeadStonesSuggested { points, seki } => K::DeadStonesSuggested(pb::DeadStonesSuggested {
            points: points.iter().copied().map(point_to_pb).collect(),
            seki: seki.iter().copied().map(point_to_pb).collect(),
        }),
        GameEvent::DeadChainsMarked { by, points } => K::DeadChainsMarked(pb::DeadChainsMarked {
            by: color_to_pb(*by),
            points: points.iter().copied().map(point_to_pb).collect(),
        }),
        GameEvent::ScoreAccepted { by } => K::ScoreAccepted(pb::ScoreAccepted { by: color_to_pb(*by) }),
        GameEvent::ScoreDisputed { by } => K::ScoreDisputed(pb::ScoreDisputed { by: color_to_pb(*by) }),
        GameEvent::PlayResumed { first, at } => {
            K::PlayResumed(pb::PlayResumed { first: color_to_pb(*first), at_ms: at.0 })
        }
        GameEvent::TimeExpired { color, deadline, at, counted_as_pass } => K::TimeExpired(pb::TimeExpired {
            color: color_to_pb(*color),
            deadline_ms: deadline.0,
            at_ms: at.0,
            counted_as_pass: *counted_as_pass,
        }),
        GameEvent::OutageExcused { from, to, reason } => {
            K::OutageExcused(pb::OutageExcused { from_ms: from.0, to_ms: to.0, reason: outage_reason_to_pb(*reason) })
        }
        GameEvent::ResultCorrected { previous, result, note, at } => K::ResultCorrected(pb::ResultCorrected {
            previous: Some(result_to_pb(previous)),
            previous_score: previous.score.as_ref().map(score_to_pb),
            result: Some(result_to_pb(result)),
            score: result.score.as_ref().map(score_to_pb),
            note: note.clone(),
            at_ms: at.0,
        }),
        GameEvent::ClockCorrected { black, white, reason, referee, chief, at } => {
            K::ClockCorrected(pb::ClockCorrected {
                black: black.as_ref().map(|b| bank_to_pb(b, 0)),
                white: white.as_ref().map(|b| bank_to_pb(b, 0)),
                reason: reason.clone(),
                at_ms: at.0,
                referee: referee.clone(),
                chief: *chief,
            })
        }
        GameEvent::LatenessPenalised { color, late, deducted, byo_yomi_ran } => {
            K::LatenessPenalised(pb::LatenessPenalised {
                color: color_to_pb(*color),
                late_ms: late.0,
                deducted_ms: deducted.0,
                byo_yomi_ran: *byo_yomi_ran,
            })
        }
        GameEvent::LateBeyondLimit { color, late } => {
            K::LateBeyondLimit(pb::LateBeyondLimit { color: color_to_pb(*color), late_ms: late.0 })
        }
        GameEvent::PassOnOverrunRequested { color } => {
            K::PassOnOverrunRequested(pb::PassOnOverrunRequested { color: color_to_pb(*color) })
        }
        GameEvent::Ended { result, dead, note, at } => K::Ended(pb::GameEnded {
            result: Some(result_to_pb(result)),
            score: result.score.as_ref().map(score_to_pb),
            at_ms: at.0,
            dead: dead.iter().copied().map(point_to_pb).collect(),
            ruling_note: note.clone(),
        }),
    };
    pb::GameEvent { kind: Some(kind) }
}

/// A wire event into the domain.
pub fn event_from_pb(e: &pb::GameEvent) -> Result<GameEvent, DecodeError> {
    use pb::game_event::Kind as K;
    let Some(kind) = &e.kind else { return err("game event", "empty") };
    Ok(match kind {
        K::Created(c) => GameEvent::Created(Box::new(setup_from_pb(c)?)),
        K::NigiriCommitted(n) => GameEvent::NigiriCommitted {
            holder: PlayerId(n.holder.clone()),
            commitment: bytes32(&n.commitment, "commitment")?,
            secret: bytes32(&n.secret, "nigiri secret")?,
        },
        K::NigiriGuessed(n) => GameEvent::NigiriGuessed { guesser: PlayerId(n.guesser.clone()), even: n.even },
        K::NigiriRevealed(n) => GameEvent::NigiriRevealed {
            secret: bytes32(&n.secret, "nigiri secret")?,
            stones: n.stones,
            guess_correct: n.guess_correct,
        },
        K::ColorsDecided(c) => GameEvent::ColorsDecided {
            black: PlayerId(c.black.clone()),
            white: PlayerId(c.white.clone()),
            method: if c.method == pb::colors_decided::Method::Nigiri as i32 {
                ColorMethod::Nigiri
            } else {
                ColorMethod::Fixed
            },
        },
        K::HandicapPlaced(h) => GameEvent::HandicapPlaced { points: points_from_pb(&h.points)? },
        K::Started(s) => GameEvent::Started { at: Millis(s.at_ms) },
        K::StonePlayed(s) => GameEvent::StonePlayed {
            color: color_from_pb(s.color)?,
            point: point_from_pb(need(&s.point, "stone point")?)?,
            captures: points_from_pb(&s.captures)?,
            suicided: points_from_pb(&s.suicided)?,
            hash: s.position_hash,
            number: s.move_number,
            at: Millis(s.at_ms),
            lag: lag_from_pb(&s.lag),
            cycle: s.cycle,
            from_sealed: s.from_sealed,
            clock: snapshot_from_pb(&s.clock),
        },
        K::Passed(p) => GameEvent::Passed {
            color: color_from_pb(p.color)?,
            number: p.move_number,
            at: Millis(p.at_ms),
            lag: lag_from_pb(&p.lag),
            clock: snapshot_from_pb(&p.clock),
        },
        K::Resigned(r) => GameEvent::Resigned { color: color_from_pb(r.color)?, at: Millis(r.at_ms) },
        K::WarningIssued(w) => {
            GameEvent::WarningIssued { color: color_from_pb(w.color)?, reason: w.reason.clone(), count: w.count }
        }
        K::ColorsSwapped(_) => GameEvent::ColorsSwapped,
        K::OfferAccepted(o) => GameEvent::OfferAccepted { by: PlayerId(o.by.clone()) },
        K::MoveVoided(v) => GameEvent::MoveVoided {
            color: color_from_pb(v.color)?,
            mv: match &v.point {
                Some(p) => Move::Play(point_from_pb(p)?),
                None => Move::Pass,
            },
            reason: v.reason.clone(),
            taken_back: v.taken_back,
            ground: void_ground_from_pb(v.ground)?,
            at: Millis(v.at_ms),
        },
        K::Paused(p) => GameEvent::Paused { reason: p.reason.clone(), at: Millis(p.at_ms) },
        K::Resumed(r) => GameEvent::Resumed { at: Millis(r.at_ms) },
        K::Adjourned(a) => GameEvent::Adjourned {
            sealer: color_from_pb(a.sealer)?,
            sealed: match (&a.sealed_point, a.sealed_pass) {
                (_, true) => Move::Pass,
                (Some(p), false) => Move::Play(point_from_pb(p)?),
                (None, false) => return err("Adjourned", "no sealed move"),
            },
            at: Millis(a.at_ms),
            lag: lag_from_pb(&a.lag),
        },
        K::SealedMoveRevealed(s) => GameEvent::SealedMoveRevealed {
            sealer: color_from_pb(s.sealer)?,
            mv: match (&s.point, s.pass) {
                (_, true) => Move::Pass,
                (Some(p), false) => Move::Play(point_from_pb(p)?),
                (None, false) => return err("SealedMoveRevealed", "no move"),
            },
            at: Millis(s.at_ms),
        },
        K::ScoringStarted(s) => GameEvent::ScoringStarted { at: Millis(s.at_ms) },
        K::DeadStonesSuggested(d) => {
            GameEvent::DeadStonesSuggested { points: points_from_pb(&d.points)?, seki: points_from_pb(&d.seki)? }
        }
        K::DeadChainsMarked(d) => {
            GameEvent::DeadChainsMarked { by: color_from_pb(d.by)?, points: points_from_pb(&d.points)? }
        }
        K::ScoreAccepted(a) => GameEvent::ScoreAccepted { by: color_from_pb(a.by)? },
        K::ScoreDisputed(d) => GameEvent::ScoreDisputed { by: color_from_pb(d.by)? },
        K::PlayResumed(p) => GameEvent::PlayResumed { first: color_from_pb(p.first)?, at: Millis(p.at_ms) },
        K::TimeExpired(t) => GameEvent::TimeExpired {
            color: color_from_pb(t.color)?,
            deadline: Millis(t.deadline_ms),
            at: Millis(t.at_ms),
            counted_as_pass: t.counted_as_pass,
        },
        K::OutageExcused(o) => GameEvent::OutageExcused {
            from: Millis(o.from_ms),
            to: Millis(o.to_ms),
            reason: outage_reason_from_pb(o.reason)?,
        },
        K::ResultCorrected(c) => {
            let result = |r: &Option<pb::GameResult>, score: &Option<pb::ScoreDetail>, what: &'static str| {
                let r = need(r, what)?;
                Ok::<_, DecodeError>(GameResult {
                    outcome: outcome_from_pb(r.outcome)?,
                    reason: reason_from_pb(r.reason)?,
                    score: score.as_ref().map(score_from_pb),
                })
            };
            GameEvent::ResultCorrected {
                previous: result(&c.previous, &c.previous_score, "ResultCorrected.previous")?,
                result: result(&c.result, &c.score, "ResultCorrected.result")?,
                note: c.note.clone(),
                at: Millis(c.at_ms),
            }
        }
        K::ClockCorrected(c) => GameEvent::ClockCorrected {
            black: c.black.as_ref().map(bank_from_pb),
            white: c.white.as_ref().map(bank_from_pb),
            reason: c.reason.clone(),
            referee: c.referee.clone(),
            chief: c.chief,
            at: Millis(c.at_ms),
        },
        K::LatenessPenalised(l) => GameEvent::LatenessPenalised {
            color: color_from_pb(l.color)?,
            late: DurationMs(l.late_ms),
            deducted: DurationMs(l.deducted_ms),
            byo_yomi_ran: l.byo_yomi_ran,
        },
        K::LateBeyondLimit(l) => {
            GameEvent::LateBeyondLimit { color: color_from_pb(l.color)?, late: DurationMs(l.late_ms) }
        }
        K::PassOnOverrunRequested(p) => GameEvent::PassOnOverrunRequested { color: color_from_pb(p.color)? },
        K::Ended(e) => {
            let r = need(&e.result, "GameEnded result")?;
            GameEvent::Ended {
                result: GameResult {
                    outcome: outcome_from_pb(r.outcome)?,
                    reason: reason_from_pb(r.reason)?,
                    score: e.score.as_ref().map(score_from_pb),
                },
                dead: points_from_pb(&e.dead)?,
                note: e.ruling_note.clone(),
                at: Millis(e.at_ms),
            }
        }
    })
}

/// An outage's reason on the wire.
pub fn outage_reason_to_pb(r: crate::domain::OutageReason) -> i32 {
    use pb::outage_excused::Reason;
    match r {
        crate::domain::OutageReason::Restart => Reason::Restart as i32,
        crate::domain::OutageReason::LogUnavailable => Reason::LogUnavailable as i32,
    }
}

/// An outage's reason from the wire.
///
/// # Errors
/// An unknown or unspecified reason.
pub fn outage_reason_from_pb(r: i32) -> Result<crate::domain::OutageReason, DecodeError> {
    use pb::outage_excused::Reason;
    match Reason::try_from(r) {
        Ok(Reason::Restart) => Ok(crate::domain::OutageReason::Restart),
        Ok(Reason::LogUnavailable) => Ok(crate::domain::OutageReason::LogUnavailable),
        _ => err("outage reason", format!("{r} is not a reason")),
    }
}

/// A void's ground on the wire.
pub fn void_ground_to_pb(g: crate::domain::VoidGround) -> i32 {
    use crate::domain::VoidGround as G;
    use pb::VoidGround as P;
    (match g {
        G::Unspecified => P::Unspecified,
        G::DoubleMove => P::DoubleMove,
        G::KoWithoutThreat => P::KoWithoutThreat,
        G::ForbiddenPoint => P::ForbiddenPoint,
    }) as i32
}

/// A void's ground from the wire (unspecified: none named).
///
/// # Errors
/// A value no version of the schema has.
pub fn void_ground_from_pb(g: i32) -> Result<crate::domain::VoidGround, DecodeError> {
    use crate::domain::VoidGround as G;
    use pb::VoidGround as P;
    match P::try_from(g) {
        Ok(P::Unspecified) => Ok(G::Unspecified),
        Ok(P::DoubleMove) => Ok(G::DoubleMove),
        Ok(P::KoWithoutThreat) => Ok(G::KoWithoutThreat),
        Ok(P::ForbiddenPoint) => Ok(G::ForbiddenPoint),
        Err(_) => err("void ground", format!("{g} is not a ground")),
    }
}
