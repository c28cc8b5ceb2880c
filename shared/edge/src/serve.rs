//! Serving: gRPC with gRPC-web on a listener, the small HTTP side (`/metrics`, `/healthz`), and binding
//! with the address in the error. [`serve_grpc_with`] and [`serve_http_with`] add TLS (rustls, from
//! PEM files) and, for gRPC, the limits of [`crate::limits`]; [`serve_grpc`] and [`serve_http`] are
//! the plaintext, unlimited forms tests use.

use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use tokio::net::TcpListener;
use tonic::service::RoutesBuilder;
use tonic::transport::{Identity, Server, ServerTlsConfig};

/// Largest request an edge accepts (moves and commands are tiny; this bounds abuse).
pub const MAX_REQUEST_BYTES: usize = 64 * 1024;

/// Serves gRPC and gRPC-web on `listener` until `shutdown` completes.
pub async fn serve_grpc(
    routes: RoutesBuilder,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), tonic::transport::Error> {
    // Set TCP_NODELAY on every accepted connection: tonic only does it for listeners it binds itself,
    // and without it small replies wait on Nagle's algorithm and delayed ACKs (tens of milliseconds).
    let incoming = tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
    Server::builder()
        .accept_http1(true)
        .layer(tonic_web::GrpcWebLayer::new())
        // Inside gRPC-web's translation: it sees gRPC, with `grpc-status` on errors answered at once.
        .layer(crate::grpc_telemetry::GrpcTelemetryLayer)
        .add_routes(routes.routes())
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await
}

/// The HTTP side: `/metrics` (Prometheus text from `metrics`) and `/healthz`.
pub fn http_router(metrics: fn() -> String) -> axum::Router {
    axum::Router::new()
        .route("/metrics", axum::routing::get(move || async move { metrics() }))
        .route("/healthz", axum::routing::get(|| async { "ok" }))
}

/// Serves the HTTP side on `listener` until `shutdown` completes.
pub async fn serve_http(
    router: axum::Router,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // With the peer's address in each request (`ConnectInfo`), for the web's login limits per address.
    axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(shutdown)
        .await
}

/// Binds a listener, with the address in the error.
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await.map_err(|e| std::io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))
}

/// TLS for an edge: a certificate chain and its private key, PEM files (`--tls-cert`, `--tls-key`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain, leaf first.
    pub cert: PathBuf,
    /// The private key (PKCS#8, PKCS#1 or SEC1).
    pub key: PathBuf,
}

impl TlsFiles {
    /// Both files' bytes, with the file in the error.
    ///
    /// # Errors
    /// A file cannot be read.
    pub fn read(&self) -> std::io::Result<(Vec<u8>, Vec<u8>)> {
        let read = |p: &Path| {
            std::fs::read(p).map_err(|e| std::io::Error::new(e.kind(), format!("reading {}: {e}", p.display())))
        };
        Ok((read(&self.cert)?, read(&self.key)?))
    }
}

/// How an edge serves: over TLS or not, and with which limits.
#[derive(Clone, Debug, Default)]
pub struct EdgeConfig {
    /// TLS (both gRPC and HTTP), or plaintext.
    pub tls: Option<TlsFiles>,
    /// Rate limits and open streams per token and per address (gRPC).
    pub limits: crate::limits::Limits,
}

/// Reads and checks a certificate and its key as the servers will take them, so that a process
/// with a bad one stops at start with the reason, before it announces its addresses.
///
/// # Errors
/// A file is unreadable, or the certificate and key are not a valid pair.
pub async fn check_tls(tls: &TlsFiles) -> Result<(), ServeError> {
    let (cert, key) = tls.read()?;
    axum_server::tls_rustls::RustlsConfig::from_pem(cert, key)
        .await
        .map(|_| ())
        .map_err(|e| ServeError::Tls(format!("{} and {}: {e}", tls.cert.display(), tls.key.display())))
}

/// Serves gRPC and gRPC-web on `listener` as `config` says (TLS, limits) until `shutdown` completes.
///
/// # Errors
/// The certificate or key is unreadable or not valid; the server fails.
pub async fn serve_grpc_with(
    routes: RoutesBuilder,
    listener: TcpListener,
    config: &EdgeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let incoming = tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
    let mut server = Server::builder();
    if let Some(tls) = &config.tls {
        let (cert, key) = tls.read()?;
        server = server.tls_config(ServerTlsConfig::new().identity(Identity::from_pem(cert, key)))?;
    }
    server
        .accept_http1(true)
        .layer(tonic_web::GrpcWebLayer::new())
        // Limits first: a refused call is answered at once, yet still counted and traced.
        .layer(crate::grpc_telemetry::GrpcTelemetryLayer)
        .layer(crate::limits::LimitLayer::new(config.limits.clone()))
        .add_routes(routes.routes())
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await?;
    Ok(())
}

/// Serves the HTTP side on `listener`, over TLS when `tls` is given, until `shutdown` completes
/// (then open requests have [`HTTP_GRACE`] to finish).
///
/// # Errors
/// The certificate or key is unreadable or not valid; the server fails.
pub async fn serve_http_with(
    router: axum::Router,
    listener: TcpListener,
    tls: Option<&TlsFiles>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let Some(tls) = tls else {
        return Ok(serve_http(router, listener, shutdown).await?);
    };
    let (cert, key) = tls.read()?;
    let config = axum_server::tls_rustls::RustlsConfig::from_pem(cert, key)
        .await
        .map_err(|e| ServeError::Tls(format!("{} and {}: {e}", tls.cert.display(), tls.key.display())))?;
    let handle = axum_server::Handle::new();
    let stop = handle.clone();
    tokio::spawn(async move {
        shutdown.await;
        stop.graceful_shutdown(Some(HTTP_GRACE));
    });
    axum_server::from_tcp_rustls(listener.into_std()?, config)?
        .handle(handle)
        .serve(router.into_make_service_with_connect_info::<SocketAddr>())
        .await?;
    Ok(())
}

/// How long open HTTPS requests may take to finish after shutdown is asked.
pub const HTTP_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// Why an edge stopped serving.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The gRPC server failed (or its TLS configuration was refused).
    #[error(transparent)]
    Grpc(#[from] tonic::transport::Error),
    /// Reading a file or serving HTTP failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The certificate or key is not valid.
    #[error("TLS: {0}")]
    Tls(String),
}
