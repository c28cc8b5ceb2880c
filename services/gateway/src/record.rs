//! A game's record as SGF, folded from its log on the server (so nothing is redacted away and nothing
//! hidden leaks: a sealed move is not on the board until it is revealed). Served by the gRPC
//! `GetRecord` and by `GET /games/{game}/sgf`.

use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, EventLog};
use weiqi_game::convert::fold_recorded;
use weiqi_game::domain::GameState;

/// Why a record cannot be given.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Not a game id.
    #[error("bad game id: {0}")]
    BadId(String),
    /// No such game (or it has no board yet).
    #[error("no such game")]
    NotFound,
    /// The log cannot be reached.
    #[error("{0}")]
    Unavailable(String),
    /// The log does not replay: never served as a record.
    #[error("the game's log does not replay: {0}")]
    Corrupt(String),
}

/// The SGF record of `game`, dated by its first event (UTC).
///
/// # Errors
/// [`RecordError`].
pub async fn sgf_record(log: &AnyEventLog, game: &str) -> Result<String, RecordError> {
    let id = AggregateId::new(game).map_err(|e| RecordError::BadId(e.to_string()))?;
    let events = log.read(AggregateKind::Game, &id, 1).await.map_err(|e| RecordError::Unavailable(e.to_string()))?;
    let mut state = GameState::default();
    for r in &events {
        fold_recorded(&mut state, r).map_err(RecordError::Corrupt)?;
    }
    let date =
        events.first().map(|r| weiqi_time::CivilDate::from_millis(weiqi_time::Millis(r.timestamp_ms)).to_string());
    weiqi_game::record::game_record(game, &state, date.as_deref()).ok_or(RecordError::NotFound)
}
