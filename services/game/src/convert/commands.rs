//! Commands both ways: from requests and the bus into the domain, and from the domain onto the bus.

use weiqi_clock::DurationMs;
use weiqi_proto::v1 as pb;
use weiqi_rules::Move;

use super::basics::{
    actor_from_pb, actor_to_pb, color_from_pb, color_to_pb, lag_from_pb, lag_to_pb, point_from_pb, point_to_pb,
    points_from_pb,
};
use super::results::{outcome_from_pb, outcome_to_pb, reason_from_pb, reason_to_pb};
use super::rules::{bank_from_pb, bank_to_pb};
use super::setup::{setup_from_request, setup_to_request};
use super::{DecodeError, err, need};
use crate::domain::{Actor, Command, EndReason};

/// A wire command into the domain: the actor and the command (a `get` is not a command: `None`).
pub fn command_from_pb(c: &pb::GameCommand) -> Result<Option<(Actor, Command)>, DecodeError> {
    let actor = actor_from_pb(need(&c.actor, "actor")?)?;
    let Some(kind) = &c.command else { return err("command", "empty") };
    Ok(command_from_kind(kind)?.map(|command| (actor, command)))
}

/// A wire command's kind into the domain (`None` for a `get`). The nigiri secret of a creation is left
/// zero: the runner draws it when the command is decided.
pub fn command_from_kind(cmd: &pb::game_command::Command) -> Result<Option<Command>, DecodeError> {
    use pb::game_command::Command as C;
    use pb::referee_request::Action as A;
    let mv = |p: &Option<pb::Point>, pass: bool| -> Result<Move, DecodeError> {
        if pass {
            return Ok(Move::Pass);
        }
        Ok(Move::Play(point_from_pb(need(p, "point")?)?))
    };
    let command = match cmd {
        C::Get(_) => return Ok(None),
        C::Create(r) => Command::Create { setup: Box::new(setup_from_request(r)?), nigiri_secret: [0; 32] },
        C::Start(_) => Command::Start,
        C::GuessNigiri(g) => Command::GuessNigiri { even: g.even },
        C::Play(p) => Command::Play {
            mv: Move::Play(point_from_pb(need(&p.point, "point")?)?),
            expected_number: p.expected_move_number,
            lag: lag_from_pb(&p.lag),
        },
        C::Pass(p) => {
            Command::Play { mv: Move::Pass, expected_number: p.expected_move_number, lag: lag_from_pb(&p.lag) }
        }
        C::Resign(_) => Command::Resign,
        C::MarkDead(m) => Command::MarkDead { points: points_from_pb(&m.points)? },
        C::AcceptScore(_) => Command::AcceptScore,
        C::DisputeScore(_) => Command::DisputeScore,
        C::Seal(s) => Command::Seal { mv: mv(&s.point, s.pass)?, lag: lag_from_pb(&s.lag) },
        C::RequestPassOnOverrun(_) => Command::RequestPassOnOverrun,
        C::ClaimAbsence(a) => Command::ClaimAbsence { away: DurationMs(a.away_ms) },
        C::ExpireTime(e) => Command::ExpireTime { seen: e.seen_sequence },
        C::ExcuseOutage(o) => Command::ExcuseOutage {
            from: weiqi_clock::Millis(o.from_ms),
            to: weiqi_clock::Millis(o.to_ms),
            reason: super::events::outage_reason_from_pb(o.reason)?,
        },
        C::Referee(r) => match &r.action {
            None => return err("referee action", "empty"),
            Some(A::Warn(w)) => Command::Warn { color: color_from_pb(w.color)?, reason: w.reason.clone() },
            Some(A::SwapColors(_)) => Command::SwapColors,
            Some(A::VoidLastMove(v)) => Command::VoidLastMove {
                reason: v.reason.clone(),
                ground: super::events::void_ground_from_pb(v.ground)?,
            },
            Some(A::Pause(p)) => Command::Pause { reason: p.reason.clone() },
            Some(A::Resume(_)) => Command::Resume,
            Some(A::ResumeAdjourned(_)) => Command::ResumeAdjourned,
            Some(A::Adjudicate(a)) => Command::Adjudicate {
                outcome: outcome_from_pb(a.outcome)?,
                // Unspecified (as clients before the field send it): a referee's ruling.
                reason: if a.reason == 0 { EndReason::Referee } else { reason_from_pb(a.reason)? },
                note: a.note.clone(),
            },
            Some(A::CorrectResult(c)) => Command::CorrectResult {
                outcome: outcome_from_pb(c.outcome)?,
                reason: reason_from_pb(c.reason)?,
                note: c.note.clone(),
            },
            Some(A::CorrectClock(c)) => Command::CorrectClock {
                black: c.black.as_ref().map(bank_from_pb),
                white: c.white.as_ref().map(bank_from_pb),
                reason: c.reason.clone(),
            },
            Some(A::ReportLateness(l)) => {
                Command::ReportLateness { color: color_from_pb(l.color)?, late: DurationMs(l.late_ms) }
            }
            Some(A::StartNow(_)) => Command::Start,
        },
    };
    Ok(Some(command))
}

/// A wire command of `kind` from `actor`, as a gateway or another service sends it over the bus.
pub fn wire_command(
    game_id: &str,
    command_id: &str,
    actor: &Actor,
    kind: pb::game_command::Command,
) -> pb::GameCommand {
    pb::GameCommand {
        command_id: command_id.to_string(),
        game_id: game_id.to_string(),
        actor: Some(actor_to_pb(actor)),
        correlation_id: String::new(),
        command: Some(kind),
    }
}

/// A domain command as the wire command the bus carries (the inverse of [`command_from_pb`]).
pub fn command_to_pb(
    game_id: &str,
    command_id: &str,
    correlation_id: &str,
    actor: &Actor,
    command: &Command,
) -> pb::GameCommand {
    pb::GameCommand {
        command_id: command_id.to_string(),
        game_id: game_id.to_string(),
        actor: Some(actor_to_pb(actor)),
        correlation_id: correlation_id.to_string(),
        command: Some(kind_to_pb(game_id, command)),
    }
}

fn kind_to_pb(game_id: &str, command: &Command) -> pb::game_command::Command {
    use pb::game_command::Command as C;
    use pb::referee_request::Action as A;
    let game_id = game_id.to_string();
    let referee = |action: A| {
        C::Referee(pb::RefereeRequest { game_id: game_id.clone(), request_id: String::new(), action: Some(action) })
    };
    let point = |mv: &Move| match mv {
        Move::Play(p) => (Some(point_to_pb(*p)), false),
        Move::Pass => (None, true),
    };
    match command {
        Command::Create { setup, .. } => C::Create(setup_to_request(setup)),
        Command::GuessNigiri { even } => {
            C::GuessNigiri(pb::GuessNigiriRequest { game_id, request_id: String::new(), even: *even })
        }
        Command::Start => C::Start(pb::GameRequest { game_id, request_id: String::new() }),
        Command::Play { mv: Move::Pass, expected_number, lag } => C::Pass(pb::PassRequest {
            game_id,
            request_id: String::new(),
            expected_move_number: *expected_number,
            lag: lag_to_pb(lag),
        }),
        Command::Play { mv: Move::Play(p), expected_number, lag } => C::Play(pb::PlayMoveRequest {
            game_id,
            request_id: String::new(),
            point: Some(point_to_pb(*p)),
            expected_move_number: *expected_number,
            lag: lag_to_pb(lag),
        }),
        Command::Resign => C::Resign(pb::GameRequest { game_id, request_id: String::new() }),
        Command::MarkDead { points } => C::MarkDead(pb::MarkDeadRequest {
            game_id,
            request_id: String::new(),
            points: points.iter().copied().map(point_to_pb).collect(),
        }),
        Command::AcceptScore => C::AcceptScore(pb::GameRequest { game_id, request_id: String::new() }),
        Command::DisputeScore => C::DisputeScore(pb::GameRequest { game_id, request_id: String::new() }),
        Command::Seal { mv, lag } => {
            let (point, pass) = point(mv);
            C::Seal(pb::SealMoveRequest { game_id, request_id: String::new(), point, pass, lag: lag_to_pb(lag) })
        }
        Command::RequestPassOnOverrun => {
            C::RequestPassOnOverrun(pb::GameRequest { game_id, request_id: String::new() })
        }
        Command::ClaimAbsence { away } => C::ClaimAbsence(pb::game_command::ClaimAbsence { away_ms: away.as_millis() }),
        Command::Warn { color, reason } => {
            referee(A::Warn(pb::referee_request::Warn { color: color_to_pb(*color), reason: reason.clone() }))
        }
        Command::SwapColors => referee(A::SwapColors(pb::referee_request::SwapColors {})),
        Command::VoidLastMove { reason, ground } => referee(A::VoidLastMove(pb::referee_request::VoidLastMove {
            reason: reason.clone(),
            ground: super::events::void_ground_to_pb(*ground),
        })),
        Command::Pause { reason } => referee(A::Pause(pb::referee_request::Pause { reason: reason.clone() })),
        Command::Resume => referee(A::Resume(pb::referee_request::Resume {})),
        Command::ResumeAdjourned => referee(A::ResumeAdjourned(pb::referee_request::ResumeAdjourned {})),
        Command::Adjudicate { outcome, reason, note } => referee(A::Adjudicate(pb::referee_request::Adjudicate {
            outcome: outcome_to_pb(*outcome) as i32,
            note: note.clone(),
            reason: reason_to_pb(*reason) as i32,
        })),
        Command::CorrectResult { outcome, reason, note } => {
            referee(A::CorrectResult(pb::referee_request::CorrectResult {
                outcome: outcome_to_pb(*outcome) as i32,
                reason: reason_to_pb(*reason) as i32,
                note: note.clone(),
            }))
        }
        Command::CorrectClock { black, white, reason } => referee(A::CorrectClock(pb::referee_request::CorrectClock {
            black: black.as_ref().map(|b| bank_to_pb(b, 0)),
            white: white.as_ref().map(|b| bank_to_pb(b, 0)),
            reason: reason.clone(),
        })),
        Command::ReportLateness { color, late } => referee(A::ReportLateness(pb::referee_request::ReportLateness {
            color: color_to_pb(*color),
            late_ms: late.0,
        })),
        Command::ExpireTime { seen } => C::ExpireTime(pb::game_command::ExpireTime { seen_sequence: *seen }),
        Command::ExcuseOutage { from, to, reason } => C::ExcuseOutage(pb::game_command::ExcuseOutage {
            from_ms: from.0,
            to_ms: to.0,
            reason: super::events::outage_reason_to_pb(*reason),
        }),
    }
}
