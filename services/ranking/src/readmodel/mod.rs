//! Read models: leaderboards by rank band and region (sorted sets), each player's row, and their
//! rating and rank histories. One trait, [`ReadModel`], two implementations with the same
//! semantics: [`RedisReadModel`] (sorted sets and lists in Redis) and [`MemoryReadModel`] (for
//! `weiqi up` without `--redis`). One test suite (`tests/read_model.rs`) runs on both.
//!
//! The read model is a projection of the player logs ([`crate::projector`]): it can be dropped and
//! rebuilt from them at any time. Each change carries the log position it comes from; the model
//! stores the last position applied and skips anything at or before it, so applying twice changes
//! nothing.
//!
//! # Boards
//!
//! A player is on a board once rated. Boards: `all`, `band:<band>`, `region:<region>` and
//! `band:<band>:region:<region>`; bands are [`crate::domain::player::rank_band`] of the player's
//! national rank. Order: rating descending, ties by player id descending (Redis `ZREVRANGE` order).

mod memory;
mod redis;

use std::future::Future;

use serde::{Deserialize, Serialize};
use weiqi_rating::Rank;

pub use self::memory::MemoryReadModel;
pub use self::redis::RedisReadModel;
use crate::domain::player::{Profile, RankEntry, RatingPoint, rank_band};

/// A leaderboard: all players, or one band, one region, or both.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Rank band ([`crate::domain::BANDS`]).
    pub band: Option<String>,
    /// Region.
    pub region: Option<String>,
}

impl Board {
    /// Every player.
    #[must_use]
    pub fn all() -> Board {
        Board::default()
    }

    /// The board's key suffix.
    #[must_use]
    pub fn key(&self) -> String {
        match (&self.band, &self.region) {
            (None, None) => "all".to_owned(),
            (Some(b), None) => format!("band:{b}"),
            (None, Some(r)) => format!("region:{r}"),
            (Some(b), Some(r)) => format!("band:{b}:region:{r}"),
        }
    }
}

/// One player as the read model shows them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerRow {
    /// Player id.
    pub player: String,
    /// Name in Chinese script.
    pub name_zh: String,
    /// Name in Latin script.
    pub name_latin: String,
    /// Amateur grade held.
    pub amateur: Option<String>,
    /// Professional grade held.
    pub professional: Option<String>,
    /// Region.
    pub region: String,
    /// Club.
    pub club: String,
    /// Rating, once rated.
    pub rating: Option<f64>,
    /// Deviation.
    pub deviation: f64,
    /// Rated games.
    pub games: u32,
    /// Provisional.
    pub provisional: bool,
}

impl PlayerRow {
    /// Whether the row matches a staff search: its id, either name, region or club contains `query`
    /// (case folded; an empty query matches every row).
    #[must_use]
    pub fn matches(&self, query: &str) -> bool {
        let q = query.trim().to_lowercase();
        q.is_empty()
            || [&self.player, &self.name_zh, &self.name_latin, &self.region, &self.club]
                .iter()
                .any(|f| f.to_lowercase().contains(&q))
    }

    /// The national rank shown: professional if held, else amateur.
    #[must_use]
    pub fn rank(&self) -> Option<Rank> {
        self.professional.iter().chain(self.amateur.iter()).find_map(|g| g.parse().ok())
    }

    /// The boards the player is on (none until rated).
    #[must_use]
    pub fn boards(&self) -> Vec<Board> {
        if self.rating.is_none() {
            return Vec::new();
        }
        let band = Some(rank_band(self.rank()).to_owned());
        let mut boards = vec![Board::all(), Board { band: band.clone(), region: None }];
        if !self.region.is_empty() {
            let region = Some(self.region.clone());
            boards.push(Board { band: None, region: region.clone() });
            boards.push(Board { band, region });
        }
        boards
    }

    /// Applies a change to the row.
    pub fn apply(&mut self, change: &Change) {
        match change {
            Change::Profile(p) => {
                self.player = p.id.0.clone();
                self.name_zh = p.name_zh.clone();
                self.name_latin = p.name_latin.clone();
                self.region = p.region.clone();
                self.club = p.club.clone();
            }
            Change::Rank { player, entry } => {
                self.player = player.clone();
                match entry.ladder.as_str() {
                    "amateur" => self.amateur = entry.grade.clone(),
                    "professional" => self.professional = entry.grade.clone(),
                    _ => {}
                }
            }
            Change::Rating { player, point } => {
                self.player = player.clone();
                self.rating = Some(point.rating);
                self.deviation = point.deviation;
                self.games = point.games;
                self.provisional = point.provisional;
            }
        }
    }
}

/// One change from a player's log.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Registered or profile updated.
    Profile(Profile),
    /// A grade change (appended to the rank history).
    Rank {
        /// The player.
        player: String,
        /// The change.
        entry: RankEntry,
    },
    /// A rating change (appended to the rating history).
    Rating {
        /// The player.
        player: String,
        /// The new rating.
        point: RatingPoint,
    },
}

impl Change {
    /// The player it concerns.
    #[must_use]
    pub fn player(&self) -> &str {
        match self {
            Change::Profile(p) => &p.id.0,
            Change::Rank { player, .. } | Change::Rating { player, .. } => player,
        }
    }
}

/// One row of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderboardEntry {
    /// 1-based place on the board.
    pub place: u32,
    /// The player.
    pub row: PlayerRow,
}

/// A page of a leaderboard.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Leaderboard {
    /// Players on the board.
    pub total: u64,
    /// The page.
    pub entries: Vec<LeaderboardEntry>,
}

/// A read model fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadModelError {
    /// The store cannot be reached (gRPC `Unavailable`).
    #[error("read model unavailable: {0}")]
    Unavailable(String),
    /// Stored data does not decode.
    #[error("corrupt read model data: {0}")]
    Corrupt(String),
}

/// The ranking read models.
pub trait ReadModel: Send + Sync {
    /// The last log position applied (`None`: nothing yet).
    fn checkpoint(&self) -> impl Future<Output = Result<Option<u64>, ReadModelError>> + Send;

    /// Applies changes tagged with their log positions, in order: all or none, skipping those at or
    /// before the checkpoint, which then moves to the last position.
    fn apply(&self, changes: &[(u64, Change)]) -> impl Future<Output = Result<(), ReadModelError>> + Send;

    /// A page of a board.
    fn leaderboard(
        &self,
        board: &Board,
        offset: usize,
        limit: usize,
    ) -> impl Future<Output = Result<Leaderboard, ReadModelError>> + Send;

    /// One player's row.
    fn player(&self, id: &str) -> impl Future<Output = Result<Option<PlayerRow>, ReadModelError>> + Send;

    /// The last `limit` rating changes of a player, oldest first.
    fn rating_history(
        &self,
        id: &str,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<RatingPoint>, ReadModelError>> + Send;

    /// Every grade change of a player, oldest first.
    fn rank_history(&self, id: &str) -> impl Future<Output = Result<Vec<RankEntry>, ReadModelError>> + Send;

    /// Registered players whose row [`PlayerRow::matches`] `query`, by id, at most `limit` (the
    /// registry page's search).
    fn search(&self, query: &str, limit: usize) -> impl Future<Output = Result<Vec<PlayerRow>, ReadModelError>> + Send;

    /// Drops everything (before a rebuild).
    fn clear(&self) -> impl Future<Output = Result<(), ReadModelError>> + Send;
}

/// Either read model, chosen at run time. Cheap to clone.
#[derive(Clone, Debug)]
pub enum AnyReadModel {
    /// Redis.
    Redis(RedisReadModel),
    /// In memory.
    Memory(MemoryReadModel),
}

impl AnyReadModel {
    /// `"redis"` or `"memory"`.
    #[must_use]
    pub fn backend(&self) -> &'static str {
        match self {
            AnyReadModel::Redis(_) => "redis",
            AnyReadModel::Memory(_) => "memory",
        }
    }
}

impl From<RedisReadModel> for AnyReadModel {
    fn from(m: RedisReadModel) -> Self {
        AnyReadModel::Redis(m)
    }
}

impl From<MemoryReadModel> for AnyReadModel {
    fn from(m: MemoryReadModel) -> Self {
        AnyReadModel::Memory(m)
    }
}

macro_rules! either {
    ($self:ident, $m:ident => $call:expr) => {
        match $self {
            AnyReadModel::Redis($m) => $call.await,
            AnyReadModel::Memory($m) => $call.await,
        }
    };
}

impl ReadModel for AnyReadModel {
    async fn checkpoint(&self) -> Result<Option<u64>, ReadModelError> {
        either!(self, m => m.checkpoint())
    }
    async fn apply(&self, changes: &[(u64, Change)]) -> Result<(), ReadModelError> {
        either!(self, m => m.apply(changes))
    }
    async fn leaderboard(&self, board: &Board, offset: usize, limit: usize) -> Result<Leaderboard, ReadModelError> {
        either!(self, m => m.leaderboard(board, offset, limit))
    }
    async fn player(&self, id: &str) -> Result<Option<PlayerRow>, ReadModelError> {
        either!(self, m => m.player(id))
    }
    async fn rating_history(&self, id: &str, limit: usize) -> Result<Vec<RatingPoint>, ReadModelError> {
        either!(self, m => m.rating_history(id, limit))
    }
    async fn rank_history(&self, id: &str) -> Result<Vec<RankEntry>, ReadModelError> {
        either!(self, m => m.rank_history(id))
    }
    async fn search(&self, query: &str, limit: usize) -> Result<Vec<PlayerRow>, ReadModelError> {
        either!(self, m => m.search(query, limit))
    }
    async fn clear(&self) -> Result<(), ReadModelError> {
        either!(self, m => m.clear())
    }
}
