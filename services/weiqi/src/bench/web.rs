//! `weiqi bench web`: two real Chromium pages play a 19×19 game through the web, and the latency of
//! every move is measured in the browsers.
//!
//! The bench starts `weiqi up` (this binary, embedded log, temporary data), adds two accounts,
//! signs both in, has one challenge the other, and plays `--moves` moves (no captures) by clicking
//! `[data-vertex]`. For each move, measured with the pages' own clocks (`performance.timeOrigin +
//! performance.now()`, the machine's clock in both browser processes):
//!
//! * `own_*`: click → the mover's board shows the stone *as the server's view* (the optimistic stone
//!   replaced by the state the server sent back on the page's event stream);
//! * `own_shown_*`: click → the stone first drawn on the mover's board (before the server answers);
//! * `opponent_*`: click → the stone drawn on the opponent's board.
//!
//! `page_bytes` is what a fresh browser (empty cache) transfers for the first load of the game page
//! after the moves: the document and every asset (`PerformanceResourceTiming.transferSize`), the live
//! stream's events excluded. Targets: opponent p95 ≤ 100 ms, first load ≤ 150 KB.

use std::process::ExitCode;

use anyhow::{Context, Result};
use serde::Serialize;
use serde_json::json;
use weiqi_browser::{Driver, Server, Session, Viewport};

use crate::output::{median, report};

/// What the bench reports.
#[derive(Serialize)]
struct WebReport {
    moves: usize,
    own_p50_ms: f64,
    own_p95_ms: f64,
    own_shown_p50_ms: f64,
    opponent_p50_ms: f64,
    opponent_p95_ms: f64,
    page_bytes: u64,
}

fn p95(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    if samples.is_empty() {
        return f64::NAN;
    }
    let i = ((samples.len() as f64) * 0.95).ceil() as usize;
    samples[i.clamp(1, samples.len()) - 1]
}

/// `n` points without captures: Black on columns C and D, White on R and Q, alternately.
fn moves(n: usize) -> Vec<(String, &'static str)> {
    let column = |cols: [char; 2]| {
        cols.into_iter().flat_map(|c| (3..=19).map(move |row| format!("{c}{row}"))).collect::<Vec<_>>()
    };
    let (black, white) = (column(['C', 'D']), column(['R', 'Q']));
    (0..n).map(|i| if i % 2 == 0 { (black[i / 2].clone(), "black") } else { (white[i / 2].clone(), "white") }).collect()
}

const OBSERVE: &str = r#"
const now = () => performance.timeOrigin + performance.now();
if (!window.__seen) {
  window.__seen = {};
  new MutationObserver((ms) => { for (const m of ms) { const v = m.target.getAttribute && m.target.getAttribute('data-vertex');
    if (v && m.target.hasAttribute('data-stone') && !(v in window.__seen)) window.__seen[v] = now(); } })
    .observe(document.querySelector('#board'), { attributes: true, subtree: true, attributeFilter: ['data-stone'] });
}
return true;"#;

const CLICK: &str = r#"
const v = arguments[0], done = arguments[arguments.length - 1];
const el = document.querySelector(`[data-vertex="${v}"]`);
const now = () => performance.timeOrigin + performance.now();
let shown = null;
const obs = new MutationObserver(() => {
  if (shown === null && el.hasAttribute('data-stone')) shown = now();
  if (el.hasAttribute('data-stone') && !el.classList.contains('pending')) { obs.disconnect(); done([t0, shown === null ? now() : shown, now()]); }
});
obs.observe(el, { attributes: true, attributeFilter: ['data-stone', 'class'] });
const t0 = now();
el.dispatchEvent(new MouseEvent('click', { bubbles: true }));"#;

async fn measure(count: usize) -> Result<WebReport> {
    let dir = tempfile::tempdir()?;
    let exe = std::env::current_exe().context("finding this program")?;
    let mut server = Server::new(&exe, &dir.path().join("data"), None);
    let password = "bench password 1";
    server.add_account("bench-black", &["player"], "Black", password);
    server.add_account("bench-white", &["player"], "White", password);
    server.start();
    let base = server.base.clone();
    let driver = Driver::start().await.context("starting chromedriver (apt-get install chromium chromium-driver)")?;
    let black = driver.session(Viewport::DESKTOP, "en").await?;
    let white = driver.session(Viewport::DESKTOP, "en").await?;
    black.login(&base, "bench-black", password).await;
    white.login(&base, "bench-white", password).await;
    let game = weiqi_browser::site::challenge(&base, &black, "bench-white", &white, 19).await;
    for page in [&black, &white] {
        page.js(OBSERVE, vec![]).await;
    }
    let (mut own, mut shown, mut opponent) = (Vec::new(), Vec::new(), Vec::new());
    for (i, (vertex, color)) in moves(count).into_iter().enumerate() {
        let (mover, other): (&Session, &Session) = if color == "black" { (&black, &white) } else { (&white, &black) };
        mover.wait_to_move(color).await;
        let times = mover.client.execute_async(CLICK, vec![json!(vertex)]).await.context("clicking a vertex")?;
        let t = |k: usize| times[k].as_f64().unwrap_or(f64::NAN);
        let seen = other.wait_for("the opponent's board", &format!("return window.__seen['{vertex}'] || null")).await;
        own.push(t(2) - t(0));
        shown.push(t(1) - t(0));
        opponent.push(seen.as_f64().unwrap_or(f64::NAN) - t(0));
        if (i + 1) % 10 == 0 {
            eprintln!("  {} moves", i + 1);
        }
    }
    // The first load of the game page in a fresh browser.
    let fresh = driver.session(Viewport::PHONE, "zh-CN").await?;
    fresh.open(&base, &format!("/games/{game}")).await;
    fresh.wait_for("the board", "return document.querySelectorAll('[data-vertex]').length === 361").await;
    let bytes = fresh
        .js(
            "const n = performance.getEntriesByType('navigation')[0]; return n.transferSize + performance.getEntriesByType('resource').filter(r => !r.name.includes('/live')).reduce((s, r) => s + r.transferSize, 0)",
            vec![],
        )
        .await;
    for s in [black, white, fresh] {
        s.close().await;
    }
    Ok(WebReport {
        moves: count,
        own_p50_ms: median(&mut own.clone()),
        own_p95_ms: p95(&mut own),
        own_shown_p50_ms: median(&mut shown),
        opponent_p50_ms: median(&mut opponent.clone()),
        opponent_p95_ms: p95(&mut opponent),
        page_bytes: bytes.as_u64().unwrap_or(0),
    })
}

pub async fn run(count: usize, json: bool) -> Result<ExitCode> {
    anyhow::ensure!((2..=68).contains(&count), "--moves is 2 to 68");
    let r = measure(count).await?;
    report(
        &format!("weiqi bench web — {count} moves between two Chromium pages (embedded log, one machine)"),
        &[
            ("click → own board (server's view), p50 ms", format!("{:.1}", r.own_p50_ms), ""),
            ("click → own board (server's view), p95 ms", format!("{:.1}", r.own_p95_ms), ""),
            ("click → own stone drawn, p50 ms", format!("{:.1}", r.own_shown_p50_ms), ""),
            ("click → opponent's board, p50 ms", format!("{:.1}", r.opponent_p50_ms), ""),
            ("click → opponent's board, p95 ms", format!("{:.1}", r.opponent_p95_ms), "≤ 100"),
            ("game page first load, bytes", r.page_bytes.to_string(), "≤ 150 KB"),
        ],
        json.then_some(&r),
    );
    Ok(ExitCode::SUCCESS)
}
