//! Round trips through the wire.

use weiqi_clock::{DurationMs, TimeControl};
use weiqi_rules::{Komi, Ruleset};

use super::{ruleset_from_pb, ruleset_to_pb, time_control_from_pb, time_control_to_pb};

#[test]
fn rulesets_round_trip_through_the_wire() {
    for name in weiqi_rules::PRESET_NAMES {
        let r = Ruleset::preset(name).unwrap().with_komi(Komi(11));
        assert_eq!(ruleset_from_pb(&ruleset_to_pb(&r)).unwrap(), r, "{name}");
    }
}

#[test]
fn time_controls_round_trip_through_the_wire() {
    let controls = [
        TimeControl::no_clock(),
        TimeControl::absolute(DurationMs::from_mins(30)).unwrap(),
        TimeControl::chinese(DurationMs::from_hours(2), 5).unwrap(),
        TimeControl::japanese(DurationMs::from_hours(1), 5, DurationMs::from_secs(30)).unwrap(),
        TimeControl::moves_per_period(DurationMs::from_hours(1), 15, DurationMs::from_mins(10)).unwrap(),
        TimeControl::canadian(DurationMs::from_mins(10), 25, DurationMs::from_mins(5)).unwrap(),
    ];
    for c in controls {
        let back = time_control_from_pb(Some(&time_control_to_pb(&c))).unwrap();
        assert_eq!(back.system, c.system);
    }
}
