//! A player's registration snapshot: who they were when they entered, so exports stay correct after
//! a rank later changes.

use crate::ids::{Millis, PlayerId};
use crate::rank::Rank;
use serde::{Deserialize, Serialize};

/// A player as registered for one tournament (frozen at registration).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registration {
    /// The player's id in this tournament.
    pub player: PlayerId,
    /// Name in Chinese script (may be empty for foreign players).
    pub name_zh: String,
    /// Name in Latin script, "Surname Given-name" (used by the `.h9` export).
    pub name_latin: String,
    /// Rank at registration.
    pub rank: Rank,
    /// Rating at registration, if any (breaks seeding ties after rank).
    pub rating: Option<i32>,
    /// Club.
    pub club: Option<String>,
    /// Region (province, city).
    pub region: Option<String>,
    /// Family (a surname and household the director writes, e.g. `王家`): players of one family are
    /// kept apart when the event separates families. Absent from registrations recorded before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// Two-letter country code for the EGD (defaults to "CN" in the export).
    pub country: Option<String>,
    /// European Go Database PIN.
    pub egd_pin: Option<u64>,
    /// When the registration was accepted.
    pub at: Millis,
}

impl Registration {
    /// A minimal registration (tests, simulations): Latin name only.
    pub fn new(player: PlayerId, name_latin: &str, rank: Rank) -> Registration {
        Registration {
            player,
            name_zh: String::new(),
            name_latin: name_latin.to_string(),
            rank,
            rating: None,
            club: None,
            region: None,
            family: None,
            country: None,
            egd_pin: None,
            at: Millis(0),
        }
    }
}
