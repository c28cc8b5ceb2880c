//! Promotion rules as data: what an association's rule file says, after validation.
//!
//! Load one with [`crate::load_rules`]; evaluate a player with [`crate::evaluate`]. Grades are kept as
//! positions in the association's [`Ladder`]; `None` stands for "no grade yet", one below the lowest.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::evidence::{EventLevel, EventRef};
use crate::{Ladder, RankMapping};

/// The association a rule file belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Association {
    /// Short id (`cwa`), also in certificates.
    pub id: String,
    /// Full name.
    pub name: String,
}

/// One association's validated rules for one ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct AssociationRules {
    /// Whose rules.
    pub association: Association,
    /// The ladder the rules promote on.
    pub ladder: Ladder,
    /// Rating ↔ grade mappings, one per rating system.
    pub mappings: Vec<RankMapping>,
    /// The promotion rules, in file order.
    pub rules: Vec<PromotionRule>,
    /// SHA-256 (hex) of the file's text: recorded with every automatic check, for audit.
    pub digest: String,
    /// The rule set's name: its file name when loaded from a directory (`--promotion-rules`),
    /// `built-in/<file>` for the compiled-in examples; recorded with every check.
    pub name: String,
    /// Grades from this one up always need a second reviewer's confirmation, even when the
    /// automatic check supports them (`[association] two_reviewers_from = "6d"`; `None`: only
    /// overrides need two).
    pub two_reviewers_from: Option<String>,
}

impl AssociationRules {
    /// Whether approving `grade` always needs two reviewers under these rules.
    #[must_use]
    pub fn needs_two_reviewers(&self, grade: &str) -> bool {
        match (&self.two_reviewers_from, self.ladder.position(grade)) {
            (Some(from), Some(at)) => self.ladder.position(from).is_some_and(|f| at >= f),
            _ => false,
        }
    }
}

impl AssociationRules {
    /// The mapping for a rating system, if the file gives one.
    #[must_use]
    pub fn mapping(&self, system: &str) -> Option<&RankMapping> {
        self.mappings.iter().find(|m| m.system == system)
    }

    /// The code of the grade at a position (`unranked` for `None`).
    #[must_use]
    pub fn code(&self, position: Option<usize>) -> String {
        position.and_then(|p| self.ladder.grade(p)).map_or_else(|| "unranked".to_owned(), |g| g.code.clone())
    }
}

/// One promotion rule.
#[derive(Clone, Debug, PartialEq)]
pub struct PromotionRule {
    /// Unique id within the file; cited in checks and certificates.
    pub id: String,
    /// Human description.
    pub description: String,
    /// Grades the rule applies to (`None` = unranked). Empty: the grade just below `to` only, or with
    /// `jump`, any grade below `to`.
    pub from: Vec<Option<usize>>,
    /// The grade the rule promotes to.
    pub to: usize,
    /// Whether the rule may skip grades (a jump promotion).
    pub jump: bool,
    /// What must be shown.
    pub kind: RuleKind,
}

/// Which events a rule counts. Every field given must match.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct EventSelector {
    /// The event's kind code.
    pub kind: Option<String>,
    /// The event's level.
    pub level: Option<EventLevel>,
    /// The event's exact name.
    pub name: Option<String>,
}

impl EventSelector {
    /// Whether an event matches.
    #[must_use]
    pub fn matches(&self, event: &EventRef) -> bool {
        self.kind.as_ref().is_none_or(|k| *k == event.kind)
            && self.level.is_none_or(|l| l == event.level)
            && self.name.as_ref().is_none_or(|n| *n == event.name)
    }
}

impl fmt::Display for EventSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(k) = &self.kind {
            parts.push(format!("kind {k}"));
        }
        if let Some(l) = self.level {
            parts.push(format!("level {}", l.name()));
        }
        if let Some(n) = &self.name {
            parts.push(format!("named {n:?}"));
        }
        write!(f, "events of {}", parts.join(", "))
    }
}

/// Placing tier: a place at least this good in matching events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacingTier {
    /// Which events.
    pub events: EventSelector,
    /// Worst place that still counts (3 = top three).
    pub max_place: u32,
}

/// How a quota percentage becomes a number of places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rounding {
    /// Round down ("at most 5%"): the default.
    Floor,
    /// Round up.
    Ceil,
    /// Round half up.
    Nearest,
}

/// Points by the opponent's grade relative to the player's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RelativePoints {
    /// Against a higher grade.
    pub higher: i32,
    /// Against the same grade.
    pub equal: i32,
    /// Against a lower grade (or an opponent outside the ladder).
    pub lower: i32,
}

/// Points for a place in matching events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventPoints {
    /// Which events.
    pub events: EventSelector,
    /// Worst place that earns the points.
    pub max_place: u32,
    /// Points earned.
    pub points: i32,
}

/// The kinds of promotion rule.
#[derive(Clone, Debug, PartialEq)]
pub enum RuleKind {
    /// Dan (or kyu) qualification: at least `min_wins` wins out of `rounds` in a group of a matching event.
    Qualification {
        /// Which events.
        events: EventSelector,
        /// The group within the event (`None`: any group).
        group: Option<String>,
        /// Wins needed.
        min_wins: u32,
        /// Rounds the group plays.
        rounds: u32,
    },
    /// A good enough place in a named national or provincial event (any tier suffices).
    Placing {
        /// The tiers.
        tiers: Vec<PlacingTier>,
    },
    /// Winning a matching event (e.g. the national amateur championship: 7 dan).
    Title {
        /// Which events.
        events: EventSelector,
    },
    /// A quota qualification: the top `percent`% of the participating `of_grade` players qualify
    /// (6 dan: 5% of participating 5-dans).
    Quota {
        /// Which events.
        events: EventSelector,
        /// Percentage, 0 < p ≤ 100.
        percent: f64,
        /// The grade whose participants the percentage is taken of.
        of_grade: usize,
        /// How the quota is rounded.
        rounding: Rounding,
    },
    /// A rating at or above a threshold in a system, with enough rated games.
    Rating {
        /// The system (`glicko2`, `egf`, `elo`).
        system: String,
        /// The threshold.
        min_rating: f64,
        /// Rated games needed.
        min_games: u32,
        /// Highest deviation accepted (Glicko-2: not provisional).
        max_deviation: Option<f64>,
    },
    /// A points table (professional promotion): points from games and event places since the last
    /// promotion, until `needed` is reached.
    Points {
        /// Points needed.
        needed: i32,
        /// Which games count (`None`: all verified games).
        games: Option<EventSelector>,
        /// Points per win.
        win: RelativePoints,
        /// Points per draw.
        draw: RelativePoints,
        /// Points per loss (may be negative).
        loss: RelativePoints,
        /// Points for places.
        places: Vec<EventPoints>,
    },
}

impl RuleKind {
    /// The kind's name in rule files.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            RuleKind::Qualification { .. } => "qualification",
            RuleKind::Placing { .. } => "placing",
            RuleKind::Title { .. } => "title",
            RuleKind::Quota { .. } => "quota",
            RuleKind::Rating { .. } => "rating",
            RuleKind::Points { .. } => "points",
        }
    }
}
