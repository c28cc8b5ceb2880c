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
/// [`labels::LOG`] (`jetstream` or `embedded`).
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
];

/// Label keys used with the standard metrics.
pub mod labels {
    /// The command kind in snake case: `play`, `pass`, `resign`, `mark_dead`, ...
    pub const COMMAND: &str = "command";
    /// How a command ended: `accepted`, `rejected`, `duplicate`, `conflict`, `unavailable`.
    pub const OUTCOME: &str = "outcome";
    /// A rejection reason in snake case: `occupied`, `suicide`, `superko`, `not_your_turn`, ...
    pub const REASON: &str = "reason";
    /// Which event log implementation: `jetstream` or `embedded`.
    pub const LOG: &str = "log";
    /// A gRPC method name, e.g. `Play`.
    pub const METHOD: &str = "method";
    /// A gRPC status code in snake case: `ok`, `invalid_argument`, `unavailable`, ...
    pub const CODE: &str = "code";
}
