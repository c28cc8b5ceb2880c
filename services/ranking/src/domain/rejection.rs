//! Why a ranking request is refused: one exhaustive enum, each variant with a stable code and a kind.
//!
//! Every rejection is something the caller can act on; nothing is appended when one is given.
//! Infrastructure faults (an unreachable log, stored data that does not read) are not rejections:
//! they are [`crate::RankingError::Unavailable`] and [`crate::RankingError::Corrupt`].

use weiqi_rating::{CaseId, CaseRejection, PlayerId, RatingRejection};

/// The class of a rejection: the kinds every service shares.
pub use weiqi_aggregate::RejectionKind;

/// A refused ranking request.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RankingRejection {
    // ---- the registry ----
    /// Register on a registered player.
    #[error("player {0} is already registered")]
    AlreadyRegistered(PlayerId),
    /// A player not in the registry.
    #[error("player {0} is not registered")]
    NotRegistered(PlayerId),
    /// A profile field is not acceptable.
    #[error("{field}: {reason}")]
    BadProfile {
        /// The field.
        field: &'static str,
        /// Why.
        reason: String,
    },
    /// The profile names another player than the log.
    #[error("the profile is for {found}, the log for {expected}")]
    WrongPlayer {
        /// In the profile.
        found: PlayerId,
        /// The log's player.
        expected: PlayerId,
    },
    /// A declared grade in a ladder where the player already holds one.
    #[error("{player} already holds {grade} in ladder {ladder}")]
    AlreadyGraded {
        /// The player.
        player: PlayerId,
        /// The ladder.
        ladder: String,
        /// The grade held.
        grade: String,
    },
    /// A certified grade is changed only through the certification office (a case, a revocation).
    #[error("{player} holds {grade} in ladder {ladder} by certificate: only the certification office changes it")]
    CertifiedGrade {
        /// The player.
        player: PlayerId,
        /// The ladder.
        ladder: String,
        /// The grade held.
        grade: String,
    },
    /// Player ids starting with `_` are reserved (for the rating ledger).
    #[error("player ids may not start with '_'")]
    ReservedPlayerId(PlayerId),
    /// A player id that is not a log name.
    #[error("{id}: {reason}")]
    BadPlayerId {
        /// The id.
        id: String,
        /// Why.
        reason: String,
    },
    /// A declared rank that is no grade of any ladder.
    #[error("{0:?} is not a grade of any ladder")]
    UnknownRank(String),
    /// An invitation for an entry that has an account already.
    #[error("{0} has an account already")]
    HasAccount(PlayerId),
    /// No open invitation matches (a wrong or replaced link, or accepted before).
    #[error("no open invitation for {0} matches this link")]
    NoInvitation(PlayerId),
    /// The invitation's time ran out.
    #[error("the invitation for {0} has expired; ask for a new one")]
    InvitationExpired(PlayerId),
    /// The entry was merged into another.
    #[error("{player} was merged into {into}")]
    Merged {
        /// The retired entry.
        player: PlayerId,
        /// The entry kept.
        into: PlayerId,
    },
    /// The entry may not be merged into another.
    #[error("{player} cannot be merged: {}", why.code())]
    CannotMerge {
        /// The duplicate.
        player: PlayerId,
        /// Why not.
        why: crate::domain::player::MergeBlock,
    },

    // ---- ratings ----
    /// The rating core refused an input.
    #[error(transparent)]
    Rating(RatingRejection),

    // ---- certification ----
    /// The rating core refused a case command.
    #[error(transparent)]
    Case(CaseRejection),
    /// No such case.
    #[error("no case {0}")]
    NoSuchCase(CaseId),
    /// No issued certificate has this serial.
    #[error("no certificate has serial {0}")]
    NoSuchCertificate(String),
    /// A case id that is not a log name.
    #[error("{id}: {reason}")]
    BadCaseId {
        /// The id.
        id: String,
        /// Why.
        reason: String,
    },
    /// The association has no promotion rules for the ladder.
    #[error("the association has no promotion rules for ladder {0}")]
    NoRules(String),
    /// The grade asked for is not in the ladder.
    #[error("{grade:?} is not a grade of ladder {ladder} ({})", grades.join(", "))]
    NotAGrade {
        /// The grade asked for.
        grade: String,
        /// The ladder.
        ladder: String,
        /// The ladder's grade codes.
        grades: Vec<String>,
    },
    /// An application that names no evidence.
    #[error("name games, tournaments or the rating as evidence")]
    NoEvidenceNamed,
    /// Evidence that did not verify against the logs, with the reasons.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    EvidenceRefused(Vec<crate::evidence::EvidenceProblem>),

    // ---- the request ----
    /// A request without its id.
    #[error("request_id is required (a retry reuses it)")]
    MissingRequestId,
    /// The request id was used before for another command or by another actor (or on another
    /// aggregate, `other`).
    #[error("this request id was already used{}; send a new request id", other.as_ref().map(|o| format!(" for {o}")).unwrap_or_else(|| " for another command".into()))]
    RequestIdReused {
        /// The other aggregate, if it is another one.
        other: Option<String>,
    },
    /// The events are too large for one append.
    #[error("too large: {0}")]
    TooLarge(String),
    /// The caller may not do this.
    #[error("{0}")]
    PermissionDenied(String),
    /// A leaderboard band that does not exist.
    #[error("band {band:?} is not one of {}", bands.join(", "))]
    UnknownBand {
        /// The band asked for.
        band: String,
        /// The bands.
        bands: Vec<String>,
    },
    /// The events decided do not fold into the state: a bug, refused so that nothing unreadable is
    /// appended.
    #[error("the decision does not apply ({0}); nothing was recorded")]
    Inconsistent(String),
}

impl RankingRejection {
    /// The stable, machine-readable code (status details, logs).
    #[must_use]
    pub fn code(&self) -> &'static str {
        use RankingRejection as R;
        match self {
            R::AlreadyRegistered(_) => "already_registered",
            R::NotRegistered(_) => "not_registered",
            R::BadProfile { .. } => "bad_profile",
            R::WrongPlayer { .. } => "wrong_player",
            R::AlreadyGraded { .. } => "already_graded",
            R::CertifiedGrade { .. } => "certified_grade",
            R::ReservedPlayerId(_) | R::BadPlayerId { .. } => "bad_player_id",
            R::UnknownRank(_) => "unknown_rank",
            R::HasAccount(_) => "has_account",
            R::NoInvitation(_) => "no_invitation",
            R::InvitationExpired(_) => "invitation_expired",
            R::Merged { .. } => "merged",
            R::CannotMerge { .. } => "cannot_merge",
            R::Rating(r) => rating_code(r),
            R::Case(r) => case_code(r),
            R::NoSuchCase(_) => "no_such_case",
            R::NoSuchCertificate(_) => "no_such_certificate",
            R::BadCaseId { .. } => "bad_case_id",
            R::NoRules(_) => "no_rules",
            R::NotAGrade { .. } => "unknown_grade",
            R::NoEvidenceNamed => "no_evidence",
            R::EvidenceRefused(_) => "evidence_refused",
            R::MissingRequestId => "missing_request_id",
            R::RequestIdReused { .. } => "request_id_reused",
            R::TooLarge(_) => "too_large",
            R::PermissionDenied(_) => "permission_denied",
            R::UnknownBand { .. } => "unknown_band",
            R::Inconsistent(_) => "inconsistent",
        }
    }

    /// How it maps to a gRPC status.
    #[must_use]
    pub fn kind(&self) -> RejectionKind {
        use RankingRejection as R;
        use RejectionKind as K;
        match self {
            R::AlreadyRegistered(_) => K::AlreadyExists,
            R::NotRegistered(_) | R::NoSuchCase(_) | R::NoSuchCertificate(_) => K::NotFound,
            R::BadProfile { .. }
            | R::WrongPlayer { .. }
            | R::ReservedPlayerId(_)
            | R::BadPlayerId { .. }
            | R::UnknownRank(_)
            | R::BadCaseId { .. }
            | R::NotAGrade { .. }
            | R::NoEvidenceNamed
            | R::EvidenceRefused(_)
            | R::MissingRequestId
            | R::RequestIdReused { .. }
            | R::TooLarge(_)
            | R::UnknownBand { .. } => K::InvalidArgument,
            R::AlreadyGraded { .. }
            | R::CertifiedGrade { .. }
            | R::NoRules(_)
            | R::Inconsistent(_)
            | R::HasAccount(_)
            | R::NoInvitation(_)
            | R::InvitationExpired(_)
            | R::Merged { .. }
            | R::CannotMerge { .. } => K::FailedPrecondition,
            R::PermissionDenied(_) => K::PermissionDenied,
            R::Rating(r) => rating_kind(r),
            R::Case(r) => case_kind(r),
        }
    }
}

fn rating_code(r: &RatingRejection) -> &'static str {
    match r {
        RatingRejection::SelfPlay { .. } => "self_play",
        RatingRejection::DuplicateGame(_) => "duplicate_game",
        RatingRejection::GameInFuture { .. } => "game_in_future",
        RatingRejection::BadConditions(_) => "bad_conditions",
        RatingRejection::AlreadyRated(_) => "already_rated",
        RatingRejection::BadSeed(_) => "bad_seed",
        RatingRejection::CorrectionNeedsInputs(_) => "correction_needs_inputs",
        RatingRejection::CorrectionMismatch(_) => "correction_mismatch",
    }
}

fn rating_kind(r: &RatingRejection) -> RejectionKind {
    use RejectionKind as K;
    match r {
        RatingRejection::SelfPlay { .. }
        | RatingRejection::GameInFuture { .. }
        | RatingRejection::BadConditions(_)
        | RatingRejection::BadSeed(_)
        | RatingRejection::CorrectionMismatch(_) => K::InvalidArgument,
        RatingRejection::CorrectionNeedsInputs(_) => K::FailedPrecondition,
        RatingRejection::DuplicateGame(_) => K::AlreadyExists,
        RatingRejection::AlreadyRated(_) => K::FailedPrecondition,
    }
}

fn case_code(r: &CaseRejection) -> &'static str {
    match r {
        CaseRejection::AlreadyOpen => "already_open",
        CaseRejection::NothingFlagged => "nothing_flagged",
        CaseRejection::RevisionMismatch => "revision_mismatch",
        CaseRejection::NotOpen => "not_open",
        CaseRejection::WrongStatus(_) => "wrong_status",
        CaseRejection::NothingToCertify(_) => "nothing_to_certify",
        CaseRejection::NoEvidence => "no_evidence",
        CaseRejection::WrongLadder { .. } => "wrong_ladder",
        CaseRejection::UnknownGrade(_) => "unknown_grade",
        CaseRejection::ReviewerIsParty(_) => "reviewer_is_party",
        CaseRejection::NoReviewer => "no_reviewer",
        CaseRejection::NotTheReviewer { .. } => "not_the_reviewer",
        CaseRejection::CheckNotRun => "check_not_run",
        CaseRejection::CheckDoesNotSupport(_) => "check_does_not_support",
        CaseRejection::JustificationTooShort { .. } => "justification_too_short",
        CaseRejection::SameReviewer(_) => "same_reviewer",
        CaseRejection::ReasonRequired => "reason_required",
        CaseRejection::TooLong { .. } => "too_long",
        CaseRejection::CertificateMismatch { .. } => "certificate_mismatch",
    }
}

fn case_kind(r: &CaseRejection) -> RejectionKind {
    use RejectionKind as K;
    match r {
        CaseRejection::AlreadyOpen => K::AlreadyExists,
        CaseRejection::NotOpen => K::NotFound,
        CaseRejection::WrongStatus(_)
        | CaseRejection::NothingToCertify(_)
        | CaseRejection::NoReviewer
        | CaseRejection::CheckNotRun
        | CaseRejection::CheckDoesNotSupport(_)
        | CaseRejection::CertificateMismatch { .. }
        | CaseRejection::NothingFlagged => K::FailedPrecondition,
        CaseRejection::NoEvidence
        | CaseRejection::WrongLadder { .. }
        | CaseRejection::UnknownGrade(_)
        | CaseRejection::JustificationTooShort { .. }
        | CaseRejection::RevisionMismatch
        | CaseRejection::ReasonRequired
        | CaseRejection::TooLong { .. } => K::InvalidArgument,
        CaseRejection::ReviewerIsParty(_) | CaseRejection::NotTheReviewer { .. } | CaseRejection::SameReviewer(_) => {
            K::PermissionDenied
        }
    }
}

impl From<RatingRejection> for RankingRejection {
    fn from(r: RatingRejection) -> Self {
        RankingRejection::Rating(r)
    }
}

impl From<CaseRejection> for RankingRejection {
    fn from(r: CaseRejection) -> Self {
        RankingRejection::Case(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes and kinds the gateway has always answered (and the tests assert).
    #[test]
    fn codes_and_kinds_are_stable() {
        use RankingRejection as R;
        use RejectionKind as K;
        let table: Vec<(R, &str, K)> = vec![
            (R::AlreadyRegistered(PlayerId::from("li")), "already_registered", K::AlreadyExists),
            (R::NotRegistered(PlayerId::from("li")), "not_registered", K::NotFound),
            (R::ReservedPlayerId(PlayerId::from("_x")), "bad_player_id", K::InvalidArgument),
            (R::UnknownRank("30k".into()), "unknown_rank", K::InvalidArgument),
            (R::Case(CaseRejection::ReviewerIsParty("li".into())), "reviewer_is_party", K::PermissionDenied),
            (R::Case(CaseRejection::NoReviewer), "no_reviewer", K::FailedPrecondition),
            (R::Case(CaseRejection::CheckDoesNotSupport("2d".into())), "check_does_not_support", K::FailedPrecondition),
            (R::Rating(RatingRejection::AlreadyRated(PlayerId::from("li"))), "already_rated", K::FailedPrecondition),
            (R::EvidenceRefused(vec![]), "evidence_refused", K::InvalidArgument),
            (R::NoSuchCase(CaseId::from("case-1")), "no_such_case", K::NotFound),
            (R::MissingRequestId, "missing_request_id", K::InvalidArgument),
            (R::RequestIdReused { other: None }, "request_id_reused", K::InvalidArgument),
            (R::PermissionDenied("needs the reviewer role".into()), "permission_denied", K::PermissionDenied),
            (R::UnknownBand { band: "x".into(), bands: vec![] }, "unknown_band", K::InvalidArgument),
        ];
        for (r, code, kind) in table {
            assert_eq!((r.code(), r.kind()), (code, kind), "{r:?}");
        }
        use crate::evidence::EvidenceProblem as P;
        let refused =
            R::EvidenceRefused(vec![P::NoSuchGame { game: "g1".into() }, P::NoFinalResults { tournament: "t".into() }]);
        assert_eq!(refused.to_string(), "game g1: no such game; tournament t: no final results");
    }
}
