//! One follower per watched game per process, shared by every viewer of its page (issue 31 item 1).
//!
//! A national broadcast puts thousands of viewers on one board. Before this module each viewer of
//! `GET /games/{id}/live` ran its own follower of the game's log from the first event, folded the
//! whole game, rendered its own view after every event and once a second while a clock ran: the
//! server's work grew with the viewers, and a move's reply slowed with them.
//!
//! Now a game's [`Feed`] is one task: it follows the log once, folds once and renders each new state
//! once per language into the bytes of a Server-Sent Event ([`Frame`]). Viewers hold a
//! `tokio::sync::watch` receiver of the latest frame and write those bytes (`Bytes` clones: no copy,
//! no JSON per viewer). A viewer that reads slowly skips ahead to the latest view: the feed never
//! waits for a viewer and no viewer holds more than one frame in memory. The feed ends when its last
//! viewer leaves.
//!
//! **Clocks cost viewers nothing between moves.** A view carries the clock readings at the server's
//! time and the referee's calls to come (`calls`: how long from the reading, which side, the words),
//! so the page counts the clock down and says each call itself; nothing is sent while a player
//! thinks. A `beat` event every [`BEAT`] (every [`PLAYER_BEAT`] on a player's own stream) lets the
//! page notice a dead stream.
//!
//! **What differs per viewer is sent once**: a `seat` event opens every stream (who the viewer is and
//! whether they referee the game), and the shared views carry no seat: the page reads its viewer's
//! color from each view.
//! Nothing hidden is in a view for anyone (a sealed move is `sealed: true`, never its point).
//!
//! **Public streams are limited per address** ([`Fanout::new`]'s `per_address`, 2,000 by default:
//! generous, a school's pupils share one address); past it a stream is refused with 429 and
//! `Retry-After`.
//!
//! # Architecture Invariant
//! The number of log followers and renders of a game in a process does not grow with its viewers.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::body::Bytes;
use futures::{FutureExt, StreamExt};
use tokio::sync::watch;
use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, EventLog};
use weiqi_game::convert::fold_recorded;
use weiqi_game::domain::GameState;

use crate::i18n::Lang;
use crate::live::{Seat, page_view};

/// How often a viewer's stream says it is alive.
pub const BEAT: Duration = Duration::from_secs(15);

/// How often a player's own stream says it is alive: their page marks itself stale after three
/// seconds of silence (issue 32 item 1), so a stalled phone is noticed before its clock misleads.
pub const PLAYER_BEAT: Duration = Duration::from_secs(1);

/// Open public streams per address, by default.
pub const PER_ADDRESS: u32 = 2_000;

/// One rendering of a game's state, as Server-Sent Event bytes in each language.
#[derive(Debug)]
pub struct Frame {
    /// The log sequence the view was folded to.
    pub sequence: u64,
    zh: Bytes,
    en: Bytes,
}

impl Frame {
    /// The event's bytes in `lang`.
    pub fn bytes(&self, lang: Lang) -> Bytes {
        match lang {
            Lang::ZhCn => self.zh.clone(),
            Lang::En => self.en.clone(),
        }
    }

    fn problem(sequence: u64, message: &str) -> Frame {
        let b = sse("problem", &message.replace('\n', " "));
        Frame { sequence, zh: b.clone(), en: b }
    }
}

/// The bytes of one Server-Sent Event (`data` is one line: compact JSON or a sentence).
pub fn sse(event: &str, data: &str) -> Bytes {
    Bytes::from(format!("event: {event}\ndata: {data}\n\n"))
}

struct Feed {
    tx: watch::Sender<Option<Arc<Frame>>>,
}

/// The process's game feeds and open public streams.
pub struct Fanout {
    log: AnyEventLog,
    feeds: Mutex<HashMap<String, Arc<Feed>>>,
    open: Mutex<HashMap<IpAddr, u32>>,
    per_address: Option<u32>,
}

/// A viewer's place in the per-address count; gives it back when dropped.
pub struct Ticket {
    fanout: Arc<Fanout>,
    address: Option<IpAddr>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if let Some(ip) = self.address {
            let mut open = self.fanout.open();
            if let Some(n) = open.get_mut(&ip) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    open.remove(&ip);
                }
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Fanout {
    /// Feeds over `log`; at most `per_address` open streams per address (`None`: no limit).
    pub fn new(log: AnyEventLog, per_address: Option<u32>) -> Arc<Fanout> {
        Arc::new(Fanout { log, feeds: Mutex::default(), open: Mutex::default(), per_address })
    }

    fn open(&self) -> MutexGuard<'_, HashMap<IpAddr, u32>> {
        lock(&self.open)
    }

    /// Counts a stream from `address`; `None` when the address has its most open already.
    pub fn admit(self: &Arc<Self>, address: Option<IpAddr>) -> Option<Ticket> {
        if let (Some(ip), Some(max)) = (address, self.per_address) {
            let mut open = self.open();
            let n = open.entry(ip).or_insert(0);
            if *n >= max {
                return None;
            }
            *n += 1;
            return Some(Ticket { fanout: self.clone(), address: Some(ip) });
        }
        Some(Ticket { fanout: self.clone(), address: None })
    }

    /// Games followed now (for tests and metrics).
    pub fn feeds(&self) -> usize {
        lock(&self.feeds).len()
    }

    /// The latest frames of `game`: joins its feed, starting one if none runs. A `delayed` viewer (a
    /// spectator of a game with a spectators' delay, [`weiqi_game::authority::watches_delayed`])
    /// joins the game's delayed feed, which follows the log through the delay.
    pub fn subscribe(
        self: &Arc<Self>,
        game: &str,
        id: AggregateId,
        delayed: bool,
    ) -> watch::Receiver<Option<Arc<Frame>>> {
        let key = if delayed { format!("{game} delayed") } else { game.to_string() };
        let mut feeds = lock(&self.feeds);
        if let Some(feed) = feeds.get(&key) {
            return feed.tx.subscribe();
        }
        let (tx, rx) = watch::channel(None);
        let feed = Arc::new(Feed { tx });
        feeds.insert(key.clone(), feed.clone());
        tokio::spawn(self.clone().follow(game.to_string(), key, id, feed, delayed));
        rx
    }

    /// The feed's task: follows the game's log (through the spectators' delay when `delayed`),
    /// renders each state once per language, and ends when the last viewer has gone.
    async fn follow(self: Arc<Self>, game: String, key: String, id: AggregateId, feed: Arc<Feed>, delayed: bool) {
        let opened = async {
            let mut caught_up_at = self.log.last_sequence(AggregateKind::Game, &id).await?;
            let events = self.log.watch(AggregateKind::Game, &id, 1).await?;
            if !delayed {
                return Ok::<_, weiqi_eventlog::LogError>((caught_up_at, events));
            }
            // A delayed feed catches up with what a spectator may see now, and follows the rest as
            // the delay lets it.
            let stored = self.log.read(AggregateKind::Game, &id, 1).await?;
            let seen = weiqi_game::delayed::seen_prefix(&stored, None, weiqi_game::delayed::now_ms()).unwrap_or(0);
            caught_up_at = seen.checked_sub(1).and_then(|i| stored.get(i)).map_or(1, |r| r.sequence);
            let events = weiqi_eventlog::EventStream::new(weiqi_game::delayed::spectator_stream(
                events,
                weiqi_game::delayed::read_recorded,
            ));
            Ok((caught_up_at, events))
        };
        let mut state = GameState::default();
        match opened.await {
            Err(e) => {
                feed.tx.send_replace(Some(Arc::new(Frame::problem(0, &e.to_string()))));
                feed.tx.closed().await;
            }
            Ok((caught_up_at, mut events)) => loop {
                tokio::select! {
                    item = events.next() => {
                        let mut folded = match item {
                            Some(Ok(recorded)) => fold_recorded(&mut state, &recorded),
                            Some(Err(e)) => Err(e.to_string()),
                            None => Err("the game's log closed".to_string()),
                        };
                        // The events one command appended arrive together: fold them all, then render
                        // once (no view of a state between them, e.g. the count before its suggestion).
                        while folded.is_ok() {
                            match events.next().now_or_never() {
                                Some(Some(Ok(recorded))) => folded = fold_recorded(&mut state, &recorded),
                                Some(Some(Err(e))) => folded = Err(e.to_string()),
                                Some(None) => folded = Err("the game's log closed".to_string()),
                                None => break,
                            }
                        }
                        if let Err(e) = folded {
                            feed.tx.send_replace(Some(Arc::new(Frame::problem(state.version, &e))));
                            feed.tx.closed().await;
                            break;
                        }
                        if state.version >= caught_up_at {
                            feed.tx.send_replace(Some(Arc::new(render(&game, &state, delayed))));
                        }
                    }
                    () = feed.tx.closed() => {
                        let mut feeds = lock(&self.feeds);
                        // A viewer may have joined while the feed was being closed: then it goes on.
                        if feed.tx.receiver_count() == 0 {
                            feeds.remove(&key);
                            return;
                        }
                    }
                }
            },
        }
        let mut feeds = lock(&self.feeds);
        if feeds.get(&key).is_some_and(|f| Arc::ptr_eq(f, &feed)) {
            feeds.remove(&key);
        }
    }
}

/// The shared view of `state` in both languages, read now; a `delayed` view's clocks are read as
/// they stood when its latest event happened plus the time since, as far as the delay lets.
fn render(game: &str, state: &GameState, delayed: bool) -> Frame {
    let at = if delayed { crate::live::delayed_reading(state, crate::now()) } else { crate::now() };
    let view = |lang| {
        let mut view = page_view(game, lang, state, &Seat::default(), at);
        if delayed {
            crate::live::mark_delayed(&mut view, state);
        }
        sse("view", &view.to_string())
    };
    Frame { sequence: state.version, zh: view(Lang::ZhCn), en: view(Lang::En) }
}

/// A viewer's stream: their `seat` first, then the latest view whenever it changes, and a `beat`
/// `every` so long ([`BEAT`] for spectators, [`PLAYER_BEAT`] for the game's players). `ticket` is held
/// as long as the stream.
pub fn viewer_stream(
    seat: Bytes,
    mut frames: watch::Receiver<Option<Arc<Frame>>>,
    lang: Lang,
    ticket: Ticket,
    every: Duration,
) -> impl futures::Stream<Item = Result<Bytes, std::convert::Infallible>> + Send + 'static {
    let mut beat = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let start = futures::stream::iter([Ok(seat)]);
    let rest = futures::stream::unfold((frames.clone(), beat, ticket, true), move |(mut rx, mut beat, t, first)| {
        async move {
            if first {
                // The latest view at once, if the feed has one.
                let now = rx.borrow_and_update().clone();
                if let Some(frame) = now {
                    return Some((Ok(frame.bytes(lang)), (rx, beat, t, false)));
                }
            }
            tokio::select! {
                changed = rx.changed() => {
                    changed.ok()?;
                    let frame = rx.borrow_and_update().clone()?;
                    Some((Ok(frame.bytes(lang)), (rx, beat, t, false)))
                }
                _ = beat.tick() => Some((Ok(Bytes::from_static(b"event: beat\ndata: \n\n")), (rx, beat, t, false))),
            }
        }
    });
    frames.mark_unchanged();
    start.chain(rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;
    use weiqi_clock::{DurationMs, TimeControl};
    use weiqi_eventlog::{EmbeddedConfig, EmbeddedLog};
    use weiqi_game::domain::{Actor, ColorMethod, Command, GameSetup, PlayerId, PlayerRef};
    use weiqi_game::service::{GameRequest, GameService};

    const G: &str = "g-fanout";

    async fn run(svc: &GameService<AnyEventLog>, id: &str, actor: Actor, command: Command) {
        let request =
            GameRequest { game_id: G.into(), command_id: id.into(), correlation_id: String::new(), actor, command };
        svc.execute(&request, &[]).await.unwrap_or_else(|e| panic!("{id}: {e:?}"));
    }

    async fn game() -> (tempfile::TempDir, AnyEventLog, GameService<AnyEventLog>) {
        let dir = tempfile::tempdir().unwrap();
        let log = AnyEventLog::Embedded(
            EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default()).unwrap(),
        );
        let svc = GameService::new(log.clone());
        let player = |id: &str| PlayerRef { id: PlayerId(id.into()), name: id.into(), rank: "1d".into() };
        let setup = GameSetup {
            ruleset: weiqi_rules::Ruleset::chinese(),
            size: 9,
            handicap: 0,
            handicap_points: Vec::new(),
            first: player("ann"),
            second: player("bob"),
            color_method: ColorMethod::Fixed,
            time_control: TimeControl::absolute(DurationMs::from_mins(10)).unwrap(),
            tournament: None,
            event_id: None,
            scheduled_start: None,
            rated: false,
            start_immediately: true,
            lateness_limit: DurationMs::from_mins(15),
            absence_claim: None,
            offered_by: None,
            spectator_delay: None,
        };
        let create = Command::Create { setup: Box::new(setup), nigiri_secret: [0; 32] };
        run(&svc, "create", Actor::Organiser("org".into()), create).await;
        (dir, log, svc)
    }

    async fn play(svc: &GameService<AnyEventLog>, n: u32) {
        let who = if n % 2 == 1 { "ann" } else { "bob" };
        let mv = weiqi_rules::Move::Play(weiqi_rules::Point::new((n % 9) as u8, (n / 9) as u8));
        let command = Command::Play { mv, expected_number: 0, lag: None };
        run(svc, &format!("m{n}"), Actor::Player(PlayerId(who.into())), command).await;
    }

    /// The next frame a receiver is given (waits for the feed).
    async fn next(rx: &mut watch::Receiver<Option<Arc<Frame>>>) -> Arc<Frame> {
        tokio::time::timeout(Duration::from_secs(10), rx.changed()).await.expect("a frame in time").unwrap();
        rx.borrow_and_update().clone().expect("a frame")
    }

    fn id() -> AggregateId {
        AggregateId::new(G).unwrap()
    }

    /// One feed however many watch: every viewer is handed the very same bytes, rendered once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_is_followed_and_rendered_once_for_all_its_viewers() {
        let (_dir, log, svc) = game().await;
        let fanout = Fanout::new(log, None);
        let mut viewers: Vec<_> = (0..200).map(|_| fanout.subscribe(G, id(), false)).collect();
        assert_eq!(fanout.feeds(), 1);
        for rx in &mut viewers {
            // The opening view (the game created, colors decided, started), or already the latest.
            let now = rx.borrow_and_update().clone();
            let frame = match now {
                Some(f) => f,
                None => next(rx).await,
            };
            assert_eq!(frame.sequence, 3);
        }
        play(&svc, 1).await;
        let frames: Vec<Arc<Frame>> = futures::future::join_all(viewers.iter_mut().map(next)).await;
        assert!(frames.iter().all(|f| f.sequence == 4));
        let first = frames[0].bytes(Lang::ZhCn);
        for f in &frames {
            assert!(Arc::ptr_eq(f, &frames[0]), "one rendering shared by every viewer");
            assert_eq!(f.bytes(Lang::ZhCn).as_ptr(), first.as_ptr(), "the same bytes, not a copy");
        }
        let text = String::from_utf8(first.to_vec()).unwrap();
        assert!(text.starts_with("event: view\ndata: {") && text.ends_with("}\n\n"), "{text}");
        assert!(text.contains("\"viewer\":null"), "no viewer's seat in the shared view: {text}");
        assert!(String::from_utf8(frames[0].bytes(Lang::En).to_vec()).unwrap().contains("\"lang\":\"en\""));

        // The last viewer gone, the feed ends.
        drop(viewers);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while fanout.feeds() > 0 {
            assert!(tokio::time::Instant::now() < deadline, "the feed outlived its viewers");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// A viewer that does not read is skipped ahead to the latest view; it holds one frame, never a
    /// queue, and the feed does not wait for it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_slow_viewer_skips_ahead_to_the_latest_view() {
        let (_dir, log, svc) = game().await;
        let fanout = Fanout::new(log, None);
        let mut quick = fanout.subscribe(G, id(), false);
        let mut slow = fanout.subscribe(G, id(), false);
        for n in 1..=10 {
            play(&svc, n).await;
            // The quick viewer sees every move.
            loop {
                if next(&mut quick).await.sequence == 3 + u64::from(n) {
                    break;
                }
            }
        }
        let frame = slow.borrow_and_update().clone().expect("a frame");
        assert_eq!(frame.sequence, 13, "the slow viewer is handed the latest view only");
        assert!(!slow.has_changed().unwrap());
    }

    /// A viewer's stream: the seat first, then the shared view in the viewer's language.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stream_opens_with_the_seat_then_the_view() {
        let (_dir, log, _svc) = game().await;
        let fanout = Fanout::new(log, None);
        let ticket = fanout.admit(None).unwrap();
        let stream =
            viewer_stream(sse("seat", "{\"me\":\"black\"}"), fanout.subscribe(G, id(), false), Lang::En, ticket, BEAT);
        let items: Vec<Bytes> =
            tokio::time::timeout(Duration::from_secs(10), stream.take(2).map(Result::unwrap).collect()).await.unwrap();
        assert_eq!(items[0], Bytes::from_static(b"event: seat\ndata: {\"me\":\"black\"}\n\n"));
        assert!(String::from_utf8_lossy(&items[1]).contains("\"lang\":\"en\""));
    }

    /// Open public streams are counted per address; a stream's end gives its place back.
    #[tokio::test]
    async fn public_streams_are_limited_per_address() {
        let (_dir, log, _svc) = game().await;
        let fanout = Fanout::new(log, Some(3));
        let school = Some(IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)));
        let home = Some(IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2)));
        let mut held: Vec<Ticket> = (0..3).map(|_| fanout.admit(school).expect("under the limit")).collect();
        assert!(fanout.admit(school).is_none(), "the fourth from one address is refused");
        assert!(fanout.admit(home).is_some(), "another address is not");
        assert!(fanout.admit(None).is_some(), "nor a signed-in viewer (no address counted)");
        held.pop();
        assert!(fanout.admit(school).is_some(), "a closed stream gives its place back");
    }
}
