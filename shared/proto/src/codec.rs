//! What every service's log codec shares: the error a stored message that does not read back into
//! the domain is refused with ([`CodecError`], naming the field as the `.proto` file does), the
//! two-way table of a domain enum and its protobuf enum ([`EnumPairs`]), and [`required`] and
//! [`narrow`] for fields the domain always has and numbers it holds in smaller types.

/// Why a stored message cannot be read back into the domain's types.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// A message field or a `oneof` that the domain always has is absent.
    #[error("{field} is missing")]
    Missing {
        /// The field (`Message.field`).
        field: &'static str,
    },
    /// An enum field holds a value this version does not know (or `*_UNSPECIFIED`).
    #[error("{field} holds the unknown enum value {value}")]
    UnknownEnum {
        /// The field (`Message.field`).
        field: &'static str,
        /// The stored value.
        value: i32,
    },
    /// A number does not fit the domain's type.
    #[error("{field} is {value}, out of range")]
    OutOfRange {
        /// The field (`Message.field`).
        field: &'static str,
        /// The stored value.
        value: u64,
    },
    /// A value or a combination of values the domain cannot take (a date, a certificate that does not
    /// parse).
    #[error("{field}: {reason}")]
    Invalid {
        /// The field (`Message.field`).
        field: &'static str,
        /// Why.
        reason: String,
    },
}

impl CodecError {
    /// The field the error is about (`Message.field`).
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
pub struct EnumPairs<D: 'static, P: 'static>(pub &'static [(D, P)]);

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
    pub fn encode(&self, value: D) -> i32 {
        match self.0.iter().find(|(d, _)| *d == value) {
            Some((_, p)) => (*p).into(),
            None => panic!("the protobuf table lacks {value:?}"),
        }
    }

    /// The domain value of a stored wire value.
    ///
    /// # Errors
    /// [`CodecError::UnknownEnum`] naming `field` when no pair has `value`.
    pub fn decode(&self, field: &'static str, value: i32) -> Result<D, CodecError> {
        self.0
            .iter()
            .find(|(_, p)| (*p).into() == value)
            .map(|(d, _)| *d)
            .ok_or(CodecError::UnknownEnum { field, value })
    }
}

/// A message field the domain always has.
///
/// # Errors
/// [`CodecError::Missing`] naming `field`.
pub fn required<T>(value: Option<T>, field: &'static str) -> Result<T, CodecError> {
    value.ok_or(CodecError::Missing { field })
}

/// A stored `uint32` narrowed to the domain's smaller integer type.
///
/// # Errors
/// [`CodecError::OutOfRange`] naming `field`.
pub fn narrow<T: TryFrom<u32>>(value: u32, field: &'static str) -> Result<T, CodecError> {
    T::try_from(value).map_err(|_| CodecError::OutOfRange { field, value: u64::from(value) })
}
