//! `weiqi-gtp`: a Go Text Protocol (GTP version 2) engine over the weiqi rules core.
//!
//! It is the engine behind `weiqi gtp`, the platform's load-test bot, and the command path of the
//! differential test against GNU Go.
//!
//! * [`parse_line`] turns an input line into a [`Command`] (optional id, name, arguments), after the
//!   preprocessing GTP prescribes: control characters other than tab and newline removed (CR
//!   included), comments from `#` cut, tabs as spaces, empty lines ignored.
//! * [`Engine`] runs commands against one [`weiqi_rules::Game`] under the [`Config`]'s ruleset and
//!   answers a [`Response`], whose [`Response::to_wire`] is the exact text GNU Go would send
//!   (`=id result` or `?id message`, then an empty line).
//! * [`serve`] is the whole session: read lines until `quit` or end of input, answer each.
//!
//! ```
//! use weiqi_gtp::{Config, serve};
//!
//! let input = b"boardsize 5\n1 play black C3\n2 play white C3\nlist_stones black\nquit\n";
//! let mut output = Vec::new();
//! serve(Config::default(), &input[..], &mut output).unwrap();
//! assert_eq!(String::from_utf8(output).unwrap(), "= \n\n=1 \n\n?2 illegal move\n\n= C3\n\n= \n\n");
//! ```
//!
//! # Commands
//!
//! The GTP 2 required and tournament commands: `protocol_version`, `name`, `version`,
//! `known_command`, `list_commands`, `quit`, `boardsize`, `clear_board`, `komi`, `play`, `genmove`,
//! `undo`, `showboard`, `fixed_handicap`, `place_free_handicap`, `set_free_handicap`,
//! `final_score`, `final_status_list`, `loadsgf`, `printsgf`, `time_settings`, `time_left`; and the
//! GNU Go extensions `is_legal`, `all_legal`, `list_stones`, `captures`, `countlib`, whose answers
//! (values, vertex order, upper case, error messages) are GNU Go 3.8's.
//!
//! * `genmove` plays a uniformly random legal move that does not fill one of the mover's own
//!   single-point eyes, chosen by a [`weiqi_rules::random::SplitMix64`] seeded from
//!   [`Config::seed`]; it passes when no such move is left.
//! * `final_score` and `final_status_list alive|dead|seki` judge life and death with
//!   [`weiqi_estimate::estimate`] (Benson's unconditional life, seeded playouts, seki detection) on the
//!   position as it stands, the side to move and the configured rules; the score is the count with the
//!   dead stones removed. The answers are deterministic: the estimator seeds itself from the position.
//! * `place_free_handicap` uses the fixed placement when one exists; beyond nine stones, the star
//!   points and then a balanced spread on the fourth and third lines, as GNU Go places them (its exact
//!   points come from its own evaluation and are not reproduced) ([`free_placement`]).
//! * `loadsgf FILE N` stops before move N, as GNU Go does; the record is replayed under the
//!   engine's rules with the record's size and komi.
//!
//! # Where we differ from GNU Go on purpose
//!
//! * A vertex is one token: GNU Go's `sscanf` also reads `C 3` and `C3x` as C3; we refuse both as
//!   `invalid coordinate` (leading zeros, `c03`, are accepted like GNU Go).
//! * Board sizes run from 2 to 25 (GNU Go: 1 to 19); komi must be a multiple of 0.5.
//! * `set_free_handicap` with a bad list leaves the board empty (GNU Go 3.8 may leave the stones
//!   placed before the bad vertex).
//!
//! # Invariants
//!
//! * No command line, however malformed, panics or stops the engine; only `quit` and end of input
//!   end a session (fuzzed: `fuzz/fuzz_targets/gtp_command.rs`).
//! * A response never contains an empty line before its end, so a controller always reads exactly
//!   one response per command.
//! * The engine is deterministic: the same seed and the same commands give the same answers.

mod args;
mod command;
mod config;
mod engine;
mod error;
mod response;

use std::io::{self, BufRead, Write};

pub use command::{Command, parse_line, preprocess};
pub use config::{Config, ConfigError, parse_ko_rule, parse_komi, parse_suicide};
pub use engine::{DEFAULT_SIZE, Engine, TimeLeft, TimeSettings, free_placement};
pub use error::CommandError;
pub use response::Response;

/// Runs a GTP session: reads commands from `input` line by line, answers each on `output` (flushed
/// after every response), and returns after answering `quit` or at the end of `input`. Input that
/// is not UTF-8 is read lossily; only I/O errors end the session early.
pub fn serve<R: BufRead, W: Write>(config: Config, mut input: R, mut output: W) -> io::Result<()> {
    let mut engine = Engine::new(config);
    let mut line = Vec::with_capacity(256);
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let Some(response) = engine.execute_line(&String::from_utf8_lossy(&line)) else { continue };
        output.write_all(response.to_wire().as_bytes())?;
        output.flush()?;
        if engine.has_quit() {
            return Ok(());
        }
    }
}
