//! Identifiers and actors.

use std::fmt;

/// A game's id (a UUID, or a deterministic id chosen by a tournament).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub String);

/// A player's id in the registry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub String);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who issues a command (and so who is recorded on its events).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Actor {
    /// A player, by id.
    Player(PlayerId),
    /// A referee of the game's event.
    Referee(String),
    /// The chief referee (needed for one-sided clock corrections, Art. 22.8).
    ChiefReferee(String),
    /// An organiser of the game's event.
    Organiser(String),
    /// A service: the clock service flagging, a tournament pairing, the scheduler.
    System(String),
}

impl Actor {
    /// Whether this actor may take referee actions.
    pub fn is_referee(&self) -> bool {
        matches!(self, Actor::Referee(_) | Actor::ChiefReferee(_) | Actor::Organiser(_))
    }

    /// Whether this actor may see what players and the public may not yet (the nigiri secret before it
    /// is revealed, a sealed move before resumption): referees and the platform's own services.
    pub fn sees_hidden(&self) -> bool {
        self.is_referee() || matches!(self, Actor::System(_))
    }

    /// The id, whatever the role.
    pub fn id(&self) -> &str {
        match self {
            Actor::Player(p) => &p.0,
            Actor::Referee(s) | Actor::ChiefReferee(s) | Actor::Organiser(s) | Actor::System(s) => s,
        }
    }
}
