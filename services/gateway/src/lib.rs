//! `weiqi-gateway`: the gRPC edge every client uses (players, referees, organisers, overlays).
//!
//! * [`auth`]: tokens signed by the server carry the caller's id, roles and events; every RPC checks
//!   them. A player acts only in their own games, a referee on games of their events; broadcasters and
//!   spectators only read.
//! * [`game`]: `weiqi.v1.GameService` over a [`weiqi_game::client::GameClient`] (in process or over
//!   NATS) and the event log (for `Watch`, with sealed moves and nigiri secrets hidden from all but
//!   referees until revealed).
//! * [`error`]: domain rejections become `InvalidArgument`/`FailedPrecondition` (and
//!   `NotFound`/`PermissionDenied`/`AlreadyExists`) with the typed reason in the status details;
//!   infrastructure faults become `Unavailable`. A rejected command appends nothing.
//! * [`server`]: tonic with gRPC-web, server reflection and `grpc.health.v1`; HTTP `/metrics`.
//! * [`overlay`]: for broadcast tools without gRPC, `GET /overlay/{game}/events` (Server-Sent Events of
//!   the game's view, clocks re-sent each second) and `GET /overlay/{game}`, a self-contained page
//!   that draws it; `GET /games/{game}/sgf`, the game record.
//! * [`record`]: a game's SGF record folded from its log (gRPC `GetRecord` and the HTTP route).
//! * [`words`]: results, byo-yomi calls and time systems in words, in zh-CN and en.
//!
//! # Invariants
//!
//! * The gateway never decides game rules: it authenticates, picks the actor from the token, and
//!   forwards. The game service is the only writer of game logs.
//! * Every mutating RPC needs a `request_id`; a retry with the same id appends nothing new.

pub use weiqi_edge::{auth, status as error};
pub mod game;
pub mod info;
pub mod overlay;
pub mod record;
pub mod server;
pub mod words;
