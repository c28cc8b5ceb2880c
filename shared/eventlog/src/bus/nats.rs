//! The bus on core NATS (no JetStream): queue groups for services, plain subjects for topics.
//!
//! Traces: every request and every traced publish is a `producer` span (`<service> send`,
//! `<topic> publish`) continuing the trace the message carries (or the current span), and the
//! message leaves with that span's context; every delivery of a traced message is a `consumer`
//! span (`<service> receive`, `<topic> receive`) whose context replaces the message's, so what
//! the receiver does is its child. Untraced messages (clock ticks) make no span.

use std::time::Duration;

use async_nats::{HeaderMap, RequestErrorKind};
use futures::StreamExt;
use tracing::Instrument;

use super::{
    Bus, BusError, BusMessage, Published, Replier, Request, Requests, Subscription, check_headers,
    check_service_or_topic, retrace, trace_of,
};
use crate::aggregate::check_name;
use crate::{Headers, subjects};

/// The bus over a NATS connection. Cheap to clone.
#[derive(Debug, Clone)]
pub struct NatsBus {
    client: async_nats::Client,
    prefix: String,
}

impl NatsBus {
    /// A bus with the default subject prefix `weiqi`.
    pub fn new(client: async_nats::Client) -> Self {
        Self::with_prefix(client, "weiqi")
    }

    /// A bus whose subjects start with `prefix` (as [`JetStreamConfig::prefix`](crate::JetStreamConfig)).
    pub fn with_prefix(client: async_nats::Client, prefix: impl Into<String>) -> Self {
        Self { client, prefix: prefix.into() }
    }
}

fn to_header_map(headers: &Headers) -> Option<HeaderMap> {
    if headers.is_empty() {
        return None;
    }
    let mut map = HeaderMap::new();
    for (name, value) in headers.iter() {
        map.append(name, value);
    }
    Some(map)
}

fn from_header_map(map: Option<&HeaderMap>) -> Headers {
    let mut headers = Headers::new();
    if let Some(map) = map {
        for (name, values) in map.iter() {
            for value in values {
                headers.insert(name.to_string(), value.as_str());
            }
        }
    }
    headers
}

/// A producer span for sending to `destination` (a service or topic name; the span's name, so no
/// game id in it) on `subject`, continuing the trace `message` carries (else the current span's);
/// `None` when neither is traced.
fn producer(operation: &str, destination: &str, subject: &str, message: &BusMessage) -> Option<tracing::Span> {
    let carried = trace_of(&message.headers);
    if carried.is_empty() && weiqi_telemetry::current_trace_id().is_none() {
        return None;
    }
    let span = tracing::info_span!(
        "bus.send",
        otel.kind = "producer",
        otel.name = %format!("{destination} {operation}"),
        messaging.system = "nats",
        messaging.operation = operation,
        messaging.destination.name = %subject,
    );
    weiqi_telemetry::set_parent(&span, &carried);
    Some(span)
}

/// A message delivered for `destination` (a service or topic): a consumer span continuing its
/// trace, whose context it then carries.
fn delivered(destination: &str, message: &async_nats::Message) -> BusMessage {
    let mut out = from_message(message);
    let carried = trace_of(&out.headers);
    if !carried.is_empty() {
        let span = tracing::info_span!(
            "bus.receive",
            otel.kind = "consumer",
            otel.name = %format!("{destination} receive"),
            messaging.system = "nats",
            messaging.operation = "receive",
            messaging.destination.name = %message.subject,
        );
        weiqi_telemetry::set_parent(&span, &carried);
        span.in_scope(|| retrace(&mut out.headers));
    }
    out
}

fn from_message(message: &async_nats::Message) -> BusMessage {
    BusMessage { payload: message.payload.clone(), headers: from_header_map(message.headers.as_ref()) }
}

/// The last token of a subject: the key.
fn key_of(subject: &str) -> String {
    subject.rsplit('.').next().unwrap_or_default().to_owned()
}

pub(super) async fn publish(
    client: &async_nats::Client,
    subject: async_nats::Subject,
    message: BusMessage,
) -> Result<(), BusError> {
    let sent = match to_header_map(&message.headers) {
        Some(headers) => client.publish_with_headers(subject, headers, message.payload).await,
        None => client.publish(subject, message.payload).await,
    };
    sent.map_err(|e| BusError::Unavailable(Box::new(e)))
}

impl Bus for NatsBus {
    async fn request(
        &self,
        service: &str,
        key: &str,
        message: BusMessage,
        timeout: Duration,
    ) -> Result<BusMessage, BusError> {
        check_service_or_topic(service)?;
        check_name(key).map_err(super::InvalidBusName::from)?;
        check_headers(&message.headers)?;
        let subject = subjects::command(&self.prefix, service, key);
        let span = producer("send", service, &subject, &message).unwrap_or_else(tracing::Span::none);
        let mut message = message;
        span.in_scope(|| retrace(&mut message.headers));
        let mut request = async_nats::Request::new().payload(message.payload).timeout(Some(timeout));
        if let Some(headers) = to_header_map(&message.headers) {
            request = request.headers(headers);
        }
        async {
            match self.client.send_request(subject, request).await {
                Ok(reply) => Ok(from_message(&reply)),
                Err(e) => Err(match e.kind() {
                    RequestErrorKind::TimedOut => BusError::Timeout,
                    RequestErrorKind::NoResponders => BusError::NoResponders,
                    _ => BusError::Unavailable(Box::new(e)),
                }),
            }
        }
        .instrument(span)
        .await
    }

    async fn serve(&self, service: &str) -> Result<Requests, BusError> {
        check_service_or_topic(service)?;
        let subscriber = self
            .client
            .queue_subscribe(
                subjects::command_wildcard(&self.prefix, service),
                subjects::queue_group(&self.prefix, service),
            )
            .await
            .map_err(|e| BusError::Unavailable(Box::new(e)))?;
        let client = self.client.clone();
        let service = service.to_string();
        Ok(Requests(Box::pin(subscriber.map(move |message| Request {
            key: key_of(message.subject.as_str()),
            message: delivered(&service, &message),
            reply: Replier::Nats { client: client.clone(), subject: message.reply },
        }))))
    }

    async fn publish(&self, topic: &str, key: &str, message: BusMessage) -> Result<(), BusError> {
        check_service_or_topic(topic)?;
        check_name(key).map_err(super::InvalidBusName::from)?;
        check_headers(&message.headers)?;
        let subject = subjects::topic(&self.prefix, topic, Some(key));
        let Some(span) = producer("publish", topic, &subject, &message) else {
            return publish(&self.client, subject.into(), message).await;
        };
        let mut message = message;
        span.in_scope(|| retrace(&mut message.headers));
        publish(&self.client, subject.into(), message).instrument(span).await
    }

    async fn subscribe(&self, topic: &str, key: Option<&str>) -> Result<Subscription, BusError> {
        check_service_or_topic(topic)?;
        if let Some(key) = key {
            check_name(key).map_err(super::InvalidBusName::from)?;
        }
        let subscriber = self
            .client
            .subscribe(subjects::topic(&self.prefix, topic, key))
            .await
            .map_err(|e| BusError::Unavailable(Box::new(e)))?;
        let topic = topic.to_string();
        Ok(Subscription(Box::pin(subscriber.map(move |message| Published {
            key: key_of(message.subject.as_str()),
            message: delivered(&topic, &message),
        }))))
    }
}
