//! Serving: gRPC (with gRPC-web, server reflection and `grpc.health.v1`) and a small HTTP side for
//! `/metrics` and `/healthz`.

use std::future::Future;
use std::net::SocketAddr;

use tokio::net::TcpListener;
use tonic::service::RoutesBuilder;
use tonic::transport::Server;
use weiqi_proto::v1 as pb;

use crate::game::GameGateway;
use crate::info::InfoGateway;

/// Largest request the gateway accepts (moves and commands are tiny; this bounds abuse).
pub const MAX_REQUEST_BYTES: usize = 64 * 1024;

/// The routes every gateway serves: games, identity, reflection and health. Other components add
/// theirs with [`RoutesBuilder::add_service`] before serving.
pub async fn base_routes(game: GameGateway, info: InfoGateway) -> RoutesBuilder {
    let mut routes = RoutesBuilder::default();
    let (reporter, health) = tonic_health::server::health_reporter();
    reporter.set_serving::<pb::game_service_server::GameServiceServer<GameGateway>>().await;
    // Both reflection protocols, as grpc-go serves them: `v1` for current clients, `v1alpha` for older
    // grpcurl, grpcui and Python's grpcio-reflection.
    let reflection = || {
        tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(weiqi_proto::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
    };
    let reflection_v1 = reflection().build_v1().expect("the descriptor sets are compiled in and valid");
    let reflection_v1alpha = reflection().build_v1alpha().expect("the descriptor sets are compiled in and valid");
    routes
        .add_service(pb::game_service_server::GameServiceServer::new(game).max_decoding_message_size(MAX_REQUEST_BYTES))
        .add_service(
            pb::gateway_service_server::GatewayServiceServer::new(info).max_decoding_message_size(MAX_REQUEST_BYTES),
        )
        .add_service(health)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha);
    routes
}

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
    axum::serve(listener, router).with_graceful_shutdown(shutdown).await
}

/// Binds a listener, with the address in the error.
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await.map_err(|e| std::io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))
}
