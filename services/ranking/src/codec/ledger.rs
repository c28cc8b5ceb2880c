//! Rating-ledger entries ⇄ `weiqi.v1.RatingLedgerEntry`, and as stored events ([`LEDGER_TYPE`]).

use prost::Message;
use weiqi_eventlog::{NewEvent, RecordedEvent};
use weiqi_proto::v1 as pb;
use weiqi_rating::{
    GameConditions, GameId, Millis, PlayerId, PlayerRating, RatedGame, RatedResult, RatingCommand, RatingEvent,
    RatingInput, RatingUpdate,
};

use super::{
    CodecError, DecodeError, EnumPairs, LEDGER_TYPE, Meta, decode_error, envelope, fresh_event_id, open,
    read_legacy_json, required,
};
use crate::domain::LedgerEntry;

/// The JSON version of ledger entries that earlier versions wrote (read only).
const LEDGER_JSON_VERSION: u32 = 1;

/// A ledger entry to append (a typed `RatingLedgerEntry`).
#[must_use]
pub fn ledger_event(entry: &LedgerEntry, meta: &Meta) -> NewEvent {
    encode_ledger(entry, meta, fresh_event_id())
}

/// A ledger entry to append, with its event id.
pub(crate) fn encode_ledger(entry: &LedgerEntry, meta: &Meta, event_id: String) -> NewEvent {
    let body = pb::ranking_envelope::Body::LedgerEntry(ledger_entry_to_pb(entry));
    NewEvent::new(LEDGER_TYPE, envelope(meta, event_id, body).encode_to_vec())
}

/// Reads a ledger entry: a typed `RatingLedgerEntry`, or the JSON an earlier version wrote.
///
/// # Errors
/// When the payload is not a ledger entry, a typed one lacks a field or holds an unknown enum value
/// (the reason names the field), or the JSON is not of the known version.
pub fn read_ledger(r: &RecordedEvent) -> Result<LedgerEntry, DecodeError> {
    use pb::ranking_envelope::Body;
    match open(r)? {
        Body::LedgerEntry(m) => ledger_entry_from_pb(m).map_err(|e| decode_error(r, format!("{LEDGER_TYPE}: {e}"))),
        Body::Json(j) => read_legacy_json(r, &j, LEDGER_TYPE, LEDGER_JSON_VERSION),
        _ => Err(decode_error(r, format!("expected {LEDGER_TYPE}"))),
    }
}

const RESULT: EnumPairs<RatedResult, pb::RatedGameResult> = EnumPairs(&[
    (RatedResult::BlackWins, pb::RatedGameResult::BlackWins),
    (RatedResult::WhiteWins, pb::RatedGameResult::WhiteWins),
    (RatedResult::Jigo, pb::RatedGameResult::Jigo),
]);

/// The message of a ledger entry.
#[must_use]
pub fn ledger_entry_to_pb(entry: &LedgerEntry) -> pb::RatingLedgerEntry {
    pb::RatingLedgerEntry {
        input: Some(input_to_pb(&entry.input)),
        events: entry.events.iter().map(event_to_pb).collect(),
        game_position: entry.game_position,
        provisional: entry.provisional.iter().map(update_to_pb).collect(),
    }
}

/// A ledger entry from its stored message.
///
/// # Errors
/// [`CodecError`] naming the field that is missing or holds an unknown value.
pub fn ledger_entry_from_pb(m: pb::RatingLedgerEntry) -> Result<LedgerEntry, CodecError> {
    Ok(LedgerEntry {
        input: input_from_pb(required(m.input, "RatingLedgerEntry.input")?)?,
        events: m.events.into_iter().map(event_from_pb).collect::<Result<_, _>>()?,
        game_position: m.game_position,
        provisional: m.provisional.into_iter().map(update_from_pb).collect::<Result<_, _>>()?,
    })
}

fn input_to_pb(input: &RatingInput) -> pb::RatingLedgerInput {
    use pb::rating_ledger_command::{ClosePeriods, CloseTournament, CorrectGame, Kind, Seed};
    let kind = match &input.command {
        RatingCommand::Seed { player, rating, deviation } => {
            Kind::Seed(Seed { player_id: player.0.clone(), rating: Some(*rating), deviation: *deviation })
        }
        RatingCommand::RecordGame(game) => Kind::RecordGame(game_to_pb(game)),
        RatingCommand::ClosePeriods => Kind::ClosePeriods(ClosePeriods {}),
        RatingCommand::CloseTournament { tournament } => {
            Kind::CloseTournament(CloseTournament { tournament_id: tournament.clone() })
        }
        RatingCommand::CorrectGame { game, rated } => {
            Kind::CorrectGame(CorrectGame { game_id: game.0.clone(), rated: rated.as_ref().map(game_to_pb) })
        }
    };
    pb::RatingLedgerInput { at_ms: input.at.0, command: Some(pb::RatingLedgerCommand { kind: Some(kind) }) }
}

fn input_from_pb(m: pb::RatingLedgerInput) -> Result<RatingInput, CodecError> {
    use pb::rating_ledger_command::Kind;
    let command = required(m.command, "RatingLedgerInput.command")?;
    let command = match required(command.kind, "RatingLedgerCommand.kind")? {
        Kind::Seed(s) => RatingCommand::Seed {
            player: PlayerId(s.player_id),
            rating: required(s.rating, "RatingLedgerCommand.Seed.rating")?,
            deviation: s.deviation,
        },
        Kind::RecordGame(g) => RatingCommand::RecordGame(game_from_pb(g)?),
        Kind::ClosePeriods(_) => RatingCommand::ClosePeriods,
        Kind::CloseTournament(t) => RatingCommand::CloseTournament { tournament: t.tournament_id },
        Kind::CorrectGame(c) => {
            RatingCommand::CorrectGame { game: GameId(c.game_id), rated: c.rated.map(game_from_pb).transpose()? }
        }
    };
    Ok(RatingInput { at: Millis(m.at_ms), command })
}

fn game_to_pb(g: &RatedGame) -> pb::LedgerRatedGame {
    let c = &g.conditions;
    pb::LedgerRatedGame {
        game_id: g.id.0.clone(),
        black_player_id: g.black.0.clone(),
        white_player_id: g.white.0.clone(),
        result: RESULT.encode(g.result),
        conditions: Some(pb::RatedGameConditions {
            stones: u32::from(c.stones),
            komi: Some(c.komi),
            standard_komi: Some(c.standard_komi),
            compensation: Some(c.compensation),
        }),
        ended_at_ms: g.ended_at.0,
        tournament_id: g.tournament.clone(),
    }
}

fn game_from_pb(m: pb::LedgerRatedGame) -> Result<RatedGame, CodecError> {
    let c = required(m.conditions, "LedgerRatedGame.conditions")?;
    let stones = u8::try_from(c.stones)
        .map_err(|_| CodecError::OutOfRange { field: "RatedGameConditions.stones", value: u64::from(c.stones) })?;
    Ok(RatedGame {
        id: GameId(m.game_id),
        black: PlayerId(m.black_player_id),
        white: PlayerId(m.white_player_id),
        result: RESULT.decode("LedgerRatedGame.result", m.result)?,
        conditions: GameConditions {
            stones,
            komi: required(c.komi, "RatedGameConditions.komi")?,
            standard_komi: required(c.standard_komi, "RatedGameConditions.standard_komi")?,
            compensation: required(c.compensation, "RatedGameConditions.compensation")?,
        },
        ended_at: Millis(m.ended_at_ms),
        tournament: m.tournament_id,
    })
}

fn rating_to_pb(r: &PlayerRating) -> pb::LedgerPlayerRating {
    pb::LedgerPlayerRating {
        rating: Some(r.rating),
        deviation: Some(r.deviation),
        volatility: Some(r.volatility),
        games: r.games,
        period: r.period,
    }
}

fn rating_from_pb(m: pb::LedgerPlayerRating) -> Result<PlayerRating, CodecError> {
    Ok(PlayerRating {
        rating: required(m.rating, "LedgerPlayerRating.rating")?,
        deviation: required(m.deviation, "LedgerPlayerRating.deviation")?,
        volatility: required(m.volatility, "LedgerPlayerRating.volatility")?,
        games: m.games,
        period: m.period,
    })
}

fn update_to_pb(u: &RatingUpdate) -> pb::LedgerRatingUpdate {
    pb::LedgerRatingUpdate {
        player_id: u.player.0.clone(),
        before: Some(rating_to_pb(&u.before)),
        after: Some(rating_to_pb(&u.after)),
    }
}

fn update_from_pb(m: pb::LedgerRatingUpdate) -> Result<RatingUpdate, CodecError> {
    Ok(RatingUpdate {
        player: PlayerId(m.player_id),
        before: rating_from_pb(required(m.before, "LedgerRatingUpdate.before")?)?,
        after: rating_from_pb(required(m.after, "LedgerRatingUpdate.after")?)?,
    })
}

fn updates_from_pb(updates: Vec<pb::LedgerRatingUpdate>) -> Result<Vec<RatingUpdate>, CodecError> {
    updates.into_iter().map(update_from_pb).collect()
}

fn event_to_pb(e: &RatingEvent) -> pb::RatingLedgerEvent {
    use pb::rating_ledger_event::{
        GameCorrected, GameQueued, GameRated, Kind, PeriodClosed, PlayerSeeded, TournamentGameQueued, TournamentRated,
    };
    let kind = match e {
        RatingEvent::PlayerSeeded { player, rating } => {
            Kind::PlayerSeeded(PlayerSeeded { player_id: player.0.clone(), rating: Some(rating_to_pb(rating)) })
        }
        RatingEvent::GameRated { game, black, white } => Kind::GameRated(GameRated {
            game: Some(game_to_pb(game)),
            black: Some(update_to_pb(black)),
            white: Some(update_to_pb(white)),
        }),
        RatingEvent::GameQueued { game, period } => {
            Kind::GameQueued(GameQueued { game: Some(game_to_pb(game)), period: *period })
        }
        RatingEvent::TournamentGameQueued { game } => {
            Kind::TournamentGameQueued(TournamentGameQueued { game: Some(game_to_pb(game)) })
        }
        RatingEvent::TournamentRated { tournament, updates } => Kind::TournamentRated(TournamentRated {
            tournament_id: tournament.clone(),
            updates: updates.iter().map(update_to_pb).collect(),
        }),
        RatingEvent::PeriodClosed { period, updates } => {
            Kind::PeriodClosed(PeriodClosed { period: *period, updates: updates.iter().map(update_to_pb).collect() })
        }
        RatingEvent::GameCorrected { game, rated, updates, open_period } => Kind::GameCorrected(GameCorrected {
            game_id: game.0.clone(),
            rated: rated.as_ref().map(game_to_pb),
            updates: updates.iter().map(update_to_pb).collect(),
            open_period: *open_period,
        }),
    };
    pb::RatingLedgerEvent { kind: Some(kind) }
}

fn event_from_pb(m: pb::RatingLedgerEvent) -> Result<RatingEvent, CodecError> {
    use pb::rating_ledger_event::Kind;
    Ok(match required(m.kind, "RatingLedgerEvent.kind")? {
        Kind::PlayerSeeded(s) => RatingEvent::PlayerSeeded {
            player: PlayerId(s.player_id),
            rating: rating_from_pb(required(s.rating, "RatingLedgerEvent.PlayerSeeded.rating")?)?,
        },
        Kind::GameRated(g) => RatingEvent::GameRated {
            game: game_from_pb(required(g.game, "RatingLedgerEvent.GameRated.game")?)?,
            black: update_from_pb(required(g.black, "RatingLedgerEvent.GameRated.black")?)?,
            white: update_from_pb(required(g.white, "RatingLedgerEvent.GameRated.white")?)?,
        },
        Kind::GameQueued(g) => RatingEvent::GameQueued {
            game: game_from_pb(required(g.game, "RatingLedgerEvent.GameQueued.game")?)?,
            period: g.period,
        },
        Kind::TournamentGameQueued(g) => RatingEvent::TournamentGameQueued {
            game: game_from_pb(required(g.game, "RatingLedgerEvent.TournamentGameQueued.game")?)?,
        },
        Kind::TournamentRated(t) => {
            RatingEvent::TournamentRated { tournament: t.tournament_id, updates: updates_from_pb(t.updates)? }
        }
        Kind::PeriodClosed(p) => RatingEvent::PeriodClosed { period: p.period, updates: updates_from_pb(p.updates)? },
        Kind::GameCorrected(c) => RatingEvent::GameCorrected {
            game: GameId(c.game_id),
            rated: c.rated.map(game_from_pb).transpose()?,
            updates: updates_from_pb(c.updates)?,
            open_period: c.open_period,
        },
    })
}
