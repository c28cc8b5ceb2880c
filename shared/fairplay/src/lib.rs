//! # weiqi-fairplay: the fair-play assessment core
//!
//! Issue 34 item 3. A rank certified from online games means something only if the games were the
//! player's own. This crate turns an engine's analysis of a player's games, and what the game page
//! recorded during the player's own turns, into figures; compares each figure with the baseline of
//! the player's own rank band and time control; and maps the flags raised to a verdict through an
//! **open rule table in data** (`rules/default.toml`, like the promotion rules), never a black box:
//! every verdict carries the flags and the rules that made it.
//!
//! ```text
//!   GTP answer ──parse_top_moves──▶ MoveAnalysis (candidates best first, the move played)
//!   [MoveAnalysis] + [Turn] ──figures──▶ Figures (top-1, top-3, mean loss, complex top-1,
//!                                                 time regularity, blur share)
//!   [Figures of a band] ──Baseline::of──▶ Baseline (mean, sd per figure)
//!   Figures + Baseline + RuleTable ──assess──▶ Assessment { verdict, flags, reasons }
//! ```
//!
//! Pure and deterministic: no IO, no clock, no randomness. Engines are the shell's business
//! (`weiqi bench fairplay` drives GNU Go); anything that ranks moves with values can feed
//! [`MoveAnalysis`].
//!
//! What the figures mean, and what they do not: an engine's *agreement* with a player is evidence
//! only against the same rank's players, since strong players agree with engines more. With the
//! same engine as assistant and judge (as in the bench), detection measures the pipeline and the
//! table; a stronger judge than the assistant separates them better, a weaker one worse.

pub mod analysis;
pub mod assess;
pub mod baseline;
pub mod figures;
pub mod table;

pub use analysis::{Candidate, MoveAnalysis, ParseError, parse_top_moves};
pub use assess::{Assessment, Flag, assess};
pub use baseline::{Baseline, Stat};
pub use figures::{Figure, Figures, Turn, figures};
pub use table::{FlagRule, RuleTable, Settings, TableError, Verdict, VerdictRule};
