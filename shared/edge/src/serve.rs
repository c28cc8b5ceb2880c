//! Serving: gRPC with gRPC-web on a listener, the small HTTP side (`/metrics`, `/healthz`), and binding
//! with the address in the error.

use std::future::Future;
use std::net::SocketAddr;

use tokio::net::TcpListener;
use tonic::service::RoutesBuilder;
use tonic::transport::Server;

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
