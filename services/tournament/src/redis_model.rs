//! The read model in Redis: sorted sets and hashes, one key family per tournament.
//!
//! | key | type | content |
//! | --- | --- | --- |
//! | `weiqi:tournament:{<id>}:meta` | hash | `applied` (last tournament-log sequence folded), `summary` (an encoded `weiqi.v1.TournamentSummary`), `standings` (an encoded `weiqi.v1.TournamentStandings` without rows: round, criteria, team) |
//! | `weiqi:tournament:{<id>}:standings` | sorted set | member: entrant number; score: position in the standings (0 = first) |
//! | `weiqi:tournament:{<id>}:rows` | hash | entrant number → encoded `weiqi.v1.TournamentStandingRow` |
//! | `weiqi:tournament:{<id>}:round:<r>` | hash | `t<table>` → encoded `weiqi.v1.TournamentPairing`; `byes` → encoded `weiqi.v1.TournamentPairings` holding the byes; `completed` → `0`/`1` |
//! | `weiqi:checkpoint:<name>` | string | a raw log position |
//!
//! The `{<id>}` hash tag keeps a tournament's keys in one slot of a Redis cluster, so each update is
//! one `MULTI`/`EXEC` transaction. Values are protobuf (compact; `weiqi` decodes them for people).
//! Reads of a page of standings are one `ZRANGE` and one `HMGET`.

use prost::Message;
use redis::aio::ConnectionManager;
use weiqi_proto::v1 as pb;

use crate::read_model::{ReadModel, StoreError, Update, page};

/// The read model in Redis. Cheap to clone (one multiplexed, reconnecting connection).
#[derive(Clone)]
pub struct RedisReadModel {
    conn: ConnectionManager,
    prefix: String,
}

impl std::fmt::Debug for RedisReadModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisReadModel").field("prefix", &self.prefix).finish_non_exhaustive()
    }
}

fn unavailable(e: redis::RedisError) -> StoreError {
    StoreError::Unavailable(e.to_string())
}

fn decode<M: Message + Default>(what: &str, bytes: &[u8]) -> Result<M, StoreError> {
    M::decode(bytes).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

impl RedisReadModel {
    /// Connects to `url` (`redis://host:port`); keys start with `weiqi`.
    pub async fn connect(url: &str) -> Result<RedisReadModel, StoreError> {
        RedisReadModel::connect_with_prefix(url, "weiqi").await
    }

    /// Connects with another key prefix (several deployments, or tests, on one server).
    pub async fn connect_with_prefix(url: &str, prefix: &str) -> Result<RedisReadModel, StoreError> {
        let client = redis::Client::open(url).map_err(unavailable)?;
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(std::time::Duration::from_secs(5)))
            .set_response_timeout(Some(std::time::Duration::from_secs(10)));
        let conn = client.get_connection_manager_with_config(config).await.map_err(unavailable)?;
        Ok(RedisReadModel { conn, prefix: prefix.to_string() })
    }

    fn key(&self, tournament: &str, what: &str) -> String {
        format!("{}:tournament:{{{tournament}}}:{what}", self.prefix)
    }

    fn round_key(&self, tournament: &str, round: u32) -> String {
        self.key(tournament, &format!("round:{round}"))
    }
}

impl ReadModel for RedisReadModel {
    async fn applied(&self, tournament: &str) -> Result<u64, StoreError> {
        let mut c = self.conn.clone();
        let v: Option<u64> = redis::cmd("HGET")
            .arg(self.key(tournament, "meta"))
            .arg("applied")
            .query_async(&mut c)
            .await
            .map_err(unavailable)?;
        Ok(v.unwrap_or(0))
    }

    async fn apply(&self, u: &Update) -> Result<bool, StoreError> {
        // One projector writes a tournament at a time; the check keeps replays idempotent, and a
        // second projector would write the same content (both fold the same log).
        if u.sequence <= self.applied(&u.tournament).await? {
            return Ok(false);
        }
        let t = &u.tournament;
        let mut p = redis::pipe();
        p.atomic();
        let meta = self.key(t, "meta");
        p.cmd("HSET").arg(&meta).arg("applied").arg(u.sequence).arg("summary").arg(u.summary.encode_to_vec()).ignore();
        if let Some(s) = &u.standings {
            let header = pb::TournamentStandings {
                tournament_id: t.clone(),
                after_round: s.after_round,
                criteria: s.criteria.clone(),
                team: s.team,
                total: s.total,
                ..Default::default()
            };
            p.cmd("HSET").arg(&meta).arg("standings").arg(header.encode_to_vec()).ignore();
            let (zset, rows) = (self.key(t, "standings"), self.key(t, "rows"));
            if !s.removed.is_empty() {
                p.cmd("ZREM").arg(&zset).arg(&s.removed).ignore();
                p.cmd("HDEL").arg(&rows).arg(&s.removed).ignore();
            }
            for chunk in s.rows.chunks(1000) {
                let mut z = redis::cmd("ZADD");
                z.arg(&zset);
                let mut h = redis::cmd("HSET");
                h.arg(&rows);
                for (pos, row) in chunk {
                    z.arg(*pos).arg(row.entrant);
                    h.arg(row.entrant).arg(row.encode_to_vec());
                }
                p.add_command(z).ignore();
                p.add_command(h).ignore();
            }
        }
        for r in &u.rounds {
            let key = self.round_key(t, r.round);
            let mut h = redis::cmd("HSET");
            h.arg(&key).arg("completed").arg(if r.completed { "1" } else { "0" });
            for g in &r.games {
                h.arg(format!("t{}", g.table)).arg(g.encode_to_vec());
            }
            if let Some(byes) = &r.byes {
                h.arg("byes").arg(pb::TournamentPairings { byes: byes.clone(), ..Default::default() }.encode_to_vec());
            }
            p.add_command(h).ignore();
        }
        let mut c = self.conn.clone();
        p.query_async::<()>(&mut c).await.map_err(unavailable)?;
        Ok(true)
    }

    async fn summary(&self, tournament: &str) -> Result<Option<pb::TournamentSummary>, StoreError> {
        let mut c = self.conn.clone();
        let v: Option<Vec<u8>> = redis::cmd("HGET")
            .arg(self.key(tournament, "meta"))
            .arg("summary")
            .query_async(&mut c)
            .await
            .map_err(unavailable)?;
        v.map(|b| decode("summary", &b)).transpose()
    }

    async fn standings(
        &self,
        tournament: &str,
        offset: u32,
        limit: u32,
    ) -> Result<Option<pb::TournamentStandings>, StoreError> {
        let mut c = self.conn.clone();
        let (header, applied, total): (Option<Vec<u8>>, Option<u64>, u32) = redis::pipe()
            .cmd("HGET")
            .arg(self.key(tournament, "meta"))
            .arg("standings")
            .cmd("HGET")
            .arg(self.key(tournament, "meta"))
            .arg("applied")
            .cmd("ZCARD")
            .arg(self.key(tournament, "standings"))
            .query_async(&mut c)
            .await
            .map_err(unavailable)?;
        let Some(header) = header else {
            return Ok(applied.map(|a| pb::TournamentStandings {
                tournament_id: tournament.to_string(),
                sequence: a,
                ..Default::default()
            }));
        };
        let mut out: pb::TournamentStandings = decode("standings", &header)?;
        out.sequence = applied.unwrap_or(0);
        out.total = total;
        let range = page(total, offset, limit);
        if range.is_empty() {
            return Ok(Some(out));
        }
        let members: Vec<u32> = redis::cmd("ZRANGE")
            .arg(self.key(tournament, "standings"))
            .arg(range.start)
            .arg(range.end - 1)
            .query_async(&mut c)
            .await
            .map_err(unavailable)?;
        let rows: Vec<Option<Vec<u8>>> = redis::cmd("HMGET")
            .arg(self.key(tournament, "rows"))
            .arg(&members)
            .query_async(&mut c)
            .await
            .map_err(unavailable)?;
        for (m, r) in members.iter().zip(rows) {
            let r = r.ok_or_else(|| StoreError::Corrupt(format!("standings row {m} missing")))?;
            out.rows.push(decode("standings row", &r)?);
        }
        Ok(Some(out))
    }

    async fn pairings(&self, tournament: &str, round: u32) -> Result<Option<pb::TournamentPairings>, StoreError> {
        let round = if round == 0 {
            match self.summary(tournament).await? {
                Some(s) => s.rounds_paired,
                None => return Ok(None),
            }
        } else {
            round
        };
        let mut c = self.conn.clone();
        let fields: Vec<(String, Vec<u8>)> = redis::cmd("HGETALL")
            .arg(self.round_key(tournament, round))
            .query_async(&mut c)
            .await
            .map_err(unavailable)?;
        if fields.is_empty() {
            return Ok(None);
        }
        let mut out = pb::TournamentPairings { tournament_id: tournament.to_string(), round, ..Default::default() };
        for (name, value) in fields {
            if name == "completed" {
                out.completed = value == b"1";
            } else if name == "byes" {
                out.byes = decode::<pb::TournamentPairings>("byes", &value)?.byes;
            } else {
                out.games.push(decode("pairing", &value)?);
            }
        }
        out.games.sort_by_key(|g| g.table);
        Ok(Some(out))
    }

    async fn clear(&self, tournament: &str) -> Result<(), StoreError> {
        let rounds = self.summary(tournament).await?.map_or(0, |s| s.rounds_paired);
        let mut p = redis::pipe();
        p.atomic();
        for what in ["meta", "standings", "rows"] {
            p.cmd("DEL").arg(self.key(tournament, what)).ignore();
        }
        for r in 1..=rounds {
            p.cmd("DEL").arg(self.round_key(tournament, r)).ignore();
        }
        let mut c = self.conn.clone();
        p.query_async::<()>(&mut c).await.map_err(unavailable)
    }

    async fn checkpoint(&self, name: &str) -> Result<Option<u64>, StoreError> {
        let mut c = self.conn.clone();
        redis::cmd("GET")
            .arg(format!("{}:checkpoint:{name}", self.prefix))
            .query_async(&mut c)
            .await
            .map_err(unavailable)
    }

    async fn set_checkpoint(&self, name: &str, value: u64) -> Result<(), StoreError> {
        let mut c = self.conn.clone();
        redis::cmd("SET")
            .arg(format!("{}:checkpoint:{name}", self.prefix))
            .arg(value)
            .query_async::<()>(&mut c)
            .await
            .map_err(unavailable)
    }
}
