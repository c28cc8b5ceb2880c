//! One followed game: its state folded from the log, and what the service owes it next (the flag, the
//! referee's calls, the periodic tick). Pure: time comes in as an argument and nothing here does IO.

use std::time::Duration;

use weiqi_clock::{Call, Clock, DurationMs, Millis};
use weiqi_game::domain::{Corrupt, GameEvent, GameState, Phase};

/// At most this many calls are published for one wake-up (a service that was stalled does not replay a
/// minute of counting; overlays only want the latest).
const MAX_CALLS_PER_WAKE: usize = 16;

/// First pause before a flag is tried again (doubling up to [`MAX_RETRY`]).
const FIRST_RETRY: DurationMs = DurationMs(10);
/// Longest pause between two tries of one flag.
const MAX_RETRY: DurationMs = DurationMs(1_000);

/// A flag to send: the player to move was out of time at `deadline` on the state at `version`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlagDue {
    /// The last sequence folded when the flag was seen (`ExpireTime.seen_sequence`).
    pub version: u64,
    /// The deadline that passed.
    pub deadline: Millis,
}

/// What the service must do for one game when it wakes at an instant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Due {
    /// Ask the game service to record the flag.
    pub flag: Option<FlagDue>,
    /// Referee calls that fell due since the last wake, with their instants, in order.
    pub calls: Vec<(Millis, Call)>,
    /// Publish the periodic tick.
    pub tick: bool,
}

/// A game the service follows.
#[derive(Clone, Debug)]
pub struct Tracked {
    /// The game folded from its log.
    pub state: GameState,
    /// Calls with instants up to here have been published (or skipped as history).
    calls_upto: Millis,
    /// The next periodic tick, while the clock runs.
    next_tick: Option<Millis>,
    /// A flag request is out for this version.
    in_flight: Option<u64>,
    /// Do not try the flag again before this (after a refusal or a fault).
    retry_at: Option<Millis>,
    /// Tries of the flag at the current version.
    attempts: u32,
    /// A read of the log's tail is out to fill a gap.
    pub resyncing: bool,
    /// A gap was seen while resyncing: read the tail again afterwards.
    pub gap_while_resyncing: bool,
}

impl Default for Tracked {
    fn default() -> Self {
        Tracked {
            state: GameState::default(),
            calls_upto: Millis(i64::MIN),
            next_tick: None,
            in_flight: None,
            retry_at: None,
            attempts: 0,
            resyncing: false,
            gap_while_resyncing: false,
        }
    }
}

impl Tracked {
    /// A game not seen yet.
    pub fn new() -> Tracked {
        Tracked::default()
    }

    /// Folds the next event of the game. A new version starts the flag's retries afresh.
    ///
    /// # Errors
    /// The log does not replay (the game service will not act on such a game either).
    pub fn fold(&mut self, event: &GameEvent) -> Result<(), Corrupt> {
        self.state.evolve(event)?;
        self.retry_at = None;
        self.attempts = 0;
        Ok(())
    }

    /// The clock, while it runs with a deadline (in play, not paused, with a time system).
    pub fn running_clock(&self) -> Option<&Clock> {
        if self.state.phase != Phase::Playing {
            return None;
        }
        self.state.clock.as_ref().filter(|c| c.deadline().is_some())
    }

    /// True once the game is over: nothing more will happen to it.
    pub fn is_over(&self) -> bool {
        self.state.phase == Phase::Ended
    }

    /// Calls and ticks start from `now`: after an event (a new turn, a pause…) and when the service has
    /// caught up with the log (older calls are history, not news).
    pub fn restart_schedule(&mut self, now: Millis, tick_interval: Option<Duration>) {
        self.calls_upto = now;
        self.next_tick = match (self.running_clock(), tick_interval) {
            (Some(_), Some(every)) => Some(now + interval(every)),
            _ => None,
        };
    }

    /// When the service must look at this game next; `None` while its clock does not run.
    pub fn next_wake(&self) -> Option<Millis> {
        let clock = self.running_clock()?;
        let deadline = clock.deadline()?;
        let flag = if self.in_flight == Some(self.state.version) {
            None // the answer will re-arm it
        } else {
            Some(self.retry_at.map_or(deadline, |r| r.max(deadline)))
        };
        let call = clock.next_call(self.calls_upto).map(|(at, _)| at);
        [flag, call, self.next_tick].into_iter().flatten().min()
    }

    /// Takes what is due at `now`: marks a flag as in flight, advances the calls and the tick.
    pub fn take_due(&mut self, now: Millis, tick_interval: Option<Duration>) -> Due {
        // A clone is an `Arc` and a few words; it frees `self` for the updates below.
        let Some(clock) = self.running_clock().cloned() else {
            return Due::default();
        };
        let mut due = Due::default();
        if now > self.calls_upto {
            let mut calls = clock.calls_between(self.calls_upto, now);
            if calls.len() > MAX_CALLS_PER_WAKE {
                calls.drain(..calls.len() - MAX_CALLS_PER_WAKE);
            }
            due.calls = calls;
            self.calls_upto = now;
        }
        let version = self.state.version;
        if let Some(expiry) = clock.flag(now)
            && self.in_flight != Some(version)
            && self.retry_at.is_none_or(|r| r <= now)
        {
            self.in_flight = Some(version);
            due.flag = Some(FlagDue { version, deadline: expiry.deadline });
        }
        if let (Some(at), Some(every)) = (self.next_tick, tick_interval)
            && at <= now
        {
            due.tick = true;
            let next = at + interval(every);
            self.next_tick = Some(if next > now { next } else { now + interval(every) });
        }
        due
    }

    /// The flag sent at `version` has been answered (and the log's tail folded). If nothing new was
    /// recorded since, the game service did not see the flag yet (its clock is behind, or it was
    /// unreachable): try again after a pause that doubles each time.
    pub fn flag_answered(&mut self, version: u64, now: Millis) {
        if self.in_flight == Some(version) {
            self.in_flight = None;
        }
        if self.state.version == version {
            self.attempts = self.attempts.saturating_add(1);
            let pause = FIRST_RETRY.times(1i64 << self.attempts.saturating_sub(1).min(16));
            self.retry_at = Some(now + if pause > MAX_RETRY { MAX_RETRY } else { pause });
        }
    }
}

fn interval(every: Duration) -> DurationMs {
    DurationMs(i64::try_from(every.as_millis()).unwrap_or(i64::MAX).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use weiqi_clock::TimeControl;
    use weiqi_game::domain::{ColorMethod, GameSetup, PlayerId, PlayerRef};
    use weiqi_rules::Ruleset;

    const SECOND: Option<Duration> = Some(Duration::from_secs(1));

    fn player(id: &str) -> PlayerRef {
        PlayerRef { id: PlayerId(id.into()), name: id.into(), rank: "1d".into() }
    }

    /// A game started at t = 0 with `control`, Black to move, ticking every `ticks`.
    fn started(control: TimeControl, ticks: Option<Duration>) -> Tracked {
        let setup = GameSetup {
            ruleset: Ruleset::preset("chinese").unwrap(),
            size: 9,
            handicap: 0,
            handicap_points: Vec::new(),
            first: player("ann"),
            second: player("bob"),
            color_method: ColorMethod::Fixed,
            time_control: control,
            tournament: None,
            event_id: None,
            scheduled_start: None,
            rated: false,
            start_immediately: true,
            lateness_limit: DurationMs::from_hours(1),
            absence_claim: None,
            offered_by: None,
            spectator_delay: None,
        };
        let mut t = Tracked::new();
        for e in [
            GameEvent::Created(Box::new(setup)),
            GameEvent::ColorsDecided {
                black: PlayerId("ann".into()),
                white: PlayerId("bob".into()),
                method: weiqi_game::domain::ColorMethod::Fixed,
            },
            GameEvent::Started { at: Millis(0) },
        ] {
            t.fold(&e).unwrap();
        }
        t.restart_schedule(Millis(0), ticks);
        t
    }

    fn absolute(secs: i64) -> TimeControl {
        TimeControl::absolute(DurationMs::from_secs(secs)).unwrap()
    }

    #[test]
    fn an_absolute_clock_wakes_every_second_and_flags_at_its_deadline() {
        let mut t = started(absolute(3), SECOND);
        let deadline = t.running_clock().unwrap().deadline().unwrap();
        assert_eq!(deadline, Millis(4_000), "3 s and the 1 s lag grace");
        assert_eq!(t.next_wake(), Some(Millis(1_000)));
        let due = t.take_due(Millis(1_000), SECOND);
        assert!(due.tick && due.flag.is_none() && due.calls.is_empty());
        for s in 2..4 {
            assert_eq!(t.next_wake(), Some(Millis(s * 1_000)));
            t.take_due(Millis(s * 1_000), SECOND);
        }
        assert_eq!(t.next_wake(), Some(deadline));
        assert_eq!(t.take_due(deadline - DurationMs(1), SECOND).flag, None, "1 ms early: no flag");
        let due = t.take_due(deadline, SECOND);
        assert_eq!(due.flag, Some(FlagDue { version: 3, deadline }));
        assert!(due.tick);
        // In flight: not sent twice; the next wake is the tick only.
        assert_eq!(t.take_due(deadline, SECOND).flag, None);
        assert_eq!(t.next_wake(), Some(Millis(5_000)));
    }

    #[test]
    fn a_flag_answered_without_news_is_tried_again_after_a_doubling_pause() {
        let mut t = started(absolute(3), None);
        let deadline = Millis(4_000);
        assert!(t.take_due(deadline, None).flag.is_some());
        t.flag_answered(3, deadline);
        assert_eq!(t.next_wake(), Some(deadline + DurationMs(10)));
        assert!(t.take_due(deadline + DurationMs(9), None).flag.is_none());
        assert!(t.take_due(deadline + DurationMs(10), None).flag.is_some());
        t.flag_answered(3, deadline + DurationMs(10));
        assert_eq!(t.next_wake(), Some(deadline + DurationMs(30)), "then 20 ms");
        for _ in 0..20 {
            let at = t.next_wake().unwrap();
            assert!(t.take_due(at, None).flag.is_some());
            t.flag_answered(3, at);
        }
        let at = t.next_wake().unwrap();
        assert!(t.take_due(at, None).flag.is_some());
        t.flag_answered(3, at);
        assert_eq!(t.next_wake(), Some(at + MAX_RETRY), "capped");
    }

    #[test]
    fn a_move_before_the_flag_moves_the_deadline_to_the_opponent() {
        let mut t = started(absolute(3), None);
        assert!(t.take_due(Millis(4_000), None).flag.is_some());
        // The move got in first (at 3,999 ms): the answer is "not expired", and the tail has the move.
        let game = t.state.game.as_ref().unwrap();
        let point = weiqi_rules::Point::new(2, 2);
        let hash = game.preview(weiqi_rules::Color::Black, point).unwrap().hash_after;
        t.fold(&GameEvent::StonePlayed {
            color: weiqi_rules::Color::Black,
            point,
            captures: Vec::new(),
            hash,
            number: 1,
            at: Millis(3_999),
            clock: None,
            lag: None,
            cycle: false,
            from_sealed: false,
            suicided: Vec::new(),
        })
        .unwrap();
        t.flag_answered(3, Millis(4_001));
        t.restart_schedule(Millis(4_001), None);
        // White's deadline: 3 s of its own plus the grace, from the move.
        assert_eq!(t.running_clock().unwrap().deadline(), Some(Millis(7_999)));
        assert_eq!(t.next_wake(), Some(Millis(7_999)));
        assert_eq!(t.take_due(Millis(7_999), None).flag, Some(FlagDue { version: 4, deadline: Millis(7_999) }));
    }

    #[test]
    fn japanese_byo_yomi_calls_fall_at_their_instants() {
        // No main time, one 30 s period: "10, 20, 1 … 9, 10 (time up)".
        let mut t = started(TimeControl::japanese(DurationMs::ZERO, 1, DurationMs::from_secs(30)).unwrap(), SECOND);
        let mut calls = Vec::new();
        while let Some(at) = t.next_wake() {
            let due = t.take_due(at, SECOND);
            calls.extend(due.calls);
            if due.flag.is_some() {
                break;
            }
        }
        let secs: Vec<(i64, Call)> = calls.iter().map(|(at, c)| (at.0 / 1_000, *c)).collect();
        let mut expected = vec![(10, Call::Seconds(10)), (20, Call::Seconds(20))];
        expected.extend((1..10).map(|n| (20 + i64::from(n), Call::Count(n))));
        expected.push((30, Call::TimeUp { count: 10 }));
        assert_eq!(secs, expected);
    }

    #[test]
    fn a_late_wake_publishes_the_missed_calls_in_order_but_not_a_minute_of_them() {
        let three_periods = || TimeControl::japanese(DurationMs::ZERO, 3, DurationMs::from_secs(30)).unwrap();
        let mut t = started(three_periods(), None);
        let due = t.take_due(Millis(25_000), None);
        assert_eq!(due.calls, vec![(Millis(10_000), Call::Seconds(10)), (Millis(20_000), Call::Seconds(20))]);
        // 17 calls fell between 0 and 89.999 s (10, 20, "1 used", … 1 … 9): only the last 16 go out.
        let mut t = started(three_periods(), None);
        let due = t.take_due(Millis(89_999), None);
        assert_eq!(due.calls.len(), MAX_CALLS_PER_WAKE);
        assert_eq!(due.calls.first(), Some(&(Millis(20_000), Call::Seconds(20))));
        assert!(due.calls.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(due.calls.last(), Some(&(Millis(89_000), Call::Count(9))));
    }

    #[test]
    fn a_game_without_a_clock_never_wakes() {
        let t = started(TimeControl::no_clock(), SECOND);
        assert_eq!(t.next_wake(), None);
    }
}
