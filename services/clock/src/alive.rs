//! When the platform could last take a move, and the outages in between (RULES.md, beside Art. 12).
//!
//! Time during which the platform could not take a move is no player's time. The clock service keeps
//! a heartbeat: every second it asks the game log for its head, and each answer is a moment at which
//! a move could have been recorded ([`Alive::ok`]). A failed heartbeat, a flag the game service could
//! not take, or a follower of the log that broke marks the platform down from the last good moment
//! ([`Alive::failed`]); the next good heartbeat closes that outage.
//!
//! A process that is killed leaves no failure behind, so the embedded deployment (`weiqi up`: the log,
//! the game service and the clock in one process) writes the last good moment to a file
//! (`<data dir>/clock.alive`) at every heartbeat; the next start reads it and counts the time since as
//! an outage of reason [`OutageReason::Restart`]. (A clock service restarted alone, beside a game
//! service that kept taking moves, has no such file: the platform was up.)
//!
//! An outage shorter than [`MIN_OUTAGE`] is not counted (a heartbeat that merely came late). The
//! service excuses every running clock an outage overlaps by asking the game service to record
//! `OutageExcused { from, to }` (`from` never before the game's last event), before any flag: the
//! clock then resumes from the last moment a move could be taken.

use std::path::PathBuf;
use std::sync::Mutex;

use weiqi_clock::{DurationMs, Millis};
use weiqi_game::domain::OutageReason;

/// Outages shorter than this are not excused (a late heartbeat, not a platform that was down).
pub const MIN_OUTAGE: DurationMs = DurationMs::from_secs(2);

/// A time the platform could not take a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outage {
    /// The last moment a move could be taken.
    pub from: Millis,
    /// When one could be again (for an outage still going on: now).
    pub to: Millis,
    /// Why.
    pub reason: OutageReason,
}

#[derive(Debug, Default)]
struct State {
    last_ok: Option<Millis>,
    down_since: Option<(Millis, OutageReason)>,
    outages: Vec<Outage>,
}

/// The heartbeat's record.
#[derive(Debug)]
pub struct Alive {
    file: Option<PathBuf>,
    state: Mutex<State>,
}

impl Alive {
    /// A record kept in memory only.
    pub fn in_memory() -> Alive {
        Alive { file: None, state: Mutex::default() }
    }

    /// A record also written to `file` (the embedded deployment). If the file holds the last good
    /// moment of an earlier process, the platform has been down since then.
    pub fn with_file(file: PathBuf) -> Alive {
        let last = std::fs::read_to_string(&file).ok().and_then(|t| t.trim().parse::<i64>().ok()).map(Millis);
        let state =
            State { last_ok: last, down_since: last.map(|at| (at, OutageReason::Restart)), outages: Vec::new() };
        Alive { file: Some(file), state: Mutex::new(state) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The platform could take a move at `now`: closes an outage going on, and notes `now`. Answers
    /// whether an outage was closed.
    pub fn ok(&self, now: Millis) -> bool {
        let closed = {
            let mut s = self.lock();
            let closed = match s.down_since.take() {
                Some((from, reason)) if now.0 - from.0 >= MIN_OUTAGE.0 => {
                    s.outages.push(Outage { from, to: now, reason });
                    // Keep the record small: the latest outages are the ones clocks still overlap.
                    if s.outages.len() > 64 {
                        s.outages.remove(0);
                    }
                    true
                }
                _ => false,
            };
            s.last_ok = Some(s.last_ok.map_or(now, |t| t.max(now)));
            closed
        };
        if let Some(file) = &self.file {
            // Written whole then renamed, so a kill mid-write leaves the previous moment.
            let tmp = file.with_extension("alive.tmp");
            if std::fs::write(&tmp, now.0.to_string()).and_then(|()| std::fs::rename(&tmp, file)).is_err() {
                tracing::warn!(file = %file.display(), "clock service: cannot write the heartbeat file");
            }
        }
        closed
    }

    /// The platform could not take a move just now (the log did not answer): down since the last good
    /// moment, unless already so.
    pub fn failed(&self, now: Millis) {
        let mut s = self.lock();
        if s.down_since.is_none() {
            let since = s.last_ok.unwrap_or(now);
            s.down_since = Some((since, OutageReason::LogUnavailable));
        }
    }

    /// The last moment the log answered, if any.
    pub fn last_ok(&self) -> Option<Millis> {
        self.lock().last_ok
    }

    /// Whether the platform is down now, as far as the heartbeat knows.
    pub fn down(&self) -> bool {
        self.lock().down_since.is_some()
    }

    /// The outage to excuse for a clock whose turn ran from `last_event` (the game's last event): the
    /// latest one that ended after it. `None` when none did (or when one is still going on: the
    /// excuse waits until it is over).
    pub fn excuse_for(&self, last_event: Millis) -> Option<Outage> {
        let s = self.lock();
        if s.down_since.is_some() {
            return None;
        }
        s.outages.iter().rev().find(|o| o.to > last_event).map(|o| Outage { from: o.from.max(last_event), ..*o })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Millis = Millis(1_700_000_000_000);

    fn at(s: i64) -> Millis {
        T + DurationMs::from_secs(s)
    }

    #[test]
    fn a_failed_heartbeat_is_an_outage_from_the_last_good_moment_to_the_next() {
        let a = Alive::in_memory();
        a.ok(at(0));
        a.ok(at(1));
        a.failed(at(2));
        a.failed(at(3));
        assert!(a.down());
        assert_eq!(a.excuse_for(at(0)), None, "not while it goes on");
        assert!(a.ok(at(7)));
        let outage = Outage { from: at(1), to: at(7), reason: OutageReason::LogUnavailable };
        assert_eq!(a.excuse_for(at(0)), Some(outage));
        assert_eq!(a.excuse_for(at(4)), Some(Outage { from: at(4), ..outage }), "never before the last event");
        assert_eq!(a.excuse_for(at(7)), None, "excused already (the game's last event is its end)");
    }

    #[test]
    fn a_late_heartbeat_is_no_outage() {
        let a = Alive::in_memory();
        a.ok(at(0));
        a.failed(at(1));
        assert!(!a.ok(at(1) + DurationMs(500)));
        assert_eq!(a.excuse_for(at(0)), None);
    }

    #[test]
    fn a_restart_counts_from_the_moment_the_file_holds() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("clock.alive");
        let first = Alive::with_file(file.clone());
        assert!(!first.down(), "a first start was never up before");
        first.ok(at(2));
        drop(first);
        let second = Alive::with_file(file);
        assert!(second.down());
        assert!(second.ok(at(22)));
        assert_eq!(second.excuse_for(at(0)), Some(Outage { from: at(2), to: at(22), reason: OutageReason::Restart }));
    }
}
