//! The projector: folds every tournament log into the [`ReadModel`] (standings and pairings).
//!
//! It follows the tournament log from the start each time it runs (tournament logs are small next
//! to game logs: a 2,000-player, 7-round event is about 9,000 events), keeps each tournament's
//! state in memory, and writes only what changed since its last write. Writes are batched: it drains
//! every event already available (up to [`MAX_BATCH`]) before writing, so a burst of results costs
//! one standings computation per tournament, not one per result.
//!
//! **Idempotent.** Each write carries the last tournament-log sequence folded; the store ignores a
//! write that is not past what it already has (the per-source position of the architecture's
//! invariant: the source is the tournament's log). A restarted projector therefore replays the log
//! without writing until it passes what the store holds, then writes everything once (its memory of
//! what was written is gone) and only changes after that.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures::{FutureExt, StreamExt};
use tokio::sync::Mutex as AsyncMutex;
use weiqi_eventlog::{AggregateKind, EventLog, Follower, Position};
use weiqi_pairing::event::TournamentEvent;
use weiqi_pairing::state::Phase;
use weiqi_proto::v1 as pb;

use crate::aggregate::{TournamentAggregate, standing_rows};
use crate::codec::log::decode as decode_recorded;
use crate::convert;
use crate::read_model::{ReadModel, RoundUpdate, StandingsUpdate, Update};

/// Most events folded before a write.
pub const MAX_BATCH: usize = 20_000;
/// Least time between two writes while events keep coming (a burst of results costs one standings
/// computation per tournament per interval, not one per result).
pub const MIN_WRITE_INTERVAL: Duration = Duration::from_millis(100);

#[derive(Default)]
struct Written {
    rows: HashMap<u32, (u32, pb::TournamentStandingRow)>,
    header: Option<(u32, Vec<String>, bool, u32)>,
    rounds: HashMap<u32, RoundWritten>,
}

#[derive(Default, PartialEq)]
struct RoundWritten {
    completed: bool,
    games: HashMap<u32, pb::TournamentPairing>,
    byes: Vec<pb::TournamentBye>,
}

#[derive(Default)]
struct Projected {
    agg: TournamentAggregate,
    written: Written,
    /// What the store held when this run first looked (`None`: not looked yet).
    stored: Option<u64>,
    dirty: bool,
    corrupt: bool,
    /// Rounds whose pairings may have changed since the last write.
    touched: std::collections::BTreeSet<u32>,
}

/// Folds tournament logs into a read model.
pub struct Projector<L, M> {
    log: L,
    model: M,
    state: AsyncMutex<State>,
}

#[derive(Default)]
struct State {
    tournaments: HashMap<String, Projected>,
    next: Position,
}

impl<L: EventLog, M: ReadModel> Projector<L, M> {
    /// A projector from `log` into `model`.
    pub fn new(log: L, model: M) -> Projector<L, M> {
        Projector { log, model, state: AsyncMutex::new(State::default()) }
    }

    /// The read model.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// Runs until the task is aborted (cancel-safe: a restart replays the log and writes nothing the
    /// store already has).
    pub async fn run(self: Arc<Self>) {
        let follower = Follower::register("tournament_projector", AggregateKind::Tournament);
        loop {
            if let Err(e) = self.follow(None, Some(&follower)).await {
                tracing::warn!(error = %e, "tournament projector: retrying");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }

    /// Folds and writes everything up to the log's current head, then returns (tests, rebuilds).
    pub async fn catch_up(&self) -> Result<(), String> {
        let head = self.log.head(AggregateKind::Tournament).await.map_err(|e| e.to_string())?;
        let next = self.state.lock().await.next;
        if batch_of(head) <= 1 || batch_of(next) >= batch_of(head) {
            return self.flush_all().await;
        }
        self.follow(Some(head), None).await
    }

    /// Deletes a tournament's projection and writes it again from its log.
    pub async fn rebuild(&self, tournament: &str) -> Result<(), String> {
        self.model.clear(tournament).await.map_err(|e| e.to_string())?;
        let mut st = self.state.lock().await;
        if let Some(p) = st.tournaments.get_mut(tournament) {
            p.written = Written::default();
            p.stored = Some(0);
            p.dirty = true;
            p.touched.extend(1..=p.agg.core.current_round());
        }
        drop(st);
        self.flush_all().await
    }

    async fn follow(&self, until: Option<Position>, follower: Option<&Follower>) -> Result<(), String> {
        let from = self.state.lock().await.next;
        let mut stream = self.log.follow(AggregateKind::Tournament, from).await.map_err(|e| e.to_string())?;
        let mut last_write = tokio::time::Instant::now() - MIN_WRITE_INTERVAL;
        loop {
            let Some(first) = stream.next().await else { return Err("the tournament log stream ended".into()) };
            let mut batch = vec![first];
            while batch.len() < MAX_BATCH {
                match stream.next().now_or_never() {
                    Some(Some(item)) => batch.push(item),
                    Some(None) => break,
                    // Nothing ready: write now, unless the last write was very recent (then gather
                    // what arrives until the interval is over).
                    None if until.is_some() => break,
                    None => match tokio::time::timeout_at(last_write + MIN_WRITE_INTERVAL, stream.next()).await {
                        Ok(Some(item)) => batch.push(item),
                        Ok(None) | Err(_) => break,
                    },
                }
            }
            let mut st = self.state.lock().await;
            let mut done = false;
            for item in batch {
                let r = item.map_err(|e| e.to_string())?;
                st.next = r.position.next();
                if let Some(f) = follower {
                    f.at(r.position);
                }
                let p = st.tournaments.entry(r.aggregate_id.as_str().to_string()).or_default();
                if p.corrupt || r.sequence <= p.agg.version {
                    continue;
                }
                match decode_recorded(&r) {
                    Ok(recorded) => {
                        let body = recorded.event.body;
                        if let crate::aggregate::Body::Domain(e) = &body {
                            touch(&mut p.touched, &p.agg, e);
                        }
                        p.agg.apply(&body);
                        p.agg.version = r.sequence;
                        p.dirty = true;
                    }
                    Err(e) => {
                        tracing::error!(tournament = %r.aggregate_id, error = %e, "tournament log does not decode; not projected");
                        p.corrupt = true;
                    }
                }
                // The head is the first position of the next append; the events of one append arrive
                // together, so having read into the last append before the head means caught up.
                if until.is_some_and(|u| batch_of(r.position) + 1 >= batch_of(u)) {
                    done = true;
                }
            }
            drop(st);
            self.flush_all().await?;
            last_write = tokio::time::Instant::now();
            if done {
                return Ok(());
            }
        }
    }

    async fn flush_all(&self) -> Result<(), String> {
        let mut st = self.state.lock().await;
        let ids: Vec<String> = st.tournaments.iter().filter(|(_, p)| p.dirty).map(|(k, _)| k.clone()).collect();
        for id in ids {
            let p = st.tournaments.get_mut(&id).expect("listed");
            if p.stored.is_none() {
                p.stored = Some(self.model.applied(&id).await.map_err(|e| e.to_string())?);
            }
            if p.agg.version <= p.stored.unwrap_or(0) || !p.agg.exists() {
                p.dirty = false;
                continue;
            }
            let before = std::mem::take(&mut p.written);
            let (update, written) = diff(&id, &p.agg, before, &p.touched);
            self.model.apply(&update).await.map_err(|e| e.to_string())?;
            p.written = written;
            p.dirty = false;
            p.touched.clear();
        }
        Ok(())
    }
}

/// The append (batch) a position falls in: positions are `(batch << 16) | index` (see `Position`).
pub(crate) fn batch_of(p: Position) -> u64 {
    p.raw() >> 16
}

/// The summary of a tournament.
pub fn summary(id: &str, t: &TournamentAggregate) -> pb::TournamentSummary {
    let cfg = t.config();
    pb::TournamentSummary {
        tournament_id: id.to_string(),
        name: cfg.map(|c| c.name.clone()).unwrap_or_default(),
        phase: match t.core.phase {
            Phase::Uncreated => "uncreated",
            Phase::Registration => "registration",
            Phase::Running => "running",
            Phase::Finished(_) => "finished",
        }
        .into(),
        format: cfg.map(|c| convert::format_text(&c.format)).unwrap_or_default(),
        players: t.core.players.len() as u32,
        rounds_paired: t.core.current_round(),
        last_round_completed: t.core.rounds.last().is_some_and(|r| r.completed),
        champion: match t.core.phase {
            Phase::Finished(weiqi_pairing::event::Champion::Player(p)) => p.0,
            Phase::Finished(weiqi_pairing::event::Champion::Team(k)) => k.0,
            _ => 0,
        },
        settings: t.settings.as_ref().map(crate::codec::log::settings_to_pb),
        facts: t.facts.as_ref().map(crate::codec::log::facts_to_pb),
        sequence: t.version,
        rounds_planned: weiqi_pairing::rounds::rounds_planned(&t.core),
        forbids: t
            .core
            .forbids
            .iter()
            .map(|(&(a, b), round)| pb::TournamentForbid {
                a: a.0,
                b: b.0,
                round: round.unwrap_or(0),
                a_name: t.registration(a).map(convert::display_name).unwrap_or_default(),
                b_name: t.registration(b).map(convert::display_name).unwrap_or_default(),
            })
            .collect(),
        publications: t.publications,
        format_key: cfg.map(|c| convert::format_message(&c.format).0.to_owned()).unwrap_or_default(),
        format_args: cfg
            .map(|c| convert::format_message(&c.format).1.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            .unwrap_or_default(),
        withdrawals: weiqi_pairing::standings::withdrawal_counts(&t.core)
            .into_iter()
            .map(|w| {
                use weiqi_pairing::config::UnplayedSosm;
                use weiqi_pairing::event::WithdrawalRuling as R;
                pb::TournamentWithdrawalCount {
                    player: w.player.0,
                    name: t.registration(w.player).map(convert::display_name).unwrap_or_default(),
                    after_round: w.after_round,
                    ruling: match w.ruling {
                        R::ResultsVoid => "results-void",
                        R::ResultsStandRestForfeited => "results-stand-rest-forfeited",
                        R::ResultsStandNotPaired => "results-stand-not-paired",
                    }
                    .into(),
                    unplayed_rounds: w.unplayed,
                    for_opponents: w.for_opponents.map(|r| r.exact()).unwrap_or_default(),
                    own_sosm: w.own_sosm.map(|(r, _)| r.exact()).unwrap_or_default(),
                    own_sosm_rule: match w.own_sosm.map(|(_, rule)| rule) {
                        Some(UnplayedSosm::StartMms) => "start-mms",
                        Some(UnplayedSosm::OwnFinalMms) => "own-final-mms",
                        None => "",
                    }
                    .into(),
                }
            })
            .collect(),
    }
}

/// The pairings of a round, for the wire.
pub fn round_pairings(id: &str, t: &TournamentAggregate, round: u32) -> Option<pb::TournamentPairings> {
    let r = t.core.rounds.get((round as usize).checked_sub(1)?)?;
    let name = |p| t.registration(p).map(convert::display_name).unwrap_or_default();
    let rank = |p| t.registration(p).map(|r| r.rank.to_string()).unwrap_or_default();
    Some(pb::TournamentPairings {
        tournament_id: id.to_string(),
        round,
        games: r
            .games
            .iter()
            .map(|g| {
                let (b, w) = (g.paired.black, g.paired.white);
                pb::TournamentPairing {
                    table: g.paired.table,
                    black: b.0,
                    white: w.0,
                    black_account: t.account(b),
                    white_account: t.account(w),
                    black_name: name(b),
                    white_name: name(w),
                    black_rank: rank(b),
                    white_rank: rank(w),
                    handicap: u32::from(g.paired.handicap),
                    colors_by: g.paired.color_by.name().into(),
                    result: convert::result_text(t.core.counted_result(g).as_ref()),
                    // An imported round's games were played elsewhere: there is no game to link to.
                    game_id: if round <= t.imported_rounds {
                        String::new()
                    } else {
                        t.game_id(id, weiqi_pairing::ids::GameRef { round, table: g.paired.table })
                    },
                    fixed: g.paired.fixed,
                }
            })
            .collect(),
        byes: r
            .byes
            .iter()
            .map(|b| pb::TournamentBye {
                player: b.player.0,
                account_id: t.account(b.player),
                name: name(b.player),
                kind: convert::bye_kind_text(b.kind).into(),
                reason: convert::bye_reason_text(b.reason).into(),
            })
            .collect(),
        completed: r.completed,
    })
}

/// Marks the rounds whose pairings an event may change.
fn touch(touched: &mut std::collections::BTreeSet<u32>, t: &TournamentAggregate, e: &TournamentEvent) {
    match e {
        TournamentEvent::RoundPaired { round, .. } | TournamentEvent::RoundCompleted { round } => {
            touched.insert(*round);
        }
        TournamentEvent::ResultRecorded { game, .. }
        | TournamentEvent::ResultCorrected { game, .. }
        | TournamentEvent::NoShowRecorded { game, .. }
        | TournamentEvent::WarningIssued { game, .. } => {
            touched.insert(game.round);
        }
        TournamentEvent::PlayerWithdrawn { .. } => {
            touched.insert(t.core.current_round());
        }
        _ => {}
    }
}

/// What to write, given what was written before (`before`, consumed) and the rounds touched since.
fn diff(
    id: &str,
    t: &TournamentAggregate,
    mut before: Written,
    touched: &std::collections::BTreeSet<u32>,
) -> (Update, Written) {
    let mut written = Written::default();
    let mut update =
        Update { tournament: id.to_string(), sequence: t.version, summary: summary(id, t), ..Default::default() };
    if let Some(cfg) = t.config() {
        let (after_round, criteria, rows) = standing_rows(t, cfg);
        let rows: Vec<pb::TournamentStandingRow> = rows.iter().map(crate::codec::log::row_to_pb).collect();
        let team = cfg.format.is_team();
        let header = (after_round, criteria.clone(), team, rows.len() as u32);
        let mut changed = Vec::new();
        for (pos, row) in rows.into_iter().enumerate() {
            let pos = pos as u32;
            if before.rows.get(&row.entrant) != Some(&(pos, row.clone())) {
                changed.push((pos, row.clone()));
            }
            written.rows.insert(row.entrant, (pos, row));
        }
        let removed: Vec<u32> = before.rows.keys().filter(|e| !written.rows.contains_key(e)).copied().collect();
        if !changed.is_empty() || !removed.is_empty() || before.header.as_ref() != Some(&header) {
            update.standings =
                Some(StandingsUpdate { after_round, criteria, team, total: header.3, rows: changed, removed });
        }
        written.header = Some(header);
    }
    for round in 1..=t.core.current_round() {
        if !touched.contains(&round)
            && let Some(b) = before.rounds.remove(&round)
        {
            // Untouched since the last write: what was written still holds.
            written.rounds.insert(round, b);
            continue;
        }
        let Some(now) = round_pairings(id, t, round) else { continue };
        let before = before.rounds.get(&round);
        let games: Vec<pb::TournamentPairing> =
            now.games.iter().filter(|g| before.and_then(|b| b.games.get(&g.table)) != Some(*g)).cloned().collect();
        let byes_changed = before.is_none_or(|b| b.byes != now.byes);
        let completed_changed = before.is_none_or(|b| b.completed != now.completed);
        if !games.is_empty() || byes_changed || completed_changed {
            update.rounds.push(RoundUpdate {
                round,
                completed: now.completed,
                games,
                byes: byes_changed.then(|| now.byes.clone()),
            });
        }
        written.rounds.insert(
            round,
            RoundWritten {
                completed: now.completed,
                games: now.games.into_iter().map(|g| (g.table, g)).collect(),
                byes: now.byes,
            },
        );
    }
    (update, written)
}
