//! Operations (issue 17) against real processes: `weiqi up` on a real nats-server, its `/healthz`,
//! `/readyz` and `/metrics`.
//!
//! * Readiness follows the event log: nats-server killed, `/readyz` answers 503 within seconds
//!   (naming the event log) while `/healthz` still says the process lives; nats-server back on the
//!   same port and store, `/readyz` answers 200 again.

use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use weiqi_browser::Server;

const WEIQI: &str = env!("CARGO_BIN_EXE_weiqi");

/// `GET path` on `base` (`http://host:port`): the status and the body.
fn get(base: &str, path: &str) -> (u16, String) {
    let addr = base.trim_start_matches("http://");
    let Ok(mut s) = std::net::TcpStream::connect(addr) else { return (0, "connection refused".into()) };
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
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
