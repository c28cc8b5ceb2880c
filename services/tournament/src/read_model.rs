//! The read model of standings and pairings: one trait, two stores ([`MemoryReadModel`] for `weiqi
//! up` without `--redis`, [`RedisReadModel`]), one conformance suite (`tests/read_model.rs`).
//!
//! The [`crate::projector::Projector`] is the only writer. It folds each tournament's log and writes
//! [`Update`]s: the rows and pairings that changed, plus the summary and the last tournament-log
//! sequence folded (`applied`), all in one atomic write. An update whose sequence is not past
//! `applied` is ignored, so replaying a log (after a restart, or a second projector) changes nothing.
//! Everything here can be deleted and rebuilt from the logs ([`ReadModel::clear`]).
//!
//! The stores also keep named checkpoints (log positions) for the process manager.

use std::future::Future;

use weiqi_proto::v1 as pb;

pub use crate::memory::MemoryReadModel;
pub use crate::redis_model::RedisReadModel;

/// A store fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The store is unreachable: retry.
    #[error("read model unavailable: {0}")]
    Unavailable(String),
    /// Stored data does not decode.
    #[error("read model corrupt: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// The gRPC status.
    pub fn to_status(&self) -> tonic::Status {
        match self {
            StoreError::Unavailable(why) => tonic::Status::unavailable(why.clone()),
            StoreError::Corrupt(why) => tonic::Status::internal(why.clone()),
        }
    }
}

/// Standings that changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StandingsUpdate {
    /// Rounds counted.
    pub after_round: u32,
    /// Ranking criteria names.
    pub criteria: Vec<String>,
    /// Team standings.
    pub team: bool,
    /// Rows in all.
    pub total: u32,
    /// Rows whose content or position changed: (position from 0, row).
    pub rows: Vec<(u32, pb::TournamentStandingRow)>,
    /// Entrants no longer ranked.
    pub removed: Vec<u32>,
}

/// A round whose pairings changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoundUpdate {
    /// The round.
    pub round: u32,
    /// All results in.
    pub completed: bool,
    /// Games that changed (new, or with a new result).
    pub games: Vec<pb::TournamentPairing>,
    /// The round's byes, when they changed.
    pub byes: Option<Vec<pb::TournamentBye>>,
}

/// One atomic write of the projector.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Update {
    /// The tournament.
    pub tournament: String,
    /// The last tournament-log sequence folded into this update.
    pub sequence: u64,
    /// The summary (its `sequence` equals `sequence`).
    pub summary: pb::TournamentSummary,
    /// Standings, if they changed.
    pub standings: Option<StandingsUpdate>,
    /// Rounds whose pairings changed.
    pub rounds: Vec<RoundUpdate>,
}

/// The read model's operations (both stores answer them identically).
pub trait ReadModel: Send + Sync {
    /// The last tournament-log sequence applied for `tournament` (0: nothing).
    fn applied(&self, tournament: &str) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// Applies an update atomically; ignored when `update.sequence` is not past [`applied`](Self::applied).
    /// Returns whether it was applied.
    fn apply(&self, update: &Update) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// The summary of a tournament.
    fn summary(
        &self,
        tournament: &str,
    ) -> impl Future<Output = Result<Option<pb::TournamentSummary>, StoreError>> + Send;

    /// Standings rows `offset..offset + limit` (limit 0: all), in order.
    fn standings(
        &self,
        tournament: &str,
        offset: u32,
        limit: u32,
    ) -> impl Future<Output = Result<Option<pb::TournamentStandings>, StoreError>> + Send;

    /// A round's pairings (round 0: the latest), games in table order.
    fn pairings(
        &self,
        tournament: &str,
        round: u32,
    ) -> impl Future<Output = Result<Option<pb::TournamentPairings>, StoreError>> + Send;

    /// Deletes everything projected for a tournament (it is rebuilt from the log).
    fn clear(&self, tournament: &str) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// A named checkpoint (a raw log position).
    fn checkpoint(&self, name: &str) -> impl Future<Output = Result<Option<u64>, StoreError>> + Send;

    /// Stores a named checkpoint.
    fn set_checkpoint(&self, name: &str, value: u64) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// Either store, chosen at run time (`--redis URL` or not). Cheap to clone.
#[derive(Clone, Debug)]
pub enum AnyReadModel {
    /// In process.
    Memory(MemoryReadModel),
    /// Redis.
    Redis(RedisReadModel),
}

impl From<MemoryReadModel> for AnyReadModel {
    fn from(m: MemoryReadModel) -> Self {
        AnyReadModel::Memory(m)
    }
}

impl From<RedisReadModel> for AnyReadModel {
    fn from(m: RedisReadModel) -> Self {
        AnyReadModel::Redis(m)
    }
}

macro_rules! dispatch {
    ($self:ident, $m:ident => $e:expr) => {
        match $self {
            AnyReadModel::Memory($m) => $e,
            AnyReadModel::Redis($m) => $e,
        }
    };
}

impl ReadModel for AnyReadModel {
    async fn applied(&self, tournament: &str) -> Result<u64, StoreError> {
        dispatch!(self, m => m.applied(tournament).await)
    }
    async fn apply(&self, update: &Update) -> Result<bool, StoreError> {
        dispatch!(self, m => m.apply(update).await)
    }
    async fn summary(&self, tournament: &str) -> Result<Option<pb::TournamentSummary>, StoreError> {
        dispatch!(self, m => m.summary(tournament).await)
    }
    async fn standings(
        &self,
        tournament: &str,
        offset: u32,
        limit: u32,
    ) -> Result<Option<pb::TournamentStandings>, StoreError> {
        dispatch!(self, m => m.standings(tournament, offset, limit).await)
    }
    async fn pairings(&self, tournament: &str, round: u32) -> Result<Option<pb::TournamentPairings>, StoreError> {
        dispatch!(self, m => m.pairings(tournament, round).await)
    }
    async fn clear(&self, tournament: &str) -> Result<(), StoreError> {
        dispatch!(self, m => m.clear(tournament).await)
    }
    async fn checkpoint(&self, name: &str) -> Result<Option<u64>, StoreError> {
        dispatch!(self, m => m.checkpoint(name).await)
    }
    async fn set_checkpoint(&self, name: &str, value: u64) -> Result<(), StoreError> {
        dispatch!(self, m => m.set_checkpoint(name, value).await)
    }
}

/// The page `offset..offset + limit` (limit 0: to the end) of `n` rows.
pub(crate) fn page(n: u32, offset: u32, limit: u32) -> std::ops::Range<u32> {
    let start = offset.min(n);
    let end = if limit == 0 { n } else { start.saturating_add(limit).min(n) };
    start..end
}
