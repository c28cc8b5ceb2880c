//! Shared review boards (issue 32 item 11): a teacher or commentator drives the review of a finished
//! game and everyone on the board's page follows live, as on OGS's demo boards and in KGS's reviews.
//!
//! A board is what the driver shows: the move of the game (0 … its actions), a variation played from
//! there (points, colours alternating from the side to move), and whether the estimator's territory
//! is on. Only the account that opened the board drives it; anyone with its link follows (the game is
//! finished, so nothing on it is hidden from anyone). A follower may step away on their own and
//! follow again.
//!
//! Boards are not records: the game is the record, and a board is what one person shows now. On the
//! embedded log they live in this process's memory; on JetStream they are a key-value bucket
//! (`weiqi_reviews`, one key per board, kept a day after its last change) every gateway mirrors, so a
//! follower on another gateway sees the driver's every step. Each change bumps a counter the boards'
//! streams wait on.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};

/// The bucket of shared boards on JetStream.
pub const BUCKET: &str = "weiqi_reviews";
/// The longest variation a board carries.
pub const MAX_VARIATION: usize = 361;

/// One shared board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// Its id (a UUID: the link is the invitation).
    pub id: String,
    /// The finished game reviewed.
    pub game: String,
    /// The account that drives it.
    pub driver: String,
    /// The driver's shown name.
    pub driver_name: String,
    /// The move of the game shown (0: the empty board, or the handicap stones).
    pub at: u32,
    /// The variation played from there, as points (`D4`), colours alternating.
    pub variation: Vec<String>,
    /// The estimator's territory shown.
    pub territory: bool,
    /// Bumped on every change (followers apply only newer states).
    pub version: u64,
}

/// Why a board cannot be moved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// No such board (never made, or expired).
    #[error("no such shared board")]
    Gone,
    /// Only its driver moves it.
    #[error("only the board's driver moves it")]
    NotDriver,
}

impl BoardError {
    /// A stable code (a `refusal-…` message of the catalogue).
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            BoardError::Gone => "review_board_gone",
            BoardError::NotDriver => "review_not_driver",
        }
    }
}

/// The boards' store is unreachable.
#[derive(Debug, thiserror::Error)]
#[error("the shared boards' store is unreachable: {0}")]
pub struct StoreError(String);

fn store_error(e: impl std::fmt::Display) -> StoreError {
    StoreError(e.to_string())
}

/// Every shared board this gateway knows (all of them, on JetStream).
pub struct SharedBoards {
    boards: Arc<Mutex<HashMap<String, Board>>>,
    changed: Arc<tokio::sync::watch::Sender<u64>>,
    bucket: OnceLock<async_nats::jetstream::kv::Store>,
}

impl Default for SharedBoards {
    fn default() -> SharedBoards {
        SharedBoards {
            boards: Arc::default(),
            changed: Arc::new(tokio::sync::watch::Sender::new(0)),
            bucket: OnceLock::new(),
        }
    }
}

impl SharedBoards {
    /// Shares the boards through JetStream from now on: opens (or makes) the bucket and mirrors it.
    ///
    /// # Errors
    /// JetStream is unreachable or refuses the bucket.
    pub async fn share_through(&self, client: async_nats::Client) -> Result<(), StoreError> {
        use futures::StreamExt;
        let day = std::time::Duration::from_secs(24 * 3600);
        let bucket =
            crate::kv::bucket(client, BUCKET, "shared review boards (weiqi web)", day).await.map_err(store_error)?;
        let mut watch = bucket.watch_with_history(">").await.map_err(store_error)?;
        let (boards, changed) = (self.boards.clone(), self.changed.clone());
        tokio::spawn(async move {
            while let Some(entry) = watch.next().await {
                let Ok(entry) = entry else { continue };
                {
                    let mut boards = boards.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    match entry.operation {
                        async_nats::jetstream::kv::Operation::Put => {
                            match serde_json::from_slice::<Board>(&entry.value) {
                                // A slower echo of an older state never replaces a newer one.
                                Ok(b) if boards.get(&entry.key).is_none_or(|old| old.version <= b.version) => {
                                    boards.insert(entry.key, b);
                                }
                                Ok(_) => continue,
                                Err(e) => tracing::warn!(key = entry.key, "an unreadable shared board is skipped: {e}"),
                            }
                        }
                        _ => {
                            boards.remove(&entry.key);
                        }
                    }
                }
                changed.send_modify(|n| *n += 1);
            }
            tracing::warn!("the shared boards' watch ended: followers here no longer see other gateways' drivers");
        });
        let _ = self.bucket.set(bucket);
        Ok(())
    }

    async fn store(&self, board: Board) -> Result<(), StoreError> {
        if let Some(bucket) = self.bucket.get() {
            let value = serde_json::to_vec(&board).map_err(store_error)?;
            bucket.put(&board.id, value.into()).await.map_err(store_error)?;
        }
        self.boards.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(board.id.clone(), board);
        self.changed.send_modify(|n| *n += 1);
        Ok(())
    }

    /// Opens a board on `game` driven by `driver`, at move `at`.
    ///
    /// # Errors
    /// The shared store is unreachable (no board is made).
    pub async fn open(&self, game: &str, driver: &str, driver_name: &str, at: u32) -> Result<Board, StoreError> {
        let board = Board {
            id: uuid::Uuid::new_v4().to_string(),
            game: game.to_string(),
            driver: driver.to_string(),
            driver_name: driver_name.to_string(),
            at,
            variation: Vec::new(),
            territory: false,
            version: 1,
        };
        self.store(board.clone()).await?;
        Ok(board)
    }

    /// The board `id`, as this gateway knows it now.
    pub fn get(&self, id: &str) -> Option<Board> {
        self.boards.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(id).cloned()
    }

    /// Moves board `id` to what `driver` shows now (checked by the caller against the game).
    ///
    /// # Errors
    /// The shared store is unreachable; inside, gone or not the driver.
    pub async fn set(
        &self,
        id: &str,
        driver: &str,
        at: u32,
        variation: Vec<String>,
        territory: bool,
    ) -> Result<Result<Board, BoardError>, StoreError> {
        let Some(mut board) = self.get(id) else { return Ok(Err(BoardError::Gone)) };
        if board.driver != driver {
            return Ok(Err(BoardError::NotDriver));
        }
        board.at = at;
        board.variation = variation;
        board.territory = territory;
        board.version += 1;
        self.store(board.clone()).await?;
        Ok(Ok(board))
    }

    /// A receiver that changes whenever any board does.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changed.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn given_a_board_when_its_driver_or_another_moves_it_then_only_the_driver_may() {
        let boards = SharedBoards::default();
        let mut heard = boards.subscribe();
        let b = boards.open("g1", "li", "李明", 12).await.unwrap();
        assert!(heard.has_changed().unwrap());
        heard.borrow_and_update();
        let moved = boards.set(&b.id, "li", 20, vec!["D4".into(), "Q16".into()], true).await.unwrap().unwrap();
        assert_eq!((moved.at, moved.variation.len(), moved.territory, moved.version), (20, 2, true, 2));
        assert!(heard.has_changed().unwrap(), "followers hear of it");
        assert_eq!(boards.set(&b.id, "wang", 3, Vec::new(), false).await.unwrap(), Err(BoardError::NotDriver));
        assert_eq!(boards.get(&b.id).unwrap().at, 20, "a refused move changes nothing");
        assert_eq!(boards.set("nope", "li", 1, Vec::new(), false).await.unwrap(), Err(BoardError::Gone));
    }
}
