//! The message bus: request/reply to services and ephemeral publish/subscribe, on NATS or in
//! process. Nothing here is persistent; the event log is.
//!
//! * **Commands** go to a *service* (e.g. `game`) with a *key* (e.g. the game id). Every
//!   instance of the service calls [`Bus::serve`]; each request reaches exactly one of them
//!   (a NATS queue group). The caller waits at most its timeout.
//! * **Topics** (e.g. `clock`) carry ephemeral messages per key (e.g. a game's clock ticks).
//!   Subscribers see what is published while they are subscribed, nothing older; a subscriber
//!   too slow to keep up loses messages rather than slowing the publisher.
//!
//! Headers travel with every message, so the W3C `traceparent` of a command reaches the
//! service that handles it.

mod local;
mod nats;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures::Stream;

pub use local::LocalBus;
pub use nats::NatsBus;

use crate::{BoxError, Headers, InvalidName, aggregate::check_name, subjects};

/// A message on the bus: opaque payload bytes and headers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BusMessage {
    /// The encoded message (protobuf, encoded by the caller).
    pub payload: Bytes,
    /// Headers, e.g. `traceparent`.
    pub headers: Headers,
}

impl BusMessage {
    /// A message without headers.
    pub fn new(payload: impl Into<Bytes>) -> Self {
        Self { payload: payload.into(), headers: Headers::new() }
    }

    /// Adds a header (builder style).
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.insert(name, value);
        self
    }
}

/// A failed bus operation. Everything but [`BusError::Invalid`] is an infrastructure fault
/// (map it to gRPC `Unavailable`).
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    /// The service did not answer within the timeout.
    #[error("no reply within the timeout")]
    Timeout,
    /// No instance of the service is listening.
    #[error("no instance of the service is listening")]
    NoResponders,
    /// The connection failed.
    #[error("bus unavailable: {0}")]
    Unavailable(#[source] BoxError),
    /// A service, topic, key or header is not acceptable.
    #[error(transparent)]
    Invalid(#[from] InvalidBusName),
}

impl BusError {
    /// Whether this is an infrastructure fault (everything but `Invalid`).
    pub fn is_unavailable(&self) -> bool {
        !matches!(self, Self::Invalid(_))
    }
}

/// Why a name given to the bus is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidBusName {
    /// Not a valid token.
    #[error("bad service, topic or key: {0}")]
    Name(#[from] InvalidName),
    /// A word the event log uses (a kind name, `cmd`, `bench`).
    #[error("{0:?} is reserved")]
    Reserved(String),
    /// A header name with control characters, non-ASCII, spaces or `:`, or a value with a
    /// line break.
    #[error("bad header {0:?}")]
    Header(String),
}

pub(crate) fn check_service_or_topic(word: &str) -> Result<(), InvalidBusName> {
    check_name(word)?;
    if subjects::is_reserved(word) {
        return Err(InvalidBusName::Reserved(word.to_owned()));
    }
    Ok(())
}

pub(crate) fn check_headers(headers: &Headers) -> Result<(), InvalidBusName> {
    for (name, value) in headers.iter() {
        let name_ok = !name.is_empty() && name.bytes().all(|b| b.is_ascii_graphic() && b != b':');
        if !name_ok || value.contains(['\r', '\n']) {
            return Err(InvalidBusName::Header(name.to_owned()));
        }
    }
    Ok(())
}

/// Request/reply and publish/subscribe. Implemented by [`NatsBus`] and [`LocalBus`].
pub trait Bus: Send + Sync {
    /// Sends a request to one instance of `service` for `key` and waits for its reply.
    fn request(
        &self,
        service: &str,
        key: &str,
        message: BusMessage,
        timeout: Duration,
    ) -> impl Future<Output = Result<BusMessage, BusError>> + Send;

    /// Joins the instances of `service`: the stream yields the requests this instance must
    /// answer (each request goes to one instance).
    fn serve(&self, service: &str) -> impl Future<Output = Result<Requests, BusError>> + Send;

    /// Publishes an ephemeral message on `topic` for `key`.
    fn publish(&self, topic: &str, key: &str, message: BusMessage)
    -> impl Future<Output = Result<(), BusError>> + Send;

    /// Receives what is published on `topic` for `key` (or for every key with `None`) from now
    /// on.
    fn subscribe(&self, topic: &str, key: Option<&str>) -> impl Future<Output = Result<Subscription, BusError>> + Send;
}

/// One request received by a service instance. Answer it with [`respond`](Self::respond);
/// dropping it unanswered makes the caller time out.
#[derive(Debug)]
pub struct Request {
    /// The key the request was sent for.
    pub key: String,
    /// The request.
    pub message: BusMessage,
    reply: Replier,
}

#[derive(Debug)]
enum Replier {
    Nats { client: async_nats::Client, subject: Option<async_nats::Subject> },
    Local(tokio::sync::oneshot::Sender<BusMessage>),
}

impl Request {
    /// Sends the reply.
    pub async fn respond(self, reply: BusMessage) -> Result<(), BusError> {
        check_headers(&reply.headers)?;
        match self.reply {
            Replier::Nats { client, subject } => {
                let Some(subject) = subject else {
                    return Ok(()); // a publish, not a request: nobody waits
                };
                nats::publish(&client, subject, reply).await
            }
            Replier::Local(sender) => {
                // The caller may have given up (timeout): not an error of the responder.
                let _ = sender.send(reply);
                Ok(())
            }
        }
    }
}

/// The requests a service instance receives.
pub struct Requests(Pin<Box<dyn Stream<Item = Request> + Send>>);

impl Stream for Requests {
    type Item = Request;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Request>> {
        self.0.as_mut().poll_next(cx)
    }
}

impl std::fmt::Debug for Requests {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Requests")
    }
}

/// One message received on a topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// The key it was published for.
    pub key: String,
    /// The message.
    pub message: BusMessage,
}

/// The messages of a topic subscription.
pub struct Subscription(Pin<Box<dyn Stream<Item = Published> + Send>>);

impl Stream for Subscription {
    type Item = Published;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Published>> {
        self.0.as_mut().poll_next(cx)
    }
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Subscription")
    }
}

/// Either bus, chosen at run time, without boxing futures.
#[derive(Debug, Clone)]
pub enum AnyBus {
    /// Over NATS.
    Nats(NatsBus),
    /// In process (`weiqi up`).
    Local(LocalBus),
}

impl From<NatsBus> for AnyBus {
    fn from(bus: NatsBus) -> Self {
        Self::Nats(bus)
    }
}

impl From<LocalBus> for AnyBus {
    fn from(bus: LocalBus) -> Self {
        Self::Local(bus)
    }
}

impl Bus for AnyBus {
    async fn request(
        &self,
        service: &str,
        key: &str,
        message: BusMessage,
        timeout: Duration,
    ) -> Result<BusMessage, BusError> {
        match self {
            Self::Nats(bus) => bus.request(service, key, message, timeout).await,
            Self::Local(bus) => bus.request(service, key, message, timeout).await,
        }
    }

    async fn serve(&self, service: &str) -> Result<Requests, BusError> {
        match self {
            Self::Nats(bus) => bus.serve(service).await,
            Self::Local(bus) => bus.serve(service).await,
        }
    }

    async fn publish(&self, topic: &str, key: &str, message: BusMessage) -> Result<(), BusError> {
        match self {
            Self::Nats(bus) => bus.publish(topic, key, message).await,
            Self::Local(bus) => bus.publish(topic, key, message).await,
        }
    }

    async fn subscribe(&self, topic: &str, key: Option<&str>) -> Result<Subscription, BusError> {
        match self {
            Self::Nats(bus) => bus.subscribe(topic, key).await,
            Self::Local(bus) => bus.subscribe(topic, key).await,
        }
    }
}

/// The trace context a message or an event carries, as pairs for `weiqi_telemetry::set_parent`.
pub fn trace_of(headers: &Headers) -> Vec<(String, String)> {
    [crate::TRACEPARENT, crate::TRACESTATE]
        .into_iter()
        .filter_map(|name| headers.get(name).map(|v| (name.to_string(), v.to_string())))
        .collect()
}

/// Replaces the trace context `headers` carry with the current span's (when it is traced).
pub(crate) fn retrace(headers: &mut Headers) {
    for (name, value) in weiqi_telemetry::inject_current() {
        headers.set(name, value);
    }
}
