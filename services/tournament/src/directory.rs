//! Where a registration's snapshot comes from when the organiser does not type it in.
//!
//! The player registry belongs to the ranking service. [`PlayerDirectory`] is the seam: the gateway
//! asks it for the snapshot of an account (name in both scripts, rank, club, region, country, EGD PIN
//! as they stand now) and records that in the tournament's `PlayerRegistered`, so that later rank
//! changes do not alter the event's results or exports. Until the registry is plugged in,
//! [`NoDirectory`] knows nobody and register requests carry the snapshot themselves.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use weiqi_proto::v1 as pb;

/// The directory could not answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("player directory unavailable: {0}")]
pub struct DirectoryUnavailable(pub String);

/// A boxed future (the trait is used as `dyn`).
pub type Lookup<'a> =
    Pin<Box<dyn Future<Output = Result<Option<pb::TournamentPlayerSnapshot>, DirectoryUnavailable>> + Send + 'a>>;

/// Looks up a player's current snapshot by platform account.
pub trait PlayerDirectory: Send + Sync {
    /// The snapshot of `account` now, or `None` if the directory does not know it.
    fn snapshot<'a>(&'a self, account: &'a str) -> Lookup<'a>;
}

/// A directory that knows nobody: register requests must carry the snapshot.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoDirectory;

impl PlayerDirectory for NoDirectory {
    fn snapshot<'a>(&'a self, _account: &'a str) -> Lookup<'a> {
        Box::pin(async { Ok(None) })
    }
}

/// A directory held in memory (tests, demos, imports).
#[derive(Clone, Debug, Default)]
pub struct MemoryDirectory {
    players: Arc<Mutex<HashMap<String, pb::TournamentPlayerSnapshot>>>,
}

impl MemoryDirectory {
    /// An empty directory.
    pub fn new() -> MemoryDirectory {
        MemoryDirectory::default()
    }

    /// Adds or replaces a player.
    pub fn insert(&self, account: &str, snapshot: pb::TournamentPlayerSnapshot) {
        self.players.lock().expect("directory lock").insert(account.to_string(), snapshot);
    }
}

impl PlayerDirectory for MemoryDirectory {
    fn snapshot<'a>(&'a self, account: &'a str) -> Lookup<'a> {
        let found = self.players.lock().expect("directory lock").get(account).cloned();
        Box::pin(async move { Ok(found) })
    }
}
