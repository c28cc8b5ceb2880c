//! The long-running readers of the log (projectors, process managers, the clock service, the web's
//! index), registered by name so that a process can tell whether each one is running and how far
//! behind the head of its kind it is (readiness, `/readyz`, and the `weiqi_follower_lag_appends`
//! gauge: `weiqi_edge::ready`).
//!
//! A follower registers once ([`Follower::register`]), reports the position of every event it has
//! handled ([`Follower::at`]), and is counted as stopped from the moment its handle is dropped: a
//! follower task that ends or panics drops its handle, so a dead follower shows as not running
//! rather than as one that is merely idle.
//!
//! The registry is process-wide, as the metrics recorder is: one process serves one readiness
//! endpoint for every follower it runs. (Tests that run many services in one process and never ask
//! for readiness are not affected; handles of finished tests stay listed as stopped.)

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::{AggregateKind, Position};

/// What a registered follower last reported.
#[derive(Debug)]
struct State {
    name: &'static str,
    kind: AggregateKind,
    /// The raw position of the last event handled, plus one (0: none yet).
    position: AtomicU64,
    running: AtomicBool,
}

static REGISTRY: Mutex<Vec<Arc<State>>> = Mutex::new(Vec::new());

/// A follower's handle: report positions through it; drop it when the follower stops.
#[derive(Debug)]
pub struct Follower {
    state: Arc<State>,
}

impl Follower {
    /// Registers a follower of `kind` named `name` (a closed set of names: `tournament_projector`,
    /// `ranking_projector`, `clock`, …; they become metric labels). Registering a name again (a
    /// follower restarted in the same process) replaces the earlier entry.
    #[must_use]
    pub fn register(name: &'static str, kind: AggregateKind) -> Follower {
        let state = Arc::new(State { name, kind, position: AtomicU64::new(0), running: AtomicBool::new(true) });
        let mut registry = REGISTRY.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        registry.retain(|s| s.name != name);
        registry.push(state.clone());
        Follower { state }
    }

    /// The follower has handled the event at `position`.
    pub fn at(&self, position: Position) {
        self.state.position.fetch_max(position.raw() + 1, Ordering::Relaxed);
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.state.running.store(false, Ordering::Relaxed);
    }
}

/// A follower as the registry last saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FollowerReport {
    /// Its name.
    pub name: &'static str,
    /// The kind of log it follows.
    pub kind: AggregateKind,
    /// The last event it handled, if any.
    pub position: Option<Position>,
    /// Whether its handle is still held.
    pub running: bool,
}

impl FollowerReport {
    /// Appends (batches) in its kind after the last event it handled, given that kind's `head`
    /// (an [`crate::EventLog::head`] answer). 0 when it has handled the last append.
    #[must_use]
    pub fn lag(&self, head: Position) -> u64 {
        // `head` is the batch the next append will take; batches count from 1.
        let last_append = head.batch().saturating_sub(1);
        let handled = self.position.map_or(0, Position::batch);
        last_append.saturating_sub(handled)
    }
}

/// Every registered follower, in order of registration.
#[must_use]
pub fn followers() -> Vec<FollowerReport> {
    let registry = REGISTRY.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    registry
        .iter()
        .map(|s| {
            let raw = s.position.load(Ordering::Relaxed);
            FollowerReport {
                name: s.name,
                kind: s.kind,
                position: raw.checked_sub(1).map(Position::from_raw),
                running: s.running.load(Ordering::Relaxed),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_follower_reports_its_position_and_lag_until_dropped() {
        let f = Follower::register("test_follower_lag", AggregateKind::Game);
        let report = || followers().into_iter().find(|r| r.name == "test_follower_lag").unwrap();
        // Nothing handled, three appends in the log (the head is batch 4).
        assert_eq!(report().position, None);
        assert_eq!(report().lag(Position::of(4, 0)), 3);
        f.at(Position::of(2, 5));
        f.at(Position::of(1, 0)); // never backwards
        assert_eq!(report().position, Some(Position::of(2, 5)));
        assert_eq!(report().lag(Position::of(4, 0)), 1);
        assert_eq!(report().lag(Position::of(3, 0)), 0, "the last append handled");
        assert_eq!(report().lag(Position::of(1, 0)), 0, "an empty log");
        assert!(report().running);
        drop(f);
        assert!(!report().running, "a dropped handle is a stopped follower");
        let again = Follower::register("test_follower_lag", AggregateKind::Game);
        assert!(report().running, "registering again replaces the stopped entry");
        drop(again);
    }
}
