//! Shared helpers for the integration tests: instants in seconds, and given / when / then.
#![allow(dead_code)]

use weiqi_clock::{
    Clock, ClockCommand, ClockError, ClockEvent, DurationMs, LagConfig, Millis, Referee, Side, TimeControl, replay,
};

/// The instant `s` seconds after the origin.
pub fn t(s: i64) -> Millis {
    Millis(s * 1_000)
}

/// `s` seconds.
pub fn secs(s: i64) -> DurationMs {
    DurationMs::from_secs(s)
}

/// `m` minutes.
pub fn mins(m: i64) -> DurationMs {
    DurationMs::from_mins(m)
}

/// `ms` milliseconds.
pub fn ms(ms: i64) -> DurationMs {
    DurationMs(ms)
}

/// A control without lag allowance, so that figures are exact to the millisecond.
pub fn exact(control: Result<TimeControl, weiqi_clock::ControlError>) -> TimeControl {
    control.expect("valid control").with_lag(LagConfig::NONE).expect("valid lag")
}

/// A table referee.
pub fn referee() -> Referee {
    Referee::table("ref-7")
}

/// The chief referee.
pub fn chief() -> Referee {
    Referee::chief("chief-1")
}

/// A move event.
pub fn moved(side: Side, at: Millis) -> ClockEvent {
    ClockEvent::Moved { side, at, report: None }
}

/// Given these events (Black first).
pub fn given(control: &TimeControl, events: &[ClockEvent]) -> Clock {
    replay(control.clone(), Side::Black, events).expect("the given events are valid")
}

/// When `command` at `now`, then exactly `expected` (and the clock folds them): returns the new clock.
pub fn then_events(clock: &Clock, command: ClockCommand, now: Millis, expected: &[ClockEvent]) -> Clock {
    let events = clock.decide(&command, now).expect("the command is accepted");
    assert_eq!(events, expected, "events decided for {command:?} at {now}");
    events.iter().fold(clock.clone(), |c, e| c.apply(e).expect("decided events apply"))
}

/// When `command` at `now`, then it is refused with `expected`.
pub fn then_refused(clock: &Clock, command: ClockCommand, now: Millis, expected: ClockError) {
    assert_eq!(clock.decide(&command, now), Err(expected), "decision for {command:?} at {now}");
}

/// Plays alternate moves at the given instants, starting with the side to move.
pub fn play(clock: &Clock, instants: &[Millis]) -> Clock {
    instants.iter().fold(clock.clone(), |c, &at| c.apply(&moved(c.to_move(), at)).expect("move in time"))
}
