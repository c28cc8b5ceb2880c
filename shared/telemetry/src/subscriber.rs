//! The `tracing` subscriber: a registry with an fmt layer (to stderr) and the OpenTelemetry layer,
//! each with its own filter, so `RUST_LOG=warn` quietens the logs without breaking traces.

use opentelemetry_sdk::trace::SdkTracer;
use tracing_subscriber::filter::EnvFilter;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::{Layer, Registry};

/// The log filter when `RUST_LOG` is unset (or unparsable).
pub const DEFAULT_LOG_FILTER: &str = "info,weiqi=info";

/// Overrides [`DEFAULT_TRACE_FILTER`], the filter of the spans that become OpenTelemetry spans
/// (`EnvFilter` syntax, like `RUST_LOG`).
pub const WEIQI_OTEL_FILTER: &str = "WEIQI_OTEL_FILTER";

/// Which spans become OpenTelemetry spans by default: `info` and above, without the transport
/// crates' internals (and never the exporter's own, which would feed on itself).
pub const DEFAULT_TRACE_FILTER: &str = "info,h2=off,hyper=off,tonic=off,opentelemetry=off";

/// How the fmt layer behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Output {
    /// Logs to stderr, filtered by `RUST_LOG` or [`DEFAULT_LOG_FILTER`].
    Stderr,
    /// Tests and benches: logs only when `RUST_LOG` is set, through the test writer (captured by
    /// libtest).
    Quiet,
}

/// A filter built from a variable's value, or from `default` when it is unset or does not
/// parse. The second half is the parse error to report once the subscriber is up.
pub(crate) fn filter_from(value: Option<&str>, default: &str) -> (EnvFilter, Option<String>) {
    let fallback = || EnvFilter::new(default);
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => (fallback(), None),
        Some(v) => match EnvFilter::builder().parse(v) {
            Ok(filter) => (filter, None),
            Err(e) => (fallback(), Some(format!("{v:?}: {e}"))),
        },
    }
}

/// The OpenTelemetry layer over `tracer`, filtered by `filter`.
pub(crate) fn otel_layer<S>(tracer: SdkTracer, filter: EnvFilter) -> impl Layer<S>
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
{
    tracing_opentelemetry::layer().with_tracer(tracer).with_filter(filter)
}

/// Installs the global subscriber. Returns the problems with `RUST_LOG`/`WEIQI_OTEL_FILTER` to
/// report (they fell back to the defaults).
pub(crate) fn install(tracer: Option<SdkTracer>, output: Output) -> Result<Vec<String>, crate::TelemetryError> {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;

    let rust_log = std::env::var("RUST_LOG").ok();
    let mut problems = Vec::new();

    let (trace_filter, problem) = filter_from(std::env::var(WEIQI_OTEL_FILTER).ok().as_deref(), DEFAULT_TRACE_FILTER);
    problems.extend(problem.map(|p| format!("{WEIQI_OTEL_FILTER} ignored: {p}")));

    let (log_filter, problem) = filter_from(rust_log.as_deref(), DEFAULT_LOG_FILTER);
    problems.extend(problem.map(|p| format!("RUST_LOG ignored: {p}")));

    let fmt: Option<Box<dyn Layer<Registry> + Send + Sync>> = match output {
        Output::Stderr => {
            // Color only on a terminal: a log written to a file or a pipe carries no ANSI escape codes.
            let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
            Some(
                tracing_subscriber::fmt::layer()
                    .with_ansi(ansi)
                    .with_writer(std::io::stderr)
                    .with_filter(log_filter)
                    .boxed(),
            )
        }
        Output::Quiet if rust_log.is_some() => {
            Some(tracing_subscriber::fmt::layer().with_test_writer().with_filter(log_filter).boxed())
        }
        Output::Quiet => None,
    };

    tracing_subscriber::registry()
        .with(fmt)
        .with(tracer.map(|tracer| otel_layer(tracer, trace_filter)))
        .try_init()
        .map_err(|e| crate::TelemetryError::Subscriber(e.to_string()))?;
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_or_blank_filters_fall_back_quietly() {
        for value in [None, Some(""), Some("  ")] {
            let (filter, problem) = filter_from(value, DEFAULT_LOG_FILTER);
            assert_eq!(filter.to_string(), EnvFilter::new(DEFAULT_LOG_FILTER).to_string());
            assert_eq!(problem, None);
        }
    }

    #[test]
    fn a_valid_filter_is_used_as_given() {
        let (filter, problem) = filter_from(Some("warn,weiqi_game=debug"), DEFAULT_LOG_FILTER);
        assert_eq!(filter.to_string(), EnvFilter::new("warn,weiqi_game=debug").to_string());
        assert_eq!(problem, None);
    }

    #[test]
    fn an_unparsable_filter_falls_back_and_is_reported() {
        let (filter, problem) = filter_from(Some("weiqi=loud"), DEFAULT_LOG_FILTER);
        assert_eq!(filter.to_string(), EnvFilter::new(DEFAULT_LOG_FILTER).to_string());
        assert!(problem.is_some_and(|p| p.contains("weiqi=loud")));
    }
}
