//! Swiss and McMahon pairing of one round by maximum-weight matching, at league scale.
//!
//! # Design: sliding windows by score (OpenGotha-style chunks, with overlap)
//!
//! An exact dense matching of the whole field is O(n³): fine for a few hundred players, far too
//! slow for 10,000. Fields of at most [`PairingParams::whole`] players (384) are one window, the
//! exact optimum. Larger fields are walked in score order (then rank, then recorded lot) and paired
//! in *windows*: each window holds the players carried over from the previous window plus the next
//! [`PairingParams::advance`] players of the walk, and is matched exactly with the weights of
//! [`crate::weights`]. Pairs wholly above the window's last [`PairingParams::tail`] players are
//! committed; pairs touching that tail, and players left unmatched, are carried into the next
//! window, so that a player near a window's lower edge can still meet someone further down.
//!
//! **The walk seats each score group** ([`seeded_walk`]): a group larger than a window would
//! otherwise be cut into windows holding only its top half, then only its bottom half, and paired
//! inside each half, against the seed system. The walk lists the group's ideal pairs side by side
//! (split and fold: 1st and last, 2nd and second-to-last …; split and slip and split and random: 1st
//! and `h+1`-th …), and puts first the ideal pairs of two players who want the same color, those
//! wanting White alternating with those wanting Black, so that one window may swap their partners
//! (color balance weighs above seeding). Measured by [`crate`]'s users with `weiqi bench pairing`:
//! on 2,000 players the windows give the exact optimum's score differences and, in rounds 1–3, its
//! color balance; seeding costs differ only where split and random draws its partners.
//!
//! Each window's weights are stacked with multipliers fitted to the window
//! ([`crate::matching::lexicographic_matching`]), which lets the blossom run on `i64`.
//!
//! The last window must match everyone. If it cannot (every remaining partner is a rematch or a
//! forbidden pair), committed pairs are released back into it, doubling it, until it succeeds or
//! reaches [`PairingParams::max_window`] players.
//!
//! # The bye
//! With an odd field, the bye goes to the lowest eligible player (lowest score, then rank, then lot)
//! who has not had one ([`ByePolicy::OncePerPlayer`]) and whose absence leaves the rest pairable
//! without a rematch; candidates are tried from the bottom. This ranks criterion 2 above the
//! score-difference criterion, as the issue orders them.

use crate::ids::PlayerId;
use crate::matching::{Weight, lexicographic_matching};
use crate::seeding::SeedSystem;
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
    /// Fields of at most this many players are one window: the exact optimum.
    pub whole: usize,
}

impl Default for PairingParams {
    /// Fields up to 384 are paired exactly (≈0.1 s for 384 players here); larger fields in windows
    /// of 128 new players and a tail of 32 (issue 31 item 4: a 10,000-player round in under a
    /// second; `weiqi bench pairing` measures what the windows give up against the exact optimum).
    fn default() -> Self {
        PairingParams { advance: 128, tail: 32, max_window: 1536, whole: 384 }
    }
}

impl PairingParams {
    /// One window for the whole field: the exact dense optimum (for measuring the windows).
    pub fn exact(n: usize) -> PairingParams {
        PairingParams { advance: n.max(1), tail: 0, max_window: n.max(2), whole: n }
    }

    /// The windows for a field of `n` players: one exact window when the field is small enough.
    fn for_field(&self, n: usize) -> PairingParams {
        if n <= self.whole.max(self.advance + self.tail) { PairingParams::exact(n) } else { *self }
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
    // The order the windows walk: the pairing order, with each score group seated so that the seed
    // system's ideal partners stand side by side when the field needs more than one window.
    let params = &params.for_field(order.len());
    let walk = if params.whole < order.len() { seeded_walk(candidates, &order) } else { order.clone() };
    let ctx = Ctx { c: candidates, forbidden, policy, params, groups: score_groups(candidates) };
    let mut matchings = 0;
    if walk.len().is_multiple_of(2) {
        let pairs = ctx
            .pair_even(&walk, &mut matchings)
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
        let rest: Vec<usize> = walk.iter().copied().filter(|&i| i != bye).collect();
        match ctx.pair_even(&rest, &mut matchings) {
            Ok(pairs) => return Ok(ctx.plan(pairs, Some(candidates[bye].id), matchings)),
            Err(left) => last_err = left,
        }
    }
    Err(PairingError::NoPairingWithoutRematch(ctx.ids(&last_err)))
}

/// The pairing order with every score group rearranged so that each player's ideal partner under
/// the group's seed system ([`crate::seeding`]) stands next to them: split and fold pairs `1, n`,
/// `2, n−1` …, split and slip and split and random `1, h+1`, `2, h+2` … (`h = ⌊n/2⌋`, the top half
/// against the bottom half). Pairs of two players wanting the same color come first (White and
/// Black alternating), then the others in seat order, then a group's odd player. Groups stay in
/// score order, so score differences are unchanged. Players without a seat (team pairings) keep the
/// pairing order.
fn seeded_walk(c: &[Candidate], order: &[usize]) -> Vec<usize> {
    let mut walk = Vec::with_capacity(order.len());
    let mut start = 0;
    while start < order.len() {
        let score = c[order[start]].score;
        let end = start + order[start..].iter().take_while(|&&i| c[i].score == score).count();
        let group = &order[start..end];
        let n = group.len();
        // The group's ideal pairs, in seat order, and the odd one out.
        let mut units: Vec<[usize; 2]> = Vec::with_capacity(n / 2);
        let h = n / 2;
        let odd = match c[group[0]].seat.map(|s| s.system) {
            Some(SeedSystem::SplitAndFold) => {
                units.extend((0..h).map(|k| [group[k], group[n - 1 - k]]));
                group.get(h).filter(|_| n % 2 == 1)
            }
            Some(SeedSystem::SplitAndSlip | SeedSystem::SplitAndRandom) => {
                units.extend((0..h).map(|k| [group[k], group[h + k]]));
                group.get(2 * h)
            }
            None => {
                walk.extend_from_slice(group);
                start = end;
                continue;
            }
        };
        // Pairs of two players who want the same color go first, those wanting White alternating with
        // those wanting Black, so that one window holds both and may swap partners between them.
        let want = |i: usize| color_want(&c[i]);
        let conflict = |u: &[usize; 2]| if want(u[0]) == want(u[1]) { want(u[0]) } else { 0 };
        let whites: Vec<[usize; 2]> = units.iter().copied().filter(|u| conflict(u) > 0).collect();
        let blacks: Vec<[usize; 2]> = units.iter().copied().filter(|u| conflict(u) < 0).collect();
        for k in 0..whites.len().max(blacks.len()) {
            walk.extend(whites.get(k).into_iter().chain(blacks.get(k)).flatten());
        }
        walk.extend(units.iter().filter(|u| conflict(u) == 0).flatten());
        walk.extend(odd);
        start = end;
    }
    walk
}

/// The color a player's next even game should give them: `1` White, `-1` Black, `0` either.
fn color_want(c: &Candidate) -> i32 {
    match c.color_balance.signum() {
        0 => match c.last_color {
            Some(crate::ids::Color::Black) => 1,
            Some(crate::ids::Color::White) => -1,
            None => 0,
        },
        s => s,
    }
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
        for p in &mut pairs {
            if pos[&p.b] < pos[&p.a] {
                std::mem::swap(&mut p.a, &mut p.b);
            }
        }
        pairs.sort_by_key(|p| pos[&p.a]);
        RoundPlan { pairs, bye, matchings }
    }

    /// Exact matching of `window` (candidate indices). Returns mates as positions within `window`.
    fn solve(&self, window: &[usize], matchings: &mut usize) -> Vec<Option<usize>> {
        *matchings += 1;
        lexicographic_matching(window.len(), |x, y| self.cost(window[x], window[y]).map(|c| c.capped_tiers()))
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
