//! Trust (issue 28): who may act, against a real `weiqi up`, through gRPC and real Chromium.
//!
//! Each test plays an attack or a change of authority as it happened to people:
//! * a player seats another player in a 1-second game he never agreed to (item 2);
//! * an administrator revokes a referee on the accounts page while her API token, her session and an
//!   open event stream are in use, grants a role to an open session, and disables an account that is
//!   watching (item 3);
//! * a session cookie kept after logout, and "sign out everywhere" (item 4);
//! * a referee who sits at a game as a player watches its nigiri (item 5).

mod common;

use std::path::Path;
use std::time::Duration;

use common::{PASSWORD, bearer, driver, header, http, signed_in};
use serde_json::json;
use tonic::Code;
use weiqi_browser::{Server, Viewport};
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_service_client::GameServiceClient;
use weiqi_proto::v1::gateway_service_client::GatewayServiceClient;

const WEIQI: &str = env!("CARGO_BIN_EXE_weiqi");

fn server(dir: &Path) -> Server {
    let s = Server::new(Path::new(WEIQI), &dir.join("data"), None);
    s.add_account("li", &["player"], "李明", PASSWORD);
    s.add_account("wang", &["player"], "王芳", PASSWORD);
    s.add_account("bob", &["player"], "Bob", PASSWORD);
    s.add_account("mallory", &["player"], "Mallory", PASSWORD);
    s.add_account("mei", &["referee"], "裁判梅", PASSWORD);
    s.add_account("ning", &["player", "referee"], "宁裁判", PASSWORD);
    s.add_account("org", &["organiser"], "组织者", PASSWORD);
    s.add_account("root", &["admin"], "Administrator", PASSWORD);
    s
}

/// A running `weiqi up` with this file's accounts, and its data directory (kept as long as it runs).
fn started() -> (tempfile::TempDir, Server) {
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path());
    server.start();
    (dir, server)
}

async fn games(server: &Server) -> GameServiceClient<tonic::transport::Channel> {
    GameServiceClient::connect(format!("http://{}", server.grpc)).await.unwrap()
}

fn player(id: &str) -> Option<pb::PlayerRef> {
    Some(pb::PlayerRef { id: id.into(), name: id.into(), rank: String::new() })
}

fn absolute(ms: i64) -> Option<pb::TimeControl> {
    Some(pb::TimeControl {
        system: Some(pb::time_control::System::Absolute(pb::time_control::Absolute { main_ms: ms })),
        ..Default::default()
    })
}

/// A 9×9 game between `first` and `second` created with `token`.
async fn create(
    server: &Server,
    token: &str,
    first: &str,
    second: &str,
    nigiri: bool,
    start: bool,
    main_ms: i64,
) -> Result<String, tonic::Status> {
    let method = if nigiri { pb::game_created::ColorMethod::Nigiri } else { pb::game_created::ColorMethod::Fixed };
    let reply = games(server)
        .await
        .create_game(bearer(
            pb::CreateGameRequest {
                request_id: format!("create-{first}-{second}-{}", uuid_like()),
                size: 9,
                rules: "chinese".into(),
                first: player(first),
                second: player(second),
                color_method: method as i32,
                time_control: absolute(main_ms),
                start,
                ..Default::default()
            },
            token,
        ))
        .await?;
    Ok(reply.into_inner().game_id)
}

fn uuid_like() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
}

async fn view(server: &Server, token: &str, game: &str) -> pb::GameView {
    games(server).await.get_game(bearer(pb::GetGameRequest { game_id: game.into() }, token)).await.unwrap().into_inner()
}

async fn referee(
    server: &Server,
    token: &str,
    game: &str,
    request: &str,
    action: pb::referee_request::Action,
) -> Result<(), tonic::Status> {
    let request = pb::RefereeRequest { game_id: game.into(), request_id: request.into(), action: Some(action) };
    games(server).await.referee(bearer(request, token)).await.map(|_| ())
}

async fn pause(server: &Server, token: &str, game: &str, request: &str) -> Result<(), tonic::Status> {
    let pause = pb::referee_request::Pause { reason: "检查".into() };
    referee(server, token, game, request, pb::referee_request::Action::Pause(pause)).await
}

async fn resume(server: &Server, token: &str, game: &str, request: &str) -> Result<(), tonic::Status> {
    let resume = pb::referee_request::Resume {};
    referee(server, token, game, request, pb::referee_request::Action::Resume(resume)).await
}

fn code(status: &tonic::Status) -> String {
    weiqi_edge::status::rejection_of(status).map(|r| r.code).unwrap_or_default()
}

async fn whoami(server: &Server, token: &str) -> Result<pb::WhoamiResponse, tonic::Status> {
    let mut c = GatewayServiceClient::connect(format!("http://{}", server.grpc)).await.unwrap();
    c.whoami(bearer(pb::WhoamiRequest {}, token)).await.map(tonic::Response::into_inner)
}

/// Reads `stream` until it ends (`true`) or `within` passes with it still open (`false`).
async fn ends(stream: &mut tonic::Streaming<pb::EventEnvelope>, within: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, stream.message()).await {
            Err(_) => return false,
            Ok(Ok(Some(_))) => {}
            Ok(Ok(None) | Err(_)) => return true,
        }
    }
}

/// An open Server-Sent Events stream of the site (a plain HTTP/1.1 request).
async fn open_sse(base: &str, path: &str) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let host = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(host).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nhost: {host}\r\naccept: text/event-stream\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    stream
}

/// Reads the stream until the server ends it (`true`) or `within` passes with it open (`false`).
async fn sse_ends(mut stream: tokio::net::TcpStream, within: Duration) -> bool {
    use tokio::io::AsyncReadExt;
    let deadline = tokio::time::Instant::now() + within;
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(n)) => {
                seen.extend_from_slice(&buf[..n]);
                // The chunked body's last chunk: the server ended the stream.
                if seen.ends_with(b"0\r\n\r\n") {
                    return true;
                }
            }
        }
    }
}

async fn watch(server: &Server, token: &str, game: &str) -> tonic::Streaming<pb::EventEnvelope> {
    games(server)
        .await
        .watch(bearer(pb::WatchRequest { game_id: game.into(), from_sequence: 1 }, token))
        .await
        .unwrap()
        .into_inner()
}

/// Item 2: mallory seats bob in a 1-second game with `start` set. It is an offer: it does not start,
/// mallory cannot start it herself, bob loses no time and his profile does not show it; bob's own
/// start accepts it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_cannot_seat_another_player_in_a_game_he_has_not_accepted() {
    let Some(driver) = driver().await else { return };
    let (_dir, server) = started();
    let mallory = server.token("mallory", "player");
    let bob = server.token("bob", "player");

    let game = create(&server, &mallory, "mallory", "bob", false, true, 1_000).await.expect("an offer");
    let forced = games(&server)
        .await
        .start_game(bearer(pb::GameRequest { game_id: game.clone(), request_id: "force".into() }, &mallory))
        .await
        .expect_err("the offerer cannot start her own offer");
    assert_eq!(code(&forced), "offer_not_accepted", "{forced:?}");
    // A player never creates a rated game, nor one for a third person.
    let third = create(&server, &mallory, "bob", "li", false, true, 1_000).await.expect_err("not seated");
    assert_eq!(third.code(), Code::PermissionDenied, "{third:?}");
    assert_eq!(code(&third), "create_not_allowed");

    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let v = view(&server, &bob, &game).await;
    assert_ne!(v.phase, pb::game_view::Phase::Ended as i32, "bob lost a game he never accepted: {v:?}");
    assert!(v.result.is_none(), "{v:?}");

    // Nobody sees it as bob's game: not on his profile, not in the lobby.
    let visitor = driver.session(Viewport::PHONE, "zh-CN").await.unwrap();
    for path in ["/players/bob", "/"] {
        visitor.open(&server.base, path).await;
        visitor
            .wait_for("the page", "return document.readyState === 'complete' && !!document.querySelector('main')")
            .await;
        let listed =
            visitor.js("return !!document.querySelector(`a[href='/games/${arguments[0]}']`)", vec![json!(game)]).await;
        assert_eq!(listed, json!(false), "{path} lists the offer {game}");
    }

    // bob accepts by starting it: now it is a game.
    let accepted = games(&server)
        .await
        .start_game(bearer(pb::GameRequest { game_id: game.clone(), request_id: "accept".into() }, &bob))
        .await
        .expect("bob accepts")
        .into_inner();
    let kinds: Vec<_> = accepted.events.iter().filter_map(|e| e.event.as_ref()?.kind.clone()).collect();
    assert!(kinds.iter().any(|k| matches!(k, pb::game_event::Kind::OfferAccepted(a) if a.by == "bob")), "{kinds:?}");
    assert!(kinds.iter().any(|k| matches!(k, pb::game_event::Kind::Started(_))), "{kinds:?}");
    visitor.close().await;
}

/// Item 3: a revoked role stops at once on every path (API token, `weiqi token`, the session, an open
/// stream); a granted role works on the open session at its next request; a disabled account's open
/// stream ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revoked_role_stops_at_once_everywhere_and_a_granted_one_works_on_the_open_session() {
    let Some(driver) = driver().await else { return };
    let (_dir, server) = started();
    let base = server.base.clone();
    let organiser = server.token("org", "organiser");
    let game = create(&server, &organiser, "li", "wang", false, true, 600_000).await.unwrap();

    // mei holds referee: her API token, her session (signed in on the page) and a stream all work.
    let api = server.token("mei", "referee");
    let mei = signed_in(&driver, &base, Viewport::PHONE, "zh-CN", "mei").await;
    let session = mei.cookie("wq_session").await.expect("a session cookie");
    pause(&server, &api, &game, "p1").await.expect("the referee pauses");
    resume(&server, &session, &game, "r1").await.expect("the referee resumes with her session");
    let mut stream = watch(&server, &api, &game).await;
    mei.open(&base, &format!("/games/{game}")).await;
    mei.wait_for("the referee panel", "return !!document.querySelector('#referee [data-action=pause]')").await;
    assert_eq!(mei.download("/desk/ratings").await.0, 403, "an organiser's page before the grant");

    // The administrator revokes referee on the accounts page.
    let root = signed_in(&driver, &base, Viewport::DESKTOP, "zh-CN", "root").await;
    root.open(&base, "/admin/accounts").await;
    root.js("document.querySelector('tr[data-account=mei] select[name=role]').value = 'referee'", vec![]).await;
    root.click("tr[data-account=mei] [data-action=revoke]").await;
    root.wait_for("the revocation", "return document.readyState === 'complete' && !document.querySelector('tr[data-account=mei] td:nth-child(3)').textContent.trim()").await;

    for (what, token) in [("API token", &api), ("session", &session)] {
        let refused = pause(&server, token, &game, &format!("p2-{what}")).await.expect_err(what);
        assert_eq!(refused.code(), Code::PermissionDenied, "{what}: {refused:?}");
    }
    let cli = server.token("mei", "referee");
    assert!(pause(&server, &cli, &game, "p3").await.is_err(), "a token newly signed for the revoked role");
    assert!(ends(&mut stream, Duration::from_secs(10)).await, "the revoked referee's stream stays open");
    let v = view(&server, &organiser, &game).await;
    assert_eq!(v.phase, pb::game_view::Phase::Playing as i32, "nothing was appended: {v:?}");
    mei.open(&base, &format!("/games/{game}")).await;
    mei.wait_for("the game page", "return !!document.querySelector('[data-vertex]')").await;
    assert_eq!(mei.js("return !!document.querySelector('#referee')", vec![]).await, json!(false), "the panel stays");

    // A granted role works on the open session at its next request, without a new sign-in.
    root.open(&base, "/admin/accounts").await;
    root.js("document.querySelector('tr[data-account=mei] select[name=role]').value = 'organiser'", vec![]).await;
    root.click("tr[data-account=mei] [data-action=grant]").await;
    root.wait_for("the grant", "return document.readyState === 'complete' && !!document.querySelector('tr[data-account=mei] td:nth-child(3)').textContent.trim()").await;
    assert_eq!(mei.download("/desk/ratings").await.0, 200, "the granted role on the open session");
    assert_eq!(
        mei.cookie("wq_session").await.as_deref(),
        Some(session.as_str()),
        "the same session, not a new sign-in"
    );

    // A disabled account's open streams end: its gRPC Watch and its overlay stream.
    let li = server.token("li", "player");
    let mut li_stream = watch(&server, &li, &game).await;
    let overlay = open_sse(&base, &format!("/overlay/{game}/events?token={li}")).await;
    root.open(&base, "/admin/accounts").await;
    root.click("tr[data-account=li] [data-action=disable]").await;
    root.wait_for("the disable", "return !!document.querySelector('tr[data-account=li] [data-action=enable]')").await;
    assert!(ends(&mut li_stream, Duration::from_secs(10)).await, "the disabled account's stream stays open");
    assert!(sse_ends(overlay, Duration::from_secs(10)).await, "the disabled account's overlay stream stays open");
    let refused = whoami(&server, &li).await.expect_err("a disabled account");
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    assert!(refused.message().contains("disabled"), "{refused:?}");
    root.close().await;
    mei.close().await;
}

/// Item 4: a session cookie kept after logout opens nothing; "sign out everywhere" ends the other
/// browsers' sessions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logged_out_session_is_dead_and_sign_out_everywhere_ends_the_others() {
    let Some(driver) = driver().await else { return };
    let (_dir, server) = started();
    let base = server.base.clone();

    let li = signed_in(&driver, &base, Viewport::PHONE, "zh-CN", "li").await;
    let kept = li.cookie("wq_session").await.expect("a session cookie");
    assert_eq!(whoami(&server, &kept).await.expect("the live session").subject, "li");
    li.open(&base, "/account").await;
    li.click("form[action='/logout'] button").await;
    li.wait_for(
        "signed out",
        "return document.readyState === 'complete' && !document.querySelector(\"form[action='/logout']\")",
    )
    .await;
    // A thief who copied the cookie sends it.
    let cookie = format!("wq_session={kept}");
    let (status, headers, _) = http(&base, "GET", "/account", &[("cookie", &cookie)], "");
    assert_eq!((status, header(&headers, "location")), (303, Some("/login?next=/account")), "{headers:?}");
    let refused = whoami(&server, &kept).await.expect_err("a logged-out session");
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");

    // Two browsers; one signs out everywhere.
    let phone = signed_in(&driver, &base, Viewport::PHONE, "zh-CN", "wang").await;
    let desktop = signed_in(&driver, &base, Viewport::DESKTOP, "en", "wang").await;
    let other = desktop.cookie("wq_session").await.unwrap();
    phone.open(&base, "/account").await;
    phone.click("[data-action=sign-out-everywhere]").await;
    phone.wait_for("signed out", "return location.pathname === '/login'").await;
    desktop.open(&base, "/account").await;
    desktop.wait_for("the other browser signed out", "return location.pathname === '/login'").await;
    assert!(whoami(&server, &other).await.is_err(), "the other session still works over gRPC");
    // A new sign-in works again.
    desktop.login(&base, "wang", PASSWORD).await;
    desktop.open(&base, "/account").await;
    desktop.wait_for("the account page", "return location.pathname === '/account'").await;
    for s in [li, phone, desktop] {
        s.close().await;
    }
}

/// The nigiri secret in a stream, if the stream shows one before the reveal.
async fn nigiri_secret(stream: &mut tonic::Streaming<pb::EventEnvelope>) -> Vec<u8> {
    loop {
        let e = tokio::time::timeout(Duration::from_secs(10), stream.message())
            .await
            .expect("the nigiri within 10 s")
            .unwrap()
            .expect("an event");
        if let Some(pb::game_event::Kind::NigiriCommitted(n)) = e.event.and_then(|e| e.kind) {
            assert!(!n.commitment.is_empty(), "the commitment is shown");
            return n.secret;
        }
    }
}

/// Item 5: ning holds the referee role and plays: in her own game she is a player. Her stream shows
/// no nigiri secret, her referee actions are refused, and her page has no referee panel. mei, a
/// referee who does not play, sees it (the test bites).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_referee_who_plays_gets_the_players_view_of_her_own_game() {
    let Some(driver) = driver().await else { return };
    let (_dir, server) = started();
    let base = server.base.clone();
    let organiser = server.token("org", "organiser");
    let game = create(&server, &organiser, "ning", "wang", true, true, 600_000).await.unwrap();

    let mut seen = watch(&server, &server.token("mei", "referee"), &game).await;
    assert!(!nigiri_secret(&mut seen).await.is_empty(), "a referee who does not play sees the secret");
    for role in ["referee", "player"] {
        let token = server.token("ning", role);
        let mut stream = watch(&server, &token, &game).await;
        assert!(nigiri_secret(&mut stream).await.is_empty(), "ning's {role} token read the nigiri secret");
        let refused = pause(&server, &token, &game, &format!("self-{role}")).await.expect_err("a seated referee");
        assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
        assert_eq!(code(&refused), "seated_referee", "{refused:?}");
    }

    let ning = signed_in(&driver, &base, Viewport::PHONE, "zh-CN", "ning").await;
    ning.open(&base, &format!("/games/{game}")).await;
    ning.wait_for("her game", "return !!document.querySelector('[data-vertex]')").await;
    assert_eq!(ning.js("return !!document.querySelector('#referee')", vec![]).await, json!(false), "a referee panel");
    let html = ning.js("return document.documentElement.outerHTML", vec![]).await;
    assert!(!html.as_str().unwrap().contains("\"secret\""), "the page carries the secret");
    ning.close().await;
}

/// The `wq_csrf` cookie a page sets and the token its forms carry.
fn csrf(base: &str) -> (String, String) {
    let (_, headers, body) = http(base, "GET", "/login", &[], "");
    let cookie = headers
        .iter()
        .filter(|(n, _)| n == "set-cookie")
        .find_map(|(_, v)| v.split(';').next().filter(|c| c.starts_with("wq_csrf=")))
        .expect("a CSRF cookie")
        .to_string();
    let body = String::from_utf8(body).unwrap();
    let at = body.find("name=\"csrf\" value=\"").expect("the CSRF field") + "name=\"csrf\" value=\"".len();
    let token = body[at..].split('"').next().unwrap().to_string();
    (cookie, token)
}

/// Items 10 and 14: every page carries its security headers and comes compressed; an overlay may be
/// framed but runs no inline script either; a login refused by its limit says when to come back
/// (`Retry-After`); a `next` with a TAB in it does not leave the site.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_carry_their_policy_compressed_and_limits_say_when_to_retry() {
    let (_dir, server) = started();
    let base = server.base.clone();
    let organiser = server.token("org", "organiser");
    let game = create(&server, &organiser, "li", "wang", false, true, 600_000).await.unwrap();

    for path in ["/", "/login", "/players", &format!("/games/{game}"), "/verify", "/assets/print.js"] {
        let (status, headers, body) = http(&base, "GET", path, &[("accept-encoding", "gzip, br")], "");
        assert!(status == 200 || path.starts_with("/assets"), "{path}: {status}");
        let csp = header(&headers, "content-security-policy").unwrap_or_else(|| panic!("{path}: no policy"));
        assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(header(&headers, "x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(header(&headers, "x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(header(&headers, "referrer-policy"), Some("same-origin"), "{path}");
        if status == 200 && !path.starts_with("/assets") {
            assert!(
                header(&headers, "content-encoding").is_some_and(|e| e == "br" || e == "gzip"),
                "{path}: {headers:?}"
            );
            let plain = http(&base, "GET", path, &[], "").2;
            assert!(body.len() < plain.len(), "{path}: {} compressed, {} plain", body.len(), plain.len());
            let text = String::from_utf8(plain).unwrap();
            for inline in ["<script>", "onclick=", " style=\"", "<style>"] {
                assert!(!text.contains(inline), "{path} has inline {inline}");
            }
        }
    }
    let (status, headers, body) = http(&base, "GET", &format!("/overlay/{game}"), &[], "");
    assert_eq!(status, 200);
    let csp = header(&headers, "content-security-policy").expect("the overlay's policy");
    assert!(csp.contains("frame-ancestors *") && csp.contains("script-src 'self'"), "{csp}");
    assert_eq!(header(&headers, "x-frame-options"), None, "a broadcaster frames the overlay");
    let text = String::from_utf8(body).unwrap();
    assert!(!text.contains("<script>") && !text.contains("<style>"), "{text}");
    let (status, headers, _) = http(&base, "GET", "/overlay/assets/overlay.js", &[("accept-encoding", "gzip")], "");
    assert_eq!((status, header(&headers, "content-encoding")), (200, Some("gzip")));

    // A TAB in `next`: a browser reads `/\t/evil.example` as `//evil.example`.
    let (cookie, token) = csrf(&base);
    let form = format!("csrf={token}&name=li&password={}&next=%2F%09%2Fevil.example", PASSWORD.replace(' ', "+"));
    let (status, headers, _) = http(
        &base,
        "POST",
        "/login",
        &[("cookie", &cookie), ("content-type", "application/x-www-form-urlencoded")],
        &form,
    );
    assert_eq!((status, header(&headers, "location")), (303, Some("/")), "{headers:?}");

    // Wrong passwords until the limit: the refusal says when to retry, in the page and in the header.
    let mut limited = None;
    for _ in 0..15 {
        let form = format!("csrf={token}&name=wang&password=wrong&next=%2F");
        let (status, headers, body) = http(
            &base,
            "POST",
            "/login",
            &[("cookie", &cookie), ("content-type", "application/x-www-form-urlencoded"), ("accept-language", "zh-CN")],
            &form,
        );
        if status == 429 {
            limited = Some((headers, String::from_utf8(body).unwrap()));
            break;
        }
        assert_eq!(status, 401);
    }
    let (headers, body) = limited.expect("the limit never refused");
    let seconds: u64 = header(&headers, "retry-after").expect("Retry-After").parse().expect("whole seconds");
    assert!((1..=60).contains(&seconds), "{seconds}");
    assert!(body.contains(&seconds.to_string()), "the page says the same wait");
}

/// Fills the registration form on `page` and sends it; answers the error shown, if any.
async fn register(page: &weiqi_browser::Session, base: &str, name: &str, shown: &str) -> Option<String> {
    page.open(base, "/register").await;
    page.fill("input[name=name]", name).await;
    // A name with invisible characters cannot be typed through WebDriver's keys faithfully: set it.
    page.js("document.querySelector('input[name=display_name]').value = arguments[0]", vec![json!(shown)]).await;
    page.fill("input[name=name_latin]", "Newcomer").await;
    page.fill("input[name=region]", "shanghai").await;
    page.fill("input[name=password]", PASSWORD).await;
    page.click("[data-action=register]").await;
    let outcome = page
        .wait_for(
            "the registration's outcome",
            "if (document.readyState !== 'complete') return null; \
             if (location.pathname === '/account') return 'ok'; \
             const e = document.querySelector('[data-error]'); return e && e.textContent",
        )
        .await;
    let outcome = outcome.as_str().unwrap().to_string();
    (outcome != "ok").then_some(outcome)
}

/// Item 6: with sign-up open, a newcomer cannot take a tournament entrant's or a game player's
/// identity, nor an existing name in other capitals, nor a shown name that hides text; an
/// administrator can give the identity its account.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn self_registration_cannot_take_an_identity_the_platform_knows() {
    let Some(driver) = driver().await else { return };
    let (_dir, server) = started();
    let base = server.base.clone();
    // zhao_min plays in a game an organiser set up; he has no account yet.
    let organiser = server.token("org", "organiser");
    let game = create(&server, &organiser, "zhao_min", "li", false, true, 600_000).await.unwrap();
    // sun_li is entered in a tournament by the organiser; she has no account yet.
    let mut tc =
        weiqi_proto::v1::tournament_service_client::TournamentServiceClient::connect(format!("http://{}", server.grpc))
            .await
            .unwrap();
    tc.create_tournament(bearer(
        pb::CreateTournamentRequest {
            request_id: "create-cup".into(),
            tournament_id: "cup".into(),
            config: Some(pb::TournamentConfig {
                name: "杯赛".into(),
                format: Some(pb::TournamentFormat {
                    format: Some(pb::tournament_format::Format::Mcmahon(pb::tournament_format::McMahon {
                        rounds: 2,
                        top_bar: "3d".into(),
                        bottom_bar: "20k".into(),
                    })),
                }),
                seed: 2026,
                ..Default::default()
            }),
            settings: Some(pb::TournamentGameSettings { size: 9, rules: "chinese".into(), ..Default::default() }),
        },
        &organiser,
    ))
    .await
    .expect("the tournament");
    tc.register_player(bearer(
        pb::RegisterPlayerRequest {
            tournament_id: "cup".into(),
            request_id: "reg-sun".into(),
            account_id: "sun_li".into(),
            player: 1,
            snapshot: Some(pb::TournamentPlayerSnapshot {
                name_zh: "孙丽".into(),
                rank: "3k".into(),
                ..Default::default()
            }),
        },
        &organiser,
    ))
    .await
    .expect("sun_li entered");

    let root = signed_in(&driver, &base, Viewport::DESKTOP, "zh-CN", "root").await;
    root.open(&base, "/admin/accounts").await;
    root.click("[data-action=open-registration]").await;
    root.wait_for("registration open", "return !!document.querySelector('[data-registration=open]')").await;

    let visitor = driver.session(Viewport::PHONE, "zh-CN").await.unwrap();
    for (name, shown, why) in [
        ("zhao_min", "赵敏", "a game's player"),
        ("Zhao_Min", "赵敏", "a game's player in capitals"),
        ("sun_li", "孙丽", "a tournament's entrant"),
        ("LI", "李", "an account in other capitals"),
        ("newcomer", "ecila\u{202E}", "a direction override"),
        ("newcomer", "李\u{200B}明", "a zero-width space"),
        ("newcomer", &"长".repeat(65), "a shown name over 64 characters"),
    ] {
        let refused = register(&visitor, &base, name, shown).await;
        assert!(refused.is_some(), "{why}: {name} was registered");
        let text = refused.unwrap();
        assert!(text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{why}: not in Chinese: {text}");
    }
    let refused = register(&visitor, &base, "zhao_min", "赵敏").await.unwrap();
    assert!(refused.contains("管理员"), "the refusal says who can help: {refused}");
    // The game still belongs to no account, and no `zhao_min` or `Zhao_Min` account exists.
    root.open(&base, "/admin/accounts").await;
    let taken = root
        .js(
            "return [...document.querySelectorAll('tr[data-account]')].map(r => r.dataset.account.toLowerCase())",
            vec![],
        )
        .await;
    for name in ["zhao_min", "sun_li", "newcomer"] {
        assert!(!taken.as_array().unwrap().contains(&json!(name)), "{name} in {taken}");
    }
    // A newcomer with a free name and a plain shown name is welcome (capitals are folded).
    assert_eq!(register(&visitor, &base, "NewComer", "新来的").await, None);
    assert_eq!(whoami(&server, &visitor.cookie("wq_session").await.unwrap()).await.unwrap().subject, "newcomer");
    // The administrator gives zhao_min his account: his game is his.
    root.open(&base, "/admin/accounts").await;
    root.fill("input[name=name]", "zhao_min").await;
    root.fill("input[name=display_name]", "赵敏").await;
    root.fill("input[name=password]", PASSWORD).await;
    root.click("[data-action=create-account]").await;
    root.wait_for("the account", "return !!document.querySelector('tr[data-account=zhao_min]')").await;
    let zhao = server.token("zhao_min", "player");
    assert_eq!(view(&server, &zhao, &game).await.game_id, game);
    root.close().await;
    visitor.close().await;
}

/// Item 13: public records need no minted token. The public profile carries none; a finished game's
/// SGF is served to anyone, limited per address; a game in play's record is for signed-in viewers,
/// refused in the visitor's language; the game page's overlay link draws the game for an anonymous
/// visitor; a token that does not verify is refused, never treated as the public's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn public_records_need_no_minted_token_and_are_limited_per_address() {
    let Some(driver) = driver().await else { return };
    let (_dir, server) = started();
    let base = server.base.clone();
    let organiser = server.token("org", "organiser");
    let done = create(&server, &organiser, "li", "wang", false, true, 600_000).await.unwrap();
    let playing = create(&server, &organiser, "li", "wang", false, true, 600_000).await.unwrap();
    let li = server.token("li", "player");
    let mut games = games(&server).await;
    games
        .play_move(bearer(
            pb::PlayMoveRequest {
                game_id: done.clone(),
                request_id: "m1".into(),
                point: Some(pb::Point { x: 4, y: 4 }),
                ..Default::default()
            },
            &li,
        ))
        .await
        .unwrap();
    games
        .resign(bearer(
            pb::GameRequest { game_id: done.clone(), request_id: "wang-resigns".into() },
            &server.token("wang", "player"),
        ))
        .await
        .unwrap();

    let (status, _, profile) = http(&base, "GET", "/players/li", &[], "");
    let profile = String::from_utf8(profile).unwrap();
    assert_eq!(status, 200);
    assert!(profile.contains(&format!("/games/{done}/sgf")), "the record is linked");
    assert!(!profile.contains("token="), "the public profile mints no token");

    let (status, headers, sgf) = http(&base, "GET", &format!("/games/{done}/sgf"), &[], "");
    let sgf = String::from_utf8(sgf).unwrap();
    assert_eq!(status, 200, "{sgf}");
    assert!(header(&headers, "content-type").unwrap().starts_with("application/x-go-sgf"));
    assert!(sgf.starts_with("(;") && sgf.contains("RE[B+R]"), "{sgf}");
    let (status, _, body) = http(&base, "GET", &format!("/games/{playing}/sgf"), &[("accept-language", "zh-CN")], "");
    assert_eq!(status, 403);
    assert!(String::from_utf8(body).unwrap().contains("登录"), "refused in Chinese");
    let (status, _, body) =
        http(&base, "GET", &format!("/games/{playing}/sgf?token={li}"), &[("accept-language", "en")], "");
    assert_eq!(status, 200, "a token reads a game in play: {}", String::from_utf8_lossy(&body));
    let (status, _, body) =
        http(&base, "GET", &format!("/games/{done}/sgf?token=forged"), &[("accept-language", "en")], "");
    assert_eq!(status, 401);
    let body = String::from_utf8(body).unwrap();
    assert!(body.contains("sign in again") && !body.contains("InvalidToken"), "{body}");

    // The game page's overlay link, for a visitor who is not signed in.
    let visitor = driver.session(Viewport::DESKTOP, "zh-CN").await.unwrap();
    visitor.open(&base, &format!("/games/{done}")).await;
    visitor.click("[data-link=overlay]").await;
    visitor
        .wait_for(
            "the overlay's board and result",
            "return document.querySelectorAll('#board circle').length > 4 && !document.getElementById('resultbox').hidden && document.getElementById('result').textContent",
        )
        .await;
    let result = visitor.text("#result").await.unwrap();
    assert!(result.contains("黑") && result.contains("中盘胜"), "{result}");
    visitor.close().await;

    // One address asking too often is slowed, with Retry-After.
    let mut limited = None;
    for _ in 0..200 {
        let (status, headers, _) = http(&base, "GET", &format!("/games/{done}/sgf"), &[], "");
        if status == 429 {
            limited = Some(headers);
            break;
        }
        assert_eq!(status, 200);
    }
    let headers = limited.expect("no limit per address");
    assert!(header(&headers, "retry-after").is_some());
    // A signed-in viewer is not the public's limit.
    let (status, _, _) = http(&base, "GET", &format!("/games/{done}/sgf?token={li}"), &[], "");
    assert_eq!(status, 200);
}

/// A 9×9 game of the event `cup` between li (Black) and wang, started, with a spectators' delay of
/// `moves` moves or `minutes` minutes, created by `organiser`.
async fn delayed_game(server: &Server, organiser: &str, moves: u32, minutes: u32) -> String {
    let request = pb::CreateGameRequest {
        request_id: format!("delayed-{}", uuid_like()),
        size: 9,
        rules: "chinese".into(),
        first: player("li"),
        second: player("wang"),
        color_method: pb::game_created::ColorMethod::Fixed as i32,
        event_id: "cup".into(),
        start: true,
        spectator_delay_moves: moves,
        spectator_delay_minutes: minutes,
        ..Default::default()
    };
    games(server).await.create_game(bearer(request, organiser)).await.unwrap().into_inner().game_id
}

/// The first `view` of an open Server-Sent Events stream (its `data` as JSON).
async fn first_view(base: &str, path: &str) -> serde_json::Value {
    use tokio::io::AsyncReadExt;
    let mut stream = open_sse(base, path).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let mut seen = String::new();
    let mut buf = [0u8; 8192];
    loop {
        if let Some(start) = seen.find("event: view\ndata: ") {
            let rest = &seen[start + "event: view\ndata: ".len()..];
            if let Some(end) = rest.find('\n') {
                return serde_json::from_str(&rest[..end]).unwrap_or_else(|e| panic!("{e}: {rest}"));
            }
        }
        let n = tokio::time::timeout_at(deadline, stream.read(&mut buf)).await.expect("a view in time").unwrap();
        assert!(n > 0, "the stream ended without a view: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
}

/// The events a `Watch` stream sends within `within`.
async fn watched(server: &Server, token: Option<&str>, game: &str, within: Duration) -> Vec<pb::EventEnvelope> {
    let request = pb::WatchRequest { game_id: game.into(), from_sequence: 1 };
    let request = match token {
        Some(t) => bearer(request, t),
        None => tonic::Request::new(request),
    };
    let mut stream = games(server).await.watch(request).await.unwrap().into_inner();
    let deadline = tokio::time::Instant::now() + within;
    let mut out = Vec::new();
    while let Ok(Ok(Some(e))) = tokio::time::timeout_at(deadline, stream.message()).await {
        out.push(e);
    }
    out
}

fn stones_played(envelopes: &[pb::EventEnvelope]) -> usize {
    envelopes
        .iter()
        .filter(|e| {
            matches!(e.event.as_ref().and_then(|e| e.kind.as_ref()), Some(pb::game_event::Kind::StonePlayed(_)))
        })
        .count()
}

/// Issue 34 item 1: a game of an event with a spectators' delay of two moves. After four moves, every
/// spectator channel (the game page and its stream, the overlay's stream, the live SGF, the lobby's
/// list, gRPC `GetGame` and `Watch`) carries the first two and nothing of the last two; the players,
/// the event's referee and its organiser see all four. A fifth move shows the third; the game's end
/// shows everything. A delay in minutes holds back every move of a game just begun.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_spectator_channel_carries_a_move_before_its_delay() {
    let (_dir, server) = started();
    let base = server.base.clone();
    let organiser = server.token("org", "organiser");
    let game = delayed_game(&server, &organiser, 2, 0).await;
    let (li, wang) = (server.token("li", "player"), server.token("wang", "player"));
    let moves = [(&li, 2, 2), (&wang, 6, 6), (&li, 2, 6), (&wang, 6, 2), (&li, 4, 4)];
    let play = |n: usize| {
        let (token, x, y) = moves[n];
        let server = &server;
        let game = game.clone();
        async move {
            let request = pb::PlayMoveRequest {
                game_id: game,
                request_id: format!("m{n}"),
                point: Some(pb::Point { x, y }),
                ..Default::default()
            };
            games(server).await.play_move(bearer(request, token)).await.unwrap();
        }
    };
    // Both SGF vertices of a move: `cc` for (2, 2).
    let sgf = |n: usize| {
        let (_, x, y) = moves[n];
        format!("[{}{}]", (b'a' + x as u8) as char, (b'a' + y as u8) as char)
    };
    for n in 0..4 {
        play(n).await;
    }

    // What the spectators see: two moves.
    let bob = server.token("bob", "player");
    assert_eq!(view(&server, &bob, &game).await.move_number, 2, "GetGame for a spectator");
    let (status, _, page) = http(&base, "GET", &format!("/games/{game}"), &[], "");
    let page = String::from_utf8(page).unwrap();
    assert_eq!(status, 200);
    assert!(page.contains("\"move_number\":2") && !page.contains("\"move_number\":4"), "the game page holds two moves");
    assert!(page.contains("data-spectator-delay=\"true\""), "and says it is delayed");
    let live = first_view(&base, &format!("/games/{game}/live")).await;
    assert_eq!(live["move_number"], 2, "the game page's stream: {live}");
    assert_eq!(live["clocks_frozen"], true, "the clocks shown stand as they stood at the second move");
    let overlay = first_view(&base, &format!("/overlay/{game}/events")).await;
    assert_eq!(overlay["move_number"], 2, "the overlay's stream: {overlay}");
    let (status, _, record) = http(&base, "GET", &format!("/games/{game}/sgf?token={bob}"), &[], "");
    let record = String::from_utf8(record).unwrap();
    assert_eq!(status, 200, "{record}");
    assert!(record.contains(&sgf(0)) && record.contains(&sgf(1)), "{record}");
    assert!(!record.contains(&sgf(2)) && !record.contains(&sgf(3)), "the live SGF holds back two moves: {record}");
    let (_, _, lobby) = http(&base, "GET", "/", &[], "");
    let lobby = String::from_utf8(lobby).unwrap();
    let row = lobby.split(&format!("data-game=\"{game}\"")).nth(1).expect("the game in the lobby's list");
    assert!(row[..row.find("</tr>").unwrap()].contains("data-delayed"), "the lobby shows no move number");
    let public = watched(&server, None, &game, Duration::from_millis(1500)).await;
    assert_eq!(stones_played(&public), 2, "gRPC Watch without a token");
    let spectator = watched(&server, Some(&bob), &game, Duration::from_millis(1500)).await;
    assert_eq!(stones_played(&spectator), 2, "gRPC Watch for a signed-in spectator");

    // The players, the event's referee and its organiser see all four.
    for who in [&li, &wang, &server.token("mei", "referee"), &organiser] {
        assert_eq!(view(&server, who, &game).await.move_number, 4);
        assert_eq!(stones_played(&watched(&server, Some(who), &game, Duration::from_millis(800)).await), 4);
    }
    let (_, _, record) = http(&base, "GET", &format!("/games/{game}/sgf?token={li}"), &[], "");
    assert!(String::from_utf8(record).unwrap().contains(&sgf(3)), "a player's SGF is live");

    // A fifth move shows the third; the end of the game shows everything.
    play(4).await;
    assert_eq!(view(&server, &bob, &game).await.move_number, 3);
    assert_eq!(first_view(&base, &format!("/games/{game}/live")).await["move_number"], 3);
    let request = pb::GameRequest { game_id: game.clone(), request_id: "resign".into() };
    games(&server).await.resign(bearer(request, &wang)).await.unwrap();
    assert_eq!(view(&server, &bob, &game).await.move_number, 5);
    let (status, _, record) = http(&base, "GET", &format!("/games/{game}/sgf"), &[], "");
    let record = String::from_utf8(record).unwrap();
    assert_eq!(status, 200);
    assert!(record.contains(&sgf(4)) && record.contains("RE[B+R]"), "{record}");

    // Fifteen minutes: a game just begun shows spectators no move at all.
    let slow = delayed_game(&server, &organiser, 0, 15).await;
    let request = pb::PlayMoveRequest {
        game_id: slow.clone(),
        request_id: "s1".into(),
        point: Some(pb::Point { x: 4, y: 4 }),
        ..Default::default()
    };
    games(&server).await.play_move(bearer(request, &li)).await.unwrap();
    assert_eq!(view(&server, &bob, &slow).await.move_number, 0);
    assert_eq!(first_view(&base, &format!("/overlay/{slow}/events")).await["move_number"], 0);
    assert_eq!(view(&server, &li, &slow).await.move_number, 1);
}

/// Issue 34 item 1 as a spectator reads it, on a phone in Chinese: the game page says the game is
/// shown late and holds back the latest moves; the lobby's list says "delayed" instead of the move
/// number; a player of the game sees every move and the same note.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_is_told_the_game_is_delayed() {
    let Some(driver) = driver().await else { return };
    let (_dir, server) = started();
    let base = server.base.clone();
    let organiser = server.token("org", "organiser");
    let game = delayed_game(&server, &organiser, 1, 0).await;
    let (li, wang) = (server.token("li", "player"), server.token("wang", "player"));
    for (n, (token, x, y)) in [(&li, 2, 2), (&wang, 6, 6), (&li, 2, 6)].into_iter().enumerate() {
        let request = pb::PlayMoveRequest {
            game_id: game.clone(),
            request_id: format!("p{n}"),
            point: Some(pb::Point { x, y }),
            ..Default::default()
        };
        games(&server).await.play_move(bearer(request, token)).await.unwrap();
    }
    let spectator = driver.session(Viewport::PHONE, "zh-CN").await.unwrap();
    spectator.open(&base, &format!("/games/{game}")).await;
    spectator.wait_for("the board", "return !!document.querySelector('[data-vertex]')").await;
    let note = spectator.text("[data-spectator-delay]").await.unwrap_or_default();
    assert!(note.contains("延迟") && note.contains("1手"), "{note}");
    // Moves 1 and 2 are on the board; move 3 (C3) is not.
    assert_eq!(spectator.stone("C7").await.as_deref(), Some("black"));
    assert_eq!(spectator.stone("G3").await.as_deref(), Some("white"));
    assert_eq!(spectator.stone("C3").await, None, "the latest move is held back");
    common::shoot(&spectator, &base, &format!("/games/{game}"), "delayed-game-phone", "zh-CN", "en").await;
    spectator.open(&base, "/").await;
    let row = spectator.text(&format!("tr[data-game='{game}'] [data-delayed]")).await.unwrap_or_default();
    assert!(row.contains("延迟"), "{row}");
    common::shoot(&spectator, &base, "/", "delayed-lobby-phone", "zh-CN", "en").await;
    // The English page says it in the singular.
    spectator.open(&base, "/?lang=en").await;
    let row = spectator.text(&format!("tr[data-game='{game}'] [data-delayed]")).await.unwrap_or_default();
    assert_eq!(row.trim(), "delayed 1 move");
    let player = signed_in(&driver, &base, Viewport::PHONE, "zh-CN", "li").await;
    player.open(&base, &format!("/games/{game}")).await;
    player.wait_for("the board", "return !!document.querySelector('[data-vertex]')").await;
    player.wait_stone("C3", "black").await;
}
