//! Why did A meet B? The criteria values of the pair, and for each nearby alternative partner C
//! why the pairing did not choose them: C was met before, the pair is forbidden, or swapping
//! partners (A–C and B–D instead of A–B and C–D) would be worse at a named criterion.
//!
//! Explanations are recomputed from the state as it was before the round (results of later rounds
//! are not used; a result corrected afterwards is used as corrected).
//!
//! The text speaks the tournament's own units and names (issue 15 item 5): a McMahon explanation
//! says "MMS 36", not the pairing's internal "72" points (MMS × points per win); a pair's seats in
//! their score group say which seed system placed them ("places 1 and 8 of 8, split and fold");
//! players are named by name and rank, not by number.

use crate::config::Format;
use crate::event::{ByeReason, ColorBy};
use crate::ids::PlayerId;
use crate::ratio::Ratio;
use crate::record::records;
use crate::rounds::{candidates, pairing_score, seeding_salt};
use crate::seeding::{SEEDING_SCALE, Seat, seat_candidates};
use crate::state::Tournament;
use crate::swiss::pairing_order;
use crate::weights::{Candidate, Criterion, EdgeCost, PairingPolicy, RematchPolicy, edge_cost, score_groups};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// How the pair came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Basis {
    /// Maximum-weight matching on the documented criteria.
    Matching,
    /// Fixed by the organiser.
    Organiser,
    /// A Berger table (round robin).
    BergerTable,
    /// A knockout bracket.
    Bracket,
    /// A team match's board order.
    BoardOrder,
}

/// The score differences behind a verdict on the score tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreGaps {
    /// Differences of A–B and C–D.
    pub chosen: [u32; 2],
    /// Differences of A–C and B–D.
    pub swapped: [u32; 2],
    /// The round's number of score groups.
    pub groups: u32,
}

/// Why an alternative partner was not chosen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// They had met before (criterion 1).
    AlreadyMet,
    /// The organiser forbade the pair.
    Forbidden,
    /// The alternative had the bye, a fixed game or an organiser's bye.
    NotAvailable,
    /// Giving A this partner would force B and the alternative's partner D together, who met before.
    WouldForceRematch {
        /// The alternative's partner.
        partner: PlayerId,
    },
    /// Swapping partners is worse at `criterion`: the two chosen pairs sum to `chosen`, the two
    /// swapped pairs to `swapped`.
    Worse {
        /// The alternative's partner D.
        partner: PlayerId,
        /// The first criterion at which the swap differs.
        criterion: Criterion,
        /// Sum over A–B and C–D.
        chosen: u32,
        /// Sum over A–C and B–D.
        swapped: u32,
        /// For the score difference: the two pairs' differences, chosen (A–B, C–D) and swapped (A–C,
        /// B–D), and the round's number of score groups (`chosen` and `swapped` are then the costs
        /// `d·(R + d)` summed, see [`crate::weights`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        differences: Option<ScoreGaps>,
    },
    /// Swapping costs the same on every criterion: the tie was broken by pairing order (score,
    /// rank, recorded lot).
    Tie {
        /// The alternative's partner D.
        partner: PlayerId,
    },
    /// Swapping would have been better: the two pairs fell in different pairing windows.
    Better {
        /// The alternative's partner D.
        partner: PlayerId,
        /// The first criterion at which the swap is better.
        criterion: Criterion,
    },
}

/// One alternative partner and the verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alternative {
    /// The alternative partner C.
    pub instead: PlayerId,
    /// Why not.
    pub verdict: Verdict,
}

/// The explanation of one pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingExplanation {
    /// The round.
    pub round: u32,
    /// The player asked about.
    pub a: PlayerId,
    /// Their opponent.
    pub b: PlayerId,
    /// How the pair came about.
    pub basis: Basis,
    /// The pair's criteria values (matching only).
    pub cost: Option<EdgeCost>,
    /// Pairing scores of A and B before the round (matching only).
    pub scores: Option<(i64, i64)>,
    /// How the colors were decided.
    pub colors: ColorBy,
    /// Nearby alternatives, closest in pairing order first.
    pub alternatives: Vec<Alternative>,
    /// A's and B's seats in their score groups (matching only): which seed system placed the pair.
    pub seats: Option<(Seat, Seat)>,
    /// The unit of the pairing scores.
    pub unit: ScoreUnit,
    /// "Name (rank)" of every player the explanation mentions.
    pub names: BTreeMap<PlayerId, String>,
}

/// The unit a format's pairing score is shown in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScoreUnit {
    /// Points (Swiss): shown as they are.
    Points,
    /// McMahon score: the pairing's points divided by the points of a win.
    Mms {
        /// Points of a win.
        per_win: i64,
    },
    /// Losses still allowed (loss-group eliminations): points divided by the points of a win.
    LivesLeft {
        /// Points of a win.
        per_win: i64,
    },
}

impl ScoreUnit {
    fn name(self) -> &'static str {
        match self {
            ScoreUnit::Points => "points",
            ScoreUnit::Mms { .. } => "MMS",
            ScoreUnit::LivesLeft { .. } => "losses left",
        }
    }

    /// A pairing score (or difference) in this unit.
    pub fn show(self, points: i64) -> String {
        match self {
            ScoreUnit::Points => points.to_string(),
            ScoreUnit::Mms { per_win } | ScoreUnit::LivesLeft { per_win } => Ratio::new(points, per_win).to_string(),
        }
    }
}

/// Why no explanation could be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum ExplainError {
    /// No such round.
    #[error("round {0} has not been paired")]
    NoSuchRound(u32),
    /// The two did not meet in that round.
    #[error("{0} and {1} did not meet in that round")]
    NotPaired(PlayerId, PlayerId),
}

fn sum(x: &EdgeCost, y: &EdgeCost) -> [(Criterion, u32); 6] {
    let (a, b) = (x.tiers(), y.tiers());
    std::array::from_fn(|k| (a[k].0, a[k].1 + b[k].1))
}

/// Explains why `a` met `b` in `round`, with up to `alternatives` nearby alternatives.
pub fn explain_pairing(
    t: &Tournament,
    round: u32,
    a: PlayerId,
    b: PlayerId,
    alternatives: usize,
) -> Result<PairingExplanation, ExplainError> {
    let r = t.rounds.get((round as usize).wrapping_sub(1)).ok_or(ExplainError::NoSuchRound(round))?;
    let game = r
        .games
        .iter()
        .find(|g| (g.paired.black, g.paired.white) == (a, b) || (g.paired.black, g.paired.white) == (b, a))
        .ok_or(ExplainError::NotPaired(a, b))?;
    let basis = match game.paired.color_by {
        _ if game.paired.fixed => Basis::Organiser,
        ColorBy::Berger => Basis::BergerTable,
        ColorBy::BoardOrder => Basis::BoardOrder,
        _ if !r.bracket.is_empty() => Basis::Bracket,
        _ => Basis::Matching,
    };
    let mut out = PairingExplanation {
        round,
        a,
        b,
        basis,
        cost: game.paired.cost,
        scores: None,
        colors: game.paired.color_by,
        alternatives: Vec::new(),
        seats: None,
        unit: ScoreUnit::Points,
        names: BTreeMap::new(),
    };
    let name = |p: PlayerId| {
        t.players.get(&p).map_or_else(
            || p.to_string(),
            |e| {
                let r = &e.registration;
                // The name the standings show (Chinese first), as the desk's readers know the players.
                let n = if r.name_zh.is_empty() { &r.name_latin } else { &r.name_zh };
                format!("{n} ({})", r.rank)
            },
        )
    };
    out.names.insert(a, name(a));
    out.names.insert(b, name(b));
    let Some(cfg) = t.config.as_ref() else { return Ok(out) };
    if basis != Basis::Matching || game.paired.cost.is_none() {
        return Ok(out);
    }
    // The field as the pairing saw it.
    let recs = records(t, round - 1);
    let mut players: Vec<PlayerId> = Vec::new();
    for g in &r.games {
        players.push(g.paired.black);
        players.push(g.paired.white);
    }
    players.extend(r.byes.iter().filter(|x| x.reason == ByeReason::Pairing).map(|x| x.player));
    let by_losses = matches!(cfg.format, Format::Knockout { losses } if losses >= 2);
    let swiss_score = pairing_score(t, cfg);
    let losses_cap = match cfg.format {
        Format::Knockout { losses } => i64::from(losses),
        _ => 0,
    };
    let score = |p: PlayerId, points: i64| {
        if by_losses {
            (losses_cap - recs.get(p).map_or(0, |r| i64::from(r.losses))) * cfg.points.win
        } else {
            swiss_score(p, points)
        }
    };
    out.unit = match cfg.format {
        _ if by_losses => ScoreUnit::LivesLeft { per_win: cfg.points.win.max(1) },
        Format::McMahon { .. } => ScoreUnit::Mms { per_win: cfg.points.win.max(1) },
        _ => ScoreUnit::Points,
    };
    let mut cands = candidates(t, &recs, &players, &score);
    seat_candidates(&mut cands, cfg.pairing.seeding.system(round), seeding_salt(cfg, round));
    let policy =
        if by_losses { PairingPolicy { rematches: RematchPolicy::Discouraged, ..cfg.pairing } } else { cfg.pairing };
    let idx: HashMap<PlayerId, usize> = cands.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    let c = |p: PlayerId| -> &Candidate { &cands[idx[&p]] };
    out.scores = Some((c(a).score, c(b).score));
    out.seats = c(a).seat.zip(c(b).seat);
    let partner: HashMap<PlayerId, (PlayerId, bool)> = r
        .games
        .iter()
        .flat_map(|g| {
            [(g.paired.black, (g.paired.white, g.paired.fixed)), (g.paired.white, (g.paired.black, g.paired.fixed))]
        })
        .collect();
    let order: Vec<PlayerId> = pairing_order(&cands).into_iter().map(|i| cands[i].id).collect();
    let pos = order.iter().position(|&p| p == a).unwrap_or(0);
    let mut nearby: Vec<PlayerId> = Vec::new();
    for d in 1..order.len() {
        for p in [pos.checked_sub(d), pos.checked_add(d)].into_iter().flatten() {
            if let Some(&q) = order.get(p)
                && q != b
                && nearby.len() < alternatives
            {
                nearby.push(q);
            }
        }
        if nearby.len() >= alternatives {
            break;
        }
    }
    let forbids = t.forbidden_in(round);
    let forbidden = |x: PlayerId, y: PlayerId| forbids.contains(&(x.min(y), x.max(y)));
    let groups = score_groups(&cands);
    let chosen = edge_cost(c(a), c(b), &policy, groups).unwrap_or(out.cost.expect("matching pair"));
    for q in nearby {
        let verdict = if c(a).opponents.contains(&q) {
            Verdict::AlreadyMet
        } else if forbidden(a, q) {
            Verdict::Forbidden
        } else {
            match partner.get(&q) {
                None | Some((_, true)) => Verdict::NotAvailable,
                Some(&(d, false)) => {
                    let cd = edge_cost(c(q), c(d), &policy, groups);
                    let ac = edge_cost(c(a), c(q), &policy, groups);
                    let bd = if forbidden(b, d) { None } else { edge_cost(c(b), c(d), &policy, groups) };
                    match (cd, ac, bd) {
                        (Some(cd), Some(ac), Some(bd)) => {
                            let now = sum(&chosen, &cd);
                            let swap = sum(&ac, &bd);
                            match now.iter().zip(&swap).find(|(x, y)| x.1 != y.1) {
                                None => Verdict::Tie { partner: d },
                                Some((x, y)) if x.1 < y.1 => {
                                    let differences = (x.0 == Criterion::ScoreDifference).then_some(ScoreGaps {
                                        chosen: [chosen.score_diff, cd.score_diff],
                                        swapped: [ac.score_diff, bd.score_diff],
                                        groups,
                                    });
                                    Verdict::Worse {
                                        partner: d,
                                        criterion: x.0,
                                        chosen: x.1,
                                        swapped: y.1,
                                        differences,
                                    }
                                }
                                Some((x, _)) => Verdict::Better { partner: d, criterion: x.0 },
                            }
                        }
                        (_, _, None) => Verdict::WouldForceRematch { partner: d },
                        _ => Verdict::AlreadyMet,
                    }
                }
            }
        };
        out.names.insert(q, name(q));
        if let Verdict::Worse { partner, .. }
        | Verdict::Tie { partner }
        | Verdict::Better { partner, .. }
        | Verdict::WouldForceRematch { partner } = &verdict
        {
            out.names.insert(*partner, name(*partner));
        }
        out.alternatives.push(Alternative { instead: q, verdict });
    }
    Ok(out)
}

impl ScoreGaps {
    /// The score tier's cost of the chosen pairs' differences (see [`crate::weights`]).
    pub fn chosen_cost(&self) -> u32 {
        gap_cost(self.chosen, self.groups)
    }

    /// The score tier's cost of the swapped pairs' differences.
    pub fn swapped_cost(&self) -> u32 {
        gap_cost(self.swapped, self.groups)
    }
}

/// The score tier's cost of two pairs' differences in a round of `groups` score groups.
fn gap_cost(gaps: [u32; 2], groups: u32) -> u32 {
    gaps.iter().map(|&d| EdgeCost { score_diff: d, score_groups: groups, ..EdgeCost::default() }.score_cost()).sum()
}

fn criterion(c: Criterion) -> &'static str {
    match c {
        Criterion::Rematch => "rematches",
        Criterion::ScoreDifference => "score difference",
        Criterion::ColorBalance => "color balance",
        Criterion::Seeding => "seeding in the score group",
        Criterion::Handicap => "handicap stones",
        Criterion::Separation => "same club/region/family",
    }
}

impl PairingExplanation {
    fn who(&self, p: PlayerId) -> String {
        self.names.get(&p).cloned().unwrap_or_else(|| p.to_string())
    }

    /// A criterion's value in words: score differences in the tournament's unit.
    fn value(&self, c: Criterion, v: u32) -> String {
        match c {
            Criterion::ScoreDifference => self.unit.show(i64::from(v)),
            _ => v.to_string(),
        }
    }
}

impl fmt::Display for PairingExplanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = (self.who(self.a), self.who(self.b));
        write!(f, "Round {}: {a} v {b}", self.round)?;
        match self.basis {
            Basis::Organiser => return writeln!(f, " was fixed by the organiser."),
            Basis::BergerTable => return writeln!(f, " comes from the Berger table."),
            Basis::Bracket => return writeln!(f, " comes from the knockout bracket."),
            Basis::BoardOrder => return writeln!(f, " comes from the teams' board order."),
            Basis::Matching => {}
        }
        if let (Some((sa, sb)), Some(c)) = (self.scores, self.cost) {
            let unit = self.unit.name();
            writeln!(
                f,
                " ({unit} {} and {}): {unit} difference {}, color balance {}, seeding {}, handicap {}, club/region/family {}; colors by {:?}.",
                self.unit.show(sa),
                self.unit.show(sb),
                self.unit.show(i64::from(c.score_diff)),
                c.color,
                c.seeding,
                c.handicap,
                c.separation,
                self.colors
            )?;
        }
        if let Some((x, y)) = self.seats {
            if self.scores.is_some_and(|(sa, sb)| sa == sb) {
                writeln!(
                    f,
                    "  Seeding: places {} and {} of {} in their score group, paired by {} (cost {} of {}).",
                    x.position + 1,
                    y.position + 1,
                    x.size,
                    x.system.label(),
                    self.cost.map_or(0, |c| c.seeding),
                    SEEDING_SCALE
                )?;
            } else {
                writeln!(f, "  Different score groups: {a} floats to meet {b}.")?;
            }
        }
        for alt in &self.alternatives {
            write!(f, "  Why not {}? ", self.who(alt.instead))?;
            match &alt.verdict {
                Verdict::AlreadyMet => writeln!(f, "they have already met."),
                Verdict::Forbidden => writeln!(f, "the organiser forbade that pairing."),
                Verdict::NotAvailable => writeln!(f, "not available (bye or fixed game)."),
                Verdict::WouldForceRematch { partner } => {
                    writeln!(f, "{b} would then have to meet {} again.", self.who(*partner))
                }
                Verdict::Worse { partner, differences: Some(g), .. } => writeln!(
                    f,
                    "then {b} would meet {}: score differences {} and {} instead of {} and {}, which cost more \
                     (a difference d among {} score groups costs d·({} + d), as OpenGotha weighs it: {} instead of {}).",
                    self.who(*partner),
                    self.unit.show(i64::from(g.swapped[0])),
                    self.unit.show(i64::from(g.swapped[1])),
                    self.unit.show(i64::from(g.chosen[0])),
                    self.unit.show(i64::from(g.chosen[1])),
                    g.groups,
                    g.groups,
                    g.swapped_cost(),
                    g.chosen_cost(),
                ),
                Verdict::Worse { partner, criterion: c, chosen, swapped, .. } => writeln!(
                    f,
                    "then {b} would meet {}: {} {} instead of {}.",
                    self.who(*partner),
                    criterion(*c),
                    self.value(*c, *swapped),
                    self.value(*c, *chosen),
                ),
                Verdict::Tie { partner } => writeln!(
                    f,
                    "swapping with {} costs the same on every criterion; the pairing order (score, rank, lot) decided.",
                    self.who(*partner)
                ),
                Verdict::Better { partner, criterion: c } => writeln!(
                    f,
                    "swapping with {} would improve {}, but they were paired in different windows.",
                    self.who(*partner),
                    criterion(*c)
                ),
            }?;
        }
        Ok(())
    }
}
