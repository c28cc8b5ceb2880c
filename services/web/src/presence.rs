//! Who of a game's players has its page open (issue 32 item 14): "opponent disconnected" on the other
//! player's page, and the fact a casual game's claim of victory is decided on
//! ([`weiqi_game::domain::Command::ClaimAbsence`]).
//!
//! A player is here while one of their live streams of the game is open on any gateway. Each gateway
//! counts its own streams; on JetStream each open stream also refreshes a key of the bucket
//! `weiqi_presence` every [`REFRESH`] (entries expire after a minute), so a player connected to another
//! gateway is here too. A player is away from the moment their last stream closed (or, never seen, from
//! the first time anyone asked), and [`Presence::away`] says for how long. The time comes from the
//! server, never from a page.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use weiqi_clock::{DurationMs, Millis};

/// How often an open stream says so to the other gateways.
pub const REFRESH: Duration = Duration::from_secs(4);
/// A refresh older than this is no longer presence.
const FRESH_MS: i64 = 12_000;
const BUCKET: &str = "weiqi_presence";

#[derive(Default)]
struct Local {
    open: u32,
    /// When the last stream closed, or when the player was first asked about.
    since: Millis,
}

/// The players' presence in their games.
#[derive(Default)]
pub struct Presence {
    local: Mutex<HashMap<(String, String), Local>>,
    bucket: OnceLock<async_nats::jetstream::kv::Store>,
}

/// An open stream of a player: they are here until it is dropped.
pub struct Here {
    presence: Arc<Presence>,
    key: (String, String),
    refresher: Option<tokio::task::JoinHandle<()>>,
}

impl Drop for Here {
    fn drop(&mut self) {
        if let Some(r) = self.refresher.take() {
            r.abort();
        }
        let mut local = self.presence.local.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(l) = local.get_mut(&self.key) {
            l.open = l.open.saturating_sub(1);
            if l.open == 0 {
                l.since = crate::now();
            }
        }
    }
}

/// A bucket key: the game and the player, hex (account names may be any text).
fn key(game: &str, player: &str) -> String {
    let hex = |s: &str| s.bytes().map(|b| format!("{b:02x}")).collect::<String>();
    format!("{}.{}", hex(game), hex(player))
}

impl Presence {
    /// Shares presence through JetStream from now on.
    ///
    /// # Errors
    /// JetStream refuses the bucket.
    pub async fn share_through(&self, client: async_nats::Client) -> Result<(), String> {
        let bucket =
            crate::kv::bucket(client, BUCKET, "players with a game's page open (weiqi web)", Duration::from_secs(60))
                .await?;
        let _ = self.bucket.set(bucket);
        Ok(())
    }

    /// `player` opens a stream of `game`.
    pub fn join(self: &Arc<Self>, game: &str, player: &str) -> Here {
        let k = (game.to_string(), player.to_string());
        self.local.lock().unwrap_or_else(std::sync::PoisonError::into_inner).entry(k.clone()).or_default().open += 1;
        let refresher = self.bucket.get().cloned().map(|bucket| {
            let name = key(game, player);
            tokio::spawn(async move {
                loop {
                    let now = crate::now().0.to_string();
                    if let Err(e) = bucket.put(name.as_str(), now.into_bytes().into()).await {
                        tracing::debug!(error = %e, "presence refresh");
                    }
                    tokio::time::sleep(REFRESH).await;
                }
            })
        });
        Here { presence: self.clone(), key: k, refresher }
    }

    /// How long `player` has been away from `game` (`None`: here now).
    pub async fn away(&self, game: &str, player: &str) -> Option<DurationMs> {
        let now = crate::now();
        let since = {
            let mut local = self.local.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let l = local.entry((game.to_string(), player.to_string())).or_insert(Local { open: 0, since: now });
            if l.open > 0 {
                return None;
            }
            l.since
        };
        let mut since = since;
        if let Some(bucket) = self.bucket.get()
            && let Ok(Some(value)) = bucket.get(key(game, player)).await
            && let Some(seen) = std::str::from_utf8(&value).ok().and_then(|s| s.parse::<i64>().ok())
        {
            if now.0 - seen < FRESH_MS {
                return None;
            }
            since = Millis(since.0.max(seen));
        }
        Some(DurationMs((now.0 - since.0).max(0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_player_is_here_while_a_stream_is_open_and_away_from_when_the_last_closed() {
        let p = Arc::new(Presence::default());
        let first = p.join("g", "li");
        let second = p.join("g", "li");
        assert_eq!(p.away("g", "li").await, None);
        drop(first);
        assert_eq!(p.away("g", "li").await, None, "one stream still open");
        drop(second);
        let away = p.away("g", "li").await.expect("away once the last stream closed");
        assert!(away.0 < 1000, "{away:?}");
        assert!(p.away("g", "wang").await.is_some(), "never seen: away from the first question");
        assert_eq!(key("g", "李明"), "67.e69d8ee6988e");
    }
}
