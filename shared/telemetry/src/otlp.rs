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
/// For a schemeless traces endpoint: `false` asks for TLS.
pub const OTEL_EXPORTER_OTLP_TRACES_INSECURE: &str = "OTEL_EXPORTER_OTLP_TRACES_INSECURE";
/// For a schemeless endpoint: `false` asks for TLS.
pub const OTEL_EXPORTER_OTLP_INSECURE: &str = "OTEL_EXPORTER_OTLP_INSECURE";
/// A PEM file of the certificate authorities that sign the traces collector's certificate; wins
/// over [`OTEL_EXPORTER_OTLP_CERTIFICATE`]. Without either, the public web roots (webpki) are used.
pub const OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE: &str = "OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE";
/// A PEM file of the certificate authorities that sign the collector's certificate.
pub const OTEL_EXPORTER_OTLP_CERTIFICATE: &str = "OTEL_EXPORTER_OTLP_CERTIFICATE";

/// How long dropping the [`TelemetryGuard`](crate::TelemetryGuard) waits for the last spans to
/// be exported before giving up on them.
pub const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(5);

/// Where spans go when OTLP export is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtlpConfig {
    /// The collector's gRPC endpoint, always with an explicit `http://` or `https://` scheme.
    pub endpoint: String,
    /// The variable it came from.
    pub source: &'static str,
    /// Over TLS (an `https://` endpoint, or a schemeless one with `..._INSECURE=false`): the
    /// certificate authorities' PEM file, if one is named (else the public web roots).
    pub tls: Option<Option<std::path::PathBuf>>,
}

impl OtlpConfig {
    /// Reads the `OTEL_*` variables through `var` (which returns `None` for unset). `Ok(None)`
    /// means export is off: no endpoint variable is set (or both are empty),
    /// `OTEL_SDK_DISABLED=true`, or `OTEL_TRACES_EXPORTER=none`.
    ///
    /// A schemeless endpoint (`collector:4317`) is plaintext, `http://collector:4317`, unless
    /// `..._INSECURE=false` asks for TLS (the OTLP library alone would make it `https://`, which a
    /// plaintext sidecar would refuse at the first export, silently). `https://` endpoints use
    /// TLS, verified against `OTEL_EXPORTER_OTLP[_TRACES]_CERTIFICATE` if set, else the public
    /// web roots.
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
        let (endpoint, tls) = match value.split_once("://") {
            Some((scheme, rest)) if !scheme.contains(['/', '?', '#']) => match scheme.to_ascii_lowercase().as_str() {
                _ if rest.is_empty() => return Err(bad("no host after the scheme")),
                "http" => (value.clone(), false),
                "https" => (value.clone(), true),
                _ => return Err(bad("scheme must be http:// or https://")),
            },
            _ => {
                let insecure =
                    [OTEL_EXPORTER_OTLP_TRACES_INSECURE, OTEL_EXPORTER_OTLP_INSECURE].into_iter().find_map(set);
                if insecure.is_some_and(|v| v.eq_ignore_ascii_case("false")) {
                    (format!("https://{value}"), true)
                } else {
                    (format!("http://{value}"), false)
                }
            }
        };
        http::Uri::try_from(endpoint.as_str()).map_err(|_| bad("not a valid URI"))?;
        let ca = [OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE, OTEL_EXPORTER_OTLP_CERTIFICATE]
            .into_iter()
            .find_map(set)
            .map(std::path::PathBuf::from);
        Ok(Some(Self { endpoint, source, tls: tls.then_some(ca) }))
    }
}

/// Builds the OTLP/gRPC span exporter. Must run inside a Tokio runtime context: the gRPC
/// channel's worker task is spawned there (lazily connected: no network I/O happens here).
/// Timeout, headers and compression come from the standard `OTEL_EXPORTER_OTLP_*` variables,
/// read by the exporter library itself.
pub(crate) fn build_exporter(config: &OtlpConfig) -> Result<SpanExporter, TelemetryError> {
    use opentelemetry_otlp::WithTonicConfig;
    use opentelemetry_otlp::tonic_types::transport::{Certificate, ClientTlsConfig};
    let mut builder = SpanExporter::builder().with_tonic().with_endpoint(config.endpoint.clone());
    if let Some(ca) = &config.tls {
        let mut tls = ClientTlsConfig::new().with_webpki_roots();
        if let Some(path) = ca {
            let pem = std::fs::read(path).map_err(|e| {
                TelemetryError::OtlpExporter(format!(
                    "the collector's certificate authorities, {}: {e}",
                    path.display()
                ))
            })?;
            tls = tls.ca_certificate(Certificate::from_pem(pem));
        }
        builder = builder.with_tls_config(tls);
    }
    builder.build().map_err(|e| TelemetryError::OtlpExporter(e.to_string()))
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
            // TLS: https://, or a schemeless endpoint that asks for it.
            (&[(OTEL_EXPORTER_OTLP_ENDPOINT, "https://otel:4317")], "https://otel:4317"),
            (
                &[(OTEL_EXPORTER_OTLP_ENDPOINT, "otel:4317"), (OTEL_EXPORTER_OTLP_INSECURE, "false")],
                "https://otel:4317",
            ),
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
            &[(OTEL_EXPORTER_OTLP_ENDPOINT, "grpc://otel:4317")],
            &[(OTEL_EXPORTER_OTLP_ENDPOINT, "https://")],
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
    fn tls_takes_the_named_certificate_authorities_or_the_public_roots() {
        let https = (OTEL_EXPORTER_OTLP_ENDPOINT, "https://otel:4317");
        assert_eq!(resolve(&[https]).unwrap().unwrap().tls, Some(None));
        let with_ca = resolve(&[https, (OTEL_EXPORTER_OTLP_CERTIFICATE, "/etc/ca.pem")]).unwrap().unwrap();
        assert_eq!(with_ca.tls, Some(Some("/etc/ca.pem".into())));
        let traces_wins = resolve(&[
            https,
            (OTEL_EXPORTER_OTLP_CERTIFICATE, "/etc/all.pem"),
            (OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE, "/etc/traces.pem"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!(traces_wins.tls, Some(Some("/etc/traces.pem".into())));
        // The traces variable's INSECURE wins over the generic one.
        let schemeless = resolve(&[
            (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, "otel:4317"),
            (OTEL_EXPORTER_OTLP_TRACES_INSECURE, "false"),
            (OTEL_EXPORTER_OTLP_INSECURE, "true"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!((schemeless.endpoint.as_str(), schemeless.tls.is_some()), ("https://otel:4317", true));
        assert_eq!(resolve(&[(OTEL_EXPORTER_OTLP_ENDPOINT, "http://otel:4317")]).unwrap().unwrap().tls, None);
    }

    #[test]
    fn the_source_variable_is_reported() {
        let config = resolve(&[(OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, "otel:4317")]).unwrap().unwrap();
        assert_eq!(config.source, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
    }
}
