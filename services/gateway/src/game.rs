//! `weiqi.v1.GameService` at the edge: who may do what, and the game service behind it.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use futures::{Stream, StreamExt};
use prost::Message;
use tonic::{Request, Response, Status};
use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, EventLog};
use weiqi_game::authority::{self, Asks, Caller, Denied, Table};
use weiqi_game::client::GameClient;
use weiqi_game::convert;
use weiqi_game::domain::Actor;
use weiqi_game::service::{GameError, GameRequest};
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_command::Command as C;

use crate::auth::{Authority, Claims, Role};
use crate::error::{gateway_rejection, rejection_status};

/// The game RPCs.
#[derive(Clone)]
pub struct GameGateway {
    game: GameClient,
    log: AnyEventLog,
    auth: Authority,
    /// Game id → its table (seats and event, fixed at creation), read once from its log.
    tables: Arc<Mutex<HashMap<String, Table>>>,
    trace: Arc<dyn Fn() -> Vec<(String, String)> + Send + Sync>,
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

/// The caller as the game's authority knows it: what the token's account allows now (the claims the
/// token authority verified against the account's standing).
pub fn caller(claims: &Claims) -> Caller {
    let holds = |r: Role| claims.roles.contains(&r);
    Caller {
        id: claims.sub.clone(),
        player: holds(Role::Player),
        referee: holds(Role::Referee),
        chief: holds(Role::ChiefReferee),
        organiser: holds(Role::Organiser),
        admin: holds(Role::Admin),
        events: claims.events.clone(),
    }
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

impl GameGateway {
    /// The game RPCs over a game client and the log (for `Watch`). `trace` returns the W3C trace
    /// context of the current span, to carry into the command's headers.
    pub fn new(
        game: GameClient,
        log: AnyEventLog,
        auth: Authority,
        trace: Arc<dyn Fn() -> Vec<(String, String)> + Send + Sync>,
    ) -> GameGateway {
        GameGateway { game, log, auth, tables: Arc::new(Mutex::new(HashMap::new())), trace }
    }

    /// Runs one command for `actor` and answers what `actor` may see of its events.
    async fn execute(
        &self,
        game_id: &str,
        request_id: &str,
        correlation_id: &str,
        actor: Actor,
        kind: &C,
    ) -> Result<pb::CommandReply, Status> {
        use tracing::Instrument;
        if game_id.is_empty() {
            return Err(invalid("missing_game_id", "game_id is required"));
        }
        if request_id.is_empty() {
            return Err(invalid("missing_request_id", "request_id is required (a retry reuses it)"));
        }
        let command = match convert::command_from_kind(kind) {
            Ok(Some(c)) => c,
            Ok(None) => return Err(invalid("bad_request", "not a command")),
            Err(e) => return Err(invalid("bad_request", e.to_string())),
        };
        let request = GameRequest {
            game_id: game_id.to_string(),
            command_id: request_id.to_string(),
            correlation_id: correlation_id.to_string(),
            actor,
            command,
        };
        let span = tracing::info_span!("gateway.command", game = %game_id, request = %request_id);
        async {
            let headers = (self.trace)();
            // Counted and timed per method by the server's layer (`weiqi_edge::grpc_telemetry`).
            self.game
                .execute(&request, &headers)
                .await
                .map(|a| convert::accepted_to_pb(game_id, &a, &request.actor))
                .map_err(|e| game_status(&e))
        }
        .instrument(span)
        .await
    }

    /// The game's table (seats and event), read from its first event once and kept.
    ///
    /// # Errors
    /// `NotFound` for no such game, `Unavailable` when the log cannot be read.
    pub async fn table(&self, game_id: &str) -> Result<Table, Status> {
        if let Some(t) = self.tables.lock().expect("tables lock").get(game_id) {
            return Ok(t.clone());
        }
        let id = AggregateId::new(game_id).map_err(|e| invalid("bad_game_id", e.to_string()))?;
        let events =
            self.log.read(AggregateKind::Game, &id, 1).await.map_err(|e| Status::unavailable(e.to_string()))?;
        let created = events.first().map(convert::decode_recorded).transpose().map_err(Status::internal)?;
        let Some(weiqi_game::domain::Recorded { event: weiqi_game::domain::GameEvent::Created(setup), .. }) = created
        else {
            return Err(gateway_rejection(pb::rejection::Kind::NotFound, "not_found", "no such game"));
        };
        let table = Table::of_setup(&setup);
        self.tables.lock().expect("tables lock").insert(game_id.to_string(), table.clone());
        Ok(table)
    }

    async fn view(&self, game_id: &str) -> Result<pb::GameView, Status> {
        self.game.view(game_id).await.map_err(|e| game_status(&e))
    }

    /// The actor `claims` acts as on `game_id` for `asks`: decided by the game's authority, seat
    /// first, then role and event scope.
    async fn actor(&self, claims: &Claims, game_id: &str, asks: Asks) -> Result<Actor, Status> {
        if game_id.is_empty() {
            return Err(invalid("missing_game_id", "game_id is required"));
        }
        let table = self.table(game_id).await?;
        authority::actor(&caller(claims), &table, asks).map_err(|d| denied_status(&d))
    }

    /// Creates the game of a casual challenge that `challenger` offered in the lobby and the caller
    /// accepted: the challenger's offer (as if the challenger had created it), then the acceptance
    /// (the caller starts it). The web holds the offers; both players' consent is in the two
    /// commands, each checked by the game's authority.
    ///
    /// # Errors
    /// A refusal (the challenger may no longer play, a setup the game refuses), or `Unavailable`.
    pub async fn accept_challenge(
        &self,
        accepter: &Claims,
        challenger: &str,
        request: pb::CreateGameRequest,
    ) -> Result<String, Status> {
        let setup = convert::setup_from_request(&request).map_err(|e| invalid("bad_request", e.to_string()))?;
        // The offer is the challenger's: they must still hold the player role now.
        let offered = self.auth.standing(challenger).is_some_and(|s| !s.disabled && s.roles.contains(&Role::Player));
        if !offered {
            return Err(denied_status(&Denied::CreateNotAllowed));
        }
        let offerer = Caller { id: challenger.to_string(), player: true, ..Caller::default() };
        let game_id =
            if request.game_id.is_empty() { uuid::Uuid::new_v4().to_string() } else { request.game_id.clone() };
        let actor = authority::creator(&offerer, &game_id, &setup).map_err(|d| denied_status(&d))?;
        let (request_id, start_id) = (request.request_id.clone(), format!("{}-accept", request.request_id));
        let correlation = request.correlation_id.clone();
        self.execute(&game_id, &request_id, &correlation, actor, &C::Create(request)).await?;
        let start = pb::GameRequest { game_id: game_id.clone(), request_id: start_id.clone() };
        let actor = self.actor(accepter, &game_id, Asks::Start).await?;
        self.execute(&game_id, &start_id, "", actor, &C::Start(start)).await?;
        Ok(game_id)
    }

    async fn player_command(
        &self,
        claims: &Claims,
        game_id: &str,
        request_id: &str,
        kind: C,
    ) -> Result<Response<pb::CommandReply>, Status> {
        let actor = self.actor(claims, game_id, Asks::Play).await?;
        Ok(Response::new(self.execute(game_id, request_id, "", actor, &kind).await?))
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
impl pb::game_service_server::GameService for GameGateway {
    async fn create_game(
        &self,
        request: Request<pb::CreateGameRequest>,
    ) -> Result<Response<pb::CreateGameResponse>, Status> {
        let claims = self.auth.caller(&request)?;
        let mut r = request.into_inner();
        let setup = convert::setup_from_request(&r).map_err(|e| invalid("bad_request", e.to_string()))?;
        let actor = authority::creator(&caller(&claims), &r.game_id, &setup).map_err(|d| denied_status(&d))?;
        if r.game_id.is_empty() {
            r.game_id = uuid::Uuid::new_v4().to_string();
        }
        let (game_id, request_id, correlation_id) = (r.game_id.clone(), r.request_id.clone(), r.correlation_id.clone());
        let reply = self.execute(&game_id, &request_id, &correlation_id, actor, &C::Create(r)).await?;
        Ok(Response::new(pb::CreateGameResponse { game_id, reply: Some(reply) }))
    }

    async fn get_game(&self, request: Request<pb::GetGameRequest>) -> Result<Response<pb::GameView>, Status> {
        self.auth.caller(&request)?;
        let id = request.into_inner().game_id;
        if id.is_empty() {
            return Err(invalid("missing_game_id", "game_id is required"));
        }
        Ok(Response::new(self.view(&id).await?))
    }

    async fn get_record(&self, request: Request<pb::GetGameRequest>) -> Result<Response<pb::GameRecord>, Status> {
        use crate::record::RecordError;
        self.auth.caller(&request)?;
        let game_id = request.into_inner().game_id;
        if game_id.is_empty() {
            return Err(invalid("missing_game_id", "game_id is required"));
        }
        match crate::record::sgf_record(&self.log, &game_id).await {
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
        let actor = self.actor(&claims, &r.game_id, Asks::Start).await?;
        Ok(Response::new(self.execute(&r.game_id, &r.request_id, "", actor, &C::Start(r.clone())).await?))
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
        let actor = self.actor(&claims, &r.game_id, Asks::Referee).await?;
        Ok(Response::new(self.execute(&r.game_id, &r.request_id, "", actor, &C::Referee(r.clone())).await?))
    }

    type WatchStream = WatchStream;
    type MyGamesStream = MyGamesStream;

    async fn my_games(&self, request: Request<pb::MyGamesRequest>) -> Result<Response<Self::MyGamesStream>, Status> {
        let claims = self.auth.caller(&request)?;
        let token = crate::auth::bearer(&request)?.to_string();
        if !claims.has(Role::Player) {
            return Err(denied("only players are seated in games; ask with a player token"));
        }
        let player = claims.sub.clone();
        // Every game's log from the start, creations only. (A read model of seats would answer without
        // reading every creation; at the league's scale, a few hundred thousand small events, the
        // follow is cheap enough and needs nothing new to rebuild.)
        let events = self
            .log
            .follow(AggregateKind::Game, weiqi_eventlog::Position::START)
            .await
            .map_err(|e| Status::unavailable(e.to_string()))?;
        let created = weiqi_game::domain::types::GAME_CREATED;
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
        let claims = self.auth.caller(&request)?;
        let token = crate::auth::bearer(&request)?.to_string();
        let r = request.into_inner();
        let id = AggregateId::new(&r.game_id).map_err(|e| invalid("bad_game_id", e.to_string()))?;
        let view = self.view(&r.game_id).await?;
        // Seat first: a referee who plays in this game watches it as a player.
        let sees_all = authority::sees_hidden(&caller(&claims), &self.table(&r.game_id).await?);
        let from = r.from_sequence.max(1);
        let events =
            self.log.watch(AggregateKind::Game, &id, from).await.map_err(|e| Status::unavailable(e.to_string()))?;
        let envelopes = events.map(move |item| {
            let recorded = item.map_err(|e| Status::unavailable(e.to_string()))?;
            let mut envelope = pb::EventEnvelope::decode(recorded.payload)
                .map_err(|e| Status::internal(format!("stored event: {e}")))?;
            if !sees_all {
                weiqi_game::convert::redact(&mut envelope);
            }
            Ok(envelope)
        });
        // A game that ended before `from` has nothing more to send.
        let over = view.phase == pb::game_view::Phase::Ended as i32 && from > view.sequence;
        let stream = until_game_ends(envelopes, over);
        // The stream lives as long as the token's authority: a disabled account or a revoked token
        // ends it; a referee who loses the role stops seeing what only referees see.
        let was_referee = sees_all;
        let table = self.table(&r.game_id).await?;
        let stream = self.auth.guard(
            token,
            stream,
            move |c| !was_referee || authority::sees_hidden(&caller(c), &table),
            |e| Some(Err(Status::from(e))),
        );
        Ok(Response::new(Box::pin(stream)))
    }
}
