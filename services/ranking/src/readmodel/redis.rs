//! The Redis read model.
//!
//! Keys (all under a prefix, `rk:` by default):
//!
//! | key | type | content |
//! | --- | --- | --- |
//! | `lb:<board>` | sorted set | player id → rating, one per [`Board::key`] |
//! | `player:<id>` | string | the [`PlayerRow`] as JSON |
//! | `hist:rating:<id>` | list | [`RatingPoint`]s as JSON, oldest first |
//! | `hist:rank:<id>` | list | [`RankEntry`]s as JSON, oldest first |
//! | `checkpoint` | string | the last log position applied |
//!
//! A batch of changes is one round trip to read the touched rows and the checkpoint, and one
//! `MULTI … EXEC` with every write and the new checkpoint, so a batch lands whole or not at all.
//! A leaderboard page is one round trip: a small Lua script (`EVALSHA`) runs `ZCARD`, `ZREVRANGE`
//! and the `MGET` of the rows inside Redis. The script reads the player keys it finds on the board,
//! which standalone Redis allows; a Redis Cluster deployment would need the board and its players in
//! one hash slot (a `{…}` hash tag in the prefix).

use std::collections::HashMap;
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::{Board, Change, Leaderboard, LeaderboardEntry, PlayerRow, ReadModel, ReadModelError};
use crate::domain::{RankEntry, RatingPoint};

/// One leaderboard page in one round trip: `{total, ids, rows}`.
const PAGE_SCRIPT: &str = r"
local total = redis.call('ZCARD', KEYS[1])
local ids = redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2])
if #ids == 0 then return {total, {}, {}} end
local keys = {}
for i, id in ipairs(ids) do keys[i] = ARGV[3] .. id end
return {total, ids, redis.call('MGET', unpack(keys))}
";

/// Leaderboards and histories in Redis. Cheap to clone (one multiplexed connection, reconnecting).
#[derive(Clone)]
pub struct RedisReadModel {
    conn: ConnectionManager,
    prefix: String,
    page: std::sync::Arc<redis::Script>,
}

impl std::fmt::Debug for RedisReadModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisReadModel").field("prefix", &self.prefix).finish_non_exhaustive()
    }
}

fn unavailable(e: &redis::RedisError) -> ReadModelError {
    ReadModelError::Unavailable(e.to_string())
}

impl RedisReadModel {
    /// Connects to `url` (`redis://host:port`); keys start with `prefix` (e.g. `rk:`).
    ///
    /// # Errors
    /// [`ReadModelError::Unavailable`] when Redis cannot be reached.
    pub async fn connect(url: &str, prefix: &str) -> Result<RedisReadModel, ReadModelError> {
        let client = redis::Client::open(url).map_err(|e| unavailable(&e))?;
        let config = ConnectionManagerConfig::new()
            .set_response_timeout(Some(Duration::from_secs(2)))
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_number_of_retries(3)
            .set_max_delay(Duration::from_millis(500));
        let conn = ConnectionManager::new_with_config(client, config).await.map_err(|e| unavailable(&e))?;
        Ok(RedisReadModel {
            conn,
            prefix: prefix.to_owned(),
            page: std::sync::Arc::new(redis::Script::new(PAGE_SCRIPT)),
        })
    }

    fn key(&self, suffix: &str) -> String {
        format!("{}{suffix}", self.prefix)
    }

    fn board_key(&self, board: &Board) -> String {
        self.key(&format!("lb:{}", board.key()))
    }

    fn row_key(&self, id: &str) -> String {
        self.key(&format!("player:{id}"))
    }
}

fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ReadModelError> {
    serde_json::from_str(text).map_err(|e| ReadModelError::Corrupt(e.to_string()))
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("read model rows serialise")
}

impl ReadModel for RedisReadModel {
    async fn checkpoint(&self) -> Result<Option<u64>, ReadModelError> {
        let mut conn = self.conn.clone();
        let raw: Option<u64> =
            redis::cmd("GET").arg(self.key("checkpoint")).query_async(&mut conn).await.map_err(|e| unavailable(&e))?;
        Ok(raw)
    }

    async fn apply(&self, changes: &[(u64, Change)]) -> Result<(), ReadModelError> {
        if changes.is_empty() {
            return Ok(());
        }
        let mut conn = self.conn.clone();
        // The touched players, in first-seen order, and their rows with the checkpoint.
        let mut ids: Vec<&str> = Vec::new();
        for (_, c) in changes {
            if !ids.contains(&c.player()) {
                ids.push(c.player());
            }
        }
        let mut read = redis::pipe();
        read.cmd("GET").arg(self.key("checkpoint"));
        read.cmd("MGET").arg(ids.iter().map(|id| self.row_key(id)).collect::<Vec<_>>());
        let (checkpoint, rows): (Option<u64>, Vec<Option<String>>) =
            read.query_async(&mut conn).await.map_err(|e| unavailable(&e))?;
        let fresh: Vec<&(u64, Change)> = changes.iter().filter(|(p, _)| checkpoint.is_none_or(|c| *p > c)).collect();
        let Some(last) = fresh.iter().map(|(p, _)| *p).max() else {
            return Ok(());
        };
        let mut before: HashMap<&str, PlayerRow> = HashMap::new();
        for (id, row) in ids.iter().zip(rows) {
            before.insert(id, row.as_deref().map(parse).transpose()?.unwrap_or_default());
        }
        let mut after = before.clone();
        let mut write = redis::pipe();
        write.atomic();
        for (_, change) in &fresh {
            let id = change.player();
            let row = after.get_mut(id).expect("every touched player was read");
            row.apply(change);
            match change {
                Change::Rating { point, .. } => {
                    write.cmd("RPUSH").arg(self.key(&format!("hist:rating:{id}"))).arg(json(point)).ignore();
                }
                Change::Rank { entry, .. } => {
                    write.cmd("RPUSH").arg(self.key(&format!("hist:rank:{id}"))).arg(json(entry)).ignore();
                }
                Change::Profile(_) => {}
            }
        }
        for id in &ids {
            let (old, new) = (&before[id], &after[id]);
            if old == new {
                continue;
            }
            let new_boards: Vec<String> = new.boards().iter().map(|b| self.board_key(b)).collect();
            for board in old.boards() {
                let key = self.board_key(&board);
                if !new_boards.contains(&key) {
                    write.cmd("ZREM").arg(key).arg(*id).ignore();
                }
            }
            if let Some(rating) = new.rating {
                for key in new_boards {
                    write.cmd("ZADD").arg(key).arg(rating).arg(*id).ignore();
                }
            }
            write.cmd("SET").arg(self.row_key(id)).arg(json(new)).ignore();
        }
        write.cmd("SET").arg(self.key("checkpoint")).arg(last).ignore();
        write.exec_async(&mut conn).await.map_err(|e| unavailable(&e))
    }

    async fn leaderboard(&self, board: &Board, offset: usize, limit: usize) -> Result<Leaderboard, ReadModelError> {
        if limit == 0 {
            return Ok(Leaderboard::default());
        }
        let mut conn = self.conn.clone();
        let stop = offset.saturating_add(limit - 1);
        let (total, ids, rows): (u64, Vec<String>, Vec<Option<String>>) = self
            .page
            .key(self.board_key(board))
            .arg(offset)
            .arg(stop)
            .arg(self.row_key(""))
            .invoke_async(&mut conn)
            .await
            .map_err(|e| unavailable(&e))?;
        if ids.len() != rows.len() {
            return Err(ReadModelError::Corrupt(format!("{} ids but {} rows", ids.len(), rows.len())));
        }
        let mut entries = Vec::with_capacity(rows.len());
        for (i, row) in rows.into_iter().enumerate() {
            if let Some(row) = row {
                entries.push(LeaderboardEntry {
                    place: u32::try_from(offset + i + 1).unwrap_or(u32::MAX),
                    row: parse(&row)?,
                });
            }
        }
        Ok(Leaderboard { total, entries })
    }

    async fn player(&self, id: &str) -> Result<Option<PlayerRow>, ReadModelError> {
        let mut conn = self.conn.clone();
        let row: Option<String> =
            redis::cmd("GET").arg(self.row_key(id)).query_async(&mut conn).await.map_err(|e| unavailable(&e))?;
        row.as_deref().map(parse).transpose()
    }

    async fn search(&self, query: &str, limit: usize) -> Result<Vec<PlayerRow>, ReadModelError> {
        // Every row (SCAN, a batch at a time), filtered here: a staff page over a registry of tens of
        // thousands, not a hot path.
        let mut conn = self.conn.clone();
        let pattern = self.row_key("*");
        let mut cursor: u64 = 0;
        let mut found: Vec<PlayerRow> = Vec::new();
        loop {
            let (next, keys): (u64, Vec<String>) = redis::cmd("SCAN")
                .arg(cursor)
                .arg("MATCH")
                .arg(&pattern)
                .arg("COUNT")
                .arg(1000)
                .query_async(&mut conn)
                .await
                .map_err(|e| unavailable(&e))?;
            if !keys.is_empty() {
                let rows: Vec<Option<String>> =
                    redis::cmd("MGET").arg(&keys).query_async(&mut conn).await.map_err(|e| unavailable(&e))?;
                for row in rows.into_iter().flatten() {
                    let row: PlayerRow = parse(&row)?;
                    let registered = !row.name_zh.is_empty() || !row.name_latin.is_empty() || row.amateur.is_some();
                    if registered && row.matches(query) {
                        found.push(row);
                    }
                }
            }
            cursor = next;
            if cursor == 0 {
                break;
            }
        }
        found.sort_by(|a, b| a.player.cmp(&b.player));
        found.truncate(limit);
        Ok(found)
    }

    async fn rating_history(&self, id: &str, limit: usize) -> Result<Vec<RatingPoint>, ReadModelError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let mut conn = self.conn.clone();
        let start = -(isize::try_from(limit).unwrap_or(isize::MAX));
        let items: Vec<String> = redis::cmd("LRANGE")
            .arg(self.key(&format!("hist:rating:{id}")))
            .arg(start)
            .arg(-1)
            .query_async(&mut conn)
            .await
            .map_err(|e| unavailable(&e))?;
        items.iter().map(|s| parse(s)).collect()
    }

    async fn rank_history(&self, id: &str) -> Result<Vec<RankEntry>, ReadModelError> {
        let mut conn = self.conn.clone();
        let items: Vec<String> = redis::cmd("LRANGE")
            .arg(self.key(&format!("hist:rank:{id}")))
            .arg(0)
            .arg(-1)
            .query_async(&mut conn)
            .await
            .map_err(|e| unavailable(&e))?;
        items.iter().map(|s| parse(s)).collect()
    }

    async fn clear(&self) -> Result<(), ReadModelError> {
        let mut conn = self.conn.clone();
        let mut cursor: u64 = 0;
        loop {
            let (next, keys): (u64, Vec<String>) = redis::cmd("SCAN")
                .arg(cursor)
                .arg("MATCH")
                .arg(format!("{}*", self.prefix))
                .arg("COUNT")
                .arg(1000)
                .query_async(&mut conn)
                .await
                .map_err(|e| unavailable(&e))?;
            if !keys.is_empty() {
                redis::cmd("DEL").arg(keys).exec_async(&mut conn).await.map_err(|e| unavailable(&e))?;
            }
            if next == 0 {
                return Ok(());
            }
            cursor = next;
        }
    }
}
