//! The headers every HTTP answer of the site carries, and its compression.
//!
//! * **Pages** ([`pages`]): a Content-Security-Policy that runs only the site's own script files (no
//!   inline script, no inline style, no `eval`), lets nothing frame the page (`frame-ancestors 'none'`
//!   and `X-Frame-Options: DENY`, for browsers that predate CSP 2), `X-Content-Type-Options: nosniff`,
//!   and `Referrer-Policy: same-origin` (a game's or a certificate's address does not travel to other
//!   sites).
//! * **Broadcast overlays** ([`embeddable`]): the same policy, except that any site may frame them (a
//!   broadcaster embeds the overlay in its own page or in OBS) and no referrer is sent at all (an
//!   overlay's address may carry a token).
//! * **Compression** ([`compressed`]): HTML, JavaScript, CSS, JSON and SGF are sent gzip- or
//!   Brotli-compressed to clients that accept it (`tower-http`'s default predicate: not event
//!   streams, gRPC, images, nor bodies under 32 bytes, so a live stream is never held back).
//!
//! A handler that sets one of these headers itself keeps its own (they are set only when absent).

use axum::Router;
use http::HeaderValue;
use http::header::{CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS};
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;

/// The pages' Content-Security-Policy.
pub const PAGE_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// The overlays' Content-Security-Policy: the pages' own, framed by anyone.
pub const OVERLAY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; \
     frame-ancestors *";

fn set(router: Router, name: http::HeaderName, value: &'static str) -> Router {
    router.layer(SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value)))
}

/// `router` with the pages' security headers.
pub fn pages(router: Router) -> Router {
    let router = set(router, CONTENT_SECURITY_POLICY, PAGE_POLICY);
    let router = set(router, X_FRAME_OPTIONS, "DENY");
    let router = set(router, X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(router, REFERRER_POLICY, "same-origin")
}

/// `router` with the security headers of a page other sites may frame (the broadcast overlay).
pub fn embeddable(router: Router) -> Router {
    let router = set(router, CONTENT_SECURITY_POLICY, OVERLAY_POLICY);
    let router = set(router, X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(router, REFERRER_POLICY, "no-referrer")
}

/// `router` with its answers compressed for clients that accept gzip or Brotli.
pub fn compressed(router: Router) -> Router {
    router.layer(CompressionLayer::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::routing::get;
    use tower::ServiceExt;

    async fn answer(router: Router, accept: &str) -> http::Response<Body> {
        let request =
            http::Request::get("/").header(http::header::ACCEPT_ENCODING, accept).body(Body::empty()).unwrap();
        router.oneshot(request).await.unwrap()
    }

    fn page() -> Router {
        Router::new().route("/", get(|| async { axum::response::Html("<p>棋</p>".repeat(200)) }))
    }

    #[tokio::test]
    async fn a_page_carries_its_policy_and_is_compressed() {
        let r = answer(compressed(pages(page())), "gzip, br").await;
        let h = r.headers();
        assert_eq!(h[CONTENT_SECURITY_POLICY], PAGE_POLICY);
        assert!(!PAGE_POLICY.contains("unsafe-inline") && PAGE_POLICY.contains("script-src 'self'"));
        assert_eq!(h[X_FRAME_OPTIONS], "DENY");
        assert_eq!(h[X_CONTENT_TYPE_OPTIONS], "nosniff");
        assert_eq!(h[REFERRER_POLICY], "same-origin");
        assert_eq!(h[http::header::CONTENT_ENCODING], "br");
    }

    #[tokio::test]
    async fn an_overlay_may_be_framed_and_a_handlers_own_header_stays() {
        let own = Router::new().route("/", get(|| async { ([(REFERRER_POLICY, "origin")], "x") }));
        let r = answer(embeddable(own), "identity").await;
        assert_eq!(r.headers()[CONTENT_SECURITY_POLICY], OVERLAY_POLICY);
        assert!(r.headers().get(X_FRAME_OPTIONS).is_none());
        assert_eq!(r.headers()[REFERRER_POLICY], "origin");
        assert!(r.headers().get(http::header::CONTENT_ENCODING).is_none());
    }
}
