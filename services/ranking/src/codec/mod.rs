//! The rating core's ledger entries and case events ⇄ their typed `weiqi.v1` messages
//! (`proto/weiqi/v1/ranking_events.proto`).
//!
//! This is the half of [`crate::convert`] that mirrors the rating core field by field: [`ledger`] for
//! rating-ledger entries ([`crate::convert::LedgerEntry`]: a [`weiqi_rating::RatingInput`] and the
//! [`weiqi_rating::RatingEvent`]s it produced), [`case`] for [`weiqi_rating::CaseEvent`]s with their
//! evidence, automatic checks and certificates. [`crate::convert`] wraps the messages in the
//! `RankingEnvelope` and still reads the JSON bodies earlier versions wrote.
//!
//! Writing cannot fail. Reading a stored message fails with a [`CodecError`] that names the field
//! (`message.field`, as in the `.proto` file) when a message the domain always has is missing, a
//! `oneof` is empty, a number does not fit the domain's type, or an enum holds a value this version
//! does not know (`*_UNSPECIFIED` included): an unknown value is never replaced by a default.
//!
//! Every `f64` is a protobuf `double`, stored as its IEEE-754 bits: ratings come back bit for bit.
//! The doubles have explicit presence (`optional double`), always written and required when read:
//! prost skips an implicit-presence double equal to `0.0`, which `-0.0` is (tokio-rs/prost#1177).

pub mod case;
pub mod ledger;

pub use case::{case_event_from_pb, case_event_to_pb};
pub use ledger::{ledger_entry_from_pb, ledger_entry_to_pb};

/// Why a stored message cannot be read back into the domain.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// A message field or a `oneof` that the domain always has is absent.
    #[error("{field} is missing")]
    Missing {
        /// The field (`message.field`).
        field: &'static str,
    },
    /// An enum field holds a value this version does not know (or `*_UNSPECIFIED`).
    #[error("{field} holds the unknown enum value {value}")]
    UnknownEnum {
        /// The field (`message.field`).
        field: &'static str,
        /// The stored value.
        value: i32,
    },
    /// A number does not fit the domain's type.
    #[error("{field} is {value}, out of range")]
    OutOfRange {
        /// The field (`message.field`).
        field: &'static str,
        /// The stored value.
        value: u64,
    },
    /// A value the domain cannot take (a date, a certificate that does not parse).
    #[error("{field}: {reason}")]
    Invalid {
        /// The field (`message.field`).
        field: &'static str,
        /// Why.
        reason: String,
    },
}

impl CodecError {
    /// The field the error is about (`message.field`).
    #[must_use]
    pub fn field(&self) -> &'static str {
        match self {
            CodecError::Missing { field }
            | CodecError::UnknownEnum { field, .. }
            | CodecError::OutOfRange { field, .. }
            | CodecError::Invalid { field, .. } => field,
        }
    }
}

/// A domain enum and its protobuf enum, value by value: one table per enum serves both directions.
///
/// The protobuf zero value (`*_UNSPECIFIED`) is in no pair, so reading it fails like any other value
/// the table does not know.
pub(crate) struct EnumPairs<D: 'static, P: 'static>(pub(crate) &'static [(D, P)]);

impl<D, P> EnumPairs<D, P>
where
    D: Copy + PartialEq + std::fmt::Debug,
    P: Copy + Into<i32>,
{
    /// The wire value of a domain value.
    ///
    /// # Panics
    /// If the table lacks a domain value: a programming error, caught by the round-trip tests of
    /// every variant (never by stored data).
    pub(crate) fn wire(&self, value: D) -> i32 {
        match self.0.iter().find(|(d, _)| *d == value) {
            Some((_, p)) => (*p).into(),
            None => panic!("the protobuf table lacks {value:?}"),
        }
    }

    /// The domain value of a stored wire value.
    ///
    /// # Errors
    /// [`CodecError::UnknownEnum`] naming `field` when no pair has `value`.
    pub(crate) fn domain(&self, field: &'static str, value: i32) -> Result<D, CodecError> {
        self.0
            .iter()
            .find(|(_, p)| (*p).into() == value)
            .map(|(d, _)| *d)
            .ok_or(CodecError::UnknownEnum { field, value })
    }
}

/// A message field the domain always has.
pub(crate) fn required<T>(value: Option<T>, field: &'static str) -> Result<T, CodecError> {
    value.ok_or(CodecError::Missing { field })
}
