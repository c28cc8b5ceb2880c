//! The game record: a game's log as an SGF FF[4] file, for archives, analysts and any Go program.
//!
//! The record is written from the folded [`GameState`], so it holds exactly what was played: handicap
//! stones, every move and pass (a turn forfeited by a void move is written as a pass), the players
//! with their ranks as frozen at creation, the ruleset and komi, the tournament round, and the result
//! in SGF form (`B+R`, `W+3.5`, `B+T`, `B+F`, `Draw`, `Void`). The game comment says how the game
//! ended, with a referee's reason when a ruling ended it. Each of the game's notes (a warning, a pause,
//! a void on its article and the turn it forfeits, a disputed count and who moves first after it) is a
//! `C` comment on the node it follows. A sealed move is not in the record until it is revealed.

use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, EventLog};

use crate::domain::{EndReason, GameState};

/// The SGF record of `state` (a game of id `game_id`), `None` before the game has a board. `date` is
/// the day the game was played (`YYYY-MM-DD`), if the caller knows it.
pub fn game_record(game_id: &str, state: &GameState, date: Option<&str>) -> Option<String> {
    let game = state.game.as_ref()?;
    let name = |p: &Option<crate::domain::PlayerRef>| {
        p.as_ref().map(|p| if p.name.is_empty() { p.id.0.clone() } else { p.name.clone() })
    };
    let (black, white) = (name(&state.black), name(&state.white));
    let rank = |p: &Option<crate::domain::PlayerRef>| p.as_ref().map(|p| p.rank.clone());
    let (black_rank, white_rank) = (rank(&state.black), rank(&state.white));
    let result = state.result.as_ref().map(|r| r.to_sgf());
    let setup = state.setup.as_deref();
    let event = setup.and_then(|s| s.tournament.as_ref().map(|t| t.id.clone()).or_else(|| s.event_id.clone()));
    let round = setup.and_then(|s| s.tournament.as_ref()).map(|t| format!("{} (board {})", t.round, t.board));
    let comment = state.result.as_ref().map(|r| {
        let how = match r.reason {
            EndReason::Score => "the count",
            EndReason::Resignation => "resignation",
            EndReason::Time => "time",
            EndReason::Forfeit => "forfeit",
            EndReason::Warnings => "a second warning",
            EndReason::Referee => "a referee's ruling",
            EndReason::Lateness => "lateness",
            EndReason::Cycle => "a cycle ruling",
        };
        let mut text = format!("Ended by {how}");
        if let Some(s) = r.score.as_ref().filter(|_| r.reason == EndReason::Score) {
            text.push_str(&format!(": {}", s.result.in_stones()));
        }
        if let Some(note) = &state.ruling {
            text.push_str(&format!(" ({note})"));
        }
        text
    });
    // The rulings and turns a reader must be told about, each on the node it follows.
    let notes: Vec<(usize, String)> = state.notes.iter().map(|n| (n.actions, n.english(game.size()))).collect();
    let info = weiqi_sgf::GameInfo {
        black: black.as_deref(),
        white: white.as_deref(),
        black_rank: black_rank.as_deref(),
        white_rank: white_rank.as_deref(),
        result: result.as_deref(),
        date,
        event: event.as_deref(),
        round: round.as_deref(),
        name: Some(game_id),
        comment: comment.as_deref(),
        notes: &notes,
    };
    Some(weiqi_sgf::from_game_with(game, &info))
}

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

/// The SGF record of `game` folded from its log on the server (so nothing is redacted away and nothing
/// hidden leaks: a sealed move is not on the board until it is revealed), dated by its first event
/// (UTC), as `caller` (`None`: the public) may see it: a delayed spectator gets the game as far as
/// the delay shows it (issue 34 item 1). Served by the gRPC `GetRecord` and by
/// `GET /games/{game}/sgf`.
///
/// # Errors
/// [`RecordError`].
pub async fn sgf_record(
    log: &AnyEventLog,
    game: &str,
    caller: Option<&crate::authority::Caller>,
) -> Result<String, RecordError> {
    let id = AggregateId::new(game).map_err(|e| RecordError::BadId(e.to_string()))?;
    let events = log.read(AggregateKind::Game, &id, 1).await.map_err(|e| RecordError::Unavailable(e.to_string()))?;
    let state =
        crate::delayed::fold_as_seen(&events, caller, crate::delayed::now_ms()).map_err(RecordError::Corrupt)?;
    let date =
        events.first().map(|r| weiqi_time::CivilDate::from_millis(weiqi_time::Millis(r.timestamp_ms)).to_string());
    game_record(game, &state, date.as_deref()).ok_or(RecordError::NotFound)
}
