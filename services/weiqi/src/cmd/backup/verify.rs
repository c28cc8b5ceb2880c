//! After a restore: every aggregate replayed through its own domain, as the services would replay it
//! before acting on it (the runner's `decode` then `evolve`, `weiqi_aggregate::Aggregate`).
//!
//! | kind | aggregate |
//! | --- | --- |
//! | `game` | `weiqi_game::aggregate::GameAggregate` (the rules core re-checks every position hash) |
//! | `tournament` | `weiqi_tournament::service::Tournaments` |
//! | `player` | `weiqi_ranking::aggregate::PlayerAggregate`; `_ledger-<system>`: `LedgerAggregate` |
//! | `case` | `weiqi_ranking::aggregate::CaseAggregate` |
//! | `account` | `weiqi_account::aggregate::Accounts` |
//! | `site` | `weiqi_account::site::Site` |
//! | `archive` | `weiqi_archive::codec::decode` (one `GameArchived` event) |

use weiqi_aggregate::Aggregate;
use weiqi_eventlog::{AggregateKind, RecordedEvent};

/// The prefix of the rating ledgers' ids in the `player` kind.
pub const LEDGER_PREFIX: &str = "_ledger-";

/// Folds `events` (one aggregate, from its first) through `A`.
///
/// # Errors
/// The first event that does not decode or fold, with its sequence.
pub fn fold<A: Aggregate>(events: &[RecordedEvent]) -> Result<A::State, String> {
    let mut state = A::State::default();
    for r in events {
        let stored = A::decode(r).map_err(|e| format!("sequence {} ({}): {e}", r.sequence, r.event_type))?;
        A::evolve(&mut state, A::event(&stored))
            .map_err(|e| format!("sequence {} ({}) does not fold: {e}", r.sequence, r.event_type))?;
    }
    Ok(state)
}

/// Which domain replays an aggregate of `kind` named `id`.
pub fn domain(kind: AggregateKind, id: &str) -> &'static str {
    match kind {
        AggregateKind::Game => "game",
        AggregateKind::Tournament => "tournament",
        AggregateKind::Player if id.starts_with(LEDGER_PREFIX) => "rating ledger",
        AggregateKind::Player => "player",
        AggregateKind::Case => "certification case",
        AggregateKind::Account => "account",
        AggregateKind::Site => "site settings",
        AggregateKind::Archive => "archived game",
        AggregateKind::Chat if id == weiqi_chat::MODERATION => "chat moderation",
        AggregateKind::Chat => "chat",
    }
}

/// Replays one aggregate's events (all of them, from sequence 1) through its domain.
///
/// # Errors
/// Why it does not replay.
pub fn replay(kind: AggregateKind, id: &str, events: &[RecordedEvent]) -> Result<(), String> {
    if events.first().is_none_or(|e| e.sequence != 1) {
        return Err("its events do not start at sequence 1".into());
    }
    match kind {
        AggregateKind::Game => fold::<weiqi_game::aggregate::GameAggregate>(events).map(drop),
        AggregateKind::Tournament => fold::<weiqi_tournament::service::Tournaments>(events).map(drop),
        AggregateKind::Player if id.starts_with(LEDGER_PREFIX) => {
            fold::<weiqi_ranking::aggregate::LedgerAggregate>(events).map(drop)
        }
        AggregateKind::Player => fold::<weiqi_ranking::aggregate::PlayerAggregate>(events).map(drop),
        AggregateKind::Case => fold::<weiqi_ranking::aggregate::CaseAggregate>(events).map(drop),
        AggregateKind::Account => fold::<weiqi_account::aggregate::Accounts>(events).map(drop),
        AggregateKind::Site => fold::<weiqi_account::site::Site>(events).map(drop),
        AggregateKind::Chat if id == weiqi_chat::MODERATION => {
            fold::<weiqi_chat::codec::ModerationAggregate>(events).map(drop)
        }
        AggregateKind::Chat => fold::<weiqi_chat::codec::ChatAggregate>(events).map(drop),
        AggregateKind::Archive => {
            for r in events {
                if r.event_type != weiqi_archive::codec::EVENT_TYPE {
                    return Err(format!("sequence {}: {} is not an archived game", r.sequence, r.event_type));
                }
                let game =
                    weiqi_archive::codec::decode(&r.payload).map_err(|e| format!("sequence {}: {e}", r.sequence))?;
                if game.id != id {
                    return Err(format!("sequence {}: the record's id is {}", r.sequence, game.id));
                }
            }
            Ok(())
        }
    }
}
