//! A child process that dies with its handle, free ports, and readiness polling.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::ExternalError;

/// How long a server may take to become ready (JetStream recovery after a kill included).
pub(crate) const READY_TIMEOUT: Duration = Duration::from_secs(20);
/// Pause between two readiness probes.
pub(crate) const PROBE_INTERVAL: Duration = Duration::from_millis(20);

/// A port on 127.0.0.1 that was free a moment ago (the OS picked it for a listener we closed).
pub(crate) fn free_port() -> Result<u16, ExternalError> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .map_err(|e| ExternalError::Failed { tool: "testkit".into(), reason: format!("no free port: {e}") })
}

/// A running child process, killed (SIGKILL) and reaped when dropped.
#[derive(Debug)]
pub(crate) struct Process {
    child: Child,
}

impl Process {
    /// Spawns `command` with its standard streams detached.
    pub(crate) fn spawn(tool: &str, command: &mut Command) -> Result<Self, ExternalError> {
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ExternalError::Failed { tool: tool.to_owned(), reason: format!("cannot spawn: {e}") })?;
        Ok(Self { child })
    }

    /// The process id.
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// `Some(status)` if the process has exited.
    pub(crate) fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // `Child::kill` sends SIGKILL on Unix: the same as `kill -9`, no graceful shutdown.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The last lines of a log file, for error messages.
pub(crate) fn log_tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

/// One HTTP/1.0 GET on loopback; `true` on a 200 answer.
pub(crate) fn http_ok(port: u16, path: &str) -> bool {
    let exchange = || -> std::io::Result<bool> {
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let mut stream = TcpStream::connect_timeout(&addr, Duration::from_millis(200))?;
        stream.set_read_timeout(Some(Duration::from_millis(500)))?;
        write!(stream, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")?;
        let mut answer = String::new();
        stream.read_to_string(&mut answer)?;
        Ok(answer.starts_with("HTTP/1.1 200") || answer.starts_with("HTTP/1.0 200"))
    };
    exchange().unwrap_or(false)
}

/// Sends one inline command to a RESP server (Redis) and returns the first answer line.
pub(crate) fn resp_command(port: u16, command: &str) -> Option<String> {
    let exchange = || -> std::io::Result<String> {
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let mut stream = TcpStream::connect_timeout(&addr, Duration::from_millis(200))?;
        stream.set_read_timeout(Some(Duration::from_millis(500)))?;
        write!(stream, "{command}\r\n")?;
        let mut buf = [0u8; 256];
        let n = stream.read(&mut buf)?;
        Ok(String::from_utf8_lossy(&buf[..n]).lines().next().unwrap_or("").to_owned())
    };
    exchange().ok()
}

/// Outcome of one readiness probe.
pub(crate) enum Probe {
    Ready,
    NotYet,
    Dead(String),
}

/// Polls `probe` until ready, blocking the thread between probes.
pub(crate) fn wait_ready(tool: &str, mut probe: impl FnMut() -> Probe) -> Result<(), ExternalError> {
    let deadline = Instant::now() + READY_TIMEOUT;
    loop {
        match probe() {
            Probe::Ready => return Ok(()),
            Probe::Dead(reason) => return Err(failed(tool, reason)),
            Probe::NotYet if Instant::now() > deadline => {
                return Err(failed(tool, format!("not ready after {READY_TIMEOUT:?}")));
            }
            Probe::NotYet => std::thread::sleep(PROBE_INTERVAL),
        }
    }
}

/// Polls `probe` until ready, sleeping with `tokio::time` between probes (each probe itself is
/// a sub-second loopback exchange).
pub(crate) async fn wait_ready_async(tool: &str, mut probe: impl FnMut() -> Probe) -> Result<(), ExternalError> {
    let deadline = Instant::now() + READY_TIMEOUT;
    loop {
        match probe() {
            Probe::Ready => return Ok(()),
            Probe::Dead(reason) => return Err(failed(tool, reason)),
            Probe::NotYet if Instant::now() > deadline => {
                return Err(failed(tool, format!("not ready after {READY_TIMEOUT:?}")));
            }
            Probe::NotYet => tokio::time::sleep(PROBE_INTERVAL).await,
        }
    }
}

fn failed(tool: &str, reason: String) -> ExternalError {
    ExternalError::Failed { tool: tool.to_owned(), reason }
}
