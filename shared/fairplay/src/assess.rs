//! The assessment: a player's figures against their band's baseline, through the rule table, to a
//! verdict with its reasons.

use serde::{Deserialize, Serialize};

use crate::baseline::Baseline;
use crate::figures::{Figure, Figures};
use crate::table::{RuleTable, Verdict};

/// A flag raised: which rule, on which figure, the player's value, and the line it crossed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Flag {
    /// The flag rule's id.
    pub rule: String,
    /// The figure.
    pub figure: Figure,
    /// The player's value.
    pub value: f64,
    /// The line it crossed.
    pub threshold: f64,
    /// The band's mean and sd, for a flag against the baseline.
    pub mean: Option<f64>,
    /// The band's sd.
    pub sd: Option<f64>,
}

/// What the table concludes of a player's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Assessment {
    /// The verdict.
    pub verdict: Verdict,
    /// Counted moves.
    pub positions: u32,
    /// Too few counted moves to say anything (the verdict is clear).
    pub too_few: bool,
    /// Flags raised, in table order.
    pub flags: Vec<Flag>,
    /// The verdict rules that held, most severe first (the first gave the verdict).
    pub reasons: Vec<String>,
}

/// Assesses `figures` against `baseline` under `table`. `strictness` scales every standard-deviation
/// threshold (1.0: the table as written; the bench calibrates it to a false-positive rate). A figure
/// the baseline does not measure, or measures with no spread, raises no sd flag.
#[must_use]
pub fn assess(figures: &Figures, baseline: &Baseline, table: &RuleTable, strictness: f64) -> Assessment {
    let too_few = figures.positions < table.assessment.min_positions;
    let mut flags = Vec::new();
    if !too_few {
        for rule in &table.flags {
            let Some(value) = figures.get(rule.figure) else { continue };
            let stat = baseline.stats.get(&rule.figure).filter(|s| s.sd > 0.0);
            let against = |k: f64, above: bool| {
                stat.map(|s| {
                    (
                        if above { s.mean + k * strictness * s.sd } else { s.mean - k * strictness * s.sd },
                        above,
                        Some(*s),
                    )
                })
            };
            let line = match (rule.above_sd, rule.below_sd, rule.above, rule.below) {
                (Some(k), ..) => against(k, true),
                (_, Some(k), ..) => against(k, false),
                (_, _, Some(v), _) => Some((v, true, None)),
                (_, _, _, Some(v)) => Some((v, false, None)),
                _ => None,
            };
            let Some((threshold, above, stat)) = line else { continue };
            if (above && value > threshold) || (!above && value < threshold) {
                flags.push(Flag {
                    rule: rule.id.clone(),
                    figure: rule.figure,
                    value,
                    threshold,
                    mean: stat.map(|s| s.mean),
                    sd: stat.map(|s| s.sd),
                });
            }
        }
    }
    let raised = |id: &String| flags.iter().any(|f| f.rule == *id);
    let mut held: Vec<(Verdict, String)> = table
        .verdicts
        .iter()
        .filter(|v| v.all_of.iter().all(raised) && v.at_least.is_none_or(|n| flags.len() >= n as usize))
        .map(|v| (v.verdict, v.id.clone()))
        .collect();
    held.sort_by_key(|h| std::cmp::Reverse(h.0));
    Assessment {
        verdict: held.first().map_or(Verdict::Clear, |h| h.0),
        positions: figures.positions,
        too_few,
        flags,
        reasons: held.into_iter().map(|h| h.1).collect(),
    }
}
