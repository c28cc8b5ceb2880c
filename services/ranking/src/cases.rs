//! The certification desk: every certification case (kind `case`, id `case-<32 hex>`) on the one
//! runner, the index of all cases the queues and the revocation list are read from, and the lock
//! automatic proposals take.
//!
//! The case aggregate itself is the rating core's ([`weiqi_rating::CaseState`],
//! [`weiqi_rating::decide_case`]), ordered by [`crate::domain::case`]. The flows around cases (evidence
//! verified against the logs, the certificate signed, the grade recorded in the player's log, automatic
//! proposals) are the service's: [`crate::service`].
//!
//! # Locks
//!
//! * **The index** (`std::sync::Mutex`): the runner caches cases by id but cannot list them, and the
//!   review queue, a player's cases, the revocation list and the one-open-case-per-ladder check need
//!   every case. Filled from the case logs at start, refreshed from the runner after each command. A
//!   std mutex: it is only held to copy records in or out, never across an await.
//! * **Proposals** (`tokio::sync::Mutex`): an automatic proposal checks that the player has no open case
//!   in the ladder, verifies evidence and opens a case; two proposals at once (the game follower and
//!   the results follower) would both pass the check. The lock makes check-and-open one step, and
//!   guards the final results seen so far, which proposals read. A tokio mutex: it is held across the
//!   verification and the append.
//! * Commands to one case need nothing more: the runner's per-aggregate lock serialises them.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use weiqi_aggregate::{Aggregate, Environment, Request, RunError, Runner};
use weiqi_eventlog::{AggregateId, AggregateKind, EventLog, Position};
use weiqi_rating::{Case, CaseId, CaseState, PlayerId};

use crate::aggregate::{CaseAggregate, Declined};
use crate::domain::case::keeps_busy;
use crate::domain::{Actor, CaseOrder, RankingRejection};
use crate::error::RankingError;
use crate::logs::{command_id, read_stored};
use crate::tournaments::FinalResults;

/// An application for a grade.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Application {
    /// The client's request id (a retry opens nothing new).
    pub request_id: String,
    /// The player to certify.
    pub player: PlayerId,
    /// The ladder (`amateur` by default).
    pub ladder: String,
    /// The grade asked for.
    pub requested: String,
    /// Games to verify and attach.
    pub games: Vec<String>,
    /// Tournaments whose final results to verify and attach.
    pub tournaments: Vec<String>,
    /// Attach the player's current rating.
    pub include_rating: bool,
}

/// A reviewer's decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Approve (the certificate is issued at once).
    Approve {
        /// A note for the record.
        note: String,
        /// Needed when the automatic check does not support the request.
        override_reason: Option<String>,
    },
    /// Reject with reasons.
    Reject {
        /// At least one.
        reasons: Vec<String>,
    },
}

/// A case as the service shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseRecord {
    /// The case.
    pub case: Case,
    /// Its log's last sequence.
    pub version: u64,
}

fn record_of(state: &CaseState, version: u64) -> Option<CaseRecord> {
    Some(CaseRecord { case: state.case.clone()?, version })
}

/// What automatic proposals share (behind the proposals lock).
#[derive(Debug, Default)]
pub struct Proposals {
    /// Final results seen, by tournament id (the results follower replays them all at start).
    pub results: HashMap<String, FinalResults>,
}

/// The certification desk (see the module doc).
pub struct CertificationDesk<L> {
    runner: Runner<CaseAggregate, L>,
    /// Every case (see the module doc).
    index: Mutex<BTreeMap<CaseId, CaseRecord>>,
    /// One automatic proposal at a time (see the module doc).
    proposals: tokio::sync::Mutex<Proposals>,
}

impl<L> std::fmt::Debug for CertificationDesk<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CertificationDesk").finish_non_exhaustive()
    }
}

fn bad_case_id(case: &CaseId) -> impl FnOnce(String) -> RankingError + '_ {
    move |reason| RankingRejection::BadCaseId { id: case.0.clone(), reason }.into()
}

impl<L: EventLog> CertificationDesk<L> {
    /// The desk over `log`, with time from `env`.
    pub fn new(log: L, env: std::sync::Arc<dyn Environment>) -> CertificationDesk<L> {
        CertificationDesk {
            runner: Runner::new(log, env),
            index: Mutex::new(BTreeMap::new()),
            proposals: tokio::sync::Mutex::new(Proposals::default()),
        }
    }

    fn index(&self) -> std::sync::MutexGuard<'_, BTreeMap<CaseId, CaseRecord>> {
        // A panic while holding the index cannot leave it half written (each write is one insert).
        self.index.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Fills the index from every case log (at start).
    ///
    /// # Errors
    /// Faults; a case log that does not decode is corrupt.
    pub async fn load(&self) -> Result<usize, RankingError> {
        let mut states: BTreeMap<CaseId, (CaseState, u64)> = BTreeMap::new();
        for r in read_stored(self.runner.log(), AggregateKind::Case, Position::START).await? {
            let (state, version) = states.entry(CaseId(r.aggregate_id.to_string())).or_default();
            if r.sequence == *version + 1 {
                let event = CaseAggregate::decode(&r).map_err(RankingError::Corrupt)?;
                CaseAggregate::evolve(state, &event).map_err(RankingError::Corrupt)?;
                *version = r.sequence;
            }
        }
        let records: BTreeMap<CaseId, CaseRecord> =
            states.into_iter().filter_map(|(id, (state, version))| Some((id, record_of(&state, version)?))).collect();
        let count = records.len();
        *self.index() = records;
        self.report_states();
        Ok(count)
    }

    /// The proposals lock and what it guards.
    pub fn proposals(&self) -> &tokio::sync::Mutex<Proposals> {
        &self.proposals
    }

    /// One case, as indexed; `None` if there is no such case.
    #[must_use]
    pub fn record(&self, case: &CaseId) -> Option<CaseRecord> {
        self.index().get(case).cloned()
    }

    /// One case.
    ///
    /// # Errors
    /// `no_such_case`.
    pub fn require(&self, case: &CaseId) -> Result<CaseRecord, RankingError> {
        self.record(case).ok_or_else(|| RankingRejection::NoSuchCase(case.clone()).into())
    }

    /// Sets the `weiqi_cases{state}` gauges from the index.
    pub fn report_states(&self) {
        use weiqi_rating::CaseStatus as S;
        let mut counts = [0u64; 6];
        for r in self.index().values() {
            counts[match r.case.status {
                S::Open => 0,
                S::AwaitingConfirmation => 1,
                S::Approved => 2,
                S::Rejected => 3,
                S::Issued => 4,
                S::Revoked => 5,
            }] += 1;
        }
        let states = ["open", "awaiting_confirmation", "approved", "rejected", "issued", "revoked"];
        for (state, n) in states.into_iter().zip(counts) {
            weiqi_telemetry::metrics::gauge!(weiqi_telemetry::names::CASES, weiqi_telemetry::names::labels::STATE => state)
                .set(n as f64);
        }
    }

    /// The ids of every case.
    #[must_use]
    pub fn ids(&self) -> Vec<CaseId> {
        self.index().keys().cloned().collect()
    }

    /// The cases `keep` selects, oldest first.
    #[must_use]
    pub fn select(&self, keep: impl Fn(&Case) -> bool) -> Vec<CaseRecord> {
        let mut out: Vec<CaseRecord> = self.index().values().filter(|r| keep(&r.case)).cloned().collect();
        out.sort_by(|a, b| (a.case.opened_at, &a.case.id).cmp(&(b.case.opened_at, &b.case.id)));
        out
    }

    /// Whether the player has a case open (or approved, not yet issued) in the ladder.
    #[must_use]
    pub fn busy(&self, player: &PlayerId, ladder: &str) -> bool {
        self.index().values().any(|r| keeps_busy(&r.case, player, ladder))
    }

    /// Runs an order on a case, its id derived from `description` (a retry derives the same id), and
    /// returns the case as it is now. An order that changes nothing appends nothing.
    ///
    /// # Errors
    /// The case's refusal, `request_id_reused`, `bad_case_id`, `no_such_case` (nothing opened it);
    /// faults.
    pub async fn execute(
        &self,
        case: &CaseId,
        description: &str,
        actor: &Actor,
        order: &CaseOrder,
    ) -> Result<CaseRecord, RankingError> {
        AggregateId::new(&case.0).map_err(|e| bad_case_id(case)(e.to_string()))?;
        let cid = command_id(description);
        match self.runner.execute(Request::new(&case.0, cid.as_str(), actor, order)).await {
            Ok(_) | Err(RunError::Rejected(Declined::Unchanged)) => {}
            Err(e) => return Err(RankingError::from_run(e, bad_case_id(case))),
        }
        self.refresh(case).await?.ok_or_else(|| RankingRejection::NoSuchCase(case.clone()).into())
    }

    /// Reads a case from the runner (caught up with the log) into the index.
    async fn refresh(&self, case: &CaseId) -> Result<Option<CaseRecord>, RankingError> {
        let record =
            self.runner.read(&case.0, record_of).await.map_err(|e| RankingError::from_run(e, bad_case_id(case)))?;
        if let Some(r) = &record {
            self.index().insert(case.clone(), r.clone());
            self.report_states();
        }
        Ok(record)
    }
}
