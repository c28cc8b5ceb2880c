//! Errors of the ranking service as values: domain rejections (with a kind and a stable code, which
//! the gateway turns into a gRPC status with a typed `weiqi.v1.Rejection`) and faults.

use weiqi_eventlog::{AppendError, LogError};
use weiqi_rating::{CaseRejection, RatingRejection};

use crate::readmodel::ReadModelError;
use crate::registry::PlayerRejection;
use crate::tournaments::PortError;

/// The gRPC-facing class of a rejection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RejectionKind {
    /// The request is malformed.
    InvalidArgument,
    /// The request does not fit the current state.
    FailedPrecondition,
    /// Something named does not exist.
    NotFound,
    /// The caller may not do this.
    PermissionDenied,
    /// It exists already.
    AlreadyExists,
}

/// Why a ranking request did not succeed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RankingError {
    /// Refused by the domain or by validation; nothing was appended.
    #[error("{code}: {message}")]
    Rejected {
        /// The class.
        kind: RejectionKind,
        /// A stable code (`not_registered`, `wrong_status`, `evidence_refused`, ...).
        code: &'static str,
        /// What to do about it.
        message: String,
    },
    /// The log, the read model or the results port could not be reached: retry (same request id).
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// A log that does not decode or replay, or a conflict that would not settle.
    #[error("internal: {0}")]
    Internal(String),
}

impl RankingError {
    /// A rejection.
    pub fn rejected(kind: RejectionKind, code: &'static str, message: impl Into<String>) -> RankingError {
        RankingError::Rejected { kind, code, message: message.into() }
    }

    /// An invalid argument.
    pub fn invalid(code: &'static str, message: impl Into<String>) -> RankingError {
        RankingError::rejected(RejectionKind::InvalidArgument, code, message)
    }

    /// Not found.
    pub fn not_found(code: &'static str, message: impl Into<String>) -> RankingError {
        RankingError::rejected(RejectionKind::NotFound, code, message)
    }

    /// The stable code of a rejection (`None` for faults).
    #[must_use]
    pub fn code(&self) -> Option<&'static str> {
        match self {
            RankingError::Rejected { code, .. } => Some(code),
            _ => None,
        }
    }
}

impl From<PlayerRejection> for RankingError {
    fn from(r: PlayerRejection) -> Self {
        use RejectionKind as K;
        let (kind, code) = match &r {
            PlayerRejection::AlreadyRegistered(_) => (K::AlreadyExists, "already_registered"),
            PlayerRejection::NotRegistered(_) => (K::NotFound, "not_registered"),
            PlayerRejection::BadProfile { .. } => (K::InvalidArgument, "bad_profile"),
            PlayerRejection::WrongPlayer { .. } => (K::InvalidArgument, "wrong_player"),
            PlayerRejection::AlreadyGraded { .. } => (K::FailedPrecondition, "already_graded"),
        };
        RankingError::rejected(kind, code, r.to_string())
    }
}

impl From<CaseRejection> for RankingError {
    fn from(r: CaseRejection) -> Self {
        use RejectionKind as K;
        let (kind, code) = match &r {
            CaseRejection::AlreadyOpen => (K::AlreadyExists, "already_open"),
            CaseRejection::NotOpen => (K::NotFound, "not_open"),
            CaseRejection::WrongStatus(_) => (K::FailedPrecondition, "wrong_status"),
            CaseRejection::NothingToCertify(_) => (K::FailedPrecondition, "nothing_to_certify"),
            CaseRejection::NoEvidence => (K::InvalidArgument, "no_evidence"),
            CaseRejection::WrongLadder { .. } => (K::InvalidArgument, "wrong_ladder"),
            CaseRejection::UnknownGrade(_) => (K::InvalidArgument, "unknown_grade"),
            CaseRejection::ReviewerIsParty(_) => (K::PermissionDenied, "reviewer_is_party"),
            CaseRejection::NoReviewer => (K::FailedPrecondition, "no_reviewer"),
            CaseRejection::NotTheReviewer { .. } => (K::PermissionDenied, "not_the_reviewer"),
            CaseRejection::CheckNotRun => (K::FailedPrecondition, "check_not_run"),
            CaseRejection::CheckDoesNotSupport(_) => (K::FailedPrecondition, "check_does_not_support"),
            CaseRejection::ReasonRequired => (K::InvalidArgument, "reason_required"),
            CaseRejection::CertificateMismatch { .. } => (K::FailedPrecondition, "certificate_mismatch"),
        };
        RankingError::rejected(kind, code, r.to_string())
    }
}

impl From<RatingRejection> for RankingError {
    fn from(r: RatingRejection) -> Self {
        use RejectionKind as K;
        let (kind, code) = match &r {
            RatingRejection::SelfPlay { .. } => (K::InvalidArgument, "self_play"),
            RatingRejection::DuplicateGame(_) => (K::AlreadyExists, "duplicate_game"),
            RatingRejection::GameInFuture { .. } => (K::InvalidArgument, "game_in_future"),
            RatingRejection::BadConditions(_) => (K::InvalidArgument, "bad_conditions"),
            RatingRejection::AlreadyRated(_) => (K::FailedPrecondition, "already_rated"),
            RatingRejection::BadSeed(_) => (K::InvalidArgument, "bad_seed"),
        };
        RankingError::rejected(kind, code, r.to_string())
    }
}

impl From<LogError> for RankingError {
    fn from(e: LogError) -> Self {
        match e {
            LogError::Unavailable(_) => RankingError::Unavailable(e.to_string()),
            LogError::Corrupt(_) | LogError::InvalidName(_) => RankingError::Internal(e.to_string()),
        }
    }
}

impl From<AppendError> for RankingError {
    fn from(e: AppendError) -> Self {
        match e {
            AppendError::Unavailable(_) => RankingError::Unavailable(e.to_string()),
            _ => RankingError::Internal(e.to_string()),
        }
    }
}

impl From<ReadModelError> for RankingError {
    fn from(e: ReadModelError) -> Self {
        match e {
            ReadModelError::Unavailable(_) => RankingError::Unavailable(e.to_string()),
            ReadModelError::Corrupt(_) => RankingError::Internal(e.to_string()),
        }
    }
}

impl From<PortError> for RankingError {
    fn from(e: PortError) -> Self {
        match e {
            PortError::Unavailable(_) => RankingError::Unavailable(e.to_string()),
            PortError::Corrupt(_) => RankingError::Internal(e.to_string()),
        }
    }
}

impl From<crate::convert::DecodeError> for RankingError {
    fn from(e: crate::convert::DecodeError) -> Self {
        RankingError::Internal(e.to_string())
    }
}

impl From<crate::games::GameLogError> for RankingError {
    fn from(e: crate::games::GameLogError) -> Self {
        match e {
            crate::games::GameLogError::Log(l) => l.into(),
            other @ crate::games::GameLogError::Corrupt { .. } => RankingError::Internal(other.to_string()),
        }
    }
}
