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
//!   scope; who may create which game), for the gRPC gateway and the pages alike.
//! * [`record`] writes a game as an SGF record (players, ranks, rules, handicap, moves, result).
//!
//! # Invariants
//!
//! * `domain` imports nothing async and no client library; time is a parameter.
//! * Only `convert/`, `aggregate.rs` (its codec), `client.rs` and `bus.rs` know protobuf types.
//! * A game whose log does not replay (hash mismatch, illegal move, clock refusal) is never acted on.

pub mod aggregate;
pub mod authority;
pub mod bus;
pub mod client;
pub mod convert;
pub mod domain;
pub mod record;
pub mod service;
