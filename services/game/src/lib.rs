//! `weiqi-game`: the game aggregate.
//!
//! * [`domain`] is pure: `decide(state, actor, command, now) -> events | rejection` and
//!   `GameState::evolve(event)`, over the rules core (legality, captures, hashes, counting) and the
//!   clock core (remaining time, deadlines). Replaying a log re-checks every recorded position hash.
//! * [`convert`] maps domain events and commands to and from `weiqi.v1` protobuf, once.
//! * [`record`] writes a game as an SGF record (players, ranks, rules, handicap, moves, result).
//! * [`service`] runs the domain on an event log: load (cached aggregate + tail of the log) → decide
//!   → append with the expected sequence and the command id → publish; one writer per game in
//!   process, the expected sequence as the backstop across instances; conflicts reload and decide
//!   again; duplicates answer with the original outcome.
//!
//! # Invariants
//!
//! * `domain` imports nothing async and no client library; time is a parameter.
//! * Only `convert.rs` knows protobuf types.
//! * A game whose log does not replay (hash mismatch, illegal move, clock refusal) is never acted on.

pub mod client;
pub mod convert;
pub mod domain;
pub mod record;
pub mod service;
