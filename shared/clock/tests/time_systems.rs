//! Each time system with exact figures (issue 4, "Tests that must exist").

mod common;

use common::*;
use weiqi_clock::{Bank, Clock, ClockError, ClockEvent, DurationMs, Millis, Side, TimeControl, replay};

use Side::{Black, White};

/// Five reserved minutes and no free basic time: Black is in byo-yomi from the first move.
fn five_reserved_minutes() -> TimeControl {
    exact(TimeControl::chinese(mins(5), 5))
}

/// Black's periods left after one Black move of `think`, White having moved instantly before.
fn periods_left_after_one_move(control: &TimeControl, think: DurationMs) -> u32 {
    let clock = given(control, &[ClockEvent::Started { at: t(0) }]);
    let clock = clock.apply(&moved(Black, Millis(0) + think)).expect("in time");
    clock.bank(Black).periods_left(control)
}

#[test]
fn with_five_reserved_minutes_59_s_costs_nothing_60_s_one_minute_125_s_two() {
    let control = five_reserved_minutes();
    assert_eq!(periods_left_after_one_move(&control, secs(59)), 5);
    assert_eq!(periods_left_after_one_move(&control, ms(59_999)), 5);
    assert_eq!(periods_left_after_one_move(&control, secs(60)), 4);
    assert_eq!(periods_left_after_one_move(&control, secs(119)), 4);
    assert_eq!(periods_left_after_one_move(&control, secs(125)), 3);
}

#[test]
fn reserved_minutes_begin_once_the_free_basic_time_is_used_even_in_the_middle_of_a_move() {
    // 2 hours with 5 reserved: 115 free minutes. One move of 115 min + 125 s uses the free time and two
    // reserved minutes.
    let control = exact(TimeControl::national(DurationMs::from_hours(2)));
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }, moved(Black, t(115 * 60 + 125))]);
    let bank = clock.bank(Black);
    assert_eq!((bank.main, bank.periods_left(&control)), (DurationMs::ZERO, 3));
    // A move within the free time uses it second for second.
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }, moved(Black, t(600))]);
    assert_eq!(clock.bank(Black).main, mins(105));
    assert_eq!(clock.bank(Black).periods_left(&control), 5);
}

#[test]
fn in_the_last_minute_ten_means_time_is_up() {
    let control = exact(TimeControl::chinese(mins(1), 1));
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }]);
    assert_eq!(clock.deadline(), Some(t(60)));
    // "10" is called at 60 s: a stone placed then is too late, one placed a millisecond earlier is in time.
    assert_eq!(clock.apply(&moved(Black, t(60))), Err(ClockError::TimeExpired { side: Black, deadline: t(60) }));
    let after = clock.apply(&moved(Black, t(60) - ms(1))).expect("in time");
    assert_eq!(after.bank(Black).periods_left(&control), 1, "the last minute starts again after a move");
    // The flag falls exactly at "10".
    assert!(clock.flag(t(60) - ms(1)).is_none());
    assert_eq!(clock.flag(t(60)).map(|f| (f.side, f.deadline)), Some((Black, t(60))));
    assert_eq!(clock.calls_between(t(59), t(60)), vec![(t(60), weiqi_clock::Call::TimeUp { count: 10 })]);
}

#[test]
fn a_move_that_uses_several_reserved_minutes_is_charged_whole_minutes_only() {
    let control = five_reserved_minutes();
    // Black uses 125 s (3 minutes left); White moves at once. Black's next move may take up to 3 minutes
    // less a millisecond; at 2 min 59 s two more minutes are used and the last one remains.
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }, moved(Black, t(125)), moved(White, t(125))]);
    assert_eq!(clock.deadline(), Some(t(125 + 180)));
    let clock2 = clock.apply(&moved(Black, t(125 + 179))).expect("in time");
    assert_eq!(clock2.bank(Black).periods_left(&control), 1);
}

#[test]
fn japanese_byo_yomi_uses_a_period_per_overrun_and_resets_the_current_one() {
    // 10 s main, then 3 × 30 s.
    let control = exact(TimeControl::japanese(secs(10), 3, secs(30)));
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }]);
    // 45 s: 10 s main + 35 s of byo-yomi = the first period used and 5 s into the second.
    let reading = clock.reading(t(45));
    let black = reading.side(Black);
    assert_eq!(
        (black.bank.main, black.bank.period, black.bank.period_left, black.periods_left),
        (DurationMs::ZERO, 2, secs(25), 2)
    );
    let clock = clock.apply(&moved(Black, t(45))).expect("in time");
    assert_eq!(clock.bank(Black), Bank { main: DurationMs::ZERO, period: 2, period_left: secs(30), moves_left: 0 });
    // White: 10 + 90 s in all.
    assert_eq!(clock.deadline(), Some(t(45 + 100)));
}

#[test]
fn seed_001_local_event_is_one_hour_then_thirty_seconds_per_move() {
    let control = TimeControl::seed_001_local().with_lag(weiqi_clock::LagConfig::NONE).unwrap();
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }, moved(Black, t(3600)), moved(White, t(3600))]);
    // Black's hour is gone: every move must now be made within 30 s.
    assert_eq!(clock.deadline(), Some(t(3630)));
    let clock = play(&clock, &[t(3629), t(3629)]);
    assert_eq!(clock.deadline(), Some(t(3659)));
}

#[test]
fn fast_byo_yomi_with_no_main_time_starts_in_the_period() {
    for period in [10, 20, 30] {
        let control = exact(TimeControl::japanese(DurationMs::ZERO, 1, secs(period)));
        let clock = given(&control, &[ClockEvent::Started { at: t(0) }]);
        assert_eq!(clock.deadline(), Some(t(period)), "{period} s byo-yomi");
        let clock = play(&clock, &[t(period - 1), t(period - 1)]);
        assert_eq!(clock.deadline(), Some(t(2 * period - 1)));
    }
}

#[test]
fn moves_per_period_carries_three_unused_minutes_into_the_next_period() {
    // After basic time, 15 moves per 10 minutes. Black makes its 15 moves in 7 minutes (28 s each).
    let control = exact(TimeControl::moves_per_period(DurationMs::ZERO, 15, mins(10)));
    let mut clock = given(&control, &[ClockEvent::Started { at: t(0) }]);
    let mut now = t(0);
    for n in 1..=15 {
        now = now + secs(28);
        clock = clock.apply(&moved(Black, now)).expect("in time");
        clock = clock.apply(&moved(White, now)).expect("White moves at once");
        if n == 14 {
            let bank = clock.bank(Black);
            assert_eq!((bank.period, bank.moves_left, bank.period_left), (1, 1, mins(10) - secs(14 * 28)));
        }
    }
    let bank = clock.bank(Black);
    assert_eq!((bank.period, bank.moves_left, bank.period_left), (2, 15, mins(13)));
}

#[test]
fn moves_per_period_main_time_then_periods() {
    // 1 minute basic time then 2 moves per 30 s: a 70 s first move uses the minute and 10 s of the period,
    // and counts as the period's first move.
    let control = exact(TimeControl::moves_per_period(mins(1), 2, secs(30)));
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }, moved(Black, t(70))]);
    assert_eq!(clock.bank(Black), Bank { main: DurationMs::ZERO, period: 1, period_left: secs(20), moves_left: 1 });
    let clock = play(&clock, &[t(70), t(75)]);
    assert_eq!(clock.bank(Black), Bank { main: DurationMs::ZERO, period: 2, period_left: secs(45), moves_left: 2 });
}

#[test]
fn moves_per_period_flags_when_the_period_runs_out_before_its_moves() {
    let control = exact(TimeControl::moves_per_period(DurationMs::ZERO, 15, mins(10)));
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }]);
    let clock = play(&clock, &[t(300), t(300)]);
    // 14 moves still due, 5 minutes left.
    assert_eq!(clock.deadline(), Some(t(600)));
    assert_eq!(clock.apply(&moved(Black, t(600))), Err(ClockError::TimeExpired { side: Black, deadline: t(600) }));
}

#[test]
fn canadian_overtime_resets_the_period_after_its_moves() {
    // 5 moves per 5 minutes; Black makes them in 4 minutes: the next period is 5 minutes, not 6.
    let control = exact(TimeControl::canadian(DurationMs::ZERO, 5, mins(5)));
    let mut clock = given(&control, &[ClockEvent::Started { at: t(0) }]);
    for n in 1..=5 {
        clock = play(&clock, &[t(48 * n), t(48 * n)]);
    }
    let bank = clock.bank(Black);
    assert_eq!((bank.period, bank.moves_left, bank.period_left), (2, 5, mins(5)));
    // Within a period the time is not renewed move by move.
    let clock = play(&clock, &[t(240 + 100), t(240 + 100)]);
    assert_eq!(clock.bank(Black).period_left, secs(200));
    assert_eq!(clock.deadline(), Some(t(340 + 200)));
}

#[test]
fn fischer_adds_the_increment_after_each_move_up_to_the_cap() {
    // 5 minutes + 10 s per move, capped at 5 minutes.
    let control = exact(TimeControl::fischer(mins(5), secs(10), Some(mins(5))));
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }, moved(Black, t(2))]);
    assert_eq!(clock.bank(Black).main, mins(5), "5:00 - 2 s + 10 s is capped at 5:00");
    let clock = play(&clock, &[t(2), t(32)]);
    assert_eq!(clock.bank(Black).main, mins(5) - secs(30) + secs(10));
    let clock = play(&clock, &[t(32), t(38)]);
    assert_eq!(clock.bank(Black).main, mins(5) - secs(16), "4:40 - 6 s + 10 s = 4:44, under the cap");
}

#[test]
fn fischer_without_cap_accumulates_and_a_cap_never_takes_time_away() {
    let uncapped = exact(TimeControl::fischer(mins(5), secs(10), None));
    let clock = given(&uncapped, &[ClockEvent::Started { at: t(0) }, moved(Black, t(2))]);
    assert_eq!(clock.bank(Black).main, mins(5) + secs(8));
    // A cap at the initial time: the increment tops the time up to the cap and no further.
    let capped = exact(TimeControl::fischer(mins(5), secs(10), Some(mins(5))));
    let clock = given(&capped, &[ClockEvent::Started { at: t(0) }, moved(Black, t(2))]);
    assert_eq!(clock.bank(Black).main, mins(5));
    assert_eq!(clock.increments(Black), secs(2));
    // A cap below the initial time could only take time away: such a control is refused.
    assert_eq!(
        TimeControl::fischer(mins(5), secs(10), Some(mins(1))),
        Err(weiqi_clock::ControlError::CapBelowInitial { cap: mins(1), initial: mins(5) })
    );
}

#[test]
fn absolute_time_flags_at_the_end_of_the_basic_time() {
    let control = exact(TimeControl::absolute(mins(30)));
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }, moved(Black, t(600)), moved(White, t(600))]);
    assert_eq!(clock.bank(Black).main, mins(20));
    assert_eq!(clock.deadline(), Some(t(600 + 1200)));
    assert!(clock.apply(&moved(Black, t(1800) - ms(1))).is_ok());
    assert!(clock.apply(&moved(Black, t(1800))).is_err());
}

#[test]
fn no_clock_never_flags() {
    let control = TimeControl::no_clock();
    let clock = given(&control, &[ClockEvent::Started { at: t(0) }]);
    assert_eq!(clock.deadline(), None);
    assert_eq!(clock.flag(Millis(i64::MAX)), None);
    let clock = play(&clock, &[t(1_000_000), t(2_000_000)]);
    assert_eq!(clock.reading(t(3_000_000)).side(Black).available, None);
}

#[test]
fn a_handicap_game_starts_with_white_to_move() {
    let control = exact(TimeControl::absolute(mins(30)));
    let clock = replay(control, White, &[ClockEvent::Started { at: t(0) }]).unwrap();
    assert_eq!(clock.to_move(), White);
    assert_eq!(clock.flag(t(1800)).map(|f| f.side), Some(White));
    assert_eq!(Clock::new(TimeControl::no_clock(), White).unwrap().to_move(), White);
}
