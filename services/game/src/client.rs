//! How other components reach the game service: in process (`weiqi up`) or over the NATS bus
//! (`weiqi serve`, multi-node). Callers speak the domain ([`GameRequest`] in, [`Accepted`] or
//! [`GameError`] out); over the bus the command travels as `weiqi.v1.GameCommand`, encoded here once.

use std::sync::Arc;
use std::time::Duration;

use prost::Message;
use weiqi_eventlog::{AnyBus, AnyEventLog, Bus, BusError, BusMessage};
use weiqi_proto::v1 as pb;

use crate::convert;
use crate::service::{Accepted, GameError, GameRequest, GameService};

/// A handle on the game service.
#[derive(Clone)]
pub enum GameClient {
    /// The service runs in this process.
    Local(Arc<GameService<AnyEventLog>>),
    /// The service runs elsewhere; requests go over the bus with this timeout.
    Bus(AnyBus, Duration),
}

impl GameClient {
    /// Sends a command and waits for its outcome. `headers` carry the trace context.
    ///
    /// # Errors
    /// The game's refusal, or `Unavailable` when the service cannot be reached (retry with the same
    /// request id).
    pub async fn execute(&self, request: &GameRequest, headers: &[(String, String)]) -> Result<Accepted, GameError> {
        match self {
            GameClient::Local(service) => service.execute(request, headers).await,
            GameClient::Bus(bus, timeout) => {
                let command = convert::command_to_pb(
                    &request.game_id,
                    &request.command_id,
                    &request.correlation_id,
                    &request.actor,
                    &request.command,
                );
                convert::reply_from_pb(request_over(bus, *timeout, &command, headers).await?)
            }
        }
    }

    /// The game's view at server time (for the gateway).
    ///
    /// # Errors
    /// `NotFound` for no such game, or `Unavailable`.
    pub async fn view(&self, game_id: &str) -> Result<pb::GameView, GameError> {
        match self {
            GameClient::Local(service) => {
                let now = service.now();
                service.read(game_id, |state| convert::view(game_id, state, now)).await
            }
            GameClient::Bus(bus, timeout) => {
                let command = pb::GameCommand {
                    command_id: String::new(),
                    game_id: game_id.to_string(),
                    actor: Some(pb::Actor { kind: pb::actor::Kind::System as i32, id: "gateway".into() }),
                    correlation_id: String::new(),
                    command: Some(pb::game_command::Command::Get(pb::GetGameRequest { game_id: game_id.to_string() })),
                };
                match request_over(bus, *timeout, &command, &[]).await?.outcome {
                    Some(pb::game_command_reply::Outcome::View(v)) => Ok(v),
                    other => convert::reply_from_pb(pb::GameCommandReply { outcome: other })
                        .and_then(|_| Err(GameError::Internal("a view request was answered with events".into()))),
                }
            }
        }
    }
}

async fn request_over(
    bus: &AnyBus,
    timeout: Duration,
    command: &pb::GameCommand,
    headers: &[(String, String)],
) -> Result<pb::GameCommandReply, GameError> {
    let mut msg = BusMessage::new(command.encode_to_vec());
    for (k, v) in headers {
        msg = msg.with_header(k.clone(), v.clone());
    }
    let reply = bus
        .request("games", &command.game_id, msg, timeout)
        .await
        .map_err(|e: BusError| GameError::Unavailable(format!("game service unavailable: {e}")))?;
    pb::GameCommandReply::decode(reply.payload).map_err(|e| GameError::Unavailable(format!("malformed reply: {e}")))
}
