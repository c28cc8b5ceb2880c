//! `weiqi bench spectators`: a broadcast's viewers against its players (issue 31 item 2).
//!
//! `weiqi up --nats` runs as a separate process (its memory and CPU are read from `/proc`). `G` games
//! are created, each player with a token of their own; `W` viewers open the game page's live stream
//! (`GET /games/{id}/live`, what a browser opens), half of them on one top board and the rest spread
//! over the other games. Moves are then offered at a fixed rate, round-robin over the games, through
//! gRPC, while every viewer reads its stream.
//!
//! Figures: the move's reply time (`move_p50_ms`, `move_p99_ms`); the delivery time from a move's
//! reply to each viewer's receiving the view with it (`deliver_p50_ms`, `deliver_p99_ms`; a view that
//! arrives before the reply counts 0); `dropped`: viewers whose stream ended, or who had not been
//! handed their game's last move two seconds after the last reply (a viewer that keeps up is never
//! dropped: a slow one skips ahead); the server's RSS at the end; and the server's CPU seconds per
//! 1,000 views delivered (`/proc/<pid>/stat`, user and system time, in the kernel's fixed 100 Hz).
//!
//! One process may hold at most `ulimit -n` sockets: on a machine whose hard limit is 20,000 neither
//! the server nor this client can hold 20,000 streams; the report says how many were open.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use hdrhistogram::Histogram;
use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tonic::transport::Channel;
use weiqi_edge::patience::Patient;
use weiqi_proto::v1::game_service_client::GameServiceClient;

use super::e2e::{Bot, Client, rss_mb, start_server_with, step};
use crate::output::report;

/// Options of the run.
pub struct SpectatorArgs {
    pub watchers: usize,
    pub games: usize,
    pub rate: f64,
    pub seconds: f64,
    pub nats: Option<String>,
    pub json: bool,
}

#[derive(Serialize)]
struct SpectatorReport {
    watchers: usize,
    games: usize,
    moves_per_sec: f64,
    move_p50_ms: f64,
    move_p99_ms: f64,
    deliver_p50_ms: f64,
    deliver_p99_ms: f64,
    dropped: u64,
    rss_mb: f64,
    server_cpu_s_per_1k_msgs: f64,
    /// Views delivered during the measured phase.
    delivered: u64,
    /// Streams open when the moves started (fewer than `watchers` when refused or out of sockets).
    open_streams: u64,
    /// Viewers on the top board.
    top_board_watchers: usize,
    offered_rate: f64,
    errors: u64,
}

/// What viewers and movers share.
struct Shared {
    /// Per game: when the reply to the move of each sequence came (or `None` while it is in flight).
    replies: Vec<Mutex<std::collections::HashMap<u64, Option<Instant>>>>,
    /// Per game: the last sequence a reply named.
    last: Vec<AtomicU64>,
    deliver: Mutex<Histogram<u64>>,
    delivered: AtomicU64,
    measuring: std::sync::atomic::AtomicBool,
    /// Per viewer: the last sequence it was handed.
    seen: Vec<AtomicU64>,
    /// Viewers whose stream ended or failed before the run did.
    ended: AtomicU64,
}

/// Server CPU time so far (user + system), seconds.
fn cpu_seconds(pid: u32) -> Result<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).context("reading /proc (Linux only)")?;
    // Fields after the command's closing parenthesis: state is field 3; utime and stime are 14, 15.
    let rest = stat.rsplit_once(')').context("a /proc stat line")?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i - 3).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    Ok((ticks(14) + ticks(15)) / 100.0)
}

/// One viewer: opens the game's live page stream and reads views until the run ends (the task is
/// then aborted); a stream that ends or fails is counted in `ended`.
async fn viewer(http: u16, slot: usize, game: usize, id: String, shared: Arc<Shared>, opened: Arc<AtomicU64>) {
    if read_views(http, slot, game, &id, &shared, &opened).await.is_none() {
        shared.ended.fetch_add(1, Ordering::Relaxed);
    }
}

async fn read_views(http: u16, slot: usize, game: usize, id: &str, shared: &Shared, opened: &AtomicU64) -> Option<()> {
    let mut s = tokio::net::TcpStream::connect(("127.0.0.1", http)).await.ok()?;
    s.set_nodelay(true).ok();
    // HTTP/1.0: the body is the stream itself, with no chunk framing to undo.
    let req = format!("GET /games/{id}/live?lang=en HTTP/1.0\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n");
    s.write_all(req.as_bytes()).await.ok()?;
    let mut buf: Vec<u8> = Vec::with_capacity(8192);
    let mut chunk = vec![0u8; 16384];
    let mut headers_done = false;
    loop {
        let n = s.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if !headers_done {
            let Some(end) = find(&buf, b"\r\n\r\n") else { continue };
            if !buf.starts_with(b"HTTP/1.1 200") && !buf.starts_with(b"HTTP/1.0 200") {
                return None;
            }
            buf.drain(..end + 4);
            headers_done = true;
            opened.fetch_add(1, Ordering::Relaxed);
        }
        while let Some(end) = find(&buf, b"\n\n") {
            let frame = &buf[..end];
            if frame.starts_with(b"event: view")
                && let Some(seq) = sequence(frame)
            {
                let now = Instant::now();
                shared.seen[slot].store(seq, Ordering::Relaxed);
                let known = shared.replies[game].lock().expect("replies").get(&seq).copied();
                if let Some(reply) = known
                    && shared.measuring.load(Ordering::Relaxed)
                {
                    let us = reply.map_or(1, |t| now.saturating_duration_since(t).as_micros().max(1) as u64);
                    shared.deliver.lock().expect("hist").record(us).ok();
                    shared.delivered.fetch_add(1, Ordering::Relaxed);
                }
            }
            buf.drain(..end + 2);
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The view's `"sequence":N`.
fn sequence(frame: &[u8]) -> Option<u64> {
    let at = find(frame, b"\"sequence\":")? + 11;
    let digits: Vec<u8> = frame[at..].iter().take_while(|b| b.is_ascii_digit()).copied().collect();
    std::str::from_utf8(&digits).ok()?.parse().ok()
}

pub async fn run(args: SpectatorArgs) -> Result<std::process::ExitCode> {
    let _telemetry = weiqi_telemetry::init_quiet("weiqi-bench")?;
    let mut _nats_guard = None;
    let nats_url = match &args.nats {
        Some(u) => u.clone(),
        None => {
            let n = weiqi_testkit::NatsServer::start().context("starting a nats-server (give --nats URL)")?;
            let u = n.url();
            _nats_guard = Some(n);
            u
        }
    };
    eprintln!("starting `weiqi up --nats {nats_url}` …");
    // Every viewer comes from this one address: the limit per address is lifted.
    let server = start_server_with(&nats_url, &["--streams-per-address", "0"]).await?;
    let auth = crate::suite::authority(server.data_dir.path())?;
    let ttl = Duration::from_secs(3600);
    let channel = Channel::from_shared(server.url.clone())?.connect().await?;
    let client: Client = GameServiceClient::new(Patient::new(channel));

    let games = args.games.max(2);
    eprintln!("creating {games} games …");
    let run_id = uuid::Uuid::new_v4().simple().to_string();
    let mut bots = Vec::with_capacity(games);
    let mut creating = tokio::task::JoinSet::new();
    for w in 0..8usize {
        let mut client = client.clone();
        let organiser =
            auth.issue(&format!("spectators-organiser-{w}"), &[weiqi_gateway::auth::Role::Organiser], &["*"], ttl);
        let (auth, run_id) = (auth.clone(), run_id.clone());
        creating.spawn(async move {
            let mut made = Vec::new();
            for i in (w..games).step_by(8) {
                let request_id = format!("spectators-{run_id}-{i}");
                let players = (format!("sb{i}"), format!("sw{i}"));
                made.push((i, Bot::create(&mut client, &auth, &organiser, &request_id, players, 19, i as u64).await?));
            }
            anyhow::Ok(made)
        });
    }
    while let Some(r) = creating.join_next().await {
        bots.extend(r??);
    }
    bots.sort_by_key(|(i, _)| *i);
    let bots: Vec<Bot> = bots.into_iter().map(|(_, b)| b).collect();

    let shared = Arc::new(Shared {
        replies: (0..games).map(|_| Mutex::default()).collect(),
        last: (0..games).map(|_| AtomicU64::new(0)).collect(),
        deliver: Mutex::new(Histogram::<u64>::new_with_bounds(1, 600_000_000, 3)?),
        delivered: AtomicU64::new(0),
        measuring: std::sync::atomic::AtomicBool::new(false),
        seen: (0..args.watchers).map(|_| AtomicU64::new(0)).collect(),
        ended: AtomicU64::new(0),
    });

    // Viewers: half on the top board (game 0), the rest spread over the others.
    let top = args.watchers / 2;
    eprintln!("opening {} streams ({top} on the top board) …", args.watchers);
    let opened = Arc::new(AtomicU64::new(0));
    let mut viewers = tokio::task::JoinSet::new();
    let mut game_of = Vec::with_capacity(args.watchers);
    for v in 0..args.watchers {
        let game = if v < top { 0 } else { 1 + (v - top) % (games - 1) };
        game_of.push(game);
        let (shared, counted, id) = (shared.clone(), opened.clone(), bots[game].id.clone());
        viewers.spawn(viewer(server.http, v, game, id, shared, counted));
        // Streams open a few hundred at a time, as a crowd arrives.
        if v % 256 == 255 {
            let deadline = Instant::now() + Duration::from_secs(10);
            while (opened.load(Ordering::Relaxed) as usize) + 64 < v && Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while (opened.load(Ordering::Relaxed) as usize) < args.watchers && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let open_streams = opened.load(Ordering::Relaxed);
    eprintln!("{open_streams} streams open; moving at {:.0}/s for {:.0} s …", args.rate, args.seconds);

    // Moves at the offered rate, round-robin over the games; a game whose move is in flight is skipped.
    let moves_hist = Arc::new(Mutex::new(Histogram::<u64>::new_with_bounds(1, 600_000_000, 3)?));
    let (moves, errors) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let slots: Vec<Arc<tokio::sync::Mutex<Bot>>> =
        bots.into_iter().map(|b| Arc::new(tokio::sync::Mutex::new(b))).collect();
    let cpu0 = cpu_seconds(server.child.id()).unwrap_or(f64::NAN);
    shared.measuring.store(true, Ordering::Relaxed);
    let start = Instant::now();
    let end = start + Duration::from_secs_f64(args.seconds);
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / args.rate.max(0.1)));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let mut movers = tokio::task::JoinSet::new();
    let mut k = 0usize;
    while Instant::now() < end {
        tick.tick().await;
        let g = k % games;
        k += 1;
        let Ok(mut bot) = slots[g].clone().try_lock_owned() else { continue };
        let (mut client, shared, hist, moves, errors) =
            (client.clone(), shared.clone(), moves_hist.clone(), moves.clone(), errors.clone());
        movers.spawn(async move {
            let next = shared.last[g].load(Ordering::Relaxed).max(3) + 1;
            shared.replies[g].lock().expect("replies").insert(next, None);
            let sent = Instant::now();
            match step(&mut client, &mut bot).await {
                Ok(Some((_, seq))) => {
                    let now = Instant::now();
                    hist.lock().expect("hist").record(now.duration_since(sent).as_micros().max(1) as u64).ok();
                    moves.fetch_add(1, Ordering::Relaxed);
                    let mut replies = shared.replies[g].lock().expect("replies");
                    replies.remove(&next);
                    replies.insert(seq, Some(now));
                    shared.last[g].store(seq, Ordering::Relaxed);
                }
                Ok(None) => {}
                Err(_) => {
                    errors.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
        while let Some(done) = movers.try_join_next() {
            done.ok();
        }
    }
    while movers.join_next().await.is_some() {}
    let elapsed = start.elapsed().as_secs_f64();
    let cpu1 = cpu_seconds(server.child.id()).unwrap_or(f64::NAN);
    let rss = rss_mb(server.child.id()).unwrap_or(f64::NAN);
    shared.measuring.store(false, Ordering::Relaxed);
    // Two seconds for the last views to arrive; then what every viewer last saw.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let finals: Vec<u64> = shared.last.iter().map(|l| l.load(Ordering::Relaxed)).collect();
    let behind = (0..args.watchers).filter(|&v| shared.seen[v].load(Ordering::Relaxed) < finals[game_of[v]]).count();
    let ended = shared.ended.load(Ordering::Relaxed);
    let dropped = ended.max(behind as u64);
    viewers.abort_all();
    drop(server);
    let delivered = shared.delivered.load(Ordering::Relaxed);
    let (mh, dh) = (moves_hist.lock().expect("hist"), shared.deliver.lock().expect("hist"));
    let ms = |h: &Histogram<u64>, q: f64| h.value_at_quantile(q) as f64 / 1000.0;
    let r = SpectatorReport {
        watchers: args.watchers,
        games,
        moves_per_sec: moves.load(Ordering::Relaxed) as f64 / elapsed,
        move_p50_ms: ms(&mh, 0.5),
        move_p99_ms: ms(&mh, 0.99),
        deliver_p50_ms: ms(&dh, 0.5),
        deliver_p99_ms: ms(&dh, 0.99),
        dropped,
        rss_mb: rss,
        server_cpu_s_per_1k_msgs: if delivered > 0 { (cpu1 - cpu0) / (delivered as f64 / 1000.0) } else { f64::NAN },
        delivered,
        open_streams,
        top_board_watchers: top,
        offered_rate: args.rate,
        errors: errors.load(Ordering::Relaxed),
    };
    report(
        &format!(
            "weiqi bench spectators — {} viewers ({} on the top board) over {} games, {:.0} moves/s offered, {:.0} s",
            args.watchers, top, games, args.rate, elapsed
        ),
        &[
            ("streams open", r.open_streams.to_string(), "all"),
            ("moves/s", format!("{:.0}", r.moves_per_sec), ""),
            ("move reply p50 / p99 (ms)", format!("{:.2} / {:.2}", r.move_p50_ms, r.move_p99_ms), "p99 ≤ 20"),
            (
                "delivery p50 / p99 (ms, reply → viewer)",
                format!("{:.2} / {:.2}", r.deliver_p50_ms, r.deliver_p99_ms),
                "p99 ≤ 250",
            ),
            ("views delivered", r.delivered.to_string(), ""),
            ("dropped viewers", r.dropped.to_string(), "0"),
            ("server RSS (MB)", format!("{:.0}", r.rss_mb), "≤ 1,000"),
            ("server CPU s per 1,000 views", format!("{:.4}", r.server_cpu_s_per_1k_msgs), ""),
            ("errors", r.errors.to_string(), "0"),
        ],
        args.json.then_some(&r),
    );
    Ok(std::process::ExitCode::SUCCESS)
}
