//! W3C trace context across process boundaries: into and out of NATS message headers (as
//! `(name, value)` pairs, so this crate knows nothing of NATS) and HTTP/gRPC header maps.
//!
//! The format is fixed to W3C TraceContext (`traceparent`, `tracestate`) whatever
//! `OTEL_PROPAGATORS` says: it is part of our wire contract between services, not a deployment
//! choice. These functions work without [`init`](crate::init) as long as the current
//! subscriber has the OpenTelemetry layer; without it they inject nothing and set no parent.

use opentelemetry::Context;
use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator};
use opentelemetry::trace::TraceContextExt;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// The W3C header carrying trace id, parent span id and flags.
pub const TRACEPARENT: &str = "traceparent";
/// The W3C header carrying vendor-specific trace state.
pub const TRACESTATE: &str = "tracestate";

struct PairsInjector<'a>(&'a mut Vec<(String, String)>);

impl Injector for PairsInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        self.0.retain(|(k, _)| !k.eq_ignore_ascii_case(key));
        // The propagator writes an empty `tracestate` when there is none: leave it out.
        if !value.is_empty() {
            self.0.push((key.to_owned(), value));
        }
    }
}

/// Header names compare case-insensitively: HTTP/2 lowercases them, NATS keeps what was sent.
struct PairsExtractor<'a>(&'a [(String, String)]);

impl Extractor for PairsExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.iter().map(|(k, _)| k.as_str()).collect()
    }
}

struct HttpInjector<'a>(&'a mut http::HeaderMap);

impl Injector for HttpInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        if value.is_empty() {
            self.0.remove(key);
            return;
        }
        if let (Ok(name), Ok(value)) =
            (http::HeaderName::from_bytes(key.as_bytes()), http::HeaderValue::try_from(value))
        {
            self.0.insert(name, value);
        }
    }
}

/// The trace context of `cx` as header pairs (empty when `cx` has no valid span).
fn inject_context(cx: &Context) -> Vec<(String, String)> {
    let mut headers = Vec::with_capacity(2);
    if cx.span().span_context().is_valid() {
        TraceContextPropagator::new().inject_context(cx, &mut PairsInjector(&mut headers));
    }
    headers
}

/// The remote context found in `headers`, if any (an empty context otherwise).
fn extract_context(headers: &[(String, String)]) -> Context {
    TraceContextPropagator::new().extract(&PairsExtractor(headers))
}

/// The W3C trace context (`traceparent`, and `tracestate` when not empty) of the current
/// `tracing` span, to put into NATS message headers or event envelopes. Empty when there is no
/// current span or it is not traced.
pub fn inject_current() -> Vec<(String, String)> {
    inject_context(&tracing::Span::current().context())
}

/// Makes `span`'s parent the remote context found in `headers` (name, value pairs; names
/// compared case-insensitively), if any.
///
/// Call it right after creating the span, before entering it or asking for its context: an
/// OpenTelemetry span's parent is fixed when it starts. Headers without a valid `traceparent`
/// leave the span as it is (it then roots a new trace, or keeps its local parent). Telemetry
/// never fails a request, so there is no error: a span that cannot take the parent (already
/// started, disabled by the filter, no OpenTelemetry layer) is left alone.
pub fn set_parent(span: &tracing::Span, headers: &[(String, String)]) {
    let cx = extract_context(headers);
    if cx.span().span_context().is_valid()
        && let Err(error) = span.set_parent(cx)
    {
        tracing::debug!(%error, "trace context from headers not applied");
    }
}

/// The `traceparent` and `tracestate` headers of an HTTP (or gRPC) request, as pairs for
/// [`set_parent`].
pub fn extract_from_http(headers: &http::HeaderMap) -> Vec<(String, String)> {
    [TRACEPARENT, TRACESTATE]
        .into_iter()
        .filter_map(|name| {
            let value = headers.get(name)?.to_str().ok()?;
            Some((name.to_owned(), value.to_owned()))
        })
        .collect()
}

/// Writes the current span's trace context into an HTTP (or gRPC) header map, replacing any
/// `traceparent`/`tracestate` already there. Does nothing when there is no traced span.
pub fn inject_into_http(headers: &mut http::HeaderMap) {
    let cx = tracing::Span::current().context();
    if cx.span().span_context().is_valid() {
        TraceContextPropagator::new().inject_context(&cx, &mut HttpInjector(headers));
    }
}

/// An `info` span for one incoming HTTP/gRPC request, continuing the caller's trace from its
/// headers. Fits `tower_http::trace::TraceLayer::make_span_with`:
///
/// ```ignore
/// let layer = tower_http::trace::TraceLayer::new_for_grpc()
///     .make_span_with(weiqi_telemetry::http_server_span);
/// ```
pub fn http_server_span<B>(request: &http::Request<B>) -> tracing::Span {
    let span = tracing::info_span!(
        "request",
        otel.kind = "server",
        http.method = %request.method(),
        path = %request.uri().path(),
    );
    set_parent(&span, &extract_from_http(request.headers()));
    span
}

/// The trace id (32 lowercase hex digits) of the current span, for logs and error details.
pub fn current_trace_id() -> Option<String> {
    let cx = tracing::Span::current().context();
    let span = cx.span();
    let sc = span.span_context();
    sc.is_valid().then(|| sc.trace_id().to_string())
}

/// The trace id (32 lowercase hex digits) carried by `headers`, if they hold a valid
/// `traceparent`.
pub fn trace_id_of(headers: &[(String, String)]) -> Option<String> {
    let cx = extract_context(headers);
    let span = cx.span();
    let sc = span.span_context();
    sc.is_valid().then(|| sc.trace_id().to_string())
}

/// Two "processes" (two subscribers with their own tracer providers and in-memory exporters),
/// joined only by the header pairs, as over NATS.
#[cfg(test)]
mod tests {
    use super::*;
    use opentelemetry::trace::{SpanId, TraceId, TracerProvider as _};
    use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
    use tracing_subscriber::layer::SubscriberExt;

    /// A process: its subscriber (the crate's own OpenTelemetry layer) and what it exported.
    struct Process {
        dispatch: tracing::Dispatch,
        provider: SdkTracerProvider,
        exporter: InMemorySpanExporter,
    }

    impl Process {
        fn new() -> Self {
            let exporter = InMemorySpanExporter::default();
            let provider = SdkTracerProvider::builder().with_simple_exporter(exporter.clone()).build();
            let layer = crate::subscriber::otel_layer(
                provider.tracer("test"),
                tracing_subscriber::EnvFilter::new(crate::DEFAULT_TRACE_FILTER),
            );
            let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
            Self { dispatch, provider, exporter }
        }

        fn run<T>(&self, f: impl FnOnce() -> T) -> T {
            tracing::dispatcher::with_default(&self.dispatch, f)
        }

        fn finished(&self, name: &str) -> SpanData {
            self.provider.force_flush().expect("flush");
            let spans = self.exporter.get_finished_spans().expect("spans");
            spans.into_iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no span {name}"))
        }
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    /// The gateway sends a command; the game service handles it under the remote parent.
    fn send_and_handle(gateway: &Process, game: &Process) -> Vec<(String, String)> {
        let headers = gateway.run(|| {
            let span = tracing::info_span!("send_command");
            let _entered = span.enter();
            inject_current()
        });
        game.run(|| {
            let span = tracing::info_span!("handle_command");
            set_parent(&span, &headers);
            let _entered = span.enter();
            tracing::info_span!("append").in_scope(|| {});
        });
        headers
    }

    #[test]
    fn one_trace_follows_a_command_across_processes() {
        let (gateway, game) = (Process::new(), Process::new());
        let headers = send_and_handle(&gateway, &game);

        let sent = gateway.finished("send_command");
        let handled = game.finished("handle_command");
        let append = game.finished("append");
        assert!(sent.span_context.is_valid());
        assert_eq!(handled.span_context.trace_id(), sent.span_context.trace_id());
        assert_eq!(handled.parent_span_id, sent.span_context.span_id());
        assert!(handled.parent_span_is_remote);
        assert_eq!(append.span_context.trace_id(), sent.span_context.trace_id());
        assert_eq!(append.parent_span_id, handled.span_context.span_id());

        let traceparent = format!("00-{}-{}-01", sent.span_context.trace_id(), sent.span_context.span_id());
        assert_eq!(headers, pairs(&[(TRACEPARENT, &traceparent)]));
        assert_eq!(trace_id_of(&headers), Some(sent.span_context.trace_id().to_string()));
    }

    #[test]
    fn tracestate_and_header_case_survive_the_trip() {
        let game = Process::new();
        let headers = pairs(&[
            ("Traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
            ("TRACESTATE", "congo=t61rcWkgMzE"),
        ]);
        let forwarded = game.run(|| {
            let span = tracing::info_span!("handle_command");
            set_parent(&span, &headers);
            let _entered = span.enter();
            assert_eq!(current_trace_id().as_deref(), Some("4bf92f3577b34da6a3ce929d0e0e4736"));
            inject_current()
        });
        let handled = game.finished("handle_command");
        assert_eq!(handled.span_context.trace_id(), TraceId::from_hex("4bf92f3577b34da6a3ce929d0e0e4736").unwrap());
        assert_eq!(handled.parent_span_id, SpanId::from_hex("00f067aa0ba902b7").unwrap());
        let forwarded_state = forwarded.iter().find(|(k, _)| k == TRACESTATE).map(|(_, v)| v.as_str());
        assert_eq!(forwarded_state, Some("congo=t61rcWkgMzE"));
    }

    #[test]
    fn headers_without_valid_context_start_a_new_trace() {
        let table: &[&[(&str, &str)]] = &[
            &[],
            &[("traceparent", "garbage")],
            &[("traceparent", "00-00000000000000000000000000000000-00f067aa0ba902b7-01")],
            &[("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01")],
            &[("Nats-Msg-Id", "cmd-1")],
        ];
        for headers in table {
            let game = Process::new();
            let headers = pairs(headers);
            game.run(|| {
                let span = tracing::info_span!("handle_command");
                set_parent(&span, &headers);
                span.in_scope(|| {});
            });
            let handled = game.finished("handle_command");
            assert!(handled.span_context.is_valid(), "{headers:?}");
            assert_eq!(handled.parent_span_id, SpanId::INVALID, "{headers:?}");
            assert_eq!(trace_id_of(&headers), None, "{headers:?}");
        }
    }

    #[test]
    fn a_started_span_keeps_its_own_trace() {
        let game = Process::new();
        let headers = pairs(&[("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")]);
        game.run(|| {
            let span = tracing::info_span!("handle_command");
            let _entered = span.enter();
            set_parent(&span, &headers); // too late: no effect, no panic
        });
        let handled = game.finished("handle_command");
        assert_ne!(handled.span_context.trace_id(), TraceId::from_hex("4bf92f3577b34da6a3ce929d0e0e4736").unwrap());
    }

    #[test]
    fn nothing_to_inject_outside_a_span_or_a_traced_subscriber() {
        let game = Process::new();
        assert_eq!(game.run(inject_current), Vec::new());
        assert_eq!(game.run(current_trace_id), None);
        // A subscriber without the OpenTelemetry layer.
        let plain = tracing::Dispatch::new(tracing_subscriber::registry());
        tracing::dispatcher::with_default(&plain, || {
            tracing::info_span!("untraced").in_scope(|| assert_eq!(inject_current(), Vec::new()));
        });
    }

    #[test]
    fn http_headers_carry_the_same_context() {
        let (client, server) = (Process::new(), Process::new());
        let request = client.run(|| {
            tracing::info_span!("call").in_scope(|| {
                let mut request = http::Request::new(());
                request.headers_mut().insert(TRACEPARENT, http::HeaderValue::from_static("00-stale"));
                inject_into_http(request.headers_mut());
                assert_eq!(extract_from_http(request.headers()), inject_current());
                request
            })
        });
        assert_eq!(request.headers().get_all(TRACEPARENT).iter().count(), 1);
        server.run(|| http_server_span(&request).in_scope(|| {}));
        let call = client.finished("call");
        let served = server.finished("request");
        assert_eq!(served.span_context.trace_id(), call.span_context.trace_id());
        assert_eq!(served.parent_span_id, call.span_context.span_id());
    }

    #[test]
    fn the_trace_filter_keeps_exporter_internals_out() {
        let game = Process::new();
        game.run(|| {
            tracing::info_span!(target: "h2::proto", "h2_internal").in_scope(|| {});
            tracing::info_span!(target: "opentelemetry_sdk", "sdk_internal").in_scope(|| {});
            tracing::info_span!(target: "weiqi_game::service", "command").in_scope(|| {});
            tracing::debug_span!(target: "weiqi_game::service", "detail").in_scope(|| {});
        });
        game.provider.force_flush().unwrap();
        let names: Vec<_> = game.exporter.get_finished_spans().unwrap().into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["command"]);
    }
}
