//! How a tournament's games are played, as the tournament keeps it (recorded with `Created`), and the
//! game setup of one paired game. Pure.

use weiqi_clock::{DurationMs, TimeControl};
use weiqi_game::domain::{ColorMethod, GameSetup, PlayerRef, SpectatorDelay, TournamentRef};
use weiqi_rules::{Komi, Ruleset};

/// How the games of a tournament are played.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSettings {
    /// The event whose organisers and referees act on the tournament (`None`: the tournament itself).
    pub event_id: Option<String>,
    /// Board size.
    pub size: u8,
    /// The ruleset, with the komi of even games.
    pub ruleset: Ruleset,
    /// The time control.
    pub time_control: TimeControl,
    /// Whether the games are rated.
    pub rated: bool,
    /// Pair the next round as soon as a round is complete.
    pub auto_pair: bool,
    /// Lateness that forfeits a game (Art. 22); `None`: the game service's default.
    pub lateness_limit: Option<DurationMs>,
    /// Do not start the clocks when games are created.
    pub manual_start: bool,
    /// Do not claim no-shows automatically.
    pub no_automatic_no_shows: bool,
    /// How late spectators see the games (`None`: live; issue 34 item 1).
    pub spectator_delay: Option<SpectatorDelay>,
}

impl GameSettings {
    /// The spectators' delay an event gets when it does not choose one: 15 minutes for a rated
    /// event's games (a live public move list is a cheating channel), live for the others.
    #[must_use]
    pub fn default_spectator_delay(rated: bool) -> Option<SpectatorDelay> {
        rated.then_some(SpectatorDelay::RATED_EVENT_DEFAULT)
    }
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            event_id: None,
            size: 19,
            ruleset: Ruleset::chinese(),
            time_control: TimeControl::no_clock(),
            rated: false,
            auto_pair: false,
            lateness_limit: None,
            manual_start: false,
            no_automatic_no_shows: false,
            spectator_delay: None,
        }
    }
}

/// One paired game, as the tournament asks the game service to create it.
#[derive(Clone, Debug, PartialEq)]
pub struct PairedGameSetup {
    /// Black (the paired colors are fixed).
    pub black: PlayerRef,
    /// White.
    pub white: PlayerRef,
    /// Handicap stones of the pairing.
    pub handicap: u8,
    /// The tournament.
    pub tournament: TournamentRef,
    /// The event whose referees act on the game.
    pub event_id: String,
}

impl GameSettings {
    /// The game setup of a paired game: these settings' rules (no komi in a handicap game), time
    /// control and options, the pairing's players, colors and handicap.
    #[must_use]
    pub fn game_setup(&self, game: PairedGameSetup) -> GameSetup {
        let ruleset = if game.handicap == 0 { self.ruleset } else { self.ruleset.with_komi(Komi(0)) };
        GameSetup {
            ruleset,
            size: self.size,
            handicap: game.handicap,
            handicap_points: Vec::new(),
            first: game.black,
            second: game.white,
            color_method: ColorMethod::Fixed,
            time_control: self.time_control.clone(),
            tournament: Some(game.tournament),
            event_id: Some(game.event_id),
            scheduled_start: None,
            rated: self.rated,
            start_immediately: !self.manual_start,
            lateness_limit: self.lateness_limit.unwrap_or(DurationMs::from_hours(1)),
            absence_claim: None,
            offered_by: None,
            spectator_delay: self.spectator_delay,
        }
    }
}
