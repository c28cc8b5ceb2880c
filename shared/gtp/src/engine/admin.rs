//! Administrative commands: `protocol_version`, `name`, `version`, `known_command`,
//! `list_commands`, `quit`.

use super::{Engine, Outcome};
use crate::command::Command;
use crate::error::CommandError;

/// `protocol_version`: always `2`.
pub(super) fn protocol_version(_: &mut Engine, _: &Command) -> Outcome {
    Ok("2".to_string())
}

/// `name`: the configured name.
pub(super) fn name(engine: &mut Engine, _: &Command) -> Outcome {
    Ok(engine.config.name.clone())
}

/// `version`: the configured version.
pub(super) fn version(engine: &mut Engine, _: &Command) -> Outcome {
    Ok(engine.config.version.clone())
}

/// `known_command NAME`: `true` or `false`.
pub(super) fn known_command(_: &mut Engine, command: &Command) -> Outcome {
    let name = command.arg(0).ok_or(CommandError::MissingCommandName)?;
    Ok(if Engine::knows(name) { "true" } else { "false" }.to_string())
}

/// `list_commands`: one command name per line.
pub(super) fn list_commands(_: &mut Engine, _: &Command) -> Outcome {
    Ok(Engine::command_names().collect::<Vec<_>>().join("\n"))
}

/// `quit`: answered, then the session ends.
pub(super) fn quit(engine: &mut Engine, _: &Command) -> Outcome {
    engine.quit = true;
    Ok(String::new())
}
