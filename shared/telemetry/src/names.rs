//! Names of the standard metrics and their label keys, so every service reports the same series.
//!
//! Counters end in `_total`, durations are histograms in seconds ending in `_seconds`
//! (rendered with the fixed [`LATENCY_BUCKETS`](crate::LATENCY_BUCKETS)), gauges are plain
//! names. Label values must come from small closed sets (a command kind, a rejection reason
//! enum's variant name, an outcome), never from ids: a game id as a label would make one
//! series per game.

/// Counter: commands handled, labelled by [`labels::COMMAND`] and [`labels::OUTCOME`].
pub const COMMANDS: &str = "weiqi_commands_total";
/// Counter: commands rejected by the domain, labelled by [`labels::COMMAND`] and
/// [`labels::REASON`] (the rejection enum's variant, e.g. `superko`, `not_your_turn`).
pub const REJECTIONS: &str = "weiqi_rejections_total";
/// Histogram (seconds): time to append a batch of events to the log, labelled by
/// [`labels::LOG`] (the aggregate: `game`, `tournament`, …).
pub const APPEND_SECONDS: &str = "weiqi_append_seconds";
/// Gauge: games currently in play (started and not ended) known to this process.
pub const ACTIVE_GAMES: &str = "weiqi_active_games";
/// Histogram (seconds): time from receiving a command to answering it, labelled by
/// [`labels::COMMAND`].
pub const COMMAND_SECONDS: &str = "weiqi_command_seconds";
/// Counter: appends that met a stale expected sequence (another writer won), labelled by
/// [`labels::LOG`].
pub const APPEND_CONFLICTS: &str = "weiqi_append_conflicts_total";
/// Counter: events appended to the log, labelled by [`labels::LOG`].
pub const EVENTS_APPENDED: &str = "weiqi_events_appended_total";
/// Counter: retried commands answered from the de-duplication record instead of appending.
pub const DUPLICATE_COMMANDS: &str = "weiqi_duplicate_commands_total";
/// Gauge: game aggregates held in the game service's cache.
pub const CACHED_GAMES: &str = "weiqi_cached_games";
/// Counter: gRPC requests at the gateway, labelled by [`labels::METHOD`] and
/// [`labels::CODE`] (the gRPC status code name, `ok` for success).
pub const GRPC_REQUESTS: &str = "weiqi_grpc_requests_total";
/// Gauge: open `Watch` streams at the gateway.
pub const WATCH_STREAMS: &str = "weiqi_watch_streams";
/// Histogram (seconds): gRPC request latency at the gateway, from receiving the request to the
/// response headers, labelled by [`labels::METHOD`] and [`labels::CODE`].
pub const GRPC_SECONDS: &str = "weiqi_grpc_request_seconds";
/// Counter: appends the log refused or could not take (unavailable, storage, protocol errors; not
/// conflicts or duplicates), labelled by [`labels::LOG`].
pub const APPEND_ERRORS: &str = "weiqi_append_errors_total";
/// Gauge: 1 when the process is ready (its event log reachable and caught up, Redis reachable where
/// used, its followers running), 0 when not; labelled by [`labels::CHECK`] for each check, and
/// `all` for the whole.
pub const READY: &str = "weiqi_ready";
/// Gauge: appends between a follower's position and the head of the log it follows, labelled by
/// [`labels::FOLLOWER`] (`tournament_projector`, `ranking_projector`, `clock`, ...).
pub const FOLLOWER_LAG: &str = "weiqi_follower_lag_appends";
/// Histogram (seconds): time to pair one tournament round (the pairing core, in the tournament
/// service).
pub const PAIRING_SECONDS: &str = "weiqi_pairing_seconds";
/// Gauge: certification cases by [`labels::STATE`] (`open`, `awaiting_confirmation`, `approved`,
/// `rejected`, `issued`, `revoked`), as the ranking service knows them.
pub const CASES: &str = "weiqi_cases";
/// Histogram (seconds): time to recompute ratings (a game rated, a period or tournament closed).
pub const RATING_SECONDS: &str = "weiqi_rating_recompute_seconds";
/// Gauge: game clocks running (a deadline armed) in the clock service.
pub const RUNNING_CLOCKS: &str = "weiqi_running_clocks";
/// Counter: flags the clock service sent, by [`labels::OUTCOME`] (`recorded`, `duplicate`,
/// `refused`, `unavailable`).
pub const CLOCK_FLAGS: &str = "weiqi_clock_flags_total";
/// Histogram (seconds): from a clock's deadline to the append of its `TimeExpired`.
pub const FLAG_DELAY_SECONDS: &str = "weiqi_flag_delay_seconds";
/// Counter: requests refused by a rate limit (`ResourceExhausted`, HTTP 429), labelled by
/// [`labels::LIMIT`] (`token`, `address`, `streams`, `login`).
pub const RATE_LIMITED: &str = "weiqi_rate_limited_total";

/// Every standard metric name, for tests and dashboards.
pub const ALL: &[&str] = &[
    COMMANDS,
    REJECTIONS,
    APPEND_SECONDS,
    ACTIVE_GAMES,
    COMMAND_SECONDS,
    APPEND_CONFLICTS,
    EVENTS_APPENDED,
    DUPLICATE_COMMANDS,
    CACHED_GAMES,
    GRPC_REQUESTS,
    WATCH_STREAMS,
    GRPC_SECONDS,
    APPEND_ERRORS,
    READY,
    FOLLOWER_LAG,
    PAIRING_SECONDS,
    CASES,
    RATING_SECONDS,
    RUNNING_CLOCKS,
    FLAG_DELAY_SECONDS,
    RATE_LIMITED,
    CLOCK_FLAGS,
];

/// Label keys used with the standard metrics.
pub mod labels {
    /// The command kind in snake case: `play`, `pass`, `resign`, `mark_dead`, ...
    pub const COMMAND: &str = "command";
    /// How a command ended: `accepted`, `rejected`, `duplicate`, `conflict`, `unavailable`.
    pub const OUTCOME: &str = "outcome";
    /// A rejection reason in snake case: `occupied`, `suicide`, `superko`, `not_your_turn`, ...
    pub const REASON: &str = "reason";
    /// Which aggregate's log the append went to: `game`, `tournament`, `player`, `ledger`, `case`,
    /// `account`, … (the aggregate runner's name for it).
    pub const LOG: &str = "log";
    /// A gRPC method, `<package.Service>/<Method>` (`weiqi.v1.GameService/PlayMove`), or `other`.
    pub const METHOD: &str = "method";
    /// A gRPC status code in snake case: `ok`, `invalid_argument`, `unavailable`, ...
    pub const CODE: &str = "code";
    /// A readiness check: `event_log`, `redis`, `followers`, or `all`.
    pub const CHECK: &str = "check";
    /// A log follower by name: `tournament_projector`, `ranking_projector`, `clock`, ...
    pub const FOLLOWER: &str = "follower";
    /// A certification case's state in snake case.
    pub const STATE: &str = "state";
    /// Which rate limit refused: `token`, `address`, `streams`, `login`.
    pub const LIMIT: &str = "limit";
}
