//! The player registry: every player's log (kind `player`, id = the player id) on the one runner.
//!
//! Ratings are recorded for any player id seen in a rated game, registered or not; registration adds
//! the profile. The player aggregate itself (decide, evolve) is [`crate::domain::player`]; its types
//! are re-exported here.
//!
//! **No lock of its own**: every command names one player's log, and the runner's per-aggregate lock
//! already serialises commands to one player (and the expected sequence those of other instances).

use weiqi_aggregate::{Request, Runner, RunnerConfig};
use weiqi_eventlog::{AggregateId, EventLog};
use weiqi_rating::{PlayerId, Standing};

use crate::aggregate::{Declined, PlayerAggregate};
use crate::domain::{Actor, RankingRejection};
use crate::error::RankingError;
use crate::logs::command_id;

pub use crate::domain::player::{
    BANDS, DeclaredGrade, Holding, PlayerCommand, PlayerEvent, PlayerState, Profile, ProposalRecord, RankBasis,
    RankEntry, RatingPoint, decide_player, declared_grade, ladder_of_grade, rank_band,
};

/// Recent command outcomes each cached player remembers, to answer retries without the log.
const RECENT_COMMANDS: usize = 64;

/// A player as the registry shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct RegistryEntry {
    /// The profile.
    pub profile: Profile,
    /// The full state (grades held, rating, histories).
    pub state: PlayerState,
}

/// Checks that a player id names a player's log.
///
/// # Errors
/// `bad_player_id` when the id is not a log name or starts with `_` (reserved for the ledger).
pub fn player_aggregate(player: &PlayerId) -> Result<AggregateId, RankingError> {
    if player.0.starts_with('_') {
        return Err(RankingRejection::ReservedPlayerId(player.clone()).into());
    }
    AggregateId::new(&player.0)
        .map_err(|e| RankingRejection::BadPlayerId { id: player.0.clone(), reason: e.to_string() }.into())
}

/// The players' logs.
pub struct PlayerRegistry<L> {
    runner: Runner<PlayerAggregate, L>,
}

impl<L> std::fmt::Debug for PlayerRegistry<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlayerRegistry").finish_non_exhaustive()
    }
}

impl<L: EventLog> PlayerRegistry<L> {
    /// The registry over `log`, with time from `env`.
    pub fn new(log: L, env: std::sync::Arc<dyn weiqi_aggregate::Environment>) -> PlayerRegistry<L> {
        PlayerRegistry { runner: Runner::with_config(log, env, RunnerConfig { recent: RECENT_COMMANDS }) }
    }

    /// Runs one command on a player's log, its id derived from `description` (a retry derives the same
    /// id). A command that changes nothing appends nothing.
    ///
    /// # Errors
    /// The player's refusal, `request_id_reused`, `bad_player_id`; faults.
    pub async fn execute(
        &self,
        player: &PlayerId,
        description: &str,
        actor: &Actor,
        command: &PlayerCommand,
    ) -> Result<(), RankingError> {
        player_aggregate(player)?;
        let cid = command_id(description);
        match self.runner.execute(Request::new(&player.0, cid.as_str(), actor, command)).await {
            Ok(_) | Err(weiqi_aggregate::RunError::Rejected(Declined::Unchanged)) => Ok(()),
            Err(e) => Err(RankingError::from_run(e, |reason| {
                RankingRejection::BadPlayerId { id: player.0.clone(), reason }.into()
            })),
        }
    }

    /// A player's state, caught up with the log (empty for a player never seen).
    ///
    /// # Errors
    /// `bad_player_id`; faults.
    pub async fn state(&self, player: &PlayerId) -> Result<PlayerState, RankingError> {
        player_aggregate(player)?;
        self.runner.read(&player.0, |state, _| state.clone()).await.map_err(|e| {
            RankingError::from_run(e, |reason| RankingRejection::BadPlayerId { id: player.0.clone(), reason }.into())
        })
    }

    /// The registry entry of a player; `None` if not registered.
    ///
    /// # Errors
    /// `bad_player_id`; faults.
    pub async fn entry(&self, player: &PlayerId) -> Result<Option<RegistryEntry>, RankingError> {
        let state = self.state(player).await?;
        Ok(state.profile.clone().map(|profile| RegistryEntry { profile, state }))
    }

    /// Where a registered player stands in a ladder.
    ///
    /// # Errors
    /// `not_registered`, `bad_player_id`; faults.
    pub async fn standing(&self, player: &PlayerId, ladder: &str) -> Result<Standing, RankingError> {
        Ok(self.state(player).await?.standing(player, ladder)?)
    }
}
