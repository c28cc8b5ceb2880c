//! The bus inside one process, for `weiqi up`: channels instead of NATS, same behaviour.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio_stream::wrappers::ReceiverStream;

use super::{
    Bus, BusError, BusMessage, InvalidBusName, Published, Replier, Request, Requests, Subscription, check_headers,
    check_service_or_topic,
};
use crate::aggregate::check_name;

/// Requests or topic messages buffered per receiver before a slow one is skipped.
const CAPACITY: usize = 1024;

/// The in-process bus. Cheap to clone; clones share the same services and topics.
#[derive(Debug, Clone, Default)]
pub struct LocalBus {
    // A std mutex: held only to look up or prune the routing tables, never across an await.
    state: Arc<Mutex<State>>,
}

#[derive(Debug, Default)]
struct State {
    /// Service → its instances, and a round-robin cursor.
    services: HashMap<String, (Vec<mpsc::Sender<Request>>, usize)>,
    /// Topic → subscribers with their key filter (`None`: every key).
    topics: HashMap<String, Vec<Subscriber>>,
}

/// A topic subscriber: its key filter (`None`: every key) and its queue.
type Subscriber = (Option<String>, mpsc::Sender<Published>);

impl LocalBus {
    /// An empty bus.
    pub fn new() -> Self {
        Self::default()
    }

    fn pick(&self, service: &str) -> Option<mpsc::Sender<Request>> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let (instances, cursor) = state.services.get_mut(service)?;
        instances.retain(|sender| !sender.is_closed());
        if instances.is_empty() {
            return None;
        }
        *cursor = (*cursor + 1) % instances.len();
        Some(instances[*cursor].clone())
    }
}

impl Bus for LocalBus {
    async fn request(
        &self,
        service: &str,
        key: &str,
        message: BusMessage,
        timeout: Duration,
    ) -> Result<BusMessage, BusError> {
        check_service_or_topic(service)?;
        check_name(key).map_err(InvalidBusName::from)?;
        check_headers(&message.headers)?;
        let instance = self.pick(service).ok_or(BusError::NoResponders)?;
        let (reply, answer) = oneshot::channel();
        let request = Request { key: key.to_owned(), message, reply: Replier::Local(reply) };
        let exchange = async {
            instance.send(request).await.map_err(|_| BusError::NoResponders)?;
            // A request dropped unanswered is a request that never gets a reply.
            answer.await.map_err(|_| BusError::Timeout)
        };
        tokio::time::timeout(timeout, exchange).await.map_err(|_| BusError::Timeout)?
    }

    async fn serve(&self, service: &str) -> Result<Requests, BusError> {
        check_service_or_topic(service)?;
        let (sender, receiver) = mpsc::channel(CAPACITY);
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.services.entry(service.to_owned()).or_default().0.push(sender);
        Ok(Requests(Box::pin(ReceiverStream::new(receiver))))
    }

    async fn publish(&self, topic: &str, key: &str, message: BusMessage) -> Result<(), BusError> {
        check_service_or_topic(topic)?;
        check_name(key).map_err(InvalidBusName::from)?;
        check_headers(&message.headers)?;
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let Some(subscribers) = state.topics.get_mut(topic) else {
            return Ok(());
        };
        subscribers.retain(|(_, sender)| !sender.is_closed());
        for (filter, sender) in subscribers.iter() {
            if filter.as_deref().is_none_or(|f| f == key) {
                let published = Published { key: key.to_owned(), message: message.clone() };
                if sender.try_send(published).is_err() {
                    tracing::warn!(topic, key, "slow subscriber: ephemeral message dropped");
                }
            }
        }
        Ok(())
    }

    async fn subscribe(&self, topic: &str, key: Option<&str>) -> Result<Subscription, BusError> {
        check_service_or_topic(topic)?;
        if let Some(key) = key {
            check_name(key).map_err(InvalidBusName::from)?;
        }
        let (sender, receiver) = mpsc::channel(CAPACITY);
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.topics.entry(topic.to_owned()).or_default().push((key.map(str::to_owned), sender));
        Ok(Subscription(Box::pin(ReceiverStream::new(receiver))))
    }
}
