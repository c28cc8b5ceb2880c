//! [`TelemetryGuard`]: what keeps the exporter alive, and flushes it at the end.

use opentelemetry_sdk::trace::SdkTracerProvider;

use crate::otlp::SHUTDOWN_TIMEOUT;

/// Keeps exporters alive; flushes and shuts them down on drop.
///
/// Hold it for the life of the process (`let _guard = weiqi_telemetry::init("game")?;` in
/// `main`). Dropping it exports the spans still queued, waiting at most
/// [`SHUTDOWN_TIMEOUT`](crate::otlp::SHUTDOWN_TIMEOUT); what is not out by then is dropped.
/// After that, spans are no longer exported. A guard from a repeated `init` call, or one with
/// export off, does nothing on drop.
#[must_use = "dropping the guard stops span export: bind it to a named variable (`let _guard = ...`)"]
pub struct TelemetryGuard {
    export: Option<Export>,
}

/// The OTLP pipeline: the tracer provider with its batch processor, and the small runtime that
/// drives the gRPC channel.
pub(crate) struct Export {
    pub(crate) provider: SdkTracerProvider,
    pub(crate) runtime: tokio::runtime::Runtime,
    pub(crate) endpoint: String,
}

impl TelemetryGuard {
    /// A guard that owns nothing: export off, or `init` already done.
    pub(crate) fn inert() -> Self {
        Self { export: None }
    }

    pub(crate) fn exporting(export: Export) -> Self {
        Self { export: Some(export) }
    }

    /// The OTLP endpoint spans are exported to by this guard, if it owns an exporter.
    pub fn otlp_endpoint(&self) -> Option<&str> {
        self.export.as_ref().map(|e| e.endpoint.as_str())
    }
}

impl std::fmt::Debug for TelemetryGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TelemetryGuard").field("otlp_endpoint", &self.otlp_endpoint()).finish()
    }
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        let Some(export) = self.export.take() else { return };
        // Flush on the batch processor's own thread, bounded; the gRPC channel it sends
        // through runs on `export.runtime`, not the caller's, so this cannot deadlock even
        // when dropped on a current-thread runtime.
        if let Err(error) = export.provider.shutdown_with_timeout(SHUTDOWN_TIMEOUT) {
            tracing::warn!(%error, "span export shutdown");
        }
        // Never blocks, and is allowed inside an async context (a plain drop is not).
        export.runtime.shutdown_background();
    }
}
