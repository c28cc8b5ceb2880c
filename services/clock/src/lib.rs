//! # weiqi-clock-service: every running clock, flagged on time
//!
//! The service follows every game's log, folds each game into [`weiqi_game::domain::GameState`] (whose
//! [`weiqi_clock::Clock`] knows the deadline, the reading at any instant and the referee's call
//! schedule), and keeps **one timer queue for all running clocks** ([`TimerQueue`]): for each game the
//! next instant it must be looked at. When a deadline passes it asks the game service to record the flag;
//! it publishes byo-yomi calls and ticks on the bus (`weiqi.clock.<game>`) for overlays and voice clocks;
//! and [`ClockGateway`] serves them to clients as the `WatchClock` gRPC stream.
//!
//! ## Example
//!
//! ```no_run
//! use std::sync::Arc;
//! use weiqi_clock_service::{ClockGateway, ClockService};
//! use weiqi_eventlog::{AnyBus, AnyEventLog};
//! use weiqi_game::client::GameClient;
//! use weiqi_edge::auth::Authority;
//!
//! # async fn wire(log: AnyEventLog, bus: AnyBus, game: GameClient, auth: Authority) {
//! // The service: one task for every clock of every game.
//! let clocks = Arc::new(ClockService::new(log.clone(), bus.clone(), game));
//! tokio::spawn(clocks.run());
//! // The gateway side: `WatchClock`, next to the game service's routes.
//! let watch = ClockGateway::new(log, bus, auth);
//! let _route = weiqi_proto::v1::clock_service_server::ClockServiceServer::new(watch);
//! # }
//! ```
//!
//! ## How a flag falls
//!
//! 1. A game event arrives (a move, a pause, the start…): the game is folded, and its next wake-up — the
//!    earliest of its deadline, its next referee call and its next tick — replaces its entry in the
//!    queue. The loop sleeps once, until the earliest entry of all games.
//! 2. At the deadline, the loop checks [`weiqi_clock::Clock::flag`] at "now" and sends
//!    `ExpireTime { seen_sequence }` to the game service, as `Actor::System("clock")`, with the command id
//!    `expire-<game>-<seen_sequence>` ([`flag::expire_command_id`]).
//! 3. The game service decides it with the same clock core on the log's state at its own "now" and
//!    appends `TimeExpired` (+ `GameEnded`, or the Art. 22.5 pass) with the expected sequence. If a move
//!    got in first, the flag is refused (`not_expired`): the log decided who was first.
//! 4. Whatever the answer, the flag task reads the game's log past the version it saw and the loop folds
//!    it: after a move, the opponent's deadline is armed; if nothing new is in the log (this machine's
//!    clock a few ms ahead of the game service's, or the game service unreachable), the flag is tried
//!    again after 10 ms, 20 ms, … up to 1 s, with the same command id.
//!
//! ## Design decisions
//!
//! - **One timer structure.** [`TimerQueue`] is an ordered set of (instant, game) with one entry per game,
//!   plus one sleep for the whole service; a move costs two O(log n) updates. It is keyed by server time
//!   ([`weiqi_clock::Millis`]), not tokio's monotonic `Instant`, because deadlines are computed from the
//!   events' server timestamps and because the time source is injected ([`weiqi_aggregate::Environment`]: the system clock
//!   in production, [`ManualClock`] in tests, which also drives the game service). That is why it is not
//!   `tokio_util::time::DelayQueue`, whose instants only tokio's own (pausable) clock can move.
//! - **Restart: rebuild from the start of the log.** The service keeps nothing on disk. On start it reads
//!   the game log's head, follows it from the first event, and arms no timer (and publishes no tick) until
//!   it has read up to that head; then it arms every running clock at once, flagging at once those whose
//!   deadline passed while it was down. Ended games are dropped from memory as they end. The cost is one
//!   read of the game log per start (a stored position would need a snapshot of every running game to
//!   be worth anything; the log is the snapshot).
//! - **Several instances: all follow all games.** Each instance arms every clock, so a flag is never
//!   missed while one instance runs. A game is never flagged twice: every instance sends the same command
//!   id for the same flag, so the second is answered as a duplicate, and anything else meets the game
//!   service's state check (the game has ended, or a pass under Art. 22.5 moved the deadline). The price is
//!   N requests per flag for N instances; flags are rare (one per game at most, barring Art. 22.5).
//! - **Flags never wait for ticks.** Flag requests run on tasks, at most
//!   [`ClockConfig::max_flags_in_flight`] at once; ticks go through a bounded channel to one publisher task
//!   and are dropped (counted) if the bus is slow or down.
//! - **Ticks**: one at every game event, one at every referee call (at the call's instant), and one every
//!   [`ClockConfig::tick_interval`] (1 s by default) while a clock runs; none for games without a clock.
//!   A tick is a reading computed from the log; it is never persisted. During a byo-yomi countdown there
//!   is thus a message every second from the calls alone.
//!
//! ## Invariants
//!
//! - The service never writes a game log: the game service is the only writer; the flag is a command.
//! - Every figure comes from the clock core applied to the events' server timestamps and "now".
//! - A flag command for the same game and version has the same id everywhere and always.
//! - No flag and no tick before the log has been read up to where it stood at the start.
//! - Aborting [`ClockService::run`] stops its flag and publisher tasks; nothing is left to clean up.
//!
//! ## Metrics
//!
//! `weiqi_clock_flags_total{outcome=recorded|duplicate|refused|unavailable}`, the gauge
//! `weiqi_running_clocks` (clocks armed), the histogram `weiqi_flag_delay_seconds` (from a deadline
//! to its recorded flag) and the follower lag of the game log (`clock`), through the `metrics`
//! facade; [`ClockService::stats`] gives the same counters in process.
//!
//! ## Traces
//!
//! Each flag starts a trace of its own (`clock.flag`, no parent): the `ExpireTime` command carries
//! its context to the game service, over the bus or in process, and the append continues it.
//!
//! ## Benchmark
//!
//! `weiqi bench clocks` (in the `weiqi` binary, `services/weiqi/src/bench/clocks_harness.rs`): 10,000
//! running clocks against a real nats-server.

pub mod alive;
pub mod convert;
pub mod flag;
pub mod grpc;
pub mod queue;
pub mod service;
pub mod time;
pub mod tracker;

pub use grpc::ClockGateway;
pub use queue::TimerQueue;
pub use service::{ClockConfig, ClockService, ClockStats, TOPIC};
pub use time::{ManualClock, SystemClock};
