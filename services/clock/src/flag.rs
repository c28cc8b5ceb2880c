//! Asking the game service to record a flag, and reading back what the log decided.
//!
//! The command is `ExpireTime { seen_sequence }` from `Actor::System("clock")` with a deterministic
//! command id, `expire-<game>-<seen_sequence>`. The game service decides it with the same clock core on
//! the log's state at its own "now" and appends `TimeExpired` (+ `GameEnded`, or the Art. 22.5 pass) with
//! the expected sequence, so:
//!
//! * a retry, or the same flag from another clock-service instance, carries the same command id and is
//!   answered as a duplicate: nothing is appended twice;
//! * a move that got in first changes the state: the flag is decided on the sequence the clock saw, so it
//!   is refused (`flag_outdated`) and the clock re-arms from the log;
//! * a flag sent a little early (this machine's clock ahead of the game service's) is refused
//!   `not_expired` too, and tried again shortly.
//!
//! After every answer the task reads the game's log past the version it saw, so the service folds what
//! the log decided without waiting for its follower.

use std::sync::Arc;

use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, EventLog, MAX_NAME_LEN, RecordedEvent};
use weiqi_game::client::GameClient;
use weiqi_game::domain::{Actor, Command};
use weiqi_game::service::{GameError, GameRequest};

/// The actor recorded on flags.
pub const CLOCK_ACTOR: &str = "clock";

/// The command id of the flag of `game` seen at `seen_sequence`: the same for every retry and every
/// instance. Ids that would be too long for the log use a name-based UUID of the same text.
pub fn expire_command_id(game: &str, seen_sequence: u64) -> String {
    fitting("expire", format!("expire-{game}-{seen_sequence}"))
}

/// `id`, or `prefix-` and a name-based UUID of it when it is too long for the log.
fn fitting(prefix: &str, id: String) -> String {
    if id.len() <= MAX_NAME_LEN {
        id
    } else {
        format!("{prefix}-{}", uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, id.as_bytes()))
    }
}

/// How the game service answered a flag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlagAnswer {
    /// The flag was recorded (`duplicate`: by an earlier try or another instance).
    Recorded {
        /// Answered from the record of an earlier identical command.
        duplicate: bool,
    },
    /// Refused with this code: `not_expired` (a move got in first, or the clocks differ by a few ms),
    /// `game_over`, `wrong_phase`…
    Refused(String),
    /// The game service or the log could not be reached; try again with the same id.
    Unavailable(String),
    /// Not sent: the log did not answer at the deadline (the platform could not take a move), or an
    /// outage has just ended; the outage is excused before any flag ([`crate::alive`]).
    Held(&'static str),
}

/// The outcome of one flag request: the answer and the game's events after `version`.
#[derive(Debug)]
pub struct FlagReport {
    /// The game.
    pub game: Arc<str>,
    /// The version the flag was seen at.
    pub version: u64,
    /// The answer.
    pub answer: FlagAnswer,
    /// The game's events after `version`, read after the answer (empty if unreadable).
    pub tail: Vec<RecordedEvent>,
}

/// Sends the flag of `game` seen at `version`, then reads the log's tail.
pub async fn send_flag(game_client: &GameClient, log: &AnyEventLog, game: Arc<str>, version: u64) -> FlagReport {
    let command_id = expire_command_id(&game, version);
    ask(game_client, log, game, version, command_id, Command::ExpireTime { seen: version }).await
}

/// Sends `command` from the clock on `game` (seen at `version`) and reads the log's tail after it.
async fn ask(
    game_client: &GameClient,
    log: &AnyEventLog,
    game: Arc<str>,
    version: u64,
    command_id: String,
    command: Command,
) -> FlagReport {
    let request = GameRequest {
        game_id: game.to_string(),
        command_id,
        correlation_id: String::new(),
        actor: Actor::System(CLOCK_ACTOR.into()),
        command,
    };
    // The flag's span (the caller's) continues into the game service.
    let answer = match game_client.execute(&request, &weiqi_telemetry::inject_current()).await {
        Ok(a) => FlagAnswer::Recorded { duplicate: a.duplicate },
        Err(e @ (GameError::Unavailable(_) | GameError::Internal(_))) => FlagAnswer::Unavailable(e.to_string()),
        Err(e) => FlagAnswer::Refused(e.code().to_string()),
    };
    let tail = match &answer {
        FlagAnswer::Unavailable(_) => Vec::new(),
        _ => read_tail(log, &game, version + 1).await.unwrap_or_default(),
    };
    FlagReport { game, version, answer, tail }
}

/// How long a flag waits for the log to answer before it counts the platform as down.
pub const PROBE: std::time::Duration = std::time::Duration::from_millis(500);

/// Sends the flag of `game` seen at `version` after making sure the platform could take a move at
/// `now`: the log answers within [`PROBE`] and no outage has just ended. Otherwise the flag is held
/// and the outage recorded, so that a flag never charges the player the time the platform was down
/// (a flag sent while nats-server restarts would otherwise be delivered after it is back).
pub async fn probe_then_flag(
    game_client: &GameClient,
    log: &AnyEventLog,
    game: Arc<str>,
    version: u64,
    alive: &crate::alive::Alive,
    now: weiqi_clock::Millis,
    closed: &tokio::sync::Notify,
) -> FlagReport {
    let answered = tokio::time::timeout(PROBE, log.head(AggregateKind::Game)).await;
    if !matches!(answered, Ok(Ok(_))) {
        alive.failed(now);
        return FlagReport { game, version, answer: FlagAnswer::Held("the log does not answer"), tail: Vec::new() };
    }
    if alive.ok(now) {
        closed.notify_one();
        return FlagReport { game, version, answer: FlagAnswer::Held("an outage has just ended"), tail: Vec::new() };
    }
    send_flag(game_client, log, game, version).await
}

/// Asks the game service to excuse `outage` on `game`'s running clock (seen at `version`), then reads
/// the log's tail. The command id names the game, the version and the outage's end, so a retry is
/// the same command.
pub async fn send_excuse(
    game_client: &GameClient,
    log: &AnyEventLog,
    game: Arc<str>,
    version: u64,
    outage: crate::alive::Outage,
) -> FlagReport {
    let command_id = fitting("outage", format!("outage-{game}-{version}-{}", outage.to.0));
    let command = Command::ExcuseOutage { from: outage.from, to: outage.to, reason: outage.reason };
    ask(game_client, log, game, version, command_id, command).await
}

/// The game's events from `from` on.
pub async fn read_tail(log: &AnyEventLog, game: &str, from: u64) -> Result<Vec<RecordedEvent>, String> {
    let id = AggregateId::new(game).map_err(|e| e.to_string())?;
    log.read(AggregateKind::Game, &id, from).await.map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_ids_are_deterministic_and_fit_the_log() {
        assert_eq!(expire_command_id("g-1", 17), "expire-g-1-17");
        let long = "g".repeat(128);
        let id = expire_command_id(&long, 17);
        assert_eq!(id, expire_command_id(&long, 17));
        assert_ne!(id, expire_command_id(&long, 18));
        assert!(weiqi_eventlog::CommandId::new(&id).is_ok(), "{id}");
    }
}
