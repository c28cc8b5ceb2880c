//! The server handles against the real binaries (skipped when they are missing, unless
//! `WEIQI_REQUIRE_EXTERNAL=1`).

use async_nats::jetstream;
use weiqi_testkit::{NatsServer, RedisPersistence, RedisServer, require};

#[tokio::test]
async fn jetstream_data_survives_kill_and_restart() {
    let mut nats = require!(NatsServer::start_async().await);
    let url = nats.url();
    let client = async_nats::connect(&url).await.unwrap();
    let js = jetstream::new(client);
    js.create_stream(jetstream::stream::Config {
        name: "T".into(),
        subjects: vec!["t.>".into()],
        ..Default::default()
    })
    .await
    .unwrap();
    for i in 0..10u32 {
        js.publish("t.a", i.to_string().into()).await.unwrap().await.unwrap();
    }
    let pid = nats.pid().unwrap();
    nats.kill();
    assert!(!nats.is_running());
    nats.restart_async().await.unwrap();
    assert_ne!(nats.pid(), Some(pid), "a new process");
    assert_eq!(nats.url(), url, "same port after restart");

    // A fresh connection sees the ten messages, recovered from the same store.
    let js = jetstream::new(async_nats::connect(&url).await.unwrap());
    let mut stream = js.get_stream("T").await.unwrap();
    assert_eq!(stream.info().await.unwrap().state.messages, 10);
    let last = stream.get_last_raw_message_by_subject("t.a").await.unwrap();
    assert_eq!(&last.payload[..], b"9");
}

#[test]
fn nats_server_is_recent_enough_and_usable_from_sync_tests() {
    let nats = require!(NatsServer::start());
    assert!(nats.version() >= weiqi_testkit::NatsServerVersion(2, 10, 0));
    assert!(nats.store_dir().starts_with(std::env::temp_dir()));
    assert!(nats.url().starts_with("nats://127.0.0.1:"));
}

fn redis(port: u16, command: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(stream, "{command}\r\n").unwrap();
    let mut buf = [0u8; 128];
    let n = stream.read(&mut buf).unwrap();
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

#[test]
fn redis_append_only_survives_kill_and_restart() {
    let mut server = require!(RedisServer::start_with(RedisPersistence::AppendOnly));
    assert_eq!(redis(server.port(), "SET move 42"), "+OK\r\n");
    server.kill();
    server.restart().unwrap();
    assert_eq!(redis(server.port(), "GET move"), "$2\r\n42\r\n");
}

#[test]
fn redis_without_persistence_forgets_on_restart() {
    let mut server = require!(RedisServer::start());
    assert_eq!(redis(server.port(), "SET move 42"), "+OK\r\n");
    server.restart().unwrap();
    assert_eq!(redis(server.port(), "GET move"), "$-1\r\n");
}

#[test]
fn dropping_the_handle_kills_the_server() {
    let server = require!(RedisServer::start());
    let port = server.port();
    drop(server);
    assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_err());
}
