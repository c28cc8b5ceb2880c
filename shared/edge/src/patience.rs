//! The client's side of [`crate::limits`]: a gRPC channel that waits out a rate limit.
//!
//! A gateway that refuses a call for its rate limit answers at once, before anything reaches a
//! service, with `ResourceExhausted` and how long to wait (`retry-after-ms`). The project's own
//! clients (`weiqi play`, `weiqi bot`, the benches) wrap their channel in [`Patient`]: a refused call
//! is sent again, the same bytes, after the wait the gateway named, up to [`Patient::attempts`]
//! times (the calls-open limit names a second: by then a call of the same token has usually
//! ended); every other answer is returned as it came.
//!
//! The request body is buffered to be sent again. Every RPC of this API sends one message (none
//! streams from the client), so that costs a copy of one small message.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use tonic::body::Body;

/// How many times a refused call is sent again before the refusal is returned.
pub const ATTEMPTS: u32 = 20;

/// A client channel that waits out the gateway's rate limit (see the module doc).
#[derive(Clone, Debug)]
pub struct Patient<S> {
    inner: S,
    attempts: u32,
}

impl<S> Patient<S> {
    /// Wraps a channel, with [`ATTEMPTS`] attempts.
    pub fn new(inner: S) -> Patient<S> {
        Patient { inner, attempts: ATTEMPTS }
    }

    /// The most times one call is sent again.
    pub fn attempts(mut self, attempts: u32) -> Patient<S> {
        self.attempts = attempts;
        self
    }
}

/// The wait a refusal names: `Some` only for a `ResourceExhausted` answer carrying `retry-after-ms`.
pub fn retry_after(headers: &http::HeaderMap) -> Option<Duration> {
    let status = headers.get("grpc-status")?.to_str().ok()?;
    if status != (tonic::Code::ResourceExhausted as i32).to_string() {
        return None;
    }
    let ms: u64 = headers.get("retry-after-ms")?.to_str().ok()?.parse().ok()?;
    Some(Duration::from_millis(ms.clamp(1, 60_000)))
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl<S> tower::Service<http::Request<Body>> for Patient<S>
where
    S: tower::Service<http::Request<Body>, Response = http::Response<Body>> + Clone + Send + 'static,
    S::Future: Send,
    S::Error: Into<BoxError>,
{
    type Response = http::Response<Body>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        // The service polled ready is the one that sends the first attempt (tower's clone-and-swap).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let attempts = self.attempts;
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            let bytes: Bytes = body.collect().await.map_err(|e| Box::new(e) as BoxError)?.to_bytes();
            let again = |bytes: &Bytes| {
                let mut r = http::Request::new(Body::new(Full::new(bytes.clone())));
                *r.method_mut() = parts.method.clone();
                *r.uri_mut() = parts.uri.clone();
                *r.version_mut() = parts.version;
                *r.headers_mut() = parts.headers.clone();
                r
            };
            let mut attempt = 0;
            loop {
                let response = inner.call(again(&bytes)).await.map_err(Into::into)?;
                match retry_after(response.headers()) {
                    Some(wait) if attempt < attempts => {
                        attempt += 1;
                        tracing::debug!(?wait, attempt, "refused by the gateway's rate limit: asking again");
                        tokio::time::sleep(wait).await;
                        std::future::poll_fn(|cx| inner.poll_ready(cx)).await.map_err(Into::into)?;
                    }
                    _ => return Ok(response),
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_rate_limit_with_a_wait_is_asked_again() {
        let status = |code: tonic::Code, ms: Option<&str>| {
            let mut s = tonic::Status::new(code, "x");
            if let Some(ms) = ms {
                s.metadata_mut().insert("retry-after-ms", ms.parse().unwrap());
            }
            s.into_http::<Body>().headers().clone()
        };
        assert_eq!(retry_after(&status(tonic::Code::ResourceExhausted, Some("4"))), Some(Duration::from_millis(4)));
        assert_eq!(retry_after(&status(tonic::Code::ResourceExhausted, Some("0"))), Some(Duration::from_millis(1)));
        assert_eq!(retry_after(&status(tonic::Code::ResourceExhausted, None)), None, "no wait named");
        assert_eq!(retry_after(&status(tonic::Code::Unavailable, Some("4"))), None);
        assert_eq!(retry_after(&status(tonic::Code::PermissionDenied, Some("4"))), None);
    }
}
