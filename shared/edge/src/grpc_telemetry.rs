//! Every gRPC call, as a trace span and as metrics: a tower layer on the gRPC server
//! ([`crate::serve::serve_grpc`]), so no method is left out and none counts twice.
//!
//! * **Span**: a `server` span named `<package.Service>/<Method>` (OpenTelemetry's RPC
//!   conventions: `rpc.system`, `rpc.service`, `rpc.method`, `rpc.grpc.status_code`) that continues
//!   the caller's trace from its `traceparent` metadata; the handler runs inside it, so the command
//!   spans, bus messages and appends that follow are its children.
//! * **Metrics**: `weiqi_grpc_requests_total{method,code}` and the latency histogram
//!   `weiqi_grpc_request_seconds{method,code}`, from the request to the response headers. The code
//!   is the `grpc-status` the response headers carry (an error answered at once), else `ok`; a
//!   stream that fails later reports its status in trailers, which this layer does not wait for.
//!
//! Method labels are the methods of our own services (`weiqi.v1.*`) and gRPC's standard ones
//! (`grpc.*`, reflection and health); any other path counts as `other`, so a scanner cannot grow
//! the label set.

use std::task::{Context, Poll};
use std::time::Instant;

use futures::future::BoxFuture;
use tracing::Instrument;
use weiqi_telemetry::names;

/// The layer: add it to the gRPC server's stack.
#[derive(Clone, Copy, Debug, Default)]
pub struct GrpcTelemetryLayer;

impl<S> tower::Layer<S> for GrpcTelemetryLayer {
    type Service = GrpcTelemetry<S>;

    fn layer(&self, inner: S) -> GrpcTelemetry<S> {
        GrpcTelemetry { inner }
    }
}

/// The service the layer makes.
#[derive(Clone, Debug)]
pub struct GrpcTelemetry<S> {
    inner: S,
}

/// `(service, method)` of a gRPC path `/weiqi.v1.GameService/PlayMove`, for ours and gRPC's own.
fn rpc_of(path: &str) -> Option<(&str, &str)> {
    let (service, method) = path.strip_prefix('/')?.split_once('/')?;
    let known = service.starts_with("weiqi.v1.") || service.starts_with("grpc.");
    let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    (known && plain(service) && plain(method)).then_some((service, method))
}

/// The name of a gRPC status code in snake case (`invalid_argument`), as the metrics label it.
#[must_use]
pub fn code_name(code: tonic::Code) -> &'static str {
    use tonic::Code as C;
    match code {
        C::Ok => "ok",
        C::Cancelled => "cancelled",
        C::Unknown => "unknown",
        C::InvalidArgument => "invalid_argument",
        C::DeadlineExceeded => "deadline_exceeded",
        C::NotFound => "not_found",
        C::AlreadyExists => "already_exists",
        C::PermissionDenied => "permission_denied",
        C::ResourceExhausted => "resource_exhausted",
        C::FailedPrecondition => "failed_precondition",
        C::Aborted => "aborted",
        C::OutOfRange => "out_of_range",
        C::Unimplemented => "unimplemented",
        C::Internal => "internal",
        C::Unavailable => "unavailable",
        C::DataLoss => "data_loss",
        C::Unauthenticated => "unauthenticated",
    }
}

impl<S, B, R> tower::Service<http::Request<B>> for GrpcTelemetry<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<R>> + Send,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    B: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<S::Response, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let (label, span) = match rpc_of(request.uri().path()) {
            Some((service, method)) => {
                let span = tracing::info_span!(
                    "grpc.server",
                    otel.kind = "server",
                    otel.name = %format!("{service}/{method}"),
                    rpc.system = "grpc",
                    rpc.service = %service,
                    rpc.method = %method,
                    rpc.grpc.status_code = tracing::field::Empty,
                );
                weiqi_telemetry::set_parent(&span, &weiqi_telemetry::extract_from_http(request.headers()));
                (format!("{service}/{method}"), span)
            }
            None => ("other".to_string(), tracing::Span::none()),
        };
        let started = Instant::now();
        let call = {
            let _entered = span.enter();
            self.inner.call(request)
        };
        Box::pin(
            async move {
                let response = call.await;
                let code = match &response {
                    Ok(r) => r
                        .headers()
                        .get("grpc-status")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.parse::<i32>().ok())
                        .map_or(tonic::Code::Ok, tonic::Code::from_i32),
                    Err(_) => tonic::Code::Unavailable,
                };
                tracing::Span::current().record("rpc.grpc.status_code", code as i32);
                let code = code_name(code);
                weiqi_telemetry::metrics::counter!(names::GRPC_REQUESTS,
                    names::labels::METHOD => label.clone(), names::labels::CODE => code)
                .increment(1);
                weiqi_telemetry::metrics::histogram!(names::GRPC_SECONDS,
                    names::labels::METHOD => label, names::labels::CODE => code)
                .record(started.elapsed().as_secs_f64());
                response
            }
            .instrument(span),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_methods_and_grpcs_own_are_labels() {
        assert_eq!(rpc_of("/weiqi.v1.GameService/PlayMove"), Some(("weiqi.v1.GameService", "PlayMove")));
        assert_eq!(
            rpc_of("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"),
            Some(("grpc.reflection.v1.ServerReflection", "ServerReflectionInfo"))
        );
        assert_eq!(rpc_of("/wp-admin/index.php"), None);
        assert_eq!(rpc_of("/weiqi.v1.GameService/"), None);
        assert_eq!(rpc_of("/"), None);
        assert_eq!(code_name(tonic::Code::ResourceExhausted), "resource_exhausted");
    }
}
