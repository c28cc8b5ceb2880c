//! The game service as the edges in this process call it: the gRPC server ([`crate::grpc`]) and the
//! web's pages alike. Over domain types only: a [`Caller`] (what the account allows now), a
//! [`Command`] and what it [`Asks`] of the game, answered with the [`Accepted`] events or an
//! [`ApiError`]. Who may act, and as whom, is decided here once by the game's [`authority`], then the
//! command goes to the game service ([`GameClient`]: in process, or over the bus).
//!
//! No protobuf and no token cross this API: an edge turns its own input (a gRPC request and its
//! bearer token, a page's JSON and its session) into a caller and a command, and the answer back
//! into its own output.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use weiqi_edge::auth::{Claims, Role};
use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, EventLog};

use crate::authority::{self, Asks, Caller, Denied, Table};
use crate::client::GameClient;
use crate::convert;
use crate::domain::{Actor, Command, GameEvent, GameSetup, Recorded, RejectionKind};
use crate::service::{Accepted, GameError, GameRequest};

/// The W3C trace context of the current span, carried into a command's headers.
pub type Trace = Arc<dyn Fn() -> Vec<(String, String)> + Send + Sync>;

/// Why a call was not carried out. Nothing was appended.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// The caller may not do this (the game's authority).
    #[error(transparent)]
    Denied(#[from] Denied),
    /// The game service refused it, or could not be reached.
    #[error(transparent)]
    Game(#[from] GameError),
    /// No such game.
    #[error("no such game")]
    NotFound,
}

impl ApiError {
    /// A stable, machine-readable code.
    pub fn code(&self) -> &str {
        match self {
            ApiError::Denied(d) => d.code(),
            ApiError::Game(e) => e.code(),
            ApiError::NotFound => "not_found",
        }
    }

    /// What kind of refusal this is; `None` for a fault of the infrastructure (unavailable: retry
    /// with the same request id; or a log that does not replay).
    pub fn kind(&self) -> Option<RejectionKind> {
        match self {
            ApiError::Denied(d) if d.is_invalid_argument() => Some(RejectionKind::InvalidArgument),
            ApiError::Denied(_) => Some(RejectionKind::PermissionDenied),
            ApiError::Game(e) => e.kind(),
            ApiError::NotFound => Some(RejectionKind::NotFound),
        }
    }

    fn missing(code: &'static str, what: &str) -> ApiError {
        ApiError::Game(GameError::BadRequest { code, message: format!("{what} is required") })
    }
}

/// The caller as the game's authority knows it: what the account allows now (the claims the token
/// authority verified against the account's standing, for a gRPC token or a page's session alike).
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

/// The game service for the edges: authority first, then the command.
#[derive(Clone)]
pub struct GameApi {
    game: GameClient,
    log: AnyEventLog,
    /// Game id → its table (seats and event, fixed at creation), read once from its log.
    tables: Arc<Mutex<HashMap<String, Table>>>,
    trace: Trace,
}

impl GameApi {
    /// The API over a game client and the log its games are in (for the tables). `trace` returns the
    /// trace context of the current span.
    pub fn new(game: GameClient, log: AnyEventLog, trace: Trace) -> GameApi {
        GameApi { game, log, tables: Arc::new(Mutex::new(HashMap::new())), trace }
    }

    /// The game client behind this API.
    pub fn client(&self) -> &GameClient {
        &self.game
    }

    /// The log the games are in.
    pub fn log(&self) -> &AnyEventLog {
        &self.log
    }

    /// The game's table (seats and event), read from its first event once and kept.
    ///
    /// # Errors
    /// [`ApiError::NotFound`] for no such game; a bad id; unavailable.
    pub async fn table(&self, game_id: &str) -> Result<Table, ApiError> {
        if game_id.is_empty() {
            return Err(ApiError::missing("missing_game_id", "game_id"));
        }
        if let Some(t) = self.tables.lock().expect("tables lock").get(game_id) {
            return Ok(t.clone());
        }
        let id = AggregateId::new(game_id)
            .map_err(|e| GameError::BadRequest { code: "bad_game_id", message: e.to_string() })?;
        let events =
            self.log.read(AggregateKind::Game, &id, 1).await.map_err(|e| GameError::Unavailable(e.to_string()))?;
        let created = events.first().map(convert::decode_recorded).transpose().map_err(GameError::Internal)?;
        let Some(Recorded { event: GameEvent::Created(setup), .. }) = created else {
            return Err(ApiError::NotFound);
        };
        let table = Table::of_setup(&setup);
        self.tables.lock().expect("tables lock").insert(game_id.to_string(), table.clone());
        Ok(table)
    }

    /// As whom `caller` acts on `game_id` when it asks `asks` (seat first, then role and event scope).
    ///
    /// # Errors
    /// [`ApiError::Denied`] with the reason, or the table cannot be read.
    pub async fn actor(&self, caller: &Caller, game_id: &str, asks: Asks) -> Result<Actor, ApiError> {
        let table = self.table(game_id).await?;
        Ok(authority::actor(caller, &table, asks)?)
    }

    /// Whether `caller` sees what the game's players may not yet (the nigiri secret, a sealed move).
    ///
    /// # Errors
    /// The table cannot be read.
    pub async fn sees_hidden(&self, caller: &Caller, game_id: &str) -> Result<bool, ApiError> {
        Ok(authority::sees_hidden(caller, &self.table(game_id).await?))
    }

    /// Runs `command` on `game_id` for `caller`, who asks `asks` of the game: the actor the authority
    /// decides, and the events appended (for a retry with the same request id: appended the first
    /// time).
    ///
    /// # Errors
    /// [`ApiError`]: denied, refused by the game, or unavailable.
    pub async fn act(
        &self,
        caller: &Caller,
        game_id: &str,
        request_id: &str,
        asks: Asks,
        command: Command,
    ) -> Result<(Actor, Accepted), ApiError> {
        let actor = self.actor(caller, game_id, asks).await?;
        let accepted = self.execute(game_id, request_id, "", actor.clone(), command).await?;
        Ok((actor, accepted))
    }

    /// Creates a game with `setup` for `caller` (an organiser or referee of its event, or a player's
    /// offer of a casual game), with `game_id` or a new one: the game's id, the actor and the events.
    ///
    /// # Errors
    /// [`ApiError`]: denied, refused by the game, or unavailable.
    pub async fn create(
        &self,
        caller: &Caller,
        game_id: Option<String>,
        request_id: &str,
        correlation_id: &str,
        setup: GameSetup,
    ) -> Result<(String, Actor, Accepted), ApiError> {
        let actor = authority::creator(caller, game_id.as_deref().unwrap_or_default(), &setup)?;
        let game_id = game_id.filter(|g| !g.is_empty()).unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
        let command = Command::Create { setup: Box::new(setup), nigiri_secret: [0; 32] };
        let accepted = self.execute(&game_id, request_id, correlation_id, actor.clone(), command).await?;
        Ok((game_id, actor, accepted))
    }

    /// Creates the game of a casual challenge that `offerer` made and `accepter` takes up: the offer
    /// (as if the offerer had created it; they must hold the player role now), then the acceptance
    /// (the accepter starts it). Both players' consent is in the two commands, each checked by the
    /// authority. The new game's id.
    ///
    /// # Errors
    /// [`ApiError`]: the offerer may no longer play, a setup the game refuses, or unavailable.
    pub async fn accept_offer(
        &self,
        accepter: &Caller,
        offerer: &Caller,
        game_id: &str,
        request_id: &str,
        setup: GameSetup,
    ) -> Result<String, ApiError> {
        if !offerer.player {
            return Err(Denied::CreateNotAllowed.into());
        }
        let (game_id, _, _) = self.create(offerer, Some(game_id.to_string()), request_id, "", setup).await?;
        let start_id = format!("{request_id}-accept");
        self.act(accepter, &game_id, &start_id, Asks::Start, Command::Start).await?;
        Ok(game_id)
    }

    /// Runs a command as an actor already decided (the authority's answer).
    ///
    /// # Errors
    /// [`ApiError::Game`].
    pub async fn execute(
        &self,
        game_id: &str,
        request_id: &str,
        correlation_id: &str,
        actor: Actor,
        command: Command,
    ) -> Result<Accepted, ApiError> {
        use tracing::Instrument;
        if game_id.is_empty() {
            return Err(ApiError::missing("missing_game_id", "game_id"));
        }
        if request_id.is_empty() {
            return Err(ApiError::Game(GameError::BadRequest {
                code: "missing_request_id",
                message: "request_id is required (a retry reuses it)".into(),
            }));
        }
        let request = GameRequest {
            game_id: game_id.to_string(),
            command_id: request_id.to_string(),
            correlation_id: correlation_id.to_string(),
            actor,
            command,
        };
        let span = tracing::info_span!("edge.command", game = %game_id, request = %request_id);
        async {
            let headers = (self.trace)();
            Ok(self.game.execute(&request, &headers).await?)
        }
        .instrument(span)
        .await
    }
}
