//! The Prometheus recorder behind the `metrics` facade, and the text a `/metrics` endpoint serves.
//!
//! No HTTP listener here: the exporter crate is built without one, and services serve
//! [`render_metrics`] from their own axum (or other) HTTP endpoint.

use std::sync::OnceLock;
use std::time::Duration;

use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::{TelemetryError, names};

/// The `Content-Type` of [`render_metrics`]'s output (Prometheus text format 0.0.4).
pub const METRICS_CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Bucket upper bounds (seconds) for every `*_seconds` histogram: 50 µs to 10 s, dense around the
/// 1–10 ms where appends and commands live. Fixed buckets (not summaries) so series from several
/// instances aggregate.
pub const LATENCY_BUCKETS: &[f64] = &[
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002, 0.003, 0.005, 0.007_5, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25,
    0.5, 1.0, 2.5, 5.0, 10.0,
];

/// How often histogram samples are folded into their buckets between scrapes.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the Prometheus recorder as the global `metrics` recorder, starts its upkeep thread
/// and describes the standard metrics.
pub(crate) fn install() -> Result<(), TelemetryError> {
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), LATENCY_BUCKETS)
        .map_err(|e| TelemetryError::MetricsRecorder(e.to_string()))?
        .install_recorder()
        .map_err(|e| TelemetryError::MetricsRecorder(e.to_string()))?;
    let upkeep = handle.clone();
    // A plain thread, not a Tokio task: init may run before (or without) any runtime. If it
    // cannot start, histograms are still folded in at each render, only less often.
    let _ = std::thread::Builder::new().name("metrics-upkeep".into()).spawn(move || {
        loop {
            std::thread::sleep(UPKEEP_EVERY);
            upkeep.run_upkeep();
        }
    });
    // Only the first install reaches here (init is once per process), so this cannot be taken.
    let _ = HANDLE.set(handle);
    describe_metrics();
    Ok(())
}

/// Prometheus text exposition of every metric recorded so far (the body of `GET /metrics`,
/// served with [`METRICS_CONTENT_TYPE`]). Empty before [`init`](crate::init): metrics recorded
/// before then went nowhere.
pub fn render_metrics() -> String {
    HANDLE.get().map(PrometheusHandle::render).unwrap_or_default()
}

/// Registers the descriptions (`# HELP`) of the standard metrics in [`names`]. Called by
/// [`init`](crate::init); harmless to call again.
pub fn describe_metrics() {
    use names::*;
    describe_counter!(COMMANDS, Unit::Count, "Commands handled, by command kind and outcome.");
    describe_counter!(REJECTIONS, Unit::Count, "Commands rejected by the rules, by command kind and reason.");
    describe_histogram!(APPEND_SECONDS, Unit::Seconds, "Time to append a batch of events to the log.");
    describe_gauge!(ACTIVE_GAMES, Unit::Count, "Games in play (started, not ended) known to this process.");
    describe_histogram!(COMMAND_SECONDS, Unit::Seconds, "Time from receiving a command to answering it.");
    describe_counter!(APPEND_CONFLICTS, Unit::Count, "Appends that met a stale expected sequence.");
    describe_counter!(EVENTS_APPENDED, Unit::Count, "Events appended to the log.");
    describe_counter!(DUPLICATE_COMMANDS, Unit::Count, "Retried commands answered with their original outcome.");
    describe_gauge!(CACHED_GAMES, Unit::Count, "Game aggregates held in the game service cache.");
    describe_counter!(GRPC_REQUESTS, Unit::Count, "gRPC requests at the gateway, by method and status code.");
    describe_gauge!(WATCH_STREAMS, Unit::Count, "Open Watch streams at the gateway.");
    describe_histogram!(GRPC_SECONDS, Unit::Seconds, "gRPC request latency at the gateway, by method and status code.");
    describe_counter!(APPEND_ERRORS, Unit::Count, "Appends the event log refused or could not take (not conflicts).");
    describe_gauge!(
        READY,
        Unit::Count,
        "1 when ready (event log reachable and caught up, Redis, followers), by check."
    );
    describe_gauge!(FOLLOWER_LAG, Unit::Count, "Appends between a follower's position and the head of its log.");
    describe_histogram!(PAIRING_SECONDS, Unit::Seconds, "Time to pair one tournament round.");
    describe_gauge!(CASES, Unit::Count, "Certification cases by state.");
    describe_histogram!(RATING_SECONDS, Unit::Seconds, "Time to recompute ratings (a game, a period, a tournament).");
    describe_gauge!(RUNNING_CLOCKS, Unit::Count, "Game clocks running in the clock service.");
    describe_counter!(CLOCK_FLAGS, Unit::Count, "Flags the clock service sent, by outcome.");
    describe_histogram!(FLAG_DELAY_SECONDS, Unit::Seconds, "From a clock's deadline to the append of its TimeExpired.");
    describe_counter!(RATE_LIMITED, Unit::Count, "Requests refused by a rate limit, by limit.");
}
