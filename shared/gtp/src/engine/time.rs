//! Time commands: `time_settings` and `time_left`. The random bot answers at once, so it only
//! records what the controller says (readable through [`super::Engine::time_settings`] and
//! [`super::Engine::time_left`]).

use super::{Engine, Outcome};
use crate::args;
use crate::command::Command;
use crate::error::CommandError;

/// Canadian byo-yomi settings as GTP gives them, in whole seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeSettings {
    /// Main time in seconds.
    pub main_time_s: u64,
    /// Byo-yomi period in seconds (0 with 0 stones: no byo-yomi; with main time 0 too: no limit).
    pub byo_yomi_time_s: u64,
    /// Stones to play in each byo-yomi period.
    pub byo_yomi_stones: u64,
}

/// A player's remaining time as `time_left` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// Seconds left in the current period.
    pub time_s: u64,
    /// Stones left to play in the byo-yomi period (0 in main time).
    pub stones: u64,
}

/// `time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES`.
pub(super) fn time_settings(engine: &mut Engine, command: &Command) -> Outcome {
    let n = |i: usize| command.arg(i).and_then(|s| s.parse::<u64>().ok());
    let (Some(main_time_s), Some(byo_yomi_time_s), Some(byo_yomi_stones)) = (n(0), n(1), n(2)) else {
        return Err(CommandError::NotThreeIntegers);
    };
    engine.time_settings = Some(TimeSettings { main_time_s, byo_yomi_time_s, byo_yomi_stones });
    Ok(String::new())
}

/// `time_left COLOR TIME STONES`.
pub(super) fn time_left(engine: &mut Engine, command: &Command) -> Outcome {
    let color = args::color(command.arg(0)).ok_or(CommandError::InvalidColor)?;
    let n = |i: usize| command.arg(i).and_then(|s| s.parse::<u64>().ok());
    let (Some(time_s), Some(stones)) = (n(1), n(2)) else {
        return Err(CommandError::NotTwoIntegers);
    };
    engine.time_left[color.index()] = Some(TimeLeft { time_s, stones });
    Ok(String::new())
}
