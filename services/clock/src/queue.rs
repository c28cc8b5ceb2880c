//! The one timer structure of the service: for each game, the next instant the service must look at it
//! (its deadline, its next byo-yomi call, its next tick, or a retry), ordered by instant.
//!
//! A game has at most one entry; setting it again replaces the old one, so a move that moves the deadline
//! costs two O(log n) updates and nothing is left behind to fire for nothing. The service sleeps once,
//! until the earliest entry, and pops everything due when it wakes. Instants are server time
//! ([`Millis`]), not monotonic time, because deadlines are computed from the events' server timestamps.

use std::collections::{BTreeSet, HashMap};
use std::hash::Hash;

use weiqi_clock::Millis;

/// Keys (game ids) ordered by the instant each is due.
#[derive(Debug, Clone)]
pub struct TimerQueue<K> {
    by_time: BTreeSet<(Millis, K)>,
    by_key: HashMap<K, Millis>,
}

impl<K: Ord + Hash + Clone> Default for TimerQueue<K> {
    fn default() -> Self {
        TimerQueue { by_time: BTreeSet::new(), by_key: HashMap::new() }
    }
}

impl<K: Ord + Hash + Clone> TimerQueue<K> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets when `key` is next due, replacing any earlier setting; `None` removes it.
    pub fn set(&mut self, key: K, at: Option<Millis>) {
        match at {
            None => self.remove(&key),
            Some(at) => {
                if let Some(old) = self.by_key.insert(key.clone(), at) {
                    if old == at {
                        return;
                    }
                    self.by_time.remove(&(old, key.clone()));
                }
                self.by_time.insert((at, key));
            }
        }
    }

    /// Removes `key`.
    pub fn remove(&mut self, key: &K) {
        if let Some(old) = self.by_key.remove(key) {
            self.by_time.remove(&(old, key.clone()));
        }
    }

    /// When `key` is due, if it is queued.
    pub fn get(&self, key: &K) -> Option<Millis> {
        self.by_key.get(key).copied()
    }

    /// The earliest instant queued.
    pub fn next(&self) -> Option<Millis> {
        self.by_time.first().map(|(at, _)| *at)
    }

    /// Removes and returns every key due at or before `now`, earliest first.
    pub fn pop_due(&mut self, now: Millis) -> Vec<K> {
        let mut due = Vec::new();
        while let Some((at, _)) = self.by_time.first() {
            if *at > now {
                break;
            }
            if let Some((_, key)) = self.by_time.pop_first() {
                self.by_key.remove(&key);
                due.push(key);
            }
        }
        due
    }

    /// How many keys are queued.
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// True if nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_key_set_again_fires_once_at_its_new_instant() {
        let mut q = TimerQueue::new();
        q.set("g1", Some(Millis(100)));
        q.set("g2", Some(Millis(50)));
        q.set("g1", Some(Millis(30))); // a move moved g1's deadline
        assert_eq!(q.len(), 2);
        assert_eq!(q.next(), Some(Millis(30)));
        assert_eq!(q.pop_due(Millis(60)), vec!["g1", "g2"]);
        assert_eq!(q.pop_due(Millis(1_000)), Vec::<&str>::new(), "the old 100 ms entry is gone");
        assert!(q.is_empty());
    }

    #[test]
    fn an_entry_due_exactly_now_is_due() {
        let mut q = TimerQueue::new();
        q.set("g", Some(Millis(10)));
        assert!(q.pop_due(Millis(9)).is_empty());
        assert_eq!(q.pop_due(Millis(10)), vec!["g"]);
    }

    proptest! {
        /// The queue agrees with a map from key to instant under any sequence of sets, removals and pops.
        #[test]
        fn the_queue_behaves_like_a_map_of_instants(
            ops in proptest::collection::vec((0u8..3, 0u8..8, 0i64..100), 0..200)
        ) {
            let mut q = TimerQueue::new();
            let mut model: HashMap<u8, Millis> = HashMap::new();
            for (op, key, t) in ops {
                match op {
                    0 => { q.set(key, Some(Millis(t))); model.insert(key, Millis(t)); }
                    1 => { q.set(key, None); model.remove(&key); }
                    _ => {
                        let now = Millis(t);
                        let mut expected: Vec<(Millis, u8)> =
                            model.iter().filter(|(_, at)| **at <= now).map(|(k, at)| (*at, *k)).collect();
                        expected.sort();
                        model.retain(|_, at| *at > now);
                        let got = q.pop_due(now);
                        prop_assert_eq!(got, expected.into_iter().map(|(_, k)| k).collect::<Vec<_>>());
                    }
                }
                prop_assert_eq!(q.len(), model.len());
                prop_assert_eq!(q.next(), model.values().min().copied());
            }
        }
    }
}
