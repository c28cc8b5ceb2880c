//! The pairing core's events ⇄ their typed `weiqi.v1` messages (`proto/weiqi/v1/tournament_events.proto`).
//!
//! [`event_to_pb`] and [`event_from_pb`] mirror [`TournamentEvent`] and everything it holds field by
//! field, split by concept: [`config`] (`Created`: format, points, tie-breaks, pairing policy),
//! [`registration`] (players, teams, lots), [`rounds`] (the organiser's pairing overrides, paired
//! rounds with their costs, byes, team matches and brackets), [`results`] (results, corrections,
//! no-shows, warnings) and [`progress`] (start, withdrawals, eliminations, reprieves, the champion);
//! [`values`] holds the small values several of them share (ranks, game references, bye kinds).
//! [`crate::convert`] and [`crate::aggregate::Body`] wrap the message in the log's envelope and still
//! read the JSON earlier versions wrote.
//!
//! Writing cannot fail. Reading a stored message fails with a [`CodecError`] that names the field
//! (`Message.field`, as in the `.proto` file) when a message the core always has is missing, a `oneof`
//! is empty, a number does not fit the core's type, or an enum holds a value this version does not
//! know (`*_UNSPECIFIED` included): an unknown value is never replaced by a default.
//!
//! No event holds a floating-point number or a [`weiqi_pairing::ratio::Ratio`] (exact values appear
//! only in standings, which are computed from the events, never stored in them).

pub mod config;
pub mod log;
pub mod progress;
pub mod registration;
pub mod results;
pub mod rounds;
pub mod values;

use weiqi_pairing::event::TournamentEvent;
use weiqi_proto::v1 as pb;

pub use weiqi_proto::codec::CodecError;
pub(crate) use weiqi_proto::codec::{EnumPairs, narrow, required};

/// The typed message of a core event.
#[must_use]
pub fn event_to_pb(e: &TournamentEvent) -> pb::TournamentCoreEvent {
    use TournamentEvent as E;
    use pb::tournament_core_event::Event as P;
    let event = match e {
        E::Created { config, at } => P::Created(config::created_to_pb(config, *at)),
        E::PlayerRegistered { registration } => {
            P::PlayerRegistered(registration::player_registered_to_pb(registration))
        }
        E::PlayerEdited { registration } => P::PlayerEdited(registration::player_edited_to_pb(registration)),
        E::SettingsChanged { format, ranking, at } => {
            P::SettingsChanged(config::settings_changed_to_pb(format, ranking, *at))
        }
        E::PlayerRemoved { player } => P::PlayerRemoved(pb::TournamentPlayerRemoved { player: player.0 }),
        E::ByeCancelled { round, player } => {
            P::ByeCancelled(pb::TournamentByeCancelled { round: *round, player: player.0 })
        }
        E::RoundUnpaired { round, tables } => {
            P::RoundUnpaired(pb::TournamentRoundUnpaired { round: *round, tables: *tables })
        }
        E::TeamRegistered { team, name, members } => {
            P::TeamRegistered(registration::team_registered_to_pb(*team, name, members))
        }
        E::LotsDrawn { players, teams } => P::LotsDrawn(registration::lots_drawn_to_pb(players, teams)),
        E::Started { at } => P::Started(progress::started_to_pb(*at)),
        E::PairForbidden { a, b, round } => P::PairForbidden(rounds::pair_forbidden_to_pb(*a, *b, *round)),
        E::PairAllowed { a, b } => P::PairAllowed(rounds::pair_allowed_to_pb(*a, *b)),
        E::PairingFixed { round, black, white } => P::PairingFixed(rounds::pairing_fixed_to_pb(*round, *black, *white)),
        E::ByeGranted { round, player, kind } => P::ByeGranted(rounds::bye_granted_to_pb(*round, *player, *kind)),
        E::LineUpSubmitted { round, team, players } => {
            P::LineUpSubmitted(rounds::line_up_submitted_to_pb(*round, *team, players))
        }
        E::RoundPaired { round, stage, games, byes, team_matches, bracket, team_byes } => {
            P::RoundPaired(rounds::round_paired_to_pb(*round, *stage, games, byes, team_matches, bracket, team_byes))
        }
        E::ResultRecorded { game, result, at } => P::ResultRecorded(results::result_recorded_to_pb(*game, result, *at)),
        E::ResultCorrected { game, result, reason, at } => {
            P::ResultCorrected(results::result_corrected_to_pb(*game, result, *reason, *at))
        }
        E::NoShowRecorded { player, game } => P::NoShowRecorded(results::no_show_recorded_to_pb(*player, *game)),
        E::WarningIssued { player, game } => P::WarningIssued(results::warning_issued_to_pb(*player, *game)),
        E::PlayerWithdrawn { player, after_round, reason, ruling } => {
            P::PlayerWithdrawn(progress::player_withdrawn_to_pb(*player, *after_round, *reason, *ruling))
        }
        E::PlayerEliminated { player, round } => {
            P::PlayerEliminated(progress::player_eliminated_to_pb(*player, *round))
        }
        E::PlayerReprieved { player, round } => P::PlayerReprieved(progress::player_reprieved_to_pb(*player, *round)),
        E::RoundCompleted { round } => P::RoundCompleted(rounds::round_completed_to_pb(*round)),
        E::Finished { champion } => P::Finished(progress::finished_to_pb(*champion)),
    };
    pb::TournamentCoreEvent { event: Some(event) }
}

/// The core event of a stored typed message.
///
/// # Errors
/// A [`CodecError`] naming the first field that is missing, out of range or holds an unknown value.
pub fn event_from_pb(m: &pb::TournamentCoreEvent) -> Result<TournamentEvent, CodecError> {
    use pb::tournament_core_event::Event as P;
    match required(m.event.as_ref(), "TournamentCoreEvent.event")? {
        P::Created(m) => config::created_from_pb(m),
        P::PlayerRegistered(m) => registration::player_registered_from_pb(m),
        P::PlayerEdited(m) => registration::player_edited_from_pb(m),
        P::SettingsChanged(m) => config::settings_changed_from_pb(m),
        P::PlayerRemoved(m) => Ok(TournamentEvent::PlayerRemoved { player: weiqi_pairing::ids::PlayerId(m.player) }),
        P::RoundUnpaired(m) => Ok(TournamentEvent::RoundUnpaired { round: m.round, tables: m.tables }),
        P::ByeCancelled(m) => {
            Ok(TournamentEvent::ByeCancelled { round: m.round, player: weiqi_pairing::ids::PlayerId(m.player) })
        }
        P::TeamRegistered(m) => Ok(registration::team_registered_from_pb(m)),
        P::LotsDrawn(m) => Ok(registration::lots_drawn_from_pb(m)),
        P::Started(m) => Ok(progress::started_from_pb(m)),
        P::PairForbidden(m) => Ok(rounds::pair_forbidden_from_pb(m)),
        P::PairAllowed(m) => Ok(rounds::pair_allowed_from_pb(m)),
        P::PairingFixed(m) => Ok(rounds::pairing_fixed_from_pb(m)),
        P::ByeGranted(m) => rounds::bye_granted_from_pb(m),
        P::LineUpSubmitted(m) => Ok(rounds::line_up_submitted_from_pb(m)),
        P::RoundPaired(m) => rounds::round_paired_from_pb(m),
        P::ResultRecorded(m) => results::result_recorded_from_pb(m),
        P::ResultCorrected(m) => results::result_corrected_from_pb(m),
        P::NoShowRecorded(m) => results::no_show_recorded_from_pb(m),
        P::WarningIssued(m) => results::warning_issued_from_pb(m),
        P::PlayerWithdrawn(m) => progress::player_withdrawn_from_pb(m),
        P::PlayerEliminated(m) => Ok(progress::player_eliminated_from_pb(m)),
        P::PlayerReprieved(m) => Ok(progress::player_reprieved_from_pb(m)),
        P::RoundCompleted(m) => Ok(rounds::round_completed_from_pb(m)),
        P::Finished(m) => progress::finished_from_pb(m),
    }
}
