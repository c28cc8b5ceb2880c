//! The ranking's [`crate::views`] as `weiqi.v1` messages: the gRPC server's answers, converted once.

use weiqi_proto::v1 as pb;
use weiqi_rating::CaseStatus;

use crate::codec::player::{basis_pb, profile_pb, rank_pb, rating_pb};
use crate::domain::RankBasis;
use crate::views;

fn status_i32(s: CaseStatus) -> i32 {
    use pb::case_view::Status;
    (match s {
        CaseStatus::Open => Status::Open,
        CaseStatus::AwaitingConfirmation => Status::AwaitingConfirmation,
        CaseStatus::Approved => Status::Approved,
        CaseStatus::Rejected => Status::Rejected,
        CaseStatus::Issued => Status::Issued,
        CaseStatus::Revoked => Status::Revoked,
    }) as i32
}

fn basis_i32(b: RankBasis) -> i32 {
    basis_pb(b) as i32
}

impl From<views::LeaderboardPage> for pb::LeaderboardResponse {
    fn from(v: views::LeaderboardPage) -> Self {
        pb::LeaderboardResponse {
            total: v.total,
            entries: v.entries.into_iter().map(Into::into).collect(),
            position: v.position,
        }
    }
}

impl From<views::LeaderboardLine> for pb::LeaderboardEntry {
    fn from(v: views::LeaderboardLine) -> Self {
        pb::LeaderboardEntry {
            place: v.place,
            player_id: v.player_id,
            name_zh: v.name_zh,
            name_latin: v.name_latin,
            rank: v.rank,
            region: v.region,
            club: v.club,
            rating: v.rating,
            deviation: v.deviation,
            games: v.games,
            provisional: v.provisional,
            rating_grade: v.rating_grade,
        }
    }
}

impl From<views::RegistryPlayer> for pb::RegistryPlayer {
    fn from(v: views::RegistryPlayer) -> Self {
        pb::RegistryPlayer {
            profile: Some(profile_pb(&v.profile)),
            rank: v.rank,
            grades: v.grades.into_iter().map(Into::into).collect(),
            registered_at_ms: v.registered_at_ms,
            position: v.position,
        }
    }
}

impl From<views::GradeHeld> for pb::GradeHeld {
    fn from(v: views::GradeHeld) -> Self {
        pb::GradeHeld {
            ladder: v.ladder,
            grade: v.grade,
            grade_name: v.grade_name,
            since_ms: v.since_ms,
            basis: basis_i32(v.basis),
            case_id: v.case_id,
        }
    }
}

impl From<views::History> for pb::RankingHistory {
    fn from(v: views::History) -> Self {
        pb::RankingHistory {
            ratings: v.ratings.iter().map(rating_pb).collect(),
            ranks: v.ranks.iter().map(rank_pb).collect(),
        }
    }
}

impl From<views::Verification> for pb::VerifyCertificateResponse {
    fn from(v: views::Verification) -> Self {
        pb::VerifyCertificateResponse {
            valid: v.valid,
            code: v.code,
            message: v.message,
            serial: v.serial,
            player_id: v.player_id,
            player_name: v.player_name,
            ladder: v.ladder,
            grade: v.grade,
            date: v.date,
            case_id: v.case_id,
            basis: v.basis,
            revocations_sequence: v.revocations_sequence,
        }
    }
}

impl From<views::RevocationList> for pb::RevocationListResponse {
    fn from(v: views::RevocationList) -> Self {
        pb::RevocationListResponse { text: v.text, sequence: v.sequence, entries: v.entries }
    }
}

impl From<views::AssociationKey> for pb::AssociationKeyResponse {
    fn from(v: views::AssociationKey) -> Self {
        pb::AssociationKeyResponse { text: v.text, association: v.association, key_id: v.key_id }
    }
}

impl From<views::CertificateView> for pb::CertificateRecord {
    fn from(v: views::CertificateView) -> Self {
        pb::CertificateRecord {
            certificate: v.certificate,
            serial: v.serial,
            case_id: v.case_id,
            player_id: v.player_id,
            revoked: v.revoked,
            revocation_reason: v.revocation_reason,
        }
    }
}

impl From<views::RatingSummary> for pb::RatingSummary {
    fn from(v: views::RatingSummary) -> Self {
        pb::RatingSummary {
            player_id: v.player_id,
            system: v.system,
            rated: v.rated,
            rating: v.rating,
            deviation: v.deviation,
            volatility: v.volatility,
            games: v.games,
            provisional: v.provisional,
            grade_for_rating: v.grade_for_rating,
            pending_games: v.pending_games,
        }
    }
}

impl From<views::CaseView> for pb::CaseView {
    fn from(v: views::CaseView) -> Self {
        pb::CaseView {
            case_id: v.case_id,
            player_id: v.player_id,
            ladder: v.ladder,
            current_grade: v.current_grade,
            requested_grade: v.requested_grade,
            status: status_i32(v.status),
            opened_by: v.opened_by,
            applicant: v.applicant,
            opened_at_ms: v.opened_at_ms,
            evidence: v.evidence,
            checked: v.checked,
            check_supports_request: v.check_supports_request,
            rules_digest: v.rules_digest,
            check_lines: v.check_lines,
            reviewer: v.reviewer,
            approved: v.approved,
            reasons: v.reasons,
            override_reason: v.override_reason,
            certificate: v.certificate,
            certificate_serial: v.certificate_serial,
            revocation_reason: v.revocation_reason,
            detail_json: v.detail_json,
            proposed_by: v.proposed_by,
            confirmed_by: v.confirmed_by,
            evidence_refs: v.evidence_refs,
            evidence_use: v.evidence_use,
            revisions: v.revisions.into_iter().map(Into::into).collect(),
            flagged: v.flagged,
            items: v.items.into_iter().map(Into::into).collect(),
        }
    }
}

impl From<views::EvidenceItem> for pb::CaseEvidenceItem {
    fn from(v: views::EvidenceItem) -> Self {
        pb::CaseEvidenceItem {
            kind: v.kind,
            game_id: v.game_id,
            opponent_id: v.opponent_id,
            outcome: v.outcome,
            event_id: v.event_id,
            event_name: v.event_name,
            group: v.group,
            place: v.place,
            field: v.field,
            wins: v.wins,
            rounds: v.rounds,
            system: v.system,
            rating: v.rating,
            deviation: v.deviation,
            games: v.games,
            met_rules: v.met_rules,
            unmet_rules: v.unmet_rules,
            unused: v.unused,
        }
    }
}

impl From<views::EvidenceChange> for pb::CaseEvidenceRevision {
    fn from(v: views::EvidenceChange) -> Self {
        pb::CaseEvidenceRevision {
            game_id: v.game_id,
            opponent_id: v.opponent_id,
            before: v.before,
            after: v.after,
            after_decision: v.after_decision,
            at_ms: v.at_ms,
            kind: v.kind,
            event_id: v.event_id,
            event_name: v.event_name,
        }
    }
}

impl From<views::EgdImport> for pb::ImportEgdRatingsResponse {
    fn from(v: views::EgdImport) -> Self {
        pb::ImportEgdRatingsResponse {
            seeded: v.seeded.into_iter().map(Into::into).collect(),
            not_in_list: v.not_in_list,
            already_rated: v.already_rated,
            unmapped: v.unmapped,
            list_players: v.list_players,
            list_date: v.list_date,
        }
    }
}

impl From<views::Seeded> for pb::import_egd_ratings_response::Seeded {
    fn from(v: views::Seeded) -> Self {
        pb::import_egd_ratings_response::Seeded { player_id: v.player_id, rating: v.rating }
    }
}

impl From<views::H9Import> for pb::ImportH9ResultsResponse {
    fn from(v: views::H9Import) -> Self {
        pb::ImportH9ResultsResponse {
            tournament: v.tournament,
            already_imported: v.already_imported,
            matched: v.matched.into_iter().map(Into::into).collect(),
            not_registered: v.not_registered.into_iter().map(Into::into).collect(),
            seeded: v.seeded.into_iter().map(Into::into).collect(),
            games: v.games,
            games_left_out: v.games_left_out,
            rated: v.rated,
        }
    }
}

impl From<views::H9Line> for pb::import_h9_results_response::Line {
    fn from(v: views::H9Line) -> Self {
        pb::import_h9_results_response::Line { line: v.line, player_id: v.player_id, name: v.name, egd_pin: v.egd_pin }
    }
}
