//! Identifiers and time: the plain values every other module speaks in.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A point in time or a duration, in integer milliseconds since the Unix epoch (UTC): the platform's one
/// time type. The core never reads a clock: every function that needs "now" takes a `Millis`.
pub use weiqi_time::Millis;

macro_rules! string_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub String);

        impl $name {
            /// Wraps a string.
            pub fn new(id: impl Into<String>) -> Self {
                Self(id.into())
            }
            /// The id as text.
            #[must_use]
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self(s.to_owned())
            }
        }
    };
}

string_id!(
    /// A player in the association's registry.
    PlayerId
);
string_id!(
    /// A game (its event-log aggregate id).
    GameId
);
string_id!(
    /// A certification case (its event-log aggregate id).
    CaseId
);
string_id!(
    /// A person acting on a case: applicant, organiser or reviewer.
    ActorId
);
string_id!(
    /// A tournament or other event whose results count as evidence.
    EventId
);
