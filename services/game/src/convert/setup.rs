//! Players and the game setup: `GameCreated` (stored) and `CreateGameRequest` (asked for).

use weiqi_clock::{DurationMs, Millis};
use weiqi_proto::v1 as pb;
use weiqi_rules::{Komi, Ruleset};

use super::basics::{point_to_pb, points_from_pb};
use super::rules::{ruleset_from_pb, ruleset_to_pb, time_control_from_pb, time_control_to_pb};
use super::{DecodeError, err};
use crate::domain::{ColorMethod, GameSetup, PlayerId, PlayerRef, SpectatorDelay, TournamentRef};

/// The spectators' delay from its two wire fields (at most one set; both 0: live).
fn delay_from_pb(minutes: u32, moves: u32) -> Result<Option<SpectatorDelay>, DecodeError> {
    let delay = match (minutes, moves) {
        (0, 0) => return Ok(None),
        (m, 0) => SpectatorDelay::Minutes(m),
        (0, n) => SpectatorDelay::Moves(n),
        _ => return err("setup", "spectator_delay_minutes and spectator_delay_moves: at most one"),
    };
    if !delay.in_range() {
        return err(
            "setup",
            format!(
                "spectator delay {delay:?} is out of range: at most {} minutes or {} moves",
                SpectatorDelay::MAX_MINUTES,
                SpectatorDelay::MAX_MOVES
            ),
        );
    }
    Ok(Some(delay))
}

/// The spectators' delay as its two wire fields (minutes, moves).
fn delay_to_pb(delay: Option<SpectatorDelay>) -> (u32, u32) {
    match delay {
        None => (0, 0),
        Some(SpectatorDelay::Minutes(m)) => (m, 0),
        Some(SpectatorDelay::Moves(n)) => (0, n),
    }
}

wire_enum!(
    /// How colors are decided, to and from the wire.
    color_method_to_pb, color_method_from_pb, "color_method", ColorMethod => pb::game_created::ColorMethod {
        ColorMethod::Fixed => pb::game_created::ColorMethod::Fixed,
        ColorMethod::Nigiri => pb::game_created::ColorMethod::Nigiri,
    }
);

pub(crate) fn player_to_pb(p: &PlayerRef) -> pb::PlayerRef {
    pb::PlayerRef { id: p.id.0.clone(), name: p.name.clone(), rank: p.rank.clone() }
}

pub(crate) fn player_from_pb(p: Option<&pb::PlayerRef>) -> PlayerRef {
    p.map(|p| PlayerRef { id: PlayerId(p.id.clone()), name: p.name.clone(), rank: p.rank.clone() }).unwrap_or_default()
}

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
    // Unspecified means the first player takes Black.
    let color_method = if r.color_method == 0 { ColorMethod::Fixed } else { color_method_from_pb(r.color_method)? };
    Ok(GameSetup {
        ruleset,
        size: r.size as u8,
        handicap: r.handicap as u8,
        handicap_points: points_from_pb(&r.handicap_points)?,
        first: player_from_pb(r.first.as_ref()),
        second: player_from_pb(r.second.as_ref()),
        color_method,
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
        // 0 (unset) is the Art. 22 default of an hour; the decider checks the upper bound.
        lateness_limit: match r.lateness_limit_ms {
            0 => DurationMs::from_hours(1),
            ms if ms < 0 => {
                return err("setup", format!("lateness_limit_ms = {ms} is out of range: 0 (an hour) or more"));
            }
            ms => DurationMs(ms),
        },
        absence_claim: match r.absence_claim_ms {
            0 => None,
            ms if !(30_000..=3_600_000).contains(&ms) => {
                return err("setup", format!("absence_claim_ms = {ms} is out of range: 30 s to an hour"));
            }
            ms => Some(DurationMs(ms)),
        },
        // Whether a game is an offer is decided from who creates it, never asked for.
        offered_by: None,
        spectator_delay: delay_from_pb(r.spectator_delay_minutes, r.spectator_delay_moves)?,
    })
}

pub(crate) fn setup_to_pb(s: &GameSetup) -> pb::GameCreated {
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
        color_method: color_method_to_pb(s.color_method) as i32,
        lateness_limit_ms: s.lateness_limit.0,
        absence_claim_ms: s.absence_claim.map_or(0, |d| d.0),
        handicap_points: s.handicap_points.iter().copied().map(point_to_pb).collect(),
        start_immediately: s.start_immediately,
        offered_by: s.offered_by.as_ref().map(|p| p.0.clone()).unwrap_or_default(),
        spectator_delay_minutes: delay_to_pb(s.spectator_delay).0,
        spectator_delay_moves: delay_to_pb(s.spectator_delay).1,
    }
}

pub(crate) fn setup_from_pb(c: &pb::GameCreated) -> Result<GameSetup, DecodeError> {
    Ok(GameSetup {
        ruleset: ruleset_from_pb(
            c.ruleset.as_ref().ok_or(DecodeError { what: "GameCreated", why: "no ruleset".into() })?,
        )?,
        size: u8::try_from(c.size).map_err(|_| DecodeError { what: "GameCreated", why: "size".into() })?,
        handicap: u8::try_from(c.handicap).map_err(|_| DecodeError { what: "GameCreated", why: "handicap".into() })?,
        handicap_points: points_from_pb(&c.handicap_points)?,
        first: player_from_pb(c.first.as_ref()),
        second: player_from_pb(c.second.as_ref()),
        color_method: if c.color_method == 0 { ColorMethod::Fixed } else { color_method_from_pb(c.color_method)? },
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
        absence_claim: (c.absence_claim_ms > 0).then_some(DurationMs(c.absence_claim_ms)),
        offered_by: (!c.offered_by.is_empty()).then(|| PlayerId(c.offered_by.clone())),
        spectator_delay: delay_from_pb(c.spectator_delay_minutes, c.spectator_delay_moves)?,
    })
}

/// A setup as the request that asks for it (for the bus client): reads back as the same setup.
pub fn setup_to_request(s: &GameSetup) -> pb::CreateGameRequest {
    pb::CreateGameRequest {
        size: u32::from(s.size),
        ruleset: Some(ruleset_to_pb(&s.ruleset)),
        komi_half_points: Some(s.ruleset.komi.0),
        handicap: u32::from(s.handicap),
        handicap_points: s.handicap_points.iter().copied().map(point_to_pb).collect(),
        first: Some(player_to_pb(&s.first)),
        second: Some(player_to_pb(&s.second)),
        color_method: color_method_to_pb(s.color_method) as i32,
        time_control: Some(time_control_to_pb(&s.time_control)),
        tournament_id: s.tournament.as_ref().map(|t| t.id.clone()).unwrap_or_default(),
        round: s.tournament.as_ref().map_or(0, |t| t.round),
        board: s.tournament.as_ref().map_or(0, |t| t.board),
        event_id: s.event_id.clone().unwrap_or_default(),
        scheduled_start_ms: s.scheduled_start.map_or(0, |m| m.0),
        rated: s.rated,
        start: s.start_immediately,
        lateness_limit_ms: s.lateness_limit.0,
        absence_claim_ms: s.absence_claim.map_or(0, |d| d.0),
        spectator_delay_minutes: delay_to_pb(s.spectator_delay).0,
        spectator_delay_moves: delay_to_pb(s.spectator_delay).1,
        ..Default::default()
    }
}
