//! The ranking service's events to and from `weiqi.v1` protobuf, once.
//!
//! Every stored event is an encoded `weiqi.v1.RankingEnvelope` with a typed body. Player events
//! (registrations, rating and rank changes, proposals) are the messages other services consume;
//! ledger entries and certification-case events are `RatingLedgerEntry` and `CertificationCaseEvent`
//! (`proto/weiqi/v1/ranking_events.proto`), converted field by field in [`crate::codec`]. Every
//! `f64` is a `double`: ratings come back bit for bit.
//!
//! # Upgrade path
//!
//! Earlier versions wrote ledger entries and case events as the rating core's serde JSON
//! (`VersionedJson`, schema [`LEDGER_TYPE`] or [`CASE_TYPE`], version 1). [`read_ledger`] and
//! [`read_case`] still read those bodies, so logs written before keep replaying; nothing writes them
//! any more. The JSON kept every `f64` bit for bit too (serde_json's `float_roundtrip`).

use prost::Message;
use weiqi_eventlog::{NewEvent, RecordedEvent};
use weiqi_proto::v1 as pb;
use weiqi_rating::{CaseEvent, CaseId, EventLevel, EventRef, GameId, Millis, PlayerId, RatingEvent, RatingInput};

use crate::codec;
use crate::registry::{PlayerEvent, Profile, ProposalRecord, RankBasis, RankEntry, RatingPoint};
use crate::tournaments::{FinalResults, Placing, ResultsGroup};

/// Event type of a ledger entry.
pub const LEDGER_TYPE: &str = "weiqi.rating.LedgerEntry";
/// Event type of a case event.
pub const CASE_TYPE: &str = "weiqi.rating.CaseEvent";
/// Event type of tournament results for ranking.
pub const RESULTS_TYPE: &str = "weiqi.v1.RankingResults";
/// The JSON version of ledger entries that earlier versions wrote (read only).
const LEDGER_JSON_VERSION: u32 = 1;
/// The JSON version of case events that earlier versions wrote (read only).
const CASE_JSON_VERSION: u32 = 1;

/// One entry of the rating ledger: an input of the rating book, the events it produced, and where
/// the game came from in the game log.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LedgerEntry {
    /// The command and the time it was decided at.
    pub input: RatingInput,
    /// What it did to the book.
    pub events: Vec<RatingEvent>,
    /// The `GameEnded` event's position in the game log (for games).
    pub game_position: Option<u64>,
}

/// Who caused an event, as the envelope records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActorKind {
    /// A player.
    Player,
    /// Association staff: organisers, reviewers, administrators.
    Staff,
    /// A service.
    System,
}

/// The envelope fields of an event to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    /// The command.
    pub causation: String,
    /// Who.
    pub actor: ActorKind,
    /// Their id.
    pub actor_id: String,
    /// Server time.
    pub at: Millis,
}

/// A stored event that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind} {id} sequence {sequence}: {reason}")]
pub struct DecodeError {
    /// Aggregate kind.
    pub kind: String,
    /// Aggregate id.
    pub id: String,
    /// Sequence.
    pub sequence: u64,
    /// What is wrong.
    pub reason: String,
}

fn decode_error(r: &RecordedEvent, reason: impl Into<String>) -> DecodeError {
    DecodeError {
        kind: r.kind.to_string(),
        id: r.aggregate_id.to_string(),
        sequence: r.sequence,
        reason: reason.into(),
    }
}

fn envelope(meta: &Meta, body: pb::ranking_envelope::Body) -> pb::RankingEnvelope {
    let kind = match meta.actor {
        ActorKind::Player => pb::actor::Kind::Player,
        ActorKind::Staff => pb::actor::Kind::Organiser,
        ActorKind::System => pb::actor::Kind::System,
    };
    pb::RankingEnvelope {
        event_id: uuid::Uuid::new_v4().to_string(),
        server_time_ms: meta.at.0,
        causation_id: meta.causation.clone(),
        actor: Some(pb::Actor { kind: kind as i32, id: meta.actor_id.clone() }),
        body: Some(body),
    }
}

fn open(r: &RecordedEvent) -> Result<pb::ranking_envelope::Body, DecodeError> {
    let env = pb::RankingEnvelope::decode(r.payload.clone()).map_err(|e| decode_error(r, e.to_string()))?;
    env.body.ok_or_else(|| decode_error(r, "empty envelope"))
}

/// The upgrade path: a body an earlier version wrote as the rating core's serde JSON.
fn read_legacy_json<T: serde::de::DeserializeOwned>(
    r: &RecordedEvent,
    j: &pb::VersionedJson,
    schema: &str,
    version: u32,
) -> Result<T, DecodeError> {
    if j.schema != schema || j.version != version {
        return Err(decode_error(r, format!("expected {schema} v{version}, found {} v{}", j.schema, j.version)));
    }
    serde_json::from_slice(&j.json).map_err(|e| decode_error(r, format!("{schema}: {e}")))
}

/// A ledger entry to append (a typed `RatingLedgerEntry`).
#[must_use]
pub fn ledger_event(entry: &LedgerEntry, meta: &Meta) -> NewEvent {
    let body = pb::ranking_envelope::Body::LedgerEntry(codec::ledger_entry_to_pb(entry));
    NewEvent::new(LEDGER_TYPE, envelope(meta, body).encode_to_vec())
}

/// Reads a ledger entry: a typed `RatingLedgerEntry`, or the JSON an earlier version wrote.
///
/// # Errors
/// When the payload is not a ledger entry, a typed one lacks a field or holds an unknown enum value
/// (the reason names the field), or the JSON is not of the known version.
pub fn read_ledger(r: &RecordedEvent) -> Result<LedgerEntry, DecodeError> {
    use pb::ranking_envelope::Body;
    match open(r)? {
        Body::LedgerEntry(m) => {
            codec::ledger_entry_from_pb(m).map_err(|e| decode_error(r, format!("{LEDGER_TYPE}: {e}")))
        }
        Body::Json(j) => read_legacy_json(r, &j, LEDGER_TYPE, LEDGER_JSON_VERSION),
        _ => Err(decode_error(r, format!("expected {LEDGER_TYPE}"))),
    }
}

/// A case event to append (a typed `CertificationCaseEvent`).
#[must_use]
pub fn case_event(event: &CaseEvent, meta: &Meta) -> NewEvent {
    let body = pb::ranking_envelope::Body::CaseEvent(codec::case_event_to_pb(event));
    NewEvent::new(CASE_TYPE, envelope(meta, body).encode_to_vec())
}

/// Reads a case event: a typed `CertificationCaseEvent`, or the JSON an earlier version wrote.
///
/// # Errors
/// When the payload is not a case event, a typed one lacks a field or holds an unknown enum value
/// (the reason names the field), or the JSON is not of the known version.
pub fn read_case(r: &RecordedEvent) -> Result<CaseEvent, DecodeError> {
    use pb::ranking_envelope::Body;
    match open(r)? {
        Body::CaseEvent(m) => codec::case_event_from_pb(m).map_err(|e| decode_error(r, format!("{CASE_TYPE}: {e}"))),
        Body::Json(j) => read_legacy_json(r, &j, CASE_TYPE, CASE_JSON_VERSION),
        _ => Err(decode_error(r, format!("expected {CASE_TYPE}"))),
    }
}

fn profile_to_pb(p: &Profile) -> pb::RegistryProfile {
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

/// The message of a profile.
#[must_use]
pub fn profile_pb(p: &Profile) -> pb::RegistryProfile {
    profile_to_pb(p)
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

/// A player event to append.
#[must_use]
pub fn player_event(event: &PlayerEvent, meta: &Meta) -> NewEvent {
    use pb::ranking_envelope::Body;
    let (name, body) = match event {
        PlayerEvent::Registered { profile, .. } => (
            "weiqi.v1.PlayerRegistered",
            Body::PlayerRegistered(pb::PlayerRegistered { profile: Some(profile_to_pb(profile)) }),
        ),
        PlayerEvent::ProfileUpdated { profile, .. } => (
            "weiqi.v1.PlayerProfileUpdated",
            Body::PlayerProfileUpdated(pb::PlayerProfileUpdated { profile: Some(profile_to_pb(profile)) }),
        ),
        PlayerEvent::RatingChanged(p) => ("weiqi.v1.RatingChanged", Body::RatingChanged(rating_pb(p))),
        PlayerEvent::RankChanged(e) => ("weiqi.v1.RankChanged", Body::RankChanged(rank_pb(e))),
        PlayerEvent::PromotionProposed(p) => (
            "weiqi.v1.PromotionProposed",
            Body::PromotionProposed(pb::PromotionProposed {
                ladder: p.ladder.clone(),
                to_grade: p.to.clone(),
                rules: p.rules.clone(),
                case_id: p.case.0.clone(),
                at_ms: p.at.0,
            }),
        ),
    };
    NewEvent::new(name, envelope(meta, body).encode_to_vec())
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
    let env = pb::RankingEnvelope::decode(r.payload.clone()).map_err(|e| decode_error(r, e.to_string()))?;
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
        Body::LedgerEntry(_) | Body::CaseEvent(_) | Body::Json(_) => return Ok(None),
    }))
}

/// Tournament results as the ranking port carries them.
#[must_use]
pub fn results_pb(r: &FinalResults) -> pb::RankingResults {
    pb::RankingResults {
        tournament_id: r.event.id.0.clone(),
        name: r.event.name.clone(),
        kind: r.event.kind.clone(),
        level: r.event.level.name().to_owned(),
        ended_at_ms: r.ended_at.0,
        groups: r
            .groups
            .iter()
            .map(|g| pb::RankingResultsGroup {
                group: g.group.clone().unwrap_or_default(),
                rounds: g.rounds,
                field_by_grade: g.field_by_grade.iter().map(|(k, v)| (k.clone(), *v)).collect(),
                placings: g
                    .placings
                    .iter()
                    .map(|p| pb::RankingPlacing {
                        player_id: p.player.0.clone(),
                        place: p.place,
                        wins: p.wins,
                        byes: p.byes,
                        game_ids: p.games.iter().map(|g| g.0.clone()).collect(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Why results cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadResults {
    /// The level is not one of the known names.
    #[error("unknown event level {0:?}")]
    UnknownLevel(String),
    /// No tournament id.
    #[error("results without a tournament id")]
    NoTournament,
}

/// Results from their message.
///
/// # Errors
/// [`BadResults`] for an unknown level or a missing id.
pub fn results_from_pb(m: &pb::RankingResults) -> Result<FinalResults, BadResults> {
    if m.tournament_id.is_empty() {
        return Err(BadResults::NoTournament);
    }
    let level = EventLevel::from_name(&m.level).ok_or_else(|| BadResults::UnknownLevel(m.level.clone()))?;
    Ok(FinalResults {
        event: EventRef { id: m.tournament_id.as_str().into(), name: m.name.clone(), kind: m.kind.clone(), level },
        ended_at: Millis(m.ended_at_ms),
        groups: m
            .groups
            .iter()
            .map(|g| ResultsGroup {
                group: (!g.group.is_empty()).then(|| g.group.clone()),
                rounds: g.rounds,
                field_by_grade: g.field_by_grade.iter().map(|(k, v)| (k.clone(), *v)).collect(),
                placings: g
                    .placings
                    .iter()
                    .map(|p| Placing {
                        player: PlayerId(p.player_id.clone()),
                        place: p.place,
                        wins: p.wins,
                        byes: p.byes,
                        games: p.game_ids.iter().map(|g| GameId(g.clone())).collect(),
                    })
                    .collect(),
            })
            .collect(),
    })
}

// ---- views for the gateway ----

/// A case as the gateway shows it.
#[must_use]
pub fn case_view(record: &crate::cases::CaseRecord) -> pb::CaseView {
    use weiqi_rating::{Applicant, CaseStatus, Evidence};
    let c = &record.case;
    let status = match c.status {
        CaseStatus::Open => pb::case_view::Status::Open,
        CaseStatus::Approved => pb::case_view::Status::Approved,
        CaseStatus::Rejected => pb::case_view::Status::Rejected,
        CaseStatus::Issued => pb::case_view::Status::Issued,
        CaseStatus::Revoked => pb::case_view::Status::Revoked,
    };
    let evidence = c
        .evidence
        .iter()
        .map(|e| match e {
            Evidence::Game(g) => format!(
                "game {}: {:?} against {}{}",
                g.game,
                g.outcome,
                g.opponent,
                g.event.as_ref().map(|e| format!(" in {e}")).unwrap_or_default()
            ),
            Evidence::Placing(p) => format!(
                "{}{}: place {} of {}, {} wins in {} rounds",
                p.event,
                p.group.as_ref().map(|g| format!(" group {g}")).unwrap_or_default(),
                p.place,
                p.field,
                p.wins,
                p.rounds
            ),
            Evidence::Rating(r) => {
                format!("{} rating {:.1} ±{:.1} after {} games", r.system, r.rating, r.deviation, r.games)
            }
        })
        .collect();
    let (checked, supports, digest, lines) = match &c.check {
        Some(check) => (
            true,
            check.supports_request,
            check.rules_digest.clone(),
            check.evaluation.outcomes.iter().map(ToString::to_string).collect(),
        ),
        None => (false, false, String::new(), Vec::new()),
    };
    let decision = c.decision.as_ref();
    pb::CaseView {
        case_id: c.id.0.clone(),
        player_id: c.player.0.clone(),
        ladder: c.ladder.clone(),
        current_grade: c.standing.grade.clone().unwrap_or_default(),
        requested_grade: c.requested.clone(),
        status: status as i32,
        opened_by: c.opened_by.0.clone(),
        applicant: match c.applicant {
            Applicant::Player => "player".into(),
            Applicant::Organiser => "organiser".into(),
        },
        opened_at_ms: c.opened_at.0,
        evidence,
        checked,
        check_supports_request: supports,
        rules_digest: digest,
        check_lines: lines,
        reviewer: c.reviewer.as_ref().map(|r| r.0.clone()).unwrap_or_default(),
        approved: decision.is_some_and(|d| d.approved),
        reasons: decision.map(|d| d.reasons.clone()).unwrap_or_default(),
        override_reason: decision.and_then(|d| d.override_reason.clone()).unwrap_or_default(),
        certificate: c.certificate.as_ref().map(|x| x.to_text()).unwrap_or_default(),
        certificate_serial: c.certificate.as_ref().map(|x| x.body.serial.clone()).unwrap_or_default(),
        revocation_reason: c.revocation.as_ref().map(|(_, r, _)| r.clone()).unwrap_or_default(),
        detail_json: serde_json::to_string(c).unwrap_or_default(),
    }
}

/// A registry entry as the gateway shows it.
#[must_use]
pub fn registry_view(
    entry: &crate::service::RegistryEntry,
    ladder: impl Fn(&str) -> Option<weiqi_rating::Ladder>,
) -> pb::RegistryPlayer {
    let s = &entry.state;
    pb::RegistryPlayer {
        profile: Some(profile_to_pb(&entry.profile)),
        rank: s.display_rank().map(|r| r.to_string()).unwrap_or_default(),
        grades: s
            .grades
            .iter()
            .map(|(l, h)| pb::GradeHeld {
                ladder: l.clone(),
                grade: h.grade.clone(),
                grade_name: ladder(l)
                    .and_then(|x| x.position(&h.grade).and_then(|p| x.grade(p).map(|g| g.name.clone())))
                    .unwrap_or_default(),
                since_ms: h.since.0,
                basis: basis_pb(h.basis) as i32,
                case_id: h.case.as_ref().map(|c| c.0.clone()).unwrap_or_default(),
            })
            .collect(),
        registered_at_ms: s.registered_at.map_or(0, |m| m.0),
    }
}

/// A leaderboard page as the gateway shows it.
#[must_use]
pub fn leaderboard_view(board: &crate::readmodel::Leaderboard) -> pb::LeaderboardResponse {
    pb::LeaderboardResponse {
        total: board.total,
        entries: board
            .entries
            .iter()
            .map(|e| pb::LeaderboardEntry {
                place: e.place,
                player_id: e.row.player.clone(),
                name_zh: e.row.name_zh.clone(),
                name_latin: e.row.name_latin.clone(),
                rank: e.row.rank().map(|r| r.to_string()).unwrap_or_default(),
                region: e.row.region.clone(),
                club: e.row.club.clone(),
                rating: e.row.rating.unwrap_or_default(),
                deviation: e.row.deviation,
                games: e.row.games,
                provisional: e.row.provisional,
            })
            .collect(),
    }
}

/// A rating report as the gateway shows it.
#[must_use]
pub fn rating_view(player: &str, r: &crate::ledger::RatingReport) -> pb::RatingSummary {
    pb::RatingSummary {
        player_id: player.to_owned(),
        system: r.system.clone(),
        rated: r.view.is_some_and(|v| v.games > 0),
        rating: r.view.map_or(0.0, |v| v.rating),
        deviation: r.view.map_or(0.0, |v| v.deviation),
        volatility: r.view.map_or(0.0, |v| v.volatility),
        games: r.view.map_or(0, |v| v.games),
        provisional: r.view.is_none_or(|v| v.provisional),
        grade_for_rating: r.grade_for_rating.clone().unwrap_or_default(),
        pending_games: r.pending_games,
    }
}

/// A verification outcome as the gateway shows it.
#[must_use]
pub fn verify_view(
    text: &str,
    outcome: &Result<weiqi_rating::Verified, weiqi_rating::VerifyError>,
) -> pb::VerifyCertificateResponse {
    use weiqi_rating::VerifyError as E;
    let body = weiqi_rating::parse_certificate(text).ok().map(|c| c.body);
    let (valid, code, message, sequence) = match outcome {
        Ok(v) => (true, "", String::new(), v.revocations_checked.map_or(0, |(s, _)| s)),
        Err(e) => {
            let code = match e {
                E::MalformedCertificate(_) => "malformed_certificate",
                E::MalformedKey(_) => "malformed_key",
                E::MalformedRevocations(_) => "malformed_revocations",
                E::WrongAssociation { .. } => "wrong_association",
                E::WrongKey { .. } => "wrong_key",
                E::BadSignature => "bad_signature",
                E::RevocationsWrongKey { .. } => "revocations_wrong_key",
                E::RevocationsBadSignature => "revocations_bad_signature",
                E::Revoked { .. } => "revoked",
            };
            (false, code, e.to_string(), 0)
        }
    };
    let b = body.as_ref();
    let field = |f: fn(&weiqi_rating::CertificateBody) -> String| b.map(f).unwrap_or_default();
    pb::VerifyCertificateResponse {
        valid,
        code: code.to_owned(),
        message,
        serial: field(|b| b.serial.clone()),
        player_id: field(|b| b.player.0.clone()),
        player_name: field(|b| b.player_name.clone()),
        ladder: field(|b| b.ladder.clone()),
        grade: field(|b| b.grade.clone()),
        date: field(|b| b.date.to_string()),
        case_id: field(|b| b.case.0.clone()),
        basis: field(|b| b.basis.clone()),
        revocations_sequence: sequence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weiqi_eventlog::{AggregateId, AggregateKind, CommandId, Headers, Position};

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
        ];
        for e in events {
            let back = read_player(&recorded(player_event(&e, &meta()))).unwrap().unwrap();
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
            let entry = LedgerEntry { input, events, game_position: Some(7) };
            let back = read_ledger(&recorded(ledger_event(&entry, &meta()))).unwrap();
            assert_eq!(back, entry);
            let bits = |e: &LedgerEntry| format!("{:?}", e.events);
            assert_eq!(bits(&back), bits(&entry));
        }
        assert!(
            read_case(&recorded(ledger_event(
                &LedgerEntry {
                    input: RatingInput { at: Millis(0), command: weiqi_rating::RatingCommand::ClosePeriods },
                    events: vec![],
                    game_position: None
                },
                &meta()
            )))
            .is_err()
        );
    }
}
