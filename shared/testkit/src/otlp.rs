//! A fake OpenTelemetry collector: an OTLP/gRPC `TraceService` on a free loopback port that keeps
//! every span it receives with its resource's `service.name`, so tests can check the traces real
//! processes export (`OTEL_EXPORTER_OTLP_ENDPOINT=http://<addr>`).

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{TraceService, TraceServiceServer};
use opentelemetry_proto::tonic::collector::trace::v1::{ExportTraceServiceRequest, ExportTraceServiceResponse};
use opentelemetry_proto::tonic::common::v1::any_value::Value;
pub use opentelemetry_proto::tonic::trace::v1::Span;
pub use opentelemetry_proto::tonic::trace::v1::span::SpanKind;

/// The collector: clone it freely, every clone sees the same spans.
#[derive(Clone, Default, Debug)]
pub struct Collector {
    spans: Arc<Mutex<Vec<(String, Span)>>>,
}

impl Collector {
    /// Starts a collector on a free loopback port (on the current Tokio runtime); its address.
    ///
    /// # Panics
    /// When no port can be bound.
    pub async fn start() -> (SocketAddr, Collector) {
        let collector = Collector::default();
        let incoming =
            tonic::transport::server::TcpIncoming::bind("127.0.0.1:0".parse().expect("an address")).expect("bind");
        let addr = incoming.local_addr().expect("the collector's address");
        let service = TraceServiceServer::new(collector.clone());
        tokio::spawn(tonic::transport::Server::builder().add_service(service).serve_with_incoming(incoming));
        (addr, collector)
    }

    /// [`Collector::start`] over TLS with this certificate chain and key (PEM).
    ///
    /// # Panics
    /// When no port can be bound or the certificate is refused.
    pub async fn start_tls(cert: &[u8], key: &[u8]) -> (SocketAddr, Collector) {
        use tonic::transport::{Identity, ServerTlsConfig};
        let collector = Collector::default();
        let incoming =
            tonic::transport::server::TcpIncoming::bind("127.0.0.1:0".parse().expect("an address")).expect("bind");
        let addr = incoming.local_addr().expect("the collector's address");
        let server = tonic::transport::Server::builder()
            .tls_config(ServerTlsConfig::new().identity(Identity::from_pem(cert, key)))
            .expect("a certificate the server takes");
        let mut server = server;
        tokio::spawn(server.add_service(TraceServiceServer::new(collector.clone())).serve_with_incoming(incoming));
        (addr, collector)
    }

    /// Every span received so far, with the `service.name` of the process that sent it.
    #[must_use]
    pub fn spans(&self) -> Vec<(String, Span)> {
        self.spans.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

/// Lowercase hex of an id's bytes (trace and span ids).
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl TraceService for Collector {
    fn export<'a, 'b>(
        &'a self,
        request: tonic::Request<ExportTraceServiceRequest>,
    ) -> Pin<Box<dyn Future<Output = Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status>> + Send + 'b>>
    where
        'a: 'b,
        Self: 'b,
    {
        Box::pin(async move {
            let mut spans = self.spans.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            for resource_spans in request.into_inner().resource_spans {
                let service = resource_spans
                    .resource
                    .iter()
                    .flat_map(|r| &r.attributes)
                    .find(|kv| kv.key == "service.name")
                    .and_then(|kv| match kv.value.as_ref()?.value.as_ref()? {
                        Value::StringValue(s) => Some(s.clone()),
                        _ => None,
                    })
                    .unwrap_or_default();
                for scope_spans in resource_spans.scope_spans {
                    spans.extend(scope_spans.spans.into_iter().map(|s| (service.clone(), s)));
                }
            }
            Ok(tonic::Response::new(ExportTraceServiceResponse { partial_success: None }))
        })
    }
}
