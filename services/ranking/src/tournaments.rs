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

/// Which tournaments count for ranking, and as what; `None`: not a ranking event.
pub type Classifier = Arc<dyn Fn(&str) -> Option<EventClass> + Send + Sync>;

/// The results port over the tournament service's own logs (`weiqi.v1.TournamentEventEnvelope`, kind
/// `tournament`, one aggregate per tournament): an event's final results are its last published
/// standings marked final, each player's games are the `TournamentResultFact`s naming their account
/// (a correction replaces the result of its round and table). Wins the facts do not account for
/// are taken as byes, at most one per round without a game: the log has no typed bye, so a standings
/// row is only checked as far as its games go (the game logs must show exactly the facts' wins,
/// and no more wins than games plus rounds without a game). The classifier says which tournaments
/// count and as what.
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

/// The final results in one tournament's log, if published and classified.
fn fold_tournament(
    id: &str,
    events: &[RecordedEvent],
    class: Option<EventClass>,
) -> Result<Option<FinalResults>, PortError> {
    use pb::tournament_event_envelope::Body;
    let Some(class) = class else { return Ok(None) };
    let mut facts: BTreeMap<(u32, u32), pb::TournamentResultFact> = BTreeMap::new();
    let mut last_final: Option<(pb::TournamentStandingsPublished, i64)> = None;
    for r in events {
        let env = pb::TournamentEventEnvelope::decode(r.payload.clone())
            .map_err(|e| PortError::Corrupt(format!("tournament {id} sequence {}: {e}", r.sequence)))?;
        if let Some(fact) = env.result {
            facts.insert((fact.round, fact.table), fact);
        }
        if let Some(Body::Published(p)) = env.body
            && p.r#final
        {
            last_final = Some((p, env.server_time_ms));
        }
    }
    let Some((published, at)) = last_final else { return Ok(None) };
    let mut field_by_grade: BTreeMap<String, u32> = BTreeMap::new();
    for row in &published.rows {
        if !row.rank.is_empty() {
            *field_by_grade.entry(row.rank.clone()).or_default() += 1;
        }
    }
    let placings = published
        .rows
        .iter()
        .filter(|row| !row.account_id.is_empty())
        .map(|row| {
            let mine: Vec<&pb::TournamentResultFact> = facts
                .values()
                .filter(|f| f.black_account == row.account_id || f.white_account == row.account_id)
                .collect();
            let won = |f: &pb::TournamentResultFact| {
                let outcome = f.result.as_ref().map(|o| o.outcome);
                let black = f.black_account == row.account_id;
                (black && outcome == Some(pb::tournament_game_outcome::Outcome::BlackWins as i32))
                    || (!black && outcome == Some(pb::tournament_game_outcome::Outcome::WhiteWins as i32))
            };
            let fact_wins = u32::try_from(mine.iter().filter(|f| !f.game_id.is_empty() && won(f)).count()).unwrap_or(0);
            let played = u32::try_from(mine.iter().filter(|f| !f.game_id.is_empty()).count()).unwrap_or(u32::MAX);
            Placing {
                player: PlayerId(row.account_id.clone()),
                place: row.place,
                wins: row.wins,
                // At most one bye per round without a game.
                byes: row.wins.saturating_sub(fact_wins).min(published.after_round.saturating_sub(played)),
                games: mine.iter().filter(|f| !f.game_id.is_empty()).map(|f| GameId(f.game_id.clone())).collect(),
            }
        })
        .collect();
    Ok(Some(FinalResults {
        event: EventRef { id: id.into(), name: class.name, kind: class.kind, level: class.level },
        ended_at: Millis(at),
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
                .try_filter(|r| futures::future::ready(r.event_type == "weiqi.v1.TournamentStandingsPublished"))
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

    fn fact(round: u32, game: &str, black: &str, white: &str, black_wins: bool) -> pb::TournamentResultFact {
        let outcome = if black_wins {
            pb::tournament_game_outcome::Outcome::BlackWins
        } else {
            pb::tournament_game_outcome::Outcome::WhiteWins
        };
        pb::TournamentResultFact {
            round,
            table: 1,
            game_id: game.into(),
            black_account: black.into(),
            white_account: white.into(),
            result: Some(pb::TournamentGameOutcome { outcome: outcome as i32, reason: 0 }),
            correction: false,
        }
    }

    fn row(place: u32, account: &str, rank: &str, wins: u32) -> pb::TournamentStandingRow {
        pb::TournamentStandingRow { place, account_id: account.into(), rank: rank.into(), wins, ..Default::default() }
    }

    async fn append(log: &EmbeddedLog, id: &str, n: u64, envelope: pb::TournamentEventEnvelope, kind: &str) {
        let aggregate = AggregateId::new(id).unwrap();
        let event = NewEvent::new(kind, envelope.encode_to_vec());
        log.append(AggregateKind::Tournament, &aggregate, n, &CommandId::new(format!("{id}-{n}")).unwrap(), &[event])
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn final_results_from_the_tournament_services_log() {
        let dir = tempfile::tempdir().unwrap();
        let log = EmbeddedLog::open(dir.path().join("e.redb"), EmbeddedConfig::default()).unwrap();
        let fact_event = |f| pb::TournamentEventEnvelope { result: Some(f), ..Default::default() };
        append(&log, "dq", 0, fact_event(fact(1, "g1", "li", "wang", true)), "weiqi.v1.tournament.ResultRecorded")
            .await;
        append(&log, "dq", 1, fact_event(fact(2, "g2", "zhao", "li", true)), "weiqi.v1.tournament.ResultRecorded")
            .await;
        // Round 2 corrected: Li won after all.
        let mut corrected = fact(2, "g2", "zhao", "li", false);
        corrected.correction = true;
        append(&log, "dq", 2, fact_event(corrected), "weiqi.v1.tournament.ResultCorrected").await;
        let published = |fin: bool, server_time_ms| pb::TournamentEventEnvelope {
            server_time_ms,
            body: Some(pb::tournament_event_envelope::Body::Published(pb::TournamentStandingsPublished {
                after_round: 3,
                r#final: fin,
                criteria: vec![],
                // Li's third win is a bye (no game).
                rows: vec![row(1, "li", "1k", 3), row(2, "zhao", "1k", 1), row(3, "wang", "2k", 0)],
            })),
            ..Default::default()
        };
        append(&log, "dq", 3, published(false, 10), "weiqi.v1.TournamentStandingsPublished").await;
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
        append(&log, "dq", 4, published(true, 20), "weiqi.v1.TournamentStandingsPublished").await;
        let results = port.final_results("dq").await.unwrap().unwrap();
        assert_eq!(results.ended_at, Millis(20));
        assert_eq!((results.event.kind.as_str(), results.groups[0].rounds), ("dan-qualification", 3));
        assert_eq!(results.groups[0].field_by_grade, BTreeMap::from([("1k".into(), 2), ("2k".into(), 1)]));
        let (_, li) = results.placing_of(&PlayerId::from("li")).unwrap();
        assert_eq!((li.place, li.wins, li.byes), (1, 3, 1));
        assert_eq!(li.games, vec![GameId::from("g1"), GameId::from("g2")]);
        let (_, zhao) = results.placing_of(&PlayerId::from("zhao")).unwrap();
        assert_eq!(
            (zhao.wins, zhao.byes),
            (1, 1),
            "a win the facts do not show is counted as a bye, for the game logs to refute"
        );

        // Another tournament the classifier does not count.
        append(&log, "club", 0, published(true, 30), "weiqi.v1.TournamentStandingsPublished").await;
        assert_eq!(port.final_results("club").await.unwrap(), None);
        let mut finished = port.follow_finished().await.unwrap();
        let first = finished.next().await.unwrap().unwrap();
        assert_eq!(first.event.id.0, "dq");
    }
}
