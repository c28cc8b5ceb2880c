//! What telemetry costs a command: a span with the OpenTelemetry layer (export off), the
//! propagation round trip, and metric updates. `cargo bench -p weiqi-telemetry`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use weiqi_telemetry::names::{self, labels};

fn spans(c: &mut Criterion) {
    let _guard = weiqi_telemetry::init_quiet("bench").expect("init");
    let mut group = c.benchmark_group("span");
    group.bench_function("registry_only", |b| {
        let plain = tracing::Dispatch::new(tracing_subscriber::registry());
        tracing::dispatcher::with_default(&plain, || {
            b.iter(|| tracing::info_span!("command", game = "g1").in_scope(|| black_box(1)))
        })
    });
    group.bench_function("with_opentelemetry_layer", |b| {
        b.iter(|| tracing::info_span!("command", game = "g1").in_scope(|| black_box(1)))
    });
    group.bench_function("inject_then_continue", |b| {
        b.iter(|| {
            let headers = tracing::info_span!("send").in_scope(weiqi_telemetry::inject_current);
            let span = tracing::info_span!(parent: None, "handle");
            weiqi_telemetry::set_parent(&span, &headers);
            span.in_scope(|| black_box(1))
        })
    });
    group.finish();

    let mut group = c.benchmark_group("metric");
    group.bench_function("counter_with_two_labels", |b| {
        b.iter(|| {
            metrics::counter!(names::COMMANDS, labels::COMMAND => "play", labels::OUTCOME => "accepted").increment(1)
        })
    });
    group.bench_function("histogram_record", |b| {
        b.iter(|| metrics::histogram!(names::APPEND_SECONDS, labels::LOG => "jetstream").record(0.0004))
    });
    group.finish();
}

criterion_group!(benches, spans);
criterion_main!(benches);
