//! `weiqi-game`: the game aggregate.
//!
//! * [`domain`] is pure: `decide(state, actor, command, now) -> events | rejection` and
//!   `GameState::evolve(event)`, over the rules core (legality, captures, hashes, counting) and the
//!   clock core (remaining time, deadlines). Replaying a log re-checks every recorded position hash.
//! * [`aggregate`] makes it a [`weiqi_aggregate::Aggregate`]: the one runner caches, catches up,
//!   appends with the expected sequence, retries conflicts and answers duplicates for it.
//! * [`service`] runs it: domain commands in ([`service::GameRequest`]), outcomes out, with the
//!   commands' metrics and traces; [`client`] reaches it in process or over the bus, [`bus`] serves it
//!   on the bus.
//! * [`convert`] maps the domain to and from `weiqi.v1` protobuf, once, split by concept; its
//!   `stored` part decodes and folds stored events for followers (the overlay, the record, the export,
//!   the clock service).
//! * [`authority`] decides who may do what to a game and as whom (seat first, then role and event
//!   scope; who may create which game), for the gRPC server and the pages alike.
//! * [`api`] is what the edges in this process call, over domain types: a caller, a command and what
//!   it asks of the game; the authority decides, then the [`client`] runs it. The web's pages call it
//!   directly (no protobuf, no token round trip); [`grpc`], the `weiqi.v1.GameService` server, turns
//!   each request's token and protobuf into the same call.
//! * [`watch_hub`] follows each watched game once per process for every `Watch` viewer of it.
//! * [`record`] writes a game as an SGF record (players, ranks, rules, handicap, moves, result),
//!   folded from its log for the gRPC `GetRecord` and `GET /games/{id}/sgf`.
//!
//! # Invariants
//!
//! * `domain` imports nothing async and no client library; time is a parameter.
//! * Only `convert/`, `aggregate.rs` (its codec), `client.rs`, `bus.rs`, `grpc.rs` and `watch_hub.rs`
//!   know protobuf types; `api.rs` speaks the domain.
//! * A process follows a watched game's log once, however many watch it.
//! * A game whose log does not replay (hash mismatch, illegal move, clock refusal) is never acted on.

pub mod aggregate;
pub mod api;
pub mod authority;
pub mod bus;
pub mod client;
pub mod convert;
pub mod delayed;
pub mod domain;
pub mod grpc;
pub mod record;
pub mod service;
pub mod watch_hub;
