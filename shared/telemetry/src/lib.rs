//! Observability for every weiqi service: one call sets up logs, traces and metrics the same
//! way in the gateway, the game service and `weiqi up`.
//!
//! # What [`init`] sets up
//!
//! - **Logs**: a `tracing` subscriber with an fmt layer writing to stderr, filtered by
//!   `RUST_LOG` (default [`DEFAULT_LOG_FILTER`], `info,weiqi=info`).
//! - **Traces**: the `tracing-opentelemetry` layer when spans are exported, so every span has a
//!   W3C trace id and is continued in the processes a command goes through. Its own filter
//!   ([`DEFAULT_TRACE_FILTER`], overridable with `WEIQI_OTEL_FILTER`) is independent of
//!   `RUST_LOG`: quieter logs do not break traces.
//! - **Export**: an OTLP/gRPC span exporter behind a batch processor, *only* when
//!   `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set. Unset, no
//!   OpenTelemetry span is made at all and no trace context is passed on: spans nobody collects
//!   cost a move about a tenth of the gateway's time (issue 31 item 3: the layer's bookkeeping in
//!   `weiqi bench e2e`'s profile). Set the endpoint on every process of a deployment, as the
//!   compose file and the k8s base do, or on none.
//! - **Propagation**: the W3C TraceContext propagator, as the OpenTelemetry global too.
//! - **Metrics**: the Prometheus recorder behind the `metrics` facade; [`render_metrics`] is
//!   the body of `GET /metrics`. The standard metric names are in [`names`].
//!
//! # Use from a service
//!
//! ```
//! use weiqi_telemetry::{names, names::labels};
//!
//! fn main() -> Result<(), weiqi_telemetry::TelemetryError> {
//!     // Keep the guard for the whole process: dropping it flushes queued spans.
//!     let _guard = weiqi_telemetry::init("weiqi-game")?;
//!
//!     // Receiving a command from NATS: continue the sender's trace.
//!     let headers = vec![(
//!         "traceparent".to_owned(),
//!         "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".to_owned(),
//!     )];
//!     let span = tracing::info_span!("command", game = "g1", command = "play");
//!     weiqi_telemetry::set_parent(&span, &headers); // before entering the span
//!     let _entered = span.enter();
//!
//!     // Publishing an event: carry the trace on (when spans are exported: without an OTLP
//!     // endpoint no trace is made and nothing is carried).
//!     let outgoing: Vec<(String, String)> = weiqi_telemetry::inject_current();
//!     assert!(outgoing.is_empty() || outgoing[0].0 == "traceparent");
//!
//!     weiqi_telemetry::metrics::counter!(names::COMMANDS, labels::COMMAND => "play", labels::OUTCOME => "accepted")
//!         .increment(1);
//!     weiqi_telemetry::metrics::histogram!(names::APPEND_SECONDS, labels::LOG => "jetstream").record(0.0004);
//!     weiqi_telemetry::metrics::gauge!(names::ACTIVE_GAMES).set(1.0);
//!
//!     // In the HTTP router: GET /metrics
//!     let body = weiqi_telemetry::render_metrics();
//!     assert!(body.contains("weiqi_commands_total"));
//!     Ok(())
//! }
//! ```
//!
//! At the gateway, [`http_server_span`] plugs into `tower_http`'s `TraceLayer::make_span_with`
//! so a gRPC call continues its client's trace; [`extract_from_http`] and [`inject_into_http`]
//! do the same by hand. A gRPC client copies [`inject_current`]'s pairs into the request
//! metadata.
//!
//! # Environment variables
//!
//! | variable | effect |
//! | --- | --- |
//! | `RUST_LOG` | log filter (`EnvFilter` syntax); unparsable values fall back to the default, with a warning |
//! | `WEIQI_OTEL_FILTER` | which spans become OpenTelemetry spans (default [`DEFAULT_TRACE_FILTER`]) |
//! | `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_EXPORTER_OTLP_ENDPOINT` | turn export on; the first non-empty one is the collector's gRPC address (port 4317 usually) |
//! | `OTEL_SERVICE_NAME` | `service.name`, over `service.name` in `OTEL_RESOURCE_ATTRIBUTES`, over the name passed to [`init`] |
//! | `OTEL_RESOURCE_ATTRIBUTES` | extra resource attributes |
//! | `OTEL_SDK_DISABLED=true`, `OTEL_TRACES_EXPORTER=none` | export off even with an endpoint |
//! | `OTEL_EXPORTER_OTLP[_TRACES]_PROTOCOL` | must be `grpc` if set; anything else is an error |
//! | `OTEL_EXPORTER_OTLP[_TRACES]_{HEADERS,TIMEOUT}` | read by the exporter (auth headers, per-export timeout) |
//! | `OTEL_EXPORTER_OTLP[_TRACES]_COMPRESSION` | must be unset: no compression is built in, so `gzip`/`zstd` make [`init`] fail |
//! | `OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG` | sampling (default: parent-based, always on) |
//! | `OTEL_BSP_*` | batch processor: queue size, delay, batch size, export timeout |
//!
//! **Schemeless endpoints are plaintext.** `OTEL_EXPORTER_OTLP_ENDPOINT=collector:4317` means
//! `http://collector:4317` (the OpenTelemetry library alone would turn it into `https://` unless
//! `OTEL_EXPORTER_OTLP_INSECURE=true`, and a plaintext sidecar would refuse every export,
//! quietly). **`https://` endpoints use TLS** (rustls), as does a schemeless one with
//! `OTEL_EXPORTER_OTLP[_TRACES]_INSECURE=false`; the collector's certificate is verified against
//! the certificate authorities in `OTEL_EXPORTER_OTLP[_TRACES]_CERTIFICATE` (a PEM file) if set,
//! else against the public web roots.
//!
//! # Invariants
//!
//! - **Telemetry never fails a request.** Exporters drop data rather than block: spans go into
//!   a bounded queue (`OTEL_BSP_MAX_QUEUE_SIZE`, 2048) drained by a background thread, and a
//!   full queue or a dead collector loses spans, never delays a command. Propagation helpers
//!   return nothing or leave a span alone rather than fail. Only [`init`] returns errors, at
//!   start-up, for configuration it cannot honour.
//! - **Once per process.** `init` installs process globals. The first call decides; later calls
//!   (from tests, say) return `Ok` with a guard that does nothing, or the first call's error.
//! - **No network unless asked.** With no OTLP endpoint variable, nothing connects anywhere.
//!   With one, the gRPC channel connects lazily, at the first export.
//! - **W3C TraceContext is the wire format** of trace context between our services (NATS
//!   headers, gRPC metadata), whatever `OTEL_PROPAGATORS` says.
//! - **Labels are closed sets.** Metric labels carry kinds, reasons and outcomes, never ids.
//! - This crate knows nothing of NATS, gRPC services or the game: header pairs in, header
//!   pairs out.

mod error;
mod guard;
pub mod names;
pub mod otlp;
mod prometheus;
mod propagation;
mod subscriber;

use std::sync::Mutex;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry::{Key, Value};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;

pub use error::TelemetryError;
pub use guard::TelemetryGuard;
/// The `metrics` facade, re-exported so services record through the same version.
pub use metrics;
pub use prometheus::{LATENCY_BUCKETS, METRICS_CONTENT_TYPE, describe_metrics, render_metrics};
pub use propagation::{
    TRACEPARENT, TRACESTATE, current_trace_id, extract_from_http, http_server_span, inject_current, inject_into_http,
    set_parent, trace_id_of,
};
pub use subscriber::{DEFAULT_LOG_FILTER, DEFAULT_TRACE_FILTER, WEIQI_OTEL_FILTER};

use guard::Export;
use otlp::OtlpConfig;
use subscriber::Output;

/// The OpenTelemetry instrumentation scope of every span we make.
const TRACER_NAME: &str = "weiqi";

/// Installs: a tracing subscriber (fmt layer to stderr, filter from `RUST_LOG`, default
/// `info,weiqi=info`), the OpenTelemetry layer and the OTLP exporter only when
/// `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set, the W3C
/// TraceContext propagator, and the Prometheus recorder for the `metrics` facade.
///
/// `service_name` becomes `service.name` unless `OTEL_SERVICE_NAME` (or `service.name` in
/// `OTEL_RESOURCE_ATTRIBUTES`) says otherwise. Safe to call more than once: the first call in
/// the process decides, later ones return a guard that does nothing (or the first error).
/// Works with or without a Tokio runtime; export runs on its own small runtime.
pub fn init(service_name: &str) -> Result<TelemetryGuard, TelemetryError> {
    init_once(service_name, Output::Stderr)
}

/// [`init`] for tests and benches: no log output unless `RUST_LOG` is set (then through the
/// test writer, which libtest captures); still installs the propagator and recorder, and the
/// OpenTelemetry layer and its export if an OTLP endpoint is set.
pub fn init_quiet(service_name: &str) -> Result<TelemetryGuard, TelemetryError> {
    init_once(service_name, Output::Quiet)
}

/// The outcome of the first `init` in this process.
static OUTCOME: Mutex<Option<Result<(), TelemetryError>>> = Mutex::new(None);

fn init_once(service_name: &str, output: Output) -> Result<TelemetryGuard, TelemetryError> {
    // Held across the install so concurrent first calls (parallel tests) install once.
    let mut outcome = OUTCOME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(first) = outcome.as_ref() {
        return first.clone().map(|()| TelemetryGuard::inert());
    }
    let result = install(service_name, output);
    *outcome = Some(result.as_ref().map(|_| ()).map_err(Clone::clone));
    result
}

fn install(service_name: &str, output: Output) -> Result<TelemetryGuard, TelemetryError> {
    // Everything that can be misconfigured is checked before any global is touched.
    let otlp = OtlpConfig::from_vars(|name| std::env::var(name).ok())?;
    let resource = Resource::builder()
        .with_service_name(resolve_service_name(
            service_name,
            std::env::var("OTEL_SERVICE_NAME").ok(),
            Resource::builder().build().get(&Key::new("service.name")),
        ))
        .build();

    let (provider, guard) = match otlp {
        None => (SdkTracerProvider::builder().with_resource(resource).build(), TelemetryGuard::inert()),
        Some(config) => {
            // The gRPC channel spawns its worker onto the runtime current at build time, and
            // the batch processor's thread sends through it. A runtime of our own keeps export
            // independent of the caller's (which may be current-thread, or absent).
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("otlp-export")
                .enable_all()
                .build()
                .map_err(|e| TelemetryError::ExporterRuntime(e.to_string()))?;
            let exporter = {
                let _context = runtime.enter();
                otlp::build_exporter(&config)
            };
            let exporter = match exporter {
                Ok(exporter) => exporter,
                Err(e) => {
                    // A runtime must not be dropped inside an async context; this never blocks.
                    runtime.shutdown_background();
                    return Err(e);
                }
            };
            let provider = SdkTracerProvider::builder().with_resource(resource).with_batch_exporter(exporter).build();
            // From here on the guard owns the pipeline: an early return below shuts it down.
            let guard =
                TelemetryGuard::exporting(Export { provider: provider.clone(), runtime, endpoint: config.endpoint });
            (provider, guard)
        }
    };

    prometheus::install()?;
    // The OpenTelemetry layer only where its spans go somewhere (see the module doc).
    let tracer = guard.otlp_endpoint().is_some().then(|| provider.tracer(TRACER_NAME));
    let problems = subscriber::install(tracer, output)?;
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    opentelemetry::global::set_tracer_provider(provider);

    for problem in problems {
        tracing::warn!("{problem}");
    }
    match guard.otlp_endpoint() {
        Some(endpoint) => tracing::debug!(endpoint, "OTLP span export on"),
        None => tracing::debug!("OTLP span export off (no OTEL_EXPORTER_OTLP_*ENDPOINT)"),
    }
    Ok(guard)
}

/// `service.name`: `OTEL_SERVICE_NAME` if set, else what `OTEL_RESOURCE_ATTRIBUTES` says
/// (`detected`, which the SDK fills with `unknown_service:...` when nothing does), else the
/// name the service passed.
fn resolve_service_name(given: &str, otel_service_name: Option<String>, detected: Option<Value>) -> String {
    otel_service_name
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .or_else(|| {
            detected
                .map(|value| value.as_str().into_owned())
                .filter(|name| !name.is_empty() && !name.starts_with("unknown_service"))
        })
        .unwrap_or_else(|| given.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_name_precedence() {
        let attr = |s: &str| Some(Value::from(s.to_owned()));
        let table: &[(Option<&str>, Option<Value>, &str)] = &[
            (None, None, "weiqi-game"),
            (None, attr("unknown_service:weiqi"), "weiqi-game"),
            (None, attr("from-attributes"), "from-attributes"),
            (Some("from-env"), attr("from-attributes"), "from-env"),
            (Some("from-env"), None, "from-env"),
            (Some(""), attr("unknown_service"), "weiqi-game"),
            (Some("  "), None, "weiqi-game"),
        ];
        for (env, detected, want) in table {
            let got = resolve_service_name("weiqi-game", env.map(str::to_owned), detected.clone());
            assert_eq!(got, *want, "OTEL_SERVICE_NAME={env:?}, detected={detected:?}");
        }
    }
}
