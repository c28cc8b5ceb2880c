//! A GTP engine as a child process: one command at a time, its answer parsed (`= …` or `? …`).

use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How long an engine may think about one command before it is taken for hung. Generous: a
/// `genmove` under a long time control is the engine's own business; this only catches a dead pipe.
const ANSWER_LIMIT: Duration = Duration::from_secs(15 * 60);

/// Why a GTP command did not give an answer.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The engine answered `? message`.
    #[error("the engine refused {command:?}: {message}")]
    Refused { command: String, message: String },
    /// The engine died, closed its output or took too long.
    #[error("the engine is gone ({0})")]
    Gone(String),
}

/// One running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    commands: Vec<String>,
}

impl Engine {
    /// Starts `command` (split as a POSIX shell would, without running a shell) and asks what it
    /// supports.
    pub async fn start(command: &str) -> Result<Engine> {
        let words = shlex::split(command).with_context(|| format!("cannot split the engine command {command:?}"))?;
        let (program, args) = words.split_first().context("the engine command is empty")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("cannot start the engine {program:?}"))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let mut engine = Engine { child, stdin, lines: BufReader::new(stdout).lines(), commands: Vec::new() };
        let listed = engine.send("list_commands").await?;
        engine.commands = listed.lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect();
        Ok(engine)
    }

    /// Whether the engine lists `command`.
    pub fn knows(&self, command: &str) -> bool {
        self.commands.iter().any(|c| c == command)
    }

    /// Sends one command; the answer's text (without `= `), or why there is none.
    pub async fn send(&mut self, command: &str) -> Result<String, EngineError> {
        let gone = |e: &dyn std::fmt::Display| EngineError::Gone(e.to_string());
        self.stdin.write_all(format!("{command}\n").as_bytes()).await.map_err(|e| gone(&e))?;
        self.stdin.flush().await.map_err(|e| gone(&e))?;
        let read = async {
            let mut answer: Option<(bool, String)> = None;
            loop {
                let line = self.lines.next_line().await.map_err(|e| gone(&e))?;
                let Some(line) = line else { return Err(EngineError::Gone("end of output".into())) };
                let line = line.trim_end_matches('\r');
                match &mut answer {
                    None if line.is_empty() => continue,
                    None => {
                        let ok = line.starts_with('=');
                        if !ok && !line.starts_with('?') {
                            continue; // not an answer line (some engines print banners)
                        }
                        // Skip the optional id after the status character.
                        let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                        answer = Some((ok, rest.trim().to_string()));
                    }
                    Some(_) if line.is_empty() => break,
                    Some((_, text)) => {
                        text.push('\n');
                        text.push_str(line);
                    }
                }
            }
            Ok(answer.unwrap_or_default())
        };
        let (ok, text) = tokio::time::timeout(ANSWER_LIMIT, read)
            .await
            .map_err(|_| EngineError::Gone(format!("no answer to {command:?} in {} s", ANSWER_LIMIT.as_secs())))??;
        if ok { Ok(text) } else { Err(EngineError::Refused { command: command.to_string(), message: text }) }
    }

    /// Sends a command whose refusal is not an error worth stopping for (an optional setting).
    pub async fn try_send(&mut self, command: &str) -> Result<Option<String>, EngineError> {
        match self.send(command).await {
            Ok(text) => Ok(Some(text)),
            Err(EngineError::Refused { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Asks the engine to quit and waits a moment for it (then it is killed).
    pub async fn quit(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(2), self.send("quit")).await;
        if tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await.is_err() {
            let _ = self.child.kill().await;
        }
    }
}

/// Fails with the engine's answer if it is not a GTP vertex, `pass` or `resign`.
pub fn parse_genmove(answer: &str, size: u8) -> Result<Generated> {
    let a = answer.trim().to_ascii_lowercase();
    Ok(match a.as_str() {
        "pass" => Generated::Pass,
        "resign" => Generated::Resign,
        v => match weiqi_rules::Point::from_gtp(v, size) {
            Some(p) => Generated::Play(p),
            None => bail!("the engine answered genmove with {answer:?}, not a vertex of a {size}×{size} board"),
        },
    })
}

/// What `genmove` gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generated {
    /// A stone.
    Play(weiqi_rules::Point),
    /// A pass.
    Pass,
    /// Resignation.
    Resign,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genmove_answers_parse() {
        assert_eq!(parse_genmove("D4", 9).unwrap(), Generated::Play(weiqi_rules::Point::from_gtp("D4", 9).unwrap()));
        assert_eq!(parse_genmove("PASS", 9).unwrap(), Generated::Pass);
        assert_eq!(parse_genmove("resign", 19).unwrap(), Generated::Resign);
        assert!(parse_genmove("Z99", 9).is_err());
    }
}
