//! Player events ⇄ their `weiqi.v1` messages (`PlayerRegistered`, `PlayerProfileUpdated`,
//! `RatingChanged`, `RankChanged`, `PromotionProposed`), and the messages the gateway's views share
//! with them (a profile, a rating point, a rank change).

use prost::Message;
use weiqi_eventlog::{NewEvent, RecordedEvent};
use weiqi_proto::v1 as pb;
use weiqi_rating::{CaseId, GameId, Millis, PlayerId};

use super::{
    DecodeError, LEDGER_TYPE, Meta, PLAYER_ABSORBED, PLAYER_INVITATION_ACCEPTED, PLAYER_INVITED, PLAYER_MERGED_INTO,
    PLAYER_PROFILE_UPDATED, PLAYER_REGISTERED, PROMOTION_PROPOSED, RANK_CHANGED, RATING_CHANGED, decode_error,
    envelope, fresh_event_id, open_envelope,
};
use crate::domain::player::{Invitation, MergeRecord};
use crate::domain::{PlayerEvent, Profile, ProposalRecord, RankBasis, RankEntry, RatingPoint};

/// The message of a profile.
#[must_use]
pub fn profile_pb(p: &Profile) -> pb::RegistryProfile {
    pb::RegistryProfile {
        player_id: p.id.0.clone(),
        name_zh: p.name_zh.clone(),
        name_latin: p.name_latin.clone(),
        region: p.region.clone(),
        club: p.club.clone(),
        egd_pin: p.egd_pin.clone(),
    }
}

/// A profile from its message.
#[must_use]
pub fn profile_from_pb(p: &pb::RegistryProfile) -> Profile {
    Profile {
        id: PlayerId(p.player_id.clone()),
        name_zh: p.name_zh.clone(),
        name_latin: p.name_latin.clone(),
        region: p.region.clone(),
        club: p.club.clone(),
        egd_pin: p.egd_pin.clone(),
    }
}

/// The message of a rating point.
#[must_use]
pub fn rating_pb(p: &RatingPoint) -> pb::RatingChanged {
    pb::RatingChanged {
        system: p.system.clone(),
        rating: p.rating,
        deviation: p.deviation,
        volatility: p.volatility,
        games: p.games,
        provisional: p.provisional,
        rating_before: p.rating_before,
        deviation_before: p.deviation_before,
        game_id: p.game.as_ref().map(|g| g.0.clone()).unwrap_or_default(),
        period: p.period.unwrap_or(-1),
        ledger_sequence: p.ledger_sequence,
        at_ms: p.at.0,
        tournament_id: p.tournament.clone().unwrap_or_default(),
        open_period: p.open_period,
    }
}

fn rating_from_pb(m: &pb::RatingChanged) -> RatingPoint {
    RatingPoint {
        system: m.system.clone(),
        rating: m.rating,
        deviation: m.deviation,
        volatility: m.volatility,
        games: m.games,
        provisional: m.provisional,
        rating_before: m.rating_before,
        deviation_before: m.deviation_before,
        game: (!m.game_id.is_empty()).then(|| GameId(m.game_id.clone())),
        period: (m.period >= 0).then_some(m.period),
        tournament: (!m.tournament_id.is_empty()).then(|| m.tournament_id.clone()),
        open_period: m.open_period,
        ledger_sequence: m.ledger_sequence,
        at: Millis(m.at_ms),
    }
}

/// The protobuf basis of a rank change.
#[must_use]
pub fn basis_pb(b: RankBasis) -> pb::rank_changed::Basis {
    match b {
        RankBasis::Declared => pb::rank_changed::Basis::Declared,
        RankBasis::Certified => pb::rank_changed::Basis::Certified,
        RankBasis::Revoked => pb::rank_changed::Basis::Revoked,
    }
}

/// The message of a rank change.
#[must_use]
pub fn rank_pb(e: &RankEntry) -> pb::RankChanged {
    pb::RankChanged {
        ladder: e.ladder.clone(),
        grade: e.grade.clone().unwrap_or_default(),
        grade_name: e.grade_name.clone(),
        previous_grade: e.previous.clone().unwrap_or_default(),
        basis: basis_pb(e.basis) as i32,
        case_id: e.case.as_ref().map(|c| c.0.clone()).unwrap_or_default(),
        certificate_serial: e.serial.clone().unwrap_or_default(),
        reason: e.reason.clone(),
        at_ms: e.at.0,
    }
}

fn rank_from_pb(m: &pb::RankChanged) -> Option<RankEntry> {
    let basis = match pb::rank_changed::Basis::try_from(m.basis).ok()? {
        pb::rank_changed::Basis::Declared => RankBasis::Declared,
        pb::rank_changed::Basis::Certified => RankBasis::Certified,
        pb::rank_changed::Basis::Revoked => RankBasis::Revoked,
        pb::rank_changed::Basis::Unspecified => return None,
    };
    let some = |s: &String| (!s.is_empty()).then(|| s.clone());
    Some(RankEntry {
        ladder: m.ladder.clone(),
        grade: some(&m.grade),
        grade_name: m.grade_name.clone(),
        previous: some(&m.previous_grade),
        basis,
        case: some(&m.case_id).map(CaseId),
        serial: some(&m.certificate_serial),
        reason: m.reason.clone(),
        at: Millis(m.at_ms),
    })
}

/// The event type name of a player event.
#[must_use]
pub fn type_name(event: &PlayerEvent) -> &'static str {
    match event {
        PlayerEvent::Registered { .. } => PLAYER_REGISTERED,
        PlayerEvent::ProfileUpdated { .. } => PLAYER_PROFILE_UPDATED,
        PlayerEvent::RatingChanged(_) => RATING_CHANGED,
        PlayerEvent::RankChanged(_) => RANK_CHANGED,
        PlayerEvent::PromotionProposed(_) => PROMOTION_PROPOSED,
        PlayerEvent::Invited(_) => PLAYER_INVITED,
        PlayerEvent::InvitationAccepted { .. } => PLAYER_INVITATION_ACCEPTED,
        PlayerEvent::MergedInto(_) => PLAYER_MERGED_INTO,
        PlayerEvent::Absorbed(_) => PLAYER_ABSORBED,
    }
}

/// A player event to append.
#[must_use]
pub fn player_event(event: &PlayerEvent, meta: &Meta) -> NewEvent {
    encode_player(event, meta, fresh_event_id())
}

/// A player event to append, with its event id.
pub(crate) fn encode_player(event: &PlayerEvent, meta: &Meta, event_id: String) -> NewEvent {
    use pb::ranking_envelope::Body;
    let body = match event {
        PlayerEvent::Registered { profile, .. } => {
            Body::PlayerRegistered(pb::PlayerRegistered { profile: Some(profile_pb(profile)) })
        }
        PlayerEvent::ProfileUpdated { profile, .. } => {
            Body::PlayerProfileUpdated(pb::PlayerProfileUpdated { profile: Some(profile_pb(profile)) })
        }
        PlayerEvent::RatingChanged(p) => Body::RatingChanged(rating_pb(p)),
        PlayerEvent::RankChanged(e) => Body::RankChanged(rank_pb(e)),
        PlayerEvent::PromotionProposed(p) => Body::PromotionProposed(pb::PromotionProposed {
            ladder: p.ladder.clone(),
            to_grade: p.to.clone(),
            rules: p.rules.clone(),
            case_id: p.case.0.clone(),
            at_ms: p.at.0,
        }),
        PlayerEvent::Invited(i) => Body::PlayerInvited(pb::PlayerInvited {
            token_sha256: i.token_hash.clone(),
            expires_at_ms: i.expires_at.0,
            by: i.by.clone(),
            at_ms: i.at.0,
        }),
        PlayerEvent::InvitationAccepted { at } => {
            Body::PlayerInvitationAccepted(pb::PlayerInvitationAccepted { at_ms: at.0 })
        }
        PlayerEvent::MergedInto(m) => Body::PlayerMergedInto(merge_pb(m)),
        PlayerEvent::Absorbed(m) => Body::PlayerAbsorbed(merge_pb(m)),
    };
    NewEvent::new(type_name(event), envelope(meta, event_id, body).encode_to_vec())
}

fn merge_pb(m: &MergeRecord) -> pb::PlayerMerged {
    pb::PlayerMerged {
        from_player_id: m.from.0.clone(),
        into_player_id: m.into.0.clone(),
        reason: m.reason.clone(),
        by: m.by.clone(),
        at_ms: m.at.0,
    }
}

fn merge_from_pb(m: pb::PlayerMerged) -> MergeRecord {
    MergeRecord {
        from: PlayerId(m.from_player_id),
        into: PlayerId(m.into_player_id),
        reason: m.reason,
        by: m.by,
        at: Millis(m.at_ms),
    }
}

/// Reads a player event; `Ok(None)` for the rating ledger's entries, which share the log kind.
///
/// # Errors
/// When the payload is not a player event.
pub fn read_player(r: &RecordedEvent) -> Result<Option<PlayerEvent>, DecodeError> {
    use pb::ranking_envelope::Body;
    if r.event_type == LEDGER_TYPE {
        return Ok(None);
    }
    let env = open_envelope(r)?;
    let at = Millis(env.server_time_ms);
    let missing = || decode_error(r, "missing profile");
    Ok(Some(match env.body.ok_or_else(|| decode_error(r, "empty envelope"))? {
        Body::PlayerRegistered(m) => {
            PlayerEvent::Registered { profile: profile_from_pb(m.profile.as_ref().ok_or_else(missing)?), at }
        }
        Body::PlayerProfileUpdated(m) => {
            PlayerEvent::ProfileUpdated { profile: profile_from_pb(m.profile.as_ref().ok_or_else(missing)?), at }
        }
        Body::RatingChanged(m) => PlayerEvent::RatingChanged(rating_from_pb(&m)),
        Body::RankChanged(m) => {
            PlayerEvent::RankChanged(rank_from_pb(&m).ok_or_else(|| decode_error(r, "rank change without basis"))?)
        }
        Body::PromotionProposed(m) => PlayerEvent::PromotionProposed(ProposalRecord {
            ladder: m.ladder,
            to: m.to_grade,
            rules: m.rules,
            case: CaseId(m.case_id),
            at: Millis(m.at_ms),
        }),
        Body::PlayerInvited(m) => PlayerEvent::Invited(Invitation {
            token_hash: m.token_sha256,
            expires_at: Millis(m.expires_at_ms),
            by: m.by,
            at: Millis(m.at_ms),
        }),
        Body::PlayerInvitationAccepted(m) => PlayerEvent::InvitationAccepted { at: Millis(m.at_ms) },
        Body::PlayerMergedInto(m) => PlayerEvent::MergedInto(merge_from_pb(m)),
        Body::PlayerAbsorbed(m) => PlayerEvent::Absorbed(merge_from_pb(m)),
        Body::LedgerEntry(_) | Body::CaseEvent(_) | Body::Json(_) => return Ok(None),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{read_case, read_ledger};
    use crate::domain::{ActorKind, LedgerEntry};
    use weiqi_eventlog::{AggregateId, AggregateKind, CommandId, Headers, Position};
    use weiqi_rating::RatingInput;

    fn recorded(e: NewEvent) -> RecordedEvent {
        RecordedEvent {
            kind: AggregateKind::Player,
            aggregate_id: AggregateId::new("li").unwrap(),
            sequence: 1,
            position: Position::START,
            timestamp_ms: 0,
            command_id: CommandId::new("c").unwrap(),
            event_type: e.event_type,
            payload: e.payload,
            headers: Headers::new(),
        }
    }

    fn meta() -> Meta {
        Meta { causation: "c".into(), actor: ActorKind::System, actor_id: "ranking".into(), at: Millis(42) }
    }

    #[test]
    fn player_events_round_trip() {
        let profile = Profile {
            id: PlayerId::from("li"),
            name_zh: "李明".into(),
            name_latin: "Li Ming".into(),
            region: "shanghai".into(),
            club: String::new(),
            egd_pin: "123".into(),
        };
        let events = vec![
            PlayerEvent::Registered { profile: profile.clone(), at: Millis(42) },
            PlayerEvent::ProfileUpdated { profile, at: Millis(42) },
            PlayerEvent::RatingChanged(RatingPoint {
                system: "glicko2".into(),
                rating: 1_612.345_678_901_234_5,
                deviation: 123.000_000_000_001,
                volatility: 0.059_999_9,
                games: 7,
                provisional: false,
                rating_before: 1500.0,
                deviation_before: 350.0,
                game: None,
                period: Some(2_900),
                open_period: false,
                tournament: Some("cup".into()),
                ledger_sequence: 9,
                at: Millis(41),
            }),
            PlayerEvent::RankChanged(RankEntry {
                ladder: "amateur".into(),
                grade: Some("1d".into()),
                grade_name: "业余1段".into(),
                previous: Some("1k".into()),
                basis: RankBasis::Certified,
                case: Some(CaseId::from("case-1")),
                serial: Some("CWA-1".into()),
                reason: String::new(),
                at: Millis(40),
            }),
            PlayerEvent::PromotionProposed(ProposalRecord {
                ladder: "amateur".into(),
                to: "1d".into(),
                rules: vec!["qualify-1d".into()],
                case: CaseId::from("case-1"),
                at: Millis(39),
            }),
            PlayerEvent::Invited(Invitation {
                token_hash: "ab".repeat(32),
                expires_at: Millis(1_000),
                by: "org".into(),
                at: Millis(38),
            }),
            PlayerEvent::InvitationAccepted { at: Millis(37) },
            PlayerEvent::MergedInto(MergeRecord {
                from: PlayerId::from("li2"),
                into: PlayerId::from("li"),
                reason: "registered twice at the desk".into(),
                by: "org".into(),
                at: Millis(36),
            }),
            PlayerEvent::Absorbed(MergeRecord {
                from: PlayerId::from("li2"),
                into: PlayerId::from("li"),
                reason: "同一人".into(),
                by: "org".into(),
                at: Millis(36),
            }),
        ];
        for e in events {
            let event = player_event(&e, &meta());
            assert_eq!(event.event_type, type_name(&e));
            let back = read_player(&recorded(event)).unwrap().unwrap();
            assert_eq!(back, e);
        }
    }

    #[test]
    fn ledger_entries_keep_every_bit() {
        let games = weiqi_rating::synthetic_history(40, 6, 3);
        let mut book = weiqi_rating::RatingBook::new(weiqi_rating::RatingSystem::Egf(Default::default()));
        for g in games {
            let input = RatingInput::game(g);
            let events = weiqi_rating::decide(&book, &input.command, input.at).unwrap();
            for e in &events {
                book.evolve(e);
            }
            let entry = LedgerEntry { input, events, game_position: Some(7), provisional: Vec::new() };
            let back = read_ledger(&recorded(crate::codec::ledger_event(&entry, &meta()))).unwrap();
            assert_eq!(back, entry);
            let bits = |e: &LedgerEntry| format!("{:?}", e.events);
            assert_eq!(bits(&back), bits(&entry));
        }
        assert!(
            read_case(&recorded(crate::codec::ledger_event(
                &LedgerEntry {
                    input: RatingInput { at: Millis(0), command: weiqi_rating::RatingCommand::ClosePeriods },
                    events: vec![],
                    game_position: None,
                    provisional: Vec::new(),
                },
                &meta()
            )))
            .is_err()
        );
    }
}
