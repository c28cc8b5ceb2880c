//! `weiqi-proto`: the wire contract, generated from `proto/weiqi/v1/*.proto` at build time with
//! `protox` (so no system `protoc` is needed) and `tonic-prost-build`.
//!
//! This crate holds generated code, the names of the events one service publishes for others, and
//! [`codec`]: what every service's log codec shares (the error of a stored message that does not read
//! back, enum tables, required fields). Domain types live in the service crates, and each service
//! converts between the two once, at its edge.
//!
//! # Invariants
//!
//! * Package `weiqi.v1`; every enum's zero value is `*_UNSPECIFIED`; field numbers are never reused.
//! * Nothing here knows NATS, Redis or any domain rule.

/// Generated code for package `weiqi.v1`.
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod v1 {
    tonic::include_proto!("weiqi.v1");
}

pub mod codec;

/// Type names of the events one service publishes for others to read: the names are the contract, so
/// they live here with the messages rather than in the publishing service's crate.
pub mod event_types {
    /// A tournament's official results (the whole payload is `weiqi.v1.TournamentResultsPublished`),
    /// written by the tournament service and read by the ranking service.
    pub const TOURNAMENT_RESULTS_PUBLISHED: &str = "weiqi.v1.TournamentResultsPublished";
}

/// The encoded `FileDescriptorSet` of every weiqi proto file, for gRPC server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/weiqi_descriptor.bin"));
