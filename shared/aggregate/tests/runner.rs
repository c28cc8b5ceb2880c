//! The runner's duplicate policy over an aggregate's whole life: a command id is recognised however
//! many commands came after it (not only among the recent ones), by this runner and by a new one
//! that reads the log from scratch, and a retry is answered with the original events.

use std::sync::Arc;

use weiqi_aggregate::{Aggregate, Context, EventMeta, Request, RunError, Runner, RunnerConfig, SystemEnvironment};
use weiqi_eventlog::{AggregateKind, EmbeddedConfig, EmbeddedLog, NewEvent, RecordedEvent};

/// Moves numbered in order: move `n` is accepted only as the next one (as a game refuses a move
/// that is not the player's turn), so a retry that is not recognised is refused.
struct Moves;

impl Aggregate for Moves {
    const KIND: AggregateKind = AggregateKind::Game;
    const NAME: &'static str = "moves";
    type State = u32;
    type Actor = String;
    type Command = u32;
    type Event = u32;
    type Stored = u32;
    type Rejection = String;

    fn decide(state: &u32, _: &String, number: &u32, _: &Context<'_>) -> Result<Vec<u32>, String> {
        if *number == state + 1 { Ok(vec![*number]) } else { Err(format!("move {number} is not move {}", state + 1)) }
    }
    fn evolve(state: &mut u32, number: &u32) -> Result<(), String> {
        *state = *number;
        Ok(())
    }
    fn inconsistent(why: String) -> String {
        why
    }
    fn encode(number: &u32, _: &EventMeta<'_, Self>) -> (NewEvent, u32) {
        (NewEvent::new("moves.Played", number.to_le_bytes().to_vec()), *number)
    }
    fn decode(r: &RecordedEvent) -> Result<u32, String> {
        Ok(u32::from_le_bytes(r.payload[..].try_into().map_err(|_| "four bytes".to_string())?))
    }
    fn event(number: &u32) -> &u32 {
        number
    }
}

fn runner(log: &EmbeddedLog, recent: usize) -> Runner<Moves, EmbeddedLog> {
    Runner::with_config(log.clone(), Arc::new(SystemEnvironment), RunnerConfig { recent })
}

#[tokio::test]
async fn a_retry_long_past_the_recent_window_is_answered_with_its_original_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let log = EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default()).unwrap();
    let ann = "ann".to_string();
    let live = runner(&log, 8);
    for n in 1..=70u32 {
        let out = live.execute(Request::new("g-1", &format!("m-{n}"), &ann, &n)).await.unwrap();
        assert!(!out.duplicate);
    }
    // Move 2, sent again 68 moves later: the same answer as then, nothing appended.
    let again = live.execute(Request::new("g-1", "m-2", &ann, &2)).await.unwrap();
    assert_eq!((again.duplicate, again.events), (true, vec![2]));
    // A runner that never saw it (a restart, another instance) reads the whole log once and knows it.
    let fresh = runner(&log, 8);
    let again = fresh.execute(Request::new("g-1", "m-2", &ann, &2)).await.unwrap();
    assert_eq!((again.duplicate, again.events), (true, vec![2]));
    // The id under another command, or from another actor, is still refused.
    let other = fresh.execute(Request::new("g-1", "m-2", &ann, &71)).await;
    assert!(matches!(other, Err(RunError::RequestIdReused { .. })), "{:?}", other.map(|o| o.events));
    let bob = "bob".to_string();
    let stolen = fresh.execute(Request::new("g-1", "m-3", &bob, &3)).await;
    assert!(matches!(stolen, Err(RunError::RequestIdReused { .. })));
    // And the game goes on.
    assert_eq!(fresh.execute(Request::new("g-1", "m-71", &ann, &71)).await.unwrap().events, vec![71]);
    assert_eq!(live.read("g-1", |s, v| (*s, v)).await.unwrap(), (71, 71));
}
