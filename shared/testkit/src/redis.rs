//! A real `redis-server` for tests.

use std::path::PathBuf;
use std::process::Command;

use tempfile::TempDir;

use crate::ExternalError;
use crate::external::find_program;
use crate::process::{Probe, Process, free_port, log_tail, resp_command, wait_ready, wait_ready_async};

const TOOL: &str = "redis-server";
const HINT: &str = "apt-get install redis-server";

/// Whether Redis keeps its data across a restart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RedisPersistence {
    /// `--save "" --appendonly no`: nothing survives a restart (read models are rebuildable).
    #[default]
    None,
    /// `--appendonly yes --appendfsync always`: every write survives `kill -9`.
    AppendOnly,
}

/// A running `redis-server` on 127.0.0.1 with its files in a temporary directory.
#[derive(Debug)]
pub struct RedisServer {
    binary: PathBuf,
    port: u16,
    persistence: RedisPersistence,
    // The process must die before its directory is removed.
    process: Option<Process>,
    dir: TempDir,
}

impl RedisServer {
    /// Starts a server without persistence and waits until it answers `PING`.
    pub fn start() -> Result<Self, ExternalError> {
        Self::start_with(RedisPersistence::None)
    }

    /// Starts a server with the given persistence and waits until it answers `PING`.
    pub fn start_with(persistence: RedisPersistence) -> Result<Self, ExternalError> {
        let mut server = Self::prepare(persistence)?;
        server.spawn()?;
        wait_ready(TOOL, server.probe())?;
        Ok(server)
    }

    /// [`start_with`](Self::start_with), waiting with `tokio::time`.
    pub async fn start_async(persistence: RedisPersistence) -> Result<Self, ExternalError> {
        let mut server = Self::prepare(persistence)?;
        server.spawn()?;
        wait_ready_async(TOOL, server.probe()).await?;
        Ok(server)
    }

    /// The client URL, `redis://127.0.0.1:<port>/`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// The port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The process id, while running.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(Process::id)
    }

    /// Kills the server with SIGKILL and reaps it.
    pub fn kill(&mut self) {
        self.process = None;
    }

    /// Kills the server if it runs and starts it again on the same port and directory.
    pub fn restart(&mut self) -> Result<(), ExternalError> {
        self.kill();
        self.spawn()?;
        wait_ready(TOOL, self.probe())
    }

    /// [`restart`](Self::restart), waiting with `tokio::time`.
    pub async fn restart_async(&mut self) -> Result<(), ExternalError> {
        self.kill();
        self.spawn()?;
        wait_ready_async(TOOL, self.probe()).await
    }

    fn prepare(persistence: RedisPersistence) -> Result<Self, ExternalError> {
        let binary = find_program(TOOL, "WEIQI_REDIS_SERVER", &["/usr/bin", "/usr/sbin"], HINT)?;
        let dir = tempfile::Builder::new()
            .prefix("weiqi-redis-")
            .tempdir()
            .map_err(|e| ExternalError::Failed { tool: TOOL.into(), reason: format!("no temp dir: {e}") })?;
        Ok(Self { binary, port: free_port()?, persistence, process: None, dir })
    }

    fn log_path(&self) -> PathBuf {
        self.dir.path().join("redis.log")
    }

    fn spawn(&mut self) -> Result<(), ExternalError> {
        let mut command = Command::new(&self.binary);
        command
            .arg("--port")
            .arg(self.port.to_string())
            .args(["--bind", "127.0.0.1", "--daemonize", "no", "--save", ""])
            .arg("--dir")
            .arg(self.dir.path())
            .arg("--logfile")
            .arg(self.log_path());
        match self.persistence {
            RedisPersistence::None => command.args(["--appendonly", "no"]),
            RedisPersistence::AppendOnly => command.args(["--appendonly", "yes", "--appendfsync", "always"]),
        };
        self.process = Some(Process::spawn(TOOL, &mut command)?);
        Ok(())
    }

    fn probe(&mut self) -> impl FnMut() -> Probe + '_ {
        move || {
            let log = self.log_path();
            match self.process.as_mut().map(Process::exited) {
                None => Probe::Dead("not running".into()),
                Some(Some(status)) => Probe::Dead(format!("exited with {status}; log:\n{}", log_tail(&log))),
                // While loading its append-only file Redis answers `-LOADING`.
                Some(None) if resp_command(self.port, "PING").as_deref() == Some("+PONG") => Probe::Ready,
                Some(None) => Probe::NotYet,
            }
        }
    }
}
