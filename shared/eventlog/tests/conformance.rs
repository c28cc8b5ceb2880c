//! One conformance suite, run against both implementations: the JetStream log on a real
//! `nats-server` (skipped without one unless `WEIQI_REQUIRE_EXTERNAL=1`) and the embedded log
//! on a temporary redb file.

use std::time::Duration;

use futures::StreamExt;
use weiqi_eventlog::{
    AggregateId, AggregateKind, AnyEventLog, AppendError, AppendOutcome, CommandId, EmbeddedConfig, EmbeddedLog,
    EventLog, EventStream, InvalidAppend, JetStreamConfig, JetStreamLog, NewEvent, Position, ReadMethod, RecordedEvent,
    StoredBatch, TRACEPARENT,
};
use weiqi_testkit::{NatsServer, skip_or_fail};

const GAME: AggregateKind = AggregateKind::Game;

/// A log under test and a way to restart what is under it.
trait Backend {
    type Log: EventLog + Clone + Into<AnyEventLog> + 'static;
    fn log(&self) -> &Self::Log;
    fn any(&self) -> AnyEventLog {
        self.log().clone().into()
    }
    async fn restart(&mut self);
}

struct JetStream {
    server: NatsServer,
    log: JetStreamLog,
}

impl JetStream {
    async fn start() -> Option<Self> {
        Self::start_with(JetStreamConfig::default()).await
    }

    /// Reads through ordered consumers, the path used on servers before 2.11.
    async fn start_ordered() -> Option<Self> {
        Self::start_with(JetStreamConfig { read_method: ReadMethod::OrderedConsumer, ..Default::default() }).await
    }

    async fn start_with(config: JetStreamConfig) -> Option<Self> {
        let server = skip_or_fail(NatsServer::start_async().await)?;
        let log = JetStreamLog::connect(&server.url(), config).await.expect("connect to the test server");
        Some(Self { server, log })
    }
}

impl Backend for JetStream {
    type Log = JetStreamLog;
    fn log(&self) -> &JetStreamLog {
        &self.log
    }
    async fn restart(&mut self) {
        // kill -9, then the same port and store; the client reconnects by itself.
        self.server.kill();
        self.server.restart_async().await.expect("restart nats-server");
    }
}

struct Embedded {
    dir: tempfile::TempDir,
    log: Option<EmbeddedLog>,
}

impl Embedded {
    async fn start() -> Option<Self> {
        let dir = tempfile::tempdir().unwrap();
        let log = EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default())
            .expect("open the embedded log");
        Some(Self { dir, log: Some(log) })
    }
}

impl Backend for Embedded {
    type Log = EmbeddedLog;
    fn log(&self) -> &EmbeddedLog {
        self.log.as_ref().unwrap()
    }
    async fn restart(&mut self) {
        self.log = None; // closes the file (joins the writer)
        let path = self.dir.path().join("events.redb");
        self.log = Some(EmbeddedLog::open(path, EmbeddedConfig::default()).expect("reopen"));
    }
}

fn id(name: &str) -> AggregateId {
    AggregateId::new(name).unwrap()
}

fn cmd(name: &str) -> CommandId {
    CommandId::new(name).unwrap()
}

fn event(name: &str) -> NewEvent {
    NewEvent::new(format!("test.{name}"), name.as_bytes().to_vec())
}

fn types(events: &[RecordedEvent]) -> Vec<&str> {
    events.iter().map(|e| e.event_type.as_str()).collect()
}

fn sequences(events: &[RecordedEvent]) -> Vec<u64> {
    events.iter().map(|e| e.sequence).collect()
}

/// Appends, retrying while the log is unavailable (after a restart, until the client is back).
async fn append_retrying<L: EventLog>(
    log: &L,
    aggregate: &AggregateId,
    expected: u64,
    command: &CommandId,
    events: &[NewEvent],
) -> AppendOutcome {
    for _ in 0..200 {
        match log.append(GAME, aggregate, expected, command, events).await {
            Err(AppendError::Unavailable(_)) => tokio::time::sleep(Duration::from_millis(50)).await,
            other => return other.expect("append after retries"),
        }
    }
    panic!("log still unavailable after retries");
}

/// The next item of a stream; a guard against hanging forever, not a timing assertion.
async fn next(stream: &mut EventStream) -> RecordedEvent {
    tokio::time::timeout(Duration::from_secs(20), stream.next())
        .await
        .expect("an event within 20 s")
        .expect("the stream does not end")
        .expect("no error")
}

async fn take(stream: &mut EventStream, n: usize) -> Vec<RecordedEvent> {
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(next(stream).await);
    }
    out
}

// ---------------------------------------------------------------------------------------------

async fn ordering_and_dense_sequences<B: Backend>(b: &mut B) {
    let log = b.log();
    let g = id("g1");
    assert_eq!(log.last_sequence(GAME, &g).await.unwrap(), 0);
    assert!(log.read(GAME, &g, 1).await.unwrap().is_empty());

    let a = log.append(GAME, &g, 0, &cmd("c1"), &[event("a")]).await.unwrap();
    let b2 = log.append(GAME, &g, 1, &cmd("c2"), &[event("b"), event("c")]).await.unwrap();
    let d = log.append(GAME, &g, 3, &cmd("c3"), &[event("d")]).await.unwrap();
    assert_eq!((a.first_sequence, a.last_sequence, a.duplicate), (1, 1, false));
    assert_eq!((b2.first_sequence, b2.last_sequence), (2, 3));
    assert_eq!((d.first_sequence, d.last_sequence), (4, 4));
    assert!(a.position < b2.position && b2.position < d.position);

    let all = log.read(GAME, &g, 1).await.unwrap();
    assert_eq!(sequences(&all), [1, 2, 3, 4]);
    assert_eq!(types(&all), ["test.a", "test.b", "test.c", "test.d"]);
    assert_eq!(&all[2].payload[..], b"c");
    let commands: Vec<&str> = all.iter().map(|e| e.command_id.as_str()).collect();
    assert_eq!(commands, ["c1", "c2", "c2", "c3"]);
    assert!(all.iter().all(|e| e.kind == GAME && e.aggregate_id == g));
    assert!(all.windows(2).all(|w| w[0].position < w[1].position));
    assert!(all.windows(2).all(|w| w[0].timestamp_ms <= w[1].timestamp_ms));
    assert!(all[0].timestamp_ms > 1_600_000_000_000, "a server time in ms");
    assert_eq!(all[1].timestamp_ms, all[2].timestamp_ms, "one batch, one time");
    assert_eq!(all[0].position, a.position);
    assert_eq!(all[1].position, b2.position);

    assert_eq!(sequences(&log.read(GAME, &g, 3).await.unwrap()), [3, 4]);
    assert!(log.read(GAME, &g, 5).await.unwrap().is_empty());
    assert_eq!(log.last_sequence(GAME, &g).await.unwrap(), 4);
    // Kinds are separate logs.
    assert_eq!(log.last_sequence(AggregateKind::Player, &g).await.unwrap(), 0);
}

async fn conflict_on_a_stale_sequence<B: Backend>(b: &mut B) {
    let log = b.log();
    let g = id("g1");
    log.append(GAME, &g, 0, &cmd("c1"), &[event("a")]).await.unwrap();
    let table: [(u64, &str); 3] = [(0, "exists already"), (5, "ahead"), (0, "again")];
    for (n, (expected, why)) in table.into_iter().enumerate() {
        match log.append(GAME, &g, expected, &cmd(&format!("x{n}")), &[event("x")]).await {
            Err(AppendError::Conflict { actual: 1 }) => {}
            other => panic!("{why}: expected Conflict {{ actual: 1 }}, got {other:?}"),
        }
    }
    match log.append(GAME, &id("nobody"), 3, &cmd("y"), &[event("y")]).await {
        Err(AppendError::Conflict { actual: 0 }) => {}
        other => panic!("missing aggregate: expected Conflict {{ actual: 0 }}, got {other:?}"),
    }
    let ok = log.append(GAME, &g, 1, &cmd("c2"), &[event("b")]).await.unwrap();
    assert_eq!(ok.last_sequence, 2);
    assert_eq!(types(&log.read(GAME, &g, 1).await.unwrap()), ["test.a", "test.b"]);
    assert!(log.read(GAME, &id("nobody"), 1).await.unwrap().is_empty());
}

async fn idempotent_retry<B: Backend>(b: &mut B) {
    let log = b.log();
    let g = id("g1");
    let first = log.append(GAME, &g, 0, &cmd("c1"), &[event("a"), event("b")]).await.unwrap();
    let again = log.append(GAME, &g, 0, &cmd("c1"), &[event("a"), event("b")]).await.unwrap();
    assert!(!first.duplicate);
    assert!(again.duplicate);
    assert_eq!(
        (again.first_sequence, again.last_sequence, again.position),
        (first.first_sequence, first.last_sequence, first.position)
    );
    assert_eq!(sequences(&log.read(GAME, &g, 1).await.unwrap()), [1, 2]);
}

async fn retry_after_landed_is_a_duplicate<B: Backend>(b: &mut B) {
    let log = b.log();
    let g = id("g1");
    // c1 lands, but its caller never saw the answer; c2 and c3 come after it.
    let c1 = log.append(GAME, &g, 0, &cmd("c1"), &[event("a")]).await.unwrap();
    let c2 = log.append(GAME, &g, 1, &cmd("c2"), &[event("b")]).await.unwrap();
    log.append(GAME, &g, 2, &cmd("c3"), &[event("c")]).await.unwrap();
    // The retries carry their original (now stale) expected sequences.
    let retry1 = log.append(GAME, &g, 0, &cmd("c1"), &[event("a")]).await.unwrap();
    let retry2 = log.append(GAME, &g, 1, &cmd("c2"), &[event("b")]).await.unwrap();
    assert!(retry1.duplicate && retry2.duplicate);
    assert_eq!(retry1.first_sequence, c1.first_sequence);
    assert_eq!(retry2.first_sequence, c2.first_sequence);
    assert_eq!(retry2.position, c2.position);
    // A retry of the latest append, the common case.
    let retry3 = log.append(GAME, &g, 2, &cmd("c3"), &[event("c")]).await.unwrap();
    assert_eq!((retry3.first_sequence, retry3.duplicate), (3, true));
    assert_eq!(sequences(&log.read(GAME, &g, 1).await.unwrap()), [1, 2, 3]);
}

async fn a_command_id_belongs_to_one_aggregate<B: Backend>(b: &mut B) {
    let log = b.log();
    log.append(GAME, &id("g1"), 0, &cmd("c1"), &[event("a")]).await.unwrap();
    match log.append(GAME, &id("g2"), 0, &cmd("c1"), &[event("a")]).await {
        Err(AppendError::CommandIdReused { original }) => assert_eq!(original, id("g1")),
        other => panic!("expected CommandIdReused, got {other:?}"),
    }
    assert!(log.read(GAME, &id("g2"), 1).await.unwrap().is_empty());
}

async fn batches_are_atomic<B: Backend>(b: &mut B) {
    let log = b.log();
    let g = id("g1");
    let traced = event("a").with_header(TRACEPARENT, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    log.append(GAME, &g, 0, &cmd("c1"), &[traced, event("b"), event("c")]).await.unwrap();
    // A conflicting batch appends none of its events.
    let conflict = log.append(GAME, &g, 1, &cmd("c2"), &[event("x"), event("y")]).await;
    assert!(matches!(conflict, Err(AppendError::Conflict { actual: 3 })), "{conflict:?}");
    // Invalid batches append nothing.
    let empty = log.append(GAME, &g, 3, &cmd("c3"), &[]).await;
    assert!(matches!(empty, Err(AppendError::Invalid(InvalidAppend::Empty))), "{empty:?}");
    let huge = NewEvent::new("test.huge", vec![7u8; 2 * 1024 * 1024]);
    let too_large = log.append(GAME, &g, 3, &cmd("c4"), &[event("d"), huge]).await;
    assert!(matches!(too_large, Err(AppendError::Invalid(InvalidAppend::TooLarge { .. }))), "{too_large:?}");
    let all = log.read(GAME, &g, 1).await.unwrap();
    assert_eq!(types(&all), ["test.a", "test.b", "test.c"]);
    assert_eq!(all[0].headers.get(TRACEPARENT), Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
    assert!(all[1].headers.is_empty());
    // The rejected command ids were not consumed.
    let ok = log.append(GAME, &g, 3, &cmd("c2"), &[event("d")]).await.unwrap();
    assert_eq!((ok.first_sequence, ok.duplicate), (4, false));
}

async fn follow_from_a_position_then_live<B: Backend>(b: &mut B) {
    let log = b.log().clone();
    let (g1, g2) = (id("g1"), id("g2"));
    log.append(GAME, &g1, 0, &cmd("a1"), &[event("g1.1")]).await.unwrap();
    log.append(GAME, &g2, 0, &cmd("b1"), &[event("g2.1"), event("g2.2")]).await.unwrap();
    log.append(AggregateKind::Player, &id("p1"), 0, &cmd("p1"), &[event("p")]).await.unwrap();
    log.append(GAME, &g1, 1, &cmd("a2"), &[event("g1.2")]).await.unwrap();

    let mut all = log.follow(GAME, Position::START).await.unwrap();
    let stored = take(&mut all, 4).await;
    assert_eq!(types(&stored), ["test.g1.1", "test.g2.1", "test.g2.2", "test.g1.2"]);
    assert!(stored.windows(2).all(|w| w[0].position < w[1].position));

    // Resume from the middle of a batch: after g2.1, the next is g2.2.
    let mut resumed = log.follow(GAME, stored[1].position.next()).await.unwrap();
    assert_eq!(types(&take(&mut resumed, 2).await), ["test.g2.2", "test.g1.2"]);

    // From the head: only what comes next.
    let head = log.head(GAME).await.unwrap();
    let mut fresh = log.follow(GAME, head).await.unwrap();

    // Live: appended after the follows started, from another task.
    let writer = log.clone();
    let live = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        writer.append(GAME, &g2, 2, &cmd("b2"), &[event("g2.3")]).await.unwrap();
        writer.append(GAME, &g1, 2, &cmd("a3"), &[event("g1.3"), event("g1.4")]).await.unwrap();
    });
    let live_events = take(&mut all, 3).await;
    assert_eq!(types(&live_events), ["test.g2.3", "test.g1.3", "test.g1.4"]);
    assert_eq!(sequences(&live_events), [3, 3, 4]);
    assert_eq!(types(&take(&mut fresh, 3).await), ["test.g2.3", "test.g1.3", "test.g1.4"]);
    assert_eq!(types(&take(&mut resumed, 1).await), ["test.g2.3"]);
    live.await.unwrap();
}

async fn watch_one_aggregate_catch_up_then_live<B: Backend>(b: &mut B) {
    let log = b.log().clone();
    let (g1, g2) = (id("g1"), id("g2"));
    log.append(GAME, &g1, 0, &cmd("a1"), &[event("1"), event("2")]).await.unwrap();
    log.append(GAME, &g2, 0, &cmd("b1"), &[event("other")]).await.unwrap();
    log.append(GAME, &g1, 2, &cmd("a2"), &[event("3")]).await.unwrap();

    let mut watch = log.watch(GAME, &g1, 2).await.unwrap();
    let caught_up = take(&mut watch, 2).await;
    assert_eq!(sequences(&caught_up), [2, 3]);

    let writer = log.clone();
    let live = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        writer.append(GAME, &g2, 1, &cmd("b2"), &[event("other")]).await.unwrap();
        writer.append(GAME, &g1, 3, &cmd("a3"), &[event("4")]).await.unwrap();
    });
    let fourth = next(&mut watch).await;
    assert_eq!((fourth.sequence, fourth.event_type.as_str()), (4, "test.4"));
    assert_eq!(fourth.aggregate_id, id("g1"));
    live.await.unwrap();

    // From the beginning of a new aggregate, before it exists.
    let mut early = log.watch(GAME, &id("g3"), 1).await.unwrap();
    log.append(GAME, &id("g3"), 0, &cmd("c1"), &[event("first")]).await.unwrap();
    assert_eq!(next(&mut early).await.sequence, 1);
}

async fn restart_loses_nothing<B: Backend>(b: &mut B) {
    let (g1, g2) = (id("g1"), id("g2"));
    for n in 0..10u64 {
        let log = b.log();
        log.append(GAME, &g1, n, &cmd(&format!("a{n}")), &[event("x")]).await.unwrap();
        log.append(GAME, &g2, 2 * n, &cmd(&format!("b{n}")), &[event("y"), event("z")]).await.unwrap();
    }
    let before = b.log().read(GAME, &g2, 1).await.unwrap();

    b.restart().await;

    let log = b.log();
    // The first append after the restart waits for the connection to come back.
    let next_one = append_retrying(log, &g1, 10, &cmd("a10"), &[event("x")]).await;
    assert_eq!((next_one.first_sequence, next_one.duplicate), (11, false));
    let after = log.read(GAME, &g2, 1).await.unwrap();
    assert_eq!(after, before);
    assert_eq!(sequences(&log.read(GAME, &g1, 1).await.unwrap()), (1..=11).collect::<Vec<_>>());
    // Command ids are remembered across the restart.
    let retry = log.append(GAME, &g1, 9, &cmd("a9"), &[event("x")]).await.unwrap();
    assert_eq!((retry.first_sequence, retry.duplicate), (10, true));
    let mut follow = log.follow(GAME, Position::START).await.unwrap();
    assert_eq!(take(&mut follow, 31).await.len(), 31);
}

async fn concurrent_appends_with_one_expected_sequence_one_wins<B: Backend>(b: &mut B) {
    let log = b.log().clone();
    let g = id("g1");
    log.append(GAME, &g, 0, &cmd("seed"), &[event("seed")]).await.unwrap();
    let tasks: Vec<_> = (0..50)
        .map(|n| {
            let (log, g) = (log.clone(), g.clone());
            tokio::spawn(async move { log.append(GAME, &g, 1, &cmd(&format!("racer{n}")), &[event("race")]).await })
        })
        .collect();
    let mut wins = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(outcome) => {
                assert_eq!(outcome.first_sequence, 2);
                wins += 1;
            }
            Err(AppendError::Conflict { actual: 2 }) => {}
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(wins, 1);
    assert_eq!(sequences(&log.read(GAME, &g, 1).await.unwrap()), [1, 2]);
}

async fn concurrent_aggregates_stay_dense<B: Backend>(b: &mut B) {
    let log = b.log().clone();
    let tasks: Vec<_> = (0..40)
        .map(|n| {
            let log = log.clone();
            tokio::spawn(async move {
                let g = id(&format!("g{n}"));
                for s in 0..10u64 {
                    let c = cmd(&format!("g{n}-{s}"));
                    log.append(GAME, &g, s, &c, &[event("m")]).await.unwrap();
                }
                g
            })
        })
        .collect();
    for task in tasks {
        let g = task.await.unwrap();
        let events = log.read(GAME, &g, 1).await.unwrap();
        assert_eq!(sequences(&events), (1..=10).collect::<Vec<_>>(), "{g}");
    }
}

/// A stored batch as a backup holds it.
fn stored(aggregate: &str, first: u64, command: &str, at: i64, names: &[&str]) -> StoredBatch {
    StoredBatch {
        aggregate_id: id(aggregate),
        first_sequence: first,
        command_id: cmd(command),
        timestamp_ms: at,
        events: names.iter().map(|n| event(n).with_header("weiqi-command-digest", format!("d-{n}"))).collect(),
    }
}

/// The first `n` events of the kind, in log order.
async fn whole_kind<L: EventLog>(log: &L, kind: AggregateKind, n: usize) -> Vec<RecordedEvent> {
    let mut stream = log.follow(kind, Position::START).await.unwrap();
    take(&mut stream, n).await
}

/// Restored batches keep their aggregate, sequences, command id, time, types, payloads and headers,
/// and the kind's order is the order they were sent in.
async fn restored_batches_keep_what_they_were<B: Backend>(b: &mut B) {
    let log = b.any();
    let mut restorer = log.restorer(GAME).await.unwrap();
    let batches = [
        stored("g1", 1, "create-g1", 1_000_000_000_000, &["created", "started"]),
        stored("g2", 1, "create-g2", 1_000_000_000_500, &["created"]),
        stored("g1", 3, "m1", 1_000_000_001_000, &["played"]),
        stored("g2", 2, "m1", 1_000_000_002_000, &["played"]),
    ];
    let mut acks = Vec::new();
    for batch in &batches {
        acks.push(restorer.send(batch).await.unwrap());
    }
    for ack in acks {
        assert!(!ack.await.unwrap().duplicate);
    }
    let g1 = log.read(GAME, &id("g1"), 1).await.unwrap();
    assert_eq!(sequences(&g1), [1, 2, 3]);
    assert_eq!(types(&g1), ["test.created", "test.started", "test.played"]);
    assert_eq!(g1[2].headers.get("weiqi-command-digest"), Some("d-played"));
    assert_eq!(g1[0].payload.as_ref(), b"created");
    assert_eq!(
        (g1[0].timestamp_ms, g1[1].timestamp_ms, g1[2].timestamp_ms),
        (1_000_000_000_000, 1_000_000_000_000, 1_000_000_001_000)
    );
    assert_eq!((g1[0].command_id.as_str(), g1[2].command_id.as_str()), ("create-g1", "m1"));
    let all = whole_kind(&log, GAME, 5).await;
    let order: Vec<(&str, u64)> = all.iter().map(|e| (e.aggregate_id.as_str(), e.sequence)).collect();
    assert_eq!(order, [("g1", 1), ("g1", 2), ("g2", 1), ("g1", 3), ("g2", 2)], "the order sent");
    // The same command id twice (`m1`, on two aggregates) is history, not a retry: both are stored.
    assert_eq!(log.read(GAME, &id("g2"), 2).await.unwrap()[0].command_id.as_str(), "m1");
    // A later retry of a restored command with a stale expected sequence is still a duplicate.
    log.append(GAME, &id("g1"), 3, &cmd("m2"), &[event("passed")]).await.unwrap();
    let retry = log.append(GAME, &id("g1"), 2, &cmd("m1"), &[event("played")]).await.unwrap();
    assert_eq!((retry.first_sequence, retry.duplicate), (3, true));
}

/// A restored batch that does not follow its aggregate's last one is a conflict, and stores nothing.
async fn a_restored_batch_out_of_sequence_is_a_conflict<B: Backend>(b: &mut B) {
    let log = b.any();
    let mut restorer = log.restorer(GAME).await.unwrap();
    let ack = restorer.send(&stored("g1", 2, "c1", 1_000, &["a"])).await.unwrap();
    assert!(matches!(ack.await, Err(AppendError::Conflict { actual: 0 })));
    assert!(log.read(GAME, &id("g1"), 1).await.unwrap().is_empty());
}

/// Many batches in flight at once, over interleaved aggregates: all stored, in the order sent.
async fn many_restored_batches_in_flight_keep_their_order<B: Backend>(b: &mut B) {
    let log = b.any();
    let mut restorer = log.restorer(GAME).await.unwrap();
    let mut acks = futures::stream::FuturesOrdered::new();
    let mut sent = Vec::new();
    for n in 0..600u64 {
        let g = format!("g{}", n % 17);
        let batch = stored(&g, n / 17 + 1, &format!("c{n}"), 1_000 + n as i64, &["x"]);
        sent.push((g, n / 17 + 1));
        acks.push_back(restorer.send(&batch).await.unwrap());
    }
    let mut positions = Vec::new();
    while let Some(ack) = acks.next().await {
        positions.push(ack.unwrap().position);
    }
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "acknowledged in increasing positions");
    let all = whole_kind(&log, GAME, 600).await;
    let order: Vec<(String, u64)> = all.iter().map(|e| (e.aggregate_id.as_str().to_string(), e.sequence)).collect();
    assert_eq!(order, sent);
    assert!(all.iter().enumerate().all(|(n, e)| e.timestamp_ms == 1_000 + n as i64));
}

macro_rules! conformance {
    ($module:ident, $start:expr; $($case:ident),* $(,)?) => {
        mod $module {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let Some(mut backend) = $start.await else { return };
                    super::$case(&mut backend).await;
                }
            )*
        }
    };
}

conformance!(jetstream, super::JetStream::start();
    ordering_and_dense_sequences,
    conflict_on_a_stale_sequence,
    idempotent_retry,
    retry_after_landed_is_a_duplicate,
    a_command_id_belongs_to_one_aggregate,
    batches_are_atomic,
    follow_from_a_position_then_live,
    watch_one_aggregate_catch_up_then_live,
    restart_loses_nothing,
    concurrent_appends_with_one_expected_sequence_one_wins,
    concurrent_aggregates_stay_dense,
    restored_batches_keep_what_they_were,
    a_restored_batch_out_of_sequence_is_a_conflict,
    many_restored_batches_in_flight_keep_their_order,
);

conformance!(embedded, super::Embedded::start();
    ordering_and_dense_sequences,
    conflict_on_a_stale_sequence,
    idempotent_retry,
    retry_after_landed_is_a_duplicate,
    a_command_id_belongs_to_one_aggregate,
    batches_are_atomic,
    follow_from_a_position_then_live,
    watch_one_aggregate_catch_up_then_live,
    restart_loses_nothing,
    concurrent_appends_with_one_expected_sequence_one_wins,
    concurrent_aggregates_stay_dense,
    restored_batches_keep_what_they_were,
    a_restored_batch_out_of_sequence_is_a_conflict,
    many_restored_batches_in_flight_keep_their_order,
);

conformance!(jetstream_ordered_reads, super::JetStream::start_ordered();
    ordering_and_dense_sequences,
    conflict_on_a_stale_sequence,
    idempotent_retry,
    retry_after_landed_is_a_duplicate,
    a_command_id_belongs_to_one_aggregate,
    batches_are_atomic,
    follow_from_a_position_then_live,
    watch_one_aggregate_catch_up_then_live,
    restart_loses_nothing,
    concurrent_appends_with_one_expected_sequence_one_wins,
    concurrent_aggregates_stay_dense,
    restored_batches_keep_what_they_were,
    a_restored_batch_out_of_sequence_is_a_conflict,
    many_restored_batches_in_flight_keep_their_order,
);
