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
use weiqi_aggregate::{Aggregate, Context, EventMeta, Request, RunError, Runner, SystemEnvironment};
use weiqi_eventlog::{AggregateId, AggregateKind, EventLog, NewEvent, Position, RecordedEvent};
use weiqi_proto::v1 as pb;
use weiqi_rating::{EventRef, GameId, Millis, PlayerId, TournamentPlacing};

use crate::convert::{RESULTS_TYPE, results_from_pb, results_pb};

/// The tournament service's public event of published placings.
const RESULTS_PUBLISHED: &str = weiqi_proto::event_types::TOURNAMENT_RESULTS_PUBLISHED;

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
pub struct ResultsLog<L: EventLog> {
    log: L,
    runner: Runner<RecordedResults, L>,
}

impl<L: EventLog + std::fmt::Debug> std::fmt::Debug for ResultsLog<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResultsLog").field("log", &self.log).finish_non_exhaustive()
    }
}

fn aggregate(tournament: &str) -> Result<AggregateId, PortError> {
    AggregateId::new(aggregate_name(tournament))
        .map_err(|e| PortError::Corrupt(format!("tournament id {tournament:?}: {e}")))
}

fn aggregate_name(tournament: &str) -> String {
    format!("results-{tournament}")
}

fn decode(r: &RecordedEvent) -> Result<FinalResults, PortError> {
    let m = pb::RankingResults::decode(r.payload.clone()).map_err(|e| PortError::Corrupt(e.to_string()))?;
    results_from_pb(&m).map_err(|e| PortError::Corrupt(e.to_string()))
}

/// The results log of one event as a runner aggregate: recording results is a fact, never refused,
/// appended with the expected sequence and its command id like every other event (so a retry records
/// once and a conflict is retried by the one runner).
pub struct RecordedResults;

impl Aggregate for RecordedResults {
    const KIND: AggregateKind = AggregateKind::Tournament;
    const NAME: &'static str = "results";
    type State = ();
    type Actor = &'static str;
    type Command = FinalResults;
    type Event = FinalResults;
    type Stored = FinalResults;
    /// Only an event that does not fold (it always does: the state is empty).
    type Rejection = String;

    fn decide(_: &(), _: &&'static str, command: &FinalResults, _: &Context<'_>) -> Result<Vec<FinalResults>, String> {
        Ok(vec![command.clone()])
    }

    fn evolve(_: &mut (), _: &FinalResults) -> Result<(), String> {
        Ok(())
    }

    fn inconsistent(reason: String) -> String {
        reason
    }

    fn encode(event: &FinalResults, _: &EventMeta<'_, Self>) -> (NewEvent, FinalResults) {
        (NewEvent::new(RESULTS_TYPE, results_pb(event).encode_to_vec()), event.clone())
    }

    fn decode(recorded: &RecordedEvent) -> Result<FinalResults, String> {
        if recorded.event_type != RESULTS_TYPE {
            return Err(format!("sequence {}: not results ({})", recorded.sequence, recorded.event_type));
        }
        decode(recorded).map_err(|e| e.to_string())
    }

    fn event(stored: &FinalResults) -> &FinalResults {
        stored
    }
}

impl<L: EventLog + Clone + 'static> ResultsLog<L> {
    /// Results over `log`.
    pub fn new(log: L) -> ResultsLog<L> {
        ResultsLog { runner: Runner::new(log.clone(), Arc::new(SystemEnvironment)), log }
    }

    /// Records an event's final results (a retry with the same `command_id` records once).
    ///
    /// # Errors
    /// [`PortError::Unavailable`] when the log cannot be reached, `Corrupt` for an unusable id.
    pub async fn record(&self, results: &FinalResults, command_id: &str) -> Result<(), PortError> {
        aggregate(&results.event.id.0)?;
        let id = aggregate_name(&results.event.id.0);
        match self.runner.execute(Request::new(&id, command_id, &"recorder", results)).await {
            Ok(_) => Ok(()),
            Err(RunError::Rejected(why)) => Err(PortError::Corrupt(why)),
            Err(e @ (RunError::BadId { .. } | RunError::RequestIdReused { .. })) => {
                Err(PortError::Corrupt(e.to_string()))
            }
            Err(e) => Err(PortError::Unavailable(e.to_string())),
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

/// How a tournament counts for promotion rules: the tournament service's log does not say (yet), so
/// the deployment says it (e.g. from the association's calendar).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventClass {
    /// The event's name (`2026 全国业余围棋定段赛`).
    pub name: String,
    /// The kind code rules name (`dan-qualification`).
    pub kind: String,
    /// The level.
    pub level: weiqi_rating::EventLevel,
    /// The group, when the tournament is one group of a larger event (`1d`).
    pub group: Option<String>,
}

/// Which tournaments count for ranking, and as what; `None`: a tournament the association has not
/// classified, whose published final results are evidence all the same (under the kind
/// [`UNCLASSIFIED`], which no promotion rule names: the office weighs them).
pub type Classifier = Arc<dyn Fn(&str) -> Option<EventClass> + Send + Sync>;

/// The kind of a tournament no classification names.
pub const UNCLASSIFIED: &str = "unclassified";

/// The results port over the tournament service's public results: in each tournament's log, the events
/// of type `weiqi.v1.TournamentResultsPublished` (the public message is the whole payload; the
/// tournament service's private envelope is never read). An event's final results are its last
/// publication marked final: each placing with the games the player played and their byes, as the
/// tournament core computed them. The classifier says which tournaments count and as what.
#[derive(Clone)]
pub struct TournamentLog<L> {
    log: L,
    classify: Classifier,
}

impl<L> std::fmt::Debug for TournamentLog<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TournamentLog").finish_non_exhaustive()
    }
}

/// The final results in one tournament's log, if published (issue 33 item 2: a published tournament
/// is evidence at once, classified or not).
fn fold_tournament(
    id: &str,
    events: &[RecordedEvent],
    class: Option<EventClass>,
) -> Result<Option<FinalResults>, PortError> {
    let class = class.unwrap_or_else(|| EventClass {
        name: id.to_owned(),
        kind: UNCLASSIFIED.to_owned(),
        level: weiqi_rating::EventLevel::Club,
        group: None,
    });
    let mut last_final: Option<pb::TournamentResultsPublished> = None;
    for r in events.iter().filter(|r| r.event_type == RESULTS_PUBLISHED) {
        let published = pb::TournamentResultsPublished::decode(r.payload.clone())
            .map_err(|e| PortError::Corrupt(format!("tournament {id} sequence {}: {e}", r.sequence)))?;
        if published.r#final {
            last_final = Some(published);
        }
    }
    let Some(published) = last_final else { return Ok(None) };
    let rows = published.placings.iter().filter_map(|p| p.row.as_ref().map(|row| (row, p)));
    let mut field_by_grade: BTreeMap<String, u32> = BTreeMap::new();
    for (row, _) in rows.clone() {
        if !row.rank.is_empty() {
            *field_by_grade.entry(row.rank.clone()).or_default() += 1;
        }
    }
    let placings = rows
        .filter(|(row, _)| !row.account_id.is_empty())
        .map(|(row, p)| Placing {
            player: PlayerId(row.account_id.clone()),
            place: row.place,
            wins: row.wins,
            byes: p.byes,
            games: p.game_ids.iter().map(|g| GameId(g.clone())).collect(),
        })
        .collect();
    Ok(Some(FinalResults {
        event: EventRef { id: id.into(), name: class.name, kind: class.kind, level: class.level },
        ended_at: Millis(published.published_at_ms),
        groups: vec![ResultsGroup { group: class.group, rounds: published.after_round, field_by_grade, placings }],
    }))
}

impl<L: EventLog + Clone + 'static> TournamentLog<L> {
    /// The port over the tournament logs in `log`, counting what `classify` says.
    pub fn new(log: L, classify: Classifier) -> TournamentLog<L> {
        TournamentLog { log, classify }
    }
}

async fn read_tournament<L: EventLog>(
    log: &L,
    classify: &Classifier,
    id: &str,
) -> Result<Option<FinalResults>, PortError> {
    let Ok(aggregate) = AggregateId::new(id) else { return Ok(None) };
    let events =
        log.read(AggregateKind::Tournament, &aggregate, 1).await.map_err(|e| PortError::Unavailable(e.to_string()))?;
    fold_tournament(id, &events, classify(id))
}

impl<L: EventLog + Clone + 'static> TournamentResults for TournamentLog<L> {
    fn final_results<'a>(&'a self, tournament: &'a str) -> BoxFuture<'a, Result<Option<FinalResults>, PortError>> {
        Box::pin(read_tournament(&self.log, &self.classify, tournament))
    }

    fn follow_finished(&self) -> BoxFuture<'_, Result<BoxStream<'static, Result<FinalResults, PortError>>, PortError>> {
        Box::pin(async move {
            let stream = self
                .log
                .follow(AggregateKind::Tournament, Position::START)
                .await
                .map_err(|e| PortError::Unavailable(e.to_string()))?;
            let (log, classify) = (self.log.clone(), self.classify.clone());
            let finished = stream
                .map_err(|e| PortError::Unavailable(e.to_string()))
                .try_filter(|r| futures::future::ready(r.event_type == RESULTS_PUBLISHED))
                .and_then(move |r| {
                    let (log, classify) = (log.clone(), classify.clone());
                    async move { read_tournament(&log, &classify, r.aggregate_id.as_str()).await }
                })
                .try_filter_map(|found| futures::future::ready(Ok(found)));
            Ok(finished.boxed())
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

#[cfg(test)]
mod tests {
    use super::*;
    use weiqi_eventlog::{EmbeddedConfig, EmbeddedLog};

    fn placing(place: u32, account: &str, rank: &str, wins: u32, games: &[&str], byes: u32) -> pb::TournamentPlacing {
        pb::TournamentPlacing {
            row: Some(pb::TournamentStandingRow {
                place,
                account_id: account.into(),
                rank: rank.into(),
                wins,
                ..Default::default()
            }),
            game_ids: games.iter().map(|g| g.to_string()).collect(),
            byes,
        }
    }

    async fn append(log: &EmbeddedLog, id: &str, n: u64, payload: Vec<u8>, kind: &str) {
        let aggregate = AggregateId::new(id).unwrap();
        let event = NewEvent::new(kind, payload);
        log.append(
            AggregateKind::Tournament,
            &aggregate,
            n,
            &weiqi_eventlog::CommandId::new(format!("{id}-{n}")).unwrap(),
            &[event],
        )
        .await
        .unwrap();
    }

    #[tokio::test]
    async fn final_results_from_the_tournament_services_log() {
        let dir = tempfile::tempdir().unwrap();
        let log = EmbeddedLog::open(dir.path().join("e.redb"), EmbeddedConfig::default()).unwrap();
        // A private event of the tournament service: never read by the port.
        append(&log, "dq", 0, b"private".to_vec(), "weiqi.v1.tournament.ResultRecorded").await;
        let published = |fin: bool, published_at_ms| {
            pb::TournamentResultsPublished {
                tournament_id: "dq".into(),
                after_round: 3,
                r#final: fin,
                published_at_ms,
                criteria: vec![],
                // Li's third win is a bye (no game).
                placings: vec![
                    placing(1, "li", "1k", 3, &["g1", "g2"], 1),
                    placing(2, "zhao", "1k", 1, &["g2"], 0),
                    placing(3, "wang", "2k", 0, &["g1"], 0),
                ],
                published_by: None,
            }
            .encode_to_vec()
        };
        append(&log, "dq", 1, published(false, 10), RESULTS_PUBLISHED).await;
        let port = TournamentLog::new(
            log.clone(),
            Arc::new(|id: &str| {
                (id == "dq").then(|| EventClass {
                    name: "定段赛".into(),
                    kind: "dan-qualification".into(),
                    level: weiqi_rating::EventLevel::National,
                    group: Some("1d".into()),
                })
            }),
        );
        assert_eq!(port.final_results("dq").await.unwrap(), None, "not final yet");
        append(&log, "dq", 2, published(true, 20), RESULTS_PUBLISHED).await;
        let results = port.final_results("dq").await.unwrap().unwrap();
        assert_eq!(results.ended_at, Millis(20));
        assert_eq!((results.event.kind.as_str(), results.groups[0].rounds), ("dan-qualification", 3));
        assert_eq!(results.groups[0].field_by_grade, BTreeMap::from([("1k".into(), 2), ("2k".into(), 1)]));
        let (_, li) = results.placing_of(&PlayerId::from("li")).unwrap();
        assert_eq!((li.place, li.wins, li.byes), (1, 3, 1));
        assert_eq!(li.games, vec![GameId::from("g1"), GameId::from("g2")]);
        let (_, zhao) = results.placing_of(&PlayerId::from("zhao")).unwrap();
        assert_eq!((zhao.wins, zhao.byes, zhao.games.len()), (1, 0, 1), "placings say their games and byes");

        // A tournament the classifier does not name: its published results are evidence all the same,
        // of a kind no promotion rule names.
        append(&log, "club", 0, published(true, 30), RESULTS_PUBLISHED).await;
        let club = port.final_results("club").await.unwrap().unwrap();
        assert_eq!((club.event.kind.as_str(), club.event.level), (UNCLASSIFIED, weiqi_rating::EventLevel::Club));
        assert!(club.placing_of(&PlayerId::from("li")).is_some());
        let mut finished = port.follow_finished().await.unwrap();
        let first = finished.next().await.unwrap().unwrap();
        assert_eq!(first.event.id.0, "dq");
    }
}
