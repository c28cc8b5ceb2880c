//! Who enters: players (their registration snapshot), teams, and the lots drawn at the start.

use weiqi_pairing::event::TournamentEvent;
use weiqi_pairing::ids::{Millis, PlayerId, TeamId};
use weiqi_pairing::registration::Registration;
use weiqi_proto::v1 as pb;

use super::values::{player_numbers, players, rank_from_pb, rank_to_pb};
use super::{CodecError, required};

pub(super) fn player_registered_to_pb(r: &Registration) -> pb::TournamentPlayerRegistered {
    pb::TournamentPlayerRegistered { registration: Some(registration_to_pb(r)) }
}

pub(super) fn player_edited_to_pb(r: &Registration) -> pb::TournamentPlayerEdited {
    pb::TournamentPlayerEdited { registration: Some(registration_to_pb(r)) }
}

pub(super) fn player_edited_from_pb(m: &pb::TournamentPlayerEdited) -> Result<TournamentEvent, CodecError> {
    let registration = registration_from_pb(required(m.registration.as_ref(), "TournamentPlayerEdited.registration")?)?;
    Ok(TournamentEvent::PlayerEdited { registration })
}

pub(super) fn player_registered_from_pb(m: &pb::TournamentPlayerRegistered) -> Result<TournamentEvent, CodecError> {
    let registration =
        registration_from_pb(required(m.registration.as_ref(), "TournamentPlayerRegistered.registration")?)?;
    Ok(TournamentEvent::PlayerRegistered { registration })
}

/// A registration snapshot for the wire, exactly as the core holds it.
#[must_use]
pub fn registration_to_pb(r: &Registration) -> pb::TournamentCoreRegistration {
    pb::TournamentCoreRegistration {
        player: r.player.0,
        name_zh: r.name_zh.clone(),
        name_latin: r.name_latin.clone(),
        rank: Some(rank_to_pb(r.rank)),
        rating: r.rating,
        club: r.club.clone(),
        region: r.region.clone(),
        family: r.family.clone(),
        country: r.country.clone(),
        egd_pin: r.egd_pin,
        at_ms: r.at.0,
    }
}

/// A stored registration snapshot.
///
/// # Errors
/// A [`CodecError`] naming the rank's field when it is missing or does not decode.
pub fn registration_from_pb(r: &pb::TournamentCoreRegistration) -> Result<Registration, CodecError> {
    Ok(Registration {
        player: PlayerId(r.player),
        name_zh: r.name_zh.clone(),
        name_latin: r.name_latin.clone(),
        rank: rank_from_pb(r.rank.as_ref(), "TournamentCoreRegistration.rank")?,
        rating: r.rating,
        club: r.club.clone(),
        region: r.region.clone(),
        family: r.family.clone(),
        country: r.country.clone(),
        egd_pin: r.egd_pin,
        at: Millis(r.at_ms),
    })
}

pub(super) fn team_registered_to_pb(team: TeamId, name: &str, members: &[PlayerId]) -> pb::TournamentTeamRegistered {
    pb::TournamentTeamRegistered { team: team.0, name: name.to_string(), members: player_numbers(members) }
}

pub(super) fn team_registered_from_pb(m: &pb::TournamentTeamRegistered) -> TournamentEvent {
    TournamentEvent::TeamRegistered { team: TeamId(m.team), name: m.name.clone(), members: players(&m.members) }
}

pub(super) fn lots_drawn_to_pb(players: &[(PlayerId, u64)], teams: &[(TeamId, u64)]) -> pb::TournamentLotsDrawn {
    let lot = |entrant: u32, lot: u64| pb::TournamentLot { entrant, lot };
    pb::TournamentLotsDrawn {
        players: players.iter().map(|&(p, l)| lot(p.0, l)).collect(),
        teams: teams.iter().map(|&(t, l)| lot(t.0, l)).collect(),
    }
}

pub(super) fn lots_drawn_from_pb(m: &pb::TournamentLotsDrawn) -> TournamentEvent {
    TournamentEvent::LotsDrawn {
        players: m.players.iter().map(|l| (PlayerId(l.entrant), l.lot)).collect(),
        teams: m.teams.iter().map(|l| (TeamId(l.entrant), l.lot)).collect(),
    }
}
