//! The ways setting up telemetry can fail. Once set up, telemetry never fails a request.

/// Why [`init`](crate::init) could not set telemetry up.
///
/// Every variant is a start-up problem: a misconfigured `OTEL_*` variable, or a global
/// (subscriber, metrics recorder) that something else installed first. Details are kept as
/// text so the error is `Clone` (a later `init` call returns the first call's error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TelemetryError {
    /// An OTLP endpoint variable holds something we cannot use.
    #[error("{var}={value:?}: {reason}")]
    OtlpEndpoint {
        /// The variable that held the endpoint.
        var: &'static str,
        /// Its value.
        value: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// `OTEL_EXPORTER_OTLP[_TRACES]_PROTOCOL` asks for a protocol other than `grpc`.
    #[error("{var}={value:?}: only \"grpc\" is built in (OTLP over gRPC, usually port 4317)")]
    OtlpProtocol {
        /// The variable that held the protocol.
        var: &'static str,
        /// Its value.
        value: String,
    },
    /// `OTEL_TRACES_EXPORTER` names an exporter other than `otlp` or `none`.
    #[error("OTEL_TRACES_EXPORTER={0:?}: only \"otlp\" and \"none\" are supported")]
    TracesExporter(String),
    /// The OTLP exporter library refused its configuration (e.g. an unsupported
    /// `OTEL_EXPORTER_OTLP_COMPRESSION`).
    #[error("OTLP exporter: {0}")]
    OtlpExporter(String),
    /// The background runtime that drives the OTLP exporter could not start.
    #[error("OTLP exporter runtime: {0}")]
    ExporterRuntime(String),
    /// A global `tracing` subscriber (or `log` logger) was already installed by someone else.
    #[error("tracing subscriber: {0}")]
    Subscriber(String),
    /// A global `metrics` recorder was already installed by someone else.
    #[error("metrics recorder: {0}")]
    MetricsRecorder(String),
}
