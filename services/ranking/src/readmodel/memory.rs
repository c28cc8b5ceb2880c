//! The in-memory read model, for `weiqi up` without `--redis`.

use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use super::{Board, Change, Leaderboard, LeaderboardEntry, PlayerRow, ReadModel, ReadModelError};
use crate::domain::{RankEntry, RatingPoint};

/// A rating as a sorted-set score (total order, like Redis's doubles).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Score(f64);

impl Eq for Score {}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Score descending, then member descending: Redis `ZREVRANGE` order.
type SortedSet = BTreeSet<(Reverse<Score>, Reverse<String>)>;

#[derive(Default, Debug)]
struct State {
    checkpoint: Option<u64>,
    rows: HashMap<String, PlayerRow>,
    boards: HashMap<String, SortedSet>,
    ratings: HashMap<String, Vec<RatingPoint>>,
    ranks: HashMap<String, Vec<RankEntry>>,
}

/// Leaderboards and histories in process memory. Cheap to clone (shared).
///
/// A `std` mutex, not tokio's: no critical section awaits, and each is short (a page read, or one
/// batch of changes).
#[derive(Clone, Debug, Default)]
pub struct MemoryReadModel {
    state: Arc<Mutex<State>>,
}

impl MemoryReadModel {
    /// An empty model.
    #[must_use]
    pub fn new() -> MemoryReadModel {
        MemoryReadModel::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().expect("read model lock")
    }
}

impl ReadModel for MemoryReadModel {
    async fn checkpoint(&self) -> Result<Option<u64>, ReadModelError> {
        Ok(self.lock().checkpoint)
    }

    async fn apply(&self, changes: &[(u64, Change)]) -> Result<(), ReadModelError> {
        let mut s = self.lock();
        let from = s.checkpoint;
        let fresh: Vec<&(u64, Change)> = changes.iter().filter(|(p, _)| from.is_none_or(|c| *p > c)).collect();
        let Some(last) = fresh.iter().map(|(p, _)| *p).max() else {
            return Ok(());
        };
        for (_, change) in fresh {
            let id = change.player().to_owned();
            let old = s.rows.get(&id).cloned().unwrap_or_default();
            let mut row = old.clone();
            row.apply(change);
            for board in old.boards() {
                if let Some(set) = s.boards.get_mut(&board.key()) {
                    set.remove(&(Reverse(Score(old.rating.unwrap_or_default())), Reverse(id.clone())));
                }
            }
            if let Some(rating) = row.rating {
                for board in row.boards() {
                    s.boards.entry(board.key()).or_default().insert((Reverse(Score(rating)), Reverse(id.clone())));
                }
            }
            match change {
                Change::Rating { point, .. } => s.ratings.entry(id.clone()).or_default().push(point.clone()),
                Change::Rank { entry, .. } => s.ranks.entry(id.clone()).or_default().push(entry.clone()),
                Change::Profile(_) => {}
            }
            s.rows.insert(id, row);
        }
        s.checkpoint = Some(last);
        Ok(())
    }

    async fn leaderboard(&self, board: &Board, offset: usize, limit: usize) -> Result<Leaderboard, ReadModelError> {
        let s = self.lock();
        let Some(set) = s.boards.get(&board.key()) else {
            return Ok(Leaderboard::default());
        };
        let entries = set
            .iter()
            .skip(offset)
            .take(limit)
            .enumerate()
            .filter_map(|(i, (_, Reverse(id)))| {
                let row = s.rows.get(id)?.clone();
                Some(LeaderboardEntry { place: u32::try_from(offset + i + 1).unwrap_or(u32::MAX), row })
            })
            .collect();
        Ok(Leaderboard { total: set.len() as u64, entries })
    }

    async fn player(&self, id: &str) -> Result<Option<PlayerRow>, ReadModelError> {
        Ok(self.lock().rows.get(id).cloned())
    }

    async fn rating_history(&self, id: &str, limit: usize) -> Result<Vec<RatingPoint>, ReadModelError> {
        let s = self.lock();
        let all = s.ratings.get(id).map(Vec::as_slice).unwrap_or_default();
        Ok(all[all.len().saturating_sub(limit)..].to_vec())
    }

    async fn rank_history(&self, id: &str) -> Result<Vec<RankEntry>, ReadModelError> {
        Ok(self.lock().ranks.get(id).cloned().unwrap_or_default())
    }

    async fn search(&self, query: &str, limit: usize) -> Result<Vec<PlayerRow>, ReadModelError> {
        let s = self.lock();
        let mut found: Vec<PlayerRow> = s
            .rows
            .values()
            .filter(|r| !r.name_zh.is_empty() || !r.name_latin.is_empty() || r.amateur.is_some())
            .filter(|r| r.matches(query))
            .cloned()
            .collect();
        found.sort_by(|a, b| a.player.cmp(&b.player));
        found.truncate(limit);
        Ok(found)
    }

    async fn clear(&self) -> Result<(), ReadModelError> {
        *self.lock() = State::default();
        Ok(())
    }
}
