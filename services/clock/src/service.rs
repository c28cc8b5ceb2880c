//! The clock service's loop: follow every game, keep one timer queue, flag, call, tick.
//!
//! One task runs the loop; it owns the games and the queue, so nothing is locked. It waits on three
//! things at once: the next event of the game log, the answer of a flag or resync task, and one sleep
//! until the earliest instant in the queue. Flags go out on short-lived tasks (at most
//! [`ClockConfig::max_flags_in_flight`] at once) so a slow game service never delays another game's flag;
//! ticks go to a publisher task through a bounded channel and are dropped, not queued, if the bus cannot
//! keep up (they are ephemeral; the log is the record).

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use futures::{FutureExt, StreamExt};
use prost::Message;
use tokio::sync::{Semaphore, mpsc};
use tokio::task::JoinSet;
use weiqi_clock::Millis;
use weiqi_eventlog::{
    AggregateKind, AnyBus, AnyEventLog, Bus, BusMessage, EventLog, LogError, Position, RecordedEvent,
};
use weiqi_game::client::GameClient;
use weiqi_game::convert::decode_recorded;
use weiqi_proto::v1 as pb;
use weiqi_telemetry::names;

use crate::alive::{Alive, Outage};
use crate::convert::{self, Reason};
use crate::flag::{FlagAnswer, FlagReport, read_tail, send_flag};
use crate::queue::TimerQueue;
use weiqi_aggregate::{Environment, Sleep};

use crate::time::SystemClock;
use crate::tracker::Tracked;

/// The bus topic of clock ticks: subject `weiqi.clock.<game>`.
pub const TOPIC: &str = "clock";

/// Events drained from the log per turn of the loop before timers are looked at again.
const DRAIN: usize = 256;

/// Settings of the clock service.
#[derive(Clone, Debug)]
pub struct ClockConfig {
    /// The periodic tick of each running clock; `None`: ticks only at events and calls.
    pub tick_interval: Option<Duration>,
    /// Flag requests out at once (each is one request to the game service and one log read).
    pub max_flags_in_flight: usize,
    /// Ticks waiting for the bus; beyond this, ticks are dropped.
    pub publish_buffer: usize,
    /// Where the heartbeat notes the last moment the platform could take a move
    /// ([`crate::alive`]): the embedded deployment's `<data dir>/clock.alive`, so that a restart
    /// after a kill excuses the time the server was down. `None`: in memory only.
    pub alive_file: Option<std::path::PathBuf>,
}

impl Default for ClockConfig {
    /// A tick a second, 256 flags in flight, 16,384 ticks buffered, the heartbeat in memory.
    fn default() -> Self {
        ClockConfig {
            tick_interval: Some(Duration::from_secs(1)),
            max_flags_in_flight: 256,
            publish_buffer: 16_384,
            alive_file: None,
        }
    }
}

/// How often the heartbeat asks the log whether it answers.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// What the service has done since it started (all instances of the loop together).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ClockStats {
    /// Flag requests sent.
    pub flags_sent: u64,
    /// Flags the game service recorded on this request.
    pub flags_recorded: u64,
    /// Flags answered as duplicates (recorded by an earlier try or another instance).
    pub flags_duplicate: u64,
    /// Flags refused (`not_expired` after a move got in first, `game_over`…).
    pub flags_refused: u64,
    /// Flag requests that met an unreachable game service or log (tried again).
    pub flags_unavailable: u64,
    /// Ticks published.
    pub ticks_published: u64,
    /// Ticks dropped (bus slow or unreachable).
    pub ticks_dropped: u64,
    /// Outages excused on running clocks (`OutageExcused` recorded on this service's request).
    pub outages_excused: u64,
    /// Game events folded.
    pub events: u64,
    /// Clocks running now.
    pub running: u64,
    /// The loop has read the whole log once since it (re)started.
    pub caught_up: bool,
}

#[derive(Default)]
struct Counters {
    flags_sent: AtomicU64,
    flags_recorded: AtomicU64,
    flags_duplicate: AtomicU64,
    flags_refused: AtomicU64,
    flags_unavailable: AtomicU64,
    ticks_published: AtomicU64,
    ticks_dropped: AtomicU64,
    outages_excused: AtomicU64,
    events: AtomicU64,
    running: AtomicU64,
    caught_up: AtomicBool,
}

fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

/// The clock service. Build it with [`ClockService::new`], then `tokio::spawn(service.run())`.
pub struct ClockService {
    log: AnyEventLog,
    bus: AnyBus,
    game: GameClient,
    time: Arc<dyn Environment>,
    config: ClockConfig,
    counters: Arc<Counters>,
    alive: Arc<Alive>,
    outage_closed: Arc<tokio::sync::Notify>,
}

impl ClockService {
    /// A service on the system clock with the default settings.
    pub fn new(log: AnyEventLog, bus: AnyBus, game: GameClient) -> ClockService {
        ClockService::with(log, bus, game, Arc::new(SystemClock), ClockConfig::default())
    }

    /// A service with an injected time source (tests) and settings.
    pub fn with(
        log: AnyEventLog,
        bus: AnyBus,
        game: GameClient,
        time: Arc<dyn Environment>,
        config: ClockConfig,
    ) -> ClockService {
        let alive = Arc::new(match &config.alive_file {
            Some(file) => Alive::with_file(file.clone()),
            None => Alive::in_memory(),
        });
        ClockService { log, bus, game, time, config, counters: Arc::default(), alive, outage_closed: Arc::default() }
    }

    /// What the service has done so far.
    pub fn stats(&self) -> ClockStats {
        let c = &self.counters;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        ClockStats {
            flags_sent: get(&c.flags_sent),
            flags_recorded: get(&c.flags_recorded),
            flags_duplicate: get(&c.flags_duplicate),
            flags_refused: get(&c.flags_refused),
            flags_unavailable: get(&c.flags_unavailable),
            ticks_published: get(&c.ticks_published),
            ticks_dropped: get(&c.ticks_dropped),
            outages_excused: get(&c.outages_excused),
            events: get(&c.events),
            running: get(&c.running),
            caught_up: c.caught_up.load(Ordering::Relaxed),
        }
    }

    /// Runs until the task is aborted. Rebuilds every clock from the start of the game log, then follows
    /// it live; flags are held back until the log has been read up to where it stood at the start, so no
    /// flag is sent on a state the log has already moved past. Cancel-safe: all state is rebuilt from the
    /// log on the next run; aborting also stops its flag and publisher tasks.
    pub async fn run(self: Arc<Self>) {
        let follower = weiqi_eventlog::Follower::register("clock", AggregateKind::Game);
        let (ticks, rx) = mpsc::channel(self.config.publish_buffer.max(1));
        let _publisher = AbortOnDrop(tokio::spawn(publish(self.bus.clone(), rx, self.counters.clone())));
        let _heartbeat = AbortOnDrop(tokio::spawn(heartbeat(
            self.log.clone(),
            self.alive.clone(),
            self.time.clone(),
            self.outage_closed.clone(),
        )));
        let mut pause = Duration::from_millis(100);
        loop {
            let Err(error) = self.follow(&ticks, &follower).await;
            self.alive.failed(self.time.now());
            tracing::warn!(%error, "clock service: cannot follow the game log; starting again");
            self.counters.caught_up.store(false, Ordering::Relaxed);
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_secs(5));
        }
    }

    async fn follow(
        &self,
        ticks: &mpsc::Sender<pb::ClockTick>,
        follower: &weiqi_eventlog::Follower,
    ) -> Result<Infallible, LogError> {
        let head = self.log.head(AggregateKind::Game).await?;
        let mut events = self.log.follow(AggregateKind::Game, Position::START).await?;
        let mut loop_ = Loop {
            svc: self,
            games: HashMap::new(),
            queue: TimerQueue::new(),
            tasks: JoinSet::new(),
            permits: Arc::new(Semaphore::new(self.config.max_flags_in_flight.max(1))),
            ticks,
            caught_up: false,
            excusing: HashSet::new(),
            refused_excuse: HashMap::new(),
        };
        if is_empty(head) {
            loop_.catch_up();
        }
        let mut sleep: Option<(Millis, Sleep)> = None;
        loop {
            if loop_.caught_up {
                let now = self.time.now();
                if loop_.queue.next().is_some_and(|at| at <= now) {
                    loop_.wake(now);
                }
            }
            let next = if loop_.caught_up { loop_.queue.next() } else { None };
            if sleep.as_ref().map(|(at, _)| *at) != next {
                sleep = next.map(|at| (at, self.time.sleep_until(at)));
            }
            tokio::select! {
                Some(done) = loop_.tasks.join_next(), if !loop_.tasks.is_empty() => match done {
                    Ok(work) => loop_.on_work(work),
                    Err(e) if e.is_panic() => tracing::error!(error = %e, "clock service: a flag task panicked"),
                    Err(_) => {}
                },
                item = events.next() => {
                    let mut item = item;
                    for _ in 0..DRAIN {
                        match item {
                            Some(Ok(recorded)) => {
                                let position = recorded.position;
                                loop_.on_recorded(recorded);
                                follower.at(position);
                                if !loop_.caught_up && reached(head, position) {
                                    loop_.catch_up();
                                }
                            }
                            Some(Err(e)) => tracing::warn!(error = %e, "clock service: game log"),
                            None => return Err(LogError::Unavailable("the game log's follower ended".into())),
                        }
                        match events.next().now_or_never() {
                            Some(next) => item = next,
                            None => break,
                        }
                    }
                },
                () = until(&mut sleep) => sleep = None,
                () = self.outage_closed.notified() => {
                    if loop_.caught_up {
                        loop_.excuse_all();
                    }
                }
            }
        }
    }
}

/// The loop's state: the games, the queue, the tasks out.
struct Loop<'a> {
    svc: &'a ClockService,
    games: HashMap<Arc<str>, Tracked>,
    queue: TimerQueue<Arc<str>>,
    tasks: JoinSet<Work>,
    permits: Arc<Semaphore>,
    ticks: &'a mpsc::Sender<pb::ClockTick>,
    caught_up: bool,
    /// Games with an `ExcuseOutage` request out: no flag is sent for them meanwhile.
    excusing: HashSet<Arc<str>>,
    /// The end of the last outage the game service refused to excuse for a game (its time had run
    /// out before): its flag goes out.
    refused_excuse: HashMap<Arc<str>, Millis>,
}

/// A task's result, back in the loop.
enum Work {
    /// A flag's outcome, and the deadline it was sent for.
    Flag(FlagReport, Millis),
    Resync {
        game: Arc<str>,
        tail: Result<Vec<RecordedEvent>, String>,
    },
    /// An outage's excuse was answered: the outage, the version it was sent at, the answer, the tail.
    Excused(FlagReport, Outage),
}

impl Loop<'_> {
    fn now(&self) -> Millis {
        self.svc.time.now()
    }

    fn interval(&self) -> Option<Duration> {
        self.svc.config.tick_interval
    }

    /// The log has been read up to where it stood at the start: from now on calls and ticks are news,
    /// and deadlines are armed.
    fn catch_up(&mut self) {
        self.caught_up = true;
        self.svc.counters.caught_up.store(true, Ordering::Relaxed);
        let now = self.now();
        let interval = self.interval();
        for (id, game) in &mut self.games {
            game.restart_schedule(now, interval);
            self.queue.set(id.clone(), game.next_wake());
        }
        self.report_running();
        tracing::info!(
            games = self.games.len(),
            running = self.queue.len(),
            "clock service: caught up with the game log"
        );
        self.excuse_all();
    }

    /// The outage the game's running clock still has to be excused, if any (none while one goes on,
    /// nor one the game service refused).
    fn outage_for(&self, id: &Arc<str>, game: &Tracked) -> Option<Outage> {
        if game.state.phase != weiqi_game::domain::Phase::Playing {
            return None;
        }
        let outage = self.svc.alive.excuse_for(game.state.last_at)?;
        (self.refused_excuse.get(id) != Some(&outage.to)).then_some(outage)
    }

    /// Asks the game service to excuse every running clock the latest outage overlaps.
    fn excuse_all(&mut self) {
        let due: Vec<(Arc<str>, u64, Outage)> = self
            .games
            .iter()
            .filter(|(id, _)| !self.excusing.contains(*id))
            .filter_map(|(id, game)| Some((id.clone(), game.state.version, self.outage_for(id, game)?)))
            .collect();
        for (id, version, outage) in due {
            self.spawn_excuse(id, version, outage);
        }
    }

    fn spawn_excuse(&mut self, game: Arc<str>, version: u64, outage: Outage) {
        use tracing::Instrument;
        self.excusing.insert(game.clone());
        let client = self.svc.game.clone();
        let log = self.svc.log.clone();
        let permits = self.permits.clone();
        let span = tracing::info_span!(parent: None, "clock.excuse_outage", game = %game, seen_sequence = version);
        tracing::info!(
            game = %game,
            from = outage.from.0,
            to = outage.to.0,
            reason = outage.reason.name(),
            "clock service: excusing an outage on a running clock"
        );
        self.tasks.spawn(
            async move {
                let _permit = permits.acquire_owned().await;
                Work::Excused(crate::flag::send_excuse(&client, &log, game, version, outage).await, outage)
            }
            .instrument(span),
        );
    }

    fn report_running(&self) {
        let running = self.queue.len() as u64;
        self.svc.counters.running.store(running, Ordering::Relaxed);
        metrics::gauge!(names::RUNNING_CLOCKS).set(running as f64);
    }

    /// One event from the log (follower or a tail read): fold it if it is the game's next one.
    fn on_recorded(&mut self, recorded: RecordedEvent) {
        let id = recorded.aggregate_id.as_str();
        let event = match decode_recorded(&recorded) {
            Ok(decoded) => decoded.event,
            Err(error) => {
                tracing::error!(game = id, %error, "clock service: undecodable game event; game not followed");
                self.forget(id);
                return;
            }
        };
        let now = self.caught_up.then(|| self.now());
        let game = match self.games.get_mut(id) {
            Some(game) => game,
            // A game's first event: follow it. Any other event of an unknown game belongs to a game that
            // ended (or whose log does not replay): nothing to do.
            None if recorded.sequence == 1 => self.games.entry(Arc::from(id)).or_default(),
            None => return,
        };
        let version = game.state.version;
        if recorded.sequence <= version {
            return; // already folded from a tail read
        }
        if recorded.sequence > version + 1 {
            // Cannot happen with a follower from the start; if it does, read what is missing.
            if game.resyncing {
                game.gap_while_resyncing = true;
            } else {
                game.resyncing = true;
                let id: Arc<str> = Arc::from(id);
                self.spawn_resync(id, version + 1);
            }
            return;
        }
        if let Err(error) = game.fold(&event) {
            tracing::error!(game = id, %error, "clock service: the game's log does not replay; game not followed");
            self.forget(id);
            return;
        }
        bump(&self.svc.counters.events);
        if let Some(now) = now {
            game.restart_schedule(now, self.svc.config.tick_interval);
            let tick = convert::tick(id, &game.state, now, Reason::Event, None);
            let over = game.is_over();
            let wake = game.next_wake();
            let id: Arc<str> = Arc::from(id);
            self.publish(tick);
            if over {
                self.games.remove(&id);
                self.queue.remove(&id);
            } else {
                self.queue.set(id, wake);
            }
            self.report_running();
        } else if game.is_over() {
            self.games.remove(id);
        }
    }

    fn forget(&mut self, id: &str) {
        self.games.remove(id);
        self.queue.remove(&Arc::from(id));
    }

    /// Everything due at `now`: calls, ticks, flags.
    fn wake(&mut self, now: Millis) {
        let interval = self.interval();
        for id in self.queue.pop_due(now) {
            let Some(game) = self.games.get_mut(&id) else { continue };
            let due = game.take_due(now, interval);
            let mut out = Vec::with_capacity(due.calls.len() + 1);
            for (at, call) in &due.calls {
                out.extend(convert::tick(&id, &game.state, *at, Reason::Call, Some(*call)));
            }
            if due.tick {
                out.extend(convert::tick(&id, &game.state, now, Reason::Periodic, None));
            }
            self.queue.set(id.clone(), game.next_wake());
            for tick in out {
                self.publish(Some(tick));
            }
            if let Some(flag) = due.flag {
                if self.excusing.contains(&id) || self.svc.alive.down() {
                    // An outage is being excused, or is going on: the flag waits for what the log
                    // decides (tried again shortly).
                    if let Some(game) = self.games.get_mut(&id) {
                        game.flag_answered(flag.version, now);
                        self.queue.set(id.clone(), game.next_wake());
                    }
                    continue;
                }
                let outage = self.games.get(&id).and_then(|game| self.outage_for(&id, game));
                if let Some(outage) = outage {
                    // The time ran out during (or because of) an outage: excuse it first.
                    if let Some(game) = self.games.get_mut(&id) {
                        game.flag_answered(flag.version, now);
                    }
                    self.spawn_excuse(id, flag.version, outage);
                    continue;
                }
                tracing::debug!(game = %id, version = flag.version, deadline = flag.deadline.0, "flag");
                // Unless the log has answered since the deadline, make sure it does before flagging.
                let probe = self.svc.alive.last_ok().is_none_or(|t| t < flag.deadline);
                self.spawn_flag(id, flag.version, flag.deadline, probe);
            }
        }
    }

    fn spawn_flag(&mut self, game: Arc<str>, version: u64, deadline: Millis, probe: bool) {
        use tracing::Instrument;
        bump(&self.svc.counters.flags_sent);
        let client = self.svc.game.clone();
        let log = self.svc.log.clone();
        let permits = self.permits.clone();
        let (alive, closed, now) = (self.svc.alive.clone(), self.svc.outage_closed.clone(), self.now());
        // A flag is the clock's own decision, not the continuation of any request: it starts a trace
        // of its own, which the command, the bus message and the append continue.
        let span = tracing::info_span!(parent: None, "clock.flag", game = %game, seen_sequence = version);
        self.tasks.spawn(
            async move {
                let _permit = permits.acquire_owned().await;
                let report = if probe {
                    crate::flag::probe_then_flag(&client, &log, game, version, &alive, now, &closed).await
                } else {
                    send_flag(&client, &log, game, version).await
                };
                Work::Flag(report, deadline)
            }
            .instrument(span),
        );
    }

    fn spawn_resync(&mut self, game: Arc<str>, from: u64) {
        let log = self.svc.log.clone();
        self.tasks.spawn(async move {
            let tail = read_tail(&log, &game, from).await;
            Work::Resync { game, tail }
        });
    }

    fn on_work(&mut self, work: Work) {
        match work {
            Work::Flag(report, deadline) => {
                let c = &self.svc.counters;
                let outcome = match &report.answer {
                    FlagAnswer::Recorded { duplicate: false } => {
                        bump(&c.flags_recorded);
                        let late = self.now().0.saturating_sub(deadline.0).max(0);
                        metrics::histogram!(names::FLAG_DELAY_SECONDS).record(late as f64 / 1000.0);
                        "recorded"
                    }
                    FlagAnswer::Recorded { duplicate: true } => {
                        bump(&c.flags_duplicate);
                        "duplicate"
                    }
                    FlagAnswer::Refused(code) => {
                        tracing::debug!(game = %report.game, code, "flag refused");
                        bump(&c.flags_refused);
                        "refused"
                    }
                    FlagAnswer::Unavailable(why) => {
                        tracing::warn!(game = %report.game, why, "flag: game service unavailable; will retry");
                        bump(&c.flags_unavailable);
                        self.svc.alive.failed(self.svc.time.now());
                        "unavailable"
                    }
                    FlagAnswer::Held(why) => {
                        tracing::info!(game = %report.game, why, "flag held: an outage is excused first");
                        bump(&c.flags_unavailable);
                        "held"
                    }
                };
                metrics::counter!(names::CLOCK_FLAGS, names::labels::OUTCOME => outcome).increment(1);
                for recorded in report.tail {
                    self.on_recorded(recorded);
                }
                let now = self.now();
                if let Some(game) = self.games.get_mut(&report.game) {
                    game.flag_answered(report.version, now);
                    if self.caught_up {
                        self.queue.set(report.game.clone(), game.next_wake());
                    }
                }
            }
            Work::Excused(report, outage) => {
                self.excusing.remove(&report.game);
                match &report.answer {
                    FlagAnswer::Recorded { duplicate } => {
                        if !duplicate {
                            bump(&self.svc.counters.outages_excused);
                        }
                    }
                    FlagAnswer::Refused(code) => {
                        tracing::info!(game = %report.game, code, "clock service: the outage is not excused");
                        self.refused_excuse.insert(report.game.clone(), outage.to);
                    }
                    FlagAnswer::Unavailable(why) => {
                        tracing::warn!(game = %report.game, why, "excuse: game service unavailable; will retry");
                        self.svc.alive.failed(self.svc.time.now());
                    }
                    FlagAnswer::Held(_) => {}
                }
                for recorded in report.tail {
                    self.on_recorded(recorded);
                }
                if let Some(game) = self.games.get(&report.game)
                    && self.caught_up
                {
                    self.queue.set(report.game.clone(), game.next_wake());
                }
            }
            Work::Resync { game: id, tail } => {
                if let Some(game) = self.games.get_mut(&id) {
                    game.resyncing = false;
                    game.gap_while_resyncing = false;
                }
                match tail {
                    Ok(events) => {
                        for recorded in events {
                            self.on_recorded(recorded);
                        }
                    }
                    Err(error) => tracing::warn!(game = %id, error, "clock service: cannot read a game's log"),
                }
                let again = self.games.get(&id).filter(|g| g.gap_while_resyncing).map(|g| g.state.version + 1);
                if let (Some(from), Some(game)) = (again, self.games.get_mut(&id)) {
                    game.resyncing = true;
                    game.gap_while_resyncing = false;
                    self.spawn_resync(id, from);
                }
            }
        }
    }

    fn publish(&self, tick: Option<pb::ClockTick>) {
        let Some(tick) = tick else { return };
        if self.ticks.try_send(tick).is_err() {
            bump(&self.svc.counters.ticks_dropped);
        }
    }
}

/// Publishes ticks on the bus, in order.
async fn publish(bus: AnyBus, mut ticks: mpsc::Receiver<pb::ClockTick>, counters: Arc<Counters>) {
    while let Some(tick) = ticks.recv().await {
        let message = BusMessage::new(tick.encode_to_vec());
        match bus.publish(TOPIC, &tick.game_id, message).await {
            Ok(()) => bump(&counters.ticks_published),
            Err(error) => {
                tracing::debug!(%error, "clock tick not published");
                bump(&counters.ticks_dropped);
            }
        }
    }
}

/// Every [`HEARTBEAT`], asks the log for its head: an answer is a moment a move could be taken, none
/// (within twice the beat) marks the platform down ([`crate::alive`]). Closing an outage wakes the
/// loop, which excuses the running clocks.
async fn heartbeat(log: AnyEventLog, alive: Arc<Alive>, time: Arc<dyn Environment>, closed: Arc<tokio::sync::Notify>) {
    loop {
        let answered = tokio::time::timeout(HEARTBEAT * 2, log.head(AggregateKind::Game)).await;
        let now = time.now();
        if matches!(answered, Ok(Ok(_))) {
            if alive.ok(now) {
                closed.notify_one();
            }
        } else {
            alive.failed(now);
        }
        tokio::time::sleep(HEARTBEAT).await;
    }
}

/// Completes when the sleep does; never without one.
async fn until(sleep: &mut Option<(Millis, Sleep)>) {
    match sleep {
        Some((_, s)) => s.as_mut().await,
        None => std::future::pending().await,
    }
}

/// Bits of a [`Position`] below the batch number (see `weiqi_eventlog::Position`).
const BATCH_SHIFT: u32 = 16;

/// The log was empty at the start (its head is the first batch).
fn is_empty(head: Position) -> bool {
    head.raw() >> BATCH_SHIFT <= 1
}

/// `position` is in the last batch before `head` or later: the log has been read up to where it stood.
fn reached(head: Position, position: Position) -> bool {
    (position.raw() >> BATCH_SHIFT) + 1 >= head.raw() >> BATCH_SHIFT
}

/// Aborts a task when dropped (so aborting `run` stops its helpers too).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_counts_as_read_from_the_last_batch_before_its_head() {
        let pos = |batch: u64, index: u64| Position::from_raw((batch << BATCH_SHIFT) | index);
        let head = pos(11, 0); // last batch 10
        assert!(!reached(head, pos(9, 3)));
        assert!(reached(head, pos(10, 0)));
        assert!(reached(head, pos(10, 2)));
        assert!(reached(head, pos(12, 0)));
        assert!(is_empty(pos(1, 0)));
        assert!(!is_empty(head));
    }
}
