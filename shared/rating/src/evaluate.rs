//! The evaluator: given a player's standing, verified evidence and the association's rules, which
//! promotions are met, which are not, and why. Used for automatic proposals and a case's automatic check.
//!
//! Only evidence dated after the player's current grade was granted (and not after `now`) counts, so
//! the same results never promote twice. Ratings count as read at their latest sample up to `now`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::evidence::{EventRef, Evidence, GameOutcome, Standing, TournamentPlacing};
use crate::rules::{AssociationRules, EventSelector, PromotionRule, RelativePoints, Rounding, RuleKind};
use crate::{Millis, PlayerId};

/// The evaluation of every rule for one player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// The player.
    pub player: PlayerId,
    /// Their grade code (`unranked` if none).
    pub current: String,
    /// One outcome per rule, in file order.
    pub outcomes: Vec<RuleOutcome>,
    /// The promotion the results support: the highest grade among the rules met.
    pub proposal: Option<Proposal>,
}

impl Evaluation {
    /// The outcome of one rule.
    #[must_use]
    pub fn outcome(&self, rule: &str) -> Option<&RuleOutcome> {
        self.outcomes.iter().find(|o| o.rule == rule)
    }

    /// Whether some rule that promotes to `grade` is met.
    #[must_use]
    pub fn supports(&self, grade: &str) -> bool {
        self.outcomes.iter().any(|o| o.to == grade && matches!(o.verdict, Verdict::Met(_)))
    }
}

/// A proposed promotion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// The grade to promote to.
    pub to: String,
    /// The ids of the rules met that give it.
    pub rules: Vec<String>,
}

/// What one rule says about the player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleOutcome {
    /// The rule's id.
    pub rule: String,
    /// Its kind name.
    pub kind: String,
    /// The grade it promotes to.
    pub to: String,
    /// The verdict and why.
    pub verdict: Verdict,
    /// The evidence this rule line rests on (indices into the case's evidence): what made it
    /// met, or the nearest attempt that fell short. Evidence in no line counts for no rule.
    #[serde(default)]
    pub evidence: Vec<u32>,
}

impl fmt::Display for RuleOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (→ {}): {}", self.rule, self.to, self.verdict)
    }
}

/// A rule's verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", content = "why", rename_all = "kebab-case")]
pub enum Verdict {
    /// The rule is met.
    Met(Basis),
    /// The player may use the rule but the evidence falls short.
    Unmet(Shortfall),
    /// The rule does not apply to the player's grade.
    NotEligible(Ineligible),
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Met(b) => write!(f, "met: {b}"),
            Verdict::Unmet(s) => write!(f, "not met: {s}"),
            Verdict::NotEligible(i) => write!(f, "does not apply: {i}"),
        }
    }
}

/// Why a rule is met.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// Enough wins in a qualification group.
    WinsInGroup {
        /// The event.
        event: EventRef,
        /// The group.
        group: Option<String>,
        /// Wins.
        wins: u32,
        /// Rounds.
        rounds: u32,
    },
    /// A good enough place.
    Placed {
        /// The event.
        event: EventRef,
        /// The place.
        place: u32,
        /// The worst place that counted.
        max_place: u32,
    },
    /// Won the event.
    Won {
        /// The event.
        event: EventRef,
    },
    /// Inside the quota.
    WithinQuota {
        /// The event.
        event: EventRef,
        /// The place.
        place: u32,
        /// Places the quota gives.
        slots: u32,
        /// Participants of the quota's grade.
        eligible: u32,
        /// The percentage.
        percent: f64,
    },
    /// Rating at or above the threshold.
    RatingReached {
        /// The system.
        system: String,
        /// The rating.
        rating: f64,
        /// The threshold.
        threshold: f64,
        /// Rated games.
        games: u32,
        /// When read.
        at: Millis,
    },
    /// Enough promotion points.
    PointsReached {
        /// Points total.
        points: i32,
        /// Points needed.
        needed: i32,
        /// Points from games.
        from_games: i32,
        /// Points from places.
        from_places: i32,
        /// Games that counted.
        games: u32,
    },
}

impl fmt::Display for Basis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Basis::WinsInGroup { event, group, wins, rounds } => match group {
                Some(g) => write!(f, "{wins} wins of {rounds} in group {g} of {event}"),
                None => write!(f, "{wins} wins of {rounds} in {event}"),
            },
            Basis::Placed { event, place, max_place } => {
                write!(f, "place {place} in {event} (top {max_place} counts)")
            }
            Basis::Won { event } => write!(f, "won {event}"),
            Basis::WithinQuota { event, place, slots, eligible, percent } => {
                write!(f, "place {place} in {event}, within the quota of {slots} ({percent}% of {eligible})")
            }
            Basis::RatingReached { system, rating, threshold, games, .. } => {
                write!(f, "{system} rating {rating:.1} ≥ {threshold} after {games} rated games")
            }
            Basis::PointsReached { points, needed, from_games, from_places, games } => {
                write!(f, "{points} points ≥ {needed} ({from_games} from {games} games, {from_places} from places)")
            }
        }
    }
}

/// Why a rule the player may use is not met.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shortfall {
    /// No verified result from a matching event (and group) since the current grade.
    NoMatchingResult {
        /// What was looked for.
        wanted: String,
    },
    /// Not enough wins.
    TooFewWins {
        /// Best wins found.
        wins: u32,
        /// Wins needed.
        needed: u32,
        /// Rounds.
        rounds: u32,
    },
    /// Place not good enough.
    PlaceTooLow {
        /// Best place found.
        place: u32,
        /// Worst place that counts.
        max_place: u32,
    },
    /// Took part but did not win.
    NotWon {
        /// Best place.
        place: u32,
    },
    /// Outside the quota.
    OutsideQuota {
        /// Best place.
        place: u32,
        /// Places the quota gives.
        slots: u32,
        /// Participants of the quota's grade.
        eligible: u32,
    },
    /// No rating in the system.
    NoRating {
        /// The system.
        system: String,
    },
    /// Rating below the threshold.
    RatingTooLow {
        /// The rating.
        rating: f64,
        /// The threshold.
        threshold: f64,
    },
    /// Too few rated games.
    TooFewRatedGames {
        /// Games.
        games: u32,
        /// Needed.
        needed: u32,
    },
    /// Deviation too high (provisional).
    DeviationTooHigh {
        /// The deviation.
        deviation: f64,
        /// The maximum.
        max: f64,
    },
    /// Not enough points.
    TooFewPoints {
        /// Points.
        points: i32,
        /// Needed.
        needed: i32,
    },
}

impl fmt::Display for Shortfall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shortfall::NoMatchingResult { wanted } => write!(f, "no verified result from {wanted}"),
            Shortfall::TooFewWins { wins, needed, rounds } => {
                write!(f, "{wins} wins of {rounds}, {needed} needed")
            }
            Shortfall::PlaceTooLow { place, max_place } => {
                write!(f, "best place {place}, top {max_place} needed")
            }
            Shortfall::NotWon { place } => write!(f, "best place {place}, a win needed"),
            Shortfall::OutsideQuota { place, slots, eligible } => {
                write!(f, "place {place} is outside the quota of {slots} (of {eligible} eligible)")
            }
            Shortfall::NoRating { system } => write!(f, "no {system} rating"),
            Shortfall::RatingTooLow { rating, threshold } => {
                write!(f, "rating {rating:.1} below {threshold}")
            }
            Shortfall::TooFewRatedGames { games, needed } => {
                write!(f, "{games} rated games, {needed} needed")
            }
            Shortfall::DeviationTooHigh { deviation, max } => {
                write!(f, "rating deviation {deviation:.1} above {max} (provisional)")
            }
            Shortfall::TooFewPoints { points, needed } => write!(f, "{points} points, {needed} needed"),
        }
    }
}

/// Why a rule does not apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ineligible {
    /// The player already holds the grade or a higher one.
    AlreadyAtOrAbove {
        /// Their grade.
        current: String,
    },
    /// The rule promotes from other grades.
    NotFromGrade {
        /// Their grade.
        current: String,
        /// Grades the rule takes.
        allowed: Vec<String>,
    },
}

impl fmt::Display for Ineligible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ineligible::AlreadyAtOrAbove { current } => write!(f, "already {current}"),
            Ineligible::NotFromGrade { current, allowed } => {
                write!(f, "{current} is not among {}", allowed.join(", "))
            }
        }
    }
}

/// Why an evaluation could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum EvaluateError {
    /// The player's grade is not in the rules' ladder.
    #[error("grade {grade:?} is not in ladder {ladder}")]
    UnknownGrade {
        /// The grade.
        grade: String,
        /// The ladder.
        ladder: String,
    },
}

/// Evaluates every rule for a player at `now`.
///
/// # Errors
/// [`EvaluateError::UnknownGrade`] when the standing's grade is not in the ladder.
pub fn evaluate(
    rules: &AssociationRules,
    standing: &Standing,
    evidence: &[Evidence],
    now: Millis,
) -> Result<Evaluation, EvaluateError> {
    let current = match &standing.grade {
        None => None,
        Some(code) => Some(
            rules
                .ladder
                .position(code)
                .ok_or_else(|| EvaluateError::UnknownGrade { grade: code.clone(), ladder: rules.ladder.id.clone() })?,
        ),
    };
    let counts = |at: Millis| at >= standing.since && at <= now;
    let placings: Vec<(u32, &TournamentPlacing)> = evidence
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            Evidence::Placing(p) if counts(p.at) => Some((i as u32, p)),
            _ => None,
        })
        .collect();
    let cx = Context { rules, current, evidence, placings: &placings, counts: &counts, now };
    let outcomes: Vec<RuleOutcome> = rules
        .rules
        .iter()
        .map(|rule| {
            let (verdict, used) = match cx.eligibility(rule) {
                Some(ineligible) => (Verdict::NotEligible(ineligible), Vec::new()),
                None => {
                    let mut used = Vec::new();
                    let v = cx.verdict(rule, &mut used);
                    used.sort_unstable();
                    used.dedup();
                    (v, used)
                }
            };
            RuleOutcome {
                rule: rule.id.clone(),
                kind: rule.kind.name().to_owned(),
                to: rules.code(Some(rule.to)),
                verdict,
                evidence: used,
            }
        })
        .collect();
    let best = rules
        .rules
        .iter()
        .zip(&outcomes)
        .filter(|(_, o)| matches!(o.verdict, Verdict::Met(_)))
        .map(|(r, _)| r.to)
        .max();
    let proposal = best.map(|to| Proposal {
        to: rules.code(Some(to)),
        rules: rules
            .rules
            .iter()
            .zip(&outcomes)
            .filter(|(r, o)| r.to == to && matches!(o.verdict, Verdict::Met(_)))
            .map(|(r, _)| r.id.clone())
            .collect(),
    });
    Ok(Evaluation { player: standing.player.clone(), current: rules.code(current), outcomes, proposal })
}

struct Context<'a> {
    rules: &'a AssociationRules,
    current: Option<usize>,
    evidence: &'a [Evidence],
    placings: &'a [(u32, &'a TournamentPlacing)],
    counts: &'a dyn Fn(Millis) -> bool,
    now: Millis,
}

impl Context<'_> {
    fn eligibility(&self, rule: &PromotionRule) -> Option<Ineligible> {
        let current = self.rules.code(self.current);
        if self.current.is_some_and(|c| c >= rule.to) {
            return Some(Ineligible::AlreadyAtOrAbove { current });
        }
        let allowed: Vec<Option<usize>> = if !rule.from.is_empty() {
            rule.from.clone()
        } else if rule.jump {
            return None;
        } else {
            vec![rule.to.checked_sub(1)]
        };
        if allowed.contains(&self.current) {
            None
        } else {
            Some(Ineligible::NotFromGrade { current, allowed: allowed.iter().map(|p| self.rules.code(*p)).collect() })
        }
    }

    fn matching<'b>(&'b self, events: &'b EventSelector) -> impl Iterator<Item = (u32, &'b TournamentPlacing)> + 'b {
        self.placings.iter().copied().filter(|(_, p)| events.matches(&p.event))
    }

    /// The rule's verdict; `used` collects the evidence it rests on.
    fn verdict(&self, rule: &PromotionRule, used: &mut Vec<u32>) -> Verdict {
        match &rule.kind {
            RuleKind::Qualification { events, group, min_wins, rounds } => {
                let best = self
                    .matching(events)
                    .filter(|(_, p)| group.is_none() || p.group == *group)
                    .filter(|(_, p)| p.rounds == *rounds)
                    .max_by_key(|(_, p)| (p.wins, std::cmp::Reverse(p.at)));
                used.extend(best.map(|(i, _)| i));
                match best.map(|(_, p)| p) {
                    None => Verdict::Unmet(Shortfall::NoMatchingResult {
                        wanted: match group {
                            Some(g) => format!("group {g} ({rounds} rounds) of {events}"),
                            None => format!("{events} ({rounds} rounds)"),
                        },
                    }),
                    Some(p) if p.wins >= *min_wins => Verdict::Met(Basis::WinsInGroup {
                        event: p.event.clone(),
                        group: p.group.clone(),
                        wins: p.wins,
                        rounds: *rounds,
                    }),
                    Some(p) => {
                        Verdict::Unmet(Shortfall::TooFewWins { wins: p.wins, needed: *min_wins, rounds: *rounds })
                    }
                }
            }
            RuleKind::Placing { tiers } => {
                let mut nearest: Option<(u32, u32)> = None;
                for tier in tiers {
                    if let Some((i, p)) = self.matching(&tier.events).min_by_key(|(_, p)| (p.place, p.at)) {
                        if p.place <= tier.max_place {
                            used.clear();
                            used.push(i);
                            return Verdict::Met(Basis::Placed {
                                event: p.event.clone(),
                                place: p.place,
                                max_place: tier.max_place,
                            });
                        }
                        if nearest.is_none() {
                            used.push(i);
                        }
                        nearest = nearest.or(Some((p.place, tier.max_place)));
                    }
                }
                match nearest {
                    Some((place, max_place)) => Verdict::Unmet(Shortfall::PlaceTooLow { place, max_place }),
                    None => Verdict::Unmet(Shortfall::NoMatchingResult {
                        wanted: tiers.iter().map(|t| t.events.to_string()).collect::<Vec<_>>().join(" or "),
                    }),
                }
            }
            RuleKind::Title { events } => {
                let best = self.matching(events).min_by_key(|(_, p)| (p.place, p.at));
                used.extend(best.map(|(i, _)| i));
                match best.map(|(_, p)| p) {
                    Some(p) if p.place == 1 => Verdict::Met(Basis::Won { event: p.event.clone() }),
                    Some(p) => Verdict::Unmet(Shortfall::NotWon { place: p.place }),
                    None => Verdict::Unmet(Shortfall::NoMatchingResult { wanted: events.to_string() }),
                }
            }
            RuleKind::Quota { events, percent, of_grade, rounding } => {
                let grade = self.rules.code(Some(*of_grade));
                let mut nearest = None;
                for (i, p) in self.matching(events) {
                    let eligible = p.field_by_grade.get(&grade).copied().unwrap_or(0);
                    let slots = quota_slots(*percent, eligible, *rounding);
                    if nearest.is_none() || p.place <= slots {
                        used.clear();
                        used.push(i);
                    }
                    if p.place <= slots {
                        return Verdict::Met(Basis::WithinQuota {
                            event: p.event.clone(),
                            place: p.place,
                            slots,
                            eligible,
                            percent: *percent,
                        });
                    }
                    nearest = nearest.or(Some(Shortfall::OutsideQuota { place: p.place, slots, eligible }));
                }
                Verdict::Unmet(nearest.unwrap_or_else(|| Shortfall::NoMatchingResult { wanted: events.to_string() }))
            }
            RuleKind::Rating { system, min_rating, min_games, max_deviation } => {
                let latest = self
                    .evidence
                    .iter()
                    .enumerate()
                    .filter_map(|(i, e)| match e {
                        Evidence::Rating(r) if r.system == *system && r.at <= self.now => Some((i as u32, r)),
                        _ => None,
                    })
                    .max_by_key(|(_, r)| r.at);
                used.extend(latest.map(|(i, _)| i));
                let Some((_, r)) = latest else {
                    return Verdict::Unmet(Shortfall::NoRating { system: system.clone() });
                };
                if r.rating < *min_rating {
                    Verdict::Unmet(Shortfall::RatingTooLow { rating: r.rating, threshold: *min_rating })
                } else if r.games < *min_games {
                    Verdict::Unmet(Shortfall::TooFewRatedGames { games: r.games, needed: *min_games })
                } else if let Some(max) = max_deviation.filter(|m| r.deviation > *m) {
                    Verdict::Unmet(Shortfall::DeviationTooHigh { deviation: r.deviation, max })
                } else {
                    Verdict::Met(Basis::RatingReached {
                        system: system.clone(),
                        rating: r.rating,
                        threshold: *min_rating,
                        games: r.games,
                        at: r.at,
                    })
                }
            }
            RuleKind::Points { needed, games, win, draw, loss, places } => {
                let mut from_games = 0i32;
                let mut counted = 0u32;
                for (i, e) in self.evidence.iter().enumerate() {
                    let Evidence::Game(g) = e else { continue };
                    if !(self.counts)(g.at) {
                        continue;
                    }
                    if let Some(sel) = games
                        && !g.event.as_ref().is_some_and(|ev| sel.matches(ev))
                    {
                        continue;
                    }
                    let table = match g.outcome {
                        GameOutcome::Win => win,
                        GameOutcome::Draw => draw,
                        GameOutcome::Loss => loss,
                    };
                    let points = self.relative(table, g.opponent_grade.as_deref());
                    from_games += points;
                    counted += 1;
                    if points != 0 {
                        used.push(i as u32);
                    }
                }
                let from_places: i32 = self
                    .placings
                    .iter()
                    .filter_map(|(i, p)| {
                        let best = places
                            .iter()
                            .filter(|e| e.events.matches(&p.event) && p.place <= e.max_place)
                            .map(|e| e.points)
                            .max();
                        if best.is_some() {
                            used.push(*i);
                        }
                        best
                    })
                    .sum();
                let points = from_games + from_places;
                if points >= *needed {
                    Verdict::Met(Basis::PointsReached {
                        points,
                        needed: *needed,
                        from_games,
                        from_places,
                        games: counted,
                    })
                } else {
                    Verdict::Unmet(Shortfall::TooFewPoints { points, needed: *needed })
                }
            }
        }
    }

    /// Points by the opponent's grade relative to the player's; unknown opponents count as lower.
    fn relative(&self, table: &RelativePoints, opponent: Option<&str>) -> i32 {
        let theirs = opponent.and_then(|c| self.rules.ladder.position(c));
        match (theirs, self.current) {
            (Some(t), Some(c)) if t > c => table.higher,
            (Some(t), Some(c)) if t == c => table.equal,
            (Some(_), None) => table.higher,
            _ => table.lower,
        }
    }
}

/// Places a quota gives: `percent`% of `eligible`, rounded as the rule says.
#[must_use]
pub fn quota_slots(percent: f64, eligible: u32, rounding: Rounding) -> u32 {
    let exact = percent * f64::from(eligible) / 100.0;
    // A hair of tolerance so that 5% of 60 is 3, not 2.9999999.
    let slots = match rounding {
        Rounding::Floor => (exact + 1e-9).floor(),
        Rounding::Ceil => (exact - 1e-9).ceil(),
        Rounding::Nearest => (exact + 0.5 + 1e-9).floor(),
    };
    slots.clamp(0.0, f64::from(eligible)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn quota_table() {
        let table = [
            (5.0, 40, Rounding::Floor, 2),
            (5.0, 60, Rounding::Floor, 3),
            (5.0, 19, Rounding::Floor, 0),
            (5.0, 19, Rounding::Ceil, 1),
            (5.0, 30, Rounding::Nearest, 2),
            (5.0, 29, Rounding::Nearest, 1),
            (100.0, 7, Rounding::Floor, 7),
        ];
        for (percent, eligible, rounding, want) in table {
            assert_eq!(quota_slots(percent, eligible, rounding), want, "{percent}% of {eligible} {rounding:?}");
        }
    }

    proptest! {
        #[test]
        fn floor_quota_never_exceeds_the_percentage(percent in 0.1f64..=100.0, eligible in 0u32..100_000) {
            let slots = quota_slots(percent, eligible, Rounding::Floor);
            prop_assert!(f64::from(slots) <= percent * f64::from(eligible) / 100.0 + 1e-6);
            prop_assert!(slots <= quota_slots(percent, eligible, Rounding::Ceil));
        }
    }
}
