//! Readiness: `GET /readyz`, what a load balancer and Kubernetes ask before sending a process work.
//! `/healthz` stays liveness (the process answers at all); readiness says whether it can do its job:
//!
//! * **`event_log`**: the event log answers (the head of every kind this process follows, or of the
//!   `game` kind, within [`CHECK_TIMEOUT`]);
//! * **`followers`**: every follower this process runs ([`weiqi_eventlog::followers`]) is running
//!   and has caught up with the log once since it started (within [`CAUGHT_UP`] appends of its
//!   kind's head): a projector still replaying the log at start is not ready, one that falls behind
//!   later under load stays ready (the `weiqi_follower_lag_appends` gauge and its alert say so);
//! * any check the process adds ([`Readiness::with_check`]): `redis` where a read model lives in
//!   Redis.
//!
//! The answer is JSON, `200` when every check passes and `503` otherwise, naming the failing checks
//! and why. Each check also sets the `weiqi_ready{check=…}` gauge (and `check="all"`), and each
//! follower its lag, so that Prometheus sees readiness and lag without probing: [`Readiness::spawn`]
//! refreshes them every few seconds.

use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use futures::future::BoxFuture;
use serde::Serialize;
use weiqi_eventlog::{AggregateKind, AnyEventLog, EventLog};
use weiqi_telemetry::names;

/// How long one check may take before it counts as failed (a log or Redis that does not answer
/// within it is not one to send work to).
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// A follower within this many appends of its kind's head has caught up.
pub const CAUGHT_UP: u64 = 64;

/// How often [`Readiness::spawn`] refreshes the gauges.
pub const REFRESH_EVERY: Duration = Duration::from_secs(5);

/// A check of the process's own: `Ok`, or why not.
pub type Check = Arc<dyn Fn() -> BoxFuture<'static, Result<(), String>> + Send + Sync>;

/// One check's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// `event_log`, `followers`, `redis`, …
    pub check: String,
    /// Whether it passed.
    pub ok: bool,
    /// What was seen (a follower's lag, an error).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// The answer of `/readyz`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadyReport {
    /// Every check passed.
    pub ready: bool,
    /// Each check.
    pub checks: Vec<CheckReport>,
    /// Each follower's lag behind its kind's head, in appends (when the log answered).
    pub lag: BTreeMap<String, u64>,
}

/// The readiness of one process (see the module doc).
pub struct Readiness {
    log: AnyEventLog,
    checks: Vec<(&'static str, Check)>,
    /// Followers that have been within [`CAUGHT_UP`] of the head since they registered.
    caught_up: Mutex<HashSet<&'static str>>,
}

impl std::fmt::Debug for Readiness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Readiness").field("checks", &self.checks.iter().map(|c| c.0).collect::<Vec<_>>()).finish()
    }
}

async fn within<T>(what: impl std::future::Future<Output = Result<T, String>>) -> Result<T, String> {
    match tokio::time::timeout(CHECK_TIMEOUT, what).await {
        Ok(r) => r,
        Err(_) => Err(format!("no answer within {} s", CHECK_TIMEOUT.as_secs())),
    }
}

impl Readiness {
    /// Readiness over `log`, with the followers of this process.
    #[must_use]
    pub fn new(log: AnyEventLog) -> Readiness {
        Readiness { log, checks: Vec::new(), caught_up: Mutex::new(HashSet::new()) }
    }

    /// Adds a check named `name` (a label value: `redis`, …).
    #[must_use]
    pub fn with_check(mut self, name: &'static str, check: Check) -> Readiness {
        self.checks.push((name, check));
        self
    }

    /// Runs every check now and sets the gauges.
    pub async fn report(&self) -> ReadyReport {
        let followers = weiqi_eventlog::followers::followers();
        let mut kinds: Vec<AggregateKind> = followers.iter().map(|f| f.kind).collect();
        kinds.sort_by_key(|k| k.as_str());
        kinds.dedup();
        if kinds.is_empty() {
            kinds.push(AggregateKind::Game);
        }
        let mut heads = BTreeMap::new();
        let mut log_error = None;
        for kind in kinds {
            match within(async { self.log.head(kind).await.map_err(|e| e.to_string()) }).await {
                Ok(head) => {
                    heads.insert(kind.as_str(), head);
                }
                Err(e) => {
                    log_error = Some(format!("the {kind} log: {e}"));
                    break;
                }
            }
        }
        let mut checks = vec![CheckReport {
            check: "event_log".into(),
            ok: log_error.is_none(),
            detail: log_error.unwrap_or_default(),
        }];

        let mut lag = BTreeMap::new();
        let mut behind = Vec::new();
        {
            let mut caught_up = self.caught_up.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            for f in &followers {
                if !f.running {
                    caught_up.remove(f.name);
                    behind.push(format!("{} has stopped", f.name));
                    continue;
                }
                let Some(head) = heads.get(f.kind.as_str()) else { continue };
                let n = f.lag(*head);
                weiqi_telemetry::metrics::gauge!(names::FOLLOWER_LAG, names::labels::FOLLOWER => f.name).set(n as f64);
                lag.insert(f.name.to_string(), n);
                if n <= CAUGHT_UP {
                    caught_up.insert(f.name);
                } else if !caught_up.contains(f.name) {
                    behind.push(format!("{} is catching up: {n} appends behind the {} log", f.name, f.kind));
                }
            }
        }
        checks.push(CheckReport { check: "followers".into(), ok: behind.is_empty(), detail: behind.join("; ") });

        for (name, check) in &self.checks {
            let outcome = within(check()).await;
            checks.push(CheckReport {
                check: (*name).into(),
                ok: outcome.is_ok(),
                detail: outcome.err().unwrap_or_default(),
            });
        }
        let ready = checks.iter().all(|c| c.ok);
        for c in &checks {
            weiqi_telemetry::metrics::gauge!(names::READY, names::labels::CHECK => c.check.clone()).set(if c.ok {
                1.0
            } else {
                0.0
            });
        }
        weiqi_telemetry::metrics::gauge!(names::READY, names::labels::CHECK => "all").set(if ready {
            1.0
        } else {
            0.0
        });
        ReadyReport { ready, checks, lag }
    }

    /// Refreshes the gauges every [`REFRESH_EVERY`] until the process ends.
    pub fn spawn(self: &Arc<Self>) {
        let me = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(REFRESH_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let Some(me) = me.upgrade() else { break };
                me.report().await;
            }
        });
    }

    /// `GET /readyz`.
    pub fn router(self: &Arc<Self>) -> axum::Router {
        let me = self.clone();
        axum::Router::new().route(
            "/readyz",
            axum::routing::get(move || {
                let me = me.clone();
                async move { me.answer().await }
            }),
        )
    }

    async fn answer(&self) -> Response {
        let report = self.report().await;
        let status = if report.ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
        (status, axum::Json(report)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weiqi_eventlog::{EmbeddedConfig, EmbeddedLog, Follower};

    #[tokio::test]
    async fn a_follower_behind_at_start_is_not_ready_until_it_catches_up_and_a_stopped_one_never() {
        let dir = tempfile::tempdir().unwrap();
        let log: AnyEventLog = EmbeddedLog::open(dir.path().join("e.redb"), EmbeddedConfig::default()).unwrap().into();
        let id = weiqi_eventlog::AggregateId::new("ready-test").unwrap();
        for n in 0..(CAUGHT_UP + 2) {
            let e = weiqi_eventlog::NewEvent::new("t", vec![]);
            let c = weiqi_eventlog::CommandId::new(format!("c{n}")).unwrap();
            log.append(AggregateKind::Site, &id, n, &c, &[e]).await.unwrap();
        }
        let readiness = Readiness::new(log.clone());
        let follower = Follower::register("test_ready_follower", AggregateKind::Site);
        let mine = |r: &ReadyReport| r.checks.iter().find(|c| c.check == "followers").cloned().unwrap();
        let first = readiness.report().await;
        assert!(first.checks[0].ok, "{first:?}");
        assert!(!mine(&first).ok && mine(&first).detail.contains("test_ready_follower is catching up"), "{first:?}");
        assert_eq!(first.lag["test_ready_follower"], CAUGHT_UP + 2);
        // It reads every event.
        let events = log.read(AggregateKind::Site, &id, 1).await.unwrap();
        follower.at(events.last().unwrap().position);
        let caught = readiness.report().await;
        assert_eq!(caught.lag["test_ready_follower"], 0);
        assert!(!caught.checks.iter().any(|c| c.detail.contains("test_ready_follower")), "{caught:?}");
        // A failing check of the process's own.
        let failing = Readiness::new(log.clone())
            .with_check("redis", Arc::new(|| Box::pin(async { Err("refused".to_string()) })));
        let r = failing.report().await;
        assert!(!r.ready && r.checks.iter().any(|c| c.check == "redis" && c.detail == "refused"), "{r:?}");
        drop(follower);
        let stopped = readiness.report().await;
        assert!(mine(&stopped).detail.contains("test_ready_follower has stopped"), "{stopped:?}");
    }
}
