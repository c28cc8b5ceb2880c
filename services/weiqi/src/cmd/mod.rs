//! One file per command.

pub mod account;
pub mod bot;
pub mod cert;
pub mod export;
pub mod gtp;
pub mod play;
pub mod sgf;
pub mod token;
