//! A spectator's follower of a game's log under the game's delay (issue 34 item 1): events in, the
//! events a spectator may see now out, in order. The rule is the domain's
//! ([`crate::domain::broadcast`]); this holds what waits. The web's spectator feed and gRPC `Watch`
//! both follow a delayed game through it, and the pages that render once (the game page, `/watch`,
//! the overlay, a live game's SGF) fold [`visible_prefix`] of its log.

use std::collections::VecDeque;
use std::time::Duration;

use futures::{Stream, StreamExt};
use weiqi_eventlog::RecordedEvent;

use crate::authority::{Caller, watches_delayed};
use crate::convert::{decode_recorded, fold_recorded};
use crate::domain::broadcast::{Mark, SpectatorDelay, next_release, visible};
use crate::domain::{GameEvent, GameState};

/// The events of one game a spectator is following, the visible ones handed out.
#[derive(Debug)]
pub struct Delayed<T> {
    scratch: GameState,
    marks: Vec<Mark>,
    held: VecDeque<T>,
    shown: usize,
}

impl<T> Default for Delayed<T> {
    fn default() -> Delayed<T> {
        Delayed { scratch: GameState::default(), marks: Vec::new(), held: VecDeque::new(), shown: 0 }
    }
}

impl<T> Delayed<T> {
    /// Nothing followed yet.
    #[must_use]
    pub fn new() -> Delayed<T> {
        Delayed::default()
    }

    /// Takes the next event of the log (recorded at `at_ms`), and `item`, what to hand out when it is
    /// visible.
    ///
    /// # Errors
    /// The log does not fold (the reason).
    pub fn push(&mut self, event: &GameEvent, at_ms: i64, item: T) -> Result<(), String> {
        self.scratch.evolve(event).map_err(|e| e.to_string())?;
        self.marks.push(Mark::of(&self.scratch, at_ms));
        self.held.push_back(item);
        Ok(())
    }

    /// The game's delay for spectators (`None`: live).
    #[must_use]
    pub fn delay(&self) -> Option<SpectatorDelay> {
        self.scratch.setup.as_ref().and_then(|s| s.spectator_delay)
    }

    /// The items visible at `now_ms` not handed out yet, in log order.
    pub fn release(&mut self, now_ms: i64) -> Vec<T> {
        let n = visible(self.delay(), &self.marks, now_ms).saturating_sub(self.shown);
        self.shown += n;
        self.held.drain(..n.min(self.held.len())).collect()
    }

    /// When the first held item becomes visible by itself (ms), if it does.
    #[must_use]
    pub fn next_release(&self) -> Option<i64> {
        next_release(self.delay(), &self.marks, self.shown)
    }

    /// Items held back now.
    #[must_use]
    pub fn held(&self) -> usize {
        self.held.len()
    }
}

/// How many of a game's `events` (with their times, in log order) a spectator may see at `now_ms`.
///
/// # Errors
/// The log does not fold (the reason).
pub fn visible_prefix<'a>(
    events: impl IntoIterator<Item = (&'a GameEvent, i64)>,
    now_ms: i64,
) -> Result<usize, String> {
    let mut d = Delayed::new();
    for (event, at) in events {
        d.push(event, at, ())?;
    }
    Ok(d.release(now_ms).len())
}

/// The server's time now, ms since the epoch (the shells' clock for the delay: the system
/// environment's, as the web's pages read it).
#[must_use]
pub fn now_ms() -> i64 {
    use weiqi_aggregate::Environment as _;
    weiqi_aggregate::SystemEnvironment.now().0
}

/// How many of the stored `events` of one game `caller` (`None`: the public) may see at `now_ms`:
/// all of them, unless the caller watches the game delayed.
///
/// # Errors
/// The log does not fold (the reason).
pub fn seen_prefix(events: &[RecordedEvent], caller: Option<&Caller>, now_ms: i64) -> Result<usize, String> {
    let decoded = events.iter().map(decode_recorded).collect::<Result<Vec<_>, _>>()?;
    let mut whole = GameState::default();
    for d in &decoded {
        whole.evolve(&d.event).map_err(|e| e.to_string())?;
    }
    if !watches_delayed(caller, &whole) {
        return Ok(events.len());
    }
    visible_prefix(decoded.iter().map(|d| (&d.event, d.at.0)), now_ms)
}

/// The game of the stored `events` as `caller` may see it at `now_ms` (folded from the prefix
/// [`seen_prefix`] allows).
///
/// # Errors
/// The log does not fold (the reason).
pub fn fold_as_seen(events: &[RecordedEvent], caller: Option<&Caller>, now_ms: i64) -> Result<GameState, String> {
    let n = seen_prefix(events, caller, now_ms)?;
    let mut state = GameState::default();
    for r in &events[..n] {
        fold_recorded(&mut state, r)?;
    }
    Ok(state)
}

/// A delayed spectator's stream of a game's log items (`read` gives each item's event and time): each
/// item comes out when the game's delay lets it, in order; items wait (at most until the game ends,
/// or their time comes) and never skip ahead. An item that does not read ends the stream: nothing
/// is let through unchecked.
pub fn spectator_stream<S, T, E>(
    inner: S,
    read: impl Fn(&T) -> Result<(GameEvent, i64), String> + Send + 'static,
) -> impl Stream<Item = Result<T, E>> + Send
where
    S: Stream<Item = Result<T, E>> + Send + Unpin + 'static,
    T: Send + 'static,
    E: Send + 'static,
{
    struct Follow<S, T, R> {
        inner: S,
        delayed: Delayed<T>,
        ready: VecDeque<T>,
        read: R,
        done: bool,
    }
    let start = Follow { inner, delayed: Delayed::new(), ready: VecDeque::new(), read, done: false };
    futures::stream::unfold(start, |mut f| async move {
        loop {
            if let Some(item) = f.ready.pop_front() {
                return Some((Ok(item), f));
            }
            if f.done {
                return None;
            }
            let wait =
                f.delayed.next_release().map(|at| Duration::from_millis(u64::try_from(at - now_ms()).unwrap_or(0)));
            let sleep = async move {
                match wait {
                    Some(d) => tokio::time::sleep(d).await,
                    None => futures::future::pending::<()>().await,
                }
            };
            tokio::select! {
                item = f.inner.next() => match item {
                    None => f.done = true,
                    Some(Err(e)) => {
                        f.done = true;
                        return Some((Err(e), f));
                    }
                    Some(Ok(item)) => {
                        let Ok((event, at)) = (f.read)(&item) else { return None };
                        f.delayed.push(&event, at, item).ok()?;
                        f.ready.extend(f.delayed.release(now_ms()));
                    }
                },
                () = sleep => f.ready.extend(f.delayed.release(now_ms())),
            }
        }
    })
}

/// A stored event's event and time, for [`spectator_stream`] over a game's log.
///
/// # Errors
/// It does not decode.
pub fn read_recorded(r: &RecordedEvent) -> Result<(GameEvent, i64), String> {
    decode_recorded(r).map(|d| (d.event, d.at.0))
}
