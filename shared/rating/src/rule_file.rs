//! Loading and validating an association's rule file (TOML), with errors that give line and reason.
//!
//! # The format
//!
//! ```toml
//! [association]
//! id = "cwa"
//! name = "中国围棋协会 (example)"
//! ladder = "amateur"          # amateur | professional | shanghai | beijing | an id defined by [[grade]]
//!
//! [rank_mapping.glicko2]      # optional, one table per rating system (glicko2, egf, elo)
//! anchor = "1d"               # this grade's nominal rating is `rating`,
//! rating = 2100.0             # each grade up or down adds or removes `per_grade`;
//! per_grade = 100.0           # honorary grades are skipped
//! top = "7d"                  # optional: highest grade a rating can reach
//! # or: table = [{ grade = "1k", rating = 2000.0 }, { grade = "1d", rating = 2100.0 }]
//!
//! [[rule]]
//! id = "qualify-1d"           # unique; cited in checks and certificates
//! kind = "qualification"      # qualification | placing | title | quota | rating | points
//! description = "..."         # optional
//! from = ["1k"]               # optional; default: the grade just below `to`
//! to = "1d"
//! jump = false                # must be true for a rule that skips grades
//! # kind-specific fields: see the shipped files in rules/ and the table below
//! ```
//!
//! | kind | fields |
//! | --- | --- |
//! | `qualification` | `event_kind`/`event_level`/`event_name` (at least one), `group`, `min_wins`, `rounds` |
//! | `placing` | `placings = [{ event_kind/event_level/event_name, max_place }, …]` |
//! | `title` | `event_kind`/`event_level`/`event_name` |
//! | `quota` | event selector, `percent`, `of_grade`, `rounding` (`floor` default, `ceil`, `nearest`) |
//! | `rating` | `system`, `min_rating`, `min_games` (default 0), `max_deviation` |
//! | `points` | `needed`, `win`/`draw`/`loss = { higher, equal, lower }`, `games = { event_kind … }`, `places = [{ event selector, max_place, points }]` |
//!
//! Every problem found is reported, each with its line, column and reason; a file with any problem is
//! refused whole.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::ops::Range;

use serde::Deserialize;
use sha2::{Digest, Sha256};
use toml::Spanned;

use crate::evidence::EventLevel;
use crate::rules::{
    Association, AssociationRules, EventPoints, EventSelector, PlacingTier, PromotionRule, RelativePoints, Rounding,
    RuleKind,
};
use crate::{Grade, Ladder, RankMapping};

/// One problem in a rule file, at a line and column (both from 1).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct RuleFileError {
    /// Line, from 1.
    pub line: usize,
    /// Column (characters), from 1.
    pub column: usize,
    /// What is wrong.
    pub problem: RuleProblem,
}

/// Every problem found in a rule file (never empty).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub struct RuleFileErrors(pub Vec<RuleFileError>);

impl fmt::Display for RuleFileErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

/// What can be wrong in a rule file.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RuleProblem {
    /// Not valid TOML, a field of the wrong type, an unknown or missing field.
    #[error("{0}")]
    Syntax(String),
    /// The ladder is neither built in nor defined with `[[grade]]`.
    #[error(
        "unknown ladder {ladder:?}: use one of amateur, professional, shanghai, beijing, or define it with [[grade]]"
    )]
    UnknownLadder {
        /// The ladder named.
        ladder: String,
    },
    /// `[[grade]]` entries given for a built-in ladder.
    #[error("ladder {ladder:?} is built in; [[grade]] entries are only for an association's own ladder")]
    GradesForBuiltInLadder {
        /// The ladder.
        ladder: String,
    },
    /// Two grades of a custom ladder share a code.
    #[error("grade code {code:?} appears twice in the ladder")]
    DuplicateGrade {
        /// The code.
        code: String,
    },
    /// A grade code not in the ladder.
    #[error("unknown grade {grade:?} in ladder {ladder}: expected one of {known}")]
    UnknownGrade {
        /// The code given.
        grade: String,
        /// The ladder.
        ladder: String,
        /// Codes that exist (abbreviated).
        known: String,
    },
    /// `kind` is not one of the rule kinds.
    #[error("unknown rule kind {kind:?}: expected qualification, placing, title, quota, rating or points")]
    UnknownKind {
        /// The kind given.
        kind: String,
    },
    /// A field the kind needs is missing.
    #[error("rule kind {kind} needs the field `{field}`")]
    MissingField {
        /// The rule kind.
        kind: String,
        /// The field.
        field: &'static str,
    },
    /// A field given that the kind does not use.
    #[error("field `{field}` does not apply to rule kind {kind}")]
    FieldNotAllowed {
        /// The rule kind.
        kind: String,
        /// The field.
        field: &'static str,
    },
    /// `to` is not above a `from` grade.
    #[error("rule promotes from {from} to {to}, which is not a promotion")]
    NotAPromotion {
        /// From.
        from: String,
        /// To.
        to: String,
    },
    /// A rule skips grades without `jump = true`.
    #[error("rule skips grades from {from} to {to}; write `jump = true` if that is intended")]
    JumpNotDeclared {
        /// From.
        from: String,
        /// To.
        to: String,
    },
    /// Two rules share an id.
    #[error("rule id {id:?} is used twice")]
    DuplicateRuleId {
        /// The id.
        id: String,
    },
    /// An id is empty or has characters outside `a-z 0-9 - _ .`.
    #[error("id {id:?} must be non-empty and use only a-z, 0-9, '-', '_' and '.'")]
    BadId {
        /// The id.
        id: String,
    },
    /// `min_wins` exceeds `rounds`.
    #[error("min_wins {min_wins} is more than the {rounds} rounds played")]
    WinsExceedRounds {
        /// Wins asked.
        min_wins: u32,
        /// Rounds.
        rounds: u32,
    },
    /// A count that must be at least 1 is 0.
    #[error("`{field}` must be at least 1")]
    Zero {
        /// The field.
        field: &'static str,
    },
    /// A percentage outside (0, 100].
    #[error("percent must be above 0 and at most 100, not {percent}")]
    BadPercent {
        /// The value.
        percent: f64,
    },
    /// A number that must be finite (and maybe positive) is not.
    #[error("`{field}` must be a finite{} number", if *positive { " positive" } else { "" })]
    BadNumber {
        /// The field.
        field: &'static str,
        /// Whether it must also be positive.
        positive: bool,
    },
    /// An event selector with no field.
    #[error("say which events count: give event_kind, event_level or event_name")]
    EmptyEventSelector,
    /// An unknown event level.
    #[error("unknown event level {level:?}: expected club, county, city, provincial, national, world or online")]
    UnknownLevel {
        /// The level given.
        level: String,
    },
    /// An unknown rating system.
    #[error("unknown rating system {system:?}: expected glicko2, egf or elo")]
    UnknownSystem {
        /// The system given.
        system: String,
    },
    /// An unknown rounding.
    #[error("unknown rounding {rounding:?}: expected floor, ceil or nearest")]
    UnknownRounding {
        /// The rounding given.
        rounding: String,
    },
    /// A placing rule without tiers, or a table mapping without rows.
    #[error("`{field}` must list at least one entry")]
    EmptyList {
        /// The field.
        field: &'static str,
    },
    /// A rank mapping whose ratings do not rise with the grades.
    #[error(
        "rank mapping ratings must rise with the grades: {lower} ({lower_rating}) is not below {higher} ({higher_rating})"
    )]
    MappingNotIncreasing {
        /// The lower grade.
        lower: String,
        /// Its rating.
        lower_rating: f64,
        /// The higher grade.
        higher: String,
        /// Its rating.
        higher_rating: f64,
    },
    /// A rank mapping given both ways, or neither.
    #[error("a rank mapping needs either anchor + rating + per_grade, or table")]
    MappingShape,
    /// The file has no `[[rule]]`.
    #[error("the file has no [[rule]]")]
    NoRules,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    association: RawAssociation,
    #[serde(default)]
    grade: Vec<Spanned<RawGrade>>,
    #[serde(default)]
    rank_mapping: BTreeMap<String, Spanned<RawMapping>>,
    #[serde(default)]
    rule: Vec<Spanned<RawRule>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAssociation {
    id: Spanned<String>,
    name: String,
    ladder: Spanned<String>,
    /// Grades from this one up always need two reviewers (four eyes), whatever the check says.
    #[serde(default)]
    two_reviewers_from: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGrade {
    code: Spanned<String>,
    name: String,
    #[serde(default)]
    honorary: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMapping {
    anchor: Option<Spanned<String>>,
    rating: Option<Spanned<f64>>,
    per_grade: Option<Spanned<f64>>,
    top: Option<Spanned<String>>,
    table: Option<Spanned<Vec<RawMappingRow>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMappingRow {
    grade: Spanned<String>,
    rating: Spanned<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSelector {
    event_kind: Option<Spanned<String>>,
    event_level: Option<Spanned<String>>,
    event_name: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTier {
    event_kind: Option<Spanned<String>>,
    event_level: Option<Spanned<String>>,
    event_name: Option<Spanned<String>>,
    max_place: Spanned<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlacePoints {
    event_kind: Option<Spanned<String>>,
    event_level: Option<Spanned<String>>,
    event_name: Option<Spanned<String>>,
    max_place: Spanned<u32>,
    points: Spanned<i32>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawRelative {
    #[serde(default)]
    higher: i32,
    #[serde(default)]
    equal: i32,
    #[serde(default)]
    lower: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    id: Spanned<String>,
    kind: Spanned<String>,
    description: Option<String>,
    from: Option<Vec<Spanned<String>>>,
    to: Spanned<String>,
    jump: Option<Spanned<bool>>,
    event_kind: Option<Spanned<String>>,
    event_level: Option<Spanned<String>>,
    event_name: Option<Spanned<String>>,
    group: Option<Spanned<String>>,
    min_wins: Option<Spanned<u32>>,
    rounds: Option<Spanned<u32>>,
    placings: Option<Spanned<Vec<Spanned<RawTier>>>>,
    percent: Option<Spanned<f64>>,
    of_grade: Option<Spanned<String>>,
    rounding: Option<Spanned<String>>,
    system: Option<Spanned<String>>,
    min_rating: Option<Spanned<f64>>,
    min_games: Option<Spanned<u32>>,
    max_deviation: Option<Spanned<f64>>,
    needed: Option<Spanned<i32>>,
    games: Option<Spanned<RawSelector>>,
    win: Option<Spanned<RawRelative>>,
    draw: Option<Spanned<RawRelative>>,
    loss: Option<Spanned<RawRelative>>,
    places: Option<Spanned<Vec<Spanned<RawPlacePoints>>>>,
}

const SYSTEMS: [&str; 3] = ["glicko2", "egf", "elo"];

/// Loads and validates a rule file. On failure, every problem found is returned with line and reason.
///
/// # Errors
/// [`RuleFileErrors`], one entry per problem, in file order.
pub fn load_rules(text: &str) -> Result<AssociationRules, RuleFileErrors> {
    let mut cx = Checker { text, errors: Vec::new() };
    let raw: RawFile = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            cx.push(span, RuleProblem::Syntax(e.message().trim().to_owned()));
            return Err(cx.finish());
        }
    };
    let ladder = cx.ladder(&raw);
    let association = Association { id: raw.association.id.get_ref().clone(), name: raw.association.name.clone() };
    cx.check_id(&raw.association.id);
    let mut mappings = Vec::new();
    let mut two_reviewers_from = None;
    if let Some(ladder) = &ladder {
        if let Some(code) = &raw.association.two_reviewers_from
            && cx.grade(ladder, code).is_some()
        {
            two_reviewers_from = Some(code.get_ref().clone());
        }
        for (system, mapping) in &raw.rank_mapping {
            if let Some(m) = cx.mapping(ladder, system, mapping) {
                mappings.push(m);
            }
        }
    }
    if raw.rule.is_empty() {
        cx.push(0..0, RuleProblem::NoRules);
    }
    let mut rules = Vec::new();
    let mut ids = HashSet::new();
    for rule in &raw.rule {
        let id = rule.get_ref().id.get_ref();
        cx.check_id(&rule.get_ref().id);
        if !ids.insert(id.clone()) {
            cx.push(rule.get_ref().id.span(), RuleProblem::DuplicateRuleId { id: id.clone() });
        }
        if let Some(ladder) = &ladder
            && let Some(r) = cx.rule(ladder, rule)
        {
            rules.push(r);
        }
    }
    match ladder {
        Some(ladder) if cx.errors.is_empty() => Ok(AssociationRules {
            name: format!("{}-{}", association.id, ladder.id),
            association,
            ladder,
            mappings,
            rules,
            digest: hex::encode(Sha256::digest(text.as_bytes())),
            two_reviewers_from,
        }),
        _ => Err(cx.finish()),
    }
}

struct Checker<'a> {
    text: &'a str,
    errors: Vec<(usize, RuleProblem)>,
}

impl Checker<'_> {
    fn push(&mut self, span: Range<usize>, problem: RuleProblem) {
        self.errors.push((span.start, problem));
    }

    fn finish(self) -> RuleFileErrors {
        let mut errors: Vec<RuleFileError> = self
            .errors
            .into_iter()
            .map(|(offset, problem)| {
                let (line, column) = line_column(self.text, offset);
                RuleFileError { line, column, problem }
            })
            .collect();
        errors.sort_by_key(|e| (e.line, e.column));
        RuleFileErrors(errors)
    }

    fn check_id(&mut self, id: &Spanned<String>) {
        let ok = !id.get_ref().is_empty()
            && id.get_ref().bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || b"-_.".contains(&c));
        if !ok {
            self.push(id.span(), RuleProblem::BadId { id: id.get_ref().clone() });
        }
    }

    fn ladder(&mut self, raw: &RawFile) -> Option<Ladder> {
        let id = raw.association.ladder.get_ref();
        if let Some(ladder) = Ladder::built_in(id) {
            if let Some(first) = raw.grade.first() {
                self.push(first.span(), RuleProblem::GradesForBuiltInLadder { ladder: id.clone() });
            }
            return Some(ladder);
        }
        if raw.grade.is_empty() {
            self.push(raw.association.ladder.span(), RuleProblem::UnknownLadder { ladder: id.clone() });
            return None;
        }
        let mut seen = HashSet::new();
        let mut grades = Vec::new();
        for g in &raw.grade {
            let g = g.get_ref();
            if !seen.insert(g.code.get_ref().clone()) {
                self.push(g.code.span(), RuleProblem::DuplicateGrade { code: g.code.get_ref().clone() });
            }
            grades.push(Grade {
                code: g.code.get_ref().clone(),
                name: g.name.clone(),
                rank: g.code.get_ref().parse().ok(),
                honorary: g.honorary,
            });
        }
        Some(Ladder { id: id.clone(), grades })
    }

    fn grade(&mut self, ladder: &Ladder, code: &Spanned<String>) -> Option<usize> {
        let found = ladder.position(code.get_ref());
        if found.is_none() {
            let codes = ladder.codes();
            let known = if codes.len() > 6 {
                format!("{} … {}", codes[..3].join(", "), codes[codes.len() - 3..].join(", "))
            } else {
                codes.join(", ")
            };
            self.push(
                code.span(),
                RuleProblem::UnknownGrade { grade: code.get_ref().clone(), ladder: ladder.id.clone(), known },
            );
        }
        found
    }

    fn finite(&mut self, value: &Spanned<f64>, field: &'static str, positive: bool) -> Option<f64> {
        let v = *value.get_ref();
        if v.is_finite() && (!positive || v > 0.0) {
            Some(v)
        } else {
            self.push(value.span(), RuleProblem::BadNumber { field, positive });
            None
        }
    }

    fn mapping(&mut self, ladder: &Ladder, system: &str, raw: &Spanned<RawMapping>) -> Option<RankMapping> {
        let span = raw.span();
        if !SYSTEMS.contains(&system) {
            self.push(span, RuleProblem::UnknownSystem { system: system.to_owned() });
            return None;
        }
        let m = raw.get_ref();
        let mapping = match (&m.anchor, &m.rating, &m.per_grade, &m.table) {
            (Some(anchor), Some(rating), Some(per_grade), None) => {
                let anchor = self.grade(ladder, anchor);
                let rating = self.finite(rating, "rating", false);
                let per_grade = self.finite(per_grade, "per_grade", true);
                let top = match &m.top {
                    Some(t) => Some(self.grade(ladder, t)?),
                    None => None,
                };
                RankMapping::linear(system, ladder, anchor?, rating?, per_grade?, top)
            }
            (None, None, None, Some(table)) => {
                if let Some(top) = &m.top {
                    self.push(top.span(), RuleProblem::FieldNotAllowed { kind: "table mapping".into(), field: "top" });
                }
                if table.get_ref().is_empty() {
                    self.push(table.span(), RuleProblem::EmptyList { field: "table" });
                    return None;
                }
                let mut rows = Vec::new();
                for row in table.get_ref() {
                    let g = self.grade(ladder, &row.grade);
                    let r = self.finite(&row.rating, "rating", false);
                    if let (Some(g), Some(r)) = (g, r) {
                        rows.push((g, r, row.grade.span()));
                    }
                }
                rows.sort_by_key(|r| r.0);
                for pair in rows.windows(2) {
                    if pair[0].1 >= pair[1].1 {
                        self.push(
                            pair[1].2.clone(),
                            RuleProblem::MappingNotIncreasing {
                                lower: ladder.grades[pair[0].0].code.clone(),
                                lower_rating: pair[0].1,
                                higher: ladder.grades[pair[1].0].code.clone(),
                                higher_rating: pair[1].1,
                            },
                        );
                    }
                }
                RankMapping {
                    system: system.to_owned(),
                    nominal: rows.into_iter().map(|(g, r, _)| (ladder.grades[g].code.clone(), r)).collect(),
                }
            }
            _ => {
                self.push(span, RuleProblem::MappingShape);
                return None;
            }
        };
        Some(mapping)
    }

    fn selector(
        &mut self,
        kind: Option<&Spanned<String>>,
        level: Option<&Spanned<String>>,
        name: Option<&Spanned<String>>,
        whole: Range<usize>,
    ) -> Option<EventSelector> {
        if kind.is_none() && level.is_none() && name.is_none() {
            self.push(whole, RuleProblem::EmptyEventSelector);
            return None;
        }
        let level = match level {
            Some(l) => match EventLevel::from_name(l.get_ref()) {
                Some(level) => Some(level),
                None => {
                    self.push(l.span(), RuleProblem::UnknownLevel { level: l.get_ref().clone() });
                    return None;
                }
            },
            None => None,
        };
        Some(EventSelector { kind: kind.map(|k| k.get_ref().clone()), level, name: name.map(|n| n.get_ref().clone()) })
    }

    fn rule(&mut self, ladder: &Ladder, spanned: &Spanned<RawRule>) -> Option<PromotionRule> {
        let raw = spanned.get_ref();
        let whole = spanned.span();
        let kind_name = raw.kind.get_ref().as_str();
        let to = self.grade(ladder, &raw.to);
        let mut from = Vec::new();
        let mut from_ok = true;
        for f in raw.from.iter().flatten() {
            if f.get_ref() == "unranked" {
                from.push(None);
            } else {
                match self.grade(ladder, f) {
                    Some(p) => from.push(Some(p)),
                    None => from_ok = false,
                }
            }
        }
        let jump = raw.jump.as_ref().is_some_and(|j| *j.get_ref());
        if let Some(to) = to {
            let code = |p: Option<usize>| {
                p.and_then(|p| ladder.grade(p)).map_or_else(|| "unranked".to_owned(), |g| g.code.clone())
            };
            for (f, spanned_from) in from.iter().zip(raw.from.iter().flatten()) {
                let below = f.map_or(-1, |p| p as i64);
                if below >= to as i64 {
                    self.push(spanned_from.span(), RuleProblem::NotAPromotion { from: code(*f), to: code(Some(to)) });
                } else if to as i64 - below > 1 && !jump {
                    self.push(spanned_from.span(), RuleProblem::JumpNotDeclared { from: code(*f), to: code(Some(to)) });
                }
            }
        }

        // Which optional fields each kind uses; any other given is an error.
        let allowed: &[&str] = match kind_name {
            "qualification" => &["event_kind", "event_level", "event_name", "group", "min_wins", "rounds"],
            "placing" => &["placings"],
            "title" => &["event_kind", "event_level", "event_name"],
            "quota" => &["event_kind", "event_level", "event_name", "percent", "of_grade", "rounding"],
            "rating" => &["system", "min_rating", "min_games", "max_deviation"],
            "points" => &["needed", "games", "win", "draw", "loss", "places"],
            _ => {
                self.push(raw.kind.span(), RuleProblem::UnknownKind { kind: kind_name.to_owned() });
                return None;
            }
        };
        let present: [(&'static str, Option<Range<usize>>); 20] = [
            ("event_kind", raw.event_kind.as_ref().map(Spanned::span)),
            ("event_level", raw.event_level.as_ref().map(Spanned::span)),
            ("event_name", raw.event_name.as_ref().map(Spanned::span)),
            ("group", raw.group.as_ref().map(Spanned::span)),
            ("min_wins", raw.min_wins.as_ref().map(Spanned::span)),
            ("rounds", raw.rounds.as_ref().map(Spanned::span)),
            ("placings", raw.placings.as_ref().map(Spanned::span)),
            ("percent", raw.percent.as_ref().map(Spanned::span)),
            ("of_grade", raw.of_grade.as_ref().map(Spanned::span)),
            ("rounding", raw.rounding.as_ref().map(Spanned::span)),
            ("system", raw.system.as_ref().map(Spanned::span)),
            ("min_rating", raw.min_rating.as_ref().map(Spanned::span)),
            ("min_games", raw.min_games.as_ref().map(Spanned::span)),
            ("max_deviation", raw.max_deviation.as_ref().map(Spanned::span)),
            ("needed", raw.needed.as_ref().map(Spanned::span)),
            ("games", raw.games.as_ref().map(Spanned::span)),
            ("win", raw.win.as_ref().map(Spanned::span)),
            ("draw", raw.draw.as_ref().map(Spanned::span)),
            ("loss", raw.loss.as_ref().map(Spanned::span)),
            ("places", raw.places.as_ref().map(Spanned::span)),
        ];
        let mut shape_ok = true;
        for (field, span) in &present {
            if let Some(span) = span
                && !allowed.contains(field)
            {
                self.push(span.clone(), RuleProblem::FieldNotAllowed { kind: kind_name.to_owned(), field });
                shape_ok = false;
            }
        }
        let missing = |cx: &mut Self, field: &'static str| {
            cx.push(whole.clone(), RuleProblem::MissingField { kind: kind_name.to_owned(), field });
        };

        let kind = match kind_name {
            "qualification" | "title" | "quota" => {
                let events = self.selector(
                    raw.event_kind.as_ref(),
                    raw.event_level.as_ref(),
                    raw.event_name.as_ref(),
                    whole.clone(),
                );
                match kind_name {
                    "qualification" => {
                        let (Some(min_wins), Some(rounds)) = (&raw.min_wins, &raw.rounds) else {
                            if raw.min_wins.is_none() {
                                missing(self, "min_wins");
                            }
                            if raw.rounds.is_none() {
                                missing(self, "rounds");
                            }
                            return None;
                        };
                        let (w, r) = (*min_wins.get_ref(), *rounds.get_ref());
                        if r == 0 {
                            self.push(rounds.span(), RuleProblem::Zero { field: "rounds" });
                        } else if w == 0 {
                            self.push(min_wins.span(), RuleProblem::Zero { field: "min_wins" });
                        } else if w > r {
                            self.push(min_wins.span(), RuleProblem::WinsExceedRounds { min_wins: w, rounds: r });
                        }
                        RuleKind::Qualification {
                            events: events?,
                            group: raw.group.as_ref().map(|g| g.get_ref().clone()),
                            min_wins: w,
                            rounds: r,
                        }
                    }
                    "title" => RuleKind::Title { events: events? },
                    _ => {
                        let (Some(percent), Some(of_grade)) = (&raw.percent, &raw.of_grade) else {
                            if raw.percent.is_none() {
                                missing(self, "percent");
                            }
                            if raw.of_grade.is_none() {
                                missing(self, "of_grade");
                            }
                            return None;
                        };
                        let p = *percent.get_ref();
                        if !(p > 0.0 && p <= 100.0) {
                            self.push(percent.span(), RuleProblem::BadPercent { percent: p });
                        }
                        let of_grade = self.grade(ladder, of_grade);
                        let rounding = match raw.rounding.as_ref().map(|r| (r.get_ref().as_str(), r.span())) {
                            None | Some(("floor", _)) => Rounding::Floor,
                            Some(("ceil", _)) => Rounding::Ceil,
                            Some(("nearest", _)) => Rounding::Nearest,
                            Some((other, span)) => {
                                self.push(span, RuleProblem::UnknownRounding { rounding: other.to_owned() });
                                return None;
                            }
                        };
                        RuleKind::Quota { events: events?, percent: p, of_grade: of_grade?, rounding }
                    }
                }
            }
            "placing" => {
                let Some(placings) = &raw.placings else {
                    missing(self, "placings");
                    return None;
                };
                if placings.get_ref().is_empty() {
                    self.push(placings.span(), RuleProblem::EmptyList { field: "placings" });
                }
                let mut tiers = Vec::new();
                for tier in placings.get_ref() {
                    let t = tier.get_ref();
                    let events = self.selector(
                        t.event_kind.as_ref(),
                        t.event_level.as_ref(),
                        t.event_name.as_ref(),
                        tier.span(),
                    );
                    if *t.max_place.get_ref() == 0 {
                        self.push(t.max_place.span(), RuleProblem::Zero { field: "max_place" });
                    }
                    if let Some(events) = events {
                        tiers.push(PlacingTier { events, max_place: *t.max_place.get_ref() });
                    }
                }
                RuleKind::Placing { tiers }
            }
            "rating" => {
                let (Some(system), Some(min_rating)) = (&raw.system, &raw.min_rating) else {
                    if raw.system.is_none() {
                        missing(self, "system");
                    }
                    if raw.min_rating.is_none() {
                        missing(self, "min_rating");
                    }
                    return None;
                };
                if !SYSTEMS.contains(&system.get_ref().as_str()) {
                    self.push(system.span(), RuleProblem::UnknownSystem { system: system.get_ref().clone() });
                }
                let min_rating = self.finite(min_rating, "min_rating", false);
                let max_deviation = match &raw.max_deviation {
                    Some(d) => Some(self.finite(d, "max_deviation", true)?),
                    None => None,
                };
                RuleKind::Rating {
                    system: system.get_ref().clone(),
                    min_rating: min_rating?,
                    min_games: raw.min_games.as_ref().map_or(0, |g| *g.get_ref()),
                    max_deviation,
                }
            }
            _ => {
                let Some(needed) = &raw.needed else {
                    missing(self, "needed");
                    return None;
                };
                if *needed.get_ref() <= 0 {
                    self.push(needed.span(), RuleProblem::Zero { field: "needed" });
                }
                let games = match &raw.games {
                    Some(g) => {
                        let s = g.get_ref();
                        Some(self.selector(
                            s.event_kind.as_ref(),
                            s.event_level.as_ref(),
                            s.event_name.as_ref(),
                            g.span(),
                        )?)
                    }
                    None => None,
                };
                let relative = |r: &Option<Spanned<RawRelative>>| {
                    r.as_ref().map_or_else(RelativePoints::default, |r| {
                        let r = r.get_ref();
                        RelativePoints { higher: r.higher, equal: r.equal, lower: r.lower }
                    })
                };
                let mut places = Vec::new();
                for p in raw.places.iter().flat_map(|p| p.get_ref()) {
                    let e = p.get_ref();
                    if *e.max_place.get_ref() == 0 {
                        self.push(e.max_place.span(), RuleProblem::Zero { field: "max_place" });
                    }
                    if let Some(events) =
                        self.selector(e.event_kind.as_ref(), e.event_level.as_ref(), e.event_name.as_ref(), p.span())
                    {
                        places.push(EventPoints {
                            events,
                            max_place: *e.max_place.get_ref(),
                            points: *e.points.get_ref(),
                        });
                    }
                }
                RuleKind::Points {
                    needed: *needed.get_ref(),
                    games,
                    win: relative(&raw.win),
                    draw: relative(&raw.draw),
                    loss: relative(&raw.loss),
                    places,
                }
            }
        };
        if !shape_ok || !from_ok {
            return None;
        }
        Some(PromotionRule {
            id: raw.id.get_ref().clone(),
            description: raw.description.clone().unwrap_or_default(),
            from,
            to: to?,
            jump,
            kind,
        })
    }
}

/// Line and column (from 1, columns in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
