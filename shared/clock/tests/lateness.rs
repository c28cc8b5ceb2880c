//! Lateness (Art. 22.1–4): given arrivals, when deciding at an instant, then a ruling and its clock events.

mod common;

use common::*;
use weiqi_clock::{
    BySide, ClockEvent, DurationMs, Expiry, ExpiryOutcome, LatePenalty, LatenessConfig, LatenessRuling, Millis, Side,
    TimeControl, Venue, decide_lateness, rule_absent_expiry,
};

use Side::{Black, White};

const SCHEDULED: Millis = Millis(1_000_000);

fn after(d: DurationMs) -> Millis {
    SCHEDULED + d
}

fn arrivals(black: Option<DurationMs>, white: Option<DurationMs>) -> BySide<Option<Millis>> {
    BySide::new(black.map(after), white.map(after))
}

fn two_hours() -> TimeControl {
    exact(TimeControl::national(DurationMs::from_hours(2)))
}

fn decide(
    config: LatenessConfig,
    control: &TimeControl,
    arrived: BySide<Option<Millis>>,
    now: Millis,
) -> LatenessRuling {
    decide_lateness(&config, control, SCHEDULED, arrived, now)
}

#[test]
fn both_on_time_the_clock_starts_as_scheduled() {
    let ruling =
        decide(LatenessConfig::SAME_VENUE, &two_hours(), BySide::new(Some(Millis(0)), Some(Millis(5))), SCHEDULED);
    assert_eq!(ruling, LatenessRuling::Start { at: SCHEDULED, deductions: BySide::both(DurationMs::ZERO) });
    assert_eq!(ruling.events(), vec![ClockEvent::Started { at: SCHEDULED }]);
    // Before the scheduled time there is nothing to do.
    assert_eq!(
        decide(LatenessConfig::SAME_VENUE, &two_hours(), BySide::new(Some(Millis(0)), Some(Millis(5))), Millis(10)),
        LatenessRuling::Wait { until: SCHEDULED }
    );
}

#[test]
fn twice_the_late_time_is_deducted_and_the_clock_starts_on_arrival() {
    let control = two_hours();
    // White arrives 10 minutes late; Black was there on time.
    let ruling =
        decide(LatenessConfig::SAME_VENUE, &control, arrivals(Some(DurationMs::ZERO), Some(mins(10))), after(mins(10)));
    let deductions = BySide::new(DurationMs::ZERO, mins(20));
    assert_eq!(ruling, LatenessRuling::Start { at: after(mins(10)), deductions });
    assert_eq!(
        ruling.events(),
        vec![
            ClockEvent::LatenessDeducted { side: White, amount: mins(20) },
            ClockEvent::Started { at: after(mins(10)) }
        ]
    );
    let clock = given(&control, &ruling.events());
    assert_eq!(clock.bank(White).main, mins(115) - mins(20));
    assert_eq!(clock.bank(Black).main, mins(115));
    assert_eq!(clock.deadline(), Some(after(mins(10)) + DurationMs::from_hours(2)));
}

#[test]
fn the_same_venue_limit_is_fifteen_minutes_inclusive() {
    let control = two_hours();
    let on_time = Some(DurationMs::ZERO);
    let at_limit = decide(LatenessConfig::SAME_VENUE, &control, arrivals(on_time, Some(mins(15))), after(mins(15)));
    assert_eq!(
        at_limit,
        LatenessRuling::Start { at: after(mins(15)), deductions: BySide::new(DurationMs::ZERO, mins(30)) }
    );
    let past = decide(
        LatenessConfig::SAME_VENUE,
        &control,
        arrivals(on_time, Some(mins(15) + ms(1))),
        after(mins(15) + ms(1)),
    );
    assert_eq!(past, LatenessRuling::Forfeit { loser: White });
    assert!(past.events().is_empty());
}

#[test]
fn an_absent_player_forfeits_once_the_limit_has_passed() {
    let control = two_hours();
    let present = Some(DurationMs::ZERO);
    let waiting = decide(LatenessConfig::SAME_VENUE, &control, arrivals(present, None), after(mins(15)));
    assert_eq!(waiting, LatenessRuling::Wait { until: after(mins(15) + ms(1)) });
    let forfeit = decide(LatenessConfig::SAME_VENUE, &control, arrivals(present, None), after(mins(15) + ms(1)));
    assert_eq!(forfeit, LatenessRuling::Forfeit { loser: White });
    // An arrival recorded after "now" is not yet known.
    let future = decide(LatenessConfig::SAME_VENUE, &control, arrivals(present, Some(mins(20))), after(mins(5)));
    assert_eq!(future, LatenessRuling::Wait { until: after(mins(15) + ms(1)) });
}

#[test]
fn separate_venue_allows_an_hour() {
    let control = exact(TimeControl::national(DurationMs::from_hours(3)));
    let ruling = decide(
        LatenessConfig::SEPARATE_VENUE,
        &control,
        arrivals(Some(mins(59)), Some(DurationMs::ZERO)),
        after(mins(59)),
    );
    assert_eq!(
        ruling,
        LatenessRuling::Start { at: after(mins(59)), deductions: BySide::new(mins(118), DurationMs::ZERO) }
    );
    let ruling =
        decide(LatenessConfig::SEPARATE_VENUE, &control, arrivals(None, Some(DurationMs::ZERO)), after(mins(61)));
    assert_eq!(ruling, LatenessRuling::Forfeit { loser: Black });
}

#[test]
fn both_late_are_both_penalised() {
    let control = two_hours();
    let ruling = decide(LatenessConfig::SAME_VENUE, &control, arrivals(Some(mins(4)), Some(mins(7))), after(mins(7)));
    assert_eq!(ruling, LatenessRuling::Start { at: after(mins(7)), deductions: BySide::new(mins(8), mins(14)) });
    let clock = given(&control, &ruling.events());
    assert_eq!((clock.bank(Black).main, clock.bank(White).main), (mins(107), mins(101)));
}

#[test]
fn both_late_beyond_the_limit_both_lose() {
    let control = two_hours();
    // Black is out; White may still come within the limit (then only Black forfeits)…
    let ruling = decide(LatenessConfig::SAME_VENUE, &control, arrivals(None, None), after(mins(15)));
    assert_eq!(ruling, LatenessRuling::Wait { until: after(mins(15) + ms(1)) });
    let ruling = decide(LatenessConfig::SAME_VENUE, &control, arrivals(Some(mins(20)), None), after(mins(20)));
    assert_eq!(ruling, LatenessRuling::BothForfeit);
    let ruling = decide(LatenessConfig::SAME_VENUE, &control, arrivals(None, Some(mins(14))), after(mins(16)));
    assert_eq!(ruling, LatenessRuling::Forfeit { loser: Black });
}

#[test]
fn a_deduction_that_uses_all_of_an_absolute_time_is_a_forfeit_down_to_both() {
    let control = exact(TimeControl::absolute(mins(30)));
    let ruling =
        decide(LatenessConfig::SAME_VENUE, &control, arrivals(Some(mins(14)), Some(DurationMs::ZERO)), after(mins(14)));
    assert_eq!(
        ruling,
        LatenessRuling::Start { at: after(mins(14)), deductions: BySide::new(mins(28), DurationMs::ZERO) }
    );
    let ruling =
        decide(LatenessConfig::SAME_VENUE, &control, arrivals(Some(mins(15)), Some(DurationMs::ZERO)), after(mins(15)));
    assert_eq!(ruling, LatenessRuling::Forfeit { loser: Black });
    let ruling =
        decide(LatenessConfig::SAME_VENUE, &control, arrivals(Some(mins(15)), Some(mins(15))), after(mins(15)));
    assert_eq!(ruling, LatenessRuling::BothForfeit);
}

#[test]
fn a_deduction_stops_at_the_byo_yomi() {
    // 20 minutes with 1 reserved minute: 19 free minutes. 14 minutes late costs 28: all 19 free minutes go,
    // the reserved minute stays.
    let control = exact(TimeControl::chinese(mins(20), 1));
    let ruling =
        decide(LatenessConfig::SAME_VENUE, &control, arrivals(Some(mins(14)), Some(DurationMs::ZERO)), after(mins(14)));
    let clock = given(&control, &ruling.events());
    assert_eq!(clock.bank(Black).main, DurationMs::ZERO);
    assert_eq!(clock.bank(Black).periods_left(&control), 1);
    assert_eq!(clock.deadline(), Some(after(mins(15))));
}

#[test]
fn seed_001_local_event_forfeits_after_five_minutes_and_deducts_nothing_extra() {
    let control = TimeControl::seed_001_local();
    let ruling = decide(
        LatenessConfig::SEED_001_LOCAL,
        &control,
        arrivals(Some(mins(3)), Some(DurationMs::ZERO)),
        after(mins(3)),
    );
    assert_eq!(
        ruling,
        LatenessRuling::Start { at: after(mins(3)), deductions: BySide::new(mins(3), DurationMs::ZERO) }
    );
    let ruling = decide(
        LatenessConfig::SEED_001_LOCAL,
        &control,
        arrivals(None, Some(DurationMs::ZERO)),
        after(mins(5) + ms(1)),
    );
    assert_eq!(ruling, LatenessRuling::Forfeit { loser: Black });
}

#[test]
fn in_fast_games_without_basic_time_the_absent_players_byo_yomi_runs() {
    let control = exact(TimeControl::japanese(DurationMs::ZERO, 1, secs(30)));
    let config = LatenessConfig::for_control(Venue::Same, &control);
    assert_eq!(config.penalty, LatePenalty::ByoYomiRuns);
    assert_eq!(LatenessConfig::for_control(Venue::Same, &two_hours()), LatenessConfig::SAME_VENUE);
    // At the scheduled time the clock starts, whoever is there.
    let ruling = decide(config, &control, arrivals(None, Some(DurationMs::ZERO)), SCHEDULED);
    assert_eq!(ruling, LatenessRuling::Start { at: SCHEDULED, deductions: BySide::both(DurationMs::ZERO) });
    let clock = given(&control, &ruling.events());
    // Black does not come: the byo-yomi runs out and Black forfeits.
    let flag = clock.flag(after(secs(30))).expect("Black's byo-yomi ran out");
    assert_eq!(flag, Expiry { side: Black, deadline: after(secs(30)), outcome: ExpiryOutcome::Loss });
    assert_eq!(
        rule_absent_expiry(&flag, arrivals(None, Some(DurationMs::ZERO))),
        Some(LatenessRuling::Forfeit { loser: Black })
    );
    assert_eq!(rule_absent_expiry(&flag, arrivals(None, None)), Some(LatenessRuling::BothForfeit));
    // Black sits down after 20 s and plays in time: the game goes on; a later flag is an ordinary one.
    let clock = clock.apply(&moved(Black, after(secs(25)))).expect("in time");
    assert_eq!(clock.to_move(), White);
    assert_eq!(rule_absent_expiry(&flag, arrivals(Some(secs(20)), Some(DurationMs::ZERO))), None);
}
