//! Stopping on SIGTERM or Ctrl-C at every stage: while logs are caught up at start, while serving, and
//! while streams (`Watch`, the overlay's Server-Sent Events) are open.
//!
//! The signal is watched from the first moment of `weiqi up` / `weiqi serve`. On the first signal the
//! servers stop accepting and finish their requests gracefully; open streams that never end by
//! themselves (a live game's `Watch`) are cut after [`GRACE`]. A second signal exits at once. The event
//! log needs no flush: every acknowledged append is already committed, so stopping loses nothing.

use std::future::Future;
use std::time::Duration;

use tokio::sync::watch;

/// How long open requests and streams get to finish after the first signal.
pub const GRACE: Duration = Duration::from_secs(3);

/// The process's stop signal, shared by every server and worker.
#[derive(Clone)]
pub struct Shutdown {
    stopped: watch::Receiver<bool>,
}

impl Shutdown {
    /// Watches SIGTERM and Ctrl-C from now on (needs a running tokio runtime).
    pub fn install() -> Shutdown {
        let (tx, rx) = watch::channel(false);
        tokio::spawn(async move {
            signal().await;
            eprintln!("weiqi: stopping (a second signal stops at once)");
            let _ = tx.send(true);
            signal().await;
            eprintln!("weiqi: stopped at once");
            std::process::exit(130);
        });
        Shutdown { stopped: rx }
    }

    /// Completes when the stop signal has come.
    pub fn signalled(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut rx = self.stopped.clone();
        async move {
            let _ = rx.wait_for(|stopped| *stopped).await;
        }
    }

    /// Runs `work` until it ends, or until [`GRACE`] after the stop signal, whichever is first. `None`
    /// if the grace ran out.
    pub async fn bounded<T>(&self, work: impl Future<Output = T>) -> Option<T> {
        let deadline = {
            let signalled = self.signalled();
            async move {
                signalled.await;
                tokio::time::sleep(GRACE).await;
            }
        };
        tokio::select! {
            out = work => Some(out),
            () = deadline => None,
        }
    }
}

/// Ctrl-C, or SIGTERM (what container runtimes send to stop a process).
async fn signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
