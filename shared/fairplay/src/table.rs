//! The rule table, in data (`rules/default.toml`; an association may give its own): the counting
//! settings, the flags (one figure against the band's baseline or a fixed value) and the verdicts
//! (which flags, or how many, make "watch" or "suspect"). Validated when read: a table that names a
//! figure or a flag that does not exist is refused with the reason.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::figures::Figure;

/// What an assessment concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Nothing unusual (or too little evidence).
    Clear,
    /// Something unusual: watched, not queued.
    Watch,
    /// Unusual enough for the fair-play office's queue (people decide; nothing is sanctioned here).
    Suspect,
}

impl Verdict {
    /// Its name in the table.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Clear => "clear",
            Verdict::Watch => "watch",
            Verdict::Suspect => "suspect",
        }
    }
}

/// How moves are counted.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Moves before this number are not counted (opening theory).
    pub from_move: u32,
    /// Fewer counted moves: too little evidence (verdict clear, noted).
    pub min_positions: u32,
    /// A position is complex when the best move is worth at least this much more than the third.
    pub complex_gap: f64,
}

/// One flag: a figure against the baseline (`above_sd`, `below_sd`: standard deviations from the
/// band's mean) or a fixed value (`above`, `below`). Exactly one of the four.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlagRule {
    /// Its id, named by verdicts and shown as a reason.
    pub id: String,
    /// The figure.
    pub figure: Figure,
    /// Flag above mean + this many sd.
    #[serde(default)]
    pub above_sd: Option<f64>,
    /// Flag below mean − this many sd.
    #[serde(default)]
    pub below_sd: Option<f64>,
    /// Flag above this value.
    #[serde(default)]
    pub above: Option<f64>,
    /// Flag below this value.
    #[serde(default)]
    pub below: Option<f64>,
    /// What it means, for people.
    #[serde(default)]
    pub description: String,
}

/// One verdict rule: it holds when every flag of `all_of` is raised and at least `at_least` flags
/// are (both, when both are given).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerdictRule {
    /// Its id, shown as a reason.
    pub id: String,
    /// The verdict it gives.
    pub verdict: Verdict,
    /// Flags that must all be raised.
    #[serde(default)]
    pub all_of: Vec<String>,
    /// How many flags must be raised.
    #[serde(default)]
    pub at_least: Option<u32>,
}

/// A validated rule table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleTable {
    /// Counting.
    pub assessment: Settings,
    /// The flags.
    #[serde(rename = "flag")]
    pub flags: Vec<FlagRule>,
    /// The verdicts.
    #[serde(rename = "verdict")]
    pub verdicts: Vec<VerdictRule>,
}

/// Why a rule table is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// Not TOML, or not the table's shape (an unknown figure or key).
    #[error("the rule table does not read: {0}")]
    Syntax(String),
    /// Two flags or two verdicts with one id.
    #[error("the id {0:?} is used twice")]
    DuplicateId(String),
    /// A flag without exactly one threshold, or a threshold that is no finite number ≥ 0 (sd).
    #[error("flag {0:?} needs exactly one of above_sd, below_sd, above, below (finite; sd ≥ 0)")]
    BadThreshold(String),
    /// A verdict naming a flag that does not exist.
    #[error("verdict {verdict:?} names the unknown flag {flag:?}")]
    UnknownFlag {
        /// The verdict rule.
        verdict: String,
        /// The flag named.
        flag: String,
    },
    /// A verdict rule that always or never holds (no condition).
    #[error("verdict {0:?} has no condition (all_of or at_least)")]
    NoCondition(String),
    /// Counting settings out of range.
    #[error("assessment settings: {0}")]
    BadSettings(String),
}

impl RuleTable {
    /// The platform's table (`rules/default.toml`).
    ///
    /// # Panics
    /// Never: the shipped table is checked by the tests.
    #[must_use]
    pub fn built_in() -> RuleTable {
        RuleTable::parse(include_str!("../rules/default.toml")).expect("the shipped fair-play table is valid")
    }

    /// Reads and checks a table.
    ///
    /// # Errors
    /// [`TableError`] with the reason.
    pub fn parse(text: &str) -> Result<RuleTable, TableError> {
        let table: RuleTable = toml::from_str(text).map_err(|e| TableError::Syntax(e.message().to_owned()))?;
        let s = &table.assessment;
        if !(s.complex_gap.is_finite() && s.complex_gap >= 0.0) || s.from_move > 1_000 || s.min_positions > 10_000 {
            return Err(TableError::BadSettings("from_move ≤ 1000, min_positions ≤ 10000, complex_gap ≥ 0".into()));
        }
        let mut ids = BTreeSet::new();
        for f in &table.flags {
            if !ids.insert(f.id.clone()) {
                return Err(TableError::DuplicateId(f.id.clone()));
            }
            let given: Vec<(f64, bool)> = [(f.above_sd, true), (f.below_sd, true), (f.above, false), (f.below, false)]
                .into_iter()
                .filter_map(|(v, sd)| v.map(|v| (v, sd)))
                .collect();
            let ok = matches!(given.as_slice(), [(v, sd)] if v.is_finite() && (!sd || *v >= 0.0));
            if !ok {
                return Err(TableError::BadThreshold(f.id.clone()));
            }
        }
        let mut verdict_ids = BTreeSet::new();
        for v in &table.verdicts {
            if !verdict_ids.insert(v.id.clone()) {
                return Err(TableError::DuplicateId(v.id.clone()));
            }
            if v.all_of.is_empty() && v.at_least.is_none_or(|n| n == 0) {
                return Err(TableError::NoCondition(v.id.clone()));
            }
            if let Some(flag) = v.all_of.iter().find(|f| !ids.contains(*f)) {
                return Err(TableError::UnknownFlag { verdict: v.id.clone(), flag: flag.clone() });
            }
        }
        Ok(table)
    }
}
