//! Evidence: a player's verified results, as the ranking service found them in the logs.
//!
//! The pure core never verifies anything itself; it records what the service verified (games from the
//! game logs, placings from the tournament logs, ratings from the rating books) and reasons over it.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{EventId, GameId, Millis, PlayerId};

/// How important an event is, for placing rules ("top 3 in a provincial event").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventLevel {
    /// Club or school.
    Club,
    /// County (县).
    County,
    /// City (市).
    City,
    /// Provincial (省).
    Provincial,
    /// National (全国).
    National,
    /// International or world.
    World,
    /// An online league of the association.
    Online,
}

impl EventLevel {
    /// All levels with their file names.
    pub const ALL: [(&'static str, EventLevel); 7] = [
        ("club", EventLevel::Club),
        ("county", EventLevel::County),
        ("city", EventLevel::City),
        ("provincial", EventLevel::Provincial),
        ("national", EventLevel::National),
        ("world", EventLevel::World),
        ("online", EventLevel::Online),
    ];

    /// The level named in a rule file.
    #[must_use]
    pub fn from_name(name: &str) -> Option<EventLevel> {
        EventLevel::ALL.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
    }

    /// The name used in rule files.
    #[must_use]
    pub fn name(self) -> &'static str {
        EventLevel::ALL.iter().find(|(_, l)| *l == self).map_or("?", |(n, _)| n)
    }
}

/// An event (tournament) that results come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRef {
    /// The tournament's id.
    pub id: EventId,
    /// Its name (`2026 全国业余围棋锦标赛`).
    pub name: String,
    /// Its kind, a free code the association's rules name (`dan-qualification`,
    /// `national-amateur-championship`, `6d-qualification`, `pro-dan-tournament`).
    pub kind: String,
    /// Its level.
    pub level: EventLevel,
}

impl fmt::Display for EventRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name, self.id)
    }
}

/// A game's result from the player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameOutcome {
    /// The player won.
    Win,
    /// Jigo, or a draw by ruling.
    Draw,
    /// The player lost.
    Loss,
}

/// One game of the player, verified against its game log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VerifiedGame {
    /// The game.
    pub game: GameId,
    /// The opponent.
    pub opponent: PlayerId,
    /// The opponent's grade code at the time, if ranked in the same ladder.
    pub opponent_grade: Option<String>,
    /// The result for the player.
    pub outcome: GameOutcome,
    /// When it ended.
    pub at: Millis,
    /// The event it was played in, if any.
    pub event: Option<EventRef>,
}

/// The player's final result in one event (or one group of it), verified against the tournament log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentPlacing {
    /// The event.
    pub event: EventRef,
    /// The group (组) within the event, e.g. the `1d` group of a dan qualification.
    pub group: Option<String>,
    /// Final place, 1 = winner.
    pub place: u32,
    /// Rounds scheduled in the player's group.
    pub rounds: u32,
    /// Games won.
    pub wins: u32,
    /// Number of participants in the player's group.
    pub field: u32,
    /// Participants by grade code (for quotas: how many 5-dans took part).
    pub field_by_grade: BTreeMap<String, u32>,
    /// When the event ended.
    pub at: Millis,
}

/// A rating reading from a rating book.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingSample {
    /// The system (`glicko2`, `egf`, `elo`).
    pub system: String,
    /// The rating.
    pub rating: f64,
    /// Glicko-2 deviation (0 for the others).
    pub deviation: f64,
    /// Rated games counted.
    pub games: u32,
    /// When it was read.
    pub at: Millis,
}

/// One verified item of evidence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "evidence", rename_all = "kebab-case")]
pub enum Evidence {
    /// A game.
    Game(VerifiedGame),
    /// An event result.
    Placing(TournamentPlacing),
    /// A rating.
    Rating(RatingSample),
}

/// Which item of a case's evidence a revision is about: a game, or a placing in an event's group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EvidenceKey {
    /// A game.
    Game(crate::GameId),
    /// A placing: the event and the group.
    Placing(crate::EventId, Option<String>),
}

impl Evidence {
    /// The key a revision finds this item by (`None` for a rating: a reading taken at the check).
    #[must_use]
    pub fn key(&self) -> Option<EvidenceKey> {
        match self {
            Evidence::Game(g) => Some(EvidenceKey::Game(g.game.clone())),
            Evidence::Placing(p) => Some(EvidenceKey::Placing(p.event.id.clone(), p.group.clone())),
            Evidence::Rating(_) => None,
        }
    }

    /// When the evidence happened.
    #[must_use]
    pub fn at(&self) -> Millis {
        match self {
            Evidence::Game(g) => g.at,
            Evidence::Placing(p) => p.at,
            Evidence::Rating(r) => r.at,
        }
    }
}

/// Where the player stands now: their grade and since when (results before that do not count again).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The player.
    pub player: PlayerId,
    /// Their grade code in the rules' ladder; `None` if they have no grade yet.
    pub grade: Option<String>,
    /// When they got it (or registered).
    pub since: Millis,
}
