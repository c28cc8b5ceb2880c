//! The game view: a snapshot of a game for clients, read at server time.

use weiqi_clock::{Millis, TimeSystem};
use weiqi_proto::v1 as pb;
use weiqi_rules::Color;

use super::basics::{color_to_pb, point_to_pb};
use super::results::{result_to_pb, score_to_pb};
use super::rules::{bank_to_pb, ruleset_to_pb};
use super::setup::player_to_pb;
use crate::domain::{GameState, Phase};

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
        (v.spectator_delay_minutes, v.spectator_delay_moves) = match setup.spectator_delay {
            Some(crate::domain::SpectatorDelay::Minutes(m)) => (m, 0),
            Some(crate::domain::SpectatorDelay::Moves(n)) => (0, n),
            None => (0, 0),
        };
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
