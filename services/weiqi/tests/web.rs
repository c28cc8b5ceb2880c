//! The web in real Chromium (Debian's `chromium` through `chromium-driver`), against `weiqi up` on the
//! embedded log and on a real nats-server, scripted only through WEB.md's stable test contract.
//!
//! Screenshots (lobby, a game in play, the scoring phase, a finished game; desktop and phone; zh-CN
//! and en) are written to `$CARGO_TARGET_TMPDIR/web-screenshots/`.

mod common;

use std::path::Path;
use std::time::Duration;

use common::{PASSWORD, bearer, driver, screenshots, shoot, signed_in};
use serde_json::json;
use weiqi_browser::{Server, Session, Viewport, play};

const WEIQI: &str = env!("CARGO_BIN_EXE_weiqi");

fn server(dir: &Path, nats: Option<&str>) -> Server {
    let s = Server::new(Path::new(WEIQI), &dir.join("data"), nats);
    s.add_account("li", &["player"], "李明", PASSWORD);
    s.add_account("wang", &["player"], "王芳", PASSWORD);
    s.add_account("zhao", &["player"], "赵强", PASSWORD);
    s.add_account("ref", &["referee"], "裁判张", PASSWORD);
    s.add_account("root", &["admin"], "Administrator", PASSWORD);
    s
}

/// `li` (Black) challenges `wang` to a 9×9 game; `wang` accepts; both pages are on the game.
async fn challenge(server: &Server, li: &Session, wang: &Session) -> String {
    weiqi_browser::site::challenge(&server.base, li, "wang", wang, 9).await
}

/// A 9×9 game of the event `city-open`, `black` against `white`, started, made by its organiser.
async fn event_game(server: &Server, black: &str, white: &str) -> String {
    use weiqi_proto::v1 as pb;
    let organiser = server.token("org", "organiser");
    let mut games =
        pb::game_service_client::GameServiceClient::connect(format!("http://{}", server.grpc)).await.unwrap();
    let player = |id: &str| Some(pb::PlayerRef { id: id.into(), ..Default::default() });
    let request = pb::CreateGameRequest {
        request_id: format!("event-game-{black}-{white}"),
        size: 9,
        rules: "chinese".into(),
        first: player(black),
        second: player(white),
        color_method: pb::game_created::ColorMethod::Fixed as i32,
        event_id: "city-open".into(),
        start: true,
        ..Default::default()
    };
    games.create_game(bearer(request, &organiser)).await.unwrap().into_inner().game_id
}

/// The moves of the test game: Black builds a wall on E, White on F (then White invades at B5 and dies).
fn walls() -> Vec<(&'static str, &'static str)> {
    let black = ["E5", "E4", "E6", "E3", "E7", "E2", "E8", "E1", "E9"];
    let white = ["F5", "F4", "F6", "F3", "F7", "F2", "F8", "F1", "F9"];
    black.into_iter().zip(white).flat_map(|(b, w)| [(b, "black"), (w, "white")]).collect()
}

async fn game_to_the_count(nats: Option<&str>, with_screenshots: bool) {
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), nats);
    server.start();
    let base = server.base.clone();
    let li = signed_in(&driver, &base, Viewport::DESKTOP, "zh-CN", "li").await;
    let wang = signed_in(&driver, &base, Viewport::PHONE, "en", "wang").await;
    let game = challenge(&server, &li, &wang).await;
    if with_screenshots {
        let lobby = driver.session(Viewport::DESKTOP, "zh-CN").await.unwrap();
        lobby.login(&base, "zhao", PASSWORD).await;
        shoot(&lobby, &base, "/", "lobby-desktop", "zh-CN", "en").await;
        let phone = driver.session(Viewport::PHONE, "en").await.unwrap();
        phone.login(&base, "zhao", PASSWORD).await;
        shoot(&phone, &base, "/", "lobby-phone", "en", "zh-CN").await;
    }
    let path = format!("/games/{game}");
    for (i, (vertex, color)) in walls().into_iter().enumerate() {
        let (mover, other) = if color == "black" { (&li, &wang) } else { (&wang, &li) };
        play(mover, other, vertex, color).await;
        if with_screenshots && i == 9 {
            shoot(&li, &base, &path, "game-desktop", "zh-CN", "en").await;
            shoot(&wang, &base, &path, "game-phone", "en", "zh-CN").await;
        }
    }
    play(&li, &wang, "C3", "black").await;
    play(&wang, &li, "B5", "white").await;
    li.wait_to_move("black").await;
    // WEB.md: the connection's state on the board's container; a player's stream beats every second,
    // so it stays live while nothing happens for longer than the three seconds that make it stale.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let live = "return document.querySelector('.board-wrap').getAttribute('data-connection')";
    assert_eq!(li.js(live, vec![]).await, json!("live"), "a quiet but live stream is not stale");
    // A casual game has no referee to open a sealed move: no player may seal it (issue 32 item 3).
    let seal = "return !!document.querySelector('[data-action=seal]')";
    assert_eq!(li.js(seal, vec![]).await, json!(false), "no seal control in a casual game");
    li.command("pass", true).await;
    wang.wait_to_move("white").await;
    wang.command("pass", true).await;
    // The count: the estimator suggests the invader dead; if it did not, Black marks it.
    for page in [&li, &wang] {
        page.wait_for("the scoring phase", "return !!document.querySelector('[data-action=accept]')").await;
    }
    let suggested = li.js("return document.querySelector('[data-vertex=B5]').getAttribute('data-dead')", vec![]).await;
    if suggested != json!("true") {
        li.click("[data-vertex=B5]").await;
    }
    for page in [&li, &wang] {
        page.wait_for(
            "B5 marked dead",
            "return document.querySelector('[data-vertex=B5]').getAttribute('data-dead') === 'true'",
        )
        .await;
    }
    if with_screenshots {
        shoot(&li, &base, &path, "scoring-desktop", "zh-CN", "en").await;
        shoot(&wang, &base, &path, "scoring-phone", "en", "zh-CN").await;
        li.wait_for("the scoring phase again", "return !!document.querySelector('[data-action=accept]')").await;
        wang.wait_for("the scoring phase again", "return !!document.querySelector('[data-action=accept]')").await;
    }
    // Issue 32 item 4: White accepts, then Black taps a live chain of its own. The marks change, White's
    // acceptance is withdrawn, both pages say so, and Black has accepted nothing by tapping.
    wang.command("accept", false).await;
    wang.wait_for(
        "White's acceptance shown",
        "return document.querySelector('#count').textContent.includes('White has accepted')",
    )
    .await;
    li.click("[data-vertex=C3]").await;
    wang.wait_for("the marks changed, said to White", "return !!document.querySelector('#count .small.changed')").await;
    let said = wang.js("return document.querySelector('#count').textContent", vec![]).await;
    assert!(!said.as_str().unwrap_or_default().contains("has accepted"), "a tap accepts nothing: {said}");
    // Black takes the mark back; then both accept.
    li.click("[data-vertex=C3]").await;
    for page in [&li, &wang] {
        page.wait_for(
            "C3 alive again",
            "return document.querySelector('[data-vertex=C3]').getAttribute('data-dead') !== 'true'",
        )
        .await;
    }
    li.command("accept", false).await;
    wang.wait_for("black's acceptance shown", "return !!document.querySelector('[data-action=accept]')").await;
    wang.command("accept", false).await;
    let (a, b) = (li.result().await, wang.result().await);
    assert_eq!(a, b, "both pages show the same result");
    // The same as `weiqi play show` through gRPC.
    let token = server.weiqi(&[
        "token",
        "--sub",
        "zhao",
        "--role",
        "spectator",
        "--data-dir",
        server.data_dir().to_str().unwrap(),
    ]);
    let shown =
        server.weiqi(&["play", "show", &game, "--server", &format!("http://{}", server.grpc), "--token", token.trim()]);
    let line = shown.lines().find(|l| l.starts_with("result: ")).unwrap_or_else(|| panic!("no result in {shown}"));
    assert_eq!(line.trim_start_matches("result: ").split_whitespace().next(), Some(a.as_str()), "{shown}");
    assert_eq!(a, "B+1.5", "45 points to 36 with 7.5 komi");
    if with_screenshots {
        shoot(&li, &base, &path, "finished-desktop", "zh-CN", "en").await;
        shoot(&wang, &base, &path, "finished-phone", "en", "zh-CN").await;
        eprintln!("screenshots in {}", screenshots().display());
    }
    // Issue 32 item 8: a player's games read as games (day, colour, opponent by name, result, won or
    // lost), on the profile and in the rank application, never as ids.
    li.open(&base, "/players/li").await;
    let script = format!(
        "const r = document.querySelector('li[data-game=\"{game}\"]'); return r && [r.textContent, r.dataset.outcome, r.querySelector('time').getAttribute('datetime')]"
    );
    let row = li.wait_for("the game on the profile", &script).await;
    let text = row[0].as_str().unwrap_or_default();
    assert!(text.contains("执黑对 王芳") && text.contains("胜"), "{row}");
    assert_eq!(row[1], json!("won"), "{row}");
    let day = row[2].as_str().unwrap_or_default();
    assert!(day.len() == 10 && day.as_bytes()[4] == b'-' && day.as_bytes()[7] == b'-', "a day: {row}");
    li.open(&base, "/account/rank").await;
    let script = format!(
        "const i = document.querySelector('[data-evidence=\"{game}\"]'); return i && i.closest('label').textContent"
    );
    let line = li.wait_for("the game offered as evidence", &script).await;
    let line = line.as_str().unwrap_or_default();
    assert!(line.contains("王芳") && !line.contains(&game), "a game by its opponent and day, not its id: {line}");
    // Item 15: "My games", filtered.
    li.open(&base, "/my/games?outcome=won&size=9&opponent=王").await;
    li.wait_for(
        "the won game listed",
        &format!("return !!document.querySelector('li[data-game=\"{game}\"][data-outcome=won]')"),
    )
    .await;
    li.open(&base, "/my/games?outcome=lost").await;
    let none = li.wait_for("no lost game", "return document.body.textContent.includes('没有符合条件的对局') && !document.querySelector('li[data-game]')").await;
    assert_eq!(none, json!(true));
    if with_screenshots {
        li.open(&base, "/my/games").await;
        shoot(&li, &base, "/my/games", "my-games-desktop", "zh-CN", "en").await;
    }
    // Item 11: the review of the finished game: step through it, try a variation, see the territory
    // and the graph of the estimated lead.
    let review = format!("/games/{game}/review");
    li.open(&base, &review).await;
    li.wait_for("the review loaded", "return document.querySelectorAll('#graph [data-point]').length > 20").await;
    let stones = "return document.querySelectorAll('[data-vertex][data-stone]').length";
    li.click("[data-action=review-first]").await;
    li.wait_for("the empty board", &format!("{stones} === 0")).await;
    for _ in 0..3 {
        li.click("[data-action=review-next]").await;
    }
    li.wait_for("three stones after move 3", &format!("{stones} === 3")).await;
    li.click("[data-vertex=A1]").await;
    li.wait_for("a variation stone", "return document.querySelector('[data-vertex=A1]').getAttribute('data-stone') === 'white' && document.querySelector('#variation').dataset.variation === '1'").await;
    li.click("[data-action=review-main]").await;
    li.wait_for("back to the game", "return !document.querySelector('[data-vertex=A1]').hasAttribute('data-stone')")
        .await;
    li.click("[data-action=review-last]").await;
    li.click("[data-action=review-territory]").await;
    li.wait_for("the territory shown", "return document.querySelectorAll('.own-black').length > 10 && document.querySelectorAll('.own-white').length > 10").await;
    if with_screenshots {
        shoot(&li, &base, &review, "review-desktop", "zh-CN", "en").await;
        wang.open(&base, &review).await;
        wang.wait_for("the review on the phone", "return document.querySelectorAll('#graph [data-point]').length > 20")
            .await;
        shoot(&wang, &base, &review, "review-phone", "en", "zh-CN").await;
    }

    // The shared board: li drives, wang follows live on the board's link, steps away on his own and
    // follows again.
    li.open(&base, &review).await;
    li.click("[data-action=review-share]").await;
    let link = li
        .wait_for("the shared board", "return location.pathname.startsWith('/reviews/') && document.querySelector('[data-shared-board][data-driver=true]') && location.pathname")
        .await;
    let link = link.as_str().expect("the board's path").to_string();
    li.wait_for("the review loaded", "return document.querySelectorAll('#graph [data-point]').length > 20").await;
    wang.open(&base, &link).await;
    wang.wait_for("wang follows", "return !!document.querySelector('[data-shared-board][data-driver=false]') && document.querySelectorAll('#graph [data-point]').length > 20").await;
    li.click("[data-action=review-first]").await;
    li.click("[data-action=review-next]").await;
    li.click("[data-action=review-next]").await;
    li.click("[data-vertex=A1]").await;
    let shown = "return document.querySelector('#scrub').value + '/' + document.querySelector('#variation').dataset.variation + '/' + document.querySelector('[data-vertex=A1]').getAttribute('data-stone')";
    li.wait_for("li's variation", &format!("{shown} === '2/1/black'")).await;
    wang.wait_for("wang sees li's board", &format!("{shown} === '2/1/black'")).await;
    // Only the driver moves the board: the server refuses anyone else.
    let refused = wang
        .client
        .execute_async(
            "const done = arguments[0]; fetch(location.pathname, {method: 'POST', headers: {'content-type': 'application/json', 'x-csrf-token': document.querySelector('meta[name=csrf-token]').content}, body: JSON.stringify({at: 0})}).then(async r => done([r.status, await r.json()]));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(refused[0], json!(403), "{refused}");
    assert_eq!(refused[1]["code"], json!("review_not_driver"), "{refused}");
    if with_screenshots {
        // (The follower's page in the other language comes back to the board as it stands.)
        shoot(&wang, &base, &link, "review-shared-phone", "en", "zh-CN").await;
        wang.wait_for("wang follows again after the reload", &format!("{shown} === '2/1/black'")).await;
    }
    wang.click("[data-action=review-follow]").await;
    li.click("[data-action=review-last]").await;
    li.wait_for(
        "li at the end",
        "return document.querySelector('#scrub').value === document.querySelector('#scrub').max",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(wang.js(shown, vec![]).await, json!("2/1/black"), "wang stepped away: his board stays");
    wang.click("[data-action=review-follow]").await;
    wang.wait_for(
        "wang follows again",
        "return document.querySelector('#scrub').value === document.querySelector('#scrub').max",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_challenge_play_count_and_agree_on_the_embedded_log() {
    game_to_the_count(None, true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_challenge_play_count_and_agree_on_jetstream() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    game_to_the_count(Some(&nats.url()), false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ko_is_refused_with_the_reason_and_the_board_left_as_it_was_and_spectators_never_see_a_sealed_move() {
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), None);
    server.start();
    let base = server.base.clone();
    let li = signed_in(&driver, &base, Viewport::DESKTOP, "en", "li").await;
    let wang = signed_in(&driver, &base, Viewport::DESKTOP, "zh-CN", "wang").await;
    // A game of an event (only those may be adjourned), made by its organiser through gRPC.
    let game = event_game(&server, "li", "wang").await;
    li.open(&base, &format!("/games/{game}")).await;
    wang.open(&base, &format!("/games/{game}")).await;
    // A spectator, not signed in, follows the game from the start.
    let spectator = driver.session(Viewport::PHONE, "en").await.unwrap();
    spectator.open(&base, &format!("/games/{game}")).await;
    for (vertex, color) in [
        ("D6", "black"),
        ("E6", "white"),
        ("C5", "black"),
        ("F5", "white"),
        ("D4", "black"),
        ("E4", "white"),
        ("H8", "black"),
        ("D5", "white"),
        ("E5", "black"),
    ] {
        let (mover, other) = if color == "black" { (&li, &wang) } else { (&wang, &li) };
        play(mover, other, vertex, color).await;
        spectator.wait_stone(vertex, color).await;
    }
    assert_eq!(wang.stone("D5").await, None, "Black's E5 took D5");
    let board =
        "return [...document.querySelectorAll('[data-vertex]')].map(e => e.getAttribute('data-stone') || '.').join('')";
    let before = wang.js(board, vec![]).await;
    wang.wait_to_move("white").await;
    wang.click("[data-vertex=D5]").await;
    let error = wang
        .wait_for("the ko refusal", "const e = document.querySelector('[data-error]'); return e && e.textContent")
        .await;
    assert!(error.as_str().unwrap().contains("打劫"), "the reason in the page's language: {error}");
    wang.wait_for(
        "the stone taken back",
        "return !document.querySelector('[data-vertex=D5]').hasAttribute('data-stone')",
    )
    .await;
    assert_eq!(wang.js(board, vec![]).await, before, "the refused stone is taken back");
    assert_eq!(li.js(board, vec![]).await, before);

    // White plays elsewhere; Black seals a move: the spectator's page never learns which.
    play(&wang, &li, "J1", "white").await;
    li.wait_to_move("black").await;
    li.command("seal", false).await;
    li.click("[data-vertex=G3]").await;
    li.click("[data-action=confirm]").await;
    spectator.wait_for("the adjournment", "return document.querySelector('#status').textContent.length > 0 && !document.querySelector('[data-to-move]')").await;
    li.wait_for("the adjournment on li's page", "return !document.querySelector('[data-to-move]')").await;
    assert_eq!(spectator.stone("G3").await, None);
    let text = spectator.js("return document.body.innerText", vec![]).await;
    assert!(!text.as_str().unwrap().contains("G3"), "the sealed point is not on the spectator's page");
    let html = spectator.js("return document.documentElement.outerHTML", vec![]).await;
    assert!(!html.as_str().unwrap().contains("sealed_point"));
    // Nor in what the spectator's stream sends (read for two seconds: the opening view and ticks).
    let stream = spectator
        .client
        .execute_async(
            "const done = arguments[0]; const ctl = new AbortController(); let all = ''; setTimeout(() => ctl.abort(), 2000); fetch(location.pathname + '/live', {signal: ctl.signal}).then(async r => { const rd = r.body.getReader(); try { for (;;) { const {value, done: end} = await rd.read(); if (end) break; all += new TextDecoder().decode(value); } } catch (_) {} done(all); });",
            vec![],
        )
        .await
        .unwrap();
    let stream = stream.as_str().unwrap();
    assert!(stream.contains("event: view") && stream.contains("\"sealed\":true"), "{stream}");
    assert!(!stream.contains("G3"), "the sealed point is not in the spectator's stream");
    let moves = spectator.text("#moves").await.unwrap_or_default();
    assert!(!moves.contains("G3"), "{moves}");
}

async fn url(s: &Session) -> String {
    s.client.current_url().await.unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_pages_reconnect_after_the_gateway_restarts_and_the_game_goes_on() {
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), None);
    server.start();
    let base = server.base.clone();
    let li = signed_in(&driver, &base, Viewport::DESKTOP, "en", "li").await;
    let wang = signed_in(&driver, &base, Viewport::PHONE, "en", "wang").await;
    let game = challenge(&server, &li, &wang).await;
    play(&li, &wang, "E5", "black").await;
    play(&wang, &li, "C3", "white").await;
    // The multi-board view follows the game too; the game page links to its SGF record (the session
    // cookie is the token) and its overlay.
    let wall = driver.session(Viewport::DESKTOP, "en").await.unwrap();
    wall.open(&base, &format!("/watch?games={game}")).await;
    wall.wait_stone("E5", "black").await;
    wall.wait_stone("C3", "white").await;
    // The broadcast overlay draws with the same board module and speaks the catalogue (issue 29 item 3):
    // the stones on `[data-vertex]`, the last move marked, the words in the page's language.
    let overlay = driver.session(Viewport::DESKTOP, "zh-CN").await.unwrap();
    overlay.open(&base, &format!("/overlay/{game}?lang=zh-CN")).await;
    overlay.wait_stone("E5", "black").await;
    overlay.wait_stone("C3", "white").await;
    overlay.wait_for("the last move marked", "return !!document.querySelector('[data-vertex=C3].last')").await;
    overlay
        .wait_for(
            "the sides and the move list in Chinese",
            "const t = document.body.innerText; return t.includes('黑') && t.includes('提子') && t.includes('第2手');",
        )
        .await;
    overlay.screenshot(&screenshots().join("overlay-desktop-zh-CN.png")).await;
    let sgf = li.client.execute_async(
        "const done = arguments[0]; fetch(document.querySelector('[data-link=sgf]').href).then(async r => done([r.status, await r.text()]));",
        vec![],
    ).await.unwrap();
    assert_eq!(sgf[0], json!(200), "{sgf}");
    assert!(sgf[1].as_str().unwrap().contains(";B[ee];W[cg]"), "{sgf}");
    let (li_url, wang_url) = (url(&li).await, url(&wang).await);
    server.kill();
    for page in [&li, &wang] {
        page.wait_for("the lost connection shown", "return document.body.classList.contains('offline')").await;
    }
    server.start();
    for page in [&li, &wang] {
        page.wait_for("the reconnection", "return !document.body.classList.contains('offline')").await;
    }
    play(&li, &wang, "G7", "black").await;
    play(&wang, &li, "C7", "white").await;
    wall.wait_stone("C7", "white").await;
    assert_eq!((url(&li).await, url(&wang).await), (li_url.clone(), wang_url), "no reload");
    assert!(li_url.ends_with(&format!("/games/{game}")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logins_are_checked_limited_and_csrf_protected_and_a_disabled_account_is_logged_out() {
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), None);
    server.start();
    let base = server.base.clone();
    let li = signed_in(&driver, &base, Viewport::DESKTOP, "en", "li").await;
    let root = signed_in(&driver, &base, Viewport::DESKTOP, "en", "root").await;

    // A POST without the CSRF token is refused and changes nothing.
    let status = li.client.execute_async(
        "const done = arguments[0]; fetch('/challenges', {method: 'POST', headers: {'content-type': 'application/x-www-form-urlencoded'}, body: 'to=wang&size=9&rules=chinese&color=black&time=none'}).then(r => done(r.status));",
        vec![],
    ).await.unwrap();
    assert_eq!(status, json!(403));
    li.open(&base, "/").await;
    assert_eq!(li.js("return document.querySelectorAll('[data-challenge]').length", vec![]).await, json!(0));
    let status = li.client.execute_async(
        "const done = arguments[0]; fetch(location.origin + '/games/x/act', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({request_id: 'r1', action: 'resign'})}).then(r => done(r.status));",
        vec![],
    ).await.unwrap();
    assert_eq!(status, json!(403), "a fetch without x-csrf-token is refused");

    // A wrong password is refused; the tenth rapid attempt is limited.
    let stranger = driver.session(Viewport::PHONE, "en").await.unwrap();
    let mut limited_at = None;
    for attempt in 1..=10 {
        stranger.open(&base, "/login").await;
        stranger.fill("input[name=name]", "wang").await;
        stranger.fill("input[name=password]", "not the password").await;
        stranger.click("form[action='/login'] button[type=submit]").await;
        let error = stranger
            .wait_for("the refusal", "const e = document.querySelector('[data-error]'); return e && e.textContent")
            .await;
        let error = error.as_str().unwrap().to_string();
        assert!(stranger.client.current_url().await.unwrap().path().starts_with("/login"));
        if error.contains("Too many attempts") {
            limited_at.get_or_insert(attempt);
        } else {
            assert!(error.contains("Wrong name or password"), "{error}");
        }
    }
    let limited_at = limited_at.expect("the attempts are limited");
    assert!(limited_at <= 10, "limited from attempt {limited_at}");

    // li issues an API token on the account page; it works through gRPC until li revokes it.
    li.open(&base, "/account").await;
    li.fill("input[name=label]", "my bot").await;
    li.click("[data-action=issue-token]").await;
    let token = li
        .wait_for("the token shown once", "const t = document.querySelector('[data-token]'); return t && t.value")
        .await;
    let token = token.as_str().unwrap().to_string();
    let game = {
        let organiser = server.weiqi(&[
            "token",
            "--sub",
            "organiser",
            "--role",
            "organiser",
            "--event",
            "*",
            "--data-dir",
            server.data_dir().to_str().unwrap(),
        ]);
        server
            .weiqi(&[
                "play",
                "new",
                "--server",
                &format!("http://{}", server.grpc),
                "--token",
                organiser.trim(),
                "--black",
                "li",
                "--white",
                "wang",
                "--size",
                "9",
            ])
            .trim()
            .to_string()
    };
    let grpc = format!("http://{}", server.grpc);
    let show = |token: String| {
        std::process::Command::new(WEIQI)
            .args(["play", "show", &game, "--server", &grpc, "--token", &token])
            .output()
            .unwrap()
    };
    assert!(show(token.clone()).status.success(), "the new token works");
    li.click("[data-token-id] [data-action=revoke-token]").await;
    li.wait_for("the revocation", "return !document.querySelector('[data-token-id]')").await;
    let refused = show(token.clone());
    assert!(
        !refused.status.success() && String::from_utf8_lossy(&refused.stderr).contains("revoked"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );

    // An administrator disables li: li's next page is signed out.
    root.open(&base, "/admin/accounts").await;
    root.click("tr[data-account=li] [data-action=disable]").await;
    root.wait_for(
        "the disable confirmed",
        "return !!document.querySelector('tr[data-account=li] [data-action=enable]')",
    )
    .await;
    li.open(&base, "/account").await;
    li.wait_for("li sent to the login page", "return location.pathname === '/login'").await;
    // And li's tokens for programs stop working at once too.
    let cli =
        server.weiqi(&["token", "--sub", "li", "--role", "player", "--data-dir", server.data_dir().to_str().unwrap()]);
    let refused = show(cli.trim().to_string());
    assert!(
        !refused.status.success() && String::from_utf8_lossy(&refused.stderr).contains("disabled"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    // The stranger's ten attempts used up this address's logins: wait for the limit to let one through
    // (it replenishes one every 6 s), then li's correct password meets the disabled account.
    let mut error;
    loop {
        li.open(&base, "/login").await;
        li.fill("input[name=name]", "li").await;
        li.fill("input[name=password]", PASSWORD).await;
        li.click("form[action='/login'] button[type=submit]").await;
        error = li
            .wait_for(
                "the disabled refusal",
                "const e = document.querySelector('[data-error]'); return e && e.textContent",
            )
            .await;
        if !error.as_str().unwrap().contains("Too many attempts") {
            break;
        }
        tokio::time::sleep(Duration::from_secs(3)).await;
    }
    assert!(error.as_str().unwrap().contains("disabled"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_referee_warns_and_pauses_from_the_panel_and_a_player_has_no_panel_and_is_refused() {
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), None);
    server.start();
    let base = server.base.clone();
    let li = signed_in(&driver, &base, Viewport::DESKTOP, "en", "li").await;
    let wang = signed_in(&driver, &base, Viewport::DESKTOP, "en", "wang").await;
    let referee = signed_in(&driver, &base, Viewport::DESKTOP, "zh-CN", "ref").await;
    let game = challenge(&server, &li, &wang).await;
    play(&li, &wang, "E5", "black").await;
    assert_eq!(
        li.js("return !!document.querySelector('#referee')", vec![]).await,
        json!(false),
        "no referee panel for a player"
    );
    // The endpoint refuses a player's referee command (the gateway's own check).
    let answer = post_from_page(
        &li,
        "/act",
        json!({"request_id": "forged-1", "action": "warn", "color": "white", "reason": "forged"}),
    )
    .await;
    assert_eq!(answer[0], json!(403), "{answer}");
    assert_eq!(answer[1]["code"], json!("seated_referee"), "{answer}");

    referee.open(&base, &format!("/games/{game}")).await;
    referee.wait_for("the referee panel", "return !!document.querySelector('#referee [data-action=warn]')").await;
    referee.js("const f = document.querySelector('form[data-referee=warn]'); f.color.value = 'white'; f.reason.value = '拖延时间';", vec![]).await;
    referee.click("[data-action=warn]").await;
    wang.wait_for(
        "the warning on White's page",
        "return document.querySelector('.side[data-side=white] .warnings').textContent.includes('1')",
    )
    .await;
    // Issue 32 item 8: the warning's reason reaches the players, and so does the pause's.
    wang.wait_for(
        "the warning's reason in White's notes",
        "return document.querySelector('#notes [data-note=warning]')?.textContent.includes('拖延时间')",
    )
    .await;
    referee.js("document.querySelector('form[data-referee=pause]').reason.value = '棋钟故障';", vec![]).await;
    referee.click("[data-action=pause]").await;
    for page in [&li, &wang] {
        page.wait_for("the pause and why", "return !document.querySelector('[data-to-move]') && document.querySelector('#status').textContent.includes('Paused') && document.querySelector('#status').textContent.includes('棋钟故障')").await;
    }
    // A tap while paused says why nothing happens.
    wang.click("[data-vertex=C3]").await;
    wang.wait_for(
        "a tap while paused answered",
        "return document.querySelector('[data-error]')?.textContent.includes('clocks are stopped')",
    )
    .await;
    referee.click("[data-action=resume]").await;
    wang.wait_to_move("white").await;
    play(&wang, &li, "C3", "white").await;

    // Issue 32 item 2: the referee corrects Black's clock in this Chinese byo-yomi game (10 min of
    // basic time, 3 of them reserved: 7:00 of main time): the form opens on the clocks as they read,
    // the referee sets Black's main time to 5:00, and both pages show it.
    referee
        .js(
            "const f = document.querySelector('form[data-referee=\"correct-clock\"]'); f.querySelector('[data-clock-main=black]').focus(); f.querySelector('[data-clock-main=black]').value = '300'; f.reason.value = '钟表故障';",
            vec![],
        )
        .await;
    let white_main = referee.js("return document.querySelector('[data-clock-main=white]').value", vec![]).await;
    assert!(
        white_main.as_str().is_some_and(|v| v.parse::<u32>().is_ok_and(|s| (400..=420).contains(&s))),
        "White's clock as it reads: {white_main}"
    );
    referee.click("[data-action=correct-clock]").await;
    for page in [&li, &wang] {
        page.wait_for(
            "Black's clock corrected to 5:00",
            "const t = document.querySelector('[data-clock=black]').textContent; return t.startsWith('5:00') || t.startsWith('4:5');",
        )
        .await;
    }
    let error =
        referee.js("const e = document.querySelector('[data-error]'); return e ? e.textContent : ''", vec![]).await;
    assert_eq!(error, json!(""), "the correction was accepted");

    // Issue 32 item 5: Black retakes a ko without a threat (transcribed from the board, say): the
    // referee voids Black's move 3 on Art. 18.3. The stone goes, Black forfeits the turn and is
    // warned, both pages say so, and so does the record.
    play(&li, &wang, "G7", "black").await;
    referee.js("const f = document.querySelector('form[data-referee=void]'); f.ground.value = 'ko'; f.reason.value = '提劫未找劫材';", vec![]).await;
    referee.click("[data-action=void]").await;
    for page in [&li, &wang] {
        page.wait_for(
            "the void said on the page",
            "const n = document.querySelector('#notes [data-note=voided]'); return !document.querySelector('[data-vertex=G7]').hasAttribute('data-stone') && n && n.textContent.includes('18.3') && n.textContent.includes('Black forfeits the turn');",
        )
        .await;
    }
    li.wait_for(
        "Black's warning",
        "return document.querySelector('.side[data-side=black] .warnings').textContent.includes('1')",
    )
    .await;
    wang.wait_to_move("white").await;
    let (status, _, sgf) = li.download(&format!("/games/{game}/sgf")).await;
    assert_eq!(status, 200);
    assert!(
        sgf.contains(
            "B[]C[Black's move 3 at G7 voided by the referee (Art. 18.3): Black forfeits the turn. Reason: 提劫未找劫材"
        ),
        "the void and the forfeited turn in the record: {sgf}"
    );
    assert!(sgf.contains("Referee: warning 1 to White. Reason: 拖延时间"), "{sgf}");
    assert!(sgf.contains("Referee: the game is paused. Reason: 棋钟故障"), "{sgf}");
    // The referee's page in Chinese says it in Chinese.
    referee
        .wait_for(
            "the void in Chinese",
            "return document.querySelector('#notes [data-note=voided]')?.textContent.includes('黑停一手')",
        )
        .await;

    // Items 6 and 7: the game page says the exact time settings; the move list ends on the latest
    // move, and the stones can carry their numbers.
    let settings = wang.text("[data-time-settings]").await.unwrap_or_default();
    assert!(settings.contains("10 min") && settings.contains("3 min byo-yomi"), "{settings}");
    let current = wang.text("#moves li[aria-current]").await.unwrap_or_default();
    assert!(
        current.starts_with("2.") && current.contains("C3"),
        "the latest move marked (the void one is gone): {current}"
    );
    wang.click("[data-action=numbers]").await;
    wang.wait_for(
        "numbers on the stones",
        "return document.querySelector('[data-vertex=E5] .num')?.textContent === '1'",
    )
    .await;
}

/// What the page's own script could send to `{its path}{suffix}` (same origin, its CSRF token), as a
/// forger on the page would: `[status, answer]`.
async fn post_from_page(page: &weiqi_browser::Session, suffix: &str, body: serde_json::Value) -> serde_json::Value {
    page.client
        .execute_async(
            "const done = arguments[2]; fetch(location.pathname + arguments[0], {method: 'POST', headers: {'content-type': 'application/json', 'x-csrf-token': document.querySelector('meta[name=csrf-token]').content}, body: JSON.stringify(arguments[1])}).then(async r => done([r.status, await r.json()]));",
            vec![json!(suffix), body],
        )
        .await
        .unwrap()
}

/// A TCP proxy the test controls: it forwards both ways until told to stall, then holds every byte
/// (keeping the connections open, as a phone's network gone quiet does) until told to flow again.
struct StallingProxy {
    base: String,
    stalled: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl StallingProxy {
    async fn start(upstream: &str) -> StallingProxy {
        use std::sync::atomic::AtomicBool;
        let target = upstream.trim_start_matches("http://").to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let stalled = std::sync::Arc::new(AtomicBool::new(false));
        let flag = stalled.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = tokio::net::TcpStream::connect(&target).await else { continue };
                let (cr, cw) = client.into_split();
                let (sr, sw) = server.into_split();
                tokio::spawn(pump(cr, sw, flag.clone()));
                tokio::spawn(pump(sr, cw, flag.clone()));
            }
        });
        StallingProxy { base, stalled }
    }

    fn stall(&self, on: bool) {
        self.stalled.store(on, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Copies `from` to `to`, holding each chunk while `stalled` is set.
async fn pump(
    mut from: impl tokio::io::AsyncRead + Unpin,
    mut to: impl tokio::io::AsyncWrite + Unpin,
    stalled: std::sync::Arc<std::sync::atomic::AtomicBool>,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        while stalled.load(std::sync::atomic::Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if to.write_all(&buf[..n]).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}

/// Issue 32 item 1: a phone's connection stops forwarding without closing. Its page marks itself stale
/// within three seconds, stops the clocks at the last reading and says so; a stone tapped meanwhile
/// says it is pending; when the network flows again the page is live, the message goes, and the move
/// reaches the opponent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_connection_is_noticed_within_three_seconds_and_recovers() {
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), None);
    server.start();
    let base = server.base.clone();
    let proxy = StallingProxy::start(&base).await;
    let li = signed_in(&driver, &base, Viewport::DESKTOP, "en", "li").await;
    let wang = signed_in(&driver, &base, Viewport::PHONE, "en", "wang").await;
    let game = challenge(&server, &li, &wang).await;
    // Wang's phone reaches the site through the proxy (the session cookie is the host's, whatever port).
    wang.open(&proxy.base, &format!("/games/{game}")).await;
    wang.wait_for("the game through the proxy", "return !!document.querySelector('[data-vertex]')").await;
    play(&li, &wang, "E5", "black").await;
    let state = "return document.querySelector('.board-wrap').getAttribute('data-connection')";
    assert_eq!(wang.js(state, vec![]).await, json!("live"));
    // Issue 32 item 15: on a phone the first tap only proposes the stone (a ghost, a confirm control);
    // cancel takes it away, and nothing was played.
    wang.click("[data-vertex=D4]").await;
    wang.wait_for("the proposed stone", "return document.querySelector('[data-vertex=D4]').getAttribute('data-candidate') === 'true' && !document.querySelector('[data-vertex=D4]').hasAttribute('data-stone') && !!document.querySelector('[data-action=confirm]')").await;
    wang.click("[data-action=cancel]").await;
    wang.wait_for(
        "the proposal withdrawn",
        "return !document.querySelector('[data-candidate]') && !document.querySelector('[data-action=confirm]')",
    )
    .await;
    assert_eq!(li.stone("D4").await, None, "a first tap plays nothing");

    proxy.stall(true);
    let stalled_at = std::time::Instant::now();
    wang.wait_for(
        "the page stale",
        "return document.querySelector('.board-wrap').getAttribute('data-connection') !== 'live'",
    )
    .await;
    eprintln!("stale after {:?} of silence", stalled_at.elapsed());
    let said = wang.text("#status").await.unwrap_or_default();
    assert!(said.contains("reconnecting"), "the page says so: {said}");
    // The clocks stand at the last reading while the page cannot hear the server.
    let clocks = "return [...document.querySelectorAll('[data-clock]')].map(e => e.textContent).join(' ')";
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = wang.js(clocks, vec![]).await;
    tokio::time::sleep(Duration::from_millis(2200)).await;
    assert_eq!(wang.js(clocks, vec![]).await, before, "frozen clocks while stale");
    // A stone tapped now (twice: a phone proposes it first) is pending, and says so.
    wang.tap_to_play("C3").await;
    wang.wait_for(
        "the pending move said",
        "return document.querySelector('#status').textContent.includes('Sending C3')",
    )
    .await;

    proxy.stall(false);
    wang.wait_for(
        "live again",
        "return document.querySelector('.board-wrap').getAttribute('data-connection') === 'live'",
    )
    .await;
    li.wait_stone("C3", "white").await;
    wang.wait_for("the move confirmed", "return !document.querySelector('#status').textContent.includes('Sending') && !document.querySelector('#status').textContent.includes('reconnecting')").await;
    wang.wait_stone("C3", "white").await;
}

/// Issue 32 items 6 and 13: the challenge form shows only the chosen system's fields, takes seconds,
/// the offer says the exact settings, and the challenger is taken to the game when it is accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_says_its_exact_time_settings_and_the_challenger_is_taken_to_the_game() {
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), None);
    server.start();
    let base = server.base.clone();
    let li = signed_in(&driver, &base, Viewport::PHONE, "zh-CN", "li").await;
    let wang = signed_in(&driver, &base, Viewport::DESKTOP, "en", "wang").await;
    li.open(&base, "/").await;
    let visible = "return [...document.querySelectorAll('fieldset[data-time-for]')].filter(f => !f.hidden).map(f => f.dataset.timeFor).join('|')";
    let shown = li.js(visible, vec![]).await;
    assert!(
        shown.as_str().is_some_and(|s| s.split('|').any(|f| f == "chinese") && !s.split('|').any(|f| f == "japanese")),
        "Chinese byo-yomi's fields only: {shown}"
    );
    li.js("const s = document.querySelector('select[data-time-system]'); s.value = 'japanese'; s.dispatchEvent(new Event('change'));", vec![]).await;
    let shown = li.js(visible, vec![]).await;
    assert!(
        shown.as_str().is_some_and(|s| s.split('|').any(|f| f == "japanese") && !s.split('|').any(|f| f == "chinese")),
        "Japanese byo-yomi's fields only: {shown}"
    );
    li.fill("#challenge input[name=to]", "wang").await;
    li.js("const f = document.querySelector('#challenge form'); f.size.value = '9'; f.color.value = 'black'; f.main_minutes.value = '0'; f.main_seconds.value = '45'; f.periods.value = '3'; f.period_seconds.value = '30';", vec![]).await;
    li.click("[data-action=challenge]").await;
    let terms = li
        .wait_for(
            "the offer listed",
            "const c = document.querySelector('[data-challenge][data-mine]'); return c && c.textContent",
        )
        .await;
    assert!(
        terms.as_str().is_some_and(|t| t.contains("45秒") && t.contains("读秒30秒3次")),
        "the exact settings: {terms}"
    );
    wang.open(&base, "/").await;
    let offered = wang.text("[data-challenge]").await.unwrap_or_default();
    assert!(offered.contains("45 s + 3 × 30 s byo-yomi"), "{offered}");
    wang.click("[data-action=accept-challenge]").await;
    let game = wang.game_id().await;
    // The challenger did nothing: their lobby takes them to the game.
    assert_eq!(li.game_id().await, game, "the challenger's page moved to the game");
    let settings = li.text("[data-time-settings]").await.unwrap_or_default();
    assert!(settings.contains("45秒") && settings.contains("30秒3次"), "{settings}");
}

/// Issue 32 item 12: ranks beside names in the lobby, an open-seek list filtered by rank band, and a
/// rated casual game (offered rated, 19×19 with a clock) that changes both players' ratings (Elo,
/// which rates each game at once).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_casual_game_changes_both_ratings_and_open_seeks_are_filtered_by_rank() {
    rated_casual_game("elo").await;
}

/// Issue 33 item 1: `weiqi account add --rank --region` enters a player's account in the player
/// registry at once, with the grade as the association writes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_added_from_the_command_line_is_in_the_registry_with_the_declared_grade() {
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), None);
    let data = server.data_dir().to_str().unwrap().to_string();
    let said = server.weiqi(&[
        "account",
        "--data-dir",
        &data,
        "add",
        "kim",
        "--role",
        "player",
        "--display-name",
        "金志勋",
        "--rank",
        "3段",
        "--region",
        "延边",
    ]);
    assert!(said.contains("in the player registry as 3d"), "{said}");
    server.start();
    let public = driver.session(Viewport::PHONE, "zh-CN").await.unwrap();
    public.open(&server.base, "/players/kim").await;
    let profile = public.wait_for("kim's entry", "return document.querySelector('main').textContent").await;
    let profile = profile.as_str().unwrap_or_default();
    assert!(
        profile.contains("金志勋")
            && profile.contains("业余3段")
            && profile.contains("延边")
            && !profile.contains("未登记"),
        "{profile}"
    );
}

/// Issue 33 item 3: under Glicko-2 (the default), which rates by weekly period, the same game shows
/// provisional ratings at once: on the leaderboard (marked provisional, with the grade the rating
/// stands for) and on the profile (with its chart), final when the period closes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_glicko2_ratings_show_from_the_first_game_provisionally() {
    rated_casual_game("glicko2").await;
}

async fn rated_casual_game(system: &str) {
    use weiqi_proto::v1 as pb;
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), None);
    server.env.push(("WEIQI_RATING_SYSTEM".into(), system.into()));
    let glicko2 = system == "glicko2";
    server.start();
    let base = server.base.clone();
    // The association's registry knows the three players (ranks as the office writes them).
    let organiser = server.token("org", "organiser");
    let mut rc =
        pb::ranking_service_client::RankingServiceClient::connect(format!("http://{}", server.grpc)).await.unwrap();
    for (id, name, rank) in [("li", "李明", "2段"), ("wang", "王芳", "1d"), ("zhao", "赵强", "5级")] {
        let profile = pb::RegistryProfile { player_id: id.into(), name_zh: name.into(), ..Default::default() };
        let r =
            pb::RegistryRegisterRequest { request_id: format!("reg-{id}"), profile: Some(profile), rank: rank.into() };
        rc.register_player(bearer(r, &organiser)).await.unwrap();
    }
    let rating = |account: &str| {
        let (mut rc, token) = (rc.clone(), server.token(account, "player"));
        async move { rc.my_rating(bearer(pb::MyRatingRequest {}, &token)).await.unwrap().into_inner() }
    };
    let (li_before, wang_before) = (rating("li").await, rating("wang").await);
    assert!(
        li_before.rating > 0.0 && wang_before.rating > 0.0,
        "seeded from the declared ranks: {li_before:?} {wang_before:?}"
    );

    let li = signed_in(&driver, &base, Viewport::PHONE, "zh-CN", "li").await;
    li.open(&base, "/").await;
    // A rated 9×9 offer is refused with the reason, in the page's language.
    li.js("const f = document.querySelector('#challenge form'); f.size.value = '9'; f.rated.checked = true;", vec![])
        .await;
    li.click("[data-action=challenge]").await;
    let refused = li
        .wait_for(
            "the refusal",
            "const e = document.querySelector('[data-error=challenge]'); return e && e.textContent",
        )
        .await;
    assert!(refused.as_str().is_some_and(|t| t.contains("19路")), "{refused}");
    // An open rated 19×19 offer, Black.
    li.js("const f = document.querySelector('#challenge form'); f.size.value = '19'; f.color.value = 'black'; f.rated.checked = true;", vec![]).await;
    li.click("[data-action=challenge]").await;
    li.wait_for("the offer listed", "return !!document.querySelector('[data-challenge][data-mine][data-rated]')").await;

    // zhao (5 kyu) looks for games among the dan players: li's seek (2 dan) is there, with the rank
    // beside the name; among the kyu players it is not, and the page says one is left out.
    let zhao = signed_in(&driver, &base, Viewport::DESKTOP, "en", "zhao").await;
    zhao.open(&base, "/?from=1d&to=9d").await;
    let seek = zhao.text("[data-challenge][data-by=li]").await.unwrap_or_default();
    assert!(seek.contains("李明") && seek.contains("2d") && seek.contains("Rated"), "{seek}");
    zhao.js("const f = document.querySelector('form[data-band]'); f.from.value = '10k'; f.to.value = '3k';", vec![])
        .await;
    zhao.click("[data-action=band]").await;
    zhao.wait_for(
        "the seek left out",
        "return !document.querySelector('[data-challenge][data-by=li]') && document.querySelector('[data-band-hidden]')?.dataset.bandHidden === '1'",
    )
    .await;
    li.open(&base, "/").await;
    shoot(&li, &base, "/", "lobby-ranks-phone", "zh-CN", "en").await;

    // wang (1 dan) accepts; both ratings change when the game ends.
    let wang = signed_in(&driver, &base, Viewport::DESKTOP, "en", "wang").await;
    wang.open(&base, "/").await;
    wang.click("[data-challenge][data-by=li] [data-action=accept-challenge]").await;
    let game = wang.game_id().await;
    li.open(&base, &format!("/games/{game}")).await;
    assert_eq!(li.game_id().await, game);
    let rated = wang.text("[data-time-settings] [data-rated]").await.unwrap_or_default();
    assert_eq!(rated, "Rated");
    play(&li, &wang, "Q16", "black").await;
    // The lobby lists the game in play with both ranks beside the names.
    zhao.open(&base, "/?from=1d&to=9d").await;
    let live = zhao.text("#live-games").await.unwrap_or_default();
    assert!(live.contains("李明 2d") && live.contains("王芳 1d"), "{live}");
    shoot(&zhao, &base, "/?from=1d&to=9d", "lobby-ranks-desktop", "en", "zh-CN").await;
    // And /watch, with the ranks beside the names.
    zhao.open(&base, &format!("/watch?games={game}&lang=en")).await;
    let names = zhao
        .wait_for("the board's names", "const n = document.querySelector('article.mini .names'); return n && n.textContent.includes('2d') && n.textContent")
        .await;
    assert!(names.as_str().is_some_and(|n| n.contains("李明 2d") && n.contains("王芳 1d")), "{names}");
    wang.command("resign", true).await;
    assert_eq!(li.result().await, "B+R");
    let mut after = (rating("li").await, rating("wang").await);
    for _ in 0..100 {
        if after.0.games > 0 && after.1.games > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        after = (rating("li").await, rating("wang").await);
    }
    let (li_after, wang_after) = after;
    assert_eq!((li_after.games, wang_after.games), (1, 1), "{li_after:?} {wang_after:?}");
    assert!(li_after.rating > li_before.rating, "the winner gains: {li_before:?} → {li_after:?}");
    assert!(wang_after.rating < wang_before.rating, "the loser drops: {wang_before:?} → {wang_after:?}");
    assert_eq!(li_after.pending_games, u32::from(glicko2), "Glicko-2's period is still open: {li_after:?}");

    // The leaderboard lists both from this first game, each with the grade its rating stands for
    // (provisional under Glicko-2 until the period closes); the profile shows the rating and its chart.
    let public = driver.session(Viewport::PHONE, "zh-CN").await.unwrap();
    common::ratings_shown(&public, &base, &[("li", &li_after), ("wang", &wang_after)], glicko2).await;
    if glicko2 {
        // The profile is open (in Chinese).
        shoot(&public, &base, "/players/li", "profile-glicko2-phone", "zh-CN", "en").await;
        public.open(&base, "/players").await;
        shoot(&public, &base, "/players", "leaderboard-glicko2-phone", "zh-CN", "en").await;
    }
}

/// Issue 32 item 10: the players talk in their room, the spectators in theirs; a player's page holds
/// nothing of the spectators' room, and the server refuses it the stream, until the game ends; a
/// message is shown as text; staff hide a message and mute its author.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_chat_apart_until_the_game_ends() {
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), None);
    server.start();
    let base = server.base.clone();
    let li = signed_in(&driver, &base, Viewport::DESKTOP, "zh-CN", "li").await;
    let wang = signed_in(&driver, &base, Viewport::PHONE, "en", "wang").await;
    let game = challenge(&server, &li, &wang).await;
    let path = format!("/games/{game}");
    let zhao = signed_in(&driver, &base, Viewport::DESKTOP, "en", "zhao").await;
    zhao.open(&base, &path).await;
    let root = signed_in(&driver, &base, Viewport::DESKTOP, "zh-CN", "root").await;
    root.open(&base, &path).await;
    play(&li, &wang, "E5", "black").await;

    // The players' room.
    li.fill("[data-chat=players] input[name=text]", "你好，请多指教").await;
    li.click("[data-chat=players] [data-action=chat-send]").await;
    wang.wait_for("the greeting on White's phone", "return [...document.querySelectorAll('[data-chat=players] [data-message]')].some(m => m.textContent.includes('请多指教'))").await;
    wang.fill("[data-chat=players] input[name=text]", "Good luck!").await;
    wang.click("[data-chat=players] [data-action=chat-send]").await;
    // The spectators' room: a spectator has no players' panel and cannot write there.
    assert_eq!(zhao.js("return !!document.querySelector('[data-chat=players]')", vec![]).await, json!(false));
    zhao.fill("[data-chat=spectators] input[name=text]", "Black is ahead <b>clearly</b>").await;
    zhao.click("[data-chat=spectators] [data-action=chat-send]").await;
    zhao.wait_for("the spectator's message, as text", "const m = document.querySelector('[data-chat=spectators] [data-message]'); return m && m.textContent.includes('<b>clearly</b>') && !m.querySelector('b')").await;
    let forged = post_from_page(
        &zhao,
        "/chat",
        json!({"request_id": "forged-chat", "action": "post", "room": "players", "text": "psst: play D4"}),
    )
    .await;
    assert_eq!(forged[0], json!(403), "{forged}");
    assert_eq!(forged[1]["code"], json!("chat_not_a_player"), "{forged}");
    // Nothing of it on a player's page, and the server refuses a player the stream.
    tokio::time::sleep(Duration::from_millis(500)).await;
    for page in [&li, &wang] {
        let seen = page.js("return [!!document.querySelector('[data-chat=spectators]'), document.body.textContent.includes('Black is ahead')]", vec![]).await;
        assert_eq!(seen, json!([false, false]), "no kibitzing on a player's page");
    }
    let (status, _, _) = li.download(&format!("{path}/chat/live?room=spectators")).await;
    assert_eq!(status, 403, "a player in play is refused the spectators' stream");
    // Nor is a game in play reviewed: the estimator must not help its players (issue 32 item 11).
    let (status, _, _) = li.download(&format!("{path}/review/data")).await;
    assert_eq!(status, 409, "no review of a game in play");
    // Staff read both rooms; they hide the spectator's message and mute its author.
    root.wait_for("both rooms for staff", "return document.querySelectorAll('[data-chat=players] [data-message]').length === 2 && document.querySelectorAll('[data-chat=spectators] [data-message]').length === 1").await;
    root.js("window.prompt = () => '剧透';", vec![]).await;
    root.click("[data-chat=spectators] [data-action=chat-hide]").await;
    zhao.wait_for("the hidden message gone", "return !document.querySelector('[data-chat=spectators] [data-message]')")
        .await;
    root.click("[data-chat=spectators] [data-action=chat-mute]").await;
    root.wait_for(
        "the author muted",
        "return document.querySelector('[data-chat=spectators] .chat-error').textContent.includes('已禁言')",
    )
    .await;
    zhao.fill("[data-chat=spectators] input[name=text]", "again").await;
    zhao.click("[data-chat=spectators] [data-action=chat-send]").await;
    zhao.wait_for(
        "a muted author refused",
        "return document.querySelector('[data-chat=spectators] .chat-error').textContent.includes('muted')",
    )
    .await;
    let players_room = zhao.js("return !!document.querySelector('[data-chat=players]')", vec![]).await;
    assert_eq!(players_room, json!(false));
    shoot(&wang, &base, &path, "chat-phone", "en", "zh-CN").await;
    shoot(&root, &base, &path, "chat-staff-desktop", "zh-CN", "en").await;

    // The game ends: the players now read the spectators' room and may write in it.
    li.command("resign", true).await;
    li.wait_for(
        "the spectators' room opened to Black",
        "return !!document.querySelector('[data-chat=spectators] input[name=text]')",
    )
    .await;
    li.fill("[data-chat=spectators] input[name=text]", "谢谢观战").await;
    li.click("[data-chat=spectators] [data-action=chat-send]").await;
    zhao.wait_for("the player's thanks among the spectators", "return [...document.querySelectorAll('[data-chat=spectators] [data-message]')].some(m => m.textContent.includes('谢谢观战'))").await;
    shoot(&li, &base, &path, "chat-desktop", "zh-CN", "en").await;
}

/// Issue 32 item 14: the opponent leaves; the player is told, and in a casual game whose offer said
/// 30 seconds, claims the win once they have been away that long (the server measures the absence).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_whose_opponent_stays_away_is_told_and_claims_the_win() {
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), None);
    server.start();
    let base = server.base.clone();
    let li = signed_in(&driver, &base, Viewport::DESKTOP, "en", "li").await;
    let wang = signed_in(&driver, &base, Viewport::DESKTOP, "zh-CN", "wang").await;
    li.open(&base, "/").await;
    li.fill("#challenge input[name=to]", "wang").await;
    li.js("const f = document.querySelector('#challenge form'); f.size.value = '9'; f.color.value = 'black'; f.absence_claim_seconds.value = '30';", vec![]).await;
    li.click("[data-action=challenge]").await;
    li.wait_for("the offer listed", "return !!document.querySelector('[data-challenge][data-mine]')").await;
    wang.open(&base, "/").await;
    wang.click("[data-action=accept-challenge]").await;
    let game = wang.game_id().await;
    assert_eq!(li.game_id().await, game);
    play(&li, &wang, "E5", "black").await;
    // A claim before the time is refused by the server, whatever the page sends.
    let early = post_from_page(&li, "/act", json!({"request_id": "early-claim", "action": "claim-absence"})).await;
    assert_eq!(early[1]["code"], json!("opponent_not_away_long_enough"), "{early}");
    // White leaves the game's page.
    wang.open(&base, "/").await;
    li.wait_for(
        "White said to be away",
        "return !!document.querySelector('.side[data-side=white] .presence[data-away]')",
    )
    .await;
    let said = li.text(".side[data-side=white] .presence").await.unwrap_or_default();
    assert!(said.contains("Disconnected"), "{said}");
    // Thirty seconds of absence (the page's waits are shorter than that).
    tokio::time::sleep(Duration::from_secs(20)).await;
    li.wait_for("the claim offered after 30 s", "return !!document.querySelector('[data-action=claim-absence]')").await;
    li.command("claim-absence", true).await;
    assert_eq!(li.result().await, "B+F");

    // Item 12: a rematch, the same game with colours swapped, offered from the finished game's page;
    // the challenger is taken to it when it is accepted.
    li.click("[data-action=rematch]").await;
    let terms = li
        .wait_for(
            "the rematch offered",
            "const c = document.querySelector('[data-challenge][data-mine]'); return c && c.textContent",
        )
        .await;
    assert!(terms.as_str().is_some_and(|t| t.contains("10 min, of which 3 min byo-yomi")), "the same clock: {terms}");
    wang.open(&base, "/").await;
    wang.click("[data-action=accept-challenge]").await;
    let second = wang.game_id().await;
    assert_ne!(second, game);
    assert_eq!(li.game_id().await, second, "the challenger is taken to the rematch");
    wang.wait_for(
        "colours swapped",
        "return document.querySelector('.side[data-side=white] .name').textContent === '李明'",
    )
    .await;
}

#[test]
fn weiqi_bench_web_reports_its_keys() {
    if weiqi_browser::Driver::tools().is_err() {
        if weiqi_testkit::require_external() {
            panic!("chromium and chromium-driver are required: apt-get install chromium chromium-driver");
        }
        eprintln!("skipping: chromium or chromium-driver missing");
        return;
    }
    let out = std::process::Command::new(WEIQI).args(["bench", "web", "--moves", "10", "--json"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    for key in ["moves", "own_p50_ms", "own_p95_ms", "opponent_p50_ms", "opponent_p95_ms", "page_bytes"] {
        assert!(last[key].is_number(), "{key} in {last}");
    }
    assert_eq!(last["moves"], json!(10));
    assert!(last["page_bytes"].as_u64().unwrap() > 1000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nigiri_challenge_is_guessed_on_the_page_and_the_game_starts() {
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), None);
    server.start();
    let base = server.base.clone();
    let li = signed_in(&driver, &base, Viewport::DESKTOP, "zh-CN", "li").await;
    let wang = signed_in(&driver, &base, Viewport::PHONE, "zh-CN", "wang").await;
    // An open challenge (to anyone) with nigiri, and one declined.
    li.open(&base, "/").await;
    li.js("document.querySelector('#challenge select[name=size]').value = '13'; document.querySelector('#challenge select[name=color]').value = 'nigiri';", vec![]).await;
    li.click("[data-action=challenge]").await;
    li.wait_for("the challenge listed", "return !!document.querySelector('[data-challenge] [data-action=cancel]')")
        .await;
    wang.open(&base, "/").await;
    wang.wait_for(
        "an open challenge for anyone",
        "return !!document.querySelector('[data-challenge] [data-action=accept-challenge]')",
    )
    .await;
    assert_eq!(
        wang.js("return !!document.querySelector('[data-action=decline]')", vec![]).await,
        json!(false),
        "an open challenge is taken or left, not declined"
    );
    wang.click("[data-action=accept-challenge]").await;
    let game = wang.game_id().await;
    li.open(&base, &format!("/games/{game}")).await;
    // The higher-ranked (here: the first) player holds the stones; the other guesses.
    let guesser = {
        let mut found = None;
        for _ in 0..100 {
            for (page, name) in [(&li, "li"), (&wang, "wang")] {
                if page.js("return !!document.querySelector('[data-action=guess-odd]')", vec![]).await == json!(true) {
                    found = Some((page, name));
                }
            }
            if found.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        found.expect("one player is asked to guess")
    };
    guesser.0.click("[data-action=guess-odd]").await;
    for page in [&li, &wang] {
        page.wait_to_move("black").await;
    }
    let li_side = li.js("return document.querySelector('.side.me').dataset.side", vec![]).await;
    let wang_side = wang.js("return document.querySelector('.side.me').dataset.side", vec![]).await;
    assert_ne!(li_side, wang_side, "one Black, one White");
    assert_eq!(li.js("return document.querySelectorAll('[data-vertex]').length", vec![]).await, json!(169));
    eprintln!("nigiri: {} guessed; li is {li_side}", guesser.1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_administrator_link_works_once_and_the_administrator_makes_accounts_and_opens_self_registration() {
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::new(Path::new(WEIQI), &dir.path().join("data"), None);
    server.start();
    let link = server.setup_link.clone().expect("weiqi up prints the first-administrator link while there is none");
    assert!(link.starts_with(&format!("{}/setup/", server.base)), "{link}");
    let admin = driver.session(Viewport::DESKTOP, "en").await.unwrap();
    admin.client.goto(&link).await.unwrap();
    admin.fill("input[name=name]", "chief").await;
    admin.fill("input[name=display_name]", "陈会长").await;
    admin.fill("input[name=password]", PASSWORD).await;
    admin.click("form button[type=submit]").await;
    admin
        .wait_for(
            "the accounts page",
            "return location.pathname === '/admin/accounts' && !!document.querySelector('tr[data-account=chief]')",
        )
        .await;
    // The administrator makes a player from the page; the player signs in.
    admin.fill("form[action='/admin/accounts'] input[name=name]", "sun").await;
    admin.fill("form[action='/admin/accounts'] input[name=display_name]", "孙悦").await;
    admin.fill("form[action='/admin/accounts'] input[name=password]", PASSWORD).await;
    admin.fill("form[action='/admin/accounts'] input[name=rank]", "3段").await;
    admin.fill("form[action='/admin/accounts'] input[name=region]", "hangzhou").await;
    admin.click("[data-action=create-account]").await;
    admin.wait_for("the new account", "return !!document.querySelector('tr[data-account=sun]')").await;
    // Issue 33 item 1: the player's account is in the registry at once, with the declared rank.
    admin.open(&server.base, "/players/sun?lang=zh-CN").await;
    let profile = admin.wait_for("sun's registry entry", "return document.querySelector('main').textContent").await;
    let profile = profile.as_str().unwrap_or_default();
    assert!(
        profile.contains("孙悦")
            && profile.contains("3段")
            && profile.contains("hangzhou")
            && !profile.contains("未登记"),
        "{profile}"
    );
    // The registry page (issue 33 item 1): found by region; the declared grade corrected with a reason
    // and the club entered, both kept in the player's record.
    admin.open(&server.base, "/registry?q=hangzhou&lang=zh-CN").await;
    admin.wait_for("sun in the registry", "return !!document.querySelector('tr[data-registry-player=sun]')").await;
    assert_eq!(
        admin
            .js(
                "return document.querySelector('tr[data-registry-player=sun] [data-column=rank]').dataset.value",
                vec![]
            )
            .await,
        json!("3d")
    );
    admin.js("document.querySelector('tr[data-registry-edit=sun] details').open = true", vec![]).await;
    admin.js("const f = document.querySelector(\"tr[data-registry-edit=sun] form[action$='/rank']\"); f.rank.value = '4段'; f.reason.value = '省赛成绩核实后更正';", vec![]).await;
    admin.click("tr[data-registry-edit=sun] [data-action=registry-rank]").await;
    admin.wait_for("the grade corrected", "return document.querySelector('[data-notice=ok]') && document.querySelector('tr[data-registry-player=sun] [data-column=rank]').dataset.value === '4d'").await;
    admin.js("document.querySelector('tr[data-registry-edit=sun] details').open = true; document.querySelector(\"tr[data-registry-edit=sun] form[action$='/profile']\").club.value = '杭州棋院';", vec![]).await;
    admin.click("tr[data-registry-edit=sun] [data-action=registry-profile]").await;
    admin.wait_for("the club saved", "return document.querySelector('tr[data-registry-player=sun] [data-column=club]')?.textContent === '杭州棋院'").await;
    admin.open(&server.base, "/players/sun?lang=zh-CN").await;
    let history =
        admin.wait_for("the correction in the record", "return document.querySelector('#ranks')?.textContent").await;
    assert!(history.as_str().is_some_and(|h| h.contains("省赛成绩核实后更正") && h.contains("4段")), "{history}");
    admin.open(&server.base, "/registry?q=sun").await;
    shoot(&admin, &server.base, "/registry?q=sun", "registry-desktop", "zh-CN", "en").await;
    // An organiser's registry page, and the role revoked while it is open: the next correction is
    // refused (the account's current roles decide, not the session's), and nothing changes.
    admin.open(&server.base, "/admin/accounts").await;
    admin.fill("form[action='/admin/accounts'] input[name=name]", "chen_org").await;
    admin.fill("form[action='/admin/accounts'] input[name=display_name]", "周主办").await;
    admin.fill("form[action='/admin/accounts'] input[name=password]", PASSWORD).await;
    admin
        .js("document.querySelector(\"form[action='/admin/accounts'] select[name=role]\").value = 'organiser'", vec![])
        .await;
    admin.click("[data-action=create-account]").await;
    admin.wait_for("the organiser", "return !!document.querySelector('tr[data-account=chen_org]')").await;
    let organiser = signed_in(&driver, &server.base, Viewport::DESKTOP, "zh-CN", "chen_org").await;
    organiser.open(&server.base, "/registry?q=sun").await;
    organiser
        .wait_for("the registry for an organiser", "return !!document.querySelector('tr[data-registry-player=sun]')")
        .await;
    admin
        .js("document.querySelector(\"tr[data-account=chen_org] select[name=role]\").value = 'organiser'", vec![])
        .await;
    admin.click("tr[data-account=chen_org] [data-action=revoke]").await;
    admin.wait_for("the role revoked", "const r = document.querySelector('tr[data-account=chen_org]'); return r && !r.querySelectorAll('td')[2].textContent.includes('组织者')").await;
    organiser.js("document.querySelector('tr[data-registry-edit=sun] details').open = true; document.querySelector(\"tr[data-registry-edit=sun] form[action$='/profile']\").club.value = '别的俱乐部';", vec![]).await;
    organiser.click("tr[data-registry-edit=sun] [data-action=registry-profile]").await;
    let refused = organiser.wait_for("the refusal", "return document.readyState === 'complete' && !document.querySelector('tr[data-registry-edit=sun]') && document.querySelector('main').textContent").await;
    assert!(refused.as_str().is_some_and(|t| t.contains("仅供主办方")), "{refused}");
    admin.open(&server.base, "/registry?q=sun").await;
    assert_eq!(admin.text("tr[data-registry-player=sun] [data-column=club]").await.unwrap_or_default(), "杭州棋院");
    admin.open(&server.base, "/admin/accounts").await;
    let player = signed_in(&driver, &server.base, Viewport::PHONE, "en", "sun").await;
    assert_eq!(player.js("return !!document.querySelector('#challenge')", vec![]).await, json!(true));
    // Self-registration is closed until the administrator opens it; a registered player is in the
    // player registry under the same name, and signed in at once.
    let visitor = driver.session(Viewport::PHONE, "zh-CN").await.unwrap();
    visitor.open(&server.base, "/register").await;
    visitor
        .wait_for(
            "registration closed",
            "const e = document.querySelector('[data-error]'); return e && e.textContent.includes('未开放')",
        )
        .await;
    admin.click("[data-action=open-registration]").await;
    admin.wait_for("registration open", "return !!document.querySelector('[data-registration=open]')").await;
    visitor.open(&server.base, "/login").await;
    visitor.click("[data-link=register]").await;
    // A name taken is said so, naming it.
    visitor.fill("input[name=name]", "sun").await;
    visitor.fill("input[name=display_name]", "另一个孙").await;
    visitor.fill("input[name=password]", PASSWORD).await;
    visitor.click("[data-action=register]").await;
    let taken = visitor
        .wait_for("the name taken", "const e = document.querySelector('[data-error]'); return e && e.textContent")
        .await;
    assert!(taken.as_str().is_some_and(|t| t.contains("账号名 sun 已被使用")), "{taken}");
    visitor.js("document.querySelector('input[name=name]').value = ''", vec![]).await;
    visitor.fill("input[name=name]", "zhou").await;
    visitor.fill("input[name=display_name]", "周芳").await;
    visitor.fill("input[name=name_latin]", "Zhou Fang").await;
    visitor.fill("input[name=region]", "shanghai").await;
    visitor.fill("input[name=password]", PASSWORD).await;
    visitor.click("[data-action=register]").await;
    visitor
        .wait_for(
            "the new player's account page",
            "return location.pathname === '/account' && !!document.querySelector('[data-registry=yes]')",
        )
        .await;
    let entry = visitor.text("[data-registry]").await.unwrap();
    assert!(entry.contains("周芳") && entry.contains("shanghai"), "{entry}");
    admin.click("[data-action=close-registration]").await;
    admin.wait_for("registration closed again", "return !!document.querySelector('[data-registration=closed]')").await;

    // The link is spent.
    let again = driver.session(Viewport::DESKTOP, "en").await.unwrap();
    again.client.goto(&link).await.unwrap();
    let text = again
        .wait_for("the refusal", "const e = document.querySelector('[data-error]'); return e && e.textContent")
        .await;
    assert!(text.as_str().unwrap().contains("has been used"), "{text}");
}

/// A tournament run through gRPC (McMahon, 4 players, 2 rounds, results entered by the organiser)
/// as the public sees it: the standings page shows the same table as `GetStandings`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournaments_public_page_shows_what_get_standings_answers() {
    use weiqi_proto::v1 as pb;
    use weiqi_proto::v1::tournament_service_client::TournamentServiceClient;
    let Some(driver) = driver().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = server(dir.path(), None);
    server.start();
    let organiser = server.token("organiser", "organiser");
    macro_rules! req {
        ($m:expr) => {
            bearer($m, &organiser)
        };
    }
    let mut tc = TournamentServiceClient::connect(format!("http://{}", server.grpc)).await.unwrap();
    const T: &str = "city-open";
    tc.create_tournament(req!(pb::CreateTournamentRequest {
        tournament_id: T.into(),
        request_id: "create".into(),
        config: Some(pb::TournamentConfig {
            name: "City Open 城市公开赛".into(),
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
    }))
    .await
    .unwrap();
    for (i, (account, name, rank)) in
        [("li", "李明", "2d"), ("wang", "王芳", "1d"), ("zhao", "赵强", "1k"), ("sun", "孙丽", "3k")]
            .into_iter()
            .enumerate()
    {
        let r = pb::RegisterPlayerRequest {
            tournament_id: T.into(),
            request_id: format!("reg-{account}"),
            account_id: account.into(),
            player: i as u32 + 1,
            snapshot: Some(pb::TournamentPlayerSnapshot {
                name_zh: name.into(),
                rank: rank.into(),
                ..Default::default()
            }),
        };
        tc.register_player(req!(r)).await.unwrap();
    }
    tc.start_tournament(req!(pb::TournamentRequest { tournament_id: T.into(), request_id: "start".into() }))
        .await
        .unwrap();
    for round in 1..=2u32 {
        tc.pair_round(req!(pb::PairRoundRequest {
            tournament_id: T.into(),
            request_id: format!("pair-{round}"),
            round,
        }))
        .await
        .unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let pairings = loop {
            let p = tc
                .get_pairings(req!(pb::GetTournamentPairingsRequest {
                    tournament_id: T.into(),
                    round,
                    min_sequence: 0
                }))
                .await;
            match p {
                Ok(p) if p.get_ref().round == round => break p.into_inner(),
                other => assert!(std::time::Instant::now() < deadline, "round {round} pairings: {other:?}"),
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        if round == 1 {
            // Issue 32 item 10: the event's staff switch its players' chat off from the desk; a
            // player of a round-1 game is told, and the server refuses their message.
            let root = signed_in(&driver, &server.base, Viewport::DESKTOP, "zh-CN", "root").await;
            root.open(&server.base, &format!("/desk/tournaments/{T}")).await;
            root.wait_for(
                "the chat switch",
                "return document.querySelector('#players-chat')?.dataset.playersChat === 'on'",
            )
            .await;
            root.click("[data-action=players-chat]").await;
            root.wait_for(
                "the players' chat off",
                "return document.querySelector('#players-chat')?.dataset.playersChat === 'off'",
            )
            .await;
            let table = pairings.games.iter().find(|g| g.black_account == "li" || g.white_account == "li").unwrap();
            let game = format!("t-{T}-r1-b{}", table.table);
            let li = signed_in(&driver, &server.base, Viewport::PHONE, "zh-CN", "li").await;
            li.open(&server.base, &format!("/games/{game}")).await;
            let said =
                li.wait_for("the chat said off", "return document.querySelector('[data-chat-off]')?.textContent").await;
            assert!(said.as_str().is_some_and(|s| s.contains("已关闭")), "{said}");
            let refused = post_from_page(
                &li,
                "/chat",
                json!({"request_id": "off-1", "action": "post", "room": "players", "text": "你好"}),
            )
            .await;
            assert_eq!(refused[1]["code"], json!("chat_players_off"), "{refused}");
        }
        for g in &pairings.games {
            let outcome = if g.table == 1 {
                pb::tournament_game_outcome::Outcome::BlackWins
            } else {
                pb::tournament_game_outcome::Outcome::WhiteWins
            };
            tc.record_result(req!(pb::RecordTournamentResultRequest {
                tournament_id: T.into(),
                request_id: format!("result-{round}-{}", g.table),
                round,
                table: g.table,
                result: Some(pb::TournamentGameOutcome { outcome: outcome as i32, reason: 0 }),
                ..Default::default()
            }))
            .await
            .unwrap();
        }
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let standings = loop {
        let s = tc
            .get_standings(req!(pb::GetTournamentStandingsRequest {
                tournament_id: T.into(),
                offset: 0,
                limit: 0,
                min_sequence: 0
            }))
            .await
            .map(tonic::Response::into_inner);
        match s {
            // Every result of both rounds folded into the read model (it projects event by event).
            Ok(s) if s.after_round == 2 && s.rows.len() == 4 && s.rows.iter().all(|r| r.games == 2) => break s,
            other => assert!(std::time::Instant::now() < deadline, "standings after round 2: {other:?}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let public = driver.session(Viewport::DESKTOP, "zh-CN").await.unwrap();
    public.open(&server.base, &format!("/tournaments/{T}")).await;
    public.wait_for("the standings", "return document.querySelectorAll('[data-player]').length === 4").await;
    for row in &standings.rows {
        let cell = |column: &str| {
            format!(
                "return document.querySelector('[data-player=\"{}\"] [data-column=\"{column}\"]')?.getAttribute('data-value')",
                row.account_id
            )
        };
        assert_eq!(public.js(&cell("place"), vec![]).await, json!(row.place.to_string()), "{row:?}");
        for (c, v) in standings.criteria.iter().zip(&row.values) {
            assert_eq!(public.js(&cell(&c.to_lowercase()), vec![]).await, json!(v), "{c} of {row:?}");
        }
    }
    let order =
        public.js("return [...document.querySelectorAll('[data-player]')].map(r => r.dataset.player)", vec![]).await;
    assert_eq!(order, json!(standings.rows.iter().map(|r| r.account_id.clone()).collect::<Vec<_>>()));
    assert_eq!(
        public.js("return document.querySelectorAll('table.crosstable tbody tr').length", vec![]).await,
        json!(4)
    );
    assert_eq!(public.js("return document.querySelectorAll('[data-round]').length", vec![]).await, json!(2));
    let headers = public.text("table.standings thead").await.unwrap();
    assert!(headers.contains("名次"), "criteria named in Chinese: {headers}");
    shoot(&public, &server.base, &format!("/tournaments/{T}"), "tournament-desktop", "zh-CN", "en").await;
    let phone = driver.session(Viewport::PHONE, "en").await.unwrap();
    phone.open(&server.base, &format!("/tournaments/{T}")).await;
    phone.wait_for("the standings", "return document.querySelectorAll('[data-player]').length === 4").await;
    shoot(&phone, &server.base, &format!("/tournaments/{T}"), "tournament-phone", "en", "zh-CN").await;
}
