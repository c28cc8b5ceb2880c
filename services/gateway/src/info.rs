//! `weiqi.v1.GatewayService`: who am I, and what is this server.

use tonic::{Request, Response, Status};
use weiqi_proto::v1 as pb;

use crate::auth::Authority;

/// Identity and server information.
#[derive(Clone, Debug)]
pub struct InfoGateway {
    auth: Authority,
    backend: String,
    services: Vec<String>,
}

impl InfoGateway {
    /// `backend` is "embedded" or "nats"; `services` lists what this server offers.
    pub fn new(auth: Authority, backend: &str, services: Vec<String>) -> InfoGateway {
        InfoGateway { auth, backend: backend.to_string(), services }
    }
}

#[tonic::async_trait]
impl pb::gateway_service_server::GatewayService for InfoGateway {
    async fn whoami(&self, request: Request<pb::WhoamiRequest>) -> Result<Response<pb::WhoamiResponse>, Status> {
        let c = self.auth.caller(&request)?;
        Ok(Response::new(pb::WhoamiResponse {
            subject: c.sub,
            roles: c.roles.iter().map(|r| r.name().to_string()).collect(),
            events: c.events,
            expires_at_ms: c.exp as i64 * 1000,
        }))
    }

    async fn server_info(&self, _: Request<pb::ServerInfoRequest>) -> Result<Response<pb::ServerInfoResponse>, Status> {
        Ok(Response::new(pb::ServerInfoResponse {
            version: env!("CARGO_PKG_VERSION").to_string(),
            backend: self.backend.clone(),
            services: self.services.clone(),
        }))
    }
}
