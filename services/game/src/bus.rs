//! The game service on the bus (`weiqi serve game`, multi-node): commands arrive as
//! `weiqi.v1.GameCommand` on `weiqi.cmd.games.<game>` (queue group `weiqi.games`), are decoded once,
//! run, and answered as `weiqi.v1.GameCommandReply`. A `get` is answered with the game's view.

use std::sync::Arc;

use futures::StreamExt;
use prost::Message;
use weiqi_eventlog::{Bus, BusError, BusMessage, EventLog};
use weiqi_proto::v1 as pb;

use crate::convert;
use crate::domain::Actor;
use crate::service::{GameError, GameRequest, GameService};

/// The reply to one wire command.
pub async fn answer<L: EventLog>(
    service: &GameService<L>,
    command: &pb::GameCommand,
    headers: &[(String, String)],
) -> pb::GameCommandReply {
    let decoded = match convert::command_from_pb(command) {
        Ok(d) => d,
        Err(e) => {
            let e = GameError::BadRequest { code: "bad_request", message: e.to_string() };
            return convert::reply_to_pb(&command.game_id, &Err(e), &Actor::System("bus".into()));
        }
    };
    let Some((actor, command_kind)) = decoded else {
        return view_reply(service, &command.game_id).await;
    };
    let request = GameRequest {
        game_id: command.game_id.clone(),
        command_id: command.command_id.clone(),
        correlation_id: command.correlation_id.clone(),
        actor,
        command: command_kind,
    };
    let result = service.execute(&request, headers).await;
    // The bus is internal: the reply keeps everything, and the edge that answers the actor (the gateway)
    // hides what they may not see.
    convert::reply_to_pb(&command.game_id, &result, &Actor::System("bus".into()))
}

/// The view of a game as a reply.
pub async fn view_reply<L: EventLog>(service: &GameService<L>, game_id: &str) -> pb::GameCommandReply {
    let now = service.now();
    match service.read(game_id, |state| convert::view(game_id, state, now)).await {
        Ok(view) => pb::GameCommandReply { outcome: Some(pb::game_command_reply::Outcome::View(view)) },
        Err(e) => convert::reply_to_pb(game_id, &Err(e), &Actor::System("bus".into())),
    }
}

/// Serves commands from the bus until it closes. Each request is handled on its own task; per-game
/// ordering comes from the runner's one writer per game.
pub async fn serve<L: EventLog + 'static, B: Bus>(service: Arc<GameService<L>>, bus: &B) -> Result<(), BusError> {
    let mut requests = bus.serve("games").await?;
    while let Some(request) = requests.next().await {
        let service = service.clone();
        tokio::spawn(async move {
            let headers: Vec<(String, String)> =
                request.message.headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let reply = match pb::GameCommand::decode(request.message.payload.clone()) {
                Ok(cmd) => answer(&service, &cmd, &headers).await,
                Err(e) => {
                    let e = GameError::BadRequest { code: "malformed", message: e.to_string() };
                    convert::reply_to_pb("", &Err(e), &Actor::System("bus".into()))
                }
            };
            let _ = request.respond(BusMessage::new(reply.encode_to_vec())).await;
        });
    }
    Ok(())
}

impl<L: EventLog + 'static> GameService<L> {
    /// Serves commands from the bus until it closes ([`serve`]).
    ///
    /// # Errors
    /// The bus refused the subscription.
    pub async fn serve<B: Bus>(self: Arc<Self>, bus: &B) -> Result<(), BusError> {
        serve(self, bus).await
    }
}
