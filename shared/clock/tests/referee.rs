//! Referee procedures and the clock/game-service race, as given events / when command / then events.

mod common;

use common::*;
use weiqi_clock::{
    Bank, BankError, BySide, ClockCommand, ClockError, ClockEvent, CorrectionReason, DurationMs, ExpiryOutcome,
    LagConfig, LagReport, OverrunRule, Phase, Side, TimeControl,
};

use Side::{Black, White};

fn started() -> ClockEvent {
    ClockEvent::Started { at: t(0) }
}

// --- pause and resume (Art. 14) -------------------------------------------------------------------------

#[test]
fn pause_time_is_not_charged() {
    let control = exact(TimeControl::absolute(mins(60)));
    let clock = given(&control, &[started(), moved(Black, t(100))]);
    // When the referee pauses 20 s into White's turn, then a pause event is recorded.
    let clock = then_events(
        &clock,
        ClockCommand::Pause { by: referee() },
        t(120),
        &[ClockEvent::Paused { at: t(120), by: referee() }],
    );
    assert_eq!(clock.phase(), Phase::Paused);
    assert_eq!(clock.deadline(), None, "nobody flags during a pause");
    assert_eq!(clock.reading(t(5_000)).side(White).bank.main, mins(60) - secs(20));
    // When play resumes an hour later, then White's turn continues where it stopped.
    let clock = then_events(
        &clock,
        ClockCommand::Resume { by: referee() },
        t(3_720),
        &[ClockEvent::Resumed { at: t(3_720), by: referee() }],
    );
    assert_eq!(clock.deadline(), Some(t(3_720) + mins(60) - secs(20)));
    let clock =
        then_events(&clock, ClockCommand::Move { side: White, report: None }, t(3_730), &[moved(White, t(3_730))]);
    assert_eq!(clock.bank(White).main, mins(60) - secs(30), "20 s before the pause + 10 s after");
    assert_eq!(clock.last_move().map(|m| m.elapsed), Some(secs(30)));
}

#[test]
fn a_paused_clock_refuses_moves_and_a_second_pause_and_a_running_clock_refuses_resume() {
    let control = exact(TimeControl::absolute(mins(60)));
    let clock = given(&control, &[started(), ClockEvent::Paused { at: t(10), by: referee() }]);
    then_refused(&clock, ClockCommand::Move { side: Black, report: None }, t(20), ClockError::NotRunning);
    then_refused(&clock, ClockCommand::Pause { by: referee() }, t(20), ClockError::NotRunning);
    let running = given(&control, &[started()]);
    then_refused(&running, ClockCommand::Resume { by: referee() }, t(20), ClockError::NotPaused);
    let not_started = given(&control, &[]);
    then_refused(&not_started, ClockCommand::Pause { by: referee() }, t(0), ClockError::NotStarted);
}

#[test]
fn a_pause_after_the_deadline_is_too_late() {
    let control = exact(TimeControl::absolute(mins(1)));
    let clock = given(&control, &[started()]);
    then_refused(
        &clock,
        ClockCommand::Pause { by: referee() },
        t(60),
        ClockError::TimeExpired { side: Black, deadline: t(60) },
    );
}

// --- adjournment with a sealed move (Art. 14) -----------------------------------------------------------

#[test]
fn sealing_charges_the_sealer_and_stops_the_clock_until_resumption() {
    // Japanese 3 × 30 s, no main time.
    let control = exact(TimeControl::japanese(DurationMs::ZERO, 3, secs(30)));
    let clock = given(&control, &[started(), moved(Black, t(5))]);
    // When White, to move at the adjournment, seals after 40 s: one period used, the clock stops.
    let clock = then_events(
        &clock,
        ClockCommand::Seal { side: White, report: None },
        t(45),
        &[ClockEvent::Sealed { side: White, at: t(45), report: None }],
    );
    assert_eq!(clock.phase(), Phase::Adjourned { sealer: White });
    assert_eq!(clock.bank(White).periods_left(&control), 2);
    assert_eq!(clock.deadline(), None);
    // Overnight nothing runs; nobody may move.
    assert_eq!(clock.reading(t(86_400)).side(Black).bank, clock.reading(t(46)).side(Black).bank);
    then_refused(&clock, ClockCommand::Move { side: Black, report: None }, t(50), ClockError::NotRunning);
    // When play resumes, then the sealed move is played and Black's clock starts.
    let clock = then_events(
        &clock,
        ClockCommand::Resume { by: referee() },
        t(86_400),
        &[ClockEvent::Resumed { at: t(86_400), by: referee() }],
    );
    assert_eq!(clock.to_move(), Black);
    assert_eq!(clock.deadline(), Some(t(86_400 + 90)));
}

#[test]
fn only_the_player_to_move_seals_and_only_in_time() {
    let control = exact(TimeControl::absolute(mins(1)));
    let clock = given(&control, &[started()]);
    then_refused(
        &clock,
        ClockCommand::Seal { side: White, report: None },
        t(10),
        ClockError::NotYourTurn { side: White, to_move: Black },
    );
    then_refused(
        &clock,
        ClockCommand::Seal { side: Black, report: None },
        t(60),
        ClockError::TimeExpired { side: Black, deadline: t(60) },
    );
}

// --- corrections (Art. 22.8–9) --------------------------------------------------------------------------

#[test]
fn a_referee_sets_both_sides_time_and_the_running_turn_restarts_from_the_correction() {
    let control = exact(TimeControl::absolute(mins(60)));
    let clock = given(&control, &[started(), moved(Black, t(100))]);
    let set = BySide::new(Some(Bank::with_main(&control, mins(50))), Some(Bank::with_main(&control, mins(40))));
    let reason = CorrectionReason::Ruling { note: "clock knocked over".into() };
    let clock = then_events(
        &clock,
        ClockCommand::Correct { set, reason: reason.clone(), by: referee() },
        t(130),
        &[ClockEvent::Corrected { at: t(130), set, reason, by: referee() }],
    );
    let reading = clock.reading(t(130));
    assert_eq!((reading.side(Black).bank.main, reading.side(White).bank.main), (mins(50), mins(40)));
    assert_eq!(clock.deadline(), Some(t(130) + mins(40)), "White's 30 s before the correction are not charged");
}

#[test]
fn a_one_sided_correction_needs_the_chief_referee() {
    let control = exact(TimeControl::absolute(mins(60)));
    let clock = given(&control, &[started()]);
    let set = BySide::new(Some(Bank::with_main(&control, mins(45))), None);
    let reason = CorrectionReason::Ruling { note: "wrong reading".into() };
    then_refused(
        &clock,
        ClockCommand::Correct { set, reason: reason.clone(), by: referee() },
        t(10),
        ClockError::ChiefRefereeRequired,
    );
    let clock = then_events(
        &clock,
        ClockCommand::Correct { set, reason: reason.clone(), by: chief() },
        t(10),
        &[ClockEvent::Corrected { at: t(10), set, reason, by: chief() }],
    );
    assert_eq!(clock.reading(t(10)).side(Black).bank.main, mins(45));
    assert_eq!(clock.reading(t(10)).side(White).bank.main, mins(60));
}

#[test]
fn a_correction_must_fit_the_time_control() {
    let control = exact(TimeControl::japanese(mins(10), 3, secs(30)));
    let clock = given(&control, &[started()]);
    let bad = Bank { main: DurationMs::ZERO, period: 4, period_left: secs(30), moves_left: 0 };
    let set = BySide::new(Some(bad), Some(Bank::initial(&control)));
    then_refused(
        &clock,
        ClockCommand::Correct { set, reason: CorrectionReason::Ruling { note: String::new() }, by: referee() },
        t(1),
        ClockError::InvalidBank { side: Black, error: BankError::Period },
    );
    then_refused(
        &clock,
        ClockCommand::Correct {
            set: BySide::new(None, None),
            reason: CorrectionReason::Ruling { note: String::new() },
            by: chief(),
        },
        t(1),
        ClockError::EmptyCorrection,
    );
}

#[test]
fn a_malfunction_of_two_minutes_per_hour_or_more_prorates_the_time_used() {
    // Absolute 90 minutes. After a true hour of play the faulty clock shows Black 44 min used and White 22:
    // 66 minutes for 60, an error of 6 minutes per hour. The hour is shared 2:1.
    let control = exact(TimeControl::absolute(mins(90)));
    let clock = given(&control, &[started(), moved(Black, t(2_400))]);
    let shown_used = BySide::new(mins(44), mins(22));
    let set = BySide::new(Some(Bank::with_main(&control, mins(50))), Some(Bank::with_main(&control, mins(70))));
    let clock = then_events(
        &clock,
        ClockCommand::ProrateMalfunction { shown_used, true_total: mins(60), by: referee() },
        t(3_600),
        &[ClockEvent::Corrected {
            at: t(3_600),
            set,
            reason: CorrectionReason::Malfunction { shown_used, true_total: mins(60) },
            by: referee(),
        }],
    );
    assert_eq!(clock.deadline(), Some(t(3_600) + mins(70)));
}

#[test]
fn a_malfunction_under_two_minutes_per_hour_changes_no_time() {
    let control = exact(TimeControl::absolute(mins(90)));
    let clock = given(&control, &[started(), moved(Black, t(2_400))]);
    let shown_used = BySide::new(mins(40), mins(21));
    let after = then_events(
        &clock,
        ClockCommand::ProrateMalfunction { shown_used, true_total: mins(60), by: referee() },
        t(3_600),
        &[],
    );
    assert_eq!(after, clock);
}

#[test]
fn proration_of_main_time_is_refused_once_a_side_is_in_byo_yomi() {
    let control = exact(TimeControl::japanese(mins(1), 1, secs(30)));
    let clock = given(&control, &[started(), moved(Black, t(70))]);
    then_refused(
        &clock,
        ClockCommand::ProrateMalfunction {
            shown_used: BySide::new(mins(2), mins(0)),
            true_total: secs(80),
            by: referee(),
        },
        t(80),
        ClockError::NotInMainTime { side: Black },
    );
}

#[test]
fn with_no_record_of_the_time_used_it_is_split_evenly() {
    // Art. 22.9: 50 minutes played, no record: 25 each.
    let control = exact(TimeControl::absolute(mins(60)));
    let clock = given(&control, &[started(), moved(Black, t(600)), ClockEvent::Paused { at: t(3_000), by: referee() }]);
    let set = BySide::new(Some(Bank::with_main(&control, mins(35))), Some(Bank::with_main(&control, mins(35))));
    let clock = then_events(
        &clock,
        ClockCommand::SplitEvenly { true_total: mins(50), by: referee() },
        t(7_000),
        &[ClockEvent::Corrected {
            at: t(7_000),
            set,
            reason: CorrectionReason::NoRecord { true_total: mins(50) },
            by: referee(),
        }],
    );
    let clock = then_events(
        &clock,
        ClockCommand::Resume { by: referee() },
        t(7_100),
        &[ClockEvent::Resumed { at: t(7_100), by: referee() }],
    );
    assert_eq!(clock.deadline(), Some(t(7_100) + mins(35)));
}

#[test]
fn a_fischer_proration_counts_the_increments_received() {
    let control = exact(TimeControl::fischer(mins(10), secs(10), None));
    // Black moved twice (20 s of increments), White once.
    let clock = given(&control, &[started(), moved(Black, t(60)), moved(White, t(120)), moved(Black, t(180))]);
    assert_eq!(clock.increments(Black), secs(20));
    let events = clock.decide(&ClockCommand::SplitEvenly { true_total: mins(4), by: referee() }, t(240)).unwrap();
    let ClockEvent::Corrected { set, .. } = &events[0] else { panic!("a correction") };
    assert_eq!(set.black.map(|b| b.main), Some(mins(10) + secs(20) - mins(2)));
    assert_eq!(set.white.map(|b| b.main), Some(mins(10) + secs(10) - mins(2)));
}

// --- Art. 22.5: overrun in the last minute as a pass ----------------------------------------------------

fn pass_allowed() -> TimeControl {
    exact(TimeControl::chinese(mins(1), 1)).with_overrun(OverrunRule::PassOnRequest).unwrap()
}

#[test]
fn an_overrun_in_the_last_minute_loses_unless_the_player_asked() {
    let clock = given(&pass_allowed(), &[started()]);
    let clock = then_events(
        &clock,
        ClockCommand::Expire,
        t(60),
        &[ClockEvent::TimeExpired { side: Black, at: t(60), outcome: ExpiryOutcome::Loss }],
    );
    assert_eq!(clock.phase(), Phase::Expired { side: Black, at: t(60) });
    assert!(clock.reading(t(61)).side(Black).flagged);
    then_refused(&clock, ClockCommand::Move { side: Black, report: None }, t(61), ClockError::GameOver);
}

#[test]
fn at_the_players_request_an_overrun_in_the_last_minute_counts_as_a_pass() {
    let clock = given(&pass_allowed(), &[started()]);
    let clock = then_events(
        &clock,
        ClockCommand::RequestPassOnOverrun { side: Black },
        t(20),
        &[ClockEvent::PassOnOverrunRequested { side: Black }],
    );
    assert_eq!(clock.flag(t(60)).map(|f| f.outcome), Some(ExpiryOutcome::Pass));
    // When the clock service records the flag, then it is a pass: White to move, Black keeps its last
    // minute in full.
    let clock = then_events(
        &clock,
        ClockCommand::Expire,
        t(60) + ms(30),
        &[ClockEvent::TimeExpired { side: Black, at: t(60) + ms(30), outcome: ExpiryOutcome::Pass }],
    );
    assert_eq!(clock.to_move(), White);
    assert_eq!(clock.phase(), Phase::Running { since: t(60) + ms(30) });
    assert_eq!(clock.bank(Black), Bank { main: DurationMs::ZERO, period: 1, period_left: mins(1), moves_left: 0 });
    assert_eq!(clock.deadline(), Some(t(120) + ms(30)));
}

#[test]
fn the_pass_on_overrun_needs_the_events_permission_and_a_matching_outcome() {
    let strict = exact(TimeControl::chinese(mins(1), 1));
    let clock = given(&strict, &[started()]);
    then_refused(&clock, ClockCommand::RequestPassOnOverrun { side: Black }, t(1), ClockError::OverrunPassNotAllowed);
    // A recorded outcome the clock does not compute is refused on replay.
    let wrong = ClockEvent::TimeExpired { side: Black, at: t(60), outcome: ExpiryOutcome::Pass };
    assert_eq!(
        clock.apply(&wrong),
        Err(ClockError::OutcomeMismatch { recorded: ExpiryOutcome::Pass, computed: ExpiryOutcome::Loss })
    );
}

// --- the race between a move and the flag ---------------------------------------------------------------

#[test]
fn a_move_one_millisecond_before_the_deadline_beats_the_flag_and_exactly_one_wins() {
    let control = exact(TimeControl::japanese(DurationMs::ZERO, 1, secs(30)));
    let clock = given(&control, &[started()]);
    let deadline = t(30);
    assert_eq!(clock.deadline(), Some(deadline));
    // Before the deadline the flag cannot be claimed; at it, it can.
    then_refused(
        &clock,
        ClockCommand::Expire,
        deadline - ms(1),
        ClockError::NotExpired { side: Black, deadline: Some(deadline) },
    );
    // The move at deadline - 1 ms is in time; once it is in the log, the flag at the old deadline is refused.
    let after_move = clock.apply(&moved(Black, deadline - ms(1))).unwrap();
    assert_eq!(
        after_move.apply(&ClockEvent::TimeExpired { side: Black, at: deadline, outcome: ExpiryOutcome::Loss }),
        Err(ClockError::NotExpired { side: Black, deadline: Some(deadline - ms(1) + secs(30)) })
    );
    // If the flag gets in first, the move that follows is refused.
    let after_flag = then_events(
        &clock,
        ClockCommand::Expire,
        deadline,
        &[ClockEvent::TimeExpired { side: Black, at: deadline, outcome: ExpiryOutcome::Loss }],
    );
    assert_eq!(
        after_flag.apply(&moved(Black, deadline - ms(1))),
        Err(ClockError::OutOfOrder { at: deadline - ms(1), last: deadline })
    );
    // A move at the deadline itself loses.
    then_refused(
        &clock,
        ClockCommand::Move { side: Black, report: None },
        deadline,
        ClockError::TimeExpired { side: Black, deadline },
    );
}

#[test]
fn the_lag_grace_moves_the_deadline_and_a_move_in_it_is_paid_from_the_quota() {
    let control = TimeControl::japanese(DurationMs::ZERO, 1, secs(30)).unwrap();
    assert_eq!(control.lag, LagConfig::STANDARD);
    let clock = given(&control, &[started()]);
    // Quota 1.5 s, grace at most 1 s.
    assert_eq!(clock.deadline(), Some(t(31)));
    let late = clock.apply(&ClockEvent::Moved { side: Black, at: t(30) + ms(400), report: None }).unwrap();
    let charge = late.last_move().unwrap();
    assert_eq!((charge.credit, charge.charged), (ms(401), secs(30) - ms(1)));
    assert_eq!(late.lag_quota(Black), ms(1_500 - 401 + 500));
    // A client claiming 300 ms of lag on a 10 s move is believed.
    let honest =
        clock.apply(&ClockEvent::Moved { side: Black, at: t(10), report: Some(LagReport::Lag(ms(300))) }).unwrap();
    assert_eq!(honest.last_move().unwrap().charged, secs(10) - ms(300));
}

// --- stopping and ordering ------------------------------------------------------------------------------

#[test]
fn stopping_freezes_the_clock_for_good() {
    let control = exact(TimeControl::absolute(mins(10)));
    let clock = given(&control, &[started(), moved(Black, t(30))]);
    let clock = then_events(&clock, ClockCommand::Stop, t(50), &[ClockEvent::Stopped { at: t(50) }]);
    assert_eq!(clock.reading(t(10_000)).side(White).bank.main, mins(10) - secs(20));
    assert_eq!(clock.deadline(), None);
    then_refused(&clock, ClockCommand::Start, t(60), ClockError::GameOver);
}

#[test]
fn events_out_of_time_order_are_refused() {
    let control = exact(TimeControl::absolute(mins(10)));
    let clock = given(&control, &[started(), moved(Black, t(30))]);
    assert_eq!(clock.apply(&moved(White, t(29))), Err(ClockError::OutOfOrder { at: t(29), last: t(30) }));
}
