//! The set of earlier positions, for superko and cycle detection: one 64-bit hash per position.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Zobrist hashes are already uniformly random, so the set's hasher passes them through.
#[derive(Default, Clone, Copy)]
pub(crate) struct PassThrough(u64);

impl Hasher for PassThrough {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// Earlier positions of a game, as hashes.
#[derive(Clone, Default, Debug)]
pub(crate) struct History {
    seen: HashSet<u64, BuildHasherDefault<PassThrough>>,
}

impl History {
    pub fn with_capacity(n: usize) -> History {
        History { seen: HashSet::with_capacity_and_hasher(n, Default::default()) }
    }

    #[inline]
    pub fn contains(&self, h: u64) -> bool {
        self.seen.contains(&h)
    }

    /// Records a position; returns false if it was already there.
    #[inline]
    pub fn insert(&mut self, h: u64) -> bool {
        self.seen.insert(h)
    }

    pub fn clear(&mut self) {
        self.seen.clear();
    }

    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Approximate heap bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.seen.capacity() * (std::mem::size_of::<u64>() + 1)
    }
}
