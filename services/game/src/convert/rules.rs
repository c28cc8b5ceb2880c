//! Rulesets, time controls, clock banks and readings.

use weiqi_clock::{Bank, DurationMs, OverrunRule, TimeControl, TimeSystem};
use weiqi_proto::v1 as pb;
use weiqi_rules::{CycleRuling, HandicapCompensation, IllegalMovePolicy, KoRule, Komi, Ruleset, Scoring, Suicide};

use super::DecodeError;
use crate::domain::{ClockSnapshot, SideClock};

/// Ruleset to wire. `preset` names the family, and every field is written out, so the ruleset reads back
/// exactly (a custom ruleset as its family's preset with the fields overridden).
pub fn ruleset_to_pb(r: &Ruleset) -> pb::Ruleset {
    use pb::ruleset as R;
    pb::Ruleset {
        preset: r.family.name().to_string(),
        ko: match r.ko {
            KoRule::Simple => R::KoRule::Simple,
            KoRule::PositionalSuperko => R::KoRule::PositionalSuperko,
            KoRule::SituationalSuperko => R::KoRule::SituationalSuperko,
        } as i32,
        scoring: scoring_to_pb(r.scoring) as i32,
        suicide: match r.suicide {
            Suicide::Forbidden => R::Suicide::Forbidden,
            Suicide::Allowed => R::Suicide::Allowed,
        } as i32,
        komi_half_points: r.komi.0,
        handicap_compensation: match r.handicap_compensation {
            HandicapCompensation::None => R::HandicapCompensation::None,
            HandicapCompensation::N => R::HandicapCompensation::N,
            HandicapCompensation::NMinusOne => R::HandicapCompensation::NMinusOne,
        } as i32,
        cycle: match r.cycle {
            CycleRuling::NoResult => R::CycleRuling::NoResult,
            CycleRuling::Draw => R::CycleRuling::Draw,
            CycleRuling::Replay => R::CycleRuling::Replay,
        } as i32,
        illegal_move: match r.illegal_move {
            IllegalMovePolicy::Refuse => R::IllegalMovePolicy::Refuse,
            IllegalMovePolicy::VoidAndForfeitTurn => R::IllegalMovePolicy::VoidAndForfeitTurn,
        } as i32,
        group_tax: r.group_tax,
        seated_stones: r.seated_stones,
        pass_stones: r.pass_stones,
    }
}

pub(crate) fn scoring_to_pb(s: Scoring) -> pb::ruleset::Scoring {
    match s {
        Scoring::AreaDameSplit => pb::ruleset::Scoring::AreaDameSplit,
        Scoring::Area => pb::ruleset::Scoring::Area,
        Scoring::Territory => pb::ruleset::Scoring::Territory,
        Scoring::Ing => pb::ruleset::Scoring::Ing,
    }
}

pub(crate) fn scoring_from_pb(s: pb::ruleset::Scoring) -> Option<Scoring> {
    Some(match s {
        pb::ruleset::Scoring::Unspecified => return None,
        pb::ruleset::Scoring::AreaDameSplit => Scoring::AreaDameSplit,
        pb::ruleset::Scoring::Area => Scoring::Area,
        pb::ruleset::Scoring::Territory => Scoring::Territory,
        pb::ruleset::Scoring::Ing => Scoring::Ing,
    })
}

/// An enum field of a ruleset: `None` for 0 (unspecified: the preset's value), the value, or an error
/// naming the field and the values allowed for a number the server does not know.
fn ruleset_enum<E: TryFrom<i32>>(field: &'static str, raw: i32, known: &str) -> Result<Option<E>, DecodeError> {
    if raw == 0 {
        return Ok(None);
    }
    E::try_from(raw).map(Some).map_err(|_| DecodeError {
        what: "ruleset",
        why: format!("{field} = {raw} is not a value this server knows ({known}, or 0 for the preset's)"),
    })
}

/// Ruleset from wire. Unspecified fields take the `preset`'s values (Chinese if none); an enum value the
/// server does not know is refused, never replaced by the preset's.
pub fn ruleset_from_pb(r: &pb::Ruleset) -> Result<Ruleset, DecodeError> {
    use pb::ruleset as R;
    let mut out = if r.preset.is_empty() {
        Ruleset::chinese()
    } else {
        Ruleset::preset(&r.preset).ok_or(DecodeError {
            what: "ruleset",
            why: format!("unknown preset {:?} (known: {})", r.preset, weiqi_rules::PRESET_NAMES.join(", ")),
        })?
    };
    if let Some(ko) = ruleset_enum::<R::KoRule>("ko", r.ko, "1 simple, 2 positional superko, 3 situational superko")? {
        out.ko = match ko {
            R::KoRule::Simple => KoRule::Simple,
            R::KoRule::PositionalSuperko => KoRule::PositionalSuperko,
            R::KoRule::SituationalSuperko | R::KoRule::Unspecified => KoRule::SituationalSuperko,
        };
    }
    if let Some(scoring) =
        ruleset_enum::<R::Scoring>("scoring", r.scoring, "1 area with dame split, 2 area, 3 territory, 4 Ing")?
    {
        out.scoring = scoring_from_pb(scoring).unwrap_or(out.scoring);
    }
    if let Some(suicide) = ruleset_enum::<R::Suicide>("suicide", r.suicide, "1 forbidden, 2 allowed")? {
        out.suicide = if suicide == R::Suicide::Allowed { Suicide::Allowed } else { Suicide::Forbidden };
    }
    if let Some(h) =
        ruleset_enum::<R::HandicapCompensation>("handicap_compensation", r.handicap_compensation, "1 none, 2 N, 3 N-1")?
    {
        out.handicap_compensation = match h {
            R::HandicapCompensation::N => HandicapCompensation::N,
            R::HandicapCompensation::NMinusOne => HandicapCompensation::NMinusOne,
            R::HandicapCompensation::None | R::HandicapCompensation::Unspecified => HandicapCompensation::None,
        };
    }
    if let Some(c) = ruleset_enum::<R::CycleRuling>("cycle", r.cycle, "1 no result, 2 draw, 3 replay")? {
        out.cycle = match c {
            R::CycleRuling::Draw => CycleRuling::Draw,
            R::CycleRuling::Replay => CycleRuling::Replay,
            R::CycleRuling::NoResult | R::CycleRuling::Unspecified => CycleRuling::NoResult,
        };
    }
    if let Some(i) =
        ruleset_enum::<R::IllegalMovePolicy>("illegal_move", r.illegal_move, "1 refuse, 2 void and forfeit the turn")?
    {
        out.illegal_move = match i {
            R::IllegalMovePolicy::VoidAndForfeitTurn => IllegalMovePolicy::VoidAndForfeitTurn,
            R::IllegalMovePolicy::Refuse | R::IllegalMovePolicy::Unspecified => IllegalMovePolicy::Refuse,
        };
    }
    out.komi = Komi(r.komi_half_points);
    out.group_tax = r.group_tax;
    out.seated_stones = r.seated_stones;
    out.pass_stones = r.pass_stones;
    Ok(out)
}

/// Time control to wire.
pub fn time_control_to_pb(t: &TimeControl) -> pb::TimeControl {
    use pb::time_control::{self as T, System};
    let system = match t.system {
        TimeSystem::NoClock => System::None(T::NoClock {}),
        TimeSystem::Absolute { main } => System::Absolute(T::Absolute { main_ms: main.0 }),
        TimeSystem::ChineseByoYomi { basic, reserved_minutes } => {
            System::Chinese(T::ChineseByoYomi { basic_ms: basic.0, reserved_minutes })
        }
        TimeSystem::JapaneseByoYomi { main, periods, period } => {
            System::Japanese(T::JapaneseByoYomi { main_ms: main.0, periods, period_ms: period.0 })
        }
        TimeSystem::MovesPerPeriod { main, moves, period } => {
            System::MovesPerPeriod(T::MovesPerPeriod { main_ms: main.0, moves, period_ms: period.0 })
        }
        TimeSystem::Canadian { main, moves, period } => {
            System::Canadian(T::Canadian { main_ms: main.0, moves, period_ms: period.0 })
        }
        TimeSystem::Fischer { initial, increment, cap } => System::Fischer(T::Fischer {
            initial_ms: initial.0,
            increment_ms: increment.0,
            cap_ms: cap.map_or(0, |c| c.0),
        }),
    };
    pb::TimeControl { system: Some(system), pass_on_overrun: t.overrun == OverrunRule::PassOnRequest }
}

/// Time control from wire (absent: no clock). Validated by the clock core.
pub fn time_control_from_pb(t: Option<&pb::TimeControl>) -> Result<TimeControl, DecodeError> {
    use pb::time_control::System;
    let Some(t) = t else { return Ok(TimeControl::no_clock()) };
    let d = DurationMs;
    let system = match &t.system {
        None | Some(System::None(_)) => TimeSystem::NoClock,
        Some(System::Absolute(a)) => TimeSystem::Absolute { main: d(a.main_ms) },
        Some(System::Chinese(c)) => {
            TimeSystem::ChineseByoYomi { basic: d(c.basic_ms), reserved_minutes: c.reserved_minutes }
        }
        Some(System::Japanese(j)) => {
            TimeSystem::JapaneseByoYomi { main: d(j.main_ms), periods: j.periods, period: d(j.period_ms) }
        }
        Some(System::MovesPerPeriod(m)) => {
            TimeSystem::MovesPerPeriod { main: d(m.main_ms), moves: m.moves, period: d(m.period_ms) }
        }
        Some(System::Canadian(c)) => {
            TimeSystem::Canadian { main: d(c.main_ms), moves: c.moves, period: d(c.period_ms) }
        }
        Some(System::Fischer(f)) => TimeSystem::Fischer {
            initial: d(f.initial_ms),
            increment: d(f.increment_ms),
            cap: (f.cap_ms > 0).then_some(d(f.cap_ms)),
        },
    };
    let control = TimeControl::new(system).map_err(|e| DecodeError { what: "time control", why: e.to_string() })?;
    if t.pass_on_overrun {
        control
            .with_overrun(OverrunRule::PassOnRequest)
            .map_err(|e| DecodeError { what: "time control", why: e.to_string() })
    } else {
        Ok(control)
    }
}

pub(crate) fn bank_to_pb(b: &Bank, periods_left: u32) -> pb::ClockSide {
    pb::ClockSide {
        main_ms: b.main.0,
        periods_left,
        period_left_ms: b.period_left.0,
        moves_left: b.moves_left,
        period: b.period,
    }
}

pub(crate) fn bank_from_pb(c: &pb::ClockSide) -> Bank {
    Bank {
        main: DurationMs(c.main_ms),
        period: c.period,
        period_left: DurationMs(c.period_left_ms),
        moves_left: c.moves_left,
    }
}

pub(crate) fn snapshot_to_pb(s: &Option<ClockSnapshot>) -> Option<pb::ClockReading> {
    let side = |c: &SideClock| pb::ClockSide {
        main_ms: c.main.0,
        periods_left: c.periods_left,
        period_left_ms: c.period_left.0,
        moves_left: c.moves_left,
        period: 0,
    };
    s.as_ref().map(|s| pb::ClockReading { black: Some(side(&s.black)), white: Some(side(&s.white)) })
}

pub(crate) fn snapshot_from_pb(r: &Option<pb::ClockReading>) -> Option<ClockSnapshot> {
    let side = |c: &Option<pb::ClockSide>| {
        c.as_ref()
            .map(|c| SideClock {
                main: DurationMs(c.main_ms),
                periods_left: c.periods_left,
                period_left: DurationMs(c.period_left_ms),
                moves_left: c.moves_left,
            })
            .unwrap_or_default()
    };
    r.as_ref().map(|r| ClockSnapshot { black: side(&r.black), white: side(&r.white) })
}
