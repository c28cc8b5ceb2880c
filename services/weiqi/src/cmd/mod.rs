//! One file per command.

pub mod account;
pub mod archive;
pub mod backup;
pub mod bot;
pub mod cert;
pub mod export;
pub mod gtp;
pub mod parquet;
pub mod play;
pub mod sgf;
pub mod source;
pub mod stats;
pub mod token;
