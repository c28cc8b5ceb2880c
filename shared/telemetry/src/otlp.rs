//! When and where spans are exported: the `OTEL_*` variables read into an [`OtlpConfig`], and the
//! OTLP/gRPC exporter built from it.
//!
//! Resolution is a pure function of a variable lookup, so it is table-tested without touching
//! the process environment.

use std::time::Duration;

use opentelemetry_otlp::{SpanExporter, WithExportConfig};

use crate::TelemetryError;

/// Turns telemetry off entirely when `true` (OpenTelemetry standard).
pub const OTEL_SDK_DISABLED: &str = "OTEL_SDK_DISABLED";
/// `otlp` (the default) or `none`.
pub const OTEL_TRACES_EXPORTER: &str = "OTEL_TRACES_EXPORTER";
/// The traces endpoint; wins over [`OTEL_EXPORTER_OTLP_ENDPOINT`].
pub const OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: &str = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
/// The endpoint for every signal (we export traces only). For gRPC no path is appended.
pub const OTEL_EXPORTER_OTLP_ENDPOINT: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";
/// The traces protocol; wins over [`OTEL_EXPORTER_OTLP_PROTOCOL`]. Only `grpc` is built in.
pub const OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: &str = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL";
/// The protocol for every signal. Only `grpc` is built in.
pub const OTEL_EXPORTER_OTLP_PROTOCOL: &str = "OTEL_EXPORTER_OTLP_PROTOCOL";
/// For a schemeless traces endpoint: `false` asks for TLS, which is not built in.
pub const OTEL_EXPORTER_OTLP_TRACES_INSECURE: &str = "OTEL_EXPORTER_OTLP_TRACES_INSECURE";
/// For a schemeless endpoint: `false` asks for TLS, which is not built in.
pub const OTEL_EXPORTER_OTLP_INSECURE: &str = "OTEL_EXPORTER_OTLP_INSECURE";

/// How long dropping the [`TelemetryGuard`](crate::TelemetryGuard) waits for the last spans to
/// be exported before giving up on them.
pub const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(5);

/// Where spans go when OTLP export is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtlpConfig {
    /// The collector's gRPC endpoint, always with an explicit `http://` scheme.
    pub endpoint: String,
    /// The variable it came from.
    pub source: &'static str,
}

impl OtlpConfig {
    /// Reads the `OTEL_*` variables through `var` (which returns `None` for unset). `Ok(None)`
    /// means export is off: no endpoint variable is set (or both are empty),
    /// `OTEL_SDK_DISABLED=true`, or `OTEL_TRACES_EXPORTER=none`.
    ///
    /// A schemeless endpoint (`collector:4317`) becomes `http://collector:4317`. The OTLP
    /// library would make it `https://` unless `OTEL_EXPORTER_OTLP_INSECURE=true`, and TLS is
    /// not built in, so that would fail at the first export, silently. An explicit
    /// `..._INSECURE=false` (asking for TLS) or an `https://` endpoint is an error now instead.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Option<Self>, TelemetryError> {
        let set = |name: &str| var(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());

        if set(OTEL_SDK_DISABLED).is_some_and(|v| v.eq_ignore_ascii_case("true")) {
            return Ok(None);
        }
        if let Some(exporter) = set(OTEL_TRACES_EXPORTER) {
            match exporter.to_ascii_lowercase().as_str() {
                "none" => return Ok(None),
                "otlp" => {}
                _ => return Err(TelemetryError::TracesExporter(exporter)),
            }
        }
        let Some((source, value)) = [OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT]
            .into_iter()
            .find_map(|name| set(name).map(|v| (name, v)))
        else {
            return Ok(None);
        };

        for name in [OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, OTEL_EXPORTER_OTLP_PROTOCOL] {
            if let Some(protocol) = set(name) {
                if protocol != "grpc" {
                    return Err(TelemetryError::OtlpProtocol { var: name, value: protocol });
                }
                break;
            }
        }

        let bad = |reason| TelemetryError::OtlpEndpoint { var: source, value: value.clone(), reason };
        let endpoint = match value.split_once("://") {
            Some((scheme, rest)) if !scheme.contains(['/', '?', '#']) => match scheme.to_ascii_lowercase().as_str() {
                "http" if !rest.is_empty() => value.clone(),
                "http" => return Err(bad("no host after http://")),
                "https" => {
                    return Err(bad("TLS is not built into this binary: use a plaintext http:// endpoint \
                             (e.g. a collector or sidecar on the local network)"));
                }
                _ => return Err(bad("scheme must be http://")),
            },
            _ => {
                let insecure =
                    [OTEL_EXPORTER_OTLP_TRACES_INSECURE, OTEL_EXPORTER_OTLP_INSECURE].into_iter().find_map(set);
                if insecure.is_some_and(|v| v.eq_ignore_ascii_case("false")) {
                    return Err(bad("a schemeless endpoint with ..._INSECURE=false asks for TLS, which is not \
                         built into this binary"));
                }
                format!("http://{value}")
            }
        };
        http::Uri::try_from(endpoint.as_str()).map_err(|_| bad("not a valid URI"))?;
        Ok(Some(Self { endpoint, source }))
    }
}

/// Builds the OTLP/gRPC span exporter. Must run inside a Tokio runtime context: the gRPC
/// channel's worker task is spawned there (lazily connected: no network I/O happens here).
/// Timeout, headers and compression come from the standard `OTEL_EXPORTER_OTLP_*` variables,
/// read by the exporter library itself.
pub(crate) fn build_exporter(config: &OtlpConfig) -> Result<SpanExporter, TelemetryError> {
    SpanExporter::builder()
        .with_tonic()
        .with_endpoint(config.endpoint.clone())
        .build()
        .map_err(|e| TelemetryError::OtlpExporter(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(vars: &[(&str, &str)]) -> Result<Option<OtlpConfig>, TelemetryError> {
        OtlpConfig::from_vars(|name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v).to_owned()))
    }

    fn endpoint(vars: &[(&str, &str)]) -> Option<String> {
        resolve(vars).expect("valid configuration").map(|c| c.endpoint)
    }

    #[test]
    fn export_is_off_unless_an_endpoint_is_set() {
        assert_eq!(endpoint(&[]), None);
        assert_eq!(endpoint(&[(OTEL_EXPORTER_OTLP_ENDPOINT, "")]), None);
        assert_eq!(endpoint(&[(OTEL_EXPORTER_OTLP_ENDPOINT, "  ")]), None);
        assert_eq!(endpoint(&[("OTEL_SERVICE_NAME", "game")]), None);
        assert_eq!(endpoint(&[(OTEL_TRACES_EXPORTER, "otlp")]), None);
    }

    #[test]
    fn endpoints_resolve_by_table() {
        let table: &[(&[(&str, &str)], &str)] = &[
            (&[(OTEL_EXPORTER_OTLP_ENDPOINT, "http://otel:4317")], "http://otel:4317"),
            (&[(OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, "http://t:4317")], "http://t:4317"),
            // The traces-specific variable wins; an empty one does not count.
            (
                &[
                    (OTEL_EXPORTER_OTLP_ENDPOINT, "http://all:4317"),
                    (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, "http://traces:4317"),
                ],
                "http://traces:4317",
            ),
            (
                &[(OTEL_EXPORTER_OTLP_ENDPOINT, "http://all:4317"), (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, "")],
                "http://all:4317",
            ),
            // Schemeless endpoints are plaintext, never silently https.
            (&[(OTEL_EXPORTER_OTLP_ENDPOINT, "localhost:4317")], "http://localhost:4317"),
            (&[(OTEL_EXPORTER_OTLP_ENDPOINT, "127.0.0.1:4317")], "http://127.0.0.1:4317"),
            (&[(OTEL_EXPORTER_OTLP_ENDPOINT, "otel:4317"), (OTEL_EXPORTER_OTLP_INSECURE, "true")], "http://otel:4317"),
            (&[(OTEL_EXPORTER_OTLP_ENDPOINT, "HTTP://otel:4317")], "HTTP://otel:4317"),
            (
                &[(OTEL_EXPORTER_OTLP_ENDPOINT, "http://otel:4317"), (OTEL_EXPORTER_OTLP_PROTOCOL, "grpc")],
                "http://otel:4317",
            ),
            // The traces protocol variable wins over the generic one.
            (
                &[
                    (OTEL_EXPORTER_OTLP_ENDPOINT, "http://otel:4317"),
                    (OTEL_EXPORTER_OTLP_PROTOCOL, "http/protobuf"),
                    (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, "grpc"),
                ],
                "http://otel:4317",
            ),
            (&[(OTEL_EXPORTER_OTLP_ENDPOINT, "http://otel:4317"), (OTEL_SDK_DISABLED, "false")], "http://otel:4317"),
        ];
        for (vars, want) in table {
            assert_eq!(endpoint(vars).as_deref(), Some(*want), "{vars:?}");
        }
    }

    #[test]
    fn standard_switches_turn_export_off() {
        let on = (OTEL_EXPORTER_OTLP_ENDPOINT, "http://otel:4317");
        assert_eq!(endpoint(&[on, (OTEL_SDK_DISABLED, "true")]), None);
        assert_eq!(endpoint(&[on, (OTEL_SDK_DISABLED, "TRUE")]), None);
        assert_eq!(endpoint(&[on, (OTEL_TRACES_EXPORTER, "none")]), None);
    }

    #[test]
    fn configurations_we_cannot_honour_are_errors_not_silence() {
        let on = (OTEL_EXPORTER_OTLP_ENDPOINT, "http://otel:4317");
        let cases: &[&[(&str, &str)]] = &[
            &[(OTEL_EXPORTER_OTLP_ENDPOINT, "https://otel:4317")],
            &[(OTEL_EXPORTER_OTLP_ENDPOINT, "otel:4317"), (OTEL_EXPORTER_OTLP_INSECURE, "false")],
            &[
                (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, "otel:4317"),
                (OTEL_EXPORTER_OTLP_TRACES_INSECURE, "false"),
                (OTEL_EXPORTER_OTLP_INSECURE, "true"),
            ],
            &[(OTEL_EXPORTER_OTLP_ENDPOINT, "grpc://otel:4317")],
            &[(OTEL_EXPORTER_OTLP_ENDPOINT, "http://")],
            &[(OTEL_EXPORTER_OTLP_ENDPOINT, "otel 4317")],
            &[on, (OTEL_EXPORTER_OTLP_PROTOCOL, "http/protobuf")],
            &[on, (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, "http/json")],
            &[on, (OTEL_TRACES_EXPORTER, "zipkin")],
        ];
        for vars in cases {
            assert!(resolve(vars).is_err(), "{vars:?} should be rejected");
        }
        assert_eq!(
            resolve(&[on, (OTEL_EXPORTER_OTLP_PROTOCOL, "http/protobuf")]),
            Err(TelemetryError::OtlpProtocol { var: OTEL_EXPORTER_OTLP_PROTOCOL, value: "http/protobuf".into() })
        );
    }

    #[test]
    fn the_source_variable_is_reported() {
        let config = resolve(&[(OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, "otel:4317")]).unwrap().unwrap();
        assert_eq!(config.source, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
    }
}
