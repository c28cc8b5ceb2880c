//! `weiqi-gateway`: the composition of the gRPC edge every client uses (players, referees,
//! organisers, overlays). Each service keeps its own server (`weiqi_game::grpc`,
//! `weiqi_tournament`'s, `weiqi_ranking`'s, `weiqi_clock_service`'s); this crate puts them on one
//! port with what every gateway serves beside them.
//!
//! * [`info`]: `weiqi.v1.GatewayService`, who am I and what is this server.
//! * [`server`]: tonic with gRPC-web, server reflection and `grpc.health.v1`; HTTP `/metrics`.
//! * [`auth`] and [`error`]: the token authority and the status mapping, from `weiqi-edge`, re-exported
//!   for the binaries and tests that compose a gateway.
//!
//! The web pages and the broadcast overlay are the web crate's (`weiqi-web`); they call the services'
//! domain APIs in process, not this gateway.
//!
//! # Invariants
//!
//! * The gateway never decides game rules nor who may act: each service's authority does, behind its
//!   own server. The game service is the only writer of game logs.
//! * Every mutating RPC needs a `request_id`; a retry with the same id appends nothing new.

pub use weiqi_edge::{auth, status as error};
pub mod info;
pub mod server;
