//! `weiqi.v1.ClockService` at the gateway: `WatchClock`, a game's clock as a stream of ticks.
//!
//! The stream starts with a snapshot read from the game's log (so a watcher sees the clock at once,
//! even between ticks), then relays the ticks the clock service publishes on the bus. It subscribes
//! before it reads the log, so nothing between the snapshot and the first relayed tick is lost, and it
//! drops relayed ticks older than the snapshot. It ends after the tick that shows the clock stopped for
//! good. Any authenticated caller may watch: clocks are public (players, referees, broadcasters'
//! overlays, spectators).
//!
//! Errors: no or bad token, `Unauthenticated`; a bad id, `InvalidArgument` (`bad_game_id`); no such game,
//! `NotFound` (`not_found`); a game played without a clock, `FailedPrecondition` (`no_clock`); the log or
//! the bus unreachable, `Unavailable`. Rejections carry a `weiqi.v1.Rejection` in the status details.

use std::pin::Pin;
use std::sync::Arc;

use futures::{Stream, StreamExt, future::ready, stream};
use prost::Message;
use tonic::{Request, Response, Status};
use weiqi_edge::auth::Authority;
use weiqi_edge::status::gateway_rejection;
use weiqi_eventlog::{AggregateId, AggregateKind, AnyBus, AnyEventLog, Bus, EventLog};
use weiqi_game::convert::decode_recorded;
use weiqi_game::domain::GameState;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::rejection::Kind;

use crate::convert::{self, Reason};
use crate::service::TOPIC;
use weiqi_aggregate::Environment;

use crate::time::SystemClock;

/// The `ClockService` gRPC service (add it to the gateway's routes with
/// `pb::clock_service_server::ClockServiceServer::new(gateway)`).
#[derive(Clone)]
pub struct ClockGateway {
    log: AnyEventLog,
    bus: AnyBus,
    auth: Authority,
    time: Arc<dyn Environment>,
}

impl ClockGateway {
    /// A gateway reading snapshots from `log` (server time from the system clock) and relaying ticks
    /// from `bus`.
    pub fn new(log: AnyEventLog, bus: AnyBus, auth: Authority) -> ClockGateway {
        ClockGateway { log, bus, auth, time: Arc::new(SystemClock) }
    }

    /// The same with an injected time source for the snapshot (tests).
    pub fn with_time_source(mut self, time: Arc<dyn Environment>) -> ClockGateway {
        self.time = time;
        self
    }
}

/// The stream of ticks of one game.
pub type WatchClockStream = Pin<Box<dyn Stream<Item = Result<pb::ClockTick, Status>> + Send>>;

#[tonic::async_trait]
impl pb::clock_service_server::ClockService for ClockGateway {
    type WatchClockStream = WatchClockStream;

    async fn watch_clock(
        &self,
        request: Request<pb::WatchClockRequest>,
    ) -> Result<Response<Self::WatchClockStream>, Status> {
        self.auth.caller(&request)?;
        let token = weiqi_edge::auth::bearer(&request)?.to_string();
        let game_id = request.into_inner().game_id;
        let id = AggregateId::new(&game_id)
            .map_err(|e| gateway_rejection(Kind::InvalidArgument, "bad_game_id", e.to_string()))?;
        let ticks = self.bus.subscribe(TOPIC, Some(&game_id)).await.map_err(|e| Status::unavailable(e.to_string()))?;
        let events =
            self.log.read(AggregateKind::Game, &id, 1).await.map_err(|e| Status::unavailable(e.to_string()))?;
        if events.is_empty() {
            return Err(gateway_rejection(Kind::NotFound, "not_found", format!("no game {game_id}")));
        }
        let mut state = GameState::default();
        for recorded in &events {
            let event = decode_recorded(recorded).map_err(Status::internal)?.event;
            state.evolve(&event).map_err(|e| Status::internal(format!("game {game_id}: {e}")))?;
        }
        let Some(snapshot) = convert::tick(&game_id, &state, self.time.now(), Reason::Snapshot, None) else {
            return Err(gateway_rejection(Kind::FailedPrecondition, "no_clock", "this game is played without a clock"));
        };
        let seen = state.version;
        let live = ticks.filter_map(move |published| {
            ready(pb::ClockTick::decode(published.message.payload).ok().filter(|t| t.sequence >= seen))
        });
        let stream = stream::once(ready(snapshot))
            .chain(live)
            // End after the tick that shows the clock stopped for good.
            .scan(false, |ended, tick| {
                if *ended {
                    return ready(None);
                }
                *ended = convert::is_final(&tick);
                ready(Some(Ok(tick)))
            });
        let stream = self.auth.guard(token, stream, |_| true, |e| Some(Err(Status::from(e))));
        Ok(Response::new(Box::pin(stream)))
    }
}
