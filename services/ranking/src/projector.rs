//! The projector: player logs → read models (leaderboards, player rows, rating and rank histories).
//!
//! It follows every player log (aggregate kind `player`) from the read model's checkpoint, turns
//! registrations, rating changes and rank changes into [`Change`]s, and applies them in batches; the
//! read model skips anything at or before its checkpoint, so a batch applied twice changes nothing.
//! [`RankingProjector::rebuild`] drops the read model and replays from the start.

use std::time::Duration;

use futures::StreamExt;
use tokio::sync::Mutex;
use weiqi_eventlog::{AggregateKind, AnyEventLog, EventLog, Position, RecordedEvent};

use crate::codec::{self, DecodeError};
use crate::domain::PlayerEvent;
use crate::error::RankingError;
use crate::logs::read_stored;
use crate::readmodel::{AnyReadModel, Change, ReadModel};

/// Changes applied per read-model batch.
const BATCH: usize = 512;

/// Projects player logs into a read model.
#[derive(Debug)]
pub struct RankingProjector {
    log: AnyEventLog,
    model: AnyReadModel,
    /// One batch at a time: `run` and `catch_up` may be called together.
    applying: Mutex<()>,
}

/// The read-model change an event makes, if any.
///
/// # Errors
/// When the event does not decode.
pub fn change_of(r: &RecordedEvent) -> Result<Option<Change>, DecodeError> {
    let player = r.aggregate_id.to_string();
    Ok(match codec::read_player(r)? {
        Some(PlayerEvent::Registered { profile, .. } | PlayerEvent::ProfileUpdated { profile, .. }) => {
            Some(Change::Profile(profile))
        }
        Some(PlayerEvent::RatingChanged(point)) => Some(Change::Rating { player, point }),
        Some(PlayerEvent::RankChanged(entry)) => Some(Change::Rank { player, entry }),
        // Invitations and merges are the registry's own record: a merged duplicate has no rating and
        // no certified grade, and the registry's search reads each entry's log (which skips it).
        Some(
            PlayerEvent::PromotionProposed(_)
            | PlayerEvent::Invited(_)
            | PlayerEvent::InvitationAccepted { .. }
            | PlayerEvent::MergedInto(_)
            | PlayerEvent::Absorbed(_),
        )
        | None => None,
    })
}

impl RankingProjector {
    /// A projector from `log` into `model`.
    #[must_use]
    pub fn new(log: AnyEventLog, model: AnyReadModel) -> RankingProjector {
        RankingProjector { log, model, applying: Mutex::new(()) }
    }

    /// The read model.
    #[must_use]
    pub fn model(&self) -> &AnyReadModel {
        &self.model
    }

    async fn from(&self) -> Result<Position, RankingError> {
        Ok(self.model.checkpoint().await?.map_or(Position::START, |c| Position::from_raw(c).next()))
    }

    async fn apply(&self, events: &[RecordedEvent]) -> Result<(), RankingError> {
        let mut changes = Vec::with_capacity(events.len());
        for r in events {
            match change_of(r) {
                Ok(Some(c)) => changes.push((r.position.raw(), c)),
                Ok(None) => {}
                Err(e) => tracing::error!(error = %e, "projector: event skipped"),
            }
        }
        // Advance the checkpoint past events that change nothing, too.
        if changes.is_empty() {
            return Ok(());
        }
        let _one = self.applying.lock().await;
        self.model.apply(&changes).await?;
        Ok(())
    }

    /// Applies everything stored in the player logs now. Returns the number of events read.
    ///
    /// # Errors
    /// Faults of the log or the read model.
    pub async fn catch_up(&self) -> Result<usize, RankingError> {
        let events = read_stored(&self.log, AggregateKind::Player, self.from().await?).await?;
        for chunk in events.chunks(BATCH) {
            self.apply(chunk).await?;
        }
        Ok(events.len())
    }

    /// Drops the read model and projects every player log again.
    ///
    /// # Errors
    /// Faults of the log or the read model.
    pub async fn rebuild(&self) -> Result<usize, RankingError> {
        self.model.clear().await?;
        self.catch_up().await
    }

    /// Follows the player logs and keeps the read model current. Runs until aborted; resumes from the
    /// read model's checkpoint.
    pub async fn run(self: std::sync::Arc<Self>) {
        let follower = weiqi_eventlog::Follower::register("ranking_projector", AggregateKind::Player);
        let mut backoff = Duration::from_millis(100);
        loop {
            let stream = match self.from().await {
                Ok(from) => self.log.follow(AggregateKind::Player, from).await.map_err(RankingError::from),
                Err(e) => Err(e),
            };
            let stream = match stream {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(error = %e, "projector: cannot start, retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(5));
                    continue;
                }
            };
            backoff = Duration::from_millis(100);
            let mut batches = stream.ready_chunks(BATCH);
            while let Some(batch) = batches.next().await {
                let events: Vec<RecordedEvent> = batch.into_iter().filter_map(Result::ok).collect();
                if let Err(e) = self.apply(&events).await {
                    tracing::warn!(error = %e, "projector: batch failed, resuming from the checkpoint");
                    tokio::time::sleep(backoff).await;
                    break;
                }
                if let Some(last) = events.last() {
                    follower.at(last.position);
                }
            }
        }
    }
}
