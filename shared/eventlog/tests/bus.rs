//! The bus contract, run against NATS (real nats-server) and the in-process bus.

use std::time::Duration;

use futures::StreamExt;
use weiqi_eventlog::{Bus, BusError, BusMessage, LocalBus, NatsBus, Published, TRACEPARENT};
use weiqi_testkit::{NatsServer, skip_or_fail};

const TRACE: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const PATIENCE: Duration = Duration::from_secs(10);

/// Two instances of an echo service on `bus`: each answers with its name, the key, the
/// payload and the request's traceparent.
fn spawn_echo(requests: weiqi_eventlog::Requests, name: &'static str) {
    tokio::spawn(async move {
        let mut requests = requests;
        while let Some(request) = requests.next().await {
            let trace = request.message.headers.get(TRACEPARENT).unwrap_or("none").to_owned();
            let body = format!("{name}:{}:{}", request.key, String::from_utf8_lossy(&request.message.payload));
            let reply = BusMessage::new(body).with_header(TRACEPARENT, trace);
            request.respond(reply).await.unwrap();
        }
    });
}

async fn request_reply_reaches_one_instance_with_headers<B: Bus + Clone + 'static>(bus: B) {
    let a = bus.serve("echo").await.unwrap();
    let b = bus.serve("echo").await.unwrap();
    spawn_echo(a, "a");
    spawn_echo(b, "b");
    for n in 0..20 {
        let message = BusMessage::new(format!("m{n}")).with_header(TRACEPARENT, TRACE);
        let reply = bus.request("echo", "g1", message, PATIENCE).await.unwrap();
        let text = String::from_utf8(reply.payload.to_vec()).unwrap();
        let (instance, rest) = text.split_once(':').unwrap();
        assert!(instance == "a" || instance == "b", "{text}");
        assert_eq!(rest, format!("g1:m{n}"));
        assert_eq!(reply.headers.get(TRACEPARENT), Some(TRACE));
    }
}

async fn no_responders_and_timeouts_are_unavailable<B: Bus + Clone + 'static>(bus: B) {
    let nobody = bus.request("ghost", "g1", BusMessage::new("x"), PATIENCE).await;
    assert!(matches!(nobody, Err(BusError::NoResponders)), "{nobody:?}");
    assert!(nobody.unwrap_err().is_unavailable());

    // A service that never answers.
    let mut silent = bus.serve("silent").await.unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Some(request) = silent.next().await {
            held.push(request);
        }
    });
    let late = bus.request("silent", "g1", BusMessage::new("x"), Duration::from_millis(200)).await;
    assert!(matches!(late, Err(BusError::Timeout)), "{late:?}");
    assert!(late.unwrap_err().is_unavailable());
}

async fn topics_deliver_by_key_with_headers<B: Bus + Clone + 'static>(bus: B) {
    let mut one = bus.subscribe("clock", Some("g1")).await.unwrap();
    let mut every = bus.subscribe("clock", None).await.unwrap();
    bus.publish("clock", "g2", BusMessage::new("tick-g2")).await.unwrap();
    bus.publish("clock", "g1", BusMessage::new("tick-g1").with_header(TRACEPARENT, TRACE)).await.unwrap();
    let got: Published = next(&mut one).await;
    assert_eq!((got.key.as_str(), &got.message.payload[..]), ("g1", &b"tick-g1"[..]));
    assert_eq!(got.message.headers.get(TRACEPARENT), Some(TRACE));
    let first = next(&mut every).await;
    let second = next(&mut every).await;
    assert_eq!((first.key.as_str(), second.key.as_str()), ("g2", "g1"));
}

async fn next(subscription: &mut weiqi_eventlog::Subscription) -> Published {
    tokio::time::timeout(PATIENCE, subscription.next()).await.expect("a message in time").expect("subscription open")
}

async fn bad_names_are_refused<B: Bus + Clone + 'static>(bus: B) {
    let table: [(&str, &str); 4] = [("game", "g1"), ("cmd", "g1"), ("clock", "a.b"), ("a b", "g1")];
    for (topic, key) in table {
        let refused = bus.publish(topic, key, BusMessage::new("x")).await;
        assert!(matches!(refused, Err(BusError::Invalid(_))), "{topic} {key}: {refused:?}");
        assert!(!refused.unwrap_err().is_unavailable());
    }
    let bad_header = BusMessage::new("x").with_header("a:b", "v");
    let refused = bus.publish("clock", "g1", bad_header).await;
    assert!(matches!(refused, Err(BusError::Invalid(_))), "{refused:?}");
}

async fn nats_bus() -> Option<(NatsServer, NatsBus)> {
    let server = skip_or_fail(NatsServer::start_async().await)?;
    let client = async_nats::connect(server.url()).await.unwrap();
    Some((server, NatsBus::new(client)))
}

macro_rules! both {
    ($($case:ident),*) => {
        mod nats {
            $(
                #[tokio::test]
                async fn $case() {
                    let Some((_server, bus)) = super::nats_bus().await else { return };
                    super::$case(bus).await;
                }
            )*
        }
        mod local {
            $(
                #[tokio::test]
                async fn $case() {
                    super::$case(weiqi_eventlog::LocalBus::new()).await;
                }
            )*
        }
    };
}

both!(
    request_reply_reaches_one_instance_with_headers,
    no_responders_and_timeouts_are_unavailable,
    topics_deliver_by_key_with_headers,
    bad_names_are_refused
);

#[tokio::test]
async fn local_requests_spread_over_instances() {
    let bus = LocalBus::new();
    let a = bus.serve("echo").await.unwrap();
    let b = bus.serve("echo").await.unwrap();
    spawn_echo(a, "a");
    spawn_echo(b, "b");
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..4 {
        let reply = bus.request("echo", "k", BusMessage::new("x"), PATIENCE).await.unwrap();
        seen.insert(reply.payload[0]);
    }
    assert_eq!(seen.len(), 2, "both instances answered");
}
