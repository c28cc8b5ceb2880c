//! Where the clock service gets "now" and how it waits: the system clock in production, a clock the test
//! moves by hand in tests.
//!
//! Deadlines are server instants ([`Millis`] since the Unix epoch, recorded in the game's events), so the
//! service waits for wall-clock instants, not for monotonic durations. The platform's one
//! [`Environment`] gives both "now" and a future that completes once "now" has reached an instant
//! ([`Environment::sleep_until`]); the game service takes its instants from the same trait, so a test
//! can drive the game service and the clock service from one hand-moved [`ManualClock`].

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::watch;
use weiqi_aggregate::{Environment, Sleep, SystemEnvironment};
use weiqi_clock::{DurationMs, Millis};

/// The system clock: the platform's [`SystemEnvironment`] (tokio's timer, millisecond resolution).
pub use weiqi_aggregate::SystemEnvironment as SystemClock;

/// The system clock as [`Millis`].
pub fn system_now() -> Millis {
    SystemEnvironment.now()
}

/// A clock moved by hand, for tests. Cheap to clone; clones share the time.
///
/// It is also a [`weiqi_aggregate::Environment`] (with predictable nigiri secrets), so one
/// `ManualClock` can drive both the game service and the clock service.
#[derive(Clone, Debug)]
pub struct ManualClock {
    now: Arc<watch::Sender<Millis>>,
    secrets: Arc<AtomicU64>,
}

impl ManualClock {
    /// A clock showing `start`.
    pub fn new(start: Millis) -> ManualClock {
        ManualClock { now: Arc::new(watch::Sender::new(start)), secrets: Arc::new(AtomicU64::new(0)) }
    }

    /// Sets the time (it may go forward only: an earlier instant is ignored, as server time never goes back).
    pub fn set(&self, at: Millis) {
        self.now.send_if_modified(|now| {
            let later = at > *now;
            if later {
                *now = at;
            }
            later
        });
    }

    /// Moves the time forward by `by`.
    pub fn advance(&self, by: DurationMs) {
        let at = *self.now.borrow() + by;
        self.set(at);
    }

    /// The time shown.
    pub fn get(&self) -> Millis {
        *self.now.borrow()
    }
}

impl ManualClock {
    fn sleep_manually(&self, at: Millis) -> Sleep {
        let mut rx = self.now.subscribe();
        Box::pin(async move {
            // The sender lives as long as any clone of the clock; if it is gone, nothing will move time.
            if rx.wait_for(|now| *now >= at).await.is_err() {
                std::future::pending::<()>().await;
            }
        })
    }
}

impl Environment for ManualClock {
    fn now(&self) -> Millis {
        self.get()
    }

    fn random(&self) -> [u8; 32] {
        let n = self.secrets.fetch_add(1, Ordering::Relaxed);
        let mut out = [0u8; 32];
        out[..8].copy_from_slice(&n.to_le_bytes());
        out
    }

    fn sleep_until(&self, at: Millis) -> Sleep {
        self.sleep_manually(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_sleep_ends_when_the_clock_reaches_its_instant() {
        let clock = ManualClock::new(Millis(1_000));
        let sleep = clock.sleep_until(Millis(1_500));
        let waiter = tokio::spawn(sleep);
        clock.advance(DurationMs(499));
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished(), "1 ms short of the instant");
        clock.advance(DurationMs(1));
        waiter.await.unwrap();
        // At once for an instant already past.
        clock.sleep_until(Millis(10)).await;
    }

    #[test]
    fn manual_time_never_goes_back() {
        let clock = ManualClock::new(Millis(5));
        clock.set(Millis(3));
        assert_eq!(clock.get(), Millis(5));
        clock.set(Millis(8));
        assert_eq!(Environment::now(&clock), Millis(8));
    }
}
