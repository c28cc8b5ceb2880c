//! `weiqi-chat`: the chat of a game, between its players and among its spectators (issue 32 item 10).
//!
//! * [`domain`] is the pure core: the two rooms of a game and who reads and writes each (the players do
//!   not read the spectators until their game ends), message checks (length, control characters, five
//!   in ten seconds), reports, messages hidden by staff, and the moderation's muted accounts. Every
//!   decision takes the facts about the speaker in this game ([`Speaker`]) that the shell loads.
//! * [`codec`] stores the events as protobuf envelopes (kind `chat`: one aggregate per game, id = the
//!   game's id, and one for the moderation, id [`MODERATION`]): a message is an event in a log of its
//!   own, never in the game's.
//! * [`service`] runs both on the one aggregate runner ([`ChatService`]).
//!
//! The web pages call [`ChatService`] and follow a game's chat log to show it live; what a reader
//! receives is [`Chat::visible`] for them, so the spectators' words never reach a player's page or
//! stream while the game is played.

pub mod codec;
pub mod domain;
pub mod service;

pub use domain::{
    Chat, Command, Event, MODERATION, Message, Moderation, ModerationCommand, ModerationEvent, ModerationRejection,
    Rejection, Room, Speaker,
};
pub use service::{ChatError, ChatService};
