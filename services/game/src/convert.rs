//! Domain ⇄ `weiqi.v1` protobuf, written once. Nothing else in this crate touches protobuf types.

use weiqi_clock::{Bank, DurationMs, LagReport, Millis, OverrunRule, TimeControl, TimeSystem};
use weiqi_proto::v1 as pb;
use weiqi_rules::{
    Color, CycleRuling, HalfPoints, HandicapCompensation, IllegalMovePolicy, KoRule, Komi, Move, Point, Ruleset, Score,
    ScoreResult, Scoring, SideCount, Suicide,
};

use crate::domain::{
    Actor, ClockSnapshot, ColourMethod, Command, EndReason, GameEvent, GameResult, GameSetup, GameState, Outcome,
    Phase, PlayerId, PlayerRef, SideClock, TournamentRef,
};

/// A message that does not decode into the domain.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot decode {what}: {why}")]
pub struct DecodeError {
    /// What was being decoded.
    pub what: &'static str,
    /// Why it failed.
    pub why: String,
}

fn err<T>(what: &'static str, why: impl Into<String>) -> Result<T, DecodeError> {
    Err(DecodeError { what, why: why.into() })
}

// ---- small types ----

/// Colour to wire.
pub fn color_to_pb(c: Color) -> i32 {
    match c {
        Color::Black => pb::Color::Black as i32,
        Color::White => pb::Color::White as i32,
    }
}

/// Colour from wire.
pub fn color_from_pb(c: i32) -> Result<Color, DecodeError> {
    match pb::Color::try_from(c) {
        Ok(pb::Color::Black) => Ok(Color::Black),
        Ok(pb::Color::White) => Ok(Color::White),
        _ => err("colour", format!("{c} is not black or white")),
    }
}

/// Point to wire.
pub fn point_to_pb(p: Point) -> pb::Point {
    pb::Point { x: p.x as u32, y: p.y as u32 }
}

/// Point from wire (range checked against the board by the domain).
pub fn point_from_pb(p: &pb::Point) -> Result<Point, DecodeError> {
    if p.x > 255 || p.y > 255 {
        return err("point", format!("({}, {}) is off every board", p.x, p.y));
    }
    Ok(Point::new(p.x as u8, p.y as u8))
}

fn points_from_pb(ps: &[pb::Point]) -> Result<Vec<Point>, DecodeError> {
    ps.iter().map(point_from_pb).collect()
}

fn lag_to_pb(l: &Option<LagReport>) -> Option<pb::LagReport> {
    l.map(|l| pb::LagReport {
        kind: Some(match l {
            LagReport::Lag(d) => pb::lag_report::Kind::LagMs(d.0),
            LagReport::MoveTime(d) => pb::lag_report::Kind::MoveTimeMs(d.0),
        }),
    })
}

/// Lag report from wire; negative values are dropped (the clock would refuse them).
pub fn lag_from_pb(l: &Option<pb::LagReport>) -> Option<LagReport> {
    match l.as_ref()?.kind? {
        pb::lag_report::Kind::LagMs(v) if v >= 0 => Some(LagReport::Lag(DurationMs(v))),
        pb::lag_report::Kind::MoveTimeMs(v) if v >= 0 => Some(LagReport::MoveTime(DurationMs(v))),
        _ => None,
    }
}

/// Actor to wire.
pub fn actor_to_pb(a: &Actor) -> pb::Actor {
    use pb::actor::Kind;
    let (kind, id) = match a {
        Actor::Player(p) => (Kind::Player, p.0.clone()),
        Actor::Referee(s) => (Kind::Referee, s.clone()),
        Actor::ChiefReferee(s) => (Kind::ChiefReferee, s.clone()),
        Actor::Organiser(s) => (Kind::Organiser, s.clone()),
        Actor::System(s) => (Kind::System, s.clone()),
    };
    pb::Actor { kind: kind as i32, id }
}

/// Actor from wire.
pub fn actor_from_pb(a: &pb::Actor) -> Result<Actor, DecodeError> {
    use pb::actor::Kind;
    let id = a.id.clone();
    Ok(match Kind::try_from(a.kind) {
        Ok(Kind::Player) => Actor::Player(PlayerId(id)),
        Ok(Kind::Referee) => Actor::Referee(id),
        Ok(Kind::ChiefReferee) => Actor::ChiefReferee(id),
        Ok(Kind::Organiser) => Actor::Organiser(id),
        Ok(Kind::System) => Actor::System(id),
        _ => return err("actor", "unspecified kind"),
    })
}

// ---- ruleset and time ----

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

fn scoring_to_pb(s: Scoring) -> pb::ruleset::Scoring {
    match s {
        Scoring::AreaDameSplit => pb::ruleset::Scoring::AreaDameSplit,
        Scoring::Area => pb::ruleset::Scoring::Area,
        Scoring::Territory => pb::ruleset::Scoring::Territory,
        Scoring::Ing => pb::ruleset::Scoring::Ing,
    }
}

fn scoring_from_pb(s: pb::ruleset::Scoring) -> Option<Scoring> {
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

fn player_to_pb(p: &PlayerRef) -> pb::PlayerRef {
    pb::PlayerRef { id: p.id.0.clone(), name: p.name.clone(), rank: p.rank.clone() }
}

fn player_from_pb(p: Option<&pb::PlayerRef>) -> PlayerRef {
    p.map(|p| PlayerRef { id: PlayerId(p.id.clone()), name: p.name.clone(), rank: p.rank.clone() }).unwrap_or_default()
}

fn bank_to_pb(b: &Bank, periods_left: u32) -> pb::ClockSide {
    pb::ClockSide {
        main_ms: b.main.0,
        periods_left,
        period_left_ms: b.period_left.0,
        moves_left: b.moves_left,
        period: b.period,
    }
}

fn bank_from_pb(c: &pb::ClockSide) -> Bank {
    Bank {
        main: DurationMs(c.main_ms),
        period: c.period,
        period_left: DurationMs(c.period_left_ms),
        moves_left: c.moves_left,
    }
}

fn snapshot_to_pb(s: &Option<ClockSnapshot>) -> Option<pb::ClockReading> {
    let side = |c: &SideClock| pb::ClockSide {
        main_ms: c.main.0,
        periods_left: c.periods_left,
        period_left_ms: c.period_left.0,
        moves_left: c.moves_left,
        period: 0,
    };
    s.as_ref().map(|s| pb::ClockReading { black: Some(side(&s.black)), white: Some(side(&s.white)) })
}

fn snapshot_from_pb(r: &Option<pb::ClockReading>) -> Option<ClockSnapshot> {
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

// ---- setup ----

/// The setup from a create request (validated later by the decider).
pub fn setup_from_request(r: &pb::CreateGameRequest) -> Result<GameSetup, DecodeError> {
    let mut ruleset = match &r.ruleset {
        Some(rs) => ruleset_from_pb(rs)?,
        None if r.rules.is_empty() => Ruleset::chinese(),
        None => Ruleset::preset(&r.rules)
            .ok_or(DecodeError { what: "rules", why: format!("unknown ruleset {:?}", r.rules) })?,
    };
    if let Some(k) = r.komi_half_points {
        ruleset.komi = Komi(k);
    } else if r.handicap >= 1 {
        ruleset.komi = Komi(0);
    }
    let sizes = weiqi_rules::MIN_SIZE..=weiqi_rules::MAX_SIZE;
    if !sizes.contains(&u8::try_from(r.size).unwrap_or(u8::MAX)) {
        return err(
            "setup",
            format!(
                "size = {} is out of range: {} to {} (19 for the standard board)",
                r.size,
                sizes.start(),
                sizes.end()
            ),
        );
    }
    if r.handicap > 99 {
        return err("setup", format!("handicap = {} is out of range: 0 to 99 stones", r.handicap));
    }
    let colour_method = match pb::game_created::ColourMethod::try_from(r.colour_method) {
        Ok(pb::game_created::ColourMethod::Nigiri) => ColourMethod::Nigiri,
        _ => ColourMethod::Fixed,
    };
    Ok(GameSetup {
        ruleset,
        size: r.size as u8,
        handicap: r.handicap as u8,
        handicap_points: points_from_pb(&r.handicap_points)?,
        first: player_from_pb(r.first.as_ref()),
        second: player_from_pb(r.second.as_ref()),
        colour_method,
        time_control: time_control_from_pb(r.time_control.as_ref())?,
        tournament: (!r.tournament_id.is_empty()).then(|| TournamentRef {
            id: r.tournament_id.clone(),
            round: r.round,
            board: r.board,
        }),
        event_id: (!r.event_id.is_empty()).then(|| r.event_id.clone()),
        scheduled_start: (r.scheduled_start_ms != 0).then_some(Millis(r.scheduled_start_ms)),
        rated: r.rated,
        start_immediately: r.start,
        lateness_limit: if r.lateness_limit_ms > 0 {
            DurationMs(r.lateness_limit_ms)
        } else {
            DurationMs::from_hours(1)
        },
    })
}

fn setup_to_pb(s: &GameSetup) -> pb::GameCreated {
    pb::GameCreated {
        ruleset: Some(ruleset_to_pb(&s.ruleset)),
        size: s.size as u32,
        handicap: s.handicap as u32,
        free_handicap: !s.handicap_points.is_empty(),
        first: Some(player_to_pb(&s.first)),
        second: Some(player_to_pb(&s.second)),
        time_control: Some(time_control_to_pb(&s.time_control)),
        tournament_id: s.tournament.as_ref().map(|t| t.id.clone()).unwrap_or_default(),
        round: s.tournament.as_ref().map_or(0, |t| t.round),
        board: s.tournament.as_ref().map_or(0, |t| t.board),
        event_id: s.event_id.clone().unwrap_or_default(),
        scheduled_start_ms: s.scheduled_start.map_or(0, |m| m.0),
        rated: s.rated,
        colour_method: match s.colour_method {
            ColourMethod::Fixed => pb::game_created::ColourMethod::Fixed,
            ColourMethod::Nigiri => pb::game_created::ColourMethod::Nigiri,
        } as i32,
        lateness_limit_ms: s.lateness_limit.0,
        handicap_points: s.handicap_points.iter().copied().map(point_to_pb).collect(),
        start_immediately: s.start_immediately,
    }
}

fn setup_from_pb(c: &pb::GameCreated) -> Result<GameSetup, DecodeError> {
    Ok(GameSetup {
        ruleset: ruleset_from_pb(
            c.ruleset.as_ref().ok_or(DecodeError { what: "GameCreated", why: "no ruleset".into() })?,
        )?,
        size: u8::try_from(c.size).map_err(|_| DecodeError { what: "GameCreated", why: "size".into() })?,
        handicap: u8::try_from(c.handicap).map_err(|_| DecodeError { what: "GameCreated", why: "handicap".into() })?,
        handicap_points: points_from_pb(&c.handicap_points)?,
        first: player_from_pb(c.first.as_ref()),
        second: player_from_pb(c.second.as_ref()),
        colour_method: match pb::game_created::ColourMethod::try_from(c.colour_method) {
            Ok(pb::game_created::ColourMethod::Nigiri) => ColourMethod::Nigiri,
            _ => ColourMethod::Fixed,
        },
        time_control: time_control_from_pb(c.time_control.as_ref())?,
        tournament: (!c.tournament_id.is_empty()).then(|| TournamentRef {
            id: c.tournament_id.clone(),
            round: c.round,
            board: c.board,
        }),
        event_id: (!c.event_id.is_empty()).then(|| c.event_id.clone()),
        scheduled_start: (c.scheduled_start_ms != 0).then_some(Millis(c.scheduled_start_ms)),
        rated: c.rated,
        start_immediately: c.start_immediately,
        lateness_limit: DurationMs(c.lateness_limit_ms),
    })
}

// ---- results and scores ----

fn outcome_to_pb(o: Outcome) -> pb::game_result::Outcome {
    use pb::game_result::Outcome as O;
    match o {
        Outcome::BlackWins => O::BlackWins,
        Outcome::WhiteWins => O::WhiteWins,
        Outcome::Draw => O::Draw,
        Outcome::BothLose => O::BothLose,
        Outcome::NoResult => O::NoResult,
        Outcome::Replay => O::Replay,
    }
}

/// Outcome from wire.
pub fn outcome_from_pb(o: i32) -> Result<Outcome, DecodeError> {
    use pb::game_result::Outcome as O;
    Ok(match O::try_from(o) {
        Ok(O::BlackWins) => Outcome::BlackWins,
        Ok(O::WhiteWins) => Outcome::WhiteWins,
        Ok(O::Draw) => Outcome::Draw,
        Ok(O::BothLose) => Outcome::BothLose,
        Ok(O::NoResult) => Outcome::NoResult,
        Ok(O::Replay) => Outcome::Replay,
        _ => return err("outcome", "unspecified"),
    })
}

fn reason_to_pb(r: EndReason) -> pb::game_result::Reason {
    use pb::game_result::Reason as R;
    match r {
        EndReason::Score => R::Score,
        EndReason::Resignation => R::Resignation,
        EndReason::Time => R::Time,
        EndReason::Forfeit => R::Forfeit,
        EndReason::Warnings => R::Warnings,
        EndReason::Referee => R::Referee,
        EndReason::Lateness => R::Lateness,
        EndReason::Cycle => R::Cycle,
    }
}

fn reason_from_pb(r: i32) -> Result<EndReason, DecodeError> {
    use pb::game_result::Reason as R;
    Ok(match R::try_from(r) {
        Ok(R::Score) => EndReason::Score,
        Ok(R::Resignation) => EndReason::Resignation,
        Ok(R::Time) => EndReason::Time,
        Ok(R::Forfeit) => EndReason::Forfeit,
        Ok(R::Warnings) => EndReason::Warnings,
        Ok(R::Referee) => EndReason::Referee,
        Ok(R::Lateness) => EndReason::Lateness,
        Ok(R::Cycle) => EndReason::Cycle,
        _ => return err("end reason", "unspecified"),
    })
}

/// The result on the wire, with its SGF and Chinese forms.
pub fn result_to_pb(r: &GameResult) -> pb::GameResult {
    let margin = r.score.as_ref().map_or(0, |s| s.result.margin.0.unsigned_abs());
    pb::GameResult {
        outcome: outcome_to_pb(r.outcome) as i32,
        reason: reason_to_pb(r.reason) as i32,
        margin_half_points: margin,
        sgf: r.to_sgf(),
        stones: r.score.as_ref().map(|s| s.result.in_stones()).unwrap_or_default(),
    }
}

fn side_count_to_pb(s: &SideCount) -> pb::score_detail::Side {
    pb::score_detail::Side {
        stones: s.stones,
        territory: s.territory,
        prisoners: s.prisoners,
        dead: s.dead,
        seki_eyes: s.seki_eyes,
        groups: s.groups,
    }
}

fn side_count_from_pb(s: &Option<pb::score_detail::Side>) -> SideCount {
    s.as_ref()
        .map(|s| SideCount {
            stones: s.stones,
            territory: s.territory,
            prisoners: s.prisoners,
            dead: s.dead,
            seki_eyes: s.seki_eyes,
            groups: s.groups,
        })
        .unwrap_or_default()
}

/// The count on the wire.
pub fn score_to_pb(s: &Score) -> pb::ScoreDetail {
    pb::ScoreDetail {
        black: Some(side_count_to_pb(&s.black)),
        white: Some(side_count_to_pb(&s.white)),
        dame: s.dame,
        komi_half_points: s.komi.0,
        handicap_compensation_half_points: s.handicap_compensation.0,
        black_warnings: s.warnings[0],
        white_warnings: s.warnings[1],
        black_total_half_points: s.black_total.0,
        white_total_half_points: s.white_total.0,
        black_area_halves: s.black_area_halves(),
        white_area_halves: s.white_area_halves(),
        scoring: scoring_to_pb(s.scoring) as i32,
    }
}

fn score_from_pb(s: &pb::ScoreDetail) -> Score {
    let scoring =
        pb::ruleset::Scoring::try_from(s.scoring).ok().and_then(scoring_from_pb).unwrap_or(Scoring::AreaDameSplit);
    let diff = i64::from(s.black_total_half_points) - i64::from(s.white_total_half_points);
    Score {
        scoring,
        black: side_count_from_pb(&s.black),
        white: side_count_from_pb(&s.white),
        dame: s.dame,
        komi: Komi(s.komi_half_points),
        handicap_compensation: HalfPoints(s.handicap_compensation_half_points),
        warnings: [s.black_warnings, s.white_warnings],
        black_total: HalfPoints(s.black_total_half_points),
        white_total: HalfPoints(s.white_total_half_points),
        result: ScoreResult {
            winner: match diff.signum() {
                1 => Some(Color::Black),
                -1 => Some(Color::White),
                _ if scoring == Scoring::Ing => Some(Color::Black),
                _ => None,
            },
            margin: HalfPoints::saturating(diff.abs()),
        },
    }
}

// ---- events ----

/// A domain event on the wire.
pub fn event_to_pb(e: &GameEvent) -> pb::GameEvent {
    use pb::game_event::Kind as K;
    let kind = match e {
        GameEvent::Created(s) => K::Created(setup_to_pb(s)),
        GameEvent::NigiriCommitted { holder, commitment, secret } => K::NigiriCommitted(pb::NigiriCommitted {
            holder: holder.0.clone(),
            commitment: commitment.to_vec(),
            secret: secret.to_vec(),
        }),
        GameEvent::NigiriGuessed { guesser, even } => {
            K::NigiriGuessed(pb::NigiriGuessed { guesser: guesser.0.clone(), even: *even })
        }
        GameEvent::NigiriRevealed { secret, stones, guess_correct } => K::NigiriRevealed(pb::NigiriRevealed {
            secret: secret.to_vec(),
            stones: *stones,
            guess_correct: *guess_correct,
        }),
        GameEvent::ColoursDecided { black, white, method } => K::ColoursDecided(pb::ColoursDecided {
            black: black.0.clone(),
            white: white.0.clone(),
            method: match method {
                ColourMethod::Fixed => pb::colours_decided::Method::Fixed,
                ColourMethod::Nigiri => pb::colours_decided::Method::Nigiri,
            } as i32,
        }),
        GameEvent::HandicapPlaced { points } => {
            K::HandicapPlaced(pb::HandicapPlaced { points: points.iter().copied().map(point_to_pb).collect() })
        }
        GameEvent::Started { at } => K::Started(pb::GameStarted { at_ms: at.0 }),
        GameEvent::StonePlayed {
            color,
            point,
            captures,
            suicided,
            hash,
            number,
            at,
            lag,
            cycle,
            from_sealed,
            clock,
        } => K::StonePlayed(pb::StonePlayed {
            color: color_to_pb(*color),
            point: Some(point_to_pb(*point)),
            captures: captures.iter().copied().map(point_to_pb).collect(),
            position_hash: *hash,
            move_number: *number,
            at_ms: at.0,
            clock: snapshot_to_pb(clock),
            lag: lag_to_pb(lag),
            cycle: *cycle,
            from_sealed: *from_sealed,
            suicided: suicided.iter().copied().map(point_to_pb).collect(),
        }),
        GameEvent::Passed { color, number, at, lag, clock } => K::Passed(pb::Passed {
            color: color_to_pb(*color),
            move_number: *number,
            at_ms: at.0,
            clock: snapshot_to_pb(clock),
            lag: lag_to_pb(lag),
        }),
        GameEvent::Resigned { color, at } => K::Resigned(pb::Resigned { color: color_to_pb(*color), at_ms: at.0 }),
        GameEvent::WarningIssued { color, reason, count } => {
            K::WarningIssued(pb::WarningIssued { color: color_to_pb(*color), reason: reason.clone(), count: *count })
        }
        GameEvent::ColoursSwapped => K::ColoursSwapped(pb::ColoursSwapped::default()),
        GameEvent::MoveVoided { color, mv, reason, taken_back, at } => K::MoveVoided(pb::MoveVoided {
            color: color_to_pb(*color),
            point: match mv {
                Move::Play(p) => Some(point_to_pb(*p)),
                Move::Pass => None,
            },
            reason: reason.clone(),
            taken_back: *taken_back,
            at_ms: at.0,
        }),
        GameEvent::Paused { reason, at } => K::Paused(pb::Paused { reason: reason.clone(), at_ms: at.0 }),
        GameEvent::Resumed { at } => K::Resumed(pb::Resumed { at_ms: at.0 }),
        GameEvent::Adjourned { sealer, sealed, at, lag } => K::Adjourned(pb::Adjourned {
            sealer: color_to_pb(*sealer),
            sealed_point: match sealed {
                Move::Play(p) => Some(point_to_pb(*p)),
                Move::Pass => None,
            },
            sealed_pass: *sealed == Move::Pass,
            at_ms: at.0,
            lag: lag_to_pb(lag),
        }),
        GameEvent::SealedMoveRevealed { sealer, mv, at } => K::SealedMoveRevealed(pb::SealedMoveRevealed {
            sealer: color_to_pb(*sealer),
            point: match mv {
                Move::Play(p) => Some(point_to_pb(*p)),
                Move::Pass => None,
            },
            pass: *mv == Move::Pass,
            at_ms: at.0,
        }),
        GameEvent::ScoringStarted { at } => K::ScoringStarted(pb::ScoringStarted { at_ms: at.0 }),
        GameEvent::DeadChainsMarked { by, points } => K::DeadChainsMarked(pb::DeadChainsMarked {
            by: color_to_pb(*by),
            points: points.iter().copied().map(point_to_pb).collect(),
        }),
        GameEvent::ScoreAccepted { by } => K::ScoreAccepted(pb::ScoreAccepted { by: color_to_pb(*by) }),
        GameEvent::ScoreDisputed { by } => K::ScoreDisputed(pb::ScoreDisputed { by: color_to_pb(*by) }),
        GameEvent::PlayResumed { first, at } => {
            K::PlayResumed(pb::PlayResumed { first: color_to_pb(*first), at_ms: at.0 })
        }
        GameEvent::TimeExpired { color, deadline, at, counted_as_pass } => K::TimeExpired(pb::TimeExpired {
            color: color_to_pb(*color),
            deadline_ms: deadline.0,
            at_ms: at.0,
            counted_as_pass: *counted_as_pass,
        }),
        GameEvent::ClockCorrected { black, white, reason, referee, chief, at } => {
            K::ClockCorrected(pb::ClockCorrected {
                black: black.as_ref().map(|b| bank_to_pb(b, 0)),
                white: white.as_ref().map(|b| bank_to_pb(b, 0)),
                reason: reason.clone(),
                at_ms: at.0,
                referee: referee.clone(),
                chief: *chief,
            })
        }
        GameEvent::LatenessPenalised { color, late, deducted, byo_yomi_ran } => {
            K::LatenessPenalised(pb::LatenessPenalised {
                color: color_to_pb(*color),
                late_ms: late.0,
                deducted_ms: deducted.0,
                byo_yomi_ran: *byo_yomi_ran,
            })
        }
        GameEvent::LateBeyondLimit { color, late } => {
            K::LateBeyondLimit(pb::LateBeyondLimit { color: color_to_pb(*color), late_ms: late.0 })
        }
        GameEvent::PassOnOverrunRequested { color } => {
            K::PassOnOverrunRequested(pb::PassOnOverrunRequested { color: color_to_pb(*color) })
        }
        GameEvent::Ended { result, dead, note, at } => K::Ended(pb::GameEnded {
            result: Some(result_to_pb(result)),
            score: result.score.as_ref().map(score_to_pb),
            at_ms: at.0,
            dead: dead.iter().copied().map(point_to_pb).collect(),
            ruling_note: note.clone(),
        }),
    };
    pb::GameEvent { kind: Some(kind) }
}

fn bytes32(b: &[u8], what: &'static str) -> Result<[u8; 32], DecodeError> {
    b.try_into().map_err(|_| DecodeError { what, why: format!("{} bytes, expected 32", b.len()) })
}

fn need<'a, T>(v: &'a Option<T>, what: &'static str) -> Result<&'a T, DecodeError> {
    v.as_ref().ok_or(DecodeError { what, why: "missing".into() })
}

/// A wire event into the domain.
pub fn event_from_pb(e: &pb::GameEvent) -> Result<GameEvent, DecodeError> {
    use pb::game_event::Kind as K;
    let Some(kind) = &e.kind else { return err("game event", "empty") };
    Ok(match kind {
        K::Created(c) => GameEvent::Created(Box::new(setup_from_pb(c)?)),
        K::NigiriCommitted(n) => GameEvent::NigiriCommitted {
            holder: PlayerId(n.holder.clone()),
            commitment: bytes32(&n.commitment, "commitment")?,
            secret: bytes32(&n.secret, "nigiri secret")?,
        },
        K::NigiriGuessed(n) => GameEvent::NigiriGuessed { guesser: PlayerId(n.guesser.clone()), even: n.even },
        K::NigiriRevealed(n) => GameEvent::NigiriRevealed {
            secret: bytes32(&n.secret, "nigiri secret")?,
            stones: n.stones,
            guess_correct: n.guess_correct,
        },
        K::ColoursDecided(c) => GameEvent::ColoursDecided {
            black: PlayerId(c.black.clone()),
            white: PlayerId(c.white.clone()),
            method: if c.method == pb::colours_decided::Method::Nigiri as i32 {
                ColourMethod::Nigiri
            } else {
                ColourMethod::Fixed
            },
        },
        K::HandicapPlaced(h) => GameEvent::HandicapPlaced { points: points_from_pb(&h.points)? },
        K::Started(s) => GameEvent::Started { at: Millis(s.at_ms) },
        K::StonePlayed(s) => GameEvent::StonePlayed {
            color: color_from_pb(s.color)?,
            point: point_from_pb(need(&s.point, "stone point")?)?,
            captures: points_from_pb(&s.captures)?,
            suicided: points_from_pb(&s.suicided)?,
            hash: s.position_hash,
            number: s.move_number,
            at: Millis(s.at_ms),
            lag: lag_from_pb(&s.lag),
            cycle: s.cycle,
            from_sealed: s.from_sealed,
            clock: snapshot_from_pb(&s.clock),
        },
        K::Passed(p) => GameEvent::Passed {
            color: color_from_pb(p.color)?,
            number: p.move_number,
            at: Millis(p.at_ms),
            lag: lag_from_pb(&p.lag),
            clock: snapshot_from_pb(&p.clock),
        },
        K::Resigned(r) => GameEvent::Resigned { color: color_from_pb(r.color)?, at: Millis(r.at_ms) },
        K::WarningIssued(w) => {
            GameEvent::WarningIssued { color: color_from_pb(w.color)?, reason: w.reason.clone(), count: w.count }
        }
        K::ColoursSwapped(_) => GameEvent::ColoursSwapped,
        K::MoveVoided(v) => GameEvent::MoveVoided {
            color: color_from_pb(v.color)?,
            mv: match &v.point {
                Some(p) => Move::Play(point_from_pb(p)?),
                None => Move::Pass,
            },
            reason: v.reason.clone(),
            taken_back: v.taken_back,
            at: Millis(v.at_ms),
        },
        K::Paused(p) => GameEvent::Paused { reason: p.reason.clone(), at: Millis(p.at_ms) },
        K::Resumed(r) => GameEvent::Resumed { at: Millis(r.at_ms) },
        K::Adjourned(a) => GameEvent::Adjourned {
            sealer: color_from_pb(a.sealer)?,
            sealed: match (&a.sealed_point, a.sealed_pass) {
                (_, true) => Move::Pass,
                (Some(p), false) => Move::Play(point_from_pb(p)?),
                (None, false) => return err("Adjourned", "no sealed move"),
            },
            at: Millis(a.at_ms),
            lag: lag_from_pb(&a.lag),
        },
        K::SealedMoveRevealed(s) => GameEvent::SealedMoveRevealed {
            sealer: color_from_pb(s.sealer)?,
            mv: match (&s.point, s.pass) {
                (_, true) => Move::Pass,
                (Some(p), false) => Move::Play(point_from_pb(p)?),
                (None, false) => return err("SealedMoveRevealed", "no move"),
            },
            at: Millis(s.at_ms),
        },
        K::ScoringStarted(s) => GameEvent::ScoringStarted { at: Millis(s.at_ms) },
        K::DeadChainsMarked(d) => {
            GameEvent::DeadChainsMarked { by: color_from_pb(d.by)?, points: points_from_pb(&d.points)? }
        }
        K::ScoreAccepted(a) => GameEvent::ScoreAccepted { by: color_from_pb(a.by)? },
        K::ScoreDisputed(d) => GameEvent::ScoreDisputed { by: color_from_pb(d.by)? },
        K::PlayResumed(p) => GameEvent::PlayResumed { first: color_from_pb(p.first)?, at: Millis(p.at_ms) },
        K::TimeExpired(t) => GameEvent::TimeExpired {
            color: color_from_pb(t.color)?,
            deadline: Millis(t.deadline_ms),
            at: Millis(t.at_ms),
            counted_as_pass: t.counted_as_pass,
        },
        K::ClockCorrected(c) => GameEvent::ClockCorrected {
            black: c.black.as_ref().map(bank_from_pb),
            white: c.white.as_ref().map(bank_from_pb),
            reason: c.reason.clone(),
            referee: c.referee.clone(),
            chief: c.chief,
            at: Millis(c.at_ms),
        },
        K::LatenessPenalised(l) => GameEvent::LatenessPenalised {
            color: color_from_pb(l.color)?,
            late: DurationMs(l.late_ms),
            deducted: DurationMs(l.deducted_ms),
            byo_yomi_ran: l.byo_yomi_ran,
        },
        K::LateBeyondLimit(l) => {
            GameEvent::LateBeyondLimit { color: color_from_pb(l.color)?, late: DurationMs(l.late_ms) }
        }
        K::PassOnOverrunRequested(p) => GameEvent::PassOnOverrunRequested { color: color_from_pb(p.color)? },
        K::Ended(e) => {
            let r = need(&e.result, "GameEnded result")?;
            GameEvent::Ended {
                result: GameResult {
                    outcome: outcome_from_pb(r.outcome)?,
                    reason: reason_from_pb(r.reason)?,
                    score: e.score.as_ref().map(score_from_pb),
                },
                dead: points_from_pb(&e.dead)?,
                note: e.ruling_note.clone(),
                at: Millis(e.at_ms),
            }
        }
    })
}

/// Hides what a client may not see yet: the nigiri secret before the reveal and the sealed move
/// before resumption. Referees see everything.
pub fn redact(envelope: &mut pb::EventEnvelope) {
    use pb::game_event::Kind as K;
    match envelope.event.as_mut().and_then(|e| e.kind.as_mut()) {
        Some(K::NigiriCommitted(n)) => n.secret.clear(),
        Some(K::Adjourned(a)) => {
            a.sealed_point = None;
            a.sealed_pass = false;
        }
        _ => {}
    }
}

// ---- commands ----

/// A wire command into the domain: the actor and the command (a `get` is not a command: `None`).
pub fn command_from_pb(c: &pb::GameCommand, nigiri_secret: [u8; 32]) -> Result<Option<(Actor, Command)>, DecodeError> {
    use pb::game_command::Command as C;
    use pb::referee_request::Action as A;
    let actor = actor_from_pb(need(&c.actor, "actor")?)?;
    let Some(cmd) = &c.command else { return err("command", "empty") };
    let mv = |p: &Option<pb::Point>, pass: bool| -> Result<Move, DecodeError> {
        if pass {
            return Ok(Move::Pass);
        }
        Ok(Move::Play(point_from_pb(need(p, "point")?)?))
    };
    let command = match cmd {
        C::Get(_) => return Ok(None),
        C::Create(r) => Command::Create { setup: Box::new(setup_from_request(r)?), nigiri_secret },
        C::Start(_) => Command::Start,
        C::GuessNigiri(g) => Command::GuessNigiri { even: g.even },
        C::Play(p) => Command::Play {
            mv: Move::Play(point_from_pb(need(&p.point, "point")?)?),
            expected_number: p.expected_move_number,
            lag: lag_from_pb(&p.lag),
        },
        C::Pass(p) => {
            Command::Play { mv: Move::Pass, expected_number: p.expected_move_number, lag: lag_from_pb(&p.lag) }
        }
        C::Resign(_) => Command::Resign,
        C::MarkDead(m) => Command::MarkDead { points: points_from_pb(&m.points)? },
        C::AcceptScore(_) => Command::AcceptScore,
        C::DisputeScore(_) => Command::DisputeScore,
        C::Seal(s) => Command::Seal { mv: mv(&s.point, s.pass)?, lag: lag_from_pb(&s.lag) },
        C::RequestPassOnOverrun(_) => Command::RequestPassOnOverrun,
        C::ExpireTime(_) => Command::ExpireTime,
        C::Referee(r) => match &r.action {
            None => return err("referee action", "empty"),
            Some(A::Warn(w)) => Command::Warn { color: color_from_pb(w.color)?, reason: w.reason.clone() },
            Some(A::SwapColours(_)) => Command::SwapColours,
            Some(A::VoidLastMove(v)) => Command::VoidLastMove { reason: v.reason.clone() },
            Some(A::Pause(p)) => Command::Pause { reason: p.reason.clone() },
            Some(A::Resume(_)) => Command::Resume,
            Some(A::ResumeAdjourned(_)) => Command::ResumeAdjourned,
            Some(A::Adjudicate(a)) => {
                Command::Adjudicate { outcome: outcome_from_pb(a.outcome)?, note: a.note.clone() }
            }
            Some(A::CorrectClock(c)) => Command::CorrectClock {
                black: c.black.as_ref().map(bank_from_pb),
                white: c.white.as_ref().map(bank_from_pb),
                reason: c.reason.clone(),
            },
            Some(A::ReportLateness(l)) => {
                Command::ReportLateness { color: color_from_pb(l.color)?, late: DurationMs(l.late_ms) }
            }
            Some(A::StartNow(_)) => Command::Start,
        },
    };
    Ok(Some((actor, command)))
}

/// The game id a wire command targets (a create without one gets a fresh id from the caller).
pub fn command_game_id(c: &pb::GameCommand) -> &str {
    &c.game_id
}

// ---- view ----

fn phase_to_pb(p: Phase) -> pb::game_view::Phase {
    use pb::game_view::Phase as P;
    match p {
        Phase::New => P::Unspecified,
        Phase::Nigiri => P::Nigiri,
        Phase::Ready => P::Ready,
        Phase::Playing => P::Playing,
        Phase::Paused => P::Paused,
        Phase::Adjourned => P::Adjourned,
        Phase::Scoring => P::Scoring,
        Phase::Ended => P::Ended,
    }
}

/// A snapshot of the game at server time `now`.
pub fn view(game_id: &str, state: &GameState, now: Millis) -> pb::GameView {
    let mut v = pb::GameView {
        game_id: game_id.to_string(),
        phase: phase_to_pb(state.phase) as i32,
        sequence: state.version,
        move_number: state.move_number,
        black_warnings: state.warnings[0],
        white_warnings: state.warnings[1],
        black: state.black.as_ref().map(player_to_pb),
        white: state.white.as_ref().map(player_to_pb),
        dead: state.dead.iter().copied().map(point_to_pb).collect(),
        ..Default::default()
    };
    if let Some(setup) = &state.setup {
        v.size = setup.size as u32;
        v.ruleset = Some(ruleset_to_pb(&setup.ruleset));
        v.handicap = setup.handicap as u32;
        v.tournament_id = setup.tournament.as_ref().map(|t| t.id.clone()).unwrap_or_default();
        v.event_id = setup.event_id.clone().unwrap_or_default();
    }
    if let Some(game) = &state.game {
        v.to_move = color_to_pb(state.to_act().unwrap_or_else(|| game.to_move()));
        v.rows = game.board().to_ascii().lines().map(|l| l.replace(' ', "")).collect();
        v.black_prisoners = game.prisoners(Color::Black);
        v.white_prisoners = game.prisoners(Color::White);
        v.position_hash = game.hash();
    }
    if let Some(clock) = state.clock.as_ref().filter(|c| c.control().system != TimeSystem::NoClock) {
        let reading = clock.reading(now);
        let side = |s| {
            let r = reading.side(s);
            bank_to_pb(&r.bank, r.periods_left)
        };
        v.clock = Some(pb::ClockReading {
            black: Some(side(weiqi_clock::Side::Black)),
            white: Some(side(weiqi_clock::Side::White)),
        });
        if state.phase == Phase::Playing {
            v.deadline_ms = reading.deadline.map_or(0, |d| d.0);
        }
    }
    if let Some(r) = &state.result {
        v.result = Some(result_to_pb(r));
        v.score = r.score.as_ref().map(score_to_pb);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
