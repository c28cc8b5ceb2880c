//! Colors, points, lag reports and actors.

use weiqi_clock::{DurationMs, LagReport};
use weiqi_proto::v1 as pb;
use weiqi_rules::{Color, Point};

use super::{DecodeError, err};
use crate::domain::{Actor, PlayerId};

wire_enum!(
    /// Color to and from the wire.
    color_enum, color_from_pb, "color", Color => pb::Color { Color::Black => pb::Color::Black, Color::White => pb::Color::White }
);

/// Color to wire.
pub fn color_to_pb(c: Color) -> i32 {
    color_enum(c) as i32
}

/// Point to wire.
pub fn point_to_pb(p: Point) -> pb::Point {
    pb::Point { x: p.x as u32, y: p.y as u32 }
}

/// Point from wire (range checked against the board by the domain).
pub fn point_from_pb(p: &pb::Point) -> Result<Point, DecodeError> {
    if p.x > 255 || p.y > 255 {
        return err("point", format!("({}, {}) is off every board", p.x, p.y));
    }
    Ok(Point::new(p.x as u8, p.y as u8))
}

pub(crate) fn points_from_pb(ps: &[pb::Point]) -> Result<Vec<Point>, DecodeError> {
    ps.iter().map(point_from_pb).collect()
}

pub(crate) fn lag_to_pb(l: &Option<LagReport>) -> Option<pb::LagReport> {
    l.map(|l| pb::LagReport {
        kind: Some(match l {
            LagReport::Lag(d) => pb::lag_report::Kind::LagMs(d.0),
            LagReport::MoveTime(d) => pb::lag_report::Kind::MoveTimeMs(d.0),
        }),
    })
}

/// Lag report from wire; negative values are dropped (the clock would refuse them).
pub fn lag_from_pb(l: &Option<pb::LagReport>) -> Option<LagReport> {
    match l.as_ref()?.kind? {
        pb::lag_report::Kind::LagMs(v) if v >= 0 => Some(LagReport::Lag(DurationMs(v))),
        pb::lag_report::Kind::MoveTimeMs(v) if v >= 0 => Some(LagReport::MoveTime(DurationMs(v))),
        _ => None,
    }
}

/// Actor to wire.
pub fn actor_to_pb(a: &Actor) -> pb::Actor {
    use pb::actor::Kind;
    let (kind, id) = match a {
        Actor::Player(p) => (Kind::Player, p.0.clone()),
        Actor::Referee(s) => (Kind::Referee, s.clone()),
        Actor::ChiefReferee(s) => (Kind::ChiefReferee, s.clone()),
        Actor::Organiser(s) => (Kind::Organiser, s.clone()),
        Actor::System(s) => (Kind::System, s.clone()),
    };
    pb::Actor { kind: kind as i32, id }
}

/// Actor from wire.
pub fn actor_from_pb(a: &pb::Actor) -> Result<Actor, DecodeError> {
    use pb::actor::Kind;
    let id = a.id.clone();
    Ok(match Kind::try_from(a.kind) {
        Ok(Kind::Player) => Actor::Player(PlayerId(id)),
        Ok(Kind::Referee) => Actor::Referee(id),
        Ok(Kind::ChiefReferee) => Actor::ChiefReferee(id),
        Ok(Kind::Organiser) => Actor::Organiser(id),
        Ok(Kind::System) => Actor::System(id),
        _ => return err("actor", "unspecified kind"),
    })
}
