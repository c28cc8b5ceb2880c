//! Who issues a command to a ranking aggregate.

/// What kind of actor caused an event, as its envelope records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActorKind {
    /// A player.
    Player,
    /// Association staff: organisers, reviewers, administrators.
    Staff,
    /// A service.
    System,
}

/// Who issues a command: its kind and id. (`Debug` is deterministic: it goes into the command digest.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    /// The kind.
    pub kind: ActorKind,
    /// The account or service id.
    pub id: String,
}

impl Actor {
    /// A player.
    pub fn player(id: impl Into<String>) -> Actor {
        Actor { kind: ActorKind::Player, id: id.into() }
    }

    /// A member of staff.
    pub fn staff(id: impl Into<String>) -> Actor {
        Actor { kind: ActorKind::Staff, id: id.into() }
    }

    /// A service.
    pub fn system(id: impl Into<String>) -> Actor {
        Actor { kind: ActorKind::System, id: id.into() }
    }
}
