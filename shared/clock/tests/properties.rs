//! Property tests: remaining time never increases except by a rule; replay is deterministic; a lying client
//! gains at most its lag quota.

mod common;

use common::*;
use proptest::prelude::*;
use weiqi_clock::{
    Bank, BySide, Clock, ClockCommand, ClockError, ClockEvent, CorrectionReason, DurationMs, LagConfig, LagReport,
    Millis, OverrunRule, Phase, Side, TimeControl, TimeSystem, replay,
};

// --- strategies -----------------------------------------------------------------------------------------

fn duration(lo: i64, hi: i64) -> impl Strategy<Value = DurationMs> {
    (lo..hi).prop_map(DurationMs)
}

fn system() -> impl Strategy<Value = TimeSystem> {
    prop_oneof![
        Just(TimeSystem::NoClock),
        duration(1, 120_000).prop_map(|main| TimeSystem::Absolute { main }),
        (1..4u32, duration(0, 120_000)).prop_map(|(reserved_minutes, extra)| TimeSystem::ChineseByoYomi {
            basic: mins(i64::from(reserved_minutes)) + extra,
            reserved_minutes
        }),
        (duration(0, 60_000), 1..5u32, duration(1_000, 30_000))
            .prop_map(|(main, periods, period)| TimeSystem::JapaneseByoYomi { main, periods, period }),
        (duration(0, 60_000), 1..6u32, duration(1_000, 60_000))
            .prop_map(|(main, moves, period)| TimeSystem::MovesPerPeriod { main, moves, period }),
        (duration(0, 60_000), 1..6u32, duration(1_000, 60_000))
            .prop_map(|(main, moves, period)| TimeSystem::Canadian { main, moves, period }),
        // A cap is never below the initial time (such a control is refused).
        (duration(1, 60_000), duration(0, 10_000), proptest::option::of(duration(0, 120_000))).prop_map(
            |(initial, increment, extra)| TimeSystem::Fischer { initial, increment, cap: extra.map(|e| initial + e) }
        ),
    ]
}

fn lag_config() -> impl Strategy<Value = LagConfig> {
    prop_oneof![
        Just(LagConfig::NONE),
        Just(LagConfig::STANDARD),
        (duration(0, 2_000), duration(0, 3_000), duration(0, 3_000), duration(0, 2_000)).prop_map(
            |(gain_per_move, start, cap, max_grace)| LagConfig { gain_per_move, start: start.min(cap), cap, max_grace }
        ),
    ]
}

fn control() -> impl Strategy<Value = TimeControl> {
    (system(), lag_config(), any::<bool>()).prop_map(|(system, lag, pass)| {
        let mut control = TimeControl::new(system).expect("valid figures").with_lag(lag).expect("valid lag");
        if pass && system.has_byo_yomi() {
            control = control.with_overrun(OverrunRule::PassOnRequest).expect("byo-yomi");
        }
        control
    })
}

fn report() -> impl Strategy<Value = Option<LagReport>> {
    prop_oneof![
        Just(None),
        duration(-1_000, 5_000).prop_map(|l| Some(LagReport::Lag(l))),
        duration(-1_000, 60_000).prop_map(|m| Some(LagReport::MoveTime(m))),
        Just(Some(LagReport::Lag(DurationMs::MAX))),
    ]
}

#[derive(Clone, Debug)]
enum Action {
    Move(Option<LagReport>),
    Pause,
    Resume,
    Seal,
    RequestPass(Side),
    Expire,
    /// Correct both sides' main time (skipped for systems where it does not fit).
    Correct(DurationMs, DurationMs),
    Stop,
}

fn action(with_corrections: bool) -> impl Strategy<Value = Action> {
    let correction_weight = if with_corrections { 1 } else { 0 };
    let side = prop_oneof![Just(Side::Black), Just(Side::White)];
    prop_oneof![
        12 => report().prop_map(Action::Move),
        1 => Just(Action::Pause),
        2 => Just(Action::Resume),
        1 => Just(Action::Seal),
        1 => side.prop_map(Action::RequestPass),
        1 => Just(Action::Expire),
        correction_weight => (duration(1, 100_000), duration(1, 100_000)).prop_map(|(b, w)| Action::Correct(b, w)),
        correction_weight => Just(Action::Stop),
    ]
}

fn script(with_corrections: bool) -> impl Strategy<Value = Vec<(i64, Action)>> {
    proptest::collection::vec((0..40_000i64, action(with_corrections)), 0..60)
}

// --- driver ---------------------------------------------------------------------------------------------

/// One applied event with the clock before and after it.
struct Step {
    before: Clock,
    event: ClockEvent,
    after: Clock,
}

struct Run {
    events: Vec<ClockEvent>,
    steps: Vec<Step>,
    /// (clock, t1, t2): the clock stood unchanged from t1 to t2.
    quiet: Vec<(Clock, Millis, Millis)>,
    last: Clock,
    now: Millis,
}

fn command(clock: &Clock, action: &Action) -> ClockCommand {
    let by = chief();
    match action {
        Action::Move(report) => ClockCommand::Move { side: clock.to_move(), report: *report },
        Action::Pause => ClockCommand::Pause { by },
        Action::Resume => ClockCommand::Resume { by },
        Action::Seal => ClockCommand::Seal { side: clock.to_move(), report: None },
        Action::RequestPass(side) => ClockCommand::RequestPassOnOverrun { side: *side },
        Action::Expire => ClockCommand::Expire,
        Action::Correct(black, white) => ClockCommand::Correct {
            set: BySide::new(
                Some(Bank::with_main(clock.control(), *black)),
                Some(Bank::with_main(clock.control(), *white)),
            ),
            reason: CorrectionReason::Ruling { note: "test".into() },
            by,
        },
        Action::Stop => ClockCommand::Stop,
    }
}

fn run(control: &TimeControl, first: Side, script: &[(i64, Action)]) -> Run {
    let start = ClockEvent::Started { at: Millis(0) };
    let mut clock = Clock::new(control.clone(), first).unwrap().apply(&start).unwrap();
    let mut run =
        Run { events: vec![start], steps: Vec::new(), quiet: Vec::new(), last: clock.clone(), now: Millis(0) };
    let mut now = Millis(0);
    for (dt, action) in script {
        let prev = now;
        now = now + DurationMs(*dt);
        run.quiet.push((clock.clone(), prev, now));
        let decided = match clock.decide(&command(&clock, action), now) {
            Err(ClockError::TimeExpired { .. }) => clock.decide(&ClockCommand::Expire, now),
            other => other,
        };
        for event in decided.unwrap_or_default() {
            let after = clock.apply(&event).expect("decided events apply");
            run.steps.push(Step { before: clock.clone(), event: event.clone(), after: after.clone() });
            run.events.push(event);
            clock = after;
        }
    }
    run.last = clock;
    run.now = now;
    run
}

/// The most time the rules may give back to the side that acted: an increment, a period renewal, or the
/// last period renewed by an Art. 22.5 pass.
fn rule_gain(control: &TimeControl) -> DurationMs {
    match control.system {
        TimeSystem::NoClock | TimeSystem::Absolute { .. } => DurationMs::ZERO,
        TimeSystem::ChineseByoYomi { .. } => weiqi_clock::MINUTE,
        TimeSystem::JapaneseByoYomi { period, .. }
        | TimeSystem::MovesPerPeriod { period, .. }
        | TimeSystem::Canadian { period, .. } => period,
        TimeSystem::Fischer { increment, .. } => increment,
    }
}

fn acting_side(event: &ClockEvent) -> Option<Side> {
    match event {
        ClockEvent::Moved { side, .. } | ClockEvent::Sealed { side, .. } | ClockEvent::TimeExpired { side, .. } => {
            Some(*side)
        }
        _ => None,
    }
}

// --- properties -----------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// While nothing happens, the running side's time goes down exactly with the clock and the other side's
    /// does not move; no event gives time back except by a rule (the acting side's increment, period
    /// renewal or Art. 22.5 pass, plus the lag credited), and the other side's time is untouched.
    #[test]
    fn remaining_time_never_increases_except_by_a_rule(
        control in control(),
        first in prop_oneof![Just(Side::Black), Just(Side::White)],
        script in script(false),
    ) {
        let run = run(&control, first, &script);
        for (clock, t1, t2) in &run.quiet {
            let (r1, r2) = (clock.reading(*t1), clock.reading(*t2));
            for side in Side::BOTH {
                let (a1, a2) = (r1.side(side).available, r2.side(side).available);
                let running = side == clock.to_move() && matches!(clock.phase(), Phase::Running { .. });
                if running {
                    prop_assert_eq!(a2, a1.map(|a| (a - (*t2 - *t1)).non_negative()));
                } else {
                    prop_assert_eq!(r1.side(side).bank, r2.side(side).bank);
                }
            }
        }
        for step in &run.steps {
            let at = step.event.at().unwrap_or(Millis(0));
            let (before, after) = (step.before.reading(at), step.after.reading(at));
            let actor = acting_side(&step.event);
            let credit = match step.event {
                ClockEvent::Moved { .. } | ClockEvent::Sealed { .. } => {
                    step.after.last_move().map_or(DurationMs::ZERO, |m| m.credit)
                }
                _ => DurationMs::ZERO,
            };
            for side in Side::BOTH {
                let (b, a) = (before.side(side), after.side(side));
                if Some(side) != actor {
                    prop_assert_eq!(b.bank, a.bank, "{:?} changed the other side", step.event);
                    continue;
                }
                if let (Some(ab), Some(aa)) = (b.available, a.available) {
                    prop_assert!(aa <= ab + credit + rule_gain(&control), "{:?}: {} -> {}", step.event, ab, aa);
                }
                let increment = match control.system {
                    TimeSystem::Fischer { increment, .. } => increment,
                    _ => DurationMs::ZERO,
                };
                prop_assert!(a.bank.main <= b.bank.main + credit + increment);
                if let TimeSystem::Fischer { cap: Some(cap), .. } = control.system
                    && a.bank.main > b.bank.main + credit
                {
                    prop_assert!(a.bank.main <= cap, "the increment went past the cap");
                }
                if credit.is_zero() {
                    // Lag credit may take a move back into an earlier period; without it, never.
                    prop_assert!(a.periods_left <= b.periods_left, "byo-yomi periods came back");
                    prop_assert!(a.bank.period >= b.bank.period, "an overtime period was undone");
                }
            }
        }
    }

    /// The clock is a pure fold: replaying the log gives the same clock as folding it event by event, from
    /// any split point, and the same reading, deadline, flag and calls at the same "now".
    #[test]
    fn replaying_the_same_events_gives_the_same_reading(
        control in control(),
        script in script(true),
        split in any::<prop::sample::Index>(),
        later in 0..100_000i64,
    ) {
        let run = run(&control, Side::Black, &script);
        let now = run.now + DurationMs(later);
        let replayed = replay(control.clone(), Side::Black, &run.events).expect("the log replays");
        prop_assert_eq!(&replayed, &run.last);
        let again = replay(control.clone(), Side::Black, &run.events).unwrap();
        prop_assert_eq!(again.reading(now), replayed.reading(now));
        let cut = split.index(run.events.len() + 1);
        let prefix = replay(control.clone(), Side::Black, &run.events[..cut]).unwrap();
        let resumed = run.events[cut..].iter().fold(prefix, |c, e| c.apply(e).unwrap());
        prop_assert_eq!(resumed.reading(now), run.last.reading(now));
        prop_assert_eq!(resumed.deadline(), run.last.deadline());
        prop_assert_eq!(resumed.flag(now), run.last.flag(now));
        prop_assert_eq!(resumed.next_call(now), run.last.next_call(now));
    }

    /// A client that lies about its lag gains at most its quota: each credit is within the quota it had, the
    /// total over n moves is at most `start + (n - 1) × gain`, no move costs less than zero, the flag never
    /// falls more than `max_grace` after the nominal end of time, and in absolute time the liar ends up
    /// with exactly its credits more than an honest twin with the same timestamps.
    #[test]
    fn a_lying_client_gains_at_most_its_lag_quota(
        main in 60_000..600_000i64,
        lag in lag_config(),
        lies in proptest::collection::vec((0..20_000i64, report(), 0..20_000i64), 1..80),
    ) {
        let control = TimeControl::absolute(DurationMs(main)).unwrap().with_lag(lag).unwrap();
        let start = ClockEvent::Started { at: Millis(0) };
        let mut liar = Clock::new(control.clone(), Side::Black).unwrap().apply(&start).unwrap();
        let mut twin = liar.clone();
        let (mut now, mut moves, mut credited, mut twin_credited) = (Millis(0), 0i64, DurationMs::ZERO, DurationMs::ZERO);
        for (think, claim, reply) in lies {
            // Black's turn: the nominal end is the bank's time after the turn start; grace on top.
            let since = now;
            let nominal_end = since + liar.bank(Side::Black).main;
            let deadline = liar.deadline().unwrap();
            prop_assert!(deadline <= nominal_end + lag.max_grace);
            prop_assert!(deadline - nominal_end <= liar.lag_quota(Side::Black));
            now = now + DurationMs(think);
            let quota = liar.lag_quota(Side::Black);
            let Ok(next) = liar.apply(&ClockEvent::Moved { side: Side::Black, at: now, report: claim }) else { break };
            let Ok(next_twin) = twin.apply(&moved(Side::Black, now)) else { break };
            let charge = next.last_move().unwrap();
            prop_assert!(charge.credit <= quota && charge.credit <= lag.cap);
            prop_assert!(charge.credit <= charge.elapsed && charge.charged >= DurationMs::ZERO);
            moves += 1;
            credited = credited + charge.credit;
            twin_credited = twin_credited + next_twin.last_move().unwrap().credit;
            prop_assert!(credited <= lag.start + lag.gain_per_move.times(moves - 1));
            prop_assert!(next.lag_quota(Side::Black) <= lag.cap);
            prop_assert_eq!(
                next.bank(Side::Black).main - next_twin.bank(Side::Black).main,
                credited - twin_credited
            );
            // White replies honestly.
            now = now + DurationMs(reply);
            let (Ok(l), Ok(t)) = (next.apply(&moved(Side::White, now)), next_twin.apply(&moved(Side::White, now))) else { break };
            liar = l;
            twin = t;
        }
    }
}
