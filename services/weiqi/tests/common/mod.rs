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

/// The leaderboard (`/players`) and the first player's profile, opened on `public`, show each
/// player's rating as the service answers it (`players`: account → `MyRating`), with the grade that
/// rating stands for and the provisional mark (always under Glicko-2, whose period is still open);
/// the profile shows the rating, its grade, and the open-period note under Glicko-2 only.
pub async fn ratings_shown(
    public: &Session,
    base: &str,
    players: &[(&str, &weiqi_proto::v1::RatingSummary)],
    glicko2: bool,
) {
    use serde_json::json;
    public.open(base, "/players").await;
    let cell = |player: &str, column: &str| {
        format!(
            "return document.querySelector('[data-player={player}] [data-column={column}]')?.getAttribute('data-value')"
        )
    };
    for (player, after) in players {
        let rating = public.wait_for("the player on the leaderboard", &cell(player, "rating")).await;
        let shown: f64 = rating.as_str().and_then(|r| r.parse().ok()).unwrap_or_default();
        let grade = after.grade_for_rating.as_str();
        assert!(!grade.is_empty(), "a grade for every rating: {after:?}");
        assert!((shown - after.rating).abs() < 0.5, "{player}: the leaderboard shows {shown}, the service {after:?}");
        assert_eq!(public.js(&cell(player, "rating-grade"), vec![]).await, json!(grade), "{player}");
        let provisional = format!(
            "return document.querySelector('[data-player={player}] [data-column=rating]').hasAttribute('data-provisional')"
        );
        assert_eq!(public.js(&provisional, vec![]).await, json!(glicko2 || after.provisional), "{player}");
    }
    let (first, after) = players[0];
    public.open(base, &format!("/players/{first}")).await;
    let rating = public.wait_for("the rating", "return document.querySelector('#rating p')?.textContent").await;
    assert!(rating.as_str().is_some_and(|r| r.contains(&format!("{:.0}", after.rating))), "{rating}");
    assert_eq!(
        public.js("return document.querySelector('[data-rating-grade]')?.dataset.ratingGrade", vec![]).await,
        json!(after.grade_for_rating)
    );
    assert_eq!(
        public.js("return !!document.querySelector('[data-open-period]')", vec![]).await,
        json!(glicko2),
        "the provisional note under Glicko-2 only"
    );
}

/// The bytes at `href`, fetched by the page open on `session` (with its cookies).
pub async fn fetch_bytes(session: &Session, href: &str) -> Vec<u8> {
    use base64::Engine as _;
    let script = "const done = arguments[1]; fetch(arguments[0]).then(r => r.arrayBuffer()).then(b => { let s = ''; for (const x of new Uint8Array(b)) s += String.fromCharCode(x); done(btoa(s)); });";
    let encoded = session.client.execute_async(script, vec![serde_json::json!(href)]).await.unwrap();
    base64::engine::general_purpose::STANDARD.decode(encoded.as_str().unwrap_or_default()).unwrap()
}

/// The text of the PDF `file` (`pdftotext`), and its first page rendered to `{shot}.png` (`pdftoppm`)
/// for a look; `None` where poppler is missing and may be (no `WEIQI_REQUIRE_EXTERNAL`).
pub fn pdf_text(file: &std::path::Path, shot: &std::path::Path) -> Option<String> {
    let out = std::process::Command::new("pdftotext").arg("-enc").arg("UTF-8").arg(file).arg("-").output();
    match out {
        Ok(out) if out.status.success() => {
            let rendered = std::process::Command::new("pdftoppm")
                .args(["-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile"])
                .arg(file)
                .arg(shot)
                .status();
            assert!(rendered.is_ok_and(|s| s.success()), "pdftoppm");
            Some(String::from_utf8_lossy(&out.stdout).into_owned())
        }
        _ if std::env::var_os("WEIQI_REQUIRE_EXTERNAL").is_some() => panic!("pdftotext is required (poppler-utils)"),
        _ => {
            eprintln!("no pdftotext here: the PDF's text is not read");
            None
        }
    }
}
