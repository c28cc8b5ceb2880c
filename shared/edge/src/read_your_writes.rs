//! Read your writes at the edge, written once: a read that asks for "at least position N" polls its
//! read model's position with a short backoff until it reaches N, or answers `Unavailable` naming
//! the position reached, so the caller retries rather than reads stale data.

use std::future::Future;
use std::time::Duration;

use tonic::Status;

/// A read model that has not reached the position asked for in time: retry shortly.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} has reached position {at}, not yet {min}; retry shortly")]
pub struct Lagging {
    /// What was waited for (`the read model of city-open`).
    pub what: String,
    /// The position it reached.
    pub at: u64,
    /// The position asked for.
    pub min: u64,
}

impl From<Lagging> for Status {
    fn from(l: Lagging) -> Status {
        Status::unavailable(l.to_string())
    }
}

/// How long a read waits for the position it asks for.
pub const WAIT: Duration = Duration::from_secs(3);

/// Waits until `reached()` is at least `min` (0: at once) and answers the position reached; after
/// [`WAIT`], `Unavailable` naming what (`what`, e.g. "the read model of city-open") has reached.
///
/// # Errors
/// `probe`'s own error, or `Unavailable` when the position is not reached in time.
pub async fn wait_for<F, Fut, E>(what: &str, min: u64, mut reached: F) -> Result<u64, E>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<u64, E>>,
    E: From<Lagging>,
{
    let deadline = tokio::time::Instant::now() + WAIT;
    let mut pause = Duration::from_millis(5);
    loop {
        let at = reached().await?;
        if at >= min {
            return Ok(at);
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(Lagging { what: what.to_string(), at, min }.into());
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(100));
    }
}
