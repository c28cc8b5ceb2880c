//! How other components reach the game service: in process (`weiqi up`) or over the NATS bus
//! (`weiqi serve`, multi-node). Both carry the same `weiqi.v1.GameCommand` and reply.

use std::sync::Arc;
use std::time::Duration;

use prost::Message;
use weiqi_eventlog::{AnyBus, AnyEventLog, Bus, BusError, BusMessage};
use weiqi_proto::v1 as pb;

use crate::service::GameService;

/// The game service could not be reached: answer `Unavailable`, retry with the same request id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game service unavailable: {0}")]
pub struct Unavailable(pub String);

/// A handle on the game service.
#[derive(Clone)]
pub enum GameClient {
    /// The service runs in this process.
    Local(Arc<GameService<AnyEventLog>>),
    /// The service runs elsewhere; requests go over the bus with this timeout.
    Bus(AnyBus, Duration),
}

impl GameClient {
    /// Sends a command (or a `get`) and waits for the reply. `headers` carry the trace context.
    pub async fn send(
        &self,
        command: pb::GameCommand,
        headers: &[(String, String)],
    ) -> Result<pb::GameCommandReply, Unavailable> {
        match self {
            GameClient::Local(service) => Ok(service.handle(&command, headers).await),
            GameClient::Bus(bus, timeout) => {
                let mut msg = BusMessage::new(command.encode_to_vec());
                for (k, v) in headers {
                    msg = msg.with_header(k.clone(), v.clone());
                }
                let reply = bus
                    .request("games", &command.game_id, msg, *timeout)
                    .await
                    .map_err(|e: BusError| Unavailable(e.to_string()))?;
                pb::GameCommandReply::decode(reply.payload).map_err(|e| Unavailable(format!("malformed reply: {e}")))
            }
        }
    }
}
