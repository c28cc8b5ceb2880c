//! The read model in process (`weiqi up` without `--redis`).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use weiqi_proto::v1 as pb;

use crate::read_model::{ReadModel, StoreError, Update, page};

#[derive(Debug, Default)]
struct RoundView {
    completed: bool,
    games: BTreeMap<u32, pb::TournamentPairing>,
    byes: Vec<pb::TournamentBye>,
}

#[derive(Debug, Default)]
struct View {
    applied: u64,
    summary: pb::TournamentSummary,
    after_round: u32,
    criteria: Vec<String>,
    team: bool,
    /// entrant → (position, row)
    rows: HashMap<u32, (u32, pb::TournamentStandingRow)>,
    rounds: BTreeMap<u32, RoundView>,
}

/// The read model in a map behind a mutex. Cheap to clone (shared).
///
/// A `std` mutex, not tokio's: no critical section awaits, and each is a few map operations.
#[derive(Clone, Debug, Default)]
pub struct MemoryReadModel {
    inner: Arc<Mutex<Inner>>,
}

#[derive(Debug, Default)]
struct Inner {
    tournaments: HashMap<String, View>,
    checkpoints: HashMap<String, u64>,
}

impl MemoryReadModel {
    /// An empty read model.
    pub fn new() -> MemoryReadModel {
        MemoryReadModel::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().expect("read model lock")
    }
}

impl ReadModel for MemoryReadModel {
    async fn applied(&self, tournament: &str) -> Result<u64, StoreError> {
        Ok(self.lock().tournaments.get(tournament).map_or(0, |v| v.applied))
    }

    async fn apply(&self, u: &Update) -> Result<bool, StoreError> {
        let mut inner = self.lock();
        let v = inner.tournaments.entry(u.tournament.clone()).or_default();
        if u.sequence <= v.applied {
            return Ok(false);
        }
        v.applied = u.sequence;
        v.summary = u.summary.clone();
        if let Some(s) = &u.standings {
            v.after_round = s.after_round;
            v.criteria = s.criteria.clone();
            v.team = s.team;
            for e in &s.removed {
                v.rows.remove(e);
            }
            for (pos, row) in &s.rows {
                v.rows.insert(row.entrant, (*pos, row.clone()));
            }
        }
        for r in &u.rounds {
            let round = v.rounds.entry(r.round).or_default();
            round.completed = r.completed;
            for g in &r.games {
                round.games.insert(g.table, g.clone());
            }
            if let Some(byes) = &r.byes {
                round.byes = byes.clone();
            }
        }
        Ok(true)
    }

    async fn summary(&self, tournament: &str) -> Result<Option<pb::TournamentSummary>, StoreError> {
        Ok(self.lock().tournaments.get(tournament).map(|v| v.summary.clone()))
    }

    async fn standings(
        &self,
        tournament: &str,
        offset: u32,
        limit: u32,
    ) -> Result<Option<pb::TournamentStandings>, StoreError> {
        let inner = self.lock();
        let Some(v) = inner.tournaments.get(tournament) else { return Ok(None) };
        let mut rows: Vec<&(u32, pb::TournamentStandingRow)> = v.rows.values().collect();
        rows.sort_by_key(|(pos, row)| (*pos, row.entrant));
        let total = rows.len() as u32;
        let range = page(total, offset, limit);
        Ok(Some(pb::TournamentStandings {
            tournament_id: tournament.to_string(),
            after_round: v.after_round,
            criteria: v.criteria.clone(),
            rows: rows[range.start as usize..range.end as usize].iter().map(|(_, r)| r.clone()).collect(),
            total,
            team: v.team,
            sequence: v.applied,
        }))
    }

    async fn pairings(&self, tournament: &str, round: u32) -> Result<Option<pb::TournamentPairings>, StoreError> {
        let inner = self.lock();
        let Some(v) = inner.tournaments.get(tournament) else { return Ok(None) };
        let round = if round == 0 { v.summary.rounds_paired } else { round };
        let Some(r) = v.rounds.get(&round) else { return Ok(None) };
        Ok(Some(pb::TournamentPairings {
            tournament_id: tournament.to_string(),
            round,
            games: r.games.values().cloned().collect(),
            byes: r.byes.clone(),
            completed: r.completed,
        }))
    }

    async fn clear(&self, tournament: &str) -> Result<(), StoreError> {
        self.lock().tournaments.remove(tournament);
        Ok(())
    }

    async fn checkpoint(&self, name: &str) -> Result<Option<u64>, StoreError> {
        Ok(self.lock().checkpoints.get(name).copied())
    }

    async fn set_checkpoint(&self, name: &str, value: u64) -> Result<(), StoreError> {
        self.lock().checkpoints.insert(name.to_string(), value);
        Ok(())
    }
}
