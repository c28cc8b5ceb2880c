//! The ranking service shell: load → decide (with the rating core and the player and case deciders)
//! → append with the expected sequence → fold.
//!
//! * **State in memory, rebuilt from the logs.** At start the service reads the rating ledger (the
//!   book), every case log, and loads player logs when first touched. Nothing else survives a
//!   restart, and nothing needs to.
//! * **One lock.** Decisions and appends run under one async mutex (tokio's, because the critical
//!   section awaits the append). Reading game logs and checking evidence happen outside it. One active
//!   instance per deployment is the intended shape; a second one stays correct because every append
//!   names the expected sequence (a conflict reloads the aggregate and decides again) and every
//!   command id is deterministic (a retry appends nothing).
//! * **Crash points are repaired at start.** A ledger entry is fanned out to player logs before the
//!   next entry is appended, so only the last entry can be half fanned out; an approved case without
//!   a certificate is issued; an issued or revoked case missing from the player's rank history is
//!   recorded. All of these are idempotent.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, MutexGuard};
use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, AppendError, CommandId, EventLog, NewEvent, Position};
use weiqi_rating::{
    AssociationKey, AssociationRules, CaseId, CaseState, Ladder, Millis, PlayerId, RatingBook, RatingSystem,
};

use crate::convert::{self, ActorKind, Meta};
use crate::error::RankingError;
use crate::logs::{command_id, read_stored};
use crate::registry::{PlayerCommand, PlayerEvent, PlayerState, Profile, ladder_of_grade};
use crate::tournaments::{FinalResults, TournamentResults};

/// How often a command is decided again after conflicts before giving up.
pub(crate) const MAX_CONFLICT_RETRIES: usize = 16;

/// Server time for the service (injected in tests).
pub trait Clock: Send + Sync + 'static {
    /// Now, in ms since the Unix epoch.
    fn now(&self) -> Millis;
}

/// The system clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Millis {
        let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        Millis(i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
    }
}

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

/// A player as the registry shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct RegistryEntry {
    /// The profile.
    pub profile: Profile,
    /// The full state (grades held, rating, histories).
    pub state: PlayerState,
}

/// One case with its log's last sequence.
#[derive(Clone, Debug, Default)]
pub(crate) struct CaseSlot {
    pub(crate) state: CaseState,
    pub(crate) version: u64,
    /// Command ids appended to this case: a retry of one is answered with the case as it is.
    pub(crate) commands: std::collections::HashSet<String>,
}

/// Everything the service keeps in memory.
#[derive(Debug)]
pub(crate) struct State {
    pub(crate) loaded: bool,
    pub(crate) book: RatingBook,
    pub(crate) ledger_sequence: u64,
    /// Where the game follower resumes.
    pub(crate) games_from: Position,
    /// Player logs loaded so far.
    pub(crate) players: HashMap<PlayerId, PlayerState>,
    /// Every case.
    pub(crate) cases: BTreeMap<CaseId, CaseSlot>,
    /// Final results seen, by tournament id.
    pub(crate) results: HashMap<String, FinalResults>,
}

/// The ranking service. Build with [`RankingService::new`], run with [`RankingService::run`].
pub struct RankingService {
    pub(crate) log: AnyEventLog,
    pub(crate) results: Arc<dyn TournamentResults>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) config: RankingConfig,
    pub(crate) ledger: AggregateId,
    pub(crate) state: Mutex<State>,
}

impl std::fmt::Debug for RankingService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RankingService").field("config", &self.config).finish_non_exhaustive()
    }
}

/// The aggregate id of a player's log.
///
/// # Errors
/// `bad_player_id` when the id is not a log name or starts with `_` (reserved for the ledger).
pub fn player_aggregate(player: &PlayerId) -> Result<AggregateId, RankingError> {
    if player.0.starts_with('_') {
        return Err(RankingError::invalid("bad_player_id", "player ids may not start with '_'"));
    }
    AggregateId::new(&player.0).map_err(|e| RankingError::invalid("bad_player_id", format!("{}: {e}", player.0)))
}

impl RankingService {
    /// A service over the event log, reading tournament results from `results`, with the system clock.
    #[must_use]
    pub fn new(log: AnyEventLog, results: Arc<dyn TournamentResults>, config: RankingConfig) -> RankingService {
        RankingService::with_clock(log, results, config, Arc::new(SystemClock))
    }

    /// A service with an injected clock (tests).
    #[must_use]
    pub fn with_clock(
        log: AnyEventLog,
        results: Arc<dyn TournamentResults>,
        config: RankingConfig,
        clock: Arc<dyn Clock>,
    ) -> RankingService {
        let ledger = AggregateId::new(format!("_ledger-{}", config.system.name())).expect("a valid ledger id");
        let book = RatingBook::new(config.system.clone());
        RankingService {
            log,
            results,
            clock,
            ledger,
            state: Mutex::new(State {
                loaded: false,
                book,
                ledger_sequence: 0,
                games_from: Position::START,
                players: HashMap::new(),
                cases: BTreeMap::new(),
                results: HashMap::new(),
            }),
            config,
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
        self.clock.now()
    }

    /// The rules for a ladder.
    #[must_use]
    pub fn rules_for(&self, ladder: &str) -> Option<&AssociationRules> {
        self.config.rules.iter().find(|r| r.ladder.id == ladder)
    }

    /// A ladder by id: from the rules, else built in.
    #[must_use]
    pub fn ladder(&self, id: &str) -> Option<Ladder> {
        self.rules_for(id).map(|r| r.ladder.clone()).or_else(|| Ladder::built_in(id))
    }

    /// The state, loaded from the logs on first use.
    pub(crate) async fn lock(&self) -> Result<MutexGuard<'_, State>, RankingError> {
        let mut st = self.state.lock().await;
        if !st.loaded {
            self.load(&mut st).await?;
            // Repairs append through paths that need the state as loaded; a failed repair leaves the
            // state unloaded, so the next call loads and repairs again.
            st.loaded = true;
            if let Err(e) = self.repair(&mut st).await {
                st.loaded = false;
                return Err(e);
            }
        }
        Ok(st)
    }

    async fn load(&self, st: &mut State) -> Result<(), RankingError> {
        st.book = RatingBook::new(self.config.system.clone());
        st.ledger_sequence = 0;
        st.games_from = Position::START;
        st.players.clear();
        st.cases.clear();
        self.reload_ledger(st).await?;
        for r in read_stored(&self.log, AggregateKind::Case, Position::START).await? {
            let id = CaseId(r.aggregate_id.to_string());
            let slot = st.cases.entry(id).or_default();
            if r.sequence == slot.version + 1 {
                slot.state.evolve(&convert::read_case(&r)?);
                slot.version = r.sequence;
                slot.commands.insert(r.command_id.to_string());
            }
        }
        tracing::info!(
            ledger = st.ledger_sequence,
            games = st.book.game_count(),
            players = st.book.player_count(),
            cases = st.cases.len(),
            "ranking state loaded"
        );
        Ok(())
    }

    /// Folds ledger entries appended after the ones in memory; returns them with their sequences.
    pub(crate) async fn reload_ledger(
        &self,
        st: &mut State,
    ) -> Result<Vec<(u64, crate::convert::LedgerEntry)>, RankingError> {
        let tail = self.log.read(AggregateKind::Player, &self.ledger, st.ledger_sequence + 1).await?;
        let mut folded = Vec::with_capacity(tail.len());
        for r in &tail {
            let entry = convert::read_ledger(r)?;
            self.fold_ledger(st, &entry);
            st.ledger_sequence = r.sequence;
            folded.push((r.sequence, entry));
        }
        Ok(folded)
    }

    /// Repairs what a crash between two appends can leave (see the module doc).
    async fn repair(&self, st: &mut State) -> Result<(), RankingError> {
        if st.ledger_sequence > 0 {
            let last = self.log.read(AggregateKind::Player, &self.ledger, st.ledger_sequence).await?;
            if let Some(r) = last.first() {
                let entry = convert::read_ledger(r)?;
                self.fan_out(st, r.sequence, &entry).await?;
            }
        }
        let cases: Vec<CaseId> = st.cases.keys().cloned().collect();
        for id in cases {
            self.complete_case(st, &id).await?;
        }
        Ok(())
    }

    /// The cached state of a player, loaded from their log when first needed.
    pub(crate) async fn player_state<'s>(
        &self,
        st: &'s mut State,
        player: &PlayerId,
    ) -> Result<&'s mut PlayerState, RankingError> {
        if !st.players.contains_key(player) {
            let state = self.read_player(player, PlayerState::default()).await?;
            st.players.insert(player.clone(), state);
        }
        Ok(st.players.get_mut(player).expect("just inserted"))
    }

    /// Folds a player's events after `state.version`.
    pub(crate) async fn read_player(
        &self,
        player: &PlayerId,
        mut state: PlayerState,
    ) -> Result<PlayerState, RankingError> {
        let id = player_aggregate(player)?;
        for r in self.log.read(AggregateKind::Player, &id, state.version + 1).await? {
            match convert::read_player(&r)? {
                Some(e) => {
                    if matches!(e, PlayerEvent::Registered { .. }) {
                        state.registration_command = Some(r.command_id.to_string());
                    }
                    state.evolve(&e);
                }
                None => state.version += 1,
            }
            if state.id.is_none() {
                state.id = Some(player.clone());
            }
        }
        Ok(state)
    }

    /// Decides a player command and appends its events (reloading and deciding again on conflicts).
    pub(crate) async fn player_command(
        &self,
        state: &mut PlayerState,
        player: &PlayerId,
        command: &PlayerCommand,
        command_id: &CommandId,
        actor: (ActorKind, &str),
    ) -> Result<Vec<PlayerEvent>, RankingError> {
        let id = player_aggregate(player)?;
        if state.id.is_none() {
            state.id = Some(player.clone());
        }
        for _ in 0..MAX_CONFLICT_RETRIES {
            let now = self.clock.now();
            let events = crate::registry::decide_player(state, command, now)?;
            if events.is_empty() {
                return Ok(events);
            }
            let meta =
                Meta { causation: command_id.to_string(), actor: actor.0, actor_id: actor.1.to_owned(), at: now };
            let encoded: Vec<NewEvent> = events.iter().map(|e| convert::player_event(e, &meta)).collect();
            match self.log.append(AggregateKind::Player, &id, state.version, command_id, &encoded).await {
                Ok(outcome) if !outcome.duplicate => {
                    for e in &events {
                        if matches!(e, PlayerEvent::Registered { .. }) {
                            state.registration_command = Some(command_id.to_string());
                        }
                        state.evolve(e);
                    }
                    return Ok(events);
                }
                Ok(_) | Err(AppendError::Conflict { .. }) => {
                    *state = self.read_player(player, std::mem::take(state)).await?;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(RankingError::Internal(format!("player {player}: conflicts did not settle")))
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

    // ---- the registry ----

    /// Enters a player in the registry, with a declared rank (`3k`, `2d`, `5p`, `sh-3`) if given.
    ///
    /// `request_id` makes a retry harmless.
    ///
    /// # Errors
    /// `already_registered`, `bad_profile`, `bad_player_id`, `unknown_rank`; faults.
    pub async fn register_player(
        &self,
        profile: Profile,
        rank: Option<&str>,
        by: &str,
        request_id: &str,
    ) -> Result<RegistryEntry, RankingError> {
        let player = profile.id.clone();
        player_aggregate(&player)?;
        let declared = match rank.map(str::trim).filter(|r| !r.is_empty()) {
            None => None,
            Some(code) => {
                let code =
                    code.parse::<weiqi_rating::Rank>().map(|r| r.to_string()).unwrap_or_else(|_| code.to_owned());
                let (ladder, pos) = ladder_of_grade(&code).ok_or_else(|| {
                    RankingError::invalid("unknown_rank", format!("{code:?} is not a grade of any ladder"))
                })?;
                let ladder = self.ladder(&ladder.id).unwrap_or(ladder);
                let name = ladder.grade(pos).map(|g| g.name.clone()).unwrap_or_default();
                Some((ladder.id.clone(), code, name))
            }
        };
        let mut st = self.lock().await?;
        let actor = (ActorKind::Staff, by);
        let state = self.player_state(&mut st, &player).await?;
        let register = PlayerCommand::Register { profile };
        let register_id = command_id(&format!("register/{player}/{request_id}"));
        match self.player_command(state, &player, &register, &register_id, actor).await {
            Ok(_) => {}
            // A retry whose first try landed: answer with the entry.
            Err(RankingError::Rejected { code: "already_registered", .. })
                if state.registration_command.as_deref() == Some(register_id.as_str()) => {}
            Err(e) => return Err(e),
        }
        if let Some((ladder, grade, grade_name)) = declared {
            let declare = PlayerCommand::DeclareRank { ladder: ladder.clone(), grade: grade.clone(), grade_name };
            let cid = command_id(&format!("declare/{player}/{request_id}"));
            self.player_command(state, &player, &declare, &cid, actor).await?;
            self.seed_from_rank(&mut st, &player, &ladder, &grade).await?;
        }
        self.registry_entry(&mut st, &player)
            .await?
            .ok_or_else(|| RankingError::Internal("registered player vanished".into()))
    }

    /// Replaces a player's profile (names, region, club, EGD PIN).
    ///
    /// # Errors
    /// `not_registered`, `bad_profile`; faults.
    pub async fn update_player(
        &self,
        profile: Profile,
        by: &str,
        request_id: &str,
    ) -> Result<RegistryEntry, RankingError> {
        let player = profile.id.clone();
        player_aggregate(&player)?;
        let mut st = self.lock().await?;
        let state = self.player_state(&mut st, &player).await?;
        let cid = command_id(&format!("update/{player}/{request_id}"));
        self.player_command(state, &player, &PlayerCommand::UpdateProfile { profile }, &cid, (ActorKind::Staff, by))
            .await?;
        self.registry_entry(&mut st, &player).await?.ok_or_else(|| RankingError::Internal("player vanished".into()))
    }

    /// The registry entry of a player (what tournaments read at registration); `None` if not registered.
    ///
    /// # Errors
    /// `bad_player_id`; faults.
    pub async fn player(&self, player: &PlayerId) -> Result<Option<RegistryEntry>, RankingError> {
        player_aggregate(player)?;
        let mut st = self.lock().await?;
        self.registry_entry(&mut st, player).await
    }

    /// The registry entry as the tournament service records it at registration
    /// (`weiqi.v1.TournamentPlayerSnapshot`: names, national rank, current rating rounded, club,
    /// region, EGD PIN); `None` if not registered. The body of the tournament's `PlayerDirectory`.
    ///
    /// # Errors
    /// `bad_player_id`; faults.
    pub async fn tournament_snapshot(
        &self,
        account: &str,
    ) -> Result<Option<weiqi_proto::v1::TournamentPlayerSnapshot>, RankingError> {
        let player = PlayerId::from(account);
        let Some(entry) = self.player(&player).await? else {
            return Ok(None);
        };
        let rating = {
            let st = self.lock().await?;
            st.book.view(&player, self.clock.now()).map(|v| v.rating.round() as i32)
        };
        let p = &entry.profile;
        Ok(Some(weiqi_proto::v1::TournamentPlayerSnapshot {
            name_zh: p.name_zh.clone(),
            name_latin: p.name_latin.clone(),
            rank: entry.state.display_rank().map(|r| r.to_string()).unwrap_or_default(),
            rating,
            club: p.club.clone(),
            region: p.region.clone(),
            country: String::new(),
            egd_pin: p.egd_pin.parse().unwrap_or(0),
        }))
    }

    async fn registry_entry(&self, st: &mut State, player: &PlayerId) -> Result<Option<RegistryEntry>, RankingError> {
        // Another instance may have appended: read the tail.
        let cached = std::mem::take(self.player_state(st, player).await?);
        let state = self.read_player(player, cached).await?;
        st.players.insert(player.clone(), state.clone());
        Ok(state.profile.clone().map(|profile| RegistryEntry { profile, state }))
    }
}
