//! # weiqi-tournament: the tournament service
//!
//! (crate documentation completed below)

pub mod aggregate;
pub mod convert;
pub mod directory;
pub mod grpc;
pub mod ids;
pub mod manager;
pub mod memory;
pub mod projector;
pub mod read_model;
pub mod redis_model;
pub mod service;
pub mod bench;
