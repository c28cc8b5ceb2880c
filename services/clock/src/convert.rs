//! The clock core's readings and calls as `weiqi.v1` messages, written once.

use weiqi_clock::{Call, Clock, Millis, Phase, Side, SideReading, TimeSystem};
use weiqi_game::domain::{GameState, Phase as GamePhase};
use weiqi_proto::v1 as pb;

pub use pb::clock_tick::Reason;

/// A side as a wire color.
pub fn color(side: Side) -> pb::Color {
    match side {
        Side::Black => pb::Color::Black,
        Side::White => pb::Color::White,
    }
}

/// A referee call on the wire.
pub fn call_to_pb(call: Call) -> pb::ByoYomiCall {
    use pb::byo_yomi_call::Call as C;
    let call = match call {
        Call::Seconds(s) => C::Seconds(s),
        Call::PeriodUsed { periods_left } => C::PeriodUsed(periods_left),
        Call::Count(n) => C::Count(n),
        Call::TimeUp { count } => C::TimeUp(count),
    };
    pb::ByoYomiCall { call: Some(call) }
}

/// A referee call from the wire (for clients and tests).
pub fn call_from_pb(call: &pb::ByoYomiCall) -> Option<Call> {
    use pb::byo_yomi_call::Call as C;
    Some(match call.call? {
        C::Seconds(s) => Call::Seconds(s),
        C::PeriodUsed(periods_left) => Call::PeriodUsed { periods_left },
        C::Count(n) => Call::Count(n),
        C::TimeUp(count) => Call::TimeUp { count },
    })
}

fn phase(phase: Phase) -> pb::ClockPhase {
    match phase {
        Phase::NotStarted => pb::ClockPhase::NotStarted,
        Phase::Running { .. } => pb::ClockPhase::Running,
        Phase::Paused => pb::ClockPhase::Paused,
        Phase::Adjourned { .. } => pb::ClockPhase::Adjourned,
        Phase::Expired { .. } => pb::ClockPhase::Expired,
        Phase::Stopped { .. } => pb::ClockPhase::Stopped,
    }
}

fn side(r: &SideReading) -> pb::ClockSide {
    pb::ClockSide {
        main_ms: r.bank.main.as_millis(),
        periods_left: r.periods_left,
        period_left_ms: r.bank.period_left.as_millis(),
        moves_left: r.bank.moves_left,
        period: r.bank.period,
    }
}

/// True if the game has a timed clock (ticks are published only for those).
pub fn is_timed(state: &GameState) -> bool {
    state.clock.as_ref().is_some_and(|c| c.control().system != TimeSystem::NoClock)
}

/// The tick of `game_id` at `at`: its clock read at that instant. `None` for a game without a timed
/// clock.
pub fn tick(game_id: &str, state: &GameState, at: Millis, reason: Reason, call: Option<Call>) -> Option<pb::ClockTick> {
    if !is_timed(state) {
        return None;
    }
    let clock: &Clock = state.clock.as_ref()?;
    let reading = clock.reading(at);
    let running = state.phase == GamePhase::Playing;
    let flagged = match reading.phase {
        Phase::Expired { side, .. } => color(side),
        _ => pb::Color::Unspecified,
    };
    Some(pb::ClockTick {
        game_id: game_id.to_string(),
        sequence: state.version,
        at_ms: at.0,
        reading: Some(pb::ClockReading {
            black: Some(side(reading.side(Side::Black))),
            white: Some(side(reading.side(Side::White))),
        }),
        to_move: color(reading.to_move) as i32,
        deadline_ms: if running { reading.deadline.map_or(0, |d| d.0) } else { 0 },
        phase: phase(reading.phase) as i32,
        call: call.map(call_to_pb),
        reason: reason as i32,
        flagged: flagged as i32,
    })
}

/// True if the tick shows the clock stopped for good.
pub fn is_final(tick: &pb::ClockTick) -> bool {
    matches!(pb::ClockPhase::try_from(tick.phase), Ok(pb::ClockPhase::Expired | pb::ClockPhase::Stopped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_round_trip_through_the_wire() {
        for call in
            [Call::Seconds(30), Call::PeriodUsed { periods_left: 4 }, Call::Count(7), Call::TimeUp { count: 10 }]
        {
            assert_eq!(call_from_pb(&call_to_pb(call)), Some(call));
        }
        assert_eq!(call_from_pb(&pb::ByoYomiCall { call: None }), None);
    }
}
