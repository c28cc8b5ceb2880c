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

#[test]
fn results_entered_and_corrected_by_hand_round_trip_through_the_wire() {
    use crate::domain::{Actor, Command, EndReason, GameEvent, GameResult, Outcome};
    let referee = Actor::Referee("judge".into());
    let commands = [
        Command::Adjudicate { outcome: Outcome::WhiteWins, reason: EndReason::Resignation, note: "中盘".into() },
        Command::Adjudicate { outcome: Outcome::BlackWins, reason: EndReason::Forfeit, note: String::new() },
        Command::CorrectResult { outcome: Outcome::BlackWins, reason: EndReason::Score, note: "记录错误".into() },
        Command::CorrectResult { outcome: Outcome::NoResult, reason: EndReason::Referee, note: String::new() },
    ];
    for c in commands {
        let wire = super::command_to_pb("g", "c", "", &referee, &c);
        assert_eq!(super::command_from_pb(&wire).unwrap(), Some((referee.clone(), c.clone())), "{c:?}");
    }
    // A client from before the field sends no reason: a referee's ruling, as before.
    let mut old = super::command_to_pb("g", "c", "", &referee, &commands_old());
    if let Some(weiqi_proto::v1::game_command::Command::Referee(r)) = old.command.as_mut()
        && let Some(weiqi_proto::v1::referee_request::Action::Adjudicate(a)) = r.action.as_mut()
    {
        a.reason = 0;
    }
    let Some((_, Command::Adjudicate { reason, .. })) = super::command_from_pb(&old).unwrap() else {
        panic!("an adjudication")
    };
    assert_eq!(reason, EndReason::Referee);
    let event = GameEvent::ResultCorrected {
        previous: GameResult { outcome: Outcome::WhiteWins, reason: EndReason::Resignation, score: None },
        result: GameResult { outcome: Outcome::BlackWins, reason: EndReason::Forfeit, score: None },
        note: "recording error".into(),
        at: weiqi_clock::Millis(42),
    };
    assert_eq!(super::event_from_pb(&super::event_to_pb(&event)).unwrap(), event);
}

fn commands_old() -> crate::domain::Command {
    crate::domain::Command::Adjudicate {
        outcome: crate::domain::Outcome::Draw,
        reason: crate::domain::EndReason::Time,
        note: String::new(),
    }
}
