//! The process manager: the tournament's hands in the game service.
//!
//! * **Round paired → games created.** For every game of a `RoundPaired` it creates the game in the
//!   game service ([`GameClient`]) with the event's ruleset and time control, colors fixed by the
//!   pairing (first = Black), the handicap of the pairing, and deterministic ids (game
//!   `t-<tournament>-r<round>-b<table>`, command `create-<game>`): a retry, a restart or a second
//!   manager gets a duplicate or `already_exists`, never a second game.
//! * **`GameEnded` → result recorded.** It follows the game log; the end of a tournament game becomes
//!   `RecordResult` with command id `result-<game>` (the winner mapped back to the pairing's colors,
//!   so a referee's color swap, Art. 17.1, is honoured). A result already there (recorded by hand,
//!   or by an earlier run) is a rejection that is simply skipped.
//! * **Round completed → next round paired**, when the tournament's settings ask for it
//!   (`auto_pair`), with command `pair-<tournament>-r<next>` and the round number checked, so that no
//!   replay ever pairs two rounds.
//! * **No-shows.** A Black who has not moved `no_show_limit_ms` after the game started is claimed
//!   absent (`ClaimNoShow`, command `noshow-<game>`); so is a White who has not answered that long
//!   after Black's first move. Online, a player who never moves cannot be told from one who is
//!   absent, so a White can only be found absent once Black has moved.
//! * **Imported rounds are left alone.** Rounds an import brought in (`RoundsImported`) were played
//!   elsewhere: no game is created or watched for them, and completing one pairs nothing until the
//!   last imported round is complete.
//! * **Games the tournament decided are closed.** A result recorded by hand, a no-show or a
//!   withdrawal forfeit ends the game in the game service too (an organiser's adjudication, actor
//!   `organiser/tournament-service`, command `close-<game>`).
//!
//! # Crash safety
//! Every action is idempotent (deterministic command ids, results checked by the core), and each
//! follower stores the position after the last event it has fully handled (named checkpoints in the
//! read model's store: `<name>-tournaments`, `<name>-games`). After a restart the manager re-reads the
//! tournament log (to know every running tournament), acts again only on events past its checkpoint,
//! and then re-reads the game logs of the open games of each running tournament, so clocks for
//! no-shows and results that ended while it was down are picked up. Lost checkpoints only cost time.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::{FutureExt, StreamExt};
use tracing::Instrument;
use weiqi_eventlog::{AggregateId, AggregateKind, EventLog, Follower, Position, RecordedEvent};
use weiqi_game::client::GameClient;
use weiqi_game::domain::{
    Actor, Command as GameCommand, GameEvent, GameResult, GameSetup, Outcome as GameOutcome, PlayerId as GamePlayer,
    PlayerRef, TournamentRef,
};
use weiqi_game::service::{GameError, GameRequest};
use weiqi_pairing::command::Command;
use weiqi_pairing::event::TournamentEvent;
use weiqi_pairing::ids::{GameRef, PlayerId};
use weiqi_pairing::state::Phase;
use weiqi_rules::Color;

use crate::aggregate::{Body, TournamentCommand};
use crate::convert;
use crate::ids;
use crate::projector::batch_of;
use crate::read_model::ReadModel;
use crate::service::{ServiceError, TournamentService, decode_recorded};
use crate::settings::PairedGameSetup;

/// Settings of the process manager.
#[derive(Clone, Debug)]
pub struct ManagerConfig {
    /// Prefix of the checkpoint names.
    pub name: String,
    /// How often open games are checked for no-shows.
    pub sweep_every: Duration,
    /// Pause before retrying after an infrastructure fault.
    pub retry_after: Duration,
    /// Games created at once.
    pub create_concurrency: usize,
}

impl Default for ManagerConfig {
    fn default() -> Self {
        ManagerConfig {
            name: "tournament-manager".into(),
            sweep_every: Duration::from_secs(5),
            retry_after: Duration::from_millis(250),
            create_concurrency: 64,
        }
    }
}

/// What the manager knows of one open tournament game.
#[derive(Clone, Debug, Default)]
struct Track {
    tournament: String,
    round: u32,
    table: u32,
    /// The account the pairing gave Black (the game's first player).
    paired_black: String,
    /// The account the pairing gave White (the game's second player).
    paired_white: String,
    /// The game was created by this manager (the platform, `Actor::System("tournament")`) for this
    /// tournament, round and table: only such a game is adopted, never one that merely has the name.
    platform: bool,
    /// The game's current Black and White accounts.
    black: String,
    white: String,
    started_at: Option<i64>,
    first_move: [Option<i64>; 2],
    ended: bool,
    claimed: bool,
    /// The last game sequence folded.
    sequence: u64,
}

impl Track {
    /// Folds one game event recorded by `actor`; the result when the game ended.
    fn fold(&mut self, e: &GameEvent, actor: &Actor, sequence: u64) -> Option<GameResult> {
        self.sequence = sequence;
        match e {
            GameEvent::Created(setup) => {
                let ours = TournamentRef { id: self.tournament.clone(), round: self.round, board: self.table };
                self.platform = *actor == system() && setup.tournament.as_ref() == Some(&ours);
                self.paired_black = setup.first.id.0.clone();
                self.paired_white = setup.second.id.0.clone();
                self.black = setup.first.id.0.clone();
                self.white = setup.second.id.0.clone();
            }
            GameEvent::ColorsDecided { black, white, .. } => {
                self.black = black.0.clone();
                self.white = white.0.clone();
            }
            GameEvent::ColorsSwapped => std::mem::swap(&mut self.black, &mut self.white),
            GameEvent::Started { at } => {
                self.started_at.get_or_insert(at.0);
            }
            GameEvent::StonePlayed { color, at, .. } | GameEvent::Passed { color, at, .. } => {
                let i = if *color == Color::Black { 0 } else { 1 };
                self.first_move[i].get_or_insert(at.0);
            }
            GameEvent::Ended { result, .. } => {
                self.ended = true;
                return Some(result.clone());
            }
            _ => {}
        }
        None
    }
}

/// The process manager.
pub struct ProcessManager<L, M> {
    service: Arc<TournamentService<L>>,
    games: GameClient,
    checkpoints: M,
    config: ManagerConfig,
    tracks: Mutex<HashMap<String, Track>>,
    /// Per tournament: (no-show limit, automatic no-shows on).
    limits: Mutex<HashMap<String, (i64, bool)>>,
}

fn system() -> Actor {
    Actor::System("tournament".into())
}

impl<L: EventLog + Clone + 'static, M: ReadModel + 'static> ProcessManager<L, M> {
    /// A manager over the tournament service (and its log), the game service, and a store for its
    /// checkpoints.
    pub fn new(
        service: Arc<TournamentService<L>>,
        games: GameClient,
        checkpoints: M,
        config: ManagerConfig,
    ) -> ProcessManager<L, M> {
        ProcessManager {
            service,
            games,
            checkpoints,
            config,
            tracks: Mutex::new(HashMap::new()),
            limits: Mutex::new(HashMap::new()),
        }
    }

    /// Runs until the task is aborted. Cancel-safe: every action is idempotent and checkpoints are
    /// stored only after an event is fully handled.
    pub async fn run(self: Arc<Self>) {
        tokio::join!(self.clone().tournaments_loop(), self.clone().games_loop(), self.clone().sweep_loop());
    }

    fn log(&self) -> &L {
        self.service.log()
    }

    fn checkpoint_name(&self, what: &str) -> String {
        format!("{}-{what}", self.config.name)
    }

    async fn load_checkpoint(&self, what: &str) -> Position {
        loop {
            match self.checkpoints.checkpoint(&self.checkpoint_name(what)).await {
                Ok(v) => return Position::from_raw(v.unwrap_or(0)),
                Err(e) => {
                    tracing::warn!(error = %e, "checkpoint store unavailable");
                    tokio::time::sleep(self.config.retry_after).await;
                }
            }
        }
    }

    async fn save_checkpoint(&self, what: &str, p: Position) {
        if let Err(e) = self.checkpoints.set_checkpoint(&self.checkpoint_name(what), p.raw()).await {
            // Not fatal: the next save stores a later position; a lost one only repeats idempotent work.
            tracing::warn!(error = %e, "checkpoint not stored");
        }
    }

    // ---- the tournament log ----

    async fn tournaments_loop(self: Arc<Self>) {
        let follower = Follower::register("tournament_manager", AggregateKind::Tournament);
        loop {
            if let Err(e) = self.follow_tournaments(&follower).await {
                tracing::warn!(error = %e, "process manager: tournament log; retrying");
                tokio::time::sleep(self.config.retry_after).await;
            }
        }
    }

    async fn follow_tournaments(&self, follower: &Follower) -> Result<(), String> {
        let checkpoint = self.load_checkpoint("tournaments").await;
        let head = self.log().head(AggregateKind::Tournament).await.map_err(|e| e.to_string())?;
        let mut known: HashSet<String> = HashSet::new();
        let mut seeded = batch_of(head) <= 1;
        let mut stream =
            self.log().follow(AggregateKind::Tournament, Position::START).await.map_err(|e| e.to_string())?;
        while let Some(item) = stream.next().await {
            let r = item.map_err(|e| e.to_string())?;
            known.insert(r.aggregate_id.as_str().to_string());
            if r.position >= checkpoint {
                // What the manager does continues the trace of the command that appended the event.
                let span =
                    tracing::info_span!("tournament.manager", tournament = %r.aggregate_id, event = %r.event_type);
                weiqi_telemetry::set_parent(&span, &weiqi_eventlog::trace_of(&r.headers));
                self.act(&r).instrument(span).await;
                self.save_checkpoint("tournaments", r.position.next()).await;
            }
            follower.at(r.position);
            if !seeded && batch_of(r.position) + 1 >= batch_of(head) {
                seeded = true;
                for t in &known {
                    self.seed(t).await;
                }
            }
        }
        Err("the tournament log stream ended".into())
    }

    /// Acts on one tournament event, retrying faults until done.
    async fn act(&self, r: &RecordedEvent) {
        let tid = r.aggregate_id.as_str();
        let Ok(recorded) = decode_recorded(r) else {
            tracing::error!(tournament = tid, sequence = r.sequence, "undecodable tournament event skipped");
            return;
        };
        let Body::Domain(event) = recorded.event.body else { return };
        match event {
            TournamentEvent::RoundPaired { round, .. } => self.create_round(tid, round).await,
            TournamentEvent::RoundCompleted { round } => self.pair_next(tid, round).await,
            TournamentEvent::ResultRecorded { game, .. } => {
                let Some(gid) = self.game_id(tid, game).await else { return };
                if recorded.causation != ids::result_command(&gid) {
                    self.close_game(tid, game).await;
                }
            }
            TournamentEvent::RoundUnpaired { round, tables } => self.close_unpaired(tid, round, tables).await,
            TournamentEvent::ResultCorrected { game, .. } => self.correct_game(tid, game, r.sequence).await,
            _ => {}
        }
    }

    /// Creates every game of a round (and starts tracking it).
    async fn create_round(&self, tid: &str, round: u32) {
        let requests = loop {
            match self.service.read(tid, |t| create_requests(tid, t, round)).await {
                Ok(r) => break r.unwrap_or_default(),
                Err(e) if e.is_unavailable() => tokio::time::sleep(self.config.retry_after).await,
                Err(e) => {
                    tracing::error!(tournament = tid, error = %e, "cannot read tournament");
                    return;
                }
            }
        };
        {
            let mut tracks = self.tracks.lock().expect("tracks lock");
            for (req, _) in &requests {
                let (round, table) = req.setup.tournament.as_ref().map_or((0, 0), |t| (t.round, t.board));
                tracks.entry(req.game_id.clone()).or_insert_with(|| Track {
                    tournament: tid.to_string(),
                    round,
                    table,
                    paired_black: req.setup.first.id.0.clone(),
                    paired_white: req.setup.second.id.0.clone(),
                    black: req.setup.first.id.0.clone(),
                    white: req.setup.second.id.0.clone(),
                    ..Default::default()
                });
            }
        }
        futures::stream::iter(requests)
            .for_each_concurrent(self.config.create_concurrency.max(1), |(req, _)| self.create_game(req))
            .await;
    }

    async fn create_game(&self, req: CreateGame) {
        let gid = req.game_id.clone();
        let request = GameRequest {
            game_id: gid.clone(),
            command_id: ids::create_command(&gid),
            correlation_id: String::new(),
            actor: Actor::System("tournament".into()),
            command: GameCommand::Create { setup: Box::new(req.setup), nigiri_secret: [0; 32] },
        };
        loop {
            match self.games.execute(&request, &weiqi_telemetry::inject_current()).await {
                Ok(_) => return,
                Err(GameError::Unavailable(why)) => {
                    tracing::warn!(game = %gid, %why, "game service unavailable; retrying")
                }
                Err(e) if e.code() == "already_exists" => return,
                Err(e) => {
                    tracing::error!(game = %gid, code = %e.code(), error = %e, "game not created");
                    return;
                }
            }
            tokio::time::sleep(self.config.retry_after).await;
        }
    }

    /// Pairs the next round when the settings ask for it.
    async fn pair_next(&self, tid: &str, completed: u32) {
        let wanted = self
            .service
            .read(tid, |t| {
                t.settings.as_ref().is_some_and(|s| s.auto_pair)
                    && completed >= t.imported_rounds
                    && t.core.phase == Phase::Running
                    && t.core.current_round() == completed
            })
            .await;
        if !matches!(wanted, Ok(Some(true))) {
            return;
        }
        let next = completed + 1;
        let cmd = TournamentCommand::PairRound { round: Some(next) };
        self.execute(tid, &ids::pair_command(tid, next), &cmd).await;
    }

    /// The game id of a table as the round is paired now (`None`: the tournament cannot be read).
    async fn game_id(&self, tid: &str, game: GameRef) -> Option<String> {
        loop {
            match self.service.read(tid, |t| t.game_id(tid, game)).await {
                Ok(id) => return id,
                Err(e) if e.is_unavailable() => tokio::time::sleep(self.config.retry_after).await,
                Err(e) => {
                    tracing::error!(tournament = tid, error = %e, "cannot read tournament");
                    return None;
                }
            }
        }
    }

    /// Closes the games of a round's pairing that was taken back (no result: the round is paired
    /// again, with new games). The pairing taken back is the one before the round's current one.
    async fn close_unpaired(&self, tid: &str, round: u32, tables: u32) {
        let Ok(Some(now)) = self.service.read(tid, |t| t.core.pairing_of(round)).await else { return };
        // The event's own pairing: unpairs after it raised the count further.
        let Some(taken_back) = now.checked_sub(1) else { return };
        for table in 1..=tables {
            let gid = ids::game_id_in(tid, round, taken_back, table);
            self.tracks.lock().expect("tracks lock").remove(&gid);
            let command = GameCommand::Adjudicate {
                outcome: GameOutcome::NoResult,
                reason: weiqi_game::domain::EndReason::Referee,
                note: "the round's pairing was taken back".into(),
            };
            self.tell_game(&gid, ids::unpair_command(&gid), command).await;
        }
    }

    /// Ends a game in the game service after the tournament decided it.
    async fn close_game(&self, tid: &str, game: GameRef) {
        let Some(gid) = self.game_id(tid, game).await else { return };
        let Some((outcome, reason)) = self.game_result(tid, game, &gid, false).await else { return };
        let command = GameCommand::Adjudicate { outcome, reason, note: "decided by the tournament".into() };
        self.tell_game(&gid, ids::close_command(&gid), command).await;
    }

    /// Gives a game the result the tournament corrected (event `sequence` of the tournament's log): the
    /// game record, and everything that reads the game's log (ratings, certification evidence), follow.
    async fn correct_game(&self, tid: &str, game: GameRef, sequence: u64) {
        let Some(gid) = self.game_id(tid, game).await else { return };
        let Some(track) = self.track(&gid).await else { return };
        if !track.ended {
            // Not ended in the game service yet: the correction ends it.
            return self.close_game(tid, game).await;
        }
        let Some((outcome, reason)) = self.game_result(tid, game, &gid, true).await else { return };
        let command = GameCommand::CorrectResult { outcome, reason, note: "corrected by the tournament".into() };
        self.tell_game(&gid, ids::correct_command(&gid, sequence), command).await;
    }

    /// The tournament's result of `game` as the game service records it: the winner mapped to the
    /// game's colours (a referee's colour swap, Art. 17.1), and how it ended. `None` when there is no
    /// result or no game (an imported round), or (unless `ended`) the game has ended already.
    async fn game_result(
        &self,
        tid: &str,
        game: GameRef,
        gid: &str,
        ended: bool,
    ) -> Option<(GameOutcome, weiqi_game::domain::EndReason)> {
        let Ok(Some(Some((result, paired_black)))) = self
            .service
            .read(tid, |t| {
                let g = t.core.game(game)?;
                Some((g.result?, t.account(g.paired.black)))
            })
            .await
        else {
            return None;
        };
        let track = self.track(gid).await?;
        if track.ended != ended {
            return None;
        }
        Some(convert::result_to_game(&result, track.black == paired_black))
    }

    /// Sends one command to a game as the tournament's organiser, retrying faults.
    async fn tell_game(&self, gid: &str, command_id: String, command: GameCommand) {
        let request = GameRequest {
            game_id: gid.to_owned(),
            command_id,
            correlation_id: String::new(),
            actor: Actor::Organiser("tournament-service".into()),
            command,
        };
        loop {
            match self.games.execute(&request, &weiqi_telemetry::inject_current()).await {
                Err(GameError::Unavailable(_)) => tokio::time::sleep(self.config.retry_after).await,
                Err(e) => {
                    tracing::warn!(game = %gid, code = %e.code(), error = %e, "game not told the tournament's result");
                    return;
                }
                Ok(_) => return,
            }
        }
    }

    /// Re-reads the open games of a running tournament: creates any that is missing, and rebuilds
    /// their tracks (start times, first moves, ends missed while the manager was down).
    async fn seed(&self, tid: &str) {
        let open = loop {
            match self
                .service
                .read(tid, |t| {
                    if t.core.phase != Phase::Running {
                        return Vec::new();
                    }
                    let round = t.core.current_round();
                    create_requests(tid, t, round).into_iter().filter(|(_, open)| *open).map(|(r, _)| r).collect()
                })
                .await
            {
                Ok(v) => break v.unwrap_or_default(),
                Err(e) if e.is_unavailable() => tokio::time::sleep(self.config.retry_after).await,
                Err(_) => return,
            }
        };
        for req in open {
            let gid = req.game_id.clone();
            if self.track(&gid).await.is_none() {
                self.create_game(req).await;
                self.track(&gid).await;
            }
        }
    }

    /// The track of a game, read from its log if unknown (recording its result if it has ended).
    async fn track(&self, gid: &str) -> Option<Track> {
        if let Some(t) = self.tracks.lock().expect("tracks lock").get(gid).filter(|t| t.sequence > 0) {
            return Some(t.clone());
        }
        let ids::TableGame { tournament: tid, round, table, .. } = ids::parse_game_id(gid)?;
        let id = AggregateId::new(gid).ok()?;
        let events = loop {
            match self.log().read(AggregateKind::Game, &id, 1).await {
                Ok(e) => break e,
                Err(_) => tokio::time::sleep(self.config.retry_after).await,
            }
        };
        if events.is_empty() {
            return None;
        }
        let mut track = Track { tournament: tid.to_string(), round, table, ..Default::default() };
        let mut ended = None;
        for r in &events {
            if let Ok(recorded) = weiqi_game::convert::decode_recorded(r)
                && let Some(result) = track.fold(&recorded.event, &recorded.actor, r.sequence)
            {
                ended = Some(result);
            }
        }
        self.tracks.lock().expect("tracks lock").insert(gid.to_string(), track.clone());
        if let Some(result) = ended {
            self.record(gid, &track, &result).await;
        }
        Some(track)
    }

    // ---- the game log ----

    async fn games_loop(self: Arc<Self>) {
        let follower = Follower::register("tournament_manager_games", AggregateKind::Game);
        loop {
            if let Err(e) = self.follow_games(&follower).await {
                tracing::warn!(error = %e, "process manager: game log; retrying");
                tokio::time::sleep(self.config.retry_after).await;
            }
        }
    }

    async fn follow_games(&self, follower: &Follower) -> Result<(), String> {
        let from = self.load_checkpoint("games").await;
        let mut stream = self.log().follow(AggregateKind::Game, from).await.map_err(|e| e.to_string())?;
        let mut unsaved: Option<Position> = None;
        let mut count = 0usize;
        loop {
            let item = match stream.next().now_or_never() {
                Some(item) => item,
                None => {
                    // Idle: store where we are before waiting.
                    if let Some(p) = unsaved.take() {
                        self.save_checkpoint("games", p).await;
                    }
                    stream.next().await
                }
            };
            let Some(item) = item else { return Err("the game log stream ended".into()) };
            let r = item.map_err(|e| e.to_string())?;
            let span = tracing::info_span!("tournament.game_event", game = %r.aggregate_id, event = %r.event_type);
            weiqi_telemetry::set_parent(&span, &weiqi_eventlog::trace_of(&r.headers));
            self.on_game_event(&r).instrument(span).await;
            follower.at(r.position);
            unsaved = Some(r.position.next());
            count += 1;
            if count.is_multiple_of(1000)
                && let Some(p) = unsaved.take()
            {
                self.save_checkpoint("games", p).await;
            }
        }
    }

    async fn on_game_event(&self, r: &RecordedEvent) {
        let gid = r.aggregate_id.as_str();
        if ids::parse_game_id(gid).is_none() {
            return;
        }
        let Ok(weiqi_game::domain::Recorded { event, actor, .. }) = weiqi_game::convert::decode_recorded(r) else {
            return;
        };
        let known =
            self.tracks.lock().expect("tracks lock").get(gid).is_some_and(|t| t.sequence > 0 || r.sequence == 1);
        if !known {
            // Resumed in the middle of this game: read it whole (this event included).
            self.track(gid).await;
            return;
        }
        let folded = {
            let mut tracks = self.tracks.lock().expect("tracks lock");
            let t = tracks.entry(gid.to_string()).or_default();
            if r.sequence <= t.sequence {
                None
            } else {
                let result = t.fold(&event, &actor, r.sequence);
                Some((t.clone(), result))
            }
        };
        if let Some((track, Some(result))) = folded {
            self.record(gid, &track, &result).await;
        }
    }

    /// Records a game's result in its tournament: only the result of a game this manager created for
    /// exactly the pairing of that table (the same players in the same colours).
    async fn record(&self, gid: &str, track: &Track, result: &GameResult) {
        let Some(ids::TableGame { tournament: tid, round, pairing, table }) = ids::parse_game_id(gid) else { return };
        // Only a game of the round's pairing as it stands: one of a pairing taken back is not the
        // table's game any more (the manager closed it itself).
        let paired = self
            .service
            .read(tid, |t| {
                let current = t.core.pairing_of(round);
                let game = t.core.game(GameRef { round, table }).filter(|_| current == pairing);
                (current, game.map(|g| (t.account(g.paired.black), t.account(g.paired.white))))
            })
            .await;
        if let Ok(Some((current, _))) = &paired
            && pairing < *current
        {
            tracing::debug!(game = gid, "a game of a pairing taken back ended: not the table's game");
            return;
        }
        let same_pairing =
            matches!(&paired, Ok(Some((_, Some((b, w))))) if *b == track.paired_black && *w == track.paired_white);
        if !track.platform || !same_pairing {
            tracing::error!(
                game = gid,
                "a game with a tournament table's name that the tournament did not create for that pairing: its \
                 result is not recorded"
            );
            return;
        }
        let Some(result) = convert::result_from_game(result, track.black == track.paired_black) else {
            tracing::info!(game = gid, "game to be replayed: result left to the referee");
            return;
        };
        let cmd = TournamentCommand::Core(Command::RecordResult { game: GameRef { round, table }, result });
        self.execute(tid, &ids::result_command(gid), &cmd).await;
        if let Some(t) = self.tracks.lock().expect("tracks lock").get_mut(gid) {
            t.ended = true;
        }
    }

    /// Executes a tournament command, retrying faults; rejections are expected on replays and skipped.
    async fn execute(&self, tid: &str, command_id: &str, cmd: &TournamentCommand) -> Option<ServiceError> {
        loop {
            match self.service.execute(tid, command_id, &system(), cmd).await {
                Ok(_) => return None,
                Err(e) if e.is_unavailable() => {
                    tracing::warn!(tournament = tid, command = command_id, error = %e, "retrying");
                    tokio::time::sleep(self.config.retry_after).await;
                }
                Err(e) => {
                    tracing::debug!(tournament = tid, command = command_id, error = %e, "not applied");
                    return Some(e);
                }
            }
        }
    }

    // ---- no-shows ----

    async fn sweep_loop(self: Arc<Self>) {
        let mut tick = tokio::time::interval(self.config.sweep_every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            self.sweep().await;
        }
    }

    /// Claims the no-shows that are due now.
    pub async fn sweep(&self) {
        let now = self.service.now().0;
        let open: Vec<(String, Track)> = self
            .tracks
            .lock()
            .expect("tracks lock")
            .iter()
            .filter(|(_, t)| !t.ended && !t.claimed && t.started_at.is_some())
            .map(|(k, t)| (k.clone(), t.clone()))
            .collect();
        for (gid, t) in open {
            let Some((limit, on)) = self.limits(&t.tournament).await else { continue };
            if !on {
                continue;
            }
            let started = t.started_at.unwrap_or(now);
            let (absent, since) = match t.first_move {
                [None, _] if now - started >= limit => (t.black.clone(), started),
                [Some(b), None] if now - b >= limit => (t.white.clone(), b),
                _ => continue,
            };
            let Ok(Some(Some(player))) = self.service.read(&t.tournament, |a| a.by_account.get(&absent).copied()).await
            else {
                continue;
            };
            let cmd = TournamentCommand::Core(Command::ClaimNoShow {
                game: GameRef { round: t.round, table: t.table },
                absent: vec![player],
                started_at: weiqi_pairing::ids::Millis(since),
            });
            let failed = self.execute(&t.tournament, &ids::no_show_command(&gid), &cmd).await;
            let too_early = matches!(
                failed,
                Some(ServiceError::Rejected(crate::aggregate::ServiceRejection::Core(
                    weiqi_pairing::rejection::Rejection::NoShowTooEarly { .. }
                )))
            );
            if !too_early && let Some(tr) = self.tracks.lock().expect("tracks lock").get_mut(&gid) {
                tr.claimed = true;
            }
        }
    }

    async fn limits(&self, tid: &str) -> Option<(i64, bool)> {
        if let Some(l) = self.limits.lock().expect("limits lock").get(tid) {
            return Some(*l);
        }
        let l = self
            .service
            .read(tid, |t| {
                let limit = t.config().map_or(i64::MAX, |c| c.no_show_limit_ms);
                let on = t.settings.as_ref().is_none_or(|s| !s.no_automatic_no_shows);
                (limit, on)
            })
            .await
            .ok()
            .flatten()?;
        self.limits.lock().expect("limits lock").insert(tid.to_string(), l);
        Some(l)
    }

    /// Games the manager tracks and has not seen end (for tests and diagnostics).
    pub fn open_games(&self) -> usize {
        self.tracks.lock().expect("tracks lock").values().filter(|t| !t.ended).count()
    }
}

/// A game a round needs in the game service.
#[derive(Clone, Debug, PartialEq)]
pub struct CreateGame {
    /// The game's deterministic id.
    pub game_id: String,
    /// Its setup.
    pub setup: GameSetup,
}

/// The games of a round as the game service is asked to create them, with whether each is still open
/// (no result).
pub fn create_requests(tid: &str, t: &crate::aggregate::TournamentAggregate, round: u32) -> Vec<(CreateGame, bool)> {
    let Some(r) = t.core.rounds.get((round as usize).wrapping_sub(1)) else { return Vec::new() };
    // Rounds imported from a file were played elsewhere: no game to create or to watch.
    if round <= t.imported_rounds {
        return Vec::new();
    }
    let settings = t.settings.clone().unwrap_or_default();
    let player = |p: PlayerId| PlayerRef {
        id: GamePlayer(t.account(p)),
        name: t.registration(p).map(convert::display_name).unwrap_or_default(),
        rank: t.registration(p).map(|r| r.rank.to_string()).unwrap_or_default(),
    };
    r.games
        .iter()
        .map(|g| {
            let game_id = t.game_id(tid, GameRef { round, table: g.paired.table });
            let setup = settings.game_setup(PairedGameSetup {
                black: player(g.paired.black),
                white: player(g.paired.white),
                handicap: g.paired.handicap,
                tournament: TournamentRef { id: tid.to_string(), round, board: g.paired.table },
                event_id: t.event_id(tid).to_string(),
            });
            (CreateGame { game_id, setup }, g.result.is_none())
        })
        .collect()
}
