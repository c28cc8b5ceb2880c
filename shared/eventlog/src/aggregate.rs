//! Names of logs: aggregate kinds, aggregate ids, command ids, positions.

use std::fmt;
use std::sync::Arc;

/// The kind of an aggregate. Each kind is one log (one JetStream stream, one redb table set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AggregateKind {
    /// A game: setup, moves, referee actions, scoring, result.
    Game,
    /// A tournament: entries, rounds, pairings, results.
    Tournament,
    /// A player: registration, rating and rank history.
    Player,
    /// A rank certification (promotion) case.
    Case,
    /// A person's account: created, password set, roles granted or revoked, disabled, API tokens.
    Account,
    /// The site's settings (one aggregate, `settings`).
    Site,
    /// An archived game: a historical record brought in by `weiqi sgf import`, one event each. Its
    /// own kind, so that no live game follower (clocks, tournaments, ratings) ever reads one.
    Archive,
    /// A game's chat (id: the game's id) and the chat's moderation (id `moderation`). Its own kind, so
    /// that no game follower reads a message and a chat never slows a game's log.
    Chat,
}

impl AggregateKind {
    /// Every kind, in a fixed order.
    pub const ALL: [AggregateKind; 8] =
        [Self::Game, Self::Tournament, Self::Player, Self::Case, Self::Account, Self::Site, Self::Archive, Self::Chat];

    /// The lower-case name used in subjects and file tables: `game`, `tournament`, …
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Game => "game",
            Self::Tournament => "tournament",
            Self::Player => "player",
            Self::Case => "case",
            Self::Account => "account",
            Self::Site => "site",
            Self::Archive => "archive",
            Self::Chat => "chat",
        }
    }

    /// The inverse of [`as_str`](Self::as_str).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for AggregateKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a name (aggregate id, command id, bus key) is not acceptable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidName {
    /// The name is empty.
    #[error("empty name")]
    Empty,
    /// The name is longer than [`MAX_NAME_LEN`] bytes.
    #[error("name of {0} bytes is longer than {MAX_NAME_LEN}")]
    TooLong(usize),
    /// The name has a character outside `A-Z a-z 0-9 _ -`.
    #[error("character {0:?} not allowed (only A-Z a-z 0-9 _ -)")]
    BadCharacter(char),
}

/// The longest aggregate id, command id or bus key, in bytes.
pub const MAX_NAME_LEN: usize = 128;

/// Checks a name that becomes one subject token or one header value.
pub(crate) fn check_name(name: &str) -> Result<(), InvalidName> {
    if name.is_empty() {
        return Err(InvalidName::Empty);
    }
    if name.len() > MAX_NAME_LEN {
        return Err(InvalidName::TooLong(name.len()));
    }
    match name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-')) {
        Some(c) => Err(InvalidName::BadCharacter(c)),
        None => Ok(()),
    }
}

/// The id of one aggregate within its kind, e.g. a game's UUID. Cheap to clone.
///
/// Only `A-Z a-z 0-9 _ -`, 1 to 128 bytes: it is one NATS subject token.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AggregateId(Arc<str>);

impl AggregateId {
    /// Validates `id`.
    pub fn new(id: impl AsRef<str>) -> Result<Self, InvalidName> {
        check_name(id.as_ref())?;
        Ok(Self(Arc::from(id.as_ref())))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AggregateId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The id of a command (a client's request id). Appending twice with the same command id
/// appends once. Must be unique per aggregate kind (use a UUID).
///
/// Only `A-Z a-z 0-9 _ -`, 1 to 128 bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CommandId(Arc<str>);

impl CommandId {
    /// Validates `id`.
    pub fn new(id: impl AsRef<str>) -> Result<Self, InvalidName> {
        check_name(id.as_ref())?;
        Ok(Self(Arc::from(id.as_ref())))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CommandId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Bits of a [`Position`] that number the events inside one append batch.
const INDEX_BITS: u32 = 16;

/// The most events one append may carry.
pub const MAX_BATCH_EVENTS: usize = (1 << INDEX_BITS) - 1;

/// Where an event is in the log of its kind: strictly increasing in log order, not dense.
///
/// A position is `(batch number << 16) | index in batch`, where the batch number is the
/// JetStream stream sequence (or the embedded log's batch counter). Resume a follower with
/// `follow(kind, last_seen.next())`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Position(u64);

impl Position {
    /// The beginning of every log.
    pub const START: Position = Position(0);

    /// A position from its raw value (as stored by a checkpoint).
    pub const fn from_raw(raw: u64) -> Self {
        Self(raw)
    }

    /// The raw value, for checkpoints.
    pub const fn raw(self) -> u64 {
        self.0
    }

    /// The position right after this one: where to resume after handling this event.
    pub const fn next(self) -> Self {
        Self(self.0 + 1)
    }

    /// Whether this [`crate::EventLog::head`] answer is that of a log with no event yet (both logs
    /// number batches from 1, so an empty log's head is batch 1, not [`Position::START`]). A
    /// follower that waited for an event before such a head would wait for the next append.
    pub const fn is_empty_head(self) -> bool {
        self.batch() <= 1
    }

    /// Whether this position is in the last batch before `head` (an [`crate::EventLog::head`] answer)
    /// or later. A follower from the start that reaches such an event has seen everything `head`
    /// covered once that batch's events have arrived (they are delivered together).
    pub const fn reaches(self, head: Position) -> bool {
        self.batch() + 1 >= head.batch()
    }

    pub(crate) const fn of(batch: u64, index: usize) -> Self {
        Self((batch << INDEX_BITS) | index as u64)
    }

    /// The batch (the append: JetStream stream sequence, or the embedded log's batch number) this
    /// position falls in. The events of one append share it.
    pub const fn batch(self) -> u64 {
        self.0 >> INDEX_BITS
    }

    /// The index inside the batch.
    pub const fn index(self) -> usize {
        (self.0 & ((1 << INDEX_BITS) - 1)) as usize
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.batch(), self.index())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_accept_subject_safe_tokens_only() {
        let long = "x".repeat(MAX_NAME_LEN + 1);
        let table: [(&str, Result<(), InvalidName>); 7] = [
            ("0b6f3c2e-9d1a-4e5f-8a7b-1c2d3e4f5a6b", Ok(())),
            ("game_1", Ok(())),
            ("", Err(InvalidName::Empty)),
            ("a.b", Err(InvalidName::BadCharacter('.'))),
            ("a*", Err(InvalidName::BadCharacter('*'))),
            ("a b", Err(InvalidName::BadCharacter(' '))),
            (&long, Err(InvalidName::TooLong(MAX_NAME_LEN + 1))),
        ];
        for (name, expected) in table {
            assert_eq!(AggregateId::new(name).map(|_| ()), expected, "{name:?}");
            assert_eq!(CommandId::new(name).map(|_| ()), expected, "{name:?}");
        }
    }

    #[test]
    fn positions_order_by_batch_then_index() {
        let a = Position::of(7, 0);
        let b = Position::of(7, 2);
        let c = Position::of(8, 0);
        assert!(Position::START < a && a < b && b < c);
        assert_eq!((b.batch(), b.index()), (7, 2));
        assert_eq!(a.next(), Position::of(7, 1));
        assert_eq!(Position::of(7, MAX_BATCH_EVENTS).next().batch(), 8);
    }

    #[test]
    fn kinds_round_trip_through_their_names() {
        for kind in AggregateKind::ALL {
            assert_eq!(AggregateKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(AggregateKind::parse("games"), None);
    }
}
