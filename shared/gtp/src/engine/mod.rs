//! The engine: one game under the configured rules, driven by GTP commands. Each group of commands
//! lives in its own file; this one holds the state and the dispatch table.

mod admin;
mod handicap;
mod moves;
mod queries;
mod records;
mod scoring;
mod setup;
mod showboard;
mod time;

use weiqi_rules::random::SplitMix64;
use weiqi_rules::{Game, Ruleset};

use crate::command::{Command, parse_line};
use crate::config::Config;
use crate::error::CommandError;
use crate::response::Response;

pub use handicap::free_placement;
pub use time::{TimeLeft, TimeSettings};

/// What a command handler returns: the result text, or why it failed.
type Outcome = Result<String, CommandError>;

/// A command handler.
type Handler = fn(&mut Engine, &Command) -> Outcome;

/// Every command the engine knows, in the order `list_commands` gives them.
const COMMANDS: &[(&str, Handler)] = &[
    ("protocol_version", admin::protocol_version),
    ("name", admin::name),
    ("version", admin::version),
    ("known_command", admin::known_command),
    ("list_commands", admin::list_commands),
    ("quit", admin::quit),
    ("boardsize", setup::boardsize),
    ("clear_board", setup::clear_board),
    ("komi", setup::komi),
    ("fixed_handicap", handicap::fixed_handicap),
    ("place_free_handicap", handicap::place_free_handicap),
    ("set_free_handicap", handicap::set_free_handicap),
    ("play", moves::play),
    ("genmove", moves::genmove),
    ("undo", moves::undo),
    ("showboard", queries::showboard),
    ("final_score", scoring::final_score),
    ("final_status_list", scoring::final_status_list),
    ("loadsgf", records::loadsgf),
    ("printsgf", records::printsgf),
    ("time_settings", time::time_settings),
    ("time_left", time::time_left),
    ("is_legal", queries::is_legal),
    ("all_legal", queries::all_legal),
    ("list_stones", queries::list_stones),
    ("captures", queries::captures),
    ("countlib", queries::countlib),
];

/// The default board size, as GTP engines traditionally start.
pub const DEFAULT_SIZE: u8 = 19;

/// A GTP engine over [`weiqi_rules::Game`].
///
/// ```
/// use weiqi_gtp::{Config, Engine};
///
/// let mut engine = Engine::new(Config::default());
/// assert_eq!(engine.execute_line("boardsize 9").unwrap().to_wire(), "= \n\n");
/// assert_eq!(engine.execute_line("1 play black E5").unwrap().to_wire(), "=1 \n\n");
/// assert_eq!(engine.execute_line("2 play white E5").unwrap().to_wire(), "?2 illegal move\n\n");
/// assert_eq!(engine.execute_line("list_stones black").unwrap().to_wire(), "= E5\n\n");
/// ```
#[derive(Debug)]
pub struct Engine {
    config: Config,
    /// The rules of the next game: the configured ones with the komi GTP last set.
    ruleset: Ruleset,
    game: Game,
    rng: SplitMix64,
    time_settings: Option<TimeSettings>,
    time_left: [Option<TimeLeft>; 2],
    quit: bool,
}

impl Engine {
    /// An engine with an empty 19×19 board under `config`.
    pub fn new(config: Config) -> Engine {
        let ruleset = config.ruleset;
        Engine {
            rng: SplitMix64(config.seed),
            game: Game::new(DEFAULT_SIZE, ruleset).expect("19 is a supported size"),
            ruleset,
            config,
            time_settings: None,
            time_left: [None, None],
            quit: false,
        }
    }

    /// The configuration the engine was started with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The game in progress.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The time settings last given by `time_settings`.
    pub fn time_settings(&self) -> Option<TimeSettings> {
        self.time_settings
    }

    /// The time left last reported by `time_left` for a color.
    pub fn time_left(&self, color: weiqi_rules::Color) -> Option<TimeLeft> {
        self.time_left[color.index()]
    }

    /// Whether `quit` has been answered: the session is over.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Whether `name` is a command this engine knows.
    pub fn knows(name: &str) -> bool {
        COMMANDS.iter().any(|(n, _)| *n == name)
    }

    /// The names of every known command, in `list_commands` order.
    pub fn command_names() -> impl Iterator<Item = &'static str> {
        COMMANDS.iter().map(|(n, _)| *n)
    }

    /// Runs one command. Never panics on any command, whatever its arguments.
    pub fn execute(&mut self, command: &Command) -> Response {
        let result = match COMMANDS.iter().find(|(n, _)| *n == command.name) {
            Some((_, handler)) => handler(self, command),
            None => Err(CommandError::UnknownCommand),
        };
        Response { id: command.id, result }
    }

    /// Parses and runs one input line; `None` for a line GTP ignores (empty, comment only).
    pub fn execute_line(&mut self, line: &str) -> Option<Response> {
        parse_line(line).map(|c| self.execute(&c))
    }

    /// Starts a new game on an empty board of `size`, keeping the rules and komi.
    fn new_game(&mut self, size: u8) -> Result<(), CommandError> {
        self.game = Game::new(size, self.ruleset).map_err(|_| CommandError::UnacceptableSize)?;
        Ok(())
    }

    /// Whether no stone is on the board.
    fn board_is_empty(&self) -> bool {
        let board = self.game.board();
        board.stone_count(weiqi_rules::Color::Black) + board.stone_count(weiqi_rules::Color::White) == 0
    }
}
