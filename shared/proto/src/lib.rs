//! `weiqi-proto`: the wire contract, generated from `proto/weiqi/v1/*.proto` at build time with
//! `protox` (so no system `protoc` is needed) and `tonic-prost-build`.
//!
//! This crate holds generated code only. Domain types live in the service crates, and each service
//! converts between the two once, in its `convert.rs`.
//!
//! # Invariants
//!
//! * Package `weiqi.v1`; every enum's zero value is `*_UNSPECIFIED`; field numbers are never reused.
//! * Nothing here knows NATS, Redis or any domain rule.

#![allow(missing_docs, clippy::all, clippy::pedantic)]

/// Generated code for package `weiqi.v1`.
pub mod v1 {
    tonic::include_proto!("weiqi.v1");
}

/// The encoded `FileDescriptorSet` of every weiqi proto file, for gRPC server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/weiqi_descriptor.bin"));
