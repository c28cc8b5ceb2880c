//! `weiqi.v1.GameService`, the game's gRPC server: each request's bearer token becomes a
//! [`Caller`] (what the account allows now), its protobuf a domain [`Command`], and both go to the
//! [`GameApi`], where the game's authority decides who may act and as whom, as it does for the web's
//! pages. `Watch` and `MyGames` stream the log, with what the caller may not see redacted; a stream
//! lives only as long as the token's authority does.

use std::pin::Pin;

use futures::{Stream, StreamExt};
use prost::Message;
use tonic::{Request, Response, Status};
use weiqi_edge::auth::{Authority, Claims, Role};
use weiqi_edge::status::{gateway_rejection, rejection_status};
use weiqi_eventlog::{AggregateId, AggregateKind, EventLog};
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_command::Command as C;

use crate::api::{ApiError, GameApi, caller};
use crate::authority::{self, Asks, Denied};
use crate::convert;
use crate::domain::Actor;
use crate::service::{Accepted, GameError};

/// The game RPCs.
#[derive(Clone)]
pub struct GameGrpc {
    api: GameApi,
    auth: Authority,
    hub: std::sync::Arc<crate::watch_hub::WatchHub>,
}

fn invalid(code: &str, message: impl Into<String>) -> Status {
    gateway_rejection(pb::rejection::Kind::InvalidArgument, code, message)
}

fn denied(message: impl Into<String>) -> Status {
    gateway_rejection(pb::rejection::Kind::PermissionDenied, "permission_denied", message)
}

/// The status for a caller the game's authority refuses, with its reason's code.
pub fn denied_status(d: &Denied) -> Status {
    let kind = if d.is_invalid_argument() {
        pb::rejection::Kind::InvalidArgument
    } else {
        pb::rejection::Kind::PermissionDenied
    };
    gateway_rejection(kind, d.code(), d.to_string())
}

/// The status for a game service error: a rejection with its typed reason in the details, a fault as
/// `Unavailable` or `Internal`.
pub fn game_status(e: &GameError) -> Status {
    match convert::error_rejection(e) {
        Some(r) => rejection_status(&r),
        None => match e {
            GameError::Internal(why) => Status::internal(why.clone()),
            _ => Status::unavailable(e.to_string()),
        },
    }
}

/// The status for an API error.
pub fn api_status(e: &ApiError) -> Status {
    match e {
        ApiError::Denied(d) => denied_status(d),
        ApiError::Game(g) => game_status(g),
        ApiError::NotFound => gateway_rejection(pb::rejection::Kind::NotFound, "not_found", "no such game"),
    }
}

fn reply(game_id: &str, actor: &Actor, accepted: &Accepted) -> pb::CommandReply {
    convert::accepted_to_pb(game_id, accepted, actor)
}

fn command(kind: &C) -> Result<crate::domain::Command, Status> {
    match convert::command_from_kind(kind) {
        Ok(Some(c)) => Ok(c),
        Ok(None) => Err(invalid("bad_request", "not a command")),
        Err(e) => Err(invalid("bad_request", e.to_string())),
    }
}

impl GameGrpc {
    /// The game RPCs over the game's API, checking tokens with `auth`.
    pub fn new(api: GameApi, auth: Authority) -> GameGrpc {
        let hub = crate::watch_hub::WatchHub::new(api.log().clone());
        GameGrpc { api, auth, hub }
    }

    /// The API behind the RPCs.
    pub fn api(&self) -> &GameApi {
        &self.api
    }

    async fn view(&self, game_id: &str) -> Result<pb::GameView, Status> {
        self.api.client().view(game_id).await.map_err(|e| game_status(&e))
    }

    async fn command(
        &self,
        claims: &Claims,
        game_id: &str,
        request_id: &str,
        asks: Asks,
        kind: C,
    ) -> Result<Response<pb::CommandReply>, Status> {
        let command = command(&kind)?;
        let (actor, accepted) =
            self.api.act(&caller(claims), game_id, request_id, asks, command).await.map_err(|e| api_status(&e))?;
        Ok(Response::new(reply(game_id, &actor, &accepted)))
    }

    async fn player_command(
        &self,
        claims: &Claims,
        game_id: &str,
        request_id: &str,
        kind: C,
    ) -> Result<Response<pb::CommandReply>, Status> {
        self.command(claims, game_id, request_id, Asks::Play, kind).await
    }
}

type WatchStream = Pin<Box<dyn Stream<Item = Result<pb::EventEnvelope, Status>> + Send>>;
type MyGamesStream = Pin<Box<dyn Stream<Item = Result<pb::MyGame, Status>> + Send>>;

/// The game a `GameCreated` event creates, as `player` sees it (`None`: not seated in it).
fn my_game(envelope: &pb::EventEnvelope, player: &str) -> Option<pb::MyGame> {
    let Some(pb::game_event::Kind::Created(c)) = envelope.event.as_ref().and_then(|e| e.kind.as_ref()) else {
        return None;
    };
    let id_of = |p: &Option<pb::PlayerRef>| p.as_ref().map(|p| p.id.clone()).unwrap_or_default();
    let opponent = if id_of(&c.first) == player {
        c.second.clone()
    } else if id_of(&c.second) == player {
        c.first.clone()
    } else {
        return None;
    };
    Some(pb::MyGame {
        game_id: envelope.game_id.clone(),
        size: c.size,
        ruleset: c.ruleset.clone(),
        time_control: c.time_control,
        tournament_id: c.tournament_id.clone(),
        round: c.round,
        board: c.board,
        created_by: envelope.actor.as_ref().map(|a| a.id.clone()).unwrap_or_default(),
        opponent,
        handicap: c.handicap,
        rated: c.rated,
    })
}

/// Ends `events` right after the game's `GameEnded` (without waiting for another event that will never
/// come), or at once if the game ended before the stream began (`over`).
fn until_game_ends(
    events: impl Stream<Item = Result<pb::EventEnvelope, Status>> + Send + 'static,
    over: bool,
) -> WatchStream {
    let events: WatchStream = Box::pin(events);
    Box::pin(futures::stream::unfold((events, over), |(mut events, done)| async move {
        if done {
            return None;
        }
        let item = events.next().await?;
        let ended = matches!(
            &item,
            Ok(e) if matches!(e.event.as_ref().and_then(|e| e.kind.as_ref()), Some(pb::game_event::Kind::Ended(_)))
        );
        Some((item, (events, ended)))
    }))
}

#[tonic::async_trait]
impl pb::game_service_server::GameService for GameGrpc {
    async fn create_game(
        &self,
        request: Request<pb::CreateGameRequest>,
    ) -> Result<Response<pb::CreateGameResponse>, Status> {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        let setup = convert::setup_from_request(&r).map_err(|e| invalid("bad_request", e.to_string()))?;
        let game_id = Some(r.game_id.clone()).filter(|g| !g.is_empty());
        let (game_id, actor, accepted) = self
            .api
            .create(&caller(&claims), game_id, &r.request_id, &r.correlation_id, setup)
            .await
            .map_err(|e| api_status(&e))?;
        let reply = reply(&game_id, &actor, &accepted);
        Ok(Response::new(pb::CreateGameResponse { game_id, reply: Some(reply) }))
    }

    async fn get_game(&self, request: Request<pb::GetGameRequest>) -> Result<Response<pb::GameView>, Status> {
        let claims = self.auth.caller(&request)?;
        let id = request.into_inner().game_id;
        if id.is_empty() {
            return Err(invalid("missing_game_id", "game_id is required"));
        }
        let view = self.view(&id).await?;
        if view.spectator_delay_minutes == 0 && view.spectator_delay_moves == 0 {
            return Ok(Response::new(view));
        }
        // A delayed game: a spectator's view is folded from what the delay lets them see.
        let aggregate = AggregateId::new(&id).map_err(|e| invalid("bad_game_id", e.to_string()))?;
        let events = self
            .api
            .log()
            .read(AggregateKind::Game, &aggregate, 1)
            .await
            .map_err(|e| Status::unavailable(e.to_string()))?;
        let now = crate::delayed::now_ms();
        let n = crate::delayed::seen_prefix(&events, Some(&caller(&claims)), now).map_err(Status::internal)?;
        if n == events.len() {
            return Ok(Response::new(view));
        }
        let state = crate::delayed::fold_as_seen(&events, Some(&caller(&claims)), now).map_err(Status::internal)?;
        Ok(Response::new(convert::view(&id, &state, state.last_at)))
    }

    async fn get_record(&self, request: Request<pb::GetGameRequest>) -> Result<Response<pb::GameRecord>, Status> {
        use crate::record::RecordError;
        let claims = self.auth.caller(&request)?;
        let game_id = request.into_inner().game_id;
        if game_id.is_empty() {
            return Err(invalid("missing_game_id", "game_id is required"));
        }
        match crate::record::sgf_record(self.api.log(), &game_id, Some(&caller(&claims))).await {
            Ok(sgf) => Ok(Response::new(pb::GameRecord { game_id, sgf })),
            Err(e @ RecordError::BadId(_)) => Err(invalid("bad_game_id", e.to_string())),
            Err(e @ RecordError::NotFound) => {
                Err(gateway_rejection(pb::rejection::Kind::NotFound, "not_found", e.to_string()))
            }
            Err(e @ RecordError::Unavailable(_)) => Err(Status::unavailable(e.to_string())),
            Err(e @ RecordError::Corrupt(_)) => Err(Status::internal(e.to_string())),
        }
    }

    async fn start_game(&self, request: Request<pb::GameRequest>) -> Result<Response<pb::CommandReply>, Status> {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        self.command(&claims, &r.game_id.clone(), &r.request_id.clone(), Asks::Start, C::Start(r)).await
    }

    async fn guess_nigiri(
        &self,
        request: Request<pb::GuessNigiriRequest>,
    ) -> Result<Response<pb::CommandReply>, Status> {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        self.player_command(&claims, &r.game_id.clone(), &r.request_id.clone(), C::GuessNigiri(r)).await
    }

    async fn play_move(&self, request: Request<pb::PlayMoveRequest>) -> Result<Response<pb::CommandReply>, Status> {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        if r.point.is_none() {
            return Err(invalid("missing_point", "point is required (use Pass to pass)"));
        }
        self.player_command(&claims, &r.game_id.clone(), &r.request_id.clone(), C::Play(r)).await
    }

    async fn pass(&self, request: Request<pb::PassRequest>) -> Result<Response<pb::CommandReply>, Status> {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        self.player_command(&claims, &r.game_id.clone(), &r.request_id.clone(), C::Pass(r)).await
    }

    async fn resign(&self, request: Request<pb::GameRequest>) -> Result<Response<pb::CommandReply>, Status> {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        self.player_command(&claims, &r.game_id.clone(), &r.request_id.clone(), C::Resign(r)).await
    }

    async fn mark_dead(&self, request: Request<pb::MarkDeadRequest>) -> Result<Response<pb::CommandReply>, Status> {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        self.player_command(&claims, &r.game_id.clone(), &r.request_id.clone(), C::MarkDead(r)).await
    }

    async fn accept_score(&self, request: Request<pb::GameRequest>) -> Result<Response<pb::CommandReply>, Status> {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        self.player_command(&claims, &r.game_id.clone(), &r.request_id.clone(), C::AcceptScore(r)).await
    }

    async fn dispute_score(&self, request: Request<pb::GameRequest>) -> Result<Response<pb::CommandReply>, Status> {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        self.player_command(&claims, &r.game_id.clone(), &r.request_id.clone(), C::DisputeScore(r)).await
    }

    async fn seal_move(&self, request: Request<pb::SealMoveRequest>) -> Result<Response<pb::CommandReply>, Status> {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        self.player_command(&claims, &r.game_id.clone(), &r.request_id.clone(), C::Seal(r)).await
    }

    async fn request_pass_on_overrun(
        &self,
        request: Request<pb::GameRequest>,
    ) -> Result<Response<pb::CommandReply>, Status> {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        self.player_command(&claims, &r.game_id.clone(), &r.request_id.clone(), C::RequestPassOnOverrun(r)).await
    }

    async fn referee(&self, request: Request<pb::RefereeRequest>) -> Result<Response<pb::CommandReply>, Status> {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        if r.action.is_none() {
            return Err(invalid("missing_action", "a referee request needs an action"));
        }
        self.command(&claims, &r.game_id.clone(), &r.request_id.clone(), Asks::Referee, C::Referee(r)).await
    }

    type WatchStream = WatchStream;
    type MyGamesStream = MyGamesStream;

    async fn my_games(&self, request: Request<pb::MyGamesRequest>) -> Result<Response<Self::MyGamesStream>, Status> {
        let claims = self.auth.caller(&request)?;
        let token = weiqi_edge::auth::bearer(&request)?.to_string();
        if !claims.has(Role::Player) {
            return Err(denied("only players are seated in games; ask with a player token"));
        }
        let player = claims.sub.clone();
        // Every game's log from the start, creations only. (A read model of seats would answer without
        // reading every creation; at the league's scale, a few hundred thousand small events, the
        // follow is cheap enough and needs nothing new to rebuild.)
        let events = self
            .api
            .log()
            .follow(AggregateKind::Game, weiqi_eventlog::Position::START)
            .await
            .map_err(|e| Status::unavailable(e.to_string()))?;
        let created = crate::domain::types::GAME_CREATED;
        let games = events.filter_map(move |item| {
            let out = match item {
                Err(e) => Some(Err(Status::unavailable(e.to_string()))),
                Ok(r) if r.event_type != created => None,
                Ok(r) => match pb::EventEnvelope::decode(r.payload) {
                    Ok(envelope) => my_game(&envelope, &player).map(Ok),
                    Err(e) => Some(Err(Status::internal(format!("stored event: {e}")))),
                },
            };
            std::future::ready(out)
        });
        let games = self.auth.guard(token, games, |c| c.has(Role::Player), |e| Some(Err(Status::from(e))));
        Ok(Response::new(Box::pin(games)))
    }

    async fn watch(&self, request: Request<pb::WatchRequest>) -> Result<Response<Self::WatchStream>, Status> {
        // A game is public: watching needs no token (then nothing hidden is sent, and the gateway
        // counts the stream against its address). A token that is sent must verify.
        let token = weiqi_edge::auth::bearer(&request).ok().map(str::to_string);
        let claims = token.as_deref().map(|t| self.auth.verify(t)).transpose()?;
        let r = request.into_inner();
        let id = AggregateId::new(&r.game_id).map_err(|e| invalid("bad_game_id", e.to_string()))?;
        let view = self.view(&r.game_id).await?;
        // Seat first: a referee who plays in this game watches it as a player.
        let table = self.api.table(&r.game_id).await.map_err(|e| api_status(&e))?;
        let sees_all = claims.as_ref().is_some_and(|c| authority::sees_hidden(&caller(c), &table));
        let from = r.from_sequence.max(1);
        // A delayed spectator (issue 34 item 1) gets each event when the game's delay lets it.
        let events =
            self.api.log().read(AggregateKind::Game, &id, 1).await.map_err(|e| Status::unavailable(e.to_string()))?;
        let mut state = crate::domain::GameState::default();
        for e in &events {
            crate::convert::fold_recorded(&mut state, e).map_err(Status::internal)?;
        }
        let delayed = authority::watches_delayed(claims.as_ref().map(caller).as_ref(), &state);
        // One follower of the game in this process, shared by all its viewers.
        let envelopes = self.hub.watch(&r.game_id, id.clone(), if delayed { 1 } else { from }, sees_all);
        let envelopes: crate::watch_hub::Envelopes = if delayed {
            let read = |e: &pb::EventEnvelope| {
                crate::convert::recorded_from_pb(e).map(|d| (d.event, d.at.0)).map_err(|e| e.to_string())
            };
            Box::pin(
                crate::delayed::spectator_stream(envelopes, read)
                    .filter(move |e| std::future::ready(e.as_ref().map_or(true, |e| e.sequence >= from))),
            )
        } else {
            envelopes
        };
        // A game that ended before `from` has nothing more to send.
        let over = view.phase == pb::game_view::Phase::Ended as i32 && from > view.sequence;
        let stream = until_game_ends(envelopes, over);
        let Some(token) = token else { return Ok(Response::new(stream)) };
        // The stream lives as long as the token's authority: a disabled account or a revoked token
        // ends it; a referee who loses the role stops seeing what only referees see.
        let was_referee = sees_all;
        let stream = self.auth.guard(
            token,
            stream,
            move |c| !was_referee || authority::sees_hidden(&caller(c), &table),
            |e| Some(Err(Status::from(e))),
        );
        Ok(Response::new(Box::pin(stream)))
    }
}
