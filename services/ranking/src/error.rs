//! Errors of the ranking service as values: a domain rejection ([`RankingRejection`], with a kind and
//! a stable code, which the gateway turns into a gRPC status with a typed `weiqi.v1.Rejection`), or an
//! infrastructure fault (unavailable: retry; corrupt: never acted on).

use weiqi_aggregate::RunError;
use weiqi_eventlog::{AppendError, LogError};

use crate::aggregate::Declined;
use crate::codec::DecodeError;
use crate::games::GameLogError;
use crate::readmodel::ReadModelError;
use crate::tournaments::PortError;

pub use crate::domain::{RankingRejection, RejectionKind};

/// Why a ranking request did not succeed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RankingError {
    /// Refused by the domain or by validation; nothing was appended.
    #[error("{code}: {0}", code = .0.code())]
    Rejected(RankingRejection),
    /// The log, the read model or the results port could not be reached, or conflicts did not settle:
    /// retry (same request id).
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// Stored data that does not decode or replay, or a value made from it that does not hold (a
    /// certificate that cannot be signed): never acted on, never retried.
    #[error("corrupt: {0}")]
    Corrupt(String),
}

impl RankingError {
    /// The stable code of a rejection (`None` for faults).
    #[must_use]
    pub fn code(&self) -> Option<&'static str> {
        match self {
            RankingError::Rejected(r) => Some(r.code()),
            _ => None,
        }
    }

    /// The rejection, if it is one.
    #[must_use]
    pub fn rejection(&self) -> Option<&RankingRejection> {
        match self {
            RankingError::Rejected(r) => Some(r),
            _ => None,
        }
    }

    /// A runner's error: `bad_id` says what a malformed aggregate id is for this aggregate.
    /// ([`Declined::Unchanged`] is no error: the components take it as done before calling this.)
    pub(crate) fn from_run(e: RunError<Declined>, bad_id: impl FnOnce(String) -> RankingError) -> RankingError {
        match e {
            RunError::Rejected(Declined::Rejected(r)) => RankingError::Rejected(r),
            RunError::Rejected(Declined::Unchanged) => {
                RankingError::Corrupt("a decision that changes nothing was taken for an error".into())
            }
            RunError::RequestIdReused { other } => RankingError::Rejected(RankingRejection::RequestIdReused { other }),
            RunError::BadId { field: "id", reason } => bad_id(reason),
            RunError::BadId { field, reason } => {
                RankingError::Corrupt(format!("a derived {field} is refused: {reason}"))
            }
            RunError::TooLarge(why) => RankingError::Rejected(RankingRejection::TooLarge(why)),
            RunError::Unavailable(why) => RankingError::Unavailable(why),
            RunError::Corrupt(why) => RankingError::Corrupt(why),
        }
    }
}

impl From<RankingRejection> for RankingError {
    fn from(r: RankingRejection) -> Self {
        RankingError::Rejected(r)
    }
}

impl From<LogError> for RankingError {
    fn from(e: LogError) -> Self {
        match e {
            LogError::Unavailable(_) => RankingError::Unavailable(e.to_string()),
            LogError::Corrupt(_) | LogError::InvalidName(_) => RankingError::Corrupt(e.to_string()),
        }
    }
}

impl From<AppendError> for RankingError {
    fn from(e: AppendError) -> Self {
        match e {
            AppendError::Unavailable(_) => RankingError::Unavailable(e.to_string()),
            _ => RankingError::Corrupt(e.to_string()),
        }
    }
}

impl From<ReadModelError> for RankingError {
    fn from(e: ReadModelError) -> Self {
        match e {
            ReadModelError::Unavailable(_) => RankingError::Unavailable(e.to_string()),
            ReadModelError::Corrupt(_) => RankingError::Corrupt(e.to_string()),
        }
    }
}

impl From<PortError> for RankingError {
    fn from(e: PortError) -> Self {
        match e {
            PortError::Unavailable(_) => RankingError::Unavailable(e.to_string()),
            PortError::Corrupt(_) => RankingError::Corrupt(e.to_string()),
        }
    }
}

impl From<DecodeError> for RankingError {
    fn from(e: DecodeError) -> Self {
        RankingError::Corrupt(e.to_string())
    }
}

impl From<GameLogError> for RankingError {
    fn from(e: GameLogError) -> Self {
        match e {
            GameLogError::Log(l) => l.into(),
            other @ GameLogError::Corrupt { .. } => RankingError::Corrupt(other.to_string()),
        }
    }
}
