//! Serving: gRPC (with gRPC-web, server reflection and `grpc.health.v1`) and a small HTTP side for
//! `/metrics` and `/healthz`.

use tonic::service::RoutesBuilder;
use weiqi_game::grpc::GameGrpc;
use weiqi_proto::v1 as pb;

use crate::info::InfoGateway;

pub use weiqi_edge::serve::MAX_REQUEST_BYTES;

/// The routes every gateway serves: games, identity, reflection and health. Other components add
/// theirs with [`RoutesBuilder::add_service`] before serving.
pub async fn base_routes(game: GameGrpc, info: InfoGateway) -> RoutesBuilder {
    let mut routes = RoutesBuilder::default();
    let (reporter, health) = tonic_health::server::health_reporter();
    reporter.set_serving::<pb::game_service_server::GameServiceServer<GameGrpc>>().await;
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

pub use weiqi_edge::serve::{bind, http_router, serve_grpc, serve_http};
