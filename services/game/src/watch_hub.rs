//! One follower per watched game per process for `GameService.Watch` (issue 31 item 1).
//!
//! Before, every `Watch` call ran its own follower of the game's log and decoded every event for
//! itself: the server's work grew with the viewers. Now a game's feed follows the log once, decodes
//! each event once into its two forms (the full envelope, for a referee of the game who does not
//! sit in it, and the redacted one, for everyone else: no nigiri secret, no sealed move) and hands
//! both, shared, to every viewer through a broadcast channel of [`CAPACITY`] events.
//!
//! A viewer first reads what it asked for from the log (`from_sequence` on), then takes the feed's
//! events, skipping those it has. A gap (the feed started after the viewer's read) or a lag (a slow
//! viewer the channel has passed) is filled from the log: a slow viewer never holds the feed back
//! and never makes it keep more than its fixed buffer. A feed ends once no viewer is left.
//!
//! # Architecture Invariant
//! The number of log followers of a game in a process does not grow with its `Watch` viewers.

use std::collections::{HashMap, VecDeque};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use futures::{Stream, StreamExt};
use prost::Message;
use tokio::sync::broadcast;
use tonic::Status;
use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, EventLog, RecordedEvent};
use weiqi_proto::v1 as pb;

use crate::convert;

/// Events a feed keeps for viewers that fall behind before they are sent to the log.
pub const CAPACITY: usize = 256;

/// How often an idle feed checks whether its viewers have gone.
const IDLE_CHECK: Duration = Duration::from_secs(10);

/// One event in both forms.
#[derive(Debug)]
pub struct Live {
    /// Its log sequence.
    pub sequence: u64,
    full: pb::EventEnvelope,
    redacted: pb::EventEnvelope,
}

impl Live {
    fn of(recorded: &RecordedEvent) -> Result<Live, Status> {
        let full = pb::EventEnvelope::decode(recorded.payload.clone())
            .map_err(|e| Status::internal(format!("stored event: {e}")))?;
        let mut redacted = full.clone();
        convert::redact(&mut redacted);
        Ok(Live { sequence: recorded.sequence, full, redacted })
    }

    /// The envelope a viewer who `sees_all` (or not) is sent.
    pub fn envelope(&self, sees_all: bool) -> pb::EventEnvelope {
        if sees_all { self.full.clone() } else { self.redacted.clone() }
    }
}

/// The process's game feeds.
pub struct WatchHub {
    log: AnyEventLog,
    capacity: usize,
    feeds: Mutex<HashMap<String, broadcast::Sender<Arc<Live>>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A stream of envelopes for one viewer.
pub type Envelopes = Pin<Box<dyn Stream<Item = Result<pb::EventEnvelope, Status>> + Send>>;

impl WatchHub {
    /// Feeds over `log`.
    pub fn new(log: AnyEventLog) -> Arc<WatchHub> {
        WatchHub::with_capacity(log, CAPACITY)
    }

    /// Feeds keeping `capacity` events for viewers behind.
    pub fn with_capacity(log: AnyEventLog, capacity: usize) -> Arc<WatchHub> {
        Arc::new(WatchHub { log, capacity: capacity.max(1), feeds: Mutex::default() })
    }

    /// Games followed now.
    pub fn feeds(&self) -> usize {
        lock(&self.feeds).len()
    }

    fn subscribe(self: &Arc<Self>, game: &str, id: &AggregateId) -> broadcast::Receiver<Arc<Live>> {
        let mut feeds = lock(&self.feeds);
        if let Some(tx) = feeds.get(game) {
            return tx.subscribe();
        }
        let (tx, rx) = broadcast::channel(self.capacity);
        feeds.insert(game.to_string(), tx.clone());
        tokio::spawn(self.clone().follow(game.to_string(), id.clone(), tx));
        rx
    }

    /// The feed: follows the log from its end, decodes each event once, ends without viewers.
    async fn follow(self: Arc<Self>, game: String, id: AggregateId, tx: broadcast::Sender<Arc<Live>>) {
        let opened = async {
            let last = self.log.last_sequence(AggregateKind::Game, &id).await?;
            self.log.watch(AggregateKind::Game, &id, last + 1).await
        };
        if let Ok(mut events) = opened.await {
            let mut idle = tokio::time::interval(IDLE_CHECK);
            loop {
                tokio::select! {
                    item = events.next() => {
                        let Some(Ok(recorded)) = item else { break };
                        let Ok(live) = Live::of(&recorded) else { break };
                        // No receiver: every viewer has gone.
                        if tx.send(Arc::new(live)).is_err() && self.leave_if_unwatched(&game, &tx) {
                            return;
                        }
                    }
                    _ = idle.tick() => {
                        if self.leave_if_unwatched(&game, &tx) {
                            return;
                        }
                    }
                }
            }
        }
        // The log failed: viewers fill from the log themselves (and report its error); the next
        // viewer starts a new feed.
        let mut feeds = lock(&self.feeds);
        if feeds.get(&game).is_some_and(|f| f.same_channel(&tx)) {
            feeds.remove(&game);
        }
    }

    fn leave_if_unwatched(&self, game: &str, tx: &broadcast::Sender<Arc<Live>>) -> bool {
        let mut feeds = lock(&self.feeds);
        if tx.receiver_count() == 0 {
            if feeds.get(game).is_some_and(|f| f.same_channel(tx)) {
                feeds.remove(game);
            }
            return true;
        }
        false
    }

    /// The events of `game` from `from` on, in order and without a gap, each in the form the viewer
    /// may see.
    pub fn watch(self: &Arc<Self>, game: &str, id: AggregateId, from: u64, sees_all: bool) -> Envelopes {
        // Subscribed before reading: nothing appended after the read can be missed.
        let rx = self.subscribe(game, &id);
        let log = self.log.clone();
        let state = Follow { log, id, rx, pending: VecDeque::new(), next: from.max(1), sees_all, read: false };
        Box::pin(futures::stream::unfold(state, |mut f| async move {
            loop {
                if let Some(envelope) = f.pending.pop_front() {
                    return Some((Ok(envelope), f));
                }
                if !f.read {
                    // The first read, and any gap or lag: from the log.
                    f.read = true;
                    match f.fill().await {
                        Ok(()) => continue,
                        Err(e) => return Some((Err(e), Follow { read: true, ..f })),
                    }
                }
                match f.rx.recv().await {
                    Ok(live) if live.sequence < f.next => {}
                    Ok(live) if live.sequence == f.next => {
                        f.next += 1;
                        return Some((Ok(live.envelope(f.sees_all)), f));
                    }
                    // Behind the feed (it began after this viewer's read) or passed by it.
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => f.read = false,
                    Err(broadcast::error::RecvError::Closed) => {
                        return Some((Err(Status::unavailable("the game's feed stopped; watch again")), f));
                    }
                }
            }
        }))
    }
}

struct Follow {
    log: AnyEventLog,
    id: AggregateId,
    rx: broadcast::Receiver<Arc<Live>>,
    pending: VecDeque<pb::EventEnvelope>,
    next: u64,
    sees_all: bool,
    read: bool,
}

impl Follow {
    /// Reads the log from the next sequence wanted into `pending`.
    async fn fill(&mut self) -> Result<(), Status> {
        let events = self
            .log
            .read(AggregateKind::Game, &self.id, self.next)
            .await
            .map_err(|e| Status::unavailable(e.to_string()))?;
        for recorded in events {
            if recorded.sequence < self.next {
                continue;
            }
            self.next = recorded.sequence + 1;
            self.pending.push_back(Live::of(&recorded)?.envelope(self.sees_all));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bus::answer;
    use crate::convert::wire_command;
    use crate::domain::{Actor, PlayerId};
    use crate::service::GameService;
    use weiqi_eventlog::{EmbeddedConfig, EmbeddedLog};
    use weiqi_proto::v1::game_command::Command as C;

    const G: &str = "g-watched";

    async fn game(nigiri: bool) -> (tempfile::TempDir, AnyEventLog, GameService<AnyEventLog>) {
        let dir = tempfile::tempdir().unwrap();
        let log = AnyEventLog::Embedded(
            EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default()).unwrap(),
        );
        let svc = GameService::new(log.clone());
        let method = if nigiri { pb::game_created::ColorMethod::Nigiri } else { pb::game_created::ColorMethod::Fixed };
        let create = C::Create(pb::CreateGameRequest {
            game_id: G.into(),
            size: 19,
            rules: "chinese".into(),
            first: Some(pb::PlayerRef { id: "ann".into(), name: "Ann".into(), rank: "2d".into() }),
            second: Some(pb::PlayerRef { id: "bob".into(), name: "Bob".into(), rank: "1d".into() }),
            color_method: method as i32,
            start: true,
            ..Default::default()
        });
        let r = answer(&svc, &wire_command(G, "create", &Actor::Organiser("org".into()), create), &[]).await;
        assert!(matches!(r.outcome, Some(pb::game_command_reply::Outcome::Accepted(_))), "{r:?}");
        (dir, log, svc)
    }

    /// Move `n` (1-based): along the first and last rows, Ann (Black) first.
    async fn play(svc: &GameService<AnyEventLog>, n: u32) {
        let who = if n % 2 == 1 { "ann" } else { "bob" };
        let (x, y) = if n <= 19 { (n - 1, 0) } else { (n - 20, 18) };
        let play =
            C::Play(pb::PlayMoveRequest { game_id: G.into(), point: Some(pb::Point { x, y }), ..Default::default() });
        let r = answer(svc, &wire_command(G, &format!("m{n}"), &Actor::Player(PlayerId(who.into())), play), &[]).await;
        assert!(matches!(r.outcome, Some(pb::game_command_reply::Outcome::Accepted(_))), "move {n}: {r:?}");
    }

    async fn take(stream: &mut Envelopes, n: usize) -> Vec<pb::EventEnvelope> {
        let mut out = Vec::new();
        while out.len() < n {
            // A bound on a loaded machine (the whole suite runs beside it), not a timing.
            let next = tokio::time::timeout(Duration::from_secs(60), stream.next()).await.expect("in time");
            out.push(next.expect("open").expect("an event"));
        }
        out
    }

    fn id() -> AggregateId {
        AggregateId::new(G).unwrap()
    }

    /// A hundred viewers, one follower: each is sent every event once and in order.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_follower_serves_every_viewer_every_event_in_order() {
        let (_dir, log, svc) = game(false).await;
        let hub = WatchHub::new(log);
        let mut viewers: Vec<Envelopes> = (0..100).map(|_| hub.watch(G, id(), 1, false)).collect();
        for v in &mut viewers {
            let opening = take(v, 3).await;
            assert_eq!(opening.iter().map(|e| e.sequence).collect::<Vec<_>>(), [1, 2, 3]);
        }
        assert_eq!(hub.feeds(), 1, "one follower for a hundred viewers");
        for n in 1..=4 {
            play(&svc, n).await;
        }
        for v in &mut viewers {
            let moves = take(v, 4).await;
            assert_eq!(moves.iter().map(|e| e.sequence).collect::<Vec<_>>(), [4, 5, 6, 7]);
        }
        // A viewer joining late from the middle gets the rest, then what comes.
        let mut late = hub.watch(G, id(), 6, false);
        play(&svc, 5).await;
        assert_eq!(take(&mut late, 3).await.iter().map(|e| e.sequence).collect::<Vec<_>>(), [6, 7, 8]);
        drop(viewers);
        drop(late);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        play(&svc, 6).await; // the feed notices its viewers have gone at its next event
        while hub.feeds() > 0 {
            assert!(tokio::time::Instant::now() < deadline, "the feed outlived its viewers");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// A viewer that does not read while the feed passes it by misses nothing: what the feed no
    /// longer holds is read from the log, and the feed never waited.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_viewer_passed_by_the_feed_reads_the_rest_from_the_log() {
        let (_dir, log, svc) = game(false).await;
        let hub = WatchHub::with_capacity(log, 2);
        let mut quick = hub.watch(G, id(), 1, false);
        let mut slow = hub.watch(G, id(), 1, false);
        take(&mut quick, 3).await;
        take(&mut slow, 3).await;
        for n in 1..=30 {
            play(&svc, n).await;
            take(&mut quick, 1).await;
        }
        let all = take(&mut slow, 30).await;
        assert_eq!(all.iter().map(|e| e.sequence).collect::<Vec<_>>(), (4..=33).collect::<Vec<u64>>());
    }

    /// The nigiri's secret reaches a referee's form only: a spectator's envelope carries none.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn hidden_information_stays_in_the_full_form() {
        let (_dir, log, _svc) = game(true).await;
        let hub = WatchHub::new(log);
        let secret = |envelopes: &[pb::EventEnvelope]| {
            envelopes.iter().find_map(|e| match e.event.as_ref().and_then(|e| e.kind.as_ref()) {
                Some(pb::game_event::Kind::NigiriCommitted(n)) => Some(n.secret.clone()),
                _ => None,
            })
        };
        let mut spectator = hub.watch(G, id(), 1, false);
        let mut referee = hub.watch(G, id(), 1, true);
        let (seen, full) = (take(&mut spectator, 2).await, take(&mut referee, 2).await);
        assert_eq!(secret(&seen), Some(Vec::new()), "no secret for a spectator");
        assert!(secret(&full).is_some_and(|s| !s.is_empty()), "the referee's form keeps it");
    }
}
