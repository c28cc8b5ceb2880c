//! `weiqi-edge`: what every gRPC edge of the platform shares, so that services need not depend on the
//! gateway.
//!
//! * [`auth`]: tokens signed by the server (JWT, HS256) with the caller's id, roles and events, and the
//!   checks every RPC makes (`Claims::has`, `Claims::referees`, …).
//! * [`status`]: domain rejections become `InvalidArgument` / `FailedPrecondition` / `NotFound` /
//!   `PermissionDenied` / `AlreadyExists` with the typed reason (`weiqi.v1.Rejection`) in the status
//!   details; infrastructure faults become `Unavailable`.
//! * [`grpc_telemetry`]: every gRPC call a `server` span and counted, timed metrics.
//! * [`limits`]: requests per second per token and per address, calls open per token
//!   (`ResourceExhausted` with `retry-after`).
//! * [`patience`]: the clients' side of the limits, a channel that waits out `retry-after-ms`.
//! * [`serve`]: gRPC with gRPC-web (HTTP/1.1 accepted, `TCP_NODELAY`), the HTTP side, binding.
//! * [`ready`]: readiness (`/readyz`): the event log answers, the followers run and have caught up,
//!   and the process's own checks (Redis) pass; with the `weiqi_ready` and follower-lag gauges.
//!
//! # Invariants
//!
//! * Nothing here decides a rule: it authenticates and maps outcomes to statuses.
//! * A rejection's status always carries the typed rejection in its details.

pub mod auth;
pub mod grpc_telemetry;
pub mod headers;
pub mod limits;
pub mod patience;
pub mod read_your_writes;
pub mod ready;
pub mod serve;
pub mod status;
