//! The tournament-results port: where the ranking service reads finished events' final placings.
//!
//! The ranking service depends on the [`TournamentResults`] trait only. [`ResultsLog`] implements it
//! over the event log: `weiqi.v1.RankingResults` messages under aggregate kind `tournament`, id
//! `results-<tournament id>` (the latest one of an event counts). The tournament service (or an
//! adapter over its own results event) fills it; an organiser can also record an offline event's
//! results there. Placings are never taken on trust beyond this log: each game a placing lists is
//! checked against its game log when the placing is used as evidence.

use std::collections::BTreeMap;
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use futures::{StreamExt, TryStreamExt};
use prost::Message;
use weiqi_eventlog::{AggregateId, AggregateKind, AppendError, CommandId, EventLog, NewEvent, Position, RecordedEvent};
use weiqi_proto::v1 as pb;
use weiqi_rating::{EventRef, GameId, Millis, PlayerId, TournamentPlacing};

use crate::convert::{RESULTS_TYPE, results_from_pb, results_pb};

/// One player's final result in a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placing {
    /// The player.
    pub player: PlayerId,
    /// Final place, 1 = winner.
    pub place: u32,
    /// Wins, byes included.
    pub wins: u32,
    /// Wins without a game.
    pub byes: u32,
    /// The player's games in the group.
    pub games: Vec<GameId>,
}

/// One group of an event (or its whole field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultsGroup {
    /// The group's name (`1d`), if the event has groups.
    pub group: Option<String>,
    /// Rounds scheduled.
    pub rounds: u32,
    /// Participants by grade code.
    pub field_by_grade: BTreeMap<String, u32>,
    /// Final placings.
    pub placings: Vec<Placing>,
}

/// A finished event's final results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalResults {
    /// The event.
    pub event: EventRef,
    /// When it ended.
    pub ended_at: Millis,
    /// Its groups.
    pub groups: Vec<ResultsGroup>,
}

impl FinalResults {
    /// The player's group and placing, if they took part.
    #[must_use]
    pub fn placing_of(&self, player: &PlayerId) -> Option<(&ResultsGroup, &Placing)> {
        self.groups.iter().find_map(|g| g.placings.iter().find(|p| p.player == *player).map(|p| (g, p)))
    }

    /// Every player placed, in group order.
    pub fn players(&self) -> impl Iterator<Item = &PlayerId> {
        self.groups.iter().flat_map(|g| g.placings.iter().map(|p| &p.player))
    }

    /// The placing as promotion evidence (before its games are checked).
    #[must_use]
    pub fn evidence_for(&self, player: &PlayerId) -> Option<TournamentPlacing> {
        let (group, placing) = self.placing_of(player)?;
        Some(TournamentPlacing {
            event: self.event.clone(),
            group: group.group.clone(),
            place: placing.place,
            rounds: group.rounds,
            wins: placing.wins,
            field: u32::try_from(group.placings.len()).unwrap_or(u32::MAX),
            field_by_grade: group.field_by_grade.clone(),
            at: self.ended_at,
        })
    }
}

/// A port fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PortError {
    /// The source cannot be reached (retry).
    #[error("tournament results unavailable: {0}")]
    Unavailable(String),
    /// Stored results do not decode.
    #[error("corrupt tournament results: {0}")]
    Corrupt(String),
}

/// Where the ranking service reads tournaments' final results.
pub trait TournamentResults: Send + Sync + 'static {
    /// The final results of one event, `None` if unknown or not finished.
    fn final_results<'a>(&'a self, tournament: &'a str) -> BoxFuture<'a, Result<Option<FinalResults>, PortError>>;

    /// Final results as events finish: those already finished first, then live. The stream does
    /// not end.
    fn follow_finished(&self) -> BoxFuture<'_, Result<BoxStream<'static, Result<FinalResults, PortError>>, PortError>>;
}

/// Results stored in the event log (see the module doc).
#[derive(Clone, Debug)]
pub struct ResultsLog<L> {
    log: L,
}

fn aggregate(tournament: &str) -> Result<AggregateId, PortError> {
    AggregateId::new(format!("results-{tournament}"))
        .map_err(|e| PortError::Corrupt(format!("tournament id {tournament:?}: {e}")))
}

fn decode(r: &RecordedEvent) -> Result<FinalResults, PortError> {
    let m = pb::RankingResults::decode(r.payload.clone()).map_err(|e| PortError::Corrupt(e.to_string()))?;
    results_from_pb(&m).map_err(|e| PortError::Corrupt(e.to_string()))
}

impl<L: EventLog + Clone + 'static> ResultsLog<L> {
    /// Results over `log`.
    pub fn new(log: L) -> ResultsLog<L> {
        ResultsLog { log }
    }

    /// Records an event's final results (a retry with the same `command_id` records once).
    ///
    /// # Errors
    /// [`PortError::Unavailable`] when the log cannot be reached, `Corrupt` for an unusable id.
    pub async fn record(&self, results: &FinalResults, command_id: &str) -> Result<(), PortError> {
        let id = aggregate(&results.event.id.0)?;
        let command = CommandId::new(command_id).map_err(|e| PortError::Corrupt(e.to_string()))?;
        let event = NewEvent::new(RESULTS_TYPE, results_pb(results).encode_to_vec());
        loop {
            let expected = self
                .log
                .last_sequence(AggregateKind::Tournament, &id)
                .await
                .map_err(|e| PortError::Unavailable(e.to_string()))?;
            match self
                .log
                .append(AggregateKind::Tournament, &id, expected, &command, std::slice::from_ref(&event))
                .await
            {
                Ok(_) => return Ok(()),
                Err(AppendError::Conflict { .. }) => continue,
                Err(e) => return Err(PortError::Unavailable(e.to_string())),
            }
        }
    }
}

impl<L: EventLog + Clone + 'static> TournamentResults for ResultsLog<L> {
    fn final_results<'a>(&'a self, tournament: &'a str) -> BoxFuture<'a, Result<Option<FinalResults>, PortError>> {
        Box::pin(async move {
            let Ok(id) = aggregate(tournament) else {
                return Ok(None);
            };
            let events = self
                .log
                .read(AggregateKind::Tournament, &id, 1)
                .await
                .map_err(|e| PortError::Unavailable(e.to_string()))?;
            events.iter().rev().find(|r| r.event_type == RESULTS_TYPE).map(decode).transpose()
        })
    }

    fn follow_finished(&self) -> BoxFuture<'_, Result<BoxStream<'static, Result<FinalResults, PortError>>, PortError>> {
        Box::pin(async move {
            let stream = self
                .log
                .follow(AggregateKind::Tournament, Position::START)
                .await
                .map_err(|e| PortError::Unavailable(e.to_string()))?;
            let results = stream
                .map_err(|e| PortError::Unavailable(e.to_string()))
                .try_filter(|r| futures::future::ready(r.event_type == RESULTS_TYPE))
                .map(|r| r.and_then(|r| decode(&r)));
            Ok(results.boxed())
        })
    }
}

/// No tournament results at all (a deployment without tournaments).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTournaments;

impl TournamentResults for NoTournaments {
    fn final_results<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<FinalResults>, PortError>> {
        Box::pin(async { Ok(None) })
    }

    fn follow_finished(&self) -> BoxFuture<'_, Result<BoxStream<'static, Result<FinalResults, PortError>>, PortError>> {
        Box::pin(async { Ok(futures::stream::pending().boxed()) })
    }
}

/// A shared port.
pub type SharedResults = Arc<dyn TournamentResults>;
