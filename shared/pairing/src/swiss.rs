//! Swiss and McMahon pairing of one round by maximum-weight matching, at league scale.
//!
//! # Design: sliding windows by score (OpenGotha-style chunks, with overlap)
//!
//! An exact dense matching of the whole field is O(n³): fine for 1,000 players (≈0.2 s here), far
//! too slow for 10,000. Players are therefore sorted by score (then rank, then recorded lot) and
//! paired in *windows*: each window holds the players carried over from the previous window plus the
//! next [`PairingParams::advance`] players of the order, and is matched exactly with the weights of
//! [`crate::weights`]. Pairs wholly above the window's last [`PairingParams::tail`] players are
//! committed; pairs touching that tail, and players left unmatched, are carried into the next
//! window, so that a player near a window's lower edge can still meet someone further down. In a
//! Swiss, score groups are large and every intra-group pair costs the same score difference, so the
//! windows lose almost nothing (measured by [`crate::bench`] against the exact dense optimum).
//!
//! The last window must match everyone. If it cannot (every remaining partner is a rematch or a
//! forbidden pair), committed pairs are released back into it, doubling it, until it succeeds or
//! reaches [`PairingParams::max_window`] players. Fields of at most `advance + tail` players are
//! a single window: their pairing is the exact optimum.
//!
//! # The bye
//! With an odd field, the bye goes to the lowest eligible player (lowest score, then rank, then lot)
//! who has not had one ([`ByePolicy::OncePerPlayer`]) and whose absence leaves the rest pairable
//! without a rematch; candidates are tried from the bottom. This ranks criterion 2 above the
//! score-difference criterion, as the issue orders them.

use crate::ids::PlayerId;
use crate::matching::{Weight, WeightMatrix, max_weight_matching};
use crate::weights::{ByePolicy, Candidate, EdgeCost, PairingPolicy, edge_cost, score_groups};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Window sizes of the pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingParams {
    /// New players taken into each window.
    pub advance: usize,
    /// The lowest players of a window whose pairs are not committed but carried to the next window.
    pub tail: usize,
    /// Largest window the last-window repair may grow to.
    pub max_window: usize,
}

impl Default for PairingParams {
    fn default() -> Self {
        PairingParams { advance: 320, tail: 64, max_window: 1536 }
    }
}

impl PairingParams {
    /// One window for the whole field: the exact dense optimum (for measuring the windows).
    pub fn exact(n: usize) -> PairingParams {
        PairingParams { advance: n.max(1), tail: 0, max_window: n.max(2) }
    }
}

/// One pair of the plan, with what it costs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedPair {
    /// Higher in the pairing order.
    pub a: PlayerId,
    /// Lower in the pairing order.
    pub b: PlayerId,
    /// The criteria values of this pair.
    pub cost: EdgeCost,
}

/// A round's pairing before colors are given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPlan {
    /// The pairs, in pairing order of their higher player.
    pub pairs: Vec<PlannedPair>,
    /// The player given the pairing bye, if the field was odd.
    pub bye: Option<PlayerId>,
    /// Matchings solved (windows, repairs and bye attempts).
    pub matchings: usize,
}

impl RoundPlan {
    /// Total weight of the matching (sum of `BASE − cost`).
    pub fn weight(&self) -> Weight {
        self.pairs.iter().map(|p| p.cost.weight()).sum()
    }

    /// Total cost (sum of the stacked criteria; lower is better).
    pub fn cost(&self) -> Weight {
        self.pairs.iter().map(|p| p.cost.scalar()).sum()
    }
}

/// Why a round could not be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum PairingError {
    /// An odd field in which everyone has had a bye already.
    #[error("no player is eligible for the bye")]
    NoByeCandidate,
    /// These players cannot all be paired without a rematch or a forbidden pair.
    #[error("{} players cannot be paired without a rematch or forbidden pair", .0.len())]
    NoPairingWithoutRematch(Vec<PlayerId>),
}

/// Sorts candidates into pairing order: score, then rank, descending; then lot, then id.
pub fn pairing_order(candidates: &[Candidate]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&x, &y| {
        let (a, b) = (&candidates[x], &candidates[y]);
        b.score.cmp(&a.score).then(b.rank.cmp(&a.rank)).then(a.lot.cmp(&b.lot)).then(a.id.cmp(&b.id))
    });
    order
}

/// Pairs one round. `forbidden` holds organiser-forbidden pairs (either order).
pub fn pair_round(
    candidates: &[Candidate],
    forbidden: &BTreeSet<(PlayerId, PlayerId)>,
    policy: &PairingPolicy,
    params: &PairingParams,
) -> Result<RoundPlan, PairingError> {
    let order = pairing_order(candidates);
    let ctx = Ctx { c: candidates, forbidden, policy, params, groups: score_groups(candidates) };
    let mut matchings = 0;
    if order.len().is_multiple_of(2) {
        let pairs = ctx
            .pair_even(&order, &mut matchings)
            .map_err(|left| PairingError::NoPairingWithoutRematch(ctx.ids(&left)))?;
        return Ok(ctx.plan(pairs, None, matchings));
    }
    // Bye candidates from the bottom of the order.
    let mut bye_order: Vec<usize> = order.iter().rev().copied().collect();
    if policy.byes == ByePolicy::FewestFirst {
        bye_order.sort_by_key(|&i| candidates[i].byes); // stable: keeps bottom-first within a count
    } else {
        bye_order.retain(|&i| candidates[i].byes == 0);
    }
    if bye_order.is_empty() {
        return Err(PairingError::NoByeCandidate);
    }
    let attempts = if order.len() <= 64 { bye_order.len() } else { 16 };
    let mut last_err = Vec::new();
    for &bye in bye_order.iter().take(attempts) {
        let rest: Vec<usize> = order.iter().copied().filter(|&i| i != bye).collect();
        match ctx.pair_even(&rest, &mut matchings) {
            Ok(pairs) => return Ok(ctx.plan(pairs, Some(candidates[bye].id), matchings)),
            Err(left) => last_err = left,
        }
    }
    Err(PairingError::NoPairingWithoutRematch(ctx.ids(&last_err)))
}

struct Ctx<'a> {
    c: &'a [Candidate],
    forbidden: &'a BTreeSet<(PlayerId, PlayerId)>,
    policy: &'a PairingPolicy,
    params: &'a PairingParams,
    /// The round's number of score groups (the score tier's `R`, see [`crate::weights`]).
    groups: u32,
}

impl Ctx<'_> {
    fn ids(&self, idx: &[usize]) -> Vec<PlayerId> {
        idx.iter().map(|&i| self.c[i].id).collect()
    }

    fn cost(&self, i: usize, j: usize) -> Option<EdgeCost> {
        let (a, b) = (&self.c[i], &self.c[j]);
        if !self.forbidden.is_empty()
            && (self.forbidden.contains(&(a.id, b.id)) || self.forbidden.contains(&(b.id, a.id)))
        {
            return None;
        }
        edge_cost(a, b, self.policy, self.groups)
    }

    fn plan(&self, pairs: Vec<(usize, usize)>, bye: Option<PlayerId>, matchings: usize) -> RoundPlan {
        let mut pairs: Vec<PlannedPair> = pairs
            .into_iter()
            .map(|(i, j)| PlannedPair {
                a: self.c[i].id,
                b: self.c[j].id,
                cost: self.cost(i, j).unwrap_or(EdgeCost { rematch: 1, ..EdgeCost::default() }),
            })
            .collect();
        let pos: std::collections::HashMap<PlayerId, usize> =
            pairing_order(self.c).into_iter().enumerate().map(|(p, i)| (self.c[i].id, p)).collect();
        pairs.sort_by_key(|p| pos[&p.a]);
        RoundPlan { pairs, bye, matchings }
    }

    /// Exact matching of `window` (candidate indices). Returns mates as positions within `window`.
    fn solve(&self, window: &[usize], matchings: &mut usize) -> Vec<Option<usize>> {
        *matchings += 1;
        let n = window.len();
        let mut w = WeightMatrix::new(n);
        for x in 0..n {
            for y in x + 1..n {
                if let Some(cost) = self.cost(window[x], window[y]) {
                    w.set(x, y, cost.weight());
                }
            }
        }
        max_weight_matching(&w)
    }

    /// Pairs an even list given in pairing order. On failure returns the unpaired candidates.
    fn pair_even(&self, order: &[usize], matchings: &mut usize) -> Result<Vec<(usize, usize)>, Vec<usize>> {
        let n = order.len();
        let p = self.params;
        let advance = p.advance.max(2);
        // Positions (into `order`) are kept throughout so windows stay sorted.
        let mut committed: Vec<(usize, usize)> = Vec::with_capacity(n / 2);
        let mut carry: Vec<usize> = Vec::new();
        let mut pos = 0;
        loop {
            let room = p.max_window.max(advance).saturating_sub(carry.len());
            if room == 0 && pos < n {
                return Err(carry.iter().map(|&q| order[q]).collect());
            }
            let take = advance.min(n - pos).min(room);
            let mut window: Vec<usize> = carry.clone();
            window.extend(pos..pos + take);
            pos += take;
            let cands: Vec<usize> = window.iter().map(|&q| order[q]).collect();
            let mate = self.solve(&cands, matchings);
            if pos < n {
                let tail_start = window.len().saturating_sub(p.tail);
                carry.clear();
                for (x, m) in mate.iter().enumerate() {
                    match *m {
                        Some(y) if x < y => {
                            if y < tail_start {
                                committed.push((window[x], window[y]));
                            } else {
                                carry.push(window[x]);
                                carry.push(window[y]);
                            }
                        }
                        None => carry.push(window[x]),
                        _ => {}
                    }
                }
                carry.sort_unstable();
                continue;
            }
            // The last window: everyone must be matched; release committed pairs until they are.
            let mut mate = mate;
            loop {
                if mate.iter().all(Option::is_some) {
                    for (x, m) in mate.iter().enumerate() {
                        if let Some(y) = *m
                            && x < y
                        {
                            committed.push((window[x], window[y]));
                        }
                    }
                    return Ok(committed.into_iter().map(|(x, y)| (order[x], order[y])).collect());
                }
                let target = (window.len() * 2).min(p.max_window.max(window.len()));
                if committed.is_empty() || window.len() >= target {
                    return Err(window
                        .iter()
                        .zip(&mate)
                        .filter(|(_, m)| m.is_none())
                        .map(|(&q, _)| order[q])
                        .collect());
                }
                // Release the lowest committed pairs (they were committed last, window by window).
                committed.sort_unstable_by_key(|&(x, y)| x.max(y));
                while window.len() < target {
                    let Some((x, y)) = committed.pop() else { break };
                    window.push(x);
                    window.push(y);
                }
                window.sort_unstable();
                let cands: Vec<usize> = window.iter().map(|&q| order[q]).collect();
                mate = self.solve(&cands, matchings);
            }
        }
    }
}
