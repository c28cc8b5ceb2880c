//! The three rating systems and their settings: Glicko-2 (default), EGF GoR, Elo.
//!
//! The arithmetic comes from `skillratings` (which reproduces Glickman's worked example and implements the
//! 2021 EGF formula); this module adds the handicap/komi adjustment of [`crate::handicap`], rating
//! periods for Glicko-2 and provisional status.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::egf::{EGFConfig, EGFRating};
use skillratings::elo::{EloConfig, EloRating};
use skillratings::glicko2::{Glicko2Config, Glicko2Rating};

use crate::{GameConditions, Millis};

/// Which system a [`crate::RatingBook`] runs, with its settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "system", rename_all = "kebab-case")]
pub enum RatingSystem {
    /// Glicko-2 with fixed rating periods: the default for online leagues.
    Glicko2(Glicko2Settings),
    /// The EGF GoR formula (2021 revision): a tournament's games are rated together when it finishes,
    /// from the ratings before it (as the EGD does); other games are rated one by one.
    Egf(EgfSettings),
    /// Plain Elo, updated after every game.
    Elo(EloSettings),
}

impl RatingSystem {
    /// A short name: `glicko2`, `egf` or `elo` (used in rule files and rating samples).
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            RatingSystem::Glicko2(_) => "glicko2",
            RatingSystem::Egf(_) => "egf",
            RatingSystem::Elo(_) => "elo",
        }
    }

    /// The rating, deviation and volatility of a player who has never played.
    #[must_use]
    pub fn initial(&self) -> PlayerRating {
        match self {
            RatingSystem::Glicko2(s) => PlayerRating {
                rating: s.initial_rating,
                deviation: s.initial_deviation,
                volatility: s.initial_volatility,
                games: 0,
                period: None,
            },
            RatingSystem::Egf(s) => PlayerRating::plain(s.initial_rating),
            RatingSystem::Elo(s) => PlayerRating::plain(s.initial_rating),
        }
    }

    /// Whether a rating is still provisional under this system's settings.
    #[must_use]
    pub fn is_provisional(&self, r: &PlayerRating) -> bool {
        match self {
            RatingSystem::Glicko2(s) => r.deviation > s.provisional_deviation,
            RatingSystem::Egf(s) => r.games < s.provisional_games,
            RatingSystem::Elo(s) => r.games < s.provisional_games,
        }
    }
}

impl Default for RatingSystem {
    fn default() -> Self {
        RatingSystem::Glicko2(Glicko2Settings::default())
    }
}

/// Glicko-2 settings. Defaults follow Glickman's paper (τ = 0.5, 1500/350/0.06) with weekly periods.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glicko2Settings {
    /// τ, the constraint on volatility change (0.3..1.2 is reasonable).
    pub tau: f64,
    /// Convergence tolerance of the volatility iteration.
    pub convergence_tolerance: f64,
    /// Rating of a new player.
    pub initial_rating: f64,
    /// Rating deviation of a new player; also the ceiling that inactivity decays towards.
    pub initial_deviation: f64,
    /// Volatility of a new player.
    pub initial_volatility: f64,
    /// Length of one rating period.
    pub period_length: Millis,
    /// The instant at which period 0 starts.
    pub period_origin: Millis,
    /// Rating points that one rank of effective handicap is worth.
    pub points_per_rank: f64,
    /// A rating whose deviation is above this is provisional.
    pub provisional_deviation: f64,
}

impl Default for Glicko2Settings {
    fn default() -> Self {
        Glicko2Settings {
            tau: 0.5,
            convergence_tolerance: 0.000_001,
            initial_rating: 1500.0,
            initial_deviation: 350.0,
            initial_volatility: 0.06,
            period_length: Millis::WEEK,
            period_origin: Millis(0),
            points_per_rank: 100.0,
            provisional_deviation: 110.0,
        }
    }
}

impl Glicko2Settings {
    /// The rating period containing the instant `at`.
    #[must_use]
    pub fn period_of(&self, at: Millis) -> i64 {
        let len = self.period_length.0.max(1);
        (at.0 - self.period_origin.0).div_euclid(len)
    }

    /// The first instant after period `period` has ended.
    #[must_use]
    pub fn period_end(&self, period: i64) -> Millis {
        let len = self.period_length.0.max(1);
        Millis(self.period_origin.0.saturating_add(period.saturating_add(1).saturating_mul(len)))
    }

    pub(crate) fn config(&self) -> Glicko2Config {
        Glicko2Config { tau: self.tau, convergence_tolerance: self.convergence_tolerance }
    }
}

/// EGF GoR settings. The formula's constants are the published ones and are not configurable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EgfSettings {
    /// GoR of a new player without a declared rank (EGF: 0 ≈ 21 kyu; usually seeded from the rank).
    pub initial_rating: f64,
    /// Fewer rated games than this: provisional.
    pub provisional_games: u32,
    /// Rate a tournament's games together when the tournament finishes, every game against the
    /// ratings from before the tournament, and the changes summed (the EGD's method; default). When
    /// off, every game is rated when it ends, from the ratings after the previous game.
    pub rate_by_tournament: bool,
    /// How a game's handicap enters the formula (default: as the EGD counts it).
    pub handicap: EgfHandicap,
}

impl Default for EgfSettings {
    fn default() -> Self {
        EgfSettings { initial_rating: 0.0, provisional_games: 10, rate_by_tournament: true, handicap: EgfHandicap::Egd }
    }
}

/// How EGF GoR counts a handicap game (issue 15 item 10).
///
/// The EGD raises the receiver's GoR by `100 · (H − 0.5)` for a game of `H` handicap stones, whatever
/// the komi and whatever the rules return to White for the stones: a two-stone game under Chinese
/// rules counts 150 points. [`EgfHandicap::Egd`] does exactly that, so ratings computed here agree
/// with the EGD's (the default). [`EgfHandicap::Effective`] is the model the other systems use
/// ([`crate::handicap`]): the receiver is raised by `100 · h` for the *effective* handicap `h`, which
/// also prices komi and the Chinese compensation (a two-stone Chinese game: 135.7 points, since White
/// gets two points back). It is the better estimate of the game's real odds when komi varies, but
/// its ratings drift from the EGD's; an association that reports to the EGD keeps the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EgfHandicap {
    /// The EGD's count: `H` stones (2–9) raise the receiver by `100 · (H − 0.5)`; a game without
    /// stones and with at most 0.5 komi (让先, "one stone") counts `H = 1`, 50 points; every other
    /// game is even, whatever its komi.
    #[default]
    Egd,
    /// The effective handicap of [`crate::GameConditions::effective_handicap`], komi and compensation
    /// included: `100 · h`.
    Effective,
}

/// Elo settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloSettings {
    /// The K factor.
    pub k: f64,
    /// Rating of a new player.
    pub initial_rating: f64,
    /// Rating points that one rank of effective handicap is worth.
    pub points_per_rank: f64,
    /// Fewer rated games than this: provisional.
    pub provisional_games: u32,
}

impl Default for EloSettings {
    fn default() -> Self {
        EloSettings { k: 32.0, initial_rating: 1000.0, points_per_rank: 100.0, provisional_games: 10 }
    }
}

/// One player's rating in one system. Fields a system does not use stay 0.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
    /// The rating.
    pub rating: f64,
    /// Glicko-2 rating deviation (RD), on the 1500 scale.
    pub deviation: f64,
    /// Glicko-2 volatility σ.
    pub volatility: f64,
    /// Rated games counted so far.
    pub games: u32,
    /// Glicko-2: the last rating period in which the player played (their rating is as of its end).
    pub period: Option<i64>,
}

impl PlayerRating {
    /// Whether two ratings are equal down to the last bit of every number.
    #[must_use]
    pub fn same_bits(&self, other: &PlayerRating) -> bool {
        self.rating.to_bits() == other.rating.to_bits()
            && self.deviation.to_bits() == other.deviation.to_bits()
            && self.volatility.to_bits() == other.volatility.to_bits()
            && self.games == other.games
            && self.period == other.period
    }

    fn plain(rating: f64) -> PlayerRating {
        PlayerRating { rating, deviation: 0.0, volatility: 0.0, games: 0, period: None }
    }

    pub(crate) fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating { rating: self.rating, deviation: self.deviation, volatility: self.volatility }
    }
}

/// The result of a rated game. Other results (both lose, no result, replay) are not rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RatedResult {
    /// Black won.
    BlackWins,
    /// White won.
    WhiteWins,
    /// Jigo (draw).
    Jigo,
}

impl RatedResult {
    /// The outcome from Black's side.
    pub(crate) fn for_black(self) -> Outcomes {
        match self {
            RatedResult::BlackWins => Outcomes::WIN,
            RatedResult::WhiteWins => Outcomes::LOSS,
            RatedResult::Jigo => Outcomes::DRAW,
        }
    }

    /// The outcome from White's side.
    pub(crate) fn for_white(self) -> Outcomes {
        match self {
            RatedResult::BlackWins => Outcomes::LOSS,
            RatedResult::WhiteWins => Outcomes::WIN,
            RatedResult::Jigo => Outcomes::DRAW,
        }
    }
}

/// The `skillratings` EGF handicap of a game seen from Black's side (Black is player one).
///
/// The effective handicap `h` (ranks, Black's favour) enters the published formula the EGF way: the
/// receiver's rating is raised by `100 · h` inside β, which equals `100 · (h_EGF − 0.5)` for `h_EGF`
/// traditional handicap stones. In `skillratings`, a negative handicap means player one receives, and
/// it applies `100 · (|x| − 0.5)`. Seen from White's side the sign flips.
///
/// Under [`EgfHandicap::Egd`] the stones count as the EGD counts them (see there).
fn egf_handicap_for_black(model: EgfHandicap, conditions: &GameConditions) -> f64 {
    if model == EgfHandicap::Egd {
        let stones = match conditions.stones {
            s @ 2.. => f64::from(s),
            _ if conditions.komi <= 0.5 && conditions.komi >= 0.0 => 1.0,
            _ => 0.0,
        };
        // Black receives: a negative handicap for player one; skillratings applies 100 · (H − 0.5).
        return -stones;
    }
    let h = conditions.effective_handicap();
    if h > 0.0 {
        -(h + 0.5)
    } else if h < 0.0 {
        -h + 0.5
    } else {
        0.0
    }
}

/// Rates one game under EGF GoR: returns Black's and White's new ratings.
pub(crate) fn egf_game(
    settings: &EgfSettings,
    black: &PlayerRating,
    white: &PlayerRating,
    result: RatedResult,
    conditions: &GameConditions,
) -> (f64, f64) {
    let (b, w) = skillratings::egf::egf(
        &EGFRating { rating: black.rating },
        &EGFRating { rating: white.rating },
        &result.for_black(),
        &EGFConfig { handicap: egf_handicap_for_black(settings.handicap, conditions) },
    );
    (b.rating, w.rating)
}

/// One game of a tournament from one player's side: the opponent's rating before the tournament,
/// the outcome for the player, and the game's handicap and komi.
pub(crate) struct EgfTournamentGame {
    pub opponent: f64,
    pub outcome: Outcomes,
    pub conditions: GameConditions,
    pub i_am_black: bool,
}

/// Rates a player's tournament under EGF GoR: every game against the opponents' ratings from before
/// the tournament, the changes summed (`skillratings::egf::egf_rating_period`). Returns the new rating.
pub(crate) fn egf_tournament(settings: &EgfSettings, before: f64, games: &[EgfTournamentGame]) -> f64 {
    let results: Vec<(EGFRating, Outcomes, EGFConfig)> = games
        .iter()
        .map(|g| {
            let black_side = egf_handicap_for_black(settings.handicap, &g.conditions);
            let handicap = if g.i_am_black { black_side } else { -black_side };
            (EGFRating { rating: g.opponent }, g.outcome, EGFConfig { handicap })
        })
        .collect();
    skillratings::egf::egf_rating_period(&EGFRating { rating: before }, &results).rating
}

/// Rates one game under Elo, with the effective handicap added to Black's side of the expectation.
pub(crate) fn elo_game(
    settings: &EloSettings,
    black: &PlayerRating,
    white: &PlayerRating,
    result: RatedResult,
    conditions: &GameConditions,
) -> (f64, f64) {
    let shift = conditions.effective_handicap() * settings.points_per_rank;
    let config = EloConfig { k: settings.k };
    let b = EloRating { rating: black.rating };
    let w = EloRating { rating: white.rating };
    // Each side is rated against the other as seen through the handicap: only the difference enters
    // the expectation, so shifting the opponent is exact.
    let (new_black, _) =
        skillratings::elo::elo(&b, &EloRating { rating: white.rating - shift }, &result.for_black(), &config);
    let (_, new_white) =
        skillratings::elo::elo(&EloRating { rating: black.rating + shift }, &w, &result.for_black(), &config);
    (new_black.rating, new_white.rating)
}

/// Glicko-2 decay for `periods` inactive periods: φ ← √(φ² + σ²) each, capped at the initial deviation.
pub(crate) fn glicko2_decay(settings: &Glicko2Settings, r: &PlayerRating, periods: i64) -> PlayerRating {
    let mut out = *r;
    let mut left = periods;
    while left > 0 && out.deviation < settings.initial_deviation {
        let d = skillratings::glicko2::decay_deviation(&out.glicko());
        out.deviation = d.deviation.min(settings.initial_deviation);
        left -= 1;
    }
    out
}

/// One game seen from one player's side in a Glicko-2 period: the opponent as the handicap makes them look.
pub(crate) fn glicko2_opponent(
    settings: &Glicko2Settings,
    opponent: &PlayerRating,
    conditions: &GameConditions,
    i_am_black: bool,
) -> Glicko2Rating {
    let shift = conditions.effective_handicap() * settings.points_per_rank;
    let mut g = opponent.glicko();
    g.rating = if i_am_black { g.rating - shift } else { g.rating + shift };
    g
}
