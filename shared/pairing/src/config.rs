//! A tournament's configuration: its format (Art. 26), points (Art. 27), tie-breaks and options.

use crate::rank::Rank;
use crate::seeding::Seeding;
use crate::standings::TieBreak;
use crate::weights::PairingPolicy;
use serde::{Deserialize, Serialize};

/// Points for one game or one team match (Art. 27: 2/1/0; 3/1/0 where configured, e.g. seed 001).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointSystem {
    /// Points for a win.
    pub win: i64,
    /// Points for a draw.
    pub draw: i64,
    /// Points for a loss (and a forfeit loss).
    pub loss: i64,
}

impl PointSystem {
    /// Art. 27: win 2, draw 1, loss 0.
    pub const TWO_ONE_ZERO: PointSystem = PointSystem { win: 2, draw: 1, loss: 0 };
    /// Seed 001's groups: win 3, draw 1, loss 0.
    pub const THREE_ONE_ZERO: PointSystem = PointSystem { win: 3, draw: 1, loss: 0 };
}

/// How a pairing bye (odd field) scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ByeKind {
    /// Scored as a win.
    FullPoint,
    /// Scored as a draw.
    HalfPoint,
    /// Scored as a loss (an absence the player asked for).
    ZeroPoint,
}

/// McMahon bars: players at or above the top bar all start equal, likewise at or below the bottom bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct McMahonBars {
    /// The top bar.
    pub top: Rank,
    /// The bottom bar.
    pub bottom: Rank,
}

/// How a team's board order is set (Art. 25.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LineUpRule {
    /// 分台定人制: the registered order, fixed for the event (the first `boards` active members).
    FixedOrder,
    /// 临场出人制: a line-up is submitted for each match.
    PerMatch,
}

/// How teams are scheduled against each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TeamSchedule {
    /// Team round robin (Berger tables), `cycles` times.
    RoundRobin {
        /// Cycles (1 single, 2 double, ...).
        cycles: u32,
    },
    /// Team Swiss on match points.
    Swiss {
        /// Rounds to play.
        rounds: u32,
    },
}

/// The formats of Art. 26.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// Knockout: eliminated at `losses` losses (1 single, 2 double, more: multi-loss elimination).
    /// Single elimination uses a seeded bracket with byes for the top seeds; more losses pair the
    /// players with the fewest losses against each other (no rematch where avoidable).
    Knockout {
        /// Losses that eliminate a player.
        losses: u32,
    },
    /// Round robin by Berger tables, `cycles` times (colors reversed in even cycles).
    RoundRobin {
        /// Cycles (1 single, 2 double, ...).
        cycles: u32,
    },
    /// Swiss (积分编排): `rounds` rounds paired on points.
    Swiss {
        /// Rounds to play.
        rounds: u32,
    },
    /// McMahon: paired on McMahon score (initial score from rank between the bars, plus wins).
    McMahon {
        /// Rounds to play.
        rounds: u32,
        /// The bars.
        bars: McMahonBars,
    },
    /// Swiss plus multi-loss elimination (积分编排加淘汰): players with `losses` losses leave; the
    /// active field is kept even by reprieving the best-placed player just eliminated.
    SwissElimination {
        /// Maximum rounds.
        rounds: u32,
        /// Losses that eliminate.
        losses: u32,
    },
    /// A best-of-N match between two players: first to `wins_needed` wins (2 of 3 … 4 of 7);
    /// draws are replayed; colors alternate after a first nigiri.
    Match {
        /// Wins needed (2 for best of 3, 4 for best of 7).
        wins_needed: u32,
    },
    /// A match of a fixed number of games between two players (十番棋, the ten-game match): every game
    /// is played unless one side's lead can no longer be caught; games score on the event's points
    /// (a draw counts for both); the side with more points wins the match, equal points draw it.
    /// Colors alternate after a first nigiri.
    FixedMatch {
        /// Games in the match (10 for a ten-game match).
        games: u32,
    },
    /// Groups in round robin, then a cross knockout of the top `advance` of each group (seed 001).
    GroupsThenKnockout {
        /// Number of groups (snake-seeded by rank).
        groups: u32,
        /// Players advancing from each group (seed 001: 2).
        advance: u32,
    },
    /// Team event: boards per match, line-up rule and schedule; board points make match points.
    Team {
        /// Boards per match.
        boards: u32,
        /// How line-ups are set.
        line_up: LineUpRule,
        /// How teams meet.
        schedule: TeamSchedule,
    },
    /// 全队轮赛制: two teams; every player meets every player of the other team.
    TeamRotation,
    /// 擂台赛: two teams in a fixed order; the loser leaves, the winner meets the next opponent; it ends
    /// when a team's last player loses. A draw sends both players out.
    WinAndContinue,
}

impl Format {
    /// Whether the format pairs teams rather than individuals.
    pub fn is_team(&self) -> bool {
        matches!(self, Format::Team { .. } | Format::TeamRotation | Format::WinAndContinue)
    }

    /// Whether this is a round-robin family format for Art. 28 (withdrawal rulings).
    pub fn is_round_robin(&self) -> bool {
        matches!(self, Format::RoundRobin { .. } | Format::GroupsThenKnockout { .. })
    }

    /// Whether games must be decisive (knockouts: a draw or void game is replayed, so it is not
    /// accepted as a result). The knockout stage of [`Format::GroupsThenKnockout`] also needs one.
    pub fn needs_decisive_games(&self) -> bool {
        matches!(self, Format::Knockout { .. })
    }
}

/// OpenGotha's default seed systems for a format ([`crate::seeding`]): McMahon (and the formats
/// paired by losses) split and random in rounds 1–2, then split and fold; Swiss split and slip.
pub fn default_seeding(format: &Format) -> Seeding {
    match format {
        Format::Swiss { .. } | Format::SwissElimination { .. } => Seeding::OPENGOTHA_SWISS,
        _ => Seeding::OPENGOTHA_MCMAHON,
    }
}

/// Everything an organiser sets when creating a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// Display name.
    pub name: String,
    /// The format.
    pub format: Format,
    /// Points per game (and per team match).
    pub points: PointSystem,
    /// Ranking criteria in order: the first is the primary score (points, the McMahon score or the
    /// Art. 27 total score), the rest are tie-breaks.
    pub ranking: Vec<TieBreak>,
    /// The seed of every random choice (lots, nigiri); recorded in the `Created` event.
    pub seed: u64,
    /// How a pairing bye scores.
    pub pairing_bye: ByeKind,
    /// Pairing criteria options (handicap, club/region separation).
    pub pairing: PairingPolicy,
    /// A player who has not moved this long after the start is forfeited (seed 001: 5 minutes).
    pub no_show_limit_ms: i64,
    /// Withdraw a player after this many no-shows (`None`: never automatically).
    pub withdraw_after_no_shows: Option<u32>,
    /// Whether places may be shared; if not, the recorded lot decides last.
    pub shared_places: bool,
    /// What a round without a game adds to SOSM and SOSOSM (default: the EGF rules).
    #[serde(default)]
    pub unplayed_sosm: UnplayedSosm,
}

/// What a round without a game (bye, absence, voided game) adds to a player's SOSM and SOSOSM
/// ([`crate::standings`] cites the rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnplayedSosm {
    /// The EGF Tournament System Rules (and OpenGotha): the player's own start McMahon score; for
    /// SOSOSM, the start score times the rounds counted.
    #[default]
    StartMms,
    /// The player's own final MMS (SOSOSM: own SOSM), so that a bye neither helps nor hurts.
    OwnFinalMms,
}

impl TournamentConfig {
    /// A configuration with the defaults of the Chinese rules for `format`: 2/1/0 points, the Art. 27
    /// tie-breaks for the format, a full-point pairing bye, even games, 15-minute no-show limit
    /// (Art. 22.2), withdrawal after two no-shows, no shared places.
    pub fn new(name: &str, format: Format, seed: u64) -> TournamentConfig {
        let ranking = crate::standings::default_ranking(&format);
        let pairing = PairingPolicy { seeding: default_seeding(&format), ..PairingPolicy::default() };
        TournamentConfig {
            name: name.to_string(),
            format,
            points: PointSystem::TWO_ONE_ZERO,
            ranking,
            seed,
            pairing_bye: ByeKind::FullPoint,
            pairing,
            no_show_limit_ms: 15 * 60 * 1000,
            withdraw_after_no_shows: Some(2),
            shared_places: false,
            unplayed_sosm: UnplayedSosm::StartMms,
        }
    }

    /// Seed 001's local event: groups in round robin scored 3/1/0, head-to-head first, top two to a
    /// cross knockout, 5 minutes late forfeits.
    pub fn seed_001_local_event(name: &str, groups: u32, seed: u64) -> TournamentConfig {
        let mut c = TournamentConfig::new(name, Format::GroupsThenKnockout { groups, advance: 2 }, seed);
        c.points = PointSystem::THREE_ONE_ZERO;
        c.no_show_limit_ms = 5 * 60 * 1000;
        c
    }
}
