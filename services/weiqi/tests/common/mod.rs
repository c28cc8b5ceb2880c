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

/// A plain HTTP/1.1 request to `base` (`http://host:port`): `method path` with `headers` and `body`,
/// as a program (or a thief holding a copied cookie) sends it, outside any browser. Answers the
/// status, the headers (names lower-case) and the body as it came (not decompressed).
pub fn http(
    base: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    use std::io::{Read, Write};
    let host = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(host).expect("connecting to the server");
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut request =
        format!("{method} {path} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\ncontent-length: {}\r\n", body.len());
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).expect("sending the request");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("reading the answer");
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("an HTTP answer");
    let head = String::from_utf8_lossy(&answer[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, answer[split + 4..].to_vec())
}

/// The first value of header `name` in an answer of [`http`].
pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}
