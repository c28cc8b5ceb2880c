//! Limits on what one caller may ask of a gRPC edge, so that one token or one address cannot take
//! the server from everyone else:
//!
//! * **requests per second per token** and **per address** (GCRA from `governor`: a steady rate
//!   and a burst; the token is the `authorization: Bearer …` metadata, the address the peer's IP);
//! * **calls open at once per token**: a server stream (`Watch`, `WatchClock`, `MyGames`) stays
//!   open until its response body ends, so this bounds the streams one token holds (a unary call
//!   counts for the moment it is answered).
//!
//! A refused call is answered at once with `ResourceExhausted`, naming the limit and when to retry,
//! with the metadata `retry-after` (whole seconds, rounded up) and `retry-after-ms`; nothing reaches
//! the service, and `weiqi_rate_limited_total{limit}` counts it. Logins on the web have their own
//! limits (`weiqi_web::limits`). [`Limits::default`] limits nothing (tests); [`Limits::standard`]
//! is what `weiqi up` and `weiqi serve` start with unless told otherwise.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::Duration;

use futures::future::{BoxFuture, Either};
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota};
use tonic::transport::server::{TcpConnectInfo, TlsConnectInfo};
use weiqi_telemetry::names;

/// A steady rate with a burst.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Requests per second, sustained.
    pub per_second: NonZeroU32,
    /// Requests at once after a quiet spell.
    pub burst: NonZeroU32,
}

impl Rate {
    /// `per_second` sustained with a burst of twice that; `None` for 0 (no limit).
    #[must_use]
    pub fn per_second(per_second: u32) -> Option<Rate> {
        let rate = NonZeroU32::new(per_second)?;
        Some(Rate { per_second: rate, burst: rate.saturating_mul(NonZeroU32::new(2).expect("2 is not zero")) })
    }

    fn quota(self) -> Quota {
        Quota::per_second(self.per_second).allow_burst(self.burst)
    }
}

/// A limiter keyed by `K` that lets `burst` requests through at once and one more every `every`:
/// the shape of every per-address or per-account limit outside the gRPC layer (web logins, public
/// records and overlay streams).
///
/// # Panics
/// When `burst` is 0 or `every` is zero (a programming error: limits are constants).
pub fn keyed<K: std::hash::Hash + Eq + Clone>(burst: u32, every: Duration) -> DefaultKeyedRateLimiter<K> {
    let quota = Quota::with_period(every).expect("a nonzero period");
    governor::RateLimiter::keyed(quota.allow_burst(NonZeroU32::new(burst).expect("a nonzero burst")))
}

/// Which limits apply (`None`: no limit of that kind).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Requests per token.
    pub per_token: Option<Rate>,
    /// Requests per peer address.
    pub per_address: Option<Rate>,
    /// Calls (streams) open at once per token.
    pub open_per_token: Option<u32>,
    /// Calls without a token (public streams: `Watch`) open at once per peer address.
    pub open_per_address: Option<u32>,
}

impl Limits {
    /// The defaults of `weiqi up` and `weiqi serve`: 50 requests a second per token (bursts of
    /// 100), 500 a second per address (bursts of 1,000: many players may share a school's or a
    /// club's address), and 32 calls open at once per token. A player moves far more slowly; a
    /// bot playing many games, a broadcaster watching many boards, stay well within. Public
    /// streams without a token: 2,000 open at once per address (a school's pupils share one).
    #[must_use]
    pub fn standard() -> Limits {
        Limits {
            per_token: Rate::per_second(50),
            per_address: Rate::per_second(500),
            open_per_token: Some(32),
            open_per_address: Some(2_000),
        }
    }
}

/// Why a call was refused: the limit's label and the message.
fn refusal(limit: &'static str, message: String, wait: Duration) -> http::Response<tonic::body::Body> {
    weiqi_telemetry::metrics::counter!(names::RATE_LIMITED, names::labels::LIMIT => limit).increment(1);
    let mut status = tonic::Status::resource_exhausted(message);
    let ms = wait.as_millis().max(1);
    let metadata = status.metadata_mut();
    if let Ok(v) = ms.div_ceil(1000).to_string().parse() {
        metadata.insert("retry-after", v);
    }
    if let Ok(v) = ms.to_string().parse() {
        metadata.insert("retry-after-ms", v);
    }
    status.into_http()
}

struct State {
    limits: Limits,
    tokens: Option<DefaultKeyedRateLimiter<String>>,
    addresses: Option<DefaultKeyedRateLimiter<IpAddr>>,
    open: Mutex<HashMap<String, u32>>,
}

impl State {
    fn open(&self) -> std::sync::MutexGuard<'_, HashMap<String, u32>> {
        self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The layer: add it to the gRPC server's stack, inside the telemetry layer.
#[derive(Clone)]
pub struct LimitLayer {
    state: Arc<State>,
}

impl std::fmt::Debug for LimitLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LimitLayer").field("limits", &self.state.limits).finish()
    }
}

impl LimitLayer {
    /// The layer for `limits`. Inside a Tokio runtime it also forgets idle keys every minute, so
    /// the memory of callers seen once does not grow without bound.
    #[must_use]
    pub fn new(limits: Limits) -> LimitLayer {
        let state = Arc::new(State {
            tokens: limits.per_token.map(|r| DefaultKeyedRateLimiter::keyed(r.quota())),
            addresses: limits.per_address.map(|r| DefaultKeyedRateLimiter::keyed(r.quota())),
            open: Mutex::new(HashMap::new()),
            limits,
        });
        if tokio::runtime::Handle::try_current().is_ok() {
            let weak: Weak<State> = Arc::downgrade(&state);
            tokio::spawn(async move {
                let mut every = tokio::time::interval(Duration::from_secs(60));
                loop {
                    every.tick().await;
                    let Some(state) = weak.upgrade() else { break };
                    if let Some(l) = &state.tokens {
                        l.retain_recent();
                        l.shrink_to_fit();
                    }
                    if let Some(l) = &state.addresses {
                        l.retain_recent();
                        l.shrink_to_fit();
                    }
                }
            });
        }
        LimitLayer { state }
    }
}

impl<S> tower::Layer<S> for LimitLayer {
    type Service = Limited<S>;

    fn layer(&self, inner: S) -> Limited<S> {
        Limited { inner, state: self.state.clone() }
    }
}

/// The service the layer makes.
#[derive(Clone)]
pub struct Limited<S> {
    inner: S,
    state: Arc<State>,
}

/// The peer's address, over TCP or TLS.
fn peer<B>(request: &http::Request<B>) -> Option<IpAddr> {
    let e = request.extensions();
    e.get::<TcpConnectInfo>()
        .and_then(TcpConnectInfo::remote_addr)
        .or_else(|| e.get::<TlsConnectInfo<TcpConnectInfo>>().and_then(|t| t.get_ref().remote_addr()))
        .map(|a| a.ip())
}

/// The bearer token of a call, if any.
fn token<B>(request: &http::Request<B>) -> Option<String> {
    let value = request.headers().get(http::header::AUTHORIZATION)?.to_str().ok()?;
    let token = value.strip_prefix("Bearer ").or_else(|| value.strip_prefix("bearer "))?.trim();
    (!token.is_empty()).then(|| token.to_string())
}

/// One open call of a token; dropped with the response body.
struct Open {
    state: Arc<State>,
    token: String,
    watch: bool,
}

impl Drop for Open {
    fn drop(&mut self) {
        let mut open = self.state.open();
        if let Some(n) = open.get_mut(&self.token) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.token);
            }
        }
        if self.watch {
            weiqi_telemetry::metrics::gauge!(names::WATCH_STREAMS).decrement(1.0);
        }
    }
}

/// A response body that holds its call open until it ends.
struct Held {
    body: tonic::body::Body,
    _open: Option<Open>,
}

impl http_body::Body for Held {
    type Data = bytes::Bytes;
    type Error = tonic::Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

impl<S, B> tower::Service<http::Request<B>> for Limited<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<tonic::body::Body>> + Send,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    B: Send + 'static,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = Either<
        std::future::Ready<Result<http::Response<tonic::body::Body>, S::Error>>,
        BoxFuture<'static, Result<http::Response<tonic::body::Body>, S::Error>>,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let st = &self.state;
        let refuse = |r| Either::Left(std::future::ready(Ok(r)));
        // The limiter's own clock, read only to say how long to wait: building a clock per call
        // (quanta calibrates one with CPUID) cost ~5 % of a move's server time (issue 31 item 3).
        if let (Some(limiter), Some(ip)) = (&st.addresses, peer(&request))
            && let Err(not_until) = limiter.check_key(&ip)
        {
            let wait = not_until.wait_time_from(limiter.clock().now());
            return refuse(refusal(
                "address",
                format!("too many requests from {ip}: retry in {} ms", wait.as_millis().max(1)),
                wait,
            ));
        }
        let token = token(&request);
        if let (Some(limiter), Some(t)) = (&st.tokens, &token)
            && let Err(not_until) = limiter.check_key(t)
        {
            let wait = not_until.wait_time_from(limiter.clock().now());
            return refuse(refusal(
                "token",
                format!("too many requests with this token: retry in {} ms", wait.as_millis().max(1)),
                wait,
            ));
        }
        let watch = request.uri().path().rsplit('/').next().is_some_and(|m| m.starts_with("Watch"));
        // Calls open at once: per token; public calls (no token) per address, under a key no token
        // can have.
        let counted = match (&token, peer(&request)) {
            (Some(t), _) => st.limits.open_per_token.map(|max| {
                (t.clone(), max, format!("this token has {max} calls open, the most it may: close one first"))
            }),
            (None, Some(ip)) => st.limits.open_per_address.map(|max| {
                (format!("@{ip}"), max, format!("{ip} has {max} public streams open, the most it may: close one first"))
            }),
            (None, None) => None,
        };
        let open = match counted {
            Some((key, max, message)) => {
                let mut open = st.open();
                let n = open.entry(key.clone()).or_insert(0);
                if *n >= max {
                    drop(open);
                    return refuse(refusal("streams", message, Duration::from_secs(1)));
                }
                *n += 1;
                Some(Open { state: st.clone(), token: key, watch })
            }
            None => None,
        };
        if watch {
            weiqi_telemetry::metrics::gauge!(names::WATCH_STREAMS).increment(1.0);
            if open.is_none() {
                // Counted for the gauge only, released with the body like any other.
                return Either::Right(Box::pin(held(self.inner.call(request), Some(Open::gauge_only(st)))));
            }
        }
        Either::Right(Box::pin(held(self.inner.call(request), open)))
    }
}

impl Open {
    /// A guard that only lowers the `Watch` gauge when dropped (a call without a token).
    fn gauge_only(state: &Arc<State>) -> Open {
        Open { state: state.clone(), token: String::new(), watch: true }
    }
}

/// The response of `call`, its body holding `open` until it ends.
async fn held<F, E>(call: F, open: Option<Open>) -> Result<http::Response<tonic::body::Body>, E>
where
    F: std::future::Future<Output = Result<http::Response<tonic::body::Body>, E>>,
{
    let response = call.await?;
    Ok(response.map(|body| match open {
        Some(open) => tonic::body::Body::new(Held { body, _open: Some(open) }),
        None => body,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_of_zero_is_no_limit_and_bursts_are_twice_the_rate() {
        assert_eq!(Rate::per_second(0), None);
        let r = Rate::per_second(50).unwrap();
        assert_eq!((r.per_second.get(), r.burst.get()), (50, 100));
        assert_eq!(
            Limits::default(),
            Limits { per_token: None, per_address: None, open_per_token: None, open_per_address: None }
        );
    }

    #[test]
    fn tokens_are_read_from_bearer_metadata() {
        let r = http::Request::builder().header("authorization", "Bearer abc.def").body(()).unwrap();
        assert_eq!(token(&r).as_deref(), Some("abc.def"));
        let r = http::Request::builder().header("authorization", "Basic x").body(()).unwrap();
        assert_eq!(token(&r), None);
        assert_eq!(token(&http::Request::new(())), None);
    }
}
