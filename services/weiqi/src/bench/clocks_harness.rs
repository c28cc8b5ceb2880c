//! `weiqi bench clocks`: 10,000 running clocks with random deadlines against a real nats-server; how
//! long after each deadline the flag is in the log, and how much CPU the clock service used.
//!
//! # Set-up
//!
//! * nats-server: the one at [`BenchConfig::nats_url`], else one started with `weiqi-testkit` (a
//!   JetStream server on a free port, removed afterwards). Everything the benchmark writes goes under a
//!   fresh subject prefix (`wqbench<unix ms>`: its own streams), so it never touches a deployment's logs.
//! * The game service runs in this process on the caller's runtime, serving commands from the bus, as in
//!   `weiqi serve game`.
//! * The clock service runs alone on its own OS thread with a current-thread tokio runtime, with its own
//!   NATS connections (log, bus, and the game client over the bus), so every cycle it spends (its loop,
//!   its flag tasks, its NATS connection handlers) is spent on that one thread.
//! * Games are created concurrently through the game service over NATS (`start: true`), with absolute
//!   time or Fischer, main time uniform in [`BenchConfig::min_main`, `BenchConfig::max_main`] (seeded).
//!   No one moves, so every clock runs until its flag.
//!
//! # Measures
//!
//! * **Flag delay** of a game: the JetStream timestamp of its `TimeExpired` event (when the log stored
//!   it, server time) minus the deadline recorded in that event (the end of the player's time plus the
//!   lag grace). It includes the whole path: the timer, the request to the game service over NATS, the
//!   game service's decision, and the append. Percentiles are nearest-rank over all games.
//! * **CPU**: the clock-service thread's CPU time (`/proc/self/task/<tid>/schedstat`, nanoseconds on
//!   CPU; `/proc/.../stat` utime + stime in clock ticks where schedstat is missing) over the wall time
//!   from the clock service's start (before the first game is created) to the last flag. `cpu_cores` =
//!   CPU seconds / wall seconds; below 1.0 means under one core.
//!
//! # Measured
//!
//! Release build, 2-core machine shared with other builds (load average 4–6), nats-server 2.15.1 started
//! by the testkit, 10,000 clocks of 10–60 s, seeds 1–3 plus one more run of seed 1
//! (`cargo run --release -p weiqi-clock-service --example bench_clocks -- 10000 10 60 3`):
//!
//! | run | p50 | p99 | max | cpu_cores |
//! | --- | --- | --- | --- | --- |
//! | 1 | 2 ms | 12 ms | 42 ms | 0.130 |
//! | 2 | 2 ms | 12 ms | 31 ms | 0.124 |
//! | 3 | 2 ms | 24 ms | 123 ms | 0.133 |
//! | 4 | 2 ms | 14 ms | 63 ms | 0.142 |
//! | median | 2 ms | 13 ms | 52.5 ms | 0.132 |
//!
//! Every game was flagged exactly once; about 406,000 ticks were published per run (one a second per
//! running clock, plus one per event); creating the 10,000 games took 2–3 s.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use rand::{Rng, SeedableRng, rngs::SmallRng};
use serde::{Deserialize, Serialize};
use weiqi_eventlog::{AggregateKind, AnyBus, AnyEventLog, EventLog, JetStreamConfig, JetStreamLog, NatsBus};
use weiqi_game::client::GameClient;
use weiqi_game::convert::decode_recorded;
use weiqi_game::domain::{Actor, GameEvent};
use weiqi_game::service::{GameError, GameRequest, GameService};
use weiqi_proto::v1 as pb;

use weiqi_clock_service::{ClockConfig, ClockService, ClockStats, SystemClock};

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Running clocks (games).
    pub clocks: usize,
    /// A nats-server with JetStream; `None`: start one (needs `nats-server`, see `weiqi-testkit`).
    pub nats_url: Option<String>,
    /// Shortest main time.
    pub min_main: Duration,
    /// Longest main time.
    pub max_main: Duration,
    /// Seed of the main times and time systems.
    pub seed: u64,
    /// Game creations in flight at once.
    pub create_concurrency: usize,
    /// The clock service's settings (ticks included, as deployed).
    pub service: ClockConfig,
}

impl Default for BenchConfig {
    /// 10,000 clocks of 10–60 s, seed 1, 256 creations at once, the default service settings.
    fn default() -> Self {
        BenchConfig {
            clocks: 10_000,
            nats_url: None,
            min_main: Duration::from_secs(10),
            max_main: Duration::from_secs(60),
            seed: 1,
            create_concurrency: 256,
            service: ClockConfig::default(),
        }
    }
}

/// The figures of issue 4 (exactly these JSON keys).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    /// Clocks run.
    pub clocks: usize,
    /// Median flag delay (ms after the deadline).
    pub flag_delay_p50_ms: f64,
    /// 99th percentile flag delay.
    pub flag_delay_p99_ms: f64,
    /// Largest flag delay.
    pub flag_delay_max_ms: f64,
    /// The clock service's CPU time over wall time (1.0 = one core busy).
    pub cpu_cores: f64,
}

/// More about a run, for the curious and for the tests.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchDetails {
    /// Games whose `TimeExpired` was seen.
    pub flags: usize,
    /// Games never flagged (should be 0).
    pub missing: usize,
    /// Games with more than one `TimeExpired` (must be 0).
    pub flagged_twice: usize,
    /// Games created (clocks running) when the first flag fell.
    pub running_at_first_flag: usize,
    /// Seconds to create all games.
    pub create_seconds: f64,
    /// Wall seconds of the CPU measurement.
    pub wall_seconds: f64,
    /// CPU seconds of the clock-service thread.
    pub cpu_seconds: f64,
    /// How the CPU was read: `schedstat` or `stat`.
    pub cpu_source: String,
    /// The game service's decision instant (`TimeExpired.at`) minus the deadline: p50, p99, max (ms).
    pub decision_delay_ms: [f64; 3],
    /// The clock service's counters at the end.
    pub service: ClockStats,
}

/// Why the benchmark could not run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// No nats-server (or it did not start).
    #[error("nats-server: {0}")]
    Nats(String),
    /// The log or the bus failed.
    #[error("event log or bus: {0}")]
    Infrastructure(String),
    /// A game could not be created.
    #[error("creating game {game}: {why}")]
    Create {
        /// The game.
        game: String,
        /// Why.
        why: String,
    },
    /// The clock-service thread failed.
    #[error("clock service thread: {0}")]
    Thread(String),
}

/// Runs the benchmark and returns the figures with the details.
///
/// # Errors
/// No nats-server, or the set-up failed. Missing flags are not an error: they are counted in the report.
pub async fn run_detailed(config: BenchConfig) -> Result<(BenchReport, BenchDetails), BenchError> {
    let infra = |e: &dyn std::fmt::Display| BenchError::Infrastructure(e.to_string());
    let (_server, url) = match &config.nats_url {
        Some(url) => (None, url.clone()),
        None => {
            let server = weiqi_testkit::NatsServer::start_async().await.map_err(|e| BenchError::Nats(e.to_string()))?;
            let url = server.url();
            (Some(server), url)
        }
    };
    let prefix = format!("wqbench{}", weiqi_clock_service::time::system_now().0);
    let log_config = JetStreamConfig { prefix: prefix.clone(), ..JetStreamConfig::default() };

    // The game service, in this process.
    let log = AnyEventLog::JetStream(JetStreamLog::connect(&url, log_config.clone()).await.map_err(|e| infra(&e))?);
    let client = async_nats::connect(&url).await.map_err(|e| infra(&e))?;
    let bus = AnyBus::Nats(NatsBus::with_prefix(client, prefix.clone()));
    let games = Arc::new(GameService::new(log.clone()));
    let serving = {
        let (games, bus) = (games.clone(), bus.clone());
        tokio::spawn(async move { weiqi_game::bus::serve(games, &bus).await })
    };

    // The flags, as the log records them.
    let head = log.head(AggregateKind::Game).await.map_err(|e| infra(&e))?;
    let mut follower = log.follow(AggregateKind::Game, head).await.map_err(|e| infra(&e))?;
    let (flags_tx, mut flags_rx) = tokio::sync::mpsc::unbounded_channel();
    let watcher = tokio::spawn(async move {
        while let Some(Ok(recorded)) = follower.next().await {
            if let Ok(weiqi_game::domain::Recorded { event: GameEvent::TimeExpired { deadline, at, .. }, .. }) =
                decode_recorded(&recorded)
            {
                let flag = Flag {
                    game: recorded.aggregate_id.as_str().to_string(),
                    stored_delay: recorded.timestamp_ms - deadline.0,
                    decision_delay: at.0 - deadline.0,
                };
                if flags_tx.send(flag).is_err() {
                    break;
                }
            }
        }
    });

    // The clock service, alone on its thread.
    let thread = ClockThread::start(url.clone(), log_config, prefix, config.service.clone()).await?;
    let cpu_start = thread.cpu();
    let wall_start = Instant::now();

    // The games.
    let created = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let game_client = GameClient::Bus(bus.clone(), Duration::from_secs(10));
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let specs: Vec<(String, pb::TimeControl)> = (0..config.clocks)
        .map(|i| (format!("bench-{i}"), random_control(&mut rng, config.min_main, config.max_main)))
        .collect();
    let longest = specs.iter().map(|(_, tc)| main_ms(tc)).max().unwrap_or(0);
    let creating = {
        let created = created.clone();
        let concurrency = config.create_concurrency.max(1);
        async move {
            let results: Vec<Result<(), BenchError>> = futures::stream::iter(specs)
                .map(|(game, control)| {
                    let client = game_client.clone();
                    let created = created.clone();
                    async move {
                        create(&client, &game, control).await?;
                        created.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        Ok(())
                    }
                })
                .buffer_unordered(concurrency)
                .collect()
                .await;
            results.into_iter().collect::<Result<Vec<()>, BenchError>>().map(|_| ())
        }
    };
    let create_start = Instant::now();
    let create_task = tokio::spawn(creating);

    // Collect flags until every game has one, or well past the last possible deadline.
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(config.clocks);
    let mut stored = Vec::with_capacity(config.clocks);
    let mut decided = Vec::with_capacity(config.clocks);
    let mut running_at_first_flag = None;
    let mut create_seconds = None;
    let mut create_task = Some(create_task);
    let mut give_up =
        tokio::time::Instant::now() + Duration::from_millis(longest.unsigned_abs()) + Duration::from_secs(600);
    while seen.len() < config.clocks {
        if let Some(task) = create_task.as_mut().filter(|t| t.is_finished()) {
            task.await.map_err(|e| BenchError::Thread(e.to_string()))??;
            create_task = None;
            create_seconds = Some(create_start.elapsed().as_secs_f64());
            give_up =
                tokio::time::Instant::now() + Duration::from_millis(longest.unsigned_abs()) + Duration::from_secs(30);
        }
        match tokio::time::timeout_at(
            give_up.min(tokio::time::Instant::now() + Duration::from_millis(200)),
            flags_rx.recv(),
        )
        .await
        {
            Ok(Some(flag)) => {
                running_at_first_flag.get_or_insert_with(|| created.load(std::sync::atomic::Ordering::Relaxed));
                let count = seen.entry(flag.game).or_default();
                *count += 1;
                if *count == 1 {
                    stored.push(flag.stored_delay);
                    decided.push(flag.decision_delay);
                }
            }
            Ok(None) => break,
            Err(_) if tokio::time::Instant::now() >= give_up => break,
            Err(_) => {}
        }
    }
    let wall = wall_start.elapsed();
    let cpu_end = thread.cpu();
    let service = thread.stop()?;
    // Late duplicates would show here: drain what is already in.
    tokio::time::sleep(Duration::from_millis(200)).await;
    while let Ok(flag) = flags_rx.try_recv() {
        *seen.entry(flag.game).or_default() += 1;
    }
    watcher.abort();
    serving.abort();
    if let Some(task) = create_task {
        task.abort();
    }

    let (cpu_seconds, cpu_source) = match (cpu_start, cpu_end) {
        (Some((a, source)), Some((b, _))) => ((b - a).max(0.0), source),
        _ => (f64::NAN, "unavailable"),
    };
    let wall_seconds = wall.as_secs_f64();
    let [p50, p99, max] = percentiles(&mut stored);
    let report = BenchReport {
        clocks: config.clocks,
        flag_delay_p50_ms: p50,
        flag_delay_p99_ms: p99,
        flag_delay_max_ms: max,
        cpu_cores: cpu_seconds / wall_seconds,
    };
    let details = BenchDetails {
        flags: seen.len(),
        missing: config.clocks.saturating_sub(seen.len()),
        flagged_twice: seen.values().filter(|n| **n > 1).count(),
        running_at_first_flag: running_at_first_flag.unwrap_or(0),
        create_seconds: create_seconds.unwrap_or(f64::NAN),
        wall_seconds,
        cpu_seconds,
        cpu_source: cpu_source.to_string(),
        decision_delay_ms: percentiles(&mut decided),
        service,
    };
    Ok((report, details))
}

struct Flag {
    game: String,
    stored_delay: i64,
    decision_delay: i64,
}

/// Nearest-rank p50, p99 and max of `values` (ms), NaN if empty.
fn percentiles(values: &mut [i64]) -> [f64; 3] {
    if values.is_empty() {
        return [f64::NAN; 3];
    }
    values.sort_unstable();
    let rank = |p: f64| {
        let n = values.len();
        let k = ((p * n as f64).ceil() as usize).clamp(1, n);
        values[k - 1] as f64
    };
    [rank(0.50), rank(0.99), values[values.len() - 1] as f64]
}

fn random_control(rng: &mut SmallRng, min: Duration, max: Duration) -> pb::TimeControl {
    use pb::time_control::{Absolute, Fischer, System};
    let lo = i64::try_from(min.as_millis()).unwrap_or(i64::MAX).max(1);
    let hi = i64::try_from(max.as_millis()).unwrap_or(i64::MAX).max(lo);
    let main_ms = rng.random_range(lo..=hi);
    let system = if rng.random_bool(0.5) {
        System::Absolute(Absolute { main_ms })
    } else {
        System::Fischer(Fischer { initial_ms: main_ms, increment_ms: 5_000, cap_ms: 0 })
    };
    pb::TimeControl { system: Some(system), pass_on_overrun: false }
}

fn main_ms(control: &pb::TimeControl) -> i64 {
    use pb::time_control::System;
    match &control.system {
        Some(System::Absolute(a)) => a.main_ms,
        Some(System::Fischer(f)) => f.initial_ms,
        _ => 0,
    }
}

/// Creates and starts one game (retrying while the game service is unreachable).
async fn create(client: &GameClient, game: &str, control: pb::TimeControl) -> Result<(), BenchError> {
    let player = |id: &str| Some(pb::PlayerRef { id: id.into(), name: id.into(), rank: "1d".into() });
    let request = pb::CreateGameRequest {
        game_id: game.into(),
        size: 19,
        rules: "chinese".into(),
        first: player(&format!("{game}-b")),
        second: player(&format!("{game}-w")),
        color_method: pb::game_created::ColorMethod::Fixed as i32,
        time_control: Some(control),
        start: true,
        ..Default::default()
    };
    let setup = weiqi_game::convert::setup_from_request(&request)
        .map_err(|e| BenchError::Create { game: game.into(), why: e.to_string() })?;
    let create = GameRequest {
        game_id: game.into(),
        command_id: format!("create-{game}"),
        correlation_id: String::new(),
        actor: Actor::System("bench".into()),
        command: weiqi_game::domain::Command::Create { setup: Box::new(setup), nigiri_secret: [0; 32] },
    };
    let mut why = String::new();
    for attempt in 0..10u32 {
        if attempt > 0 {
            tokio::time::sleep(Duration::from_millis(50 << attempt.min(5))).await;
        }
        match client.execute(&create, &[]).await {
            Ok(_) => return Ok(()),
            Err(e @ GameError::Unavailable(_)) => why = e.to_string(),
            Err(e) => return Err(BenchError::Create { game: game.into(), why: format!("{}: {e}", e.code()) }),
        }
    }
    Err(BenchError::Create { game: game.into(), why })
}

/// The clock service on its own thread and current-thread runtime.
struct ClockThread {
    tid: Option<u32>,
    stop: tokio::sync::oneshot::Sender<()>,
    done: tokio::sync::oneshot::Receiver<ClockStats>,
    thread: std::thread::JoinHandle<()>,
}

impl ClockThread {
    async fn start(url: String, log: JetStreamConfig, prefix: String, config: ClockConfig) -> Result<Self, BenchError> {
        let (ready_tx, ready_rx) = tokio::sync::oneshot::channel::<Result<Option<u32>, String>>();
        let (stop, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let (done_tx, done) = tokio::sync::oneshot::channel();
        let thread = std::thread::Builder::new()
            .name("clock-service".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e.to_string()));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let connected = async {
                        let log = JetStreamLog::connect(&url, log).await.map_err(|e| e.to_string())?;
                        let client = async_nats::connect(&url).await.map_err(|e| e.to_string())?;
                        Ok::<_, String>((log, client))
                    };
                    let (log, client) = match connected.await {
                        Ok(c) => c,
                        Err(e) => {
                            let _ = ready_tx.send(Err(e));
                            return;
                        }
                    };
                    let bus = AnyBus::Nats(NatsBus::with_prefix(client, prefix));
                    let game = GameClient::Bus(bus.clone(), Duration::from_secs(5));
                    let service = Arc::new(ClockService::with(log.into(), bus, game, Arc::new(SystemClock), config));
                    let task = tokio::spawn(service.clone().run());
                    // Let it read the (empty) log before the games come.
                    while !service.stats().caught_up {
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                    let _ = ready_tx.send(Ok(current_tid()));
                    let _ = stop_rx.await;
                    task.abort();
                    let _ = done_tx.send(service.stats());
                });
            })
            .map_err(|e| BenchError::Thread(e.to_string()))?;
        let tid = ready_rx.await.map_err(|e| BenchError::Thread(e.to_string()))?.map_err(BenchError::Thread)?;
        Ok(ClockThread { tid, stop, done, thread })
    }

    /// CPU seconds of the thread so far, and how they were read.
    fn cpu(&self) -> Option<(f64, &'static str)> {
        thread_cpu(self.tid?)
    }

    fn stop(self) -> Result<ClockStats, BenchError> {
        let _ = self.stop.send(());
        self.thread.join().map_err(|_| BenchError::Thread("panicked".into()))?;
        let mut done = self.done;
        done.try_recv().map_err(|e| BenchError::Thread(e.to_string()))
    }
}

/// This thread's id (Linux), from `/proc/thread-self/stat`.
fn current_tid() -> Option<u32> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

/// CPU seconds a thread of this process has used.
fn thread_cpu(tid: u32) -> Option<(f64, &'static str)> {
    let base = format!("/proc/self/task/{tid}");
    if let Ok(schedstat) = std::fs::read_to_string(format!("{base}/schedstat"))
        && let Some(ns) = schedstat.split_whitespace().next().and_then(|n| n.parse::<u64>().ok())
    {
        return Some((ns as f64 / 1e9, "schedstat"));
    }
    // utime and stime are fields 14 and 15; the command name (field 2) may hold spaces, so count
    // from the closing parenthesis. Linux reports them in USER_HZ = 100 ticks a second.
    let stat = std::fs::read_to_string(format!("{base}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(((utime + stime) as f64 / 100.0, "stat"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let mut v: Vec<i64> = (1..=100).rev().collect();
        assert_eq!(percentiles(&mut v), [50.0, 99.0, 100.0]);
        let mut one = vec![7];
        assert_eq!(percentiles(&mut one), [7.0, 7.0, 7.0]);
        assert!(percentiles(&mut []).iter().all(|x| x.is_nan()));
    }

    #[test]
    fn the_report_has_exactly_the_keys_of_the_issue() {
        let report = BenchReport {
            clocks: 10_000,
            flag_delay_p50_ms: 2.0,
            flag_delay_p99_ms: 9.0,
            flag_delay_max_ms: 30.0,
            cpu_cores: 0.2,
        };
        let json = serde_json::to_value(&report).unwrap();
        let mut keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["clocks", "cpu_cores", "flag_delay_max_ms", "flag_delay_p50_ms", "flag_delay_p99_ms"]);
    }

    #[test]
    fn this_thread_has_a_cpu_time() {
        let tid = current_tid().expect("Linux /proc");
        let (seconds, _) = thread_cpu(tid).expect("a CPU time");
        assert!(seconds >= 0.0);
    }
}
