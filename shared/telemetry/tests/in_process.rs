//! `init_quiet` in this test process, called by every test (in parallel), as services' tests do.

use weiqi_telemetry::names::{self, labels};
use weiqi_telemetry::{TelemetryGuard, init_quiet};

fn init() -> TelemetryGuard {
    init_quiet("weiqi-telemetry-test").expect("init_quiet")
}

#[test]
fn init_is_fine_any_number_of_times_from_any_thread() {
    let threads: Vec<_> = (0..8).map(|_| std::thread::spawn(init)).collect();
    let guards: Vec<TelemetryGuard> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert_eq!(guards.len(), 8);
    let again = weiqi_telemetry::init("another-name").expect("init after init_quiet");
    // Only the first call in the process owns an exporter (none here unless the environment
    // asked for one); repeats own nothing.
    assert_eq!(again.otlp_endpoint(), None);
    drop(guards);
    // Dropping the guards of repeated calls changed nothing: spans carry a trace id exactly when
    // they are exported.
    let span = tracing::info_span!("after_drop");
    assert_eq!(span.in_scope(weiqi_telemetry::current_trace_id).is_some(), exporting());
}

/// Whether this test process was asked to export spans (then the OpenTelemetry layer is on).
fn exporting() -> bool {
    ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"]
        .iter()
        .any(|v| std::env::var(v).is_ok_and(|e| !e.trim().is_empty()))
        && std::env::var("OTEL_SDK_DISABLED").map_or(true, |v| v != "true")
        && std::env::var("OTEL_TRACES_EXPORTER").map_or(true, |v| v != "none")
}

/// Without export, no OpenTelemetry span is made and nothing is passed on: spans nobody collects
/// cost nothing (issue 31 item 3). Propagation with export is tested in the crate's propagation
/// module and across processes in `weiqi`'s operations tests.
#[test]
fn without_export_no_trace_context_is_made() {
    let _guard = init();
    if exporting() {
        return;
    }
    let (trace_id, headers) = tracing::info_span!("gateway_command")
        .in_scope(|| (weiqi_telemetry::current_trace_id(), weiqi_telemetry::inject_current()));
    assert_eq!(trace_id, None);
    assert_eq!(weiqi_telemetry::trace_id_of(&headers), None, "{headers:?}");
}

#[test]
fn counters_histograms_and_gauges_render_with_labels() {
    let _guard = init();
    let commands = || metrics::counter!(names::COMMANDS, labels::COMMAND => "resign", labels::OUTCOME => "accepted");
    commands().increment(2);
    commands().increment(1);
    metrics::counter!(names::REJECTIONS, labels::COMMAND => "play", labels::REASON => "superko").increment(1);
    for seconds in [0.0003, 0.0004, 0.004, 20.0] {
        metrics::histogram!(names::APPEND_SECONDS, labels::LOG => "embedded").record(seconds);
    }
    metrics::gauge!(names::ACTIVE_GAMES).set(7.0);

    let text = weiqi_telemetry::render_metrics();
    let has = |line: &str| text.lines().any(|l| l == line);
    for line in [
        r#"weiqi_commands_total{command="resign",outcome="accepted"} 3"#,
        r#"weiqi_rejections_total{command="play",reason="superko"} 1"#,
        "weiqi_active_games 7",
        "# TYPE weiqi_append_seconds histogram",
        // Cumulative buckets: 2 samples ≤ 0.5 ms, 3 ≤ 5 ms, all 4 only at +Inf.
        r#"weiqi_append_seconds_bucket{log="embedded",le="0.0005"} 2"#,
        r#"weiqi_append_seconds_bucket{log="embedded",le="0.005"} 3"#,
        r#"weiqi_append_seconds_bucket{log="embedded",le="10"} 3"#,
        r#"weiqi_append_seconds_bucket{log="embedded",le="+Inf"} 4"#,
        r#"weiqi_append_seconds_count{log="embedded"} 4"#,
        "# HELP weiqi_rejections_total Commands rejected by the rules, by command kind and reason.",
        "# TYPE weiqi_commands_total counter",
        "# TYPE weiqi_active_games gauge",
    ] {
        assert!(has(line), "missing {line:?} in:\n{text}");
    }
}

#[test]
fn every_standard_name_is_a_valid_prometheus_name_with_the_right_suffix() {
    for name in names::ALL {
        assert!(name.starts_with("weiqi_"), "{name}");
        assert!(name.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{name}");
    }
    let unique: std::collections::BTreeSet<_> = names::ALL.iter().collect();
    assert_eq!(unique.len(), names::ALL.len());
    for counter in [names::COMMANDS, names::REJECTIONS, names::APPEND_CONFLICTS, names::GRPC_REQUESTS] {
        assert!(counter.ends_with("_total"), "{counter}");
    }
    for histogram in [names::APPEND_SECONDS, names::COMMAND_SECONDS] {
        assert!(histogram.ends_with("_seconds"), "{histogram}");
    }
}

#[test]
fn the_global_subscriber_propagates_between_spans_when_exporting() {
    let _guard = init();
    if !exporting() {
        return;
    }
    let (trace_id, headers) = tracing::info_span!("gateway_command")
        .in_scope(|| (weiqi_telemetry::current_trace_id(), weiqi_telemetry::inject_current()));
    let trace_id = trace_id.expect("the OpenTelemetry layer is installed with export on");
    assert_eq!(weiqi_telemetry::trace_id_of(&headers).as_ref(), Some(&trace_id));

    // A span with no tie to the first, as in another process, continued from the headers.
    let handled = tracing::info_span!(parent: None, "game_command");
    weiqi_telemetry::set_parent(&handled, &headers);
    assert_eq!(handled.in_scope(weiqi_telemetry::current_trace_id), Some(trace_id.clone()));

    let unrelated = tracing::info_span!(parent: None, "other_command");
    assert_ne!(unrelated.in_scope(weiqi_telemetry::current_trace_id), Some(trace_id));
}

#[test]
fn the_opentelemetry_global_propagator_is_w3c() {
    let _guard = init();
    let fields: Vec<String> =
        opentelemetry::global::get_text_map_propagator(|p| p.fields().map(str::to_owned).collect());
    assert_eq!(fields, ["traceparent", "tracestate"]);
}
