//! The one source of what a decision may not compute itself: server time, randomness and fresh ids;
//! and, for the shells that wait for an instant (the clock service's flags), a way to sleep until one.
//! The only reader of the system clock: the embedded log's timestamps, the aggregate runner, the token
//! authority, the pages and the command line all ask [`SystemEnvironment`] (or an injected
//! [`Environment`]). It lives in the log crate, the lowest shell crate, so the log can use it too;
//! `weiqi-aggregate` re-exports it.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use weiqi_time::Millis;

/// A future that completes when the environment's time has reached an instant.
pub type Sleep = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Server time, random bytes and fresh ids. The real one ([`SystemEnvironment`]) reads the system clock
/// and the OS random source; tests inject their own (a clock moved by hand, fixed secrets).
pub trait Environment: Send + Sync + 'static {
    /// Server time now, in ms since the Unix epoch.
    fn now(&self) -> Millis;
    /// 32 random bytes (a nigiri secret, a tournament's seed).
    fn random(&self) -> [u8; 32];
    /// A fresh unique id (an event id).
    fn unique_id(&self) -> String {
        uuid::Uuid::new_v4().to_string()
    }
    /// Completes once [`now`](Self::now) is at or past `at` (at once if it already is). It may complete
    /// a little early if the clock is stepped; callers check `now` again. The default waits with
    /// tokio's timer for the difference from `now`; a clock moved by hand overrides it.
    fn sleep_until(&self, at: Millis) -> Sleep {
        let wait = (at - self.now()).non_negative();
        Box::pin(tokio::time::sleep(Duration::from_millis(wait.as_millis().unsigned_abs())))
    }
}

/// The system clock and `uuid`'s OS random source.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemEnvironment;

impl Environment for SystemEnvironment {
    fn now(&self) -> Millis {
        let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        Millis(i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
    }

    fn random(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        out[..16].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
        out[16..].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
        out
    }
}

impl<E: Environment + ?Sized> Environment for std::sync::Arc<E> {
    fn now(&self) -> Millis {
        (**self).now()
    }
    fn random(&self) -> [u8; 32] {
        (**self).random()
    }
    fn unique_id(&self) -> String {
        (**self).unique_id()
    }
    fn sleep_until(&self, at: Millis) -> Sleep {
        (**self).sleep_until(at)
    }
}
