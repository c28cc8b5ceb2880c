//! Test support for weiqi: real `nats-server` and `redis-server` processes, and one skip policy.
//!
//! Every test in the workspace that needs something outside Rust (a server, `gnugo`, the game
//! corpus) goes through this crate, so that all of them follow the same rule:
//!
//! * the tool is found through an environment variable (`$WEIQI_NATS_SERVER`,
//!   `$WEIQI_REDIS_SERVER`, `$WEIQI_CORPUS`, …), else on `PATH` (plus a few extra directories
//!   for tools such as `gnugo` that Debian puts in `/usr/games`);
//! * if it is missing, the test prints a notice on stderr and **skips** (returns early);
//! * unless `WEIQI_REQUIRE_EXTERNAL=1` is set (CI sets it), in which case a missing tool
//!   **fails** the test with a message that says how to install it.
//!
//! A tool that is found but fails to start is always a failure: it is a real problem, not an
//! absent optional dependency.
//!
//! # Example
//!
//! ```no_run
//! use weiqi_testkit::{NatsServer, require};
//!
//! #[tokio::test]
//! async fn survives_a_restart() {
//!     let mut nats = require!(NatsServer::start());
//!     let client = async_nats::connect(nats.url()).await.unwrap();
//!     // … publish something …
//!     nats.kill(); // SIGKILL, like `kill -9`
//!     nats.restart().unwrap(); // same port, same store directory
//!     // … the client reconnects by itself; the data is still there …
//!     # drop(client);
//! }
//! # fn main() {}
//! ```
//!
//! The server handles are synchronous (starting a server takes tens of milliseconds and the
//! readiness wait polls with short sleeps), so they work from plain `#[test]`s and from
//! `#[tokio::test]`s alike; [`NatsServer::start_async`] and friends wait with `tokio::time`
//! instead of blocking the runtime thread, for tests that must keep other tasks running while a
//! server (re)starts.
//!
//! # Invariants
//!
//! * A started server listens on 127.0.0.1 only, on a port that was free when it started, with
//!   its data in a temporary directory that is removed when the handle is dropped.
//! * Dropping a handle kills its process (SIGKILL) and reaps it: no server outlives its test.
//! * `restart` reuses the port and the data directory, so clients reconnect to the same URL and
//!   find the data they wrote before the kill.

mod external;
mod nats;
pub mod otlp;
mod process;
mod redis;

pub use external::{ExternalError, corpus_dir, external_tool, require_external, skip_or_fail, skip_reason};
pub use nats::{NatsServer, NatsServerVersion};
pub use redis::{RedisPersistence, RedisServer};

/// Unwraps a `Result<T, ExternalError>` or applies the skip policy: on a missing tool the
/// enclosing test prints a notice and returns (or panics under `WEIQI_REQUIRE_EXTERNAL=1`).
///
/// Use it at the top of a test function that returns `()`:
///
/// ```no_run
/// # use weiqi_testkit::{RedisServer, require};
/// # fn t() {
/// let redis = require!(RedisServer::start());
/// # }
/// ```
#[macro_export]
macro_rules! require {
    ($result:expr) => {
        match $crate::skip_or_fail($result) {
            ::core::option::Option::Some(value) => value,
            ::core::option::Option::None => return,
        }
    };
}

/// Starts a JetStream-enabled `nats-server`, or applies the skip policy (`None` = skip).
pub fn nats_or_skip() -> Option<NatsServer> {
    skip_or_fail(NatsServer::start())
}

/// Starts a `redis-server` without persistence, or applies the skip policy (`None` = skip).
pub fn redis_or_skip() -> Option<RedisServer> {
    skip_or_fail(RedisServer::start())
}
