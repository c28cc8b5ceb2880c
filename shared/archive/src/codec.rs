//! The stored form: [`ArchivedGame`] as the protobuf message `weiqi.v1.ArchivedGame`, the one event
//! (type [`EVENT_TYPE`]) of an archived game's log. The only module that knows protobuf.

use prost::Message;
use weiqi_proto::v1 as pb;
use weiqi_rules::{Color, Point};
use weiqi_time::{CivilDate, Millis};

use crate::game::{ArchivedGame, ArchivedMove, Reason, Winner};

/// The event type an archived game is stored under.
pub const EVENT_TYPE: &str = "weiqi.v1.GameArchived";

/// A pass in [`pb::ArchivedGame::moves`].
const PASS: u32 = 255;

/// Why a stored archived game does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// Not the message.
    #[error("not an archived game: {0}")]
    Decode(String),
    /// A field out of range.
    #[error("archived game {game}: {field} is out of range ({value})")]
    OutOfRange {
        /// The game.
        game: String,
        /// The field.
        field: &'static str,
        /// Its value.
        value: u64,
    },
}

fn winner_to_pb(w: Winner) -> pb::archived_game::Winner {
    use pb::archived_game::Winner as W;
    match w {
        Winner::Black => W::Black,
        Winner::White => W::White,
        Winner::Draw => W::Draw,
        Winner::None => W::None,
    }
}

fn reason_to_pb(r: Reason) -> pb::archived_game::Reason {
    use pb::archived_game::Reason as R;
    match r {
        Reason::Count => R::Count,
        Reason::Resignation => R::Resignation,
        Reason::Time => R::Time,
        Reason::Forfeit => R::Forfeit,
        Reason::IllegalMove => R::IllegalMove,
        Reason::Unknown => R::Unknown,
        Reason::Draw => R::Draw,
        Reason::Void => R::Void,
    }
}

/// The message of a game.
#[must_use]
pub fn to_pb(g: &ArchivedGame) -> pb::ArchivedGame {
    let moves = g
        .moves
        .iter()
        .map(|m| {
            let color = match m.color {
                Color::Black => 1u32,
                Color::White => 2,
            };
            let (x, y) = m.point.map_or((PASS, PASS), |p| (u32::from(p.x), u32::from(p.y)));
            (color << 16) | (x << 8) | y
        })
        .collect();
    pb::ArchivedGame {
        game_id: g.id.clone(),
        sgf: g.sgf.clone(),
        sha256: g.sha256.clone(),
        size: u32::from(g.size),
        black_name: g.black.0.clone(),
        black_rank: g.black.1.clone(),
        white_name: g.white.0.clone(),
        white_rank: g.white.1.clone(),
        date: g.date.clone(),
        played_on_ms: g.played_at().map_or(0, |m| m.0),
        event: g.event.clone(),
        round: g.round.clone(),
        place: g.place.clone(),
        game_name: g.game_name.clone(),
        rules: g.rules.clone(),
        rules_written: g.rules_written.clone(),
        komi_halves: g.komi_halves.unwrap_or(0),
        has_komi: g.komi_halves.is_some(),
        handicap: u32::from(g.handicap),
        time_limit: g.time_limit.clone(),
        overtime: g.overtime.clone(),
        result: g.result.clone(),
        winner: winner_to_pb(g.winner) as i32,
        reason: reason_to_pb(g.reason) as i32,
        margin_halves: g.margin_halves,
        moves,
        captures: g.moves.iter().map(|m| m.captures).collect(),
        final_hash: g.final_hash,
        imported_as: g.imported_as.clone(),
    }
}

/// The stored bytes of a game (the event's payload).
#[must_use]
pub fn encode(g: &ArchivedGame) -> Vec<u8> {
    to_pb(g).encode_to_vec()
}

/// A game from its message.
///
/// # Errors
/// A field out of range.
pub fn from_pb(m: &pb::ArchivedGame) -> Result<ArchivedGame, CodecError> {
    use pb::archived_game::{Reason as R, Winner as W};
    let range = |field: &'static str, value: u64| CodecError::OutOfRange { game: m.game_id.clone(), field, value };
    let size = u8::try_from(m.size).ok().filter(|s| (1..=25).contains(s)).ok_or(range("size", m.size.into()))?;
    let handicap = u8::try_from(m.handicap).map_err(|_| range("handicap", m.handicap.into()))?;
    let mut moves = Vec::with_capacity(m.moves.len());
    for (i, &v) in m.moves.iter().enumerate() {
        let color = match v >> 16 {
            1 => Color::Black,
            2 => Color::White,
            _ => return Err(range("moves", v.into())),
        };
        let (x, y) = ((v >> 8) & 0xff, v & 0xff);
        let point = match (x, y) {
            (PASS, PASS) => None,
            (x, y) if x < u32::from(size) && y < u32::from(size) => Some(Point { x: x as u8, y: y as u8 }),
            _ => return Err(range("moves", v.into())),
        };
        moves.push(ArchivedMove { color, point, captures: m.captures.get(i).copied().unwrap_or(0) });
    }
    let winner = match W::try_from(m.winner).unwrap_or(W::Unspecified) {
        W::Black => Winner::Black,
        W::White => Winner::White,
        W::Draw => Winner::Draw,
        W::None | W::Unspecified => Winner::None,
    };
    let reason = match R::try_from(m.reason).unwrap_or(R::Unspecified) {
        R::Count => Reason::Count,
        R::Resignation => Reason::Resignation,
        R::Time => Reason::Time,
        R::Forfeit => Reason::Forfeit,
        R::IllegalMove => Reason::IllegalMove,
        R::Unknown => Reason::Unknown,
        R::Draw => Reason::Draw,
        R::Void | R::Unspecified => Reason::Void,
    };
    Ok(ArchivedGame {
        id: m.game_id.clone(),
        sgf: m.sgf.clone(),
        sha256: m.sha256.clone(),
        size,
        black: (m.black_name.clone(), m.black_rank.clone()),
        white: (m.white_name.clone(), m.white_rank.clone()),
        date: m.date.clone(),
        played_on: (m.played_on_ms != 0).then(|| CivilDate::from_millis(Millis(m.played_on_ms))),
        event: m.event.clone(),
        round: m.round.clone(),
        place: m.place.clone(),
        game_name: m.game_name.clone(),
        rules: m.rules.clone(),
        rules_written: m.rules_written.clone(),
        komi_halves: m.has_komi.then_some(m.komi_halves),
        handicap,
        time_limit: m.time_limit.clone(),
        overtime: m.overtime.clone(),
        result: m.result.clone(),
        winner,
        reason,
        margin_halves: m.margin_halves,
        moves,
        final_hash: m.final_hash,
        imported_as: m.imported_as.clone(),
    })
}

/// A game from its stored bytes.
///
/// # Errors
/// Bytes that are not the message, or a field out of range.
pub fn decode(payload: &[u8]) -> Result<ArchivedGame, CodecError> {
    let m = pb::ArchivedGame::decode(payload).map_err(|e| CodecError::Decode(e.to_string()))?;
    from_pb(&m)
}
