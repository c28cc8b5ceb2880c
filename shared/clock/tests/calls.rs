//! The referee's calls as instants for the player to move (overlays, voice clocks).

mod common;

use common::*;
use weiqi_clock::{Call, ClockEvent, DurationMs, Millis, Side, TimeControl};

use Side::White;

fn seconds_of(calls: &[(Millis, Call)], origin: Millis) -> Vec<(i64, Call)> {
    calls.iter().map(|&(at, call)| ((at - origin).as_millis() / 1_000, call)).collect()
}

#[test]
fn a_turn_in_reserved_minutes_is_called_minute_by_minute_to_time_up() {
    // Two reserved minutes and nothing else.
    let control = exact(TimeControl::chinese(mins(2), 2));
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }]);
    let calls = clock.calls_between(t(0), t(10_000));
    let mut expected = vec![
        (30, Call::Seconds(30)),
        (40, Call::Seconds(40)),
        (50, Call::Seconds(50)),
        (55, Call::Seconds(55)),
        (58, Call::Seconds(58)),
        (60, Call::PeriodUsed { periods_left: 1 }),
        (90, Call::Seconds(30)),
        (100, Call::Seconds(40)),
        (110, Call::Seconds(50)),
    ];
    expected.extend((1..10).map(|n| (110 + i64::from(n), Call::Count(n))));
    expected.push((120, Call::TimeUp { count: 10 }));
    assert_eq!(seconds_of(&calls, t(0)), expected);
    assert_eq!(clock.deadline(), Some(t(120)), "time up falls with the flag when there is no grace");
}

#[test]
fn next_call_is_the_first_call_strictly_after_now() {
    let control = exact(TimeControl::chinese(mins(2), 2));
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }]);
    assert_eq!(clock.next_call(t(0)), Some((t(30), Call::Seconds(30))));
    assert_eq!(clock.next_call(t(30)), Some((t(40), Call::Seconds(40))));
    assert_eq!(clock.next_call(t(59)), Some((t(60), Call::PeriodUsed { periods_left: 1 })));
    assert_eq!(clock.next_call(t(118)), Some((t(119), Call::Count(9))));
    assert_eq!(clock.next_call(t(120)), None);
}

#[test]
fn calls_start_when_main_time_runs_out_in_the_middle_of_a_turn() {
    // Seed 001: one hour, then 30 s per move called "10 s, 20 s, 1 … 10".
    let control = TimeControl::seed_001_local().with_lag(weiqi_clock::LagConfig::NONE).unwrap();
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }]);
    assert_eq!(clock.calls_between(t(0), t(3_600)), vec![]);
    let calls = clock.calls_between(t(3_600), t(3_700));
    let mut expected = vec![(10, Call::Seconds(10)), (20, Call::Seconds(20))];
    expected.extend((1..10).map(|n| (20 + i64::from(n), Call::Count(n))));
    expected.push((30, Call::TimeUp { count: 10 }));
    assert_eq!(seconds_of(&calls, t(3_600)), expected);
}

#[test]
fn each_new_turn_starts_a_new_count_and_a_pause_delays_the_calls() {
    let control = exact(TimeControl::japanese(DurationMs::ZERO, 1, secs(30)));
    let clock = play(&given(&control, &[ClockEvent::Started { at: t(0) }]), &[t(25)]);
    assert_eq!(clock.to_move(), White);
    assert_eq!(clock.next_call(t(25)), Some((t(35), Call::Seconds(10))));
    // White pauses 12 s in; the clock stops calling; on resumption the count picks up where it was.
    let paused = clock.apply(&ClockEvent::Paused { at: t(37), by: referee() }).unwrap();
    assert_eq!(paused.next_call(t(37)), None);
    let resumed = paused.apply(&ClockEvent::Resumed { at: t(100), by: referee() }).unwrap();
    assert_eq!(resumed.next_call(t(100)), Some((t(108), Call::Seconds(20))));
    assert_eq!(resumed.calls_between(t(0), t(100)), vec![], "nothing is called twice after a resumption");
    assert_eq!(resumed.deadline(), Some(t(118)));
}

#[test]
fn systems_without_byo_yomi_have_no_calls() {
    for control in [
        exact(TimeControl::absolute(mins(1))),
        exact(TimeControl::fischer(mins(1), secs(5), None)),
        exact(TimeControl::canadian(DurationMs::ZERO, 5, mins(1))),
        TimeControl::no_clock(),
    ] {
        let clock = given(&control, &[ClockEvent::Started { at: t(0) }]);
        assert_eq!(clock.next_call(t(0)), None, "{:?}", control.system);
    }
}
