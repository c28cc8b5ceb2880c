//! The ranking service: the player registry, the rating ledger and the certification desk composed,
//! with the flows that cross them.
//!
//! * [`PlayerRegistry`], [`RatingLedger`] and [`CertificationDesk`] each run their aggregate on the one
//!   runner ([`weiqi_aggregate::Runner`]: *load → decide → append with the expected sequence → retry →
//!   answer duplicates*); each has only the lock it needs (see their module docs).
//! * The flows: registration with a declared rank (seeded in the book), rating games as they end and
//!   tournaments as they finish ([`ratings`]), applications, review, certificates, revocation and
//!   automatic proposals ([`certification`], with the evidence checked in [`crate::evidence`]).
//! * **State in memory is rebuilt from the logs.** Nothing else survives a restart, and nothing needs
//!   to. One active instance per deployment is the intended shape; a second one stays correct because
//!   every append names the expected sequence and every command id the service derives is
//!   deterministic (a retry is answered with the original outcome).
//! * **Crash points are repaired at start**, before the first request is served (`started`): the last
//!   ledger entry is fanned out to the players' logs (only the last can be half fanned out); an approved
//!   case without a certificate is issued; an issued or revoked case missing from the player's rank
//!   history is recorded. All of these are idempotent.

mod archive_results;
mod certification;
mod h9_results;
mod players;
mod ratings;

use std::sync::Arc;
use std::time::Duration;

use weiqi_aggregate::{Environment, SystemEnvironment};
use weiqi_eventlog::AnyEventLog;
use weiqi_rating::{AssociationKey, AssociationRules, Ladder, Millis, RatingSystem};

use crate::cases::CertificationDesk;
use crate::error::RankingError;
use crate::ledger::RatingLedger;
use crate::registry::PlayerRegistry;
use crate::tournaments::TournamentResults;

pub use crate::registry::RegistryEntry;
pub use archive_results::{ArchiveRating, ArchivedResult, ArchivedWinner};
pub use h9_results::H9Import;
pub use players::token_hash;

/// What the service is configured with.
pub struct RankingConfig {
    /// The rating system of the book (Glicko-2 by default).
    pub system: RatingSystem,
    /// The association's promotion rules, one file per ladder.
    pub rules: Vec<AssociationRules>,
    /// The association's signing key for certificates and revocation lists.
    pub key: AssociationKey,
    /// How often open Glicko-2 periods are checked for closing.
    pub tick: Duration,
    /// The actor id of the service itself (cases it opens on proposals).
    pub service_id: String,
    /// How long a signed revocation list stays current: its `next-update` is this long after it
    /// is signed (default 7 days).
    pub revocations_valid_for: Millis,
}

impl RankingConfig {
    /// Glicko-2, the given rules and key, a one-minute tick.
    #[must_use]
    pub fn new(key: AssociationKey, rules: Vec<AssociationRules>) -> RankingConfig {
        RankingConfig {
            system: RatingSystem::default(),
            rules,
            key,
            tick: Duration::from_secs(60),
            service_id: "ranking".to_owned(),
            revocations_valid_for: Millis::WEEK,
        }
    }
}

impl std::fmt::Debug for RankingConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RankingConfig")
            .field("system", &self.system.name())
            .field("rules", &self.rules.iter().map(|r| &r.ladder.id).collect::<Vec<_>>())
            .field("association", &self.key.association())
            .field("tick", &self.tick)
            .finish_non_exhaustive()
    }
}

/// The ranking service. Build with [`RankingService::new`], run with [`RankingService::run`].
pub struct RankingService {
    log: AnyEventLog,
    results: Arc<dyn TournamentResults>,
    env: Arc<dyn Environment>,
    config: RankingConfig,
    registry: PlayerRegistry<AnyEventLog>,
    ledger: RatingLedger<AnyEventLog>,
    desk: CertificationDesk<AnyEventLog>,
    /// The start repairs, run once before the first request is served; a request waits for them, and
    /// a failed start is tried again by the next request. A once-cell, not a lock over state: a tokio
    /// one, because the repairs await appends.
    started: tokio::sync::OnceCell<()>,
}

impl std::fmt::Debug for RankingService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RankingService").field("config", &self.config).finish_non_exhaustive()
    }
}

/// What an EGD rating list import did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EgdImport {
    /// Players seeded, with the rating given.
    pub seeded: Vec<(weiqi_rating::PlayerId, f64)>,
    /// Players with a PIN the list lacks.
    pub not_in_list: Vec<weiqi_rating::PlayerId>,
    /// Players already rated here (kept).
    pub already_rated: Vec<weiqi_rating::PlayerId>,
    /// Players whose GoR maps to no rating in this system.
    pub unmapped: Vec<weiqi_rating::PlayerId>,
}

impl RankingService {
    /// The player logs' head: every registry write so far is at or before it (for read your
    /// writes, [`crate::grpc`]'s `min_position`).
    ///
    /// # Errors
    /// The log is unreachable.
    pub async fn player_log_head(&self) -> Result<u64, RankingError> {
        use weiqi_eventlog::EventLog;
        let head = self.log.head(weiqi_eventlog::AggregateKind::Player).await.map_err(RankingError::from)?;
        Ok(head.raw())
    }

    /// A service over the event log, reading tournament results from `results`, with the system clock.
    #[must_use]
    pub fn new(log: AnyEventLog, results: Arc<dyn TournamentResults>, config: RankingConfig) -> RankingService {
        RankingService::with_environment(log, results, config, Arc::new(SystemEnvironment))
    }

    /// A service with an injected environment (tests move time by hand).
    #[must_use]
    pub fn with_environment(
        log: AnyEventLog,
        results: Arc<dyn TournamentResults>,
        config: RankingConfig,
        env: Arc<dyn Environment>,
    ) -> RankingService {
        RankingService {
            registry: PlayerRegistry::new(log.clone(), env.clone()),
            ledger: RatingLedger::new(log.clone(), env.clone(), config.system.clone(), &config.service_id),
            desk: CertificationDesk::new(log.clone(), env.clone()),
            log,
            results,
            env,
            config,
            started: tokio::sync::OnceCell::new(),
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &RankingConfig {
        &self.config
    }

    /// The event log.
    #[must_use]
    pub fn log(&self) -> &AnyEventLog {
        &self.log
    }

    /// Server time now.
    #[must_use]
    pub fn now(&self) -> Millis {
        self.env.now()
    }

    /// The rules for a ladder.
    #[must_use]
    pub fn rules_for(&self, ladder: &str) -> Option<&AssociationRules> {
        self.config.rules.iter().find(|r| r.ladder.id == ladder)
    }

    /// The association's full name, from the rules of `ladder` (else any rules) naming the association
    /// `id`; the id itself when no rules name it.
    #[must_use]
    pub fn association_name(&self, id: &str, ladder: &str) -> String {
        let named = |r: &&AssociationRules| r.association.id == id && !r.association.name.trim().is_empty();
        self.rules_for(ladder)
            .filter(named)
            .or_else(|| self.config.rules.iter().find(named))
            .map_or_else(|| id.to_owned(), |r| r.association.name.clone())
    }

    /// A ladder by id: from the rules, else built in.
    #[must_use]
    pub fn ladder(&self, id: &str) -> Option<Ladder> {
        self.rules_for(id).map(|r| r.ladder.clone()).or_else(|| Ladder::built_in(id))
    }

    /// Waits for the start repairs (running them if nobody has yet).
    async fn ready(&self) -> Result<(), RankingError> {
        self.started.get_or_try_init(|| self.start()).await.map(|_| ())
    }

    /// Loads the case index and repairs what a crash between two appends can leave (see the module
    /// doc). Nothing here waits for [`Self::ready`].
    async fn start(&self) -> Result<(), RankingError> {
        let cases = self.desk.load().await?;
        let (ledger, games, players) =
            self.ledger.read(|book, _, version| (version, book.game_count(), book.player_count())).await?;
        self.ledger.repair(&self.registry).await?;
        for case in self.desk.ids() {
            self.complete_case(&case).await?;
        }
        tracing::info!(ledger, games, players, cases, "ranking state loaded");
        if players == 0 {
            let reseeded = self.reseed_from_ranks().await?;
            if reseeded > 0 {
                tracing::info!(
                    system = self.config.system.name(),
                    reseeded,
                    "the {} ledger was empty (a new rating system): {reseeded} players re-seeded from their declared or \
                     certified ranks; every rated game in the logs is rated again under it, from the first",
                    self.config.system.name()
                );
            }
        }
        Ok(())
    }

    /// Seeds every registered player holding a grade into this system's (empty) ledger from that
    /// grade, as registration does (issue 15 item 11): after `--rating-system egf` a 5 dan registered
    /// under Glicko-2 starts at the GoR of 5 dan, not at the system's floor. A professional grade is
    /// preferred, then amateur, then any other ladder the rules map. Answers how many were seeded.
    ///
    /// # Errors
    /// Faults while reading the player logs or appending.
    pub(crate) async fn reseed_from_ranks(&self) -> Result<usize, RankingError> {
        let mut seeded = 0;
        for player in self.registered_players().await? {
            if self.seed_from_held_grade(&player).await? {
                seeded += 1;
            }
        }
        Ok(seeded)
    }

    /// Seeds one player from the grade they hold (professional first, then amateur, then any other
    /// ladder the rules map), if they have no rating in this system yet; whether a grade was mapped.
    ///
    /// # Errors
    /// Faults while reading the player's log or appending.
    pub(crate) async fn seed_from_held_grade(&self, player: &weiqi_rating::PlayerId) -> Result<bool, RankingError> {
        let state = self.registry.state(player).await?;
        let mut held: Vec<(&String, &String)> = state.grades.iter().map(|(l, h)| (l, &h.grade)).collect();
        held.sort_by_key(|(l, _)| match l.as_str() {
            "professional" => 0,
            "amateur" => 1,
            _ => 2,
        });
        for (ladder, grade) in held {
            if self.rules_for(ladder).and_then(|r| r.mapping(self.config.system.name())).is_some() {
                self.seed_from_rank(player, ladder, grade).await?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Seeds registered players' ratings from an EGD rating list (issue 15 item 9), matched by the EGD
    /// PIN in their profile: under EGF GoR the list's GoR itself; under another system the nominal
    /// rating of the grade the GoR stands for (the EGF table, 100 a grade), through the amateur
    /// rules' mapping. A player already rated here keeps their rating (the list seeds, it does not
    /// overwrite history). Answers who was seeded with what, and who was not and why.
    ///
    /// # Errors
    /// Faults while reading the player logs or appending.
    pub async fn import_egd_ratings(
        &self,
        list: &weiqi_rating::egd_list::EgdRatingList,
    ) -> Result<EgdImport, RankingError> {
        use weiqi_rating::{RatingCommand, RatingRejection};
        self.ready().await?;
        let by_pin: std::collections::HashMap<u64, &weiqi_rating::egd_list::EgdRated> =
            list.players.iter().map(|p| (p.pin, p)).collect();
        let mut out = EgdImport::default();
        for (player, pin) in self.players_by_pin().await? {
            let Some(row) = by_pin.get(&pin) else {
                out.not_in_list.push(player);
                continue;
            };
            let gor = f64::from(row.gor);
            let rating = match &self.config.system {
                weiqi_rating::RatingSystem::Egf(_) => Some(gor),
                system => {
                    let grade = weiqi_rating::RankMapping::egf().grade_for(gor).map(str::to_owned);
                    grade.and_then(|g| self.rules_for("amateur")?.mapping(system.name())?.rating_for(&g))
                }
            };
            let Some(rating) = rating else {
                out.unmapped.push(player);
                continue;
            };
            if self.ledger.read(|book, _, _| book.stored(&player).is_some()).await? {
                out.already_rated.push(player);
                continue;
            }
            let seed = RatingCommand::Seed { player: player.clone(), rating, deviation: None };
            match self.ledger.record(&self.registry, seed, None).await {
                Ok(_) => out.seeded.push((player, rating)),
                Err(RankingError::Rejected(crate::domain::RankingRejection::Rating(
                    RatingRejection::AlreadyRated(_),
                ))) => {
                    out.already_rated.push(player);
                }
                Err(e) => return Err(e),
            }
        }
        tracing::info!(seeded = out.seeded.len(), already = out.already_rated.len(), "EGD rating list imported");
        Ok(out)
    }

    /// Every registered player whose profile has an EGD PIN, with it.
    async fn players_by_pin(&self) -> Result<Vec<(weiqi_rating::PlayerId, u64)>, RankingError> {
        let mut out = Vec::new();
        for player in self.registered_players().await? {
            let state = self.registry.state(&player).await?;
            if let Some(pin) = state.profile.as_ref().and_then(|p| p.egd_pin.trim().parse::<u64>().ok()) {
                out.push((player, pin));
            }
        }
        Ok(out)
    }

    /// Every player with a log, read once from the start of the player logs.
    async fn registered_players(&self) -> Result<Vec<weiqi_rating::PlayerId>, RankingError> {
        use futures::StreamExt;
        use weiqi_eventlog::{AggregateKind, EventLog, Position};
        let head = self.log.head(AggregateKind::Player).await?;
        let mut ids = std::collections::BTreeSet::new();
        // Batches count from 1: a head at batch 1 is an empty log.
        if head.raw() >> 16 > 1 {
            let mut stream = self.log.follow(AggregateKind::Player, Position::START).await?;
            while let Some(item) = stream.next().await {
                let event = item?;
                let id = event.aggregate_id.as_str();
                if !id.starts_with('_') {
                    // `_…` logs are the rating ledgers, not players.
                    ids.insert(weiqi_rating::PlayerId(id.to_owned()));
                }
                // A batch is one aggregate's append: the last batch's first event names its player.
                if (event.position.raw() >> 16) + 1 >= head.raw() >> 16 {
                    break;
                }
            }
        }
        Ok(ids.into_iter().collect())
    }

    /// Runs the service: rates games as they end (following every game log), takes in tournament
    /// results as events finish (proposals), and closes Glicko-2 periods on the tick. Runs until the
    /// task is aborted; cancel-safe (everything resumes from the logs).
    pub async fn run(self: Arc<Self>) {
        tokio::join!(self.follow_games(), self.follow_results(), self.ticks());
    }

    async fn ticks(&self) {
        let mut interval = tokio::time::interval(self.config.tick);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            interval.tick().await;
            if let Err(e) = self.close_periods().await {
                tracing::warn!(error = %e, "ranking: closing rating periods failed, next tick retries");
            }
        }
    }
}
