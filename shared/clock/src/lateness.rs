//! Lateness at the start of a game (Art. 22.1–4), as a pure decider.
//!
//! - Art. 22.1–2: a player more than `limit` late (1 h with separate venue and lodging, 15 min at the same
//!   venue) forfeits. Otherwise `factor` × the late time is deducted from their main time (factor 2 by the
//!   rules) and the clock starts once both are present.
//! - Art. 22.3: both late are each treated so, down to both forfeiting.
//! - Art. 22.4: in fast games with no (or very short) basic time, the clock starts on schedule and the
//!   absent player's byo-yomi runs; if it runs out before they arrive, they forfeit.
//!
//! Decisions where the rules are silent: an arrival exactly at the limit is in time ("不得超过"); the clock
//! starts when the later player arrives (the deduction is the whole penalty, not added to time the clock
//! already ran); a deduction comes off main time only and stops at zero, except that a deduction leaving an
//! absolute or Fischer player no time at all is a forfeit. After a pause, lateness is not penalised: the
//! clock simply runs (Art. 22.1, last sentence), which needs no decider.

use crate::bank::Bank;
use crate::event::{ClockEvent, Expiry};
use crate::side::{BySide, Side};
use crate::time::{DurationMs, Millis};
use crate::time_control::TimeControl;

/// How an event treats lateness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LatenessConfig {
    /// Being later than this forfeits (unused with [`LatePenalty::ByoYomiRuns`]).
    pub limit: DurationMs,
    /// What lateness within the limit costs.
    pub penalty: LatePenalty,
}

/// What lateness within the limit costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LatePenalty {
    /// `factor` × the late time comes off main time (2 in Art. 22.1; 1 in seed 001's local event, where the
    /// game simply goes on within the time limit).
    Deduct {
        /// The multiplier.
        factor: u32,
    },
    /// Art. 22.4: the clock starts on schedule and the absent player's byo-yomi runs.
    ByoYomiRuns,
}

/// Where the players stay, which sets the forfeit limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Venue {
    /// Venue and lodging apart: 1 hour (Art. 22.1).
    Separate,
    /// Venue and lodging together: 15 minutes (Art. 22.2).
    Same,
}

impl LatenessConfig {
    /// Art. 22.1: separate venue and lodging, 1 hour, twice the late time deducted.
    pub const SEPARATE_VENUE: LatenessConfig =
        LatenessConfig { limit: DurationMs::from_hours(1), penalty: LatePenalty::Deduct { factor: 2 } };
    /// Art. 22.2: same venue, 15 minutes, twice the late time deducted.
    pub const SAME_VENUE: LatenessConfig =
        LatenessConfig { limit: DurationMs::from_mins(15), penalty: LatePenalty::Deduct { factor: 2 } };
    /// Seed 001's local event: 5 minutes late forfeits; within that the game goes on in the time limit.
    pub const SEED_001_LOCAL: LatenessConfig =
        LatenessConfig { limit: DurationMs::from_mins(5), penalty: LatePenalty::Deduct { factor: 1 } };

    /// The rules' treatment for `venue` and `control`: Art. 22.4 when the control has byo-yomi or overtime
    /// but no main time, else Art. 22.1–2.
    #[must_use]
    pub fn for_control(venue: Venue, control: &TimeControl) -> LatenessConfig {
        let base = match venue {
            Venue::Separate => LatenessConfig::SEPARATE_VENUE,
            Venue::Same => LatenessConfig::SAME_VENUE,
        };
        let no_main = Bank::initial(control).in_overtime();
        if no_main { LatenessConfig { penalty: LatePenalty::ByoYomiRuns, ..base } } else { base }
    }
}

/// The ruling on lateness at an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LatenessRuling {
    /// Nothing to do yet; decide again at `until` or when someone arrives.
    Wait {
        /// The next instant the ruling can change without an arrival.
        until: Millis,
    },
    /// Start the clock at `at`, after deducting `deductions`.
    Start {
        /// When the clock starts.
        at: Millis,
        /// Deducted from each side's main time.
        deductions: BySide<DurationMs>,
    },
    /// `loser` forfeits.
    Forfeit {
        /// Who.
        loser: Side,
    },
    /// Both forfeit.
    BothForfeit,
}

impl LatenessRuling {
    /// The clock events a [`LatenessRuling::Start`] calls for (deductions, then the start); none otherwise.
    #[must_use]
    pub fn events(&self) -> Vec<ClockEvent> {
        let LatenessRuling::Start { at, deductions } = self else {
            return Vec::new();
        };
        let mut events: Vec<ClockEvent> = deductions
            .iter()
            .filter(|(_, amount)| **amount > DurationMs::ZERO)
            .map(|(side, amount)| ClockEvent::LatenessDeducted { side, amount: *amount })
            .collect();
        events.push(ClockEvent::Started { at: *at });
        events
    }
}

/// Decides lateness at `now` for a game scheduled at `scheduled`, given who has arrived and when (arrivals
/// after `now` are not yet known and are ignored).
#[must_use]
pub fn decide_lateness(
    config: &LatenessConfig,
    control: &TimeControl,
    scheduled: Millis,
    arrivals: BySide<Option<Millis>>,
    now: Millis,
) -> LatenessRuling {
    if now < scheduled {
        return LatenessRuling::Wait { until: scheduled };
    }
    let arrivals = arrivals.map(|_, a| a.filter(|&a| a <= now));
    let LatePenalty::Deduct { factor } = config.penalty else {
        return LatenessRuling::Start { at: scheduled, deductions: BySide::both(DurationMs::ZERO) };
    };
    let late = arrivals.map(|_, a| (a.unwrap_or(now) - scheduled).non_negative());
    let out = late.map(|_, l| l > config.limit);
    let forfeit_at = scheduled + config.limit + DurationMs(1);
    match (out.black, out.white) {
        (true, true) => LatenessRuling::BothForfeit,
        (true, false) | (false, true) => {
            let loser = if out.black { Side::Black } else { Side::White };
            if arrivals[loser.opponent()].is_some() {
                LatenessRuling::Forfeit { loser }
            } else {
                LatenessRuling::Wait { until: forfeit_at }
            }
        }
        (false, false) => {
            let (Some(black), Some(white)) = (arrivals.black, arrivals.white) else {
                return LatenessRuling::Wait { until: forfeit_at };
            };
            let deductions = late.map(|_, l| l.times(i64::from(factor)));
            let start = Bank::initial(control);
            let rule = control.rule();
            let exhausted = deductions.map(|_, d| start.deduct(rule, d).is_none());
            match (exhausted.black, exhausted.white) {
                (true, true) => LatenessRuling::BothForfeit,
                (true, false) => LatenessRuling::Forfeit { loser: Side::Black },
                (false, true) => LatenessRuling::Forfeit { loser: Side::White },
                (false, false) => LatenessRuling::Start { at: black.max(white).max(scheduled), deductions },
            }
        }
    }
}

/// Art. 22.4: rules on a flag under [`LatePenalty::ByoYomiRuns`]: if the flagged player had not arrived by
/// the deadline it is a forfeit for lateness (both forfeit if the opponent had not arrived either); `None`
/// if they were present (an ordinary loss on time).
#[must_use]
pub fn rule_absent_expiry(expiry: &Expiry, arrivals: BySide<Option<Millis>>) -> Option<LatenessRuling> {
    let present = arrivals.map(|_, a| a.is_some_and(|a| a <= expiry.deadline));
    if present[expiry.side] {
        None
    } else if present[expiry.side.opponent()] {
        Some(LatenessRuling::Forfeit { loser: expiry.side })
    } else {
        Some(LatenessRuling::BothForfeit)
    }
}
