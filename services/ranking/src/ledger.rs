//! The rating ledger: the rating book of the configured system as one aggregate (kind `player`, id
//! `_ledger-<system>`) on the one runner, and the fan-out of every entry's rating changes to the
//! players' logs (`RatingChanged`, with the ledger sequence), which is what the read models and the
//! other services consume.
//!
//! The aggregate itself (decide, evolve, the rating points of an entry) is [`crate::domain::ledger`].
//! Recomputing the book from the ledger's inputs (each game input checked against its game log) gives
//! exactly the live values: see [`crate::recompute`].
//!
//! # The fan-out lock
//!
//! An entry is fanned out to the players' logs before the next entry is appended, so only the last
//! entry can be half fanned out after a crash, and the start repair ([`RatingLedger::repair`]) only
//! has to fan out that one (idempotently: each player's log records a ledger sequence once). The
//! runner's per-aggregate lock covers one append, not the appends to the players' logs after it; so
//! the ledger has a lock of its own around *append an entry, then fan it out*. A tokio mutex: it is
//! held across those appends. It also keeps how far the fan-out has got: an entry another instance
//! appended, or one whose fan-out failed, is fanned out before this instance appends the next one.

use futures::StreamExt;
use futures::stream::FuturesUnordered;
use tokio::sync::Mutex;
use weiqi_aggregate::{Aggregate, Environment, Request, RunError, Runner};
use weiqi_eventlog::{AggregateId, AggregateKind, EventLog, Position};
use weiqi_rating::{PlayerId, RatingBook, RatingCommand, RatingEvent, RatingSystem, RatingView};

use crate::aggregate::{Declined, LedgerAggregate, LedgerRecord};
use crate::domain::ledger::{command_description, rating_points};
use crate::domain::{Actor, LedgerCommand, LedgerState, PlayerCommand};
use crate::error::RankingError;
use crate::logs::command_id;
use crate::registry::{PlayerRegistry, player_aggregate};

/// Player logs written at once when an entry rates many players (a period closes).
const FAN_OUT_PARALLELISM: usize = 16;

/// A player's rating as the service reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingReport {
    /// The system.
    pub system: String,
    /// The rating now (`None`: never seen in a rated game nor seeded).
    pub view: Option<RatingView>,
    /// The grade the rating stands for (amateur mapping of the system), if any.
    pub grade_for_rating: Option<String>,
    /// Games recorded and not rated yet: in the open Glicko-2 period, or (EGF) in an unfinished
    /// tournament.
    pub pending_games: u32,
}

/// How far the ledger's entries have reached the players' logs.
#[derive(Debug, Default)]
struct FanOut {
    /// Every entry up to this sequence is fanned out (`None` until the start repair ran).
    through: Option<u64>,
    /// The last ledger sequence this instance knows of.
    known: u64,
}

/// The rating ledger and its fan-out (see the module doc).
pub struct RatingLedger<L> {
    runner: Runner<LedgerAggregate, L>,
    /// `_ledger-<system>`.
    id: String,
    system: RatingSystem,
    /// The service, which every ledger command and rating change is recorded as.
    actor: Actor,
    /// Around *append an entry, then fan it out* (see the module doc).
    fan_out: Mutex<FanOut>,
}

impl<L> std::fmt::Debug for RatingLedger<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RatingLedger").field("id", &self.id).finish_non_exhaustive()
    }
}

fn corrupt_id(reason: String) -> RankingError {
    RankingError::Corrupt(format!("the ledger's id is refused: {reason}"))
}

impl<L: EventLog> RatingLedger<L> {
    /// The ledger of `system` over `log`, written as `service_id`, with time from `env`.
    pub fn new(
        log: L,
        env: std::sync::Arc<dyn Environment>,
        system: RatingSystem,
        service_id: &str,
    ) -> RatingLedger<L> {
        RatingLedger {
            runner: Runner::new(log, env),
            id: format!("_ledger-{}", system.name()),
            system,
            actor: Actor::system(service_id),
            fan_out: Mutex::new(FanOut::default()),
        }
    }

    /// The book's system.
    pub fn system(&self) -> &RatingSystem {
        &self.system
    }

    /// Runs `f` on the book, the ledger's state and its last sequence, caught up with the log.
    ///
    /// # Errors
    /// Faults.
    pub async fn read<T>(&self, f: impl FnOnce(&RatingBook, &LedgerState, u64) -> T) -> Result<T, RankingError> {
        let system = &self.system;
        self.runner
            .read(&self.id, |state, version| f(state.book(system), state, version))
            .await
            .map_err(|e| RankingError::from_run(e, corrupt_id))
    }

    /// A copy of the live rating book.
    ///
    /// # Errors
    /// Faults.
    pub async fn book(&self) -> Result<RatingBook, RankingError> {
        self.read(|book, _, _| book.clone()).await
    }

    /// The ledger's last sequence.
    ///
    /// # Errors
    /// Faults.
    pub async fn sequence(&self) -> Result<u64, RankingError> {
        self.read(|_, _, version| version).await
    }

    /// Where the game follower resumes: after the last game the ledger rated.
    ///
    /// # Errors
    /// Faults.
    pub async fn games_from(&self) -> Result<Position, RankingError> {
        self.read(|_, state, _| state.last_game_position().map_or(Position::START, |p| Position::from_raw(p).next()))
            .await
    }

    /// The start repair: fans out the last entry (a crash may have cut its fan-out short).
    ///
    /// # Errors
    /// Faults; the next command repairs again.
    pub async fn repair(&self, registry: &PlayerRegistry<L>) -> Result<(), RankingError> {
        let mut st = self.fan_out.lock().await;
        self.catch_up(&mut st, registry, &[]).await
    }

    /// Decides one input of the book, appends it and fans it out. Returns the entry's events (none if
    /// the input changes nothing, e.g. a game rated before; for a retry, those of the first try).
    ///
    /// # Errors
    /// The rating core's refusal; faults.
    pub async fn record(
        &self,
        registry: &PlayerRegistry<L>,
        command: RatingCommand,
        game_position: Option<u64>,
    ) -> Result<Vec<RatingEvent>, RankingError> {
        let started = std::time::Instant::now();
        let out = self.record_timed(registry, command, game_position).await;
        weiqi_telemetry::metrics::histogram!(weiqi_telemetry::names::RATING_SECONDS)
            .record(started.elapsed().as_secs_f64());
        out
    }

    async fn record_timed(
        &self,
        registry: &PlayerRegistry<L>,
        command: RatingCommand,
        game_position: Option<u64>,
    ) -> Result<Vec<RatingEvent>, RankingError> {
        let mut st = self.fan_out.lock().await;
        // Entries before this one reach the players' logs first.
        self.catch_up(&mut st, registry, &[]).await?;
        let open_period = match command {
            RatingCommand::ClosePeriods => self.read(|book, _, _| book.open_period()).await?,
            _ => None,
        };
        let cid = command_id(&command_description(self.system.name(), &command, open_period, game_position));
        let command = LedgerCommand { system: self.system.clone(), command, game_position };
        let outcome = match self.runner.execute(Request::new(&self.id, cid.as_str(), &self.actor, &command)).await {
            Ok(outcome) => outcome,
            Err(RunError::Rejected(Declined::Unchanged)) => return Ok(Vec::new()),
            Err(e) => return Err(RankingError::from_run(e, corrupt_id)),
        };
        st.known = st.known.max(outcome.sequence);
        self.catch_up(&mut st, registry, &outcome.events).await?;
        Ok(outcome.events.into_iter().flat_map(|r| r.entry.events).collect())
    }

    /// Fans out every entry after `through` up to the last one known (at start: the last entry),
    /// taking them from `have` when it holds them, else from the log.
    async fn catch_up(
        &self,
        st: &mut FanOut,
        registry: &PlayerRegistry<L>,
        have: &[LedgerRecord],
    ) -> Result<(), RankingError> {
        let through = match st.through {
            Some(through) => through,
            None => {
                let last = self.sequence().await?;
                st.known = st.known.max(last);
                last.saturating_sub(1)
            }
        };
        if st.known <= through {
            st.through = Some(through);
            return Ok(());
        }
        let wanted = through + 1..=st.known;
        let records: Vec<LedgerRecord> = if have.len() as u64 == st.known - through
            && have.iter().zip(wanted.clone()).all(|(r, s)| r.sequence == s)
        {
            have.to_vec()
        } else {
            let id = AggregateId::new(&self.id).map_err(|e| corrupt_id(e.to_string()))?;
            let mut records = Vec::new();
            for r in self.runner.log().read(AggregateKind::Player, &id, through + 1).await? {
                if wanted.contains(&r.sequence) {
                    records.push(LedgerAggregate::decode(&r).map_err(RankingError::Corrupt)?);
                }
            }
            records
        };
        for record in &records {
            self.fan_out_entry(registry, record).await?;
            st.through = Some(record.sequence);
        }
        st.through = Some(st.known);
        Ok(())
    }

    /// Records every rating change of one entry in the players' logs (idempotent).
    async fn fan_out_entry(&self, registry: &PlayerRegistry<L>, record: &LedgerRecord) -> Result<(), RankingError> {
        let mut work: Vec<(PlayerId, PlayerCommand)> = Vec::new();
        for (player, point) in rating_points(&self.system, record.sequence, &record.entry) {
            if player_aggregate(&player).is_err() {
                tracing::warn!(%player, "rated player id is not a log name: rating kept in the book only");
                continue;
            }
            work.push((player, PlayerCommand::RecordRating(point)));
        }
        let mut queue = work.iter();
        let mut tasks = FuturesUnordered::new();
        let mut first_error = None;
        loop {
            while tasks.len() < FAN_OUT_PARALLELISM {
                let Some((player, command)) = queue.next() else { break };
                let description = format!("rating/{}/{player}", record.sequence);
                tasks.push(async move { registry.execute(player, &description, &self.actor, command).await });
            }
            match tasks.next().await {
                Some(Ok(())) => {}
                Some(Err(e)) => {
                    first_error.get_or_insert(e);
                }
                None => break,
            }
        }
        match first_error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
