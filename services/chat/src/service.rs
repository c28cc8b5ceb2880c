//! The chat on an event log: post, report, hide, mute, and the folded chat for a reader. The shell
//! loads the facts about the speaker (seated, staff, the game over: the caller's; muted: the
//! moderation's own log) and runs the pure decisions of [`crate::domain`] on the one runner.

use std::sync::Arc;

use weiqi_aggregate::{Environment, Request, RunError, Runner};
use weiqi_eventlog::EventLog;

use crate::codec::{ChatAggregate, ModerationAggregate};
use crate::domain::{
    Chat, Command, MODERATION, Moderation, ModerationCommand, ModerationRejection, Rejection, Speaker,
};

/// Why a chat command failed. Nothing was appended.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChatError {
    /// Refused by the chat's rules.
    #[error("{0}")]
    Refused(Rejection),
    /// Refused by the moderation's rules.
    #[error("{0}")]
    Moderation(ModerationRejection),
    /// A bad id, a reused request id.
    #[error("{0}")]
    BadRequest(String),
    /// The log is unreachable.
    #[error("unavailable: {0}")]
    Unavailable(String),
}

impl ChatError {
    /// A stable code for clients.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            ChatError::Refused(r) => r.code(),
            ChatError::Moderation(r) => r.code(),
            ChatError::BadRequest(_) => "bad_request",
            ChatError::Unavailable(_) => "unavailable",
        }
    }
}

fn chat_error(e: RunError<Rejection>) -> ChatError {
    match e {
        RunError::Rejected(r) => ChatError::Refused(r),
        RunError::BadId { .. } | RunError::RequestIdReused { .. } => ChatError::BadRequest(e.to_string()),
        other => ChatError::Unavailable(other.to_string()),
    }
}

fn moderation_error(e: RunError<ModerationRejection>) -> ChatError {
    match e {
        RunError::Rejected(r) => ChatError::Moderation(r),
        RunError::BadId { .. } | RunError::RequestIdReused { .. } => ChatError::BadRequest(e.to_string()),
        other => ChatError::Unavailable(other.to_string()),
    }
}

/// Every game's chat and the moderation, on one log.
pub struct ChatService<L: EventLog> {
    chats: Runner<ChatAggregate, L>,
    moderation: Runner<ModerationAggregate, L>,
}

impl<L: EventLog + Clone + 'static> ChatService<L> {
    /// The chat on `log`.
    pub fn new(log: L, env: Arc<dyn Environment>) -> ChatService<L> {
        ChatService { chats: Runner::new(log.clone(), env.clone()), moderation: Runner::new(log, env) }
    }

    /// Whether `account` is muted now.
    ///
    /// # Errors
    /// The log.
    pub async fn muted(&self, account: &str) -> Result<bool, ChatError> {
        self.moderation.read(MODERATION, |m, _| m.muted.contains_key(account)).await.map_err(moderation_error)
    }

    /// The moderation as it stands.
    ///
    /// # Errors
    /// The log.
    pub async fn moderation(&self) -> Result<Moderation, ChatError> {
        self.moderation.read(MODERATION, |m, _| m.clone()).await.map_err(moderation_error)
    }

    /// Runs `command` on `game`'s chat by `who` (whose `muted` is read here, from the moderation).
    ///
    /// # Errors
    /// [`ChatError`].
    pub async fn run(&self, game: &str, request_id: &str, who: &Speaker, command: &Command) -> Result<(), ChatError> {
        let mut who = who.clone();
        who.muted = self.muted(&who.id).await?;
        self.chats.execute(Request::new(game, request_id, &who, command)).await.map_err(chat_error)?;
        Ok(())
    }

    /// Mutes or unmutes an account (staff).
    ///
    /// # Errors
    /// [`ChatError`].
    pub async fn moderate(
        &self,
        request_id: &str,
        who: &Speaker,
        command: &ModerationCommand,
    ) -> Result<(), ChatError> {
        self.moderation.execute(Request::new(MODERATION, request_id, who, command)).await.map_err(moderation_error)?;
        Ok(())
    }

    /// `game`'s chat, folded, and its last sequence.
    ///
    /// # Errors
    /// The log.
    pub async fn chat(&self, game: &str) -> Result<(Chat, u64), ChatError> {
        self.chats.read(game, |c, v| (c.clone(), v)).await.map_err(chat_error)
    }
}
