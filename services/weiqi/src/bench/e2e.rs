//! `weiqi bench e2e`: random legal games through the real gRPC API, against `weiqi up --nats` running
//! as a separate process (so its memory can be measured), closed loop (as fast as it can) or open loop
//! at a fixed offered rate (latency then includes queueing). In the same run it measures raw JetStream
//! acknowledged publishes of the same size on the same server.

use std::collections::VecDeque;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use hdrhistogram::Histogram;
use prost::Message;
use serde::Serialize;
use tonic::transport::Channel;
use weiqi_edge::patience::Patient;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_service_client::GameServiceClient;
use weiqi_rules::random::SplitMix64;
use weiqi_rules::{Color, Game, Move, Ruleset};

use crate::output::report;

/// The game service through a channel that waits out the gateway's rate limit.
pub(super) type Client = GameServiceClient<Patient<Channel>>;

/// (scheduled µs since start, latency µs) of every move, when tracing.
type Trace = Arc<Mutex<Vec<(u64, u64)>>>;

/// Options of the run.
pub struct E2eArgs {
    pub games: usize,
    pub concurrency: usize,
    pub rate: Option<f64>,
    pub nats: Option<String>,
    pub seconds: f64,
    pub warmup: f64,
    pub size: u32,
    pub json: bool,
}

#[derive(Serialize)]
struct E2eReport {
    moves_per_sec: f64,
    p50_ms: f64,
    p99_ms: f64,
    p999_ms: f64,
    raw_publish_per_sec: f64,
    game_service_rss_mb: f64,
    overhead_ratio: f64,
    games: usize,
    concurrency: usize,
    offered_rate: Option<f64>,
    moves: u64,
    seconds: f64,
    errors: u64,
    event_bytes: usize,
}

/// The suite under test, as a child process.
pub(super) struct Server {
    pub(super) child: Child,
    pub(super) data_dir: tempfile::TempDir,
    pub(super) url: String,
    pub(super) http: u16,
}

/// Quantiles (ms) of the server's own time per `play` command (decide + append + fold), from the
/// `weiqi_command_seconds` histogram on its `/metrics`: what the server spends, against what the
/// client measures end to end.
async fn server_play_quantiles(http: u16) -> Option<(f64, f64)> {
    histogram_quantiles(http, "weiqi_command_seconds_bucket", Some("command=\"play\"")).await
}

/// Quantiles (ms) of the server's JetStream append time (`weiqi_append_seconds`).
async fn server_append_quantiles(http: u16) -> Option<(f64, f64)> {
    histogram_quantiles(http, "weiqi_append_seconds_bucket", None).await
}

async fn histogram_quantiles(http: u16, metric: &str, label: Option<&str>) -> Option<(f64, f64)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(("127.0.0.1", http)).await.ok()?;
    s.write_all(b"GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n").await.ok()?;
    let mut body = String::new();
    s.read_to_string(&mut body).await.ok()?;
    let mut buckets: Vec<(f64, f64)> = body
        .lines()
        .filter(|l| l.starts_with(metric) && label.is_none_or(|x| l.contains(x)))
        .filter_map(|l| {
            let le = l.split("le=\"").nth(1)?.split('"').next()?;
            let le = if le == "+Inf" { f64::INFINITY } else { le.parse().ok()? };
            let count: f64 = l.rsplit(' ').next()?.parse().ok()?;
            Some((le, count))
        })
        .collect();
    buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total = buckets.last()?.1;
    let q = |p: f64| buckets.iter().find(|(_, c)| *c >= p * total).map(|(le, _)| le * 1000.0);
    Some((q(0.5)?, q(0.99)?))
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

pub(super) fn rss_mb(pid: u32) -> Result<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).context("reading /proc (Linux only)")?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .context("no VmRSS line")?;
    Ok(kb / 1024.0)
}

async fn start_server(nats_url: &str) -> Result<Server> {
    start_server_with(nats_url, &[]).await
}

/// `weiqi up --nats` with `extra` arguments, ready to answer.
pub(super) async fn start_server_with(nats_url: &str, extra: &[&str]) -> Result<Server> {
    let data_dir = tempfile::tempdir()?;
    let grpc = free_port()?;
    let http = free_port()?;
    let exe = std::env::current_exe()?;
    let child = Command::new(exe)
        .args([
            "up",
            "--services",
            "none",
            "--quiet",
            "--nats",
            nats_url,
            "--grpc",
            &format!("127.0.0.1:{grpc}"),
            "--http",
            &format!("127.0.0.1:{http}"),
            // The load comes from one address: only the limit per address is lifted. Every player has
            // a token of their own and keeps its limits, as real clients do.
            "--rate-per-address",
            "0",
        ])
        .args(extra)
        .arg("--data-dir")
        .arg(data_dir.path())
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .context("starting `weiqi up --nats` as the server under test")?;
    let url = format!("http://127.0.0.1:{grpc}");
    let server = Server { child, data_dir, url, http };
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(ch) = Channel::from_shared(server.url.clone())?.connect().await {
            let mut info = weiqi_proto::v1::gateway_service_client::GatewayServiceClient::new(ch);
            if info.server_info(pb::ServerInfoRequest {}).await.is_ok() {
                return Ok(server);
            }
        }
        anyhow::ensure!(Instant::now() < deadline, "the server did not come up within 60 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub(super) struct Bot {
    pub(super) id: String,
    pub(super) game: Game,
    pub(super) black: String,
    pub(super) white: String,
    pub(super) rng: SplitMix64,
}

impl Bot {
    /// Creates and starts a game of `size` between `players` (Black, White) as `organiser`, each
    /// player with a token of their own, and the bot that plays it with random legal moves (`seed`).
    pub(super) async fn create(
        client: &mut Client,
        auth: &weiqi_gateway::auth::Authority,
        organiser: &str,
        request_id: &str,
        players: (String, String),
        size: u32,
        seed: u64,
    ) -> Result<Bot> {
        let (black, white) = players;
        let player = |id: &str| Some(pb::PlayerRef { id: id.to_string(), ..Default::default() });
        let req = pb::CreateGameRequest {
            request_id: request_id.to_string(),
            size,
            rules: "chinese".into(),
            first: player(&black),
            second: player(&white),
            start: true,
            ..Default::default()
        };
        let id = client.create_game(authed(req, organiser)).await?.into_inner().game_id;
        let ttl = Duration::from_secs(3600);
        let token = |name: &str| auth.issue(name, &[weiqi_gateway::auth::Role::Player], &[], ttl);
        Ok(Bot {
            id,
            game: Game::new(size as u8, Ruleset::chinese())?,
            black: token(&black),
            white: token(&white),
            rng: SplitMix64(seed),
        })
    }

    /// The next move and who plays it; `None` when the game is over.
    fn next(&mut self) -> Option<(Color, Move, String)> {
        if self.game.consecutive_passes() >= 2 {
            return None;
        }
        let color = self.game.to_move();
        let rng = &mut self.rng;
        let mv = self.game.random_move(color, |n| rng.below(n));
        let token = if color == Color::Black { self.black.clone() } else { self.white.clone() };
        Some((color, mv, token))
    }
}

pub(super) fn authed<T>(m: T, token: &str) -> tonic::Request<T> {
    let mut r = tonic::Request::new(m);
    r.metadata_mut().insert("authorization", format!("Bearer {token}").parse().expect("ASCII token"));
    r
}

/// Plays one move of a bot; returns the encoded size of the event it produced and its sequence.
pub(super) async fn step(client: &mut Client, bot: &mut Bot) -> Result<Option<(usize, u64)>> {
    let Some((color, mv, token)) = bot.next() else { return Ok(None) };
    let number = bot.game.move_number() as u32 + 1;
    let rid = uuid::Uuid::new_v4().to_string();
    let reply = match mv {
        Move::Play(p) => {
            let req = pb::PlayMoveRequest {
                game_id: bot.id.clone(),
                request_id: rid,
                point: Some(pb::Point { x: p.x as u32, y: p.y as u32 }),
                expected_move_number: number,
                lag: None,
            };
            client.play_move(authed(req, &token)).await
        }
        Move::Pass => {
            let req =
                pb::PassRequest { game_id: bot.id.clone(), request_id: rid, expected_move_number: number, lag: None };
            client.pass(authed(req, &token)).await
        }
    }?
    .into_inner();
    bot.game.play(color, mv)?;
    let first = reply.events.first();
    Ok(Some((first.map_or(0, |e| e.encoded_len()), reply.events.last().map_or(0, |e| e.sequence))))
}

pub async fn run(args: E2eArgs) -> Result<ExitCode> {
    let _telemetry = weiqi_telemetry::init_quiet("weiqi-bench")?;
    // NATS: the one given, or a fresh nats-server from the testkit.
    let mut _nats_guard = None;
    let nats_url = match &args.nats {
        Some(u) => u.clone(),
        None => {
            let n =
                weiqi_testkit::NatsServer::start().context("starting a nats-server (give --nats URL to use yours)")?;
            let u = n.url();
            _nats_guard = Some(n);
            u
        }
    };
    eprintln!("starting `weiqi up --nats {nats_url}` …");
    let server = start_server(&nats_url).await?;
    let auth = crate::suite::authority(server.data_dir.path())?;
    let ttl = Duration::from_secs(3600);
    // Clients wait out a rate limit as `weiqi play` and `weiqi bot` do (`retry-after-ms`).
    let channels: Vec<Client> = {
        let mut v = Vec::new();
        for _ in 0..4 {
            let channel = Channel::from_shared(server.url.clone())?.connect().await?;
            v.push(GameServiceClient::new(Patient::new(channel)));
        }
        v
    };

    // Every run gets its own request ids: a second run against the same nats-server must not collide with
    // the first run's (request ids are unique per aggregate kind).
    let run_id = uuid::Uuid::new_v4().simple().to_string();
    eprintln!("creating {} games …", args.games);
    let bots: Arc<Mutex<VecDeque<Bot>>> = Arc::new(Mutex::new(VecDeque::new()));
    let created = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    let per = args.games.div_ceil(args.concurrency.max(1));
    for w in 0..args.concurrency.max(1) {
        let mut client = channels[w % channels.len()].clone();
        // One organiser per creating worker: a token holds at most 32 calls open.
        let organiser =
            auth.issue(&format!("bench-organiser-{w}"), &[weiqi_gateway::auth::Role::Organiser], &["*"], ttl);
        let (bots, auth) = (bots.clone(), auth.clone());
        let size = args.size;
        let run_id = run_id.clone();
        tasks.spawn(async move {
            for i in (w * per)..((w + 1) * per).min(args.games) {
                let request_id = format!("bench-{run_id}-create-{i}");
                let players = (format!("b{i}"), format!("w{i}"));
                let bot = Bot::create(&mut client, &auth, &organiser, &request_id, players, size, i as u64).await?;
                bots.lock().expect("bots").push_back(bot);
            }
            anyhow::Ok(())
        });
    }
    while let Some(r) = tasks.join_next().await {
        r??;
    }
    eprintln!("created in {:.1} s; playing for {:.0} s …", created.elapsed().as_secs_f64(), args.seconds);

    let hist = Arc::new(Mutex::new(Histogram::<u64>::new_with_bounds(1, 60_000_000, 3)?));
    let moves = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let errors = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let event_bytes = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    // The first seconds warm up (connections, caches, the log's first writes after 10,000 creations) and
    // are not measured; the run then lasts `seconds` more.
    let start = Instant::now();
    let measured_from = start + Duration::from_secs_f64(args.warmup);
    let end = measured_from + Duration::from_secs_f64(args.seconds);
    match args.rate {
        None => {
            // Closed loop: `concurrency` workers, each takes the next idle game, makes one move, puts it back.
            let mut workers = tokio::task::JoinSet::new();
            for w in 0..args.concurrency.max(1) {
                let mut client = channels[w % channels.len()].clone();
                let (bots, hist, moves, errors, event_bytes) =
                    (bots.clone(), hist.clone(), moves.clone(), errors.clone(), event_bytes.clone());
                workers.spawn(async move {
                    while Instant::now() < end {
                        let Some(mut bot) = bots.lock().expect("bots").pop_front() else { break };
                        let t = Instant::now();
                        match step(&mut client, &mut bot).await {
                            Ok(Some((size, _))) => {
                                if t >= measured_from {
                                    hist.lock().expect("hist").record(t.elapsed().as_micros().max(1) as u64).ok();
                                    moves.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                }
                                event_bytes.store(size, std::sync::atomic::Ordering::Relaxed);
                                bots.lock().expect("bots").push_back(bot);
                            }
                            Ok(None) => {} // game over: leaves the rotation
                            Err(_) => {
                                errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            }
                        }
                    }
                });
            }
            while workers.join_next().await.is_some() {}
        }
        Some(rate) => {
            // Open loop: moves are scheduled at `rate` per second whatever happens; a move's latency runs from
            // its scheduled instant, so waiting for an idle game or a slow server counts. The schedule is kept
            // by a plain thread (OS sleeps are precise to tens of microseconds; tokio's timer wheel has a
            // millisecond tick, which would add up to a millisecond to every measured latency).
            let interval = Duration::from_secs_f64(1.0 / rate.max(1.0));
            let (due_tx, mut due_rx) = tokio::sync::mpsc::unbounded_channel::<Instant>();
            std::thread::spawn(move || {
                let mut k: u64 = 0;
                loop {
                    let due = start + interval.mul_f64(k as f64);
                    if due >= end {
                        break;
                    }
                    let now = Instant::now();
                    if due > now {
                        std::thread::sleep(due - now);
                    }
                    if due_tx.send(due).is_err() {
                        break;
                    }
                    k += 1;
                }
            });
            let trace: Option<Trace> =
                std::env::var_os("WEIQI_BENCH_TRACE").map(|_| Arc::new(Mutex::new(Vec::with_capacity(1 << 20))));
            let mut in_flight = tokio::task::JoinSet::new();
            let mut k: u64 = 0;
            while let Some(due) = due_rx.recv().await {
                let trace = trace.clone();
                k += 1;
                let mut client = channels[(k as usize) % channels.len()].clone();
                let (bots, hist, moves, errors, event_bytes) =
                    (bots.clone(), hist.clone(), moves.clone(), errors.clone(), event_bytes.clone());
                in_flight.spawn(async move {
                    let mut bot = loop {
                        if let Some(b) = bots.lock().expect("bots").pop_front() {
                            break b;
                        }
                        tokio::time::sleep(Duration::from_micros(200)).await;
                    };
                    match step(&mut client, &mut bot).await {
                        Ok(Some((size, _))) => {
                            let us = due.elapsed().as_micros().max(1) as u64;
                            if due >= measured_from {
                                hist.lock().expect("hist").record(us).ok();
                            }
                            if let Some(t) = trace.as_ref() {
                                t.lock().expect("trace").push((due.duration_since(start).as_micros() as u64, us));
                            }
                            if due >= measured_from {
                                moves.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            }
                            event_bytes.store(size, std::sync::atomic::Ordering::Relaxed);
                            bots.lock().expect("bots").push_back(bot);
                        }
                        Ok(None) => {}
                        Err(_) => {
                            errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                });
                while let Some(done) = in_flight.try_join_next() {
                    done.ok();
                }
            }
            while in_flight.join_next().await.is_some() {}
            if let Some(t) = trace {
                // WEIQI_BENCH_TRACE=1: each move's scheduled time and latency (µs), for looking at stalls.
                for (at, us) in t.lock().expect("trace").iter() {
                    eprintln!("lat {at} {us}");
                }
            }
        }
    }
    let elapsed = measured_from.elapsed().as_secs_f64();
    let n = moves.load(std::sync::atomic::Ordering::Relaxed);
    let rss = rss_mb(server.child.id()).unwrap_or(f64::NAN);
    let server_play = server_play_quantiles(server.http).await;
    let server_append = server_append_quantiles(server.http).await;
    let size = event_bytes.load(std::sync::atomic::Ordering::Relaxed).max(64);

    eprintln!("raw JetStream publishes of {size} bytes on the same server …");
    let js = weiqi_eventlog::JetStreamLog::connect(&nats_url, weiqi_eventlog::JetStreamConfig::default()).await?;
    let raw = weiqi_eventlog::bench::raw_publish_per_sec(js.client(), size, 50_000, 1_000).await?;

    let h = hist.lock().expect("hist");
    let ms = |q: f64| h.value_at_quantile(q) as f64 / 1000.0;
    let moves_per_sec = n as f64 / elapsed;
    let r = E2eReport {
        moves_per_sec,
        p50_ms: ms(0.5),
        p99_ms: ms(0.99),
        p999_ms: ms(0.999),
        raw_publish_per_sec: raw.per_sec,
        game_service_rss_mb: rss,
        overhead_ratio: raw.per_sec / moves_per_sec,
        games: args.games,
        concurrency: args.concurrency,
        offered_rate: args.rate,
        moves: n,
        seconds: elapsed,
        errors: errors.load(std::sync::atomic::Ordering::Relaxed),
        event_bytes: size,
    };
    let mode = match args.rate {
        Some(rate) => format!("open loop at {rate:.0} moves/s offered"),
        None => "closed loop".to_string(),
    };
    report(
        &format!(
            "weiqi bench e2e — {} games ({}×{}), {} in flight, {mode}, {:.0} s, gRPC → game service → JetStream",
            args.games, args.size, args.size, args.concurrency, elapsed
        ),
        &[
            ("moves/s", format!("{:.0}", r.moves_per_sec), "≥ 10,000 (closed loop, 10,000 games)"),
            ("latency p50 (ms)", format!("{:.2}", r.p50_ms), ""),
            ("latency p99 (ms)", format!("{:.2}", r.p99_ms), "≤ 10 at 5,000 moves/s offered"),
            ("latency p99.9 (ms)", format!("{:.2}", r.p999_ms), ""),
            ("raw JetStream acked publishes/s", format!("{:.0}", r.raw_publish_per_sec), ""),
            ("raw publish / moves (overhead)", format!("{:.2}×", r.overhead_ratio), "≤ 2×"),
            ("server RSS with all games cached (MB)", format!("{:.0}", r.game_service_rss_mb), "≤ 500"),
            ("errors", r.errors.to_string(), "0"),
            (
                "server's own time per move p50 / p99 (ms, ≤ bucket)",
                server_play.map(|(a, b)| format!("{a:.2} / {b:.2}")).unwrap_or_else(|| "n/a".into()),
                "",
            ),
            (
                "of which JetStream append p50 / p99 (ms, ≤ bucket)",
                server_append.map(|(a, b)| format!("{a:.2} / {b:.2}")).unwrap_or_else(|| "n/a".into()),
                "",
            ),
        ],
        args.json.then_some(&r),
    );
    Ok(ExitCode::SUCCESS)
}
