//! Login attempts, limited per address and per account name (GCRA, `governor`).
//!
//! * Per account: 5 attempts at once, then one every 20 s. Guessing one member's password is slow
//!   whichever addresses it comes from.
//! * Per address: 9 attempts at once, then one every 6 s. One machine cannot try many names quickly
//!   (a venue behind one NAT still logs in a table of players a minute).
//!
//! Every attempt counts, right or wrong: a limiter that only counted failures would tell which
//! attempts succeeded. A limited attempt is not checked at all (no Argon2 work is done for it).

use std::net::IpAddr;
use std::time::Duration;

use governor::DefaultKeyedRateLimiter;
use governor::clock::Clock;

/// Attempts per account before the limit bites.
pub const ACCOUNT_BURST: u32 = 5;
/// Attempts per address before the limit bites.
pub const ADDRESS_BURST: u32 = 9;

/// The two limiters.
pub struct LoginLimits {
    by_account: DefaultKeyedRateLimiter<String>,
    by_address: DefaultKeyedRateLimiter<IpAddr>,
}

impl Default for LoginLimits {
    fn default() -> LoginLimits {
        LoginLimits {
            by_account: weiqi_edge::limits::keyed(ACCOUNT_BURST, Duration::from_secs(20)),
            by_address: weiqi_edge::limits::keyed(ADDRESS_BURST, Duration::from_secs(6)),
        }
    }
}

/// The whole seconds to wait before `wait` has passed, rounded up (at least 1): what a page says and
/// what `Retry-After` carries, so a client that waits that long is let through.
pub fn seconds_to_wait(wait: Duration) -> u64 {
    u64::try_from(wait.as_millis().div_ceil(1000)).unwrap_or(u64::MAX).max(1)
}

/// `response` with `Retry-After: seconds` (a refusal by a rate limit).
pub fn with_retry_after(mut response: axum::response::Response, seconds: u64) -> axum::response::Response {
    response.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(seconds));
    response
}

impl LoginLimits {
    /// Counts an attempt on `account` from `address`; `Err(wait)` if either limit is reached.
    pub fn attempt(&self, account: &str, address: Option<IpAddr>) -> Result<(), Duration> {
        // The limiters' own clock, read only to say how long to wait (a clock built per call costs a
        // CPUID calibration).
        if let Some(ip) = address
            && let Err(until) = self.by_address.check_key(&ip)
        {
            return Err(until.wait_time_from(self.by_address.clock().now()));
        }
        let key = account.to_lowercase();
        self.by_account.check_key(&key).map_err(|until| until.wait_time_from(self.by_account.clock().now()))?;
        // Keep the maps small: forget keys whose limit has fully replenished.
        if self.by_account.len() > 10_000 {
            self.by_account.retain_recent();
            self.by_address.retain_recent();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_wait_is_rounded_up_to_whole_seconds() {
        use std::time::Duration;
        assert_eq!(super::seconds_to_wait(Duration::from_millis(5_100)), 6);
        assert_eq!(super::seconds_to_wait(Duration::from_millis(6_000)), 6);
        assert_eq!(super::seconds_to_wait(Duration::ZERO), 1);
    }

    use super::*;

    #[test]
    fn the_sixth_rapid_attempt_on_one_account_is_limited() {
        let limits = LoginLimits::default();
        for i in 0..ACCOUNT_BURST {
            assert!(limits.attempt("li", None).is_ok(), "attempt {}", i + 1);
        }
        let wait = limits.attempt("LI", None).unwrap_err();
        assert!(wait > Duration::ZERO && wait <= Duration::from_secs(20), "{wait:?}");
        assert!(limits.attempt("wang", None).is_ok(), "another account is not limited");
    }

    #[test]
    fn the_tenth_rapid_attempt_from_one_address_is_limited() {
        let limits = LoginLimits::default();
        let ip: IpAddr = "192.0.2.7".parse().unwrap();
        for i in 0..ADDRESS_BURST {
            assert!(limits.attempt(&format!("p{i}"), Some(ip)).is_ok(), "attempt {}", i + 1);
        }
        assert!(limits.attempt("p99", Some(ip)).is_err());
        assert!(limits.attempt("p99", Some("192.0.2.8".parse().unwrap())).is_ok());
    }
}
