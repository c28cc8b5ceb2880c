//! Throughput and load-time figures of the event logs (run in release):
//!
//! ```text
//! cargo run --release -p weiqi-eventlog --example eventlog_bench [-- nats://127.0.0.1:4222]
//! ```
//!
//! Without a URL it starts its own nats-server (through weiqi-testkit) with a temp store.

use std::time::{Duration, Instant};

use weiqi_eventlog::{
    AggregateId, AggregateKind, CommandId, EmbeddedConfig, EmbeddedLog, EventLog, JetStreamConfig, JetStreamLog,
    NewEvent, ReadMethod, bench::raw_publish_per_sec,
};

const GAME: AggregateKind = AggregateKind::Game;
const PAYLOAD: usize = 120; // about a StonePlayed event

fn event() -> NewEvent {
    NewEvent::new("weiqi.v1.StonePlayed", vec![0x33u8; PAYLOAD])
}

async fn sequential<L: EventLog>(log: &L, prefix: &str, n: u64) -> f64 {
    let id = AggregateId::new(format!("{prefix}-seq")).unwrap();
    let started = Instant::now();
    for s in 0..n {
        let c = CommandId::new(format!("{prefix}-seq-{s}")).unwrap();
        log.append(GAME, &id, s, &c, &[event()]).await.unwrap();
    }
    n as f64 / started.elapsed().as_secs_f64()
}

async fn concurrent<L: EventLog + Clone + 'static>(log: &L, prefix: &str, games: usize, per_game: u64) -> f64 {
    let started = Instant::now();
    let tasks: Vec<_> = (0..games)
        .map(|g| {
            let log = log.clone();
            let prefix = prefix.to_owned();
            tokio::spawn(async move {
                let id = AggregateId::new(format!("{prefix}-{g}")).unwrap();
                for s in 0..per_game {
                    let c = CommandId::new(format!("{prefix}-{g}-{s}")).unwrap();
                    log.append(GAME, &id, s, &c, &[event()]).await.unwrap();
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    (games as u64 * per_game) as f64 / started.elapsed().as_secs_f64()
}

async fn load_median<L: EventLog>(log: &L, id: &AggregateId, rounds: usize) -> Duration {
    let mut times = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let started = Instant::now();
        let events = log.read(GAME, id, 1).await.unwrap();
        times.push(started.elapsed());
        assert_eq!(events.len(), 300);
    }
    times.sort();
    times[rounds / 2]
}

#[tokio::main]
async fn main() {
    let mut _server = None;
    let url = match std::env::args().nth(1) {
        Some(url) => url,
        None => {
            let server = weiqi_testkit::NatsServer::start().expect("nats-server");
            let url = server.url();
            _server = Some(server);
            url
        }
    };
    let client = async_nats::connect(&url).await.unwrap();
    let version = client.server_info().version;
    println!("nats-server {version} at {url}; payload {PAYLOAD} bytes");

    let raw1 = raw_publish_per_sec(&client, PAYLOAD, 20_000, 1).await.unwrap();
    println!(
        "raw JetStream acked publish, 1 subject:      {:>9.0}/s  p50 {:?} p99 {:?}",
        raw1.per_sec, raw1.p50, raw1.p99
    );
    let raw1000 = raw_publish_per_sec(&client, PAYLOAD, 100_000, 1000).await.unwrap();
    println!(
        "raw JetStream acked publish, 1000 subjects:  {:>9.0}/s  p50 {:?} p99 {:?}",
        raw1000.per_sec, raw1000.p50, raw1000.p99
    );

    let log = JetStreamLog::with_client(client.clone(), JetStreamConfig::default()).await.unwrap();
    println!("jetstream log append, sequential, 1 game:    {:>9.0}/s", sequential(&log, "s", 20_000).await);
    println!("jetstream log append, 1000 games concurrent: {:>9.0}/s", concurrent(&log, "c", 1000, 100).await);
    let big = AggregateId::new("big-game").unwrap();
    for s in 0..300u64 {
        let c = CommandId::new(format!("big-{s}")).unwrap();
        log.append(GAME, &big, s, &c, &[event()]).await.unwrap();
    }
    let stream_messages = 20_000 + 100_000 + 300;
    println!(
        "load 300-event game, stream of {stream_messages} msgs, batch direct get: median {:?}",
        load_median(&log, &big, 51).await
    );
    let ordered = JetStreamLog::with_client(
        client.clone(),
        JetStreamConfig { read_method: ReadMethod::OrderedConsumer, ..Default::default() },
    )
    .await
    .unwrap();
    println!(
        "load 300-event game, stream of {stream_messages} msgs, ordered consumer: median {:?}",
        load_median(&ordered, &big, 51).await
    );

    let dir = tempfile::tempdir().unwrap();
    let embedded = EmbeddedLog::open(dir.path().join("bench.redb"), EmbeddedConfig::default()).unwrap();
    println!("embedded append, sequential, 1 game:         {:>9.0}/s", sequential(&embedded, "s", 2_000).await);
    println!("embedded append, 1000 games concurrent:      {:>9.0}/s", concurrent(&embedded, "c", 1000, 20).await);
    for s in 0..300u64 {
        let c = CommandId::new(format!("big-{s}")).unwrap();
        embedded.append(GAME, &big, s, &c, &[event()]).await.unwrap();
    }
    println!("embedded load 300-event game: median {:?}", load_median(&embedded, &big, 51).await);
}
