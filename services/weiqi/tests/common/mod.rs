//! What the browser test files share: the driver with the skip policy, where screenshots go, a
//! signed-in session, a page's screenshots in both languages, and gRPC requests with a token.

#![allow(dead_code, reason = "each test file uses its own part of these helpers")]

use std::path::PathBuf;
use std::time::Duration;

use weiqi_browser::{BrowserError, Driver, Session, Viewport};

/// The test accounts' password.
pub const PASSWORD: &str = "correct horse battery";

/// Where screenshots are written.
pub fn screenshots() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots")
}

/// The driver, or the skip policy (missing chromium: skip, unless WEIQI_REQUIRE_EXTERNAL=1).
pub async fn driver() -> Option<Driver> {
    match Driver::start().await {
        Ok(d) => Some(d),
        Err(BrowserError::External(e)) => weiqi_testkit::skip_or_fail::<Driver>(Err(e)),
        Err(e) => panic!("{e}"),
    }
}

/// A browser in `viewport` and `language`, signed in as `name` on `base`.
pub async fn signed_in(driver: &Driver, base: &str, viewport: Viewport, language: &str, name: &str) -> Session {
    let s = driver.session(viewport, language).await.unwrap();
    s.login(base, name, PASSWORD).await;
    s
}

/// Screenshots of the page open on `session` (at `path`), in its language `lang` and in `other`,
/// leaving it in `lang`.
pub async fn shoot(session: &Session, base: &str, path: &str, name: &str, lang: &str, other: &str) {
    let dir = screenshots();
    session.screenshot(&dir.join(format!("{name}-{lang}.png"))).await;
    let sep = if path.contains('?') { '&' } else { '?' };
    session.open(base, &format!("{path}{sep}lang={other}")).await;
    session.wait_for("the page in the other language", &format!("return document.documentElement.lang === '{other}' && (!document.querySelector('#board') || !!document.querySelector('[data-vertex]'))")).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    session.screenshot(&dir.join(format!("{name}-{other}.png"))).await;
    session.open(base, &format!("{path}{sep}lang={lang}")).await;
    session.wait_for("the page back in its language", &format!("return document.documentElement.lang === '{lang}' && (!document.querySelector('#board') || !!document.querySelector('[data-vertex]'))")).await;
}

/// `message` with `authorization: Bearer {token}`.
pub fn bearer<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut r = tonic::Request::new(message);
    r.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    r
}
