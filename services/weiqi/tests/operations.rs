//! Operations (issue 17) against real processes: `weiqi up` on a real nats-server, its `/healthz`,
//! `/readyz` and `/metrics`.
//!
//! * Readiness follows the event log: nats-server killed, `/readyz` answers 503 within seconds
//!   (naming the event log) while `/healthz` still says the process lives; nats-server back on the
//!   same port and store, `/readyz` answers 200 again. The same for Redis under `weiqi up --redis`:
//!   killed, `/readyz` answers 503 naming Redis (the event log still fine); back, 200.
//! * Traces tell the story: with the gateway, the game, clock, tournament and ranking services as
//!   separate processes on NATS exporting to a fake OTLP collector, one move is one trace (the
//!   gateway's gRPC server span, the bus message sent and received, the game command, the JetStream
//!   append), and a flag is one complete trace started by the clock service; no span's parent is
//!   missing.
//! * TLS: `weiqi up --tls-cert --tls-key` serves gRPC and HTTPS with that certificate (a client
//!   that trusts it gets answers, plaintext gets none) and marks its cookies `Secure`.
//! * Limits: one token past its rate, or one address past its, is refused with
//!   `ResourceExhausted` and a `retry-after` (other tokens still served; the same token again
//!   after the wait); a token holding the most streams it may gets no more until it closes one.
//! * Every one of those processes serves its metrics with their HELP text: the gateway's requests by
//!   method and code and their latency, the game service's commands and appends, the clock's running
//!   clocks, flags and flag delay, the followers' lag in the tournament and ranking services, the
//!   ranking service's cases by state and the time it took to rate the game.

mod common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use weiqi_browser::Server;
use weiqi_proto::v1 as pb;
use weiqi_testkit::otlp::{Collector, Span, SpanKind, hex};

const WEIQI: &str = env!("CARGO_BIN_EXE_weiqi");

/// `GET path` on `base` (`http://host:port`): the status and the body.
fn get(base: &str, path: &str) -> (u16, String) {
    let addr = base.trim_start_matches("http://");
    let Ok(mut s) = std::net::TcpStream::connect(addr) else { return (0, "connection refused".into()) };
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    // A server that will not speak plain HTTP (a TLS port) may close before the request is written:
    // no answer, as when it closes after.
    if write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").is_err() {
        return (0, "connection closed before the request was sent".into());
    }
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    let status = out.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = out.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

/// Polls `/readyz` until it answers `status`; the time it took.
fn wait_ready(base: &str, status: u16, within: Duration) -> (Duration, String) {
    let start = Instant::now();
    loop {
        let (s, body) = get(base, "/readyz");
        if s == status {
            return (start.elapsed(), body);
        }
        assert!(start.elapsed() < within, "/readyz never answered {status} within {within:?}: {s} {body}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn readiness_turns_503_when_nats_stops_and_200_when_it_returns() {
    let Some(mut nats) = weiqi_testkit::nats_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::new(Path::new(WEIQI), &dir.path().join("data"), Some(&nats.url()));
    server.start();
    let (_, body) = wait_ready(&server.base, 200, Duration::from_secs(60));
    let report: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(report["ready"], true, "{report}");
    // The followers of `weiqi up` report their lag.
    for follower in ["clock", "tournament_projector", "ranking_projector", "web_games"] {
        assert!(report["lag"][follower].is_u64(), "{follower}: {report}");
    }
    let metrics = get(&server.base, "/metrics").1;
    assert!(metrics.contains(r#"weiqi_ready{check="all"} 1"#), "{metrics}");
    assert!(metrics.contains("# HELP weiqi_follower_lag_appends"), "{metrics}");

    nats.kill();
    let (took, body) = wait_ready(&server.base, 503, Duration::from_secs(20));
    println!("/readyz answered 503 {:.1} s after nats-server was killed", took.as_secs_f64());
    let report: serde_json::Value = serde_json::from_str(&body).unwrap();
    let log = report["checks"].as_array().unwrap().iter().find(|c| c["check"] == "event_log").unwrap().clone();
    assert_eq!(log["ok"], false, "{report}");
    assert_eq!(get(&server.base, "/healthz"), (200, "ok".to_string()), "liveness is not readiness");

    nats.restart().unwrap();
    let (took, _) = wait_ready(&server.base, 200, Duration::from_secs(60));
    println!("/readyz answered 200 {:.1} s after nats-server came back", took.as_secs_f64());
    server.kill();
}

#[test]
fn readiness_names_redis_when_it_stops_and_recovers_when_it_returns() {
    let Some(mut redis) = weiqi_testkit::redis_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let grpc = format!("127.0.0.1:{}", free_port());
    let url = redis.url();
    let (_up, base) = start("up", &["up", "--quiet", "--redis", &url, "--grpc", &grpc], dir.path(), &[]);
    let (_, body) = wait_ready(&base, 200, Duration::from_secs(60));
    let report: serde_json::Value = serde_json::from_str(&body).unwrap();
    let check = |report: &serde_json::Value| {
        report["checks"].as_array().unwrap().iter().find(|c| c["check"] == "redis").cloned().unwrap()
    };
    assert_eq!(check(&report)["ok"], true, "{report}");

    redis.kill();
    let (took, body) = wait_ready(&base, 503, Duration::from_secs(20));
    println!("/readyz answered 503 {:.1} s after redis-server was killed", took.as_secs_f64());
    let report: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(check(&report)["ok"], false, "{report}");
    let log = report["checks"].as_array().unwrap().iter().find(|c| c["check"] == "event_log").unwrap().clone();
    assert_eq!(log["ok"], true, "only Redis is down: {report}");
    assert_eq!(get(&base, "/healthz"), (200, "ok".to_string()), "liveness is not readiness");
    let metrics = get(&base, "/metrics").1;
    assert!(metrics.contains(r#"weiqi_ready{check="redis"} 0"#), "{metrics}");

    redis.restart().unwrap();
    let (took, _) = wait_ready(&base, 200, Duration::from_secs(60));
    println!("/readyz answered 200 {:.1} s after redis-server came back", took.as_secs_f64());
}

/// A `weiqi serve` process, killed when dropped.
struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `weiqi serve <service>` on `nats`, exporting spans to `collector` every 100 ms; its HTTP base.
fn serve(service: &str, nats: &str, data: &Path, collector: &str, extra: &[&str]) -> (Serve, String) {
    let endpoint = format!("http://{collector}");
    let args = [&["serve", service, "--nats", nats][..], extra].concat();
    start(service, &args, data, &[("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint), ("OTEL_BSP_SCHEDULE_DELAY", "100")])
}

/// `weiqi ARGS --http <free port> --data-dir DATA`, its stderr in `DATA/<name>.log`, once it answers
/// `/healthz`; its HTTP base. A port another test took between choosing and binding it is chosen
/// again.
fn start(name: &str, args: &[&str], data: &Path, env: &[(&str, &str)]) -> (Serve, String) {
    for _ in 0..4 {
        let http = format!("127.0.0.1:{}", free_port());
        let log_path = data.join(format!("{name}.log"));
        let log = std::fs::File::create(&log_path).unwrap();
        let mut child = Command::new(WEIQI)
            .args(args)
            .args(["--http", &http])
            .arg("--data-dir")
            .arg(data)
            .envs(env.iter().copied())
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        // Bound within a second or two, or gone with the reason in its log.
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(2) && get(&format!("http://{http}"), "/healthz").0 != 200 {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        if child.try_wait().unwrap().is_some() {
            let why = std::fs::read_to_string(&log_path).unwrap_or_default();
            assert!(why.contains("in use"), "weiqi {name} exited: {why}");
            continue;
        }
        return (Serve(child), format!("http://{http}"));
    }
    panic!("weiqi {name} found no free port");
}

/// The spans of one trace, and a check that every span but the root has its parent in it.
fn trace(spans: &[(String, Span)], trace_id: &[u8]) -> Vec<(String, Span)> {
    let trace: Vec<(String, Span)> = spans.iter().filter(|(_, s)| s.trace_id == trace_id).cloned().collect();
    let ids: std::collections::HashSet<&[u8]> = trace.iter().map(|(_, s)| s.span_id.as_slice()).collect();
    let roots: Vec<&str> =
        trace.iter().filter(|(_, s)| s.parent_span_id.is_empty()).map(|(_, s)| s.name.as_str()).collect();
    assert_eq!(roots.len(), 1, "one root in trace {}: {roots:?}", hex(trace_id));
    for (service, s) in &trace {
        assert!(
            s.parent_span_id.is_empty() || ids.contains(s.parent_span_id.as_slice()),
            "{service}'s span {} has a parent missing from trace {}",
            s.name,
            hex(trace_id)
        );
    }
    trace
}

/// The names (service: span, kind) from `leaf` up to the root.
fn path_to_root(trace: &[(String, Span)], leaf: &Span) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = Some(leaf.clone());
    while let Some(s) = at {
        let service = trace.iter().find(|(_, t)| t.span_id == s.span_id).map(|(n, _)| n.clone()).unwrap_or_default();
        out.push(format!("{service}: {} ({:?})", s.name, SpanKind::try_from(s.kind).unwrap_or(SpanKind::Unspecified)));
        at = trace
            .iter()
            .map(|(_, t)| t)
            .find(|t| !s.parent_span_id.is_empty() && t.span_id == s.parent_span_id)
            .cloned();
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_and_a_flag_are_each_one_trace_across_the_processes_and_every_service_reports_metrics() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    let (addr, collector) = Collector::start().await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    let collector_addr = addr.to_string();
    let grpc = format!("127.0.0.1:{}", free_port());
    let (_game, game_http) = serve("game", &nats.url(), &data, &collector_addr, &[]);
    let (_clock, clock_http) = serve("clock", &nats.url(), &data, &collector_addr, &[]);
    let (_gateway, gateway_http) = serve("gateway", &nats.url(), &data, &collector_addr, &["--grpc", &grpc]);
    let (_tournament, tournament_http) = serve("tournament", &nats.url(), &data, &collector_addr, &[]);
    let (_ranking, ranking_http) = serve("ranking", &nats.url(), &data, &collector_addr, &[]);
    let services = [
        ("game", &game_http),
        ("clock", &clock_http),
        ("gateway", &gateway_http),
        ("tournament", &tournament_http),
        ("ranking", &ranking_http),
    ];
    for (service, base) in services {
        let start = Instant::now();
        while get(base, "/readyz").0 != 200 {
            let log = std::fs::read_to_string(data.join(format!("{service}.log"))).unwrap_or_default();
            assert!(start.elapsed() < Duration::from_secs(60), "weiqi serve {service} is not ready: {log}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    let token = |sub: &str, role: &str| -> String {
        let out = Command::new(WEIQI)
            .args(["token", "--sub", sub, "--role", role, "--event", "*"])
            .arg("--data-dir")
            .arg(&data)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    let (organiser, alice) = (token("org", "organiser"), token("alice", "player"));
    let mut games = pb::game_service_client::GameServiceClient::connect(format!("http://{grpc}")).await.unwrap();
    let created = games
        .create_game(common::bearer(
            pb::CreateGameRequest {
                request_id: "traced-game".into(),
                size: 9,
                rules: "chinese".into(),
                first: Some(pb::PlayerRef { id: "alice".into(), ..Default::default() }),
                second: Some(pb::PlayerRef { id: "bob".into(), ..Default::default() }),
                color_method: pb::game_created::ColorMethod::Fixed as i32,
                // Two seconds each: White's runs out after Black's first move.
                time_control: Some(pb::TimeControl {
                    system: Some(pb::time_control::System::Absolute(pb::time_control::Absolute { main_ms: 2_000 })),
                    ..Default::default()
                }),
                start: true,
                rated: true,
                ..Default::default()
            },
            &organiser,
        ))
        .await
        .unwrap()
        .into_inner();
    let game = created.game_id;
    games
        .play_move(common::bearer(
            pb::PlayMoveRequest {
                game_id: game.clone(),
                request_id: "traced-move".into(),
                point: Some(pb::Point { x: 4, y: 4 }),
                expected_move_number: 1,
                lag: None,
            },
            &alice,
        ))
        .await
        .unwrap();

    // Wait for both stories to arrive: the move's server span and the clock's flag.
    let deadline = Instant::now() + Duration::from_secs(30);
    let (spans, moved, flagged) = loop {
        let spans = collector.spans();
        let find = |service: &str, name: &str| {
            spans.iter().find(|(s, span)| s == service && span.name == name).map(|(_, span)| span.clone())
        };
        let moved = find("weiqi-gateway", "weiqi.v1.GameService/PlayMove");
        let flagged = find("weiqi-clock", "clock.flag");
        // The flag's trace is complete once the game service's append of TimeExpired has arrived.
        let appended = |t: &Option<Span>| {
            t.as_ref().is_some_and(|t| {
                spans
                    .iter()
                    .any(|(s, span)| s == "weiqi-game" && span.trace_id == t.trace_id && span.name == "game append")
            })
        };
        // And whole: a parent span is exported when it ends, which may be a batch after its
        // children (the ranking service's reaction to the flag, say).
        let whole = |t: &Option<Span>| {
            t.as_ref().is_some_and(|t| {
                let ids: std::collections::HashSet<&[u8]> =
                    spans.iter().filter(|(_, s)| s.trace_id == t.trace_id).map(|(_, s)| s.span_id.as_slice()).collect();
                spans
                    .iter()
                    .filter(|(_, s)| s.trace_id == t.trace_id)
                    .all(|(_, s)| s.parent_span_id.is_empty() || ids.contains(s.parent_span_id.as_slice()))
            })
        };
        if appended(&moved) && appended(&flagged) && whole(&moved) && whole(&flagged) {
            break (spans, moved.unwrap(), flagged.unwrap());
        }
        assert!(
            Instant::now() < deadline,
            "both traces never arrived whole (move {:?}, flag {:?}); spans: {:?}",
            moved.map(|m| m.name),
            flagged.map(|f| f.name),
            spans.iter().map(|(s, span)| format!("{s}: {}", span.name)).collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let expect = |trace: &[(String, Span)], root: &str, chain: &[&str]| {
        let append = trace.iter().find(|(s, span)| s == "weiqi-game" && span.name == "game append").unwrap();
        let path = path_to_root(trace, &append.1);
        println!("{}", path.join("\n  <- "));
        assert_eq!(path.last().map(String::as_str), Some(root), "{path:#?}");
        for step in chain {
            assert!(path.iter().any(|p| p == step), "{step} missing from {path:#?}");
        }
    };
    let move_trace = trace(&spans, &moved.trace_id);
    assert!(moved.parent_span_id.is_empty(), "the gateway's server span starts the move's trace");
    expect(
        &move_trace,
        "weiqi-gateway: weiqi.v1.GameService/PlayMove (Server)",
        &[
            "weiqi-gateway: edge.command (Internal)",
            "weiqi-gateway: games send (Producer)",
            "weiqi-game: games receive (Consumer)",
            "weiqi-game: game.command (Internal)",
            "weiqi-game: game append (Producer)",
        ],
    );
    let flag_trace = trace(&spans, &flagged.trace_id);
    assert!(flagged.parent_span_id.is_empty(), "a flag starts a trace of its own");
    expect(
        &flag_trace,
        "weiqi-clock: clock.flag (Internal)",
        &[
            "weiqi-clock: games send (Producer)",
            "weiqi-game: games receive (Consumer)",
            "weiqi-game: game.command (Internal)",
            "weiqi-game: game append (Producer)",
        ],
    );

    // Each process's metrics, with their HELP text (the ranking service rates the game once it has
    // ended on time; the readiness gauges refresh every 5 s).
    let expected: [(&str, &[&str]); 5] = [
        (
            &gateway_http,
            &[
                r#"weiqi_grpc_requests_total{method="weiqi.v1.GameService/PlayMove",code="ok"} 1"#,
                r#"weiqi_grpc_request_seconds_count{method="weiqi.v1.GameService/PlayMove",code="ok"} 1"#,
                "# HELP weiqi_grpc_request_seconds",
                r#"weiqi_ready{check="all"} 1"#,
            ],
        ),
        (
            &game_http,
            &[
                r#"weiqi_commands_total{command="play",outcome="accepted"} 1"#,
                "# HELP weiqi_append_seconds",
                "# TYPE weiqi_append_seconds histogram",
            ],
        ),
        (
            &clock_http,
            &[
                r#"weiqi_clock_flags_total{outcome="recorded"} 1"#,
                "weiqi_flag_delay_seconds_count 1",
                "# HELP weiqi_running_clocks",
                r#"weiqi_follower_lag_appends{follower="clock"}"#,
            ],
        ),
        (
            &tournament_http,
            &[
                r#"weiqi_follower_lag_appends{follower="tournament_projector"}"#,
                r#"weiqi_follower_lag_appends{follower="tournament_manager_games"}"#,
                "# HELP weiqi_follower_lag_appends",
            ],
        ),
        (
            &ranking_http,
            &[
                r#"weiqi_cases{state="open"} 0"#,
                "# HELP weiqi_rating_recompute_seconds",
                r#"weiqi_follower_lag_appends{follower="ranking_games"}"#,
            ],
        ),
    ];
    for (base, lines) in expected {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let text = get(base, "/metrics").1;
            let missing: Vec<&&str> = lines.iter().filter(|l| !text.contains(**l)).collect();
            if missing.is_empty() {
                break;
            }
            assert!(Instant::now() < deadline, "{base}/metrics lacks {missing:?}:\n{text}");
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }
}

/// A self-signed certificate for `localhost` written to `dir`: (certificate PEM, its DER, paths).
fn certificate(dir: &Path) -> (String, rcgen::CertifiedKey<rcgen::KeyPair>, std::path::PathBuf, std::path::PathBuf) {
    let key = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let (cert_path, key_path) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::write(&cert_path, key.cert.pem()).unwrap();
    std::fs::write(&key_path, key.signing_key.serialize_pem()).unwrap();
    (key.cert.pem(), key, cert_path, key_path)
}

/// `GET path` over TLS on `port`, trusting `cert` for `localhost`: the status line and headers.
async fn https_get(port: u16, path: &str, cert: &rcgen::CertifiedKey<rcgen::KeyPair>) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_rustls::rustls;
    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert.cert.der().clone()).unwrap();
    let config = rustls::ClientConfig::builder().with_root_certificates(roots).with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(std::sync::Arc::new(config));
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    let mut tls = connector.connect(name, tcp).await.unwrap();
    tls.write_all(format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut out = Vec::new();
    let _ = tls.read_to_end(&mut out).await;
    String::from_utf8_lossy(&out).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_serves_grpc_and_https_with_the_given_certificate_and_plaintext_gets_nothing() {
    use tonic::transport::{Certificate, Channel, ClientTlsConfig};
    let dir = tempfile::tempdir().unwrap();
    let (pem, cert, cert_path, key_path) = certificate(dir.path());
    let mut server = Server::new(Path::new(WEIQI), &dir.path().join("data"), None);
    server.env.push(("WEIQI_TLS_CERT".into(), cert_path.display().to_string()));
    server.env.push(("WEIQI_TLS_KEY".into(), key_path.display().to_string()));
    server.start();
    let grpc_port: u16 = server.grpc.rsplit(':').next().unwrap().parse().unwrap();
    let http_port: u16 = server.base.rsplit(':').next().unwrap().parse().unwrap();

    let tls = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(&pem)).domain_name("localhost");
    let channel = Channel::from_shared(format!("https://localhost:{grpc_port}"))
        .unwrap()
        .tls_config(tls)
        .unwrap()
        .connect()
        .await
        .unwrap();
    let info = pb::gateway_service_client::GatewayServiceClient::new(channel)
        .server_info(pb::ServerInfoRequest {})
        .await
        .unwrap()
        .into_inner();
    assert!(!info.version.is_empty(), "{info:?}");
    let plaintext = pb::gateway_service_client::GatewayServiceClient::connect(format!("http://{}", server.grpc)).await;
    let refused = match plaintext {
        Err(_) => true,
        Ok(mut c) => c.server_info(pb::ServerInfoRequest {}).await.is_err(),
    };
    assert!(refused, "plaintext gRPC to a TLS port gets no answer");

    let ready = https_get(http_port, "/readyz", &cert).await;
    assert!(ready.starts_with("HTTP/1.1 200"), "{ready}");
    let login = https_get(http_port, "/login", &cert).await;
    assert!(login.starts_with("HTTP/1.1 200"), "{login}");
    let cookies: Vec<&str> = login.lines().filter(|l| l.to_ascii_lowercase().starts_with("set-cookie:")).collect();
    assert!(!cookies.is_empty() && cookies.iter().all(|c| c.contains("Secure")), "{cookies:?}");
    assert_eq!(get(&server.base, "/healthz").0, 0, "plaintext HTTP to a TLS port gets no answer");
    server.kill();
}

/// Calls `Whoami` with `token` (or none) until refused; the refusal, after how many answers.
async fn until_refused(
    client: &mut pb::gateway_service_client::GatewayServiceClient<tonic::transport::Channel>,
    token: Option<&str>,
) -> (tonic::Status, usize) {
    for n in 0..1_000 {
        let call = match token {
            Some(t) => client.whoami(common::bearer(pb::WhoamiRequest {}, t)).await.map(|_| ()),
            None => client.server_info(pb::ServerInfoRequest {}).await.map(|_| ()),
        };
        if let Err(status) = call
            && status.code() == tonic::Code::ResourceExhausted
        {
            return (status, n);
        }
    }
    panic!("never refused");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_refuse_a_token_an_address_and_a_stream_too_many_with_when_to_retry() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::new(Path::new(WEIQI), &dir.path().join("data"), None);
    for (k, v) in [
        ("WEIQI_RATE_PER_TOKEN", "5"),
        ("WEIQI_RATE_PER_ADDRESS", "0"),
        ("WEIQI_OPEN_PER_TOKEN", "2"),
        ("WEIQI_STREAMS_PER_ADDRESS", "2"),
    ] {
        server.env.push((k.into(), v.into()));
    }
    server.start();
    let mut client =
        pb::gateway_service_client::GatewayServiceClient::connect(format!("http://{}", server.grpc)).await.unwrap();
    let (alice, bob) = (server.token("alice", "player"), server.token("bob", "player"));

    // Past its burst (twice the rate), a token is refused with when to retry.
    let (refused, answered) = until_refused(&mut client, Some(&alice)).await;
    assert!((9..=12).contains(&answered), "a burst of 10, then refused: {answered}");
    assert!(refused.message().contains("too many requests with this token"), "{refused:?}");
    let retry_ms: u64 = refused.metadata().get("retry-after-ms").unwrap().to_str().unwrap().parse().unwrap();
    let retry_s: u64 = refused.metadata().get("retry-after").unwrap().to_str().unwrap().parse().unwrap();
    assert!(retry_ms > 0 && retry_ms <= 1_000 && retry_s == retry_ms.div_ceil(1000), "{retry_ms} ms, {retry_s} s");
    // Another token is still served; the same one again after the wait.
    client.whoami(common::bearer(pb::WhoamiRequest {}, &bob)).await.unwrap();
    tokio::time::sleep(Duration::from_millis(retry_ms + 50)).await;
    client.whoami(common::bearer(pb::WhoamiRequest {}, &alice)).await.unwrap();

    // Streams: two open, the third refused until one closes.
    let mut games =
        pb::game_service_client::GameServiceClient::connect(format!("http://{}", server.grpc)).await.unwrap();
    let open = |games: &mut pb::game_service_client::GameServiceClient<tonic::transport::Channel>| {
        let mut games = games.clone();
        let bob = bob.clone();
        async move { games.my_games(common::bearer(pb::MyGamesRequest {}, &bob)).await }
    };
    let first = open(&mut games).await.unwrap();
    let second = open(&mut games).await.unwrap();
    let third = open(&mut games).await.unwrap_err();
    assert_eq!(third.code(), tonic::Code::ResourceExhausted, "{third:?}");
    assert!(third.message().contains("calls open"), "{third:?}");
    drop(first);
    let deadline = Instant::now() + Duration::from_secs(5);
    let again = loop {
        match open(&mut games).await {
            Ok(s) => break s,
            Err(e) if e.code() == tonic::Code::ResourceExhausted && Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("a stream closed makes room for another: {e:?}"),
        }
    };
    drop((second, again));

    // Public streams: a game is watched without a token, two at once from this address, the
    // third refused until one closes; an anonymous stream carries the game's events.
    let organiser = server.token("org", "organiser");
    let player = |id: &str| Some(pb::PlayerRef { id: id.into(), ..Default::default() });
    let created = games
        .create_game(common::bearer(
            pb::CreateGameRequest {
                request_id: "public-watch".into(),
                size: 9,
                rules: "chinese".into(),
                first: player("alice"),
                second: player("bob"),
                start: true,
                ..Default::default()
            },
            &organiser,
        ))
        .await
        .unwrap()
        .into_inner();
    let watch = |games: &pb::game_service_client::GameServiceClient<tonic::transport::Channel>| {
        let (mut games, game_id) = (games.clone(), created.game_id.clone());
        async move { games.watch(pb::WatchRequest { game_id, from_sequence: 1 }).await }
    };
    let first = watch(&games).await.expect("no token needed to watch");
    let _second = watch(&games).await.unwrap();
    let third = watch(&games).await.unwrap_err();
    assert_eq!(third.code(), tonic::Code::ResourceExhausted, "{third:?}");
    assert!(third.message().contains("public streams"), "{third:?}");
    let mut events = first.into_inner();
    assert_eq!(events.message().await.unwrap().expect("the game's first event").sequence, 1);
    let metrics = get(&server.base, "/metrics").1;
    for limit in ["token", "streams"] {
        assert!(metrics.contains(&format!("weiqi_rate_limited_total{{limit=\"{limit}\"}}")), "{limit}: {metrics}");
    }
    server.kill();

    // Per address: calls without a token from one address.
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::new(Path::new(WEIQI), &dir.path().join("data"), None);
    server.env.push(("WEIQI_RATE_PER_ADDRESS".into(), "5".into()));
    server.start();
    let mut client =
        pb::gateway_service_client::GatewayServiceClient::connect(format!("http://{}", server.grpc)).await.unwrap();
    let (refused, answered) = until_refused(&mut client, None).await;
    assert!((9..=12).contains(&answered), "a burst of 10, then refused: {answered}");
    assert!(refused.message().contains("too many requests from 127.0.0.1"), "{refused:?}");
    assert!(refused.metadata().get("retry-after").is_some());
    server.kill();
}

/// An HTTP/1.0 request with the session and CSRF cookies of `token`; the status, the `Location`
/// header and the body.
fn http(base: &str, method: &str, path: &str, token: &str, form: &str) -> (u16, String, String) {
    let addr = base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    const CSRF: &str = "0123456789abcdef0123456789abcdef";
    let body = if form.is_empty() { String::new() } else { format!("{form}&csrf={CSRF}") };
    write!(
        s,
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nCookie: wq_session={token}; wq_csrf={CSRF}; lang=en\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    let status = out.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    if path == "/login" {
        return (status, String::new(), head.to_string());
    }
    let location = head
        .lines()
        .find_map(|l| l.strip_prefix("location: ").or_else(|| l.strip_prefix("Location: ")))
        .unwrap_or_default()
        .to_string();
    (status, location, body.to_string())
}

/// Issue 31 item 5: two `weiqi serve gateway` and one game service on one nats-server. A challenge
/// offered through gateway A is listed and accepted through gateway B, and a move played through A's
/// gRPC reaches a viewer of the game's live page on B.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_gateways_share_challenges_and_live_games() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    let url = nats.url();
    let (grpc_a, grpc_b) = (format!("127.0.0.1:{}", free_port()), format!("127.0.0.1:{}", free_port()));
    let (_game, game_http) = start("game", &["serve", "game", "--nats", &url], &data, &[]);
    let (_a, a) = start("gateway-a", &["serve", "gateway", "--nats", &url, "--grpc", &grpc_a], &data, &[]);
    let (_b, b) = start("gateway-b", &["serve", "gateway", "--nats", &url, "--grpc", &grpc_b], &data, &[]);
    for (name, base) in [("game", &game_http), ("gateway-a", &a), ("gateway-b", &b)] {
        let since = Instant::now();
        while get(base, "/readyz").0 != 200 {
            let log = std::fs::read_to_string(data.join(format!("{name}.log"))).unwrap_or_default();
            assert!(since.elapsed() < Duration::from_secs(60), "{name} is not ready: {log}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    let weiqi = |args: &[&str]| {
        let out = Command::new(WEIQI).args(args).arg("--data-dir").arg(&data).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    let password = data.join("password");
    std::fs::write(&password, "correct horse battery staple\n").unwrap();
    for name in ["li", "wang"] {
        weiqi(&[
            "account",
            "--nats",
            &url,
            "add",
            name,
            "--role",
            "player",
            "--password-file",
            password.to_str().unwrap(),
        ]);
    }
    // Sessions: Li signs in on A, Wang on B (a session made on one gateway holds on the other too).
    let login = |base: &str, name: &str| {
        let (status, _, head) =
            http(base, "POST", "/login", "", &format!("name={name}&password=correct+horse+battery+staple"));
        assert_eq!(status, 303, "{name} signs in: {head}");
        head.split("wq_session=").nth(1).and_then(|v| v.split(';').next()).expect("a session cookie").to_string()
    };
    let (li, wang) = (login(&a, "li"), login(&b, "wang"));
    // A session made on one gateway holds on the other: B's home page shows Li signed in.
    let (_, _, home) = http(&b, "GET", "/", &li, "");
    assert!(!home.contains("href=\"/login\""), "Li's session from A holds on B: {home}");

    // Li offers a game through A (Li plays Black, no clock).
    let (status, _, body) = http(&a, "POST", "/challenges", &li, "size=9&rules=chinese&color=black&time=none");
    assert_eq!(status, 303, "{body}");
    // B lists it to Wang, who accepts it there.
    let since = Instant::now();
    let id = loop {
        let (_, _, home) = http(&b, "GET", "/", &wang, "");
        if let Some(at) = home.find("/accept\"") {
            // An open offer is said as one (issue 32 item 8), not as a challenge to the reader.
            assert!(home.contains("li offers a game to anyone") && !home.contains("challenges you"), "{home}");
            let start = home[..at].rfind("/challenges/").expect("the accept form") + "/challenges/".len();
            break home[start..at].to_string();
        }
        assert!(since.elapsed() < Duration::from_secs(20), "B never listed A's challenge: {home}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let (status, location, body) = http(&b, "POST", &format!("/challenges/{id}/accept"), &wang, "x=1");
    assert_eq!(status, 303, "{body}");
    let game = location.strip_prefix("/games/").expect("to the game's page").to_string();
    // Taken: A no longer lists it, and accepting it again through A finds it gone.
    let (status, _, _) = http(&a, "POST", &format!("/challenges/{id}/accept"), &wang, "x=1");
    assert_eq!(status, 409, "a taken challenge is gone on every gateway");

    // A viewer of the game's live page on B.
    let mut viewer = std::net::TcpStream::connect(b.trim_start_matches("http://")).unwrap();
    viewer.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(viewer, "GET /games/{game}/live?lang=en HTTP/1.0\r\nHost: b\r\n\r\n").unwrap();
    // Li moves through A's gRPC, with an API token.
    let li_api = weiqi(&["token", "--sub", "li", "--role", "player"]);
    let mut games = pb::game_service_client::GameServiceClient::connect(format!("http://{grpc_a}")).await.unwrap();
    games
        .play_move(common::bearer(
            pb::PlayMoveRequest {
                game_id: game.clone(),
                request_id: "through-a".into(),
                point: Some(pb::Point { x: 3, y: 3 }),
                expected_move_number: 1,
                lag: None,
            },
            &li_api,
        ))
        .await
        .unwrap();
    let mut seen = String::new();
    let mut buf = [0u8; 8192];
    while !seen.contains("\"move_number\":1") {
        let n = viewer.read(&mut buf).expect("B's stream carries the move played through A");
        assert!(n > 0, "B's stream ended: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    assert!(seen.contains("\"last_move\":{\"color\":\"black\""), "{seen}");
}
